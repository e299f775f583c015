"""hk1's round (stop 63, issue 30): what a person holds and what rank he holds (持有, 境界), read by shape.

- A scene of two (the draft's 在场): words calling one of the two are the other's, when the narration stands for the
  speaker by a pronoun; a pronoun's beat between two quotes goes on the same turn; a 他/她 right after a quote names the
  one of the two of that gender; the one a line's narration names only as turned to (冲X说) does not speak. So 我那块X,
  我手上这块X and 我用X那把…Y are read as the speaker's (持有), and 你 is the other one (你都是R了: 境界).
- An owner and a measure word, then the thing's looks (掏出X那枚包着…的Y, 我用X那把银柄Y).
- A rung's other names: the world's 叫R“A” / R…叫「A」 (not one said wrong: 叫R2“A”就是叫错了), and the head of a rung a
  card's alias puts after its bearer's name (哈骁骑 of a 骁骑校); a name no surname starts is called by its head.
- A title of one absent from the scene is a claim (courtesy is paid to one's face); a fall told anywhere in the draft no
  longer silences a rank said higher.
Every sentence here is this file's own."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from lw_storyrepo.ranks import ladders_of, rung_names

from story_cli import checked_chapter

WORKS = ("# 世界观\n\n## 力量体系\n车间里的级别：学徒 ＜ 班长 ＜ 工段长 ＜ 车间主任\n\n"
         "卡上「境界」一栏记的就是级别。厂里人管工段长叫“段头”，叫学徒“段头”就是叫错了。级别升降都要在设定变更里写明。\n\n"
         "## 地理\n红星机械厂在城东。\n")
BANNERS = ("# 世界观\n\n## 力量体系\n旗下的位分：披甲 ＜ 什长 ＜ 骁骑校 ＜ 佐领\n\n"
           "卡上「境界」一栏记的就是位分，升降只凭佐领的札付，要在设定变更里写明。\n\n## 地理\n旗营在江边。\n")

CardSpec = tuple[Sequence[str], str, str, str]
"""A card: aliases, 设定 (its gender said there), 境界 ('' for none), the one thing its 持有 lists ('' for none)."""


def continuity(root: Path, world: str, cards: Mapping[str, CardSpec], present: Sequence[str], body: str,
               place: str = "红星机械厂") -> list[str]:
    """The 连贯 messages of ``lw story check`` on ``body``, chapter 1 of a new 年代 book at ``root`` (``world`` its
    世界观, every card at ``place``), told by the first of ``present``, who are the draft's 在场
    (:func:`story_cli.checked_chapter`)."""
    front = (f"标题: 交接\n视角: {present[0]}\n书内时间: 1979年3月2日\n一句话事件: 夜班交接\n在场:\n"
             + "\n".join(f"  - {n}" for n in present))
    found = checked_chapter(root, world, {name: (name, aliases, place, about, "无。")
                                          for name, (aliases, about, _, _) in cards.items()},
                            "夜班交接", front, body, held={name: spec[3] for name, spec in cards.items() if spec[3]},
                            ranks={name: spec[2] for name, spec in cards.items()})
    return [str(f["message"]) for f in found if f["kind"] == "连贯"]


SHOP: dict[str, CardSpec] = {
    "马国栋": (["小马", "国栋"], "他是车间的学徒，二十岁。", "学徒", ""),
    "石大河": (["石师傅", "老石"], "他是车间的老钳工。", "班长", ""),
    "钱老四": (["老钱", "四哥"], "他是仓库保管员。怀表是一块上海牌怀表，他揣在兜里。", "", "怀表"),
    "韩秀芝": (["秀芝", "韩姐"], "她是车间的统计员。剪刀是一把银柄剪刀，她挂在腰上。", "", "剪刀"),
}


def _holds(messages: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(f"{who} 的持有里没有「{thing}」") for m in messages)


def test_words_calling_one_of_two_are_the_others(tmp_path: Path) -> None:
    """A quote calling 小马 in a scene of 马国栋 and 石大河, the narration standing for its speaker by 他 (before the
    quote or after it): 石大河's words, so 我那块怀表 is his claim on 钱老四's watch; with the watch his own, or a third
    person in the scene (who else may speak), nothing."""
    before = "石大河蹲在炉子边，半天没吭声。\n\n换好皮带，他满手机油，在工具箱里翻了半天：“小马，把我那块怀表拿过来，在窗台上。”"
    after = "石大河蹲在炉子边，半天没吭声。\n\n“小马，”他拍了拍膝盖上的灰，“把我那块怀表拿过来，在窗台上。”"
    for n, body in enumerate((before, after)):
        assert _holds(continuity(tmp_path / f"a{n}", WORKS, SHOP, ["马国栋", "石大河"], body), "石大河", "怀表"), body
    own = {**SHOP, "石大河": (["石师傅", "老石"], "他是车间的老钳工。", "班长", "怀表"),
           "钱老四": (["老钱", "四哥"], "他是仓库保管员。", "", "")}
    assert not _holds(continuity(tmp_path / "own", WORKS, own, ["马国栋", "石大河"], before), "石大河", "怀表")
    three = continuity(tmp_path / "three", WORKS, SHOP, ["马国栋", "石大河", "韩秀芝"], before)
    assert not any("怀表" in m for m in three)


def test_a_pronouns_beat_goes_on_the_same_turn(tmp_path: Path) -> None:
    """“小马，你看。”他伸出左手，在马国栋眼前晃了晃，“…我手上这块怀表…”: the second quote is the first's speaker's, the
    beat between them led by his pronoun and naming the other only as its object (a longer beat than K6's)."""
    body = "石大河喝了口茶。\n\n“小马，你看。”他伸出左手，在马国栋眼前晃了晃，“我手上这块怀表，走得比广播还准。”"
    assert _holds(continuity(tmp_path / "a", WORKS, SHOP, ["马国栋", "石大河"], body), "石大河", "怀表")


def test_a_pronoun_after_the_words_names_the_one_of_that_gender(tmp_path: Path) -> None:
    """In a scene of a man and a woman, “…”她回头冲马国栋说: hers (马国栋, turned to, does not speak it) — 我用老钱那把
    银柄剪刀 is her use of 钱老四's scissors, read past a measure word and a few words of looks; with 她 the scissors'
    holder herself, nothing."""
    cards = {**SHOP, "韩秀芝": (["秀芝", "韩姐"], "她是车间的统计员。", "", ""),
             "钱老四": (["老钱", "四哥"], "他是仓库保管员。剪刀是一把银柄剪刀。", "", "剪刀")}
    body = "布头堆了一桌子。\n\n“刚才我用老钱那把银柄剪刀裁的布，不然赶不上。”她回头冲马国栋说，“剪刀还他。”"
    assert _holds(continuity(tmp_path / "a", WORKS, cards, ["韩秀芝", "马国栋"], body), "韩秀芝", "剪刀")
    body = "布头堆了一桌子。\n\n“刚才我用我那把银柄剪刀裁的布，不然赶不上。”她回头冲马国栋说，“收起来吧。”"
    assert not _holds(continuity(tmp_path / "b", WORKS, SHOP, ["韩秀芝", "马国栋"], body), "韩秀芝", "剪刀")


def test_an_owner_and_a_measure_word_then_the_things_looks(tmp_path: Path) -> None:
    """马国栋从抽屉里摸出老钱那块刻着红五星的上海牌怀表: his use of 钱老四's watch, its looks between the owner's measure
    word and the thing."""
    body = "天快亮了。马国栋从抽屉里摸出老钱那块刻着红五星的上海牌怀表，看了看钟点。"
    assert _holds(continuity(tmp_path / "a", WORKS, SHOP, ["马国栋", "石大河"], body), "马国栋", "怀表")


def test_the_world_names_a_rung_otherwise() -> None:
    """叫R“A” and R…叫「A」 give the rung another name; one said wrong for a rung (叫R2“A”就是叫错了, R2不是A) is none."""
    assert rung_names("乡下人叫班长“班头”，叫学徒“小把”。", ("学徒", "班长")) == (("班头", "班长"), ("小把", "学徒"))
    assert rung_names("工段长管三个班，厂里人顺口叫「段头」。", ("学徒", "工段长")) == (("段头", "工段长"),)
    assert rung_names("叫学徒“师傅”就是叫错了。", ("学徒", "班长")) == ()
    assert rung_names("学徒不是把头；叫班长“把头”。", ("学徒", "班长")) == (("把头", "班长"),)
    assert rung_names("嫔以上是一宫主位，宫人称“娘娘”。", ("答应", "贵人", "嫔", "妃")) == ()  # a range, no rung's own
    ladder = ladders_of(WORKS)[0]
    assert ladder.rungs[0] == "学徒" and ladder.called == (("段头", "工段长"),)


RANKED: dict[str, CardSpec] = {
    "马国栋": (["小马", "国栋"], "他是车间的学徒。", "学徒", ""),
    "韩秀芝": (["秀芝", "韩姐"], "她是车间的班长。", "班长", ""),
    "石大河": (["石师傅", "老石"], "他是车间的老钳工。", "班长", ""),
}


def _higher(messages: list[str], who: str) -> bool:
    return any(m.startswith(f"{who} 的境界是") and "更高" in m for m in messages)


def test_the_worlds_other_name_of_a_rung_after_a_surname(tmp_path: Path) -> None:
    """“韩段头，…” for 韩秀芝, a 班长: the world calls a 工段长 段头 — a higher title, said even with a fall told elsewhere
    in the draft (料被退回了 explains no rank said higher); for a 工段长 herself, nothing."""
    body = "早上料被退回了两箱。\n\n马国栋推门进来：“韩段头，二号床子又卡了。”"
    assert _higher(continuity(tmp_path / "a", WORKS, RANKED, ["马国栋", "韩秀芝"], body), "韩秀芝")
    held = {**RANKED, "韩秀芝": (["秀芝", "韩姐"], "她是车间的工段长。", "工段长", "")}
    assert not _higher(continuity(tmp_path / "b", WORKS, held, ["马国栋", "韩秀芝"], body), "韩秀芝")


def test_a_rungs_head_in_a_cards_alias_is_a_title(tmp_path: Path) -> None:
    """哈丹 (什长, called 哈什长), 阿林 (骁骑校, called 阿骁骑): 骁骑 is the rung's head, and “哈骁骑，…” calls 哈丹 a
    骁骑校 — a name no surname starts, called by its head; 哈丹's own 什长 raises nothing."""
    cards: dict[str, CardSpec] = {
        "巴图": (["小巴"], "他是旗下的披甲。", "披甲", ""),
        "哈丹": (["哈什长", "老哈"], "他是旗下的什长。", "什长", ""),
        "阿林": (["阿骁骑", "林大人"], "他是旗下的骁骑校。", "骁骑校", ""),
    }
    found = continuity(tmp_path / "a", BANNERS, cards, ["巴图", "哈丹"], "巴图迎出门去：“哈骁骑，您里边坐。”", "旗营")
    assert _higher(found, "哈丹")
    found = continuity(tmp_path / "b", BANNERS, cards, ["巴图", "哈丹"], "巴图迎出门去：“哈什长，您里边坐。”", "旗营")
    assert not any("哈丹 的境界" in m for m in found)


def test_you_in_a_scene_of_two_is_the_other_one(tmp_path: Path) -> None:
    """韩秀芝 to 马国栋, a 学徒, in a scene of the two: “…你都是工段长了…” says he is one (a quote's first clause with a
    pronoun in it, 以前你…，, is no call); a third person in the scene, nobody is sure who is spoken to."""
    body = ("马国栋把饭盒放下。韩秀芝歪着头看他：“小马，你现在不一样了。”\n\n“哪里不一样？”\n\n"
            "“以前你干活，都要偷偷看一眼师傅。”她学着他的样子缩脖子，“现在腰杆硬了。你都是工段长了，说话要算数。”")
    assert _higher(continuity(tmp_path / "a", WORKS, RANKED, ["马国栋", "韩秀芝"], body), "马国栋")
    three = continuity(tmp_path / "b", WORKS, RANKED, ["马国栋", "韩秀芝", "石大河"], body)
    assert not _higher(three, "马国栋")


def test_a_title_of_one_absent_is_a_claim(tmp_path: Path) -> None:
    """“这批料是石工段长点的数” of 石大河, a 班长, not in the scene: a claim of his rank (courtesy is paid to one's
    face); with him in the scene, or called (“…，石工段长。”), no claim."""
    body = "马国栋把单子递给韩秀芝：“这批料是石工段长点的数，一件没少。”"
    assert _higher(continuity(tmp_path / "a", WORKS, RANKED, ["马国栋", "韩秀芝"], body), "石大河")
    assert not _higher(continuity(tmp_path / "b", WORKS, RANKED, ["马国栋", "韩秀芝", "石大河"], body), "石大河")
    called = "马国栋把单子递过去：“料都点齐了，石工段长。”"  # one called is there, whatever the 在场 lists
    assert not _higher(continuity(tmp_path / "c", WORKS, RANKED, ["马国栋", "韩秀芝"], called), "石大河")


ROAD = ("# 世界观\n\n## 力量体系\n道班里的位子：临时工 ＜ 养路工 ＜ 道班班长 ＜ 段长\n\n"
        "卡上「境界」一栏记的就是位子，升降要在设定变更里写明。\n\n## 地理\n道班在山口。\n")


def test_a_rungs_tail_before_a_full_name(tmp_path: Path) -> None:
    """签字人班长杜小河 for a 养路工: the tail of 道班班长 right before a full name is its title, as the whole rung is
    (a record's entry); his own rung there, nothing."""
    cards: dict[str, CardSpec] = {"马国栋": (["小马"], "他是道班的养路工。", "养路工", ""),
                                  "杜小河": (["小杜"], "他是道班的养路工。", "养路工", "")}
    body = "马国栋在单子底下写上：经手人马国栋，签字人班长杜小河。"
    assert _higher(continuity(tmp_path / "a", ROAD, cards, ["马国栋", "杜小河"], body, "道班"), "杜小河")
    cards["杜小河"] = (["小杜"], "他是道班的班长。", "道班班长", "")
    assert not any("杜小河 的境界" in m for m in continuity(tmp_path / "b", ROAD, cards, ["马国栋", "杜小河"], body, "道班"))


def test_reviewers_narrowings_of_the_names(tmp_path: Path) -> None:
    """r63-8: words of everyone's address, and a name of someone of the rung's (秀才的娘子叫“太太”), are no rung's name;
    r63-9: a wrong naming is read in its own clause only (the next clause about 童生 leaves 相公 the 秀才's)."""
    rungs = ("童生", "秀才", "举人")
    assert rung_names("童生见了秀才要叫“先生”。秀才的娘子叫“太太”。", rungs) == ()
    assert rung_names("乡下人叫秀才“相公”，童生可不能这么叫。", rungs) == (("相公", "秀才"),)


def test_reviewers_narrowings_of_a_scene_of_two(tmp_path: Path) -> None:
    """r63-1: a stranger put in play by the quote's narration (一个婆婆探进头来，冲他喊：) speaks it, none of the two;
    r63-17: a pronoun reacting right after words (她愣了一下) is their listener, no speaker."""
    body = "石大河蹲在炉子边，马国栋在一旁拧螺丝。\n\n一个婆婆探进头来，冲他喊：“小马，我那块怀表你给修好没有？”"
    assert not any("怀表" in m for m in continuity(tmp_path / "a", WORKS, SHOP, ["马国栋", "石大河"], body))
    for n, after in enumerate(("她愣了一下，低下头不吭声了。", "她眼圈一红，扭头跑了出去。")):  # r63-17 and its follow-up
        body = f"马国栋把饭盒放下。\n\n“你一个学徒，懂什么？”{after}"
        assert not any("韩秀芝 的境界" in m for m in continuity(tmp_path / f"b{n}", WORKS, RANKED, ["马国栋", "韩秀芝"], body))


def test_reviewers_narrowings_of_ranks(tmp_path: Path) -> None:
    """r63-7: the old title kept for one the draft tells fell (她早就被撸成了班长) is no claim; r63-28: a rung's tail after
    副 is a deputy's, no title of the rung."""
    body = "马国栋推门进来：“韩段头，二号床子又卡了。”韩秀芝摆摆手，她早就被撸成了班长。"
    assert not _higher(continuity(tmp_path / "a", WORKS, RANKED, ["马国栋", "韩秀芝"], body), "韩秀芝")
    cards: dict[str, CardSpec] = {"马国栋": (["小马"], "他是道班的养路工。", "养路工", ""),
                                  "杜小河": (["小杜"], "他是道班的养路工。", "养路工", "")}
    body = "副班长杜小河扛着铁锹走在最后，马国栋跟在他后头。"
    assert not any("杜小河 的境界" in m for m in continuity(tmp_path / "b", ROAD, cards, ["马国栋", "杜小河"], body, "道班"))
