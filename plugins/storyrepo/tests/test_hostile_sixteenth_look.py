"""Hostile input, a sixteenth look: stop 55's leftovers (figures in bench/story_hostile.py, ``sixteenth_``).

- A book's names and held things, as the contract reads a line's terms (:meth:`CheckContext.terms_re`), were one branch
  each: a card of 4,000 things tried all of them at every character of each of hundreds of contract lines. They are a
  tree now (:func:`~lw_storyrepo.wordsre.alternation`: the same longest term at each place).
- The held things a draft names, in every pattern of the continuity check (:func:`continuity._items_pattern`), were one
  branch each too: a draft naming a card's 4,000 things on one line took 28 s at the draft cap. The forms of one length
  are a tree behind a look at their first characters (:func:`~lw_storyrepo.wordsre.guarded`).
- Which of a card's things a draft names (:func:`continuity._item_forms`) searched the draft for each thing and each of
  its ends; now the draft is read once (:func:`~lw_storyrepo.wordsre.occurring`).
- The sentences naming a handed thing (:func:`checks._sentences_naming`) searched the whole prose for each form of each
  handover line's thing (lines × the prose); each form's sentences are read once a prose, through one index of the
  prose's pieces after :data:`checks.FIND_MAX` forms (:class:`checks._Naming`).
- A card's things' looks (:func:`checks.looks_of`) compiled a pattern for each thing.
- Whose relative a card's relation names (:func:`checks.relatives`, :func:`checks.kin_of`) tried every name of the book
  against the text before each relation (cards × cards: a book of thousands of cards loaded in seconds); the longest
  name ending it is looked up (:class:`~lw_storyrepo.wordsre.Ends`).
- A voice saying an info gap's keyword was asked of every gap of the book (:func:`checks.leak_and_waste`: gaps × voices,
  100 s at the draft cap beside 4,000 gaps); the gaps holding the keywords it says are looked up, and the keywords'
  pattern is :func:`~lw_storyrepo.wordsre.guarded`.

Each is read through its result and its work (branches of a pattern, searches, builds), never timed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from lw_storyrepo import checks
from lw_storyrepo.checks import CheckContext
from lw_storyrepo.continuity import _item_forms, _items_pattern
from lw_storyrepo.kinship import relations
from lw_storyrepo.wordsre import FAN_MAX, SCAN_MAX, Ends, guarded


def _things(k: int) -> list[str]:
    return ["物" + "".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(k)]


def _widest(pattern: str) -> int:
    """The most branches of one alternation anywhere in ``pattern`` (what the engine tries one after another)."""
    widest = 0
    stack: list[Any] = [re._parser.parse(pattern)]  # type: ignore[attr-defined]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)) or type(item).__name__ == "SubPattern":
            if isinstance(item, tuple) and len(item) == 2 and str(item[0]) == "BRANCH":
                widest = max(widest, len(item[1][1]))
            stack.extend(item)
    return widest


def test_the_contract_terms_are_one_tree() -> None:
    """The terms of a contract line are found as the flat alternation, longest first, found them; a book of 4,000
    things is a pattern whose widest alternation is a few branches, not 4,000."""
    rng = random.Random(1601)
    alphabet = "物许砚林知夏表怀旧"
    for _ in range(500):
        terms = tuple(sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(0, 12))},
                             key=len, reverse=True))
        text = "".join(rng.choice(alphabet + "。把") for _ in range(rng.randint(0, 40)))
        flat = re.compile("|".join(map(re.escape, terms))) if terms else re.compile(r"(?!)")
        assert [m.span() for m in checks._terms_pattern(terms).finditer(text)] == [m.span() for m in flat.finditer(text)]
    terms = tuple(sorted({*_things(4000), "许砚", "林知夏"}, key=len, reverse=True))
    assert _widest(checks._terms_pattern(terms).pattern) <= FAN_MAX


def _one_each(forms: list[str]) -> str:
    return "|".join(sorted(forms, key=lambda f: -len(f.split(")")[-1])))


def test_the_named_things_are_a_tree_of_each_length() -> None:
    """The pattern of a draft's held things matches as one branch each did (longest first, its ends after 那/这 and
    a measure word), inside longer patterns too; 4,000 things with 4,000 first characters make no alternation wider
    than :data:`FAN_MAX` branches and the look-behinds' groups."""
    rng = random.Random(1602)
    letters = "".join(chr(0x4E00 + k * 37) for k in range(40))
    for _ in range(300):
        items = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(1, 40))})
        forms = _item_forms(items)
        if not forms:
            continue
        text = "".join(rng.choice(letters[:12] + "那这把块王子") for _ in range(rng.randint(0, 60)))
        text += "".join(rng.choice(("那把", "王", "")) + rng.choice(items) for _ in range(3))
        for frame in ("({})", "({})[^那]{{0,2}}?子", "王[^那]{{0,3}}?({})"):
            shared, joined = re.compile(frame.format(_items_pattern(forms))), re.compile(frame.format(_one_each(forms)))
            assert [m.span(1) for m in shared.finditer(text)] == [m.span(1) for m in joined.finditer(text)]
    things = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(4000)]
    pattern = _items_pattern(_item_forms(things))
    assert _widest(pattern) <= FAN_MAX + 2 * len({len(t) for t in things}) + 2
    assert guarded([]) == r"(?!)" and re.fullmatch(guarded(["青霜剑", "青霜"]), "青霜剑")


