"""A person import's text is inert (``lw_tavern.inert``): in a room's turns, with the real
sandbox (full EJS mode) and the real kernel, a person's entries, a companion and every name
substituted into text reach the prompt as the text they are -- never a template, a condition,
a live macro or an outlet. The subprocess corpus (every field of V1/V2/V3/PNG cards) is in
``test_hostile_imports.py``; this file pins each path one at a time, and the pure pieces
(which packs are live, which macros inert text keeps, protect/restore, decorators after a
bound name) exhaustively or as properties."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lw_tavern.card_split import PERSON_CONDITION, import_entries
from lw_tavern.decorators import split_decorators
from lw_tavern.ejs.macros import MacroContext, substitute
from lw_tavern.inert import MARK, is_live_pack, protect, restore
from lw_tavern.worldbook.model import WorldBook, WorldEntry
from lwcore.kernel import Kernel
from lwcore.turn.documents import Document
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock

from roomkit import FIXTURES, block, copy_room, import_into, recorded, request_text

BELL = FIXTURES / "bell-tower.world.json"
HOSTILE = "{{outlet::tide}}{{getvar::true_culprit}}{{roll:1d100}}<%= 6 * 7 %><% setvar('cult_alert', 0) %>"
"""Macro and template syntax a player's text may carry; 灯塔看守人周伯年 is the keeper-only value."""


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


@pytest.fixture
def room_dir(tmp_path: Path, kernel: Kernel) -> Path:
    room = copy_room(tmp_path / "room")
    import_into(kernel, room, BELL, "world")
    return room


def edit(room_dir: Path, kernel: Kernel, change) -> None:  # noqa: ANN001
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        change(room)
        room.save()


def put_entry(room: Room, doc_id: str, pack: str, **entry: object) -> None:
    room.documents.put(Document(doc_id, "worldbook_entry", {"pack": pack, "entry": {"secret": False, **entry}},
                                meta={"source": f"{pack}#{doc_id}"}))


def test_a_members_name_is_text_in_the_keepers_entries(kernel: Kernel, room_dir: Path) -> None:
    """The keeper's ``MACRO {{user}} …`` entry with p1's character named by a player's card: the
    name goes in as written -- not an outlet, not a variable, not a roll, not a template."""

    def rename(room: Room) -> None:
        room.sheets["p1"].name = HOSTILE
        room.mark("sheet:p1")

    edit(room_dir, kernel, rename)
    text = request_text(compile_turn(kernel, room_dir, "我去守夜，潮水在涨。", actor="p1", rng=random.Random(3)))
    # the keeper's own macros around the name still run
    assert f"MACRO {HOSTILE} 00:00 1970-01-01 roll=1 tide=2" in text
    assert "TIDE-REF [OUTLET-TIDE" in text  # the keeper's outlet macro is filled, once
    assert text.count("OUTLET-TIDE") == 1
    assert MARK not in text


def test_a_keepers_template_reads_a_persons_entry_as_text(kernel: Kernel, room_dir: Path) -> None:
    """``getwi`` of a pc's entry gives its text; printed by the keeper's template, its macros
    stay as written."""

    def add(room: Room) -> None:
        put_entry(room, "e-pc", "pc:p1", uid=90, key=["无人提及"], comment="PCLORE", content=HOSTILE)
        put_entry(room, "e-keeper", "world:bell-tower", uid=91, key=["罗盘"], comment="罗盘",
                  content="COMPASS [<%= getwi('PCLORE') %>]")

    edit(room_dir, kernel, add)
    text = request_text(compile_turn(kernel, room_dir, "我拿出罗盘。", rng=random.Random(1)))
    assert f"COMPASS [{HOSTILE}]" in text
    assert MARK not in text


