"""Hostile input against every ``lw story`` surface that reads a file, stdin or a name.

Each case copies a prepared book, plants one hostile input (a source file, a workspace file, a
file named on the command line, stdin, a name with a path trick), runs the real ``lw``
executable in a subprocess with a timeout, and asserts: a non-zero exit (never 2, the
"internal error" exit), no traceback, the message names where the problem is, and the book's
files are byte-identical afterwards (or, for inputs that are legitimately taken, the operation
is fully done and stays inside the book). The cases run four at a time; the per-surface counts
and the slowest refusal are printed by the last test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from lw_storyrepo import card as decision
from lw_storyrepo import contextpack, drafts, layout as L, review, verdict
from lw_storyrepo.samples import seeded, to_reviewed

LW = str(Path(sys.executable).with_name("lw"))
TIMEOUT = 60
BANNED = ("Traceback", "internal error", "Exception:", "RecursionError", "MemoryError")  # as tests/hostile has it
ENV = dict(os.environ, LW_STORY_DATE="2026-01-01T00:00:00+0000", LANG="zh_CN.UTF-8")
ENV.pop("LC_ALL", None)
ENV.pop("LC_MESSAGES", None)
ENV.pop("LW_STORY_FAULT", None)
ENV.pop("LW_STORY_GIT", None)

CH1 = "定稿/正文/0001-北境的雪.md"
LIN = "定稿/设定/角色/林晚.md"
S1 = "定稿/设定/信息差/S-001-灭门真凶.md"
P1 = "大纲/承诺/P-001-灭门真凶.md"
STYLE = "文风/风格宪法.md"
ROSTER = "定稿/设定/名册.md"
DRAFT2 = ("---\n标题: 雪夜\n视角: 林晚\n书内时间: 冬月初四\n推进承诺:\n  - P-001\n推进说明:\n  - P-001：再得线索\n"
          "一句话事件: 林晚夜行\n在场:\n  - 林晚\n---\n" + "林晚踏雪夜行，远处灯火明灭，她没有回头。\n" * 4)

# --- hostile contents -------------------------------------------------------------------------------


def front(body: str) -> bytes:
    return ("---\n" + body + "---\n正文。\n").encode("utf-8")


def alias_bomb() -> str:
    lines = ['a0: &a0 ["哈", "哈", "哈", "哈", "哈", "哈", "哈", "哈", "哈"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 9)}]")
    return "\n".join(lines) + "\n"


CONTENTS: dict[str, Callable[[bytes], bytes]] = {
    "invalid-utf8": lambda old: old.replace("。".encode("utf-8"), b"\xff\xfe", 1) if "。".encode("utf-8") in old else old + b"\xff",
    "utf16": lambda old: old.decode("utf-8").encode("utf-16"),
    "alias-bomb": lambda old: front(alias_bomb()),
    "deep-nesting": lambda old: front("深: " + "[" * 3000 + "]" * 3000 + "\n"),
    "huge": lambda old: old + b"x" * (17 * 1024 * 1024),
    "duplicate-key": lambda old: front("姓名: 甲\n姓名: 乙\n章号: 1\n"),
    "python-tag": lambda old: front("位置: !!python/object/apply:os.system [\"echo pwned\"]\n"),
    "list-front-matter": lambda old: b"---\n- a\n- b\n---\n",
}
WRONG_TYPES: dict[str, bytes] = {
    CH1: front("章号: [1]\n标题: 北境的雪\n卷: 1\n"),
    LIN: front("姓名:\n  名: 林晚\n持有: 青霜剑\n"),
    S1: front("知情人:\n  - {a: 1}\n读者已知: 也许\n关键词: 5\n"),
    P1: front("类型: 悬念\n强度: 高\n开启章: 第一章\n"),
    STYLE: front("禁词: {a: b}\n"),
    "book.yaml": "spec_version: \"7.0\"\n书名: 书\n卷规模: -3\n".encode("utf-8"),
}
SOURCES = [CH1, LIN, S1, P1, STYLE, "book.yaml"]
COMMANDS = [
    ["query", "due"], ["rebuild"], ["health"], ["brief"], ["promise", "abandon", "P-002", "--原因", "改走暗线"],
    ["character", "move", "林晚", "北境"], ["style", "add", "禁词", "眸子一缩"], ["entity", "add", "天机阁"],
    ["timeline", "set", "1", "在场", "林晚"], ["fix"], ["vol"], ["query", "knows", "S-001"], ["prompt", "proposal"],
    ["secret", "set", "S-002", "读者已知", "否"], ["outline", "set", "总纲", "主题", "复仇"],
]


@dataclass
class Case:
    id: str
    surface: str
    stage: str
    argv: list[str]
    plant: Callable[[Path, Path], None] = lambda book, tmp: None
    stdin: bytes | None = None
    expect: str = "refuse"  # or "done"
    needles: tuple[str, ...] = ()
    done: Callable[[Path, Path], None] | None = None


@dataclass
class Outcome:
    case: Case
    returncode: int
    output: str
    seconds: float
    changed: list[str] = field(default_factory=list)
    head_moved: bool = False
    error: str = ""


def _write(rel: str, data: bytes | Callable[[bytes], bytes]) -> Callable[[Path, Path], None]:
    def plant(book: Path, tmp: Path) -> None:
        path = book / rel
        new = data(path.read_bytes()) if callable(data) else data
        path.write_bytes(new)
    return plant


def _file(name: str, data: bytes) -> Callable[[Path, Path], None]:
    def plant(book: Path, tmp: Path) -> None:
        (tmp / name).write_bytes(data)
    return plant


def source_cases() -> list[Case]:
    cases = []
    i = 0
    for kind, make in CONTENTS.items():
        for rel in SOURCES:
            command = COMMANDS[i % len(COMMANDS)]
            i += 1
            cases.append(Case(f"source-{kind}-{Path(rel).stem}-{command[0]}", " ".join(command[:2]), "settled",
                              [*command, "-C", "{book}"], _write(rel, make), needles=(rel,)))
        cases.append(Case(f"next-{kind}", "next", "settled", ["-C", "{book}"], _write(LIN, make), needles=(LIN,)))
    for rel, data in WRONG_TYPES.items():
        command = COMMANDS[i % len(COMMANDS)]
        i += 1
        cases.append(Case(f"source-wrong-types-{Path(rel).stem}-{command[0]}", " ".join(command[:2]), "settled",
                          [*command, "-C", "{book}"], _write(rel, data), needles=(rel,)))
    return cases


def input_cases() -> list[Case]:
    """Files and stdin handed to commands: drafts, reviews, summaries, repair proposals."""
    cases = []
    bad_drafts = {
        "invalid-utf8": DRAFT2.encode("utf-8").replace("。".encode("utf-8"), b"\xff", 1),
        "utf16": DRAFT2.encode("utf-16"),
        "alias-bomb": front("标题: 雪夜\n" + alias_bomb()),
        "deep-nesting": front("标题: 雪夜\n深: " + "[" * 3000 + "]" * 3000 + "\n"),
        "huge": DRAFT2.encode("utf-8") + b"x" * (17 * 1024 * 1024),
        "duplicate-key": front("标题: 雪夜\n标题: 夜雪\n"),
        "python-tag": front("标题: !!python/object/apply:os.system [\"echo pwned\"]\n"),
        "wrong-type-moves": front("标题: 雪夜\n推进承诺:\n  P-001: 1\n"),
        "wrong-type-title": front("标题:\n  - 雪\n  - 夜\n"),
        "list-front-matter": b"---\n- a\n---\n",
    }
    for kind, data in bad_drafts.items():
        cases.append(Case(f"draft-file-{kind}", "draft", "packed", ["draft", "A", "{tmp}/草稿.md", "-C", "{book}"],
                          _file("草稿.md", data), needles=("草稿",)))
    for kind in ("invalid-utf8", "alias-bomb", "huge"):
        cases.append(Case(f"draft-stdin-{kind}", "draft", "packed", ["draft", "B", "-", "-C", "{book}"],
                          stdin=bad_drafts[kind], needles=("stdin" if kind != "alias-bomb" else "草稿",)))
    for kind in ("invalid-utf8", "utf16", "huge"):
        data = {"invalid-utf8": "读者：好。".encode("utf-8") + b"\xc3\x28", "utf16": "读者：好。".encode("utf-16"),
                "huge": b"x" * (17 * 1024 * 1024)}[kind]
        cases.append(Case(f"review-{kind}", "review", "checked", ["review", "读者", "{tmp}/评审.md", "-C", "{book}"],
                          _file("评审.md", data), needles=("评审.md",)))
        cases.append(Case(f"review-stdin-{kind}", "review", "checked", ["review", "编辑", "-", "-C", "{book}"],
                          stdin=data, needles=("stdin",)))
    for kind, data in (("invalid-utf8", b"\xff\xfe"), ("alias-bomb", front(alias_bomb())),
                       ("duplicate-key", front("姓名: 林晚\n姓名: 晚晚\n")), ("deep-nesting", front("a: " + "{b: " * 3000 + "1" + "}" * 3000 + "\n"))):
        cases.append(Case(f"repair-propose-{kind}", "repair propose", "settled",
                          ["repair", "propose", LIN, "{tmp}/提议.md", "-C", "{book}"], _file("提议.md", data),
                          needles=("提议.md",) if kind == "invalid-utf8" else (LIN,)))
    cases.append(Case("vol-commit-summary-invalid-utf8", "vol commit", "settled",
                      ["vol", "commit", "--summary", "{tmp}/摘要.md", "-C", "{book}"], _file("摘要.md", b"\x80abc"),
                      needles=("摘要.md",)))
    return cases


def workspace_cases() -> list[Case]:
    """Workspace files the author edits by hand, broken."""
    return [
        Case("card-invalid-utf8", "decide", "brief", ["decide", "-C", "{book}"], _write(L.决策卡, lambda o: o + b"\xff"),
             needles=(L.决策卡,)),
        Case("state-alias-bomb", "next", "packed", ["-C", "{book}"], _write(L.事务, alias_bomb().encode("utf-8")),
             needles=(L.事务,)),
        Case("state-wrong-types", "pack", "packed", ["pack", "-C", "{book}"], _write(L.事务, "章号: [2]\n阶段: 乱\n".encode("utf-8")),
             needles=(L.事务,)),
        Case("state-invalid-utf8", "check", "checked", ["check", "-C", "{book}"], _write(L.事务, lambda o: b"\xff" + o),
             needles=(L.事务,)),
        Case("draft-edited-bomb", "accept", "reviewed", ["accept", "-C", "{book}"],
             _write(L.draft_file("A"), front("标题: 雪夜\n" + alias_bomb())), needles=(L.draft_file("A"),)),
        Case("draft-edited-wrong-type", "check", "checked", ["check", "-C", "{book}"],
             _write(L.draft_file("A"), front("标题: 雪夜\n在场: {林晚: 1}\n")), needles=(L.draft_file("A"),)),
        Case("acceptance-invalid-utf8", "accept", "reviewed", ["accept", "-C", "{book}"],
             _write(L.验收卡, lambda o: o.replace(b"#", b"\xfe", 1)), needles=(L.验收卡,)),
    ]


def _link(rel: str, target: str) -> Callable[[Path, Path], None]:
    def plant(book: Path, tmp: Path) -> None:
        (tmp / "书外.md").write_bytes(b"---\n\xe5\xa7\x93\xe5\x90\x8d: outside\n---\nsecret\n")
        path = book / rel
        if path.exists():
            path.unlink()
        path.symlink_to(tmp / target)
    return plant


def _nothing_outside(book: Path, tmp: Path) -> None:
    outside = sorted(p.name for p in tmp.iterdir() if p.name != book.name)
    assert outside == [], outside


def path_cases() -> list[Case]:
    """Names and links that try to leave the book."""
    def promise_inside(book: Path, tmp: Path) -> None:
        _nothing_outside(book, tmp)
        made = [p.name for p in (book / L.承诺).iterdir() if p.name.startswith("P-004")]
        assert made == ["P-004-tmpevil.md"], made

    return [
        Case("character-dotdot", "character set", "settled", ["character", "set", "../../evil", "位置", "x", "-C", "{book}"],
             needles=("../../evil",)),
        Case("character-slash", "character move", "settled", ["character", "set", "a/b", "位置", "x", "-C", "{book}"],
             needles=("a/b",)),
        Case("entity-dotdot", "entity add", "settled", ["entity", "add", "../evil", "-C", "{book}"], needles=("../evil",)),
        Case("draft-label", "draft", "packed", ["draft", "../A", "{tmp}/草稿.md", "-C", "{book}"],
             _file("草稿.md", DRAFT2.encode("utf-8")), needles=("../A",)),
        Case("repair-propose-outside", "repair propose", "settled",
             ["repair", "propose", "../../etc/passwd", "{tmp}/提议.md", "-C", "{book}"],
             _file("提议.md", b"---\na: 1\n---\n"), needles=("../../etc/passwd",)),
        Case("repair-accept-outside", "repair", "settled", ["repair", "--accept", "../x.md", "-C", "{book}"],
             needles=("../x.md",)),
        Case("secret-id-trick", "secret set", "settled", ["secret", "set", "S-001/../../x", "读者已知", "是", "-C", "{book}"],
             needles=("S-001/../../x",)),
        Case("whatif-dotdot", "whatif", "settled", ["whatif", "start", "../x", "-C", "{book}"], needles=("../x",)),
        Case("outline-dotdot", "outline set", "settled", ["outline", "set", "../../x", "段", "文本", "-C", "{book}"],
             needles=("../../x",)),
        Case("promise-title-dotdot", "promise new", "settled",
             ["promise", "new", "../../../tmp/evil", "--类型", "伏笔", "--强度", "中", "--兑付计划", "后文", "-C", "{book}"],
             expect="done", done=promise_inside),
        Case("workspace-card-link-out", "brief", "settled", ["brief", "-C", "{book}"],
             _link(L.决策卡, "书外.md"), needles=(L.决策卡,)),
        Case("workspace-draft-link-out", "check", "checked", ["check", "-C", "{book}"],
             _link(L.draft_file("A"), "书外.md"), needles=(L.draft_file("A"),)),
        Case("chapter-link-out-is-not-a-source", "query chapters", "settled", ["query", "chapters", "-C", "{book}"],
             _link("定稿/正文/0002-外.md", "书外.md"), expect="done"),
    ]


ALL = source_cases() + input_cases() + workspace_cases() + path_cases()

# --- running --------------------------------------------------------------------------------------


def _snapshot(book: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(book.rglob("*")):
        rel = path.relative_to(book).as_posix()
        if rel.split("/")[0] in (".git", ".cache") or path.is_dir():
            continue
        out[rel] = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
    return out


def _head(book: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=book, capture_output=True, text=True).stdout.strip()


def _templates(root: Path) -> dict[str, Path]:
    """Books at the stages the cases need (built once, in process)."""
    settled = seeded(root / "settled" / "书", target_words=60)
    to_reviewed(settled)
    verdict.accept(settled)
    out = {"settled": settled.root}
    for stage in ("brief", "packed", "checked", "reviewed"):
        dest = root / stage / "书"
        shutil.copytree(settled.root, dest, symlinks=True)
        from lw_storyrepo.repo import StoryRepo

        book = StoryRepo(dest)
        decision.brief(book)
        if stage != "brief":
            text = book.text(L.决策卡).replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n- [ ] P-001 推进\n")
            book.p(L.决策卡).write_text(text, encoding="utf-8")
            decision.decide(book)
            contextpack.pack(book)
        if stage in ("checked", "reviewed"):
            drafts.submit_draft(book, "A", DRAFT2)
            results = review.run_checks(book)
            assert not [f for f in results["A"] if f.severity == "error"], results
        if stage == "reviewed":
            for lens in ("读者", "编辑", "事实"):
                review.submit_review(book, lens, f"{lens}：好。")
            review.submit_summary(book, "林晚夜行。")
        out[stage] = dest
    return out


def _run(case: Case, templates: dict[str, Path], root: Path) -> Outcome:
    tmp = root / case.id
    book = tmp / "书"
    shutil.copytree(templates[case.stage], book, symlinks=True)
    case.plant(book, tmp)
    before, head = _snapshot(book), _head(book)
    argv = [LW, "story", *(a.replace("{book}", str(book)).replace("{tmp}", str(tmp)) for a in case.argv)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, input=case.stdin or b"", capture_output=True, env=ENV, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Outcome(case, -1, "", TIMEOUT, error=f"no answer within {TIMEOUT} s")
    seconds = time.perf_counter() - start
    output = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    after = _snapshot(book)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    outcome = Outcome(case, proc.returncode, output, seconds, changed, _head(book) != head)
    if case.done is not None and proc.returncode == 0:
        try:
            case.done(book, tmp)
        except AssertionError as exc:
            outcome.error = f"done-check failed: {exc}"
    return outcome


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    root = tmp_path_factory.mktemp("敌意")
    templates = _templates(root / "模板")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda c: _run(c, templates, root), ALL))
    return {o.case.id: o for o in results}


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_hostile_input_is_refused_with_a_location_and_changes_nothing(case: Case, outcomes: dict[str, Outcome]) -> None:
    o = outcomes[case.id]
    assert not o.error, o.error + "\n" + o.output
    assert not [word for word in BANNED if word in o.output], o.output
    if case.expect == "done":
        assert o.returncode == 0, o.output
        return
    assert o.returncode not in (0, 2), (o.returncode, o.output)
    for needle in case.needles:
        assert needle in o.output, (needle, o.output)
    assert o.changed == [] and not o.head_moved, (o.changed, o.output)


def test_hostile_figures(outcomes: dict[str, Outcome]) -> None:
    per_surface = Counter(o.case.surface for o in outcomes.values())
    refusals = [o for o in outcomes.values() if o.case.expect == "refuse"]
    slowest = max(refusals, key=lambda o: o.seconds)
    print(f"\nhostile storyrepo cases: {len(outcomes)} over {len(per_surface)} surfaces")
    for surface, count in sorted(per_surface.items()):
        print(f"  {surface:20s} {count}")
    print(f"slowest refusal: {slowest.seconds * 1000:.0f} ms ({slowest.case.id})")
    assert len(per_surface) >= 20


# --- issue 11, items 7 and 8 -------------------------------------------------------------------------


def _lw(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([LW, "story", *args], cwd=cwd, capture_output=True, env=env or ENV, timeout=TIMEOUT)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


@pytest.mark.parametrize("command", [["query", "due"], ["query", "chapters"], ["rebuild"], ["health"]])
def test_an_invalid_utf8_chapter_is_a_located_error_naming_file_and_byte(tmp_path: Path, command: list[str]) -> None:
    book = seeded(tmp_path / "书", target_words=60)
    to_reviewed(book)
    verdict.accept(book)
    chapter = book.p(CH1)
    data = chapter.read_bytes()
    offset = data.index("风雪扑面".encode("utf-8"))
    chapter.write_bytes(data[:offset] + b"\xff" + data[offset + 1:])
    r = _lw(*command, "-C", str(book.root))
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout
    assert f"{CH1} 第 " in r.stderr and f"at byte {offset}" in r.stderr, r.stderr


def test_the_library_readers_refuse_invalid_utf8_with_a_location(book) -> None:
    from lwcore.errors import LwError

    from lw_storyrepo import cache, health

    to_reviewed(book)
    verdict.accept(book)
    data = book.p(CH1).read_bytes()
    book.p(CH1).write_bytes(data + b"\n\xc3\x28\n")
    for call in (lambda: cache.rebuild(book), lambda: health.health_report(book), lambda: book.chapter(1)):
        with pytest.raises(LwError) as info:
            call()
        assert info.value.file == CH1 and info.value.byte == len(data) + 1 and info.value.line is not None


def test_init_with_a_relative_path(tmp_path: Path) -> None:
    r = _lw("init", "北境的雪", "--书名", "北境的雪", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "北境的雪" / "book.yaml").is_file() and not (tmp_path / "北境的雪" / "北境的雪").exists()
    r = _lw("init", "子目录/第二本", "--书名", "第二本", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "子目录" / "第二本" / ".git").is_dir(), r.stderr


@pytest.mark.parametrize("failing", ["init", "update-index", "commit-tree", "update-ref"])
def test_init_is_all_or_nothing_and_a_retry_starts_clean(tmp_path: Path, failing: str) -> None:
    wrapper = tmp_path / "坏git"
    wrapper.write_text("#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = \"%s\" ]; then echo 'fatal: injected' >&2; exit 128; fi\n"
                       "done\nexec git \"$@\"\n" % failing, encoding="utf-8")
    wrapper.chmod(0o755)
    work = tmp_path / "工作"
    work.mkdir()
    r = _lw("init", "新/书", "--书名", "书", cwd=work, env=dict(ENV, LW_STORY_GIT=str(wrapper)))
    assert r.returncode == 1 and "injected" in r.stderr and "Traceback" not in r.stderr
    assert list(work.iterdir()) == []  # nothing half-built, not even the parent it created
    r = _lw("init", "新/书", "--书名", "书", cwd=work)
    assert r.returncode == 0, r.stderr
    assert "init: 书" in subprocess.run(["git", "log", "--format=%s"], cwd=work / "新" / "书", capture_output=True,
                                        text=True).stdout


def test_init_refuses_a_folder_with_files_and_leaves_it_alone(tmp_path: Path) -> None:
    folder = tmp_path / "笔记"
    folder.mkdir()
    (folder / "想法.md").write_text("灵感。\n", encoding="utf-8")
    r = _lw("init", str(folder), "--书名", "书")
    assert r.returncode == 1 and "不是空文件夹" in r.stderr
    assert [p.name for p in folder.iterdir()] == ["想法.md"]


# --- property tests of the readers (in process) ------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SCALARS = st.one_of(st.text(max_size=12), st.integers(), st.booleans(), st.none(), st.sampled_from(
    ["是", "否", "~", "&a x", "*a", "!!python/none", "[1, 2]", "{a: 1}", ".nan", "1e400", "2024-01-01", "：", "- x"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                       max_leaves=12)
_KEYS = st.sampled_from(["章号", "标题", "卷", "姓名", "别名", "持有", "知情人", "读者已知", "关键词", "类型", "强度", "开启章",
                         "兑付期限", "禁词", "合同", "卷规模", "自定义"])


def _front_matter(fields: dict[str, object]) -> str:
    import json

    return "---\n" + "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in fields.items()) + "---\n正文\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_any_bytes_in_a_source_file_become_cards_never_exceptions(book, data: bytes) -> None:
    from lw_storyrepo.repair import scan_file

    book.p(LIN).write_bytes(data)
    cards, _fixed = scan_file(book, LIN, apply_fixes=False)
    assert all(c.file == LIN for c in cards)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(_KEYS, _VALUES, max_size=6), raw=st.text(max_size=60))
def test_any_front_matter_reads_or_is_refused_with_a_location(book, fields: dict[str, object], raw: str) -> None:
    from lwcore.errors import LwError

    from lw_storyrepo.dialect import parse_doc, quick_meta
    from lw_storyrepo.repair import check_document, scan_file

    for text in (_front_matter(fields), "---\n" + raw + "\n---\n"):
        for read in (lambda: quick_meta(text, "x.md"), lambda: parse_doc(text, "x.md"),
                     lambda: check_document(text, "x.md")):
            try:
                read()
            except LwError as exc:
                assert exc.file == "x.md"
        book.p(P1).write_text(text, encoding="utf-8")
        cards, _ = scan_file(book, P1, apply_fixes=False)
        assert all(c.file == P1 and c.problem for c in cards)


# --- migration input -----------------------------------------------------------------------------------

V6_BAD = {
    "state-deep": (".webnovel/state.json", b"[" * 5000 + b"]" * 5000, "state.json"),
    "state-invalid-utf8": (".webnovel/state.json", b'{"project_info": {"title": "\xff"}}', "state.json"),
    "state-not-object": (".webnovel/state.json", b"[1, 2]", "state.json"),
    "state-nan": (".webnovel/state.json", b'{"progress": NaN}', "state.json"),
    "state-duplicate-key": (".webnovel/state.json", b'{"a": 1, "a": 2}', "state.json"),
    "commit-truncated": (".story-system/commits/chapter_001.commit.json", b'{"meta": {"chapter": 1', "chapter_001.commit.json"),
    "brief-huge": (".story-system/chapters/chapter_001.json", b'{"x": "' + b"y" * (17 * 1024 * 1024) + b'"}', "chapter_001.json"),
    "chapter-invalid-utf8": ("正文/第0001章-开端.md", "林晚下山。".encode("utf-8") + b"\xfe\n", "第0001章-开端.md"),
}


@pytest.mark.parametrize("kind", V6_BAD)
def test_migration_refuses_bad_v6_input_and_leaves_nothing(tmp_path: Path, kind: str) -> None:
    v6 = tmp_path / "旧书"
    (v6 / "正文").mkdir(parents=True)
    (v6 / "正文" / "第0001章-开端.md").write_text("林晚下山。\n", encoding="utf-8")
    (v6 / ".story-system" / "commits").mkdir(parents=True)
    (v6 / ".story-system" / "chapters").mkdir(parents=True)
    (v6 / ".webnovel").mkdir()
    (v6 / ".webnovel" / "state.json").write_text('{"project_info": {"title": "旧书"}}', encoding="utf-8")
    rel, data, needle = V6_BAD[kind]
    (v6 / rel).write_bytes(data)
    before = {p.relative_to(v6).as_posix(): (p.read_bytes(), p.stat().st_mode) for p in v6.rglob("*") if p.is_file()}
    r = _lw("migrate", str(v6), str(tmp_path / "新书"))
    assert r.returncode == 1 and "Traceback" not in r.stderr and needle in r.stderr, r.stderr
    assert not (tmp_path / "新书").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["旧书"]
    after = {p.relative_to(v6).as_posix(): (p.read_bytes(), p.stat().st_mode) for p in v6.rglob("*") if p.is_file()}
    assert after == before  # not even the read-only bit: the book was never made


def test_a_draft_past_a_chapters_size_is_refused_located(book, tmp_path) -> None:
    """A hostile draft cannot buy minutes of checks: past DRAFT_MAX_CHARS it is refused by
    ``lw story draft`` and, placed in the workspace by hand, by ``lw story check``."""
    from click.testing import CliRunner

    from lw_storyrepo import layout as L
    from lw_storyrepo.cli import story
    from lw_storyrepo.drafts import DRAFT_MAX_CHARS
    from lw_storyrepo.samples import CONTRACT, DRAFT

    def lw(*args: str) -> tuple[int, str]:
        r = CliRunner().invoke(story, ["--locale", "zh", *args, "-C", str(book.root)])
        return r.exit_code, r.output

    lw()
    lw("card", "edit", *[x for c in CONTRACT for x in ("--合同", c)])
    lw("decide")
    lw()
    big = tmp_path / "big.md"
    big.write_text(DRAFT + "林晚看着他。" * (DRAFT_MAX_CHARS // 6), encoding="utf-8")
    code, out = lw("draft", "A", str(big))
    assert code != 0 and "超过一章草稿的上限" in out and "草稿-A.md" in out and "Traceback" not in out
    assert not book.p(L.draft_file("A")).exists()
    ok = tmp_path / "ok.md"
    ok.write_text(DRAFT, encoding="utf-8")
    code, out = lw("draft", "A", str(ok))
    assert code == 0, out
    book.p(L.draft_file("A")).write_text(big.read_text(encoding="utf-8"), encoding="utf-8")  # by hand
    code, out = lw("check")
    assert code != 0 and "超过一章草稿的上限" in out and "Traceback" not in out


def test_which_names_are_fragments_matches_its_definition() -> None:
    """:func:`_fragments` (one pass over the occurrences) against its definition (every
    occurrence of a name starts or ends strictly inside another found name's), on random texts."""
    import random
    import re

    from lw_storyrepo.propernouns import _fragments

    def fragment(text: str, name: str, found: set[str]) -> bool:
        spans = [(m.start(), m.end()) for other in found if other != name and len(other) >= 2
                 for m in re.finditer(re.escape(other), text)]
        return bool(spans) and all(any(a < m.start() < b or a < m.end() < b for a, b in spans)
                                   for m in re.finditer(re.escape(name), text))

    rng = random.Random(7)
    alphabet = "江里澜庄湜吾友甲乙"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        found = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(0, 6))}
        assert _fragments(text, found, found) == {n for n in found if fragment(text, n, found)}, (text, found)


