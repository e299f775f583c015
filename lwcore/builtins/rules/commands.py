"""``lw roll``, ``lw check`` and ``lw rulepack``: the rules engine from the command line.

Only click is imported at the top; the engine loads inside the commands, so ``lw --version``
and ``lw plugins list`` never pay for it. Every example in a command's help runs (a test
runs them all).
"""

from __future__ import annotations

from typing import Any

import click

from lwcore.cli.batch import batch_option
from lwcore.cli.common import echo_json, state
from lwcore.errors import LwError, LwErrors
from lwcore.rules import engine_for
from lwcore.rules.errors import RulesError
from lwcore.rules.render import roll_text


def _engine(ctx: click.Context) -> Any:
    return engine_for(state(ctx).kernel)


def _rng(seed: int | None) -> Any:
    import random

    return random.Random(seed)


def faces_of(items: tuple[str, ...]) -> list[int]:
    """``--dice 37 --dice 0`` or ``--dice "37 0"`` or ``--dice 37,0`` -> [37, 0]."""
    out = []
    for item in items:
        for part in item.replace(",", " ").split():
            try:
                out.append(int(part))
            except ValueError:
                raise LwError(f"--dice {part!r} is not a whole number", expected="faces like --dice 37,0") from None
    return out


@click.command(epilog="""\b
Examples:
  lw roll 4d6kh3
  lw roll 2d20kh1+3 --seed 7
  lw roll 3d6 --dice 1,2,3 --json""")
@click.argument("expr", nargs=-1, required=True)
@click.option("--seed", type=int, default=None, help="Seed the random generator (repeatable rolls).")
@click.option("--dice", "faces", multiple=True, help="Replay these faces instead of rolling (--dice 3,5 or repeat).")
@click.option("--json", "as_json", is_flag=True, help="Print the roll as JSON.")
def roll(expr: tuple[str, ...], seed: int | None, faces: tuple[str, ...], as_json: bool) -> None:
    """Roll a dice expression (4d6kh3, 2d20kh1+3, 10d10>=8, 3d6x5, 4dF …)."""
    from lwcore.rules.dice import compile_dice

    text = " ".join(expr)
    compiled = compile_dice(text)
    result = compiled.roll(_rng(seed), faces=faces_of(faces) if faces else None)
    if as_json:
        echo_json(result.to_json())
        return
    click.echo(str(result))
    if compiled.has_pool:
        click.echo(f"successes: {result.successes}  ones: {result.ones}")
    if result.capped:
        click.echo("(explosions capped)")


TARGET_WORDS = {"skill": "skill", "attribute": "attribute", "dc": "DC"}


def describe(pack: Any, result: Any, skill_name: str | None, locale: str, modifier: int = 0) -> str:
    """One line saying what each number of the check is: ``mysys Spot Hidden: skill 60→30
    [hard], roll 25 [25] → Hard Success (hard, margin 5)``."""
    model_res = pack.model.resolution
    what = TARGET_WORDS.get(str(model_res.target).strip(), "target") if model_res is not None else "target"
    head = pack.id + (f" {pack.display_name(skill_name, locale)}" if skill_name else "") + ":"
    parts = []
    if result.raw_target is not None:
        shown = f"{what} {result.raw_target}"
        if result.target != result.raw_target:
            shown += f"→{result.target}"
        parts.append(shown)
    if result.difficulty:
        parts.append(f"[{result.difficulty}]")
    if result.variant:
        parts.append(f"({result.variant})")
    for name, count in result.modifiers.items():
        parts.append(f"{name}×{count}")
    if result.params:
        parts.append(" ".join(f"{k}={v}" for k, v in result.params.items()))
    rolled = f"roll {roll_text(pack, result)}={result.roll}"
    if modifier:
        rolled += f"{modifier:+d}={result.roll + modifier}"
    dice = " ".join(map(str, result.dice))
    margin = f", margin {result.margin}" if result.margin is not None else ""
    return f"{head} {' '.join(parts)}{',' if parts else ''} {rolled} [{dice}] → {pack.label(result.rank, locale)} " \
           f"({result.rank}{margin})"


