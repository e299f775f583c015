"""The two importers this plugin registers with the kernel (resolved lazily by reference).

Card files are read by the kernel's card container reader (:mod:`lwcore.cards`: JSON, PNG,
CHARX, with its limits and located errors); this module only decides what a card becomes.
"""

from __future__ import annotations

from typing import Any

from lwcore.api import Dropped, ImportReport, ImportResult, LwError, load_json

from lw_persona import presets as presetmod
from lw_persona import tavern


def _json(data: bytes) -> Any:
    """The JSON document in ``data`` (kernel limits), or ``None`` when it is not one."""
    try:
        return load_json(data)
    except LwError:
        return None


def sniff_preset(data: bytes, name: str) -> float:
    """1.0 for a ``whale-persona-preset/1`` file, 0.8 for a legacy preset shape, else 0."""
    from lwcore.api import container_of

    if container_of(data) != "json":
        return 0.0
    raw = _json(data)
    if not tavern.is_preset(raw):
        return 0.0
    return 1.0 if raw.get("spec") == presetmod.PRESET_SPEC else 0.8


def load_preset(data: bytes, name: str) -> ImportResult[dict[str, Any]]:
    preset, notes = presetmod.parse_bytes(data, name)
    dropped = tuple(Dropped("memory", n) for n in notes if "memory" in n)
    warnings = tuple(n for n in notes if "memory" not in n)
    carried = tuple(f"persona.{k}" for k in preset["persona"])
    return ImportResult("persona-preset", preset, ImportReport(carried, dropped, warnings))


def sniff_card(data: bytes, name: str) -> float:
    """0.6 for a V2/V3 card (JSON, PNG or CHARX), 0.5 for a V1 card, else 0. Never raises."""
    from lwcore.api import LwError, load_card

    try:
        card = load_card(data, name, assets=False)
    except LwError:
        return 0.0
    return {"tavern-v2": 0.6, "tavern-v1": 0.5}.get(tavern.detect(card.raw), 0.0)


def _source_note(report: Any) -> str:
    """Which part of the container the card came from, for the import report."""
    if report.container == "png":
        return f"read from the PNG's {report.source}"
    if report.container == "charx":
        return "read from card.json in the CHARX archive"
    return ""


def load_card(data: bytes, name: str) -> ImportResult[dict[str, Any]]:
    """A card file -> a persona preset with an itemised report; located :class:`LwError` when
    the file is no card or carries nothing this format can hold."""
    from lwcore.api import LwError, load_card as read_card

    try:
        card = read_card(data, name or None, assets=False)
    except LwError as exc:
        if exc.code == "not_a_card" and tavern.is_preset(_json(data)):
            exc.expected = "a card; this is a whale-persona preset: import it with the persona-preset importer"
        raise
    result = tavern.from_card(card.raw)
    if result is None:  # a preset shape that also passes as a card: presets win (§4.6)
        raise LwError("not a SillyTavern character card: a whale-persona preset", file=name or None,
                      expected="import it with the persona-preset importer")
    if not result.preset["persona"]:
        named = ", ".join(f for f, _ in result.unmapped) or "none"
        raise LwError("nothing to import: the card has no description, personality, scenario, usable system_prompt "
                      f"or post_history_instructions (fields not carried: {named})", file=name or None)
    source = _source_note(card.report)
    report = ImportReport(
        carried=tuple(result.mapped),
        dropped=tuple(Dropped(f, r) for f, r in result.unmapped),
        warnings=tuple(result.notes) + ((source,) if source else ()) + card.report.notes,
    )
    return ImportResult("persona-preset", result.preset, report)
