"""A player's page on the web table (``lw serve``, real HTTP on loopback) is in that player's
language: in the example room ``p1`` reads Chinese and ``p2`` English, before and after a
turn, and neither page holds message text of the other language (``language_leaks``); the
text renderer's lines follow the reader the same way."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from language_leaks import foreign
from panels_testkit import Server, fetch, recorded, say

pytest.importorskip("starlette", reason="lw serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="lw serve needs the serve extra (starlette, uvicorn)")

from lw_panels.serve.table import Table, TurnSource  # noqa: E402
from lw_panels.text import panel_text, panels_text  # noqa: E402

LANGUAGE = {"p1": "zh", "p2": "en"}
CODE = re.compile(r"<(script|style)\b.*?</\1>", re.S)


def page(server: Server, member: str) -> str:
    status, _, body = fetch(server.link(member))
    assert status == 200, body
    return CODE.sub("", body.decode("utf-8"))  # the page's own code is not text a reader reads


def test_each_players_page_is_in_their_language(kernel, table_room: Path) -> None:  # noqa: ANN001
    table = Table(kernel, table_room, TurnSource(deque([recorded()])), seed=5, token=lambda member: f"seat-{member}")
    with Server(table) as server:
        before = {member: page(server, member) for member in LANGUAGE}
        status, _, body = fetch(server.link("p1") + "say", data={"text": "我去码头查看那艘空船。"})
        assert status == 200, body
        after = {member: page(server, member) for member in LANGUAGE}
    for pages in (before, after):
        for member, language in LANGUAGE.items():
            assert foreign(pages[member], language) == [], member
    assert '<html lang="en"' in after["p2"] and '<html lang="zh"' in after["p1"]
    assert ">Story</h2>" in after["p2"] and ">Variables</h2>" in after["p2"] and "What do you do?" in after["p2"]
    assert ">故事</h2>" in after["p1"] and ">变量</h2>" in after["p1"] and "你要做什么？" in after["p1"]
    # the keeper's ".panels enable" (said in Chinese) is read by each player in their language
    assert "Panels of harbor-ui@1.0.0 (dev) are on for this table." in before["p2"]
    assert "已为本桌启用 harbor-ui@1.0.0 (dev) 的面板。" in before["p1"]


def test_the_text_renderer_follows_the_reader() -> None:
    tier2 = {"kind": "panel", "id": "map", "title": "Map", "tier": 2, "blocks": [], "fallback_null": True}
    image = {"kind": "panel", "id": "pic", "title": "Pic", "tier": 1,
             "blocks": [{"kind": "image", "caption": "the pier"}]}
    for language, words in (("en", ("web table only", "[picture: the pier]", "(no panels in this room)")),
                            ("zh", ("只能在网页牌桌中查看", "[图: the pier]", "（这个房间没有启用面板）"))):
        lines = "\n".join([panel_text(tier2, language), panel_text(image, language), panels_text([], language)])
        assert all(word in lines for word in words), lines
        assert foreign(lines, language) == []
