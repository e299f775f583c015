"""§4.6: SillyTavern card import/export, contract splitting, PNG cards."""

from __future__ import annotations

import base64
import json
import struct
import zlib

import pytest
from lwcore.errors import LwError

from lw_persona import importers, tavern
from lw_persona.presets import PRESET_SPEC

V2 = {
    "spec": "chara_card_v2", "spec_version": "2.0",
    "data": {
        "name": "Seraphina", "description": "A guardian.", "personality": "kind", "scenario": "A forest.",
        "first_mes": "Hello!", "mes_example": "<START>", "creator_notes": "notes", "alternate_greetings": ["hi"],
        "system_prompt": "- Stay in character.\n2. Be kind.\n\nBe kind.\nx", "post_history_instructions": "Reply briefly.",
        "tags": ["fantasy", ""], "creator": "someone", "character_version": "1.2",
        "character_book": {"entries": [{"keys": ["a"]}]}, "group_only_greetings": [], "assets": [{"type": "icon"}],
        "extensions": {"talkativeness": "0.5", "depth_prompt": {"depth": 4}},
        "mystery_field": 1,
    },
}


def imp(card):
    return tavern.from_card(json.loads(json.dumps(card)))


def test_v2_field_table_and_report():
    r = imp(V2)
    p = r.preset
    assert r.kind == "tavern-v2" and p["spec"] == PRESET_SPEC
    assert p["id"] == "seraphina" and p["label"] == "Seraphina" and p["author"] == "someone"
    assert p["description"] == "导入自酒馆角色卡（卡版本 1.2）" and p["source"]["characterVersion"] == "1.2"
    assert p["tags"] == ["fantasy"]
    assert p["persona"] == {
        "character": "A guardian.\n\n【场景】\nA forest.", "stance": "kind",
        "contracts": [{"id": "c1", "text": "Stay in character.", "on": True}, {"id": "c2", "text": "Be kind.", "on": True}],
        "suffix": "Reply briefly.",
    }
    named = [f for f, _ in r.unmapped]
    for field in ("first_mes", "alternate_greetings", "mes_example", "character_book", "creator_notes", "assets"):
        assert f"data.{field}" in named
    assert "data.group_only_greetings" not in named  # empty: nothing lost
    assert "data.mystery_field" in named
    assert p["source"]["extensions"] == V2["data"]["extensions"]


def test_v3_and_spec_less_cards_are_v2_family():
    v3 = {"spec": "chara_card_v3", "spec_version": "3.0", "data": {"name": "N", "description": "d", "group_only_greetings": ["g"]}}
    r = imp(v3)
    assert r.kind == "tavern-v2" and ("data.group_only_greetings" in [f for f, _ in r.unmapped])
    assert imp({"data": {"name": "N", "description": "d"}}).kind == "tavern-v2"


def test_v1_card():
    r = imp({"name": "Old", "description": "desc", "personality": "p", "first_mes": "hi", "mes_example": ""})
    assert r.kind == "tavern-v1" and r.preset["persona"] == {"character": "desc", "stance": "p"}
    assert [f for f, _ in r.unmapped] == ["first_mes"]


def test_recognition_order():
    assert tavern.detect({"persona": {}, "spec": "chara_card_v2", "data": {"description": ""}}) == "whale-preset"
    assert tavern.detect({"spec": "chara_card_v2", "name": "x", "description": "y"}) == "tavern-v2"
    assert tavern.detect({"name": "x", "first_mes": "y"}) == "tavern-v1"
    assert tavern.detect({"name": "x"}) == "unknown" and tavern.from_card([1]) is None


def test_contract_splitting_limits():
    long_line = "。".join(f"第{i}句话要足够长一些" for i in range(30)) + "；最后一段;另一段"
    contracts, too_long, truncated = tavern.split_contracts(long_line)
    assert [c["text"] for c in contracts][:2] == ["第0句话要足够长一些。", "第1句话要足够长一些。"]
    assert [c["text"] for c in contracts[-3:]] == ["第29句话要足够长一些", "最后一段", "另一段"]
    assert [c["id"] for c in contracts[-3:]] == ["c30", "c31", "c32"]
    assert all(len(c["text"]) <= 300 for c in contracts) and not truncated and too_long == 0
    many = "\n".join(f"rule number {i}" for i in range(60))
    contracts, _, truncated = tavern.split_contracts(many)
    assert len(contracts) == 40 and truncated and contracts[-1] == {"id": "c40", "text": "rule number 39", "on": True}
    unbreakable = "x" * 301
    contracts, too_long, _ = tavern.split_contracts(unbreakable)
    assert contracts == [] and too_long == 1
    exact = "y" * 300
    assert tavern.split_contracts(exact)[0] == [{"id": "c1", "text": exact, "on": True}]


