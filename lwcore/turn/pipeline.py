"""One keeper turn: compile (room -> provider payload) and apply (reply -> checked state).

**Compile** (:func:`compile_turn`, read-only): ask every enabled plugin for its prompt
segments for this turn, add the room's own state (rule-system expertise, sheets, every
variable as the keeper sees it, recent history), build logical messages, compile them with
``kernel.prompt_compilers[protocol].compile(messages, tools=...)``, and attach the tools this
room offers through ``kernel.provider_adapters[protocol]``.

Logical messages (the prompt compiler's input), in order:

1. ``runtime_system`` (system): the kernel's turn rules, then segments of slot ``system``.
2. ``author_instruction`` (system): segments of slot ``author``.
3. ``world_context`` (system): rule-system expertise, character sheets, then segments of
   slot ``context`` (and of any slot not named here).
4. ``world_context`` (user): the room's state this turn -- variables, recent history (with
   the segments that have a ``depth`` inside it, that many entries before its newest end),
   then segments of slot ``state`` (the late part of the state message). A depth segment
   with a ``role`` is a message of that role (``lw:depth-<n>``) at its place instead, the
   state message split around it (the part after it is ``lw:state-<n>``).
5. ``author_instruction`` (user): segments of slot ``suffix`` (closest to the player's words).
6. ``player_input``: what the acting member says.

A compiler's result is used through its ``provider`` attribute (the payload) and, when it
has one, ``cache`` (an object with ``to_json()`` or a mapping): the cache figures.

**Apply** (:func:`apply_reply`, :func:`run_endpoint`): make the writes plugins staged while
the turn compiled (:mod:`lwcore.turn.staged`), read the reply's tool calls with the adapter,
run each one through :func:`execute_call` (only tools offered in this turn; arguments
validated against the tool's ``args_model``; a malformed call becomes a tool error, never a
crash), pass the reply text through the reply processors (``lw_reply_text``: the narration
they leave, their MVU tree operations applied by :func:`lwcore.turn.mvu.apply_to_room`),
roll ``{{roll:XdY}}`` macros in the narration, fire the hook scripts' later events, append
the turn to the history and save the room atomically.

**Budget**: a turn (and a compile on its own) runs under one
:class:`~lwcore.sandbox.budget.Budget` (``TURN_BUDGET_S`` of CPU for every sandbox run together:
hooks, templates, conditions, rule scripts, content regexes), activated here once and read by
the sandbox itself; the turn context carries it as ``extra["budget"]``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from lwcore.contributions import PromptSegment, ToolSpec, TurnContext, Viewer, resolve
from lwcore.errors import LwError
from lwcore.io.safe_json import load_json
from lwcore.io.speech import check_said
from lwcore.plugins import describe_exception
from lwcore.rules.kept_check import LAST_CHECK
from lwcore.sandbox.budget import current as current_budget
from lwcore.sandbox.budget import ensure as ensure_budget
from lwcore.turn import chronicle, sheet_rolls, tree
from lwcore.turn.deadline import Deadline
from lwcore.turn.adapter import ParsedReply, ProviderAdapterProtocol, ToolCall, ToolOffer, ToolResult
from lwcore.turn.macros import expand_rolls
from lwcore.turn.room import HistoryEntry, Member, Room, room_lock, sheet_values
from lwcore.turn.room_commands import CommandRun, is_command, run_room_command
from lwcore.turn.tools import ToolContext, ToolError
from lwcore.turn.documents import project
from lwcore.turn.hook_runtime import TurnHooks
from lwcore.turn.staged import StagedWrites
from lwcore.turn.projections import event_audience, event_document, sheet_document, variable_document
from lwcore.turn.view import PlayerView, view_for

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

DEFAULT_MAX_TOKENS = 1024
HISTORY_IN_PROMPT = 60
MAX_STEPS = 8

_SLOT_MESSAGE = {"system": 0, "author": 1, "context": 2, "state": 3, "suffix": 4}

_RULES = {
    "en": (
        "You are the keeper of this room. Iron rules: (1) state changes only through the "
        "variable tools, and the engine clamps them; (2) every check goes through "
        "skill_check or another check tool -- never narrate a die result you did not get "
        "from a tool; write {{roll:XdY}} where narration needs an incidental roll; "
        "(3) keeper-only variables and notes are secrets: never reveal them in narration."
    ),
    "zh": (
        "你是这个房间的守秘人。铁律：(1) 状态只能通过变量工具改变，由引擎核对并拉回范围；"
        "(2) 每次检定都走 skill_check 或其它检定工具——绝不叙述不是工具给出的骰点；叙述里需要"
        "顺手一掷时写 {{roll:XdY}}；(3) 守秘人专属变量与笔记是秘密，绝不写进叙述。"
    ),
}


# --- results ------------------------------------------------------------------------------


class SegmentUse(NamedTuple):
    """A plugin's prompt segment as a turn used it."""

    name: str
    plugin: str
    slot: str
    chars: int


@dataclass
class CompiledTurn:
    """The outcome of :func:`compile_turn`."""

    protocol: str
    room: Room
    actor: Member
    keeper: bool
    locale: str
    player_input: str
    messages: list[dict[str, Any]]
    payload: dict[str, Any]
    """What the prompt compiler returned (without tools)."""
    request: dict[str, Any]
    """The request body: the payload plus the offered tools (and model, token limit)."""
    offers: list[ToolOffer]
    cache: Any
    segments: list[SegmentUse]
    """Every plugin segment used: its name, plugin, slot and size."""
    dropped: tuple[str, ...]
    """Plugin contributions dropped for this turn, with the reason."""
    staged: StagedWrites = field(default_factory=StagedWrites)
    """Writes plugins staged while compiling; made only when a reply is applied."""

    @property
    def tool_names(self) -> list[str]:
        return [o.name for o in self.offers]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "room": self.room.file.id,
            "actor": self.actor.id,
            "payload": self.request,
            "tools": self.tool_names,
            "cache": self.cache,
            "segments": [s._asdict() for s in self.segments],
            "dropped": list(self.dropped),
        }


