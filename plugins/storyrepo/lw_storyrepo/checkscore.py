"""How well the continuity, contract and leak checks do on a labelled set of drafts
(``tests/corpus/连续性-评估``): planted errors caught, and false alarms.

The set is a folder holding ``书/`` (book files laid over a fresh book), ``标注.json`` (the first
chapter to settle, roster rows, and per draft its frozen contract and its planted errors) and the
drafts. Everything goes through ``lw story``: the book is made with ``init``, the first chapter
settled by the whole chapter transaction, and every draft checked by ``check --json`` in a copy
of the book whose contract was frozen by ``card edit`` and ``decide``.

A planted error is caught when a finding of its kind (``类``) names its field or term (``字段``,
outside the contract line a contract finding quotes) and, when the label gives one, quotes a piece of its sentence (``句``) in its excerpt or message.
A false alarm is an error or warning of the three kinds that matches no planted error (the same
planted error found again in another sentence — a missing man who speaks twice — is none).
The first chapter is a good one too: a finding of the three kinds on it is a false alarm (draft
``第1章``), and it is settled anyway (such a finding is lowered to a warning — in the check and in settle's recheck of
the contract — while the base book is made, and only then), so one false alarm there does not stop the set from being scored.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from lw_storyrepo import review, settle
from lw_storyrepo.cli import story
from lw_storyrepo.findings import ERROR, WARN, clipped, visible

KINDS = ("连贯", "合同", "泄密")
"""The kinds of finding scored; other checks (new names, length, repetition) are not."""


@dataclass
class Score:
    planted: dict[str, int] = field(default_factory=dict)  # by class
    caught: dict[str, int] = field(default_factory=dict)
    false_alarms: list[tuple[str, str, str]] = field(default_factory=list)  # (draft, kind, message)
    missed: list[tuple[str, str]] = field(default_factory=list)  # (draft, field)
    sent_back: list[str] = field(default_factory=list)  # good drafts a false alarm of severity error sends back
    drafts: int = 0

    def line(self) -> str:
        parts = [f"{k} {self.caught.get(k, 0)}/{self.planted.get(k, 0)}" for k in KINDS]
        sent = f", good drafts sent back {len(self.sent_back)}" if self.sent_back else ""
        return f"caught {'  '.join(parts)}  false alarms {len(self.false_alarms)}{sent} ({self.drafts} drafts)"


class _Book:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner()

    def __call__(self, *args: str, stdin: str | None = None) -> str:
        result = self.runner.invoke(story, ["--locale", "zh", *args, "-C", str(self.root)], input=stdin)
        if result.exit_code != 0:
            raise RuntimeError(f"lw story {' '.join(args)}: exit {result.exit_code}\n{result.output}")
        return result.output


def _freeze(lw: _Book, contract: list[str]) -> None:
    lw()  # brief
    lw("card", "edit", *[a for line in contract for a in ("--合同", line)])
    lw("decide")
    lw()  # pack


def _base_book(folder: Path, work: Path, alarms: list[tuple[str, str, str]]) -> Path:
    """The book with its first chapter settled; what the checks say of that chapter goes to ``alarms``."""
    labels = json.loads((folder / "标注.json").read_text(encoding="utf-8"))["书"]
    root = work / "书"
    out = CliRunner().invoke(story, ["--locale", "zh", "init", str(root), "--书名", "评估", "--类型", "玄幻",
                                     "--每章目标字数", str(labels.get("每章目标字数", 3000))])
    if out.exit_code != 0:
        raise RuntimeError(out.output)
    shutil.copytree(folder / "书", root, dirs_exist_ok=True)
    lw = _Book(root)
    lw("fix", "-m", "fix(设定): 评估用的书")
    for name, kind in labels.get("名册", []):
        lw("entity", "add", name, "--类型", kind)
    first = labels["第1章"]
    _freeze(lw, first["合同"])
    lw("draft", "A", str(folder / first["文件"]))
    seen: set[tuple[str, str]] = set()

    def lowering(real: Any) -> Any:
        def lowered(*args: Any, **kwargs: Any) -> list[Any]:
            out = []
            for f in real(*args, **kwargs):
                if f.kind in KINDS and f.severity in (ERROR, WARN):
                    if (f.kind, f.message) not in seen:
                        seen.add((f.kind, f.message))
                        alarms.append(("第1章", f.kind, f.message))
                    f = replace(f, severity=WARN)
                out.append(f)
            return out
        return lowered

    # the check and settle's own recheck of the contract both see the first chapter lowered
    patched = [(review, "check_draft"), (settle, "contract_findings")]
    originals = [getattr(module, name) for module, name in patched]
    for (module, name), real in zip(patched, originals):
        setattr(module, name, lowering(real))
    try:
        lw("check")
        for lens in ("读者", "编辑", "事实"):
            lw("review", lens, "-", stdin=f"{lens}：可以。")
        lw("summary", "苏青禾在落雁城翻出梅娘的药方。")
        lw("accept")
    finally:
        for (module, name), real in zip(patched, originals):
            setattr(module, name, real)
    return root


def _matches(finding: dict[str, Any], label: dict[str, str], contract: list[str], sentence: bool = True) -> bool:
    if finding["kind"] != label["类"]:
        return False
    message = finding["message"]
    for line in contract:  # a contract finding quotes its line (its start: findings.clipped): the field must be named outside it
        message = message.replace(f"合同「{visible(clipped(line))}」", "合同")
    text = message + "｜" + finding["excerpt"]
    field = label["字段"]  # for an event that never happens, the whole line: its quoted start names it
    return (field in message or (field in contract and f"「{visible(clipped(field))}」" in message)) and (not sentence or not label.get("句") or label["句"] in text)


def score(folder: Path, work: Path | None = None) -> Score:
    """Check every draft of the set and count what was caught and what was a false alarm."""
    own = work is None
    work = work or Path(tempfile.mkdtemp(prefix="lw-checkscore-"))
    try:
        alarms: list[tuple[str, str, str]] = []
        base = _base_book(folder, work, alarms)
        drafts = json.loads((folder / "标注.json").read_text(encoding="utf-8"))["草稿"]
        result = Score(drafts=len(drafts), false_alarms=alarms)
        for name, label in drafts.items():
            root = work / f"稿-{len(result.missed) + sum(result.caught.values())}-{name}"
            shutil.copytree(base, root)
            lw = _Book(root)
            _freeze(lw, label["合同"])
            lw("draft", "A", str(folder / name))
            try:
                findings = json.loads(lw("check", "--json"))["A"]
            finally:
                shutil.rmtree(root, ignore_errors=True)
            scored = [f for f in findings if f["kind"] in KINDS and f["severity"] in ("error", "warn")]
            for planted in label["应报"]:
                cls = planted["类"]
                result.planted[cls] = result.planted.get(cls, 0) + 1
                hit = [f for f in scored if _matches(f, planted, label["合同"])]
                if hit:
                    result.caught[cls] = result.caught.get(cls, 0) + 1
                else:
                    result.missed.append((name, planted["字段"]))
            for f in scored:
                if not any(_matches(f, p, label["合同"], sentence=False) for p in label["应报"]):
                    result.false_alarms.append((name, f["kind"], f["message"]))
            if not label["应报"] and any(f["severity"] == "error" for f in scored):
                result.sent_back.append(name)
        return result
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)
