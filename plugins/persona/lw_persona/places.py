"""Where the persona's files live: the configuration folder and ``config.json``.

- ``$DSH_HOME`` set: the spec's layout (§2.1), shared with every other whale-persona tool:
  ``$DSH_HOME/whale-suite/`` when its ``config.json`` is a file (the legacy layout), else
  ``$DSH_HOME/whale-persona/``.
- otherwise: this plugin's folder in the kernel's data dir (``--data-dir``, ``$LW_HOME``, a
  host's ``data_dir``, else the platform's): ``<data dir>/plugins-data/persona/``. This is a
  departure from the spec's ``~/.dsh`` default (see the README): a kernel's data stays in
  its data dir.

``$DSH_WHALE_CONFIG`` names ``config.json`` itself in either case (the spec's highest
priority). Presets, the default inbox, the sink log and the reflex rules live in the folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lwcore.api import plugin_data_dir, resolve_data_dir

PLUGIN_ID = "persona"
HOME_ENV = "DSH_HOME"
CONFIG_ENV = "DSH_WHALE_CONFIG"


@dataclass(frozen=True)
class Places:
    """The configuration ``folder``, the ``config`` file, the ``env`` read (for the
    ``DSH_REFLEX_*`` switches) and whether ``$DSH_HOME`` chose the folder (``shared``)."""

    folder: Path
    config: Path
    env: Mapping[str, str]
    shared: bool

    @classmethod
    def resolve(cls, env: Mapping[str, str] | None = None,
                kernel_folder: Callable[[], Path] | Path | None = None) -> Places:
        """The places for ``env`` (default: ``os.environ``).

        ``kernel_folder`` is this plugin's folder in the kernel's data dir, or a function
        returning it (a plugin context's ``data_dir``, called only when ``$DSH_HOME`` is not
        set, so the folder is not created for nothing). Without one, the folder a default
        kernel would give (``$LW_HOME``, else the platform data dir).
        """
        env = os.environ if env is None else env
        home = env.get(HOME_ENV)
        if home:
            folder = _spec_folder(Path(home))
        elif kernel_folder is None:
            folder = plugin_data_dir(resolve_data_dir(None, env), PLUGIN_ID)
        else:
            folder = Path(kernel_folder() if callable(kernel_folder) else kernel_folder)
        override = env.get(CONFIG_ENV)
        return cls(folder, Path(override) if override else folder / "config.json", env, bool(home))

    @classmethod
    def for_context(cls, ctx: object) -> Places:
        """The places for a hook's or command's plugin context (its env and ``data_dir``)."""
        return cls.resolve(getattr(ctx, "env"), getattr(ctx, "data_dir"))

    def config_file(self, path: str | os.PathLike[str] | None = None) -> Path:
        """A config path chosen by the host or the command line, else :attr:`config`."""
        return Path(path) if path else self.config

    def under(self, value: str) -> Path:
        """An absolute path as given; a relative one under the configuration folder."""
        p = Path(value)
        return p if p.is_absolute() else self.folder / p

    @property
    def presets(self) -> Path:
        return self.folder / "presets"


def _spec_folder(home: Path) -> Path:
    """§2.1: the legacy ``whale-suite/`` when its ``config.json`` is a file, else ``whale-persona/``."""
    legacy = home / "whale-suite"
    try:
        if (legacy / "config.json").is_file():
            return legacy
    except OSError:
        pass
    return home / "whale-persona"
