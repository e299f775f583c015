"""Rooms by name: the rooms kept in the data dir, and what a ``ROOM`` argument means.

A room is a folder holding ``room.yaml``. The data dir keeps rooms by name in
``<data dir>/rooms/<name>/``; an archived room moves to ``<data dir>/rooms/.archive/<name>/``
(kept whole, listed with ``--archived``, never played or served until restored). Contracts:

- :func:`resolve_room` is the one reading of a ``ROOM`` argument, for every command: a path
  that exists (or is written as a path: it has a separator or starts with ``.`` or ``~``) is
  that folder; any other word is a room of the data dir by name. A name that is not there is a
  located :class:`LwError` naming where rooms are looked for, never a traceback.
- A room's name is its folder's name: one to 64 letters, digits, ``_``, ``.`` or ``-``, not
  starting with ``.`` (so never ``..`` or a hidden folder), no separator: it can never leave
  ``rooms/``.
- Creating, renaming and archiving never leave half a room: a new room is written in a
  staging folder of ``rooms/`` and renamed into place, a rename or an archive is one
  ``os.rename`` under the room's writer lock (a turn in progress finishes first). A name that
  is taken is refused and nothing is written.
- A process that keeps a room open for long (a server) holds :func:`room_in_use` for as long as
  it runs; renaming, archiving or restoring that room is then refused, located, instead of
  moving the folder from under it (the lock is the kernel's advisory ``flock``: it goes with
  the process, however it ends).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lwcore.contributions import localized
from lwcore.errors import LwError
from lwcore.io.safe_yaml import load_yaml
from lwcore.io.text import read_text
from lwcore.io.transaction import STATE_DIR, FolderLock, locked

ROOMS_DIR = "rooms"
ARCHIVE_DIR = ".archive"
ROOM_FILE = "room.yaml"
ROOM_NAME = re.compile(r"^[^\W][\w.-]{0,63}\Z")
"""A room's name: its folder in ``rooms/`` (letters of any script, digits, ``_ . -``)."""
LOCK_TIMEOUT = 30.0
"""Seconds a rename or an archive waits for a turn in progress to finish."""
IN_USE = "in-use"
"""The lock file (under ``.lw/``) a process keeping the room open holds shared."""


def room_in_use(folder: str | Path) -> FolderLock:
    """``with room_in_use(folder):`` -- the room is kept open by this process (a server) for the
    block: :func:`rename_room`, :func:`archive_room` and :func:`restore_room` refuse it meanwhile."""
    return FolderLock(folder, shared=True, name=IN_USE, timeout=5)


def rooms_root(data_dir: Path) -> Path:
    """Where the data dir keeps its rooms (not created here)."""
    return Path(data_dir) / ROOMS_DIR


def check_name(name: str) -> str:
    """``name`` if it can name a room, else a :class:`LwError` saying what a name may hold."""
    if not isinstance(name, str) or not ROOM_NAME.match(name) or name.endswith("."):
        raise LwError(f"{name!r} cannot name a room",
                      expected="1 to 64 letters, digits, '_', '.' or '-', not starting with '.' or '-'")
    return name


def _looks_like_path(ref: str) -> bool:
    return os.sep in ref or (os.altsep is not None and os.altsep in ref) or ref.startswith((".", "~"))


def resolve_room(ref: str | Path, data_dir: Path) -> Path:
    """The room folder ``ref`` means (see the module doc): an existing path, else a room of the
    data dir by name. Only a name that is in neither place is refused here; whether a folder is
    a room is :meth:`lwcore.turn.room.Room.load`'s to say (with its own located message)."""
    text = str(ref)
    path = Path(text).expanduser()
    if path.exists() or _looks_like_path(text) or not ROOM_NAME.match(text):
        return path
    named = rooms_root(data_dir) / text
    if (named / ROOM_FILE).is_file():
        return named
    archived = rooms_root(data_dir) / ARCHIVE_DIR / text
    if (archived / ROOM_FILE).is_file():
        raise LwError(f"room {text!r} is archived", expected=f"lw room restore {text}")
    raise LwError(f"no room folder {text!r} here and no room named {text!r} in the data dir",
                  file=rooms_root(data_dir), expected="lw room list, or a path to a room folder")


