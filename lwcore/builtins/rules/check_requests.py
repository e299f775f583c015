"""One check request of ``lw check --batch`` (a JSON line) and its answer.

A request is validated strictly (:class:`CheckRequest`): ``"skill": true``, ``50.7``,
``"dice": [1.5]``, ``"bonus": true`` or ``"modifiers": [1]`` are refused with the field named,
never read as numbers. Its answer is the check's JSON (``CheckResult.to_json()``) with the
rank's label (and the skill's names) in the request's locale.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lwcore.errors import LwError
from lwcore.io.models import validate_model

if TYPE_CHECKING:
    from lwcore.rules.engine import RulesEngine
    from lwcore.rules.system import CheckResult, RuleSystem

MAX_FACES = 1000


class CheckRequest(BaseModel):
    """One line of ``lw check --batch``."""

    model_config = ConfigDict(extra="forbid", strict=True, title="CheckRequest")

    system: str = Field(min_length=1, max_length=200, description="A system id or any of its names.")
    skill: int | str | None = Field(None, description="The value rolled against, or NAME=VALUE.")
    target: int | None = Field(None, description="The value rolled against (same as skill's value).")
    name: str | None = Field(None, max_length=200, description="The skill's name, for labels.")
    difficulty: str | None = Field(None, max_length=200)
    variant: str | None = Field(None, max_length=200)
    bonus: int = Field(0, ge=0, le=100)
    penalty: int = Field(0, ge=0, le=100)
    modifiers: dict[str, int] | None = None
    modifier: int = Field(0, ge=-10**9, le=10**9)
    params: dict[str, int] | None = None
    dice: list[int] | None = Field(None, max_length=MAX_FACES, description="Faces to replay, in order.")
    roll: int | None = Field(None, description="The one die's value.")
    seed: int | None = None
    locale: str = Field("en", max_length=35)

    @model_validator(mode="after")
    def _one_value(self) -> CheckRequest:
        if self.skill is not None and self.target is not None:
            raise ValueError("give skill or target, not both")
        if self.dice is not None and self.roll is not None:
            raise ValueError("give dice or roll, not both")
        return self


def parse_skill(pack: RuleSystem | None, text: str, what: str = "--skill") -> tuple[str | None, int]:
    """``"Climb=60"`` -> ``("Climb" as the pack's canonical name, 60)``; ``"60"`` -> ``(None, 60)``."""
    name, sep, value = text.rpartition("=")
    if not sep:
        name, value = "", text
    try:
        number = int(value.strip())
    except ValueError:
        raise LwError(f"{what} {text!r}: {value.strip()!r} is not a whole number",
                      expected="NAME=VALUE, e.g. Climb=60, or a number") from None
    name = name.strip()
    canonical = (pack.canonical(name) or name) if name and pack is not None else (name or None)
    return canonical, number


def check_json(pack: RuleSystem, result: CheckResult, skill_name: str | None, locale: str) -> dict[str, Any]:
    """A check result as JSON, with the rank's label (and the skill's names) in ``locale``."""
    out = result.to_json()
    out["label"] = pack.label(result.rank, locale)
    if skill_name:
        out["skill"] = skill_name
        out["skill_display"] = pack.display_name(skill_name, locale)
    return out


class BatchChecks:
    """Answers the request lines of one batch (``lw check --batch``). Each system is looked up
    once per batch -- the engine's freshness check of the pack sources is per batch, not per
    line (a pack edited during a batch is seen by the next one)."""

    def __init__(self, engine: RulesEngine, rng: random.Random) -> None:
        self.engine = engine
        self.rng = rng
        self._packs: dict[str, RuleSystem] = {}

    def __call__(self, _number: int, data: Any) -> tuple[dict[str, Any], bool]:
        return self.answer(data), False

    def answer(self, data: Any) -> dict[str, Any]:
        """The answer to one request line (:class:`LwError` for a refused one)."""
        if not isinstance(data, dict):
            raise LwError("a line must be a JSON object", expected='{"system": "<id>", "skill": 60, ...}')
        try:
            request = CheckRequest.model_validate(data, strict=True)
        except ValidationError:
            validate_model(CheckRequest, data, strict=True)  # the same refusal, located field by field
            raise
        pack = self._packs.get(request.system)
        if pack is None:
            pack = self._packs[request.system] = self.engine.rule_system(request.system)
        skill_name = None
        value = request.target
        if isinstance(request.skill, str):
            if "=" not in request.skill:
                raise LwError(f"skill {request.skill!r}: give a number, or NAME=VALUE",
                              expected='"skill": 60 or "skill": "Climb=60"')
            skill_name, value = parse_skill(pack, request.skill, "skill")
        elif request.skill is not None:
            value = request.skill
        if request.name is not None:
            skill_name = pack.canonical(request.name) or request.name
        result = pack.check(
            value, difficulty=request.difficulty, variant=request.variant, bonus=request.bonus,
            penalty=request.penalty, modifiers=request.modifiers, modifier=request.modifier,
            params=request.params, rng=random.Random(request.seed) if request.seed is not None else self.rng,
            faces=request.dice, roll=request.roll,
        )
        return check_json(pack, result, skill_name, request.locale)
