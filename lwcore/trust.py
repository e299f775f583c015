"""Facts about a plugin's content that its manifest cannot state, for its trust card.

- ``has_rules_script``: a rulepack the plugin provides decides outcomes through a JS script
  (the rulepack script channel: ``resolution: {script: …}``, ``subsystems: {name: {script: …}}``).
  The script runs in the sandbox and the engine still rolls and clamps, but it decides who
  succeeds: an operator should know before trusting a pack.

- ``provider_presets``: for each provider preset the plugin offers, where using it sends the
  operator's key ("house: it sends your key in $MODEL_KEY to host models.example.net").

Read from the plugin's ``rulepacks/`` and ``provider_presets/`` folders (no code runs) and, for an enabled code plugin,
from the rulepacks its ``lw_rulepacks`` hook registered. Files are read with ``lwcore.io``; a
file that does not read is listed, never fatal.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore import profiles
from lwcore.errors import LwError
from lwcore.io.safe_yaml import read_yaml

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.plugins import PluginRecord


def rule_scripts(data: Mapping[str, Any]) -> list[tuple[tuple[str, ...], Any]]:
    """``(where, script)`` for every ``script:`` a rulepack's data declares, as written:
    ``where`` is ``("resolution", "script")`` or ``("subsystems", <name>, "script")``."""
    out: list[tuple[tuple[str, ...], Any]] = []
    res = data.get("resolution")
    if isinstance(res, Mapping) and res.get("script") is not None:
        out.append((("resolution", "script"), res["script"]))
    subs = data.get("subsystems")
    if isinstance(subs, Mapping):
        for name, sub in subs.items():
            if isinstance(sub, Mapping) and sub.get("script") is not None:
                out.append((("subsystems", str(name), "script"), sub["script"]))
    return out


def content_facts(kernel: Kernel, record: PluginRecord) -> dict[str, Any]:
    """``{has_rules_script, rules_scripts: ["<system>: <where> -> <script>"], unreadable: [...]}``
    for one plugin (empty lists when it provides no rulepacks)."""
    sources: dict[str, tuple[Path | None, Mapping[str, Any] | None]] = {}
    if record.location is not None and record.provides("rulepacks") and (record.location / "rulepacks").is_dir():
        for path in sorted((record.location / "rulepacks").glob("*.yaml")):
            sources[str(path)] = (path, None)
    if record.usable and record.provides("rulepacks"):
        for entry in kernel.rulepacks.entries():
            if entry.plugin_id == record.id:
                src = entry.value
                sources.setdefault(str(src.path) if src.path else f"<{entry.key}>",
                                   (Path(src.path) if src.path else None, src.data))
    scripts: list[str] = []
    unreadable: list[str] = []
    for label, (file, data) in sources.items():
        if data is None and file is not None:
            try:
                data = read_yaml(file)
            except LwError as exc:
                unreadable.append(str(exc))
                continue
        if not isinstance(data, Mapping):
            continue
        system = file.stem if file is not None else label.strip("<>")
        scripts += [f"{system}: {'.'.join(where[:-1])} -> {script}" for where, script in rule_scripts(data)]
    return {"has_rules_script": bool(scripts), "rules_scripts": scripts,
            "provider_presets": _presets(kernel, record, unreadable), "unreadable": unreadable}


def _presets(kernel: Kernel, record: PluginRecord, unreadable: list[str]) -> list[str]:
    """``"<name>: it sends your key in $VAR to host H"`` for each provider preset ``record`` offers
    (its folder's files, and what an enabled plugin registered); unreadable ones go to ``unreadable``."""
    if not record.provides("provider_presets"):
        return []
    files: dict[str, Path] = {}
    if record.location is not None and (record.location / "provider_presets").is_dir():
        files = {p.stem: p for p in sorted((record.location / "provider_presets").glob("*.yaml"))}
    if record.usable:
        for entry in kernel.provider_presets.entries():
            if entry.plugin_id == record.id:
                files.setdefault(entry.key, Path(entry.value.path))
    out: list[str] = []
    for name, path in sorted(files.items()):
        try:
            out.append(f"{name}: {profiles.sends(profiles.read(path, name))}")
        except LwError as exc:
            unreadable.append(str(exc))
    return out
