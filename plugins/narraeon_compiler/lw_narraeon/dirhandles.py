"""State directory handles: ``@dir-/`` for the root, else ``@dir-/`` + percent-encoded segments.

Each segment is encoded exactly as JavaScript's ``encodeURIComponent`` does (unreserved:
``A-Z a-z 0-9 - _ . ! ~ * ' ( )``; everything else as UTF-8 ``%XX`` with upper-case hex).

The parser accepts only the canonical form: the handle must decode (valid ``%XX`` escapes,
valid UTF-8) and re-encode to exactly itself, and no segment may be empty, ``.``, ``..`` or
contain a backslash (encoded or not). So lower-case hex, needless escapes (``%41``), raw
non-ASCII, raw spaces and ``%2F`` inside a segment are all rejected.

Unlike the reference, :func:`encode_dir_handle` refuses every directory the parser would
reject (empty/``.``/``..`` segments, backslashes, lone surrogates), so every handle it
produces parses back to the same directory.
"""

from __future__ import annotations

from urllib.parse import quote

from lw_narraeon.errors import DirHandleError

PREFIX = "@dir-/"
ROOT = PREFIX
_SAFE = "!~*'()"  # quote() always keeps letters, digits and "_.-~"
_HEX = frozenset("0123456789abcdefABCDEF")


def _segment_problem(segment: str) -> str | None:
    if segment == "":
        return "empty path segment"
    if segment in (".", ".."):
        return f"path segment {segment!r} is not allowed"
    if "\\" in segment:
        return "backslash in a path segment"
    return None


def encode_dir_handle(directory: str) -> str:
    """The handle of ``directory`` (``""`` is the state root), or :class:`DirHandleError`."""
    if not isinstance(directory, str):
        raise DirHandleError(f"a directory must be a string, not {type(directory).__name__}")
    if directory == "":
        return ROOT
    encoded = []
    for segment in directory.split("/"):
        problem = _segment_problem(segment)
        if problem is not None:
            raise DirHandleError(f"cannot make a handle for {directory!r}: {problem}")
        try:
            encoded.append(quote(segment, safe=_SAFE, encoding="utf-8", errors="strict"))
        except UnicodeEncodeError:
            raise DirHandleError(
                f"cannot make a handle for {directory!r}: not valid Unicode (lone surrogate)"
            ) from None
    return PREFIX + "/".join(encoded)


def _decode_component(text: str) -> str:
    """``decodeURIComponent``: raises :class:`DirHandleError` where JavaScript throws URIError."""
    if "%" not in text:
        return text
    out: list[str] = []
    pending = bytearray()
    i = 0
    length = len(text)
    while i < length:
        char = text[i]
        if char == "%":
            hex_pair = text[i + 1 : i + 3]
            if len(hex_pair) != 2 or not (hex_pair[0] in _HEX and hex_pair[1] in _HEX):
                raise DirHandleError("malformed percent escape")
            pending.append(int(hex_pair, 16))
            i += 3
            continue
        if pending:
            out.append(_utf8(pending))
            pending.clear()
        out.append(char)
        i += 1
    if pending:
        out.append(_utf8(pending))
    return "".join(out)


def _utf8(data: bytearray) -> str:
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise DirHandleError("percent escapes are not valid UTF-8") from None


def parse_dir_handle(handle: object) -> str:
    """The directory a canonical handle names (``""`` for the root).

    Raises :class:`DirHandleError` -- and nothing else -- for anything that is not a
    canonical handle.
    """
    if not isinstance(handle, str):
        raise DirHandleError(f"a directory handle must be a string, not {type(handle).__name__}")
    if handle == ROOT:
        return ""
    if not handle.startswith(PREFIX) or len(handle) == len(PREFIX):
        raise DirHandleError(f"not a directory handle: {handle!r}", expected="@dir-/ or @dir-/<segments>")
    directory = "/".join(_decode_component(part) for part in handle[len(PREFIX) :].split("/"))
    for segment in directory.split("/"):
        problem = _segment_problem(segment)
        if problem is not None:
            raise DirHandleError(f"invalid directory handle {handle!r}: {problem}")
    try:
        canonical = encode_dir_handle(directory)
    except DirHandleError as exc:
        raise DirHandleError(f"invalid directory handle {handle!r}: {exc.message}") from None
    if canonical != handle:
        raise DirHandleError(
            f"directory handle {handle!r} is not in canonical form", expected=canonical
        )
    return directory


def try_parse_dir_handle(handle: object) -> str | None:
    """Like :func:`parse_dir_handle` but ``None`` instead of an error (the reference's API)."""
    try:
        return parse_dir_handle(handle)
    except DirHandleError:
        return None
