"""Errors a user can cause, carrying a location, and the kernel's plugin errors.

Anything a user can get wrong (a bad file, a bad expression, a bad card) is raised as an
:class:`LwError` with the file, line and column when known and what was expected. The CLI
prints ``str(error)`` and exits non-zero; it never shows a traceback for these.
"""

from __future__ import annotations

from pathlib import Path


class LwError(Exception):
    """A located, human-readable error caused by input.

    ``str()`` reads ``file:line:column: message (expected …)``, leaving out what is unknown.
    Lines and columns are 1-based.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        expected: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column
        self.expected = expected

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
            "expected": self.expected,
        }


class PluginError(LwError):
    """A plugin failed (raised only in strict mode; otherwise failures are recorded)."""


class CapabilityError(LwError):
    """A plugin asked for a kernel service its manifest does not declare in ``needs``."""
