"""§5/§6: replay semantics, write rights, concurrent appends, sinks."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from lwcore.errors import LwError

from lw_persona import inbox as ib
from lw_persona import sinks
from lw_persona.config import merge


def view(lines):
    return [(e.text, e.status, e.tag, e.kind) for e in ib.replay([json.dumps(l, ensure_ascii=False) if not isinstance(l, str) else l for l in lines]).entries]


def test_fact_lines_and_statuses():
    assert view([{"text": "a", "status": "proposed"}, {"text": "b", "status": " Confirmed "}, {"text": "c"},
                 {"text": "d", "status": "weird"}, {"text": "e", "status": ""}]) == [
        ("a", "proposed", "", "memory"), ("b", "confirmed", "", "memory"), ("c", "legacy", "", "memory"),
        ("d", "unknown", "", "memory"), ("e", "legacy", "", "memory")]


def test_bad_lines_and_unknown_ops_are_skipped_alone():
    rep = ib.replay(["{", "", "  ", "[]", "null", '"s"', '{"text": ""}', '{"op":"confirm"}', '{"op":"nuke","ref":"a"}',
                     '{"text":"a","status":"proposed"}', '{"op":"retier","ref":"a","tier":"cold"}', '{"op":"confirm","ref":"a"}'])
    assert [(e.text, e.status) for e in rep.entries] == [("a", "confirmed")]
    assert rep.unknown_ops == 2 and rep.bad >= 5


def test_confirm_reject_drop():
    lines = [{"text": "a", "status": "proposed"}, {"text": "b", "status": "proposed"}, {"text": "c", "status": "confirmed"},
             {"op": "confirm", "ref": "a"}, {"op": "reject", "ref": "b"}, {"op": "drop", "ref": "c"}, {"op": "confirm", "ref": "zz"}]
    assert view(lines) == [("a", "confirmed", "", "memory")]


def test_supersede_chain_moves_to_end_and_keeps_confirmation():
    lines = [{"text": "a", "status": "confirmed", "tag": "t"}, {"text": "b", "status": "confirmed"},
             {"op": "supersede", "ref": "a", "text": "a2"},
             {"op": "supersede", "ref": "a2", "text": "a3", "tag": "u"},
             {"op": "supersede", "ref": "b", "text": "b2", "status": "proposed", "kind": "idea"},
             {"op": "supersede", "ref": "gone", "text": "x"},
             {"op": "supersede", "ref": "a3"}]  # no text: bad line
    assert view(lines) == [("a3", "confirmed", "u", "memory"), ("b2", "proposed", "", "idea")]
    assert view([{"text": "a", "status": "confirmed", "tag": "t"}, {"op": "supersede", "ref": "a", "text": "n"}]) == [
        ("n", "confirmed", "t", "memory")]


def test_duplicate_texts_ops_hit_the_first():
    lines = [{"text": "d", "status": "proposed", "tag": "1"}, {"text": "d", "status": "proposed", "tag": "2"},
             {"op": "confirm", "ref": "d"}]
    assert view(lines) == [("d", "confirmed", "1", "memory"), ("d", "proposed", "2", "memory")]
    assert view(lines + [{"op": "drop", "ref": "d"}, {"op": "confirm", "ref": "d"}]) == [("d", "confirmed", "2", "memory")]
    # a superseded duplicate leaves the other one in place
    assert view([{"text": "d"}, {"text": "d", "tag": "2"}, {"op": "supersede", "ref": "d", "text": "e"}]) == [
        ("d", "legacy", "2", "memory"), ("e", "legacy", "", "memory")]


def test_text_is_folded_and_ref_matches_folded_text():
    lines = [{"text": "  多行\r\n\n文本  ", "status": "proposed"}, {"op": "confirm", "ref": "多行\n文本"}]
    assert view(lines) == [("多行 文本", "confirmed", "", "memory")]
    assert view([{"text": 12, "status": "confirmed"}, {"text": True}]) == [("12", "confirmed", "", "memory"), ("true", "legacy", "", "memory")]


def test_kind_normalisation():
    assert view([{"text": "a", "kind": " Pit-Fall_1!/.. "}, {"text": "b", "kind": "!!"}]) == [
        ("a", "legacy", "", "pit-fall_1"), ("b", "legacy", "", "memory")]


def test_crlf_and_missing_final_newline(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"text":"a","status":"confirmed"}\r\n{"text":"b"}')
    ib.ModelInbox(path).propose("c")
    assert [e.text for e in ib.read(path).entries] == ["a", "b", "c"]


def test_injectable_rules():
    entries = ib.replay(['{"text":"c","status":"confirmed"}', '{"text":"p","status":"proposed"}', '{"text":"l"}',
                         '{"text":"u","status":"x"}', '{"text":"k","kind":"idea","status":"confirmed"}']).entries
    assert [e.text for e in ib.injectable(entries)] == ["c"]
    assert [e.text for e in ib.injectable(entries, require_confirm=False)] == ["c", "l"]


def test_model_facing_api_can_only_propose(tmp_path):
    path = tmp_path / "in.jsonl"
    model = ib.ModelInbox(path)
    assert not any(hasattr(model, name) for name in ("confirm", "reject", "drop"))
    model.propose("偏好A", tag="proj")
    model.propose("坑B", kind="pitfall")
    model.propose_supersede("偏好A", "偏好A2")
    with pytest.raises(LwError):
        model.propose("x", kind="Bad Kind")
    with pytest.raises(LwError):
        model.propose("   ")
    rows = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()]
    assert all(r["status"] == "proposed" for r in rows)
    assert rows[1]["kind"] == "pitfall" and rows[2]["op"] == "supersede"
    # the supersede of a confirmed entry by the model needs a new confirmation
    ib.confirm(path, 0)
    assert [(e.text, e.status) for e in ib.read(path).entries] == [("坑B", "confirmed"), ("偏好A2", "proposed")]
    ib.confirm(path, 1)
    model.propose_supersede("偏好A2", "偏好A3")
    assert [(e.text, e.status) for e in ib.read(path).entries] == [("坑B", "confirmed"), ("偏好A3", "proposed")]


def test_human_ops_by_index(tmp_path):
    path = tmp_path / "in.jsonl"
    for t in ("a", "b", "c"):
        ib.ModelInbox(path).propose(t)
    ib.confirm(path, 0)
    ib.reject(path, 1)
    ib.drop(path, 1)  # index 1 is now "c"
    assert [(e.text, e.status) for e in ib.read(path).entries] == [("a", "confirmed")]
    with pytest.raises(LwError):
        ib.confirm(path, 5)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and json.loads(lines[3])["op"] == "confirm"


def _writer(path: str, tag: str, count: int) -> None:
    model = ib.ModelInbox(Path(path))
    for i in range(count):
        model.propose(f"{tag}-{i}-" + "x" * 200)


def test_concurrent_appends_from_two_processes_lose_nothing(tmp_path):
    path = tmp_path / "in.jsonl"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), tag, 150)) for tag in ("p", "q")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""
    rows = [json.loads(l) for l in lines[:-1]]
    assert len(rows) == 300
    assert {r["text"] for r in rows} == {f"{t}-{i}-" + "x" * 200 for t in "pq" for i in range(150)}


# --- sinks (§6) ---------------------------------------------------------------------------


def test_sink_formats_idempotence_and_no_route(tmp_path, home):
    md, jl, plain = tmp_path / "notes" / "pit.md", tmp_path / "ideas.jsonl", tmp_path / "n.txt"
    md.parent.mkdir()
    cfg = merge({"memory": {"sinks": {
        "pitfall": {"path": str(md), "header": "## Pitfalls"},
        "idea": {"path": str(jl), "format": "JSONL"},
        "note": {"path": str(plain), "format": "plain", "template": "{date} {kind} {tag} {text} {source} {other}"},
    }}})
    e = ib.Entry("别在 CI 里 sleep", "2026-03-04T05:06:07Z", "proj", "confirmed", "pitfall")
    assert sinks.sink_entry(cfg, e).status == "sunk"
    assert sinks.sink_entry(cfg, e).status == "already-sunk"
    assert md.read_text(encoding="utf-8") == "## Pitfalls\n- 别在 CI 里 sleep（2026-03-04）\n"
    r = sinks.sink_entry(cfg, ib.Entry("想法", "2026-01-01T00:00:00Z", "", "confirmed", "idea"))
    assert r.status == "sunk"
    assert json.loads(jl.read_text(encoding="utf-8")) == {"text": "想法", "kind": "idea", "at": "2026-01-01T00:00:00Z", "source": "lw persona"}
    sinks.sink_entry(cfg, ib.Entry("笔记", "2026-01-02T00:00:00Z", "t", "confirmed", "note"))
    assert plain.read_text(encoding="utf-8") == "2026-01-02 note t 笔记 lw persona {other}\n"
    assert sinks.sink_entry(cfg, ib.Entry("?", kind="unrouted")).status == "no-route"
    assert sinks.sink_entry(cfg, ib.Entry("m")).status == "memory-kind"
    log = sinks.read_log(home / "whale-persona" / "sink-log.jsonl")
    assert [x["kind"] for x in log] == ["pitfall", "idea", "note"]


def test_sink_never_rewrites_existing_content(tmp_path):
    target = tmp_path / "t.md"
    target.write_text("已有内容\n", encoding="utf-8")
    cfg = merge({"memory": {"sinks": {"pitfall": {"path": str(target), "header": "## H\n"}}}})
    sinks.sink_entry(cfg, ib.Entry("新", "2026-01-01T00:00:00Z", kind="pitfall"))
    assert target.read_text(encoding="utf-8") == "已有内容\n- 新（2026-01-01）\n"


def test_cached_view_sees_every_append(tmp_path):
    path = tmp_path / "in.jsonl"
    model = ib.ModelInbox(path)
    model.propose("a")
    assert [e.text for e in ib.read(path).entries] == ["a"]
    first = ib.read(path)
    first.entries.clear()  # callers get their own list
    assert [e.text for e in ib.read(path).entries] == ["a"]
    model.propose("b")
    assert [e.text for e in ib.read(path).entries] == ["a", "b"]
    path.unlink()
    assert ib.read(path).entries == []
