"""The web table's small stores on disk (seat invites, sessions), read at every request
without reading the file at every request.

:class:`FileCache` keeps what a file parsed to, keyed by the file's device, inode, size and
modification time (ns). The stores are only ever replaced whole (an atomic write: a new file
renamed over the old one, so a new inode while the old one still exists), so a change made by
this process, another ``lw serve`` or ``lw seat`` always gives another key: a rotated or
revoked link is seen at the very next request, while a request that changes nothing (a flood
of wrong links, say) costs one ``stat`` and never a read or a parse.

The cache keeps the file it parsed open: a freed inode is reused by the very next file made
(ext4 does so at once), a rotated link keeps the file's size, and on a filesystem whose
timestamps are whole seconds two changes in one second would otherwise give back the cached
key -- and a revoked link would keep working. While the file is held open its inode is not
freed, so a file with the same device and inode is that very file.
"""

from __future__ import annotations

import os
import stat
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from lwcore.api import read_json

T = TypeVar("T")


class FileCache(Generic[T]):
    """``parse(data)`` of the JSON file ``path`` (``data``: ``None`` when there is no file), read
    again only when the file changed. A bad file raises ``parse``'s (or :func:`read_json`'s)
    located error at every read, never a stale value."""

    def __init__(self, path: Path, parse: Callable[[Any], T]) -> None:
        self.path = path
        self.parse = parse
        self._held: tuple[tuple[int, int, int, int] | None, T] | None = None
        self._lock = threading.Lock()
        self._pinned: list[int] = []
        """The descriptor of the file :attr:`_held` was read from (see the module doc)."""
        weakref.finalize(self, _close, self._pinned)

    def read(self) -> T:
        try:
            info = os.stat(self.path)
            key: tuple[int, int, int, int] | None = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        except FileNotFoundError:
            key = None if not os.path.lexists(self.path) else (-1, -1, -1, -1)  # a dangling link: read_json says so
        except OSError:
            key = (-1, -1, -1, -1)
        held = self._held
        if held is not None and held[0] == key and key != (-1, -1, -1, -1):
            return held[1]
        with self._lock:
            pin = None
            if key is not None and key != (-1, -1, -1, -1) and stat.S_ISREG(info.st_mode):
                pin, key = _pin(self.path, key)
            try:
                value = self.parse(None if key is None else read_json(self.path))  # bounded; a FIFO is refused
            except BaseException:
                _close([pin] if pin is not None else [])
                raise
            _close(self._pinned)
            if pin is not None:
                self._pinned.append(pin)
            self._held = (key, value)
        return value


    def keep(self, value: T) -> None:
        """Hold ``value`` as what the file now at :attr:`path` parses to: for its writer, right
        after writing it while holding the store's lock (no other writer can replace the file
        meanwhile), so the next :meth:`read` does not read back and parse what was just written.
        ``value`` must be what ``parse`` makes of that file. A file that cannot be opened is
        simply read again."""
        with self._lock:
            pin, key = _pin(self.path, (-1, -1, -1, -1))
            if pin is None:
                self._held = None
                return
            _close(self._pinned)
            self._pinned.append(pin)
            self._held = (key, value)


def _pin(path: Path, key: tuple[int, int, int, int]) -> tuple[int | None, tuple[int, int, int, int]]:
    """An open descriptor of the regular file at ``path`` and its key (read before its
    contents: what is parsed is that file or a later one, never an earlier); ``(None, key)``
    when it cannot be opened as one (the read then says why)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None, key
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None, key
    return fd, (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _close(fds: list[int]) -> None:
    while fds:
        try:
            os.close(fds.pop())
        except OSError:
            pass
