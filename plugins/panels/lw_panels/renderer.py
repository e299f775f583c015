"""The panel renderer this plugin registers (``lw_panel_renderers``): kind ``panel``, a
resolved panel (:func:`lw_panels.manifest.resolve_panel`) or a hook's UI emission, in
``text`` or ``html``. ``Kernel.render_panel`` falls back to its own plain text otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lwcore.api import Viewer

KIND = "panel"
FORMATS = ("text", "html")


def render(panel: Mapping[str, Any], viewer: Viewer, fmt: str) -> str:
    if fmt == "html":
        from lw_panels.html import panel_html

        return panel_html(panel, viewer.locale)
    from lw_panels.text import panel_text

    return panel_text(panel, viewer.locale)
