"""The one rule for a path inside a pack: a member name, a declared content path, a landing place.

The same check runs on an author's source tree (``lw pack build``), on every member name of an
archive (verify, install) and on every place a validator asks a file to land, so what builds is
what installs, on every operating system. A name is refused when it is empty or too long, holds
a control character (C0, DEL, C1), a backslash or a character Windows cannot store
(``<>:"|?*``), is absolute (``/x``, ``C:x``), has an empty, ``.`` or ``..`` segment, a segment
that ends in a dot or a space, or a segment Windows reserves for devices (``CON``, ``nul.txt``).

:func:`fold` is the key two names collide under on a case-insensitive file system (Unicode NFC,
then case folded): a pack holding ``Map.png`` and ``map.png`` is refused as a duplicate.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_BYTES = 512
"""Longest member name, in UTF-8 bytes."""
MAX_SEGMENT_BYTES = 255
"""Longest single folder or file name, in UTF-8 bytes (most file systems' limit)."""

_FORBIDDEN = set('<>:"|?*\\')
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$", re.IGNORECASE)


def _control(ch: str) -> bool:
    code = ord(ch)
    return code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a pack path, or ``None`` when it can (see the module docstring)."""
    if not isinstance(name, str) or not name:
        return "is empty"
    if any(_control(ch) for ch in name):
        return "holds a control character"
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)"
    if size > MAX_NAME_BYTES:
        return f"is longer than {MAX_NAME_BYTES} bytes"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "is absolute"
    bad = sorted(_FORBIDDEN.intersection(name))
    if bad:
        return f"holds {''.join(bad)!r}, which Windows cannot store in a file name"
    for segment in name.split("/"):
        if segment in ("", ".", ".."):
            return "has an empty, '.' or '..' segment"
        if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
            return f"has a segment longer than {MAX_SEGMENT_BYTES} bytes"
        if segment[-1] in ". ":
            return f"has a segment ending in a dot or a space ({segment!r})"
        if _RESERVED.match(segment):
            return f"uses the reserved device name {segment!r}"
    return None


def fold(name: str) -> str:
    """The key under which two names are the same file on a case-insensitive file system."""
    return unicodedata.normalize("NFC", name).casefold()


def parent(path: str) -> str:
    """The folder part of a pack path (``""`` at the top)."""
    return path.rpartition("/")[0]


def join(folder: str, name: str) -> str:
    """``folder/name`` with ``.`` and ``..`` segments of ``name`` applied; ``..`` that would
    climb out of the pack is kept, so :func:`name_problem` refuses the result."""
    parts = [p for p in folder.split("/") if p] if folder else []
    for segment in name.split("/"):
        if segment in ("", "."):
            continue
        if segment == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(segment)
    return "/".join(parts)
