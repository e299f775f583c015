"""Reply processors (``lw_reply_text``) in a turn, on every provider: the narration they leave
is what players read, their MVU tree operations are applied by the engine, their notes are
keeper-only, and a processor that fails is skipped without breaking the turn."""

from __future__ import annotations

import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lwcore.contributions import ReplyEdit
from lwcore.turn import tree
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.view import view_for

from .conftest import PROTOCOLS, SAY, with_narration

MARK = re.compile(r"\[\[set (\S+)=(\S+)\]\]")
SECRET = "灯塔看守人"


def processor(plugin_id: str, fn: Any, *, tryfirst: bool = False) -> InProcessPlugin:
    impl = hookimpl(tryfirst=tryfirst)(fn)
    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": ["reply_text"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_reply_text=impl))


def markers(text: str) -> ReplyEdit:
    """Cut ``[[set path=value]]`` markers out; ask for each as a tree write."""
    ops = tuple(tree.put(path, value, reason="marker") for path, value in MARK.findall(text))
    return ReplyEdit(MARK.sub("", text).rstrip(), ops, notes=(f"{len(ops)} marker(s) read",) if ops else ())


def room_events(room: Room, kind: str) -> list[Any]:
    return [e for e in room.history.all() if e.data and e.data.get("kind") == kind]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_processor_cleans_the_narration_and_its_writes_are_applied(tmp_path: Path, room_dir: Path, protocol: str,
                                                                      recorded) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[processor("marks", lambda text: markers(text))])
    reply = with_narration(recorded(protocol), f"\n[[set 真相.凶手={SECRET}]][[set 世界.潮位=3]]")
    result = run_turn(kernel, room_dir, SAY, provider=protocol, reply=reply, rng=random.Random(5))
    assert "[[set" not in result.applied.narration and result.applied.narration.endswith("你们要跟上去吗？")
    room = Room.load(room_dir, kernel)
    assert room.documents.get("mvu", "mvu").data["tree"] == {"真相": {"凶手": SECRET}, "世界": {"潮位": "3"}}
    keeper_lines = [e.text for e in room.history.all() if e.role == "keeper"]
    assert keeper_lines and "[[set" not in keeper_lines[-1]
    writes = room_events(room, "tree")
    assert [e.data["path"] for e in writes] == ["真相.凶手", "世界.潮位"] and all(e.audience == "keeper" for e in writes)
    assert [e.text for e in room_events(room, "reply_note")] == ["marks: 2 marker(s) read"]
    for player in ("p1", "p2"):
        assert SECRET not in view_for(room, player).to_json_text()
    assert SECRET in view_for(room, "kp").to_json_text()


def test_processors_run_in_turn_each_on_the_text_the_one_before_left(tmp_path: Path, room_dir: Path, recorded) -> None:
    seen: list[str] = []

    def first(text: str) -> ReplyEdit:
        seen.append(text)
        return ReplyEdit(text.replace("{{roll:1d3}}", "{{roll:1d3}}（一）"))

    def second(text: str) -> ReplyEdit:
        seen.append(text)
        return ReplyEdit(text + "（二）")

    kernel = Kernel(data_dir=tmp_path / "d", env={},
                    plugins=[processor("zz-second", second), processor("aa-first", first, tryfirst=True)])
    result = run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(5))
    assert "（一）" in seen[1] and result.applied.narration.endswith("（二）")
    assert re.search(r"响了 \d（一） 下", result.applied.narration)  # rolls are expanded after the processors


def test_a_raising_processor_is_skipped_and_the_turn_goes_on(tmp_path: Path, room_dir: Path, recorded) -> None:
    def broken(text: str) -> ReplyEdit:
        raise RuntimeError("processor broke")

    kernel = Kernel(data_dir=tmp_path / "d", env={},
                    plugins=[processor("broken", broken, tryfirst=True), processor("marks", lambda text: markers(text))])
    reply = with_narration(recorded("anthropic_messages"), "[[set 世界.潮位=4]]")
    result = run_turn(kernel, room_dir, SAY, reply=reply, rng=random.Random(5))
    assert not any(r.is_error for r in result.applied.results)
    assert "[[set" not in result.applied.narration  # the next processor got the text unchanged
    room = Room.load(room_dir, kernel)
    assert room.documents.get("mvu", "mvu").data["tree"] == {"世界": {"潮位": "4"}}
    failed = room_events(room, "reply_processor_failed")
    assert len(failed) == 1 and "processor broke" in failed[0].text and failed[0].audience == "keeper"
    record = kernel.plugin("broken")
    assert record.status == "error" and any("processor broke" in e for e in record.errors)


@pytest.mark.parametrize("bad", ["just text", ReplyEdit(narration=3), ReplyEdit("x", tree_changes=({"op": "set"},))])  # type: ignore[arg-type]
def test_a_processor_returning_the_wrong_thing_changes_nothing(tmp_path: Path, room_dir: Path, recorded, bad) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[processor("odd", lambda text: bad)])
    result = run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(5))
    assert result.applied.narration.endswith("你们要跟上去吗？")
    assert room_events(Room.load(room_dir, kernel), "reply_processor_failed")
    assert kernel.plugin("odd").status == "error"


def test_a_refused_write_is_logged_for_the_keeper(tmp_path: Path, room_dir: Path, recorded) -> None:
    def refusing(text: str) -> ReplyEdit:
        return ReplyEdit(text, (tree.replace("没有.这个", 1), tree.put("有", 1), tree.add("有", "x")))  # type: ignore[arg-type]

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[processor("r", refusing)])
    run_turn(kernel, room_dir, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(5))
    room = Room.load(room_dir, kernel)
    assert room.documents.get("mvu", "mvu").data["tree"] == {"有": 1}
    refused = room_events(room, "tree_refused")
    assert [e.data["path"] for e in refused] == ["没有.这个", "有"] and all(e.audience == "keeper" for e in refused)
    assert "no such variable" in refused[0].text
    assert not any("没有.这个" in line.text for line in view_for(room, "p1").history)
