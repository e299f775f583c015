"""One ``SKILL.md``: YAML frontmatter between ``---`` lines, then a Markdown body.

The format is Claude Code's (and the Agent Skills one it follows), read the way Loreweaver's
skills use it:

- The skill id is the **folder name**: lowercase letters, digits and single hyphens, at most
  64 characters (:data:`ID_PATTERN`).
- ``name``: in a Claude Code skill it repeats the id; in a Loreweaver skill it is a display
  name (``Romance & relationships``). Both are accepted: a name that is not the id is the
  display name; no name means the id. ``name-<locale>`` (``name-zh``) localizes it.
- ``description``: what the skill is for, at most 1,024 characters (``description-<locale>``
  localizes it); left out, it is the body's first paragraph, as in Claude Code.
- ``allowed-tools``: a YAML list or one string of names separated by spaces or commas
  (``Read, Grep`` / ``skill_check kp_note``); parentheses keep a pattern such as
  ``Bash(git add:*)`` whole. Left out (or null): the skill does not touch the room's tools.
  Given, even empty: enabling the skill narrows the room's tools to these plus the kernel's
  own (see the plugin README).
- ``metadata.scope`` (``room``, the only scope), ``metadata.systems`` (the rule systems the
  skill is for; a list or one string of names), ``metadata.content-rating`` (``""``,
  ``general``, ``mature``, ``explicit``; the last two count only while the room's adult
  switch is on).

Every other key is kept as written (``license``, ``compatibility``, ``model`` …). Every problem
is an :class:`LwError` located in the file (line and column of the frontmatter value).
Nothing in a skill is executed here; its ``hooks.js`` runs only in the kernel's JS sandbox.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from lwcore.api import (
    FRONTMATTER_LIMITS,
    LwError,
    load_yaml,
    localized,
    split_frontmatter as _split,
    validate_model,
)

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
MAX_ID = 64
MAX_DESCRIPTION = 1024
MAX_NAME = 200
MAX_SKILL_BYTES = 256 * 1024
"""A ``SKILL.md`` larger than this is refused (the body is prompt text; this is generous)."""
RATINGS = ("", "general", "mature", "explicit")
ADULT_RATINGS = frozenset({"mature", "explicit"})
_LOCALIZED = re.compile(r"^(name|description)-([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)$")


def valid_id(skill_id: str) -> bool:
    """Whether ``skill_id`` is a skill id (a folder name a skill may have)."""
    return len(skill_id) <= MAX_ID and re.fullmatch(ID_PATTERN, skill_id) is not None


def split_names(text: str) -> list[str]:
    """Names in one string, separated by spaces or commas; parentheses keep a name whole
    (``"Bash(git add:*), Read"`` -> ``["Bash(git add:*)", "Read"]``)."""
    names: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        if depth == 0 and (char == "," or char.isspace()):
            if current:
                names.append("".join(current))
                current = []
            continue
        current.append(char)
    if current:
        names.append("".join(current))
    return names


def _names(value: Any) -> Any:
    """A list of names, or one string of them; duplicates dropped, order kept."""
    if isinstance(value, str):
        value = split_names(value)
    if isinstance(value, list):
        out: list[Any] = []
        for item in value:
            if isinstance(item, str):
                item = item.strip()
                if not item:
                    raise ValueError("a name is empty")
            if item not in out:
                out.append(item)
        return out
    return value


class SkillMetadata(BaseModel):
    """``metadata:`` of a skill (other keys are kept)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    scope: Literal["room"] = Field(default="room", description="where the skill is switched on: per room")
    systems: list[StrictStr] = Field(default_factory=list, description="rule systems the skill is for (empty: any)")
    content_rating: Literal["", "general", "mature", "explicit"] = Field(
        default="", alias="content-rating",
        description="mature and explicit count only while the room's adult switch is on")

    @field_validator("systems", mode="before")
    @classmethod
    def _systems(cls, value: Any) -> Any:
        return [] if value is None else _names(value)

    @field_validator("content_rating", "scope", mode="before")
    @classmethod
    def _null(cls, value: Any, info: Any) -> Any:
        if value is None:
            return "" if info.field_name == "content_rating" else "room"
        return value


