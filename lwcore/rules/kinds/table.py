"""``table`` (also ``random_madness``): roll on a declared table.

Keys: ``tables: {NAME: {roll, entries, first, duration, unit}}`` -- ``roll`` (dice, default
``1d10``), ``entries`` (text, or ``{locale: text}`` each; the roll picks entry ``roll - first``),
``first`` (the roll of the first entry, default 1), ``duration`` (dice) and ``unit`` (text or a
locale map). A table may also be just its dice expression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.rules.dice import compile_dice
from lwcore.rules.kinds.base import SubsystemError, SubsystemKind, SubsystemResult, drawer, roll_record
from lwcore.rules.render import word

if TYPE_CHECKING:
    import random

    from lwcore.rules.commands import CommandCall
    from lwcore.rules.packcheck import PackChecker
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

TABLE_KEYS = {"roll": "dice", "entries": "the rows", "first": "the roll of the first row",
              "duration": "dice for how long", "unit": "the duration's unit", "label": "its name"}


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
    aliases = ("random_madness",)
    summary = "a roll on a declared table"
    keys = {"tables": "NAME -> {roll, entries, first, duration, unit}"}
    tool_arguments = frozenset({"table"})

    def validate(self, data: Mapping[str, Any], check: PackChecker, path: tuple[Any, ...]) -> None:
        tables = data.get("tables")
        if not isinstance(tables, Mapping) or not tables:
            check.error("tables: needs at least one table", path, expected="tables: {NAME: {roll, entries}}")
            return
        for tname, tab in tables.items():
            tpath = (*path, "tables", tname)
            if isinstance(tab, str):
                check.dice(tab, tpath)
                continue
            if not isinstance(tab, Mapping):
                check.error("a table is a dice expression or {roll, entries, duration, unit}", tpath)
                continue
            check.dice(tab.get("roll", "1d10"), (*tpath, "roll"))
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
        if table_name is None:
            table_name = next(iter(tables))
        if table_name not in tables:
            raise SubsystemError(f"no table {table_name!r}", expected="one of: " + ", ".join(tables))
        tab = tables[table_name]
        if isinstance(tab, str):
            tab = {"roll": tab}
        draw = drawer(rng, faces)
        first = _rolled(tab.get("roll", "1d10"), draw, f"table {table_name}")
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

    def from_tool(self, subsystem: str, given: Mapping[str, Any], locale: str) -> dict[str, Any]:
        return {"table_name": given.get("table"), "locale": locale}

    def uses(self, pack: RuleSystem, data: Mapping[str, Any], locale: str) -> list[str]:
        return ["table " + "|".join(str(t) for t in (data.get("tables") or {}))]


KIND = Table()