def test_an_escaped_form_keeps_its_place() -> None:
    """A thing whose name holds a character the pattern escapes (A.B) is one branch in its place, as before."""
    forms = _item_forms(["A.B牌手表", "怀表", "AB"])
    for text in ("那块A.B牌手表", "怀表AB", "那只表A.B"):
        assert [m.span() for m in re.finditer(_items_pattern(forms), text)] == \
            [m.span() for m in re.finditer(_one_each(forms), text)]


class _Counted(str):
    """A draft counting the searches made of it (``word in draft``)."""

    asked = 0

    def __contains__(self, word: object) -> bool:
        _Counted.asked += 1
        return str.__contains__(self, word)  # type: ignore[operator]


def test_the_named_things_are_read_in_one_reading_of_the_draft() -> None:
    """Which of a card's 4,000 things (and their ends) a draft names: the same forms as each searched for, the draft
    searched at most :data:`SCAN_MAX` times, not once a thing and end."""
    things = _things(4000)
    text = "".join(f"许砚摸了摸{t}。" for t in things[:1500]) + "那只" + things[2000][-2:]
    plain = _item_forms(things)
    want = [f for f in plain if f.split(")")[-1].replace("\\", "") in text]
    _Counted.asked = 0
    assert _item_forms(things, _Counted(text)) == want
    assert _Counted.asked <= SCAN_MAX


def test_the_sentences_naming_a_handed_thing_are_read_once_a_form() -> None:
    """checks._sentences_naming gives the sentences each form stands in whole, by ``str.find`` for the first
    :data:`checks.FIND_MAX` forms asked of a prose and through one index of it after; hundreds of handover lines
    asking of one prose search it at most FIND_MAX times and cut it once."""
    rng = random.Random(1603)
    alphabet = "表怀旧。！\n…?ab"
    for _ in range(300):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        starts, ends, sentences = checks._sentences_of(body)
        for _ in range(rng.randint(1, 3 * checks.FIND_MAX // 4)):
            forms = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 4))]
            assert checks._sentences_naming(body, forms, starts, ends) == \
                [k for k, s in enumerate(sentences) if any(f in s for f in forms)]


def test_hundreds_of_handover_lines_search_the_prose_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    things = _things(600)
    body = "".join(f"许砚把{t}递给林知夏。" for t in things) + "许砚看了看窗外。" * 3000
    starts, ends, _sentences = checks._sentences_of(body)
    searched: list[str] = []
    cut: list[str] = []
    original_all, original_spots = checks._all_starts, checks.Spots
    monkeypatch.setattr(checks, "_all_starts", lambda word, text: searched.append(word) or original_all(word, text))
    monkeypatch.setattr(checks, "Spots", lambda text, cut_=8, **kw: cut.append(text) or original_spots(text, **kw))
    for k, t in enumerate(things):
        for _ in range(2):  # a second line of the same thing reads nothing again
            assert checks._sentences_naming(body, [t, "把" + t[-1]], starts, ends) == [k]
    assert len(searched) <= checks.FIND_MAX and len(cut) == 1


