"""The rulepack file format as pydantic models (``lw schema rulepack``).

A rulepack is pure data describing one tabletop system: its sheet, its derived stats and how
a check resolves. Every field carries a description and an example (the schema is the
reference an author reads). Keys the engine does not know are kept and reported as located
warnings with a "did you mean" (:mod:`lwcore.rules.pack_keys`); inside ``resolution`` an
unknown key is an error, because a typo there would silently change results.

Shapes written for other engines of the same format are accepted with their meaning: a label
as ``{display, markers}``, a difficulty given only ``prefixes``, a computed ``sum_ranges.else``
(``{expr, format}``), a sheet resource read from a ``source`` record, and a modifier that
replaces the roll (``roll: 2d20kh1``).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Localized = str | dict[str, str]
"""A bare string (the author's own language) or a locale -> text mapping."""

Scalar = int | float | str | bool


def _field(default: Any = None, description: str = "", example: Any = None, **kwargs: Any) -> Any:
    """A model field with its description and one example (both shown by ``lw schema``)."""
    extra: dict[str, Any] = {"examples": [example]} if example is not None else {}
    if callable(default) and not isinstance(default, type) or default in (list, dict):
        return Field(default_factory=default, description=description, **extra, **kwargs)
    return Field(default, description=description, **extra, **kwargs)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rank(BaseModel):
    """One outcome tier. The first rank whose ``when`` holds wins; the one without ``when`` is
    the fallback. ``success``/``critical``/``fumble``/``tier`` and any extra key (a flag the
    pack declares, e.g. ``messy: true``) are data copied into the result."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"id": "hard", "when": "roll <= floor(raw_target / 2)", "success": True, "tier": 3}]})

    id: str = _field(description="The rank id results carry and labels name.", example="hard", min_length=1)
    when: str | bool | None = _field(description="A closed-language condition over roll (the kept dice total "
                                                  "plus the check's modifier), total (the dice alone), dice[i] "
                                                  "(each kept face), modifier, target, raw_target, successes, "
                                                  "ones and the params; leave it out on the last (fallback) rank.",
                                      example="roll <= target")
    success: bool = _field(False, "Whether this rank is a success.", True)
    critical: bool = _field(False, "Whether this rank is a critical success.", False)
    fumble: bool = _field(False, "Whether this rank is a fumble (critical failure).", False)
    tier: int = _field(0, "Order of ranks (higher is better): luck, opposed rolls and pushes compare tiers.", 3)
    drop: bool = _field(False, "In a variant only: remove the inherited rank with this id.", True)

    @model_validator(mode="after")
    def _flags_are_plain(self) -> Rank:
        for key, value in (self.model_extra or {}).items():
            if not isinstance(value, (bool, int, float, str)) or value is None:
                raise ValueError(f"rank flag {key!r} must be true/false, a number or text")
        return self


class Param(_Strict):
    """An integer parameter of the roll expression (``{name}`` in ``roll:``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"min": 1, "max": 30, "default": 1}]})

    min: int = _field(0, "The smallest value; a smaller one given to a check is raised to it.", 1)
    max: int = _field(1000, "The largest value; a larger one is lowered to it.", 30)
    default: int | None = _field(None, "The value when a check gives none (without one, a check must give it).", 6)

    @model_validator(mode="after")
    def _ordered(self) -> Param:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class Modifier(_Strict):
    """A named roll transform a check can ask for N times (``--bonus 2``); exactly one of:

    - ``tens_reroll``: roll N extra tens digits for a one-die percentile roll; each makes a
      full value with the original units (tens 0 and units 0 read 100); keep the lowest or the
      highest. Opposite directions cancel one for one.
    - ``reroll``: roll the whole roll expression N more times and keep the lowest or highest
      total (advantage/disadvantage). Opposite directions cancel one for one.
    - ``roll``: roll this dice expression instead of the pack's roll (``2d20kh1``); asked for
      once at most, and two different replacement rolls in one check cancel each other.
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"tens_reroll": "keep_lowest", "label": {"en": "bonus die"}}, {"roll": "2d20kh1"}]})

    tens_reroll: Literal["keep_lowest", "keep_highest"] | None = _field(
        None, "Extra tens digits for a one-die percentile roll; keep the lowest or highest value.", "keep_lowest")
    reroll: Literal["keep_lowest", "keep_highest"] | None = _field(
        None, "Roll the whole expression again per count; keep the lowest or highest total.", "keep_highest")
    roll: str | None = _field(None, "A dice expression rolled instead of the pack's roll.", "2d20kh1")
    max: int | None = _field(None, "Most times one check may apply it.", 1, ge=0)
    label: Localized | None = _field(None, "How results name it (text or locale map).", {"en": "bonus die", "zh": "奖励骰"})

    @model_validator(mode="after")
    def _one_kind(self) -> Modifier:
        if sum(x is not None for x in (self.tens_reroll, self.reroll, self.roll)) != 1:
            raise ValueError("a modifier needs exactly one of tens_reroll, reroll or roll")
        return self


class Difficulty(_Strict):
    """A named difficulty: ``target`` is an expression where ``target`` is the raw value (left
    out: the target unchanged); ``label`` and ``prefixes`` are the words that name it."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"target": "floor(target / 2)", "label": {"en": "Hard", "zh": "困难"}}]})

    target: str | int = _field("target", "The adjusted target, an expression over target (the raw value), "
                                         "modifier and params.", "floor(target / 2)")
    label: Localized | None = _field(None, "How results name it (text or locale map); also a word commands read.",
                                     {"en": "Hard", "zh": "困难"})
    prefixes: dict[str, list[str]] = _field(dict, "More words (per locale) that select it in a command.",
                                            {"en": ["hard"], "zh": ["困难"]})


