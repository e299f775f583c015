"""The new-name check, thirty-fourth round (task N34, stop 59). Recall:

- a body a rural township or village keeps (:data:`COUNTRY_INSTITUTIONS`: 供销社, 合作社, 广播站…) after a place the book
  knows or the draft names is a new organisation, though the known place inside it used to hide it;
- a preposition jieba glues to a three-character token (从+西峪) splits off it, as it did for two-character ones;
- a surname-led name of three characters opening a sentence that goes on 是…的 (:func:`_opens_cleft`) is someone the
  narration introduces;
- a shop's stem said before a trade word of :data:`SHOP_TRADES` and said alone elsewhere names the shop
  (:func:`_shop_stem_candidates`);
- a place named for its order along a road or a river (:data:`ORDINAL_PLACE`: 三道沟, 头道卡) is a place's name, and
  an institution after it is new too.

Precision: a common word after 名字是 that goes on to who gave the name (:data:`NAME_GIVER`: 名字是+村里+的老先生起的)
is the giver's place, no name.

The sentences are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (COUNTRY_INSTITUTIONS, NAME_GIVER, ORDINAL_PLACE, SHOP_TRADES, _opens_cleft, _SaidCount,
                                      _shop_stem_candidates, find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_known_village_and_its_cooperative_is_a_new_organisation() -> None:
    """A 1960s fishing village: the village is known from an earlier chapter, its supply co-op is new."""
    assert "供销社" in COUNTRY_INSTITUTIONS and "合作社" in COUNTRY_INSTITUTIONS
    text = "腊月里，芦花荡供销社进了一批红糖。\n她排了半天队，只买到半斤。\n回来的路上，雪下大了。"
    assert "芦花荡供销社" in _found(text, ("芦花荡",))
    text = "第二年开春，大家入了青蒿湾合作社。\n社里分了三条船。"
    assert "青蒿湾合作社" in _found(text, ("青蒿湾",))


def test_a_known_place_said_alone_is_still_not_new() -> None:
    """Near miss: the known village said with an ordinary word (供销社的 after a comma, no place before it) finds nothing."""
    found = _found("芦花荡的人都说，供销社的红糖比去年贵。\n她只好少买一点。", ("芦花荡",))
    assert not {name for name in found if "供销社" in name}


def test_a_preposition_glued_to_a_coined_place_splits_off() -> None:
    """A 1970s brigade: 从+杏峪 is cut as one token by the segmenter; the co-op after it is still read whole."""
    assert "从杏峪" in lexicon().jieba.lcut("她托人从杏峪供销社捎回一包针线。")
    found = _found("她托人从杏峪供销社捎回一包针线。\n那包针线她用了三年。")
    assert "杏峪供销社" in found
    assert not {name for name in found if name.startswith("从")}


def test_a_full_name_opening_a_cleft_sentence_is_someone() -> None:
    """A Qing tea porter and a Republican ferryman, each named once by full name in narration: 某某是…的."""
    assert _opens_cleft("潘守义是跟着一队骆驼进的城。", 0, "潘守义")
    assert "潘守义" in _found("潘守义是跟着一队骆驼进的城。\n城门口的兵看了看他的路条，挥挥手让他过去。")
    assert "骆明远" in _found("天快黑了。骆明远是在渡口等到最后一班船的。\n船上只剩一个空位。")


def test_a_cleft_sentence_about_a_thing_or_mid_sentence_finds_no_one() -> None:
    """Near misses: a two-character thing (墨锭是…的) and a name not opening its sentence are not read by the cleft."""
    assert not _opens_cleft("墨锭是松烟做的。", 0, "墨锭")
    assert not _opens_cleft("他说卢秋原是跟着骆驼来的。", 2, "卢秋原")


def test_a_shop_said_in_full_and_by_its_stem_is_a_name() -> None:
    """A Republican inn and a tea house: said once in full, then by their stem alone."""
    assert "栈" in SHOP_TRADES and "茶坊" in SHOP_TRADES
    assert "同顺栈" in _found("天黑前他们住进了同顺栈。\n同顺是这条街上最老的大车店，掌柜是个山东人。")
    assert "福源烧锅" in _found("她去了福源烧锅打酒。\n福源是镇上最大的烧锅。")
    text = "散了集，她去恒丰茶坊喝茶。\n恒丰的伙计认得她，给她留了靠窗的座。"
    assert "恒丰茶坊" in _found(text)


def test_a_kind_of_shop_or_a_shop_never_said_by_its_stem_is_not_read() -> None:
    """Near misses: what a shop sells before its trade word (茶叶+行), a stem never said alone, a numeral's line (头一+行)."""
    lex = lexicon()
    for line, body in (("街上有家茶叶行。", "街上有家茶叶行。茶叶很贵。"),
                       ("他去了同顺栈。", "他去了同顺栈。"),
                       ("纸上头一行写着日子。", "纸上头一行写着日子。头一回。")):
        bounds = lex.boundaries(line, None, lex.cuts_of(line))
        assert list(_shop_stem_candidates(lex, line, bounds, _SaidCount(body))) == []


def test_a_place_named_for_its_order_is_a_name() -> None:
    """A 1960s forestry post and its farm: the gully said by its order, alone and before its institution."""
    assert ORDINAL_PLACE.fullmatch("四道岔")
    assert "四道岔" in _found("秋天，他被派到四道岔去看林子。\n四道岔只有三户人家。")
    assert "五道沟林场" in _found("他调到了五道沟林场。\n五道沟在大山里，冬天很冷。")


def test_a_count_of_ridges_or_ditches_is_no_place() -> None:
    """Near misses: one ridge and a checkpoint (一道), twelve dishes (十二道), three ditches dug (挖了+三道沟)."""
    assert not _found("翻过一道岭，前面是一道卡子。\n卡子上站着两个兵。")
    assert "二道沟" not in _found("桌上摆了十二道沟形的点心。\n大家都说好看。")
    assert "三道沟" not in _found("他们在地里挖了三道沟。\n沟里积满了雨水。")


def test_who_gave_a_name_is_no_name() -> None:
    """A pedlar's son and a midwife's charge: the common word before the giver of the name (镇上, 村里) is not found."""
    assert NAME_GIVER.match("镇上的老先生给起的", 2)
    found = _found("他叫石小满，这名字是镇上的老先生给起的。\n老先生说，小满是个好节气。")
    assert "石小满" in found and "镇上" not in found
    assert "村里" not in _found("她的名字是村里的接生婆起的。\n接生婆说这孩子命硬。")


def test_a_coined_place_before_the_giver_stays_a_name() -> None:
    """Near miss: a coined place where the giver lives (青崖+的渔民给他起的) is still a place's name."""
    assert "青崖" in _found("豆包这个外号是青崖的渔民给他起的。\n青崖在海边，他小时候在那儿住过。")
