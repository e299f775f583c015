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
        path = data_dir / SETTINGS_NAME
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except OSError as exc:
            return cls(path, problem=f"{path}: cannot read ({exc.strerror or exc})")
        try:
            data = json.loads(text) if text.strip() else {}
            if not isinstance(data, dict):
                raise ValueError("top level is not an object")
        except ValueError as exc:
            return cls(path, problem=f"{path}: not valid JSON ({exc}); ignored")
        enabled = data.pop("enabled", [])
        disabled = data.pop("disabled", [])
        return cls(
            path,
            enabled={str(i) for i in enabled} if isinstance(enabled, list) else set(),
            disabled={str(i) for i in disabled} if isinstance(disabled, list) else set(),
            other=data,
        )

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
