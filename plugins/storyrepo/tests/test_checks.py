"""Mechanical checks: each finding located in the draft."""

from __future__ import annotations

from lw_storyrepo import contextpack, drafts, edits, review, workspace
from lw_storyrepo import card as decision
from lw_storyrepo.checks import CheckContext, check_draft, check_text, contract_findings
from lw_storyrepo.drafts import Draft


def draft(body: str, meta: dict | None = None, body_line: int = 1) -> Draft:
    return Draft("A", meta or {"推进承诺": ["P-001"]}, body, body_line)


def kinds(findings):
    return [(f.kind, f.line) for f in findings]


def test_leak_by_dialogue_attribution_patterns(book):
    ctx = CheckContext.load(book)
    body = "\n".join([
        "林晚道：“灭门那夜的血书，我见过。”",       # name + 道 before the quote
        "“灭门的血书？”林晚问。",                   # quote, then name + 问
        "晚晚冷笑一声，说：“血书罢了，灭门也罢。”",  # alias, words between name and 说
        "大长老道：“灭门血书，都烧了。”",           # a knower: no leak
        "林晚心想：灭门之事，血书为证。",           # inner thought
        "林晚道：“今天的雪真大。”",                 # no keyword
    ])
    findings = [f for f in check_text(ctx, body, 10) if f.kind == "泄密"]
    assert [(f.line, f.severity) for f in findings] == [(10, "error"), (11, "error"), (12, "error"), (14, "error")]
    assert "林晚 不是 S-001 的知情人" in findings[0].message
    assert findings[0].column == 5


def test_learning_the_secret_in_this_chapter_is_not_a_leak(book):
    d = draft("林晚道：“灭门的血书。”", {"推进承诺": ["P-001"], "设定变更": ["S-001.知情人+林晚"]})
    assert not [f for f in check_draft(book, d) if f.kind == "泄密"]


def test_wasted_exposition(book):
    ctx = CheckContext.load(book)
    body = "青霜剑是她母亲留下的遗物，这一点她从未忘记。\n青霜剑出鞘。"
    findings = [f for f in check_text(ctx, body) if f.kind == "废笔"]
    assert [(f.line, f.column) for f in findings] == [(1, 1)]


def test_banned_words_and_patterns(book):
    edits.add_style_rule(book, "禁词", "眸子一缩", "第 89/103/121 章三次否决")
    edits.add_style_rule(book, "禁句式", "不是.*而是")
    ctx = CheckContext.load(book)
    body = "他眸子一缩。\n这不是风，而是剑气。\n不是我。她说，而是你。"
    found = [(f.kind, f.line, f.column) for f in check_text(ctx, body) if f.kind in ("禁词", "禁句式")]
    assert found == [("禁词", 1, 2), ("禁句式", 2, 1)]
    assert "出处：第 89/103/121 章三次否决" in book.p("文风/风格宪法.md").read_text(encoding="utf-8")


def test_repetition(book):
    ctx = CheckContext.load(book)
    body = "\n".join(["她慢慢抬起头来，看着远方。"] * 2 + ["风雪交加之夜，风雪交加之时，风雪交加之刻，风雪交加之间，风雪交加。"])
    found = kinds(f for f in check_text(ctx, body) if f.kind == "复读")
    assert ("复读", 2) in found and ("复读", 3) in found


def test_new_proper_nouns_use_the_segmenter(book):
    d = draft("神秘老者萧无涯拄杖而立，转身离开了天机阁。\n林晚握着青霜剑。", body_line=20)
    findings = [f for f in check_draft(book, d) if f.kind == "新专名"]
    assert [(f.message.split("「")[1].split("」")[0], f.line) for f in findings] == [("萧无涯", 20), ("天机阁", 20)]


def test_known_names_are_not_new(book):
    edits.register_entity(book, "萧无涯", "人物", ["萧老"])
    d = draft("神秘老者萧无涯拄杖而立。萧老笑了。")
    assert not [f for f in check_draft(book, d) if f.kind == "新专名"]


