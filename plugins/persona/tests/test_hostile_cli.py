"""Every ``lw persona`` command that reads a file, against hostile files (issue 11).

Each case runs ``lw`` in its own process with a timeout (a hang fails the case, it never
stalls the suite) and must end with a non-zero exit, a message naming the file (and where in
it, when the problem has a place), no traceback and no "internal error", and every file in
the test's folders byte-identical afterwards. The hostile card corpus of the kernel
(``lwcore.cards.hostile``) goes through ``lw persona import`` in one child process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LW = [sys.executable, "-c", "from lwcore.cli import main; main()"]
TIMEOUT = 60
MIB = 1024 * 1024
GOOD_PRESET = {"spec": "whale-persona-preset/1", "id": "good", "label": "Good", "persona": {"stance": "s"}}

# Hostile JSON documents: nested, huge, invalid encoding, wrong type, not JSON. Each names what
# the message must contain besides the file.
HOSTILE_JSON: dict[str, tuple[bytes, str]] = {
    "nested-600": (b'{"persona": {"x": ' + b'{"x": ' * 600 + b"{}" + b"}" * 600 + b"}}", "nested deeper than"),
    "nested-50000": (b"[" * 50_000 + b"]" * 50_000, "nested deeper than"),
    "huge": (b'{"persona": {"stance": "' + b"a" * (17 * MIB) + b'"}}', "larger than"),
    "invalid-utf8": (b'{"persona": {"stance": "\xff\xfe"}}', "invalid UTF-8 at byte 24"),
    "lone-surrogate": (b'{"persona": {"stance": "\\udc00"}}', "lone surrogate"),
    "nan": (b'{"persona": {"stance": NaN}}', "NaN is not a JSON number"),
    "duplicate-key": (b'{"persona": {}, "persona": {}}', "duplicate key"),
    "syntax": (b'{"persona": {\n  oops}}', "invalid JSON"),
    "array": (b'[{"persona": {"stance": "s"}}]', ""),
    "scalar": (b'"persona"', ""),
}


@dataclass
class Case:
    """``args`` may hold ``{file}`` (the hostile input) and ``{tmp}``; ``put(tmp, dsh_home)``
    writes the input and returns its path."""

    id: str
    args: list[str]
    put: Callable[[Path, Path], Path]
    want: str = ""
    env: dict[str, str] = field(default_factory=dict)
    exit_codes: tuple[int, ...] = (1,)


def place(tmp: Path, name: str) -> Path:
    """Where a case's input file ``name`` goes (its folder made)."""
    path = tmp / "in" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def json_file(name: str, data: bytes) -> Callable[[Path, Path], Path]:
    def put(tmp: Path, home: Path) -> Path:
        path = place(tmp, name)
        path.write_bytes(data)
        return path
    return put


def fifo(tmp: Path, home: Path) -> Path:
    os.mkfifo(path := place(tmp, "pipe.json"))
    return path


def device(tmp: Path, home: Path) -> Path:
    return Path("/dev/zero")


def loop(tmp: Path, home: Path) -> Path:
    (path := place(tmp, "loop.json")).symlink_to(path)
    return path


def missing(tmp: Path, home: Path) -> Path:
    return tmp / "in" / "missing.json"


PATH_TRICKS: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "fifo": (fifo, "not a regular file"),
    "device": (device, "not a regular file"),
    "symlink-loop": (loop, "cannot read"),
}


def preset_in_folder(data: bytes) -> Callable[[Path, Path], Path]:
    def put(tmp: Path, home: Path) -> Path:
        folder = home / "whale-persona" / "presets"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "good.json").write_text(json.dumps(GOOD_PRESET), encoding="utf-8")
        (folder / "bad.json").write_bytes(data)
        return folder / "bad.json"
    return put


def good_preset_and(put_config: Callable[[Path, Path], Path]) -> Callable[[Path, Path], Path]:
    def put(tmp: Path, home: Path) -> Path:
        preset_in_folder(json.dumps(GOOD_PRESET).encode())(tmp, home)
        return put_config(tmp, home)
    return put


def inbox_file(lines: list[bytes]) -> Callable[[Path, Path], Path]:
    return json_file("inbox.jsonl", b"\n".join(lines) + b"\n")


def conformance_case(name: str, data: bytes) -> Callable[[Path, Path], Path]:
    def put(tmp: Path, home: Path) -> Path:
        case = tmp / "in" / "vectors" / "one"
        case.mkdir(parents=True, exist_ok=True)
        (case / "expected.json").write_text('{"persona-prefix": ""}', encoding="utf-8")
        (case / name).write_bytes(data)
        return case.parent
    return put


def pick(*keys: str) -> dict[str, tuple[Callable[[Path, Path], Path], str]]:
    """Hostile inputs by name: the JSON documents as files, and the path tricks."""
    table = {**{k: (json_file(f"{k}.json", v[0]), v[1]) for k, v in HOSTILE_JSON.items()}, **PATH_TRICKS}
    return {k: table[k] for k in keys}


