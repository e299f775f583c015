"""The contract check's seventh round (issue 30).

- One reading of the contract: settle's own recheck (``lw story settle`` after an interrupted
  accept) reads the contract through the same context as ``lw story check``
  (:meth:`CheckContext.load`), so a card's post after its surname (王站长 for a card whose text
  makes 王建国 the station's 站长) meets a contract line there too, and a line not met is refused.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.cli import story
from lw_storyrepo.samples import CONTRACT, DRAFT, to_reviewed

DIRECTOR = "---\n姓名: 王建国\n状态: 在世\n---\n## 设定\n县农机站的站长，管着全站的公章。\n"


def lw(book, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(story, ["--locale", "zh", *args, "-C", str(book.root)])
    assert (result.exit_code == 0) == ok, result.output
    return result.output


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
