"""Fixtures of the providers plugin's tests: a kernel and a copy of the example room."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lwcore.kernel import Kernel

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "fog-harbor"
SAY = "我去码头查看那艘空船。"


@pytest.fixture(scope="session")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Kernel:
    return Kernel(data_dir=tmp_path_factory.mktemp("lw-data"), env={})


@pytest.fixture
def room_dir(tmp_path: Path) -> Path:
    target = tmp_path / "fog-harbor"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("replies"))
    return target
