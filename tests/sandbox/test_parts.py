"""How the sandbox is built: parts that join into one line, compile alone, stay out of the way
of locations, and cost nothing to import."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import lwcore.sandbox
from lwcore.errors import CapabilityError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.sandbox import evaluate
from lwcore.sandbox.runtime import PARTS, _one_line, core_source, part_sources

JS = Path(lwcore.sandbox.__file__).parent / "js"
FILES = sorted(JS.rglob("*.js"))


def test_every_part_is_ascii_with_block_comments_only() -> None:
    assert len(FILES) == 13
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert text.isascii(), path
        assert not re.search(r"(?<![:\\\"'])//", text), f"{path.name}: a // comment would swallow the joined line"


def test_every_part_compiles_alone_as_one_line() -> None:
    import _quickjs

    for path in FILES:
        source = _one_line(path.read_text(encoding="utf-8"))
        assert "\n" not in source
        assert source.startswith("(function") and source.endswith("})"), path.name
        assert _quickjs.Context().eval(source) is not None, path.name


def test_the_handed_in_sources_name_every_part_a_global_can_need() -> None:
    names = part_sources().split("\x01")[0::2]
    assert set(PARTS.values()) <= set(names)
    assert {"date", "outcome", "path", "lodash/base", "lodash/paths", "lodash/objects", "lodash/collections",
            "lodash/numbers"} <= set(names)
    assert "\n" not in core_source()


@pytest.mark.parametrize("call", [
    "_.update({}, 'a', 5)",           # TypeError inside the paths group
    "_.debounce()",                    # thrown by `_` itself
    "_.map([1], function (n) { return n.x.y; })",  # thrown by the script's callback, called from `_`
    "new Date(0).toString.call(5)",    # thrown inside the Date part
    "getvar(['a'], 1) + setvar('', 1)",
])
def test_a_failure_inside_a_sandbox_part_is_located_at_the_scripts_line(call: str) -> None:
    outcome = evaluate(f"\n\n\n  {call};")
    assert not outcome.ok and outcome.failure.line == 4, outcome.failure


def test_importing_the_sandbox_loads_neither_the_binding_nor_pydantic() -> None:
    code = "import sys, lwcore.sandbox; print('_quickjs' in sys.modules, 'quickjs' in sys.modules, 'pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=os.getcwd(), timeout=60)
    assert done.stdout.split() == ["False", "False", "False"], done.stderr


def _kernel(tmp_path: Path, needs: list[str], seen: dict) -> None:
    @hookimpl
    def lw_tools(register, ctx):  # noqa: ANN001, ANN202
        try:
            sandbox = ctx.sandbox()
            seen["value"] = sandbox.evaluate("6 * 7").value
        except CapabilityError as exc:
            seen["error"] = str(exc)

    manifest = {"id": "scripted", "version": "1", "tier": "code", "provides": ["tools"], "needs": needs}
    Kernel(data_dir=tmp_path, entry_points=False, env={},
           plugins=[InProcessPlugin(manifest, SimpleNamespace(lw_tools=lw_tools))]).tools


def test_a_plugin_reaches_the_sandbox_only_with_sandbox_js(tmp_path: Path) -> None:
    granted: dict = {}
    _kernel(tmp_path, ["sandbox:js"], granted)
    assert granted == {"value": 42}
    refused: dict = {}
    _kernel(tmp_path, [], refused)
    assert "sandbox:js" in refused["error"] and "value" not in refused
