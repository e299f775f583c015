"""The tool loop against a fake HTTP server on 127.0.0.1 speaking both protocols (no network)."""

from __future__ import annotations

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room

KEY = "sk-test-secret-key"


def _anthropic_step(step: int) -> dict:
    if step == 0:
        return {"content": [
            {"type": "text", "text": "让我看看。"},
            {"type": "tool_use", "id": "tu1", "name": "skill_check", "input": {"character": "p1", "skill": "侦查"}},
        ], "stop_reason": "tool_use"}
    if step == 1:
        return {"content": [
            {"type": "tool_use", "id": "tu2", "name": "adjust_variable", "input": {"id": "clues_found", "delta": 9}},
        ], "stop_reason": "tool_use"}
    return {"content": [{"type": "text", "text": "你找到了 {{roll:1d4}} 枚鳞片。"}], "stop_reason": "end_turn"}


def _chat_step(step: int) -> dict:
    def call(i, name, args):
        return {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}

    if step == 0:
        message = {"role": "assistant", "content": None,
                   "tool_calls": [call(1, "skill_check", {"character": "p1", "skill": "侦查"})]}
    elif step == 1:
        message = {"role": "assistant", "content": "",
                   "tool_calls": [call(2, "adjust_variable", {"id": "clues_found", "delta": 9})]}
    else:
        message = {"role": "assistant", "content": "你找到了 {{roll:1d4}} 枚鳞片。"}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if step < 2 else "stop"}]}


def _responses_step(step: int) -> dict:
    def call(i, name, args):
        return {"type": "function_call", "id": f"fc{i}", "call_id": f"c{i}", "name": name, "arguments": json.dumps(args)}

    if step == 0:
        output = [call(1, "skill_check", {"character": "p1", "skill": "侦查"})]
    elif step == 1:
        output = [call(2, "adjust_variable", {"id": "clues_found", "delta": 9})]
    else:
        output = [{"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": "你找到了 {{roll:1d4}} 枚鳞片。"}]}]
    return {"object": "response", "status": "completed", "output": output}


class FakeProvider:
    """A threaded loopback server: answers step N of a scripted conversation per request."""

    def __init__(self, script, *, status: int = 200, endless: bool = False) -> None:
        self.requests: list[tuple[dict, dict]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length).decode("utf-8"))
                outer.requests.append((dict(self.headers), body))
                step = 0 if endless else len(outer.requests) - 1
                data = json.dumps(script(step)).encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/endpoint"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> FakeProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize(("protocol", "script"), [
    ("anthropic_messages", _anthropic_step), ("chat_completions", _chat_step), ("openai_responses", _responses_step),
])
def test_tool_loop_until_final_reply(kernel, room_dir: Path, protocol: str, script) -> None:
    with FakeProvider(script) as fake:
        result = run_turn(kernel, room_dir, "我检查船舱。", provider=protocol, endpoint=fake.url, api_key=KEY,
                          model="fake-model", rng=random.Random(4))
    applied = result.applied
    assert applied.steps == 3 and len(fake.requests) == 3
    assert [r.name for r in applied.results] == ["skill_check", "adjust_variable"]
    assert applied.results[1].content["value"] == 6  # clamped from 1 + 9
    assert "{{" not in applied.narration and "枚鳞片" in applied.narration
    headers, first = fake.requests[0]
    lowered = {k.lower(): v for k, v in headers.items()}
    if protocol == "anthropic_messages":
        assert lowered["x-api-key"] == KEY and "anthropic-version" in lowered
        last = fake.requests[2][1]["messages"]
        assert last[-1]["content"][0]["type"] == "tool_result" and last[-2]["role"] == "assistant"
    elif protocol == "chat_completions":
        assert lowered["authorization"] == f"Bearer {KEY}"
        last = fake.requests[2][1]["messages"]
        assert last[-1]["role"] == "tool" and last[-2]["tool_calls"][0]["function"]["name"] == "adjust_variable"
    else:
        assert lowered["authorization"] == f"Bearer {KEY}"
        last = fake.requests[2][1]["input"]
        assert last[-1] == {"type": "function_call_output", "call_id": "c2", "output": last[-1]["output"]}
        assert last[-2]["type"] == "function_call" and last[-2]["name"] == "adjust_variable"
    assert first["model"] == "fake-model" and first["tools"]
    # the request grows by exactly the assistant turn and the results each step
    key = "input" if protocol == "openai_responses" else "messages"
    assert len(fake.requests[1][1][key]) == len(first[key]) + 2
    room = Room.load(room_dir, kernel)
    assert room.variable("clues_found").value == 6 and room.history.all()[-1].role == "keeper"


def test_step_limit_stops_an_endless_loop(kernel, room_dir: Path) -> None:
    with FakeProvider(_anthropic_step, endless=True) as fake:
        result = run_turn(kernel, room_dir, "…", endpoint=fake.url, api_key=None, max_steps=3)
    assert len(fake.requests) == 3 and result.applied.steps == 3
    assert any(e.kind == "loop" for e in result.applied.events)


def test_http_errors_are_located_and_never_show_the_key(kernel, room_dir: Path) -> None:
    with FakeProvider(lambda step: {"error": KEY}, status=500) as fake:
        with pytest.raises(LwError) as info:
            run_turn(kernel, room_dir, "…", endpoint=fake.url, api_key=KEY)
    assert "HTTP 500" in str(info.value) and KEY not in str(info.value)
    with pytest.raises(LwError, match="request failed"):
        run_turn(kernel, room_dir, "…", endpoint="http://127.0.0.1:9/none", api_key=KEY)
    with pytest.raises(LwError, match="http"):
        run_turn(kernel, room_dir, "…", endpoint="file:///etc/passwd", api_key=KEY)
    assert Room.load(room_dir, kernel).history.all() == []  # a failed turn writes nothing


