"""``lw plugins list``'s rows and text, without click: the click command
(``lwcore.builtins.host.plugins_cmd``) and the entry point's fast path (:func:`fast_list`)
print the same thing.

The fast path keeps click (and what click imports: ~20 ms) off the start-up of the command an
operator runs to see what is installed (``bench/boot.py``: <= 100 ms). It answers only the
exact forms ``lw plugins list [--json] [--all]``; anything else, and any failure before a line
is printed, goes to the click command, which reports it the usual way.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from lwcore.hookspecs import REGISTRIES
from lwcore.io.terminal import json_safe, terminal_safe
from lwcore.kernel import Kernel

FAST_OPTIONS = frozenset({"--json", "--all"})


def contributions(kernel: Kernel, plugin_id: str) -> dict[str, list[str]]:
    """Registry name -> the keys ``plugin_id`` won there."""
    out = {}
    for name in REGISTRIES:
        keys = kernel.registry(name).by_plugin(plugin_id)
        if keys:
            out[name] = sorted(keys)
    return out


def listing(kernel: Kernel, *, as_json: bool, show_all: bool) -> str:
    """What ``lw plugins list`` prints (every plugin imported and every registry built, so each
    status is the true one)."""
    kernel.load_all()
    rows: list[dict[str, Any]] = [r.to_json() for r in kernel.plugins]
    conflicts: list[str] = []
    if show_all:
        for row in rows:
            row["contributions"] = contributions(kernel, row["id"])
        conflicts = [str(c) for c in kernel.conflicts]
    if as_json:
        return json_safe(json.dumps({"plugins": rows, "conflicts": conflicts} if show_all else rows,
                                     ensure_ascii=False, indent=2, default=str))
    if not rows:
        return "no plugins found"
    width = max(len(r["id"]) for r in rows)
    lines = [f"{'ID':<{width}}  {'VERSION':<8} {'TIER':<11} {'STATUS':<8} FROM"]
    for row in rows:
        origin = row["distribution"] or row["source"]
        lines.append(f"{row['id']:<{width}}  {row['version'] or '?':<8} {row['tier'] or '?':<11} {row['status']:<8} {origin}")
        if row["reason"]:
            lines.append(f"{'':<{width}}  -> {row['reason']}")
        if show_all and row.get("contributions"):
            lines += [f"{'':<{width}}  {registry}: {', '.join(keys)}" for registry, keys in row["contributions"].items()]
    if show_all and conflicts:
        lines.append("conflicts:")
        lines += [f"  {line}" for line in conflicts]
    return "\n".join(lines)


def fast_list(args: list[str]) -> bool:
    """Answer ``lw plugins list [--json] [--all]`` without click; False (nothing printed) when
    ``args`` is another command line or the listing failed (the click command takes over)."""
    options = args[2:]
    if args[:2] != ["plugins", "list"] or not set(options) <= FAST_OPTIONS or len(set(options)) != len(options):
        return False
    try:
        text = listing(Kernel(), as_json="--json" in options, show_all="--all" in options)
    except Exception:  # noqa: BLE001 - the click command reports it, with its exit code
        return False
    try:
        sys.stdout.write(terminal_safe(text) + "\n")  # JSON is json_safe already: nothing left to replace
        sys.stdout.flush()
    except BrokenPipeError:
        sys.exit(130)
    return True
