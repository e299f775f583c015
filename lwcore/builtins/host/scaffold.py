"""``lw plugins new``: write a complete, installable third-party plugin distribution."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from lwcore import __version__
from lwcore.api_version import API_VERSION
from lwcore.errors import LwError

_ID = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")


def names(plugin_id: str) -> tuple[str, str]:
    """``(distribution name, import package)`` for a plugin id."""
    return f"lw-plugin-{plugin_id}", "lw_" + plugin_id.replace("-", "_")


def files(plugin_id: str) -> dict[str, str]:
    """Relative path -> content of the scaffolded distribution."""
    dist, package = names(plugin_id)
    return {
        "pyproject.toml": f'''[build-system]
requires = ["hatchling>=1.26"]
build-backend = "hatchling.build"

[project]
name = "{dist}"
version = "0.1.0"
description = "A Loreweaver plugin"
requires-python = ">=3.11"
dependencies = ["loreweaver>={__version__}"]

[project.entry-points."loreweaver.plugins"]
{plugin_id} = "{package}.plugin"

[tool.hatch.build.targets.wheel]
packages = ["{package}"]

# `pip install -e` adds this folder to sys.path: no import hook, nothing else to install.
[tool.hatch.build]
dev-mode-dirs = ["."]
''',
        f"{package}/__init__.py": f'"""The {plugin_id} Loreweaver plugin."""\n',
        f"{package}/lw-plugin.toml": f'''# Read by Loreweaver before any code of this plugin runs.
id = "{plugin_id}"
version = "0.1.0"
tier = "code"
provides = ["prompt_segments"]
needs = []
min_engine = "{__version__}"
requires_api = "{api_range()}"

[description]
en = "Adds a greeting to every turn's prompt"
zh = "每回合提示词加一句问候"
''',
        f"{package}/plugin.py": f'''"""Hook implementations of the {plugin_id} plugin."""

from lwcore.api import PromptSegment, TurnContext, catalogue, hookimpl

MESSAGES = catalogue(__file__)
"""This plugin's messages: locales/<language>/*.json next to this file, one per language."""


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment]:
    greeting = MESSAGES.text("greeting", turn.locale)
    return [PromptSegment(name="{plugin_id}-greeting", text=greeting, slot="system")]
''',
        f"{package}/locales/en/messages.json": '{"greeting": "Hello, keeper."}\n',
        f"{package}/locales/zh/messages.json": '{"greeting": "你好，守秘人。"}\n',
        "tests/test_plugin.py": f'''"""Boots a real kernel with this plugin and checks its hook is called."""

import tomllib
from pathlib import Path

from lwcore.api import InProcessPlugin, Kernel, TurnContext

from {package} import plugin

MANIFEST = Path(plugin.__file__).with_name("lw-plugin.toml")


def test_segment_is_contributed(tmp_path):
    manifest = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    kernel = Kernel(
        data_dir=tmp_path, entry_points=False, plugins=[InProcessPlugin(manifest, plugin)], env={{}}
    )
    segments = kernel.prompt_segments(TurnContext(locale="en")).segments
    assert [(s.plugin_id, s.value.text) for s in segments] == [("{plugin_id}", "Hello, keeper.")]
    segments = kernel.prompt_segments(TurnContext(locale="zh-CN")).segments
    assert [s.value.text for s in segments] == ["你好，守秘人。"]


def test_every_message_is_in_every_language():
    assert plugin.MESSAGES.problems() == []
''',
        "README.md": f"""# {dist}

A Loreweaver plugin. Install it, then enable it (it is third-party code):

    pip install .
    lw plugins enable {plugin_id}
    pytest tests
""",
    }


def api_range() -> str:
    """The plugin API versions a new plugin asks for: this kernel's major version, from its minor."""
    major, minor, _ = API_VERSION.split(".")
    return f">={major}.{minor},<{int(major) + 1}"


def pip_path(directory: Path) -> str:
    """``directory`` as pip reads a local path, never a name to look up on an index: absolute
    paths as they are, relative ones with a leading ``./`` (``lw-plugin-x`` alone is a
    distribution name to pip, so whoever registers it on PyPI would be installed)."""
    text = str(directory)
    if not directory.is_absolute() and not text.startswith(("./", "../")):
        text = "./" + text
    return shlex.quote(text)


def install_hint(directory: Path, python: str = sys.executable) -> str:
    """The command that installs the scaffold in ``directory`` into the Python running ``lw``."""
    return f"{shlex.quote(python)} -m pip install {pip_path(directory)}"


def write_plugin(plugin_id: str, directory: Path) -> list[Path]:
    """Write the distribution into ``directory``; refuse to overwrite existing files."""
    if not _ID.match(plugin_id):
        raise LwError(
            f"invalid plugin id {plugin_id!r}",
            expected="lowercase letters, digits, '_' or '-', starting with a letter",
        )
    content = files(plugin_id)
    existing = [rel for rel in content if (directory / rel).exists()]
    if existing:
        raise LwError(f"{directory}: would overwrite {', '.join(existing)}")
    written = []
    for rel, text in content.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
