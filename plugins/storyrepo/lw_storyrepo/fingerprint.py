"""Style fingerprint of a chapter body: a few counted ratios (C-speed string counting only)."""

from __future__ import annotations

import re

_SENT_END = re.compile(r"[。！？!?…]+")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」")

METRICS = ("句长", "段长", "对白占比", "感叹占比", "问句占比", "逗号密度")


def fingerprint(body: str) -> dict[str, float]:
    text = body.strip()
    chars = sum(1 for _ in text if not _.isspace()) or 1
    sentences = len(_SENT_END.findall(text)) or 1
    paragraphs = sum(1 for p in text.split("\n") if p.strip()) or 1
    quoted = sum(len(m) for m in _QUOTED.findall(text))
    return {
        "字数": float(chars),
        "句长": chars / sentences,
        "段长": chars / paragraphs,
        "对白占比": quoted / chars,
        "感叹占比": (text.count("！") + text.count("!")) / sentences,
        "问句占比": (text.count("？") + text.count("?")) / sentences,
        "逗号密度": text.count("，") / sentences,
    }


def mean(prints: list[dict[str, float]]) -> dict[str, float]:
    if not prints:
        return {}
    return {k: sum(p[k] for p in prints) / len(prints) for k in METRICS}


def drift(base: dict[str, float], now: dict[str, float], threshold: float = 0.25) -> list[tuple[str, float, float, float]]:
    """``(metric, baseline, now, relative change)`` for metrics that moved more than ``threshold``."""
    out = []
    for k in METRICS:
        b, n = base.get(k, 0.0), now.get(k, 0.0)
        if b == 0 and n == 0:
            continue
        rel = (n - b) / b if b else 1.0
        if abs(rel) > threshold:
            out.append((k, b, n, rel))
    return out
