"""``lw skill …``: the skills every folder provides, one skill, and switching them in a room.

- ``lw skill list [ROOM]``: every discovered skill with its source and warnings, and the
  folders that did not load (located); with ROOM, which are enabled there.
- ``lw skill show ID``: one skill whole (tools, conditions, references, body).
- ``lw skill enable ROOM ID`` / ``lw skill disable ROOM ID``: written to ``room.yaml`` under
  the room's lock.
- ``lw skill validate PATH``: check a skill folder (or its ``SKILL.md``) without installing it.

Errors are located and exit 1 (``--json``: ``{"error": …}``).
"""

from __future__ import annotations

from pathlib import Path

import click

from lw_skills.catalog import catalog_for
from lw_skills.rooms import disable, enable
from lwcore.api import ROOM, Room, cli_state as state, echo_json, room_lock

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
locale_option = click.option("--locale", default="en", show_default=True, help="Language of names and descriptions.")


@click.group("skill")
def skill() -> None:
    """Keeper skills (SKILL.md folders): list, show, enable and disable them in rooms."""


@skill.command("list")
@click.argument("room", required=False, type=ROOM)
@json_option
@locale_option
def list_cmd(room: Path | None, as_json: bool, locale: str) -> None:
    """Every skill (and, with ROOM, which are enabled there)."""
    from lw_skills.catalog import catalog_for
    from lw_skills.listing import list_json, list_text

    kernel = state(click.get_current_context()).kernel
    catalog = catalog_for(kernel)
    loaded = None
    if room is not None:
        from lwcore.api import Room, room_lock

        with room_lock(room, shared=True):
            loaded = Room.load(room, kernel)
    if as_json:
        echo_json(list_json(catalog, loaded))
    else:
        click.echo(list_text(catalog, locale, loaded))


@skill.command("show")
@click.argument("skill_id")
@json_option
@locale_option
def show_cmd(skill_id: str, as_json: bool, locale: str) -> None:
    """One skill: source, tools, conditions, references, assets, body."""
    from lw_skills.catalog import catalog_for
    from lw_skills.listing import show_text

    catalog = catalog_for(state(click.get_current_context()).kernel)
    found = catalog.require(skill_id)
    if as_json:
        echo_json(found.to_json() | {"body": found.body, "missing_tools": catalog.missing_tools(found)})
    else:
        click.echo(show_text(found, catalog, locale))


def _switch(room: Path, skill_id: str, *, on: bool, as_json: bool, locale: str) -> None:
    kernel = state(click.get_current_context()).kernel
    catalog = catalog_for(kernel)
    with room_lock(room):
        loaded = Room.load(room, kernel)
        if on:
            done = enable(loaded, catalog, skill_id)
            message = done.message(catalog.require(skill_id), locale)
            feature = done.feature
        else:
            feature = disable(loaded, skill_id)
            message = f"skill {skill_id} disabled"
        loaded.save()
    if as_json:
        echo_json({"room": str(room), "skill": skill_id, "enabled": on,
                   "feature": feature.model_dump(mode="json", exclude_defaults=True), "message": message})
    else:
        click.echo(message)


@skill.command("enable")
@click.argument("room", type=ROOM)
@click.argument("skill_id")
@json_option
@locale_option
def enable_cmd(room: Path, skill_id: str, as_json: bool, locale: str) -> None:
    """Enable skill SKILL_ID in ROOM (again: refresh its entry)."""
    _switch(room, skill_id, on=True, as_json=as_json, locale=locale)


@skill.command("disable")
@click.argument("room", type=ROOM)
@click.argument("skill_id")
@json_option
@locale_option
def disable_cmd(room: Path, skill_id: str, as_json: bool, locale: str) -> None:
    """Disable skill SKILL_ID in ROOM."""
    _switch(room, skill_id, on=False, as_json=as_json, locale=locale)


@skill.command("validate")
@click.argument("path", type=click.Path(path_type=Path))
@json_option
def validate_cmd(path: Path, as_json: bool) -> None:
    """Check a skill folder (or its SKILL.md) as discovery would read it."""
    from lw_skills.catalog import SKILL_FILE, catalog_for, load_folder

    folder = path.parent if path.name == SKILL_FILE and not path.is_dir() else path
    if not folder.is_dir():
        from lwcore.api import LwError

        raise LwError("not a skill folder", file=path, expected=f"a folder holding a {SKILL_FILE}")
    found = load_folder(folder, "file")
    catalog = catalog_for(state(click.get_current_context()).kernel)
    missing = catalog.missing_tools(found)
    warnings = [*found.warnings, *(f"allowed-tools names {t!r}, which no installed plugin provides" for t in missing)]
    if as_json:
        echo_json(found.to_json() | {"warnings": warnings, "ok": True})
        return
    click.echo(f"{folder / SKILL_FILE}: ok, skill {found.id} ({found.name})")
    for warning in warnings:
        click.echo(f"  warning: {warning}")
