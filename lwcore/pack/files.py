"""The two views validators read a pack through (:class:`lwcore.contributions.PackFiles`).

- :class:`SourceTree`: an author's folder at build time. Paths pass the pack name rule, stay
  inside the folder, and never go through a symbolic link (a link is refused, not followed:
  what is packed is what the folder holds).
- :class:`ArchiveFiles`: a checked archive at verify and install time; reads are bounded by the
  member's declared size.

Both read text with the kernel's decoder (UTF-8, a byte-order mark dropped, bad bytes located)
and list a folder's files the same way (sorted, hidden names left out), so a validator sees the
same pack before and after it is zipped.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from lwcore.errors import LwError
from lwcore.io.text import decode_text, describe_size
from lwcore.pack.archive import PackArchive
from lwcore.pack.limits import DEFAULT_LIMITS
from lwcore.pack.names import name_problem

DEFAULT_READ = DEFAULT_LIMITS.read_bytes


def _hidden(path: str) -> bool:
    return any(part.startswith(".") for part in path.split("/"))


class SourceTree:
    """An author's pack folder."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def display(self, path: str) -> str:
        return str(self.root / path)

    def _checked(self, path: str) -> Path:
        """The file system path of ``path``, refusing bad names and any symbolic link on the
        way (a missing file is left to the caller)."""
        problem = name_problem(path)
        if problem is not None:
            raise LwError(f"path {path!r} {problem}", file=self.root, code="path")
        current = self.root
        for part in path.split("/"):
            current = current / part
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    raise LwError("is a symbolic link; a pack holds files, not links", file=current, code="symlink")
            except FileNotFoundError:
                break
        return current

    def is_file(self, path: str) -> bool:
        try:
            return stat.S_ISREG(os.lstat(self._checked(path)).st_mode)
        except (OSError, LwError):
            return False

    def is_folder(self, path: str) -> bool:
        try:
            return stat.S_ISDIR(os.lstat(self._checked(path)).st_mode)
        except (OSError, LwError):
            return False

    def read_bytes(self, path: str, *, max_bytes: int = DEFAULT_READ) -> bytes:
        target = self._checked(path)
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            raise LwError("file not found", file=target, code="not_found") from None
        if stat.S_ISDIR(st.st_mode):
            raise LwError("is a folder, expected a file", file=target, code="not_a_file")
        if not stat.S_ISREG(st.st_mode):
            raise LwError("is not a regular file", file=target, code="not_a_file")
        if st.st_size > max_bytes:
            raise LwError(f"is larger than the {describe_size(max_bytes)} limit", file=target, code="limit")
        with open(target, "rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise LwError(f"is larger than the {describe_size(max_bytes)} limit", file=target, code="limit")
        return data

    def read_text(self, path: str, *, max_bytes: int = DEFAULT_READ) -> str:
        return decode_text(self.read_bytes(path, max_bytes=max_bytes), self.display(path))

    def size(self, path: str) -> int:
        return os.lstat(self._checked(path)).st_size

    def chunks(self, path: str) -> Iterator[bytes]:
        """The file's bytes in chunks (a generator)."""
        target = self._checked(path)

        def generate() -> Iterator[bytes]:
            with open(target, "rb") as handle:
                yield from iter(lambda: handle.read(1024 * 1024), b"")

        return generate()

    def files_under(self, folder: str) -> tuple[str, ...]:
        base = self._checked(folder)
        if not base.is_dir():
            raise LwError("is not a folder", file=base, code="not_a_folder")
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in dirnames:
                if os.path.islink(os.path.join(dirpath, name)):
                    raise LwError("is a symbolic link; a pack holds files, not links",
                                  file=os.path.join(dirpath, name), code="symlink")
            for name in filenames:
                if name.startswith("."):
                    continue
                full = os.path.join(dirpath, name)
                rel = Path(full).relative_to(self.root).as_posix()
                self._checked(rel)
                if not stat.S_ISREG(os.lstat(full).st_mode):
                    raise LwError("is not a regular file", file=full, code="not_a_file")
                out.append(rel)
        return tuple(sorted(out))


class ArchiveFiles:
    """A checked archive's members, seen as a pack's files."""

    def __init__(self, archive: PackArchive) -> None:
        self.archive = archive

    def display(self, path: str) -> str:
        return self.archive.display(path)

    def is_file(self, path: str) -> bool:
        return path in self.archive.members

    def is_folder(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return any(name.startswith(prefix) for name in self.archive.members)

    def read_bytes(self, path: str, *, max_bytes: int = DEFAULT_READ) -> bytes:
        if path not in self.archive.members:
            raise LwError("file not found in the pack", file=self.display(path), code="not_found")
        return self.archive.read(path, max_bytes=max_bytes)

    def read_text(self, path: str, *, max_bytes: int = DEFAULT_READ) -> str:
        return decode_text(self.read_bytes(path, max_bytes=max_bytes), self.display(path))

    def size(self, path: str) -> int:
        return self.archive.size(path)

    def chunks(self, path: str) -> Iterator[bytes]:
        return self.archive.chunks(path)

    def files_under(self, folder: str) -> tuple[str, ...]:
        prefix = folder.rstrip("/") + "/"
        found = tuple(sorted(n for n in self.archive.members if n.startswith(prefix) and not _hidden(n[len(prefix):])))
        if not found:
            raise LwError("is not a folder of the pack", file=self.display(folder), code="not_a_folder")
        return found
