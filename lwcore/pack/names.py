"""The one rule for a path inside a pack: a member name, a declared content path, a landing place.

The same checks run on an author's source tree (``lw pack build``), on every member name of an
archive (verify, install) and on every place a validator asks a file to land, so what builds is
what installs, on every operating system. Two checks, both pure:

:func:`name_problem` judges one name. It is refused when it is empty or too long (in its NFC and
its NFD form: macOS stores NFD), holds a control character (C0, DEL, C1), an invisible
formatting character (Unicode ``Cf``: zero-width spaces and joiners, bidirectional controls, the
byte-order mark; HFS+ ignores some of them when it compares names, and they make two names
that look alike), a backslash or a character Windows cannot store (``<>:"|?*``), is absolute
(``/x``, ``C:x``), has an empty, ``.`` or ``..`` segment, a segment that ends in a dot or a space
(Windows drops them, so ``a.`` and ``a`` are one file), or a segment Windows reserves for
devices (``CON``, ``nul.txt``, ``com1 .png``, ``CONIN$``).

:func:`clashes` judges a set of names that will be written into one folder tree: each path
(every folder on the way and the file itself) must have one spelling under :func:`fold` and be
either a file or a folder. So it refuses a name listed twice, two names that are one file on a
case-insensitive or normalization-insensitive file system (``Map.png`` and ``map.png``; ``é``
composed and decomposed), one folder spelt two ways (``Art/a.png`` and ``art/b.png``), and a
file that another name needs as a folder (``art/x.png`` and ``art/x.png/y.png``, also across
case). What the rule leaves out on purpose: Windows 8.3 short names (``PROGRA~1``; only on
volumes that still make them) and the whole-path length limits of a system (they depend on
where the data dir is).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MAX_NAME_BYTES = 512
"""Longest member name, in UTF-8 bytes."""
MAX_SEGMENT_BYTES = 255
"""Longest single folder or file name, in UTF-8 bytes (most file systems' limit), in NFC and NFD."""

_FORBIDDEN = set('<>:"|?*\\')
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(\..*)?$", re.IGNORECASE)


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
    invisible = next((ch for ch in name if unicodedata.category(ch) == "Cf"), None)
    if invisible is not None:
        return f"holds the invisible formatting character U+{ord(invisible):04X}"
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
        if max(len(unicodedata.normalize(form, segment).encode("utf-8")) for form in ("NFC", "NFD")) > MAX_SEGMENT_BYTES:
            return f"has a segment longer than {MAX_SEGMENT_BYTES} bytes"
        if segment[-1] in ". ":
            return f"has a segment ending in a dot or a space ({segment!r})"
        if _RESERVED.match(segment):
            return f"uses the reserved device name {segment!r}"
    return None


def fold(name: str) -> str:
    """The key under which two names are the same file on a case-insensitive file system:
    Unicode canonical caseless matching (NFD, case fold, NFD), returned in NFC."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold()))


def _fold_once(cache: dict[str, str], part: str) -> str:
    if part not in cache:
        cache[part] = fold(part)
    return cache[part]


def clashes(names: Sequence[str]) -> list[tuple[int, int, str]]:
    """``(index, earlier, why)`` for each name of ``names`` that cannot be written beside the
    ones before it into one folder tree (see the module docstring): ``earlier`` is the index of
    the name it clashes with, ``why`` a phrase that follows "name" (and quotes the earlier name).
    At most one reason per name. Names :func:`name_problem` refuses are judged as given."""
    seen: dict[str, tuple[str, bool, int]] = {}
    """fold(path) -> (its spelling, whether it is a file, the index of the name that put it there)"""
    out: list[tuple[int, int, str]] = []
    folded: dict[str, str] = {}
    for index, name in enumerate(names):
        parts = name.split("/")
        why = None
        path = key = ""
        for depth, part in enumerate(parts, 1):
            path, key = (f"{path}/{part}", f"{key}/{_fold_once(folded, part)}") if path else (part, _fold_once(folded, part))
            is_file = depth == len(parts)
            if key not in seen:
                seen[key] = (path, is_file, index)
                continue
            spelling, was_file, earlier = seen[key]
            by = names[earlier]
            if was_file and is_file and spelling == path:
                why = "appears more than once"
            elif was_file != is_file:
                why = (f"needs {path!r} as a folder, but {by!r} is a file there" if was_file else
                       f"is a file where {by!r} needs a folder")
                if spelling != path:
                    why += " (on a case-insensitive file system)"
            elif spelling != path:
                why = (f"differs from {spelling!r} only by case or Unicode form: one file on a case-insensitive "
                       "file system" if is_file else
                       f"has the folder {path!r}, which differs from {spelling!r} (in {by!r}) only by case or "
                       "Unicode form: one folder on a case-insensitive file system")
            if why:
                break
        if why:
            out.append((index, earlier, why))
    return out


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
