"""Initial directory index, frozen world reuse, and the saved-output validators."""

from __future__ import annotations

import copy

import pytest

from lw_narraeon import codec
from lw_narraeon.compiler import compile_call_chain, compile_prompt
from lw_narraeon.errors import DirHandleError
from lw_narraeon.materials import discover_directories, initial_directory_index, play_materials


def test_directory_index_en_and_zh() -> None:
    dirs = ["characters/张三", "characters", "places", "characters"]
    en = initial_directory_index(dirs, "en")
    assert en == {
        "source": "runtime:initial-directories",
        "markdown": "# Initial directory index\n\nAll directory handles, ready to use; read document bodies as needed.\n"
        "- @dir-/\n- @dir-/characters\n- @dir-/characters/%E5%BC%A0%E4%B8%89\n- @dir-/places",
    }
    zh = initial_directory_index(dirs, "zh-CN")
    assert zh["markdown"].startswith("# 初始目录索引\n\n全部目录句柄，可直接使用；文档正文仍按需读取。\n- @dir-/\n")
    assert initial_directory_index([], "fr")["markdown"].endswith("as needed.\n- @dir-/")


def test_directory_index_sorts_like_javascript() -> None:
    markdown = initial_directory_index(["\ue000", "𠀀", "B", "a"])["markdown"]
    order = [line[2:] for line in markdown.split("\n") if line.startswith("- ")]
    assert order == ["@dir-/", "@dir-/B", "@dir-/a", "@dir-/%F0%A0%80%80", "@dir-/%EE%80%80"]


def test_directory_index_refuses_bad_directories() -> None:
    with pytest.raises(DirHandleError):
        initial_directory_index(["a//b"])


def test_discover_directories_breadth_first() -> None:
    tree = {"": ["b", "a"], "a": ["a/x", "b"], "b": [], "a/x": []}
    assert discover_directories(lambda d: tree[d]) == ["", "b", "a", "a/x"]


def test_play_materials_fresh_and_frozen() -> None:
    fresh = play_materials(blocks=[{"source": "world:a", "markdown": "A"}], coverage=[{"slot": "catalog"}], directories=["a"])
    assert [b["source"] for b in fresh["blocks"]] == ["runtime:initial-directories", "world:a"]
    assert "maintenance" not in fresh
    frozen_compilation = {
        "logicalMessages": [
            {"role": "runtime_system", "markdown": "r", "blocks": [{"source": "runtime:x", "markdown": "r"}]},
            {"role": "world_context", "markdown": "...", "blocks": [
                fresh["blocks"][0],
                {"source": "runtime:builtin/runtime.coverage", "markdown": "cov"},
                {"source": "runtime:world-placeholder/coverage", "markdown": "cov"},
                {"source": "world:a", "markdown": "A"},
            ]},
        ],
        "coverage": [{"slot": "catalog"}],
        "maintenance": {"m": 1},
    }
    before = copy.deepcopy(frozen_compilation)
    reused = play_materials(frozen=frozen_compilation, directories=["ignored"])
    assert [b["source"] for b in reused["blocks"]] == ["runtime:initial-directories", "world:a"]
    assert reused["blocks"][0] == fresh["blocks"][0]
    assert reused["maintenance"] == {"m": 1} and reused["coverage"] == [{"slot": "catalog"}]
    reused["coverage"][0]["slot"] = "changed"
    assert frozen_compilation == before  # a copy, never shared


RS = {"role": "runtime_system", "markdown": "r", "blocks": []}
WC = {"role": "world_context", "markdown": "w", "blocks": [], "messageRole": "system", "promptId": "world"}
PI = {"role": "player_input", "markdown": "p", "blocks": []}


def saved(provider: str, *, chain: bool = False) -> dict:
    fn = compile_call_chain if chain else compile_prompt
    result = fn(provider, [RS, WC, PI])
    return {
        "logicalMessages": result.logical_messages,
        "provider": result.provider,
        "tools": [],
        "toolUniverse": [],
        "toolStrategy": result.tool_strategy,
        "coverage": [{"slot": "catalog", "source": "characters", "status": "resolved", "complete": True, "continuation": None}],
        "budget": {"estimator": "disabled", "messageTokens": 0, "toolTokens": 0, "outputReserveTokens": 0,
                   "forcedTailReserveTokens": 0, "safetyMarginTokens": 0, "requiredTokens": 0,
                   "contextWindowTokens": 32000, "status": "not_checked"},
        "cache": {"strategy": result.strategy, "breakpoints": result.breakpoints, **result.cache.to_json()},
    }


