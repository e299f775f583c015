"""Stop 58's outside reading (R58) of K7's and N32's rounds, narrowed (fixer fkn).

- K7-a: a place's head after a name (路, 门, 村, 街…) steps the name aside only where it does not open a word of its
  own with what follows (:data:`lw_storyrepo.propernouns.PLACE_HEADS`): a person called 石头/桂花/建国 who 路过门口 is
  still that person, for the leak check's voices, continuity's forms of people and the contract's person terms;
  石头缝里 still hides 石头.
- K7-b: a kin title of a rank and its pair (师兄弟, 表姐妹: :data:`lw_storyrepo.propernouns.KIN_PAIRS`) name the
  title's own person too.
- N32-a: 站 after a noun for a person, or 站 followed by 到/上/岗…, is someone standing, no station.
- N32-b: a settlement's kind word opening another word (镇定) makes no village of the name before it.
The sentences are the reviewer's counter-examples (a 1965 柳树屯 book, a 1963 屯溪 book, three-line drafts).
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import _named
from lw_storyrepo.continuity import World, places_inside
from lw_storyrepo.propernouns import find_new_nouns

from continuity_helpers import findings, names_found


@pytest.mark.parametrize("text, found", [
    ("石头路过门口，冲他招了招手。", ["石头"]),  # 路过 is a word of its own: the person passes
    ("桂花路过门口，推门进来。", ["桂花"]),
    ("天刚亮，石头路过老街，把两篓新茶送到了茶行。", ["石头"]),
    ("建国门口站着两个人。", ["建国"]),
    ("石头缝里长出一棵草。", []),  # the guard's own case stays: 缝里 is rarer than 石头缝
    ("老板娘端来一碗面。", []),  # a person's head: stepped aside for as before
    ("师兄弟俩一起进了城。", ["师兄"]),  # a plural of the pair holds the 师兄
    ("表姐妹俩一起进了城。", ["表姐"]),
    ("师弟妹几个都来了。", ["师弟"]),
    ("大姐夫挑着担子进了门。", []),  # another person of a kin title: still stepped aside for
])
def test_a_name_before_a_word_of_its_own_is_the_person(text: str, found: list[str]) -> None:
    aliases = {n: n for n in ("石头", "桂花", "建国", "老板", "师兄", "表姐", "师弟", "大姐")}
    assert names_found(text, aliases, set(aliases)) == found


CARDS = {
    "秋生": {"姓名": "秋生", "状态": "在世", "位置": "柳树屯"},
    "石头": {"姓名": "石头", "状态": "已死", "位置": "柳树屯"},
    "桂花": {"姓名": "桂花", "状态": "已死", "位置": "柳树屯"},
}


def _dead(body: str) -> list[str]:
    places = {"柳树屯", "县城"}
    world = World(CARDS, {n: n for n in CARDS}, places, set(), (), None, places_inside("", places),
                  {"秋生": "他", "石头": "他", "桂花": "她"})
    return [f.message for f in findings(body, world, "秋生", "1965年5月10日", list(CARDS)) if "已死" in f.message]


@pytest.mark.parametrize("body, who", [
    ("秋生推开门。石头路过门口，冲他招了招手。", "石头"),
    ("秋生推开门。桂花路过门口，推门进来，冲他招了招手。", "桂花"),
])
def test_the_dead_passing_the_door_are_caught_again(body: str, who: str) -> None:
    assert any(m.startswith(who) for m in _dead(body))


def test_a_crack_in_the_stones_is_still_no_dead_man() -> None:
    assert _dead("秋生推开门。石头缝里长出一棵草。") == []


def test_a_contract_person_passing_the_old_street_is_named() -> None:
    assert _named("石头", "天刚亮，石头路过老街，把两篓新茶送到了茶行。", person=True)
    assert not _named("老板", "老板娘端来一碗面。", person=True)


@pytest.mark.parametrize("body", [
    "赵铁柱是生产队的饲养员。天还没亮，赵铁柱就起来铡草了。\n晌午，赵铁柱媳妇站到门口喊他吃饭。赵铁柱应了一声，放下铡刀。\n"
    "吃完饭，赵铁柱又去了牲口棚。",
    "天亮以前，林秀芬就到了井台。林秀芬姑娘站上井台往下看，水还浑着。\n林秀芬挑着水回了家。",
    "螺蛳浜是个小地方。天一黑，螺蛳浜民兵站岗放哨，谁也进不来。\n老周在螺蛳浜住了三十年。",
    "何家湾是江边的一个小村子。何家湾哨兵站岗，夜里谁也过不去。\n老周在何家湾住了三十年，何家湾的人都认得他。",
])
def test_a_person_standing_is_no_station(body: str) -> None:
    assert [n.name for n in find_new_nouns(body, []) if n.name.endswith("站")] == []


def test_a_person_keeping_steady_is_no_village() -> None:
    body = "高山青是公社的文书。高山青一早就骑车下了乡。\n到了地头，高山青镇定地把通知念了一遍，社员们都没吭声。\n傍晚高山青才回到公社。"
    assert [n for n in find_new_nouns(body, []) if n.kind == "地点"] == []