def test_a_persons_entry_is_placed_as_written(kernel: Kernel, room_dir: Path) -> None:
    def add(room: Room) -> None:
        put_entry(room, "e-pc", "pc:p1", uid=90, key=["罗盘"], content="PC-LORE {{char}} / {{user}} " + HOSTILE)
        put_entry(room, "e-odd", "", uid=92, key=["罗盘"], content="NO-PACK " + HOSTILE)  # unknown: inert too

    edit(room_dir, kernel, add)
    result = run_turn(kernel, room_dir, "我拿出罗盘。", provider="chat_completions", reply=recorded("chat_completions"),
                      rng=random.Random(1))
    text = request_text(result.compiled)
    # {{user}} is the acting member's character; {{char}} was bound at import (none here: literal)
    assert "PC-LORE {{char}} / 陈默 " + HOSTILE in text
    assert "NO-PACK " + HOSTILE in text
    room = Room.load(room_dir, kernel)
    assert room.variable("cult_alert").value == 3  # the reply's +1 only: setvar never ran
    assert room.documents.get("mvu", "mvu").data["tree"].get("leak") is None


def test_an_older_person_entry_with_a_condition_is_left_out(kernel: Kernel, room_dir: Path) -> None:
    """A room imported before person imports dropped conditions: the condition is never
    evaluated; the entry is left out and the keeper is told why."""

    def add(room: Room) -> None:
        put_entry(room, "e-old", "pc:p1", uid=93, key=["罗盘"], content="OLD-COND", condition="setvar('x', 1) || true")
        put_entry(room, "e-dec", "companion:c", uid=94, key=["罗盘"], content="@@if true\nOLD-DECORATOR")

    edit(room_dir, kernel, add)
    run_turn(kernel, room_dir, "我拿出罗盘。", provider="chat_completions", reply=recorded("chat_completions"),
             rng=random.Random(1))
    room = Room.load(room_dir, kernel)
    warnings = " ".join(room.documents.get("worldbook_timed", "timed").data["warnings"])
    assert "entry e-old left out" in warnings and "entry e-dec left out" in warnings
    text = request_text(compile_turn(kernel, room_dir, "我拿出罗盘。", rng=random.Random(1)))
    assert "OLD-COND" not in text and "OLD-DECORATOR" not in text


def test_a_companion_is_text(kernel: Kernel, room_dir: Path) -> None:
    def add(room: Room) -> None:
        room.documents.put(Document("companion:c", "companion", {
            "name": HOSTILE, "description": "{{char}} walks with {{user}}. {{getvar::true_culprit}}",
            "personality": "<%= 'P' %>{{random::a::b}}", "pack": "c"}))

    edit(room_dir, kernel, add)
    compiled = compile_turn(kernel, room_dir, "我四处看看。", rng=random.Random(1))
    companions = block(compiled, "companions")
    assert companions == (f"### {HOSTILE}\n{HOSTILE} walks with 陈默. {{{{getvar::true_culprit}}}}\n"
                          "<%= 'P' %>{{random::a::b}}")


# --- the pure pieces ------------------------------------------------------------------------------


@pytest.mark.parametrize(("pack", "live"), [
    ("world:fog-harbor", True), ("world:x", True), ("world:", False), ("World:x", False), ("pc:p1", False),
    ("companion:c", False), ("", False), (None, False), (1, False), ("world", False), (" world:x", False),
])
def test_only_a_keepers_world_import_is_live(pack: object, live: bool) -> None:
    assert is_live_pack(pack) is live


