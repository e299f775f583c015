"""Event lines and enum values are rendered in each reader's locale from the structured data;
the stored values stay canonical and keeper-only values still never reach a player."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from lwcore.turn.event_lines import entry_text
from lwcore.turn.pipeline import run_turn
from lwcore.turn.messages import segment_text
from lwcore.turn.segments import room_segments
from lwcore.turn.room import HistoryEntry, Room
from lwcore.contributions import Viewer
from lwcore.turn.projections import project_variable, variable_document
from lwcore.turn.variables import VariableDef, check_value
from lwcore.turn.view import player_view, render_text

SAY = "我去码头查看那艘空船。"


def _played(kernel, room_dir: Path, recorded, protocol: str = "chat_completions") -> Room:
    run_turn(kernel, room_dir, SAY, provider=protocol, reply=recorded(protocol), rng=random.Random(7))
    return Room.load(room_dir, kernel)


def _events(view) -> list[str]:
    return [line.text for line in view.history if line.role == "event"]


@pytest.mark.parametrize("protocol", ["anthropic_messages", "chat_completions"])
def test_check_and_subsystem_lines_follow_the_viewer_locale(kernel, room_dir: Path, recorded, protocol) -> None:
    room = _played(kernel, room_dir, recorded, protocol)
    # the history keeps the structured outcome; its stored text is the acting player's locale
    stored = [e for e in room.history.all() if e.role == "event" and e.data and e.data.get("kind") == "check"]
    assert stored and "侦查" in stored[0].text and stored[0].data["skill"] == "侦查"

    zh = _events(player_view(room, "p1"))
    en = _events(player_view(room, "p2"))
    check_zh = next(t for t in zh if "侦查" in t)
    check_en = next(t for t in en if "Spot Hidden" in t)
    roll = stored[0].data["roll"]
    assert f"={roll}/65" in check_zh and f"={roll}/65" in check_en  # the same figures, re-rendered
    assert check_en.startswith("陈默 Spot Hidden ") and check_en.endswith(kernel_label(room, stored[0].data["rank"], "en"))
    sanity_en = next(t for t in en if "Sanity" in t)
    assert "1/1d8" in sanity_en and "理智" not in sanity_en
    assert any("理智" in t for t in zh)
    # nothing of the keeper's locale leaks into the English lines of checks and subsystems
    for text in (check_en, sanity_en):
        for word in ("侦查", "理智", "成功", "失败", "临时疯狂"):
            assert word not in text, (word, text)
    # the rendered text view shows the same lines
    assert check_en in render_text(player_view(room, "p2"))


def kernel_label(room: Room, rank: str, locale: str) -> str:
    return room.rule_system.label(rank, locale)



def keeper_prompt(room, locale: str) -> tuple[str, str]:
    """The keeper prompt's variables and its story so far with the recent history, in ``locale``."""
    parts = {s.name: segment_text(s) for s in room_segments(room, locale)}
    return parts["variables"], "\n\n".join(p for p in (parts["story"], parts["history"]) if p)

def test_the_same_entry_renders_in_each_locale_and_falls_back_to_its_text(kernel, room_dir: Path) -> None:
    room = Room.load(room_dir, kernel)
    data = {"kind": "check", "audience": "all", "character": "陈默", "skill": "侦查", "roll": 12, "target": 65,
            "raw_target": 65, "dice": [12], "rank": "hard", "success": True}
    entry = HistoryEntry(turn=1, role="event", text="stored line", data=data)
    assert entry_text(room, entry, "zh") == f"陈默 侦查 65: 1d100=12/65 {room.rule_system.label('hard', 'zh')}"
    assert entry_text(room, entry, "en") == f"陈默 Spot Hidden 65: 1d100=12/65 {room.rule_system.label('hard', 'en')}"
    # data the pack cannot render (an unknown subsystem) keeps the stored line
    odd = HistoryEntry(turn=1, role="event", text="kept as stored",
                       data={"kind": "x", "subsystem": "no-such-thing", "outcome": "y", "values": {}})
    assert entry_text(room, odd, "en") == "kept as stored"
    # a plugin's own event without renderable data keeps its text
    plain = HistoryEntry(turn=1, role="event", text="a plugin line", data={"kind": "clock", "ticks": 2})
    assert entry_text(room, plain, "en") == "a plugin line"


def test_enum_values_show_their_label_in_the_reader_locale(kernel, room_dir: Path, recorded) -> None:
    room = _played(kernel, room_dir, recorded)
    fog = room.variable("fog")
    assert fog.value == "蔽日"  # the stored value stays the canonical option
    on_disk = yaml.safe_load((room_dir / "variables.yaml").read_text(encoding="utf-8"))
    assert next(v for v in on_disk["variables"] if v["id"] == "fog")["value"] == "蔽日"

    en = player_view(room, "p2")
    var = next(v for v in en.variables if v.id == "fog")
    assert var.value == "蔽日" and var.value_label == "Sun-blotting fog"
    text = render_text(en)
    assert "Fog: Sun-blotting fog" in text and "Fog: Thick fog → Sun-blotting fog" in text
    # no Chinese label is declared: the Chinese reader sees the option itself
    zh = render_text(player_view(room, "p1"))
    assert "雾气: 蔽日" in zh and "雾气: 浓雾 → 蔽日" in zh

    # the keeper prompt: canonical values (what set_variable takes) with the reader's labels
    variables_en, history_en = keeper_prompt(room, "en")
    fog_line = next(line for line in variables_en.splitlines() if line.startswith("- fog "))
    assert '= "蔽日" (Sun-blotting fog)' in fog_line and "浓雾 (Thick fog)" in fog_line
    assert "Spot Hidden" in history_en and "侦查" not in history_en
    assert "fog: 浓雾 → 蔽日" in history_en  # variable events keep ids and canonical values
    variables_zh, _ = keeper_prompt(room, "zh")
    assert '= "蔽日" {薄雾 | 浓雾 | 蔽日}' in variables_zh