class SkillFrontmatter(BaseModel):
    """The frontmatter of a ``SKILL.md`` (``lw schema skill``); other keys are kept."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    name: StrictStr | None = Field(
        default=None, min_length=1, max_length=MAX_NAME,
        description="the id (Claude Code) or a display name (Loreweaver); default: the folder name")
    description: StrictStr | None = Field(
        default=None, max_length=MAX_DESCRIPTION,
        description="what the skill is for (at most 1,024 characters); default: the body's first paragraph")
    allowed_tools: list[StrictStr] | None = Field(
        default=None, alias="allowed-tools",
        description="the tools the skill needs: a list, or one string separated by spaces or commas; given, "
        "enabling the skill narrows the room's tools to these plus the kernel's own")
    metadata: SkillMetadata = Field(default_factory=SkillMetadata)

    @field_validator("allowed_tools", mode="before")
    @classmethod
    def _tools(cls, value: Any) -> Any:
        return _names(value)

    @field_validator("metadata", mode="before")
    @classmethod
    def _metadata(cls, value: Any) -> Any:
        return {} if value is None else value

    @field_validator("name", "description")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("is blank")
        return value.strip() if value is not None else None


@dataclass(frozen=True)
class Skill:
    """A loaded skill. ``frontmatter`` is the frontmatter as written (unknown keys kept)."""

    id: str
    name: str
    """The display name (``name`` when it is not the id, else the id)."""
    description: str
    body: str
    allowed_tools: tuple[str, ...] | None
    """``None``: the skill leaves the room's tools alone; a tuple (maybe empty): it narrows them."""
    systems: tuple[str, ...] = ()
    content_rating: str = ""
    scope: str = "room"
    names: Mapping[str, str] = field(default_factory=dict)
    """Locale -> display name (``name-zh``…); ``en`` is :attr:`name`."""
    descriptions: Mapping[str, str] = field(default_factory=dict)
    frontmatter: Mapping[str, Any] = field(default_factory=dict)
    folder: Path | None = None
    source: str = ""
    """Who provides it: a plugin id, or ``user`` (``<data dir>/skills``)."""
    references: tuple[str, ...] = ()
    """Files under ``references/`` (paths relative to it), read on demand."""
    assets: tuple[str, ...] = ()
    """Files under ``assets/`` (paths relative to it), kept with the skill."""
    files: tuple[str, ...] = ()
    """Every other file of the skill's folder (paths relative to it, ``SKILL.md`` and hidden
    names left out): the Agent Skills format lets a body point at any of them (``forms.md``,
    ``scripts/fill.py``), and they are read on demand like references."""
    hooks: str | None = None
    """The source of ``hooks.js`` beside ``SKILL.md``, when there is one."""
    warnings: tuple[str, ...] = ()

    @property
    def adult(self) -> bool:
        """Rated mature or explicit: counts only while a room's adult switch is on."""
        return self.content_rating in ADULT_RATINGS

    def display_name(self, locale: str = "en") -> str:
        return localized({"en": self.name, **self.names}, locale)

    def describe(self, locale: str = "en") -> str:
        return localized({"en": self.description, **self.descriptions}, locale)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "names": dict(self.names), "description": self.description,
            "descriptions": dict(self.descriptions),
            "allowed_tools": list(self.allowed_tools) if self.allowed_tools is not None else None,
            "systems": list(self.systems), "content_rating": self.content_rating, "scope": self.scope,
            "source": self.source, "folder": str(self.folder) if self.folder else None,
            "references": list(self.references), "assets": list(self.assets), "hooks": self.hooks is not None,
            "warnings": list(self.warnings),
        }


def split_frontmatter(text: str, file: str | Path | None = None) -> tuple[str, str]:
    """``(frontmatter YAML, body)`` of a ``SKILL.md`` text: the kernel's splitter
    (:func:`lwcore.io.frontmatter.split_frontmatter`), which a module's ``module.md`` shares."""
    return _split(text, file, what="a SKILL.md")


def first_paragraph(body: str) -> str:
    """The body's first paragraph that is not a heading, on one line."""
    for block in re.split(r"\n\s*\n", body):
        lines = [line.strip() for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if lines:
            return " ".join(lines)
    return ""


def parse_skill_text(skill_id: str, text: str, *, file: str | Path | None = None) -> Skill:
    """Read ``SKILL.md`` text as the skill ``skill_id`` (its folder name). The same function
    reads skills on disk, checks ``lw skill validate`` and the skill forge's output, so all
    three agree. :class:`LwError` (several at once: :class:`lwcore.errors.LwErrors`),
    located in ``file``, for anything wrong."""
    if not valid_id(skill_id):
        raise LwError(f"skill id {skill_id!r} (the folder name) is not an id", file=file, code="invalid",
                      expected=f"lowercase letters, digits and single hyphens, at most {MAX_ID} characters")
    yaml_text, body = split_frontmatter(text, file)
    data, positions = load_yaml(yaml_text, file, limits=FRONTMATTER_LIMITS, positions=True)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise LwError(f"the frontmatter is a {type(data).__name__}, not a mapping of keys", file=file, line=2,
                      expected="name:, description:, allowed-tools:, metadata:", code="invalid")
    bad_keys = [k for k in data if not isinstance(k, str)]
    if bad_keys:
        pos = positions.find((bad_keys[0],), key=True)
        raise LwError(f"frontmatter key {bad_keys[0]!r} is not a text", file=file, line=pos.line if pos else None,
                      column=pos.column if pos else None, code="invalid")
    front: SkillFrontmatter = validate_model(SkillFrontmatter, data, file=file, positions=positions, strict=True)
    description = front.description or first_paragraph(body)[:MAX_DESCRIPTION]
    names: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    for key, value in (front.model_extra or {}).items():
        match = _LOCALIZED.match(key)
        if match is None:
            continue
        limit = MAX_NAME if match.group(1) == "name" else MAX_DESCRIPTION
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            pos = positions.find((key,))
            raise LwError(f"{key}: expected a non-empty text of at most {limit} characters"
                          + ("" if isinstance(value, (dict, list)) else f" (got {str(value)[:40]!r})"),
                          file=file, line=pos.line if pos else None, column=pos.column if pos else None,
                          code="invalid")
        (names if match.group(1) == "name" else descriptions)[match.group(2)] = value.strip()
    meta = front.metadata
    return Skill(
        id=skill_id,
        name=front.name or skill_id,
        description=description,
        body=body,
        allowed_tools=tuple(front.allowed_tools) if front.allowed_tools is not None else None,
        systems=tuple(meta.systems),
        content_rating=meta.content_rating,
        scope=meta.scope,
        names=names,
        descriptions=descriptions,
        frontmatter=data,
        warnings=_name_warning(skill_id, front.name),
    )


def _name_warning(skill_id: str, name: str | None) -> tuple[str, ...]:
    if name is not None and name != skill_id and valid_id(name):
        return (f"name {name!r} looks like an id but the folder is {skill_id!r}; "
                f"the id is the folder name, {name!r} is shown as the display name",)
    return ()
