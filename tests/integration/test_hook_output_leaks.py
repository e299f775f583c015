"""A room script's player-bound output never carries a keeper-only value (issue 24, item 10).

A skill's ``hooks.js`` (enabled by the keeper) asks, on ``reply_ready``, for every kind of
output that reaches every seat -- ``narrate``, ``rewriteReply``, ``emitUI``, ``emitPanel`` to a
player panel -- once with the keeper-only ``true_culprit``'s current text in it and once without.
Real turns in real ``lw`` processes: the clean emissions arrive, the leaking ones are withheld
and logged for the keeper (naming the variable, never its value), and no player-facing output
(``lw turn --json``'s player view, ``lw turn --view``, ``lw panels render``) holds the value.
The same check is the panels plugin's (``.panels enable``): :mod:`lwcore.turn.leaks`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins" / "panels" / "tests"))

from panels_testkit import SECRET_VALUE, copy_pack, copy_room, install, say  # noqa: E402

LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
REPLY = ROOT / "examples" / "fog-harbor" / "replies" / "turn1.anthropic_messages.json"
SECRET_ID = "true_culprit"

HOOKS = """
on('reply_ready', (e) => {
  narrate('守夜人低声说：' + getvar('true_culprit'));
  narrate('CLEAN-NARRATE 潮水又涨了。');
  emitUI([{kind: 'text', text: {zh: '嫌疑人：' + getvar('true_culprit'), en: 'Suspect'}}], {panel: 'sidebar'});
  emitUI([{kind: 'badge', label: 'CLEAN-UI', tone: 'warn'}]);
  rewriteReply(e.reply + '\\n（' + getvar('true_culprit') + '）');
  emitPanel('harbor-ui/hud', {note: 'the culprit is ' + getvar('true_culprit')});
  emitPanel('harbor-ui/board', {secret: getvar('true_culprit')});
});
"""
"""Four leaking emissions (one per kind), two clean ones, and a keeper panel's payload (the
keeper's own board may show anything)."""


