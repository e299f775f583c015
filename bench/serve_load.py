"""Many rooms on one ``lw serve --all`` (issue 29's figures): a load run and a kill/restart soak.

    .venv/bin/python bench/serve_load.py [--rooms 50] [--seconds 60] [--seed 1]
    .venv/bin/python bench/serve_load.py --soak [--seconds 300]

``ROOMS`` rooms (each the bundled example with a third player: 1 keeper + 3 players) are made
in a fresh data dir, and ONE ``lw serve --all`` process (a subprocess) serves them all. Every
seat keeps an event stream open. In every room the players take turns, one line after the
other (the next is sent when the last is answered), each turn streamed from a loopback
chat-completions model (another process) that waits 1-3 s before its first token (seeded:
the delay is a function of the seed and the turn) and then streams a short narration.

Each line said carries a mark (``S~r3t17~``) and the model writes it back in its narration
(``N~r3t17~``), so the bench knows which update on which seat is which turn's. Figures:

- **turns per second** (answered turns over the run's length);
- **the server's added latency per turn** (p50, p95): from sending the line to the turn's
  update reaching the acting seat's event stream, minus the model's own time for it (from the
  model receiving the request to its last byte, measured by the model process; both clocks
  are the machine's monotonic clock);
- **per update** (p50, p95): the turn's update reaching each of the room's four seats, from
  the model's last byte (saving, building each seat's view, fanning it out);
- **memory per room**: the server's resident memory (and its peak) over the rooms;
- **nothing lost**: afterwards every room's ``history.jsonl`` holds every answered turn
  exactly once (the line said and its narration), in the order played.

The baseline, measured in the same run against the same model: a bare streamed request to it
(httpx, no server between), its round trip over the model's own time. The ratio printed is a
turn's time at the table (line sent to update seen) over the model's own time, against the
baseline's.

``--soak``: the same play for ``--seconds`` (default 300), but the server is killed with
SIGKILL at random moments (seeded, every 5-25 s) and started again on the same port with the
same rooms. After every restart every seat's link (printed once, at the first start) must
still answer; at the end every room must load, every turn in its history must be whole (the
line and its narration, once) or absent, every answered turn present, the history exactly
what the undo log's appends wrote (offsets and bytes), and no half-written file (each of the
room's files reads, no journal left once the room is loaded).

:func:`run` is the core (the tests run it with 2 rooms x 2 seats for a few seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LW = Path(sys.executable).parent / "lw"
SAY = "我四处看看。"
NARRATION = "雾气从海面上缓缓升起，码头上的灯一盏接一盏地熄灭。远处传来一声钟响。"

MODEL = f"""
import json, random, sys, threading, time
sys.path.insert(0, {str(ROOT / "tests" / "support")!r})
from http.server import ThreadingHTTPServer
from provider_servers import Fault, ProviderServer, Reply
ThreadingHTTPServer.request_queue_size = 1024  # fifty rooms connect at once: the default backlog of 5 resets some
ThreadingHTTPServer.handle_error = lambda *args: None  # a request cut by the killed server is no news
seed, low, high, log_path = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
log = open(log_path, "a", encoding="utf-8")
lock = threading.Lock()
NARRATION = {NARRATION!r}

class Model(ProviderServer):
    def _stream(self, h, reply, model, n, request, fault):
        said = json.dumps(request.get("messages", [])[-1:], ensure_ascii=False)
        found = __import__("re").findall(r"S~([a-z0-9]+)~", said)
        mark = found[-1] if found else f"x{{n}}"
        delay = random.Random(f"{{seed}}:{{mark}}").uniform(low, high)
        start = time.monotonic()
        super()._stream(h, Reply(f"N~{{mark}}~ " + NARRATION), model, n, request, Fault("slow_first", delay=delay))
        end = time.monotonic()
        with lock:
            log.write(json.dumps({{"mark": mark, "start": start, "end": end}}) + "\\n")
            log.flush()

with Model("chat_completions", chunk=6, token_delay=0.01) as s:
    print(s.url, flush=True)
    sys.stdin.read()
