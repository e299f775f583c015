"""The world book, the enabled presets and the companions in a turn's prompt.

Every turn (``lw_prompt_segments``) the room's book is activated once -- SillyTavern's scan over
the recent history and what the acting member says now (and, for entries with ``match*`` flags,
the room's card and the acting member's character: :mod:`lw_tavern.room.scan_texts`), the
room's timed state in, the next one out -- and its entries are rendered (:mod:`lw_tavern.room.render`) and placed:

| what | segment | where in the kernel's prompt |
|---|---|---|
| preset text before every marker | ``preset-style`` | slot ``author``, first |
| preset text around ``worldInfoBefore``/``After`` | ``preset-before-lore``, ``preset-after-lore`` | slot ``context``, wrapping the book |
| entries *before* / *after* the character | ``worldbook-before``, ``worldbook-after`` | slot ``context`` |
| templates' ``injectPrompt`` | ``worldbook-injected`` | slot ``context``, after the book |
| example-message entries (top, then bottom) | ``worldbook-examples`` | slot ``context`` |
| author's-note top / bottom entries | ``worldbook-an-top``, ``worldbook-an-bottom`` | slot ``author``, around the rest |
| entries at depth *d* (each role) | ``worldbook-depth-<d>[-<role>]`` | a message of that role inside the recent history, *d* − 1 entries from its end |
| preset prompts at depth *d* | ``preset-depth-<d>`` | the same |
| preset text after ``chatHistory`` | ``preset-late`` | slot ``state``: the late part of the state message |
| companions | ``companions`` | slot ``context`` |

SillyTavern counts depth in chat messages including the one being answered; the kernel's
history holds the earlier ones (what the member says now is the prompt's last message), so an
entry at depth *d* goes *d* − 1 history entries from the end (depth 0 and 1 both right before
the member's words). An at-depth entry, and a preset's in-chat prompt, keeps its role
(system, user, assistant): its segment carries it, so the kernel places it as a message of
that role at that depth of the history (on a protocol without a system role inside the
conversation, the compiler sends a system one as a user message). Outlet entries fill the
``{{outlet::name}}`` macros of the placed texts; the rest of an outlet stays out.

Text a person import brought -- the entries of a ``pc`` or ``companion`` import, a companion --
is placed inert (:mod:`lw_tavern.inert`): never a template or a condition, only its name
macros substituted; so is every name substituted into text. Once the last pass over the placed
texts (the outlets) is done, every segment is restored byte for byte.

Writes (the next timed state, what fired, template ``setvar``/``incvar`` and ``activewi``) are
staged: the room keeps them only when the turn is applied. A template's ``setvar``/``incvar``
is made like a hook script's (:func:`lwcore.turn.script_writes.apply_write`): a declared module
variable through its type and bounds (a wrong type refused, logged for the keeper with the
entry and line), any other name a leaf of the MVU tree.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lwcore.api import Document, PromptSegment, Room, TurnContext, game_clock, tree as var_tree

from lw_tavern.inert import protect, restore
from lw_tavern.room.book import room_book, settings_of
from lw_tavern.room.documents import COMPANION, PACK, TIMED, TIMED_ID
from lw_tavern.room.presets import enabled_folds
from lw_tavern.room.render import Renderer, full_mode_allowed
from lw_tavern.room.scan_texts import scan_globals
from lw_tavern.worldbook.engine import Message, ScanInput, activate
from lw_tavern.worldbook.model import Role
from lw_tavern.worldbook.timed import TimedState

if TYPE_CHECKING:
    from lwcore.api import Member

SCAN_HISTORY = 200
"""History entries read for the scan (the messages among them, newest last)."""
MAX_WARNINGS = 50
PLUGIN = "tavern"
_ORIGINAL = re.compile(r"\{\{\s*original\s*\}\}", re.IGNORECASE)
_OUTLET = re.compile(r"\{\{\s*outlet::(.*?)\}\}", re.IGNORECASE | re.DOTALL)


def display_name(room: Room, member: Member) -> str:
    """A member as the story knows them: their character's name, else their own."""
    sheet = room.sheets.get(member.id)
    return (sheet.name if sheet is not None and sheet.name else None) or member.name or member.id


def chat_of(room: Room, actor: Member, player_input: str) -> list[Message]:
    """The messages a scan reads: the room's recent player and keeper lines (named), oldest
    first, then what ``actor`` says now."""
    names = {m.id: display_name(room, m) for m in room.members}
    out = [Message(e.text, name=names.get(e.actor or "", e.actor or "")) for e in room.history.tail(SCAN_HISTORY)
           if e.role in ("player", "keeper") and e.text]
    if player_input:
        out.append(Message(player_input, name=names[actor.id]))
    return out


