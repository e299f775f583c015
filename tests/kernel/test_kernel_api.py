"""The embedding API: independent kernels, read-only registries, collisions, data dir."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lwcore.contributions import RulepackSource, ToolSpec
from lwcore.datadir import resolve_data_dir
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin


def tool_plugin(plugin_id: str, *names: str) -> InProcessPlugin:
    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        for name in names:
            register(ToolSpec(name, {"en": f"{name} from {plugin_id}"}, "pydantic:BaseModel", print))

    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": ["tools"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_tools=lw_tools))


def plugin_tools(kernel: Kernel) -> list[str]:
    """Tool names contributed by plugins (the built-in ``turn`` plugin's own tools left out)."""
    return [name for name in kernel.tools if kernel.tools.origin(name) != "turn"]


def test_the_builtin_turn_plugin_registers_its_tools_first(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[tool_plugin("p", "set_variable")])
    own = {"define_variable", "set_variable", "adjust_variable", "skill_check", "subsystem_check"}
    assert own <= set(kernel.tools) and all(kernel.tools.origin(n) == "turn" for n in own)
    assert [str(c) for c in kernel.conflicts] == ["tools 'set_variable': turn wins over p"]


def test_builtins_are_plugins_a_host_can_disable(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={})
    builtins = [(r.id, r.source, r.status, r.distribution) for r in kernel.plugins if r.builtin]
    assert builtins == [(i, "builtin", "enabled", "loreweaver") for i in ("host", "pack", "rules", "turn")]
    assert {"plugins", "doctor", "schema", "roll", "check", "rulepack", "cmd", "turn"} <= set(kernel.cli_commands)
    assert {"plugin-manifest", "rulepack", "sheet", "room"} <= set(kernel.schemas)
    sealed = Kernel(data_dir=tmp_path, entry_points=False, env={}, disabled={"turn"})
    assert sealed.plugin("turn").status == "disabled" and len(sealed.tools) == 0
    assert "turn" not in sealed.cli_commands and "room" not in sealed.schemas
    with pytest.raises(LwError, match="built-in 'turn' plugin is disabled"):
        sealed.turn(tmp_path, "hello")


def test_a_host_enabled_set_keeps_the_builtins(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, enabled=set(), plugins=[tool_plugin("p", "x")])
    assert [r.id for r in kernel.plugins if r.enabled] == ["host", "pack", "rules", "turn"]


def test_kernel_services_are_made_once_per_kernel(tmp_path: Path) -> None:
    made = []
    a = Kernel(data_dir=tmp_path, entry_points=False, env={})
    b = Kernel(data_dir=tmp_path, entry_points=False, env={})
    first = a.service("counter", lambda k: made.append(k) or object())
    assert a.service("counter", lambda k: made.append(k) or object()) is first
    assert b.service("counter", lambda k: made.append(k) or object()) is not first
    assert made == [a, b]


def test_kernels_are_independent(tmp_path: Path) -> None:
    a = Kernel(data_dir=tmp_path / "a", entry_points=False, env={}, plugins=[tool_plugin("p", "roll")])
    b = Kernel(data_dir=tmp_path / "b", entry_points=False, env={})
    assert plugin_tools(a) == ["roll"] and plugin_tools(b) == []
    assert a.data_dir != b.data_dir


def test_registries_are_read_only(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[tool_plugin("p", "roll")])
    with pytest.raises(TypeError):
        kernel.tools["x"] = None  # type: ignore[index]
    assert not hasattr(kernel.tools, "pop")


def test_collision_is_deterministic_and_reported(tmp_path: Path) -> None:
    plugins = [tool_plugin("zeta", "roll", "z"), tool_plugin("alpha", "roll", "a")]
    for order in (plugins, plugins[::-1]):
        kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=order)
        assert kernel.tools.origin("roll") == "alpha"
        assert kernel.tools["roll"].describe("en") == "roll from alpha"
        assert [str(c) for c in kernel.conflicts] == ["tools 'roll': alpha wins over zeta"]