MACRO_TABLE = {
    # macro: (what a keeper's text makes of it, what inert text makes of it)
    "{{user}}": ("U", "U"), "{{char}}": ("C", "C"), "{{ user }}": ("U", "U"), "{{newline}}": ("\n", "\n"),
    "a {{trim}} b": ("ab", "ab"), "{{// note}}x": ("x", "x"),
    "{{getvar::v}}": ("1", "{{getvar::v}}"), "{{var::v}}": ("1", "{{var::v}}"), "{{var:v}}": ("1", "{{var:v}}"),
    "{{setvar::v::2}}": ("", "{{setvar::v::2}}"), "{{addvar::v::2}}": ("", "{{addvar::v::2}}"),
    "{{incvar::v}}": ("", "{{incvar::v}}"), "{{decvar::v}}": ("", "{{decvar::v}}"),
    "{{setglobalvar::v::2}}": ("", "{{setglobalvar::v::2}}"), "{{time}}": ("08:30", "{{time}}"),
    "{{date}}": ("1925-12-01", "{{date}}"), "{{random::x::x}}": ("x", "{{random::x::x}}"),
    "{{random:x,x}}": ("x", "{{random:x,x}}"), "{{pick::y::y}}": ("y", "{{pick::y::y}}"),
    "{{roll:1d1}}": ("1", "{{roll:1d1}}"), "{{roll 1d1}}": ("1", "{{roll 1d1}}"),
    "{{user::x}}": ("{{user::x}}", "{{user::x}}"), "{{outlet::o}}": ("{{outlet::o}}", "{{outlet::o}}"),
    "{{unknown}}": ("{{unknown}}", "{{unknown}}"),
}


@pytest.mark.parametrize("macro", sorted(MACRO_TABLE))
def test_inert_text_keeps_every_macro_but_names_and_formatting(macro: str) -> None:
    import datetime

    def context(inert: bool) -> MacroContext:
        if inert:  # what Renderer.inert gives: names only
            return MacroContext(user="U", char="C", inert=True)
        return MacroContext(resolve=lambda path: 1, user="U", char="C", clock=datetime.datetime(1925, 12, 1, 8, 30),
                            rng=random.Random(0))

    keeper, inert = MACRO_TABLE[macro]
    assert substitute(macro, context(False)) == keeper
    assert substitute(macro, context(True)) == inert
    # an inert context with everything at hand still keeps them
    full = context(False)
    full.inert = True
    assert substitute(macro, full) == inert


@given(st.text())
def test_protect_hides_every_macro_and_restore_gives_the_text_back(text: str) -> None:
    if MARK in text:
        text = text.replace(MARK, "")
    assert "{{" not in protect(text)
    assert restore(protect(text)) == text


names = st.lists(st.sampled_from(["@@if x", "@@activate", "@@@if y", "@@dont_activate", "\n", "a", "{{char}}", " "]),
                 max_size=12).map("".join)


@given(name=names, body=st.sampled_from(["{{char}}", "{{char}}\nrest", "@@dont_activate\n{{char}}", "x {{char}}",
                                         "@@if 1\n{{char}}", "@@activate\n@@dont_activate\n{{char}}"]))
def test_a_bound_name_never_makes_a_decorator_or_a_condition(name: str, body: str) -> None:
    book = WorldBook(entries=[WorldEntry.model_validate({"uid": 1, "key": ["k"], "content": body})])
    for keeper in (False, True):
        (entry,) = import_entries(book, pack_id="p", keeper=keeper, char_name=name).book.entries
        decorators = [d.name for d in split_decorators(entry.content)[0]]
        wanted = [d.name for d in split_decorators(body)[0]  # a keeper's world keeps @@activate (issue 26)
                  if d.name != "if" and (keeper or d.name != "activate")]
        assert decorators == wanted, (name, body, entry.content)
        if not keeper:
            assert entry.condition == ""


def test_a_person_import_reports_the_dropped_condition() -> None:
    book = WorldBook(entries=[WorldEntry.model_validate({"uid": 1, "key": ["k"], "content": "@@if x > 1\nbody"}),
                              WorldEntry.model_validate({"uid": 2, "key": ["k"], "content": "b", "condition": "y"})])
    person = import_entries(book, pack_id="p", keeper=False)
    assert [e.condition for e in person.book.entries] == ["", ""]
    assert [d.reason for d in person.changed].count(PERSON_CONDITION) == 2
    keeper = import_entries(book, pack_id="p", keeper=True)
    assert [e.condition for e in keeper.book.entries] == ["x > 1", "y"]
