"""The Aho-Corasick matcher and the reference scan agree on generated books and chats.

The reference (``matcher="naive"``) is a direct port of SillyTavern's per-entry scan; the
engine's matcher answers from per-key facts. Any difference in activations, placement, timed
state or the random numbers drawn is a bug in the fast path.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.sandbox import RegexTester

from lw_tavern.worldbook.engine import Message, ScanInput, activate, compile_book
from lw_tavern.worldbook.jstext import parse_regex_key, required_literals
from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings
from lw_tavern.worldbook.timed import TimedState

WORDS = ["fog", "Fog", "FOG", "harbor", "harb", "or", "雾", "雾港", "港", "bell", "bell tower", "ſ", "İ",
         "a_b", "x1", "  ", "", "\x01fog", "-"]
REGEXES = ["/fog/", "/FOG/i", "/\\bharb/", "/雾.港/", "/^\\x01/", "/(/", "/bell\\s+tower/i", "/o{2}/",
           "/(?:fog|bell)s?$/", "/[^]/", "/x\\d/y"]
TEXT = st.lists(st.sampled_from(WORDS + [" ", " ", ".", "\n", "Σ", "ς"]), max_size=12).map("".join)
KEY = st.one_of(st.sampled_from(WORDS), st.sampled_from(REGEXES))


@st.composite
def entries(draw):
    n = draw(st.integers(1, 8))
    out = []
    for uid in range(n):
        data = {
            "uid": uid,
            "key": draw(st.lists(KEY, max_size=3)),
            "keysecondary": draw(st.lists(KEY, max_size=2)),
            "selectiveLogic": draw(st.integers(0, 3)),
            "content": draw(TEXT),
            "order": draw(st.integers(0, 3)),
            "caseSensitive": draw(st.sampled_from([None, True, False])),
            "matchWholeWords": draw(st.sampled_from([None, True, False])),
            "scanDepth": draw(st.sampled_from([None, None, 0, 1, 3])),
            "constant": draw(st.booleans()) and draw(st.booleans()),
            "probability": draw(st.sampled_from([100, 100, 50])),
            "group": draw(st.sampled_from(["", "", "g", "g,h"])),
            "useGroupScoring": draw(st.sampled_from([None, True])),
            "preventRecursion": draw(st.booleans()),
            "excludeRecursion": draw(st.booleans()),
            "delayUntilRecursion": draw(st.sampled_from([False, False, 1, 2])),
            "sticky": draw(st.sampled_from([None, 1])),
            "cooldown": draw(st.sampled_from([None, 1])),
            "matchScenario": draw(st.booleans()),
            "ignoreBudget": draw(st.booleans()),
        }
        out.append(WorldEntry.model_validate(data))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries(),
    st.lists(TEXT, max_size=5),
    st.builds(WorldSettings, depth=st.integers(0, 4), recursive=st.booleans(),
              case_sensitive=st.booleans(), match_whole_words=st.booleans(),
              min_activations=st.integers(0, 3), max_recursion_steps=st.integers(0, 3),
              max_context=st.sampled_from([40, 8192]), use_group_scoring=st.booleans()),
    st.lists(TEXT, max_size=2),
    TEXT,
    st.integers(0, 2**32),
)
def test_fast_and_reference_agree(book, chat, world, injections, scenario, seed):
    compiled = compile_book(WorldBook(entries=book), world)
    scan = ScanInput(chat=[Message(t, name="N") for t in chat], injections=injections, globals={"scenario": scenario})
    state = TimedState()
    for _turn in range(2):
        results = []
        for matcher in ("fast", "naive"):
            rng = random.Random(seed)
            a = activate(compiled, scan, world, state, rng=rng, matcher=matcher)  # type: ignore[arg-type]
            results.append((a.fired, a.placement, a.state, a.overflowed, a.loops, rng.random()))
        assert results[0] == results[1]
        state = results[0][2]


@given(st.text(max_size=40))
def test_regex_keys_never_crash(text):
    key = parse_regex_key("/" + text + "/i")
    if key is not None:
        tester = RegexTester()
        if tester.check(key.pattern, key.flags).verdict == "ok":
            assert tester.test(key.pattern, key.flags, "some text to search 雾港") in (True, False)


PATTERN_CHARS = "abAB()[]{}|?*+\\^$.dwsbDWSB0123,-<>=!:kKſ/u雾港"
SUBJECT = st.text(alphabet="abAB-,:=<>!雾港kKſsS\n\x01 0123", max_size=24)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=PATTERN_CHARS, max_size=16), st.sampled_from(["", "i", "iu", "u", "m", "is"]),
       st.lists(SUBJECT, min_size=1, max_size=6))
def test_a_regex_match_always_holds_one_of_its_required_literals(pattern, flags, subjects):
    """The prefilter is sound: where JavaScript finds a match, one of the literals the scan
    looks for first occurs (lowered for ``i``) -- so skipping a search never loses a match."""
    tester = RegexTester()
    if tester.check(pattern, flags).verdict != "ok":
        return
    literals = required_literals(pattern, ignore_case="i" in flags, ascii_mode="u" not in flags)
    if not literals:
        return
    for subject in subjects:
        if tester.test(pattern, flags, subject):
            seen = subject.lower() if "i" in flags else subject
            assert any(literal in seen for literal in literals), (pattern, flags, subject, literals)


# keys that nest deeper than the library's automaton takes (``literals.NESTING``): ``a`` … ``aaaaaaa``,
# ``ba`` … ``bbbbbbba`` (inside ``bbba`` the shorter ones are found only by walking up from it) and
# their neighbours, so the nested automaton answers for some keys of each book
NESTED = ([("a" * n) for n in range(1, 8)] + [("b" * n) + "a" for n in range(1, 8)]
          + ["A", "Aa", "b a", "a_a", "aa-a", "/a{3}/", "/A+b/i", "\x01a"])
NESTED_TEXT = st.lists(st.sampled_from(["a", "aa", "aaaa", "A", "b", "bba", "bbba", " ", "-", "_", "."]),
                       max_size=16).map("".join)


@st.composite
def nested_entries(draw):
    # usually a disabled entry holding the whole chain, so that ``a`` … ``aaa`` nest past the threshold
    out = [WorldEntry.model_validate({"uid": 99, "key": NESTED[:14], "disable": True,
                                      "caseSensitive": draw(st.sampled_from([None, True, False]))})
           ] if draw(st.integers(0, 3)) else []
    for uid in range(draw(st.integers(1, 8))):
        out.append(WorldEntry.model_validate({
            "uid": uid,
            "key": draw(st.lists(st.sampled_from(NESTED), min_size=1, max_size=3)),
            "keysecondary": draw(st.lists(st.sampled_from(NESTED), max_size=2)),
            "selective": True,
            "selectiveLogic": draw(st.integers(0, 3)),
            "content": draw(NESTED_TEXT),
            "order": draw(st.integers(0, 3)),
            "caseSensitive": draw(st.sampled_from([None, True, False])),
            "matchWholeWords": draw(st.sampled_from([None, True, False])),
            "scanDepth": draw(st.sampled_from([None, None, 1, 2])),
            "matchScenario": draw(st.booleans()),
        }))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nested_entries(), st.lists(NESTED_TEXT, max_size=4),
       st.builds(WorldSettings, depth=st.integers(1, 3), recursive=st.booleans(), case_sensitive=st.booleans(),
                 match_whole_words=st.booleans(), min_activations=st.integers(0, 2),
                 max_recursion_steps=st.integers(0, 3), max_context=st.just(8192)),
       NESTED_TEXT, st.integers(0, 2**32))
def test_nested_keys_activate_as_the_full_scan_does(book, chat, world, scenario, seed):
    compiled = compile_book(WorldBook(entries=book), world)
    scan = ScanInput(chat=chat, globals={"scenario": scenario})
    results = []
    for matcher in ("fast", "naive"):
        rng = random.Random(seed)
        a = activate(compiled, scan, world, rng=rng, matcher=matcher)  # type: ignore[arg-type]
        results.append((a.fired, a.placement, a.state, a.overflowed, a.loops, rng.random()))
    assert results[0] == results[1]


def test_a_book_of_nested_keys_uses_the_nested_automaton():
    """The generated books above do reach the nested automaton (each chain nests 7 deep)."""
    compiled = compile_book(WorldBook(entries=[WorldEntry.model_validate({"uid": 0, "key": NESTED[:14]})]),
                            WorldSettings())
    table = compiled.automaton.tables[False]
    assert table.nested is not None and {table.keys[i] for i in range(table.shallow, len(table.keys))} == {
        "a", "aa", "aaa", "ba", "bba", "bbba"}
