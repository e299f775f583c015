"""Catalogue text on the web page is escaped like any other text (attacker's M1): a locale pack
is data and can never put markup -- a meta refresh, a link -- into a seat's page."""

from __future__ import annotations

import json
from pathlib import Path

from lw_panels import html
from lwcore import i18n

MARKUP = '</p><meta http-equiv="refresh" content="0;url=https://evil.example/"><a href="https://evil.example/">x</a>'


def test_a_locale_packs_markup_is_shown_as_text(tmp_path: Path) -> None:
    pack = tmp_path / "locales"
    (pack / "fr").mkdir(parents=True)
    (pack / "fr" / "lw_panels.json").write_text(json.dumps({
        "html.no_vars": MARKUP, "html.not_begun": MARKUP, "html.status_players": MARKUP + "{turn}",
    }), encoding="utf-8")
    try:
        assert i18n.use_locale_packs([pack]) == []
        shown = [html.vars_html({"locale": "fr", "variables": []}),
                 html.story_html({"locale": "fr", "history": []}),
                 html.status_html({"locale": "fr", "keeper": True, "status": {"turn": 3, "acting": None}})]
    finally:
        i18n.use_locale_packs([])
    for text in shown:
        assert "evil.example" in text  # the pack's text is there ...
        assert "<meta" not in text and "<a " not in text and "&lt;meta" in text  # ... as text, never markup
