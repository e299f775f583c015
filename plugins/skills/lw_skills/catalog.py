"""Skill discovery: every ``<id>/SKILL.md`` in the skills folders, loaded once and kept fresh.

Folders, in priority order (the first to provide an id wins; a later one is reported as
shadowed, never silently dropped):

1. the ``skills/`` folder of every enabled plugin that provides ``skills`` (bundled plugins
   first, then by plugin id; ``Kernel.data_folders("skills")``): this plugin's own forge
   skills, a data plugin's skills;
2. ``<data dir>/skills/`` -- the operator's skills (and what the skill forge writes). A user
   folder can never replace a plugin's skill of the same id.

A skill that does not load (bad frontmatter, an unreadable ``hooks.js``, a folder name that
is not an id) is a :class:`Problem` with its located error; the others load regardless. A
skill that loads may carry warnings (an ``allowed-tools`` name no installed plugin provides).

The catalog is a kernel service (:func:`catalog_for`); it rescans when a folder changes
(a ``SKILL.md``, ``hooks.js``, ``references/`` or ``assets/`` added, changed or removed, or a
skill folder added or removed) or when the kernel's tools change, so a skill installed by
another process is seen without a restart.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lwcore.api import LwError
from lw_skills.skillfile import MAX_SKILL_BYTES, Skill, parse_skill_text, valid_id
from lwcore.api import read_text

if TYPE_CHECKING:
    from lwcore.api import Kernel

USER = "user"
SKILL_FILE = "SKILL.md"
HOOKS_FILE = "hooks.js"
REFERENCES = "references"
ASSETS = "assets"
MAX_LISTED = 500
"""At most this many files are listed under ``references/`` or ``assets/`` of one skill."""
MAX_HOOKS_BYTES = 160 * 1024
"""A ``hooks.js`` larger than this is refused (the sandbox takes 40,000 characters)."""


@dataclass(frozen=True)
class Problem:
    """A skill folder that did not load (or lost to another folder with the same id)."""

    skill: str
    source: str
    folder: Path
    error: LwError

    def __str__(self) -> str:
        return f"{self.skill} ({self.source}): {self.error}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.skill, "source": self.source, "folder": str(self.folder), "error": self.error.to_json(),
                "message": str(self.error)}


def load_folder(folder: Path, source: str) -> Skill:
    """Load one skill folder (``SKILL.md``, ``hooks.js``, what ``references/`` and
    ``assets/`` hold). :class:`LwError`, located, when it does not load."""
    skill_id = folder.name
    if not valid_id(skill_id):
        raise LwError(f"folder name {skill_id!r} is not a skill id", file=folder, code="invalid",
                      expected="lowercase letters, digits and single hyphens, at most 64 characters")
    path = folder / SKILL_FILE
    skill = parse_skill_text(skill_id, read_text(path, max_bytes=MAX_SKILL_BYTES), file=path)
    hooks = read_text(folder / HOOKS_FILE, max_bytes=MAX_HOOKS_BYTES) if (folder / HOOKS_FILE).exists() else None
    others = tuple(f for f in list_files(folder, "") if f not in (SKILL_FILE, HOOKS_FILE) and not f.startswith(f"{REFERENCES}/"))
    return replace(skill, folder=folder, source=source, hooks=hooks,
                   references=list_files(folder, REFERENCES), assets=list_files(folder, ASSETS), files=others)


def list_files(folder: Path, sub: str) -> tuple[str, ...]:
    """Regular files under ``folder/sub`` (paths relative to it, ``/``-separated, sorted),
    leaving out hidden names and anything a link leads outside the folder."""
    root = folder / sub
    if not root.is_dir():
        return ()
    base = os.path.realpath(root)
    out: list[str] = []
    for current, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(current) / name
            real = os.path.realpath(path)
            if name.startswith(".") or not real.startswith(base + os.sep) or not os.path.isfile(real):
                continue
            out.append(path.relative_to(root).as_posix())
            if len(out) >= MAX_LISTED:
                return tuple(out)
    return tuple(out)


class SkillCatalog:
    """The skills one kernel can see (see the module docstring)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self._lock = threading.RLock()
        self._signature: Any = None
        self._skills: dict[str, Skill] = {}
        self._problems: list[Problem] = []

    # -- folders ---------------------------------------------------------------------------

    @property
    def user_dir(self) -> Path:
        """``<data dir>/skills``: the operator's skills, where the skill forge writes."""
        return self.kernel.data_dir / "skills"

    def roots(self) -> list[tuple[str, Path]]:
        """``(source, folder)`` of every skills folder, in priority order."""
        return [*self.kernel.data_folders("skills"), (USER, self.user_dir)]

    def plugin_ids(self) -> set[str]:
        """Ids some plugin provides (a user skill of such an id never loads)."""
        ids: set[str] = set()
        for _, root in self.kernel.data_folders("skills"):
            ids.update(child.name for child in _children(root))
        return ids

    def _stamp(self) -> Any:
        stamps: list[Any] = [id(self.kernel.tools)]
        for source, root in self.roots():
            for child in _children(root):
                entry: list[Any] = [source, child.name]
                for part in (SKILL_FILE, HOOKS_FILE, REFERENCES, ASSETS):
                    try:
                        st = os.stat(child / part)
                        entry.append((st.st_mtime_ns, st.st_size))
                    except OSError:
                        entry.append(None)
                stamps.append(tuple(entry))
        return tuple(stamps)

    def _refresh(self) -> None:
        with self._lock:
            stamp = self._stamp()
            if stamp == self._signature:
                return
            tools = set(self.kernel.tools.keys())
            skills: dict[str, Skill] = {}
            problems: list[Problem] = []
            for source, root in self.roots():
                for child in _children(root):
                    if child.name in skills:
                        owner = skills[child.name].source
                        problems.append(Problem(child.name, source, child, LwError(
                            f"skill {child.name!r} is already provided by {owner}; this folder is ignored",
                            file=child, code="shadowed", expected="another folder name for a new skill")))
                        continue
                    try:
                        skill = load_folder(child, source)
                    except LwError as exc:
                        problems.append(Problem(child.name, source, child, exc))
                        continue
                    missing = [t for t in skill.allowed_tools or () if t not in tools]
                    if missing:
                        skill = replace(skill, warnings=(*skill.warnings, "allowed-tools names "
                                        + ", ".join(repr(t) for t in missing)
                                        + ", which no installed plugin provides; enabling the skill offers the others"))
                    skills[child.name] = skill
            self._skills, self._problems, self._signature = skills, problems, stamp

    # -- lookups ---------------------------------------------------------------------------

    def skills(self) -> dict[str, Skill]:
        """Id -> skill, every skill that loaded, sorted by id."""
        self._refresh()
        return dict(sorted(self._skills.items()))

    def problems(self) -> list[Problem]:
        """Folders that did not load, and folders shadowed by an earlier one."""
        self._refresh()
        return list(self._problems)

    def get(self, skill_id: str) -> Skill | None:
        self._refresh()
        return self._skills.get(skill_id)

    def require(self, skill_id: str) -> Skill:
        """The skill ``skill_id``; :class:`LwError` naming its problem when it did not load,
        or the known ids when there is no such skill."""
        skill = self.get(skill_id)
        if skill is not None:
            return skill
        for problem in self._problems:
            if problem.skill == skill_id and problem.error.code != "shadowed":
                raise LwError(f"skill {skill_id!r} does not load: {problem.error}", code="invalid")
        known = ", ".join(self._skills) or "(none installed)"
        raise LwError(f"no skill {skill_id!r}", expected=f"one of: {known}", code="unknown")

    def missing_tools(self, skill: Skill) -> list[str]:
        """The ``allowed-tools`` of ``skill`` no installed plugin provides."""
        tools = self.kernel.tools
        return [t for t in skill.allowed_tools or () if t not in tools]


def _children(root: Path) -> list[Path]:
    """The skill folders in ``root`` (folders holding a ``SKILL.md``), sorted by name."""
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return []
    return [e for e in entries if not e.name.startswith(".") and e.is_dir() and (e / SKILL_FILE).exists()]


def catalog_for(kernel: Kernel) -> SkillCatalog:
    """The kernel's skill catalog (one per kernel)."""
    return kernel.service("skills.catalog", SkillCatalog)