"""


@dataclass
class Turn:
    mark: str
    room: str
    member: str
    sent: float
    answered: float | None = None
    status: int | None = None
    seen: dict[str, float] = field(default_factory=dict)
    """The member of each seat whose stream got the turn's update -> when."""
    error: str = ""
    """A refused turn's answer (its start)."""
    saved: bool = False
    """Found in the room's history afterwards."""
    first: bool = False
    """The room's first turn at this server (it loads what the room needs: shown apart)."""


@dataclass
class Figures:
    turns: list[Turn]
    model: dict[str, tuple[float, float]]
    seconds: float
    rss_mib: float
    peak_mib: float
    bare: list[tuple[float, float]]
    """The baseline: (round trip, the model's own time) of bare requests."""
    problems: list[str]
    restarts: int = 0
    links: int = 0
    cpu: float = 0.0
    """The server's CPU seconds over the run (the load run only)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(home), "PYTHONUNBUFFERED": "1"})
    return env


def make_rooms(home: Path, count: int, players: int) -> list[str]:
    """``count`` rooms in the data dir ``home``, each the example room with ``players``
    players (the example has two: a third is added with ``lw seat add``, one fewer by editing
    the copy), made once with ``lw room create`` and then copied (without its state: each
    room makes its own links when first served)."""
    env = environment(home)
    subprocess.run([str(LW), "room", "create", "template", "--example", "fog-harbor"], env=env, check=True,
                   capture_output=True)
    template = home / "rooms" / "template"
    for extra in range(2, players):
        subprocess.run([str(LW), "seat", "add", "template", f"Mei{extra}"], env=env, check=True, capture_output=True)
    if players < 2:
        text = (template / "room.yaml").read_text(encoding="utf-8")
        text = re.sub(r"  - id: p2\n(    .*\n)+", "", text)
        (template / "room.yaml").write_text(text, encoding="utf-8")
    names = [f"room{i:02d}" for i in range(count)]
    for name in names:
        shutil.copytree(template, home / "rooms" / name, ignore=shutil.ignore_patterns(".lw"))
    shutil.rmtree(template)
    return names


class Server:
    """``lw serve --all`` on ``port``, started and killed at will; the seat links come from its
    first start (later starts only say they were sent earlier)."""

    def __init__(self, home: Path, port: int, model_url: str, seed: int) -> None:
        self.home, self.port, self.model_url, self.seed = home, port, model_url, seed
        self.process: subprocess.Popen[str] | None = None
        self.links: dict[tuple[str, str], str] = {}
        self.log = open(home / "serve.log", "a", encoding="utf-8")  # noqa: SIM115

    def start(self, rooms: int) -> None:
        """Start the server and wait for its links (of at least ``rooms`` rooms: 0 on a restart,
        which prints none) and its last line."""
        self.process = subprocess.Popen(
            [str(LW), "serve", "--all", "--port", str(self.port), "--endpoint", self.model_url, "--provider",
             "chat_completions", "--model", "m", "--acts-per-minute", "0", "--seed", str(self.seed)],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment(self.home))
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"lw serve ended before listening: see {self.home / 'serve.log'}")
            found = re.search(r"\((keeper|p\d+)\): (http://127\.0\.0\.1:\d+/r/([^/]+)/t/\S+/)", line)
            if found:
                member = "kp" if found.group(1) == "keeper" else found.group(1)  # the example's keeper
                self.links[(found.group(3), member)] = found.group(2)
            if line.startswith("Ctrl-C"):
                break
        if len(self.links) < rooms:
            raise RuntimeError(f"lw serve printed {len(self.links)} seat links for {rooms} rooms")
        threading_drain(self.process.stdout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu(self) -> float:
        """The server's CPU time so far (user and system), seconds."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory(self) -> tuple[float, float]:
        """The server's resident memory and its peak, MiB."""
        assert self.process is not None
        text = Path(f"/proc/{self.process.pid}/status").read_text(encoding="utf-8")
        rss = int(re.search(r"VmRSS:\s+(\d+) kB", text).group(1))  # type: ignore[union-attr]
        peak = int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1))  # type: ignore[union-attr]
        return rss / 1024, peak / 1024


