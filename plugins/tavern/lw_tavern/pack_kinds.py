"""The ``.lwpack`` content kinds this plugin reads: ``cards``, ``worldbooks``, ``presets``.

Each item is parsed by the same loader an import uses, so a pack cannot ship a card, a world
book or a preset that the table would then refuse:

- ``cards``: a SillyTavern card (V1, V2, V3; JSON, PNG or CHARX, read by the kernel's card
  reader ``lwcore.cards``) or a native ``*.lorecard.json``. The card's
  kind is detected from its payload with :func:`lw_tavern.card_split.split_card`: anything a
  person import would strip (hook scripts, variable declarations, EJS, keeper-only or
  front-end entries, SillyTavern scripts) makes it a ``world`` card, imported by a keeper;
  otherwise it is a ``character`` card. Its format and kind are stamped into the built
  manifest (with its container), its native entry ids become the pack's stable handles
  (``<pack-id>#<entry-id>``).
- ``worldbooks``: a world-info file or a ``character_book`` (all entries checked).
- ``presets``: a chat-completion preset; it lands in the shared preset library as
  ``<data_dir>/presets/<id>.json`` (the id: the file's stem made safe,
  :func:`lw_tavern.preset.preset_id`), so ``.preset list`` sees it at once; nothing applies
  until a room's keeper runs ``.preset enable <id>``. Two files that would install under one
  preset id are refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lw_tavern.ejs.lite import strip_templates
from lw_tavern.files import MAX_CARD_BYTES

from lwcore.api import JSON_LIMITS, ContentReport, LwError, LwErrors, PackItem, decode_text, load_json


def _json(item: PackItem, raw: bytes | None = None) -> tuple[Any, str, str]:
    """``(data, text, label)`` of a JSON item, read through the kernel's safe readers."""
    label = item.files.display(item.path)
    if raw is None and not item.path.lower().endswith(".json"):
        raise LwError(f"a {item.kind[:-1]} file is JSON (.json)", file=label, expected="a .json file")
    text = decode_text(raw if raw is not None else item.files.read_bytes(item.path, max_bytes=MAX_CARD_BYTES), label)
    return load_json(text, label, limits=JSON_LIMITS.with_(max_bytes=MAX_CARD_BYTES)), text, label


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _has_ejs(data: Any) -> bool:
    return any(strip_templates(s)[1] for s in _strings(data) if "<%" in s)


def validate_card(item: PackItem) -> ContentReport:
    from lwcore.api import container_of, load_card

    from lw_tavern.card_split import split_card
    from lw_tavern.lorecard import from_card, load_lorecard, sniff, to_card

    label = item.files.display(item.path)
    raw = item.files.read_bytes(item.path, max_bytes=MAX_CARD_BYTES)
    container = container_of(raw) or "unknown"
    data, text = None, None
    if container == "json":
        data, text, label = _json(item, raw)
    handles: tuple[str, ...] = ()
    typed_variables = 0
    if isinstance(data, dict) and sniff(data):
        native = load_lorecard(data, file=label, text=text)
        card, fmt = to_card(native), f"lorecard-v{native.format_version}"
        handles = tuple(e.id for e in native.worldbook if e.id)
        typed_variables = len(native.variables)
    else:
        read = load_card(raw, label, assets=False)
        from_card(read.raw, file=label, text=text)
        card, fmt = read.raw, read.spec
    split = split_card(card)
    if split.world.problems:
        raise split.world.problems[0] if len(split.world.problems) == 1 else LwErrors(split.world.problems)
    world = bool(split.report.dropped) or typed_variables > 0
    return ContentReport(
        detected={"kind": "world" if world else "character", "format": fmt, "container": container},
        handles=handles,
        hooks=bool(split.world.hooks), ejs=_has_ejs(card), world=world,
    )


def validate_worldbook(item: PackItem) -> ContentReport:
    from lw_tavern.worldbook.load import book_from_data

    data, text, label = _json(item)
    book = book_from_data(data, file=label, text=text)
    return ContentReport(detected={"entries": len(book.entries)}, ejs=any(_has_ejs(e.content) for e in book.entries))


def validate_preset(item: PackItem) -> ContentReport:
    from lw_tavern.preset import load_preset, preset_id

    data, text, label = _json(item)
    loaded = load_preset(data, file=label, text=text)
    own = preset_id(item.path)
    clash = [p for p in item.siblings if p != item.path and preset_id(p) == own]
    if clash:
        raise LwError(f"installs as preset {own!r}, like {clash[0]!r}; rename one of them", file=label, code="duplicate")
    return ContentReport(id=own, lands={item.path: f"{own}.json"}, ejs=_has_ejs(data), warnings=tuple(loaded.warnings))
