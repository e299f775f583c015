"""The rules stop 37's third round added on 连续性-盲评三 (a Tang court case written blind), each a
class of sentence an author writes and not one sentence of that set: held here in other words,
with the wrong draft that must still be caught next to each right one (corpus: 连续性-开发四)."""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, CheckContext, contract_findings, leak_and_waste, voices
from lw_storyrepo.continuity import DEFAULT_STAGES, World, check_continuity
from lw_storyrepo.drafts import Draft

CARDS = {
    "林晚": {"姓名": "林晚", "状态": "在世", "位置": "青云宗", "境界": "筑基七层", "持有": ["青霜剑", "铜鱼符"]},
    "沈砚": {"姓名": "沈砚", "状态": "在世", "位置": "落霞谷", "境界": "金丹初期", "持有": ["玄阶令牌", "乌金刀"]},
    "云娘": {"姓名": "云娘", "状态": "已死", "位置": "落霞谷"},
    "陆川": {"姓名": "陆川", "状态": "失踪", "位置": "北境雪原"},
}
ALIASES = {name: name for name in CARDS}
PLACES = {"青云宗", "落霞谷", "北境雪原", "藏经阁", "西市", "济春堂", "西市济春堂"}
ITEMS = {"青霜剑", "铜鱼符", "玄阶令牌", "乌金刀"}


def context(meta: dict | None = None, gender: dict[str, str] | None = None) -> CheckContext:
    world = World(CARDS, dict(ALIASES), PLACES, ITEMS, DEFAULT_STAGES, None, {}, gender or {})
    names = {**ALIASES, **{p: p for p in PLACES}}  # the roster's places are names too
    ctx = CheckContext(names, [("S-001", {"沈砚"}, False, ["密道", "暗格"])], [], [], 0, set(names), set(ITEMS),
                       world=world, people=set(CARDS), dead=frozenset({"云娘"})).for_draft(meta or {})
    world.aliases = ctx.aliases
    return ctx


def continuity(body: str, meta: dict | None = None, gender: dict[str, str] | None = None) -> list[str]:
    ctx = context(meta, gender)
    lines = body.split("\n")
    assert ctx.world is not None
    return [f.message for f in check_continuity(ctx.world, meta or {}, lines, 1, voices(ctx, lines), ctx.names_re())]


def contract(lines: list[str], body: str, meta: dict | None = None) -> list[str]:
    draft = Draft("A", meta or {"推进承诺": ["P-001"]}, body, 5)
    return [f.message for f in contract_findings({"合同": lines}, draft, context(meta)) if f.severity in (ERROR, "warn")]


def said(text: str, meta: dict | None = None) -> list[tuple[str, str]]:
    return [(v.speaker, v.words) for v in voices(context(meta), text.split("\n")) if v.speaker]


def test_an_arrival_in_the_placing_clause_is_a_move_and_someone_elses_is_not() -> None:
    assert not [m for m in continuity("林晚在落霞谷口下了马，抬头看天。") if "位置" in m]
    assert [m for m in continuity("林晚推门进去的时候，沈砚正站在藏经阁的书架前。") if "位置" in m]


def test_a_missing_character_has_no_certain_place_but_the_others_do() -> None:
    assert not [m for m in continuity("陆川此刻就躺在落霞谷的山洞里。") if "位置" in m]
    assert [m for m in continuity("沈砚此刻就躺在北境雪原的山洞里。") if "位置" in m]


def test_a_thing_in_a_comparison_is_not_used() -> None:
    assert not [m for m in continuity("林晚在纸上画了一块和玄阶令牌一样的纹样。") if "持有" in m]
    assert [m for m in continuity("林晚握紧了玄阶令牌。") if "持有" in m]


def test_the_point_of_view_is_what_自己_is() -> None:
    found = continuity("她苦笑。\n自己眼下不过筑基三层的修为，拿什么去争？", {"视角": "林晚"})
    assert any(m.startswith("林晚 的境界是「筑基七层」") for m in found), found


def test_a_pronoun_opening_a_sentence_uses_the_things_of_its_clauses() -> None:
    body = "林晚等不到沈砚回来。她把门闩上，拉开抽屉，取出玄阶令牌。"
    assert any(m.startswith("林晚 的持有里没有「玄阶令牌」") for m in continuity(body, gender={"林晚": "她", "沈砚": "他"}))
    # two of the pronoun's gender: the sentence before says who (its subject), not a guess
    body = "沈砚等不到林晚回来。他把门闩上，拉开抽屉，取出青霜剑。"
    assert any(m.startswith("沈砚 的持有里没有「青霜剑」") for m in continuity(body, gender={"林晚": "他", "沈砚": "他"}))


