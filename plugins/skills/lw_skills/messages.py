"""The skills plugin's messages (``locales/<language>/*.json``), read through :mod:`lwcore.i18n`."""

from __future__ import annotations

from lwcore.api import catalogue

MESSAGES = catalogue(__file__)
