"""The Story Repo tests' one way of checking a body of prose for continuity (D1/D2 of stop 51's duplicates: the same
``World`` + ``CheckContext`` + ``check_continuity`` helper was written in each round's test file). A test module of this
folder imports it by name (``import continuity_helpers``): ``conftest.py`` puts this folder on the path,
as the repository's own conftest does for ``tests/support``. Test code only, never runtime code. And :class:`Counted`, the hostile tests' measure of a reader's work
(D7 of the same duplicates)."""

from __future__ import annotations

import re
import sys
from typing import Any, Iterator

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity
from lw_storyrepo.findings import Finding


def findings(body: str, world: World, viewpoint: str, date: str, present: list[str] | None = None, *,
             changes: list[str] | None = None, items: set[str] | None = None, people: set[str] | None = None,
             kin_of_pov: dict[str, dict[str, str]] | None = None) -> list[Finding]:
    """What ``check_continuity`` finds in ``body`` (its lines numbered from 1) as a draft told by ``viewpoint`` at the
    in-book ``date``, with ``present`` in the scene (the viewpoint alone when None) and ``changes`` as its 设定变更 (no
    such key when None), in a book whose cards, aliases, places and readings are ``world``'s. ``items`` are the book's
    held things for the context (none by default), ``people`` its people (the world's cards by default), ``kin_of_pov``
    what the viewpoint's relatives go by. The world is the draft's after the call: its aliases and kin words are the
    context's, as a check sets them — build a world per call."""
    meta: dict[str, Any] = {"视角": viewpoint, "书内时间": date, "在场": [viewpoint] if present is None else present}
    if changes is not None:
        meta["设定变更"] = changes
    aliases = dict(world.aliases)
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(items or ()), world=world,
                       people=set(world.cards) if people is None else people, kin_of_pov=kin_of_pov or {}).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())


class Counted:
    """A compiled pattern standing in for one a reader uses (set by ``monkeypatch.setattr``), counting in :attr:`read`
    the characters each ``search`` or ``finditer`` is given (its work), then doing as the pattern does."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.read = pattern, 0

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        self.read += min(endpos, len(text)) - pos
        return self.pattern.search(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        self.read += min(endpos, len(text)) - pos
        return self.pattern.finditer(text, pos, endpos)
