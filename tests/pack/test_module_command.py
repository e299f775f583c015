""".module: the room command that consumes a module from ``<data_dir>/packs/<id>@<version>/``.

The contract: "卡、世界书和素材落到 data_dir/packs/<id>@<version>/，供已有的房间内导入流程（.import、.module）
消费"; a module is a scenario (the skills README, B.3: ``module.md`` -- title, the players' premise,
systems, the keeper's notes -- and ``prep/setup.js``); a prep plan "仅限准备阶段（.phase prep）",
"预览免费", "整体校验，按序执行"; what a player brings or types never changes shared state; what
only the keeper may read never reaches a player.

All through ``lw`` as a table runs it: a module forged by the keeper's model (a recorded reply
calling ``generate_module``) and the example ``.lwpack`` (``examples/blackmoor``) are listed,
shown (players: title and premise; the keeper: notes, world cards, a checked preview of the
setup), and started by the keeper in the prep phase -- all or nothing -- after which the
keeper's model reads the notes every turn. Hand-made module folders that are broken or hostile
are listed for the keeper as unusable and never break anything.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
NOTES = "# 真相\n\n潮屋的主人早已溺亡，守夜的是他的影子。"
SETUP = """const rooms = ["东厢", "西厢"];
for (const r of rooms) plan("thread_note", {label: r + "里有什么？"});
plan("define_variable", {id: "tide_house_dread", kind: "number", minimum: 0, maximum: 5, initial: 1, visibility: "keeper"});
"""
PREMISE = "一座涨潮时才露出水面的宅子，今夜亮了灯。"


def lw(work: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(work / "data"), *args], capture_output=True, text=True, timeout=120,
                         cwd=work)
    assert "Traceback" not in run.stderr, run.stderr
    if ok:
        assert run.returncode == 0, run.stderr
    return run


def say(work: Path, member: str, line: str, *extra: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    return lw(work, "turn", "room", "--as", member, "--say", line, *extra, ok=ok)


def files(root: Path) -> dict[str, bytes]:
    """Every file (``cache/`` and ``.lw/`` lock folders left out), byte for byte."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not {"cache", ".lw"} & set(p.relative_to(root).parts)}


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "data").mkdir()
    return tmp_path


def forge(work: Path, **change: object) -> None:
    """The keeper's model writes the module ``tide-house`` (a recorded reply), as the module forge
    is used: the skill enabled, a keeper's turn, a tool call."""
    say(work, "kp", ".skill enable module-forge")
    args = {"id": "tide-house", "title": "潮屋", "premise": PREMISE, "notes": NOTES, "setup": SETUP,
            "systems": ["coc7"]} | change
    reply = {"id": "msg_forge", "type": "message", "role": "assistant", "model": "recorded", "stop_reason": "tool_use",
             "content": [{"type": "tool_use", "id": "toolu_1", "name": "generate_module", "input": args}]}
    (work / "forge.json").write_text(json.dumps(reply, ensure_ascii=False), encoding="utf-8")
    say(work, "kp", "写一个潮屋的模组。", "--reply", "forge.json")
    assert (work / "data" / "packs" / "tide-house@1.0.0" / "module.md").is_file()
    say(work, "kp", ".skill disable module-forge")


