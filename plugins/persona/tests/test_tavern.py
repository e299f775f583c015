"""§4.6: SillyTavern card import/export, contract splitting; cards in every container.

The containers themselves (PNG chunks, CHARX entries, limits) are the kernel's and are
tested in ``tests/cards``; here: that the importer reads each through the kernel and maps it.
"""

from __future__ import annotations

import json

import pytest
from lwcore.cards.write import TEXT_KINDS, card_charx, card_png
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
    assert tavern.detect({"spec": "chara_card_v2", "data": {"name": "x", "description": "y"}}) == "tavern-v2"
    assert tavern.detect({"name": "x", "first_mes": "y"}) == "tavern-v1"
    assert tavern.detect({"name": "x"}) == "unknown" and tavern.from_card([1]) is None
    # a V2 card without its data object is broken, not a V1 card in disguise (the kernel refuses it)
    assert tavern.detect({"spec": "chara_card_v2", "name": "x", "description": "y"}) == "unknown"


def test_char_macro_is_bound_to_the_card_name_at_import_and_user_is_kept():
    card = {"spec": "chara_card_v2", "data": {
        "name": "Seraphina", "description": "{{char}} guards the forest for {{user}}.", "personality": "{{Char}} is kind",
        "scenario": "{{CHAR}} meets {{user}}", "system_prompt": "- {{char}} never lies\n- {{char}} protects {{user}}",
        "post_history_instructions": "Answer as {{char}} to {{user}}.", "first_mes": "{{char}} waves",
    }}
    r = imp(card)
    p = r.preset["persona"]
    assert p["character"] == "Seraphina guards the forest for {{user}}.\n\n【场景】\nSeraphina meets {{user}}"
    assert p["stance"] == "Seraphina is kind" and p["suffix"] == "Answer as Seraphina to {{user}}."
    assert [c["text"] for c in p["contracts"]] == ["Seraphina never lies", "Seraphina protects {{user}}"]
    assert any(n.startswith("{{char}} bound to 'Seraphina' in description, personality, scenario, system_prompt, "
                            "post_history_instructions") for n in r.notes)
    v3 = imp({"spec": "chara_card_v3", "data": {"name": "Seraphina the Guardian", "nickname": "Sera", "description": "{{char}}"}})
    assert v3.preset["persona"]["character"] == "Sera" and v3.preset["label"] == "Seraphina the Guardian"
    assert not any("bound" in n for n in imp(V2).notes)


def test_a_card_dict_nested_600_deep_is_refused_not_a_recursion_error():
    card = {"spec": "chara_card_v2", "data": {"name": "N", "description": "d", "extensions": {}}}
    node = card["data"]["extensions"]
    for _ in range(600):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(LwError, match="nested deeper than 128 levels"):
        tavern.from_card(card)
    with pytest.raises(LwError, match="^deep.json: .*nested deeper than 128 levels") as info:
        importers.load_card(json.dumps(card).encode(), "deep.json")
    assert info.value.code == "limit"


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


# --- containers, through the kernel's reader ---------------------------------------------------

V3_CARD = {"spec": "chara_card_v3", "data": {"name": "Three", "description": "d3", "first_mes": "hi"}}
V2_CARD = {"spec": "chara_card_v2", "data": {"name": "Two", "description": "d2"}}


@pytest.mark.parametrize("kind", TEXT_KINDS)
def test_png_cards_import_from_every_text_chunk_kind(kind):
    data = card_png(V3_CARD, image=card_png(V2_CARD, keywords=("chara",)), keywords=("chara", "ccv3"), kind=kind)
    assert importers.sniff_card(data, "c.png") == 0.6
    result = importers.load_card(data, "c.png")
    assert result.value["label"] == "Three" and result.value["persona"]["character"] == "d3"
    ctype = kind.split("-")[0]
    assert any(w.startswith(f"read from the PNG's 'ccv3' {ctype} chunk at byte ") for w in result.report.warnings)
    assert any("'ccv3' is read" in w for w in result.report.warnings)
    assert "description → persona.character" in result.report.carried
    assert [d.field for d in result.report.dropped] == ["data.first_mes"]


def test_charx_cards_import():
    data = card_charx(V3_CARD, {"assets/icon/images/main.png": b"img"})
    assert importers.sniff_card(data, "c.charx") == 0.6
    result = importers.load_card(data, "c.charx")
    assert result.value["persona"]["character"] == "d3"
    assert "read from card.json in the CHARX archive" in result.report.warnings


def test_json_v1_sniffs_lower_than_v2():
    assert importers.sniff_card(json.dumps({"name": "n", "description": "d"}).encode(), "v1.json") == 0.5
    assert importers.sniff_card(json.dumps(V2_CARD).encode(), "v2.json") == 0.6


def test_container_errors_reach_the_importer_located():
    broken = card_png(V3_CARD)[:-30]
    with pytest.raises(LwError) as info:
        importers.load_card(broken, "card.png")
    assert info.value.file == "card.png" and info.value.code == "corrupt" and info.value.byte is not None
    assert importers.sniff_card(broken, "card.png") == 0.0


def test_a_preset_given_to_the_card_importer_says_which_importer_to_use():
    preset = json.dumps({"spec": PRESET_SPEC, "persona": {"stance": "s"}}).encode()
    with pytest.raises(LwError) as info:
        importers.load_card(preset, "p.json")
    assert "persona-preset importer" in info.value.expected


def test_sniffers_never_raise():
    for data in (b"", b"\x00" * 10, b"{", b"[]", b"\x89PNG\r\n\x1a\n", b'{"persona": {}}', b"\xef\xbb\xbf{}", b"PK\x03\x04",
                 b"[" * 100_000):
        assert 0.0 <= importers.sniff_card(data, "x") <= 1.0
        assert 0.0 <= importers.sniff_preset(data, "x") <= 1.0
    assert importers.sniff_preset(json.dumps({"spec": PRESET_SPEC, "persona": {}}).encode(), "p.json") == 1.0
    assert importers.sniff_card(json.dumps({"spec": PRESET_SPEC, "persona": {}}).encode(), "p.json") == 0.0


def test_bad_json_card_is_located():
    with pytest.raises(LwError) as info:
        importers.load_card(b'{\n "spec": "chara_card_v2",\n oops}', "c.json")
    assert info.value.line == 3 and info.value.file == "c.json"
