"""A retcon of a settled chapter carries what it changes through (spec §9: 设定/承诺同步).

The chapter's front matter records what its settle did (设定变更, 一句话事件, 在场, the
promise moves); a retcon diffs the old front matter against the new one and syncs each
difference in the same commit: the setting lines into the character cards and info gaps
(the old line undone, the new one applied, as settle applies lines), the timeline row, the
promises. Each field has its test; one retcon changes several at once; the commit is all or
nothing under injected faults, as the settle's is.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from lw_storyrepo import atomic, edits, handedits, verdict
from lw_storyrepo import layout as R
from lw_storyrepo.fixtures import dir_snapshot, git_state, make_book, tree_snapshot
from lw_storyrepo.samples import DRAFT, to_reviewed
from lwcore.errors import LwError

CH1 = "定稿/正文/0001-北境的雪.md"
LIN = f"{R.角色}/林晚.md"
S1 = f"{R.信息差}/S-001-灭门真凶.md"
S2 = f"{R.信息差}/S-002-青霜剑来历.md"


def _read(book, rel):
    return book.p(rel).read_text(encoding="utf-8")


def _settled(book, draft=DRAFT):
    to_reviewed(book, draft=draft)
    verdict.accept(book)


def _edit(book, rel, *pairs):
    """Replace text in a file, each (old, new) pair exactly once."""
    text = _read(book, rel)
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    book.p(rel).write_text(text, encoding="utf-8")


def _retcon(book, *pairs, reason="改设定"):
    _edit(book, CH1, *pairs)
    head = book.git.head()
    handedits.retcon(book, 1, reason)
    assert book.git.out("rev-parse", "HEAD~1").strip() == head
    assert book.git.out("status", "--porcelain", "-uall") == ""
    return book.git.out("log", "-1", "--format=%B").rstrip("\n") + "\n"


def _files(book):
    return set(book.git.out("show", "--name-only", "--format=", "HEAD").split())


def _second_chapter(book, lines):
    """Settle chapter 2 with the setting-change ``lines``."""
    draft = ("---\n标题: 回山\n视角: 林晚\n书内时间: 大历1023年冬月初九\n推进承诺:\n  - P-001\n推进说明:\n  - P-001：林晚回山\n"
             "设定变更:\n" + "".join(f"  - {x}\n" for x in lines) + "一句话事件: 林晚回到青云宗\n在场:\n  - 林晚\n---\n"
             "林晚回到青云宗，山门外落了一层薄雪。\n她在石阶上站了很久，才推门进去。\n院里的梅树开了，风一吹，花瓣落在肩头。\n")
    to_reviewed(book, draft=draft, contract=["P-001 推进：林晚回山"], new_promise=False)
    verdict.accept(book)


# --- settle records what the retcon diffs --------------------------------------------------------------


def test_the_settled_chapter_records_its_setting_changes_event_and_presence(book):
    _settled(book)
    meta, _ = book.chapter(1)
    assert meta["设定变更"] == ["林晚.位置=北境雪原", "林晚.持有+玄阶令牌", "S-001.知情人+林晚"]
    assert meta["一句话事件"] == "林晚于北境得血书" and meta["在场"] == ["林晚", "神秘老者"]


# --- 设定: each kind of line ----------------------------------------------------------------------------


def test_a_changed_value_line_changes_the_card(book):
    _settled(book)
    message = _retcon(book, ("  - 林晚.位置=北境雪原\n", "  - 林晚.位置=北境冰原\n"), reason="雪原改冰原")
    assert book.characters()["林晚"]["位置"] == "北境冰原"
    assert message == ("retcon(1): 雪原改冰原\n\n文件: 定稿/正文/0001-北境的雪.md\n"
                       "同步: 林晚.位置=北境冰原\n")
    assert _files(book) == {CH1, LIN}


def test_a_removed_value_line_puts_the_earlier_value_back(book):
    _settled(book)
    _retcon(book, ("  - 林晚.位置=北境雪原\n", ""))
    assert book.characters()["林晚"]["位置"] == "青云宗"  # as before chapter 1 was settled
    assert "星座: 天蝎   # 作者自定义字段" in _read(book, LIN)  # the author's field and comment stay


def test_a_removed_value_line_on_a_field_the_card_did_not_have_removes_the_field(book):
    _settled(book, DRAFT.replace("  - 林晚.位置=北境雪原\n", "  - 林晚.境界=筑基七层\n"))
    assert book.characters()["林晚"]["境界"] == "筑基七层"
    _retcon(book, ("  - 林晚.境界=筑基七层\n", ""))
    assert "境界" not in book.characters()["林晚"]


def test_a_removed_add_line_takes_the_item_out_and_a_new_one_puts_its_item_in(book):
    _settled(book)
    message = _retcon(book, ("  - 林晚.持有+玄阶令牌\n", "  - 林晚.持有+青铜镜\n"))
    assert book.characters()["林晚"]["持有"] == ["青霜剑", "青铜镜"]
    assert "同步: 撤销 林晚.持有+玄阶令牌; 林晚.持有+青铜镜\n" in message


def test_undoing_an_add_keeps_an_item_the_card_held_before_the_chapter(book):
    _settled(book, DRAFT.replace("  - 林晚.持有+玄阶令牌\n", "  - 林晚.持有+玄阶令牌\n  - 林晚.持有+青霜剑\n"))
    _retcon(book, ("  - 林晚.持有+青霜剑\n", ""))
    assert book.characters()["林晚"]["持有"] == ["青霜剑", "玄阶令牌"]


def test_undoing_a_remove_line_puts_the_item_back(book):
    _settled(book, DRAFT.replace("  - 林晚.持有+玄阶令牌\n", "  - 林晚.持有-青霜剑\n"))
    assert "持有" not in book.characters()["林晚"] or not book.characters()["林晚"]["持有"]
    _retcon(book, ("  - 林晚.持有-青霜剑\n", ""))
    assert book.characters()["林晚"]["持有"] == ["青霜剑"]


def test_info_gap_knowers_follow_the_retcon(book):
    _settled(book)
    _retcon(book, ("  - S-001.知情人+林晚\n", "  - S-001.知情人+神秘老者\n"))
    assert book.secret("S-001").meta["知情人"] == ["大长老", "神秘老者"]
    assert S1 in _files(book)


def test_a_yes_no_field_of_an_info_gap_is_put_back(book):
    _settled(book, DRAFT.replace("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - S-001.读者已知=是\n"))
    assert book.secret("S-001").meta["读者已知"] is True
    _retcon(book, ("  - S-001.读者已知=是\n", ""))
    assert book.secret("S-001").meta["读者已知"] is False


def test_a_new_line_naming_a_new_character_makes_the_card_and_the_roster_row(book):
    _settled(book)
    message = _retcon(book, ("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - 沈砚.位置=北境雪原\n"))
    assert book.characters()["沈砚"] == {"姓名": "沈砚", "最后变更章": 1, "位置": "北境雪原"}
    assert "| 沈砚 |  | 人物 | 1 |" in _read(book, R.名册)
    assert "名册+沈砚" in message
    assert _files(book) == {CH1, f"{R.角色}/沈砚.md", R.名册}


def test_a_later_chapter_that_changed_the_same_field_wins(book):
    _settled(book)
    _second_chapter(book, ["林晚.位置=青云宗后山"])
    message = _retcon(book, ("  - 林晚.位置=北境雪原\n", "  - 林晚.位置=北境冰原\n"))
    lin = book.characters()["林晚"]
    assert lin["位置"] == "青云宗后山" and lin["最后变更章"] == 2  # a retcon never lowers the stamp
    assert "林晚.位置=北境冰原 未同步（第2章又改过）" in message
    _retcon(book, ("  - 林晚.持有+玄阶令牌\n", ""))  # ... while what chapter 2 did not touch is undone
    assert book.characters()["林晚"]["持有"] == ["青霜剑"]


def test_a_value_changed_by_hand_since_is_kept(book):
    _settled(book)
    edits.move_character(book, "林晚", "天机阁")
    message = _retcon(book, ("  - 林晚.位置=北境雪原\n", ""))
    assert book.characters()["林晚"]["位置"] == "天机阁"
    assert "撤销 林晚.位置=北境雪原 未同步（这个值后来改过）" in message


def test_a_line_that_does_not_apply_is_refused_located_and_nothing_changes(book):
    _settled(book)
    _edit(book, CH1, ("  - 林晚.持有+玄阶令牌\n", "  - 林晚.持有-不存在的剑\n"))
    before, state = tree_snapshot(book.root), git_state(book)
    with pytest.raises(LwError, match="不存在的剑") as info:
        handedits.retcon(book, 1, "去掉令牌")
    assert info.value.file == CH1 and info.value.line == _read(book, CH1).split("\n").index("  - 林晚.持有-不存在的剑") + 1
    assert tree_snapshot(book.root) == before and git_state(book) == state


def test_removing_a_value_line_needs_the_history_of_the_chapter(tmp_path):
    """A book whose chapters have no ch(N) commit (generated, migrated) cannot say what a value
    was before the chapter: a new value replaces it, but a removal is refused."""
    book = make_book(tmp_path / "书", chapters=2, promises=3, characters=3, secrets=1, words=60)
    name = sorted(book.characters())[0]
    rel = book.rel(book.chapter_path(1))
    _edit(book, rel, ("合同:\n", f"设定变更:\n  - {name}.位置=雪原\n合同:\n"))
    handedits.retcon(book, 1, "补记设定")
    assert book.characters()[name]["位置"] == "雪原"
    _edit(book, rel, (f"  - {name}.位置=雪原\n", f"  - {name}.位置=冰原\n"))
    handedits.retcon(book, 1, "改值")
    assert book.characters()[name]["位置"] == "冰原"
    _edit(book, rel, (f"设定变更:\n  - {name}.位置=冰原\n", ""))
    with pytest.raises(LwError, match=r"git 历史里找不到 ch\(1\) 提交"):
        handedits.retcon(book, 1, "删掉")


# --- the timeline: 一句话事件, 在场, 书内时间 ------------------------------------------------------------


def _row(book, n=1):
    return next(r for r in book.timeline() if r["章"] == n)


def test_the_event_follows_the_retcon(book):
    _settled(book)
    message = _retcon(book, ("一句话事件: 林晚于北境得血书", "一句话事件: 林晚于冰原得血书"))
    assert _row(book)["事件"] == "林晚于冰原得血书"
    assert "时间线 1.一句话事件=林晚于冰原得血书" in message and _files(book) == {CH1, R.时间线}


def test_presence_follows_the_retcon(book):
    _settled(book)
    _retcon(book, ("  - 神秘老者\n---", "  - 大长老\n---"))
    assert _row(book)["在场"] == ["林晚", "大长老"]


def test_book_time_follows_the_retcon(book):
    _settled(book)
    _retcon(book, ("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五"))
    assert _row(book)["书内时间"] == "大历1023年冬月初五"


def test_a_title_the_event_defaults_to_follows_but_a_corrected_row_stays(book):
    _settled(book, DRAFT.replace("一句话事件: 林晚于北境得血书\n", ""))
    assert _row(book)["事件"] == "北境的雪"
    _retcon(book, ("标题: 北境的雪", "标题: 雪夜"))
    assert _row(book)["事件"] == "雪夜" and book.chapter_path(1).name == "0001-雪夜.md"
    edits.set_timeline(book, 1, "一句话事件", "林晚雪夜得书")  # the author's own correction of the row
    _edit(book, "定稿/正文/0001-雪夜.md", ("标题: 雪夜", "标题: 北境雪夜"))
    handedits.retcon(book, 1, "再改题")
    assert _row(book)["事件"] == "林晚雪夜得书"


def test_a_chapter_missing_from_the_timeline_gets_its_row_in_order(book):
    _settled(book)
    _second_chapter(book, ["林晚.位置=青云宗"])
    text = _read(book, R.时间线)
    book.p(R.时间线).write_text("\n".join(x for x in text.split("\n") if not x.startswith("| 1 |")), encoding="utf-8")
    book.git.commit_paths([R.时间线], "fix(设定): 时间线\n")
    _retcon(book, ("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五"))
    assert [(r["章"], r["书内时间"]) for r in book.timeline()] == [(1, "大历1023年冬月初五"), (2, "大历1023年冬月初九")]


# --- several at once, one commit -------------------------------------------------------------------------


def test_one_retcon_changing_every_field_syncs_all_of_them_in_one_commit(book):
    _settled(book)
    message = _retcon(
        book,
        ("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五"),
        ("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n  - P-002\n"),
        ("  - 林晚.位置=北境雪原\n  - 林晚.持有+玄阶令牌\n  - S-001.知情人+林晚\n",
         "  - 林晚.位置=北境冰原\n  - S-001.知情人+林晚\n  - S-002.知情人+大长老\n  - 沈砚.状态=在世\n"),
        ("一句话事件: 林晚于北境得血书", "一句话事件: 林晚于冰原遇沈砚"),
        ("  - 神秘老者\n---", "  - 沈砚\n---"),
        reason="冰原重写",
    )
    lin = book.characters()["林晚"]
    assert lin["位置"] == "北境冰原" and lin["持有"] == ["青霜剑"]
    assert book.secret("S-001").meta["知情人"] == ["大长老", "林晚"]
    assert book.secret("S-002").meta["知情人"] == ["林晚", "大长老"]
    assert book.characters()["沈砚"]["状态"] == "在世"
    row = _row(book)
    assert (row["书内时间"], row["事件"], row["在场"]) == ("大历1023年冬月初五", "林晚于冰原遇沈砚", ["林晚", "沈砚"])
    assert book.promise("P-002").meta["最后推进章"] == 1
    assert _files(book) == {CH1, LIN, S2, f"{R.角色}/沈砚.md", R.名册, R.时间线, "大纲/承诺/P-002-旧约.md"}
    assert message.startswith("retcon(1): 冰原重写\n\n文件: 定稿/正文/0001-北境的雪.md\n同步: ")
    for part in ("时间线 1.书内时间=大历1023年冬月初五", "时间线 1.一句话事件=林晚于冰原遇沈砚", "时间线 1.在场=林晚, 沈砚",
                 "撤销 林晚.持有+玄阶令牌", "林晚.位置=北境冰原", "S-002.知情人+大长老", "沈砚.状态=在世", "名册+沈砚",
                 "+推进 P-002"):
        assert part in message, part


# --- all or nothing ----------------------------------------------------------------------------------------

STEPS = ["planned", "journal", "write:1", "write:3", "written", "commit", "tree", "ref"]
SEVERAL = (("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五"),
           ("  - 林晚.位置=北境雪原\n", "  - 林晚.位置=北境冰原\n"),
           ("  - S-001.知情人+林晚\n", "  - S-001.知情人+神秘老者\n"),
           ("一句话事件: 林晚于北境得血书", "一句话事件: 林晚于冰原得血书"))


def _sources(book):
    """Every file but the derived cache (which ``lw story`` refreshes when it starts)."""
    return {k: v for k, v in tree_snapshot(book.root).items() if not k.startswith(R.CACHE + "/")}


def _git(book):
    state = git_state(book)
    return state["head"], [x for x in state["status"].split("\n") if not x.startswith(f"!! {R.CACHE}/")]


def _prepared(book):
    _settled(book)
    _edit(book, CH1, *SEVERAL)
    return _sources(book), dir_snapshot(book.root) - {R.CACHE}, _git(book)


def _assert_untouched(book, snap):
    files, dirs, state = snap
    assert _sources(book) == files  # the author's edit is still there, nothing else changed
    assert dir_snapshot(book.root) - {R.CACHE} == dirs
    assert _git(book) == state
    assert not (book.root / ".git" / atomic.JOURNAL_DIR).exists()


def _synced(book):
    assert book.characters()["林晚"]["位置"] == "北境冰原"
    assert book.secret("S-001").meta["知情人"] == ["大长老", "神秘老者"]
    assert _row(book)["书内时间"] == "大历1023年冬月初五"
    assert book.git.out("status", "--porcelain", "-uall") == ""


@pytest.mark.parametrize("step", STEPS)
def test_a_fault_at_each_step_leaves_the_book_as_before(book, monkeypatch, step):
    snap = _prepared(book)
    monkeypatch.setenv("LW_STORY_FAULT", f"{step}@raise")
    with pytest.raises(RuntimeError, match="injected"):
        handedits.retcon(book, 1, "冰原")
    _assert_untouched(book, snap)
    monkeypatch.delenv("LW_STORY_FAULT")
    handedits.retcon(book, 1, "冰原")  # and it goes through afterwards
    _synced(book)


def test_a_disk_error_mid_write_rolls_back(book, monkeypatch):
    snap = _prepared(book)
    monkeypatch.setenv("LW_STORY_FAULT", "write:2@oserror")
    with pytest.raises(OSError):
        handedits.retcon(book, 1, "冰原")
    _assert_untouched(book, snap)


LW = os.path.join(os.path.dirname(sys.executable), "lw")


@pytest.mark.parametrize("step", ["journal", "write:1", "write:3", "written", "ref"])
def test_a_killed_retcon_is_rolled_back_on_the_next_start(book, step):
    snap = _prepared(book)
    env = dict(os.environ, LW_STORY_FAULT=f"{step}@kill")
    proc = subprocess.run([LW, "story", "retcon", "1", "--原因", "冰原", "-y", "-C", str(book.root)], env=env,
                          capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode("utf-8", "replace")
    assert atomic.recover(book.root) == "rolled-back"  # what every start does first
    _assert_untouched(book, snap)


def test_a_retcon_killed_after_its_commit_is_finished_on_the_next_start(book):
    _prepared(book)
    env = dict(os.environ, LW_STORY_FAULT="committed@kill")
    proc = subprocess.run([LW, "story", "retcon", "1", "--原因", "冰原", "-y", "-C", str(book.root)], env=env,
                          capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    assert atomic.recover(book.root) == "finished"
    assert book.git.out("log", "-1", "--format=%s") == "retcon(1): 冰原\n"
    _synced(book)
