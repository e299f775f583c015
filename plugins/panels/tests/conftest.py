"""The panels plugin's tests import their helpers (``panels_testkit``) from this folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from panels_testkit import copy_pack, copy_room  # noqa: E402


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def kernel(data_dir: Path):  # noqa: ANN201
    from lwcore.kernel import Kernel

    return Kernel(data_dir=data_dir, env={})


@pytest.fixture
def room(tmp_path: Path) -> Path:
    return copy_room(tmp_path / "fog-harbor")


@pytest.fixture
def pack(tmp_path: Path, kernel) -> Path:  # noqa: ANN001
    """The example pack, mounted for development in ``kernel``."""
    from lw_panels.packs import dev_mounts

    folder = copy_pack(tmp_path / "harbor-ui")
    dev_mounts(kernel).mount(folder)
    return folder


@pytest.fixture
def table_room(room: Path, pack: Path, kernel) -> Path:  # noqa: ANN001
    """The example room with the example pack enabled by its keeper."""
    from panels_testkit import say

    say(kernel, room, ".panels enable harbor-ui", "kp")
    return room
