"""A finding of the mechanical checks: what, how bad, where in the draft, and the evidence."""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import Any, Literal

ERROR, WARN, INFO = "error", "warn", "info"
"""An error sends the draft back to rendering; a warning and an info go to the author and lenses."""


QUOTE_MAX = 60
"""How many characters of an author's text (a contract line, a term in it) a finding quotes: its start
names it so the author can find it; a line of 500,000 characters is not echoed whole."""

_UNSEEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]")
"""Characters a terminal acts on or hides instead of showing: C0/C1 controls (ESC, NUL, DEL), zero-width
and direction marks, line/paragraph separators, bidi embeddings, overrides and isolates, invisible operators."""


def clipped(text: str) -> str:
    """An author's text as a finding quotes it: its first :data:`QUOTE_MAX` characters and "…" when
    longer; what :func:`visible` escapes is escaped when the message is made (:class:`Finding`)."""
    return text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "…"


def one_line(text: str) -> str:
    """``text`` with each run of white space, new lines too, as one space: an author's text inside a
    line of a commit message cannot start a line of its own."""
    return " ".join(text.split())


def visible(text: str) -> str:
    """``text`` with every control, format or separator character a terminal would act on written as
    ``\\uXXXX`` (ESC → ``\\u001b``), so a finding never carries one raw; newlines and tabs too:
    a message is one line."""
    if not _UNSEEN.search(text):
        return text
    return _UNSEEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


SENTENCE_STOPS = "。！？!?"
"""The marks that end a sentence, full width and ASCII: the sentence ends of the checks are built from them."""
CLOSING_QUOTES = "”’」』"
"""The closing quotes a sentence end carries on with it (她说：“走。”): the sentence ends after them."""
CLAUSE_MARKS = re.compile("[，,；;]")
"""What ends a clause inside a sentence, full width and ASCII: a comma or a semicolon, no sentence stop (the
clause after a going: 回泉州老家上坟去了，…; the last clause mark before a name)."""
FULL_WIDTH_STOPS = "。！？"
FULL_WIDTH_STOP = re.compile(f"[{FULL_WIDTH_STOPS}]")
"""A full-width sentence stop, and only that (not ! ? nor a new line nor an ellipsis): where the readers that split
Chinese prose into sentences end one."""


def span_start(marks: re.Pattern[str], text: str, at: int, reach: int | None = None) -> int:
    """Where the clause or sentence holding ``at`` starts, as ``marks`` (:data:`FULL_WIDTH_STOP`, a check's clause
    marks) cut ``text``: the end of the last match of ``marks`` in the ``reach`` characters before ``at`` (all of
    ``text`` before it when ``reach`` is None), or the start of that window, ``max(0, at - reach)`` (0), when none
    matches there — a sentence longer than the reach is read from the reach's start."""
    low = 0 if reach is None else max(0, at - reach)
    return max((m.end() for m in marks.finditer(text, low, at)), default=low)


def span_end(marks: re.Pattern[str], text: str, at: int, reach: int | None = None) -> int:
    """Where the clause or sentence holding ``at`` ends, as ``marks`` cut ``text``: the start of the first match of
    ``marks`` in the ``reach`` characters from ``at`` (all of ``text`` after it when ``reach`` is None), or the end
    of that window, ``min(len(text), at + reach)`` (``len(text)``), when none matches there."""
    high = len(text) if reach is None else min(len(text), at + reach)
    return next((m.start() for m in marks.finditer(text, at, high)), high)


_STOPS = re.compile(f"[{SENTENCE_STOPS}…]+")
_SENTENCE_END = re.compile(f"{_STOPS.pattern}[{CLOSING_QUOTES}）)]*")
"""A sentence end as a finding's excerpt is shown to (:func:`in_view`): its stops (:data:`_STOPS`: an ellipsis
trailing off too) and the quotes and brackets closing after them."""


