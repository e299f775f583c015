"""hooks.js in a turn (C.1), end to end on every provider: events in order, effects checked
and clamped by the engine, failures contained, the globalThis pitfall."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from lwcore.contributions import HookScript
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room
from lwcore.turn.view import view_for

from .conftest import PROTOCOLS, SAY

HOOKS = """
on('turn_start', (e) => {
  incvar('clues_found', 10);                 // declared: clamped to its maximum (6)
  setvar('world.weather', 'rain');           // undeclared: a leaf of the MVU tree
  inject('The lamp under the water is lit (hook).');
  emitUI([{kind: 'meter', label: {en: 'Dread', zh: '恐惧'}, value: 3, min: 0, max: 10}], {panel: 'sidebar', id: 'hud'});
});
on('dice_rolled', (d) => { if (d.skill) log('rolled ' + d.skill); });
on('variables_changed', (c) => { narrate('雾更浓了（钩子）。'); incvar('cult_alert', 1); });
on('reply_ready', (r) => { narrate('—— 钟声停了。'); });
"""


def script_plugin(source: str, *, needs: tuple[str, ...] = ("sandbox:js",), plugin_id: str = "lore") -> InProcessPlugin:
    @hookimpl
    def lw_turn_scripts(turn):  # noqa: ANN001, ANN202
        return [HookScript("room-hooks", source, origin=f"{plugin_id}/hooks.js")]

    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": ["turn_scripts"], "needs": list(needs)}
    return InProcessPlugin(manifest, SimpleNamespace(lw_turn_scripts=lw_turn_scripts))


@pytest.fixture
def hooked(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={}, plugins=[script_plugin(HOOKS)])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_hooks_run_through_a_turn(hooked: Kernel, room_dir: Path, protocol: str, recorded) -> None:
    result = run_turn(hooked, room_dir, SAY, provider=protocol, reply=recorded(protocol), rng=random.Random(5))
    request = json.dumps(result.compiled.request, ensure_ascii=False)
    assert "The lamp under the water is lit (hook)." in request  # inject reached the prompt
    applied = result.applied
    assert applied.narration.endswith("雾更浓了（钩子）。\n\n—— 钟声停了。")
    assert applied.ui[0]["blocks"][0]["kind"] == "meter" and applied.ui[0]["options"]["id"] == "hud"
    room = Room.load(room_dir, hooked)
    assert room.variable("clues_found").value == 6  # 1 + 10, clamped; the reply's +1 clamped too
    assert room.variable("cult_alert").value == 2 + 1 + 1  # the reply's +1, then the hook's
    assert room.documents.get("mvu", "mvu").data["tree"] == {"world": {"weather": "rain"}}
    logs = [e.text for e in room.history.all() if e.data and e.data.get("kind") == "hook_log"]
    assert logs == ["lore/hooks.js: rolled 侦查"] and all(
        e.audience == "keeper" for e in room.history.all() if e.data and e.data.get("kind") == "hook_log")
    assert "rain" not in view_for(room, "p1").to_json_text()  # MVU leaves stay hidden from players


def test_a_failing_hook_is_disabled_and_logged_and_the_turn_goes_on(tmp_path: Path, room_dir: Path, recorded) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[script_plugin(
        "on('turn_start', () => { incvar('clues_found', 1); });\non('reply_ready', () => { while (true) {} });")])
    result = run_turn(kernel, room_dir, SAY, reply=recorded("anthropic_messages"), rng=random.Random(5))
    assert not any(r.is_error for r in result.applied.results)
    room = Room.load(room_dir, kernel)
    failures = [e for e in room.history.all() if e.data and e.data.get("kind") == "hook_failed"]
    assert len(failures) == 1 and "CPU time" in failures[0].text and failures[0].audience == "keeper"
    assert room.variable("clues_found").value == 3  # the turn_start write stayed: 1 + 1 + the reply's 1


def test_a_plugin_without_sandbox_js_contributes_no_scripts(tmp_path: Path, room_dir: Path, recorded) -> None:
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[script_plugin(HOOKS, needs=())])
    result = run_turn(kernel, room_dir, SAY, reply=recorded("anthropic_messages"), rng=random.Random(5))
    assert "(hook)" not in json.dumps(result.compiled.request, ensure_ascii=False)
    assert any("sandbox:js" in e for e in kernel.plugin("lore").errors)


def test_the_global_this_pitfall(tmp_path: Path, room_dir: Path) -> None:
    """A counter kept in a JS global resets every turn; the same counter through incvar
    persists, because the engine owns state (the spec's measured pitfall)."""
    source = """
    on('turn_start', () => {
      globalThis.__turns = (globalThis.__turns || 0) + 1;
      setvar('js_global_counter', globalThis.__turns);
      incvar('engine_counter', 1);
    });"""
    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[script_plugin(source)])
    for turn in range(3):
        run_turn(kernel, room_dir, f"第{turn}回", reply={"content": [{"type": "text", "text": "。"}]},
                 rng=random.Random(turn))
    tree = Room.load(room_dir, kernel).documents.get("mvu", "mvu").data["tree"]
    assert tree == {"js_global_counter": 1, "engine_counter": 3}


def test_compiling_shows_what_hooks_inject_without_saving(hooked: Kernel, room_dir: Path) -> None:
    before = {p: p.read_bytes() for p in room_dir.rglob("*") if p.is_file() and ".lw" not in p.parts}
    compiled = compile_turn(hooked, room_dir, SAY)
    assert "(hook)" not in json.dumps(compiled.request, ensure_ascii=False)  # compile_turn alone runs no hooks
    preview = run_turn(hooked, room_dir, SAY)
    assert "(hook)" in json.dumps(preview.compiled.request, ensure_ascii=False)
    after = {p: p.read_bytes() for p in room_dir.rglob("*") if p.is_file() and ".lw" not in p.parts}
    assert after == before
