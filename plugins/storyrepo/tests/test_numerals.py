"""One reader of Chinese numerals (``numerals.value``) for the dates, day counts, ranks and numbered
names the checks read: every number to 9999 in its standard writing, the short forms prose uses, and
no error on anything else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lw_storyrepo.checks import numeral_forms
from lw_storyrepo.numerals import DIGITS, chinese, value


def standard(n: int) -> str:
    """An independent writer of the standard form (一千零五, 三百一十, 十二), for the table."""
    if n < 10:
        return DIGITS[n]
    parts, zero = [], False
    for size, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit, n = divmod(n, size)
        if digit:
            if zero and parts:
                parts.append("零")
            parts.append(DIGITS[digit] + unit)
            zero = False
        elif parts:
            zero = True
    text = "".join(parts)
    return text[1:] if text.startswith("一十") else text


def test_every_number_to_9999_in_its_standard_writing() -> None:
    assert [value(standard(n)) for n in range(10000)] == list(range(10000))


def test_the_short_forms_of_prose() -> None:
    table = {"十": 10, "两": 2, "两百": 200, "廿三": 23, "卅": 30, "一百十五": 115, "一〇二三": 1023,
             "二零二四": 2024, "九八": 98, "１２": 12, "12": 12, " 三 ": 3, "〇": 0}
    assert {t: value(t) for t in table} == table


def test_what_is_not_one_number_is_none() -> None:
    for text in ("", "十十", "二二十", "百", "千百", "零十", "十零", "两两", "三十百", "五百千", "一百零", "半", "几十", "三x",
                 "1" * 10, "9" * 5000, "一" * 5000, "１" * 4400):
        assert value(text) is None, text


def test_the_writer_and_the_reader_agree_under_one_hundred() -> None:
    assert all(value(chinese(n)) == n for n in range(100))


@given(st.text(alphabet="〇零一二两三四五六七八九十百千廿卅初0123456789０１２３ x", max_size=8))
def test_the_reader_never_raises(text: str) -> None:
    n = value(text)
    assert n is None or 0 <= n


def test_a_numbered_name_is_written_the_other_way_only_under_one_hundred() -> None:
    """十十号 once raised inside the contract check (a traceback on a card's name); 一二三号 has no
    Chinese form under one hundred."""
    assert numeral_forms("十十号") == set() and numeral_forms("一二三号") == set()
    assert numeral_forms("七号车厢") == {"7号车厢"} and numeral_forms("14号") == {"十四号"}
