"""Two place false alarms of the newest development books (issue 30, P3 at stop 56), each silenced by a general reading:

- **a pronoun in someone's words is not its speaker** (「“他在清水江上，比在这里太平。”他说」, 连续性-盲评三十八 好-6),
  who says 我: the card-place reader looks for another the words or the lines before name, and with none guesses no one
  — unless the words place the pronoun today (“她今儿一早就在A座…”, 连续性-盲评十三's caught 位置-3, kept). A pronoun
  of the narration and a name in the quote are read as before. (三十九 好-4, a letter read aloud to a listener the
  pronoun is resolved to, is not silenced.)
- **a post set before another person's name** (「段长孙志刚把大锤往地上一杵」, 三十九 境界-2: 孙志刚 called by a post
  above his — the 境界 check's finding) is that person's post, not its card holder's: the far reader no longer puts
  周正明 (段长, far at 柯洛) in the scene (``_post_of_another``, which reads a surname before a post since stop 53).

The sentences below are written here in other genres and periods (a Tang post station, a 1980s Shanghai lane, a
colony on Mars, a Qing salt yard, a 1960s oil field, a Ming shipyard) and none comes from a labelled draft.
"""

from __future__ import annotations

from typing import Any

import pytest

import continuity_helpers
from lw_storyrepo import continuity
from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.findings import Finding


def _world(cards: dict[str, dict[str, Any]], aliases: dict[str, str], places: set[str], gender: dict[str, str],
           far: frozenset[str] = frozenset()) -> World:
    return World(cards, {**{n: n for n in cards}, **aliases}, places, set(), ("普通人",), None, {}, gender, far=far)


def _placed(body: str, book: tuple[Any, ...], pov: str, present: list[str] | None = None) -> list[Finding]:
    return [f for f in continuity_helpers.findings(body, _world(*book), pov, "1985年6月3日", present or [pov])
            if f.subject is not None and f.subject.field == "位置" or "角色卡·位置" in f.message]


# a card-place book: the point of view and the other at home; the far place named
POST = ({"韦十一": {"姓名": "韦十一", "状态": "在世", "位置": "驿站"}, "杜驿丞": {"姓名": "杜驿丞", "状态": "在世", "位置": "驿站"}},
        {"老杜": "杜驿丞"}, {"驿站", "长安", "潼关"}, {"韦十一": "他", "杜驿丞": "他"})
LANE = ({"阿珍": {"姓名": "阿珍", "状态": "在世", "位置": "弄堂"}, "小毛": {"姓名": "小毛", "状态": "在世", "位置": "弄堂"}},
        {"毛毛": "小毛"}, {"弄堂", "深圳", "外滩"}, {"阿珍": "她", "小毛": "他"})
COLONY = ({"林工": {"姓名": "林工", "状态": "在世", "位置": "基地"}, "莫拉": {"姓名": "莫拉", "状态": "在世", "位置": "基地"}},
          {}, {"基地", "火卫一", "环形山"}, {"林工": "他", "莫拉": "她"})


@pytest.mark.parametrize(("book", "pov", "body", "who", "place", "sentence"), [
    (POST, "韦十一", "韦十一在驿站喂马。\n\n老杜正在潼关换文书。", "杜驿丞", "潼关", "老杜正在潼关换文书"),
    (LANE, "阿珍", "阿珍在弄堂口晾衣裳。\n\n小毛前天坐火车走了，这会儿毛毛在深圳看厂房。", "小毛", "深圳", "毛毛在深圳看厂房"),
    (COLONY, "林工", "林工在基地检修滤网。\n\n莫拉这时候正在火卫一装天线，她在火卫一的背面。", "莫拉", "火卫一", "莫拉这时候正在火卫一装天线"),
])
def test_a_name_or_a_narrated_pronoun_away_from_its_card_place_still_fires(book: tuple[Any, ...], pov: str, body: str,
                                                                        who: str, place: str, sentence: str) -> None:
    """The card-place reader still finds a name (or the narration's pronoun) placed away from the card, with the field
    位置 and the sentence as its evidence: only a pronoun in quoted words goes unread."""
    found = _placed(body, book, pov)
    assert any(f.subject is not None and f.subject.field == "位置" and f.subject.who == who and place in f.message
               and sentence in f.excerpt for f in found), found


@pytest.mark.parametrize(("book", "pov", "body"), [
    (POST, "韦十一", "老杜把马缰递给他。\n\n“你阿兄是个明白人，”老杜说，“他在潼关当差，比在这里太平。”"),
    (LANE, "阿珍", "小毛把信念给阿珍听：“隔壁阿婆回来讲，他在外滩看见一个人，眉毛上有道疤，像你阿爸。”"),
    (COLONY, "林工", "莫拉放下扳手。“补给船的驾驶员说，她在火卫一见过那台失踪的探测车。”莫拉说。"),
])
def test_a_pronoun_in_someones_words_is_nobodys_place(book: tuple[Any, ...], pov: str, body: str) -> None:
    """他/她 inside a quote (the speaker says 我 of themself) is someone the words speak of: no one's card place."""
    assert _placed(body, book, pov) == []


