"""The two importers this plugin registers with the kernel (resolved lazily by reference)."""

from __future__ import annotations

import json
from typing import Any

from lwcore.contributions import Dropped, ImportReport, ImportResult

from lw_persona import presets as presetmod
from lw_persona import tavern

_SNIFF_LIMIT = 64 * 1024


def _head_json(data: bytes) -> Any:
    """Parse small JSON files fully; for big ones only the kind of document matters."""
    if len(data) > tavern.MAX_JSON_BYTES:
        return None
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def sniff_preset(data: bytes, name: str) -> float:
    """1.0 for a ``whale-persona-preset/1`` file, 0.8 for a legacy preset shape, else 0."""
    try:
        if data[:1] not in (b"{", b"\xef") and not data.lstrip()[:1] == b"{":
            return 0.0
        raw = _head_json(data)
        if tavern.detect(raw) != "whale-preset":
            return 0.0
        return 1.0 if raw.get("spec") == presetmod.PRESET_SPEC else 0.8
    except Exception:  # noqa: BLE001 - a sniffer never raises
        return 0.0


def load_preset(data: bytes, name: str) -> ImportResult[dict[str, Any]]:
    preset, notes = presetmod.parse_bytes(data, name)
    dropped = tuple(Dropped("memory", n) for n in notes if "memory" in n)
    warnings = tuple(n for n in notes if "memory" not in n)
    carried = tuple(f"persona.{k}" for k in preset["persona"])
    return ImportResult("persona-preset", preset, ImportReport(carried, dropped, warnings))


def sniff_card(data: bytes, name: str) -> float:
    """0.6 for a V2/V3 card or a PNG with a card chunk, 0.5 for a V1 card, else 0."""
    try:
        if data.startswith(tavern.PNG_SIGNATURE):
            try:
                chunks = tavern.png_text_chunks(data)
            except Exception:  # noqa: BLE001
                return 0.0
            return 0.6 if ("ccv3" in chunks or "chara" in chunks) else 0.0
        raw = _head_json(data)
        kind = tavern.detect(raw)
        return {"tavern-v2": 0.6, "tavern-v1": 0.5}.get(kind, 0.0)
    except Exception:  # noqa: BLE001
        return 0.0


def _png_note(where: str) -> str:
    key, _, ctype = where.partition(" ")
    return f"read from the PNG {key!r} {ctype or 'text'} chunk"


def load_card(data: bytes, name: str) -> ImportResult[dict[str, Any]]:
    from lwcore.errors import LwError

    raw, container = tavern.load_card_bytes(data, name)
    result = tavern.from_card(raw)
    if result is None:
        kind = tavern.detect(raw)
        hint = "a whale-persona preset: import it with the persona-preset importer" if kind == "whale-preset" else None
        raise LwError("not a SillyTavern character card", file=name or None,
                      expected=hint or "a chara_card_v2/v3 JSON, a V1 card, or a card PNG")
    if not result.preset["persona"]:
        named = ", ".join(f for f, _ in result.unmapped) or "none"
        raise LwError("nothing to import: the card has no description, personality, scenario, usable system_prompt "
                      f"or post_history_instructions (fields not carried: {named})", file=name or None)
    report = ImportReport(
        carried=tuple(result.mapped),
        dropped=tuple(Dropped(f, r) for f, r in result.unmapped),
        warnings=tuple(result.notes) + ((_png_note(container[4:]),) if container.startswith("png:") else ()),
    )
    return ImportResult("persona-preset", result.preset, report)
