"""What a turn did, as typed events: each has a ``kind``, an ``audience``, a ``summary`` and its fields.

Tools, hook scripts, staged writes, reply processors and the tool loop report what they did as
:class:`Event` objects; the turn records each as a history entry (``role: event``) whose
``data`` is :meth:`Event.data` and whose text is :meth:`Event.history_text`. Reading a history entry
back (:attr:`lwcore.turn.history.HistoryEntry.event`) gives the same typed object
(:func:`event_from_data`), so rooms written before these types existed read back unchanged.

The kinds the kernel makes have a class each; an event of any other kind (a plugin tool's
``{"kind": "forge", …}``, a line of an older room) is a plain :class:`Event` keeping its
other fields in ``fields``. ``audience`` is ``all`` or ``keeper``; who may read an event is
decided by the history's projection (:mod:`lwcore.turn.projections`), never here.

Plugin tool handlers may still append a mapping to ``ToolContext.events``: :class:`Events`
turns it into its typed event on the way in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, SupportsIndex

Audience = Literal["all", "keeper"]


@dataclass(frozen=True, kw_only=True)
class Event:
    """An event: ``kind``, ``audience``, ``summary``, and in ``fields`` whatever it carries
    beyond its class's own fields (for a kind the kernel has no class for -- a plugin's, an
    older room's --, all of them, in their order)."""

    kind: str
    audience: Audience = "all"
    summary: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)

    STATES_AUDIENCE: ClassVar[bool] = True
    """Whether its history entry states its audience (a narration's roll never did: ``all``)."""

    def data(self) -> dict[str, Any]:
        """The history entry's ``data``: ``kind``, ``audience``, ``summary`` and the fields."""
        return {"kind": self.kind, "audience": self.audience, "summary": self.summary, **self.fields}

    def history_text(self) -> str:
        """The history line: the summary, else the event's data as JSON (without its audience)."""
        if self.summary:
            return self.summary
        return json.dumps({k: v for k, v in self.data().items() if k != "audience"}, ensure_ascii=False)

    def hook_payload(self) -> dict[str, Any]:
        """What a hook script's ``dice_rolled`` handler is given for this event: its data
        without the audience."""
        return {k: v for k, v in self.data().items() if k != "audience"}


@dataclass(frozen=True, kw_only=True)
class VariableChanged(Event):
    """A declared module variable changed (or was declared): ``id``, the value ``before`` and
    now, the clamp ``note`` when the value was pulled into range, ``by`` (a script's writer)."""

    kind: str = field(default="variable", init=False)
    id: str
    before: Any = None
    value: Any = None
    note: str | None = None
    by: str | None = None

    def data(self) -> dict[str, Any]:
        out = {"kind": self.kind, "id": self.id, "before": self.before, "value": self.value,
               "audience": self.audience, "summary": self.summary}
        if self.note:
            out["note"] = self.note
        if self.by is not None:
            out["by"] = self.by
        return {**out, **self.fields}


@dataclass(frozen=True, kw_only=True)
class VariableRefused(Event):
    """A script's write to a declared variable was refused: ``op`` (``setvar``/``incvar``),
    ``by`` the writer, ``where`` the script and line that asked."""

    kind: str = field(default="variable_refused", init=False)
    audience: Audience = "keeper"
    id: str
    op: str
    by: str
    where: str | None = None

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "id": self.id, "op": self.op, "by": self.by,
                **({"where": self.where} if self.where else {}), "summary": self.summary, **self.fields}


@dataclass(frozen=True, kw_only=True)
class CheckRolled(Event):
    """A graded ``skill_check``: ``result`` is the tool's result (character, skill, roll,
    target, rank …), the data the history keeps to rebuild the line in a reader's locale."""

    kind: str = field(default="check", init=False)
    result: Mapping[str, Any]

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "summary": self.summary, **self.result}

    def history_text(self) -> str:
        if self.summary:
            return self.summary
        result = self.result
        parts = [str(result.get("character", "")), str(result.get("skill", ""))]
        roll, target = result.get("roll"), result.get("target")
        figures = f"{roll}/{target}" if roll is not None and target is not None else ""
        rank = result.get("rank_label") or result.get("rank") or ""
        return " ".join(p for p in (*parts, figures, f"→ {rank}" if rank else "") if p)


