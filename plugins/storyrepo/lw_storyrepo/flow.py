"""The board state machine (spec §10) and the other transactions (spec §9).

:func:`decide_next` checks, in order, and stops at the first hit:

0. a source file fails to parse or validate -> repair cards (deterministic full-width fixes are
   applied and reported; they then show up as hand edits);
1. unsettled hand edits in 定稿/大纲/文风/book.yaml -> propose a ``fix(…)`` commit;
2. an unfinished chapter transaction -> resume at its stage;
3. the last settled chapter ends a volume -> volume review;
4. the chapter number reached a health-check period (every 50) -> health report;
5. otherwise -> brief the next chapter.

Before deciding, an interrupted settle is recovered (:func:`lw_storyrepo.atomic.recover`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lwcore.errors import LwError

from lw_storyrepo import repo as R
from lw_storyrepo.atomic import apply_and_commit, recover
from lw_storyrepo.board import deadline_chapter, volume_of
from lw_storyrepo.dialect import RepairCard, RepairNeeded, auto_fix, context_lines, fast_flat, parse_doc, split_front_matter
from lw_storyrepo.repo import StoryRepo, as_int, read_text

HEALTH_PERIOD = 50

HINTS = {
    "brief": "作者：看 工作区/决策卡.md，采纳 / 改卡 / 选备选，然后 lw story decide（模型可用 story_edit_decision_card 填提案）",
    "decided": "脚本：组装上下文包（lw story 会直接做）",
    "packed": "模型：在干净上下文里渲染草稿（lw story prompt render；story_submit_draft 提交）",
    "drafted": "脚本：机检（lw story 会直接做）",
    "checked": "模型：三镜头评审，各自新鲜上下文（lw story prompt lens --lens 读者/编辑/事实；story_submit_review）",
    "reviewed": "作者：看 工作区/验收卡.md（可改草稿和章摘要），lw story accept 或 lw story reject 理由",
    "accepted": "脚本：结转（lw story settle）",
}


@dataclass
class Next:
    state: int
    name: str
    message: str
    cards: list[RepairCard] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    stage: str | None = None
    recovered: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state, "name": self.name, "message": self.message,
            "cards": [c.to_json() for c in self.cards], "fixed": self.fixed, "files": self.files,
            "stage": self.stage, "recovered": self.recovered, "detail": self.detail,
        }


# --- state 0: repair -------------------------------------------------------------------------------

BOOL_FIELDS = {"读者已知"}
INT_FIELDS = {"章号", "卷", "字数", "最后变更章", "登记章", "开启章", "最后推进章", "每章目标字数", "卷规模",
              "文体基线起", "文体基线止", "高承诺最大搁置章数", "连续弱钩上限", "关键章稿数"}
LIST_FIELDS = {"别名", "持有", "知情人", "关键词", "开启承诺", "推进承诺", "兑付承诺", "合同", "禁词", "禁句式", "口癖"}
ENUMS = {"类型": R.PROMISE_TYPES, "强度": R.STRENGTHS, "状态": R.PROMISE_STATES}
YES = {"是", "是的", "对", "真", "yes", "y", "有", "已知"}
NO = {"否", "不是", "错", "假", "no", "n", "无", "没有", "未知"}


def _key_line(text: str, key: str, offset: int) -> int | None:
    for n, line in enumerate(text.split("\n"), start=1):
        if re.match(rf"^{re.escape(key)}\s*[:：]", line):
            return n + offset
    return None


def validate(rel: str, meta: dict[str, Any], fm: str, offset: int) -> list[RepairCard]:
    """Type checks of the fields the system consumes; unknown fields are never an error."""
    cards = []
    is_promise = rel.startswith(R.承诺 + "/")
    full_text_lines = fm.split("\n")

    def card(key: str, problem: str, proposal: str, fixed_line: str | None) -> RepairCard:
        line = _key_line(fm, key, offset)
        fixed = None
        if fixed_line is not None and line is not None:
            lines = list(full_text_lines)
            lines[line - offset - 1] = fixed_line
            fixed = "\n".join(lines)
        return RepairCard(rel, line, problem, context_lines(fm, (line - offset) if line else None, offset=offset), proposal,
                          False, fixed)

    for key, value in meta.items():
        if key in BOOL_FIELDS and not isinstance(value, bool):
            text = str(value).strip().lower()
            guess = "true" if text in YES else "false" if text in NO else None
            if guess:
                cards.append(card(key, f"「{key}」应是 true 或 false，写成了「{value}」", f"{key}: {guess}", f"{key}: {guess}"))
            else:
                cards.append(card(key, f"「{key}」应是 true 或 false，写成了「{value}」", f"{key}: true（或 false）", None))
        elif key in INT_FIELDS and value is not None and not (isinstance(value, int) and not isinstance(value, bool)):
            digits = re.sub(r"[^\d]", "", str(value))
            if digits:
                cards.append(card(key, f"「{key}」应是整数，写成了「{value}」", f"{key}: {int(digits)}", f"{key}: {int(digits)}"))
            else:
                cards.append(card(key, f"「{key}」应是整数，写成了「{value}」", f"{key}: 数字", None))
        elif key in LIST_FIELDS and value is not None and not isinstance(value, list):
            items = [i for i in re.split(r"[，,、]", str(value)) if i.strip()]
            proposal = f"{key}:\n" + "\n".join(f"  - {i.strip()}" for i in items)
            cards.append(card(key, f"「{key}」应是列表（一行一条「  - 条目」），写成了一行「{value}」", proposal, proposal))
        elif is_promise and key in ENUMS and value is not None and str(value) not in ENUMS[key]:
            cards.append(card(key, f"「{key}」的值「{value}」不在 {'|'.join(ENUMS[key])} 里", f"{key}: {ENUMS[key][0]}", None))
    return cards


def _stamps(repo: StoryRepo) -> dict[str, str]:
    return {rel: f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}" for rel, st in repo.source_stats() if st is not None}


def scan(repo: StoryRepo, *, apply_fixes: bool = True) -> tuple[list[RepairCard], list[str]]:
    """Parse and validate every source file. Returns (cards, reports of auto-fixes applied).

    Files already found clean are remembered in ``.cache/scan.json`` by (size, mtime, inode),
    so a start re-parses only what changed (deleting .cache/ only costs a full re-scan).
    """
    marker = repo.p(f"{R.CACHE}/scan.json")
    stamps = _stamps(repo)
    try:
        known = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    todo = {rel for rel, stamp in stamps.items() if known.get(rel) != stamp}
    if not todo:
        return [], []
    cards, fixed = _scan(repo, apply_fixes=apply_fixes, only=todo)
    bad = {c.file for c in cards} | {f.split(" ", 1)[0] for f in fixed}
    clean = {rel: stamp for rel, stamp in stamps.items() if rel not in bad}
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        from lwcore.io.atomic import atomic_write_text

        atomic_write_text(marker, json.dumps(clean, ensure_ascii=False))
    except OSError:
        pass
    return cards, fixed


def _scan(repo: StoryRepo, *, apply_fixes: bool = True, only: set[str] | None = None) -> tuple[list[RepairCard], list[str]]:
    cards: list[RepairCard] = []
    fixed: list[str] = []
    for rel, _st in repo.source_stats():
        if only is not None and rel not in only:
            continue
        path = repo.p(rel)
        try:
            text = read_text(path)
        except UnicodeDecodeError as exc:
            cards.append(RepairCard(rel, None, f"文件不是 UTF-8 编码：{exc}", [], "用 UTF-8（无 BOM）另存"))
            continue
        if rel == "book.yaml":
            fm, offset = text, 0
        else:
            fm, _body, first = split_front_matter(text)
            if fm is None:
                continue
            offset = first - 1
        meta = fast_flat(fm)
        if meta is None:
            new_fm, fixes = auto_fix(fm, line_offset=offset)
            try:
                from lw_storyrepo.dialect import plain, yaml_load

                meta = plain(yaml_load(new_fm, file=rel, line_offset=offset))
            except RepairNeeded as exc:
                c = exc.card
                if c.fixed_text is not None:
                    c.fixed_text = _rebuild(text, rel, c.fixed_text)
                cards.append(c)
                continue
            if fixes:
                fixed.extend(f"{rel} {f}" for f in fixes)
                if apply_fixes:
                    from lwcore.io.atomic import atomic_write_text

                    atomic_write_text(path, _rebuild(text, rel, new_fm))
                    fm = new_fm
        for c in validate(rel, meta, fm, offset):
            if c.fixed_text is not None:
                c.fixed_text = _rebuild(text, rel, c.fixed_text)
            cards.append(c)
    return cards, fixed


def _rebuild(original: str, rel: str, new_fm: str) -> str:
    if rel == "book.yaml":
        return new_fm if new_fm.endswith("\n") else new_fm + "\n"
    fm, body, _ = split_front_matter(original)
    fm_fixed = new_fm if new_fm.endswith("\n") else new_fm + "\n"
    return f"---\n{fm_fixed}---\n{body}"


def apply_card(repo: StoryRepo, card: RepairCard) -> bool:
    """The author confirmed a card: write its proposed fix. Returns False when it has none."""
    if card.fixed_text is None:
        return False
    from lwcore.io.atomic import atomic_write_text

    atomic_write_text(repo.p(card.file), card.fixed_text)
    return True


REPAIR_DIR = "工作区/修复提议"


def proposal_path(repo: StoryRepo, rel: str) -> Path:
    return repo.p(f"{REPAIR_DIR}/{rel.replace('/', '~')}")


def propose_repair(repo: StoryRepo, rel: str, text: str) -> Path:
    """The model's intent-preserving fix for a broken file, kept for the author to confirm."""
    from lwcore.io.atomic import atomic_write_text

    if not repo.p(rel).is_file() or rel.startswith(("工作区/", ".git")):
        raise LwError(f"没有源文件 {rel}")
    if rel != "book.yaml" and split_front_matter(text)[0] is None:
        raise LwError("提议的文件必须以 front matter（--- … ---）开头")
    fm = text if rel == "book.yaml" else split_front_matter(text)[0] or ""
    from lw_storyrepo.dialect import yaml_load

    yaml_load(fm, file=rel)  # a proposal that does not parse is refused (RepairNeeded)
    path = proposal_path(repo, rel)
    atomic_write_text(path, text)
    return path


