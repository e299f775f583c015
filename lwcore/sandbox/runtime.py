"""One fresh QuickJS context per run, with limits, the prelude, and failures made data.

The binding is the ``quickjs-ng`` distribution. We import its C extension ``_quickjs``, which
the distribution's ``quickjs`` module re-exports (``quickjs.Context is _quickjs.Context``):
``import quickjs`` costs ≈ 22 ms and starts a worker thread for its ``Function`` helper, which
we do not use; ``import _quickjs`` costs ≈ 0.4 ms. It is imported on the first run, never at
``import lwcore.sandbox``.

What the binding does, measured (quickjs-ng 0.17.0.2, CPython 3.11, Linux x86-64):

- **Context**: ``_quickjs.Context()`` ≈ 80 µs created and freed, ≈ 100 KB; each has its own
  runtime. ``eval`` takes one argument (no file name, no flags) and nothing loads bytecode, so
  every context compiles its source again: ≈ 24 characters a microsecond, a cost that follows
  tokens and functions rather than characters (long or short identifiers: the same). Every
  frame is ``<input>``. A value crosses as a string, number, bool or ``None``; an object comes back as
  an opaque ``_quickjs.Object`` (callable when a function, ``.json()`` to serialize).
- **Memory** (``set_memory_limit``): an allocation over the limit raises ``InternalError: out
  of memory`` or, when not even the error fits, a bare ``null`` exception — the same text as
  ``throw null``; we tell them apart by the context's own memory use. The context stays full
  (``a = null; 1 + 1`` fails afterwards), so a context that hit its limit is dropped, never
  reused. Nothing crashes (the older ``quickjs`` 1.19.4 wheel segfaults on that reuse).
  ``'x'.repeat(1e8)`` and ``new ArrayBuffer(1e9)`` fail cleanly.
- **Time** (``set_time_limit``): C ``clock()``, i.e. CPU time of the *whole process*: with a
  second busy Python thread a 0.5 s limit fired after 0.27 s of wall time. It is re-armed at the
  start of every ``eval``, every call of a JS function from Python and every pending job
  (four 150 ms evals under a 300 ms limit all pass), so each run keeps its own CPU deadline and
  re-arms what is left before every call. The interrupt cannot be caught in JS (``catch`` and
  ``finally`` do not run); catastrophic regex backtracking and a looping ``sort`` comparator
  are interrupted too. The GIL is released while JS runs.
- **Python callables**: ``add_callable`` works, but calling one while a time limit is set
  (set before or after) raises ``InternalError: Can not call into Python with a time limit
  set.`` Hence the design: no callable is ever added; state goes in as JSON and effects come
  out as JSON text.
- **Stack** (``set_max_stack_size``): the default is 1 MiB (≈ 611 frames of a one-line
  recursive function; the binding's docstring says 256 kB), 256 KiB ≈ 151 frames, 64 KiB ≈ 36.
  It is measured from the stack pointer at each call, so the caller's own depth does not
  matter. ``set_max_stack_size(0)`` disables the check and a deep recursion then segfaults the
  host: we never pass 0. ``JSON.stringify``/``JSON.parse`` of deep data hit the same check
  (``RangeError``). An uncaught overflow raises ``_quickjs.StackOverflow`` (a ``JSException``).
- **Errors**: ``str(JSException)`` is ``Name: message`` then ``    at fn (<input>:L:C)`` lines
  (a ``SyntaxError`` frame reads ``at <input>:L:C``); a thrown non-Error gives its text and
  ``undefined`` or nothing; a thrown value whose ``toString`` throws gives ``(Failed obtaining
  QuickJS error string. Concurrency issue?)``. ``Error.prepareStackTrace`` (V8-style call
  sites, run eagerly at construction) and ``Error.stackTraceLimit`` (10) exist.
- **Conversions**: a Python int wraps at 32 bits on the way in (``2**31`` arrives as
  ``-2147483648``, ``2**32`` as ``0``); a BigInt on the way out raises ``Unknown quickjs tag:
  7``. We pass strings only, both ways.
- **Host leaks** the prelude closes: ``Date`` and every local-time method follow the host's
  ``TZ`` (``new Date(0).getHours()`` is 8 under Asia/Shanghai); ``Math.random``, ``Date.now``,
  ``new Date()`` and ``performance.now()`` read the host; ``WeakRef``/``FinalizationRegistry``
  expose GC timing. ``Atomics.wait`` refuses (``cannot block in this thread``). There is no
  ``std``/``os`` module, no ``console``, ``print``, ``setTimeout`` or ``Intl``.
- **Strings**: a string built by concatenation past a few hundred characters is a rope, and
  the binding cannot return one (``TypeError: Unknown quickjs tag: -6``); ``slice(0)``
  flattens it. QuickJS refuses strings past 2**30 characters (``string too long``), often
  before the memory limit, since ropes share their parts.
- **Threads**: the binding's own wrapper notes that using one runtime from two threads
  crashes; a context here stays on the thread that made it (checked).

A run's text crosses the boundary as JSON made by the prelude's captured ``JSON.stringify``
and is read back with :func:`lwcore.io.load_json` (limits, no NaN, no lone surrogates).
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lwcore.errors import LwError
from lwcore.io import JSON_LIMITS, load_json
from lwcore.sandbox.budget import Budget
from lwcore.sandbox.budget import current as current_budget

FailureKind = Literal["syntax", "error", "timeout", "budget", "memory", "stack", "limit", "invalid", "refused"]

_JS = Path(__file__).parent / "js"
_FRAME = re.compile(r"\(<input>:(\d+):(\d+)\)|at <input>:(\d+):(\d+)")
_STACK_LINE = re.compile(r"^\s+at ")
_INTERRUPTED_IN = re.compile(r"^\s+at ([A-Za-z_$][\w$]*) \(<input>:(?:[2-9]|\d\d+):", re.MULTILINE)
_MAX_MESSAGE = 500
_MAX_JOBS = 10_000
_JS_DATE_LIMIT = 8.64e15


@dataclass(frozen=True)
class Limits:
    """What one run may use. ``time_s`` is CPU seconds for one call into the sandbox (loading
    a script, or one hook event with its promise jobs); ``output_chars`` bounds the JSON text of
    the effects one run produces; ``source_chars`` bounds the script."""

    memory_bytes: int = 32 * 1024 * 1024
    time_s: float = 0.5
    stack_bytes: int = 256 * 1024
    output_chars: int = 1_000_000
    source_chars: int = 200_000

    def __post_init__(self) -> None:
        if self.memory_bytes < 2 * 1024 * 1024:
            raise ValueError("memory_bytes below 2 MiB cannot even hold the prelude")
        if not 0 < self.time_s <= 60:
            raise ValueError("time_s must be in (0, 60] seconds")
        if not 16 * 1024 <= self.stack_bytes <= 4 * 1024 * 1024:
            raise ValueError("stack_bytes must be 16 KiB to 4 MiB (0 would switch the check off)")
        if self.output_chars < 2 or self.source_chars < 1:
            raise ValueError("output_chars and source_chars must be positive")


@dataclass(frozen=True)
class Failure:
    """Why a run (or one event of it) did not give a result.

    ``kind``: ``syntax`` (the script does not parse), ``error`` (it threw), ``timeout``, ``budget``
    (the turn's :class:`~lwcore.sandbox.budget.Budget` was spent before or during the run),
    ``memory``, ``stack``, ``limit`` (a size or count limit of the sandbox), ``invalid`` (an
    effect or result that breaks its contract), ``refused`` (a checker refused it, e.g. a plan
    naming a tool the room cannot reach). ``line``/``column`` are 1-based positions in the
    script (never in the sandbox's own prelude), ``None`` when unknown.
    """

    kind: FailureKind
    message: str
    line: int | None = None
    column: int | None = None
    script: str = "script"

    @property
    def location(self) -> str:
        """``line:column`` (or ``line``), empty when unknown."""
        return ":".join(str(p) for p in (self.line, self.column) if p is not None) if self.line else ""

    def __str__(self) -> str:
        where = f"{self.script}:{self.location}" if self.location else self.script
        return f"{where}: {self.message}"

    def to_error(self) -> Any:
        """The failure as a located :class:`lwcore.errors.LwError` (code = ``kind``)."""
        return LwError(self.message, file=self.script, line=self.line, column=self.column, code=self.kind)


class Result:
    """``ok``, ``error`` and ``location`` of any run's result, read from its ``failure``."""

    if TYPE_CHECKING:
        # what a subclass provides, as a field or a property
        @property
        def failure(self) -> Failure | None: ...

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def error(self) -> str | None:
        """The failure's message (``None`` when the run succeeded)."""
        return self.failure.message if self.failure else None

    @property
    def location(self) -> str:
        """``line:column`` of the failure in the script; empty when unknown or none."""
        return self.failure.location if self.failure else ""


class SandboxFailed(Exception):
    """Raised inside a run to stop it; runners turn it into their result's ``failure``."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(str(failure))
        self.failure = failure


@dataclass(frozen=True)
class Mode:
    """What a kind of run exposes: its globals (names of :data:`PARTS`), the events it fires,
    per-run counts of each effect (``caps``), where an effect may be emitted (``only``: effect
    kind → the events whose handlers may emit it), whether effects may be emitted outside a
    handler (``armed``) and whether the script's completion value is its result (``keep``)."""

    globals: tuple[str, ...]
    caps: Mapping[str, int] = field(default_factory=dict)
    events: tuple[str, ...] = ()
    only: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    armed: bool = True
    keep: bool = False


def seed_words(seed: int | str) -> list[int]:
    """Four 32-bit words for the sandbox's random source, derived from ``seed`` (an int or a
    string) by SHA-256, so nearby seeds give unrelated sequences."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int or a str, not {type(seed).__name__}")
    digest = hashlib.sha256(f"{type(seed).__name__}:{seed}".encode()).digest()
    return [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 16, 4)]


def clock_ms(clock: datetime | int | float) -> float:
    """The game clock as JS milliseconds. A naive datetime is the clock's wall time (scripts
    see it as UTC, which is the sandbox's only time zone); an aware one is converted to UTC."""
    if isinstance(clock, bool):
        raise TypeError("clock must be a datetime or milliseconds, not a bool")
    if isinstance(clock, datetime):
        aware = clock if clock.tzinfo is not None else clock.replace(tzinfo=timezone.utc)
        value = (aware - datetime(1970, 1, 1, tzinfo=timezone.utc)).total_seconds() * 1000
    elif isinstance(clock, (int, float)):
        value = float(clock)
    else:
        raise TypeError(f"clock must be a datetime or milliseconds, not {type(clock).__name__}")
    if not math.isfinite(value) or abs(value) > _JS_DATE_LIMIT:
        raise ValueError("clock is outside the range a JS Date can hold")
    return math.floor(value)


_LONG_DIGITS = re.compile(r"\d{16,}")
_SAFE_INTEGER = 2**53 - 1


def to_json(value: Any, what: str) -> str:
    """``value`` as compact JSON text for the sandbox; a :class:`TypeError` (the caller's
    mistake, not the script's) when it is not JSON, or holds an integer a JS number cannot
    hold exactly (beyond ±2**53 - 1: it would come back changed)."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise TypeError(f"{what} must be JSON: {exc}") from None
    if _LONG_DIGITS.search(text):
        _refuse_unsafe_integers(value, what)
    return text


def _refuse_unsafe_integers(value: Any, what: str) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) > _SAFE_INTEGER:
            raise TypeError(f"{what} must be JSON a script can read back unchanged: {item} is beyond ±2**53 - 1")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


PARTS = {
    **dict.fromkeys(("getvar", "setvar", "incvar", "decvar", "variables", "stat_data"), "vars"),
    **dict.fromkeys(("inject", "narrate", "rewriteReply", "log", "emitUI", "emitPanel", "plan"), "effects"),
    "on": "hooks",
    "_": "lodash",
}
"""Which part of the sandbox (a file under ``js/``) defines each global a mode may expose."""

_CHUNKS = ("effects", "vars", "path", "hooks", "outcome", "date", "lodash/index", "lodash/base", "lodash/paths",
           "lodash/objects", "lodash/collections", "lodash/numbers")


def _one_line(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


@cache
def core_source() -> str:
    """``js/core.js`` as one line: compiled in every context."""
    return _one_line((_JS / "core.js").read_text(encoding="utf-8"))


@cache
def part_sources() -> str:
    """Every other part as one line each, ``name\\x01source`` pairs joined by ``\\x01``: handed to
    the context as one string and compiled part by part on first use."""
    pairs = []
    for name in _CHUNKS:
        source = _one_line((_JS / f"{name}.js").read_text(encoding="utf-8"))
        pairs += [name.removesuffix("/index"), source]
    return "\x01".join(pairs) + "\x01"


def _located(text: str) -> tuple[int | None, int | None]:
    """The first frame of ``text`` inside the script (prelude frames are on line 1)."""
    for match in _FRAME.finditer(text):
        line = int(match.group(1) or match.group(3))
        if line >= 2:
            return line - 1, int(match.group(2) or match.group(4))
    return None, None


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[:_MAX_MESSAGE] + "…"


class Bounded:
    """A fresh QuickJS context with a memory, stack and CPU limit, used on one thread; the
    building block of every run (:class:`Sandbox` for scripts, the regex tester for content's
    regular expressions).

    Each call made through :meth:`_guard` is armed with what is left of its call's CPU
    deadline (:meth:`deadline`) and of the turn's :class:`~lwcore.sandbox.budget.Budget` (the
    one given, else the one active), and charged to that budget. Anything the context raises
    is a :class:`SandboxFailed`; a context that failed is spent (:attr:`spent` is then set and
    every later call fails with the same failure).
    """

    def __init__(self, *, limits: Limits, script: str, budget: Budget | None = None) -> None:
        import _quickjs

        self._quickjs = _quickjs
        self.limits = limits
        self.script = script
        self.spent: Failure | None = None
        self.budget = budget if budget is not None else current_budget()
        self._thread = threading.get_ident()
        self._deadline: float | None = None
        self._capped = False
        if self.budget is not None and self.budget.spent:
            self.budget.refused += 1
            self._fail(Failure("budget", self.budget.describe(), script=script))
        self._context = _quickjs.Context()
        self._context.set_memory_limit(limits.memory_bytes)
        self._context.set_max_stack_size(limits.stack_bytes)

    # --- time ----------------------------------------------------------------------------------

    @contextmanager
    def deadline(self, seconds: float | None = None) -> Iterator[None]:
        """Give the calls inside one CPU deadline (``limits.time_s`` by default)."""
        self._deadline = time.process_time() + (self.limits.time_s if seconds is None else seconds)
        try:
            yield
        finally:
            self._deadline = None

    def _arm(self) -> None:
        remaining = (self._deadline - time.process_time()) if self._deadline is not None else self.limits.time_s
        if remaining <= 0:
            self._fail(Failure("timeout", self._timeout_text(), script=self.script))
        self._capped = False
        if self.budget is not None:
            left = self.budget.remaining()
            if left <= 0:
                self.budget.refused += 1
                self._fail(Failure("budget", self.budget.describe(), script=self.script))
            if left < remaining:
                remaining, self._capped = left, True
        self._context.set_time_limit(remaining)

    def _timeout_text(self) -> str:
        return f"the script ran longer than its {self.limits.time_s:g} s of CPU time (an endless loop?)"

    # --- calls ----------------------------------------------------------------------------------

    def _guard(self, action: Any) -> Any:
        if self.spent is not None:
            raise SandboxFailed(self.spent)
        if threading.get_ident() != self._thread:
            raise RuntimeError("a sandbox is used only on the thread that created it (the binding crashes otherwise)")
        self._arm()
        budget = self.budget
        start = budget.clock() if budget is not None else 0.0
        try:
            return action()
        except self._quickjs.JSException as exc:
            self._fail(self._classify(exc))
        except UnicodeError:
            self._fail(Failure("invalid", "the script or its input is not valid Unicode text", script=self.script))
        except (TypeError, OverflowError, SystemError) as exc:  # the binding failed to convert a value
            self._fail(Failure("invalid", f"the sandbox answered with a value the binding cannot convert ({exc})",
                               script=self.script))
        finally:
            if budget is not None:
                budget.charge(budget.clock() - start)

    def _fail(self, failure: Failure) -> Any:
        self.spent = failure
        raise SandboxFailed(failure)

    def _classify(self, exc: Exception) -> Failure:
        text = str(exc)
        lines = text.split("\n")
        cut = next((i for i, line in enumerate(lines) if _STACK_LINE.match(line)), len(lines))
        message = "\n".join(lines[:cut]).strip()
        if message.endswith("\nundefined"):
            message = message[: -len("\nundefined")].strip()
        line, column = _located(text)
        limits = self.limits
        if isinstance(exc, self._quickjs.StackOverflow) or message.startswith("RangeError: Maximum call stack size"):
            kind: FailureKind = "stack"
            message = f"the script nested calls deeper than the {limits.stack_bytes // 1024} KiB stack allows"
        elif message.startswith("InternalError: interrupted") and self._capped and self.budget is not None:
            # armed with what was left of the turn's budget, not the call's own limit
            self.budget.exhaust()
            kind, message, line, column = "budget", self.budget.describe(), None, None
        elif message.startswith("InternalError: interrupted"):
            # QuickJS places an interrupt at the start or past the end of the running function,
            # not at the loop: name the function, claim no line.
            kind, message, line, column = "timeout", self._timeout_text(), None, None
            name = _INTERRUPTED_IN.search(text)
            if name:
                message += f" (interrupted in {name.group(1)}())"
        elif "out of memory" in message or message == "null":
            # QuickJS throws a bare null when even the error object does not fit; a script that
            # throws null itself is reported the same way (the two cannot be told apart).
            kind, message = "memory", f"the script used more than its {limits.memory_bytes // (1024 * 1024)} MiB of memory"
        elif message.startswith("InternalError: string too long"):
            kind, message = "limit", "the script built a string longer than QuickJS allows (2**30 characters)"
        elif message.startswith("SyntaxError"):
            kind = "syntax"
        else:
            kind = "error"
            if message.startswith("(Failed obtaining QuickJS error string"):
                message = "the script threw a value that cannot be shown as text"
            elif message in ("undefined", ""):
                message = "the script threw undefined"
        return Failure(kind, _clip(message), line, column, self.script)


class Sandbox(Bounded):
    """A fresh context with the prelude loaded for one ``mode``; the runners' building block.

    Every method raises :class:`SandboxFailed` for anything the script caused. A sandbox that
    failed is spent (its context may be full or interrupted): :attr:`spent` is then set and
    every later call fails with the same failure.
    """

    def __init__(self, mode: Mode, *, limits: Limits, seed: int | str, clock: datetime | int | float,
                 script: str, input_json: str | None = None, budget: Budget | None = None) -> None:
        import json

        super().__init__(limits=limits, script=script, budget=budget)
        config = {
            "seed": seed_words(seed), "clock": clock_ms(clock), "globals": list(mode.globals),
            "parts": {name: PARTS[name] for name in mode.globals}, "keep": mode.keep,
            "caps": dict(mode.caps), "events": list(mode.events), "only": {k: list(v) for k, v in mode.only.items()},
            "armed": mode.armed, "output_chars": limits.output_chars, "input": input_json,
        }
        self._context.set("__lw_sources", part_sources())
        with self.deadline():
            self._host = self._guard(lambda: self._context.eval(f"{core_source()}({json.dumps(config)})"))

    def call(self, command: str, *args: str) -> str | None:
        """``host(command, *args)`` in the sandbox; returns its text (or ``None``)."""
        result = self._guard(lambda: self._host(command, *args))
        if result is not None and not isinstance(result, str):
            self._fail(Failure("invalid", f"the sandbox answered {command!r} with {type(result).__name__}",
                               script=self.script))
        return result

    def drain(self) -> None:
        """Run the promise jobs the last call queued (``await`` continuations, ``then``s)."""
        for _ in range(_MAX_JOBS):
            if not self._guard(self._context.execute_pending_job):
                return
        self._fail(Failure("limit", f"the script queued more than {_MAX_JOBS} promise jobs in one call",
                           script=self.script))


def read_json(text: str, what: str, limits: Limits, script: str) -> Any:
    """Parse JSON the prelude produced, with the kernel's safe reader; a failure is data."""
    try:
        value = load_json(text, limits=JSON_LIMITS.with_(max_bytes=4 * limits.output_chars + 1024))
    except LwError as exc:
        raise SandboxFailed(Failure("invalid", f"{what}: {exc.message}", script=script)) from None
    return _doubles(value) if _LONG_DIGITS.search(text) else value


def _doubles(value: Any) -> Any:
    """JS has one number type: an integer past ±2**53 in its JSON is a double printed without
    an exponent, so it is read back as the float it is (as an int it would differ)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _SAFE_INTEGER:
        return float(value)
    if isinstance(value, dict):
        return {k: _doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_doubles(v) for v in value]
    return value


def check_source(source: str, limits: Limits, script: str) -> None:
    """Refuse a script over ``limits.source_chars`` before it reaches the context."""
    if not isinstance(source, str):
        raise TypeError(f"the script must be text, not {type(source).__name__}")
    if len(source) > limits.source_chars:
        raise SandboxFailed(Failure("limit", f"the script is {len(source)} characters long; the limit is "
                                             f"{limits.source_chars}", script=script))


def texts(values: Sequence[Any]) -> tuple[str, ...]:
    """Strings from a JSON list the prelude made (warnings)."""
    return tuple(v for v in values if isinstance(v, str))
