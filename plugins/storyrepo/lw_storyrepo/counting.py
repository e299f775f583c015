"""Counted text measures shared by the checks, the settle and the fingerprints.

Web-novel counting: every character that is not whitespace counts; Markdown heading marks do
not. Everything here is ``str.count`` at C speed, because a cache rebuild counts every chapter.
"""

from __future__ import annotations


def nonspace(text: str) -> int:
    """Characters that are not whitespace (space, newline, ideographic space, tab, CR)."""
    n = len(text) - text.count(" ") - text.count("\n") - text.count("\u3000")
    if "\t" in text or "\r" in text:
        n -= text.count("\t") + text.count("\r")
    return n


def word_count(text: str) -> int:
    """The chapter length as web-novel authors count it (no whitespace, no ``#`` marks)."""
    return nonspace(text) - text.count("#")
