"""The rulepack file format as pydantic models (``lw schema rulepack``).

A rulepack is pure data describing one tabletop system: its sheet, its derived stats and how
a check resolves. Unknown top-level keys are kept and reported as warnings (a newer pack on an
older engine still loads); inside ``resolution`` every key is checked, because a typo there
would silently change results.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Localized = str | dict[str, str]
"""A bare string (the author's own language) or a locale -> text mapping."""

Scalar = int | float | str | bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rank(BaseModel):
    """One outcome tier. The first rank whose ``when`` holds wins; the one without ``when`` is
    the fallback. ``success``/``critical``/``fumble``/``tier`` and any extra key (a flag the
    pack declares, e.g. ``messy: true``) are data copied into the result."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    when: str | bool | None = None
    success: bool = False
    critical: bool = False
    fumble: bool = False
    tier: int = 0
    drop: bool = Field(False, description="In a variant only: remove the inherited rank with this id.")

    @model_validator(mode="after")
    def _flags_are_plain(self) -> Rank:
        for key, value in (self.model_extra or {}).items():
            if not isinstance(value, (bool, int, float, str)) or value is None:
                raise ValueError(f"rank flag {key!r} must be true/false, a number or text")
        return self


class Param(_Strict):
    """An integer parameter of the roll expression (``{name}`` in ``roll:``)."""

    min: int = 0
    max: int = 1000
    default: int | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Param:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class Modifier(_Strict):
    """A named roll transform a check can ask for N times (``--bonus 2``).

    - ``tens_reroll``: roll N extra tens digits for a one-die percentile roll; each makes a
      full value with the original units (tens 0 and units 0 read 100); keep the lowest or the
      highest. Opposite directions cancel one for one.
    - ``reroll``: roll the whole roll expression N more times and keep the lowest or highest
      total (advantage/disadvantage). Opposite directions cancel one for one.
    """

    tens_reroll: Literal["keep_lowest", "keep_highest"] | None = None
    reroll: Literal["keep_lowest", "keep_highest"] | None = None
    max: int | None = Field(None, ge=0, description="Most times one check may apply it.")
    label: Localized | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Modifier:
        if (self.tens_reroll is None) == (self.reroll is None):
            raise ValueError("a modifier needs exactly one of tens_reroll or reroll")
        return self


class Difficulty(_Strict):
    """A named difficulty: ``target`` is an expression where ``target`` is the raw value."""

    target: str | int
    label: Localized | None = None


class Variant(_Strict):
    """House rules: each rank here replaces the inherited rank with the same id (in place);
    a new id is inserted before the fallback; ``drop: true`` removes one."""

    ranks: list[Rank] = Field(default_factory=list)
    label: Localized | None = None
    description: Localized | None = None


class Resolution(_Strict):
    """How a check resolves (see the engine README for the expression names)."""

    version: Literal[1] = 1
    roll: str | None = Field(None, description="A dice expression, e.g. 1d100, 2d20kh1, {pool}d10>=8.")
    target: str | int = Field("skill", description="skill | attribute | dc | none | an expression.")
    compare: Literal["<=", "<", ">=", ">"] = "<="
    params: dict[str, Param] = Field(default_factory=dict)
    modifiers: dict[str, Modifier] = Field(default_factory=dict)
    difficulties: dict[str, Difficulty] = Field(default_factory=dict)
    ranks: list[Rank] = Field(default_factory=list)
    margin: str | None = Field(None, description="An expression (e.g. successes, target - roll).")
    variants: dict[str, Variant] = Field(default_factory=dict)
    script: str | None = Field(None, description="resolver.js: resolution through the JS sandbox.")

    @model_validator(mode="after")
    def _needs_roll(self) -> Resolution:
        if self.roll is None and self.script is None:
            raise ValueError("resolution needs roll: (or script:)")
        return self


class SumRanges(_Strict):
    of: list[str] = Field(min_length=1)
    ranges: list[tuple[int | float, int | float, Scalar]]
    else_: Scalar | None = Field(None, alias="else")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class FloorDiv(_Strict):
    of: str
    by: int

    @model_validator(mode="after")
    def _nonzero(self) -> FloorDiv:
        if self.by == 0:
            raise ValueError("by: must not be 0")
        return self


class Derived(_Strict):
    """Exactly one way of computing a derived stat. Never ``eval``."""

    copy_of: str | None = None
    half_of: str | None = None
    floor_div: FloorDiv | None = None
    sum_ranges: SumRanges | None = None
    expr: str | None = Field(None, description="A closed-language number expression over stat names.")
    computer: str | None = Field(None, description="A named computer registered by a plugin.")
    computer_group: str | None = Field(None, description="Reuse this system's derived value of the same name.")
    stat: str | None = Field(None, description="With computer_group: the other system's stat name.")

    @model_validator(mode="after")
    def _exactly_one(self) -> Derived:
        kinds = [k for k in ("copy_of", "half_of", "floor_div", "sum_ranges", "expr", "computer", "computer_group")
                 if getattr(self, k) is not None]
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
        for k in ("copy_of", "half_of", "floor_div", "sum_ranges", "expr", "computer", "computer_group"):
            if getattr(self, k) is not None:
                return k
        raise AssertionError


class Resource(BaseModel):
    """A bar on the sheet (HP, sanity…): ``value``/``max`` name stats; ``label`` is per locale."""

    model_config = ConfigDict(extra="allow")

    id: str
    label: Localized
    value: str
    max: str | None = None


class Sheet(BaseModel):
    model_config = ConfigDict(extra="allow")

    resources: list[Resource] = Field(default_factory=list)


class Command(BaseModel):
    """A dot command the pack answers (``ra: {action: check}``); see ``commands.py``."""

    model_config = ConfigDict(extra="allow")

    action: str | None = Field(None, description="check | set_stats | make_char | show")
    tool: str | None = Field(None, description="A subsystem name (or kind) to run instead of an action.")
    value_is: Literal["target", "modifier", "param"] | None = Field(
        None, description="What a stat's value is: the target (default), a modifier added to the roll, or a param.")
    value_param: str | None = Field(None, description="With value_is: param, the parameter it fills.")
    counted: dict[str, str] | None = Field(None, description="word -> modifier: b2 asks for 'bonus' twice.")
    switches: dict[str, dict[str, Scalar]] | None = Field(
        None, description="word -> {modifier: M} | {param: P, value: N} | {arg: A, value: V} | {variant: V}.")
    target_words: list[str] | None = Field(None, description="Words before the number to beat (dc15).")
    positional: list[str] | None = Field(None, description="Parameter names bare numbers fill in order.")
    stat: str | None = Field(None, description="A fixed stat for this command.")
    stat_format: str | None = Field(None, description="Turns the named stat into another ('{}_save').")
    variant: str | None = None
    difficulty: str | None = None
    table: str | None = Field(None, description="For a table subsystem: which table.")
    method: str | None = Field(None, description="For make_char: the creation method.")


class Rulepack(BaseModel):
    """One rulepack file (``rulepacks/<id>.yaml``); the file stem is the system id."""

    model_config = ConfigDict(extra="allow", title="Rulepack")

    extends: str | None = Field(None, description="Parent system id; deep-merged, child wins, null deletes.")
    names: list[str] = Field(default_factory=list)
    set_keys: list[str] = Field(default_factory=list)
    defaults: dict[str, Scalar] = Field(default_factory=dict)
    alias: dict[str, list[str]] = Field(default_factory=dict)
    st_show: dict[str, Any] = Field(default_factory=dict)
    creation_constraints: dict[str, Any] = Field(default_factory=dict)
    derived: dict[str, Derived] = Field(default_factory=dict)
    display: dict[str, dict[str, str]] = Field(default_factory=dict)
    sheet: Sheet | None = None
    resolution: Resolution | None = None
    subsystems: dict[str, dict[str, Any] | None] = Field(default_factory=dict)
    commands: dict[str, Command] = Field(default_factory=dict)
    expertise: Localized | None = None
    labels: dict[str, dict[str, list[str] | str]] = Field(default_factory=dict)
