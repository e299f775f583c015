"""The caps every ``.lwpack`` read is held to (an archive is untrusted input)."""

from __future__ import annotations

from dataclasses import dataclass, replace

MIB = 1024 * 1024


@dataclass(frozen=True)
class PackLimits:
    """Bounds on one pack, checked from the archive's central directory before any member is
    read, and again while each member streams (a member never yields more bytes than its
    header declares).

    - ``archive_bytes``: size of the ``.lwpack`` file (and of a download).
    - ``entries``: members in the archive.
    - ``file_bytes``: one member, uncompressed.
    - ``total_bytes``: every member together, uncompressed.
    - ``ratio``: uncompressed / compressed size of a member larger than ``ratio_floor``
      (a zip bomb compresses a gigabyte of zeros a thousand to one).
    - ``manifest_bytes``: ``pack.yaml``.
    - ``items``: declared items of one content kind.
    - ``read_bytes``: one content file a validator reads whole (a card, a rulepack).
    """

    archive_bytes: int = 512 * MIB
    entries: int = 4096
    file_bytes: int = 256 * MIB
    total_bytes: int = 1024 * MIB
    ratio: int = 100
    ratio_floor: int = MIB
    manifest_bytes: int = MIB
    items: int = 512
    read_bytes: int = 32 * MIB

    def with_(self, **changes: int) -> PackLimits:
        return replace(self, **changes)


DEFAULT_LIMITS = PackLimits()
