"""What issue 26 found with real cards, in real rooms and turns: a keeper's world keeps its
constant lore (listed, switchable), a world card opens the story and brings its system prompt and
post-history instructions, no raw macro reaches the model (Tavern Helper's macro-likes included),
and a reply is read as MagVarUpdate reads it (its schema, mathjs values) -- through the kernel's
checks."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock

from roomkit import FIXTURES, SAY, copy_room, import_into, recorded, request_text, with_narration

BELL = FIXTURES / "bell-tower.world.json"


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


def card(tmp_path: Path, name: str, **data: Any) -> Path:
    """A V2 card of our own with ``data`` fields."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": {"name": name, **data}},
                               ensure_ascii=False), encoding="utf-8")
    return path


def command(kernel: Kernel, room_dir: Path, line: str, who: str = "kp") -> str:
    result = run_turn(kernel, room_dir, line, actor=who)
    assert result.command is not None
    return result.command.reply.text


def empty_room(tmp_path: Path) -> Path:
    room = copy_room(tmp_path / "room")
    (room / "history.jsonl").write_text("", encoding="utf-8")
    return room


# --- constant lore ------------------------------------------------------------------------------


def test_constant_lore_is_sent_every_turn_listed_and_switchable(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    plan = import_into(kernel, room, BELL, "world")
    constant = [c for c in plan.changed if c.reason.startswith("constant: sent every turn")]
    assert [c.field for c in constant] == ["entry '常驻'"] and "12 characters" in constant[0].reason
    assert "WAS-CONSTANT" in request_text(compile_turn(kernel, room, "随便看看。", rng=random.Random(1)))
    listed = command(kernel, room, ".lore constant")
    handle = listed.split()[1]
    assert "常驻" in listed and "12" in listed and handle.startswith("bell-tower#")
    with pytest.raises(LwError):  # a player may not run it
        command(kernel, room, ".lore constant", who="p1")
    off = command(kernel, room, f".lore constant off {handle}")
    assert "no longer constant" in off or "不再常驻" in off
    assert "WAS-CONSTANT" not in request_text(compile_turn(kernel, room, "随便看看。", rng=random.Random(1)))
    assert "WAS-CONSTANT" in request_text(compile_turn(kernel, room, "常驻设定？", rng=random.Random(1)))  # its key
    assert command(kernel, room, ".lore constant").split()[0] in ("off", "关")
    command(kernel, room, f".lore constant on {handle}")
    assert "WAS-CONSTANT" in request_text(compile_turn(kernel, room, "随便看看。", rng=random.Random(1)))


def test_a_persons_constant_lore_fires_by_its_keys(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    import_into(kernel, room, BELL, "pc", member="p1")
    assert "WAS-CONSTANT" not in request_text(compile_turn(kernel, room, "随便看看。", rng=random.Random(1)))


# --- the card's story fields --------------------------------------------------------------------


def test_the_world_cards_greeting_opens_an_empty_room_and_the_keeper_may_pick_another(kernel: Kernel,
                                                                                      tmp_path: Path) -> None:
    room = empty_room(tmp_path)
    path = card(tmp_path, "雾港", first_mes="{{char}}的雾里，{{user}}踏上码头。<%= '模板' %>",
                alternate_greetings=["另一个开场：{{char}}的钟声。", "第三个"])
    plan = import_into(kernel, room, path, "world")
    assert any("opens the room's story" in c and "2 alternate greeting(s)" in c for c in plan.report.carried)
    lines = [json.loads(line) for line in (room / "history.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 1 and lines[0]["role"] == "keeper" and lines[0]["data"]["kind"] == "opening"
    assert lines[0]["text"].startswith("雾港的雾里，") and "{{" not in lines[0]["text"] and "<%" not in lines[0]["text"]
    listed = command(kernel, room, ".lore greeting")
    assert "另一个开场" in listed and "第三个" in listed
    number = next(line.split(".")[0] for line in listed.splitlines() if "另一个开场" in line)
    command(kernel, room, f".lore greeting {number}")
    text = (room / "history.jsonl").read_text(encoding="utf-8")
    assert "另一个开场：雾港的钟声。" in text
    run_turn(kernel, room, SAY, provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(1))
    with pytest.raises(Exception, match="the story has begun"):
        command(kernel, room, ".lore greeting 2")


def test_a_room_with_a_story_is_not_opened_again(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    (room / "history.jsonl").write_text('{"turn": 1, "role": "player", "actor": "p1", "text": "早。"}\n', encoding="utf-8")
    import_into(kernel, room, card(tmp_path, "雾港", first_mes="开场"), "world")
    assert "开场" not in (room / "history.jsonl").read_text(encoding="utf-8")


def test_system_prompt_and_post_history_instructions_reach_the_prompt(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    path = card(tmp_path, "雾港", system_prompt="{{original}}\nSYS-雾港：你是{{char}}的叙述者。",
                post_history_instructions="PHI：保持{{char}}的阴郁。")
    plan = import_into(kernel, room, path, "world")
    assert any("system prompt" in c for c in plan.report.carried)
    compiled = compile_turn(kernel, room, SAY, rng=random.Random(1))
    text = request_text(compiled)
    assert "SYS-雾港：你是雾港的叙述者。" in text and "PHI：保持雾港的阴郁。" in text and "{{original}}" not in text
    names = {s.name for s in compiled.segments}
    assert {"card-system", "card-post-history"} <= names


# --- macros ---------------------------------------------------------------------------------------


def test_a_pc_cards_names_are_bound_in_its_sheet(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    import_into(kernel, room, card(tmp_path, "林远", description="{{char}}是<USER>的名字。", personality="{{user}}沉默。"),
                "pc", member="p1")
    notes = Room.load(room, kernel).sheets["p1"].extra["notes"]
    assert notes == "林远是林远的名字。\n\n林远沉默。"
    assert "林远是林远的名字" in request_text(compile_turn(kernel, room, SAY, actor="p1", rng=random.Random(1)))


def test_tavern_helpers_macros_render_the_tree_and_unknown_macros_are_removed_once(kernel: Kernel,
                                                                                  tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    book = {"entries": {
        "0": {"uid": 0, "key": [], "constant": True, "content": "<status>\n{{format_message_variable::stat_data}}\n</status>"},
        "1": {"uid": 1, "key": [], "constant": True, "content": "信任{{get_message_variable::stat_data.守夜人.信任}}"
                                                                "{{某个没有的宏::x}}{{某个没有的宏}}"},
        "2": {"uid": 2, "key": [], "constant": True, "content": "[InitVar]", "comment": "[InitVar]"},
        "3": {"uid": 3, "key": [], "constant": True, "content": "{{char}}与{{getvar::雾港.潮位}}{{unknownmacro}}"},
    }}
    book["entries"]["2"]["content"] = json.dumps({"雾港": {"潮位": [2, "0-5"]}, "守夜人": {"信任": 10}}, ensure_ascii=False)
    path = tmp_path / "book.json"
    path.write_text(json.dumps(book, ensure_ascii=False), encoding="utf-8")
    import_into(kernel, room, path, "world")
    result = run_turn(kernel, room, SAY, provider="chat_completions", reply=recorded("chat_completions"),
                      rng=random.Random(1))
    text = json.loads(request_text(result.compiled))
    flat = json.dumps(text, ensure_ascii=False)
    assert "<status>\\n雾港:\\n  潮位:\\n    - 2\\n    - 0-5\\n守夜人:\\n  信任: 10\\n</status>" in flat
    assert "信任10" in flat and "守秘人与2" in flat  # {{char}} of a book on its own: the keeper's name
    for raw in ("{{某个没有的宏", "{{unknownmacro}}", "{{get_message_variable", "{{format_message_variable", "{{char}}"):
        assert raw not in flat
    keeper = Room.load(room, kernel).documents.get("worldbook_timed", "timed").data["warnings"]
    assert sum("{{unknownmacro}}" in w for w in keeper) == 1
    assert any("{{某个没有的宏}}" in w for w in keeper)


# --- MVU replies as MagVarUpdate reads them ---------------------------------------------------


def test_a_reply_is_read_as_magvarupdate_reads_it_with_the_cards_schema(kernel: Kernel, tmp_path: Path) -> None:
    room = copy_room(tmp_path / "room")
    declared = {"世界": {"日": 1, "天气": "晴"}, "背包": ["火把"], "任务": {"$meta": {"extensible": True}, "寻钟": 0},
                "$meta": {"strictSet": False}}
    book = {"entries": {"0": {"uid": 0, "key": [], "comment": "[InitVar]",
                              "content": "```yaml\n" + json.dumps(declared, ensure_ascii=False) + "\n```"}}}
    path = tmp_path / "mvu.json"
    path.write_text(json.dumps(book, ensure_ascii=False), encoding="utf-8")
    import_into(kernel, room, path, "world")
    reply = with_narration(recorded("chat_completions"), """
<UpdateVariable>
_.set('世界.日', 1, cos(pi) + 3);//mathjs
_.insert('背包', '绳索');//the list is not extensible
_.insert('任务', '护送', 0);//this object is
_.set('世界.天气', '晴', "雨");
</UpdateVariable>""")
    run_turn(kernel, room, SAY, provider="chat_completions", reply=reply, rng=random.Random(1))
    loaded = Room.load(room, kernel)
    tree = loaded.documents.get("mvu", "mvu").data["tree"]
    assert tree == {"世界": {"日": 2, "天气": "雨"}, "背包": ["火把"], "任务": {"寻钟": 0, "护送": 0}}
    refused = [e for e in loaded.history.all() if e.data and e.data.get("kind") == "tree_refused"]
    assert len(refused) == 1 and "non-extensible array" in refused[0].text and refused[0].audience == "keeper"
    assert loaded.documents.get("mvu_schema", "schema").data["schema"]["properties"]["任务"]["extensible"] is True
