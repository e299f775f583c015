"""The new-name check, fourteenth round (task N14): a firm named in full, kept because it carried to three fresh sets
by three authors (专名-网文-盲评八, 七, 六). The forms here are made up for these tests; none is a labelled answer of
any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _names(text: str) -> set[str]:
    return {n.name for n in find_new_nouns(text, [])}


def test_a_brand_its_trade_and_the_firm_s_kind_make_one_name() -> None:
    """青禾+陶瓷+集团, 云岫+通用+航空+公司, 北岭+新+能源+集团有限公司: a brand before a trade said in dictionary words
    names the firm whole, even inside a quote, where the segmenter cuts the brand from the word before it."""
    found = _names("“这位是青禾陶瓷集团的周总。”\n云岫通用航空公司的直升机到了。\n牌子上写着：北岭新能源集团有限公司。")
    assert {"青禾陶瓷集团", "云岫通用航空公司", "北岭新能源集团有限公司"} <= found
    assert not {"禾陶瓷集团", "陶瓷集团", "新能源集团"} & found


def test_a_verb_or_a_common_word_before_a_trade_is_no_brand() -> None:
    """转手+卖给+游戏公司, 一家+航运公司, 数一数二的大公司: no brand, no name."""
    found = _names("他转手就卖给游戏公司了。\n那是一家航运公司。\n那是圈里数一数二的大公司。")
    assert not {n for n in found if n.endswith("公司")}
