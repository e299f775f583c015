""".rule <variant>: the keeper switches the room's house-rule ladder (contract A.1: "variants:
{xipu_night: {ranks: [...]}}  # 房规档位，用 `.rule <variant>` 选").

Through ``lw turn`` as a table plays it: the keeper lists and switches; the choice is
``variant:`` in ``room.yaml`` with every comment kept; the table is told (a player's view shows
the line); a player's ``.ra`` grades on the new ladder from then on (the same die: 02 is an
extreme success by the rulebook and a critical under rule3, 96 a failure and a fumble); a player
may not run it; an unknown or hostile argument is refused, located, with the room byte for
byte as it was, in bounded time.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
LOW, HIGH = "31", "2"
"""Seeds of ``lw turn`` whose first d100 is 02 and 96."""


def lw(room: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "turn", str(room), *args], capture_output=True, text=True, timeout=60, cwd=room.parent)
    assert "Traceback" not in run.stderr, run.stderr
    if ok:
        assert run.returncode == 0, run.stderr
    return run


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).parts[0] != ".lw"}


@pytest.fixture
def room(tmp_path: Path) -> Path:
    target = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", target, ignore=shutil.ignore_patterns("replies"))
    text = (target / "room.yaml").read_text(encoding="utf-8")
    (target / "room.yaml").write_text(text.replace("system: coc7\n", "system: coc7   # the table's rules\n"),
                                      encoding="utf-8")
    return target


def test_the_keeper_switches_the_house_rule_and_the_table_plays_it(room: Path) -> None:
    before = [lw(room, "--as", "p1", "--say", ".ra 侦查", "--seed", seed).stdout.strip() for seed in (LOW, HIGH)]
    assert before == ["陈默: 侦查 65: 1d100=2/65 极难成功", "陈默: 侦查 65: 1d100=96/65 失败"]

    listing = lw(room, "--as", "kp", "--say", ".rule").stdout.splitlines()
    assert listing[0] == "规则系统：coc7；房规：无（规则书）"
    assert "  rule3 — 01-05必定大成功，96-100必定大失败" in listing and len(listing) == 2 + 7
    comments = [line for line in (room / "room.yaml").read_text(encoding="utf-8").splitlines() if "#" in line]

    said = lw(room, "--as", "kp", "--say", ".rule RULE3").stdout.strip()
    assert said == "守秘人把房规改为 rule3 — 01-05必定大成功，96-100必定大失败（原为 无）。"
    text = (room / "room.yaml").read_text(encoding="utf-8")
    assert "\nvariant: rule3\n" in text and all(line in text.splitlines() for line in comments)
    assert "system: coc7   # the table's rules" in text
    assert "* rule3 — 01-05必定大成功，96-100必定大失败" in lw(room, "--as", "kp", "--say", ".rule").stdout
    view = lw(room, "--as", "p2", "--view").stdout
    assert "The keeper set the house rule to rule3 — 01-05 always critical" in view  # told to the table, in p2's English
    last = json.loads((room / "history.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert last["audience"] == "all" and last["data"]["result"] == {"kind": "rule", "system": "coc7",
                                                                   "variant": "rule3", "was": None}

    after = [lw(room, "--as", "p1", "--say", ".ra 侦查", "--seed", seed).stdout.strip() for seed in (LOW, HIGH)]
    assert after == ["陈默: 侦查 65: 1d100=2/65 大成功", "陈默: 侦查 65: 1d100=96/65 大失败"]
    assert lw(room, "--as", "p2", "--say", ".ra spot hidden", "--seed", LOW).stdout.strip().endswith("Critical Success")

    unchanged = files(room)
    assert "已经是 rule3" in lw(room, "--as", "kp", "--say", ".rule rule3").stdout
    assert files(room) == unchanged  # nothing written for no change

    assert lw(room, "--as", "kp", "--say", ".rule none").stdout.strip() == \
        "守秘人取消了房规（原为 rule3）：检定按 coc7 的规则书进行。"
    text = (room / "room.yaml").read_text(encoding="utf-8")
    assert "variant" not in text and all(line in text.splitlines() for line in comments)
    assert lw(room, "--as", "p1", "--say", ".ra 侦查", "--seed", LOW).stdout.strip() == before[0]


def test_a_house_rule_the_check_names_itself_still_wins(room: Path, tmp_path: Path) -> None:
    """A command declared with its own variant keeps it (the room's is only the default)."""
    home = tmp_path / "data"
    (home / "rulepacks").mkdir(parents=True)
    (home / "rulepacks" / "strict.yaml").write_text(
        "extends: coc7\nnames: [strict]\ncommands:\n  rdg: {action: check, variant: dg}\n", encoding="utf-8")
    text = (room / "room.yaml").read_text(encoding="utf-8").replace("system: coc7 ", "system: strict ")
    (room / "room.yaml").write_text(text, encoding="utf-8")

    def say(member: str, line: str, seed: str = LOW) -> str:
        return subprocess.run([LW, "--data-dir", str(home), "turn", str(room), "--as", member, "--say", line,
                               "--seed", seed], capture_output=True, text=True, timeout=60, check=True).stdout.strip()

    say("kp", ".rule rule3")
    assert say("p1", ".ra 侦查") == "陈默: 侦查 65: 1d100=2/65 大成功"   # the room's rule3
    assert say("p1", ".rdg 侦查", "43") == "陈默: 侦查 65: 1d100=4/65 成功"  # dg, as declared: no extreme rank


def test_only_the_keeper_runs_it(room: Path) -> None:
    before = files(room)
    for line in (".rule rule3", ".rule", ".rule none"):
        refused = lw(room, "--as", "p2", "--say", line, ok=False)
        assert refused.returncode != 0 and "error: .rule is for the keeper only" in refused.stderr
    assert files(room) == before


HOSTILE = [
    "rule9", "rules", "rule3 rule4", "rule3: x", "{variant: rule3}", "../../room.yaml", "/etc/passwd",
    "rule3\u200b", "ｒｕｌｅ３", "规则三", "r" * 20_000, "variant: null\nsystem: dnd5e", "%00", "*", "&a [a]",
]


@pytest.mark.parametrize("arg", HOSTILE, ids=range(len(HOSTILE)))
def test_an_unknown_or_hostile_variant_is_refused_and_nothing_changes(room: Path, arg: str) -> None:
    before = files(room)
    started = time.monotonic()
    refused = lw(room, "--as", "kp", "--say", f".rule {arg}", ok=False)
    assert time.monotonic() - started < 30  # a hang check, not a speed claim
    assert refused.returncode != 0
    if "\n" not in arg and "\u200b" not in arg:  # line breaks and invisible characters: refused as said text
        assert "coc7 has no variant" in refused.stderr and "rule0, rule1, rule2, rule3, rule4, rule5, dg" in refused.stderr
        assert len(refused.stderr) < 500  # a long argument is not echoed whole
    assert files(room) == before


def test_a_system_without_variants_says_so(room: Path) -> None:
    import yaml

    data = yaml.safe_load((room / "room.yaml").read_text(encoding="utf-8"))
    data["system"] = "wod"
    for member in data["players"]:
        member.pop("sheet")  # the sheets are the percentile system's
    (room / "room.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert lw(room, "--as", "kp", "--say", ".rule").stdout.splitlines() == ["规则系统：wod；房规：无（规则书）",
                                                                           "wod 没有声明房规。"]
    refused = lw(room, "--as", "kp", "--say", ".rule dg", ok=False)
    assert "wod has no variant 'dg'" in refused.stderr and "(none declared)" in refused.stderr
