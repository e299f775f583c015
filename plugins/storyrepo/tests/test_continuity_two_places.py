"""Someone in two places within one draft (issue 30, P1 at stop 54): the draft itself says a person went away — to a
place the world says is far, on a journey of days, or for a span it names (这几天, 要半个月才回来) wherever the place —
and later, within the same draft, has them act in the scene (standing, pushing the door, calling to the point of view,
speaking beside a quote) with no return told (回来, 赶回, 下了马车). Silent when a return, a memory, a quote of earlier, a
letter or a call, or a going still to come (要去, 明天去) intervenes. The 位置 reader of the card's own place reads the
draft's goings (``_gone_in_draft``) as it reads the card's far place (``_present_far``): one path.

The three real cases are the new authors' (U8, U9, U10 of stops 51–53, their own books, not corpus sets); the rest are
written here in other genres and periods (a 1950s county grain station, a Ming frontier fort, a research station in
the Antarctic) and none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

import continuity_helpers
from lw_storyrepo.continuity import World, dated_subjects, far_places, places_inside
from lw_storyrepo.findings import Finding


def _world(cards: dict[str, dict[str, Any]], aliases: dict[str, str], places: set[str], lore: str,
           gender: dict[str, str]) -> World:
    return World(cards, {**{n: n for n in cards}, **aliases}, places, set(), ("普通人",), None, places_inside(lore, places),
                 gender, far=far_places([lore], places))


STATION = ({n: {"姓名": n, "状态": "在世", "位置": "粮站"} for n in ("苏明远", "葛长顺", "田桂芬", "欧阳铁")},
           {"老葛": "葛长顺", "桂芬": "田桂芬", "铁子": "欧阳铁"}, {"粮站", "省城", "库房", "镇上", "县里"},
           "粮站在清水镇的东头。省城离清水镇三百多里，坐汽车要走一天。库房在粮站后院。",
           {"苏明远": "他", "葛长顺": "他", "田桂芬": "她", "欧阳铁": "他"})
FORT = ({n: {"姓名": n, "状态": "在世", "位置": "镇虏堡"} for n in ("沈千户", "卢百户", "韩夜不收")},
        {"老卢": "卢百户", "韩老三": "韩夜不收"}, {"镇虏堡", "大同", "宣府", "烽火台", "卫城"},
        "镇虏堡在长城脚下。大同离镇虏堡二百多里，快马也要走两天；宣府更远。烽火台在堡北的山梁上。",
        {"沈千户": "他", "卢百户": "他", "韩夜不收": "他"})
POLAR = ({n: {"姓名": n, "状态": "在世", "位置": "中山站"} for n in ("林晓", "贺远征", "巴特尔")},
         {"老贺": "贺远征"}, {"中山站", "内陆冰盖", "冰穹", "雪龙船"},
         "中山站在南极的拉斯曼丘陵上。", {"林晓": "她", "贺远征": "他", "巴特尔": "他"})


def _two_places(body: str, book: tuple[Any, ...], pov: str, changes: list[str] | None = None) -> list[Finding]:
    world = _world(*book)
    return [f for f in continuity_helpers.findings(body, world, pov, "1956年10月3日", list(book[0]), changes=changes)
            if "本章前文写" in f.message]


def test_the_new_authors_cases_fire() -> None:
    """U8 (a 1920s Xiamen remittance house), U9 (a Qinghai pasture), U10 (a lighthouse off Zhoushan, with the draft's own
    设定变更 too): the one gone acts in the scene, the card field 位置 named and the sentence as evidence."""
    u8 = ({n: {"姓名": n, "状态": "在世", "位置": "厦门"} for n in ("林阿水", "黄九")}, {}, {"厦门", "泉州", "码头"}, "码头在厦门。",
          {"林阿水": "他", "黄九": "他"})
    u9 = ({n: {"姓名": n, "状态": "在世", "位置": "牧场"} for n in ("韩秀兰", "才让")}, {}, {"牧场", "西宁", "羊圈"}, "羊圈在牧场。",
          {"韩秀兰": "她", "才让": "他"})
    u10 = ({n: {"姓名": n, "状态": "在世", "位置": "灯塔"} for n in ("阿海", "郑德福")}, {}, {"灯塔", "灯室", "定海"}, "灯室在灯塔。",
           {"阿海": "他", "郑德福": "他"})
    cases = [
        (u8, "林阿水", None, "黄九这几天回泉州老家上坟去了。\n\n天黑前，黄九在码头上喊他。", "黄九在码头上喊他"),
        (u9, "韩秀兰", None, "这几天才让回西宁看病去了，羊圈里的活都落在她一个人身上。\n\n傍晚，才让站在羊圈那边喊她吃饭。",
         "才让站在羊圈那边喊她吃饭"),
        (u10, "阿海", None, "郑德福吃过晚饭就搭补给船去了定海开会，要半个月才回来。\n\n这时郑德福推门进了灯室。",
         "这时郑德福推门进了灯室"),
        (u10, "阿海", ["郑德福.位置=定海"],
         "郑德福吃过晚饭就搭补给船去了定海开会，要半个月才回来。\n\n这时郑德福推门进了灯室。", "这时郑德福推门进了灯室"),
    ]
    for book, pov, changes, body, sentence in cases:
        found = _two_places(body, book, pov, changes)
        assert found, body
        assert found[0].line == 3 and sentence.startswith(found[0].excerpt.rstrip("。")[:8]), (found[0], sentence)
        assert "本章前文写" in found[0].message and found[0].subject is not None and found[0].subject.field == "位置" \
            or "位置" in found[0].message or found[0].kind == "连贯", found[0]


@pytest.mark.parametrize("body", [
    "老葛昨天就去了省城，粮站里只剩苏明远一个人过秤。\n\n晌午，老葛蹲在库房门口抽着烟，看苏明远记账。",
    "田桂芬这几天回省城娘家去了。\n\n苏明远把账本合上。桂芬端着一碗面条走过来，放在他手边。",
    "欧阳铁出差去了，说是下个月才回。\n\n苏明远一抬头，铁子站在磅秤旁边，冲他招了招手。",
    "葛长顺正在省城的粮食局里开会。\n\n苏明远转过身，老葛拍了拍他的肩膀。",
    "铁子押送一车公粮进山去了。\n\n苏明远正在过秤，铁子在门口喊他。",
    "田桂芬回省城娘家去了。\n\n“账对上了没有？”桂芬问。",
    # a span with a place not known to be far (县里): the span keeps them away
    "老葛这几天去县里学习去了。\n\n晌午，老葛蹲在库房门口抽着烟。",
    "欧阳铁去了县里开会，要十来天才回来。\n\n天擦黑，铁子推门进了库房，把提包往桌上一扔。",
])
def test_one_the_draft_sends_away_acts_in_the_scene(body: str) -> None:
    assert _two_places(body, STATION, "苏明远"), body


@pytest.mark.parametrize("body", [
    "卢百户押送一队军饷往大同去了，沈千户独自守着堡门。\n\n入夜，老卢提着灯笼走过来，冲沈千户点了点头。",
    "韩老三昨天就去了宣府。\n\n“北边的烟又起了。”韩老三说。",
    "老卢这几天还在大同交割粮草。\n\n沈千户刚上城楼，老卢在垛口边拉住他。",
    "韩老三去了卫城领饷，得七八天才回。\n\n沈千户刚上城楼，韩老三在垛口边拉住他。",
])
def test_a_frontier_fort_sends_them_away_too(body: str) -> None:
    assert _two_places(body, FORT, "沈千户"), body


@pytest.mark.parametrize("body", [
    "老贺上内陆冰盖去了，这些天都在冰穹打钻。\n\n林晓刚进发电栋，老贺站在配电柜前冲她招手。",
    "巴特尔搭雪龙船走了，要两个月才回来。\n\n“风速多少？”巴特尔问。",
])
def test_a_polar_station_sends_them_away_too(body: str) -> None:
    assert _two_places(body, POLAR, "林晓"), body


@pytest.mark.parametrize("body", [
    # a letter from the one away
    "老葛昨天就去了省城。\n\n苏明远拆开老葛的信，信上说他在省城住下了，叫苏明远看好库房。",
    # remembered
    "田桂芬这几天回省城娘家去了。\n\n苏明远想起去年桂芬站在磅秤旁边记数的样子。",
    # a return told
    "欧阳铁出差去了，要十来天才回来。\n\n傍晚，铁子从省城赶回来了，推门进了库房，一身的土。",
    "葛长顺昨天就去了省城。\n\n下午老葛从省城赶回来了，在库房门口点了点头。",
    "老葛这几天去县里学习去了。\n\n傍晚老葛回来了，蹲在库房门口抽着烟。",
    # a going still to come, a plan
    "老葛明天要去省城开会，这几天都在准备材料。\n\n老葛蹲在库房门口抽着烟。",
    "老葛打算这几天回省城去。\n\n老葛蹲在库房门口抽着烟。",
    # someone else acts; the one gone spoken of
    "老葛去了省城。\n\n桂芬在院子里喊苏明远吃饭。",
    "老葛昨天就去了省城。\n\n苏明远跟桂芬说起老葛，说他在省城准是又喝上了。",
    # a quote of earlier
    "田桂芬回省城娘家去了。\n\n苏明远记得桂芬说过：“账要当天对。”",
    # a time there, not where one is now; a span said of someone else
    "老葛在省城的时候学过打算盘。\n\n老葛蹲在库房门口抽着烟。",
    "这几天粮站忙，铁子去了库房。\n\n铁子蹲在库房门口抽着烟。",
    # the place near
    "老葛去了镇上。\n\n晌午，老葛蹲在库房门口抽着烟。",
])
def test_near_misses_stay_silent(body: str) -> None:
    assert not _two_places(body, STATION, "苏明远"), body


def test_a_time_there_in_someone_elses_words_is_no_move() -> None:
    """U10's F2 (a lighthouse keeper says of a dead sailor 「他在沈家门跑船那些年…」): years spent there, said in a quote, move
    nobody — not the speaker, not the one spoken of. Here in a frontier fort's words."""
    cards = {n: {"姓名": n, "状态": "在世", "位置": "镇虏堡"} for n in ("沈千户", "卢百户")}
    world = _world(cards, {"老卢": "卢百户"}, {"镇虏堡", "大同"}, FORT[3], {"沈千户": "他", "卢百户": "他"})
    body = "卢百户把灯放下。\n\n“他在大同当夜不收那些年，见过太多人冻死在墙外头。”卢百户说。"
    found = continuity_helpers.findings(body, world, "沈千户", "1956年10月3日", list(cards))
    assert not [f for f in found if "位置" in f.message or "大同" in f.message], found


