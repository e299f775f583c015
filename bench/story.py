"""Story Repo v7 benchmark (storyrepo plugin).

On a generated 2,000-chapter book (500 promises, 300 characters, 200 info gaps):

1. full cache rebuild   vs  reading every source file once (the read floor)      target <= 3x
2. settle of one chapter vs a bare ``git add`` + ``git commit`` of one file       target <= 3x
3. mechanical checks of a 3,000-character draft, generated and from a web novel   target < 50 ms
4. precision/recall of the new-proper-noun check on the labelled chapters: the sets written for
   the project, the development sets (tuned on: public-domain fiction, web-novel chapters, and
   鲁迅《彷徨》 of 专名-他人-评估, no longer blind; 专名-网文-盲评 and 专名-他人-盲评 after their one
   blind run; 专名-网文-盲评二 and 专名-他人-盲评二 since task N7; 专名-网文-盲评三 since task N8;
   专名-网文-盲评四 since task N9; 专名-网文-盲评五 since task N10; 专名-网文-盲评六 since task N11;
   专名-网文-盲评七 since task N12; 专名-网文-盲评八 since task N14; 专名-网文-盲评十, stop 46's gate, and
   专名-网文-盲评十一 since task N15; 专名-网文-盲评十二 and 十三 since stop 48, 十四 and 十五 since stop 49) and the blind evaluation sets
   (专名-他人-新评估, 专名-网文-评估, 专名-网文-盲评九, 盲评四十六, 盲评四十七: never tuned on; 十六 and 十七 since
   stop 50, 十八 and 十九 since stop 51, 二十 and 二十一 since stop 52, 二十二 and 二十三 since stop 53, 二十四 and 二十五 since stop 54,
   二十六 and 二十七 since stop 55, 二十八 and 二十九 since stop 56, 三十 and 三十一 since stop 57, 三十二 and 三十三 since
   stop 58, 三十四 and 三十五 since stop 59, 三十六 and 三十七 since stop 60, 三十八 and 三十九 since
   stop 61, 四十 and 四十一 since stop 62, 四十二 and 四十三 since stop 63, 四十四 and 四十五 since stop 64)
                                                                                  goal there: P >= 0.9, R >= 0.8

Usage: .venv/bin/python bench/story.py [--chapters N] [--runs R] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from lw_storyrepo import cache, fixtures, settle, workspace
from lw_storyrepo.checks import CheckContext, check_draft
from lw_storyrepo.checkscore import score as check_score
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.drafts import Draft
from lw_storyrepo.fixtures import ScriptedModel, make_book, prose
from lw_storyrepo.gitops import Git
from lw_storyrepo.propernouns import lexicon, score

CORPUS_DIR = Path(__file__).resolve().parent.parent / "plugins" / "storyrepo" / "tests" / "corpus"


def timed(fn, runs: int) -> tuple[float, list[float]]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out), out


def fresh(draft, n: int):
    """``draft`` with one line of its own added: a text the process has not read before."""
    line = f"这是第{n}稿。\n"
    return replace(draft, body=draft.body + line, text=draft.text + line if draft.text else draft.text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chapters", type=int, default=2000)
    ap.add_argument("--promises", type=int, default=500)
    ap.add_argument("--characters", type=int, default=300)
    ap.add_argument("--secrets", type=int, default=200)
    ap.add_argument("--words", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", default=None)
    args = ap.parse_args()
    os.environ.setdefault("LW_STORY_DATE", "2026-01-01T00:00:00+0000")

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="story-bench-"))
    root = base / "基准书"
    if root.exists():
        shutil.rmtree(root)
    t = time.perf_counter()
    repo = make_book(root, chapters=args.chapters, promises=args.promises, characters=args.characters,
                     secrets=args.secrets, words=args.words, volume_size=40, seed=11)
    files = repo.source_files()
    size = sum(p.stat().st_size for p in files)
    print(f"book: {args.chapters} chapters, {args.promises} promises, {args.characters} characters, "
          f"{args.secrets} info gaps; {len(files)} source files, {size / 1e6:.1f} MB "
          f"(generated in {time.perf_counter() - t:.1f} s)")

    # 1. rebuild vs read floor
    def read_floor() -> None:
        for p in repo.source_files():
            p.read_bytes().decode("utf-8")

    read_floor()
    floors, rebuilds = [], []
    for _ in range(args.runs):  # interleaved, so machine noise hits both alike
        floors.append(timed(read_floor, 1)[0])
        rebuilds.append(timed(lambda: cache.rebuild(repo), 1)[0])
    floor, rebuild = statistics.median(floors), statistics.median(rebuilds)
    print(f"rebuild   {rebuild * 1000:8.1f} ms   read floor {floor * 1000:8.1f} ms   ratio {rebuild / floor:5.2f}x  (target <= 3x)"
          f"  [best of {args.runs}: {min(rebuilds) * 1000:.0f} vs {min(floors) * 1000:.0f} ms = {min(rebuilds) / min(floors):.2f}x]")
    q, _ = timed(lambda: [cache.query(repo, k) for k in ("due", "debt", "promises")], args.runs)
    print(f"3 queries on a fresh cache (incl. staleness check) {q * 1000:.1f} ms")

    # 2. settle vs bare commit
    model = ScriptedModel(seed=2)
    settles = []
    for _ in range(args.runs):
        # drive to the acceptance, then time settle alone
        orig_accept = fixtures.accept

        def timed_accept(r, label=None):
            state = workspace.require_state(r)
            state["阶段"] = "accepted"
            workspace.save_state(r, state)
            t0 = time.perf_counter()
            c = settle.settle(r)
            settles.append(time.perf_counter() - t0)
            return c

        fixtures.accept = timed_accept
        try:
            model.run_chapter(repo)
        finally:
            fixtures.accept = orig_accept
    git = Git(repo.root)

    def bare_commits(rel_of) -> list[float]:
        out = []
        for i in range(args.runs):
            rel = rel_of(i)
            path = repo.p(rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{i}\n" * 1000, encoding="utf-8")
            t0 = time.perf_counter()
            git.run("add", "--", rel)
            git.run("commit", "-q", "-m", f"bench {i}")
            out.append(time.perf_counter() - t0)
        return out

    bare_small = bare_commits(lambda i: "文风/基准.md")
    bare_chapter = bare_commits(lambda i: f"定稿/正文/{9000 + i:04d}-基准.md")
    s, b1, b2 = statistics.median(settles), statistics.median(bare_small), statistics.median(bare_chapter)
    print(f"settle    {s * 1000:8.1f} ms   bare commit of a new chapter file {b2 * 1000:6.1f} ms   ratio {s / b2:5.2f}x  (target <= 3x)")
    print(f"          (bare commit of a file in a small folder {b1 * 1000:.1f} ms: ratio {s / b1:.2f}x; settle writes the "
          f"chapter into the {args.chapters}-entry 正文 tree, the chapter file, promises, settings, memory and the workspace)")

    # 3. checks of a 3,000-character draft
    t0 = time.perf_counter()
    ctx = CheckContext.load(repo)
    load = time.perf_counter() - t0
    people = sorted(repo.characters())[:12]
    body = prose(random.Random(5), people, 3000)
    sec = repo.secrets()[0]
    outsider = next(p for p in people if p not in [str(k) for k in sec.meta.get("知情人") or []])
    body += f"{outsider}道：“{sec.meta['关键词'][0]}和{sec.meta['关键词'][1]}。”\n"
    draft = Draft("A", {"推进承诺": ["P-001"]}, body, 20)
    t0 = time.perf_counter()
    findings = check_draft(repo, draft, {"合同": ["P-001 推进"]}, ctx)
    cold = time.perf_counter() - t0
    # "warm" is a warm process meeting a draft it has not read: each timed run checks a new draft (one line more,
    # its own), so no per-text cache (the lexicon keeps the last texts' segmentation) is measured as the check
    warms = [timed(lambda: check_draft(repo, fresh(draft, i), {"合同": ["P-001 推进"]}, ctx), 1)[0]
             for i in range(max(9, args.runs))]
    warm = statistics.median(warms)
    again = timed(lambda: check_draft(repo, draft, {"合同": ["P-001 推进"]}, ctx), max(9, args.runs))[0]
    print(f"checks    {warm * 1000:8.1f} ms warm, each run a new draft ({len(body)} chars, {len(findings)} findings; "
          f"first call on this draft {cold * 1000:.0f} ms; book context load {load * 1000:.0f} ms, once per "
          f"transaction)  (target < 50 ms)  [best of {len(warms)}: {min(warms) * 1000:.1f} ms; the same draft "
          f"checked again {again * 1000:.1f} ms]")
    # the generated prose above is thin in names; a web novel's chapter is crowded with them, and the
    # new-name check is the slowest of the checks: the same book checks 3,000 characters of one
    dense = "".join(quick_meta(p.read_text(encoding="utf-8"), p.name)[1]
                    for p in sorted((CORPUS_DIR / "专名-网文-盲评").glob("0*.md")))[:3000]
    real = Draft("A", {"推进承诺": ["P-001"]}, dense, 20)
    check_draft(repo, real, {"合同": ["P-001 推进"]}, ctx)
    # a baseline of the same run, so that a slower machine shows as a slower floor: one pass of the
    # segmenter the name check rests on over the same lines (no check can do less than read them once);
    # interleaved with the checks, so that a busy machine slows both alike
    cut = lexicon().jieba.lcut
    reals, floors_real = [], []
    for _ in range(max(9, args.runs)):
        reals.append(timed(lambda: check_draft(repo, fresh(real, len(reals)), {"合同": ["P-001 推进"]}, ctx), 1)[0])
        floors_real.append(timed(lambda: [cut(line, HMM=True) for line in dense.splitlines() if line], 1)[0])
    warm_real, floor_real = statistics.median(reals), statistics.median(floors_real)
    print(f"checks    {warm_real * 1000:8.1f} ms warm, each run a new draft, on 3,000 characters of a web novel's chapters (专名-网文-盲评, "
          f"a development set: names on every line)  (target < 50 ms)  [best of {len(reals)}: {min(reals) * 1000:.1f} ms]")
    print(f"          (one segmenter pass over the same 3,000 characters {floor_real * 1000:.1f} ms, best "
          f"{min(floors_real) * 1000:.1f} ms: the checks are {warm_real / floor_real:.1f}x that floor, best to best "
          f"{min(reals) / min(floors_real):.1f}x; on the generated draft {warm * 1000:.1f} ms)")
    code = ("import time; t=time.perf_counter(); from lw_storyrepo.propernouns import lexicon; lexicon(); "
            "print(round((time.perf_counter()-t)*1000))")
    ms = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    print(f"          (one-time jieba dictionary load per process: {ms} ms, not part of the per-draft figure)")

    # 4. quality of the new-proper-noun check on the labelled chapters
    corpus = CORPUS_DIR
    for folder in ("专名", "专名-留出", "专名-验证", "专名-他人-开发", "专名-他人-开发二", "专名-他人-开发三",
                   "专名-他人-开发四", "专名-他人-开发五", "专名-他人-开发六",
                   "专名-他人-开发七",
                   "专名-网文-开发", "专名-网文-开发二", "专名-网文-开发三", "专名-网文-开发四",
                   "专名-网文-开发五", "专名-网文-开发六", "专名-网文-开发七",
                   "专名-网文-开发八",
                   "专名-他人-评估", "专名-他人-新评估", "专名-网文-评估", "专名-他人-盲评", "专名-网文-盲评",
                   "专名-网文-盲评二", "专名-他人-盲评二", "专名-网文-盲评三", "专名-网文-盲评四",
                   "专名-网文-盲评五", "专名-网文-盲评六", "专名-网文-盲评七", "专名-网文-盲评八",
                   "专名-网文-盲评九", "专名-网文-盲评十", "专名-网文-盲评十一", "专名-网文-盲评十二",
                   "专名-网文-盲评十三", "专名-网文-盲评十四", "专名-网文-盲评十五",
                   "专名-网文-盲评十六", "专名-网文-盲评十七", "专名-网文-盲评十八", "专名-网文-盲评十九",
                   "专名-网文-盲评二十", "专名-网文-盲评二十一", "专名-网文-盲评二十二", "专名-网文-盲评二十三",
                   "专名-网文-盲评二十四", "专名-网文-盲评二十五", "专名-网文-盲评二十六", "专名-网文-盲评二十七",
                   "专名-网文-盲评二十八", "专名-网文-盲评二十九", "专名-网文-盲评三十", "专名-网文-盲评三十一",
                   "专名-网文-盲评三十二", "专名-网文-盲评三十三",
                   "专名-网文-盲评三十四", "专名-网文-盲评三十五",
                   "专名-网文-盲评三十六", "专名-网文-盲评三十七",
                   "专名-网文-盲评三十八", "专名-网文-盲评三十九",
                   "专名-网文-盲评四十", "专名-网文-盲评四十一",
                   "专名-网文-盲评四十二", "专名-网文-盲评四十三",
                   "专名-网文-盲评四十四", "专名-网文-盲评四十五",
                   "专名-网文-盲评四十六", "专名-网文-盲评四十七"):
        result = score(corpus / folder)
        # the 盲评 to 盲评八 and 盲评十 to 十三 sets have been tuned on since their blind runs (盲评十 and 十一 since
        # task N15, 十二 and 十三 since stop 48, 十四 and 十五 since stop 49, 十六 and 十七 since stop 50, 十八 and 十九
        # since stop 51, 二十 and 二十一 since stop 52, 二十二 and 二十三 since stop 53, 二十四 and 二十五 since stop 54,
        # 二十六 and 二十七 since stop 55, 二十八 and 二十九 since stop 56, 三十 and 三十一 since stop 57, 三十二 and
        # 三十三 since stop 58, 三十四 and 三十五 since stop 59, 三十六 and 三十七 since stop 60, 三十八 and 三十九 since
        # stop 61, 四十 and 四十一 since stop 62, 四十二 and 四十三 since stop 63, 四十四 and 四十五 since stop 64);
        # 盲评九 never was
        blind = folder in ("专名-他人-新评估", "专名-网文-评估", "专名-网文-盲评九", "专名-网文-盲评四十六",
                           "专名-网文-盲评四十七")
        goal = "  (goal on this blind set: precision >= 0.9, recall >= 0.8)" if blind else ""
        print(f"new names {folder:10s} precision {result.precision:.2f} recall {result.recall:.2f} "
              f"({result.chapters} labelled chapters, {result.true_positives + len(result.missed)} names){goal}")

    # 5. continuity, contract and leak checks on the labelled drafts (through lw story)
    for folder in ("连续性-开发", "连续性-评估", "连续性-评估二", "连续性-评估三", "连续性-评估四",
                   "连续性-盲评", "连续性-开发二", "连续性-盲评二", "连续性-开发三", "连续性-盲评三",
                   "连续性-开发四", "连续性-开发五", "连续性-盲评五", "连续性-开发六", "连续性-盲评七",
                   "连续性-盲评六", "连续性-盲评八", "连续性-盲评九", "连续性-盲评十", "连续性-盲评十一",
                   "连续性-盲评四", "连续性-盲评十二", "连续性-盲评十三", "连续性-盲评十四", "连续性-盲评十五", "连续性-盲评十六",
                   "连续性-盲评十七", "连续性-盲评十八", "连续性-盲评十九", "连续性-盲评二十", "连续性-盲评二十一",
                   "连续性-盲评二十二", "连续性-盲评二十三", "连续性-盲评二十四", "连续性-盲评二十五",
                   "连续性-盲评二十六", "连续性-盲评二十七", "连续性-盲评二十八", "连续性-盲评二十九",
                   "连续性-盲评三十", "连续性-盲评三十一", "连续性-盲评三十二", "连续性-盲评三十三",
                   "连续性-盲评三十四", "连续性-盲评三十五", "连续性-盲评三十六", "连续性-盲评三十七",
                   "连续性-盲评三十八", "连续性-盲评三十九", "连续性-盲评四十", "连续性-盲评四十一",
                   "连续性-盲评四十二", "连续性-盲评四十三", "连续性-盲评四十四", "连续性-盲评四十五",
                   "连续性-盲评四十六", "连续性-盲评四十七", "连续性-盲评四十八", "连续性-盲评四十九",
                   "连续性-盲评五十", "连续性-盲评五十一", "连续性-盲评五十二", "连续性-盲评五十三",
                   "连续性-盲评五十四", "连续性-盲评五十五", "连续性-盲评五十六", "连续性-盲评五十七"):
        # first runs: the READMEs; all tuned on since but 盲评四, 五十六 and 五十七 (the evaluation sets here; 十二 and 十三 are development
        # sets since task C9, 十四 since task C10, 十五 since task C12, 十六 and 十七 since task C16, 十八 to 二十一 since
        # stop 47, 二十二 and 二十三 since stop 48, 二十四 and 二十五 since stop 49, 二十六 and 二十七 since stop 50,
        # 二十八 and 二十九 since stop 51, 三十 and 三十一 since stop 52, 三十二 and 三十三 since stop 53,
        # 三十四 and 三十五 since stop 54, 三十六 and 三十七 since stop 55, 三十八 and 三十九 since stop 56, 四十 and 四十一
        # since stop 57, 四十二 and 四十三 since stop 58, 四十四 and 四十五 since stop 59, 四十六 and 四十七 since stop 60,
        # 四十八 and 四十九 since stop 61, 五十 and 五十一 since stop 62, 五十二 and 五十三 since stop 63, 五十四 and
        # 五十五 since stop 64)
        if (corpus / folder).is_dir():
            print(f"checks    {folder:8s} {check_score(corpus / folder).line()}")
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