def accept_repair(repo: StoryRepo, rel: str) -> None:
    """The author confirms the model's proposal: it replaces the file (then a fix commit follows)."""
    from lwcore.io.atomic import atomic_write_text

    path = proposal_path(repo, rel)
    if not path.is_file():
        raise LwError(f"{rel} 没有待确认的修复提议")
    atomic_write_text(repo.p(rel), read_text(path))
    path.unlink()


# --- state 1: hand edits ----------------------------------------------------------------------------

WATCHED = (R.定稿, R.大纲, R.文风, "book.yaml")


def hand_edits(repo: StoryRepo) -> list[str]:
    return [path for _xy, path in repo.git.status(*WATCHED)]


def settled_fact_edits(repo: StoryRepo, paths: list[str]) -> list[str]:
    """Chapter files whose front matter (the accepted facts) differs from HEAD."""
    out = []
    for rel in paths:
        if not rel.startswith(R.正文 + "/") or not repo.p(rel).is_file():
            continue
        proc = repo.git.run("show", f"HEAD:{rel}", check=False)
        if proc.returncode != 0:
            continue
        old_fm, _b, _ = split_front_matter(proc.stdout.decode("utf-8", "replace"))
        new_fm, _b, _ = split_front_matter(read_text(repo.p(rel)))
        if old_fm != new_fm:
            out.append(rel)
    return out