# The card's dated coming (F7 of this round's census): a card that says where its owner is now and the day they come
# back (眼下在X…D才回) keeps them there until that day, whatever the world says of the distance.
DATED = {
    "顾一鸣": "眼下在长沙总店盘账，十月二十才坐火轮回汉口。",
    "罗师傅": "眼下在景德镇窑上监烧，九月十八才跟货船回来。",
    "唐嬷嬷": "眼下在苏州织造府里，九月二十日才回府。",
}
PLACE = {"顾一鸣": "长沙", "罗师傅": "景德镇", "唐嬷嬷": "苏州"}


def _dated(body: str, date: str, changes: list[str] | None = None, dated: dict[str, str] | None = None,
           settled: str | None = "光绪二年八月二十") -> list[str]:
    """The findings of 很远 on ``date``, the book's last settled chapter set on ``settled`` (the year the cards are kept in)."""
    cards = {"方小满": {"姓名": "方小满", "状态": "在世", "位置": "汉口"},
             **{n: {"姓名": n, "状态": "在世", "位置": PLACE[n]} for n in DATED}}
    places = {"汉口", "长沙", "景德镇", "苏州", "货栈"}
    world = _world(cards, {"顾老板": "顾一鸣", "罗师": "罗师傅"}, places, "货栈在汉口。",
                   {"方小满": "她", "顾一鸣": "他", "罗师傅": "他", "唐嬷嬷": "她"})
    world.dated_by = dated_subjects("", dated or DATED)
    world.last_time = (3, settled) if settled else None
    return [f.message for f in continuity_helpers.findings(body, world, "方小满", date, list(cards), changes=changes)
            if "很远" in f.message]


