"""``lw cmd SYSTEM TEXT [--sheet FILE] [--seed N] [--dice …] [--locale L] [--json]`` on a user
rulepack (the command works for any system a pack declares commands for)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lwcore.cli import main

PACK = """\
names: [tiny]
defaults: {might: 10, grit: 5}
alias: {might: [mgt, 力气], hp: [HP, 生命]}
derived: {hp: {copy_of: grit}}
sheet: {resources: [{id: hp, label: {en: Health, zh: 生命}, value: hp}]}
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  ranks:
    - {id: made, when: "roll >= target", success: true, tier: 2}
    - {id: missed, tier: 1}
commands:
  t: {action: check, value_is: modifier, target_words: [dc]}
  st: {action: set_stats}
labels: {en: {made: [Made it], missed: [Missed]}, zh: {made: [成功了], missed: [没成]}}
"""


def lw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "rulepacks").mkdir()
    (tmp_path / "rulepacks" / "tiny.yaml").write_text(PACK, encoding="utf-8")
    return tmp_path


def test_cmd_with_sheet_file(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = home / "角色.yaml"
    code, out, err = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".st mgt14 hp-2", "--sheet", str(sheet),
                        "--locale", "zh")
    assert code == 0, err
    assert "might: 10 -> 14" in out and "hp: 5 -> 3" in out
    saved = sheet.read_text(encoding="utf-8")
    assert "might: 14" in saved and "hp: 3" in saved and "system: tiny" in saved
    code, out, err = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".t 力气 dc 20", "--sheet", str(sheet),
                        "--dice", "6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["data"]["modifier"] == 14 and data["data"]["check"]["rank"] == "made"
    # the sheet keeps its last check (for luck / push commands), so it is written back
    assert data["sheet_changed"] and "last_check:" in sheet.read_text(encoding="utf-8")
    code, out, _ = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".t mgt dc20", "--sheet", str(sheet), "--dice", "5")
    assert out.strip() == "might +14: 1d20=5+14=19 vs 20 Missed"


def test_cmd_seed_repeats(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".t +3 dc10", "--seed", "9")[1]
    b = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".t +3 dc10", "--seed", "9")[1]
    assert a == b and a


@pytest.mark.parametrize("args", [
    ["cmd", "tiny", ".zz"],
    ["cmd", "nope", ".t"],
    ["cmd", "tiny", ".st might"],
    ["cmd", "tiny", ".t unknownskill dc5"],
])
def test_cmd_errors_are_one_line(home: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = lw(capsys, "--data-dir", str(home), *args)
    assert code == 1 and err.startswith("error:") and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cmd_sheet_for_another_system(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / "rulepacks" / "other.yaml").write_text("names: [other]\ncommands: {st: {action: set_stats}}\n",
                                                   encoding="utf-8")
    sheet = home / "s.json"
    sheet.write_text(json.dumps({"system": "other", "values": {}}), encoding="utf-8")
    code, _out, err = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".st might5", "--sheet", str(sheet))
    assert code == 1 and "not 'tiny'" in err
    sheet.write_text("{broken", encoding="utf-8")
    code, _out, err = lw(capsys, "--data-dir", str(home), "cmd", "tiny", ".st might5", "--sheet", str(sheet))
    assert code == 1 and "s.json" in err
