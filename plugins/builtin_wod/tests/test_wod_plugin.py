"""The wod plugin in a real kernel: discovery, the computer, commands, sheets, creation."""

from __future__ import annotations

import random

import pytest

from lwcore.kernel import Kernel
from lwcore.rules import engine_for


@pytest.fixture(scope="module")
def engine():
    return engine_for(Kernel())


def test_discovered_enabled_bundled() -> None:
    kernel = Kernel()
    record = next(r for r in kernel.plugins if r.id == "wod")
    assert record.status == "enabled" and record.bundled
    assert "wod_cofd_pool" in kernel.rule_computers and "wod" in kernel.rulepacks


@pytest.mark.parametrize(("text", "params"), [
    (".w 5", {"pool": 5, "difficulty": 6, "willpower": 0}),
    (".w 5 7", {"pool": 5, "difficulty": 7, "willpower": 0}),
    (".w 5 7 wp", {"pool": 5, "difficulty": 7, "willpower": 1}),
    (".w dex+2 8", {"pool": 5, "difficulty": 8, "willpower": 0}),
    (".w 敏捷 意志力", {"pool": 3, "difficulty": 6, "willpower": 1}),
    (".w 4 11", {"pool": 4, "difficulty": 10, "willpower": 0}),  # clamped to 2..10
])
def test_pool_commands(engine, text, params) -> None:
    sheet = engine.sheet("wod", {"dex": 3})
    result = engine.command("wod", text, sheet=sheet, rng=random.Random(1), locale="zh")
    assert result.data["check"]["params"] == params


def test_cofd_command_text(engine) -> None:
    r = engine.command("wod", ".cw 3 9again", faces=[9, 2, 8, 4], locale="zh")
    assert r.data["outcome"] == "success" and r.data["values"]["successes"] == 2
    assert r.text.startswith("成功 [9, 2, 8, 4]")
    r = engine.command("wod", ".cw 0", faces=[1], locale="en")
    assert r.data["outcome"] == "dramatic_failure" and r.text.startswith("Dramatic Failure")


def test_sheet_and_creation(engine) -> None:
    sheet = engine.sheet("wod")
    sheet.apply_st("str3dex2 wp-1 stealth2")
    assert sheet.stored() == {"力量": 3, "敏捷": 2, "意志力": 2, "潜行": 2}
    res = {r["id"]: r for r in sheet.resources("en")}
    assert res["willpower"]["label"] == "Willpower" and res["willpower"]["max"] == 3
    made = engine.make_char("wod", assign={"str": 4, "dex": 3, "wits": 3})
    assert made["力量"] == 4 and made["魅力"] == 1