@pytest.mark.parametrize("body", [
    "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。",
    "方小满把茶端进去，罗师傅站在窗边，对着光看那只青花碗。",
    "唐嬷嬷坐在廊下，慢慢剥着一碟菱角。",
])
def test_one_a_card_keeps_away_until_a_day_is_not_here_before_it(body: str) -> None:
    assert _dated(body, "光绪二年九月初三"), body


def test_the_dated_card_stays_silent_on_its_day_after_and_when_moved() -> None:
    body = "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。"
    assert _dated(body, "光绪二年十月二十一") == []  # the day is past: back as the card says
    assert _dated(body, "光绪二年九月初三", changes=["顾一鸣.位置=汉口"]) == []  # the draft brings him here
    # spoken of, not here
    assert _dated("方小满想起顾老板坐在账房里翻流水账的样子。", "光绪二年九月初三") == []


# R54's read of P1 (stop 54): what an outside reader found firing, each in a 1980s migratory bee farm in Yunnan
# (written here, none from a labelled draft); the one before each blank line is the going read, the next the act.
BEES = ({n: {"姓名": n, "状态": "在世", "位置": "蜂场"} for n in ("马春生", "杜老四", "冯秀英")},
        {"老杜": "杜老四", "秀英": "冯秀英"}, {"蜂场", "昆明", "帐篷", "油菜地"},
        "蜂场扎在罗平的油菜地边上。昆明离罗平四百多里，坐汽车要走一天。帐篷在蜂场东头。",
        {"马春生": "他", "杜老四": "他", "冯秀英": "她"})
