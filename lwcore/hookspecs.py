"""Every hookspec of the kernel; each docstring is that hook's contract.

pluggy project ``loreweaver``, hook prefix ``lw_``. Hooks are grouped into *families*,
each hookspec declared with its family (and, for a registration hook, its registry) by
:func:`family`, once: :data:`FAMILIES`, :data:`HOOK_FAMILY`, :data:`REGISTRIES` and the kernel's
registry attributes are derived from those declarations. A plugin's manifest names the
families it ``provides`` and the kernel registers only the hook implementations of those
families.

Two calling styles:

- **Registration hooks** receive ``register`` (a per-plugin callback, so every contribution
  knows which plugin made it) and return ``None``. The kernel calls them lazily, the first
  time a registry of that family is needed.
- **Call hooks** (``lw_prompt_segments``) are called per use and return their contribution.

Every hook may also accept ``ctx`` (a :class:`lwcore.context.PluginContext`): pluggy lets an
implementation take any subset of the spec's arguments.

Failure contract, for every hook: an exception, a wrong return value or a wrong contribution
type is contained to that one implementation (its other contributions stay), recorded against
its plugin, and shown by ``lw plugins list``/``lw doctor``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from lwcore.context import PluginContext
    from lwcore.kernel import Kernel
    from lwcore.contributions import (
        Computer,
        DocumentType,
        HookScript,
        Importer,
        PackValidator,
        PanelRenderer,
        PromptCompiler,
        PromptSegment,
        ProviderAdapter,
        ProviderPreset,
        Register,
        ReplyEdit,
        RoomCommand,
        RulepackSource,
        SchemaRef,
        StageDirector,
        ToolSpec,
        TurnContext,
    )

PROJECT = "loreweaver"
PREFIX = "lw_"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --- the one declaration of every hook family ---------------------------------------------


@dataclass(frozen=True)
class Registration:
    """The registry a registration hook fills: its name (also the :class:`~lwcore.kernel.Kernel`
    attribute that returns it, unless ``accessor`` says otherwise), the contribution type(s) it
    accepts (a name in :mod:`lwcore.contributions`, or a ``"module:Class"`` reference; resolved
    when the registry is first built), the attribute naming a contribution (its key), and the
    data-plugin folder whose files also fill it."""

    name: str
    contributes: tuple[str, ...]
    key: str
    data_kind: str | None = None
    accessor: str | None = None

    def __init__(self, name: str, *contributes: str, key: str, data_kind: str | None = None,
                 accessor: str | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "contributes", contributes)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "data_kind", data_kind)
        object.__setattr__(self, "accessor", accessor or name)


@dataclass(frozen=True)
class RegistrySpec:
    """How one registry is filled: its hook and family, and the hook's :class:`Registration`."""

    hook: str
    family: str
    registration: Registration


FAMILIES: dict[str, tuple[str, ...]] = {}
"""Hook family (the words a manifest's ``provides`` uses) -> the hooks in that family."""

HOOK_FAMILY: dict[str, str] = {}
"""Hook name -> its family."""

REGISTRIES: dict[str, RegistrySpec] = {}
"""Registry name -> how it is filled (registration hooks only)."""

SPECS: dict[str, Callable[..., Any]] = {}
"""Hook name -> its spec function (what the kernel's plugin manager is given)."""


