"""The contract check's sixteenth round (issue 30, stop 61, c4): a led event whose act never happens.

A contract line ``A带B…`` (one person leading another to an act: 带徒弟给拖拉机换刹片, 带着他到仓库后头看漏雨的窟窿) is read
by its parts — doer, companion, where or for what, the act and its object — not by its words: the two people may be
together in the prose and the place reached while the act's object is never written. When the prose writes neither
the object (the line's last two characters) nor any other noun of the act, a warning (checks._led_act_untold).
Silent: the object told; another noun of the act told (垒沙袋挡洪水: 沙袋); a verb with a one-character object (放羊,
点卯: told in other words); a line that negates its act; a second name that is no person.

Settings are not the labelled sets': a state farm's machine yard, a dairy, a printing shop.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings
from lw_storyrepo.drafts import Draft
from lw_storyrepo.findings import Finding

PEOPLE = {"老周": "周德海", "周德海": "周德海", "小陈": "陈晓", "陈晓": "陈晓", "刘主任": "刘主任", "拖拉机站": "拖拉机站"}


def ctx() -> CheckContext:
    c = CheckContext(dict(PEOPLE), [], [], [], 0, set(PEOPLE), set(),
                     people={v for k, v in PEOPLE.items() if k != "拖拉机站"})
    return c.for_draft({})


def findings(line: str, body: str) -> list[Finding]:
    return [f for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx())]


def led_warnings(line: str, body: str) -> list[str]:
    found = findings(line, body)
    assert not [f for f in found if f.severity == ERROR], found  # the two people are there: never an error
    return [f.message for f in found if f.severity == WARN and "要做的事" in f.message]


TOGETHER = ("天刚亮，老周就把小陈从被窝里喊起来，两个人一前一后进了机库。老周蹲在拖拉机跟前抽了袋烟，说起去年秋收的事，"
            "小陈听着，手里攥着扳手。后来刘主任来喊吃饭，两个人拍拍身上的土，走了。")


@pytest.mark.parametrize("line, head", [
    ("老周带小陈给拖拉机换刹片", "刹片"),                 # 给X then the act: the object never written
    ("老周带着小陈到机库后头看屋顶漏雨的窟窿", "窟窿"),      # 到P后头 then the act; 后头 is a place part, no noun of the act
    ("老周带领小陈给拖拉机拧轮毂", "轮毂"),                # a sibling word of leading (带领) and a sibling act
    ("老周带小陈在拖拉机站修水箱", "水箱"),                # 在P then the act, the place a term of the book
])
def test_a_led_act_whose_object_the_prose_never_writes_is_warned(line: str, head: str) -> None:
    warned = led_warnings(line, TOGETHER)
    assert len(warned) == 1 and f"（{head}）" in warned[0], warned


@pytest.mark.parametrize("line, body", [
    # the object told, in the same words
    ("老周带小陈给拖拉机换刹片", TOGETHER + "临走前老周把旧刹片卸下来，叫小陈把新的装上。"),
    # another noun of the act told (沙袋), the second object (洪水) in other words (水)
    ("老周带小陈在渠边垒沙袋挡洪水", "老周和小陈扛了一下午沙袋，垒在渠边上。天黑时水涨上来，没漫过去。"),
    # a verb with a one-character object: told in other words (赶着羊上了坡)
    ("老周带小陈上后山放羊", "老周赶着羊群往后山走，小陈跟在后头甩着鞭子，羊一只只爬上了坡。"),
    ("老周带小陈去场部点卯", "老周领着小陈到场部报了到，刘主任在簿子上画了个钩。"),
    # the line negates its act: nothing to find
    ("老周不带小陈去修水箱", TOGETHER),
    # the second name is a place, not a person: no leading of a person
    ("老周带拖拉机站的人换刹片", TOGETHER),
    # the line ends on a filler's one character: no object of two characters to read
    ("老周带小陈量麦秆的高", TOGETHER),
])
def test_a_led_act_told_or_not_of_the_shape_is_silent(line: str, body: str) -> None:
    assert led_warnings(line, body) == []


def test_a_name_of_the_book_inside_the_act_named_by_the_prose_tells_it() -> None:
    # 拖拉机站的检修 told as 拖拉机站修了一上午 (the object in other words, its place named); a name right after a link
    # (给拖拉机站…: the for-what) tells nothing of the act
    body = "老周领着小陈在拖拉机站忙了一上午，两个人满手油泥。"
    assert led_warnings("老周带小陈赶拖拉机站的检修", body) == []
    assert len(led_warnings("老周带小陈给拖拉机站换刹片", body)) == 1
