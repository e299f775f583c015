"""fa2's round (stop 64, issue 30): readings of 持有, 状态 and 位置 that sent good drafts back, each a rule of Chinese prose.

- One of its kind: a count of one and a word of newness or spareness before a thing (拎着一盏新马灯, 另一盏马灯) is
  another of the kind, not the one a card holds; a bare 新 may be the known one made new.
- A taking told with 把 and a verb of taking out of another's hands (把马灯抢过去, 把剪刀夺了下来) is a getting, like
  夺过; a plain 拿走 of another's thing is still a use.
- In someone's words, an act asked about (老钱把怀表卖了？) is not told as done; a question that takes the act as
  done (你拿他的怀表做什么？) or a rhetorical one (那不是老钱的怀表吗？) still tells it.
- A one-character kin word right after a name ends that name's address form (虎子哥凑过来，说：…): it is 虎子 who
  speaks, not a card whose alias is a bare 哥 (位置: one absent from the scene speaking).
- A 是…的 cleft (横梁都是石师傅看着架的) tells who did a thing already done: the dead, in their lifetime — unless a time
  word says the act is new (是石师傅昨天看着架的).
- A sentence opening on a month and day before the chapter's (二月初九夜里，… in a chapter of 3月2日) tells that day:
  the dead's acts from there on are remembered.
- A place before a thing's head noun (趴在北京机上) names the thing; a place and its far end (北京那头没回话，…) is
  its own clause's subject: neither is where the person of the clause is.
Every sentence here is this file's own."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from story_cli import checked_chapter

WORKS = ("# 世界观\n\n## 地理\n红星机械厂在城东。厂里的电报房通北京，那台报机叫北京机。北京是首都。\n")

Card = tuple[Sequence[str], str, str, str]
"""A card: aliases, 位置, 设定 (its gender said there), the one thing its 持有 lists ('' for none)."""

SHOP: dict[str, Card] = {
    "马国栋": (["小马", "国栋"], "红星机械厂", "他是车间的学徒，二十岁。", ""),
    "石大河": (["石师傅", "老石"], "红星机械厂", "他是车间的老钳工。", ""),
    "钱老四": (["老钱", "四哥"], "北京", "他是仓库保管员。怀表是一块上海牌怀表，他揣在兜里。", "怀表"),
    "韩秀芝": (["秀芝", "韩姐"], "红星机械厂", "她是车间的统计员。", ""),
}
BROTHERS: dict[str, Card] = {
    "周二成": (["二成"], "红星机械厂", "他是车间的学徒。", ""),
    "周大成": (["哥", "大成"], "北京", "他是二成的哥哥，在北京当兵。", ""),
    "石小虎": (["虎子", "小石"], "红星机械厂", "他是车间的学徒。", ""),
}


def continuity(root: Path, cards: Mapping[str, Card], present: Sequence[str], body: str, dead: str = "") -> list[str]:
    """The 连贯 messages of ``lw story check`` on ``body``, chapter 1 (1979年3月2日) of a new 年代 book at ``root``, told
    by the first of ``present``, who are the draft's 在场; ``dead``'s card 已死 (:func:`story_cli.checked_chapter`)."""
    front = (f"标题: 交接\n视角: {present[0]}\n书内时间: 1979年3月2日\n一句话事件: 夜班交接\n在场:\n"
             + "\n".join(f"  - {n}" for n in present))
    found = checked_chapter(root, WORKS, {name: (name, aliases, place, about, "无。")
                                          for name, (aliases, place, about, _) in cards.items()},
                            "夜班交接", front, body, dead=dead,
                            held={name: spec[3] for name, spec in cards.items() if spec[3]})
    return [str(f["message"]) for f in found if f["kind"] == "连贯"]


def _holds(messages: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(f"{who} 的持有里没有「{thing}」") for m in messages)


def test_one_of_its_kind_is_not_the_cards(tmp_path: Path) -> None:
    """石大河 with 一块新怀表 or 另一块怀表 uses no card's watch; with 钱老四's 怀表 itself, or a bare 新, he does."""
    def holds(body: str, name: str) -> bool:
        return _holds(continuity(tmp_path / name, SHOP, ["马国栋", "石大河", "钱老四"], body), "石大河", "怀表")
    assert not holds("天刚亮，小马就瞅见石师傅手里攥着一块新怀表，表链还亮着。", "new")
    assert not holds("老石从抽屉里摸出另一块怀表，看了看时辰。", "other")
    assert holds("老石从钱老四兜里摸出怀表，看了看时辰。", "same")
    assert holds("老石攥着新怀表看了看时辰。", "bare")


def test_a_taking_with_ba_is_a_getting(tmp_path: Path) -> None:
    """石大河把怀表抢过去/夺了下来: he has it now, no finding; 石大河把怀表拿走 is still a use of 钱老四's watch."""
    def holds(body: str, name: str) -> bool:
        return _holds(continuity(tmp_path / name, SHOP, ["马国栋", "石大河", "钱老四"], body), "石大河", "怀表")
    assert not holds("老钱正要看时辰，石师傅一伸手把怀表抢过去，揣进自己兜里。", "grab")
    assert not holds("老钱刚掏出来，石大河就把怀表夺了下来，攥在手心。", "seize")
    assert holds("老钱不在屋里，石大河把怀表拿走，揣进自己兜里。", "take")