# far readers' books: a card holding a post (its 境界), away at a far place; another named after the post
FAR_POST = [
    ({"郑盐丁": {"姓名": "郑盐丁", "状态": "在世", "位置": "盐场", "境界": "盐丁"},
      "钱大使": {"姓名": "钱大使", "状态": "在世", "位置": "扬州", "境界": "大使"},
      "罗德顺": {"姓名": "罗德顺", "状态": "在世", "位置": "盐场", "境界": "灶头"}},
     {"大使": "钱大使", "老罗": "罗德顺"}, {"盐场", "扬州"}, {"郑盐丁": "他", "钱大使": "他", "罗德顺": "他"},
     frozenset({"扬州"})),
    ({"小温": {"姓名": "小温", "状态": "在世", "位置": "井场", "境界": "学徒"},
      "高振江": {"姓名": "高振江", "状态": "在世", "位置": "北京", "境界": "指挥"},
      "马铁柱": {"姓名": "马铁柱", "状态": "在世", "位置": "井场", "境界": "司钻"}},
     {"指挥": "高振江", "老马": "马铁柱"}, {"井场", "北京"}, {"小温": "他", "高振江": "他", "马铁柱": "他"},
     frozenset({"北京"})),
    ({"阿福": {"姓名": "阿福", "状态": "在世", "位置": "船厂", "境界": "木匠"},
      "冯宝": {"姓名": "冯宝", "状态": "在世", "位置": "南京", "境界": "提督"},
      "沈大川": {"姓名": "沈大川", "状态": "在世", "位置": "船厂", "境界": "匠头"}},
     {"提督": "冯宝", "老沈": "沈大川"}, {"船厂", "南京"}, {"阿福": "他", "冯宝": "他", "沈大川": "他"},
     frozenset({"南京"})),
]


@pytest.mark.parametrize(("book", "pov", "body", "who", "sentence"), [
    (FAR_POST[0], "郑盐丁", "郑盐丁在盐场扫盐。\n\n大使把算盘往桌上一放，叫大家歇一歇。", "钱大使", "大使把算盘往桌上一放"),
    (FAR_POST[1], "小温", "小温在井场拧管钳。\n\n指挥把安全帽往地上一摔，说今天不打了。", "高振江", "指挥把安全帽往地上一摔"),
    (FAR_POST[2], "阿福", "阿福在船厂刨木板。\n\n提督把图纸往案上一铺，叫匠人们围过来。", "冯宝", "提督把图纸往案上一铺"),
])
def test_a_far_cards_post_alone_still_puts_them_here(book: tuple[Any, ...], pov: str, body: str, who: str,
                                                     sentence: str) -> None:
    """The post alone is its card holder, far away: acting here fires, the sentence as its evidence."""
    found = _placed(body, book, pov, [pov])
    assert any(who in f.message and "很远" in f.message and sentence in f.excerpt for f in found), found


@pytest.mark.parametrize(("book", "pov", "body"), [
    (FAR_POST[0], "郑盐丁", "郑盐丁在盐场扫盐。\n\n大使罗德顺把算盘往桌上一放，叫大家歇一歇。"),
    (FAR_POST[1], "小温", "小温在井场拧管钳。\n\n指挥马铁柱把安全帽往地上一摔，说今天不打了。"),
])
def test_a_post_before_another_name_is_that_persons(book: tuple[Any, ...], pov: str, body: str) -> None:
    """大使罗德顺, 指挥马铁柱: the post said of another (right or wrong: the 境界 check's) puts nobody far here."""
    assert [f for f in _placed(body, book, pov, [pov]) if "很远" in f.message] == []


# a world saying which places are one place (算一处地方: 连续性-盲评三十三…三十九's 世界观, seven books): someone at any of
# them is at their card's place; a place outside the list is still another place
ONE = [
    ("茶马古道上，马店、骡马市和古城街上算一处地方，赶马人在城里走动不算挪了地方。",
     {"马店", "骡马市", "古城", "大理", "丽江"}, "马店", "阿旺", "阿旺在骡马市挑骡子。", "阿旺在大理挑骡子。", "大理"),
    ("矿上的井口、灯房和工人村当一个地方，下井上井都不算出门。",
     {"井口", "灯房", "工人村", "省城"}, "工人村", "老焦", "老焦正在灯房交矿灯。", "老焦正在省城交矿灯。", "省城"),
    ("空间站的对接舱、温室和主舱段算作一处，人在站里飘来飘去不算离开。",
     {"对接舱", "温室", "主舱段", "月面基地"}, "主舱段", "叶舟", "叶舟还在温室给番茄授粉。", "叶舟还在月面基地给番茄授粉。", "月面基地"),
]


