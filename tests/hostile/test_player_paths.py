"""No error a player can reach quotes a server path (issue 24, item 10).

The data dir (and the room inside it) lives under a folder whose name holds :data:`MARK`.
Every surface a player's words or a player's seat reach is walked -- ``lw turn ROOM --as p1``
(their view), ``lw turn ROOM --as p1 --say .<command> …`` for every registered room command and
every rulepack command word, ``lw panels render --as p1``, and the web table's page, ``/state``,
``/say`` and ``/intent`` for a player's seat -- over a healthy room and over rooms with each of
their files broken, and the marker must never appear in anything the player gets. The keeper,
who runs the server, still gets the whole path. The mechanism is one function
(:func:`lwcore.errors.redacted`, through :func:`lwcore.turn.room.shown_to` and the web table's
seats): a file in the room is named as the room names it, any other file by its own name.
"""

from __future__ import annotations

import shutil
import sys
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hostile_kit import assert_clean, run_lw

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
MARK = "SRV-PATHMARK-41"
"""Part of the server folder holding the data dir: no player output may contain it."""

BROKEN: dict[str, tuple[str, bytes]] = {
    "room.yaml": ("room.yaml", b"id: [\n"),
    "room.yaml-utf8": ("room.yaml", b"format: 1\nid: \xff\n"),
    "variables.yaml": ("variables.yaml", b"variables: [\n"),
    "history.jsonl": ("history.jsonl", b'{"turn": 1}\n{oops\n'),
    "docs-pregen": ("docs/pregen.yaml", b"x: [\n"),
    "docs-worldbook": ("docs/worldbook_entry.yaml", b"\xff\xfe"),
    "sheet-outside": ("room.yaml", None),  # a sheet path that leaves the room
    "sheet-missing": ("sheets/chen-mo.yaml", None),
}
"""Name -> (room file, what it becomes); ``None``: made by :func:`breakage`."""
REFUSED = {"room.yaml", "room.yaml-utf8", "variables.yaml", "history.jsonl", "sheet-outside"}
"""The breakages a player's surfaces refuse (the others are read around: a missing sheet is an
empty one, a broken document is left out of what it would have added)."""


def breakage(room: Path, name: str) -> None:
    rel, body = BROKEN[name]
    if name == "sheet-outside":
        text = (room / "room.yaml").read_text(encoding="utf-8")
        (room / "room.yaml").write_text(text.replace("sheet: sheets/chen-mo.yaml", "sheet: ../../../../etc/hostname"),
                                        encoding="utf-8")
    elif name == "sheet-missing":
        (room / rel).unlink()
    else:
        (room / rel).write_bytes(body)


def new_room(tmp_path: Path, label: str) -> tuple[Path, Path]:
    """``(data dir, room)``, both under the marked server folder."""
    data = tmp_path / f"srv-{MARK}-{label}" / "data"
    room = data / "rooms" / "harbor"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies", "README*"))
    return data, room


def command_lines(room: Path) -> list[str]:
    """Every registered room command a player may run and every rulepack command word of the
    room's system, with an argument that climbs out of the room and an absolute path into it;
    every keeper-only command once (a player is refused before it runs)."""
    from lwcore.kernel import Kernel
    from lwcore.rules import engine_for
    from lwcore.turn.sheet_rolls import command_specs

    kernel = Kernel(data_dir=room.parent / "probe", env={})
    commands = kernel.room_commands
    words = sorted(n for n in commands if commands[n].who != "keeper") + sorted(command_specs(engine_for(kernel).rule_system("coc7")))
    args = ["../../../../etc/passwd", f"{room}/sheets/chen-mo.yaml"]
    keeper_only = [f".{n} {args[1]}" for n in sorted(commands) if commands[n].who == "keeper"]
    return [f".{w} {a}" for w in words for a in args] + keeper_only


def run_all(jobs: list[tuple[str, ...]], data: Path) -> list:
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda args: run_lw(*args, data_dir=data, surface="player-facing paths"), jobs))


