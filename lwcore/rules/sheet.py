"""Character sheets: owned by the kernel, shaped by a rulepack.

A :class:`Sheet` holds only what differs from the pack: a value equal to what the pack would
give anyway (its default, or the derived value computed from the other stored values) is not
stored, so a sheet follows the pack when the pack changes and exports compactly. Names are
resolved through the pack's aliases (case-insensitive, any language); a name the pack does
not know is kept as written (a custom skill). Derived values are recomputed on every change.

The file format (``lw schema sheet``) is :class:`SheetFile`; ``.st``-style text entry is
:func:`parse_st` / :meth:`Sheet.apply_st`.
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.io.atomic import atomic_write_text
from lwcore.io.models import read_document, validate_model
from lwcore.io.roundtrip import update_yaml_text
from lwcore.io.safe_yaml import Positions
from lwcore.io.text import read_text
from lwcore.rules.dice import compile_dice
from lwcore.rules.system import MAX_SPECIALTY, tight

if TYPE_CHECKING:
    import random

    from lwcore.rules.system import RuleSystem

Value = int | float | str


class SheetFile(BaseModel):
    """One character sheet on disk (YAML or JSON). Unknown keys are kept and written back."""

    model_config = ConfigDict(extra="allow", title="CharacterSheet")

    system: str = Field(description="The rule system id (or any of its names).")
    name: str = Field("", description="The character's name.")
    values: dict[str, Value] = Field(default_factory=dict,
                                     description="Canonical stat name -> value; only values that differ from the pack.")
    expressions: dict[str, str] = Field(default_factory=dict,
                                        description="Named dice expressions (`&手枪=1d6`): weapon damage and the like.")
    state: dict[str, Any] = Field(default_factory=dict,
                                  description="Flags set by subsystems (e.g. temporary insanity, death-save tallies).")


def _norm(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


class Sheet:
    """A character sheet bound to a compiled pack."""

    def __init__(self, rule_system: RuleSystem, values: Mapping[str, Any] | None = None, *, name: str = "",
                 expressions: Mapping[str, str] | None = None, state: Mapping[str, Any] | None = None,
                 extra: Mapping[str, Any] | None = None) -> None:
        self.rule_system = rule_system
        self.name = name
        self._stored: dict[str, Any] = {}
        self.expressions: dict[str, str] = dict(expressions or {})
        self.state: dict[str, Any] = dict(state or {})
        self.extra: dict[str, Any] = dict(extra or {})
        self._cache: dict[str, Any] | None = None
        for key, value in (values or {}).items():
            self._stored[self.canonical(key)] = value
        self._prune()

    @property
    def pack(self) -> RuleSystem:
        """Deprecated since lwcore.api 2.0 (removed in 3.0): :attr:`rule_system`."""
        import warnings

        warnings.warn("Sheet.pack is deprecated: use .rule_system", DeprecationWarning, stacklevel=2)
        return self.rule_system

    # --- names ----------------------------------------------------------------------------

    @property
    def system(self) -> str:
        return self.rule_system.id

    def canonical(self, name: str) -> str:
        """The pack's canonical name for ``name`` (aliases, any case); unknown names as written."""
        name = _norm(name).strip()
        canonical = self.rule_system.canonical(name) or name
        if canonical not in self._stored and self.rule_system.family(canonical) is not None:
            folded = canonical.casefold()  # a specialty is one stat whatever its case: language (latin)
            canonical = next((k for k in self._stored if k.casefold() == folded), canonical)
        return canonical

    def known(self, name: str) -> bool:
        return self.rule_system.canonical(_norm(name).strip()) is not None

    # --- values ---------------------------------------------------------------------------

    def _derived(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return self.rule_system.derive(stored) if self.rule_system.model.derived else {}

    def _values(self) -> dict[str, Any]:
        """Every value (computed once per change; not to be modified)."""
        if self._cache is None:
            out = dict(self.rule_system.model.defaults)
            out.update(self._derived(self._stored))
            out.update(self._stored)
            self._cache = out
        return self._cache

    def values(self) -> dict[str, Any]:
        """Every value: defaults, then derived (from stored values), then stored (a copy)."""
        return dict(self._values())

    def stored(self) -> dict[str, Any]:
        """Only what differs from the pack."""
        return dict(self._stored)

    def baseline(self, name: str) -> Any:
        """What ``name`` would be if it were not stored (its derived value or default), else None."""
        canonical = self.canonical(name)
        if canonical not in self.rule_system.model.derived:
            return self.rule_system.default(canonical)
        rest = {k: v for k, v in self._stored.items() if k != canonical}
        derived = self._derived(rest)
        if canonical in derived:
            return derived[canonical]
        return self.rule_system.default(canonical)

    def get(self, name: str, default: Any = None) -> Any:
        """``name``'s value (any alias): stored, else derived, else the pack's default (a
        specialty's: its family's), else ``default``."""
        canonical = self.canonical(name)
        values = self._values()
        if canonical in values:
            return values[canonical]
        base = self.rule_system.default(canonical)
        return default if base is None else base

    def __getitem__(self, name: str) -> Any:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def set(self, name: str, value: Any, *, prune: bool = True) -> str:
        """Set ``name`` (any alias); returns the canonical name. A value equal to the pack's is
        not stored; derived values follow. (``prune=False`` defers that to :meth:`prune`, for
        many sets in a row.)"""
        canonical = self.canonical(name)
        self._stored[canonical] = value
        self._cache = None
        if prune:
            self._prune()
        return canonical

    def prune(self) -> None:
        self._prune()

    def delete(self, name: str) -> bool:
        canonical = self.canonical(name)
        found = canonical in self._stored
        self._stored.pop(canonical, None)
        self.expressions.pop(_norm(name).strip(), None)
        self._cache = None
        self._prune()
        return found

    def clear(self) -> None:
        self._stored.clear()
        self.expressions.clear()
        self.state.clear()
        self._cache = None

    def _prune(self) -> None:
        """Drop stored values that equal what the pack would give anyway (repeat: a derived
        value can depend on another stored one)."""
        for _ in range(len(self._stored) + 1):
            dropped = False
            for key in list(self._stored):
                base = self.baseline(key)
                if base is not None and _same(base, self._stored[key]):
                    del self._stored[key]
                    dropped = True
            if not dropped:
                break
        self._cache = None

    # --- resources ------------------------------------------------------------------------

    def resources(self, locale: str = "en") -> list[dict[str, Any]]:
        """The pack's bars for one viewer: ``{id, label, value, max}`` with the label in ``locale``."""
        sheet = self.rule_system.model.sheet
        if sheet is None:
            return []
        values = self._values()
        out = []
        for res in sheet.resources:
            label = res.label if isinstance(res.label, str) else localized(res.label, locale)
            out.append({"id": res.id, "label": label, "stat": res.value, "value": values.get(res.value) if res.value else None,
                        "max": values.get(res.max) if res.max else None, "max_stat": res.max})
        return out

    def resource(self, name: str) -> tuple[str | None, str | None] | None:
        """``(value_stat, max_stat)`` of the resource whose id, value or max is ``name``."""
        sheet = self.rule_system.model.sheet
        if sheet is None:
            return None
        canonical = self.canonical(name)
        folded = _norm(name).strip().casefold()
        for res in sheet.resources:
            if res.id.casefold() == folded or res.value == canonical:
                return res.value, res.max
        return None

    def adjust(self, name: str, delta: int, *, floor: int | None = None, clamp_max: bool = False) -> tuple[Any, Any]:
        """Add ``delta`` to a numeric value; returns ``(before, after)``."""
        before = self.get(name)
        if before is None:
            before = 0
        if not isinstance(before, (int, float)) or isinstance(before, bool):
            raise LwError(f"{name} is not a number ({before!r})")
        after = before + delta
        if floor is not None:
            after = max(floor, after)
        if clamp_max:
            res = self.resource(name)
            if res and res[1]:
                top = self.get(res[1])
                if isinstance(top, (int, float)):
                    after = min(after, top)
        self.set(name, after)
        return before, after

    # --- files & text ---------------------------------------------------------------------

    def copy(self) -> Sheet:
        """An independent sheet with the same name, values, expressions, state and other keys."""
        return Sheet(self.rule_system, self._stored, name=self.name, expressions=self.expressions,
                     state=copy.deepcopy(self.state), extra=copy.deepcopy(self.extra))

    def to_file(self) -> SheetFile:
        return SheetFile(system=self.rule_system.id, name=self.name, values=dict(self._stored),
                         expressions=dict(self.expressions), state=dict(self.state), **self.extra)

    def to_json(self) -> dict[str, Any]:
        return self.to_file().model_dump(mode="json")

    @classmethod
    def from_file(cls, pack: RuleSystem, data: SheetFile | Mapping[str, Any], *, file: str | Path | None = None,
                  positions: Positions | None = None) -> Sheet:
        """A sheet from its file's data. A value written as text where the pack's stat is a
        number (``STR: "50"``) is refused, located when ``positions`` are given."""
        model = data if isinstance(data, SheetFile) else validate_model(SheetFile, dict(data), file=file, strict=True)
        for name, value in model.values.items():
            canonical = pack.canonical(_norm(name).strip()) or name
            default = pack.model.defaults.get(canonical)
            if isinstance(value, str) and isinstance(default, (int, float)) and not isinstance(default, bool):
                pos = positions.find(("values", name)) if positions is not None else None
                raise LwError(f"values.{name}: {value!r} is text, but {canonical} is a number in {pack.id}",
                              file=(pos.file if pos and pos.file else file), line=pos.line if pos else None,
                              column=pos.column if pos else None, expected="a number without quotes",
                              code="invalid")
        return cls(pack, model.values, name=model.name, expressions=model.expressions, state=model.state,
                   extra=model.model_extra or {})

    def export(self) -> str:
        """An ``.st`` line that recreates this sheet (stored values and expressions)."""
        parts = [f"{k}{_fmt(v)}" for k, v in self._stored.items()]
        parts += [f"&{k}={v}" for k, v in self.expressions.items()]
        return ".st " + " ".join(parts) if parts else ".st"

    def show(self, names: list[str] | None = None, locale: str = "en") -> str:
        """Readable lines: the pack's ``st_show.top`` first (or the given names), then the rest
        that differs from the defaults."""
        values = self._values()
        if names:
            picked = [self.canonical(n) for n in names]
        else:
            top = [n for n in self.rule_system.model.st_show.get("top", []) if n in values]
            picked = top + [k for k in self._stored if k not in top]
        per_line = int(self.rule_system.model.st_show.get("itemsPerLine", 4) or 4)
        cells = [f"{self.rule_system.display_name(n, locale)}:{_fmt(values.get(n, '?'))}" for n in picked]
        cells += [f"&{k}={v}" for k, v in self.expressions.items() if not names]
        lines = [" ".join(cells[i:i + per_line]) for i in range(0, len(cells), per_line)]
        return "\n".join(lines)

    def apply_st(self, text: str, *, rng: random.Random | None = None, locale: str = "en") -> StResult:
        """Apply ``.st`` text (see :func:`parse_st`)."""
        return apply_ops(self, parse_st(text, self.rule_system), rng=rng, locale=locale)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return str(a) == str(b)


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_sheet_file(path: str | Path, *, system: str | None = None) -> tuple[SheetFile, Positions | None]:
    """Read a sheet file (``.json``, else YAML) and its positions; ``system`` fills a missing
    ``system:``. Located :class:`LwError` on bad input; strict: ``STR: true`` is refused, never
    read as a number."""
    data, positions = read_document(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise LwError("a sheet is a mapping (system:, values:, …)", file=str(path), line=1)
    if system is not None:
        data.setdefault("system", system)
    return validate_model(SheetFile, data, file=path, positions=positions, strict=True), positions


def load_sheet_file(path: str | Path) -> SheetFile:
    """Read a sheet file (``.json``, else YAML): :func:`read_sheet_file` without positions."""
    return read_sheet_file(path)[0]


def load_sheet(path: str | Path, pack: RuleSystem) -> Sheet:
    """A sheet file of ``pack``'s system as a :class:`Sheet` (``system:`` may be left out);
    every value checked against the pack, located."""
    model, positions = read_sheet_file(path, system=pack.id)
    if not pack.is_a(model.system):
        raise LwError(f"this sheet is for rule system {model.system!r}, not {pack.id!r}", file=str(path))
    return Sheet.from_file(pack, model, file=path, positions=positions)


def save_sheet_file(path: str | Path, sheet: Sheet) -> None:
    """Write a sheet file (``.json`` as JSON, else YAML keeping the file's comments)."""
    path = Path(path)
    data = sheet.to_json()
    if path.suffix.lower() == ".json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    else:
        old = read_text(path) if path.is_file() else ""
        text = update_yaml_text(old, data)
    atomic_write_text(path, text)


# --- .st text entry ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class StOp:
    """One parsed ``.st`` operation.

    ``kind``: ``set`` (name, value), ``set_max`` (name, value, max), ``adjust`` (name, sign, expr),
    ``expr`` (name, expr), ``show`` / ``del`` (names), ``clr``, ``export``.
    """

    kind: str
    name: str = ""
    value: Any = None
    expr: str = ""
    names: tuple[str, ...] = ()


@dataclass
class StResult:
    ops: list[StOp]
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    output: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ops": [{"kind": o.kind, "name": o.name, "value": o.value, "expr": o.expr, "names": list(o.names)}
                    for o in self.ops],
            "changes": {k: list(v) for k, v in self.changes.items()},
            "rolls": self.rolls,
            "output": self.output,
        }


