"""CHARX card containers: card.json, embeded:// assets, entry checks, bounds."""

from __future__ import annotations

import io
import json
import os
import zipfile

import pytest

from lwcore.cards import CARD_LIMITS, V3, load_card
from lwcore.cards.assets import path_problem
from lwcore.cards.write import card_charx
from lwcore.errors import LwError

CARD = {"spec": V3, "spec_version": "3.0", "data": {
    "name": "Charx", "description": "d", "extensions": {"risuai": {"x": 1}},
    "assets": [
        {"type": "icon", "uri": "embeded://assets/icon/images/main.png", "name": "main", "ext": "png"},
        {"type": "emotion", "uri": "embeded://assets/emotion/images/sad.png", "name": "sad", "ext": "png"},
        {"type": "emotion", "uri": "embeded://assets/emotion/images/gone.png", "name": "gone", "ext": "png"},
        {"type": "background", "uri": "https://example.invalid/bg.png", "name": "bg", "ext": "png"},
    ],
}}
ASSETS = {
    "assets/icon/images/main.png": b"\x89PNG main",
    "assets/emotion/images/sad.png": b"\x89PNG sad",
    "x_meta/1.json": b'{"app": "data"}',
}


def zipped(*members: tuple[str | zipfile.ZipInfo, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_card_and_assets():
    card = load_card(card_charx(CARD, ASSETS), "c.charx")
    assert (card.spec, card.spec_version, card.data, card.raw) == (V3, "3.0", CARD["data"], CARD)
    assert (card.report.container, card.report.source) == ("charx", "card.json")
    assert [(a.path, a.uri, a.data, a.refs) for a in card.assets] == [
        ("assets/icon/images/main.png", "embeded://assets/icon/images/main.png", b"\x89PNG main", (0,)),
        ("assets/emotion/images/sad.png", "embeded://assets/emotion/images/sad.png", b"\x89PNG sad", (1,)),
        ("x_meta/1.json", "embeded://x_meta/1.json", b'{"app": "data"}', ()),
    ]
    assert card.report.notes == (
        "the card names 1 embedded asset(s) the container does not hold: 'assets/emotion/images/gone.png'",
        "1 embedded file(s) the card does not name (kept as assets): 'x_meta/1.json'",
    )


def test_stored_members_and_folder_entries_and_chinese_names():
    data = zipped(("assets/", b""), ("assets/立绘/", b""), ("card.json", json.dumps(CARD).encode()),
                  ("assets/立绘/主.png", b"img"), compression=zipfile.ZIP_STORED)
    card = load_card(data, "卡.charx")
    assert [a.path for a in card.assets] == ["assets/立绘/主.png"]


def test_assets_false_reads_only_the_card_but_checks_every_entry():
    card = load_card(card_charx(CARD, ASSETS), assets=False)
    assert card.assets == () and card.data == CARD["data"]
    bad = zipped(("card.json", json.dumps(CARD).encode()), ("../x", b""))
    with pytest.raises(LwError, match="'..' segment"):
        load_card(bad, assets=False)


def test_small_members_compress_as_much_as_they_like():
    data = card_charx(CARD, {"assets/zeros.bin": bytes(CARD_LIMITS.ratio_floor)})
    assert load_card(data).asset("embeded://assets/zeros.bin").data == bytes(CARD_LIMITS.ratio_floor)


def test_member_and_total_bounds():
    data = card_charx(CARD, {f"assets/{i}.bin": os.urandom(1000) for i in range(5)})
    assert len(load_card(data).assets) == 5
    with pytest.raises(LwError, match=r"member 'assets/0.bin' \(entry 2\): it declares 1000 bytes, more than the 999 bytes"):
        load_card(data, "c.charx", limits=CARD_LIMITS.with_(max_member_bytes=999))
    with pytest.raises(LwError, match=r"entry 4\): the container decodes to more than 3000 bytes in all") as info:
        load_card(data, "c.charx", limits=CARD_LIMITS.with_(max_total_bytes=3000))
    assert info.value.code == "limit" and info.value.byte is not None
    assert load_card(data, limits=CARD_LIMITS.with_(max_total_bytes=3000), assets=False).data["name"] == "Charx"
    with pytest.raises(LwError, match="more than 3 entries"):
        load_card(data, limits=CARD_LIMITS.with_(max_members=3))


def test_card_json_is_bounded_by_the_json_limit():
    limits = CARD_LIMITS.with_(json=CARD_LIMITS.json.with_(max_bytes=50))
    with pytest.raises(LwError, match="card.json.*more than 50 bytes") as info:
        load_card(card_charx(CARD), "c.charx", limits=limits)
    assert info.value.code == "limit"


def test_member_bytes_are_located_at_their_local_header():
    data = card_charx(CARD, {"assets/a.png": b"x", "../evil": b"y"})
    with pytest.raises(LwError) as info:
        load_card(data, "c.charx")
    assert data[info.value.byte:info.value.byte + 4] == b"PK\x03\x04"
    assert data[info.value.byte + 30:info.value.byte + 30 + 7] == b"../evil"
    assert "member '../evil' (entry 3)" in info.value.message


def test_card_json_errors_name_the_member():
    data = zipped(("card.json", b'{\n  "spec": "chara_card_v3",\n  "data": []\n}'))
    with pytest.raises(LwError) as info:
        load_card(data, "c.charx")
    assert info.value.file == "c.charx!/card.json" and "'data' is an array" in info.value.message
    with pytest.raises(LwError) as info:
        load_card(zipped(("card.json", b'{"a": 1,\n}')))
    assert (info.value.file, info.value.line, info.value.column) == ("card.json", 2, 1)


# Every unsafe name the reader refuses, and some close neighbours it accepts.
NAMES = [
    ("", "an empty name"), ("/abs", "an absolute path"), ("C:/x", "a drive path"), ("c:x", "a drive path"),
    ("a\\b", "a backslash"), ("a/../b", "a '..' segment"), ("..", "a '..' segment"), ("a/..", "a '..' segment"),
    ("a//b", "an empty or '.' segment"), ("./a", "an empty or '.' segment"), ("a/./b", "an empty or '.' segment"),
    ("a\x00b", "a control character"), ("a\nb", "a control character"), ("a\x7fb", "a control character"),
    ("a/b.png", None), ("...", None), ("a..b", None), ("..a/b", None), ("立绘/主.png", None), ("a b/c d", None),
]


@pytest.mark.parametrize(("name", "problem"), NAMES)
def test_path_rules(name, problem):
    found = path_problem(name)
    assert (found is None) if problem is None else found.startswith(problem)
