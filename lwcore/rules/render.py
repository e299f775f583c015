"""Results as text for one reader: checks, roll-only totals and subsystem values.

Text goes through the pack's ``labels`` (rank ids, outcomes, flags) and ``display`` names in
the reader's locale, falling back to the kernel's generic words (the kernel catalogue's ``word.*``), then
to the id itself. Nothing here decides anything: rendering never changes a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lwcore.contributions import localized
from lwcore.i18n import kernel_catalogue, kernel_text, negotiate

if TYPE_CHECKING:
    from lwcore.rules.kinds.base import SubsystemResult
    from lwcore.rules.system import CheckResult, RuleSystem



def word(pack: RuleSystem, key: str, locale: str) -> str:
    """The pack's label for ``key`` in ``locale``, else the kernel's generic word, else ``key``."""
    cache_key = ("word", key, locale)
    found = pack.cache.get(cache_key)
    if found is None:
        found = _word(pack, key, locale)
        pack.cache[cache_key] = found
    return found


def _word(pack: RuleSystem, key: str, locale: str) -> str:
    loc = negotiate(locale, [lang for lang, table in pack.model.labels.items() if table and key in table], "")
    if loc:
        return pack.label(key, loc)
    if f"word.{key}" in kernel_catalogue():
        return kernel_text(f"word.{key}", locale)
    return pack.label(key, locale)


def fmt(value: Any) -> str:
    """A value for text: whole floats without ``.0``, ``None`` as ``-``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "-" if value is None else str(value)


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _label(value: Any, locale: str) -> str | None:
    if isinstance(value, Mapping):
        return localized(value, locale)
    return value


def roll_text(pack: RuleSystem, result: CheckResult) -> str:
    """The pack's roll expression with the check's parameters filled in (``5d10>=7``)."""
    res = pack.resolution
    text = res.roll.text if res is not None else "roll"
    if "{" not in text:
        return text
    for pname, pvalue in result.params.items():
        text = text.replace("{" + pname + "}", str(pvalue))
    return text


def _resolution_labels(pack: RuleSystem, locale: str) -> tuple[dict[str, str], dict[str, str]]:
    """``(difficulty id -> label, modifier name -> label)`` in ``locale`` (once per pack and locale)."""
    key = ("resolution_labels", locale)
    cached = pack.cache.get(key)
    if cached is None:
        res = pack.model.resolution
        difficulties = {d: str(_label(v.label, locale) or d) for d, v in (res.difficulties.items() if res else ())}
        modifiers = {m: str(_label(v.label, locale) or m) for m, v in (res.modifiers.items() if res else ())}
        cached = pack.cache[key] = (difficulties, modifiers)
    return cached


def render_check(pack: RuleSystem, result: CheckResult, locale: str = "en", *, stat: str | None = None,
                 modifier: int | None = None) -> str:
    """``侦查 25 困难: 1d100=37/12 失败`` in the viewer's locale, through the pack's labels."""
    difficulties, modifiers = _resolution_labels(pack, locale)
    rolled = roll_text(pack, result)
    parts = []
    if stat:
        parts.append(pack.display_name(stat, locale))
    if result.raw_target is not None and modifier is None:
        parts.append(str(result.raw_target))
    if modifier is not None:
        parts.append(signed(modifier))
    if result.difficulty:
        parts.append(difficulties.get(result.difficulty, result.difficulty))
    for name, count in result.modifiers.items():
        parts.append(f"{modifiers.get(name, name)}×{count}")
    if modifier is not None:
        body = f"{rolled}={result.roll}{signed(modifier)}={result.roll + modifier}"
        if result.target is not None:
            body += f" {word(pack, 'vs', locale)} {result.target}"
    elif result.target is not None:
        body = f"{rolled}={result.roll}/{result.target}"
    else:
        body = f"{rolled}={result.roll}"
        res = pack.resolution
        if res is not None and res.roll.has_pool:
            body = f"{rolled} [{', '.join(map(str, result.dice))}] {word(pack, 'successes', locale)} {fmt(result.margin)}"
    head = " ".join(parts)
    return (f"{head}: " if head else "") + f"{body} {pack.label(result.rank, locale)}"


def render_total(pack: RuleSystem, stat: str | None, modifier: int, result: CheckResult, locale: str) -> str:
    """``Initiative +2: 1d20=13+2=15`` -- a roll-only check (no number to beat) and its total."""
    head = pack.display_name(stat, locale) if stat else ""
    body = f"{roll_text(pack, result)}={result.roll}{signed(modifier)}={result.roll + modifier}"
    return (f"{head} {signed(modifier)}: " if head else "") + body


def render_values(pack: RuleSystem, result: SubsystemResult, locale: str) -> str:
    """A subsystem result without a renderer of its own (a computer's): its outcome's label,
    its dice, and its plain values, each named through the pack's labels."""
    v = result.values
    label = pack.label(result.outcome, locale)
    shown = ", ".join(f"{word(pack, k, locale)} {fmt(x)}" for k, x in v.items() if not isinstance(x, (list, dict)))
    dice = v.get("dice") if isinstance(v.get("dice"), list) else None
    extra = f" [{', '.join(map(str, dice))}]" if dice else ""
    return f"{label}{extra}" + (f" ({shown})" if shown else "")
