"""``config.json``: defaults (§2.2-2.5), reading (§2.6) and patch writes; where it is: :mod:`places`.

Rendering never raises: a missing, empty, unreadable or malformed file gives the defaults (and
so empty segments, §2.6: the worst outcome is "no persona", never a host that cannot start or a
turn that cannot be sent); :func:`problem` says why a file is unusable, for the commands that
warn about it, :func:`read_existing` refuses it for the commands that would act on it. Writing is "read the raw file, replace the patchable sections that the patch
names, write the whole object back atomically"; every key this module does not know
survives, at every level. A malformed existing file is never overwritten.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lwcore.api import js
from lw_persona.places import Places
from lwcore.api import LwError, atomic_write_text, load_json, read_bytes

PATCHABLE_KEYS = ("enabled", "thinkingLanguage", "persona", "memory")
"""Top-level sections a write may replace (``core/edit.js`` ``PATCHABLE_KEYS``)."""

DEFAULT_USER_NAME = "用户"
DEFAULT_SELF_NAME = "我"

DEFAULTS: dict[str, Any] = {
    "enabled": True,
    "thinkingLanguage": "off",
    "persona": {
        "enabled": True,
        "preset": "",
        "selfNameFlash": DEFAULT_SELF_NAME,
        "selfNamePro": DEFAULT_SELF_NAME,
        "selfNameByModel": {},
        "userName": DEFAULT_USER_NAME,
        "stance": "",
        "character": "",
        "suffix": "",
        "appearance": {"enabled": False, "text": "", "byModel": {}},
        "tone": {"enabled": False, "text": "", "byModel": {}},
        "contracts": [],
    },
    "memory": {
        "enabled": False,
        "entries": [],
        "inbox": True,
        "capture": "on-demand",
        "maxEntries": 30,
        "inboxPath": "",
        "sinks": {},
        "sinkLog": "",
        "requireConfirm": True,
    },
    "budget": {"enabled": False, "max": 0, "warnInPrompt": True},
}


def read_config(path: Path) -> dict[str, Any]:
    """The file's JSON object, unknown keys included; ``{}`` when the file is absent or blank.

    Read through the kernel's JSON reader (size and depth limits, no ``NaN``, duplicate keys
    refused). Anything unusable -- not a regular file, unreadable, not UTF-8 JSON, not an
    object -- raises a located :class:`lwcore.errors.LwError`.
    """
    try:
        data = read_bytes(path)
    except LwError as exc:
        if exc.code == "not_found":
            return {}
        raise
    if not data.strip():
        return {}
    parsed = load_json(data, path)
    if not isinstance(parsed, dict):
        raise LwError("config.json holds " + ("an array" if isinstance(parsed, list) else "a single value")
                      + ", not a JSON object", file=path, line=1, column=1, expected="a JSON object {...}")
    return parsed


def problem(path: Path) -> LwError | None:
    """Why ``path`` cannot be used as a config (located), or ``None`` when it can: absent and
    blank files are the unconfigured state (§2.6), not a problem. Never raises."""
    try:
        read_config(path)
    except LwError as exc:
        return exc
    return None


def read_raw(path: Path) -> dict[str, Any] | None:
    """:func:`read_config`, tolerant: ``None`` when the file is unusable. Never raises."""
    try:
        return read_config(path)
    except LwError:
        return None


def load(path: Path) -> dict[str, Any]:
    """The effective configuration (defaults merged in, unknown keys kept). Never raises."""
    return merge(read_raw(path))


def _str_field(value: Any, default: str) -> str:
    """``p.x || default`` with JS coercion for non-string truthy values."""
    return js.to_string(value) if js.truthy(value) else default


def _text_field(value: Any) -> str:
    """``p.x !== undefined ? p.x : ''`` then ``|| ''`` at use: a string (``None`` -> '')."""
    if value is None or value is False:
        return ""
    return js.to_string(value) if js.truthy(value) else ""


def merge(raw: Any) -> dict[str, Any]:
    """Defaults + the user's file. Unknown keys at every level are carried through untouched.

    Known keys are normalised to the types the renderer expects (bools by JS truthiness,
    names falling back to their defaults when empty, lists and objects replaced wholesale).
    """
    u: dict[str, Any] = raw if isinstance(raw, dict) else {}
    p = p_raw if isinstance(p_raw := u.get("persona"), dict) else {}
    m = m_raw if isinstance(m_raw := u.get("memory"), dict) else {}
    b = b_raw if isinstance(b_raw := u.get("budget"), dict) else {}
    d = DEFAULTS
    persona = dict(p)
    persona.update(
        enabled=js.truthy(p["enabled"]) if "enabled" in p else True,
        preset=p.get("preset", ""),
        selfNameFlash=_str_field(p.get("selfNameFlash"), ""),
        selfNamePro=_str_field(p.get("selfNamePro"), ""),
        selfNameByModel=p["selfNameByModel"] if isinstance(p.get("selfNameByModel"), dict) else {},
        userName=_str_field(p.get("userName"), DEFAULT_USER_NAME),
        stance=_text_field(p.get("stance")),
        character=_text_field(p.get("character")),
        suffix=_text_field(p.get("suffix")),
        appearance=p["appearance"] if isinstance(p.get("appearance"), dict) else copy.deepcopy(d["persona"]["appearance"]),
        tone=p["tone"] if isinstance(p.get("tone"), dict) else copy.deepcopy(d["persona"]["tone"]),
        contracts=p["contracts"] if isinstance(p.get("contracts"), list) else [],
    )
    max_entries = js.to_number(m.get("maxEntries"))
    memory = dict(m)
    memory.update(
        enabled=js.truthy(m["enabled"]) if "enabled" in m else False,
        entries=m["entries"] if isinstance(m.get("entries"), list) else [],
        inbox=js.truthy(m["inbox"]) if "inbox" in m else True,
        capture=m["capture"] if isinstance(m.get("capture"), str) else "on-demand",
        maxEntries=max_entries if max_entries > 0 else 30,
        inboxPath=m["inboxPath"] if isinstance(m.get("inboxPath"), str) else "",
        sinks=m["sinks"] if isinstance(m.get("sinks"), dict) else {},
        sinkLog=m["sinkLog"] if isinstance(m.get("sinkLog"), str) else "",
        # Security-critical: only a literal ``false`` relaxes the confirmation gate.
        requireConfirm=m.get("requireConfirm") is not False,
    )
    budget_max = js.to_number(b.get("max"))
    budget = dict(b)
    budget.update(
        enabled=b.get("enabled") is True,
        max=budget_max if budget_max > 0 else 0,
        warnInPrompt=b.get("warnInPrompt") is not False,
    )
    tl = u.get("thinkingLanguage", "off")
    out = dict(u)
    out.update(
        enabled=js.truthy(u["enabled"]) if "enabled" in u else True,
        thinkingLanguage=tl if isinstance(tl, str) else ("off" if tl is None or tl is False else js.to_string(tl)),
        persona=persona,
        memory=memory,
        budget=budget,
    )
    return out


def dumps(config: Mapping[str, Any]) -> str:
    """``JSON.stringify(cfg, null, 2) + '\\n'``."""
    return json.dumps(config, ensure_ascii=False, indent=2) + "\n"


def write_patch(path: Path, patch: Mapping[str, Any]) -> dict[str, Any]:
    """Replace the patchable sections present in ``patch``; keep everything else; write atomically.

    Raises :class:`lwcore.errors.LwError` (and writes nothing) when the existing file is not a
    JSON object: a damaged file is never overwritten.
    """
    raw = read_existing(path)
    unknown = [k for k in patch if k not in PATCHABLE_KEYS]
    if unknown:
        raise LwError(f"cannot patch {', '.join(unknown)}", expected=", ".join(PATCHABLE_KEYS))
    out = dict(raw)
    for key in PATCHABLE_KEYS:
        if key in patch:
            out[key] = patch[key]
    write_text(Path(path), dumps(out))
    return out


def read_existing(path: Path) -> dict[str, Any]:
    """:func:`read_config` for a write: an unusable file is refused with its located reason
    and the promise that it was left alone."""
    try:
        return read_config(path)
    except LwError as exc:
        exc.message += "; fix it first (config.json was not overwritten)"
        raise


def write_text(path: Path, text: str) -> None:
    """Every file this plugin rewrites goes through here: the kernel's atomic write (a reader
    sees the old file or the new one; the mode is kept; a symbolic link is written through to
    its target and stays a link). A failure is a located :class:`LwError`; nothing is left half
    written."""
    try:
        atomic_write_text(Path(path), text)
    except OSError as exc:
        raise LwError(f"cannot write: {exc.strerror or exc}", file=path, code="io") from None


def inbox_path(cfg: Mapping[str, Any], override: str | os.PathLike[str] | None = None,
               places: Places | None = None) -> Path:
    """``memory.inboxPath`` (relative = under the configuration folder), else the default file."""
    if override:
        return Path(os.path.abspath(override))
    places = places or Places.resolve()
    memory = memory_raw if isinstance(memory_raw := cfg.get("memory"), dict) else {}
    raw = js.trim(str(memory.get("inboxPath") or ""))
    return places.under(raw) if raw else places.folder / "memory-inbox.jsonl"


def sink_log_path(cfg: Mapping[str, Any], places: Places | None = None) -> Path:
    """``memory.sinkLog`` (relative = under the configuration folder), else ``sink-log.jsonl``."""
    places = places or Places.resolve()
    memory = memory_raw if isinstance(memory_raw := cfg.get("memory"), dict) else {}
    raw = js.trim(str(memory.get("sinkLog") or ""))
    return places.under(raw) if raw else places.folder / "sink-log.jsonl"
