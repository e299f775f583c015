"""Test isolation for the whole repository (kernel and every plugin's tests).

Every test gets its own ``LW_HOME`` and ``DSH_HOME`` in a temporary folder and a scrubbed
``LW_PLUGINS``/``LW_STRICT_PLUGINS``, so no test reads or writes the developer's home
directory or depends on the operator's plugin choices. ``LW_I18N_STRICT=1`` makes a missing
translation raise instead of falling back (:mod:`lwcore.i18n`).

Hypothesis runs derandomized (a fixed sequence of examples, no example database): a test
run never depends on luck, and a failure reproduces on every machine. Set
``LW_HYPOTHESIS_EXPLORE=1`` to explore with fresh random examples while developing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Test corpora and helpers every test suite of the repository may import (never runtime code).
SUPPORT = str(Path(__file__).resolve().parent / "tests" / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

settings.register_profile("lw", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile("explore" if os.environ.get("LW_HYPOTHESIS_EXPLORE") else "lw")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("lw-home")
    monkeypatch.setenv("LW_HOME", str(home))
    monkeypatch.setenv("DSH_HOME", str(tmp_path_factory.mktemp("dsh-home")))
    monkeypatch.delenv("DSH_WHALE_CONFIG", raising=False)
    monkeypatch.delenv("LW_PLUGINS", raising=False)
    monkeypatch.delenv("LW_STRICT_PLUGINS", raising=False)
    # A missing translation raises in every test and every `lw` a test starts (lwcore.i18n).
    monkeypatch.setenv("LW_I18N_STRICT", "1")
