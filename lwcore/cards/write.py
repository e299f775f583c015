"""Building card containers: a PNG carrying card text chunks, a CHARX archive.

The reader's tests round-trip every card through these, and an export that wants a PNG or
CHARX card can use them. The card is written as UTF-8 JSON, base64-encoded in PNG text
chunks (as card editors do) or as ``card.json`` in a zip.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from lwcore.cards.charx import CARD_MEMBER
from lwcore.cards.limits import CARD_LIMITS
from lwcore.cards.png import ASSET_PREFIX, PNG_SIGNATURE, TEXT_TYPES, chunks, is_card_chunk

TEXT_KINDS = ("tEXt", "zTXt", "iTXt", "iTXt-stored")
"""How :func:`text_chunk` stores its text: ``iTXt`` compresses, ``iTXt-stored`` does not."""


def chunk(ctype: bytes, body: bytes) -> bytes:
    """One PNG chunk: length, type, body and the CRC over type and body."""
    return struct.pack(">I", len(body)) + ctype + body + struct.pack(">I", zlib.crc32(ctype + body) & 0xFFFFFFFF)


def text_chunk(keyword: str, text: bytes, kind: str = "tEXt") -> bytes:
    """A text chunk of ``kind`` (one of :data:`TEXT_KINDS`) holding ``text`` under ``keyword``
    (PNG keywords are Latin-1: a keyword outside it is a ``ValueError``)."""
    try:
        key = keyword.encode("latin-1") + b"\x00"
    except UnicodeEncodeError:
        raise ValueError(f"PNG chunk keywords are Latin-1; {keyword!r} is not") from None
    if kind == "tEXt":
        return chunk(b"tEXt", key + text)
    if kind == "zTXt":
        return chunk(b"zTXt", key + b"\x00" + zlib.compress(text))
    if kind == "iTXt":
        return chunk(b"iTXt", key + b"\x01\x00" + b"\x00\x00" + zlib.compress(text))
    if kind == "iTXt-stored":
        return chunk(b"iTXt", key + b"\x00\x00" + b"\x00\x00" + text)
    raise ValueError(f"unknown text chunk kind {kind!r} (one of {', '.join(TEXT_KINDS)})")


def blank_image() -> bytes:
    """The smallest valid PNG: one transparent pixel."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 5)) + chunk(b"IEND", b"")


def card_text(card: Mapping[str, Any]) -> bytes:
    """The base64 text a card chunk holds."""
    return base64.b64encode(json.dumps(card, ensure_ascii=False).encode("utf-8"))


def card_png(card: Mapping[str, Any], *, image: bytes | None = None, keywords: Sequence[str] = ("ccv3",),
             kind: str = "tEXt", assets: Mapping[str, bytes] | None = None) -> bytes:
    """``image`` (default :func:`blank_image`) with ``card`` under each of ``keywords`` and each
    asset as a ``chara-ext-asset_:<path>`` chunk, inserted before ``IEND``. Card and asset
    chunks the image already had are dropped, so writing twice never leaves two cards."""
    source = image if image is not None else blank_image()
    kept: list[bytes] = []
    for ctype, pos, length in chunks(source, None, CARD_LIMITS):
        if ctype == b"IEND":
            break
        body = source[pos + 8:pos + 8 + length]
        if ctype in TEXT_TYPES and is_card_chunk(body.partition(b"\x00")[0].decode("latin-1")):
            continue
        kept.append(source[pos:pos + 12 + length])
    text = card_text(card)
    added = [text_chunk(k, text, kind) for k in keywords]
    added += [text_chunk(ASSET_PREFIX + path, base64.b64encode(data), kind) for path, data in (assets or {}).items()]
    return PNG_SIGNATURE + b"".join(kept) + b"".join(added) + chunk(b"IEND", b"")


def card_charx(card: Mapping[str, Any], assets: Mapping[str, bytes] | None = None, *,
               compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A CHARX archive: ``card.json`` at the root and each asset under its path."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        archive.writestr(CARD_MEMBER, json.dumps(card, ensure_ascii=False).encode("utf-8"))
        for path, data in (assets or {}).items():
            archive.writestr(path, data)
    return buffer.getvalue()
