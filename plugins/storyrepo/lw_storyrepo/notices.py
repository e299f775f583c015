"""What the system did on its own during a command, said to the author (never silently).

Every automatic fix or recovery calls :func:`note` where it happens: the full-width colon
taken out of a draft's front matter, an alias written as its canonical name, the text corrected
in the acceptance card written back into the draft, a title (of a chapter, a promise, an info
gap) that could not be a file name as it is, the reviews dropped with the text they reviewed, an
interrupted settle rolled back or finished. ``lw story`` prints every note after the
command (``已自动修复：…`` / ``已自动处理：…``) and the model tools return them with their
result, so no fix goes unreported.

The notes live for one command: :func:`drain` hands them over and starts afresh.
"""

from __future__ import annotations

from lw_storyrepo.layout import safe_title

_NOTES: list[str] = []


def note(text: str) -> None:
    """Record one thing the system did by itself (a sentence the author can act on)."""
    if text and text not in _NOTES:
        _NOTES.append(text)


def pending() -> list[str]:
    """The notes of this command so far (nothing is drained)."""
    return list(_NOTES)


def drain() -> list[str]:
    """Every note since the last drain, in order; the list is emptied."""
    out = list(_NOTES)
    _NOTES.clear()
    return out


def file_named(title: str, rel: str) -> str:
    """``rel`` (a file named after ``title`` through ``safe_title``), said when the title could
    not be the file's name as it is."""
    if safe_title(title) != title:
        note(f"短题「{title}」不能原样做文件名：文件名写作 {rel}")
    return rel
