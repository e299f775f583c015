"""Story Repo: a cold ``lw story check`` with the new-name check's tables kept vs. built (issue 30, stop 56).

Each ``lw story`` command is a new process; the new-name check needs jieba's dictionary and the
tables derived from it (:mod:`lw_storyrepo.nametables`). A small book (three cards, one draft
handed in, as an author sets it up) is checked by ``lw story check`` in fresh processes, in
turns: with an empty data dir (``LW_HOME``: the tables built, then written) and with a data
dir that holds them (read). Printed: the median seconds of each and their ratio, and the same
for the bare load (``lexicon()`` in a fresh process). Both kinds run in the same run, alternated,
so a busy machine slows both alike.

Usage: PYTHONPATH=plugins/storyrepo .venv/bin/python bench/story_cold.py [--runs R]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "plugins" / "storyrepo"
sys.path.insert(0, str(PLUGIN / "tests"))  # story_cli: the tests' way of setting a book up as an author does

from story_cli import hand_in, lw  # noqa: E402

DRAFT = """---
章: 1
标题: 客栈
视角: 林晚
书内时间: 大历元年春
---

林晚在青石镇的客栈里过夜，窗外的雨下了整整一夜，她想着心事，久久没有睡着，灯花落了又落。
苏婉站在门边，没有说话，看着林晚拔出青霜剑，在灯下细细擦拭，剑光映着她的脸。
店里的伙计说起，那个叫石敢当的汉子昨夜醉酒失足，摔进了河里，沈砚和周不疑去捞了半夜。
"""

LOAD = "from lw_storyrepo.propernouns import lexicon; lexicon()"  # the book's path, passed last, unread


def book(folder: Path) -> Path:
    root = folder / "书"
    folder.mkdir(parents=True, exist_ok=True)
    lw(root, "init", str(root), "--书名", "书", "--类型", "玄幻", "--每章目标字数", "200")
    for who in ("林晚", "苏婉", "周伯"):
        lw(root, "character", "set", who, "位置", "青石镇")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", "林晚在青石镇过夜")
    lw(root, "decide")
    lw(root)  # pack
    hand_in(root, DRAFT)
    return root


def timed(command: list[str], home: Path, pristine: Path, folder: Path) -> float:
    """Seconds of ``command`` in a fresh process on a fresh copy of the book ``pristine`` (a
    check's findings are kept with the draft: a second check of it would not read it again)."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(pristine, folder, symlinks=True)
    env = dict(os.environ, LW_HOME=str(home), PYTHONPATH=os.pathsep.join([str(PLUGIN), *sys.path]))
    start = time.perf_counter()
    done = subprocess.run([*command, str(folder / pristine.name)], env=env, check=False, capture_output=True,
                          timeout=600)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[-3:]} failed: {done.stderr[-2000:]!r}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="story-cold-") as tmp:
        base = Path(tmp)
        os.environ["LW_HOME"] = str(base / "setup-home")
        pristine = book(base / "pristine")
        copy = base / "copy"
        warm = base / "warm-home"
        commands = {
            "lw story check": [sys.executable, "-c", "import sys; from lwcore.cli import main; sys.exit(main())",
                               "story", "check", "-C"],
            "lexicon() alone": [sys.executable, "-c", LOAD],
        }
        timed(commands["lexicon() alone"], warm, pristine, copy)  # the tables written once
        for label, command in commands.items():
            cold: list[float] = []
            kept: list[float] = []
            for run in range(args.runs):
                empty = base / f"empty-{run}"
                cold.append(timed(command, empty, pristine, copy))
                shutil.rmtree(empty, ignore_errors=True)
                kept.append(timed(command, warm, pristine, copy))
            c, k = statistics.median(cold), statistics.median(kept)
            print(f"{label:18} tables built {c:6.2f} s   tables kept {k:6.2f} s   ratio {c / k:4.1f}x   ({args.runs} runs each)")


if __name__ == "__main__":
    main()