def test_no_usable_contract_is_not_reported_as_mapped():
    r = imp({"spec": "chara_card_v2", "data": {"name": "N", "description": "", "system_prompt": "z" * 400}})
    assert not any("system_prompt" in m for m in r.mapped)
    assert any(f == "data.system_prompt" for f, _ in r.unmapped)
    assert any("nothing mappable" in n for n in r.notes)
    with pytest.raises(LwError, match="nothing to import.*data.first_mes"):
        importers.load_card(json.dumps({"spec": "chara_card_v2", "data": {"name": "N", "description": "",
                                                                          "first_mes": "hi"}}).encode(), "c.json")


def test_export_import_round_trip_exact():
    preset = {
        "spec": PRESET_SPEC, "id": "round-trip", "label": "往返", "description": "说明", "author": "me", "tags": ["a", "b"],
        "thinkingLanguage": "zh-CN",
        "persona": {"userName": "小林", "selfNameFlash": "小助", "selfNamePro": "老师", "selfNameByModel": {"glm": "G"},
                    "stance": "立场", "character": "正文\n\n第二段", "suffix": "{{cwd}}",
                    "contracts": [{"id": "terse", "text": "结论先行。", "on": True}, {"id": "off", "text": "关", "on": False}],
                    "tone": {"enabled": True, "text": "简洁", "byModel": {}, "x": 1},
                    "appearance": {"enabled": False, "text": "", "byModel": {}}},
    }
    card = tavern.to_card(preset)
    assert card["spec"] == "chara_card_v2" and card["spec_version"] == "2.0"
    assert card["data"]["extensions"]["whale_persona"]["spec"] == PRESET_SPEC
    assert card["data"]["system_prompt"] == "- 结论先行。"
    back = imp(json.loads(json.dumps(card))).preset
    for key in ("id", "label", "description", "author", "tags", "thinkingLanguage", "persona"):
        assert back[key] == preset[key], key


def test_unknown_extensions_survive_import_then_export():
    r = imp(V2)
    card = tavern.to_card(r.preset)
    ext = card["data"]["extensions"]
    assert ext["talkativeness"] == "0.5" and ext["depth_prompt"] == {"depth": 4} and "whale_persona" in ext
    again = tavern.to_card(imp(card).preset)
    assert again["data"]["extensions"] == ext


def test_reference_style_extension_is_read():
    card = {"spec": "chara_card_v2", "data": {"name": "R", "description": "d", "system_prompt": "- a rule",
            "extensions": {"whale_persona": {"spec": PRESET_SPEC, "userName": "U", "tone": {"enabled": True, "text": "t"},
                                             "thinkingLanguage": "en"}}}}
    p = imp(card).preset
    assert p["persona"]["userName"] == "U" and p["persona"]["tone"]["text"] == "t" and p["thinkingLanguage"] == "en"
    assert p["persona"]["contracts"][0]["text"] == "a rule"


def test_slug_ids():
    assert tavern.slug_id("Hello, World!") == "hello-world"
    a, b = tavern.slug_id("小明"), tavern.slug_id("小红")
    assert a.startswith("card-") and a != b and tavern.slug_id("小明") == a


# --- PNG ----------------------------------------------------------------------------------


def chunk(ctype: bytes, body: bytes, crc: int | None = None) -> bytes:
    c = zlib.crc32(ctype + body) & 0xFFFFFFFF if crc is None else crc
    return struct.pack(">I", len(body)) + ctype + body + struct.pack(">I", c)


def png(*chunks: bytes) -> bytes:
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
    return tavern.PNG_SIGNATURE + ihdr + b"".join(chunks) + chunk(b"IDAT", b"\x00garbage-never-decoded") + chunk(b"IEND", b"")


def text_chunk(key: str, obj) -> bytes:
    return chunk(b"tEXt", key.encode() + b"\x00" + base64.b64encode(json.dumps(obj).encode()))


def test_png_prefers_ccv3():
    v3 = {"spec": "chara_card_v3", "data": {"name": "Three", "description": "d3"}}
    v2 = {"spec": "chara_card_v2", "data": {"name": "Two", "description": "d2"}}
    data = png(text_chunk("chara", v2), text_chunk("ccv3", v3))
    assert importers.sniff_card(data, "c.png") > 0
    result = importers.load_card(data, "c.png")
    assert result.value["label"] == "Three"
    assert importers.load_card(png(text_chunk("chara", v2)), "c.png").value["label"] == "Two"


