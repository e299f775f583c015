"""Reading a card file: the container recognised by its first bytes, the card JSON parsed
with the project's JSON limits, the spec detected and the assets linked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lwcore.cards import charx, png
from lwcore.cards.assets import CHARX_SCHEME, PNG_SCHEME, link
from lwcore.cards.limits import CARD_LIMITS, Budget, CardLimits
from lwcore.cards.model import Card, ContainerReport
from lwcore.cards.spec import unwrap
from lwcore.errors import LwError
from lwcore.io.safe_json import load_json
from lwcore.io.text import describe_size, read_bytes

CONTAINERS = ("json", "png", "charx")
EXPECTED = "a character card: JSON, a card PNG, or a CHARX archive"
_JSON_START = (b"{", b"[")


def container_of(data: bytes) -> str | None:
    """``png``, ``charx`` or ``json`` by the first bytes (PNG signature, zip header, ``{`` or
    ``[`` after an optional byte-order mark and whitespace); ``None`` for anything else."""
    if data.startswith(png.PNG_SIGNATURE):
        return "png"
    if data.startswith(charx.ZIP_MAGIC):
        return "charx"
    head = data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
    return "json" if head.startswith(_JSON_START) else None


def load_card(data: bytes, name: str | Path | None = None, *, assets: bool = True,
              limits: CardLimits = CARD_LIMITS, surrogates: list[str] | None = None) -> Card:
    """Read a card from ``data`` (the bytes of a JSON, PNG or CHARX file named ``name``).

    ``assets=False`` skips decoding embedded files (every entry is still checked). Every
    failure is a :class:`LwError` naming the file and, as it applies, the line and column
    (JSON), the byte offset and chunk (PNG) or the archive member (CHARX); ``code`` is one of
    ``not_a_card``, ``syntax``, ``encoding``, ``value``, ``limit``, ``corrupt``,
    ``unsafe_path``, ``duplicate``, ``unsupported``.

    ``surrogates``: a list to read lone surrogate escapes as U+FFFD, noting it there (as
    :func:`lwcore.io.safe_json.load_json`), instead of refusing the card.
    """
    file = str(name) if name is not None else None
    if len(data) > limits.max_file_bytes:
        raise LwError(f"the file is larger than the {describe_size(limits.max_file_bytes)} limit for a card",
                      file=file, code="limit")
    kind = container_of(data)
    budget = Budget(limits.max_total_bytes)
    notes: list[str] = []
    found: dict[str, bytes] = {}
    scheme = ""
    if kind == "json":
        obj = load_json(data, file, limits=limits.json, surrogates=surrogates)
        source = "file"
        spec, version, fields, spec_notes = unwrap(obj, file=file)
    elif kind == "png":
        got = png.read(data, file, limits, budget, assets=assets)
        source = got.chunk.where
        obj = _inner_json(got.payload, file, f"{source}: the card JSON", byte=got.chunk.offset, limits=limits,
                          surrogates=surrogates)
        spec, version, fields, spec_notes = unwrap(obj, file=file, where=source)
        notes += got.notes
        found, scheme = got.assets, PNG_SCHEME
    elif kind == "charx":
        zipped = charx.read(data, file, limits, budget, assets=assets)
        source = charx.CARD_MEMBER
        inner = f"{file}!/{charx.CARD_MEMBER}" if file else charx.CARD_MEMBER
        obj = load_json(zipped.payload, inner, limits=limits.json, surrogates=surrogates)
        spec, version, fields, spec_notes = unwrap(obj, file=inner)
        found, scheme = zipped.assets, CHARX_SCHEME
    else:
        raise LwError(f"not a card file: it starts with {data[:8]!r}, not JSON, a PNG signature or a zip header",
                      file=file, byte=0, code="not_a_card", expected=EXPECTED)
    linked, link_notes = link(fields, found, scheme) if scheme else ((), [])
    report = ContainerReport(kind, source, tuple(notes + spec_notes + link_notes))
    return Card(spec, version, fields, obj, linked, report, file)


def read_card(path: str | Path, *, assets: bool = True, limits: CardLimits = CARD_LIMITS) -> Card:
    """:func:`load_card` of a file, read through :func:`lwcore.io.read_bytes` (size bound first)."""
    return load_card(read_bytes(path, max_bytes=limits.max_file_bytes), path, assets=assets, limits=limits)


def _inner_json(payload: bytes, file: str | None, where: str, *, byte: int, limits: CardLimits,
                surrogates: list[str] | None = None) -> Any:
    """JSON decoded from inside a container: its own line/column go into the message, the
    error's location is the file and the byte where the container holds it."""
    try:
        return load_json(payload, None, limits=limits.json, surrogates=surrogates)
    except LwError as exc:
        at = f" (line {exc.line}, column {exc.column})" if exc.line is not None else ""
        raise LwError(f"{where}{at}: {exc.message}", file=file, byte=byte, code=exc.code, expected=exc.expected) from None