def test_an_act_asked_about_is_not_told(tmp_path: Path) -> None:
    """“石师傅把怀表卖了？” asks; “石师傅拿老钱的怀表做什么？” and “石师傅手里那不是老钱的怀表吗？” take it as done."""
    def holds(body: str, name: str) -> bool:
        return _holds(continuity(tmp_path / name, SHOP, ["马国栋", "石大河", "钱老四"], body), "石大河", "怀表")
    assert not holds("小马愣了半天，才问老钱：“石师傅把怀表卖了？”", "asked")
    assert holds("小马愣了半天，才说：“石师傅攥着怀表对了半天时辰，你看看，准不准？”", "later")
    assert holds("小马愣了半天，才问老钱：“石师傅攥着怀表做什么？”", "why")
    assert holds("小马愣了半天，才问老钱：“石师傅攥着的不是你的怀表吗？”", "rhetorical")


def test_a_kin_word_after_a_name_is_that_ones_address(tmp_path: Path) -> None:
    """周大成 (alias 哥) is in 北京: 虎子哥凑过来，顺嘴说：“…” is 石小虎's words; 哥凑过来，顺嘴说：“…” is his."""
    def far_speaks(body: str, name: str) -> bool:
        found = continuity(tmp_path / name, BROTHERS, ["周二成", "石小虎"], body)
        return any(m.startswith("周大成 不在本章的在场名单") for m in found)
    assert not far_speaks("晌午虎子哥凑过来，顺嘴说：“断口上的线叫人剪了。”", "suffix")
    assert far_speaks("晌午哥凑过来，顺嘴说：“断口上的线叫人剪了。”", "bare")


def test_a_cleft_tells_the_dead_ones_past_act(tmp_path: Path) -> None:
    """石大河 is dead: 横梁都是石师傅一根一根看着架的 (a 是…的 cleft) tells his lifetime; 是石师傅昨天看着架的 (a new
    act) and 石师傅看着他们架梁 (an act in the scene) are still found."""
    def acts(body: str, name: str) -> bool:
        found = continuity(tmp_path / name, SHOP, ["马国栋", "韩秀芝"], body, dead="石大河")
        return any(m.startswith("石大河 的状态是「已死」") for m in found)
    assert not acts("车间顶上的横梁，都是石师傅一根一根看着架的，十年没换过。", "cleft")
    assert acts("车间顶上的横梁，都是石师傅昨天看着架的。", "fresh")
    assert acts("石师傅看着他们一根一根架横梁，汗顺着脖子往下淌。", "scene")


def test_a_sentence_opening_on_an_earlier_day_is_remembered(tmp_path: Path) -> None:
    """The chapter is 1979年3月2日 and 石大河 is dead: 二月初九夜里，石师傅站在车床边… tells that earlier day; 三月初二
    (today) or no date, he acts in the scene."""
    def acts(body: str, name: str) -> bool:
        found = continuity(tmp_path / name, SHOP, ["马国栋", "韩秀芝"], body, dead="石大河")
        return any(m.startswith("石大河 的状态是「已死」") for m in found)
    assert not acts("小马把图纸叠好，手就慢了。二月初九夜里，石师傅站在车床边，捏着这张图纸，说尺寸不对。", "earlier")
    assert acts("小马把图纸叠好，手就慢了。三月初二夜里，石师傅站在车床边，捏着这张图纸，说尺寸不对。", "today")
    assert acts("小马把图纸叠好，手就慢了。石师傅站在车床边，捏着这张图纸，说尺寸不对。", "undated")


def test_a_place_naming_a_thing_or_its_far_end_places_nobody(tmp_path: Path) -> None:
    """石大河 趴在北京机上 (a machine named for the place) and 北京那头没回话，石大河靠在… (the far end its own clause's
    subject) are at the works; 石大河趴在北京的…桌上 and 北京的招待所里，石大河靠在… put him in 北京 (钱老四's place)."""
    def placed(body: str, name: str) -> bool:
        found = continuity(tmp_path / name, SHOP, ["马国栋", "韩秀芝"], body)
        return any(m.startswith("石大河 在") and "北京" in m for m in found)
    assert not placed("电报房里清闲，石大河趴在北京机上打盹，小马在一旁翻电码本。", "machine")
    assert not placed("北京那头没回话，石大河靠在椅背上抽烟，烟头一明一暗。", "far")
    assert placed("电报房里清闲，石大河趴在北京的招待所桌上打盹。", "place")
    assert placed("北京的招待所里，石大河靠在椅背上抽烟，烟头一明一暗。", "fronted")
