"""Content that would stall a turn, through real ``lw`` processes on the example room.

Each class is imported the way it reaches a room (a keeper's world card, a player's own pc
card) or applied as a model reply, then one turn is played with ``lw turn``: it must finish
(the subprocess timeout is the hang check), exit 0, tell the keeper what was skipped, and
leave every file the turn has no business writing byte for byte as it was. The wall time of
each turn is recorded for the suite's summary (``hostile inputs``: the slowest per class).

- regular expressions from content: ``/(a+)+$/`` and forty catastrophic keys of a world card,
  and one on a player's own pc card -- JavaScript semantics in QuickJS, 0.1 s a test, skipped
  and reported, within the turn's script budget;
- the per-turn script budget (``lwcore.sandbox.budget.TURN_BUDGET_S``): sixteen looping hooks,
  forty looping templates, eighty spinning ``@@if`` conditions -- the turn's scripts together
  stop at the budget, the rest degrade (hook disabled, entry left out, condition false);
- model replies at the 512 KiB limit built to make parsers rescan (unclosed fences and
  tags, unclosed strings and brackets, ``{{roll:`` and spaces, ``[`` and spaces in paths,
  500 commands on one leaf): linear parsing, bounded application;
- world books built to make the scan super-linear (``plugins/tavern/tests/hostile_books.py``:
  keys ``a`` … ``a`` × 1,309 against 65,450 ``a``, the longest line a player may say, the same
  as whole words, thousands of recursion levels, secondary keys and group members through long
  recursions) on a player's own pc card, with the recursion the keeper switched on: every entry
  the case says fires, within the turn's timeout (before, the nested keys alone grew with keys
  × text: 3.5 s and 1.3 GB at 400 keys, about 10x that here).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from hostile_kit import Snapshot, assert_clean, run_lw

from lwcore.io.speech import MAX_SAID_BYTES

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins" / "tavern" / "tests"))
EXAMPLE = ROOT / "examples" / "fog-harbor"
A30 = "a" * 30 + "!"
KEPT = ("room.yaml", "variables.yaml", "sheets", "docs/worldbook_entry.yaml", "docs/worldbook_pack.yaml")
"""What a turn never writes (history, the timed state and the tree are the turn's own)."""


def room_copy(tmp_path: Path) -> tuple[Path, Path]:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "home").mkdir()
    return room, tmp_path / "home"


def card(tmp_path: Path, entries: list[dict], hooks: list[str] = (), name: str = "Hostile") -> Path:
    data = {"name": name, "description": "A visitor.", "personality": "", "scenario": "", "first_mes": "",
            "mes_example": "", "character_book": {"entries": [
                {"id": i, "insertion_order": 100, "enabled": True, "position": "before_char", **e}
                for i, e in enumerate(entries)]},
            "extensions": {"loreweaver_hooks": list(hooks)}}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}, ensure_ascii=False),
                    encoding="utf-8")
    return path


def imported(tmp_path: Path, room: Path, home: Path, file: Path, kind: str = "world", *extra: str) -> None:
    outcome = run_lw("tavern", "import", str(file), "--as", kind, str(room), *extra, data_dir=home)
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr


def narration(tmp_path: Path, text: str) -> Path:
    """A recorded reply (Anthropic Messages) holding only ``text``: no tool call writes anything."""
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps({"role": "assistant", "content": [{"type": "text", "text": text}],
                                 "stop_reason": "end_turn"}, ensure_ascii=False), encoding="utf-8")
    return reply


def turn(room: Path, home: Path, say: str, surface: str, *extra: str, reply: Path | None = None) -> str:
    """One applied turn; returns the keeper's log of it (history events and the scan's warnings)."""
    reply = reply or narration(room.parent, "雾更浓了。")
    kept = Snapshot(*(room / name for name in KEPT))
    outcome = run_lw("turn", str(room), "--say", say, "--reply", str(reply), "--seed", "1", *extra, data_dir=home,
                     surface=surface)
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stdout + outcome.stderr
    kept.assert_unchanged()
    return (room / "history.jsonl").read_text(encoding="utf-8") + "\n".join(warnings(room))


def warnings(room: Path) -> list[str]:
    """The keeper's warnings of the last scan (the timed state document)."""
    import yaml

    timed = room / "docs" / "worldbook_timed.yaml"
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            found.extend(str(w) for w in node.get("warnings") or [] if isinstance(node.get("warnings"), list))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    if timed.exists():
        walk(yaml.safe_load(timed.read_text(encoding="utf-8")))
    return found


# --- regular expressions from content --------------------------------------------------------------


