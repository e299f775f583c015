"""A turn's logical messages, built from its prompt segments: where each slot goes.

The prompt compiler's input is a list of logical messages (``role``, ``messageRole``,
``promptId``, ``markdown`` and the ``blocks`` it is made of, one per segment, each with its
``source``: ``<plugin>:<segment>``). Every text of the prompt -- the kernel's own state
included (:mod:`lwcore.turn.segments`) -- is a segment; this module only places them, in
order (segments sort by ``order`` then ``name`` inside a slot):

1. ``runtime_system`` / system (``lw:system``): slot ``system``;
2. ``author_instruction`` / system (``lw:author``): slot ``author``;
3. ``world_context`` / system (``lw:world``): slot ``context`` (and any slot not named here);
4. ``world_context`` / user (``lw:state``): the room's state this turn -- slot ``history``
   (the kernel's variables, story so far and recent history), then slot ``state`` (the late
   part of the state message);
5. ``author_instruction`` / user (``lw:suffix``): slot ``suffix`` (closest to the player's words);
6. ``player_input``: ``<character name>: <what the acting member says>``.

A segment with a ``depth`` goes inside the recent history: among the ``entries`` of the last
listing segment of slot ``history``, ``depth`` entries before its newest end (0: after the
newest entry; deeper than the listing: before its oldest entry), its slot not used. Without a
``role`` it is a line among the entries; with one it is a message of that role
(``lw:depth-<n>``) at that place, the state message split around it (the part after it is
``lw:state-<n>``). With no listing, depth segments go at the listing's place in slot
``history``. A listing shows its heading (its ``text``) only above lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from lwcore.contributions import PromptSegment

Message = dict[str, Any]
Block = dict[str, str]

_SLOT_MESSAGE = {"system": 0, "author": 1, "context": 2, "history": 3, "state": 3, "suffix": 4}
_SHAPE = (
    ("runtime_system", "system", "lw:system"),
    ("author_instruction", "system", "lw:author"),
    ("world_context", "system", "lw:world"),
)


class Placed(NamedTuple):
    """A segment of the turn and the plugin it came from."""

    segment: PromptSegment
    plugin: str

    @property
    def source(self) -> str:
        return f"{self.plugin}:{self.segment.name}"


@dataclass(frozen=True)
class DepthMessage:
    """A depth segment with a ``role``: a message of its own inside the recent history."""

    depth: int
    role: str
    text: str
    source: str


def build_messages(segments: Sequence[Placed], player_line: str) -> list[Message]:
    """The logical messages of one turn from its ``segments`` (already in order) and the
    acting member's ``player_line`` (``name: text``); see the module docstring."""
    groups: list[list[Block]] = [[], [], []]  # system, author, context
    suffix: list[Block] = []
    before: list[Block] = []  # slot history, before the listing
    after: list[Block] = []  # slot history after the listing, then slot state
    late: list[Block] = []
    listing = next((p for p in reversed(segments) if p.segment.slot == "history"
                    and p.segment.entries is not None and p.segment.depth is None), None)
    if listing is None:  # no listing: the depth segments go where it would be, under no heading
        listing = Placed(PromptSegment("history", "", slot="history", entries=()), "turn")
    placed_listing = False
    inserts: list[tuple[int, str] | DepthMessage] = []
    for placed in segments:
        segment = placed.segment
        if segment.depth is not None:
            inserts.append((segment.depth, segment.text) if segment.role is None else
                           DepthMessage(segment.depth, segment.role, segment.text, placed.source))
            continue
        if placed is listing:
            placed_listing = True
            continue
        block = _block(placed.source, segment_text(segment))
        index = _SLOT_MESSAGE.get(segment.slot, 2)
        if index < 3:
            groups[index].append(block)
        elif index == 4:
            suffix.append(block)
        elif segment.slot == "state":
            late.append(block)
        else:
            (after if placed_listing else before).append(block)
    messages = [_message(r, m, p, blocks) for (r, m, p), blocks in zip(_SHAPE, groups, strict=True)]
    pieces = _listing_pieces(listing.segment, inserts)
    messages += _state_messages(before, pieces, listing.source, [*after, *late])
    messages.append(_message("author_instruction", "user", "lw:suffix", suffix))
    out = [m for m in messages if m is not None]
    out.append({"role": "player_input", "markdown": player_line, "blocks": []})
    return out


