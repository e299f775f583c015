"""Dot commands declared by rulepacks (``commands:``), parsed generically.

A pack maps each command word to an action or a subsystem tool::

    commands:
      ra: {action: check, counted: {b: bonus, p: penalty}}
      sc: {tool: sanity, counted: {b: bonus, p: penalty}}
      chk: {action: check, value_is: modifier, target_words: [dc], switches: {adv: {modifier: advantage}}}
      w: {action: check, positional: [pool, difficulty], switches: {wp: {param: willpower}}}

Actions: ``check``, ``set_stats`` (``.st`` text), ``make_char``, ``show``; ``tool: NAME`` runs
the subsystem ``NAME``, fed by its kind (:meth:`lwcore.rules.kinds.base.SubsystemKind.command`).
Keys a command may carry:

- ``value_is``: ``target`` (the stat value is rolled against; default) or ``modifier`` (it is
  added to the roll: ``target_words`` then name the number to beat, e.g. ``dc``).
- ``counted``: ``{word: modifier}`` — ``b2`` asks for the ``bonus`` modifier twice.
- ``switches``: ``{word: {modifier: M} | {param: P, value: N} | {arg: A, value: V} | {variant: V}}``.
- ``positional``: parameter names that bare numbers fill in order.
- ``stat`` (a fixed stat), ``stat_format`` (``"{}_save"``: the named stat becomes another),
  ``variant``, ``table`` / ``args`` (fixed arguments for a tool), ``difficulty``.

Difficulty words come from the pack's ``resolution.difficulties`` (their ids, every locale's
label and their ``prefixes``), names from its aliases. A command's words are read once per
loaded pack (:class:`CommandSpec`). The result is structured data plus text rendered through
the pack's labels in the viewer's locale.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.rules import subsystems
from lwcore.rules.creation import make_char
from lwcore.rules.errors import CheckError
from lwcore.rules.kept_check import forget_check, remember_check
from lwcore.rules.kinds.advantage import net, pair_of
from lwcore.rules.render import fmt, render_check, render_total, word
from lwcore.rules.sheet import Sheet, read_name

if TYPE_CHECKING:
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.kinds.base import SubsystemResult
    from lwcore.rules.system import CheckResult, RuleSystem

MAX_REPEAT = 10
"""The most checks one ``N#`` repeat makes, and the most characters one ``make_char`` rolls."""


class CommandError(CheckError):
    """Input a command cannot use (unknown command, unknown skill, bad token)."""


@dataclass(slots=True)
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


@dataclass(slots=True)
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


