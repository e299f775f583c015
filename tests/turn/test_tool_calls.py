"""Tool calls: arguments validated against the tool's model; malformed calls are tool errors."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

from pydantic import BaseModel

from lwcore.contributions import ToolSpec
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room


def _anthropic(*calls, text: str = "") -> dict:
    content = [{"type": "tool_use", "id": f"t{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
    return {"content": [*content, {"type": "text", "text": text}]}


def test_bad_arguments_become_tool_errors_and_good_calls_still_apply(kernel, room_dir: Path) -> None:
    reply = _anthropic(
        ("set_variable", {"id": "clues_found"}),                       # missing value
        ("adjust_variable", {"id": "clues_found", "delta": "lots"}),   # wrong type
        ("adjust_variable", {"id": "clues_found", "delta": 1, "x": 1}),  # unknown field
        ("skill_check", ["p1", "侦查"]),                                # not an object
        ("no_such_tool", {}),                                          # unknown tool
        ("define_variable", {"id": "mine"}),                           # keeper-only, player turn
        ("set_variable", {"id": "nope", "value": 1}),                   # undeclared variable
        ("set_variable", {"id": "fog", "value": "晴"}),                 # not an enum option
        ("skill_check", {"character": "nobody", "skill": "侦查"}),       # unknown character
        ("skill_check", {"character": "p1", "skill": "侦查", "difficulty": "absurd"}),  # unknown difficulty
        ("subsystem_check", {"character": "p1", "subsystem": "sanity", "loss": "lots"}),  # bad loss shape
        ("adjust_variable", {"id": "clues_found", "delta": 1}),         # fine
    )
    result = run_turn(kernel, room_dir, "试试", reply=reply, rng=random.Random(1))
    errors = [r.is_error for r in result.applied.results]
    assert errors == [True] * 11 + [False]
    messages = [r.content["error"] for r in result.applied.results[:11]]
    assert "value" in messages[0] and "Field required" in messages[0]
    assert "delta" in messages[1]
    assert "x" in messages[2]
    assert "JSON object" in messages[3]
    assert "not available" in messages[4] and "not available" in messages[5]
    assert "no variable 'nope'" in messages[6]
    assert "薄雾" in messages[7]
    assert "nobody" in messages[8]
    assert "absurd" in messages[9]
    assert "SUCCESS/FAILURE" in messages[10]
    room = Room.load(room_dir, kernel)
    assert room.variable("clues_found").value == 2 and room.variable("fog").value == "浓雾"
    assert room.variable("mine") is None


def test_chat_arguments_that_are_not_json(kernel, room_dir: Path) -> None:
    reply = {"choices": [{"message": {"role": "assistant", "content": "嗯。", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "adjust_variable", "arguments": "{id: clues_found"}},
        {"id": "c2", "type": "function", "function": {"name": "adjust_variable",
                                                      "arguments": '{"id": "clues_found", "delta": 100}'}},
    ]}}]}
    result = run_turn(kernel, room_dir, "试试", provider="chat_completions", reply=reply)
    first, second = result.applied.results
    assert first.is_error and "JSON" in first.content["error"]
    assert not second.is_error and second.content["value"] == 6 and "clamped" in second.content
    assert result.applied.tool_messages[0] == {"role": "tool", "tool_call_id": "c1", "content": first_json(first)}


def first_json(result) -> str:
    import json

    return json.dumps(result.content, ensure_ascii=False)


def test_clamping_through_tools(kernel, room_dir: Path) -> None:
    reply = _anthropic(
        ("adjust_variable", {"id": "cult_alert", "delta": -50}),
        ("set_variable", {"id": "ritual_nights_left", "value": 12}),
        ("set_variable", {"id": "clues_found", "value": "4"}),
    )
    result = run_turn(kernel, room_dir, "……", actor="kp", reply=reply)
    values = [r.content["value"] for r in result.applied.results]
    assert values == [0, 3, 4]
    assert "clamped" in result.applied.results[0].content and "clamped" in result.applied.results[1].content
    room = Room.load(room_dir, kernel)
    assert [room.variable(v).value for v in ("cult_alert", "ritual_nights_left", "clues_found")] == [0, 3, 4]


class _Args(BaseModel):
    n: int


def _boom(args: _Args, ctx) -> dict:
    raise RuntimeError("plugin bug")


def _echo(args: _Args, ctx) -> dict:
    return {"n": args.n}


def _plugin_kernel(tmp_path: Path, **hooks) -> Kernel:
    manifest = {"id": "extra", "version": "1", "tier": "code", "provides": sorted(
        {"lw_tools": "tools", "lw_prompt_segments": "prompt_segments"}[h] for h in hooks)}
    return Kernel(data_dir=tmp_path / "data", env={}, plugins=[InProcessPlugin(manifest, SimpleNamespace(**hooks))])


def test_gated_tools_need_a_feature_and_a_raising_tool_is_contained(tmp_path: Path, room_dir: Path) -> None:
    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        register(ToolSpec("boom", {"en": "breaks"}, _Args, _boom))
        register(ToolSpec("omen", {"en": "gated"}, _Args, _echo, gated=True))
        register(ToolSpec("prep_only", {"en": "prep"}, _Args, _echo, phase="prep"))

    kernel = _plugin_kernel(tmp_path, lw_tools=lw_tools)
    assert "boom" not in compile_turn(kernel, room_dir, "x").tool_names  # room offers only coc7's + kernel's
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8").replace("tool_plugins: [coc7]", "tool_plugins: [coc7, extra]"),
                         encoding="utf-8")
    names = compile_turn(kernel, room_dir, "x").tool_names
    assert "boom" in names and "omen" not in names and "prep_only" not in names
    (room_dir / "room.yaml").write_text(
        (room_dir / "room.yaml").read_text(encoding="utf-8").replace("features: []", "features: [{id: omens, tools: [omen]}]\nphase: prep"),
        encoding="utf-8",
    )
    compiled = compile_turn(kernel, room_dir, "x")
    assert "omen" in compiled.tool_names and "prep_only" in compiled.tool_names
    result = run_turn(kernel, room_dir, "x", reply=_anthropic(("boom", {"n": 1}), ("omen", {"n": 2})))
    boom, omen = result.applied.results
    assert boom.is_error and "RuntimeError: plugin bug" in boom.content["error"]
    assert not omen.is_error and omen.content == {"n": 2}


def test_a_raising_segment_hook_is_dropped_and_reported(tmp_path: Path, room_dir: Path, recorded) -> None:
    @hookimpl
    def lw_prompt_segments(turn):  # noqa: ANN001, ANN202
        raise RuntimeError("segment bug")

    kernel = _plugin_kernel(tmp_path, lw_prompt_segments=lw_prompt_segments)
    result = run_turn(kernel, room_dir, "我去码头查看那艘空船。", reply=recorded("anthropic_messages"), rng=random.Random(1))
    assert any(d.startswith("extra:") and "segment bug" in d for d in result.compiled.dropped)
    assert any(p == "persona" for p in (s.plugin for s in result.compiled.segments))  # the others still speak
    assert not any(r.is_error for r in result.applied.results)
    assert "segment bug" in " ".join(kernel.plugin("extra").errors)
