"""The author's loop end to end: the wrong results of issue 18, each pinned by a test.

Each test here failed on the code before its fix (reject settled the rejected draft, settle
refused what checks had passed, fix committed accepted facts, 是 became true, the volume size
was a hard boundary, accept changed the stage before it validated).
"""

from __future__ import annotations

import pytest

from lw_storyrepo import contextpack, drafts, edits, handedits, machine, review, verdict, volume_review, workspace
from lw_storyrepo import card as decision
from lw_storyrepo import layout as R
from lw_storyrepo.fixtures import git_state, tree_snapshot
from lw_storyrepo.samples import CONTRACT, DRAFT, NEW_PROMISE, to_reviewed
from lwcore.errors import LwError

REDRAFT = DRAFT.replace("林晚踏入北境雪原，风雪扑面。", "夜半，林晚推门而出，北境雪原上一片死寂。")


def _read(repo, rel):
    return repo.p(rel).read_text(encoding="utf-8")


def _decided(repo, contract=CONTRACT, new_promise=True):
    decision.brief(repo)
    card = _read(repo, R.决策卡)
    repo.p(R.决策卡).write_text(card.replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n" + "".join(
        f"- [ ] {c}\n" for c in contract)), encoding="utf-8")
    decision.decide(repo)
    contextpack.pack(repo)
    if new_promise:
        repo.p(R.新承诺).mkdir(parents=True, exist_ok=True)
        (repo.p(R.新承诺) / "P-003-神秘老者来历.md").write_text(NEW_PROMISE, encoding="utf-8")


# --- 1. a reject invalidates the rejected draft's reviews, card, summary and choice ----------------


def test_reject_invalidates_everything_that_belonged_to_the_rejected_draft(book):
    to_reviewed(book)
    assert workspace.load_state(book)["阶段"] == "reviewed"
    verdict.reject(book, "开头太慢")
    state = workspace.load_state(book)
    assert state["阶段"] == "packed" and not state.get("选稿")
    for lens in workspace.LENSES:
        assert not book.p(f"{R.评审报告}/{lens}镜头.md").exists()
    assert not book.p(R.验收卡).exists() and not book.p(f"{R.工作区}/章摘要.md").exists()
    assert drafts.draft_labels(book) == []  # the rejected draft is no longer a candidate
    assert "开头太慢" in _read(book, f"{R.评审报告}/打回.md")


def test_redraft_after_reject_goes_through_checks_and_every_review_again(book):
    to_reviewed(book)
    verdict.reject(book, "开头太慢")
    drafts.submit_draft(book, "B", REDRAFT)
    review.run_checks(book)
    state = workspace.load_state(book)
    assert state["阶段"] == "checked" and state["选稿"] == "B"
    review.submit_review(book, "读者", "读者：重写后的开头抓人。")
    assert workspace.load_state(book)["阶段"] == "checked"  # one new review does not reach 作者验收
    review.submit_review(book, "编辑", "编辑：结构清楚。")
    review.submit_review(book, "事实", "事实：机检无误报。")
    assert workspace.load_state(book)["阶段"] == "reviewed"
    card = _read(book, R.验收卡)
    assert "草稿 B" in card and "重写后的开头抓人" in card and "节奏紧，结尾有钩" not in card
    with pytest.raises(LwError, match="章摘要"):
        verdict.accept(book)  # the rejected draft's summary is gone: a new one is needed
    review.submit_summary(book, "林晚夜出，得血书。")
    verdict.accept(book)
    chapter = _read(book, "定稿/正文/0001-北境的雪.md")
    assert "夜半，林晚推门而出" in chapter and "风雪扑面" not in chapter
    assert "林晚夜出，得血书。" in _read(book, "定稿/记忆/章摘要/0001.md")
    assert "打回: 开头太慢\n" in book.git.out("log", "-1", "--format=%B")


# --- 2. everything settle refuses is found by the checks; edits after review are re-checked -------


def test_a_setting_change_on_an_info_gap_drafted_in_the_same_chapter_settles(book):
    _decided(book)
    from lw_storyrepo import tools

    ctx = {"story_root": str(book.root)}
    sid = tools.new_secret_draft(tools.NewSecretDraftArgs(title="老者身份", knowers=["神秘老者"], keywords=["萧无涯", "剑圣"],
                                                         content="神秘老者是昔日剑圣萧无涯。"), ctx)["id"]
    assert sid == "S-003"
    drafts.submit_draft(book, "A", DRAFT.replace("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - S-003.知情人+林晚\n"))
    results = review.run_checks(book)
    assert not [f for f in results["A"] if f.severity == "error"], results
    for lens in workspace.LENSES:
        review.submit_review(book, lens, "好。")
    review.submit_summary(book, "林晚得知老者身份。")
    verdict.accept(book)
    secret = book.secret("S-003")
    assert secret.meta["知情人"] == ["神秘老者", "林晚"] and secret.meta["登记章"] == 1