def _norm(text: str) -> str:
    """Full-width digits and punctuation read as ASCII (NFKC); ASCII text is already so."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def _by_length(words: Any) -> tuple[str, ...]:
    return tuple(sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class CommandSpec:
    """One declared command, read once per loaded pack: its settings and its words folded
    and sorted longest first, ready for parsing."""

    word: str
    action: str | None
    tool: str | None
    value_is: str
    value_param: str
    counted: Mapping[str, str]
    counted_words: tuple[str, ...]
    switches: Mapping[str, Mapping[str, Any]]
    switch_words: tuple[str, ...]
    target_words: tuple[str, ...]
    positional: tuple[str, ...]
    stat: str | None
    stat_format: str | None
    variant: str | None
    difficulty: str | None
    method: str | None
    fixed: Mapping[str, Any]

    @classmethod
    def of(cls, word: str, declared: Any) -> CommandSpec:
        raw = declared.model_dump(exclude_none=True)
        counted = {str(k).casefold(): str(v) for k, v in (raw.get("counted") or {}).items()}
        switches = {str(k).casefold(): dict(v) for k, v in (raw.get("switches") or {}).items()}
        fixed = dict(raw.get("args") or {})
        if raw.get("table") is not None:
            fixed["table"] = raw["table"]
        return cls(word=word, action=raw.get("action"), tool=raw.get("tool"),
                   value_is=str(raw.get("value_is") or "target"), value_param=str(raw.get("value_param") or "pool"),
                   counted=counted, counted_words=_by_length(counted), switches=switches,
                   switch_words=_by_length(switches),
                   target_words=_by_length(str(w).casefold() for w in raw.get("target_words") or ()),
                   positional=tuple(raw.get("positional") or ()), stat=raw.get("stat"),
                   stat_format=raw.get("stat_format"), variant=raw.get("variant"), difficulty=raw.get("difficulty"),
                   method=raw.get("method"), fixed=fixed)


def _alternatives(words: Any, tail: str = "") -> str:
    return "|".join(re.escape(w) + tail for w in sorted(words, key=len, reverse=True))


def keyword_pattern(pack: RuleSystem, spec: CommandSpec) -> re.Pattern[str]:
    """One pattern for every word a check command reads at a position, in the order they
    win: separators, switches, counted modifiers (``b2``), target words with their number
    (``dc15``), difficulty words, signed numbers, bare numbers. Built once per command of a
    loaded pack."""
    key = ("keywords", spec.word)
    cached = pack.cache.get(key)
    if cached is None:
        parts = [f"(?P<sp>[{re.escape(_BOUNDARY)}]+)"]
        if spec.switch_words:
            parts.append(f"(?P<sw>{_alternatives(spec.switch_words)})(?![A-Za-z])")
        if spec.counted_words:
            parts.append(f"(?P<cw>{_alternatives(spec.counted_words)})(?P<cn>\\d*)(?![A-Za-z\\d])")
        if spec.target_words:
            parts.append(f"(?P<tw>{_alternatives(spec.target_words)})[ :=]*(?P<tn>\\d+)")
        words = [w for w, _ in difficulty_words(pack)]
        if words:
            parts.append("(?P<dw>" + "|".join(re.escape(w) + ("(?![A-Za-z])" if w[-1].isascii() else "")
                                               for w in words) + ")")
        parts += ["(?P<sg>[+-]\\s*\\d+)", "(?P<num>\\d+)"]
        cached = re.compile("|".join(parts))
        pack.cache[key] = cached
    return cached


def command_specs(pack: RuleSystem) -> dict[str, CommandSpec]:
    """The pack's commands, read once (cached on the loaded pack)."""
    cached = pack.cache.get("commands")
    if cached is None:
        cached = {name: CommandSpec.of(name, declared) for name, declared in pack.model.commands.items()}
        pack.cache["commands"] = cached
        pack.cache["command_words"] = sorted(((n.casefold(), n) for n in cached), key=lambda kv: -len(kv[0]))
    return cached


def difficulty_words(pack: RuleSystem) -> list[tuple[str, str]]:
    """``(folded word, difficulty id)``, longest first: ids, every label, every prefix."""
    cached = pack.cache.get("difficulty_words")
    if cached is None:
        table: dict[str, str] = {}
        res = pack.model.resolution
        for did, diff in (res.difficulties.items() if res else ()):
            table.setdefault(did.casefold(), did)
            labels = [diff.label] if isinstance(diff.label, str) else list((diff.label or {}).values())
            for text in [*labels, *(w for words in diff.prefixes.values() for w in words)]:
                if text:
                    table.setdefault(_norm(text).casefold(), did)
        cached = sorted(table.items(), key=lambda kv: -len(kv[0]))
        pack.cache["difficulty_words"] = cached
        pack.cache["difficulty_ids"] = table
    return cached


def find_command(pack: RuleSystem, text: str) -> tuple[str, CommandSpec, str]:
    """``(command, spec, rest)`` for ``.ra 困难侦查`` (longest command word wins)."""
    text = _norm(text).strip()
    if text[:1] in (".", "/", "。"):
        text = text[1:]
    specs = command_specs(pack)
    folded = text.casefold()
    for folded_word, name in pack.cache["command_words"]:
        if folded.startswith(folded_word):
            return name, specs[name], text[len(name):].strip()
    known = ", ".join("." + c for c in specs) or "none declared"
    first = text.split()[0] if text.split() else text
    raise CommandError(f"{pack.id} has no command for {first!r}", expected=f"one of: {known}")


_REPEAT = re.compile(r"\s*(\d+)\s*#\s*")
_INT = re.compile(r"\d+")
_BOUNDARY = " \t,，;；"


PARSED_TEXTS = 512
"""How many command texts a loaded pack remembers parsed (players repeat their commands)."""


def parse_check(pack: RuleSystem, spec: CommandSpec, rest: str) -> CheckArgs:
    """Parse the words after a check-like command, in any order. The result is shared with
    later parses of the same text (a loaded pack remembers :data:`PARSED_TEXTS` of them):
    read it, do not change it."""
    parsed = pack.cache.setdefault("parsed", {})
    key = (spec.word, rest)
    found = parsed.get(key)
    if found is None:
        found = _parse_check(pack, spec, rest)
        if len(parsed) >= PARSED_TEXTS:
            parsed.clear()
        parsed[key] = found
    return found


