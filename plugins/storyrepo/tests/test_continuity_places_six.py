"""A card that keeps its owner away until a day (issue 30, P2 at stop 55): 「…中秋前回不来」, 「…年底以前走不开」 say the
card's place is a journey away, as 「…十七日以前不回扬州」 (``FAR_WORDS``' 前不回) did — the world's far places
(``far_places``) read them from the card's own text, and the 位置 readers of the card's place (``_present_far``: someone
away acting here, or said by another to have come here today) then see them. The real case is 连续性-盲评三十六's
(程月娥: 回了绩溪娘家服侍病重的老父，中秋前回不来; the draft: 「汪大嫂刚才来过，在伙房给你留了两个粽子」), the
form seen on the cards of 二十五 (十一月三十日以前回不来), 二十六 (十月以前回不来) and 三十五 (年底放寒假以前走不开) too.
The sentences below are written here in other genres and periods (a 1970s commune clinic, a Song dynasty river port, a
1990s Shenzhen electronics factory) and none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

import continuity_helpers
from lw_storyrepo.continuity import World, far_places, places_inside
from lw_storyrepo.findings import Finding


def _world(cards: dict[str, dict[str, Any]], aliases: dict[str, str], places: set[str], lore: str,
           gender: dict[str, str]) -> World:
    texts = [lore, *(str(c.get("设定") or "") for c in cards.values())]
    return World(cards, {**{n: n for n in cards}, **aliases}, places, set(), ("普通人",), None, places_inside(lore, places),
                 gender, far=far_places(texts, places))


CLINIC = ({"赵春生": {"姓名": "赵春生", "状态": "在世", "位置": "红旗公社"},
           "孙玉梅": {"姓名": "孙玉梅", "状态": "在世", "位置": "县城", "设定": "赤脚医生，去县城卫校进修，年底以前走不开。"}},
          {"孙大夫": "孙玉梅", "玉梅": "孙玉梅"}, {"红旗公社", "县城", "卫生所"}, "卫生所在红旗公社的大院里。",
          {"赵春生": "他", "孙玉梅": "她"})
PORT = ({"陆三郎": {"姓名": "陆三郎", "状态": "在世", "位置": "瓜洲"},
         "周纲首": {"姓名": "周纲首", "状态": "在世", "位置": "明州", "设定": "押着纲船去了明州交割，端午前回不来。"}},
        {"老周": "周纲首"}, {"瓜洲", "明州", "渡口", "货栈"}, "货栈在瓜洲渡口边上。",
        {"陆三郎": "他", "周纲首": "他"})
FACTORY = ({"阿芳": {"姓名": "阿芳", "状态": "在世", "位置": "宝安"},
            "黄建国": {"姓名": "黄建国", "状态": "在世", "位置": "香港", "设定": "厂长，去香港跟港商谈单，月底以前回不来。"}},
           {"黄厂长": "黄建国"}, {"宝安", "香港", "车间", "宿舍"}, "车间和宿舍都在宝安的厂区里。",
           {"阿芳": "她", "黄建国": "他"})


def _placed(body: str, book: tuple[Any, ...], pov: str) -> list[Finding]:
    world = _world(*book)
    return [f for f in continuity_helpers.findings(body, world, pov, "1976年10月3日", [pov])
            if "角色卡·位置" in f.message and "很远" in f.message]  # the far readers' (not the card-place hint's)


def test_a_card_kept_away_until_a_day_makes_its_place_far() -> None:
    """前回不来 and 前走不开 on a card name its place as a journey away; 前回来 (back before the day) does not."""
    assert "县城" in _world(*CLINIC).far and "明州" in _world(*PORT).far and "香港" in _world(*FACTORY).far
    back = ({"甲": {"姓名": "甲", "状态": "在世", "位置": "县城", "设定": "去县城开会，年底以前回来。"}}, {}, {"县城", "公社"},
            "公社在山里。", {"甲": "他"})
    assert "县城" not in _world(*back).far


@pytest.mark.parametrize(("book", "pov", "body", "who", "sentence"), [
    (CLINIC, "赵春生", "赵春生刚进门，护士就说：“孙大夫刚才来过，在药柜里给你留了两包草药。”", "孙玉梅", "孙大夫刚才来过"),
    (PORT, "陆三郎", "陆三郎回到货栈，伙计迎上来说：“老周今早来过，留下一包茶叶就走了。”", "周纲首", "老周今早来过"),
    (FACTORY, "阿芳", "下了夜班，阿芳回到车间收拾工具。\n\n黄厂长推门进来，看了一眼流水线。", "黄建国", "黄厂长推门进来"),
])
def test_someone_kept_away_until_a_day_is_not_here(book: tuple[Any, ...], pov: str, body: str, who: str,
                                                    sentence: str) -> None:
    """The one kept away acts here, or is said to have come just now: a 位置 finding naming them, with the sentence."""
    found = _placed(body, book, pov)
    assert found, body
    assert who in found[0].message and "位置" in found[0].message, found[0]
    assert sentence[:6] in found[0].excerpt, (found[0], sentence)


@pytest.mark.parametrize(("book", "pov", "body"), [
    (CLINIC, "赵春生", "赵春生收到一封信，孙大夫在信里说：“卫校的课排得满，年底以前走不开。”"),
    (PORT, "陆三郎", "老周坐着纲船从明州回来了，陆三郎跑到渡口去接。\n\n老周站在渡口的台阶上，冲他招了招手。"),
])
def test_a_letter_or_a_told_return_stays_silent(book: tuple[Any, ...], pov: str, body: str) -> None:
    """Near-misses: words in a letter are no presence; a return told in the draft brings the one away back."""
    assert not _placed(body, book, pov), body


MILL = ({n: {"姓名": n, "状态": "在世", "位置": "化验室"} for n in ("罗秀珍", "白国栋")}, {"老白": "白国栋"},
        {"化验室", "锅炉房", "码头", "糖厂"}, "化验室、锅炉房和码头都在糖厂里。", {"罗秀珍": "她", "白国栋": "他"})


def test_the_place_hint_names_where_the_draft_moved_them() -> None:
    """U11's 位置 hint named the card's place though the draft's own 设定变更 had moved him: the hint names the draft's
    place then (设定变更·位置), the card's otherwise; a place the change itself names stays silent."""
    body = "罗秀珍在化验室里称样。\n\n老白蹲在码头上抽烟。"
    moved = [f for f in continuity_helpers.findings(body, _world(*MILL), "罗秀珍", "1976年10月3日", ["罗秀珍", "白国栋"],
                                                    changes=["白国栋.位置=锅炉房"]) if "本章没有写他到「码头」去" in f.message]
    assert moved and moved[0].message.startswith("白国栋 在「锅炉房」（设定变更·位置）"), moved
    card = [f for f in continuity_helpers.findings(body, _world(*MILL), "罗秀珍", "1976年10月3日", ["罗秀珍", "白国栋"])
            if "本章没有写他到「码头」去" in f.message]
    assert card and card[0].message.startswith("白国栋 在「化验室」（角色卡·位置）"), card
    assert not [f for f in continuity_helpers.findings(body, _world(*MILL), "罗秀珍", "1976年10月3日", ["罗秀珍", "白国栋"],
                                                       changes=["白国栋.位置=码头"]) if "本章没有写他到" in f.message]


