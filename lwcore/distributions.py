"""Installed distributions' entry points and requirements, read without ``importlib.metadata``.

``importlib.metadata`` parses every ``METADATA`` file with the ``email`` package (about 20 ms
of imports before the first answer); a plugin host needs only two facts at start-up: the
entry points of one group (``entry_points.txt``) and one distribution's requirements. This
module reads exactly those files along ``sys.path`` with the same precedence rules: the first
distribution of a (normalized) name on ``sys.path`` wins.

The name and version come from the metadata folder's name (``name-1.0.dist-info``, which
installers write normalized); ``*.egg-info`` folders (old ``setup.py develop`` installs) are
read too, their version from ``PKG-INFO``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def normalize(name: str) -> str:
    """PEP 503 normalized distribution name (``Foo_Bar.baz`` -> ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Distribution:
    """One installed distribution: its name, version and metadata folder."""

    name: str
    version: str
    path: Path

    def read(self, filename: str) -> str | None:
        try:
            return (self.path / filename).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def requires(self) -> list[str]:
        """The ``Requires-Dist`` lines of its metadata (headers only, as written)."""
        text = self.read("METADATA") or self.read("PKG-INFO") or ""
        out = []
        for line in text.splitlines():
            if not line.strip():
                break  # the headers end at the first blank line; the description follows
            if line.startswith("Requires-Dist:"):
                out.append(line.partition(":")[2].strip())
        return out


@dataclass(frozen=True)
class EntryPoint:
    """One entry point: ``name = module:attr`` in ``group`` of ``dist``."""

    name: str
    value: str
    group: str
    dist: Distribution

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self) -> Any:
        """Import the module and return the named attribute (or the module itself)."""
        import importlib

        module_name, _, attr = self.value.partition(":")
        target: Any = importlib.import_module(module_name.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            target = getattr(target, part)
        return target


_INFO = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+?)(?:-py[^-]*)?\.(?:dist|egg)-info$", re.I)


def distributions(path: Iterable[str] | None = None) -> Iterator[Distribution]:
    """Every installed distribution along ``path`` (default ``sys.path``), first one of each
    normalized name only."""
    seen: set[str] = set()
    for entry in list(sys.path if path is None else path):
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            folder = Path(entry or ".") / name
            match = _INFO.match(name)
            if match:
                dist_name, version = match.group("name"), match.group("version")
            elif name.endswith(".egg-info"):
                dist_name, version = name[: -len(".egg-info")], _pkg_info_version(folder)
            else:
                continue
            key = normalize(dist_name)
            if key in seen or not folder.is_dir():
                continue
            seen.add(key)
            yield Distribution(key, version, folder)


def _pkg_info_version(folder: Path) -> str:
    try:
        for line in (folder / "PKG-INFO").read_text(encoding="utf-8").splitlines():
            if line.startswith("Version:"):
                return line.partition(":")[2].strip()
    except (OSError, UnicodeDecodeError):
        pass
    return "0"


def entry_points(group: str, path: Iterable[str] | None = None) -> list[EntryPoint]:
    """The entry points of ``group`` from every installed distribution."""
    out = []
    header = f"[{group}]"
    for dist in distributions(path):
        text = dist.read("entry_points.txt")
        if not text or header not in text:
            continue
        out += [EntryPoint(name, value, group, dist) for name, value in _section(text, group)]
    return out


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """``(name, value)`` pairs of one ``[group]`` section of an ``entry_points.txt``."""
    pairs = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs


def find(name: str, path: Iterable[str] | None = None) -> Distribution | None:
    """The installed distribution called ``name`` (any spelling), or ``None``."""
    key = normalize(name)
    return next((d for d in distributions(path) if d.name == key), None)