@pytest.mark.parametrize("draft, needle", [
    (DRAFT.replace("  - P-001\n推进说明", "  - P-009\n推进说明"), "P-009"),
    (DRAFT.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n弃置承诺:\n  - P-002\n"), "原因"),
    (DRAFT.replace("  - S-001.知情人+林晚\n", "  - S-001.知情人+林晚\n  - S-007.知情人+林晚\n"), "S-007"),
    (DRAFT.replace("  - 林晚.位置=北境雪原\n", "  - 林晚.持有-不存在的剑\n"), "不存在的剑"),
    (DRAFT.replace("  - 林晚.位置=北境雪原\n", "  - 林晚位置北境\n"), "看不懂"),
    (DRAFT.replace("标题: 北境的雪\n", ""), "标题"),
])
def test_every_settle_refusal_is_a_machine_check_finding(book, draft, needle):
    _decided(book)
    drafts.submit_draft(book, "A", draft)
    results = review.run_checks(book)
    errors = [f for f in results["A"] if f.severity == "error"]
    assert any(needle in f.message for f in errors), [f.message for f in results["A"]]
    assert workspace.load_state(book)["阶段"] == "packed"  # back to rendering, the author is not bothered
    assert needle in _read(book, f"{R.评审报告}/机检-A.md")


def test_the_authors_edits_after_review_are_checked_before_acceptance(book):
    to_reviewed(book)
    path = book.p(f"{R.工作区}/草稿-A.md")
    path.write_text(path.read_text(encoding="utf-8").replace("她握紧了玄阶令牌。", "神秘老者道：“灭门那夜的血书，我也见过。”"),
                    encoding="utf-8")
    before, head = tree_snapshot(book.root), book.git.head()
    with pytest.raises(LwError, match="泄密"):
        verdict.accept(book)
    after = tree_snapshot(book.root)
    assert book.git.head() == head and workspace.load_state(book)["阶段"] == "reviewed"
    changed = {k for k in after if after.get(k) != before.get(k)} | {k for k in before if k not in after}
    assert changed <= {f"{R.评审报告}/机检-A.md"}  # only the fresh report, naming the leak


# --- 3. accepted chapters change only through retcon, and retcon syncs ------------------------------


def _settled(book):
    to_reviewed(book)
    verdict.accept(book)
    return book.p("定稿/正文/0001-北境的雪.md")


def test_fix_refuses_a_hand_edit_of_accepted_facts(book):
    ch = _settled(book)
    ch.write_text(_read(book, "定稿/正文/0001-北境的雪.md").replace("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五"),
                  encoding="utf-8")
    head = book.git.head()
    with pytest.raises(LwError, match="retcon"):
        handedits.commit_fix(book)
    assert book.git.head() == head


def test_fix_still_takes_a_typo_in_accepted_prose(book):
    ch = _settled(book)
    ch.write_text(_read(book, "定稿/正文/0001-北境的雪.md").replace("风雪扑面", "风雪扑脸"), encoding="utf-8")
    handedits.commit_fix(book)
    assert book.git.out("log", "-1", "--format=%s") == "fix(正文): 手改结转 0001-北境的雪\n"


def test_fix_refuses_a_rewrite_of_accepted_prose(book):
    ch = _settled(book)
    text = _read(book, "定稿/正文/0001-北境的雪.md")
    ch.write_text(text.replace("她握紧了玄阶令牌。", "她没有拿令牌，转身把它扔进了寒潭，从此再不回头看北境一眼。"), encoding="utf-8")
    with pytest.raises(LwError, match="retcon"):
        handedits.commit_fix(book)


def test_retcon_syncs_the_timeline_and_the_promises(book):
    ch = _settled(book)
    text = _read(book, "定稿/正文/0001-北境的雪.md")
    text = text.replace("书内时间: 大历1023年冬月初三", "书内时间: 大历1023年冬月初五")
    text = text.replace("推进承诺:\n  - P-001\n", "推进承诺:\n  - P-001\n  - P-002\n")
    ch.write_text(text, encoding="utf-8")
    handedits.retcon(book, 1, "北境之行改在初五")
    message = book.git.out("log", "-1", "--format=%B")
    assert message.startswith("retcon(1): 北境之行改在初五\n")
    timeline = _read(book, R.时间线)
    assert "| 1 | 大历1023年冬月初五 | 林晚于北境得血书 | 林晚, 神秘老者 |" in timeline and "初三" not in timeline
    p2 = book.promise("P-002")
    assert p2.meta["最后推进章"] == 1 and "第1章：推进（retcon：北境之行改在初五）" in p2.body
    files = set(book.git.out("show", "--name-only", "--format=", "HEAD").split())
    assert files == {"定稿/正文/0001-北境的雪.md", R.时间线, "大纲/承诺/P-002-旧约.md"}
    assert book.git.out("status", "--porcelain", "-uall") == ""


# --- 4. the dialect quotes risky scalars everywhere; draft fields the format does not name stay ----


def test_a_yes_like_value_is_written_quoted_not_as_a_boolean(book):
    edits.set_character(book, "林晚", "口头禅", "是")
    text = _read(book, f"{R.角色}/林晚.md")
    assert '口头禅: "是"' in text
    assert book.characters()["林晚"]["口头禅"] == "是"


def test_a_typed_field_refuses_a_value_of_the_wrong_type(book):
    with pytest.raises(LwError, match="最后变更章"):
        edits.set_character(book, "林晚", "最后变更章", "第三章")


def test_a_draft_field_the_chapter_format_does_not_name_is_kept(book):
    to_reviewed(book, draft=DRAFT.replace("一句话事件:", "情绪: 低落\n一句话事件:"))
    verdict.accept(book)
    meta, _ = book.chapter(1)
    assert meta["情绪"] == "低落"


# --- 5. the volume size is a reference value --------------------------------------------------------


def _walk(book, draft, summary="摘要。"):
    to_reviewed(book, draft=draft, contract=["P-001 推进"], new_promise=False)
    review.submit_summary(book, summary)
    return verdict.accept(book)


def _draft(n, extra=""):
    return (f"---\n标题: 第{n}章\n视角: 林晚\n推进承诺:\n  - P-001\n{extra}一句话事件: 第{n}章\n---\n"
            + "林晚看着远方的雪山，没有说话。\n" * 4)


def test_a_volume_ends_when_the_author_says_so_not_at_the_reference_size(tmp_path):
    from lw_storyrepo.samples import seeded

    book = seeded(tmp_path / "卷", target_words=60)
    text = _read(book, "book.yaml").replace("卷规模: 40", "卷规模: 2")
    book.p("book.yaml").write_text(text, encoding="utf-8")
    handedits.commit_fix(book)
    for n in (1, 2, 3):
        _walk(book, _draft(n))
    assert [book.chapter(n)[0]["卷"] for n in (1, 2, 3)] == [1, 1, 1]  # past 卷规模, still volume 1
    assert machine.decide_next(book).state == 5
    _walk(book, _draft(4, "卷末: true\n"))
    assert machine.decide_next(book).state == 3  # the author ended the volume at chapter 4
    volume_review.volume_review(book)
    volume_review.volume_commit(book, "第一卷四章。")
    _walk(book, _draft(5))
    assert book.chapter(5)[0]["卷"] == 2
    _walk(book, _draft(6, "卷: 3\n"))  # a draft may set its volume
    assert book.chapter(6)[0]["卷"] == 3


# --- 6. validate first, change state after; the status line names the next step --------------------


def test_accept_without_a_summary_changes_nothing(book):
    to_reviewed(book)
    book.p(f"{R.工作区}/章摘要.md").unlink()
    card = _read(book, R.验收卡)
    book.p(R.验收卡).write_text(card.replace("林晚抵达北境雪原，得到灭门血书，遇见神秘老者。", "（待模型生成，≤200 字）"),
                                encoding="utf-8")
    before, state = tree_snapshot(book.root), git_state(book)
    with pytest.raises(LwError, match="章摘要"):
        verdict.accept(book)
    assert tree_snapshot(book.root) == before and git_state(book) == state
    assert workspace.load_state(book)["阶段"] == "reviewed"


def test_the_status_line_names_the_step_after_the_one_just_done(book):
    decision.brief(book)
    card = _read(book, R.决策卡)
    book.p(R.决策卡).write_text(card.replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n- [ ] P-001 推进\n"),
                                encoding="utf-8")
    decision.decide(book)
    step = machine.advance(book)
    assert step.detail["did"] == "pack"
    assert "组装上下文包」" not in step.message and "模型渲染草稿" in step.message
