"""Preset cards ``whale-persona-preset/1`` (§4): read, list, save, apply.

A preset is an *input*: applying it writes the persona keys it carries into ``config.json``
(only those present; everything else, memory included, untouched). Presets never carry
memory. ``autosave`` is the reserved id that holds the persona as it was before an apply.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lwcore.api import JSON_LIMITS, LwError, load_json, read_bytes

from lw_persona import config as cfgmod
from lw_persona.places import Places

PRESET_SPEC = "whale-persona-preset/1"
AUTOSAVE_ID = "autosave"
PERSONA_KEYS = (
    "userName", "selfNameFlash", "selfNamePro", "selfNameByModel",
    "stance", "character", "suffix", "contracts", "tone", "appearance",
)
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_PRESET_BYTES = 2 * 1024 * 1024


def presets_dir(places: Places | None = None) -> Path:
    """``<config folder>/presets`` (the folder as :mod:`lw_persona.places` finds it)."""
    return (places or Places.resolve()).presets


def safe_id(value: Any) -> str | None:
    """The id when it matches ``^[A-Za-z0-9_-]{1,64}$`` (after trimming), else ``None``."""
    if not isinstance(value, str):
        return None
    s = value.strip()
    return s if ID_PATTERN.match(s) else None


def require_id(value: Any) -> str:
    sid = safe_id(value)
    if sid is None:
        raise LwError(f"invalid preset id {value!r}", expected="^[A-Za-z0-9_-]{1,64}$ (letters, digits, '_' or '-')")
    return sid


def normalize(raw: Any, fallback_id: str | None = None) -> tuple[dict[str, Any], list[str]] | None:
    """A file's object -> ``(preset, notes)``; ``None`` when it is not a preset at all.

    Only whitelisted ``persona`` keys are kept; a legacy file (no ``persona`` object but a
    top-level ``character`` string or ``contracts`` array) is read by the same names; anything
    memory-like is ignored and reported in ``notes``.
    """
    if not isinstance(raw, dict):
        return None
    inner = inner_raw if isinstance(inner_raw := raw.get("persona"), dict) else None
    legacy = inner is None and (isinstance(raw.get("character"), str) or isinstance(raw.get("contracts"), list))
    if inner is None and not legacy:
        return None
    notes: list[str] = []
    persona: dict[str, Any] = {}
    if inner is not None:
        for key in PERSONA_KEYS:
            if key in inner:
                persona[key] = copy.deepcopy(inner[key])
        ignored = [k for k in inner if k not in PERSONA_KEYS]
        if ignored:
            notes.append("ignored persona keys outside the whitelist: " + ", ".join(ignored))
    else:
        if isinstance(raw.get("contracts"), list):
            persona["contracts"] = copy.deepcopy(raw["contracts"])
        if isinstance(raw.get("character"), str) and raw["character"]:
            persona["character"] = raw["character"]
        notes.append("legacy preset format (top-level character/contracts)")
    if "memory" in raw or "entries" in raw or "inbox" in raw:
        notes.append("ignored memory content: presets never carry memory (§4.3)")
    preset: dict[str, Any] = {
        "spec": raw["spec"] if isinstance(raw.get("spec"), str) else "",
        "id": safe_id(raw.get("id")) or safe_id(fallback_id) or "",
        "label": str(raw.get("label") or raw.get("name") or raw.get("id") or fallback_id or "").strip(),
        "description": str(raw.get("description") or "").strip(),
        "author": str(raw.get("author") or raw.get("creator") or "").strip(),
        "tags": [str(t) for t in raw["tags"] if t not in (None, "")][:32] if isinstance(raw.get("tags"), list) else [],
        "persona": persona,
    }
    if isinstance(raw.get("thinkingLanguage"), str):
        preset["thinkingLanguage"] = raw["thinkingLanguage"]
    if isinstance(raw.get("source"), dict):
        preset["source"] = copy.deepcopy(raw["source"])
    return preset, notes


def parse_bytes(data: bytes, name: str = "") -> tuple[dict[str, Any], list[str]]:
    """Parse a preset file's bytes; :class:`LwError` when it is not a preset."""
    raw = load_json(data, name or None, limits=JSON_LIMITS.with_(max_bytes=MAX_PRESET_BYTES))
    stem = Path(name).stem if name else None
    result = normalize(raw, stem)
    if result is None:
        raise LwError("not a whale-persona preset", file=name or None,
                      expected='{"spec": "whale-persona-preset/1", "persona": {...}}')
    return result


def file_for(preset_id: str, places: Places | None = None) -> Path:
    return presets_dir(places) / (require_id(preset_id) + ".json")


def read_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """:func:`parse_bytes` of a preset file (read through the kernel's bounded reader)."""
    return parse_bytes(read_bytes(path, max_bytes=MAX_PRESET_BYTES), str(path))


def load(preset_id: str, places: Places | None = None) -> dict[str, Any]:
    """Read preset ``preset_id``; :class:`LwError` for a bad id, a missing or a bad file."""
    path = file_for(preset_id, places)
    try:
        preset, _ = read_file(path)
    except LwError as exc:
        if exc.code == "not_found":
            raise LwError(f"no preset {preset_id!r}", file=path, code="not_found") from None
        raise
    if not preset["id"]:
        preset["id"] = preset_id
    return preset


