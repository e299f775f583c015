"""What a hook implementation may ask the kernel for, gated by its manifest's ``needs``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import lwcore.sandbox
from lwcore.errors import CapabilityError

if TYPE_CHECKING:
    from lwcore.manifest import Manifest


@dataclass(frozen=True)
class PluginContext:
    """Handed to hooks that accept ``ctx``: the plugin's identity and its gated services.

    Kernel services are only handed out for what the manifest declares; asking for more
    raises :class:`CapabilityError`. (A code plugin runs with the operator's privileges and
    could reach around this; the gate makes a plugin's reach visible and checked, it is not a
    sandbox. The JS sandbox is.)
    """

    manifest: Manifest
    root: Path | None
    _data_dir: Path
    env: Mapping[str, str]

    @property
    def plugin_id(self) -> str:
        """The plugin's id."""
        return self.manifest.id

    def require(self, need: str) -> None:
        """Raise :class:`CapabilityError` unless the manifest declares ``need``."""
        if need not in self.manifest.needs:
            raise CapabilityError(
                f"plugin {self.manifest.id!r} used {need!r} without declaring it",
                expected=f'"{need}" in the manifest\'s needs',
            )

    def data_dir(self) -> Path:
        """``<data_dir>/plugins-data/<id>``, created on demand. Needs ``fs:data_dir``."""
        self.require("fs:data_dir")
        path = plugin_data_dir(self._data_dir, self.manifest.id)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def sandbox(self) -> ModuleType:
        """The JS sandbox service, :mod:`lwcore.sandbox` (``run_hooks``, ``HookSession``,
        ``run_plan``, ``check_plan``, ``resolve``, ``evaluate``). Needs ``sandbox:js``."""
        self.require("sandbox:js")
        return lwcore.sandbox

    def package_path(self, *parts: str) -> Path:
        """A path inside the plugin's own folder (its import package or directory)."""
        if self.root is None:
            raise CapabilityError(f"plugin {self.manifest.id!r} has no folder on disk")
        return self.root.joinpath(*parts)


def plugin_data_dir(data_dir: Path, plugin_id: str) -> Path:
    """Where the plugin ``plugin_id`` keeps its files under the kernel's ``data_dir``
    (``<data_dir>/plugins-data/<id>``; not created here). :meth:`PluginContext.data_dir` is
    the gated way to get it; code running without a kernel (a plugin's pure-Python API) uses
    this with :func:`lwcore.datadir.resolve_data_dir` to land in the same place."""
    return Path(data_dir) / "plugins-data" / plugin_id
