"""One room at a web table: its members' seats, where turns come from, who is listening.

:class:`Table` is the part of ``lw serve`` that knows nothing of HTTP: each member gets a
seat, reached by a secret link kept (hashed) in the room's invite store
(:mod:`lw_panels.serve.invites`); :meth:`Table.submit` queues a line a member plays (a room
command, or their turn with the next recorded reply or on the live model) on the room's turn queue
(:func:`lwcore.turn.queue.queue_for`: one at a time, in the order they came, on the queue's
own thread), each through the kernel's one turn entry point (``Kernel.turn`` with the room's
folder: it takes the room's writer lock) and with a deadline
(:data:`TURN_TIME_LIMIT` seconds unless the table is given another): past it the turn writes
nothing and the one who acted is told so. :meth:`Table.view` builds one member's page data
from the room as last committed, under the room's lock as a *reader*: a turn in progress
(a slow model) never holds it up. The room stays on disk: every action loads it, changes it
and saves it under :func:`lwcore.turn.room.room_lock`, so ``lw turn`` in another terminal
plays in the same room safely.
"""

from __future__ import annotations

import random
import re
import threading
from collections import deque
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lw_panels.messages import MESSAGES
from lw_panels.stage_view import stage_for, stage_text
from lw_panels.staging import Staging, stage_turn
from lw_panels.serve.invites import Invites
from lw_panels.table import table_view
from lwcore.api import (
    CallOptions,
    Cancel,
    Deadline,
    HistoryEntry,
    LiveRequest,
    LwError,
    Member,
    Room,
    TextDelta,
    TurnEvent,
    calling,
    controls,
    is_command,
    project_all,
    protocol_of_reply,
    queue_for,
    recorded_audience,
    redacted,
    room_lock,
    viewer_of,
)

if TYPE_CHECKING:
    from lwcore.api import Kernel

TURN_TIME_LIMIT = 180
"""Seconds a line played at the table may take, queueing included (``lw serve --turn-timeout``)."""
LINES_PER_SEAT = 2
"""Lines (turns, commands, the keeper's controls) one seat may have queued or playing at once:
a seat cannot fill the room's turn queue ahead of everyone else (a further one is refused, code
``busy``)."""


@dataclass(frozen=True)
class Seat:
    """A member's place at the table (``member``: their id in the room)."""

    member: str
    name: str
    keeper: bool
    locale: str = "en"

    def error(self, exc: LwError) -> LwError:
        """``exc`` as this seat's member may read it: whole for the keeper, else
        :func:`lwcore.errors.redacted` (an error that may quote keeper-only data)."""
        return exc if self.keeper else redacted(exc)


@dataclass
class TurnSource:
    """Where a turn's model reply comes from: recorded ``replies`` (used in order, one per
    turn; ``provider`` their protocol when given), or a ``live`` model (a provider profile or
    an endpoint, settled by the turn: :class:`lwcore.turn.connection.LiveRequest`); neither:
    each turn is refused (code ``no_model``)."""

    replies: deque[Any] = field(default_factory=deque)
    provider: str | None = None
    live: LiveRequest | None = None
    recorded: bool = False
    """The table was started on recorded replies (so running out of them is what stops a turn)."""

    def __post_init__(self) -> None:
        self.recorded = self.recorded or bool(self.replies)


@dataclass
class Outcome:
    """What acting did: ``text`` for the member who acted, whether the room ``changed``, and
    whether that text is in the story they read now (``in_story``: the page need not say it
    twice)."""

    text: str
    changed: bool
    in_story: bool = False


