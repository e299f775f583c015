"""The bundled director's choices, beat by beat, against hand-made kits (the whole session on a
web table is plugins/panels/tests/test_staging.py): the form is the first the kit allows, the
words are the players' own, warm-up names what is coming, and it is bundled and enabled."""

from __future__ import annotations

from pathlib import Path

from lw_director.choose import direct, expected
from lwcore.contributions import StageBeat
from lwcore.kernel import Kernel

REF = {"hash": "a" * 64, "mime": "image/png"}
MAP = {"hash": "b" * 64, "mime": "image/png"}


def kit(templates: tuple[str, ...] = ("image", "title_card", "letter", "clipping", "text", "map_pin"),
        generation: str = "allow") -> dict:
    allow = generation == "allow"
    return {"packs": ["p"], "generation": generation, "templates": list(templates), "style": {},
            "subjects": [{"id": "p/chapel", "kind": "location", "name": "沉没的礼拜堂", "ref": REF, "generate": allow},
                         {"id": "p/fen-map", "kind": "location", "name": "The fen map", "ref": MAP, "generate": allow},
                         {"id": "p/zhou", "kind": "npc", "name": {"en": "Zhou Heng", "zh": "周衡"}, "ref": REF,
                          "generate": allow},
                         {"id": "p/book", "kind": "item", "name": "测绘手册", "ref": None, "generate": False}],
            "audio": [{"id": "p/bell", "layer": "sfx", "asset": MAP, "title": "Bell"}]}


def beat(kind: str, the_kit: dict, details: dict | None = None, **facts: object) -> StageBeat:
    return StageBeat(kind, "room", 3, the_kit, {**facts, "beat": details or {}}, "zh")


def test_it_is_bundled_and_answers_for_itself(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, env={})
    assert "director" in kernel.stage_directors and kernel.stage_directors.origin("director") == "director"


def test_a_scene_is_the_first_form_the_kit_allows() -> None:
    scene = {"id": "scene", "value": "沉没的礼拜堂"}
    assert direct(beat("scene", kit(), scene))[0] == {"kind": "image", "subject": "p/chapel", "caption": "沉没的礼拜堂"}
    pinned = direct(beat("scene", kit(("map_pin", "text")), scene))
    assert pinned[0] == {"kind": "map_pin", "label": "沉没的礼拜堂", "map": MAP["hash"]}
    assert direct(beat("scene", kit(("text",)), scene))[0] == {"kind": "text", "text": "沉没的礼拜堂"}
    own = direct(beat("scene", kit(generation="pack_only"), scene))[0]
    assert own == {"kind": "image", "hash": REF["hash"], "caption": "沉没的礼拜堂"}  # the pack's own art


def test_each_beat_stages_only_the_players_words() -> None:
    facts = {"variables": [{"id": "scene", "value": "码头"}]}
    assert direct(beat("act", kit(), {"value": "第二幕"}, **facts)) == [
        {"kind": "title_card", "act": "第二幕", "title": "码头"}]
    letter = direct(beat("artifact", kit(), {"id": "artifact_letter", "value": "别等我。"}))
    assert letter == [{"kind": "letter", "body": "别等我。"}]
    news = direct(beat("artifact", kit(), {"id": "artifact_news", "value": "渔船归港\n无人生还"}))
    assert news == [{"kind": "clipping", "headline": "渔船归港", "body": "渔船归港\n无人生还"}]
    roll = direct(beat("extreme_roll", kit(), {"character": "Alex", "skill": "侦查", "rank_label": "大失败",
                                                "fumble": True}))
    assert roll == [{"kind": "title_card", "title": "大失败", "subtitle": "Alex · 侦查"},
                    {"kind": "audio", "cue": "p/bell"}]
    assert direct(beat("turn", kit())) == [] and direct(beat("scene", kit(), {})) == []


def test_warm_up_names_what_is_coming_and_can_be_drawn() -> None:
    history = [{"text": "远处有人喊周衡的名字。"}, {"text": "桌上摊着测绘手册。"}]
    assert expected(kit(), {"history": history}) == ["p/zhou"]  # the book has no reference: never
    answer = direct(beat("scene", kit(), {"value": "沉没的礼拜堂"}, history=history))
    assert {"kind": "prepare", "subject": "p/zhou"} in answer
    assert {"kind": "prepare", "subject": "p/chapel"} not in answer  # the beat pictures it already
    assert expected(kit(generation="pack_only"), {"history": history}) == []
