"""Git through subprocess, deterministic and independent of the user's git configuration.

Every call passes ``-c core.quotepath=false`` (Chinese paths stay readable), ignores the
system and global git config, and sets author/committer identity (and, when
``LW_STORY_DATE`` is set, the dates) through the environment. ``LW_STORY_GIT`` names another
git executable (tests use it to inject git failures).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any, Literal, Mapping

from lwcore.api import LwError

from lw_storyrepo.faults import fault
from lw_storyrepo.findings import visible


def commit_text(message: str) -> bytes:
    """A commit message as git is given it: the caller's lines, each with what a terminal acts on
    written as ``\\uXXXX`` (:func:`findings.visible`) — a title, a setting change or a reason from a
    draft or the command line may carry ESC or a bidi override, and ``git log`` prints it raw."""
    return "\n".join(visible(line) for line in message.split("\n")).encode("utf-8")

DEFAULT_NAME = "Story Repo"
DEFAULT_EMAIL = "storyrepo@localhost"

_SCRUB = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")


class GitError(LwError):
    """A git command failed."""


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUB}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["GIT_CONFIG_GLOBAL"] = os.devnull
    env["GIT_TERMINAL_PROMPT"] = "0"
    name = os.environ.get("LW_STORY_AUTHOR_NAME", DEFAULT_NAME)
    email = os.environ.get("LW_STORY_AUTHOR_EMAIL", DEFAULT_EMAIL)
    env["GIT_AUTHOR_NAME"] = env["GIT_COMMITTER_NAME"] = name
    env["GIT_AUTHOR_EMAIL"] = env["GIT_COMMITTER_EMAIL"] = email
    date = os.environ.get("LW_STORY_DATE")
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    if extra:
        env.update(extra)
    return env


BASE = ("-c", "core.quotepath=false", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false",
        "-c", "core.safecrlf=false", "-c", "init.defaultBranch=main")


class Git:
    """Runs git in ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.exe = os.environ.get("LW_STORY_GIT", "git")

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        check: bool = True,
        env: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        try:
            proc = subprocess.run(
                [self.exe, *BASE, *args],
                cwd=self.root,
                input=input,
                capture_output=True,
                env=git_env(env),
            )
        except OSError as exc:
            raise GitError(f"无法运行 git：{exc}", expected="git 已安装并在 PATH 中") from None
        if check and proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip() or proc.stdout.decode("utf-8", "replace").strip()
            raise GitError(f"git {args[0]} 失败：{err}")
        return proc

    def out(self, *args: str, **kw: Any) -> str:
        return self.run(*args, **kw).stdout.decode("utf-8", "replace")

    # -- helpers ---------------------------------------------------------------------------

    def head(self) -> str | None:
        """The commit HEAD points at, or ``None`` in an empty repository.

        Read straight from ``.git`` (HEAD, loose ref, packed-refs) to save a process; falls
        back to ``git rev-parse`` for anything unusual.
        """
        fast = self._head_from_files()
        if fast is not False:
            return fast
        proc = self.run("rev-parse", "--verify", "-q", "HEAD", check=False)
        if proc.returncode != 0:
            return None
        return proc.stdout.decode("ascii").strip()

    def _head_from_files(self) -> str | None | Literal[False]:
        git_dir = self.root / ".git"
        if self.exe != "git" or not git_dir.is_dir():
            return False
        try:
            head = (git_dir / "HEAD").read_bytes().decode("ascii").strip()
        except (OSError, UnicodeDecodeError):
            return False
        if re.fullmatch(r"[0-9a-f]{40}", head):
            return head
        if not head.startswith("ref: "):
            return False
        ref = head[5:].strip()
        loose = git_dir / ref
        try:
            if loose.is_file():
                value = loose.read_bytes().decode("ascii").strip()
                return value if re.fullmatch(r"[0-9a-f]{40}", value) else False
            packed = git_dir / "packed-refs"
            lines = packed.read_bytes().decode("utf-8").splitlines() if packed.is_file() else []
        except (OSError, UnicodeDecodeError):
            return False
        if lines:
            for line in lines:
                if line.endswith(" " + ref) and not line.startswith(("#", "^")):
                    return line.split(" ", 1)[0]
        return None if not loose.exists() else False

    def status(self, *paths: str) -> list[tuple[str, str]]:
        """``(XY, path)`` for changed/untracked paths under ``paths`` (porcelain v1, -z)."""
        args = ["status", "--porcelain=v1", "-z", "--untracked-files=all"]
        if paths:
            args += ["--", *paths]
        raw = self.run(*args).stdout.decode("utf-8", "replace")
        out: list[tuple[str, str]] = []
        parts = raw.split("\0")
        i = 0
        while i < len(parts):
            entry = parts[i]
            i += 1
            if not entry:
                continue
            xy, path = entry[:2], entry[3:]
            if xy[0] in "RC":
                i += 1  # the rename source follows
            out.append((xy, path))
        return out

    def is_tracked_any(self, path: str) -> bool:
        return bool(self.run("ls-files", "-z", "--", path).stdout)

    def index_clean(self, parent: str | None) -> bool:
        """Whether the real index holds exactly ``parent``'s tree (nothing else staged)."""
        if parent is None:
            return False
        return self.run("diff-index", "--cached", "--quiet", parent, "--", check=False).returncode == 0

    def reset_paths(self, parent: str | None, paths: list[str]) -> None:
        """Put the real index entries of ``paths`` back to ``parent`` (best effort)."""
        if parent is None or not paths:
            return
        payload = "\0".join(paths).encode("utf-8") + b"\0"
        self.run("reset", "-q", parent, "--pathspec-from-file=-", "--pathspec-file-nul", input=payload, check=False)

    def ignored(self, path: str) -> bool:
        """Whether ``path`` is ignored by the book's .gitignore (``check-ignore``, no index)."""
        return self.run("check-ignore", "-q", "--no-index", "--", path, check=False).returncode == 0

    def snapshot(self, paths: list[str], message: str, parent: str | None) -> str:
        """A commit of ``parent``'s tree plus ``paths`` as they are on disk, built in a private
        index and pointed at by no ref (the caller makes it the parent of its own commit)."""
        tmp_index = self.root / ".git" / "lw-snapshot.index"
        if tmp_index.exists():
            tmp_index.unlink()
        ienv = {"GIT_INDEX_FILE": str(tmp_index)}
        try:
            if parent is not None:
                self.run("read-tree", parent, env=ienv)
            payload = "\0".join(paths).encode("utf-8") + b"\0"
            self.run("update-index", "--add", "--remove", "-z", "--stdin", input=payload, env=ienv)
            tree = self.run("write-tree", env=ienv).stdout.decode("ascii").strip()
        finally:
            try:
                tmp_index.unlink()
            except OSError:
                pass
        args = ["commit-tree", tree, "-F", "-"] + (["-p", parent] if parent else [])
        return self.run(*args, input=commit_text(message)).stdout.decode("ascii").strip()

    def commit_paths(self, paths: list[str], message: str, *, old_head: str | None | Literal[False] = False,
                     sync_index: bool = True, real_index: bool | None = None, parent_commit: str | None = None) -> str:
        """Commit exactly ``paths`` (added, changed or deleted) on top of HEAD, atomically.

        Plumbing only: ``write-tree`` + ``commit-tree``, then one ``update-ref HEAD new old``
        -- a compare-and-swap, so the branch moves exactly once or not at all.

        When the real index holds exactly HEAD (``real_index``; checked when None), the paths
        are staged in it directly and put back on failure. Otherwise a private index
        (``read-tree HEAD`` + these paths) is used, so nothing else the author staged is swept
        in, and the real index is synced afterwards. (``git commit`` on a fresh private index
        would re-hash the whole tree.) ``parent_commit``: the new commit's parent when it is
        not HEAD (a snapshot on top of HEAD); the tree is still HEAD's plus ``paths`` and the
        ref still moves from HEAD. Returns the new commit id.
        """
        parent = self.head() if old_head is False else old_head
        payload = "\0".join(paths).encode("utf-8") + b"\0"
        if real_index is None:
            real_index = self.index_clean(parent)
        ref = self._head_ref()
        subject = visible(message.splitlines()[0]) if message else ""
        if real_index:
            try:
                if paths:
                    self.run("update-index", "--add", "--remove", "-z", "--stdin", input=payload)
                tree = self.run("write-tree").stdout.decode("ascii").strip()
                fault("tree")
                base = parent_commit or parent
                args = ["commit-tree", tree, "-F", "-"] + (["-p", base] if base else [])
                commit = self.run(*args, input=commit_text(message)).stdout.decode("ascii").strip()
                fault("ref")
                self.run("update-ref", "-m", f"commit: {subject}", ref, commit, parent or "0" * 40)
            except BaseException:
                if self.head() == parent:
                    self.reset_paths(parent, paths)
                raise
            return commit
        git_dir = self.root / ".git"
        tmp_index = git_dir / "lw-settle.index"
        if tmp_index.exists():
            tmp_index.unlink()
        ienv = {"GIT_INDEX_FILE": str(tmp_index)}
        try:
            if parent is not None:
                self.run("read-tree", parent, env=ienv)
            if paths:
                self.run("update-index", "--add", "--remove", "-z", "--stdin", input=payload, env=ienv)
            tree = self.run("write-tree", env=ienv).stdout.decode("ascii").strip()
        finally:
            try:
                tmp_index.unlink()
            except OSError:
                pass
        fault("tree")
        base = parent_commit or parent
        args = ["commit-tree", tree, "-F", "-"] + (["-p", base] if base else [])
        commit = self.run(*args, input=commit_text(message)).stdout.decode("ascii").strip()
        fault("ref")
        self.run("update-ref", "-m", f"commit: {subject}", ref, commit, parent or "0" * 40)
        if paths and sync_index:
            self.run("update-index", "--add", "--remove", "-z", "--stdin", input=payload, check=False)
        return commit

    def _head_ref(self) -> str:
        """``refs/heads/<branch>`` HEAD points at (``HEAD`` itself when detached)."""
        if self.exe == "git":
            try:
                head = (self.root / ".git" / "HEAD").read_bytes().decode("utf-8").strip()
                if head.startswith("ref: refs/"):
                    return head[5:]
            except (OSError, UnicodeDecodeError):
                pass
        proc = self.run("symbolic-ref", "-q", "HEAD", check=False)
        ref = proc.stdout.decode("utf-8").strip()
        return ref if proc.returncode == 0 and ref else "HEAD"