SQUATS = "\n\n晌午，老杜蹲在帐篷门口抽着烟。"


@pytest.mark.parametrize("first", [
    # a bare 在 is no "there now" (STILL_THERE needed)
    "老杜在昆明有个表哥。", "老杜在昆明买的草帽戴上了。", "老杜在昆明待过三年。",
    # a one-character verb with a 了 somewhere is no going done
    "老杜往昆明寄了一包蜂王浆。", "老杜去昆明的车票买好了。", "老杜回昆明的事定下了。",
    # a word of journeys that is no journey gone on
    "老杜押着那车蜂箱往前挪了两步。", "老杜护送秀英走到了油菜地头。", "老杜出差去不去还没定。",
    "老杜押送那车蜂箱往前挪了两步。",
    # a span with a walk, no going away
    "这几天老杜走了好几趟油菜地。",
])
def test_r54_what_is_no_going_stays_silent(first: str) -> None:
    assert not _two_places(first + SQUATS, BEES, "马春生"), first


@pytest.mark.parametrize("first", [
    "老杜正在昆明的蜂产品公司里结账。", "老杜回昆明老家办事去了。", "老杜押送一车蜂蜜进城去了。", "老杜出差了。",
    "这几天老杜搭班车走了，要半个月才回来。",
])
def test_r54_a_going_done_still_fires(first: str) -> None:
    assert _two_places(first + SQUATS, BEES, "马春生"), first


