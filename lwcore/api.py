"""The plugin API: the one module a plugin's code imports from the kernel.

``from lwcore.api import hookimpl, PromptSegment, TurnContext, LwError`` -- every name a plugin
may rely on is listed in ``__all__`` below, grouped by what it is for: the hook marker and the
plugin context, the contribution types each hook family registers, errors, the kernel, rooms and
what a viewer may see of them, the turn's context and tool/provider types, the variable tree,
live provider calls, the sandbox, JavaScript semantics, safe file reading and writing, cards,
rules, packs, panel blocks and command-line helpers. Anything else under ``lwcore`` is the
kernel's own and may change in any release; ``tests/kernel/test_architecture.py`` fails when a
bundled plugin imports it.

Importing this module is cheap: each name is imported from its home module on first use
(``from lwcore.api import Room`` imports the room model, nothing else).

Version and stability promise
-----------------------------
:data:`API_VERSION` is a semantic version, ``MAJOR.MINOR.PATCH``; a manifest may require a range
(``requires_api = ">=2.0,<3"``) and a kernel outside it refuses the plugin at discovery, before
its code is imported.

- A **patch** release fixes behaviour to match the documented contracts; nothing is added or
  removed.
- A **minor** release may *add*: new names, new optional keyword arguments with defaults, new
  optional fields of contribution types, new hook families, and a type for what was annotated
  ``Any`` (nothing changes at run time; a type checker may now point at code that was always
  wrong). Code written against ``1.x`` keeps working on every later ``1.y``.
- Only a **major** release may remove or rename a name, change a signature incompatibly
  (a new required argument, a removed argument or field) or change a documented contract.
- **Deprecation**: a name to be removed is first marked deprecated in a minor release (its
  docstring says so and what replaces it; using it warns with ``DeprecationWarning``) and stays
  for at least one further minor release before the next major removes it.

``tests/kernel/data/api_surface.json`` records every exported name with its kind and signature;
``tests/kernel/test_api.py`` fails when one disappears or changes without a major version, and
tells how to record an addition.

Namespaces exported as modules (``tree``, ``js``, ``sandbox``, ``profiles``, ``condition``)
promise the names their own ``__all__`` (or, without one, their public functions) has today.
"""

from __future__ import annotations

from lwcore.api_version import API_VERSION

TYPE_CHECKING = False  # typing itself is not imported: a plugin's import of this module stays cheap

