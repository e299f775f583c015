"""A rulepack's own ``tests:`` table: run by ``lw rulepack test`` and ``lw rulepack validate``;
the bundled packs' tables cover every rank of every ladder and variant."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.pack_tests import run_pack_tests

PACK = """\
defaults: {STR: 50}
resolution:
  roll: 1d20
  target: skill
  ranks:
    - {id: top, when: "roll == 1", success: true, tier: 2}
    - {id: made, when: "roll <= target", success: true, tier: 1}
    - {id: missed}
commands: {r: {action: check}}
tests:
  - {skill: 10, roll: 1, want: top}
  - {name: made it, skill: 10, roll: 10, want: made, margin: 0}
  - {skill: 10, roll: 11, want: made}
  - {skill: 10, want: missed}
  - {command: ".r STR", dice: [3], want: made, text: "STR 50: 1d20=3/50 made"}
  - {command: ".nothing", error: "no command"}
"""




def test_failing_cases_are_located_and_fail_test_and_validate(tmp_path: Path, lw) -> None:
    pack = tmp_path / "mini.yaml"
    pack.write_text(PACK, encoding="utf-8")
    code, out, _ = lw("--data-dir", str(tmp_path / "home"), "rulepack", "test", str(pack))
    assert code == 1
    assert f"FAIL {pack}:13:5: tests.2: want 'made', got 'missed'" in out
    assert f"FAIL {pack}:14:5: tests.3: refused: the case rolled a die it did not give" in out
    assert "mini: 4 passed, 2 failed" in out
    code, out, _ = lw("--data-dir", str(tmp_path / "home"), "rulepack", "validate", str(pack))
    assert code == 1 and out.count("error: ") == 2 and "ok:" not in out
    code, out, _ = lw("--data-dir", str(tmp_path / "home"), "rulepack", "validate", "--no-tests", str(pack))
    assert code == 0 and out.startswith("ok:")


def test_a_case_needs_something_to_check(tmp_path: Path, lw) -> None:
    pack = tmp_path / "empty.yaml"
    pack.write_text(PACK.split("tests:")[0] + "tests:\n  - {skill: 10, roll: 3}\n", encoding="utf-8")
    code, out, _ = lw("--data-dir", str(tmp_path / "home"), "rulepack", "validate", str(pack))
    assert code == 1 and "tests.0: a case needs something to check" in out


@pytest.fixture(scope="module")
def engine():
    return engine_for(Kernel(data_dir=Path("/nonexistent-lw-home")))


@pytest.mark.parametrize("system", ["coc7", "dnd5e", "wod"])
def test_the_bundled_tables_pass(engine, system: str) -> None:
    outcomes = run_pack_tests(engine, engine.rule_system(system))
    assert outcomes and [str(o) for o in outcomes if not o.passed] == []


@pytest.mark.parametrize("system", ["coc7", "dnd5e", "wod"])
def test_the_bundled_tables_cover_every_rank_of_every_ladder(engine, system: str) -> None:
    pack = engine.rule_system(system)
    res = pack.resolution
    ladders = {None: res.ranks, **res.variants}
    covered = {(case.variant, case.want) for case in pack.model.tests
               if case.subsystem is None and case.command is None and case.want is not None}
    missing = [(variant, rank.id) for variant, ranks in ladders.items() for rank in ranks
               if not (rank.when is not None and rank.when.text == "false") and (variant, rank.id) not in covered]
    # a rank whose when: is false cannot be reached: the ladder switches it on in a variant
    assert missing == []
    kinds = {str(d.get("kind", name)) for name, d in pack.model.subsystems.items() if not d.get("computer")}
    tested = {case.subsystem for case in pack.model.tests if case.subsystem}
    commands = " ".join(c if isinstance(c, str) else " ".join(c) for c in
                        (case.command for case in pack.model.tests if case.command))
    for kind in kinds - {"advantage", "opposed"}:  # advantage runs inside checks; opposed needs two characters
        name = next(n for n, d in pack.model.subsystems.items() if str(d.get("kind", n)) == kind)
        assert name in tested or any(f".{w} " in commands + " " or f".{w}" in commands
                                     for w, c in pack.model.commands.items() if c.tool == name), kind