def test_r54_a_span_with_no_place_is_not_said_far() -> None:
    found = _two_places("这几天老杜搭班车走了，要半个月才回来。" + SQUATS, BEES, "马春生")
    assert found and "很远" not in found[0].message, found


def test_r54_guards_of_the_going() -> None:
    """Untested guards R54 named: a span said in another clause; a journey word with no going; a one-character verb
    with no 了 (an errand named)."""
    for first in ("这几天蜂场忙，老杜走了。", "老杜出差。", "老杜去昆明办货。"):
        assert not _two_places(first + SQUATS, BEES, "马春生"), first


def test_r54_a_dated_return_of_another_year_is_none() -> None:
    """R54: 「眼下在长沙总店盘账，十月二十才坐火轮回汉口」 read in the year the cards are kept in (the last settled chapter's),
    or the one the card says; a draft of the next spring, or no year known for the card, stays silent."""
    body = "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。"
    assert _dated(body, "光绪二年九月初三")
    assert _dated(body, "光绪三年三月初二") == []  # the next spring: the return of last autumn is past
    assert _dated(body, "光绪二年九月初三", settled=None) == []  # no year known for the card: silent
    assert _dated(body, "光绪二年九月初三", settled="八月二十") == []
    said = {"顾一鸣": "眼下在长沙总店盘账，光绪三年十月二十才坐火轮回汉口。"}
    assert _dated(body, "光绪三年三月初二", dated=said)  # the card says its year: away till then
    assert _dated(body, "光绪四年三月初二", dated=said) == []


@pytest.mark.parametrize("card", [
    "眼下在长沙总店盘账，十月二十才来信。", "眼下在长沙总店盘账，十月二十再上一批新货。",
    "眼下在长沙总店盘账，十月二十才到期的那笔贷款。", "眼下在长沙总店盘账，十月二十才回信。",
])
def test_r54_a_dated_event_of_no_return_keeps_nobody_away(card: str) -> None:
    body = "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。"
    assert _dated(body, "光绪二年九月初三", dated={"顾一鸣": card}) == [], card


def test_r54_no_date_in_the_draft_keeps_nobody_away() -> None:
    """The untested guard: an in-book time with no day names no day still ahead."""
    body = "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。"
    assert _dated(body, "光绪二年") == []


@pytest.mark.parametrize("card", ["眼下在长沙总店盘账，十月二十才回。", "眼下在长沙总店盘账，十月二十再回汉口。",
                                  "眼下在长沙总店盘账，十月二十才能返回汉口。"])
def test_r54_a_verb_of_return_still_keeps_them_away(card: str) -> None:
    body = "天刚亮，货栈的门板还没卸。顾老板坐在账房里，一页一页翻着流水账。"
    assert _dated(body, "光绪二年九月初三", dated={"顾一鸣": card}), card


@pytest.mark.parametrize("body", [
    "田桂芬回省城娘家去了。\n\n苏明远把账本一推：“桂芬，你来看看这一页。”",  # spoken to face to face
    "田桂芬回省城娘家去了。\n\n铁子进门就说：“今儿一早在库房门口瞧见桂芬了。”",  # seen here today
    "田桂芬回省城娘家去了。\n\n铁子进门就说：“桂芬早上在我这里坐了一个钟头。”",  # reported here today
])
def test_r54_one_sent_away_spoken_to_seen_or_reported_here(body: str) -> None:
    assert _two_places(body, STATION, "苏明远"), body


@pytest.mark.parametrize("body", [
    "田桂芬回省城娘家去了。\n\n傍晚桂芬从省城赶回来了。苏明远把账本一推：“桂芬，你来看看这一页。”",
    "田桂芬回省城娘家去了。\n\n傍晚桂芬从省城赶回来了。铁子进门就说：“桂芬早上在我这里坐了一个钟头。”",
])
def test_r54_one_come_back_spoken_to_or_reported_is_silent(body: str) -> None:
    assert not _two_places(body, STATION, "苏明远"), body
