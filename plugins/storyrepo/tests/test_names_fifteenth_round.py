"""The new-name check, fifteenth round (task N15): recall from what was never proposed, on three fresh books by
three authors (专名-网文-盲评八, 十, 十一). One class kept: four more heads of a village's, a hollow's or a well's name,
derived on 盲评八 and gaining on 盲评十 and 十一. The forms here are made up for these tests; none is a labelled answer
of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _names(text: str) -> set[str]:
    return {n.name for n in find_new_nouns(text, [])}


def test_a_village_a_gully_a_hollow_or_a_well_is_a_place() -> None:
    """沟, 洼, 井 and 乡 end a place's name (枣树沟, 王家洼, 老鸹井, 柳河乡) as 村 and 湾 do; a dictionary word
    (水井, 山沟) is no name."""
    found = _names("他老家在枣树沟，去年才搬到王家洼。\n枣树沟的水甜，王家洼的人都姓王。\n"
                   "老鸹井出了卤，柳河乡的人都来看。\n老鸹井的东家姓秦。\n"
                   "院里有一口水井，后面是山沟。水井边长着草，山沟里有狼。")
    assert {"枣树沟", "王家洼", "老鸹井", "柳河乡"} <= found
    assert not {"水井", "山沟"} & found


def test_a_place_named_by_叫_keeps_the_name_when_its_stem_is_a_common_word() -> None:
    """管那里叫聋子井: 聋子 is a word, but 叫 names the place whole."""
    assert "聋子井" in _names("矿上的人管那里叫聋子井。")
