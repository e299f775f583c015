"""Holdings as facts (issue 30, S2 at stop 51): a card's held thing is an identity — its kind (the head noun its name
ends with: 葫芦, 簪, 手电) and its marks (the words its holder's card tells it by, the letters of its name before the
kind) — so a thing the prose tells by its looks is one card's thing when its kind and a mark agree and no other
card's thing of that kind fits as well; and the reasons a thing of another's card was put in the wrong person's hands,
fixed as rules of the reading. Written in genres and periods of our own (a sect, a palace, a starship, a county
newsroom, a mine), not the labelled drafts' words: three sentences that must fire and two near-misses that must not.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import voices
from lw_storyrepo.continuity import World, told_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "林晚": {"姓名": "林晚", "状态": "在世", "位置": "青云宗", "持有": ["罗盘"]},
    "沈砚": {"姓名": "沈砚", "状态": "在世", "位置": "青云宗", "持有": ["青铜酒葫芦", "累丝金凤簪", "战术手电"]},
    "陈默": {"姓名": "陈默", "状态": "在世", "位置": "青云宗", "持有": ["铁算盘"]},
}
TEXTS = {
    "林晚": "罗盘是祖上传下来的。",
    "沈砚": "青铜酒葫芦是师父传下的，葫芦腰上刻着北斗七星。累丝金凤簪是太后赏的，凤嘴衔着一粒东珠。"
            "战术手电的尾盖磨得发白，筒身上刻着编号七三。",
    "陈默": "铁算盘的横梁上有一道裂口。",
}


def _held(body: str, cards: dict[str, dict[str, Any]] = CARDS, texts: dict[str, str] = TEXTS) -> list[str]:
    aliases = {n: n for n in cards}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, dict(aliases), {"青云宗"}, items, ("普通人",), None, {}, {n: "他" for n in cards},
                  told=told_of(texts, cards))
    return [f.message for f in continuity_helpers.findings(body, world, "林晚", "1998年3月2日", list(cards), items=items)
            if "的持有里没有" in f.message]


def test_a_thing_told_by_its_kind_and_a_mark_is_that_cards_thing() -> None:
    assert any("青铜酒葫芦" in m for m in _held("林晚解下那只刻着北斗七星的葫芦，仰头灌了一口。"))
    assert any("累丝金凤簪" in m for m in _held("林晚拔下那支衔着东珠的凤簪，插进了自己的发髻。"))
    assert any("战术手电" in m for m in _held("陈默拿起那支刻着编号七三的旧手电，照了照矿道。"))
    # no mark of the card's: anyone's 簪 (a plain looks word tells nothing)
    assert _held("林晚拔下那支磨旧了的银簪，插进了自己的发髻。") == []
    # two cards' things of one kind, the description fitting both as well: silent
    both = {**CARDS, "陈默": {**CARDS["陈默"], "持有": ["铁算盘", "白玉凤簪"]}}
    assert _held("林晚拔下那支凤头的簪子，插进了自己的发髻。", both,
                 {**TEXTS, "陈默": "白玉凤簪是娘留下的。"}) == []


def test_the_holder_having_it_out_puts_it_in_reach() -> None:
    assert _held("沈砚掏出那只青铜酒葫芦晃了晃，搁在石桌上。\n林晚拿起青铜酒葫芦，仰头灌了一口。") == []
    assert _held("陈默从抽屉里捧出铁算盘，噼里啪啦打了一通。\n林晚握着铁算盘，又核了一遍。") == []
    assert _held("林晚拿起青铜酒葫芦，仰头灌了一口。")  # its holder never had it out
    assert _held("林晚握着铁算盘，又核了一遍。\n陈默从抽屉里捧出铁算盘。")  # taken before its holder brought it out


def test_a_name_before_a_place_word_is_no_doer() -> None:
    assert _held("沈砚走过来，坐在林晚对面，掏出那只青铜酒葫芦晃了晃。") == []
    assert _held("陈默蹲在林晚身边，握着铁算盘一颗一颗地拨。") == []
    assert _held("林晚坐在沈砚对面，掏出那只青铜酒葫芦晃了晃。")  # the one who sits acts
    assert _held("林晚站在陈默身后，握着铁算盘一颗一颗地拨。")
    assert _held("林晚走到沈砚跟前，掏出那只青铜酒葫芦晃了晃。")


def test_a_clause_bringing_someone_in_hands_them_the_clauses_after() -> None:
    assert _held("林晚推开舱门，舱里坐着一个穿制服的老头，手里攥着那支战术手电。") == []
    assert _held("林晚刚下台阶，门口下来个瘦高的汉子，怀里抱着铁算盘。") == []
    assert _held("林晚抬起头，看见沈砚站在廊下，掏出那只青铜酒葫芦晃了晃。") == []
    assert _held("陈默抬起头，看见林晚站在廊下，掏出那只青铜酒葫芦晃了晃。")  # the one seen acts
    assert _held("林晚推开舱门，舱里空无一人，她攥着那支战术手电照了一圈。")


def test_a_pronoun_leading_a_later_clause_is_the_subject() -> None:
    assert _held("林晚写完了信。写完了，她拉开抽屉，取出那只青铜酒葫芦。")
    assert _held("林晚写完了信。然后她在衣襟上擦了擦手，从柜子底下摸出铁算盘。")
    assert _held("林晚进了账房。接着她把门闩上，握着铁算盘一颗一颗地拨。")
    assert _held("陈默写完了信。写完了，他拉开抽屉，取出铁算盘。") == []  # his own
    assert _held("沈砚进了屋。然后他在衣襟上擦了擦手，解下那只青铜酒葫芦。") == []


def test_a_pronoun_a_named_one_just_acted_on_is_not_them() -> None:
    assert _held("陈默在隔板那边喊他吃饭，他应了一声，握着那只刻着北斗七星的葫芦站起来。") == []
    assert _held("沈砚回头叫他，他点点头，握着铁算盘走了。") == []
    assert _held("林晚应了一声，握着那只刻着北斗七星的葫芦站起来。")
    assert _held("陈默喊了一声，林晚应了，握着那只刻着北斗七星的葫芦站起来。")
    assert _held("林晚点点头，握着铁算盘走了。")


def test_another_material_or_colour_is_another_thing_for_every_reader() -> None:
    """R51 finding 1: the rule held only in the kind-and-marks reader; the looks reader (那块…的怀表) and the card-words
    reader (衔着东珠的…凤簪) still put the card's thing in the prose — one rule, asked by every 持有 reader."""
    watch = {**CARDS, "沈砚": {**CARDS["沈砚"], "持有": [*CARDS["沈砚"]["持有"], "银壳怀表"]}}
    assert _held("林晚掏出那块铜壳的怀表，看了看时辰。", watch) == []
    assert _held("林晚掏出那块银壳的怀表，看了看时辰。", watch)
    assert _held("林晚拔下那支衔着东珠的凤簪，插进了自己的发髻。")