def test_a_catastrophic_regex_key_of_a_world_card_is_skipped_and_reported(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    imported(tmp_path, room, home, card(tmp_path, [{"keys": ["/(a+)+$/"], "content": "NEVER"},
                                                   {"keys": ["/雾[港湾]/"], "content": "FOG-LORE"}]))
    log = turn(room, home, f"雾港 {A30}", "turn: regex key (world)")
    assert "regex key '/(a+)+$/' skipped" in log and "0.1 s" in log
    assert "FOG-LORE" not in log  # lore is prompt text, never history


def test_forty_catastrophic_regex_keys_stay_within_the_turns_budget(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    keys = [f"/(a+)+$|q{{{i + 2}}}/" for i in range(40)]  # forty distinct patterns, none with a literal to skip by
    imported(tmp_path, room, home, card(tmp_path, [{"keys": [k], "content": f"E{i}"} for i, k in enumerate(keys)]))
    log = turn(room, home, A30, "turn: 40 regex keys (world)")
    assert log.count("regex key") == 40 and log.count("0.1 s of CPU time") >= 10 and "script time is spent" in log


def test_a_catastrophic_regex_key_on_a_players_own_card_cannot_stall_the_turn(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    imported(tmp_path, room, home, card(tmp_path, [{"keys": ["/(a+)+$/"], "content": "PC-LORE"}], name="Mine"),
             "pc", "--member", "p1")
    log = turn(room, home, A30, "turn: regex key (player's pc card)", "--as", "p1")
    assert "regex key '/(a+)+$/' skipped" in log


# --- the per-turn script budget ---------------------------------------------------------------------


def test_sixteen_looping_hooks_are_disabled_within_the_budget(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    hooks = [f"on('turn_start', () => {{ for (;;) {{}} }}); // {i}" for i in range(16)]
    imported(tmp_path, room, home, card(tmp_path, [{"keys": ["雾"], "content": "lore"}], hooks=hooks))
    log = turn(room, home, "雾", "turn: 16 looping hooks")
    assert log.count("disabled") >= 16
    assert "script time is spent" in log and "0.25 s of CPU time" in log


def test_forty_looping_templates_leave_their_entries_out(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    entries = [{"keys": ["雾"], "content": f"<% while (true) {{}} %>T{i}"} for i in range(40)]
    imported(tmp_path, room, home, card(tmp_path, entries))
    log = turn(room, home, "雾", "turn: 40 looping templates")
    assert "left out: the turn's 2 s of script time is spent" in log


def test_eighty_spinning_conditions_are_false_within_the_budget(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    entries = [{"keys": ["雾"], "content": f"@@if (() => {{ for (;;) {{}} }})()\nC{i}"} for i in range(80)]
    imported(tmp_path, room, home, card(tmp_path, entries))
    log = turn(room, home, "雾", "turn: 80 spinning conditions")
    assert "script time is spent; treated as false" in log


# --- model replies -----------------------------------------------------------------------------------

LIMIT = 512 * 1024 - 256


def fill(unit: str, size: int = LIMIT) -> str:
    return (unit * (size // len(unit) + 1))[:size]


REPLIES = {
    "unclosed fences": fill("```\n<updatevariable "),
    "unclosed tags": "<UpdateVariable>" + fill("<JSONPatch><analysis "),
    "unclosed strings and brackets": "<UpdateVariable>" + fill("_.set('a', [") + fill("_.set('", LIMIT // 2),
    "roll macros and spaces": "{{roll:" + " " * LIMIT,
    "bracketed paths and spaces": "<UpdateVariable>" + fill("_.set('[" + " " * 990 + "', 1);\n") + "</UpdateVariable>",
    "500 commands on one leaf": "<UpdateVariable>" + fill("_.set('线索', 1);\n") + "</UpdateVariable>",
}


@pytest.mark.parametrize("name", list(REPLIES))
def test_a_hostile_reply_at_the_size_limit_is_read_in_bounded_time(tmp_path: Path, name: str) -> None:
    room, home = room_copy(tmp_path)
    # --json: the terminal report would wrap half a megabyte of narration into panels (rich: seconds)
    turn(room, home, "我去码头。", f"turn: reply ({name})", "--json", reply=narration(tmp_path, REPLIES[name]))


# --- world books built to make the scan super-linear, on a player's own card ----------------------

NESTED = MAX_SAID_BYTES // 50 - 1
"""The most nested keys whose text (50 ``a`` a key, and a word) is one line a player may say
(1,309: before the fix about 10x the 3.5 s and 1.3 GB of 400)."""
PLAYER_BOOKS = {"nested": NESTED, "nested_words": NESTED, "levels": 2000, "secondary": 2000, "group_losers": 1000}
"""Cases of ``hostile_books`` a player can bring on a pc card (one message: what they say), and
their sizes here (importing thousands of entries is itself seconds of the test)."""


@pytest.mark.parametrize("name", list(PLAYER_BOOKS))
def test_a_players_card_built_to_stall_the_scan_cannot_stall_the_turn(tmp_path: Path, name: str) -> None:
    import yaml
    from hostile_books import CASES, card_entries

    build, _ = CASES[name]
    case = build(PLAYER_BOOKS[name])
    room, home = room_copy(tmp_path)
    data = {"name": "Mine", "description": "A visitor.", "personality": "", "scenario": "", "first_mes": "",
            "mes_example": "", "character_book": {"entries": [{**e, "id": i, "enabled": True}
                                                              for i, e in enumerate(card_entries(case))]}}
    path = tmp_path / "Mine.json"
    path.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}, ensure_ascii=False),
                    encoding="utf-8")
    outcome = run_lw("tavern", "import", str(path), "--as", "pc", str(room), "--member", "p1", data_dir=home,
                     timeout=300)
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    if case.settings:  # the keeper's world-info settings (recursion on, room for every entry)
        settings = "".join(f"  {key}: {json.dumps(value)}\n" for key, value in case.settings.items())
        with (room / "room.yaml").open("a", encoding="utf-8") as out:
            out.write("worldbook:\n" + settings)
    assert len(case.chat) == 1
    turn(room, home, case.chat[0], f"turn: world book ({case.name}, player's pc card)", "--as", "p1", "--json")
    timed = yaml.safe_load((room / "docs" / "worldbook_timed.yaml").read_text(encoding="utf-8"))
    fired = [handle for handle in timed["timed"]["data"]["fired"] if handle.startswith("Mine#")]
    assert len(fired) == case.fired