class Table:
    """``turn_seconds``: each line's deadline (:data:`TURN_TIME_LIMIT`); ``clock``: the
    deadlines' clock (``time.monotonic``); ``token``: the maker of new link tokens
    (``member -> token``, tests; random by default). Every member without a link yet gets
    one now: :attr:`fresh` holds those links' clear tokens, the only time they are known."""

    def __init__(self, kernel: Kernel, room: str | Path, source: TurnSource, *, seed: int | None = None,
                 token: Any = None, turn_seconds: float = TURN_TIME_LIMIT, clock: Any = None) -> None:
        self.kernel = kernel
        self.path = Path(room)
        self.source = source
        self.turn_seconds = turn_seconds
        self._clock = clock
        self.rng = random.Random(seed) if seed is not None else random.Random()
        with room_lock(self.path, shared=True):
            loaded = Room.load(self.path, kernel)
        self.title = loaded.file.id
        self.turn = loaded.turn_number + 1
        """The room's next turn as last read (a status event's; every view reads it anew)."""
        self.seats: dict[str, Seat] = {}
        """The seats by member id."""
        self._seat(loaded)
        self.invites = Invites(self.path, make=token)
        self.fresh: dict[str, str] = self.invites.ensure(self.seats)
        """``member -> clear token`` of the links made when the table was set up."""
        self.version = 0
        self.ui: list[dict[str, Any]] = []
        """The hooks' UI of the last turn: player-visible author output, shown to every seat."""
        self.staged: list[dict[str, Any]] = []
        """What the stage director staged on the last turn (:mod:`lw_panels.staging`), shown
        to every seat in its own language."""
        self.staging: Staging | None = None
        """The last turn's staging, whole (its beats, refusals, picture requests): the keeper's
        and the tests' to read, never sent to a seat."""
        self.image_adapters: dict[str, Any] | None = None
        """Image provider adapters by name (default: :data:`lw_panels.imagegen.ADAPTERS`)."""
        self.queue = queue_for(kernel, self.path)
        self._lines: dict[str, int] = {}
        """Lines queued or playing, by member (:data:`LINES_PER_SEAT`)."""
        self._lines_lock = threading.Lock()
        self._cancel: Cancel | None = None
        """The cancel of the turn being played (:meth:`stop`)."""
        self.waiting: list[str] = []
        """The names of the members whose turns are queued or being played, in order."""
        self.on_text: Any = None
        """Called with each piece of a live turn's narration as the model writes it (the web
        table sends it to the keeper's seats only: it is the raw reply, before the reply
        processors -- ``<UpdateVariable>`` blocks, ``rewriteReply`` -- have passed it; players
        read the narration when the turn is applied)."""

    def _seat(self, room: Room) -> None:
        for member in room.members:
            self.seats.setdefault(member.id, Seat(member.id, member.name or member.id, room.is_keeper(member),
                                                  room.locale_of(member)))

    def seat(self, member: str) -> Seat | None:
        """The seat of ``member`` -- one added to the room since the table started too."""
        if member not in self.seats:
            with room_lock(self.path, shared=True):
                self._seat(Room.load(self.path, self.kernel))
        return self.seats.get(member)

    def view(self, seat: Seat, *, asset_base: str, frame_base: str) -> dict[str, Any]:
        """What ``seat``'s member sees now (see :func:`lw_panels.table.table_view`)."""
        seen = self.views([seat], lambda s: (asset_base, frame_base))[seat.member]
        if isinstance(seen, LwError):  # views raises for one seat; this keeps the type honest
            raise seen
        return seen

    def views(self, seats: list[Seat], bases: Any) -> dict[str, dict[str, Any] | LwError]:
        """What each of ``seats`` sees now, from one reading of the room (``bases(seat)`` gives
        where that seat's pictures and frames are served). A room that cannot be read -- its
        files, or the history and documents a view reads -- gives each seat the error as that
        seat may read it (raised when there is one seat)."""
        out: dict[str, dict[str, Any] | LwError] = {}
        with room_lock(self.path, shared=True):
            try:
                loaded = Room.load(self.path, self.kernel)
                self.turn = loaded.turn_number + 1
                room: Room | LwError = loaded
            except LwError as exc:
                room = exc
            for seat in seats:
                asset_base, frame_base = bases(seat)
                try:
                    if isinstance(room, LwError):
                        raise room
                    view = table_view(room, seat.member, ui=self.ui, version=self.version,
                                      asset_base=asset_base, frame_base=frame_base, staged=self.staged)
                    view["status"] = {"turn": room.turn_number + 1, "acting": self.waiting[0] if self.waiting else None}
                    if seat.keeper:
                        view["seats"] = self._seat_states(room, seat)
                    elif view.get("sheet") is None:
                        view["pregens"] = free_pregens(room, seat.member)
                    out[seat.member] = view
                except LwError as exc:
                    out[seat.member] = seat.error(exc)
        failed = out[seats[0].member] if len(seats) == 1 else None
        if isinstance(failed, LwError):
            raise failed
        return out

    def _seat_states(self, room: Room, keeper: Seat) -> list[dict[str, Any]]:
        """Each member of ``room`` and the state of their link (``made``, ``revoked``, ``none``),
        for a keeper's page: never a link or its hash."""
        links = self.invites.snapshot()
        return [{"member": m.id, "name": m.name or m.id, "keeper": room.is_keeper(m), "self": m.id == keeper.member,
                 "link": "made" if links.get(m.id) else "revoked" if m.id in links else "none"}
                for m in room.members]

    def add_seat(self, seat: Seat, name: Any, deadline: Deadline | None = None) -> Future[tuple[Seat, str]]:
        """Queue a new player seat named ``name`` (the keeper's, from the page): the member is
        added to the room on its turn queue (after the lines before it, never during a turn)
        with its link (:func:`add_seated`: both or neither); its future is the new seat and its
        link's clear token (a located :class:`LwError` in the keeper's language for a bad or
        taken name, or a link that cannot be made)."""
        t = MESSAGES.bind(seat.locale)
        _keeper_only(seat, t("serve.seats_keeper_only"))
        if not isinstance(name, str):
            raise LwError(t("serve.seat_name_text"), code="invalid")

        def job() -> tuple[Seat, str]:
            member, token = add_seated(self.kernel, self.path, self.invites, name, speak=seat.locale)
            with room_lock(self.path, shared=True):
                self._seat(Room.load(self.path, self.kernel))
            return self.seats[member.id], token
        return self.queue.submit(job, deadline=deadline or self.deadline())

    def deadline(self) -> Deadline:
        """A new line's deadline: :attr:`turn_seconds` from now."""
        return Deadline(self.turn_seconds, clock=self._clock) if self._clock else Deadline(self.turn_seconds)

    def submit(self, seat: Seat, text: str, deadline: Deadline | None = None) -> Future[Outcome]:
        """Queue ``text`` as ``seat``'s member plays it (a room command, else their turn) on the
        room's turn queue; its future (an :class:`LwError` as that member may read it)."""
        text = text.strip()
        if not text:
            raise LwError(MESSAGES.bind(seat.locale)("serve.say_empty"), code="invalid")
        deadline = deadline or self.deadline()
        if is_command(text):
            return self._queued(seat, lambda: self._act(seat, text, deadline), deadline)
        future = self._queued(seat, lambda: self._act(seat, text, deadline), deadline)
        self.waiting.append(seat.name)  # whose turn it is, for every seat, until it is played
        future.add_done_callback(lambda _: self._played(seat.name))
        return future

    def _queued(self, seat: Seat, job: Any, deadline: Deadline) -> Future[Outcome]:
        """``job`` on the room's turn queue for ``seat``; refused (code ``busy``) while the seat
        already has :data:`LINES_PER_SEAT` lines queued or playing."""
        member = seat.member
        with self._lines_lock:
            if self._lines.get(member, 0) >= LINES_PER_SEAT:
                raise LwError(MESSAGES.bind(seat.locale)("serve.busy", lines=LINES_PER_SEAT), code="busy")
            self._lines[member] = self._lines.get(member, 0) + 1

        def done(_: Any = None) -> None:
            with self._lines_lock:
                left = self._lines.get(member, 1) - 1
                if left > 0:
                    self._lines[member] = left
                else:
                    self._lines.pop(member, None)
        try:
            future: Future[Outcome] = self.queue.submit(job, deadline=deadline)
        except BaseException:
            done()
            raise
        future.add_done_callback(done)
        return future

    def _played(self, name: str) -> None:
        if name in self.waiting:
            self.waiting.remove(name)

    def act(self, seat: Seat, text: str) -> Outcome:
        """:meth:`submit`, then wait for the outcome."""
        return self.submit(seat, text).result()

    def _act(self, seat: Seat, text: str, deadline: Deadline) -> Outcome:
        play = self._command if is_command(text) else self._turn
        return self._guarded(seat, lambda: play(seat, text, deadline))

    def _command(self, seat: Seat, text: str, deadline: Deadline) -> Outcome:
        result = self.kernel.turn(self.path, text, actor=seat.member, rng=self.rng, deadline=deadline)
        run = result.command
        assert run is not None, "a command's turn carries its run"
        changed = bool(run.written)
        if changed:
            self.version += 1
        audience = recorded_audience(run.reply)
        return Outcome(run.reply.text, changed, in_story=audience == "all" or (audience == "keeper" and seat.keeper))

    def _turn(self, seat: Seat, text: str, deadline: Deadline) -> Outcome:
        applied = self._play(self.path, text, seat.member, deadline, seat)
        return Outcome(applied.narration if applied is not None else "", True, in_story=True)

    def _play(self, target: Any, text: str, actor: str | None, deadline: Deadline, seat: Seat) -> Any:
        """One turn in ``target`` (the folder, or the room loaded under its lock) with the
        table's model; the stage director's staging (:func:`lw_panels.staging.stage_turn`,
        its text kept in the room's history) and the version follow. The turn can be
        stopped (:meth:`stop`) while its model call is in flight."""
        source = self.source
        cancel = self._cancel = Cancel()
        try:
            on_text = self.on_text

            def on_delta(delta: Any) -> None:
                if on_text is not None and isinstance(delta, TextDelta):
                    on_text(delta.text)

            with calling(CallOptions(stream=source.live is not None, cancel=cancel, on_delta=on_delta)):
                if source.live is not None:
                    result = self.kernel.turn(target, text, actor=actor, live=source.live, rng=self.rng,
                                              deadline=deadline)
                elif not source.replies:
                    raise _no_model(seat, recorded=source.recorded)
                else:
                    reply = source.replies[0]
                    protocol = source.provider or protocol_of_reply(self.kernel, reply)
                    if protocol is None:
                        raise LwError("cannot tell which provider protocol the recorded reply is in",
                                      expected="--provider " + " | ".join(sorted(self.kernel.provider_adapters)))
                    result = self.kernel.turn(target, text, actor=actor, provider=protocol, reply=reply, rng=self.rng,
                                              deadline=deadline)
                    source.replies.popleft()  # used only by a turn that was saved
        finally:
            self._cancel = None
        applied = result.applied
        ui = list(applied.ui) if applied is not None else []
        assert result.compiled is not None, "a played turn carries its compiled request"
        staging = stage_turn(self.kernel, result.compiled.room, applied.events if applied is not None else (),
                             adapters=self.image_adapters)
        if staging.entries:
            self._record(staging, target if isinstance(target, Room) else None)
        self.ui, self.staged, self.staging = ui, staging.entries, staging  # a reader sees the old lists or the new
        self.version += 1
        return applied

    def _record(self, staging: Staging, held: Room | None) -> None:
        """Keep what was staged in the room's history, as text in the room's language (what
        ``lw turn --view`` and other plain clients read): in ``held`` (a room its caller loaded
        under the writer lock: a regenerated turn's), else in the room loaded under the lock."""
        def record(room: Room) -> None:
            text = stage_text(stage_for(staging.entries, room.file.locale, lambda sha: None), room.file.locale)
            event = TurnEvent(kind="staged", audience="all", summary=text, fields={"beats": staging.beats})
            room.record(HistoryEntry.of_event(event, turn=room.turn_number))
            room.save()

        if held is not None:
            record(held)
            return
        with room_lock(self.path):
            record(Room.load(self.path, self.kernel))

    # -- the keeper's message controls ------------------------------------------------------

    def stop(self, seat: Seat) -> Outcome:
        """Stop the turn whose model call is in flight (the keeper's): it writes nothing."""
        _keeper_only(seat)
        cancel = self._cancel
        if cancel is None:
            return Outcome(MESSAGES.bind(seat.locale)("serve.control_idle"), False)
        cancel.set()
        return Outcome(MESSAGES.bind(seat.locale)("serve.control_stopped"), False)

    def control(self, seat: Seat, data: Mapping[str, Any], deadline: Deadline | None = None) -> Future[Outcome]:
        """Queue one of the keeper's controls (``data``: ``{"action": "regenerate" | "rewind"
        | "edit" | "choose", "turn", "text", "number"}``) on the room's turn queue; a player's
        seat is refused (code ``forbidden``). ``stop`` does not queue: it answers at once."""
        _keeper_only(seat)
        t = MESSAGES.bind(seat.locale)
        action = data.get("action")
        if action == "stop":
            done: Future[Outcome] = Future()
            done.set_result(self.stop(seat))
            return done
        if action not in ("regenerate", "rewind", "edit", "choose"):
            raise LwError(t("serve.control_action"), code="invalid")
        for key in ("turn", "number"):
            value = data.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 2**31):
                raise LwError(t("serve.control_number", key=key), code="invalid")
        if data.get("text") is not None and not isinstance(data.get("text"), str):
            raise LwError(t("serve.text_string"), code="invalid")
        deadline = deadline or self.deadline()
        return self._queued(seat, lambda: self._guarded(seat, lambda: self._control(seat, str(action), data, deadline)),
                            deadline)

    def _guarded(self, seat: Seat, work: Any) -> Outcome:
        """``work()``, an error raised as ``seat``'s member may read it."""
        try:
            return work()
        except LwError as exc:
            raise seat.error(exc) from None

    def _control(self, seat: Seat, action: str, data: Mapping[str, Any], deadline: Deadline) -> Outcome:
        kernel, by, t = self.kernel, seat.member, MESSAGES.bind(seat.locale)
        if action == "regenerate":
            applied = controls.regenerate(kernel, self.path, lambda room, said, actor: self._play(
                room, said, actor, deadline, seat), by=by)
            return Outcome(applied.narration if applied is not None else "", True, in_story=True)
        if action == "rewind":
            if data.get("turn") is None:
                raise LwError(t("serve.control_which_turn"), code="invalid")
            controls.rewind(kernel, self.path, int(data["turn"]), by=by)
            text = t("serve.control_rewound", turn=int(data["turn"]))
            self.ui, self.staged = [], []  # the last turn's hook blocks belong to a turn that is gone
        elif action == "edit":
            done = controls.edit(kernel, self.path, data.get("turn"), str(data.get("text") or ""), by=by)
            text = t("serve.control_edited", turn=done)
        else:
            if data.get("number") is None:
                raise LwError(t("serve.control_which_reply"), code="invalid")
            controls.choose(kernel, self.path, int(data["number"]), by=by)
            text = t("serve.control_chosen", number=int(data["number"]))
            self.staged = []  # staged for the reply that was replaced (the history keeps the chosen one's)
        self.version += 1
        return Outcome(text, True)

    def links(self, origin: str) -> list[tuple[Seat, str | None]]:
        """Each seat and its link when it was made by this table (:attr:`fresh`), else ``None``
        (made earlier: only ``lw seat rotate`` shows a link anew)."""
        return [(seat, invite_link(origin, self.fresh[member]) if member in self.fresh else None)
                for member, seat in self.seats.items()]