def threading_drain(stream: Any) -> None:
    """Read ``stream`` to its end in a thread (the server's output, so it never blocks on it)."""
    threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()


async def wait_listening(client: Any, url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if (await client.get(url)).status_code == 200:
                return
        except Exception:  # noqa: BLE001 -- not listening yet
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer {url} within {seconds:.0f} s")
        await asyncio.sleep(0.2)


async def follow(client: Any, link: str, member: str, expect: list[Turn], stop: asyncio.Event) -> None:
    """Keep ``link``'s event stream open (again after the server restarts) and note when each
    turn of ``expect`` (its room's, in order) first shows in an update."""
    while not stop.is_set():
        try:
            async with client.stream("GET", link + "events", timeout=None) as response:
                event, data = "", []
                async for line in response.aiter_lines():
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:])
                    elif not line:
                        if event == "update":
                            now = time.monotonic()
                            text = "\n".join(data)
                            for turn in expect:
                                if member not in turn.seen and f"N~{turn.mark}~" in text:
                                    turn.seen[member] = now
                        event, data = "", []
                    if stop.is_set():
                        return
        except Exception:  # noqa: BLE001 -- the server was killed: open the stream again
            pass
        await asyncio.sleep(0.2)


async def play(client: Any, server: Server, room: str, index: int, players: list[str], turns: list[Turn],
               stop: asyncio.Event) -> None:
    """The room's players take turns until ``stop``; each line is sent when the last is
    answered (or failed: the server was killed)."""
    number = 0
    while not stop.is_set():
        member = players[number % len(players)]
        mark = f"r{index}t{number}"
        number += 1
        turn = Turn(mark, room, member, time.monotonic(), first=number == 1)
        turns.append(turn)
        try:
            answer = await client.post(server.links[(room, member)] + "say", json={"text": f"S~{mark}~ {SAY}"},
                                       timeout=300)
            turn.status = answer.status_code
            turn.answered = time.monotonic()
            if answer.status_code != 200:
                turn.error = answer.text[:300]
        except Exception as exc:  # noqa: BLE001 -- killed mid-turn: unknown whether it was saved
            turn.error = "not sent" if type(exc).__name__ == "ConnectError" else "cut"  # down, or cut by a kill
            await asyncio.sleep(0.5)


async def bare(client: Any, url: str, count: int) -> dict[str, float]:
    """``count`` bare streamed requests to the model, one after the other: each one's mark ->
    its round trip (seconds)."""
    trips = {}
    for i in range(count):
        mark = f"bare{i}"
        body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": f"S~{mark}~ {SAY}"}]}
        start = time.monotonic()
        async with client.stream("POST", url, json=body, timeout=60, headers={"connection": "close"}) as response:
            async for _ in response.aiter_bytes():
                pass
        trips[mark] = time.monotonic() - start
    return trips


def read_log(path: Path) -> dict[str, tuple[float, float]]:
    seen = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        seen[record["mark"]] = (record["start"], record["end"])
    return seen


