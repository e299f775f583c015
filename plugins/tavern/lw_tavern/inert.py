"""Inert text: what a person import brings into a room is data, never a program.

A ``pc`` or ``companion`` import is a player's upload (the keeper importing a person for a
member imports the same kind of file). The rule is structural, not one more strip: every text
such an import stores -- the name, description, personality, scenario, greeting, examples,
every book entry's title, keys and content, anything else it keeps -- is **inert**, however
it is later substituted:

- it is never handed to a template engine (the full EJS mode, the read-only subset), never
  evaluated as an ``@@if`` condition (the import keeps none: :func:`lw_tavern.card_split.import_entries`),
  and its macros do not run: only the name macros ``{{user}}`` and ``{{char}}`` and the
  formatting ones (``{{newline}}``, ``{{trim}}``, ``{{// …}}``) are substituted
  (:func:`lw_tavern.ejs.macros.substitute` with ``MacroContext.inert``); every other macro --
  ``{{getvar::…}}``, ``{{setvar::…}}``, ``{{random::…}}``, ``{{roll:…}}``, ``{{outlet::…}}`` --
  reaches the model as the text it is;
- what is substituted *into* any text from a person (a member's character name, which a pc
  import sets; a companion's name) is inert too;
- no reply parser reads it: ``<UpdateVariable>`` blocks are parsed in the model's reply only.

Inert text is placed in the prompt :func:`protect`-ed (its ``{{`` is replaced by
:data:`MARK`), so no later pass over the placed text (``{{outlet::…}}``) can read macro
syntax in it; :func:`restore` gives every segment back byte for byte once the last pass is
done. ``MARK`` is a Unicode noncharacter (reserved for a program's internal use); one that
some text already holds comes out as ``{{`` -- after every pass, so it is only text.

Which texts are inert is decided by where they came from, never by what they say: a
world-book entry is live (its templates and conditions run) only when its import is a keeper's
world import (:func:`is_live_pack`: ``world:<pack>``); any other -- ``pc:<member>``,
``companion:<pack>``, or a pack key that is missing or unknown -- is inert. A ``companion``
document only ever comes from a person import: always inert.
"""

from __future__ import annotations

from typing import Any

MARK = "\ufdd0"
"""What ``{{`` becomes in inert text while the prompt is being assembled."""
LIVE_PREFIX = "world:"


def is_live_pack(pack: Any) -> bool:
    """Whether entries of the import keyed ``pack`` may run templates and conditions: only a
    keeper's world import (``world:<pack-id>``). Fails closed: anything else is inert."""
    return isinstance(pack, str) and pack.startswith(LIVE_PREFIX) and len(pack) > len(LIVE_PREFIX)


def protect(text: str) -> str:
    """``text`` with no macro syntax any later pass could read (see the module docstring)."""
    return text.replace("{{", MARK) if "{{" in text else text


def protect_name(name: str | None) -> str | None:
    """A name substituted into text: inert (:func:`protect`); ``None`` stays ``None``."""
    return None if name is None else protect(name)


def restore(text: str) -> str:
    """Text back as written once every pass over it is done (:data:`MARK` -> ``{{``)."""
    return text.replace(MARK, "{{") if MARK in text else text