def invite_link(origin: str, token: str) -> str:
    """The link a seat's player opens: exchanged for a session on the first visit."""
    return f"{origin}/t/{token}/"


def _keeper_only(seat: Seat, message: str | None = None) -> None:
    if not seat.keeper:
        raise LwError(message or MESSAGES.bind(seat.locale)("serve.controls_keeper_only"), code="forbidden")


PREGEN = "pregen"
"""The document type of a room's claimable pregenerated characters (the ``.pc`` roster: its
rules -- one claimer each, one each, bound to the room's rule system -- are the room's
``.pc claim`` command's; the table only lists them and sends that command)."""


def free_pregens(room: Room, member: str) -> list[dict[str, Any]]:
    """The pregens nobody has claimed, as ``member`` may see them (``{"id", "name", "blurb"}``,
    from the document type's own projection); none when the room has no roster (or its type
    is not installed)."""
    try:
        docs = project_all(room, room.documents.all(PREGEN), viewer_of(room, room.member(member)))
    except LwError:
        return []
    return [{"id": doc.id, "name": str(seen.get("name") or doc.id), "blurb": str(seen.get("blurb") or "")}
            for doc, seen in docs if not seen.get("claimed_by")]


def add_member(kernel: Kernel, room: Path, name: str, member_id: str | None = None,
               locale: str | None = None, *, speak: str | None = None) -> Member:
    """A new player ``name`` in the room folder ``room`` (id ``member_id``, default the next
    free ``pN``; ``locale``, default the room's), saved under the room's writer lock. Refused
    (code ``invalid``, in the language ``speak``) for a name that is not 1 to 80 printable
    characters, a bad id, or a name or id the room already has."""
    t = MESSAGES.bind(speak)
    name = name.strip()
    if not name or len(name) > 80 or any(not ch.isprintable() for ch in name):
        raise LwError(t("serve.seat_name_bad"), code="invalid", locale=speak)
    if member_id is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", member_id):
        raise LwError(t("serve.seat_id_bad"), code="invalid", expected="--id p5", locale=speak)
    with room_lock(room):
        loaded = Room.load(room, kernel)
        taken = {m.id for m in loaded.members} | {m.name for m in loaded.members}
        new_id = member_id or next(f"p{n}" for n in range(1, len(taken) + 2) if f"p{n}" not in taken)
        if new_id in taken or name in taken:
            raise LwError(t("serve.seat_taken", room=loaded.file.id, name=new_id if new_id in taken else name),
                          code="invalid", locale=speak)
        member = Member(id=new_id, name=name, locale=locale)
        loaded.file.players.append(member)
        loaded.mark("room")
        loaded.save()
    return member