def test_a_forged_module_is_listed_shown_and_started(work: Path) -> None:
    forge(work)
    assert say(work, "p2", ".module").stdout.splitlines() == [
        f"  tide-house — 潮屋: {PREMISE}", "(* = this room's module; .module show <id>)"]
    player = say(work, "p2", ".module show tide-house").stdout
    assert player.splitlines() == ["潮屋 (tide-house@1.0.0)", PREMISE, "rule systems: coc7"]
    keeper = say(work, "kp", ".module show tide-house").stdout
    assert NOTES.splitlines()[-1] in keeper and "setup prep/setup.js" not in keeper  # the keeper reads Chinese
    assert "铺设 prep/setup.js：3 步（预览，未执行；.module start 在准备阶段运行它）：" in keeper
    assert '  3. define_variable {"id": "tide_house_dread"' in keeper

    room_before = files(work / "room")
    refused = say(work, "kp", ".module start tide-house", ok=False)  # not in the prep phase
    assert "tide-house 的铺设只在准备阶段运行 (expected .phase prep, then .module start tide-house)" in refused.stderr
    refused = say(work, "p1", ".module start tide-house", ok=False)
    assert "error: .module start is for the keeper only" in refused.stderr
    assert files(work / "room") == room_before

    say(work, "kp", ".phase prep")
    receipt = say(work, "kp", ".module start tide-house").stdout.splitlines()
    assert receipt == ["本房间开始模组 tide-house@1.0.0", "铺设 prep/setup.js：已运行 3 步"]
    variables = yaml.safe_load((work / "room" / "variables.yaml").read_text(encoding="utf-8"))["variables"]
    assert any(v["id"] == "tide_house_dread" for v in variables)
    assert say(work, "p1", ".module").stdout.splitlines()[0] == f"* tide-house — 潮屋: {PREMISE}"
    view = say(work, "p2", ".module show").stdout  # the room's own module
    assert view.startswith("潮屋 (tide-house@1.0.0)")
    table = lw(work, "turn", "room", "--as", "p2", "--view").stdout
    # p2 reads English: the table's line in their language (the module's own words as written)
    assert f"The module begins: 潮屋 — {PREMISE}" in table and "溺亡" not in table and "东厢" not in table
    assert f"模组开始：潮屋 —— {PREMISE}" in lw(work, "turn", "room", "--as", "p1", "--view").stdout
    payload = say(work, "p1", "我看看那座宅子。", "--payload").stdout
    assert "本房间的模组：潮屋（tide-house@1.0.0）" in payload and "守夜的是他的影子" in payload  # the keeper's model


def test_an_lwpack_module_starts_as_pack_install_switches_it_on(work: Path) -> None:
    lw(work, "pack", "build", str(ROOT / "examples" / "blackmoor"), "-o", "out")
    lw(work, "pack", "install", "out/blackmoor-1.0.0.lwpack", "--yes")
    assert say(work, "p1", ".module").stdout.splitlines()[0].startswith("  blackmoor — 黑沼: 泥炭记得")
    keeper = say(work, "kp", ".module show blackmoor").stdout
    assert "世界卡：.import blackmoor/cards/blackmoor.lorecard.json world" in keeper
    assert "铺设 prep/setup.js：5 步" in keeper and "媒体素材：1 个文件" in keeper
    say(work, "kp", ".phase prep")
    receipt = say(work, "kp", ".module start blackmoor").stdout.splitlines()
    assert receipt[:3] == ["本房间开始模组 blackmoor@1.0.0", "规则系统已固定为 blackmoor（原为 coc7；建卡：.coc）",
                           "已导入世界：黑沼村（blackmoor/cards/blackmoor.lorecard.json）"]
    assert "已为本房间启用 blackmoor@1.0.0 的面板。" in receipt and "已启用技能：fen-guide" in receipt
    assert receipt[-1] == "铺设 prep/setup.js：已运行 5 步"
    assert yaml.safe_load((work / "room" / "room.yaml").read_text(encoding="utf-8"))["system"] == "blackmoor"
    assert any(line.startswith("* fen-guide") for line in lw(work, "skill", "list", "room").stdout.splitlines())


def test_start_is_all_or_nothing(work: Path) -> None:
    """A setup that fails at its second operation, after the pack's rule system, world card and
    skill were switched on in memory and its first operation ran: the room stays byte for byte."""
    lw(work, "pack", "build", str(ROOT / "examples" / "blackmoor"), "-o", "out")
    src = shutil.copytree(ROOT / "examples" / "blackmoor", work / "src")
    (src / "prep" / "setup.js").write_text('plan("thread_note", {label: "a"});\n'
                                           'plan("set_variable", {id: "no_such_variable", value: 1});\n',
                                           encoding="utf-8")
    lw(work, "pack", "build", str(src), "-o", "out2")
    lw(work, "pack", "install", "out2/blackmoor-1.0.0.lwpack", "--yes")
    say(work, "kp", ".phase prep")
    before = files(work / "room")
    refused = say(work, "kp", ".module start blackmoor", ok=False)
    assert "setup prep/setup.js:" in refused.stderr and "operation 2 set_variable failed" in refused.stderr
    assert "nothing of blackmoor was started" in refused.stderr
    assert files(work / "room") == before


def test_a_module_for_another_system_is_refused(work: Path) -> None:
    forge(work, systems=["dnd5e"], setup='plan("thread_note", {label: "a"});')
    say(work, "kp", ".phase prep")
    before = files(work / "room")
    refused = say(work, "kp", ".module start tide-house", ok=False)
    assert "tide-house is written for dnd5e; this room plays coc7" in refused.stderr
    assert files(work / "room") == before
    assert "rule systems: dnd5e (this room plays coc7)" in say(work, "p2", ".module show tide-house").stdout