@dataclass(frozen=True, kw_only=True)
class SubsystemRan(Event):
    """A ``subsystem_check``: ``result`` is the tool's result (the subsystem's outcome, values,
    changes, flags, rolls …). The result names the subsystem's own ``kind`` (``loss``,
    ``opposed`` …), which is what its history data has always stored under ``kind``; such data
    is read back as this class by its shape (:func:`is_subsystem_data`)."""

    kind: str = field(default="subsystem", init=False)
    result: Mapping[str, Any]

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "summary": self.summary, **self.result}


@dataclass(frozen=True, kw_only=True)
class TreeChanged(Event):
    """An operation on the room's MVU variable tree was made: ``op``, ``path``, the value
    ``before`` and now, ``by`` the writer."""

    kind: str = field(default="tree", init=False)
    audience: Audience = "keeper"
    op: str
    path: str
    before: Any = None
    value: Any = None
    by: str = ""

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "op": self.op, "path": self.path, "before": self.before,
                "value": self.value, "by": self.by, "summary": self.summary, **self.fields}


@dataclass(frozen=True, kw_only=True)
class TreeRefused(Event):
    """An operation on the MVU tree was refused (the summary says why)."""

    kind: str = field(default="tree_refused", init=False)
    audience: Audience = "keeper"
    op: str
    path: str
    by: str = ""

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "op": self.op, "path": self.path, "by": self.by,
                "summary": self.summary, **self.fields}


@dataclass(frozen=True, kw_only=True)
class Rolled(Event):
    """A ``{{roll:EXPR}}`` macro of the narration, rolled by the engine: ``roll`` is the dice
    roll as JSON (``expr``, ``total`` …). Its history data is the roll itself (no audience or
    summary: every seat reads it, as ``expr = total``)."""

    kind: str = field(default="roll", init=False)
    roll: Mapping[str, Any]

    STATES_AUDIENCE: ClassVar[bool] = False

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.roll}

    def history_text(self) -> str:
        return f"{self.roll['expr']} = {self.roll['total']}"

    def hook_payload(self) -> dict[str, Any]:
        return self.data()


@dataclass(frozen=True, kw_only=True)
class KeeperNote(Event):
    """A line for the keeper alone about how the turn went (a hook's log, a refused staged
    write, a reply processor's note, the tool loop running out of steps …). ``kind`` says
    which; ``by``, ``plugin`` and ``script`` name who it is about when known."""

    audience: Audience = "keeper"
    by: str | None = None
    plugin: str | None = None
    script: str | None = None

    def data(self) -> dict[str, Any]:
        """``kind``, ``audience``, the writer (``by``, or the ``plugin`` alone) before the
        summary, a script's ``plugin`` and ``script`` after it: the order these lines have
        always had in the history."""
        before = {k: v for k, v in (("by", self.by), ("plugin", self.plugin if self.script is None else None))
                  if v is not None}
        after = {"plugin": self.plugin, "script": self.script} if self.script is not None else {}
        return {"kind": self.kind, "audience": self.audience, **before, "summary": self.summary,
                **{k: v for k, v in after.items() if v is not None}, **self.fields}


@dataclass(frozen=True, kw_only=True)
class FoldDue(Event):
    """The chronicle should fold (the prompt is ``fullness`` of the window) but no model was
    there to fold with. Its history data is the kind and the fullness; the summary is its line."""

    kind: str = field(default="fold_due", init=False)
    audience: Audience = "keeper"
    fullness: float

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "fullness": self.fullness, **self.fields}


@dataclass(frozen=True, kw_only=True)
class CommandRan(Event):
    """A room command's reply recorded for the table (or the keeper): the ``command`` word,
    the ``line`` as typed and the command's ``result`` data; the summary is the reply text."""

    kind: str = field(default="command", init=False)
    command: str
    line: str
    result: Mapping[str, Any] | None = None
    said: Mapping[str, Any] | None = None
    """The reply as a catalogued message (:class:`lwcore.i18n.Said`), read in each reader's language."""

    def data(self) -> dict[str, Any]:
        said = {"said": self.said} if self.said is not None else {}
        return {"kind": self.kind, "command": self.command, "line": self.line, "result": self.result, **said,
                **self.fields}

    def history_text(self) -> str:
        return self.summary


