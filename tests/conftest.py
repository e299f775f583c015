"""Fixtures for kernel tests: real distributions written onto ``sys.path``.

``make_dist`` writes a package with its ``lw-plugin.toml`` and a ``*.dist-info`` folder with
``METADATA`` and ``entry_points.txt`` into a temporary site folder, exactly what pip leaves
behind, so ``importlib.metadata`` finds a real entry point.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

MARKER_ENV = "LW_TEST_MARKER_DIR"


class Site:
    """A temporary site-packages folder on ``sys.path``.

    ``add(..., bundled=True)`` ships the distribution "with the kernel" the way a real
    install does: the site also holds a ``loreweaver`` distribution (found before the real
    one on ``sys.path``) whose ``bundled`` extra names it. ``claims_bundled=True`` only writes
    ``bundled = true`` into the plugin's own manifest, which must switch nothing on.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.packages: list[str] = []
        self.bundle: list[str] = []

    def ship_with_kernel(self, *dists: str) -> None:
        """Write the site's ``loreweaver`` metadata with ``dists`` in its ``bundled`` extra."""
        from lwcore import __version__

        self.bundle += [d for d in dists if d not in self.bundle]
        info = self.root / f"loreweaver-{__version__}.dist-info"
        info.mkdir(exist_ok=True)
        requires = "".join(f'Requires-Dist: {d}; extra == "bundled"\n' for d in self.bundle)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: loreweaver\nVersion: {__version__}\n"
            f"Provides-Extra: bundled\n{requires}",
            encoding="utf-8",
        )
        importlib.invalidate_caches()

    def add(
        self,
        plugin_id: str,
        *,
        code: str = "",
        manifest: str | None = None,
        package: str | None = None,
        entry: str | None = None,
        dist: str | None = None,
        tier: str = "code",
        provides: tuple[str, ...] = ("prompt_segments",),
        bundled: bool = False,
        claims_bundled: bool = False,
        extra_manifest: str = "",
        files: dict[str, str] | None = None,
    ) -> Path:
        """Write a distribution; returns its package folder."""
        package = package or f"lwtest_{plugin_id.replace('-', '_')}"
        dist = dist or f"lwtest-{plugin_id}"
        pkg = self.root / package
        pkg.mkdir(parents=True, exist_ok=True)
        (pkg / "__init__.py").write_text("", encoding="utf-8")
        (pkg / "plugin.py").write_text(textwrap.dedent(code), encoding="utf-8")
        if manifest is None:
            provides_list = ", ".join(f'"{p}"' for p in provides)
            manifest = (
                f'id = "{plugin_id}"\nversion = "1.0.0"\ntier = "{tier}"\n'
                f"provides = [{provides_list}]\n{'bundled = true' if claims_bundled else ''}\n"
                f"{extra_manifest}\n[description]\nen = \"test plugin {plugin_id}\"\n"
            )
        if manifest is not False:
            (pkg / "lw-plugin.toml").write_text(manifest, encoding="utf-8")
        for rel, text in (files or {}).items():
            target = pkg / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        info = self.root / f"{dist.replace('-', '_')}-1.0.0.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0.0\n", encoding="utf-8"
        )
        (info / "entry_points.txt").write_text(
            f"[loreweaver.plugins]\n{plugin_id} = {entry or package + '.plugin'}\n",
            encoding="utf-8",
        )
        self.packages.append(package)
        if bundled:
            self.ship_with_kernel(dist)
        importlib.invalidate_caches()
        return pkg


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    markers = tmp_path / "markers"
    markers.mkdir()
    monkeypatch.setenv(MARKER_ENV, str(markers))
    s = Site(root)
    yield s
    for name in list(sys.modules):
        if any(name == p or name.startswith(p + ".") for p in s.packages):
            del sys.modules[name]
    importlib.invalidate_caches()


@pytest.fixture
def kernel_factory(tmp_path: Path) -> Callable[..., Any]:
    """Boot a kernel with an isolated data dir (entry points on unless told otherwise)."""
    from lwcore.kernel import Kernel

    def make(**options: Any) -> Kernel:
        options.setdefault("data_dir", tmp_path / "data")
        options.setdefault("env", {})
        return Kernel(**options)

    return make