@dataclass
class AppliedReply:
    """The outcome of applying a reply (or of a whole tool loop)."""

    narration: str
    results: list[ToolResult]
    tool_messages: list[dict[str, Any]]
    events: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    steps: int = 1
    written: list[Path] = field(default_factory=list)
    ui: list[dict[str, Any]] = field(default_factory=list)
    """Tier-0 UI blocks the turn's hooks emitted (``emitUI``), with the script that did."""

    def to_json(self) -> dict[str, Any]:
        return {
            "narration": self.narration,
            "tool_results": [
                {"call_id": r.call_id, "name": r.name, "is_error": r.is_error, "content": r.content}
                for r in self.results
            ],
            "tool_messages": self.tool_messages,
            "rolls": self.rolls,
            "steps": self.steps,
            "ui": self.ui,
        }


@dataclass
class TurnResult:
    """One turn: the compiled request (and the applied reply, when one was applied), or --
    for a line that is a room command (``.var list``) -- the command's outcome instead."""

    compiled: CompiledTurn | None
    applied: AppliedReply | None = None
    command: CommandRun | None = None
    folds: list[Any] = field(default_factory=list)
    """The chronicle folds this turn ran (:class:`lwcore.turn.chronicle.FoldResult`)."""

    def player_view(self, viewer: str | None = None) -> PlayerView:
        """The view of ``viewer`` after the turn (default: the acting player, or the first
        player when the keeper acted); the keeper gets the keeper's view."""
        if self.compiled is None:
            raise LwError("a room command has no player view of its own")
        room = self.compiled.room
        if viewer is None and not self.compiled.keeper:
            viewer = self.compiled.actor.id
        return view_for(room, viewer)


# --- lookups --------------------------------------------------------------------------------


def load_room(kernel: Kernel, room: Room | str | Path) -> Room:
    return room if isinstance(room, Room) else Room.load(room, kernel)


def default_protocol(kernel: Kernel, room: Room | None = None) -> str:
    """The provider protocol a turn compiles for when none is asked: the room's ``provider:``,
    else the first provider adapter registered (plugin priority order) that also has a prompt
    compiler. :class:`LwError` when no installed plugin can serve any."""
    if room is not None and room.file.provider:
        return room.file.provider
    for protocol in kernel.provider_adapters:
        if protocol in kernel.prompt_compilers:
            return protocol
    raise LwError(
        "no provider protocol can be served: no installed plugin offers both a provider adapter "
        "and a prompt compiler for the same protocol",
        expected="a providers plugin and a prompt compiler plugin (lw plugins list)",
    )


def protocol_of_reply(kernel: Kernel, reply: Mapping[str, Any]) -> str | None:
    """The one installed protocol whose adapter recognizes ``reply``'s shape, else ``None``
    (none, or more than one, recognizes it)."""
    matches = []
    for protocol, entry in kernel.provider_adapters.items():
        if protocol not in kernel.prompt_compilers:
            continue
        adapter = resolve(entry.adapter)
        recognizes = getattr(adapter, "recognizes", None)
        try:
            if callable(recognizes) and recognizes(reply):
                matches.append(protocol)
        except Exception:  # noqa: BLE001 - a broken recognizer just does not recognize
            continue
    return matches[0] if len(matches) == 1 else None


def adapter_for(kernel: Kernel, protocol: str) -> ProviderAdapterProtocol:
    registry = kernel.provider_adapters
    if protocol not in registry:
        known = ", ".join(sorted(registry)) or "none installed"
        raise LwError(f"no provider adapter for protocol {protocol!r}", expected=f"one of: {known}")
    adapter = resolve(registry[protocol].adapter)
    if isinstance(adapter, type):
        adapter = adapter()
    return adapter


def compiler_for(kernel: Kernel, protocol: str) -> Any:
    registry = kernel.prompt_compilers
    if protocol not in registry:
        known = ", ".join(sorted(registry)) or "none installed"
        raise LwError(f"no prompt compiler for protocol {protocol!r}", expected=f"one of: {known}")
    return resolve(registry[protocol].compile)


def visible_tools(kernel: Kernel, room: Room, *, keeper: bool, phase: str | None | bool = True) -> list[ToolSpec]:
    """The tools this room offers this turn.

    Two limits hold whatever asks: keeper-only tools are offered only to the keeper, phase
    tools only in their phase (the room's, unless ``phase`` names another: what the room
    would offer in it). Past them, a tool an active feature asks for
    (:meth:`Room.active_features`; a skill's ``allowed-tools``) is offered; any other tool is
    offered unless it is gated, or an active feature narrows the room (then only the kernel's
    own tools pass), or the room's ``tool_plugins`` leaves its plugin out (the kernel's own
    tools always pass).
    """
    features = room.active_features()
    asked = {name for feature in features for name in feature.tools}
    narrowed = any(feature.narrows for feature in features)
    kernel_own = {r.id for r in kernel.plugins if r.builtin}
    listed = None if room.file.tool_plugins is None else kernel_own | set(room.file.tool_plugins)
    current = room.file.phase if phase is True else phase
    out = []
    for entry in kernel.tools.entries():
        spec = entry.value
        if spec.keeper_only and not keeper:
            continue
        if spec.phase is not None and spec.phase != current:
            continue
        if spec.name not in asked and (
            spec.gated
            or (narrowed and entry.plugin_id not in kernel_own)
            or (listed is not None and entry.plugin_id not in listed)
        ):
            continue
        out.append(spec)
    return out


_SCHEMAS: dict[Any, str] = {}
"""args_model class -> its JSON Schema as JSON text (generating it is most of a compile)."""


def _offer(spec: ToolSpec, locale: str) -> ToolOffer:
    model = resolve(spec.args_model)
    text = _SCHEMAS.get(model)
    if text is None:
        text = _SCHEMAS[model] = json.dumps(model.model_json_schema(), ensure_ascii=False)
    return ToolOffer(spec.name, spec.describe(locale), json.loads(text))  # a fresh copy per turn


