"""``dice_rolled`` fires once for every roll the engine makes in a room (C.1, issue 27 item 5):
a check or subsystem the keeper's model calls, and now also a dot command a member types
(``.ra``, ``.ra 3#``, ``.sc``, ``.r``, ``.st hp-1d3``) and a panel button that sends one.

A data-plugin skill whose ``hooks.js`` logs every ``dice_rolled`` it sees counts them (its
keeper-only lines land in the room's history); ``examples/blackmoor``'s promise -- the peat
remembers "after every Fen Lore check" -- is held through a typed ``.ra`` and through the real
``lw serve`` with its Fen Lore button pressed over HTTP on loopback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
COUNTER = """---
name: roll-counter
description: Logs every dice_rolled event for the keeper (a test skill).
metadata:
  scope: room
---

Counts rolls.
"""
HOOKS = """on('dice_rolled', (r) => {
  log('rolled ' + r.kind + ' ' + (r.skill || r.expr || r.command || '') + ' ' + (r.success === undefined ? '' : r.success));
});
"""


def lw(work: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(work / "data"), *args], capture_output=True, text=True, timeout=120,
                         cwd=work)
    assert "Traceback" not in run.stderr, run.stderr
    assert (run.returncode == 0) == ok, run.stderr
    return run


def say(work: Path, member: str, line: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return lw(work, "turn", "room", "--as", member, "--say", line, "--seed", "11", *extra)


def rolled_since(work: Path, mark: int) -> list[str]:
    """The counter's lines in the history after line ``mark``."""
    lines = (work / "room" / "history.jsonl").read_text(encoding="utf-8").splitlines()[mark:]
    out = []
    for line in lines:
        entry = json.loads(line)
        data = entry.get("data") or {}
        if data.get("kind") == "hook_log" and "rolled " in entry["text"]:
            assert entry.get("audience") == "keeper"
            out.append(entry["text"].split("rolled ", 1)[1].strip())
    return out


def successes(work: Path, at: int) -> list[str]:
    """``true``/``false`` of each check the dot command after line ``at`` reported, in order."""
    out = []
    for line in (work / "room" / "history.jsonl").read_text(encoding="utf-8").splitlines()[at:]:
        result = (json.loads(line).get("data") or {}).get("result") or {}
        if result.get("action") == "check":
            data = result["data"]
            out += [str(one["check"]["success"]).lower() for one in data.get("results", [data])]
        elif result.get("data", {}).get("subsystem"):
            out.append(str(result["data"]["success"]).lower())
    return out


def mark(work: Path) -> int:
    return len((work / "room" / "history.jsonl").read_text(encoding="utf-8").splitlines())


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    skill = tmp_path / "data" / "skills" / "roll-counter"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(COUNTER, encoding="utf-8")
    (skill / "hooks.js").write_text(HOOKS, encoding="utf-8")
    say(tmp_path, "kp", ".skill enable roll-counter")
    return tmp_path


def test_every_dot_command_roll_fires_once(work: Path) -> None:
    cases = [
        ("p1", ".ra 侦查", ["check 侦查 {}"]),
        ("p2", ".ra 3#聆听", ["check 聆听 {}", "check 聆听 {}", "check 聆听 {}"]),
        ("p1", ".r 2d6", ["roll 2d6"]),
        ("p1", ".sc 1/1d6", ["sanity sc {}"]),  # a subsystem's event is of its kind, as a tool's is
        ("kp", ".st hp-1d3 @p1", ["roll 1d3"]),
        ("p1", ".st 力量50", []),  # nothing rolled: nothing fired
        ("p1", ".st show", []),
        ("kp", ".var list", []),
    ]
    for member, line, want in cases:
        at = mark(work)
        say(work, member, line)
        graded = iter(successes(work, at))  # each check's outcome as the command reported it
        assert rolled_since(work, at) == [w.format(next(graded)) if "{}" in w else w for w in want], line