def turn_segments(turn: TurnContext, ctx: Any) -> list[PromptSegment]:
    """This turn's segments for the room (none for a context without a kernel room)."""
    room = turn.room
    if not isinstance(room, Room):
        return []
    folds, problems = enabled_folds(room)
    settings = settings_of(room)
    book = room_book(room, settings)
    companions = room.documents.all(COMPANION)
    stories = [d for d in room.documents.all(PACK) if d.data.get("kind") == "world" and isinstance(d.data.get("story"), Mapping)
               and any(d.data["story"].get(k) for k in ("system_prompt", "post_history_instructions"))]
    if book is None and not folds and not companions and not stories:
        return []
    actor = room.member(turn.viewer)
    rng = turn.rng if turn.rng is not None else random.Random()
    renderer = _renderer(room, actor, rng, ctx, book.compiled.entries if book else (), book.inert if book else ())
    renderer.budget = turn.budget
    out = _Segments()
    keeper_name = display_name(room, room.file.keeper)
    for pid, folded in folds:
        where = f"preset {pid}"
        out.add("preset-style", renderer.text(folded.style, where=where, char=keeper_name), "author", -500)
        out.add("preset-before-lore", renderer.text(folded.before_lore, where=where, char=keeper_name), "context", 90)
        out.add("preset-after-lore", renderer.text(folded.after_lore, where=where, char=keeper_name), "context", 130)
        out.add("preset-late", renderer.text(folded.late, where=where, char=keeper_name), "state", 100)
        for prompt in folded.at_depth:
            out.add(f"preset-depth-{prompt.depth}", renderer.text(prompt.text, where=where, char=keeper_name),
                    "state", prompt.order, depth=max(0, prompt.depth - 1), role=prompt.role)
    for doc in companions:
        out.add("companions", _companion(doc.data, renderer), "context", 80)
    for doc in stories:  # a world card's system prompt and post-history instructions, as SillyTavern sends them
        story, name = doc.data["story"], str(doc.data.get("name") or "")
        for field, segment, slot, order in (("system_prompt", "card-system", "author", -450),
                                            ("post_history_instructions", "card-post-history", "state", 105)):
            if isinstance(story.get(field), str):
                text = _ORIGINAL.sub("", story[field])  # {{original}}: the keeper's own prompt, already there
                out.add(segment, renderer.text(text, where=f"{doc.id} {field}", char=name), slot, order)
    if book is not None:
        _activate(turn, room, actor, book, settings, renderer, out, problems)
    out.fill_outlets()
    return out.segments


def _renderer(room: Room, actor: Member, rng: random.Random, ctx: Any, entries: Sequence[Any],
              inert: Collection[str]) -> Renderer:
    """This turn's renderer; ``getwi`` reads the book's enabled entries, a person's inert."""
    sandbox = None
    env = getattr(ctx, "env", None) or {}
    if full_mode_allowed(env):
        try:
            sandbox = ctx.sandbox()
        except Exception:  # noqa: BLE001 - no sandbox capability or binding: the read-only subset
            sandbox = None
    return Renderer(tree=var_tree.script_state(room), user=display_name(room, actor), clock=game_clock(room), rng=rng,
                    sandbox=sandbox, default_char=display_name(room, room.file.keeper), variables=var_tree.tree_of(room),
                    entries={c.entry.title: protect(c.content) if c.entry.id in inert else c.content
                                              for c in entries if not c.entry.disable})


def _companion(data: Mapping[str, Any], renderer: Renderer) -> str:
    name = str(data.get("name") or "")
    parts = [f"### {name}"] + [str(data[k]).strip() for k in ("description", "personality", "scenario")
                               if isinstance(data.get(k), str) and data[k].strip()]
    return renderer.inert("\n".join(parts), char=name)


