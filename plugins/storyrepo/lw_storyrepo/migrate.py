"""One-shot migration of a v6 project to a v7 Story Repo (spec §12).

v6 layout read (tolerant: every part is optional):

- ``正文/`` chapters (``第0001章-标题.md``, ``第1章 标题.md``, ``0001-标题.md`` …)
- ``设定集/`` settings; character cards under ``角色*``/``人物*`` folders or named ``主角卡``
- ``大纲/`` (总纲, 卷纲 ``第N卷…``)
- ``.webnovel/state.json``: ``project_info``, ``progress``, ``protagonist_state``,
  ``relationships``, ``plot_threads.{active_threads,foreshadowing}``, ``chase_debt``,
  ``reading_power``, ``chapter_meta``, ``project_memory``/``scratchpad`` …
- ``summaries/`` chapter summaries (``ch0001.md``, ``0001.md``, ``第1章.md`` …)
- ``.story-system/`` its own commit chain: squashed into the initial commit, the original
  folder is left where it is, made read-only; ``index.db``/``vectors.db``/``projection_log`` dropped.

Nothing in the v6 folder is modified except the read-only bit on ``.story-system``.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from lwcore.errors import LwError
from lwcore.io import read_json

from lw_storyrepo import layout as L
from lw_storyrepo.counting import word_count
from lw_storyrepo.markdown import append_row
from lw_storyrepo.newbook import init_book
from lw_storyrepo.repo import StoryRepo, new_doc
from lw_storyrepo.sources import read_text
from lw_storyrepo.volumes import reference_position

CHAPTER_NAME = re.compile(r"^(?:第)?0*(\d+)(?:章)?[\s\-_·、.：:]*(.*?)\.(?:md|txt)$")
VOLUME_NAME = re.compile(r"第\s*0*(\d+)\s*卷")


def _read(path: Path) -> str:
    return read_text(path, str(path))


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


def _first(d: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        if d.get(k) not in (None, "", []):
            return d[k]
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.search(r"\d+", str(value or ""))
    return int(m.group()) if m else None


STATUS_MAP = {"resolved": "已兑付", "paid": "已兑付", "closed": "已兑付", "done": "已兑付", "已回收": "已兑付",
              "已兑现": "已兑付", "已兑付": "已兑付", "abandoned": "已弃置", "dropped": "已弃置", "已放弃": "已弃置",
              "已弃置": "已弃置"}
STRENGTH_MAP = {"核心": "高", "high": "高", "高": "高", "critical": "高", "主线": "高", "支线": "中", "medium": "中",
                "中": "中", "装饰": "低", "low": "低", "低": "低"}


def migrate(source: Path, target: Path, *, title: str | None = None) -> str:
    source, target = Path(source), Path(target)
    if not source.is_dir():
        raise LwError(f"{source} 不是目录")
    if (target / "book.yaml").exists():
        raise LwError(f"{target} 已经是 v7 仓库")
    state: dict[str, Any] = {}
    state_file = source / ".webnovel" / "state.json"
    if state_file.is_file():
        state = read_json(state_file)
        if not isinstance(state, dict):
            raise LwError("state.json 应是一个 JSON 对象", file=state_file)
    info = state.get("project_info") if isinstance(state.get("project_info"), dict) else {}
    book_title = title or _first(info, "title", "name", "书名") or source.name
    genre = str(_first(info, "genre", "类型") or "")
    report: list[str] = []

    def fill(repo: StoryRepo) -> None:
        size = repo.book()["卷规模"]
        files: dict[str, str] = {}

        # chapters
        chapter_meta = state.get("chapter_meta") if isinstance(state.get("chapter_meta"), dict) else {}
        chapters: list[tuple[int, str, str]] = []
        body_dir = source / "正文"
        if body_dir.is_dir():
            for path in sorted(body_dir.rglob("*")):
                if not path.is_file():
                    continue
                m = CHAPTER_NAME.match(path.name)
                if not m:
                    report.append(f"跳过（认不出章号）：{path.relative_to(source)}")
                    continue
                chapters.append((int(m.group(1)), (m.group(2) or "").strip() or f"第{int(m.group(1))}章", _read(path)))
        chapters.sort()
        timeline = _read(repo.p(L.时间线))
        for n, ctitle, text in chapters:
            meta_in = chapter_meta.get(f"{n:04d}") or chapter_meta.get(str(n)) or {}
            body = re.sub(r"^#\s*第?\d+章[^\n]*\n", "", text.lstrip("\ufeff"), count=1)
            fm: dict[str, Any] = {"章号": n, "标题": ctitle, "卷": reference_position(n, size)[0], "视角": "", "书内时间": "",
                                  "字数": word_count(body), "合同": ["迁移"]}
            if isinstance(meta_in, dict):
                for k, v in meta_in.items():
                    if isinstance(v, (str, int, bool)) and k not in fm:
                        fm[f"v6_{k}"] = v
            files[f"{L.正文}/{L.chapter_filename(n, ctitle)}"] = new_doc(fm, "\n" + body.lstrip("\n")).dump()
            timeline = append_row(timeline, [str(n), "", ctitle, ""])
        files[L.时间线] = timeline
        report.append(f"章节：{len(chapters)} 章（front matter 合同字段标「迁移」）")

        # settings
        characters: dict[str, str] = {}
        setting_dir = source / "设定集"
        if setting_dir.is_dir():
            for path in sorted(setting_dir.rglob("*.md")):
                rel = path.relative_to(setting_dir)
                text = _read(path)
                is_char = any(re.match(r"^(角色|人物)", part) for part in rel.parts[:-1]) or path.stem in ("主角卡", "主角")
                if is_char:
                    name = path.stem
                    if path.stem in ("主角卡", "主角"):
                        ps = state.get("protagonist_state") if isinstance(state.get("protagonist_state"), dict) else {}
                        name = str(_first(ps, "name", "姓名") or name)
                    characters[name] = text
                else:
                    files[f"{L.设定}/{rel.as_posix()}"] = text
        ps = state.get("protagonist_state") if isinstance(state.get("protagonist_state"), dict) else {}
        pname = str(_first(ps, "name", "姓名") or "")
        if pname and pname not in characters:
            characters[pname] = ""
        for name, text in characters.items():
            fm = {"姓名": name}
            if name == pname:
                power = ps.get("power") if isinstance(ps.get("power"), dict) else {}
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
            if not text.startswith("---"):
                files[f"{L.角色}/{L.safe_title(name)}.md"] = new_doc(fm, "\n" + body.lstrip("\n")).dump()
            else:
                files[f"{L.角色}/{L.safe_title(name)}.md"] = text
        rels = state.get("relationships")
        if isinstance(rels, dict) and rels and pname:
            path = f"{L.角色}/{L.safe_title(pname)}.md"
            files[path] = files[path].rstrip("\n") + "\n\n## 关系\n" + "".join(f"- {k}：{v}\n" for k, v in rels.items())
        report.append(f"角色卡：{len(characters)} 张")

        # outlines
        outline_dir = source / "大纲"
        if outline_dir.is_dir():
            for path in sorted(outline_dir.rglob("*.md")):
                text = _read(path)
                vm = VOLUME_NAME.search(path.stem)
                if "总纲" in path.stem:
                    files[L.总纲] = text
                elif vm:
                    files[f"{L.卷纲}/{L.volume_name(int(vm.group(1)))}.md"] = text
                else:
                    files[f"{L.大纲}/{path.relative_to(outline_dir).as_posix()}"] = text

        # promises from plot_threads / foreshadowing / chase_debt / reading_power
        pt = state.get("plot_threads") if isinstance(state.get("plot_threads"), dict) else {}
        sources = [("悬念", _items(pt.get("active_threads"))), ("伏笔", _items(pt.get("foreshadowing"))),
                   ("伏笔", _items(state.get("foreshadowing"))), ("悬念", _items(state.get("chase_debt"))),
                   ("爽点铺垫", _items(state.get("reading_power")))]
        count = 0
        last = chapters[-1][0] if chapters else 0
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
                lastp = _int(_first(item, "last_chapter", "updated_chapter", "resolved_chapter")) or opened
                plan = str(_first(item, "payoff", "expected_payoff", "plan", "payoff_plan") or "迁移：兑付计划待作者补写")
                fm = {"类型": kind, "强度": strength, "状态": status, "开启章": opened,
                      "兑付期限": f"第{target_ch}章" if target_ch else None, "最后推进章": lastp}
                extra = {k: v for k, v in item.items() if isinstance(v, (str, int)) and k not in
                         ("content", "description", "title", "name", "status", "tier", "planted_chapter", "target_chapter")}
                for k, v in extra.items():
                    fm[f"v6_{k}"] = v
                body = f"## 描述\n{text}\n\n## 兑付计划\n{plan}\n\n## 履历\n- 第{opened}章：开启（迁移自 v6）\n"
                files[f"{L.承诺}/{pid}-{L.safe_title(ptitle)}.md"] = new_doc(fm, body).dump()
        report.append(f"承诺：{count} 条（plot_threads / foreshadowing / chase_debt / reading_power）")

        # the rest of state.json, unfolded once into 定稿/设定/
        consumed = {"project_info", "protagonist_state", "relationships", "plot_threads", "foreshadowing",
                    "chase_debt", "reading_power", "chapter_meta", "project_memory", "scratchpad",
                    "entities_v3", "alias_index", "state_changes", "structured_relationships", "progress"}
        rest = {k: v for k, v in state.items() if k not in consumed}
        if rest:
            lines = ["# v6 state.json 迁移展开", "", "（一次性展开，供作者整理进对应设定文件）", ""]
            for k, v in rest.items():
                lines.append(f"## {k}")
                lines.append("```json\n" + json.dumps(v, ensure_ascii=False, indent=2) + "\n```")
            files[f"{L.设定}/v6状态展开.md"] = "\n".join(lines) + "\n"
        ws = state.get("world_settings")
        if isinstance(ws, dict) and any(ws.values()):
            world = _read(repo.p(L.世界观))
            for k, v in ws.items():
                if v:
                    world += f"\n## {k}（迁移）\n" + "".join(f"- {json.dumps(x, ensure_ascii=False) if isinstance(x, dict) else x}\n" for x in (v if isinstance(v, list) else [v]))
            files[L.世界观] = world

        # summaries
        sdir = source / "summaries"
        n_sum = 0
        if sdir.is_dir():
            for path in sorted(sdir.rglob("*")):
                if path.is_file():
                    m = re.search(r"(\d+)", path.stem)
                    if m:
                        files[f"{L.章摘要}/{int(m.group(1)):04d}.md"] = _read(path)
                        n_sum += 1
        report.append(f"章摘要：{n_sum} 篇")

        # style: project_memory patterns / scratchpad -> style constitution, for a human pass
        pm = state.get("project_memory")
        scratch = state.get("scratchpad")
        notes = []
        if isinstance(pm, dict):
            for item in _items(pm.get("patterns")):
                notes.append(str(_first(item, "pattern", "content", "rule", "name") or item))
        for item in _items(scratch) if scratch else []:
            notes.append(str(_first(item, "content", "note", "name") or item))
        if notes:
            style = _read(repo.p(L.风格宪法)).rstrip("\n")
            style += "\n\n## 迁移待审（人工过一遍再入宪）\n" + "".join(f"- {n}\n" for n in notes)
            files[L.风格宪法] = style
        report.append(f"风格宪法待审：{len(notes)} 条")

        for rel, text in files.items():
            path = repo.p(rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        chain = source / ".story-system"
        message = f"migrate(v6): {book_title}\n\n自 v6 一次性迁移"
        if chain.is_dir():
            message += "；.story-system 提交链压为本次初始 commit，原目录只读归档"
            report.append(".story-system：已压成初始 commit，原目录只读")
        dropped = [n for n in ("index.db", "vectors.db", "projection_log") if any(source.rglob(n + "*"))]
        if dropped:
            report.append("已删除（派生物，不迁移）：" + "、".join(dropped))
        repo.git.commit_paths(sorted(files), message + "\n")

    repo = init_book(target, str(book_title), genre, populate=fill)
    chain = source / ".story-system"
    if chain.is_dir():  # the one change to the v6 folder, made once the book exists
        for dirpath, _dirs, names in os.walk(chain):
            for name in names:
                p = Path(dirpath) / name
                p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return "\n".join(["迁移完成：" + str(repo.root), *report])
