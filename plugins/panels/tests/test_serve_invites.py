"""Seat links that last (issue 29): kept hashed in the room's folder, exchanged for a session
cookie on the first visit, rotated, revoked and added with ``lw seat`` -- on a running table
too; a renamed room keeps its links and a new room under the old name never gets them; a
seat acting too fast is told to wait (an injected clock)."""

from __future__ import annotations

import html
import http.client
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from panels_testkit import Server, copy_room, fetch, load, recorded

from lw_panels.serve.invites import INVITES, Invites, token_hash
from lw_panels.serve.table import Table, TurnSource
from lwcore.errors import LwError

LW = Path(sys.executable).parent / "lw"


def seeds(member: str) -> str:
    return f"seat-{member}-0123456789abcdef"


def raw(url: str, *, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One GET, redirects not followed (every ``Set-Cookie`` joined by newlines)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", parts.path, headers=headers or {})
        response = conn.getresponse()
        heads = {k.lower(): v for k, v in response.getheaders()}
        heads["set-cookie"] = "\n".join(v for k, v in response.getheaders() if k.lower() == "set-cookie")
        return response.status, heads, response.read()
    finally:
        conn.close()


def lw(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "data")})  # the data dir
    return subprocess.run([str(LW), *args], capture_output=True, text=True, env=env, timeout=120)


def test_a_link_becomes_a_session_and_leaves_the_address_bar(kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(deque([recorded()])), seed=5, token=seeds)
    with Server(table) as server:
        link = server.link("p1")
        status, headers, _ = raw(link)
        assert status == 303 and headers["location"] == "/s/p1/"  # on to a page whose address has no token
        cookie = headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
        assert "Path=/s/p1/" in cookie and "Secure" not in cookie  # loopback http: no Secure
        assert headers["referrer-policy"] == "no-referrer"
        jar = http.cookiejar.CookieJar()
        status, headers, body = fetch(link, jar=jar)
        page = body.decode("utf-8")
        assert status == 200 and 'data-base="/s/p1/"' in page and seeds("p1") not in page
        assert headers["referrer-policy"] == "no-referrer"
        own = f"{server.origin}/s/p1/"
        status, _, body = fetch(own + "state", jar=jar)
        assert status == 200 and "version" in json.loads(body)
        told = fetch(own + "say", data={"text": ".r 1d6"}, jar=jar, headers={"Origin": server.origin})
        assert told[0] == 200, told
        assert fetch(own + "say", data={"text": ".r 1d6"}, jar=jar, headers={"Origin": "http://evil.example"})[0] == 403
        # no cookie, or another seat's path: no page
        assert fetch(own)[0] == 401 and fetch(own + "state")[0] == 401
        sid = next(c.value for c in jar)
        assert fetch(f"{server.origin}/s/p2/state", headers={"Cookie": f"lw_seat={sid}"})[0] == 401
        assert fetch(f"{server.origin}/t/{'x' * 43}/")[0] == 404
        # the page's frames are under a key, not the link (a sandboxed frame sends no cookie)
        frames = re.findall(r'src="(/f/[0-9a-f]{64}/)harbor-ui/map/', page)
        assert frames, page
        status, headers, _ = fetch(server.origin + frames[0] + "harbor-ui/map/index.html")
        assert status == 200 and f"script-src {server.origin}{frames[0]}harbor-ui/map/" in headers["content-security-policy"]
        assert fetch(server.origin + frames[0] + "harbor-ui/board/index.html")[0] == 404  # the keeper's panel


def test_a_wrong_frame_key_costs_one_lookup_not_a_digest_a_seat(kernel, table_room: Path, monkeypatch) -> None:  # noqa: ANN001
    """A frame key is looked up in an index built once per reading of the invite store: a
    flood of wrong keys (no seat, so before any rate limit) computes no digest at all, however
    many seats the room has; a revoked link's frames still stop working at once."""
    import hmac

    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    table.invites.ensure(f"ghost{n}" for n in range(500))  # a room of many seats (one write)
    digests = [0]
    real = hmac.new

    def counted(*args: Any, **kw: Any) -> Any:
        digests[0] += 1
        return real(*args, **kw)
    monkeypatch.setattr(hmac, "new", counted)
    with Server(table) as server:
        page = fetch(server.link("p1"))[2].decode("utf-8")
        key = re.findall(r'src="/f/([0-9a-f]{64})/harbor-ui/map/', page)[0]
        frame = f"{server.origin}/f/{key}/harbor-ui/map/index.html"
        assert fetch(frame)[0] == 200
        digests[0] = 0
        for n in range(20):
            wrong = f"{server.origin}/f/{n:064x}/harbor-ui/map/index.html"
            status, _, body = fetch(wrong)
            assert status == 404 and b"no such panel" in body
        assert fetch(frame)[0] == 200
        assert digests[0] == 0, digests  # was one a seat a request (503 seats: 10 000 for these 20)
        table.invites.revoke("p1")  # a revoked link: its frames go with it, the index follows the store
        assert fetch(frame)[0] == 404
        assert digests[0] <= 503, digests  # the index built once again for the new store


