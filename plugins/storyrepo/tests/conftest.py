"""Shared fixtures: real git repositories in temp dirs with Chinese paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import seeded


@pytest.fixture(autouse=True)
def _git_identity_and_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LW_STORY_DATE", "2026-01-01T00:00:00+0000")
    monkeypatch.delenv("LW_STORY_FAULT", raising=False)
    monkeypatch.delenv("LW_STORY_GIT", raising=False)
    for name in ("LW_LOCALE", "LC_ALL", "LC_MESSAGES"):  # lw story follows the shell's language: the tests
        monkeypatch.delenv(name, raising=False)       # set theirs (--locale, LANG); the default is English
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def book(tmp_path: Path) -> StoryRepo:
    return seeded(tmp_path / "书库" / "北境的雪")