def test_quotes_are_taken_out_in_one_pass_as_the_pattern_would() -> None:
    """:func:`without_quotes` equals ``QUOTE.sub("", text)`` (property, random texts of openers,
    closers and colons) — and a draft of 60,000 unclosed openers is one pass, not its square."""
    import random

    from lw_storyrepo.checks import QUOTE, without_quotes

    rng = random.Random(3)
    alphabet = '“”「」"我a：\n'
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert without_quotes(text) == QUOTE.sub("", text), repr(text)
    hostile = "“「『" * 20000
    assert without_quotes(hostile) == hostile  # nothing closes: nothing taken out


def test_the_speakers_quotes_are_found_in_one_pass_as_the_pattern_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`quote_matches` is ``QUOTE.finditer`` (property, random texts); ``voices`` finds a
    line's quotes through it — ``QUOTE.finditer`` on a draft of 58,000 unclosed openers took 23 s
    of ``lw story check`` (the pattern looks for a closer from every opener) — and reads the names
    outside a line's quotes once, not once per quote."""
    import random

    from lw_storyrepo import checks
    from lw_storyrepo.checks import QUOTE, CheckContext, quote_matches, voices

    rng = random.Random(11)
    for _ in range(3000):
        text = "".join(rng.choice("“”「」\"林晚说，。a") for _ in range(rng.randint(0, 30)))
        assert [(m.span(), m.groups()) for m in quote_matches(text)] == \
               [(m.span(), m.groups()) for m in QUOTE.finditer(text)], text

    class NoFinditer:  # the real pattern, but asking it for every quote of a line is the square of the line
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            if name == "finditer":
                raise AssertionError("QUOTE.finditer on a draft line")
            return getattr(QUOTE, name)

    monkeypatch.setattr(checks, "QUOTE", NoFinditer())
    ctx = CheckContext({"林晚": "林晚", "陈默": "陈默"}, [], [], [], 0, {"林晚", "陈默"})
    lines = ["林晚推门进来。“我是林晚。”" * 300, "“" * 20000, "陈默点点头：“好。”"]
    said = list(voices(ctx, lines))
    assert [v.speaker for v in said if v.line == 0][:2] == ["林晚", "林晚"] and any(v.speaker == "陈默" for v in said)