class Variant(_Strict):
    """House rules: each rank here replaces the inherited ranks with the same id (in place);
    a new id is inserted before the fallback; ``drop: true`` removes one. A variant whose ranks
    end with their own fallback (a rank without ``when:``) is a whole ladder of its own."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"description": "01-05 always critical", "ranks": [
            {"id": "crit", "when": "roll <= 5", "success": True, "critical": True, "tier": 5}]}]})

    ranks: list[Rank] = _field(list, "Ranks that patch (or replace) the inherited ladder.",
                               [{"id": "crit", "when": "roll <= 5", "success": True, "critical": True, "tier": 5}])
    label: Localized | None = _field(None, "A short name for people choosing it.", {"en": "Strict criticals"})
    description: Localized | None = _field(None, "What the house rule changes.", {"en": "01-05 always critical"})


class CheckDefaults(_Strict):
    """How generic checks (a tool call, a plain command) feed this system."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"favorable": "advantage", "unfavorable": "disadvantage", "default_target": 15}]})

    favorable: str | None = _field(None, "The modifier a favorable circumstance asks for (also the word "
                                         "'favorable' in a check's modifiers).", "bonus")
    unfavorable: str | None = _field(None, "The modifier an unfavorable circumstance asks for.", "penalty")
    default_target: int | None = _field(None, "The number to beat when a check that adds the stat to the roll "
                                              "gives none.", 15)
    proficiency: str | None = _field(None, "A stat a 'proficient' check adds (kept for tools that offer it).",
                                     "prof")
    default_skill: str | None = _field(None, "The stat a check names when it names none.", "spot")


