"""The verbs of giving and showing a thing: one table, read by every check that asks whether a thing changed hands.

A verb is listed once, under the kind of act it tells (:data:`VERBS`); each reader takes the kinds its question is
about, so a verb added for one of them is there for all that ask the same thing:

- :data:`HANDOVER_VERBS` — a contract line that hands something over (把仓库钥匙交给陈志远), a task or a post too
  (把育种的活派给李春生);
- :data:`GIVING_VERBS` — the prose telling that a thing went over, from either side (递给, 接过, 收下);
- :data:`PUT_VERBS` — what a holder does, after 把 and the thing, to put it in another's hands or before them
  (把望远镜递给她, 把账簿放在桌上);
- :data:`SHOW_VERBS` — what a holder does, right before the thing, to bring it out or hand it over (掏出账簿, 递过茶盏);
- :data:`HOLD_OUT_VERBS` — what a holder does, right before the thing, to have it in hand before handing it
  (掏出, 拿起, 解下: 拿起马灯递过去);
- :data:`TAKE_BACK_VERBS` — a thing handed over coming back to the one who gave it (收回, 要回, 递还): a handover for
  a moment, after which nobody's 持有 has changed.
"""

from __future__ import annotations

HAND = "hand"
"""Into another's hands (交给, 递给, 递过去)."""
TOSS = "toss"
"""Over to another by a throw or a push (扔给, 推到)."""
ASSIGN = "assign"
"""A task, a post, a share given out (派给, 批给)."""
SET_DOWN = "set down"
"""Put down before another (放在, 拍在)."""
TAKE = "take"
"""Taken by the one it goes to (接过, 收下)."""
BRING_OUT = "bring out"
"""Brought out by its holder for others to see or use (掏出, 亮出)."""
TAKE_BACK = "take back"
"""Back to the one who gave it, by either side (收回, 拿回, 交还, 还给)."""
TAKE_UP = "take up"
"""Taken up in its holder's hand from where it lay or hung (拿起, 解下): not yet shown to anyone."""

VERBS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("交给", "递给", "塞给", "送给", "借给", "带给", "给了", "押给", "留给", "传给", "让给", "托付给",
                     "托给", "交到", "递到", "塞到", "递过去", "递了过去", "递过来", "递过", "递来"), frozenset({HAND})),
    **dict.fromkeys(("推给", "扔给", "丢给", "抛给", "推到"), frozenset({TOSS})),
    "还给": frozenset({HAND, TAKE_BACK}),
    **dict.fromkeys(("收回", "拿回", "要回", "取回", "接回", "讨回", "交还", "递还", "归还", "退还", "还回", "送还",
                     "夺回", "抢回", "递回", "递了回", "交回", "塞回", "送回", "退回", "拿了回", "要了回"),
                    frozenset({TAKE_BACK})),
    **dict.fromkeys(("批给", "派给", "分给"), frozenset({ASSIGN})),
    **dict.fromkeys(("放在", "搁在", "摆在", "拍在"), frozenset({SET_DOWN})),
    **dict.fromkeys(("接过", "接了过", "收下"), frozenset({TAKE})),
    **dict.fromkeys(("掏出", "拿出", "取出", "摸出", "亮出", "捧出", "端出", "抱出", "搬出", "拎出"), frozenset({BRING_OUT})),
    **dict.fromkeys(("拿起", "抓起", "提起", "拎起", "捧起", "端起", "抄起", "解下", "摘下", "取下"), frozenset({TAKE_UP})),
}
"""Every verb of giving or showing a thing, with the kinds of act it tells."""


def verbs_of(*kinds: str) -> tuple[str, ...]:
    """The verbs of :data:`VERBS` that tell any of ``kinds``, longest first."""
    return tuple(sorted((v for v, told in VERBS.items() if told & set(kinds)), key=lambda v: (-len(v), v)))


HANDOVER_VERBS = verbs_of(HAND, TOSS, ASSIGN)
GIVING_VERBS = verbs_of(HAND, TOSS, TAKE)
PUT_VERBS = verbs_of(HAND, TOSS, SET_DOWN)
SHOW_VERBS = verbs_of(HAND, BRING_OUT)
AWAY_VERBS = tuple(v for v in verbs_of(HAND, TOSS) if not v.endswith("到"))
"""What a holder does, after 把 and the thing, that leaves it in another's hands (把马灯递给老郑, 把钥匙扔给他): the verbs of
:data:`HAND` and :data:`TOSS` save those ending in 到, which may put it anywhere (塞到口袋里: :data:`INTO_VERBS`)."""
INTO_VERBS = ("塞进", "塞到", "塞在", "递到", "交到", "放到", "放进", "放在", "搁到", "搁在", "按到", "按在", "按进")
"""What a holder does, after 把 and the thing, that leaves it in another's hands only when a hand follows (塞进他手里,
放到老郑手上); 塞到口袋里 keeps it."""
INTO_HANDS = ("手里", "手上", "手中", "手心", "掌心", "怀里")
"""The hands and arms that make an :data:`INTO_VERBS` a giving — only another's, named before them (塞进他手里,
老郑手上); 塞进怀里, 按在掌心里 alone are the holder's own (R54)."""
TAKE_BACK_VERBS = verbs_of(TAKE_BACK)
HOLD_OUT_VERBS = verbs_of(BRING_OUT, TAKE_UP)
"""What a holder does right before a thing to have it in hand (掏出, 拿起, 解下): followed, in the same clause or the next
with no other subject, by a verb of :data:`AWAY_VERBS` (拿出铜扳手，递给阿爸; 拿起马灯递过去), it is a giving with no 把
(H7, stop 55: U11)."""