def segment_text(segment: PromptSegment) -> str:
    """A segment's text as the prompt shows it: a listing is its heading over its entries
    (nothing when it has none)."""
    if segment.entries is None:
        return segment.text
    if not segment.entries:
        return ""
    return "\n".join((segment.text, *segment.entries)) if segment.text else "\n".join(segment.entries)


def _listing_pieces(listing: PromptSegment, inserts: Sequence[tuple[int, str] | DepthMessage]) -> list[str | DepthMessage]:
    """The listing split where a :class:`DepthMessage` goes (``[text, message, text, …]``;
    the heading with the first text that has lines); ``(depth, text)`` inserts are lines."""
    pieces: list[str | DepthMessage] = []
    headed = False
    for run in _with_inserts(list(listing.entries or ()), inserts):
        if isinstance(run, DepthMessage):
            pieces.append(run)
            continue
        text = ""
        if run:
            text = "\n".join(run if headed or not listing.text else [listing.text, *run])
            headed = True
        pieces.append(text)
    return pieces


def _with_inserts(lines: list[str], inserts: Sequence[tuple[int, str] | DepthMessage]) -> list[list[str] | DepthMessage]:
    """``lines`` with each insert placed ``depth`` lines before the end (counted in ``lines``
    alone; inserts at one place keep their order): ``(depth, text)`` as a line, a
    :class:`DepthMessage` between the runs of lines it splits (``[lines, message, lines, …]``)."""
    at: dict[int, list[tuple[int, str] | DepthMessage]] = {}
    for insert in inserts:
        depth = insert.depth if isinstance(insert, DepthMessage) else insert[0]
        at.setdefault(max(0, len(lines) - max(0, depth)), []).append(insert)
    out: list[list[str] | DepthMessage] = [[]]
    for index in range(len(lines) + 1):
        for insert in at.get(index, []):
            if isinstance(insert, DepthMessage):
                out += [insert, []]
            else:
                out[-1].append(insert[1].strip())  # type: ignore[union-attr]  # out[-1] is always the open list of lines (a DepthMessage is followed by one)
        out[-1] += lines[index:index + 1]  # type: ignore[operator]  # out[-1] is always the open list of lines (a DepthMessage is followed by one)
    return out


def _block(source: str, text: str) -> Block:
    return {"source": source, "markdown": text}


def _message(role: str, message_role: str, prompt_id: str, blocks: list[Block]) -> Message | None:
    blocks = [b for b in blocks if b["markdown"].strip()]
    if not blocks:
        return None
    return {
        "role": role,
        "messageRole": message_role,
        "promptId": prompt_id,
        "markdown": "\n\n".join(b["markdown"].strip() for b in blocks),
        "blocks": blocks,
    }


def _state_messages(before: list[Block], pieces: Sequence[str | DepthMessage], source: str,
                    late: list[Block]) -> list[Message | None]:
    """The room's state this turn: ``lw:state`` (``before`` and the listing's first text),
    then for each :class:`DepthMessage` its own message (``lw:depth-<n>``, its role) and the
    listing's text after it (``lw:state-<n>``); the ``late`` blocks close the last of them."""
    out = []
    for n, piece in enumerate(pieces):  # texts at even places, messages at odd ones
        if isinstance(piece, DepthMessage):
            out.append(_message("world_context", piece.role, f"lw:depth-{n // 2 + 1}", [_block(piece.source, piece.text)]))
            continue
        blocks = [*(before if n == 0 else []), _block(source, piece), *(late if n == len(pieces) - 1 else [])]
        out.append(_message("world_context", "user", "lw:state" if n == 0 else f"lw:state-{n // 2 + 1}", blocks))
    return out