_SEP = " \t\r\n,;|:=、，；：。"
_NUM = re.compile(r"-?\d+(?:\.\d+)?")
# a dice/arithmetic expression: dice terms need a digit, % or F right after the d, so names
# like dex, dc, db after an expression are never read as dice
_TERM = r"(?:\d*[dD](?:\d+|%|[fF](?![A-Za-z]))(?:(?:kh|kl|dh|dl|k)\d+)?!?|\d+)"
_DICE = re.compile(rf"\(?{_TERM}\)?(?:\s*[-+*/x×]\s*\(?{_TERM}\)?)*")
_KEYWORDS = ("show", "list", "del", "rm", "clr", "clear", "export")
_UNKNOWN_NAME = re.compile(r"[^\d+\-&" + re.escape(_SEP) + "]*")
_SPECIALISED_SPAN = 2 * MAX_SPECIALTY + 40
# FAMILY(SPECIALTY) at a position: a name (words, no digit, sign or separator but spaces) and
# one bracketed specialty (NFKC made full-width brackets ASCII before this is read)
_SPECIALISED_AT = re.compile(r"[^\d+\-&()" + re.escape(_SEP) + r"]+(?:[ \t]+[^\d+\-&()" + re.escape(_SEP)
                             + r"]+)*[ \t]*\([^()\d+\-&" + re.escape(_SEP.replace(" ", "")) + r"]{1,%d}\)" % MAX_SPECIALTY)


