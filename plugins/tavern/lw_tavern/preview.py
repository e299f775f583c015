"""``lw tavern inspect``: what a file holds and what each kind of import would make of it.

The answer comes from the import itself: the file is read like an import reads it
(:func:`lw_tavern.cardfile.read_material`) and :func:`lw_tavern.room.imports.plan_import` plans a
``pc``, a ``companion`` and a ``world`` import of it without a room. So what inspect says an
import keeps (``+``), strips (``-``) and changes at the trust boundary (``~``: constant turned
off, render entries disabled, secrets kept keeper-only, ids regenerated …) is what that import
does. A kind the file cannot be imported as (a world book on its own as a person, a broken
variable declaration in a world) shows why it is refused; a file nothing can read is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lw_tavern.card_split import HOOKS_EXTENSION, is_render_only, split_card
from lw_tavern.cardfile import book_of, read_material
from lw_tavern.mvu.initvar import is_declaration
from lw_tavern.room.imports import KINDS, Source, pack_id_of, plan_import, report_lines
from lwcore.api import LwError, detect_spec

WHO = {"pc": "anyone, for themselves (the keeper: for a member)",
       "companion": "anyone; the keeper plays it",
       "world": "the keeper only, never a model tool"}


@dataclass
class Preview:
    """A file as the importer reads it, and the plan (or the refusal) of each kind."""

    name: str
    format: str
    container: str
    holds: dict[str, Any]
    plans: dict[str, Any] = field(default_factory=dict)
    """``kind -> ImportPlan``, or the :class:`LwError` that refuses that kind."""


def preview(path: str | Path) -> Preview:
    """Read ``path`` and plan every kind of import of it (nothing is written)."""
    material = read_material(path)
    book = book_of(material, path)
    split = split_card(material.card)
    native = material.native
    if native is not None:
        fmt = f"lorecard-v{native.format_version}"
    elif material.book_only:
        fmt = "worldinfo" if book.source == "worldinfo" else "character_book"
    else:
        fmt = detect_spec(material.card) or "card"
    entries = book.entries
    holds = {
        "book_entries": len(entries),
        "constant": sum(e.constant for e in entries),
        "secret": sum(e.secret for e in entries),
        "render_only": sum(is_render_only(e) for e in entries),
        "variable_declarations": sum(is_declaration(e) for e in entries),
        "hooks": len(split.world.hooks),
        "typed_variables": len(native.variables) if native is not None else 0,
        "pregens": len(native.pregens) if native is not None else 0,
        "script_extensions": sorted(k for k in split.world.extensions if k != HOOKS_EXTENSION),
    }
    out = Preview(str(split.person.get("name") or ""), fmt, material.container, holds)
    source = Source(Path(path), pack_id_of(str(path)), str(path))
    for kind in KINDS:
        try:
            out.plans[kind] = plan_import(None, material, source, kind)
        except LwError as exc:
            out.plans[kind] = exc
    return out


def as_json(found: Preview) -> dict[str, Any]:
    """The preview as JSON: ``imports.<kind>`` has ``keeps``, ``strips``, ``changes``,
    ``warnings`` (or ``refused``) and ``who`` may run it."""
    imports: dict[str, Any] = {}
    for kind, plan in found.plans.items():
        if isinstance(plan, LwError):
            imports[kind] = {"who": WHO[kind], "refused": str(plan)}
            continue
        imports[kind] = {
            "who": WHO[kind], "keeps": list(plan.report.carried),
            "strips": [{"what": d.field, "why": d.reason} for d in plan.report.dropped],
            "changes": [{"what": d.field, "why": d.reason} for d in plan.changed],
            "warnings": list(plan.report.warnings),
        }
    return {"name": found.name, "format": found.format, "container": found.container, "holds": found.holds,
            "imports": imports}


def as_lines(found: Preview) -> list[str]:
    """The preview as text, each plan as the room's import report writes it."""
    h = found.holds
    marks = [f"{h[k]} {label}" for k, label in (("constant", "constant"), ("secret", "keeper-only"),
                                                 ("render_only", "front-end")) if h[k]]
    held = [f"{h['book_entries']} book entries" + (f" ({', '.join(marks)})" if marks else "")]
    held += [f"{h[k]} {label}" for k, label in (("hooks", "hook script(s)"), ("variable_declarations",
             "variable declaration(s)"), ("typed_variables", "typed variable(s)"), ("pregens", "pregen(s)")) if h[k]]
    if h["script_extensions"]:
        held.append("SillyTavern script extensions: " + ", ".join(h["script_extensions"]))
    lines = [f"card: {found.name or '(no name)'}  [{found.format}, {found.container}]", "holds: " + ", ".join(held)]
    for kind, plan in found.plans.items():
        lines.append(f"as {kind} — {WHO[kind]}:")
        if isinstance(plan, LwError):
            lines.append(f"  refused: {plan}")
        else:
            lines += report_lines(plan, for_keeper=True)
    return lines
