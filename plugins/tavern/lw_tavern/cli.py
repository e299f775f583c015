"""``lw tavern …``: look at SillyTavern material without a room.

- ``lw tavern activate BOOK --chat FILE``: which entries fire for a chat, and why.
- ``lw tavern inspect CARD``: what a card holds and what each kind of import keeps, strips, changes.
- ``lw tavern preset FILE``: validate a chat-completion preset and show its fold.
- ``lw tavern convert IN OUT``: a SillyTavern card to the native format, or back.
- ``lw tavern import FILE --as pc|companion|world ROOM``: import into a room (the operator's
  command: a world import brings secrets, variables and hooks; see ``lw_tavern.room.imports``).

Every command reads its file like ``import`` does (:mod:`lw_tavern.cardfile`: cards in JSON,
PNG or CHARX, native cards, world-info files). Only click is imported at module level.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from lwcore.api import ROOM, echo_json

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _dump(value: Any) -> None:
    echo_json(value)  # the kernel's: control characters escaped, never sent raw to a terminal


@click.group("tavern")
def tavern() -> None:
    """SillyTavern material: world books, cards, presets, the native card format."""


@tavern.command("activate")
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--chat", "chat_file", required=True, type=click.Path(dir_okay=False),
              help="The chat: a SillyTavern .jsonl export, or a JSON list of messages (oldest first).")
@click.option("--settings", "settings_file", type=click.Path(dir_okay=False), default=None,
              help="World-info settings as JSON (depth, recursive, budget, max_context …).")
@click.option("--state", "state_file", type=click.Path(dir_okay=False), default=None,
              help="Timed-effects state from an earlier run (JSON); effects count chat messages, as SillyTavern's do.")
@click.option("--vars", "vars_file", type=click.Path(dir_okay=False), default=None,
              help="A variable tree (JSON) for @@if conditions and templates.")
@click.option("--persona", "persona_file", type=click.Path(dir_okay=False), default=None,
              help="A text file: the persona description entries with matchPersonaDescription scan.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the probability and group rolls.")
@click.option("--context-window", type=click.IntRange(min=1), default=None,
              help="The model's context in tokens (the budget is a share of it); default: a room's default, "
                   "32000, unless --settings gives max_context.")
@click.option("--all", "show_all", is_flag=True, help="Give a verdict for every entry, not only the ones looked at.")
@json_option
def activate_cmd(book: str, chat_file: str, settings_file: str | None, state_file: str | None,
                 vars_file: str | None, persona_file: str | None, seed: int, context_window: int | None,
                 show_all: bool, as_json: bool) -> None:
    """Which entries of BOOK fire for the chat, where they go, and why. BOOK is a world-info
    file, a character_book, or a card holding one (JSON, PNG, CHARX, *.lorecard.json), its
    book as written (no import's trust boundary). Entries with match* flags also scan the
    card's own texts (description, personality, scenario, creator notes, depth prompt: as a
    world import keeps them, {{char}} read as the card's name) and the --persona text."""
    from lwcore.api import ensure_budget, read_text

    from lw_tavern.card_split import split_card
    from lw_tavern.cardfile import book_of, read_material
    from lw_tavern.chatfile import read_chat
    from lw_tavern.ejs.expr import ExprError, evaluate_condition
    from lw_tavern.ejs.lite import tree_resolver
    from lw_tavern.ejs.macros import MacroContext, substitute
    from lw_tavern.files import read_json_file, validate
    from lw_tavern.room.scan_texts import PERSONA, card_texts
    from lw_tavern.worldbook.engine import ScanInput, activate, compile_book, placement_json
    from lw_tavern.worldbook.model import WorldSettings
    from lw_tavern.worldbook.timed import TimedState

    material = read_material(book)
    world = book_of(material, book)
    texts: dict[str, str] = {}
    if not material.book_only:
        person = split_card(material.card).person
        macros = MacroContext(char=str(person.get("name") or "") or None, dice=False)
        texts = {name: substitute(text, macros) for name, text in card_texts(person).items()}
    if persona_file:
        persona = read_text(persona_file).strip()
        if persona:
            texts[PERSONA] = persona
    from lw_tavern.room.book import DEFAULT_CONTEXT

    chat = read_chat(chat_file)
    settings = WorldSettings(max_context=context_window or DEFAULT_CONTEXT)
    if settings_file:
        data, text = read_json_file(settings_file)
        if isinstance(data, dict) and "max_context" not in data:
            data = {**data, "max_context": context_window or DEFAULT_CONTEXT}
        settings = validate(WorldSettings, data, file=settings_file, text=text)
    state = TimedState()
    if state_file:
        data, text = read_json_file(state_file)
        state = validate(TimedState, data, file=state_file, text=text)
    condition: Callable[[str], bool] | None = None
    if vars_file:
        tree, _ = read_json_file(vars_file)
        resolve = tree_resolver(tree if isinstance(tree, dict) else {})

        def holds(expr: str) -> bool:
            try:
                return evaluate_condition(expr, resolve)
            except ExprError:
                return False

        condition = holds

    with ensure_budget():  # the book's regular expressions share one turn's script budget
        compiled = compile_book(world, settings)
        result = activate(compiled, ScanInput(chat=chat, globals=texts, length=len(chat)), settings, state, rng=random.Random(seed),
                          condition=condition, explain=show_all)
    titles = {c.key: c.entry.title for c in compiled.entries}
    for key, what in result.problems:
        click.echo(f"warning: entry {key} ({titles[key]}): {what}", err=True)
    if as_json:
        _dump({
            "turn": result.turn, "fired": list(result.fired), "overflowed": result.overflowed, "passes": result.loops,
            "problems": [{"entry": key, "problem": what} for key, what in result.problems],
            "placement": placement_json(result.placement),
            "verdicts": {k: {"fired": v.fired, "code": v.code, "detail": v.detail, "pass": v.loop, "title": titles[k]}
                         for k, v in result.verdicts.items()},
            "state": result.state.model_dump(),
        })
        return
    click.echo(f"{len(result.fired)} of {len(compiled.entries)} entries fire at message {result.turn} "
               f"({result.loops} pass{'es' if result.loops != 1 else ''}{', budget spent' if result.overflowed else ''}):")
    for key in result.fired:
        v = result.verdicts[key]
        click.echo(f"  + {key:<12} {titles[key]}  [{v.code}{': ' + v.detail if v.detail else ''}; pass {v.loop}]")
    skipped = [(k, v) for k, v in result.verdicts.items() if not v.fired and k not in result.fired]
    if skipped:
        click.echo("not firing:")
        for key, v in skipped:
            click.echo(f"  - {key:<12} {titles[key]}  [{v.code}{': ' + v.detail if v.detail else ''}]")
    if not show_all:
        click.echo("(entries no key of which occurs are not listed; --all lists every entry)")


@tavern.command("inspect")
@click.argument("card", type=click.Path(dir_okay=False))
@json_option
def inspect_cmd(card: str, as_json: bool) -> None:
    """What CARD holds, and what a pc, a companion and a world import of it would keep, strip
    and change (the import plans themselves; no room is touched). CARD is anything
    `lw tavern import` reads: a card (JSON, PNG, CHARX), a *.lorecard.json, a world-info file."""
    from lw_tavern.preview import as_json as preview_json
    from lw_tavern.preview import as_lines, preview

    found = preview(card)
    if as_json:
        _dump(preview_json(found))
        return
    for line in as_lines(found):
        click.echo(line)


@tavern.command("preset")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--character-id", type=int, default=None, help="Use this character's order list.")
@json_option
def preset_cmd(file: str, character_id: int | None, as_json: bool) -> None:
    """Validate a chat-completion preset and show how it folds."""
    from dataclasses import asdict

    from lw_tavern.preset import fold, read_preset

    loaded = read_preset(file)
    folded = fold(loaded.preset, character_id)
    if as_json:
        _dump({"fold": asdict(folded), "warnings": loaded.warnings})
        return
    for band in ("style", "before_lore", "after_lore", "late"):
        text = getattr(folded, band)
        click.echo(f"[{band}] {len(text)} characters" + (f": {text[:60]!r}…" if len(text) > 60 else f": {text!r}"))
    for d in folded.at_depth:
        click.echo(f"[at depth {d.depth}, {d.role}] {d.text[:60]!r}")
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}")


