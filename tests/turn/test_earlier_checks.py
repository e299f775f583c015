"""``subsystem_check`` on earlier checks: every ``skill_check`` keeps the character's most recent
check in the sheet's ``state`` (written with the room, read back on reload), and ``luck``,
``push`` and ``opposed`` work on it through ``RulesEngine.subsystem`` with the pack's rules."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room


class Fixed(random.Random):
    """Every die shows the same face fraction (1d100 = int(fraction * 100) + 1)."""

    def __init__(self, fraction: float) -> None:
        super().__init__(0)
        self.fraction = fraction

    def random(self) -> float:
        return self.fraction


def _run(kernel, room_dir: Path, rng: random.Random, name: str, **args):
    reply = {"content": [{"type": "tool_use", "id": "c", "name": name, "input": args}]}
    result = run_turn(kernel, room_dir, "……", reply=reply, rng=rng)
    (only,) = result.applied.results
    return only, result


def _check(kernel, room_dir, fraction, character="p1", skill="侦查", **more):
    out, _ = _run(kernel, room_dir, Fixed(fraction), "skill_check", character=character, skill=skill, **more)
    assert not out.is_error, out.content
    return out.content


def _sub(kernel, room_dir, fraction=0.5, **args):
    out, turn = _run(kernel, room_dir, Fixed(fraction), "subsystem_check", **{"character": "p1", **args})
    return out, turn


def _state(room_dir: Path, name: str = "chen-mo.yaml") -> dict:
    return yaml.safe_load((room_dir / "sheets" / name).read_text(encoding="utf-8")).get("state") or {}


def test_a_check_is_kept_in_the_sheet_state_and_survives_a_reload(kernel, room_dir: Path) -> None:
    check = _check(kernel, room_dir, 0.70)  # 71 against 65: a failure
    assert check["roll"] == 71 and check["success"] is False
    kept = _state(room_dir)["last_check"]
    assert kept["roll"] == 71 and kept["raw_target"] == 65 and kept["stat"] == "侦查" and kept["value"] == 65
    room = Room.load(room_dir, kernel)
    assert room.sheets["p1"].state["last_check"]["rank"] == kept["rank"]
    # the keeper's prompt does not repeat it as sheet state (the check event already shows it)
    compiled = compile_turn(kernel, room_dir, "x", provider="chat_completions")
    world = next(m for m in compiled.messages if m.get("promptId") == "lw:world")["markdown"]
    assert "last_check" not in world
    # nor does the player view show any sheet state
    assert "last_check" not in repr(run_turn(kernel, room_dir, "x", reply={"content": []}).player_view("p2"))


def test_luck_buys_the_next_success_level_and_updates_the_kept_check(kernel, room_dir: Path) -> None:
    _check(kernel, room_dir, 0.70)  # 71 / 65
    out, turn = _sub(kernel, room_dir, subsystem="luck")
    assert not out.is_error, out.content
    c = out.content
    assert c["kind"] == "luck" and c["success"] is True and c["values"]["cost"] == 6
    assert c["values"]["new_roll"] == 65 and c["changes"] == {"幸运": [55, 49]}
    room = Room.load(room_dir, kernel)
    assert room.sheets["p1"].get("幸运") == 49
    kept = room.sheets["p1"].state["last_check"]
    assert kept["roll"] == 65 and kept["success"] is True and kept["flags"]["luck_spent"] == 6
    assert turn.applied.results[0].content["text"].startswith("幸运")


def test_luck_to_a_named_level_and_its_refusals(kernel, room_dir: Path) -> None:
    _check(kernel, room_dir, 0.40)  # 41 / 65: a regular success
    out, _ = _sub(kernel, room_dir, subsystem="luck", want="困难成功")  # label -> the pack's rank
    assert not out.is_error, out.content
    assert out.content["values"]["cost"] == 41 - 32 and out.content["values"]["new_roll"] == 32
    # more luck than held (46 left after spending 9)
    _check(kernel, room_dir, 0.70)  # 71 / 65
    out, _ = _sub(kernel, room_dir, subsystem="luck", want="extreme")  # 71 -> 13 costs 58 > 46
    assert out.is_error and "only 46" in out.content["error"]
    assert Room.load(room_dir, kernel).sheets["p1"].get("幸运") == 46  # nothing spent
    # a fumble cannot be bought off (the pack's forbid_fumble)
    _check(kernel, room_dir, 0.99999)  # 100: fumble
    out, _ = _sub(kernel, room_dir, subsystem="luck")
    assert out.is_error and "fumble" in out.content["error"]


def test_push_rerolls_once_and_a_second_push_is_refused(kernel, room_dir: Path) -> None:
    _check(kernel, room_dir, 0.70)  # 71 / 65: failure
    out, _ = _sub(kernel, room_dir, 0.10, subsystem="push")
    assert not out.is_error, out.content
    c = out.content
    assert c["kind"] == "push" and c["flags"] == {"pushed": True} and c["check"]["roll"] == 11
    assert c["success"] is True and "孤注一掷" in c["text"]
    kept = Room.load(room_dir, kernel).sheets["p1"].state["last_check"]
    assert kept["roll"] == 11 and kept["flags"]["pushed"] is True and kept["stat"] == "侦查"
    again, _ = _sub(kernel, room_dir, 0.90, subsystem="push")
    assert again.is_error and "cannot be pushed again" in again.content["error"]
    # a failed push is flagged dire
    _check(kernel, room_dir, 0.70)
    out, _ = _sub(kernel, room_dir, 0.90, subsystem="push")
    assert out.content["flags"] == {"pushed": True, "dire": True} and out.content["success"] is False
    # a success cannot be pushed
    _check(kernel, room_dir, 0.10)
    out, _ = _sub(kernel, room_dir, 0.90, subsystem="push")
    assert out.is_error and "only a failed check" in out.content["error"]


def test_opposed_compares_the_last_checks_or_rolls_both(kernel, room_dir: Path) -> None:
    _check(kernel, room_dir, 0.40, character="p1")   # 41 / 65: regular
    _check(kernel, room_dir, 0.10, character="p2")   # 11 / 45: hard (22)
    out, turn = _sub(kernel, room_dir, subsystem="opposed", opponent="p2")
    assert not out.is_error, out.content
    assert out.content["outcome"] == "second" and out.content["values"]["decided_by"] == "tier"
    assert out.content["opponent_member"] == "p2"
    assert "陈默 vs 苏婉清" in (room_dir / "history.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    # the player view rebuilds the line in the reader's locale, both sides named
    view = repr(turn.player_view("p2"))
    assert "陈默 vs 苏婉清: second wins" in view, view[-600:]
    # rolling both now with the same face: hard (31/65) beats regular (31/45)
    out, _ = _sub(kernel, room_dir, 0.30, subsystem="opposed", opponent="p2", skill="侦查")
    assert not out.is_error, out.content
    assert [c["roll"] for c in out.content["checks"]] == [31, 31]
    assert out.content["outcome"] == "first" and out.content["values"]["decided_by"] == "tier"
    room = Room.load(room_dir, kernel)
    assert room.sheets["p2"].state["last_check"]["roll"] == 31  # both checks are kept
    # an opponent without an earlier check
    fresh = room_dir.parent / "fresh"
    import shutil

    shutil.copytree(room_dir.parent / "fog-harbor", fresh)
    for name in ("chen-mo.yaml", "su-wanqing.yaml"):
        path = fresh / "sheets" / name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data.pop("state", None)
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    _check(kernel, fresh, 0.30, character="p1")
    out, _ = _sub(kernel, fresh, subsystem="opposed", opponent="p2")
    assert out.is_error and "no earlier check" in out.content["error"]
    out, _ = _sub(kernel, fresh, subsystem="opposed", opponent="p1")
    assert out.is_error and "themself" in out.content["error"]
