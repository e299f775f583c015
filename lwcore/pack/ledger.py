"""What is installed where: ``<data_dir>/packs/ledger.json``.

The layout of installed packs::

    <data_dir>/packs/<id>@<version>/   a pack's home: its built pack.yaml and every member
    <data_dir>/packs/ledger.json       which versions are installed, which one is active, and
                                       the files each landed in a discovery folder
    <data_dir>/packs/.lw/              the lock, and the scratch of an install in progress
    <data_dir>/<lands_in>/...          files landed for discovery (rulepacks/, skills/ …)

Several versions of one pack may be installed side by side (their homes); one of them, the
one installed last, is **active**: its files are the ones in the discovery folders. A landed
file belongs to the active version of exactly one pack; an install never overwrites a file
another pack owns, nor one the operator put there by hand (unless it is byte-identical).

The ledger is written only through :class:`lwcore.pack.swap.Swap`, together with the files it
describes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.errors import LwError
from lwcore.io import read_json

LEDGER = "ledger.json"
STATE = ".lw"


@dataclass
class PackVersion:
    """One installed version: its archive's sha256 and the files it lands (target -> member)."""

    sha256: str
    lands: dict[str, str] = field(default_factory=dict)


@dataclass
class Ledger:
    """The parsed ledger: pack id -> {version -> :class:`PackVersion`}, and each id's active version."""

    versions: dict[str, dict[str, PackVersion]] = field(default_factory=dict)
    active: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, packs_dir: Path) -> Ledger:
        path = packs_dir / LEDGER
        if not path.exists():
            return cls()
        data = read_json(path)
        try:
            ledger = cls()
            for pack_id, entry in data["packs"].items():
                ledger.active[pack_id] = str(entry["active"])
                ledger.versions[pack_id] = {
                    version: PackVersion(str(v["sha256"]), {str(k): str(m) for k, m in v["lands"].items()})
                    for version, v in entry["versions"].items()
                }
            return ledger
        except (KeyError, TypeError, AttributeError) as exc:
            raise LwError(f"the install ledger is damaged ({type(exc).__name__}: {exc}); "
                          "reinstall the packs to rebuild it", file=path) from None

    def dumps(self) -> bytes:
        data = {"format": 1, "packs": {
            pack_id: {"active": self.active[pack_id],
                      "versions": {v: {"sha256": pv.sha256, "lands": dict(sorted(pv.lands.items()))}
                                   for v, pv in sorted(self.versions[pack_id].items())}}
            for pack_id in sorted(self.versions)
        }}
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def owner(self, target: str, *, excluding: str | None = None) -> tuple[str, str] | None:
        """``(pack id, version)`` whose active version landed ``target`` (a pack other than
        ``excluding``), or ``None``."""
        for pack_id, version in sorted(self.active.items()):
            if pack_id != excluding and target in self.versions[pack_id][version].lands:
                return pack_id, version
        return None

    def landed(self, pack_id: str) -> dict[str, str]:
        """The files the active version of ``pack_id`` landed (empty when not installed)."""
        version = self.active.get(pack_id)
        return dict(self.versions[pack_id][version].lands) if version else {}

    def add(self, pack_id: str, version: str, entry: PackVersion) -> None:
        self.versions.setdefault(pack_id, {})[version] = entry
        self.active[pack_id] = version

    def drop(self, pack_id: str, version: str) -> str | None:
        """Forget one version; returns the version that becomes active (the highest remaining)
        when the active one was dropped, else ``None``."""
        versions = self.versions.get(pack_id, {})
        versions.pop(version, None)
        if not versions:
            self.versions.pop(pack_id, None)
            self.active.pop(pack_id, None)
            return None
        if self.active.get(pack_id) == version:
            self.active[pack_id] = max(versions, key=version_key)
            return self.active[pack_id]
        return None


def version_key(version: str) -> tuple[Any, ...]:
    """Sort key of a semantic version: numbers, then a release after its pre-releases."""
    core, _, rest = version.partition("+")[0].partition("-")
    numbers = tuple(int(p) for p in core.split(".") if p.isdigit())
    pre = tuple((0, int(p)) if p.isdigit() else (1, p) for p in rest.split(".")) if rest else ()
    return (numbers, 0 if rest else 1, pre)


HOME = re.compile(r"^([a-z0-9][a-z0-9-]{0,63})@(.+)$")


def homes(packs_dir: Path) -> dict[str, list[str]]:
    """Pack id -> the versions whose home folder exists, lowest first."""
    out: dict[str, list[str]] = {}
    try:
        entries = sorted(packs_dir.iterdir())
    except OSError:
        return out
    for entry in entries:
        match = HOME.match(entry.name)
        if match and entry.is_dir():
            out.setdefault(match.group(1), []).append(match.group(2))
    return {k: sorted(v, key=version_key) for k, v in out.items()}
