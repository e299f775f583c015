"""docs/hosting.md's Caddy recipe, tested (issue 29): the ``caddy`` block is read out of the
document, changed only where the document tells an operator to change it (their host name,
the table's port, ``tls internal`` for a name with no public certificate), and run by the real
``caddy`` in front of a real ``lw serve --public-url https://table.test:PORT``. Through the
proxy, over TLS checked against Caddy's own root certificate: a seat link becomes a session
with a ``Secure`` cookie, the page loads, a line played is applied, the event stream delivers
it at once (not held in a buffer), a write from a foreign origin is refused, and a closed
page leaves nothing open (Caddy stops at once while the table still runs; with
``flush_interval -1`` it would not: caddyserver/caddy#4952).

Everything listens on 127.0.0.1, on free high ports (``http_port``/``https_port``; never
:80 or :443); Caddy keeps its certificates under the test's own folder (``XDG_DATA_HOME``),
has no admin endpoint and installs no trust anywhere. Skipped only when ``caddy`` is not
installed (``apt-get install caddy``; ``.ci/run`` installs it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from panels_testkit import KEEPER_TEXTS, REPLIES, ROOT

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(CADDY is None, reason="caddy is not installed (apt-get install caddy; .ci/run installs it)")

HOSTING = ROOT / "docs" / "hosting.md"
NAME = "table.test"
"""The table's public name here: resolved to 127.0.0.1 by the test's transport, as DNS would."""
LW = Path(sys.executable).parent / "lw"
T = TypeVar("T")


def documented_recipe() -> str:
    """The Caddyfile of docs/hosting.md, exactly as an operator reads it (its one ``caddy``
    block, found by ``tools/readme.py``'s reader of fenced blocks)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import readme
    finally:
        sys.path.remove(str(ROOT / "tools"))
    found = [code for _, code in readme.blocks("caddy", HOSTING.read_text(encoding="utf-8"))]
    assert len(found) == 1, "docs/hosting.md should hold one ```caddy block (the tested recipe)"
    return found[0]


def operators_caddyfile(recipe: str, *, upstream: int, https_port: int, http_port: int) -> str:
    """``recipe`` with what docs/hosting.md tells an operator to change, and no more: the host
    name, the table's port, and a ``tls internal`` line (Caddy's own CA, for a name with no
    public certificate). Before it, this test's global options: Caddy on 127.0.0.1 and high
    ports, no admin endpoint, no root certificate installed in the system's trust store."""
    assert recipe.count("table.example.org {\n") == 1 and recipe.count("127.0.0.1:8765") == 1, recipe
    site = recipe.replace("table.example.org {\n", f"{NAME} {{\n\ttls internal\n").replace(
        "127.0.0.1:8765", f"127.0.0.1:{upstream}")
    options = (f"{{\n\tadmin off\n\tdefault_bind 127.0.0.1\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
               "\tskip_install_trust\n}\n\n")
    return options + site


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def until(what: str, attempt: Callable[[], T | None], alive: Callable[[], str | None], seconds: float = 60) -> T:
    """``attempt()`` again until it gives something; fails (saying ``what``) when ``alive()``
    says a process ended, or after ``seconds`` (a hang check, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while True:
        got = attempt()
        if got is not None:
            return got
        dead = alive()
        assert dead is None, f"{what}: {dead}"
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.1)


class ToLoopback(httpx.HTTPTransport):
    """``table.test`` is this machine: its requests go to 127.0.0.1, with the name left in the
    ``Host`` header and given to TLS (SNI, and the certificate is checked against it)."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != NAME:
            return super().handle_request(request)
        sent = httpx.Request(request.method, request.url.copy_with(host="127.0.0.1"), headers=request.headers,
                             stream=request.stream, extensions={**request.extensions, "sni_hostname": NAME})
        return super().handle_request(sent)  # the client's request (cookies are kept by it) names table.test


def stop(process: subprocess.Popen[Any], sig: int) -> None:
    """End ``process`` with ``sig`` (killed if it is still there 20 s later)."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def behind_caddy(tmp_path: Path, table_room: Path, pack: Path) -> Iterator[dict[str, Any]]:
    """``lw serve`` on 127.0.0.1 with its public address, docs/hosting.md's Caddy in front, and
    an httpx client that trusts Caddy's local CA: ``client``, ``stranger`` (another browser: no
    cookie), ``public`` (the public address), ``links`` (the printed seat links), ``caddy``."""
    assert CADDY is not None
    https_port = http_port = free_port()
    while http_port == https_port:
        http_port = free_port()
    public = f"https://{NAME}:{https_port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "home"), "LW_DEV_PACKS": str(pack), "PYTHONUNBUFFERED": "1"})
    table_err = (tmp_path / "lw-serve.err").open("w+", encoding="utf-8")
    table = subprocess.Popen([str(LW), "serve", str(table_room), "--host", "127.0.0.1", "--port", "0",
                              "--public-url", public, "--reply", str(REPLIES / "turn1.anthropic_messages.json"), "--seed", "5"],
                             stdout=subprocess.PIPE, stderr=table_err, text=True, env=env)
    caddy: subprocess.Popen[Any] | None = None
    caddy_log = tmp_path / "caddy.log"
    clients: list[httpx.Client] = []
    try:
        assert table.stdout is not None
        printed = []
        for line in table.stdout:  # lw serve prints its links, then this line
            printed.append(line)
            if line.startswith("Ctrl-C stops it."):
                break
        told = "".join(printed)
        listening = re.search(r"\(listening on http://127\.0\.0\.1:(\d+)\)", told)
        links = dict(re.findall(r"\((keeper|p1|p2)\): (\S+)", told))
        assert listening and set(links) == {"keeper", "p1", "p2"}, told
        assert all(link.startswith(f"{public}/t/") for link in links.values()), links

        config = tmp_path / "Caddyfile"
        config.write_text(operators_caddyfile(documented_recipe(), upstream=int(listening[1]),
                                              https_port=https_port, http_port=http_port), encoding="utf-8")
        caddy_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "caddy-home"),
                     "XDG_DATA_HOME": str(tmp_path / "caddy-data"), "XDG_CONFIG_HOME": str(tmp_path / "caddy-config")}
        with caddy_log.open("wb") as log:
            caddy = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                                     stdout=log, stderr=subprocess.STDOUT, env=caddy_env, cwd=tmp_path)

        def alive() -> str | None:
            for name, process in (("caddy", caddy), ("lw serve", table)):
                if process is not None and process.poll() is not None:
                    return f"{name} ended (exit {process.returncode}); caddy's log:\n" + caddy_log.read_text(
                        errors="replace")
            return None

        root = tmp_path / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        until("caddy made its local CA", lambda: root if root.is_file() and root.stat().st_size else None, alive)
        for _ in range(2):
            trusting = ToLoopback(verify=ssl.create_default_context(cafile=str(root)))
            clients.append(httpx.Client(transport=trusting, timeout=httpx.Timeout(30), trust_env=False))
        client, stranger = clients

        def answered() -> httpx.Response | None:
            try:
                return client.get(f"{public}/")
            except httpx.TransportError:  # not listening yet, or its certificate not issued yet
                return None
        first = until("caddy answered over TLS", answered, alive)
        assert first.status_code == 200 and b"Open the link of your seat" in first.content, first
        yield {"client": client, "stranger": stranger, "public": public, "links": links, "caddy": caddy}
    finally:
        for each in clients:
            each.close()
        if caddy is not None:
            stop(caddy, signal.SIGTERM)
        stop(table, signal.SIGINT)
        if table.stdout is not None:
            table.stdout.close()
        table_err.seek(0)
        errors = table_err.read()
        table_err.close()
    assert "Traceback" not in errors and "ERROR" not in errors, errors


def join(client: httpx.Client, link: str) -> str:
    """Open a seat's link through the proxy as a browser does: a session cookie and a move to
    the seat's page, whose path is returned."""
    opened = client.get(link)
    assert opened.status_code == 303, (opened, opened.text)
    where = opened.headers["location"]
    assert re.fullmatch(r"/s/[\w-]+/", where), where  # the token has left the address
    cookie = opened.headers["set-cookie"].lower()
    for flag in ("secure", "httponly", "samesite=strict", f"path={where}"):
        assert flag in cookie, cookie  # Secure: the table knows it is reached over https
    return where


