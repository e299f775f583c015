"""Every label the code and the docs cite from a specification can be looked up in
docs/specs.md: a contract label (``C.1``, ``M19``) must be a row of its table, and a bare
section sign (``§8``) appears only where one specification is meant (the Story Repo and
persona plugins, whose §N are their own specification's sections)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "docs" / "specs.md"
CONTRACT_LABEL = re.compile(r"(?<![\w.])(M\d{1,2}|[A-D]\.\d)(?![\w.]*\d)")
SECTION_SIGN_HOMES = ("plugins/storyrepo/", "plugins/persona/", "docs/specs.md")
SUFFIXES = {".py", ".md", ".toml", ".yaml", ".yml", ".json"}


def _sources() -> list[Path]:
    roots = [ROOT / "lwcore", ROOT / "plugins", ROOT / "docs", ROOT / "examples", ROOT / "README.md"]
    out: list[Path] = []
    for root in roots:
        files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
        out += [p for p in files if p.suffix in SUFFIXES and "/tests/" not in p.as_posix() and ".venv" not in p.parts]
    return sorted(out)


def _table_labels() -> set[str]:
    return {m.group(1) for m in re.finditer(r"^\| (\S+) \|", SPECS.read_text(encoding="utf-8"), re.M)}


def test_every_contract_label_cited_is_explained() -> None:
    labels = _table_labels()
    assert {"C.1", "M19", "A.2"} <= labels  # the table is read as intended
    unknown = []
    for path in _sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CONTRACT_LABEL.finditer(text):
            if match.group(1) not in labels:
                line = text.count("\n", 0, match.start()) + 1
                unknown.append(f"{path.relative_to(ROOT)}:{line}: {match.group(1)}")
    assert not unknown, "labels docs/specs.md does not explain:\n" + "\n".join(unknown)


def test_section_signs_only_where_one_specification_is_meant() -> None:
    stray = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(SECTION_SIGN_HOMES):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in re.finditer("§", text):
            stray.append(f"{rel}:{text.count(chr(10), 0, match.start()) + 1}")
    assert not stray, "a § outside the Story Repo and persona plugins names no specification:\n" + "\n".join(stray)


def test_the_checker_catches_an_unknown_label(tmp_path: Path) -> None:
    labels = _table_labels()
    sample = "the hook runner (C.1) and a made-up milestone (M17) and B.9 and 1.2.3 and version 2.1"
    found = [m.group(1) for m in CONTRACT_LABEL.finditer(sample)]
    assert found == ["C.1", "M17", "B.9"]
    assert "M17" in labels and "B.9" not in labels
    assert not CONTRACT_LABEL.search("python 3.11 and A.10 and zlib.A.1x")
