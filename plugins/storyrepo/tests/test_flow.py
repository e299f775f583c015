"""The board state machine (§10) and the other transactions (§9), on real git repositories."""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest

from lw_storyrepo import card as decision
from lw_storyrepo import (cache, contextpack, drafts, handedits, health, machine, repair, review, verdict,
                          volume_review, whatif, workspace)
from lw_storyrepo import layout as R
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.fixtures import ScriptedModel, make_book
from lw_storyrepo.samples import LIN
from lwcore.errors import LwError


def test_states_in_order(book):
    assert machine.decide_next(book).state == 5
    lin = book.p(f"{R.角色}/林晚.md")
    lin.write_text(LIN.replace("  - 晚晚", "\t- 晚晚"), encoding="utf-8")
    step = machine.decide_next(book)
    assert (step.state, step.name) == (0, "repair") and step.cards[0].line == 4
    lin.write_text(LIN.replace("位置: 青云宗", "位置：北境"), encoding="utf-8")
    step = machine.decide_next(book)
    assert step.state == 1 and step.files == ["定稿/设定/角色/林晚.md"]
    assert step.fixed and "全角冒号" in step.fixed[0]
    assert step.detail["message"] == "fix(设定): 手改结转 林晚"
    handedits.commit_fix(book)
    assert book.git.out("log", "-1", "--format=%s") == "fix(设定): 手改结转 林晚\n"
    assert "位置: 北境" in lin.read_text(encoding="utf-8")
    step = machine.advance(book)
    assert step.state == 5 and step.files == ["工作区/决策卡.md"]
    step = machine.decide_next(book)
    assert (step.state, step.stage) == (2, "brief")


def test_hand_edit_to_an_outline_is_scoped(book):
    path = book.p("大纲/承诺/P-002-旧约.md")
    path.write_text(path.read_text(encoding="utf-8") + "\n补一句。\n", encoding="utf-8")
    assert machine.decide_next(book).detail["message"] == "fix(承诺): 手改结转 P-002-旧约"


def test_decision_card_has_the_four_sections_and_a_computed_board(book):
    p1 = book.p("大纲/承诺/P-001-灭门真凶.md")
    p1.write_text(p1.read_text(encoding="utf-8").replace("兑付期限: 第7卷", "兑付期限: 第3章"), encoding="utf-8")
    handedits.commit_fix(book)
    decision.brief(book)
    card = book.p(R.决策卡).read_text(encoding="utf-8")
    heads = [line for line in card.splitlines() if line.startswith("#")]
    assert heads == ["# 决策卡：第 1 章", "## 盘面（脚本生成）", "## 提案", "## 合同（拍板即生效）", "## 备选"]
    assert "- 位置：第 1 卷 1/40 章" in card and "- 到期承诺：P-001（第 3 章前）" in card
    assert "- [ ] 推进或兑付 P-001（期限第 3 章）" in card


def test_retcon_requires_a_reason(book):
    from lw_storyrepo.samples import to_reviewed

    to_reviewed(book)
    verdict.accept(book)
    ch = book.p("定稿/正文/0001-北境的雪.md")
    ch.write_text(ch.read_text(encoding="utf-8").replace("风雪扑面", "风雪如刀"), encoding="utf-8")
    with pytest.raises(LwError, match="原因"):
        handedits.retcon(book, 1, " ")
    handedits.retcon(book, 1, "修正北境天气描写")
    assert book.git.out("log", "-1", "--format=%B").startswith("retcon(1): 修正北境天气描写\n\n文件: 定稿/正文/0001-北境的雪.md")


