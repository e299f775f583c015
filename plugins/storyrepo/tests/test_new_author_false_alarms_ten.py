"""False alarms a tenth new author met on good text (U10's 1973 lighthouse book, stop 53; F9 of stop 53 mends them),
held with sentences of other genres and periods, none from any corpus:

- (a) a dead man's written words read by the living (「十二月的那几页，周大炮写：“我想了好几夜…”」) were read as
  his voice now: the written words' rule (是阿爸写的：…) stopped at the opening quote mark between the colon and the
  words. Words written before a quote mark are a trace, as without one; the dead man himself speaking still fires.
- (b) 「他在沈家门跑船那些年，…」 said by one man of a dead one put the speaker in 沈家门 (a 位置 warn):
  那些年/那几年/那些日子/那段日子/那阵子 name a time gone, as 那年/当年 do (:data:`PAST_TIME`).
"""

from __future__ import annotations

import pytest

from continuity_helpers import findings
from lw_storyrepo.continuity import World


def _world() -> World:
    """A book of four: a living narrator, two living others (one at home far off), one dead."""
    return World(cards={"林晚": {"状态": "在世", "位置": "旧宅"}, "沈叔": {"状态": "在世", "位置": "旧宅"},
                        "阿宝": {"状态": "在世", "位置": "镇上"}, "顾怀远": {"状态": "已故"}},
                 aliases={**{n: n for n in ("林晚", "沈叔", "阿宝", "顾怀远")}, "老顾": "顾怀远", "沈老四": "沈叔"}, places={"旧宅", "镇上", "汉口", "北平", "码头"})


def _states(body: str) -> list[str]:
    return [f.message for f in findings(body, _world(), "林晚", "1936年5月3日", ["林晚", "沈叔"])
            if f.subject is not None and f.subject.field == "状态"]


def _places(body: str) -> list[str]:
    return [f.message for f in findings(body, _world(), "林晚", "1936年5月3日", ["林晚", "沈叔"])
            if f.subject is not None and f.subject.field == "位置"]


@pytest.mark.parametrize("body", [
    "林晚翻开那本账簿。最后一页，顾怀远写：“此债不必再讨。”",  # a ledger, republican era
    "信纸已经发黄了，老顾在末尾记着：「园子里的梅树，明年要剪。」",  # a letter, corner quotes
    "碑上是他亲手刻的：“来者自便。”林晚念了两遍。",  # an inscription (no name: nothing to find either way)
])
def test_a_dead_mans_written_words_read_now_are_no_voice(body: str) -> None:
    assert _states(body) == []


@pytest.mark.parametrize("body", [
    "顾怀远推开门，站在门口喊：“晚儿，过来。”",  # the dead man himself, speaking today
    "老顾放下茶杯说：“账我都看过了。”",
    "顾怀远今天一早写：“速来。”",  # written today by the dead: fresh ink still fires (FRESH)
])
def test_the_dead_speaking_or_writing_today_still_fires(body: str) -> None:
    assert _states(body), body


@pytest.mark.parametrize("body", [
    "沈叔说：“他在汉口跑码头那些年，什么人没见过。”",  # a pronoun in the speaker's words: someone else, in the past
    "沈叔把烟袋磕了磕。“顾怀远在北平教书那几年，信寄得勤。”",  # the dead named in the quote: the dead are not placed
    "林晚想起阿宝在汉口做学徒的那段日子，心里一酸。",  # narration, a past-time frame
])
def test_a_past_frame_or_a_quoted_pronoun_is_no_move_today(body: str) -> None:
    assert _places(body) == []


@pytest.mark.parametrize("body", [
    "阿宝今天在汉口的码头上卸货。",  # a living card named, today, far from their card's place
    "沈叔说完就走了。阿宝正在北平，给林晚写信。",
])
def test_a_living_card_placed_elsewhere_now_still_warns(body: str) -> None:
    assert _places(body), body
