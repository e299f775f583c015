"""The contract check's seventh round (issue 30).

- One reading of the contract: settle's own recheck (``lw story settle`` after an interrupted
  accept) reads the contract through the same context as ``lw story check``
  (:meth:`CheckContext.load`), so a card's post after its surname (王站长 for a card whose text
  makes 王建国 the station's 站长) meets a contract line there too, and a line not met is refused.
- An event of the contract that hands over something no name of the book (a task, a place on a
  list: 把育种的活派给李春生) is a warning when the prose writes none of its telling words — the
  pairs of characters the book's own text does not hold already (弟子 in a sect tells nothing).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings
from lw_storyrepo.cli import story
from lw_storyrepo.drafts import Draft
from lw_storyrepo.samples import CONTRACT, DRAFT, to_reviewed

from story_cli import lw

DIRECTOR = "---\n姓名: 王建国\n状态: 在世\n---\n## 设定\n县农机站的站长，管着全站的公章。\n"


def _accepted_but_not_settled(book, monkeypatch: pytest.MonkeyPatch, draft: str) -> None:
    """A book whose chapter 1 the author accepted, the settle cut short after it was planned."""
    book.p(f"{L.角色}/王建国.md").write_text(DIRECTOR, encoding="utf-8")
    book.git.commit_paths([f"{L.角色}/王建国.md"], "fix(设定): 王建国\n")
    to_reviewed(book, draft, contract=[*CONTRACT, "王建国拦住林晚"])
    monkeypatch.setenv("LW_STORY_FAULT", "planned")
    CliRunner().invoke(story, ["--locale", "zh", "accept", "-C", str(book.root)])
    monkeypatch.delenv("LW_STORY_FAULT")
    assert book.chapter_path(1) is None


def test_settle_reads_a_cards_post_as_the_draft_check_does(book, monkeypatch: pytest.MonkeyPatch) -> None:
    _accepted_but_not_settled(book, monkeypatch, DRAFT + "王站长夹着公文包，在站门口拦住了她。\n")
    lw(book, "settle")
    assert book.chapter_path(1) is not None


def test_settle_refuses_a_contract_line_the_draft_does_not_meet(book, monkeypatch: pytest.MonkeyPatch) -> None:
    _accepted_but_not_settled(book, monkeypatch, DRAFT + "王站长夹着公文包，在站门口拦住了她。\n")
    path = book.p(L.draft_file("A"))
    # the author's hand edit after the accept: 李站长 is someone else's post, 王建国 is gone from the prose
    path.write_text(path.read_text(encoding="utf-8").replace("王站长", "李站长"), encoding="utf-8")
    out = lw(book, "settle", ok=False)
    assert "合同「王建国拦住林晚」提到「王建国」，正文里没有" in out
    assert book.chapter_path(1) is None


# --- an event that never happens ------------------------------------------------------------------------------


def _ctx(book_text: str = "", items: set[str] | None = None) -> CheckContext:
    people = {"王建国": "王建国", "王场长": "王建国", "李春生": "李春生", "老周": "周海生", "周海生": "周海生",
              "林海": "林海", "张老师": "张丽", "张丽": "张丽", "赵小川": "赵小川"}
    return CheckContext(people, [], [], [], 0, set(people), items or set(), book_text=book_text)


def _found(line: str, body: str, ctx: CheckContext) -> list[tuple[str, str]]:
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)]


def test_a_task_handed_over_must_be_written() -> None:
    farm = "王场长把今年育种的活派给李春生"
    told = "王场长把育种站的钥匙往桌上一放：“今年这摊，你来管。”李春生愣了愣，接了过来。"
    untold = "王场长把李春生叫到地头，骂他麦田里的草又没拔干净。李春生低着头，一声不吭。"
    assert _found(farm, told, _ctx()) == []
    assert _found(farm, untold, _ctx()) == [
        (WARN, f"合同里的事件「{farm}」正文里找不到：要交出的「今年育种的活」一个字眼也没有写到，请确认这件事发生了")]
    yard = "老周把新船下水那天剪彩的差事让给林海"
    assert _found(yard, "老周摆摆手：“剪彩？我这张老脸就不去了，林海，你上。”", _ctx()) == []
    assert [s for s, _m in _found(yard, "老周和林海在船台底下查了一下午焊缝。", _ctx())] == [WARN]
    # a relative handed over goes by any word (丫头, 闺女): nothing to tell, nothing said
    assert _found("老周把女儿托付给林海", "老周拍拍林海的肩膀：“丫头以后就跟着你学焊工了。”", _ctx()) == []


def test_words_the_book_uses_everywhere_tell_nothing() -> None:
    """A handed-over thing whose every pair of characters the book's own text holds: the check
    cannot tell the event from the book's talk, and says nothing; a thing the book knows by name
    goes by the held-things rule, not this one."""
    line = "王场长把今年育种的活派给李春生"
    untold = "王场长把李春生叫到地头，骂他麦田里的草又没拔干净。"
    assert _found(line, untold, _ctx(book_text="农场今年育种的计划")) == []
    office = "张老师把教室钥匙交给赵小川"
    ctx = _ctx(items={"教室钥匙"})
    assert [m for _s, m in _found(office, "张老师把教室钥匙交给赵小川。", ctx) if "事件" in m] == []
    assert [s for s, _m in _found(office, "张老师和赵小川说了几句话。", ctx)] == [ERROR]  # the key itself is missing
    # its kind written is enough, though the book's text holds it (库房 and 钥匙 are the book's words, 房钥 is none)
    line = "张老师把库房钥匙交给赵小川"
    assert _found(line, "张老师把钥匙往赵小川手里一塞。", _ctx(book_text="学校的库房，库房的钥匙")) == []
    assert [s for s, _m in _found(line, "张老师让赵小川去扫操场。", _ctx(book_text="学校的库房，库房的钥匙"))] == [WARN]


# --- the address book does not guess a gender -----------------------------------------------------------------


def test_a_card_without_a_gender_reads_nothing_from_he_calls_her() -> None:
    """他叫她“…” on a card that says nothing of its character's gender: either may be the caller,
    so the address book reads no one (it guessed the card's character before); with a gender
    the card's character is the one whose pronoun it is."""
    from lw_storyrepo.checks import relatives
    from lw_storyrepo.kinship import address_book

    cards = {"许文": "---\n姓名: 许文\n---\n## 设定\n设计院的绘图员。刘敏是科里的老人，他叫她“刘姐”。\n",
             "刘敏": "---\n姓名: 刘敏\n---\n## 设定\n设计院的老技术员。\n"}
    aliases = {n: n for n in cards}
    unsaid = address_book(cards, aliases, relatives(cards, aliases), {})
    assert "刘姐" not in unsaid.get("许文", {}) and "刘姐" not in unsaid.get("刘敏", {})
    he = address_book(cards, aliases, relatives(cards, aliases), {"许文": "他"})
    assert he["许文"] == {"刘姐": "刘敏"}
    she = address_book(cards, aliases, relatives(cards, aliases), {"许文": "她"})
    assert she["刘敏"] == {"刘姐": "许文"}  # 她 is 许文: 刘敏 (他) calls her so
