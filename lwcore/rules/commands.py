"""Dot commands declared by rulepacks (``commands:``), parsed generically.

A pack maps each command word to an action or a subsystem tool::

    commands:
      ra: {action: check, counted: {b: bonus, p: penalty}}
      sc: {tool: sanity, counted: {b: bonus, p: penalty}}
      chk: {action: check, value_is: modifier, target_words: [dc], switches: {adv: {modifier: advantage}}}
      w: {action: check, positional: [pool, difficulty], switches: {wp: {param: willpower}}}

Actions: ``check``, ``set_stats`` (``.st`` text), ``make_char``, ``show``; ``tool: NAME`` runs
the subsystem ``NAME`` (see :mod:`lwcore.rules.subsystems`). Keys a command may carry:

- ``value_is``: ``target`` (the stat value is rolled against; default) or ``modifier`` (it is
  added to the roll: ``target_words`` then name the number to beat, e.g. ``dc``).
- ``counted``: ``{word: modifier}`` — ``b2`` asks for the ``bonus`` modifier twice.
- ``switches``: ``{word: {modifier: M} | {param: P, value: N} | {arg: A, value: V} | {variant: V}}``.
- ``positional``: parameter names that bare numbers fill in order.
- ``stat`` (a fixed stat), ``stat_format`` (``"{}_save"``: the named stat becomes another),
  ``variant``, ``table`` (for table tools), ``difficulty``.

Difficulty words come from the pack's ``resolution.difficulties`` (their ids and every
locale's label: 困难 / hard …), names from its aliases. The result is structured data plus
text rendered through the pack's labels in the viewer's locale.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.rules.errors import CheckError

if TYPE_CHECKING:
    from lwcore.rules.compiled import CheckResult, CompiledPack
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.subsystems import SubsystemResult


class CommandError(CheckError):
    """Input a command cannot use (unknown command, unknown skill, bad token)."""


@dataclass
class CommandResult:
    system: str
    command: str
    action: str
    data: dict[str, Any]
    text: str
    sheet_changed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "command": self.command, "action": self.action, "data": self.data,
                "text": self.text, "sheet_changed": self.sheet_changed}


@dataclass
class CheckArgs:
    """What a check command line asked for."""

    stat: str | None = None
    value: int | None = None
    adjust: int = 0
    target: int | None = None
    difficulty: str | None = None
    modifiers: dict[str, int] = field(default_factory=dict)
    params: dict[str, int] = field(default_factory=dict)
    args: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None
    numbers: list[int] = field(default_factory=list)
    bare: list[int] = field(default_factory=list)
    positional: dict[str, int] = field(default_factory=dict)
    rest: str = ""
    reason: str = ""


# --- vocabulary -------------------------------------------------------------------------------

KERNEL_WORDS: dict[str, dict[str, str]] = {
    "en": {"vs": "vs", "success": "Success", "failure": "Failure", "fumble": "Fumble", "improved": "improved",
           "unchanged": "no improvement", "temporary": "temporary insanity", "permanent": "permanent insanity",
           "pushed": "pushed", "draw": "draw", "first": "first wins", "second": "second wins", "total": "total",
           "regain": "regains HP", "ended_success": "stable", "ended_failure": "dead", "set": "set",
           "duration": "duration", "cost": "cost", "successes": "successes", "failures": "failures"},
    "zh": {"vs": "对", "success": "成功", "failure": "失败", "fumble": "大失败", "improved": "成长",
           "unchanged": "未成长", "temporary": "临时疯狂", "permanent": "永久疯狂", "pushed": "孤注一掷",
           "draw": "平局", "first": "前者胜", "second": "后者胜", "total": "合计", "regain": "恢复生命",
           "ended_success": "稳定", "ended_failure": "死亡", "set": "已设置", "duration": "持续",
           "cost": "花费", "successes": "成功数", "failures": "失败数"},
}


def word(pack: CompiledPack, key: str, locale: str) -> str:
    """The pack's label for ``key`` in ``locale``, else the kernel's generic word, else ``key``."""
    for loc in (locale, locale.split("-")[0]):
        table = pack.model.labels.get(loc)
        if table and key in table:
            return pack.label(key, loc)
    lang = locale.split("-")[0]
    own = KERNEL_WORDS.get(lang) or KERNEL_WORDS["en"]
    if key in own:
        return own[key]
    return pack.label(key, locale)


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _difficulty_words(pack: CompiledPack) -> list[tuple[str, str]]:
    cached = getattr(pack, "_lw_difficulty_words", None)
    if cached is None:
        table: dict[str, str] = {}
        res = pack.model.resolution
        for did, diff in (res.difficulties.items() if res else ()):
            table.setdefault(did.casefold(), did)
            labels = [diff.label] if isinstance(diff.label, str) else list((diff.label or {}).values())
            for label in labels:
                table.setdefault(_norm(label).casefold(), did)
        cached = sorted(table.items(), key=lambda kv: -len(kv[0]))
        pack._lw_difficulty_words = cached  # type: ignore[attr-defined]
    return cached


def find_command(pack: CompiledPack, text: str) -> tuple[str, dict[str, Any], str]:
    """``(command, spec, rest)`` for ``.ra 困难侦查`` (longest command word wins)."""
    text = _norm(text).strip()
    if text[:1] in (".", "/", "。"):
        text = text[1:]
    folded = text.casefold()
    best: str | None = None
    for name in pack.model.commands:
        if folded.startswith(name.casefold()) and (best is None or len(name) > len(best)):
            best = name
    if best is None:
        known = ", ".join("." + c for c in pack.model.commands) or "none declared"
        raise CommandError(f"{pack.id} has no command for {text.split()[0] if text.split() else text!r}",
                           expected=f"one of: {known}")
    spec = pack.model.commands[best].model_dump(exclude_none=True)
    return best, spec, text[len(best):].strip()


_SIGNED = re.compile(r"[+-]\s*\d+")
_REPEAT = re.compile(r"\s*(\d+)\s*#\s*")
MAX_REPEAT = 10
_INT = re.compile(r"\d+")
_BOUNDARY = " \t,，;；"


def _at_boundary(text: str, pos: int) -> bool:
    return pos >= len(text) or text[pos] in _BOUNDARY or not (text[pos].isascii() and text[pos].isalpha())


def parse_check(pack: CompiledPack, spec: Mapping[str, Any], rest: str) -> CheckArgs:
    """Parse the words after a check-like command, in any order."""
    from lwcore.rules.sheet import read_name

    out = CheckArgs(variant=spec.get("variant"), difficulty=spec.get("difficulty"))
    if spec.get("stat"):
        out.stat = pack.canonical(spec["stat"]) or spec["stat"]
    text = _norm(rest)
    folded = text.casefold()
    counted = {str(k).casefold(): v for k, v in (spec.get("counted") or {}).items()}
    switches = {str(k).casefold(): v for k, v in (spec.get("switches") or {}).items()}
    switch_words = sorted(switches, key=len, reverse=True)
    counted_words = sorted(counted, key=len, reverse=True)
    target_words = sorted((str(w).casefold() for w in spec.get("target_words") or ()), key=len, reverse=True)
    positional = list(spec.get("positional") or ())
    diff_words = _difficulty_words(pack)
    pos, n = 0, len(text)
    reason: list[str] = []
    named = False
    while pos < n:
        if text[pos] in _BOUNDARY:
            pos += 1
            continue
        # switch words (adv, dis, wp, 9again …)
        hit = next((w for w in switch_words if folded.startswith(w, pos) and _at_boundary(text, pos + len(w))), None)
        if hit is not None:
            sw = switches[hit]
            if "modifier" in sw:
                out.modifiers[sw["modifier"]] = out.modifiers.get(sw["modifier"], 0) + int(sw.get("count", 1))
            elif "param" in sw:
                out.params[sw["param"]] = int(sw.get("value", 1))
            elif "variant" in sw:
                out.variant = sw["variant"]
            elif "arg" in sw:
                out.args[sw["arg"]] = sw.get("value", True)
            pos += len(hit)
            continue
        # counted modifiers: b, b2, p3
        m = None
        for w in counted_words:
            if folded.startswith(w, pos):
                mm = _INT.match(text, pos + len(w))
                end = mm.end() if mm else pos + len(w)
                if _at_boundary(text, end) and (end >= n or not text[end].isdigit()):
                    m = (w, int(mm.group(0)) if mm else 1, end)
                    break
        if m is not None:
            name = counted[m[0]]
            out.modifiers[name] = out.modifiers.get(name, 0) + m[1]
            pos = m[2]
            continue
        # target words: dc15, dc 15, ac 13
        tw = next((w for w in target_words if folded.startswith(w, pos)), None)
        if tw is not None:
            p2 = pos + len(tw)
            while p2 < n and text[p2] in " :=":
                p2 += 1
            mm = _INT.match(text, p2)
            if mm:
                out.target = int(mm.group(0))
                pos = mm.end()
                continue
        # difficulty words
        dw = next(((w, d) for w, d in diff_words if folded.startswith(w, pos)
                   and (not w[-1].isascii() or _at_boundary(text, pos + len(w)))), None)
        if dw is not None and out.difficulty is None:
            out.difficulty = dw[1]
            pos += len(dw[0])
            continue
        # +10 / -5
        sm = _SIGNED.match(text, pos)
        if sm is not None:
            out.adjust += int(sm.group(0).replace(" ", ""))
            pos = sm.end()
            continue
        # bare number
        im = _INT.match(text, pos)
        if im is not None:
            number = int(im.group(0))
            out.bare.append(number)
            if positional:
                pname = positional.pop(0)
                out.params[pname] = number
                out.positional[pname] = number
            elif out.value is None:
                out.value = number
            else:
                out.numbers.append(number)
            pos = im.end()
            continue
        # a stat name (known names by longest match; then an unknown name with a value)
        if not named:
            got = read_name(text, pos, pack)
            if got is not None and (got[2] or (got[1] < n and text[got[1]].isdigit() and not reason)):
                out.stat, pos, _known = got
                named = True
                continue
        end = pos
        while end < n and text[end] not in _BOUNDARY:
            end += 1
        reason.append(text[pos:end])
        pos = end
    out.reason = " ".join(reason)
    return out


# --- running --------------------------------------------------------------------------------


def run_command(engine: RulesEngine | None, pack: CompiledPack, text: str, *, sheet: Sheet | None = None,
                rng: random.Random | None = None, locale: str = "en", faces: Sequence[int] | None = None,
                advantage_rule: str | None = None) -> CommandResult:
    """Parse and run one dot command against ``pack``; ``sheet`` is read and changed in place."""
    command, spec, rest = find_command(pack, text)
    action = spec.get("action")
    tool = spec.get("tool")
    if action == "check":
        repeat = _REPEAT.match(rest)
        if repeat is None:
            return _run_check(pack, command, spec, rest, sheet, rng, locale, faces, advantage_rule)
        times = int(repeat.group(1))
        if not 1 <= times <= MAX_REPEAT:
            raise CommandError(f".{command}: {times}# repeats", expected=f"1 to {MAX_REPEAT} repeats")
        if faces is not None:
            raise CommandError("replaying faces needs a single check", expected="no N# with --dice")
        results = [_run_check(pack, command, spec, rest[repeat.end():], sheet, rng, locale, None, advantage_rule)
                   for _ in range(times)]
        return CommandResult(pack.id, command, "check", {"repeat": times, "results": [r.data for r in results]},
                             "\n".join(r.text for r in results))
    if action == "set_stats":
        return _run_st(pack, command, rest, sheet, rng, locale)
    if action == "make_char":
        return _run_make(pack, command, spec, rest, rng, locale)
    if action == "show":
        return _run_st(pack, command, "show " + rest, sheet, rng, locale)
    if tool is not None:
        return _run_tool(engine, pack, command, spec, str(tool), rest, sheet, rng, locale, faces)
    raise CommandError(f".{command}: action {action!r} is not one the engine runs",
                       expected="check, set_stats, make_char, show, or tool: SUBSYSTEM")


def _sheet_value(pack: CompiledPack, sheet: Sheet | None, stat: str) -> Any:
    if sheet is not None:
        value = sheet.get(stat)
    else:
        value = pack.model.defaults.get(stat)
        if value is None and stat in pack.model.derived:
            value = pack.derive({}).get(stat)
    return value


def _resolve_value(pack: CompiledPack, spec: Mapping[str, Any], args: CheckArgs, sheet: Sheet | None,
                   command: str) -> tuple[str | None, int | None]:
    stat = args.stat
    if stat is not None and spec.get("stat_format"):
        formatted = pack.canonical(str(spec["stat_format"]).format(stat))
        stat = formatted or stat
    if args.value is not None:
        return stat, args.value
    if stat is None:
        return None, None
    value = _sheet_value(pack, sheet, stat)
    if value is None:
        raise CommandError(f".{command}: no value for {stat!r}", expected=f"a value, e.g. .{command} {stat}50, or a sheet")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise CommandError(f".{command}: {stat} is {value!r}, not a number")
    return stat, int(value)


@dataclass
class ValueCheck:
    """One check made with a stat's value the way a check command says to use it
    (:func:`check_with_value`). ``modifier`` is set when the value was added to the roll
    (``value_is: modifier``); ``roll_only`` when there was no number to beat, so the check
    only gives ``total`` (roll + modifier) and its grade means nothing."""

    result: CheckResult
    value_is: str
    modifier: int | None = None
    roll_only: bool = False
    total: int | None = None


def check_command(pack: CompiledPack) -> tuple[str, dict[str, Any]] | None:
    """``(word, spec)`` of the pack command a plain skill check follows (how it uses the
    stat's value): the first command with ``action: check`` in the pack's declaration order
    (after ``extends`` merging); ``None`` when the pack declares none."""
    for name, spec in pack.model.commands.items():
        if spec.action == "check":
            return name, spec.model_dump(exclude_none=True)
    return None


def check_with_value(pack: CompiledPack, spec: Mapping[str, Any], stat: str | None, value: int | None, *,
                     target: int | None = None, difficulty: str | None = None, variant: str | None = None,
                     modifiers: Mapping[str, int] | None = None, params: Mapping[str, int] | None = None,
                     adjust: int = 0, rng: random.Random | None = None, faces: Sequence[int] | None = None,
                     advantage_rule: str | None = None, command: str = "check") -> ValueCheck:
    """Make one check of ``stat`` (value ``value``) the way the check command ``spec`` uses a
    value (``value_is``): as the number rolled against (``target``, the default; ``adjust`` is
    added to it), added to the roll (``modifier``; ``target`` is then the number to beat, and
    a difficulty alone sets it; with neither the check is roll-only), or as the parameter
    ``value_param`` (``param``; default ``pool``, ``adjust`` added to it). ``target`` is
    ignored for a ``value_is: target`` command (the value is the target) and for a pack with
    no target input. Opposite advantage modifiers are netted through the pack's ``advantage``
    subsystem. The dot commands and the turn's ``skill_check`` both go through here."""
    from lwcore.rules import subsystems

    mods = dict(modifiers or {})
    if subsystems.has(pack, "advantage"):
        _kind, adata = subsystems.spec(pack, "advantage")
        up, down = (adata.get("pair") or ["advantage", "disadvantage"])[:2]
        if up in mods or down in mods:
            netted = subsystems.net_advantage(pack, mods.pop(up, 0), mods.pop(down, 0), advantage_rule)
            mods.update(netted)
    value_is = str(spec.get("value_is") or "target")
    res = pack.resolution
    needs_target = res is not None and res.target_kind == "input"
    given = dict(params or {})
    if value_is == "param":
        pname = str(spec.get("value_param", "pool"))
        if stat is not None and value is not None:
            given[pname] = value
        if pname in given:
            given[pname] += adjust
        result = pack.check(None if not needs_target else target, difficulty=difficulty, variant=variant,
                            modifiers=mods, params=given, rng=rng, faces=faces)
        return ValueCheck(result, value_is)
    if value_is == "modifier":
        modifier = (value or 0) + adjust
        if needs_target and target is None and difficulty is not None:
            target = 0  # the difficulty sets the number to beat
        if needs_target and target is None:
            # no number to beat: roll and report the total
            result = pack.check(0, variant=None, modifiers=mods, modifier=modifier, params=given, rng=rng,
                                faces=faces)
            return ValueCheck(result, value_is, modifier, roll_only=True, total=result.roll + modifier)
        result = pack.check(target, difficulty=difficulty, variant=variant, modifiers=mods, modifier=modifier,
                            params=given, rng=rng, faces=faces)
        return ValueCheck(result, value_is, modifier)
    rolled_against = None
    if needs_target:
        if value is None:
            raise CommandError(f".{command}: which skill?", expected=f".{command} NAME or .{command} NAME VALUE")
        rolled_against = value + adjust
    result = pack.check(rolled_against, difficulty=difficulty, variant=variant, modifiers=mods, params=given,
                        rng=rng, faces=faces)
    return ValueCheck(result, value_is)


def _run_check(pack: CompiledPack, command: str, spec: Mapping[str, Any], rest: str, sheet: Sheet | None,
               rng: random.Random | None, locale: str, faces: Sequence[int] | None,
               advantage_rule: str | None) -> CommandResult:
    args = parse_check(pack, spec, rest)
    stat, value = _resolve_value(pack, spec, args, sheet, command)
    value_is = spec.get("value_is", "target")
    data: dict[str, Any] = {"stat": stat, "value": value, "adjust": args.adjust, "reason": args.reason}
    params = args.params
    if value_is == "param":
        # bare numbers fill the positional parameters, skipping the one a named stat fills
        pname = str(spec.get("value_param", "pool"))
        params = {k: v for k, v in args.params.items() if k not in args.positional}
        order = [p for p in spec.get("positional") or () if not (stat is not None and p == pname)]
        params.update(zip(order, args.bare, strict=False))
    elif value_is == "modifier" and stat is None and value is None and not args.adjust and args.reason:
        raise CommandError(f".{command}: unknown name {args.reason.split()[0]!r}",
                           expected="a stat or skill of the sheet, or a modifier like +3")
    done = check_with_value(pack, spec, stat, value, target=args.target, difficulty=args.difficulty,
                            variant=args.variant, modifiers=args.modifiers, params=params, adjust=args.adjust,
                            rng=rng, faces=faces, advantage_rule=advantage_rule, command=command)
    result = done.result
    if done.modifier is not None:
        data["modifier"] = done.modifier
    if done.roll_only:
        data.update(roll_only=True, check=result.to_json(), total=done.total)
        return CommandResult(pack.id, command, "check", data,
                             render_total(pack, stat, done.modifier or 0, result, locale))
    data["check"] = result.to_json()
    kept = False
    if sheet is not None:
        # the sheet keeps its most recent check (what luck and push commands work on)
        from lwcore.rules.subsystems import remember_check

        remember_check(sheet, result, stat=stat, value=value,
                       **({"modifier": done.modifier} if done.modifier is not None else {}))
        kept = True
    return CommandResult(pack.id, command, "check", data, render_check(pack, result, locale, stat=stat,
                                                                         modifier=done.modifier), sheet_changed=kept)


def _run_st(pack: CompiledPack, command: str, rest: str, sheet: Sheet | None, rng: random.Random | None,
            locale: str) -> CommandResult:
    from lwcore.rules.sheet import Sheet

    if sheet is None:
        sheet = Sheet(pack)
    result = sheet.apply_st(rest, rng=rng, locale=locale)
    lines = list(result.output)
    for name, (before, after) in result.changes.items():
        shown = pack.display_name(name, locale)
        lines.append(f"{shown}: {_fmt(before)} -> {_fmt(after)}")
    roll_notes = [f"{r['name']} {r['expr']}={r['total']}" for r in result.rolls]
    text = "\n".join(roll_notes + lines) or word(pack, "set", locale)
    data = result.to_json()
    data["sheet"] = sheet.to_json()
    return CommandResult(pack.id, command, "set_stats", data, text, sheet_changed=bool(result.changes))


def _run_make(pack: CompiledPack, command: str, spec: Mapping[str, Any], rest: str, rng: random.Random | None,
              locale: str) -> CommandResult:
    from lwcore.rules.creation import make_char

    m = _INT.search(rest)
    count = max(1, min(10, int(m.group(0)) if m else 1))
    sheets = [make_char(pack, rng=rng, method=spec.get("method")) for _ in range(count)]
    lines = []
    for sheet in sheets:
        values = sheet.values()
        top = pack.model.st_show.get("top") or list(pack.model.creation_constraints.get("roll") or {})
        rolled = [k for k in top if k in values]
        lines.append(" ".join(f"{pack.display_name(k, locale)}:{_fmt(values[k])}" for k in rolled))
    return CommandResult(pack.id, command, "make_char", {"sheets": [s.to_json() for s in sheets]}, "\n".join(lines))


def _run_tool(engine: RulesEngine | None, pack: CompiledPack, command: str, spec: Mapping[str, Any], tool: str,
              rest: str, sheet: Sheet | None, rng: random.Random | None, locale: str,
              faces: Sequence[int] | None) -> CommandResult:
    from lwcore.rules import subsystems

    kind, data = subsystems.spec(pack, tool)
    if data.get("computer") is not None:
        args = parse_check(pack, spec, rest)
        kwargs: dict[str, Any] = dict(args.params)
        kwargs.update(args.args)
        kwargs.update(args.modifiers)
        value = args.value
        if value is None and args.stat is not None:
            _stat, value = _resolve_value(pack, spec, args, sheet, command)
        if value is not None:
            kwargs["value"] = value
        if args.adjust:
            kwargs["adjust"] = args.adjust
        result = subsystems.run(engine, pack, tool, sheet, rng=rng, faces=faces, **kwargs)
    elif kind == "sanity":
        tokens = _norm(rest).split()
        loss = next((t for t in tokens if "/" in t), None)
        if loss is None:
            raise CommandError(f".{command} needs SUCCESS/FAILURE loss", expected=f".{command} 1/1d6")
        args = parse_check(pack, spec, " ".join(t for t in tokens if t is not loss))
        result = subsystems.run(engine, pack, tool, sheet, loss=loss, value=args.value,
                                bonus=args.modifiers.get("bonus", 0), penalty=args.modifiers.get("penalty", 0),
                                rng=rng, faces=faces)
    elif kind == "growth":
        args = parse_check(pack, spec, rest)
        if args.stat is None:
            raise CommandError(f".{command}: which skill?", expected=f".{command} NAME [VALUE]")
        value = args.value
        if value is None:
            _stat, value = _resolve_value(pack, spec, args, sheet, command)
        result = subsystems.run(engine, pack, tool, sheet, skill=args.stat, value=value, rng=rng, faces=faces)
    elif kind in ("random_madness", "table"):
        result = subsystems.run(engine, pack, tool, sheet, table_name=spec.get("table"), rng=rng, locale=locale)
    elif kind == "tally":
        result = subsystems.run(engine, pack, tool, sheet, rng=rng, faces=faces)
    elif kind in ("luck", "push"):
        # on the sheet's most recent check (kept in its state by every check command)
        from dataclasses import replace

        check, kept = subsystems.last_check(sheet)
        keep = {k: kept[k] for k in ("stat", "value", "modifier") if k in kept}
        assert sheet is not None
        if kind == "luck":
            result = subsystems.run(engine, pack, tool, sheet, check=check,
                                    want=subsystems.rank_named(pack, _norm(rest).strip() or None))
            subsystems.remember_check(sheet, subsystems.after_luck(pack, check, result), **keep)
        else:
            if _norm(rest).strip():
                raise CommandError(f".{command} takes nothing: it re-rolls the last check", expected=f".{command}")
            result = subsystems.run(engine, pack, tool, sheet, previous=check, modifier=int(kept.get("modifier") or 0),
                                    rng=rng, faces=faces)
            assert result.check is not None
            subsystems.remember_check(sheet, replace(result.check, flags={**dict(result.check.flags),
                                                                          **result.flags}), **keep)
        text = render_subsystem(pack, result, locale)
        if result.check is not None:  # a push: name the stat the kept check was on
            text = f"{render_check(pack, result.check, locale, stat=keep.get('stat'))} [{word(pack, 'pushed', locale)}]"
        return CommandResult(pack.id, command, tool, result.to_json(), text, sheet_changed=True)
    else:
        raise CommandError(f".{command}: the {kind!r} subsystem has no command form", expected="use the API")
    changed = bool(result.changes)
    return CommandResult(pack.id, command, tool, result.to_json(), render_subsystem(pack, result, locale),
                         sheet_changed=changed)


# --- rendering -----------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "-" if value is None else str(value)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def render_check(pack: CompiledPack, result: CheckResult, locale: str = "en", *, stat: str | None = None,
                 modifier: int | None = None) -> str:
    """``侦查 25 困难: 1d100=37/12 失败`` in the viewer's locale, through the pack's labels."""
    res = pack.resolution
    roll_text = res.roll.text if res is not None else "roll"
    for pname, pvalue in result.params.items():
        roll_text = roll_text.replace("{" + pname + "}", str(pvalue))
    parts = []
    if stat:
        parts.append(pack.display_name(stat, locale))
    if result.raw_target is not None and modifier is None:
        parts.append(str(result.raw_target))
    if modifier is not None:
        parts.append(_signed(modifier))
    if result.difficulty:
        diff = pack.model.resolution.difficulties.get(result.difficulty) if pack.model.resolution else None
        label = diff.label if diff is not None else None
        if isinstance(label, Mapping):
            from lwcore.contributions import localized

            label = localized(label, locale)
        parts.append(str(label or result.difficulty))
    for name, count in result.modifiers.items():
        mod = pack.model.resolution.modifiers.get(name) if pack.model.resolution else None
        label = mod.label if mod is not None else None
        if isinstance(label, Mapping):
            from lwcore.contributions import localized

            label = localized(label, locale)
        parts.append(f"{label or name}×{count}")
    head = " ".join(parts)
    if modifier is not None:
        body = f"{roll_text}={result.roll}{_signed(modifier)}={result.roll + modifier}"
        if result.target is not None:
            body += f" {word(pack, 'vs', locale)} {result.target}"
    elif result.target is not None:
        body = f"{roll_text}={result.roll}/{result.target}"
    else:
        body = f"{roll_text}={result.roll}"
        if res is not None and res.roll.has_pool:
            body = f"{roll_text} [{', '.join(map(str, result.dice))}] {word(pack, 'successes', locale)} {_fmt(result.margin)}"
    return (f"{head}: " if head else "") + f"{body} {pack.label(result.rank, locale)}"


