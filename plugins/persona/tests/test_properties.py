"""Property tests: no input makes the renderer or the replay raise; bullets never orphan."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_persona import config as cfgmod
from lw_persona import inbox as ib
from lw_persona.places import Places
from lw_persona.render import bullet, render_config

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["text", "enabled", "on", "byModel", "contracts", "stance", "tag", "status", "x"]), children, max_size=4),
    max_leaves=12,
)


@given(st.text(alphabet="ab \n\t\r", max_size=30))
def test_bullet_never_leaves_an_orphan_dash(text):
    for line in bullet(text).split("\n"):
        assert line == "" or (line.startswith("- ") and line[2:].strip(" \t\r") != "")


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["enabled", "thinkingLanguage", "persona", "memory", "budget"]), json_values, max_size=5),
       st.dictionaries(st.sampled_from(["stance", "character", "suffix", "contracts", "appearance", "tone", "userName",
                                        "selfNameFlash", "selfNameByModel", "enabled"]), json_values, max_size=6),
       st.none() | st.text(max_size=6))
def test_render_never_raises(tmp_path_factory, top, persona, user):
    raw = dict(top)
    raw["persona"] = persona
    cfg = cfgmod.merge(raw)
    folder = tmp_path_factory.mktemp("r")
    out = render_config(cfg, model="m-pro", cwd="/x", capture=True, inbox_file=folder / "none.jsonl",
                        places=Places.resolve({"DSH_HOME": str(folder)}), user=user)
    assert all(isinstance(out[k], str) for k in ("persona-prefix", "thinking-language", "persona-suffix"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=20), json_values.map(lambda v: json.dumps(v))), max_size=20))
def test_replay_never_raises(lines):
    replayed = ib.replay(lines)
    assert all(e.text and "\n" not in e.text for e in replayed.entries)
    assert replayed.bad == len(replayed.skipped) >= sum(line is None for line in lines)
    assert [n for n, _ in replayed.skipped] == sorted(n for n, _ in replayed.skipped)


def _pick_oracle(entries, n, cwd):
    """pick_relevant as first written: a sort by (-score, -index)."""
    if len(entries) <= n:
        return list(entries)
    segs = [s for s in (cwd or "").replace("\\", "/").lower().split("/") if s]
    proj = segs[-1] if segs else ""

    def score(e):
        tag = e.tag.strip().lower()
        return 1 if not tag else 2 if proj and (tag == proj or tag in segs) else 0

    ranked = sorted(range(len(entries)), key=lambda i: (-score(entries[i]), -i))
    return [entries[i] for i in sorted(ranked[: int(n)])]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["", "proj", "Proj", "other", "u", " proj "]), max_size=40),
       st.integers(0, 45), st.sampled_from([None, "", "/home/u/proj", "C:\\\\work\\\\Proj", "/other"]))
def test_pick_relevant_matches_the_sorting_oracle(tags, n, cwd):
    entries = [ib.Entry(f"e{i}", tag=tag) for i, tag in enumerate(tags)]
    assert ib.pick_relevant(entries, n, cwd) == _pick_oracle(entries, n if n > 0 else 30, cwd)
