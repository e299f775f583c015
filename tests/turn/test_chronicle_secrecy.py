"""The fold never carries keeper-only material to the table (M17/M18, iron rule 3).

The fold model here is hostile in the simplest way: it answers every fold request with the
request's whole text, verbatim. Whatever the engine puts into a fold's input therefore lands
in the summary, and the players' ``.recap``, views and command replies are searched for every
keeper-only byte the room holds (chronicle annotations, keeper notes, threads, the summary's
keeper margin, keeper-only variables, keeper-only history lines).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from lwcore.cli import lw
from lwcore.errors import LwError, public_message
from lwcore.kernel import Kernel
from lwcore.turn import chronicle
from lwcore.i18n import kernel_text
from lwcore.turn.documents import Document
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock
from lwcore.turn.view import render_text, view_for

SECRET = "密档"
"""In every keeper-only text of the room, and in nothing public."""


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


class EchoFold:
    """A fold model that copies its whole input (every string of the request) into its reply."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.replies: list[str] = []

    def __call__(self, request: dict) -> dict:
        self.requests.append(request)
        text = "\n".join(strings(request))
        self.replies.append(text)
        return {"content": [{"type": "text", "text": text}]}


def keeper_reply(turn: int) -> dict:
    """The keeper's turn: a chronicle entry with a keeper annotation, a thread, a note, and a
    keeper-only variable moved -- each keeper-only part marked with :data:`SECRET`."""
    return {"content": [
        {"type": "tool_use", "id": f"c{turn}", "name": "chronicle_record",
         "input": {"text": f"第{turn}夜，调查员们在码头问话。", "keeper": f"{SECRET}{turn}：灯塔里有人在看。",
                   "scene": "码头"}},
        {"type": "tool_use", "id": f"t{turn}", "name": "thread_note",
         "input": {"label": f"{SECRET}线索{turn % 3}", "notes": f"{SECRET}：第{turn}夜埋下的伏笔"}},
        {"type": "tool_use", "id": f"n{turn}", "name": "keeper_note",
         "input": {"title": f"笔记{turn % 2}", "text": f"{SECRET}笔记：第{turn}夜的真相"}},
        {"type": "tool_use", "id": f"v{turn}", "name": "set_variable",
         "input": {"id": "true_culprit", "value": f"{SECRET}真凶{turn}"}},
        {"type": "text", "text": f"第{turn}夜，雾更浓了。"},
    ]}


def play(kernel: Kernel, room_dir: Path, turns: int, fold: EchoFold) -> None:
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + "context_window: 3000\n", encoding="utf-8")
    with room_lock(room_dir):  # a keeper margin written by hand before any fold
        room = Room.load(room_dir, kernel)
        room.documents.put(Document(chronicle.SUMMARY_ID, chronicle.SUMMARY,
                                    {"text": "调查员们抵达雾港。", "keeper": f"{SECRET}旁注：教团早有准备。",
                                     "through_turn": 0, "fold_count": 0}))
        room.save()
    for turn in range(1, turns + 1):
        result = run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=keeper_reply(turn),
                          rng=random.Random(turn), fold_reply=fold)
        assert not any(r.is_error for r in result.applied.results), result.applied.results


def player_outputs(kernel: Kernel, room_dir: Path, data_dir: Path) -> dict[str, str]:
    """Every player-facing text of the room: replies to the commands anyone may type, the
    views (text and JSON, ASCII-escaped too), and ``lw turn --view --json``."""
    out = {}
    for player in ("p1", "p2"):
        for command in (".recap", ".chronicle 200", ".threads", ".help"):
            try:
                out[f"{player} {command}"] = run_turn(kernel, room_dir, command, actor=player).command.reply.text
            except LwError as exc:  # a refusal is player-facing too
                out[f"{player} {command}"] = public_message(exc)
        room = Room.load(room_dir, kernel)
        view = view_for(room, player, history_limit=500)
        out[f"{player} view"] = render_text(view)
        out[f"{player} view json"] = view.to_json_text()
        out[f"{player} view ascii"] = json.dumps(view.model_dump(mode="json"))
        cli = CliRunner().invoke(lw, ["--data-dir", str(data_dir), "turn", str(room_dir), "--view", "--json",
                                      "--as", player])
        assert cli.exit_code == 0, cli.output
        out[f"{player} lw turn --view --json"] = cli.output
    return out