@pytest.mark.parametrize("provider", ["anthropic_messages", "chat_completions", "openai_responses"])
@pytest.mark.parametrize("chain", [False, True])
def test_compiler_output_validates(provider: str, chain: bool) -> None:
    assert codec.valid_prompt_compilation(saved(provider, chain=chain))


def test_codec_exact_keys_and_after_state_fields() -> None:
    good = saved("anthropic_messages", chain=True)
    assert codec.valid_logical_messages(good["logicalMessages"])
    assert codec.valid_prompt_provider({"protocol": "chat_completions", "messages": [{"role": "assistant", "content": "x"}]})
    bad_variants = []
    v = copy.deepcopy(good); v["logicalMessages"][0]["extra"] = 1; bad_variants.append(v)
    v = copy.deepcopy(good); v["logicalMessages"][0]["messageRole"] = "developer"; bad_variants.append(v)
    v = copy.deepcopy(good); v["logicalMessages"][0]["promptId"] = ""; bad_variants.append(v)
    v = copy.deepcopy(good); del v["logicalMessages"][0]["blocks"]; bad_variants.append(v)
    v = copy.deepcopy(good); v["provider"]["preload"]["callId"] = "other"; bad_variants.append(v)
    v = copy.deepcopy(good); v["provider"]["preload"]["extra"] = ""; bad_variants.append(v)
    v = copy.deepcopy(good); v["provider"]["messages"][0]["role"] = "tool"; bad_variants.append(v)
    v = copy.deepcopy(good); v["provider"]["system"][0]["cache_control"] = {"type": "persistent"}; bad_variants.append(v)
    v = copy.deepcopy(good); v["cache"]["breakpoints"] = ["nowhere"]; bad_variants.append(v)
    v = copy.deepcopy(good); v["cache"]["firstDynamicByte"] = True; bad_variants.append(v)
    v = copy.deepcopy(good); v["cache"]["firstDynamicByte"] = -1; bad_variants.append(v)
    v = copy.deepcopy(good); v["budget"]["status"] = "unknown"; bad_variants.append(v)
    v = copy.deepcopy(good); v["unknown"] = 1; bad_variants.append(v)
    v = copy.deepcopy(good); del v["coverage"]; bad_variants.append(v)
    for variant in bad_variants:
        assert not codec.valid_prompt_compilation(variant)
    v = copy.deepcopy(good); v["maintenance"] = {"ok": True}
    assert codec.valid_prompt_compilation(v)
    assert not codec.valid_prompt_compilation(v, maintenance=lambda m: False)
    for junk in (None, [], "x", 3):
        assert not codec.valid_prompt_compilation(junk)
        assert not codec.valid_logical_messages(junk) or junk == []


def test_world_prompt_stays_one_provider_message_with_merge_off() -> None:
    from lw_narraeon.materials import logical_message, world_prompt

    materials = play_materials(blocks=[{"source": "world:a", "markdown": "  A  "}], directories=["a"])
    messages = [
        logical_message("runtime_system", [{"source": "runtime:x", "markdown": "rules"}], prompt_id="runtime"),
        *world_prompt([{"source": "world:instructions", "markdown": "Be fair."}], materials),
        {"role": "player_input", "markdown": "go", "blocks": []},
    ]
    assert messages[2]["markdown"].startswith("# Initial directory index") and messages[2]["markdown"].endswith("\n\nA")
    out = compile_prompt("chat_completions", messages, merge_consecutive_messages=False).provider["messages"]
    assert [m["role"] for m in out] == ["system", "system", "user"]
    assert out[1]["content"].startswith("# Author instruction\n\nBe fair.\n\n# World material")
    assert "- @dir-/a\n" in out[1]["content"]
    assert logical_message("tool", []) is None
    assert world_prompt([], {"blocks": []}) == []
