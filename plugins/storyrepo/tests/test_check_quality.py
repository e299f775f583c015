"""The checks that help instead of noise, measured on labelled text written for these tests.

- New proper nouns (``corpus/专名`` tuning chapters, ``专名-留出`` held out during the first
  round, ``专名-验证`` written after the tuning and never tuned on): precision ≥ 0.9 on each.
- Info-gap leaks (``corpus/泄密.md``: 30 labelled paragraphs): every leak found, nothing else.
The figures are printed (``pytest -s``); ``bench/story.py`` prints the proper-noun ones too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lw_storyrepo import drafts, review, verdict
from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, check_draft, leak_and_waste
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.drafts import Draft
from lw_storyrepo.fixtures import prose
from lw_storyrepo.propernouns import find_new_nouns, score
from lw_storyrepo.samples import DRAFT, to_reviewed
from lwcore.errors import LwError

CORPUS = Path(__file__).parent / "corpus"
# floors pin today's figures, so a change that loses names shows up here: (precision, recall).
# 专名-他人-评估 is the blind evaluation set (鲁迅《彷徨》, never tuned on): its floors pin the
# measured figures, which are below the goal (precision 0.9, recall 0.8) — see its README.
NOUN_SETS = {"专名": (0.9, 0.9), "专名-留出": (0.9, 0.9), "专名-验证": (0.9, 0.8), "专名-他人-开发": (0.9, 0.75),
             "专名-他人-评估": (0.75, 0.45)}


@pytest.mark.parametrize("folder, floors", NOUN_SETS.items())
def test_new_proper_nouns_precision_and_recall_on_labelled_chapters(folder: str, floors: tuple[float, float]) -> None:
    result = score(CORPUS / folder)
    blind = folder.endswith("评估")  # the evaluation set's misses are never shown: nobody tunes on them
    detail = "" if blind else f"; false {result.false_positives}, missed {result.missed}"
    print(f"\n{folder}: {result.chapters} chapters, precision {result.precision:.2f}, recall {result.recall:.2f}, "
          f"kind right {result.kinds_right}/{result.true_positives}{detail}")
    precision, recall = result.precision, result.recall
    if blind:
        del result  # nothing of the blind set's answers reaches a failure report
        assert precision >= floors[0] and recall >= floors[1], f"below the floors: {precision:.2f} / {recall:.2f}"
    else:
        assert precision >= floors[0], result.false_positives
        assert recall >= floors[1], result.missed
    if "他人" not in folder:
        assert result.kinds_right >= 0.9 * result.true_positives


def test_the_false_names_of_the_issue_book_are_not_reported() -> None:
    """Issue 30's book by another author: 爷爷, 好声, 石桌, 惊醒, 全宗门, 宗门令牌, 青钢剑 and 陈叔 (an
    address form of a known 陈) were reported as new names; none of them is one."""
    text = ("陈叔端来一壶茶。爷爷坐在石桌旁，好声好气地说：“全宗门的人都来了。”\n林晚惊醒过来。全宗门上下都在找她。\n"
            "她拿出宗门令牌，又拔出青钢剑。宗门令牌在灯下发亮，青钢剑也出了鞘。\n陈叔叹道：“石桌上有血。”爷爷点了点头。")
    assert find_new_nouns(text, ["林晚", "陈伯远"]) == []
    assert [n.name for n in find_new_nouns(text, ["林晚"])] == ["陈叔"]  # no known 陈: a minor character


def test_minor_characters_places_and_items_are_caught() -> None:
    text = ("杨二嫂端着豆腐进来，柳妈跟在后面。\n“阿毛呢？”杨二嫂问。柳妈说阿毛去了咸亨酒店。\n"
            "他从咸亨酒店出来，手里握着赤霄剑。赤霄剑寒光一闪。")
    found = {(n.name, n.kind) for n in find_new_nouns(text, [])}
    assert found == {("杨二嫂", "人物"), ("柳妈", "人物"), ("阿毛", "人物"), ("咸亨酒店", "地点"), ("赤霄剑", "物品")}


def test_the_first_chapter_of_the_issue_reports_names_not_noise() -> None:
    meta, body = quick_meta((CORPUS / "专名" / "01.md").read_text(encoding="utf-8"))
    found = {(n.name, n.kind) for n in find_new_nouns(body, meta["已知"])}
    assert found == {("沈砚", "人物"), ("听雨轩", "地点"), ("落雁峰", "地点")}
    assert not {"雪下", "那支", "抱得"} & {name for name, _kind in found}


def test_generated_prose_with_known_names_has_no_new_names() -> None:
    import random

    people = ["林晚", "萧无涯", "苏青岚", "顾寒舟", "沈若雪", "陆长风"]
    for seed in range(5):
        body = prose(random.Random(seed), people, 3000)
        known = people + ["北境雪原", "青云宗", "天机阁", "落霞谷", "镇妖塔", "玄武城", "断魂崖", "望月楼"]
        assert find_new_nouns(body, known) == []


def _leak_cases() -> tuple[CheckContext, list[tuple[set[tuple[str, str]], str, str]]]:
    meta, body = quick_meta((CORPUS / "泄密.md").read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}
    for entry in meta["角色"]:
        names = entry.split("｜")
        for name in names:
            aliases.setdefault(name, names[0])
    secrets = []
    for entry in meta["信息差"]:
        sid, knowers, reader, keywords = entry.split("｜")
        secrets.append((sid, set(knowers.split("：")[1].split("、")), reader.endswith("是"), keywords.split("：")[1].split("、")))
    ctx = CheckContext(aliases, secrets, [], [], 0, set(aliases))
    cases = []
    for m in re.finditer(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", body, re.M | re.S):
        head = m.group(1).split()
        pov = next((h.split("=")[1] for h in head if h.startswith("视角=")), meta["视角"])
        gold = {(head[1], head[2])} if head[0] == "泄密" else set()
        cases.append((gold, m.group(2).strip("\n"), pov))
    return ctx, cases


def _leaks(ctx: CheckContext, text: str, pov: str) -> set[tuple[str, str]]:
    out = set()
    for f in leak_and_waste(ctx, text.split("\n"), 1, {}, set(), pov):
        if f.kind == "泄密":
            sid = re.search(r"S-\d+", f.message).group()  # type: ignore[union-attr]
            out.add((sid, "叙述" if f.message.startswith("叙述") else f.message.split(" ")[0]))
    return out


def test_info_gap_leaks_on_the_labelled_corpus() -> None:
    ctx, cases = _leak_cases()
    results = [(gold, _leaks(ctx, text, pov), text) for gold, text, pov in cases]
    leaks = [r for r in results if r[0]]
    found = [r for r in leaks if r[0] == r[1]]
    false = [r for r in results if not r[0] and r[1]]
    print(f"\ninfo-gap leaks: {len(cases)} labelled paragraphs, {len(leaks)} leaks; recall {len(found) / len(leaks):.2f}, "
          f"false alarms {len(false)}")
    assert [r for r in results if r[0] != r[1]] == []


def test_a_quote_in_its_own_paragraph_belongs_to_the_person_before(book) -> None:
    ctx = CheckContext.load(book)
    body = "林晚抬起头，直直地看着大长老。\n“灭门那夜的血书，在我手里。”"
    [finding] = [f for f in check_draft(book, Draft("A", {"推进承诺": ["P-001"]}, body, 5, body), None, ctx)
                 if f.kind == "泄密"]
    assert finding.line == 6 and finding.message.startswith("林晚 不是 S-001 的知情人")


def test_a_reveal_the_draft_declares_is_no_leak(book) -> None:
    ctx = CheckContext.load(book)
    body = "那封血书上写得清清楚楚：灭门的主使另有其人。"
    meta = {"视角": "林晚", "推进承诺": ["P-001"]}
    assert [f.kind for f in check_draft(book, Draft("A", meta, body, 1, body), None, ctx) if f.kind == "泄密"] == ["泄密"]
    meta["设定变更"] = ["S-001.读者已知=是"]
    assert not [f for f in check_draft(book, Draft("A", meta, body, 1, body), None, ctx) if f.kind == "泄密"]


# --- the ignore list, the acceptance card's marks, names added after the card ------------------------


def test_one_command_grows_the_books_ignore_list(book) -> None:
    from lw_storyrepo import edits

    body = "雪下得很大。宋青书拄杖而立。宋青书道：“走吧。”"
    draft = Draft("A", {}, body, 1, body)
    assert [f.message for f in check_draft(book, draft) if f.kind == "新专名"] == [
        "新专名「宋青书」（人物）不在名册：验收时确认是新实体还是笔误"]
    edits.ignore_names(book, ["宋青书"])
    assert not [f for f in check_draft(book, draft) if f.kind == "新专名"]
    assert "## 非专名（机检不再提示）\n- 宋青书\n" in book.text(L.名册)
    assert book.git.out("log", "-1", "--format=%s") == "fix(设定): 非专名+宋青书\n"
    with pytest.raises(LwError, match="已在非专名"):
        edits.ignore_names(book, ["宋青书"])
    with pytest.raises(LwError, match="是专名"):
        edits.ignore_names(book, ["林晚"])


def test_the_acceptance_card_registers_ignores_or_leaves_each_new_name(book) -> None:
    draft = DRAFT.replace("她握紧了玄阶令牌。", "她握紧了玄阶令牌。\n远处，宋青书拄杖而立。宋青书道：“走吧。”")
    to_reviewed(book, draft=draft)
    card = book.text(L.验收卡)
    assert "- [ ] 萧无涯（人物）" in card and "- [ ] 宋青书（人物）" in card
    card = card.replace("- [ ] 萧无涯（人物）", "- [x] 萧无涯（人物）").replace("- [ ] 宋青书（人物）", "- [-] 宋青书（人物）")
    book.p(L.验收卡).write_text(card, encoding="utf-8")
    verdict.accept(book)
    roster = book.text(L.名册)
    assert "| 萧无涯 |  | 人物 | 1 |" in roster and "- 宋青书" in roster.split("## 非专名")[1]
    assert roster.index("| 萧无涯 |") < roster.index("## 非专名")  # the table stays one table
    assert "名册+萧无涯; 非专名+宋青书" in book.git.out("log", "-1", "--format=%B")


def test_a_name_written_in_after_the_card_is_asked_about_before_acceptance(book) -> None:
    to_reviewed(book)
    path = book.p(L.draft_file("A"))
    path.write_text(path.read_text(encoding="utf-8") + "宋青书从雪里走来。宋青书道：“久等了。”\n", encoding="utf-8")
    head = book.git.head()
    with pytest.raises(LwError, match="宋青书"):
        verdict.accept(book)
    assert book.git.head() == head and "- [ ] 宋青书（人物）" in book.text(L.验收卡)
    card = book.text(L.验收卡).replace("- [ ] 宋青书（人物）", "- [x] 宋青书（人物）")
    book.p(L.验收卡).write_text(card, encoding="utf-8")
    verdict.accept(book)
    assert "| 宋青书 |  | 人物 | 1 |" in book.text(L.名册)


def test_checks_stage_reports_name_and_kind(book) -> None:
    to_reviewed(book)
    drafts.submit_draft(book, "B", DRAFT.replace("风雪扑面。", "风雪扑面，听雨轩的灯还亮着。她想起听雨轩的旧主人。"))
    results = review.run_checks(book)
    assert "新专名「听雨轩」（地点）不在名册：验收时确认是新实体还是笔误" in [f.message for f in results["B"]]
