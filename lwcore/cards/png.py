"""Cards inside PNG files: the ``ccv3``/``chara`` text chunks and ``chara-ext-asset_:`` assets.

The chunk walk never decodes pixels. Every chunk header is checked (type letters, length
inside the file, an ``IEND`` at the end); only the chunks that are used are CRC-checked and
decoded: the card chunk (``ccv3`` preferred over ``chara``, whatever their text chunk types
``tEXt``/``zTXt``/``iTXt``) and, when asked for, the asset chunks. The first chunk of a
keyword wins, as in the common card editors; later ones are noted and never inflated. Inflation is
bounded per chunk and, through :class:`~lwcore.cards.limits.Budget`, per file.
"""

from __future__ import annotations

import binascii
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from lwcore.cards.assets import check_path
from lwcore.cards.limits import Budget, CardLimits
from lwcore.errors import LwError
from lwcore.io.text import describe_size

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CARD_KEYWORDS = ("ccv3", "chara")
"""Card text chunk keywords, preferred first (matched without regard to case)."""
ASSET_PREFIX = "chara-ext-asset_:"
TEXT_TYPES = frozenset({b"tEXt", b"zTXt", b"iTXt"})
MAX_KEYWORD = 79
"""PNG keywords are 1-79 Latin-1 bytes; card asset keywords carry a path and may be longer."""
MAX_ASSET_KEYWORD = 1024
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=\s]")
_WHITESPACE = b" \t\r\n"


@dataclass(frozen=True)
class TextChunk:
    """A text chunk found by the walk: where it is, not yet decoded."""

    keyword: str
    kind: str
    offset: int
    length: int

    @property
    def where(self) -> str:
        return f"{self.keyword!r} {self.kind} chunk at byte {self.offset}"

    @property
    def body_start(self) -> int:
        return self.offset + 8


@dataclass(frozen=True)
class PngCard:
    """The card JSON bytes of a PNG and what came with them."""

    payload: bytes
    chunk: TextChunk
    assets: dict[str, bytes]
    notes: list[str]


def _corrupt(message: str, file: str | None, byte: int | None) -> LwError:
    return LwError(message, file=file, byte=byte, code="corrupt", expected="an intact PNG file")


def chunks(data: bytes, file: str | None, limits: CardLimits) -> Iterator[tuple[bytes, int, int]]:
    """``(type, offset, length)`` of every chunk up to and including ``IEND``.

    Checks the signature, each chunk header (type letters, length inside the file), the
    chunk count and that an ``IEND`` ends the walk; located :class:`LwError` (code
    ``corrupt`` or ``limit``) otherwise. Bytes after ``IEND`` are not looked at.
    """
    if not data.startswith(PNG_SIGNATURE):
        raise _corrupt("not a PNG file (no PNG signature)", file, 0)
    pos = len(PNG_SIGNATURE)
    size = len(data)
    for _ in range(limits.max_chunks):
        if pos + 12 > size:
            if pos == size:
                raise _corrupt(f"the PNG ends at byte {size} without an IEND chunk (truncated?)", file, size)
            raise _corrupt(f"truncated PNG: a chunk header at byte {pos} is cut off at byte {size}", file, pos)
        length = int.from_bytes(data[pos:pos + 4], "big")
        ctype = data[pos + 4:pos + 8]
        if not ctype.isalpha():
            raise _corrupt(f"the chunk at byte {pos} has an invalid type {ctype!r}", file, pos)
        if length > 0x7FFFFFFF or pos + 12 + length > size:
            raise _corrupt(f"truncated PNG: the {ctype.decode()} chunk at byte {pos} claims {length} bytes "
                           f"but the file ends at byte {size}", file, pos)
        yield ctype, pos, length
        if ctype == b"IEND":
            return
        pos += 12 + length
    raise LwError(f"the PNG has more than {limits.max_chunks} chunks; refused", file=file, byte=pos, code="limit")


