"""The new-name check, twenty-third round (task N23): the pool of every development book's false and missed names,
sorted by form (the census: an organisation said once in full, a real place with its kind word, a piece of a longer
name, a trade word, a clause piece, a nickname of ordinary words …). The form built is the one seen on most books: an
organisation named in full by a stem, the words of its trade and a general word for a body (合作社, 俱乐部, 拍卖行, 公会,
指挥部, 大队, 队 …). The sentences are made up for these tests, in other genres and periods than the sets'; none is a
labelled answer of any set."""

from __future__ import annotations

import cProfile
import itertools
import pstats
from typing import Callable

from lw_storyrepo.propernouns import find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, list(known))}


def test_an_organisation_said_in_full_by_stem_trade_and_head() -> None:
    """A coined stem, its trade's words and a head word of a body name an organisation said once: a 1970s fishing
    cooperative, a mountaineering club, a fishing brigade."""
    found = _found("一九七五年春天，他进了渔湾水产合作社，天天跟着船出海。")
    assert found.get("渔湾水产合作社") == "组织"
    found = _found("他在云杉户外俱乐部当了五年教练，带人爬过七座雪山。")
    assert found.get("云杉户外俱乐部") == "组织"
    found = _found("第二年，她调进了白鹭渔业大队，跟着老把头学看潮水。")
    assert found.get("白鹭渔业大队") == "组织"


def test_a_team_named_by_its_trade_word_before_dui() -> None:
    """队 alone is a head only after a trade word (金城+航运+队 of the sets; here 沙洲+航运+队); a stem
    with no trade word before 队 names nothing (班里的+篮球队 is a kind of team)."""
    found = _found("一九五八年，他分到沙洲航运队，在江上跑了六年。")
    assert found.get("沙洲航运队") == "组织"
    assert not {"篮球队", "班里篮球队"} & set(_found("下午，班里的篮球队要去县城比赛。"))


def test_a_common_word_or_a_verb_before_the_head_names_no_body() -> None:
    """Near misses: a common noun before the head (国营+剧团, 急救+中心, 商业+俱乐部) is a kind of body; a verb or an
    adverb before it (撞见, 刚到) ends the chain with nothing in it; a chain that begins inside a glued word (叫星芒)
    names nothing of its own."""
    ordinary = _found("后来他调到国营剧团，又去了急救中心。\n小王刚到公司，就被叫去开会。\n这是一家商业俱乐部。\n他在评剧团唱了十年。")
    assert not {"国营剧团", "急救中心", "小王刚到公司", "刚到公司", "商业俱乐部", "评剧团"} & set(ordinary)


def _calls(fn: Callable[[], object]) -> int:
    """The calls ``fn()`` made (Python functions, builtins and each step of a generator), as the hostile looks count."""
    profile = cProfile.Profile()
    profile.runcall(fn)
    return sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


_STEMS = ["".join(t) for t in itertools.product("金银铜云松柏枫岚溪", repeat=3)]
HOSTILE_CHAINS: dict[str, Callable[[int], str]] = {
    "heads": lambda n: "金城航运队" * n,  # a line of thousands of heads: each token's start was the max of every bound
    "heads_commas": lambda n: "野径户外俱乐部，" * n,
    # hundreds of organisations said in full, each new: each was tried against the ending of every candidate before
    "distinct_chains": lambda n: "".join(_STEMS[i % len(_STEMS)] + "航运队，" for i in range(n)),
}


def test_a_line_of_thousands_of_chain_heads_is_read_in_linear_work() -> None:
    """Finding 8 (stop 50, an outside review): a line of thousands of heads took 37 s (金城航运队 × 10,000; 1.5 s
    before the chain reader) — each token's start was the largest bound before it, found by reading every bound of
    the line, and each name said in full was tried against the ending of every candidate. Counted, never timed: the
    work at four times the line grows about four times (it grew 11–15 times)."""
    find_new_nouns("他说。", [])  # the lexicon, loaded once
    for shape, make in HOSTILE_CHAINS.items():
        small = _calls(lambda: find_new_nouns(make(200), []))
        large = _calls(lambda: find_new_nouns(make(800), []))
        assert large < 5.5 * small, (shape, small, large)
    assert _found("他在沙洲航运队跑船。")["沙洲航运队"] == "组织"  # the reader still reads