def lw(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    proc = subprocess.run([*LW, "--data-dir", str(data), *args], capture_output=True, text=True, env=env, timeout=120,
                          encoding="utf-8", stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def table(tmp_path: Path, hooks: str) -> tuple[Path, Path]:
    """The example room with the example panel pack installed and enabled, and a skill
    ``leaky`` whose ``hooks.js`` is ``hooks``, enabled by the keeper."""
    from lwcore.kernel import Kernel

    data, room = tmp_path / "data", copy_room(tmp_path / "room")
    install(data, copy_pack(tmp_path / "harbor-ui"), "harbor-ui")
    skill = data / "skills" / "leaky"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: leaky\ndescription: a hook that tells too much\n---\n\nBody.\n",
                                    encoding="utf-8")
    (skill / "hooks.js").write_text(hooks, encoding="utf-8")
    kernel = Kernel(data_dir=data, env={})
    say(kernel, room, ".panels enable harbor-ui", "kp")
    say(kernel, room, ".skill enable leaky", "kp")
    return data, room


def history(room: Path) -> list[dict]:
    return [json.loads(line) for line in (room / "history.jsonl").read_text(encoding="utf-8").splitlines() if line]


def test_leaking_hook_output_is_withheld_from_every_seat_and_logged_for_the_keeper(tmp_path: Path) -> None:
    data, room = table(tmp_path, HOOKS)
    turn = lw("turn", str(room), "--say", "我去码头查看那艘空船。", "--reply", str(REPLY), "--seed", "5", "--json",
              data=data)
    assert turn.returncode == 0, turn.stderr
    out = json.loads(turn.stdout)
    applied = out["applied"]
    assert applied["narration"].endswith("CLEAN-NARRATE 潮水又涨了。") and SECRET_VALUE not in applied["narration"]
    assert [b["label"] for e in applied["ui"] for b in e["blocks"]] == ["CLEAN-UI"]
    assert SECRET_VALUE not in json.dumps(out["player_view"], ensure_ascii=False)

    withheld = [e for e in history(room) if e.get("data", {}).get("kind") == "hook_withheld"]
    assert [e["text"].split(": ")[1].split(" ")[0] for e in withheld] == ["narrate", "emitUI", "rewriteReply"]
    refused = [e for e in history(room) if "emitPanel('harbor-ui/hud') refused" in e["text"]]
    assert len(refused) == 1
    for entry in [*withheld, *refused]:
        assert entry["audience"] == "keeper" and repr(SECRET_ID) in entry["text"] and SECRET_VALUE not in entry["text"]
    payloads = (room / "docs" / "panel_payload.yaml").read_text(encoding="utf-8")
    assert "harbor-ui/board" in payloads and "harbor-ui/hud" not in payloads  # the keeper's board got its payload

    for member in ("p1", "p2"):
        for args in (("turn", str(room), "--as", member, "--view"), ("panels", "render", str(room), "--as", member,
                                                                     "--format", "html")):
            seen = lw(*args, data=data)
            assert seen.returncode == 0 and SECRET_VALUE not in seen.stdout and "withheld" not in seen.stdout, args
    keeper = lw("turn", str(room), "--as", "kp", "--view", data=data)
    assert keeper.stdout.count(f"withheld: it holds the current value of keeper-only {SECRET_ID!r}") == 3


def test_only_the_current_value_and_only_texts_count(tmp_path: Path) -> None:
    """The check runs against the value as it is when the emission is made (a hook that
    changes the secret first cannot then print the old one as news, and the old one is no
    secret any more); numbers are never compared (a keeper-only counter at 3 does not withhold
    every "3"); a value players can see anyway is no secret."""
    data, room = table(tmp_path, """
on('reply_ready', () => {
  narrate('OLD ' + getvar('true_culprit'));
  setvar('true_culprit', '渔夫阿海');
  narrate('OLD-AGAIN 灯塔看守人周伯年');
  narrate('NEW ' + getvar('true_culprit'));
  narrate('NIGHTS ' + getvar('ritual_nights_left'));
  narrate('FOG ' + getvar('fog'));
});
""")
    turn = lw("turn", str(room), "--say", "我去码头。", "--reply", str(REPLY), "--seed", "5", "--json", data=data)
    narration = json.loads(turn.stdout)["applied"]["narration"]
    assert "OLD-AGAIN 灯塔看守人周伯年" in narration and "NIGHTS 3" in narration and "\n\nFOG " in narration
    assert "OLD 灯塔看守人周伯年" not in narration and "NEW " not in narration and "渔夫阿海" not in narration


@pytest.mark.parametrize(("text", "held"), [
    ("灯塔看守人周伯年", True), ("是灯塔看守人周伯年干的", True), ("灯塔  看守人周伯年", False),
    ("灯塔看守人", False), ("Suspect: ANNA", True), ("Annals of the harbour", False), ("anna's lamp", True),
    ("Anna来了", True), ("Hannah", False), ({"deep": [{"x": "anna"}]}, True), (3, False), (None, False),
])
def test_the_one_leak_check_table(tmp_path: Path, text: object, held: bool) -> None:
    """:meth:`lwcore.turn.leaks.KeeperOnly.said_in` on texts: whole words in spaced scripts,
    anywhere in CJK, every string of a JSON value, case folded, whitespace collapsed."""
    from lwcore.kernel import Kernel
    from lwcore.turn.leaks import keeper_only
    from lwcore.turn.room import Room

    room = copy_room(tmp_path / "room")
    variables = room / "variables.yaml"
    variables.write_text(variables.read_text(encoding="utf-8").replace(
        "  - id: ritual_nights_left",
        "  - id: accomplice\n    kind: text\n    visibility: keeper\n    value: Anna\n"
        "  - id: fog_behind\n    kind: text\n    visibility: keeper\n    value: 浓雾\n  - id: ritual_nights_left"),
        encoding="utf-8")
    secrets = keeper_only(Room.load(room, Kernel(data_dir=tmp_path / "data", env={})))
    said = secrets.said_in(text)
    assert bool(said) is held and set(said) <= {"true_culprit", "accomplice"}
    assert secrets.said_in("  灯塔看守人周伯年 and ANNA ") == ["accomplice", "true_culprit"]
    assert secrets.said_in("浓雾") == [] and "fog_behind" in secrets.ids  # the player-visible fog reads 浓雾 too
