"""The type checker runs clean over the kernel and every bundled plugin package (issue 25).

``mypy`` reads its settings from ``[tool.mypy]`` in the root ``pyproject.toml``; these tests
run it as ``make test`` does, so a type error anywhere in ``lwcore`` or ``plugins/*/lw_*``
fails the suite with mypy's own report. The incremental cache lives in ``.mypy_cache/`` of the
checkout (ignored by git): a fresh clone checks cold, later runs reuse it.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".mypy_cache"
# A hang check, not a speed claim: a cold run takes well under a minute on CI's machine.
TIMEOUT = 600


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(CACHE), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=TIMEOUT)


def test_the_kernel_and_every_plugin_check_clean() -> None:
    run = _mypy()
    assert run.returncode == 0, f"mypy found type errors (run `mypy` in the checkout):\n{run.stdout}{run.stderr}"
    assert "Success: no issues found" in run.stdout, run.stdout


def test_the_checked_files_are_the_kernel_and_every_bundled_plugin_package() -> None:
    files = _config()["files"]
    checked = {p.resolve() for pattern in files for p in ROOT.glob(pattern)}
    packages = {p.resolve() for p in ROOT.glob("plugins/*/lw_*") if (p / "__init__.py").is_file()}
    assert (ROOT / "lwcore").resolve() in checked
    assert packages, "no bundled plugin package found"
    assert packages <= checked, f"plugin packages mypy does not check: {sorted(map(str, packages - checked))}"


def test_the_api_module_is_strict_and_no_section_says_strict() -> None:
    # `strict = true` in a per-module section turns strict mode on for every module
    # (python/mypy#11401), so the API module's section lists the flags strict stands for.
    overrides = _config().get("overrides", [])
    assert not any("strict" in section for section in overrides), "a per-module `strict` applies to every module"
    api = [s for s in overrides if "lwcore.api" in ([s["module"]] if isinstance(s["module"], str) else s["module"])]
    assert len(api) == 1, "one [[tool.mypy.overrides]] section for lwcore.api"
    flags = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
             "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_return_any",
             "no_implicit_reexport"}
    assert {f for f in flags if api[0].get(f) is True} == flags


def test_the_settings_catch_what_they_promise(tmp_path: Path) -> None:
    """The checker with the project's settings refuses a wrong model field (the pydantic
    plugin), an ignore without its error code, and an ignore no longer needed."""
    (tmp_path / "probe.py").write_text(
        "from lwcore.pack.manifest import FileRecord\n"
        "FileRecord(path='a', size='big', sha256='0')\n"
        "x: int = 'one'  # type: ignore\n"
        "y: int = 1  # type: ignore[assignment]\n",
        encoding="utf-8",
    )
    run = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(tmp_path / "probe.py"))
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert 'probe.py:2: error: Argument "size" to "FileRecord" has incompatible type "str"' in out, out
    assert "probe.py:3: error:" in out and "[ignore-without-code]" in out, out
    assert "probe.py:4: error: Unused \"type: ignore\" comment" in out, out
