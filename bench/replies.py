"""Reading a model's reply: linear in its size, ordinary and hostile replies alike.

    .venv/bin/python bench/replies.py

Each reply is read as a turn reads it -- MagVarUpdate's commands extracted
(``lw_tavern.mvu.magvar.extract_commands``: calls anywhere in the reply, patch blocks) and the
blocks cut from the narration (``lw_tavern.mvu.update.strip_blocks``), then
``{{roll:…}}`` macros expanded (``lwcore.turn.macros.expand_rolls``) -- at n = 128 KiB and at
4n = 512 KiB (the reply limit). Linear growth is a ratio near 4 between the two; a parser
that rescans from every tag grows by 16 (the unclosed-fence reply took 31 s at 126 KB before).
The ordinary reply is narration with an update block every few paragraphs (the baseline); each
hostile reply is one class of the hostile suites.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lwcore.turn.macros import expand_rolls  # noqa: E402
from lw_tavern.mvu.magvar import MAX_REPLY, extract_commands  # noqa: E402
from lw_tavern.mvu.update import strip_blocks  # noqa: E402
from lw_tavern.mvu.values import Reader  # noqa: E402

N = MAX_REPLY // 4
PARAGRAPH = ("陈默蹲下身，借着马灯去看潮湿的木板。雾更浓了，远处的钟声响了 {{roll:1d6}} 下。\n\n"
             "<UpdateVariable>\n<Analysis>潮位上升</Analysis>\n_.set('雾港.潮位', 2, 4);//钟声\n"
             "_.add('守夜人.信任', 5);\n<JSONPatch>[{\"op\": \"replace\", \"path\": \"/雾港/天气\", \"value\": \"雨\"}]"
             "</JSONPatch>\n</UpdateVariable>\n\n")

REPLIES = {
    "ordinary (narration and blocks)": PARAGRAPH,
    "unclosed fences": "```\n<updatevariable ",
    "openings without '>'": "<updatevariable ",
    "unclosed patches": "<UpdateVariable><JSONPatch>",
    "unclosed brackets": "<UpdateVariable>_.set([",
    "unclosed strings": "<UpdateVariable>_.set('",
    "{{roll: and spaces": "{{roll:" + " " * 64,
}


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def read_ms(text: str) -> float:
    """Best of nine: extract the commands, cut the blocks, then expand the roll macros of the
    narration (patch bodies read without the sandbox: the scan is what is measured)."""
    times = []
    for _ in range(9):
        start = time.perf_counter()
        extract_commands(text, Reader(None))
        expand_rolls(strip_blocks(text), random.Random(1))
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> int:
    print(f"reading a reply: n = {N // 1024} KiB, 4n = {4 * N // 1024} KiB (the reply limit)")
    worst = 0.0
    for name, unit in REPLIES.items():
        small = read_ms(fill(unit, N))
        large = read_ms(fill(unit, 4 * N))
        ratio = large / small if small else float("inf")
        worst = max(worst, ratio)
        print(f"  {name:34} {small:8.1f} ms  {large:8.1f} ms   {ratio:5.1f}x for 4x the text")
    print(f"  largest growth {worst:.1f}x (linear: about 4; quadratic: 16)")
    return 0 if worst < 8 else 1


if __name__ == "__main__":
    raise SystemExit(main())
