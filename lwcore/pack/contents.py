"""A pack's contents checked through the registered validators, and what the checks add up to.

:func:`check_contents` runs every declared item through the validator its kind registered
(``lw_pack_validators``) and collects *every* problem, located, instead of stopping at the
first; build and verify share it, so an archive is judged by exactly the code that judged its
source. It also enforces what no single validator can see: a file claimed by two items, a
stable handle defined twice, a validator that names a file the pack does not have.

:func:`trust_of` turns the validators' reports and the assets into the manifest's ``trust``
block; :func:`expand_assets` turns the declared asset files and folders into files with their
media types (by extension, from one table, so a build never depends on the machine's MIME
database).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lwcore.contributions import ContentReport, PackItem, resolve
from lwcore.distributions import find
from lwcore.errors import LwError, LwErrors
from lwcore.pack.manifest import AssetDecl, BuiltAsset, BuiltItem, ItemDecl, Locate, Trust
from lwcore.pack.names import clashes, name_problem
from lwcore.plugins import describe_exception, kernel_bundle

if TYPE_CHECKING:
    from lwcore.kernel import Kernel

KNOWN_KINDS: dict[str, str] = {
    "rulepacks": "rule systems (rulepack YAML)",
    "skills": "keeper skills (SKILL.md folders)",
    "cards": "character and world cards",
    "worldbooks": "world books",
    "presets": "prompt presets",
    "panels": "UI panels (ui/panels.yaml)",
    "presentation": "presentation kits (ui/presentation.yaml)",
    "prep": "prep scripts (JavaScript the keeper runs on request)",
}
"""The content kinds the extension contract names, and what each holds (messages, docs)."""

MEDIA_TYPES: dict[str, str] = {
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
    ".gif": "image/gif", ".svg": "image/svg+xml", ".avif": "image/avif",
    ".mp3": "audio/mpeg", ".ogg": "audio/ogg", ".oga": "audio/ogg", ".opus": "audio/ogg",
    ".wav": "audio/wav", ".flac": "audio/flac", ".m4a": "audio/mp4", ".aac": "audio/aac",
    ".mp4": "video/mp4", ".webm": "video/webm",
    ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf", ".otf": "font/otf",
    ".json": "application/json", ".txt": "text/plain", ".md": "text/markdown", ".pdf": "application/pdf",
    ".html": "text/html", ".css": "text/css", ".js": "text/javascript",
}
"""Asset media types by extension (anything else is ``application/octet-stream``)."""

HANDLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
RESERVED_LANDING = frozenset({"packs", "plugins", "plugins-data", "cache", "rooms"})
"""Data-dir folders no validator may land files in."""


def media_type(path: str) -> str:
    suffix = path[path.rfind("."):].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return MEDIA_TYPES.get(suffix, "application/octet-stream")


@dataclass(frozen=True)
class CheckedItem:
    """One item that passed its validator: the declaration and the report."""

    kind: str
    decl: ItemDecl
    report: ContentReport
    lands_in: str | None
    members: tuple[str, ...]
    """The pack files this item ships: its own path when it is a file, then the report's files."""
    label: str = ""
    """Where the manifest declares it: ``contents.<kind>[<index>]``."""

    def built(self) -> BuiltItem:
        """The item as the built manifest records it."""
        r = self.report
        return BuiltItem(path=self.decl.path, notes=self.decl.notes, id=r.id,
                         files=sorted(set(r.files) - {self.decl.path}), detected=dict(r.detected),
                         handles=sorted(r.handles))


