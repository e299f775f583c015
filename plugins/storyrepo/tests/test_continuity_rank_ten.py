"""Ranks, rk1's round (issue 30, stop 60): three ways of saying a rank the reader did not bind, and one way of saying a
past it took for now.

- **A rank said as the span served** (:data:`lw_storyrepo.ranks.SERVED`): a person, in their own clause, perhaps a place
  (在厂里, 上坞), then any verb of serving with 了 (当了/做了/干了/熬了/混了/坐了/任了), a span of any unit (三年, 半年, 两年多,
  七八个月, 这么些年) and the rank — the rank held till now. Not 当过 (a past), not a next step told after it
  (…才熬上R, 后来升了…: :data:`lw_storyrepo.ranks.SERVED_THEN`), not someone served under (跟着X当了…), not a time gone.
- **A copula and a bare modifier** (X是坞里手艺最好的R, X是厂里的R): the person is the rank, as with a measure word.
- **A rank right before a full name** (估价R某某, 班长某某 in a ledger, a list or a stub read out): the entry's claim of
  that person's rank, in a quote as in the narration — not a courtesy, which takes a surname (王掌柜), not a full name.
- **A time gone by any time noun** (:data:`lw_storyrepo.ranks.TIME_NOUNS`): 那辰光, 那时节, 那会子 (a stretch named as gone),
  …的辰光 / …的时节 (a clause of a time done) before a rank in someone's words: the rank of then.

Written in a boat yard of our own, not the labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.findings import Finding

PLACE = "船坞"
LADDER = ("小工", "木匠", "领作", "坞主")


def _found(body: str) -> list[str]:
    """The messages of :func:`_yard_findings`."""
    return [f.message for f in _yard_findings(body)]


def _yard_findings(body: str) -> list[Finding]:
    """The rank findings of ``body`` in a boat yard: 葛水生 (水生; 小工), 严阿福 (阿福; 木匠), 房德厚 (领作) and 鲍启明
    (坞主), all there; the ladder 小工 ＜ 木匠 ＜ 领作 ＜ 坞主; told by 葛水生."""
    cards: dict[str, dict[str, Any]] = {
        "葛水生": {"姓名": "葛水生", "状态": "在世", "位置": PLACE, "境界": "小工"},
        "严阿福": {"姓名": "严阿福", "状态": "在世", "位置": PLACE, "境界": "木匠"},
        "房德厚": {"姓名": "房德厚", "状态": "在世", "位置": PLACE, "境界": "领作"},
        "鲍启明": {"姓名": "鲍启明", "状态": "在世", "位置": PLACE, "境界": "坞主"},
    }
    aliases = {"葛水生": "葛水生", "水生": "葛水生", "严阿福": "严阿福", "阿福": "严阿福", "房德厚": "房德厚",
               "鲍启明": "鲍启明"}
    world = World(cards, aliases, {PLACE}, set(), LADDER, None, {}, {n: "他" for n in cards},
                  told=told_of({n: n + "在船坞。" for n in cards}, cards))
    return [f for f in findings(body, world, "葛水生", "1948年4月9日", list(cards))
            if (f.subject is not None and f.subject.field == "境界") or "境界" in f.message]


def _said(messages: list[str], who: str, rank: str) -> bool:
    return any(m.startswith(who) and rank in m for m in messages)


def test_a_rank_said_as_the_span_served_is_the_rank_now() -> None:
    # lower than the card's: an error; higher: a warning — any verb of serving, any span, a place between
    assert _said(_found("房德厚在坞里做了三年木匠，刨子推得比谁都平。"), "房德厚", "木匠")
    assert _said(_found("鲍启明上坞当了大半年领作，头一回见江上起这么大的雾。"), "鲍启明", "领作")
    assert _said(_found("阿福干了两年多领作，船底的缝都是他看的。"), "严阿福", "领作")
    # words of our own no book used (held out per word): 混了, 坐了, a span in months
    assert _said(_found("房德厚混了七八个月小工，手上的茧还没磨出来。"), "房德厚", "小工")
    assert _said(_found("鲍启明坐了这么些年领作，说话还是那样慢。"), "鲍启明", "领作")


def test_a_span_served_of_then_or_of_another_is_no_rank_now() -> None:
    for body in ("房德厚当过三年木匠，刨子推得比谁都平。",  # 当过: a past
                 "房德厚做了三年木匠才熬上领作，刨子推得比谁都平。",  # the next step told after it
                 "房德厚在坞里当了五年木匠，后来升了领作。",
                 "水生跟着房德厚当了两年木匠，刨子推得比谁都平。",  # the one served under is not the one serving
                 "那几年，房德厚在坞里做了三年木匠。",  # a time gone
                 "房德厚做了三年木匠的活计，手上全是茧。"):  # the rank part of a thing's name
        assert not _said(_found(body), "房德厚", "木匠"), body


def test_a_copula_with_a_bare_modifier_states_the_rank() -> None:
    assert _said(_found("“阿福是坞里手艺最老到的领作，缺了他谁也不敢下料。”房德厚说。"), "严阿福", "领作")
    assert _said(_found("下半天坞里冷清，水生是坞里的木匠，这会儿也被叫去搬料。"), "葛水生", "木匠")
    # the rank of another thing or person after it, a rank said as another's words: none
    for body in ("水生说的是领作，不是他自己。", "水生是跟领作一道来的。"):
        assert not _said(_found(body), "葛水生", "领作"), body


def test_a_rank_before_a_full_name_in_a_record_is_its_claim() -> None:
    # a ledger line read out, a list of a board: the entry's claim, higher or lower than the card
    assert _said(_found("他翻开工簿，念道：“四月初八，杉木板二十块，验料领作葛水生。”"), "葛水生", "领作")
    assert _said(_found("水牌上写着：“今日上坞：小工房德厚，木匠严阿福。”"), "房德厚", "小工")
    # the card's own rank, an acting or a former holder, a courtesy by surname in speech: none
    for body in ("他翻开工簿，念道：“四月初八，杉木板二十块，验料领作房德厚。”",
                 "他翻开工簿，念道：“四月初八，杉木板二十块，验料代领作葛水生。”",
                 "他翻开工簿，念道：“四月初八，杉木板二十块，验料前领作葛水生。”"):
        assert not _said(_found(body), "葛水生", "领作"), body


def test_a_rank_of_a_time_gone_by_any_time_noun_is_of_then() -> None:
    for body in ("“我那辰光还是小工，一天刨三块板。”房德厚说。",
                 "“我同你爹一道上坞的辰光，德厚还是小工，天天挨骂。”鲍启明说。",
                 "“德厚那时节还是个小工。”鲍启明说。",
                 "“那会子房德厚还是小工。”鲍启明说。"):
        assert not _said(_found(body), "房德厚", "小工"), body
    # the same words of now are read as before
    assert _said(_found("“房德厚如今还是个小工。”鲍启明说。"), "房德厚", "小工")
