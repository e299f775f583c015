"""Where the kernel keeps its state: ``--data-dir``, then ``LW_HOME``, then the platform's."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

APP_NAME = "loreweaver"


def resolve_data_dir(explicit: str | Path | None, env: Mapping[str, str]) -> Path:
    """The data dir: ``explicit`` if given, else ``$LW_HOME``, else the user data dir.

    The platform default comes from :mod:`platformdirs` (``~/.local/share/loreweaver`` on
    Linux, ``~/Library/Application Support/loreweaver`` on macOS, ``%LOCALAPPDATA%`` on
    Windows). The folder is not created here.
    """
    if explicit:
        return Path(explicit).expanduser()
    if env.get("LW_HOME"):
        return Path(env["LW_HOME"]).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