def _name_pattern(pack: RuleSystem) -> tuple[re.Pattern[str], dict[str, str]]:
    """Every known name (casefolded) in one pattern, longest first; an ASCII name must not stop
    in the middle of a longer ASCII word ("str" in "strength"). Built once per loaded pack."""
    cached = pack.cache.get("st_names")
    if cached is None:
        table: dict[str, str] = {}
        for word, canonical in pack.aliases.items():
            folded = _norm(word).casefold()
            if folded:
                table.setdefault(folded, canonical)
        words = sorted(table, key=len, reverse=True)
        alternatives = "|".join(re.escape(w) + ("(?![A-Za-z])" if w[-1].isascii() and w[-1].isalpha() else "")
                                for w in words)
        cached = (re.compile(alternatives or "(?!)"), table)
        pack.cache["st_names"] = cached
    return cached


def match_name(text: str, pos: int, pack: RuleSystem, folded: str | None = None) -> tuple[str, int] | None:
    """The longest known stat name (alias, any case) starting at ``pos``: (canonical, end);
    ``folded`` is ``text.casefold()`` when the caller has it."""
    pattern, table = _name_pattern(pack)
    m = pattern.match(text.casefold() if folded is None else folded, pos)
    return (table[m.group(0)], m.end()) if m is not None else None