@click.command(epilog="""\b
Examples (SYSTEM is an installed system id: lw rulepack list):
  lw check SYSTEM --skill Spot=60 --difficulty hard --seed 1
  lw check SYSTEM --skill 60 --bonus 1 --dice 37,0
  lw check SYSTEM --skill 15 --modifier 3 --roll 12 --json
  lw check SYSTEM --param pool=5 --param difficulty=7 --seed 3
  echo '{"system": "SYSTEM", "skill": 50, "roll": 25}' | lw check --batch -

\b
The value is what the pack rolls against: a skill in a roll-under pack, the DC
in a pack whose resolution.target is dc (give the character's modifier with
--modifier); a dice-pool pack takes --param instead. --dice replays every face
in order: with --bonus 1 on a percentile pack, a tens digit follows the d100.""")
@click.argument("system", required=False)
@click.option("--skill", "skill", default=None, help="NAME=VALUE (or just VALUE): the value rolled against.")
@click.option("--difficulty", default=None, help="A difficulty the pack declares (e.g. hard).")
@click.option("--variant", default=None, help="A house-rule variant the pack declares.")
@click.option("--bonus", type=click.IntRange(0, 100), default=0, help="Bonus dice (the pack's 'bonus' modifier).")
@click.option("--penalty", type=click.IntRange(0, 100), default=0,
              help="Penalty dice (the pack's 'penalty' modifier).")
@click.option("--modifier", type=int, default=0, help="A number added to the dice (the pack's 'modifier'; its 'roll' includes it).")
@click.option("--param", "params", multiple=True, help="NAME=VALUE for a roll parameter (e.g. pool=5).")
@click.option("--dice", "faces", multiple=True, help="Replay these faces in order (--dice 37,0 or repeat).")
@click.option("--roll", "roll_value", type=int, default=None, help="Use this value for the roll's die (as rolled, before --modifier).")
@click.option("--seed", type=int, default=None, help="Seed the random generator.")
@click.option("--locale", default="en", help="Locale for labels and names (en, zh …).")
@batch_option()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def check(ctx: click.Context, system: str | None, skill: str | None, difficulty: str | None, variant: str | None,
          bonus: int, penalty: int, modifier: int, params: tuple[str, ...], faces: tuple[str, ...],
          roll_value: int | None, seed: int | None, locale: str, batch: str | None, as_json: bool) -> int:
    """Make a check against a rulepack (or --batch FILE|- of JSON lines)."""
    from lwcore.builtins.rules.check_requests import check_json, parse_skill
    from lwcore.errors import LwError

    if batch is not None:
        if system is not None:
            raise LwError("--batch reads the system from each line; leave SYSTEM out")
        from lwcore.builtins.rules.check_requests import BatchChecks
        from lwcore.cli.batch import exit_batch

        exit_batch(batch, BatchChecks(_engine(ctx), _rng(seed)))
    if system is None:
        raise LwError("missing SYSTEM", expected="lw check SYSTEM --skill NAME=VALUE, or lw check --batch FILE")
    if faces and roll_value is not None:
        raise LwError("give --dice or --roll, not both")
    pack = _engine(ctx).rule_system(system)
    skill_name, value = parse_skill(pack, skill) if skill is not None else (None, None)
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
        params=param_values or None, rng=_rng(seed), faces=faces_of(faces) if faces else None, roll=roll_value,
    )
    if as_json:
        echo_json(check_json(pack, result, skill_name, locale))
    else:
        click.echo(describe(pack, result, skill_name, locale, modifier))
    return 0


@click.group(epilog="""\b
Examples (examples/ is in the source checkout):
  lw rulepack list
  lw rulepack show SYSTEM --json
  lw rulepack validate --strict examples/blackmoor/rules/blackmoor.yaml
  lw rulepack test examples/blackmoor/rules/blackmoor.yaml""")
def rulepack() -> None:
    """Rulepacks: validate files, run their tests, list installed systems, show one merged."""


def _load_file(engine: Any, file: str) -> tuple[Any, list[str], list[str]]:
    """``(pack or None, error lines, warning lines)`` for one file, every problem on its own
    line (the warnings of a pack that does not load too)."""
    try:
        pack = engine.validate_file(file)
    except RulesError as exc:
        problems = exc.errors if isinstance(exc, LwErrors) else [exc]
        return None, [str(p) for p in problems], list(getattr(exc, "warnings", []))
    return pack, [], list(pack.warnings)


@rulepack.command("validate", epilog="""\b
Examples (examples/ is in the source checkout):
  lw rulepack validate examples/blackmoor/rules/blackmoor.yaml
  lw rulepack validate --strict --no-tests examples/blackmoor/rules/blackmoor.yaml""")
