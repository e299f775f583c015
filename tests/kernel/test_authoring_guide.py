"""Every plugin in docs/authoring-plugins.md is booted in a real kernel and does what the
guide says (a manifest block followed by its plugin.py block makes one plugin)."""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from lwcore.contributions import TurnContext, Viewer, resolve
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "authoring-plugins.md"
ROOM = ROOT / "examples" / "fog-harbor"


def plugins_in_guide() -> dict[str, tuple[dict[str, Any], str]]:
    """Plugin id -> (manifest, plugin.py source), from consecutive toml + python blocks."""
    blocks = re.findall(r"```(toml|python)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    found = {}
    for (kind, text), (next_kind, source) in zip(blocks, blocks[1:]):
        if kind == "toml" and next_kind == "python":
            manifest = tomllib.loads(text)
            found[manifest["id"]] = (manifest, source)
    return found


PLUGINS = plugins_in_guide()


def boot(tmp_path: Path, plugin_id: str, **options: Any) -> Kernel:
    manifest, source = PLUGINS[plugin_id]
    namespace: dict[str, Any] = {"__name__": f"guide_{plugin_id.replace('-', '_')}"}
    exec(compile(source, f"{GUIDE}:{plugin_id}", "exec", dont_inherit=True), namespace)  # as its own module would
    hooks = SimpleNamespace(**{k: v for k, v in namespace.items() if k.startswith("lw_")})
    kernel = Kernel(data_dir=tmp_path / "data", env={}, strict=True,
                    plugins=[InProcessPlugin(manifest, hooks)], **options)
    kernel.load_all()
    record = kernel.plugin(plugin_id)
    assert record.status == "enabled" and not record.errors and not record.refused, record
    return kernel


def room(tmp_path: Path) -> Path:
    """A copy of the example room that offers every plugin's tools (no tool_plugins line)."""
    target = tmp_path / "room"
    shutil.copytree(ROOM, target, ignore=shutil.ignore_patterns("replies"))
    text = (target / "room.yaml").read_text(encoding="utf-8")
    (target / "room.yaml").write_text(re.sub(r"(?m)^tool_plugins:.*\n", "", text), encoding="utf-8")
    return target


def check_house_rules(kernel: Kernel, tmp_path: Path) -> None:
    texts = [e.value.text for e in kernel.prompt_segments(TurnContext(locale="zh-CN")).segments if e.plugin_id == "house-rules"]
    assert texts == ["本桌规则：孤注一掷前先问守秘人。"]


def check_weather(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.turn.pipeline import run_turn

    reply = {"content": [{"type": "tool_use", "id": "w", "name": "roll_weather", "input": {"region": "the harbour"}}]}
    result = run_turn(kernel, room(tmp_path), "天气如何？", reply=reply, rng=random.Random(3))
    content = result.applied.results[0].content
    assert not result.applied.results[0].is_error and content["region"] == "the harbour" and 1 <= content["roll"] <= 6
    bad = run_turn(kernel, room(tmp_path / "b"), "？", reply={"content": [
        {"type": "tool_use", "id": "w", "name": "roll_weather", "input": {"where": 1}}]})
    assert bad.applied.results[0].is_error


def check_tiny_d6(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.rules import engine_for

    engine = engine_for(kernel)
    assert engine.find("d6") == "tiny-d6"
    assert kernel.rule_computers["tiny_grit"].function({"Might": 4, "Wits": 5}) == 6


def check_fatigue(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.rules import RulesEngine
    from lwcore.rules.engine import PackSource
    from lwcore.rules.errors import RulepackError

    def engine(march: dict[str, Any]) -> RulesEngine:
        pack = {"names": ["trek"], "defaults": {"Fatigue": 0}, "resolution": {"roll": "1d20", "target": "skill"},
                "subsystems": {"march": march}}
        return RulesEngine(kernel, sources=[PackSource("trek", "guide", None, pack)], user_dir=None)

    trek = engine({"kind": "fatigue", "stat": "Fatigue", "limit": 2})
    sheet = trek.sheet("trek", {"Fatigue": 0})
    assert trek.subsystem("trek", "march", sheet).outcome == "going" and sheet["Fatigue"] == 1
    assert trek.subsystem("trek", "march", sheet).outcome == "exhausted" and sheet["Fatigue"] == 2
    with pytest.raises(RulepackError, match="a fatigue subsystem needs stat:"):
        engine({"kind": "fatigue", "limit": 2}).rule_system("trek")


def check_tarot(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.turn.pipeline import run_turn

    reply = run_turn(kernel, room(tmp_path), ".tarot", actor="p1", rng=random.Random(1)).command.reply
    assert reply.audience == "all" and "draws The" in reply.text


def check_clues(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.turn.documents import Document, project
    from lwcore.turn.room import Room

    loaded = Room.load(room(tmp_path), kernel)
    found = Document("c1", "clue", {"title": "a wet footprint", "found": True, "note": "the keeper's"})
    hidden = Document("c2", "clue", {"title": "the lamp", "found": False})
    player, keeper = Viewer("p1", "zh"), Viewer("kp", "zh", keeper=True)
    assert project(loaded, found, player) == {"title": "a wet footprint"}
    assert project(loaded, hidden, player) is None and project(loaded, hidden, keeper)["title"] == "the lamp"
    loaded.documents.put(found)
    with pytest.raises(Exception, match="title must be text"):
        loaded.documents.put(Document("c3", "clue", {"title": 3}))


def check_dread(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.turn.pipeline import run_turn

    folder = room(tmp_path)
    for turn in range(2):
        result = run_turn(kernel, folder, "……", reply={"content": [{"type": "text", "text": "。"}]}, rng=random.Random(turn))
    assert result.applied.ui[0]["blocks"][0]["value"] == 2


def check_asides(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.turn.pipeline import run_turn
    from lwcore.turn.room import Room
    from lwcore.turn.view import view_for

    folder = room(tmp_path)
    reply = {"content": [{"type": "text", "text": "雾散了。((周伯年在说谎))"}]}
    result = run_turn(kernel, folder, "……", reply=reply, rng=random.Random(1))
    assert result.applied.narration == "雾散了。"
    loaded = Room.load(folder, kernel)
    assert loaded.documents.get("mvu", "mvu").data["tree"] == {"旁白": {"最近": "周伯年在说谎"}}
    notes = [e for e in loaded.history.all() if e.data and e.data.get("kind") == "reply_note"]
    assert [(e.text, e.audience) for e in notes] == [("asides: 周伯年在说谎", "keeper")]
    assert "周伯年在说谎" not in view_for(loaded, "p1").to_json_text()


def check_plain_notes(kernel: Kernel, tmp_path: Path) -> None:
    assert kernel.sniff(b"x", "a.notes.txt")[0] == (0.6, "plain-notes")
    assert kernel.import_bytes("一\n\n二\n".encode(), "a.notes.txt").value == ["一", "二"]


def check_ascii_panels(kernel: Kernel, tmp_path: Path) -> None:
    assert kernel.render_panel({"kind": "banner", "title": "Fog"}, Viewer("p1"), "text").splitlines()[1] == "| Fog |"


def check_title_cards(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.contributions import StageBeat

    direct = kernel.stage_directors["title-cards"].direct
    beat = StageBeat("scene", "fog-harbor", 3, {"templates": ["title_card", "letter"]}, {"beat": {"id": "scene", "value": "The pier"}})
    assert direct(beat) == [{"kind": "title_card", "title": "The pier"}]
    assert direct(StageBeat("scene", "fog-harbor", 3, {"templates": ["letter"]})) == []


def check_almanac(kernel: Kernel, tmp_path: Path) -> None:
    assert kernel.cli_commands["almanac"].command == "almanac_cli:almanac"


def check_maps(kernel: Kernel, tmp_path: Path) -> None:
    schema = resolve(kernel.schemas["map"].model).model_json_schema()
    assert set(schema["properties"]) == {"places", "roads"}


def check_handouts(kernel: Kernel, tmp_path: Path) -> None:
    from lwcore.errors import LwError
    from lwcore.pack.build import build_pack

    src = tmp_path / "src"
    (src / "handouts").mkdir(parents=True)
    (src / "handouts" / "letter.md").write_text("# A letter\nCome alone.\n", encoding="utf-8")
    (src / "pack.yaml").write_text("id: letters\nversion: 1.0.0\nname: Letters\ndescription: One letter.\n"
                                   "contents:\n  handouts: [handouts/letter.md]\n", encoding="utf-8")
    built = build_pack(kernel, src, tmp_path / "out")
    [item] = built.manifest.contents["handouts"]
    assert item.id == "letter.md" and item.detected == {"title": "A letter"}
    (src / "handouts" / "letter.md").write_text("Come alone.\n", encoding="utf-8")
    with pytest.raises(LwError, match="starts with a '# title' line"):
        build_pack(kernel, src, tmp_path / "out2")


def check_needs_git(kernel: Kernel, tmp_path: Path) -> None:
    lines = [line for plugin, line in kernel.diagnostics() if plugin == "needs-git"]
    assert lines == ([] if shutil.which("git") else ["git is not on the PATH: story repositories cannot be used"])


def guide_snippet(marker: str) -> str:
    """The guide's one python block (not a plugin's) containing ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    [found] = [b for b in blocks if marker in b and "@hookimpl" not in b]
    return found


def check_echo(kernel: Kernel, tmp_path: Path) -> None:
    import contextlib
    import io

    from lwcore.turn.room import Room

    assert kernel.prompt_compilers.origin("echo") == kernel.provider_adapters.origin("echo") == "echo-protocol"
    folder = room(tmp_path)
    snippet = guide_snippet("kernel.turn(room_folder")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # the guide's turn, as written
        exec(compile(snippet, f"{GUIDE}:echo turn", "exec", dont_inherit=True), {"kernel": kernel, "room_folder": folder})
    printed = [line.split("  # ", 1)[1] for line in snippet.splitlines() if line.startswith("print(")]
    assert out.getvalue().splitlines() == printed  # what the guide says it prints
    saved = Room.load(folder, kernel)
    assert [e.text for e in saved.history.all()][-1] == "The boards are wet."
    assert any(e.data and e.data.get("kind") == "check" for e in saved.history.all())

    from lwcore.turn.pipeline import run_turn

    bad = run_turn(kernel, room(tmp_path / "b"), "?", provider="echo", reply={"echo": {"text": "", "calls": [
        {"id": "x", "name": "skill_check", "args": "not an object"}, "not a call"]}})
    assert [r.is_error for r in bad.applied.results] == [True, True]
    compiled = bad.compiled
    assert compiled.protocol == "echo" and "skill_check" in [t["name"] for t in compiled.request["tools"]]
    assert compiled.request["system"].startswith("你是这个房间的守秘人")
    with pytest.raises(Exception, match="not an echo reply"):
        run_turn(kernel, room(tmp_path / "c"), "?", provider="echo", reply={"content": []})


CHECKS: dict[str, Callable[[Kernel, Path], None]] = {
    "house-rules": check_house_rules, "weather": check_weather, "tiny-d6": check_tiny_d6, "fatigue": check_fatigue, "tarot": check_tarot,
    "clues": check_clues, "dread-meter": check_dread, "asides": check_asides, "plain-notes": check_plain_notes,
    "ascii-panels": check_ascii_panels, "title-cards": check_title_cards, "almanac": check_almanac, "maps": check_maps,
    "needs-git": check_needs_git, "handouts": check_handouts, "echo-protocol": check_echo,
}


def test_every_plugin_in_the_guide_is_checked() -> None:
    assert set(PLUGINS) == set(CHECKS)


@pytest.mark.parametrize("plugin_id", sorted(CHECKS))
def test_guide_plugin(plugin_id: str, tmp_path: Path) -> None:
    CHECKS[plugin_id](boot(tmp_path, plugin_id), tmp_path)


def test_every_hook_family_has_a_section() -> None:
    from lwcore.hookspecs import FAMILIES

    text = GUIDE.read_text(encoding="utf-8")
    missing = [family for family in FAMILIES if f"`{family}`" not in text]
    assert missing == []
