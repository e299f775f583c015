"""The coc7 plugin in a real kernel: discovery, the pack's data, computers, CLI, removal."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import lwcore.kernel
from lwcore.cli import main
from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lw_coc7 import computers


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Kernel:
    return Kernel(data_dir=tmp_path_factory.mktemp("home"))


def test_the_plugin_is_bundled_enabled_and_contributes(kernel: Kernel) -> None:
    record = kernel.plugin("coc7")
    assert record.status == "enabled" and record.bundled
    assert record.distribution == "loreweaver-builtin-coc7"
    assert kernel.rulepacks.origin("coc7") == "coc7"
    assert {"coc7_mov", "coc7_db", "coc7_build"} <= set(kernel.rule_computers.by_plugin("coc7"))
    engine = engine_for(kernel)
    assert "coc7" in engine.ids()
    assert [p for p in engine.problems() if p.id == "coc7"] == []


def test_names_aliases_display_and_labels(kernel: Kernel) -> None:
    engine = engine_for(kernel)
    for word in ("coc", "COC7", "call of cthulhu", "克苏鲁的呼唤"):
        assert engine.find(word) == "coc7"
    pack = engine.rule_system("coc")
    assert pack.canonical("STR") == pack.canonical("str") == pack.canonical("力") == "力量"
    assert pack.canonical("spot hidden") == "侦查" and pack.canonical("SAN") == "理智"
    assert pack.display_name("侦查", "en") == "Spot Hidden" and pack.display_name("侦查", "zh") == "侦查"
    assert pack.display_name("not a stat", "en") == "not a stat"
    assert pack.label("crit", "zh") == "大成功" and pack.label("fumble", "en") == "Fumble"
    assert "1d100" in pack.expertise("en") and "1d100" in pack.expertise("zh")
    assert pack.model.st_show["itemsPerLine"] == 4
    resources = {r.id: r for r in pack.model.sheet.resources}
    assert set(resources) == {"hp", "mp", "san", "luck"}
    assert resources["san"].label == {"en": "Sanity", "zh": "理智"}
    assert pack.model.defaults["力量"] == 50


def test_derived_stats(kernel: Kernel) -> None:
    pack = engine_for(kernel).rule_system("coc7")
    sheet = {"STR": 70, "CON": 60, "SIZ": 80, "DEX": 65, "POW": 55, "EDU": 75, "age": 45, "克苏鲁神话": 4}
    d = pack.derive(sheet)
    assert d["生命上限"] == d["生命"] == 14
    assert d["魔法上限"] == d["魔法"] == 11
    assert d["理智"] == 55 and d["理智上限"] == 95
    assert d["闪避"] == 32 and d["母语"] == 75
    assert d["伤害加值"] == "+1d4" and d["体格"] == 1
    assert d["移动力"] == 6  # DEX and STR under SIZ: 7, then -1 for the forties
    assert pack.derive({"STR": 30, "SIZ": 30})["伤害加值"] == "-2"


def test_sum_ranges_agree_with_the_unbounded_computers(kernel: Kernel) -> None:
    pack = engine_for(kernel).rule_system("coc7")
    for total in range(2, 525):
        values = {"力量": total // 2, "体型": total - total // 2}
        d = pack.derive(values)
        assert d["伤害加值"] == computers.damage_bonus(values), total
        assert d["体格"] == computers.build(values), total
    assert computers.damage_bonus({"力量": 300, "体型": 300}) == "+6d6"


@pytest.mark.parametrize(
    ("dex", "strength", "size", "age", "mov"),
    [(40, 40, 50, 20, 7), (60, 60, 50, 20, 9), (60, 40, 50, 20, 8), (50, 50, 50, 20, 8), (60, 60, 50, 85, 4)],
)
def test_movement_computer(dex: int, strength: int, size: int, age: int, mov: int) -> None:
    assert computers.movement({"敏捷": dex, "力量": strength, "体型": size, "年龄": age}) == mov


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().out


def test_cli_check_and_batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(capsys, "check", "coc7", "--skill", "侦查=60", "--roll", "37", "--difficulty", "hard", "--variant", "rule2")
    assert code == 0 and out.strip() == "coc7 Spot Hidden: skill 60→30 [hard] (rule2), roll 1d100=37 [37] → Failure (fail, margin -7)"
    code, out = run(capsys, "check", "coc", "--skill", "spot=60", "--dice", "37", "--dice", "0", "--bonus", "1",
                    "--locale", "zh", "--json")
    data = json.loads(out)
    assert (data["roll"], data["rank"], data["label"], data["skill"]) == (7, "extreme", "极难成功", "侦查")
    line = json.dumps({"system": "coc7", "skill": 60, "difficulty": "hard", "variant": "rule2", "roll": 37})
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    code, out = run(capsys, "check", "--batch", "-")
    row = json.loads(out)
    assert code == 0
    assert {k: row[k] for k in ("rank", "success", "critical", "fumble", "tier", "margin", "dice", "target", "raw_target")} == {
        "rank": "fail", "success": False, "critical": False, "fumble": False, "tier": 1, "margin": -7,
        "dice": [37], "target": 30, "raw_target": 60,
    }


def test_user_pack_extending_coc7(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "rulepacks").mkdir()
    (tmp_path / "rulepacks" / "pulp.yaml").write_text(
        "extends: coc7\nnames: [pulp]\ndefaults: {幸运: 70}\nderived: {伤害加值: {sum_ranges: null, computer: coc7_db}}\n", encoding="utf-8")
    (tmp_path / "rulepacks" / "coc7.yaml").write_text("names: [fake]\n", encoding="utf-8")
    engine = engine_for(Kernel(data_dir=tmp_path))
    pulp = engine.rule_system("pulp")
    assert pulp.chain == ("pulp", "coc7") and pulp.model.defaults["幸运"] == 70
    assert pulp.derive({"力量": 200, "体型": 200})["伤害加值"] == "+4d6"
    assert engine.rule_system("coc7").origin == "coc7"
    assert any("cannot replace it" in str(p) for p in engine.problems())


def test_without_the_distribution_no_coc_anywhere(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """Uninstalling loreweaver-builtin-coc7 (simulated: its entry point is not discovered)."""
    real = lwcore.kernel.discover_entry_points

    def without_coc7(*args, **kwargs):
        return [r for r in real(*args, **kwargs) if r.distribution != "loreweaver-builtin-coc7"]

    monkeypatch.setattr(lwcore.kernel, "discover_entry_points", without_coc7)
    kernel = Kernel(data_dir=tmp_path)
    engine = engine_for(kernel)
    assert not any("coc" in i for i in engine.ids())
    assert not any("coc" in c for c in kernel.rule_computers)
    assert "coc" not in " ".join(str(p) for p in engine.problems()).lower()
    assert engine.find("coc") is None
    for args in (["rulepack", "list", "--json"], ["schema", "rulepack"], ["--help"], ["roll", "1d100", "--seed", "1"]):
        code, out = run(capsys, "--data-dir", str(tmp_path), *args)
        assert "coc" not in out.lower() and "cthulhu" not in out.lower(), args
