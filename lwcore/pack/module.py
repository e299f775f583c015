"""Modules: the scenarios a room plays, as installed packs hold them (``.module``).

A **module** (模组) is an installed pack home, ``<data_dir>/packs/<id>@<version>/`` (the version
the install ledger marks active, else the highest), that carries what a room needs to play a
scenario:

- ``module.md`` -- frontmatter ``id`` (the pack id), ``title``, ``premise`` (the hook the
  players are told), ``systems`` (what it is written for; empty: any) and ``setup`` (its setup
  script, pack-relative; default ``prep/setup.js`` when the home holds one); the body is the
  keeper's notes: the truth, the people, the scenes. The module forge writes one
  (``generate_module``); a pack may ship one;
- and/or module machinery from an ``.lwpack``: world cards (a module's world and its cast),
  world books, prep scripts (the setup: the one the pack declares, or the one ``module.md``
  names) and media.

A pack of nothing else (presets, a skill, a rulepack) is not a module. A module without
``module.md`` is titled and described by its manifest (``name``, ``description``).

Everything here reads; nothing writes. Bad content is a module with a ``problem`` (located, for
the keeper), never an exception from the listing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.io.frontmatter import FRONTMATTER_LIMITS, split_frontmatter
from lwcore.io.models import validate_model
from lwcore.io.paths import confine
from lwcore.io.safe_yaml import load_yaml
from lwcore.io.text import read_text
from lwcore.pack.ledger import Ledger, homes, version_key
from lwcore.pack.manifest import MANIFEST_NAME, BuiltManifest, parse_manifest

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

MODULE_FILE = "module.md"
SETUP_FILE = "prep/setup.js"
MAX_MODULE_BYTES = 256 * 1024
"""A ``module.md`` larger than this is refused (its notes reach the keeper's model every turn)."""
MODULE_ID = r"^[a-z0-9][a-z0-9-]{0,63}$"


class ModuleFrontmatter(BaseModel):
    """The frontmatter of a module's ``module.md`` (``lw schema module``; the body is the
    keeper's notes)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=MODULE_ID, description="the module's id: its pack's id")
    title: str | dict[str, str] = Field(min_length=1, description="its title (text, or one per locale)")
    premise: str | dict[str, str] = Field(min_length=1, description="the hook the players are told (they may read it)")
    systems: list[str] = Field(default_factory=list, description="rule systems it is written for (empty: any)")
    setup: str | None = Field(default=None, description=f"its setup prep script, pack-relative (default {SETUP_FILE} "
                                                        "when the pack holds one)")


def read_module_text(text: str, *, file: str | Path) -> tuple[ModuleFrontmatter, str]:
    """A ``module.md`` read: its frontmatter (validated, located) and the keeper's notes."""
    yaml_text, body = split_frontmatter(text, file, what="a module.md")
    data, positions = load_yaml(yaml_text, file, positions=True, limits=FRONTMATTER_LIMITS)
    if data is not None and not isinstance(data, dict):
        raise LwError("the frontmatter is a mapping (id:, title:, premise: …)", file=file, line=2, code="invalid")
    front = validate_model(ModuleFrontmatter, data or {}, file=file, positions=positions, strict=True)
    for key in ("title", "premise"):
        value = getattr(front, key)
        if isinstance(value, dict) and not all(isinstance(v, str) and v for v in value.values()):
            raise LwError(f"{key}: every locale's text is a non-empty string", file=file, code="invalid")
    return front, body


def _text(value: str | dict[str, str], locale: str) -> str:
    return value if isinstance(value, str) else localized(value, locale)


@dataclass(frozen=True)
class Module:
    """One installed module (see the module docstring). ``problem``: why it cannot be used
    (a ``module.md`` or manifest that does not read), located; the rest is what could be read."""

    id: str
    version: str
    home: Path
    manifest: BuiltManifest | None = None
    front: ModuleFrontmatter | None = None
    notes: str = ""
    setup: str | None = None
    """The setup script, pack-relative (``prep/setup.js``), when there is exactly one."""
    scripts: tuple[str, ...] = ()
    """Every prep script the pack declares (a choice when there are several and none is named)."""
    worlds: tuple[str, ...] = ()
    books: tuple[str, ...] = ()
    problem: LwError | None = None

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"

    def title(self, locale: str) -> str:
        if self.front is not None:
            return _text(self.front.title, locale)
        return self.manifest.title(locale) if self.manifest is not None else self.id

    def premise(self, locale: str) -> str:
        if self.front is not None:
            return _text(self.front.premise, locale)
        if self.manifest is not None:
            d = self.manifest.description
            return d if isinstance(d, str) else localized(d, locale)
        return ""

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.front.systems) if self.front is not None else ()

    @property
    def assets(self) -> int:
        return len(self.manifest.assets) if self.manifest is not None else 0