def test_what_if_branches(book):
    assert "已切到 what-if/暗线" in whatif.whatif(book, "start", "暗线")
    assert book.git.out("rev-parse", "--abbrev-ref", "HEAD").strip() == "what-if/暗线"
    assert "what-if/暗线" in whatif.whatif(book, "list")
    whatif.whatif(book, "drop", "暗线")
    assert book.git.out("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert whatif.whatif(book, "list") == ""


def test_volume_review_then_health_then_brief(tmp_path):
    repo = make_book(tmp_path / "卷末", chapters=50, volume_size=50, promises=20, characters=8, secrets=4, words=120)
    step = machine.advance(repo)
    assert step.state == 3 and step.files == ["工作区/卷复盘.md"]
    audit = repo.p("工作区/卷复盘.md").read_text(encoding="utf-8")
    assert "## 本卷开启" in audit and "## 未兑付" in audit
    from lw_storyrepo import tools

    picked = tools.new_promise_draft(tools.NewPromiseDraftArgs(title="远期伏笔", type="伏笔", strength="高", plan="总纲第三幕：宗门大会",
                                                              deadline="第4卷"), {"story_root": str(repo.root)})
    volume_review.volume_commit(repo, "第一卷：主角入门。", "# 第02卷\n主线继续。")
    assert repo.git.out("log", "-1", "--format=%B") == f"vol(01): 第01卷复盘\n\n承诺: +{picked['id']}\n\n"
    assert repo.promise(picked["id"]).meta["开启章"] == 50
    assert repo.p("定稿/记忆/卷摘要/第01卷.md").is_file() and repo.p("大纲/卷纲/第02卷.md").is_file()
    step = machine.advance(repo)
    assert step.state == 4 and step.files == ["工作区/体检-0050.md"]
    report = repo.p("工作区/体检-0050.md").read_text(encoding="utf-8")
    assert "## 文体指纹漂移" in report and "## 承诺坏账" in report and "## 时间线孤儿" in report
    assert repo.git.out("status", "--porcelain", "-uall") == ""  # report only, never committed
    assert machine.advance(repo).state == 5


def test_health_report_finds_orphans_and_drift(tmp_path):
    repo = make_book(tmp_path / "体检", chapters=12, volume_size=40, promises=5, characters=5, secrets=2, words=120)
    (repo.p(R.时间线)).write_text(repo.p(R.时间线).read_text(encoding="utf-8") + "| 99 | 某日 | 幽灵章 | 无名氏 |\n", encoding="utf-8")
    report = repo.p(health.health_report(repo)).read_text(encoding="utf-8")
    assert "时间线第 99 章没有对应章节文件" in report and "「无名氏」不在名册" in report


def test_generated_300_chapter_book_end_to_end(tmp_path):
    """A generated book at chapter 297 driven through the state machine past the volume end
    at 300 (volume review, health check), with a hand edit and a slip along the way."""
    repo = make_book(tmp_path / "三百章" / "生成之书", chapters=297, volume_size=50, promises=120, characters=40,
                     secrets=20, words=150)
    before = {k: cache.query(repo, k) for k in ("due", "debt", "promises")}
    model = ScriptedModel(seed=3)
    model.run_chapter(repo)                  # 298
    model.run_chapter(repo, open_new=True)   # 299, opens a promise
    lin = sorted(repo.characters())[0]
    card = repo.character_path(lin)
    card.write_text(card.read_text(encoding="utf-8").replace("状态: 在世", "状态：失踪"), encoding="utf-8")  # a slip + hand edit
    model.run_chapter(repo)                  # fix(设定) first, then 300
    assert machine.advance(repo).state == 3     # 300 ends volume 6
    model.run_chapter(repo)                  # vol(06), health check at 300, then 301
    log = repo.git.out("log", "--format=%s", "-7").splitlines()
    assert log[0] == "ch(301): 第301章" and log[1] == "vol(06): 第06卷复盘" and log[2] == "ch(300): 第300章"
    assert log[3].startswith("fix(设定): 手改结转") and log[4] == "ch(299): 第299章" and log[5] == "ch(298): 第298章"
    assert repo.p("工作区/体检-0300.md").is_file() is False  # cleared by the settle of 301
    assert "+P-121" in repo.git.out("log", "--format=%B", "-1", "HEAD~4")
    assert repo.last_chapter() == 301 and len(repo.chapter_files()) == 301
    assert before["promises"] != cache.query(repo, "promises")
    after = {k: cache.query(repo, k) for k in ("due", "debt", "promises")}
    shutil.rmtree(repo.p(".cache"))
    assert after == {k: cache.query(repo, k) for k in ("due", "debt", "promises")}
    assert repo.git.out("status", "--porcelain", "-uall") == ""


@pytest.mark.skipif(not os.environ.get("LW_STORY_SLOW"), reason="slow: set LW_STORY_SLOW=1")
def test_300_chapters_each_through_the_full_transaction(tmp_path):
    repo = make_book(tmp_path / "全程", chapters=0, volume_size=50, promises=30, characters=12, secrets=6, words=150)
    model = ScriptedModel(seed=5)
    for _ in range(300):
        model.run_chapter(repo)
    assert repo.last_chapter() == 300


# --- migration --------------------------------------------------------------------------------------


def test_migrate_v6(tmp_path):
    v6 = tmp_path / "旧书"
    (v6 / "正文").mkdir(parents=True)
    (v6 / "正文" / "第0001章-开端.md").write_text("# 第1章 开端\n林晚下山。\n", encoding="utf-8")
    (v6 / "正文" / "第0002章-入城.md").write_text("林晚入城。\n", encoding="utf-8")
    (v6 / "设定集" / "角色库").mkdir(parents=True)
    (v6 / "设定集" / "角色库" / "大长老.md").write_text("宗门大长老。\n", encoding="utf-8")
    (v6 / "设定集" / "力量体系.md").write_text("# 力量体系\n炼气筑基。\n", encoding="utf-8")
    (v6 / "大纲").mkdir()
    (v6 / "大纲" / "总纲.md").write_text("# 总纲\n复仇。\n", encoding="utf-8")
    (v6 / "大纲" / "第1卷-下山.md").write_text("# 第一卷\n", encoding="utf-8")
    (v6 / "summaries").mkdir()
    (v6 / "summaries" / "ch0001.md").write_text("林晚下山。\n", encoding="utf-8")
    (v6 / ".webnovel").mkdir()
    (v6 / ".webnovel" / "state.json").write_text(json.dumps({
        "project_info": {"title": "旧书", "genre": "玄幻"},
        "progress": {"current_chapter": 2},
        "protagonist_state": {"name": "林晚", "power": {"realm": "筑基", "layer": 3}, "location": {"current": "青云城"}},
        "relationships": {"大长老": "仇人"},
        "plot_threads": {"active_threads": [{"title": "灭门之谜", "status": "active", "planted_chapter": 1}],
                         "foreshadowing": [{"content": "玉佩", "tier": "核心", "planted_chapter": 1, "target_chapter": 50},
                                           {"content": "旧信", "status": "resolved", "planted_chapter": 1}]},
        "project_memory": {"patterns": [{"pattern": "少用天气开篇"}]},
        "world_settings": {"power_system": ["炼气", "筑基"]},
        "strand_tracker": {"current_dominant": "quest"},
    }, ensure_ascii=False), encoding="utf-8")
    chain = v6 / ".story-system"
    for folder in ("chapters", "commits", "volumes", "reviews"):
        (chain / folder).mkdir(parents=True)
    (chain / "commits.log").write_text("c1\nc2\n", encoding="utf-8")
    (chain / "MASTER_SETTING.json").write_text(json.dumps({"route": {"primary_genre": "仙侠"}}, ensure_ascii=False), encoding="utf-8")
    (chain / "anti_patterns.json").write_text(json.dumps([{"text": "开篇就天降奇遇", "source_table": "桥段套路"}], ensure_ascii=False),
                                              encoding="utf-8")
    (chain / "chapters" / "chapter_001.json").write_text(json.dumps({"meta": {"chapter": 1}, "chapter_directive": {
        "goal": "林晚下山", "conflict": "师门不许", "must_cover_nodes": ["拜别大长老", "山门回望"]}}, ensure_ascii=False),
        encoding="utf-8")
    (chain / "commits" / "chapter_002.commit.json").write_text(json.dumps({
        "meta": {"chapter": 2, "status": "accepted"}, "summary_text": "林晚入城，遇见沈砚。",
        "accepted_events": [{"summary": "林晚入青云城"}], "chapter_meta": {"time": "春分"},
        "entities_appeared": [{"name": "沈砚", "type": "character"}, {"name": "青云城", "type": "location"}, "林晚"]},
        ensure_ascii=False), encoding="utf-8")
    (chain / "commits" / "chapter_003.commit.json").write_text(json.dumps({"meta": {"chapter": 3, "status": "rejected"},
                                                                          "summary_text": "不算数"}, ensure_ascii=False), encoding="utf-8")
    (chain / "volumes" / "volume_002.json").write_text(json.dumps({"meta": {}, "goal": "北上", "nodes": ["雪原", "古城"]},
                                                                  ensure_ascii=False), encoding="utf-8")
    (chain / "reviews" / "chapter_001.review.json").write_text("{}", encoding="utf-8")
    v7 = tmp_path / "新书"
    report = __import__("lw_storyrepo.migrate", fromlist=["migrate"]).migrate(v6, v7)
    assert "章节：2 章" in report and "承诺：3 条" in report and "1 章从 .story-system 补了合同" in report
    repo = StoryRepo(v7)
    assert [n for n, _ in repo.chapter_files()] == [1, 2]
    meta, body = repo.chapter(1)
    assert meta["合同"] == ["迁移", "目标：林晚下山", "冲突：师门不许", "必写：拜别大长老", "必写：山门回望"]
    assert body.strip() == "林晚下山。"
    assert repo.chapter(2)[0]["合同"] == ["迁移"] and repo.chapter(2)[0]["书内时间"] == "春分"
    assert repo.text("定稿/记忆/章摘要/0002.md") == "# 第2章\n\n林晚入城，遇见沈砚。\n"
    assert not repo.p("定稿/记忆/章摘要/0003.md").exists()  # a rejected commit fills nothing
    assert "| 2 | 春分 | 林晚入青云城 | 沈砚, 林晚 |" in repo.text(R.时间线)
    roster = {row["正名"]: (row["类型"], row["首现章"]) for row in repo.roster()}
    assert roster["沈砚"] == ("人物", 2) and roster["青云城"] == ("地点", 2) and roster["林晚"] == ("人物", 2)
    assert "## goal\n- 北上" in repo.text("大纲/卷纲/第02卷.md")
    assert "毒点：开篇就天降奇遇" in repo.text("文风/风格宪法.md")
    lin = repo.characters()["林晚"]
    assert lin["境界"] == "筑基3层" and lin["位置"] == "青云城"
    assert "大长老" in repo.characters()
    ps = {p.title: p.meta for p in repo.promises()}
    assert ps["玉佩"]["强度"] == "高" and ps["玉佩"]["兑付期限"] == "第50章" and ps["旧信"]["状态"] == "已兑付"
    assert repo.p("定稿/设定/力量体系.md").is_file() and repo.p("大纲/卷纲/第01卷.md").is_file()
    assert repo.p("定稿/记忆/章摘要/0001.md").is_file()
    assert "少用天气开篇" in repo.p("文风/风格宪法.md").read_text(encoding="utf-8")
    assert "strand_tracker" in repo.p("定稿/设定/v6状态展开.md").read_text(encoding="utf-8")
    assert repo.git.out("log", "--format=%s") == "migrate(v6): 旧书\ninit: 旧书\n"
    mode = (v6 / ".story-system" / "commits.log").stat().st_mode
    assert not mode & stat.S_IWUSR
    assert repair.scan(repo) == ([], [])


def test_editing_accepted_facts_suggests_a_retcon(book):
    from lw_storyrepo.samples import to_reviewed

    to_reviewed(book)
    verdict.accept(book)
    ch = book.p("定稿/正文/0001-北境的雪.md")
    ch.write_text(ch.read_text(encoding="utf-8").replace("风雪扑面", "风雪扑脸"), encoding="utf-8")
    step = machine.decide_next(book)
    assert step.state == 1 and step.detail["retcon"] == [] and step.detail["message"] == "fix(正文): 手改结转 0001-北境的雪"
    ch.write_text(ch.read_text(encoding="utf-8").replace("视角: 林晚", "视角: 大长老"), encoding="utf-8")
    step = machine.decide_next(book)
    assert step.detail["retcon"] == ["定稿/正文/0001-北境的雪.md（front matter 是已接受的事实）"] and "retcon" in step.message


def test_what_if_branch_merged_back(book):
    whatif.whatif(book, "start", "三章推演")
    outline = book.p("大纲/卷纲/第02卷.md")
    outline.write_text("# 第02卷\n推演：林晚北上。\n", encoding="utf-8")
    handedits.commit_fix(book, "推演 3 章纲要")
    assert "已合并" in whatif.whatif(book, "merge", "三章推演")
    assert book.git.out("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert outline.is_file() and book.git.out("log", "-1", "--format=%s") == "merge(三章推演): 采纳推演分支\n"
    assert whatif.whatif(book, "list") == ""


def test_three_rejections_of_a_kind_propose_a_style_rule(book):
    from lw_storyrepo import edits
    from lw_storyrepo.board import compute_board, rule_proposals
    from lw_storyrepo.samples import DRAFT

    for n in (1, 2, 3):
        draft = DRAFT.replace("标题: 北境的雪", f"标题: 第{n}章").replace("P-003", f"P-{n + 2:03d}")
        contract = [c.replace("P-003", f"P-{n + 2:03d}") for c in ["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历"]]
        decision.brief(book)
        card = book.p(R.决策卡).read_text(encoding="utf-8")
        book.p(R.决策卡).write_text(card.replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n" + "".join(f"- [ ] {c}\n" for c in contract)), encoding="utf-8")
        decision.decide(book)
        contextpack.pack(book)
        book.p(R.新承诺).mkdir(parents=True, exist_ok=True)
        (book.p(R.新承诺) / f"P-{n + 2:03d}-线{n}.md").write_text("---\n类型: 悬念\n强度: 中\n---\n## 兑付计划\n后文\n", encoding="utf-8")
        drafts.submit_draft(book, "A", draft)
        review.run_checks(book)
        verdict.reject(book, "不要用天气开篇")
        drafts.submit_draft(book, "A", draft)
        review.run_checks(book)
        for lens in workspace.LENSES:
            review.submit_review(book, lens, "好。")
        review.submit_summary(book, "摘要。")
        verdict.accept(book)
        assert "打回: 不要用天气开篇\n" in book.git.out("log", "-1", "--format=%B")
    assert rule_proposals(book) == [("不要用天气开篇", [1, 2, 3])]
    assert "提议入宪：「不要用天气开篇」（出处：第 1/2/3 章三次否决）" in "\n".join(compute_board(book).lines())
    result = edits.add_style_rule(book, "禁句式", "^(风雪|大雪|细雨)")  # no source given: the proposal is it
    assert result["source"] == "第 1/2/3 章三次否决：不要用天气开篇"
    style = book.text(R.风格宪法)
    assert "- 禁句式：^(风雪|大雪|细雨)（出处：第 1/2/3 章三次否决：不要用天气开篇）" in style.split("## 来自否决的规则")[1]
    assert "出处: 第 1/2/3 章三次否决：不要用天气开篇" in book.git.out("log", "-1", "--format=%B")
    assert rule_proposals(book) == []
    result = edits.add_style_rule(book, "禁词", "眸子一缩")  # a rule the author adds alone says so
    assert result["source"] == "作者（第 3 章后）" and "- 禁词：眸子一缩（出处：作者（第 3 章后））" in book.text(R.风格宪法)