class Resolution(_Strict):
    """How a check resolves. In its expressions ``roll`` is the kept dice total plus the check's
    ``modifier`` and ``total`` the dice alone (the engine README lists every name)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"roll": "1d100", "target": "skill", "compare": "<=",
         "ranks": [{"id": "success", "when": "roll <= target", "success": True, "tier": 1}, {"id": "failure"}]}]})

    version: Literal[1] = _field(1, "The format version of this section.", 1)
    roll: str | None = _field(None, "A dice expression, e.g. 1d100, 2d20kh1, {pool}d10>=8.", "1d100")
    target: str | int = _field("skill", "skill | attribute | dc (a value the check gives), none, or an "
                                        "expression over modifier and params.", "skill")
    compare: Literal["<=", "<", ">=", ">"] = _field("<=", "How a roll beats the target for the default ranks "
                                                          "and margin.", "<=")
    params: dict[str, Param] = _field(dict, "Integer parameters of the roll ({name} in roll:).",
                                      {"pool": {"min": 1, "max": 30, "default": 1}})
    modifiers: dict[str, Modifier] = _field(dict, "Named roll transforms a check asks for by name.",
                                            {"bonus": {"tens_reroll": "keep_lowest"}})
    difficulties: dict[str, Difficulty] = _field(dict, "Named target adjustments.",
                                                 {"hard": {"target": "floor(target / 2)"}})
    ranks: list[Rank] = _field(list, "Ordered ranks; the first whose when: holds wins; the last has no when:.",
                               [{"id": "success", "when": "roll <= target", "success": True, "tier": 1},
                                {"id": "failure"}])
    margin: str | None = _field(None, "An expression for the result's margin (default target - roll, or "
                                      "roll - target for >=; roll includes the modifier).", "target - roll")
    variants: dict[str, Variant] = _field(dict, "House-rule ladders a room or a check may choose.",
                                          {"strict": {"ranks": [{"id": "crit", "when": "roll <= 5", "critical": True,
                                                                 "success": True, "tier": 5}]}})
    script: str | None = _field(None, "resolver.js: resolution through the JS sandbox.", "resolver.js")
    check: CheckDefaults | None = _field(None, "How generic checks feed this system.", {"default_target": 15})

    @model_validator(mode="after")
    def _needs_roll(self) -> Resolution:
        if self.roll is None and self.script is None:
            raise ValueError("resolution needs roll: (or script:)")
        return self


class ComputedElse(_Strict):
    """A computed fallback of ``sum_ranges``: an expression over the stats, optionally written
    into a text ``format`` (``"{}d6"`` makes 2 read ``2d6``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"expr": "floor((STR + SIZ - 205) / 80) + 2", "format": "{}d6"}]})

    expr: str = _field(description="A number expression over the pack's stat names.",
                       example="floor((STR + SIZ - 205) / 80) + 2")
    format: str | None = _field(None, "Text with one {} where the number goes.", "{}d6")

    @field_validator("format")
    @classmethod
    def _one_slot(cls, value: str | None) -> str | None:
        if value is not None and value.count("{}") != 1:
            raise ValueError("format needs exactly one {} where the number goes")
        return value


class SumRanges(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={
        "examples": [{"of": ["STR", "SIZ"], "ranges": [[2, 64, -2], [65, 84, -1]], "else": 0}]})

    of: list[str] = _field(description="The stats whose sum is looked up.", example=["STR", "SIZ"], min_length=1)
    ranges: list[tuple[int | float, int | float, Scalar]] = _field(
        description="[low, high, value] rows, inclusive, first match wins.", example=[[2, 64, -2], [65, 84, -1]])
    else_: Scalar | ComputedElse | None = Field(
        None, alias="else", description="The value when no row matches: a value, or {expr, format} computed.",
        examples=[0, {"expr": "floor((STR + SIZ - 205) / 80) + 2", "format": "{}d6"}])


class FloorDiv(_Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"of": "POW", "by": 5}]})

    of: str = _field(description="The stat divided.", example="POW")
    by: int = _field(description="The divisor (rounded down).", example=5)

    @model_validator(mode="after")
    def _nonzero(self) -> FloorDiv:
        if self.by == 0:
            raise ValueError("by: must not be 0")
        return self


DERIVED_FORMS = ("copy_of", "half_of", "floor_div", "sum_ranges", "expr", "computer", "computer_group")


