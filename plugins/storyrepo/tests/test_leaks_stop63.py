"""lk2's round (stop 63): who says a gap's keyword, when the prose calls the speaker only as the point of view does.

1. A present person called by the point of view's word for them (the card's 关系: 韩秋生叫他“栓叔”; a group's:
   窑上的人都叫他“老掌柜”) is that person in the leaks' speakers: the words their narration leads (栓叔盘腿坐着，…) are
   theirs, and the turn-taking goes on from them. Read from the cards, not from a table: 罗叔, 张大叔, 根哥 in three books
   of the pool. Only a form of a person in the draft's 在场, one no other present person shares.
2. A wordless reply (:data:`lw_storyrepo.checks.SILENT_REPLY`) now also reads a wave of the hand and a thing neither owned
   nor denied (摆摆手，没承认，也没否认): the question after it is the asker pressing on.
3. r62-6: a gap's own person named beside one everyday word of the gap's 内容 (盐场) is a person seen, not told: the words
   must share two pairs of it (:data:`lw_storyrepo.checks.GAP_PAIRS`).

The sentences are this file's own (a brick kiln by a river in the 1960s)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, leak_and_waste

from continuity_helpers import world_of
from story_cli import card_text, hand_in, lw

WORLD = "一九六三年冬，柳河砖窑。窑场、窝棚、伙房、河滩都在柳河砖窑，算一处地方。\n"
SECRET = ("四喜下落", "杜四喜没有淹死。他夜里从河滩下游蹚水过了河，躲进黑龙潭的石灰窑里打零工，董玉梅给他送过两回干粮。",
          ["黑龙潭", "石灰窑"], ["董玉梅"])


def _leaks(tmp_path: Path, body: str, relations: dict[str, str], present: list[str], pov: str = "韩秋生") -> list[str]:
    """The 泄密 findings (``who|message``) of ``lw story check --json`` on ``body``: chapter 1 of a new book told by
    ``pov``, with ``present`` in the scene and each card's 关系 section from ``relations``."""
    root = tmp_path / "柳河"
    lw(root, "init", str(root), "--书名", root.name, "--类型", "年代", "--每章目标字数", "200")
    (root / L.世界观).write_text(WORLD, encoding="utf-8")
    folder = root / L.角色
    folder.mkdir(parents=True, exist_ok=True)
    about = {"韩秋生": "十七岁，窑上的学徒。", "葛老栓": "五十岁，窑上的老把式，爱抿两口烧酒。", "董玉梅": "三十岁，伙房做饭的。",
             "郑福山": "四十五岁，窑场的掌柜。", "杜四喜": "二十岁，窑上的小工，秋天里说是淹死在河里了。"}
    for name, text in about.items():
        (folder / f"{name}.md").write_text(card_text(name, [], "柳河砖窑", text, relations.get(name, "")), encoding="utf-8")
    lw(root, "fix")
    title, content, keywords, knowers = SECRET
    lw(root, "secret", "new", title, *(a for k in keywords for a in ("--关键词", k)),
       *(a for k in knowers for a in ("--知情人", k)), "--内容", content)
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", "韩秋生在窑上干活")
    lw(root, "decide")
    lw(root)  # pack
    front = f"标题: 窝棚\n视角: {pov}\n书内时间: 一九六三年十二月三日\n一句话事件: 韩秋生在窑上干活\n在场:\n" \
        + "".join(f"  - {p}\n" for p in present)
    hand_in(root, f"---\n{front}---\n\n{body}\n")
    found = json.loads(lw(root, "check", "--json"))["A"]
    return [str(f["message"]) for f in found if f["kind"] == "泄密"]


CALLS = {"葛老栓": "韩秋生叫他“栓叔”，他叫韩秋生“秋生子”。", "董玉梅": "韩秋生叫她“梅姐”。",
         "郑福山": "窑上的人都叫他“老掌柜”。"}

HUT = ("夜里韩秋生在栓叔的窝棚里帮他搓草绳。栓叔盘腿坐着，一口一口抿着烧酒。\n\n"
       "“秋生子，你这几天老打听四喜，我都看见了。”栓叔放下酒碗。\n\n"
       "“栓叔，你说他能去哪儿？”\n\n")


def test_a_person_the_point_of_view_calls_so_is_the_speaker_of_the_turns(tmp_path: Path) -> None:
    """Class 1: 栓叔 is 葛老栓 by 韩秋生's card word; the lone answer after 韩秋生's question is his, and he is no knower."""
    found = _leaks(tmp_path, HUT + "“黑龙潭。”\n\n韩秋生手里的草绳掉在了地上。", CALLS, ["韩秋生", "葛老栓"])
    assert any(m.startswith("葛老栓 不是") and "黑龙潭" in m for m in found), found
    assert not any(m.startswith("韩秋生") for m in found), found


