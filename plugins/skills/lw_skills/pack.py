"""The ``skills`` kind of ``.lwpack`` content: a skill folder, read by the reader discovery uses.

In ``pack.yaml``: ``contents: {skills: [skills/tide-watch]}`` -- each item a folder holding a
``SKILL.md``; the folder name is the skill id. At build, verify and install the folder is read as
discovery will read it once landed (:func:`lw_skills.skillfile.parse_skill_text`), its
``hooks.js`` is loaded in the JS sandbox (a syntax error refuses the pack, located), and every
file of the folder ships and lands in ``<data_dir>/skills/<id>/``. An id a plugin provides is
refused (discovery would never let the landed folder replace it). Installed is not enabled:
the in-room ``.pack install`` enables the pack's skills in that room (:func:`enable`), as the
keeper's ``.skill enable`` would -- a skill the room cannot take (the adult switch, another rule
system) is named in the receipt and left off.
"""

from __future__ import annotations

from typing import Any

from lwcore.api import ContentReport, LwError, PackItem
from lw_skills.catalog import HOOKS_FILE, MAX_HOOKS_BYTES, SKILL_FILE, catalog_for
from lw_skills.messages import MESSAGES
from lw_skills.skillfile import MAX_SKILL_BYTES, parse_skill_text, valid_id
from lwcore.api import run_hooks


def validate(item: PackItem) -> ContentReport:
    folder = item.path.rstrip("/")
    skill_id = folder.rsplit("/", 1)[-1]
    label = item.files.display(folder)
    if not valid_id(skill_id):
        raise LwError(f"a skill item is a folder named by the skill id; {skill_id!r} is not an id", file=label,
                      expected="lowercase letters, digits and single hyphens, at most 64 characters")
    files = item.files.files_under(folder)
    skill_md = f"{folder}/{SKILL_FILE}"
    if skill_md not in files:
        raise LwError(f"a skill folder holds a {SKILL_FILE}", file=label, code="not_found")
    skill = parse_skill_text(skill_id, item.files.read_text(skill_md, max_bytes=MAX_SKILL_BYTES),
                             file=item.files.display(skill_md))
    if item.kernel is not None and skill_id in catalog_for(item.kernel).plugin_ids():
        raise LwError(f"the skill id {skill_id!r} belongs to an installed plugin; a pack's skill needs its own id",
                      file=label, code="taken")
    hooks = f"{folder}/{HOOKS_FILE}"
    if hooks in files:
        _check_hooks(item.files.read_text(hooks, max_bytes=MAX_HOOKS_BYTES), item.files.display(hooks))
    warnings = list(skill.warnings)
    if item.kernel is not None:
        missing = catalog_for(item.kernel).missing_tools(skill)
        if missing:
            warnings.append(f"{skill_id}: allowed-tools names {', '.join(missing)}, which no installed plugin provides")
    return ContentReport(
        id=skill_id, files=files, lands={f: f"{skill_id}/{f[len(folder) + 1:]}" for f in files},
        detected={"content_rating": skill.content_rating} if skill.content_rating else {},
        hooks=hooks in files, warnings=tuple(warnings),
    )


def _check_hooks(source: str, label: str) -> None:
    """A ``hooks.js`` loads in the sandbox (no event is fired), or the pack is refused."""
    run = run_hooks(source, [], {}, seed=0, clock=0, script=label)
    if run.failure is not None:
        error = run.failure.to_error()
        raise LwError(f"hooks.js does not load: {error.message}", file=label, line=error.line, column=error.column,
                      code="script")


def enable(ctx: Any) -> str | None:
    """``.pack install`` in a room: enable each of the pack's skills there (a ``RoomEnable``)."""
    from lw_skills.rooms import enable as enable_skill

    catalog = catalog_for(ctx.kernel)
    on: list[str] = []
    off: list[str] = []
    for item in ctx.items:
        try:
            enable_skill(ctx.room, catalog, str(item.id))
            on.append(str(item.id))
        except LwError as exc:
            off.append(f"{item.id}: {exc.message}")
    if not on and not off:
        return None
    t = MESSAGES.bind(ctx.locale)
    parts = [t("skill.pack_on", skills=", ".join(on))] if on else []
    parts += [t("skill.pack_off", reason=reason) for reason in off]
    return "; ".join(parts)