def render_total(pack: CompiledPack, stat: str | None, modifier: int, result: CheckResult, locale: str) -> str:
    """``Initiative +2: 1d20=13+2=15`` -- a roll-only check (no number to beat) and its total."""
    res = pack.resolution
    roll_text = res.roll.text if res is not None else "roll"
    head = pack.display_name(stat, locale) if stat else ""
    body = f"{roll_text}={result.roll}{_signed(modifier)}={result.roll + modifier}"
    return (f"{head} {_signed(modifier)}: " if head else "") + body


def render_subsystem(pack: CompiledPack, result: SubsystemResult, locale: str = "en") -> str:
    v = result.values
    kind = result.kind
    if kind == "sanity":
        assert result.check is not None
        head = f"{pack.display_name(v['stat'], locale)} {v['loss_text']}: {render_check(pack, result.check, locale)}"
        line = f"{head}; {pack.display_name(v['stat'], locale)} {v['before']} -> {v['after']} (-{v['loss']})"
        for flag in ("temporary", "permanent"):
            if result.flags.get(flag):
                line += f" [{word(pack, flag, locale)}]"
        return line
    if kind == "growth":
        name = pack.display_name(v["stat"], locale)
        line = f"{name} {v['before']}: {v['roll']} {word(pack, result.outcome, locale)}"
        if result.success:
            line += f" {v['before']} -> {v['after']} (+{v['gain']})"
        return line
    if kind == "table":
        line = f"{v['table']}: {v['roll']}"
        if v.get("entry"):
            line += f" {v['entry']}"
        if v.get("duration") is not None:
            line += f" ({word(pack, 'duration', locale)} {v['duration']} {v.get('unit', '')})".rstrip()
        return line
    if kind == "tally":
        assert result.check is not None
        line = f"{render_check(pack, result.check, locale)}; {word(pack, 'successes', locale)} {v['successes']}/" \
               f"{v['successes_needed']} {word(pack, 'failures', locale)} {v['failures']}/{v['failures_needed']}"
        if result.outcome in ("regain", "ended_success", "ended_failure"):
            line += f" [{word(pack, result.outcome, locale)}]"
        return line
    if kind == "luck":
        return f"{pack.display_name(v['stat'], locale)} {word(pack, 'cost', locale)} {v['cost']}: " \
               f"{v['roll']} -> {v['new_roll']} {pack.label(result.outcome, locale)}"
    if kind == "opposed":
        return word(pack, result.outcome, locale)
    if kind == "push":
        assert result.check is not None
        return f"{render_check(pack, result.check, locale)} [{word(pack, 'pushed', locale)}]"
    # a computer: its values, labelled by the pack
    label = pack.label(result.outcome, locale)
    shown = ", ".join(f"{word(pack, k, locale)} {_fmt(x)}" for k, x in v.items() if not isinstance(x, (list, dict)))
    dice = next((x for k, x in v.items() if k == "dice" and isinstance(x, list)), None)
    extra = f" [{', '.join(map(str, dice))}]" if dice else ""
    return f"{label}{extra}" + (f" ({shown})" if shown else "")
