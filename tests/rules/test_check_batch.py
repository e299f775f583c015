"""``lw check --batch``: every line one answer, strict types, later lines never lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LW = [sys.executable, "-c", "import sys; from lwcore.cli import main; main(sys.argv[1:])"]
GOOD = {"system": "coc7", "skill": 50, "roll": 25}

BAD_LINES = [
    ('{"system": "coc7", "skill": true}', "skill"),
    ('{"system": "coc7", "skill": 50.7}', "skill"),
    ('{"system": "coc7", "skill": 50, "dice": [1.5]}', "dice"),
    ('{"system": "coc7", "skill": 50, "bonus": true}', "bonus"),
    ('{"system": "coc7", "skill": NaN}', "NaN"),
    ('{"system": "coc7", "skill": Infinity}', "Infinity"),
    ('{"system": "coc7", "skill": 1e400}', "1e400"),
    ('{"system": "coc7", "skill": 50, "dice": "abc"}', "dice"),
    ('{"system": "coc7", "skill": {"a": 1}}', "skill"),
    ('{"system": "coc7", "skill": 50, "modifiers": [1]}', "modifiers"),
    ('{"system": "coc7", "skill": 50, "locale": 5}', "locale"),
    ('{"system": "coc7", "skill": "60"}', "NAME=VALUE"),
    ('{"system": "coc7", "skill": 50, "surprise": 1}', "surprise"),
    ('{"system": "coc7", "skill": 50, "bonus": -1}', "bonus"),
    ('[1, 2]', "JSON object"),
    ('{"system": "coc7"', "invalid JSON"),
    ('{"system": "coc7", "skill": 50, "skill": 60}', "duplicate key"),
    ('{"system": "nope", "skill": 50}', "unknown system"),
    ('{"system": "coc7", "skill": 50, "dice": [1, 2, 3]}', "face"),
    ('[' * 5000 + ']' * 5000, "nested"),
]


def run_batch(stdin: bytes, *args: str, data_dir: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*LW, "--data-dir", str(data_dir), "check", "--batch", "-",
                           *args], input=stdin, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[bytes], list[dict]]:
    """One batch: a good line after every bad one, a bad-UTF-8 line, a blank line."""
    lines: list[bytes] = []
    for text, _ in BAD_LINES:
        lines += [text.encode(), json.dumps(GOOD).encode()]
    lines += [b'{"system": "coc7", "skill": 5\xff0}', b"", json.dumps(GOOD).encode()]
    proc = run_batch(b"\n".join(lines) + b"\n", data_dir=tmp_path_factory.mktemp("home"))
    answers = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    return proc, answers


def test_every_line_gets_one_answer_and_the_exit_status_says_one_failed(outcome) -> None:
    proc, answers = outcome
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr and proc.stderr == b""
    assert len(answers) == 2 * len(BAD_LINES) + 3
    goods = answers[1::2][: len(BAD_LINES)] + [answers[-1]]
    assert all(g.get("rank") == "hard" and g["roll"] == 25 for g in goods)


@pytest.mark.parametrize(("index", "fragment"), [(i, frag) for i, (_, frag) in enumerate(BAD_LINES)])
def test_a_bad_line_is_an_error_naming_its_line_and_field(outcome, index: int, fragment: str) -> None:
    _, answers = outcome
    error = answers[2 * index]["error"]
    assert error["line"] == 2 * index + 1
    assert fragment.casefold() in json.dumps(error, ensure_ascii=False).casefold(), error


def test_invalid_utf8_is_located_by_line_and_byte(outcome) -> None:
    _, answers = outcome
    error = answers[-3]["error"]
    assert error["line"] == 2 * len(BAD_LINES) + 1 and error["code"] == "encoding" and error["byte"] is not None


def test_a_blank_line_is_answered_too(outcome) -> None:
    """A host that wrote a line waits for its answer: a blank line is refused on its line,
    never skipped in silence."""
    _, answers = outcome
    error = answers[-2]["error"]
    assert (error["line"], error["code"]) == (2 * len(BAD_LINES) + 2, "empty")


def test_a_line_over_the_size_limit_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    huge = b'{"system": "coc7", "skill": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    proc = run_batch(huge + b"\n" + json.dumps(GOOD).encode() + b"\n", data_dir=tmp_path)
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert proc.returncode == 1 and first["error"]["line"] == 1 and "limit" in first["error"]["message"]
    assert second["rank"] == "hard"


def test_a_clean_batch_exits_0_and_answers_in_order(tmp_path: Path) -> None:
    lines = [json.dumps({"system": "coc7", "skill": s, "roll": r}) for s, r in ((50, 25), (50, 80), (50, 1))]
    (tmp_path / "in.jsonl").write_text("\n".join(lines), encoding="utf-8")  # no newline at the end
    proc = subprocess.run([*LW, "--data-dir", str(tmp_path), "check", "--batch",
                           str(tmp_path / "in.jsonl")], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["rank"] for line in proc.stdout.splitlines()] == ["hard", "fail", "crit"]


def test_a_host_can_talk_to_one_process_line_by_line(tmp_path: Path) -> None:
    proc = subprocess.Popen([*LW, "--data-dir", str(tmp_path), "check", "--batch",
                             "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        for roll, rank in ((25, "hard"), (100, "fumble")):
            proc.stdin.write(json.dumps({"system": "coc7", "skill": 50, "roll": roll}).encode() + b"\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["rank"] == rank
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_a_bug_answering_one_line_loses_no_other_line(tmp_path: Path) -> None:
    """The batch runner itself: a handler that breaks on one line answers that line with an
    internal error and goes on; the exit status says a line hit a bug (2)."""
    import io

    from lwcore.cli.batch import run_batch

    source = tmp_path / "in.jsonl"
    source.write_text('{"n": 1}\n{"n": 2}\n{"n": 3}\n', encoding="utf-8")

    def answer(number: int, data: dict) -> tuple[dict, bool]:
        if data["n"] == 2:
            raise RuntimeError("boom")
        return {"n": data["n"] * 10}, False

    out = io.BytesIO()
    code = run_batch(str(source), answer, out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 2 and lines[0] == {"n": 10} and lines[2] == {"n": 30}
    assert lines[1]["error"]["code"] == "internal" and lines[1]["error"]["line"] == 2


def test_a_named_pipe_is_read_as_a_stream(tmp_path: Path) -> None:
    """A FIFO is a batch source like stdin (a device such as /dev/zero is refused: tests/hostile)."""
    import os
    import threading

    fifo = tmp_path / "requests"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(json.dumps(GOOD).encode() + b"\n")

    writer = threading.Thread(target=write)
    writer.start()
    proc = subprocess.run([*LW, "--data-dir", str(tmp_path / "home"), "check", "--batch", str(fifo)],
                          capture_output=True, timeout=60)
    writer.join(timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rank"] == "hard"