def _parse_check(pack: RuleSystem, spec: CommandSpec, rest: str) -> CheckArgs:
    out = CheckArgs(variant=spec.variant, difficulty=spec.difficulty)
    if spec.stat:
        out.stat = pack.canonical(spec.stat) or spec.stat
    text = _norm(rest)
    folded = text.casefold()
    match = keyword_pattern(pack, spec).match
    words = pack.cache["difficulty_ids"]
    positional = list(spec.positional) if spec.positional else None
    pos, n = 0, len(text)
    reason: list[str] = []
    named = False
    while pos < n:
        m = match(folded, pos)
        found = m.lastgroup if m is not None else None
        if found == "dw" and out.difficulty is not None:
            found = None  # a second difficulty word is read as a name or a reason
        if found is not None and m is not None:
            pos = m.end()
            if found == "sp":
                continue
            if found == "sw":
                _switch(out, spec.switches[m.group("sw")])
            elif found == "cn":
                name = spec.counted[m.group("cw")]
                out.modifiers[name] = out.modifiers.get(name, 0) + int(m.group("cn") or 1)
            elif found == "tn":
                out.target = int(m.group("tn"))
            elif found == "dw":
                out.difficulty = words[m.group("dw")]
            elif found == "sg":
                out.adjust += int(m.group("sg").replace(" ", ""))
            else:
                number = int(m.group("num"))
                out.bare.append(number)
                if positional:
                    pname = positional.pop(0)
                    out.params[pname] = number
                    out.positional[pname] = number
                elif out.value is None:
                    out.value = number
                else:
                    out.numbers.append(number)
            continue
        # a stat name (known names by longest match; then an unknown name with a value)
        if not named:
            got_name = read_name(text, pos, pack, folded)
            if got_name is not None and (got_name[2] or (got_name[1] < n and text[got_name[1]].isdigit()
                                                         and not reason)):
                out.stat, pos, _known = got_name
                named = True
                continue
        end = pos
        while end < n and text[end] not in _BOUNDARY:
            end += 1
        reason.append(text[pos:end])
        pos = end
    out.reason = " ".join(reason)
    return out


def _switch(out: CheckArgs, switch: Mapping[str, Any]) -> None:
    """Apply one switch word (adv, wp, 9again …)."""
    if "modifier" in switch:
        out.modifiers[switch["modifier"]] = out.modifiers.get(switch["modifier"], 0) + int(switch.get("count", 1))
    elif "param" in switch:
        out.params[switch["param"]] = int(switch.get("value", 1))
    elif "variant" in switch:
        out.variant = switch["variant"]
    elif "arg" in switch:
        out.args[switch["arg"]] = switch.get("value", True)


# --- running --------------------------------------------------------------------------------


def run_command(engine: RulesEngine | None, pack: RuleSystem, text: str, *, sheet: Sheet | None = None,
                rng: random.Random | None = None, locale: str = "en", faces: Sequence[int] | None = None,
                advantage_rule: str | None = None, variant: str | None = None) -> CommandResult:
    """Parse and run one dot command against ``pack``; ``sheet`` is read and changed in place.
    ``variant``: the house-rule ladder a check uses when neither the command's declaration nor
    a switch typed with it names one (a room's ``variant``)."""
    command, spec, rest = find_command(pack, text)
    if spec.action == "check":
        repeat = _REPEAT.match(rest)
        if repeat is None:
            return _run_check(pack, spec, rest, sheet, rng, locale, faces, advantage_rule, variant)
        times = int(repeat.group(1))
        if not 1 <= times <= MAX_REPEAT:
            raise CommandError(f".{command}: {times}# repeats", expected=f"1 to {MAX_REPEAT} repeats")
        if faces is not None:
            raise CommandError("replaying faces needs a single check", expected="no N# with --dice")
        results = [_run_check(pack, spec, rest[repeat.end():], sheet, rng, locale, None, advantage_rule, variant)
                   for _ in range(times)]
        return CommandResult(pack.id, command, "check", {"repeat": times, "results": [r.data for r in results]},
                             "\n".join(r.text for r in results), sheet_changed=any(r.sheet_changed for r in results))
    if spec.action == "set_stats":
        return _run_st(pack, command, rest, sheet, rng, locale)
    if spec.action == "make_char":
        return _run_make(pack, spec, rest, rng, locale)
    if spec.action == "show":
        return _run_st(pack, command, "show " + rest, sheet, rng, locale)
    if spec.tool is not None:
        return _run_tool(CommandCall(engine, pack, spec, rest, sheet, rng, locale, faces))
    raise CommandError(f".{command}: action {spec.action!r} is not one the engine runs",
                       expected="check, set_stats, make_char, show, or tool: SUBSYSTEM")


