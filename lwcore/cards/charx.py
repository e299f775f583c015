"""Cards inside CHARX files: a zip archive with ``card.json`` at its root and embedded assets.

Nothing is extracted to disk. Before any member is decompressed every entry is checked:
the entry count (counted in the raw bytes, before the archive is parsed), valid UTF-8 names,
safe relative paths (no ``..``, absolute, drive or backslash paths), no symbolic links, no
duplicate names, no encryption, stored or deflate compression only, and the declared size
and compression ratio of each member. Decompression is then bounded per member and, through
:class:`~lwcore.cards.limits.Budget`, for the whole archive (so sizes a header lies about
cannot get past either bound).
"""

from __future__ import annotations

import io
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass

from lwcore.cards.assets import check_path
from lwcore.cards.limits import Budget, CardLimits
from lwcore.errors import LwError
from lwcore.io.text import describe_size

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
"""A zip starts with a local file header, or is empty (end of central directory only)."""
CARD_MEMBER = "card.json"
CENTRAL_SIGNATURE = b"PK\x01\x02"
METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_BROKEN = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, struct.error, EOFError, OSError, ValueError,
           NotImplementedError, RuntimeError)
"""What :mod:`zipfile` raises on a damaged archive."""
EXPECTED = "a CHARX file: a zip archive with card.json at its root"


@dataclass(frozen=True)
class CharxCard:
    """The card JSON bytes of a CHARX archive and its other file members (name -> bytes)."""

    payload: bytes
    assets: dict[str, bytes]


def _member(info: zipfile.ZipInfo, index: int) -> str:
    return f"member {info.orig_filename!r} (entry {index + 1})"


def read(data: bytes, file: str | None, limits: CardLimits, budget: Budget, *, assets: bool) -> CharxCard:
    """Check every entry, then read ``card.json`` and (when ``assets``) every other file member."""
    count = data.count(CENTRAL_SIGNATURE)
    if count > limits.max_members:
        raise LwError(f"the archive has more than {limits.max_members} entries ({count}); refused", file=file,
                      code="limit", expected=EXPECTED)
    archive = _open(data, file)
    infos = archive.infolist()
    files = _check_entries(infos, file, limits)
    card = files.get(CARD_MEMBER)
    if card is None:
        nested = [n for n in files if n.endswith("/" + CARD_MEMBER)]
        hint = f" (found {nested[0]!r}: card.json must be at the root)" if nested else ""
        raise LwError(f"the archive has no card.json at its root{hint}", file=file, code="not_a_card", expected=EXPECTED)
    payload = _read_member(archive, *card, file, min(limits.max_member_bytes, limits.json.max_bytes), budget)
    found = {}
    if assets:
        for name, (info, index) in files.items():
            if name != CARD_MEMBER:
                found[name] = _read_member(archive, info, index, file, limits.max_member_bytes, budget)
    return CharxCard(payload, found)


def _open(data: bytes, file: str | None) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data), metadata_encoding="utf-8")
    except UnicodeDecodeError as exc:
        raw = exc.object if isinstance(exc.object, bytes) else b""
        at = data.find(raw) if raw else -1
        raise LwError(f"an entry name is not valid UTF-8 (byte {exc.start} of the name {raw!r})", file=file,
                      byte=at if at >= 0 else None, code="encoding", expected="entry names in UTF-8") from None
    except _BROKEN as exc:
        raise LwError(f"not a readable zip archive ({exc or type(exc).__name__})", file=file, code="corrupt",
                      expected=EXPECTED) from None


def _check_entries(infos: list[zipfile.ZipInfo], file: str | None, limits: CardLimits) -> dict[str, tuple[zipfile.ZipInfo, int]]:
    """name -> (info, index) of every file member, after checking every entry."""
    seen: dict[str, int] = {}
    files: dict[str, tuple[zipfile.ZipInfo, int]] = {}
    for index, info in enumerate(infos):
        name = info.orig_filename
        what = _member(info, index)
        at = info.header_offset

        def refuse(problem: str, code: str = "unsafe_path") -> LwError:
            return LwError(f"{what}: {problem}; refused", file=file, byte=at, code=code, expected=EXPECTED)

        if name in seen:
            raise refuse(f"the name appears twice (entries {seen[name] + 1} and {index + 1})", "duplicate")
        seen[name] = index
        is_dir = name.endswith("/")
        check_path(name[:-1] if is_dir else name, what=what, file=file, byte=at)
        if stat.S_ISLNK(info.external_attr >> 16):
            raise refuse("it is a symbolic link")
        if info.flag_bits & 0x1:
            raise refuse("it is encrypted", "unsupported")
        if is_dir:
            continue
        if info.compress_type not in METHODS:
            raise refuse(f"compression method {info.compress_type} is not read (only stored and deflate)", "unsupported")
        if info.file_size > limits.max_member_bytes:
            raise refuse(f"it declares {info.file_size} bytes, more than the {describe_size(limits.max_member_bytes)} "
                         "limit for one member", "limit")
        if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            ratio = info.file_size // max(info.compress_size, 1)
            raise refuse(f"it expands {ratio}:1 ({info.compress_size} -> {info.file_size} bytes), past the "
                         f"{limits.max_ratio}:1 limit (a compression bomb?)", "limit")
        files[name] = (info, index)
    return files


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, index: int, file: str | None, cap: int,
                 budget: Budget) -> bytes:
    """One member, at most ``cap`` bytes and what the budget has left; CRC checked by zipfile."""
    where = _member(info, index)
    room = budget.room(cap)
    try:
        with archive.open(info) as handle:
            body = handle.read(room + 1)
    except _BROKEN as exc:
        raise LwError(f"{where}: cannot be read ({exc or type(exc).__name__})", file=file, byte=info.header_offset,
                      code="corrupt", expected=EXPECTED) from None
    if len(body) > room:
        if room < cap:
            raise budget.exceeded(file=file, where=where, byte=info.header_offset)
        raise LwError(f"{where}: more than {describe_size(cap)}; refused", file=file, byte=info.header_offset,
                      code="limit")
    budget.spend(len(body), file=file, where=where, byte=info.header_offset)
    return body
