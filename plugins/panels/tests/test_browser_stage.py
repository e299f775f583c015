"""What the stage director staged, on the web table in a real Chromium (Playwright, loopback):
every seat gets the staged blocks in its own language -- a title card, a letter, the generated
picture, a sound cue it can play --, and no keeper-only text reaches a player's page or any
response it receives. Skipped only when no Chromium is installed (see test_browser.py)."""

from __future__ import annotations

import re

from pathlib import Path

import pytest
from panels_testkit import KEEPER_TEXTS, Server
from stage_testkit import KEEPER_SCENE, ImageServer, director_env, replies, reply, set_var, stage_room

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

from lw_panels.html import stage_html  # noqa: E402
from lw_panels.serve.table import Table, TurnSource  # noqa: E402
from lwcore.kernel import Kernel  # noqa: E402
from test_browser import FLAGS, chromium  # noqa: E402

pytestmark = pytest.mark.skipif(chromium() is None, reason="no Chromium on this machine (apt-get install chromium, "
                                                           "or set LW_CHROMIUM)")

LETTER = "妹妹：第三条水道是干的，别等我。——周衡"


@pytest.fixture
def staged(tmp_path: Path, room: Path):  # noqa: ANN201
    images = ImageServer()
    kernel = Kernel(data_dir=tmp_path / "data", env=director_env(images.url, budget=1))
    stage_room(kernel, room, tmp_path)
    table = Table(kernel, room, TurnSource(replies(reply(
        "你们推开礼拜堂的门，门缝里夹着一封信。", set_var("scene", "沉没的礼拜堂"), set_var("act", "第二幕"),
        set_var("artifact_letter", LETTER), set_var("keeper_scene", KEEPER_SCENE))), provider="anthropic_messages"),
        seed=5)
    table.act(next(s for s in table.seats.values() if s.member == "p1"), "推门。")
    assert [e["kind"] for e in table.staged] == ["image", "audio", "title_card", "letter"]
    with Server(table) as running:
        yield running
    images.close()


def test_every_seat_sees_the_staging_in_its_language_and_no_secret(staged: Server, tmp_path: Path) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        try:
            for member, cue in (("p1", "芦苇风声"), ("p2", "Wind in the reeds"), ("kp", "芦苇风声")):
                context = browser.new_context(viewport={"width": 1100, "height": 900})
                page = context.new_page()
                errors: list[str] = []
                bodies: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("response", lambda r: bodies.append(r.url + "\n" + _body(r)))
                page.goto(staged.link(member))
                stage = page.locator("#lw-stage")
                stage.locator(".stage.letter").wait_for(timeout=15000)
                text = stage.inner_text()
                assert "第二幕" in text and "沉没的礼拜堂" in text and LETTER in text and cue in text
                image = stage.locator("figure.stage img")
                # the generated picture is served by its hash (cached), never carried inside every update
                assert re.search(r"/asset/[0-9a-f]{64}$", image.get_attribute("src") or ""), image.get_attribute("src")
                page.wait_for_function("document.querySelector('figure.stage img').naturalWidth > 0", timeout=10000)
                assert not [b for b in bodies if "data:image/png;base64," in b]
                audio = stage.locator("audio")
                assert audio.get_attribute("data-layer") == "ambience"
                status = page.evaluate("fetch(document.querySelector('#lw-stage audio').src).then(r => r.status)")
                assert status == 200  # a seat can play the cue
                staged_html = stage.inner_html()
                assert KEEPER_SCENE not in staged_html and not [s for s in KEEPER_TEXTS if s in staged_html]
                if member != "kp":
                    dom = page.content()
                    assert KEEPER_SCENE not in dom and not [s for s in KEEPER_TEXTS if s in dom], member
                    leaked = [(s, b.split("\n", 1)[0]) for b in bodies for s in (*KEEPER_TEXTS, KEEPER_SCENE) if s in b]
                    assert not leaked, leaked
                page.screenshot(path=str(tmp_path / f"stage-{member}.png"), full_page=True)
                assert not errors, errors
                context.close()
        finally:
            browser.close()


def test_a_turn_stages_live_on_a_seat_already_open(tmp_path: Path, room: Path) -> None:
    kernel = Kernel(data_dir=tmp_path / "data", env={})
    stage_room(kernel, room, tmp_path)
    table = Table(kernel, room, TurnSource(replies(reply("钟声停了。", set_var("act", "第二幕"))),
                                           provider="anthropic_messages"), seed=5)
    with Server(table) as running, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        try:
            watcher = browser.new_context().new_page()
            watcher.goto(running.link("p2"))
            watcher.locator("#lw-story").wait_for(timeout=15000)
            assert watcher.locator("#lw-stage .stage").count() == 0
            actor = browser.new_context().new_page()
            actor.goto(running.link("p1"))
            actor.fill("#lw-act textarea", "我们等着。")
            actor.click("#lw-act button")
            card = watcher.locator("#lw-stage .stage.title_card")
            card.wait_for(timeout=20000)
            assert card.locator(".act").inner_text() == "第二幕" and card.locator(".title").inner_text() == "码头"
        finally:
            browser.close()


def _body(response) -> str:  # noqa: ANN001
    try:
        return response.body().decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - an event stream has no whole body
        return ""


def test_a_map_pin_is_drawn_on_its_map_without_inline_styles() -> None:
    html = stage_html({"locale": "en", "stage": [
        {"form": "map_pin", "label": "The drowned chapel", "map": "/a/abc", "x": 40.0, "y": 62.5, "note": "low tide"},
        {"form": "map_pin", "label": "<b>x</b>", "map": None}]})
    assert '<image href="/a/abc"' in html and '<circle cx="40" cy="62.5"' in html and "style=" not in html
    assert "📍 on the map: The drowned chapel" in html and "low tide" in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_a_generated_picture_is_served_by_its_hash_to_the_rooms_seats_only(staged: Server) -> None:
    """Over HTTP: the picture the update names loads from the seat's asset route as a picture
    (cached, sandboxed); a hash that is no staged picture of this room answers 404, as does a
    path that is no hash."""
    import json as _json

    from panels_testkit import fetch

    status, _, body = fetch(staged.link("p2") + "state")
    assert status == 200 and b"data:image/png;base64," not in body
    found = re.search(r'(/s/p2/asset/([0-9a-f]{64}))', body.decode("utf-8"))
    assert found, _json.loads(body)
    jar = __import__("http.cookiejar").cookiejar.CookieJar()
    assert fetch(staged.link("p2"), jar=jar)[0] == 200  # a session of p2's seat
    status, headers, picture = fetch(staged.origin + found.group(1), jar=jar)
    assert status == 200 and headers["content-type"] == "image/png" and picture.startswith(b"\x89PNG")
    assert "immutable" in headers["cache-control"] and "sandbox" in headers["content-security-policy"]
    for wrong in ("0" * 64, "../director/ledger.json", found.group(2)[:-1]):
        assert fetch(f"{staged.origin}/s/p2/asset/{wrong}", jar=jar)[0] == 404, wrong