@pytest.mark.parametrize(("lore", "places", "home", "who", "inside", "outside", "far"), ONE)
def test_places_a_world_calls_one_place_are_the_cards_place(lore: str, places: set[str], home: str, who: str,
                                                            inside: str, outside: str, far: str) -> None:
    """A place of the world's one-place list is the card's place (silent); a place outside it still fires, with the
    field 位置 and the sentence as evidence."""
    cards = {"视角": {"姓名": "视角", "状态": "在世", "位置": home}, who: {"姓名": who, "状态": "在世", "位置": home}}
    world = lambda: World(cards, {n: n for n in cards}, places, set(), ("普通人",), None, places_inside(lore, places),
                          {"视角": "他", who: "他"})
    placed = lambda body: [f for f in continuity_helpers.findings(body, world(), "视角", "1985年6月3日", ["视角"])
                           if f.subject is not None and f.subject.field == "位置"]
    assert placed(inside) == []
    found = placed(outside)
    assert [(f.subject.who if f.subject else None, far in f.message, f.excerpt.strip("。")) for f in found] \
        == [(who, True, outside.strip("。"))]


def test_one_place_needs_the_words_of_one_place() -> None:
    """Places listed with no 算一处 (a route, a list of stops) are not one place; the one place's own name said right
    after the list (…算一处地方，叫老营) is one of them."""
    places = {"渡口", "驿站", "县城", "老营", "马场"}
    assert places_inside("从渡口、驿站到县城要走三天。", places) == {}
    inside = places_inside("马场、渡口和驿站算一处地方，叫老营：白天放马，夜里回驿站。", places)
    assert inside["渡口"] == {"马场", "驿站", "老营"} and "县城" not in inside


# a far card said by another to have come up yesterday (连续性-盲评二十九 都僧统昨儿后晌亲自到铺子里来了, 三十七
# 老高昨儿后晌就搭运材车上来了, 三十九 周段长昨天夜里就上来了): here since, not at the far place the card keeps them
YESTERDAY_BOOKS = [
    ({"小满": {"姓名": "小满", "状态": "在世", "位置": "渔村"}, "陈船老大": {"姓名": "陈船老大", "状态": "在世", "位置": "舟山"}},
     {"陈老大": "陈船老大"}, {"渔村", "舟山"}, {"小满": "她", "陈船老大": "他"}, frozenset({"舟山"})),
    ({"秦书办": {"姓名": "秦书办", "状态": "在世", "位置": "县衙"}, "汪师爷": {"姓名": "汪师爷", "状态": "在世", "位置": "京城"}},
     {}, {"县衙", "京城"}, {"秦书办": "他", "汪师爷": "他"}, frozenset({"京城"})),
    ({"阿卓": {"姓名": "阿卓", "状态": "在世", "位置": "矿区"}, "罗工": {"姓名": "罗工", "状态": "在世", "位置": "地球"}},
     {"老罗": "罗工"}, {"矿区", "地球"}, {"阿卓": "她", "罗工": "他"}, frozenset({"地球"})),
]


@pytest.mark.parametrize(("book", "pov", "body", "who", "sentence"), [
    (YESTERDAY_BOOKS[0], "小满", "小满补着网。阿婆说：“陈老大昨晚就搭夜船回来了，这会儿在祠堂里喝茶。”", "陈船老大", "陈老大昨晚就搭夜船回来了"),
    (YESTERDAY_BOOKS[1], "秦书办", "秦书办誊着案卷。门子凑过来说：“汪师爷昨儿后晌坐着轿子到了，在二堂歇着呢。”", "汪师爷", "汪师爷昨儿后晌坐着轿子到了"),
    (YESTERDAY_BOOKS[2], "阿卓", "阿卓校着钻头。调度员说：“老罗昨天夜里就搭补给舱过来了，正在睡觉。”", "罗工", "老罗昨天夜里就搭补给舱过来了"),
])
def test_a_far_one_said_to_have_come_yesterday_is_here(book: tuple[Any, ...], pov: str, body: str, who: str,
                                                       sentence: str) -> None:
    """Said by another to have come yesterday, the far one is here today: a 位置 finding, the sentence as evidence."""
    found = [f for f in continuity_helpers.findings(body, _world(*book), pov, "1985年6月3日", [pov])
             if f.subject is not None and f.subject.field == "位置"]
    assert [(f.subject.who if f.subject else None, "昨天已经来到" in f.message, sentence in f.excerpt) for f in found] \
        == [(who, True, True)], found