def cases() -> list[Case]:
    """The table: every surface gets nested, huge or invalid-encoding, wrong-type and path
    tricks; the tolerant render path and ``preset show`` get every hostile document."""
    out: list[Case] = []
    surfaces = [
        ("render-config", ["persona", "render", "--config", "{file}"], {}, pick(*HOSTILE_JSON, *PATH_TRICKS)),
        ("apply-into-config", ["persona", "preset", "apply", "good", "--config", "{file}"], {},
         pick("nested-600", "huge", "invalid-utf8", "array", "fifo", "symlink-loop")),
        ("save-from-config", ["persona", "preset", "save", "mine", "--config", "{file}"], {},
         pick("nested-50000", "invalid-utf8", "scalar", "device")),
        ("import", ["persona", "import", "{file}"], {}, pick("nested-600", "invalid-utf8", "syntax", "fifo", "device",
                                                            "symlink-loop")),
        ("reflex-rules", ["persona", "reflex", "你是谁"], {"DSH_REFLEX_RULES": "{file}"},
         pick("nested-600", "invalid-utf8", "array", "syntax", "fifo", "symlink-loop")),
    ]
    for name, args, env, inputs in surfaces:
        for key, (put, want) in inputs.items():
            if name == "apply-into-config":
                put = good_preset_and(put)
            out.append(Case(f"{name}-{key}", args, put, want, env=env))
    for key, (data, want) in HOSTILE_JSON.items():
        if key == "huge":  # presets are capped at 2 MiB
            data, want = b'{"persona": {"stance": "' + b"a" * (3 * MIB) + b'"}}', "larger than the 2 MiB limit"
        out.append(Case(f"preset-show-{key}", ["persona", "preset", "show", "bad"], preset_in_folder(data), want))
        if key in ("nested-600", "invalid-utf8", "array"):
            out += [
                Case(f"preset-apply-{key}", ["persona", "preset", "apply", "bad", "--config", "{tmp}/in/config.json"],
                     preset_in_folder(data), want),
                Case(f"preset-export-{key}", ["persona", "export", "bad", "-o", "{tmp}/in/out.json"], preset_in_folder(data),
                     want),
                Case(f"preset-list-{key}", ["persona", "preset", "list"], preset_in_folder(data), want),
            ]
    for key in ("nested-600", "invalid-utf8"):
        data, want = HOSTILE_JSON[key]
        for name in ("case.json", "expected.json"):
            out.append(Case(f"conformance-{name}-{key}", ["persona", "conformance", "{file}"], conformance_case(name, data),
                            want))
    out.append(Case("conformance-case-field-type", ["persona", "conformance", "{file}"],
                    conformance_case("case.json", b'{"cwd": 5}'), "'cwd' must be a str"))
    bad_lines = {
        "invalid-utf8-line": ([b'{"text": "ok", "status": "confirmed"}', b'{"text": "\xff", "status": "confirmed"}'], ":2:"),
        "nested-line": ([b"[" * 50_000 + b"]" * 50_000], ":1:"),
        "not-json-line": ([b"{oops"], ":1:"),
        "array-line": ([b"[1, 2]"], ":1:"),
        "op-without-ref": ([b'{"op": "confirm"}'], ":1:"),
    }
    for key, (lines, where) in bad_lines.items():
        out.append(Case(f"inbox-status-{key}", ["persona", "inbox", "status", "--inbox", "{file}"], inbox_file(lines),
                        where))
        if key != "invalid-utf8-line":  # there, entry 0 exists: confirming it is the operation, done
            out.append(Case(f"inbox-confirm-{key}", ["persona", "inbox", "confirm", "0", "--inbox", "{file}"],
                            inbox_file(lines), "no inbox entry #0"))
    for key in ("invalid-utf8-line", "nested-line"):
        out.append(Case(f"render-inbox-{key}", ["persona", "render", "--inbox", "{file}", "--config", "{tmp}/in/c.json"],
                        good_config_and_inbox(bad_lines[key][0]), bad_lines[key][1]))
    for key, (put, want) in PATH_TRICKS.items():
        out.append(Case(f"inbox-status-{key}", ["persona", "inbox", "status", "--inbox", "{file}"], put, want))
    out += [
        Case("inbox-log-fifo", ["persona", "inbox", "log", "--inbox", "{file}"], fifo, "not a regular file"),
        Case("inbox-confirm-fifo", ["persona", "inbox", "confirm", "0", "--inbox", "{file}"], fifo, "not a regular file"),
    ]
    for bad_id in ("../../etc/passwd", "a/b", "..", "", "x" * 65, "名字"):
        out.append(Case(f"id-show-{bad_id[:8]}", ["persona", "preset", "show", bad_id], missing, "invalid preset id"))
    out += [
        Case("id-apply", ["persona", "preset", "apply", "../x"], missing, "invalid preset id"),
        Case("id-save", ["persona", "preset", "save", "a/../b"], missing, "invalid preset id"),
        Case("id-export", ["persona", "export", "/etc/passwd"], missing, "invalid preset id"),
        Case("import-missing", ["persona", "import", "{file}"], missing, "file not found"),
        Case("export-into-a-file-as-folder", ["persona", "export", "good", "-o", "{tmp}/in/file.txt/out.json"],
             good_preset_and(json_file("file.txt", b"x")), "cannot write"),
        Case("show-missing-preset", ["persona", "preset", "show", "nobody"], missing, "no preset 'nobody'"),
    ]
    return out


