"""Errors a user can cause, carrying a location, and the kernel's plugin errors.

Anything a user can get wrong (a bad file, a bad expression, a bad card) is raised as an
:class:`LwError` with the file, line and column when known and what was expected. The CLI
prints ``str(error)`` and exits non-zero; it never shows a traceback for these.
"""

from __future__ import annotations

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
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column
        self.expected = expected
        self.byte = byte
        self.code = code
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


def public_message(error: LwError) -> str:
    """What a player may be shown of ``error``: the whole message, unless the error is
    marked ``secret`` (it may quote keeper-only data), then only where it is and that the
    keeper can see the details."""
    if not getattr(error, "secret", False):
        return str(error)
    where = f"{error.file}: " if error.file else ""
    return f"{where}the room has a problem only the keeper can see (run the command as the keeper)"


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


def redacted(error: LwError) -> LwError:
    """``error`` as a player may be shown it: itself, unless it is marked ``secret``; then an
    error with only its file and :func:`public_message`'s text."""
    if not getattr(error, "secret", False):
        return error
    return LwError(public_message(error).split(": ", 1)[-1] if error.file else public_message(error),
                   file=error.file, code="secret")
