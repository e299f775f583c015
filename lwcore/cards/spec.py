"""Which card spec a JSON object follows, and where its fields are.

Recognition, newest first: ``spec: "chara_card_v3"``, then ``spec: "chara_card_v2"`` (both
wrap the fields in ``data``); without ``spec``, a ``data`` object holding card fields is read
as the V2 family (some exporters leave ``spec`` out) and said so in the notes; otherwise the
top-level object is a V1 card when it has a ``name`` and one of the V1 text fields. Anything
else is refused with the reason: a reader that guessed would import a preset, a world book
or a settings file as an empty character.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lwcore.cards.model import V1, V2, V3
from lwcore.errors import LwError

WRAPPED = (V3, V2)
V1_TEXT_FIELDS = ("description", "personality", "scenario", "first_mes", "mes_example")
NEWEST_VERSION = {V3: 3.0, V2: 2.0}
"""The ``spec_version`` this reader was written for, per spec; a larger one is noted."""

NOT_A_CARD = (
    'a character card: {"spec": "chara_card_v3" or "chara_card_v2", "data": {…}}, '
    "or a V1 card (name plus description, personality, scenario, first_mes or mes_example)"
)


def has_card_fields(obj: dict[str, Any]) -> bool:
    """``name`` is a string and at least one V1 text field is a string."""
    return isinstance(obj.get("name"), str) and any(isinstance(obj.get(f), str) for f in V1_TEXT_FIELDS)


def _type_name(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def unwrap(obj: Any, *, file: str | Path | None = None, where: str = "") -> tuple[str, str | None, dict[str, Any], list[str]]:
    """``(spec, spec_version, data, notes)`` of a parsed card object.

    Raises a located :class:`LwError` (code ``not_a_card``) when ``obj`` is no card; ``where``
    prefixes the message (the chunk or member the JSON came from).
    """
    prefix = f"{where}: " if where else ""

    def refuse(message: str) -> LwError:
        return LwError(prefix + message, file=file, expected=NOT_A_CARD, code="not_a_card")

    if not isinstance(obj, dict):
        raise refuse(f"the card is {_type_name(obj)}, not a JSON object")
    notes: list[str] = []
    spec = obj.get("spec")
    data = obj.get("data")
    if spec is not None and not isinstance(spec, str):
        raise refuse(f"'spec' is {_type_name(spec)}, not a string")
    if spec in WRAPPED:
        if not isinstance(data, dict):
            raise refuse(f"a {spec} card keeps its fields in a 'data' object; here 'data' is "
                         + ("missing" if "data" not in obj else _type_name(data)))
        version = obj.get("spec_version")
        if version is not None and not isinstance(version, str):
            notes.append(f"'spec_version' is {_type_name(version)}, not a string; ignored")
            version = None
        if isinstance(version, str) and _newer(version, NEWEST_VERSION[spec]):
            notes.append(f"spec_version {version!r} is newer than this reader knows ({NEWEST_VERSION[spec]}); "
                         "fields it does not know are kept as they are")
        return spec, version, data, notes
    if isinstance(spec, str):
        if spec.startswith("chara_card_v"):
            raise refuse(f"unknown card spec {spec!r} (this reader knows {V3} and {V2})")
        raise refuse(f"'spec' is {spec!r}: not a character card")
    if isinstance(data, dict):
        if not has_card_fields(data):
            raise refuse("no 'spec', and the 'data' object has no card fields")
        notes.append(f"no 'spec' field: read as {V2} because its fields are wrapped in 'data'")
        return V2, None, data, notes
    if has_card_fields(obj):
        return V1, None, obj, notes
    raise refuse("no 'spec', no 'data' object and no V1 card fields")


def detect_spec(obj: Any) -> str | None:
    """The spec :func:`unwrap` would report, or ``None`` when ``obj`` is no card. Never raises."""
    try:
        return unwrap(obj)[0]
    except LwError:
        return None


def _newer(version: str, known: float) -> bool:
    try:
        return float(version) > known
    except ValueError:
        return False
