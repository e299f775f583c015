"""The text renderer: every tier-0 block and every panel as plain lines for a terminal.

Input is what :mod:`lw_panels.compile` resolved (plain strings, numbers); nothing here
decides who sees what. Pictures are their caption (else their alternative text); a tier-2
panel is its fallback, with a line saying the full view is in the web table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from lw_panels.compile import Drawn, shown
from lw_panels.messages import MESSAGES

BAR = 12


def meter_bar(value: float, low: float, high: float, width: int = BAR) -> str:
    """``███░░░`` for ``value`` between ``low`` and ``high`` (a value outside is drawn at the
    nearer end)."""
    share = (min(max(value, low), high) - low) / (high - low)
    full = round(share * width)
    return "█" * full + "░" * (width - full)


_DRAWN = Drawn()


def block_lines(block: Mapping[str, Any], locale: str = "en") -> list[str]:
    """One resolved block as lines (read-only: kept for the block's next drawing)."""
    return _DRAWN.get(block, locale, lambda: _lines(block, locale))


def _lines(block: Mapping[str, Any], locale: str) -> list[str]:
    kind = block.get("kind")
    if kind == "meter":
        return [f"{block['label']}  {meter_bar(block['value'], block['min'], block['max'])} "
                f"{shown(block['value'])}/{shown(block['max'])}"]
    if kind == "stat":
        return [f"{block['label']}: {shown(block['value'])}"]
    if kind == "badge":
        mark = {"warn": "!", "danger": "‼"}.get(block.get("tone") or "", "")
        return [f"[{mark}{block['label']}]"]
    if kind == "text":
        prefix = {"quote": "> ", "warning": "! "}.get(block.get("style") or "", "")
        return [prefix + line for line in str(block["text"]).splitlines() or [""]]
    if kind == "divider":
        return ["─" * (BAR + 8)]
    if kind == "choices":
        lines = [str(block["prompt"])] if block.get("prompt") else []
        return lines + [f"  {n}) {o['label']} → {o['input']}" for n, o in enumerate(block["options"], 1)]
    if kind == "image":
        word = MESSAGES.text("text.picture", locale)
        words = block.get("caption") or block.get("alt")
        return [f"[{word}: {words}]" if words else f"[{word}]"]
    return []


def blocks_text(blocks: Iterable[Mapping[str, Any]], locale: str = "en") -> list[str]:
    out: list[str] = []
    for block in blocks:
        out.extend(block_lines(block, locale))
    return out


def panel_text(panel: Mapping[str, Any], locale: str = "en") -> str:
    """A resolved panel (``{"kind": "panel", …}``) as text."""
    key = (locale, panel.get("id"), panel.get("title"), panel.get("tier"), panel.get("fallback_null"))
    return _DRAWN.get(panel.get("blocks"), key, lambda: _panel_text(panel, locale))


def _panel_text(panel: Mapping[str, Any], locale: str) -> str:
    t = MESSAGES.bind(locale)
    lines = [f"── {panel.get('title') or panel.get('id', '')} ──"] if panel.get("title") or panel.get("id") else []
    body = blocks_text(panel.get("blocks") or (), locale)
    if panel.get("tier") == 2:
        if panel.get("fallback_null"):
            body.append(t("text.web_only"))
        else:
            body.append(t("text.web_full"))
    if not body:
        body = [t("text.nothing")]
    return "\n".join(lines + body)


SLOT_ORDER = {"sidebar": 0, "tray": 1, "modal": 2}


def by_slot(panels: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Panels sidebar first, then tray, then modal ones (each group in manifest order)."""
    ranked = sorted(enumerate(panels), key=lambda item: (SLOT_ORDER.get(item[1].get("slot", ""), 3), item[0]))
    return [panel for _, panel in ranked]


def panels_text(panels: Iterable[Mapping[str, Any]], locale: str = "en") -> str:
    """Several resolved panels, in :func:`by_slot` order."""
    texts = [panel_text(panel, locale) for panel in by_slot(panels)]
    if not texts:
        return MESSAGES.text("text.no_panels", locale)
    return "\n\n".join(texts)
