"""The web table's loose ends (issue 29): what a seat's page and ``lw seat`` say reads in the
reader's language (the seat's, the shell's) and quotes no server path; a seat added from the
page whose link cannot be made is not added at all; updates name frame keys from the invites'
index; a join does not read back the sessions it wrote."""

from __future__ import annotations

import http.cookiejar
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from panels_testkit import Server, fetch, load

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="lw serve needs the serve extra (starlette, uvicorn)")

from lw_panels.messages import MESSAGES  # noqa: E402
from lw_panels.serve.invites import INVITES  # noqa: E402
from lw_panels.serve.sessions import SESSIONS  # noqa: E402
from lw_panels.serve.table import Table, TurnSource  # noqa: E402

LW = Path(sys.executable).parent / "lw"
ZH, EN = MESSAGES.bind("zh"), MESSAGES.bind("en")


def seeds(member: str) -> str:
    return f"seat-{member}-0123456789abcdef"


def lw(tmp_path: Path, *args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LW_", "LC_"))}
    env.update({"LW_HOME": str(tmp_path / "data"), "LANG": lang, "LW_I18N_STRICT": "1"})
    return subprocess.run([str(LW), *args], capture_output=True, text=True, env=env, timeout=120)


def manage(server: Server, jar: http.cookiejar.CookieJar, data: dict) -> tuple[int, dict]:
    status, _, body = fetch(f"{server.origin}/s/kp/seats", data=data, jar=jar, headers={"Origin": server.origin})
    return status, json.loads(body)


def test_the_keepers_seat_refusals_read_in_the_keepers_language(kernel, table_room: Path) -> None:  # noqa: ANN001
    """The example room's keeper reads Chinese: every refusal of New link / Revoke / Add a seat
    is the catalogue's Chinese, not an English sentence of the code's."""
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        keeper = http.cookiejar.CookieJar()
        assert fetch(server.link("kp"), jar=keeper)[0] == 200
        room = load(kernel, table_room).file.id
        for data, said in (({"action": "add", "name": "Alex"}, ZH("serve.seat_taken", room=room, name="Alex")),
                           ({"action": "add", "name": ""}, ZH("serve.seat_name_bad")),
                           ({"action": "add", "name": 5}, ZH("serve.seat_name_text")),
                           ({"action": "burn"}, ZH("serve.seat_action"))):
            status, answer = manage(server, keeper, data)
            assert status == 400 and answer["error"].startswith(said), (data, answer)
            assert not any(word in answer["error"] for word in ("must be", "printable", "already has")), answer
        status, _, body = fetch(server.link("p1") + "control", data={"action": "stop"})  # a player's page: Chinese too
        assert status == 403 and json.loads(body)["error"] == ZH("serve.controls_keeper_only")


def test_a_seats_lines_and_controls_are_refused_in_its_language(kernel, table_room: Path) -> None:  # noqa: ANN001
    """An empty line, a keeper's control that names no action or turn, and a turn with no model
    to play it: each refusal in the language of the seat that sent it (p1 and the keeper read
    Chinese, p2 English), a player's without the operator's business."""
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        for member, data, said in (("p1", {"text": "  "}, ZH("serve.say_empty")),
                                   ("p2", {"text": "  "}, EN("serve.say_empty")),
                                   ("p2", {"text": 5}, EN("serve.text_string")),
                                   ("p1", {"text": "我去码头。"}, ZH("serve.no_model_player")),
                                   ("kp", {"text": "雾更浓了。"}, ZH("serve.no_model"))):
            status, _, body = fetch(server.link(member) + "say", data=data)
            assert status in (400, 409) and json.loads(body)["error"] == said, (member, data, body)
        for data, said in (({"action": "burn"}, ZH("serve.control_action")),
                           ({"action": "rewind", "turn": "x"}, ZH("serve.control_number", key="turn")),
                           ({"action": "rewind"}, ZH("serve.control_which_turn")),
                           ({"action": "choose"}, ZH("serve.control_which_reply"))):
            status, _, body = fetch(server.link("kp") + "control", data=data)
            assert status == 400 and json.loads(body)["error"] == said, (data, body)


def test_the_503_pages_read_in_the_seats_language_without_a_server_path(kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        jars = {m: http.cookiejar.CookieJar() for m in ("p1", "p2")}
        for member, jar in jars.items():
            assert fetch(server.link(member), jar=jar)[0] == 200
        good = (table_room / "room.yaml").read_text(encoding="utf-8")
        (table_room / "room.yaml").write_text("format: [", encoding="utf-8")  # the room cannot be read
        for member, t in (("p1", ZH), ("p2", EN)):
            status, _, body = fetch(f"{server.origin}/s/{member}/", jar=jars[member])
            page = body.decode("utf-8")
            assert status == 503 and t("serve.room_unreadable") in page and str(table_room) not in page, page
        (table_room / "room.yaml").write_text(good, encoding="utf-8")
        (table_room / SESSIONS).write_text("[", encoding="utf-8")  # a session cannot be opened now
        for member, t in (("p1", ZH), ("p2", EN)):
            status, _, body = fetch(server.link(member), headers={"Accept-Language": "fr"})
            page = body.decode("utf-8")
            assert status == 503 and t("serve.no_page_now") in page and str(table_room) not in page, page


def test_lw_seat_speaks_the_shells_language(tmp_path: Path, table_room: Path) -> None:
    listed = lw(tmp_path, "seat", "list", str(table_room), lang="zh_CN.UTF-8")
    assert listed.returncode == 0 and f"p1\t林晓\t{ZH('seat.player')}\t{ZH('seat.no_link')}" in listed.stdout, listed
    added = lw(tmp_path, "seat", "add", str(table_room), "Mei", "--locale", "en", lang="zh_CN.UTF-8")
    assert added.returncode == 0 and ZH("seat.added") in added.stdout, added
    taken = lw(tmp_path, "seat", "add", str(table_room), "Mei", lang="zh_CN.UTF-8")
    assert taken.returncode == 1 and ZH("serve.seat_taken", room="fog-harbor", name="Mei") in taken.stderr, taken
    assert taken.stderr.startswith("错误：") and "error" not in taken.stderr, taken  # the prefix in the same language
    bad = lw(tmp_path, "seat", "add", str(table_room), "Zed", "--id", "../x")
    assert bad.returncode == 1 and EN("serve.seat_id_bad") in bad.stderr and "Traceback" not in bad.stderr, bad
    assert bad.stderr.startswith("error: ") and "(expected --id p5)" in bad.stderr, bad
    bad = lw(tmp_path, "seat", "add", str(table_room), "Zed", "--id", "../x", lang="zh_CN.UTF-8")
    assert bad.stderr.startswith("错误：") and "（应为：--id p5）" in bad.stderr and "expected" not in bad.stderr, bad


def test_a_seat_whose_link_cannot_be_made_is_not_added(tmp_path: Path, kernel, table_room: Path) -> None:  # noqa: ANN001
    """The invite store cannot be written (its lock cannot be taken: here a folder stands where
    the lock file goes): adding a seat from the keeper's page, or with ``lw seat add``, leaves
    the room as it was -- no member without a link -- and says so without a server path; once
    the store can be written the same name is added."""
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    before = [m.id for m in load(kernel, table_room).members]
    with Server(table) as server:
        keeper = http.cookiejar.CookieJar()
        assert fetch(server.link("kp"), jar=keeper)[0] == 200
        lock = table_room / ".lw" / "invites"
        lock.unlink()  # the lock file the table made, replaced by a folder
        lock.mkdir()
        status, answer = manage(server, keeper, {"action": "add", "name": "Mei"})
        assert status == 503 and answer["error"] == ZH("serve.seat_not_added", name="Mei"), answer
        assert [m.id for m in load(kernel, table_room).members] == before
        done = lw(tmp_path, "seat", "add", str(table_room), "Mei")
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert [m.id for m in load(kernel, table_room).members] == before
        lock.rmdir()
        status, answer = manage(server, keeper, {"action": "add", "name": "Mei"})
        assert status == 200 and answer["link"], answer
        assert fetch(answer["link"])[0] == 200
        assert [m.id for m in load(kernel, table_room).members] == [*before, "p3"]
        assert "p3" in (table_room / INVITES).read_text(encoding="utf-8")


def test_pages_and_updates_name_frame_keys_from_the_index_without_copying_the_links(kernel, table_room: Path) -> None:  # noqa: ANN001
    """A seat's page and its updates (every update is built per listening seat) name the seat's
    frame key from the index built once per reading of the invite store: no copy of every link
    a seat (``Invites.current``); the key named opens the seat's frame, and after a rotation
    the new key does and the old one no longer."""
    import re

    from lw_panels.serve.invites import Invites

    copies: list[int] = []

    class Counted(Invites):
        def current(self) -> dict[str, str | None]:
            copies.append(1)
            return super().current()

    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    table.invites = Counted(table_room, make=lambda member: f"seat-{member}-again-0123456789")
    with Server(table) as server:
        jar = http.cookiejar.CookieJar()
        status, _, body = fetch(server.link("p1"), jar=jar)
        key = re.findall(r'src="/f/([0-9a-f]{64})/harbor-ui/map/', body.decode("utf-8"))[0]
        assert status == 200 and fetch(f"{server.origin}/s/p1/state", jar=jar)[0] == 200
        assert fetch(server.link("p2") + "state")[0] == 200
        status, _, body = fetch(server.link("p1") + "say", data={"text": ".r 1d6"})
        assert status == 200, body
        assert copies == [], len(copies)
        frame = f"{server.origin}/f/{key}/harbor-ui/map/index.html"
        assert fetch(frame)[0] == 200
        table.invites.issue("p1")
        status, _, body = fetch(f"{server.origin}/t/seat-p1-again-0123456789/")
        new = re.findall(r'src="/f/([0-9a-f]{64})/harbor-ui/map/', body.decode("utf-8"))[0]
        assert new != key and fetch(frame)[0] == 404
        assert fetch(f"{server.origin}/f/{new}/harbor-ui/map/index.html")[0] == 200


def test_a_join_does_not_read_back_the_sessions_it_wrote(kernel, table_room: Path, monkeypatch) -> None:  # noqa: ANN001
    """Opening a link writes the sessions file (atomically, whole); the seat's next requests use
    what was written -- the file is not read and parsed again -- while a change made by another
    process (``lw seat``'s tidying, another server) is still read at the next request."""
    from lw_panels.serve.sessions import Sessions

    parsed: list[int] = []
    parse = Sessions._parse

    def counted(self: Sessions, data: object) -> object:
        parsed.append(1)
        return parse(self, data)

    monkeypatch.setattr(Sessions, "_parse", counted)
    table = Table(kernel, table_room, TurnSource(), seed=5, token=seeds)
    with Server(table) as server:
        first = http.cookiejar.CookieJar()
        assert fetch(server.link("p1"), jar=first)[0] == 200
        parsed.clear()
        for member in ("p1", "p2", "kp"):
            jar = http.cookiejar.CookieJar()
            assert fetch(server.link(member), jar=jar)[0] == 200  # a session made, then its page
            assert fetch(f"{server.origin}/s/{member}/state", jar=jar)[0] == 200
        assert parsed == [], len(parsed)
        Sessions(table_room).forget("p1")  # another process ends p1's sessions
        assert fetch(f"{server.origin}/s/p1/state", jar=first)[0] == 401