def test_links_are_kept_hashed_and_survive_a_restart(kernel, table_room: Path) -> None:  # noqa: ANN001
    first = Table(kernel, table_room, TurnSource(), seed=5)
    links = dict(first.fresh)
    assert set(links) == {"kp", "p1", "p2"}
    stored = (table_room / INVITES).read_text(encoding="utf-8")
    assert all(token not in stored and token_hash(token) in stored for token in links.values())
    again = Table(kernel, table_room, TurnSource(), seed=5)  # a restart: no new links, none shown
    assert again.fresh == {}
    assert [link for _, link in again.links("http://127.0.0.1:1")] == [None, None, None]
    with Server(again) as server:
        assert fetch(f"{server.origin}/t/{links['p2']}/")[0] == 200
        assert fetch(f"{server.origin}/t/{links['p2']}/state")[0] == 200


def read_events(url: str, headers: dict[str, str], found: list[str], done: threading.Event) -> None:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", parts.path, headers=headers)
        response = conn.getresponse()
        found.append(str(response.status))
        while line := response.readline():
            found.append(line.decode("utf-8").strip())
    except OSError as exc:
        found.append(f"error {exc}")
    finally:
        conn.close()
        done.set()


def test_rotate_revoke_and_add_on_a_running_table(tmp_path: Path, kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        jar = http.cookiejar.CookieJar()
        assert fetch(server.link("p1"), jar=jar)[0] == 200
        sid = next(c.value for c in jar)
        found: list[str] = []
        ended = threading.Event()
        threading.Thread(target=read_events, args=(f"{server.origin}/s/p1/events", {"Cookie": f"lw_seat={sid}"},
                                                   found, ended), daemon=True).start()
        listed = lw(tmp_path, "seat", "list", str(table_room))
        assert listed.returncode == 0 and re.search(r"(?m)^p1\t林晓\tplayer\tlink made$", listed.stdout), listed
        assert seeds("p1") not in listed.stdout

        rotated = lw(tmp_path, "seat", "rotate", str(table_room), "p1", "--url", server.origin)
        assert rotated.returncode == 0, rotated.stderr
        new = re.search(r"\(p1\): (http://127\.0\.0\.1:\d+/t/\S+/)", rotated.stdout).group(1)  # type: ignore[union-attr]
        assert fetch(server.link("p1"))[0] == 404  # the old link is dead ...
        assert fetch(f"{server.origin}/s/p1/state", jar=jar)[0] == 401  # ... and its session
        status, _, body = fetch(f"{server.origin}/s/p1/", jar=jar)  # the page says what to do next
        # in the language of p1's page (the room's, Chinese), a sentence ended once
        assert status == 401 and "<p>这个页面的会话已结束：" in body.decode("utf-8"), body
        assert body.decode("utf-8").endswith("请向守秘人要你座位的链接）。</p>"), body
        assert ended.wait(10) and found[0] == "200"  # and its open event stream, within a second or so
        assert fetch(new)[0] == 200

        revoked = lw(tmp_path, "seat", "revoke", str(table_room), "Alex")  # by name
        assert revoked.returncode == 0 and "link revoked" in revoked.stdout
        assert fetch(server.link("p2") + "state")[0] == 404
        assert "p2\tAlex\tplayer\trevoked" in lw(tmp_path, "seat", "list", str(table_room)).stdout

        added = lw(tmp_path, "seat", "add", str(table_room), "Mei", "--locale", "en", "--url", server.origin)
        assert added.returncode == 0, added.stderr
        link = re.search(r"Mei \(p3\): (http://127\.0\.0\.1:\d+/t/\S+/)", added.stdout).group(1)  # type: ignore[union-attr]
        mei = http.cookiejar.CookieJar()
        assert fetch(link, jar=mei)[0] == 200  # the running table knows the new seat
        own = f"{server.origin}/s/p3/"
        listing = json.loads(fetch(own + "say", data={"text": ".pc list"}, jar=mei)[2])["text"]
        assert "阿潮" in listing
        status, _, body = fetch(own + "say", data={"text": ".pc claim 阿潮"}, jar=mei)
        assert status == 200 and "阿潮" in json.loads(body)["text"]
        status, _, body = fetch(server.link("kp") + "say", data={"text": ".pc claim 1"})
        assert status == 422 and "keeper claims no pregen" in json.loads(body)["error"]  # the room's own rules

        for args, words in ((("rotate", str(table_room), "nobody"), "no member 'nobody'"),
                            (("add", str(table_room), "Alex"), "already has a member"),
                            (("add", str(table_room), "Zed", "--id", "../x"), "--id is 1 to 32")):
            done = lw(tmp_path, "seat", *args)
            assert done.returncode == 1 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_broken_invites_file_is_refused_located(tmp_path: Path, kernel, table_room: Path) -> None:  # noqa: ANN001
    (table_room / ".lw").mkdir(exist_ok=True)
    (table_room / INVITES).write_text('{"format": 1, "seats": {"p1": "not a hash"}}', encoding="utf-8")
    with pytest.raises(LwError, match="not what lw serve writes"):
        Table(kernel, table_room, TurnSource(), seed=5)
    (table_room / INVITES).unlink()
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        (table_room / INVITES).write_text("[", encoding="utf-8")  # broken while the table runs
        status, _, body = fetch(server.link("p1") + "state")
        assert status == 503 and b"cannot be read right now" in body and str(table_room).encode() not in body
    (table_room / INVITES).unlink()
    os.mkfifo(table_room / INVITES)  # a FIFO is not a file: refused, never waited on
    done = lw(tmp_path, "seat", "list", str(table_room))
    assert done.returncode == 1 and "Traceback" not in done.stderr and "invites.json" in done.stderr


def test_a_renamed_room_keeps_its_links_and_a_new_room_never_gets_them(tmp_path: Path, kernel, data_dir: Path,
                                                                      pack: Path) -> None:  # noqa: ANN001
    from lwcore.rooms import rename_room, rooms_root

    rooms = rooms_root(data_dir)
    served = copy_room(rooms / "fog")
    table = Table(kernel, served, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        with pytest.raises(LwError, match="open in a running process"):
            rename_room(data_dir, "fog", "fog-old")  # refused while it is served
        assert (rooms / "fog").is_dir()
        # moved from under the table anyway (by hand), and a new room made under the old name
        os.rename(rooms / "fog", rooms / "fog-old")
        copy_room(rooms / "fog")
        Table(kernel, rooms / "fog", TurnSource(), seed=5, token=lambda m: f"new-{m}-0123456789")
        for member in ("p1", "kp"):
            status, _, body = fetch(server.link(member))
            assert status == 410 and b"moved or renamed" in body, body
        assert fetch(f"{server.origin}/t/new-p1-0123456789/state")[0] == 410  # not the new room's either
    rename_room(data_dir, "fog-old", "fog-renamed")  # no server: allowed
    with Server(Table(kernel, rooms / "fog-renamed", TurnSource(), seed=5)) as server:
        assert fetch(f"{server.origin}/t/{seeds('p1')}/state")[0] == 200
    with Server(Table(kernel, rooms / "fog", TurnSource(), seed=5)) as server:
        assert fetch(f"{server.origin}/t/{seeds('p1')}/state")[0] == 404  # the old name's new room: not its links


PUBLIC = "https://table.example.org"


@pytest.mark.parametrize("public_url", ["https://table.example.org:443", "https://TABLE.example.org/"])
def test_a_default_port_is_the_same_origin(kernel, table_room: Path, public_url: str) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table, public_url=public_url) as server:
        said = {"text": ".r 1d6"}
        for host in ("table.example.org", "table.example.org:443"):
            for origin in (PUBLIC, "https://table.example.org:443"):
                status = fetch(server.link("p1") + "say", data=said, headers={"Host": host, "Origin": origin})[0]
                assert status == 200, (host, origin)
        for host, origin in (("table.example.org:8443", "http://table.example.org:8443"),
                             ("table.example.org:80", "http://table.example.org")):
            assert fetch(server.link("p1") + "say", data=said, headers={"Host": host, "Origin": origin})[0] == 421
        status, headers, _ = raw(server.link("p1"), headers={"Host": "table.example.org"})
        assert status == 303 and "Secure" in headers["set-cookie"]  # the browser is on https


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_acting_too_fast_is_told_to_wait(kernel, table_room: Path) -> None:  # noqa: ANN001
    clock = Clock()
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table, acts_per_minute=2, clock=clock) as server:
        say = server.link("p2") + "say"
        assert fetch(say, data={"text": ".r 1d6"})[0] == 200
        assert fetch(server.link("p2") + "intent", data={"panel": "harbor-ui/map", "kind": "roll",
                                                         "value": "1d6"})[0] == 200
        status, headers, body = fetch(say, data={"text": ".r 1d6"})
        told = json.loads(body)
        assert status == 429 and headers["retry-after"] == "30" and told["code"] == "too_fast"
        assert "wait 30 s" in told["error"]  # p2 reads English
        status, _, body = fetch(server.link("p1") + "say", data={"text": ".r 1d6"})
        assert status == 200  # another seat is not held back
        assert fetch(server.link("p2") + "state")[0] == 200  # reading never is
        clock.now += 29.0
        assert fetch(say, data={"text": ".r 1d6"})[0] == 429
        clock.now += 1.0
        assert fetch(say, data={"text": ".r 1d6"})[0] == 200
        for _ in range(2):
            fetch(server.link("p1") + "say", data={"text": ".r 1d6"})
        status, _, body = fetch(server.link("p1") + "say", data={"text": ".r 1d6"})
        assert status == 429 and "秒" in json.loads(body)["error"]  # p1 reads Chinese


