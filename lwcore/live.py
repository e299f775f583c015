"""What a host hands a live model call, and what a streamed reply tells it as it arrives.

A host (``lw turn``, a web table) plays a turn on a model through ``Kernel.turn(endpoint=…)``;
the provider adapter's ``send`` is where the request leaves. This module is the narrow seam
between them that the turn pipeline does not have to carry: the host opens
``with calling(CallOptions(…)):`` around the turn, and ``send`` reads :func:`current_call`.

- :class:`CallOptions`: the connection (a :class:`lwcore.profiles.Profile`: timeouts, retries,
  sampling options, the profile's name for error messages), whether to stream, a delta
  callback, a :class:`Cancel` and the clock (``sleep``) and randomness (``rng``) of backoff,
  both injectable.
- The typed deltas a streamed reply is read as (:class:`TextDelta`, :class:`ToolCallStart`,
  :class:`ToolArgumentsDelta`, :class:`UsageDelta`, :class:`StopDelta`): the callback gets each
  as it arrives. They are *raw model output*: narration before the reply processors
  (``<UpdateVariable>`` blocks, ``rewriteReply``) have run, so a host shows them only where
  keeper-only text may be shown; what players read is the applied turn.
- :class:`Cancel`: a host sets it (from any thread) to stop the call in flight; the call fails
  with code ``cancelled`` and the turn writes nothing.

Outside a ``calling`` block an adapter sends as before: one non-streamed request, no retries.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from lwcore.profiles import Profile


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of narration text, in the order the model wrote it (the pieces of one read
    from the network come as one)."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStart:
    """A tool call began: its position in the reply, id and tool name."""

    index: int
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolArgumentsDelta:
    """A piece of a tool call's JSON arguments (whole only when the call ends)."""

    index: int
    fragment: str


@dataclass(frozen=True, slots=True)
class UsageDelta:
    """Token counts the provider reported so far (``None``: not reported)."""

    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class StopDelta:
    """The reply ended, with the provider's stop reason."""

    reason: str | None


Delta = Union[TextDelta, ToolCallStart, ToolArgumentsDelta, UsageDelta, StopDelta]


class Cancel:
    """A cancellation a host can set from any thread; callbacks registered with
    :meth:`on_cancel` run once, on the setting thread (the HTTP client closes its socket)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def set(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            with contextlib.suppress(Exception):
                callback()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; ``True`` as soon as it is set."""
        return self._event.wait(seconds)

    @contextlib.contextmanager
    def on_cancel(self, callback: Callable[[], None]) -> Iterator[None]:
        """Run ``callback`` if cancelled while the block runs (at once if already set)."""
        with self._lock:
            already = self._event.is_set()
            if not already:
                self._callbacks.append(callback)
        if already:
            callback()
        try:
            yield
        finally:
            with self._lock, contextlib.suppress(ValueError):
                self._callbacks.remove(callback)


def _sleep(seconds: float, cancel: Cancel | None) -> None:
    if cancel is not None:
        cancel.wait(seconds)
    else:
        time.sleep(seconds)


@dataclass(frozen=True)
class CallOptions:
    """How a host wants the model called (see the module doc).

    ``sleep(seconds, cancel)`` waits between retries (returns early once ``cancel`` is set);
    ``rng`` draws the backoff's jitter. Tests inject both so no test waits on the clock.
    """

    profile: Profile | None = None
    stream: bool = False
    on_delta: Callable[[Delta], None] | None = None
    cancel: Cancel | None = None
    sleep: Callable[[float, Cancel | None], None] = _sleep
    rng: random.Random = field(default_factory=random.Random)
    extra: dict[str, Any] = field(default_factory=dict)


_CURRENT: ContextVar[CallOptions | None] = ContextVar("lw_call_options", default=None)


@contextlib.contextmanager
def calling(options: CallOptions) -> Iterator[CallOptions]:
    """Make ``options`` what every model call in this block (this thread/context) reads."""
    token = _CURRENT.set(options)
    try:
        yield options
    finally:
        _CURRENT.reset(token)


def current_call() -> CallOptions | None:
    """The innermost :func:`calling` block's options, or ``None`` outside one."""
    return _CURRENT.get()