def test_guards_no_other_sentence_covered() -> None:
    """R51 finding 3: near-misses each failing without its guard."""
    # PLACED_BY: the name before 对面/身边 is where the actor sits, far enough from the actor that it is read alone
    assert _held("陈默端着茶碗走过来，坐在林晚对面，握着铁算盘拨了拨。") == []
    assert _held("陈默端着茶碗走过来，蹲在林晚身边，握着铁算盘一颗一颗地拨。") == []
    assert _held("林晚端着茶碗走过来，坐在陈默对面，握着铁算盘拨了拨。")  # the one who sits acts
    # shared |= out_now: its holder using it (no verb of bringing out) puts it in reach of the sentences after
    assert _held("陈默握着铁算盘噼里啪啦打了一通。\n林晚握着铁算盘，又核了一遍。") == []
    assert _held("沈砚握着那只青铜酒葫芦灌了一口。\n林晚握着青铜酒葫芦，也灌了一口。") == []
    assert _held("林晚握着铁算盘，又核了一遍。\n陈默握着铁算盘噼里啪啦打了一通。")  # before its holder had it out
    # the tie rule of _identified: one mark of each of two cards' 簪 (东珠 of one, 梅花 of the other) says neither
    both = {**CARDS, "陈默": {**CARDS["陈默"], "持有": ["铁算盘", "白玉凤簪"]}}
    told = {**TEXTS, "陈默": "白玉凤簪是娘留下的，簪头雕着梅花。"}
    assert _held("林晚拔下那支衔着东珠、雕着梅花的簪子，插进了自己的发髻。", both, told) == []
    assert any("白玉凤簪" in m for m in _held("林晚拔下那支雕着梅花的簪子，插进了自己的发髻。", both, told))
    assert any("累丝金凤簪" in m for m in _held("林晚拔下那支衔着东珠的簪子，插进了自己的发髻。", both, told))


def test_a_gold_thread_is_no_material_of_the_thing() -> None:
    """The pin's 连续性-盲评六 连贯-持有-4 after finding 1: 金线 of a brocade robe is an embroidery, not a metal against 缎."""
    robe = {**CARDS, "沈砚": {**CARDS["沈砚"], "持有": [*CARDS["沈砚"]["持有"], "金丝龙袍"]}}
    assert _held("那件明黄缎子、金线绣龙的袍子，此刻就搭在林晚的肩上。", robe)
    assert _held("林晚披上那件明黄缎子、金线绣龙的袍子，对着镜子看了看。", robe)
    # the card telling it 那件金丝龙袍: 件金 is a piece of the name's sentence, not a material of the robe's
    told = {**TEXTS, "沈砚": TEXTS["沈砚"] + "那件金丝龙袍是宫里赏的。"}
    assert _held("那件明黄缎子、金线绣龙的袍子，此刻就搭在林晚的肩上。", robe, told)
