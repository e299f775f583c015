"""Every loader takes any JSON value and answers with a result or a located error, never a crash."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lwcore.errors import LwError

from lw_tavern.card_split import split_card
from lw_tavern.lorecard import FORMAT, from_card, load_lorecard
from lw_tavern.preset import load_preset
from lw_tavern.worldbook.load import book_from_data

KEYS = ["entries", "key", "keys", "content", "order", "uid", "prompts", "prompt_order", "identifier", "data",
        "character_book", "worldbook", "format", "format_version", "spec", "extensions", "position", "enabled",
        "selectiveLogic", "group", "name", "character_id", "order", "marker", "role"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 2000), st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["", "a", "雾港", "before_char", "system", "chara_card_v2", FORMAT, "0"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)), max_leaves=30)


def attempt(fn, value):
    try:
        fn(value)
    except LwError as exc:
        assert exc.message


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_loaders_never_crash(value):
    attempt(book_from_data, value)
    attempt(load_preset, value)
    attempt(load_lorecard, value)
    attempt(lambda v: load_lorecard({"format": FORMAT, "format_version": 1, "worldbook": v}), value)
    attempt(lambda v: book_from_data({"entries": v}), value)
    attempt(lambda v: book_from_data({"entries": {"0": v}}), value)
    attempt(lambda v: book_from_data({"entries": [v]}), value)
    if isinstance(value, dict):
        attempt(split_card, value)
        attempt(from_card, value)