def _sheet_value(pack: RuleSystem, sheet: Sheet | None, stat: str) -> Any:
    if sheet is not None:
        return sheet.get(stat)
    value = pack.model.defaults.get(stat)
    if value is None and stat in pack.model.derived:
        value = pack.derive({}).get(stat)
    return value


def _resolve_value(pack: RuleSystem, spec: CommandSpec, args: CheckArgs, sheet: Sheet | None) -> tuple[str | None, int | None]:
    stat = args.stat
    if stat is not None and spec.stat_format:
        stat = pack.canonical(spec.stat_format.format(stat)) or stat
    if args.value is not None:
        return stat, args.value
    if stat is None:
        return None, None
    value = _sheet_value(pack, sheet, stat)
    if value is None:
        raise CommandError(f".{spec.word}: no value for {stat!r}",
                           expected=f"a value, e.g. .{spec.word} {stat}50, or a sheet")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise CommandError(f".{spec.word}: {stat} is {value!r}, not a number")
    return stat, int(value)


@dataclass(slots=True)
class ValueCheck:
    """One check made with a stat's value the way a check command says to use it
    (:func:`check_with_value`). ``modifier`` is set when the value was added to the roll
    (``value_is: modifier``); ``roll_only`` when there was no number to beat, so the check
    only gives ``total`` (the kept dice plus the modifier: what the ranks call ``roll``) and its
    grade means nothing."""

    result: CheckResult
    value_is: str
    modifier: int | None = None
    roll_only: bool = False
    total: int | None = None


PLAIN_CHECK = CommandSpec(word="check", action="check", tool=None, value_is="target", value_param="pool", counted={},
                          counted_words=(), switches={}, switch_words=(), target_words=(), positional=(), stat=None,
                          stat_format=None, variant=None, difficulty=None, method=None, fixed={})
"""How a check uses a stat's value in a pack that declares no check command."""


def check_command(pack: RuleSystem) -> CommandSpec:
    """The command plain skill checks follow (how they use the stat's value): the first
    command with ``action: check`` in the pack's declaration order (after ``extends``
    merging); :data:`PLAIN_CHECK` when the pack declares none."""
    return next((s for s in command_specs(pack).values() if s.action == "check"), PLAIN_CHECK)


def check_with_value(pack: RuleSystem, spec: CommandSpec, stat: str | None, value: int | None, *,
                     target: int | None = None, difficulty: str | None = None, variant: str | None = None,
                     modifiers: Mapping[str, int] | None = None, params: Mapping[str, int] | None = None,
                     adjust: int = 0, rng: random.Random | None = None, faces: Sequence[int] | None = None,
                     advantage_rule: str | None = None) -> ValueCheck:
    """Make one check of ``stat`` (value ``value``) the way the check command ``spec`` uses a
    value (``value_is``): as the number rolled against (``target``, the default; ``adjust`` is
    added to it), added to the roll (``modifier``; ``target`` is then the number to beat --
    given, set by a difficulty alone, or the pack's ``resolution.check.default_target``; with
    none the check is roll-only), or as the parameter ``value_param`` (``param``; ``adjust``
    added to it). ``target`` is ignored for a ``value_is: target`` command and for a pack with
    no target input. Opposite advantage modifiers are netted through the pack's ``advantage``
    subsystem; ``favorable``/``unfavorable`` name the modifiers ``resolution.check`` routes
    them to. The dot commands and the turn's ``skill_check`` both go through here."""
    mods = _named_modifiers(pack, modifiers)
    netting = _advantage(pack) if mods else None
    if netting is not None:
        (up, down), data = netting
        if up in mods or down in mods:
            mods.update(net(data, mods.pop(up, 0), mods.pop(down, 0), advantage_rule))
    res = pack.resolution
    needs_target = res is not None and res.target_kind == "input"
    given = dict(params or {})
    value_is = spec.value_is
    if value_is == "param":
        if stat is not None and value is not None:
            given[spec.value_param] = value
        if spec.value_param in given:
            given[spec.value_param] += adjust
        result = pack.check(None if not needs_target else target, difficulty=difficulty, variant=variant,
                            modifiers=mods, params=given, rng=rng, faces=faces)
        return ValueCheck(result, value_is)
    if value_is == "modifier":
        modifier = (value or 0) + adjust
        if needs_target and target is None:
            target = 0 if difficulty is not None else pack.default_target
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
            raise CommandError(f".{spec.word}: which skill?", expected=f".{spec.word} NAME or .{spec.word} NAME VALUE")
        rolled_against = value + adjust
    result = pack.check(rolled_against, difficulty=difficulty, variant=variant, modifiers=mods, params=given,
                        rng=rng, faces=faces)
    return ValueCheck(result, value_is)


