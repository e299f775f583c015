"""A table for players on other machines (issue 29): behind a reverse proxy with TLS the table
answers to its public address's host and accepts writes from its origin, nothing else; ``lw
serve`` refuses to listen beyond loopback without a public address, and an http one there
without ``--insecure-http``; the links it prints use the public address."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest
from panels_testkit import Server, fetch

from lw_panels.serve.table import Table, TurnSource

PUBLIC = "https://table.example.org"
LW = Path(sys.executable).parent / "lw"


def env_for(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"})
    return env


def test_the_public_name_is_answered_and_no_other(kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(deque()), seed=5)
    with Server(table, public_url=PUBLIC) as server:
        link = server.link("p1")
        assert fetch(link + "state", headers={"Host": "table.example.org"})[0] == 200
        assert fetch(link + "state", headers={"Host": "TABLE.example.org"})[0] == 200  # a host name has no case
        assert fetch(link)[0] == 200  # loopback still answers (the proxy's own requests)
        for name in ("evil.example", "table.example.org.evil.example", "example.org", "192.168.1.20",
                     "table.example.org:8443", "table.example.org:80"):  # the public name on another port too
            status, _, body = fetch(link, headers={"Host": name})
            assert status == 421 and b"does not answer" in body, name
        said = {"text": ".r 1d6"}
        ok = fetch(link + "say", data=said, headers={"Host": "table.example.org", "Origin": PUBLIC})
        assert ok[0] == 200, ok
        for origin in ("https://evil.example", "http://table.example.org", "https://table.example.org:8443"):
            status, _, _ = fetch(link + "say", data=said, headers={"Host": "table.example.org", "Origin": origin})
            assert status == 403, origin


@pytest.mark.parametrize("args,words", [
    (["--host", "0.0.0.0"], "give the address they open with --public-url"),
    (["--host", "0.0.0.0", "--public-url", "http://192.168.1.20:8765"], "seat links would travel in clear"),
    (["--public-url", "https://table.example.org/game"], "is not the address of a site"),
    (["--public-url", "https://user:pw@table.example.org"], "is not the address of a site"),
    (["--public-url", "ftp://table.example.org"], "is not the address of a site"),
    (["--host", "192.0.2.1", "--public-url", PUBLIC, "--port", "0"], "cannot listen on 192.0.2.1"),  # not this machine's
])
def test_lw_serve_refuses_an_unsafe_or_unusable_address(tmp_path: Path, table_room: Path, args: list[str],
                                                        words: str) -> None:
    done = subprocess.run([str(LW), "serve", str(table_room), *args], capture_output=True, text=True,
                          env=env_for(tmp_path), timeout=60)
    assert done.returncode == 1 and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "user:pw" not in done.stderr  # credentials never echoed


def test_lw_serve_prints_links_with_the_public_address(tmp_path: Path, table_room: Path) -> None:
    process = subprocess.Popen([str(LW), "serve", str(table_room), "--port", "0", "--public-url", PUBLIC],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_for(tmp_path))
    try:
        lines = [process.stdout.readline() for _ in range(5)]
        assert lines[0].startswith(f"{table_room.name}: the web table is on {PUBLIC}/ (listening on http://127.0.0.1:") \
            or f"the web table is on {PUBLIC}/ (listening on http://127.0.0.1:" in lines[0], lines
        links = re.findall(r"\((keeper|p1|p2)\): (\S+)", "".join(lines))
        assert {who for who, _ in links} == {"keeper", "p1", "p2"}
        assert all(link.startswith(f"{PUBLIC}/t/") for _, link in links), links
        # the server is stopped once it answers through the public name (Ctrl-C during uvicorn's start-up is
        # not what this test is about)
        local = re.search(r"listening on (http://127\.0\.0\.1:\d+)", lines[0])
        assert local, lines
        deadline = time.monotonic() + 60
        while True:
            try:
                status = fetch(local.group(1) + "/", headers={"Host": "table.example.org"})[0]
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.1)
        assert status != 421, status  # the public name is the server's own
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
