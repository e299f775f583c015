"""Text made safe for the operator's terminal: content never drives it.

What ``lw`` prints carries content nobody on this machine wrote: a model's narration (streamed
token by token too), card and room names, players' words, alternatives, history, plugin
descriptions. A terminal obeys control characters in what it is sent: ``ESC [ …`` moves the
cursor and recolours, OSC 52 writes the clipboard, OSC 0 sets the window title, a carriage
return overprints a line, C1 controls (U+0080-U+009F; U+009B is a one-character CSI on some
terminals) do the same, and bidirectional overrides reorder what the operator reads.

- :func:`terminal_safe` replaces every such code point with a visible form: C0 controls as
  caret notation (``ESC`` is ``^[``, ``CR`` ``^M``, ``DEL`` ``^?``), C1 controls, bidirectional
  embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and lone surrogates as
  U+FFFD. Line feed and tab are kept; ``CR LF`` is a line feed. Its output never holds ESC, a C0
  control other than line feed and tab, DEL, a C1 control, a bidi override or a surrogate.
- :func:`json_safe` escapes the same code points inside JSON text as ``\\uXXXX`` (the same
  data, read back unchanged; ``json.dumps`` already escapes C0 controls).
- :class:`GuardedStream` applies :func:`terminal_safe` to everything written to a text stream;
  :func:`guarded` installs it on ``sys.stdout`` and ``sys.stderr`` for a command's run (the
  ``lw`` group does, so every ``click.echo``/``print`` of every command is covered);
  :func:`raw` is the stream beneath, for a renderer that emits its own styling (rich), whose
  content must then be made safe by the caller.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Every code point :func:`terminal_safe` replaces (see the module doc)."""
REPLACEMENT = "\ufffd"


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    return REPLACEMENT


def terminal_safe(text: str) -> str:
    """``text`` with every code point that would drive a terminal made visible (module doc)."""
    if text.isprintable():
        return text
    return UNSAFE.sub(_visible, text.replace("\r\n", "\n"))


def json_safe(text: str) -> str:
    """JSON ``text`` with the code points :func:`terminal_safe` replaces escaped as ``\\uXXXX``
    (inside JSON they can only be in strings, where the escape is the same character)."""
    if text.isprintable() or not UNSAFE.search(text):
        return text
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class GuardedStream:
    """A text stream whose writes pass through :func:`terminal_safe` (everything else is the
    wrapped stream's: ``isatty``, ``encoding``, ``buffer`` for deliberate binary output …)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    @property
    def raw(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError("a guarded stream takes text")
        self._stream.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def raw(stream: Any) -> Any:
    """The stream beneath a :class:`GuardedStream` (``stream`` itself otherwise)."""
    return stream.raw if isinstance(stream, GuardedStream) else stream


@contextmanager
def guarded() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` guarded (:class:`GuardedStream`) inside the block;
    the streams found are put back after it, and a stream already guarded is left as it is."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None and not isinstance(sys.stdout, GuardedStream):
        sys.stdout = GuardedStream(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, GuardedStream):
        sys.stderr = GuardedStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