def fix_scope(paths: list[str]) -> str:
    def scope(p: str) -> str:
        if p.startswith(R.正文):
            return "正文"
        if p.startswith(R.承诺):
            return "承诺"
        if p.startswith(R.大纲):
            return "大纲"
        if p.startswith(R.文风):
            return "文风"
        if p.startswith(R.定稿 + "/记忆"):
            return "记忆"
        if p == "book.yaml":
            return "配置"
        return "设定"

    scopes = [scope(p) for p in paths]
    return max(set(scopes), key=lambda s: (scopes.count(s), s == "设定")) if scopes else "设定"


def propose_fix_message(paths: list[str]) -> str:
    names = [Path(p).stem for p in paths]
    shown = "、".join(names[:5]) + (f" 等 {len(names)} 个文件" if len(names) > 5 else "")
    return f"fix({fix_scope(paths)}): 手改结转 {shown}"


def commit_fix(repo: StoryRepo, message: str | None = None, paths: list[str] | None = None) -> str:
    """Commit the author's hand edits (``fix(…)``)."""
    recover(repo.root)
    edited = hand_edits(repo)
    if paths:
        edited = [p for p in edited if any(p == q or p.startswith(q.rstrip("/") + "/") for q in paths)]
    if not edited:
        raise LwError("没有需要结转的手改")
    message = message or propose_fix_message(edited)
    if not re.match(r"^fix\([^)]+\): \S", message):
        message = f"fix({fix_scope(edited)}): {message}"
    body = message + "\n\n文件: " + "; ".join(edited) + "\n"
    return repo.git.commit_paths(_expand(repo, edited), body)