def read_name(text: str, pos: int, pack: RuleSystem, folded: str | None = None) -> tuple[str, int, bool] | None:
    """A stat name at ``pos``: ``(name, end, known)``. The longest known name wins, unless a
    longer unknown name runs straight into a value (``潜水艇驾驶40`` is not ``潜水``). A
    specialised name the pack knows (``Language (Latin)``, ``格斗（斗殴）``:
    :meth:`~lwcore.rules.system.RuleSystem.canonical`) is read whole, spaces and all."""
    special = _SPECIALISED_AT.match(text[pos:pos + _SPECIALISED_SPAN])  # bounded: a reason is read word by word
    if special is not None:
        canonical = pack.canonical(special.group(0))
        end = pos + special.end()
        if canonical is not None:
            return canonical, end, True
        after = len(text) - len(text[end:].lstrip(" \t"))
        if after < len(text) and text[after].isdigit():  # an unknown one, as written, runs into its value
            return tight(special.group(0)), end, False
    hit = match_name(text, pos, pack, folded)
    run = _unknown_name(text, pos)
    if hit is not None and (hit[1] >= run or run >= len(text) or not text[run].isdigit()):
        return hit[0], hit[1], True
    if run > pos:
        return text[pos:run].strip(), run, False
    return None


def _unknown_name(text: str, pos: int) -> int:
    """End of an unknown name: up to a digit, a sign, a separator, & or the end."""
    return _UNKNOWN_NAME.match(text, pos).end()  # type: ignore[union-attr]  # the pattern matches the empty string, so it always matches


