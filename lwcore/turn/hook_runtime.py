"""The turn's event hooks (C.1): every room script in its own sandbox session, its requested
effects checked, clamped and applied by engine code.

A turn collects the hook scripts plugins contribute for its room
(``Kernel.turn_scripts``: a skill's ``hooks.js``, a world card's hooks), opens one
:class:`lwcore.sandbox.HookSession` per script, and fires the events in order:

- ``turn_start`` (before the keeper's prompt is built): ``inject`` adds text to this turn's
  prompt;
- ``dice_rolled``, once per check or subsystem the turn rolled (a room command fires it too,
  once per roll it made: :func:`lwcore.turn.room_commands._fire_rolls`);
- ``variables_changed`` when any variable changed (at most once a turn: cascades end);
- ``reply_ready`` with the narration: ``rewriteReply`` replaces it, ``narrate`` appends.

Iron rule 1: ``setvar``/``incvar`` are made by :func:`lwcore.turn.script_writes.apply_write`
(the one path of every script's writes, templates' too): on a declared module variable they go
through its type and bounds, a wrong type refused and logged for the keeper with the script's
line; any other name is a leaf of the room's MVU tree. ``log`` is a keeper-only line; ``emitUI`` blocks are kept for this turn (players
see them); ``emitPanel`` payloads go to a ``panel_payload`` document when a plugin registered
that type (its write check decides, per panel, who sees it). A script that fails is disabled
for the rest of the turn and logged once for the keeper; the turn goes on.

What reaches every seat -- ``narrate``, ``rewriteReply``, ``emitUI`` -- is held to the kernel's
one leak check (:meth:`lwcore.turn.leaks.KeeperOnly.said_in`, against the keeper-only values as
they are at that moment): an emission holding a keeper-only variable's current text is withheld
and logged for the keeper (``hook_withheld``, naming the variable, never its value). A
``rewriteReply`` is judged on what it adds: a value the narration it replaces already held is
the model's, not the hook's. The panels plugin runs the same check on an ``emitPanel`` payload
for a player panel.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from lwcore.contributions import TurnContext
from lwcore.errors import LwError
from lwcore.sandbox import HookSession
from lwcore.sandbox.switch import REASON as JS_OFF
from lwcore.sandbox.switch import js_enabled
from lwcore.turn import tree
from lwcore.turn.documents import Document
from lwcore.turn.events import Event, Events, KeeperNote
from lwcore.turn.leaks import keeper_only
from lwcore.turn.script_writes import apply_write, writes_from

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.turn.room import Room



def game_clock(room: Room) -> datetime:
    """The room's game clock (``clock:`` in ``room.yaml``, ISO 8601), else the epoch: hooks
    and macros never see the host's time."""
    raw = room.file.clock
    if raw:
        try:
            moment = datetime.fromisoformat(raw)
            return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        except ValueError:
            raise LwError(f"clock {raw!r} is not an ISO 8601 date-time", file=room.path / "room.yaml") from None
    return datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass
class _Script:
    plugin: str
    id: str
    origin: str
    session: Any