@pytest.mark.parametrize(
    "data",
    [
        png(),  # no card chunk
        png(chunk(b"tEXt", b"chara\x00not base64!!")),
        png(chunk(b"tEXt", b"chara\x00" + base64.b64encode(b"\xff\xfe"))),
        png(chunk(b"tEXt", b"chara\x00" + base64.b64encode(b"{}"), crc=1)),  # bad CRC
        tavern.PNG_SIGNATURE + struct.pack(">I", 2**31) + b"tEXt",  # length beyond the file
        tavern.PNG_SIGNATURE,  # truncated
    ],
)
def test_png_errors_are_located_lwerrors(data):
    with pytest.raises(LwError) as info:
        importers.load_card(data, "card.png")
    assert "card.png" in str(info.value)


def test_png_size_limit(monkeypatch):
    monkeypatch.setattr(tavern, "MAX_PNG_BYTES", 100)
    with pytest.raises(LwError, match="larger"):
        tavern.png_text_chunks(png(text_chunk("chara", {"name": "x" * 200, "description": ""})))


def test_sniffers_never_raise():
    for data in (b"", b"\x00" * 10, b"{", b"[]", tavern.PNG_SIGNATURE, b'{"persona": {}}', b"\xef\xbb\xbf{}"):
        assert 0.0 <= importers.sniff_card(data, "x") <= 1.0
        assert 0.0 <= importers.sniff_preset(data, "x") <= 1.0
    assert importers.sniff_preset(json.dumps({"spec": PRESET_SPEC, "persona": {}}).encode(), "p.json") == 1.0
    assert importers.sniff_card(json.dumps({"spec": PRESET_SPEC, "persona": {}}).encode(), "p.json") == 0.0


def test_bad_json_card_is_located():
    with pytest.raises(LwError) as info:
        importers.load_card(b'{\n "spec": "chara_card_v2",\n oops}', "c.json")
    assert info.value.line == 3


# --- PNG zTXt / iTXt ------------------------------------------------------------------------


def b64(obj) -> bytes:
    return base64.b64encode(json.dumps(obj).encode())


def ztxt_chunk(key: str, obj) -> bytes:
    return chunk(b"zTXt", key.encode() + b"\x00\x00" + zlib.compress(b64(obj)))


def itxt_chunk(key: str, obj, compressed: bool = True, lang: bytes = b"en", translated: str = "Charakter") -> bytes:
    text = zlib.compress(b64(obj)) if compressed else b64(obj)
    head = key.encode() + b"\x00" + bytes([1 if compressed else 0, 0]) + lang + b"\x00" + translated.encode() + b"\x00"
    return chunk(b"iTXt", head + text)


