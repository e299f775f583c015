"""Message text of the other language in what a viewer reads (tests only).

"Message text" is every fixed part of every catalogued message (:mod:`lwcore.i18n`) of the
kernel and the bundled plugins: a Chinese part anywhere in English output, or an English
phrase (two words or more) in Chinese output, is a message that did not follow the viewer's
locale. A room's own content (names, notes) is data and may be in any language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lwcore.i18n import Catalogue

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_TRIM = " \t:;,.·—-()（）：；，。[]<>"


@lru_cache(maxsize=1)
def catalogues() -> tuple[Catalogue, ...]:
    """The kernel's catalogue and every bundled plugin's, read from the checkout."""
    folders = [ROOT / "lwcore" / "locales", *sorted(ROOT.glob("plugins/*/lw_*/locales"))]
    return tuple(Catalogue.from_dir(folder) for folder in folders)


@lru_cache(maxsize=2)
def fragments(language: str) -> frozenset[str]:
    """The fixed parts of every message of ``language`` that tell that language apart."""
    found = set()
    for cat in catalogues():
        for template in cat.messages[language].values():
            for part in _PLACEHOLDER.split(template.replace("{{", "").replace("}}", "")):
                for line in part.split("\n"):
                    text = line.strip(_TRIM)
                    if language == "zh" and CJK.search(text) and len(text) >= 2:
                        found.add(text)
                    elif language == "en" and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text):
                        found.add(text)
    return frozenset(found)


def foreign(text: str, language: str) -> list[str]:
    """Message text of the other language found in ``text`` (read in ``language``: en or zh)."""
    return sorted(f for f in fragments("zh" if language == "en" else "en") if f in text)