class Derived(_Strict):
    """Exactly one way of computing a derived stat. Never ``eval``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"half_of": "DEX"}]})

    copy_of: str | None = _field(None, "The same value as this stat.", "EDU")
    half_of: str | None = _field(None, "Half this stat, rounded down.", "DEX")
    floor_div: FloorDiv | None = _field(None, "A stat divided, rounded down.", {"of": "POW", "by": 5})
    sum_ranges: SumRanges | None = _field(None, "A lookup on the sum of stats.",
                                          {"of": ["STR", "SIZ"], "ranges": [[2, 64, -2]], "else": 0})
    expr: str | None = _field(None, "A closed-language number expression over stat names.",
                              "floor((CON + SIZ) / 10)")
    computer: str | None = _field(None, "A named computer registered by a plugin.", "mov")
    computer_group: str | None = _field(None, "Reuse this system's derived value of the same name.", "base")
    stat: str | None = _field(None, "With computer_group: the other system's stat name.", "MOV")

    @model_validator(mode="after")
    def _exactly_one(self) -> Derived:
        kinds = [k for k in DERIVED_FORMS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                "a derived stat needs exactly one of copy_of, half_of, floor_div, sum_ranges, expr, "
                f"computer, computer_group (got {', '.join(kinds) or 'none'})"
            )
        if self.stat is not None and self.computer_group is None:
            raise ValueError("stat: goes with computer_group:")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in DERIVED_FORMS if getattr(self, k) is not None)


class Resource(BaseModel):
    """A bar on the sheet (HP, sanity…): ``value``/``max`` name stats, or ``source`` names a
    ``{current, max}`` record under ``sheet:``; ``label`` is per locale."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"id": "hp", "label": {"en": "HP", "zh": "生命"}, "value": "HP", "max": "HPMAX"}]})

    id: str = _field(description="The resource id.", example="hp")
    label: Localized = _field(description="Its name for each viewer (text or locale map).",
                              example={"en": "HP", "zh": "生命"})
    value: str | None = _field(None, "The stat holding the current value.", "HP")
    max: str | None = _field(None, "The stat holding the maximum.", "HPMAX")
    source: str | None = _field(None, "Instead of value/max: a {current, max} record under sheet: (its entries "
                                      "name stats, or give starting numbers kept in stats named <id> and "
                                      "<id>max).", "hit_points")

    @model_validator(mode="after")
    def _value_or_source(self) -> Resource:
        if self.value is None and self.source in (None, "attributes"):
            raise ValueError("a resource needs value: (a stat) or source: (a {current, max} record under sheet:)")
        return self


class Specialisation(_Strict):
    """A skill family whose members are written ``FAMILY(SPECIALTY)`` (``Language (Latin)``):
    any specialty is a stat of the pack, named by the family's canonical name and the specialty."""

    alias: list[str] = _field(list, "Other names of the family (any case), e.g. language.", ["language"])
    default: int | float | None = _field(None, "A specialty's starting value (none: it starts unset).", 1)


class Bounds(_Strict):
    """The values a player's ``.st`` may give a stat (the keeper's is not bounded)."""

    min: float | None = _field(None, "The smallest value a player may give it.", 0)
    max: float | None = _field(None, "The largest value a player may give it.", 99)

    @model_validator(mode="after")
    def _ordered(self) -> Bounds:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is larger than max {self.max:g}")
        for value in (self.min, self.max):
            if value is not None and not math.isfinite(value):
                raise ValueError("bounds are finite numbers")
        return self


class SheetShape(BaseModel):
    """What a character sheet shows; other keys are kept (and reported) for tools that read them."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"resources": [{"id": "hp", "label": "HP", "value": "HP", "max": "HPMAX"}]}]})

    resources: list[Resource] = _field(list, "Bars shown with the character.",
                                       [{"id": "hp", "label": "HP", "value": "HP", "max": "HPMAX"}])
    tagline: list[str] = _field(list, "Sheet keys whose values describe the character in one line after its "
                                      "name (joined by commas; a key the sheet leaves out is skipped).", ["role", "origin"])


class Command(BaseModel):
    """A dot command the pack answers (``ra: {action: check}``); see ``commands.py``."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"action": "check", "counted": {"b": "bonus", "p": "penalty"}}]})

    action: str | None = _field(None, "check | set_stats | make_char | show.", "check")
    tool: str | None = _field(None, "A subsystem name (or kind) to run instead of an action.", "sanity")
    value_is: Literal["target", "modifier", "param"] | None = _field(
        None, "What a stat's value is: the target (default), a modifier added to the roll, or a param.", "modifier")
    value_param: str | None = _field(None, "With value_is: param, the parameter it fills.", "pool")
    counted: dict[str, str] | None = _field(None, "word -> modifier: b2 asks for 'bonus' twice.", {"b": "bonus"})
    switches: dict[str, dict[str, Scalar]] | None = _field(
        None, "word -> {modifier: M} | {param: P, value: N} | {arg: A, value: V} | {variant: V}.",
        {"adv": {"modifier": "advantage"}})
    target_words: list[str] | None = _field(None, "Words before the number to beat (dc15).", ["dc"])
    positional: list[str] | None = _field(None, "Parameter names bare numbers fill in order.", ["pool"])
    stat: str | None = _field(None, "A fixed stat for this command.", "initiative")
    stat_format: str | None = _field(None, "Turns the named stat into another ('{}_save').", "{}_save")
    variant: str | None = _field(None, "The variant its checks use.", "attack")
    difficulty: str | None = _field(None, "The difficulty its checks use.", "hard")
    table: str | None = _field(None, "For a table subsystem: which table.", "realtime")
    method: str | None = _field(None, "For make_char: the creation method.", "point_buy")
    args: dict[str, Scalar] | None = _field(None, "Fixed arguments for its tool (table: …).", {"table": "realtime"})


