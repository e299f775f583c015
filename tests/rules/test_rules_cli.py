"""``lw roll``, ``lw check``, ``lw rulepack`` (in process), and the architecture rules."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lwcore.cli import main

LWCORE = Path(__file__).resolve().parents[2] / "lwcore"
SYSTEM_WORDS = re.compile(r"coc|dnd|wod|cthulhu", re.IGNORECASE)

PACK = """\
names: [tiny]
resolution:
  roll: 1d20
  target: dc
  compare: ">="
  difficulties: {tough: {target: "target + 5"}}
labels: {en: {success: [Made it]}}
"""


def lw(capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None,
       monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "rulepacks").mkdir()
    (tmp_path / "rulepacks" / "tinyd20.yaml").write_text(PACK, encoding="utf-8")
    return tmp_path


def test_roll(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    code, out, _ = lw(capsys, "--data-dir", str(home), "roll", "4d6kh3", "--dice", "1", "--dice", "6",
                      "--dice", "5", "--dice", "2")
    assert code == 0 and out.startswith("4d6kh3 = 13  4d6kh3 [(1), 6, 5, 2]")
    code, out, _ = lw(capsys, "--data-dir", str(home), "roll", "10d10>=8", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["faces"]) == 10 and data["total"] == data["successes"]
    code, again, _ = lw(capsys, "--data-dir", str(home), "roll", "10d10>=8", "--seed", "3", "--json")
    assert again == out


def test_roll_errors_are_one_line(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    code, out, err = lw(capsys, "--data-dir", str(home), "roll", "1d6+")
    assert code == 1 and out == ""
    assert err.strip() == "error: 5: unexpected end of expression (expected a number, a die like d20, {param} or '(')"


def test_check_with_a_user_pack(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    code, out, _ = lw(capsys, "--data-dir", str(home), "check", "tiny", "--skill", "12", "--roll", "15")
    assert code == 0 and out.strip() == "tinyd20: DC 12, roll 1d20=15 [15] → Made it (success, margin 3)"
    code, out, _ = lw(capsys, "--data-dir", str(home), "check", "tinyd20", "--skill", "12", "--dice", "15",
                      "--difficulty", "tough", "--json")
    data = json.loads(out)
    assert (data["rank"], data["target"], data["raw_target"], data["dice"]) == ("failure", 17, 12, [15])
    code, _, err = lw(capsys, "--data-dir", str(home), "check", "tiny", "--skill", "12", "--difficulty", "x")
    assert code == 1 and "unknown difficulty 'x'" in err


def test_check_batch(capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "\n".join([
        json.dumps({"system": "tinyd20", "skill": 10, "roll": 10}),
        json.dumps({"system": "tinyd20", "target": 10, "dice": [9], "difficulty": "tough"}),
        json.dumps({"system": "nope", "skill": 1}),
        "",
        "{broken",
    ])
    code, out, _ = lw(capsys, "--data-dir", str(home), "check", "--batch", "-", stdin=lines, monkeypatch=monkeypatch)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 5
    assert rows[0]["rank"] == "success" and rows[0]["label"] == "Made it"
    assert rows[1]["rank"] == "failure" and (rows[1]["target"], rows[1]["raw_target"]) == (15, 10)
    assert rows[2]["error"]["line"] == 3 and "unknown system 'nope'" in rows[2]["error"]["message"]
    assert rows[3]["error"]["line"] == 4 and rows[3]["error"]["code"] == "empty"
    assert rows[4]["error"]["line"] == 5
    batch = home / "batch.jsonl"
    batch.write_text(json.dumps({"system": "tiny", "skill": 5, "roll": 20}) + "\n", encoding="utf-8")
    code, out, _ = lw(capsys, "--data-dir", str(home), "check", "--batch", str(batch))
    assert code == 0 and json.loads(out)["success"] is True


def test_rulepack_validate_list_show(capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path) -> None:
    good = tmp_path / "tinyplus.yaml"
    good.write_text("extends: tinyd20\nnames: [plus]\n", encoding="utf-8")
    bad = tmp_path / "oops.yaml"
    bad.write_text(textwrap.dedent("""\
        resolution:
          roll: 1d20
          ranks:
            - {id: a, when: "roll >= targt"}
            - {id: b}
        """), encoding="utf-8")
    code, out, _ = lw(capsys, "--data-dir", str(home), "rulepack", "validate", str(good), str(bad))
    assert code == 1
    assert f"ok: {good} (tinyplus -> tinyd20)" in out
    assert f"error: {bad}:4:30: resolution.ranks.0.when: unknown name 'targt'" in out
    code, out, _ = lw(capsys, "--data-dir", str(home), "rulepack", "validate", str(good))
    assert code == 0
    code, out, _ = lw(capsys, "--data-dir", str(home), "rulepack", "list", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["tinyd20"]["origin"] == "user" and rows["tinyd20"]["status"] == "ok"
    code, out, _ = lw(capsys, "--data-dir", str(home), "rulepack", "show", "tiny")
    assert code == 0 and "# tinyd20 from user" in out and "compare: '>='" in out


def test_doctor_reports_malformed_rulepacks(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    (home / "rulepacks" / "broken.yaml").write_text("resolution: {roll: 1d20, ranks: [{id: a, when: 'x'}, {id: b}]}\n",
                                                  encoding="utf-8")
    code, out, _ = lw(capsys, "--data-dir", str(home), "doctor")
    assert code == 0
    assert re.search(r"rulepack broken \(user\) error: .*broken\.yaml:1:\d+: resolution\.ranks\.0\.when: unknown name 'x'", out)


def test_schema_rulepack(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    code, out, _ = lw(capsys, "--data-dir", str(home), "schema", "rulepack")
    schema = json.loads(out)
    assert code == 0 and schema["title"] == "Rulepack" and "resolution" in schema["properties"]


def test_the_engine_never_names_a_rule_system() -> None:
    """Stricter than the kernel-wide architecture test: not even a substring, in the engine's files."""
    offenders = []
    files = [*(LWCORE / "rules").rglob("*"), LWCORE / "cli" / "rules_cmd.py", LWCORE / "cli" / "doctor.py"]
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                if SYSTEM_WORDS.search(line):
                    offenders.append(f"{path.relative_to(LWCORE)}:{number}: {line.strip()}")
    assert offenders == []


def test_version_and_plugins_list_do_not_import_the_engine(tmp_path: Path) -> None:
    code = textwrap.dedent("""\
        import sys
        from lwcore.cli import main
        for argv in (["--version"], ["plugins", "list"]):
            try:
                main(argv)
            except SystemExit:
                pass
        light = {"lwcore.rules.bundled_kinds"}  # the bundled kinds' names, registered by reference
        heavy = sorted(m for m in sys.modules if (m.startswith("lwcore.rules.") and m not in light)
                       or m == "lwcore.cli.rules_cmd")
        print("HEAVY", heavy, file=sys.stderr)
        """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={"LW_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert "HEAVY []" in result.stderr, result.stderr
