"""``docs/providers.md``'s recipes run as written: each profile command is run through the real
``lw`` group, and a request on the profile goes to a loopback server of the recipe's wire
format at the recipe's own path (only the scheme, host and port are the loopback server's),
which checks the path, the model and the key header."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from provider_servers import ProviderServer, Reply

from lwcore import profiles
from lwcore.cli import lw

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "providers.md"
KEY = "sk-recipe-test-0123456789"
EXPECTED = {
    "Anthropic": "anthropic_messages",
    "OpenAI Chat Completions": "chat_completions",
    "OpenAI Responses": "openai_responses",
    "llama.cpp server": "chat_completions",
    "vLLM": "chat_completions",
    "Ollama": "chat_completions",
    "LM Studio": "chat_completions",
    "OpenRouter": "chat_completions",
    "DeepSeek": "chat_completions",
    "Gemini (OpenAI-compatible endpoint)": "chat_completions",
}
"""Each recipe's heading and the wire format its server speaks."""


def recipes() -> dict[str, list[str]]:
    """``heading -> [command, …]``: the ``lw provider add`` lines of each recipe's sh block."""
    text = DOC.read_text(encoding="utf-8").split("\n## Recipes\n", 1)[1]
    out: dict[str, list[str]] = {}
    for section in text.split("\n### ")[1:]:
        heading, _, body = section.partition("\n")
        blocks = re.findall(r"```sh\n(.*?)```", body, re.S)
        out[heading.strip()] = [line for block in blocks for line in block.splitlines() if line.startswith("lw ")]
    return out


RECIPES = recipes()


def test_every_recipe_the_issue_asks_for_is_there() -> None:
    assert set(RECIPES) == set(EXPECTED)
    assert all(len(commands) == 1 for commands in RECIPES.values())


@pytest.mark.parametrize("heading", sorted(EXPECTED))
def test_a_recipe_runs_as_written_against_its_wire_format(heading: str, tmp_path: Path) -> None:
    args = shlex.split(RECIPES[heading][0])[1:]
    assert args[:2] == ["provider", "add"]
    name, url = args[2], args[args.index("--endpoint") + 1]
    model = args[args.index("--model") + 1]
    key_env = args[args.index("--key-env") + 1] if "--key-env" in args else None
    protocol = EXPECTED[heading]
    path = urlsplit(url).path
    env = {key_env: KEY} if key_env else {}
    runner = CliRunner()
    with ProviderServer(protocol, [Reply("灯塔亮了。")], key=KEY if key_env else None) as server:
        args[args.index("--endpoint") + 1] = server.base + path
        added = runner.invoke(lw, ["--data-dir", str(tmp_path), *args], env=env, catch_exceptions=False)
        assert added.exit_code == 0, added.output
        profile = profiles.load(tmp_path, name)
        assert profile.protocol == protocol and profile.model == model and profile.key_env == key_env
        tested = runner.invoke(lw, ["--data-dir", str(tmp_path), "provider", "test", name], env=env,
                               catch_exceptions=False)
    assert tested.exit_code == 0, tested.output
    assert "灯塔亮了。" in tested.output and KEY not in tested.output
    seen = server.requests[0]
    assert seen.path == path and seen.body["model"] == model and seen.body["stream"] is True
    if key_env is None:
        assert "authorization" not in seen.headers and "x-api-key" not in seen.headers
    elif protocol == "anthropic_messages":
        assert seen.headers["x-api-key"] == KEY
    else:
        assert seen.headers["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("heading", sorted(EXPECTED))
def test_each_recipe_is_also_a_preset_a_room_can_name(heading: str, tmp_path: Path) -> None:
    """The providers plugin ships every recipe as a provider preset (issue 27: presets are a
    data kind with a use): the same fields as the profile the recipe's command writes."""
    from lwcore.kernel import Kernel

    args = shlex.split(RECIPES[heading][0])[1:]
    name = args[2]
    added = CliRunner().invoke(lw, ["--data-dir", str(tmp_path / "made"), *args], catch_exceptions=False)
    assert added.exit_code == 0, added.output
    made = profiles.load(tmp_path / "made", name)
    presets = profiles.presets_of(Kernel(data_dir=tmp_path / "empty", env={}))
    preset = profiles.load(tmp_path / "empty", name, presets)  # nothing in that data dir: the preset
    assert presets[name].path.parent.name == "provider_presets" and presets[name].bundled
    assert (preset.protocol, preset.endpoint, preset.model, preset.key_env) == (
        made.protocol, made.endpoint, made.model, made.key_env)
