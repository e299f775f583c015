"""Iron rule 3: keeper-only variables never reach a player-facing byte (searched, not assumed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from lwcore.cli import lw
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.view import player_view, render_text

SECRET_TEXT = "灯塔看守人周伯年"
SECRET_NUMBER = 48213


def _secret_needles(room: Room) -> list[str]:
    needles = []
    for var in room.variables.variables:
        if var.visibility == "keeper":
            needles += [var.id, *var.labels.values()]
            if isinstance(var.value, str):
                needles.append(var.value)
    return needles


def _keeper_turn(kernel, room_dir: Path) -> None:
    """The keeper declares a secret number and moves secret trackers."""
    reply = {"content": [
        {"type": "tool_use", "id": "a", "name": "define_variable",
         "input": {"id": "hidden_tally", "kind": "number", "maximum": 99999, "initial": SECRET_NUMBER,
                   "labels": {"en": "Hidden tally", "zh": "暗账"}}},
        {"type": "tool_use", "id": "b", "name": "adjust_variable", "input": {"id": "cult_alert", "delta": 4}},
        {"type": "tool_use", "id": "c", "name": "set_variable", "input": {"id": "true_culprit", "value": SECRET_TEXT}},
        {"type": "tool_use", "id": "d", "name": "adjust_variable", "input": {"id": "clues_found", "delta": 1}},
        {"type": "text", "text": "夜色沉沉。"},
    ]}
    result = run_turn(kernel, room_dir, "（守秘人准备）", actor="kp", reply=reply, rng=random.Random(1))
    assert not any(r.is_error for r in result.applied.results), result.applied.results


def test_no_keeper_value_in_any_player_view_byte(kernel, room_dir: Path, recorded) -> None:
    _keeper_turn(kernel, room_dir)
    run_turn(kernel, room_dir, "我去码头查看那艘空船。", provider="chat_completions", reply=recorded("chat_completions"), rng=random.Random(2))
    room = Room.load(room_dir, kernel)
    assert room.variable("hidden_tally").value == SECRET_NUMBER
    needles = [*_secret_needles(room), str(SECRET_NUMBER)]
    assert SECRET_TEXT in needles and "hidden_tally" in needles
    for viewer in ("p1", "p2"):
        view = player_view(room, viewer, history_limit=0)
        outputs = [
            view.to_json_text().encode("utf-8"),
            json.dumps(view.model_dump(mode="json")).encode("utf-8"),  # ascii-escaped too
            render_text(view).encode("utf-8"),
        ]
        for blob in outputs:
            for needle in needles:
                assert needle.encode("utf-8") not in blob, (viewer, needle)
                assert json.dumps(needle).strip('"').encode() not in blob, (viewer, needle)
    # the player-visible change did arrive
    assert any(v.id == "clues_found" and v.value == 3 for v in player_view(room, "p1").variables)


def test_cli_player_view_has_no_keeper_bytes(kernel, room_dir: Path) -> None:
    _keeper_turn(kernel, room_dir)
    room = Room.load(room_dir, kernel)
    needles = [*_secret_needles(room), str(SECRET_NUMBER)]
    runner = CliRunner()
    for args in (["turn", str(room_dir), "--view"], ["turn", str(room_dir), "--view", "--json", "--as", "p2"],
                 ["turn", str(room_dir), "--view", "--as", "Alex"]):
        out = runner.invoke(lw, args, catch_exceptions=False)
        assert out.exit_code == 0, out.output
        for needle in needles:
            assert needle not in out.output, (args, needle)


def test_the_keeper_view_shows_everything_marked(kernel, room_dir: Path) -> None:
    _keeper_turn(kernel, room_dir)
    out = CliRunner().invoke(lw, ["turn", str(room_dir), "--view", "--as", "kp"], catch_exceptions=False)
    assert out.exit_code == 0 and "[守秘人视图]" in out.output
    assert SECRET_TEXT in out.output and "(守秘人专属)" in out.output
    unknown = CliRunner().invoke(lw, ["turn", str(room_dir), "--view", "--as", "nobody"])
    assert unknown.exit_code == 1 and "no member 'nobody'" in str(unknown.exception)


def test_keeper_prompt_does_see_the_secrets(kernel, room_dir: Path) -> None:
    text = json.dumps(compile_turn(kernel, room_dir, "？").request, ensure_ascii=False)
    assert SECRET_TEXT in text and "cult_alert" in text


def test_errors_shown_to_a_player_never_quote_keeper_only_data(room_dir: Path) -> None:
    """A broken keeper-only value in variables.yaml: the keeper sees the located error with
    the value; a player's view says only that the keeper must look (issue 11, item 9)."""
    path = room_dir / "variables.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("maximum: 10\n    value: 2", "maximum: 10\n    value: 机密数字九九"),
                    encoding="utf-8")
    runner = CliRunner()
    player = runner.invoke(lw, ["turn", str(room_dir), "--view", "--as", "p2"])
    assert player.exit_code == 1 and "机密数字九九" not in str(player.exception) and "cult_alert" not in str(player.exception)
    assert "only the keeper" in str(player.exception) and "variables.yaml" in str(player.exception)
    keeper = runner.invoke(lw, ["turn", str(room_dir), "--view", "--as", "kp"])
    assert keeper.exit_code == 1 and "variables.yaml:22:5" in str(keeper.exception)
    assert "cult_alert is a number, got '机密数字九九'" in str(keeper.exception)