@dataclass
class Checked:
    """The outcome of :func:`check_contents`."""

    items: list[CheckedItem] = field(default_factory=list)
    problems: list[LwError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    claims: dict[str, str] = field(default_factory=dict)
    """Pack file -> the item that ships it (``contents.cards[0]``)."""


def missing_validator(kernel: Kernel, kind: str) -> str:
    """Why no validator answers for ``kind``, naming the plugin to install or enable."""
    what = f"contents.{kind}" + (f" ({KNOWN_KINDS[kind]})" if kind in KNOWN_KINDS else "")
    declared = [r for r in kernel.plugins if r.manifest is not None and kind in r.manifest.pack_kinds]
    reasons = []
    for record in declared:
        if record.status == "disabled":
            reasons.append(f"plugin {record.id!r} validates it but is disabled (lw plugins enable {record.id})")
        elif record.status == "error":
            reasons.append(f"plugin {record.id!r} validates it but failed: {record.reason}")
        else:
            reasons.append(f"plugin {record.id!r} declares it in pack_kinds but registered no validator")
    if reasons:
        return f"{what}: no enabled plugin validates this kind; " + "; ".join(reasons)
    message = f"{what}: no installed plugin validates this kind; install one whose manifest declares pack_kinds = [{kind!r}]"
    missing = _missing_bundled()
    if missing:
        message += f" (plugins shipped with Loreweaver that are not installed: {', '.join(missing)})"
    close = difflib.get_close_matches(kind, [*kernel.pack_validators, *KNOWN_KINDS], n=1)
    if close and close[0] != kind:
        message += f"; did you mean {close[0]!r}?"
    return message


def _missing_bundled() -> list[str]:
    names, _ = kernel_bundle()
    return sorted(name for name in names if find(name) is None)


def check_contents(
    kernel: Kernel,
    contents: Mapping[str, Sequence[ItemDecl]],
    files: Any,
    *,
    pack_id: str,
    locate: Locate,
    max_items: int,
) -> Checked:
    """Run each declared item through its kind's validator; collect every problem."""
    out = Checked()
    registry = kernel.pack_validators
    handles: dict[str, str] = {}
    for kind in sorted(contents):
        decls = list(contents[kind])
        if kind not in registry:
            out.problems.append(LwError(missing_validator(kernel, kind), **locate(("contents", kind)), code="validator"))
            continue
        if len(decls) > max_items:
            out.problems.append(LwError(f"contents.{kind} lists {len(decls)} items; the limit is {max_items}",
                                        **locate(("contents", kind)), code="limit"))
            continue
        validator = registry[kind]
        siblings = tuple(d.path for d in decls)
        seen: set[str] = set()
        for index, decl in enumerate(decls):
            label = f"contents.{kind}[{index}]"
            if decl.path in seen:
                out.problems.append(LwError(f"{label}: {decl.path!r} is listed twice", **locate(("contents", kind, index))))
                continue
            seen.add(decl.path)
            options = decl.model_dump(include={"notes"}, exclude_none=True)
            item = PackItem(kind=kind, path=decl.path, options=options, siblings=siblings, files=files,
                            pack_id=pack_id, kernel=kernel)
            report = _run(kernel, registry.origin(kind), validator.validate, item, out.problems)
            if report is None:
                continue
            problems = _report_problems(report, item, files, validator.lands_in)
            if problems:
                out.problems += [LwError(f"{label}: {p}", file=files.display(decl.path), code="validator") for p in problems]
                continue
            own = (decl.path,) if files.is_file(decl.path) else ()
            checked = CheckedItem(kind, decl, report, validator.lands_in,
                                  tuple(dict.fromkeys((*own, *report.files))), label)
            for member in checked.members:
                owner = out.claims.get(member)
                if owner is not None:
                    out.problems.append(LwError(f"{label}: {member!r} is already shipped by {owner}",
                                                file=files.display(member), code="duplicate"))
                out.claims.setdefault(member, label)
            for handle in report.handles:
                if handle in handles:
                    out.problems.append(LwError(f"{label}: the handle {pack_id}#{handle} is also defined by {handles[handle]}",
                                                file=files.display(decl.path), code="duplicate"))
                handles.setdefault(handle, label)
            out.warnings += [f"{files.display(decl.path)}: {w}" for w in report.warnings]
            out.items.append(checked)
    out.problems += landing_problems(out.items, files)
    return out


def landing_problems(items: Sequence[CheckedItem], files: Any) -> list[LwError]:
    """The places the items land files in the data dir (``<lands_in>/<dest>``), held to the
    same rule as the pack's own names (:func:`lwcore.pack.names.clashes`): two files landing at
    one place, also by case or Unicode form, or a file where another needs a folder."""
    landings = [(f"{item.lands_in}/{dest}", item, source)
                for item in items for source, dest in sorted(item.report.lands.items())]
    problems = []
    for index, earlier, why in clashes([target for target, _, _ in landings]):
        target, item, source = landings[index]
        other_target, other, other_source = landings[earlier]
        where = "" if other_target == target else f" at {other_target}"
        problems.append(LwError(
            f"{item.label}: lands {source!r} at {target}, and {other.label} lands {other_source!r}{where}: "
            f"the landing place {why}", file=files.display(source), code="duplicate"))
    return problems


def _run(kernel: Kernel, plugin_id: str, validate: Any, item: PackItem, problems: list[LwError]) -> ContentReport | None:
    try:
        report = resolve(validate)(item)
    except LwErrors as exc:
        problems.extend(exc.errors)
        return None
    except LwError as exc:
        problems.append(exc)
        return None
    except Exception as exc:  # noqa: BLE001 - a validator is plugin code: contain it, name it
        message = f"the {item.kind} validator of plugin {plugin_id!r} failed: {describe_exception(exc)}"
        kernel.plugin_failed(plugin_id, message)
        problems.append(LwError(message, file=item.files.display(item.path), code="validator"))
        return None
    if not isinstance(report, ContentReport):
        message = f"the {item.kind} validator of plugin {plugin_id!r} returned {type(report).__name__}, not a ContentReport"
        kernel.plugin_failed(plugin_id, message)
        problems.append(LwError(message, file=item.files.display(item.path), code="validator"))
        return None
    return report


def _report_problems(report: ContentReport, item: PackItem, files: Any, lands_in: str | None) -> list[str]:
    """What is wrong with a validator's report about ``item`` (its own bug, or a missing file)."""
    problems = []
    if not report.files and not files.is_file(item.path):
        problems.append(f"{item.path!r} is not a file of the pack and the {item.kind} validator ships no files for it")
    for name in report.files:
        problem = name_problem(name)
        if problem:
            problems.append(f"file {name!r} {problem}")
        elif not files.is_file(name):
            problems.append(f"needs {name!r}, which is not in the pack")
    if report.lands and lands_in is None:
        problems.append(f"the {item.kind} validator lands files but names no lands_in folder")
    if lands_in is not None and lands_in in RESERVED_LANDING:
        problems.append(f"the {item.kind} validator may not land files in {lands_in}/")
    for source, dest in report.lands.items():
        if source not in report.files and source != item.path:
            problems.append(f"lands {source!r}, which it does not ship")
        problem = name_problem(dest)
        if problem:
            problems.append(f"landing place {dest!r} {problem}")
    for key, value in report.detected.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, (str, int, float, bool))):
            problems.append(f"detected {key!r} is not a JSON scalar")
    for handle in report.handles:
        if not isinstance(handle, str) or not HANDLE.match(handle):
            problems.append(f"handle {handle!r} is not a stable id (letters, digits, . _ -, at most 64)")
    return problems


