"""``.pack install <ref>`` in a room: the same install, then the pack switched on in that room.

A keeper at a remote table has no shell; typing the ref is the trust decision, so the room's
install asks nothing and answers with the trust card and one plain risk line. It refuses local
paths (they would name files on the server). After the install, each content kind whose
validator has an ``enable`` callable switches its items on in this room (see
:class:`lwcore.contributions.PackValidator`): the receipt carries what each one did.

The seam for the kinds that are not built yet, per the extension contract:

- ``skills`` (the skills plugin): enable the pack's skills in the room (``.skill enable``);
- ``panels`` / ``presentation`` (the panels plugin): enable the pack's panels and presentation
  kit (``.panels enable <pack-id>``);
- ``cards`` (the card plugin): when the pack has exactly one world card, import it as the
  room's world and pin the pack's character-creation system; with several, list one
  ``.import <pack-id>/<path> world`` line each (a fork, not a confirmation).

Each of those plugins registers its ``enable`` with its validator; nothing here changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.contributions import resolve
from lwcore.errors import LwError
from lwcore.pack.card import message, trust_card
from lwcore.pack.install import install_pack
from lwcore.pack.manifest import BuiltItem, BuiltManifest
from lwcore.plugins import describe_exception

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


@dataclass(frozen=True)
class RoomEnable:
    """What a kind's ``enable(ctx)`` receives: the room (a ``lwcore.turn.room.Room``; mark what
    you change with ``room.mark(...)``, the kernel saves it under the room's lock), the keeper
    who ran the command, their locale, the installed pack, its home folder, and this kind's
    items as the built manifest records them (``path``, ``id``, ``detected``, ``handles``)."""

    kernel: Any
    room: Any
    actor: Any
    locale: str
    pack: BuiltManifest
    home: Path
    kind: str
    items: tuple[BuiltItem, ...]


def install_in_room(kernel: Kernel, room: Any, actor: Any, ref: str, *, locale: str) -> list[str]:
    """Install ``ref`` (``https://`` or ``gh:`` only) and switch it on in ``room``; the receipt's lines."""
    report = install_pack(kernel, ref, locale=locale, allow_local=False)
    assert report is not None
    manifest = report.manifest
    lines = [*trust_card(manifest, locale), message("risk", locale),
             message("installed", locale, key=manifest.key, home=report.home)]
    if report.landed:
        lines.append(message("landed", locale, targets=", ".join(report.landed)))
    registry = kernel.pack_validators
    for kind, items in sorted(manifest.contents.items()):
        validator = registry.get(kind)
        if validator is None or validator.enable is None:
            continue
        ctx = RoomEnable(kernel, room, actor, locale, manifest, report.home, kind, tuple(items))
        try:
            line = resolve(validator.enable)(ctx)
        except LwError as exc:
            line = f"{kind}: {exc}"
        except Exception as exc:  # noqa: BLE001 - plugin code: contained, recorded, reported
            plugin = registry.origin(kind)
            kernel.plugin_failed(plugin, f"enable of {kind} failed: {describe_exception(exc)}")
            line = f"{kind}: plugin {plugin} could not switch it on ({type(exc).__name__})"
        if line:
            lines.append(str(line))
    return lines
