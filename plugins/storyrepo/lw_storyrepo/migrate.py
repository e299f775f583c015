"""One-shot migration of a v6 project to a v7 Story Repo (spec §12), all or nothing.

v6 layout read (tolerant: every part is optional; a file that does not read is refused with
its location, never guessed around):

- ``正文/`` chapters (``第0001章-标题.md``, ``第1章 标题.md``, ``0001-标题.md`` …)
- ``设定集/`` settings; character cards under ``角色*``/``人物*`` folders or named ``主角卡``
- ``大纲/`` (总纲, 卷纲 ``第N卷…``)
- ``.webnovel/state.json``: ``project_info``, ``protagonist_state``, ``relationships``,
  ``plot_threads.{active_threads,foreshadowing}``, ``chase_debt``, ``reading_power``,
  ``chapter_meta``, ``project_memory``/``scratchpad``, ``world_settings`` …
- ``summaries/`` chapter summaries (``ch0001.md``, ``0001.md``, ``第1章.md`` …)
- ``.story-system/``, the v6 commit chain, read for what v7 keeps: ``chapters/chapter_NNN.json``
  (the chapter's brief: its goal, conflict, cost and must-cover nodes become the chapter's
  ``合同``), ``commits/chapter_NNN.commit.json`` (accepted chapters: the summary, the events
  and who appeared fill 章摘要, 时间线 and 名册), ``volumes/volume_NNN.json`` (卷纲 where the
  outline has none), ``anti_patterns.json`` (style rules, for a human pass), ``MASTER_SETTING.json``
  (the genre). The chain itself is squashed into the migration commit and the folder is made
  read-only; ``index.db``/``vectors.db``/``projection_log`` are derived and dropped.

The new book is built next to the target and renamed into place (:mod:`lw_storyrepo.newbook`):
a failure leaves no target and the v6 folder untouched.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from lwcore.api import LwError, read_json

from lw_storyrepo import layout as L
from lw_storyrepo.counting import word_count
from lw_storyrepo.markdown import append_row
from lw_storyrepo.newbook import init_book
from lw_storyrepo.repo import StoryRepo, new_doc
from lw_storyrepo.sources import read_text
from lw_storyrepo.volumes import reference_position

CHAPTER_NAME = re.compile(r"^(?:第)?0*(\d+)(?:章)?[\s\-_·、.：:]*(.*?)\.(?:md|txt)$")
VOLUME_NAME = re.compile(r"第\s*0*(\d+)\s*卷")
NUMBERED = re.compile(r"_0*(\d+)\.")
STATUS_MAP = {"resolved": "已兑付", "paid": "已兑付", "closed": "已兑付", "done": "已兑付", "已回收": "已兑付",
              "已兑现": "已兑付", "已兑付": "已兑付", "abandoned": "已弃置", "dropped": "已弃置", "已放弃": "已弃置",
              "已弃置": "已弃置"}
STRENGTH_MAP = {"核心": "高", "high": "高", "高": "高", "critical": "高", "主线": "高", "支线": "中", "medium": "中",
                "中": "中", "装饰": "低", "low": "低", "低": "低"}
ENTITY_KINDS = {"character": "人物", "person": "人物", "角色": "人物", "人物": "人物", "location": "地点", "place": "地点",
                "地点": "地点", "faction": "组织", "organization": "组织", "org": "组织", "势力": "组织", "组织": "组织",
                "item": "物品", "物品": "物品", "道具": "物品", "skill": "功法", "功法": "功法"}
CONSUMED_STATE = {"project_info", "protagonist_state", "relationships", "plot_threads", "foreshadowing", "chase_debt",
                  "reading_power", "chapter_meta", "project_memory", "scratchpad", "entities_v3", "alias_index",
                  "state_changes", "structured_relationships", "progress"}
DERIVED = ("index.db", "vectors.db", "projection_log")


def _items(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list):
        return [v if isinstance(v, dict) else {"content": str(v)} for v in value]
    if isinstance(value, dict):
        out = []
        for key, v in value.items():
            if isinstance(v, dict):
                out.append({"name": key, **v})
            elif isinstance(v, list):
                out.extend(x if isinstance(x, dict) else {"content": str(x)} for x in v)
            else:
                out.append({"name": key, "content": str(v)})
        return out
    return []


def _first(d: Any, *keys: str) -> Any:
    if not isinstance(d, dict):
        return None
    for k in keys:
        if d.get(k) not in (None, "", []):
            return d[k]
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.search(r"\d+", str(value or ""))
    return int(m.group()) if m else None


def _texts(value: Any) -> list[str]:
    """A v6 field that may be a string, a list of strings, or a list of small objects."""
    if value in (None, "", []):
        return []
    if isinstance(value, list):
        out = []
        for v in value:
            out += [str(_first(v, "text", "content", "name", "summary", "description") or "")] if isinstance(v, dict) \
                else [str(v)]
        return [t.strip() for t in out if t and t.strip()]
    return [str(value).strip()]


class V6:
    """A v6 project on disk, read once; every read refuses bad input with its location."""

    def __init__(self, source: Path) -> None:
        if not source.is_dir():
            raise LwError(f"{source} 不是目录")
        self.source = source
        self.chain = source / ".story-system"
        state = self.json(".webnovel/state.json") or {}
        if not isinstance(state, dict):
            raise LwError("state.json 应是一个 JSON 对象", file=source / ".webnovel" / "state.json")
        self.state: dict[str, Any] = state

    def text(self, path: Path) -> str:
        return read_text(path, str(path.relative_to(self.source)))

    def json(self, rel: str) -> Any:
        path = self.source / rel
        return read_json(path) if path.is_file() else None

    def numbered(self, folder: str, suffix: str) -> dict[int, dict[str, Any]]:
        """``.story-system/<folder>/<name>_NNN<suffix>`` files by number (JSON objects only)."""
        base = self.chain / folder
        out: dict[int, dict[str, Any]] = {}
        if base.is_dir():
            for path in sorted(base.glob(f"*{suffix}")):
                m = NUMBERED.search(path.name)
                data = read_json(path)
                if m and isinstance(data, dict):
                    out[int(m.group(1))] = data
        return out

    def dict_of(self, key: str) -> dict[str, Any]:
        value = self.state.get(key)
        return value if isinstance(value, dict) else {}


def _contract(brief: dict[str, Any] | None) -> list[str]:
    """The chapter's ``合同`` from its v6 brief (always marked 迁移, spec §12)."""
    lines = ["迁移"]
    directive = (brief or {}).get("chapter_directive")
    if isinstance(directive, dict):
        for key, label in (("goal", "目标"), ("conflict", "冲突"), ("cost", "代价")):
            lines += [f"{label}：{t}" for t in _texts(directive.get(key))]
        for key in ("must_cover_nodes", "must_cover"):
            lines += [f"必写：{t}" for t in _texts(directive.get(key))]
    return lines


