"""What a player panel may not say: the names and the values of keeper-only variables.

A panel that ships to players (``audience: all`` or ``player``) ships its whole definition:
every condition string, every binding, every repeat prefix, every text, whether or not a
block is shown. So, against the room's keeper-only variables (:func:`lw_panels.variables.keeper_only`):

- **names** (:func:`name_problems`): a condition reading a keeper-only id (or a name above
  one: ``mvu.内部`` of ``mvu.内部.真凶``), a ``{$var}`` binding one, a repeat prefix only
  keeper-only variables start with;
- **values** (:func:`value_problems`): a condition comparing with a text literal that holds a
  keeper-only variable's current text value (``culprit === '顾晚棠'``), or a text of the
  panel holding one (:meth:`lwcore.turn.leaks.KeeperOnly.said_in`, the kernel's one leak
  check: a hook's ``narrate``/``emitUI`` output gets it too, and :func:`payload_problem` runs
  it on an ``emitPanel`` payload for a player panel when the hook sends it).

Names are checked whenever a manifest is built (a variable made keeper-only later takes the
panel out of the players' manifests); values only when the keeper enables the pack or an
author checks it (``lw panels check``) -- re-checking values per turn would make a panel
appear and vanish as a secret changes, which tells players the secret.

Numbers and bools are not compared as values: a gauge gated on ``day >= 3`` must not be
refused because some keeper-only counter also reads 3. Only texts identify a secret (the
rules: :mod:`lwcore.turn.leaks`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lw_panels.projection import player_facing
from lwcore.api import LwError, condition as cond

if TYPE_CHECKING:
    from lw_panels.load import Panel
    from lw_panels.variables import Secrets


def _located(reference: Any, message: str) -> LwError:
    where = reference.where
    error = LwError(message, file=where.file, line=where.line, column=where.column, code="leak")
    error.secret = True  # it names keeper-only data: for the keeper's eyes
    return error


def name_problems(panel: Panel, secrets: Secrets) -> list[LwError]:
    """Where player panel ``panel`` names a keeper-only variable (empty for keeper panels)."""
    if not player_facing(panel) or not secrets.ids:
        return []
    problems = []
    for ref in panel.references:
        if ref.kind == "condition":
            for name in cond.names(ref.value):
                if secrets.names(name.id):
                    problems.append(_located(ref, f"{panel.ref}: visible_when names {name.id!r}, a keeper-only "
                                                  "variable; the condition ships to every player (gate on a "
                                                  "player-visible consequence instead)"))
        elif ref.kind == "binding" and secrets.names(ref.value):
            problems.append(_located(ref, f"{panel.ref}: {{$var: {ref.value}}} names a keeper-only variable in a "
                                          "panel players receive"))
        elif ref.kind == "prefix" and secrets.only_prefix(ref.value):
            problems.append(_located(ref, f"{panel.ref}: repeat prefix {ref.value!r} matches only keeper-only "
                                          "variables"))
    return problems


def names_a_secret(panel: Panel, secrets: Secrets) -> bool:
    """:func:`name_problems` as a yes or no, from what the panel names (computed at load):
    what a manifest asks for every player panel."""
    if not player_facing(panel) or not secrets.ids:
        return False
    return bool(panel.named & secrets.named) or any(secrets.only_prefix(p) for p in panel.prefixes)


def value_problems(panel: Panel, secrets: Secrets) -> list[LwError]:
    """Where player panel ``panel`` says a keeper-only text value (:meth:`lwcore.turn.leaks.KeeperOnly.said_in`:
    the same check a hook's player-bound output gets)."""
    if not player_facing(panel) or not secrets.texts:
        return []
    problems = []
    for ref in panel.references:
        if ref.kind == "condition":
            for literal in cond.compared_literals(ref.value):
                if isinstance(literal, str) and secrets.said_in(literal):
                    problems.append(_located(ref, f"{panel.ref}: visible_when compares with {literal!r}, the value "
                                                  "of a keeper-only variable; the condition ships to every player"))
        elif ref.kind == "text" and secrets.said_in(ref.value):
            problems.append(_located(ref, f"{panel.ref}: the text {ref.value!r} holds the value of a keeper-only "
                                          "variable, in a panel players receive"))
    return problems


def payload_problem(panel: Panel, payload: object, secrets: Secrets) -> str | None:
    """Why a hook's ``emitPanel`` payload may not go to player panel ``panel`` (it holds the
    current value of a keeper-only variable), or ``None``; a keeper panel may show anything."""
    said = secrets.said_in(payload) if player_facing(panel) else []
    if not said:
        return None
    return (f"the payload holds the current value of keeper-only {', '.join(repr(s) for s in said)}, and "
            f"{panel.ref} is a panel players receive; withheld")


def problems(panels: list[Panel] | tuple[Panel, ...], secrets: Secrets) -> list[LwError]:
    """Every name and value problem of ``panels`` (what ``.panels enable`` refuses)."""
    out: list[LwError] = []
    for panel in panels:
        out += name_problems(panel, secrets) + value_problems(panel, secrets)
    return out
