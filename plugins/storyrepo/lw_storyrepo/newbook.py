"""Creating a book (``lw story init``, and the target of a migration): all or nothing.

The path is resolved first (a relative path means the same folder to every git call), the whole
book — the Chinese tree of spec §2, book.yaml, .gitignore, ``git init`` and the first commit —
is built in a hidden sibling folder, and only a finished book is renamed into place. A failure
at any step removes the sibling and leaves the target as it was, so a retry starts clean.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable

from lwcore.api import LwError

from lw_storyrepo import SPEC_VERSION
from lw_storyrepo import layout as L
from lw_storyrepo.dialect import new_map, yaml_dump
from lw_storyrepo.gitops import Git
from lw_storyrepo.repo import StoryRepo, new_doc

STARTER_FILES = {
    ".gitignore": ".cache/\n工作区/\n",
    L.世界观: "# 世界观\n\n## 世界规则\n\n## 力量体系\n",
    L.时间线: "# 时间线\n\n" + L.TIMELINE_HEADER,
    L.名册: "# 名册\n\n" + L.ROSTER_HEADER,
    L.总纲: "# 总纲\n\n## 主题\n\n## 金手指\n\n## 结局承诺\n",
}
KEPT_FOLDERS = (L.正文, L.角色, L.信息差, L.章摘要, L.卷摘要, L.卷纲, L.承诺, L.金句库)


def render_book(values: dict[str, Any]) -> str:
    """book.yaml in the dialect, with the spec's comments on the reference values."""
    data = new_map()
    for key, value in values.items():
        data[key] = value
        if key in L.BOOK_COMMENTS:
            data.yaml_add_eol_comment(L.BOOK_COMMENTS[key], key, column=20)
    return yaml_dump(data)


def starter_files(title: str, genre: str, target_words: int, volume_size: int) -> dict[str, str]:
    values = dict(L.BOOK_DEFAULTS)
    values.update({"书名": title, "类型": genre, "每章目标字数": target_words, "卷规模": volume_size})
    files = {L.BOOK_FILE: render_book(values), **STARTER_FILES}
    style = new_doc({"禁词": [], "禁句式": [], "口癖": []}, "## 铁律\n\n## 节奏偏好\n\n## 来自否决的规则\n")
    files[L.风格宪法] = style.dump()
    for rel in KEPT_FOLDERS:
        files[f"{rel}/.gitkeep"] = ""
    return files


def _check_target(directory: Path) -> None:
    if (directory / L.BOOK_FILE).exists():
        raise LwError(f"{directory} 已经是一本书（book.yaml 已存在）")
    if directory.exists():
        if not directory.is_dir():
            raise LwError(f"{directory} 已存在且不是文件夹")
        if any(directory.iterdir()):
            raise LwError(f"{directory} 不是空文件夹", expected="一个新的或空的文件夹")


def init_book(directory: Path | str, title: str, genre: str, *, target_words: int = 3000, volume_size: int = 40,
              populate: Callable[[StoryRepo], None] | None = None) -> StoryRepo:
    """Create a book at ``directory`` (new or empty) and return it.

    ``populate`` runs inside the half-built book after the first commit (a migration fills it
    and commits there); if it raises, nothing is left behind either.
    """
    if not title.strip():
        raise LwError("书名不能为空", expected="--书名 示例书名")
    if target_words <= 0 or volume_size <= 0:
        raise LwError("每章目标字数和卷规模必须是正整数")
    directory = Path(os.path.abspath(os.path.expanduser(directory)))
    directory = directory.parent.resolve() / directory.name
    _check_target(directory)
    made: list[Path] = []
    parent = directory.parent
    while not parent.exists():
        made.append(parent)
        parent = parent.parent
    staging = directory.parent / f".{directory.name}.lw-init-{os.getpid()}"
    try:
        for folder in reversed(made):
            folder.mkdir()
        if staging.exists():
            shutil.rmtree(staging)
        staging.mkdir()
        files = starter_files(title, genre, target_words, volume_size)
        for rel, text in files.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        (staging / L.工作区).mkdir()
        git = Git(staging)
        git.run("init", "-q")
        git.run("config", "core.quotepath", "false")
        git.commit_paths(sorted(files), f"init: {title}\n\nspec_version: {SPEC_VERSION}\n")
        if populate is not None:
            populate(StoryRepo(staging))
        _check_target(directory)  # nobody made it a book meanwhile
        if directory.exists():
            directory.rmdir()
        os.rename(staging, directory)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    return StoryRepo(directory)
