"""Prep scripts (C.3) through ``run_prep_plan`` in real turns: offered only to the keeper in
the prep phase; a preview changes nothing; the whole plan is checked before anything runs
(an unreachable tool or bad arguments run nothing); a run stops at the first failing
operation and keeps the earlier ones; ``script_ref`` finds the newest installed pack."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import BaseModel, ConfigDict, model_validator

from lwcore.contributions import ToolSpec
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin
from lwcore.provider_adapter import ToolCall
from lwcore.turn.calls import execute_call
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.prep import resolve_script_ref, version_key
from lwcore.turn.room import Room
from lwcore.turn.tools import ToolContext

from .conftest import PROTOCOLS

SETUP = """
const watchers = ["门房老周", "巡夜的李七", "更夫赵三"];
for (const name of watchers) plan("thread_note", {label: name + "看见了什么？"});
plan("define_variable", {id: "floor_seen", kind: "number", minimum: 0, maximum: 3, initial: 0});
plan("adjust_variable", {id: "floor_seen", delta: 9});
"""


def prep(room_dir: Path) -> Path:
    path = room_dir / "room.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("locale: zh\nkeeper:", "locale: zh\nphase: prep\nkeeper:"),
                    encoding="utf-8")
    return room_dir


def anthropic(*calls: tuple[str, dict]) -> dict:
    return {"content": [{"type": "tool_use", "id": f"t{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]}


def reply_for(protocol: str, name: str, args: dict) -> dict:
    arguments = json.dumps(args, ensure_ascii=False)
    if protocol == "anthropic_messages":
        return anthropic((name, args))
    if protocol == "chat_completions":
        return {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function", "function": {"name": name, "arguments": arguments}}]}}]}
    return {"output": [{"type": "function_call", "id": "f0", "call_id": "c0", "name": name, "arguments": arguments}]}


def plan_call(kernel: Kernel, room_dir: Path, args: dict, *, protocol: str = "anthropic_messages", actor: str = "kp"):  # noqa: ANN201
    result = run_turn(kernel, room_dir, "set it up", actor=actor, provider=protocol,
                      reply=reply_for(protocol, "run_prep_plan", args), rng=random.Random(1))
    return result.applied.results[0]


def state(room_dir: Path) -> dict[str, bytes]:
    """The room's state files, less what every applied turn writes: the history it appends to
    and the world book's timed state (its turn counter advances with each turn)."""
    every_turn = {"history.jsonl", "worldbook_timed.yaml"}
    return {str(p.relative_to(room_dir)): p.read_bytes() for p in room_dir.rglob("*")
            if p.is_file() and p.name not in every_turn and ".lw" not in p.relative_to(room_dir).parts}


def test_offered_only_to_the_keeper_in_the_prep_phase(kernel: Kernel, room_dir: Path) -> None:
    assert "run_prep_plan" not in compile_turn(kernel, room_dir, "x", actor="kp").tool_names
    prep(room_dir)
    assert "run_prep_plan" in compile_turn(kernel, room_dir, "x", actor="kp").tool_names
    assert "run_prep_plan" not in compile_turn(kernel, room_dir, "x", actor="p1").tool_names


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_preview_then_apply(kernel: Kernel, room_dir: Path, protocol: str) -> None:
    prep(room_dir)
    before = state(room_dir)
    preview = plan_call(kernel, room_dir, {"script": SETUP}, protocol=protocol)
    assert not preview.is_error, preview.content
    ops = preview.content["operations"]
    assert [(o["n"], o["tool"], o["line"]) for o in ops] == [
        (1, "thread_note", 3), (2, "thread_note", 3), (3, "thread_note", 3), (4, "define_variable", 4),
        (5, "adjust_variable", 5)]
    assert ops[0]["args"] == {"label": "门房老周看见了什么？"} and preview.content["applied"] is False
    assert state(room_dir) == before  # a preview changes nothing
    done = plan_call(kernel, room_dir, {"script": SETUP, "apply": True}, protocol=protocol)
    assert not done.is_error, done.content
    assert done.content["count"] == 5 and done.content["results"][4]["result"]["value"] == 3  # clamped by the tool
    room = Room.load(room_dir, kernel)
    assert room.variable("floor_seen").value == 3 and len(room.documents.all("thread")) == 3
    summary = [e for e in room.history.all() if e.data and e.data.get("kind") == "prep_plan"]
    assert summary[-1].audience == "keeper" and "5 operations run" in summary[-1].text