def _offers(kernel: Kernel, specs: Sequence[ToolSpec], locale: str) -> tuple[list[ToolOffer], list[str]]:
    """The offers of ``specs``; a plugin tool whose argument model cannot be loaded or has no
    JSON Schema is left out of this turn, recorded on its plugin and listed as dropped."""
    offers: list[ToolOffer] = []
    dropped: list[str] = []
    for spec in specs:
        try:
            offers.append(_offer(spec, locale))
        except Exception as exc:  # noqa: BLE001 - a broken plugin tool must not break the turn
            message = f"tool {spec.name!r} cannot be offered: {describe_exception(exc)}"
            plugin_id = _blame(kernel, spec.name, message)
            dropped.append(f"{plugin_id}: {message}")
    return offers, dropped


# --- compile --------------------------------------------------------------------------------


def turn_context(
    room: Room, actor: Member, player_input: str, *, keeper: bool, rng: random.Random | None = None,
    staged: StagedWrites | None = None,
) -> TurnContext:
    """The :class:`TurnContext` plugins get: room, viewer, locale, and in ``extra``:
    ``config`` (config name -> absolute path, from ``room.yaml``'s ``config``; each also as
    ``<name>_config``), ``room_dir``, ``system``, ``variant``, ``phase``, ``features``,
    ``player_input`` (also as ``user_text``), ``actor`` (the member id), ``actor_name`` (its
    display name, else its id), ``keeper``, ``rng`` (the turn's random source: draw from it for
    anything random in the prompt, so a seeded turn is reproducible), ``staged``
    (:class:`~lwcore.turn.staged.StagedWrites`: writes made only if the turn is applied;
    ``None`` outside a compile) and ``budget`` (the turn's
    :class:`~lwcore.sandbox.budget.Budget`, shared by every sandbox run of the turn, which
    charges it without being handed it; ``None`` outside a turn)."""
    configs = {name: str((room.path / rel).resolve()) for name, rel in room.file.config.items()}
    return TurnContext(
        locale=room.locale_of(actor),
        viewer=actor.id,
        room=room,
        cwd=room.path,
        extra={
            **{f"{name}_config": path for name, path in configs.items()},
            "config": configs,
            "user_text": player_input,
            "room_dir": str(room.path),
            "system": room.file.system,
            "variant": room.file.variant,
            "phase": room.file.phase,
            "features": [f.id for f in room.file.features],
            "player_input": player_input,
            "actor": actor.id,
            "actor_name": actor.name or actor.id,
            "keeper": keeper,
            "rng": rng,
            "staged": staged,
            "budget": current_budget(),
        },
    )


def rulepack_expertise(kernel: Kernel, room: Room, locale: str) -> str:
    """The room's rule-system expertise text in ``locale`` plus the subsystems the
    ``subsystem_check`` tool can run; uses the pack the room loaded with (its sheets' pack)."""
    parts = [sheet_rolls.expertise(room.pack, locale), sheet_rolls.tool_notes(room.pack, locale)]
    return "\n\n".join(p for p in parts if p)


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class DepthMessage:
    """A segment placed in the recent history as a message of its own (a
    :class:`~lwcore.contributions.PromptSegment` with a ``role``): ``depth`` lines before the
    newest end, the provider ``role``, its text and where it came from (``plugin:segment``)."""

    depth: int
    role: str
    text: str
    source: str


def state_texts(
    room: Room, locale: str, *, history_limit: int = HISTORY_IN_PROMPT, inserts: Sequence[tuple[int, str]] = (),
) -> tuple[str, str, str]:
    """``(sheets, variables, history)`` as the keeper's prompt shows them: the keeper's
    projections of the room's documents (``variables`` also carries the MVU tree; ``history``
    the story so far, the chronicle not yet folded, the open threads and the recent lines).
    ``inserts`` are ``(depth, text)`` pairs placed among the recent lines, ``depth`` lines
    before the newest end (0: after the newest line; deeper than the history: before the
    oldest shown), in the order given."""
    sheets, variables, (history,) = state_parts(room, locale, history_limit=history_limit, inserts=inserts)
    return sheets, variables, str(history)


