"""Every view carries the sheets its viewer may see with the rulepack's resource bars (HP, MP,
sanity, luck), labelled in the viewer's locale and filled from the values shown: through the real
``lw turn --view`` as an operator runs it, and through the view model after a turn changes them."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.view import player_view, render_text

LW = str(Path(sys.executable).with_name("lw"))
LABELS = {"p1": ["生命", "魔法", "理智", "幸运"], "p2": ["HP", "MP", "Sanity", "Luck"]}


def view_json(tmp_path: Path, room_dir: Path, member: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    done = subprocess.run([LW, "turn", str(room_dir), "--as", member, "--view", "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_lw_turn_view_carries_the_viewers_bars_in_their_locale(kernel, tmp_path: Path, room_dir: Path) -> None:
    room = Room.load(room_dir, kernel)
    for member, labels in LABELS.items():
        view = view_json(tmp_path, room_dir, member)["player_view"]
        (own,) = [s for s in view["sheets"] if s["member"] == member]
        sheet = room.sheets[member]
        assert [bar["label"] for bar in own["resources"]] == labels
        expected = [(sheet.get(stat), sheet.get(top) if top else None)
                    for stat, top in (("生命", "生命上限"), ("魔法", "魔法上限"), ("理智", "理智上限"), ("幸运", None))]
        assert [(bar["value"], bar["max"]) for bar in own["resources"]] == expected
        assert all(bar["value"] == own["values"][stat] for bar, stat in zip(own["resources"], ("生命", "魔法", "理智", "幸运")))


def test_the_bars_follow_a_turn_and_the_text_view_shows_the_viewers_own(kernel, room_dir: Path, recorded) -> None:
    before = {s.member: s for s in player_view(Room.load(room_dir, kernel), "p2").sheets}
    run_turn(kernel, room_dir, "我去码头查看那艘空船。", provider="chat_completions", reply=recorded("chat_completions"),
             rng=random.Random(7))
    room = Room.load(room_dir, kernel)
    view = player_view(room, "p2")
    after = {s.member: s for s in view.sheets}
    sanity = {m: next(b.value for b in after[m].resources if b.id == "san") for m in after}
    assert sanity == {m: room.sheets[m].get("理智") for m in after}
    assert any(sanity[m] != next(b.value for b in before[m].resources if b.id == "san") for m in after)  # it moved
    text = render_text(view)
    own = after["p2"]
    line = " · ".join(f"{b.label} {b.value}" + (f"/{b.max}" if b.max is not None else "") for b in own.resources)
    assert line in text and "Sanity" in line and "理智" not in line
    assert render_text(player_view(room, "p1")).count("生命 ") == 1  # one's own bars, not everyone's
