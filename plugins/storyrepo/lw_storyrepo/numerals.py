"""Chinese numerals as prose writes them: read (:func:`value`) and written under one hundred
(:func:`chinese`). One reader serves the dates, day counts, ranks and numbered names of the checks."""

from __future__ import annotations

DIGITS = "零一二三四五六七八九"
_VALUE = {**{c: i for i, c in enumerate(DIGITS)}, "〇": 0, "两": 2}
_WIDE = str.maketrans("０１２３４５６７８９", "0123456789")
_UNITS = (("千", 1000), ("百", 100), ("十", 10))
_SHORT = {"廿": "二十", "卅": "三十"}
DIGITS_MAX = 9
"""Longer text is no number a book counts with (a day, a year, a rank): None, never a huge int."""


def chinese(n: int) -> str:
    """``n`` (0–99) in Chinese numerals: 10 is 十, 12 十二, 20 二十 — no leading 一 before 十."""
    if n < 10:
        return DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[ones] if ones else "")


def value(text: str) -> int | None:
    """The whole number ``text`` writes, or None when it is not one number.

    Read: ASCII and full-width digits (12, １２); one Chinese digit (零 〇 一 … 九, 两); a year
    written digit by digit (一〇二三, 二零二四: two or more digits, no unit); numbers with units
    up to 9999 (十, 十二, 二十, 一百零五, 三千二百, 两百), 廿 and 卅 for 二十 and 三十 (廿三).
    Each unit at most once and in falling order, a digit before each unit but 十 (十二, 一百十五),
    零 only where a unit is skipped; anything else (十十, 二二十, 百, more than :data:`DIGITS_MAX`
    characters) is None, never an error."""
    text = text.strip().translate(_WIDE)
    if not text or len(text) > DIGITS_MAX:
        return None
    if text.isascii() and text.isdigit():
        return int(text)
    for short, long in _SHORT.items():
        text = text.replace(short, long)
    if all(c in _VALUE for c in text):
        if len(text) == 1:
            return _VALUE[text]
        return None if "两" in text else int("".join(str(_VALUE[c]) for c in text))
    total, rest = 0, text
    for unit, size in _UNITS:
        head, sep, tail = rest.partition(unit)
        if not sep:
            continue
        if head == "" and unit == "十":  # 十二, 一百十五
            digit = 1
        elif len(head) == 1 and head in _VALUE and _VALUE[head] > 0:
            digit = _VALUE[head]
        else:
            return None
        total += digit * size
        rest = tail[1:] if tail.startswith(("零", "〇")) and len(tail) > 1 else tail
    if rest == "":
        return total if total else None
    if len(rest) == 1 and rest in _VALUE and rest not in "零〇":
        return total + _VALUE[rest]
    return None
