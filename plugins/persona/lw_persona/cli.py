"""``lw persona …``: render, selfcheck, conformance, presets, card import/export, inbox (human side).

Only click is imported at module level; everything else inside the commands.
"""

from __future__ import annotations

import json
from typing import Any

import click

from lw_persona import config as cfgmod, inbox as inboxmod
from lw_persona.config import read_config
from lw_persona.places import Places
from lw_persona.sinks import sink_entry
from lwcore.api import LwError, cli_state as state, echo_json

_config_opt = click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
                           help="config.json (default: $DSH_WHALE_CONFIG, then $DSH_HOME/whale-persona/config.json "
                                "when DSH_HOME is set, else <data dir>/plugins-data/persona/config.json).")
_inbox_opt = click.option("--inbox", "inbox_file", type=click.Path(dir_okay=False), default=None,
                          help="memory-inbox.jsonl (default: memory.inboxPath, then next to the config folder).")


def _dump(value: Any) -> None:
    echo_json(value)  # the kernel's: control characters escaped, never sent raw to a terminal


def _places() -> Any:
    """This plugin's :class:`~lw_persona.places.Places` for the running ``lw`` (its kernel's
    data dir and environment)."""
    kernel = state(click.get_current_context()).kernel
    return Places.for_context(kernel.context_for(kernel.plugin("persona")))


def _config_warnings(config: Any, *, named: bool = False) -> list[str]:
    """§2.6: a config that cannot be used is a warning, located, and the command goes on with
    the defaults (empty persona segments). A file named with ``--config`` that does not exist
    is said too (a typo would otherwise render nothing, silently)."""
    exc = cfgmod.problem(config)
    if exc is not None:
        return [f"{exc} (used as if there were no config: the defaults, empty persona segments)"]
    if named and not config.exists():
        return [f"{config}: no such file (used as if there were no config: the defaults, empty persona segments)"]
    return []


def _problems(config: Any, inbox: Any, *, named: bool) -> list[str]:
    """Located reasons why the config or the inbox cannot be used as they are (rendering goes
    on without them, as the format demands: §2.6 for the config, §5.1 for bad inbox lines)."""
    out = _config_warnings(config, named=named)
    view = inboxmod.read(inbox)
    if view.error is not None:
        out.append(f"{view.error} (rendered without the inbox)")
    return out + _skipped(inbox, view)


def _skipped(path: Any, view: Any) -> list[str]:
    """The bad lines of an inbox view, located (the first :data:`MAX_SHOWN`, then a count)."""
    shown = [f"{path}:{line}: {reason}; line skipped" for line, reason in view.skipped[:MAX_SHOWN]]
    more = len(view.skipped) - MAX_SHOWN
    return shown + ([f"{path}: {more} more bad line(s) skipped"] if more > 0 else [])


def _warn(problems: list[str]) -> None:
    """Print ``problems`` on stderr as warnings; they do not change the exit status (the
    command did its job around them)."""
    for problem in problems:
        click.echo(f"warning: {problem}", err=True)


def _report(problems: list[str]) -> None:
    """Print ``problems`` on stderr and exit 1 when there are any."""
    _warn(problems)
    if problems:
        raise SystemExit(1)


MAX_SHOWN = 20
"""Bad inbox lines listed one by one before the rest are counted."""


@click.group("persona")
def persona() -> None:
    """whale-persona v1: persona segments, presets, SillyTavern cards, memory inbox."""


