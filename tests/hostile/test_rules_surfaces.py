"""Hostile input against every rules surface that reads a file or stdin: ``lw rulepack
validate|test|list|show``, rulepacks in the data dir (``lw check``), ``lw check --batch``,
``lw cmd --sheet`` and ``lw roll``. Each case is a real ``lw`` process with a timeout; a
refusal exits 1 with a located message (no traceback, no internal error) and leaves every
file byte-identical. Generation is derandomized: the same cases every run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_kit import hostile_cases, Snapshot, assert_clean, assert_refused, run_lw
from hostile_strategies import (alias_bomb, hostile_json_lines, hostile_scalars, hostile_yaml, invalid_utf8,
                                nested_json, nested_yaml, path_tricks)

CASES = hostile_cases(8)
FEW = hostile_cases(4)


def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hostile")
    (root / "home").mkdir()
    return root, root / "home"


# --- rulepack files ------------------------------------------------------------------------


@CASES
@given(document=hostile_yaml())
def test_rulepack_validate_refuses_hostile_yaml(tmp_path_factory: pytest.TempPathFactory, document: bytes) -> None:
    root, home = fresh(tmp_path_factory)
    pack = root / "hostile.yaml"
    pack.write_bytes(document)
    snapshot = Snapshot(root)
    outcome = run_lw("rulepack", "validate", str(pack), data_dir=home, surface="lw rulepack validate")
    if outcome.code == 0:  # a document that is a harmless pack after all (e.g. a null default)
        assert_clean(outcome)
    else:
        message = assert_refused(outcome, stream="stdout")
        assert f"{pack}:" in message, message
    snapshot.assert_unchanged()


@FEW
@given(document=hostile_yaml())
def test_rulepack_test_refuses_hostile_yaml(tmp_path_factory: pytest.TempPathFactory, document: bytes) -> None:
    root, home = fresh(tmp_path_factory)
    pack = root / "hostile.yaml"
    pack.write_bytes(document)
    snapshot = Snapshot(root)
    outcome = run_lw("rulepack", "test", str(pack), data_dir=home, surface="lw rulepack test")
    if outcome.code == 0:
        assert_clean(outcome)
    else:
        assert_refused(outcome, where=str(pack))
    snapshot.assert_unchanged()


@pytest.mark.parametrize("trick", ["folder", "missing", "/dev/zero", "fifo"])
def test_rulepack_validate_refuses_paths_that_are_not_pack_files(tmp_path: Path, trick: str) -> None:
    import os

    home = tmp_path / "home"
    target = {"folder": tmp_path / "dir.yaml", "missing": tmp_path / "nope.yaml", "fifo": tmp_path / "pipe.yaml"}.get(
        trick, Path(trick))
    if trick == "folder":
        target.mkdir()
    if trick == "fifo":
        os.mkfifo(target)
    outcome = run_lw("rulepack", "validate", str(target), data_dir=home, timeout=30,
                     surface="lw rulepack validate")
    assert_refused(outcome, where=str(target), stream="stdout")


@FEW
@given(document=hostile_yaml())
def test_a_hostile_pack_in_the_data_dir_is_reported_never_fatal(tmp_path_factory: pytest.TempPathFactory,
                                                                document: bytes) -> None:
    root, home = fresh(tmp_path_factory)
    (home / "rulepacks").mkdir()
    pack = home / "rulepacks" / "evil.yaml"
    pack.write_bytes(document)
    snapshot = Snapshot(root)
    listed = run_lw("rulepack", "list", data_dir=home, surface="lw rulepack list (data dir pack)")
    assert_clean(listed)
    assert listed.code == 0 and "coc7" in listed.stdout  # the other systems still load
    row = next(line for line in listed.stdout.splitlines() if line.startswith("evil "))
    if " error " in row:
        assert listed.stdout.split(row + "\n", 1)[1].startswith(f"  {pack}:")  # the located problem under it
        for args, surface in ((["rulepack", "show", "evil"], "lw rulepack show (data dir pack)"),
                              (["check", "evil", "--skill", "50"], "lw check (data dir pack)")):
            assert_refused(run_lw(*args, data_dir=home, surface=surface), where=str(pack))
    snapshot.assert_unchanged()


# --- lw check --batch ------------------------------------------------------------------------


BATCH_FIELDS = {"skill": "int", "target": "int", "bonus": "int", "penalty": "int", "modifier": "int", "roll": "int",
                "seed": "int", "dice": "list", "modifiers": "dict", "params": "dict", "locale": "str",
                "difficulty": "str", "variant": "str", "name": "str"}


@CASES
@given(lines=st.lists(hostile_json_lines(BATCH_FIELDS), min_size=1, max_size=4))
def test_check_batch_answers_every_hostile_line_and_goes_on(tmp_path_factory: pytest.TempPathFactory,
                                                           lines: list[bytes]) -> None:
    root, home = fresh(tmp_path_factory)
    good = json.dumps({"system": "coc7", "skill": 50, "roll": 25}).encode()
    stdin = b"\n".join(line for bad in lines for line in (bad, good)) + b"\n"
    snapshot = Snapshot(root)
    outcome = run_lw("check", "--batch", "-", data_dir=home, stdin=stdin, surface="lw check --batch")
    assert_clean(outcome)
    answers = [json.loads(line) for line in outcome.stdout.splitlines()]
    assert len(answers) == 2 * len(lines)
    for number, (bad, answer) in enumerate(zip(answers[0::2], answers[1::2], strict=True), start=0):
        assert answer["rank"] == "hard"
        if "error" in bad:
            assert bad["error"]["line"] == 2 * number + 1 and bad["error"]["message"]
    assert outcome.code == (1 if any("error" in a for a in answers) else 0)
    snapshot.assert_unchanged()


@pytest.mark.parametrize("kind", ["folder", "missing", "/dev/zero"])
def test_check_batch_from_a_file_that_is_not_one(tmp_path: Path, kind: str) -> None:
    target = {"folder": tmp_path, "missing": tmp_path / "missing.jsonl"}.get(kind, Path(kind))
    outcome = run_lw("check", "--batch", str(target), data_dir=tmp_path / "home", timeout=30,
                     surface="lw check --batch")
    assert_refused(outcome, where=str(target))


# --- lw cmd --sheet ----------------------------------------------------------------------------


def sheet_documents() -> st.SearchStrategy[bytes]:
    values = st.one_of(hostile_scalars(), st.sampled_from(["true", "[1, 2]", "{a: 1}", '"50"', "50.5.5"]))
    shaped = values.map(lambda v: f"system: coc7\nvalues:\n  力量: {v}\n".encode())
    fixed = st.sampled_from([
        ("system: coc7\n" + alias_bomb()).encode(), ("system: coc7\nstate: " + nested_yaml(3000)).encode(),
        invalid_utf8("system: coc7\n"), b"system: coc7\nvalues: [1, 2]\n", b"system: dnd5e\n", b"- a list\n",
        b"system: nosuch\n", b"system: coc7\nsystem: coc7\n", b"system: coc7\nexpressions: {x: 1}\n",
    ])
    return st.one_of(shaped, fixed)


@CASES
@given(document=sheet_documents())
def test_cmd_refuses_a_hostile_sheet_and_leaves_it_unchanged(tmp_path_factory: pytest.TempPathFactory,
                                                             document: bytes) -> None:
    root, home = fresh(tmp_path_factory)
    sheet = root / "investigator.yaml"
    sheet.write_bytes(document)
    snapshot = Snapshot(root)
    outcome = run_lw("cmd", "coc7", ".ra 力量", "--sheet", str(sheet), "--seed", "1", data_dir=home,
                     surface="lw cmd --sheet")
    message = assert_refused(outcome)
    assert str(sheet) in message or "unknown system" in message or "values" in message, message
    snapshot.assert_unchanged()


@pytest.mark.parametrize("trick", ["folder", "/dev/zero"])
def test_cmd_refuses_a_sheet_path_that_is_not_a_file(tmp_path: Path, trick: str) -> None:
    target = tmp_path / "sheet.yaml" if trick == "folder" else Path(trick)
    if trick == "folder":
        target.mkdir()
    outcome = run_lw("cmd", "coc7", ".st str50", "--sheet", str(target), data_dir=tmp_path / "home", timeout=30,
                     surface="lw cmd --sheet")
    assert_refused(outcome, where=str(target))


# --- lw roll ------------------------------------------------------------------------------------


def expressions() -> st.SearchStrategy[str]:
    """Texts an argument can carry (a command line cannot hold a NUL byte)."""
    fixed = st.sampled_from([
        "(" * 5000 + "1" + ")" * 5000, "1d" + "9" * 400, "99999d6", "1000d10000", "1d6!" * 300, "1d1!",
        "d", "1d6+", "{pool}d6", "1e400", "NaN", "\x01\x7f", "1d6\u202e", "\ufeff1d6", "1d6" + "+1d6" * 3000,
        "", "  ", "4dF!", "-" * 2000 + "1",
    ])
    return st.one_of(fixed, st.text(alphabet="0123456789dD+-*/()!khl{}x ", min_size=1, max_size=40))


@CASES
@given(text=expressions())
def test_roll_refuses_hostile_expressions_with_a_column(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    root, home = fresh(tmp_path_factory)
    outcome = run_lw("roll", "--", text, data_dir=home, surface="lw roll")
    if outcome.code == 0:  # a valid expression after all
        assert_clean(outcome)
        return
    message = assert_refused(outcome)
    assert message.startswith("error: ") and message.count("\n") == 1, message


@FEW
@given(faces=st.sampled_from(["abc", "1.5", "NaN", "9" * 5000, "-1", "0,0,0,0,0,0,0", ""]))
def test_roll_refuses_hostile_dice(tmp_path_factory: pytest.TempPathFactory, faces: str) -> None:
    root, home = fresh(tmp_path_factory)
    outcome = run_lw("roll", "1d6", "--dice", faces, data_dir=home, surface="lw roll --dice")
    assert_refused(outcome)


def test_the_bombs_are_refused_quickly(tmp_path: Path) -> None:
    """An alias bomb and 50 000 nesting levels are refused within the per-case timeout of a
    few seconds (the summary prints the slowest refusal of each surface)."""
    for name, text in (("bomb.yaml", alias_bomb(15, 10)), ("deep.yaml", nested_yaml(50000)),
                       ("deepjson.yaml", nested_json(50000, "{\"a\":", "}"))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        outcome = run_lw("rulepack", "validate", str(path), data_dir=tmp_path / "home", timeout=15,
                         surface="lw rulepack validate")
        assert_refused(outcome, where=str(path), stream="stdout")


@FEW
@given(trick=path_tricks())
def test_path_tricks_in_a_pack_script_are_refused(tmp_path_factory: pytest.TempPathFactory, trick: str) -> None:
    root, home = fresh(tmp_path_factory)
    pack = root / "tricky.yaml"
    pack.write_text(f"resolution: {{script: {json.dumps(trick)}}}\n"
                    f"subsystems: {{flow: {{script: {json.dumps(trick)}}}}}\n", encoding="utf-8")
    snapshot = Snapshot(root)
    outcome = run_lw("rulepack", "validate", str(pack), data_dir=home, surface="lw rulepack validate")
    if ".." in trick.replace("\\", "/").split("/") or trick.startswith(("/", "\\")):
        message = assert_refused(outcome, where=f"{pack}:", stream="stdout")
        assert "relative path inside the pack" in message
    else:  # a relative name inside the pack's folder is a legal script path (it needs the sandbox to run)
        assert_clean(outcome)
    snapshot.assert_unchanged()