_EXPORTS: dict[str, tuple[str, str | None]] = {
    # -- hooks and plugin context
    "hookimpl": ("lwcore.hookspecs", "hookimpl"),
    "Register": ("lwcore.contributions", "Register"),
    "LazyRef": ("lwcore.contributions", "LazyRef"),
    "resolve": ("lwcore.contributions", "resolve"),
    "PluginContext": ("lwcore.context", "PluginContext"),
    "plugin_data_dir": ("lwcore.context", "plugin_data_dir"),
    # -- contributions
    "RulepackSource": ("lwcore.contributions", "RulepackSource"),
    "Computer": ("lwcore.contributions", "Computer"),
    "ToolSpec": ("lwcore.contributions", "ToolSpec"),
    "TurnContext": ("lwcore.contributions", "TurnContext"),
    "PromptSegment": ("lwcore.contributions", "PromptSegment"),
    "HookScript": ("lwcore.contributions", "HookScript"),
    "ReplyEdit": ("lwcore.contributions", "ReplyEdit"),
    "TreeChange": ("lwcore.contributions", "TreeChange"),
    "VariableWrite": ("lwcore.contributions", "VariableWrite"),
    "Importer": ("lwcore.contributions", "Importer"),
    "ImportReport": ("lwcore.contributions", "ImportReport"),
    "ImportResult": ("lwcore.contributions", "ImportResult"),
    "Dropped": ("lwcore.contributions", "Dropped"),
    "PanelRenderer": ("lwcore.contributions", "PanelRenderer"),
    "StageBeat": ("lwcore.contributions", "StageBeat"),
    "StageDirector": ("lwcore.contributions", "StageDirector"),
    "PromptCompiler": ("lwcore.contributions", "PromptCompiler"),
    "ProviderAdapter": ("lwcore.contributions", "ProviderAdapter"),
    "SchemaRef": ("lwcore.contributions", "SchemaRef"),
    "RoomCommand": ("lwcore.contributions", "RoomCommand"),
    "CommandReply": ("lwcore.contributions", "CommandReply"),
    "CommandRef": ("lwcore.contributions", "CommandRef"),
    "DocumentType": ("lwcore.contributions", "DocumentType"),
    "StagedWrites": ("lwcore.contributions", "StagedWrites"),
    "SubsystemKindRef": ("lwcore.contributions", "SubsystemKindRef"),
    "PackFiles": ("lwcore.contributions", "PackFiles"),
    "PackItem": ("lwcore.contributions", "PackItem"),
    "ContentReport": ("lwcore.contributions", "ContentReport"),
    "PackValidator": ("lwcore.contributions", "PackValidator"),
    "localized": ("lwcore.contributions", "localized"),
    # -- errors
    "LwError": ("lwcore.errors", "LwError"),
    "LwErrors": ("lwcore.errors", "LwErrors"),
    "PluginError": ("lwcore.errors", "PluginError"),
    "CapabilityError": ("lwcore.errors", "CapabilityError"),
    "public_message": ("lwcore.errors", "public_message"),
    "redacted": ("lwcore.errors", "redacted"),
    # -- the kernel, rooms and viewers
    "Kernel": ("lwcore.kernel", "Kernel"),
    "InProcessPlugin": ("lwcore.plugins", "InProcessPlugin"),
    "Room": ("lwcore.turn.room", "Room"),
    "TurnRoom": ("lwcore.room_protocol", "TurnRoom"),
    "RoomMember": ("lwcore.room_protocol", "RoomMember"),
    "RoomDocuments": ("lwcore.room_protocol", "RoomDocuments"),
    "RoomHistory": ("lwcore.room_protocol", "RoomHistory"),
    "RoomHistoryEntry": ("lwcore.room_protocol", "RoomHistoryEntry"),
    "Member": ("lwcore.turn.room", "Member"),
    "Feature": ("lwcore.turn.room", "Feature"),
    "HistoryEntry": ("lwcore.turn.room", "HistoryEntry"),
    "room_lock": ("lwcore.turn.room", "room_lock"),
    "shown_to": ("lwcore.turn.room", "shown_to"),
    "sheet_data": ("lwcore.turn.room", "sheet_data"),
    "Viewer": ("lwcore.contributions", "Viewer"),
    "viewer_of": ("lwcore.turn.documents", "viewer_of"),
    "keeper_viewer": ("lwcore.turn.documents", "keeper_viewer"),
    "Document": ("lwcore.turn.documents", "Document"),
    "project": ("lwcore.turn.documents", "project"),
    "project_all": ("lwcore.turn.documents", "project_all"),
    "variable_document": ("lwcore.turn.projections", "variable_document"),
    "view_for": ("lwcore.turn.view", "view_for"),
    "PlayerView": ("lwcore.turn.view", "PlayerView"),
    "KeeperView": ("lwcore.turn.view", "KeeperView"),
    "KeeperOnly": ("lwcore.turn.leaks", "KeeperOnly"),
    "keeper_only": ("lwcore.turn.leaks", "keeper_only"),
    "MVU_PREFIX": ("lwcore.turn.leaks", "MVU_PREFIX"),
    "VariableDef": ("lwcore.turn.variables", "VariableDef"),
    "VariableError": ("lwcore.turn.variables", "VariableError"),
    "check_value": ("lwcore.turn.variables", "check_value"),
    # -- the turn
    "CommandContext": ("lwcore.turn.room_commands", "CommandContext"),
    "is_command": ("lwcore.turn.room_commands", "is_command"),
    "ToolContext": ("lwcore.turn.tools", "ToolContext"),
    "ToolError": ("lwcore.turn.tools", "ToolError"),
    "ToolOffer": ("lwcore.provider_adapter", "ToolOffer"),
    "ToolCall": ("lwcore.provider_adapter", "ToolCall"),
    "ToolResult": ("lwcore.provider_adapter", "ToolResult"),
    "ParsedReply": ("lwcore.provider_adapter", "ParsedReply"),
    "ProviderAdapterProtocol": ("lwcore.provider_adapter", "ProviderAdapterProtocol"),
    "protocol_of_reply": ("lwcore.turn.provider", "protocol_of_reply"),
    "EnvKey": ("lwcore.turn.pipeline", "EnvKey"),
    "PREP_PACKS": ("lwcore.turn.prep", "PACKS"),
    "checked_plan": ("lwcore.turn.prep", "checked_plan"),
    "queue_for": ("lwcore.turn.queue", "queue_for"),
    "game_clock": ("lwcore.turn.hook_runtime", "game_clock"),
    "writes_from": ("lwcore.turn.script_writes", "writes_from"),
    # -- the variable tree (also as the namespace `tree`)
    "tree": ("lwcore.turn.tree", None),
    "Tree": ("lwcore.turn.tree", "Tree"),
    "TreeSegment": ("lwcore.turn.tree", "Segment"),
    "TreeError": ("lwcore.turn.tree", "TreeError"),
    "tree_of": ("lwcore.turn.tree", "tree_of"),
    "tree_apply": ("lwcore.turn.tree", "apply"),
    "tree_get": ("lwcore.turn.tree", "get"),
    "tree_lookup": ("lwcore.turn.tree", "lookup"),
    "tree_new_root": ("lwcore.turn.tree", "new_root"),
    "tree_leaves": ("lwcore.turn.tree", "leaves"),
    "tree_value_of": ("lwcore.turn.tree", "value_of"),
    "tree_is_described": ("lwcore.turn.tree", "is_described"),
    "tree_parse_path": ("lwcore.turn.tree", "parse_path"),
    "tree_show_path": ("lwcore.turn.tree", "show_path"),
    "tree_step": ("lwcore.turn.tree", "step"),
    "tree_thaw": ("lwcore.turn.tree", "thaw"),
    "tree_place": ("lwcore.turn.tree", "place"),
    "tree_parent_of": ("lwcore.turn.tree", "parent_of"),
    "tree_index_of": ("lwcore.turn.tree", "index_of"),
    "tree_open_branch": ("lwcore.turn.tree", "open_branch"),
    # -- live provider calls
    "CallOptions": ("lwcore.live", "CallOptions"),
    "Cancel": ("lwcore.live", "Cancel"),
    "calling": ("lwcore.live", "calling"),
    "current_call": ("lwcore.live", "current_call"),
    "Delta": ("lwcore.live", "Delta"),
    "TextDelta": ("lwcore.live", "TextDelta"),
    "StopDelta": ("lwcore.live", "StopDelta"),
    "ToolCallStart": ("lwcore.live", "ToolCallStart"),
    "ToolArgumentsDelta": ("lwcore.live", "ToolArgumentsDelta"),
    "UsageDelta": ("lwcore.live", "UsageDelta"),
    "profiles": ("lwcore.profiles", None),
    "Profile": ("lwcore.profiles", "Profile"),
    # -- the sandbox
    "sandbox": ("lwcore.sandbox", None),
    "run_hooks": ("lwcore.sandbox", "run_hooks"),
    "js_enabled": ("lwcore.sandbox.switch", "js_enabled"),
    "Budget": ("lwcore.sandbox.budget", "Budget"),
    "current_budget": ("lwcore.sandbox.budget", "current"),
    "ensure_budget": ("lwcore.sandbox.budget", "ensure"),
    "SandboxLimits": ("lwcore.sandbox.runtime", "Limits"),
    "RegexTester": ("lwcore.sandbox.regex", "RegexTester"),
    "RegexFailed": ("lwcore.sandbox.regex", "RegexFailed"),
    # -- JavaScript semantics (also as the namespace `js`)
    "js": ("lwcore.js", None),
    "MAX_SAFE_INTEGER": ("lwcore.js", "MAX_SAFE_INTEGER"),
    "WHITESPACE": ("lwcore.js", "WHITESPACE"),
    "is_array_index": ("lwcore.js", "is_array_index"),
    "number_to_string": ("lwcore.js", "number_to_string"),
    "js_to_number": ("lwcore.js", "to_number"),
    "js_to_string": ("lwcore.js", "to_string"),
    "js_truthy": ("lwcore.js", "truthy"),
    "js_trim": ("lwcore.js", "trim"),
    "utf16_sort_key": ("lwcore.js", "utf16_sort_key"),
    # -- safe reading and writing of files
    "atomic_write_text": ("lwcore.io.atomic", "atomic_write_text"),
    "FolderLock": ("lwcore.io.transaction", "FolderLock"),
    "room_in_use": ("lwcore.rooms", "room_in_use"),
    "list_rooms": ("lwcore.rooms", "list_rooms"),
    "atomic_write_bytes": ("lwcore.io.atomic", "atomic_write_bytes"),
    "encode_utf8": ("lwcore.io.atomic", "encode_utf8"),
    "read_text": ("lwcore.io.text", "read_text"),
    "read_bytes": ("lwcore.io.text", "read_bytes"),
    "decode_text": ("lwcore.io", "decode_text"),
    "read_stream": ("lwcore.io", "read_stream"),
    "DEFAULT_MAX_BYTES": ("lwcore.io.text", "DEFAULT_MAX_BYTES"),
    "load_json": ("lwcore.io.safe_json", "load_json"),
    "read_json": ("lwcore.io.safe_json", "read_json"),
    "check_shape": ("lwcore.io.safe_json", "check_shape"),
    "iter_json_lines": ("lwcore.io", "iter_json_lines"),
    "load_yaml": ("lwcore.io.safe_yaml", "load_yaml"),
    "read_yaml": ("lwcore.io.safe_yaml", "read_yaml"),
    "YamlPositions": ("lwcore.io.safe_yaml", "Positions"),
    "dump_yaml": ("lwcore.io.roundtrip", "dump_yaml"),
    "split_frontmatter": ("lwcore.io.frontmatter", "split_frontmatter"),
    "confine": ("lwcore.io.paths", "confine"),
    "validate_model": ("lwcore.io.models", "validate_model"),
    "JSON_LIMITS": ("lwcore.io.limits", "JSON_LIMITS"),
    "YAML_LIMITS": ("lwcore.io.limits", "YAML_LIMITS"),
    "LINE_LIMITS": ("lwcore.io.limits", "LINE_LIMITS"),
    "FRONTMATTER_LIMITS": ("lwcore.io.frontmatter", "FRONTMATTER_LIMITS"),
    "NOT_TEXT": ("lwcore.io.speech", "NOT_TEXT"),
    "has_not_text": ("lwcore.io.speech", "has_not_text"),
    "Deadline": ("lwcore.deadline", "Deadline"),
    "resolve_data_dir": ("lwcore.datadir", "resolve_data_dir"),
    # -- character cards
    "load_card": ("lwcore.cards", "load_card"),
    "detect_spec": ("lwcore.cards", "detect_spec"),
    "container_of": ("lwcore.cards", "container_of"),
    "unwrap_card": ("lwcore.cards", "unwrap"),
    "CARD_LIMITS": ("lwcore.cards", "CARD_LIMITS"),
    # -- rules
    "engine_for": ("lwcore.rules", "engine_for"),
    "roll": ("lwcore.rules.dice", "roll"),
    "Sheet": ("lwcore.rules.sheet", "Sheet"),
    "SubsystemKind": ("lwcore.rules.kinds.base", "SubsystemKind"),
    "SubsystemResult": ("lwcore.rules.kinds.base", "SubsystemResult"),
    "SubsystemError": ("lwcore.rules.kinds.base", "SubsystemError"),
    "ToolArgument": ("lwcore.rules.kinds.base", "ToolArgument"),
    "compile_dice": ("lwcore.rules.dice", "compile_dice"),
    "dice_drawer": ("lwcore.rules.kinds.base", "drawer"),
    "roll_record": ("lwcore.rules.kinds.base", "roll_record"),
    "stat_of": ("lwcore.rules.kinds.base", "stat_of"),
    "number_of": ("lwcore.rules.kinds.base", "number_of"),
    "set_stat": ("lwcore.rules.kinds.base", "set_stat"),
    "pack_word": ("lwcore.rules.render", "word"),
    "SheetFile": ("lwcore.rules.sheet", "SheetFile"),
    # -- packs
    "Ledger": ("lwcore.pack.ledger", "Ledger"),
    "pack_homes": ("lwcore.pack.ledger", "homes"),
    "installed_path": ("lwcore.pack.install", "installed_path"),
    "MODULE_FILE": ("lwcore.pack.module", "MODULE_FILE"),
    "SETUP_FILE": ("lwcore.pack.module", "SETUP_FILE"),
    "ModuleFrontmatter": ("lwcore.pack.module", "ModuleFrontmatter"),
    "read_module_text": ("lwcore.pack.module", "read_module_text"),
    # -- panel blocks and conditions
    "condition": ("lwcore.ui.condition", None),
    "compile_condition": ("lwcore.ui.condition", "compile_condition"),
    "Block": ("lwcore.ui.blocks", "Block"),
    "BLOCK_KINDS": ("lwcore.ui.blocks", "KINDS"),
    "Label": ("lwcore.ui.blocks", "Label"),
    "LongText": ("lwcore.ui.blocks", "LongText"),
    "Src": ("lwcore.ui.blocks", "Src"),
    "Strict": ("lwcore.ui.blocks", "Strict"),
    "TemplateBlock": ("lwcore.ui.blocks", "TemplateBlock"),
    "VarBinding": ("lwcore.ui.blocks", "VarBinding"),
    "LeafBinding": ("lwcore.ui.blocks", "LeafBinding"),
    # -- command-line helpers
    "cli_state": ("lwcore.cli.common", "state"),
    "echo_json": ("lwcore.cli.common", "echo_json"),
    "confirm": ("lwcore.cli.common", "confirm"),
    "terminal_safe": ("lwcore.io.terminal", "terminal_safe"),
    "ROOM": ("lwcore.cli.common", "ROOM"),
    "batch_option": ("lwcore.cli.batch", "batch_option"),
    "exit_batch": ("lwcore.cli.batch", "exit_batch"),
    "Catalogue": ("lwcore.i18n", "Catalogue"),
    "catalogue": ("lwcore.i18n", "catalogue"),
    "negotiate": ("lwcore.i18n", "negotiate"),
    "pick_locale": ("lwcore.pack.card", "pick_locale"),
    "translations": ("lwcore.i18n", "translations"),
    "Translations": ("lwcore.i18n", "Translations"),
    "LiveRequest": ("lwcore.turn.connection", "LiveRequest"),
    "recorded_audience": ("lwcore.turn.projections", "recorded_audience"),
    "alternatives_of": ("lwcore.turn.checkpoints", "alternatives_of"),
    "controls": ("lwcore.turn.controls", None),
    "ProviderPreset": ("lwcore.contributions", "ProviderPreset"),
    # -- the stage director (M19): the operator's knobs, the turn's events as a director reads them
    "DirectorSettings": ("lwcore.settings", "DirectorSettings"),
    "director_settings": ("lwcore.settings", "director_settings"),
    "TurnEvent": ("lwcore.turn.events", "Event"),
}
"""Exported name -> ``(module, attribute)`` where it lives (attribute None: the module itself, a namespace)."""

