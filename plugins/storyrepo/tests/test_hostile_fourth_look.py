"""Hostile input, a fourth look: the prose readers in time bounded by the draft, not by its square.

Each class here once made one check of one draft take tens of seconds: a card holding thousands of
things (every thing's forms compared with every other's, and the pattern of all of them built for
every draft), a held thing's name of thousands of characters (each of its ends copied and compared),
a run of one phrase the name detector takes for a person (its subject test read every place the
phrase is said once per place), a book of thousands of names (each name looked for in the draft by
a reading of its own, and tried one after another at every place a draft may hold one). The
figures are in bench/story_hostile.py; these tests pin the behaviour and the bounds by counting."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lw_storyrepo import propernouns
from lw_storyrepo.checks import CheckContext, check_draft
from lw_storyrepo.continuity import EVERYDAY, ITEM_KIND, TAIL_MAX, _item_forms, _items_pattern
from lw_storyrepo.drafts import Draft
from lw_storyrepo.propernouns import find_new_nouns
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.wordsre import DEPTH_MAX, SCAN_MAX, alternation, occurring

LETTERS = "王林小二三麻子五牌表钥匙"
WORDS = st.sets(st.text(alphabet=LETTERS, min_size=1, max_size=6), max_size=14)
TEXTS = st.text(alphabet=LETTERS + "说，", max_size=60)
FRAMES = ("({})", "({})说", "({})[^说]{{0,2}}?说", "(?<!王)({})", "(?:{}|他)子")


def _joined(words: set[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) if words else r"(?!)"


@settings(max_examples=300, deadline=None)
@given(words=WORDS, text=TEXTS, frame=st.sampled_from(FRAMES))
def test_the_tree_of_words_matches_as_the_words_joined_longest_first(words: set[str], text: str, frame: str) -> None:
    tree, joined = re.compile(frame.format(alternation(words))), re.compile(frame.format(_joined(words)))
    assert [m.span() for m in tree.finditer(text)] == [m.span() for m in joined.finditer(text)]


def test_words_nested_past_the_depth_bound_still_match_as_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    words = {"林" * k for k in range(1, 60)} | {"林林王", "林" * 30 + "王"}
    text = "林" * 70 + "王林林王"
    assert DEPTH_MAX < 60
    assert [m.span() for m in re.finditer(alternation(words), text)] == [m.span() for m in re.finditer(_joined(words), text)]


def test_a_word_of_sixty_thousand_characters_and_hundreds_of_nested_ones_compile() -> None:
    pattern = re.compile(alternation(["林" * k for k in range(1, 400)] + ["甲" * 60_000]))
    m = pattern.match("林" * 500)
    assert m is not None and m.end() == 399
    assert pattern.fullmatch("甲" * 60_000)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(alphabet=LETTERS, max_size=10), max_size=3 * SCAN_MAX), text=TEXTS)
def test_occurring_is_the_words_found_in_the_text(words: list[str], text: str) -> None:
    assert occurring(words, text) == {w for w in words if w and w in text}


def _item_forms_by_definition(items: list[str]) -> list[str]:
    """The held-thing forms as they were defined before they were counted in one pass."""
    out = [re.escape(n) for n in items]
    for n in items:
        brand = n.find("牌")
        if 2 <= brand < len(n) - 1 and not any(m != n and m.startswith(n[:brand + 1]) for m in items):
            out.append(re.escape(n[:brand + 1]))
        for k in range(1, len(n) - 1):
            tail = n[k:]
            if len(tail) >= 2 and not any(m != n and m.endswith(tail) for m in items) and tail not in items \
                    and tail not in EVERYDAY:
                out.append(rf"(?<=[那这][{ITEM_KIND}]){re.escape(tail)}")
    return list(dict.fromkeys(out))


@settings(max_examples=300, deadline=None)
@given(items=st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=TAIL_MAX + 1), max_size=12))
def test_held_thing_forms_counted_in_one_pass_are_the_definition_s(items: set[str]) -> None:
    names = sorted(items)
    assert _item_forms(names) == _item_forms_by_definition(names)


@settings(max_examples=200, deadline=None)
@given(items=st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=8), max_size=12), text=TEXTS)
def test_the_forms_a_draft_is_read_with_are_those_its_text_holds(items: set[str], text: str) -> None:
    names = sorted(items)
    plain = [re.sub(r"^\(\?<=[^)]*\)", "", f).replace("\\", "") for f in _item_forms(names)]
    kept = _item_forms(names, text)
    assert kept == [f for f, p in zip(_item_forms(names), plain) if p in text]


def test_a_held_thing_named_by_sixty_thousand_characters_has_a_dozen_forms() -> None:
    forms = _item_forms(["甲" * 60_000, "上海牌" + "乙" * 60_000])
    assert len(forms) <= 2 * TAIL_MAX + 3
    assert "上海牌" in forms


def test_a_name_said_thousands_of_times_is_read_for_its_subject_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    subject = propernouns._subject

    def counted(lex, lines, name):  # type: ignore[no-untyped-def]
        calls.append(name)
        return subject(lex, lines, name)

    monkeypatch.setattr(propernouns, "_subject", counted)
    find_new_nouns("练气筑基金丹元婴化神" * 1500, set())
    assert len(calls) == len(set(calls))


def _card_holding(book: StoryRepo, things: list[str]) -> None:
    path = next(p for p in book.p("定稿/设定/角色").iterdir() if "持有:" in p.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("持有:\n", "持有:\n" + "".join(f"  - {t}\n" for t in things), 1), encoding="utf-8")


def test_a_card_holding_thousands_of_things_still_finds_a_use_of_one_it_does_not_hold(book: StoryRepo) -> None:
    things = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(3000)]
    _card_holding(book, things)
    ctx = CheckContext.load(book)
    assert ctx.world is not None
    holder = next(n for n, c in ctx.world.cards.items() if things[0] in [str(x) for x in c.get("持有") or []])
    other = next(n for n in ctx.world.cards if n != holder)
    body = f"{other}拔出{things[7]}，{holder}握紧{things[8]}。"
    found = [f for f in check_draft(book, Draft("A", {"推进承诺": ["P-001"]}, body, 1)) if f.kind == "连贯"]
    assert any(things[7] in f.message and f"在{holder}的持有里" in f.message for f in found)
    assert not any(things[8] in f.message for f in found)


PROSE = st.text(alphabet=st.sampled_from(list("林晚陈默青霜剑说道：“”「」《》（）\n。，！？他她我的了把被那柄一二三十年月日省城山宗")
                                         + ["\u202e", "\x1b", "\u200b", "𝔸"]), max_size=300)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=PROSE, present=st.lists(st.text(alphabet="林晚陈默青霜王", min_size=1, max_size=4), max_size=4))
def test_the_prose_readers_never_raise_on_any_text(book: StoryRepo, body: str, present: list[str]) -> None:
    meta = {"推进承诺": ["P-001"], "视角": "林晚", "在场": present, "书内时间": "第三年十月"}
    for finding in check_draft(book, Draft("A", meta, body, 1)):
        assert finding.line >= 1


@settings(max_examples=300, deadline=None)
@given(items=st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=6), max_size=10),
       text=st.text(alphabet=LETTERS + "那这把块", max_size=60))
def test_the_ends_sharing_one_look_behind_match_as_one_each(items: set[str], text: str) -> None:
    forms = _item_forms(sorted(items))
    if not forms:
        return
    one_each = "|".join(sorted(forms, key=lambda f: -len(f.split(")")[-1])))
    for frame in ("({})", "({})[^那]{{0,2}}?子", "王[^那]{{0,3}}?({})"):
        shared, joined = re.compile(frame.format(_items_pattern(forms))), re.compile(frame.format(one_each))
        assert [m.span(1) for m in shared.finditer(text)] == [m.span(1) for m in joined.finditer(text)]