def list_presets(places: Places | None = None) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """``(presets, skipped)``: one summary per readable preset file; unusable files are named."""
    folder = presets_dir(places)
    out: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    try:
        names = sorted(p.name for p in folder.iterdir() if p.is_file())
    except OSError:
        return out, skipped
    for name in names:
        if not name.lower().endswith(".json"):
            continue
        stem = name[:-5]
        if safe_id(stem) != stem:
            skipped.append({"file": name, "reason": "file name is not a valid preset id"})
            continue
        try:
            preset, _ = read_file(folder / name)
        except LwError as exc:  # one bad file never hides the others
            skipped.append({"file": name, "reason": str(exc)})
            continue
        persona = preset["persona"]
        out.append({
            "id": preset["id"] or stem, "label": preset["label"], "description": preset["description"],
            "author": preset["author"], "tags": preset["tags"], "spec": preset["spec"], "file": name,
            "contracts": len(persona["contracts"]) if isinstance(persona.get("contracts"), list) else 0,
        })
    return out, skipped


def body_for_file(preset: Mapping[str, Any]) -> dict[str, Any]:
    """The on-disk shape of a preset (spec first; no memory, ever)."""
    pid = require_id(preset.get("id"))
    body: dict[str, Any] = {
        "spec": PRESET_SPEC,
        "id": pid,
        "label": str(preset.get("label") or pid),
        "description": str(preset.get("description") or ""),
    }
    if preset.get("author"):
        body["author"] = str(preset["author"])
    if isinstance(preset.get("tags"), list) and preset["tags"]:
        body["tags"] = [str(t) for t in preset["tags"]]
    if isinstance(preset.get("thinkingLanguage"), str):
        body["thinkingLanguage"] = preset["thinkingLanguage"]
    persona = persona_raw if isinstance(persona_raw := preset.get("persona"), dict) else {}
    body["persona"] = {k: copy.deepcopy(persona[k]) for k in PERSONA_KEYS if k in persona}
    if isinstance(preset.get("source"), dict):
        body["source"] = copy.deepcopy(preset["source"])
    return body


def save(preset: Mapping[str, Any], places: Places | None = None) -> Path:
    """Write a preset file (atomic; same id overwrites)."""
    body = body_for_file(preset)
    path = presets_dir(places) / (body["id"] + ".json")
    cfgmod.write_text(path, json.dumps(body, ensure_ascii=False, indent=2) + "\n")
    return path


def from_config(raw_cfg: Mapping[str, Any], *, preset_id: str = "", label: str = "", description: str = "",
                author: str = "") -> dict[str, Any]:
    """The shareable part of a raw config: whitelisted persona keys (+ thinkingLanguage). No memory."""
    p = p_raw if isinstance(p_raw := raw_cfg.get("persona"), dict) else {}
    out: dict[str, Any] = {
        "id": safe_id(preset_id) or "",
        "label": label or preset_id,
        "description": description,
        "persona": {k: copy.deepcopy(p[k]) for k in PERSONA_KEYS if k in p},
    }
    if author:
        out["author"] = author
    if isinstance(raw_cfg.get("thinkingLanguage"), str):
        out["thinkingLanguage"] = raw_cfg["thinkingLanguage"]
    return out


def apply_to_config(raw_cfg: Mapping[str, Any], preset: Mapping[str, Any]) -> dict[str, Any]:
    """Pure: the raw config with the preset's present (non-null) persona keys overwritten."""
    cfg = dict(raw_cfg) if isinstance(raw_cfg, Mapping) else {}
    p = p_raw if isinstance(p_raw := preset.get("persona"), dict) else {}
    persona = dict(cfg["persona"]) if isinstance(cfg.get("persona"), dict) else {}
    for key in PERSONA_KEYS:
        if key in p and p[key] is not None:
            persona[key] = copy.deepcopy(p[key])
    cfg["persona"] = persona
    if isinstance(preset.get("thinkingLanguage"), str):
        cfg["thinkingLanguage"] = preset["thinkingLanguage"]
    return cfg


def apply(preset: Mapping[str, Any], config_file: Path, places: Places | None = None) -> dict[str, Any]:
    """Apply to disk: autosave the current persona when it differs, then patch persona (+ thinkingLanguage).

    Returns ``{"file", "autosave"}``. A malformed existing config is refused (with its located
    reason), never overwritten, and nothing is autosaved.
    """
    raw = cfgmod.read_existing(config_file)
    current = from_config(raw)
    wanted = wanted_raw if isinstance(wanted_raw := preset.get("persona"), dict) else {}
    same = all(current["persona"].get(k) == wanted.get(k) for k in PERSONA_KEYS)
    autosave = ""
    if not same:
        snap = {"id": AUTOSAVE_ID, "label": "上次的人设（自动保存）", "description": "切换预设前的人设",
                "persona": current["persona"]}
        autosave = str(save(snap, places))
    nxt = apply_to_config(raw, preset)
    patch: dict[str, Any] = {"persona": nxt["persona"]}
    if isinstance(preset.get("thinkingLanguage"), str):
        patch["thinkingLanguage"] = preset["thinkingLanguage"]
    cfgmod.write_patch(config_file, patch)
    return {"file": str(config_file), "autosave": autosave}
