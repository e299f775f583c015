"""Which tools a room offers (``visible_tools``), over every combination that matters: a tool's
origin (the kernel's own, a plugin the room lists, one it does not), gated, keeper-only,
phase; whether an active feature asks for it; whether a feature narrows the room; the room's
``tool_plugins``; the phase; keeper or player; feature conditions (adult switch, systems)."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import BaseModel

from lwcore.contributions import ToolSpec
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.turn.offers import visible_tools
from lwcore.turn.room import Feature, Room


class _Args(BaseModel):
    pass


def _handler(args, ctx):  # noqa: ANN001, ANN202
    return {}


FLAGS = list(itertools.product([False, True], [False, True], [None, "prep"], [False, True]))
"""(gated, keeper_only, phase, asked-when-a-feature-asks)"""


def tool_name(plugin: str, gated: bool, keeper_only: bool, phase: str | None, asked: bool) -> str:
    return f"{plugin}_{'g' if gated else 'o'}{'k' if keeper_only else 'a'}{'p' if phase else 'n'}{'x' if asked else 'y'}"


def tools_plugin(plugin_id: str) -> InProcessPlugin:
    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        for gated, keeper_only, phase, asked in FLAGS:
            register(ToolSpec(tool_name(plugin_id, gated, keeper_only, phase, asked), {"en": "t"}, _Args, _handler,
                              gated=gated, keeper_only=keeper_only, phase=phase))

    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": ["tools"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_tools=lw_tools))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Kernel, Room]:
    import shutil

    root = tmp_path_factory.mktemp("vt")
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "fog-harbor", root / "room",
                    ignore=shutil.ignore_patterns("replies"))
    kernel = Kernel(data_dir=root / "data", env={}, enabled=["host", "rules", "turn", "coc7", "alpha", "beta"],
                    plugins=[tools_plugin("alpha"), tools_plugin("beta")])
    return kernel, Room.load(root / "room", kernel)


def expected(kernel: Kernel, room: Room, *, keeper: bool, asks: bool, narrows: bool, condition_holds: bool) -> set[str]:
    """The documented rule, written out: the two hard limits, then asked-or-allowed."""
    listed = room.file.tool_plugins
    out = set()
    for entry in kernel.tools.entries():
        spec, plugin = entry.value, entry.plugin_id
        own = plugin == "turn"
        if spec.keeper_only and not keeper:
            continue
        if spec.phase is not None and spec.phase != room.file.phase:
            continue
        feature_active = asks and condition_holds
        asked = feature_active and spec.name.endswith("x")
        narrowed = feature_active and narrows
        allowed = not spec.gated and (own or not narrowed) and (own or listed is None or plugin in listed)
        if asked or allowed:
            out.add(spec.name)
    return out


CASES = list(itertools.product(
    [False, True],            # keeper
    [False, True],            # a feature asks for the *x tools
    [False, True],            # that feature narrows
    [None, ["alpha"]],        # tool_plugins
    [None, "prep"],           # the room's phase
    ["none", "adult-off", "adult-on", "other-system", "this-system"],  # the feature's condition
))


@pytest.mark.parametrize(("keeper", "asks", "narrows", "listed", "phase", "condition"), CASES)
def test_every_combination(world: tuple[Kernel, Room], keeper: bool, asks: bool, narrows: bool,
                           listed: list[str] | None, phase: str | None, condition: str) -> None:
    kernel, room = world
    asked = [tool_name(p, *flags[:3], True) for p in ("alpha", "beta") for flags in FLAGS if flags[3]]
    feature: dict = {"id": "f", "tools": asked, "narrows": narrows}
    if condition.startswith("adult"):
        feature["adult"] = True
    if condition == "other-system":
        feature["systems"] = ["no-such-system"]
    if condition == "this-system":
        feature["systems"] = ["Call of Cthulhu", "something-else"]  # any of them, by any of its names
    room.file.features = [Feature.model_validate(feature)] if asks else []
    room.file.tool_plugins = listed
    room.file.phase = phase
    room.file.adult = condition == "adult-on"
    holds = condition in ("none", "adult-on", "this-system")
    got = {s.name for s in visible_tools(kernel, room, keeper=keeper)}
    assert got == expected(kernel, room, keeper=keeper, asks=asks, narrows=narrows, condition_holds=holds)
    # what the room would offer in another phase: only the phase differs
    other = None if phase == "prep" else "prep"
    room_in_other = {s.name for s in visible_tools(kernel, room, keeper=keeper, phase=other)}
    room.file.phase = other
    assert room_in_other == {s.name for s in visible_tools(kernel, room, keeper=keeper)}


def test_the_oracle_is_not_vacuous(world: tuple[Kernel, Room]) -> None:
    """The table above reaches every outcome: tools offered and refused for each reason."""
    kernel, room = world
    room.file.features, room.file.tool_plugins, room.file.phase, room.file.adult = [], None, None, False
    plain = {s.name for s in visible_tools(kernel, room, keeper=True)}
    assert "alpha_oany" in plain and "alpha_gany" not in plain and "alpha_oapy" not in plain
    assert "run_prep_plan" not in plain and "define_variable" in plain
    assert "define_variable" not in {s.name for s in visible_tools(kernel, room, keeper=False)}
    room.file.features = [Feature(id="f", tools=["beta_gany"], narrows=True)]
    narrowed = {s.name for s in visible_tools(kernel, room, keeper=True)}
    assert "beta_gany" in narrowed and "alpha_oany" not in narrowed and "skill_check" in narrowed
