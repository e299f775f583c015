"""The bounded key search (``lw_tavern.worldbook.literals``) against a plain search.

Keys drawn from a few characters nest, overlap and repeat; the nesting threshold and the
library's piece size are lowered so that every key goes through the nested automaton, or every
match is cut by a piece boundary, on small inputs. The facts must be what ``key in text`` and
a test of every occurrence for a whole word say.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_tavern.worldbook.jstext import whole_word_at
from lw_tavern.worldbook.literals import SEARCH_CHUNK, KeyTable, suffix_links

KEY = st.text(alphabet="aab _-雾", min_size=1, max_size=6)
TEXT = st.text(alphabet="aab _-雾.", max_size=40)


def every_whole_word(text: str, key: str) -> bool:
    """The plain definition: some occurrence, at any start, stands between non-word characters."""
    return any(text.startswith(key, i) and whole_word_at(text, i, i + len(key)) for i in range(len(text)))


@settings(max_examples=300, deadline=None)
@given(st.lists(KEY, min_size=1, max_size=12, unique=True))
def test_suffix_links_are_the_longest_key_each_key_ends_with(keys):
    parent, height = suffix_links(keys)
    for i, key in enumerate(keys):
        enders = [j for j, other in enumerate(keys) if j != i and key.endswith(other)]
        assert parent[i] == (max(enders, key=lambda j: len(keys[j])) if enders else -1)
        longer = [j for j, other in enumerate(keys) if j != i and other.endswith(key)]
        assert height[i] == 1 + max((height[j] for j in longer), default=0)


@settings(max_examples=600, deadline=None)
@given(st.lists(KEY, min_size=1, max_size=12, unique=True), st.lists(TEXT, min_size=1, max_size=3),
       st.integers(0, 5), st.sampled_from([1, 2, 3, 7, SEARCH_CHUNK]), st.data())
def test_the_facts_are_those_of_a_plain_search(keys, texts, nesting, chunk, data):
    needed = data.draw(st.sets(st.integers(0, len(keys) - 1)))
    table = KeyTable(keys, needed, nesting=nesting, chunk=chunk)
    for text in texts:
        found, words = table.find(text)
        assert {i for i in range(len(keys)) if table.id_of[i] in found} == {i for i, k in enumerate(keys) if k in text}
        assert {i for i in range(len(keys)) if table.id_of[i] in words} == {
            i for i in needed if every_whole_word(text, keys[i])}


def test_nested_keys_of_one_character_leave_the_library_at_most_four_a_position():
    keys = ["a" * n for n in range(1, 401)]
    table = KeyTable(keys, range(400))
    assert table.shallow == 4 and table.nested is not None
    found, words = table.find("a" * 20_000)
    assert found == set(range(400)) and words == set()
    found, words = table.find("a" * 37 + " " + "a" * 5)
    assert {table.keys[i] for i in words} == {"a" * 37, "a" * 5}
    assert {len(table.keys[i]) for i in found} == set(range(1, 38))


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet="ab \x01", min_size=1, max_size=8), st.text(alphabet="ab \x01.", max_size=60))
def test_contains_whole_word_is_the_plain_definition(needle, text):
    from lw_tavern.worldbook.jstext import contains_whole_word, smallest_period

    assert contains_whole_word(text, needle) == every_whole_word(text, needle)
    period = smallest_period(needle)
    assert all(needle[i] == needle[i + period] for i in range(len(needle) - period))
    assert not any(all(needle[i] == needle[i + p] for i in range(len(needle) - p)) for p in range(1, period))
