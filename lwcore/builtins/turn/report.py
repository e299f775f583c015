"""``lw turn``'s human output: one turn told in a screen or two.

In order: the room (who, where, what players can see), what the acting member said, a short
account of the compiled request (protocol, prompt size, plugin segments with their sizes, the
tools offered, the cache boundary), the tool calls in plain words, the narration, and every
player's view side by side with a check that no keeper-only value reached them.

Rendered with rich: colour and panels on a terminal, plain text when piped (``NO_COLOR`` and
``TERM=dumb`` are honoured by rich itself). ``--payload`` adds the whole request; ``--json``
bypasses this module. Every text from content (names, narration, views, summaries, what was
said) is made terminal-safe (:func:`lwcore.io.terminal.terminal_safe`) and never read as rich
markup: rich writes to the stream beneath the ``lw`` guard, since it emits its own styling.
"""

from __future__ import annotations

import json
import sys
from itertools import islice
from typing import TYPE_CHECKING, Any

from lwcore.contributions import localized
from lwcore.io.terminal import json_safe, raw, terminal_safe
from lwcore.turn.fold import estimate_tokens, window_of
from lwcore.turn.documents import keeper_viewer, project, viewer_of
from lwcore.turn.leaks import MIN_SECRET_CHARS, keeper_only
from lwcore.turn.projections import event_audience
from lwcore.turn.view import history_lines, render_text, view_for

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text
    from lwcore.turn.apply import AppliedReply
    from lwcore.turn.compile import CompiledTurn
    from lwcore.turn.room import Member, Room


def console() -> Console:
    from rich.console import Console

    return Console(file=raw(sys.stdout), highlight=False, soft_wrap=False)


def plain(text: object, style: str = "") -> Text:
    """Content as rich text: terminal-safe, never read as markup."""
    from rich.text import Text

    return Text(terminal_safe(str(text)), style=style)


def title(text: str) -> str:
    """Content for a panel title (rich reads titles as markup): terminal-safe, markup escaped."""
    from rich.markup import escape

    return escape(terminal_safe(text))


def _title(room: Room, locale: str) -> str:
    title = room.file.title
    return localized(title, locale) if isinstance(title, dict) else str(title)


def room_panel(room: Room) -> RenderableType:
    """Who, where, and the variables players can see."""
    from rich.panel import Panel
    from rich.table import Table

    locale = room.file.locale
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("system", plain(f"{room.file.system}" + (f" ({room.file.variant})" if room.file.variant else "")))
    keeper = room.file.keeper
    grid.add_row("keeper", plain(f"{keeper.name or keeper.id} ({keeper.id})"))
    for player in room.file.players:
        sheet = room.sheets.get(player.id)
        who = f"{player.name or player.id} ({player.id}, {room.locale_of(player)})"
        grid.add_row("player", plain(who + (f" plays {sheet.name}" if sheet is not None else "")))
    scenario = room.file.model_extra.get("scenario") if room.file.model_extra else None
    if scenario:
        grid.add_row("scene", plain(localized(scenario, locale) if isinstance(scenario, dict) else str(scenario)))
    first = room.file.players[0] if room.file.players else keeper
    visible = view_for(room, first.id).variables
    if visible:
        grid.add_row("table sees", plain("; ".join(
            f"{v.label} {v.value_label if v.value_label is not None else _num(v.value)}"
            + (f"/{_num(v.maximum)}" if v.maximum is not None else "") for v in visible)))
    return Panel(grid, title=f"[bold]{title(_title(room, locale))}[/bold] · {title(room.file.id)}", title_align="left")


