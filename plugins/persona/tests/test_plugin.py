"""The plugin through a real kernel and the ``lw persona`` CLI; the optional reflex layer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from lwcore.cli import lw
from lwcore.contributions import TurnContext
from lwcore.kernel import Kernel

from lw_persona import checks, reflex


@pytest.fixture
def kernel(tmp_path):
    return Kernel(data_dir=tmp_path / "lw")


def test_kernel_finds_the_plugin_and_its_contributions(kernel):
    record = kernel.plugin("persona")
    assert record.status == "enabled" and record.bundled
    assert {"persona-preset", "persona-sillytavern"} <= set(kernel.importers)
    assert {"persona-config", "persona-preset"} <= set(kernel.schemas)
    assert "persona" in kernel.cli_commands
    assert record.status == "enabled", record.errors


def test_segments_through_the_kernel(kernel, write_config, write_inbox):
    write_config({"thinkingLanguage": "en", "persona": {"stance": "{selfName}立场", "suffix": "@{{cwd}}",
                                                          "selfNameByModel": {"m1": "一号"}},
                  "memory": {"enabled": True}})
    write_inbox([{"text": "备忘", "status": "confirmed"}])
    segs = kernel.prompt_segments(TurnContext(model="m1", cwd=Path("/w"), extra={"persona_capture": True})).segments
    by_name = {e.value.name: e.value for e in segs if e.plugin_id == "persona"}
    assert set(by_name) == {"persona-prefix", "thinking-language", "persona-suffix"}
    assert by_name["persona-prefix"].text.startswith("一号立场\n\n【历史备忘")
    assert "入库纪律" in by_name["persona-prefix"].text
    assert by_name["persona-suffix"].text == "@/w" and by_name["persona-suffix"].slot == "suffix"


def test_no_segments_when_not_configured(kernel):
    segs = kernel.prompt_segments(TurnContext(model="x-pro", player_input="你是谁")).segments
    assert [e for e in segs if e.plugin_id == "persona"] == []


def test_host_passed_config_path(kernel, tmp_path):
    cfg = tmp_path / "host-config.json"
    cfg.write_text('{"persona": {"stance": "宿主给的"}}', encoding="utf-8")
    segs = kernel.prompt_segments(TurnContext(config={"persona": str(cfg)})).segments
    assert [e.value.text for e in segs if e.plugin_id == "persona"] == ["宿主给的"]


def test_import_through_the_kernel(kernel):
    card = {"spec": "chara_card_v2", "data": {"name": "K", "description": "desc", "first_mes": "hi"}}
    result = kernel.import_bytes(json.dumps(card).encode(), "k.json")
    assert result.kind == "persona-preset" and result.value["persona"]["character"] == "desc"
    assert [d.field for d in result.report.dropped] == ["data.first_mes"]
    preset = {"spec": "whale-persona-preset/1", "id": "p", "persona": {"stance": "s"}}
    assert kernel.import_bytes(json.dumps(preset).encode(), "p.json").value["persona"] == {"stance": "s"}


def test_plugin_module_is_light():
    code = ("import sys, lw_persona.plugin as p\n"
            "calls = []\n"
            "p.lw_importers(calls.append); p.lw_schemas(calls.append)\n"
            "assert 'pydantic' not in sys.modules, 'pydantic imported'\n"
            "assert 'yaml' not in sys.modules\n"
            "print(len(calls))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "4"


def test_schemas_resolve(kernel):
    from lwcore.contributions import resolve

    model = resolve(kernel.schemas["persona-config"].model)
    assert "persona" in model.model_json_schema()["properties"]
    preset = resolve(kernel.schemas["persona-preset"].model)
    preset.model_validate({"id": "ok", "persona": {"stance": "s"}})


# --- CLI ----------------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(lw, list(args))


def failed(result) -> bool:
    from lwcore.errors import LwError

    return isinstance(result.exception, LwError) or result.exit_code == 1


def test_cli_render_json(write_config, write_inbox, tmp_path):
    cfg = write_config({"persona": {"stance": "S", "suffix": "{{cwd}}"}, "memory": {"enabled": True}})
    inbox = tmp_path / "i.jsonl"
    inbox.write_text('{"text":"x","status":"confirmed"}\n', encoding="utf-8")
    result = run("persona", "render", "--config", str(cfg), "--inbox", str(inbox), "--model", "m", "--tier", "pro",
                 "--cwd", "/d", "--capture", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out) == {"persona-prefix", "thinking-language", "persona-suffix", "measure"}
    assert out["persona-suffix"] == "/d" and f"文件 {inbox} 的一行" in out["persona-prefix"]
    text = run("persona", "render", "--config", str(cfg)).output
    assert "=== thinking-language ===\n(空 —— 该段不会出现在系统提示词里)" in text


def test_cli_selfcheck_and_conformance():
    result = run("persona", "selfcheck")
    assert result.exit_code == 0 and "selfcheck: ok" in result.output
    assert result.output.count("=== persona-prefix ===\n(空 —— 该段不会出现在系统提示词里)") == 6
    result = run("persona", "conformance")
    assert result.exit_code == 0 and "FAIL" not in result.output


def test_cli_conformance_reports_failures(tmp_path):
    case = tmp_path / "only"
    case.mkdir()
    (case / "config.json").write_text('{"persona": {"stance": "A"}}', encoding="utf-8")
    (case / "expected.json").write_text('{"persona-prefix": "B"}', encoding="utf-8")
    result = run("persona", "conformance", str(tmp_path))
    assert result.exit_code == 1 and "FAIL  only" in result.output and "0/1 passed" in result.output


def test_cli_presets_import_export_round_trip(write_config, tmp_path):
    cfg = write_config({"persona": {"stance": "old"}, "memory": {"entries": [{"text": "secret"}]}})
    card = {"spec": "chara_card_v2", "data": {"name": "Card Name", "description": "D", "system_prompt": "rule one\nrule two",
                                              "first_mes": "hello", "extensions": {"keep": 1}}}
    src = tmp_path / "card.json"
    src.write_text(json.dumps(card), encoding="utf-8")
    result = run("persona", "import", str(src))
    assert result.exit_code == 0, result.output
    assert "NOT carried  data.first_mes" in result.output and "card-name" in result.output
    assert failed(run("persona", "import", str(src)))  # exists, no --force
    assert "card-name" in run("persona", "preset", "list").output
    shown = json.loads(run("persona", "preset", "show", "card-name").output)
    assert shown["persona"]["contracts"][1]["text"] == "rule two"
    assert run("persona", "preset", "apply", "card-name", "--config", str(cfg)).exit_code == 0
    after = json.loads(cfg.read_text(encoding="utf-8"))
    assert after["persona"]["character"] == "D" and after["memory"] == {"entries": [{"text": "secret"}]}
    assert "autosave" in run("persona", "preset", "list").output
    out = tmp_path / "out.json"
    assert run("persona", "export", "card-name", "-o", str(out)).exit_code == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["data"]["extensions"]["keep"] == 1
    assert failed(run("persona", "preset", "save", "autosave"))
    assert run("persona", "preset", "save", "mine", "--config", str(cfg)).exit_code == 0


def test_cli_errors_are_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-c", "from lwcore.cli import main; main()", "persona", "preset", "show", "../etc"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "invalid preset id" in proc.stderr


def test_cli_inbox_human_flow(write_config, home, tmp_path):
    sink = tmp_path / "pit.md"
    write_config({"memory": {"enabled": True, "sinks": {"pitfall": {"path": str(sink)}}}})
    from lw_persona.inbox import ModelInbox

    path = home / "whale-persona" / "memory-inbox.jsonl"
    model = ModelInbox(path)
    model.propose("记住这个")
    model.propose("坑一个", kind="pitfall", at="2026-02-03T00:00:00Z")
    model.propose("无路由", kind="mystery")
    status = json.loads(run("persona", "inbox", "status", "--json").output)
    assert [e["status"] for e in status["entries"]] == ["proposed"] * 3
    assert run("persona", "inbox", "confirm", "0").exit_code == 0
    result = run("persona", "inbox", "confirm", "1")
    assert "sunk to" in result.output and sink.read_text(encoding="utf-8") == "- 坑一个（2026-02-03）\n"
    result = run("persona", "inbox", "confirm", "1")
    assert "no route" in result.stderr
    assert run("persona", "inbox", "reject", "1").exit_code == 0
    status = json.loads(run("persona", "inbox", "status", "--json").output)
    assert [(e["text"], e["status"], e["injectable"]) for e in status["entries"]] == [("记住这个", "confirmed", True)]
    log = run("persona", "inbox", "log").output
    assert log.count("\n") == 8 and '"op":"confirm"' in log
    assert failed(run("persona", "inbox", "drop", "9"))


# --- reflex (§8) --------------------------------------------------------------------------


def write_rules(home: Path, rules, **top):
    path = home / "whale-persona" / "reflex.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"enabled": True, **top, "rules": rules}, ensure_ascii=False), encoding="utf-8")
    return path


def test_reflex_channels_tiers_and_filters(home):
    write_rules(home, [
        {"id": "who", "priority": 1, "when": {"text": "你是谁", "tier": "flash", "textNot": "代码"}, "then": {"reply": "我是助手。"}},
        {"id": "near", "when": {"nearAny": ["认得我吗"], "maxChars": 20}, "then": {"directive": "说认得。"}},
        {"id": "bag", "when": {"keywords": ["天气", "明天", "下雨"], "minHits": 2}, "then": {"directive": "看天气。"}},
        {"id": "dead", "when": {"text": "x"}, "then": {}},
    ])
    rules = reflex.load_rules()
    assert [r["id"] for r in rules.rules] == ["who", "near", "bag"]
    assert reflex.evaluate(rules, "你是谁？", "flash").rule["id"] == "who"
    assert reflex.evaluate(rules, "你是谁？", "pro") is None
    assert reflex.evaluate(rules, "这段代码你是谁写的", "flash") is None
    assert reflex.evaluate(rules, "你，认得 我吗？", "pro").why.startswith("near:")
    assert reflex.evaluate(rules, "他认得我吗", "pro") is None
    assert reflex.evaluate(rules, "你认得我吗" + "。" * 30, "pro") is None
    hit = reflex.evaluate(rules, "明天会下雨吗", "pro")
    assert hit.soft and "忽略本条" in reflex.directive(hit)


def test_reflex_dry_run_and_ledger(home, monkeypatch):
    write_rules(home, [{"id": "who", "when": {"text": "你是谁"}, "then": {"reply": "我。"}}], dryRun=True)
    text = "你是谁" + "啊" * 60
    assert reflex.reflex_segment(text, "flash") == ""
    write_rules(home, [{"id": "who", "when": {"text": "你是谁"}, "then": {"reply": "我。"}}])
    assert "我。" in reflex.reflex_segment(text, "pro")
    rows = [json.loads(l) for l in (home / "whale-persona" / "reflex.log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["phase"], r["rule"], r["tier"], r["head"]) for r in rows] == [
        ("dry-run", "who", "flash", text[:40]), ("fire", "who", "pro", text[:40])]
    assert set(rows[0]) == {"t", "phase", "rule", "tier", "head"}
    monkeypatch.setenv("DSH_REFLEX_OFF", "1")
    assert reflex.reflex_segment(text, "pro") == ""


def test_reflex_bad_files(home):
    path = write_rules(home, [])
    path.write_text("{bad", encoding="utf-8")
    assert reflex.load_rules().rules == ()
    write_rules(home, [{"id": "r", "when": {"text": "(unclosed"}, "then": {"reply": "x"}}])
    assert reflex.reflex_segment("(unclosed", "flash") == ""


def test_reflex_regexes_are_javascripts_and_bounded(home):
    write_rules(home, [
        {"id": "slow", "priority": 2, "when": {"text": "(a+)+$"}, "then": {"reply": "never"}},
        {"id": "veto", "priority": 1, "when": {"text": "\\d{3}", "textNot": "(?<=no)way"}, "then": {"reply": "digits"}},
    ])
    rules = reflex.load_rules()
    assert reflex.evaluate(rules, "a" * 40 + "!", "pro") is None  # overran its 0.1 s: no hit, no hang
    assert reflex.evaluate(rules, "room 101", "pro").rule["id"] == "veto"
    assert reflex.evaluate(rules, "room ١٠١", "pro") is None  # \d is ASCII in JavaScript
    assert reflex.evaluate(rules, "room 101, noway", "pro") is None  # lookbehind


def test_bundled_vectors_pass():
    results = checks.run_all()
    assert len(results) >= 20
    assert all(r.ok for r in results), [r for r in results if not r.ok]


def test_near_any_looks_two_utf16_units_back():
    """The reference reads ``norm.slice(at - 2, at)``: an emoji is both units, so the 他 before it
    is out of reach (a code-point slice would see it and refuse)."""
    rule = {"id": "near", "when": {"nearAny": ["认得我吗"]}, "then": {"directive": "x"}}
    assert reflex.match_rule(rule, "他😀认得我吗", "pro").why == "near:认得我吗"
    assert reflex.match_rule(rule, "他a认得我吗", "pro") is None