def hand_made(data: Path) -> dict[str, str]:
    """Module folders an operator (or a bad copy) left in ``packs/``: id -> what the keeper is
    told. Each is broken or hostile in its own way."""
    cases: dict[str, tuple[bytes, str]] = {
        "no-front": (b"# just notes\n", "a module.md starts with a '---' line"),
        "open-front": (b"---\nid: open-front\ntitle: t\n", "the frontmatter opened on line 1 is never closed"),
        "bad-yaml": (b"---\nid: bad-yaml\ntitle: [unclosed\npremise: p\n---\n", "bad-yaml"),
        "bomb": (("---\nid: bomb\ntitle: t\npremise: p\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
                  + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                            for p, c in zip("abcdefg", "bcdefgh")) + "---\n").encode(), "bomb"),
        "huge": (b"---\nid: huge\ntitle: t\npremise: p\n---\n" + b"x" * (300 * 1024), "huge"),
        "latin1": ("---\nid: latin1\ntitle: caf\xe9\npremise: p\n---\n".encode("latin-1"), "UTF-8"),
        "wrong-id": (b"---\nid: someone-else\ntitle: t\npremise: p\n---\n", "is not the pack's id 'wrong-id'"),
        "no-premise": (b"---\nid: no-premise\ntitle: t\n---\n", "premise"),
        "typed": (b"---\nid: typed\ntitle: 5\npremise: [a]\n---\n", "title"),
        "escape": (b"---\nid: escape\ntitle: t\npremise: p\nsetup: ../../../etc/passwd.js\n---\n", "setup"),
        "not-js": (b"---\nid: not-js\ntitle: t\npremise: p\nsetup: prep/setup.txt\n---\n", "is not a .js script"),
    }
    out = {}
    for pack_id, (body, said) in cases.items():
        home = data / "packs" / f"{pack_id}@1.0.0"
        home.mkdir(parents=True)
        (home / "module.md").write_bytes(body)
        out[pack_id] = said
    link = data / "packs" / "linked@1.0.0"
    link.mkdir()
    os.symlink("/etc/hostname", link / "module.md")
    out["linked"] = "outside"
    spin = data / "packs" / "spin@1.0.0"
    (spin / "prep").mkdir(parents=True)
    (spin / "module.md").write_text("---\nid: spin\ntitle: 转\npremise: 转个不停\n---\n\n秘密笔记\n", encoding="utf-8")
    (spin / "prep" / "setup.js").write_text('plan("thread_note", {label: "a"});\nfor (;;) {}\n', encoding="utf-8")
    return out


def test_broken_and_hostile_modules_never_break_the_table(work: Path) -> None:
    cases = hand_made(work / "data")
    before = files(work / "room"), files(work / "data")
    started = time.monotonic()
    keeper_list = say(work, "kp", ".module").stdout
    for pack_id in cases:
        line = next(line for line in keeper_list.splitlines() if line[2:].startswith(f"{pack_id} — "))
        assert "无法使用" in line, line
    player_list = say(work, "p1", ".module").stdout.splitlines()
    assert player_list == ["  spin — 转: 转个不停", "(* = 本房间的模组；.module show <id>)"]  # only what works
    for pack_id, said in cases.items():
        shown = say(work, "kp", f".module show {pack_id}", ok=False)
        assert shown.returncode != 0 and said in shown.stderr, (pack_id, shown.stderr)
        told = say(work, "p1", f".module show {pack_id}", ok=False)
        assert told.stderr == f"error: 模组 {pack_id} 现在无法使用（守秘人可以看到原因）\n", told.stderr
    spin = say(work, "kp", ".module show spin").stdout
    assert "铺设 prep/setup.js：在本房间不可用：" in spin and "CPU" in spin
    say(work, "kp", ".phase prep")
    before = files(work / "room"), files(work / "data")
    refused = say(work, "kp", ".module start spin", ok=False)
    assert "CPU" in refused.stderr and "nothing of spin was started" in refused.stderr
    for word in ("x" * 5000, "../tide-house", "spin@9.9.9", "/etc/passwd", "转", "spin spin"):
        for member in ("kp", "p1"):
            refused = say(work, member, f".module show {word}", ok=False)
            assert refused.returncode != 0 and "no module" in refused.stderr and len(refused.stderr) < 1000
    assert (files(work / "room"), files(work / "data")) == before
    assert time.monotonic() - started < 240  # a hang check (an alias bomb, a spinning script), not a speed claim