@persona.command("render")
@_config_opt
@_inbox_opt
@click.option("--model", default=None, help="Model id (selects byModel entries and, without --tier, the tier).")
@click.option("--tier", type=click.Choice(["flash", "pro"]), default=None, help="Model tier (default: 'pro' iff the model id contains 'pro').")
@click.option("--cwd", default=None, help="Working folder ({{cwd}} in the suffix, tag relevance).")
@click.option("--capture/--no-capture", default=None, help="Session capture switch (default: memory.capture == 'always').")
@click.option("--user", default=None, help="The member acting this turn: fills {{user}} (default: persona.userName).")
@click.option("--json", "as_json", is_flag=True, help="Print the segments and the measurement as JSON.")
def render_cmd(config_file: str | None, inbox_file: str | None, model: str | None, tier: str | None,
               cwd: str | None, capture: bool | None, user: str | None, as_json: bool) -> None:
    """Render the three segments exactly as they would be injected.

    A config or inbox that cannot be used is rendered around, as a turn would (whale-persona
    §2.6: the worst outcome is no persona, never a failing host), and named on stderr as a
    warning; the exit status stays 0.
    """
    from lw_persona import config as cfgmod
    from lw_persona.checks import EMPTY_NOTE
    from lw_persona.render import SEGMENT_NAMES, render_segments

    places = _places()
    config = places.config_file(config_file)
    inbox = cfgmod.inbox_path(cfgmod.load(config), inbox_file, places)
    out = render_segments(config, inbox, model=model, tier=tier, cwd=cwd, capture=capture, places=places, user=user)
    problems = _problems(config, inbox, named=config_file is not None)
    if as_json:
        _dump(out)
        _warn(problems)
        return
    for name in SEGMENT_NAMES:
        click.echo(f"=== {name} ===")
        click.echo(out[name] if out[name] else EMPTY_NOTE)
    m = out["measure"]
    click.echo("=== measure ===")
    for part in m["parts"]:
        click.echo(f"{part['label']}\t{part['chars']}")
    b = m["budget"]
    click.echo(f"total\t{m['total']}" + (f" / budget {b['max']}" if b["enabled"] and b["max"] else "")
               + ("  OVER BUDGET (warning only, nothing trimmed)" if b["over"] else ""))
    _warn(problems)


@persona.command("selfcheck")
def selfcheck_cmd() -> None:
    """Prove that installed-but-not-configured changes nothing (§9)."""
    from lw_persona.checks import selfcheck

    ok, lines = selfcheck()
    for line in lines:
        click.echo(line)
    if not ok:
        raise SystemExit(1)


@persona.command("conformance")
@click.argument("folder", required=False, type=click.Path(file_okay=False, exists=True))
def conformance_cmd(folder: str | None) -> None:
    """Run the conformance vectors (the bundled ones, or FOLDER) and print pass/fail per case."""
    from pathlib import Path

    from lw_persona.checks import run_all

    results = run_all(Path(folder) if folder else None)
    for r in results:
        click.echo(f"{'PASS' if r.ok else 'FAIL'}  {r.name}" + (f"  — {r.description}" if r.description else ""))
        for failure in r.failures:
            click.echo(f"      {failure}")
    passed = sum(r.ok for r in results)
    click.echo(f"{passed}/{len(results)} passed")
    if passed != len(results) or not results:
        raise SystemExit(1)


# --- presets ------------------------------------------------------------------------------


@persona.group("preset")
def preset_group() -> None:
    """Preset cards (whale-persona-preset/1)."""


@preset_group.command("list")
@click.option("--json", "as_json", is_flag=True)
def preset_list(as_json: bool) -> None:
    """List the presets in the presets folder (unusable files are named on stderr, not hidden;
    the exit status is then 1)."""
    from lw_persona.presets import list_presets, presets_dir

    places = _places()
    items, skipped = list_presets(places)
    if as_json:
        _dump({"folder": str(presets_dir(places)), "presets": items, "skipped": skipped})
    else:
        if not items:
            click.echo(f"no presets in {presets_dir(places)}")
        for p in items:
            click.echo(f"{p['id']}\t{p['label']}\t{p['contracts']} contracts\t{p['description']}")
    _report([f"skipped {s['file']}: {s['reason']}" for s in skipped])


@preset_group.command("show")
@click.argument("preset_id")
def preset_show(preset_id: str) -> None:
    """Print a preset as JSON."""
    from lw_persona.presets import body_for_file, load

    _dump(body_for_file(load(preset_id, _places())))


@preset_group.command("apply")
@click.argument("preset_id")
@_config_opt
def preset_apply(preset_id: str, config_file: str | None) -> None:
    """Apply a preset: overwrite only the persona keys it carries (the current persona is autosaved)."""
    from lw_persona.presets import apply, load

    places = _places()
    result = apply(load(preset_id, places), places.config_file(config_file), places)
    click.echo(f"applied {preset_id} to {result['file']}")
    if result["autosave"]:
        click.echo(f"previous persona saved as preset 'autosave' ({result['autosave']})")


@preset_group.command("save")
@click.argument("preset_id")
@click.option("--label", default="", help="Human-readable name.")
@click.option("--description", default="")
@click.option("--author", default="")
@_config_opt
def preset_save(preset_id: str, label: str, description: str, author: str, config_file: str | None) -> None:
    """Save the current persona (never memory) as preset PRESET_ID."""
    from lwcore.api import LwError

    from lw_persona.config import read_config
    from lw_persona.presets import AUTOSAVE_ID, from_config, require_id, save

    pid = require_id(preset_id)
    if pid == AUTOSAVE_ID:
        raise LwError("'autosave' is reserved for the persona saved before an apply", expected="another id")
    places = _places()
    raw = read_config(places.config_file(config_file))
    written = save(from_config(raw, preset_id=pid, label=label, description=description, author=author), places)
    click.echo(f"saved {written}")