@functools.lru_cache(maxsize=16)
def _sentence_ends(line: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where each sentence end of ``line`` (:data:`_SENTENCE_END`) stops its stops and where it ends, its closing
    quotes too: ``(stops' ends, ends)``, read once per line (a line's findings each ask; A11, stop 52)."""
    found = list(_SENTENCE_END.finditer(line))
    return tuple(_STOPS.match(line, m.start()).end() for m in found), tuple(m.end() for m in found)  # type: ignore[union-attr]


def _sentence_end(line: str, at: int) -> int | None:
    """Where ``_SENTENCE_END.search(line, at)`` would end, or None when no sentence ends from ``at`` on; from the
    line's ends read once (:func:`_sentence_ends`), not a scan per finding to a far end (thousands of findings on one
    50,000-character line without a full stop; A11, stop 52)."""
    stops, ends = _sentence_ends(line)
    k = bisect.bisect_right(stops, at)
    return ends[k] if k < len(ends) else None


def in_view(excerpt: str, line: str, column: int) -> str:
    """``excerpt`` as the finding should show it, from the draft ``line`` it was taken from. A sentence a
    check cut to its first characters (``sentence[:60]``) keeps them and goes on as written up to the
    words the finding stands at (1-based ``column``) and a few after, 「…」 marking each cut: a gap of
    more than :data:`QUOTE_MAX` characters before those words is left out as 「…」. The excerpt is only
    ever lengthened (its start stays); one not found on the line, or already whole (it ends where its
    sentence or line does), is returned as it is."""
    start = line.find(excerpt) if excerpt else -1
    if start < 0:
        return excerpt
    stop, rest = start + len(excerpt), line.rstrip()
    if stop >= len(rest) or _SENTENCE_END.match(line, stop) or _SENTENCE_END.search(excerpt[-1:]):
        return excerpt
    at = max(column - 1, stop)
    end = e if (e := _sentence_end(line, at)) is not None else len(rest)
    shown = min(end, at + QUOTE_MAX // 3)
    middle = line[stop:at] if at - stop <= QUOTE_MAX else "…" + line[at - QUOTE_MAX // 6:at]
    return excerpt + middle + line[at:shown] + ("…" if shown < end else "")


def at_words(line: str, column: int, words: str) -> int:
    """The 1-based column a finding should stand at on the draft ``line``: where ``words`` (what it is
    about: the rank the prose gives, the thing held, the place) first stands from ``column`` to the end of
    that sentence, when a check placed it at the sentence's start (二叔如今不过是个冰夫 at 冰夫, not at 二);
    ``column`` when the words are not there (or none are given)."""
    if not words or column < 1:
        return column
    end = e if (e := _sentence_end(line, column - 1)) is not None else len(line)
    at = line.find(words, column - 1, end)
    return at + 1 if at >= 0 else column


@dataclass(frozen=True)
class Subject:
    """What a finding goes by, as the book's data names it: the card field or the info gap's list it
    read (``状态``, ``持有``, ``知情人``, ``境界``, ``位置``), whose (``who``, a name as the cards spell it) and,
    for ``持有`` the item, for ``知情人`` the info gap's id, for ``境界`` the rank the prose gives and for
    ``位置`` the place it puts them in (``what``; empty for ``状态``). The
    answer to a finding (:mod:`lw_storyrepo.answers`) is made from it, never from the finding's words."""
    field: Literal["状态", "持有", "知情人", "境界", "位置"]
    who: str
    what: str = ""


@dataclass
class Finding:
    kind: str
    severity: str
    message: str
    line: int  # 1-based, in the draft file
    column: int = 1
    excerpt: str = ""  # the sentence that is the evidence
    subject: Subject | None = None  # what it goes by, when the author has an answer by the data (not in to_json)

    def __post_init__(self) -> None:
        # the one place every finding's words pass through: an author's text quoted in them (a hostile
        # contract's ESC, NUL, bidi override) reaches the terminal, the JSON and settle's refusal escaped
        self.message = visible(self.message)
        self.excerpt = visible(self.excerpt)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "severity": self.severity, "message": self.message,
                "line": self.line, "column": self.column, "excerpt": self.excerpt}