class LabelForms(_Strict):
    """A label with the words that also name it: ``display`` is what results show."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"display": "Success", "markers": ["Regular Success"]}]})

    display: str = _field(description="What results show.", example="Success")
    markers: list[str] = _field(list, "More words that name it (a luck spend's wanted level …).", ["Regular Success"])


Label = str | list[str] | LabelForms
"""One rank/outcome/flag label: text, a list (the first is shown, all name it), or
``{display, markers}``."""


def label_words(value: Label) -> list[str]:
    """Every word of a label, the displayed one first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, LabelForms):
        return [value.display, *value.markers]
    return list(value)


class PackTest(_Strict):
    """One case of a pack's own test table (``lw rulepack test``): a check (``skill``/``target``
    with fixed dice), a subsystem run or a dot command, and what it must give."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"skill": 50, "roll": 25, "difficulty": "hard", "want": "hard"}]})

    name: str | None = _field(None, "A name shown when the case fails.", "hard at half the skill")
    skill: int | None = _field(None, "A check's value rolled against (same as target).", 50)
    target: int | None = _field(None, "A check's target value (a DC for a dc pack).", 15)
    difficulty: str | None = _field(None, "A difficulty the pack declares.", "hard")
    variant: str | None = _field(None, "A variant the pack declares.", "strict")
    bonus: int = _field(0, "Bonus modifier count.", 1, ge=0)
    penalty: int = _field(0, "Penalty modifier count.", 1, ge=0)
    modifiers: dict[str, int] = _field(dict, "Other modifier counts by name.", {"advantage": 1})
    modifier: int = _field(0, "A number added to the dice total: the ranks' roll includes it, total does not.", 3)
    params: dict[str, int] = _field(dict, "Roll parameters.", {"pool": 5})
    roll: int | None = _field(None, "The one die's value as rolled (a one-die roll), before the modifier.", 25)
    dice: list[int] | list[list[int]] | None = _field(
        None, "Exact faces in the order rolled (one list per command when command is a list).", [37, 0])
    subsystem: str | None = _field(None, "Run this subsystem (name or kind) instead of a check.", "sanity")
    args: dict[str, Scalar] = _field(dict, "Arguments of the subsystem.", {"loss": "1/1d6"})
    command: str | list[str] | None = _field(None, "Run this dot command (or these, in order, on one sheet).",
                                             ".ra spot 60")
    sheet: dict[str, Scalar] = _field(dict, "Stat values of the character the subsystem or command uses.",
                                      {"SAN": 50})
    locale: str = _field("en", "The locale of text: outputs.", "zh")
    want: str | None = _field(None, "The rank id (check) or outcome (subsystem) the case must give.", "hard")
    success: bool | None = _field(None, "Whether the result must be a success.", True)
    critical: bool | None = _field(None, "Whether the result must be critical.", False)
    fumble: bool | None = _field(None, "Whether the result must be a fumble.", False)
    margin: int | None = _field(None, "The margin the result must have.", 5)
    values: dict[str, Scalar] = _field(dict, "Values the subsystem result must hold.", {"after": 46})
    sheet_after: dict[str, Scalar] = _field(dict, "Stat values the sheet must hold afterwards.", {"SAN": 46})
    text: str | None = _field(None, "The exact text a command must print.", "Spot Hidden 60: 1d100=25/60 Hard Success")
    error: str | None = _field(None, "Words the refusal must contain (the case must be refused).", "no earlier check")

    @model_validator(mode="after")
    def _one_thing(self) -> PackTest:
        if self.subsystem is not None and self.command is not None:
            raise ValueError("a case runs a check, a subsystem or a command, not two of them")
        if self.skill is not None and self.target is not None:
            raise ValueError("give skill or target, not both")
        if self.roll is not None and self.dice is not None:
            raise ValueError("give roll or dice, not both")
        if all(x is None for x in (self.want, self.success, self.critical, self.fumble, self.margin, self.text,
                                   self.error)) and not self.values and not self.sheet_after:
            raise ValueError("a case needs something to check: want, success, margin, values, text, error …")
        return self


class Rulepack(BaseModel):
    """One rulepack file (``rulepacks/<id>.yaml``); the file stem is the system id."""

    model_config = ConfigDict(extra="allow", title="Rulepack", json_schema_extra={"examples": [{
        "names": ["My System"], "defaults": {"STR": 10},
        "resolution": {"roll": "1d20", "target": "skill", "compare": "<="}}]})

    extends: str | None = _field(None, "Parent system id; deep-merged, child wins, null deletes.", "base")
    names: list[str] = _field(list, "Words that select the system (besides its id).", ["My System", "mysys"])
    set_keys: list[str] = _field(list, "More words that select it (a room's system: line).", ["mysys"])
    defaults: dict[str, Scalar] = _field(dict, "Stats and skills with their starting values.", {"STR": 10, "Climb": 20})
    alias: dict[str, list[str]] = _field(dict, "Canonical stat -> other names it answers to.",
                                         {"STR": ["str", "strength"]})
    st_show: dict[str, Any] = _field(dict, "How a sheet is listed: top (names first), itemsPerLine.",
                                     {"top": ["STR", "DEX"], "itemsPerLine": 4})
    creation_constraints: dict[str, Any] = _field(
        dict, "Character creation: method, roll (stat -> dice), point_buy, array, range, ranges.",
        {"roll": {"STR": "3d6"}, "range": {"min": 3, "max": 18}})
    derived: dict[str, Derived] = _field(dict, "Stats computed from others.", {"Dodge": {"half_of": "DEX"}})
    specialisations: dict[str, Specialisation] = _field(
        dict, "Skill families written FAMILY(SPECIALTY): family -> its other names and a specialty's default.",
        {"外语": {"alias": ["language"], "default": 1}})
    bounds: dict[str, Bounds] = _field(
        dict, "What a player's .st may set each stat to (stat -> {min, max}; '*' for every stat not named); "
              "the keeper's .st is not bounded.", {"*": {"min": 0, "max": 99}, "AGE": {"min": 15, "max": 90}})
    display: dict[str, dict[str, str]] = _field(dict, "locale -> stat -> presentation name.",
                                                {"en": {"侦查": "Spot Hidden"}})
    sheet: SheetShape | None = _field(None, "What a sheet shows (resources).",
                                      {"resources": [{"id": "hp", "label": "HP", "value": "HP"}]})
    resolution: Resolution | None = _field(None, "How a check resolves.", {"roll": "1d20", "target": "dc",
                                                                           "compare": ">="})
    subsystems: dict[str, dict[str, Any] | None] = _field(
        dict, "Procedures beyond one check (sanity, luck, growth, opposed, table, push, advantage, tally, or a "
              "computer:/script:); see the rules README.", {"sanity": {"stat": "SAN"}})
    commands: dict[str, Command] = _field(dict, "Dot commands: word -> action or tool.",
                                          {"ra": {"action": "check"}, "sc": {"tool": "sanity"}})
    expertise: Localized | None = _field(None, "Notes for the keeper (text or locale map).",
                                         {"en": "Checks roll 1d20 under the stat."})
    labels: dict[str, dict[str, Label]] = _field(dict, "locale -> rank/outcome/flag id -> label.",
                                                 {"en": {"crit": ["Critical Success"]}})
    tests: list[PackTest] = _field(list, "The pack's own test cases (lw rulepack test).",
                                   [{"skill": 50, "roll": 25, "difficulty": "hard", "want": "hard"}])

    @field_validator("defaults")
    @classmethod
    def _numbers_are_numbers(cls, values: dict[str, Scalar]) -> dict[str, Scalar]:
        for name, value in values.items():
            if isinstance(value, str) and _looks_numeric(value):
                raise ValueError(f"{name}: {value!r} is text that reads like a number (YAML keeps 1e400 or a "
                                 "quoted number as text); write a plain number like 50, or quote real text")
        return values


def _looks_numeric(text: str) -> bool:
    try:
        float(text.strip().replace("_", ""))
    except ValueError:
        return False
    return bool(text.strip())
