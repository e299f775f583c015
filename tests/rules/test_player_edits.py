"""A player's ``.st`` is held to the rulepack (``lwcore.rules.player_edits``): known stats, within
the pack's ``bounds``; the rulepack's ``bounds`` section (validated, inherited); and every
bound of the three bundled packs, at its edges."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.player_edits import (
    MAX_EXPRESSION_CHARS,
    MAX_EXPRESSION_NAME,
    MAX_PLAYER_EXPRESSIONS,
    PLAYER_STAT_LIMIT,
    check_player_edit,
)
from lwcore.rules.sheet import Sheet


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    return engine_for(Kernel(data_dir=tmp_path_factory.mktemp("data"), env={}))


def edited(pack, text: str, *, values: dict | None = None, state: dict | None = None) -> tuple[Sheet, Sheet]:  # noqa: ANN001
    before = Sheet(pack, values or {}, name="x", state=state or {})
    after = before.copy()
    after.apply_st(text, rng=random.Random(1))
    return before, after


def bound_cases():  # noqa: ANN201
    """Every bound of every bundled pack: (system, stat, value, allowed)."""
    kernel = Kernel(env={})
    engine = engine_for(kernel)
    for system in ("coc7", "dnd5e", "wod"):
        pack = engine.rule_system(system)
        assert pack.model.bounds, system  # each bundled pack declares what a player may set
        for name, bound in pack.model.bounds.items():
            stat = name
            if name == "*":  # the first default stat without its own entry
                stat = next(s for s in pack.model.defaults
                            if not any(k != "*" and pack.canonical(k) == s for k in pack.model.bounds))
            for value, allowed in ((bound.min, True), (bound.max, True), (bound.min - 1, False), (bound.max + 1, False)):
                yield system, stat, int(value), allowed


@pytest.mark.parametrize(("system", "stat", "value", "allowed"), list(bound_cases()))
def test_every_bundled_bound_at_its_edges(engine, system: str, stat: str, value: int, allowed: bool) -> None:  # noqa: ANN001
    pack = engine.rule_system(system)
    # a sign after a name adjusts (.st hp-3): a negative value is reached from 0
    before, after = edited(pack, f"{stat} {value}" if value >= 0 else f"{stat}-{-value}",
                           values={stat: 0 if value < 0 else value - 1})
    assert after.get(stat) == value
    if allowed:
        check_player_edit(before, after)
    else:
        with pytest.raises(LwError, match="outside") as caught:
            check_player_edit(before, after)
        assert caught.value.code == "forbidden"


def test_names_the_pack_does_not_know_are_refused_unless_the_sheet_has_them(engine) -> None:  # noqa: ANN001
    pack = engine.rule_system("coc7")
    for text in ("'@p' 5", "拉丁语 40", "<b>x</b> 1"):
        before, after = edited(pack, text)
        with pytest.raises(LwError, match="not a stat of coc7"):
            check_player_edit(before, after)
    before, after = edited(pack, "拉丁语 45", values={"拉丁语": 30})  # a custom skill the keeper gave
    check_player_edit(before, after)
    before, after = edited(pack, "拉丁语 145", values={"拉丁语": 30})  # ... bounded by '*'
    with pytest.raises(LwError, match="outside 0..99"):
        check_player_edit(before, after)
    before, after = edited(pack, "del 拉丁语", values={"拉丁语": 30})  # removing is always fine
    check_player_edit(before, after)


def test_aliases_adjustments_and_resources(engine) -> None:  # noqa: ANN001
    pack = engine.rule_system("coc7")
    before, after = edited(pack, "str60 dex 70 san-5 hp-1d3")
    check_player_edit(before, after)
    before, after = edited(pack, "san-1000")
    with pytest.raises(LwError, match="outside 0..99"):
        check_player_edit(before, after)
    before, after = edited(pack, "STR 999 DEX 999", values={})
    with pytest.raises(LwError) as caught:
        check_player_edit(before, after, locale="zh")
    assert "力量 999" in caught.value.message and "敏捷 999" in caught.value.message  # every problem, named


def test_a_pack_without_bounds_has_the_kernels_limit(pack_from) -> None:  # noqa: ANN001
    pack = pack_from("""
        defaults: {STR: 10, HP: 5}
        resolution: {roll: 1d20, target: skill, compare: "<="}
        """)
    before, after = edited(pack, f"STR {PLAYER_STAT_LIMIT}")
    check_player_edit(before, after)
    before, after = edited(pack, f"STR {PLAYER_STAT_LIMIT + 1}")
    with pytest.raises(LwError, match="outside"):
        check_player_edit(before, after)


def test_expressions_are_bounded(engine) -> None:  # noqa: ANN001
    pack = engine.rule_system("coc7")
    before, after = edited(pack, "&手枪=1d10")
    check_player_edit(before, after)
    before, after = edited(pack, " ".join(f"&w{i}=1d6" for i in range(MAX_PLAYER_EXPRESSIONS + 1)))
    with pytest.raises(LwError, match=f"at most {MAX_PLAYER_EXPRESSIONS}"):
        check_player_edit(before, after)
    before, after = edited(pack, "&" + "n" * (MAX_EXPRESSION_NAME + 1) + "=1d6")
    with pytest.raises(LwError, match="a name is at most"):
        check_player_edit(before, after)
    long_expr = "+".join(["1d6"] * (MAX_EXPRESSION_CHARS // 4 + 1))
    before, after = edited(pack, f"&w={long_expr}")
    with pytest.raises(LwError, match="an expression is at most"):
        check_player_edit(before, after)


def test_the_sheets_state_is_the_keepers(engine) -> None:  # noqa: ANN001
    pack = engine.rule_system("coc7")
    before, after = edited(pack, "clr", values={"力量": 60}, state={"temporary_insanity": True})
    with pytest.raises(LwError, match="state"):
        check_player_edit(before, after)
    before, after = edited(pack, "clr", values={"力量": 60})
    check_player_edit(before, after)


def test_bounds_in_a_rulepack_are_checked_and_inherited(pack_from, tmp_path: Path) -> None:  # noqa: ANN001
    from lwcore.rules.errors import RulepackError

    with pytest.raises(RulepackError, match="unknown stat 'STRR'"):
        pack_from("""
            defaults: {STR: 10}
            bounds: {STRR: {min: 1, max: 20}}
            """)
    with pytest.raises(LwError, match="larger than max"):
        pack_from("""
            defaults: {STR: 10}
            bounds: {STR: {min: 20, max: 1}}
            """)
    with pytest.raises(LwError):
        pack_from("""
            defaults: {STR: 10}
            bounds: {STR: {minimum: 1}}
            """)
    pack = pack_from("""
        defaults: {STR: 10, DEX: 10}
        alias: {STR: [strength]}
        bounds: {"*": {min: 0, max: 5}, strength: {min: 3, max: 18}}
        """)
    assert pack.bounds("STR") == (3, 18) and pack.bounds("str") == (3, 18) and pack.bounds("DEX") == (0, 5)
    assert pack.bounds("whatever") == (0, 5)