def test_no_command_a_player_types_answers_with_a_server_path(tmp_path: Path) -> None:
    data, room = new_room(tmp_path, "commands")
    jobs = [("turn", str(room), "--as", "p1", "--say", line) for line in command_lines(room)]
    failures = []
    for outcome in run_all(jobs, data):
        assert_clean(outcome)
        if MARK in outcome.stdout + outcome.stderr:
            failures.append(f"{outcome.args[-1]!r}: {(outcome.stdout + outcome.stderr).strip()[:300]}")
    assert not failures, "\n".join(failures)
    assert len(jobs) >= 40


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_room_is_told_to_a_player_without_a_server_path(tmp_path: Path, name: str) -> None:
    """Each broken file, through a player's view, a player's command and a player's panels; the
    refusal still says which file (as the room names it), and the keeper gets the whole path."""
    data, room = new_room(tmp_path, name)
    breakage(room, name)
    jobs = [("turn", str(room), "--as", "p1"), ("turn", str(room), "--as", "p1", "--say", ".r 1d6"),
            ("turn", str(room), "--as", "p2", "--say", ".recap"), ("panels", "render", str(room), "--as", "p1"),
            ("panels", "render", str(room), "--as", "p2", "--format", "json")]
    refused = 0
    for outcome in run_all(jobs, data):
        assert_clean(outcome)
        text = outcome.stdout + outcome.stderr
        assert MARK not in text, (outcome.args, text[-400:])
        if outcome.code == 1:
            refused += 1
            assert Path(BROKEN[name][0]).name in text or "hostname" in text, text  # still located
    keeper = run_lw("turn", str(room), "--as", "kp", data_dir=data)
    if keeper.code == 1 and not name.startswith("room.yaml"):  # who the keeper is, room.yaml says
        assert str(room) in keeper.stderr  # the keeper runs the server: the whole path
    assert refused >= (name in REFUSED)


def test_the_web_tables_answers_to_a_player_carry_no_server_path(tmp_path: Path) -> None:
    """Every command line above and a few intents, through a player's seat of a real web
    table on loopback; then the same seat over each broken room file. The keeper's seat is
    told the whole path."""
    pytest.importorskip("starlette", reason="lw serve needs the serve extra")
    sys.path.insert(0, str(ROOT / "plugins" / "panels" / "tests"))
    from panels_testkit import Server, fetch

    from lw_panels.serve.table import Table, TurnSource
    from lwcore.kernel import Kernel

    data, room = new_room(tmp_path, "web")
    kernel = Kernel(data_dir=data, env={})
    table = Table(kernel, room, TurnSource(deque()), seed=5)
    heard: list[str] = []
    with Server(table) as running:
        player, keeper = running.link("p1"), running.link("kp")

        def post(link: str, route: str, body: dict) -> str:
            status, _, raw = fetch(f"{link}{route}", data=body, headers={"Origin": running.origin})
            return f"{status} {raw.decode('utf-8', 'replace')}"

        for line in [*command_lines(room), "我去码头。"]:
            heard.append(post(player, "say", {"text": line}))
        for panel, kind, value in (("../../etc", "input", "x"), ("harbor-ui/hud", "roll", "1d6"), (None, "x", None)):
            heard.append(post(player, "intent", {"panel": panel, "kind": kind, "value": value}))
        heard += [fetch(player)[2].decode("utf-8", "replace"), fetch(f"{player}state")[2].decode("utf-8", "replace")]
        good = {p: p.read_bytes() for p in room.rglob("*") if p.is_file()}
        told_keeper = []
        for name in sorted(BROKEN):
            breakage(room, name)
            heard.append(fetch(f"{player}state")[2].decode("utf-8", "replace"))
            heard.append(post(player, "say", {"text": ".r 1d6"}))
            told_keeper.append(post(keeper, "say", {"text": ".r 1d6"}))
            for path in room.rglob("*"):
                if path.is_file() and path not in good:
                    path.unlink()
            for path, body in good.items():
                path.write_bytes(body)
    leaked = [h[:300] for h in heard if MARK in h]
    assert not leaked, leaked
    assert any(str(room) in t for t in told_keeper)
    assert any("variables.yaml" in h for h in heard)  # the player is still told which file


@pytest.mark.parametrize(("message", "shown"), [
    # a URL is not a place on the server: a player reads the profile's endpoint whole, not "http:completions"
    ("profile 'mine' (http://127.0.0.1:18431/v1/chat/completions): request failed",
     "profile 'mine' (http://127.0.0.1:18431/v1/chat/completions): request failed"),
    (f"https://table.example.org/r/x and /srv/{MARK}/q.json", "https://table.example.org/r/x and q.json"),
    (f"see file:///srv/{MARK}/y.txt", "see file:y.txt"),  # a file URL's path is a server path
    (f"cannot read /srv/{MARK}/data/x.json: gone", "cannot read x.json: gone"),
])
def test_a_url_in_a_players_error_is_left_whole_and_a_path_is_not(message: str, shown: str) -> None:
    from lwcore.errors import LwError, redacted

    assert str(redacted(LwError(message))) == shown
