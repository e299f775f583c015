"""The Markdown the book's files are made of: ``## 段`` sections, tables, the 履历 list.

Free text belongs to the author (spec §2.2): these helpers change only the section or row they
are asked to and leave every other byte as it was.
"""

from __future__ import annotations

import re

_RULE_CELL = re.compile(r":?-{2,}:?")


def ensure_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _section_span(body: str, name: str) -> tuple[int, int, int] | None:
    """``(heading start, content start, content end)`` of ``## name``, or None."""
    m = re.search(rf"^##[ \t]*{re.escape(name)}[ \t]*$", body, re.M)
    if not m:
        return None
    content = m.end() + 1 if body[m.end():m.end() + 1] == "\n" else m.end()
    nxt = re.search(r"^##\s", body[content:], re.M)
    end = content + nxt.start() if nxt else len(body)
    return m.start(), content, end


def section(body: str, name: str) -> str:
    """The text of the ``## name`` section (stripped), or ``""``."""
    span = _section_span(body, name)
    return body[span[1]:span[2]].strip() if span else ""


def set_section(body: str, name: str, text: str) -> str:
    """``body`` with the ``## name`` section's text replaced (the section appended if missing)."""
    text = text.strip("\n")
    span = _section_span(body, name)
    if span is None:
        return ensure_newline(body.rstrip("\n")) + ("\n" if body.strip() else "") + f"## {name}\n{text}\n"
    _start, content, end = span
    tail = body[end:]
    return body[:content] + text + "\n" + ("\n" if tail else "") + tail


def append_history(body: str, line: str) -> str:
    """Append ``- line`` to the ``## 履历`` section (created at the end when missing)."""
    span = _section_span(body, "履历")
    if span is None:
        return ensure_newline(body.rstrip("\n")) + f"\n## 履历\n- {line}\n"
    _start, _content, end = span
    head, tail = body[:end].rstrip("\n"), body[end:]
    return head + f"\n- {line}\n" + ("\n" + tail if tail else "")


def table_rows(text: str) -> list[list[str]]:
    """The data rows of the first Markdown table in ``text`` (header and rule skipped)."""
    return [cells for _n, cells in table_rows_at(text)]


def table_rows_at(text: str) -> list[tuple[int, list[str]]]:
    """``(0-based line index, cells)`` of each data row of the first table in ``text``."""
    rows: list[tuple[int, list[str]]] = []
    seen_header = False
    for n, line in enumerate(text.split("\n")):
        s = line.strip()
        if not s.startswith("|"):
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if not seen_header:
            seen_header = True
            continue
        if all(_RULE_CELL.fullmatch(c or "--") for c in cells):
            continue
        rows.append((n, cells))
    return rows


def table_line(cells: list[str]) -> str:
    """One table row; a ``|`` or a newline inside a cell is made harmless."""
    return "| " + " | ".join(c.replace("|", "｜").replace("\n", " ") for c in cells) + " |\n"


def append_row(text: str, cells: list[str]) -> str:
    """``text`` with a row of ``cells`` after the last row of its first table (at the end when
    there is no table), so a section after the table stays after it."""
    tail = text.rstrip("\n")
    if tail[tail.rfind("\n") + 1:].lstrip().startswith("|") and "\n## " not in text:
        return tail + "\n" + table_line(cells)  # the usual file: one table, last: append (no parse)
    rows = table_rows_at(text)
    if not rows:
        lines = text.split("\n")
        header = next((n for n, line in enumerate(lines) if line.strip().startswith("|")), None)
        if header is None:
            return ensure_newline(text) + table_line(cells)
        last = header + (1 if header + 1 < len(lines) and lines[header + 1].strip().startswith("|") else 0)
    else:
        last = rows[-1][0]
    lines = text.split("\n")
    lines.insert(last + 1, table_line(cells).rstrip("\n"))
    out = "\n".join(lines)
    return out if out.endswith("\n") else out + "\n"


def replace_row(text: str, index: int, cells: list[str]) -> str:
    """``text`` with line ``index`` (from :func:`table_rows_at`) replaced by a row of ``cells``."""
    lines = text.split("\n")
    lines[index] = table_line(cells).rstrip("\n")
    return "\n".join(lines)
