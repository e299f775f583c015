"""Running ``lw`` against hostile input and checking what a refusal must look like.

:func:`run_lw` runs one command as a subprocess (a fresh interpreter, like an operator's
shell) with a timeout, so a hang is a failure, not a stuck suite. :func:`assert_refused`
checks the answer: a non-zero exit (1: refused input), a message that names where the problem
is, and no traceback or "internal error" anywhere. :class:`Snapshot` proves the files a
command was given (and its data dir) are byte-identical afterwards. :func:`record` keeps the
time of each refusal per surface for the suite's summary.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
TIMEOUT = 60.0
RECORD: dict[str, list[float]] = defaultdict(list)
"""Surface -> seconds each of its cases took (the summary prints the counts and the slowest)."""


@dataclass(frozen=True)
class Outcome:
    args: tuple[str, ...]
    code: int
    stdout: str
    stderr: str
    seconds: float


def run_lw(*args: str, data_dir: Path, stdin: bytes | None = None, cwd: Path | None = None,
           timeout: float = TIMEOUT, surface: str | None = None) -> Outcome:
    """Run ``lw --data-dir DATA_DIR ARGS…`` in a fresh process; a timeout fails the test."""
    env = {k: v for k, v in os.environ.items() if k not in ("LW_DEBUG", "LW_PLUGINS", "LW_STRICT_PLUGINS")}
    start = time.perf_counter()
    try:
        proc = subprocess.run([*LW, "--data-dir", str(data_dir), *args], input=stdin, capture_output=True,
                              cwd=cwd, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"lw {' '.join(args)} did not finish within {timeout:.0f} s") from None
    seconds = time.perf_counter() - start
    if surface is not None:
        RECORD[surface].append(seconds)
    return Outcome(tuple(args), proc.returncode, proc.stdout.decode("utf-8", "replace"),
                   proc.stderr.decode("utf-8", "replace"), seconds)


def hostile_cases(default: int) -> Any:
    """Hypothesis settings for subprocess-driven hostile cases: derandomized (no luck), no
    example database, no deadline. Each case is a whole ``lw`` process, so ``make test`` draws
    ``default`` per surface; ``LW_HOSTILE_EXAMPLES=N`` draws N instead for a deeper run."""
    from hypothesis import HealthCheck, settings

    count = os.environ.get("LW_HOSTILE_EXAMPLES", "")
    return settings(max_examples=int(count) if count.isdigit() and int(count) > 0 else default,
                    deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


BANNED = ("Traceback", "internal error", "Exception:", "RecursionError", "MemoryError")


def assert_clean(outcome: Outcome) -> None:
    """No traceback, no internal error, no Python exception name, anywhere in the output."""
    for stream in (outcome.stdout, outcome.stderr):
        for word in BANNED:
            assert word not in stream, f"lw {' '.join(outcome.args)} printed {word!r}:\n{stream[-2000:]}"
    assert outcome.code != 2, f"lw {' '.join(outcome.args)} exited 2 (a bug, not a refusal):\n{outcome.stderr}"


def assert_refused(outcome: Outcome, *, where: str | None = None, stream: str = "stderr") -> str:
    """A refusal: exit 1, a clean output, and ``error:`` lines; ``where`` (a file name, a
    ``line N``) must appear in the message. Returns the message."""
    assert_clean(outcome)
    assert outcome.code == 1, f"lw {' '.join(outcome.args)} exited {outcome.code}, not 1:\n{outcome.stdout}{outcome.stderr}"
    text = outcome.stderr if stream == "stderr" else outcome.stdout
    assert "error" in text.lower(), f"no error message for lw {' '.join(outcome.args)}:\n{text}"
    if where is not None:
        assert where in text, f"the message does not say where ({where!r}):\n{text}"
    return text


class Snapshot:
    """Every file under some folders, byte for byte, to compare after a command ran. Folders
    named in ``ignore`` (the kernel's own ``cache`` in a data dir) are left out."""

    def __init__(self, *roots: Path, ignore: tuple[str, ...] = ("cache",)) -> None:
        self.roots = roots
        self.ignore = set(ignore)
        self.before = self._take()

    def _take(self) -> dict[Path, bytes | None]:
        files: dict[Path, bytes | None] = {}
        for root in self.roots:
            if root.is_file() or root.is_symlink():
                files[root] = root.read_bytes() if root.is_file() else None
                continue
            for path in sorted(root.rglob("*")) if root.exists() else []:
                if self.ignore & set(path.relative_to(root).parts[:-1]):
                    continue
                if path.is_file() or path.is_symlink():
                    files[path] = path.read_bytes() if path.is_file() else None
        return files

    def assert_unchanged(self) -> None:
        after = self._take()
        changed = sorted(str(p) for p in set(after) | set(self.before) if after.get(p) != self.before.get(p))
        assert changed == [], f"files changed by a refused command: {changed}"
