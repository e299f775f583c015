"""End-to-end turns on the bundled example room, for both provider protocols."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from lwcore.turn.compile import compile_turn
from lwcore.turn.room import Room

PROTOCOLS = ("anthropic_messages", "chat_completions", "openai_responses")
SAY = "我去码头查看那艘空船。"


def rng(seed: int = 7) -> random.Random:
    return random.Random(seed)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_compile_is_read_only_and_complete(kernel, room_dir: Path, protocol: str) -> None:
    before = {p: p.read_bytes() for p in room_dir.rglob("*") if p.is_file()}
    compiled = compile_turn(kernel, room_dir, SAY, provider=protocol)
    assert {p: p.read_bytes() for p in room_dir.rglob("*") if p.is_file()} == before
    text = json.dumps(compiled.request, ensure_ascii=False)
    # the persona plugin's segments, the rulepack's expertise, sheets, keeper variables, input
    assert ("persona", "system") in {(s.plugin, s.slot) for s in compiled.segments}
    assert "沉稳克制" in text and "每段叙述结尾" in text
    assert "1d100" in text  # coc7 expertise comes from the rulepack data
    assert "陈默" in text and "侦查 65" in text
    assert "true_culprit" in text and "灯塔看守人周伯年" in text  # the keeper's prompt sees secrets
    assert text.count(SAY) == 1
    # tools in the provider's shape; keeper-only define_variable is not offered to a player
    names = compiled.tool_names
    assert {"skill_check", "subsystem_check", "set_variable", "adjust_variable"} <= set(names)
    assert "subsystem_check" in text and "sanity (理智, loss S/F, .sc)" in text  # listed from the pack's data
    assert "define_variable" not in names
    tools = compiled.request["tools"]
    if protocol == "anthropic_messages":
        assert all(set(t) == {"name", "description", "input_schema"} for t in tools)
        assert isinstance(compiled.request["system"], list)
    elif protocol == "chat_completions":
        assert all(t["type"] == "function" and "parameters" in t["function"] for t in tools)
        assert compiled.request["messages"][0]["role"] == "system"
    else:  # the Responses API: flat function tools, messages as input items, max_output_tokens
        assert all(set(t) == {"type", "name", "description", "parameters", "strict"} and t["strict"] is False and t["type"] == "function" for t in tools)
        assert compiled.request["input"][0]["role"] == "system" and "messages" not in compiled.request
        assert compiled.request["max_output_tokens"] > 0
    assert "protocol" not in compiled.request
    assert compiled.cache["estimatedCacheableBytes"] > 0
    assert compiled.dropped == ()


def test_keeper_gets_keeper_only_tools(kernel, room_dir: Path) -> None:
    compiled = compile_turn(kernel, room_dir, "开场。", actor="kp")
    assert compiled.keeper and "define_variable" in compiled.tool_names


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_recorded_reply_is_applied_and_saved(kernel, room_dir: Path, protocol: str, recorded) -> None:
    result = kernel.turn(room_dir, SAY, provider=protocol, reply=recorded(protocol), rng=rng())
    applied = result.applied
    assert [r.name for r in applied.results] == [
        "skill_check", "subsystem_check", "adjust_variable", "adjust_variable", "set_variable"
    ]
    assert not any(r.is_error for r in applied.results), applied.results
    check = applied.results[0].content
    assert check["skill"] == "侦查" and check["target"] == 65 and 1 <= check["roll"] <= 100
    assert check["success"] == (check["roll"] <= 65)
    loss = applied.results[1].content
    values = loss["values"]
    assert loss["subsystem"] == "sanity" and values["stat"] == "理智" and values["before"] == 60
    assert values["after"] == 60 - values["loss"] and loss["changes"] == {"理智": [60, values["after"]]}
    assert loss["check"]["target"] == 60 and loss["success"] == loss["check"]["success"]
    assert "{{roll" not in applied.narration and applied.rolls and applied.rolls[0]["expr"] == "1d3"
    assert str(applied.rolls[0]["total"]) in applied.narration
    # tool results in the protocol's shape
    messages = applied.tool_messages
    if protocol == "anthropic_messages":
        assert messages[0]["role"] == "user" and messages[0]["content"][0]["type"] == "tool_result"
    elif protocol == "chat_completions":
        assert [m["role"] for m in messages] == ["tool"] * 5
    else:
        assert [m["type"] for m in messages] == ["function_call_output"] * 5
        assert [m["call_id"] for m in messages] == ["call_01", "call_05", "call_02", "call_03", "call_04"]
    # the state change is on disk
    again = Room.load(room_dir, kernel)
    assert again.variable("clues_found").value == 2
    assert again.variable("cult_alert").value == 3
    assert again.variable("fog").value == "蔽日"
    assert again.sheets["p1"].get("理智") == values["after"]
    roles = [h.role for h in again.history.all()]
    assert roles[0] == "player" and roles[-1] == "keeper" and "event" in roles
    view = result.player_view()
    assert [v.id for v in view.variables] == ["clues_found", "fog"]


def test_same_seed_same_turn(kernel, tmp_path: Path, room_dir: Path, recorded) -> None:
    import shutil

    other = tmp_path / "other"
    shutil.copytree(room_dir, other)
    a = kernel.turn(room_dir, SAY, reply=recorded("anthropic_messages"), rng=rng(3)).applied
    b = kernel.turn(other, SAY, reply=recorded("anthropic_messages"), rng=rng(3)).applied
    assert [r.content for r in a.results] == [r.content for r in b.results]
    assert a.narration == b.narration


def test_both_protocols_apply_the_same_calls(kernel, tmp_path: Path, room_dir: Path, recorded) -> None:
    import shutil

    other = tmp_path / "other"
    shutil.copytree(room_dir, other)
    a = kernel.turn(room_dir, SAY, provider="anthropic_messages", reply=recorded("anthropic_messages"), rng=rng(5)).applied
    b = kernel.turn(other, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=rng(5)).applied
    assert [r.content for r in a.results] == [r.content for r in b.results]


def test_without_the_persona_plugin_turns_still_work(tmp_path: Path, room_dir: Path, recorded) -> None:
    from lwcore.kernel import Kernel

    kernel = Kernel(data_dir=tmp_path / "data", env={}, disabled={"persona"})
    result = kernel.turn(room_dir, SAY, reply=recorded("anthropic_messages"), rng=rng())
    text = json.dumps(result.compiled.request, ensure_ascii=False)
    assert not any(p == "persona" for p in (s.plugin for s in result.compiled.segments))
    assert "沉稳克制" not in text and "每段叙述结尾" not in text
    assert "侦查 65" in text and not any(r.is_error for r in result.applied.results)


def test_second_turn_sees_the_first_in_history(kernel, room_dir: Path, recorded) -> None:
    kernel.turn(room_dir, SAY, reply=recorded("anthropic_messages"), rng=rng())
    compiled = compile_turn(kernel, room_dir, "我们跟着脚印走。", provider="chat_completions")
    text = json.dumps(compiled.request, ensure_ascii=False)
    assert SAY in text and "赤足的湿脚印" in text and '"clues_found (' not in text
    assert "clues_found (已获线索, number, 玩家可见) = 2" in text


def test_the_acting_members_name_reaches_prompt_segments(kernel, room_dir: Path) -> None:
    """``actor_name`` in the turn context: the persona fills ``{{user}}`` with it."""
    persona = json.loads((room_dir / "persona.json").read_text(encoding="utf-8"))
    persona["persona"]["suffix"] = "对{{user}}说话。"
    (room_dir / "persona.json").write_text(json.dumps(persona, ensure_ascii=False), encoding="utf-8")
    for member, name in (("p1", "林晓"), ("p2", "Alex")):
        text = json.dumps(compile_turn(kernel, room_dir, SAY, actor=member).request, ensure_ascii=False)
        assert f"对{name}说话。" in text and "{{user}}" not in text