def test_jieba_is_never_given_a_run_longer_than_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """jieba's unknown-word model copies its path at every character of a run: a draft of one
    run (他他他… × 15,000) took seconds in its square. The segmenter gets the run in pieces of at
    most SEGMENT_RUN_MAX; a line of prose, whose runs are shorter, is cut as before."""
    from lw_storyrepo import propernouns as P

    lex = P.lexicon()
    given: list[str] = []
    real = lex.jieba.lcut

    _count_cuts(monkeypatch, lex, given)
    hostile = "他" * 15_000 + "，" + "林" * 999
    bounds = lex.boundaries(hostile)
    assert "".join(given) == hostile and max(map(len, given)) <= P.SEGMENT_RUN_MAX + 1, max(map(len, given))
    assert {0, 15_000, len(hostile)} <= bounds and max(bounds) == len(hostile)
    prose = "方砚秋推开后厨的门，吴六正蹲在灶前添柴，见他进来，忙站起身说掌柜的今天来得早。"
    given.clear()
    assert lex.boundaries(prose) == {0} | {p for p in _prefix_ends(real(prose, HMM=True))} and "".join(given) == prose


def test_a_run_said_again_is_segmented_once_with_the_same_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines of one text share the segmentation of their runs (jieba cuts a sentence run by
    run, between punctuation): a run said again is not cut again, and every line gets the
    tokens a whole-line cut gives it — ASCII, spaces and a glued preposition included."""
    from lw_storyrepo import propernouns as P

    lex = P.lexicon()
    real = lex.jieba.lcut
    lines = ["叶云道：“山门的事，握住灯火再说。”", "叶星道：“山门的事，握住灯火再说。”",
             "他从北冥海来，带着 iPhone 15 和 3.5 寸的旧照片。", "  从北冥海来，  他说。"]

    def whole_line(line: str) -> set[int]:  # what boundaries gave when jieba was handed the whole line
        out, pos = {0}, 0
        for token in real(line, HMM=True):
            if len(token) == 2 and token[0] in P.GLUED_PREPOSITIONS and not lex.freq.get(token):
                out.add(pos + 1)
            pos += len(token)
            out.add(pos)
        return out

    alone = [lex.boundaries(line) for line in lines]
    assert alone == [whole_line(line) for line in lines]
    given: list[str] = []

    _count_cuts(monkeypatch, lex, given)
    cuts: dict[str, tuple[int, ...]] = {}
    assert [lex.boundaries(line, None, cuts) for line in lines] == alone
    assert given.count("山门的事") == 1 and given.count("握住灯火再说") == 1
    assert len(given) == len(set(given))


def _count_cuts(monkeypatch: pytest.MonkeyPatch, lex: Any, given: list[str]) -> None:
    """Make ``lex``'s segmenter record in ``given`` every piece it is handed, and cut it as before."""
    jieba, real = lex.jieba, lex.jieba.lcut

    class Counting:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(jieba, name)

        @staticmethod
        def lcut(piece: str, HMM: bool = True) -> list[str]:
            given.append(piece)
            return real(piece, HMM=HMM)

    monkeypatch.setattr(lex, "jieba", Counting())


