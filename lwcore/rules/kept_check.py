"""The most recent check a character made, kept on the sheet (what luck and push work on).

Every check a dot command or the turn makes on a sheet is kept in ``sheet.state`` under
:data:`LAST_CHECK`: ``CheckResult.to_json()`` plus ``stat``, ``value`` and, for a check that
added the value to the roll, ``modifier``. A luck spend or a push replaces it with its new form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from lwcore.rules.kinds.base import SubsystemError, SubsystemResult
from lwcore.rules.model import label_words
from lwcore.rules.system import CheckResult

if TYPE_CHECKING:
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import RuleSystem

LAST_CHECK = "last_check"
"""The key of ``Sheet.state`` that keeps the character's most recent check."""

KEPT_EXTRAS = ("stat", "value", "modifier")
"""What a kept check records besides the result: the stat, its value, the added modifier."""

_RESULT_FIELDS = frozenset(f.name for f in fields(CheckResult))


def check_from_json(data: Mapping[str, Any]) -> CheckResult:
    """A :class:`CheckResult` back from its ``to_json()`` form (unknown keys ignored)."""
    kwargs = {k: v for k, v in data.items() if k in _RESULT_FIELDS}
    try:
        kwargs["dice"] = tuple(kwargs.get("dice") or ())
        kwargs["kept"] = tuple(kwargs.get("kept") or ())
        kwargs["flags"] = dict(kwargs.get("flags") or {})
        kwargs["modifiers"] = dict(kwargs.get("modifiers") or {})
        kwargs["params"] = dict(kwargs.get("params") or {})
        return CheckResult(**kwargs)
    except TypeError as exc:
        raise SubsystemError(f"the kept check is malformed: {exc}") from None


def remember_check(sheet: Sheet, result: CheckResult, *, as_json: Mapping[str, Any] | None = None,
                   **extra: Any) -> None:
    """Keep ``result`` as the sheet's most recent check (in ``sheet.state``); ``extra`` are
    :data:`KEPT_EXTRAS` (``None`` values left out); ``as_json`` is ``result.to_json()`` when
    the caller has it already."""
    kept = dict(as_json) if as_json is not None else result.to_json()
    kept.update((k, v) for k, v in extra.items() if v is not None)
    sheet.state[LAST_CHECK] = kept


def forget_check(sheet: Sheet) -> None:
    sheet.state.pop(LAST_CHECK, None)


def last_check(sheet: Sheet | None) -> tuple[CheckResult, dict[str, Any]]:
    """The sheet's most recent check and what it recorded besides the result (``stat``,
    ``value``, ``modifier``); :class:`SubsystemError` when there is none."""
    kept = sheet.state.get(LAST_CHECK) if sheet is not None else None
    if not isinstance(kept, Mapping):
        raise SubsystemError("this character has no earlier check", expected="make a check first")
    return check_from_json(kept), {k: kept[k] for k in KEPT_EXTRAS if k in kept}


def rank_words(pack: RuleSystem) -> dict[str, str]:
    """Every word that names a rank (its id, every label and marker in any locale, casefolded)
    -> the rank id."""
    cached = pack.cache.get("rank_words")
    if cached is None:
        cached = {}
        for rank_id in pack.rank_ids():
            cached.setdefault(rank_id.casefold(), rank_id)
        for table in pack.model.labels.values():
            for key, value in table.items():
                if key in cached.values():
                    for text in label_words(value):
                        cached.setdefault(text.casefold(), key)
        pack.cache["rank_words"] = cached
    return cached


def rank_named(pack: RuleSystem, word: str | None) -> str | None:
    """The rank id ``word`` names (a rank id or a label in any locale, any case); ``None`` for
    no word. An unknown word is a :class:`SubsystemError` listing the rank words."""
    if word is None or not word.strip():
        return None
    found = rank_words(pack).get(word.strip().casefold())
    if found is None:
        shown = ", ".join(pack.rank_ids())
        raise SubsystemError(f"{word.strip()!r} is not a result level of {pack.id}",
                             expected=f"a rank word: {shown}")
    return found


def after_luck(pack: RuleSystem, check: CheckResult, result: SubsystemResult) -> CheckResult:
    """``check`` as it stands once ``result`` (a luck spend) lowered its roll: the new roll graded
    by the pack, flagged ``luck_spent`` (so a kept check shows luck was used)."""
    new_roll = int(result.values["new_roll"])
    (rank,) = pack.outcomes(check.raw_target, [new_roll], difficulty=check.difficulty, variant=check.variant)
    margin = check.margin + (check.roll - new_roll) if isinstance(check.margin, int) else check.margin
    return replace(check, roll=new_roll, rank=rank.id, success=rank.success, critical=rank.critical,
                   fumble=rank.fumble, tier=rank.tier, margin=margin,
                   flags={**dict(rank.flags), "luck_spent": int(result.values["cost"])})


def after_push(result: SubsystemResult) -> CheckResult:
    """The pushed check as it is kept: the new check flagged with the push's flags."""
    assert result.check is not None
    return replace(result.check, flags={**dict(result.check.flags), **result.flags})
