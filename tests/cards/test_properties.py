"""Properties: any card round-trips through our PNG and CHARX writers; damaged containers
give a card or a located LwError, never another exception."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.cards import V1, V2, V3, detect_spec, load_card
from lwcore.cards.write import TEXT_KINDS, card_charx, card_png
from lwcore.errors import LwError

scalars = (st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20)
           | st.floats(allow_nan=False, allow_infinity=False))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
fields = st.fixed_dictionaries(
    {"name": st.text(max_size=30), "description": st.text(max_size=200)},
    optional={"personality": st.text(max_size=50), "first_mes": st.text(max_size=50),
              "tags": st.lists(st.text(max_size=10), max_size=4), "extensions": st.dictionaries(st.text(max_size=8), json_values, max_size=4),
              "character_book": json_values},
).flatmap(lambda base: st.dictionaries(st.text(max_size=12).filter(lambda k: k not in base and k not in ("spec", "data")),
                                       json_values, max_size=3).map(lambda extra: {**base, **extra}))
wrapped = st.builds(lambda spec, version, data, top: {**top, "spec": spec, "spec_version": version, "data": data},
                    st.sampled_from([V3, V2]), st.sampled_from(["3.0", "2.0", "1.0"]), fields,
                    st.dictionaries(st.sampled_from(["name", "description", "x"]), json_values, max_size=2))
cards = wrapped | fields


def paths(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Safe relative asset paths: 1-3 segments, no '.', '..', drive prefix or card.json."""
    segment = st.text(alphabet, min_size=1, max_size=8).filter(lambda s: s not in (".", ".."))
    return st.lists(segment, min_size=1, max_size=3).map("/".join).filter(
        lambda p: not (len(p) > 1 and p[1] == ":") and p != "card.json")


name_chars = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\")
assets = st.dictionaries(paths(name_chars), st.binary(max_size=64), max_size=4)
png_assets = st.dictionaries(paths(st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_categories=("Cc",),
                                                 blacklist_characters="/\\")), st.binary(max_size=64), max_size=4)
"""PNG keywords are Latin-1, so PNG asset paths are too."""


def expected(card):
    spec = card.get("spec", V1)
    return spec, card["data"] if spec != V1 else card


@settings(max_examples=150, deadline=None)
@given(card=cards, kind=st.sampled_from(TEXT_KINDS), keywords=st.sampled_from([("ccv3",), ("chara",), ("chara", "ccv3")]))
def test_png_round_trip(card, kind, keywords):
    got = load_card(card_png(card, keywords=keywords, kind=kind), "c.png")
    assert (got.spec, got.data) == expected(card) and got.raw == card
    assert detect_spec(card) == got.spec


@settings(max_examples=150, deadline=None)
@given(card=cards, files=assets)
def test_charx_round_trip(card, files):
    got = load_card(card_charx(card, files), "c.charx")
    assert (got.spec, got.data) == expected(card) and got.raw == card
    assert {a.path: a.data for a in got.assets} == files


@settings(max_examples=100, deadline=None)
@given(card=cards, files=png_assets)
def test_png_assets_round_trip(card, files):
    got = load_card(card_png(card, assets=files, kind="zTXt"), "c.png")
    assert {a.path: a.data for a in got.assets} == files


@settings(max_examples=100, deadline=None)
@given(card=cards)
def test_json_round_trip(card):
    got = load_card(json.dumps(card, ensure_ascii=False).encode("utf-8"), "c.json")
    assert (got.spec, got.data) == expected(card)


SAMPLE = {"spec": V3, "data": {"name": "n", "description": "d", "assets": [{"uri": "embeded://a/b.png"}]}}
VALID = {"png": card_png(SAMPLE, keywords=("chara", "ccv3"), kind="zTXt", assets={"a/b.png": b"img"}),
         "charx": card_charx(SAMPLE, {"a/b.png": b"img" * 50}),
         "json": json.dumps(SAMPLE).encode()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(container=st.sampled_from(sorted(VALID)), data=st.data())
def test_damaged_containers_never_escape_lwerror(container, data):
    blob = bytearray(VALID[container])
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        at = data.draw(st.integers(0, max(len(blob) - 1, 0)))
        if action == "flip" and blob:
            blob[at] ^= 1 << data.draw(st.integers(0, 7))
        elif action == "cut":
            del blob[at:at + data.draw(st.integers(1, 64))]
        else:
            blob[at:at] = data.draw(st.binary(min_size=1, max_size=16))
    try:
        card = load_card(bytes(blob), "damaged")
    except LwError as error:
        assert error.file is not None and error.code
    else:
        assert card.spec in (V1, V2, V3)