HIDDEN_LEAF = "灯塔看守人就是真凶"
"""A hidden MVU leaf's name and a keeper-only history line's data: keeper-only text that a
broken room file puts into an error message."""

BROKEN_AFTER_LOAD = {
    # a keeper-only history line of the wrong shape: pydantic quotes the value it refuses
    "history.jsonl": lambda text: text + json.dumps(
        {"turn": 99, "role": "event", "text": "x", "audience": "keeper", "data": f"守秘人：{HIDDEN_LEAF}"},
        ensure_ascii=False) + "\n",
    # the MVU tree with a hidden leaf written twice: the duplicate key is quoted
    "docs/mvu.yaml": lambda text: ("mvu:\n  schema_version: 1\n  data:\n    exposed: [公开]\n    tree:\n"
                                   f"      公开: {{天气: 雨}}\n      内部:\n        {HIDDEN_LEAF}: 1\n"
                                   f"        {HIDDEN_LEAF}: 2\n"),
}


def test_errors_from_files_read_after_the_room_never_quote_keeper_data_to_a_player(room_dir: Path) -> None:
    """History lines and documents are read after ``room.yaml`` (lazily, while a view is
    built): a broken one's error is as keeper-only as the data it quotes. A player's view
    names the file and sends them to the keeper; the keeper's names the problem."""
    runner = CliRunner()
    for rel, breaks in BROKEN_AFTER_LOAD.items():
        path = room_dir / rel
        before = path.read_text(encoding="utf-8") if path.exists() else None
        path.parent.mkdir(exist_ok=True)
        path.write_text(breaks(before or ""), encoding="utf-8")
        for args in (["--view", "--as", "p2"], ["--view", "--json", "--as", "p1"], ["--view"]):
            player = runner.invoke(lw, ["turn", str(room_dir), *args])
            shown = player.output + str(player.exception)
            assert player.exit_code == 1, (rel, args, player.output)
            assert HIDDEN_LEAF not in shown and "only the keeper" in shown and rel.split("/")[-1] in shown, (rel, args)
        keeper = runner.invoke(lw, ["turn", str(room_dir), "--view", "--as", "kp"])
        assert keeper.exit_code == 1 and HIDDEN_LEAF in str(keeper.exception), rel
        if before is None:
            path.unlink()
        else:
            path.write_text(before, encoding="utf-8")


def test_a_players_room_command_in_a_broken_room_never_quotes_keeper_data(room_dir: Path) -> None:
    """A room command's reply is for the member who typed it: when the room cannot be read,
    a player is told only that the keeper must look, the keeper gets the whole error."""
    path = room_dir / "variables.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("maximum: 10\n    value: 2", "maximum: 10\n    value: 机密数字九九"),
                    encoding="utf-8")
    runner = CliRunner()
    for line in (".help", ".recap", ".r 1d6", ".var list"):
        for extra in ([], ["--json"]):
            player = runner.invoke(lw, ["turn", str(room_dir), "--as", "p1", "--say", line, *extra])
            shown = player.output + str(player.exception)
            assert player.exit_code == 1 and "机密数字九九" not in shown and "only the keeper" in shown, (line, extra)
    keeper = runner.invoke(lw, ["turn", str(room_dir), "--as", "kp", "--say", ".var list"])
    assert keeper.exit_code == 1 and "机密数字九九" in str(keeper.exception)