def _prefix_ends(tokens: list[str]) -> set[int]:
    ends, pos = set(), 0
    for token in tokens:
        pos += len(token)
        ends.add(pos)
    return ends


def test_a_draft_of_thousands_of_name_candidates_weighs_a_bounded_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each new-name candidate is weighed against the whole text: a draft of thousands of coined
    words with suffixes (某某宗, 某某城 × 3,000) took minutes. Past CANDIDATES_MAX only the first
    are weighed, and the cut is said with the line it starts at; a chapter is weighed whole."""
    from lw_storyrepo import propernouns as P

    weighed: list[str] = []
    real = P._whole_unit

    def counted(text: str, name: str, known: set[str]) -> str:
        weighed.append(name)
        return real(text, name, known)

    monkeypatch.setattr(P, "_whole_unit", counted)
    cjk = [chr(0x4E00 + (i * 7919) % 3000) for i in range(6000)]
    hostile = "\n".join("".join(cjk[2 * i: 2 * i + 2]) + "宗城剑山"[i % 4] + "。" for i in range(3000))
    capped: list[tuple[int, int]] = []
    P.find_new_nouns(hostile, [], capped=capped)
    assert len(weighed) <= P.CANDIDATES_MAX and capped and capped[0][0] > P.CANDIDATES_MAX, (len(weighed), capped)
    assert 1 < capped[0][1] <= 3000
    weighed.clear()
    capped.clear()
    found = P.find_new_nouns("韩立握着青元剑，走进了黄枫谷。\n韩立回头看了一眼黄枫谷。", [], capped=capped)
    assert not capped and 0 < len(weighed) < 20 and {"青元剑", "黄枫谷"} <= {n.name for n in found}, found


def test_setting_changes_apply_in_one_pass_as_line_by_line(book) -> None:
    """:func:`apply_changes` of many lines (each refused line set aside) writes what applying
    them one at a time does, each reading the last one's bytes — property, random lines of
    additions, removals, settings, new people, info gaps and lines that cannot apply."""
    import random

    from lwcore.api import LwError

    from lw_storyrepo.changes import apply_changes

    rng = random.Random(5)
    lines = ["林晚.持有+{x}", "林晚.持有-{x}", "林晚.位置={x}", "新人.持有+{x}", "新人.持有-{x}", "S-001.知情人+{x}",
             "S-001.知情人-{x}", "林晚.最后变更章={x}", "看不懂{x}", "大长老.状态={x}", "林晚.星座+{x}"]
    seen = {"created": 0, "refused": 0, "written": 0}
    for _ in range(150):
        drafted = [rng.choice(lines).format(x=rng.choice(["青霜剑", "丹炉", "大长老", "12", "是", "- a", "玉"]))
                   for _ in range(rng.randint(1, 12))]
        one: dict[str, bytes | None] = {}
        one_refused, one_created, one_log = [], [], []
        for line in drafted:
            try:
                one_created += apply_changes(book, 3, [line], one, one_log)
            except LwError as exc:
                one_refused.append((line, exc.message))
        many: dict[str, bytes | None] = {}
        refused: list = []
        many_log: list[str] = []
        created = apply_changes(book, 3, drafted, many, many_log, None, refused)
        assert (many, created, many_log, [(line, e.message) for line, e in refused]) == \
               (one, one_created, one_log, one_refused), drafted
        seen["created"] += bool(created)
        seen["refused"] += bool(refused)
        seen["written"] += bool(many)
    assert min(seen.values()) > 10, seen  # the random lines reach every path


def test_thousands_of_setting_changes_write_each_list_once(book, monkeypatch: pytest.MonkeyPatch) -> None:
    """A front matter of 2,000 ``持有+`` lines re-read the card and rewrote its whole list at every
    line (minutes of ``lw story check``, the square of the lines): the card is read once and the
    list written in the dialect once."""
    from lw_storyrepo import changes as C
    from lw_storyrepo.dialect import Doc

    sets: list[str] = []
    real = Doc.set

    def counted(self, key, value):  # type: ignore[no-untyped-def]
        sets.append(key)
        return real(self, key, value)

    monkeypatch.setattr(Doc, "set", counted)
    reads: list[str] = []
    real_current = C._current
    monkeypatch.setattr(C, "_current", lambda repo, rel, changes: reads.append(rel) or real_current(repo, rel, changes))
    out: dict[str, bytes | None] = {}
    refused: list = []
    C.apply_changes(book, 2, [f"林晚.持有+法宝{i}" for i in range(2000)] + ["林晚.持有-法宝7", "林晚.持有-没有的"], out, [], None, refused)
    card = next(text.decode("utf-8") for rel, text in out.items() if rel.endswith("林晚.md") and text)
    assert "- 法宝1999" in card and "- 法宝7\n" not in card and "- 青霜剑" in card and len(refused) == 1
    assert sets.count("持有") <= 2 and len(reads) <= 1, (sets.count("持有"), reads)


def test_the_spans_a_line_s_speakers_take_are_read_in_one_sweep() -> None:
    """:class:`_Covered` answers ``any(a <= x < b for a, b in spans)`` as the colons of a line
    are read left to right, spans added as words are taken, and :func:`_blanked` is the spans
    blanked one after another — property, random spans: a line of thousands of ``X说：“…”``
    asked every colon about every quote before (14.9 s of check at the cap, now 2.2 s)."""
    import random

    from lw_storyrepo.checks import _blanked, _Covered

    rng = random.Random(13)
    for _ in range(3000):
        n = rng.randint(0, 40)
        spans = [(a, a + rng.randint(0, 12)) for a in (rng.randint(0, n) for _ in range(rng.randint(0, 5)))]
        text = "".join(rng.choice("林晚说：。") for _ in range(n))
        blanked = text
        for a, b in spans:
            blanked = blanked[:a] + " " * (min(b, len(blanked)) - a) + blanked[b:]
        assert _blanked(text, spans) == blanked, (text, spans)
        taken, held = list(spans), _Covered(spans)
        for x in sorted(rng.sample(range(n + 1), rng.randint(0, n + 1))):
            assert held.covers(x) == any(a <= x < b for a, b in taken), (spans, x)
            if rng.random() < 0.3:
                taken.append(held.add(x, x + rng.randint(0, 10)))


def test_a_thought_without_a_sentence_end_is_bounded() -> None:
    """A line of thousands of 林晚知道 with no sentence end gave each thought the whole rest of the
    line (29 s of check at the cap): a thought runs to its sentence end, at most WORDS_MAX."""
    from lw_storyrepo.checks import WORDS_MAX, CheckContext, voices

    ctx = CheckContext({"林晚": "林晚", "陈默": "陈默"}, [], [], [], 0, {"林晚", "陈默"})
    said = [v for v in voices(ctx, ["林晚知道" * 5000]) if v.speaker]
    assert len(said) > 1000 and max(len(v.words) for v in said) <= WORDS_MAX
    assert [(v.speaker, v.words) for v in voices(ctx, ["陈默知道，林晚今晚不会来了。她走了。"]) if v.speaker] == \
           [("陈默", "林晚今晚不会来了。")]


def test_a_refusal_s_line_is_found_as_the_front_matter_line_by_line_would() -> None:
    """:meth:`Draft.line_of` (the front matter cut out once: a draft of 3,000 promises it cannot
    carry split its whole text at each refusal) is the first front-matter line holding the
    needle, else 1 — property, random drafts and needles."""
    import random

    from lw_storyrepo.drafts import Draft

    def definition(text: str, body_line: int, needle: str) -> int:
        for n, line in enumerate(text.split("\n")[: max(0, body_line - 1)], start=1):
            if needle and needle in line:
                return n
        return 1

    rng = random.Random(17)
    for _ in range(3000):
        text = "".join(rng.choice("P-1\n ab") for _ in range(rng.randint(0, 30)))
        body_line = rng.randint(0, text.count("\n") + 2)
        draft = Draft("A", {}, "", body_line, text)
        for _ in range(4):
            needle = "".join(rng.choice("P-1\n a") for _ in range(rng.randint(0, 3)))
            assert draft.line_of(needle) == definition(text, body_line, needle), (text, body_line, needle)


def test_a_contract_of_many_lines_naming_one_person_searches_the_prose_once_per_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen contract of hundreds of event lines naming the same absent person searched the draft
    for each of their forms once a line (lines × forms × draft: over 100 s at the cap): each form is
    searched once per draft, and every line still gets its finding."""
    from lw_storyrepo import checks
    from lw_storyrepo.checks import CheckContext, contract_findings
    from lw_storyrepo.drafts import Draft

    ctx = CheckContext({"林晚": "林晚", "陈默": "陈默"}, [], [], [], 0, {"林晚", "陈默"})
    calls = Counter[str]()
    real = checks.present

    def counted(term: str, text: str) -> bool:
        calls[term] += 1
        return real(term, text)

    monkeypatch.setattr(checks, "present", counted)
    body = "林晚推开门，屋里没有人。\n" * 200

    def run(lines: int) -> list[str]:
        calls.clear()
        draft = Draft("A", {}, body[:-1] + "。", 1, body)  # a fresh prose object: nothing remembered from before
        return [f.message for f in contract_findings({"合同": [f"陈默把第{i}件差事交给林晚" for i in range(lines)]}, draft, ctx)]

    one = run(1)
    once = sum(calls.values())
    many = run(300)
    assert once > 0 and sum(calls.values()) <= once + 300 * 2  # the line's own text may be searched, not every form again
    assert max(calls.values()) == 1 and len(many) == 300 * len(one)


