"""SillyTavern character cards <-> whale-persona presets (§4.6), plus read-only PNG cards.

Import recognises, in order: our own preset, a V2/V3 card (``spec`` ``chara_card_v2``/``v3`` or a
``data.description`` string), a V1 card (top-level ``name`` with ``description`` or
``first_mes``). Export writes ``chara_card_v2`` with everything this engine owns under
``data.extensions.whale_persona`` so that export -> import restores the preset exactly.

PNG: the JSON inside the ``ccv3`` (preferred) or ``chara`` text chunk (``tEXt``, ``zTXt`` or
``iTXt``) is read; pixels are never decoded, decompression output is bounded, and every size is
bounded.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import re
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lw_persona import jscompat as js
from lw_persona import presets as presetmod

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_JSON_BYTES = 8 * 1024 * 1024
MAX_PNG_BYTES = 32 * 1024 * 1024
MAX_TEXT_CHUNK = 12 * 1024 * 1024
MAX_CHUNKS = 4096
MAX_CONTRACTS = 40
MAX_CONTRACT_CHARS = 300
NOT_CARRIED = ("first_mes", "alternate_greetings", "mes_example", "character_book", "creator_notes",
               "group_only_greetings", "assets")
KNOWN_FIELDS = frozenset({
    "name", "description", "personality", "scenario", "first_mes", "mes_example", "creator_notes",
    "system_prompt", "post_history_instructions", "alternate_greetings", "character_book", "tags",
    "creator", "character_version", "extensions", "group_only_greetings", "assets", "nickname",
    "creator_notes_multilingual", "source", "creation_date", "modification_date",
})
_LIST_MARK = re.compile(r"^(?:[-*•·]|\d+[.)、])\s*")
_SENTENCE_END = re.compile(r"(?<=[。！？!?])")
_SEMI = re.compile(r"[；;]")


@dataclass
class CardImport:
    """A card mapped to a preset, with the itemised report."""

    preset: dict[str, Any]
    kind: str
    mapped: list[str] = field(default_factory=list)
    unmapped: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# --- recognising and unpacking ---------------------------------------------------------------


def detect(raw: Any) -> str:
    """``whale-preset`` | ``tavern-v2`` | ``tavern-v1`` | ``unknown`` (in that order of checks)."""
    if not isinstance(raw, dict):
        return "unknown"
    if isinstance(raw.get("persona"), dict) or isinstance(raw.get("character"), str) or isinstance(raw.get("contracts"), list):
        return "whale-preset"
    spec = str(raw.get("spec") or "").lower()
    data = raw.get("data") if isinstance(raw.get("data"), dict) else None
    if spec in ("chara_card_v2", "chara_card_v3") or (data is not None and isinstance(data.get("description"), str)):
        return "tavern-v2"
    if isinstance(raw.get("name"), str) and (isinstance(raw.get("description"), str) or isinstance(raw.get("first_mes"), str)):
        return "tavern-v1"
    return "unknown"


CARD_KEYWORDS = ("ccv3", "chara")  # in order of preference
_TEXT_TYPES = (b"tEXt", b"zTXt", b"iTXt")


def _inflate(body: bytes, where: str) -> bytes:
    """Decompress one zlib stream, refusing more than :data:`MAX_TEXT_CHUNK` bytes of output.

    ``decompress(..., max_length)`` stops producing output at the limit, so a compression bomb
    costs at most ``MAX_TEXT_CHUNK`` bytes and the time to inflate them.
    """
    from lwcore.errors import LwError

    limit = MAX_TEXT_CHUNK
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        raise LwError(f"{where}: corrupt zlib data ({exc})") from None
    if len(out) > limit or inflater.unconsumed_tail:
        raise LwError(f"{where}: decompresses to more than {limit} bytes; refused")
    if not inflater.eof:
        raise LwError(f"{where}: truncated zlib data")
    if inflater.unused_data:
        raise LwError(f"{where}: {len(inflater.unused_data)} stray byte(s) after the zlib data")
    return out


def _card_text(ctype: bytes, body: bytes, pos: int) -> tuple[str, bytes] | None:
    """``(keyword, text bytes)`` of a text chunk, or ``None`` when it is not a card chunk.

    ``zTXt``/``iTXt`` chunks are decompressed only for the card keywords; ``tEXt`` chunks of any
    keyword are returned (as before), malformed ones without a keyword separator are skipped.
    """
    from lwcore.errors import LwError

    keyword, sep, rest = body.partition(b"\x00")
    if not sep:
        if ctype != b"tEXt" and keyword.decode("latin-1").lower() in CARD_KEYWORDS:
            raise LwError(f"PNG {ctype.decode()} chunk at byte {pos} has no keyword separator")
        return None
    key = keyword.decode("latin-1").lower()
    if ctype == b"tEXt":
        return key, rest
    if key not in CARD_KEYWORDS:
        return None
    where = f"PNG {ctype.decode()} chunk {key!r} at byte {pos}"
    if ctype == b"zTXt":
        if len(rest) < 1:
            raise LwError(f"{where}: missing compression method")
        if rest[0] != 0:
            raise LwError(f"{where}: unknown compression method {rest[0]}")
        return key, _inflate(rest[1:], where)
    # iTXt: flag, method, language tag NUL, translated keyword NUL, UTF-8 text
    if len(rest) < 2:
        raise LwError(f"{where}: missing compression flag/method")
    flag, method = rest[0], rest[1]
    language, sep1, tail = rest[2:].partition(b"\x00")
    translated, sep2, text = tail.partition(b"\x00")
    if not (sep1 and sep2):
        raise LwError(f"{where}: missing language tag or translated keyword")
    if flag not in (0, 1):
        raise LwError(f"{where}: invalid compression flag {flag}")
    if flag == 1:
        if method != 0:
            raise LwError(f"{where}: unknown compression method {method}")
        text = _inflate(text, where)
    try:
        language.decode("ascii")
        translated.decode("utf-8")
        text.decode("utf-8")
    except UnicodeDecodeError:
        raise LwError(f"{where}: language tag, translated keyword or text is not valid UTF-8") from None
    return key, text


def _png_card_chunks(data: bytes) -> dict[str, tuple[bytes, str]]:
    """keyword -> ``(text, chunk type)`` for the first text chunk of each keyword."""
    from lwcore.errors import LwError

    if len(data) > MAX_PNG_BYTES:
        raise LwError(f"PNG card larger than {MAX_PNG_BYTES} bytes")
    if not data.startswith(PNG_SIGNATURE):
        raise LwError("not a PNG file")
    pos = len(PNG_SIGNATURE)
    out: dict[str, tuple[bytes, str]] = {}
    for _ in range(MAX_CHUNKS):
        if pos + 8 > len(data):
            raise LwError("truncated PNG (no IEND chunk)")
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        if length > len(data) - pos - 12:
            raise LwError(f"truncated PNG chunk {ctype!r} at byte {pos}")
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if ctype in _TEXT_TYPES:
            if length > MAX_TEXT_CHUNK:
                raise LwError(f"PNG text chunk larger than {MAX_TEXT_CHUNK} bytes")
            if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
                raise LwError(f"PNG {ctype.decode()} chunk at byte {pos} fails its CRC")
            keyword = body.partition(b"\x00")[0].decode("latin-1").lower()
            if keyword not in out:  # the first chunk of a keyword wins; later ones are not even inflated
                found = _card_text(ctype, body, pos)
                if found is not None:
                    out[found[0]] = (found[1], ctype.decode())
        if ctype == b"IEND":
            return out
        pos += 12 + length
    raise LwError(f"PNG has more than {MAX_CHUNKS} chunks")


def png_text_chunks(data: bytes) -> dict[str, bytes]:
    """The text chunks of a PNG (keyword -> text), without decoding any image data.

    Every ``tEXt`` chunk is returned; ``zTXt`` and ``iTXt`` chunks only for the card keywords
    (``ccv3``, ``chara``), decompressed with a bounded output. The first chunk of a keyword wins.
    Raises :class:`LwError` on a malformed or oversized file.
    """
    return {key: text for key, (text, _) in _png_card_chunks(data).items()}


def card_json_from_png(data: bytes) -> tuple[Any, str]:
    """The card JSON in a PNG: ``ccv3`` preferred over ``chara`` (whatever their chunk types);
    ``(object, "<keyword> <chunk type>")``."""
    from lwcore.errors import LwError

    chunks = _png_card_chunks(data)
    for key in CARD_KEYWORDS:
        if key in chunks:
            text, ctype = chunks[key]
            try:
                decoded = base64.b64decode(text, validate=True)
            except (binascii.Error, ValueError):
                raise LwError(f"PNG {key!r} {ctype} chunk is not valid base64") from None
            if len(decoded) > MAX_JSON_BYTES:
                raise LwError(f"card JSON larger than {MAX_JSON_BYTES} bytes")
            try:
                return json.loads(decoded.decode("utf-8")), f"{key} {ctype}"
            except (UnicodeDecodeError, ValueError, RecursionError):
                raise LwError(f"PNG {key!r} {ctype} chunk does not hold UTF-8 JSON") from None
    raise LwError("PNG has no character card (no 'ccv3' or 'chara' text chunk)",
                  expected="a SillyTavern card PNG, or the card exported as JSON")


def load_card_bytes(data: bytes, name: str = "") -> tuple[Any, str]:
    """Parse card bytes (JSON or PNG) -> ``(object, container)``; located :class:`LwError` if bad."""
    from lwcore.errors import LwError

    if data.startswith(PNG_SIGNATURE):
        try:
            obj, where = card_json_from_png(data)
        except LwError as exc:
            raise LwError(exc.message, file=name or None, expected=exc.expected) from None
        return obj, f"png:{where}"
    if len(data) > MAX_JSON_BYTES:
        raise LwError(f"card JSON larger than {MAX_JSON_BYTES} bytes", file=name or None)
    try:
        return json.loads(data.decode("utf-8-sig")), "json"
    except UnicodeDecodeError as exc:
        raise LwError(f"not UTF-8 (byte {exc.start})", file=name or None) from None
    except json.JSONDecodeError as exc:
        raise LwError(f"invalid JSON: {exc.msg}", file=name or None, line=exc.lineno, column=exc.colno) from None


# --- mapping ---------------------------------------------------------------------------------


def slug_id(name: Any) -> str:
    """A safe preset id from a card name; non-ASCII-only names get ``card-<hash>``."""
    raw = js.str_or_empty(name).lower()
    s = re.sub(r"[^a-z0-9_-]+", "-", raw)
    s = re.sub(r"-{2,}", "-", s)
    s = re.sub(r"^[-_]+|[-_]+$", "", s)[:40]
    s = re.sub(r"[-_]+$", "", s)
    if s:
        return s
    h = 5381
    for ch in raw:
        h = ((h * 33) ^ ord(ch)) & 0xFFFFFFFF
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        h, r = divmod(h, 36)
        text = digits[r] + text
        if h == 0:
            break
    return "card-" + text[:6]


def split_contracts(text: str) -> tuple[list[dict[str, Any]], int, bool]:
    """``system_prompt`` -> contracts: ``(contracts, pieces skipped as too long, truncated at 40)``.

    One contract per line (list markers stripped, lines under 2 characters dropped, duplicates
    dropped); a line over 300 characters is split after 。！？!? and then at ；/; and pieces still
    over 300 are skipped. At most 40 contracts.
    """
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    too_long = 0
    truncated = False

    def add(piece: str) -> bool:
        nonlocal truncated
        if len(out) >= MAX_CONTRACTS:
            truncated = True
            return False
        seen.add(piece)
        out.append({"id": f"c{len(out) + 1}", "text": piece, "on": True})
        return True

    for raw_line in re.split(r"\r?\n", text or ""):
        line = js.trim(_LIST_MARK.sub("", js.trim(raw_line), count=1))
        n = js.utf16_len(line)
        if n < 2:
            continue
        if n > MAX_CONTRACT_CHARS:
            pieces = [js.trim(p) for seg in _SENTENCE_END.split(line) for p in _SEMI.split(seg)]
            for piece in (p for p in pieces if p):
                size = js.utf16_len(piece)
                if size > MAX_CONTRACT_CHARS:
                    too_long += 1
                    continue
                if size < 2 or piece in seen:
                    continue
                if not add(piece):
                    break
            if truncated:
                break
            continue
        if line in seen:
            continue
        if not add(line):
            break
    return out, too_long, truncated


def _s(value: Any) -> str:
    return js.trim(value) if isinstance(value, str) else ""


def from_card(raw: Any) -> CardImport | None:
    """A V1/V2/V3 card object -> :class:`CardImport`; ``None`` when it is not a tavern card."""
    kind = detect(raw)
    if kind not in ("tavern-v2", "tavern-v1"):
        return None
    d = raw["data"] if kind == "tavern-v2" and isinstance(raw.get("data"), dict) else raw
    mapped: list[str] = []
    unmapped: list[tuple[str, str]] = []
    notes: list[str] = []

    def take(key: str, label: str) -> str:
        value = _s(d.get(key))
        if value:
            mapped.append(label)
        return value

    name = _s(d.get("name")) or "imported-card"
    description = take("description", "description → persona.character")
    personality = take("personality", "personality → persona.stance")
    scenario = take("scenario", "scenario → persona.character (【场景】)")
    system_prompt = take("system_prompt", "system_prompt → persona.contracts")
    post_history = take("post_history_instructions", "post_history_instructions → persona.suffix")
    creator = _s(d.get("creator"))
    if creator:
        mapped.append("creator → author")
    version = _s(d.get("character_version"))
    if version:
        mapped.append("character_version → description (and source)")
    tags_raw = d.get("tags")
    tags = [js.to_str(t) for t in tags_raw if t not in (None, "")][:32] if isinstance(tags_raw, list) else (
        [js.to_str(tags_raw)] if js.truthy(tags_raw) else [])
    if tags:
        mapped.append("tags → tags")

    for key in NOT_CARRIED:
        value = d.get(key)
        if value is not None and value != "" and value != [] and value != {}:
            unmapped.append((f"data.{key}" if d is not raw else key,
                             "not carried: needs host features (greetings, example dialogue, lorebook, notes, assets)"))
    for key in d:
        if key not in KNOWN_FIELDS:
            unmapped.append((f"data.{key}" if d is not raw else key, "unknown field, not carried"))

    persona: dict[str, Any] = {}
    parts = [p for p in (description, "【场景】\n" + scenario if scenario else "") if p]
    if parts:
        persona["character"] = "\n\n".join(parts)
    if personality:
        persona["stance"] = personality
    contracts, too_long, truncated = split_contracts(system_prompt)
    if contracts:
        persona["contracts"] = contracts
    elif system_prompt:
        mapped.remove("system_prompt → persona.contracts")
        unmapped.append(("data.system_prompt" if d is not raw else "system_prompt",
                         "no usable contract line (one unbroken paragraph or every piece over 300 characters); split it by hand"))
    if too_long:
        notes.append(f"system_prompt: {too_long} piece(s) over {MAX_CONTRACT_CHARS} characters were skipped")
    if truncated:
        notes.append(f"system_prompt: only the first {MAX_CONTRACTS} contracts were kept")
    if post_history:
        persona["suffix"] = post_history

    extensions = d.get("extensions") if isinstance(d.get("extensions"), dict) else {}
    ext = extensions.get("whale_persona")
    thinking: str | None = None
    meta: dict[str, Any] = {}
    if isinstance(ext, dict):
        if isinstance(ext.get("persona"), dict):  # our own full snapshot: exact round trip
            persona = {k: copy.deepcopy(ext["persona"][k]) for k in presetmod.PERSONA_KEYS if k in ext["persona"]}
            meta = {k: ext[k] for k in ("id", "label", "description", "author", "tags") if k in ext}
        else:  # cards written by the reference implementation
            for key in ("userName", "selfNameFlash", "selfNamePro", "stance"):
                if isinstance(ext.get(key), str) and ext[key]:
                    persona[key] = ext[key]
            for key in ("selfNameByModel", "tone", "appearance"):
                if isinstance(ext.get(key), dict):
                    persona[key] = copy.deepcopy(ext[key])
        if isinstance(ext.get("thinkingLanguage"), str):
            thinking = ext["thinkingLanguage"]
        mapped.append("extensions.whale_persona → whale-persona fields")
    other_ext = {k: copy.deepcopy(v) for k, v in extensions.items() if k != "whale_persona"}

    preset: dict[str, Any] = {
        "spec": presetmod.PRESET_SPEC,
        "id": presetmod.safe_id(meta.get("id")) or slug_id(name),
        "label": meta["label"] if isinstance(meta.get("label"), str) else name,
        "description": meta["description"] if isinstance(meta.get("description"), str) else (
            "导入自酒馆角色卡" + (f"（卡版本 {version}）" if version else "")),
        "author": meta["author"] if isinstance(meta.get("author"), str) else creator,
        "tags": list(meta["tags"]) if isinstance(meta.get("tags"), list) else tags,
        "persona": persona,
        "source": {"kind": kind, "name": name, "creator": creator, "characterVersion": version,
                   "spec": _s(raw.get("spec")) if kind == "tavern-v2" else ""},
    }
    if other_ext:
        preset["source"]["extensions"] = other_ext
    if thinking is not None:
        preset["thinkingLanguage"] = thinking
    if not persona:
        notes.append("nothing mappable: the card has no description, personality, scenario, system_prompt or post_history_instructions")
    return CardImport(preset, kind, mapped, unmapped, notes)


def to_card(preset: Mapping[str, Any]) -> dict[str, Any]:
    """A preset -> a ``chara_card_v2`` card; whale-only fields under ``data.extensions.whale_persona``."""
    p = preset.get("persona") if isinstance(preset.get("persona"), dict) else {}
    contracts = [c for c in p.get("contracts") or [] if isinstance(c, dict) and js.truthy(c.get("text")) and c.get("on") is not False]
    source = preset.get("source") if isinstance(preset.get("source"), dict) else {}
    extensions = copy.deepcopy(source.get("extensions")) if isinstance(source.get("extensions"), dict) else {}
    ext: dict[str, Any] = {
        "spec": presetmod.PRESET_SPEC,
        # the fields the reference implementation reads back
        "userName": p.get("userName"), "selfNameFlash": p.get("selfNameFlash"), "selfNamePro": p.get("selfNamePro"),
        "selfNameByModel": p.get("selfNameByModel"), "stance": p.get("stance"),
        "tone": p.get("tone"), "appearance": p.get("appearance"),
        "thinkingLanguage": preset.get("thinkingLanguage"),
        # the full snapshot this implementation restores exactly
        "id": preset.get("id"), "label": preset.get("label"), "description": preset.get("description"),
        "author": preset.get("author"), "tags": list(preset.get("tags") or []),
        "persona": {k: copy.deepcopy(p[k]) for k in presetmod.PERSONA_KEYS if k in p},
    }
    extensions["whale_persona"] = {k: v for k, v in ext.items() if v is not None}
    return {
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": str(preset.get("label") or preset.get("id") or "persona"),
            "description": p["character"] if isinstance(p.get("character"), str) else "",
            "personality": p["stance"] if isinstance(p.get("stance"), str) else "",
            "scenario": "",
            "first_mes": "",
            "mes_example": "",
            "creator_notes": "Exported by the Loreweaver persona plugin (whale-persona v1). Only the system-prompt part is "
                             "carried; whale-persona fields live in extensions.whale_persona.",
            "system_prompt": "\n".join("- " + js.trim(js.to_str(c["text"])) for c in contracts),
            "post_history_instructions": p["suffix"] if isinstance(p.get("suffix"), str) else "",
            "alternate_greetings": [],
            "character_book": None,
            "tags": [str(t) for t in preset.get("tags") or []],
            "creator": str(preset.get("author") or "whale-persona"),
            "character_version": "1.0",
            "extensions": extensions,
        },
    }