@dataclass(frozen=True)
class RoomEntry:
    """One room of the data dir as ``lw room list`` shows it."""

    name: str
    path: Path
    title: str
    system: str
    players: int
    turns: int
    archived: bool
    problem: str | None = None
    """Why the room's ``room.yaml`` could not be read (the room is still listed)."""

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "path": str(self.path), "title": self.title, "system": self.system,
                "players": self.players, "turns": self.turns, "archived": self.archived, "problem": self.problem}


def _folders(root: Path) -> Iterator[Path]:
    if not root.is_dir():
        return
    for child in sorted(root.iterdir(), key=lambda p: p.name):
        if child.is_dir() and not child.name.startswith(".") and (child / ROOM_FILE).is_file():
            yield child


def list_rooms(data_dir: Path, *, archived: bool = False, locale: str = "en") -> list[RoomEntry]:
    """The rooms of the data dir by name (with ``archived``: the archived ones too). A room
    whose ``room.yaml`` cannot be read is listed with its problem, never skipped silently."""
    root = rooms_root(data_dir)
    places = [(root, False)] + ([(root / ARCHIVE_DIR, True)] if archived else [])
    return [_entry(folder, is_archived, locale) for place, is_archived in places for folder in _folders(place)]


def _entry(folder: Path, archived: bool, locale: str) -> RoomEntry:
    turns = _turns(folder)
    try:
        data = load_yaml(read_text(folder / ROOM_FILE), file=folder / ROOM_FILE)
        if not isinstance(data, dict):
            raise LwError("room.yaml is not a mapping", file=folder / ROOM_FILE)
        title = data.get("title") or ""
        shown = localized(title, locale) if isinstance(title, dict) else str(title)
        players = data.get("players")
        count = len(players) if isinstance(players, list) else 0
        return RoomEntry(folder.name, folder, shown, str(data.get("system") or ""), count, turns, archived)
    except LwError as exc:
        return RoomEntry(folder.name, folder, "", "", 0, turns, archived, problem=exc.message)


def _turns(folder: Path) -> int:
    """The number of the room's last turn (0: none yet), read from the end of its history."""
    history = folder / "history.jsonl"
    try:
        with history.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            lines = f.read().splitlines()
    except OSError:
        return 0
    import json

    for line in reversed(lines):
        try:
            turn = json.loads(line).get("turn")
        except (ValueError, AttributeError):
            continue
        if isinstance(turn, int) and not isinstance(turn, bool):
            return turn
    return 0


def _free(data_dir: Path, name: str) -> Path:
    target = rooms_root(data_dir) / check_name(name)
    if target.exists() or (rooms_root(data_dir) / ARCHIVE_DIR / name).exists():
        raise LwError(f"a room named {name!r} already exists", file=target,
                      expected="another name, or lw room list")
    return target


