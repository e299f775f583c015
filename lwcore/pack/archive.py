"""The ``.lwpack`` container: a zip read under the red lines, and written byte-deterministically.

Reading (:func:`open_pack`) checks the whole central directory before any member is read, and
reports every problem at once, each located by the member's byte offset in the file:

- the file is a regular file within the size cap, and a zip archive Python's reader accepts;
- at most ``entries`` members; each within ``file_bytes``, all within ``total_bytes``; a
  deflated member larger than ``ratio_floor`` at most ``ratio`` times its compressed size;
- names are valid UTF-8 (a non-ASCII name must carry the zip's UTF-8 flag) and pass
  :func:`lwcore.pack.names.name_problem` (no zip-slip, no absolute paths, no control characters);
- no folder entries, symbolic links, devices, encrypted members or compression methods other
  than stored and deflate; a stored member's two sizes agree;
- the names fit in one folder tree on any system (:func:`lwcore.pack.names.clashes`: no
  duplicates, also under case folding and Unicode normalization, no file where another member
  needs a folder);
- members do not overlap one another or the central directory (a quoted-overlap zip bomb).

A member then streams through :meth:`PackArchive.chunks`, which never yields more bytes than
its header declares and refuses fewer; a CRC mismatch or broken deflate data is a located
error too.

Writing (:func:`write_pack`) stores every member uncompressed, in the order given, with fixed
timestamps (1980-01-01), permissions (0644, Unix) and versions: deflate output depends on the
zlib build (zlib and zlib-ng differ), stored bytes do not, so the same tree gives the same
sha256 on any machine.
"""

from __future__ import annotations

import hashlib
import os
import stat
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from lwcore.errors import LwError, LwErrors
from lwcore.io.atomic import staged_file
from lwcore.io.text import describe_size
from lwcore.pack.limits import DEFAULT_LIMITS, PackLimits
from lwcore.pack.names import clashes, name_problem

CHUNK = 1024 * 1024
_EPOCH = (1980, 1, 1, 0, 0, 0)
_FILE_MODE = 0o100644
_LOCAL_HEADER = 30
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, NotImplementedError,
               UnicodeDecodeError, OverflowError)


class PackArchive:
    """An opened, structurally checked ``.lwpack``. Use as a context manager."""

    def __init__(self, path: Path, handle: IO[bytes], archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]):
        self.path = path
        self.name = path.name
        self._handle = handle
        self._zip = archive
        self.members = members
        """Member name -> its zip record, in the archive's order."""

    def __enter__(self) -> PackArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()
        self._handle.close()

    def display(self, name: str) -> str:
        return f"{self.path}!/{name}"

    def stamp(self) -> tuple[int, int, int]:
        """``(inode, size, mtime_ns)`` of the open file: a write to it changes the stamp."""
        st = os.fstat(self._handle.fileno())
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def size(self, name: str) -> int:
        return self.members[name].file_size

    def chunks(self, name: str) -> Iterator[bytes]:
        """The member's bytes in chunks; exactly its declared size, or a located error."""
        info = self.members[name]
        left = info.file_size
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(min(CHUNK, left + 1))
                    if not chunk:
                        break
                    left -= len(chunk)
                    if left < 0:
                        raise LwError("member holds more bytes than its header declares", file=self.display(name),
                                      byte=info.header_offset, code="archive")
                    yield chunk
        except LwError:
            raise
        except Exception as exc:  # noqa: BLE001 - BadZipFile (CRC), zlib.error, EOFError: a damaged member
            raise LwError(f"member cannot be read: {type(exc).__name__}: {exc}", file=self.display(name),
                          byte=info.header_offset, code="archive") from None
        if left:
            raise LwError("member holds fewer bytes than its header declares", file=self.display(name),
                          byte=info.header_offset, code="archive")

    def read(self, name: str, *, max_bytes: int) -> bytes:
        """The whole member, refused when its declared size is over ``max_bytes``."""
        info = self.members[name]
        if info.file_size > max_bytes:
            raise LwError(f"is larger than the {describe_size(max_bytes)} limit", file=self.display(name), code="limit")
        return b"".join(self.chunks(name))

    def digest(self, name: str, sink: Callable[[bytes], object] | None = None) -> str:
        """The member's sha256, each chunk also handed to ``sink`` (an extraction)."""
        h = hashlib.sha256()
        for chunk in self.chunks(name):
            h.update(chunk)
            if sink is not None:
                sink(chunk)
        return h.hexdigest()