@tavern.command("convert")
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("target", type=click.Path(dir_okay=False))
@json_option
def convert_cmd(source: str, target: str, as_json: bool) -> None:
    """A SillyTavern card (JSON, PNG, CHARX) or a world-info file to a native *.lorecard.json,
    or a native card back to a SillyTavern card (JSON) -- a world-info file when it holds no
    person, only a book (what a world-info file converts to). Nothing is written when SOURCE is refused."""
    from lwcore.api import atomic_write_text

    from lw_tavern.cardfile import book_of, read_material
    from lw_tavern.lorecard import from_card, to_card

    material = read_material(source)
    if material.native is not None:
        out: Any = to_card(material.native)
        kind = "sillytavern"
        data = data_raw if isinstance(data_raw := out.get("data"), dict) else {}
        person = [k for k in ("name", "description", "personality", "scenario", "first_mes", "mes_example")
                  if isinstance(data.get(k), str) and data[k].strip()]
        if not person and isinstance(data.get("character_book"), dict):  # a world book on its own: its own file
            from lw_tavern.worldbook.load import book_from_data, book_to_data

            book = book_from_data(data["character_book"])
            out = book_to_data(book.model_copy(update={"source": "worldinfo", "extra": {}}))
            kind = "worldinfo"
    else:
        book_of(material, source)  # every entry checked, located in SOURCE
        out = from_card(material.card, file=source, text=None if material.book_only else material.text
                        ).model_dump(mode="json")
        kind = "native"
    atomic_write_text(Path(target), json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    if as_json:
        _dump({"wrote": target, "format": kind})
    else:
        click.echo(f"wrote {target}")


@tavern.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "kind", type=click.Choice(["pc", "companion", "world"]), required=True,
              help="pc: a member's character; companion: one the keeper plays; world: the keeper's module.")
