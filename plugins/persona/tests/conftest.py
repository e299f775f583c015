"""Helpers for the persona plugin's tests (DSH_HOME is a fresh temp dir per test: root conftest)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def home() -> Path:
    return Path(os.environ["DSH_HOME"])


@pytest.fixture
def write_config(home: Path):
    def write(cfg: Any, path: Path | None = None) -> Path:
        target = path or home / "whale-persona" / "config.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(cfg if isinstance(cfg, str) else json.dumps(cfg, ensure_ascii=False), encoding="utf-8")
        return target

    return write


@pytest.fixture
def write_inbox(home: Path):
    def write(lines: list[Any], path: Path | None = None) -> Path:
        target = path or home / "whale-persona" / "memory-inbox.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = "".join((l if isinstance(l, str) else json.dumps(l, ensure_ascii=False)) + "\n" for l in lines)
        target.write_text(text, encoding="utf-8")
        return target

    return write
