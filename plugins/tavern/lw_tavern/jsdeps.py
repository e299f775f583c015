"""The npm packages whose JavaScript runs in the sandbox: EJS, lodash, mathjs (installed, never committed).

Cards were written against ST-Prompt-Template's EJS (ejs 3.1.9 with lodash 4.17.21 as ``_``)
and MagVarUpdate (mathjs 12.4.1 for value expressions; yaml 2.9.1 -- Tavern Helper's --, json5
2.2.3 and jsonrepair 3.13.2 for ``[InitVar]`` and patch texts): this plugin runs those libraries
themselves inside the kernel's QuickJS sandbox instead of re-implementing them. Their files
are fetched from the npm registry's published tarballs, pinned by version and checked against
the lock file beside this module (``js/jsdeps.lock.json``: each tarball's npm integrity, a
sha512, and each kept file's sha256), and kept in :func:`home` -- ``<prefix>/share/
loreweaver-js/<name>@<version>/`` of the Python environment (``.venv/`` for ``make setup``),
or ``$LW_JS_DIR``. Only Python is needed (no Node, no npm): ``make setup`` runs
``python -m lw_tavern.jsdeps install``; ``lw tavern js-install`` does the same for an
environment installed from wheels.

When the files are missing (no network at setup, an environment that never ran the step),
nothing fails: :func:`source` returns ``None`` and the plugin says so once to the keeper;
templates then run on the plugin's own compiler and the sandbox's own ``_`` (the behaviour
before issue 26), and MVU value expressions that only mathjs reads stay text.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

LOCK = Path(__file__).resolve().parent / "js" / "jsdeps.lock.json"
MAX_TARBALL = 16 * 1024 * 1024
ENTRY = {"ejs": "ejs.min.js", "lodash": "lodash.min.js", "mathjs": "lib/browser/math.js",
         "json5": "dist/index.min.js", "jsonrepair": "lib/umd/jsonrepair.min.js"}
"""The file of each single-file package the sandbox runs (``yaml`` is CommonJS modules: :func:`modules`)."""


def lock() -> dict[str, Any]:
    return json.loads(LOCK.read_text(encoding="utf-8"))


def home() -> Path:
    """Where the packages' files are kept."""
    override = os.environ.get("LW_JS_DIR")
    return Path(override) if override else Path(sys.prefix) / "share" / "loreweaver-js"


def _folder(name: str, spec: dict[str, Any]) -> Path:
    return home() / f"{name}@{spec['version']}"


@cache
def source(name: str) -> str | None:
    """The JavaScript of package ``name``'s entry file, checked against its sha256; ``None`` when
    it is not installed (or was changed after install)."""
    spec = lock()["packages"].get(name)
    if spec is None:
        return None
    path = _folder(name, spec) / ENTRY[name]
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != spec["files"][ENTRY[name]]:
        return None
    return data.decode("utf-8")


@cache
def modules(name: str) -> dict[str, str] | None:
    """Every ``.js`` file of package ``name`` by its path in the package (a CommonJS package the
    sandbox loads with its own small ``require``), each checked; ``None`` when one is missing."""
    spec = lock()["packages"].get(name)
    if spec is None:
        return None
    folder = _folder(name, spec)
    out = {}
    for rel, digest in spec["files"].items():
        if not rel.endswith(".js"):
            continue
        try:
            data = (folder / rel).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            return None
        out[rel] = data.decode("utf-8")
    return out


def missing() -> list[str]:
    """The packages whose files are not (correctly) installed."""
    return [name for name in lock()["packages"]
            if (source(name) if name in ENTRY else modules(name)) is None]


def _integrity(data: bytes, expected: str) -> bool:
    algo, _, digest = expected.partition("-")
    return base64.b64encode(hashlib.new(algo, data).digest()).decode() == digest


def install(*, quiet: bool = False) -> list[str]:
    """Fetch every package not yet installed, check it, keep its listed files; returns what was
    installed. Raises ``RuntimeError`` when a download fails or does not match the lock."""
    done = []
    for name, spec in lock()["packages"].items():
        folder = _folder(name, spec)
        if all(_file_ok(folder / rel, digest) for rel, digest in spec["files"].items()):
            continue
        request = urllib.request.Request(spec["resolved"], headers={"User-Agent": "loreweaver-setup"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:  # noqa: S310 - the lock's https URL
                data = reply.read(MAX_TARBALL + 1)
        except OSError as exc:
            raise RuntimeError(f"{name}@{spec['version']}: cannot download {spec['resolved']}: {exc}") from None
        if len(data) > MAX_TARBALL or not _integrity(data, spec["integrity"]):
            raise RuntimeError(f"{name}@{spec['version']}: the tarball does not match the lock's integrity")
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for rel, digest in spec["files"].items():
                member = archive.extractfile(spec["root"] + rel)
                body = member.read() if member is not None else b""
                if hashlib.sha256(body).hexdigest() != digest:
                    raise RuntimeError(f"{name}@{spec['version']}: {rel} does not match the lock")
                target = folder / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(target.suffix + ".part")
                tmp.write_bytes(body)
                tmp.replace(target)
        done.append(f"{name}@{spec['version']}")
        if not quiet:
            print(f"installed {name}@{spec['version']} into {folder}")
    source.cache_clear()
    modules.cache_clear()
    return done


def _file_ok(path: Path, digest: str) -> bool:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() == digest
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["install"]:
        print("usage: python -m lw_tavern.jsdeps install", file=sys.stderr)
        return 2
    try:
        install()
    except RuntimeError as exc:
        print(f"jsdeps: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