def family(name: str, registers: Registration | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the function below as a hookspec of family ``name``; with ``registers``, a
    registration hook filling that registry.

    This is the one place a family is declared: the manifest's ``provides`` word
    (:data:`FAMILIES`), which hooks a plugin may implement for it (:data:`HOOK_FAMILY`), the
    registry and the kernel attribute that returns it (:data:`REGISTRIES`), and the spec the
    plugin manager checks implementations against (:data:`SPECS`) are all read from here.
    """

    def declare(function: Callable[..., Any]) -> Callable[..., Any]:
        hook = function.__name__
        if not hook.startswith(PREFIX) or hook in SPECS:
            raise ValueError(f"hookspec {hook!r}: not {PREFIX}* or declared twice")
        if registers is not None and (registers.name in REGISTRIES or registers.accessor in ACCESSORS):
            raise ValueError(f"registry {registers.name!r} declared twice")
        spec = hookspec(function)
        FAMILIES[name] = (*FAMILIES.get(name, ()), hook)
        HOOK_FAMILY[hook] = name
        SPECS[hook] = spec
        if registers is not None:
            REGISTRIES[registers.name] = RegistrySpec(hook, name, registers)
            ACCESSORS[registers.accessor or registers.name] = registers.name
        return spec

    return declare


ACCESSORS: dict[str, str] = {}
"""Kernel attribute (``kernel.tools``, ``kernel.cli_commands``) -> registry name."""


def forget_family(name: str) -> None:
    """Undo :func:`family` for every hook of ``name`` (a test's own family, after the test)."""
    for hook in FAMILIES.pop(name, ()):
        HOOK_FAMILY.pop(hook, None)
        SPECS.pop(hook, None)
    for registry, spec in list(REGISTRIES.items()):
        if spec.family == name:
            del REGISTRIES[registry]
            ACCESSORS.pop(spec.registration.accessor or registry, None)


@family("rulepacks", registers=Registration("rulepacks", "RulepackSource", key="key", data_kind="rulepacks"))
def lw_rulepacks(register: Register[RulepackSource], ctx: PluginContext) -> None:
    """Offer rulepacks: call ``register(RulepackSource(path=...))`` or ``(data=..., id=...)``.

    Called once per kernel (and again after a refresh). Register sources only; parsing is the
    rules engine's job and happens lazily. A system id registered by a bundled plugin wins
    over any other; among the rest, the lowest plugin id wins; the loser is reported.
    """


@family("rulepacks", registers=Registration("rule_computers", "Computer", key="name"))
def lw_rule_computers(register: Register[Computer], ctx: PluginContext) -> None:
    """Offer named derived-stat computers: ``register(Computer(name, function))``.

    A rulepack refers to one by name (``derived: {DB: {computer: NAME}}``). The function is
    deterministic and does no IO.
    """


@family("subsystem_kinds", registers=Registration(
    "subsystem_kinds", "SubsystemKindRef", "lwcore.rules.kinds.base:SubsystemKind", key="name"))
def lw_subsystem_kinds(register: Register[Any], ctx: PluginContext) -> None:
    """Offer subsystem kinds (``register`` takes a ``SubsystemKind`` or a ``SubsystemKindRef``):
    ``register(MyKind())``, an instance of a
    :class:`~lwcore.rules.kinds.base.SubsystemKind` subclass (``lwcore.api.SubsystemKind``), or,
    to keep ``lw plugins list`` from importing it, ``register(SubsystemKindRef("name",
    "package.module:KIND"))`` (imported when a rules engine first needs its kinds).

    A rulepack's ``subsystems: {NAME: {kind: WORD}}`` runs the kind named (or aliased) ``WORD``:
    the rules engine checks the pack's settings with the kind's ``validate`` when the pack
    loads, and runs it for checks, dot commands and the ``subsystem_check`` tool (a plugin
    kind's own tool arguments come through that tool's ``args``). A name clash is won by trust
    order (the bundled kinds, registered by the built-in ``rules`` plugin, first); a kind whose
    alias is already taken is left out and reported by ``lw doctor``.
    """


@family("tools", registers=Registration("tools", "ToolSpec", key="name"))
def lw_tools(register: Register[ToolSpec], ctx: PluginContext) -> None:
    """Offer model-facing tools: ``register(ToolSpec(...))``.

    Names are global; a collision is resolved bundled-first then by plugin id and the loser
    reported. Keep registration cheap: give heavy models/handlers as lazy references.
    """


@family("prompt_segments")
def lw_prompt_segments(turn: TurnContext, ctx: PluginContext) -> Iterable[PromptSegment] | None:
    """Return the prompt segments this plugin contributes to one turn (or ``None``).

    Called for every turn, computed fresh (no caching across turns is assumed). Anything
    that is not a :class:`PromptSegment` is dropped and recorded; a segment with empty text is
    not injected. A raise drops this plugin's segments for the turn only.
    """


@family("turn_scripts")
def lw_turn_scripts(turn: TurnContext, ctx: PluginContext) -> Iterable[HookScript] | None:
    """Return the hook scripts (``hooks.js``) that run in this turn's room (or ``None``).

    Called for every applied turn, like ``lw_prompt_segments``. Each script runs in its own
    sandbox session on the turn's events (``turn_start``, ``dice_rolled``,
    ``variables_changed``, ``reply_ready``); its requested effects are checked, clamped and
    applied by the engine. The plugin must declare ``needs = ["sandbox:js"]``; a script that
    fails is disabled for the turn and the failure logged for the keeper.
    """


@family("reply_text")
def lw_reply_text(turn: TurnContext, text: str, ctx: PluginContext) -> ReplyEdit | None:
    """Process the model's final reply text before anyone reads it; return a
    :class:`ReplyEdit` (or ``None``: nothing to do).

    Called once per applied turn, after the tool calls ran and before ``{{roll:…}}`` macros
    are rolled and the hook scripts' ``reply_ready``. Processors run one after another (call
    order: ``tryfirst``, plain, ``trylast``; then plugin priority), each given the text as
    the one before left it. The engine checks and makes ``tree_changes`` on the room's
    variable tree (:func:`lwcore.turn.tree.apply_changes`: each processor's in order, refused
    changes logged for the keeper) and records ``notes``
    keeper-only. A processor that raises or returns anything else is skipped for the turn
    (recorded on its plugin; the keeper's log says so) and the text goes on as it was.
    """


@family("importers", registers=Registration("importers", "Importer", key="id"))
def lw_importers(register: Register[Importer], ctx: PluginContext) -> None:
    """Offer importers: ``register(Importer(id, sniff, load))``.

    ``sniff(bytes, name)`` returns a confidence in [0, 1]; the kernel asks every importer
    and uses the most confident one (ties: bundled first, then plugin id).
    """


@family("panels", registers=Registration("panel_renderers", "PanelRenderer", key="kind"))
def lw_panel_renderers(register: Register[PanelRenderer], ctx: PluginContext) -> None:
    """Offer panel renderers: ``register(PanelRenderer(kind, formats, render))``.

    The kernel falls back to its own plain-text rendering when no renderer offers the
    requested format or the renderer fails, so a viewer always gets something.
    """


@family("director", registers=Registration("stage_directors", "StageDirector", key="id"))
def lw_stage_directors(register: Register[StageDirector], ctx: PluginContext) -> None:
    """Offer a stage director (M19): ``register(StageDirector(id, direct))``.

    A host's director wakes on story beats (a :class:`~lwcore.contributions.StageBeat`: scene
    change, act turn, an artifact appearing, an extreme roll) in rooms whose enabled packs
    ship a presentation kit, and answers with performance blocks; the kit rides every beat as
    data. A room without a kit never wakes a director. What it returns is checked against the
    kit before anyone sees it; a director that raises loses that beat only.
    """


@family("prompt_compilers", registers=Registration("prompt_compilers", "PromptCompiler", key="protocol"))
def lw_prompt_compilers(register: Register[PromptCompiler], ctx: PluginContext) -> None:
    """Offer prompt compilers by provider protocol: ``register(PromptCompiler(protocol, fn))``.

    A host or the turn pipeline asks ``kernel.prompt_compilers[protocol]``.
    """


@family("providers", registers=Registration("provider_adapters", "ProviderAdapter", key="protocol"))
def lw_provider_adapters(register: Register[ProviderAdapter], ctx: PluginContext) -> None:
    """Offer provider adapters: ``register(ProviderAdapter(protocol, adapter))``.

    The turn pipeline looks one up by the provider protocol it compiled for, to offer tools,
    read the tool calls of a reply and return tool results in that protocol's shapes.
    """


@family("provider_presets", registers=Registration("provider_presets", "ProviderPreset", key="name",
                                                    data_kind="provider_presets"))
def lw_provider_presets(register: Register[ProviderPreset], ctx: PluginContext) -> None:
    """Offer provider presets: ``register(ProviderPreset(name, path))``, a provider profile file
    (:mod:`lwcore.profiles`) a room can name (``profile: NAME``) with nothing added to the data
    dir. A data plugin offers its ``provider_presets/*.yaml`` files the same way. A profile of
    the data dir with the same name wins; among presets, trust order (built-ins, bundled, then
    plugin id). A preset is read and checked as a profile is (never a key in a file).
    """


@family("schemas", registers=Registration("schemas", "SchemaRef", key="name"))
def lw_schemas(register: Register[SchemaRef], ctx: PluginContext) -> None:
    """Publish file-format schemas: ``register(SchemaRef(name, pydantic_model))``.

    ``lw schema NAME`` prints the model's JSON Schema.
    """


@family("cli", registers=Registration("cli", "CommandRef", "click:Command", key="name", accessor="cli_commands"))
def lw_cli(register: Register[Any], ctx: PluginContext) -> None:
    """Add ``lw`` subcommands: ``register(click_command)`` (a ``click.Command``/``Group``) or,
    to keep start-up light, ``register(CommandRef(name, "module:command", help))`` (imported
    only when that command runs).

    Declare the command names in the manifest (``cli_commands = [...]``) so ``lw --help`` can list
    them without importing the plugin. A command whose hook fails is left out; ``lw --help``
    and every other command keep working. A name clash is won by the built-in plugins, then
    bundled ones, then by plugin id (the loser is reported).
    """


@family("room_commands", registers=Registration("room_commands", "RoomCommand", key="name"))
def lw_room_commands(register: Register[RoomCommand], ctx: PluginContext) -> None:
    """Offer commands typed in rooms: ``register(RoomCommand("var", handler, who="keeper"))``.

    The kernel parses ``.word args`` (also with a full-width ``。``), checks the member may run
    the command (``who``) before calling the handler, saves what the handler marked changed
    under the room's lock, and records replies meant for the table. The model never reaches a
    room command. Names clash like tools (built-ins first, then bundled, then plugin id).
    """


@family("documents", registers=Registration("document_types", "DocumentType", key="name"))
def lw_document_types(register: Register[DocumentType], ctx: PluginContext) -> None:
    """Register kinds of room content: ``register(DocumentType(name, project, ...))``.

    A type's ``project(doc, viewer, room)`` is the only way its documents reach anyone: the
    turn's views, panels, ``--json`` outputs and per-viewer prompt parts are built from
    projections. Built-in types (sheets, variables, history events, the MVU tree, notes, the
    chronicle) come from the built-in ``turn`` plugin; a name clash is won by trust order.
    """


@family("pack_validators", registers=Registration("pack_validators", "PackValidator", key="kind"))
def lw_pack_validators(register: Register[PackValidator], ctx: PluginContext) -> None:
    """Offer the validator of one kind of ``.lwpack`` content: ``register(PackValidator(kind,
    validate, lands_in=None, enable=None))``.

    ``lw pack build``, ``lw pack verify`` and every install run each declared item of
    ``contents.<kind>`` through ``validate`` (see :class:`lwcore.contributions.PackValidator`),
    so a pack is checked by the code that will run it. A kind no enabled plugin validates makes
    build and install refuse the pack, naming the plugins whose manifests declare the kind in
    ``pack_kinds``. Declare the kinds you register in the manifest (``pack_kinds = [...]``).
    A kind clash is won by trust order (built-ins, bundled, then plugin id).
    """


@family("diagnostics")
def lw_diagnostics(kernel: Kernel, ctx: PluginContext) -> Iterable[str] | None:
    """Return lines for ``lw doctor`` about what this plugin looks after (or ``None``).

    Called only by ``lw doctor`` (and hosts asking :meth:`Kernel.diagnostics`). Report
    problems a user can fix (a rulepack that does not load, a missing program); a raise is
    recorded against the plugin and shown instead.
    """


DATA_KINDS: frozenset[str] = frozenset(
    {"rulepacks", "skills", "presets", "cards", "worldbooks", "locales", "assets", "provider_presets"}
)
"""Folders a data plugin may provide (``<plugin>/<kind>/``); read by the kernel, no code runs."""