def request_panel(compiled: CompiledTurn) -> RenderableType:
    """The compiled request in a few lines (the whole of it with --payload or --json)."""
    from rich.panel import Panel
    from rich.table import Table

    text = json.dumps(compiled.request, ensure_ascii=False)
    tokens = estimate_tokens(text)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("protocol", compiled.protocol)
    grid.add_row("prompt", f"{len(compiled.messages)} messages, {len(text.encode('utf-8')):,} bytes, "
                           f"~{tokens:,} tokens ({tokens / window_of(compiled.room):.0%} of the window)")
    by_plugin: dict[str, list[str]] = {}
    for use in compiled.segments:
        by_plugin.setdefault(use.plugin, []).append(f"{use.name} {use.chars:,} ch")
    for plugin, parts in by_plugin.items():
        grid.add_row(plain(f"  {plugin}"), plain(", ".join(parts)))
    grid.add_row("tools", plain(", ".join(compiled.tool_names) or "(none)"))
    cache = compiled.cache if isinstance(compiled.cache, dict) else {}
    if cache.get("estimatedCacheableBytes") is not None:
        grid.add_row("cache", f"first {cache['estimatedCacheableBytes']:,} bytes stable (cacheable prefix)")
    for reason in compiled.dropped:
        grid.add_row("[red]dropped[/red]", plain(reason))
    return Panel(grid, title="the request", title_align="left")


def applied_panel(applied: AppliedReply) -> RenderableType:
    """Each tool call in plain words, the dice rolled in the narration, then the narration."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    lines: list[RenderableType] = []
    for event in applied.events:
        summary = event.summary
        if not summary:
            continue
        keeper_only = event_audience(event) != "all"
        line = Text("  • ")
        line.append(terminal_safe(str(summary)))
        if keeper_only:
            line.append("  (keeper only)", style="dim")
        lines.append(line)
    for result in applied.results:
        if result.is_error:
            message = result.content.get("error") if isinstance(result.content, dict) else result.content
            lines.append(plain(f"  ✗ {result.name}: {message}", style="red"))
    for roll in applied.rolls:
        if "error" not in roll:
            lines.append(plain(f"  • narration rolled {roll['expr']} = {roll['total']}"))
    steps = f"{len(applied.results)} tool call(s) in {applied.steps} step(s)"
    parts: list[RenderableType] = [Text(steps, style="bold"), *lines]
    if applied.narration:
        parts += [Text(""), Text(shown(applied.narration), style="italic", overflow="fold")]
    return Panel(Group(*parts), title="what happened", title_align="left")


def views_panel(room: Room) -> RenderableType:
    """Every player's view side by side, and the check that keeper-only values are absent."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    secrets = keeper_only_texts(room)
    panels: list[RenderableType] = []
    leaks = []
    for player in room.file.players:
        view = view_for(room, player.id, history_limit=8)
        blob = view.to_json_text() + render_text(view)
        leaks += [s for s in secrets if s in blob]
        panels.append(Panel(Text(shown(render_text(view)), overflow="fold"), title=title(f"what {player.id} sees · {view.locale}"),
                            title_align="left"))
    verdict = (Text(f"✓ no keeper-only value in any player's view ({len(secrets)} checked)", style="green")
               if not leaks else plain(f"✗ keeper-only values reached a player: {', '.join(leaks)}", style="bold red"))
    return Group(side_by_side(panels), verdict)


SHOWN_CHARS = 8_000
"""The most of one text (a narration, a player's view) the report lays out: rich wraps text at
a cost that grows with its length (a 4 MB narration took over half a minute), and a screen
shows far less. ``--json`` and ``--view`` print the whole text."""


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out and where it is whole;
    terminal-safe."""
    if len(text) <= limit:
        return terminal_safe(text)
    return f"{terminal_safe(text[:limit])}\n… ({len(text) - limit:,} more characters: lw turn --json prints the whole text)"


MIN_SECRET_TEXT = 6
"""A hidden document's texts shorter than this are not looked for (too likely by chance)."""
RECENT_LOG_RECORDS = 200
"""How far back a document log (the chronicle …) is searched: the report reads the newest
records, never a whole campaign."""


