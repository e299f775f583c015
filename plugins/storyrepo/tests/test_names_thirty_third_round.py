"""The new-name check, thirty-third round (task N33, stop 58). Precision: a real county or city and its kind's word
(莱阳+县, 扬州+城) is the real place, not a name the book coins, even when the draft never says the place alone — when
the dictionary tags the stem a place and files it as a county (stem+县) or a city (stem+市) (:func:`_real_county_or_city`,
read by :func:`_place_with_its_kind`). A coined stem (落霞城, 青石县) and a real county's name with 城 (the dictionary
has no such city) stay names. The sentences are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import REAL_PLACE_KIND, _real_county_or_city, find_new_nouns, lexicon


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_real_county_said_once_is_no_new_name() -> None:
    """A 1920s famine road and a carver's mother: a real county said once with 县, never alone, is the real place."""
    assert REAL_PLACE_KIND["县"] == "县"
    assert "临朐县" not in _found("民国二十年，他从临朐县逃荒出来。\n一路要饭到了关外。")
    assert "东阳县" not in _found("他娘是东阳县人，嫁过来那年才十七岁。\n她会做一手好木雕。")


def test_a_real_city_and_its_town_is_no_new_name() -> None:
    """A Qing porcelain pedlar: a real city said with 城 (the dictionary files 温州 as a city) is the real place."""
    assert REAL_PLACE_KIND["城"] == "市"
    assert _real_county_or_city(lexicon(), "温州城")
    assert "温州城" not in _found("那年秋天，他挑着一担瓷碗进了温州城。\n街上的人都在议论米价。")


def test_a_coined_town_or_county_is_still_a_name() -> None:
    """Near misses: a coined town and a coined county of a costume tale stay names; a real county's name with 城
    (上林: a county, no city in the dictionary) is not taken for the real place."""
    lex = lexicon()
    assert not _real_county_or_city(lex, "落霞城")
    assert not _real_county_or_city(lex, "青石县")
    assert not _real_county_or_city(lex, "上林城")
    assert "落霞城" in _found("落霞城的城门在黄昏时关上。\n守城的兵卒换了岗。\n落霞城里灯火一盏盏亮起来。")
    assert "青石县" in _found("青石县的县令姓周。\n周县令每天早上要去衙门。\n青石县百姓都说他是个好官。")
