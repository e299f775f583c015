"""Fault injection for the atomicity tests: ``LW_STORY_FAULT=<step>[@raise|@kill|@oserror]``.

The settle and the git plumbing call :func:`fault` at each named step; outside tests the
variable is unset and every call returns at once. ``@kill`` sends the process a real
``SIGKILL`` (no ``finally``, no ``atexit``, no buffered output flushed: a kill from outside or
a power cut, as far as the book is concerned); a parent sees it as ``-signal.SIGKILL``.
"""

from __future__ import annotations

import errno
import os
import signal


def fault(step: str) -> None:
    """Inject a fault at ``step`` when ``LW_STORY_FAULT`` names it (tests only)."""
    spec = os.environ.get("LW_STORY_FAULT")
    if not spec:
        return
    name, _, mode = spec.partition("@")
    if name != step:
        return
    if mode == "kill":
        kill = getattr(signal, "SIGKILL", None)
        if kill is not None:
            os.kill(os.getpid(), kill)
        os._exit(137)  # no SIGKILL on this platform (Windows): the nearest thing
    if mode == "oserror":
        raise OSError(errno.ENOSPC, "No space left on device (injected)")
    raise RuntimeError(f"injected fault at {step}")
