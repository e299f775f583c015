"""An enabled skill in real turns on every provider protocol: its body in the prompt, its
references read on demand, its hooks.js run by the engine (and not when it does not count)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lw_skills.catalog import catalog_for
from lw_skills.rooms import enable
from skills_testkit import PROTOCOLS, reply, set_room, write_skill

CHECKS = [("skill_check", {"character": "p1", "skill": s, "reason": "r"}) for s in ("侦查", "图书馆使用", "聆听", "潜行")]


def enable_skill(kernel, room_dir: Path, skill_id: str) -> None:  # noqa: ANN001
    room = Room.load(room_dir, kernel)
    enable(room, catalog_for(kernel), skill_id)
    room.save()


def tree(kernel, room_dir: Path) -> dict:  # noqa: ANN001
    doc = Room.load(room_dir, kernel).documents.get("mvu", "mvu")
    return doc.data["tree"] if doc is not None else {}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_body_and_its_references_are_in_the_prompt(kernel, room_dir: Path, protocol: str) -> None:  # noqa: ANN001
    before = json.dumps(compile_turn(kernel, room_dir, "x", provider=protocol).request, ensure_ascii=False)
    assert "Tension clock" not in before
    enable_skill(kernel, room_dir, "tension-clock")
    compiled = compile_turn(kernel, room_dir, "x", provider=protocol, actor="p2")  # p2 reads English
    request = json.dumps(compiled.request, ensure_ascii=False)
    assert "## Skill: tension-clock (tension-clock)" in request and "A clock named `tension` runs from 0 to 8" in request
    assert "read one with read_skill_reference when you need it): threats.md" in request
    assert "read_skill_reference" in compiled.tool_names
    zh = json.dumps(compile_turn(kernel, room_dir, "x", provider=protocol, actor="p1").request, ensure_ascii=False)
    assert "## 技能: 紧张时钟 (tension-clock)" in zh and "参考资料（需要时用 read_skill_reference 读取）" in zh
    [use] = [s for s in compiled.segments if s.plugin == "skills"]
    assert (use.name, use.slot) == ("skill:tension-clock", "system")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_reference_is_read_on_demand(kernel, room_dir: Path, protocol: str) -> None:  # noqa: ANN001
    enable_skill(kernel, room_dir, "tension-clock")
    calls = [("read_skill_reference", {"skill": "tension-clock", "reference": "threats.md"}),
             ("read_skill_reference", {"skill": "tension-clock", "reference": "references/threats.md"}),
             ("read_skill_reference", {"skill": "tension-clock", "reference": "../SKILL.md"}),
             ("read_skill_reference", {"skill": "rule-forge", "reference": "checklist.md"})]
    result = run_turn(kernel, room_dir, "x", provider=protocol, reply=reply(protocol, "ok", calls), rng=random.Random(1))
    first, second, escape, other = result.applied.results
    expected = (catalog_for(kernel).get("tension-clock").folder / "references" / "threats.md").read_text(encoding="utf-8")
    assert not first.is_error and first.content["text"] == expected and second.content == first.content
    assert escape.is_error and "has no reference '../SKILL.md'" in escape.content["error"]
    assert other.is_error and "no skill 'rule-forge' is enabled" in other.content["error"]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_hooks_js_runs_in_the_turn_and_the_engine_keeps_the_count(kernel, room_dir: Path, protocol: str) -> None:  # noqa: ANN001
    enable_skill(kernel, room_dir, "tension-clock")
    result = run_turn(kernel, room_dir, "我们分头搜。", provider=protocol, reply=reply(protocol, "雾更浓了。", CHECKS),
                      rng=random.Random(3))
    failed = sum(1 for r in result.applied.results if not r.is_error and r.content["success"] is False)
    assert failed >= 1  # this seed fails some checks
    assert tree(kernel, room_dir) == {"tension": failed}
    [ui] = result.applied.ui
    assert ui["script"] == "skill:tension-clock" and ui["options"] == {"panel": "sidebar", "id": "tension-clock",
                                                                       "replace": True}
    assert ui["blocks"] == [{"kind": "meter", "label": {"en": "Tension", "zh": "紧张"}, "value": failed, "min": 0, "max": 8}]
    second = run_turn(kernel, room_dir, "再搜一次。", provider=protocol, reply=reply(protocol, "。", CHECKS[:1]),
                      rng=random.Random(4))
    more = sum(1 for r in second.applied.results if r.content["success"] is False)
    assert tree(kernel, room_dir) == {"tension": failed + more}  # across turns: the engine's state


def test_a_counter_in_a_js_global_resets_every_turn_but_one_through_incvar_persists(kernel, room_dir: Path,  # noqa: ANN001
                                                                                    data_dir: Path) -> None:
    write_skill(data_dir / "skills", "counter", "description: counts turns", files={"hooks.js": """
        on('turn_start', () => {
          globalThis.__turns = (globalThis.__turns || 0) + 1;
          setvar('js_global', globalThis.__turns);
          incvar('engine', 1);
        });"""})
    enable_skill(kernel, room_dir, "counter")
    for turn in range(3):
        run_turn(kernel, room_dir, f"第{turn}回", reply=reply("anthropic_messages", "。"), rng=random.Random(turn))
    assert tree(kernel, room_dir) == {"js_global": 1, "engine": 3}


def test_hooks_run_only_while_the_skill_counts(kernel, room_dir: Path, data_dir: Path) -> None:  # noqa: ANN001
    write_skill(data_dir / "skills", "adult-hook", "description: d\nmetadata:\n  content-rating: explicit",
                files={"hooks.js": "on('turn_start', () => incvar('ran', 1));"})
    set_room(room_dir, adult=True)
    enable_skill(kernel, room_dir, "adult-hook")
    run_turn(kernel, room_dir, "一", provider="chat_completions", reply=reply("chat_completions", "。"), rng=random.Random(1))
    assert tree(kernel, room_dir) == {"ran": 1}
    set_room(room_dir, adult=False)
    run_turn(kernel, room_dir, "二", provider="chat_completions", reply=reply("chat_completions", "。"), rng=random.Random(2))
    assert tree(kernel, room_dir) == {"ran": 1}
    set_room(room_dir, adult=True, features=[])
    run_turn(kernel, room_dir, "三", provider="chat_completions", reply=reply("chat_completions", "。"), rng=random.Random(3))
    assert tree(kernel, room_dir) == {"ran": 1}


def test_a_failing_skill_hook_is_disabled_for_the_keeper_and_the_turn_goes_on(kernel, room_dir: Path,  # noqa: ANN001
                                                                              data_dir: Path) -> None:
    write_skill(data_dir / "skills", "loops", "description: d", files={"hooks.js": "on('turn_start', () => { for(;;){} });"})
    enable_skill(kernel, room_dir, "loops")
    result = run_turn(kernel, room_dir, "x", provider="openai_responses", reply=reply("openai_responses", "ok", CHECKS[:1]), rng=random.Random(1))
    assert result.applied.narration == "ok" and not result.applied.results[0].is_error
    failures = [e for e in Room.load(room_dir, kernel).history.all() if e.data and e.data.get("kind") == "hook_failed"]
    assert len(failures) == 1 and failures[0].audience == "keeper" and "skills/loops/hooks.js" in failures[0].text


def test_any_file_of_the_skills_folder_is_read_on_demand_and_confined(kernel, room_dir: Path,  # noqa: ANN001
                                                                      data_dir: Path, tmp_path: Path) -> None:
    """Issue 26: real skills (document skills, MCP builder) point their bodies at files anywhere in
    their folder, as the Agent Skills format allows: each is read by its path, nothing outside."""
    (tmp_path / "outside.md").write_text("OUTSIDE", encoding="utf-8")
    write_skill(data_dir / "skills", "doc-skill", "description: fills forms",
                files={"forms.md": "FORMS-BODY", "scripts/fill.md": "FILL-BODY", ".hidden.md": "HIDDEN"})
    (data_dir / "skills" / "doc-skill" / "link.md").symlink_to(tmp_path / "outside.md")
    enable_skill(kernel, room_dir, "doc-skill")
    calls = [("read_skill_reference", {"skill": "doc-skill", "reference": ref})
             for ref in ("forms.md", "scripts/fill.md", "./forms.md", "../doc-skill/forms.md", ".hidden.md", "link.md",
                         "/etc/passwd", "SKILL.md")]
    result = run_turn(kernel, room_dir, "x", provider="chat_completions", reply=reply("chat_completions", "ok", calls),
                      rng=random.Random(1))
    forms, fill, dotted, up, hidden, link, absolute, skill_md = result.applied.results
    assert forms.content["text"] == "FORMS-BODY" and fill.content["text"] == "FILL-BODY" and dotted.content == forms.content
    for refused in (up, hidden, link, absolute, skill_md):
        assert refused.is_error and "has no reference" in refused.content["error"], refused.content
    compiled = compile_turn(kernel, room_dir, "x", provider="chat_completions", actor="p2")
    assert "read_skill_reference" in compiled.tool_names
    assert "Other files of the skill's folder can be read with read_skill_reference" in json.dumps(
        compiled.request, ensure_ascii=False)
