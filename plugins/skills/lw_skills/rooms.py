"""Skills in a room: which are enabled, which count this turn, enabling and disabling.

A skill enabled in a room is an entry of ``room.yaml``'s ``features`` (the kernel's list of
"enabled features and the tools they ask for", :class:`lwcore.turn.room.Feature`), written
by :func:`enable` with everything the kernel needs to decide the room's tools without
knowing what a skill is::

    features:
      - id: rule-forge          # the skill id
        skill: true             # written by the skills plugin (kept by the kernel)
        tools: [generate_rulepack]   # its allowed-tools that exist (+ read_skill_reference)
        narrows: true           # it has allowed-tools: the room offers these + the kernel's own
        adult: true             # rated mature/explicit: counts only while room.yaml has adult: true
        systems: [coc7]         # metadata.systems: counts only in rooms playing one of them

The entry is a snapshot taken when the skill is enabled: a skill whose ``SKILL.md`` changed
since (or whose missing tool has been installed since) is *stale*: ``lw skill list ROOM``
says so, and enabling it again refreshes the entry. A hand-written bare id
(``features: [tension-clock]``) enables the skill's prompt and hooks but asks for no tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lwcore.api import Feature, LwError
from lw_skills.catalog import SkillCatalog
from lw_skills.messages import MESSAGES
from lw_skills.skillfile import Skill

if TYPE_CHECKING:
    from lwcore.api import Room

REFERENCE_TOOL = "read_skill_reference"


@dataclass(frozen=True)
class RoomSkill:
    """A skill feature of a room: the entry, the skill (``None``: no longer installed),
    whether it counts this turn (and why not), and whether the entry is stale."""

    id: str
    feature: Feature
    skill: Skill | None
    active: bool
    reason: str = ""
    stale: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "installed": self.skill is not None, "active": self.active, "reason": self.reason,
                "stale": self.stale, "feature": self.feature.model_dump(mode="json", exclude_defaults=True)}


def feature_for(skill: Skill, catalog: SkillCatalog) -> Feature:
    """The ``features`` entry enabling ``skill`` now: its allowed tools that exist, the
    reference reader when it has references (or other files its body may point at), its conditions."""
    tools = [t for t in skill.allowed_tools or () if t not in catalog.missing_tools(skill)]
    if (skill.references or skill.files) and REFERENCE_TOOL not in tools:
        tools.append(REFERENCE_TOOL)
    data: dict[str, Any] = {"id": skill.id, "skill": True}
    if tools:
        data["tools"] = tools
    if skill.allowed_tools is not None:
        data["narrows"] = True
    if skill.adult:
        data["adult"] = True
    if skill.systems:
        data["systems"] = list(skill.systems)
    return Feature.model_validate(data)


def _same(a: Feature, b: Feature) -> bool:
    return (a.tools, a.narrows, a.adult, a.systems) == (b.tools, b.narrows, b.adult, b.systems)


def room_skills(room: Room, catalog: SkillCatalog) -> list[RoomSkill]:
    """Every skill feature of ``room``: features marked ``skill: true`` or named like a
    discovered skill, in ``features`` order."""
    active = {id(f) for f in room.active_features()}
    out = []
    for feature in room.file.features:
        skill = catalog.get(feature.id)
        if skill is None and not (feature.model_extra or {}).get("skill"):
            continue
        reason = ""
        if skill is None:
            reason = "not installed"
        elif id(feature) not in active:
            reason = "needs the room's adult switch (adult: true in room.yaml)" if feature.adult and not room.file.adult \
                else f"only for {', '.join(feature.systems)}; this room plays {room.file.system}"
        stale = skill is not None and not _same(feature, feature_for(skill, catalog))
        out.append(RoomSkill(feature.id, feature, skill, skill is not None and not reason, reason, stale))
    return out


def active_skills(room: Room, catalog: SkillCatalog) -> list[Skill]:
    """The skills that count in ``room`` this turn, in ``features`` order."""
    return [rs.skill for rs in room_skills(room, catalog) if rs.active and rs.skill is not None]


@dataclass(frozen=True)
class Enabled:
    """What :func:`enable` did: the entry written, tools asked for that nobody provides,
    and whether an entry for the skill was already there (then replaced)."""

    feature: Feature
    missing: tuple[str, ...]
    replaced: bool

    def message(self, skill: Skill, locale: str = "en") -> str:
        t = MESSAGES.bind(locale)
        text = t("skill.enabled", name=skill.display_name(locale), id=skill.id)
        if self.replaced:
            text += t("skill.refreshed")
        if self.feature.narrows:
            text += t("skill.narrows", tools=", ".join(self.feature.tools) or t("skill.none"))
        elif self.feature.tools:
            text += t("skill.unlocked", tools=", ".join(self.feature.tools))
        if self.missing:
            text += t("skill.missing", tools=", ".join(self.missing))
        return text


def enable(room: Room, catalog: SkillCatalog, skill_id: str) -> Enabled:
    """Enable ``skill_id`` in ``room`` (or refresh its entry) and mark the room changed.

    :class:`LwError` when the skill does not exist or does not load, when it is for other
    rule systems than the room's, or when it is rated mature/explicit and the room's adult
    switch is off. The caller holds the room's lock and saves.
    """
    skill = catalog.require(skill_id)
    if skill.systems and not any(room.rule_system.is_a(s) for s in skill.systems):
        raise LwError(f"skill {skill_id!r} is for {', '.join(skill.systems)}; this room plays {room.file.system}",
                      code="refused")
    if skill.adult and not room.file.adult:
        raise LwError(f"skill {skill_id!r} is rated {skill.content_rating}: it needs the room's adult switch",
                      expected="adult: true in room.yaml (the keeper's decision)", code="refused")
    feature = feature_for(skill, catalog)
    features = list(room.file.features)
    index = next((i for i, f in enumerate(features) if f.id == skill_id), None)
    if index is None:
        features.append(feature)
    else:
        features[index] = feature
    room.file.features = features  # assigned, so that a room.yaml without features: gets one
    room.mark("room")
    return Enabled(feature, tuple(catalog.missing_tools(skill)), index is not None)


def disable(room: Room, skill_id: str) -> Feature:
    """Remove ``skill_id``'s entry from ``room`` and mark the room changed; :class:`LwError`
    when it is not enabled there."""
    features = room.file.features
    for index, feature in enumerate(features):
        if feature.id == skill_id:
            room.file.features = [*features[:index], *features[index + 1:]]
            room.mark("room")
            return feature
    enabled = ", ".join(f.id for f in features) or "none"
    raise LwError(f"skill {skill_id!r} is not enabled in this room", expected=f"one of: {enabled}", code="unknown")