def walk(data: bytes, file: str | None, limits: CardLimits, *, assets: bool) -> tuple[list[TextChunk], list[str]]:
    """The card and (when ``assets``) asset text chunks of a PNG, in file order, and notes."""
    found: list[TextChunk] = []
    end = 0
    for ctype, pos, length in chunks(data, file, limits):
        if ctype in TEXT_TYPES:
            chunk = _wanted(data, pos, length, ctype.decode(), file, assets)
            if chunk is not None:
                found.append(chunk)
        end = pos + 12 + length
    notes = [f"{len(data) - end} byte(s) after the IEND chunk ignored"] if end < len(data) else []
    return found, notes


def is_card_chunk(keyword: str) -> bool:
    """Whether a text chunk keyword holds a card or a card asset (what a writer replaces)."""
    return keyword.lower() in CARD_KEYWORDS or keyword.startswith(ASSET_PREFIX)


def _wanted(data: bytes, pos: int, length: int, kind: str, file: str | None, assets: bool) -> TextChunk | None:
    """The chunk at ``pos`` if its keyword is a card keyword (or an asset keyword and
    ``assets``), else ``None``; never reads more than the keyword."""
    start = pos + 8
    stop = start + min(length, MAX_ASSET_KEYWORD + 1)
    nul = data.find(b"\x00", start, stop)
    keyword = data[start:nul if nul >= 0 else stop].decode("latin-1")
    card = keyword.lower() in CARD_KEYWORDS
    asset = assets and keyword.startswith(ASSET_PREFIX)
    if not (card or asset):
        return None
    if nul < 0:
        raise _corrupt(f"the {kind} chunk at byte {pos} has no NUL after its keyword", file, pos)
    return TextChunk(keyword.lower() if card else keyword, kind, pos, length)


def text_of(data: bytes, chunk: TextChunk, file: str | None, limits: CardLimits, budget: Budget) -> tuple[bytes, int | None]:
    """``(text, byte offset of the text in the file or None when inflated)`` of one chunk:
    CRC checked, the ``zTXt``/``iTXt`` header checked, compressed text inflated (bounded)."""
    where = chunk.where
    if chunk.length > limits.max_chunk_bytes:
        raise LwError(f"{where} holds {chunk.length} bytes, more than the {describe_size(limits.max_chunk_bytes)} "
                      "limit for one text chunk; refused", file=file, byte=chunk.offset, code="limit")
    start, end = chunk.body_start, chunk.body_start + chunk.length
    stored = int.from_bytes(data[end:end + 4], "big")
    computed = zlib.crc32(data[chunk.offset + 4:end]) & 0xFFFFFFFF
    if stored != computed:
        raise _corrupt(f"{where} fails its CRC check (stored 0x{stored:08x}, computed 0x{computed:08x})", file, chunk.offset)
    at = data.index(b"\x00", start, end) + 1
    if chunk.kind == "tEXt":
        return data[at:end], at
    if chunk.kind == "zTXt":
        if at >= end:
            raise _corrupt(f"{where} has no compression method byte", file, chunk.offset)
        if data[at] != 0:
            raise _corrupt(f"{where} uses unknown compression method {data[at]}", file, chunk.offset)
        return inflate(data[at + 1:end], where, file, chunk.offset, limits, budget), None
    # iTXt: compression flag, compression method, language tag NUL, translated keyword NUL, text
    if at + 2 > end:
        raise _corrupt(f"{where} has no compression flag and method", file, chunk.offset)
    flag, method = data[at], data[at + 1]
    lang_end = data.find(b"\x00", at + 2, end)
    trans_end = data.find(b"\x00", lang_end + 1, end) if lang_end >= 0 else -1
    if trans_end < 0:
        raise _corrupt(f"{where} lacks its language tag or translated keyword", file, chunk.offset)
    if flag not in (0, 1):
        raise _corrupt(f"{where} has an invalid compression flag {flag}", file, chunk.offset)
    try:
        data[at + 2:lang_end].decode("ascii")
        data[lang_end + 1:trans_end].decode("utf-8")
    except UnicodeDecodeError:
        raise _corrupt(f"{where}: its language tag is not ASCII or its translated keyword is not UTF-8",
                       file, chunk.offset) from None
    if flag == 0:
        return data[trans_end + 1:end], trans_end + 1
    if method != 0:
        raise _corrupt(f"{where} uses unknown compression method {method}", file, chunk.offset)
    return inflate(data[trans_end + 1:end], where, file, chunk.offset, limits, budget), None


