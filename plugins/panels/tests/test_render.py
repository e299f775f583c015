"""The renderers: every tier-0 block as text and as HTML, panels through the kernel's
panel-renderer hook, tier-2 frames locked, whole pages self-contained, and ``lw panels
render`` for each member with nothing of the keeper's in a player's output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import escape
from pathlib import Path

import pytest
from panels_testkit import KEEPER_TEXTS

from lw_panels import html as H
from lw_panels import text as T
from lwcore.contributions import Viewer
from lwcore.kernel import Kernel

BLOCKS = [
    ({"kind": "meter", "label": "Fear", "value": 3, "min": 0, "max": 12}, ["Fear  ███░░░░░░░░░ 3/12"]),
    ({"kind": "meter", "label": "Over", "value": 20, "min": 0, "max": 10}, ["Over  ████████████ 20/10"]),
    ({"kind": "meter", "label": "Under", "value": -5, "min": 0, "max": 10}, ["Under  ░░░░░░░░░░░░ -5/10"]),
    ({"kind": "stat", "label": "HP", "value": 12.0}, ["HP: 12"]),
    ({"kind": "stat", "label": "Alive", "value": True}, ["Alive: true"]),
    ({"kind": "badge", "label": "Hunted", "tone": "danger"}, ["[‼Hunted]"]),
    ({"kind": "badge", "label": "Calm"}, ["[Calm]"]),
    ({"kind": "text", "text": "two\nlines", "style": "quote"}, ["> two", "> lines"]),
    ({"kind": "text", "text": "careful", "style": "warning"}, ["! careful"]),
    ({"kind": "divider"}, ["─" * 20]),
    ({"kind": "choices", "prompt": "Go?", "options": [{"id": "a", "label": "North", "input": "I go north."}]},
     ["Go?", "  1) North → I go north."]),
    ({"kind": "image", "hash": "a" * 64, "caption": "The map"}, ["[picture: The map]"]),
    ({"kind": "image", "hash": "a" * 64, "alt": "A pier"}, ["[picture: A pier]"]),
    ({"kind": "image", "hash": "a" * 64}, ["[picture]"]),
]


@pytest.mark.parametrize("block,lines", BLOCKS, ids=lambda b: str(b)[:30])
def test_text_of_every_block(block: dict, lines: list[str]) -> None:
    assert T.block_lines(block) == lines


def test_text_panels_tier2_and_order() -> None:
    panels = [
        {"kind": "panel", "id": "p/m", "title": "Map", "slot": "modal", "tier": 2, "blocks": [], "fallback_null": True},
        {"kind": "panel", "id": "p/s", "title": "Side", "slot": "sidebar", "tier": 1, "blocks": [{"kind": "divider"}]},
        {"kind": "panel", "id": "p/e", "title": "Empty", "slot": "tray", "tier": 1, "blocks": []},
    ]
    text = T.panels_text(panels)
    assert text.index("Side") < text.index("Empty") < text.index("Map")
    assert "web table only" in text and "nothing to show yet" in text
    assert "只能在网页牌桌" in T.panels_text(panels, "zh-CN")


def test_html_escapes_everything() -> None:
    evil = '<script>alert(1)</script>"\''
    panel = {"kind": "panel", "id": 'p/"x', "title": evil, "slot": "sidebar", "tier": 1, "asset_base": "/a/",
             "blocks": [{"kind": "stat", "label": evil, "value": evil},
                        {"kind": "choices", "prompt": evil, "options": [{"id": "a", "label": evil, "input": evil}]},
                        {"kind": "image", "hash": "b" * 64, "caption": evil, "alt": evil},
                        {"kind": "text", "text": evil}, {"kind": "badge", "label": evil, "tone": '"><x'}]}
    out = H.panel_html(panel)
    assert "<script>" not in out and "alert(1)</script>" not in out
    assert '"><x' not in out and 'data-panel="p/&quot;x"' in out and 'src="/a/' + "b" * 64 + '"' in out


def test_tier2_frames_are_locked() -> None:
    panel = {"kind": "panel", "id": "pk/map", "title": "Map", "slot": "modal", "tier": 2, "entry": "index.html",
             "blocks": [{"kind": "text", "text": "fallback"}], "frame_base": "/t/T/frame/", "asset_base": "/t/T/asset/"}
    out = H.panel_html(panel)
    frame = re.search(r"<iframe[^>]*>", out).group(0)
    assert 'sandbox="allow-scripts"' in frame and "allow-same-origin" not in out
    assert 'src="/t/T/frame/pk/map/index.html"' in frame and 'referrerpolicy="no-referrer"' in frame
    assert "fallback" in out
    policy = H.frame_policy("http://127.0.0.1:1/t/T/frame/pk/map/")
    assert "connect-src 'none'" in policy and "default-src 'none'" in policy and "sandbox allow-scripts" in policy
    assert "allow-same-origin" not in policy and "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_the_kernel_renders_panels_through_this_plugin(kernel: Kernel) -> None:
    panel = {"kind": "panel", "id": "p/s", "title": "Side", "slot": "sidebar", "tier": 1,
             "blocks": [{"kind": "meter", "label": "Fear", "value": 3, "min": 0, "max": 12}]}
    assert kernel.panel_renderers.origin("panel") == "panels"
    assert kernel.render_panel(panel, Viewer("p1"), "text") == "── Side ──\nFear  ███░░░░░░░░░ 3/12"
    assert '<meter min="0" max="12" value="3">' in kernel.render_panel(panel, Viewer("p1"), "html")


def lw(*args: str, home: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    full.update({"LW_HOME": str(home), **(env or {})})
    return subprocess.run([str(Path(sys.executable).parent / "lw"), *args], capture_output=True, text=True,
                          env=full, timeout=120, encoding="utf-8")


def test_lw_panels_render_for_each_member(tmp_path: Path, room: Path, pack: Path) -> None:
    env = {"LW_DEV_PACKS": str(pack)}
    home = tmp_path / "home"
    enabled = lw("turn", str(room), "--say", ".panels enable harbor-ui", "--as", "kp", home=home, env=env)
    assert enabled.returncode == 0, enabled.stderr
    outputs = {}
    for member in ("p1", "p2", "kp"):
        for fmt in ("text", "html", "json"):
            result = lw("panels", "render", str(room), "--as", member, "--format", fmt, home=home, env=env)
            assert result.returncode == 0, result.stderr
            outputs[member, fmt] = result.stdout
    assert "── The harbour ──" in outputs["p2", "text"] and "Clues found  ██░░░░░░░░░░ 1/6" in outputs["p2", "text"]
    assert "守秘人看板" in outputs["kp", "text"] and "灯塔看守人周伯年" in outputs["kp", "text"]
    for member in ("p1", "p2"):
        for fmt in ("text", "html", "json"):
            assert not [s for s in KEEPER_TEXTS if s in outputs[member, fmt]], (member, fmt)
    page = outputs["p1", "html"]
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page)  # no CDN, nothing remote
    assert 'src="data:image/svg+xml;base64,' in page and "<script" not in page
    assert escape(H.digest(H.STYLE), quote=True) in page  # the page's own policy allows its style
    data = json.loads(outputs["p2", "json"])
    assert [p["id"] for p in data["manifest"]] == ["harbor-ui/hud", "harbor-ui/dice", "harbor-ui/map"]


def test_lw_panels_render_refuses_cleanly(tmp_path: Path, room: Path) -> None:
    home = tmp_path / "home"
    missing = lw("panels", "render", str(tmp_path / "nowhere"), "--as", "p1", home=home)
    assert missing.returncode == 1 and "not a room folder" in missing.stderr and "Traceback" not in missing.stderr
    nobody = lw("panels", "render", str(room), "--as", "zed", home=home)
    assert nobody.returncode == 1 and "no member 'zed'" in nobody.stderr
    bad = tmp_path / "bad"
    (bad / "ui").mkdir(parents=True)
    (bad / "ui" / "panels.yaml").write_text("panels:\n  - {id: a, title: A, slot: nowhere, blocks: [{kind: divider}]}\n",
                                            encoding="utf-8")
    checked = lw("panels", "check", str(bad), home=home)
    assert checked.returncode == 1 and "panels.yaml:2:" in checked.stderr and "slot" in checked.stderr
    as_json = lw("panels", "check", str(bad), "--json", home=home)
    assert json.loads(as_json.stdout)["error"]["line"] == 2


def test_a_broken_room_is_told_whole_only_to_the_keeper(tmp_path: Path, room: Path) -> None:
    variables = room / "variables.yaml"
    variables.write_text(variables.read_text(encoding="utf-8").replace("value: 灯塔看守人周伯年", "value: 灯塔看守人周伯年\n    bogus: [1"),
                         encoding="utf-8")
    home = tmp_path / "home"
    player = lw("panels", "render", str(room), "--as", "p2", home=home)
    keeper = lw("panels", "render", str(room), "--as", "kp", home=home)
    assert player.returncode == 1 and keeper.returncode == 1
    assert "only the keeper can see" in player.stderr and "周伯年" not in player.stderr
    assert "variables.yaml" in keeper.stderr and "only the keeper can see" not in keeper.stderr


def test_files_read_while_rendering_are_told_whole_only_to_the_keeper(tmp_path: Path, room: Path) -> None:
    """The history and the room's documents are read while the panels are built, after the
    room loaded: a broken keeper-only line (its data quoted by the error) stays the keeper's."""
    line = {"turn": 9, "role": "event", "text": "x", "audience": "keeper", "data": "守秘人：钟里刻着周衡的名字"}
    with (room / "history.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    home = tmp_path / "home"
    for fmt in ("text", "html", "json"):
        player = lw("panels", "render", str(room), "--as", "p2", "--format", fmt, home=home)
        assert player.returncode == 1 and "Traceback" not in player.stderr, player.stderr
        assert "only the keeper can see" in player.stderr and "周衡" not in player.stderr + player.stdout, fmt
    keeper = lw("panels", "render", str(room), "--as", "kp", home=home)
    assert keeper.returncode == 1 and "钟里刻着周衡的名字" in keeper.stderr


def test_the_keepers_story_says_each_turns_number_and_a_players_does_not() -> None:
    """The keeper rewinds and edits by turn number: on their page each turn's first line is
    headed by its number (in their language); a player's page has no such heading."""
    from lw_panels.html import story_html

    history = [{"turn": 1, "role": "player", "actor": "林晓", "text": "我去码头。"},
               {"turn": 1, "role": "keeper", "text": "雾很大。"},
               {"turn": 2, "role": "event", "text": "1d100=42", "dice": True},
               {"turn": 3, "role": "player", "actor": "Alex", "text": "I wait."}]
    keeper = story_html({"locale": "zh", "keeper": True, "history": history})
    assert re.findall(r'data-turn="(\d+)"', keeper) == ["1", "2", "3"] and "第 2 回合" in keeper
    assert keeper.index('data-turn="2"') < keeper.index("1d100=42") < keeper.index('data-turn="3"')
    assert "turn 3" in story_html({"locale": "en", "keeper": True, "history": history})
    player = story_html({"locale": "zh", "keeper": False, "history": history})
    assert "data-turn" not in player and "回合" not in player and "我去码头。" in player


@pytest.mark.parametrize("blank", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\u200b", "\U000e0041"])
def test_a_scripted_panels_words_may_hold_nothing_drawn_as_nothing(blank: str) -> None:
    """Fillers and blanks outside Unicode's format category draw as nothing too: refused at their
    column; the joiners, marks and one variation selector that scripts and emoji need are not."""
    from lw_panels.intents import hidden_at

    assert hidden_at("我看" + blank + "看") == 2
    assert hidden_at("一家人👨\u200d👩\u200d👧。我喜欢❤\ufe0f。مرحبا\u061c! é") is None
