"""What a player or the model may not change, through real ``lw`` processes with a timeout:

- a player's ``.st`` is held to the room's rulepack -- known stats, within the pack's bounds, the
  caller's own sheet, named expressions bounded, the sheet's state kept -- and a refusal leaves
  every file byte for byte as it was (the keeper's ``.st … @member`` still sets anything);
- an ``<UpdateVariable>`` block in a model's reply cannot create a leaf of the MVU tree named
  like a declared module variable (``add /cult_alert``): the operation is refused and told to
  the keeper, the variable keeps the value the turn's tools gave it, and ``.var list`` lists it
  once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from hostile_kit import Snapshot, assert_clean, assert_refused, run_lw
from lwcore.rules.player_edits import MAX_EXPRESSION_NAME, MAX_PLAYER_EXPRESSIONS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = EXAMPLE / "replies" / "turn1.anthropic_messages.json"


def room_copy(tmp_path: Path) -> tuple[Path, Path]:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "home").mkdir()
    return room, tmp_path / "home"


HOSTILE_ST = {
    "junk-name": (".st '@p' 5", "not a stat of coc7"),
    "unknown-skill": (".st 拉丁语 40", "not a stat of coc7"),
    "over": (".st STR 999", "outside 0..99"),
    "over-in-a-list": (".st 力量60 敏捷70 侦查100", "outside 0..99"),
    "under-by-adjusting": (".st san-200", "outside 0..99"),
    "age": (".st 年龄 3", "outside 15..99"),
    "a-resource-max": (".st hp10/500", "outside 0..99"),
    "someone-elses-sheet": (".st STR 50 @p2", "only the keeper"),
    "expressions": (".st " + " ".join(f"&w{i}=1d6" for i in range(MAX_PLAYER_EXPRESSIONS + 1)), "at most"),
    "expression-name": (".st &" + "名" * (MAX_EXPRESSION_NAME + 1) + "=1d6", "a name is at most"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_ST))
def test_a_players_st_is_held_to_the_rulepack(tmp_path: Path, name: str) -> None:
    room, home = room_copy(tmp_path)
    line, why = HOSTILE_ST[name]
    snapshot = Snapshot(room, ignore=(".lw",))
    outcome = run_lw("turn", str(room), "--as", "p1", "--say", line, data_dir=home, surface="player .st")
    assert why in assert_refused(outcome)
    snapshot.assert_unchanged()


def test_what_a_player_may_set_and_the_keeper_beyond(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    sheet = room / "sheets" / "chen-mo.yaml"
    written = (sheet, room / "history.jsonl")  # the sheet, and the table's record of the command
    snapshot = Snapshot(*(p for p in room.rglob("*") if p.is_file() and p not in written and ".lw" not in p.parts))
    outcome = run_lw("turn", str(room), "--as", "p1", "--say", ".st 力量60 san-5 摄影 70 &手枪=1d10", data_dir=home)
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    values = yaml.safe_load(sheet.read_text(encoding="utf-8"))
    assert values["values"]["力量"] == 60 and values["values"]["摄影"] == 70  # a custom skill the sheet holds
    assert values["expressions"] == {"手枪": "1d10"}
    outcome = run_lw("turn", str(room), "--as", "kp", "--say", ".st STR 150 拉丁语 40 @p1", data_dir=home)
    assert outcome.code == 0, outcome.stderr
    values = yaml.safe_load(sheet.read_text(encoding="utf-8"))["values"]
    assert values["力量"] == 150 and values["拉丁语"] == 40  # the keeper is not bounded
    snapshot.assert_unchanged()  # only the player's own sheet (and the history) was written


def test_a_reply_cannot_shadow_a_declared_variable(tmp_path: Path) -> None:
    room, home = room_copy(tmp_path)
    reply = json.loads(REPLY.read_text(encoding="utf-8"))
    reply["content"][-1]["text"] += (
        "\n<UpdateVariable>\n<JSONPatch>[{\"op\": \"add\", \"path\": \"/cult_alert\", \"value\": 0},"
        " {\"op\": \"add\", \"path\": \"/true_culprit\", \"value\": \"nobody\"},"
        " {\"op\": \"add\", \"path\": \"/scene\", \"value\": 1}]</JSONPatch>\n"
        "_.set('ritual_nights_left', 0);\n_.insert('', 'clues_found', 6);\n</UpdateVariable>")
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(reply, ensure_ascii=False), encoding="utf-8")
    outcome = run_lw("turn", str(room), "--say", "我去码头。", "--reply", str(path), "--seed", "1", data_dir=home,
                     surface="reply (shadowing a declared variable)")
    assert_clean(outcome)
    assert outcome.code == 0, outcome.stderr
    tree = yaml.safe_load((room / "docs" / "mvu.yaml").read_text(encoding="utf-8"))["mvu"]["data"]["tree"]
    assert tree == {"scene": 1}  # the one leaf that names no declared variable
    variables = {v["id"]: v["value"] for v in yaml.safe_load((room / "variables.yaml").read_text(encoding="utf-8"))
                 ["variables"]}
    assert variables["cult_alert"] == 3 and variables["clues_found"] == 2  # the reply's tools only
    assert variables["true_culprit"] == "灯塔看守人周伯年" and variables["ritual_nights_left"] == 3
    listed = run_lw("turn", str(room), "--as", "kp", "--say", ".var list", data_dir=home)
    assert listed.code == 0 and [line.split()[0] for line in listed.stdout.splitlines()].count("cult_alert") == 1
    history = [json.loads(line) for line in (room / "history.jsonl").read_text(encoding="utf-8").splitlines()]
    refused = [h for h in history if (h.get("data") or {}).get("kind") == "tree_refused"]
    assert len(refused) == 4 and all(h["data"]["audience"] == "keeper" for h in refused)
    # the three that would make a leaf; the set of a missing path is refused as such anyway
    assert sum("is a declared variable of the room" in h["data"]["summary"] for h in refused) == 3
    view = run_lw("turn", str(room), "--as", "p1", "--view", "--json", data_dir=home)
    assert "declared variable" not in view.stdout
