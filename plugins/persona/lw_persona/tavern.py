"""SillyTavern character cards <-> whale-persona presets (§4.6).

Reading the card containers (JSON, PNG, CHARX) is the kernel's job (:mod:`lwcore.cards`);
this module maps a card's fields. Import recognises, in order: our own preset, a V2/V3 card,
a V1 card (the kernel's spec detection). Export writes ``chara_card_v2`` with everything
this engine owns under ``data.extensions.whale_persona`` so that export -> import restores the
preset exactly.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import js
from lw_persona import presets as presetmod
from lwcore.api import JSON_LIMITS, check_shape, detect_spec, unwrap_card as unwrap

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
_CHAR_MACRO = re.compile(r"\{\{char\}\}", re.IGNORECASE)
"""The card macro for the character's name, bound at import (the extension contract, A.5)."""
KINDS = {"chara_card_v3": "tavern-v2", "chara_card_v2": "tavern-v2", "chara_card_v1": "tavern-v1"}
"""The kernel's card specs -> this module's kinds (V3 is read as the V2 family, §4.6)."""


@dataclass
class CardImport:
    """A card mapped to a preset, with the itemised report."""

    preset: dict[str, Any]
    kind: str
    mapped: list[str] = field(default_factory=list)
    unmapped: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def is_preset(raw: Any) -> bool:
    """A whale-persona preset shape (a ``persona`` object, a ``character`` string or a
    ``contracts`` list); checked before any card spec (§4.6's recognition order)."""
    return isinstance(raw, dict) and (isinstance(raw.get("persona"), dict) or isinstance(raw.get("character"), str)
                                      or isinstance(raw.get("contracts"), list))


def detect(raw: Any) -> str:
    """``whale-preset`` | ``tavern-v2`` | ``tavern-v1`` | ``unknown`` (in that order of checks)."""
    if is_preset(raw):
        return "whale-preset"
    return KINDS.get(detect_spec(raw) or "", "unknown")


# --- mapping ---------------------------------------------------------------------------------


def slug_id(name: Any) -> str:
    """A safe preset id from a card name; non-ASCII-only names get ``card-<hash>``."""
    raw = js.to_string(name, null="").lower()
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
        n = js.utf16_length(line)
        if n < 2:
            continue
        if n > MAX_CONTRACT_CHARS:
            pieces = [js.trim(p) for seg in _SENTENCE_END.split(line) for p in _SEMI.split(seg)]
            for piece in (p for p in pieces if p):
                size = js.utf16_length(piece)
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
    """A V1/V2/V3 card object -> :class:`CardImport`; ``None`` when it is not a tavern card.

    ``raw`` nested deeper than the kernel's JSON limits is refused with an :class:`LwError`
    (cards read through :mod:`lwcore.cards` never are), so copying it cannot recurse too deep.
    """
    kind = detect(raw)
    if kind not in ("tavern-v2", "tavern-v1"):
        return None
    check_shape(raw, JSON_LIMITS)
    d = unwrap(raw)[2]
    mapped: list[str] = []
    unmapped: list[tuple[str, str]] = []
    notes: list[str] = []

    card_name = _s(d.get("name"))
    name = card_name or "imported-card"
    char = _s(d.get("nickname")) or card_name
    bound: list[str] = []

    def take(key: str, label: str) -> str:
        value = _s(d.get(key))
        if value:
            mapped.append(label)
            if char and _CHAR_MACRO.search(value):
                value = _CHAR_MACRO.sub(lambda _: char, value)
                bound.append(key)
        return value
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
    tags = [js.to_string(t) for t in tags_raw if t not in (None, "")][:32] if isinstance(tags_raw, list) else (
        [js.to_string(tags_raw)] if js.truthy(tags_raw) else [])
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
    if bound:
        notes.append(f"{{{{char}}}} bound to {char!r} in {', '.join(bound)} (the card's "
                     f"{'nickname' if _s(d.get('nickname')) else 'name'}); {{{{user}}}} is kept and filled with the "
                     "member acting each turn")
    if too_long:
        notes.append(f"system_prompt: {too_long} piece(s) over {MAX_CONTRACT_CHARS} characters were skipped")
    if truncated:
        notes.append(f"system_prompt: only the first {MAX_CONTRACTS} contracts were kept")
    if post_history:
        persona["suffix"] = post_history

    extensions = extensions_raw if isinstance(extensions_raw := d.get("extensions"), dict) else {}
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
    p = p_raw if isinstance(p_raw := preset.get("persona"), dict) else {}
    contracts = [c for c in p.get("contracts") or [] if isinstance(c, dict) and js.truthy(c.get("text")) and c.get("on") is not False]
    source = source_raw if isinstance(source_raw := preset.get("source"), dict) else {}
    given = source.get("extensions")
    extensions: dict[str, Any] = copy.deepcopy(given) if isinstance(given, dict) else {}
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
            "system_prompt": "\n".join("- " + js.trim(js.to_string(c["text"])) for c in contracts),
            "post_history_instructions": p["suffix"] if isinstance(p.get("suffix"), str) else "",
            "alternate_greetings": [],
            "character_book": None,
            "tags": [str(t) for t in preset.get("tags") or []],
            "creator": str(preset.get("author") or "whale-persona"),
            "character_version": "1.0",
            "extensions": extensions,
        },
    }
