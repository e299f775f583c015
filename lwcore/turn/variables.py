"""Module variables (deterministic trackers): declarations, clamped writes, per-viewer views.

The three iron rules as they apply here:

1. Every write goes through :func:`check_value`: real code converts, checks and clamps the
   value into the declared range; the model never writes state directly.
3. Keeper-only values are filtered inside the engine, by the ``variable`` document type's
   projection (:func:`lwcore.turn.projections.project_variable`); the player view's type
   (:class:`lwcore.turn.view.VariableLine`) cannot even represent a keeper-only variable.

(Iron rule 2 -- dice are rolled by the engine, never narrated -- lives in
:mod:`lwcore.turn.macros` and the check tools.)
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from lwcore.contributions import localized
from lwcore.i18n import negotiate

Kind = Literal["number", "bool", "text", "enum"]
Visibility = Literal["player", "keeper"]

ID_PATTERN = r"^[^\W\d][\w.\-]{0,63}$"
MAX_TEXT = 2000
MAX_OPTIONS = 64
_ID = re.compile(ID_PATTERN)


class VariableError(ValueError):
    """A write that cannot be made sensible by clamping (wrong type, unknown enum option)."""


class VariableDef(BaseModel):
    """One declared tracker and its current value (one entry of ``variables.yaml``).

    ``visibility`` defaults to ``keeper``: a tracker is secret unless declared otherwise.
    ``minimum``/``maximum`` bound a number; ``options`` list an enum's values; ``max_length``
    caps a text. ``labels`` are display names by locale. ``option_labels`` give an enum's
    options display labels by locale (``{薄雾: {en: Light mist}}``); the stored value is always
    the canonical option, the label is only what a reader sees. Unknown keys are preserved.
    """

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=ID_PATTERN)
    kind: Kind = "number"
    visibility: Visibility = "keeper"
    labels: dict[str, str] = Field(default_factory=dict)
    minimum: int | float | None = None
    maximum: int | float | None = None
    integer: bool = True
    options: list[str] = Field(default_factory=list, max_length=MAX_OPTIONS)
    option_labels: dict[str, dict[str, str]] = Field(default_factory=dict)
    max_length: int = Field(default=500, ge=1, le=MAX_TEXT)
    value: Any = None

    @field_validator("minimum", "maximum")
    @classmethod
    def _finite(cls, value: int | float | None) -> int | float | None:
        if value is not None and not math.isfinite(value):
            raise ValueError("bounds must be finite numbers")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> VariableDef:
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum {self.minimum} is above maximum {self.maximum}")
        if self.kind == "enum" and not self.options:
            raise ValueError("an enum variable needs options")
        unknown = [o for o in self.option_labels if o not in self.options]
        if unknown:
            raise ValueError(f"option_labels name options that are not declared: {', '.join(unknown)}")
        if self.value is None:
            object.__setattr__(self, "value", default_value(self))
        else:
            value, _ = check_value(self, self.value)
            object.__setattr__(self, "value", value)
        return self

    def label(self, locale: str) -> str:
        """The display label in ``locale`` (falling back to English, then the id)."""
        return localized(self.labels, locale) if self.labels else self.id

    def option_label(self, option: Any, locale: str) -> str:
        """How ``option`` (an enum's canonical value) reads in ``locale``: its declared label in
        that locale or its language, else the option itself (the canonical option is the
        scenario's own word, so no other language is substituted)."""
        return option_label(self.option_labels, option, locale)

    def show_value(self, value: Any, locale: str) -> str:
        """``value`` as a reader in ``locale`` sees it (an enum's option label, else the value)."""
        if self.kind == "enum" and isinstance(value, str):
            return self.option_label(value, locale)
        return _show_any(value)


def option_label(option_labels: dict[str, dict[str, str]], option: Any, locale: str) -> str:
    labels = option_labels.get(option) if isinstance(option, str) else None
    if labels:
        key = negotiate(locale, [k for k, text in labels.items() if text], "")
        if key:
            return labels[key]
    return str(option)


def _show_any(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def default_value(var: VariableDef) -> Any:
    """The value a freshly declared variable starts with."""
    if var.kind == "number":
        start = 0.0
        if var.minimum is not None and start < var.minimum:
            start = var.minimum
        if var.maximum is not None and start > var.maximum:
            start = var.maximum
        return _number(var, start)
    if var.kind == "bool":
        return False
    if var.kind == "enum":
        return var.options[0]
    return ""


def _number(var: VariableDef, value: float) -> int | float:
    if var.integer:
        return int(math.floor(value + 0.5)) if value >= 0 else -int(math.floor(-value + 0.5))
    return int(value) if float(value).is_integer() else value


_TRUE = {"true", "yes", "on", "1", "是", "真"}
_FALSE = {"false", "no", "off", "0", "否", "假"}


def check_value(var: VariableDef, raw: Any, *, exact: bool = False) -> tuple[Any, str | None]:
    """``(stored value, note)`` for writing ``raw`` into ``var`` (iron rule 1).

    Numbers are converted, rounded when ``integer`` and clamped into ``[minimum, maximum]``
    (``note`` says when a value was pulled back); texts are cut at ``max_length``; booleans
    accept true/false words. Raises :class:`VariableError` when no sensible value exists
    (not a number, an unknown enum option, NaN/infinity).

    ``exact`` is for writers whose values carry their own types (a script's ``setvar``): the
    value must already be of the variable's kind -- a number for a number, ``true``/``false``
    for a boolean, a text for a text or an option -- and nothing is converted (no numeric text
    read as a number, no ``1`` or ``"yes"`` as true); it is still clamped, rounded and cut.
    """
    if exact and not _has_kind(var, raw):
        raise VariableError(f"{var.id} is {_KIND_WORDS[var.kind]}, got {describe_value(raw)}")
    note = None
    if var.kind == "number":
        if isinstance(raw, bool):
            raise VariableError(f"{var.id} is a number, got a boolean")
        try:
            number = float(raw.strip()) if isinstance(raw, str) else float(raw)
        except (TypeError, ValueError):
            raise VariableError(f"{var.id} is a number, got {raw!r}") from None
        if not math.isfinite(number):
            raise VariableError(f"{var.id} must be a finite number")
        clamped = number
        if var.minimum is not None and clamped < var.minimum:
            clamped = var.minimum
        if var.maximum is not None and clamped > var.maximum:
            clamped = var.maximum
        value = _number(var, clamped)
        if clamped != number:
            note = f"{_show(number)} is outside [{_bound(var.minimum)}, {_bound(var.maximum)}]; clamped to {value}"
        return value, note
    if var.kind == "bool":
        if isinstance(raw, bool):
            return raw, None
        if isinstance(raw, (int, float)) and raw in (0, 1):
            return bool(raw), None
        if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE, None
        raise VariableError(f"{var.id} is true/false, got {raw!r}")
    if var.kind == "enum":
        text = str(raw).strip() if isinstance(raw, (str, int, float)) and not isinstance(raw, bool) else None
        if text is not None and text not in var.options:
            text = _option_for_label(var, text)
        if text not in var.options:
            raise VariableError(f"{var.id} must be one of {', '.join(var.options)}, got {raw!r}")
        return text, None
    if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
        raise VariableError(f"{var.id} is a text, got {type(raw).__name__}")
    text = str(raw)
    if len(text) > var.max_length:
        note = f"text cut to {var.max_length} characters"
        text = text[: var.max_length]
    return text, note


_KIND_WORDS = {"number": "a number", "bool": "true or false", "text": "a text", "enum": "an option (a text)"}


def _has_kind(var: VariableDef, raw: Any) -> bool:
    """Whether ``raw`` is already of ``var``'s kind (:func:`check_value` with ``exact``)."""
    if var.kind == "number":
        return isinstance(raw, (int, float)) and not isinstance(raw, bool)
    if var.kind == "bool":
        return isinstance(raw, bool)
    return isinstance(raw, str)


def describe_value(raw: Any) -> str:
    """``raw`` with its type, as a script author would name it."""
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return f"the boolean {'true' if raw else 'false'}"
    if isinstance(raw, (int, float)):
        return f"the number {_show(float(raw)) if isinstance(raw, float) and math.isfinite(raw) else raw}"
    if isinstance(raw, str):
        shown = raw if len(raw) <= 60 else raw[:57] + "..."
        return f"the text {shown!r}"
    return "a list" if isinstance(raw, list) else "an object" if isinstance(raw, dict) else type(raw).__name__


def _option_for_label(var: VariableDef, text: str) -> str:
    """The canonical option one of whose labels (any locale, any case) is ``text``; else ``text``."""
    key = text.casefold()
    for option, labels in var.option_labels.items():
        if any(label.strip().casefold() == key for label in labels.values()):
            return option
    return text


def _show(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _bound(bound: float | None) -> str:
    return "-inf" if bound is None else _show(bound)


def valid_id(text: str) -> bool:
    return bool(_ID.match(text))
