"""The plugin through a real kernel and ``lw tavern``; hostile files never give a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lwcore.cli import main
from lwcore.kernel import Kernel

FIXTURES = Path(__file__).parent / "fixtures"


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_kernel_finds_the_plugin(tmp_path):
    kernel = Kernel(data_dir=tmp_path / "lw")
    record = kernel.plugin("tavern")
    assert record.status == "enabled" and record.bundled, record.errors
    assert {"lorecard", "tavern-preset", "tavern-worldinfo-entry", "tavern-worldinfo-settings"} <= set(kernel.schemas)
    assert "tavern" in kernel.cli_commands


def test_lw_schema_lorecard(capsys):
    code, out, _ = run(capsys, "schema", "lorecard")
    schema = json.loads(out)
    assert code == 0 and "worldbook" in schema["properties"] and "format_version" in schema["properties"]


def test_activate_explains(capsys, tmp_path):
    code, out, _ = run(capsys, "tavern", "activate", str(FIXTURES / "harbor.worldinfo.json"),
                       "--chat", str(FIXTURES / "harbor.chat.jsonl"), "--all")
    assert code == 0
    assert "1 of 3 entries fire on turn 1" in out
    assert "+ Fog Harbor.0" in out and "key '雾港' and secondary '钟声'" in out
    assert "Fog Harbor.1 The lighthouse keeper  [delay: delayed until turn 3]" in out
    assert "[disabled]" in out


def test_activate_json_with_state_settings_and_vars(capsys, tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text('{"depth": 5, "recursive": true}', encoding="utf-8")
    state = tmp_path / "state.json"
    state.write_text('{"turn": 4, "sticky": {}, "cooldown": {}}', encoding="utf-8")
    variables = tmp_path / "vars.json"
    variables.write_text('{"世界": {"日": 3}}', encoding="utf-8")
    book = tmp_path / "book.json"
    book.write_text(json.dumps({"entries": {"0": {"key": ["钟声"], "content": "@@if 世界.日 >= 2\n夜钟。"}}},
                               ensure_ascii=False), encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text('["我听见钟声", {"name": "K", "mes": "嗯"}]', encoding="utf-8")
    code, out, _ = run(capsys, "tavern", "activate", str(book), "--chat", str(chat), "--settings", str(settings),
                       "--state", str(state), "--vars", str(variables), "--json")
    data = json.loads(out)
    assert code == 0 and data["turn"] == 5 and data["fired"] == ["0"]
    assert data["placement"]["before"] == ["夜钟。"] and data["state"]["turn"] == 5
    code, out, _ = run(capsys, "tavern", "activate", str(book), "--chat", str(chat), "--json")
    assert json.loads(out)["fired"] == []  # no variables: the condition fails closed


def test_inspect_and_preset_and_convert(capsys, tmp_path):
    code, out, _ = run(capsys, "tavern", "inspect", str(FIXTURES / "tidewatch.heavy.card.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["world"]["hooks"] == 1 and data["world"]["variable_declarations"] == 1
    assert any(s["what"] == "extensions.loreweaver_hooks" for s in data["person"]["strips"])
    code, out, _ = run(capsys, "tavern", "preset", str(FIXTURES / "night-watch.preset.json"))
    assert code == 0 and "[late] 16 characters: 'Stay in the fog.'" in out
    native = tmp_path / "harbor.lorecard.json"
    code, _, _ = run(capsys, "tavern", "convert", str(FIXTURES / "harbor.card.json"), str(native))
    assert code == 0 and json.loads(native.read_text(encoding="utf-8"))["format"] == "loreweaver.card"
    back = tmp_path / "harbor.card.json"
    code, _, _ = run(capsys, "tavern", "convert", str(native), str(back))
    assert code == 0 and json.loads(back.read_text(encoding="utf-8"))["data"]["name"] == "沈默"


HOSTILE = {
    "empty.json": b"",
    "truncated.json": b'{"entries": {"0": {"key": ["a"',
    "binary.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "latin1.json": '{"entries": {"0": {"comment": "caf\xe9"}}}'.encode("latin-1"),
    "deep.json": b"[" * 5000 + b"]" * 5000,
    "nan.json": b'{"entries": {"0": {"order": NaN}}}',
    "dupe.json": b'{"entries": {"0": {"key": ["a"], "key": ["b"]}}}',
    "surrogate.json": b'{"entries": {"0": {"content": "\\ud800"}}}',
    "wrongtype.json": b'{"entries": {"0": {"key": {"a": 1}}}}',
    "list.json": b"[1, 2, 3]",
    "huge-number.json": b'{"entries": {"0": {"order": 1' + b"0" * 5000 + b"}}}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["activate", "preset", "inspect", "convert", "lorecard"])
def test_hostile_files_give_located_errors(capsys, tmp_path, name, command):
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    chat = tmp_path / "chat.json"
    chat.write_text('["hi"]', encoding="utf-8")
    args = {
        "activate": ["tavern", "activate", str(path), "--chat", str(chat)],
        "preset": ["tavern", "preset", str(path)],
        "inspect": ["tavern", "inspect", str(path)],
        "convert": ["tavern", "convert", str(path), str(tmp_path / "out.json")],
        "lorecard": ["tavern", "convert", str(path), str(tmp_path / "out.json")],
    }[command]
    if command == "lorecard":
        path.write_bytes(HOSTILE[name].replace(b'{"entries"', b'{"format": "loreweaver.card", "format_version": 1, "worldbook"', 1))
    code, out, err = run(capsys, *args, "--json")
    assert "Traceback" not in out + err and "internal error" not in out + err
    if code == 0:
        return  # a file the command could read (an empty list of entries, say)
    assert code == 1
    error = json.loads(out)["error"]
    assert error["file"] == str(path) and error["message"]


def test_hostile_chat_lines_are_located(capsys, tmp_path):
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"user_name": "a"}\n{"name": "x", "mes": "ok"}\n{"broken\n42\n', encoding="utf-8")
    code, out, _ = run(capsys, "tavern", "activate", str(FIXTURES / "harbor.worldinfo.json"), "--chat", str(chat),
                       "--json")
    errors = json.loads(out)["error"]["errors"]
    assert code == 1 and [e["line"] for e in errors] == [3, 4]