def test_the_documented_caddy_recipe_carries_a_whole_session(behind_caddy: dict[str, Any]) -> None:
    client: httpx.Client = behind_caddy["client"]
    public: str = behind_caddy["public"]
    links: dict[str, str] = behind_caddy["links"]
    origin = {"Origin": public}  # what a browser sends with a write from the table's own page
    p1 = join(client, links["p1"])
    p2 = join(client, links["p2"])

    page = client.get(f"{public}{p2}")
    assert page.status_code == 200 and "The harbour" in page.text, page.text[:400]
    assert "script-src 'sha256-" in page.headers["content-security-policy"]
    assert not [s for s in KEEPER_TEXTS if s in page.text]
    assert behind_caddy["stranger"].get(f"{public}{p2}").status_code == 401  # no cookie: no seat

    refused = client.post(f"{public}{p1}say", json={"text": "我去码头查看那艘空船。"},
                          headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and "foreign origin" in refused.text, refused.text
    assert client.post(f"{public}{p1}say", json={"text": "我去码头查看那艘空船。"},
                       headers={"Origin": f"https://{NAME}"}).status_code == 403  # the name on another port
    assert json.loads(client.get(f"{public}{p2}state").text)["version"] == 0  # nothing was played

    with client.stream("GET", f"{public}{p2}events") as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        try:  # the first event is a few bytes: a proxy that buffers holds it back
            assert next(lines) == "retry: 1000" and next(lines) == "event: hello"
        except httpx.ReadTimeout:
            pytest.fail("the proxy holds the event stream back (buffered): the first event did not come")
        said = client.post(f"{public}{p1}say", json={"text": "我去码头查看那艘空船。"}, headers=origin,
                           timeout=httpx.Timeout(120))
        assert said.status_code == 200, said.text
        assert said.json()["version"] == 1
        update = None
        event = None
        for line in lines:  # up to the update after the turn (an earlier one says whose turn it is)
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "update":
                data = json.loads(line[6:])
                if "acted" not in data.get("status", ""):
                    update = data
                    break
    assert update is not None
    assert update["version"] == 1 and "我去码头查看那艘空船" in update["story"]
    assert "2/6" in update["panels"]  # the turn's change to a player-visible variable
    dumped = json.dumps(update, ensure_ascii=False)
    assert not [s for s in KEEPER_TEXTS if s in dumped]
    assert json.loads(client.get(f"{public}{p1}state").text)["version"] == 1  # applied, read back through the proxy

    # The page was closed: the proxy holds nothing open for it (its stream to the table ended
    # with it), so it stops at once while the table still runs.
    caddy: subprocess.Popen[Any] = behind_caddy["caddy"]
    caddy.send_signal(signal.SIGTERM)
    try:
        caddy.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("caddy did not stop within 10 s: a closed page's event stream is still held open to the table "
                    "(flush_interval -1 does that since Caddy 2.6: caddyserver/caddy#4952)")
