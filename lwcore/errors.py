"""Errors a user can cause, carrying a location, and the kernel's plugin errors.

Anything a user can get wrong (a bad file, a bad expression, a bad card) is raised as an
:class:`LwError` with the file, line and column when known and what was expected. The CLI
prints ``str(error)`` and exits non-zero; it never shows a traceback for these.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LwError(Exception):
    """A located, human-readable error caused by input.

    ``str()`` reads ``file:line:column: message (expected …)``, leaving out what is unknown.
    Lines and columns are 1-based; ``byte`` is a 0-based byte offset into the file when the
    error is about bytes (an encoding error). ``code`` is a short stable word for machines
    (``--json`` outputs), e.g. ``limit``, ``encoding``, ``syntax``.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        expected: str | None = None,
        byte: int | None = None,
        code: str | None = None,
        locale: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column
        self.expected = expected
        self.byte = byte
        self.code = code
        self.locale = locale
        """The language ``message`` and ``expected`` are written in, when the raiser localized
        them (``zh-CN``); None: English. ``lw`` says ``error:`` in the same language."""
        self.secret = False
        """Set when the message may quote keeper-only data (see :func:`public_message`)."""

    @property
    def location(self) -> str:
        """``file:line:column`` with the unknown parts left out (may be empty)."""
        parts = [p for p in (self.file, self.line, self.column) if p is not None]
        return ":".join(str(p) for p in parts)

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def to_json(self) -> dict[str, object]:
        """The error as a JSON object (for ``--json`` outputs)."""
        return {
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "byte": self.byte,
            "expected": self.expected,
            "code": self.code,
        }


class PluginError(LwError):
    """A plugin failed (raised only in strict mode; otherwise failures are recorded)."""


class CapabilityError(LwError):
    """A plugin asked for a kernel service its manifest does not declare in ``needs``."""


class LwErrors(LwError):
    """Several located problems found in one pass (validation reports them all at once).

    ``str()`` is one problem a line; ``errors`` holds each :class:`LwError`; the first one's
    location is this error's own.
    """

    def __init__(self, errors: list[LwError]) -> None:
        if not errors:
            raise ValueError("LwErrors needs at least one error")
        first = errors[0]
        super().__init__(
            first.message, file=first.file, line=first.line, column=first.column,
            expected=first.expected, byte=first.byte, code=first.code,
        )
        self.errors = list(errors)

    def __str__(self) -> str:
        return "\n".join(LwError.__str__(e) for e in self.errors)

    def to_json(self) -> dict[str, object]:
        out = LwError.to_json(self)
        out["errors"] = [LwError.to_json(e) for e in self.errors]
        return out


SECRET_REFUSAL = "the room has a problem only the keeper can see (the keeper can run the same command)"
"""What a player reads of an error that may quote keeper-only data (after its file, if any)."""

MODEL_REFUSAL = "the model did not answer this turn, so nothing changed (the keeper can see why)"
"""What a player reads of an error of the model's connection (:func:`about_the_model`): its
profile, endpoint, key variable and the server's own words are the operator's business."""


def about_the_model(error: LwError) -> LwError:
    """Mark ``error`` as one of the connection to the model (a request, its reply, the profile
    it plays on): :func:`redacted` shows a player only :data:`MODEL_REFUSAL`. Returns it."""
    error.about_model = True  # type: ignore[attr-defined]
    return error


def public_message(error: LwError) -> str:
    """What a player may be shown of ``error``: the whole message, unless the error is
    marked ``secret`` (it may quote keeper-only data), then only where it is and that the
    keeper can see the details."""
    if not getattr(error, "secret", False):
        return str(error)
    where = f"{error.file}: " if error.file else ""
    return f"{where}{SECRET_REFUSAL}"


@contextmanager
def quoting_keeper_data() -> Iterator[None]:
    """``with quoting_keeper_data():`` around reading a file that may hold keeper-only data
    (a room's variables, history, documents): an :class:`LwError` raised inside may quote
    it, so it is marked ``secret`` (:func:`redacted` keeps it from players)."""
    try:
        yield
    except LwError as exc:
        exc.secret = True
        raise


def redacted(error: LwError, *, room: str | Path | None = None) -> LwError:
    """``error`` as a player may be shown it: when it is about the model's connection
    (:func:`about_the_model`), only :data:`MODEL_REFUSAL`; when it is marked ``secret``, only its
    file and :func:`public_message`'s text; and in every case no server path (:func:`without_paths`:
    a file inside ``room`` by its name there, any other by its own name)."""
    if getattr(error, "about_model", False):
        return LwError(MODEL_REFUSAL, code=error.code)
    if getattr(error, "secret", False):
        error = LwError(public_message(error).split(": ", 1)[-1] if error.file else public_message(error),
                        file=error.file, code="secret")
    return without_paths(error, room=room)


_ABSOLUTE = re.compile(r"(?<![\w./~-])(?!(?<=:)//[^/])(?:/|[A-Za-z]:[\\/])[^\s'\"`<>|,;()\[\]{}]*[^\s'\"`<>|,;()\[\]{}.:]")
"""An absolute path inside a message (POSIX, or a Windows drive path), up to a space, a quote
or punctuation; a trailing dot or colon is the sentence's. Only one of two or more segments
is taken for a path (see ``_scrub``). The ``//host/…`` of a URL (``http://127.0.0.1:8080/v1``)
is not a path on the server and is left whole; a ``file:///…`` URL's path is one."""


def without_paths(error: LwError, *, room: str | Path | None = None) -> LwError:
    """``error`` with no server path in its file, message or expected text: a path inside
    ``room`` (as given or resolved) becomes its name relative to the room (the room itself its
    folder's name), any other absolute path its last part (``/srv/lw/data/packs/x/card.json``:
    ``card.json``). What a player is shown of an error names files the way the room names them,
    never where the server keeps them. ``LwErrors`` keeps each of its errors, each so treated."""
    roots = _roots(room)
    if isinstance(error, LwErrors):
        out: LwError = LwErrors([without_paths(e, room=room) for e in error.errors])
    else:
        file = _shown_path(error.file, roots) if error.file is not None else None
        out = LwError(_scrub(error.message, error.file, roots), file=file, line=error.line, column=error.column,
                      expected=_scrub(error.expected, error.file, roots) if error.expected else error.expected,
                      byte=error.byte, code=error.code)
    out.secret = getattr(error, "secret", False)
    return out


def _roots(room: str | Path | None) -> list[str]:
    if room is None:
        return []
    given = str(room).rstrip("/") or "/"
    try:
        resolved = str(Path(room).resolve())
    except (OSError, RuntimeError):
        resolved = given
    return sorted({given, resolved, os.path.abspath(given)}, key=len, reverse=True)


def _shown_path(path: str, roots: list[str]) -> str:
    for root in roots:
        if path == root:
            return Path(root).name
        if path.startswith(root + "/"):
            return path[len(root) + 1:]
    if os.path.isabs(path) or re.match(r"^[A-Za-z]:[\\/]", path):
        return re.split(r"[\\/]", path.rstrip("/\\"))[-1] or "."
    return path


def _scrub(text: str, own: str | None, roots: list[str]) -> str:
    for path in sorted({p for p in (own, *roots) if p and len(p) > 1}, key=len, reverse=True):
        text = text.replace(path, _shown_path(path, roots))
    def shown(match: re.Match[str]) -> str:
        path = match.group(0)
        # one segment ("/help", "C:x") is a word with a slash, not a place on the server
        return _shown_path(path, roots) if re.search(r"[\\/]", path[3 if path[1:2] == ":" else 1:]) else path

    return _ABSOLUTE.sub(shown, text)