def test_a_place_called_by_its_last_character() -> None:
    found = continuity("林晚推门进了藏经阁。\n\n沈砚正坐在阁中，翻着一本旧册子。")
    assert any(m.startswith("沈砚 在「落霞谷」") and "藏经阁" in m for m in found), found
    assert not [m for m in continuity("沈砚正坐在阁中。") if "位置" in m]  # no such place named nearby


def test_the_dead_are_named_for_what_was_theirs_unless_asked_in() -> None:
    assert contract(["林晚翻出云娘留下的药方"], "林晚翻出一张发黄的药方。") == []
    assert contract(["云娘出场"], "林晚翻出一张发黄的药方。") == ["合同「云娘出场」提到「云娘」，正文里没有"]


def test_a_held_thing_by_its_kind_alone_or_by_its_shape() -> None:
    assert contract(["沈砚带着乌金刀"], "沈砚把那把刀往桌上一拍。") == []
    assert contract(["沈砚带着乌金刀"], "沈砚空着手来了。") != []
    assert contract(["林晚亮出铜鱼符"], "林晚解下一枚鱼形的小铜片。") == []
    assert contract(["林晚亮出铜鱼符"], "林晚解下一枚小铜片。") != []


def test_a_place_by_its_own_name_without_its_district() -> None:
    assert contract(["林晚去西市济春堂"], "林晚掀帘进了济春堂。") == []
    assert contract(["林晚去西市济春堂"], "林晚在西市转了一圈。") != []


def test_a_promise_opened_against_a_frozen_contract() -> None:
    meta = {"推进承诺": ["P-001"], "开启承诺": ["P-003"]}
    assert contract(["P-001 推进：林晚找到药方"], "林晚找到药方。", meta) == [
        "草稿开启了合同没有提到的承诺 P-003；要开就先修改合同"]
    draft = Draft("A", meta, "林晚找到药方。", 5)
    assert [f.severity for f in contract_findings({"合同": ["P-001 推进：林晚找到药方"]}, draft, context(meta))] == ["warn"]
    assert contract(["P-001 推进：林晚找到药方", "开启一个新伏笔"], "林晚找到药方。", meta) == []


def test_who_speaks_a_quote_the_narration_does_not_attribute() -> None:
    # the last person leading a clause before a lone quote
    assert said("林晚收好药方，正要走，沈砚却拉住她的袖子。\n“别走。”") == [("沈砚", "别走。")]
    # a pronoun's clause ending in a colon; an owner (沈砚的字条) is not the subject it carries
    assert said("林晚进了屋。\n桌上压着沈砚的字条。\n她低声念出来：“快走。”") == [("林晚", "快走。")]
    # right after its one person's own sentence
    assert said("“谁？”沈砚问。\n林晚跑进门，满头大汗。“出事了！”") == [("沈砚", "谁？"), ("林晚", "出事了！")]
    # a pronoun carries the paragraph's subject past a name it only thinks of
    assert said("林晚进了门。\n她在院里站了一会儿，想起了陆川。\n她心里暗暗寻思：陆川一定还活着。")[-1][0] == "林晚"


def test_a_narration_leak_names_the_point_of_view_it_is_told_from() -> None:
    ctx = context({"视角": "林晚"})
    found = leak_and_waste(ctx, ["她并不知道，密道就在暗格后面。"], 1, pov="林晚")
    assert [f.message.startswith("叙述（视角 林晚 不是知情人）说出了读者尚不知道的 S-001（") for f in found] == [True]


def test_a_leak_by_a_guessed_speaker_is_a_warning_and_by_a_named_one_an_error() -> None:
    """An error sends the draft back with no appeal; a speaker found by turn-taking or a pronoun is
    a reading, so what hangs on it is shown to the author and the lenses instead."""
    ctx = context({"在场": ["林晚", "陆川"]})
    severity = lambda text: [f.severity for f in leak_and_waste(ctx, text.split("\n"), 1)]
    assert severity("林晚道：“密道就在暗格后面。”") == [ERROR]
    assert severity("林晚收好药方，正要走，陆川却拉住她的袖子。\n“密道就在暗格后面。”") == ["warn"]
