"""The coc7 pack's ``.luck`` and ``.push`` dot commands, through ``lw cmd coc7 "..." --sheet FILE``:
every check command keeps its result in the sheet file's ``state``; ``.luck`` spends luck on it
(never off a fumble, never more than held), ``.push`` re-rolls it once (flagged pushed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from lwcore.cli import main


def lw(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict | str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    if code == 0 and "--json" in args:
        return code, json.loads(out)
    return code, out + err


@pytest.fixture
def sheet(tmp_path: Path, capsys) -> Path:
    path = tmp_path / "inv.yaml"
    code, _ = lw(capsys, "cmd", "coc7", ".st 侦查65 幸运55", "--sheet", str(path))
    assert code == 0
    return path


def _cmd(capsys, sheet: Path, text: str, *dice: str) -> tuple[int, dict | str]:
    args = ["cmd", "coc7", text, "--sheet", str(sheet), "--json", "--locale", "zh"]
    for d in dice:
        args += ["--dice", d]
    return lw(capsys, *args)


def _kept(sheet: Path) -> dict:
    return yaml.safe_load(sheet.read_text(encoding="utf-8"))["state"]["last_check"]


def test_luck_buys_the_next_success_level_off_the_kept_check(capsys, sheet: Path) -> None:
    code, out = _cmd(capsys, sheet, ".ra 侦查", "71")
    assert code == 0 and out["data"]["check"]["success"] is False and out["sheet_changed"]
    assert _kept(sheet)["roll"] == 71 and _kept(sheet)["stat"] == "侦查"
    code, out = _cmd(capsys, sheet, ".luck")
    assert code == 0, out
    assert out["data"]["values"]["cost"] == 6 and out["data"]["outcome"] == "regular"
    assert out["text"] == "幸运 花费 6: 71 -> 65 成功"
    data = yaml.safe_load(sheet.read_text(encoding="utf-8"))
    assert data["values"]["幸运"] == 49
    assert data["state"]["last_check"]["roll"] == 65 and data["state"]["last_check"]["success"] is True


def test_luck_to_a_named_level_and_not_beyond_the_luck_held(capsys, sheet: Path) -> None:
    _cmd(capsys, sheet, ".ra 侦查", "40")                      # 40/65: regular
    code, out = _cmd(capsys, sheet, ".luck 极难成功")           # 40 -> 13 costs 27
    assert code == 0 and out["data"]["values"]["cost"] == 27 and out["data"]["outcome"] == "extreme"
    _cmd(capsys, sheet, ".ra 侦查", "71")
    code, out = _cmd(capsys, sheet, ".luck extreme")           # 71 -> 13 costs 58, only 28 held
    assert code == 1 and "only 28" in out
    assert yaml.safe_load(sheet.read_text(encoding="utf-8"))["values"]["幸运"] == 28


def test_luck_cannot_buy_off_a_fumble(capsys, sheet: Path) -> None:
    _cmd(capsys, sheet, ".ra 侦查", "100")
    code, out = _cmd(capsys, sheet, ".luck")
    assert code == 1 and "fumble" in out
    assert yaml.safe_load(sheet.read_text(encoding="utf-8"))["values"]["幸运"] == 55


def test_push_rerolls_once_and_is_refused_the_second_time(capsys, sheet: Path) -> None:
    _cmd(capsys, sheet, ".ra 侦查", "71")
    code, out = _cmd(capsys, sheet, ".push", "11")
    assert code == 0, out
    assert out["data"]["flags"] == {"pushed": True} and out["data"]["check"]["roll"] == 11
    assert out["text"] == "侦查 65: 1d100=11/65 极难成功 [孤注一掷]"
    assert _kept(sheet)["flags"]["pushed"] is True
    code, out = _cmd(capsys, sheet, ".push", "5")
    assert code == 1 and "cannot be pushed again" in out
    # a failed push is dire
    _cmd(capsys, sheet, ".ra 侦查", "80")
    code, out = _cmd(capsys, sheet, ".push", "90")
    assert code == 0 and out["data"]["flags"] == {"pushed": True, "dire": True}


def test_push_a_success_and_without_any_check_are_refused(capsys, sheet: Path) -> None:
    code, out = _cmd(capsys, sheet, ".push")
    assert code == 1 and "no earlier check" in out
    _cmd(capsys, sheet, ".ra 侦查", "20")
    code, out = _cmd(capsys, sheet, ".push", "90")
    assert code == 1 and "only a failed check" in out
