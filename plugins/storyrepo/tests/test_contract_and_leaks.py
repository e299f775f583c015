"""The contract check trusts a good draft and catches a bad one; leaks follow who really speaks.

Contract (issue 30): names matched through aliases and address forms (你娘/娘亲 for 云娘, 陈叔 for
陈伯远), punctuation inside a name (寒……潭……), aliases the same draft declares, a thing named by
its description (令牌 with a “玄”字), a promise's move read from the contract's own words (揭开 asks
for no 兑付), and a frozen contract the author amends with a reason (``lw story amend``).

Leaks: speakers whose card the same chapter creates, a quote alone in its paragraph attributed
by the turn-taking around it (among the draft's 在场), a beat led by a person around a quote, a
thought after 他/她's clause ending in a colon, and one keyword of a gap that names nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.checks import (ERROR, WARN, CheckContext, check_draft, contract_findings, contract_moves, denials_of, dwellers_of,
                                 first_person, keepers_of, leak_and_waste, relatives, voices)
from lw_storyrepo.checkscore import score
from lw_storyrepo.cli import story
from lw_storyrepo.drafts import Draft
from lw_storyrepo.kinship import address_book, gender_of, kin_forms, relations
from lw_storyrepo.names import address_forms, described, present
from lw_storyrepo.samples import DRAFT, to_reviewed

from story_cli import lw


def ctx_of(aliases: dict[str, str], items: set[str] | None = None,
           secrets: list[tuple[str, set[str], bool, list[str]]] | None = None) -> CheckContext:
    return CheckContext(aliases, secrets or [], [], [], 0, set(aliases), items or set())


def errors(contract: list[str], body: str, meta: dict | None = None, ctx: CheckContext | None = None) -> list[str]:
    ctx = (ctx or ctx_of({"云娘": "云娘", "陈伯远": "陈伯远", "林晚": "林晚", "晚晚": "林晚", "寒潭": "寒潭"},
                         {"玄阶令牌"})).for_draft(meta or {})
    draft = Draft("A", meta or {}, body, 5)
    return [f.message for f in contract_findings({"合同": contract}, draft, ctx) if f.severity == ERROR]


# --- good drafts the old check refused ------------------------------------------------------------------


@pytest.mark.parametrize("contract, body", [
    (["云娘病重"], "“你娘的病，怕是熬不过这个冬天了。”"),
    (["云娘病重"], "她守在娘亲床前，一夜没合眼。"),
    (["陈伯远出手"], "陈叔一掌拍在桌上。"),
    (["陈伯远出手"], "老陈一掌拍在桌上。"),
    (["林晚得到血书"], "晚晚接过血书。"),
    (["林晚得到血书"], "阿晚接过血书。"),
    (["她坠入寒潭"], "“寒……潭……”她念着，脚下一空。"),
    (["玄阶令牌现世"], "石缝里露出一块令牌，上面刻着一个“玄”字。"),
    (["玄阶令牌现世"], "他摸到一块玄字令牌。"),
    (["林晚揭开 P-001 的一角"], "林晚看着血书。"),  # 揭开 names no move: any move of P-001 will do
    (["推进或兑付 P-001（期限第 12 章）"], "林晚看着血书。"),
])
def test_good_drafts_pass_the_contract(contract: list[str], body: str) -> None:
    meta = {"推进承诺": ["P-001"]}
    assert errors(contract, body, meta) == []


def test_an_alias_the_draft_itself_declares_counts() -> None:
    meta = {"推进承诺": ["P-001"], "设定变更": ["林晚.别名+小师妹"]}
    assert errors(["林晚得到血书"], "小师妹接过血书。", meta) == []
    assert errors(["林晚得到血书"], "小师妹接过血书。", {"推进承诺": ["P-001"]}) != []


# --- bad drafts it still catches ---------------------------------------------------------------------------


@pytest.mark.parametrize("contract, body, meta, expected", [
    (["云娘病重"], "她守在床前。", {"推进承诺": ["P-001"]}, "提到「云娘」，正文里没有"),
    (["玄阶令牌现世"], "石缝里露出一块玉佩。", {"推进承诺": ["P-001"]}, "提到「玄阶令牌」，正文里没有"),
    (["玄阶令牌现世"], "他拔出一柄刻着“玄”字的剑。", {"推进承诺": ["P-001"]}, "提到「玄阶令牌」，正文里没有"),
    (["P-001 兑付：真凶伏诛"], "林晚看着血书。", {"推进承诺": ["P-001"]}, "要求 P-001 出现在草稿的兑付承诺里"),
    (["P-002 开启：来客身份"], "林晚看着血书。", {"推进承诺": ["P-001"]}, "要求 P-002 出现在草稿的开启承诺里"),
    (["推进或兑付 P-002"], "林晚看着血书。", {"推进承诺": ["P-001"]}, "要求 P-002 出现在草稿的推进承诺或兑付承诺里"),
    (["开新承诺：来客身份"], "林晚看着血书。", {"推进承诺": ["P-001"]}, "要开新承诺，但草稿的开启承诺是空的"),
])
def test_bad_drafts_still_fail_the_contract(contract: list[str], body: str, meta: dict, expected: str) -> None:
    found = errors(contract, body, meta)
    assert any(expected in e for e in found), found


@pytest.mark.parametrize("line, pid, moves", [
    ("P-031 推进：林晚取得实证", "P-031", {"推进承诺"}),
    ("P-058 开启：神秘老者来历", "P-058", {"开启承诺"}),
    ("林晚揭开 P-031 的真相", "P-031", set()),
    ("推进 P-031（节奏债：12 章未推进）", "P-031", {"推进承诺"}),
    ("推进或兑付 P-002（期限第 12 章）", "P-002", {"推进承诺", "兑付承诺"}),
    ("P-001 推进，P-002 兑付", "P-002", {"兑付承诺"}),
    ("弃置 P-044：改走暗线", "P-044", {"弃置承诺"}),
    ("埋下 P-070 的伏笔", "P-070", set()),
])
def test_a_promise_move_is_read_from_the_contract_clause(line: str, pid: str, moves: set[str]) -> None:
    assert contract_moves(line, pid) == moves


def test_address_forms_and_spaced_and_described_names() -> None:
    assert {"娘亲", "你娘", "阿娘"} <= address_forms("云娘")
    assert {"陈叔", "老陈", "陈兄", "陈师兄"} <= address_forms("陈伯远")
    assert {"晚晚", "阿晚", "小晚"} <= address_forms("林晚")
    assert present("寒潭", "寒……潭") and present("寒潭", "寒 潭") and not present("寒潭", "寒风吹过潭水")
    assert described("玄阶令牌", "一块刻着“玄”字的令牌。", ("令牌",))
    assert not described("玄阶令牌", "一块令牌。上面刻着“玄”字。", ("令牌",))  # not in one sentence


def test_the_issue_good_drafts_pass_through_lw_story(book) -> None:
    """The whole check (contract, settle's dry run) on a good draft with every bent name."""
    draft = DRAFT.replace("她握紧了玄阶令牌。", "她握紧了那块刻着“玄”字的令牌。").replace("晚晚道", "阿晚道")
    to_reviewed(book, draft, contract=["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历", "玄阶令牌现世", "林晚揭开血书"])
    assert "已结转" in CliRunner().invoke(story, ["--locale", "zh", "accept", "-C", str(book.root)]).output


# --- amending the frozen contract -------------------------------------------------------------------------------


def review_and_accept(book) -> None:
    """The three lens reviews, the summary and accept, from a checked draft A."""
    for lens in ("读者", "编辑", "事实"):
        (book.root.parent / "r.md").write_text(f"{lens}：可以。", encoding="utf-8")
        lw(book, "review", lens, str(book.root.parent / "r.md"))
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    assert "已结转" in lw(book, "accept")


def test_the_author_amends_the_frozen_contract_with_a_reason(book) -> None:
    to_reviewed(book)  # contract: P-001 推进, P-003 开启, 结尾强钩
    assert "改合同必须写原因" in lw(book, "amend", "--原因", " ", "--合同", "x", ok=False)
    lw(book, "amend", "--原因", "旧约提前了结", "--合同", "P-001 推进：林晚得到血书", "--合同", "P-002 兑付：旧约了结")
    out = lw(book)  # the drafts are checked again against the new contract
    assert "打回：A" in out and "草稿 A 没过机检" in out
    assert "要求 P-002 出现在草稿的兑付承诺里" in book.p(L.check_report("A")).read_text(encoding="utf-8")
    out = lw(book, "amend", "--原因", "旧约改到下一章", "--合同", "P-001 推进：林晚得到血书", "--合同", "P-003 开启：神秘老者来历")
    assert "合同已修订" in out
    assert "已机检（过：A；打回：无）" in lw(book)
    lw(book)
    review_and_accept(book)
    meta, _ = book.chapter(1)
    assert meta["合同"] == ["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历"]
    assert [r.split("（")[0] for r in meta["合同修订"]] == ["旧约提前了结", "旧约改到下一章"]
    assert "原：P-001 推进：林晚得到血书｜P-003 开启：神秘老者来历｜结尾强钩 → 新：" in meta["合同修订"][0]
    assert "合同修订: 旧约提前了结\n合同修订: 旧约改到下一章\n" in book.git.out("log", "-1", "--format=%B")


def test_amend_needs_a_frozen_contract(book) -> None:
    lw(book)  # brief: nothing frozen yet
    assert "不能做这一步" in lw(book, "amend", "--原因", "x", "--合同", "y", ok=False)


def test_an_amendments_reason_is_one_visible_line_of_the_commit(book) -> None:
    """A reason is a line of the commit message: its new lines cannot forge another trailer, no
    control or bidi character reaches git or the terminal raw, and a reason past 500 characters is
    refused with the count (nothing is amended)."""
    to_reviewed(book)
    out = lw(book, "amend", "--原因", "x" * 501, "--合同", "P-001 推进：林晚得到血书", ok=False)
    assert "改合同的原因太长：501 字，最多 500 字" in out
    assert "合同修订" not in book.p(L.事务).read_text(encoding="utf-8")
    lw(book, "amend", "--原因", "旧约改到下一章\n打回: 伪造\x1b[2J\u202e",
       "--合同", "P-001 推进：林晚得到血书", "--合同", "P-003 开启：神秘老者来历")
    lw(book)
    lw(book)
    review_and_accept(book)
    message = book.git.out("log", "-1", "--format=%B")
    assert "合同修订: 旧约改到下一章 打回: 伪造\\u001b[2J\\u202e\n" in message
    assert not any(line.startswith("打回") for line in message.splitlines())
    assert "\x1b" not in message and "\u202e" not in message


# --- leaks --------------------------------------------------------------------------------------------------------


SECRET = ("S-001", {"大长老"}, False, ["灭门", "血书"])


def leaks(text: str, aliases: dict[str, str], meta: dict | None = None) -> set[tuple[str | None, str]]:
    ctx = ctx_of(aliases, secrets=[SECRET]).for_draft(meta or {})
    return {(f.message.split(" ")[0], f.kind) for f in leak_and_waste(ctx, text.split("\n"), 1, {}, set(), "大长老")
            if f.kind == "泄密"}


def test_a_speaker_whose_card_the_chapter_creates_can_leak() -> None:
    text = "萧无涯冷笑道：“灭门的血书，我早就看过了。”"
    aliases = {"林晚": "林晚", "大长老": "大长老"}
    assert leaks(text, aliases, {"设定变更": ["萧无涯.位置=北境"]}) == {("萧无涯", "泄密")}
    assert leaks(text, aliases, {"在场": ["萧无涯"]}) == {("萧无涯", "泄密")}


def test_a_lone_quote_is_attributed_by_turn_taking() -> None:
    aliases = {"林晚": "林晚", "大长老": "大长老"}
    text = "\n".join([
        "林晚看着大长老。",  # the beat: 林晚 speaks first
        "“你来了。”",
        "“嗯。”",  # the other party: 大长老 (a knower)
        "“灭门的血书，是你写的吗？”",  # back to 林晚: a leak
    ])
    assert leaks(text, aliases) == {("林晚", "泄密")}
    # the same lines with the roles swapped: 大长老 opens; the leaking line falls to him, a knower
    swapped = text.replace("林晚看着大长老。", "大长老看着林晚。")
    assert leaks(swapped, aliases) == set()


def test_the_check_of_a_draft_knows_the_chapters_new_speakers(book) -> None:
    draft = Draft("A", {"设定变更": ["萧无涯.位置=北境"], "推进承诺": ["P-001"]},
                  "萧无涯道：“灭门的血书，在我手里。”\n", 5)
    found = [f for f in check_draft(book, draft) if f.kind == "泄密"]
    assert found and found[0].message.startswith("萧无涯 不是 S-001 的知情人")


# --- what the labelled drafts taught (issue 30) -------------------------------------------------------------


def test_kinship_forms_come_from_the_relations_a_card_states() -> None:
    card = "---\n姓名: 顾远山\n状态: 已故\n---\n## 设定\n顾长安之父，十年前死于断魂崖。\n"
    assert {"父亲", "我爹", "爹爹"} <= kin_forms(card)
    assert {"导师", "老师"} <= kin_forms("## 设定\n艾琳的导师。")
    assert kin_forms("## 设定\n黑水寨寨主。") == frozenset()
    ctx = ctx_of({"顾远山": "顾远山", "顾长安": "顾长安"})
    ctx.kin = {"顾远山": kin_forms(card)}
    draft = Draft("A", {"推进承诺": ["P-001"]}, "“当年我爹，就是死在这种掌法下的。”", 5)
    assert [f for f in contract_findings({"合同": ["顾远山之死"]}, draft, ctx) if f.severity == ERROR] == []
    assert gender_of("## 设定\n顾长安的师姐，厉无咎的女儿。", {"顾长安", "厉无咎"}) == "她"
    assert gender_of("## 设定\n顾远山之子。", {"顾远山"}) == "他"
    assert gender_of("## 设定\n毒杀梅娘的主使。", {"梅娘"}) == ""
    # a quoted form of address says nothing of the card's own gender: 阿福 calls 顾小满 “师姐”
    assert gender_of("## 设定\n泥房的学徒，他是个弃儿。\n\n## 关系\n叫顾小满“师姐”。", {"顾小满"}) == "他"


def test_a_thing_shown_by_its_looks_meets_the_contract() -> None:
    ctx = ctx_of({"陆沉舟": "陆沉舟"}, {"龙纹玉佩"})
    ok = Draft("A", {"推进承诺": ["P-001"]}, "他腰间挂着一块玉佩，玉佩上盘着一条龙。", 5)
    bad = Draft("A", {"推进承诺": ["P-001"]}, "他腰间挂着一块玉佩。墙上画着一条龙。", 5)
    assert [f for f in contract_findings({"合同": ["龙纹玉佩现世"]}, ok, ctx) if f.severity == ERROR] == []
    assert [f for f in contract_findings({"合同": ["龙纹玉佩现世"]}, bad, ctx) if f.severity == ERROR]  # 一块玉佩: any pendant
    # the pendant again, with no dragon, may still be the one: asked (a warning), not sent back (issue 30)
    again = Draft("A", {"推进承诺": ["P-001"]}, "他摘下腰间的玉佩。墙上画着一条龙。", 5)
    assert [f.severity for f in contract_findings({"合同": ["龙纹玉佩现世"]}, again, ctx) if "龙纹玉佩" in f.message] == [WARN]
    none = Draft("A", {"推进承诺": ["P-001"]}, "他腰间挂着一把刀。墙上画着一条龙。", 5)
    assert [f.severity for f in contract_findings({"合同": ["龙纹玉佩现世"]}, none, ctx) if "龙纹玉佩" in f.message] == [ERROR]


def test_who_speaks_places_never_do_and_colons_name_the_speaker() -> None:
    ctx = ctx_of({"林晚": "林晚", "大长老": "大长老", "落雁城": "落雁城"}, secrets=[SECRET])
    ctx.people = {"林晚", "大长老"}
    said = lambda text: [(v.speaker, v.words) for v in voices(ctx, text.split("\n")) if v.speaker]
    assert said("落雁城下了一夜的雨。\n“灭门的血书。”") == []  # a place opens the paragraph: nobody known speaks
    assert said("林晚压低了声音：“灭门的血书。”") == [("林晚", "灭门的血书。")]
    assert said("林晚看着他。大长老点点头，对林晚说：“走吧。”") == [("大长老", "走吧。")]
    assert said("林晚越想越不对劲：血书是假的。") == [("林晚", "血书是假的。")]
    assert said("林晚不知道，灭门的血书是假的。") == []  # what she does not know is the narration's
    assert said("林晚坐下。\n老汉点点头：“灭门的血书。”") == []  # an unnamed speaker
    assert said("一锭银子落在桌上，大长老睁开了眼。\n“血书？”他凑过来，“灭门那夜的。”") == [
        ("大长老", "血书？"), ("大长老", "灭门那夜的。")]


def test_a_gap_denied_in_other_words_is_a_leak() -> None:
    """An info gap whose 内容 denies the public account (窑火不是自己灭的) is given away by anyone
    not in the know who denies the same thing of the same subject without a keyword — in a quote, a
    letter or the narration of a point of view that does not know it; the same words of another
    subject, or another act, are not."""
    assert denials_of("那夜，窑火不是自己灭的：是周铁山泼水熄窑。") == [("火", frozenset("灭"))]
    assert denials_of("隔离门不是自动落下的：是韩枢手动落门。") == [("门", frozenset("落"))]
    secret = ("S-001", {"周铁山"}, False, ["泼水", "熄窑"])
    ctx = ctx_of({"阿福": "阿福", "周铁山": "周铁山", "顾小满": "顾小满"}, secrets=[secret])
    ctx.denials = {"S-001": denials_of("窑火不是自己灭的：是周铁山泼水熄窑。")}
    leaks = lambda text, pov=None: [f.message for f in leak_and_waste(ctx, text.split("\n"), 1, pov=pov)]
    assert leaks("阿福道：“那座窑，火根本不是自己灭的。”") == [
        "阿福 不是 S-001 的知情人，却换了说法说出了它（那座窑，火根本不是自己灭的。）"]
    assert leaks("周铁山道：“火不是自己灭的。”") == []  # he knows
    assert leaks("那一夜，窑火不是自己灭的。", pov="顾小满")[0].startswith("叙述（视角 顾小满 不是知情人）换了说法")
    assert leaks("阿福道：“今晚的窑火不是周叔看的，是我看的。”") == []  # another act
    assert leaks("阿福道：“这只碗不是自己碎的。”") == []  # another subject, another act


def test_a_promise_the_contract_never_asked_for_and_places_and_things_by_kind() -> None:
    """A promise the draft opens that no contract line names is a warning (none when a line asks
    to open one); a place of the contract is there with someone whose card puts them there; a thing
    is named by its kind after a demonstrative and a measure word (那枚芯片)."""
    ctx = ctx_of({"林晚": "林晚", "莫七": "莫七", "货舱": "货舱"}, {"星图芯片"})
    ctx.dwellers = dwellers_of({"莫七": {"位置": "货舱"}, "林晚": {"位置": "青云宗"}})
    warned = lambda contract, meta: [f.message for f in contract_findings({"合同": contract}, Draft("A", meta, "林晚醒了。", 5), ctx)
                                     if f.severity == WARN]
    opens = {"推进承诺": ["P-001"], "开启承诺": ["P-003"]}
    assert warned(["P-001 推进：林晚醒了"], opens) == ["草稿开启了合同没有提到的承诺 P-003；要开就先修改合同"]
    assert warned(["P-001 推进：林晚醒了", "开启一条新伏笔"], opens) == []
    assert warned(["P-001 推进：林晚醒了", "P-003 开启：林晚的梦"], opens) == []
    meta = {"推进承诺": ["P-001"]}
    assert errors(["P-001 推进：林晚下货舱"], "莫七翻身坐起来：“丫头？”林晚点点头。", meta, ctx) == []
    assert errors(["P-001 推进：林晚下货舱"], "林晚点点头。", meta, ctx) == [
        "合同「P-001 推进：林晚下货舱」提到「货舱」，正文里没有（P-001 这一步也就没有写到）"]
    moved = {**meta, "设定变更": ["莫七.位置=青云宗"]}
    assert errors(["P-001 推进：林晚下货舱"], "莫七翻身坐起来。林晚点点头。", moved, ctx) != []  # he is gone from there
    assert errors(["林晚带着星图芯片"], "林晚揣着母亲留下的那枚芯片。", meta, ctx) == []
    assert errors(["林晚带着星图芯片"], "林晚说芯片坏了。", meta, ctx) == []  # the kind alone, any chip: asked, not refused
    assert [f.severity for f in contract_findings({"合同": ["林晚带着星图芯片"]}, Draft("A", meta, "林晚说芯片坏了。", 5), ctx)
            if "星图芯片" in f.message] == [WARN]
    assert errors(["林晚带着星图芯片"], "林晚捡到一枚芯片。", meta, ctx) != []  # a chip, not the one


FIVE = {"连贯": 5, "合同": 5, "泄密": 5}


@pytest.mark.parametrize("folder, planted, missed, false_alarms", [
    ("连续性-开发", FIVE, [], 0),
    ("连续性-评估", FIVE, [], 0),
    ("连续性-评估二", FIVE, [], 0),  # 莉莉安 shown only by her ribbon: met by the ribbon since the sixteenth round
    ("连续性-评估三", FIVE, [], 0),
    ("连续性-评估四", FIVE, [], 1),  # 青鳞剑 called 那么好的剑 in a quote
    # written by someone who never read the checks; its first, blind run: 3/5, 5/5, 0/5 and 4
    # false alarms. Tuned on since (its README), so a development set now.
    ("连续性-盲评", FIVE, [], 0),
    ("连续性-开发二", {"连贯": 4, "合同": 2, "泄密": 7}, [], 0),  # first run: 1 false alarm (a video call)
    # written by someone who never read the checks; its first, blind run: 4/5, 4/5, 6/10 and 10
    # false alarms (one on 第1章). Tuned on since (its README), so a development set now.
    ("连续性-盲评二", {"连贯": 5, "合同": 5, "泄密": 10}, [], 0),
    # first run: 2/3, 4/4, 2/4, 1 false alarm; the false alarm left is the draft's slip (its prose
    # never names 龙窑) — 1 -> 0: C1's round (stop 58: 窑门 of the kiln the scene opens, a work site by its kind alone)
    ("连续性-开发三", {"连贯": 3, "合同": 4, "泄密": 4}, [], 0),
    # a Tang court case written blind; first runs 2/5, 4/5, 0/10 and 14 (stop 36), 2/5, 4/5, 2/10 and
    # 18 (stop 37's first round); tuned on since. Missed: two paraphrases of a secret with none of its
    # keywords. The third round left one false alarm (洛阳 called 东都); merged with the second round's
    # rules (a place of the contract is there with someone whose card puts them there) it is gone.
    ("连续性-盲评三", {"连贯": 5, "合同": 5, "泄密": 10}, [("泄密-换说.md", "崔令仪"), ("泄密-两句.md", "崔令仪")], 0),
    # two drafts a class for the rules added on 连续性-盲评三 (its README: first run 5/6, 2/2, 7/8, 4);
    # its false alarm is a true finding of the writer's slip (a saber never handed over), labels left as
    # committed; the other slip (a move never told) is the point of view's, whose place the narration follows
    ("连续性-开发四", {"连贯": 6, "合同": 2, "泄密": 8}, [], 1),
    # contract lines met in other words (issue 30; its README: first run 4/5 and 6 contract false alarms,
    # 4 of 6 good drafts sent back). Left: a continuity finding (第1章's box; the 老师傅 taken for the 师父
    # went with the eighth round), and two warnings that ask (a passenger never named; a watch handed over,
    # never recorded)
    ("连续性-开发六", {"合同": 5}, [], 2),  # 3 -> 2: the sixteenth round (钱卫东 named only as the owner of his case)
    # a 1994 华强北 electronics stall, written blind, contract-heavy; first run (main) 8/15, 10 false
    # alarms, 4 of 10 good drafts sent back; tuned on since. Missed: a place the prose names but the scene
    # never reaches (罗湖口岸 in a porter's words, 深南大道 in a newspaper photo). Left: two continuity
    # findings and four warnings that ask (a key and a warehouse by their looks, a pager by its brand);
    # with the fourth continuity round merged, one continuity finding is gone
    # the fifteenth round: the dead's words written down before (是阿爸写的：…) are no voice (one continuity finding gone)
    ("连续性-盲评七", {"合同": 15}, [("合同-地点-1.md", "罗湖口岸"), ("合同-地点-3.md", "深南大道")], 3),  # 5 -> 3: 仓库里 (the sixteenth round) and the fifteenth round's voice
    # stop 38's fourth round (issue 30), by class: a hospital, three drafts a field in forms no set used
    # (first run 0/15, no false alarm), and a 1983 steel town written blind (first, blind run 1/20 and 1
    # false alarm; tuned on since). Missed: a seal shown only by its engraving, never named.
    ("连续性-开发五", {"连贯": 15}, [], 0),
    ("连续性-盲评五", {"连贯": 20}, [("连贯-持有-3.md", "持有")], 0),
    # a late-Qing opera troupe written blind, continuity only; first blind runs 5/20 and 19 false alarms
    # (stop 37), 9/20 and 21 (stop 38); tuned on since (the fifth continuity round), so a development set
    # now, and of the contract round that read its forms of address (叫母亲“娘”), shorter names of held things
    # (那件蟒袍) and shops told through their keepers. Left: two contract warnings that ask (a pawnshop named
    # only through its keeper, a play known by a sung line)
    ("连续性-盲评六", {"连贯": 20}, [], 2),
    # a 2016 上海 esports club written blind: first blind run at stop 39 5/15, 4/5, 4/5, 30 false alarms
    # (25 连贯), 1/6 good drafts sent back; tuned on since (calls that go on, 住院/禁赛 states, registers,
    # a season said now, the point of view's quoted forms of address in the continuity check). Missed: an
    # address form giving a higher rank (陆队), a journey too fast to be true, a hospital reached by phone
    # only. False alarms left: four contract findings (the contract check's).
    ("连续性-盲评八", {"连贯": 15, "合同": 5, "泄密": 5},
     [], 3),  # 境界-3: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks); the twelfth round: the road timed to the hour, a visit met only by phone; 4 -> 3: the sixteenth (上海点心)
    # a xianxia sect written blind: first blind run at stop 39 5/15, 3/5, 5/5, 9 false alarms (7 连贯, 2 合同)
    # → 8/15 with stop 39's rounds; tuned on since (the sixth continuity round: calls by a jade talisman,
    # seclusion, a crippled cultivator's sword light, a sword by its looks, far places, a later day told as
    # past; 把 no measure word, a post from the card's text, 黑水 for 黑水秘境). The event of the contract
    # that never happens (a task handed over, never written) is a warning since the contract's seventh
    # round (a handed-over thing no name, none of its telling words in the prose). No false alarm left.
    ("连续性-盲评九", {"连贯": 15, "合同": 5, "泄密": 5}, [], 0),
    # a post-apocalyptic survivors' base written blind: first blind run at stop 40 7/15, 4/5, 2/5, 13 false
    # alarms, 2/6 good drafts sent back; 8/15 … 14 with the sixth round; tuned on since (the seventh round:
    # the dead in a habit or in what they had long known, a glass visit that goes on, a radio, a gang's name
    # no public text says, a question after a wordless turn, a place by its kind alone, a card's 林婉是周岩的妻子，
    # 他叫“嫂子” read for 林婉, a ladder of letter grades, a grade said higher than the card but not as a title,
    # the power of the powerless seen at work, 她 carried from the sentence before, 自打<a later day>以后) →
    # 13/15, 4/5, 5/5, 2 false alarms, no good draft sent back. Missed: a blade by its owner's alias, a journey
    # too fast (the event never happening, a place on a list never given, is a warning since the contract's
    # seventh round). False alarms left: two warnings in 连贯-境界-3 (a quarantined man and his ward spoken
    # of by people outside it).
    ("连续性-盲评十", {"连贯": 15, "合同": 5, "泄密": 5},
     [], 0),  # 1 -> 0: F2's round (stop 59: 境界-3's 南城出事那天他被抬回来, a day named by a loss)
    # the eleventh and twelfth rounds; 2 -> 1: P3's round (stop 56: 境界-3's “她昨晚跟我舅舅喝酒…”小唐说 — a
    # pronoun in someone's words is not its speaker)
    # a palace's inner court written blind: first blind run at stop 40 5/15, 3/5, 4/5, 15 false alarms (11 连贯,
    # 3 合同, 1 泄密; 2 of them errors), 1/6 good drafts sent back; unchanged by the sixth and seventh rounds; tuned on
    # since (the eighth round: a memory told by 去年, a walk-on without a card, 瑶华宫西配殿 nesting, a contract person
    # pointed at unnamed, a ladder in any section and one-character ranks, a rank after the person's own title, a
    # mute speaking, 禁足, 今儿是小年, a letter made yesterday far away, placed 今儿一早, a thing worn with its looks
    # between, a rank that names its one holder, a place only meant, years since a dated death) → 14/15, 4/5, 5/5,
    # 2 false alarms (warnings), no good draft sent back. The generic rank reader (ranks.py) then caught the ledger
    # line (景福宫，妃位，韩氏) giving a lower rank → 15/15. The event of the contract that never happens (a
    # punishment: 罚…跪一个时辰) is a warning since the contract's eighth round (an event line's own words, none told:
    # tests/test_contract_eighth_round.py) → 5/5. False alarms left: a quote after reported speech given to the name
    # inside the report, the emperor met only through his decree.
    ("连续性-盲评十一", {"连贯": 15, "合同": 5, "泄密": 5}, [], 2),
    # a 科举 farming family written blind at stop 41: blind runs 6/15, 3/5, 4/5 and 38 → 21 false alarms (20 连贯, one
    # on 第1章; no good draft sent back); tuned on since task C9 (stop 43, the tenth round: a walk of five 里 is no
    # journey, the one a clause speaks to, the dead's days before their death, 账本 of 家账本 …) → 8/15, 3/5, 4/5 and no
    # false alarm. Missed: ranks (a pronoun two paragraphs on, a register line, 相公 for a 童生), held things by an
    # alias and their looks, a letter's too-short road, a shop boy's report of a far place.
    ("连续性-盲评十二", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-3 (陈相公来了 of a 童生; the world: 叫童生“相公”就是叫错了功名) caught: hk1's round (stop 63: a rung's other name the world gives)
     [("连贯-持有-2.md", "持有"), ("连贯-持有-3.md", "持有"), ("合同-5.md", "赵家管家把陈家的老黄牛牵走抵利钱")], 0),  # the eleventh and twelfth rounds; the fifteenth: a shop boy's 少爷 (what 下人 call him); 泄密-2 (马邑) the sixteenth
    # a 2020s internet company written blind at stop 41: blind runs 4/15 → 5/15, 2/5, 4/5 and 13 false alarms (two of
    # them errors); tuned on since task C9 (stop 43, the tenth round: 飞回杭州 is home, a mute's text reply, a quote
    # calling its listener, a weekday after the date, a phone that rings in its own clause, the suspended at a
    # meeting …) → 7/15, 2/5, 4/5 and no false alarm. Missed: ranks by comparison and in dialogue, held things by
    # their looks, the mute on the phone, the suspended entering the room the world says the stand-up is held in
    # (found a paragraph later, where 站会 is said), a colleague at her desk, a countdown to a dated launch.
    ("连续性-盲评十三", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-状态-2.md", "状态"), ("合同-4.md", "保温杯")], 0),  # the eleventh and twelfth rounds; the fifteenth: at her desk while 出不了院; 泄密-3 (厦门) the sixteenth; 合同-5 (回头再说) L2's pool round (stop 50)
    # a 1930s Peking opera troupe written blind at stop 42: blind runs 4/15, 3/5, 3/5 and 9 → 8 false alarms (1 of 6
    # good drafts sent back); tuned on since task C10 (stop 44, the eleventh round: ranks in a register entry with
    # fields, a pronoun compared, a quote's listener; a demotion told by 降; held things by their owner and their
    # card's looks; a pronoun carried through paragraphs naming nobody) → 8/15, 3/5, 3/5 and 7, none sent back;
    # with task C11's twelfth round merged too (stop 44) 11/15, 3/5, 3/5 and 7.
    # Stop 45: task C12's thirteenth round alone 13/15 and 6 (a rank to a listener called by a character of her given
    # name, 秋姐; a box brought out and named after a dash; a guessed voice no longer given to the runaway); task
    # C13's fourteenth round alone 13/15, 5/5, 3/5 and 4 (what a state forbids as the book words it: 倒仓 singing, 禁演
    # backstage; a place only wished for; a card put back in a pocket; a handover to its holder already, a name owning
    # a colon's list, 栓子哥 called in a thought); both merged: the figures below.
    # The fifteenth round: a quote in a paragraph mimicking the dead (学着师父的样子) is no voice of theirs → 3.
    ("连续性-盲评十四", {"连贯": 15, "合同": 5, "泄密": 5},
     [("泄密-2.md", "沈砚秋")],  # 泄密-3 (方月楼) caught: K8's round (stop 59: “秋儿，这件褶子…” opening the untagged
     # exchange in a scene of two is the other's, and the turns go on from it to her 还有大连)
     1),  # 4 -> 1: the sixteenth round (你们班, 园子后门) and the fifteenth's mimicked voice
    # a 1996 成都 restaurant kitchen written blind at stop 43: blind runs 5/15, 3/5, 4/5 and 6 false alarms (2 of 6 good
    # drafts sent back) → 8/15 and 5 (1 of 6) with stop 44's rounds; tuned on since task C12 (stop 45, the thirteenth
    # round: a card naming a thing in two parts, a thing brought out and then said what it is, a gender from the other
    # names a card gives, a listener called by a character of her given name, a thing the sentence's topic held in a
    # hand nobody names) → 13/15, 3/5, 4/5 and 5; task C13's fourteenth round alone (a burned hand's use, the suspended
    # in the kitchen: 状态; a place only wished for, a card put back in a pocket: 合同) → 10/15, 5/5, 4/5 and 1; both
    # merged: 15/15, 5/5, 4/5 and 1; the lead's season reading (春熙路 is no spring) took the last false alarm.
    ("连续性-盲评十五", {"连贯": 15, "合同": 5, "泄密": 5},
     [], 0),  # 泄密-3 (海口 in a list of places) the sixteenth round
    # a 1956 Yangtze river boat written blind at stop 44: blind runs 3/15 → 7/15, 3/5, 4/5 and 4 false alarms (its
    # README); a development set since task C16 (stop 46), tuned on with 连续性-盲评十七; the seventeenth round:
    # 7/15 → 11/15 (位置 3/3: 长途/电报 far places, 碰到; 状态: 不许上 a boat), false alarms unchanged; the eighteenth
    # round (stop 47, tuned on 十八 and 十九): 12/15 (a broken leg climbing the mast: 上不得梯子).
    ("连续性-盲评十六", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-3 (“满江哥，…”…“你都当上大副了”) caught: rk2's round (stop 61: a rise told done before now to the listener is the rank now)
     [("连贯-持有-2.md", "持有"),  # 持有-3 (一把长柄的黑铁钥匙 for 铁柜钥匙): the twenty-eighth round
      ("泄密-5.md", "胡德贵")], 1),  # 2 -> 1: H11's round (stop 58: 好-1's 当了四年学徒才熬上水手 — a stage reached, not below it;
    # 好-1 no longer sent back); the nineteenth round: 合同-3/5 caught (an errand in words, a handover kept back), 4 -> 3 (师父落水以后)
    # 3 -> 2: K2's contract round (stop 54: 江顺轮 only inside 胡德贵说…, the telling in the prose — a place of a told detail)
    # a 1974 三线 factory written blind at stop 45: blind runs 5/15, 3/5, 4/5 → 5/5 and 5 false alarms (its README);
    # a development set since task C16 (stop 46), tuned on with 连续性-盲评十六; the seventeenth round: 5/15 → 9/15
    # (位置 3/3: 长途/电报 far places, 碰到 in its own sentence, 东子，你到了上海 no journey; 状态: a hand's act after 把),
    # false alarms unchanged; the eighteenth round (stop 47, tuned on 十八 and 十九): 11/15 (a rank after 的 before a name,
    # a lighter taken out from a drawer with its looks between).
    ("连续性-盲评十七", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-境界-1.md", "境界"), ("连贯-状态-2.md", "状态"), ("连贯-时间-2.md", "书内时间")],  # 持有-1 (解下斜挎在…的那只
     # 绿漆水壶): the thirty-sixth round (H5, stop 53: a use across a description)
     3),  # 4 -> 3: C1's round (stop 58: a work site called by its kind alone, 洞里)
    # the nineteenth round: 合同-3/5 caught (a place told of and seen from afar, a handover kept back), 5 -> 4 (师父在的时候)
    # a Qing 扬州 salt household written blind at stop 46, its gate (counts seen by builders): blind runs 5/15, 3/5, 3/5
    # → 5/5 and 6 false alarms (its README); a development set since stop 47, tuned on with 连续性-盲评十九 (the eighteenth
    # round: 5/15 → 12/15 — letters-only towns and 以前不回 far, an awaited return, 你们老爷 seen, 上不得楼梯, countdowns to
    # an old-style date, a drowning's years, a ring worn in a clause of its own).
    ("连续性-盲评十八", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-境界-3.md", "境界"), ("连贯-持有-2.md", "持有")],
     2),  # 合同-5 (明天再说): L2's pool round (stop 50); 境界-1 (当了七八年R的X): the thirtieth round (E1, stop 51);
    # 4 -> 2: the twenty-eighth round (S2, stop 51: 下来个瘦老头 takes the clauses after; 韩总管's 对牌 out in the scene)
    # the nineteenth round: 合同-3 (天宁寺 told of, only wished for); 6 -> 4: the twentieth round (好-5's 荷包, handed over by its holder)
    # a 1934 Shanghai 钱庄 written blind at stop 46, an evaluation set: blind runs 7/15 → 9/15, 4/5, 2/5 → 3/5 and 8 → 10
    # false alarms (its README); a development set since stop 47, tuned on with 连续性-盲评十八 (the eighteenth round: 9/15 →
    # 14/15 — 下不了楼梯, 探进半个脑袋, 抬起头来看 no visit, 离十五号还有二十天, 今朝礼拜四).
    ("连续性-盲评十九", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-状态-2.md", "状态"), ("泄密-1.md", "方佩珍")],
     3),  # 4 -> 3: c3's round (stop 60: a thing put back after an act that gives or shows nothing is no refusal of it — 时间-2's snuff bottle
    # back in the pocket after the count); 泄密-5 (伯年手书: a letter its writer's) and 6 -> 5: L2's pool round (stop 50); 5 -> 4: the twenty-eighth
    # round (S2, stop 51: 先生…把这把算盘推到他面前 — no longer another's 算盘 in 先生's hands)
    # the nineteenth round: 合同-5 (a key left at the office, 改日), 10 -> 6 (二先生, 那把算盘, 前两年)
    # a Southern Song 书院 written blind at stop 47: first run 7/15, 3/5, 5/5 and 36 false alarms (its README); a
    # development set since stop 47 (task C19), tuned on with 连续性-盲评二十一.
    # The twentieth round: the ledger its holder brings out (2) and the teacher's laugh in a counted habit (1) are gone;
    # left: 28 禁足 findings in the confined one's own courtyard (one book's form), a talk to the dead (说给先生听：).
    ("连续性-盲评二十", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-1 (“…”沈砚站起来。⏎“…你一个上舍生，…”) caught: rk2's round (stop 61: 你一个R to the speaker of the turn before)
     [("连贯-位置-2.md", "位置"), ("合同-3.md", "石塘镇")],  # 持有-1: the twenty-eighth round
     3),  # 合同-5 (回头再说; 去临安的三个人 names people) and 5 -> 4 (临安): L2's pool round (stop 50); 4 -> 3: fa1's
    # round (stop 63: 说给先生听：… — the one told to does not speak)
    # stop 47's eighteenth and nineteenth rounds (not tuned on it): 境界-3 and 状态-1 caught, 36 -> 37 false alarms; the twentieth: 37 -> 34;
    # the twenty-first round: 时间-2 caught (离二十九日开船，只剩三天了: a date and its event, a comma before the count);
    # the twenty-second: 34 -> 5 (尊经阁 called 阁 by its people, twice; the confined student found in his own courtyard
    # inside the town, 27 — one voice of his, come into the hall three paragraphs up, is left as a 在场 warning);
    # the twenty-sixth round (C25, stop 50, from the pool): 时间-3 caught (今日是十五，望日: the old way's bare day),
    # 位置-1 caught (杜山长今早回来了: a far one said by another to have come here today)
    # a 1984 county 供销社 written blind at stop 47: first run 6/15, 4/5, 5/5 and 7 false alarms (its README); a
    # development set since stop 47 (task C19), tuned on with 连续性-盲评二十.
    ("连续性-盲评二十一", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-3 (你都是柜组长了, said to the other of a scene of two) caught: hk1's round (stop 63)
     [("连贯-持有-3.md", "持有"),  # 持有-2: the twenty-eighth round (S2, stop 51: …，他…摸出)
      ("连贯-状态-1.md", "状态"), ("连贯-状态-2.md", "状态"),
      # 位置-2 (minutes laid out line by line, 主持人：彭德厚 far off in 县城) caught: D1's round (stop 59: a document dated the in-book day — its duty field)
      ("合同-5.md", "严正清在碰头会上宣布何小满转正")],
     1),  # 3 -> 1: F2's round (stop 59: 泄密-3's 秋生接过听筒, a call begun by taking up the receiver)
    # 4 -> 3: the twenty-eighth round (看见满妹站在…: the clauses after are hers)  # stop 47's eighteenth and nineteenth rounds (not tuned on it): 境界-1 caught, 7 -> 6 false alarms; the
    # twenty-first round: 时间-2 caught (再过五天你就进城了, a coming the world dates); the twenty-second round: 6 -> 5 (a
    # quoted note whose spaces the prose writes as full stops); the twenty-fourth round (C23, stop 49): 5 -> 4, no good
    # draft sent back (好-5's “他留了一把算盘。”: a 他 in a quote is not the speaker's neighbour); the twenty-sixth round
    # (C25, stop 50, from the pool): 位置-3 caught (老彭早上在我这里坐了一个钟头)
    # a Ming 钦天监 written blind at stop 47, an evaluation set: blind runs 4/15 → 6/15, 3/5, 5/5 and 6 → 5 false alarms
    # (its README); a development set since stop 48, tuned on with 连续性-盲评二十三.
    ("连续性-盲评二十二", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-持有-2.md", "持有"),  # 境界-2: the thirtieth round (E1, stop 51: 小俞，你当了这么些年的R); 持有-1 (皮帽子 for
      # 狐皮暖帽): the twenty-eighth round (S2, stop 51)
      ("连贯-位置-2.md", "位置"),  # 状态-1 (a blind boy reading): the twenty-fifth round (C24, FACULTIES)
      # 时间-3 (大庚走了，到今儿整整五个月了: 七夕 on his card): the twenty-ninth round (T1, stop 51, months since a dated going)
      ("合同-5.md", "郝德茂把漏刻房的浮箭换成新的")],
     2),  # 3 -> 2: H8's round (stop 56: 好-3's 竹杖 picked up and put back into its holder's hands, no use);
    # the twenty-seventh round (S1, stop 51): 4 -> 3 (大庚怎么知道，…？: what the missing knew, asked, no voice);
    # the twenty-first round: 时间-1 (the reversed day where the prose writes it), 时间-2 (a coming the card dates);
    # the twenty-second round: 合同-3 caught (西山 told only as where the master lies), 5 -> 4 (观象台 called 台);
    # the twenty-third round: 境界-1 caught (the ladder line's label before its colon no longer hides 天文生)
    # a 1996 trawler written blind at stop 47, an evaluation set: blind run 7/15, 2/5, 4/5 and 8 false alarms (its
    # README), unchanged by stop 47's rounds; a development set since stop 48, tuned on with 连续性-盲评二十二.
    ("连续性-盲评二十三", {"连贯": 15, "合同": 5, "泄密": 5},
     [  # 状态-1, 状态-2: the twenty-fifth round (C24); 境界-1: the thirtieth (E1, a title in narration); 持有-3: the
      # twenty-eighth (S2, stop 51)
      ("连贯-位置-3.md", "位置"), ("合同-3.md", "机舱")],
     1),  # 2 -> 1: c3's round (stop 60: a thing put back after an act that gives or shows nothing is no refusal of it — 时间-1's log book back in
    # its drawer); 3 -> 2: K6's round (stop 57: 连贯-持有-2's event line of two dictionary words told in other words); 4 -> 3: K1's contract round (stop 53: 沈家门码头 met by 码头上); 5 -> 4: the twenty-eighth round (the 账本 its holder brought out)  # 泄密-4 (a letter signed 阿妈) and 6 -> 5: L2's pool round (stop 50)
    # the twenty-first round: 时间 3/3 (a log's wrong weekday, a coming the world dates, a scene opening on yesterday);
    # the twenty-second round: 合同-2 (a promise line's missing name tells the promise) and 合同-5 (the key put back in
    # the collar) caught, 8 -> 6 (the carved line's own space, the 合同-2 finding now a catch)
    # a 1936 自贡 salt well written blind at stop 48, an evaluation set: first run 8/15, 3/5, 5/5 and 13 false alarms,
    # unchanged by stop 48's rounds (its README); a development set since stop 49, tuned on with 连续性-盲评二十五.
    ("连续性-盲评二十四", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-位置-1.md", "位置")],  # 状态-1 (抄起扁担 ← 什么都拿不得): the twenty-seventh round (S1, stop 51, hands)
     4),  # 合同-3 (今天去不成了), 合同-5 (明天验了再说) and 5 -> 4 (邓关): L2's pool round (stop 50)
    # the twenty-fourth round (C23, stop 49): 13 -> 5 (稽核所, a quote's own stops, 以前/一辈子 of the dead, a hand
    # raised, 留下的那块旧怀表, a 他 in a quote); good drafts sent back 1 -> 0; the twenty-sixth round (C25, stop 50, from
    # the pool): 时间-3 caught (…，十一月十三日的太阳，沉进了釜溪河: a clause of narration opening on an earlier day)
    # the twenty-third round, tuned on it: 8/15 -> 12/15 (境界-2 山匠蒋烟杆, 境界-3 他一个学徒, 时间-1 礼拜一 in a
    # 民国 year, 时间-2 days since the dated death), false alarms unchanged
    # a 1975 county film team written blind at stop 48, an evaluation set: first run 8/15, 4/5, 5/5 and 25 false alarms,
    # 24 after stop 48's rounds (its README); a development set since stop 49, tuned on with 连续性-盲评二十四.
    ("连续性-盲评二十五", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-状态-2.md", "状态"), ("连贯-位置-2.md", "位置"), ("连贯-位置-3.md", "位置")],  # 状态-1: the twenty-fifth round
     4),  # 合同-3 (今天是上不去了): L2's pool round (stop 50)
    # the twenty-fourth round (C23, stop 49): 24 -> 4 (第二天 no journey: 14; 水库/枫木 by their own name's parts: 4; a
    # quote's own stops: 2); good drafts sent back 3 -> 0
    # the twenty-third round, tuned on it: 8/15 -> 11/15 (境界-1 副队长覃胖子, 时间-1 days since the dated death,
    # 时间-2 今天都十三号了), false alarms unchanged
    # a 1287 Yuan post station on the 金牛道 written blind at stop 49, an evaluation set: first run 4/15, 2/5, 4/5 and 4
    # false alarms, 5 after stop 49's twenty-third round (its README); a development set since stop 50.
    ("连续性-盲评二十六", {"连贯": 15, "合同": 5, "泄密": 5},
     [# 持有-2 (我拿青哥那只…骨哨, in 六子's words): the thirty-third round (H3, stop 52: owner words in someone's words)
      # 状态-1, 状态-3: twenty-fifth round; 境界-1, 境界-2: the thirtieth (E1, stop 51: titles)
      ("连贯-位置-1.md", "位置"), ("连贯-位置-2.md", "位置"),
      # 位置-3 (驿门外一阵铃铛响…范掌柜翻身下了骡子) caught: PS4's round (stop 63: a card's 入冬才回 makes 成都 far; a door
      # of here hides no body; getting down from a mount)
      # 时间-1 (“至元二十四年九月十一，晴…” written on the 13th): the thirty-ninth round (T3, stop 54: a written entry's date)
      # 时间-2 (后天宣使就到了): the twenty-ninth round (T1, stop 51, the calendar's day words)
      # 合同-2 (P-002's step nowhere in the prose): K3's contract round (stop 55: STEP_WORDS_MIN)
      ("合同-3.md", "朝天岭")],  # 合同-5 caught: t12's round (stop 63: the thing of the line's act taken up and put back, the act told done nowhere — 钥匙揣回腰间)
     1),  # 4 -> 2: F2's round (stop 59: 合同-1, 合同-2's 那天早上…鲁提领, a rank on a remembered day); 2 -> 1: rk3's round
     # (stop 62: 合同-2's 杜青 read as 驿令 no more — the lead's pool run found it, the builder did not score this set)
    # the twenty-sixth round (C25, stop 50, from the pool): 时间-3 caught (九月十二的夜里: 的 before the part of day);
    # L2's pool round (stop 50): 泄密-3 (a letter signed 娘) and 5 -> 4
    # a 1992 东莞 electronics plant written blind at stop 49, an evaluation set: first run 6/15, 3/5, 2/5 and 8 false
    # alarms, unchanged by stop 49's rounds (its README); a development set since stop 50.
    ("连续性-盲评二十七", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-2 (“罗拉长，…” of a 普工; the world: 线长…厂里人顺口叫「拉长」) caught: hk1's round (stop 63: a rung's other name;
     # a fall told elsewhere, 退回来一箱板子, no longer silences a rank said higher)
     [# 状态-2, 状态-3: the twenty-fifth round (C24, BODY_MOVES); 持有-2 (我拿我那只秒表, 强哥's
      # words): the thirty-third round (H3, stop 52); 位置-2 (坤叔蹲在五号机底下): the thirty-seventh round (P1, stop 54: the
      # card's dated coming, 十月二十日才回厂)
      ("连贯-时间-2.md", "书内时间"),
      # 时间-3 (姐姐出事是七月十二日): the thirty-first round (T2, stop 52, a dated event's own day restated)
      ("合同-3.md", "写字楼"), ("合同-5.md", "周德福把登记簿九月六日那一页翻给罗秀英看")],
     # 泄密-3 (珍姐's words: 话自己叫陈丽芳) caught: lk1's round (stop 62: a gap's own person — the roster's, no card, no
     # public text — said alone by one outside the gap)
     # 泄密-1 (强哥四下看了看…他压低声音：…保险掣): L1's round, the lead's mend (stop 57: a pronoun
     # of the other gender is the line's first person of it)
     2),  # 4 -> 2: K7's round (stop 58: 泄密-1's 老板娘 is no 老板 — a name not found inside a longer word, so 郑家豪
    # is not in the scene twice); 5 -> 4: K6's round (stop 57: 位置-3's event line of two dictionary words told in other words);
    # 6 -> 5: the thirty-fourth round (H4, stop 53: 屋里就剩她一个人。她又把日记本抽出来 — the point of view's own);
    # 7 -> 6: the twenty-eighth round (S2, stop 51: 罗秀英's 日记本 out in the scene)  # the twenty-sixth round (C25, stop 50, from the pool): 时间-1 caught (十月十四日（星期四）: the weekday in brackets),
    # 位置-3 caught (老细今朝十点已经到咗); L2's pool round (stop 50): 泄密-4 (阿妈的第二封信 read out) and 8 -> 7
    # a 1963 锡林郭勒 state horse farm written blind at stop 50, an evaluation set: first run 3/15, 3/5, 3/5 and 6 false
    # alarms, unchanged by stop 50's rounds (its README); a development set since stop 51.
    ("连续性-盲评二十八", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-1 and 持有-3 (他 ← 张大叔, the cards' form for 张满仓) caught: H15's round (stop 61: a called form is a
     # pronoun's antecedent for the 持有 readers)
     # 持有-2 (我用老嘎达那把银鞘蒙古刀割的…”她回头冲孟和说) caught: hk1's round (stop 63: 孟和, turned to, does not speak;
     # a few words of looks after the owner's measure word)
     [("连贯-境界-2.md", "境界"),  # 境界-1: the thirtieth round (E1)
      # 状态-1 (walking ← 下不了地), 状态-2/3 (the dead and the missing riding): S1 (stop 51)
      # 位置-2 (陈兽医蹲在马圈里): the thirty-seventh round (P1, stop 54: the card's dated coming, 眼下在…训练班，十月二十日才结业回场)
      ("连贯-位置-3.md", "位置"),
      # 时间-2 (还有五天收购组就到了): the twenty-ninth round (T1, stop 51, the comer's one dated day); 时间-3 (阿爸是今年二月
      # 十二日夜里没的): the thirty-first round (T2, stop 52, a dated event's own day restated)
      # 泄密-1 (“乔巴山。” after 张大叔摆摆手，没承认，也没否认 and 孟和's question) caught: lk2's round (stop 63: 张大叔,
      # 孟和's card word for 张满仓, names the leaks' speaker; a wave of the hand is a wordless reply)
      ("合同-3.md", "草库伦")],
     # 泄密-4 (萨仁) caught and 2 -> 1: K8's round (stop 59: a letter no one signs is the writer a listener names to the
     # reader, 你额吉的？念念 — not the reader 孟和)
     0),  # 3 -> 2: K6's round (stop 57: 好-5's event line of two words told in other words, EVENT_DICT_WORDS_MIN);
    # 1 -> 0: fa1's round (stop 63: 把阿爸那副老鞍子拎起来，拍了拍：“…” — a possessor before 那+measure does not speak)
    # 合同-5 caught, 5 -> 3: K2's contract round (stop 54: 鼻烟壶 never named is the handover missing; 好-1's
    # 递过来 … 收回荷包 a handover for a moment)
    # the twenty-seventh round (S1, stop 51): 6 -> 5, no good draft sent back (好-4: what the missing knew, asked)
    # an 823 敦煌 monastery scriptorium written blind at stop 50, an evaluation set: first run 8/15, 3/5, 4/5 and 4 false
    # alarms, unchanged by stop 50's rounds (its README); a development set since stop 51.
    ("连续性-盲评二十九", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-3 (“…金光寺比丘索法成写…” a colophon read out) caught: rk1's round (stop 60: a rank before a full name is the
     # entry's claim)
     [# 状态-1: S1 (stop 51, legs)
      # 位置-2 (都僧统昨儿后晌亲自到铺子里来了): P3 (stop 56: a far card said to have come up yesterday)
      # 位置-1 (山门外，阎和尚拄着锡杖站在夕阳里) and 位置-3 (天不亮都僧统就在讲堂上坐定了) caught: PS4's round (stop 63: a
      # door of here hides no body; the narration putting the far one at a place of here)
      ("合同-3.md", "莫高窟"),  # 时间-2 (明日就是二十了), 时间-3 (你师父走了也快两年了): the
      # twenty-ninth round (T1, stop 51: the bare day before 了; months since the card's day)
      # 合同-5 caught: C2's round (stop 59: 经藏不开。 — the line's 打开 given up; 张道深's 道 is no speech)
      ("泄密-5.md", "曹法济")],
     1),  # 2 -> 1: K6's round (stop 57: 好-2's event line of two dictionary words told in other words); 4 -> 3: the twenty-eighth round (S2, stop 51: 坐在索法成对面 is a place, not the doer)
    # 3 -> 2: K2's contract round (stop 54: 东市 only inside 康大郎…说, the telling in the prose)
    # a 1720 宁古塔 exile garrison written blind at stop 51, an evaluation set: first run 7/15, 4/5, 4/5 and 2 false
    # alarms, unchanged by stop 51's rounds (its README); a development set since stop 52.
    ("连续性-盲评三十", {"连贯": 15, "合同": 5, "泄密": 5},
     # 状态-1 (什么也看不见 → 把告示从头到尾看了一遍) caught: S1's round (stop 58: the blind looking a written thing through)
     # 境界-2 (“巴骁骑，…” of a 领催; 图骁骑 an alias of a 骁骑校) caught: hk1's round (stop 63: a rung's head in a card's
     # alias is a title; a name no surname starts called by its head)
     [# 持有-2: H3 (stop 52; 九叔's words)
      # 位置-2 (协领大人今早在衙门里还问起你) caught: P3's round (stop 60: someone reported at a place of here today, any act)
      # 位置-3 (院门外头一阵铃铛响…乔掌柜跳下马车) caught: PS4's round (stop 63: a card's 开春才来 makes 盛京 far; a door of
      # here hides no body; getting down from a mount)
      # 时间-1/2/3: the thirty-first round (T2, stop 52; 7/15 -> 10/15; with H3 11/15)
      ("泄密-3.md", "乌云")],
     1),  # 合同-5 caught, 2 -> 1: K2's contract round (stop 54: 册子 never given — the handover missing, said as the event)
    # an 1871 马尾 navy yard written blind at stop 51, an evaluation set: first run 8/15, 3/5, 4/5 and 6 false alarms;
    # 9/15 and 7 with stop 51's rounds (not tuned on it; its README); a development set since stop 52.
    ("连续性-盲评三十一", {"连贯": 15, "合同": 5, "泄密": 5},
     # 状态-2 (林大脚扛着一捆船板从他们跟前走过去) caught: S2's round (stop 59: carrying a load is a body's act)
     [("连贯-状态-1.md", "状态"), ("连贯-时间-1.md", "书内时间"),
      # 位置-1 (…九月初八日卯刻，提调周维翰亲书于…, 周维翰 in 上海) caught: D1's round (stop 59: a document dated the in-book day — a name signing its own act)
      # 时间-2 (前日重阳), 时间-3 (靖波下水只剩三天了): the thirty-first round (T2, stop 52; 9/15 -> 11/15)
      ("合同-3.md", "罗星塔"),
      # 合同-5 caught: C2's round (stop 59: 熄火。明天再试。 — the line's 试汽 put off)
      ("泄密-1.md", "吴德兴")],
     1),  # 3 -> 1: K2's contract round (stop 54: 英国, 洋员楼 only inside a telling the prose tells)
    # 7 -> 3, 好-1 no longer sent back: the thirty-third round (H3, stop 52: 他 after 卓监工/阿狗, whose gender no card
    # tells, is not the point of view's — 眼镜 ×2, 折扇, 平安符)
    # a 1740 东川 汤丹厂 copper mine written blind at stop 52, an evaluation set: first run 5/15, 2/5, 3/5 and 10 false
    # alarms; 7/15 with stop 52's rounds (the calendar's and holdings', not tuned on it; its README); a development set
    # since stop 53.
    ("连续性-盲评三十二", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-2: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks)
     # 持有-1 (罗叔从怀里摸出一只布袋，倒出那只…木罗盘; 罗叔 the point of view's form for 罗金宝, quoted by his card) caught:
     # H14's round (stop 61: the cards' address forms of the point of view are names of the 持有 readers)
     [("连贯-状态-1.md", "状态"),  # 持有-3 (拿起那片装在…的竹口弦):
      # the thirty-sixth round (H5, stop 53: a use across a description, in a clause naming nobody)
      # 位置-2 (戴课长坐在秤房里): the thirty-seventh round (P1, stop 54: the card's dated coming, 眼下在东川府城…九月十四才上厂)
      # — R54: narrowed, lost again: BACK_ON fired on 九月十四再上一批新蜜, 才来信, 才到期 (a verb of return now needed,
      # 上 none) and the card's year is now needed (the card's own, else the last settled chapter's)
      # 时间-3 (爹是四月十八那天后半晌压在老巷里的; the card's 四月十二后半晌): T6's round (stop 57: 后半晌 after a date is
      # no bound, a longer stretch after 是…的's date)
      ("连贯-位置-2.md", "位置"), ("连贯-位置-3.md", "位置"), ("连贯-时间-1.md", "书内时间"),
      # 泄密-1 (“会理。” — 罗叔, 何松's card word for 罗金宝, the one the turns go on from) caught: lk2's round (stop 63:
      # the point of view's card word for a present person names the leaks' speaker)
      ("合同-3.md", "柴场"),  # 合同-2: K3's contract round (stop 55: the promise step nowhere)
      ("泄密-3.md", "吕石头")],
     5),  # 7 -> 5, 好-1 no longer sent back: C1's round (stop 58: a work site called by its kind alone, 硐口/进了硐)
    # 合同-5 caught, 9 -> 7: K2's contract round (stop 54: 罗盘 never given; 好-1's 递给 … 收回去 for a moment)
    # 10 -> 9: the thirty-fourth round (H4, stop 53: 罗镶头把酒葫芦摸出来 is no 镶头 of the cards; 好-3 not sent back)
    # a 63 BC 居延 甲渠塞 beacon line written blind at stop 52, an evaluation set: first run 6/15, 3/5, 3/5 and 10 false
    # alarms; 7/15 with stop 52's rounds (the calendar's, not tuned on it; its README); a development set since stop 53.
    ("连续性-盲评三十三", {"连贯": 15, "合同": 5, "泄密": 5},
     [# 状态-2 (the dead 田燧长昨儿后晌还来舍里坐了坐, in a quote): the thirty-ninth round (T3, stop 54), not read by it
      # 持有-2 (我拿那张缠桦皮的角弓, in someone's words, no owner word): H10's round (stop 57)
      # 状态-1 (下不了地 → 扶着坞墙一步一步挪到了烽台脚下) caught: S1's round (stop 58: a bed-bound leg walking a step at a time)
      # 境界-2 (是赵候官…交代过的, 赵延寿 a 候长 not in the scene) caught: hk1's round (stop 63: an absent one's title is a claim)
      ("连贯-境界-3.md", "境界"),
      # 位置-2 (王候官今早亲自在障里坐着) caught: P3's round (stop 60: someone reported at a place of here today, any act)
      ("连贯-位置-3.md", "位置"), ("连贯-时间-1.md", "书内时间"),
      ("合同-3.md", "甲渠障"), ("泄密-3.md", "孙赏")],  # 合同-5 caught: t12's round (stop 63: the thing of the line's act taken up and put back, the act told done nowhere — 摸了摸钥匙，又放下了)
     # 泄密-4 (苏娥) caught and 5 -> 4: K8's round (stop 59: the scribe-written letter is the writer a listener names to
     # the reader, 你阿母真好 — not the reader 田禹)
     4),  # 6 -> 5: K3's contract round (stop 55: 泄密-2's dead 田广 no longer given a voice)
    # 7 -> 6: K2's contract round (stop 54: 第四燧 only inside 孙赏说…, the telling in the prose)
    # 10 -> 9: the thirty-fourth round (H4, stop 53: 孙候长 is no 候长 of the cards — 坞钥 in nobody else's hands);
    # 9 -> 7: K1's contract round (stop 53: 第四燧北头 met by 你们这儿北头; 好-5 no longer sent back)
    # an 1887 漠河 胭脂沟 gold field written blind at stop 53, an evaluation set: first run 6/15, 3/5, 4/5 and 5 false
    # alarms; 4 with stop 53's rounds (H4's, not tuned on it; its README); a development set since stop 54.
    ("连续性-盲评三十四", {"连贯": 15, "合同": 5, "泄密": 5},
     [# 状态-1 (烫伤 hands: 抓住), 状态-2 (the dead 前儿后晌 in a quote), 时间-1 (a ledger line dated the 14th written on the
      # 16th): the thirty-ninth round (T3, stop 54), false alarms unchanged
      # 境界-3 (乙字号把头于得水, a roll read out) caught: rk1's round (stop 60: a rank before a full name is the entry's claim)
      # 持有-2 (我提着那盏…洋马灯, no owner word): H10's round (stop 57)
      ("连贯-位置-1.md", "位置"), ("连贯-位置-2.md", "位置"),
      # 位置-3 (宫大人举着那只黄铜千里镜) caught: PS4's round (stop 63: a hand holding a thing now is a body's act)
      ("连贯-时间-3.md", "书内时间"),  # 合同-2 caught: c3's round (stop 60: a step a person says, nine telling pairs)
      # 合同-5 caught by C2's round (stop 59: 这扇门一天也不开。 — the line's 打开 given up; 叫贺春生 an order, no speech),
      # missed again: the lead withdrew the order reading of 叫 (it added a false alarm on a blind book)
      ("泄密-1.md", "石满仓")],  # 合同-5 caught: t12's round (stop 63: the thing of the line's act taken up and put back, the act told done nowhere — 钥匙塞回了领口)
     3),  # 4 -> 3: c3's round (stop 60: a thing put back after an act that gives or shows nothing is no refusal of it — 时间-1's notebook back in his coat)
    # a 1956 柴达木 oil-prospecting party written blind at stop 53, an evaluation set: first run 11/15, 2/5, 4/5 and 8
    # false alarms; 4 with stop 53's rounds (H4's and F9's, not tuned on it; its README); a development set since stop 54.
    ("连续性-盲评三十五", {"连贯": 15, "合同": 5, "泄密": 5},
     [# 状态-2 (the dead 许组长早上来伙房 in a quote), 时间-1 (a field book's entry dated the 19th written on the 21st): the
      # thirty-ninth round (T3, stop 54), false alarms unchanged
      # 时间-3 (…是去年十月十九日下午起的，爸就是那天走进北沟): T6's round (stop 57: a dead one's going told after a day)
      # 境界-1: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks)
      ("合同-3.md", "油砂山"), ("泄密-1.md", "丁小满")],  # 合同-2: K3's contract round (stop 55: the promise step nowhere)
     1),  # 合同-5 caught, 4 -> 1, 好-1 no longer sent back: K2's contract round (stop 54: 罗盘 never given; 好-1's
    # 递过来 … 收回套子里 for a moment, 北沟 only inside 郑国梁说…)
    # a 1911 歙县 ink workshop written blind at stop 54, an evaluation set: first run 4/15, 4/5, 4/5 and 7 false alarms;
    # 5/15, 5/5 and 6 with stop 54's rounds (T3's and K2's, not tuned on it; its README); a development set since stop 55.
    ("连续性-盲评三十六", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-3 (程师傅从腰带上解下那把…铜钥匙; 程 two cards' surname, 汪砚生叫他“程师傅” on 程仲甫's card) caught: H14's round
     # (stop 61: the cards' address forms of the point of view are names of the 持有 readers)
     [  # 境界-1: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks)
      # 持有-2 caught by H7's round (stop 55: 「我拿…你那副…」, the owner 你 in someone's words); 境界-3, 时间-1 and
      # 时间-2 by T4's (stop 55: a title on a surname with one ranked card, an entry brought in by 写下：, 七月半)
      # 状态-1 (右手握不住东西 → 右手攥着枣木柄) caught: S1's round (stop 58: a hand that cannot hold)
      ("连贯-位置-3.md", "位置")],  # 位置-1: P2 (stop 55, 中秋前回不来)
     # 时间-3 (先考汪公守拙之墓，宣统二年腊月廿八卒 for a death on 腊月廿三) caught: T8's round (stop 59: a grave
     # marker's date against the buried one's dated day)
     # 泄密-1 (“还能是哪座，齐云山呗。” — 根哥, 汪砚生's card word for 吴阿根) caught: lk2's round (stop 63: the point of
     # view's card word for a present person names the leaks' speaker)
     0),  # 2 -> 1: F2's round (stop 59: 好-6's 阿爹走那夜, the day the missing went); 1 -> 0: fa1's round (stop 63:
    # 爹写的那张字条，就压在他胸口：… — a name inside a thing's name is no 他's antecedent)
    # 6 -> 3: K3's round (stop 55: a handover's thing by its head after 把; a letter's writer is no speaker); 3 -> 2:
    # T5's (stop 56: 爹的字工工整整，…出了 — the dead as owner of what follows, no act)
    # a 1966 大兴安岭 logging camp written blind at stop 54, an evaluation set: first run 5/15, 2/5, 3/5 and 8 false
    # alarms; 3/5 and 7 with K2's round (stop 54, not tuned on it; its README); a development set since stop 55.
    ("连续性-盲评三十七", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-1 (“…，二班，班长郝金宝，…” read out) caught: rk1's round (stop 60: a rank before a full name is the entry's claim)
     # 持有-1 (任叔抹了一把汗，从怀里掏出那块…怀表; 任叔 quoted by 任德山's card for the point of view) caught: H14's round
     # (stop 61: the cards' address forms of the point of view are names of the 持有 readers)
     [  # 持有-2: H7 (stop 55)
      # 状态-1 (看不见东西 → 把墙上贴的班报从头到尾念了一遍) caught: S1's round (stop 58: the blind reading a written thing)
      # 状态-2, 时间-1 and 时间-3: T4 (stop 55: the dead said to have done anything lately after 还/又; 班报 entries)
      ("连贯-位置-1.md", "位置"),  # 位置-3 (老高昨儿后晌就搭运材车上来了): P3 (stop 56)
      # 位置-2 (高场长背着手在楞场上转了一圈) caught: PS4's round (stop 63: the narration putting the far one at a place of here)
      ("合同-3.md", "鹿角岭"),  # 合同-2 and 泄密-5: K3 (stop 55: a promise step none of whose words are told; 写的字：)
      ("泄密-4.md", "高振华")],
     1),  # 7 -> 1: K3's round (stop 55: a letter read aloud is not its writer speaking; a kin word after 是 names its one)
    # a 1933 洪江 timber-raft crew written blind at stop 55, an evaluation set: first run 8/15, 3/5, 4/5 and 6 false alarms;
    # 9/15 with H7's round (stop 55, not tuned on it; its README); a development set since stop 56.
    ("连续性-盲评三十八", {"连贯": 15, "合同": 5, "泄密": 5},
     # 状态-2 and 时间-1 caught by T5's round (stop 56: 刚才 + any doing of the dead; an entry dated after 写上日子：)
     # 位置-3 (他看见娘站在…): P5's round (stop 57: a card's one-character kin name in its child's chapter, seen)
     # 状态-1 (上不得排，撑不得篙 → 一手撑着长篙，一步跨上排头) caught: S1's round (stop 58: boarding a card bars)
     # 合同-3 caught: C2's round (stop 59: 上嵩云山 a move, 说要上… only meant; 连贯-时间-3's plan whose 培土 the
     # narration then does is no alarm)
     [("连贯-时间-2.md", "书内时间")],  # 时间-3 (去年八月十二那天，…，你爹落的水): T6's round
     # (stop 57: a dead one's going told after a day)
     # 合同-5 and 泄密-1 caught: K6's round (stop 57: a thing used for an act the prose gives up, 改天拿好纸来写; in a
     # scene of two, a clause led by one's given name is theirs)
     1),  # 6 -> 1: T5's round (stop 56: 爹点出来的数 — a doing that describes a thing is no act of the dead), H8's
    # (stop 56: 码簿 in someone's words telling the past, the dead 向德厚's and 龙金山's after him) and P3's (stop 56:
    # 好-6, “他在清水江上…”他说 — a pronoun in someone's words is not its speaker); 1 -> 2, R56: H8's reading narrowed,
    # fired on a dead card's grave named in someone's words (老茶师的坟…罗会计拿着测糖仪跑了) — a dead card named in
    # the words no longer makes another's use past, and 状态-2's 龙金山 码簿 alarm (after the dead 向德厚 acts) is back
    # 2 -> 1: T6's round (stop 57: 今天轮到秋生 — a season's character opening a given name is no season)
    # a 1988 川藏公路 road-maintenance squad written blind at stop 55, an evaluation set: first run 9/15, 3/5, 3/5 and 11
    # false alarms (2 of 6 good drafts sent back); 合同 4/5 with K3's round (stop 55, not tuned on it; its README); a
    # development set since stop 56.
    ("连续性-盲评三十九", {"连贯": 15, "合同": 5, "泄密": 5},
     # 位置-2 (妈挽着袖子蹲在…): P5's round (stop 57: 妈, her card's name; 天全老家, a family home away)
     # 境界-3 (复核人班长陈国梁 of a 养路工) caught: hk1's round (stop 63: a rung's tail before a full name is its title)
     [("连贯-状态-2.md", "状态"),  # 位置-1: P3 (stop 56, 昨天…上来了)
      # 时间-1 caught by T5's round (stop 56: an entry dated after 端端正正写上：)
      # 合同-3 caught: C2's round (stop 59: 上老鹰垭口 a move, 正要往…走 only meant; no sibling of its list stands for it)
      ("连贯-时间-3.md", "书内时间")],  # 泄密-3: K6's round (stop 57: a quote after a pronoun's beat)
     4),  # 5 -> 4: K6's round (stop 57: 好-5's event line of two words told in other words, EVENT_DICT_WORDS_MIN)  # 11 -> 5 and 泄密-4 caught: K5's round (stop 56: 邮车从柯洛捎来 — the place a letter is sent from; a letter
    # opened with a salutation (“川娃：) and a quote closed by 念完了 read out, its writer the one who 来信), H8's
    # (stop 56: 好-3's 口琴 brought out and put into its holder's hands, no use) and P3's (stop 56: 第1章's 七十二道拐,
    # one place with 九道班 by 世界观's 算一处地方; 境界-2's 段长孙志刚)
    # a 1946 天津 docks porters' guild (脚行) written blind at stop 56, an evaluation set: first run 6/15, 4/5, 5/5 and 4
    # false alarms; 7/15 with T5's round (stop 56, not tuned on it; its README); a development set since stop 57.
    ("连续性-盲评四十", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-2 (我借你那根…扁担, 兰姐's words) caught: H10's round (stop 57: 我 in someone's words, more verbs)
     [  # 境界-1: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks)
      # 状态-2 (明儿卸船，赵把头领头一班) caught: S3's round (stop 60: the dead said to do a thing still to come)
      # 状态-1 (跳板上不得 → 走上了跳板) caught: S1's round (stop 58: boarding a card bars, its thing fronted on the card)
      ("连贯-时间-2.md", "书内时间"), ("连贯-时间-3.md", "书内时间")],
     # 位置-1 (凤英婶今儿一早上货栈来找你): P6's round (stop 58: a visit told by its purpose, 来找, is a coming)
     # 位置-3 (他看见娘站在…): P5's round (stop 57); 合同-5 caught: K6's round (stop 57: 算了，不掐了 — a thing used for an
     # act given up)
     0),  # 1 -> 0: H11's round (stop 58: 合同-4's 冲脚夫们一摆手 — a stage followed by 们 is a group, nobody's rank)
    # 2 -> 1: P6's round (stop 58: 合同-5's 五月初五晚上，马把头在南市… — placed on another day, not now)
    # 4 -> 2: H10's round (stop 57: 第1章's 跟马把头签筒里的一样长 — a held thing in a comparison's frame, not used)
    # and K6's (合同-5's 怀表 not asked again once its event is found given up)
    # a 1979 石河子 state-farm cotton company (连队) written blind at stop 56, an evaluation set: first run 7/15, 4/5, 4/5
    # and 3 false alarms, unchanged by stop 56's rounds (not tuned on it; its README); a development set since stop 57.
    ("连续性-盲评四十一", {"连贯": 15, "合同": 5, "泄密": 5},
     [("连贯-境界-2.md", "境界"), ("连贯-持有-2.md", "持有"),  # 境界-1: the vocative title (stop 57: a title opening a quote, “韩把头，…”, is a claim whoever speaks)
      # 状态-1 (拾不了花 → 拾得比谁都快) caught: S1's round (stop 58: a barred act told done well)
      # 时间-1 (工分本新的一页…写下日子：一九七九年九月二十三日): T7's round (stop 58: a new page begun names a kept book)
      # 时间-2 (验收组大后天就到了): T7's round (stop 58: a coming with the comer before the day word)
      # 时间-3 (去年七月十九日夜里，爹就是从这道闸口叫水卷走的): T6's round (stop 57: a dead one's going told after a day)
      ],  # 位置-3 (他看见妈站在…): P5's round (stop 57)
     # 泄密-1 (王二虎) caught: K8's round (stop 59: an untagged exchange opening on a name, “建疆，你说…？”, in a scene of
     # two is the other's, and its turns go on from it)
     # 合同-5 caught, 3 -> 0: K6's round (stop 57: 不听了 — a thing used for an act given up; event lines of two words
     # told in other words; a place in a step's reported words)
     0),
    # a 1932 汉口 Chinese medicine shop (药号) written blind at stop 57, an evaluation set: first run 5/15, 4/5, 5/5 and 1
    # false alarm; 6/15 with stop 57's rounds (境界 2/3: the vocative title; not tuned on it; its README); a development
    # set since stop 58.
    ("连续性-盲评四十二", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-3 (爹那杆象牙戥子我带到上海来了, in 姐's letter signed 姐，七月廿八) caught: H13's round (stop 60: another's thing
     # the speaker keeps, said as the topic; a signed letter is its writer's words)
     # 境界-3 (小余是柜上的伙计) caught: rk1's round (stop 60: a copula and a bare modifier of the rank)
     # 持有-2 (“小余，…”他伸出右手…，“莫看我手上这只翡翠扳指…”) caught: hk1's round (stop 63: in a scene of two, words
     # calling one are the other's; a pronoun's beat between two quotes goes on the same turn)
     [# 状态-1 (看不得药方 → 把药方凑到眼前看了半天) caught: S1's round (stop 58: the blind looking a written thing through)
      ("连贯-状态-2.md", "状态"),
      # 位置-3 (a receipt's …八月初十，邓鸿钧经手。, 邓鸿钧 in 重庆) caught: D1's round (stop 59: a document dated the in-book day — a name signing its own act)
      # 时间-2 (大掌柜明天就到汉口了): T7's round (stop 58: a coming with the comer before the day word); 时间-3 (中秋过了才三天)
      # missed again: T7's festival counted back in days was dropped by the ftp fixers' round (stop 58, R58: a past
      # event told by its distance from a festival is ordinary; the reading rested on two books); caught again: T8's
      # round (stop 59: the count opening the chapter or a scene, no going away after it; three books)
      ],
     # 合同-5 caught: C2's round (stop 59: 不碾了 — an event line's own act given up where its people are)
     # 位置-1 (你姐今天一早到铺子里来找过你): P6's round (stop 58: 来找 a coming; 余长生的姐 on her card, so 你姐 is she)
     1),
    # an 1843 grain-tribute barge convoy (漕船) at 临清's lock written blind at stop 57, an evaluation set: first run 4/15,
    # 3/5, 4/5 and 11 false alarms; 10 with stop 57's rounds (not tuned on it; its README); a development set since stop 58.
    ("连续性-盲评四十三", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-3 (把我那只…千里镜拿来, 焦德胜's words) caught: H12's round (stop 59: a thing the speaker calls their own)
     [("连贯-持有-2.md", "持有"), ("连贯-状态-2.md", "状态"),
      # 状态-1 (拉不得纤 → 拽了一把纤绳) and 状态-3 (上不得船 → 摸上船来) caught: S1's round (stop 58: an act of a trade a card
      # bars with its thing, done to the thing by a verb of its row)
      # 位置-1 (你娘晌午上船来过) and 位置-2 (孟大嫂从岸上下来) caught: PS4's round (stop 63: a card's 没能来临清 makes 江都
      # far; a walk in from a place closed by 上, coming down)
      ("连贯-位置-3.md", "位置"),
      # 时间-1 (御史老爷明儿就到): T7's round (stop 58: the comer before the day word, named in the dated event's words)
      ("连贯-时间-2.md", "书内时间"),
      # 时间-3 (a letter written tonight signed 道光二十三年四月初十 on 四月十三) caught: D1's round (stop 59: a piece written
      # now carries its own day); 合同-3 caught: C2's round (stop 59: 上 a place is a move; 想后半晌上鳌头矶去 only meant)
      ("合同-5.md", "冯宝把画眉笼挂上桅杆")],
     # 泄密-4 (孟长山) caught and 9 -> 8: L2's round (stop 58: a letter read out paragraph by paragraph, each quote closed,
     # the last signed 哥 — the quote-only paragraphs it encloses are the writer's, not the reader 孟长生's)
     2),  # 3 -> 2: c3's round (stop 60: a thing put back after an act that gives or shows nothing is no refusal of it — 好-5's rice probe back up a
    # sleeve while the boy keeps watch); 5 -> 3: H12's round (stop 59: 好-1's 常叔…，“去，把你那块纤板拿来…” — the clauses of a quote opened after the
    # lead are skipped while it is open; 四十四's 持有-2, which H11's reading lost, is held by H12's own-thing reading) and
    # F2's (stop 59: 连贯-位置-2's quote after …。那天傍晚，老孟也是蹲在这个地方, said then)
    # 8 -> 5: H11's round (stop 58: 好-1's “…的时候，他还是纤夫” and “后来他当了舵工，焦胡子…当头工” — ranks of a past
    # told in speech; 状态-2's 那个葫芦样的押 — a thing named as a shape); H11's third, 好-1's 常叔…，“去，把你那块纤板拿来…”
    # read as words, was withdrawn by the lead (it lost a blind book's holdings catch), so that alarm stays
    # 10 -> 9: S1's round (stop 58: 位置-2's …手慢了下来。那天傍晚，老孟也是蹲在… — a remembered day opening a
    # sentence, no act of the dead now; the dead one's words in the next paragraph still alarm)
    # a 1957 鲁中 mountain-top weather station (云顶山气象站) written blind at stop 58, an evaluation set: first run 7/15,
    # 3/5, 4/5 and 4 false alarms, one good draft sent back; 8/15 with stop 58's rounds (时间 2/3: T7's comer before the
    # day word; not tuned on it; its README); a development set since stop 59.
    ("连续性-盲评四十四", {"连贯": 15, "合同": 5, "泄密": 5},
     # 状态-3 (挑夫牛大个挑着两桶水上了坡, the missing porter) and 位置-1 (俺在石门村供销社门口碰见你哥了) caught: S2's
     # round (stop 59: carrying a load is a body's act; a witness's sighting at a place, done, with no time said)
     # 状态-2 (等秦组长把八月的月报表送过来) caught: S3's round (stop 60: the dead waited for to do a thing still to come);
     # 持有-3 (a log's line signed by the 站长: 站章自即日起交萧玉芬保管) caught: H13's round (stop 60: a holder's words
     # handing their thing into another's keeping)
     # 境界-3 (郑小川上山当了半年观测员) caught: rk1's round (stop 60: a rank said as the span served)
     [
      # 位置-3 (today's log page …；校对：贺长庚, 贺长庚 in 济南) caught: D1's round (stop 59: a document dated the in-book
      # day — its duty field); 时间-3 (国庆节过去才三天 on 9月5日) caught: T8's round (stop 59: a festival counted back in
      # days opening the chapter or a scene, no going away after it); 合同-3 caught: C2's round (stop 59: 十八盘 of 松树坡's
      # one-place list does not put the scene at 松树坡); 合同-5 (the oiling put off till the wind drops) caught: c3's round
      # (stop 60: a condition waited for, then 再说, said as a clause of its own)
      ],
     # 泄密-4 (郑大川) caught and 4 -> 3: K8's round (stop 59: a letter no one signs is the writer a listener names to the
     # reader, 你哥有口福 — not the reader 郑小川)
     0),  # 3 -> 0: F2's round (stop 59: 好-5's 老贺那阵子还是个观测员, a rank of a stretch gone; 合同-3's 秦师傅下葬那天
    # and the quote after it, a remembered scene)
    # a 1583 松江 cotton-cloth dyeing house (染坊) written blind at stop 58, an evaluation set: first run 7/15, 3/5, 4/5 and
    # no false alarm; 9/15 with stop 58's rounds (时间 2/3: T7's; 位置 2/3: P6's; not tuned on it; its README); a
    # development set since stop 59.
    ("连续性-盲评四十五", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-2 (莫看我鼻梁上这副玳瑁眼镜, 冯德茂's words) caught: H12's round (stop 59: a thing the speaker calls their own)
     # 持有-3 (我那方狮钮图章留在账房抽屉里, in 韩守仁's letter signed 守仁顿首) caught: H13's round (stop 60: its holder's
     # words telling it out of their hands)
     # 境界-3 (阿三哥是坊里资格最老的把作) caught: rk1's round (stop 60: a copula and a bare modifier of the rank)
     [
      # 状态-3 (a ledger read out, 五月初八：头缸，沈德昌下缸… — the dead man's entry of today) and 时间-3 (a notice in hand
      # issued 五月十一日 on 五月初八) caught: D1's round (stop 59: documents inside drafts)
      ("连贯-位置-3.md", "位置"),
      # 合同-3 caught: C2's round (stop 59: 跨塘桥 of 凤凰山's one-place list does not put the scene at 凤凰山)
      ("合同-5.md", "蔡阿三坐在缸边教沈福生闻缸")],
     # 泄密-4 (哥's letter, 了空 in a part read on its own line, the reading paused by 阿三哥 and read on to 哥。) caught:
     # lk1's round (stop 62: a gap's own person said alone; a letter read on after a pause to its signature is its
     # writer's in every part — no false alarm on 沈福生, its reader)
     0),
    # a 1978 大庆 oil-drilling team (卫东钻井队) written blind at stop 59, an evaluation set: first run 5/15, 4/5, 4/5 and 5
    # false alarms, one good draft sent back; 4 false alarms and none sent back with stop 59's rounds (F2's; not tuned on
    # it; its README); a development set since stop 60.
    ("连续性-盲评四十六", {"连贯": 15, "合同": 5, "泄密": 5},
     # 时间-1 (a shift report filled today, 日期：1978年10月12日), 时间-2 (检查组大后天就下来了, the inspection dated the 20th)
     # and 时间-3 (离孟师傅出事，整整一年了, seven months on) caught: T9's round (stop 60: a record's own date ahead of today;
     # a coming by any verb of coming; a count said exactly since a death); 状态-2 (等老孟下了夜班) and 状态-3 (邱大个开着解放车
     # 拉来一车水) caught: S3's round (stop 60: the dead waited for to do a thing still to come; driving a vehicle and bringing a
     # load by it is a body's act)
     # 持有-3 (我那架望远镜送给谭宝山了, a line signed 黄振江) caught: H13's round (stop 60: its holder's words telling it
     # out of their hands; a signed line is its writer's words)
     # 境界-3 (谭宝山当了五年司钻) caught: rk1's round (stop 60: a rank said as the span served)
     # 合同-5 caught: c3's round (stop 60: the doer nowhere and nothing of the act, the book's own words counted — the
     # event missing, no longer 鲁长海 missing alone)
     # 位置-1 (你姐晌午在队部门口找你; 杜春英 far by 过年也回不来) and 位置-3 (发料人：葛福林) caught: P3's round (stop 60: a
     # report of someone at a place of here today by any act; a document's open role line)
     # 泄密-4 (a letter read out, signed 姐，十月二日。) caught: m1 (stop 61: one signature — the leak check's letter
     # writer reads H13's LETTER_DATE, 姐 is 杜春英; the false alarm on 杜春生, its reader, gone)
     # 持有-2 (换完垫子，他满手油泥…：“小杜，把我那个子弹壳打火机递过来”) caught: hk1's round (stop 63: in a scene of two,
     # words calling one are the other's)
     [],
     0),  # 4 -> 1: c3's round (stop 60: 泄密-1's paper pushed back is no refusal of reading it aloud; 合同-5 above) and P3's
     # (stop 60: 好-5's 对着老葛的账…：“…” — a name closed by 的 inside its piece does not speak); 1 -> 0: m1 (stop 61, 泄密-4)
    # a 1736 宁波 pawnshop (恒泰典) written blind at stop 59, an evaluation set: first run 4/15, 3/5, 5/5 and 4 false
    # alarms, two good drafts sent back; unchanged by stop 59's rounds (not tuned on it; its README); a development set
    # since stop 60.
    ("连续性-盲评四十七", {"连贯": 15, "合同": 5, "泄密": 5},
     # 时间-1 (a pawn ticket's stub written today ending on 乾隆元年三月十六日, on 三月十三) caught: T9's round (stop 60: 元年
     # is a reign's year 1; a written piece ending on its date alone is not dated ahead); 状态-1 (钱老伯接过当票，凑到眼前，
     # 一个字一个字念：“…去年十月。”), 状态-2 (柜上就剩钱老伯、顾先生、德昌叔同承安四个人) and 状态-3 (当票背面有钱老伯亲手写的
     # 一个“验”字，墨还没干透) caught: S3's round (stop 60: sight is reading, looking close and writing, a past in someone's
     # words leaves the narration's act now; the dead counted among those here; a trace written today)
     # 持有-2 (东家那方狮子钮的铜印在我抽屉里, 顾文藻's words) caught: H13's round (stop 60: another's thing in the
     # speaker's keeping place; 那方 a measure word)
     # 境界-2 (估价朝奉冯小宝, a ledger line) and 境界-3 (承安在恒泰典做了两年写票) caught: rk1's round (stop 60: a rank
     # before a full name is the entry's claim; a rank said as the span served)
     # 合同-2 caught: c3's round (stop 60: a step a person says — 汪敬斋说… — nine telling pairs, none in the prose)
     # 位置-1 (侬阿姐刚刚在后门口寻侬) and 位置-3 (今朝高柜：蒋朝奉…) caught: P3's round (stop 60: a report of someone at a
     # place of here today by any act; a document's open role line, dated today by a word)
     # 持有-3 (当票单子 “梅花银簪一支，簪头缺一瓣，当户张阿桂，…”) caught: h16's round (stop 62: a record's list line names
     # a thing's owner by a role after it — the card holder pawned it; the row 当户 is this book's own, a fit)
     [("连贯-持有-1.md", "持有"),
      ("合同-5.md", "邵阿根的沙船提前开船回上海")],
     2),  # 4 -> 2: rk1's round (stop 60: 好-1's …站高柜的辰光，老汪还是朝奉 and 好-5's 我那辰光还是朝奉, a time gone by
    # any time noun)
    # a 1921 无锡 steam silk filature (惠泰丝厂) written blind at stop 60, an evaluation set: first run 2/15, 4/5, 4/5 and 1
    # false alarm, no good draft sent back; 5/15 with stop 60's rounds (rk1's ranks, T9's time; not tuned on it; its
    # README); a development set since stop 61.
    ("连续性-盲评四十八", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-1 (金宝做管车做了三年) caught: rk2's round (stop 61: the verb-copy span, 做R做了N年)
     # 状态-2 (夜班簿 “初六夜班，司炉周长根，…” for the dead) caught: RL1's round (stop 61: a role glued to a name in a
     # record headed by a bare day, the dead on a day since the death their card dates)
     # 时间-2 (上海朱先生明朝就到) and 时间-3 (阿爹出事才半个月) caught: T10's round (stop 61: a comer named by a titled
     # surname, a place of the book before it, is the one person of the book of that surname; months since a dated death
     # counted as days)
     # 位置-1 (你阿哥刚刚来账房替你领过工钱了), 位置-2 (戴金丝边眼镜的钱经理…从车间那头踱过来) and 状态-3 (三宝刚刚在煤堆边上…)
     # caught: RP1's round (stop 61: a card's letters at intervals make its place far; a report of a person of the cards
     # reaching a place of here today, read for the far and the dead and missing; walking in from a part of here)
     # 合同-5 (秦阿福带周阿巧到锅炉间后头看汽管爆开的旧裂口: the two together, the boiler house reached, the rupture never
     # written) caught: c4's round (stop 61: a led event A带B… whose act's object the prose never writes)
     # 持有-3 (“你阿爹买的那把梅花木梳，我替你锁在箱子里了”) caught: h16's round (stop 62: a thing put away for someone,
     # 我替/给/帮…收/锁/藏/存…, is the speaker's keeping; a fit of this book)
     [('连贯-状态-1.md', '状态'), ('连贯-位置-3.md', '位置')],
     # 泄密-4 (a letter read out, signed 阿哥，九月初三。) caught and its false alarm on 周阿巧, the reader, gone: m1 (stop 61:
     # one signature — the leak check's letter writer reads H13's LETTER_DATE, a row of stop 60 written before this book
     # was read: carried)
     0),
    # a 1953 阜新 open-pit coal mine's steam-shovel team written blind at stop 60, an evaluation set: first run 4/15, 3/5,
    # 5/5 and 1 false alarm, one good draft sent back; 5/15 with stop 60's rounds (rk1's ranks; not tuned on it; its
    # README); a development set since stop 61.
    ("连续性-盲评四十九", {"连贯": 15, "合同": 5, "泄密": 5},
     # 境界-1 (瞅他一眼：“你是副班长，…”) caught: rk2's round (stop 61: 你是R to the one the narration looks at)
     # 状态-3 (电话记录 “…接电话人：焦守田。” for the deaf man whose card says 不能接电话) caught: RL1's round (stop 61: a
     # post line of today's document naming someone the card bars from the post's act)
     # 时间-2 (矿务局的人后天就来盘炸药库了) caught: T10's round (stop 61: a body's people are the body, its party's dated
     # coming theirs)
     # 位置-1 (你哥晌午上食堂找你来着), 位置-2 (苗瘸子拄着拐从库房后头…过来了) and 位置-3 (哥今儿下了火车来看你) caught: RP1's
     # round (stop 61: as 四十八's)
     # 持有-1 (焦师傅摇摇头。他把那页撕下来…⏎他掏出那块…铜怀表) caught: H15's round (stop 61: a last sentence led on by a
     # pronoun carries the lead before it to H4's guard; 焦师傅 the cards' form, an antecedent of the 持有 readers)
     # 合同-5 (戴金城带吕长庚给汽铲换斗齿: the two clear coal under the shovel, no tooth changed) caught: c4's round (stop
     # 61: as 四十八's)
     # 持有-3 (拾到手电筒一只，…，失主戴金城: the card gives it to 柴秀兰) caught: h16's round (stop 62: a record's list
     # line names a thing's owner by a role after it — 当户, 失主, 寄存人 …; the row 失主 is this book's own, a fit)
     [('连贯-时间-1.md', '书内时间'), ('连贯-状态-2.md', '状态'), ('合同-3.md', '五道岭')],
     1),
    # a 1905 天津 大清邮政 post office written blind at stop 61, an evaluation set: first run 8/15, 4/5, 5/5 and 1 false
    # alarm, no good draft sent back; 11/15 with stop 61's rounds (RL1's role lines, RP1's reports here; not tuned on it;
    # its README); a development set since stop 62. 时间-1 (戴稽查，明天就到 on 九月十一, his coming dated 九月二十) caught:
    # t11's round (stop 62: a comer by surname and post, a comma before the day word)
    ("连续性-盲评五十", {"连贯": 15, "合同": 5, "泄密": 5},
     # c5's round (stop 62: a led act A领B… whose object is never written; a place only modifying a thing, 北京来的邮袋,
     # no longer asked): 合同-5 caught, 合同-3's false alarm gone
     # 持有-3 (条子 “今暂收信差郑福生随身牛皮护书一只，…”) caught: h16's round (stop 62: a record taking a thing from its
     # card holder, 今/兹 + 收/借到/扣留 + a role glued to the name; the receipt row is this book's own, a fit)
     # 位置-3 (a letter: 姐昨儿个回了天津, the far sister come back to the book's town) caught: RP2's round (stop 62: a
     # coming back to the place of here by its name, yesterday or today)
     # 境界-2 (a duty roster copied out in quotes: “东头第一台，司事冯五；…”) caught: rk3's round (stop 62: a rank glued
     # before a name in a roster written out, entries divided by ；/、, states the rank — a shape of thirteen books' rosters)
     [],
     0),
    # a 1982 army truck company snowed in at 沱沱河兵站 written blind at stop 61, an evaluation set: first run 6/15, 4/5, 2/5
    # and 4 false alarms, one good draft sent back; 7/15 with stop 61's rounds (RL1's role lines; not tuned on it; its
    # README); a development set since stop 62. 时间-2 (耿班长没了才一个礼拜, 47 days on) and 时间-3 (我们到沱沱河半个多月了,
    # a day after the company came) caught: t11's round (stop 62: a death's span in any unit; a span since the company's
    # dated arrival)
    ("连续性-盲评五十一", {"连贯": 15, "合同": 5, "泄密": 5},
     # 持有-3 (“你娘给你买的那把瘪了角的口琴，昨晚上我借去吹了两支歌，还在我挎包里”) caught: h16's round (stop 62: a
     # thing said as the topic, carried across one clause of the speaker's to their keeping place; a fit of this book)
     # 状态-1 (the snow-blind 高占魁 …爬进驾驶室，挂上倒挡，一把方向把车倒到了…) caught: h16's round (stop 62: 雪盲 a loss of
     # sight, steering a vehicle an act of the eyes; a fit of this book)
     # the false alarm on 泄密-5 (他看见刘满仓还睁着眼，手里攥着个口琴: read as 严振华's use) gone: h16's round (the one seen
     # doing something leads the clauses after)
     # 位置-1 (你爹刚才在兵站门口打听你) and 位置-3 (a notice: 今晚七点郑指导员在饭堂给二连上课) caught: RP2's round (stop 62:
     # the listener's one-character kin word; a time later today said first, a schedule; a card's dated coming up
     # (才上来) keeps its owner away until then; a letter counted alone, 隔些日子…寄一封来, and a place inside a far region)
     [('连贯-境界-3.md', '境界')],
     # c5's round (stop 62: a taught act whose thing and object are both unwritten is named as the event): 合同-5 caught,
     # its false alarm (喷灯 reported alone) gone
     # 好-1 (…开春以前还是驾驶员的时候…) and 好-4 (“高副班长，班长要讲啥事？”) no longer false alarms: rk3's round (stop
     # 62: a rank followed by the time it was held; a quote's vocative, then another's rank as the next clause's subject)
     # 位置-2 (指导员捏着那支…的红钢笔，坐在炉子边上…) caught by rk3's and RP2's rounds together (the clauses after a
     # bare post holding a thing are his; his dated coming up keeps him away)
     # 泄密-2 (a thought in 刘满仓's narration: 那个…韩老六), 泄密-4 (刘德贵's letter signed 爹，十一月八日。, read aloud: 叫韩老六的)
     # and 泄密-5 (严振华's narration: 那个叫才让的牧民) caught: lk1's round (stop 62: a gap's own person — the roster's, no
     # card, no public text — said alone by one outside the gap; the letter was already its writer's)
     0),
    # a 1909 张家口 telegraph office written blind at stop 62, an evaluation set: first run 7/15, 4/5, 5/5 and 7 false
    # alarms (1 on chapter 1), no good draft sent back; unchanged by stop 62's rounds (not tuned on it; its README); a
    # development set since stop 63.
    ("连续性-盲评五十二", {"连贯": 15, "合同": 5, "泄密": 5},
     [('连贯-境界-1.md', '境界'), ('连贯-持有-3.md', '持有'), ('连贯-状态-3.md', '状态'), ('连贯-位置-1.md', '位置'),
      ('连贯-位置-2.md', '位置'), ('连贯-位置-3.md', '位置'), ('连贯-时间-1.md', '书内时间'), ('连贯-时间-2.md', '书内时间'),
      ('合同-5.md', '郝六领乔振声上大境门城楼看张库线出口的头一根杆子')],
     7),
    # a 1987 哈尔滨 meat-processing plant written blind at stop 62, an evaluation set: first run 9/15, 4/5, 4/5 and 3
    # false alarms, one good draft sent back; unchanged by stop 62's rounds (not tuned on it; its README); a development
    # set since stop 63.
    ("连续性-盲评五十三", {"连贯": 15, "合同": 5, "泄密": 5},
     [('连贯-境界-3.md', '境界'), ('连贯-持有-2.md', '持有'), ('连贯-持有-3.md', '持有'), ('连贯-状态-1.md', '状态'),
      ('连贯-状态-3.md', '状态'), ('连贯-时间-3.md', '书内时间'), ('合同-5.md', '赵永年开冷藏车捎于春生去皇山公墓给于长河上坟'),
      ('泄密-4.md', '于春林')],
     2),  # 3 -> 2: fa1's round (stop 63, measured after its freeze: 泄密-2's 爸那把… — a possessor before 那+measure is no
    # pronoun's antecedent, a book none of its rows was written from)
    # a 1962 吴桥 acrobatic troupe written blind at stop 63, an evaluation set: first run 7/15, 4/5, 5/5 and no false
    # alarm; unchanged by stop 63's and stop 64's rounds (not tuned on it; its README); a development set since stop 64.
    ("连续性-盲评五十四", {"连贯": 15, "合同": 5, "泄密": 5},
     [('连贯-持有-1.md', '持有'), ('连贯-持有-2.md', '持有'), ('连贯-持有-3.md', '持有'), ('连贯-状态-2.md', '状态'),
      ('连贯-状态-3.md', '状态'), ('连贯-位置-1.md', '位置'), ('连贯-位置-2.md', '位置'), ('连贯-位置-3.md', '位置'),
      ('合同-5.md', '牛满仓赶着大车带韩铁生去河滩上遛熊')],
     0),
    # a 1933 宁波 volunteer fire brigade written blind at stop 63, an evaluation set: first run 4/15, 4/5, 5/5 and 7 false
    # alarms (1 on chapter 1), one good draft sent back; unchanged by stop 63's and stop 64's rounds (not tuned on it; its
    # README); a development set since stop 64.
    ("连续性-盲评五十五", {"连贯": 15, "合同": 5, "泄密": 5},
     [('连贯-境界-1.md', '境界'), ('连贯-持有-3.md', '持有'), ('连贯-状态-1.md', '状态'), ('连贯-状态-2.md', '状态'),
      ('连贯-状态-3.md', '状态'), ('连贯-位置-1.md', '位置'), ('连贯-位置-2.md', '位置'), ('连贯-位置-3.md', '位置'),
      ('连贯-时间-1.md', '书内时间'), ('连贯-时间-2.md', '书内时间'), ('连贯-时间-3.md', '书内时间'),
      ('合同-5.md', '林阿福撑水龙船带邬家明到月湖认各处取水的河埠头')],
     7),
])
def test_the_labelled_drafts_through_lw_story(folder: str, planted: dict[str, int], missed: list[tuple[str, str]],
                                              false_alarms: int) -> None:
    """The labelled sets scored through ``lw story check`` (figures in the plugin's README)."""
    result = score(Path(__file__).parent / "corpus" / folder)
    assert result.planted == planted
    assert result.missed == missed
    assert len(result.false_alarms) == false_alarms, result.false_alarms


def test_a_draft_told_in_the_first_person_is_its_point_of_view(book) -> None:
    """我 is the 视角 when the narration says 我 (outside quotes and what follows a colon): the
    contract finds 林晚 in it, and what 我 says is 林晚's (a leak)."""
    assert first_person({"视角": "林晚"}, "我推开门。“走吧。”", {"林晚": "林晚"}) == "林晚"
    assert first_person({"视角": "林晚"}, "林晚心想：我一定要走。“我走了。”", {"林晚": "林晚"}) is None
    assert first_person({}, "我推开门。", {}) is None
    draft = Draft("A", {"视角": "林晚", "推进承诺": ["P-001"]}, "我看着大长老。\n“灭门的血书，是你写的吧？”\n", 5)
    assert [f for f in contract_findings({"合同": ["林晚质问大长老"]}, draft, CheckContext.load(book)) if f.severity == ERROR] == []
    leaks = [f.message for f in check_draft(book, draft) if f.kind == "泄密"]
    assert any(m.startswith("林晚 不是 S-001 的知情人") for m in leaks), leaks


def test_a_rule_in_a_cards_text_is_text_not_the_end_of_its_front_matter() -> None:
    """A card whose free text has a ``---`` rule keeps the relations and gender words above it."""
    card = "---\n姓名: 陈守义\n---\n陈默的爷爷，退休教师。\n\n---\n\n住在江城老街。\n"
    assert [before.endswith("陈默") for before, _forms in relations(card)] == [True]
    assert "爷爷" in kin_forms(card) and gender_of(card, {"陈守义"}) == "他"


def test_one_keyword_that_names_nothing_gives_a_secret_away() -> None:
    """A gap's keyword that is no name (灭门) said alone is a leak; one that is a name (大长老)
    needs another keyword with it; the narration is held to the same rule."""
    secret = ("S-001", {"大长老"}, False, ["大长老", "灭门"])
    ctx = ctx_of({"林晚": "林晚", "大长老": "大长老"}, secrets=[secret])
    leaks = lambda text, pov=None: [f.message for f in leak_and_waste(ctx, text.split("\n"), 1, pov=pov)]
    assert leaks("林晚道：“当年是灭门。”") == ["林晚 不是 S-001 的知情人，却说出/想到了「灭门」"]
    assert leaks("林晚道：“大长老来了。”") == []
    assert leaks("林晚不知道，那一夜是灭门。", pov="林晚")[0].startswith("叙述（视角 林晚 不是知情人）说出了读者尚不知道的 S-001（灭门）")
    assert leaks("那一夜是灭门。")[0].startswith("叙述说出了读者尚不知道的 S-001（灭门）")  # no point of view to name
    assert leaks("大长老来了。", pov="林晚") == []
    ctx.public_words = frozenset({"灭门"})  # the book's public text says it: the massacre is known, not who did it
    assert leaks("林晚道：“当年是灭门。”") == []
    assert leaks("林晚道：“大长老那夜灭门。”") == ["林晚 不是 S-001 的知情人，却说出/想到了「大长老、灭门」"]


def test_beats_pronouns_and_the_cast_say_who_speaks() -> None:
    ctx = ctx_of({"林晚": "林晚", "大长老": "大长老", "云娘": "云娘"}, secrets=[SECRET])
    ctx.people = {"林晚", "大长老", "云娘"}
    said = lambda text, meta=None: [(v.speaker, v.words) for v in voices(ctx.for_draft(meta or {}), text.split("\n"))
                                    if v.speaker]
    # a beat led by a person between two parts of a quote, or before one, with no verb of saying
    assert said("林晚坐下。\n“那夜，”大长老朝门外看了一眼，“是灭门。”") == [("大长老", "那夜，"), ("大长老", "是灭门。")]
    assert said("林晚看着他，大长老叹了口气，“灭门。”") == [("大长老", "灭门。")]
    # 他/她's clause ending in a colon: the thought of the one it stands for
    assert said("林晚垂着眼。那声音敲得她心头一片雪亮：血书是假的。") == [("林晚", "血书是假的。")]
    # turn-taking picks among 在场: a paragraph naming 云娘 in a record does not make her speak
    assert said("名册上写着：云娘，亥时离开。\n“后来呢？”", {"在场": ["林晚", "大长老"]}) == []
    assert said("云娘放下茶杯。\n“后来呢？”", {"在场": ["林晚", "云娘"]}) == [("云娘", "后来呢？")]


def test_a_contract_line_whose_promise_fails_is_reported_once() -> None:
    found = errors(["P-001 兑付：救出云娘"], "林晚看着血书。", {"推进承诺": ["P-001"]})
    assert found == ["合同「P-001 兑付：救出云娘」要求 P-001 出现在草稿的兑付承诺里，但没有"]
    assert errors(["P-001 推进：救出云娘"], "林晚看着血书。", {"推进承诺": ["P-001"]}) == [
        "合同「P-001 推进：救出云娘」提到「云娘」，正文里没有（P-001 这一步也就没有写到）"]


def test_a_modern_thing_shown_by_its_looks_meets_the_contract() -> None:
    ctx = ctx_of({"林晚": "林晚"}, {"银壳怀表", "镀金钢笔"})
    assert errors(["银壳怀表在太阳底下一晃"], "银壳，表链是新换的，在太阳底下晃了一下眼。", ctx=ctx) == []
    assert errors(["镀金钢笔滚到地上"], "一支笔滚到脚边，笔帽上的镀金掉了一块。", ctx=ctx) == []
    assert errors(["银壳怀表在太阳底下一晃"], "表情僵了一下。", ctx=ctx) != []


# The evaluation sets, written blind and never tuned on: (set, planted, caught at least, false alarms at
# most) — each its latest run, in its README; nothing of their findings is ever shown.
BLIND_SETS = [
    ("连续性-盲评四", {"连贯": 5, "合同": 5, "泄密": 10}, {"连贯": 4, "合同": 5, "泄密": 8}, 2),  # a Song tea house (连贯 3 -> 4: stop 47's rounds)
    # a 1921 铅山 bamboo-paper mill (stop 64): first run on stop 63's checks 5/15, 5/5, 4/5 and 1 false alarm; unchanged
    # by stop 64's rounds (not tuned on it)
    ("连续性-盲评五十六", {"连贯": 15, "合同": 5, "泄密": 5}, {"连贯": 5, "合同": 5, "泄密": 4}, 1),
    # a 1983 lighthouse on an island off 舟山 (stop 64): first run on stop 63's checks 5/15, 4/5, 4/5 and 4 false alarms;
    # unchanged by stop 64's rounds (not tuned on it)
    ("连续性-盲评五十七", {"连贯": 15, "合同": 5, "泄密": 5}, {"连贯": 5, "合同": 4, "泄密": 4}, 4),
]


@pytest.mark.parametrize("folder, planted, caught, false_alarms", BLIND_SETS)
def test_the_blind_set_is_held_to_its_first_run_without_showing_it(folder: str, planted: dict[str, int],
                                                                   caught: dict[str, int], false_alarms: int) -> None:
    """An evaluation set is written by someone who never read the checks, and nobody tunes on it: only
    its counts are held (its runs, in its README) and no finding of it reaches a failure report."""
    result = score(Path(__file__).parent / "corpus" / folder)
    got, was, alarms = dict(result.caught), dict(result.planted), len(result.false_alarms)
    del result  # nothing of the blind set's answers reaches a failure report
    assert was == planted
    assert all(got.get(kind, 0) >= n for kind, n in caught.items()), "below its last run"
    assert alarms <= false_alarms, "more false alarms than its last run"


CARDS = {  # a fishing family, none of the labelled sets' forms
    "林小川": "---\n姓名: 林小川\n---\n## 关系\n林大河和周秀英的儿子：管父亲叫“阿大”，叫母亲“妈”。郑铁山是父亲的师兄，他叫“山伯”；秦二他叫“二哥”。\n",
    "周秀英": "---\n姓名: 周秀英\n---\n## 关系\n林大河的妻子，林小川的母亲（叫儿子“川娃”）。郑铁山叫她“嫂子”，码头上的人叫她“周婶”。\n",
    "郑铁山": "---\n姓名: 郑铁山\n---\n## 关系\n林大河的师兄。林小川叫他“山伯”，他叫林小川“川子”。秦二是他带的徒弟，叫他“师傅”。\n",
    "林大河": "---\n姓名: 林大河\n---\n## 关系\n周秀英的丈夫，林小川的父亲。\n",
    "秦二": "---\n姓名: 秦二\n---\n## 关系\n郑铁山带的徒弟。全书以第一人称“我”叙述。\n",
}


def test_the_cards_say_in_quotes_what_one_calls_another() -> None:
    """A card's 叫他“…” is read for who calls whom: a name, 他/她, a relative's word, a group or
    the sentence's own subject on each side."""
    aliases = {n: n for n in CARDS}
    book = address_book(CARDS, aliases, relatives(CARDS, aliases), {n: "他" for n in CARDS} | {"周秀英": "她"})
    assert book["林小川"] == {"阿大": "林大河", "妈": "周秀英", "山伯": "郑铁山", "二哥": "秦二"}  # 管…叫; 秦二他叫
    assert book["周秀英"] == {"川娃": "林小川"}
    assert book["郑铁山"] == {"嫂子": "周秀英", "川子": "林小川"}
    assert book["秦二"] == {"师傅": "郑铁山"}  # 秦二是他带的徒弟，叫他: 秦二 calls, not 郑铁山
    assert book[""] == {"周婶": "周秀英"}  # 第一人称“我” calls no one


def test_a_person_called_as_the_point_of_view_calls_them_meets_the_contract() -> None:
    """The narration speaks as its 视角: 林小川's chapter calls his mother 妈 (a word of its own,
    not 姑妈's), 郑铁山's calls her 嫂子; a group's 周婶 and another's 川子 (of 林小川's own name)
    hold in any chapter, another's 嫂子 does not."""
    aliases = {n: n for n in CARDS}
    ctx = ctx_of(aliases)
    ctx.called = address_book(CARDS, aliases, relatives(CARDS, aliases), {n: "他" for n in CARDS} | {"周秀英": "她"})
    son, master = {"视角": "林小川"}, {"视角": "郑铁山"}
    assert errors(["周秀英出场"], "妈端着一盆鱼出来。", son, ctx) == []
    assert errors(["郑铁山出场"], "山伯蹲在船头补网。", son, ctx) == []
    assert errors(["周秀英出场"], "嫂子端着一盆鱼出来。", master, ctx) == []
    assert errors(["周秀英出场"], "周婶端着一盆鱼出来。", master, ctx) == []
    assert errors(["林小川出海"], "川子把船推下了水。", master, ctx) == []
    missing = ["合同「周秀英出场」提到「周秀英」，正文里没有"]
    assert errors(["周秀英出场"], "姑妈端着一盆鱼出来。", son, ctx) == missing  # 姑妈 is no 妈
    assert errors(["周秀英出场"], "妈端着一盆鱼出来。", master, ctx) == missing  # 郑铁山 does not call her 妈
    assert errors(["周秀英出场"], "码头上空无一人，林小川一个人收网。", son, ctx) == missing
    assert errors(["周秀英出场"], "嫂子端着一盆鱼出来。", son, ctx) == missing  # 郑铁山's word, anyone's sister-in-law here


def test_a_thing_by_the_shorter_name_of_the_one_the_story_knows_meets_the_contract() -> None:
    """那面古镜 is 青铜古镜 when the book knows no other 古镜; 古镜 alone is asked; 一面古镜 is a new
    mirror, not the one; two mirrors make 那面古镜 tell neither."""
    ctx = ctx_of({"林晚": "林晚"}, {"青铜古镜", "乌木拐杖"})
    found = lambda line, body: [f.message for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx.for_draft({}))]
    assert found("林晚照青铜古镜", "林晚把那面古镜翻过来，背面生满了铜绿。") == []  # met: no warning either
    assert found("林晚拄着乌木拐杖", "林晚拄着那根拐杖下了台阶。") == []
    asked = contract_findings({"合同": ["林晚照青铜古镜"]}, Draft("A", {}, "林晚说古镜碎了。", 5), ctx.for_draft({}))
    assert [f.severity for f in asked] == [WARN]  # the shorter name alone: asked, not refused
    assert errors(["林晚照青铜古镜"], "林晚在集上买了一面古镜。", ctx=ctx) != []  # a new one, not the one
    assert errors(["林晚照青铜古镜"], "林晚把铜盆里的水泼了。", ctx=ctx) != []
    two = ctx_of({"林晚": "林晚"}, {"青铜古镜", "八卦古镜"})
    assert errors(["林晚照青铜古镜"], "林晚把那面古镜翻过来。", ctx=two) != []


def test_a_work_given_by_its_words_not_its_title_is_asked() -> None:
    """A line's 《山海经》 the prose reads out in quotes without the title: asked (no table knows a
    work's words); prose that performs nothing, or a term in 「」, still lacks it."""
    ask = lambda line, body: [f.severity for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5),
                                                                    ctx_of({"林晚": "林晚"}).for_draft({}))]
    assert ask("林晚在灯下读《山海经》", "林晚翻开书，轻声念道：“南山经之首曰䧿山。”") == [WARN]
    assert ask("林晚在灯下读《山海经》", "林晚在灯下读《山海经》。") == []
    assert ask("林晚在灯下读《山海经》", "林晚在灯下缝衣裳，“针脚再密些。”") == [ERROR]
    assert ask("林晚在灯下读「山海经」", "林晚翻开书，轻声念道：“南山经之首曰䧿山。”") == [ERROR]


def test_a_shop_told_through_its_keeper_is_asked_not_refused() -> None:
    """A card that makes its character a place's keeper (码头边聚福楼的老板): a line about the place
    the prose tells through that keeper is asked; a keeper the prose never names leaves it missing;
    the keeper is met as 聚福楼的老板, asked when the prose names the place and 老板 apart."""
    cards = {"钱掌柜": "---\n姓名: 钱掌柜\n---\n## 设定\n码头边聚福楼的老板，五十岁，算盘打得精。\n",
             "林晚": "---\n姓名: 林晚\n---\n## 设定\n聚福楼的常客。\n"}
    keepers = keepers_of(cards, {"聚福楼", "码头"})
    assert keepers == {"聚福楼": frozenset({"钱掌柜"})}  # 聚福楼的常客 keeps nothing
    ctx = ctx_of({"林晚": "林晚", "钱掌柜": "钱掌柜", "聚福楼": "聚福楼"})
    ctx.keepers = keepers
    ask = lambda body: [f.severity for f in contract_findings({"合同": ["林晚收下聚福楼赔的银子"]}, Draft("A", {}, body, 5),
                                                             ctx.for_draft({}))]
    assert ask("钱掌柜把二两银子推过来，林晚收下了。") == [WARN]
    assert ask("林晚在街上捡了二两银子。") == [ERROR]
    keeper = lambda body: [f.severity for f in contract_findings({"合同": ["钱掌柜出场"]}, Draft("A", {}, body, 5),
                                                                ctx.for_draft({}))]
    assert keeper("聚福楼的老板从柜台后头探出头来。") == []  # the place's only keeper, named as such
    assert keeper("林晚进了聚福楼。跑堂的说老板还没起。") == [WARN]  # the place and the word apart: asked
    assert keeper("林晚进了聚福楼，跑堂的端上一碗面。") == [ERROR]


def test_the_point_of_views_relative_goes_by_the_bare_word() -> None:
    """A card that says 林小川的母亲 without a quoted form: 娘 in 林小川's chapter is her (a word of
    its own); in another's chapter, or as 姑娘, it is not."""
    cards = {"林小川": "---\n姓名: 林小川\n---\n打鱼的后生。\n", "周秀英": "---\n姓名: 周秀英\n---\n林小川的母亲。\n",
             "秦二": "---\n姓名: 秦二\n---\n船工。\n"}
    aliases = {n: n for n in cards}
    ctx = ctx_of(aliases)
    ctx.kin_of_pov = relatives(cards, aliases)
    missing = ["合同「周秀英出场」提到「周秀英」，正文里没有"]
    assert errors(["周秀英出场"], "娘端着一盆鱼出来。", {"视角": "林小川"}, ctx) == []
    assert errors(["周秀英出场"], "娘端着一盆鱼出来。", {"视角": "秦二"}, ctx) == missing
    assert errors(["周秀英出场"], "小姑娘端着一盆鱼出来。", {"视角": "林小川"}, ctx) == missing


def test_a_promises_plan_makes_no_secrets_keyword_common_knowledge(book) -> None:
    """A promise's 兑付计划 is the author's plan of what the book will reveal (揭开血书的来历): a secret's keyword said there
    is no word the world already knows, so someone outside the secret saying it is still a leak (U11, stop 54: 安全销 in
    a promise's plan silenced three planted leaks); a promise's title and 描述 name the question the reader holds (the
    sample's 灭门真凶: the massacre is known), and the world's own text (世界观) makes a keyword public too."""
    assert CheckContext.load(book).public_words >= {"灭门"} and "血书" not in CheckContext.load(book).public_words
    promise = next(p for p in book.promises() if p.title == "旧约").path
    promise.write_text(promise.read_text(encoding="utf-8").replace("第七卷宗门大会当众揭穿。", "第七卷揭开血书的来历。"),
                       encoding="utf-8")
    assert "血书的来历" in next(p for p in book.promises() if p.title == "旧约").section("兑付计划")
    assert "血书" not in CheckContext.load(book).public_words
    world = book.p(L.世界观)
    world.write_text(world.read_text(encoding="utf-8") + "\n北境人人都见过那封血书。\n", encoding="utf-8")
    assert "血书" in CheckContext.load(book).public_words
