"""``lw cmd SYSTEM "TEXT"``: run one of a rulepack's dot commands (``.ra 困难侦查+10 b2``).

Only click is imported here; the rules engine loads inside the command.
"""

from __future__ import annotations

import click

from lwcore.cli.common import echo_json, state


@click.command("cmd", epilog="""\b
Examples (SYSTEM is an installed system id; its pack declares the commands):
  lw cmd SYSTEM ".ra spot hidden 60" --dice 30
  lw cmd SYSTEM ".ra 困难侦查60+10 b1" --seed 7 --locale zh
  lw cmd SYSTEM ".ra spot hidden 60 b1" --dice 37,0
  lw cmd SYSTEM ".st str60 dex50 san55" --sheet sheet.yaml
  lw cmd SYSTEM ".chk stealth dc15 adv" --seed 4 --json

\b
--dice replays every face in order: a bonus die (b1) adds a tens digit after
the d100.""")
@click.argument("system")
@click.argument("text", nargs=-1, required=True)
@click.option("--sheet", "sheet_path", default=None,
              help="A sheet file (YAML, or .json) read first and written back when the command changes it; "
                   "created when missing.")
@click.option("--seed", type=int, default=None, help="Seed the random generator (repeatable results).")
@click.option("--dice", "faces", multiple=True, help="Replay these faces in order instead of rolling (--dice 37,0).")
@click.option("--locale", default="en", show_default=True, help="The viewer's locale for the text (en, zh …).")
@click.option("--advantage-rule", default=None, help="A house rule for netting advantage (e.g. netting).")
@click.option("--json", "as_json", is_flag=True, help="Print the structured result as JSON.")
@click.pass_context
def cmd(ctx: click.Context, system: str, text: tuple[str, ...], sheet_path: str | None, seed: int | None,
        faces: tuple[str, ...], locale: str, advantage_rule: str | None, as_json: bool) -> None:
    """Run a dot command of SYSTEM (the pack declares its commands: .ra, .st, .sc …)."""
    import random
    from pathlib import Path

    from lwcore.builtins.rules.commands import faces_of
    from lwcore.errors import LwError
    from lwcore.rules import engine_for
    from lwcore.rules.sheet import Sheet, read_sheet_file, save_sheet_file

    engine = engine_for(state(ctx).kernel)
    pack = engine.rule_system(system)
    sheet = None
    if sheet_path is not None:
        path = Path(sheet_path)
        if path.exists():
            data, positions = read_sheet_file(path)
            other = engine.find(data.system) or data.system
            if other != pack.id:
                raise LwError(f"the sheet is for {data.system!r}, not {pack.id!r}", file=str(path))
            sheet = Sheet.from_file(pack, data, file=path, positions=positions)
        else:
            sheet = Sheet(pack)
    line = " ".join(text)
    result = engine.command(pack.id, line, sheet=sheet, rng=random.Random(seed),
                            faces=faces_of(faces) if faces else None, locale=locale, advantage_rule=advantage_rule)
    if sheet is not None and sheet_path is not None and (result.sheet_changed or not Path(sheet_path).exists()):
        save_sheet_file(sheet_path, sheet)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(result.text)
