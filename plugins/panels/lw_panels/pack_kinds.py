"""The ``.lwpack`` content kinds of this plugin: ``panels`` and ``presentation``.

A pack declares ``contents.panels: [ui/panels.yaml]`` and ``contents.presentation:
[ui/presentation.yaml]`` (one kit per pack: a second one is refused, at its place); ``lw pack build``, ``verify`` and ``install`` check them with the
same loader a room uses (:func:`lw_panels.load.load_contents`), read through the pack's own
files (the source folder, then the archive): every problem located, every picture and tier-2
file named as a file the item ships (so it joins the archive and its hashed inventory). The
trust card learns how many panels there are, how many subjects a kit declares and whether it
may spend the operator's image budget.

``.pack install`` in a room switches the pack's panels and kit on there (:func:`enable`),
after the same check ``.panels enable`` makes: a player panel that names a keeper-only
variable of this room, or says one's value, keeps the pack off (the keeper is told where).
"""

from __future__ import annotations

from typing import Any

from lw_panels.load import load_contents
from lw_panels.messages import MESSAGES
from lw_panels.packs import AssetReader, second_kit
from lwcore.api import ContentReport, LwError, PackItem


def _shipped(reader: AssetReader, item: PackItem) -> tuple[str, ...]:
    return tuple(sorted(path for path in reader.read_files if path != item.path))


def validate_panels(item: PackItem) -> ContentReport:
    reader = AssetReader(item.files)
    panels, _ = load_contents(item.pack_id, reader, [item.path], [])
    return ContentReport(
        id=item.path, files=_shipped(reader, item), panels=len(panels),
        handles=tuple(f"panel.{panel.id}" for panel in panels),
        detected={"panels": len(panels), "tier2": sum(1 for panel in panels if panel.tier == 2)},
    )


def validate_presentation(item: PackItem) -> ContentReport:
    extra = second_kit(item.siblings)
    if extra is not None and item.path != item.siblings[0]:  # said once, at the second kit
        raise LwError(extra, file=item.files.display(item.path), code="duplicate")
    reader = AssetReader(item.files)
    _, kit = load_contents(item.pack_id, reader, [], [item.path])
    assert kit is not None
    subjects = kit.file.subjects
    return ContentReport(
        id=item.path, files=_shipped(reader, item), subjects=len(subjects),
        imagegen=kit.file.generation == "allow" and any(subject.ref for subject in subjects),
        detected={"generation": kit.file.generation, "subjects": len(subjects), "cues": len(kit.file.audio)},
    )


def enable(ctx: Any) -> str | None:
    """Switch the installed pack's panels (and kit) on in ``ctx.room`` (``.pack install``);
    a receipt line, or ``None`` when they were on already (the other kind did it)."""
    from lw_panels import leaks
    from lw_panels.load import cached_pack
    from lw_panels.packs import PackHome
    from lw_panels.projection import set_enabled
    from lw_panels.variables import keeper_only
    from lwcore.api import LwErrors

    manifest = ctx.pack
    pack = cached_pack(ctx.kernel, PackHome(manifest.id, manifest.version, ctx.home))
    problems = leaks.problems(pack.panels, keeper_only(ctx.room))
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    if not set_enabled(ctx.room, manifest.id, True):
        return None
    return MESSAGES.text("panels.on_room", ctx.locale, pack=manifest.key)