def _member_problems(info: zipfile.ZipInfo, limits: PackLimits) -> list[str]:
    problems = []
    name = info.filename
    if not info.flag_bits & 0x800 and not name.isascii():
        problems.append("name is not UTF-8 (a non-ASCII name without the zip's UTF-8 flag)")
    if name.endswith("/"):
        problems.append("is a folder entry (a pack holds files only)")
    else:
        problem = name_problem(name)
        if problem:
            problems.append(f"name {problem}")
    if info.create_system == 3:
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            problems.append("is a symbolic link")
        elif kind not in (0, stat.S_IFREG) and not name.endswith("/"):
            problems.append("is not a regular file")
    if info.flag_bits & 0x1:
        problems.append("is encrypted")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        problems.append(f"uses compression method {info.compress_type} (only stored and deflate are read)")
    elif info.compress_type == zipfile.ZIP_STORED and info.compress_size != info.file_size:
        problems.append("is stored, yet its compressed and uncompressed sizes differ")
    if info.file_size > limits.file_bytes:
        problems.append(f"is {describe_size(info.file_size)} uncompressed; the limit is {describe_size(limits.file_bytes)}")
    elif (info.compress_type == zipfile.ZIP_DEFLATED and info.file_size > limits.ratio_floor
          and info.file_size > limits.ratio * max(info.compress_size, 1)):
        problems.append(f"inflates {info.file_size // max(info.compress_size, 1)} times "
                        f"({describe_size(info.compress_size)} to {describe_size(info.file_size)}); "
                        f"the limit is {limits.ratio} times")
    return problems


def open_pack(path: str | Path, *, limits: PackLimits = DEFAULT_LIMITS) -> PackArchive:
    """Open ``path`` as a ``.lwpack`` and check its structure (see the module docstring); one
    :class:`LwError` (or ``LwErrors``) for everything wrong. Nothing is written."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise LwError("file not found", file=path, code="not_found") from None
    except OSError as exc:
        raise LwError(f"cannot read: {exc.strerror or exc}", file=path, code="io") from None
    if not stat.S_ISREG(st.st_mode):
        raise LwError("is not a regular file", file=path, code="not_a_file")
    if st.st_size > limits.archive_bytes:
        raise LwError(f"is larger than the {describe_size(limits.archive_bytes)} limit for a pack", file=path, code="limit")
    handle = path.open("rb")
    try:
        try:
            archive = zipfile.ZipFile(handle)
        except _ZIP_ERRORS as exc:
            raise LwError(f"is not a readable zip archive: {exc}", file=path, code="archive") from None
        infos = archive.infolist()
        if len(infos) > limits.entries:
            archive.close()
            raise LwError(f"holds {len(infos)} members; the limit is {limits.entries}", file=path, code="limit")
        problems: list[LwError] = []

        def refuse(info: zipfile.ZipInfo | None, message: str) -> None:
            where = f"{path}!/{info.filename}" if info is not None else path
            problems.append(LwError(message, file=where, byte=info.header_offset if info else None, code="archive"))

        for info in infos:
            for message in _member_problems(info, limits):
                refuse(info, message)
        files = [i for i in infos if not i.filename.endswith("/")]
        for index, _, why in clashes([i.filename for i in files]):
            refuse(files[index], f"name {why}")
        total = sum(i.file_size for i in infos)
        if total > limits.total_bytes:
            refuse(None, f"members inflate to {describe_size(total)}; the limit is {describe_size(limits.total_bytes)}")
        ordered = sorted(infos, key=lambda i: i.header_offset)
        end_of_data = getattr(archive, "start_dir", None)
        for info, following in zip(ordered, [*ordered[1:], None]):
            end = info.header_offset + _LOCAL_HEADER + len(info.orig_filename.encode("utf-8", "surrogateescape")) + info.compress_size
            limit = following.header_offset if following is not None else end_of_data
            if limit is not None and end > limit:
                refuse(info, "overlaps the next member or the central directory")
        if problems:
            archive.close()
            raise problems[0] if len(problems) == 1 else LwErrors(problems)
        return PackArchive(path, handle, archive, {i.filename: i for i in infos})
    except BaseException:
        handle.close()
        raise


def write_pack(out: Path, members: Iterable[tuple[str, Callable[[], Iterable[bytes]]]]) -> str:
    """Write a deterministic ``.lwpack`` at ``out`` (atomically: a temporary file renamed over
    it) from ``(name, chunks)`` pairs in the order given; return its sha256. The file gets the
    ordinary ``0o666 & ~umask`` mode; nothing about the machine enters its bytes."""
    with staged_file(out.parent, prefix=f".{out.name}.") as staged:
        handle = staged.handle
        with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name, chunks in members:
                info = zipfile.ZipInfo(name, date_time=_EPOCH)
                info.compress_type = zipfile.ZIP_STORED
                info.create_system = 3
                info.create_version = 20
                info.extract_version = 20
                info.external_attr = _FILE_MODE << 16
                with archive.open(info, "w") as sink:
                    for chunk in chunks():
                        sink.write(chunk)
        handle.flush()
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(handle.fileno(), 0o666 & ~mask)
        os.fsync(handle.fileno())
        handle.seek(0)
        digest = hashlib.sha256()
        for chunk in iter(lambda: handle.read(CHUNK), b""):
            digest.update(chunk)
        staged.into = out
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """The sha256 of a whole file, streamed."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()
