"""Embedded asset paths: checked once, then linked to the card's ``assets`` entries."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from lwcore.cards.model import CardAsset
from lwcore.errors import LwError

CHARX_SCHEME = "embeded://"
"""CHARX asset URIs, spelled as the V3 spec spells them."""
PNG_SCHEME = "__asset:"
"""PNG asset URIs: ``__asset:{path}`` names the ``chara-ext-asset_:{path}`` text chunk."""

_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MAX_NAMED = 5
"""How many names a note lists before it says "and N more"."""


def path_problem(path: str) -> str | None:
    """Why ``path`` is not a safe relative asset path, or ``None`` when it is.

    Refused: empty, absolute (``/x``), a drive (``C:``), backslashes (a separator on
    Windows), control characters, and empty, ``.`` or ``..`` segments. A trailing ``/``
    (a folder entry) is the caller's business.
    """
    if not path:
        return "an empty name"
    if path.startswith("/"):
        return "an absolute path"
    if _DRIVE.match(path):
        return "a drive path"
    if "\\" in path:
        return "a backslash (a path separator on Windows)"
    if _CONTROL.search(path):
        return "a control character"
    segments = path.split("/")
    if ".." in segments:
        return "a '..' segment (it would climb out of the folder)"
    if any(s in ("", ".") for s in segments):
        return "an empty or '.' segment"
    return None


def check_path(path: str, *, what: str, file: str | None, byte: int | None = None) -> None:
    """Raise a located :class:`LwError` (code ``unsafe_path``) when :func:`path_problem` finds
    one; ``what`` names the path in the message (``"member 'x' (entry 2)"``)."""
    problem = path_problem(path)
    if problem is not None:
        raise LwError(f"{what} has {problem}; refused", file=file, byte=byte, code="unsafe_path",
                      expected="a relative path such as assets/icon/images/main.png")


def named(items: list[str]) -> str:
    """``'a', 'b' and 3 more`` for notes."""
    shown = ", ".join(repr(i) for i in items[:MAX_NAMED])
    return shown + (f" and {len(items) - MAX_NAMED} more" if len(items) > MAX_NAMED else "")


def link(data: Mapping[str, Any], found: Mapping[str, bytes], scheme: str) -> tuple[tuple[CardAsset, ...], list[str]]:
    """The :class:`CardAsset` of every file in ``found`` (path -> bytes, container order),
    each with the ``data["assets"]`` indexes that name it, and notes on dangling links and
    unnamed files. Other URI schemes (``ccdefault:``, ``https:``, ``data:``) are not the
    container's business and are left alone."""
    refs: dict[str, list[int]] = {path: [] for path in found}
    dangling: list[str] = []
    entries = data.get("assets")
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        uri = entry.get("uri") if isinstance(entry, dict) else None
        if isinstance(uri, str) and uri.startswith(scheme):
            path = uri[len(scheme):]
            if path in refs:
                refs[path].append(index)
            else:
                dangling.append(path)
    notes = []
    if dangling:
        notes.append(f"the card names {len(dangling)} embedded asset(s) the container does not hold: {named(dangling)}")
    unnamed = [p for p, r in refs.items() if not r]
    if unnamed:
        notes.append(f"{len(unnamed)} embedded file(s) the card does not name (kept as assets): {named(unnamed)}")
    assets = tuple(CardAsset(path, scheme + path, body, tuple(refs[path])) for path, body in found.items())
    return assets, notes
