"""``lw check --batch -`` end to end against the JSON floor, measured in the same run.

    .venv/bin/python bench/batch.py [LINES]

Both sides are fresh processes reading the same file of percentile check requests on stdin
and writing one JSON line per request to a pipe:

- floor: a bare Python process that parses each line with ``json.loads`` and prints
  ``json.dumps`` of an answer (no validation, no dice);
- lw: ``lw check --batch -`` (boot, strict validation of every line, the check, the answer).

The target is lw <= 3x the floor. Best of 3 runs each; the figures include process start-up.
The ratio is taken on CPU time (user + system of the child process: other work on a shared
machine does not count); wall time is printed too.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
FLOOR = [sys.executable, "-c", """
import json, sys
out = sys.stdout
for line in sys.stdin:
    if line.strip():
        request = json.loads(line)
        out.write(json.dumps({"system": request["system"], "rank": "regular", "success": True, "roll": 37}) + "\\n")
"""]
PACK = """\
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
labels:
  en: {crit: [Critical Success], extreme: [Extreme Success], hard: [Hard Success], regular: [Success],
       fail: [Failure], fumble: [Fumble]}
"""


def requests(n: int) -> str:
    rng = random.Random(1)
    lines = []
    for i in range(n):
        line: dict[str, object] = {"system": "perc", "skill": rng.randint(1, 99)}
        if i % 3:
            line["difficulty"] = ("hard", "extreme")[i % 3 - 1]
        if i % 5 == 0:
            line["bonus"] = 1
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best(command: list[str], data: Path, expect: int) -> tuple[float, float]:
    """``(best CPU seconds, best wall seconds)`` of three runs."""
    cpus, walls = [], []
    for _ in range(3):
        with data.open("rb") as stdin:
            start, used = time.perf_counter(), cpu()
            proc = subprocess.run(command, stdin=stdin, capture_output=True, check=False)
            walls.append(time.perf_counter() - start)
            cpus.append(cpu() - used)
        lines = proc.stdout.count(b"\n")
        if proc.returncode != 0 or lines != expect:
            raise SystemExit(f"{command[-4:]} failed: exit {proc.returncode}, {lines} lines\n{proc.stderr.decode()[:500]}")
    return min(cpus), min(walls)


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "rulepacks").mkdir()
        (home / "rulepacks" / "perc.yaml").write_text(PACK, encoding="utf-8")
        data = home / "requests.jsonl"
        data.write_text(requests(n), encoding="utf-8")
        floor = best(FLOOR, data, n)
        ours = best([*LW, "--data-dir", str(home), "check", "--batch", "-"], data, n)
    print(f"{n} requests (percentile checks, a third hard, a third extreme, a fifth with a bonus die)")
    print(f"{'':<22}{'CPU s':>8}{'per second':>14}{'wall s':>9}")
    print(f"{'floor (json in/out)':<22}{floor[0]:8.2f}{n / floor[0]:>14,.0f}{floor[1]:9.2f}")
    print(f"{'lw check --batch -':<22}{ours[0]:8.2f}{n / ours[0]:>14,.0f}{ours[1]:9.2f}")
    ratio = ours[0] / floor[0]
    print(f"ratio {ratio:.2f}x the floor — {'meets' if ratio <= 3 else 'MISSES'} the 3x target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