V3_CARD = {"spec": "chara_card_v3", "data": {"name": "Three", "description": "d3", "first_mes": "hi"}}
V2_CARD = {"spec": "chara_card_v2", "data": {"name": "Two", "description": "d2"}}
MAKERS = {
    "tEXt": text_chunk,
    "zTXt": ztxt_chunk,
    "iTXt": itxt_chunk,
    "iTXt-plain": lambda k, o: itxt_chunk(k, o, compressed=False, lang=b"", translated=""),
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize("key", ["ccv3", "chara"])
def test_png_each_chunk_type_and_keyword(kind, key):
    data = png(chunk(b"tEXt", b"Software\x00paint"), MAKERS[kind](key, V3_CARD))
    assert importers.sniff_card(data, "c.png") == 0.6
    result = importers.load_card(data, "c.png")
    assert result.value["label"] == "Three" and result.value["persona"] == {"character": "d3"}
    ctype = kind.split("-")[0]
    assert f"read from the PNG {key!r} {ctype} chunk" in result.report.warnings
    # the import report stays itemised
    assert "description → persona.character" in result.report.carried
    assert [d.field for d in result.report.dropped] == ["data.first_mes"]
    assert tavern.png_text_chunks(data)["software"] == b"paint"


@pytest.mark.parametrize("chara_kind", sorted(MAKERS))
@pytest.mark.parametrize("ccv3_kind", sorted(MAKERS))
def test_png_ccv3_preferred_across_chunk_types(ccv3_kind, chara_kind):
    for order in ((MAKERS[chara_kind]("chara", V2_CARD), MAKERS[ccv3_kind]("ccv3", V3_CARD)),
                  (MAKERS[ccv3_kind]("ccv3", V3_CARD), MAKERS[chara_kind]("chara", V2_CARD))):
        assert importers.load_card(png(*order), "c.png").value["label"] == "Three"


def test_png_first_chunk_of_a_keyword_wins_and_later_ones_are_not_inflated():
    bad_later = chunk(b"zTXt", b"chara\x00\x00" + b"not zlib")
    data = png(text_chunk("chara", V2_CARD), bad_later)
    assert importers.load_card(data, "c.png").value["label"] == "Two"
    # other keywords in compressed chunks are skipped, not inflated
    assert tavern.png_text_chunks(png(chunk(b"zTXt", b"Comment\x00\x00junk"), text_chunk("chara", V2_CARD))).keys() == {"chara"}


def _bomb(size: int) -> bytes:
    comp = zlib.compressobj(9)
    block = bytes(1 << 20)
    parts = [comp.compress(block) for _ in range(size >> 20)]
    parts.append(comp.flush())
    return b"".join(parts)


BOMB = _bomb(64 << 20)  # 64 MiB of zeros in ~64 KiB


@pytest.mark.parametrize("kind", ["zTXt", "iTXt"])
def test_png_compression_bomb_refused(kind):
    assert len(BOMB) < 200_000
    if kind == "zTXt":
        body = b"ccv3\x00\x00" + BOMB
    else:
        body = b"ccv3\x00\x01\x00en\x00\x00" + BOMB
    data = png(chunk(kind.encode(), body))
    with pytest.raises(LwError) as info:
        importers.load_card(data, "bomb.png")
    msg = str(info.value)
    assert "bomb.png" in msg and "more than" in msg and "refused" in msg and kind in msg
    assert importers.sniff_card(data, "bomb.png") == 0.0


def test_png_decompression_limit_is_exact(monkeypatch):
    monkeypatch.setattr(tavern, "MAX_TEXT_CHUNK", 100)
    raw = b"A" * 100
    assert tavern._inflate(zlib.compress(raw), "x") == raw
    with pytest.raises(LwError, match="more than 100 bytes"):
        tavern._inflate(zlib.compress(raw + b"A"), "x")


GOOD_Z = zlib.compress(b64(V2_CARD))


@pytest.mark.parametrize(
    ("body_or_chunk", "match"),
    [
        (chunk(b"zTXt", b"chara\x00\x00" + GOOD_Z[:-6]), "truncated zlib"),
        (chunk(b"zTXt", b"chara\x00\x00" + b"\x78\x9c garbage"), "corrupt zlib"),
        (chunk(b"zTXt", b"chara\x00\x00" + GOOD_Z + b"xx"), "stray byte"),
        (chunk(b"zTXt", b"chara\x00\x01" + GOOD_Z), "compression method 1"),
        (chunk(b"zTXt", b"chara\x00"), "missing compression method"),
        (chunk(b"zTXt", b"chara"), "no keyword separator"),
        (chunk(b"zTXt", b"chara\x00\x00" + GOOD_Z, crc=7), "zTXt chunk at byte 33 fails its CRC"),
        (chunk(b"iTXt", b"chara\x00\x01\x00en\x00\x00" + GOOD_Z, crc=7), "iTXt chunk at byte 33 fails its CRC"),
        (chunk(b"iTXt", b"chara\x00\x01\x00en\x00\x00" + GOOD_Z[:10]), "truncated zlib"),
        (chunk(b"iTXt", b"chara\x00\x02\x00en\x00\x00" + GOOD_Z), "compression flag 2"),
        (chunk(b"iTXt", b"chara\x00\x01\x05en\x00\x00" + GOOD_Z), "compression method 5"),
        (chunk(b"iTXt", b"chara\x00\x00\x00en" + b64(V2_CARD)), "language tag"),
        (chunk(b"iTXt", b"chara\x00\x00\x00"), "language tag"),
        (chunk(b"iTXt", b"chara\x00"), "missing compression flag"),
        (chunk(b"iTXt", b"chara\x00\x00\x00en\x00\xff\xfe\x00" + b64(V2_CARD)), "not valid UTF-8"),
        (chunk(b"iTXt", b"chara\x00\x00\x00en\x00\x00" + b"\xff" + b64(V2_CARD)), "not valid UTF-8"),
        (chunk(b"iTXt", b"chara\x00\x00\x00en\x00\x00" + b"@@not base64"), "'chara' iTXt chunk is not valid base64"),
        (chunk(b"zTXt", b"ccv3\x00\x00" + zlib.compress(base64.b64encode(b"[1,"))), "'ccv3' zTXt chunk does not hold UTF-8 JSON"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_png_corrupt_compressed_chunks_refused(body_or_chunk, match):
    with pytest.raises(LwError, match=match) as info:
        importers.load_card(png(body_or_chunk), "card.png")
    assert info.value.file == "card.png"


def test_png_truncated_inside_compressed_chunk():
    data = png(ztxt_chunk("ccv3", V3_CARD))
    cut = data[:len(tavern.PNG_SIGNATURE) + 25 + 20]
    with pytest.raises(LwError, match="truncated PNG chunk b'zTXt'") as info:
        importers.load_card(cut, "card.png")
    assert "card.png" in str(info.value)


def test_png_compressed_chunk_size_limit(monkeypatch):
    monkeypatch.setattr(tavern, "MAX_TEXT_CHUNK", 50)
    with pytest.raises(LwError, match="text chunk larger than 50"):
        tavern.png_text_chunks(png(ztxt_chunk("ccv3", {"name": "x" * 300, "description": "y" * 300})))
