"""The OpenAI Images adapter against a hostile or broken image provider on loopback: a
redirect never carries the operator's key to another host, and an answer that trickles in
is dropped at the request's time limit (attacker's X1, X2)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest
from panels_testkit import Loopback, png, send

from lw_panels import imagegen
from lw_panels.imagegen import ImageRequest, openai_images
from lwcore.api import DirectorSettings, LwError

KEY = "sk-attacker-wants-this"


@pytest.fixture
def servers() -> Iterator[list[Loopback]]:
    made: list[Loopback] = []
    yield made
    for server in made:
        server.close()


def ask(url: str) -> tuple[bytes, str]:
    request = ImageRequest("blackmoor/chapel", "a chapel", png(4, 4, (1, 2, 3)), "image/png")
    settings = DirectorSettings(image_provider="openai_images", image_endpoint=url, room_budget=1)
    return openai_images(request, settings, {"OPENAI_API_KEY": KEY}, lambda: None)


@pytest.mark.parametrize("status", [301, 302, 303, 307])
def test_a_redirect_never_takes_the_key_to_another_host(servers: list[Loopback], status: int) -> None:
    elsewhere = Loopback(send)
    servers.append(elsewhere)

    def redirect(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Location", f"{elsewhere.url}/steal")
        handler.send_header("Content-Length", "0")
        handler.end_headers()
    provider = Loopback(redirect)
    servers.append(provider)
    with pytest.raises(LwError) as caught:
        ask(provider.url)
    assert caught.value.code == "image_failed" and f"HTTP {status}" in caught.value.message
    assert provider.seen and provider.seen[0].headers.get("Authorization") == f"Bearer {KEY}"
    assert elsewhere.seen == []  # nothing -- and so not the key -- ever reached the other host


def test_an_answer_that_trickles_in_is_dropped_at_the_time_limit(servers: list[Loopback],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imagegen, "TIMEOUT", 0.5)  # each piece comes well within it; the whole never does

    def trickle(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "4000")
        handler.end_headers()
        try:
            for _ in range(60):
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(0.05)
        except OSError:
            pass  # the client gave up: what the test wants
    servers.append(Loopback(trickle))
    with pytest.raises(LwError) as caught:
        ask(servers[0].url)
    assert caught.value.code == "image_failed" and "did not arrive within 0.5 s" in caught.value.message
