"""Regular expressions from content: JavaScript's semantics, tested in QuickJS with a time bound.

Content brings regular expressions written for a browser (lore keys written ``/pattern/flags``). Python's ``re`` reads many of them differently (``\\d``, ``\\s``, ``$``, case folding,
``\\p{…}``, named groups) and, above all, cannot be stopped: ``/(a+)+$/`` against thirty
``a`` and a ``!`` backtracks for minutes, holding whatever lock its caller holds. So every
content regex is compiled and tested by QuickJS's own engine (libregexp: ECMAScript's
semantics, not a translation), in a bare context of its own -- no prelude, no script, nothing
but ``new RegExp(pattern, flags)`` and ``test`` -- with a memory limit and a CPU limit per test
that QuickJS enforces inside the backtracking itself (:data:`REGEX_LIMITS`). Each test is also
charged to the turn's :class:`~lwcore.sandbox.budget.Budget` (the one given, else the one
active), so many slow patterns together stay within it.

A :class:`RegexTester` is one such context, made on first use and used on the thread that made
it. :meth:`RegexTester.check` says whether JavaScript accepts a pattern (as ``new RegExp``
would: the browser's answer, without running anything); :meth:`RegexTester.test` is
``RegExp.prototype.test`` from ``lastIndex`` 0 (a fresh ``RegExp`` each time, as content
written for a browser expects), or a :class:`RegexFailed` carrying the located
:class:`~lwcore.sandbox.runtime.Failure` (``timeout``, ``memory``, ``budget``, ``limit``) when
it could not tell. The caller skips that pattern and reports it; nothing else is affected (the
next test gets a fresh context if the old one was spent). Texts are handed to the context once
each and referred to by number afterwards.

Cost (``bench/worldbook.py``): a test is a call into the context, a few microseconds plus the
search itself, which runs about as fast as Python's ``re`` on ordinary patterns; the context
costs ≈ 0.1 ms when first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lwcore.sandbox.budget import Budget, current
from lwcore.sandbox.runtime import Bounded, Failure, Limits, SandboxFailed

MAX_PATTERN = 2_000
"""Characters of one pattern; a longer one is refused (``check`` says ``invalid``)."""
MAX_TEXT = 8 * 1024 * 1024
"""Characters of one text a pattern is tested against; a longer one fails the test (``limit``)."""
REGEX_LIMITS = Limits(memory_bytes=64 * 1024 * 1024, time_s=0.1, stack_bytes=256 * 1024, output_chars=16,
                      source_chars=MAX_PATTERN)
"""One test (or one check) of one pattern: 0.1 s of CPU, 64 MiB (the texts live in the context)."""

Verdict = Literal["ok", "invalid", "failed"]

_HELPER = """(function () {
  var compiled = new Map(), texts = [];
  return function (op, a, b, c) {
    if (op === "text") { texts.push(a); return String(texts.length - 1); }
    if (op === "check") { try { new RegExp(a, b); return ""; } catch (e) { return "!" + String(e && e.message); } }
    var key = b + "/" + a, re = compiled.get(key);
    if (re === undefined) { re = new RegExp(a, b); compiled.set(key, re); }
    re.lastIndex = 0;
    return re.test(texts[+c]) ? "1" : "0";
  };
})()"""


class RegexFailed(Exception):
    """A test that could not give an answer; ``failure`` says why (never a wrong answer)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(str(failure))
        self.failure = failure


@dataclass(frozen=True)
class Checked:
    """What :meth:`RegexTester.check` found: ``ok`` (JavaScript accepts the pattern),
    ``invalid`` (``new RegExp`` throws: ``detail`` is its message), or ``failed`` (compiling it
    overran a limit: ``detail`` says which; the pattern is valid but unusable here)."""

    verdict: Verdict
    detail: str = ""


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Context(Bounded):
    def __init__(self, limits: Limits, script: str, budget: Budget | None) -> None:
        super().__init__(limits=limits, script=script, budget=budget)
        with self.deadline():
            self.function = self._guard(lambda: self._context.eval(_HELPER))

    def ask(self, *args: str) -> str:
        with self.deadline():
            answer = self._guard(lambda: self.function(*args))
        if not isinstance(answer, str):
            self._fail(Failure("invalid", "the regex helper gave no text", script=self.script))
        return answer


class RegexTester:
    """JavaScript regular expressions tested in one bounded QuickJS context (made lazily).

    ``budget``: what to charge (default: the budget active when the tester was made, if any).
    ``script``: the name failures carry (what the patterns belong to, for messages).
    """

    def __init__(self, *, limits: Limits = REGEX_LIMITS, budget: Budget | None = None,
                 script: str = "regular expression") -> None:
        self.limits = limits
        self.budget = budget if budget is not None else current()
        self.script = script
        self.tests = 0
        """Searches run (for benchmarks and tests)."""
        self._context: _Context | None = None
        self._texts: dict[str, str] = {}

    def _ctx(self) -> _Context:
        if self._context is None or self._context.spent is not None:
            self._context = None
            self._texts = {}
            self._context = _Context(self.limits, self.script, self.budget)
        return self._context

    def check(self, pattern: str, flags: str = "") -> Checked:
        """Whether ``new RegExp(pattern, flags)`` is accepted."""
        if len(pattern) > MAX_PATTERN:
            return Checked("invalid", f"longer than {MAX_PATTERN} characters")
        if "\x00" in flags or len(flags) > 8:
            return Checked("invalid", "bad flags")
        try:
            answer = self._ctx().ask("check", pattern, flags, "")
        except SandboxFailed as exc:
            return Checked("failed", exc.failure.message)
        return Checked("ok") if answer == "" else Checked("invalid", answer[1:])

    def test(self, pattern: str, flags: str, text: str) -> bool:
        """``new RegExp(pattern, flags).test(text)``; :class:`RegexFailed` when it overran."""
        if len(text) > MAX_TEXT:
            raise RegexFailed(Failure("limit", f"the text is longer than {MAX_TEXT} characters", script=self.script))
        try:
            context = self._ctx()
            handle = self._texts.get(text)
            if handle is None:
                if not _valid_unicode(text):
                    raise RegexFailed(Failure("invalid", "the text is not valid Unicode (a lone surrogate)",
                                              script=self.script))
                handle = self._texts[text] = context.ask("text", text)
            self.tests += 1
            answer = context.ask("test", pattern, flags, handle)
        except SandboxFailed as exc:
            raise RegexFailed(self._described(exc.failure)) from None
        return answer == "1"

    def test_all(self, patterns: Sequence[tuple[str, str]], text: str) -> list[bool | Failure]:
        """:meth:`test` for each ``(pattern, flags)``; a failure in place of the answer it could not give."""
        out: list[bool | Failure] = []
        for pattern, flags in patterns:
            try:
                out.append(self.test(pattern, flags, text))
            except RegexFailed as exc:
                out.append(exc.failure)
        return out

    def _described(self, failure: Failure) -> Failure:
        if failure.kind == "timeout":
            message = f"the regular expression ran longer than its {self.limits.time_s:g} s of CPU time (catastrophic backtracking?)"
            return Failure("timeout", message, script=failure.script)
        if failure.kind == "memory":
            message = f"the regular expression needed more than {self.limits.memory_bytes // (1024 * 1024)} MiB"
            return Failure("memory", message, script=failure.script)
        return failure

    def close(self) -> None:
        self._context = None
        self._texts = {}

    def __enter__(self) -> RegexTester:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