def state_parts(
    room: Room, locale: str, *, history_limit: int = HISTORY_IN_PROMPT,
    inserts: Sequence[tuple[int, str] | DepthMessage] = (),
) -> tuple[str, str, list[str | DepthMessage]]:
    """:func:`state_texts` with the history in pieces: its text, split where a
    :class:`DepthMessage` of ``inserts`` goes (``[text, message, text, …]``; the recent-history
    heading with the first text that has lines). ``(depth, text)`` inserts are lines of the
    texts, as in :func:`state_texts`; a message and texts at one place keep their order."""
    zh = locale.startswith("zh")
    keeper = Viewer(room.file.keeper.id, locale, True)
    sheet_lines = ["## 角色卡" if zh else "## Character sheets"]
    for member in room.file.players:
        if member.id not in room.sheets:
            continue
        sheet = project(room, sheet_document(room, member.id), keeper)
        if sheet is None:
            continue
        extra = sheet.get("extra") or {}
        occupation = extra.get("occupation")
        sheet_lines.append(f"### {sheet['name']} ({member.id}" + (f", {occupation}" if occupation else "") + ")")
        pack = room.pack
        sheet_lines.append("; ".join(f"{pack.display_name(k, locale)} {_fmt(v)}" for k, v in sheet["values"].items()))
        if sheet["expressions"]:
            sheet_lines.append("; ".join(f"&{k}={v}" for k, v in sheet["expressions"].items()))
        shown_state = {k: v for k, v in sheet["state"].items() if k != LAST_CHECK}  # already a check event
        if shown_state:
            sheet_lines.append(("状态：" if zh else "State: ") + json.dumps(shown_state, ensure_ascii=False))
        notes = extra.get("notes")
        if isinstance(notes, str) and notes.strip():
            sheet_lines.append(notes.strip())
    sheets = "\n".join(sheet_lines) if len(sheet_lines) > 1 else ""

    var_lines = []
    for var_def in room.variables.variables:
        var = project(room, variable_document(var_def), keeper)
        if var is None:
            continue
        bounds = ""
        if var["minimum"] is not None or var["maximum"] is not None:
            low = _fmt(var["minimum"]) if var["minimum"] is not None else ""
            high = _fmt(var["maximum"]) if var["maximum"] is not None else ""
            bounds = f" [{low}..{high}]"
        if var["options"]:
            shown = [o if not var["option_labels"] or label == o else f"{o} ({label})"
                     for o, label in zip(var["options"], var["option_labels"] or var["options"])]
            bounds = f" {{{' | '.join(shown)}}}"
        tag = ("守秘人专属" if zh else "keeper only") if var["keeper_only"] else ("玩家可见" if zh else "player-visible")
        value = json.dumps(var["value"], ensure_ascii=False)
        if var["value_label"] is not None and var["value_label"] != var["value"]:
            value += f" ({var['value_label']})"
        var_lines.append(f"- {var['id']} ({var['label']}, {var['kind']}, {tag}) = {value}{bounds}")
    variables = ""
    if var_lines:
        variables = ("## 模组变量（守秘人视图）\n" if zh else "## Module variables (keeper view)\n") + "\n".join(var_lines)
    tree = _tree_text(room, keeper, zh)
    if tree:
        variables = f"{variables}\n\n{tree}" if variables else tree

    campaign = _campaign_text(room, keeper, zh)
    history_lines = []
    for entry in room.history.tail(history_limit) if history_limit else room.history.all():
        line = project(room, event_document(entry), keeper)
        if line is not None:
            secret = " (keeper)" if line["keeper_only"] else ""
            history_lines.append(f"[{line['turn']}] {line['role']} {line['member'] or line['role']}{secret}: {line['text']}")
    heading = "## 最近经过\n" if zh else "## Recent history\n"
    history: list[str | DepthMessage] = []
    headed = False
    for piece in _with_inserts(history_lines, inserts):
        if isinstance(piece, DepthMessage):
            history.append(piece)
            continue
        text = ""
        if piece:
            text = ("" if headed else heading) + "\n".join(piece)
            headed = True
        if not history:
            text = "\n\n".join(p for p in (campaign, text) if p)
        history.append(text)
    return sheets, variables, history


def _with_inserts(lines: list[str], inserts: Sequence[tuple[int, str] | DepthMessage]) -> list[list[str] | DepthMessage]:
    """``lines`` with each insert placed ``depth`` lines before the end (counted in ``lines``
    alone; inserts at one place keep their order): ``(depth, text)`` as a line, a
    :class:`DepthMessage` between the runs of lines it splits (``[lines, message, lines, …]``)."""
    at: dict[int, list[tuple[int, str] | DepthMessage]] = {}
    for insert in inserts:
        depth = insert.depth if isinstance(insert, DepthMessage) else insert[0]
        at.setdefault(max(0, len(lines) - max(0, depth)), []).append(insert)
    out: list[list[str] | DepthMessage] = [[]]
    for index in range(len(lines) + 1):
        for insert in at.get(index, []):
            if isinstance(insert, DepthMessage):
                out += [insert, []]
            else:
                out[-1].append(insert[1].strip())  # type: ignore[union-attr]
        out[-1] += lines[index:index + 1]  # type: ignore[operator]
    return out


def _tree_text(room: Room, keeper: Viewer, zh: bool) -> str:
    doc = room.documents.get("mvu", "mvu")
    view = project(room, doc, keeper) if doc is not None else None
    if not view or not view["leaves"]:
        return ""
    lines = [f"- {leaf['path']} = {json.dumps(leaf['value'], ensure_ascii=False)}"
             + ("" if leaf["exposed"] else (" （未公开）" if zh else " (hidden from players)"))
             for leaf in view["leaves"]]
    return ("## 变量树（守秘人视图）\n" if zh else "## Variable tree (keeper view)\n") + "\n".join(lines)


def _campaign_text(room: Room, keeper: Viewer, zh: bool) -> str:
    """The story so far, the chronicle since, and the open threads (keeper's view)."""
    parts = []
    summary = chronicle.summary(room)
    view = project(room, summary, keeper) if summary is not None else None
    if view and view.get("text"):
        block = ("## 前情提要\n" if zh else "## Story so far\n") + view["text"]
        if view.get("keeper"):
            block += ("\n（守秘人旁注：" if zh else "\n(keeper margin: ") + view["keeper"] + ("）" if zh else ")")
        parts.append(block)
    entries = [chronicle.entry_line(entry, zh)
               for entry in (project(room, doc, keeper) for doc in chronicle.unfolded(room)) if entry]
    if entries:
        parts.append(("## 编年史\n" if zh else "## Chronicle\n") + "\n".join(entries))
    threads = [project(room, doc, keeper) for doc in room.documents.all(chronicle.THREAD)]
    open_threads = [t for t in threads if t and t.get("status") == "open"]
    if open_threads:
        parts.append(("## 未了线索（守秘人）\n" if zh else "## Open threads (keeper)\n")
                     + "\n".join(f"- {t['label']}" + (f": {t['notes']}" if t.get("notes") else "") for t in open_threads))
    return "\n\n".join(parts)


def _block(source: str, text: str) -> dict[str, str]:
    return {"source": source, "markdown": text}


def _message(role: str, message_role: str, prompt_id: str, blocks: list[dict[str, str]]) -> dict[str, Any] | None:
    blocks = [b for b in blocks if b["markdown"].strip()]
    if not blocks:
        return None
    return {
        "role": role,
        "messageRole": message_role,
        "promptId": prompt_id,
        "markdown": "\n\n".join(b["markdown"].strip() for b in blocks),
        "blocks": blocks,
    }


