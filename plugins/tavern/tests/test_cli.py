"""The plugin through a real kernel and ``lw tavern``; hostile files never give a traceback."""

from __future__ import annotations

import json
import re
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
    assert "1 of 3 entries fire at message 3" in out  # timed effects count chat messages (3 in the chat)
    assert "+ Fog Harbor.0" in out and "key '雾港' and secondary '钟声'" in out
    assert "Fog Harbor.1 The lighthouse keeper  [delay_until_recursion: waits for recursion level 2]" in out  # delay 3: over
    code, out, _ = run(capsys, "tavern", "activate", str(FIXTURES / "harbor.worldinfo.json"),
                       "--chat", str(FIXTURES / "harbor.chat.jsonl"), "--all", "--context-window", "100")
    assert code == 0 and "of 3 entries fire" in out
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
    assert code == 0 and data["turn"] == 2 and data["fired"] == ["0"]  # the generation at 2 chat messages
    assert data["placement"]["before"] == ["夜钟。"] and data["state"]["turn"] == 2
    code, out, _ = run(capsys, "tavern", "activate", str(book), "--chat", str(chat), "--json")
    assert json.loads(out)["fired"] == []  # no variables: the condition fails closed


def test_inspect_and_preset_and_convert(capsys, tmp_path):
    code, out, _ = run(capsys, "tavern", "inspect", str(FIXTURES / "tidewatch.heavy.card.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["holds"]["hooks"] == 1 and data["holds"]["variable_declarations"] == 1
    assert any(s["what"] == "extensions.loreweaver_hooks" for s in data["imports"]["pc"]["strips"])
    code, out, _ = run(capsys, "tavern", "preset", str(FIXTURES / "night-watch.preset.json"))
    assert code == 0 and "[late] 16 characters: 'Stay in the fog.'" in out
    native = tmp_path / "harbor.lorecard.json"
    code, _, _ = run(capsys, "tavern", "convert", str(FIXTURES / "harbor.card.json"), str(native))
    assert code == 0 and json.loads(native.read_text(encoding="utf-8"))["format"] == "loreweaver.card"
    back = tmp_path / "harbor.card.json"
    code, _, _ = run(capsys, "tavern", "convert", str(native), str(back))
    assert code == 0 and json.loads(back.read_text(encoding="utf-8"))["data"]["name"] == "沈默"


# --- every command reads what `lw tavern import` reads ----------------------------------------------

HEAVY = json.loads((FIXTURES / "tidewatch.heavy.card.json").read_text(encoding="utf-8"))


def containers(tmp_path: Path) -> dict[str, Path]:
    """The heavy card as JSON, PNG (zTXt ``chara``) and CHARX, and as a native card."""
    from lwcore.cards.write import card_charx, card_png

    from lw_tavern.lorecard import from_card

    files = {"json": ("heavy.json", json.dumps(HEAVY, ensure_ascii=False).encode("utf-8")),
             "png": ("heavy.png", card_png(HEAVY, keywords=("chara",), kind="zTXt")),
             "charx": ("heavy.charx", card_charx(HEAVY)),
             "lorecard": ("heavy.lorecard.json", json.dumps(from_card(HEAVY).model_dump(mode="json"),
                                                            ensure_ascii=False).encode("utf-8"))}
    out = {}
    for name, (file, data) in files.items():
        (tmp_path / file).write_bytes(data)
        out[name] = tmp_path / file
    return out


@pytest.mark.parametrize("container", ["json", "png", "charx", "lorecard"])
def test_inspect_reads_every_container(capsys, tmp_path, container):
    path = containers(tmp_path)[container]
    code, out, err = run(capsys, "tavern", "inspect", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["name"] == "潮汐守望" and data["holds"]["book_entries"] == 6 and data["holds"]["hooks"] == 1
    assert set(data["imports"]) == {"pc", "companion", "world"}
    code, out, err = run(capsys, "tavern", "inspect", str(path))
    assert code == 0 and "潮汐守望" in out and "invalid UTF-8" not in out + err


@pytest.mark.parametrize("container", ["json", "png", "charx", "lorecard"])
def test_activate_reads_every_container(capsys, tmp_path, container):
    path = containers(tmp_path)[container]
    chat = tmp_path / "chat.json"
    chat.write_text('["村里的真凶是谁？"]', encoding="utf-8")
    code, out, err = run(capsys, "tavern", "activate", str(path), "--chat", str(chat), "--json")
    assert code == 0, err
    data = json.loads(out)
    titles = {data["verdicts"][k]["title"] for k in data["fired"]}
    assert titles == {"渔村", "真相"}  # the constant one and the keyed one, the book as written


@pytest.mark.parametrize("container", ["json", "png", "charx"])
def test_convert_reads_every_container(capsys, tmp_path, container):
    path = containers(tmp_path)[container]
    native = tmp_path / "out.lorecard.json"
    code, _, err = run(capsys, "tavern", "convert", str(path), str(native))
    assert code == 0, err
    assert json.loads(native.read_text(encoding="utf-8")) == json.loads(containers(tmp_path)["lorecard"].read_bytes())


def test_a_world_info_file_converts_to_a_native_card(capsys, tmp_path):
    native = tmp_path / "harbor.lorecard.json"
    code, _, err = run(capsys, "tavern", "convert", str(FIXTURES / "harbor.worldinfo.json"), str(native))
    assert code == 0, err
    card = json.loads(native.read_text(encoding="utf-8"))
    assert card["format"] == "loreweaver.card" and len(card["worldbook"]) == 3
    back = tmp_path / "harbor.back.json"  # and back: a world-info file again, not a card (issue 26)
    code, out, err = run(capsys, "tavern", "convert", str(native), str(back), "--json")
    assert code == 0, err and json.loads(out)["format"] == "worldinfo"
    again = json.loads(back.read_text(encoding="utf-8"))
    original = json.loads((FIXTURES / "harbor.worldinfo.json").read_text(encoding="utf-8"))
    assert "spec" not in again and isinstance(again["entries"], dict) and len(again["entries"]) == 3
    assert [e["content"] for e in again["entries"].values()] == [e["content"] for e in original["entries"].values()]
    assert [e["key"] for e in again["entries"].values()] == [e["key"] for e in original["entries"].values()]


def test_activate_a_native_card_with_entries_without_ids(capsys, tmp_path):
    chat = tmp_path / "chat.json"
    chat.write_text('["点灯人提着灯油走向巷尾"]', encoding="utf-8")
    code, out, err = run(capsys, "tavern", "activate", str(FIXTURES / "lantern-row.lorecard.json"), "--chat", str(chat),
                         "--json", "--all")
    assert code == 0, err
    data = json.loads(out)
    assert set(data["verdicts"]) == {"0", "1~2", "1", "3", "4"}  # one verdict per entry: the keys are the handles
    assert sorted(data["verdicts"][k]["title"] for k in data["fired"]) == ["巷尾", "灯油", "点灯人"]


def test_convert_a_native_card_without_ids_keeps_every_entry(capsys, tmp_path):
    out = tmp_path / "lantern.card.json"
    code, _, err = run(capsys, "tavern", "convert", str(FIXTURES / "lantern-row.lorecard.json"), str(out))
    assert code == 0, err
    entries = json.loads(out.read_text(encoding="utf-8"))["data"]["character_book"]["entries"]
    assert [e["id"] for e in entries] == [0, 1, 2, 3, 4]


def test_inspect_shows_each_import_from_its_plan(capsys, tmp_path):
    """What inspect says each import keeps, strips and changes is the import plan itself."""
    from dataclasses import asdict

    from lw_tavern.cardfile import read_material
    from lw_tavern.room.imports import Source, plan_import

    path = FIXTURES / "tidewatch.heavy.card.json"
    code, out, _ = run(capsys, "tavern", "inspect", str(path), "--json")
    data = json.loads(out)["imports"]
    for kind in ("pc", "companion", "world"):
        plan = plan_import(None, read_material(path), Source(path, "tidewatch.heavy", str(path)), kind)
        assert data[kind]["keeps"] == list(plan.report.carried)
        assert data[kind]["strips"] == [{"what": d.field, "why": d.reason} for d in plan.report.dropped]
        assert data[kind]["changes"] == [{"what": d.field, "why": d.reason} for d in plan.changed]
        assert asdict(plan)  # a real plan
    pc, world = data["pc"], data["world"]
    stripped = {s["what"]: s["why"] for s in pc["strips"]}
    assert "keeper-only lore" in stripped["character_book entry '真相'"]
    assert "hook script" in stripped["extensions.loreweaver_hooks"]
    assert "declaration" in stripped["character_book entry '[InitVar]变量初始化'"]
    for plan in (pc, data["companion"], world):
        changes = {c["what"]: c["why"] for c in plan["changes"]}
        assert changes["every entry"].startswith("id regenerated")
        if plan is world:  # a keeper's world keeps what the author set (issue 26), with its size
            assert changes["entry '渔村'"].startswith("constant: sent every turn")
            assert "characters, about" in changes["entry '渔村'"] and ".lore constant off" in changes["entry '渔村'"]
            assert changes["entry '夜里的灯塔'"].startswith("@@activate kept")
        else:  # a person's lore fires by its keys
            assert changes["entry '渔村'"].startswith("constant turned off")
            assert changes["entry '夜里的灯塔'"].startswith("@@activate removed")
    world_changes = {c["what"]: c["why"] for c in world["changes"]}
    assert world_changes["entry '真相'"].startswith("secret: kept for the keeper only")
    assert "disabled" in world_changes["entry '[RENDER:status]'"] and "disabled" in world_changes["entry 'frame'"]
    assert "entry '真相'" not in {c["what"] for c in pc["changes"]}
    assert any("1 hook script" in k for k in world["keeps"]) and any("seeded" in k for k in world["keeps"])
    assert {s["what"] for s in world["strips"]} >= {"extensions.regex_scripts"}
    assert [k for k in pc["keeps"] if not k.endswith("entries")] == ["name", "description", "personality"]
    code, text, _ = run(capsys, "tavern", "inspect", str(path))
    assert "as pc" in text and "as companion" in text and "as world" in text
    assert "~ entry '渔村': constant turned off" in text and "~ entry '渔村': constant: sent every turn" in text


def test_inspect_a_world_book_on_its_own(capsys, tmp_path):
    code, out, _ = run(capsys, "tavern", "inspect", str(FIXTURES / "harbor.worldinfo.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["holds"]["book_entries"] == 3
    assert "no person" in data["imports"]["pc"]["refused"] and "no person" in data["imports"]["companion"]["refused"]
    assert "refused" not in data["imports"]["world"] and data["imports"]["world"]["keeps"]


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


MATCH_FLAGS = {  # flag: (where the card keeps the text, the text)
    "matchCharacterDescription": (("description",), "{{char}} keeps the lighthouse lamp lit."),
    "matchCharacterPersonality": (("personality",), "Stubborn as the lighthouse rock."),
    "matchScenario": (("scenario",), "A storm closes on the lighthouse."),
    "matchCreatorNotes": (("creator_notes",), "Play the lighthouse slowly."),
    "matchCharacterDepthPrompt": (("extensions", "depth_prompt", "prompt"), "Mention the lighthouse."),
    "matchPersonaDescription": (None, "A sailor who fears the lighthouse."),
}


def snake(flag: str) -> str:
    """A world-info flag as a character_book entry's extensions spell it."""
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), flag)


def card_with_texts(path: Path, flag: str | None) -> Path:
    """A V2 card whose every text names the lighthouse (the persona comes from --persona); its
    one entry, keyed "lighthouse", scans the text ``flag`` opts into (none: the chat only)."""
    data: dict = {"name": "Wren", "description": "", "personality": "", "scenario": "", "creator_notes": "",
                  "extensions": {"depth_prompt": {"prompt": "", "depth": 4}}}
    for where, text in MATCH_FLAGS.values():
        if where is not None:
            target = data
            for key in where[:-1]:
                target = target[key]
            target[where[-1]] = text
    entry = {"keys": ["lighthouse"], "content": "The lamp has been out for a year.", "enabled": True,
             "insertion_order": 1, "extensions": {snake(flag): True} if flag else {}}
    data["character_book"] = {"entries": [entry]}
    path.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0", "data": data}), encoding="utf-8")
    return path


@pytest.mark.parametrize("flag", [*MATCH_FLAGS, None])
def test_activate_scans_the_card_text_an_entry_opts_into(capsys, tmp_path, flag):
    """Every match* flag against every text: an entry fires from exactly the text its flag names
    (the chat never says "lighthouse"); the persona comes from --persona."""
    card = card_with_texts(tmp_path / "wren.json", flag)
    chat = tmp_path / "chat.json"
    chat.write_text('["We row toward the harbour."]', encoding="utf-8")
    persona = tmp_path / "persona.txt"
    persona.write_text(MATCH_FLAGS["matchPersonaDescription"][1], encoding="utf-8")
    fired = {}
    for with_persona in (False, True):
        extra = ["--persona", str(persona)] if with_persona else []
        code, out, err = run(capsys, "tavern", "activate", str(card), "--chat", str(chat), "--json", *extra)
        assert code == 0, err
        fired[with_persona] = bool(json.loads(out)["fired"])
    if flag is None:
        assert fired == {False: False, True: False}
    elif flag == "matchPersonaDescription":
        assert fired == {False: False, True: True}
    else:
        assert fired == {False: True, True: True}


def test_activate_reads_the_card_name_into_its_texts(capsys, tmp_path):
    card = card_with_texts(tmp_path / "wren.json", "matchCharacterDescription")
    data = json.loads(card.read_text(encoding="utf-8"))
    data["data"]["character_book"]["entries"][0]["keys"] = ["Wren keeps"]
    card.write_text(json.dumps(data), encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text('["Hello."]', encoding="utf-8")
    code, out, err = run(capsys, "tavern", "activate", str(card), "--chat", str(chat), "--json")
    assert code == 0 and json.loads(out)["fired"], err  # "{{char}} keeps" reads "Wren keeps"


@pytest.mark.parametrize("case", ["bad-utf8", "directory", "missing", "huge", "nul-device"])
def test_activate_refuses_a_hostile_persona_file(capsys, tmp_path, case):
    """--persona is a file the command reads: every bad one is refused with its name and a
    non-zero exit, no traceback, and nothing is written."""
    card = card_with_texts(tmp_path / "wren.json", "matchPersonaDescription")
    chat = tmp_path / "chat.json"
    chat.write_text('["Hello."]', encoding="utf-8")
    persona = {"bad-utf8": tmp_path / "p.txt", "directory": tmp_path / "dir", "missing": tmp_path / "none.txt",
               "huge": tmp_path / "big.txt", "nul-device": Path("/dev/zero")}[case]
    if case == "bad-utf8":
        persona.write_bytes(b"a sailor \xff\xfe who fears")
    elif case == "directory":
        persona.mkdir()
    elif case == "huge":
        from lwcore.io.text import DEFAULT_MAX_BYTES

        persona.write_bytes(b"a" * (DEFAULT_MAX_BYTES + 1))
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, "tavern", "activate", str(card), "--chat", str(chat), "--persona", str(persona))
    assert code == (2 if case == "directory" else 1), (out, err)  # a directory is a usage error (click)
    assert str(persona.name) in err and "Traceback" not in err + out and "internal error" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
