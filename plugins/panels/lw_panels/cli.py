"""``lw panels …``: see a room's panels as a member does, check a pack, read a room's kit.

- ``lw panels render ROOM --as MEMBER [--format text|html|json] [-o FILE] [--pack DIR]``:
  what that member sees -- their panels as text; a self-contained page of the whole table
  (story, variables, panels; pictures embedded) as HTML; or their manifest and resolved
  panels as JSON;
- ``lw panels check PACK [--room ROOM]``: load a pack folder (every problem located); with a
  room, also what ``.panels enable`` would refuse there;
- ``lw panels kit ROOM``: the presentation kit the room's enabled packs make up, as data.

``--pack DIR`` mounts a pack's source folder for development (it wins over an installed
pack of the same id); the room still enables it with ``.panels enable``.
"""

from __future__ import annotations

from pathlib import Path

import click

from lw_panels.packs import dev_mounts
from lwcore.api import ROOM, LwError, cli_state as state, echo_json

pack_option = click.option("--pack", "packs", multiple=True, type=click.Path(file_okay=False, path_type=Path),
                           help="Mount a pack source folder (development; repeatable).")


@click.group("panels")
def panels() -> None:
    """Module UI panels: render a room's panels for a member, check a pack, read a room's kit."""


def _mount(kernel: object, packs: tuple[Path, ...]) -> None:
    for path in packs:
        dev_mounts(kernel).mount(path)  # type: ignore[arg-type]  # hooks hand plugins the kernel as object


@panels.command("render")
@click.argument("room", type=ROOM)
@click.option("--as", "actor", default=None, help="Member id or name (default: the first player).")
@click.option("--format", "fmt", type=click.Choice(["text", "html", "json"]), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of printing.")
@pack_option
@click.pass_context
def render_cmd(ctx: click.Context, room: Path, actor: str | None, fmt: str, output: Path | None,
               packs: tuple[Path, ...]) -> None:
    """Print what MEMBER sees of ROOM's panels."""
    from lw_panels.html import page_html
    from lw_panels.manifest import manifest, wire
    from lw_panels.table import table_view
    from lw_panels.text import by_slot, panels_text
    from lwcore.api import Room, room_lock, shown_to, viewer_of

    kernel = state(ctx).kernel
    _mount(kernel, packs)
    with room_lock(room, shared=True), shown_to(room, actor):
        loaded = Room.load(room, kernel)
        member = loaded.member(actor)
        viewer = viewer_of(loaded, member)
        if fmt == "json":
            view = table_view(loaded, member.id)
            out = {"viewer": member.id, "manifest": [wire(p) for p in manifest(loaded, viewer)],
                   "panels": view["panels"]}
        elif fmt == "html":
            text = page_html(table_view(loaded, member.id, inline_assets=True), live=False)
        else:
            view = table_view(loaded, member.id)
            text = "\n\n".join(kernel.render_panel(p, viewer, "text") for p in by_slot(view["panels"])) \
                if view["panels"] else panels_text([], viewer.locale)
    if fmt == "json":
        import json

        text = json.dumps(out, ensure_ascii=False, indent=2)
    if output is not None:
        from lwcore.api import atomic_write_text

        atomic_write_text(output, text + ("\n" if not text.endswith("\n") else ""))
        click.echo(f"wrote {output}")
    else:
        click.echo(text)


@panels.command("check")
@click.argument("pack", type=click.Path(file_okay=False, path_type=Path))
@click.option("--room", type=ROOM, default=None,
              help="Also check the pack against this room's keeper-only variables.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def check_cmd(ctx: click.Context, pack: Path, room: Path | None, as_json: bool) -> None:
    """Load PACK (a folder) and report every problem; with --room, what .panels enable
    would refuse there."""
    from lw_panels import leaks
    from lw_panels.load import load_pack
    from lw_panels.packs import read_home
    from lw_panels.projection import audience_of
    from lw_panels.variables import keeper_only
    from lwcore.api import LwErrors, Room, room_lock

    kernel = state(ctx).kernel
    loaded = load_pack(read_home(pack, dev=True))
    if room is not None:
        with room_lock(room, shared=True):
            problems = leaks.problems(loaded.panels, keeper_only(Room.load(room, kernel)))
        if problems:
            raise problems[0] if len(problems) == 1 else LwErrors(problems)
    summary = {"pack": loaded.home.id, "version": loaded.home.version,
               "panels": [{"id": p.ref, "slot": p.slot, "audience": audience_of(p), "tier": p.tier} for p in loaded.panels],
               "presentation": loaded.kit is not None, "files": len(loaded.files)}
    if as_json:
        echo_json(summary)
        return
    click.echo(f"{loaded.home.label}: {len(loaded.panels)} panels, {len(loaded.files)} files"
               + (", a presentation kit" if loaded.kit else "") + " — ok")
    for panel in loaded.panels:
        click.echo(f"  {panel.ref}  tier {panel.tier}, {panel.slot}, {audience_of(panel)}")


@panels.command("kit")
@click.argument("room", type=ROOM)
@pack_option
@click.pass_context
def kit_cmd(ctx: click.Context, room: Path, packs: tuple[Path, ...]) -> None:
    """Print the presentation kit of ROOM's enabled packs (what a stage director gets)."""
    from lw_panels.manifest import room_packs
    from lw_panels.presentation import room_kit
    from lwcore.api import Room, room_lock

    kernel = state(ctx).kernel
    _mount(kernel, packs)
    with room_lock(room, shared=True):
        loaded = Room.load(room, kernel)
        kit = room_kit([p.kit for p in room_packs(loaded).packs if p.kit is not None], loaded.file.locale)
    if kit is None:
        raise LwError("no enabled pack of this room has a presentation kit", expected=".panels enable PACK")
    echo_json(kit)
