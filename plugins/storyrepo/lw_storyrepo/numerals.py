"""Chinese numerals as prose writes them under one hundred (三, 十二, 二十, 九十九)."""

from __future__ import annotations

DIGITS = "零一二三四五六七八九"


def chinese(n: int) -> str:
    """``n`` (0–99) in Chinese numerals: 10 is 十, 12 十二, 20 二十 — no leading 一 before 十."""
    if n < 10:
        return DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[ones] if ones else "")