def test_an_echoing_fold_leaks_no_keeper_byte_to_players(kernel: Kernel, room_dir: Path, tmp_path: Path) -> None:
    fold = EchoFold()
    play(kernel, room_dir, 14, fold)
    room = Room.load(room_dir, kernel)
    summary = chronicle.summary(room)
    assert summary is not None and summary.data["fold_count"] >= 1, "the chronicle never folded"
    assert any(reply.strip().startswith(summary.data["text"]) for reply in fold.replies)  # the echo, cut to the budget
    assert "第1夜，调查员们在码头问话。" in summary.data["text"]
    assert SECRET in json.dumps(room.documents.all(chronicle.CHRONICLE), default=lambda d: d.data,
                                ensure_ascii=False)  # the annotations are on file, keeper-side

    for where, text in player_outputs(kernel, room_dir, tmp_path / "data").items():
        assert SECRET not in text and "\\u5bc6\\u6863" not in text, f"keeper-only text reached {where}: {text[:400]}"

    keeper_recap = run_turn(kernel, room_dir, ".recap", actor="kp").command.reply.text
    assert "第1夜，调查员们在码头问话。" in keeper_recap
    assert f"{SECRET}1：灯塔里有人在看。" in keeper_recap  # the keeper's margin keeps what was folded away
    assert f"{SECRET}旁注：教团早有准备。" in keeper_recap  # and what the keeper wrote there


def test_the_public_fold_input_is_the_player_projection(kernel: Kernel, room_dir: Path) -> None:
    """Every request that writes the public summary holds public text only; keeper material
    goes to the margin's own request, which writes nothing a player reads."""
    fold = EchoFold()
    play(kernel, room_dir, 10, fold)
    margin_rules = kernel_text("fold.margin_rules", "zh", budget=0)[:20]
    public = [r for r in fold.requests if margin_rules not in json.dumps(r, ensure_ascii=False)]
    margins = [r for r in fold.requests if margin_rules in json.dumps(r, ensure_ascii=False)]
    assert public and len(margins) == len(public)  # every batch had annotations: one request each
    assert all(SECRET not in json.dumps(r, ensure_ascii=False) for r in public)
    assert all(SECRET in json.dumps(r, ensure_ascii=False) for r in margins)
    room = Room.load(room_dir, kernel)
    summary = chronicle.summary(room)
    assert "\n".join(strings(public[-1])).strip().startswith(summary.data["text"])
    assert "\n".join(strings(margins[-1])).strip().startswith(summary.data["keeper"])


def test_the_turn_report_flags_a_leaked_annotation(kernel: Kernel, room_dir: Path) -> None:
    """``lw turn``'s leak check looks for keeper-only *fields* too: a summary whose public
    text carried a chronicle annotation (the bug this file guards against) is shown red."""
    from rich.console import Console

    from lwcore.builtins.turn.report import keeper_only_texts, views_panel

    annotation = f"{SECRET}：灯塔里有人在看守着。"
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        chronicle.record(room, "他们到了码头。", keeper=annotation)
        room.documents.put(Document(chronicle.SUMMARY_ID, chronicle.SUMMARY,
                                    {"text": "他们到了码头。" + annotation, "keeper": "", "through_turn": 0}))
        room.save()
    room = Room.load(room_dir, kernel)
    assert annotation in keeper_only_texts(room) and "他们到了码头。" not in keeper_only_texts(room)
    console = Console(record=True, width=240)
    console.print(views_panel(room))
    assert f"✗ keeper-only values reached a player: {annotation}" in console.export_text()