def create_room(data_dir: Path, name: str, *, source: Path | None = None, system: str | None = None,
                title: str | None = None, locale: str = "en", players: tuple[str, ...] = (),
                phase: str | None = None, prepare: Callable[[Path], None] | None = None) -> Path:
    """A new room ``name`` in the data dir: a copy of the room folder ``source`` (an example, a
    template; its ``id`` becomes ``name``), or an empty room on the rule system ``system`` with a
    keeper and the named players (in ``phase``, if given). ``prepare(folder)`` then fills it (an
    import, a module started). Written in a staging folder and renamed into place: if anything
    fails, no room is left behind."""
    if (source is None) == (system is None):
        raise LwError("a new room comes from a room folder or a rule system, one of the two")
    root = rooms_root(data_dir)
    target = _free(data_dir, name)
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".new-", dir=root))
    try:
        if source is not None:
            if not (source / ROOM_FILE).is_file():
                raise LwError(f"not a room folder (no {ROOM_FILE})", file=source)
            # A room that was ever saved is copied as last committed (never half a save); a folder
            # never written to (a bundled example, perhaps read-only) has no save to wait for.
            played = (source / STATE_DIR).is_dir()
            with locked(source, shared=True) if played else contextlib.nullcontext():
                shutil.copytree(source, staging, dirs_exist_ok=True, symlinks=False,
                                ignore=shutil.ignore_patterns("replies", "README*", STATE_DIR))
            _rewrite(staging / ROOM_FILE, {"id": name, **({"title": title} if title else {})})
        else:
            members = [{"id": f"p{i}", "name": player} for i, player in enumerate(players, 1)]
            text = yaml.safe_dump({"format": 1, "id": name, "title": title or name, "system": system,
                                   "locale": locale, "keeper": {"id": "kp", "name": "Keeper"},
                                   **({"phase": phase} if phase else {}), "players": members},
                                  allow_unicode=True, sort_keys=False)
            (staging / ROOM_FILE).write_text(text, encoding="utf-8")
        if prepare is not None:
            prepare(staging)
        if target.exists():
            raise LwError(f"a room named {name!r} was created meanwhile", file=target)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _rewrite(room_file: Path, fields: dict[str, Any]) -> None:
    """Set top-level ``fields`` in a copied ``room.yaml``, keeping its other lines (and comments)
    as written: each field's line is replaced in place, or added after ``format:``."""
    lines = room_file.read_text(encoding="utf-8").splitlines(keepends=True)
    for key, value in fields.items():
        dumped = yaml.safe_dump({key: value}, allow_unicode=True, sort_keys=False, default_flow_style=True,
                                width=10_000).strip()
        dumped = dumped[1:-1] if dumped.startswith("{") else dumped
        line = dumped + "\n"
        at = next((i for i, text in enumerate(lines) if re.match(rf"^{re.escape(key)}\s*:", text)), None)
        if at is None:
            lines.insert(next((i + 1 for i, text in enumerate(lines) if text.startswith("format:")), 0), line)
            continue
        end = at + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
            end += 1  # the field's own indented block (a title given per locale)
        lines[at:end] = [line]
    room_file.write_text("".join(lines), encoding="utf-8")


def _move(folder: Path, target: Path) -> None:
    with _not_in_use(folder), locked(folder, timeout=LOCK_TIMEOUT):
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(folder, target)


@contextlib.contextmanager
def _not_in_use(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s :data:`IN_USE` lock exclusively (no process keeps it open), or refuse."""
    lock = FolderLock(folder, name=IN_USE, timeout=0)
    try:
        lock.__enter__()
    except LwError as exc:
        if exc.code != "busy":
            raise
        raise LwError("this room is open in a running process (lw serve): stop it first, then move the room",
                      file=folder, code="busy") from None
    try:
        yield
    finally:
        lock.__exit__(None, None, None)


def named_room(data_dir: Path, name: str) -> Path:
    """The room ``name`` of the data dir -- only there, never a folder of the current directory
    that happens to have that name -- refused, located, when it is not a room."""
    folder = rooms_root(data_dir) / check_name(name)
    if not (folder / ROOM_FILE).is_file():
        if (rooms_root(data_dir) / ARCHIVE_DIR / name / ROOM_FILE).is_file():
            raise LwError(f"room {name!r} is archived", expected=f"lw room restore {name}")
        raise LwError(f"no room named {name!r} in the data dir", file=rooms_root(data_dir), expected="lw room list")
    return folder


def rename_room(data_dir: Path, old: str, new: str) -> Path:
    """Rename the room ``old`` of the data dir to ``new`` (its folder; ``room.yaml`` keeps its id)."""
    folder = named_room(data_dir, old)
    target = _free(data_dir, new)
    _move(folder, target)
    return target


def archive_room(data_dir: Path, name: str) -> Path:
    """Move the room ``name`` to the archive (kept whole; restored with :func:`restore_room`)."""
    folder = named_room(data_dir, name)
    target = rooms_root(data_dir) / ARCHIVE_DIR / name
    if target.exists():
        raise LwError(f"an archived room named {name!r} already exists", file=target,
                      expected=f"lw room rename {name} <another name>, then archive it")
    _move(folder, target)
    return target


def restore_room(data_dir: Path, name: str) -> Path:
    """Bring the archived room ``name`` back among the rooms."""
    folder = rooms_root(data_dir) / ARCHIVE_DIR / check_name(name)
    if not (folder / ROOM_FILE).is_file():
        raise LwError(f"no archived room named {name!r}", file=folder.parent, expected="lw room list --archived")
    target = _free_after_archive(data_dir, name)
    _move(folder, target)
    return target


def _free_after_archive(data_dir: Path, name: str) -> Path:
    target = rooms_root(data_dir) / name
    if target.exists():
        raise LwError(f"a room named {name!r} already exists", file=target, expected="lw room rename it first")
    return target
