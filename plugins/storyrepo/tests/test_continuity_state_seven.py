"""The seventh 状态 round (issue 30, task S1 at stop 58): 状态, the field caught least on books nobody here wrote.

连续性-盲评四十三 missed a cangued boatman boarding and hauling (上不得船 → 摸上船来, 拉不得纤 → 拽了一把纤绳), 四十 a
shoulder-hurt porter on the gangplank (跳板上不得 → 走上了跳板), 三十八 a leg-hurt raftsman boarding the raft with his pole
(上不得排，撑不得篙 → 撑着长篙，一步跨上排头), 四十一 a hand-burnt picker picking (拾不了花 → 拾得比谁都快); 三十, 三十七 and
四十二 the blind reading a notice, a wall paper, a prescription (把告示从头到尾看了一遍, 把班报…念了一遍, 把药方凑到眼前);
三十六 a hand that cannot hold holding (右手握不住东西 → 右手攥着枣木柄); 三十三 a leg that cannot leave the bed
walking a step at a time (一步一步挪到了…脚下; 三十五 wrote the same); and 四十三 alarmed on a dead father's act in a
remembered evening opening a sentence mid-paragraph (…手慢了下来。那天傍晚，老孟也是蹲在这个地方). Read as facts of
writing, not the books' words:

- an act of a trade a card bars with its thing, after the verb or fronted (:data:`lw_storyrepo.forbidden.BARRED_ACT`), is
  broken by any verb of its row (:data:`lw_storyrepo.forbidden.ACT_KIN`) done to the thing, or by the verb told done well
  (:data:`lw_storyrepo.forbidden.DONE_WELL`); boarding (上, 登) only with its thing; a bar with no thing in particular
  (扛不得, 搬不得东西) is not read;
- reading is a written thing (:data:`lw_storyrepo.forbidden.WRITTEN`) looked through (把…看了), not one handed to another
  to look at (把信递给他看);
- a hand that cannot hold (握不住) is a barred part; a hand that cannot stay idle (闲不住) is not;
- legs that cannot leave the bed walking a step at a time (一步一步挪到, 一步一挪) are walking
  (:data:`lw_storyrepo.forbidden.WALKING`);
- a remembered day opens a sentence as well as a paragraph (:data:`lw_storyrepo.continuity.REMEMBERED_DAY`).

Written here in a book none of the sets use: a 1948 mule caravan (马帮) on the tea road out of 普洱.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

PLACES = {"普洱", "思茅"}
CARDS: dict[str, dict[str, Any]] = {
    "岩温": {"姓名": "岩温", "状态": "在世", "位置": "普洱"},
    "韦大锅": {"姓名": "韦大锅", "状态": "腕伤", "位置": "普洱"},
    "段先生": {"姓名": "段先生", "状态": "眼伤", "位置": "普洱"},
    "刀玉香": {"姓名": "刀玉香", "状态": "手伤", "位置": "普洱"},
    "罗老幺": {"姓名": "罗老幺", "状态": "在世", "位置": "普洱"},
    "岩老爹": {"姓名": "岩老爹", "状态": "已死", "位置": "普洱"},
    "杨二嫂": {"姓名": "杨二嫂", "状态": "腿伤", "位置": "普洱"},
}
TEXTS = {
    "岩温": "十八岁，马帮里跑腿的小伙子。",
    "韦大锅": "马帮的锅头，五月初三在坡上叫骡子踢断了左手腕，郎中上了夹板。他上不得马，牵不得骡子，茶篓更驮不得，"
             "渡船也上不得，摘不了茶；他扛不得，搬不得东西；走路、说话、吃饭都不碍事。他儿子也上不得船。",
    "段先生": "马帮的账房，烟熏了两只眼睛，什么也看不见，认不得字。",
    "刀玉香": "茶山上的采茶姑娘，右手烫得握不住东西；嘴闲不住。",
    "罗老幺": "赶马的，手也闲不住，嘴也闲不住。",
    "岩老爹": "岩温的爹，去年在澜沧江边落了水。",
    "杨二嫂": "马店的老板娘，从楼梯上摔下来断了腿，半个月下不了地。",
}
ALIASES = {**{n: n for n in CARDS}, "老韦": "韦大锅", "锅头": "韦大锅", "段账房": "段先生", "玉香": "刀玉香",
           "老幺": "罗老幺", "爹": "岩老爹"}
GENDER = {"岩温": "他", "韦大锅": "他", "段先生": "他", "刀玉香": "她", "罗老幺": "他", "岩老爹": "他", "杨二嫂": "她"}


def findings(body: str) -> list[str]:
    world = continuity_helpers.world_of(CARDS, ALIASES, PLACES, TEXTS, "", GENDER)
    return [f.message for f in continuity_helpers.findings(body, world, "岩温", "1948年5月10日", list(CARDS))]


def barred(body: str, who: str) -> bool:
    return any(m.startswith(f"{who} 的状态") for m in findings(body))


def test_the_acts_a_card_bars_with_their_things_are_read() -> None:
    bars = forbidden_of(CARDS, TEXTS, "", ALIASES, PLACES)
    # after the verb, fronted (茶篓更驮不得), one a card; no thing in particular (扛不得, 搬不得东西) is not read, nor
    # another's clause (他儿子也上不得船)
    assert {words for words, _doing in bars["韦大锅"].acts} == {"上不得马", "牵不得骡子", "茶篓更驮不得", "渡船也上不得",
                                                              "摘不了茶"}
    assert not bars.get("罗老幺")  # 闲不住: a busy hand, nothing barred
    assert [part for part, _uses in bars["刀玉香"].parts] == ["右手"]  # 握不住东西


def test_a_barred_act_done_with_its_thing_fires() -> None:
    assert barred("天刚亮，老韦一脚踩着镫子，翻身跨上马背，冲岩温招了招手。", "韦大锅")  # boarding, another verb before 上
    assert barred("老韦拽着骡子的笼头往坡上走。", "韦大锅")  # another verb of the row (牵 → 拽)
    assert barred("岩温还在解绳子，老韦已经背起茶篓上了路。", "韦大锅")  # 茶篓更驮不得: 背, a verb of 驮's row
    assert barred("船靠了岸，老韦头一个跳上了渡船。", "韦大锅")
    assert barred("老韦蹲在茶垄里，两只手上下翻飞，摘得比谁都快。", "韦大锅")  # the verb told done well


def test_the_same_words_not_done_nor_by_them_nor_now_are_silent() -> None:
    assert not barred("老韦想上马，试了两回，腕子一使劲就疼得直冒汗。", "韦大锅")  # a wish
    assert not barred("岩温扶老韦在石头上坐好，自己跨上马，把缰绳攥在手里。", "韦大锅")  # another boards
    assert not barred("老韦望着江上的渡船，半天没说话。", "韦大锅")  # a place (江上的渡船), no boarding
    assert not barred("老韦背着手，在马圈边上转来转去。", "韦大锅")  # 扛不得 is not read: 背着手 is a posture
    assert not barred("老韦想起当年自己一天能上马下马几十回，叹了口气。", "韦大锅")  # a memory
    assert not barred("老韦坐在火塘边，看岩温把骡子一头一头牵进圈里。", "韦大锅")  # the act is岩温's


def test_the_blind_looking_a_written_thing_through_fires() -> None:
    assert barred("段先生接过货单，把货单从头到尾看了一遍，点了点头。", "段先生")
    assert barred("段账房把那张告示凑到眼前看了半天。", "段先生")
    assert not barred("段先生把货单递给岩温看了，叫他念一遍。", "段先生")  # handed to another
    assert not barred("段先生让岩温把告示念给他听。", "段先生")  # read to him


def test_a_hand_that_cannot_hold_holding_fires() -> None:
    assert barred("玉香右手攥着一把茶叶，往篓里一塞。", "刀玉香")
    assert not barred("玉香拿左手把茶篓往背上提了提。", "刀玉香")  # the other hand
    assert not barred("老幺右手攥着缰绳，左手拎着烟袋。", "罗老幺")  # 闲不住 bars nothing


def test_a_remembered_day_opening_a_sentence_mid_paragraph_is_no_act_now() -> None:
    assert not barred("岩温削着竹签，手慢了下来。那天傍晚，岩老爹也是推门走了进来，从怀里掏出一包烟丝递给他。", "岩老爹")
    assert barred("岩温削着竹签，手慢了下来。岩老爹推门走了进来，从怀里掏出一包烟丝递给他。", "岩老爹")


def test_legs_that_cannot_leave_the_bed_walking_a_step_at_a_time_fire() -> None:
    assert barred("杨二嫂扶着门框，一步一步挪到了马圈边上。", "杨二嫂")
    assert barred("杨二嫂咬着牙，一步一挪地进了灶房。", "杨二嫂")
    assert not barred("岩温扶着杨二嫂，一步一挪地穿过院子。", "杨二嫂")  # another walks her
    assert not barred("杨二嫂想一步一步挪到门口，腿一沾地就疼得直冒汗。", "杨二嫂")  # a wish
