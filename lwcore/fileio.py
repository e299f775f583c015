"""Explicit-UTF-8, atomic file writes shared by the kernel and plugins."""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the new one, never half.

    Writes a temporary file in the same folder, fsyncs it, then renames it over ``path``.
    Creates missing parent folders. On any error the temporary file is removed and ``path``
    is untouched.
    """
    import tempfile  # imported here: it costs milliseconds at every CLI start otherwise

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """:func:`atomic_write_bytes` of ``text`` encoded as UTF-8 (no BOM, newlines as given)."""
    atomic_write_bytes(path, text.encode("utf-8"))