def build_messages(
    room: Room,
    actor: Member,
    player_input: str,
    segments: Sequence[tuple[PromptSegment, str]],
    expertise: str,
    locale: str,
) -> list[dict[str, Any]]:
    """The logical messages of one turn (see the module docstring for the order)."""
    groups: list[list[dict[str, str]]] = [[], [], [], [], []]  # one per _SLOT_MESSAGE index
    lang = "zh" if locale.startswith("zh") else "en"
    groups[0].append(_block("lwcore:rules", _RULES[lang]))
    inserts = [(segment.depth, segment.text) if segment.role is None else
               DepthMessage(segment.depth, segment.role, segment.text, f"{plugin_id}:{segment.name}")
               for segment, plugin_id in segments if segment.depth is not None]
    sheets, variables, history = state_parts(room, locale, inserts=inserts)
    groups[2].append(_block("lwcore:expertise", expertise))
    groups[2].append(_block("lwcore:sheets", sheets))
    groups[3].append(_block("lwcore:variables", variables))
    late: list[dict[str, str]] = []  # slot ``state``: after the whole history
    for segment, plugin_id in segments:
        if segment.depth is None:
            index = _SLOT_MESSAGE.get(segment.slot, 2)
            (late if index == 3 else groups[index]).append(_block(f"{plugin_id}:{segment.name}", segment.text))
    shape = [
        ("runtime_system", "system", "lw:system"),
        ("author_instruction", "system", "lw:author"),
        ("world_context", "system", "lw:world"),
    ]
    messages = [_message(r, m, p, blocks) for (r, m, p), blocks in zip(shape, groups[:3], strict=True)]
    messages += _state_messages(groups[3], history, late)
    messages.append(_message("author_instruction", "user", "lw:suffix", groups[4]))
    out = [m for m in messages if m is not None]
    name = room.sheets[actor.id].name if actor.id in room.sheets else (actor.name or actor.id)
    out.append({"role": "player_input", "markdown": f"{name}: {player_input}", "blocks": []})
    return out


def _state_messages(head: list[dict[str, str]], history: Sequence[str | DepthMessage],
                    late: list[dict[str, str]]) -> list[dict[str, Any] | None]:
    """The room's state this turn: ``lw:state`` (``head`` and the history's first text), then
    for each :class:`DepthMessage` its own message (``lw:depth-<n>``, its role) and the history
    text after it (``lw:state-<n>``); the ``late`` blocks close the last of them."""
    out = []
    for n, piece in enumerate(history):  # texts at even places, messages at odd ones
        if isinstance(piece, DepthMessage):
            out.append(_message("world_context", piece.role, f"lw:depth-{n // 2 + 1}", [_block(piece.source, piece.text)]))
            continue
        blocks = [*(head if n == 0 else []), _block("lwcore:history", piece), *(late if n == len(history) - 1 else [])]
        out.append(_message("world_context", "user", "lw:state" if n == 0 else f"lw:state-{n // 2 + 1}", blocks))
    return out


def _cache_json(result: Any) -> Any:
    cache = getattr(result, "cache", None)
    if cache is None and isinstance(result, Mapping):
        cache = result.get("cache")
    if hasattr(cache, "to_json"):
        return cache.to_json()
    return cache


def payload_of(result: Any) -> dict[str, Any]:
    payload = getattr(result, "provider", None)
    if payload is None and isinstance(result, Mapping):
        payload = result.get("output", result.get("provider", result))
    if not isinstance(payload, Mapping):
        raise LwError(f"the prompt compiler returned {type(result).__name__}, not a payload")
    return dict(payload)


def compile_turn(
    kernel: Kernel,
    room: Room | str | Path,
    player_input: str,
    *,
    provider: str | None = None,
    actor: str | None = None,
    model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    injected: Sequence[tuple[str, str]] = (),
    rng: random.Random | None = None,
) -> CompiledTurn:
    """Compile one turn for ``provider`` on behalf of ``actor`` (default: the first player).

    ``injected`` are ``(origin, text)`` pairs the turn's hook scripts added (``inject``); they
    join the world context of this turn's prompt. ``rng`` is the turn's random source, handed
    to plugins (default: a fresh one).

    ``provider`` defaults to :func:`default_protocol` (the room's ``provider:``, else the
    first installed adapter that has a compiler).

    Read-only: nothing is written. A plugin whose segment hook fails loses its segments for
    this turn and is listed in :attr:`CompiledTurn.dropped`; the turn goes on. The sandbox runs
    it causes share the turn's script budget (a new one when called outside a turn).
    """
    with ensure_budget():
        return _compile_turn(kernel, room, player_input, provider=provider, actor=actor, model=model,
                             max_tokens=max_tokens, injected=injected, rng=rng)


def _compile_turn(
    kernel: Kernel, room: Room | str | Path, player_input: str, *, provider: str | None, actor: str | None,
    model: str | None, max_tokens: int, injected: Sequence[tuple[str, str]], rng: random.Random | None,
) -> CompiledTurn:
    room = load_room(kernel, room)
    provider = provider or default_protocol(kernel, room)
    member = room.member(actor)
    keeper = room.is_keeper(member)
    locale = room.locale_of(member)
    staged = StagedWrites()
    context = turn_context(room, member, player_input, keeper=keeper, rng=rng if rng is not None else random.Random(),
                           staged=staged)
    segment_set = kernel.prompt_segments(context)
    segments = [(e.value, e.plugin_id) for e in segment_set.segments]
    segments += [(PromptSegment(f"hook-{i + 1}", text, slot="context", order=1000 + i), origin)
                 for i, (origin, text) in enumerate(injected)]
    messages = build_messages(room, member, player_input, segments, rulepack_expertise(kernel, room, locale), locale)
    adapter = adapter_for(kernel, provider)
    offers, dropped = _offers(kernel, visible_tools(kernel, room, keeper=keeper), locale)
    definitions = adapter.tool_definitions(offers)
    compiled = compiler_for(kernel, provider)(messages, tools=definitions)
    payload = payload_of(compiled)
    request = adapter.request(payload, offers, model=model, max_tokens=max_tokens)  # type: ignore[arg-type]
    return CompiledTurn(
        protocol=provider,
        room=room,
        actor=member,
        keeper=keeper,
        locale=locale,
        player_input=player_input,
        messages=messages,
        payload=payload,
        request=request,
        offers=offers,
        cache=_cache_json(compiled),
        segments=[SegmentUse(s.name, p, s.slot, len(s.text)) for s, p in segments],
        dropped=(*segment_set.dropped, *dropped),
        staged=staged,
    )


