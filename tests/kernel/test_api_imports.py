"""``tools/api_imports.py``: the re-runnable rewrite of plugin imports to ``lwcore.api``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "api_imports.py"

OLD = textwrap.dedent('''\
    """A plugin module written before lwcore.api."""

    from lwcore.errors import LwError, PluginError
    from lwcore.turn.room import Room, room_lock
    from lwcore.turn.tree import get as tree_value, lookup
    from lwcore import js
    import lwcore.sandbox as sb
    from lwcore.rules.engine import RulesEngine  # not in the API
    from lwcore.io.atomic import atomic_write_text  # noqa: F401 - kept for importers


    def hook():
        from lwcore.contributions import PromptSegment
        from lwcore.turn.tree import get
        return PromptSegment, get, "lwcore.rules.dice:roll"
    ''')

NEW = textwrap.dedent('''\
    """A plugin module written before lwcore.api."""

    from lwcore.api import (
        LwError,
        PluginError,
        Room,
        js,
        room_lock,
        sandbox as sb,
        tree_get as tree_value,
        tree_lookup as lookup,
    )
    from lwcore.rules.engine import RulesEngine  # not in the API
    from lwcore.api import atomic_write_text  # noqa: F401 - kept for importers


    def hook():
        from lwcore.api import PromptSegment, tree_get as get
        return PromptSegment, get, "lwcore.rules.dice:roll"
    ''')


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_rewrites_what_the_api_exports_keeps_local_names_and_reports_the_rest(tmp_path: Path) -> None:
    module = tmp_path / "lw_old" / "mod.py"
    module.parent.mkdir()
    module.write_text(OLD, encoding="utf-8")
    check = run("--check", str(module.parent))
    assert check.returncode == 1 and module.read_text(encoding="utf-8") == OLD  # --check changes nothing
    assert f"{module}: would rewrite 11 name(s)" in check.stdout
    first = run(str(module.parent))
    assert module.read_text(encoding="utf-8") == NEW
    assert first.returncode == 1  # leftovers remain
    assert f"{module}:8: left outside lwcore.api: from lwcore.rules.engine import RulesEngine" in first.stdout
    assert f"{module}:15: left outside lwcore.api: lazy reference 'lwcore.rules.dice:roll'" in first.stdout
    assert first.stdout.rstrip().endswith("distinct lwcore modules imported: 8 before, 2 after")
    second = run(str(module.parent))  # idempotent
    assert module.read_text(encoding="utf-8") == NEW and "0 rewritten" in second.stdout
    namespace: dict[str, object] = {}
    exec(compile(NEW, str(module), "exec"), namespace)  # the rewritten module still runs
    import lwcore.turn.tree

    assert namespace["tree_value"] is lwcore.turn.tree.get and namespace["lookup"] is lwcore.turn.tree.lookup


def test_the_bundled_plugins_need_no_rewrite() -> None:
    result = run("--check")
    assert result.returncode == 0, result.stdout
    assert "0 to rewrite; 0 leftover(s); distinct lwcore modules imported: 1 before, 1 after" in result.stdout


def test_a_file_that_does_not_parse_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "lw_bad" / "broken.py"
    bad.parent.mkdir()
    bad.write_text("from lwcore.errors import (\n", encoding="utf-8")
    result = run(str(bad))
    assert result.returncode == 2 and f"{bad}:" in result.stderr and "Traceback" not in result.stderr
