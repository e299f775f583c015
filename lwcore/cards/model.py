"""What reading a card container gives back: the card object, its assets, a report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

V3 = "chara_card_v3"
V2 = "chara_card_v2"
V1 = "chara_card_v1"
"""The card spec versions, newest first. ``chara_card_v1`` names the unwrapped original
format (it never appears in a file: V1 cards have no ``spec`` field)."""


@dataclass(frozen=True)
class CardAsset:
    """One embedded file of a container.

    ``path`` is the member name in a CHARX archive, or the ``{path}`` of a PNG
    ``chara-ext-asset_:{path}`` chunk; it is a checked relative path (no ``..``, no absolute
    or drive paths, no backslashes, no empty or ``.`` segments), safe to join under a folder.
    ``uri`` is how a card refers to it (``embeded://<path>`` in CHARX, as the spec spells
    it; ``__asset:<path>`` in PNG). ``refs`` are the indexes of ``data["assets"]`` entries whose
    ``uri`` is this asset (empty: the container holds it but the card does not name it).
    """

    path: str
    uri: str
    data: bytes
    refs: tuple[int, ...] = ()


@dataclass(frozen=True)
class ContainerReport:
    """Where the card came from and what the reader noticed without refusing.

    ``container``: ``json`` | ``png`` | ``charx``. ``source``: where the card JSON was found
    (``"file"``, ``"'ccv3' tEXt chunk at byte 33"``, ``"card.json"``). ``notes``: plain
    sentences about things kept or skipped (a second card chunk ignored, ``spec_version``
    newer than this reader, an asset the card names but the container lacks …).
    """

    container: str
    source: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    """A character card as its container holds it; nothing interpreted.

    - ``spec``: :data:`V3`, :data:`V2` or :data:`V1` (detected: ``spec`` field, else a
      ``data`` object means the V2 family, else the V1 top-level fields).
    - ``spec_version``: the file's ``spec_version`` string, ``None`` when absent or not a string.
    - ``data``: the card's fields (``data`` unwrapped; the whole object for V1), every field
      kept, unknown ones and ``extensions`` included.
    - ``raw``: the whole JSON object as read (wrapper fields such as the V1 copies some editors
      write next to ``data`` included). ``data`` is ``raw["data"]`` itself for V2/V3, ``raw`` for V1.
    - ``assets``: the container's embedded files (:class:`CardAsset`); empty for JSON.
    - ``report``: :class:`ContainerReport`. ``file``: the name the card was read under.

    The dicts are the parsed JSON (already checked against the JSON limits: depth, size,
    values); copy before changing them if the card is shared.
    """

    spec: str
    spec_version: str | None
    data: dict[str, Any]
    raw: dict[str, Any]
    assets: tuple[CardAsset, ...]
    report: ContainerReport
    file: str | None = None

    def asset(self, uri: str) -> CardAsset | None:
        """The asset a URI of the card names (``embeded://…`` or ``__asset:…``), else ``None``."""
        return next((a for a in self.assets if a.uri == uri), None)
