"""Plugin manifests: the static ``lw-plugin.toml`` read before any plugin code runs.

The file lives at the root of a plugin's top-level import package (entry-point plugins) or
of its folder (directory plugins)::

    id = "hello"
    version = "1.0.0"
    tier = "code"                      # data | declarative | code
    provides = ["prompt_segments"]     # hook families and/or data folders
    needs = ["fs:data_dir"]            # fs:data_dir fs:read fs:write net subprocess:<cmd> sandbox:js env:<VAR>
    min_engine = "0.1.0"
    requires_api = ">=2.0,<3"          # lwcore.api versions it works with (optional)
    cli_commands = []                  # lw subcommands (with provides = ["cli"])
    pack_kinds = []                    # .lwpack content kinds validated (with provides = ["pack_validators"])
    [description]
    en = "Says hello"
    zh = "打招呼"

Validation is pydantic (:mod:`lwcore.manifest_schema`, ``lw schema plugin-manifest``). Because
importing pydantic costs ~100 ms, validated manifests are cached by file signature
(path, mtime, size, engine version) in ``<data_dir>/cache/manifests.json``; a cache hit needs
no pydantic at all. The runtime form is the plain :class:`Manifest` dataclass.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from lwcore import __version__
from lwcore.errors import LwError
from lwcore.hookspecs import DATA_KINDS, FAMILIES
from lwcore.io.atomic import atomic_write_text

MANIFEST_NAME = "lw-plugin.toml"

TIERS = ("data", "declarative", "code")


@dataclass(frozen=True)
class Manifest:
    """A validated plugin manifest (see the module docstring for the file)."""

    id: str
    version: str
    tier: str
    provides: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    min_engine: str = "0"
    description: Mapping[str, str] = field(default_factory=dict)
    name: str | None = None
    cli_commands: tuple[str, ...] = ()
    pack_kinds: tuple[str, ...] = ()
    requires_api: str | None = None
    homepage: str | None = None

    @classmethod
    def from_validated(cls, data: Mapping[str, Any]) -> Manifest:
        """Build from a mapping that already passed :func:`validate`."""
        values = dict(data)
        values.pop("bundled", None)  # a plugin's claim; the kernel decides (plugins.kernel_bundle)
        for key in ("provides", "needs", "cli_commands", "pack_kinds"):
            values[key] = tuple(values.get(key) or ())
        values["description"] = dict(values.get("description") or {})
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (lists, not tuples)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else (
                dict(value) if isinstance(value, Mapping) else value
            )
        return out


def version_tuple(text: str) -> tuple[int, ...]:
    """``"1.2.3"`` -> ``(1, 2, 3)``; stops at the first non-numeric part (``1.2rc1`` -> (1, 2))."""
    out: list[int] = []
    for part in text.split("."):
        match = re.match(r"\d+", part)
        if not match:
            break
        out.append(int(match.group()))
        if match.end() != len(part):
            break
    return tuple(out)


_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def parse_toml(text: str, file: Path) -> dict[str, Any]:
    """Parse TOML text, turning a syntax error into a located :class:`LwError`."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        line = column = None
        if match:
            line, column = int(match.group(1)), int(match.group(2))
            message = message[: match.start()].strip()
        raise LwError(f"invalid TOML: {message}", file=file, line=line, column=column) from None


def key_line(text: str, key: str) -> int | None:
    pattern = re.compile(rf"^[ \t]*(\[[ \t]*{re.escape(key)}[ \t]*\]|{re.escape(key)}[ \t]*=)", re.M)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def validate(raw: Mapping[str, Any], *, file: Path, text: str = "") -> dict[str, Any]:
    """Validate a parsed manifest with pydantic; return the normalized dict.

    Raises :class:`LwError` located at the offending key's line when it can be found.
    """
    from pydantic import ValidationError

    from lwcore.manifest_schema import PluginManifest

    try:
        model = PluginManifest.model_validate(dict(raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first["loc"]]
        key = loc[0] if loc else ""
        where = ".".join(loc) or "manifest"
        raise LwError(
            f"{where}: {first['msg']}",
            file=file,
            line=key_line(text, key) if key else None,
            expected=_expected_for(key),
        ) from None
    return model.model_dump(mode="json")


def _expected_for(key: str) -> str | None:
    hints = {
        "tier": " | ".join(TIERS),
        "provides": "a list of: " + ", ".join(sorted(set(FAMILIES) | DATA_KINDS)),
        "needs": "a list of: fs:data_dir, fs:read, fs:write, net, subprocess:<command>, "
        "sandbox:js, env:<VARIABLE>",
        "requires_api": "comma-separated OPERATOR VERSION clauses, e.g. '>=2.0,<3'",
        "id": "lowercase letters, digits, '_' or '-', starting with a letter",
    }
    return hints.get(key)


def cache_tag() -> str:
    """What a cache must have been written by to be read: this engine's version and the fields
    of :class:`Manifest` (a kernel that adds a manifest field, or an older one reading a newer
    cache, starts a fresh cache instead of building a ``Manifest`` from keys it does not know)."""
    return f"{__version__} {' '.join(f.name for f in fields(Manifest))}"


class ManifestCache:
    """Validated manifests keyed by file signature, persisted as JSON in the data dir.

    A damaged or unwritable cache is ignored: it only ever saves time.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries: dict[str, Any] = {}
        self._dirty = False
        if path is not None:
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(loaded, dict) and loaded.get("engine") == cache_tag():
                    self._entries = dict(loaded.get("manifests") or {})
            except (OSError, ValueError):
                self._entries = {}

    @staticmethod
    def signature(file: Path, st: os.stat_result) -> str:
        return f"{st.st_mtime_ns}:{st.st_size}"

    def get(self, file: Path, st: os.stat_result) -> dict[str, Any] | None:
        entry = self._entries.get(str(file))
        if isinstance(entry, dict) and entry.get("sig") == self.signature(file, st):
            data = entry.get("data")
            return data if isinstance(data, dict) else None
        return None

    def put(self, file: Path, st: os.stat_result, data: dict[str, Any]) -> None:
        self._entries[str(file)] = {"sig": self.signature(file, st), "data": data}
        self._dirty = True

    def save(self) -> None:
        """Write the cache atomically if it changed; never raises.

        Entries for manifests that no longer exist (an uninstalled plugin) are dropped, so an
        uninstall leaves nothing behind here either.
        """
        stale = [key for key in self._entries if not os.path.exists(key)]
        for key in stale:
            del self._entries[key]
        if stale:
            self._dirty = True
        if not self._dirty or self.path is None:
            return
        try:
            payload = {"engine": cache_tag(), "manifests": self._entries}
            atomic_write_text(self.path, json.dumps(payload, ensure_ascii=False, sort_keys=True))
            self._dirty = False
        except OSError:
            pass


def load_manifest(file: Path, cache: ManifestCache | None = None) -> Manifest:
    """Read and validate ``file``; raise a located :class:`LwError` when it is not valid."""
    try:
        st = file.stat()
    except OSError as exc:
        raise LwError(f"cannot read manifest: {exc.strerror or exc}", file=file) from None
    if cache is not None:
        cached = cache.get(file, st)
        if cached is not None:
            return Manifest.from_validated(cached)
    try:
        raw_bytes = file.read_bytes()
    except OSError as exc:
        raise LwError(f"cannot read manifest: {exc.strerror or exc}", file=file) from None
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LwError(f"manifest is not UTF-8 (byte {exc.start})", file=file) from None
    data = validate(parse_toml(text, file), file=file, text=text)
    if cache is not None:
        cache.put(file, st, data)
    return Manifest.from_validated(data)
