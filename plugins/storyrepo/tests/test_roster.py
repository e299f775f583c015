"""The roster (名册, spec §4.5) catches every name the book uses: the people of 在场 are
registered when their chapter settles (they counted as known to the checks, so they never
reached the roster and health called them orphans), and a card's 别名 and its roster row stay in
step — at settle, at a retcon, and through every structured edit."""

from __future__ import annotations

from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.cli import story
from lw_storyrepo.health import health_report
from lw_storyrepo.samples import DRAFT, to_reviewed


def lw(book, *args: str) -> str:
    result = CliRunner().invoke(story, ["--locale", "zh", *args, "-C", str(book.root)], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def roster_rows(book) -> dict[str, list[str]]:
    return {row["正名"]: [ "、".join(row["别名"]), row["类型"], str(row["首现章"] or "")] for row in book.roster()}


def test_present_names_are_registered_at_settle(book) -> None:
    draft = DRAFT.replace("在场:\n  - 林晚\n  - 神秘老者\n", "在场:\n  - 林晚\n  - 神秘老者\n  - 白衣人\n  - 晚晚\n")
    to_reviewed(book, draft)
    lw(book, "accept")
    rows = roster_rows(book)
    assert rows["白衣人"] == ["", "人物", "1"]
    assert "晚晚" not in rows and "神秘老者" not in rows  # an alias, a card: known already
    assert "名册+白衣人" in book.git.out("log", "-1", "--format=%B")
    report = book.p(health_report(book)).read_text(encoding="utf-8")
    assert "不在名册/角色卡" not in report


def test_card_aliases_are_synced_to_the_roster(book) -> None:
    draft = DRAFT.replace("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - 林晚.别名+小师妹\n")
    to_reviewed(book, draft)
    lw(book, "accept")
    assert roster_rows(book)["林晚"][0] == "晚晚、小师妹"
    assert "名册别名同步：林晚" in book.git.out("log", "-1", "--format=%B")
    lw(book, "entity", "alias", "林晚", "阿晚")
    assert roster_rows(book)["林晚"][0] == "晚晚、小师妹、阿晚"
    lw(book, "character", "set", "林晚", "别名", "晚晚", "--op", "-")
    assert roster_rows(book)["林晚"][0] == "小师妹、阿晚"
    assert book.characters()["林晚"]["别名"] == ["小师妹", "阿晚"]


def test_a_retcon_that_adds_an_alias_syncs_the_roster(book) -> None:
    to_reviewed(book)
    lw(book, "accept")
    path = book.p("定稿/正文/0001-北境的雪.md")
    path.write_text(path.read_text(encoding="utf-8").replace("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - 林晚.别名+雪儿\n"),
                    encoding="utf-8")
    lw(book, "retcon", "1", "--原因", "补别名", "-y")
    assert roster_rows(book)["林晚"][0] == "晚晚、雪儿"


def test_settle_alone_registers_present_newcomers_but_not_aliases(book) -> None:
    """``lw story settle`` (an accept whose commit failed, retried) plans without the checks'
    context: a card's alias in 在场 is still no newcomer."""
    from lw_storyrepo.workspace import require_state, save_state

    draft = DRAFT.replace("在场:\n  - 林晚\n  - 神秘老者\n", "在场:\n  - 晚晚\n  - 白衣人\n")
    to_reviewed(book, draft)
    state = require_state(book)
    state["阶段"] = "accepted"
    save_state(book, state)
    lw(book, "settle")
    rows = roster_rows(book)
    assert "白衣人" in rows and "晚晚" not in rows and "林晚" not in rows
