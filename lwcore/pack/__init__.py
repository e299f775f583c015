"""``.lwpack``: one archive carries a whole work (rulepacks, skills, cards, world books,
presets, panels, presentation, prep scripts, media), checked by the code that will run it.

The host API (names load on first use)::

    from lwcore.pack import build_pack, verify_pack, install_pack, installed_packs, remove_pack

    built = build_pack(kernel, "src/blackmoor", "dist")        # BuiltPack(path, sha256, manifest)
    with verify_pack(kernel, built.path) as verified:          # every install check, no writes
        print(verified.manifest.trust)
    report = install_pack(kernel, "gh:owner/repo@v1")          # InstallReport (home, landed …)
    installed_packs(kernel); remove_pack(kernel, "blackmoor@1.0.0")

Modules, one idea each: :mod:`~lwcore.pack.manifest` (``pack.yaml``, versions, migrations),
:mod:`~lwcore.pack.names` (the path rule), :mod:`~lwcore.pack.archive` (the zip under the red
lines; the deterministic writer), :mod:`~lwcore.pack.files` (what validators read),
:mod:`~lwcore.pack.contents` (validators through the registry, trust), :mod:`~lwcore.pack.build`,
:mod:`~lwcore.pack.verify`, :mod:`~lwcore.pack.install` (+ :mod:`~lwcore.pack.swap`,
:mod:`~lwcore.pack.ledger`), :mod:`~lwcore.pack.sources` (refs, downloads, the GitHub token
rules), :mod:`~lwcore.pack.card` (the trust card, localized), :mod:`~lwcore.pack.room`
(``.pack install`` in a room). Content kinds register through the ``lw_pack_validators`` hook
(``README.md`` beside this file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore import lazy_exports

_LAZY = {
    "build_pack": "lwcore.pack.build",
    "BuiltPack": "lwcore.pack.build",
    "verify_pack": "lwcore.pack.verify",
    "VerifiedPack": "lwcore.pack.verify",
    "install_pack": "lwcore.pack.install",
    "install_verified": "lwcore.pack.install",
    "installed_packs": "lwcore.pack.install",
    "installed_path": "lwcore.pack.install",
    "remove_pack": "lwcore.pack.install",
    "InstallReport": "lwcore.pack.install",
    "fetch_pack": "lwcore.pack.sources",
    "Transport": "lwcore.pack.sources",
    "PackLimits": "lwcore.pack.limits",
    "trust_card": "lwcore.pack.card",
    "RoomEnable": "lwcore.pack.room",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from lwcore.pack.build import BuiltPack, build_pack
    from lwcore.pack.card import trust_card
    from lwcore.pack.install import (
        InstallReport,
        install_pack,
        install_verified,
        installed_packs,
        installed_path,
        remove_pack,
    )
    from lwcore.pack.limits import PackLimits
    from lwcore.pack.room import RoomEnable
    from lwcore.pack.sources import Transport, fetch_pack
    from lwcore.pack.verify import VerifiedPack, verify_pack

__getattr__ = lazy_exports(__name__, _LAZY)
