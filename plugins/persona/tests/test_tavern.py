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
