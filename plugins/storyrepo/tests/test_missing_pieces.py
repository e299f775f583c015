"""The pieces the spec names that were missing: one-sentence edits for every structured field,
选备选 on both cards, the draft text in the acceptance card, the contract check on every line,
the volume review's tick step, promises opened at chapter 0 (the source of a style rule: test_flow)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lw_storyrepo import card as decision
from lw_storyrepo import contextpack, drafts, edits, review, tools, verdict, volume_review, workspace
from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, contract_findings
from lw_storyrepo.drafts import Draft
from lw_storyrepo.fixtures import make_book
from lw_storyrepo.samples import DRAFT, to_reviewed
from lwcore.errors import LwError

LW = str(Path(sys.executable).with_name("lw"))


def lw(book, *args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([LW, "story", "--locale", "zh", *args, "-C", str(book.root)], capture_output=True)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


# --- one-sentence edits (invariant 9), by hand and by tool ------------------------------------------


def test_reader_knows_and_removing_a_knower(book) -> None:
    r = lw(book, "secret", "set", "S-001", "读者已知", "是")
    assert r.returncode == 0, r.stderr
    assert book.secret("S-001").meta["读者已知"] is True
    tools.set_secret(tools.SetSecretArgs(id="S-001", field="知情人", op="+", value="晚晚"), {"story_root": str(book.root)})
    assert book.secret("S-001").meta["知情人"] == ["大长老", "林晚"]  # the alias is filed under the canonical name
    assert lw(book, "secret", "set", "S-001", "知情人", "林晚", "--op", "-").returncode == 0
    assert book.secret("S-001").meta["知情人"] == ["大长老"]
    r = lw(book, "secret", "set", "S-001", "读者已知", "也许")
    assert r.returncode == 1 and "true 或 false" in r.stderr
    with pytest.raises(LwError, match="没有「沈砚」"):
        edits.set_secret(book, "S-001", "知情人", "沈砚", "-")
    log = book.git.out("log", "--format=%s", "-3").splitlines()
    assert log == ["fix(设定): S-001.知情人-林晚", "fix(设定): S-001.知情人+林晚", "fix(设定): S-001.读者已知=是"]


def test_promise_description_and_plan(book) -> None:
    assert lw(book, "promise", "text", "P-001", "兑付计划", "第五卷在宗门大会上当众揭穿。").returncode == 0
    item = book.promise("P-001")
    assert item.section("兑付计划") == "第五卷在宗门大会上当众揭穿。" and item.section("描述") == "灭门真凶的身份。"
    assert item.section("履历") == "- 第0章：开启"  # untouched
    with pytest.raises(LwError, match="履历只增不改"):
        edits.set_promise_text(book, "P-001", "履历", "改写历史")


def test_outlines(book) -> None:
    edits.edit_outline(book, "总纲", "结局承诺", "林晚手刃真凶，青云宗重归清明。")
    assert "## 结局承诺\n林晚手刃真凶，青云宗重归清明。\n" in book.text(L.总纲)
    assert "## 金手指\n" in book.text(L.总纲)
    r = lw(book, "outline", "set", "第2卷", "主线", "北上寻父。")
    assert r.returncode == 0, r.stderr
    assert book.text("大纲/卷纲/第02卷.md") == "# 第02卷\n\n## 主线\n北上寻父。\n"
    with pytest.raises(LwError, match="不认识"):
        edits.edit_outline(book, "../../x", "段", "文本")


def test_timeline_rows_and_roster_aliases(book) -> None:
    to_reviewed(book)
    verdict.accept(book)
    assert lw(book, "timeline", "set", "1", "在场", "晚晚、大长老").returncode == 0
    assert "| 1 | 大历1023年冬月初三 | 林晚于北境得血书 | 林晚, 大长老 |" in book.text(L.时间线)
    with pytest.raises(LwError, match="retcon"):
        edits.set_timeline(book, 1, "书内时间", "冬月初五")
    edits.register_entity(book, "天机阁", "组织")
    assert lw(book, "entity", "alias", "天机阁", "机阁").returncode == 0
    assert book.aliases()["机阁"] == "天机阁"
    edits.set_alias(book, "林晚", "林师妹")  # a character: the card's 别名
    assert book.characters()["林晚"]["别名"] == ["晚晚", "林师妹"]
    with pytest.raises(LwError, match="已被 林晚 占用"):
        edits.set_alias(book, "天机阁", "晚晚")
    edits.set_alias(book, "天机阁", "机阁", "-")
    assert "机阁" not in book.aliases()


def test_every_tool_has_its_command_and_it_runs(book) -> None:
    r = lw(book, "--help")
    assert r.returncode == 0
    for command in ("promise draft", "secret draft", "secret set", "promise text", "entity alias", "entity ignore",
                    "timeline set", "outline set", "vol candidates", "vol tick", "vol commit", "repair propose", "pick"):
        r = subprocess.run([LW, "story", "--locale", "zh", *command.split(), "--help"], capture_output=True)
        assert r.returncode == 0, command


def test_promise_and_secret_drafts_by_hand(book) -> None:
    decision.brief(book)
    text = book.text(L.决策卡).replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n- [ ] P-001 推进\n")
    book.p(L.决策卡).write_text(text, encoding="utf-8")
    decision.decide(book)
    contextpack.pack(book)
    r = lw(book, "promise", "draft", "老者来历", "--类型", "悬念", "--强度", "中", "--兑付计划", "第三卷")
    assert r.returncode == 0 and r.stdout.startswith("P-003"), r.stderr
    r = lw(book, "secret", "draft", "老者身份", "--关键词", "剑圣", "--知情人", "神秘老者", "--内容", "老者是剑圣。")
    assert r.returncode == 0 and r.stdout.startswith("S-003"), r.stderr
    assert sorted(p.name for p in book.p(L.新承诺).iterdir()) == ["P-003-老者来历.md"]
    assert book.p(f"{L.新信息差}/S-003-老者身份.md").is_file()


def test_the_hints_name_the_commands_an_author_types(book) -> None:
    """Query prints no Python None (a promise with no deadline); the decision card's step names
    ``lw story card edit`` beside the model's tool; a strong promise without a deadline says the
    option and its forms."""
    assert lw(book, "promise", "new", "旧债", "--类型", "伏笔", "--强度", "中", "--兑付计划", "第二卷").returncode == 0
    r = lw(book, "query", "promises")
    assert r.returncode == 0 and "None" not in r.stdout and "兑付期限=—" in r.stdout, r.stdout
    r = lw(book)
    assert "lw story card edit" in r.stdout, r.stdout  # the brief is written: the card waits
    text = book.text(L.决策卡).replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n- [ ] P-001 推进\n")
    book.p(L.决策卡).write_text(text, encoding="utf-8")
    decision.decide(book)
    contextpack.pack(book)
    r = lw(book, "promise", "draft", "老者来历", "--类型", "悬念", "--强度", "高", "--兑付计划", "第三卷")
    assert r.returncode != 0 and "强度为高的承诺必须填兑付期限" in r.stderr and "--兑付期限 第7卷" in r.stderr, r.stderr


# --- the cards --------------------------------------------------------------------------------------


def test_the_decision_cards_alternative(book) -> None:
    decision.brief(book)
    decision.edit_card(book, "推进 P-001", ["P-001 推进：林晚得到血书"], "B 方案：纯感情线过渡（代价：节奏债 +1）",
                       ["P-002 推进：旧约重提"], by_model=True)
    card = book.text(L.决策卡)
    assert "- [ ] P-002 推进：旧约重提" in card and "- [ ] 本章豁免承诺结转（理由：）" in card
    with pytest.raises(LwError, match="代勾"):
        decision.edit_card(book, alternative_contract=["本章为卷末章"])
    r = lw(book, "decide", "--alt")
    assert r.returncode == 0 and "- P-002 推进：旧约重提" in r.stdout, r.stderr
    state = workspace.load_state(book)
    assert state["合同"] == ["P-002 推进：旧约重提"] and state["采纳"] == "备选"


def test_the_acceptance_card_holds_the_draft_text_and_takes_corrections(book) -> None:
    to_reviewed(book)
    card = book.text(L.验收卡)
    assert "林晚踏入北境雪原，风雪扑面。" in card and "她握紧了玄阶令牌。" in card
    book.p(L.验收卡).write_text(card.replace("风雪扑面", "风雪如刀"), encoding="utf-8")
    verdict.accept(book)
    assert "风雪如刀" in book.text("定稿/正文/0001-北境的雪.md")


def test_correcting_both_the_card_and_the_draft_is_refused(book) -> None:
    to_reviewed(book)
    book.p(L.验收卡).write_text(book.text(L.验收卡).replace("风雪扑面", "风雪如刀"), encoding="utf-8")
    path = book.p(L.draft_file("A"))
    path.write_text(path.read_text(encoding="utf-8").replace("风雪扑面", "大雪扑面"), encoding="utf-8")
    with pytest.raises(LwError, match="只改一处"):
        verdict.accept(book)


def test_choosing_the_other_draft_on_the_acceptance_card(book) -> None:
    to_reviewed(book)
    drafts.submit_draft(book, "B", DRAFT.replace("风雪扑面。", "风声呜咽，雪落无声。"))
    review.run_checks(book)
    state = workspace.load_state(book)
    assert state["阶段"] == "reviewed" and state["选稿"] == "A" and state["过检"] == ["A", "B"]
    assert "- 草稿 B：机检通过" in book.text(L.验收卡)
    with pytest.raises(LwError, match="pick B"):
        verdict.accept(book, "B")
    r = lw(book, "pick", "B")
    assert r.returncode == 0, r.stderr
    state = workspace.load_state(book)
    assert state["阶段"] == "checked" and state["选稿"] == "B" and not book.p(L.验收卡).exists()
    for lens in workspace.LENSES:
        review.submit_review(book, lens, f"{lens}：B 稿更好。")
    review.submit_summary(book, "林晚听着风声抵达北境。")
    verdict.accept(book)
    assert "风声呜咽，雪落无声。" in book.text("定稿/正文/0001-北境的雪.md")


def test_every_contract_line_is_checked(book) -> None:
    ctx = CheckContext.load(book)
    state = {"合同": ["P-001 推进：林晚得到血书", "神秘老者现身", "开新承诺：老者来历", "林晚拔出「青霜剑」", "结尾强钩",
                     "节奏放缓"]}
    body = "林晚得到了血书。\n风雪中，一个老人走来。"
    findings = contract_findings(state, Draft("A", {"推进承诺": ["P-001"]}, body, 3, body), ctx)
    messages = {f.message: f.severity for f in findings}
    assert messages == {
        "合同「神秘老者现身」提到「神秘老者」，正文里没有": "error",
        "合同「开新承诺：老者来历」要开新承诺，但草稿的开启承诺是空的": "error",
        "合同「林晚拔出「青霜剑」」提到「青霜剑」，正文里没有": "error",
        "合同「结尾强钩」脚本判断不了，交评审确认": "info",
        "合同「节奏放缓」脚本判断不了，交评审确认": "info",
    }


# --- the volume review ----------------------------------------------------------------------------------


def test_volume_review_ticks_candidates_into_promises_and_counts_chapter_zero(tmp_path) -> None:
    repo = make_book(tmp_path / "卷", chapters=4, volume_size=4, promises=3, characters=4, secrets=1, words=120)
    outline = repo.text(L.总纲).replace("## 结局承诺\n", "## 结局承诺\n第七卷宗门大会，真凶伏诛。\n天下第一楼重开。\n")
    repo.p(L.总纲).write_text(outline, encoding="utf-8")
    p0 = repo.p(f"{L.承诺}/P-004-开篇立旗.md")
    p0.write_text("---\n类型: 立旗\n强度: 中\n状态: 进行\n开启章: 0\n最后推进章: 0\n---\n## 兑付计划\n第二卷\n", encoding="utf-8")
    repo.git.commit_paths([L.总纲, repo.rel(p0)], "fix(大纲): 总纲\n")
    volume_review.volume_review(repo)
    assert "- P-004 开篇立旗" in repo.text(L.卷复盘).split("## 本卷开启")[1].split("##")[0]
    with pytest.raises(LwError, match="找不到"):
        volume_review.propose_candidates(repo, [dict(title=f"伏笔{i}", type="伏笔", strength="中", plan="后文",
                                                     anchor="不存在的节点") for i in range(3)])
    items = [dict(title="血书残页", type="伏笔", strength="高", plan="第七卷呈堂", anchor="第七卷宗门大会", deadline="第7卷"),
             dict(title="旧楼钥匙", type="伏笔", strength="中", plan="重开时用上", anchor="天下第一楼重开"),
             dict(title="老者咳血", type="悬念", strength="低", plan="卷六揭晓", anchor="真凶伏诛")]
    tools.propose_candidates(tools.ProposeCandidatesArgs(candidates=[tools.Candidate(**i) for i in items]),
                             {"story_root": str(repo.root)})
    r = lw(repo, "vol", "tick", "1", "3")
    assert r.returncode == 0 and "血书残页" in r.stdout and "老者咳血" in r.stdout, r.stderr
    summary = tmp_path / "摘要.md"
    summary.write_text("第一卷：入门。", encoding="utf-8")
    r = lw(repo, "vol", "commit", "--summary", str(summary))
    assert r.returncode == 0, r.stderr
    assert repo.git.out("log", "-1", "--format=%B") == "vol(01): 第01卷复盘\n\n承诺: +P-005 +P-006\n\n"
    p5 = repo.promise("P-005")
    assert p5.title == "血书残页" and p5.meta["兑付期限"] == "第7卷" and "总纲：第七卷宗门大会" in p5.body
    assert repo.promise("P-006").title == "老者咳血" and not repo.p(L.卷复盘).exists()


def test_the_author_ends_a_volume_early_with_vol(tmp_path) -> None:
    repo = make_book(tmp_path / "短卷", chapters=3, volume_size=40, promises=2, characters=3, secrets=1, words=120)
    assert lw(repo, "vol").returncode == 0
    from lw_storyrepo.machine import decide_next

    assert decide_next(repo).state == 3
    volume_review.volume_commit(repo, "短短三章。")
    from lw_storyrepo.volumes import next_volume

    assert next_volume(repo) == 2