def _entities(commit: dict[str, Any]) -> list[tuple[str, str]]:
    """``(name, kind)`` of everything a v6 commit says appeared or changed."""
    out = []
    for item in list(commit.get("entities_appeared") or []) + list(commit.get("entity_deltas") or []):
        if isinstance(item, str):
            out.append((item, "其他"))
        elif isinstance(item, dict):
            name = _first(item, "name", "canonical_name", "entity", "title")
            kind = str(_first(item, "type", "kind", "entity_type", "category") or "").lower()
            if name:
                out.append((str(name), ENTITY_KINDS.get(kind, "其他")))
    return out


def migrate(source: Path | str, target: Path | str, *, title: str | None = None) -> str:
    v6 = V6(Path(source))
    master = v6.json(".story-system/MASTER_SETTING.json")
    route = master.get("route") if isinstance(master, dict) and isinstance(master.get("route"), dict) else {}
    info = v6.dict_of("project_info")
    book_title = str(title or _first(info, "title", "name", "书名") or v6.source.name)
    genre = str(_first(info, "genre", "类型") or _first(route, "primary_genre", "genre") or "")
    report: list[str] = []

    def fill(repo: StoryRepo) -> None:
        files = _plan(repo, v6, report)
        for rel, text in files.items():
            path = repo.inside(rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        message = f"migrate(v6): {book_title}\n\n自 v6 一次性迁移"
        if v6.chain.is_dir():
            message += "；.story-system 提交链压为本次初始 commit，原目录只读归档"
        repo.git.commit_paths(sorted(files), message + "\n")

    repo = init_book(Path(target), book_title, genre, populate=fill)
    if v6.chain.is_dir():  # the one change to the v6 folder, made once the book exists
        for dirpath, _dirs, names in os.walk(v6.chain):
            for name in names:
                p = Path(dirpath) / name
                p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        report.append(".story-system：已读入并压成初始 commit，原目录只读")
    dropped = [n for n in DERIVED if any(v6.source.rglob(n + "*"))]
    if dropped:
        report.append("已删除（派生物，不迁移）：" + "、".join(dropped))
    return "\n".join(["迁移完成：" + str(repo.root), *report])


def _plan(repo: StoryRepo, v6: V6, report: list[str]) -> dict[str, str]:
    """Every file of the new book, from the v6 project."""
    size = repo.book()["卷规模"]
    files: dict[str, str] = {}
    state = v6.state
    briefs, commits = v6.numbered("chapters", ".json"), v6.numbered("commits", ".commit.json")
    accepted = {n: c for n, c in commits.items() if str((c.get("meta") or {}).get("status", "accepted")) == "accepted"}

    # settings and character cards (written after the chapters, which date them)
    characters: dict[str, str] = {}
    ps = v6.dict_of("protagonist_state")
    setting_dir = v6.source / "设定集"
    if setting_dir.is_dir():
        for path in sorted(setting_dir.rglob("*.md")):
            inner = path.relative_to(setting_dir)
            text = v6.text(path)
            if any(re.match(r"^(角色|人物)", part) for part in inner.parts[:-1]) or path.stem in ("主角卡", "主角"):
                name = str(_first(ps, "name", "姓名") or path.stem) if path.stem in ("主角卡", "主角") else path.stem
                characters[name] = text
            else:
                files[f"{L.设定}/{inner.as_posix()}"] = text
    pname = str(_first(ps, "name", "姓名") or "")
    if pname and pname not in characters:
        characters[pname] = ""

    # chapters, their timeline rows and who appeared
    chapter_meta = v6.dict_of("chapter_meta")
    chapters: list[tuple[int, str, str]] = []
    body_dir = v6.source / "正文"
    if body_dir.is_dir():
        for path in sorted(body_dir.rglob("*")):
            if not path.is_file():
                continue
            m = CHAPTER_NAME.match(path.name)
            if not m:
                report.append(f"跳过（认不出章号）：{path.relative_to(v6.source)}")
                continue
            chapters.append((int(m.group(1)), (m.group(2) or "").strip() or f"第{int(m.group(1))}章", v6.text(path)))
    chapters.sort()
    timeline = repo.text(L.时间线)
    entities: dict[str, tuple[str, int]] = {}
    for n, ctitle, text in chapters:
        meta_in = chapter_meta.get(f"{n:04d}") or chapter_meta.get(str(n)) or {}
        commit = accepted.get(n, {})
        cmeta = cmeta_raw if isinstance(cmeta_raw := commit.get("chapter_meta"), dict) else {}
        body = re.sub(r"^#\s*第?\d+章[^\n]*\n", "", text, count=1)
        fm: dict[str, Any] = {"章号": n, "标题": ctitle, "卷": reference_position(n, size)[0],
                              "视角": str(_first(cmeta, "pov", "视角") or ""), "书内时间": str(_first(cmeta, "time", "书内时间") or ""),
                              "字数": word_count(body), "合同": _contract(briefs.get(n))}
        if isinstance(meta_in, dict):
            for k, v in meta_in.items():
                if isinstance(v, (str, int, bool)) and k not in fm:
                    fm[f"v6_{k}"] = v
        files[f"{L.正文}/{L.chapter_filename(n, ctitle)}"] = new_doc(fm, "\n" + body.lstrip("\n")).dump()
        appeared = [(name, "人物" if kind == "其他" and name in characters else kind) for name, kind in _entities(commit)]
        for name, kind in appeared:
            entities.setdefault(name, (kind, n))
        events = [t for e in commit.get("accepted_events") or [] for t in _texts([e])]
        present = [name for name, kind in appeared if kind == "人物"]
        timeline = append_row(timeline, [str(n), fm["书内时间"], "；".join(events[:2]) or ctitle, ", ".join(present)])
    files[L.时间线] = timeline
    filled = sum(1 for n, _t, _x in chapters if len(_contract(briefs.get(n))) > 1)
    report.append(f"章节：{len(chapters)} 章（合同字段标「迁移」，{filled} 章从 .story-system 补了合同）")

    for name, text in characters.items():
        fm = {"姓名": name}
        if name == pname:
            power = power_raw if isinstance(power_raw := ps.get("power"), dict) else {}
            realm = _first(power, "realm", "境界")
            if realm:
                fm["境界"] = f"{realm}{power.get('layer', '')}{'层' if power.get('layer') else ''}"
            loc = ps.get("location")
            loc = _first(loc, "current", "name") if isinstance(loc, dict) else loc
            if loc:
                fm["位置"] = str(loc)
            fm["状态"] = "在世"
        fm["最后变更章"] = chapters[-1][0] if chapters else 0
        body = text if text.strip() else "## 设定\n（迁移）\n"
        rel = f"{L.角色}/{L.safe_title(name)}.md"
        files[rel] = text if text.startswith("---") else new_doc(fm, "\n" + body.lstrip("\n")).dump()
    rels = state.get("relationships")
    if isinstance(rels, dict) and rels and pname:
        rel = f"{L.角色}/{L.safe_title(pname)}.md"
        files[rel] = files[rel].rstrip("\n") + "\n\n## 关系\n" + "".join(f"- {k}：{v}\n" for k, v in rels.items())
    report.append(f"角色卡：{len(characters)} 张")

    # the roster: everything the commit chain saw appear, once, with its first chapter
    roster = repo.text(L.名册)
    for name, (kind, first) in entities.items():
        if name and name not in characters:
            roster = append_row(roster, [name, "", kind, str(first)])
    for name in characters:
        roster = append_row(roster, [name, "", "人物", str(entities.get(name, ("", 0))[1] or "")])
    files[L.名册] = roster
    report.append(f"名册：{len(set(entities) | set(characters))} 个专名")

    # outlines, then volume briefs where the outline has no volume
    outline_dir = v6.source / "大纲"
    if outline_dir.is_dir():
        for path in sorted(outline_dir.rglob("*.md")):
            text = v6.text(path)
            vm = VOLUME_NAME.search(path.stem)
            if "总纲" in path.stem:
                files[L.总纲] = text
            elif vm:
                files[f"{L.卷纲}/{L.volume_name(int(vm.group(1)))}.md"] = text
            else:
                files[f"{L.大纲}/{path.relative_to(outline_dir).as_posix()}"] = text
    for number, brief in v6.numbered("volumes", ".json").items():
        rel = f"{L.卷纲}/{L.volume_name(number)}.md"
        if rel not in files:
            lines = [f"# {L.volume_name(number)}（迁移自 .story-system）", ""]
            for key, value in brief.items():
                if key != "meta" and _texts(value if not isinstance(value, dict) else [value]):
                    lines += [f"## {key}", *(f"- {t}" for t in _texts(value if not isinstance(value, dict) else [value])), ""]
            files[rel] = "\n".join(lines) + "\n"

    # promises from plot_threads / foreshadowing / chase_debt / reading_power
    pt = v6.dict_of("plot_threads")
    sources = [("悬念", _items(pt.get("active_threads"))), ("伏笔", _items(pt.get("foreshadowing"))),
               ("伏笔", _items(state.get("foreshadowing"))), ("悬念", _items(state.get("chase_debt"))),
               ("爽点铺垫", _items(state.get("reading_power")))]
    count = 0
    for kind, items in sources:
        for item in items:
            count += 1
            pid = f"P-{count:03d}"
            text = str(_first(item, "content", "description", "desc", "title", "name", "内容") or pid)
            ptitle = str(_first(item, "title", "name") or text)[:16]
            status = STATUS_MAP.get(str(item.get("status", "")).lower(), STATUS_MAP.get(str(item.get("status", "")), "进行"))
            strength = STRENGTH_MAP.get(str(_first(item, "tier", "level", "strength", "importance") or "").lower(), "中")
            opened = _int(_first(item, "planted_chapter", "start_chapter", "chapter", "opened_chapter")) or 0
            target_ch = _int(_first(item, "target_chapter", "deadline", "payoff_chapter", "expected_chapter"))
            last = _int(_first(item, "last_chapter", "updated_chapter", "resolved_chapter")) or opened
            plan = str(_first(item, "payoff", "expected_payoff", "plan", "payoff_plan") or "迁移：兑付计划待作者补写")
            fm = {"类型": kind, "强度": strength, "状态": status, "开启章": opened,
                  "兑付期限": f"第{target_ch}章" if target_ch else None, "最后推进章": last}
            for k, v in item.items():
                if isinstance(v, (str, int)) and k not in ("content", "description", "title", "name", "status", "tier",
                                                           "planted_chapter", "target_chapter"):
                    fm[f"v6_{k}"] = v
            body = f"## 描述\n{text}\n\n## 兑付计划\n{plan}\n\n## 履历\n- 第{opened}章：开启（迁移自 v6）\n"
            files[f"{L.承诺}/{pid}-{L.safe_title(ptitle)}.md"] = new_doc(fm, body).dump()
    report.append(f"承诺：{count} 条（plot_threads / foreshadowing / chase_debt / reading_power）")

    # the rest of state.json, unfolded once into 定稿/设定/
    rest = {k: v for k, v in state.items() if k not in CONSUMED_STATE}
    if rest:
        lines = ["# v6 state.json 迁移展开", "", "（一次性展开，供作者整理进对应设定文件）", ""]
        for k, v in rest.items():
            lines += [f"## {k}", "```json\n" + json.dumps(v, ensure_ascii=False, indent=2) + "\n```"]
        files[f"{L.设定}/v6状态展开.md"] = "\n".join(lines) + "\n"
    ws = state.get("world_settings")
    if isinstance(ws, dict) and any(ws.values()):
        world = repo.text(L.世界观)
        for k, v in ws.items():
            if v:
                world += f"\n## {k}（迁移）\n" + "".join(
                    f"- {json.dumps(x, ensure_ascii=False) if isinstance(x, dict) else x}\n" for x in (v if isinstance(v, list) else [v]))
        files[L.世界观] = world

    # summaries: summaries/ first, then what the commit chain recorded
    sdir = v6.source / "summaries"
    if sdir.is_dir():
        for path in sorted(sdir.rglob("*")):
            m = re.search(r"(\d+)", path.stem)
            if path.is_file() and m:
                files[f"{L.章摘要}/{int(m.group(1)):04d}.md"] = v6.text(path)
    for n, commit in accepted.items():
        rel = f"{L.章摘要}/{n:04d}.md"
        summary = str(commit.get("summary_text") or "").strip()
        if summary and rel not in files:
            files[rel] = f"# 第{n}章\n\n{summary}\n"
    report.append(f"章摘要：{sum(1 for k in files if k.startswith(L.章摘要 + '/'))} 篇")

    # style: project_memory patterns / scratchpad / anti-patterns -> for a human pass
    notes = []
    pm = state.get("project_memory")
    if isinstance(pm, dict):
        notes += [str(_first(item, "pattern", "content", "rule", "name") or item) for item in _items(pm.get("patterns"))]
    scratch = state.get("scratchpad")
    notes += [str(_first(item, "content", "note", "name") or item) for item in (_items(scratch) if scratch else [])]
    anti = v6.json(".story-system/anti_patterns.json")
    if isinstance(anti, dict):
        anti = anti.get("anti_patterns")
    notes += [f"毒点：{t}" for t in _texts(anti if isinstance(anti, list) else [])]
    if notes:
        style = repo.text(L.风格宪法).rstrip("\n")
        files[L.风格宪法] = style + "\n\n## 迁移待审（人工过一遍再入宪）\n" + "".join(f"- {n}\n" for n in notes)
    report.append(f"风格宪法待审：{len(notes)} 条")
    if v6.chain.is_dir():
        reviews = len(v6.numbered("reviews", ".review.json"))
        report.append(f".story-system：{len(briefs)} 份章节合同、{len(accepted)} 个已接受提交、{reviews} 份评审（评审不迁移）")
    return files