@dataclass
class _Found:
    manifest: BuiltManifest | None = None
    front: ModuleFrontmatter | None = None
    notes: str = ""
    problems: list[LwError] = field(default_factory=list)


def _read(home: Path, pack_id: str) -> _Found:
    found = _Found()
    if (home / MANIFEST_NAME).is_file():
        try:
            found.manifest = parse_manifest(read_text(home / MANIFEST_NAME), file=str(home / MANIFEST_NAME), built=True)[0]
        except LwError as exc:
            found.problems.append(exc)
    path = home / MODULE_FILE
    if path.is_file() or path.is_symlink():
        try:
            path = confine(home, MODULE_FILE, what="module.md")
            found.front, found.notes = read_module_text(read_text(path, max_bytes=MAX_MODULE_BYTES), file=path)
            if found.front.id != pack_id:
                found.problems.append(LwError(f"id {found.front.id!r} is not the pack's id {pack_id!r}", file=path,
                                              code="invalid", expected=f"id: {pack_id}"))
        except LwError as exc:
            found.problems.append(exc)
    return found


def _module(pack_id: str, version: str, home: Path) -> Module | None:
    found = _read(home, pack_id)
    m = found.manifest
    items = m.contents if m is not None else {}
    scripts = tuple(i.path for i in items.get("prep", ()))
    worlds = tuple(i.path for i in items.get("cards", ()) if i.detected.get("kind") == "world")
    books = tuple(i.path for i in items.get("worldbooks", ()))
    has_module_md = (home / MODULE_FILE).exists()
    if not (has_module_md or worlds or scripts):
        return None  # presets, a skill, a rulepack: content, not a scenario
    setup: str | None = None
    problems = list(found.problems)
    named = found.front.setup if found.front is not None else None
    if named is not None:
        setup = named
    elif (home / SETUP_FILE).is_file() and (m is None or SETUP_FILE in scripts):
        setup = SETUP_FILE
    elif len(scripts) == 1:
        setup = scripts[0]
    if setup is not None:
        try:
            if not setup.endswith(".js") or not confine(home, setup, what="setup").is_file():
                raise LwError(f"setup {setup!r} is not a .js script of the pack", file=home / MODULE_FILE,
                              code="not_found")
        except LwError as exc:
            problems.append(exc)
    return Module(pack_id, version, home, m, found.front, found.notes, setup, scripts, worlds, books,
                  problems[0] if problems else None)


def installed_modules(kernel: Kernel) -> list[Module]:
    """Every installed module, by id (the active version of each pack, else its highest)."""
    folder = kernel.data_dir / "packs"
    try:
        active = Ledger.load(folder).active
    except LwError:
        active = {}
    out = []
    for pack_id, versions in sorted(homes(folder).items()):
        version = active.get(pack_id) if active.get(pack_id) in versions else max(versions, key=version_key)
        module = _module(pack_id, str(version), folder / f"{pack_id}@{version}")
        if module is not None:
            out.append(module)
    return out


def find_module(kernel: Kernel, word: str) -> Module:
    """The installed module ``word`` names (its id, or ``id@version`` of its active version);
    :class:`LwError` naming the installed ones when none is."""
    modules = installed_modules(kernel)
    wanted = word.strip()
    for module in modules:
        if wanted in (module.id, module.key):
            return module
    shown = wanted if len(wanted) <= 64 else wanted[:64] + "…"
    raise LwError(f"no module {shown!r} is installed", code="unknown",
                  expected="one of: " + (", ".join(m.id for m in modules) or "(none installed: lw pack install, or the "
                                                                               "module forge)"))


def describe(module: Module, locale: str) -> dict[str, Any]:
    """What anyone may read of a module: id, version, title, premise, systems."""
    return {"id": module.id, "version": module.version, "title": module.title(locale),
            "premise": module.premise(locale), "systems": list(module.systems)}