def test_a_contract_of_many_lines_reads_each_term_against_the_prose_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of lines handing over things the prose does not name ran every way a term may be there
    (by description, by its kind, its tail, its keeper…) once a line — 600 lines: 4 s of check at the
    cap: what depends on the term and the prose alone is read once per term; the findings are the same."""
    from lw_storyrepo import checks
    from lw_storyrepo.checks import CheckContext, contract_findings
    from lw_storyrepo.drafts import Draft

    ctx = CheckContext({"林晚": "林晚", "陈默": "陈默"}, [], [], [], 0, {"林晚", "陈默"})
    calls = Counter[str]()
    real = checks.described

    def counted(term: str, text: str, heads: tuple[str, ...]) -> bool:
        calls[term] += 1
        return real(term, text, heads)

    monkeypatch.setattr(checks, "described", counted)
    body = "林晚推开门，屋里没有人。\n" * 200
    draft = Draft("A", {}, body, 1, body)
    one = contract_findings({"合同": ["陈默把青霜剑交给林晚"]}, draft, ctx)
    calls.clear()
    many = contract_findings({"合同": [f"陈默把青霜剑交给林晚（第{i}次）" for i in range(300)]}, draft, ctx)
    assert calls == Counter({"陈默": 1})
    assert [f.message for f in many] == [f.message.replace("林晚」", f"林晚（第{i}次）」") for i in range(300) for f in one]


def test_a_contract_line_naming_two_people_thousands_of_times_searches_the_prose_once_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A contract line of 陈默林晚 said over and over asked, at each 陈默, whether the prose names the
    林晚 after it (a district of a place: 香港鸭寮街) — occurrences × draft: each name is searched once."""
    from lw_storyrepo import checks
    from lw_storyrepo.checks import CheckContext, contract_findings
    from lw_storyrepo.drafts import Draft

    ctx = CheckContext({"林晚": "林晚", "陈默": "陈默"}, [], [], [], 0, {"林晚", "陈默"})
    calls = Counter[str]()
    real = checks.present

    def counted(term: str, text: str) -> bool:
        calls[term] += 1
        return real(term, text)

    monkeypatch.setattr(checks, "present", counted)
    body = "屋里没有人。\n" * 200
    found = contract_findings({"合同": ["陈默林晚" * 2000]}, Draft("A", {}, body + "。", 1, body), ctx)
    assert max(calls.values()) == 1
    assert sorted(f.message[-12:] for f in found) == sorted(["提到「陈默」，正文里没有", "提到「林晚」，正文里没有"])