def test_word_count_against_target(book):
    ctx = CheckContext.load(book)  # target 60
    assert [f.severity for f in check_text(ctx, "短。") if f.kind == "字数"] == ["error"]
    assert [f.severity for f in check_text(ctx, "字" * 45) if f.kind == "字数"] == ["warn"]
    assert not [f for f in check_text(ctx, "字" * 60) if f.kind == "字数"]


def test_contract_lines_naming_promises_are_honoured(book):
    state = {"合同": ["P-001 推进：得到血书", "P-003 开启：老者来历", "P-002 兑付：旧约揭晓"]}
    d = draft("x", {"推进承诺": ["P-001"], "开启承诺": [], "兑付承诺": []})
    msgs = [f.message for f in contract_findings(state, d)]
    assert len(msgs) == 2 and "P-003" in msgs[0] and "开启承诺" in msgs[0] and "P-002" in msgs[1]


def test_failed_checks_send_the_transaction_back_to_rendering(book):
    from lw_storyrepo.samples import CONTRACT, DRAFT

    decision.brief(book)
    card = book.p("工作区/决策卡.md").read_text(encoding="utf-8")
    book.p("工作区/决策卡.md").write_text(card.replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n" + "".join(f"- [ ] {c}\n" for c in CONTRACT)), encoding="utf-8")
    decision.decide(book)
    contextpack.pack(book)
    drafts.submit_draft(book, "A", DRAFT.replace("  - S-001.知情人+林晚\n", ""))
    results = review.run_checks(book)
    assert any(f.kind == "泄密" for f in results["A"])
    assert workspace.load_state(book)["阶段"] == "packed"
    report = book.p("工作区/评审报告/机检-A.md").read_text(encoding="utf-8")
    assert "不过关" in report and "第 20 行" in report


def test_a_card_changed_between_two_checks_in_one_process_is_read_again(book):
    """What the checks build once from the book's names (the clause patterns of the speakers, the
    names a repeated phrase may sit in) follows the book: an alias a card gains between two
    checks in the same process speaks at the second (阿晚 is 林晚, no knower of S-001: her leak,
    where the first check read the narration's), and a phrase said again that a new name holds is
    no repetition any more."""
    from lw_storyrepo import layout as L

    body = "阿晚心想：灭门之事，血书为证。\n" + "雪落无声，" * 5 + "\n"

    def leaks(findings):
        return [(f.line, "林晚 不是 S-001 的知情人" in f.message) for f in findings if f.kind == "泄密"]

    def repeated(findings):
        return [f.excerpt for f in findings if f.kind == "复读"]

    before = check_draft(book, draft(body))
    card = book.p(f"{L.角色}/林晚.md")
    card.write_text(card.read_text(encoding="utf-8").replace("  - 晚晚\n", "  - 晚晚\n  - 阿晚\n  - 雪落无声客\n"),
                    encoding="utf-8")
    after = check_draft(book, draft(body))
    assert leaks(before) == [(1, False)] and leaks(after) == [(1, True)]
    assert "雪落无声" in repeated(before) and "雪落无声" not in repeated(after)


def test_one_context_checks_drafts_with_other_names_each_by_its_own(book):
    """The names the checks look for in a draft are cut down to those its characters can spell
    (:meth:`CheckContext.reading`); one book context checking draft after draft never carries one
    draft's cut to the next: 林晚 speaks the secret in the second draft, which the first never named,
    and the first draft's leak is found again after it."""
    ctx = CheckContext.load(book)

    def leaks(body):
        return [f.line for f in check_draft(book, draft(body), ctx=ctx) if f.kind == "泄密"]

    quiet = "雪落了一夜。\n"
    spoken = "雪落了一夜。\n林晚道：“灭门那夜的血书，我见过。”\n"
    assert leaks(quiet) == []
    assert leaks(spoken) == [2]
    assert leaks(quiet) == []
    assert ctx.reading(quiet).names_re().search("林晚") is None  # 林 and 晚: no character of the first draft
    assert ctx.reading(spoken).names_re().search("林晚").group() == "林晚"
    assert ctx.names_re().search("林晚").group() == "林晚"  # the book's own context reads any text