def test_lw_serve_shows_a_link_once(tmp_path: Path, table_room: Path) -> None:
    def started(room: str = str(table_room)) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
        env.update({"LW_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"})
        process = subprocess.Popen([str(LW), "serve", room, "--port", "0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        try:
            return "".join(process.stdout.readline() for _ in range(4))  # type: ignore[union-attr]
        finally:
            process.terminate()
            process.communicate(timeout=20)

    first = started()
    assert len(re.findall(r"/t/\S+/", first)) == 3, first
    second = started()
    assert not re.findall(r"/t/\S+/", second) and f"lw seat rotate {table_room} p1" in second, second


def test_a_restarted_table_says_how_to_make_each_seat_a_link_it_answers(tmp_path: Path, table_room: Path) -> None:
    """The hint of a restart names the room as the operator does (its name in the data dir),
    gives the address the table is served at (``--url``: this one is on another port than
    ``lw seat``'s default), and says a revoked seat is revoked, not "sent earlier"."""
    shutil.copytree(table_room, tmp_path / "data" / "rooms" / "fog")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"})

    def started() -> str:
        process = subprocess.Popen([str(LW), "serve", "fog", "--port", "0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        try:
            return "".join(process.stdout.readline() for _ in range(4))  # type: ignore[union-attr]
        finally:
            process.terminate()
            process.communicate(timeout=20)

    started()
    assert lw(tmp_path, "seat", "revoke", "fog", "p2").returncode == 0
    second = started()
    origin = re.search(r"the web table is on (http://127\.0\.0\.1:\d+)/", second)
    assert origin, second
    p1 = re.search(r"\(p1\): the link sent earlier \(a new one: (lw seat rotate fog p1 --url (\S+))\)", second)
    assert p1 and p1.group(2) == origin.group(1), second
    assert f"(p2): link revoked (a new one: lw seat rotate fog p2 --url {origin.group(1)})" in second, second
    rotated = lw(tmp_path, *p1.group(1).split()[1:])  # the hint as printed makes a link to this table
    assert rotated.returncode == 0 and f"(p1): {origin.group(1)}/t/" in rotated.stdout, rotated



# --- several rooms on one server ---------------------------------------------------------------


def test_one_server_for_several_rooms(tmp_path: Path, kernel, table_room: Path) -> None:  # noqa: ANN001
    from panels_testkit import KEEPER_TEXTS
    from provider_servers import ProviderServer, Reply

    from lw_panels.serve.app import create_site
    from lwcore.turn.connection import LiveRequest

    other = copy_room(tmp_path / "quiet")
    with ProviderServer("chat_completions", [Reply("钟声从雾里传来。")], first_token_delay=30) as provider:
        live = LiveRequest(endpoint=provider.url, model="m", protocol="chat_completions")
        busy = Table(kernel, table_room, TurnSource(live=live), seed=5, token=seeds)
        quiet = Table(kernel, other, TurnSource(), seed=5, token=lambda m: f"quiet-{m}-0123456789")
        site = create_site({"/r/busy": busy, "/r/quiet": quiet}, operator="operator-0123456789")
        with Server(busy, app=site) as server:
            origin = server.origin
            busy_link = f"{origin}/r/busy/t/{seeds('p1')}/"
            status, headers, _ = raw(busy_link)
            assert status == 303 and headers["location"] == "/r/busy/s/p1/" and "Path=/r/busy/s/p1/" in headers["set-cookie"]
            jar = http.cookiejar.CookieJar()
            status, _, body = fetch(busy_link, jar=jar)
            assert status == 200 and 'data-base="/r/busy/s/p1/"' in body.decode("utf-8")
            assert fetch(f"{origin}/r/quiet/t/{seeds('p1')}/state")[0] == 404  # one room's link is not another's
            # a link printed when its room was served alone is sent on to the room's path here
            status, headers, _ = raw(f"{origin}/t/{seeds('p1')}/")
            assert status == 307 and headers["location"] == f"/r/busy/t/{seeds('p1')}/", (status, headers)
            status, headers, _ = raw(f"{origin}/t/quiet-p2-0123456789/state")
            assert status == 307 and headers["location"] == "/r/quiet/t/quiet-p2-0123456789/state"
            assert fetch(f"{origin}/t/{seeds('p1')}/state")[0] == 200
            assert raw(f"{origin}/t/seat-p9-0123456789abcdef/")[0] == 404  # a link of no room here

            answer: dict[str, Any] = {}

            def say() -> None:
                answer["status"], _, _ = fetch(f"{origin}/r/busy/s/p1/say", data={"text": "我去码头。"}, jar=jar, timeout=60)

            thread = threading.Thread(target=say)
            thread.start()
            deadline = time.monotonic() + 20
            while not provider.requests:  # the busy room's turn is at the model, which does not answer yet
                assert time.monotonic() < deadline
                time.sleep(0.02)
            # the other room plays meanwhile: its turns do not queue behind another room's
            status, _, body = fetch(f"{origin}/r/quiet/t/quiet-p2-0123456789/say", data={"text": ".r 1d6"})
            assert status == 200 and "1d6" in json.loads(body)["text"]
            assert "status" not in answer  # the busy room's turn is still waiting on its model

            status, _, body = fetch(f"{origin}/o/operator-0123456789/")
            page = body.decode("utf-8")
            assert status == 200 and "/r/busy" in page and "/r/quiet" in page and "林晓 (p1, player)" in page
            assert "acting now: 林晓" in page and not [s for s in KEEPER_TEXTS if s in page]
            assert fetch(f"{origin}/o/nobody-0123456789/")[0] == 404

            stopped = fetch(f"{origin}/r/busy/t/{seeds('kp')}/control", data={"action": "stop"})
            assert stopped[0] == 200, stopped
            thread.join(30)
            assert answer["status"] != 200  # stopped: nothing of it was saved


def test_a_link_of_a_room_among_several_reaches_it_served_alone(kernel, table_room: Path) -> None:  # noqa: ANN001
    from lw_panels.serve.app import slug

    table = Table(kernel, table_room, TurnSource(deque([recorded()])), seed=5, token=seeds)
    with Server(table) as server:
        named = f"{server.origin}/r/{slug(table_room.name)}/t/{seeds('p1')}/"
        status, headers, _ = raw(named)
        assert status == 307 and headers["location"] == f"/t/{seeds('p1')}/", (status, headers)
        jar = http.cookiejar.CookieJar()
        status, _, body = fetch(named, jar=jar)
        assert status == 200 and 'data-base="/s/p1/"' in body.decode("utf-8")
        said = fetch(named + "say", data={"text": ".r 1d6"})  # a program's write: 307 keeps its method and body
        assert said[0] == 307 and said[1]["location"] == f"/t/{seeds('p1')}/say", said
        assert raw(f"{server.origin}/r/another-room/t/{seeds('p1')}/")[0] == 404  # not this room's name
        for wrong in (f"{server.origin}/t/seat-p9-0123456789abcdef/", f"{server.origin}/r/another-room/t/x/"):
            status, headers, body = raw(wrong)  # a person opened it: a page with their next step, not JSON
            assert status == 404 and headers["content-type"].startswith("text/html"), (status, headers)
            assert "ask the keeper for your seat&#x27;s link" in body.decode("utf-8"), body
            # no seat is known here, so the page reads in the browser's language
            for language, said in (("zh-CN,zh;q=0.9,en;q=0.8", "请向守秘人要你座位的链接"), ("fr, zh-TW;q=0.5", "请向守秘人"),
                                   ("de-DE", "ask the keeper"), ("x" * 5000, "ask the keeper")):
                status, _, body = raw(wrong, headers={"Accept-Language": language})
                assert status == 404 and said in html.unescape(body.decode("utf-8")), (language, body)
        assert Invites(table_room).revoke("p2")
        assert raw(f"{server.origin}/r/{slug(table_room.name)}/t/{seeds('p2')}/")[0] == 404  # revoked stays revoked


def test_lw_serve_several_rooms(tmp_path: Path, table_room: Path) -> None:
    rooms = tmp_path / "data" / "rooms"
    shutil.copytree(table_room, rooms / "fog")
    copy_room(rooms / "harbor")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"})
    process = subprocess.Popen([str(LW), "serve", "--all", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = "".join(process.stdout.readline() for _ in range(9))  # type: ignore[union-attr]
        operator = re.search(r"operator's page \(rooms and seats, this run only\): (http://127\.0\.0\.1:\d+/o/\S+/)",
                             lines)
        assert operator, lines
        links = re.findall(r"\((keeper|p1|p2)\): (http://127\.0\.0\.1:\d+/r/(fog|harbor)/t/\S+/)", lines)
        assert len(links) == 6, lines
        deadline = time.monotonic() + 30
        while True:  # the links are printed before the server listens
            try:
                assert fetch(operator.group(1))[0] == 200
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        moved = lw(tmp_path, "room", "rename", "fog", "fog2")
        assert moved.returncode == 1 and "open in a running process" in moved.stderr, moved.stderr
        rotated = lw(tmp_path, "seat", "rotate", "harbor", "p1", "--url", operator.group(1).split("/o/")[0] + "/r/harbor")
        link = re.search(r"\(p1\): (\S+)", rotated.stdout).group(1)  # type: ignore[union-attr]
        assert "/r/harbor/t/" in link and fetch(link + "state")[0] == 200
    finally:
        process.terminate()
        process.communicate(timeout=20)
    both = lw(tmp_path, "serve", "fog", "--all")
    assert both.returncode == 1 and "not both" in both.stderr


# --- the keeper's seats from the page ---------------------------------------------------------


def renewing() -> Any:
    """A maker of link tokens: :func:`seeds` for a seat's first link, a new one for each after."""
    made: dict[str, int] = {}

    def make(member: str) -> str:
        made[member] = made.get(member, 0) + 1
        return seeds(member) if made[member] == 1 else f"seat-{member}-again{made[member]}-0123456789"
    return make


def test_the_keeper_rotates_revokes_and_adds_seats_from_the_page(kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(), seed=5, token=renewing())
    with Server(table) as server:
        keeper, player = http.cookiejar.CookieJar(), http.cookiejar.CookieJar()
        status, _, body = fetch(server.link("kp"), jar=keeper)
        page = body.decode("utf-8")
        assert status == 200 and 'data-seat="rotate" data-member="p1"' in page
        assert 'data-member="kp"' in page and 'data-seat="rotate" data-member="kp"' not in page  # not their own
        status, _, body = fetch(server.link("p1"), jar=player)
        assert status == 200 and b"data-seat=" not in body  # a player never sees the controls
        origin = {"Origin": server.origin}
        # a player's session, and a player's link, are refused before the body is read
        for url, jar in ((f"{server.origin}/s/p1/seats", player), (server.link("p2") + "seats", None)):
            status, _, body = fetch(url, data={"action": "rotate", "member": "p2"}, jar=jar, headers=origin)
            assert status == 403 and json.loads(body)["code"] == "forbidden", body
        assert fetch(server.link("p2") + "state")[0] == 200  # nothing changed

        status, _, body = fetch(f"{server.origin}/s/kp/seats", data={"action": "rotate", "member": "p1"},
                                jar=keeper, headers=origin)
        answer = json.loads(body)
        assert status == 200 and "只在这里显示这一次" in answer["text"], answer  # the keeper reads Chinese
        new = answer["link"]
        assert new.startswith(f"{server.origin}/t/") and seeds("p1") not in new
        assert fetch(server.link("p1"))[0] == 404 and fetch(f"{server.origin}/s/p1/state", jar=player)[0] == 401
        assert fetch(new + "state")[0] == 200
        stored = (table_room / INVITES).read_text(encoding="utf-8")
        assert new.split("/t/")[1].strip("/") not in stored  # hashed on disk, as lw seat does
        status, _, body = fetch(f"{server.origin}/s/kp/state", jar=keeper)
        assert status == 200 and new.split("/t/")[1].strip("/") not in body.decode("utf-8")  # never in an update

        status, _, body = fetch(f"{server.origin}/s/kp/seats", data={"action": "revoke", "member": "p2"},
                                jar=keeper, headers=origin)
        assert status == 200 and "link" not in json.loads(body)
        assert fetch(server.link("p2") + "state")[0] == 404

        status, _, body = fetch(f"{server.origin}/s/kp/seats", data={"action": "add", "name": "Mei"},
                                jar=keeper, headers=origin)
        answer = json.loads(body)
        assert status == 200 and "Mei" in answer["text"] and answer["link"] != new, answer
        mei = http.cookiejar.CookieJar()
        status, _, body = fetch(answer["link"], jar=mei)
        assert status == 200 and 'data-base="/s/p3/"' in body.decode("utf-8")
        members = [m.id for m in load(kernel, table_room).members]
        assert "p3" in members

        for data, words in (({"action": "add", "name": "Alex"}, "已经有成员 Alex"),  # the keeper reads Chinese
                            ({"action": "add", "name": ""}, "1 到 80 个可打印字符"),
                            ({"action": "rotate", "member": "nobody"}, "没有这个座位"),
                            ({"action": "revoke", "member": "kp"}, "lw seat rotate"),
                            ({"action": "burn"}, "换新链接、吊销或添加座位")):
            status, _, body = fetch(f"{server.origin}/s/kp/seats", data=data, jar=keeper, headers=origin)
            assert status == 400 and words in json.loads(body)["error"], (data, body)
        listed = (table_room / INVITES).read_text(encoding="utf-8")
        assert '"p2": null' in listed


def test_players_without_a_character_claim_a_free_pregen_one_wins_a_race(kernel, table_room: Path) -> None:  # noqa: ANN001
    from lw_panels.serve.table import add_member

    for name in ("Mei", "Noor"):
        add_member(kernel, table_room, name, locale="en")
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        assert {"p3", "p4"} <= set(server.table.fresh)
        jars = {m: http.cookiejar.CookieJar() for m in ("p1", "p3", "p4")}
        pages = {m: fetch(server.link(m), jar=jar)[2].decode("utf-8") for m, jar in jars.items()}
        assert 'data-value=".pc claim 阿潮"' in pages["p3"] and 'data-value=".pc claim 阿潮"' in pages["p4"]
        assert "data-pregen" not in pages["p1"]  # p1 plays a character already
        state = json.loads(fetch(f"{server.origin}/s/p3/state", jar=jars["p3"])[2])
        assert "阿潮" in state["pregens"]

        answers: dict[str, tuple[int, dict[str, Any]]] = {}
        go = threading.Barrier(2)

        def claim(member: str) -> None:
            go.wait()
            status, _, body = fetch(f"{server.origin}/s/{member}/say", data={"text": ".pc claim 阿潮"},
                                    jar=jars[member], headers={"Origin": server.origin})
            answers[member] = (status, json.loads(body))

        racers = [threading.Thread(target=claim, args=(m,)) for m in ("p3", "p4")]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(60)
        statuses = sorted(status for status, _ in answers.values())
        assert statuses == [200, 409], answers
        winner = next(m for m, (status, _) in answers.items() if status == 200)
        loser = next(m for m in answers if m != winner)
        assert answers[loser][1]["code"] == "taken" and "taken" in answers[loser][1]["error"], answers
        room = load(kernel, table_room)
        assert room.member(winner).sheet and not room.member(loser).sheet
        won = json.loads(fetch(f"{server.origin}/s/{winner}/state", jar=jars[winner])[2])
        assert "阿潮" in won["sheet"] and won["pregens"] == ""
        lost = json.loads(fetch(f"{server.origin}/s/{loser}/state", jar=jars[loser])[2])
        assert lost["pregens"] == "" and lost["sheet"] == ""  # nothing free is left to claim


# --- sessions that outlive the server -----------------------------------------------------------


def test_sessions_are_kept_hashed_expire_and_end_with_their_link(kernel, table_room: Path) -> None:  # noqa: ANN001
    from lw_panels.serve.sessions import MAX_SESSIONS, SESSIONS, Sessions

    clock = Clock()
    table = Table(kernel, table_room, TurnSource(), seed=5, token=renewing())
    with Server(table, session_clock=clock) as server:
        jar = http.cookiejar.CookieJar()
        status, headers, _ = raw(server.link("p1"))
        assert status == 303 and "Max-Age=2592000" in headers["set-cookie"]  # the browser keeps it 30 days too
        assert fetch(server.link("p1"), jar=jar)[0] == 200
        sid = next(c.value for c in jar)
        stored = (table_room / SESSIONS).read_text(encoding="utf-8")
        assert sid not in stored and token_hash(sid) in stored  # the id is only in the cookie
        own = f"{server.origin}/s/p1/state"
        clock.now += 30 * 24 * 3600 - 1
        assert fetch(own, jar=jar)[0] == 200
        clock.now += 1
        assert fetch(own, jar=jar)[0] == 401  # expired
        assert fetch(server.link("p1"), jar=jar)[0] == 200  # the link makes a new one
        assert fetch(own, jar=jar)[0] == 200
        assert token_hash(sid) not in (table_room / SESSIONS).read_text(encoding="utf-8")  # the expired one is gone
        Invites(table_room).issue("p1")  # what lw seat rotate does
        assert fetch(own, jar=jar)[0] == 401
        assert '"p1"' not in (table_room / SESSIONS).read_text(encoding="utf-8")  # and it forgot them
        # a broken store: refused, located for the keeper's CLI, never a path in a player's answer
        mei = http.cookiejar.CookieJar()
        assert fetch(server.link("p2"), jar=mei)[0] == 200
        (table_room / SESSIONS).write_text('{"format": 1, "sessions": {"x": 1}}', encoding="utf-8")
        status, _, body = fetch(f"{server.origin}/s/p2/state", jar=mei)
        assert status == 503 and str(table_room).encode() not in body
    with pytest.raises(LwError, match="sessions file is not what lw serve writes") as caught:
        Sessions(table_room).get("anything")
    assert caught.value.file is not None and str(caught.value.file).endswith("sessions.json")
    entry = {"member": "p1", "invite": "0" * 64, "expires": 1e12}
    (table_room / SESSIONS).write_text(json.dumps({"format": 1, "sessions": {
        f"{n:064x}": entry for n in range(MAX_SESSIONS + 1)}}), encoding="utf-8")
    with pytest.raises(LwError, match="not what lw serve writes"):
        Sessions(table_room).get("anything")


def test_a_session_outlives_a_restart_of_lw_serve(tmp_path: Path, table_room: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env.update({"LW_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"})

    def serve() -> tuple[subprocess.Popen[str], str, str]:
        process = subprocess.Popen([str(LW), "serve", str(table_room), "--port", "0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        out = "".join(process.stdout.readline() for _ in range(4))  # type: ignore[union-attr]
        origin = re.search(r"the web table is on (http://127\.0\.0\.1:\d+)/", out)
        assert origin, out
        deadline = time.monotonic() + 30
        while True:  # the links are printed before the server listens
            try:
                fetch(origin.group(1) + "/")
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        return process, origin.group(1), out

    def stop(process: subprocess.Popen[str]) -> None:
        process.terminate()
        process.communicate(timeout=20)

    process, origin, out = serve()
    try:
        link = re.search(r"\(p1\): (http://\S+/t/\S+/)", out).group(1)  # type: ignore[union-attr]
        status, headers, _ = raw(link)
        assert status == 303
        cookie = headers["set-cookie"].split(";")[0]
        assert fetch(f"{origin}/s/p1/", headers={"Cookie": cookie})[0] == 200
    finally:
        stop(process)
    process, origin, _ = serve()  # a new process, a new port: the same cookie
    try:
        status, _, body = fetch(f"{origin}/s/p1/", headers={"Cookie": cookie})
        assert status == 200 and 'data-viewer="p1"' in body.decode("utf-8")
        assert fetch(f"{origin}/s/p1/state", headers={"Cookie": cookie})[0] == 200
        assert fetch(f"{origin}/s/p2/state", headers={"Cookie": cookie})[0] == 401  # still p1's only
        revoked = lw(tmp_path, "seat", "revoke", str(table_room), "p1")
        assert revoked.returncode == 0, revoked.stderr
        assert fetch(f"{origin}/s/p1/state", headers={"Cookie": cookie})[0] == 401  # revoking ends it, running
    finally:
        stop(process)


def test_the_stores_are_read_again_only_when_their_file_changed(tmp_path: Path) -> None:
    """A flood of wrong links costs a ``stat`` each, not a read: the file is parsed again only
    when it changed -- and then always, even to the same size within the same instant (an
    atomic write is a new file), so a revocation is never missed."""
    from lw_panels.serve.stores import FileCache
    from lwcore.io import atomic_write_text

    path = tmp_path / "store.json"
    parsed: list[Any] = []

    def parse(data: Any) -> Any:
        parsed.append(data)
        return data

    cache = FileCache(path, parse)
    assert cache.read() is None and parsed == [None]  # no file yet
    atomic_write_text(path, '{"a": 1}')
    for _ in range(100):
        assert cache.read() == {"a": 1}
    assert parsed == [None, {"a": 1}]
    stamp = os.stat(path)
    atomic_write_text(path, '{"a": 2}')  # same size ...
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # ... and the same time
    assert cache.read() == {"a": 2}
    path.unlink()
    assert cache.read() is None
    path.write_text("[", encoding="utf-8")
    for _ in range(2):  # a broken file is refused at every read, never a stale value
        with pytest.raises(LwError):
            cache.read()


def test_two_changes_in_one_tick_of_the_clock_are_seen(tmp_path: Path) -> None:
    """Attacker's A3: a store rewritten twice (two ``lw seat`` runs) between two of the server's
    reads. The second file reuses the first's freed inode (ext4 does, at once), a rotation keeps
    the size, and a filesystem whose timestamps are whole seconds gives both the same time: the
    server's cached key came back and it kept the old hashes -- a rotated or revoked link kept
    working. The cache holds the file it read open, so its inode is never another file's."""
    room = tmp_path / "room"
    (room / ".lw").mkdir(parents=True)
    served = Invites(room, make=lambda member: f"{member}-first-0123456789")
    served.ensure(["p1", "p2"])
    before = served.current()
    stamp = os.stat(room / INVITES)
    for n in range(2):
        Invites(room, make=lambda member, n=n: f"{member}-again{n}-0123456789").issue(f"p{n + 1}")  # lw seat rotate
    os.utime(room / INVITES, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # whole-second timestamps
    now = Invites(room).current()
    assert now != before
    assert served.current() == now
    assert served.member_of("p1-first-0123456789") is None and served.member_of("p1-again0-0123456789") == (
        "p1", token_hash("p1-again0-0123456789"))
