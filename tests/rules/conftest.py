"""Shared fixtures of the rules tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lwcore.cli import main


@pytest.fixture
def lw(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run ``lw ARGS…`` in this process: ``(exit code, stdout, stderr)``."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
