"""Startup cost: bare Python vs ``lw --version``, ``lw plugins list`` and an in-process boot.

Run: ``.venv/bin/python bench/boot.py [--runs N]``. Prints the median wall time of each and
its ratio to ``python -c pass`` measured in the same run, and the same for the CPU time the
command itself used (user + system: on a machine shared with other work, wall time also counts
the wait for a core). Targets on the 2-core machine:
``lw --version`` <= 3x bare Python (the entry point answers it without click or the kernel);
``lw plugins list`` (every bundled plugin imported and every
registry built, as it reports each plugin's true status) <= 100 ms and <= 5x bare Python.
The manifest cache is warmed once first, as it is after the first run on an operator's box,
and the sources are byte-compiled first, as a pip install does.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wall(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, the child's own) of ``cmd``.

    On a shared machine the wall time also counts waiting for a core; the CPU time is what the
    command itself costs, so both are printed."""
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    lw = str(Path(sys.executable).with_name("lw"))
    home = tempfile.mkdtemp(prefix="lw-bench-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = home
    # An operator's pip install compiles bytecode at install time; an editable checkout run
    # under PYTHONDONTWRITEBYTECODE=1 would recompile every module on every start instead.
    # Compile the kernel and the bundled plugins once so both cases measure the same thing.
    root = Path(__file__).resolve().parents[1]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(root / "lwcore"), str(root / "plugins")],
        check=True, stdout=subprocess.DEVNULL,
    )
    subprocess.run([lw, "plugins", "list"], env=env, stdout=subprocess.DEVNULL, check=True)

    from lwcore.kernel import Kernel

    in_process = []
    for _ in range(args.runs):
        start = time.perf_counter()
        kernel = Kernel(data_dir=home, env=env)
        kernel.load_all()
        in_process.append(time.perf_counter() - start)
    plugins = len(kernel.plugins)

    rows = [
        ("python -c pass", wall([sys.executable, "-c", "pass"], env, args.runs), (None, None)),
        ("lw --version", wall([lw, "--version"], env, args.runs), (None, 3.0)),
        (f"lw plugins list ({plugins} plugins)", wall([lw, "plugins", "list"], env, args.runs), (0.100, 5.0)),
        ("lw roll 1d20 (one plugin imported)", wall([lw, "roll", "1d20"], env, args.runs), (None, None)),
        ("Kernel() + load_all() in-process", (statistics.median(in_process), None), (None, None)),
    ]
    base, base_cpu = rows[0][1]
    print(f"{'what':<40} {'median ms':>10} {'x python':>9} {'cpu ms':>7} {'x python':>9}  target (wall; cpu)")
    for name, (seconds, cpu), (limit, ratio) in rows:
        verdict = ""
        if limit is not None:
            verdict += f"<= {limit * 1000:.0f} ms {'ok' if seconds <= limit else 'MISSED'}"
            if cpu is not None:
                verdict += f" ({'ok' if cpu <= limit else 'MISSED'})"
        if ratio is not None:
            verdict += (", " if verdict else "") + f"<= {ratio:.0f}x {'ok' if seconds / base <= ratio else 'MISSED'}"
        cpu_cells = f"{cpu * 1000:>7.1f} {cpu / base_cpu:>9.2f}" if cpu is not None else f"{'':>7} {'':>9}"
        print(f"{name:<40} {seconds * 1000:>10.1f} {seconds / base:>9.2f} {cpu_cells}  {verdict}")


if __name__ == "__main__":
    main()
