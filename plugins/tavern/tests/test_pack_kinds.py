"""The cards, worldbooks and presets kinds of .lwpack content: each file parsed by the loader an
import uses, the card's kind detected from its payload (a table, one row per kind of machinery)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lwcore.contributions import PackItem
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.files import SourceTree

from lw_tavern.pack_kinds import validate_card, validate_preset, validate_worldbook

V2 = {"spec": "chara_card_v2", "spec_version": "2.0",
      "data": {"name": "Mira", "description": "A quiet cartographer.", "first_mes": "Hello.", "extensions": {}}}


def v2(**data: Any) -> dict[str, Any]:
    card = json.loads(json.dumps(V2))
    card["data"].update(data)
    return card


def book(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"entries": [{"keys": ["k"], "content": "c", "extensions": {}, "enabled": True, "insertion_order": 0,
                         **e} for e in entries]}


def native(**fields: Any) -> dict[str, Any]:
    return {"format": "loreweaver.card", "format_version": 1, "name": "Fen", **fields}


def item(tmp_path: Path, kind: str, name: str, body: Any, siblings: tuple[str, ...] = ()) -> PackItem:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode())
    return PackItem(kind, name, {}, siblings or (name,), SourceTree(tmp_path), "fen")


CARDS = [
    # (file name, card, kind, format, hooks, ejs)
    ("plain.json", V2, "character", "chara_card_v2", False, False),
    ("v1.json", {"name": "Old", "description": "x", "first_mes": "Hi."}, "character", "chara_card_v1", False, False),
    ("v3.json", {**v2(), "spec": "chara_card_v3", "spec_version": "3.0"}, "character", "chara_card_v3", False, False),
    ("hooks.json", v2(extensions={"loreweaver_hooks": ["on('turn_start', () => {})"]}), "world", "chara_card_v2", True, False),
    ("ejs.json", v2(first_mes="<% if (getvar('x')) { %>Hi<% } %>"), "world", "chara_card_v2", False, True),
    ("secret.json", v2(character_book=book({"content": "The truth.", "extensions": {"loreweaver_secret": True}, "secret": True})),
     "world", "chara_card_v2", False, False),
    ("initvar.json", v2(character_book=book({"comment": "[InitVar]", "content": '{"hp": 10}'})), "world", "chara_card_v2", False, False),
    ("scripts.json", v2(extensions={"regex_scripts": [{"findRegex": "a"}]}), "world", "chara_card_v2", False, False),
    ("lore.json", v2(character_book=book({"content": "A plain fact."})), "character", "chara_card_v2", False, False),
    ("plain.lorecard.json", native(worldbook=[{"id": "well", "content": "A well.", "keys": ["well"]}]), "character", "lorecard-v1", False, False),
    ("typed.lorecard.json", native(variables=[{"id": "hp", "kind": "number"}]), "world", "lorecard-v1", False, False),
    ("hooked.lorecard.json", native(hooks=["on('turn_start', () => {})"]), "world", "lorecard-v1", True, False),
]


@pytest.mark.parametrize(("name", "card", "kind", "fmt", "hooks", "ejs"), CARDS, ids=[c[0] for c in CARDS])
def test_a_cards_kind_comes_from_its_payload(tmp_path: Path, name: str, card: Any, kind: str, fmt: str,
                                             hooks: bool, ejs: bool) -> None:
    report = validate_card(item(tmp_path, "cards", f"cards/{name}", card))
    assert report.detected == {"kind": kind, "format": fmt, "container": "json"}
    assert (report.world, report.hooks, report.ejs) == (kind == "world", hooks, ejs)


@pytest.mark.parametrize("container", ["png", "charx"])
def test_png_and_charx_cards_are_read_through_the_kernels_card_reader(tmp_path: Path, container: str) -> None:
    from lwcore.cards.write import card_charx, card_png

    world = v2(extensions={"loreweaver_hooks": ["on('turn_start', () => {})"]})
    body = card_png(world) if container == "png" else card_charx({**world, "spec": "chara_card_v3", "spec_version": "3.0"})
    report = validate_card(item(tmp_path, "cards", f"cards/mira.{container}", body))
    assert report.detected["container"] == container and report.detected["kind"] == "world" and report.hooks


def test_native_entry_ids_are_the_packs_handles(tmp_path: Path) -> None:
    card = native(worldbook=[{"id": "well", "content": "A.", "keys": ["a"]}, {"content": "B.", "keys": ["b"]},
                             {"id": "tower", "content": "C.", "keys": ["c"]}])
    assert validate_card(item(tmp_path, "cards", "c.lorecard.json", card)).handles == ("well", "tower")


@pytest.mark.parametrize(("name", "body", "words", "line"), [
    ("bad.json", b'{"spec": "chara_card_v2", "data": {"name": 7}}', "name is a int", 1),
    ("broken.json", b'{\n  "name": "x",\n  oops\n}', "JSON|Expecting|syntax", 3),
    ("future.lorecard.json", json.dumps(native(format_version=9)).encode(), "newer than this build reads", 1),
    ("card.png", b"\x89PNG\r\n\x1a\n", "PNG|IEND|chunk", None),
    ("latin1.json", '{"name": "caf\u00e9"}'.encode("latin-1"), "invalid UTF-8", 1),
])
def test_a_bad_card_is_refused_with_its_location(tmp_path: Path, name: str, body: bytes, words: str, line: int | None) -> None:
    with pytest.raises(LwError, match=words) as caught:
        validate_card(item(tmp_path, "cards", f"cards/{name}", body))
    assert caught.value.file and caught.value.file.endswith(f"cards/{name}") and caught.value.line == line


def test_world_books_are_read_whole(tmp_path: Path) -> None:
    good = {"entries": {"0": {"uid": 0, "key": ["fen"], "content": "Mud."},
                        "1": {"uid": 1, "key": ["bell"], "content": "<%= getvar('x') %>"}}}
    report = validate_worldbook(item(tmp_path, "worldbooks", "books/fen.json", good))
    assert report.detected == {"entries": 2} and report.ejs
    with pytest.raises(LwError, match="entries"):
        validate_worldbook(item(tmp_path, "worldbooks", "books/bad.json", {"entries": {"0": {"uid": 0, "key": "fen", "content": 3}}}))


def test_presets_install_under_distinct_ids(tmp_path: Path) -> None:
    preset = {"prompts": [{"identifier": "main", "name": "Main", "content": "Be brief."}],
              "prompt_order": [{"character_id": 100001, "order": [{"identifier": "main", "enabled": True}]}]}
    report = validate_preset(item(tmp_path, "presets", "presets/night.json", preset, siblings=("presets/night.json",)))
    assert report.id == "night"
    with pytest.raises(LwError, match="installs as preset 'night', like 'other/night.json'"):
        validate_preset(item(tmp_path, "presets", "presets/night.json", preset,
                             siblings=("presets/night.json", "other/night.json")))


def test_the_plugin_registers_the_three_kinds(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, env={})
    assert {k: kernel.pack_validators.origin(k) for k in ("cards", "worldbooks", "presets")} == \
        {"cards": "tavern", "worldbooks": "tavern", "presets": "tavern"}
    assert kernel.plugin("tavern").manifest.pack_kinds == ("cards", "worldbooks", "presets")