def add_seated(kernel: Kernel, room: Path, invites: Invites, name: str, member_id: str | None = None,
               locale: str | None = None, *, speak: str | None = None) -> tuple[Member, str]:
    """:func:`add_member`, then a link for the new seat (``invites.issue``): the member and the
    link's clear token -- both or neither. When the link cannot be made the member is taken out
    of the room again and the refusal (code ``unavailable``, in the language ``speak``) says
    nothing was added; only if that too fails does the seat stay, without a link, and the
    refusal says so (the keeper's *New link*, or ``lw seat rotate``, then makes one)."""
    member = add_member(kernel, room, name, member_id, locale, speak=speak)
    t = MESSAGES.bind(speak)
    try:
        return member, invites.issue(member.id)
    except (LwError, OSError):
        pass
    try:
        with room_lock(room):
            loaded = Room.load(room, kernel)
            loaded.file.players[:] = [m for m in loaded.file.players if m.id != member.id]
            loaded.mark("room")
            loaded.save()
    except (LwError, OSError):
        raise LwError(t("serve.seat_added_no_link", name=member.name or member.id), code="unavailable",
                      locale=speak) from None
    raise LwError(t("serve.seat_not_added", name=member.name or member.id), code="unavailable", locale=speak)


def _no_model(seat: Seat, *, recorded: bool) -> LwError:
    """Why a turn cannot run with no model: for the keeper, what to do about it; for a
    player, only that their line was not played (how the table was started is the
    operator's business)."""
    t = MESSAGES.bind(seat.locale)
    if not seat.keeper:
        return LwError(t("serve.no_model_player"), code="no_model")
    return LwError(t("serve.no_model_replies" if recorded else "serve.no_model"), code="no_model")


def json_error(exc: LwError) -> Mapping[str, Any]:
    return {"error": str(exc), "code": exc.code}


def staged_hashes(table: Table) -> set[str]:
    """The pack files the last turn's staging shows (pictures, maps, sounds): a seat may load them."""
    return {entry[key] for entry in table.staged for key in ("hash", "map") if isinstance(entry.get(key), str)}


def staged_pictures(table: Table) -> dict[str, str]:
    """The generated pictures the last turn's staging shows, ``sha256 -> mime``: a seat may load them."""
    return {entry["generated"]: str(entry.get("mime") or "image/png") for entry in table.staged
            if isinstance(entry.get("generated"), str)}
