"""A script's variable writes made by engine code: the one path of every ``setvar``/``incvar``.

Hook scripts (:mod:`lwcore.turn.hook_runtime`) and templates (a plugin stages theirs:
:meth:`lwcore.turn.staged.StagedWrites.variables`) only *ask*; :func:`apply_write` decides,
as iron rule 1 says: a one-key path naming a declared module variable goes through that
variable's check (:func:`lwcore.turn.variables.check_value` with ``exact``: the value must
already be of the variable's kind, numbers are clamped into its bounds, texts cut at its
length); any other path is a leaf of the room's variable tree (``setvar`` puts, creating branches;
``incvar`` adds to the number there or starts one) -- but never one under a declared
variable's id (``setvar('cult_alert.x', 1)``): the tree does not shadow a declared variable
(:func:`lwcore.turn.tree.apply_changes` refuses it, a keeper-only ``tree_refused`` event).

A refused write changes nothing and becomes a keeper-only ``variable_refused`` event that
says where it was asked (the script and line) and why; a made one is the ``variable`` event
of the declared variable (seen by whoever may see the variable) or the tree's ``tree`` event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lwcore.contributions import VariableWrite
from lwcore.turn import tree
from lwcore.turn.events import Event, VariableChanged, VariableRefused, as_event
from lwcore.turn.projections import variable_audience
from lwcore.turn.variables import VariableDef, VariableError, check_value, describe_value

if TYPE_CHECKING:
    from lwcore.turn.room import Room


def writes_from(effects: Iterable[Any], *, where: str = "") -> list[VariableWrite]:
    """The ``setvar``/``incvar`` effects of a sandbox run (:mod:`lwcore.sandbox.effects`) as
    writes asked at ``where`` (each keeps the line that emitted it); other effects are left out."""
    out = []
    for effect in effects:
        if effect.kind == "setvar":
            out.append(VariableWrite("setvar", tuple(effect.path), effect.value, where, effect.line))
        elif effect.kind == "incvar":
            out.append(VariableWrite("incvar", tuple(effect.path), effect.by, where, effect.line))
    return out


def checked(var: VariableDef, write: VariableWrite) -> tuple[Any, str | None]:
    """``(stored value, note)`` of ``write`` on the declared ``var``; :class:`VariableError`
    when it is refused (a wrong type; ``incvar`` on anything but a number)."""
    if write.op == "incvar":
        if var.kind != "number":
            raise VariableError(f"{var.id} is not a number ({var.kind}); incvar adds to a number")
        if isinstance(write.value, bool) or not isinstance(write.value, (int, float)):
            raise VariableError(f"{var.id} is a number; incvar adds a number to it, got {describe_value(write.value)}")
        return check_value(var, float(var.value) + write.value, exact=True)
    return check_value(var, write.value, exact=True)


def located(write: VariableWrite) -> str:
    """Where ``write`` was asked: ``script:line``, the script alone, or ``""``."""
    if write.line is not None and write.where:
        return f"{write.where}:{write.line}"
    return write.where


def apply_write(room: Room, write: VariableWrite, *, by: str) -> list[Event]:
    """Make ``write`` on ``room`` (in memory; the caller saves) and return the events the turn
    records (see the module docstring); ``by`` names the writer in each event."""
    var = room.variable(write.path[0]) if len(write.path) == 1 else None
    if var is not None:
        try:
            stored, note = checked(var, write)
        except VariableError as exc:
            where = located(write)
            return [VariableRefused(id=var.id, op=write.op, by=by, where=where or None,
                                    summary=f"{where or by}: {write.op}({var.id}) refused: {exc}")]
        before = var.value
        var.value = stored
        room.mark("variables")
        return [VariableChanged(id=var.id, before=before, value=stored, audience=variable_audience(var),
                                summary=f"{var.id}: {before} → {stored}" if before is not None
                                else f"{var.id} = {stored}", note=note or None, by=by)]
    path = tree.show_path(list(write.path))
    if write.op == "setvar":
        change = tree.put(path, write.value, reason=located(write))
    else:
        change = tree.add(path, write.value, reason=located(write))
    return [as_event(event) for event in tree.apply_changes(room, [change], by=by)]
