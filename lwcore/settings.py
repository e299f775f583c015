"""The operator's settings: plugin choices, persisted in ``<data_dir>/plugins.json``, and the
stage director's knobs (:func:`director_settings`, from the environment).

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


# --- the stage director's operator knobs (M19) --------------------------------------------

DIRECTOR_PREFIX = "TRPG_DIRECTOR__"
"""The environment names of the director's knobs (the contract's ``TRPG_DIRECTOR__*``)."""


@dataclass(frozen=True)
class DirectorSettings:
    """What the operator lets a stage director spend, read from the environment (``kernel.env``):

    - ``TRPG_DIRECTOR__IMAGE_PROVIDER``: the image provider adapter (a name a plugin offers,
      the panels plugin offers one); unset: no picture is ever generated.
    - ``TRPG_DIRECTOR__IMAGE_ENDPOINT`` / ``__IMAGE_MODEL`` / ``__IMAGE_KEY_ENV``: where it is,
      which model, and the environment variable holding its key (the adapter's defaults when unset).
    - ``TRPG_DIRECTOR__ROOM_BUDGET``: pictures one room may have generated, ever (default ``0``:
      no spending).
    - ``TRPG_DIRECTOR__PREFETCH``: pictures warm-up may prepare in one quiet turn (default
      ``1``), always within the room's budget.

    A presentation kit's ``generation: pack_only`` is stronger than all of these."""

    image_provider: str | None = None
    image_endpoint: str | None = None
    image_model: str | None = None
    image_key_env: str | None = None
    room_budget: int = 0
    prefetch: int = 1

    @property
    def spends(self) -> bool:
        """Whether any picture may be generated at all."""
        return self.image_provider is not None and self.room_budget > 0


def director_settings(env: Any) -> DirectorSettings:
    """The director's knobs from ``env`` (a mapping); a bad number is refused, named."""
    def text(key: str) -> str | None:
        value = str(env.get(DIRECTOR_PREFIX + key, "") or "").strip()
        return value or None

    def count(key: str, default: int) -> int:
        raw = text(key)
        if raw is None:
            return default
        if not raw.isdigit() or len(raw) > 6:
            raise LwError(f"{DIRECTOR_PREFIX}{key} must be a whole number of pictures (0 or more), not {raw!r}",
                          code="invalid")
        return int(raw)

    return DirectorSettings(image_provider=text("IMAGE_PROVIDER"), image_endpoint=text("IMAGE_ENDPOINT"),
                            image_model=text("IMAGE_MODEL"), image_key_env=text("IMAGE_KEY_ENV"),
                            room_budget=count("ROOM_BUDGET", 0), prefetch=count("PREFETCH", 1))
