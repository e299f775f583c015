"""The new-name check, nineteenth round (task N19): precision on fresh text, false names by their form, read off the
development books 专名-网文-盲评十二 and 十三 (and 十, 十一). Three forms are no new names: a name the dictionary knows
as a place or a person's, said on its own in the draft too, with 城 or 县 after it (the place itself, said with its
kind); a surname and 家 (a household); a colour and one character more, read as someone only because the colour is
a surname's character too, said with no context. The sentences here are made up for these tests; none is a
labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import _coloured_thing, _household, _place_with_its_kind, find_new_nouns, lexicon


def _names(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_known_place_said_with_its_kind_is_that_place() -> None:
    """沙州 said alone, then 沙州城外: the 城 says what kind of place 沙州 is; no new place besides."""
    lex = lexicon()
    text = "商队离开沙州已经三天。沙州城外的井早干了，掌柜说到了前头再打水。"
    assert _place_with_its_kind(lex, text, "沙州城")
    assert "沙州城" not in _names(text)
    assert _place_with_its_kind(lex, "他从邵阳来。信上写着邵阳县某乡。", "邵阳县")


def test_a_coined_town_or_one_never_said_alone_is_left_to_the_other_rules() -> None:
    """落日 is a common word (the setting sun, said so here); 青阳城 is never said without its 城: neither is touched."""
    lex = lexicon()
    assert not _place_with_its_kind(lex, "落日城的城门开了。落日在城楼后头。", "落日城")
    assert not _place_with_its_kind(lex, "青阳城的雨下了三天。青阳城里没人出门。", "青阳城")
    assert not _place_with_its_kind(lex, "沙州的风大，沙州的人也硬。", "沙州")


def test_a_surname_and_jia_is_a_household_not_someone() -> None:
    """俞家的灶, 俞家那一块: the family's hearth, said twice; its troupe or its people are named on their own."""
    assert _household("俞家") and _household("贺家")
    assert not _household("贺家班") and not _household("家明")
    assert "俞家" not in _names("潮水退了，俞家的灶塌了半边。他们垒到俞家那一块的时候，天已经黑了。")


def test_a_colour_and_a_noun_said_with_no_context_is_a_thing() -> None:
    """白沙 strewn on the ground, 青槐 on a faded sign: a colour reads as a surname, but nobody acts or is spoken to."""
    assert _coloured_thing("白沙") and _coloured_thing("青槐")
    assert not _coloured_thing("白守仁") and not _coloured_thing("周沙")
    found = _names("场子中间用白沙撒了一个圈。他蹲下去，拿手指在白沙上划了一道。")
    assert "白沙" not in found


def test_someone_named_by_a_colour_who_acts_is_still_found() -> None:
    """白露 speaks and is spoken to: context makes her someone, the colour notwithstanding."""
    found = _names("白露推门进来，说：“车到了。”\n“知道了，”他对白露说，“你先下去。”白露点点头。")
    assert "白露" in found
