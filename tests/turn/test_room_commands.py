"""Room commands: one mechanism for every command typed in a room (``.help``, ``.phase``,
plugin commands, the rule system's dot commands), with who-may-run-it enforced by the kernel.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from lwcore.cli import lw
from lwcore.contributions import CommandReply, RoomCommand
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.room_commands import parse


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and ".lw" not in p.parts}


def command_plugin(calls: list[str], *commands: RoomCommand) -> InProcessPlugin:
    @hookimpl
    def lw_room_commands(register):  # noqa: ANN001, ANN202
        for command in commands:
            register(command)

    manifest = {"id": "house", "version": "1", "tier": "code", "provides": ["room_commands"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_room_commands=lw_room_commands))


@pytest.fixture
def house_kernel(tmp_path: Path) -> tuple[Kernel, list[str]]:
    calls: list[str] = []

    def secret(ctx):  # noqa: ANN001, ANN202
        calls.append(f"secret by {ctx.actor.id}")
        return CommandReply("the keeper's eyes only", audience="keeper")

    def claim(ctx):  # noqa: ANN001, ANN202
        calls.append(f"claim {ctx.args} by {ctx.actor.id}")
        return f"{ctx.actor.id} claims {ctx.args}"

    def broken(ctx):  # noqa: ANN001, ANN202
        calls.append("broken")
        ctx.room.file.phase = "ruined"
        ctx.room.mark("room")
        raise RuntimeError("plugin bug")

    plugin = command_plugin(
        calls,
        RoomCommand("secret", secret, who="keeper"),
        RoomCommand("claim", claim, who="player", usage="N"),
        RoomCommand("broken", broken, who="anyone"),
    )
    return Kernel(data_dir=tmp_path / "data", env={}, plugins=[plugin]), calls


@pytest.mark.parametrize("line,expected", [
    (".var list", ("var", "list")), ("。phase prep", ("phase", "prep")), (". help", ("help", "")),
    (".ra侦查", ("ra", "侦查")), (".3d6", ("", "3d6")), ("hello", None), ("", None), ("  .PC claim 2", ("pc", "claim 2")),
])
def test_parse(line: str, expected: tuple[str, str] | None) -> None:
    assert parse(line) == expected


def test_who_may_run_is_enforced_by_the_kernel(house_kernel, room_dir: Path) -> None:
    kernel, calls = house_kernel
    before = snapshot(room_dir)
    for actor, line in (("p1", ".secret"), ("kp", ".claim 2")):
        with pytest.raises(LwError) as info:
            run_turn(kernel, room_dir, line, actor=actor)
        assert info.value.code == "forbidden"
    assert calls == [] and snapshot(room_dir) == before  # the handler never ran, nothing written
    result = run_turn(kernel, room_dir, ".claim 2", actor="p2")
    assert result.command.reply.text == "p2 claims 2" and result.compiled is None
    assert calls == ["claim 2 by p2"]
    assert snapshot(room_dir) == before  # an actor-only reply is not recorded


def test_replies_meant_for_the_table_are_recorded(house_kernel, room_dir: Path) -> None:
    kernel, _ = house_kernel
    run_turn(kernel, room_dir, ".secret", actor="kp")
    history = Room.load(room_dir, kernel).history.all()
    assert history[-1].text == "the keeper's eyes only" and history[-1].audience == "keeper"
    assert history[-1].data["command"] == "secret"


def test_a_failing_command_is_contained_and_writes_nothing(house_kernel, room_dir: Path) -> None:
    kernel, _ = house_kernel
    before = snapshot(room_dir)
    with pytest.raises(LwError, match="see lw plugins info house"):
        run_turn(kernel, room_dir, ".broken", actor="p1")
    assert snapshot(room_dir) == before
    assert any("plugin bug" in e for e in kernel.plugin("house").errors)


def test_help_lists_what_the_member_may_run(house_kernel, room_dir: Path) -> None:
    kernel, _ = house_kernel
    player = run_turn(kernel, room_dir, ".help", actor="p2").command.reply.text
    keeper = run_turn(kernel, room_dir, ".help", actor="kp").command.reply.text
    assert ".claim N" in player and ".secret" not in player and ".phase" not in player
    assert ".secret" in keeper and ".phase" in keeper and ".claim" not in keeper
    assert ".ra" in player  # the rule system's dot commands are listed too


def test_unknown_command_names_the_known_ones(house_kernel, room_dir: Path) -> None:
    kernel, _ = house_kernel
    with pytest.raises(LwError, match="unknown room command .frobnicate") as info:
        run_turn(kernel, room_dir, ".frobnicate", actor="p1")
    assert ".help" in (info.value.expected or "")


def test_rule_system_dot_commands_answer_in_rooms(kernel: Kernel, room_dir: Path) -> None:
    result = run_turn(kernel, room_dir, ".ra 侦查", actor="p1", rng=random.Random(3))
    assert result.command.name == "dice" and result.command.reply.audience == "all"
    assert result.command.reply.text.startswith("陈默: 侦查 65")
    room = Room.load(room_dir, kernel)
    assert room.history.all()[-1].data["command"] == "dice" and room.history.all()[-1].audience == "all"
    assert room.sheets["p1"].state["last_check"]["stat"] == "侦查"  # kept for .luck / .push


def test_r_rolls_with_the_engine_for_the_table(kernel: Kernel, room_dir: Path) -> None:
    from lwcore.rules.dice import roll

    result = run_turn(kernel, room_dir, ".r 3d6+2", actor="p2", rng=random.Random(11))
    expected = roll("3d6+2", random.Random(11))
    assert result.command.name == "r" and result.command.reply.audience == "all"
    assert result.command.reply.text == f"苏婉清: {expected}"
    entry = Room.load(room_dir, kernel).history.all()[-1]
    assert entry.actor == "p2" and entry.data["result"]["faces"] == expected.faces
    assert entry.data["result"]["total"] == expected.total
    default = run_turn(kernel, room_dir, ".r", actor="p1", rng=random.Random(1))
    assert "1d100 = " in default.command.reply.text
    before = snapshot(room_dir)
    with pytest.raises(LwError, match="cannot roll '3d'"):
        run_turn(kernel, room_dir, ".r 3d", actor="p1")
    assert snapshot(room_dir) == before


def test_only_the_keeper_rolls_for_someone_else(kernel: Kernel, room_dir: Path) -> None:
    with pytest.raises(LwError, match="only the keeper"):
        run_turn(kernel, room_dir, ".ra 侦查 @p2", actor="p1")
    result = run_turn(kernel, room_dir, ".ra 侦查 @p2", actor="kp", rng=random.Random(1))
    assert result.command.reply.text.startswith("苏婉清:")


def test_phase_is_the_keepers_and_keeps_room_yaml_as_written(kernel: Kernel, room_dir: Path) -> None:
    original = (room_dir / "room.yaml").read_text(encoding="utf-8")
    with pytest.raises(LwError, match="keeper only"):
        run_turn(kernel, room_dir, ".phase prep", actor="p1")
    run_turn(kernel, room_dir, ".phase prep", actor="kp")
    text = (room_dir / "room.yaml").read_text(encoding="utf-8")
    assert text == original + "phase: prep\n"  # comments, order, indentation untouched
    assert Room.load(room_dir, kernel).file.phase == "prep"


def test_the_model_cannot_reach_a_room_command(kernel: Kernel, room_dir: Path) -> None:
    reply = {"content": [{"type": "tool_use", "id": "a", "name": "phase", "input": {"args": "prep"}}]}
    result = run_turn(kernel, room_dir, "我四处看看", actor="p1", reply=reply)
    assert result.applied.results[0].is_error
    assert Room.load(room_dir, kernel).file.phase is None
    with pytest.raises(LwError, match="takes no model reply"):
        run_turn(kernel, room_dir, ".phase prep", actor="kp", reply=reply)


@pytest.mark.parametrize("bad", [dict(who="gm"), dict(model_may_call=True), dict(name="two words")])
def test_a_malformed_room_command_is_refused_at_registration(tmp_path: Path, bad: dict) -> None:
    options = {"name": "ok", "handler": print, **bad}
    kernel = Kernel(data_dir=tmp_path, env={}, entry_points=False,
                    plugins=[command_plugin([], *[])])
    assert "ok" not in kernel.room_commands

    @hookimpl
    def lw_room_commands(register):  # noqa: ANN001, ANN202
        register(RoomCommand(**options))

    manifest = {"id": "sloppy", "version": "1", "tier": "code", "provides": ["room_commands"]}
    kernel = Kernel(data_dir=tmp_path, env={}, entry_points=False,
                    plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_room_commands=lw_room_commands))])
    assert options["name"] not in kernel.room_commands
    assert kernel.plugin("sloppy").status == "error"


def test_lw_turn_runs_room_commands(tmp_path: Path, room_dir: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(lw, ["--data-dir", str(tmp_path), "turn", str(room_dir), "--say", ".ra 侦查", "--as", "p1",
                             "--seed", "3", "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["command"] == "dice" and data["audience"] == "all" and data["data"]["action"] == "check"
    out = runner.invoke(lw, ["--data-dir", str(tmp_path), "turn", str(room_dir), "--say", ".phase x y", "--as", "p2"])
    assert out.exit_code == 1


def test_words_may_have_their_own_runner(tmp_path: Path, room_dir: Path) -> None:
    """``.board`` lists for anyone; ``.board pin X`` is the keeper's: the kernel refuses a player
    before the handler runs, by the first word of the arguments, in any case."""
    calls: list[str] = []

    def board(ctx):  # noqa: ANN001, ANN202
        calls.append(f"{ctx.args or '-'} by {ctx.actor.id}")
        return "ok"

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[command_plugin(
        calls, RoomCommand("board", board, who="anyone", who_by_word={"pin": "keeper", "shout": "player"}))])
    before = snapshot(room_dir)
    assert run_turn(kernel, room_dir, ".board", actor="p1").command.reply.text == "ok"
    assert run_turn(kernel, room_dir, ".board list", actor="p2").command.reply.text == "ok"
    for line in (".board pin the map", ".board PIN x"):
        with pytest.raises(LwError, match=r"^\.board pin is for the keeper only") as info:
            run_turn(kernel, room_dir, line, actor="p1")
        assert info.value.code == "forbidden"
    with pytest.raises(LwError, match=r"\.board shout is for the players only"):
        run_turn(kernel, room_dir, ".board shout hi", actor="kp")
    assert run_turn(kernel, room_dir, ".board pin the map", actor="kp").command.reply.text == "ok"
    assert calls == ["- by p1", "list by p2", "pin the map by kp"] and snapshot(room_dir) == before
    with pytest.raises(ValueError, match="who='owner'"):
        RoomCommand("x", board, who_by_word={"a": "owner"})
