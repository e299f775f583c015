"""Error types of the rules engine: every one is a located :class:`lwcore.errors.LwError`."""

from __future__ import annotations

from lwcore.errors import LwError, LwErrors


class RulesError(LwError):
    """Base class of every error the rules engine raises for bad input."""


class DiceError(RulesError):
    """A dice expression that does not parse, breaks a limit, or cannot be replayed.

    ``column`` (1-based) points into the expression when the error is a syntax error.
    """


class ExprError(RulesError):
    """A closed-language expression (``when:``, ``target:``, derived ``expr``) that is wrong."""


class RulepackError(RulesError):
    """A rulepack that cannot be loaded (bad YAML, bad field, bad extends chain…)."""

    @classmethod
    def of(cls, error: LwError) -> RulepackError:
        """The same located error (e.g. from the safe YAML reader) as a rulepack error."""
        return cls(
            error.message, file=error.file, line=error.line, column=error.column,
            expected=error.expected, byte=error.byte, code=error.code,
        )


class CheckError(RulesError):
    """A check that cannot be made as asked (unknown difficulty, missing target…)."""


class RulepackErrors(RulepackError, LwErrors):
    """Every problem one validation pass found in a pack (each a located
    :class:`RulepackError`); ``str()`` is one problem a line."""