# --- cards --------------------------------------------------------------------------------


@persona.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite an existing preset with the same id.")
@click.option("--json", "as_json", is_flag=True, help="Print the preset and the report as JSON.")
def import_cmd(file: str, force: bool, as_json: bool) -> None:
    """Import a preset card or a SillyTavern card (V1/V2/V3 JSON, PNG or CHARX; read only) as a preset.

    The preset is saved to the presets folder, not applied.
    """
    from lwcore.api import CARD_LIMITS, LwError, read_bytes

    from lw_persona import importers
    from lw_persona.presets import AUTOSAVE_ID, file_for, save

    places = _places()
    data = read_bytes(file, max_bytes=CARD_LIMITS.max_file_bytes)
    if importers.sniff_preset(data, file) > 0:
        result = importers.load_preset(data, file)
    else:
        result = importers.load_card(data, file)
    preset = result.value
    if not preset.get("id") or preset["id"] == AUTOSAVE_ID:
        preset["id"] = "imported" if not preset.get("id") else "imported-autosave"
    target = file_for(preset["id"], places)
    if target.exists() and not force:
        raise LwError(f"preset {preset['id']!r} already exists", file=target, expected="--force to overwrite")
    written = save(preset, places)
    report = result.report
    if as_json:
        _dump({"preset": preset, "file": str(written), "carried": list(report.carried),
               "dropped": [{"field": d.field, "reason": d.reason} for d in report.dropped],
               "warnings": list(report.warnings)})
        return
    click.echo(f"imported as preset {preset['id']!r} → {written} (not applied: lw persona preset apply {preset['id']})")
    for item in report.carried:
        click.echo(f"  carried  {item}")
    for d in report.dropped:
        click.echo(f"  NOT carried  {d.field}: {d.reason}")
    for w in report.warnings:
        click.echo(f"  note  {w}")
    if not report.carried:
        click.echo("  nothing was carried from this card", err=True)