@pytest.mark.parametrize(("script", "message", "line"), [
    ('plan("thread_note", {label: "a"});\nplan("story_next", {});', "does not offer 'story_next'", 2),
    ('plan("thread_note", {label: "a"});\nplan("run_prep_plan", {script: "1"});', "does not offer 'run_prep_plan'", 2),
    ('plan("thread_note", {label: "a"});\n\nplan("thread_note", {label: 7});', "invalid arguments for 'thread_note'", 3),
    ('plan("define_variable", {id: "x", kind: "colour"});', "invalid arguments for 'define_variable'", 1),
    ('plan("thread_note", {label: "a"});\nplan("adjust_variable", {id: "clues_found", delta: "1"});',
     "invalid arguments for 'adjust_variable'", 2),  # checked as strictly as the call will be
    ('plan("adjust_variable", {id: "clues_found", delta: true});', "invalid arguments for 'adjust_variable'", 1),
    ('plan("thread_note", {label: "a"})\nthrow new Error("no")', "Error: no", 2),
    ("plan(", "SyntaxError", 1),
    ("for (let i = 0; i < 201; i++) plan('thread_note', {label: 'x' + i});", "200", None),
])
def test_a_plan_that_cannot_run_whole_runs_nothing(kernel: Kernel, room_dir: Path, script: str, message: str,
                                                   line: int | None) -> None:
    prep(room_dir)
    before = state(room_dir)
    result = plan_call(kernel, room_dir, {"script": script, "apply": True})
    assert result.is_error and message in result.content["error"], result.content
    if line is not None:
        assert result.content["error"].startswith(f"prep.js:{line}")
    assert state(room_dir) == before


def test_a_failing_operation_stops_the_run_and_the_earlier_ones_stay(kernel: Kernel, room_dir: Path) -> None:
    prep(room_dir)
    script = ('plan("define_variable", {id: "kept", kind: "number", initial: 2});\n'
              'plan("set_variable", {id: "never_declared", value: 1});\n'
              'plan("thread_note", {label: "not reached"});')
    result = plan_call(kernel, room_dir, {"script": script, "apply": True})
    assert result.is_error
    error = result.content["error"]
    assert error.startswith("prep.js:2: operation 2 set_variable failed") and "operations 1-1 ran and stay" in error
    room = Room.load(room_dir, kernel)
    assert room.variable("kept").value == 2 and room.documents.all("thread") == []


def with_tool(tmp_path: Path, room_dir: Path, plugin_id: str, spec: ToolSpec) -> Kernel:
    """A kernel with an in-process plugin registering ``spec``, offered in the (prep) room."""
    @hookimpl
    def lw_tools(register):  # noqa: ANN001, ANN202
        register(spec)

    kernel = Kernel(data_dir=tmp_path / "d", env={}, plugins=[InProcessPlugin(
        {"id": plugin_id, "version": "1", "tier": "code", "provides": ["tools"]}, SimpleNamespace(lw_tools=lw_tools))])
    path = prep(room_dir) / "room.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("tool_plugins: [coc7]", f"tool_plugins: [coc7, {plugin_id}]"),
                    encoding="utf-8")
    return kernel


def test_operations_run_through_the_tool_path_a_plugin_bug_is_blamed_on_its_plugin(tmp_path: Path, room_dir: Path) -> None:
    class Args(BaseModel):
        n: int

    def boom(args, ctx):  # noqa: ANN001, ANN202
        raise RuntimeError("plugin bug")

    kernel = with_tool(tmp_path, room_dir, "buggy", ToolSpec("breaks", {"en": "b"}, Args, boom))
    result = plan_call(kernel, room_dir, {"script": 'plan("breaks", {n: 1});', "apply": True})
    assert result.is_error and "RuntimeError: plugin bug" in result.content["error"]
    assert any("plugin bug" in e for e in kernel.plugin("buggy").errors)
    refused = plan_call(kernel, room_dir, {"script": 'plan("breaks", {n: "one"});'})
    assert refused.is_error and "invalid arguments for 'breaks'" in refused.content["error"]


def test_applying_runs_the_arguments_the_gate_validated_without_a_second_check(tmp_path: Path, room_dir: Path) -> None:
    checks: list[int] = []
    seen: list[object] = []

    class Args(BaseModel):
        model_config = ConfigDict(extra="forbid")
        n: int

        @model_validator(mode="after")
        def _count(self) -> "Args":
            checks.append(self.n)
            return self

    class Lookalike(Args):
        """Same fields, another class: not arguments the tool's own model validated."""

    def record(args, ctx):  # noqa: ANN001, ANN202
        seen.append(args)
        return {"n": args.n}

    kernel = with_tool(tmp_path, room_dir, "counting", ToolSpec("counted", {"en": "c"}, Args, record))
    result = plan_call(kernel, room_dir, {"script": 'for (let n = 1; n <= 3; n++) plan("counted", {n});', "apply": True})
    assert not result.is_error, result.content
    assert [r["result"] for r in result.content["results"]] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert checks == [1, 2, 3]  # once each, by the gate; the tool path ran those very instances
    assert [type(a) for a in seen] == [Args] * 3 and [a.n for a in seen] == [1, 2, 3]

    # only an instance of exactly the tool's model skips the check: anything else is a reply's
    # arguments, refused unless they are a JSON object that validates
    room = Room.load(room_dir, kernel)
    ctx = ToolContext(kernel=kernel, room=room, actor=room.file.keeper, keeper=True, locale="zh", rng=random.Random(1))
    other = execute_call(kernel, ToolCall("x", "counted", Lookalike(n=4)), ctx, ["counted"])
    assert other.is_error and "must be a JSON object" in other.content["error"] and len(seen) == 3


