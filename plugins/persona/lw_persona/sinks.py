"""Routing confirmed non-``memory`` entries to files (§6): append-only, idempotent, audited.

Only human actions call this module (``lw persona inbox confirm``). A ``kind`` without a
route is reported, never swallowed; existing target content is never rewritten.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lw_persona import config as cfgmod
from lwcore.api import js
from lw_persona.inbox import MEMORY_KIND, Entry, append_line, norm_kind, now_iso
from lw_persona.places import Places
from lwcore.api import LwError, iter_json_lines, read_bytes

FORMATS = ("md", "plain", "jsonl")
_PLACEHOLDER = re.compile(r"\{(text|date|kind|tag|source)\}")
DEFAULT_SOURCE = "lw persona"
MAX_LOG_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Route:
    kind: str
    path: Path
    raw_path: str
    format: str = "md"
    template: str = ""
    header: str = ""
    create_parents: bool = True


def routes(memory: Mapping[str, Any], places: Places | None = None) -> dict[str, Route]:
    """Normalised ``memory.sinks``: entries without a ``path`` and the ``memory`` kind are ignored."""
    out: dict[str, Route] = {}
    places = places or Places.resolve()
    raw = memory.get("sinks") if isinstance(memory, Mapping) else None
    if not isinstance(raw, dict):
        return out
    for key in js.object_keys(raw):
        kind = norm_kind(key)
        if not kind or kind == MEMORY_KIND:
            continue
        r = raw[key]
        if not isinstance(r, dict):
            continue
        p = js.trim(r["path"]) if isinstance(r.get("path"), str) else ""
        if not p:
            continue
        fmt = js.trim(js.to_string(r.get("format") or "")).lower() if js.truthy(r.get("format")) else ""
        out[kind] = Route(
            kind=kind,
            path=places.under(p),
            raw_path=p,
            format=fmt if fmt in FORMATS else "md",
            template=r["template"] if isinstance(r.get("template"), str) and r["template"] else "",
            header=r["header"] if isinstance(r.get("header"), str) else "",
            create_parents=r.get("createParents") is not False,
        )
    return out


def _day(at: str) -> str:
    if at:
        try:
            t = datetime.fromisoformat(at)
            if t.tzinfo is None:
                t = t.astimezone()
            return t.astimezone(timezone.utc).strftime("%Y-%m-%d")
        except ValueError:
            pass
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


def render_line(route: Route, entry: Entry, source: str = DEFAULT_SOURCE) -> str:
    """The line written for ``entry`` (no newline). Placeholders: {text} {date} {kind} {tag} {source}."""
    values = {
        "text": re.sub(r"[\r\n]+", " ", entry.text),
        "date": _day(entry.at),
        "kind": norm_kind(entry.kind) or MEMORY_KIND,
        "tag": entry.tag or "",
        "source": source,
    }
    if route.format == "jsonl":
        obj: dict[str, Any] = {"text": values["text"], "kind": values["kind"]}
        if values["tag"]:
            obj["tag"] = values["tag"]
        obj["at"] = entry.at or now_iso()
        obj["source"] = source
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    template = route.template or ("{text}" if route.format == "plain" else "- {text}（{date}）")
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def read_log(path: Path) -> list[dict[str, Any]]:
    """The sink log's records (bad lines skipped; ``[]`` when absent or unreadable)."""
    try:
        data = read_bytes(path, max_bytes=MAX_LOG_BYTES)
    except LwError:
        return []
    return [o for _, o in iter_json_lines(data.split(b"\n"), path) if isinstance(o, dict)]


def _key(kind: Any, line: Any, path: Any) -> tuple[str, str, str]:
    path_text = str(path) if isinstance(path, Path) else js.to_string(path, null="")
    return (norm_kind(kind), js.to_string(line, null=""), path_text.lower())


@dataclass(frozen=True, slots=True)
class SinkResult:
    """``status``: ``sunk`` | ``already-sunk`` | ``memory-kind`` | ``no-route`` | ``empty-text`` | ``error``."""

    status: str
    kind: str
    path: str = ""
    line: str = ""
    error: str = ""


def sink_entry(cfg: Mapping[str, Any], entry: Entry, *, places: Places | None = None,
               source: str = DEFAULT_SOURCE) -> SinkResult:
    """Append one confirmed entry to its route's file (once: the sink log is the idempotence record)."""
    kind = norm_kind(entry.kind) or MEMORY_KIND
    if kind == MEMORY_KIND:
        return SinkResult("memory-kind", kind)
    memory = memory_raw if isinstance(memory_raw := cfg.get("memory"), dict) else {}
    route = routes(memory, places).get(kind)
    if route is None:
        return SinkResult("no-route", kind)
    try:
        line = render_line(route, entry, source)
        if not js.trim(line):
            return SinkResult("empty-text", kind, str(route.path))
        log = cfgmod.sink_log_path(cfg, places)
        key = _key(kind, line, route.path)
        if any(_key(r.get("kind"), r.get("line"), r.get("path")) == key for r in read_log(log)):
            return SinkResult("already-sunk", kind, str(route.path), line)
        fresh = not route.path.exists()
        if not fresh and not route.path.is_file():
            return SinkResult("error", kind, str(route.path), error="not a regular file")
        if fresh and route.create_parents:
            route.path.parent.mkdir(parents=True, exist_ok=True)
        prefix = ""
        if fresh and route.header:
            prefix = re.sub(r"\r?\n?\Z", "\n", route.header, count=1)
        body = (prefix + line + "\n").encode("utf-8")
        fd = os.open(route.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, body)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            append_line(log, {"at": now_iso(), "kind": kind, "path": str(route.path), "format": route.format,
                              "line": line, "bytes": len(body), "source": source})
        except OSError:
            pass
        return SinkResult("sunk", kind, str(route.path), line)
    except OSError as exc:
        return SinkResult("error", kind, str(route.path), error=exc.strerror or str(exc))
