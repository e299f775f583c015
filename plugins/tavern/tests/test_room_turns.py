"""The world book in a room's turns, on every provider: activation each applied turn, placement
in the kernel's prompt, the timed state kept only when a turn is applied, templates (full and
read-only), conditions, macros, update blocks and hook scripts of a world import."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lwcore.kernel import Kernel
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock
from lwcore.turn.view import view_for

from roomkit import (
    FIXTURES,
    PROTOCOLS,
    SAY,
    block,
    copy_room,
    files,
    import_into,
    message,
    recorded,
    request_text,
    with_narration,
)

BELL = FIXTURES / "bell-tower.world.json"
UPDATE = """
<UpdateVariable>
<Analysis>潮位上升</Analysis>
_.set('雾港.潮位', 2, 4);//钟声
_.add('守夜人.信任', 5);
_.set('不存在.的路径', 1);
</UpdateVariable>"""


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


@pytest.fixture
def room_dir(tmp_path: Path, kernel: Kernel) -> Path:
    room = copy_room(tmp_path / "room")
    import_into(kernel, room, BELL, "world")
    return room


def timed(room_dir: Path, kernel: Kernel) -> dict:
    doc = Room.load(room_dir, kernel).documents.get("worldbook_timed", "timed")
    return dict(doc.data) if doc is not None else {}


def tree(room_dir: Path, kernel: Kernel) -> dict:
    return dict(Room.load(room_dir, kernel).documents.get("mvu", "mvu").data["tree"])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_turn_with_a_world_imported(kernel: Kernel, room_dir: Path, protocol: str) -> None:
    reply = with_narration(recorded(protocol), UPDATE)
    result = run_turn(kernel, room_dir, SAY, provider=protocol, reply=reply, rng=random.Random(5))
    text = request_text(result.compiled)
    # the example world's entries and the bell tower's fire on 码头 / 空船; the secret reaches the keeper's model
    assert "雾港的码头是一道朽坏的木栈桥" in text and "PIER-BEFORE" in text
    assert "SECRET-TRUTH" in text and "船长在北岬灯塔下的礁洞里" in text
    assert block(result.compiled, "worldbook-after").index("福顺号") < block(result.compiled, "worldbook-after").index("SECRET-TRUTH")
    names = {s.name for s in result.compiled.segments if s.plugin == "tavern"}
    assert {"worldbook-before", "worldbook-after"} <= names
    # the update block: cut from what players read, applied by the engine
    applied = result.applied
    assert "<UpdateVariable>" not in applied.narration and "_.set" not in applied.narration
    assert applied.narration.endswith("你们要跟上去吗？")
    after = tree(room_dir, kernel)
    assert after["雾港"]["潮位"] == [4, "0-5"] and after["守夜人"]["信任"] == [15, "对调查员的信任"]
    assert after["雾港"]["钟声"] == 1  # the world's hook script ran at turn start
    room = Room.load(room_dir, kernel)
    refused = [e for e in room.history.all() if e.data and e.data.get("kind") == "tree_refused"]
    assert len(refused) == 1 and refused[0].audience == "keeper" and "不存在" in refused[0].text
    state = timed(room_dir, kernel)
    # timed effects count chat messages: the history's lines before this turn, and what was said now
    assert state["state"]["turn"] == state["messages"] + 1 == 2
    assert {"fog-harbor#pier", "fog-harbor#fushun", "fog-harbor#captain-fate", "bell-tower#truth"} <= set(state["fired"])
    for player in ("p1", "p2"):
        seen = view_for(room, player).to_json_text()
        assert "SECRET-TRUTH" not in seen and "礁洞" not in seen and "潮位" not in seen
    assert all("<UpdateVariable>" not in e.text for e in room.history.all())


def test_compiling_without_a_reply_keeps_the_room_as_it_was(kernel: Kernel, room_dir: Path) -> None:
    before = files(room_dir)
    result = run_turn(kernel, room_dir, SAY + "钟声", rng=random.Random(1))
    assert "DEPTH-BELL" in request_text(result.compiled)
    assert files(room_dir) == before


def test_sticky_entries_stay_on_the_turns_after(kernel: Kernel, room_dir: Path) -> None:
    def turn(say: str, seed: int) -> str:
        reply = recorded("chat_completions")
        return request_text(run_turn(kernel, room_dir, say, provider="chat_completions", reply=reply,
                                     rng=random.Random(seed)).compiled)

    # sticky counts chat messages, as SillyTavern's does (issue 26): the card's ``sticky: 2`` is
    # this exchange only (a player's line and the narration); ``sticky: 4`` the next one too
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        for doc in room.documents.all("worldbook_entry"):
            entry = doc.data["entry"]
            if "DEPTH-BELL" in entry["content"]:
                entry["sticky"] = 4
                room.documents.put(doc)
        room.save()
    assert "DEPTH-BELL" in turn("我听见钟声。", 1)
    # the next turn keeps it although nobody speaks of bells (and the history's keys are beyond
    # the scan depth with a depth of 1)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.file.model_extra["worldbook"] = {"depth": 1}
        room.mark("room")
        room.save()
    assert "DEPTH-BELL" in turn("我看看四周。", 2)
    assert timed(room_dir, kernel)["state"]["sticky"]
    state = timed(room_dir, kernel)
    assert state["messages"] >= 2 and state["state"]["turn"] == state["messages"] + 1  # messages, not turns
    assert "DEPTH-BELL" not in turn("我继续等。", 3)  # the effect ran out (four messages on)


def test_the_message_count_is_taken_only_when_a_timed_effect_reads_it(kernel: Kernel, tmp_path: Path) -> None:
    # the example's own book has no sticky, cooldown or delay: no turn reads the history to count
    room_dir = copy_room(tmp_path / "plain")

    def turn(say: str, seed: int) -> None:
        run_turn(kernel, room_dir, say, provider="chat_completions", reply=recorded("chat_completions"),
                 rng=random.Random(seed))

    turn("我去码头。", 1)
    turn("我看看四周。", 2)
    assert "messages" not in timed(room_dir, kernel) and "history_turn" not in timed(room_dir, kernel)
    # a timed entry added later: the next turn counts every chat message from the start
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        docs = list(room.documents.all("worldbook_entry"))
        assert docs, "the example room carries a world book"
        docs[0].data["entry"]["delay"] = 1
        room.documents.put(docs[0])
        room.save()
    said = [e for e in Room.load(room_dir, kernel).history.all() if e.role in ("player", "keeper") and e.text]
    turn("我继续等。", 3)
    assert timed(room_dir, kernel)["messages"] == len(said) >= 4


def test_placement_in_the_kernel_prompt(kernel: Kernel, room_dir: Path) -> None:
    compiled = compile_turn(kernel, room_dir, "雾里传来钟声，潮水在涨，我提着灯，守夜人看着我。", rng=random.Random(3))
    author = message(compiled, "lw:author")
    assert author.index("AN-TOP-FOG") < author.index("AN-BOTTOM-FOG")
    world = message(compiled, "lw:world")
    assert world.index("TIDE-REF") < world.index("EM-TOP-FOG")
    assert "TIDE-REF [OUTLET-TIDE 潮水正在上涨。]" in world  # the outlet fills its macro
    assert world.count("OUTLET-TIDE") == 1  # and is not placed anywhere else
    (depth,) = [m for m in compiled.messages if "DEPTH-BELL" in m["markdown"]]
    assert depth["promptId"] == "lw:depth-1" and depth["messageRole"] == "system"  # its role: a message of it
    assert "WAS-CONSTANT" in request_text(compiled)  # a keeper's world keeps its constant lore (issue 26)
    assert "hud" not in request_text(compiled)  # the render-only entry was disabled at import
    assert "IF-HIGH-TIDE" not in request_text(compiled)  # @@if 潮位 >= 3 is false (2)


def test_conditions_read_the_room_tree(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.turn import tree as mvu

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        mvu.store_tree(room, {**mvu.tree_of(room), "雾港": {"潮位": [3, "0-5"], "钟声": 0}})
        room.save()
    assert "IF-HIGH-TIDE" in request_text(compile_turn(kernel, room_dir, "潮水来了", rng=random.Random(1)))


def test_macros_use_the_acting_member_the_game_clock_and_the_engine_dice(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.file.clock = "1925-12-01T21:30:00+08:00"
        room.mark("room")
        room.save()
    text = request_text(compile_turn(kernel, room_dir, "守夜", actor="p2", rng=random.Random(1)))
    assert "MACRO 苏婉清 21:30 1925-12-01 roll=1 tide=2" in text


def test_full_templates_render_and_their_writes_wait_for_the_reply(kernel: Kernel, room_dir: Path) -> None:
    compiled = compile_turn(kernel, room_dir, "我提着灯。", rng=random.Random(1))
    assert "LOOP0 LOOP1 LOOP2" in request_text(compiled) and "<%" not in request_text(compiled)
    assert "看过灯" not in tree(room_dir, kernel)["雾港"]
    run_turn(kernel, room_dir, "我提着灯。", provider="chat_completions", reply=recorded("chat_completions"),
             rng=random.Random(1))
    assert tree(room_dir, kernel)["雾港"]["看过灯"] is True


def test_execvar_renders_a_variables_template_in_a_turn(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.turn import tree as mvu
    from lwcore.turn.documents import Document

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        mvu.store_tree(room, {**mvu.tree_of(room), "提示": {"灯": "EXEC-<%= getvar('雾港.潮位')[0] %><% incvar('提示.次数') %>"}})
        room.documents.put(Document("e-exec", "worldbook_entry", {"pack": "world:bell-tower", "entry": {
            "uid": 98, "key": ["灯"], "content": "<%- execvar('提示.灯') %>-DONE", "secret": False}},
            meta={"source": "bell-tower#exec"}))
        room.save()
    compiled = compile_turn(kernel, room_dir, "我提着灯。", rng=random.Random(1))
    assert "EXEC-2-DONE" in request_text(compiled) and "execvar" not in request_text(compiled)
    assert "次数" not in tree(room_dir, kernel)["提示"]  # the write waits for the reply
    run_turn(kernel, room_dir, "我提着灯。", provider="chat_completions", reply=recorded("chat_completions"),
             rng=random.Random(1))
    assert tree(room_dir, kernel)["提示"]["次数"] == 1


def test_the_switch_keeps_templates_on_the_read_only_subset(tmp_path: Path, room_dir: Path) -> None:
    kernel = Kernel(data_dir=tmp_path / "lite", env={"LW_TAVERN_EJS": "lite"})
    text = request_text(compile_turn(kernel, room_dir, "我提着灯。", rng=random.Random(1)))
    assert "LOOP" not in text and "<%" not in text and "for (" not in text  # left out, never raw
    compiled = run_turn(kernel, room_dir, "我提着灯。", provider="chat_completions", reply=recorded("chat_completions"),
                        rng=random.Random(1))
    assert compiled.applied is not None and "看过灯" not in tree(room_dir, kernel)["雾港"]
    warnings = timed(room_dir, kernel)["warnings"]
    assert any("needs the full EJS mode" in w for w in warnings)


def test_a_failing_full_template_falls_back_to_the_subset(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.turn.documents import Document

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document("e-broken", "worldbook_entry", {"pack": "world:bell-tower", "entry": {
            "uid": 99, "key": ["灯"], "content": "BROKEN<% while (true) {} %>-TAIL<%= getvar('雾港.钟声') %>",
            "secret": False}}, meta={"source": "bell-tower#broken"}))
        room.save()
    text = request_text(run_turn(kernel, room_dir, "我提着灯。", provider="chat_completions",
                                 reply=recorded("chat_completions"), rng=random.Random(1)).compiled)
    assert "LOOP0" in text and "BROKEN" not in text and "while" not in text  # the subset leaves it out whole
    assert any("full EJS mode failed" in w for w in timed(room_dir, kernel)["warnings"])


def test_the_book_compiles_once_per_revision(kernel: Kernel, room_dir: Path) -> None:
    from lw_tavern.room.book import BookCache

    cache: BookCache = kernel.service("tavern.books", lambda k: BookCache())
    start = cache.compiles
    for seed in range(3):
        compile_turn(kernel, room_dir, SAY, rng=random.Random(seed))
    assert cache.compiles == start + 1
    import_into(kernel, room_dir, BELL, "world")  # a new revision of the entries file
    compile_turn(kernel, room_dir, SAY, rng=random.Random(9))
    assert cache.compiles == start + 2


def test_companions_join_the_prompt(kernel: Kernel, room_dir: Path) -> None:
    import_into(kernel, room_dir, FIXTURES / "harbor.card.json", "companion")
    compiled = compile_turn(kernel, room_dir, SAY, rng=random.Random(1))
    assert "### 沈默" in block(compiled, "companions") and "雾港的灯塔看守人" in block(compiled, "companions")
    room = Room.load(room_dir, kernel)
    from lwcore.turn.documents import project, viewer_of

    (doc,) = room.documents.all("companion")
    assert project(room, doc, viewer_of(room, room.member("p1"))) == {"name": "沈默", "description": "雾港的灯塔看守人。",
                                                                       "pack": "harbor"}


def test_templates_read_entries_inject_prompts_and_ask_for_entries_next_turn(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.turn.documents import Document

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document("e-wi", "worldbook_entry", {"pack": "world:bell-tower", "entry": {
            "uid": 98, "key": ["罗盘"], "comment": "罗盘",
            "content": "COMPASS [<%= getwi('码头').slice(0, 11) %>]<% injectPrompt('k', 'INJECTED-LINE'); activewi('北岬灯塔'); %>",
            "secret": False}}, meta={"source": "bell-tower#compass"}))
        room.save()
    first = run_turn(kernel, room_dir, "我拿出罗盘。", provider="chat_completions", reply=recorded("chat_completions"),
                     rng=random.Random(1)).compiled
    assert "COMPASS [PIER-BEFORE]" in request_text(first)
    assert "INJECTED-LINE" in block(first, "worldbook-injected")
    assert "北岬灯塔三年前就熄了" not in request_text(first)
    second = compile_turn(kernel, room_dir, "我等着。", rng=random.Random(2))
    assert "北岬灯塔三年前就熄了" in request_text(second)  # activewi: it fires on the next turn


@pytest.mark.parametrize("env,fires", [({}, True), ({"LW_TAVERN_EJS": "lite"}, False)])
def test_a_javascript_condition_needs_the_full_mode(tmp_path: Path, room_dir: Path, env: dict, fires: bool) -> None:
    from lwcore.turn.documents import Document

    kernel = Kernel(data_dir=tmp_path / "k", env=env)
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        room.documents.put(Document("e-js", "worldbook_entry", {"pack": "world:bell-tower", "entry": {
            "uid": 97, "key": ["潮"], "content": "@@if [1, 2].includes(getvar('雾港.潮位')[0])\nJS-CONDITION",
            "secret": False}}, meta={"source": "bell-tower#js"}))
        room.save()
    assert ("JS-CONDITION" in request_text(compile_turn(kernel, room_dir, "潮水", rng=random.Random(1)))) is fires