@click.argument("room", type=ROOM)
@click.option("--member", default=None, help="For --as pc: the member (id or name; default: the first player).")
@json_option
@click.pass_context
def import_cmd(ctx: click.Context, file: str, kind: str, room: str, member: str | None, as_json: bool) -> None:
    """Import FILE (a card, a *.lorecard.json, a world-info file) into ROOM.

    Re-importing the same file replaces what it brought before. Nothing is written when the
    file is refused.
    """
    from pathlib import Path

    from lwcore.api import LwError, Room, cli_state as state, room_lock

    from lw_tavern.room.imports import Source, pack_id_of, run_import, summary

    if member is not None and kind != "pc":
        raise LwError("--member is for --as pc")
    kernel = state(ctx).kernel
    with room_lock(room):
        loaded = Room.load(room, kernel)
        who = loaded.member(member) if kind == "pc" else None
        if who is not None and loaded.is_keeper(who):
            raise LwError("the keeper plays no character: --member names a player")
        plan = run_import(loaded, Source(Path(file), pack_id_of(file), file), kind, member=who)
        written = loaded.save()
    if as_json:
        _dump({"kind": plan.kind, "key": plan.key, "pack": plan.pack_id, "name": plan.name, "member": plan.member,
               "entries": len(plan.entries), "hooks": len(plan.hooks), "pregens": [p["name"] for p in plan.pregens],
               "carried": list(plan.report.carried),
               "dropped": [{"what": d.field, "why": d.reason} for d in plan.report.dropped],
               "changed": [{"what": d.field, "why": d.reason} for d in plan.changed],
               "warnings": list(plan.report.warnings), "written": [str(p) for p in written]})
        return
    click.echo(summary(plan, locale="en", for_keeper=True))


@tavern.command("js-install")
def js_install_cmd() -> None:
    """Fetch the npm packages the plugin runs in the sandbox (EJS, lodash, mathjs, yaml, json5,
    jsonrepair) into this environment, checked against the plugin's lock; what is there is kept
    (``make setup`` does this)."""
    from lwcore.api import LwError

    from lw_tavern import jsdeps

    try:
        done = jsdeps.install(quiet=True)
    except RuntimeError as exc:
        raise LwError(str(exc), code="io") from None
    click.echo("installed " + ", ".join(done) if done else "already installed")
    click.echo(f"in {jsdeps.home()}")
