"""Holdings as facts, seventh round (issue 30, H8 at stop 56): two false-alarm classes of the holdings reader.

- **A past told in someone's words.** A use of another's thing said inside quoted words is a past the speaker tells, not
  the scene's now, when the paragraph's words up to it name a time gone (:data:`lw_storyrepo.continuity.NOT_NOW`: 去年,
  那时, 当年) or a dead card (the dead act only in their lifetime; what the others did in the same telling is then too):
  the cards' 持有 is now. A use in words with no such time, and any use in the narration, is read as before.
- **Brought to its holder.** A thing another holds, brought out and at once, in the same sentence, put into its holder's
  hands (摸出…，塞到他手里; 把…捡起来，塞回她手里: :data:`lw_storyrepo.continuity.TO_ITS_HOLDER`) is fetched for them,
  not used. Handed to someone else, or kept, it is still a use of another's thing.

Written in genres and periods of our own (a Tang post station, a 1990s newsroom, a deep-sea survey ship), not the
labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
from lw_storyrepo.continuity import World, told_of

CARDS: dict[str, dict[str, Any]] = {
    "温驿丞": {"姓名": "温驿丞", "状态": "在世", "位置": "驿站", "持有": ["铜鱼符"]},
    "梁记者": {"姓名": "梁记者", "状态": "在世", "位置": "驿站", "持有": ["录音笔"]},
    "小蔡": {"姓名": "小蔡", "状态": "在世", "位置": "驿站", "持有": ["潜水表"]},
    "老船长": {"姓名": "老船长", "状态": "已故", "位置": "驿站"},
}
TEXTS = {"温驿丞": "温驿丞管驿站。", "梁记者": "梁记者跑社会新闻。", "小蔡": "小蔡是测量员。", "老船长": "老船长跑了一辈子船。"}
KNOWN = {"温驿丞": "他", "梁记者": "她", "小蔡": "他", "老船长": "他"}


def _held(body: str, viewpoint: str = "小蔡") -> list[str]:
    aliases = {n: n for n in CARDS}
    items = {str(x) for card in CARDS.values() for x in card.get("持有", [])}
    world = World(CARDS, dict(aliases), {"驿站"}, items, (), None, {}, dict(KNOWN), told=told_of(TEXTS, CARDS))
    return [f.message for f in continuity_helpers.findings(body, world, viewpoint, "1996年5月4日",
                                                           ["温驿丞", "梁记者", "小蔡"], items=items)
            if f.subject is not None and f.subject.field == "持有"]


def test_a_past_told_in_someone_s_words_stays_silent() -> None:
    # a time gone said in the words before the use
    assert _held("温驿丞叹了口气：“去年秋天，梁记者把铜鱼符揣进怀里，一声不吭就走了。”") == []
    # a dead card acting in the words: their lifetime, and what the others did in the same telling
    assert _held("梁记者压低声音：“老船长拿着潜水表看了半天，说不对。”") == []
    assert _held("“老船长把潜水表拍在桌上。”梁记者顿了顿，“温驿丞把潜水表抢过去，揣进了怀里。”") == []


def test_a_use_in_words_now_or_in_the_narration_still_fires() -> None:
    # no time gone, no dead card in the words: read as the scene's now
    assert any("温驿丞" in m and "录音笔" in m for m in _held("梁记者急了：“温驿丞拿着录音笔跑了！”"))
    # the narration after a telling of the past is the scene's now again
    assert any("温驿丞" in m and "潜水表" in m
               for m in _held("梁记者说：“去年的事，莫提了。”\n温驿丞拿起潜水表看了看。"))


def test_brought_to_its_holder_stays_silent() -> None:
    # by a pronoun, the holder named a few paragraphs before (a line of words between)
    assert _held("小蔡躺在铺上，腿上打着石膏。\n“莫乱动。”\n温驿丞从他枕头底下摸出潜水表，塞到他手里：“戴上。”") == []
    # by name, put back into the holder's hands
    assert _held("梁记者弯腰把铜鱼符捡起来，塞回温驿丞手里。") == []
    assert _held("温驿丞从抽屉里拿出录音笔，递给梁记者：“你的。”") == []


def test_handed_to_another_or_kept_still_fires() -> None:
    # handed on to one who is not its holder
    assert any("温驿丞" in m and "录音笔" in m
               for m in _held("温驿丞从抽屉里拿出录音笔，递给小蔡：“拿去用。”"))
    # brought out and kept: a use
    assert any("温驿丞" in m and "潜水表" in m
               for m in _held("小蔡睡着了。\n温驿丞从他枕头底下摸出潜水表，戴在自己手腕上。"))


GAVE_AWAY = "交到别人手里"


def test_a_giving_after_a_clause_led_by_another_name_then_its_giver_s_use_fires() -> None:
    # the sentence opens on another's clause: the giving is still its holder's (U12's shape, our own words)
    assert any("温驿丞" in m and "铜鱼符" in m and GAVE_AWAY in m
               for m in _held("梁记者走了以后，温驿丞从腰里拿出铜鱼符，递给小蔡。\n温驿丞又拿起铜鱼符对着灯看了看。"))
    assert any("梁记者" in m and "录音笔" in m and GAVE_AWAY in m
               for m in _held("等小蔡下了船，梁记者把录音笔交给了温驿丞。\n梁记者按下录音笔，问了第一个问题。"))
    assert any("小蔡" in m and "潜水表" in m and GAVE_AWAY in m
               for m in _held("船靠了岸，小蔡解下潜水表递过去。\n小蔡拿起潜水表看了看，已经十点了。"))


def test_another_s_clause_then_a_giving_taken_back_or_another_s_giving_stays_silent() -> None:
    # given, then handed back
    assert _held("梁记者走了以后，温驿丞从腰里拿出铜鱼符，递给小蔡。小蔡看了看，又还给了他。\n温驿丞拿起铜鱼符对着灯看了看。") == []
    # the one named first gives nothing: their own thing used after another's giving, and the receiver's use
    assert _held("梁记者下了船以后，小蔡从腰里解下潜水表，递给温驿丞。\n梁记者按下录音笔，问了第一个问题。") == []
    assert _held("梁记者下了船以后，小蔡从腰里解下潜水表，递给温驿丞。\n温驿丞拿起潜水表看了看。") == []
