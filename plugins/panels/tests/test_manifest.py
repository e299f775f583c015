"""Manifests per viewer (golden, per audience), resolution against each viewer's own
variables, leak refusals, and hooks' payloads reaching only the viewers of their panel."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from panels_testkit import KEEPER_TEXTS, SECRET_VALUE, load, recorded, say, write_pack

from lw_panels.manifest import manifest, resolve_panels, wire
from lw_panels.packs import dev_mounts
from lwcore.contributions import HookScript
from lwcore.errors import LwError, LwErrors
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.documents import Document, viewer_of

GOLDEN = Path(__file__).parent / "golden"


def manifest_of(kernel: Kernel, room: Path, member: str) -> list[dict]:
    loaded = load(kernel, room)
    return [wire(p) for p in manifest(loaded, viewer_of(loaded, loaded.member(member)))]


@pytest.mark.parametrize("member", ["p1", "p2", "kp"])
def test_golden_manifests_per_audience(kernel: Kernel, table_room: Path, member: str) -> None:
    got = manifest_of(kernel, table_room, member)
    path = GOLDEN / f"manifest.{member}.json"
    if os.environ.get("LW_UPDATE_GOLDEN"):
        path.write_text(json.dumps(got, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert got == json.loads(path.read_text(encoding="utf-8"))
    ids = [p["id"] for p in got]
    assert ("harbor-ui/board" in ids) is (member == "kp")  # structurally absent for players
    assert all("audience" not in p for p in got)
    text = json.dumps(got, ensure_ascii=False)
    if member != "kp":
        assert not any(secret in text for secret in KEEPER_TEXTS), member


def test_player_audience_panels_are_the_players_only(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "p", """\
        panels:
          - {id: mine, title: Mine, slot: tray, audience: player, blocks: [{kind: text, text: yours}]}
          - {id: theirs, title: Theirs, slot: tray, audience: keeper, blocks: [{kind: text, text: keeper's}]}
          - {id: ours, title: Ours, slot: tray, blocks: [{kind: divider}]}
        """)
    dev_mounts(kernel).mount(folder)
    say(kernel, room, ".panels enable testpack", "kp")
    assert [p["id"] for p in manifest_of(kernel, room, "p1")] == ["testpack/mine", "testpack/ours"]
    assert [p["id"] for p in manifest_of(kernel, room, "kp")] == ["testpack/theirs", "testpack/ours"]


RESOLVE = """\
panels:
  - id: t
    title: {en: Test, zh: 测试}
    slot: sidebar
    blocks:
      - {kind: stat, label: Fog, value: {$var: fog}}
      - {kind: stat, label: Missing, value: {$var: nope}}
      - {kind: meter, label: Bad, value: {$var: fog}, max: 3}
      - {kind: text, text: shown, visible_when: "clues_found >= 1"}
      - {kind: text, text: hidden, visible_when: "clues_found >= 5"}
      - {kind: text, text: error hides, visible_when: "fog > 3"}
      - {kind: text, text: {$var: nope}, visible_when: "clues_found >= 1"}
      - repeat:
          prefix: mvu.npc.
          block: {kind: stat, label: {$leaf: id}, value: {$leaf: value}}
      - {kind: badge, label: {en: Light mist, zh: 薄雾}, visible_when: "fog === '薄雾'"}
      - {kind: badge, label: {en: Thick fog, zh: 浓雾}, visible_when: "fog === '浓雾'"}
"""


def test_resolution_for_each_viewer(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    dev_mounts(kernel).mount(write_pack(tmp_path / "p", RESOLVE))
    loaded = load(kernel, room)
    loaded.documents.put(Document("mvu", "mvu", {"tree": {"npc": {"alice": 3, "bob": 5, "mole": 9}},
                                                 "exposed": ["npc.alice", "npc.bob"]}))
    loaded.save()
    say(kernel, room, ".panels enable testpack", "kp")
    loaded = load(kernel, room)
    by = {}
    for member in ("p1", "p2", "kp"):
        [panel] = resolve_panels(loaded, viewer_of(loaded, loaded.member(member)))
        by[member] = panel
    assert by["p2"]["title"] == "Test" and by["p1"]["title"] == "测试"
    assert by["p2"]["blocks"] == [
        {"kind": "stat", "label": "Fog", "value": "Thick fog"},
        {"kind": "text", "text": "shown"},
        {"kind": "stat", "label": "mvu.npc.alice", "value": 3},
        {"kind": "stat", "label": "mvu.npc.bob", "value": 5},
        {"kind": "badge", "label": "Thick fog"},
    ]
    assert by["p1"]["blocks"][0] == {"kind": "stat", "label": "Fog", "value": "浓雾"}
    assert by["kp"]["blocks"] == by["p1"]["blocks"]  # the keeper (zh) sees what the players do here
    assert by["p1"]["blocks"][-1] == {"kind": "badge", "label": "浓雾"}
    assert "mole" not in json.dumps(by)  # an unexposed leaf, for the keeper too


def leak_pack(tmp_path: Path, audience: str, body: str) -> Path:
    return write_pack(tmp_path / f"leak-{audience}", f"""\
        panels:
          - id: leaky
            title: Leaky
            slot: sidebar
            audience: {audience}
            blocks:
              - {body}
        """)


LEAKS = {
    "condition names a keeper-only variable": ('{kind: text, text: x, visible_when: "cult_alert > 3"}', "cult_alert"),
    "literal is a keeper-only value": (f"{{kind: text, text: x, visible_when: \"fog === '{SECRET_VALUE}'\"}}",
                                       "compares with"),
    "binding names a keeper-only variable": ("{kind: stat, label: x, value: {$var: true_culprit}}", "true_culprit"),
    "text is a keeper-only value": (f"{{kind: text, text: ' {SECRET_VALUE} '}}", "the text"),
    "text holds a keeper-only value": (f"{{kind: text, text: '是{SECRET_VALUE}干的'}}", "holds the value"),
    "localized text holds a hidden leaf's value": ("{kind: badge, label: {en: x, zh: 凶手顾晚棠在此}}", "holds the value"),
    "hidden tree leaf": ('{kind: text, text: x, visible_when: "mvu.内部.真凶 === 1"}', "mvu.内部.真凶"),
    "ancestor of a hidden leaf": ('{kind: text, text: x, visible_when: "mvu.内部"}', "mvu.内部"),
    "prefix of keeper-only only": ("{repeat: {prefix: ritual, block: {kind: divider}}}", "repeat prefix"),
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_enable_refuses_a_player_panel_that_leaks(kernel: Kernel, room: Path, tmp_path: Path, name: str) -> None:
    body, words = LEAKS[name]
    loaded = load(kernel, room)
    loaded.documents.put(Document("mvu", "mvu", {"tree": {"内部": {"真凶": "顾晚棠"}}, "exposed": []}))
    loaded.save()
    for audience in ("all", "player"):
        dev_mounts(kernel).mount(leak_pack(tmp_path, audience, body))
        before = sorted(p.name for p in (room / "docs").iterdir())
        with pytest.raises(LwError) as caught:
            say(kernel, room, ".panels enable testpack", "kp")
        error = caught.value
        problems = error.errors if isinstance(error, LwErrors) else [error]
        assert any(words in p.message for p in problems), [str(p) for p in problems]
        assert all(p.secret for p in problems)
        assert problems[0].file.endswith("panels.yaml") and problems[0].line == 7, str(problems[0])
        assert sorted(p.name for p in (room / "docs").iterdir()) == before  # nothing enabled
    dev_mounts(kernel).mount(leak_pack(tmp_path, "keeper", body))
    say(kernel, room, ".panels enable testpack", "kp")  # the keeper's own board may name anything


def test_numbers_equal_to_a_secret_are_not_a_leak(kernel: Kernel, room: Path, tmp_path: Path) -> None:
    assert load(kernel, room).variable("ritual_nights_left").value == 3
    dev_mounts(kernel).mount(leak_pack(tmp_path, "all", '{kind: text, text: x, visible_when: "clues_found >= 3"}'))
    say(kernel, room, ".panels enable testpack", "kp")


def test_a_variable_made_secret_later_takes_the_panel_from_players(kernel: Kernel, table_room: Path) -> None:
    variables = table_room / "variables.yaml"
    text = variables.read_text(encoding="utf-8")
    start = text.index("id: clues_found")
    variables.write_text(text[:start] + text[start:].replace("visibility: player", "visibility: keeper", 1),
                         encoding="utf-8")
    assert "harbor-ui/hud" not in [p["id"] for p in manifest_of(kernel, table_room, "p1")]
    assert "harbor-ui/hud" in [p["id"] for p in manifest_of(kernel, table_room, "kp")]
    listing = say(kernel, table_room, ".panels", "kp").command.reply.text
    assert "withheld from players" in listing or "对玩家隐藏" in listing
    player = say(kernel, table_room, ".panels", "p2").command.reply.text
    assert "hud" not in player and "clues_found" not in player


EMIT = """
on('turn_start', () => {
  emitPanel('harbor-ui/board', {secret: 'SECRET-PAYLOAD-zhou'});
  emitPanel('harbor-ui/hud', {note: 'tide rising'});
  emitPanel('harbor-ui/nowhere', {note: 'no such panel'});
  emitUI([{kind: 'badge', label: {en: 'Tide', zh: '潮水'}, tone: 'warn'},
          {kind: 'text', text: 'only when foggy', visible_when: "fog === '蔽日'"}], {panel: 'sidebar'});
});
"""


def test_hook_payloads_reach_only_the_viewers_of_their_panel(tmp_path: Path, room: Path, pack: Path) -> None:
    @hookimpl
    def lw_turn_scripts(turn):  # noqa: ANN001, ANN202
        return [HookScript("emit", EMIT, origin="lore/hooks.js")]

    plugin = InProcessPlugin({"id": "lore", "version": "1", "tier": "code", "provides": ["turn_scripts"],
                              "needs": ["sandbox:js"]}, SimpleNamespace(lw_turn_scripts=lw_turn_scripts))
    hooked = Kernel(data_dir=tmp_path / "hooked", env={}, plugins=[plugin])
    dev_mounts(hooked).mount(pack)
    say(hooked, room, ".panels enable harbor-ui", "kp")
    result = say(hooked, room, "我去码头查看那艘空船。", "p1", reply=recorded(), rng=random.Random(5))
    assert result.applied.ui and result.applied.ui[0]["blocks"][0]["label"] == {"en": "Tide", "zh": "潮水"}
    loaded = load(hooked, room)
    stored = {d.id for d in loaded.documents.all("panel_payload")}
    assert stored == {"harbor-ui/board", "harbor-ui/hud"}  # the undeclared panel was refused
    log = [e.text for e in loaded.history.all() if e.data and e.data.get("kind") == "hook_log"]
    assert any("harbor-ui/nowhere" in line and "refused" in line for line in log)
    from lw_panels.table import table_view

    for member in ("p1", "p2"):
        view = table_view(loaded, member, ui=result.applied.ui)
        payloads = {p["id"]: p.get("payload") for p in view["panels"]}
        assert payloads["harbor-ui/hud"] == {"note": "tide rising"} and "harbor-ui/board" not in payloads
        dumped = json.dumps(view, ensure_ascii=False)
        assert "SECRET-PAYLOAD" not in dumped
        assert [b["kind"] for e in view["ui"] for b in e["blocks"]] == ["badge", "text"]  # the fog is 蔽日 now
    keeper = table_view(loaded, "kp")
    assert {p["id"]: p.get("payload") for p in keeper["panels"]}["harbor-ui/board"] == {
        "secret": "SECRET-PAYLOAD-zhou"}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_the_manifests_quick_check_agrees_with_the_located_one(kernel: Kernel, room: Path, tmp_path: Path,
                                                                name: str) -> None:
    from lw_panels.leaks import name_problems, names_a_secret
    from lw_panels.load import load_pack
    from lw_panels.packs import read_home
    from lw_panels.variables import keeper_only

    loaded = load(kernel, room)
    loaded.documents.put(Document("mvu", "mvu", {"tree": {"内部": {"真凶": "顾晚棠"}}, "exposed": []}))
    secrets = keeper_only(loaded)
    for audience in ("all", "player", "keeper"):
        [panel] = load_pack(read_home(leak_pack(tmp_path, audience, LEAKS[name][0]), dev=True)).panels
        assert names_a_secret(panel, secrets) is bool(name_problems(panel, secrets))