def test_lw_turn_endpoint_reads_the_key_from_the_environment(room_dir: Path, tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from lwcore.cli import lw

    monkeypatch.setenv("MY_TEST_KEY", KEY)
    with FakeProvider(_chat_step) as fake:
        out = CliRunner().invoke(lw, [
            "--data-dir", str(tmp_path / "data"), "turn", str(room_dir), "--say", "我检查船舱。",
            "--provider", "chat_completions", "--endpoint", fake.url, "--key-env", "MY_TEST_KEY", "--model", "m", "--seed", "1",
        ], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "in 3 step(s)" in out.output and "枚鳞片" in out.output and KEY not in out.output
    assert {k.lower(): v for k, v in fake.requests[0][0].items()}["authorization"] == f"Bearer {KEY}"


def _tools_while_offered(request: dict) -> dict:
    """A model that calls a tool whenever tools are offered, and narrates when none is."""
    if request.get("tools") and request.get("tool_choice") in (None, "auto"):
        call = {"id": f"c{len(request['messages'])}", "type": "function",
                "function": {"name": "adjust_variable", "arguments": json.dumps({"id": "clues_found", "delta": 1})}}
        message = {"role": "assistant", "content": "我再查一处。", "tool_calls": [call]}
        return {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    message = {"role": "assistant", "content": "雾散了一些，你们看清了船名。"}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


class ScriptedByRequest(FakeProvider):
    """The loopback server answering each request from the request itself."""

    def __init__(self, answer) -> None:
        self.answer = answer
        super().__init__(lambda step: self.answer(self.requests[-1][1]))


def test_a_loop_that_keeps_calling_tools_ends_with_a_request_without_tools(kernel, room_dir: Path) -> None:
    with ScriptedByRequest(_tools_while_offered) as fake:
        result = run_turn(kernel, room_dir, "我检查船舱。", provider="chat_completions", endpoint=fake.url,
                          api_key=None, max_steps=3, rng=random.Random(4))
    bodies = [body for _, body in fake.requests]
    assert len(bodies) == 3 and result.applied.steps == 3
    assert all(body["tools"] for body in bodies[:2]) and "tools" not in bodies[2]
    assert bodies[2]["messages"][-1]["role"] == "tool"  # the conversation so far, the last results included
    assert result.applied.narration == "雾散了一些，你们看清了船名。"
    assert [r.name for r in result.applied.results] == ["adjust_variable", "adjust_variable"]
    notes = [e.summary for e in result.applied.events if e.kind == "loop"]
    assert notes == ["tool loop stopped after 3 steps; the last request was made without tools"]
    room = Room.load(room_dir, kernel)
    assert room.history.all()[-1].text == "雾散了一些，你们看清了船名。"


@pytest.mark.parametrize(("protocol", "off"), [
    ("anthropic_messages", {"tool_choice": {"type": "none"}}), ("openai_responses", {"tool_choice": "none"}),
])
def test_tools_off_keeps_the_definitions_where_the_protocol_needs_them(kernel, room_dir: Path, protocol: str,
                                                                        off: dict) -> None:
    from lwcore.provider_adapter import ToolResult
    from lwcore.turn.compile import compile_turn

    compiled = compile_turn(kernel, room_dir, "…", provider=protocol)
    reply = (_anthropic_step if protocol == "anthropic_messages" else _responses_step)(0)
    results = [ToolResult("c1" if protocol == "openai_responses" else "tu1", "skill_check", {"ok": True})]
    final = compiled.provider.final(compiled.sent, [(reply, results)])
    assert final["tools"] == compiled.request["tools"] and {k: final[k] for k in off} == off
    continued = compiled.provider.continued(compiled.request, reply, results)
    assert {k: v for k, v in final.items() if k != "tool_choice"} == continued


def test_without_tools_off_the_conversation_is_rebuilt_with_no_tools(kernel, room_dir: Path) -> None:
    """An adapter that cannot say how its protocol switches tools off gets the conversation
    rebuilt on a request made with no tools offered."""
    from lwcore.provider_adapter import ToolResult
    from lwcore.turn.compile import compile_turn
    from lwcore.turn.provider import Provider

    compiled = compile_turn(kernel, room_dir, "…", provider="chat_completions")

    class Plain:  # the chat adapter without its tools_off
        def __init__(self, inner) -> None:
            self.inner = inner

        def __getattr__(self, name):
            if name == "tools_off":
                raise AttributeError(name)
            return getattr(self.inner, name)

    provider = Provider(compiled.protocol, Plain(compiled.provider.adapter), compiled.provider.compiler)
    steps = [(_chat_step(0), [ToolResult("c1", "skill_check", {"ok": 1})]),
             (_chat_step(1), [ToolResult("c2", "adjust_variable", {"ok": 2})])]
    final = provider.final(compiled.sent, steps)
    assert "tools" not in final and final["max_tokens"] == compiled.request["max_tokens"]
    assert final["messages"][:len(compiled.request["messages"])] == compiled.request["messages"]
    assert [m["role"] for m in final["messages"][len(compiled.request["messages"]):]] == [
        "assistant", "tool", "assistant", "tool"]