def parse_st(text: str, pack: RuleSystem) -> list[StOp]:
    """Parse ``.st`` text into operations. Raises :class:`LwError` at the offending column.

    Forms: ``力量50敏捷60`` / ``str:50 dex=60`` (set), ``hp-1d3`` / ``san+5`` (adjust by a dice
    expression), ``hp10/12`` (a resource's value and max), ``&手枪=1d6`` (a named expression),
    ``show [names]``, ``del names``, ``clr``, ``export``. Known names win by longest match, so
    names containing digits or a ``d`` (dex, dc) are names, never dice.
    """
    text = _norm(text).strip()
    for prefix in (".st", "/st", "st "):
        if text.casefold().startswith(prefix):
            text = text[len(prefix):]
            break
    text = text.strip()
    low = text.casefold()
    word = low.split(maxsplit=1)[0] if low else ""
    rest = text[len(word):].strip() if word else ""
    if word in _KEYWORDS:
        names = tuple(n for n in re.split(r"[\s,，、]+", rest) if n)
        if word in ("show", "list"):
            return [StOp("show", names=names)]
        if word in ("del", "rm"):
            if not names:
                raise LwError("del needs names", expected="del 力量 敏捷")
            return [StOp("del", names=names)]
        if rest:
            raise LwError(f"{word} takes nothing after it", column=len(word) + 1)
        return [StOp("clr" if word in ("clr", "clear") else "export")]
    ops: list[StOp] = []
    pos = 0
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in _SEP:
            pos += 1
            continue
        if c == "&":
            start = pos + 1
            eq = text.find("=", start)
            if eq < 0:
                raise LwError("&NAME=EXPR needs an '='", column=pos + 1, expected="&手枪=1d6")
            name = text[start:eq].strip()
            end = eq + 1
            while end < n and text[end] not in " \t,，;；&":
                end += 1
            expr = text[eq + 1:end].strip()
            if not name or not expr:
                raise LwError("&NAME=EXPR needs a name and an expression", column=pos + 1, expected="&手枪=1d6")

            try:
                compile_dice(expr)
            except LwError as exc:
                raise LwError(f"&{name}: {exc.message}", column=eq + 2) from None
            ops.append(StOp("expr", name=name, expr=expr))
            pos = end
            continue
        got = read_name(text, pos, pack)
        if got is None:
            raise LwError(f"expected a name at {text[pos:pos + 10]!r}", column=pos + 1, expected="NAME VALUE, e.g. 力量50")
        name, end, _known = got
        pos = end
        while pos < n and text[pos] in " \t:=：":
            pos += 1
        if pos < n and text[pos] in "+-":  # after a name a sign always adjusts (the community's reading)
            sign = text[pos]
            m = _DICE.match(text, pos + 1)
            if m is None or not m.group(0):
                raise LwError(f"{name}{sign}: expected a number or dice", column=pos + 2, expected=f"{name}{sign}1d6")
            ops.append(StOp("adjust", name=name, value=sign, expr=m.group(0).replace(" ", "")))
            pos = m.end()
            continue
        m = _NUM.match(text, pos)
        if m is None:
            raise LwError(f"{name}: expected a value", column=pos + 1, expected=f"{name}50")
        number = float(m.group(0)) if "." in m.group(0) else int(m.group(0))
        pos = m.end()
        if pos < n and text[pos] == "/" and pos + 1 < n and text[pos + 1].isdigit():
            m2 = _NUM.match(text, pos + 1)
            assert m2 is not None
            ops.append(StOp("set_max", name=name, value=(number, int(m2.group(0)))))
            pos = m2.end()
            continue
        ops.append(StOp("set", name=name, value=number))
    return ops