def expand_assets(decls: Sequence[AssetDecl], files: Any, *, locate: Locate) -> tuple[list[BuiltAsset], list[LwError]]:
    """The declared assets as files (a folder becomes every file below it, sorted), each with
    its media type; problems for a missing path or a file listed twice."""
    out: dict[str, BuiltAsset] = {}
    problems: list[LwError] = []
    for index, decl in enumerate(decls):
        path = decl.path.rstrip("/")
        if files.is_file(path):
            paths: Sequence[str] = (path,)
        elif files.is_folder(path):
            try:
                paths = files.files_under(path)
            except LwError as exc:
                problems.append(exc)
                continue
        else:
            problems.append(LwError(f"assets[{index}]: {path!r} is not in the pack", **locate(("assets", index, "path")),
                                    code="not_found"))
            continue
        for p in paths:
            if p in out:
                problems.append(LwError(f"assets[{index}]: {p!r} is already listed", **locate(("assets", index)),
                                        code="duplicate"))
                continue
            out[p] = BuiltAsset(path=p, mime=media_type(p), title=decl.title, license=decl.license, tags=list(decl.tags))
    return sorted(out.values(), key=lambda a: a.path), problems


def trust_of(items: Sequence[CheckedItem], assets: Sequence[BuiltAsset], sizes: Mapping[str, int]) -> Trust:
    """The ``trust`` block: counts per kind, the code and budget flags, the media weight."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    reports = [i.report for i in items]
    return Trust(
        counts=dict(sorted(counts.items())),
        world_cards=sum(1 for r in reports if r.world),
        has_hooks=any(r.hooks for r in reports),
        has_ejs=any(r.ejs for r in reports),
        has_rules_script=any(r.rules_script for r in reports),
        prep_scripts=counts.get("prep", 0),
        presets=counts.get("presets", 0),
        panels=sum(r.panels for r in reports),
        presentation_subjects=sum(r.subjects for r in reports),
        imagegen=any(r.imagegen for r in reports),
        assets=len(assets),
        asset_bytes=sum(sizes[a.path] for a in assets),
    )
