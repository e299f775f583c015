"""The new-name check, fifteenth round (task N15): recall from what was never proposed, on three fresh books by
three authors (专名-网文-盲评八, 十, 十一). Two classes kept: an ordinary word a quote speaks to, and four more
heads of a village's or a well's name. The forms here are made up for these tests; none is a labelled answer of any
set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _names(text: str) -> set[str]:
    return {n.name for n in find_new_nouns(text, [])}


def test_an_ordinary_word_a_quote_speaks_to_and_the_text_says_again_is_a_name() -> None:
    """“铁锚，你…”, “铁锚，…？” and a thing talked to (“老黄牛，你…”): the word the quote opens on is spoken to; the
    text says it again outside that quote, so it is someone's or something's name."""
    found = _names("“铁锚，你今晚守前舱。”船老大说。\n铁锚点点头，扛起缆绳走了。\n"
                   "他拍了拍那台拖拉机：“老黄牛，你可别趴窝。”\n老黄牛突突地响了起来。")
    assert {"铁锚", "老黄牛"} <= found


def test_a_word_only_ever_said_at_a_quote_s_start_or_not_spoken_to_is_none() -> None:
    """A reply (“老规矩，…”), a form of address (“丫头，…”), an order (“收网，”他说) or a phrase read out is no name."""
    found = _names("“老规矩，一碗阳春面。”\n“丫头，你过来。”\n“丫头，你坐下。”\n“收网，”他说。\n他们开始收网。\n"
                   "“木头，”他说，“就放在那儿。”\n木头堆在墙角。")
    assert not {"老规矩", "丫头", "收网", "木头"} & found


def test_a_word_for_someone_spoken_to_is_no_name() -> None:
    """师傅, 老乡, 大哥, 同志: words for someone by trade, place or kin are how one addresses anyone."""
    found = _names("“师傅，你等等。”师傅停下了。\n“老乡，你家在哪？”老乡笑了。\n“大哥，你别走。”大哥回头。")
    assert not {"师傅", "老乡", "大哥"} & found


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