NOTE_KINDS = frozenset({
    "memory", "loop", "staged_refused", "reply_note", "reply_processor_failed", "hook_log", "hook_failed",
    "hook_withheld", "prep_plan",
})
"""The kinds the kernel records as :class:`KeeperNote`."""

_CLASSES: dict[str, type[Event]] = {
    "variable": VariableChanged, "variable_refused": VariableRefused, "check": CheckRolled,
    "subsystem": SubsystemRan, "tree": TreeChanged, "tree_refused": TreeRefused, "roll": Rolled,
    "fold_due": FoldDue, "command": CommandRan,
}
_RESULT = {CheckRolled, SubsystemRan}
_BASE = ("kind", "audience", "summary")


def is_subsystem_data(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` has a subsystem result's shape (a subsystem name, an outcome, values)."""
    return isinstance(data.get("subsystem"), str) and "outcome" in data and isinstance(data.get("values"), Mapping)


def event_from_data(data: Mapping[str, Any]) -> Event:
    """The typed event of a history entry's ``data`` (or of a mapping a plugin tool appended):
    the class of its kind when the data fits it, else a plain :class:`Event` keeping it all.
    ``event_from_data(e.data()).data() == e.data()`` for every event the kernel makes."""
    kind = str(data.get("kind", ""))
    cls = _CLASSES.get(kind)
    stated = data.get("audience")
    audience: Audience = "all" if stated == "all" else "keeper" if stated is not None else _default_audience(cls)
    summary = data.get("summary")
    summary = summary if isinstance(summary, str) else ""
    rest = {k: v for k, v in data.items() if k not in _BASE}
    try:
        if cls is Rolled:
            return Rolled(roll={k: v for k, v in data.items() if k != "kind"})
        if cls in _RESULT:
            return cls(audience=audience, summary=summary, result=rest)  # type: ignore[call-arg]  # every class in _RESULT takes result=; mypy sees the union of all event classes
        if cls is not None:
            own = [f.name for f in fields(cls) if f.name not in (*_BASE, "fields")]
            mine = {k: rest.pop(k) for k in own if k in rest}
            return cls(audience=audience, summary=summary, fields=rest, **mine)
        if is_subsystem_data(data):
            return SubsystemRan(audience=audience, summary=summary,
                                result={k: v for k, v in data.items() if k not in ("audience", "summary")})
        if kind in NOTE_KINDS:
            named = {k: rest.pop(k) for k in ("by", "plugin", "script") if isinstance(rest.get(k), str)}
            return KeeperNote(kind=kind, audience=audience, summary=summary, fields=rest, **named)
    except TypeError:  # the data lacks a field its class needs: kept as a plain event
        rest = {k: v for k, v in data.items() if k not in _BASE}
    return Event(kind=kind, audience=audience, summary=summary, fields=rest)


def _default_audience(cls: type[Event] | None) -> Audience:
    """Who an event whose data states no audience is for: its class's default (``all``)."""
    default = next((f.default for f in fields(cls) if f.name == "audience"), "all") if cls is not None else "all"
    return "keeper" if default == "keeper" else "all"


def as_event(event: Event | Mapping[str, Any]) -> Event:
    """``event`` itself, or the typed event of a mapping (:func:`event_from_data`)."""
    return event if isinstance(event, Event) else event_from_data(event)


class Events(list[Event]):
    """A turn's events in order. A mapping added (a plugin tool's ``{"kind": …}``) is turned
    into its typed event (:func:`as_event`), so every reader gets :class:`Event` objects."""

    def __init__(self, events: Iterable[Event | Mapping[str, Any]] = ()) -> None:
        super().__init__(as_event(e) for e in events)

    def append(self, event: Event | Mapping[str, Any]) -> None:
        super().append(as_event(event))

    def extend(self, events: Iterable[Event | Mapping[str, Any]]) -> None:
        super().extend(as_event(e) for e in events)

    def insert(self, index: SupportsIndex, event: Event | Mapping[str, Any]) -> None:
        super().insert(index, as_event(event))

    def __iadd__(self, events: Iterable[Event | Mapping[str, Any]]) -> Events:  # type: ignore[override,misc]  # takes what append takes, as list's += takes any iterable
        self.extend(events)
        return self
