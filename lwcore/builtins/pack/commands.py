"""``lw pack``: build, verify, install, list and remove ``.lwpack`` packs (``lwcore.pack`` does
the work; this module only talks to the terminal)."""

from __future__ import annotations

import sys
from typing import Any

import click

from lwcore.cli.common import echo_json, state
from lwcore.pack.card import pick_locale

json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
locale_option = click.option("--locale", default=None,
                             help="Language of the trust card and refusals (default: LW_LOCALE, then LANG).")


def _locale(ctx: click.Context, explicit: str | None) -> str:
    return pick_locale(explicit, state(ctx).kernel.env)


BUILT = "dist/blackmoor-1.0.0.lwpack"
"""What the examples' first line (``lw pack build examples/blackmoor -o dist``) writes."""


@click.group("pack", epilog=f"""\b
Examples (examples/ is in the source checkout; the first line makes dist/):
  lw pack build examples/blackmoor -o dist
  lw pack verify {BUILT}
  lw pack install {BUILT} --yes
  lw pack list
  lw rulepack show blackmoor
  lw pack remove blackmoor""")
def pack() -> None:
    """Content packs (.lwpack): one archive carries a whole work.

    \b
    lw pack build SRC [-o DIR]      check every file with its real parser, write <id>-<version>.lwpack
    lw pack verify FILE             every install check, nothing written
    lw pack install REF [--yes]     REF: a path, an https:// link, or gh:owner/repo[@tag]
    lw pack list                    installed packs (the active version of each is marked *)
    lw pack remove ID[@VERSION]     remove a pack (every version, or one)
    """


@pack.command("build", epilog="""\b
Examples:
  lw pack build examples/blackmoor -o dist
  lw pack build examples/blackmoor -o dist --json""")
@click.argument("source", type=click.Path(file_okay=False, path_type=str))
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Folder to write the pack to (default: the current folder).")
@locale_option
@json_option
@click.pass_context
def build_cmd(ctx: click.Context, source: str, out_dir: str | None, locale: str | None, as_json: bool) -> None:
    """Check SOURCE (a folder with pack.yaml) and write its .lwpack."""
    from lwcore.pack.build import build_pack

    built = build_pack(state(ctx).kernel, source, out_dir, locale=_locale(ctx, locale))
    if as_json:
        echo_json({"path": str(built.path), "sha256": built.sha256, "id": built.manifest.id,
                   "version": built.manifest.version, "trust": built.manifest.trust.model_dump(),
                   "warnings": list(built.warnings)})
        return
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"wrote {built.path}")
    click.echo(f"sha256 {built.sha256}")


@pack.command("verify", epilog=f"""\b
Examples:
  lw pack build examples/blackmoor -o dist
  lw pack verify {BUILT}""")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@locale_option
@json_option
@click.pass_context
def verify_cmd(ctx: click.Context, file: str, locale: str | None, as_json: bool) -> None:
    """Run every check an install makes on FILE; write nothing."""
    from lwcore.pack.card import trust_card
    from lwcore.pack.verify import verify_pack

    loc = _locale(ctx, locale)
    with verify_pack(state(ctx).kernel, file, locale=loc) as verified:
        if as_json:
            echo_json({"ok": True, "id": verified.manifest.id, "version": verified.manifest.version,
                       "sha256": verified.sha256, "trust": verified.manifest.trust.model_dump(),
                       "trust_card": trust_card(verified.manifest, loc)})
            return
        for line in trust_card(verified.manifest, loc):
            click.echo(line)
        click.echo(f"ok: every check passed (sha256 {verified.sha256})")


@pack.command("install", epilog=f"""\b
Examples:
  lw pack build examples/blackmoor -o dist
  lw pack install {BUILT} --yes
  lw pack install {BUILT} --yes --locale zh --json""")
@click.argument("ref")
@click.option("--yes", is_flag=True, help="Install without asking (read the trust card first).")
@locale_option
@json_option
@click.pass_context
def install_cmd(ctx: click.Context, ref: str, yes: bool, locale: str | None, as_json: bool) -> None:
    """Install REF: a .lwpack path, an https:// link, or gh:owner/repo[@tag].

    The trust card is shown first; the install asks before it writes anything (--yes skips the
    question; without a terminal, --yes is required). Installed is not enabled: rooms opt in.
    """
    from lwcore.errors import LwError
    from lwcore.pack.card import message, trust_card
    from lwcore.pack.install import install_pack

    loc = _locale(ctx, locale)

    def confirm(verified: Any) -> bool:
        for line in trust_card(verified.manifest, loc):
            click.echo(line, err=True)
        if yes:
            return True
        if not sys.stdin.isatty():
            raise LwError(message("not_interactive", loc), code="refused")
        return click.confirm(message("confirm", loc), default=False, err=True)

    report = install_pack(state(ctx).kernel, ref, locale=loc, confirm=confirm)
    if report is None:
        raise LwError(message("declined", loc), code="declined")
    if as_json:
        echo_json(report.to_json())
        return
    click.echo(message("installed", loc, key=report.manifest.key, home=report.home))
    if report.landed:
        click.echo(message("landed", loc, targets=", ".join(report.landed)))
    for target in report.removed:
        click.echo(f"removed {target} (the earlier version's)")
    for target in report.kept:
        click.echo(f"kept {target} (already there, same bytes)")


@pack.command("list")
@json_option
@click.pass_context
def list_cmd(ctx: click.Context, as_json: bool) -> None:
    """Installed packs; * marks the active version of each."""
    from lwcore.pack.install import installed_packs

    packs = installed_packs(state(ctx).kernel)
    if as_json:
        echo_json([p.to_json() for p in packs])
        return
    if not packs:
        click.echo("no packs installed")
    for p in packs:
        mark = "*" if p.active else " "
        if p.manifest is None:
            click.echo(f"{mark} {p.id}@{p.version}  (damaged: {p.problem})")
            continue
        counts = ", ".join(f"{n} {k}" for k, n in p.manifest.trust.counts.items()) or "empty"
        click.echo(f"{mark} {p.id}@{p.version}  {p.manifest.title('en')}  ({counts})")


@pack.command("remove")
@click.argument("ref")
@json_option
@click.pass_context
def remove_cmd(ctx: click.Context, ref: str, as_json: bool) -> None:
    """Remove pack ID (every version) or ID@VERSION."""
    from lwcore.pack.install import remove_pack

    removed = remove_pack(state(ctx).kernel, ref)
    if as_json:
        echo_json({"removed": removed})
        return
    for target in removed:
        click.echo(f"removed {target}")
