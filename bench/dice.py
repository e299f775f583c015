"""Dice throughput: lwcore.rules against the ``d20`` library, measured side by side in one run.

    .venv/bin/pip install d20      # bench only; not a project dependency
    .venv/bin/python bench/dice.py

Both sides go through their public string API with their own parse caches (``d20.roll(expr)``
and ``lwcore.rules.roll(expr, rng)``); a second lwcore column uses a precompiled expression.
Expressions d20 has no equivalent for (success pools, a full percentile-system check with a
bonus die) are measured for lwcore only. The target is >= 3x d20 on each shared expression.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lwcore.rules import compile_dice, roll  # noqa: E402

SHARED = ["1d100", "2d20kh1+3", "4d6kh3"]
OURS_ONLY = ["10d10>=8", "5d6!", "4dF"]


def rate(fn: Callable[[], object], seconds: float = 0.4) -> float:
    """Calls per CPU second: best of 5 timed batches after a warm-up (CPU time of this
    process, so other work on a shared machine does not count)."""
    for _ in range(200):
        fn()
    n = 1000
    while True:
        start = time.process_time()
        for _ in range(n):
            fn()
        elapsed = time.process_time() - start
        if elapsed > seconds / 5:
            break
        n *= 2
    best = elapsed
    for _ in range(4):
        start = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, time.process_time() - start)
    return n / best


def percentile_pack(tmp: Path) -> object:
    """A one-die percentile pack written here (the bench does not need any plugin)."""
    from lwcore.rules.engine import PackSource, RulesEngine

    pack = tmp / "perc.yaml"
    pack.write_text(
        """\
resolution:
  roll: 1d100
  target: skill
  modifiers:
    bonus: {tens_reroll: keep_lowest}
    penalty: {tens_reroll: keep_highest}
  difficulties:
    hard: {target: "floor(target / 2)"}
    extreme: {target: "floor(target / 5)"}
  ranks:
    - {id: crit, when: "roll == 1", success: true, critical: true, tier: 5}
    - {id: fumble, when: "roll == 100 || (roll > target && target < 50 && roll >= 96)", fumble: true}
    - {id: extreme, when: "roll <= target && roll <= floor(raw_target / 5)", success: true, tier: 4}
    - {id: hard, when: "roll <= target && roll <= floor(raw_target / 2)", success: true, tier: 3}
    - {id: regular, when: "roll <= target", success: true, tier: 2}
    - {id: fail, tier: 1}
""",
        encoding="utf-8",
    )
    return RulesEngine(None, sources=[PackSource("perc", "bench", pack)], user_dir=None).rule_system("perc")


def main() -> int:
    try:
        import d20
    except ImportError:
        print("d20 is not installed: .venv/bin/pip install d20 (bench only)")
        return 1
    rng = random.Random(1)
    from importlib.metadata import version
    print(f"python {sys.version.split()[0]}; d20 {version('d20')}")
    print(f"{'expression':<14}{'d20 µs':>10}{'lw µs':>10}{'lw pre µs':>11}{'ratio':>8}{'ratio pre':>11}")
    worst = float("inf")
    for expr in SHARED:
        theirs = rate(lambda e=expr: d20.roll(e).total)
        ours = rate(lambda e=expr: roll(e, rng).total)
        compiled = compile_dice(expr)
        pre = rate(lambda c=compiled: c.roll(rng).total)
        worst = min(worst, ours / theirs)
        print(f"{expr:<14}{1e6 / theirs:>10.2f}{1e6 / ours:>10.2f}{1e6 / pre:>11.2f}"
              f"{ours / theirs:>7.1f}x{pre / theirs:>10.1f}x")
    for expr in OURS_ONLY:
        ours = rate(lambda e=expr: roll(e, rng).total)
        print(f"{expr:<14}{'-':>10}{1e6 / ours:>10.2f}{'':>11}{'(no d20 equivalent)':>20}")
    with tempfile.TemporaryDirectory() as tmp:
        pack = percentile_pack(Path(tmp))
        plain = rate(lambda: pack.check(60, rng=rng))
        bonus = rate(lambda: pack.check(60, difficulty="hard", bonus=1, rng=rng))
    print(f"{'check 1d100':<14}{'-':>10}{1e6 / plain:>10.2f}{'':>11}   full percentile check (ranks, margin)")
    print(f"{'check +bonus':<14}{'-':>10}{1e6 / bonus:>10.2f}{'':>11}   hard difficulty, one bonus die")
    verdict = "meets" if worst >= 3 else "MISSES"
    print(f"worst shared ratio (string API): {worst:.1f}x — {verdict} the 3x target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