def inflate(body: bytes, where: str, file: str | None, byte: int, limits: CardLimits, budget: Budget) -> bytes:
    """One zlib stream, refusing output past ``max_chunk_bytes`` or the file's budget.

    ``decompress(body, cap + 1)`` stops producing at the cap, so a compression bomb costs at
    most ``cap`` bytes and the time to inflate them.
    """
    cap = budget.room(limits.max_chunk_bytes)
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(body, cap + 1)
    except zlib.error as exc:
        raise _corrupt(f"{where}: corrupt zlib data ({exc})", file, byte) from None
    if len(out) > cap or inflater.unconsumed_tail:
        if cap < limits.max_chunk_bytes:
            raise budget.exceeded(file=file, where=where, byte=byte)
        raise LwError(f"{where} inflates to more than {describe_size(cap)}; refused (a compression bomb?)",
                      file=file, byte=byte, code="limit")
    if not inflater.eof:
        raise _corrupt(f"{where}: truncated zlib data", file, byte)
    if inflater.unused_data:
        raise _corrupt(f"{where}: {len(inflater.unused_data)} stray byte(s) after the zlib data", file, byte)
    budget.spend(len(out), file=file, where=where, byte=byte)
    return out


def base64_of(text: bytes, chunk: TextChunk, text_at: int | None, file: str | None, budget: Budget) -> bytes:
    """The bytes a chunk's base64 text encodes (line breaks and spaces allowed, nothing else)."""
    bad = _NOT_BASE64.search(text)
    if bad is not None:
        i = bad.start()
        at = f"at byte {text_at + i}" if text_at is not None else f"at character {i} of its inflated text"
        raise LwError(f"{chunk.where} is not base64: character 0x{text[i]:02x} {at}", file=file,
                      byte=text_at + i if text_at is not None else chunk.offset, code="corrupt",
                      expected="base64 text (A-Z a-z 0-9 + / =)")
    try:
        out = binascii.a2b_base64(text.translate(None, _WHITESPACE), strict_mode=True)
    except binascii.Error as exc:
        raise LwError(f"{chunk.where} is not valid base64 ({exc}): cut short or wrongly padded?", file=file,
                      byte=chunk.offset, code="corrupt", expected="base64 text (A-Z a-z 0-9 + / =)") from None
    budget.spend(len(out), file=file, where=chunk.where, byte=chunk.offset)
    return out


def read(data: bytes, file: str | None, limits: CardLimits, budget: Budget, *, assets: bool) -> PngCard:
    """The card JSON bytes of a PNG (base64 decoded), its assets (path -> bytes) and notes."""
    chunks, notes = walk(data, file, limits, assets=assets)
    first: dict[str, TextChunk] = {}
    for chunk in chunks:
        kept = first.setdefault(chunk.keyword, chunk)
        if kept is not chunk:
            notes.append(f"a second {chunk.where} ignored: the first one (byte {kept.offset}) is used")
    chosen = next((first[k] for k in CARD_KEYWORDS if k in first), None)
    if chosen is None:
        raise LwError("the PNG holds no character card (no 'ccv3' or 'chara' text chunk)", file=file,
                      code="not_a_card", expected="a card PNG exported by a card editor, or the card as JSON")
    if chosen.keyword == "ccv3" and "chara" in first:
        notes.append("both 'ccv3' and 'chara' chunks: 'ccv3' is read (the 'chara' chunk is the V2 copy kept for older readers)")
    text, at = text_of(data, chosen, file, limits, budget)
    payload = base64_of(text, chosen, at, file, budget)
    found: dict[str, bytes] = {}
    for keyword, chunk in first.items():
        if keyword.startswith(ASSET_PREFIX):
            path = keyword[len(ASSET_PREFIX):]
            check_path(path, what=f"{chunk.where}: its asset path", file=file, byte=chunk.offset)
            text, at = text_of(data, chunk, file, limits, budget)
            found[path] = base64_of(text, chunk, at, file, budget)
    return PngCard(payload, chosen, found, notes)
