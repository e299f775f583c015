"""Hostile input, a ninth look: the readers of the names ending a card's text, beside a 名册 of thousands of names.

Each class here made the checks' context grow with the product of two things the author controls: a card of
thousands of relations to no one named (许砚是邻居的姐姐。 over and over) beside a 名册 of thousands of names (each
relation tried every name against the whole card text before it: the product, times the card's length —
``relation_gender`` 0.4 s for 800 of each, 3 s for 1,600, a minute and more at the cap; :func:`relatives` tried
every name against each relation as well — left as it was: the lookup by lengths lost a contract catch of 连续性-盲评十三); a card of thousands of other names beside a 名册 of thousands (each of
the card's names tried against each of the others', in every pattern of a card's forms). The figures are in
bench/story_hostile.py (the ``ninth_`` cases). The readers now cut the text at the names' lengths
(:class:`~lw_storyrepo.wordsre.Ends`); the scans they replace are kept here as the specification, and the work is
counted (calls, through the profiler: a quadratic reader come back counts millions), never timed."""

from __future__ import annotations

import cProfile
import pstats
import random
from typing import Callable, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo import kinship
from lw_storyrepo.continuity import World, _forms_of
from lw_storyrepo.propernouns import not_inside_longer
from lw_storyrepo.wordsre import Ends

CAP = 60_000
T = TypeVar("T")


def _counted(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the calls it made (Python functions, builtins and each step of a generator)."""
    profile = cProfile.Profile()
    result = profile.runcall(fn)
    return result, sum(row[1] for row in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


def _names(k: int) -> list[str]:
    return ["王" + chr(0x4E00 + (i * 7919) % 20000) + chr(0x4E00 + (i * 104729) % 20000) for i in range(k)]


_WORDS = st.lists(st.text(alphabet="王林先生二小", min_size=1, max_size=4), max_size=8)


@settings(max_examples=600, deadline=None)
@given(words=_WORDS, text=st.text(alphabet="王林先生二小的", max_size=10), data=st.data())
def test_the_words_ending_a_text_are_the_ones_each_tried_against_it_would_find(words: list[str], text: str,
                                                                               data: st.DataObject) -> None:
    end = data.draw(st.integers(0, len(text)))
    ends = Ends(words)
    longest_first = sorted(set(words), key=len, reverse=True)
    assert list(ends.of(text)) == [w for w in longest_first if text.endswith(w)]
    assert list(ends.of(text, end)) == [w for w in longest_first if text[:end].endswith(w)]
    assert list(ends.of(text, end, shorter=True)) == [w for w in longest_first if len(w) < end and text[:end].endswith(w)]


def _old_relation_gender(card_text: str, names: set[str]) -> str:
    body = kinship.free_text(card_text)
    named = [n for n in names if len(n) >= 2]
    words = {kinship.WORDS[m.group(1)] for m in kinship._RELATION.finditer(body)
             if m.start() >= 2 and any(body[:m.start()].endswith(n) for n in named)}
    she, he = bool(words & kinship._SHE_RELATION), bool(words & kinship._HE_RELATION)
    return "她" if she and not he else "他" if he and not she else ""


def test_a_card_s_relations_read_as_each_name_tried_read_them() -> None:
    rng = random.Random(9)
    parts = ["王二", "林先生", "小林", "的姐姐", "的父亲", "之女", "，", "是", "生"]
    for _ in range(3000):
        names = {"".join(rng.choice("王林先生二小") for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(0, 6))}
        card = "---\n姓名: 许砚\n---\n## 设定\n" + "".join(rng.choice(parts) for _ in range(rng.randint(0, 12)))
        assert kinship.relation_gender(card, names) == _old_relation_gender(card, names)


def test_a_card_of_the_cap_s_relations_beside_thousands_of_names_reads_each_relation_once() -> None:
    names = set(_names(CAP // 15))
    card = "---\n姓名: 许砚\n---\n## 设定\n" + "许砚是邻居的姐姐。" * (CAP // 9) + "\n"
    gender, calls = _counted(lambda: kinship.relation_gender(card, names))
    assert gender == ""  # the neighbour is no one named
    assert kinship.relation_gender(card + "许砚是王林先生的姐姐。", names | {"王林先生"}) == "她"
    assert calls < 30 * (CAP // 9) + 5 * len(names), calls  # the old scan: 26 million tries


def _old_leads(world: World, people: list[str]) -> str:
    wanted = set(people)
    forms = sorted((a for a, n in world.aliases.items() if n in wanted and len(a) >= 2), key=len, reverse=True)
    others = [a for a, n in world.aliases.items() if n not in wanted]
    return "|".join("".join(f"(?<!{a[:-len(f)]})" for a in others if len(a) > len(f) and a.endswith(f)) + f for f in forms)


def test_a_card_s_forms_are_led_as_each_pair_tried_led_them() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        aliases = {"".join(rng.choice("王林先生二小") for _ in range(rng.randint(1, 5))): rng.choice("甲乙丙丁")
                   for _ in range(rng.randint(0, 12))}
        people = rng.sample("甲乙丙丁", rng.randint(0, 4))
        # stop 58 (K7): the forms are then guarded against standing inside a longer word (小王 in 小王庄)
        guard = not_inside_longer(a for a, n in aliases.items() if n in people)
        old = _old_leads(World(aliases=aliases), people)
        assert _forms_of(World(aliases=aliases), people) == (f"(?:{old}){guard}" if guard else old)


def test_a_card_of_thousands_of_forms_beside_a_roster_of_thousands_is_read_once_per_name() -> None:
    names = _names(CAP // 15)
    aliases = {**{n: n for n in names}, **{"砚" + n[1:]: "许砚" for n in names}, "许砚": "许砚",
               "老许砚": "顾衡", "顾衡": "顾衡"}
    forms, calls = _counted(lambda: _forms_of(World(aliases=aliases), ["许砚"]))
    assert "(?<!老)许砚" in forms and forms.count("|") == len(names)
    assert calls < 10 * len(aliases), calls  # the old pairs: 16 million tries