def test_a_far_cards_post_after_another_surname_is_someone_else() -> None:
    """The post of a card kept away (港务长) said after another surname (钱港务长) is another man of that post, not the
    one away: silent; the post alone or with the card's own surname stays theirs."""
    harbour = ({"许明": {"姓名": "许明", "状态": "在世", "位置": "码头"},
                "严守业": {"姓名": "严守业", "状态": "在世", "位置": "天津", "境界": "港务长",
                         "设定": "港务长，去天津开会，月底以前回不来。"}},
               {"严港务长": "严守业", "港务长": "严守业"}, {"码头", "天津"}, "码头在海边。", {"许明": "他", "严守业": "他"})
    assert "天津" in _world(*harbour).far
    assert not _placed("许明在码头上点数。\n\n钱港务长推门进来，看了一眼货单。", harbour, "许明")
    assert _placed("许明在码头上点数。\n\n严港务长推门进来，看了一眼货单。", harbour, "许明")


def test_now_or_near_is_no_day_kept_away() -> None:
    """目前 / 眼前 / 跟前 before 走不开 or 回不来 are a now and a nearness, not a day before which one is away (R55: 眼前走不开
    made the card's 检修船 far, and someone at the station warned as far from it)."""
    for said in ("在检修船上当轮机长，眼前走不开。", "在检修船上，目前回不来。", "守在老娘跟前走不开。", "在检修船上当轮机长，目前不回家。"):
        book = ({"甲": {"姓名": "甲", "状态": "在世", "位置": "检修船", "设定": said}}, {}, {"检修船", "升压站"},
                "升压站在海边。", {"甲": "他"})
        assert "检修船" not in _world(*book).far, said
    kept = ({"甲": {"姓名": "甲", "状态": "在世", "位置": "检修船", "设定": "在检修船上，月底之前走不开。"}}, {},
            {"检修船", "升压站"}, "升压站在海边。", {"甲": "他"})
    assert "检修船" in _world(*kept).far