def _looks_by_definition(texts: dict[str, str], characters: dict[str, dict[str, Any]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for name, text in texts.items():
        body = checks.free_text(text)
        for thing in map(str, (characters.get(name) or {}).get("持有") or []):
            for m in re.finditer(re.escape(thing), body):
                look = re.search(f"[一两][{checks._MEASURE}台部]([\\u4e00-\\u9fff]{{2,6}}?)的?$", body[max(0, m.start() - 9):m.start()])
                if look:
                    out.setdefault(thing, set()).add(look.group(1))
    return {thing: frozenset(words) for thing, words in out.items()}


def test_a_card_of_thousands_of_things_compiles_no_pattern_for_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """checks.looks_of reads the same looks (一台摩托罗拉汉显BP机 → 摩托罗拉) with no pattern built per thing."""
    things = _things(2000) + ["汉显BP机", "万用表", "a.b"]
    card = "---\n姓名: 许砚\n---\n腰上别一台摩托罗拉汉显BP机，手里一只黄壳的万用表，还有一块a.b。" + \
        "".join(f"一只蓝布{t}，" for t in things[:300])
    texts, characters = {"许砚": card}, {"许砚": {"持有": things}}
    want = _looks_by_definition(texts, characters)
    assert want["汉显BP机"] == {"摩托罗拉"} and want["万用表"] == {"黄壳"}
    built: list[str] = []
    original = re.finditer
    monkeypatch.setattr(re, "finditer", lambda p, *a, **k: built.append(p) or original(p, *a, **k))
    assert checks.looks_of(texts, characters) == want
    assert built == []


def _relatives_by_definition(texts: dict[str, str], aliases: dict[str, str]) -> dict[str, dict[str, str]]:
    names = sorted((n for n in aliases if len(n) >= 2), key=len, reverse=True)
    out: dict[str, dict[str, str]] = {}
    clash: set[tuple[str, str]] = set()
    for person, text in texts.items():
        for before, forms in relations(text):
            anchor = next((aliases[n] for n in names if before.endswith(n)), None)
            if anchor is None or anchor == person:
                continue
            for form in forms:
                if out.setdefault(anchor, {}).setdefault(form, person) != person:
                    clash.add((anchor, form))
    for anchor, form in clash:
        out[anchor].pop(form, None)
    return out


def test_a_book_of_thousands_of_cards_finds_whose_relative_each_is_by_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    """checks.relatives (and kin_of) tried every name of the book against the text before each relation a card states:
    cards × cards for a book of thousands of cards. The longest name ending it is looked up (:class:`Ends`): the same
    relatives, one lookup per relation."""
    rng = random.Random(1604)
    people = ["陈默", "陈守义", "默", "守义", "林知夏", "知夏", "许砚"]
    for _ in range(300):
        aliases = {p: rng.choice(people[:3]) if len(p) < 3 else p for p in rng.sample(people, rng.randint(1, len(people)))}
        texts = {p: "---\n姓名: x\n---\n" + "".join(f"{rng.choice(people)}的{rng.choice(('爷爷', '妹妹', '师父', '舅舅'))}。"
                                                    for _ in range(rng.randint(0, 3))) for p in rng.sample(people, 3)}
        assert checks.relatives(texts, aliases) == _relatives_by_definition(texts, aliases)
    bearers = ["王" + t[1:3] for t in _things(2000)]
    texts = {p: f"---\n姓名: {p}\n---\n{bearers[(k + 1) % len(bearers)]}的妹妹。" for k, p in enumerate(bearers)}
    asked: list[str] = []
    original = Ends.of
    monkeypatch.setattr(Ends, "of", lambda self, text, *a, **k: asked.append(text) or original(self, text, *a, **k))
    assert checks.relatives(texts, {p: p for p in bearers}) == _relatives_by_definition(texts, {p: p for p in bearers})
    assert len(asked) <= len(texts)


class _Asked(list):  # type: ignore[type-arg]
    """A book's info gaps counting how many are asked about, one by one."""

    asked = 0

    def __getitem__(self, k: Any) -> Any:
        _Asked.asked += 1
        return list.__getitem__(self, k)

    def __iter__(self) -> Any:
        for item in list.__iter__(self):
            _Asked.asked += 1
            yield item


def test_thousands_of_info_gaps_ask_only_those_a_voice_names() -> None:
    """checks.leak_and_waste asked every info gap of the book at every voice saying any keyword (gaps × voices: a book
    of 4,000 gaps beside a draft naming them was 100 s at the draft cap); the gaps holding a keyword the voice says are
    looked up, in the gaps' order: the same findings, one gap asked per voice here."""
    words = ["".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(2000)]
    secrets = _Asked((f"S-{k:04d}", {"顾衡"}, False, [w, w[::-1]]) for k, w in enumerate(words))
    ctx = CheckContext({"许砚": "许砚"}, secrets, [], [], 0, {"许砚"}, set(), people={"许砚"})
    lines = [f"他想起{w}。" for w in words] + ["窗外下着雨。"] * 500
    _Asked.asked = 0
    found = checks.leak_and_waste(ctx, lines, 1)
    assert [f.line for f in found] == list(range(1, len(words) + 1))
    assert all(f.kind == "泄密" and f"S-{f.line - 1:04d}" in f.message for f in found)
    assert _Asked.asked <= 4 * len(words)  # the keywords read once a book, then one gap a voice (not 2,000 each)
    two = CheckContext({"许砚": "许砚"}, [("S-1", set(), False, ["血书", "灭门"]), ("S-2", set(), False, ["灭门"])], [], [], 0,
                       {"许砚"}, set(), people={"许砚"})
    assert [f.message.split("的 ")[1][:3] for f in checks.leak_and_waste(two, ["他想起灭门的血书。"], 1)] == ["S-1", "S-2"]
