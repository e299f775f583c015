"""The keeper's frame marks the MVU leaves the keeper has not exposed ``hidden: true``; a
player's frame never holds them (contract A.2: "守秘人连接会在自己的帧上看到未公开的剩余部分并标记
hidden: true，玩家则完全看不到"). Through ``lw turn --view --json`` after the keeper's own
``.var expose``, and the web table's frame (the panels plugin's ``table_view``) for both seats.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.turn.room import Room

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
SECRET = "灯塔看守人周伯年"
MVU = ("mvu:\n  schema_version: 1\n  data:\n    exposed: []\n    tree:\n      公开: {天气: 雨, 潮位: 3}\n"
       f"      内部: {{真凶: {SECRET}, 仪式: {{剩余夜数: 2}}}}\n")


def lw(work: Path, *args: str) -> str:
    run = subprocess.run([LW, "--data-dir", str(work / "data"), *args], capture_output=True, text=True, timeout=120,
                         cwd=work)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    return run.stdout


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "room" / "docs" / "mvu.yaml").write_text(MVU, encoding="utf-8")  # an imported card's tree, as saved
    (tmp_path / "data").mkdir()
    lw(tmp_path, "turn", "room", "--as", "kp", "--say", ".var expose 公开")
    return tmp_path


def tree(work: Path, member: str) -> list[dict]:
    return json.loads(lw(work, "turn", "room", "--as", member, "--view", "--json"))["player_view"]["tree"]


def test_the_keepers_view_marks_unexposed_leaves_hidden(work: Path) -> None:
    assert {leaf["path"]: leaf["hidden"] for leaf in tree(work, "kp")} == {
        "公开.天气": False, "公开.潮位": False, "内部.真凶": True, "内部.仪式.剩余夜数": True}
    for player in ("p1", "p2"):
        leaves = tree(work, player)
        assert [(leaf["path"], leaf["hidden"]) for leaf in leaves] == [("公开.天气", False), ("公开.潮位", False)]
        assert SECRET not in json.dumps(leaves, ensure_ascii=False)
    text = lw(work, "turn", "room", "--as", "kp", "--view")
    assert f"内部.真凶: {SECRET}  (未公开)" in text


def test_the_web_tables_frame_marks_them_too(work: Path) -> None:
    from lw_panels.table import table_view

    room = Room.load(work / "room", Kernel(data_dir=work / "data", env={}))
    keeper = {v["id"]: v for v in table_view(room, "kp")["variables"] if v["id"].startswith("mvu.")}
    assert {k: v.get("hidden", False) for k, v in keeper.items()} == {
        "mvu.公开.天气": False, "mvu.公开.潮位": False, "mvu.内部.真凶": True, "mvu.内部.仪式.剩余夜数": True}
    player = table_view(room, "p1")
    assert sorted(v["id"] for v in player["variables"] if v["id"].startswith("mvu.")) == ["mvu.公开.天气", "mvu.公开.潮位"]
    assert SECRET not in json.dumps(player, ensure_ascii=False) and '"hidden"' not in json.dumps(player)
