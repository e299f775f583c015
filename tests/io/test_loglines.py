"""Reading an append-only line log from either end: the lines and offsets of a plain split,
for every block size and from every line boundary (property-tested), and over-long lines
refused at their byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.errors import LwError
from lwcore.io.loglines import Line, ends_line, lines_before, lines_from, unterminated

PIECES = st.lists(st.sampled_from([b"", b"a", b"bc", b"\n", b"{\"id\":1}\n", b"\n\n", "雾".encode(), b"\r\n"]),
                  max_size=30)


def reference(data: bytes) -> list[Line]:
    """The lines of ``data`` by a plain split (a final newline ends a line, it starts none)."""
    if not data:
        return []
    pieces = data.split(b"\n")
    if data.endswith(b"\n"):
        pieces = pieces[:-1]
    out, start = [], 0
    for raw in pieces:
        out.append(Line(start, min(start + len(raw) + 1, len(data)), raw))
        start += len(raw) + 1
    return out


@settings(max_examples=300, deadline=None)
@given(PIECES, st.sampled_from([1, 2, 3, 5, 64]))
def test_both_directions_match_a_plain_split(tmp_path_factory: pytest.TempPathFactory, pieces: list[bytes],
                                             block: int) -> None:
    data = b"".join(pieces)
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    path.write_bytes(data)
    lines = reference(data)
    assert list(lines_before(path, len(data), block=block)) == lines[::-1]
    assert list(lines_from(path, 0)) == lines
    for index, line in enumerate(lines):
        assert list(lines_from(path, line.start)) == lines[index:]
        assert list(lines_before(path, line.end, block=block)) == lines[:index + 1][::-1]
        assert ends_line(path, line.end) == data[line.end - 1:line.end].endswith(b"\n")
    assert unterminated(path) == (bool(data) and not data.endswith(b"\n"))


def test_a_missing_file_has_no_lines(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    assert list(lines_before(missing, 100)) == [] and list(lines_from(missing, 0)) == []
    assert not ends_line(missing, 3) and not unterminated(missing)


@pytest.mark.parametrize("reader", ["before", "from"])
def test_an_over_long_line_is_refused_at_its_byte(tmp_path: Path, reader: str) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"short\n" + b"x" * 300 + b"\nlast\n")
    with pytest.raises(LwError) as caught:
        if reader == "before":
            list(lines_before(path, path.stat().st_size, block=16, max_line=100))
        else:
            list(lines_from(path, 0, max_line=100))
    assert caught.value.code == "limit" and caught.value.file == str(path)
    assert caught.value.byte == (6 if reader == "from" else 306)  # where it starts / where it ends
