"""The bounds a card container is read within, and the shared budget of decoded bytes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from lwcore.errors import LwError
from lwcore.io.limits import JSON_LIMITS, Limits
from lwcore.io.text import MIB, describe_size


@dataclass(frozen=True)
class CardLimits:
    """Every bound :func:`lwcore.cards.load_card` enforces (``docs/security.md`` lists them).

    - ``max_file_bytes``: the container file as read from disk (JSON, PNG or CHARX).
    - ``json``: the card JSON wherever it comes from (size, nesting depth, value count);
      a card nested deeper than ``json.max_depth`` is refused before any caller walks it.
    - ``max_chunks``: PNG chunks of any type walked before giving up.
    - ``max_chunk_bytes``: one PNG text chunk, stored or inflated (card text is base64, so
      this leaves room for a card JSON of ``json.max_bytes``).
    - ``max_members``: CHARX archive entries (counted before the archive is parsed).
    - ``max_member_bytes``: one CHARX member, uncompressed.
    - ``max_ratio``: uncompressed / compressed size of one CHARX member, checked for members
      over ``ratio_floor`` bytes (small files compress well for honest reasons).
    - ``max_total_bytes``: everything decompressed or decoded from one container together
      (inflated PNG text, decoded PNG assets, CHARX members), so a flood of small bombs is
      bounded as surely as one big one.
    """

    max_file_bytes: int = 64 * MIB
    json: Limits = field(default_factory=lambda: JSON_LIMITS.with_(max_bytes=16 * MIB))
    max_chunks: int = 65_536
    max_chunk_bytes: int = 24 * MIB
    max_members: int = 1024
    max_member_bytes: int = 64 * MIB
    max_ratio: int = 200
    ratio_floor: int = 1 * MIB
    max_total_bytes: int = 128 * MIB

    def with_(self, **changes: Any) -> CardLimits:
        """A copy with ``changes`` applied (``limits.with_(max_members=10)``)."""
        return replace(self, **changes)


CARD_LIMITS = CardLimits()


class Budget:
    """The bytes one read may still decompress or decode (``CardLimits.max_total_bytes``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.left = limit

    def room(self, cap: int) -> int:
        """How many bytes the next piece may produce: ``cap`` or what is left, the smaller."""
        return min(cap, self.left)

    def spend(self, n: int, *, file: str | None, where: str, byte: int | None = None) -> None:
        """Take ``n`` bytes; a located :class:`LwError` (code ``limit``) when they are not there."""
        if n > self.left:
            raise self.exceeded(file=file, where=where, byte=byte)
        self.left -= n

    def exceeded(self, *, file: str | None, where: str, byte: int | None = None) -> LwError:
        """The error for a piece that does not fit in what is left."""
        return LwError(
            f"{where}: the container decodes to more than {describe_size(self.limit)} in all; refused",
            file=file, byte=byte, code="limit",
        )