def test_the_narration_led_words_of_a_group_form_are_that_persons(tmp_path: Path) -> None:
    """Class 1, a sibling no book uses: a group's form (窑上的人都叫他“老掌柜”), the words its clause leads."""
    body = ("韩秋生把砖坯码完，老掌柜背着手过来了。\n\n"
            "老掌柜往河滩那头看了一眼，压低了声音：“四喜那娃没死，八成是躲到黑龙潭去了。”")
    found = _leaks(tmp_path, body, CALLS, ["韩秋生", "郑福山"])
    assert any(m.startswith("郑福山 不是") for m in found), found


@pytest.mark.parametrize("body, present", [
    # the knower, called by the point of view's word, says it: she knows
    ("韩秋生端着碗进了伙房。梅姐正在揉面。\n\n“秋生，这话你莫往外讲。”梅姐说，“四喜在黑龙潭，活着呢。”", ["韩秋生", "董玉梅"]),
    # a called person not in the scene: the form names no speaker (the words are the point of view's memory of him)
    ("韩秋生想起栓叔说过的话，心里发慌。\n\n“莫打听了。”他对自己说。", ["韩秋生"]),
])
def test_no_leak_by_a_knower_or_by_a_form_of_no_one_present(tmp_path: Path, body: str, present: list[str]) -> None:
    found = _leaks(tmp_path, body, CALLS, present)
    assert not [m for m in found if m.startswith(("董玉梅", "葛老栓"))], found


def test_a_form_two_present_people_share_names_neither(tmp_path: Path) -> None:
    """Both called 师傅 by the point of view: the form names no one, and no one's words are read by it."""
    calls = {"葛老栓": "韩秋生叫他“师傅”。", "郑福山": "韩秋生也叫他“师傅”。"}
    body = "师傅往河滩那头看了一眼：“四喜八成是躲到黑龙潭去了。”"
    found = _leaks(tmp_path, body, calls, ["韩秋生", "葛老栓", "郑福山"])
    assert not any(m.startswith(("葛老栓", "郑福山")) for m in found), found


@pytest.mark.parametrize("reply", ["栓叔摆摆手，没承认，也没否认。", "栓叔摆了摆手。", "栓叔没出声。"])
def test_a_wave_of_the_hand_is_a_wordless_reply_the_asker_presses_on_after(tmp_path: Path, reply: str) -> None:
    """Class 2: after 韩秋生's question and 栓叔's wordless reply, the next question is 韩秋生's again; the lone answer to
    it, 栓叔's."""
    body = (HUT + "“栓叔，你是说他过了河？”\n\n" + reply + "\n\n“那他能去哪儿？”\n\n“黑龙潭。”\n\n栓叔又端起了酒碗。")
    found = _leaks(tmp_path, body, CALLS, ["韩秋生", "葛老栓"])
    assert any(m.startswith("葛老栓 不是") and "黑龙潭" in m for m in found), found
    assert not any(m.startswith("韩秋生") for m in found), found


PEOPLE = {"孙大河": "孙大河", "大河": "孙大河", "马三炮": "马三炮"}
GAP = [("S-001", {"葛长顺"}, False, ["马三炮", "北滩"])]


def _gap_person_leaks(body: str, grams: frozenset[str]) -> list[str]:
    people = set(PEOPLE.values())
    ctx = CheckContext(dict(PEOPLE), GAP, [], [], 0, people, set(),
                       world=world_of({"孙大河": {"状态": "在世"}}, PEOPLE, set(), {}), people=people,
                       gap_grams={"S-001": grams}).for_draft({"在场": ["孙大河"], "视角": "孙大河"})
    return [f.excerpt for f in leak_and_waste(ctx, body.split("\n"), 1, pov="孙大河") if f.kind == "泄密"]


def test_r62_6_a_gap_person_beside_one_everyday_word_of_the_gap_is_only_seen() -> None:
    """r62-6: 盐场 alone (one pair of the 内容) beside the introduced name tells nothing; two pairs do (专收私盐, or a
    place and an act of the gap: 北滩, 夜里)."""
    grams = frozenset({"盐场", "只有", "私盐", "收私", "北滩", "夜里"})
    assert _gap_person_leaks("那个在盐场门口挑空筐的马三炮又过去了。", grams) == []
    assert _gap_person_leaks("大河想起那个只有一条腿的马三炮。", grams) == []
    assert _gap_person_leaks("大河心里冒出一个名字：那个专收私盐的马三炮。", grams)
    assert _gap_person_leaks("大河想起那个夜里在北滩等船的马三炮。", grams)