# --- apply ----------------------------------------------------------------------------------


def _error(call: ToolCall, message: str) -> ToolResult:
    return ToolResult(call.id, call.name, {"error": message}, is_error=True)


def validate_arguments(model: Any, arguments: Mapping[str, Any]) -> Any:
    """A tool call's arguments as its model's instance: strictly, as JSON gave them (no
    coercion: ``true`` is not ``1``). Raises pydantic's ``ValidationError``."""
    return model.model_validate(dict(arguments), strict=True)


def argument_problems(exc: Any, most: int = 5) -> str:
    """The first problems of a ``ValidationError`` from :func:`validate_arguments`, one line."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(arguments)'}: {e['msg']}" for e in exc.errors()[:most])


def execute_call(kernel: Kernel, call: ToolCall, ctx: ToolContext, offered: Sequence[str]) -> ToolResult:
    """Run one tool call through the registry. Never raises: failures become tool errors.

    ``call.arguments`` is what a reply gave (a mapping, or JSON text) and is validated here;
    or an instance of the tool's own argument model (exactly that class), arguments the engine
    already validated with it (a prep plan's gate), which run as they are."""
    if call.name not in offered:
        return _error(call, f"tool {call.name!r} is not available in this turn")
    spec = kernel.tools[call.name]
    try:
        model = resolve(spec.args_model)
        handler = resolve(spec.handler)
    except Exception as exc:  # noqa: BLE001 - a broken plugin tool must not break the turn
        _blame(kernel, call.name, f"tool {call.name!r} cannot be loaded: {describe_exception(exc)}")
        return _error(call, f"tool {call.name!r} is broken: {type(exc).__name__}: {exc}")
    arguments = call.arguments
    if type(arguments) is model:
        args = arguments
    else:
        if isinstance(arguments, str):
            try:
                arguments = load_json(arguments) if arguments.strip() else {}
            except LwError as exc:
                return _error(call, f"arguments are not valid JSON: {exc}")
        if not isinstance(arguments, Mapping):
            return _error(call, f"arguments must be a JSON object, not {type(arguments).__name__}")
        from pydantic import ValidationError

        try:
            args = validate_arguments(model, arguments)
        except ValidationError as exc:
            return _error(call, f"invalid arguments: {argument_problems(exc)}")
    try:
        content = handler(args, ctx)
        json.dumps(content, ensure_ascii=False)
    except ToolError as exc:
        return _error(call, str(exc))
    except LwError as exc:
        return _error(call, str(exc))
    except Exception as exc:  # noqa: BLE001 - isolation: one tool never breaks the turn
        _blame(kernel, call.name, f"tool {call.name!r} failed: {describe_exception(exc)}")
        return _error(call, f"tool {call.name!r} failed: {type(exc).__name__}: {exc}")
    return ToolResult(call.id, call.name, content)


def _blame(kernel: Kernel, tool: str, message: str) -> str:
    """Record a tool's failure on the plugin that registered it (the built-in ``turn`` plugin
    for the turn's own tools): like a failing hook, it shows in ``lw plugins info``; with
    ``strict`` the kernel raises instead."""
    plugin_id = kernel.tools.origin(tool)
    kernel.plugin_failed(plugin_id, message)
    return plugin_id


def _tool_context(kernel: Kernel, compiled: CompiledTurn, rng: random.Random | None) -> ToolContext:
    return ToolContext(
        kernel=kernel,
        room=compiled.room,
        actor=compiled.actor,
        keeper=compiled.keeper,
        locale=compiled.locale,
        rng=rng if rng is not None else random.Random(),
    )


def _event_line(event: Mapping[str, Any]) -> str:
    if event.get("summary"):
        return str(event["summary"])
    if event.get("kind") == "check":
        parts = [str(event.get("character", "")), str(event.get("skill", ""))]
        roll, target = event.get("roll"), event.get("target")
        figures = f"{roll}/{target}" if roll is not None and target is not None else ""
        rank = event.get("rank_label") or event.get("rank") or ""
        return " ".join(p for p in (*parts, figures, f"→ {rank}" if rank else "") if p)
    return json.dumps({k: v for k, v in event.items() if k != "audience"}, ensure_ascii=False)


def _finish(
    compiled: CompiledTurn, ctx: ToolContext, text: str, results: list[ToolResult],
    tool_messages: list[dict[str, Any]], steps: int, hooks: TurnHooks | None = None,
) -> AppliedReply:
    room = compiled.room
    text = process_reply(ctx, compiled, text)
    narration, rolls = expand_narration(text, ctx.rng)
    ui: list[dict[str, Any]] = []
    if hooks is not None:
        narration = _after_hooks(hooks, ctx, narration, rolls)
        ctx.events.extend(hooks.events)
        ui = hooks.ui
    turn = room.turn_number + 1
    if compiled.player_input:
        # what the keeper tells the model is direction, not play: players never see it
        audience = "keeper" if compiled.keeper else "all"
        room.record(HistoryEntry(turn=turn, role="player", actor=compiled.actor.id, text=compiled.player_input,
                                 audience=audience))
    for event in ctx.events:
        room.record(HistoryEntry(turn=turn, role="event", text=_event_line(event), audience=event_audience(event),
                                 data=dict(event)))
    for roll in rolls:
        if "error" not in roll:
            room.record(HistoryEntry(turn=turn, role="event", text=f"{roll['expr']} = {roll['total']}", data={"kind": "roll", **roll}))
    if narration:  # as stored: a narration longer than a history line holds is cut, with a note
        narration = room.record(HistoryEntry(turn=turn, role="keeper", actor=room.file.keeper.id, text=narration)).text
    written = room.save()
    return AppliedReply(narration, results, tool_messages, ctx.events, rolls, steps, written, ui)


def _after_hooks(hooks: TurnHooks, ctx: ToolContext, narration: str, rolls: list[dict[str, Any]]) -> str:
    """The turn's later hook events: ``dice_rolled`` per roll, ``variables_changed`` once,
    ``reply_ready`` with the narration; returns the narration as the hooks leave it."""
    for event in ctx.events:
        if event.get("kind") in ("check", "subsystem"):
            hooks.fire("dice_rolled", {k: v for k, v in event.items() if k not in ("audience",)})
    for roll in rolls:
        if "error" not in roll:
            hooks.fire("dice_rolled", {"kind": "roll", **roll})
    changed = [e.get("id") or e.get("path") for e in (*ctx.events, *hooks.events) if e.get("kind") in ("variable", "tree")]
    if changed:
        hooks.fire("variables_changed", {"changed": changed})
    hooks.fire("reply_ready", {"reply": narration})
    if hooks.rewrite is not None:
        narration = hooks.rewrite
    return "\n\n".join(p for p in (narration, *hooks.narrated) if p)


def process_reply(ctx: ToolContext, compiled: CompiledTurn, text: str) -> str:
    """The reply text through the reply processors (``lw_reply_text``): their variable-tree
    changes made (by the engine, each processor's in order), their notes and any
    processor that was skipped logged for the keeper; returns the narration they leave."""
    context = turn_context(compiled.room, compiled.actor, compiled.player_input, keeper=compiled.keeper, rng=ctx.rng)
    processed = ctx.kernel.reply_text(context, text)
    for edit in processed.edits:
        ctx.events.extend(tree.apply_changes(compiled.room, edit.value.tree_changes, by=edit.plugin_id))
        ctx.events.extend({"kind": "reply_note", "audience": "keeper", "plugin": edit.plugin_id,
                           "summary": f"{edit.plugin_id}: {note}"} for note in edit.value.notes)
    ctx.events.extend({"kind": "reply_processor_failed", "audience": "keeper", "summary": reason}
                      for reason in processed.dropped)
    return processed.text


def expand_narration(text: str, rng: random.Random) -> tuple[str, list[dict[str, Any]]]:
    return expand_rolls(text, rng)


def apply_reply(
    kernel: Kernel,
    compiled: CompiledTurn,
    reply: Mapping[str, Any],
    *,
    rng: random.Random | None = None,
    hooks: TurnHooks | None = None,
) -> AppliedReply:
    """Apply one recorded reply (tool calls then narration) to the compiled turn's room."""
    adapter = adapter_for(kernel, compiled.protocol)
    parsed: ParsedReply = adapter.parse_reply(reply)
    ctx = _tool_context(kernel, compiled, rng)
    ctx.events.extend(compiled.staged.commit(compiled.room))
    offered = compiled.tool_names
    results = [execute_call(kernel, call, ctx, offered) for call in parsed.tool_calls]
    messages = adapter.tool_result_messages(results) if results else []
    return _finish(compiled, ctx, parsed.text, results, messages, 1, hooks)


def send_within(
    adapter: ProviderAdapterProtocol, request: Mapping[str, Any], *, endpoint: str, api_key: str | None,
    timeout: float, deadline: Deadline | None,
) -> Mapping[str, Any]:
    """One model request, given at most ``timeout`` seconds and what is left of ``deadline``;
    a request cut short by the deadline fails as the deadline (code ``deadline``)."""
    if deadline is None:
        return adapter.send(request, endpoint=endpoint, api_key=api_key, timeout=timeout)
    try:
        return adapter.send(request, endpoint=endpoint, api_key=api_key, timeout=deadline.bound(timeout))
    except LwError:
        if deadline.expired:
            raise deadline.error() from None
        raise


def run_endpoint(
    kernel: Kernel,
    compiled: CompiledTurn,
    *,
    endpoint: str,
    api_key: str | None,
    rng: random.Random | None = None,
    max_steps: int = MAX_STEPS,
    timeout: float = 60.0,
    hooks: TurnHooks | None = None,
) -> AppliedReply:
    """Send the compiled request to ``endpoint`` and run the tool loop until a reply without
    tool calls (at most ``max_steps`` requests), then apply it like :func:`apply_reply`."""
    adapter = adapter_for(kernel, compiled.protocol)
    ctx = _tool_context(kernel, compiled, rng)
    offered = compiled.tool_names
    request: Mapping[str, Any] = compiled.request
    deadline = compiled.room.deadline
    body = send_within(adapter, request, endpoint=endpoint, api_key=api_key, timeout=timeout, deadline=deadline)
    ctx.events.extend(compiled.staged.commit(compiled.room))
    all_results: list[ToolResult] = []
    all_messages: list[dict[str, Any]] = []
    text = ""
    for step in range(1, max(1, max_steps) + 1):
        if step > 1:
            body = send_within(adapter, request, endpoint=endpoint, api_key=api_key, timeout=timeout,
                               deadline=deadline)
        parsed = adapter.parse_reply(body)
        text = parsed.text
        if not parsed.tool_calls:
            return _finish(compiled, ctx, text, all_results, all_messages, step, hooks)
        results = [execute_call(kernel, call, ctx, offered) for call in parsed.tool_calls]
        all_results += results
        all_messages += adapter.tool_result_messages(results)
        request = adapter.continue_request(request, body, results)
    ctx.events.append({"kind": "loop", "audience": "keeper", "summary": f"tool loop stopped after {max_steps} steps"})
    return _finish(compiled, ctx, text, all_results, all_messages, max_steps, hooks)


def run_turn(
    kernel: Kernel,
    room: Room | str | Path,
    player_input: str,
    *,
    provider: str | None = None,
    actor: str | None = None,
    reply: Mapping[str, Any] | None = None,
    endpoint: str | None = None,
    api_key: str | None = None,
    model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    max_steps: int = MAX_STEPS,
    rng: random.Random | None = None,
    fold_reply: Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    deadline: Deadline | None = None,
) -> TurnResult:
    """Compile one turn and, with ``reply`` or ``endpoint``, apply it (see the module doc).

    ``player_input`` must be text a member may say (:func:`lwcore.io.speech.check_said`: no
    control characters, at most ``MAX_SAID_BYTES``), else nothing runs.

    Given a folder, the room is loaded, changed and saved under its lock (exclusive when a
    reply is applied, so concurrent turns in one room never lose each other's changes).
    Given a loaded :class:`Room`, the caller holds the lock. A line starting with ``.`` is a
    room command (:mod:`lwcore.turn.room_commands`), not a model turn.

    When the prompt nears the room model's window, the chronicle folds
    (:mod:`lwcore.turn.chronicle`): at the emergency level before the model call, else after
    the turn. A fold is a model step: through ``endpoint``, or ``fold_reply`` (a recorded
    reply, or a function from the fold request to the reply); with neither, the fold is noted
    as due and nothing is folded.

    ``deadline`` (:class:`lwcore.turn.deadline.Deadline`): past it the turn writes nothing
    (every save claims it; a model call gets at most the time left) and fails with code
    ``deadline``.
    """
    if reply is not None and endpoint is not None:
        raise LwError("give a recorded reply or an endpoint, not both")
    check_said(player_input)  # the one door what a member says comes through
    command = is_command(player_input)
    if not isinstance(room, Room):
        with room_lock(room, shared=reply is None and endpoint is None and not command):
            return run_turn(
                kernel, Room.load(room, kernel), player_input, provider=provider, actor=actor, reply=reply,
                endpoint=endpoint, api_key=api_key, model=model, max_tokens=max_tokens, max_steps=max_steps,
                rng=rng, fold_reply=fold_reply, deadline=deadline,
            )
    if deadline is not None:
        room.deadline = deadline
    if command:
        if reply is not None or endpoint is not None:
            raise LwError("a room command (a line starting with '.') takes no model reply")
        return TurnResult(None, command=run_room_command(kernel, room, room.member(actor), player_input, rng=rng))
    rng = rng if rng is not None else random.Random()
    member = room.member(actor)
    with ensure_budget():  # one script budget for the whole turn: hooks, templates, conditions, rules
        hooks = TurnHooks.start(kernel, room, turn_context(room, member, player_input, keeper=room.is_keeper(member)),
                                rng)
        try:
            hooks.fire("turn_start", {"user_message": player_input, "actor": member.id, "turn": room.turn_number + 1})
            return _run_model_turn(kernel, room, player_input, hooks, provider=provider, actor=actor, reply=reply,
                                   endpoint=endpoint, api_key=api_key, model=model, max_tokens=max_tokens,
                                   max_steps=max_steps, rng=rng, fold_reply=fold_reply)
        finally:
            hooks.close()


def _run_model_turn(
    kernel: Kernel, room: Room, player_input: str, hooks: TurnHooks, *, provider: str | None, actor: str | None,
    reply: Mapping[str, Any] | None, endpoint: str | None, api_key: str | None, model: str | None,
    max_tokens: int, max_steps: int, rng: random.Random,
    fold_reply: Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]] | None,
) -> TurnResult:
    injected = [("hooks", text) for text in hooks.injected]
    compiled = compile_turn(kernel, room, player_input, provider=provider, actor=actor, model=model,
                            max_tokens=max_tokens, injected=injected, rng=rng)
    if reply is None and endpoint is None:
        return TurnResult(compiled)
    respond = _fold_responder(kernel, compiled.protocol, endpoint, api_key, fold_reply, room.deadline)
    folds = []
    plan = chronicle.plan_for(room, compiled.request)
    if plan.level == "emergency" and plan.batches:
        folds += chronicle.fold_as_planned(kernel, room, plan, protocol=compiled.protocol, respond=respond,
                                           locale=compiled.locale)
        if folds:
            compiled = compile_turn(kernel, room, player_input, provider=compiled.protocol, actor=actor, model=model,
                                    max_tokens=max_tokens, injected=injected, rng=rng)
            plan = chronicle.plan_for(room, compiled.request)
    if reply is not None:
        applied = apply_reply(kernel, compiled, reply, rng=rng, hooks=hooks)
    else:
        assert endpoint is not None
        applied = run_endpoint(kernel, compiled, endpoint=endpoint, api_key=api_key, rng=rng, max_steps=max_steps,
                               hooks=hooks)
    if plan.level != "none":
        folds += chronicle.fold_as_planned(kernel, room, chronicle.plan_for(room, compiled.request),
                                           protocol=compiled.protocol, respond=respond, locale=compiled.locale)
    return TurnResult(compiled, applied, folds=folds)


def _fold_responder(
    kernel: Kernel, protocol: str, endpoint: str | None, api_key: str | None,
    fold_reply: Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]] | None,
    deadline: Deadline | None = None,
) -> Callable[[Mapping[str, Any]], Mapping[str, Any]] | None:
    """How a fold reaches a model: a recorded reply, a function, or the turn's endpoint
    (within what is left of the turn's ``deadline``)."""
    if callable(fold_reply):
        return fold_reply
    if fold_reply is not None:
        recorded = fold_reply
        return lambda request: recorded
    if endpoint is not None:
        adapter = adapter_for(kernel, protocol)
        return lambda request: send_within(adapter, request, endpoint=endpoint, api_key=api_key, timeout=60.0,
                                           deadline=deadline)
    return None