def _activate(turn: TurnContext, room: Room, actor: Member, book: Any, settings: Any, renderer: Renderer,
              out: _Segments, problems: list[str]) -> None:
    timed = room.documents.get(TIMED, TIMED_ID)
    state, force = _timed(timed.data if timed is not None else {}, book)
    player_input = turn.player_input
    counted = (message_count(room, timed.data if timed is not None else {})
               if counts_messages(book.compiled, state) else None)
    scan = ScanInput(chat=chat_of(room, actor, player_input), force=force,
                     globals=scan_globals(room, actor, book.compiled, renderer),
                     length=None if counted is None else counted[0] + (1 if player_input else 0))
    result = activate(book.compiled, scan, settings, state, rng=renderer.rng,
                      render=lambda entry, content: renderer.inert(content) if entry.id in book.inert
                      else renderer.text(content, where=book.handles.get(entry.id, entry.title), entry=True),
                      condition=renderer.condition)
    placed = result.placement
    out.add("worldbook-an-top", "\n".join(placed.an_top), "author", -100)
    out.add("worldbook-an-bottom", "\n".join(placed.an_bottom), "author", 100)
    out.add("worldbook-before", placed.world_info_before, "context", 100)
    out.add("worldbook-after", placed.world_info_after, "context", 110)
    out.add("worldbook-injected", "\n".join(renderer.injected), "context", 115)
    out.add("worldbook-examples", "\n".join((*placed.em_top, *placed.em_bottom)), "context", 120)
    for group in placed.depth:
        role = group.role.name.lower()
        out.add(f"worldbook-depth-{group.depth}" + ("" if group.role == Role.SYSTEM else f"-{role}"),
                "\n".join(group.contents), "state", 0, depth=max(0, group.depth - 1), role=role)
    out.outlets = {name: "\n".join(texts) for name, texts in placed.outlets.items()}
    staged = turn.staged
    if staged is None:
        return
    by_title = {title: key for key, title in book.titles.items()}
    warnings = [*problems, *(f"entry {key} left out: {why}" for key, why in book.skipped),
                *(f"entry {book.handles.get(key, key)}: {what}" for key, what in result.problems), *renderer.warnings]
    staged.document(Document(TIMED_ID, TIMED, {
        "state": result.state.model_dump(mode="json"),
        **({} if counted is None else {"messages": counted[0], "history_turn": counted[1]}),
        "fired": [book.handles.get(key, key) for key in result.fired],
        "force": sorted({by_title.get(t, t) for t in renderer.activate}),
        "warnings": warnings[:MAX_WARNINGS],
    }), by=PLUGIN)
    if renderer.writes:
        staged.variables(renderer.writes, by=f"{PLUGIN} templates")


def counts_messages(compiled: Any, state: TimedState) -> bool:
    """Whether this turn's scan needs the chat's message count: only timed effects read it
    (an entry with sticky, cooldown or delay, or an effect still running). Without one the
    count is not taken and not stored, so a room that gains a timed entry later counts its
    whole history once, from the start, and on from there."""
    return bool(state.sticky or state.cooldown) or any(
        info.sticky or info.cooldown or info.delay for info in compiled.timed.values())


def message_count(room: Room, data: Mapping[str, Any]) -> tuple[int, int]:
    """``(messages, turn)``: the room's chat messages so far (its player and keeper lines, as
    SillyTavern counts ``chat.length`` for timed effects) and the history's turn it counted to.
    Counted on from what the timed state remembers: only the lines since are read."""
    seen = data.get("messages")
    upto = data.get("history_turn")
    if not isinstance(seen, int) or not isinstance(upto, int) or isinstance(seen, bool):
        seen, upto = 0, -1
    newest = room.history.turn_number
    count = 0
    for entry in room.history.newest_first():
        if entry.turn <= upto:
            break
        if entry.role in ("player", "keeper") and entry.text:
            count += 1
    return seen + count, newest


def _timed(data: Mapping[str, Any], book: Any) -> tuple[TimedState, frozenset[str]]:
    """The stored timed state (a fresh one when missing or unreadable) and the entries asked
    to fire this turn (``activewi`` last turn), by key."""
    from pydantic import ValidationError

    try:
        state = TimedState.model_validate(data.get("state") or {})
    except ValidationError:
        state = TimedState()
    force = data.get("force")
    keys = {str(k) for k in force} if isinstance(force, list) else set()
    return state, frozenset(k for k in keys if k in book.compiled.by_key)


class _Segments:
    """The segments being built; empty texts are left out, outlets filled at the end."""

    def __init__(self) -> None:
        self.segments: list[PromptSegment] = []
        self.outlets: dict[str, str] = {}

    def add(self, name: str, text: str, slot: str, order: int, *, depth: int | None = None,
            role: str | None = None) -> None:
        if text.strip():
            self.segments.append(PromptSegment(name, text.strip(), slot=slot, order=order, depth=depth,
                                               role=role))  # type: ignore[arg-type]  # role is one of PromptSegment's roles; the kernel's field check drops any other

    def fill_outlets(self) -> None:
        """Fill the outlets, then give inert text back as written (the last pass over it)."""
        fill: Callable[[re.Match[str]], str] = lambda m: self.outlets.get(m.group(1).strip(), "")
        self.segments = [replace(s, text=restore(_OUTLET.sub(fill, s.text))) for s in self.segments]
