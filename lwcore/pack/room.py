"""``.pack install <ref>`` in a room: the same install, then the pack switched on in that room.

A keeper at a remote table has no shell; typing the ref is the trust decision, so the room's
install asks nothing and answers with the trust card and one plain risk line. The ref takes the
CLI's forms: an ``https://`` link, ``gh:owner/repo[@tag]``, or a path on the server (absolute,
or relative to the server's working directory; ``lw turn``: your shell's) -- the command is the
keeper's (the kernel refuses it to anyone else), and the keeper operates the room.

After the install, :func:`switch_on` switches the pack on in this room, kind by kind, through
each validator's ``enable`` callable (see :class:`lwcore.contributions.PackValidator`); the
receipt carries what each one did. The rule system is decided **first** (the ``rulepacks``
kind, :data:`FIRST`): a pack that brings its one world card pins its character-creation system
there, and everything after it -- a skill's ``systems``, a world card's sheets -- is judged
against the system the room will play. The other kinds follow in name order:

- ``skills`` (the skills plugin): enable the pack's skills in the room (``.skill enable``);
- ``panels`` / ``presentation`` (the panels plugin): enable the pack's panels and presentation
  kit (``.panels enable <pack-id>``);
- ``cards`` (the card plugin): when the pack has exactly one world card, import it as the
  room's world; with several, list one ``.import <pack-id>/<path> world`` line each (a fork, not
  a confirmation).
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


FIRST = ("rulepacks",)
"""Kinds switched on before all others: the rule system every other kind is judged against."""


def install_in_room(kernel: Kernel, room: Any, actor: Any, ref: str, *, locale: str) -> list[str]:
    """Install ``ref`` (any form the CLI takes) and switch it on in ``room``; the receipt's lines."""
    report = install_pack(kernel, ref, locale=locale, allow_local=True)
    assert report is not None
    manifest = report.manifest
    lines = [*trust_card(manifest, locale), message("risk", locale),
             message("installed", locale, key=manifest.key, home=report.home)]
    if report.landed:
        lines.append(message("landed", locale, targets=", ".join(report.landed)))
    return lines + switch_on(kernel, room, actor, manifest, report.home, locale=locale)


def switch_on(kernel: Kernel, room: Any, actor: Any, manifest: BuiltManifest, home: Path, *,
              locale: str) -> list[str]:
    """Switch an installed pack on in ``room``: each kind's ``enable`` with its items, the
    :data:`FIRST` kinds first, then the others by name; a line for each that says something.
    A kind whose ``enable`` refuses (``LwError``) says why in its line and the others go on; a
    plugin's failure is contained and recorded against it."""
    registry = kernel.pack_validators
    kinds = sorted(manifest.contents, key=lambda kind: (kind not in FIRST, FIRST.index(kind) if kind in FIRST else 0, kind))
    lines = []
    for kind in kinds:
        validator = registry.get(kind)
        if validator is None or validator.enable is None:
            continue
        ctx = RoomEnable(kernel, room, actor, locale, manifest, home, kind, tuple(manifest.contents[kind]))
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
