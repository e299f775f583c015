"""Self-check (§9) and the conformance vectors (answering §12.2).

Conformance vector layout (one folder per case, any implementation can run them)::

    <case>/case.json      {"description", "model", "tier", "cwd", "capture", "inbox"}  (all optional)
    <case>/config.json    the config file (absent = the "no file" case; may be empty or broken)
    <case>/inbox.jsonl    the memory inbox (optional)
    <case>/expected.json  {"persona-prefix": …, "thinking-language": …, "persona-suffix": …}

The case is rendered with ``$DSH_HOME`` set to an empty temporary folder and the inbox path
passed explicitly. In expected texts, ``${INBOX}`` stands for that inbox path with ``/``
separators (it appears in the capture discipline block).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lw_persona.config import write_text
from lw_persona.places import Places
from lw_persona.reflex import reflex_segment
from lw_persona.render import SEGMENT_NAMES, render_segments
from lwcore.api import LwError, read_json

VECTORS = Path(__file__).with_name("conformance")
EMPTY_NOTE = "(空 —— 该段不会出现在系统提示词里)"
CASE_FIELDS = {"description": str, "model": str, "tier": str, "cwd": str, "capture": bool, "inbox": str}
"""The optional fields of ``case.json`` and their types."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    name: str
    ok: bool
    failures: tuple[str, ...] = ()
    description: str = ""


def _render_case(case_dir: Path, home: Path) -> tuple[dict[str, Any], Path, dict[str, Any]]:
    spec_file = case_dir / "case.json"
    case = read_json(spec_file) if spec_file.exists() else {}
    if not isinstance(case, dict):
        raise LwError("case.json holds no JSON object", file=spec_file)
    for key, kind in CASE_FIELDS.items():
        if case.get(key) is not None and not isinstance(case[key], kind):
            raise LwError(f"case.json: {key!r} must be a {kind.__name__}", file=spec_file, code="value")
    inbox = case_dir / str(case.get("inbox") or "inbox.jsonl")
    out = render_segments(
        case_dir / "config.json",
        inbox,
        model=case.get("model"),
        tier=case.get("tier"),
        cwd=case.get("cwd"),
        capture=case.get("capture"),
        places=Places.resolve({"DSH_HOME": str(home)}),
    )
    return out, inbox, case


def run_case(case_dir: Path) -> CaseResult:
    """Render one case and compare each segment byte for byte (a case that cannot be read
    fails with the located reason)."""
    with tempfile.TemporaryDirectory(prefix="lw-persona-conf-") as tmp:
        try:
            out, inbox, case = _render_case(case_dir, Path(tmp))
            expected = read_json(case_dir / "expected.json")
            if not isinstance(expected, dict):
                raise LwError("expected.json holds no JSON object", file=case_dir / "expected.json")
        except LwError as exc:
            return CaseResult(case_dir.name, False, (f"cannot run: {exc}",))
    failures = []
    for name in SEGMENT_NAMES:
        want = str(expected.get(name, "")).replace("${INBOX}", str(inbox).replace("\\", "/"))
        got = out[name]
        if got != want:
            at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            failures.append(f"{name}: differs at character {at}: got {got[at:at + 30]!r}, expected {want[at:at + 30]!r}")
    return CaseResult(case_dir.name, not failures, tuple(failures), str(case.get("description", "")))


def run_all(folder: Path | None = None) -> list[CaseResult]:
    folder = Path(folder) if folder else VECTORS
    cases = sorted(p for p in folder.iterdir() if p.is_dir() and (p / "expected.json").exists())
    return [run_case(c) for c in cases]


def write_expected(case_dir: Path) -> None:
    """(Maintainers) record this implementation's output as the case's expected output."""
    with tempfile.TemporaryDirectory(prefix="lw-persona-conf-") as tmp:
        out, inbox, _ = _render_case(case_dir, Path(tmp))
    token = str(inbox).replace("\\", "/")
    expected = {n: out[n].replace(token, "${INBOX}") for n in SEGMENT_NAMES}
    write_text(case_dir / "expected.json", json.dumps(expected, ensure_ascii=False, indent=2) + "\n")


def selfcheck() -> tuple[bool, list[str]]:
    """§9: factory state (no file / empty file / ``{}`` / empty rules) renders three empty segments."""
    lines: list[str] = []
    ok = True
    with tempfile.TemporaryDirectory(prefix="lw-persona-selfcheck-") as tmp:
        home = Path(tmp)
        rules = home / "reflex.json"
        rules.write_text('{"enabled": true, "dryRun": false, "rules": []}', encoding="utf-8")
        places = Places.resolve({"DSH_HOME": str(home), "DSH_REFLEX_RULES": str(rules)})
        scenarios: list[tuple[str, bytes | None]] = [("no config file", None), ("empty config file", b""),
                                                    ("empty JSON object", b"{}")]
        for label, content in scenarios:
            cfg = home / "whale-persona" / "config.json"
            if content is None:
                cfg.unlink(missing_ok=True)
            else:
                cfg.parent.mkdir(parents=True, exist_ok=True)
                cfg.write_bytes(content)
            for model in ("flash", "some-pro-model"):
                out = render_segments(None, None, model=model, cwd=tmp, capture=True, places=places)
                lines.append(f"# {label} · model={model}")
                for name in SEGMENT_NAMES:
                    lines.append(f"=== {name} ===")
                    lines.append(EMPTY_NOTE if out[name] == "" else out[name])
                    ok = ok and out[name] == ""
        hit = reflex_segment("你是谁？", "flash", places)
        lines.append("# empty reflex rules")
        lines.append("=== persona-reflex ===")
        lines.append(EMPTY_NOTE if hit == "" else hit)
        ok = ok and hit == ""
    lines.append("selfcheck: " + ("ok — installed but not configured changes nothing" if ok else "FAILED"))
    return ok, lines
