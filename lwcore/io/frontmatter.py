"""Markdown with YAML frontmatter (``---`` lines around YAML, then the body): ``SKILL.md``,
a module's ``module.md``. One splitter for every such file, so each reads the same way."""

from __future__ import annotations

import re
from pathlib import Path

from lwcore.errors import LwError
from lwcore.io.limits import Limits

FENCE = "---"
FRONTMATTER_LIMITS = Limits(max_bytes=64 * 1024, max_depth=16, max_nodes=10_000)
"""What any frontmatter's YAML may hold (a ``SKILL.md``'s, a ``module.md``'s)."""
_BREAK = re.compile(r"\r\n|\r|\n")


def split_frontmatter(text: str, file: str | Path | None = None, *, what: str = "the file") -> tuple[str, str]:
    """``(frontmatter YAML, body)`` of ``text`` (a byte-order mark dropped).

    The YAML comes back with one empty line in front, so that YAML line numbers are the
    file's. Lines end at ``\\n``, ``\\r\\n`` or ``\\r``. :class:`LwError` (located) when the
    text does not open with a ``---`` line or never closes the frontmatter; ``what`` names the
    file in that message (``a SKILL.md``).
    """
    lines = _BREAK.split(text.removeprefix("\ufeff"))
    if not lines or lines[0].rstrip() != FENCE:
        raise LwError(f"{what} starts with a '---' line that opens its YAML frontmatter", file=file, line=1,
                      column=1, expected="---, then name:, description: … then ---", code="syntax")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == FENCE:
            body = "\n".join(lines[index + 1:]).strip("\n")
            return "\n" + "\n".join(lines[1:index]), body
    raise LwError("the frontmatter opened on line 1 is never closed", file=file, line=len(lines), code="syntax",
                  expected="a '---' line after the frontmatter")
