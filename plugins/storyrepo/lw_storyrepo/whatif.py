"""What-if branches (分支未来, spec §9): ``git branch what-if/<name>``, then merge or drop."""

from __future__ import annotations

import re

from lwcore.api import LwError

from lw_storyrepo.repo import StoryRepo

_NAME = re.compile(r"[^\s~^:?*\[\\]+")


def whatif(repo: StoryRepo, action: str, name: str | None = None, base: str = "main") -> str:
    """``start``, ``merge``, ``drop`` or ``list`` the what-if branch ``name``; ``base``: the
    branch a merge lands on and a drop goes back to -- an existing branch of the book, else a
    located :class:`LwError` (never an option-looking value passed to git)."""
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
        _check_base(repo, base)
        git.run("switch", "-q", base)
        git.run("merge", "-q", "--no-ff", "--no-edit", "-m", f"merge({name}): 采纳推演分支", branch)
        git.run("branch", "-q", "-d", branch)
        return f"已合并 {branch} 到 {base}"
    if action == "drop":
        current = git.out("rev-parse", "--abbrev-ref", "HEAD").strip()
        if current == branch:
            _check_base(repo, base)
            git.run("switch", "-q", base)
        git.run("branch", "-q", "-D", branch)
        return f"已删除 {branch}"
    raise LwError(f"未知动作 {action!r}", expected="start、merge、drop、list")


def _check_base(repo: StoryRepo, base: str) -> None:
    """Refuse ``--base`` unless it is an existing branch of the book (what ``git switch`` goes
    back to and a merge lands on: a bare commit would leave the merge on no branch). A value
    that looks like an option (``--orphan=x``) is refused before git ever sees it."""
    if not base or base.startswith("-"):
        raise LwError(f"--base {base!r} 不是分支名", expected="已有分支的名字，如 --base main")
    branches = repo.git.out("for-each-ref", "--format=%(refname:short)", "refs/heads/").splitlines()
    if base not in branches:
        raise LwError(f"--base {base!r} 不是这本书已有的分支", expected="已有分支之一：" + "、".join(branches))
