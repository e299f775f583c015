"""What a member says: the one check on text entering a turn.

Everything a member types reaches a turn through one door, :func:`lwcore.turn.pipeline.run_turn`
(``lw turn --say``, a host's ``Kernel.turn``, the web table's act endpoint, every room command),
and that door calls :func:`check_said` first. Said text is stored in the room's history, shown
to every seat, placed in the model's prompt and rendered to HTML, so it must be text:

- no control characters: C0 (U+0000-U+001F) except tab, line feed and carriage return; DEL
  (U+007F); C1 (U+0080-U+009F);
- no lone surrogates (U+D800-U+DFFF: they cannot be written as UTF-8) and no noncharacters
  (U+FDD0-U+FDEF and U+xFFFE/U+xFFFF of every plane: reserved for programs' internal use,
  which is what the engine uses them for);
- no bidirectional embedding, override or isolate controls (U+202A-U+202E, U+2066-U+2069):
  they reorder how the text *around* them is displayed on every seat (the marks U+200E/U+200F
  that right-to-left writers use are fine);
- no tag characters (U+E0000-U+E007F): every seat draws them as nothing, yet a model reads the
  ASCII they spell -- words hidden from the other players and the keeper's review (their one
  other use, the subdivision flags of emoji, cannot be said);
- at most :data:`MAX_SAID_BYTES` bytes as UTF-8.

A refusal is an :class:`~lwcore.errors.LwError` (code ``invalid``) naming the first bad code
point and its column (1-based, in characters); nothing is written. :data:`NOT_TEXT` is the
same set as a pattern, for output code that must never emit one (the HTML renderer replaces
them as defence in depth).
"""

from __future__ import annotations

import re

from lwcore.errors import LwError

MAX_SAID_BYTES = 64 * 1024
"""The most a member may say in one line, as UTF-8 (a room's history line holds it whole)."""

_BMP = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufffe\uffff"
_ASTRAL = "\U000e0000-\U000e007f" + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}-{chr(plane * 0x10000 + 0xFFFF)}"
                                              for plane in range(1, 17))
NOT_TEXT = re.compile(f"[{_BMP}{_ASTRAL}]")
"""Every code point :func:`check_said` refuses (see the module docstring). Searching with it is
slow (the astral ranges); :func:`find_not_text` and :func:`has_not_text` are the fast ways."""
_NOT_BMP = re.compile(f"[{_BMP}]")
_NOT_ASTRAL = re.compile(f"[{_ASTRAL}]")


def find_not_text(text: str) -> re.Match[str] | None:
    """The first code point of ``text`` that :data:`NOT_TEXT` matches, or ``None``. Printable
    text has none (every such code point is a control, format, surrogate or unassigned one),
    and only text beyond the BMP is searched for the astral noncharacters."""
    if text.isprintable():
        return None
    found = _NOT_BMP.search(text)
    if max(text) > "\uffff":
        astral = _NOT_ASTRAL.search(text)
        if astral is not None and (found is None or astral.start() < found.start()):
            found = astral
    return found


def has_not_text(text: str) -> bool:
    """Whether ``text`` holds a code point :data:`NOT_TEXT` matches."""
    return find_not_text(text) is not None

_NAMES = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x202E: "RIGHT-TO-LEFT OVERRIDE"}


def describe(char: str) -> str:
    """``U+0000 (NUL)``, ``U+0007 (a control character)`` … for a refused code point."""
    code = ord(char)
    if code in _NAMES:
        what = _NAMES[code]
    elif code < 0xA0:
        what = "a control character"
    elif 0xD800 <= code <= 0xDFFF:
        what = "a lone surrogate"
    elif 0x202A <= code <= 0x2069:
        what = "a bidirectional control"
    elif 0xE0000 <= code <= 0xE007F:
        what = "a tag character, drawn as nothing"
    else:
        what = "a noncharacter"
    return f"U+{code:04X} ({what})"


def check_said(text: str) -> str:
    """``text`` when a member may say it, else a located :class:`LwError` (module docstring)."""
    if not isinstance(text, str):
        raise LwError(f"what a member says is text, not {type(text).__name__}", code="invalid")
    bad = find_not_text(text)
    if bad is not None:
        raise LwError(f"what you say holds {describe(bad.group())} at column {bad.start() + 1}",
                      expected="text (tab and line breaks are fine)", code="invalid")
    size = len(text.encode("utf-8"))
    if size > MAX_SAID_BYTES:
        raise LwError(f"what you say is {size:,} bytes; one line is at most {MAX_SAID_BYTES:,}",
                      expected="a shorter line", code="limit")
    return text
