"""examples/blackmoor end to end, the way an operator plays it.

The session in ``examples/blackmoor/README.md`` runs as written, each ``lw`` line a real ``lw``
process in a fresh data dir (the two recorded turns with ``--json`` so they can be read back):
``lw pack build`` -> ``lw pack verify`` -> ``lw pack install --yes`` -> a copy of the example's
room on ``system: blackmoor`` -> the keeper's ``.import blackmoor/cards/… world``, ``.skill enable
fen-guide``, ``.panels enable blackmoor`` -> the pack's prep script in the prep phase -> one
player turn with a recorded model reply -> ``lw panels render --as``. Then each part of the pack
is read back: the card's lore fired on the player's words (the compiled request's tavern
segments), the skill's text and tools were offered and its hook moved the keeper's gauge, the
patched rulepack graded a Fen Lore check, each viewer gets their panels -- and every
player-facing output is searched for every keeper-only string the pack and the session made.
Finally the same session is replayed through the kernel API with the ``chat_completions``
replies and must end in the same room.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lwcore.cli import lw as lw_cli
from lwcore.io.safe_json import read_json
from lwcore.io.safe_yaml import read_yaml
from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.turn.room import Room

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blackmoor"
LW = str(Path(sys.executable).with_name("lw"))
PLAYERS = ("p1", "p2")
SECRET_LORE = "测绘员被泥炭吞没，他的名字已经刻进了钟里。"
CHAPEL_LORE = "村东的礼拜堂半沉在泥炭里，钟楼只露出尖顶。涨潮时钟会自己响。"


def session_lines() -> list[str]:
    """The shell lines of the README's first ``sh`` block, comments stripped."""
    text = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block is not None, "examples/blackmoor/README.md has no sh block"
    return [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


@dataclass
class Step:
    line: str
    argv: list[str]
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@dataclass
class Session:
    """What the README's session left: its folder, data dir, room and every step's output."""

    work: Path
    home: Path
    room: Path
    steps: list[Step]

    def step(self, *words: str) -> Step:
        """The one step whose line contains every word."""
        [found] = [s for s in self.steps if all(w in s.line for w in words)]
        return found

    def kernel(self) -> Kernel:
        return Kernel(data_dir=self.home, env={})

    def cli(self, *args: str) -> str:
        """An ``lw`` command run in-process on the session's data dir (the viewers' outputs)."""
        result = CliRunner().invoke(lw_cli, ["--data-dir", str(self.home), *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    work = tmp_path_factory.mktemp("operator")
    shutil.copytree(EXAMPLE, work / "examples" / "blackmoor")
    home = work / "home"
    env = {"LW_HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    steps: list[Step] = []
    room: Path | None = None
    for line in session_lines():
        argv = shlex.split(line)
        if argv[0] == "lw":
            argv[0] = LW
            if "--reply" in argv:
                argv.append("--json")
        elif argv[:2] == ["cp", "-r"]:
            room = work / argv[-1]
        proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"{line}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        assert "Traceback" not in proc.stderr, line
        steps.append(Step(line, argv, proc.stdout, proc.stderr))
    assert room is not None and (room / "room.yaml").is_file()
    return Session(work, home, room, steps)


# --- build, verify, install -----------------------------------------------------------------


def test_the_pack_builds_verifies_and_installs_what_it_declares(session: Session) -> None:
    built = session.step("lw pack build")
    sha = re.search(r"^sha256 ([0-9a-f]{64})$", built.stdout, re.M)
    archive = session.work / "dist" / "blackmoor-1.0.0.lwpack"
    assert sha and hashlib.sha256(archive.read_bytes()).hexdigest() == sha.group(1)
    assert f"ok: every check passed (sha256 {sha.group(1)})" in session.step("lw pack verify").stdout
    install = session.step("lw pack install")
    card = install.stderr  # the trust card, shown before the (skipped) question
    assert "contains: 1 cards, 1 panel files, 1 prep scripts, 1 presentation kits, 1 rulepacks, 1 skills" in card, card
    assert "presentation kit: 4 subject(s); it MAY spend your image-generation budget." in card, card
    assert "hooks JS yes" in card and "prep scripts 1" in card and "1 world card(s)" in card, card
    assert "installed blackmoor@1.0.0" in install.stdout
    # landed in discovery folders: the rulepack and the skill; the rest stays in the pack's home
    assert (session.home / "rulepacks" / "blackmoor.yaml").read_bytes() == (EXAMPLE / "rules" / "blackmoor.yaml").read_bytes()
    skill = session.home / "skills" / "fen-guide"
    assert sorted(p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()) == \
        ["SKILL.md", "hooks.js", "references/channels.md"]
    pack_home = session.home / "packs" / "blackmoor@1.0.0"
    for rel in ("cards/blackmoor.lorecard.json", "ui/panels.yaml", "ui/art/village.svg", "prep/setup.js", "art/map.png"):
        assert (pack_home / rel).read_bytes() == (EXAMPLE / rel).read_bytes(), rel
    # what the build left out: the table and the recorded replies are not part of the pack
    assert not (pack_home / "room").exists() and not (pack_home / "replies").exists()


# --- the keeper switches it on ----------------------------------------------------------------


def test_the_keeper_switches_each_part_on_in_the_room(session: Session) -> None:
    imported = session.step(".import").stdout
    assert "黑沼村" in imported and "4 world-book entries" in imported and "2 module variable(s)" in imported
    enabled = session.step(".skill enable").stdout
    assert "fen-guide" in enabled and "read_skill_reference" in enabled
    assert "blackmoor@1.0.0" in session.step(".panels enable").stdout
    room_file = read_yaml(session.room / "room.yaml")
    [feature] = room_file["features"]
    assert feature["id"] == "fen-guide" and feature["narrows"] is True and feature["systems"] == ["blackmoor"]
    assert feature["tools"] == ["skill_check", "adjust_variable", "keeper_note", "read_skill_reference"]
    assert room_file["phase"] == "play"
    assert read_yaml(session.room / "docs" / "panel_packs.yaml")["enabled"]["data"]["packs"] == ["blackmoor"]


def test_the_prep_script_sets_the_module_up(session: Session) -> None:
    out = session.step("prep.anthropic_messages.json").json()
    [result] = out["applied"]["tool_results"]
    assert result["name"] == "run_prep_plan" and not result["is_error"], result
    assert result["content"]["script"] == "blackmoor/prep/setup.js" and result["content"]["count"] == 5
    assert [r["tool"] for r in result["content"]["results"]] == ["thread_note"] * 3 + ["keeper_note", "set_variable"]
    room = Room.load(session.room, session.kernel())
    assert sorted(d.data["label"] for d in room.documents.all("thread")) == ["周衡的下落", "老秦的儿子", "自鸣的钟"]
    [note] = room.documents.all("note")
    assert note.data["title"] == "真相 · The truth"
    # the script set peat_memory to 4; the play turn's hook took it on to 5
    peat = [e.data for e in room.history.all() if (e.data or {}).get("id") == "peat_memory"]
    assert [(e["before"], e["value"], e.get("by")) for e in peat] == [(0, 4, None), (4, 5, "hook skill:fen-guide")]


# --- the play turn ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def turn(session: Session) -> dict[str, Any]:
    return session.step("turn1.anthropic_messages.json").json()


def request_text(turn: dict[str, Any]) -> str:
    return json.dumps(turn["payload"], ensure_ascii=False)


def test_the_world_cards_lore_fires_on_the_players_words(turn: dict[str, Any]) -> None:
    tavern = [s for s in turn["segments"] if s["plugin"] == "tavern"]
    assert [s["name"] for s in tavern] == ["worldbook-after"], turn["segments"]
    text = request_text(turn)
    # 礼拜堂/钟楼 and 测绘员 were said: the chapel and the keeper-only surveyor entry fire, for the keeper's model
    assert CHAPEL_LORE in text and SECRET_LORE in text
    assert tavern[0]["chars"] == len(CHAPEL_LORE) + 1 + len(SECRET_LORE)
    # nobody named the ferryman or the channels: their entries stay out
    assert "老秦只在白天摆渡" not in text and "芦苇梢朝同一个方向倒伏" not in text


def test_the_skills_text_and_tools_are_offered(session: Session, turn: dict[str, Any]) -> None:
    [segment] = [s for s in turn["segments"] if s["plugin"] == "skills"]
    assert (segment["name"], segment["slot"]) == ("skill:fen-guide", "system")
    text = request_text(turn)
    assert "沼泽向导" in text and "`channels_charted`（已探明水道" in text and "references/channels.md" in text
    # allowed-tools narrows the room to the kernel's tools it asks for; its reference reader joins them
    assert "read_skill_reference" in turn["tools"] and "skill_check" in turn["tools"]
    assert "run_prep_plan" not in turn["tools"]  # a prep-phase tool; the room is in play now
    # the same turn without the skill: no segment, no reference reader
    bare = session.work / "without-skill"
    shutil.copytree(session.room, bare)
    kernel = session.kernel()
    kernel.turn(bare, ".skill disable fen-guide", actor="kp")
    compiled = kernel.turn(bare, "我去沉没的礼拜堂看看钟楼。", actor="p1").compiled
    assert "read_skill_reference" not in compiled.tool_names
    assert not any(s.plugin == "skills" for s in compiled.segments)


def test_a_fen_lore_check_is_graded_by_the_patched_pack(session: Session, turn: dict[str, Any]) -> None:
    check, adjust = turn["applied"]["tool_results"]
    assert not check["is_error"] and not adjust["is_error"], turn["applied"]["tool_results"]
    content = check["content"]
    # "fen lore" is the patch's alias; 15 is the patch's default (p1's sheet does not set it)
    assert (content["skill"], content["target"], content["roll"], content["rank"], content["success"]) == \
        ("沼泽知识", 15, 11, "regular", True)
    assert "沼泽知识" not in read_yaml(session.room / "sheets" / "gu-xingzhou.yaml")["values"]
    engine = engine_for(session.kernel())
    assert engine.rule_system("blackmoor").canonical("fen lore") == "沼泽知识" and engine.rule_system("coc7").canonical("fen lore") is None
    # Alex reads the line in English, through the patch's display name
    p2 = session.cli("turn", str(session.room), "--view", "--as", "p2")
    assert "Fen Lore 15: 1d100=11/15 Success" in p2
    assert adjust["content"]["value"] == 1


def test_the_skills_hook_remembers_and_warns_the_keeper(session: Session, turn: dict[str, Any]) -> None:
    warning = "今夜沉没礼拜堂的钟会响"
    assert warning not in request_text(turn)  # the play turn started at 4
    room = Room.load(session.room, session.kernel())
    [hooked] = [e for e in room.history.all() if (e.data or {}).get("by") == "hook skill:fen-guide"]
    assert hooked.audience == "keeper" and (hooked.data["id"], hooked.data["before"], hooked.data["value"]) == ("peat_memory", 4, 5)
    assert room.variable("peat_memory").value == 5
    # at 5 the hook tells the next turn's prompt (compiling writes nothing)
    before = (session.room / "variables.yaml").read_bytes()
    compiled = session.kernel().turn(session.room, "我们在船上守到天黑。", actor="p2").compiled
    assert warning in json.dumps(compiled.request, ensure_ascii=False)
    assert (session.room / "variables.yaml").read_bytes() == before


# --- panels and secrecy ---------------------------------------------------------------------


def test_each_viewer_sees_their_panels(session: Session) -> None:
    alex = session.step("lw panels render", "--as p2").stdout
    assert re.search(r"^Channels charted\s+\S+ 1/5$", alex, re.M), alex
    assert "── Blackmoor ──" in alex and "What the peat remembers" not in alex
    lin = session.cli("panels", "render", str(session.room), "--as", "p1")
    assert re.search(r"^已探明水道\s+\S+ 1/5$", lin, re.M) and "泥炭的记忆" not in lin, lin
    keeper = session.step("lw panels render", "--as kp").stdout
    assert re.search(r"^已探明水道\s+\S+ 1/5$", keeper, re.M), keeper
    assert re.search(r"^泥炭的记忆\s+\S+ 5/10$", keeper, re.M) and "今夜钟响" in keeper  # the badge from 5 on
    manifest = json.loads(session.cli("panels", "render", str(session.room), "--as", "p2", "--format", "json"))
    assert "blackmoor/peat" not in json.dumps(manifest) and "blackmoor/village" in json.dumps(manifest)


TEXT_KEYS = ("title", "label", "text", "caption", "alt", "prompt", "notes", "content")


def _texts(value: Any, keyed: bool = False) -> Iterator[str]:
    """The strings under text keys (a locale map under one counts), anywhere in ``value``."""
    if isinstance(value, str):
        if keyed:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, keyed or key in TEXT_KEYS)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, keyed)


def keeper_only_strings(session: Session) -> set[str]:
    """Every keeper-only string the pack and the session made, from their sources: the keeper's
    variables, the card's secret entries, the keeper panels, the skill's text and reference,
    its hook's warning, the threads and notes, and what the keeper said to the model."""
    room = Room.load(session.room, session.kernel())
    needles: set[str] = set()
    for var in room.variables.variables:
        if var.visibility == "keeper":
            needles |= {var.id, *var.labels.values()}
    card = read_json(EXAMPLE / "cards" / "blackmoor.lorecard.json")
    needles |= set(_texts([e for e in card["worldbook"] if e.get("secret")]))
    panels = read_yaml(EXAMPLE / "ui" / "panels.yaml")["panels"]
    needles |= set(_texts([p for p in panels if p.get("audience") == "keeper"]))
    skill = EXAMPLE / "skills" / "fen-guide"
    body = (skill / "SKILL.md").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    reference = (skill / "references" / "channels.md").read_text(encoding="utf-8")
    needles |= {line.strip("-# ") for line in body.splitlines() if len(line) > 30}
    needles |= {cell.strip("# \n") for cell in reference.split("|") if len(cell.strip()) > 8 and "---" not in cell}
    needles |= set(re.findall(r"inject\('([^']+)'\)", (skill / "hooks.js").read_text(encoding="utf-8")))
    needles |= set(_texts([dict(d.data) for d in (*room.documents.all("thread"), *room.documents.all("note"))]))
    needles |= {e.text for e in room.history.all() if e.audience == "keeper" and e.role == "player"}
    return {n for n in needles if n.strip()}


def test_no_keeper_only_byte_reaches_any_player_view(session: Session, turn: dict[str, Any], tmp_path: Path) -> None:
    needles = keeper_only_strings(session)
    assert {"peat_memory", "泥炭的记忆", "Peat memory", SECRET_LORE, "今夜钟响", "The bell tolls tonight",
            "铺设黑沼。", "真相 · The truth", "周衡的下落"} <= needles
    assert any("一路量到了礼拜堂" in n for n in needles) and any("钟声里会多出一个名字" in n for n in needles)
    room = str(session.room)
    spare = shutil.copytree(session.room, tmp_path / "spare")  # room commands may record what they said
    outputs: dict[str, str] = {"turn --json player_view (p1)": json.dumps(turn["player_view"], ensure_ascii=False),
                               "lw panels render --as p2 (process)": session.step("lw panels render", "--as p2").stdout}
    for member in PLAYERS:
        outputs[f"turn --view {member}"] = session.cli("turn", room, "--view", "--as", member)
        outputs[f"turn --view --json {member}"] = session.cli("turn", room, "--view", "--json", "--as", member)
        for fmt in ("text", "html", "json"):
            outputs[f"panels render {fmt} {member}"] = session.cli("panels", "render", room, "--as", member, "--format", fmt)
        outputs[f".skill show {member}"] = session.cli("turn", str(spare), "--as", member, "--say", ".skill show fen-guide")
    for name, blob in outputs.items():
        for needle in needles:
            for form in (needle, json.dumps(needle).strip('"')):
                assert form not in blob, f"{name} carries keeper-only {needle!r}"
    # the search is not vacuous: the keeper's own outputs do carry these strings
    keeper_page = session.cli("panels", "render", room, "--as", "kp", "--format", "html")
    keeper_view = session.cli("turn", room, "--view", "--as", "kp")
    assert "The bell tolls tonight" in keeper_page or "今夜钟响" in keeper_page
    assert "泥炭的记忆" in keeper_view and "测绘员的名字已经刻进了钟里" in keeper_page
    # and the players do get their part
    assert all("已探明水道" in outputs[f"panels render text {m}"] or "Channels charted" in outputs[f"panels render text {m}"]
               for m in PLAYERS)


# --- the other reply shape ------------------------------------------------------------------


def test_the_chat_completions_replies_play_the_same_session(session: Session, tmp_path: Path) -> None:
    """The README's room lines replayed through the kernel API, each recorded reply in the
    ``chat_completions`` shape: the same checks, the same narration, the same room."""
    kernel = session.kernel()
    room = shutil.copytree(EXAMPLE / "room", tmp_path / "fen")
    results = {}
    for step in session.steps:
        argv = step.argv
        if argv[0] != LW or argv[1] != "turn":
            continue
        reply_file = option(argv, "--reply")
        reply = None
        if reply_file:
            reply = read_json(session.work / reply_file.replace("anthropic_messages", "chat_completions"))
        seed = option(argv, "--seed")
        result = kernel.turn(room, option(argv, "--say"), actor=option(argv, "--as"), reply=reply,
                             provider="chat_completions", rng=random.Random(int(seed)) if seed else None)
        if reply is not None:
            assert result.compiled.protocol == "chat_completions"
            results[reply_file] = result.applied
    cli_turn = session.step("turn1.anthropic_messages.json").json()["applied"]
    api_turn = results["examples/blackmoor/replies/turn1.anthropic_messages.json"]
    assert [r.content for r in api_turn.results] == [r["content"] for r in cli_turn["tool_results"]]
    assert api_turn.narration == cli_turn["narration"]
    for rel in ("variables.yaml", "sheets/gu-xingzhou.yaml", "docs/thread.yaml", "docs/note.yaml", "docs/panel_packs.yaml",
                "docs/worldbook_entry.yaml"):
        assert (room / rel).read_bytes() == (session.room / rel).read_bytes(), rel
