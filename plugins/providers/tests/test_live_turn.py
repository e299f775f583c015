"""Live turns end to end: real ``lw`` subprocesses on provider profiles against loopback servers,
and streamed tool calls through the turn pipeline's checked tool path. A failed or cancelled
turn writes nothing to its room."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from provider_servers import Clock, Fault, ProviderServer, Reply, snapshot, status_fault

from lwcore import profiles
from lwcore.errors import LwError
from lwcore.live import CallOptions, Cancel, TextDelta, calling
from lwcore.profiles import Profile

LW = Path(sys.executable).parent / "lw"
SAY = "我去码头查看那艘空船。"
KEY = "sk-live-test-key-0123456789abcdef"
NARRATION = "雾里传来三声钟响，码头上空无一人。"
TOOLS = Reply("", [("call_1", "skill_check", {"character": "p1", "skill": "侦查"}),
                   ("call_2", "adjust_variable", {"id": "clues_found", "delta": 1})])


def lw(*args: str, home: Path, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("LW_") and not k.endswith("_API_KEY")}
    base.update({"LW_HOME": str(home), **(env or {})})
    return subprocess.run([str(LW), *args], capture_output=True, text=True, env=base, timeout=timeout)


def name_profile(room: Path, name: str) -> None:
    text = (room / "room.yaml").read_text(encoding="utf-8")
    (room / "room.yaml").write_text(f"profile: {name}\n{text}", encoding="utf-8")


def keeper_lines(room: Path) -> list[str]:
    lines = [json.loads(line) for line in (room / "history.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [line["text"] for line in lines if line["role"] == "keeper"]


def test_a_room_names_its_profile_and_lw_turn_plays_on_it(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    with ProviderServer("chat_completions", [TOOLS, Reply(NARRATION)]) as server:
        added = lw("provider", "add", "local", "--endpoint", server.url, "--model", "local", "--no-key", home=home)
        assert added.returncode == 0, added.stderr
        name_profile(room_dir, "local")
        played = lw("turn", str(room_dir), "--say", SAY, "--stream", home=home)
    assert played.returncode == 0, played.stderr
    assert NARRATION in played.stdout and "warning" not in played.stderr
    assert keeper_lines(room_dir)[-1] == NARRATION
    first, second = server.requests
    assert first.body["model"] == "local" and first.body["stream"] is True
    assert first.body["tools"][0]["type"] == "function" and "authorization" not in first.headers
    assert second.body["messages"][-1]["role"] == "tool"  # the tool results went back in Chat Completions shape


def test_the_issues_command_sends_an_openai_body_with_the_openai_key(tmp_path: Path, room_dir: Path) -> None:
    """``--endpoint …/v1/chat/completions --model local``: the path says Chat Completions."""
    home = tmp_path / "home"
    with ProviderServer("chat_completions", [Reply(NARRATION)], key=KEY) as server:
        url = server.base + "/v1/chat/completions"
        done = lw("turn", str(room_dir), "--say", SAY, "--endpoint", url, "--model", "local", "--no-stream",
                  home=home, env={"OPENAI_API_KEY": KEY})
    assert done.returncode == 0, done.stderr
    seen = server.requests[0]
    assert seen.headers["authorization"] == f"Bearer {KEY}" and "anthropic-version" not in seen.headers
    assert seen.body["model"] == "local" and "system" not in seen.body and seen.body["messages"][0]["role"] == "system"
    assert KEY not in done.stdout + done.stderr


def test_no_key_for_a_keyless_protocol_warns_and_sends_without_one(tmp_path: Path, room_dir: Path) -> None:
    with ProviderServer("chat_completions", [Reply(NARRATION)]) as server:
        done = lw("turn", str(room_dir), "--say", SAY, "--endpoint", server.url, "--model", "local", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "warning: OPENAI_API_KEY is not set" in done.stderr and "authorization" not in server.requests[0].headers


@pytest.mark.parametrize("args,words", [
    (("--model", "m"), "ANTHROPIC_API_KEY"),                       # Anthropic always wants a key
    ((), "no model"),                                               # no request without a model
    (("--model", "m", "--protocol", "chat_completions"), "path"),   # the path says otherwise
])
def test_a_live_turn_that_cannot_go_out_sends_nothing(tmp_path: Path, room_dir: Path, args: tuple, words: str) -> None:
    before = snapshot(room_dir)
    with ProviderServer("anthropic_messages", [Reply(NARRATION)]) as server:
        done = lw("turn", str(room_dir), "--say", SAY, "--endpoint", server.url, *args, home=tmp_path)
    assert done.returncode == 1 and words in done.stderr and "Traceback" not in done.stderr
    assert server.requests == [] and snapshot(room_dir) == before


FAULTS = {
    "429": ([status_fault("chat_completions", 429, {"retry-after": "0"})] * 2, "HTTP 429"),
    "529": ([status_fault("chat_completions", 529)] * 2, "HTTP 529"),
    "500": ([status_fault("chat_completions", 500)] * 2, "HTTP 500"),
    "401": ([status_fault("chat_completions", 401)], "HTTP 401"),
    "403": ([status_fault("chat_completions", 403)], "HTTP 403"),
    "cut": ([Fault("cut", after=3)], "cut off"),
    "garbage": ([Fault("garbage")], "stream"),
    "cut-second-step": ([None, Fault("cut", after=3)], "cut off"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_fault_is_a_located_error_and_the_room_is_untouched(tmp_path: Path, room_dir: Path, fault: str) -> None:
    faults, words = FAULTS[fault]
    home = tmp_path / "home"
    before = snapshot(room_dir)
    with ProviderServer("chat_completions", [TOOLS, Reply(NARRATION)], faults=faults) as server:
        profiles.save(home, Profile(name="local", protocol="chat_completions", endpoint=server.url, model="local",
                                    retries=1))
        name_profile(room_dir, "local")
        before = snapshot(room_dir)
        done = lw("turn", str(room_dir), "--say", SAY, "--stream", home=home)
    assert done.returncode == 1, done.stdout
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith("error: profile 'local' (") and server.url in error and words in error, error
    assert "(expected " in error and "Traceback" not in done.stderr
    assert snapshot(room_dir) == before


def test_a_protocol_mismatch_names_the_protocol_that_answered(tmp_path: Path, room_dir: Path) -> None:
    home = tmp_path / "home"
    with ProviderServer("chat_completions", [Reply(NARRATION)]) as server:
        lw("provider", "add", "wrong", "--protocol", "anthropic_messages", "--endpoint", server.base + "/v1/complete",
           "--model", "m", "--key-env", "SOME_KEY", home=home)
        before = snapshot(room_dir)
        # the profile's endpoint is edited by hand to the chat server's path
        path = home / "providers" / "wrong.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("/v1/complete", "/v1/chat/completions"), "utf-8")
        done = lw("turn", str(room_dir), "--say", SAY, "--profile", "wrong", home=home, env={"SOME_KEY": "k"})
    assert done.returncode == 1 and "Chat Completions shape, not Anthropic Messages" in done.stderr
    assert "--protocol chat_completions" in done.stderr and snapshot(room_dir) == before


def test_dry_run_compiles_only_on_a_room_with_a_profile(tmp_path: Path, room_dir: Path) -> None:
    name_profile(room_dir, "nowhere")
    before = snapshot(room_dir)
    done = lw("turn", str(room_dir), "--say", SAY, "--dry-run", home=tmp_path)
    assert done.returncode == 0 and "compiled only" in done.stdout and snapshot(room_dir) == before
    assert "warning: the room's profile 'nowhere' cannot be used" in done.stderr
    missing = lw("turn", str(room_dir), "--say", SAY, home=tmp_path)
    assert missing.returncode == 1 and "no provider profile named 'nowhere'" in missing.stderr


def test_a_dry_run_compiles_for_the_rooms_profile(tmp_path: Path, room_dir: Path) -> None:
    """What a dry run prints is what the room's profile would be sent: its protocol, its model."""
    name_profile(room_dir, "ollama")  # a bundled preset: Chat Completions, model qwen2.5:7b
    done = lw("turn", str(room_dir), "--say", SAY, "--dry-run", "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)["payload"]
    assert payload["model"] == "qwen2.5:7b" and payload["messages"][0]["role"] == "system" and "system" not in payload


# --- in process: the pipeline with streamed replies ----------------------------------------------


def _play(kernel, room: Path, protocol: str, server: ProviderServer, *, stream: bool, cancel: Cancel | None = None,
          deltas: list | None = None):
    profile = Profile(name="loop", protocol=protocol, endpoint=server.url, model="m", retries=0)
    options = CallOptions(profile=profile, stream=stream, cancel=cancel, sleep=Clock(),
                          on_delta=deltas.append if deltas is not None else None)
    with calling(options):
        return kernel.turn(room, SAY, provider=protocol, endpoint=server.url, api_key=None, model="m",
                           rng=random.Random(7))


@pytest.mark.parametrize("protocol", ["anthropic_messages", "chat_completions", "openai_responses"])
def test_streamed_tool_calls_run_through_the_same_checked_tool_path(kernel, tmp_path: Path, room_dir: Path,
                                                                   protocol: str) -> None:
    import shutil

    other = tmp_path / "other"
    shutil.copytree(room_dir, other)
    bad = Reply("", [("call_9", "adjust_variable", {"id": "clues_found", "delta": "lots"})])
    script = [TOOLS, bad, Reply(NARRATION)]
    with ProviderServer(protocol, script, chunk=2) as plain_server:
        plain = _play(kernel, room_dir, protocol, plain_server, stream=False)
    deltas: list = []
    with ProviderServer(protocol, script, chunk=2) as stream_server:
        streamed = _play(kernel, other, protocol, stream_server, stream=True, deltas=deltas)
    assert all(r.body.get("stream") for r in stream_server.requests) and len(stream_server.requests) == 3
    a, b = plain.applied.to_json(), streamed.applied.to_json()
    assert a == b and b["narration"].startswith(NARRATION[:4])
    results = [r for r in streamed.applied.results]
    assert [r.name for r in results] == ["skill_check", "adjust_variable", "adjust_variable"]
    assert results[2].is_error and not results[1].is_error  # the checked path refused the bad argument
    assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == NARRATION
    assert snapshot(room_dir) == snapshot(other)


def test_a_turn_cancelled_between_tool_steps_writes_nothing(kernel, room_dir: Path) -> None:
    before = snapshot(room_dir)
    cancel = Cancel()
    with ProviderServer("chat_completions", [TOOLS, Reply(NARRATION)], faults=[None, Fault("hang", delay=10)]) as server:
        threading.Timer(0.5, cancel.set).start()
        with pytest.raises(LwError) as info:
            _play(kernel, room_dir, "chat_completions", server, stream=True, cancel=cancel)
    assert info.value.code == "cancelled" and len(server.requests) == 2
    assert snapshot(room_dir) == before


def test_lw_provider_commands(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with ProviderServer("anthropic_messages", [Reply(NARRATION)], key=KEY) as server:
        assert lw("provider", "add", "claude", "--endpoint", server.url, "--model", "claude-x", "--set",
                  "temperature=0.5", home=home).returncode == 0
        listed = lw("provider", "list", "--json", home=home)
        row = json.loads(listed.stdout)[0]
        assert (row["name"], row["source"]) == ("claude", "data dir")  # the operator's own first, over the preset
        assert row["protocol"] == "anthropic_messages" and row["key_env"] == "ANTHROPIC_API_KEY"
        assert row["key_set"] is False and row["sampling"] == {"temperature": 0.5}
        tested = lw("provider", "test", "claude", home=home, env={"ANTHROPIC_API_KEY": KEY})
        assert tested.returncode == 0 and NARRATION in tested.stdout and "first token" in tested.stdout
        assert server.requests[0].body["temperature"] == 0.5 and server.requests[0].body["stream"] is True
        unset = lw("provider", "test", "claude", home=home)
        assert unset.returncode == 1 and "ANTHROPIC_API_KEY" in unset.stderr and len(server.requests) == 1
        wrong = lw("provider", "test", "claude", home=home, env={"ANTHROPIC_API_KEY": "nope-" + KEY[::-1]})
        assert wrong.returncode == 1 and "HTTP 401" in wrong.stderr and KEY[::-1] not in wrong.stderr
    again = lw("provider", "add", "claude", "--endpoint", server.url, "--model", "y", home=home)
    assert again.returncode == 1 and "--force" in again.stderr
    shown = lw("provider", "show", "claude", "--json", home=home)
    assert json.loads(shown.stdout)["model"] == "claude-x"
    assert lw("provider", "remove", "claude", home=home).returncode == 0
    assert "no provider profiles" in lw("provider", "list", home=home).stdout
    left = json.loads(lw("provider", "list", "--json", home=home).stdout)  # the bundled presets stay
    assert left and all(r["source"] == "bundled preset of providers" and r["bundled"] for r in left)
    assert {r["name"]: r["model"] for r in left}["claude"] == "claude-sonnet-4-5"
    bad = lw("provider", "add", "x", "--endpoint", server.url, "--model", "m", "--set", "temperature", home=home)
    assert bad.returncode == 1 and "sampling option" in bad.stderr


@pytest.mark.parametrize("text,line,words", [
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions\nmodel: m\napi_key: abc\n", 4, "'api_key'"),
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions\nmodel: m\nsampling:\n  stop: sk-abcdef0123\n",
     5, "sampling.stop looks like one"),
    ("protocol: chat_completions\nendpoint: http://u:p@h/v1/chat/completions\nmodel: m\n", 2, "credentials"),
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions?key=abc\nmodel: m\n", 2, "credentials"),
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions\nmodel: m\nkey_env: Bearer abc\n", 4,
     "key_env looks like one"),
])
def test_a_profile_holding_a_key_is_refused_where_it_holds_it(tmp_path: Path, room_dir: Path, text: str, line: int,
                                                              words: str) -> None:
    home = tmp_path / "home"
    (home / "providers").mkdir(parents=True)
    (home / "providers" / "leaky.yaml").write_text(text, encoding="utf-8")
    name_profile(room_dir, "leaky")
    for args in (("provider", "show", "leaky"), ("turn", str(room_dir), "--say", SAY)):
        done = lw(*args, home=home)
        assert done.returncode == 1 and "a profile never holds a key" in done.stderr and words in done.stderr
        assert f"leaky.yaml:{line}:" in done.stderr and "abc" not in done.stderr.replace("abcdef", "")
        assert "sk-abcdef0123" not in done.stderr and "u:p@" not in done.stderr


def test_streamed_tokens_never_drive_the_terminal(tmp_path: Path, room_dir: Path) -> None:
    """A model streaming ESC sequences (OSC 52 clipboard, title), a carriage return, C1 and bidi
    controls: ``lw turn --stream`` prints each token in a visible form (the attacker's L3)."""
    home = tmp_path / "home"
    hostile = "雾散了。\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\rOVER\x9b2J\u202e"
    with ProviderServer("chat_completions", [Reply(hostile)], chunk=3) as server:
        profiles.save(home, Profile(name="local", protocol="chat_completions", endpoint=server.url, model="local"))
        name_profile(room_dir, "local")
        played = lw("turn", str(room_dir), "--say", SAY, "--stream", home=home)
    assert played.returncode == 0, played.stderr
    out = played.stdout + played.stderr
    assert not any(c in out for c in "\x1b\x07\r\x9b\u202e"), [c for c in out if not c.isprintable() and c != "\n"]
    assert "^[]52;c;ZXZpbA==^G^[]0;pwned^G^MOVER" in played.stdout