@dataclass
class TurnHooks:
    """One turn's hook sessions and what their effects asked for that is not state."""

    kernel: Kernel
    room: Room
    scripts: list[_Script] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)
    """What ``inject`` added (the turn's context's ``injected``: the prompt reads it there)."""
    narrated: list[str] = field(default_factory=list)
    rewrite: str | None = None
    ui: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=Events)
    dropped: tuple[str, ...] = ()

    @classmethod
    def start(cls, kernel: Kernel, room: Room, context: TurnContext, rng: random.Random) -> TurnHooks:
        """Open a session per script this turn's plugins contribute (none: a no-op); what the
        scripts inject goes to ``context.injected``."""
        entries, dropped = kernel.turn_scripts(context)
        hooks = cls(kernel, room, injected=context.injected, dropped=dropped)
        if entries and not js_enabled(kernel.env):  # the operator's switch: no hook runs, the turn goes on
            names = ", ".join(e.value.origin or f"{e.plugin_id}:{e.value.id}" for e in entries)
            hooks.events.append(KeeperNote(kind="hook_log", summary=f"hooks not run ({names}): {JS_OFF}"))
            return hooks
        if not entries:
            return hooks
        clock = game_clock(room)
        state = hooks.state()
        for entry in entries:
            script = entry.value
            session = HookSession(script.source, state=state, seed=rng.getrandbits(64), clock=clock,
                                  script=script.origin or f"{entry.plugin_id}:{script.id}")
            hooks.scripts.append(_Script(entry.plugin_id, script.id, script.origin, session))
            if session.failure is not None:
                hooks._disabled(hooks.scripts[-1], session.failure)
        return hooks

    def state(self) -> dict[str, Any]:
        """What scripts see as ``variables``/``stat_data`` (:func:`lwcore.turn.tree.script_state`)."""
        return tree.script_state(self.room)

    def fire(self, event: str, payload: Mapping[str, Any] | None = None) -> None:
        """Dispatch ``event`` to every live session in turn, applying each one's effects
        before the next session sees the state."""
        for script in self.scripts:
            if script.session.failure is not None:
                continue
            result = script.session.dispatch(event, dict(payload or {}), state=self.state())
            if result.failure is not None:
                self._disabled(script, result.failure)
                continue
            for effect in result.effects:
                self._apply(script, event, effect, payload or {})

    def close(self) -> None:
        for script in self.scripts:
            script.session.close()

    # -- effects ---------------------------------------------------------------------------

    def _disabled(self, script: _Script, failure: Any) -> None:
        self._log(f"hook {script.origin or script.id} disabled: {failure}", script, kind="hook_failed")

    def _log(self, text: str, script: _Script, *, kind: str = "hook_log") -> None:
        self.events.append(KeeperNote(kind=kind, summary=text, plugin=script.plugin, script=script.id))

    def _withheld(self, script: _Script, what: str, value: Any, *, already: Any = None) -> bool:
        """Whether ``value`` (bound for every seat) holds a keeper-only variable's current text
        that ``already`` did not; if so it is logged for the keeper, naming the variables."""
        secrets = keeper_only(self.room)
        said = [s for s in secrets.said_in(value) if s not in secrets.said_in(already)]
        if said:
            self._log(f"{script.origin or script.id}: {what} withheld: it holds the current value of keeper-only "
                      f"{', '.join(repr(s) for s in said)}, and every player would see it", script,
                      kind="hook_withheld")
        return bool(said)

    def _apply(self, script: _Script, event: str, effect: Any, payload: Mapping[str, Any]) -> None:
        kind = effect.kind
        if kind in ("setvar", "incvar"):
            (write,) = writes_from([effect], where=script.origin or script.id)
            self.events += apply_write(self.room, write, by=f"hook {script.id}")
        elif kind == "inject":
            self.injected.append(effect.text)
        elif kind == "narrate":
            if not self._withheld(script, "narrate", effect.text):
                self.narrated.append(effect.text)
        elif kind == "rewriteReply":
            replaced = self.rewrite if self.rewrite is not None else payload.get("reply")
            if not self._withheld(script, "rewriteReply", effect.text, already=replaced):
                self.rewrite = effect.text
        elif kind == "log":
            self._log(f"{script.origin or script.id}: {effect.text}", script)
        elif kind == "emitUI":
            emission = {"script": script.id, "plugin": script.plugin, "event": event,
                        "blocks": [b.model_dump(mode="json", exclude_none=True) for b in effect.blocks],
                        "options": effect.options.model_dump(mode="json", exclude_none=True)}
            if not self._withheld(script, "emitUI", [emission["blocks"], emission["options"]]):
                self.ui.append(emission)
        elif kind == "emitPanel":
            self._panel(script, effect.panel, effect.payload)

    def _panel(self, script: _Script, panel: str, payload: Any) -> None:
        if "panel_payload" not in self.kernel.document_types:
            self._log(f"{script.origin or script.id}: emitPanel({panel!r}) dropped: no panels plugin", script)
            return
        try:
            self.room.documents.put(Document(panel, "panel_payload", {"payload": payload,
                                                                     "turn": self.room.turn_number + 1}))
        except LwError as exc:
            self._log(f"{script.origin or script.id}: emitPanel({panel!r}) refused: {exc.message}", script)

