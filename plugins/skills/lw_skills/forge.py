"""The forge (B.3): tools with which the keeper's model writes new content -- a skill, a rule
system, a module -- checked by the engine's own readers before one byte is written.

The three tools are **gated** (the room does not offer them until the matching forge skill
is enabled: ``skill-forge``, ``rule-forge``, ``module-forge``, whose ``allowed-tools`` name
them) and **keeper only** (a player's turn never installs content). The model is the author:
it passes the content whole; the tool validates and writes it, or answers with the located
problem so the model can correct it and call again. Nothing is written when a check fails.

- ``generate_skill(id, skill_md, references?, replace?)`` -> ``<data dir>/skills/<id>/``:
  ``SKILL.md`` read by :func:`lw_skills.skillfile.parse_skill_text` (the reader discovery
  uses), plus ``references/<name>`` files. The id must not be a plugin's skill (those always
  win). No ``hooks.js``: generated skills are prompt, tools and data only.
- ``generate_rulepack(id, rulepack, replace?)`` -> ``<data dir>/rulepacks/<id>.yaml``: loaded
  by the rules engine as if installed (:meth:`lwcore.rules.engine.RulesEngine.validate_file`:
  the whole pack -- ``extends``, ``resolution``, ``subsystems``, ``commands``, ``expertise``,
  every expression checked); it must resolve checks (a ``resolution``, its own or inherited).
- ``generate_module(id, title, premise, notes, setup?, systems?, version?, replace?)`` ->
  ``<data dir>/packs/<id>@<version>/``: a **module** is a scenario to run in a room, shipped
  the way an installed pack ships one: ``module.md`` (frontmatter ``id``, ``title``,
  ``premise`` -- the player-facing hook -- and ``systems``; the body is the keeper's notes:
  the truth, the people, the scenes) and, when given, ``prep/setup.js``: the module's setup as
  a prep script (variables to declare, threads to open, notes to keep). The setup is planned
  in the sandbox and every operation checked against *this* room in its prep phase (the
  reachable tools, their argument models) before anything is written; the keeper then
  previews and applies it with ``run_prep_plan(script_ref="<id>/prep/setup.js")``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lwcore.api import LwError, LwErrors, dump_yaml, encode_utf8
from lwcore.api import MODULE_FILE, SETUP_FILE, ModuleFrontmatter, read_module_text  # noqa: F401 - one reader
from lwcore.api import ToolContext, ToolError
from lw_skills.catalog import REFERENCES, SKILL_FILE, catalog_for, load_folder
from lw_skills.skillfile import ID_PATTERN, MAX_ID, MAX_SKILL_BYTES, parse_skill_text

REFERENCE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}\.(md|txt|yaml|yml|json|csv)$")
MAX_REFERENCE_CHARS = 64 * 1024
MAX_REFERENCES = 16
MAX_RULEPACK_CHARS = 256 * 1024
RULEPACK_ID = r"^[a-z][a-z0-9_-]{0,47}$"
MODULE_ID = r"^[a-z0-9][a-z0-9-]{0,63}$"
VERSION = r"^[0-9]+(\.[0-9]+){0,3}(-[0-9A-Za-z.]+)?$"


def _problem(exc: LwError) -> ToolError:
    """A located error as the model reads it (every problem when there are several)."""
    return ToolError(str(exc))


def install_folder(files: dict[str, str], target: Path, *, replace: bool) -> None:
    """Write ``files`` (relative path -> text) as the folder ``target``, all or nothing: they
    are written into a hidden sibling first, then renamed into place (an existing folder is
    swapped out only with ``replace``)."""
    encoded = {rel: encode_utf8(text, file=target / rel) for rel, text in files.items()}
    if target.exists() and not replace:
        raise LwError(f"{target.name} already exists", file=target, expected="replace: true to overwrite it",
                      code="exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".forge-{target.name}-", dir=target.parent))
    try:
        for rel, data in encoded.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        old = None
        if target.exists():
            old = target.parent / f".old-{target.name}-{os.getpid()}"
            os.replace(target, old)
        os.replace(staging, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


# --- generate_skill -----------------------------------------------------------------------


class GenerateSkillArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN, max_length=MAX_ID,
                    description="the new skill's id (its folder): lowercase letters, digits, single hyphens")
    skill_md: str = Field(min_length=1, max_length=MAX_SKILL_BYTES,
                          description="the whole SKILL.md: '---', YAML frontmatter (name, description, allowed-tools, "
                          "metadata), '---', then the Markdown instructions for the keeper")
    references: dict[str, str] = Field(default_factory=dict, max_length=MAX_REFERENCES,
                                       description="optional references/<name> files read on demand (name -> text)")
    replace: bool = Field(default=False, description="overwrite a user skill of this id")


def generate_skill(args: GenerateSkillArgs, ctx: ToolContext) -> dict[str, Any]:
    catalog = catalog_for(ctx.kernel)
    shown = f"<generated>/{args.id}/{SKILL_FILE}"
    try:
        skill = parse_skill_text(args.id, args.skill_md, file=shown)
    except LwError as exc:
        raise _problem(exc) from None
    if args.id in catalog.plugin_ids():
        raise ToolError(f"skill id {args.id!r} belongs to an installed plugin; choose another id")
    bad = [n for n in args.references if not REFERENCE_NAME.match(n)]
    if bad:
        raise ToolError(f"reference name {bad[0]!r} is not a file name like tables.md (letters, digits, . _ -; "
                        ".md .txt .yaml .yml .json .csv)")
    big = [n for n, text in args.references.items() if len(text) > MAX_REFERENCE_CHARS]
    if big:
        raise ToolError(f"reference {big[0]!r} is longer than {MAX_REFERENCE_CHARS} characters")
    files = {SKILL_FILE: args.skill_md, **{f"{REFERENCES}/{n}": t for n, t in args.references.items()}}
    target = catalog.user_dir / args.id
    try:
        install_folder(files, target, replace=args.replace)
        load_folder(target, "user")  # what discovery will read, read once more
    except LwError as exc:
        raise _problem(exc) from None
    missing = catalog.missing_tools(skill)
    ctx.events.append({"kind": "forge", "audience": "keeper", "summary": f"skill {args.id} written to {target}"})
    return {"ok": True, "skill": args.id, "name": skill.name, "folder": str(target),
            "references": sorted(args.references), "missing_tools": missing,
            "next": f"the keeper enables it with .skill enable {args.id}"}


# --- generate_rulepack --------------------------------------------------------------------


class GenerateRulepackArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=RULEPACK_ID, description="the new rule system's id (its file name): lowercase, digits, - _")
    rulepack: str = Field(min_length=1, max_length=MAX_RULEPACK_CHARS,
                          description="the rulepack as YAML: names, defaults, alias, derived, sheet, resolution "
                          "(roll, target, compare, difficulties, ranks), subsystems, commands, expertise, labels")
    replace: bool = Field(default=False, description="overwrite a user rulepack of this id")


def generate_rulepack(args: GenerateRulepackArgs, ctx: ToolContext) -> dict[str, Any]:
    from lwcore.api import atomic_write_text, engine_for

    engine = engine_for(ctx.kernel)
    target = ctx.kernel.data_dir / "rulepacks" / f"{args.id}.yaml"
    owner = engine.sources().get(args.id)
    if owner is not None and (owner.path is None or Path(owner.path) != target):
        raise ToolError(f"rule system id {args.id!r} belongs to {owner.origin}; choose another id")
    if target.exists() and not args.replace:
        raise ToolError(f"a user rulepack {args.id!r} exists; pass replace: true to overwrite it")
    from lwcore.api import encode_utf8

    shown = f"<generated>/{args.id}.yaml"
    with tempfile.TemporaryDirectory(prefix="lw-forge-") as scratch:
        draft = Path(scratch) / f"{args.id}.yaml"
        try:
            draft.write_bytes(encode_utf8(args.rulepack, file=shown))
            pack = engine.validate_file(draft)
        except LwError as exc:
            raise ToolError(str(exc).replace(str(draft), shown)) from None
    if pack.resolution is None:
        raise ToolError(f"<generated>/{args.id}.yaml: the rulepack resolves no checks: give it resolution: "
                        "(roll, target, compare, ranks) or extends: a system that has one")
    try:
        atomic_write_text(target, args.rulepack)
    except LwError as exc:
        raise _problem(exc) from None
    engine.refresh()  # rooms see the new system at once
    ctx.events.append({"kind": "forge", "audience": "keeper", "summary": f"rulepack {args.id} written to {target}"})
    return {"ok": True, "rulepack": args.id, "file": str(target), "names": list(pack.names),
            "subsystems": sorted(pack.model.subsystems), "warnings": list(pack.warnings),
            "next": "rooms can play it now (system: " + args.id + ")"}


# --- generate_module ----------------------------------------------------------------------


class GenerateModuleArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=MODULE_ID, description="the module's id (its pack id): lowercase letters, digits, hyphens")
    title: str = Field(min_length=1, max_length=200)
    premise: str = Field(min_length=1, max_length=4000, description="the player-facing hook (players may read it)")
    notes: str = Field(min_length=1, max_length=60_000,
                       description="the keeper's notes in Markdown: the truth, the people, the places, the scenes")
    setup: str | None = Field(default=None, max_length=20_000,
                              description="optional prep script (JavaScript, only plan(tool, args)) that sets the module "
                              "up in a room: define_variable, thread_note, keeper_note …")
    systems: list[str] = Field(default_factory=list, max_length=8, description="rule systems it is written for")
    version: str = Field(default="1.0.0", pattern=VERSION)
    replace: bool = Field(default=False, description="overwrite an installed module of this id and version")


def module_text(front: dict[str, Any], notes: str) -> str:
    return f"---\n{dump_yaml(front)}---\n\n{notes.strip()}\n"


def generate_module(args: GenerateModuleArgs, ctx: ToolContext) -> dict[str, Any]:
    from lwcore.api import PREP_PACKS as PACKS, checked_plan, engine_for

    shown = f"<generated>/{args.id}"
    engine = engine_for(ctx.kernel)
    unknown = [s for s in args.systems if engine.find(s) is None]
    if unknown:
        raise ToolError(f"systems: no installed rule system answers to {', '.join(map(repr, unknown))}")
    front: dict[str, Any] = {"id": args.id, "title": args.title, "premise": args.premise}
    if args.systems:
        front["systems"] = list(args.systems)
    text = module_text(front, args.notes)
    files = {MODULE_FILE: text}
    operations = 0
    try:
        read_module_text(text, file=f"{shown}/{MODULE_FILE}")
        if args.setup is not None:
            plan, _ = checked_plan(ctx.kernel, ctx.room, args.setup, script=f"{shown}/{SETUP_FILE}")
            if not plan.ok:
                assert plan.failure is not None
                raise plan.failure.to_error()
            operations = len(plan.ops)
            files[SETUP_FILE] = args.setup
        target = ctx.kernel.data_dir / PACKS / f"{args.id}@{args.version}"
        install_folder(files, target, replace=args.replace)
    except (LwError, LwErrors) as exc:
        raise _problem(exc) from None
    ctx.events.append({"kind": "forge", "audience": "keeper", "summary": f"module {args.id} written to {target}"})
    out: dict[str, Any] = {"ok": True, "module": args.id, "version": args.version, "folder": str(target)}
    if args.setup is not None:
        out |= {"setup": f"{args.id}/{SETUP_FILE}", "operations": operations,
                "next": f"in the prep phase: run_prep_plan(script_ref='{args.id}/{SETUP_FILE}') previews the setup, "
                        "apply: true runs it"}
    return out