def good_config_and_inbox(lines: list[bytes]) -> Callable[[Path, Path], Path]:
    def put(tmp: Path, home: Path) -> Path:
        json_file("c.json", b'{"memory": {"enabled": true}, "persona": {"stance": "s"}}')(tmp, home)
        return inbox_file(lines)(tmp, home)
    return put


def snapshot(*roots: Path) -> dict[str, object]:
    """Every entry under ``roots``: file bytes, link targets, folders (and FIFOs as such)."""
    out: dict[str, object] = {}
    for root in roots:
        for path in sorted(root.rglob("*")) if root.exists() else ():
            if path.is_symlink():
                out[str(path)] = ("link", os.readlink(path))
            elif path.is_fifo():
                out[str(path)] = "fifo"
            elif path.is_dir():
                out[str(path)] = "dir"
            else:
                out[str(path)] = path.read_bytes()
    return out


ALL = cases()


def test_case_ids_are_unique():
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("quarter", range(4))
def test_every_persona_surface_refuses_hostile_input(tmp_path, quarter):
    """A quarter of the cases per test; each case has its own folders ($DSH_HOME inside the
    snapshot, $LW_HOME outside it: the kernel's cache is not the persona's data), so four
    processes run at a time without sharing a file."""
    prepared = []
    for index, case in enumerate(ALL[quarter::4]):
        folder = tmp_path / f"case{index}"
        home = folder / "dsh"
        home.mkdir(parents=True)
        file = case.put(folder, home)
        fill = {"file": str(file), "tmp": str(folder)}
        env = {**os.environ, "DSH_HOME": str(home), "LW_HOME": str(tmp_path / "lw" / f"case{index}"),
               **{k: v.format(**fill) for k, v in case.env.items()}}
        prepared.append((case, folder, file, [a.format(**fill) for a in case.args], env, snapshot(folder)))

    def run(item):
        case, folder, _file, args, env, _before = item
        start = time.perf_counter()
        proc = subprocess.run([*LW, *args], capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=folder,
                              stdin=subprocess.DEVNULL)
        return proc, time.perf_counter() - start

    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(run, prepared))
    failures = []
    for (case, folder, file, _args, _env, before), (proc, _seconds) in zip(prepared, runs):
        problems = []
        text = proc.stderr + proc.stdout  # conformance reports on stdout
        if proc.returncode not in case.exit_codes:
            problems.append(f"exit {proc.returncode}")
        if "Traceback" in text or "internal error" in text:
            problems.append("traceback or internal error")
        if case.want not in text:
            problems.append(f"message lacks {case.want!r}")
        if case.put is not missing and str(file) not in text:
            problems.append("message does not name the file")
        after = snapshot(folder)
        if before != after:
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            problems.append(f"files changed: {changed}")
        if problems:
            failures.append(f"{case.id}: {'; '.join(problems)}\n  stderr: {text.strip()[:500]}")
    assert not failures, "\n".join(failures)
    slowest = max(zip(prepared, runs), key=lambda pair: pair[1][1])
    print(f"\n{len(prepared)} hostile cases refused; slowest {slowest[0][0].id}: {slowest[1][1] * 1000:.0f} ms "
          "(the whole lw process)")


def test_the_kernels_hostile_card_corpus_through_lw_persona_import(tmp_path):
    """Every hostile card file is refused by ``lw persona import`` with the card reader's
    located message and exit 1, and no preset is written. One child process runs them all
    (``lwcore.cli.main`` per card) under one timeout."""
    from lwcore.cards.hostile import hostile_cards, run_cli

    home = tmp_path / "dsh"
    cards = tmp_path / "cards"
    cards.mkdir()
    env = {**os.environ, "DSH_HOME": str(home), "LW_HOME": str(tmp_path / "lw")}
    results = run_cli(["persona", "import", "{file}"], cards, env=env, timeout=240)
    assert [r["id"] for r in results] == [c.id for c in hostile_cards() if not c.in_assets]
    bad = [r for r in results if r["code"] != 1 or not r["stderr"].startswith(f"error: {r['file']}")
           or "internal error" in r["stderr"] or "Traceback" in r["stderr"]]
    assert not bad, bad
    assert not (home / "whale-persona" / "presets").exists()
    slowest = max(results, key=lambda r: r["ms"])
    print(f"\n{len(results)} hostile cards refused by lw persona import; slowest {slowest['id']}: {slowest['ms']:.0f} ms")