def test_wrong_contribution_type_is_dropped_not_the_rest(tmp_path: Path) -> None:
    @hookimpl
    def lw_rulepacks(register):  # noqa: ANN001, ANN202
        register("not a source")
        register(RulepackSource(data={"x": 1}, id="kept"))

    manifest = {"id": "mixed", "version": "1", "tier": "code", "provides": ["rulepacks"]}
    kernel = Kernel(
        data_dir=tmp_path, entry_points=False, env={},
        plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_rulepacks=lw_rulepacks))],
    )
    assert list(kernel.rulepacks) == ["kept"]
    assert "register() got str, expected RulepackSource" in kernel.plugin("mixed").errors[0]


def test_host_can_disable_a_plugin(tmp_path: Path) -> None:
    kernel = Kernel(
        data_dir=tmp_path, entry_points=False, env={}, plugins=[tool_plugin("p", "roll")], disabled={"p"}
    )
    assert plugin_tools(kernel) == [] and kernel.plugin("p").reason == "disabled by the host"


def test_data_dir_resolution_order(tmp_path: Path) -> None:
    assert resolve_data_dir(tmp_path / "x", {"LW_HOME": "/elsewhere"}) == tmp_path / "x"
    assert resolve_data_dir(None, {"LW_HOME": str(tmp_path / "home")}) == tmp_path / "home"
    default = resolve_data_dir(None, {})
    assert default.name == "loreweaver" and default.is_absolute()


def test_capability_gate_on_context(tmp_path: Path) -> None:
    from lwcore.errors import CapabilityError

    seen = {}

    @hookimpl
    def lw_tools(register, ctx):  # noqa: ANN001, ANN202
        try:
            ctx.data_dir()
        except CapabilityError as exc:
            seen["error"] = str(exc)

    manifest = {"id": "nodata", "version": "1", "tier": "code", "provides": ["tools"]}
    Kernel(
        data_dir=tmp_path, entry_points=False, env={},
        plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_tools=lw_tools))],
    ).tools
    assert "fs:data_dir" in seen["error"]


def test_refresh_with_entry_points_rediscovers_and_reloads(tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[tool_plugin("p", "roll")])
    assert plugin_tools(kernel) == ["roll"]
    kernel.refresh(entry_points=True)
    assert plugin_tools(kernel) == ["roll"] and kernel.plugin("p").status == "enabled"


def test_repeated_failures_are_recorded_once(tmp_path: Path) -> None:
    @hookimpl
    def lw_prompt_segments(turn):  # noqa: ANN001, ANN202
        raise RuntimeError("again")

    manifest = {"id": "flaky", "version": "1", "tier": "code", "provides": ["prompt_segments"]}
    kernel = Kernel(
        data_dir=tmp_path, entry_points=False, env={},
        plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_prompt_segments=lw_prompt_segments))],
    )
    for _ in range(3):
        assert kernel.prompt_segments().dropped
    assert len(kernel.plugin("flaky").errors) == 1


def test_a_sealed_host_can_take_just_the_installed_plugins_it_names(tmp_path: Path) -> None:
    """entry_points=False seals the kernel; a set of names lets a host take exactly the
    bundled rule system, provider and compiler it wants and nothing else installed."""
    from lwcore.turn.compile import compile_turn

    room = Path(__file__).resolve().parents[2] / "examples" / "fog-harbor"
    sealed = Kernel(data_dir=tmp_path, entry_points=False, env={})
    with pytest.raises(LwError, match="rule system 'coc7' is not installed"):
        compile_turn(sealed, room, "hello")
    chosen = Kernel(data_dir=tmp_path, entry_points={"coc7", "providers", "narraeon_compiler"}, env={})
    assert [r.id for r in chosen.plugins if not r.builtin] == ["coc7", "narraeon_compiler", "providers"]
    compiled = compile_turn(chosen, room, "hello")
    assert compiled.protocol and "persona" not in {s.plugin for s in compiled.segments}
