"""The keeper's message controls at the web table, over real HTTP on loopback: regenerate,
choose, edit, rewind and stop from the keeper's seat; every one refused from a player's seat
(also against a real ``lw serve`` process), the room unchanged byte for byte."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from panels_testkit import Server, event_stream, fetch, recorded

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="lw serve needs the serve extra (starlette, uvicorn)")

from lw_panels.serve.table import Table, TurnSource  # noqa: E402
from lwcore.turn.connection import LiveRequest  # noqa: E402

ACTIONS = [{"action": "regenerate"}, {"action": "rewind", "turn": 1}, {"action": "edit", "text": "雾散了。"},
           {"action": "choose", "number": 1}, {"action": "stop"}]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".lw" not in p.parts}


def narrated(text: str) -> dict[str, Any]:
    """The recorded reply with its closing narration replaced by ``text``."""
    reply = recorded()
    reply["content"][-1] = {"type": "text", "text": text}
    return reply


def control(server: Server, member: str, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    status, _, body = fetch(server.link(member) + "control", data=data)
    return status, json.loads(body)


def state(server: Server, member: str) -> dict[str, Any]:
    status, _, body = fetch(server.link(member) + "state")
    assert status == 200, body
    return json.loads(body)


def test_the_keepers_controls_over_http_and_a_players_seat_refused(kernel, table_room: Path) -> None:  # noqa: ANN001
    replies = deque([narrated("钟声停了。（初稿）"), narrated("灯塔亮了。（重写）")])
    table = Table(kernel, table_room, TurnSource(replies), seed=5, token=lambda member: f"seat-{member}")
    with Server(table) as server:
        before_turn = snapshot(table_room)
        status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头查看那艘空船。"})
        assert status == 200, body
        turn = table_turn(kernel, table_room)
        first = snapshot(table_room)
        assert state(server, "p1")["controls"] == ""  # a player's update has no controls
        page = fetch(server.link("p1"))[2].decode("utf-8")
        assert 'id="lw-controls"' not in page and 'data-control="' not in page
        for member in ("p1", "p2"):
            for data in ACTIONS:
                status, told = control(server, member, data)
                assert status == 403 and told["code"] == "forbidden", (member, data, told)
        assert snapshot(table_room) == first

        keeper_page = fetch(server.link("kp"))[2].decode("utf-8")
        assert 'data-control="regenerate"' in keeper_page and 'data-control="stop"' in keeper_page
        status, told = control(server, "kp", {"action": "regenerate"})
        assert status == 200 and "灯塔亮了。（重写）" in told["text"], told
        second = snapshot(table_room)
        assert "灯塔亮了" in state(server, "p2")["story"] and "钟声停了" not in state(server, "p2")["story"]
        assert "钟声停了。（初稿）" in state(server, "kp")["controls"] and 'data-number="1"' in state(server, "kp")["controls"]

        status, told = control(server, "kp", {"action": "choose", "number": 1})
        assert status == 200 and told["text"] == "已选用第 1 个回复。", told  # in the keeper's language (the room's)
        assert snapshot(table_room) == first
        status, told = control(server, "kp", {"action": "choose", "number": 2})
        assert status == 200 and snapshot(table_room) == second

        status, told = control(server, "kp", {"action": "edit", "text": "雾里什么也没有。"})
        assert status == 200 and told["text"] == f"第 {turn} 回合的叙述已替换。", told
        story = state(server, "p2")["story"]
        assert "雾里什么也没有。" in story and '<span class="edited">' in story

        status, told = control(server, "kp", {"action": "rewind", "turn": turn})
        assert status == 200 and told["text"] == f"已回退到第 {turn} 回合之前。", told
        assert snapshot(table_room) == before_turn
        for data, code in (({"action": "dance"}, 400), ({"action": "rewind", "turn": "x"}, 400),
                           ({"action": "rewind", "turn": 999}, 400), ({"action": "choose", "number": 7}, 409)):
            status, told = control(server, "kp", data)
            assert status == code and "Traceback" not in told["error"], (data, told)
        assert snapshot(table_room) == before_turn


def table_turn(kernel, room: Path) -> int:  # noqa: ANN001
    from lwcore.turn.room import Room

    return Room.load(room, kernel).turn_number


def test_the_keeper_stops_a_streaming_turn_and_nothing_is_written(kernel, table_room: Path, monkeypatch) -> None:  # noqa: ANN001
    from provider_servers import ProviderServer, Reply

    with ProviderServer("chat_completions", [Reply("钟声从雾里传来。")], first_token_delay=30) as provider:
        live = LiveRequest(endpoint=provider.url, model="m", protocol="chat_completions")
        table = Table(kernel, table_room, TurnSource(live=live), seed=5, token=lambda member: f"seat-{member}")
        with Server(table) as server:
            before = snapshot(table_room)
            answer: dict[str, Any] = {}

            def say() -> None:
                answer["status"], _, body = fetch(server.link("p1") + "say", data={"text": "我去码头。"}, timeout=60)
                answer["body"] = json.loads(body)

            thread = threading.Thread(target=say)
            thread.start()
            deadline = time.monotonic() + 20
            while not provider.requests:  # the turn's request is at the model
                assert time.monotonic() < deadline
                time.sleep(0.02)
            time.sleep(0.2)
            assert control(server, "p1", {"action": "stop"})[0] == 403  # a player cannot stop it
            status, told = control(server, "kp", {"action": "stop"})
            assert status == 200 and told["text"] == "已停止正在生成的回合：它的任何内容都没有保存。", told
            thread.join(20)
            assert not thread.is_alive()
            assert answer["status"] == 409 and answer["body"]["code"] == "cancelled", answer
            assert snapshot(table_room) == before
            status, told = control(server, "kp", {"action": "stop"})
            assert status == 200 and told["text"] == "没有正在等待模型的回合。", told


def test_a_real_lw_serve_refuses_every_control_from_a_players_seat(tmp_path: Path, table_room: Path,
                                                                   pack: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "home"), "LW_DEV_PACKS": str(pack), "PYTHONUNBUFFERED": "1"})
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(recorded(), ensure_ascii=False), encoding="utf-8")
    lw = Path(sys.executable).parent / "lw"
    process = subprocess.Popen([str(lw), "serve", str(table_room), "--port", "0", "--reply", str(reply)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = [process.stdout.readline() for _ in range(5)]
        links = dict(re.findall(r"\((keeper|p1|p2)\): (http://127\.0\.0\.1:\d+/t/\S+/)", "".join(lines)))
        deadline = time.monotonic() + 20
        while True:
            try:
                status, _, body = fetch(links["p1"] + "say", data={"text": "我去码头查看那艘空船。"})
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert status == 200, body
        after = snapshot(table_room)
        for member in ("p1", "p2"):
            for data in ACTIONS:
                status, _, body = fetch(links[member] + "control", data=data)
                assert status == 403 and json.loads(body)["code"] == "forbidden", (member, data, body)
        assert snapshot(table_room) == after
        status, _, body = fetch(links["keeper"] + "control", data={"action": "rewind", "turn": 1})
        assert status == 200, body
        assert snapshot(table_room) != after
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert "Traceback" not in err, err


def read_events(url: str, found: list[tuple[str, str]], done: threading.Event) -> threading.Thread:
    """Collect every server-sent event of ``url`` until an ``update`` whose status is no
    longer someone acting (the turn's end), then set ``done``."""

    def run() -> None:
        for event, data in event_stream(url, timeout=60)[1]:
            found.append((event, data))
            if event == "update" and "acted" not in json.loads(data).get("status", "") and '"version": 0' not in data:
                break
        done.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_live_turns_narration_streams_to_the_keeper_and_never_to_a_player(kernel, table_room: Path) -> None:  # noqa: ANN001
    """Streaming meets the reply processors this way: the raw narration goes, token by token,
    to the keeper's seat only (it may hold ``<UpdateVariable>`` blocks and whatever the
    processors would take out); a player reads the narration once the turn is applied."""
    from provider_servers import ProviderServer, Reply

    raw = "钟声从雾里传来。<UpdateVariable>_.set('秘密', 1)</UpdateVariable>灯塔熄了。\r\nevent: update"
    with ProviderServer("chat_completions", [Reply(raw)], chunk=4, token_delay=0.02) as provider:
        live = LiveRequest(endpoint=provider.url, model="m", protocol="chat_completions")
        table = Table(kernel, table_room, TurnSource(live=live), seed=5, token=lambda member: f"seat-{member}")
        with Server(table) as server:
            heard: dict[str, list[tuple[str, str]]] = {"kp": [], "p2": []}
            ended = {m: threading.Event() for m in heard}
            for member in heard:
                read_events(server.link(member) + "events", heard[member], ended[member])
            until = time.monotonic() + 20  # both seats subscribed (their hello came) before anyone speaks
            while not all(any(e == "hello" for e, _ in heard[m]) for m in heard) and time.monotonic() < until:
                time.sleep(0.05)
            status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头。"})
            assert status == 200, body
            for member in heard:
                assert ended[member].wait(20), member
    deltas = "".join(data for event, data in heard["kp"] if event == "delta")
    assert deltas.replace("\n", "\r\n") == raw or deltas.replace("\n", "") == raw.replace("\r\n", ""), deltas
    assert [e for e, _ in heard["kp"]].count("delta") >= 5  # token by token, not the whole at the end
    assert {event for event, _ in heard["p2"]} <= {"hello", "status", "update"}  # not one token before the turn applied
    assert "钟声从雾里传来" in heard["p2"][-1][1]  # the narration, once the turn is applied
    assert not any("钟声从雾里传来" in data for _, data in heard["p2"][:-1])
    assert not any("UpdateVariable" in data or "_.set" in data for _, data in heard["p2"])  # the block never reaches a player
    assert "灯塔熄了" in heard["p2"][-1][1]
