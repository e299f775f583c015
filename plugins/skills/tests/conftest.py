"""The skills plugin's tests import their helpers (``skills_testkit``) from this folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from skills_testkit import copy_room, make_kernel  # noqa: E402


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def kernel(data_dir: Path):  # noqa: ANN201
    return make_kernel(data_dir)


@pytest.fixture
def room_dir(tmp_path: Path) -> Path:
    return copy_room(tmp_path / "room")