def _expand(repo: StoryRepo, paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        full = repo.p(p)
        if full.is_dir():
            out += [repo.rel(f) for f in sorted(full.rglob("*")) if f.is_file()]
        else:
            out.append(p)
    return out


def retcon(repo: StoryRepo, chapter: int, reason: str) -> str:
    """Explicit retcon: commit edits to settled facts with the reason in the message."""
    if not reason or not reason.strip():
        raise LwError("retcon 必须写明原因", expected='lw story retcon 87 --原因 "修正大长老境界设定"')
    recover(repo.root)
    edited = hand_edits(repo)
    if not edited:
        raise LwError("没有可入册的修改：先改好定稿/大纲里的文件，再运行 retcon")
    if repo.chapter_path(chapter) is None:
        raise LwError(f"第 {chapter} 章不存在")
    message = f"retcon({chapter}): {reason.strip()}\n\n文件: " + "; ".join(edited) + "\n"
    return repo.git.commit_paths(_expand(repo, edited), message)


# --- state 3: volume review ---------------------------------------------------------------------------


def volume_audit(repo: StoryRepo, volume: int) -> dict[str, list[str]]:
    size = repo.book()["卷规模"]
    start, end = (volume - 1) * size + 1, volume * size
    opened, closed, overdue, open_now = [], [], [], []
    for item in repo.promises():
        m = item.meta
        o = as_int(m.get("开启章"), 0) or 0
        last = as_int(m.get("最后推进章"), 0) or 0
        label = f"{item.id} {item.title}"
        if start <= o <= end:
            opened.append(label)
        if str(m.get("状态")) in ("已兑付", "已弃置") and start <= last <= end:
            closed.append(f"{label}（{m.get('状态')}）")
        if str(m.get("状态", "进行")) == "进行":
            open_now.append(label)
            due = deadline_chapter(m.get("兑付期限"), size)
            if due is not None and due <= end:
                overdue.append(f"{label}（期限第 {due} 章）")
    return {"本卷开启": opened, "本卷收束": closed, "已过期": overdue, "未兑付": open_now}


def volume_review(repo: StoryRepo) -> Path:
    last = repo.last_chapter()
    size = repo.book()["卷规模"]
    volume, _ = volume_of(max(1, last), size)
    audit = volume_audit(repo, volume)
    lines = [f"# 卷复盘：第 {volume:02d} 卷（第 {(volume - 1) * size + 1}–{last} 章）", ""]
    for key, values in audit.items():
        lines.append(f"## {key}（{len(values)}）")
        lines.extend(f"- {v}" for v in values)
        lines.append("")
    lines += ["## 下一步", "- 模型写卷摘要（≤500 字）：story_volume_commit",
              f"- 与作者对谈产出 大纲/卷纲/{R.volume_name(volume + 1)}.md",
              "- 伏笔机会扫描：3-5 个本卷可埋、N 卷后响的候选，须引用总纲的具体远期节点"]
    from lwcore.io.atomic import atomic_write_text

    path = repo.p(f"{R.工作区}/卷复盘.md")
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path


def volume_commit(repo: StoryRepo, summary: str, outline: str | None = None, volume: int | None = None) -> str:
    """``vol(05)``: the volume summary, the next volume's outline, promises picked by the author."""
    recover(repo.root)
    size = repo.book()["卷规模"]
    volume = volume or volume_of(max(1, repo.last_chapter()), size)[0]
    summary = summary.strip()
    if not summary:
        raise LwError("卷摘要不能为空")
    if len(summary) > 500:
        raise LwError(f"卷摘要 {len(summary)} 字，超过 500 字上限")
    changes: dict[str, bytes | None] = {
        f"{R.卷摘要}/{R.volume_name(volume)}.md": f"# {R.volume_name(volume)} 卷摘要\n\n{summary}\n".encode("utf-8")
    }
    if outline and outline.strip():
        changes[f"{R.卷纲}/{R.volume_name(volume + 1)}.md"] = (outline.strip() + "\n").encode("utf-8")
    added = []
    np_dir = repo.p(R.新承诺)
    if np_dir.is_dir():
        for path in sorted(np_dir.glob("*.md")):
            doc, _ = parse_doc(read_text(path), repo.rel(path))
            m = R.ITEM_FILE.match(path.name)
            if not m:
                continue
            if not R.section(doc.body, "兑付计划"):
                raise LwError(f"{repo.rel(path)} 没有「## 兑付计划」")
            if str(doc.get("强度")) == "高" and not doc.get("兑付期限"):
                raise LwError(f"{repo.rel(path)} 强度为高，必须填兑付期限")
            doc.set("状态", "进行")
            doc.set("开启章", repo.last_chapter())
            doc.set("最后推进章", repo.last_chapter())
            changes[f"{R.承诺}/{path.name}"] = doc.dump().encode("utf-8")
            changes[repo.rel(path)] = None
            added.append(m.group(1))
    review = repo.p(f"{R.工作区}/卷复盘.md")
    if review.is_file():
        changes[repo.rel(review)] = None
    message = f"vol({volume:02d}): {R.volume_name(volume)}复盘\n"
    if added:
        message += "\n承诺: " + " ".join(f"+{p}" for p in added) + "\n"
    return apply_and_commit(repo.root, changes, message)


# --- state 4: health check ----------------------------------------------------------------------------


def health_report(repo: StoryRepo, at: int | None = None) -> Path:
    """Style drift vs the baseline range, bad promises, timeline orphans -> workspace only."""
    from lw_storyrepo.fingerprint import drift, fingerprint, mean

    book = repo.book()
    last = at or repo.last_chapter()
    files = dict(repo.chapter_files())
    base_range = range(book["文体基线起"], book["文体基线止"] + 1)
    recent_range = range(max(1, last - HEALTH_PERIOD + 1), last + 1)

    def prints(rng: range) -> list[dict[str, float]]:
        out = []
        for n in rng:
            if n in files:
                _m, body = R.quick_meta(read_text(files[n]))
                out.append(fingerprint(body))
        return out

    base, now = mean(prints(base_range)), mean(prints(recent_range))
    lines = [f"# 体检报告：第 {last} 章", "", f"## 文体指纹漂移（基线第 {base_range.start}–{base_range.stop - 1} 章 vs 最近 {len(recent_range)} 章）"]
    moved = drift(base, now) if base and now else []
    lines += [f"- {k}：{b:.2f} → {n:.2f}（{r:+.0%}）" for k, b, n, r in moved] or ["- 无明显漂移"]
    lines += ["", "## 承诺坏账"]
    bad = []
    size = book["卷规模"]
    for item in repo.promises():
        m = item.meta
        if str(m.get("状态", "进行")) != "进行":
            continue
        due = deadline_chapter(m.get("兑付期限"), size)
        if due is not None and due < last:
            bad.append(f"- {item.id} {item.title}：已过兑付期限（第 {due} 章）")
        if str(m.get("强度")) == "高" and not m.get("兑付期限"):
            bad.append(f"- {item.id} {item.title}：强度高却没有兑付期限")
        if not item.section("兑付计划"):
            bad.append(f"- {item.id} {item.title}：没有兑付计划")
        idle = last - (as_int(m.get("最后推进章"), 0) or 0)
        if idle > max(book["高承诺最大搁置章数"] * 3, 30):
            bad.append(f"- {item.id} {item.title}：{idle} 章未推进")
    lines += bad or ["- 无"]
    lines += ["", "## 时间线孤儿"]
    orphans = []
    rows = repo.timeline()
    row_chapters = {r["章"] for r in rows}
    for r in rows:
        if r["章"] not in files:
            orphans.append(f"- 时间线第 {r['章']} 章没有对应章节文件")
    for n in files:
        if n not in row_chapters:
            orphans.append(f"- 第 {n} 章没有时间线行")
    known = set(repo.aliases())
    for r in rows:
        for name in r["在场"]:
            if name not in known:
                orphans.append(f"- 时间线第 {r['章']} 章的在场者「{name}」不在名册/角色卡")
    lines += orphans[:200] or ["- 无"]
    lines += ["", "（体检报告只进工作区，不入册；作者决定回拉文风或更新 book.yaml 的文体基线。）"]
    from lwcore.io.atomic import atomic_write_text

    path = repo.p(f"{R.工作区}/体检-{last:04d}.md")
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path


# --- what-if branches ---------------------------------------------------------------------------------


def whatif(repo: StoryRepo, action: str, name: str | None = None, base: str = "main") -> str:
    git = repo.git
    if action == "list":
        return git.out("branch", "--list", "what-if/*").strip()
    if not name or not re.fullmatch(r"[^\s~^:?*\[\\]+", name):
        raise LwError(f"分支名 {name!r} 不合法")
    branch = f"what-if/{name}"
    if action == "start":
        git.run("switch", "-q", "-c", branch)
        return f"已切到 {branch}：推演 3 章纲要后 merge 或 drop"
    if action == "merge":
        git.run("switch", "-q", base)
        git.run("merge", "-q", "--no-ff", "--no-edit", "-m", f"merge({name}): 采纳推演分支", branch)
        git.run("branch", "-q", "-d", branch)
        return f"已合并 {branch} 到 {base}"
    if action == "drop":
        current = git.out("rev-parse", "--abbrev-ref", "HEAD").strip()
        if current == branch:
            git.run("switch", "-q", base)
        git.run("branch", "-q", "-D", branch)
        return f"已删除 {branch}"
    raise LwError(f"未知动作 {action!r}", expected="start、merge、drop、list")


# --- the state machine ------------------------------------------------------------------------------------


def decide_next(repo: StoryRepo, *, apply_fixes: bool = True) -> Next:
    from lw_storyrepo.txn import STAGE_NAMES, load_state

    recovered = recover(repo.root)
    cards, fixed = scan(repo, apply_fixes=apply_fixes)
    if cards:
        return Next(0, "repair", f"{len(cards)} 处需要修复", cards=cards, fixed=fixed, recovered=recovered)
    edits = hand_edits(repo)
    if edits:
        facts = settled_fact_edits(repo, edits)
        message = "发现未结转的手改，结转吗？建议：" + propose_fix_message(edits)
        if facts:
            message += "（已接受章节的 front matter 被改：定稿只增不改，若不只是错别字请走 lw story retcon）"
        return Next(1, "hand-edits", message, fixed=fixed, files=edits, recovered=recovered,
                    detail={"message": propose_fix_message(edits), "retcon": facts})
    try:
        state = load_state(repo)
    except RepairNeeded as exc:
        return Next(0, "repair", "工作区事务文件损坏", cards=[exc.card], recovered=recovered)
    if state is not None:
        stage = str(state.get("阶段"))
        return Next(2, "resume", f"第 {state.get('章号')} 章事务进行中：下一步「{STAGE_NAMES.get(stage, stage)}」",
                    stage=stage, recovered=recovered, detail={"chapter": state.get("章号"), "hint": HINTS.get(stage, "")})
    book = repo.book()
    last = repo.last_chapter()
    size = book["卷规模"]
    if last and last % size == 0:
        volume = last // size
        if not repo.p(f"{R.卷摘要}/{R.volume_name(volume)}.md").is_file():
            return Next(3, "volume-review", f"第 {volume:02d} 卷刚结束：卷复盘", recovered=recovered,
                        detail={"volume": volume})
    if last and last % HEALTH_PERIOD == 0 and not repo.p(f"{R.工作区}/体检-{last:04d}.md").is_file():
        return Next(4, "health", f"第 {last} 章：体检", recovered=recovered, detail={"chapter": last})
    return Next(5, "brief", f"新章 brief：第 {last + 1} 章", recovered=recovered, detail={"chapter": last + 1})


def advance(repo: StoryRepo) -> Next:
    """Decide, then run the step when it is script work (brief, pack, checks, health, audit)."""
    from lw_storyrepo import txn

    step = decide_next(repo)
    if step.state == 2 and step.stage == "decided":
        txn.pack(repo)
        step.detail["did"] = "pack"
        step.message += "（已组装上下文包，等模型渲染）"
    elif step.state == 2 and step.stage == "drafted":
        results = txn.run_checks(repo)
        step.detail["did"] = "checks"
        step.detail["checks"] = {k: [f.to_json() for f in v] for k, v in results.items()}
        step.message += "（已机检：" + "，".join(
            f"{k} {'过' if not any(f.severity == 'error' for f in v) else '打回'}" for k, v in results.items()) + "）"
    elif step.state == 3:
        step.files = [repo.rel(volume_review(repo))]
        step.detail["did"] = "volume-audit"
    elif step.state == 4:
        step.files = [repo.rel(health_report(repo))]
        step.detail["did"] = "health"
    elif step.state == 5:
        step.files = [repo.rel(txn.brief(repo))]
        step.detail["did"] = "brief"
    if step.detail.get("did") in ("pack", "checks", "brief"):
        state = txn.load_state(repo) or {}
        step.stage = str(state.get("阶段")) if state else step.stage
        step.detail["hint"] = HINTS.get(step.stage or "", "")
    return step
