"""Errors that guide, for the rules commands (their help examples run in
``tests/cli/test_help_examples.py``, with every other command's).

- ``lw cmd``/``lw check`` on a system whose plugin is disabled say how to enable it; ``.luck 10``
  says a rank word is expected; ``lw check`` labels what each number is; ``lw rulepack list``
  prints a header row; ``.coc 99999999`` is refused, not capped; ``STR: true`` in a sheet is
  refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SYSTEMS = ("coc7", "dnd5e", "wod")


def test_a_disabled_systems_plugin_is_named_with_how_to_enable_it(tmp_path: Path, lw) -> None:
    home = tmp_path / "home"
    assert lw("--data-dir", str(home), "plugins", "disable", "coc7")[0] == 0
    for args in (["cmd", "coc7", ".ra 侦查50"], ["check", "coc7", "--skill", "50"]):
        code, _, err = lw("--data-dir", str(home), *args)
        assert code == 1
        assert "comes from the plugin 'coc7', which is not enabled" in err and "lw plugins enable coc7" in err
    code, _, err = lw("--data-dir", str(home), "cmd", "nosuchsystem", ".ra x")
    assert code == 1 and "unknown system 'nosuchsystem'" in err


def test_luck_with_a_number_asks_for_a_rank_word(tmp_path: Path, lw) -> None:
    sheet = tmp_path / "inv.yaml"
    assert lw("--data-dir", str(tmp_path), "cmd", "coc7", ".ra 侦查60", "--dice", "35", "--sheet",
              str(sheet))[0] == 0
    code, _, err = lw("--data-dir", str(tmp_path), "cmd", "coc7", ".luck 10", "--sheet", str(sheet))
    assert code == 1 and "'10' is not a result level of coc7" in err and "rank word" in err
    code, out, _ = lw("--data-dir", str(tmp_path), "cmd", "coc7", ".luck hard", "--sheet", str(sheet))
    assert code == 0 and "35 -> 30" in out


def test_check_labels_what_each_number_is(tmp_path: Path, lw) -> None:
    code, out, _ = lw("--data-dir", str(tmp_path), "check", "dnd5e", "--skill", "stealth=3", "--roll", "20")
    assert code == 0 and out.strip() == "dnd5e Stealth: DC 3, roll 1d20=20 [20] → Success (success, margin 17)"
    code, out, _ = lw("--data-dir", str(tmp_path), "check", "dnd5e", "--skill", "15", "--modifier", "3",
                      "--roll", "12")
    assert out.strip() == "dnd5e: DC 15, roll 1d20=12+3=15 [12] → Success (success, margin 0)"
    code, out, _ = lw("--data-dir", str(tmp_path), "check", "coc7", "--skill", "侦查=60", "--roll", "25")
    assert out.strip() == "coc7 Spot Hidden: skill 60, roll 1d100=25 [25] → Hard Success (hard, margin 35)"


def test_rulepack_list_has_a_header_row(tmp_path: Path, lw) -> None:
    code, out, _ = lw("--data-dir", str(tmp_path), "rulepack", "list")
    header, *rows = out.splitlines()
    assert code == 0 and header.split() == ["ID", "ORIGIN", "STATUS", "NAMES"]
    assert {row.split()[0] for row in rows} >= set(SYSTEMS)
    assert all(row.index(row.split()[2]) == header.index("STATUS") for row in rows)


def test_make_char_beyond_ten_is_refused_not_capped(tmp_path: Path, lw) -> None:
    code, out, err = lw("--data-dir", str(tmp_path), "cmd", "coc7", ".coc 99999999")
    assert code == 1 and out == "" and "too many characters at once" in err and "1 to 10" in err
    code, out, _ = lw("--data-dir", str(tmp_path), "cmd", "coc7", ".coc 10", "--seed", "1")
    assert code == 0 and len(out.splitlines()) == 10


@pytest.mark.parametrize("value", ["true", '"50"', "50.0.1"])
def test_a_sheet_value_of_the_wrong_type_is_refused(tmp_path: Path, lw, value: str) -> None:
    sheet = tmp_path / "inv.yaml"
    sheet.write_text(f"system: coc7\nvalues:\n  力量: {value}\n", encoding="utf-8")
    before = sheet.read_bytes()
    code, _, err = lw("--data-dir", str(tmp_path), "cmd", "coc7", ".ra 力量", "--sheet", str(sheet))
    assert code == 1 and f"{sheet}:3:" in err and "values.力量" in err
    if value != "true":
        assert "is text, but 力量 is a number in coc7" in err
    assert sheet.read_bytes() == before
