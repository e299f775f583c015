"""Located diagnostics for a rulepack: every problem of one pass, each at its place in its file.

Positions come from :mod:`lwcore.io.safe_yaml` (and, for a pack that ``extends`` another,
from :func:`lwcore.rules.merge.merge_positions`, so an inherited value points into the file
that set it). :class:`Diagnostics` collects errors and warnings while a pack is validated and
compiled, so an author sees every problem at once; :func:`locate` places one error.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any, cast

from lwcore.errors import LwError
from lwcore.io.safe_yaml import Positions
from lwcore.rules.errors import RulepackError, RulepackErrors
from lwcore.rules.expr import compile_expr


def locate(error: LwError, positions: Positions, path: Sequence[Any], *, key: bool = False,
           fallback_file: str | None = None) -> RulepackError:
    """``error`` (an expression, dice or pack error) as a :class:`RulepackError` at ``path`` in
    the document: the message starts with the dotted path, and a column inside a one-line
    expression points at the offending character."""
    pos = positions.find(path, key=key)
    where = ".".join(str(p) for p in path)
    message = f"{where}: {error.message}" if where else error.message
    if pos is None:
        return RulepackError(message, file=fallback_file, expected=error.expected, code=error.code)
    line, column = pos.line, pos.column
    if error.column is not None and tuple(path) in positions.values and not key:
        line, column = pos.inside(error.column)
    return RulepackError(message, file=pos.file or fallback_file, line=line, column=column,
                         expected=error.expected, code=error.code)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``choices`` to ``word``, else ``""``."""
    options = [str(c) for c in choices]
    close = difflib.get_close_matches(str(word), options, n=1, cutoff=0.6)
    if not close:
        folded = {o.casefold(): o for o in options}
        hit = folded.get(str(word).casefold())
        close = [hit] if hit else []
    return f" (did you mean {close[0]!r}?)" if close else ""


class Diagnostics:
    """Errors and warnings of one pack, each located. ``error`` records and goes on (the
    caller skips what it could not build); :meth:`raise_errors` raises them all at the end."""

    def __init__(self, positions: Positions, file: str | None) -> None:
        self.positions = positions
        self.file = file
        self.errors: list[RulepackError] = []
        self.warnings: list[str] = []

    def error(self, message: str, path: Sequence[Any], *, expected: str | None = None, key: bool = False) -> None:
        self.errors.append(locate(RulepackError(message, expected=expected), self.positions, path, key=key,
                                  fallback_file=self.file))

    def add(self, error: LwError, path: Sequence[Any], *, key: bool = False) -> None:
        """Record an expression/dice/pack error raised while compiling the value at ``path``."""
        if isinstance(error, RulepackErrors):
            self.errors += cast("list[RulepackError]", error.errors)  # a RulepackErrors holds only these
        elif isinstance(error, RulepackError) and error.line is not None:
            self.errors.append(error)
        else:
            self.errors.append(locate(error, self.positions, path, key=key, fallback_file=self.file))

    def expression(self, text: Any, scope: Any, want: str | None, path: Sequence[Any]) -> Any:
        """The closed-language expression ``text`` compiled for ``scope`` (an
        :class:`lwcore.rules.expr.ExprScope`): an :class:`lwcore.rules.expr.Expr`, or ``None``
        with its error recorded at ``path``."""
        try:
            return compile_expr(text, scope, want)
        except LwError as exc:
            self.add(exc, path)
            return None

    def warn(self, message: str, path: Sequence[Any], *, key: bool = True, at: Sequence[Any] | None = None) -> None:
        """A located warning about ``path`` (placed at ``at`` when given, e.g. a key inside it)."""
        pos = self.positions.find(path if at is None else at, key=key)
        where = ".".join(str(p) for p in path)
        place = f"{pos.file or self.file}:{pos.line}:{pos.column}: " if pos is not None and (pos.file or self.file) \
            else (f"{self.file}: " if self.file else "")
        self.warnings.append(f"{place}{where}: {message}" if where else f"{place}{message}")

    def unknown_key(self, key: Any, path: Sequence[Any], known: Iterable[str], what: str = "key") -> None:
        """Warn about a key the engine does not read (kept, not used), with a suggestion."""
        top = "" if path else "top-level "
        self.warn(f"unknown {top}{what} {key!r} (kept, not used){did_you_mean(str(key), known)}", path,
                  at=(*path, key))

    def raise_errors(self, warnings: Sequence[str] = ()) -> None:
        """Raise the errors found (one, or all as :class:`RulepackErrors`); the warnings found
        too ride along on the error's ``warnings`` (so a report can show every problem)."""
        if not self.errors:
            return
        error = self.errors[0] if len(self.errors) == 1 else RulepackErrors(list(self.errors))
        error.warnings = [*warnings, *self.warnings]  # type: ignore[attr-defined]  # LwError carries warnings only when a report adds them
        raise error
