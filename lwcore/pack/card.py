"""What a person is told about a pack, in their language: the trust card and the refusals.

The trust card is disclosure, not a gate: what is inside (counts per kind), whether it ships
code that runs in the sandbox (hooks JS, EJS templates, rules scripts, prep scripts), whether a
presentation kit may spend the operator's image budget, and how heavy its media is. The same
lines go to a terminal before the operator confirms and into a room's receipt.

Messages are the kernel catalogue's ``pack.*`` (:mod:`lwcore.i18n`); any other locale reads English.
"""

from __future__ import annotations

from collections.abc import Mapping

from lwcore.contributions import localized
from lwcore.i18n import kernel_catalogue, kernel_text
from lwcore.pack.contents import KNOWN_KINDS, media_type
from lwcore.pack.manifest import BuiltManifest, FileRecord

def message(name: str, locale: str, /, **values: object) -> str:
    """The kernel catalogue's message ``pack.<name>`` in ``locale``, filled in."""
    return kernel_text(f"pack.{name}", locale, **values)


def kind_word(kind: str, locale: str) -> str:
    """What a person calls the contents of ``kind`` (the kind's own name when uncatalogued)."""
    return kernel_text(f"pack.kind.{kind}", locale) if f"pack.kind.{kind}" in kernel_catalogue() else kind


def pick_locale(explicit: str | None, env: Mapping[str, str]) -> str:
    """The locale to speak: ``explicit``, else ``LW_LOCALE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    (``zh_CN.UTF-8`` -> ``zh-CN``), else English."""
    for value in (explicit, env.get("LW_LOCALE"), env.get("LC_ALL"), env.get("LC_MESSAGES"), env.get("LANG")):
        if value and value not in ("C", "POSIX"):
            return value.split(".")[0].replace("_", "-")
    return "en"


def trust_card(manifest: BuiltManifest, locale: str) -> list[str]:
    """The trust card of a built pack, one line each."""
    t = manifest.trust
    yes, no = message("yes", locale), message("no", locale)
    flag = {True: yes, False: no}
    name = manifest.title(locale)
    lines = [message("header", locale, name=name, key=manifest.key)]
    description = manifest.description if isinstance(manifest.description, str) else localized(manifest.description, locale)
    lines.append(description)
    lines.append(message("by", locale, authors=", ".join(manifest.authors) or "-", license=manifest.license or "-"))
    items = message("list_separator", locale).join(f"{count} {kind_word(kind, locale)}"
                      for kind, count in t.counts.items()) or message("nothing", locale)
    lines.append(message("contains", locale, items=items))
    lines.append(message("code", locale, hooks=flag[t.has_hooks], ejs=flag[t.has_ejs], rules=flag[t.has_rules_script],
                         prep=t.prep_scripts or no))
    if t.has_rules_script:
        lines.append(message("rules_script", locale))
    if t.world_cards:
        lines.append(message("world_cards", locale, count=t.world_cards))
    if t.presets:
        lines.append(message("presets", locale, count=t.presets))
    if t.presentation_subjects:
        lines.append(message("imagegen" if t.imagegen else "pack_only", locale, count=t.presentation_subjects))
    media, views = _media_files(manifest)
    lines.append(message("media", locale, count=len(media), size=_size(sum(f.size for f in media))))
    if views:
        lines.append(message("views", locale, count=len(views), size=_size(sum(f.size for f in views))))
    for kind, items_ in sorted(manifest.contents.items()):
        for item in items_:
            if item.notes is not None:
                notes = item.notes if isinstance(item.notes, str) else localized(item.notes, locale)
                lines.append(f"{item.path}: {notes}")
    return lines


__all__ = ["KNOWN_KINDS", "kind_word", "message", "pick_locale", "trust_card"]


_MEDIA = ("image/", "audio/", "video/", "font/")
_VIEW_CODE = ("text/html", "text/javascript", "text/css")


def _media_files(manifest: BuiltManifest) -> tuple[list[FileRecord], list[FileRecord]]:
    """Every file of the archive that is media by its type (pictures, sound, video, fonts:
    declared assets, panels' and presentation kits' files alike), and the panels' browser code
    (HTML, JS, CSS: what a tier-2 view runs in its sandboxed frame; a hook's or a prep script's
    JavaScript runs in the sandbox and is on the code line)."""
    media = [f for f in manifest.files if media_type(f.path).startswith(_MEDIA)]
    panel_files = {path for item in manifest.contents.get("panels", ()) for path in item.files}
    views = [f for f in manifest.files if f.path in panel_files and media_type(f.path) in _VIEW_CODE]
    return media, views


def _size(total: int) -> str:
    return f"{total / 1_000_000:.1f} MB" if total >= 100_000 else f"{total / 1000:.1f} KB"