def test_a_contract_of_many_lines_naming_someone_unnamed_reads_the_prose_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line naming a person the prose only points at (那个丫头) read every paragraph's pairs again
    (lines × draft: 3.3 s at the cap): the people pointed at and their paragraphs' pairs are read once
    per prose, each line's own words once; a line met that way is still met, one that is not still is not."""
    from lw_storyrepo import checks
    from lw_storyrepo.checks import CheckContext, contract_findings
    from lw_storyrepo.drafts import Draft

    ctx = CheckContext({"碧桃": "碧桃", "陈默": "陈默"}, [], [], [], 0, {"碧桃", "陈默"})
    calls = Counter[str]()
    real = checks._content_grams

    def counted(text: str) -> set[str]:
        calls[text] += 1
        return real(text)

    monkeypatch.setattr(checks, "_content_grams", counted)
    body = "陈默翻开逃奴册，那个丫头的名字原该在册上这一页。\n" * 200
    draft = Draft("A", {}, body[:-1] + "。", 1, body)
    met = contract_findings({"合同": [f"陈默翻到逃奴册上碧桃那一页（第{i}回）" for i in range(300)]}, draft, ctx)
    assert met == [] and sum(calls.values()) <= 300 + 200
    unmet = contract_findings({"合同": [f"陈默把青霜剑交给碧桃（第{i}回）" for i in range(300)]}, draft, ctx)
    assert len(unmet) >= 300 and all("碧桃" in f.message for f in unmet)