@click.argument("files", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Warnings (unknown keys, unused shapes) count as errors.")
@click.option("--no-tests", is_flag=True, help="Do not run the pack's own tests: table.")
@click.pass_context
def rulepack_validate(ctx: click.Context, files: tuple[str, ...], strict: bool, no_tests: bool) -> int:
    """Check rulepack files: every problem, located (the stem is the id; extends resolves
    against installed packs); the pack's tests: table runs too."""
    from lwcore.rules.pack_tests import run_pack_tests

    engine = _engine(ctx)
    bad = 0
    for file in files:
        pack, errors, warnings = _load_file(engine, file)
        for line in errors:
            click.echo(f"error: {line}")
        kind = "error" if strict else "warning"
        for warning in warnings:
            click.echo(f"{kind}: {warning}")
        if pack is None:
            bad += 1
            continue
        failed = [] if no_tests else [o for o in run_pack_tests(engine, pack) if not o.passed]
        for outcome in failed:
            click.echo(f"error: {outcome}")
        if failed or (strict and pack.warnings):
            bad += 1
            continue
        tests = "" if no_tests or not pack.model.tests else f", {len(pack.model.tests)} tests passed"
        click.echo(f"ok: {file} ({' -> '.join(pack.chain)}{tests})")
    return 1 if bad else 0


@rulepack.command("test", epilog="""\b
Examples (examples/ is in the source checkout):
  lw rulepack test examples/blackmoor/rules/blackmoor.yaml
  lw rulepack test SYSTEM --json""")
@click.argument("targets", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print every case's outcome as JSON.")
@click.pass_context
def rulepack_test(ctx: click.Context, targets: tuple[str, ...], as_json: bool) -> int:
    """Run the tests: table of rulepack files (or installed system ids)."""
    from pathlib import Path

    from lwcore.errors import LwError
    from lwcore.rules.pack_tests import run_pack_tests

    engine = _engine(ctx)
    report: list[dict[str, Any]] = []
    failed = 0
    for target in targets:
        if target.endswith((".yaml", ".yml")) or Path(target).exists():
            pack, errors, _warnings = _load_file(engine, target)
            if pack is None:
                raise LwError(errors[0] if len(errors) == 1 else "\n".join(errors))
        else:
            pack = engine.rule_system(target)
        outcomes = run_pack_tests(engine, pack)
        failed += sum(not o.passed for o in outcomes)
        if as_json:
            report += [o.to_json() | {"pack": pack.id} for o in outcomes]
            continue
        for outcome in outcomes:
            if not outcome.passed:
                click.echo(f"FAIL {outcome}")
        passed = sum(o.passed for o in outcomes)
        click.echo(f"{pack.id}: {passed} passed, {len(outcomes) - passed} failed" if outcomes
                   else f"{pack.id}: no tests (add a tests: table)")
    if as_json:
        echo_json(report)
    return 1 if failed else 0


@rulepack.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_context
def rulepack_list(ctx: click.Context, as_json: bool) -> None:
    """Every installed system id, where it comes from, and whether it loads."""
    from lwcore.rules.errors import RulesError

    engine = _engine(ctx)
    rows = []
    for system_id, source in sorted(engine.sources().items()):
        try:
            pack = engine.rule_system(system_id)
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
        return
    table = [("ID", "ORIGIN", "STATUS", "NAMES")] + [(r["id"], r["origin"], r["status"], ", ".join(r["names"]))
                                                     for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    for row, data in zip(table, [None, *rows], strict=True):
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3])
        if data is not None and data["error"]:
            click.echo(f"  {data['error']}")


@rulepack.command("show")
@click.argument("system")
@click.option("--json", "as_json", is_flag=True, help="JSON instead of YAML.")
@click.pass_context
def rulepack_show(ctx: click.Context, system: str, as_json: bool) -> None:
    """Print a pack as the engine sees it (extends merged)."""
    pack = _engine(ctx).rule_system(system)
    if as_json:
        echo_json({"id": pack.id, "origin": pack.origin, "chain": list(pack.chain), "pack": pack.data})
        return
    import yaml

    click.echo(f"# {pack.id} from {pack.origin}; chain: {' -> '.join(pack.chain)}")
    click.echo(yaml.safe_dump(pack.data, allow_unicode=True, sort_keys=False, width=100).rstrip())
