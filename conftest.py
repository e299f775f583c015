"""Test isolation for the whole repository (kernel and every plugin's tests).

Every test gets its own ``LW_HOME`` and ``DSH_HOME`` in a temporary folder and a scrubbed
``LW_PLUGINS``/``LW_STRICT_PLUGINS``, so no test reads or writes the developer's home
directory or depends on the operator's plugin choices.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("lw-home")
    monkeypatch.setenv("LW_HOME", str(home))
    monkeypatch.setenv("DSH_HOME", str(tmp_path_factory.mktemp("dsh-home")))
    monkeypatch.delenv("DSH_WHALE_CONFIG", raising=False)
    monkeypatch.delenv("LW_PLUGINS", raising=False)
    monkeypatch.delenv("LW_STRICT_PLUGINS", raising=False)