def _named_modifiers(pack: RuleSystem, modifiers: Mapping[str, int] | None) -> dict[str, int]:
    """Modifier counts with ``favorable``/``unfavorable`` routed as ``resolution.check`` says."""
    mods: dict[str, int] = {}
    if not modifiers:
        return mods
    routes = pack.modifier_routes
    if not routes:
        return dict(modifiers)
    for name, count in modifiers.items():
        real = routes.get(name, name)
        mods[real] = mods.get(real, 0) + count
    return mods


def _advantage(pack: RuleSystem) -> tuple[tuple[str, str], dict[str, Any]] | None:
    """The modifiers the pack's ``advantage`` subsystem nets and its settings (``None``
    without one); read once per loaded pack."""
    if "advantage" not in pack.cache:
        data = subsystems.spec(pack, "advantage")[1] if subsystems.has(pack, "advantage") else None
        pack.cache["advantage"] = (pair_of(data), data) if data is not None else None
    return pack.cache["advantage"]


def _run_check(pack: RuleSystem, spec: CommandSpec, rest: str, sheet: Sheet | None, rng: random.Random | None,
               locale: str, faces: Sequence[int] | None, advantage_rule: str | None,
               variant: str | None = None) -> CommandResult:
    args = parse_check(pack, spec, rest)
    stat, value = _resolve_value(pack, spec, args, sheet)
    data: dict[str, Any] = {"stat": stat, "value": value, "adjust": args.adjust, "reason": args.reason}
    params = args.params
    if spec.value_is == "param":
        # bare numbers fill the positional parameters, skipping the one a named stat fills
        params = {k: v for k, v in args.params.items() if k not in args.positional}
        order = [p for p in spec.positional if not (stat is not None and p == spec.value_param)]
        params.update(zip(order, args.bare, strict=False))
    elif spec.value_is == "modifier" and stat is None and value is None and not args.adjust and args.reason:
        raise CommandError(f".{spec.word}: unknown name {args.reason.split()[0]!r}",
                           expected="a stat or skill of the sheet, or a modifier like +3")
    done = check_with_value(pack, spec, stat, value, target=args.target, difficulty=args.difficulty,
                            variant=args.variant or variant, modifiers=args.modifiers, params=params, adjust=args.adjust,
                            rng=rng, faces=faces, advantage_rule=advantage_rule)
    result = done.result
    if done.modifier is not None:
        data["modifier"] = done.modifier
    if done.roll_only:
        data.update(roll_only=True, check=result.to_json(), total=done.total)
        if sheet is not None:
            forget_check(sheet)
        return CommandResult(pack.id, spec.word, "check", data,
                             render_total(pack, stat, done.modifier or 0, result, locale))
    data["check"] = checked = result.to_json()
    if sheet is not None:
        # the sheet keeps its most recent check (what luck and push commands work on)
        remember_check(sheet, result, stat=stat, value=value, modifier=done.modifier, as_json=checked)
    return CommandResult(pack.id, spec.word, "check", data,
                         render_check(pack, result, locale, stat=stat, modifier=done.modifier),
                         sheet_changed=sheet is not None)


