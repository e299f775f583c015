"""Reading the JSON files this plugin accepts, with errors located by line and column.

Every file goes through the kernel's safe JSON reader (size, depth, no ``NaN``, duplicate keys
refused). Validation errors name the file, the line and column of the offending value and the
path inside the document: positions come from reading the same text again with the kernel's
position-tracking YAML reader (JSON is YAML), which is only done when something is wrong, so a
good 10 MB world book is never parsed twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lwcore.api import JSON_LIMITS, LwError, LwErrors, decode_text, load_json, load_yaml, read_bytes

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")
MAX_CARD_BYTES = 32 * 1024 * 1024


def read_json_file(path: str | Path, warnings: list[str] | None = None) -> tuple[Any, str]:
    """``(data, text)`` of a JSON file (text kept for locating later errors), read as SillyTavern
    reads one: bytes that are not UTF-8 become U+FFFD, a lone surrogate escape too, each noted
    in ``warnings`` when given."""
    raw = read_bytes(path, max_bytes=MAX_CARD_BYTES)
    text = decode_lenient(raw, path, warnings)
    notes: list[str] = []
    data = load_json(text, path, limits=JSON_LIMITS.with_(max_bytes=MAX_CARD_BYTES), surrogates=notes)
    if warnings is not None:
        warnings += notes
    return data, text


def decode_lenient(raw: bytes, path: str | Path, warnings: list[str] | None = None) -> str:
    """UTF-8 text of ``raw`` (a byte-order mark dropped); a byte that is not UTF-8 (a cp1252 ``é``
    in a preset saved by another editor) is read as U+FFFD, as SillyTavern's reader does, and
    noted in ``warnings``."""
    try:
        return decode_text(raw, path)
    except LwError as exc:
        if exc.code != "encoding":
            raise
        first = exc.byte
    text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - raw.count(b"\xef\xbf\xbd")
    if warnings is not None:
        warnings.append(f"{bad} byte sequence(s) that are not UTF-8 read as U+FFFD (the first at byte {first})"
                        if first is not None else f"{bad} byte sequence(s) that are not UTF-8 read as U+FFFD")
    return text


def positions_of(text: str | None, file: str | Path | None) -> Any:
    """The kernel's :class:`Positions` for a JSON text, or ``None`` if it cannot be had."""
    if not text:
        return None
    try:
        return load_yaml(text, file, positions=True)[1]
    except LwError:
        return None


def validate(
    model: type[M],
    data: Any,
    *,
    file: str | Path | None = None,
    text: str | None = None,
    at: Sequence[Any] = (),
    rename: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None,
    context: dict[str, Any] | None = None,
) -> M:
    """``model`` validated strictly from ``data``; failures are located :class:`LwError`\\ s.

    ``at`` is where ``data`` sits in the file (a path of keys and indexes); ``rename`` maps a
    pydantic location of the model back to the path in the file when the data was reshaped
    before validation (a card entry's ``keys`` validated as ``key``).
    """
    from pydantic import ValidationError

    try:
        return model.model_validate(data, strict=True, context=context)
    except ValidationError as exc:
        positions = positions_of(text, file)
        problems: list[LwError] = []
        for error in exc.errors(include_url=False):
            loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-union"))))
            loc = rename(loc) if rename else loc
            path = (*at, *loc)
            where = _show_path(path)
            pos = positions.find(path) if positions is not None else None
            message = f"{where}: {error['msg']}"
            if error["type"] != "missing" and not isinstance(error.get("input"), (dict, list)):
                shown = repr(error.get("input"))
                message += f" (got {shown if len(shown) <= 60 else shown[:57] + '...'})"
            problems.append(LwError(message, file=file, line=pos.line if pos else None,
                                    column=pos.column if pos else None, code="invalid"))
        raise (problems[0] if len(problems) == 1 else LwErrors(problems)) from None


def _show_path(path: Sequence[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def located(message: str, *, file: str | Path | None, text: str | None, path: Sequence[Any], code: str = "invalid",
            expected: str | None = None) -> LwError:
    """An :class:`LwError` about the value at ``path`` in a JSON file."""
    positions = positions_of(text, file)
    pos = positions.find(list(path)) if positions is not None else None
    return LwError(f"{_show_path(path)}: {message}", file=file, line=pos.line if pos else None,
                   column=pos.column if pos else None, code=code, expected=expected)