@persona.command("export")
@click.argument("preset_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write here instead of stdout.")
def export_cmd(preset_id: str, output: str | None) -> None:
    """Export a preset as a SillyTavern chara_card_v2 JSON card."""
    from pathlib import Path

    from lw_persona.config import write_text
    from lw_persona.presets import load
    from lw_persona.tavern import to_card

    text = json.dumps(to_card(load(preset_id, _places())), ensure_ascii=False, indent=2) + "\n"
    if output:
        write_text(Path(output), text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


# --- inbox (human side) -------------------------------------------------------------------


def _inbox(config_file: str | None, inbox_file: str | None, *, write: bool = False) -> tuple[Any, Any, Any, list[str]]:
    """``(config, inbox path, places, warnings)`` for the inbox commands. The config names the
    inbox (``memory.inboxPath``) and the sinks: a command that only shows the inbox goes on
    with the defaults and a warning when the config cannot be used (§2.6); one that writes
    (``write``) refuses it, located, and writes nothing -- it would act on a guessed inbox."""
    places = _places()
    config = places.config_file(config_file)
    if write:
        try:
            cfgmod.read_config(config)
        except LwError as exc:
            exc.message += "; it names the inbox and its sinks, so nothing was written (fix it first)"
            raise
        warnings = []
    else:
        warnings = _config_warnings(config, named=config_file is not None)
    cfg = cfgmod.load(config)
    return cfg, cfgmod.inbox_path(cfg, inbox_file, places), places, warnings


@persona.group("inbox")
def inbox_group() -> None:
    """The memory inbox: human actions (the model can only propose)."""


@inbox_group.command("status")
@_config_opt
@_inbox_opt
@click.option("--json", "as_json", is_flag=True)
def inbox_status(config_file: str | None, inbox_file: str | None, as_json: bool) -> None:
    """The replayed view with indexes; what is injected and what waits for you.

    Bad lines are skipped (the format's rule, §5.1) and a config that cannot be used is read
    as the defaults (§2.6); each is named on stderr as a warning, and the exit status stays 0.
    An inbox that cannot be read at all is an error.
    """
    from lw_persona import inbox as inboxmod

    cfg, path, _, warnings = _inbox(config_file, inbox_file)
    view = inboxmod.read(path)
    if view.error is not None:
        _warn(warnings)
        raise view.error
    injected = {id(e) for e in inboxmod.injectable(view.entries, require_confirm=cfg["memory"]["requireConfirm"])}
    if as_json:
        _dump({"file": str(path), "lines": view.lines, "bad": view.bad, "unknownOps": view.unknown_ops,
               "entries": [{"index": i, **e.to_json(), "injectable": id(e) in injected} for i, e in enumerate(view.entries)],
               "skipped": [{"line": n, "reason": r} for n, r in view.skipped]})
        _warn(warnings + _skipped(path, view))
        return
    click.echo(f"{path}: {len(view.entries)} entries ({view.bad} bad lines, {view.unknown_ops} unknown ops skipped)")
    for i, e in enumerate(view.entries):
        mark = "*" if id(e) in injected else " "
        extra = "".join(f" [{k}]" for k in (e.kind if e.kind != "memory" else "", e.tag) if k)
        click.echo(f"{mark}[{i}] {e.status:<9} {e.text}{extra}")
    _warn(warnings + _skipped(path, view))


def _human(op: str, index: int, config_file: str | None, inbox_file: str | None) -> None:
    cfg, path, places, _ = _inbox(config_file, inbox_file, write=True)
    entry, _line = getattr(inboxmod, op)(path, index)
    click.echo(f"{op}: [{index}] {entry.text}")
    if op == "confirm" and entry.kind != inboxmod.MEMORY_KIND:
        result = sink_entry(cfg, entry, places=places)
        if result.status == "sunk":
            inboxmod.append_line(path, {"op": "drop", "ref": entry.text, "at": inboxmod.now_iso()})
            click.echo(f"sunk to {result.path}: {result.line}")
        elif result.status == "already-sunk":
            click.echo(f"already written to {result.path} (sink log); not written again")
        elif result.status == "no-route":
            click.echo(f"warning: kind {entry.kind!r} has no route in memory.sinks; confirmed but written nowhere", err=True)
        else:
            click.echo(f"warning: sink failed ({result.status} {result.error})", err=True)


@inbox_group.command("confirm")
@click.argument("index", type=int)
@_config_opt
@_inbox_opt
def inbox_confirm(index: int, config_file: str | None, inbox_file: str | None) -> None:
    """Confirm entry INDEX (a non-memory kind is then appended to its sink)."""
    _human("confirm", index, config_file, inbox_file)


@inbox_group.command("reject")
@click.argument("index", type=int)
@_config_opt
@_inbox_opt
def inbox_reject(index: int, config_file: str | None, inbox_file: str | None) -> None:
    """Reject entry INDEX (it leaves the view; the line stays in the file)."""
    _human("reject", index, config_file, inbox_file)


@inbox_group.command("drop")
@click.argument("index", type=int)
@_config_opt
@_inbox_opt
def inbox_drop(index: int, config_file: str | None, inbox_file: str | None) -> None:
    """Drop entry INDEX from the view."""
    _human("drop", index, config_file, inbox_file)


@inbox_group.command("log")
@_config_opt
@_inbox_opt
def inbox_log(config_file: str | None, inbox_file: str | None) -> None:
    """Print the raw lines (the audit trail), numbered; a line that is not UTF-8 is shown as such."""
    from lwcore.api import LwError

    from lw_persona.inbox import read_bytes, split_lines

    _cfg, path, _, warnings = _inbox(config_file, inbox_file)
    _warn(warnings)
    try:
        lines = split_lines(read_bytes(path))
    except LwError as exc:
        if exc.code != "not_found":
            raise
        lines = []
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        click.echo(f"{n}\t{line}" if line is not None else f"{n}\t(not valid UTF-8)")


# --- reflex -------------------------------------------------------------------------------


@persona.command("reflex")
@click.argument("text")
@click.option("--model", default=None)
@click.option("--tier", type=click.Choice(["flash", "pro"]), default=None)
def reflex_cmd(text: str, model: str | None, tier: str | None) -> None:
    """Test the reflex rules against TEXT (nothing is recorded)."""
    from lw_persona.reflex import directive, evaluate, load_rules
    from lw_persona.render import tier_of

    rules = load_rules(_places())
    hit = evaluate(rules, text, tier_of(model, tier))
    click.echo(f"rules: {len(rules.rules)} from {rules.file} (enabled={rules.enabled}, dryRun={rules.dry_run})")
    if rules.error:
        click.echo(f"error: {rules.error} (no rules used)", err=True)
        raise SystemExit(1)
    if hit is None:
        click.echo("no rule fires")
    else:
        click.echo(f"fires: {hit.rule['id']} via {hit.why}{' (soft)' if hit.soft else ''}")
        click.echo(directive(hit))
