"""The style constitution's 禁句式 as regular expressions: compiled once, refused when one could hang a check."""

from __future__ import annotations

import re

from lwcore.api import LwError

_NESTED = re.compile(r"\((?:\\.|[^()\\])*[+*}](?:\\.|[^()\\])*\)\s*[+*{]")
"""A group that holds a repeat and is itself repeated: (林+)+, (\\w*)*, (a{2,})+."""


def banned_pattern(text: str) -> re.Pattern[str]:
    """A 禁句式 compiled; LwError when it is no regular expression or repeats a group that holds a repeat
    ((林+)+): where such a pattern fails to match, Python's engine tries exponentially many splits and
    every check hangs on a run of thirty characters."""
    if _NESTED.search(text):
        raise LwError(f"禁句式「{text}」里有套着的重复（如 (X+)+）：匹配不上时要试的切法成指数增长，机检会卡死",
                      expected="去掉外层的重复：(X+)+ 写成 X+")
    try:
        return re.compile(text)
    except re.error as exc:
        raise LwError(f"禁句式「{text}」不是合法的正则：{exc}") from None
