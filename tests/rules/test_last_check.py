"""The last check a sheet keeps (``state.last_check``) and the ``luck`` / ``push`` command tools
that work on it, on a user rulepack (nothing here is system specific)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.kept_check import LAST_CHECK, check_from_json, last_check, rank_named
from lwcore.rules.subsystems import SubsystemError

ADD = """\
names: [adder]
defaults: {might: 4}
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  ranks:
    - {id: made, when: "roll >= target", success: true, tier: 2}
    - {id: missed, tier: 1}
subsystems:
  push: {forbid_fumble: false}
commands:
  t: {action: check, value_is: modifier, target_words: [dc]}
  again: {tool: push}
labels: {en: {made: [Made it], missed: [Missed]}}
"""

UNDER = """\
names: [under]
defaults: {skill: 60, fortune: 30}
resolution:
  roll: 1d100
  target: skill
  compare: "<="
  ranks:
    - {id: top, when: "roll <= floor(target / 5)", success: true, tier: 3}
    - {id: good, when: "roll <= target", success: true, tier: 2}
    - {id: bad, when: "roll < 100", tier: 1}
    - {id: awful, fumble: true, tier: 0}
subsystems:
  fortune_spend: {kind: luck, stat: fortune, forbid_fumble: true}
commands:
  r: {action: check}
  spend: {tool: fortune_spend}
labels: {en: {top: [Great], good: [Good], bad: [Bad], awful: [Awful]}, fr: {top: [Superbe]}}
"""


@pytest.fixture
def engine(tmp_path: Path):
    (tmp_path / "rulepacks").mkdir()
    (tmp_path / "rulepacks" / "adder.yaml").write_text(ADD, encoding="utf-8")
    (tmp_path / "rulepacks" / "under.yaml").write_text(UNDER, encoding="utf-8")
    return engine_for(Kernel(data_dir=tmp_path, env={}))


def test_push_keeps_the_value_a_modifier_check_added(engine) -> None:
    sheet = engine.sheet("adder", {})
    first = engine.command("adder", ".t might dc15", sheet=sheet, faces=[3])   # 3 + 4 = 7: missed
    assert first.sheet_changed and sheet.state[LAST_CHECK]["modifier"] == 4
    pushed = engine.command("adder", ".again", sheet=sheet, faces=[11])       # 11 + 4 = 15: made
    assert pushed.data["success"] is True and pushed.data["flags"] == {"pushed": True}
    kept, record = last_check(sheet)
    assert kept.flags["pushed"] and kept.roll == 11 and record["modifier"] == 4
    with pytest.raises(SubsystemError, match="pushed again"):
        engine.command("adder", ".again", sheet=sheet, faces=[20])


def test_luck_kind_under_another_name_and_rank_words(engine) -> None:
    sheet = engine.sheet("under", {})
    engine.command("under", ".r skill", sheet=sheet, faces=[70])              # 70/60: bad
    spent = engine.command("under", ".spend", sheet=sheet)
    assert spent.data["values"]["cost"] == 10 and spent.data["outcome"] == "good"
    assert sheet.get("fortune") == 20 and last_check(sheet)[0].roll == 60
    pack = engine.rule_system("under")
    assert rank_named(pack, "superbe") == "top" and rank_named(pack, "Good") == "good"
    assert rank_named(pack, None) is None
    engine.command("under", ".r skill", sheet=sheet, faces=[40])
    with pytest.raises(SubsystemError, match="only 20"):
        engine.command("under", ".spend great", sheet=sheet)                  # 40 -> 12 costs 28
    engine.command("under", ".r skill", sheet=sheet, faces=[100])
    with pytest.raises(SubsystemError, match="fumble"):
        engine.command("under", ".spend", sheet=sheet)


def test_no_sheet_or_no_kept_check_is_an_error_and_json_round_trips(engine) -> None:
    with pytest.raises(SubsystemError, match="no earlier check"):
        engine.command("under", ".spend")
    with pytest.raises(SubsystemError, match="no earlier check"):
        engine.command("under", ".spend", sheet=engine.sheet("under", {}))
    result = engine.check("under", 60, rng=random.Random(3))
    assert check_from_json(result.to_json()) == result
