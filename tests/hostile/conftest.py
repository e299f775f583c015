"""The hostile-input suite: every surface that reads a file, stdin or an archive, run as a
real ``lw`` subprocess against generated hostile inputs (see ``hostile_kit`` for the runner
and the checks, ``hostile_strategies`` for the inputs). The summary prints how many cases
each surface ran and its slowest refusal."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import hostile_kit  # noqa: E402


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001, ARG001
    if not hostile_kit.RECORD:
        return
    terminalreporter.section("hostile inputs")
    for surface, times in sorted(hostile_kit.RECORD.items()):
        terminalreporter.write_line(f"{surface:<32} {len(times):>4} cases, slowest refusal {max(times) * 1000:7.0f} ms")
