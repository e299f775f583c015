"""What an enabled skill brings to a turn: its body as a prompt segment, its ``hooks.js``, and
its files on demand (the ``read_skill_reference`` tool: progressive disclosure -- the prompt
names the references, the model reads one when it needs it; any other file of the skill's
folder its body points at is read the same way, by its path in the folder, confined to it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lwcore.api import HookScript, LwError, PromptSegment, Room, ToolContext, ToolError, TurnContext
from lw_skills.catalog import REFERENCES, catalog_for
from lw_skills.messages import MESSAGES
from lw_skills.rooms import REFERENCE_TOOL, active_skills
from lw_skills.skillfile import Skill

SEGMENT_ORDER = 200
MAX_REFERENCE_BYTES = 256 * 1024


def _room(turn: TurnContext) -> Room | None:
    """The turn's room when it is a kernel room (skills follow its enabled features), else None."""
    return turn.room if isinstance(turn.room, Room) else None


def segment_text(skill: Skill, locale: str) -> str:
    """The prompt text of an enabled skill: a heading, the body, the references it has."""
    t = MESSAGES.bind(locale)
    parts = [t("skill.heading", name=skill.display_name(locale), id=skill.id), skill.body.strip()]
    if skill.references:
        parts.append(t("skill.references", tool=REFERENCE_TOOL, listed=", ".join(skill.references)))
    if skill.files:
        parts.append(t("skill.files", tool=REFERENCE_TOOL, example=skill.files[0]))
    return "\n\n".join(p for p in parts if p)


def segments(turn: TurnContext) -> list[PromptSegment] | None:
    room = _room(turn)
    if room is None:
        return None
    skills = active_skills(room, catalog_for(room.kernel))
    return [PromptSegment(f"skill:{s.id}", segment_text(s, turn.locale), slot="system", order=SEGMENT_ORDER + i)
            for i, s in enumerate(skills)]


def scripts(turn: TurnContext) -> list[HookScript] | None:
    room = _room(turn)
    if room is None:
        return None
    return [HookScript(f"skill:{s.id}", s.hooks, origin=f"skills/{s.id}/hooks.js")
            for s in active_skills(room, catalog_for(room.kernel)) if s.hooks]


class ReferenceArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    skill: str = Field(min_length=1, max_length=64, description="the id of a skill enabled in this room")
    reference: str = Field(min_length=1, max_length=300,
                           description="a reference the skill lists (tables.md, references/tables.md), or any "
                                       "file of the skill's folder by its path in it (forms.md, scripts/fill.py)")


def read_reference(args: ReferenceArgs, ctx: ToolContext) -> dict[str, Any]:
    """The text of one reference of a skill enabled in this room."""
    from lwcore.api import confine, read_text

    skills = {s.id: s for s in active_skills(ctx.room, catalog_for(ctx.kernel))}
    skill = skills.get(args.skill)
    if skill is None or skill.folder is None:
        raise ToolError(f"no skill {args.skill!r} is enabled in this room (enabled: {', '.join(skills) or 'none'})")
    name = args.reference.removeprefix(f"{REFERENCES}/").removeprefix("./")
    if name in skill.references:
        root = skill.folder / REFERENCES
    elif args.reference.removeprefix("./") in skill.files:  # any other file of the folder (listed: confined)
        name, root = args.reference.removeprefix("./"), skill.folder
    else:
        raise ToolError(f"skill {skill.id!r} has no reference {args.reference!r} "
                        f"(it has: {', '.join((*skill.references, *skill.files)) or 'none'})")
    try:
        path = confine(root, name, what="reference")
        text = read_text(path, max_bytes=MAX_REFERENCE_BYTES)
    except LwError as exc:
        raise ToolError(f"reference {name!r} of skill {skill.id!r} cannot be read: {exc.message}") from None
    return {"skill": skill.id, "reference": name, "text": text}
