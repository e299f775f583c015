"""Reading a book's files: the one place storyrepo turns bytes from disk into text.

Every reader of a source file, a workspace file or a file named on the command line comes
through here, so a file that is too large or is not UTF-8 is refused the same way everywhere:
a :class:`~lwcore.errors.LwError` naming the file, the line, the column and the byte offset
of the first bad byte (never a traceback from a decoder deep inside a query).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lwcore.errors import LwError

MAX_BYTES = 16 * 1024 * 1024
"""The largest file a book reads whole (a chapter is ~10 KB; a whole novel in one file ~5 MB)."""


def decode(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or a located LwError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start
        line_start = data.rfind(b"\n", 0, offset) + 1
        line = data.count(b"\n", 0, offset) + 1
        column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
        raise LwError(f"不是 UTF-8 编码：第 {offset} 字节（0x{data[offset]:02x}）读不出来", file=file, line=line,
                      column=column, expected="UTF-8（无 BOM）编码的文本文件") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_bytes(path: Path, file: str | None = None) -> bytes:
    """The whole file, or a located LwError (missing, a folder, unreadable, over the limit)."""
    name = file or str(path)
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            regular = stat.S_ISREG(st.st_mode)
            if regular and st.st_size > MAX_BYTES:
                raise LwError(f"文件超过 {MAX_BYTES // (1024 * 1024)} MiB 上限", file=name)
            # a regular file is read at its size (+1 to notice growth); anything else, capped
            data = handle.read(st.st_size + 1 if regular else MAX_BYTES + 1)
    except FileNotFoundError:
        raise LwError("文件不存在", file=name) from None
    except IsADirectoryError:
        raise LwError("这是文件夹，应是文件", file=name) from None
    except OSError as exc:
        raise LwError(f"读不了：{exc.strerror or exc}", file=name) from None
    if len(data) > MAX_BYTES:
        raise LwError(f"文件超过 {MAX_BYTES // (1024 * 1024)} MiB 上限", file=name)
    return data


def read_text(path: Path, file: str | None = None) -> str:
    """The whole file as text (see :func:`decode`); ``file`` is the name shown in errors."""
    return decode(read_bytes(path, file), file or str(path))
