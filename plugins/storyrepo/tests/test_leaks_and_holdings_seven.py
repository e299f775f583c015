"""Leaks and holdings, seventh round (issue 30, K7 at stop 58): one cut of a contract line for all its readers; a
person's name not found inside a longer word.

- the contract readers of a line (the words an event says, :func:`lw_storyrepo.checks.word_pairs`; the act a thing is
  used for, :func:`lw_storyrepo.checks.act_given_up`; a place in reported words,
  :func:`lw_storyrepo.checks._reported_question`) share the line's segmented runs: a run is cut once, and the cut is
  the one each reader made alone;
- a person's name or title is not found inside a longer noun of the dictionary it begins
  (:func:`lw_storyrepo.propernouns.not_inside_longer`: 老板 in 老板娘, 石头 in 石头缝; not 师兄 in 师兄弟, R58) ending in another
  person's or a place's head (:data:`lw_storyrepo.propernouns.LONGER_WORD_HEADS`); a verb or an address after it
  (阿福道：, 冯大哥) leaves the name: one guard on the names pattern the leak check's voices,
  continuity (:meth:`lw_storyrepo.checks.CheckContext.names_re`, its forms of people) and the contract's terms read
  drafts with. 老板说, 老板的 are the name;
Settings are not the labelled sets': a night market's noodle stall, a river ferry, a mountain quarry.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import (ERROR, WARN, CheckContext, _reported_question, act_given_up, contract_findings, dwellers_of,
                                  leak_and_waste, word_pairs)
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft
from lw_storyrepo.propernouns import lexicon

from continuity_helpers import findings, names_found


def test_a_contract_lines_runs_are_cut_once_for_all_its_readers() -> None:
    line = "阿强给渡口送午饭"
    cuts: dict[str, tuple[int, ...]] = {}
    alone = word_pairs("给渡口送午饭")
    assert word_pairs("给渡口送午饭", cuts) == alone
    assert "给渡口送午饭" in cuts  # the run is kept, cut once for the line's other readers
    kept = dict(cuts)
    body = "天黑了，阿强说今天不送了，明天再送。"
    shared, alone_off = act_given_up("送午饭", body, cuts), act_given_up("送午饭", body)
    assert shared is not None and alone_off is not None and shared.span() == alone_off.span()
    assert all(cuts[run] == ends for run, ends in kept.items())  # a run already cut is not cut again
    assert lexicon().boundaries(line, cuts=cuts) == lexicon().boundaries(line)
    asked = "老周说他问过坐船到县城要几个钟头"
    at = asked.find("县城")
    assert _reported_question(asked, at, "县城", cuts) == _reported_question(asked, at, "县城") is True


@pytest.mark.parametrize("text, found", [
    ("老板娘端来一碗面，搁在桌上。", []),  # the boss's wife, not the boss
    ("老板说今天的汤不要钱。", ["老板"]),  # near misses: the name, then a word of its own
    ("老板的伙计蹲在灶后。", ["老板"]),
    ("老板们凑在一起算账。", ["老板"]),  # their own crowd
    ("石头缝里钻出一条蜈蚣。", []),  # a nickname inside a longer word
    ("石头扛着錾子上了坡。", ["石头"]),
    ("师兄弟几个都没吭声。", ["师兄"]),  # R58 K7-b (fkn): the pair's plural holds the 师兄 too
    ("冯大哥把缆绳递过来。", ["冯大"]),  # an address after the name: the same man
    ("阿福道：“走吧。”", ["阿福"]),  # a verb after the name, though the dictionary knows 阿福道 (a road)
])
def test_a_persons_name_is_not_found_inside_a_longer_word(text: str, found: list[str]) -> None:
    aliases = {"周老板": "周老板", "老板": "周老板", "吕石头": "吕石头", "石头": "吕石头", "师兄": "韦青",
               "韦青": "韦青", "冯大": "冯大", "阿福": "阿福", "码头": "码头"}
    assert names_found(text, aliases, {"周老板", "吕石头", "韦青", "冯大", "阿福"}) == found


def test_a_place_keeps_its_longer_words() -> None:
    assert names_found("他是浙江省来的。", {"浙江": "浙江"}, set()) == ["浙江"]


def test_a_keyword_said_by_the_bosss_wife_is_no_leak_of_the_boss() -> None:
    aliases = {"周老板": "周老板", "老板": "周老板", "阿强": "阿强"}
    secrets = [("S-001", {"阿强"}, False, ["假账"])]
    ctx = CheckContext(aliases, secrets, [], [], 0, set(aliases), set(), people={"周老板", "阿强"})
    def leaks(text: str) -> list[str]:
        return [f.message for f in leak_and_waste(ctx, text.split("\n"), 1, {}, set(), "阿强") if f.kind == "泄密"]
    assert leaks("夜市收摊了。老板娘压低声音说：“那本假账，我早看见了。”") == []
    assert any(m.startswith("周老板") for m in leaks("夜市收摊了。老板压低声音说：“那本假账，我早看见了。”"))


def _dead_boss(body: str) -> list[str]:
    cards: dict[str, dict[str, object]] = {"阿强": {"位置": "夜市"}, "周老板": {"位置": "夜市", "状态": "已死"}}
    aliases = {"阿强": "阿强", "周老板": "周老板", "老板": "周老板", "夜市": "夜市"}
    world = World(cards, aliases, {"夜市"}, set(), ("普通人",), None, {}, {})
    return [f.message for f in findings(body, world, "阿强", "1987年6月3日", ["阿强"]) if "周老板" in f.message]


def test_the_dead_bosss_wife_at_the_stall_is_not_the_boss() -> None:
    assert _dead_boss("阿强收了摊。老板娘端着一碗面走过来，说：“吃了再走。”") == []
    assert _dead_boss("阿强收了摊。老板端着一碗面走过来，说：“吃了再走。”") != []


def _contract(line: str, body: str) -> list[str]:
    cards: dict[str, dict[str, object]] = {"阿强": {"位置": "夜市"}, "周老板": {"位置": "夜市", "持有": ["账本"]}}
    aliases = {"阿强": "阿强", "周老板": "周老板", "老板": "周老板", "夜市": "夜市"}
    world = World(cards, dict(aliases), {"夜市"}, {"账本"}, ("普通人",), None, {}, {})
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), {"账本"}, world=world, people=set(cards),
                       dwellers=dwellers_of(cards)).for_draft({})
    return [f.message for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_a_contract_person_named_only_inside_a_longer_word_is_not_in_the_prose() -> None:
    assert any("周老板" in m for m in _contract("周老板在夜市收摊", "夜市散了，老板娘一个人把折叠桌收进棚里。"))
    assert not any("周老板" in m for m in _contract("周老板在夜市收摊", "夜市散了，老板一个人把折叠桌收进棚里。"))
