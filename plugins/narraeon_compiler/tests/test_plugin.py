"""The plugin as the kernel sees it: a real kernel with entry points, the CLI, light import."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from lwcore.contributions import resolve
from lwcore.kernel import Kernel

RUNTIME_TOOLS = {
    "state_list", "history_list", "context_search", "context_read", "world_patch",
    "world_create", "world_retire", "world_checkpoint", "artifact_emit", "artifact_clear",
}


def test_real_kernel_finds_the_plugin(tmp_path) -> None:
    kernel = Kernel(data_dir=tmp_path)
    record = kernel.plugin("narraeon_compiler")
    assert record.status == "enabled" and record.bundled
    compilers = kernel.prompt_compilers
    assert {"anthropic_messages", "chat_completions", "openai_responses"} <= set(compilers)
    compile_fn = resolve(compilers["anthropic_messages"].compile)
    result = compile_fn([{"role": "runtime_system", "markdown": "r"}, {"role": "player_input", "markdown": "p"}])
    assert result.provider["system"][0]["cache_control"] == {"type": "ephemeral"}
    # narraeon's runtime tools are a compilation's tool universe, never turn tools: no room
    # has the world runtime that executes them, so a model must never be offered them.
    assert not RUNTIME_TOOLS & set(kernel.tools)
    from lw_narraeon.tools import ARG_MODELS, runtime_tool_definitions

    definitions = {d["name"]: d for d in runtime_tool_definitions(locale="en")}
    chinese = {d["name"]: d for d in runtime_tool_definitions(locale="zh-CN")}
    assert set(definitions) == RUNTIME_TOOLS
    for name, definition in definitions.items():
        assert definition["description"] and chinese[name]["description"] != definition["description"]
        assert definition["inputSchema"]["type"] == "object", name
    state_list = ARG_MODELS["state_list"]
    assert state_list.model_validate({"parent": "@dir-/characters"}).limit == 50
    import pydantic
    import pytest

    with pytest.raises(pydantic.ValidationError):
        state_list.model_validate({"parent": "@dir-/%e5"})
    assert {"narraeon-compile-request", "narraeon-logical-message"} <= set(kernel.schemas)
    assert "prompt" in kernel.cli_commands
    assert resolve(kernel.schemas["narraeon-compile-request"].model).model_json_schema()["title"] == "CompileRequest"


def test_plugin_module_stays_light() -> None:
    code = (
        "import sys; import lw_narraeon.plugin as p\n"
        "seen=[]; reg=seen.append\n"
        "p.lw_prompt_compilers(reg); p.lw_schemas(reg)\n"
        "heavy=[m for m in ('pydantic','yaml','lw_narraeon.compiler','lw_narraeon.tools') if m in sys.modules]\n"
        "print(len(seen), heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "6 []"


def _lw(args, input=None):
    from lwcore.cli import lw

    return CliRunner().invoke(lw, args, input=input, catch_exceptions=False)


def test_cli_batch_compile(tmp_path) -> None:
    lines = [
        json.dumps({"provider": "chat_completions", "messages": [{"role": "runtime_system", "markdown": "r 张"}, {"role": "player_input", "markdown": "p"}]}),
        "",
        "not json",
        json.dumps({"provider": "anthropic_messages", "messages": [{"role": "author_instruction", "markdown": "u", "messageRole": "user"}, {"role": "runtime_system", "markdown": "late", "messageRole": "system"}, {"role": "player_input", "markdown": "p"}]}),
    ]
    result = _lw(["prompt", "compile", "--batch", "-"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1, result.output  # three lines failed; the others are still answered
    out = [json.loads(line) for line in result.output.splitlines()]
    assert len(out) == 4
    assert out[0]["output"]["messages"][0] == {"role": "system", "content": "# Runtime mechanics\n\nr 张"}
    assert set(out[0]) == {"output", "stableText", "cache", "breakpoints"}
    assert [(o["error"]["line"], o["error"]["code"]) for o in out[1:]] == [
        (2, "empty"), (3, "syntax"), (4, "prompt_role_order_unsupported")]
    batch = tmp_path / "in.jsonl"
    batch.write_text(lines[0] + "\n", encoding="utf-8")
    from_file = _lw(["prompt", "compile", "--batch", str(batch)])
    assert from_file.exit_code == 0 and from_file.output.splitlines()[0] == result.output.splitlines()[0]


# A request the compiler refuses, and the code it is refused with: each answer names its line.
REFUSED = [
    ({"provider": 5, "messages": []}, "unsupported_provider"),
    ({"provider": "gemini", "messages": []}, "unsupported_provider"),
    ({"provider": "chat_completions"}, "invalid_request"),
    ({"provider": "chat_completions", "messages": [], "surprise": 1}, "invalid_request"),
    ({"provider": "chat_completions", "messages": {}}, "invalid_logical_messages"),
    ({"provider": "chat_completions", "messages": [{"role": "narrator", "markdown": "x"}]}, "invalid_logical_messages"),
    ({"provider": "chat_completions", "messages": [], "cacheStrategy": "forever"}, "unsupported_cache_strategy"),
    ({"provider": "chat_completions", "messages": [], "ordered": 1}, "invalid_request"),
    ({"provider": "anthropic_messages", "messages": [
        {"role": "author_instruction", "markdown": "u", "messageRole": "user"},
        {"role": "runtime_system", "markdown": "late", "messageRole": "system"}]}, "prompt_role_order_unsupported"),
    ([1, 2], "invalid_request"),
]
GOOD = {"provider": "openai_responses", "messages": [{"role": "player_input", "markdown": "p"}]}


def test_every_refused_request_is_answered_like_a_check_batch_line() -> None:
    """The shape of ``lw check --batch``'s refusals: ``{"error": {message, file, line, column,
    byte, expected, code}}`` with the line number, once (no location doubled in the message)."""
    lines = [json.dumps(line) for request, _ in REFUSED for line in (request, GOOD)]
    lines += ['{"provider": NaN}', json.dumps(GOOD)]
    result = _lw(["prompt", "compile", "--batch", "-"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.splitlines()]
    assert len(out) == len(lines)
    assert all("output" in good for good in out[1::2])
    for index, (_, code) in enumerate(REFUSED):
        error = out[2 * index]["error"]
        assert set(error) == {"message", "file", "line", "column", "byte", "expected", "code"}
        assert (error["line"], error["code"]) == (2 * index + 1, code), error
        assert not error["message"].startswith(("line ", f"{2 * index + 1}:")), error
    nan = out[-2]["error"]
    assert (nan["line"], nan["column"], nan["code"]) == (len(lines) - 1, 14, "value")
    assert nan["message"].startswith("NaN is not a JSON number")


def test_a_request_of_megabytes_compiles_and_one_over_the_limit_is_refused() -> None:
    from lw_narraeon.compiler import REQUEST_LIMITS

    text = "雾" * (1024 * 1024)  # 3 MiB of UTF-8, over a check request's 1 MiB line
    big = json.dumps({"provider": "chat_completions", "messages": [{"role": "player_input", "markdown": text}]},
                     ensure_ascii=False)
    huge = json.dumps({"provider": "chat_completions", "messages": [
        {"role": "player_input", "markdown": "x" * (REQUEST_LIMITS.max_bytes + 1)}]})
    result = _lw(["prompt", "compile", "--batch", "-"], input=f"{big}\n{huge}\n{json.dumps(GOOD)}\n")
    first, second, third = (json.loads(line) for line in result.output.splitlines())
    assert first["output"]["messages"] == [{"role": "user", "content": text}]
    assert second["error"]["line"] == 2 and second["error"]["code"] == "limit"
    assert "output" in third and result.exit_code == 1


def test_cli_dir_handles() -> None:
    encoded = _lw(["prompt", "dir-handle", "encode", "", "characters/张三", "a b"])
    assert encoded.output.splitlines() == ["@dir-/", "@dir-/characters/%E5%BC%A0%E4%B8%89", "@dir-/a%20b"]
    parsed = _lw(["prompt", "dir-handle", "parse", "@dir-/", "@dir-/characters/%E5%BC%A0%E4%B8%89"])
    assert parsed.output.splitlines() == ["", "characters/张三"]


def test_cli_errors_are_one_line_exit_1(tmp_path) -> None:
    for args in (
        ["prompt", "dir-handle", "parse", "@dir-/%e5%bc%a0"],
        ["prompt", "dir-handle", "encode", "a//b"],
        ["prompt", "compile", "--batch", str(tmp_path / "missing.jsonl")],
    ):
        proc = subprocess.run([sys.executable, "-m", "lwcore.cli", *args], capture_output=True, text=True)
        if proc.returncode != 0 and "No module named lwcore.cli.__main__" in proc.stderr:
            proc = subprocess.run(
                [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])", *args],
                capture_output=True, text=True,
            )
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error:") and "Traceback" not in proc.stderr


def test_cli_batch_is_line_by_line_for_a_long_running_host() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])", "prompt", "compile", "--batch", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        for text in ("one", "二"):
            request = {"provider": "openai_responses", "messages": [{"role": "player_input", "markdown": text}]}
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            assert reply["output"]["messages"] == [{"role": "user", "content": text}]
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        proc.stdout.close()
        proc.stderr.close()
