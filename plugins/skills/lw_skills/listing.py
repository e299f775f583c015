"""The skills as people read them: ``lw skill list|show`` and the ``.skill`` room command
share these renderings, so the table and the terminal say the same thing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lw_skills.catalog import SkillCatalog
from lw_skills.messages import MESSAGES
from lw_skills.rooms import RoomSkill, room_skills
from lw_skills.skillfile import Skill

if TYPE_CHECKING:
    from lwcore.api import Room


def _short(text: str, width: int = 90) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def skill_line(skill: Skill, locale: str, room_skill: RoomSkill | None = None, *, source: bool = False) -> str:
    """One line: a mark (``*`` counts in the room, ``-`` enabled but not counting), the id,
    the display name, the description, then (with ``source``) where it comes from, its
    conditions and notes."""
    mark = " "
    if room_skill is not None:
        mark = "*" if room_skill.active else "-"
    notes = [f"from {skill.source}"] if source else []
    if skill.adult:
        notes.append(skill.content_rating)
    if skill.systems:
        notes.append("/".join(skill.systems))
    if skill.hooks:
        notes.append("hooks.js")
    if room_skill is not None and room_skill.reason:
        notes.append(room_skill.reason)
    if room_skill is not None and room_skill.stale:
        notes.append("stale: enable it again to refresh")
    name = skill.display_name(locale)
    head = f"{mark} {skill.id}" + (f"  {name}" if name != skill.id else "")
    return head + f" — {_short(skill.describe(locale))}" + (f" [{'; '.join(notes)}]" if notes else "")


def list_text(catalog: SkillCatalog, locale: str, room: Room | None = None, *, problems: bool = True) -> str:
    """Every skill (and, with ``room``, which are enabled there); with ``problems`` (the
    keeper's and the terminal's view), where each comes from, the folders that did not load
    and the skills' warnings."""
    t = MESSAGES.bind(locale)
    in_room = {rs.id: rs for rs in room_skills(room, catalog)} if room is not None else {}
    lines = []
    for skill in catalog.skills().values():
        lines.append(skill_line(skill, locale, in_room.get(skill.id), source=problems))
        if problems:
            lines += [f"    ! {w}" for w in skill.warnings]
    for rs in in_room.values():
        if rs.skill is None:
            lines.append(t("skill.not_installed", id=rs.id))
    if not lines:
        lines.append(t("skill.no_skills"))
    if room is not None:
        lines.append(t("skill.legend"))
    if problems:
        for problem in catalog.problems():
            lines.append(f"x {problem.skill} ({problem.source}): {problem.error}")
    return "\n".join(lines)


def show_text(skill: Skill, catalog: SkillCatalog, locale: str, *, full: bool = True) -> str:
    """Everything about one skill. ``full`` is the keeper's and the terminal's view: the
    skill's body and its folder on this machine; a player sees neither."""
    t = MESSAGES.bind(locale)
    lines = [f"{skill.display_name(locale)} ({skill.id})", t("show.source", value=skill.source)]
    if full and skill.folder is not None:
        lines.append(t("show.folder", value=skill.folder))
    lines.append(t("show.description", value=_short(skill.describe(locale), 200)))
    if skill.allowed_tools is None:
        lines.append(t("show.tools_alone"))
    else:
        missing = set(catalog.missing_tools(skill))
        shown = [t("show.not_installed", tool=name) if name in missing else name for name in skill.allowed_tools]
        lines.append(t("show.tools", tools=", ".join(shown) or t("show.none")))
    lines.append(t("show.systems", value=", ".join(skill.systems) or t("show.any")))
    lines.append(t("show.rating", value=skill.content_rating or t("show.none")) + (t("show.adult") if skill.adult else ""))
    if skill.references:
        lines.append(t("show.references", value=", ".join(skill.references)))
    if skill.assets:
        lines.append(t("show.assets", value=", ".join(skill.assets)))
    if skill.hooks:
        lines.append(t("show.hooks"))
    lines += [t("show.warning", value=w) for w in skill.warnings]
    if full and skill.body:
        lines += ["", skill.body]
    return "\n".join(lines)


def list_json(catalog: SkillCatalog, room: Room | None = None) -> dict[str, Any]:
    in_room = [rs.to_json() for rs in room_skills(room, catalog)] if room is not None else None
    out: dict[str, Any] = {"skills": [s.to_json() for s in catalog.skills().values()],
                           "problems": [p.to_json() for p in catalog.problems()]}
    if in_room is not None:
        out["room"] = in_room
    return out
