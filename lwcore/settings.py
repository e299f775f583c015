"""The operator's plugin choices, persisted in ``<data_dir>/plugins.json``.

``{"enabled": [...], "disabled": [...]}``: ids the operator enabled (needed for third-party
code plugins) and ids they disabled (any plugin). Unknown keys in the file are kept on write.
A damaged file reads as empty and is reported, never fatal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.errors import LwError
from lwcore.io.safe_json import read_json
from lwcore.io.atomic import atomic_write_text

SETTINGS_NAME = "plugins.json"


@dataclass
class PluginSettings:
    """Enabled/disabled plugin ids plus any unknown keys the file carried."""

    path: Path
    enabled: set[str] = field(default_factory=set)
    disabled: set[str] = field(default_factory=set)
    other: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None

    @classmethod
    def load(cls, data_dir: Path) -> PluginSettings:
        """Read the settings; a damaged file (bad JSON, wrong shapes, duplicate keys, bad
        encoding, over the size limit) reads as empty with ``problem`` saying what is wrong
        and where -- reported by ``lw doctor``, never fatal, never overwritten."""
        path = data_dir / SETTINGS_NAME
        if not path.exists():
            return cls(path)
        try:
            data = read_json(path) if path.stat().st_size else {}
        except LwError as exc:
            return cls(path, problem=f"{exc}; ignored")
        except OSError as exc:
            return cls(path, problem=f"{path}: cannot read ({exc.strerror or exc}); ignored")
        if not isinstance(data, dict):
            return cls(path, problem=f"{path}: the top level is {type(data).__name__}, expected an object; ignored")
        lists = {}
        for key in ("enabled", "disabled"):
            value = data.pop(key, [])
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                return cls(path, problem=f"{path}: {key!r} must be a list of plugin ids; ignored")
            lists[key] = set(value)
        return cls(path, enabled=lists["enabled"], disabled=lists["disabled"], other=data)

    def save(self) -> None:
        """Write atomically, keeping unknown keys.

        Refuses (:class:`LwError`) when the file on disk could not be read, rather than
        overwrite what the operator may still want.
        """
        if self.problem:
            raise LwError(f"{self.problem}; fix or remove it first", file=self.path)
        data = dict(self.other)
        data["enabled"] = sorted(self.enabled)
        data["disabled"] = sorted(self.disabled)
        atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")

    def enable(self, plugin_id: str) -> None:
        self.enabled.add(plugin_id)
        self.disabled.discard(plugin_id)

    def disable(self, plugin_id: str) -> None:
        self.disabled.add(plugin_id)
        self.enabled.discard(plugin_id)