__all__ = ["API_VERSION", *_EXPORTS]

if TYPE_CHECKING:  # the same table, spelt out for type checkers (tests/kernel/test_api.py keeps them equal)
    from typing import Any

    from lwcore.contributions import ProviderPreset
    from lwcore.settings import DirectorSettings, director_settings
    from lwcore.turn.events import Event as TurnEvent
    from lwcore.turn.connection import LiveRequest
    from lwcore.turn.projections import recorded_audience
    from lwcore.turn.checkpoints import alternatives_of
    from lwcore.turn import controls
    from lwcore.i18n import Catalogue
    from lwcore.i18n import catalogue
    from lwcore.i18n import negotiate
    from lwcore.pack.card import pick_locale
    from lwcore.i18n import translations
    from lwcore.i18n import Translations
    from lwcore import js, profiles, sandbox
    from lwcore.cards import CARD_LIMITS, container_of, detect_spec, load_card, unwrap as unwrap_card
    from lwcore.cli.batch import batch_option, exit_batch
    from lwcore.cli.common import ROOM, confirm, echo_json, state as cli_state
    from lwcore.io.terminal import terminal_safe
    from lwcore.context import PluginContext, plugin_data_dir
    from lwcore.contributions import (
        CommandRef,
        CommandReply,
        Computer,
        ContentReport,
        DocumentType,
        Dropped,
        HookScript,
        ImportReport,
        ImportResult,
        Importer,
        LazyRef,
        PackFiles,
        PackItem,
        PackValidator,
        PanelRenderer,
        PromptCompiler,
        PromptSegment,
        ProviderAdapter,
        Register,
        ReplyEdit,
        RoomCommand,
        RulepackSource,
        SchemaRef,
        StageBeat,
        StageDirector,
        StagedWrites,
        SubsystemKindRef,
        ToolSpec,
        TreeChange,
        TurnContext,
        VariableWrite,
        Viewer,
        localized,
        resolve,
    )
    from lwcore.datadir import resolve_data_dir
    from lwcore.deadline import Deadline
    from lwcore.errors import CapabilityError, LwError, LwErrors, PluginError, public_message, redacted
    from lwcore.hookspecs import hookimpl
    from lwcore.io import decode_text, iter_json_lines, read_stream
    from lwcore.io.atomic import atomic_write_bytes, atomic_write_text, encode_utf8
    from lwcore.io.frontmatter import FRONTMATTER_LIMITS, split_frontmatter
    from lwcore.io.limits import JSON_LIMITS, LINE_LIMITS, YAML_LIMITS
    from lwcore.io.models import validate_model
    from lwcore.io.paths import confine
    from lwcore.io.roundtrip import dump_yaml
    from lwcore.io.transaction import FolderLock
    from lwcore.io.safe_json import check_shape, load_json, read_json
    from lwcore.io.safe_yaml import Positions as YamlPositions, load_yaml, read_yaml
    from lwcore.io.speech import NOT_TEXT, has_not_text
    from lwcore.io.text import DEFAULT_MAX_BYTES, read_bytes, read_text
    from lwcore.js import (
        MAX_SAFE_INTEGER,
        WHITESPACE,
        is_array_index,
        number_to_string,
        to_number as js_to_number,
        to_string as js_to_string,
        trim as js_trim,
        truthy as js_truthy,
        utf16_sort_key,
    )
    from lwcore.kernel import Kernel
    from lwcore.plugins import InProcessPlugin
    from lwcore.live import (
        CallOptions,
        Cancel,
        Delta,
        StopDelta,
        TextDelta,
        ToolArgumentsDelta,
        ToolCallStart,
        UsageDelta,
        calling,
        current_call,
    )
    from lwcore.pack.install import installed_path
    from lwcore.pack.ledger import Ledger, homes as pack_homes
    from lwcore.pack.module import MODULE_FILE, ModuleFrontmatter, SETUP_FILE, read_module_text
    from lwcore.profiles import Profile
    from lwcore.rooms import list_rooms, room_in_use
    from lwcore.rules import engine_for
    from lwcore.rules.dice import compile_dice, roll
    from lwcore.rules.kinds.base import (
        SubsystemError,
        SubsystemKind,
        SubsystemResult,
        ToolArgument,
        drawer as dice_drawer,
        number_of,
        roll_record,
        set_stat,
        stat_of,
    )
    from lwcore.rules.render import word as pack_word
    from lwcore.rules.sheet import Sheet, SheetFile
    from lwcore.sandbox import run_hooks
    from lwcore.sandbox.budget import Budget, current as current_budget, ensure as ensure_budget
    from lwcore.sandbox.regex import RegexFailed, RegexTester
    from lwcore.sandbox.runtime import Limits as SandboxLimits
    from lwcore.sandbox.switch import js_enabled
    from lwcore.turn import tree
    from lwcore.provider_adapter import ParsedReply, ProviderAdapterProtocol, ToolCall, ToolOffer, ToolResult
    from lwcore.room_protocol import RoomDocuments, RoomHistory, RoomHistoryEntry, RoomMember, TurnRoom
    from lwcore.turn.documents import Document, keeper_viewer, project, project_all, viewer_of
    from lwcore.turn.hook_runtime import game_clock
    from lwcore.turn.leaks import KeeperOnly, MVU_PREFIX, keeper_only
    from lwcore.turn.pipeline import EnvKey
    from lwcore.turn.prep import PACKS as PREP_PACKS, checked_plan
    from lwcore.turn.projections import variable_document
    from lwcore.turn.provider import protocol_of_reply
    from lwcore.turn.queue import queue_for
    from lwcore.turn.room import Feature, HistoryEntry, Member, Room, room_lock, sheet_data, shown_to
    from lwcore.turn.room_commands import CommandContext, is_command
    from lwcore.turn.script_writes import writes_from
    from lwcore.turn.tools import ToolContext, ToolError
    from lwcore.turn.tree import (
        Segment as TreeSegment,
        Tree,
        TreeError,
        apply as tree_apply,
        get as tree_get,
        index_of as tree_index_of,
        is_described as tree_is_described,
        leaves as tree_leaves,
        lookup as tree_lookup,
        new_root as tree_new_root,
        open_branch as tree_open_branch,
        parent_of as tree_parent_of,
        parse_path as tree_parse_path,
        place as tree_place,
        show_path as tree_show_path,
        step as tree_step,
        thaw as tree_thaw,
        tree_of,
        value_of as tree_value_of,
    )
    from lwcore.turn.variables import VariableDef, VariableError, check_value
    from lwcore.turn.view import KeeperView, PlayerView, view_for
    from lwcore.ui import condition
    from lwcore.ui.blocks import (
        Block,
        KINDS as BLOCK_KINDS,
        Label,
        LeafBinding,
        LongText,
        Src,
        Strict,
        TemplateBlock,
        VarBinding,
    )
    from lwcore.ui.condition import compile_condition


    # __all__ again as a literal: mypy cannot read the one built from _EXPORTS above, and the API
    # module exports only what __all__ names (no_implicit_reexport). tests/kernel/test_api.py keeps
    # the two equal.
    __all__ = ["API_VERSION", "hookimpl", "Register", "LazyRef", "resolve", "PluginContext",
        "plugin_data_dir", "RulepackSource", "Computer", "ToolSpec", "TurnContext", "PromptSegment",
        "HookScript", "ReplyEdit", "TreeChange", "VariableWrite", "Importer", "ImportReport", "ImportResult",
        "Dropped", "PanelRenderer", "StageBeat", "StageDirector", "PromptCompiler", "ProviderAdapter",
        "SchemaRef", "RoomCommand", "CommandReply", "CommandRef", "DocumentType", "StagedWrites",
        "SubsystemKindRef", "PackFiles", "PackItem", "ContentReport", "PackValidator", "localized",
        "LwError", "LwErrors", "PluginError", "CapabilityError", "public_message", "redacted", "Kernel",
        "InProcessPlugin", "Room", "TurnRoom", "RoomMember", "RoomDocuments", "RoomHistory",
        "RoomHistoryEntry", "Member", "Feature", "HistoryEntry", "room_lock", "shown_to", "sheet_data",
        "Viewer", "viewer_of", "keeper_viewer", "Document", "project", "project_all", "variable_document",
        "view_for", "PlayerView", "KeeperView", "KeeperOnly", "keeper_only", "MVU_PREFIX", "VariableDef",
        "VariableError", "check_value", "CommandContext", "is_command", "ToolContext", "ToolError",
        "ToolOffer", "ToolCall", "ToolResult", "ParsedReply", "ProviderAdapterProtocol", "protocol_of_reply",
        "EnvKey", "PREP_PACKS", "checked_plan", "queue_for", "game_clock", "writes_from", "tree", "Tree",
        "TreeSegment", "TreeError", "tree_of", "tree_apply", "tree_get", "tree_lookup", "tree_new_root",
        "tree_leaves", "tree_value_of", "tree_is_described", "tree_parse_path", "tree_show_path",
        "tree_step", "tree_thaw", "tree_place", "tree_parent_of", "tree_index_of", "tree_open_branch",
        "CallOptions", "Cancel", "calling", "current_call", "Delta", "TextDelta", "StopDelta",
        "ToolCallStart", "ToolArgumentsDelta", "UsageDelta", "profiles", "Profile", "sandbox", "run_hooks",
        "js_enabled", "Budget", "current_budget", "ensure_budget", "SandboxLimits", "RegexTester",
        "RegexFailed", "js", "MAX_SAFE_INTEGER", "WHITESPACE", "is_array_index", "number_to_string",
        "js_to_number", "js_to_string", "js_truthy", "js_trim", "utf16_sort_key", "atomic_write_text",
        "FolderLock", "room_in_use", "list_rooms", "atomic_write_bytes", "encode_utf8", "read_text",
        "read_bytes", "decode_text", "read_stream", "DEFAULT_MAX_BYTES", "load_json", "read_json",
        "check_shape", "iter_json_lines", "load_yaml", "read_yaml", "YamlPositions", "dump_yaml",
        "split_frontmatter", "confine", "validate_model", "JSON_LIMITS", "YAML_LIMITS", "LINE_LIMITS",
        "FRONTMATTER_LIMITS", "NOT_TEXT", "has_not_text", "Deadline", "resolve_data_dir", "load_card",
        "detect_spec", "container_of", "unwrap_card", "CARD_LIMITS", "engine_for", "roll", "Sheet",
        "SubsystemKind", "SubsystemResult", "SubsystemError", "ToolArgument", "compile_dice", "dice_drawer",
        "roll_record", "stat_of", "number_of", "set_stat", "pack_word", "SheetFile", "Ledger", "pack_homes",
        "installed_path", "MODULE_FILE", "SETUP_FILE", "ModuleFrontmatter", "read_module_text", "condition",
        "compile_condition", "Block", "BLOCK_KINDS", "Label", "LongText", "Src", "Strict", "TemplateBlock",
        "VarBinding", "LeafBinding", "cli_state", "echo_json", "confirm", "terminal_safe", "ROOM",
        "batch_option", "exit_batch", "Catalogue", "catalogue", "negotiate", "pick_locale", "translations",
        "Translations", "LiveRequest", "recorded_audience", "alternatives_of", "controls", "ProviderPreset",
        "DirectorSettings", "director_settings", "TurnEvent"]

def __getattr__(name: str) -> Any:
    """Import an exported name from its home module on first use, and keep it here."""
    import importlib
    import sys

    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'lwcore.api' has no attribute {name!r} (the plugin API is lwcore.api.__all__)")
    module_name, attribute = target
    value = importlib.import_module(module_name)
    if attribute is not None:
        value = getattr(value, attribute)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
