"""PNG card containers: chunk types, keyword preference, assets, limits and located errors."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from lwcore.cards import CARD_LIMITS, V2, V3, load_card
from lwcore.cards.png import PNG_SIGNATURE, chunks
from lwcore.cards.write import TEXT_KINDS, blank_image, card_png, card_text, chunk, text_chunk
from lwcore.errors import LwError

THREE = {"spec": V3, "spec_version": "3.0", "data": {"name": "Three", "description": "d3", "extensions": {"k": [1]}}}
TWO = {"spec": V2, "spec_version": "2.0", "data": {"name": "Two", "description": "d2"}}
IMAGE_END = len(blank_image()) - 12  # where a blank image's IEND chunk starts


def png(*extra: bytes) -> bytes:
    """A blank image with ``extra`` chunks inserted before IEND."""
    image = blank_image()
    return image[:IMAGE_END] + b"".join(extra) + image[IMAGE_END:]


def card_chunk(card, keyword="ccv3", kind="tEXt") -> bytes:
    return text_chunk(keyword, card_text(card), kind)


@pytest.mark.parametrize("kind", TEXT_KINDS)
@pytest.mark.parametrize("keyword", ["ccv3", "chara", "CCV3", "Chara"])
def test_every_text_chunk_kind_and_keyword(kind, keyword):
    card = load_card(png(text_chunk("Software", b"paint"), card_chunk(THREE, keyword, kind)), "c.png")
    assert (card.spec, card.data, card.raw) == (V3, THREE["data"], THREE)
    assert card.report.container == "png"
    assert card.report.source == f"{keyword.lower()!r} {kind.split('-')[0]} chunk at byte {IMAGE_END + len(text_chunk('Software', b'paint'))}"


@pytest.mark.parametrize("chara_kind", TEXT_KINDS)
@pytest.mark.parametrize("ccv3_kind", TEXT_KINDS)
def test_ccv3_is_preferred_in_either_order_and_any_kind(ccv3_kind, chara_kind):
    for order in ((card_chunk(TWO, "chara", chara_kind), card_chunk(THREE, "ccv3", ccv3_kind)),
                  (card_chunk(THREE, "ccv3", ccv3_kind), card_chunk(TWO, "chara", chara_kind))):
        card = load_card(png(*order), "c.png")
        assert card.data["name"] == "Three"
        assert any("both 'ccv3' and 'chara'" in n for n in card.report.notes)
    assert load_card(png(card_chunk(TWO, "chara", chara_kind))).data["name"] == "Two"


def test_a_broken_ccv3_is_refused_not_replaced_by_chara():
    broken = chunk(b"zTXt", b"ccv3\x00\x00" + b"not zlib")
    with pytest.raises(LwError, match="'ccv3' zTXt chunk at byte .*corrupt zlib"):
        load_card(png(card_chunk(TWO, "chara"), broken), "c.png")


def test_first_chunk_of_a_keyword_wins_later_ones_are_never_decoded():
    later = chunk(b"zTXt", b"ccv3\x00\x00" + b"not zlib at all")
    first = card_chunk(THREE)
    card = load_card(png(first, later), "c.png")
    assert card.data["name"] == "Three"
    assert card.report.notes == (f"a second 'ccv3' zTXt chunk at byte {IMAGE_END + len(first)} ignored: "
                                 f"the first one (byte {IMAGE_END}) is used",)


def test_chunks_that_are_not_used_are_not_checked():
    damaged = text_chunk("Comment", b"hello")[:-4] + b"\x00\x00\x00\x00"  # bad CRC, but never read
    bomb = chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(bytes(50 << 20)))
    card = load_card(png(damaged, bomb, card_chunk(THREE)), "c.png")
    assert card.data["name"] == "Three"


def test_bytes_after_iend_are_noted():
    card = load_card(card_png(THREE) + b"trailing", "c.png")
    assert card.report.notes == ("8 byte(s) after the IEND chunk ignored",)


def test_base64_with_line_breaks_is_read():
    wrapped = b"\r\n".join(card_text(THREE)[i:i + 76] for i in range(0, len(card_text(THREE)), 76))
    assert load_card(png(text_chunk("ccv3", wrapped))).data == THREE["data"]


def test_png_assets_link_to_the_cards_asset_uris():
    card = {"spec": V3, "data": {"name": "A", "description": "d", "assets": [
        {"type": "icon", "uri": "__asset:icon/main.png", "name": "main", "ext": "png"},
        {"type": "icon", "uri": "ccdefault:", "name": "alt", "ext": "png"},
        {"type": "emotion", "uri": "__asset:missing.png", "name": "sad", "ext": "png"},
        {"type": "background", "uri": "__asset:icon/main.png", "name": "bg", "ext": "png"},
    ]}}
    data = card_png(card, assets={"icon/main.png": b"\x89PNG-ish", "extra.bin": b"\x00\x01"}, kind="zTXt")
    got = load_card(data, "a.png")
    assert [(a.path, a.uri, a.data, a.refs) for a in got.assets] == [
        ("icon/main.png", "__asset:icon/main.png", b"\x89PNG-ish", (0, 3)),
        ("extra.bin", "__asset:extra.bin", b"\x00\x01", ()),
    ]
    assert got.asset("__asset:icon/main.png").data == b"\x89PNG-ish" and got.asset("ccdefault:") is None
    assert any("does not hold: 'missing.png'" in n for n in got.report.notes)
    assert any("does not name (kept as assets): 'extra.bin'" in n for n in got.report.notes)
    assert load_card(data, "a.png", assets=False).assets == ()


def test_writer_replaces_the_cards_an_image_already_has():
    once = card_png(TWO, keywords=("chara", "ccv3"), assets={"a.png": b"1"})
    twice = card_png(THREE, image=once, keywords=("ccv3",))
    types = [twice[pos + 4:pos + 8] for _, pos, _ in chunks(twice, None, CARD_LIMITS)]
    assert types == [b"IHDR", b"IDAT", b"tEXt", b"IEND"]
    card = load_card(twice)
    assert card.data["name"] == "Three" and card.assets == () and card.report.notes == ()


@pytest.mark.parametrize(
    ("data", "code", "fragment", "byte"),
    [
        (PNG_SIGNATURE, "corrupt", "ends at byte 8 without an IEND", 8),
        (PNG_SIGNATURE + b"\x00\x00\x00\x0dIHDR", "corrupt", "chunk header at byte 8 is cut off", 8),
        (png(b"\x00\x00\x00\x00\x00\x01ab\x00\x00\x00\x00"), "corrupt", "invalid type", IMAGE_END),
        (png(card_chunk(THREE)[:-4] + b"\xde\xad\xbe\xef"), "corrupt", "fails its CRC check (stored 0xdeadbeef", IMAGE_END),
        (png(chunk(b"tEXt", b"ccv3\x00@@@@")), "corrupt", "not base64: character 0x40 at byte", IMAGE_END + 13),
        (png(chunk(b"zTXt", b"ccv3\x00\x00" + zlib.compress(b"@@@@"))), "corrupt", "at character 0 of its inflated text", IMAGE_END),
        (png(chunk(b"tEXt", b"ccv3\x00" + base64.b64encode(b'{"name": 1,}'))), "syntax", "the card JSON (line 1, column 12)", IMAGE_END),
        (png(chunk(b"zTXt", b"chara\x00")), "corrupt", "no compression method byte", IMAGE_END),
        (png(chunk(b"iTXt", b"chara\x00")), "corrupt", "no compression flag and method", IMAGE_END),
        (png(chunk(b"iTXt", b"chara\x00\x01\x05en\x00\x00" + zlib.compress(b"x"))), "corrupt", "unknown compression method 5", IMAGE_END),
        (png(chunk(b"iTXt", b"chara\x00\x00\x00\xffen\x00\x00x")), "corrupt", "language tag is not ASCII", IMAGE_END),
        (png(chunk(b"iTXt", b"chara\x00\x00\x00en\x00\xff\xfe\x00x")), "corrupt", "translated keyword is not UTF-8", IMAGE_END),
        (png(card_chunk([1, 2])), "not_a_card", "the card is an array", None),
        (png(text_chunk("chara-ext-asset_:a\\b.png", b"AA=="), card_chunk(THREE)), "unsafe_path", "backslash", IMAGE_END),
        (png(text_chunk("chara-ext-asset_:", b"AA=="), card_chunk(THREE)), "unsafe_path", "an empty name", IMAGE_END),
    ],
)
def test_errors_are_located(data, code, fragment, byte):
    with pytest.raises(LwError) as info:
        load_card(data, "card.png")
    error = info.value
    assert error.code == code and error.file == "card.png" and fragment in error.message, error
    if byte is not None:
        assert error.byte == byte


def test_inflation_limit_is_exact():
    limits = CARD_LIMITS.with_(max_chunk_bytes=400)
    text = card_text({"spec": V2, "data": {"name": "x", "description": "y" * 200}})
    assert len(text) <= 400
    assert load_card(png(text_chunk("ccv3", text, "zTXt")), limits=limits).data["name"] == "x"
    padded = text + b"\n" * (401 - len(text))
    with pytest.raises(LwError, match="inflates to more than 400 bytes; refused") as info:
        load_card(png(text_chunk("ccv3", padded, "zTXt")), "c.png", limits=limits)
    assert info.value.code == "limit" and info.value.byte == IMAGE_END


def test_stored_text_chunk_limit():
    limits = CARD_LIMITS.with_(max_chunk_bytes=100)
    with pytest.raises(LwError, match="holds 1.. bytes, more than the 100 bytes limit"):
        load_card(card_png(THREE), "c.png", limits=limits)


def test_total_budget_bounds_many_small_inflations():
    assets = {f"a/{i}.bin": bytes(3000) for i in range(10)}
    data = card_png(THREE, assets=assets, kind="zTXt")
    assert len(load_card(data).assets) == 10
    limits = CARD_LIMITS.with_(max_total_bytes=20_000)
    with pytest.raises(LwError, match="decodes to more than 20000 bytes in all") as info:
        load_card(data, "c.png", limits=limits)
    assert info.value.code == "limit" and "chara-ext-asset_:a/" in info.value.message
    assert load_card(data, "c.png", limits=limits, assets=False).data == THREE["data"]


def test_chunk_count_limit():
    limits = CARD_LIMITS.with_(max_chunks=10)
    data = png(*[chunk(b"abCd", b"")] * 7, card_chunk(THREE))  # 11 chunks with IHDR, IDAT, IEND
    with pytest.raises(LwError, match="more than 10 chunks"):
        load_card(data, limits=limits)
    assert load_card(data, limits=CARD_LIMITS.with_(max_chunks=11)).data["name"] == "Three"


def test_file_size_limit():
    data = card_png(THREE)
    with pytest.raises(LwError, match="larger than the 100 bytes limit for a card") as info:
        load_card(data, "c.png", limits=CARD_LIMITS.with_(max_file_bytes=100))
    assert info.value.code == "limit"


def test_json_limits_apply_inside_the_png():
    deep = {"spec": V2, "data": {"name": "n", "description": "d", "extensions": json.loads("[" * 200 + "]" * 200)}}
    with pytest.raises(LwError, match="'ccv3' tEXt chunk at byte .*: the card JSON: JSON nested deeper than 128"):
        load_card(card_png(deep), "c.png")
