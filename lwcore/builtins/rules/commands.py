"""``lw roll``, ``lw check`` and ``lw rulepack``: the rules engine from the command line.

Only click is imported here; the engine loads inside the commands, so ``lw --version`` and
``lw plugins list`` never pay for it.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from lwcore.cli.common import echo_json, state


def _engine(ctx: click.Context) -> Any:
    from lwcore.rules import engine_for

    return engine_for(state(ctx).kernel)


def _rng(seed: int | None) -> Any:
    import random

    return random.Random(seed)


@click.command()
@click.argument("expr", nargs=-1, required=True)
@click.option("--seed", type=int, default=None, help="Seed the random generator (repeatable rolls).")
@click.option("--dice", "faces", multiple=True, help="Replay these faces instead of rolling (--dice 3,5 or repeat).")
@click.option("--json", "as_json", is_flag=True, help="Print the roll as JSON.")
def roll(expr: tuple[str, ...], seed: int | None, faces: tuple[str, ...], as_json: bool) -> None:
    """Roll a dice expression (4d6kh3, 2d20kh1+3, 10d10>=8, 3d6x5, 4dF …)."""
    from lwcore.rules.dice import compile_dice

    text = " ".join(expr)
    compiled = compile_dice(text)
    result = compiled.roll(_rng(seed), faces=_faces(faces) if faces else None)
    if as_json:
        echo_json(result.to_json())
        return
    click.echo(str(result))
    if compiled.has_pool:
        click.echo(f"successes: {result.successes}  ones: {result.ones}")
    if result.capped:
        click.echo("(explosions capped)")


def _faces(items: tuple[str, ...]) -> list[int]:
    """``--dice 37 --dice 0`` or ``--dice "37 0"`` or ``--dice 37,0`` -> [37, 0]."""
    from lwcore.errors import LwError

    out = []
    for item in items:
        for part in item.replace(",", " ").split():
            try:
                out.append(int(part))
            except ValueError:
                raise LwError(f"--dice {part!r} is not a whole number", expected="faces like --dice 37,0") from None
    return out


def _parse_skill(pack: Any, text: str | None) -> tuple[str | None, int | None]:
    from lwcore.errors import LwError

    if text is None:
        return None, None
    name, sep, value = text.rpartition("=")
    if not sep:
        name, value = "", text
    try:
        number = int(value)
    except ValueError:
        if not sep and pack is not None:
            raise LwError(f"--skill {text!r}: give NAME=VALUE or a number", expected="e.g. Climb=60 or 60") from None
        raise LwError(f"--skill {text!r}: {value!r} is not a whole number", expected="NAME=VALUE, e.g. Climb=60") from None
    canonical = (pack.canonical(name) or name) if name and pack is not None else (name or None)
    return canonical, number


def _describe(pack: Any, result: Any, skill_name: str | None, locale: str) -> str:
    label = pack.label(result.rank, locale)
    name = pack.display_name(skill_name, locale) if skill_name else None
    parts = [f"{pack.id}"]
    if name:
        parts.append(f"{name}")
    if result.raw_target is not None:
        shown = f"{result.raw_target}"
        if result.target != result.raw_target:
            shown += f"→{result.target}"
        parts.append(shown)
    if result.difficulty:
        parts.append(f"[{result.difficulty}]")
    if result.variant:
        parts.append(f"({result.variant})")
    head = " ".join(parts)
    dice = " ".join(map(str, result.dice))
    margin = f", margin {result.margin}" if result.margin is not None else ""
    return f"{head}: {result.roll} [{dice}] → {label} ({result.rank}{margin})"


def _one_check(engine: Any, request: dict[str, Any], rng: Any) -> dict[str, Any]:
    from lwcore.errors import LwError

    request = dict(request)
    system = request.pop("system", None)
    if not isinstance(system, str) or not system:
        raise LwError("each line needs \"system\"", expected='{"system": "<id>", ...}')
    pack = engine.pack(system)
    skill = request.pop("skill", None)
    skill_name = None
    if isinstance(skill, str):
        skill_name, skill = _parse_skill(pack, skill)
    if "target" in request:
        if skill is not None:
            raise LwError("give skill or target, not both")
        skill = request.pop("target")
    if "name" in request:
        given = str(request.pop("name"))
        skill_name = pack.canonical(given) or given
    faces = request.pop("dice", None)
    allowed = {"difficulty", "variant", "bonus", "penalty", "modifiers", "modifier", "params", "roll", "seed", "locale"}
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise LwError(f"unknown field {unknown[0]!r}", expected="one of: system, skill, target, name, dice, " + ", ".join(sorted(allowed)))
    seed = request.pop("seed", None)
    locale = request.pop("locale", "en")
    result = pack.check(
        skill,
        difficulty=request.get("difficulty"),
        variant=request.get("variant"),
        bonus=int(request.get("bonus") or 0),
        penalty=int(request.get("penalty") or 0),
        modifiers=request.get("modifiers"),
        modifier=int(request.get("modifier") or 0),
        params=request.get("params"),
        rng=_rng(seed) if seed is not None else rng,
        faces=faces,
        roll=request.get("roll"),
    )
    return _check_json(pack, result, skill_name, locale)


def _check_json(pack: Any, result: Any, skill_name: str | None, locale: str) -> dict[str, Any]:
    """A check result as JSON, with the rank's label (and the skill's names) in ``locale``."""
    out = result.to_json()
    out["label"] = pack.label(result.rank, locale)
    if skill_name:
        out["skill"] = skill_name
        out["skill_display"] = pack.display_name(skill_name, locale)
    return out


def _batch(ctx: click.Context, source: str, seed: int | None) -> int:
    import json

    from lwcore.errors import LwError

    engine = _engine(ctx)
    rng = _rng(seed)
    if source == "-":
        stream = sys.stdin
        lines = stream
    else:
        try:
            lines = open(source, encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise LwError(f"cannot read: {exc.strerror or exc}", file=source) from None
    failed = 0
    try:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise LwError("a line must be a JSON object", file=source, line=number)
                out = _one_check(engine, request, rng)
            except json.JSONDecodeError as exc:
                failed += 1
                out = {"error": LwError(f"invalid JSON: {exc.msg}", file=source, line=number, column=exc.colno).to_json()}
            except LwError as exc:
                failed += 1
                err = exc.to_json()
                err["line"] = err["line"] or number
                err["file"] = err["file"] or source
                out = {"error": err}
            click.echo(json.dumps(out, ensure_ascii=False))
    finally:
        if source != "-":
            lines.close()  # type: ignore[union-attr]
    return 1 if failed else 0


@click.command()
@click.argument("system", required=False)
@click.option("--skill", "skill", default=None, help="NAME=VALUE (or just VALUE): the value rolled against.")
@click.option("--difficulty", default=None, help="A difficulty the pack declares (e.g. hard).")
@click.option("--variant", default=None, help="A house-rule variant the pack declares.")
@click.option("--bonus", type=int, default=0, help="Bonus dice (the pack's 'bonus' modifier).")
@click.option("--penalty", type=int, default=0, help="Penalty dice (the pack's 'penalty' modifier).")
@click.option("--modifier", type=int, default=0, help="A numeric modifier the pack's expressions may use.")
@click.option("--param", "params", multiple=True, help="NAME=VALUE for a roll parameter (e.g. pool=5).")
@click.option("--dice", "faces", multiple=True, help="Replay these dice faces: --dice 37,0 (or repeat the option).")
@click.option("--roll", "roll_value", type=int, default=None, help="Use this value for the roll's die.")
@click.option("--seed", type=int, default=None, help="Seed the random generator.")
@click.option("--locale", default="en", help="Locale for labels and names (en, zh …).")
@click.option("--batch", "batch", default=None, metavar="FILE|-", help="JSON lines in, one JSON result per line out.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def check(ctx: click.Context, system: str | None, skill: str | None, difficulty: str | None, variant: str | None,
          bonus: int, penalty: int, modifier: int, params: tuple[str, ...], faces: tuple[str, ...],
          roll_value: int | None, seed: int | None, locale: str, batch: str | None, as_json: bool) -> int:
    """Make a check against a rulepack (or --batch FILE|- of JSON lines)."""
    from lwcore.errors import LwError

    if batch is not None:
        if system is not None:
            raise LwError("--batch reads the system from each line; leave SYSTEM out")
        return _batch(ctx, batch, seed)
    if system is None:
        raise LwError("missing SYSTEM", expected="lw check SYSTEM --skill NAME=VALUE, or lw check --batch FILE")
    if faces and roll_value is not None:
        raise LwError("give --dice or --roll, not both")
    engine = _engine(ctx)
    pack = engine.pack(system)
    skill_name, value = _parse_skill(pack, skill)
    param_values: dict[str, int] = {}
    for item in params:
        name, sep, number = item.partition("=")
        if not sep:
            raise LwError(f"--param {item!r}", expected="NAME=VALUE")
        try:
            param_values[name] = int(number)
        except ValueError:
            raise LwError(f"--param {item!r}: {number!r} is not a whole number") from None
    result = pack.check(
        value, difficulty=difficulty, variant=variant, bonus=bonus, penalty=penalty, modifier=modifier,
        params=param_values or None, rng=_rng(seed), faces=_faces(faces) if faces else None, roll=roll_value,
    )
    if as_json:
        echo_json(_check_json(pack, result, skill_name, locale))
    else:
        click.echo(_describe(pack, result, skill_name, locale))
    return 0


@click.group()
def rulepack() -> None:
    """Rulepacks: validate files, list installed systems, show one merged."""


@rulepack.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@click.pass_context
def rulepack_validate(ctx: click.Context, files: tuple[str, ...]) -> int:
    """Check rulepack files (the stem is the id; extends resolves against installed packs)."""
    from lwcore.rules.errors import RulesError

    engine = _engine(ctx)
    bad = 0
    for file in files:
        try:
            pack = engine.validate_file(file)
        except RulesError as exc:
            bad += 1
            click.echo(f"error: {exc}")
            continue
        for warning in pack.warnings:
            click.echo(f"warning: {warning}")
        chain = " -> ".join(pack.chain)
        click.echo(f"ok: {file} ({chain})")
    return 1 if bad else 0


@rulepack.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def rulepack_list(ctx: click.Context, as_json: bool) -> None:
    """Every installed system id, where it comes from, and whether it loads."""
    from lwcore.rules.errors import RulesError

    engine = _engine(ctx)
    rows = []
    for system_id, source in sorted(engine.sources().items()):
        try:
            pack = engine.pack(system_id)
            status, names, error = "ok", list(pack.names), None
        except RulesError as exc:
            status, names, error = "error", [system_id], str(exc)
        rows.append({"id": system_id, "origin": source.origin, "source": source.label, "status": status,
                     "names": names, "error": error})
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no rulepacks installed")
    for row in rows:
        line = f"{row['id']}\t{row['origin']}\t{row['status']}\t{', '.join(row['names'])}"
        click.echo(line)
        if row["error"]:
            click.echo(f"  {row['error']}")


@rulepack.command("show")
@click.argument("system")
@click.option("--json", "as_json", is_flag=True, help="JSON instead of YAML.")
@click.pass_context
def rulepack_show(ctx: click.Context, system: str, as_json: bool) -> None:
    """Print a pack as the engine sees it (extends merged)."""
    engine = _engine(ctx)
    pack = engine.pack(system)
    if as_json:
        echo_json({"id": pack.id, "origin": pack.origin, "chain": list(pack.chain), "pack": pack.data})
        return
    import yaml

    click.echo(f"# {pack.id} from {pack.origin}; chain: {' -> '.join(pack.chain)}")
    click.echo(yaml.safe_dump(pack.data, allow_unicode=True, sort_keys=False, width=100).rstrip())