def test_a_preview_plans_what_applying_runs(kernel: Kernel, room_dir: Path) -> None:
    prep(room_dir)
    script = 'plan("thread_note", {label: "roll " + Math.floor(Math.random() * 1e9) + " at " + new Date().toISOString()});'
    first = plan_call(kernel, room_dir, {"script": script})
    second = plan_call(kernel, room_dir, {"script": script})
    assert first.content["operations"] == second.content["operations"]
    label = first.content["operations"][0]["args"]["label"]
    assert "1970-01-01T00:00:00.000Z" in label  # the room's game clock, not the host's
    plan_call(kernel, room_dir, {"script": script, "apply": True})
    [thread] = Room.load(room_dir, kernel).documents.all("thread")
    assert thread.data["label"] == label


def install(data_dir: Path, pack: str, version: str, script: str, rel: str = "prep/setup.js") -> None:
    target = data_dir / "packs" / f"{pack}@{version}" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(script, encoding="utf-8")


def test_script_ref_runs_the_newest_installed_version(tmp_path: Path, room_dir: Path) -> None:
    data_dir = tmp_path / "data"
    kernel = Kernel(data_dir=data_dir, env={})
    for version in ("1.9.0", "1.10.0-rc1", "1.10.0", "1.2.0"):
        install(data_dir, "blackmoor", version, f'plan("thread_note", {{label: "from {version}"}});')
    install(data_dir, "blackmoor-extra", "9.0.0", 'plan("thread_note", {label: "wrong pack"});')
    prep(room_dir)
    result = plan_call(kernel, room_dir, {"script_ref": "blackmoor/prep/setup.js"})
    assert result.content["operations"][0]["args"] == {"label": "from 1.10.0"}
    assert result.content["script"] == "blackmoor/prep/setup.js"


@pytest.mark.parametrize(("ref", "message"), [
    ("blackmoor/prep/missing.js", "file not found"),
    ("blackmoor/../../../etc/passwd.js", "leads outside"),
    ("blackmoor/prep/setup.txt", "does not name a .js script"),
    ("nopack/prep/setup.js", "no pack 'nopack' is installed"),
    ("Black Moor/x.js", "is not <pack-id>/<path>"),
    ("blackmoor", "is not <pack-id>/<path>"),
])
def test_bad_script_refs(tmp_path: Path, room_dir: Path, ref: str, message: str) -> None:
    data_dir = tmp_path / "data"
    install(data_dir, "blackmoor", "1.0.0", 'plan("thread_note", {label: "x"});')
    prep(room_dir)
    result = plan_call(Kernel(data_dir=data_dir, env={}), room_dir, {"script_ref": ref})
    assert result.is_error and message in result.content["error"], result.content
    if message != "file not found":  # found missing when it is read
        with pytest.raises(LwError, match=message.split(" '")[0]):
            resolve_script_ref(data_dir, ref)


def test_exactly_one_source(kernel: Kernel, room_dir: Path) -> None:
    prep(room_dir)
    for args in ({}, {"script": "1", "script_ref": "a/b.js"}):
        result = plan_call(kernel, room_dir, args)
        assert result.is_error and "exactly one of script and script_ref" in result.content["error"]


def test_version_order() -> None:
    versions = ["1.10.0", "1.2.0", "1.10.0-rc1", "0.9", "2", "1.10.0-rc2", "1.9.9"]
    assert sorted(versions, key=version_key) == ["0.9", "1.2.0", "1.9.9", "1.10.0-rc1", "1.10.0-rc2", "1.10.0", "2"]


def test_script_ref_follows_the_active_version_of_an_installed_pack(tmp_path: Path, room_dir: Path) -> None:
    from lwcore.pack.build import build_pack
    from lwcore.pack.install import install_pack

    kernel = Kernel(data_dir=tmp_path / "data", env={})
    for version in ("2.0.0", "1.0.0"):  # the older one installed last: it is the active one
        src = tmp_path / f"src-{version}"
        (src / "prep").mkdir(parents=True)
        (src / "prep" / "setup.js").write_text(f'plan("thread_note", {{label: "from {version}"}});', encoding="utf-8")
        (src / "pack.yaml").write_text(f'id: moor\nversion: {version}\nengine: "0.1.0"\nname: Moor\ndescription: d\n'
                                       "license: CC0-1.0\ncontents:\n  prep: [prep/setup.js]\n", encoding="utf-8")
        install_pack(kernel, str(build_pack(kernel, src, tmp_path / f"out-{version}").path))
    prep(room_dir)
    result = plan_call(kernel, room_dir, {"script_ref": "moor/prep/setup.js"})
    assert result.content["operations"][0]["args"] == {"label": "from 1.0.0"}
