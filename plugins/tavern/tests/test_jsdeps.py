"""The npm packages the plugin runs in the sandbox: fetched and checked against the lock (a
tarball or a file that does not match is refused), read back checked, and absent without harm."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path

import lwcore.sandbox as sandbox
import pytest

from lw_tavern import jsdeps
from lw_tavern.ejs import full


def tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def fake_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    def make(body: bytes, *, integrity: str | None = None, sha: str | None = None) -> Path:
        data = tarball({"ejs.min.js": body, "LICENSE": b"MIT"})
        (tmp_path / "ejs.tgz").write_bytes(data)
        lock = {"lockfileVersion": 1, "packages": {"ejs": {
            "version": "9.9.9", "resolved": (tmp_path / "ejs.tgz").as_uri(), "root": "package/",
            "integrity": integrity or "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
            "files": {"ejs.min.js": sha or hashlib.sha256(body).hexdigest(), "LICENSE": hashlib.sha256(b"MIT").hexdigest()},
        }}}
        path = tmp_path / "lock.json"
        path.write_text(json.dumps(lock), encoding="utf-8")
        monkeypatch.setattr(jsdeps, "LOCK", path)
        monkeypatch.setenv("LW_JS_DIR", str(tmp_path / "js"))
        jsdeps.source.cache_clear()
        jsdeps.modules.cache_clear()
        return tmp_path / "js"
    yield make
    jsdeps.source.cache_clear()
    jsdeps.modules.cache_clear()


def test_a_package_is_installed_checked_and_read_back(fake_lock) -> None:  # noqa: ANN001
    home = fake_lock(b"var x = 1;")
    assert jsdeps.source("ejs") is None and jsdeps.missing() == ["ejs"]
    assert jsdeps.install(quiet=True) == ["ejs@9.9.9"]
    assert (home / "ejs@9.9.9" / "ejs.min.js").read_bytes() == b"var x = 1;"
    assert jsdeps.source("ejs") == "var x = 1;" and jsdeps.missing() == []
    assert jsdeps.install(quiet=True) == []  # what is there is kept
    (home / "ejs@9.9.9" / "ejs.min.js").write_bytes(b"var x = 2;")  # changed after install: not loaded
    jsdeps.source.cache_clear()
    assert jsdeps.source("ejs") is None


@pytest.mark.parametrize("broken", ["integrity", "file"])
def test_a_tarball_or_file_that_does_not_match_the_lock_is_refused(fake_lock, broken: str) -> None:  # noqa: ANN001
    home = fake_lock(b"var x = 1;", integrity="sha512-AAAA" if broken == "integrity" else None,
                     sha="0" * 64 if broken == "file" else None)
    with pytest.raises(RuntimeError, match="does not match"):
        jsdeps.install(quiet=True)
    assert not (home / "ejs@9.9.9" / "ejs.min.js").exists()


def test_the_committed_lock_pins_every_package_by_version_and_hash() -> None:
    lock = jsdeps.lock()
    assert set(lock["packages"]) == {"ejs", "lodash", "mathjs", "yaml", "json5", "jsonrepair"}
    for name, spec in lock["packages"].items():
        assert spec["resolved"] == f"https://registry.npmjs.org/{name}/-/{name}-{spec['version']}.tgz"
        assert spec["integrity"].startswith("sha512-") and all(len(d) == 64 for d in spec["files"].values())


def test_without_the_libraries_templates_still_render_on_the_own_compiler(fake_lock) -> None:  # noqa: ANN001
    fake_lock(b"var x = 1;")  # the lock points elsewhere and nothing is installed there
    assert full.library_sources() is None
    out = full.render_full("<% if (getvar('日') > 2) { %>夜<% } %>第<%= getvar('日') %>日", sandbox, tree={"日": 3},
                           seed=1, clock=0)
    assert out is not None and out.text == "夜第3日"
