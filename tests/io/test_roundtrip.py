"""Writing hand-edited YAML: comments, order, quoting and indentation survive; the result
always reads back as the new data (hypothesis over documents and changes)."""

from __future__ import annotations

import yaml
from hypothesis import given
from hypothesis import strategies as st

from lwcore.io import load_yaml
from lwcore.io.roundtrip import guess_indents, splice_scalars, update_yaml_text

ROOM = """\
# A room, written by hand.
id: fog   # the room id
title: {zh: 雾港, en: Fog}
players:
  - id: p1
    name: 林晓   # the first player
    locale: zh
values:
  hp: 11
  flag: false
"""


def test_a_scalar_change_is_a_splice() -> None:
    data = load_yaml(ROOM)
    data["values"]["hp"] = 9
    data["players"][0]["name"] = "Alex, the second"
    data["title"]["en"] = "The Fog Harbor"
    out = update_yaml_text(ROOM, data)
    assert out.count("#") == 3 and load_yaml(out) == data
    assert "  hp: 9\n" in out and 'name: "Alex, the second"   # the first player' in out
    assert "title: {zh: 雾港, en: The Fog Harbor}" in out


def test_structural_changes_keep_comments_and_indentation() -> None:
    data = load_yaml(ROOM)
    data["players"].append({"id": "p2", "name": "Bo"})
    data["phase"] = "prep"
    del data["values"]["flag"]
    assert splice_scalars(ROOM, data) is None  # not a splice: the ruamel round trip
    out = update_yaml_text(ROOM, data)
    assert load_yaml(out) == data
    assert "# A room, written by hand." in out and "# the first player" in out
    assert "\n  - id: p2\n    name: Bo\n" in out and out.endswith("phase: prep\n")


def test_values_that_would_read_differently_are_quoted() -> None:
    for new in ("yes", "1.5", "null", "a: b", "# c", " padded", "2024-01-01", "~"):
        out = update_yaml_text("k: plain\n", {"k": new})
        assert load_yaml(out) == {"k": new}, (new, out)


def test_indentation_is_guessed() -> None:
    assert guess_indents(ROOM) == (2, 4, 2)
    assert guess_indents("a:\n    b: 1\nc:\n- x\n") == (4, 2, 0)
    assert guess_indents("") == (2, 2, 0)


scalars = st.one_of(st.integers(-1000, 1000), st.booleans(), st.none(),
                    st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12))
flat = st.dictionaries(st.text(alphabet="abcdefgh", min_size=1, max_size=4), scalars, min_size=1, max_size=6)


@given(flat, st.data())
def test_any_change_reads_back_and_keeps_the_comment(old: dict, draw: st.DataObject) -> None:
    text = "# keep me\n" + yaml.safe_dump(old, allow_unicode=True, sort_keys=False)
    new = {k: draw.draw(scalars) if draw.draw(st.booleans()) else v for k, v in old.items()}
    if draw.draw(st.booleans()):
        new["zz"] = 1
    out = update_yaml_text(text, new)
    assert load_yaml(out) == new
    assert out.startswith("# keep me\n")


def test_the_comment_after_a_list_stays_after_it_as_the_list_grows_shrinks_and_empties() -> None:
    text = "features: []\n# the next key's comment\ntool_plugins: [a]\nlist:\n  - 1\n  - 2  # two\n# after the list\nz: 3\n"
    steps = [
        {"features": [{"id": "x", "tools": ["t"]}], "list": [1, 2, 3]},
        {"features": [{"id": "x", "tools": ["t"]}, {"id": "y"}], "list": [1]},
        {"features": [{"id": "y"}], "list": []},
        {"features": [], "list": [4]},
    ]
    for change in steps:
        data = load_yaml(text) | change
        text = update_yaml_text(text, data)
        assert load_yaml(text) == data
        lines = text.splitlines()
        assert lines[lines.index("# the next key's comment") + 1] == "tool_plugins: [a]"
        assert lines[lines.index("# after the list") + 1] == "z: 3"


items = st.one_of(st.integers(0, 9), st.dictionaries(st.sampled_from(["id", "tools"]), st.integers(0, 9), min_size=1))


@given(st.lists(st.lists(items, max_size=4), min_size=1, max_size=5))
def test_any_sequence_of_list_changes_keeps_the_following_comment_in_place(changes: list[list]) -> None:
    text = "before: 0\nthings:\n  - 0\n# about what follows\nafter: 1\n"
    for things in changes:
        data = {"before": 0, "things": things, "after": 1}
        text = update_yaml_text(text, data)
        assert load_yaml(text) == data
        lines = text.splitlines()
        assert lines[lines.index("# about what follows") + 1] == "after: 1"
