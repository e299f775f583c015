"""``table`` (also ``random_madness``, ``table_draw``): roll on a declared table.

Keys: ``tables: {NAME: {roll, entries, first, duration, unit, aliases}}`` -- ``roll`` (dice,
default: one die per entry), ``entries`` (text, or ``{locale: text}`` each; the roll picks entry
``roll - first``), ``first`` (the roll of the first entry, default 1), ``duration`` (dice),
``unit`` (text or a locale map) and ``aliases`` (other words naming the table). ``default``
names the table used when none is asked for (else the first). A table may also be just its dice
expression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.rules.diagnostics import did_you_mean
from lwcore.rules.dice import compile_dice
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult, ToolArgument, drawer, roll_record
from lwcore.rules.render import word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem
    from lwcore.rules.tool_calls import SubsystemToolCall

TABLE_KEYS = {"roll": "dice", "entries": "the rows", "first": "the roll of the first row",
              "duration": "dice for how long", "unit": "the duration's unit", "label": "its name",
              "display": "its name per locale", "aliases": "other words naming it"}


def table_named(tables: Mapping[str, Any], word: str | None, default: Any = None) -> str | None:
    """The table ``word`` names (its name or one of its ``aliases``, any case); with no word,
    ``default`` or the first table; ``None`` for a word no table answers to."""
    if word is None:
        return str(default) if default in tables else next(iter(tables), None)
    if word in tables:
        return word
    folded = word.casefold()
    for name, tab in tables.items():
        words = [name, *(tab.get("aliases") or [] if isinstance(tab, Mapping) else [])]
        if any(str(w).casefold() == folded for w in words):
            return name
    return None


def _rolled(expr: Any, draw: Any, what: str) -> Any:
    try:
        return compile_dice(str(expr)).evaluate(draw)
    except LwError as exc:
        raise SubsystemError(f"{what}: {exc.message}", expected=exc.expected) from None


def _text(value: Any, locale: str) -> Any:
    if isinstance(value, Mapping):
        return localized({str(k): str(v) for k, v in value.items()}, locale)
    return value


class Table(SubsystemKind):
    name = "table"
    aliases = ("random_madness", "table_draw")
    summary = "a roll on a declared table"
    keys = {"tables": "NAME -> {roll, entries, first, duration, unit, aliases}",
            "default": "the table used when none is named"}
    tool_arguments = {"table": ToolArgument(str, "which table (default: the pack's)")}

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        tables = data.get("tables")
        if not isinstance(tables, Mapping) or not tables:
            check.error("tables: needs at least one table", path, expected="tables: {NAME: {roll, entries}}")
            return
        if data.get("default") is not None and data["default"] not in tables:
            check.error(f"default names no table{did_you_mean(str(data['default']), tables)}", (*path, "default"),
                        expected="one of: " + ", ".join(map(str, tables)))
        for tname, tab in tables.items():
            tpath = (*path, "tables", tname)
            if isinstance(tab, str):
                check.dice(tab, tpath)
                continue
            if not isinstance(tab, Mapping):
                check.error("a table is a dice expression or {roll, entries, duration, unit}", tpath)
                continue
            if "roll" in tab:
                check.dice(tab["roll"], (*tpath, "roll"))
            if tab.get("duration") is not None:
                check.dice(tab["duration"], (*tpath, "duration"))
            if not isinstance(tab.get("entries", []), list):
                check.error("entries is a list", (*tpath, "entries"))
            check.integer(tab, "first", tpath)
            for key in tab:
                if key not in TABLE_KEYS:
                    check.unknown_key(key, tpath, TABLE_KEYS)

    def run(self, pack: RuleSystem, data: Mapping[str, Any], sheet: Sheet | None, *, name: str,
            table_name: str | None = None, rng: random.Random | None = None, locale: str = "en",
            faces: Sequence[int] | None = None) -> SubsystemResult:
        tables = data.get("tables") or {}
        if not tables:
            raise SubsystemError(f"{pack.id}: subsystems.{name} declares no tables")
        found = table_named(tables, table_name, data.get("default"))
        if found is None:
            raise SubsystemError(f"no table {table_name!r}", expected="one of: " + ", ".join(tables))
        table_name = found
        tab = tables[table_name]
        if isinstance(tab, str):
            tab = {"roll": tab}
        draw = drawer(rng, faces)
        first = _rolled(tab.get("roll", f"1d{len(tab.get('entries') or ()) or 10}"), draw,
                        f"table {table_name}")
        rolls = [roll_record(first)]
        entries = tab.get("entries") or []
        entry: Any = None
        if entries:
            index = max(0, min(len(entries) - 1, first.total - int(tab.get("first", 1))))
            entry = _text(entries[index], locale)
        values: dict[str, Any] = {"table": table_name, "roll": first.total, "entry": entry}
        if tab.get("duration"):
            lasting = _rolled(tab["duration"], draw, f"table {table_name} duration")
            rolls.append(roll_record(lasting))
            values["duration"] = lasting.total
            values["unit"] = str(_text(tab.get("unit", ""), locale))
        return SubsystemResult(pack.id, name, self.name, table_name, None, values=values, rolls=rolls)

    def render(self, pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
        v = result.values
        line = f"{v['table']}: {v['roll']}"
        if v.get("entry"):
            line += f" {v['entry']}"
        if v.get("duration") is not None:
            line += f" ({word(pack, 'duration', locale)} {v['duration']} {v.get('unit', '')})".rstrip()
        return line

    def command(self, call: CommandCall) -> SubsystemResult:
        return call.run(table_name=call.fixed.get("table"), locale=call.locale, faces=call.faces)

    def tool(self, call: SubsystemToolCall) -> SubsystemResult:
        return call.run(table_name=call.given.get("table"), locale=call.locale)

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["table " + "|".join(str(t) for t in (data.get("tables") or {}))]


KIND = Table()
