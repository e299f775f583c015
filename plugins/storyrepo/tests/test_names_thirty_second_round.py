"""The new-name check, thirty-second round (task N32, stop 58). Precision: an everyday word of the dictionary before 汤
is the dish cooked from it (牛骨+汤, 片儿+汤), no named soup (:func:`_everyday_dish`); a real place of the dictionary
before a station the draft names is the station's address, cut off. Recall: a three-character place and a settlement's
word (…村) is a village when the draft says the place without the word too, whatever local word for a creek, a bay or
a house ends it (:func:`_village_candidates`); a place, a trade and 站 is a station when the draft names the place on
its own too (:func:`_station_candidates`). The sentences are made up for these tests, in other genres and periods than
the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import DISH_SUFFIXES, STOOD_TAILS, _everyday_dish, find_new_nouns, lexicon


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_an_everyday_word_and_soup_is_a_dish() -> None:
    """A 1980s street of cheap eateries: 鸡蛋汤 said twice is the dish, not a name (牛肉汤 by the function too)."""
    assert "汤" in DISH_SUFFIXES
    lex = lexicon()
    assert _everyday_dish(lex, "牛肉汤") and _everyday_dish(lex, "鸡蛋汤")
    found = _found("他给客人送鸡蛋汤去了。\n鸡蛋汤是这条街最便宜的吃食。")
    assert "鸡蛋汤" not in found


def test_a_coined_soup_is_still_a_name() -> None:
    """Near misses: a soup of the underworld opened by a person's word (孟婆) and one opened by a verb (还魂) are
    no everyday dish."""
    lex = lexicon()
    assert not _everyday_dish(lex, "孟婆汤")
    assert not _everyday_dish(lex, "还魂汤")


def test_a_village_said_with_and_without_its_word() -> None:
    """A 1950s delta story and a mountain tale: a common word, a local feature's character (浜, 岙) and 村, said
    without 村 too, is a village."""
    found = _found("他是荷叶浜村的人。\n荷叶浜穷，家家户户靠打鱼过日子。\n过了年，他又回了荷叶浜。")
    assert "荷叶浜" in found or "荷叶浜村" in found
    found = _found("天没亮，她就离开了石榴岙村。\n石榴岙的人都说她不会回来了。\n可她在外头一直想着石榴岙。")
    assert "石榴岙" in found or "石榴岙村" in found


def test_a_village_said_once_or_a_numbered_thing_is_not_read() -> None:
    """Near misses: a place said only with 村 gives no evidence of this kind, and a numbered thing before 村里
    (二号坑, then 村里人) is no village."""
    found = _found("考古队在二号坑下了铲。\n二号坑村里人都去看过。\n二号坑越挖越深。")
    assert "二号坑村" not in found


def test_a_station_of_a_place_the_draft_names() -> None:
    """A 1970s reservoir, a 1960s fishing coast and a mountain summit: a place, a trade's noun and 站, the place said on
    its own too, is a station; a real mountain said before it is no part of its name."""
    assert "鹤嘴水文站" in _found("她调到鹤嘴水文站。\n鹤嘴那边水急。")
    assert "三礁航标站" in _found("他分配到三礁航标站。\n三礁的渔民都认得他。\n三礁海面上雾大。")
    found = _found("他被派到太行山冷岭气象站。\n冷岭站的？等着吧。\n冷岭上的风一年四季不停。")
    assert "冷岭气象站" in found
    assert not any(name != "冷岭气象站" and name.endswith("冷岭气象站") for name in found)


def test_a_station_of_a_place_said_only_there_is_not_read() -> None:
    """Near misses: a place said only before its station gives no evidence of this kind (a kind of station: 公交站), and
    a real city of the dictionary before one is no coined place (潮州+汽车站)."""
    found = _found("他在东郊公交站等车。\n车来了，他上了车。")
    assert not any(name.endswith("站") for name in found)
    found = _found("他在潮州汽车站下了车。\n潮州的天热得像蒸笼。")  # a real city's station is that city's
    assert not any(name.endswith("站") for name in found)


def test_standing_is_no_station() -> None:
    """Near miss: 站 said as the verb after a thing (一根铁钎子+站在) is no station."""
    assert "在" in STOOD_TAILS
    found = _found("院子里一根铁钎子站在墙角。\n铁钎子是老刘的。")
    assert not any(name.endswith("站") for name in found)
