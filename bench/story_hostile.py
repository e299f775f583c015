"""Story Repo: how long the draft checks take on hostile drafts (bounded time, issue 30).

``lw story check`` (and draft/accept/settle) reads a draft an author or a model wrote; a draft
is capped at DRAFT_MAX_CHARS. Each case below is a draft built to make one check slow (one
enormous line, thousands of quotes, names, ranks, held things, places, dates, pronouns, setting
changes, unbroken runs of one character…). Each is checked at a quarter of the cap and at the
cap on the book of the development set 连续性-开发五 (with two info gaps added); the figures are
the seconds of ``review.check`` (front matter read, every check, settle's dry plan), the growth
cap/quarter (linear ≈ 4×) and the cap's time against ordinary prose of the same length checked
in the same run (a busy machine slows both alike). The ``shelves`` cases grow the book with the
draft (a card holding cap/15 things, a 名册 of cap/15 names or places, a 世界观 saying where each
place lies) and count the load of the checks' context too (where the book's places are read).
The ``six_`` cases (the sixth look) do the same against the readers of the continuity rounds 13–17; the
``seven_`` cases (the seventh look) against the contract's place readers, who speaks a line of quotes
and the uses of held things in one sentence; the ``eighth_`` cases (the eighth look) against the readers of one
front-matter line (a 设定变更 line, a 书内时间, an inline list the front-matter fixer reads; a draft refused is
timed to its refusal) and of 名册's 非专名 list; the ``ninth_`` cases (the ninth look) against the readers of a card's
other names and relations beside a 名册 of thousands of names; the ``tenth_`` cases (the tenth look) against stop 51's
readers — a card's state as one table, holdings as identities (thousands of things of one kind or one mark), the
calendar's day words and months since, rank claims beside a ladder of hundreds of rungs, names by role — and the
short forms of organisations said in full; the ``eleventh_`` cases (the eleventh look) against stop 52's readers — a
day restated with 是…的, days left before a dated event, a festival on a counted day, a scene's date at dawn, dates with
bracketed asides on cards of thousands of dated events, a speaker using a thing an owner word names, a pronoun after one
of untold gender on a 50,000-character line, a verb asked as A-not-A, a time there; the ``twelfth_`` cases (the twelfth
look) against a pronoun's antecedent read from the paragraphs before it (a long line naming people, or of quotes, before
thousands of 他; thousands of short lines of 他) and a contract line of thousands of places asked of the draft; the
``thirteenth_`` cases (the thirteenth look) against stop 53's readers — a place met by a spot in it, asked by a line
naming it thousands of times or by hundreds of lines, and the uses of a held thing by a pronoun in one sentence of
thousands of clauses; the ``fourteenth_`` cases (the fourteenth look) against stop 54's contract readers — a line of
thousands of places each come from or gone to (each searched for in the rest of the line by several rules), and hundreds
of handover lines each of one of a card's thousands of things (each thing's tails tried against every name, its kind
searched for in the prose, the prose split into sentences again); the ``fifteenth_`` cases (the fifteenth look) against
stop 55's readers — hundreds of told handovers of a card's thousands of things, each thing's head after 把 asked of every
name and thing, a title on a surname of thousands of ranked cards, and thousands of turns of one speaker; the
``sixteenth_`` cases (the sixteenth look) against stop 55's leftovers — a card of thousands of things beside one line
naming them all, and hundreds of handover lines of them, told or not; thousands of info gaps beside a draft saying
their keywords; thousands of cards each a relative of the next; the ``seventeenth_`` cases (the seventeenth look)
against readers that searched a sentence's text up to each of its matches — a card's sentence of thousands of 叫“…”, a
line of thousands of 叫X, one sentence of thousands of ranks or days ahead, a line of thousands of quotes after its one
person; the ``eighteenth_`` cases (the eighteenth look) against stop 57's readers (a title spoken to, a going on a day,
quotes after a clause chain, in a scene of two or after a pronoun's beat, sightings imagined, seasons beside names of a
season, elders, acts given up, places asked after) and against the world's readers (thousands of one-place lists, of
family homes in one sentence, places of hundreds of lengths); the ``nineteenth_`` cases (the nineteenth look) against
stop 58's readers (acts of a trade a card bars, on one card or a thousand, K7's name guard beside a 名册 of thousands
of dictionary words, and the rest of the round's readings at the cap).

Usage: .venv/bin/python bench/story_hostile.py [CASE-SUBSTRING ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext
from lw_storyrepo.checkscore import _Book, _base_book, _freeze
from lw_storyrepo.drafts import DRAFT_MAX_CHARS, read_draft
from lw_storyrepo.propernouns import LONGER_WORD_HEADS, lexicon
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.review import check
from lw_storyrepo.samples import KNOWN, SECRET
from lw_storyrepo.workspace import load_state
from lwcore.api import LwError

os.environ.setdefault("LW_STORY_DATE", "2026-01-01T00:00:00+0000")

CORPUS = Path(__file__).resolve().parent.parent / "plugins" / "storyrepo" / "tests" / "corpus" / "连续性-开发五"
HEAD = "---\n标题: 试\n视角: 林知夏\n书内时间: 2024年10月13日\n在场:\n  - 林知夏\n  - 许砚\n---\n"
NAMES = ["林知夏", "林医生", "知夏", "许砚", "小许", "顾衡", "孟春华", "孟姐", "孟护士长", "宋一鸣", "宋代表", "陈守礼",
         "陈伯", "陈老伯", "陈晓棠"]
RANKS = ["实习医生", "住院医", "主治", "副主任", "主任"]
ITEMS = ["听诊器", "工牌", "旧怀表", "药柜钥匙", "老花镜", "银色钢笔"]
PLACES = ["仁济医院", "急诊科", "住院部", "心外科", "护士站", "手术室", "看守所", "日内瓦", "滨江市", "瑞士"]
TIMES = ["2024年10月12日", "立秋", "周三", "星期五", "春天", "去年冬天", "中秋", "昨天", "上旬", "三天前"]
KIN = ["爸爸", "妈妈", "你娘", "娘亲", "舅舅", "姥姥", "师父", "爷爷", "老婆", "他哥"]
PROSE = "林知夏推开值班室的门，许砚正趴在桌上写病历。“陈伯的片子出来了吗？”她问。许砚抬起头，掏出旧怀表看了一眼。\n"


def fill(unit: str, n: int) -> str:
    return (unit * (n // max(1, len(unit)) + 1))[:n]


def bodies(n: int) -> dict[str, str]:
    """Draft bodies of about ``n`` characters, one per hostile class."""
    c = {"one_line_prose": fill("林知夏推开门，许砚跟在后面，手里攥着旧怀表。", n), "short_lines": fill("林知夏点头。\n", n),
         "blank_lines": fill("\n", n), "many_quotes": fill("“好。”林知夏说。\n", n), "quotes_one_line": fill("“好。”林知夏说。", n)}
    for q in "「『“\"《（(":
        c[f"unclosed_{q}"] = fill(q + "林知夏说", n)
    c.update({
        "closers_only": fill("」』”）", n), "names_line": fill("".join(NAMES), n),
        "names_said": fill("".join(f"{x}说：“我在。”" for x in NAMES), n),
        "ranks": fill("许砚还没熬到" + "，".join(RANKS) + "。", n), "items": fill("许砚掏出" + "、".join(ITEMS) + "。", n),
        "items_lines": fill("陈晓棠拿起听诊器。\n", n), "places": fill("顾衡在" + "、".join(PLACES) + "。", n),
        "places_lines": fill("宋一鸣走进心外科。\n", n), "times": fill("、".join(TIMES) + "。", n),
        "pronouns": fill("他", n), "pronouns_mix": fill("他她他她它", n), "pronoun_sentences": fill("他说，她看着他，他点头。", n),
        "pronoun_colons": fill("许砚看她：", n), "thoughts": fill("许砚知道", n), "kin": fill("、".join(KIN), n),
        "one_char_han": fill("林", n), "mixed_scripts": fill("Lin林ق\u200b\u0301ж𝔸\u200d知", n),
        "nested_brackets": fill("《", n // 2) + fill("》", n // 2), "secret_words": fill("手术的病历，顾衡说。", n),
        "dead_speaks": fill("陈守礼说：“我来了。”\n", n), "far_person": fill("顾衡站在林知夏身边。\n", n),
        "power_lost_used": fill("孟姐放出异能，", n), "later_day_as_past": fill("十月十四那天刚", n),
        "far_person_addressed": fill("“顾衡，你来说。”", n), "item_by_looks": fill("那块表盘发黄的旧怀表，", n),
        "radio_call": fill("对讲机响了，顾衡说：“好。”", n),
        "numeral_run": fill("一二三四五六七八九十百千万亿零两廿卅", n), "place_names_run": fill("青石镇北山村东城区西湖路", n),
        "realm_ladder_run": fill("练气筑基金丹元婴化神", n),
        "cjk_random": "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(n)),
        "coined_with_suffixes": "".join(chr(0x4E00 + (i * 7919) % 3000) + chr(0x4E00 + (i * 31) % 3000) + "宗城剑山"[i % 4]
                                        for i in range(n // 3)),
    })
    return {k: HEAD + v for k, v in c.items()}


def new_rules(n: int) -> dict[str, str]:
    """Drafts aimed at the contract's event rule and the names detector's eighth round."""
    c = {
        "handover_clauses": fill("许砚把旧怀表交给林知夏，孟姐把带新人的差事派给小许。", n),
        "jiao_questions": fill("他叫什么？她叫谁？你叫哪个？", n), "surname_tai": fill("王太好李很忙张太累赵很冷", n),
        "surname_ji_runs": fill("王记李记张记赵记", n), "suffix_runs": fill("林栈许厅顾图陈门口王记", n),
        "measure_words": fill("一壶一把一碗一杯", n), "measure_stems": fill("一壶龙井，一把长风剑，", n),
        "new_suffixes": fill("长风小组青石栈明月茶园锦绣布庄长风厅施工图", n),
        "trade_surname": fill("主持人王小明，车夫吴瞎子，二叔李大，经纪人王姐，", n),
        "shop_ji_trade": fill("唐记烧腊王记茶楼老李记笔记", n), "menkou": fill("林家门口许府门口", n),
        "suffix_coined": "".join("王李张赵"[i % 4] + chr(0x4E00 + (i * 7919) % 3000) + "记栈厅图"[i // 4 % 4]
                                 for i in range(n // 3)),
    }
    return {k: HEAD + v for k, v in c.items()}


def pieces(n: int) -> str:
    """``n`` characters of two-character pieces no book holds, each pair new."""
    return "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(n))


def contracts(n: int) -> dict[str, tuple[list[str], str]]:
    """Frozen contracts built against the event rule, each with a draft of ``n`` characters that tells none of it."""
    prose, many = HEAD + fill(PROSE, n), pieces(n)
    k = max(1, n // 100)
    return {
        "ct_events_untold": ([f"孟姐把{pieces(8)[i % 5:]}{i}号差事交给许砚" for i in range(k)], prose),
        "ct_events_items": ([f"许砚把{ITEMS[i % len(ITEMS)]}交给林知夏" for i in range(k)], prose),
        "ct_event_line_pieces": ([f"孟姐把{many}交给许砚"], prose),
        "ct_event_line_pairs": (["孟姐把" + "、".join(many[i:i + 2] for i in range(0, n, 2)) + "的差事交给许砚"], prose),
        "ct_event_line_names": (["孟姐把" + fill("".join(NAMES), n) + "的差事交给许砚"], prose),
        "ct_many_handovers_one_line": (["，".join(f"孟姐把{pieces(6)}差事交给许砚" for _ in range(n // 14))], prose),
        "ct_control_chars": ([fill("孟姐把\x01\x1b[31m\u202e差事\x7f交给许砚", n)], prose),
        "ct_events_vs_cjk_draft": ([f"孟姐把{pieces(8)[i % 5:]}{i}号差事交给许砚" for i in range(k)],
                                   HEAD + many),
        "ct_appear_not_present": ([f"顾衡出场，第{i}次" for i in range(k)], prose),
    }


def held(k: int) -> list[str]:
    """``k`` three-character names of things, each new."""
    return ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(k)]


def shelves(n: int) -> dict[str, tuple[dict[str, str], str]]:
    """Books built against the checks' reading of cards and 名册 (a card holding thousands of things, a
    held thing named by thousands of characters, a 名册 of thousands of names), each with a draft of
    about ``n`` characters: ``{case: ({file: text written over the book's}, draft)}``."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    things, k = held(n // 15), n // 15
    holding = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - {t}\n" for t in things))}
    names = ["王" + x[:2] for x in held(k)]
    places = [x[:2] + "城" for x in held(k)]
    roster = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {x} | 小{x[1:]} | 人物 | 1 |\n" for x in names)}
    return {
        "card_holds_thousands": (holding, HEAD + fill(PROSE, n)),
        "card_holds_thousands_cjk": (holding, HEAD + pieces(n)),
        "card_holds_thousands_used": (holding, HEAD + fill("".join(f"林知夏掏出{t}。" for t in things), n)),
        "held_name_of_the_cap": ({f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n  - " + fill("甲", n) + "\n")},
                                 HEAD + fill(PROSE, n)),
        "roster_thousands_said": (roster, HEAD + fill("".join(f"{x}说：“我在。”\n" for x in names), n)),
        "roster_thousands_listed": (roster, HEAD + fill("、".join(names), n)),
        # every 王 of the draft followed by a character no name has: each tried all names after 王
        "roster_surname_run": (roster, HEAD + "、".join(names) + "\n" + fill("王。", n - 3 * k)),
        "gap_thousands_keywords": ({f"{L.信息差}/S-001-真凶.md": SECRET.replace("  - 灭门\n  - 血书\n", "  - 手术\n  - 病历\n" + "".join(
                                       f"  - {w[:2]}\n" for w in things))},
                                   HEAD + fill("".join(f"许砚说：“{w[:2]}和{things[-1 - i][:2]}。”\n" for i, w in enumerate(things)), n)),
        "places_thousands": ({L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places),
                              L.世界观: "# 世界观\n\n" + "".join(f"{p}在{places[i - 1]}以北三百里，{p}离{places[i - 2]}很远。\n"
                                                             for i, p in enumerate(places))},
                             HEAD + fill("".join(f"许砚从{p}走到{places[-1 - i]}。\n" for i, p in enumerate(places)), n)),
    }


def sixth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Books and drafts built against the continuity rounds 13–17 (the sixth look), as :func:`shelves`; a
    third item is the frozen contract the draft is checked against."""
    world = (CORPUS / "书" / L.世界观).read_text(encoding="utf-8")
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    burnt = {f"{L.角色}/许砚.md": card.replace("状态: 在世", "状态: 烫伤").replace("## 设定\n", "## 设定\n许砚的右手什么也拿不了。\n")}
    things = held(n // 15)
    places = [x[:2] + "城" for x in things]
    rostered = "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places)
    aliased = burnt[f"{L.角色}/许砚.md"].replace("别名:\n", "别名:\n" + "".join(f"  - 砚{x[:2]}\n" for x in things))
    return {
        # a card of thousands of aliases in a state, a 世界观 of thousands of sentences, each read for who it names
        "six_bar_aliases_lore": ({f"{L.角色}/许砚.md": aliased, L.世界观: world + "".join(f"{x}说了一句话。\n" for x in things)},
                                 HEAD + fill(PROSE, n)),
        # thousands of places barred, each bar read for its first known place
        "six_bar_places": ({**burnt, L.名册: rostered, L.世界观: world + "".join(f"许砚不许进{p}的门。\n" for p in places)},
                           HEAD + fill(PROSE, n)),
        # a contract of a hundredth of the cap's places against a book of thousands: each term read by its home kind
        "six_contract_places": ({L.名册: rostered}, HEAD + fill(PROSE, n), [f"许砚去{p}" for p in places[:max(1, n // 100)]]),
        "six_world_walks_line": ({L.世界观: world + fill("五里远", n) + "\n"}, HEAD + fill(PROSE, n)),
        # a barred hand's act done by others, each read for who does it
        "six_barred_acts_line": (burnt, HEAD + fill("林知夏右手拿起，", n)),
        # thousands of quotes on one line, each read for words written, reported or mimicked before it
        "six_mimicked_quotes_line": ({}, HEAD + "许砚学着顾衡的样子，" + fill("林知夏说：“好。”", n)),
    }


def seventh_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Books and drafts built against the contract's place readers and :func:`voices` (the seventh look), as
    :func:`sixth_look`."""
    places = [x[:2] + "城" for x in held(n // 15)]
    rostered = "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places)
    return {
        # one contract line listing every place of a 名册 of thousands: each term read against the whole book
        "seven_contract_place_line": ({L.名册: rostered}, HEAD + fill(PROSE, n), ["许砚去" + "、".join(places)]),
        # a line of thousands of 他说：“…”: each pronoun read for the last person named before it
        "seven_pronoun_quotes_line": ({}, HEAD + fill("他说：“好。”", n)),
        "seven_unnamed_quotes_line": ({}, HEAD + fill("“好。”", n)),
        # a sentence of thousands of things brought out and handed over: each use looked for among those read before it
        "seven_handovers_line": ({}, HEAD + fill("许砚掏出旧怀表递给林知夏，", n)),
    }


def eighth_look(n: int) -> dict[str, tuple[dict[str, str], str]]:
    """Books and drafts built against the readers of one front-matter line and of 名册's 非专名 list (the eighth
    look), as :func:`shelves`."""
    roster = "# 名册\n\n" + L.ROSTER_HEADER
    blanks = " " * n
    return {
        # a 设定变更 line of blanks: who and value were read again from each blank
        "eighth_change_blanks": ({}, HEAD.replace("---\n标题", f"---\n设定变更:\n  - \"许砚{blanks}x\"\n标题") + PROSE),
        "eighth_change_value_blanks": ({}, HEAD.replace("---\n标题", f"---\n设定变更:\n  - \"许砚.持有+旧{blanks}x\"\n标题") + PROSE),
        # a 书内时间 with no year, or a year after thousands of characters: searched for from each character
        "eighth_time_no_year": ({}, HEAD.replace("书内时间: 2024年10月13日", "书内时间: " + fill("某", n)) + PROSE),
        "eighth_time_era_run": ({}, HEAD.replace("书内时间: 2024年10月13日", "书内时间: " + fill("大历", n) + "1023年冬月初三") + PROSE),
        "eighth_time_commas": ({}, HEAD.replace("书内时间: 2024年10月13日", "书内时间: 2024年10月13日" + fill("，", n) + "x") + PROSE),
        # a front-matter line of unclosed inline lists: the fixer's lazy head tried each ``:`` (refused)
        "eighth_flow_unclosed": ({}, HEAD.replace("---\n标题", "---\nx:" + fill("a:[", n) + "\n标题") + PROSE),
        # a 非专名 section of blank lines before prose: each line read the whole run
        "eighth_ignored_blank_run": ({L.名册: roster + f"\n## {L.IGNORE_SECTION}\n说明\n" + fill(" \n", n) + "说明\n"},
                                     HEAD + fill(PROSE, n)),
    }



def ninth_look(n: int) -> dict[str, tuple[dict[str, str], str]]:
    """Books built against the readers of a card's other names and relations beside a 名册 of thousands of names
    (the ninth look), as :func:`shelves`."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    k = n // 15
    names = ["王" + x[:2] for x in held(k)]
    roster = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {x} | 小{x[1:]} | 人物 | 1 |\n" for x in names)}
    return {
        # a card of thousands of other names beside a 名册 of thousands: each of its names was tried against each other name
        "ninth_card_aliases_roster": ({**roster, f"{L.角色}/许砚.md": card.replace("别名:\n", "别名:\n" + "".join(
                                          f"  - 砚{x[1:]}\n" for x in names))}, HEAD + fill(PROSE, n)),
        # a card of thousands of relations to no one named: each tried every name against the whole text before it
        "ninth_card_relations_roster": ({**roster, f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n" + fill(
                                            "许砚是邻居的姐姐。", n) + "\n")}, HEAD + fill(PROSE, n)),
        # a line of thousands of organisations' heads (finding 8): each token's start read every bound of the line
        "ninth_chain_heads": ({}, HEAD + fill("金城航运队", n)),
        "ninth_chain_heads_commas": ({}, HEAD + fill("野径户外俱乐部，", n)),
        # thousands of organisations said in full, each new: each tried against the ending of every candidate
        "ninth_chain_heads_distinct": ({}, HEAD + fill("".join(f"{x}航运队，" for x in held(n // 7)), n)),
    }


def tenth_look(n: int) -> dict[str, tuple[dict[str, str], str]]:
    """Books and drafts built against stop 51's readers (the tenth look): a card's state as one table, holdings as
    identities (kind and marks), the calendar's facts, rank claims and the names of people by role, as :func:`shelves`."""
    world = (CORPUS / "书" / L.世界观).read_text(encoding="utf-8")
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    k = n // 15
    things = held(k)
    kinds = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - {t[:2]}表\n" for t in things))}
    marked = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - 甲{t[0]}表\n" for t in things))}
    ones = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - {t[0]}\n" for t in things))}
    bars = "失明瘫痪昏迷聋了什么都拿不得"
    barred = {f"{L.角色}/许砚.md": card.replace("状态: 在世", "状态: " + fill(bars, n // 4))}
    barred_text = {f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n" + fill("许砚失明了，瘫痪了，昏迷不醒，", n) + "\n")}
    rungs = [x[:2] + "境" for x in held(400)]
    ladder = {L.世界观: world.replace("实习医生 ＜ 住院医 ＜ 主治 ＜ 副主任 ＜ 主任", " ＜ ".join(rungs))}
    dead = {f"{L.角色}/陈守礼.md": (CORPUS / "书" / L.角色 / "陈守礼.md").read_text(encoding="utf-8")}
    return {
        # thousands of held things of one kind (表): each use of 表 tried every thing of that kind, each mark of each
        "tenth_held_one_kind": (kinds, HEAD + fill("许砚掏出那块旧表看了一眼，", n)),
        "tenth_held_one_kind_lines": (kinds, HEAD + fill("许砚掏出那块表。\n", n)),
        # …and all of one mark (甲), told by that mark: every thing of the kind fits each description
        "tenth_held_one_mark": (marked, HEAD + fill("许砚掏出那块甲表看了一眼，", n)),
        "tenth_held_one_mark_distinct": (marked, HEAD + "".join(f"那块甲{t[0]}表，" for t in things)[:n]),
        # thousands of held things named by one character each
        "tenth_held_one_char": (ones, HEAD + pieces(n)),
        "tenth_held_one_char_used": (ones, HEAD + fill("许砚拿起" + "".join(t[0] for t in things[:50]) + "，", n)),
        # a 状态 repeating every bar word, and a card text of thousands of bars, with a draft of acts
        "tenth_state_bars": (barred, HEAD + fill("他拿起信看了看，站起来走了，", n)),
        "tenth_state_bars_text": (barred_text, HEAD + fill("许砚拿起信看了看，站起来走了，", n)),
        "tenth_state_pronouns": (barred, HEAD + fill("他", n)),
        "tenth_state_pronouns_told": (barred, HEAD + "许砚" + fill("他她看", n)),
        # a ladder of hundreds of rungs, said as titles and listener frames
        "tenth_ladder_titles": (ladder, HEAD + fill("".join(f"{r}许砚，" for r in rungs), n)),
        "tenth_ladder_frames": (ladder, HEAD + fill("".join(f"你一个{r}，你当了这么些年的{r}，" for r in rungs[:40]), n)),
        # 50,000-character lines of the calendar's and the ranks' frames
        "tenth_you_a_line": ({}, HEAD + fill("你一个", n)),
        "tenth_served_line": ({}, HEAD + fill("当了七八年主治的许砚，", n)),
        "tenth_day_words_line": ({}, HEAD + fill("明天后天大后天", n)),
        "tenth_day_words_comer": ({}, HEAD + fill("明天顾衡就到了，后天", n)),
        "tenth_months_since_line": (dead, HEAD + fill("陈守礼走了三个月，", n)),
        "tenth_months_since_run": (dead, HEAD + fill("走了", n)),
        # names by role and settlements by land feature
        "tenth_role_names": ({}, HEAD + fill("摊主王小明，编辑李大，政委张三，", n)),
        "tenth_role_run": ({}, HEAD + fill("王摊主", n)),
        "tenth_settlement_run": ({}, HEAD + fill("苇子坑村白鹭塘村", n)),
        "tenth_settlement_features": ({}, HEAD + fill("坑塘", n)),
        "tenth_chain_said_alone": ({}, HEAD + fill("金城航运队。\n航运队说。\n", n)),
    }


LUNAR_HEAD = HEAD.replace("书内时间: 2024年10月13日", "书内时间: 光绪三年十月初五")


def eleventh_look(n: int) -> dict[str, tuple[dict[str, str], str]]:
    """Books and drafts built against stop 52's readers (the eleventh look): a date restated with 是…的, days left
    before a dated event (只剩N天), a festival on a counted day (前日重阳), a scene's date with dawn words, dates with
    bracketed asides on cards (thousands of dated events), as :func:`shelves`."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    k = n // 15
    things = held(k)
    dated = {f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n许砚十月初八回城。" + "".join(
        f"{t}十月初{'一二三四五六七八九十'[i % 10]}{t}下水，" for i, t in enumerate(things)) + "\n")}
    asides = {f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n" + fill("十月初八（腊月十七）回城、", n) + "\n")}
    no_ends = {f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n" + fill("十月初八回城", n) + "\n")}
    one = {f"{L.角色}/许砚.md": card.replace("## 设定\n", "## 设定\n许砚十月初八回城，靖波十月十二下水。\n")}
    return {
        # 50,000-character lines of the new calendar readers' words, on a lunar in-book date
        "eleventh_restated_line": (one, LUNAR_HEAD + fill("是十月初八", n)),
        "eleventh_restated_named": (one, LUNAR_HEAD + fill("许砚是十月初八进的城，", n)),
        "eleventh_restated_no_ends": (one, LUNAR_HEAD + "许砚" + fill("是十月初八进的城", n)),
        "eleventh_left_line": (one, LUNAR_HEAD + fill("只剩三天", n)),
        "eleventh_left_event": (one, LUNAR_HEAD + fill("靖波下水只剩三天了，", n)),
        "eleventh_left_long_what": (one, LUNAR_HEAD + fill("靖波下水靖波下水只剩三天", n)),
        "eleventh_feast_line": (one, LUNAR_HEAD + fill("前日重阳", n)),
        "eleventh_scene_dawn": (one, LUNAR_HEAD + fill("十月初一，天刚亮，", n)),
        "eleventh_brackets_line": (one, LUNAR_HEAD + fill("（…）", n)),
        "eleventh_dated_asides_line": (one, LUNAR_HEAD + fill("十月初八（腊月十七）回城", n)),
        # a card of thousands of dated events, of dates with asides in one clause, of dates with no clause end
        "eleventh_card_dated_events": (dated, LUNAR_HEAD + fill("许砚说，离下水只剩三天了。", n)),
        "eleventh_card_events_left": (dated, LUNAR_HEAD + "".join(f"{t}下水只剩三天了，" for t in things)[:n]),
        "eleventh_card_events_left_miss": (dated, LUNAR_HEAD + "".join(f"下水{t}只剩三天了，" for t in things)[:n]),
        "eleventh_card_events_come": (dated, LUNAR_HEAD + "".join(f"再过三天，{t}就回{t[0]}了，" for t in things)[:n]),
        "eleventh_card_events_restated": (dated, LUNAR_HEAD + fill("许砚是十月初九回的城。", n)),
        "eleventh_card_asides": (asides, LUNAR_HEAD + fill("再过三天，许砚就回城了。", n)),
        "eleventh_card_no_clause_ends": (no_ends, LUNAR_HEAD + fill("许砚是十月初九回的城。", n)),
        # stop 52's later readers: a speaker using a thing an owner word names (H3), a pronoun after one of untold
        # gender (H3), a verb asked as A-not-A (N25), a time there (P2)
        "eleventh_spoke_line": ({}, HEAD + fill("“我拿许砚那块旧怀表看了看。”许砚说。", n)),
        "eleventh_spoke_me": ({}, HEAD + fill("“我用我那块旧怀表，我拿许砚的旧怀表”林知夏说，", n)),
        "eleventh_spoke_quotes": ({}, HEAD + fill("“我拿许砚那块旧怀表", n)),
        "eleventh_untold_gender": ({}, HEAD + fill("顾衡拿着旧怀表。他推了推眼镜，", n)),
        "eleventh_a_not_a": ({}, HEAD + fill("看没看过仁济公司", n)),
        "eleventh_a_not_a_run": ({}, HEAD + fill("不不没没", n)),
        "eleventh_placing_verb": ({}, HEAD + fill("马停坡牛卧岗", n)),
        "eleventh_while_there": ({}, HEAD + fill("许砚在日内瓦的时候，到了瑞士以后，押送一队军饷往日内瓦去了，", n)),
    }


def twelfth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Drafts built against a pronoun's antecedent (the twelfth look): the paragraphs before a pronoun's, read again for
    each pronoun — a line naming people before a line of thousands of 他, a line of quotes before them, thousands of
    short lines of 他 (each walked the whole draft back), as :func:`shelves`; and a contract line of thousands of
    places asked of a draft of characters no book holds (each place searched for in the whole draft), as
    :func:`sixth_look`."""
    places = [x[:2] + "城" for x in held(n // 15)]
    rostered = "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places)
    return {
        "twelfth_contract_places_cjk": ({L.名册: rostered}, HEAD + pieces(n), ["许砚去" + "、".join(places)]),
        "twelfth_names_then_pronouns": ({}, HEAD + fill("顾衡许砚", n // 2) + "\n" + fill("他掏出旧怀表，", n // 2)),
        "twelfth_quotes_then_pronouns": ({}, HEAD + fill("“顾衡”", n // 2) + "\n" + fill("他掏出旧怀表，", n // 2)),
        "twelfth_pronoun_lines": ({}, HEAD + fill("他掏出旧怀表。\n", n)),
        "twelfth_pronoun_lines_blank": ({}, HEAD + "许砚。\n" + fill("\n \n他掏出旧怀表。", n)),
    }


def thirteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Drafts built against stop 53's readers (the thirteenth look): a place met by a spot in it (厂署秤房) read of
    the prose again for each mention of a contract line and for each line, over a prose of thousands of 想去秤房; a
    contract line of thousands of places each telling of a thing (一盒…点心) over a prose of thousands of 一张点心 and a
    card of thousands of things (each place read every 点心 of the prose and tried every thing); and
    the uses of a held thing by a pronoun in one sentence of thousands of clauses (the sentence searched for names
    from its start for each use), as :func:`sixth_look`."""
    rostered = "# 名册\n\n" + L.ROSTER_HEADER + "| 厂署 |  | 地点 | 1 |\n"
    meant = HEAD + fill("许砚想去秤房。", n)
    places = [x[:2] + "城" for x in held(n // 15)]
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    telling = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places),
               f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - 物{t}\n" for t in held(n // 15)))}
    return {
        "thirteenth_places_tell_of_a_thing": (telling, HEAD + fill("许砚拿出一张点心。", n),
                                              ["许砚寄" + "、".join("一盒" + p + "点心" for p in places)]),
        "thirteenth_spot_one_line": ({L.名册: rostered}, meant, ["许砚去" + "厂署秤房、" * (n // 30)]),
        "thirteenth_spot_lines": ({L.名册: rostered}, meant, ["许砚去厂署秤房"] * (n // 120)),
        "thirteenth_uses_one_sentence": ({}, HEAD + fill("他掏出旧怀表", n)),
        "thirteenth_uses_clauses": ({}, HEAD + fill("她拿起旧怀表，他掏出旧怀表，", n)),
    }


def front_matters(n: int) -> dict[str, str]:
    k = n // 20
    return {
        "fm_secret_changes": "---\n标题: 试\n视角: 林知夏\n设定变更:\n" + "".join(f"  - S-001.知情人+人{i}\n" for i in range(k))
                             + "---\n林知夏说。\n",
        "fm_card_changes": "---\n标题: 试\n视角: 林知夏\n设定变更:\n" + "".join(f"  - 许砚.持有+物{i}\n" for i in range(k))
                           + "---\n林知夏说。\n",
        "fm_present": "---\n标题: 试\n视角: 林知夏\n在场:\n" + "".join(f"  - 人物{i}\n" for i in range(k)) + "---\n"
                      + fill("林知夏说。", n // 2) + "\n",
    }


def worlds(n: int) -> dict[str, str]:
    """世界观 texts of about ``n`` characters built against the rank ladder reader; timed is the load of the
    checks' context (every range, table, list and line of a section once read the whole section again)."""
    return {
        "wv_ranges_one_line": "## 力量体系\n" + fill("一品到九品，A1-A9，", n),
        "wv_tables": "## 力量体系\n" + fill("| 境界 | 说明 |\n|--|--|\n| 练气 | a |\n| 筑基 | b |\n\n", n),
        "wv_held_lines": "## 力量体系\n" + fill("实习医生、住院医、主治、副主任\n", n),
        "wv_numbered": "## 力量体系\n" + fill("1. 实习医生\n2. 住院医\n3. 主治\n\n", n),
        # a rung named again and again, each naming once checked for a denial (主治不是大夫: r63-10, stop 63)
        "wv_rung_names": "## 力量体系\n实习医生、住院医、主治\n" + fill("病人都叫主治“大夫”，", n),
    }


def fourteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Drafts built against stop 54's readers (the fourteenth look): a contract line of thousands of places each come
    from (从X城来到) or gone to (去X城看), each searched for in the rest of the line by several rules; and hundreds of
    contract lines each handing over one of a card's thousands of things (许砚把物X交给林知夏) over a prose of thousands
    of sentences (the prose split into sentences again for each line), as :func:`sixth_look`."""
    places = [x[:2] + "城" for x in held(n // 15)]
    things = held(n // 15)
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    rostered = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places)}
    holding = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - 物{t}\n" for t in things))}
    return {
        "fourteenth_places_whence": (rostered, HEAD + fill("许砚从城里来到这儿。", n),
                                     ["许砚从" + "、".join(p + "来到" for p in places)]),
        "fourteenth_places_visited": (rostered, HEAD + fill("许砚去城里看了看。", n), ["许砚去" + "去".join(places) + "看妈"]),
        "fourteenth_telling_lines": (rostered, HEAD + fill("许砚说那年冬天找到他的时候雪很大。\n", n),
                                     [f"许砚说去年在{p}找到顾衡的时候雪很大" for p in places[:n // 120]]),
        "fourteenth_handover_lines": (holding, HEAD + fill("许砚把物件递给林知夏。", n),
                                      [f"许砚把物{t}交给林知夏" for t in things[:n // 120]]),
    }


def fifteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Drafts built against stop 55's readers (the fifteenth look): hundreds of contract lines each handing over one of a
    card's thousands of things, every handover told in the prose (许砚把物X递给林知夏。), so each line asks whether the
    thing's head after 把 names it alone (every other name and thing tried for each line); and thousands of ranked cards of
one surname beside a prose saying a title on it thousands of times (王主任: every bearer tried for a rank at each); and
thousands of quotes of one speaker each followed by a quote alone (the turn-taking walked back through every turn), as
:func:`sixth_look`."""
    things = held(n // 15)
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    holding = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - 物{t}\n" for t in things))}
    told = "".join(f"许砚把物{t}递给林知夏。" for t in things[:n // 120])
    bearers = ["王" + t[:2] for t in held(n // 30)]
    ranked = {f"{L.角色}/{p}.md": f"---\n姓名: {p}\n状态: 在世\n位置: 仁济医院\n境界: 主治\n最后变更章: 0\n---\n## 设定\n医生。\n"
              for p in bearers}
    return {
        "fifteenth_turns_of_one": ({}, HEAD + fill("林知夏说：“好。”\n“好。”\n", n)),
        "fifteenth_surname_titles": (ranked, HEAD + fill("王主任说：“好。”王主治点头。", n)),
        "fifteenth_heads_after_ba": (holding, HEAD + told + fill("许砚把物件递给林知夏。", n - len(told)),
                                     [f"许砚把物{t}交给林知夏" for t in things[:n // 120]]),
    }


def sixteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Drafts built against stop 55's leftovers (the sixteenth look): a card of thousands of things beside a draft on one
    line naming every one of them (每样都摸了摸物X。: the things' forms looked for in the draft, their pattern, a
    finding's place on a line of 60,000 characters) and hundreds of contract lines each handing one over (each line's
    terms read by the pattern of the book's thousands of names and things, the prose searched for each thing's forms),
    as :func:`sixth_look`."""
    things = held(n // 15)
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    holding = {f"{L.角色}/许砚.md": card.replace("持有:\n", "持有:\n" + "".join(f"  - 物{t}\n" for t in things))}
    named = "".join(f"许砚摸了摸物{t}。" for t in things)[:n]
    words = held(n // 15)
    gaps = {f"{L.信息差}/S-{k + 100:04d}-密.md": SECRET.replace("大长老", "顾衡").replace("灭门真凶是大长老", w)
            .replace("灭门", w).replace("血书", w[::-1]) for k, w in enumerate(words)}
    told = "".join(f"许砚说起{w}。" for w in words)[:n]
    kin = ["王" + t[:2] for t in held(n // 30)]
    cards = {f"{L.角色}/{p}.md": f"---\n姓名: {p}\n状态: 在世\n位置: 仁济医院\n最后变更章: 0\n---\n## 设定\n"
             f"{kin[(k + 1) % len(kin)]}的妹妹。\n" for k, p in enumerate(kin)}
    return {
        "sixteenth_info_gaps": (gaps, HEAD + told + fill("林知夏点头。", n - len(told))),
        "sixteenth_cards_related": (cards, HEAD + fill(PROSE, n)),
        "sixteenth_all_things_named": (holding, HEAD + named + fill("许砚摸了摸物件。", n - len(named)),
                                       [f"许砚把物{t}交给林知夏" for t in things[:n // 120]]),
        "sixteenth_handovers_untold": (holding, HEAD + fill("许砚看了看窗外。", n),
                                       [f"许砚把物{t}交给林知夏" for t in things[:n // 120]]),
    }


def seventeenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Books and drafts built against readers that asked a pattern of a sentence's whole text before each of its
    matches (the seventeenth look): a card of one sentence of thousands of 叫“…” (who calls whom), a line of thousands
    of 叫X (a kind of thing before 叫), one sentence of thousands of ranks after a name (compared with the name?), of
    days of the coming months told as past (a plan word before?), of ranks the point of view aims at (a pause before?),
    and a line of thousands of quotes each after the line's one person (who speaks), as :func:`sixth_look`."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    return {
        "seventeenth_card_calls": ({f"{L.角色}/许砚.md": card + "\n" + fill("林知夏叫他“小许”，", n) + "\n"}, HEAD + fill(PROSE, n)),
        "seventeenth_jiao_line": ({}, HEAD + fill("那人叫阿福，", n)),
        "seventeenth_ranks_after_names": ({}, HEAD + fill("许砚如今不过是个实习医生，", n)),
        "seventeenth_days_ahead": ({}, HEAD + fill("十一月三日那天就来了，", n)),
        "seventeenth_ranks_aimed_at": ({}, HEAD + fill("下个月就要考主治", n)),
        "seventeenth_quotes_after_one": ({}, HEAD + fill("林知夏看着他。“好。”", n)),
    }


def eighteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Books and drafts built against stop 57's readers and the book's own files (the eighteenth look): a title
    spoken to at the head of thousands of quotes, a dead one's going told on thousands of days, thousands of quotes
    after a clause chain, of a scene of two, after a pronoun's beat, thousands of sightings imagined, seasons said
    beside thousands of names of a season, elders called someone's parent; hundreds of contract lines of a thing used
    for an act given up, a contract line of thousands of places each asked after; a 世界观 of thousands of one-place
    lists (with and without a clause's end), one sentence of thousands of family homes, and places of hundreds of
    lengths, as :func:`sixth_look`."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8")
    world = (CORPUS / "书" / L.世界观).read_text(encoding="utf-8")
    places = [x[:2] + "城" for x in held(n // 15)]
    rostered = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in places)}
    seasons = {f"{L.角色}/{p}.md": f"---\n姓名: {p}\n状态: 在世\n位置: 仁济医院\n最后变更章: 0\n---\n## 设定\n医生。\n"
               for p in ("秋" + t[:2] for t in held(n // 30))}
    long_places = ["甲" * k + "城" for k in range(1, 300)]
    return {
        "eighteenth_vocatives": ({}, HEAD + fill("“许主治，快来。”“宋主任！”", n)),
        "eighteenth_going_days": ({}, HEAD + fill("去年十月十九日夜里，陈伯就是在手术台上走的，", n)),
        "eighteenth_chain_quotes": ({}, HEAD + fill("宋一鸣走到许砚身边，拍了拍许砚的肩，压低声音说：“走吧。”", n)),
        "eighteenth_two_quotes": ({}, HEAD + fill("“好。”", n)),
        "eighteenth_two_given_name": ({}, HEAD + fill("“好。”知夏想了想，问：“好吗？”", n)),
        "eighteenth_pronoun_beats": ({}, HEAD + fill("“好。”他压低了声音，", n)),
        "eighteenth_unseen_sightings": ({}, HEAD + fill("林知夏恍惚看见陈伯站在急诊科门口，", n)),
        "eighteenth_season_names": (seasons, HEAD + fill("今天是秋天。", n)),
        "eighteenth_elders": ({f"{L.角色}/许砚.md": card}, HEAD + fill("小军的爹许叔，", n)),
        "eighteenth_acts_given_up": ({}, HEAD + fill("许砚掏出旧怀表。算了，不掐了。", n),
                                     [f"许砚用旧怀表给陈伯掐时辰{i}" for i in range(n // 120)]),
        "eighteenth_asked_places": (rostered, HEAD + fill("许砚说到城里要几个钟头。", n),
                                    ["林知夏说她问过许砚" + "".join(f"到{p}要几个钟头，" for p in places)]),
        "eighteenth_world_lists": ({L.世界观: world + "\n" + fill("仁济医院和急诊科算一处地方\n", n)}, HEAD + fill(PROSE, n)),
        "eighteenth_world_list_words": ({L.世界观: world + "\n仁济医院和急诊科" + fill("算一处", n)}, HEAD + fill(PROSE, n)),
        "eighteenth_world_homes": ({L.世界观: world + "\n" + fill("滨江市老家，", n)}, HEAD + fill(PROSE, n)),
        "eighteenth_world_long_places": ({L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 地点 | 1 |\n" for p in long_places),
                                          L.世界观: world + "\n" + fill("甲", n) + "在北边。\n"}, HEAD + fill(PROSE, n)),
    }


def nineteenth_look(n: int) -> dict[str, tuple[dict[str, str], str] | tuple[dict[str, str], str, list[str]]]:
    """Books and drafts built against stop 58's readers (the nineteenth look): a card barring thousands of acts of a
    trade, a thousand cards each barring a few (their names absent, or fifty of them named before the acts), hands that
    cannot hold, a step at a time, a remembered day mid-paragraph, dated days restated, comers before the day word, new
    pages, visits told by their purpose, one-character relations (and a card of thousands of them), a 名册 of thousands
    of names a longer noun begins (and of dictionary words a noun of a head begins), letters read out paragraph by
    paragraph, ranks + 们 and stages reached, numbered things and runs of them, work sites, dishes, villages, stations and
    counties, as :func:`sixth_look`."""
    card = (CORPUS / "书" / L.角色 / "许砚.md").read_text(encoding="utf-8").replace("状态: 在世", "状态: 重伤")
    barred = card + "\n" + "".join(f"上不得{t}，拉不得{t[:2]}。" for t in held(n // 12)) + "\n"
    hurt = {f"{L.角色}/许砚.md": card + "\n右手握不住东西，站不起来，上不得船，拉不得纤。\n"}
    names = [x[:2] + "娘" for x in held(n // 15)]
    rostered = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 人物 | 1 |\n" for p in names)}
    coined = "".join(chr(0x4E00 + (i * 7919) % 20000) + chr(0x4E00 + (i * 31) % 20000) for i in range(n // 6))
    heads = sorted({w[:2] for w in lexicon().freq if len(w) == 3 and w[-1] in LONGER_WORD_HEADS})[:n // 15]
    guarded = {L.名册: "# 名册\n\n" + L.ROSTER_HEADER + "".join(f"| {p} |  | 人物 | 1 |\n" for p in heads)}
    hurt_cards = {f"{L.角色}/{p}.md": f"---\n姓名: {p}\n状态: 重伤\n位置: 仁济医院\n最后变更章: 0\n---\n## 设定\n"
                  f"他上不得船，拉不得纤，右手握不住东西，站不起来。\n" for p in ("伤" + t[:2] for t in held(n // 60))}
    kin = {f"{L.角色}/许砚.md": card.replace("状态: 重伤", "状态: 在世") + "\n" + "".join(f"{t[:2]}的姐，{t[:2]}的哥。" for t in held(n // 8)) + "\n"}
    return {
        "nineteenth_hurt_cards": (hurt_cards, HEAD + fill("伤伤伤拽了一把纤绳，摸上船来，他一步一步地挪到门口，", n)),
        "nineteenth_hurt_cards_named": (hurt_cards, HEAD + fill("".join(f"{p[:-3]}拽了一把纤绳，" for p in list(hurt_cards)[:50])
                                                                .replace(f"{L.角色}/", ""), n)),
        "nineteenth_kin_relations": (kin, HEAD + fill("许砚的姐来找他，你姐你哥来看过他。", n)),
        "nineteenth_guard_heads": (guarded, HEAD + fill("".join(f"{p}山，{p}河，{p}路，" for p in heads[-40:]), n)),
        "nineteenth_barred_acts": ({f"{L.角色}/许砚.md": barred}, HEAD + fill("许砚拽了一把纤绳，", n)),
        "nineteenth_barred_prose": (hurt, HEAD + fill("许砚拽了一把纤绳，他背着手，摸上船来，", n)),
        "nineteenth_cannot_hold": (hurt, HEAD + fill("许砚右手握着", n)),
        "nineteenth_step_by_step": (hurt, HEAD + fill("许砚一步一步地挪", n)),
        "nineteenth_day_recalled": ({}, HEAD + fill("陈伯走进来。那天傍晚，", n)),
        "nineteenth_restated_days": ({}, HEAD + fill("陈伯是十月十九日走的，", n)),
        "nineteenth_comer_before_day": ({}, HEAD + fill("检查组大后天就到了，", n)),
        "nineteenth_comer_unbroken": ({}, HEAD + fill("顾衡大后天就到", n)),
        "nineteenth_new_pages": ({}, HEAD + fill("翻到新的一页，在新的一页上写下：\n", n)),
        "nineteenth_visits": ({}, HEAD + fill("顾衡今天来找过你，", n)),
        "nineteenth_kin_one": ({}, HEAD + fill("许砚的姐来找他，你姐你哥", n)),
        "nineteenth_names_guard": (rostered, HEAD + fill("老板娘石头缝" + names[0] + "说", n)),
        "nineteenth_letter": ({}, HEAD + "信上写着：\n" + fill("“好。”\n", n)),
        "nineteenth_letter_runs": ({}, HEAD + fill("她念道：\n“好。”\n“好。”\n", n)),
        "nineteenth_rank_groups": ({}, HEAD + fill("主任们，许砚刚当上主治，", n)),
        "nineteenth_numbered": ({}, HEAD + fill("三号箱", n)),
        "nineteenth_numbered_runs": ({}, HEAD + fill("今天三号到十号归你查，", n)),
        "nineteenth_numbered_unbroken": ({}, HEAD + fill("三号到十号", n)),
        "nineteenth_worksites": ({}, HEAD + fill("进了硐，窑门，下了井，", n), [f"许砚在{t[:2]}硐" for t in held(n // 120)]),
        "nineteenth_dishes": ({}, HEAD + "".join(coined[i:i + 2] + "汤" for i in range(0, len(coined), 2))),
        "nineteenth_villages": ({}, HEAD + "".join(coined[i:i + 3] + "村，" + coined[i:i + 3] for i in range(0, len(coined), 3))),
        "nineteenth_stations": ({}, HEAD + "".join(coined[i:i + 2] + "航标站，" + coined[i:i + 2] for i in range(0, len(coined), 2))),
        "nineteenth_counties": ({}, HEAD + fill("太平县，永安城，沧州城，沧州，", n)),
    }


def book(work: Path):  # type: ignore[no-untyped-def]
    root = work / "书"
    _base_book(CORPUS, work, [])
    repo = StoryRepo(root)
    gaps = {f"{L.信息差}/S-001-真凶.md": SECRET.replace("大长老", "顾衡").replace("灭门", "手术").replace("血书", "病历"),
            f"{L.信息差}/S-002-怀表.md": KNOWN.replace("林晚", "许砚").replace("青霜剑", "旧怀表")}
    for rel, text in gaps.items():
        repo.p(rel).write_bytes(text.encode("utf-8"))
    lw = _Book(root)
    lw("fix", "-m", "fix(设定): 两个信息差")
    _freeze(lw, ["P-001 推进：陈守礼的死因", "顾衡出场"])
    return StoryRepo(root)


def checker(repo) -> Callable[[str], float]:  # type: ignore[no-untyped-def]
    def run(text: str, contract: list[str] | None = None, with_load: bool = False) -> float:
        """Seconds of the check of ``text`` (with the context's load when ``with_load``); a draft refused is
        timed to its refusal."""
        repo.p(L.draft_file("A")).write_text(text[:DRAFT_MAX_CHARS], encoding="utf-8")
        loading = time.perf_counter()
        state, ctx = load_state(repo), CheckContext.load(repo)
        if contract is not None:
            state["合同"] = contract
        start = loading if with_load else time.perf_counter()
        try:
            check(repo, state, read_draft(repo, "A"), ctx)
        except LwError:
            pass
        return time.perf_counter() - start
    return run


def load(world: Path, text: str) -> float:
    """Seconds to load the checks' context (where 世界观 is read) with ``text`` as 世界观."""
    world.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    CheckContext.load(StoryRepo(world.parents[2]))
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cases", nargs="*", help="only the cases whose name contains one of these")
    ap.add_argument("--keep", type=Path, help="build the book here and keep it")
    args = ap.parse_args()

    work = args.keep or Path(tempfile.mkdtemp(prefix="lw-hostile-"))
    try:
        repo = book(work)
        run = checker(repo)
        cap = DRAFT_MAX_CHARS - len(HEAD) - 8
        run(HEAD + PROSE * 3)  # the lexicon and the book's cards, loaded once
        prose = run(HEAD + fill(PROSE, cap))
        print(f"ordinary prose at the cap ({cap} characters): {prose:.2f} s (the baseline)")
        print(f"{'case':24s} {'1/4 cap':>8s} {'cap':>8s} {'growth':>7s} {'vs prose':>9s}")
        worst = 0.0
        world = repo.p(L.世界观)
        kept = world.read_bytes() if world.is_file() else None
        for name, text in (() if args.cases and not any("wv_" in c for c in args.cases) else worlds(cap // 4).items()):
            a = load(world, text)
            b = load(world, worlds(cap)[name])
            worst = max(worst, b)
            print(f"{name:24s} {a:7.2f}s {b:7.2f}s {b / max(a, 1e-9):6.1f}× {b / max(prose, 1e-9):8.1f}×", flush=True)
        if kept is not None:
            world.write_bytes(kept)
        for make in (new_rules, contracts, bodies, front_matters):
            quarter, full = make(cap // 4), make(cap)
            for name in quarter:
                if args.cases and not any(c in name for c in args.cases):
                    continue
                q, f = quarter[name], full[name]
                a, b = (run(q), run(f)) if isinstance(q, str) else (run(q[1], q[0]), run(f[1], f[0]))
                worst = max(worst, b)
                print(f"{name:24s} {a:7.2f}s {b:7.2f}s {b / max(a, 1e-9):6.1f}× {b / max(prose, 1e-9):8.1f}×", flush=True)
        quarter_books = {**shelves(cap // 4), **sixth_look(cap // 4), **seventh_look(cap // 4), **eighth_look(cap // 4),
                         **ninth_look(cap // 4), **tenth_look(cap // 4),
                         **eleventh_look(cap // 4), **twelfth_look(cap // 4), **thirteenth_look(cap // 4),
                         **fourteenth_look(cap // 4), **fifteenth_look(cap // 4), **sixteenth_look(cap // 4),
                         **seventeenth_look(cap // 4), **eighteenth_look(cap // 4), **nineteenth_look(cap // 4)}
        cap_books = {**shelves(cap), **sixth_look(cap), **seventh_look(cap), **eighth_look(cap), **ninth_look(cap), **tenth_look(cap), **eleventh_look(cap),
                     **twelfth_look(cap), **thirteenth_look(cap), **fourteenth_look(cap),
                     **fifteenth_look(cap), **sixteenth_look(cap), **seventeenth_look(cap),
                     **eighteenth_look(cap), **nineteenth_look(cap)}
        for name in quarter_books:
            if args.cases and not any(c in name for c in args.cases):
                continue
            times = []
            for files, text, *contract in (quarter_books[name], cap_books[name]):
                kept_files = {rel: repo.p(rel).read_bytes() if repo.p(rel).is_file() else None for rel in files}
                for rel, body in files.items():
                    repo.p(rel).write_text(body, encoding="utf-8")
                times.append(run(text, contract[0] if contract else None, with_load=True))
                for rel, old in kept_files.items():
                    repo.p(rel).write_bytes(old) if old is not None else repo.p(rel).unlink()
            a, b = times
            worst = max(worst, b)
            print(f"{name:24s} {a:7.2f}s {b:7.2f}s {b / max(a, 1e-9):6.1f}× {b / max(prose, 1e-9):8.1f}×", flush=True)
        print(f"slowest at the cap: {worst:.2f} s")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
