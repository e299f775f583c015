"""Regular expressions from content (``lwcore.sandbox.regex``): JavaScript's meaning, QuickJS's
engine, a bound on every test.

The table holds the places where Python's ``re`` would answer differently (Unicode digits,
JavaScript's whitespace, ``$`` before a final line break, property escapes, case folding with
and without ``u``, ``[^]``, ``\\cJ``, sticky and global flags); the hostile corpus holds patterns
that backtrack for minutes elsewhere: each is cut at its limit, reported, and the tester keeps
answering.
"""

from __future__ import annotations

import pytest

from lwcore.sandbox import Budget, RegexFailed, RegexTester
from lwcore.sandbox.regex import MAX_PATTERN, MAX_TEXT, REGEX_LIMITS

SEMANTICS = [
    # (pattern, flags, text, JavaScript's answer)
    (r"^\d+$", "", "١٢٣", False),  # \d is ASCII
    (r"^\s$", "", "\ufeff", True),  # a BOM is whitespace
    (r"dusk$", "", "dusk\n", False),  # $ is the end of the text, not before its last line break
    (r"^b", "m", "a\nb", True),
    (r"\p{Script=Han}", "u", "雾", True),
    (r"(?<y>\d{2})\k<y>", "", "1212", True),
    (r"(?<=a)b", "", "ab", True),
    (r"a[^]b", "", "a\nb", True),
    (r"a.b", "", "a\nb", False),
    (r"a.b", "s", "a\nb", True),
    (r"ſ", "i", "s", False),  # without u, ASCII letters fold only with ASCII letters
    (r"ſ", "iu", "s", True),
    (r"\w", "i", "ſ", False),
    (r"\cJ", "", "\n", True),
    (r"b", "y", "ab", False),  # sticky: at the start only
    (r"b", "g", "ab", True),
    (r"\u{1F600}", "u", "😀", True),
    (r"\u{1F600}", "", "😀", False),
    (r"\bcat\b", "", "雾cat雾", True),  # a CJK character is not a word character
    (r"HARBOR", "", "harbor", False),
    (r"HARBOR", "i", "harbor", True),
]


@pytest.mark.parametrize("pattern,flags,text,answer", SEMANTICS)
def test_javascripts_answers(pattern: str, flags: str, text: str, answer: bool) -> None:
    tester = RegexTester()
    assert tester.check(pattern, flags).verdict == "ok"
    assert tester.test(pattern, flags, text) is answer
    assert tester.test(pattern, flags, text) is answer  # a global or sticky pattern starts over each time


@pytest.mark.parametrize("pattern,flags,detail", [
    ("(", "", "expecting ')'"), ("a", "gg", "flags"), ("(?<n>a)(?<n>b)", "", "duplicate group name"),
    ("\\p{Foo}", "u", "unicode property"), ("a{2,1}", "", "repetition"), ("x" * (MAX_PATTERN + 1), "", "longer than"),
])
def test_what_javascript_refuses_is_invalid(pattern: str, flags: str, detail: str) -> None:
    checked = RegexTester().check(pattern, flags)
    assert checked.verdict == "invalid" and detail in checked.detail


CATASTROPHIC = ["(a+)+$", "(a|a)+$", "(a|aa)+$", "((((((((((a*)*)*)*)*)*)*)*)*)*)*$", "(a*)*b", "(?:a+){2,}$",
                "(\\w+\\s?)+$", "^(a+)+(?=b)", "(.*a){12}$"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_catastrophic_backtracking_is_cut_at_its_limit_and_the_tester_goes_on(pattern: str) -> None:
    tester = RegexTester()
    text = "a" * 40 + "!"
    with pytest.raises(RegexFailed) as failed:
        tester.test(pattern, "", text)
    assert failed.value.failure.kind == "timeout"
    assert f"{REGEX_LIMITS.time_s:g} s" in failed.value.failure.message
    assert tester.test("a+!", "", text) is True  # a fresh context answers the next question


def test_many_catastrophic_patterns_together_stop_at_the_budget() -> None:
    budget = Budget(0.35)
    tester = RegexTester(budget=budget)
    kinds = []
    for n in range(12):
        try:
            tester.test(f"(a+)+$|q{{{n + 2}}}", "", "a" * 40 + "!")
        except RegexFailed as exc:
            kinds.append(exc.failure.kind)
    assert kinds[:3] == ["timeout"] * 3 and set(kinds[4:]) == {"budget"}
    assert budget.used < 0.35 + 0.05


def test_texts_past_the_limit_and_broken_text_are_failures_not_answers() -> None:
    tester = RegexTester()
    with pytest.raises(RegexFailed) as long:
        tester.test("a", "", "a" * (MAX_TEXT + 1))
    assert long.value.failure.kind == "limit"
    with pytest.raises(RegexFailed) as broken:
        tester.test("a", "", "a\ud800")
    assert broken.value.failure.kind == "invalid" and "Unicode" in broken.value.failure.message
    assert tester.test_all([("a", ""), ("(a+)+$", "")], "a" * 40 + "!")[0] is True


def test_a_tester_is_used_on_the_thread_that_made_its_context() -> None:
    import threading

    tester = RegexTester()
    assert tester.test("x", "", "x")
    errors: list[BaseException] = []

    def other() -> None:
        try:
            tester.test("x", "", "x")
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            errors.append(exc)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(30)
    assert errors and isinstance(errors[0], RuntimeError)
