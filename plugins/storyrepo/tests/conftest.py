"""Shared fixtures: real git repositories in temp dirs with Chinese paths; and this folder on the path, so that its
shared test helpers (``continuity_helpers``) import by name, as the repository's conftest does for ``tests/support``."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import seeded

# The Story Repo tests' own shared helpers (never runtime code): importable by every test file of this folder.
HELPERS = str(Path(__file__).resolve().parent)
if HELPERS not in sys.path:
    sys.path.insert(0, HELPERS)


@pytest.fixture(autouse=True)
def _git_identity_and_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LW_STORY_DATE", "2026-01-01T00:00:00+0000")
    monkeypatch.delenv("LW_STORY_FAULT", raising=False)
    monkeypatch.delenv("LW_STORY_GIT", raising=False)
    for name in ("LW_LOCALE", "LC_ALL", "LC_MESSAGES"):  # lw story follows the shell's language: the tests
        monkeypatch.delenv(name, raising=False)       # set theirs (--locale, LANG); the default is English
    monkeypatch.setenv("LANG", "C.UTF-8")


HANG_GUARD = 120
"""Seconds a hostile test (``test_hostile*.py``) may run before it fails: no speed assertion (its cases of the
cap finish in seconds; how much work they do the tests count), the in-process form of the timeout tests/hostile
runs ``lw`` under — a reader grown quadratic again fails its test instead of stalling the suite."""


@pytest.fixture(autouse=True)
def _hang_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    if not request.path.name.startswith("test_hostile") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def hung(signum: int, frame: Any) -> None:
        pytest.fail(f"{request.node.nodeid} ran past the hang guard ({HANG_GUARD} s): a reader of hostile text stalls")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, HANG_GUARD)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def book(tmp_path: Path) -> StoryRepo:
    return seeded(tmp_path / "书库" / "北境的雪")