def run(work: Path, *, rooms: int = 50, players: int = 3, seconds: float = 60, seed: int = 1,
        soak: bool = False, latency: tuple[float, float] = (1.0, 3.0), kills: tuple[float, float] = (5, 25),
        bare_runs: int = 8, say: Any = print) -> Figures:
    """The load run (or the soak) in the fresh folder ``work``; its figures, with every
    problem found in :attr:`Figures.problems` (none: nothing lost, everything whole)."""
    import httpx

    home = work / "home"
    names = make_rooms(home, rooms, players)
    members = ["kp"] + [f"p{i}" for i in range(1, players + 1)]
    say(f"{rooms} rooms x {len(members)} seats made in {home}")
    model_log = work / "model.jsonl"
    model = subprocess.Popen([sys.executable, "-c", MODEL, str(seed), str(latency[0]), str(latency[1]),
                              str(model_log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert model.stdout is not None
    model_url = model.stdout.readline().strip()
    server = Server(home, free_port(), model_url, seed)
    chance = random.Random(seed)
    turns: list[Turn] = []
    restarts = 0
    problems: list[str] = []
    rss = peak = cpu = 0.0

    async def main() -> tuple[dict[str, float], float]:
        nonlocal restarts, rss, peak, cpu
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        async with httpx.AsyncClient(trust_env=False, limits=limits) as client:
            bare_marks = await bare(client, model_url, bare_runs)
            server.start(rooms)
            await wait_listening(client, server.links[(names[0], "kp")] + "state")
            stop, closing = asyncio.Event(), asyncio.Event()
            per_room: dict[str, list[Turn]] = {name: [] for name in names}
            followers = [asyncio.create_task(follow(client, server.links[(name, member)], member, per_room[name], closing))
                         for name in names for member in members]
            await asyncio.sleep(1 + rooms * 0.02)  # the streams open
            say(f"server up (pid {server.process.pid}), {len(followers)} event streams; playing {seconds:.0f} s"  # type: ignore[union-attr]
                + (" with kills" if soak else ""))
            start, cpu = time.monotonic(), server.cpu()
            players_of = members[1:]
            drivers = [asyncio.create_task(play(client, server, name, i, players_of, per_room[name], stop))
                       for i, name in enumerate(names)]
            end = start + seconds
            while time.monotonic() < end:
                if not soak:
                    await asyncio.sleep(min(1.0, end - time.monotonic()))
                    continue
                await asyncio.sleep(min(chance.uniform(*kills), max(0.0, end - time.monotonic())))
                if time.monotonic() >= end:
                    break
                server.kill()
                restarts += 1
                await asyncio.sleep(chance.uniform(0, 1))
                await asyncio.to_thread(server.start, 0)
                await wait_listening(client, server.links[(names[0], "kp")] + "state")
                checked = await asyncio.gather(*(link_answers(client, link) for link in server.links.values()))
                problems.extend(f"restart {restarts}: {room}/{member}'s link answers {status}"
                                for (room, member), status in zip(server.links, checked) if status != 200)
                say(f"  killed and restarted ({restarts}), {sum(t.status == 200 for t in turns_of(per_room))} turns answered")
            length = time.monotonic() - start
            stop.set()
            await asyncio.wait(drivers, timeout=60)  # the turns in flight are answered
            settle = time.monotonic() + (10 if not soak else 1)  # their updates arrive
            while time.monotonic() < settle and any(
                    len(t.seen) < len(members) for t in turns_of(per_room) if t.status == 200):
                await asyncio.sleep(0.2)
            closing.set()
            if not soak:
                rss, peak = server.memory()
                cpu = server.cpu() - cpu
            for task in followers + drivers:
                task.cancel()
            await asyncio.gather(*followers, *drivers, return_exceptions=True)
            turns.extend(turns_of(per_room))
            return bare_marks, length

    try:
        bare_marks, length = asyncio.run(main())
        server.stop()
        problems += check_rooms(home, names, turns, players_of=members[1:])
        timed = read_log(model_log)
        bare_times = [(trip, timed[m][1] - timed[m][0]) for m, trip in bare_marks.items() if m in timed]
        return Figures(turns, timed, length, rss, peak, bare_times, problems, restarts, len(server.links),
                       cpu if not soak else 0.0)
    finally:
        server.kill()
        server.log.close()
        model.stdin.close()  # type: ignore[union-attr]
        model.wait(30)


def turns_of(per_room: dict[str, list[Turn]]) -> list[Turn]:
    return [turn for room in per_room.values() for turn in room]


async def link_answers(client: Any, link: str) -> int | str:
    """The status ``GET state`` by the seat's link answers (what went wrong when none)."""
    try:
        return int((await client.get(link + "state", timeout=120)).status_code)
    except Exception as exc:  # noqa: BLE001 -- a figure, not a crash
        return f"nothing ({type(exc).__name__})"


def check_rooms(home: Path, names: list[str], turns: list[Turn], players_of: list[str]) -> list[str]:
    """Every room loads; its history holds each turn whole (the line and its narration) once or
    not at all, every answered turn, in the order played; the history is exactly what the undo
    log's appends wrote; no journal is left once it is loaded. The problems found."""
    from lwcore.api import Room, room_lock
    from lwcore.kernel import Kernel

    kernel = Kernel(data_dir=home, env={"LW_HOME": str(home)})
    problems: list[str] = []
    by_room: dict[str, list[Turn]] = {}
    for turn in turns:
        by_room.setdefault(turn.room, []).append(turn)
    for name in names:
        folder = home / "rooms" / name
        try:
            with room_lock(folder):
                Room.load(folder, kernel)
        except Exception as exc:  # noqa: BLE001 -- a figure, not a crash
            problems.append(f"{name}: does not load: {exc}")
            continue
        txn = folder / ".lw" / "txn"
        if txn.is_dir() and any(txn.iterdir()):
            problems.append(f"{name}: a journal is left after loading: {sorted(p.name for p in txn.iterdir())}")
        strays = [p.name for p in folder.rglob(".*.tmp")]
        if strays:
            problems.append(f"{name}: temporary files left: {strays}")
        raw = (folder / "history.jsonl").read_bytes()
        said: list[str] = []
        told: list[str] = []
        for number, line in enumerate(raw.splitlines(), 1):
            try:
                entry = json.loads(line)
            except ValueError:
                problems.append(f"{name}: history line {number} is not JSON")
                continue
            text = json.dumps(entry, ensure_ascii=False)
            said += re.findall(r"S~([a-z0-9]+)~", text)
            told += re.findall(r"N~([a-z0-9]+)~", text)
        if said != told:
            problems.append(f"{name}: lines said and narrations differ: {said[:5]} vs {told[:5]}")
        if len(set(said)) != len(said):
            problems.append(f"{name}: a turn is in the history twice")
        order = [turn.mark for turn in by_room.get(name, [])]
        if said != [mark for mark in order if mark in set(said)]:
            problems.append(f"{name}: the history's turns are not in the order played")
        for turn in by_room.get(name, []):
            turn.saved = turn.mark in said
            if turn.status == 200 and turn.mark not in said:
                problems.append(f"{name}: answered turn {turn.mark} is not in the history")
            if turn.status is not None and turn.status != 200 and turn.mark in said:
                problems.append(f"{name}: refused turn {turn.mark} ({turn.status}) is in the history")
        problems += undo_matches(name, folder, raw)
    return problems


def undo_matches(name: str, folder: Path, history: bytes) -> list[str]:
    """The history is exactly what the undo log's appends to it wrote, turn after turn."""
    rebuilt = b""
    turn = None
    log = folder / ".lw" / "undo.jsonl"
    for number, line in enumerate(log.read_bytes().splitlines() if log.exists() else [], 1):
        record = json.loads(line)
        if turn is not None and record["turn_before"] != turn:
            return [f"{name}: undo log line {number} starts at turn {record['turn_before']}, the one before ended at {turn}"]
        turn = record["turn_after"]
        for change in record.get("changes") or ():
            if change["target"] == "history.jsonl":
                if change["kind"] != "append" or change["at"] != len(rebuilt):
                    return [f"{name}: undo log line {number} writes the history at {change.get('at')}, "
                            f"not at its end ({len(rebuilt)})"]
                rebuilt += base64.b64decode(change["data"])
    return [] if rebuilt == history else [f"{name}: the history is not what the undo log wrote "
                                          f"({len(history)} bytes, the log's appends {len(rebuilt)})"]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(figures: Figures, *, rooms: int, seats: int, say: Any = print) -> dict[str, float]:
    """Print the figures; the numbers by name."""
    firsts = [t.seen[t.member] - t.sent - (figures.model[t.mark][1] - figures.model[t.mark][0])
              for t in figures.turns if t.first and t.status == 200 and t.member in t.seen and t.mark in figures.model]
    answered = [t for t in figures.turns if t.status == 200 and not t.first]
    failed = [t for t in figures.turns if t.status is not None and t.status != 200]
    added, updates, at_table, own = [], [], [], []
    for turn in answered:
        if turn.mark not in figures.model:
            continue
        start, end = figures.model[turn.mark]
        if turn.member in turn.seen:
            added.append((turn.seen[turn.member] - turn.sent - (end - start)) * 1000)
            at_table.append(turn.seen[turn.member] - turn.sent)
            own.append(end - start)
        updates += [(seen - end) * 1000 for seen in turn.seen.values()]
    unseen = sum(len(t.seen) < seats for t in answered)
    bare_ratio = (sum(rt for rt, _ in figures.bare) / sum(m for _, m in figures.bare)) if figures.bare else float("nan")
    table_ratio = sum(at_table) / sum(own) if own else float("nan")
    numbers = {
        "turns_per_second": sum(t.status == 200 for t in figures.turns) / figures.seconds,
        "turn_added_p50_ms": percentile(added, 0.5), "turn_added_p95_ms": percentile(added, 0.95),
        "update_p50_ms": percentile(updates, 0.5), "update_p95_ms": percentile(updates, 0.95),
        "rss_per_room_mib": figures.rss_mib / rooms, "unseen": unseen, "ratio": table_ratio / bare_ratio if own else float("nan"),
    }
    say(f"a room's first turn (not counted below) added p50 {percentile(firsts, 0.5) * 1000:.0f} ms")
    cut = [t for t in figures.turns if t.status is None and t.error != "not sent"]
    say(f"turns answered {sum(t.status == 200 for t in figures.turns)} in {figures.seconds:.0f} s: "
        f"{numbers['turns_per_second']:.2f} turns/s ({len(failed)} refused or failed, {len(cut)} cut by a kill: "
        f"{sum(t.saved for t in cut)} of them saved whole before it, the others not at all)")
    say(f"server's added latency per turn (line sent -> update on the acting seat, minus the model's own time): "
        f"p50 {numbers['turn_added_p50_ms']:.0f} ms, p95 {numbers['turn_added_p95_ms']:.0f} ms ({len(added)} turns)")
    say(f"per update (model's last byte -> the update on a seat, {len(updates)} updates): "
        f"p50 {numbers['update_p50_ms']:.0f} ms, p95 {numbers['update_p95_ms']:.0f} ms; "
        f"{unseen} answered turns whose update some seat never saw")
    if figures.cpu:
        numbers["cpu_ms_per_turn"] = figures.cpu * 1000 / max(1, sum(t.status == 200 for t in figures.turns))
        say(f"server CPU: {figures.cpu:.1f} s over the {figures.seconds:.0f} s "
            f"({figures.cpu / figures.seconds * 100:.0f}% of one core), {numbers['cpu_ms_per_turn']:.0f} ms per turn")
    if figures.rss_mib:
        say(f"memory: server RSS {figures.rss_mib:.0f} MiB (peak {figures.peak_mib:.0f} MiB) = "
            f"{numbers['rss_per_room_mib']:.1f} MiB per room")
    say(f"baseline (bare streamed request to the model, same run): {bare_ratio:.3f}x the model's own time; "
        f"a turn at the table: {table_ratio:.3f}x -- ratio {numbers['ratio']:.3f}")
    if figures.restarts:
        say(f"soak: {figures.restarts} kills and restarts; {figures.links} links checked after each")
    for turn in failed[:5]:
        say(f"  refused: {turn.room} {turn.mark} ({turn.member}) {turn.status}: {turn.error}")
    say("nothing lost, every turn whole" if not figures.problems else f"PROBLEMS ({len(figures.problems)}):")
    for problem in figures.problems[:40]:
        say(f"  {problem}")
    return numbers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=None, help="length of the run (60; --soak: 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--soak", action="store_true", help="kill and restart the server at random moments")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (its path is printed)")
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None else (300 if args.soak else 60)
    work = Path(tempfile.mkdtemp(prefix="lw-bench-load-"))
    try:
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
        figures = run(work, rooms=args.rooms, players=args.players, seconds=seconds, seed=args.seed, soak=args.soak)
        report(figures, rooms=args.rooms, seats=args.players + 1)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        return 1 if figures.problems else 0
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
