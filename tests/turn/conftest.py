"""Shared fixtures of the turn-pipeline tests: a fresh copy of the example room, a kernel."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from lwcore.kernel import Kernel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLIES = EXAMPLE / "replies"
PROTOCOLS = ("anthropic_messages", "chat_completions", "openai_responses")
SAY = "我去码头查看那艘空船。"


@pytest.fixture
def room_dir(tmp_path: Path) -> Path:
    target = tmp_path / "fog-harbor"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("replies"))
    return target


@pytest.fixture(scope="session")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Kernel:
    return Kernel(data_dir=tmp_path_factory.mktemp("lw-data"), env={})


def _recorded(protocol: str) -> dict:
    return json.loads((REPLIES / f"turn1.{protocol}.json").read_text(encoding="utf-8"))


@pytest.fixture
def recorded():
    """``recorded(protocol)``: the example room's recorded reply for that protocol."""
    return _recorded


NARRATION_END = "你们要跟上去吗？"


def with_narration(reply: object, extra: str) -> object:
    """A copy of a recorded reply (any protocol) whose narration ends with ``extra``."""
    if isinstance(reply, dict):
        return {k: with_narration(v, extra) for k, v in reply.items()}
    if isinstance(reply, list):
        return [with_narration(v, extra) for v in reply]
    if isinstance(reply, str) and reply.endswith(NARRATION_END):
        return reply + extra
    return reply
