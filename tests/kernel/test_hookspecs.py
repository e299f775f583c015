"""One test per hookspec: an implementation is called, and one that raises is isolated.

``test_every_hookspec_has_a_case`` fails when a hookspec is added without a case here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click
import pytest

from lwcore import hookspecs
from lwcore.contributions import (
    ProviderPreset,
    Computer,
    DocumentType,
    HookScript,
    Importer,
    ImportResult,
    ContentReport,
    PackValidator,
    PanelRenderer,
    PromptCompiler,
    PromptSegment,
    ProviderAdapter,
    ReplyEdit,
    RoomCommand,
    RulepackSource,
    SchemaRef,
    StageBeat,
    StageDirector,
    ToolSpec,
    Viewer,
)
from lwcore.hookspecs import hookimpl
from lwcore.rules import engine_for
from lwcore.rules.kinds.base import SubsystemKind
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin


@dataclass
class Case:
    family: str
    contribution: Callable[[str], Any]
    observe: Callable[[Kernel, str], bool]
    call_style: str = "register"
    needs: tuple[str, ...] = ()


def _sniff(data: bytes, name: str) -> float:
    return 0.9 if data.startswith(b"HELLO") else 0.0


CASES: dict[str, Case] = {
    "lw_rulepacks": Case(
        "rulepacks",
        lambda key: RulepackSource(data={"names": [key]}, id=key),
        lambda k, key: key in k.rulepacks and k.rulepacks.origin(key) == key,
    ),
    "lw_rule_computers": Case(
        "rulepacks",
        lambda key: Computer(key, lambda values: 1),
        lambda k, key: k.rule_computers[key].function({}) == 1,
    ),
    "lw_subsystem_kinds": Case(
        "subsystem_kinds",
        lambda key: type(f"Kind_{key}", (SubsystemKind,), {"name": key})(),
        lambda k, key: k.subsystem_kinds.origin(key) == key and engine_for(k).kinds.named(key) is not None,
    ),
    "lw_tools": Case(
        "tools",
        lambda key: ToolSpec(key, {"en": "a tool"}, "pydantic:BaseModel", lambda a, c: None),
        lambda k, key: k.tools[key].describe("zh-CN") == "a tool",
    ),
    "lw_prompt_segments": Case(
        "prompt_segments",
        lambda key: PromptSegment(key, f"text of {key}"),
        lambda k, key: [e.value.text for e in k.prompt_segments().segments if e.plugin_id == key]
        == [f"text of {key}"],
        call_style="return",
    ),
    "lw_turn_scripts": Case(
        "turn_scripts",
        lambda key: HookScript(key, "on('turn_start', () => log('hi'))", origin=f"{key}/hooks.js"),
        lambda k, key: [e.value.origin for e in k.turn_scripts()[0] if e.plugin_id == key] == [f"{key}/hooks.js"],
        call_style="return",
        needs=("sandbox:js",),
    ),
    "lw_reply_text": Case(
        "reply_text",
        lambda key: ReplyEdit(f"[{key}]"),
        lambda k, key: k.reply_text(None, "text").text == f"[{key}]"
        and [e.plugin_id for e in k.reply_text(None, "text").edits] == [key],
        call_style="reply",
    ),
    "lw_importers": Case(
        "importers",
        lambda key: Importer(key, _sniff, lambda data, name: ImportResult("text", data.decode())),
        lambda k, key: (0.9, key) in k.sniff(b"HELLO", "x.txt")
        and k.import_bytes(b"HELLO", importer=key).value == "HELLO",
    ),
    "lw_panel_renderers": Case(
        "panels",
        lambda key: PanelRenderer(key, ("html",), lambda panel, viewer, fmt: f"<b>{viewer.id}</b>"),
        lambda k, key: k.render_panel({"kind": key}, Viewer("ann"), "html") == "<b>ann</b>",
    ),
    "lw_stage_directors": Case(
        "director",
        lambda key: StageDirector(key, lambda beat: [{"kind": "title_card", "title": beat.kind}]),
        lambda k, key: k.stage_directors[key].direct(StageBeat("scene", "r", 1, {}))
        == [{"kind": "title_card", "title": "scene"}] and k.stage_directors.origin(key) == key,
    ),
    "lw_prompt_compilers": Case(
        "prompt_compilers",
        lambda key: PromptCompiler(key, lambda messages: {"n": len(messages)}),
        lambda k, key: k.prompt_compilers[key].compile([1, 2]) == {"n": 2},
    ),
    "lw_provider_adapters": Case(
        "providers",
        lambda key: ProviderAdapter(key, SimpleNamespace(name=key)),
        lambda k, key: k.provider_adapters[key].adapter.name == key,
    ),
    "lw_provider_presets": Case(
        "provider_presets",
        lambda key: ProviderPreset(key, Path(f"/presets/{key}.yaml")),
        lambda k, key: k.provider_presets[key].path == Path(f"/presets/{key}.yaml")
        and k.provider_presets.origin(key) == key,
    ),
    "lw_schemas": Case(
        "schemas",
        lambda key: SchemaRef(key, "lwcore.manifest_schema:PluginManifest"),
        lambda k, key: key in k.schemas and k.schemas.origin(key) == key,
    ),
    "lw_cli": Case(
        "cli",
        lambda key: click.Command(key, callback=lambda: None),
        lambda k, key: k.cli_commands[key].name == key,
    ),
    "lw_room_commands": Case(
        "room_commands",
        lambda key: RoomCommand(key, lambda ctx: f"{key} answers", who="anyone"),
        lambda k, key: k.room_commands[key].who == "anyone" and k.room_commands.origin(key) == key,
    ),
    "lw_document_types": Case(
        "documents",
        lambda key: DocumentType(key, lambda doc, viewer, room: dict(doc.data)),
        lambda k, key: k.document_types[key].storage == "yaml" and k.document_types.origin(key) == key,
    ),
    "lw_pack_validators": Case(
        "pack_validators",
        lambda key: PackValidator(key, lambda item: ContentReport(id=item.path), lands_in=key),
        lambda k, key: k.pack_validators[key].validate(SimpleNamespace(path="x.txt")).id == "x.txt"
        and k.pack_validators.origin(key) == key,
    ),
    "lw_diagnostics": Case(
        "diagnostics",
        lambda key: f"{key} looks fine",
        lambda k, key: (key, f"{key} looks fine") in k.diagnostics(),
        call_style="kernel",
    ),
}


def test_every_hookspec_has_a_case() -> None:
    specs = {name for name in dir(hookspecs) if name.startswith(hookspecs.PREFIX) and callable(getattr(hookspecs, name))}
    assert specs == set(CASES) == set(hookspecs.HOOK_FAMILY)


def plugin_for(hook: str, key: str, *, raises: bool = False) -> InProcessPlugin:
    case = CASES[hook]
    if case.call_style == "return":

        def impl(turn):  # noqa: ANN001, ANN202
            if raises:
                raise RuntimeError(f"{key} broke")
            return [case.contribution(key)]

    elif case.call_style == "reply":

        def impl(text):  # noqa: ANN001, ANN202
            if raises:
                raise RuntimeError(f"{key} broke")
            return case.contribution(key)

    elif case.call_style == "kernel":

        def impl(kernel):  # noqa: ANN001, ANN202
            if raises:
                raise RuntimeError(f"{key} broke")
            return [case.contribution(key)]

    else:

        def impl(register):  # noqa: ANN001, ANN202
            if raises:
                raise RuntimeError(f"{key} broke")
            register(case.contribution(key))

    impl.__name__ = hook
    obj = SimpleNamespace(**{hook: hookimpl(impl)})
    manifest = {"id": key, "version": "1.0", "tier": "code", "provides": [case.family], "needs": list(case.needs)}
    return InProcessPlugin(manifest, obj)


@pytest.mark.parametrize("hook", sorted(CASES))
def test_hook_is_called(hook: str, tmp_path: Path) -> None:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[plugin_for(hook, "good")])
    assert CASES[hook].observe(kernel, "good")
    assert kernel.plugin("good").status == "enabled"


@pytest.mark.parametrize("hook", sorted(CASES))
def test_raising_hook_is_isolated(hook: str, tmp_path: Path) -> None:
    kernel = Kernel(
        data_dir=tmp_path,
        entry_points=False,
        env={},
        plugins=[plugin_for(hook, "bad", raises=True), plugin_for(hook, "good")],
    )
    assert CASES[hook].observe(kernel, "good")
    bad = kernel.plugin("bad")
    assert bad.status == "error"
    assert any("RuntimeError: bad broke" in e for e in bad.errors)
    assert kernel.plugin("good").status == "enabled"
