"""What a character's state forbids, as the book itself words it (spec §4.2, 状态).

A card's 状态 is one word (停职, 烫伤, 倒仓); what it keeps someone from doing is told in prose — in the
card's own text or in a sentence of 世界观.md that names them: 不许进锦春楼的门, 不得进入园区, 右手什么也
拿不了, 嗓子一个音也唱不出来. :func:`forbidden_of` reads two kinds of bar from those sentences:

- a place barred (:data:`BARRED_PLACE`: 不许/不准/不得/禁止 … 进/踏进/进入 … a known place) — the person must
  not be seen entering it or inside it while the state holds;
- a part of the body that cannot do a thing (:data:`UNABLE_PART`: 右手…拿不了, 嗓子…唱不出来) — the person's
  part must not be seen doing it, or (a hand) handling anything.

It reads only sentences naming one character whose card gives a 状态 other than the ordinary
(:data:`ORDINARY`); the continuity check decides when the prose contradicts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

ORDINARY = ("在世", "正常", "健康", "活着", "无", "")
"""States that forbid nothing: no bar is read for someone in them."""
BARRED_PLACE = re.compile(r"(?:不许|不准|不得|不能|不可|禁止|严禁|不让)(?:再|擅自|随便|私自)?(?:他|她)?"
                          r"(?:踏进|踏入|迈进|跨进|进入|走进|进到|进|回到|回|靠近)(?P<rest>[^，,。；;！？!?\n]{1,16})")
"""A bar on a place: 不许进锦春楼的门, 不得进入星澜园区的任何一栋楼, 不许踏进同庆园一步 (the place is the first known
place in ``rest``)."""
PARTS = ("右手", "左手", "双手", "两手", "两只手", "手", "右腿", "左腿", "双腿", "两腿", "腿", "右脚", "左脚", "脚",
         "嗓子", "喉咙", "眼睛", "腰")
"""Parts of the body a state may leave unable (右手叫热油烫了, 嗓子倒了仓)."""
_PARTS = "|".join(sorted(PARTS, key=len, reverse=True))
UNABLE_PART = re.compile(rf"(?P<part>{_PARTS})[^，,。；;！？!?\n]{{0,8}}?(?P<verb>[\u4e00-\u9fff])(?:不出|不了|不得|不动|不起)")
"""A part that cannot do a thing: 右手什么也拿不了 (右手, 拿), 嗓子一个音也唱不出来 (嗓子, 唱)."""
HAND_USE = "拿|抄|抓|握|攥|捏|端|提|拎|举|接|掂|颠|抡|挥|递|切|剁|掌|摘|掏|拧|扶|撑|按|推|拽|扯|扔|甩"
"""What a hand does when it handles something (抄起锅铲, 接过盘子) — not what is done to it (缠着纱布, 吊着)."""
VOICE_USE = "唱|喊|吼|嚎|叫"
"""What a throat does aloud (唱了一句, 吼了一嗓子)."""


@dataclass(frozen=True)
class Bars:
    """What one character's state forbids: places not to be in, and ``(part, pattern)`` for each
    part that cannot do what ``pattern`` reads (a hand's any handling, a throat's singing aloud)."""

    places: frozenset[str] = frozenset()
    parts: tuple[tuple[str, str], ...] = field(default=())


def _uses(part: str, verb: str) -> str:
    """What a barred part doing its thing reads as: the barred verb, and every handling of a hand or
    every sound of a throat."""
    if "手" in part:
        return f"{re.escape(verb)}|{HAND_USE}"
    if part in ("嗓子", "喉咙"):
        return f"{re.escape(verb)}|{VOICE_USE}"
    return re.escape(verb)


def forbidden_of(characters: dict[str, dict[str, Any]], texts: dict[str, str], lore: str,
                 aliases: dict[str, str], places: Iterable[str]) -> dict[str, Bars]:
    """``{character: Bars}`` for each character in a state (:data:`ORDINARY` aside) whose card text
    or a 世界观 sentence naming them alone says what it forbids (:data:`BARRED_PLACE`,
    :data:`UNABLE_PART`)."""
    held = {n for n, c in characters.items() if str(c.get("状态") or "").strip() not in ORDINARY}
    if not held:
        return {}
    known = sorted((p for p in places if len(p) >= 2), key=len, reverse=True)
    forms = sorted(((a, n) for a, n in aliases.items() if n in held and len(a) >= 2), key=lambda x: -len(x[0]))
    said: dict[str, list[str]] = {}
    for n in held:
        if n in texts:
            said.setdefault(n, []).extend(re.split(r"[。\n]", texts[n]))
    for sentence in re.split(r"[。\n]", lore):
        who = {n for a, n in forms if a in sentence}
        if len(who) == 1:
            said.setdefault(who.pop(), []).append(sentence)
    out: dict[str, Bars] = {}
    for n, sentences in said.items():
        barred: set[str] = set()
        parts: dict[str, str] = {}
        for sentence in sentences:
            for m in BARRED_PLACE.finditer(sentence):
                first = min(((m.group("rest").find(p), p) for p in known if p in m.group("rest")), default=None)
                if first is not None:
                    barred.add(first[1])
            for m in UNABLE_PART.finditer(sentence):
                parts.setdefault(m.group("part"), _uses(m.group("part"), m.group("verb")))
        if barred or parts:
            out[n] = Bars(frozenset(barred), tuple(parts.items()))
    return out
