"""Character card containers: one reader for every part of the project.

:func:`read_card` / :func:`load_card` read a card from JSON (``chara_card_v3`` >
``chara_card_v2`` > V1), PNG (``ccv3`` over ``chara`` in ``tEXt``/``zTXt``/``iTXt`` chunks) or
CHARX (a zip with ``card.json`` and ``embeded://`` assets) and return a :class:`Card`: the
spec detected, the fields with ``data`` unwrapped (unknown fields and ``extensions`` kept),
the embedded assets and a container report. What the fields *mean* (a character, a world
book …) is for the plugins that read them. Every failure is a located
:class:`lwcore.errors.LwError`; the bounds are :class:`CardLimits`. ``lwcore.cards.write``
builds PNG and CHARX cards (tests, exports). See ``README.md`` next to this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore import lazy_exports

_LAZY = {
    "Card": "lwcore.cards.model",
    "CardAsset": "lwcore.cards.model",
    "ContainerReport": "lwcore.cards.model",
    "V1": "lwcore.cards.model",
    "V2": "lwcore.cards.model",
    "V3": "lwcore.cards.model",
    "CardLimits": "lwcore.cards.limits",
    "CARD_LIMITS": "lwcore.cards.limits",
    "load_card": "lwcore.cards.read",
    "read_card": "lwcore.cards.read",
    "container_of": "lwcore.cards.read",
    "unwrap": "lwcore.cards.spec",
    "detect_spec": "lwcore.cards.spec",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from lwcore.cards.limits import CARD_LIMITS, CardLimits
    from lwcore.cards.model import V1, V2, V3, Card, CardAsset, ContainerReport
    from lwcore.cards.read import container_of, load_card, read_card
    from lwcore.cards.spec import detect_spec, unwrap

__getattr__ = lazy_exports(__name__, _LAZY)