def test_a_model_turns_checks_fire_once_each(work: Path) -> None:
    """The keeper's model's skill check and subsystem check: one event each (a subsystem's
    event carries its own kind, ``sanity``; it used to fire nothing)."""
    reply = {"id": "msg_1", "type": "message", "role": "assistant", "model": "recorded", "stop_reason": "tool_use",
             "content": [{"type": "tool_use", "id": "toolu_1", "name": "skill_check",
                          "input": {"character": "p1", "skill": "侦查"}},
                         {"type": "tool_use", "id": "toolu_2", "name": "subsystem_check",
                          "input": {"character": "p1", "subsystem": "sanity", "args": {"loss": "1/1d6"}}}]}
    (work / "check.json").write_text(json.dumps(reply), encoding="utf-8")
    at = mark(work)
    say(work, "kp", "陈默看见了水下的灯。", "--reply", "check.json")
    fired = rolled_since(work, at)
    assert len(fired) == 2 and fired[0].startswith("check 侦查 ") and fired[1].startswith("sanity  "), fired


@pytest.fixture
def blackmoor(tmp_path: Path) -> Path:
    """The example room with the ``blackmoor`` pack installed in it by the keeper."""
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "data").mkdir()
    lw(tmp_path, "pack", "build", str(ROOT / "examples" / "blackmoor"), "-o", "out")
    say(tmp_path, "kp", ".pack install out/blackmoor-1.0.0.lwpack")
    return tmp_path


def peat(work: Path) -> int:
    variables = yaml.safe_load((work / "room" / "variables.yaml").read_text(encoding="utf-8"))["variables"]
    return next(v for v in variables if v["id"] == "peat_memory")["value"]


def test_blackmoor_a_typed_fen_lore_check_feeds_the_peat(blackmoor: Path) -> None:
    assert peat(blackmoor) == 0
    done = say(blackmoor, "p1", ".ra 沼泽知识").stdout  # seed 11: 1d100 over 15, a failure
    assert "沼泽知识 15" in done and "失败" in done
    assert peat(blackmoor) == 2  # by 2 on a failure, once
    say(blackmoor, "p1", ".ra 侦查")  # not Fen Lore: the hook lets it pass
    assert peat(blackmoor) == 2
    players = lw(blackmoor, "turn", "room", "--as", "p1", "--view").stdout
    assert "peat_memory" not in players  # the keeper's gauge stays the keeper's


def _post(url: str, data: dict) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_blackmoor_the_fen_lore_button_over_lw_serve(blackmoor: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(blackmoor / "home"), "PYTHONUNBUFFERED": "1"})
    process = subprocess.Popen([LW, "--data-dir", str(blackmoor / "data"), "serve", str(blackmoor / "room"),
                                "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               cwd=blackmoor)
    try:
        seen = ""
        links: dict[str, str] = {}
        deadline = time.monotonic() + 60
        while "p1" not in links:
            assert time.monotonic() < deadline, seen
            seen += process.stdout.readline()  # type: ignore[union-attr]
            links = dict(re.findall(r"\((keeper|p1|p2)\): (http://127\.0\.0\.1:\d+/t/\S+/)", seen))
        while True:
            try:
                urllib.request.urlopen(links["p1"] + "state", timeout=10).read()  # the link itself sets a cookie
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        status, body = _post(links["p1"] + "intent",
                             {"panel": "blackmoor/village", "kind": "choice", "value": ".ra 沼泽知识"})
        assert status == 200, body
        status, body = _post(links["p1"] + "intent", {"panel": "blackmoor/peat", "kind": "choice",
                                                      "value": ".ra 沼泽知识"})
        assert status == 403, body  # the keeper's panel is not a player's button
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert "Traceback" not in err, err
    history = [json.loads(line) for line in (blackmoor / "room" / "history.jsonl").read_text(encoding="utf-8")
               .splitlines()]
    checks = [e for e in history if (e.get("data") or {}).get("line") == ".ra 沼泽知识"]
    assert len(checks) == 1
    success = checks[0]["data"]["result"]["data"]["check"]["success"]
    assert peat(blackmoor) == (1 if success else 2)