def test_plain_options_keep_working() -> None:
    var = VariableDef(id="weather", kind="enum", visibility="player", options=["rain", "sun"], value="sun")
    assert check_value(var, "rain") == ("rain", None)
    shown = project_variable(variable_document(var), Viewer("p1", "zh"), None)
    assert shown["value"] == "sun" and shown["value_label"] == "sun"
    kept = project_variable(variable_document(var), Viewer("kp", "en", keeper=True), None)
    assert kept["options"] == ["rain", "sun"] and kept["option_labels"] == []
    assert "option_labels" not in var.model_dump(exclude_unset=True)


def test_option_labels_are_checked_and_a_label_writes_the_canonical_option() -> None:
    var = VariableDef(id="fog", kind="enum", options=["薄雾", "浓雾"],
                      option_labels={"薄雾": {"en": "Light mist"}, "浓雾": {"en": "Thick fog", "zh-TW": "濃霧"}})
    assert check_value(var, "thick fog") == ("浓雾", None)
    assert check_value(var, "濃霧") == ("浓雾", None)
    assert var.option_label("浓雾", "zh-TW") == "濃霧" and var.option_label("浓雾", "en-GB") == "Thick fog"
    assert var.option_label("浓雾", "zh") == "浓雾"
    with pytest.raises(ValueError):
        check_value(var, "Heavy fog")
    with pytest.raises(ValueError, match="not declared"):
        VariableDef(id="fog", kind="enum", options=["薄雾"], option_labels={"大雾": {"en": "Big fog"}})


def test_define_and_set_an_enum_with_labels_through_tools(kernel, room_dir: Path) -> None:
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "define_variable", "input": {
            "id": "tide", "kind": "enum", "visibility": "player", "labels": {"zh": "潮汐", "en": "Tide"},
            "options": ["涨潮", "退潮"], "option_labels": {"涨潮": {"en": "Rising"}, "退潮": {"en": "Ebbing"}},
            "initial": "涨潮"}},
        {"type": "tool_use", "id": "b", "name": "set_variable", "input": {"id": "tide", "value": "Ebbing"}},
        {"type": "tool_use", "id": "c", "name": "define_variable", "input": {
            "id": "bad", "kind": "enum", "options": ["a"], "option_labels": {"z": {"en": "Z"}}}},
    ]}
    result = run_turn(kernel, room_dir, "（守秘人准备）", actor="kp", reply=reply, rng=random.Random(1))
    ok_a, ok_b, bad = result.applied.results
    assert not ok_a.is_error and not ok_b.is_error and bad.is_error
    assert ok_b.content["value"] == "退潮"
    room = Room.load(room_dir, kernel)
    assert room.variable("tide").value == "退潮" and room.variable("bad") is None
    text = render_text(player_view(room, "p2"))
    assert "Tide: Ebbing" in text and "Tide: Rising → Ebbing" in text


SECRET_OPTION_LABEL = "Lamp-under-water-9731"


def test_keeper_only_enum_labels_never_reach_a_player(kernel, room_dir: Path, recorded) -> None:
    path = room_dir / "variables.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["variables"].append({
        "id": "lamp_state", "kind": "enum", "visibility": "keeper", "labels": {"zh": "水下灯", "en": "Sunken lamp"},
        "options": ["熄灭", "点亮"], "option_labels": {"熄灭": {"en": "Dark-4402"}, "点亮": {"en": SECRET_OPTION_LABEL}},
        "value": "熄灭"})
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    reply = {"content": [{"type": "tool_use", "id": "a", "name": "set_variable",
                          "input": {"id": "lamp_state", "value": SECRET_OPTION_LABEL}}]}
    result = run_turn(kernel, room_dir, "（守秘人准备）", actor="kp", reply=reply, rng=random.Random(1))
    assert not result.applied.results[0].is_error
    room = _played(kernel, room_dir, recorded)
    assert room.variable("lamp_state").value == "点亮"
    # the keeper's prompt has it, in the keeper's reading
    keeper_vars, _ = keeper_prompt(room, "en")
    assert SECRET_OPTION_LABEL in keeper_vars
    needles = ["lamp_state", "水下灯", "Sunken lamp", "熄灭", "点亮", "Dark-4402", SECRET_OPTION_LABEL]
    for viewer in ("p1", "p2"):
        view = player_view(room, viewer, history_limit=0)
        for blob in (view.to_json_text(), json.dumps(view.model_dump(mode="json")), render_text(view)):
            for needle in needles:
                assert needle not in blob, (viewer, needle)