def apply_ops(sheet: Sheet, ops: list[StOp], *, rng: random.Random | None = None, locale: str = "en") -> StResult:

    result = StResult(ops)
    pending: dict[str, Any] = {}  # plain sets in a row are pruned once, then reported
    snapshot: dict[str, Any] = {}

    def flush() -> None:
        if pending:
            sheet.prune()
            for key, before in pending.items():
                result.changes[key] = (before, sheet.get(key))
            pending.clear()

    for op in ops:
        if op.kind != "set":
            flush()
        if op.kind == "set":
            canonical = sheet.canonical(op.name)
            if not pending:
                snapshot.clear()
                snapshot.update(sheet.values())
            if canonical not in pending:
                pending[canonical] = snapshot.get(canonical)
            sheet.set(canonical, op.value, prune=False)
            continue
        elif op.kind == "set_max":
            value, top = op.value
            res = sheet.resource(op.name)
            if res is None or res[0] is None or res[1] is None:
                raise LwError(f"{op.name}: not a resource with a maximum", expected=f"{op.name}{value}")
            before_max = sheet.get(res[1])
            sheet.set(res[1], top)
            result.changes[res[1]] = (before_max, sheet.get(res[1]))
            before = sheet.get(res[0])
            sheet.set(res[0], value)
            result.changes[res[0]] = (before, sheet.get(res[0]))
        elif op.kind == "adjust":
            rolled = compile_dice(op.expr).roll(rng)
            delta = rolled.total if op.value == "+" else -rolled.total
            before, after = sheet.adjust(op.name, delta)
            canonical = sheet.canonical(op.name)
            result.changes[canonical] = (before, after)
            result.rolls.append({"name": canonical, "expr": op.expr, "total": rolled.total, "faces": rolled.faces})
        elif op.kind == "expr":
            sheet.expressions[op.name] = op.expr
            result.changes["&" + op.name] = (None, op.expr)
        elif op.kind == "del":
            for name in op.names:
                before = sheet.get(name)
                if name in sheet.expressions:
                    sheet.expressions.pop(name)
                    result.changes["&" + name] = (sheet.expressions.get(name), None)
                    continue
                if sheet.delete(name):
                    canonical = sheet.canonical(name)
                    result.changes[canonical] = (before, sheet.get(canonical))
        elif op.kind == "clr":
            for key, value in sheet.stored().items():
                result.changes[key] = (value, sheet.baseline(key))
            sheet.clear()
        elif op.kind == "show":
            result.output.append(sheet.show(list(op.names) or None, locale=locale))
        elif op.kind == "export":
            result.output.append(sheet.export())
    flush()
    return result
