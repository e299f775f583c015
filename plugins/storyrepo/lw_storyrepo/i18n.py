"""What ``lw story`` says, in the reader's language (Chinese or English).

The book's own formats stay Chinese whatever the locale (spec §2: cards, reports, commit
messages, every file). The messages *about* the book — errors, repair cards, the state
machine's status lines, confirmations — are written in Chinese in the code (the authors'
language) and translated at the CLI boundary, when the locale is English, by the kernel's
one localisation mechanism (:class:`lwcore.i18n.Translations`, translation by source text).

The tables are data, ``translations/<language>/*.json``: ``en/book.json`` pairs each Chinese
message template with its English one (``{}`` marks a value; ``{0}``, ``{1}`` … in the
English, in the order of the Chinese); a value that is itself a catalogued message (a stage
name, an item kind) is translated too. ``zh/kernel.json`` gives Chinese readers the kernel's
safe readers' English messages, ``zh/help.json`` click's own English words in the help
(see :mod:`lw_storyrepo.clihelp`). A test holds the tables and the code in step: every
message the code can raise or print has an entry.

The locale: ``lw story --locale zh|en``, else the shell's as ``lw pack`` and ``lw seat`` read it
(``LW_LOCALE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, :func:`lwcore.api.pick_locale`; ``zh…`` is
Chinese, anything else English), negotiated by :func:`lwcore.i18n.negotiate`.
"""

from __future__ import annotations

import os
from typing import Mapping

from lwcore.api import negotiate, pick_locale, translations

LOCALES = ("zh", "en")
_locale = "zh"

TRANSLATIONS = translations(__file__, "storyrepo", lists={"en": ("、", ", ")})
"""The tables (``translations/``), read once per process."""

CATALOG: tuple[tuple[str, str], ...] = tuple(TRANSLATIONS.tables["en"].items())
"""Chinese message template -> English (``translations/en/*.json``)."""


def locale_from(environ: Mapping[str, str] = os.environ, explicit: str | None = None) -> str:
    """The locale to speak: ``explicit`` when given, else the shell's, read as every ``lw``
    command reads it (:func:`lwcore.api.pick_locale`: ``LW_LOCALE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; a bare ``C``/``POSIX`` says nothing), Chinese or English."""
    return negotiate(pick_locale(explicit, environ), LOCALES, "en")


def set_locale(locale: str) -> None:
    global _locale
    _locale = locale if locale in LOCALES else "en"


def current() -> str:
    return _locale


def tr(text: str | None, locale: str | None = None) -> str:
    """``text`` in the reader's language (unchanged when it has no entry)."""
    return TRANSLATIONS.translate(text, locale or _locale)


def catalogued(template: str) -> bool:
    """Whether a Chinese message template (``{}`` for its values) has an English entry."""
    return template in TRANSLATIONS.tables["en"]
