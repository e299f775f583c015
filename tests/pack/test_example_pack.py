"""Build -> install -> use: examples/blackmoor (a rulepack extending coc7 and a world card) is
built, installed into a fresh data dir, and played: a turn in a room on `system: blackmoor`
grades a Fen Lore check with the patched pack; the installed card's lore fires on the turn's words."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack, installed_path

ROOT = Path(__file__).resolve().parents[2]
SAY = "我去沉没的礼拜堂看看钟楼。"
REPLY = {
    "id": "msg_blackmoor_1", "type": "message", "role": "assistant", "model": "recorded", "stop_reason": "tool_use",
    "content": [
        {"type": "text", "text": "陈默趟过齐膝的泥水，朝礼拜堂的尖顶走去——"},
        {"type": "tool_use", "id": "toolu_01", "name": "skill_check",
         "input": {"character": "p1", "skill": "fen lore", "reason": "辨认泥炭里的水道"}},
    ],
}


def test_build_install_and_play_the_example_pack(tmp_path: Path, example) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env={})
    built = build_pack(kernel, example(tmp_path / "src"), tmp_path / "dist")
    report = install_pack(kernel, str(built.path))
    assert report is not None and report.landed == ["rulepacks/blackmoor.yaml"]

    room = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", room, ignore=shutil.ignore_patterns("replies"))
    text = (room / "room.yaml").read_text(encoding="utf-8")
    (room / "room.yaml").write_text(text.replace("system: coc7", "system: blackmoor").replace("tool_plugins: [coc7]\n", ""),
                                    encoding="utf-8")
    result = kernel.turn(room, SAY, reply=REPLY, rng=random.Random(3))
    [check] = result.applied.results
    assert not check.is_error, check.content
    assert check.content["skill"] == "沼泽知识" and check.content["target"] == 15  # only the patch has this skill
    assert check.content["success"] == (check.content["roll"] <= 15)
    assert "沼泽知识" in str(result.compiled.request) or "Fen Lore" in str(result.compiled.request)

    from lw_tavern.lorecard import entry_to_world, read_lorecard
    from lw_tavern.worldbook.engine import ScanInput, activate, compile_book
    from lw_tavern.worldbook.model import WorldBook, WorldSettings

    card_path = installed_path(kernel, "blackmoor/cards/blackmoor.lorecard.json")
    assert card_path is not None and card_path.parent.parent == report.home
    card = read_lorecard(card_path)
    assert card.handles("blackmoor") == ["blackmoor#drowned-chapel", "blackmoor#ferryman", "blackmoor#the-surveyor"]
    book = WorldBook(entries=[entry_to_world(e) for e in card.worldbook])
    settings = WorldSettings()
    fired = activate(compile_book([book], settings), ScanInput(chat=[SAY]), settings, rng=random.Random(1))
    assert len(fired.fired) == 1 and "钟楼只露出尖顶" in next(iter(fired.contents.values()))
