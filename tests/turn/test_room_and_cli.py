"""The room on disk (unknown fields kept, located errors), roll macros, and ``lw turn``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lwcore.cli import lw
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn.macros import expand_rolls
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room

LW = str(Path(sys.executable).with_name("lw"))
REPLIES = Path(__file__).resolve().parents[2] / "examples" / "fog-harbor" / "replies"


def test_unknown_fields_survive_a_write(kernel, room_dir: Path) -> None:
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + "house_rules: {pushing: 禁止}\n", encoding="utf-8")
    variables = room_dir / "variables.yaml"
    variables.write_text(
        variables.read_text(encoding="utf-8").replace("  - id: clues_found\n", "  - id: clues_found\n    note: 作者备注\n")
        + "schema_note: kept\n",
        encoding="utf-8",
    )
    sheet = room_dir / "sheets" / "chen-mo.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "portrait: chen.png\n", encoding="utf-8")
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "adjust_variable", "input": {"id": "clues_found", "delta": 1}},
        {"type": "tool_use", "id": "b", "name": "subsystem_check", "input": {"character": "陈默", "subsystem": "sanity", "loss": "1/1"}},
    ]}
    result = run_turn(kernel, room_dir, "…", reply=reply, rng=random.Random(1))
    assert not any(r.is_error for r in result.applied.results)
    room = Room.load(room_dir, kernel)
    assert room.file.model_extra["house_rules"] == {"pushing": "禁止"}
    assert room.variables.model_extra["schema_note"] == "kept"
    assert room.variable("clues_found").model_extra["note"] == "作者备注"
    assert room.sheets["p1"].extra["portrait"] == "chen.png" and room.sheets["p1"].get("理智") == 59
    assert "minimum: 0\n" in variables.read_text(encoding="utf-8")  # integers stay integers


def test_bad_room_files_give_located_errors(room_dir: Path, kernel: Kernel) -> None:
    (room_dir / "room.yaml").write_text("id: x\nsystem: [unclosed\n", encoding="utf-8")
    with pytest.raises(LwError) as info:
        Room.load(room_dir, kernel)
    assert info.value.file.endswith("room.yaml") and info.value.line is not None
    (room_dir / "room.yaml").write_text("id: x\nsystem: coc7\n", encoding="utf-8")
    with pytest.raises(LwError, match="keeper"):
        Room.load(room_dir, kernel)
    with pytest.raises(LwError, match="not a room folder"):
        Room.load(room_dir / "sheets", kernel)


def test_roll_macros_use_the_engine() -> None:
    text, rolls = expand_rolls("钟响了 {{roll:1d3}} 下，{{ roll: 2d6+1 }} 步，{{roll:1d0}}。", random.Random(2))
    assert "{{" not in text and len(rolls) == 3
    assert 1 <= rolls[0]["total"] <= 3 and 3 <= rolls[1]["total"] <= 13 and "error" in rolls[2]
    assert text.startswith(f"钟响了 {rolls[0]['total']} 下，{rolls[1]['total']} 步，[roll error:")
    assert expand_rolls("no macros", random.Random()) == ("no macros", [])


def _invoke(*args: str, data_dir: Path):
    return CliRunner().invoke(lw, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


def test_lw_turn_on_the_bundled_example(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = _invoke("turn", "--say", "我去码头。", "--json", data_dir=data)
    assert out.exit_code == 0, out.output
    payload = json.loads(out.output)
    assert payload["room"] == "fog-harbor" and payload["protocol"] == "anthropic_messages"
    assert "skill_check" in payload["tools"] and payload["cache"]["estimatedCacheableBytes"] > 0
    assert (data / "rooms" / "fog-harbor" / "room.yaml").is_file()  # a working copy, not the source
    reply = REPLIES / "turn1.chat_completions.json"
    out = _invoke("turn", "--say", "我去码头。", "--provider", "chat_completions", "--reply", str(reply),
                  "--seed", "7", data_dir=data)
    assert out.exit_code == 0, out.output
    assert "5 tool call(s) in 1 step(s)" in out.output and "侦查 65: 1d100=" in out.output
    assert "已获线索: 2 / 6" in out.output and "{{roll:1d3}}" not in out.output
    assert "✓ no keeper-only value in any player's view" in out.output
    out = _invoke("turn", "--view", "--as", "Alex", data_dir=data)
    assert "已获线索: 2 / 6" not in out.output and "Clues found: 2 / 6" in out.output
    out = _invoke("turn", "--view", "--fresh", data_dir=data)
    assert "1 / 6" in out.output


def test_lw_turn_errors_are_one_line(tmp_path: Path, room_dir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(tmp_path / "home")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    for args, needle in (
        (["turn", str(room_dir), "--say", "x", "--reply", str(bad)], "bad.json:1:2: invalid JSON"),
        (["turn", str(room_dir), "--say", "x", "--as", "ghost"], "no member 'ghost'"),
        (["turn", str(room_dir), "--say", "x", "--provider", "smoke_signals"], "no provider adapter"),
        (["turn", str(tmp_path), "--say", "x"], "not a room folder"),
    ):
        result = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120, encoding="utf-8")
        assert result.returncode == 1, (args, result.stderr)
        assert needle in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_lw_schema_room(tmp_path: Path) -> None:
    out = _invoke("schema", "room", data_dir=tmp_path)
    schema = json.loads(out.output)
    assert {"system", "keeper", "players", "features", "config"} <= set(schema["properties"])


def test_lw_turn_without_say_shows_the_room(tmp_path: Path, room_dir: Path) -> None:
    out = _invoke("turn", str(room_dir), data_dir=tmp_path)
    assert out.exit_code == 0 and "雾港疑案" in out.output and "已获线索: 1 / 6" in out.output
    assert "灯塔看守人周伯年" not in out.output  # the first player's view, never the keeper's secrets


@pytest.mark.parametrize("protocol", ["chat_completions", "openai_responses", "anthropic_messages"])
def test_a_recorded_reply_names_its_own_protocol(tmp_path: Path, room_dir: Path, protocol: str) -> None:
    reply = REPLIES / f"turn1.{protocol}.json"
    out = _invoke("turn", str(room_dir), "--say", "我去码头。", "--reply", str(reply), "--seed", "7", "--json", data_dir=tmp_path)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["protocol"] == protocol


def test_an_unrecognized_reply_asks_for_the_provider(tmp_path: Path, room_dir: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text('{"completion": "text only"}', encoding="utf-8")
    out = CliRunner().invoke(lw, ["--data-dir", str(tmp_path), "turn", str(room_dir), "--say", "x", "--reply", str(odd)])
    assert out.exit_code == 1 and "--provider" in str(out.exception)


def test_the_turn_report_tells_the_turn_in_order_in_plain_text_when_piped(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update(LW_HOME=str(tmp_path / "home"), COLUMNS="120")
    reply = REPLIES / "turn1.anthropic_messages.json"
    result = subprocess.run([LW, "turn", "--fresh", "--say", "我去码头查看那艘空船。", "--reply", str(reply), "--seed", "5"],
                            capture_output=True, text=True, env=env, timeout=120, encoding="utf-8")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "\x1b[" not in out  # no colour codes when piped
    order = ["雾港疑案 · fog-harbor", "table sees", "says: 我去码头查看那艘空船。", "the request", "protocol",
             "tools", "what happened", "侦查 65", "理智", "cult_alert: 2 → 3  (keeper only)", "钟声响了",
             "what p1 sees", "what p2 sees", "✓ no keeper-only value"]
    positions = [out.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert "table sees  已获线索 1/6" in out  # the room as it was before the turn
    assert len(out.splitlines()) <= 100  # two screens
    assert "灯塔看守人周伯年" not in out.split("what happened")[1]  # no secret in the views


def test_a_sheet_keeps_what_its_author_wrote(kernel: Kernel, room_dir: Path) -> None:
    """Values the author wrote stay in place even when they equal what the pack derives
    (HP, MP); a value that changed is rewritten where it stood; nothing else moves."""
    path = room_dir / "sheets" / "chen-mo.yaml"
    before = path.read_text(encoding="utf-8").splitlines()
    reply = {"content": [{"type": "tool_use", "id": "s", "name": "subsystem_check",
                          "input": {"character": "p1", "subsystem": "sanity", "loss": "3/3"}}]}
    run_turn(kernel, room_dir, "…", reply=reply, rng=random.Random(1))
    after = path.read_text(encoding="utf-8").splitlines()
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert changed == [("  理智: 60", "  理智: 57")]
    assert after[: len(before)][-1] == before[-1] and "  HP: 11" in after and "  外貌: 50" in after


def test_history_appends_after_a_line_missing_its_newline(kernel: Kernel, room_dir: Path, recorded) -> None:
    """A hand-edited ``history.jsonl`` whose last line lacks its newline: the turn's append
    starts with one, so no line joins another."""
    (room_dir / "history.jsonl").write_text(
        json.dumps({"turn": 1, "role": "keeper", "actor": "kp", "text": "雾。"}, ensure_ascii=False), encoding="utf-8")
    run_turn(kernel, room_dir, "我去码头查看那艘空船。", reply=recorded("anthropic_messages"), rng=random.Random(5))
    entries = Room.load(room_dir, kernel).history.all()
    assert entries[0].text == "雾。" and entries[-1].turn == 2 and len(entries) > 2