@pytest.mark.parametrize(("book", "pov", "body"), [
    (YESTERDAY_BOOKS[0], "小满", "小满补着网。阿婆说：“陈老大昨晚来过信，说要到月底才回来。”"),
    (YESTERDAY_BOOKS[1], "秦书办", "秦书办誊着案卷。门子说：“汪师爷昨儿说好要来，到底没来。”"),
])
def test_a_letter_or_a_coming_not_done_yesterday_brings_no_one(book: tuple[Any, ...], pov: str, body: str) -> None:
    """昨晚来过信 brings a letter; 昨儿说好要来…没来 no one: silent."""
    assert [f for f in continuity_helpers.findings(body, _world(*book), pov, "1985年6月3日", [pov])
            if f.subject is not None and f.subject.field == "位置"] == []


# R56's read of P3 (a 1932 circus book: 阿桂 at 营地, 雷班主's card far at 汉口; the reviewer's sentences)
CIRCUS = ({"阿桂": {"姓名": "阿桂", "状态": "在世", "位置": "营地"}, "老孟": {"姓名": "老孟", "状态": "在世", "位置": "营地"},
           "小顺子": {"姓名": "小顺子", "状态": "在世", "位置": "营地"}, "雷班主": {"姓名": "雷班主", "状态": "在世", "位置": "汉口"}},
          {}, {"营地", "汉口"}, {"阿桂": "她", "老孟": "他", "小顺子": "他", "雷班主": "他"}, frozenset({"汉口"}))


@pytest.mark.parametrize("body", [
    "阿桂擦着铜锣。小丑说：“雷班主昨天来过，坐了一会儿就回汉口了。”",  # 来过 with 昨天: a visit that ended
    "阿桂擦着铜锣。小丑说：“雷班主昨天来了一封信，说月底才回。”",  # a letter, counted
    "阿桂擦着铜锣。小丑说：“雷班主昨天到了汉口，今早打了个电话。”",
    "老孟和小顺子蹲在阿桂旁边。“他在汉口，比在这里太平。”老孟说。",  # 小顺子 sits right there with the speaker
])
def test_r56_a_visit_ended_a_letter_or_one_right_there_places_no_one(body: str) -> None:
    """No far one here today, and no one right there placed away: silent."""
    assert _placed(body, CIRCUS, "阿桂", ["阿桂", "老孟", "小顺子"]) == []


@pytest.mark.parametrize("lore", [
    "马厩和帐篷不算一处地方，夜里要分开守。",
    "马厩和帐篷可不能当一个地方。",
    "从码头到营地，走路算一个地方也不为过。",
])
def test_r56_a_denied_one_place_joins_nothing(lore: str) -> None:
    assert places_inside(lore, {"马厩", "帐篷", "码头", "营地"}) == {}


def test_r56_one_place_is_its_own_clause() -> None:
    """A comma ends the list: the far city of an earlier clause, or another list, is not joined."""
    places = {"马厩", "帐篷", "码头", "营地", "汉口"}
    assert places_inside("戏班子从汉口出发，一路走到营地，马厩和帐篷算一处地方。", places) == {"马厩": {"帐篷"}, "帐篷": {"马厩"}}
    assert places_inside("马厩和帐篷算一处地方，码头和营地算一处地方。", places) \
        == {"马厩": {"帐篷"}, "帐篷": {"马厩"}, "码头": {"营地"}, "营地": {"码头"}}


def test_r56_one_place_lists_cost_their_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lore of thousands of comma-joined one-place pairs is read in work linear in its length (counted, never timed):
    every start looked up a bounded number of times, each place joined to a bounded few."""
    looked = [0]

    class Counting(dict[int, list[str]]):
        def __getitem__(self, key: int) -> list[str]:
            looked[0] += 1
            return super().__getitem__(key)

        def get(self, key: int, default: Any = None) -> Any:
            looked[0] += 1
            return super().get(key, default)

    real = continuity.found_at
    monkeypatch.setattr(continuity, "found_at", lambda words, text: Counting(real(words, text)))
    places = {f"村{i:04d}" for i in range(400)}
    sizes = []
    for n in (500, 2000):
        looked[0] = 0
        lore = "，".join(f"村{i % 400:04d}和村{(i + 1) % 400:04d}算一处地方" for i in range(n)) + "。"
        inside = places_inside(lore, places)
        sizes.append(looked[0])
        assert max(len(v) for v in inside.values()) <= 2 * continuity.ONE_PLACE_MOST
    assert sizes[1] <= 5 * sizes[0]
