"""A learned decision for the new-proper-noun check (issue 30), trained and measured on the
labelled DEVELOPMENT chapters only.

    .venv/bin/python tools/names_model.py cv [--broad] [--without=f1,f2]  # leave-one-set-out: learned vs rules
    .venv/bin/python tools/names_model.py recall [--broad]  # how many labelled names are ever proposed
    .venv/bin/python tools/names_model.py firstsight        # the rules as they were before each set came
    .venv/bin/python tools/names_model.py train             # the model on every development set, as JSON
    .venv/bin/python tools/names_model.py time              # warm time per 3,000-character chapter
    .venv/bin/python tools/names_model.py rescue            # the rules plus learned additions from the broad generator

``--broad`` adds the broad candidate generator; ``--without`` zeroes features before training.
The result (docs/names-learned-decision.md): the learned decision does NOT beat the hand rules
in cross-validation, so it is not wired in; ``find_new_nouns``'s default is the hand rules.

Each candidate the detector weighs (``find_new_nouns(rows=...)``) is one example: its
:data:`~lw_storyrepo.propernouns.FEATURES` and whether the chapter's front matter lists it among
``新专名`` (any form; ``不计`` names are left out). The model is a logistic regression fitted by
Newton's method with an L2 penalty, in pure Python, deterministic: the same chapters give the
same weights, rounded, printed as sorted JSON. The evaluation sets are never read: they are
taken out of the folder list by name before anything is opened.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "plugins" / "storyrepo"))

from lw_storyrepo.dialect import quick_meta  # noqa: E402
from lw_storyrepo.propernouns import FEATURES, find_new_nouns, learned_decision, score  # noqa: E402
from lw_storyrepo.sources import read_text  # noqa: E402

CORPUS = ROOT / "plugins" / "storyrepo" / "tests" / "corpus"
EVALUATION = frozenset({"专名-网文-评估", "专名-他人-新评估", "专名-他人-评估", "专名-网文-盲评九",
                        "专名-网文-盲评四十六", "专名-网文-盲评四十七"})
"""Blind sets: never opened here (the lead scores them once, on the final branch). 专名-网文-盲评四 is a
development set since task N9 (first blind run 0.79 / 0.63, 0.80 / 0.64 after N8; tuned on since), 专名-网文-盲评五
since task N10 (first blind run 0.79 / 0.56, 0.79 / 0.59 after N9; tuned on since), 专名-网文-盲评六 since
task N11 (first blind run 0.84 / 0.58, 0.84 / 0.60 after N9, 0.84 / 0.58 after N10; tuned on since), 专名-网文-盲评七
since task N12 (first blind run 0.79 / 0.59, 0.78 / 0.57 after N10 and N11; tuned on since), 专名-网文-盲评八
since task N14 (first blind run 0.84 / 0.61, 0.85 / 0.62 after N11, 0.85 / 0.64 after N12; tuned on since). 专名-网文-盲评九 was
named here before it landed (stop 45), so it was never read. 专名-网文-盲评十 (stop 46's gate, counts seen: 0.81 / 0.70,
0.82 / 0.70) and 专名-网文-盲评十一 (blind runs 0.73 / 0.69, 0.73 / 0.70) are development sets since task N15 (stop 47);
专名-网文-盲评十二 and 盲评十三 were named here before they landed (stop 47), never read until stop 48 (blind runs
0.76 / 0.67 → 0.79 / 0.67 and 0.76 / 0.64 → 0.78 / 0.64), and are development sets since stop 48's rounds.
专名-网文-盲评十四 and 盲评十五 were named here before they landed (stop 48), never read until stop 49 (blind runs
0.61 / 0.68 → 0.64 / 0.73 and 0.79 / 0.71 → 0.80 / 0.76), and are development sets since stop 49.
专名-网文-盲评十六 and 盲评十七 were named here before they landed (stop 49), never read until stop 50 (blind runs
0.73 / 0.77 → 0.75 / 0.78 and 0.81 / 0.66 → 0.83 / 0.67), and are development sets since stop 50.
专名-网文-盲评十八 and 盲评十九 were named here before they landed (stop 50), never read until stop 51 (blind runs
0.80 / 0.75 and 0.77 / 0.70, unchanged by stop 50's round), and are development sets since stop 51.
专名-网文-盲评二十 and 盲评二十一 were named here before they landed (stop 51), never read until stop 52 (blind runs
0.80 / 0.69 and 0.66 / 0.74 → 0.67 / 0.76 with stop 51's rounds), and are development sets since stop 52.
专名-网文-盲评二十二 and 盲评二十三 were named here before they landed (stop 52), never read until stop 53 (blind runs
0.73 / 0.80 and 0.86 / 0.85, unchanged by stop 52's rounds), and are development sets since stop 53.
专名-网文-盲评二十四 and 盲评二十五 were named here before they landed (stop 53), never read until stop 54 (blind runs
0.74 / 0.72 and 0.83 / 0.74, unchanged by stop 53's rounds), and are development sets since stop 54.
专名-网文-盲评二十六 and 盲评二十七 were named here before they landed (stop 54), never read until stop 55 (blind runs
0.77 / 0.75 → 0.79 / 0.76 and 0.89 / 0.78, unchanged, with stop 54's rounds), and are development sets since stop 55.
专名-网文-盲评二十八 and 盲评二十九 were named here before they landed (stop 55), never read until stop 56 (blind runs
0.75 / 0.75 and 0.76 / 0.77, unchanged by stop 55's rounds), and are development sets since stop 56.
专名-网文-盲评三十 and 盲评三十一 were named here before they landed (stop 56), never read until stop 57 (blind runs
0.96 / 0.75 and 0.80 / 0.70, unchanged by stop 56's rounds), and are development sets since stop 57.
专名-网文-盲评三十二 and 盲评三十三 were named here before they landed (stop 57), never read until stop 58 (blind runs
0.92 / 0.81 → 0.94 / 0.81 and 0.78 / 0.80, unchanged, with stop 57's rounds), and are development sets since stop 58.
专名-网文-盲评三十四 and 盲评三十五 were named here before they landed (stop 58), never read until stop 59 (blind runs
0.93 / 0.71 → 0.93 / 0.73 and 0.84 / 0.89, unchanged, with stop 58's rounds), and are development sets since stop 59.
专名-网文-盲评三十六 and 盲评三十七 were named here before they landed (stop 59), never read until stop 60 (blind runs
0.86 / 0.79, unchanged, and 0.90 / 0.67 → 0.91 / 0.68 with stop 59's rounds), and are development sets since stop 60.
专名-网文-盲评三十八 and 盲评三十九 were named here before they landed (stop 60), never read until stop 61 (blind runs
0.76 / 0.66 → 0.76 / 0.68 and 0.80 / 0.80, unchanged, with stop 60's rounds), and are development sets since stop 61.
专名-网文-盲评四十 and 盲评四十一 were named here before they landed (stop 61), never read until stop 62 (blind runs
0.82 / 0.80 and 0.83 / 0.73, unchanged by stop 61's rounds), and are development sets since stop 62.
专名-网文-盲评四十二 and 盲评四十三 were named here before they landed (stop 62), never read until stop 63 (blind runs
0.70 / 0.68 → 0.72 / 0.73 and 0.75 / 0.68, unchanged, with stop 62's rounds), and are development sets since stop 63.
专名-网文-盲评四十四 and 盲评四十五 were named here before they landed (stop 63), never read until stop 64 (blind runs
0.73 / 0.70 → 0.74 / 0.70 → 0.77 / 0.70 with stop 63's and stop 64's rounds, and 0.82 / 0.73, unchanged), and are
development sets since stop 64.
专名-网文-盲评四十六 and 盲评四十七 were named here before they landed (stop 64)."""
PENALTY = 1.0
ROUNDS = 30
DIGITS = 4

Row = tuple[list[float], int]


def development_folders() -> list[Path]:
    return sorted(p for p in CORPUS.glob("专名*") if p.is_dir() and p.name not in EVALUATION
                  and "评估" not in p.name and p.name not in EVALUATION)


def pool(folder: Path) -> str:
    return "网文" if "网文" in folder.name else "他人" if "他人" in folder.name else "项目"


def chapters(folder: Path, broad: bool = False) -> list[tuple[list[tuple[str, list[float]]], dict[str, list[str]], set[str]]]:
    """Per chapter: every candidate with its features, the answers (first form -> all forms), the neutral names."""
    out = []
    for path in sorted(folder.glob("*.md")):
        if path.name == "README.md":
            continue
        meta, body = quick_meta(read_text(path), path.name)
        gold: dict[str, list[str]] = {}
        for item in meta.get("新专名") or []:
            m = re.fullmatch(r"(.+?)（(.+)）", str(item))
            if m:
                forms = [f.strip() for f in m.group(1).split("|") if f.strip()]
                gold[forms[0]] = forms
        rows: list[tuple[str, list[float]]] = []
        find_new_nouns(body, [str(k) for k in meta.get("已知") or []], rows=rows, broad=broad)
        out.append((rows, gold, {str(k) for k in meta.get("不计") or []}))
    return out


def examples(folder: Path, broad: bool = False, without: frozenset[str] = frozenset()) -> list[Row]:
    rows: list[Row] = []
    mask = [f not in without for f in FEATURES]
    for candidates, gold, neutral in chapters(folder, broad):
        answers = {f for forms in gold.values() for f in forms}
        for name, values in candidates:
            values = [v if keep else 0.0 for v, keep in zip(values, mask)]
            if name in answers:
                rows.append((values, 1))
            elif name not in neutral:
                rows.append((values, 0))
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Hessian is positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for k in range(col, n + 1):
                    m[r][k] -= f * m[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def train(rows: list[Row]) -> dict[str, Any]:
    """Logistic regression (L2, Newton's method) on ``rows``; the threshold on the score is the
    one that makes the best F1 on the same rows."""
    grouped: dict[tuple[float, ...], list[int]] = {}
    for values, label in rows:  # identical feature vectors weigh once, with their counts
        grouped.setdefault(tuple(values), [0, 0])[label] += 1
    data = sorted(grouped.items())
    n = len(FEATURES)
    w = [0.0] * n
    for _ in range(ROUNDS):
        grad = [PENALTY * w[j] * (j > 0) for j in range(n)]
        hess = [[PENALTY * (i == j and i > 0) for j in range(n)] for i in range(n)]
        for x, (neg, pos) in data:
            z = sum(wj * xj for wj, xj in zip(w, x))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            g = (neg + pos) * p - pos
            h = (neg + pos) * p * (1 - p)
            nz = [j for j in range(n) if x[j]]
            for i in nz:
                grad[i] += g * x[i]
                hi, xi = hess[i], h * x[i]
                for j in nz:
                    hi[j] += xi * x[j]
        step = _solve(hess, grad)
        w = [wj - sj for wj, sj in zip(w, step)]
    w = [round(v, DIGITS) for v in w]
    scored = sorted(((round(sum(wj * xj for wj, xj in zip(w, x)), DIGITS), neg, pos) for x, (neg, pos) in data),
                    reverse=True)
    total_pos = sum(pos for _z, _n, pos in scored)
    best, threshold, tp, fp = -1.0, 0.0, 0, 0
    for k, (z, neg, pos) in enumerate(scored):
        tp, fp = tp + pos, fp + neg
        if k + 1 < len(scored) and scored[k + 1][0] == z:
            continue
        f1 = 2 * tp / (tp + fp + total_pos) if tp else 0.0
        if f1 > best:
            best, threshold = f1, z
    return {"features": list(FEATURES), "threshold": threshold,
            "weights": {f: v for f, v in zip(FEATURES, w)}}


def dump(model: dict[str, Any]) -> str:
    return json.dumps(model, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def cv(broad: bool = False, without: frozenset[str] = frozenset(), folders: list[Path] | None = None) -> str:
    """Leave one development set out: train on the others, score the held-out set with the learned
    decision and with the hand rules; per set and pooled (网文, 他人, 项目, all)."""
    folders = development_folders() if folders is None else folders
    rows = {f.name: examples(f, broad, without) for f in folders}
    lines = [f"{'held-out set':<16}{'rules P':>9}{'R':>6}{'F1':>6}{'learned P':>11}{'R':>6}{'F1':>6}"]
    pooled: dict[str, list[int]] = {}

    def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        return p, r, 2 * p * r / (p + r) if p + r else 0.0

    for folder in folders:
        model = train([r for name, rs in rows.items() if name != folder.name for r in rs])
        rule, learned = score(folder), score(folder, decide=learned_decision(model), broad=broad)
        counts = [rule.true_positives, len(rule.false_positives), len(rule.missed),
                  learned.true_positives, len(learned.false_positives), len(learned.missed)]
        for key in (pool(folder), "all"):
            pooled[key] = [a + b for a, b in zip(pooled.get(key, [0] * 6), counts)]
        a, b = prf(*counts[:3]), prf(*counts[3:])
        lines.append(f"{folder.name:<16}{a[0]:>9.2f}{a[1]:>6.2f}{a[2]:>6.2f}{b[0]:>11.2f}{b[1]:>6.2f}{b[2]:>6.2f}")
    for key in [k for k in ("网文", "他人", "项目", "all") if k in pooled]:
        counts = pooled[key]
        a, b = prf(*counts[:3]), prf(*counts[3:])
        lines.append(f"{'pooled ' + key:<16}{a[0]:>9.2f}{a[1]:>6.2f}{a[2]:>6.2f}{b[0]:>11.2f}{b[1]:>6.2f}{b[2]:>6.2f}"
                     f"   (tp/fp/fn rules {counts[0]}/{counts[1]}/{counts[2]}, learned {counts[3]}/{counts[4]}/{counts[5]})")
    return "\n".join(lines)


def candidate_recall(broad: bool = False) -> str:
    lines = []
    total = [0, 0]
    for folder in development_folders():
        hit = gold_n = 0
        for candidates, gold, _neutral in chapters(folder, broad):
            names = {name for name, _v in candidates}
            gold_n += len(gold)
            hit += sum(any(f in names for f in forms) for forms in gold.values())
        total = [total[0] + hit, total[1] + gold_n]
        lines.append(f"{folder.name:<16}{hit:>4}/{gold_n:<4} proposed")
    lines.append(f"{'all':<16}{total[0]:>4}/{total[1]:<4} proposed ({total[0] / max(1, total[1]):.2f})")
    return "\n".join(lines)


FIRST_SIGHT_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from lw_storyrepo.propernouns import find_new_nouns
out = []
for body, known in json.loads(sys.stdin.read()):
    out.append([n.name for n in find_new_nouns(body, known)])
print(json.dumps(out, ensure_ascii=False))
"""


def _labelled(folder: Path) -> list[tuple[str, list[str], dict[str, list[str]], set[str]]]:
    out = []
    for path in sorted(folder.glob("*.md")):
        if path.name != "README.md":
            meta, body = quick_meta(read_text(path), path.name)
            gold: dict[str, list[str]] = {}
            for item in meta.get("新专名") or []:
                m = re.fullmatch(r"(.+?)（(.+)）", str(item))
                if m:
                    forms = [f.strip() for f in m.group(1).split("|") if f.strip()]
                    gold[forms[0]] = forms
            out.append((body, [str(k) for k in meta.get("已知") or []], gold, {str(k) for k in meta.get("不计") or []}))
    return out


def first_sight() -> str:
    """The hand rules as they stood just BEFORE each development set joined the repository (the
    parent of the commit that added it), run on today's labels of that set: how the rules did on
    a book they had not been tuned on yet — the honest counterpart of the cross-validated figure."""
    lines = [f"{'set':<16}{'rules at':>10}{'P':>6}{'R':>6}{'F1':>6}"]
    pooled: dict[str, list[int]] = {}
    for folder in development_folders():
        rel = folder.relative_to(ROOT).as_posix()
        added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--reverse", "--", rel], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split()
        if not added or subprocess.run(["git", "cat-file", "-e", f"{added[0]}^:plugins/storyrepo/lw_storyrepo/propernouns.py"],
                                       cwd=ROOT, capture_output=True).returncode:
            lines.append(f"{folder.name:<16}{'(no rules before it)':>28}")
            continue
        parent = added[0] + "^"
        labelled = _labelled(folder)
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", parent, "plugins/storyrepo/lw_storyrepo"], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            found = json.loads(subprocess.run(
                [sys.executable, "-c", FIRST_SIGHT_CHILD, str(Path(tmp) / "plugins" / "storyrepo")],
                input=json.dumps([[b, k] for b, k, _g, _n in labelled], ensure_ascii=False),
                capture_output=True, text=True, check=True).stdout)
        tp = fp = fn = 0
        for (_b, _k, gold, neutral), names in zip(labelled, found):
            answers = {f for forms in gold.values() for f in forms}
            hits = sum(any(f in names for f in forms) for forms in gold.values())
            tp, fn = tp + hits, fn + len(gold) - hits
            fp += len(set(names) - answers - neutral)
        for key in (pool(folder), "all"):
            pooled[key] = [a + b for a, b in zip(pooled.get(key, [0, 0, 0]), (tp, fp, fn))]
        p, r = tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0
        short = subprocess.run(["git", "rev-parse", "--short", parent], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        lines.append(f"{folder.name:<16}{short:>10}{p:>6.2f}{r:>6.2f}{2 * p * r / (p + r) if p + r else 0:>6.2f}")
    for key in ("网文", "他人", "项目", "all"):
        if key in pooled:
            tp, fp, fn = pooled[key]
            p, r = tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0
            lines.append(f"{'pooled ' + key:<16}{'':>10}{p:>6.2f}{r:>6.2f}{2 * p * r / (p + r) if p + r else 0:>6.2f}"
                         f"   (tp/fp/fn {tp}/{fp}/{fn})")
    return "\n".join(lines)


def rescue() -> str:
    """The rules as they are, plus a model that may only ADD words the broad generator alone
    proposes (trained on those rows, without the rule's vote; its threshold the one that makes
    the best F1 of rules plus additions on the training sets): pooled figures, left-one-set-out."""
    broad_at, vote_at = FEATURES.index("broad"), FEATURES.index("rule_vote")
    mask = [f not in ("rule_vote", "broad") for f in FEATURES]
    folders = development_folders()
    raw = {f.name: examples(f, broad=True) for f in folders}
    pooled: dict[str, list[int]] = {}

    def z(w: list[float], v: list[float]) -> float:
        return sum(a * b * m for a, b, m in zip(w, v, mask))

    for folder in folders:
        rows = [r for n, rs in raw.items() if n != folder.name for r in rs]
        tp = sum(1 for v, y in rows if not v[broad_at] and v[vote_at] and y)
        fp = sum(1 for v, y in rows if not v[broad_at] and v[vote_at] and not y)
        positives = sum(y for _v, y in rows)
        model = train([([x * m for x, m in zip(v, mask)], y) for v, y in rows if v[broad_at]])
        w = [model["weights"][f] for f in FEATURES]
        best, threshold, added, wrong = 2 * tp / (tp + fp + positives), math.inf, 0, 0
        for s, y in sorted(((z(w, v), y) for v, y in rows if v[broad_at]), reverse=True):
            added, wrong = added + y, wrong + 1 - y
            if 2 * (tp + added) / (tp + added + fp + wrong + positives) > best:
                best, threshold = 2 * (tp + added) / (tp + added + fp + wrong + positives), s

        def decide(v: Sequence[float], w: list[float] = w, t: float = threshold) -> bool:
            return bool(v[vote_at]) if not v[broad_at] else z(w, list(v)) >= t

        result = score(folder, decide=decide, broad=True)
        for key in (pool(folder), "all"):
            pooled[key] = [a + b for a, b in zip(pooled.get(key, [0, 0, 0]), (
                result.true_positives, len(result.false_positives), len(result.missed)))]
    lines = []
    for key in [k for k in ("网文", "他人", "项目", "all") if k in pooled]:
        tp, fp, fn = pooled[key]
        p, r = tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0
        lines.append(f"{'pooled ' + key:<16}rules + rescue P {p:.2f} R {r:.2f} F1 {2 * p * r / (p + r):.3f}"
                     f"   (tp/fp/fn {tp}/{fp}/{fn})")
    return "\n".join(lines)


def timing() -> str:
    """Warm time of ``find_new_nouns`` on the first 3,000 characters of a development set
    (median of nine): the hand rules, the learned decision, the learned one with the broad generator."""
    import time

    body = "".join(b for b, _k, _g, _n in _labelled(CORPUS / "专名-网文-盲评"))[:3000]
    find_new_nouns(body, [])
    decide = learned_decision(train([r for f in development_folders() if f.name != "专名-网文-盲评" for r in examples(f)]))
    lines = []
    for label, kwargs in (("hand rules", {}), ("learned", {"decide": decide}),
                          ("learned+broad", {"decide": decide, "broad": True})):
        times = []
        for _ in range(9):
            start = time.perf_counter()
            find_new_nouns(body, [], **kwargs)
            times.append(time.perf_counter() - start)
        lines.append(f"{label:<14}{len(body)} characters: median {sorted(times)[4] * 1000:.1f} ms")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    what = argv[1] if len(argv) > 1 else "cv"
    broad = "--broad" in argv
    without = frozenset(a.split("=", 1)[1] for a in argv if a.startswith("--without=")) \
        if any(a.startswith("--without=") for a in argv) else frozenset()
    without = frozenset(f for w in without for f in w.split(","))
    if what == "cv":
        print(cv(broad, without))
    elif what == "rescue":
        print(rescue())
    elif what == "time":
        print(timing())
    elif what == "firstsight":
        print(first_sight())
    elif what == "recall":
        print(candidate_recall(broad))
    elif what == "train":
        print(dump(train([r for f in development_folders() for r in examples(f, broad, without)])), end="")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
