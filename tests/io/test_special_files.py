"""``lwcore.io.read_bytes`` refuses what is not a regular file: a named pipe would block the
reader until a writer came, a device may never end. Each is refused at once, located."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lwcore.context import plugin_data_dir
from lwcore.errors import LwError
from lwcore.io import read_bytes, read_json, read_text

READERS = [read_bytes, read_text, read_json]


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_a_named_pipe_is_refused_without_waiting(tmp_path, reader):
    pipe = tmp_path / "config.json"
    os.mkfifo(pipe)
    code = f"from lwcore.io import {reader.__name__} as r\ntry:\n    r({str(pipe)!r})\nexcept Exception as e:\n    print(e)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == f"{pipe}: is not a regular file (a pipe, socket or device) (expected a regular file)"


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_devices_and_folders_are_refused(tmp_path, reader):
    with pytest.raises(LwError, match="not a regular file") as info:
        reader("/dev/zero")
    assert info.value.code == "not_a_file" and info.value.file == "/dev/zero"
    with pytest.raises(LwError, match="is a folder") as info:
        reader(tmp_path)
    assert info.value.code == "not_a_file"


def test_links_to_regular_files_are_read(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("{}", encoding="utf-8")
    (tmp_path / "link.json").symlink_to(target)
    assert read_json(tmp_path / "link.json") == {}
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    with pytest.raises(LwError, match="cannot read") as info:
        read_bytes(tmp_path / "loop.json")
    assert info.value.code == "io"


def test_plugin_data_dir_is_where_the_context_puts_it(tmp_path):
    assert plugin_data_dir(tmp_path, "x") == tmp_path / "plugins-data" / "x"
    assert not (tmp_path / "plugins-data").exists()