def _run_st(pack: RuleSystem, command: str, rest: str, sheet: Sheet | None, rng: random.Random | None,
            locale: str) -> CommandResult:
    if sheet is None:
        sheet = Sheet(pack)
    result = sheet.apply_st(rest, rng=rng, locale=locale)
    lines = list(result.output)
    for name, (before, after) in result.changes.items():
        lines.append(f"{pack.display_name(name, locale)}: {fmt(before)} -> {fmt(after)}")
    roll_notes = [f"{r['name']} {r['expr']}={r['total']}" for r in result.rolls]
    text = "\n".join(roll_notes + lines) or word(pack, "set", locale)
    data = result.to_json()
    data["sheet"] = sheet.to_json()
    return CommandResult(pack.id, command, "set_stats", data, text, sheet_changed=bool(result.changes))


def _run_make(pack: RuleSystem, spec: CommandSpec, rest: str, rng: random.Random | None,
              locale: str) -> CommandResult:
    m = _INT.search(rest)
    count = int(m.group(0)) if m else 1
    if not 1 <= count <= MAX_REPEAT:
        raise CommandError(f".{spec.word} {count}: too many characters at once",
                           expected=f"1 to {MAX_REPEAT} characters (.{spec.word} {MAX_REPEAT})")
    sheets = [make_char(pack, rng=rng, method=spec.method) for _ in range(count)]
    top = pack.model.st_show.get("top") or list(pack.model.creation_constraints.get("roll") or {})
    lines = []
    for made in sheets:
        values = made.values()
        lines.append(" ".join(f"{pack.display_name(k, locale)}:{fmt(values[k])}" for k in top if k in values))
    return CommandResult(pack.id, spec.word, "make_char", {"sheets": [s.to_json() for s in sheets]},
                         "\n".join(lines))


@dataclass
class CommandCall:
    """One dot command that runs a subsystem, as its kind sees it
    (:meth:`lwcore.rules.kinds.base.SubsystemKind.command`)."""

    engine: RulesEngine | None
    rule_system: RuleSystem
    spec: CommandSpec
    rest: str
    sheet: Sheet | None
    rng: random.Random | None
    locale: str
    faces: Sequence[int] | None

    def __post_init__(self) -> None:
        self.rest = _norm(self.rest)

    @property
    def word(self) -> str:
        return self.spec.word

    @property
    def subsystem(self) -> str:
        return subsystems.name_of(self.rule_system, str(self.spec.tool))

    @property
    def fixed(self) -> Mapping[str, Any]:
        """Arguments the command itself fixes (``table: realtime``)."""
        return self.spec.fixed

    def parse(self, text: str | None = None) -> CheckArgs:
        return parse_check(self.rule_system, self.spec, self.rest if text is None else text)

    def value_of(self, args: CheckArgs) -> tuple[str | None, int | None]:
        """The stat the words named and its value (given, else from the sheet or the pack)."""
        return _resolve_value(self.rule_system, self.spec, args, self.sheet)

    def run(self, **kwargs: Any) -> SubsystemResult:
        return subsystems.run(self.engine, self.rule_system, str(self.spec.tool), self.sheet, rng=self.rng, **kwargs)

    def on_kept(self, want: str | None = None) -> SubsystemResult:
        return subsystems.run_on_kept(self.engine, self.rule_system, str(self.spec.tool), self.sheet, want=want,
                                      rng=self.rng, faces=self.faces)

    def refuse(self, message: str, expected: str | None = None) -> CommandError:
        return CommandError(message, expected=expected)


def _run_tool(call: CommandCall) -> CommandResult:
    pack, tool = call.rule_system, str(call.spec.tool)
    kind, data = subsystems.spec(pack, tool)
    if data.get("computer") is not None or data.get("script") is not None:
        result = _run_computer(call)
        on_kept = False
    else:
        found = subsystems.kind_of(pack, kind, data, call.subsystem)
        result = found.command(call)
        on_kept = found.kept_checks == 1
    return CommandResult(pack.id, call.word, tool, result.to_json(),
                         subsystems.render_subsystem(pack, result, call.locale),
                         sheet_changed=bool(result.changes) or (on_kept and call.sheet is not None))


def _run_computer(call: CommandCall) -> SubsystemResult:
    """A computer- or script-backed subsystem: every parsed word is handed over as an argument."""
    args = call.parse()
    kwargs: dict[str, Any] = {**args.params, **args.args, **args.modifiers, **call.fixed}
    value = args.value
    if value is None and args.stat is not None:
        value = call.value_of(args)[1]
    if value is not None:
        kwargs["value"] = value
    if args.adjust:
        kwargs["adjust"] = args.adjust
    return call.run(faces=call.faces, **kwargs)