def keeper_only_texts(room: Room) -> list[str]:
    """What no player may read, to look for in their views: every keeper-only variable's id
    and text value, and the longer texts the keeper's projection of a stored document has and
    no player's projection of it has (a secret world-book entry, a keeper note, a chronicle
    entry's annotation, the summary's keeper margin …)."""
    keeper = keeper_viewer(room)
    variables = keeper_only(room)  # the kernel's one list of keeper-only variables (lwcore.turn.leaks)
    secrets: list[str] = sorted(variables.ids)
    secrets += [v for v in variables.values if isinstance(v, str) and len(v) >= MIN_SECRET_CHARS and v not in secrets]
    players = [viewer_of(room, p) for p in room.file.players]
    stored = [doc for name, kind in room.kernel.document_types.items() if kind.storage != "derived"
              for doc in _stored(room, name, kind.storage)]
    # A text any player reads anywhere is no secret, wherever else it stands: a structural word
    # ("number", a kind) in a keeper-only document is also in the players' own documents.
    public = {t for doc in stored for p in players for t in _texts(project(room, doc, p) or {})}
    # a whole line the table was told (an imported card's greeting opening the story) was published
    public |= {line.text for member in room.file.players for line in history_lines(room, member)}
    for doc in stored:
        view = project(room, doc, keeper)
        if view is None:
            continue
        secrets += [t for t in _texts(view) if len(t) >= MIN_SECRET_TEXT and t not in public and t not in secrets]
    return secrets


def _stored(room: Room, name: str, storage: str) -> list[Any]:
    """The stored documents of a type (a log's newest :data:`RECENT_LOG_RECORDS` records)."""
    if storage != "log":
        return room.documents.all(name)
    records = islice(room.documents.log(name).newest(), RECENT_LOG_RECORDS)
    return [r.doc for r in records if r.doc is not None]


STRUCTURAL_KEYS = frozenset({"kind", "type", "visibility", "storage", "role", "audience", "format", "mime",
                             "position", "source", "pack", "status"})
"""Fields that hold a word of the format, not the author's text: never a secret."""


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in STRUCTURAL_KEYS for t in _texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return []


def side_by_side(panels: list[RenderableType]) -> RenderableType:
    """Panels in columns of equal width (two to a row), or stacked when the screen is narrow."""
    from rich.console import Group
    from rich.table import Table

    if console().width < 100 or len(panels) < 2:
        return Group(*panels)
    rows = Table.grid(expand=True, padding=(0, 1))
    rows.add_column(ratio=1)
    rows.add_column(ratio=1)
    for index in range(0, len(panels), 2):
        pair = panels[index:index + 2]
        rows.add_row(*pair, *([""] if len(pair) == 1 else []))
    return rows


def print_intro(room: Room, actor: Member, said: str) -> None:
    """Before the turn runs: the room, and who says what."""
    from rich.text import Text

    out = console()
    out.print(room_panel(room))
    speaker = room.sheets[actor.id].name if actor.id in room.sheets else actor.name
    out.print(Text.assemble((terminal_safe(f"{speaker or actor.id}"), "bold"), terminal_safe(f" ({actor.id}) says: "),
                            terminal_safe(said)))


def print_turn(compiled: CompiledTurn, applied: AppliedReply | None, *, payload: bool) -> None:
    """After the turn: the request, what happened, what every player sees."""
    from rich.text import Text

    out = console()
    room = compiled.room
    out.print(request_panel(compiled))
    if payload:
        out.print(plain(json_safe(json.dumps(compiled.request, ensure_ascii=False, indent=2))), soft_wrap=True)
    if applied is None:
        out.print(Text("compiled only, nothing sent: --dry-run, or no model (a profile: in room.yaml, --profile NAME, "
                       "--endpoint URL or --reply FILE gives one); --payload prints the whole request", style="dim"))
        return
    out.print(applied_panel(applied))
    out.print(views_panel(room))


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
