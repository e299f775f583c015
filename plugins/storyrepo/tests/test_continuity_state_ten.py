"""The tenth 状态 round (issue 30, task S3 at stop 60): a barred person's act to come, a blind one's act, one gone conveying.

连续性-盲评四十, 四十四 and 四十六 said in a quote that the dead would do a thing still to come (明儿卸船，赵把头领头一班; 等秦组长把
月报表送过来; 等老孟下了夜班); 四十七 had a blind appraiser bring a ticket to his eyes and read it a character at a time, and
a ticket's back bear a character he wrote today; 四十六 a missing driver drive a lorry up with a load of water. Read as facts
of writing, not the books' words:

- the dead waited for (等, 等到) or leading a clause after a time to come (明天, 回头, 改天 …) in a quote do an act to come —
  any act (:func:`lw_storyrepo.continuity._to_come_pattern`); not an owner, a list, a negation or the dead as they are spoken
  of (等老孟的周年, 你师父不会怪你, 阿爷在地底下也能闭眼了), nor a wish (要是…还在), nor a quote telling the death;
- sight is reading, looking a thing over close and writing (:data:`lw_storyrepo.forbidden.SIGHT`): 凑到眼前, 眯着眼看,
  对着亮看, a written thing gone through piece by piece (一个字一个字, 一页一页), 提笔, 签了字, 亲手写; a trace so written
  (亲手写的) is the card's act only when told new (墨还没干, 今天) — smelling (凑到鼻子底下) is no looking;
- driving, rowing or poling a vehicle and bringing a load by it (:data:`lw_storyrepo.continuity.CONVEYING`) is a body's act;
- one of the dead counted in a list of the people here (甲、乙、丙同丁四个人: :func:`lw_storyrepo.continuity._counted`) is in
  the scene as one acting is;
- a time gone said in someone's words (“…，去年十月。”) leaves the narration's act beside it now (a barred act is read in
  a paragraph whose narration, not whose quotes, tells no time gone).

Written here in a book none of the sets use: a 1962 salt-well village (盐井) on the 澜沧江.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

PLACES = {"盐井", "芒康"}
CARDS: dict[str, dict[str, Any]] = {
    "扎西": {"姓名": "扎西", "状态": "在世", "位置": "盐井"},
    "洛桑": {"姓名": "洛桑", "状态": "已死", "位置": "盐井"},
    "德吉": {"姓名": "德吉", "状态": "失明", "位置": "盐井"},
    "次仁": {"姓名": "次仁", "状态": "失踪", "位置": "不明"},
    "卓玛": {"姓名": "卓玛", "状态": "在世", "位置": "盐井"},
}
TEXTS = {
    "扎西": "十七岁，晒盐的后生。",
    "洛桑": "扎西的师傅，盐田的把头，去年冬天在江边背卤水摔下了崖。",
    "德吉": "管盐账的老阿妈，今年开春两只眼睛全看不见了，认不得字，也写不了字；摸、听、说话都不碍事。",
    "次仁": "赶骡车往芒康送盐的车夫，三月里出了门再没回来。",
    "卓玛": "扎西的姐姐，晒盐。",
}
ALIASES = {**{n: n for n in CARDS}, "洛桑师傅": "洛桑", "老洛": "洛桑", "德吉阿妈": "德吉", "阿妈": "德吉",
           "次仁大哥": "次仁", "大个子": "次仁"}
GENDER = {"扎西": "他", "洛桑": "他", "德吉": "她", "次仁": "他", "卓玛": "她"}


def findings(body: str) -> list[str]:
    world = World(CARDS, dict(ALIASES), PLACES, set(), ("普通人",), None, places_inside("", PLACES), GENDER,
                  bars=forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES))
    return [f.message for f in continuity_helpers.findings(body, world, "扎西", "1962年10月8日", list(CARDS))]


def fired(body: str, who: str) -> bool:
    return any(m.startswith(f"{who} 的状态") for m in findings(body))


def test_the_dead_said_to_do_a_thing_still_to_come_fire() -> None:
    assert fired("卓玛说：“卤水先别倒，等洛桑师傅把盐田看过了再说。”", "洛桑")  # waited for, a disposal
    assert fired("卓玛说：“等到老洛回来，叫他去江边看看。”", "洛桑")  # 等到, a coming (a sibling word of no book)
    assert fired("卓玛说：“明天晒新盐，老洛领头一块田。”", "洛桑")  # a time to come, then the clause they lead
    assert fired("卓玛说：“改天，老洛带你去芒康。”", "洛桑")  # another time to come (no book wrote 改天)


def test_the_dead_spoken_of_as_the_dead_are_silent() -> None:
    assert not fired("卓玛说：“等洛桑师傅的周年过了，再去芒康。”", "洛桑")  # a rite of theirs
    assert not fired("卓玛说：“明天给老洛烧纸，老洛看着呢。”", "洛桑")  # a quote naming a rite speaks of the dead as dead
    assert not fired("卓玛说：“过两天再去江边，老洛不会怪你。”", "洛桑")  # the dead spoken of, not doing
    assert not fired("卓玛说：“要是老洛还在，等他看过了就好了。”", "洛桑")  # a wish
    assert not fired("卓玛说：“老洛死了一年了，等老洛回来是等不到了。”", "洛桑")  # the death told
    assert not fired("卓玛说：“等洛桑师傅那份抚恤批下来，给你做件袍子。”", "洛桑")  # what they left
    assert not fired("卓玛说：“明天等扎西把盐背下来。”", "洛桑")  # another one waited for
    assert not fired("那年等老洛下了工，两个人就坐在江边喝酒。", "洛桑")  # a past told in narration


def test_the_blind_looking_close_reading_or_writing_fire() -> None:
    assert fired("德吉阿妈接过盐票，凑到眼前，一个字一个字念。", "德吉")  # to the eyes; piece by piece with 字
    assert fired("德吉阿妈把账本捧到眼跟前，看了又看。", "德吉")  # a sibling of 凑到眼前
    assert fired("德吉阿妈对着亮瞧了瞧那张盐票。", "德吉")
    assert fired("德吉阿妈提笔在账本上记了一笔。", "德吉")  # writing
    assert fired("德吉阿妈在收条上签了字。", "德吉")
    assert fired("今天的盐票背面有德吉阿妈亲手写的一个字，墨还没干。", "德吉")  # a trace told new


def test_the_blind_by_touch_by_another_or_before_are_silent() -> None:
    assert not fired("德吉阿妈把盐块捧在手里掂了掂，又凑到鼻子底下闻了闻。", "德吉")  # weighing, smelling
    assert not fired("德吉阿妈叫扎西把盐票一个字一个字念给她听。", "德吉")  # another reads to her
    assert not fired("盐票背面有德吉阿妈亲手写的一个字，是她眼睛还好的时候留下的。", "德吉")  # an old trace
    assert not fired("扎西接过盐票，凑到眼前，一个字一个字念给阿妈听。", "德吉")  # the sighted one reads
    assert not fired("德吉阿妈想起自己当年提笔记账的样子。", "德吉")  # a memory


def test_the_gone_driving_or_bringing_a_load_fire() -> None:
    assert fired("正忙着，次仁大哥赶着骡车拉来一车盐，停在井口。", "次仁")
    assert fired("大个子开着拖拉机从坡上下来。", "次仁")  # a sibling vehicle
    assert fired("老洛划着牛皮船靠了岸。", "洛桑")  # rowing (no book wrote 划着)
    assert not fired("扎西赶着骡车拉来一车盐。", "次仁")  # another drives
    assert not fired("次仁大哥赶的那辆骡车还停在井口。", "次仁")  # the vehicle, no act
    assert not fired("那年次仁大哥赶着骡车拉来一车盐。", "次仁")  # the past


def test_the_dead_counted_among_the_people_here_fire() -> None:
    assert fired("天黑了，井口就剩卓玛、老洛同扎西三个人，各守着一口卤锅。", "洛桑")
    assert fired("棚子里坐着扎西、洛桑师傅、卓玛几个人，谁也不说话。", "洛桑")  # a sibling: 几个人, the name mid-list
    assert not fired("那年井口就剩卓玛、老洛同扎西三个人。", "洛桑")  # a time gone
    assert not fired("井口就剩卓玛同扎西两个人，老洛的卤锅空着。", "洛桑")  # not in the list


def test_a_past_in_someone_s_words_leaves_the_act_beside_it_now() -> None:
    assert fired("德吉阿妈接过盐票，凑到眼前，一个字一个字念：“青盐十斤，去年腊月。”", "德吉")
    assert not fired("去年腊月，德吉阿妈接过盐票，凑到眼前看了看。", "德吉")  # the narration's own time gone
