"""What-if branches (分支未来, spec §9): ``git branch what-if/<name>``, then merge or drop."""

from __future__ import annotations

import re

from lwcore.api import LwError

from lw_storyrepo.repo import StoryRepo

_NAME = re.compile(r"[^\s~^:?*\[\\]+")


def whatif(repo: StoryRepo, action: str, name: str | None = None, base: str = "main") -> str:
    git = repo.git
    if action == "list":
        return git.out("branch", "--list", "what-if/*").strip()
    if not name or not _NAME.fullmatch(name) or name.startswith(("-", ".")) or ".." in name or name.endswith((".", "/", ".lock")):
        raise LwError(f"分支名 {name!r} 不合法", expected="不含空格和 ~ ^ : ? * [ \\ 的名字")
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
