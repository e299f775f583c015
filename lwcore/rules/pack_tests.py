"""A rulepack's own test table (``tests:``), run by ``lw rulepack test`` and ``validate``.

Each case (:class:`lwcore.rules.model.PackTest`) makes a check with fixed dice, runs a
subsystem on a sheet, or runs dot commands on one sheet, then compares what it asked for::

    tests:
      - {skill: 50, roll: 25, difficulty: hard, want: hard}
      - {skill: 50, dice: [37, 0], bonus: 1, want: regular}
      - {subsystem: sanity, sheet: {SAN: 50}, args: {loss: 1/1d6}, dice: [80, 4], want: failure,
         values: {after: 46}}
      - {command: [".ra spot 60", ".push"], dice: [[70], [30]], want: hard}
      - {command: ".luck extreme", error: "no earlier check"}

A failing case names its place in the file and what differed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lwcore.errors import LwError
from lwcore.rules.commands import run_command
from lwcore.rules.model import PackTest
from lwcore.rules.sheet import Sheet
from lwcore.rules.subsystems import run as run_subsystem

if TYPE_CHECKING:
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.system import RuleSystem


@dataclass(frozen=True)
class CaseOutcome:
    """One case: ``problems`` is empty when it passed."""

    index: int
    case: PackTest
    where: str
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        name = f" ({self.case.name})" if self.case.name else ""
        return f"{self.where}tests.{self.index}{name}: " + "; ".join(self.problems)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.case.name, "passed": self.passed, "where": self.where.rstrip(": "),
                "problems": list(self.problems)}


def run_pack_tests(engine: RulesEngine | None, pack: RuleSystem) -> list[CaseOutcome]:
    """Run every case of ``pack``'s ``tests:`` table (no randomness: a case that needs a die
    it did not give fails)."""
    out = []
    for index, case in enumerate(pack.model.tests):
        where = pack.test_locations[index] if index < len(pack.test_locations) else ""
        try:
            got = _run(engine, pack, case)
        except LwError as exc:
            problems = _refused(case, exc)
        else:
            problems = _compare(pack, case, got)
        out.append(CaseOutcome(index, case, f"{where}: " if where else "", tuple(problems)))
    return out


class _NoDice(random.Random):
    """The random source of a test case: asking it for a die is an error (cases fix their dice)."""

    def random(self) -> float:
        raise LwError("the case rolled a die it did not give", expected="dice: [...] with every face, in order")


def _faces(case: PackTest, step: int | None = None) -> list[int] | None:
    dice = case.dice
    if dice is None:
        return None
    if step is None:
        if any(isinstance(d, list) for d in dice):
            raise LwError("dice is one list of faces here (one list per command only when command is a list)")
        return list(dice)  # type: ignore[arg-type]  # checked above: the faces are ints in this shape
    if not all(isinstance(d, list) for d in dice):
        raise LwError("with a list of commands, dice is one list of faces per command")
    return list(dice[step]) if step < len(dice) else []  # type: ignore[arg-type]  # checked above: the faces are ints in this shape


def _run(engine: RulesEngine | None, pack: RuleSystem, case: PackTest) -> dict[str, Any]:
    rng = _NoDice()
    if case.command is not None:
        commands = [case.command] if isinstance(case.command, str) else list(case.command)
        sheet = Sheet(pack, dict(case.sheet))
        result = None
        for step, text in enumerate(commands):
            faces = _faces(case, step if isinstance(case.command, list) else None)
            result = run_command(engine, pack, text, sheet=sheet, rng=rng, locale=case.locale, faces=faces or None)
        assert result is not None
        data = result.data
        check = data.get("check") if isinstance(data.get("check"), Mapping) else None
        # a subsystem's outcome, or the check's rank (a roll-only check, with nothing to beat, has none)
        outcome = data["outcome"] if "outcome" in data else None if data.get("roll_only") else (check or {}).get("rank")
        return {"want": outcome, "check": check, "values": data.get("values") or data, "text": result.text,
                "sheet": sheet}
    if case.subsystem is not None:
        sheet = Sheet(pack, dict(case.sheet))
        kwargs: dict[str, Any] = dict(case.args)
        if "table" in kwargs:
            kwargs["table_name"] = kwargs.pop("table")
        if case.dice is not None:
            kwargs["faces"] = _faces(case)
        if case.roll is not None:
            kwargs["roll"] = case.roll
        ran = run_subsystem(engine, pack, case.subsystem, sheet, rng=rng, **kwargs)
        check = ran.check.to_json() if ran.check is not None else None
        return {"want": ran.outcome, "check": check, "values": ran.values, "text": None, "sheet": sheet,
                "success": ran.success}
    value = case.skill if case.skill is not None else case.target
    checked = pack.check(value, difficulty=case.difficulty, variant=case.variant, bonus=case.bonus,
                        penalty=case.penalty, modifiers=case.modifiers, modifier=case.modifier,
                        params=case.params or None, rng=rng, faces=_faces(case), roll=case.roll)
    return {"want": checked.rank, "check": checked.to_json(), "values": {}, "text": None, "sheet": None}


def _refused(case: PackTest, exc: LwError) -> list[str]:
    if case.error is None:
        return [f"refused: {exc.message}"]
    if case.error.casefold() not in str(exc).casefold():
        return [f"refused with {exc.message!r}, not with {case.error!r}"]
    return []


def _compare(pack: RuleSystem, case: PackTest, got: dict[str, Any]) -> list[str]:
    problems = []
    if case.error is not None:
        return [f"want a refusal ({case.error!r}), got {got['want']!r}"]
    if case.want is not None and got["want"] != case.want:
        problems.append(f"want {case.want!r}, got {got['want']!r}")
    check = got.get("check") or {}
    for key in ("success", "critical", "fumble", "margin"):
        wanted = getattr(case, key)
        have = got.get(key, check.get(key)) if key == "success" else check.get(key)
        if wanted is not None and have != wanted:
            problems.append(f"want {key} {wanted!r}, got {have!r}")
    for key, wanted in case.values.items():
        have = got["values"].get(key)
        if have != wanted:
            problems.append(f"want {key} {wanted!r}, got {have!r}")
    sheet = got.get("sheet")
    for stat, wanted in case.sheet_after.items():
        have = sheet.get(stat) if sheet is not None else None
        if have != wanted:
            problems.append(f"want {stat} {wanted!r} afterwards, got {have!r}")
    if case.text is not None and got["text"] != case.text:
        problems.append(f"want text {case.text!r}, got {got['text']!r}")
    return problems
