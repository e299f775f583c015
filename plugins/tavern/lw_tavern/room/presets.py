"""Chat-completion presets in rooms: the shared library and what a room enabled (A.6).

``.preset import FILE`` validates a SillyTavern preset and installs it, byte for byte, as
``<data dir>/presets/<id>.json`` (the id is the file name made safe); installing applies
nothing. ``.preset enable ID`` in a room (its keeper) stores a ``preset_enabled`` document; from
then on the room's turns fold the preset (:func:`lw_tavern.preset.fold`) into their prompt.
A preset removed from the library is left out of the turn (and ``.preset list`` says so).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lw_tavern.files import read_json_file
from lw_tavern.preset import Fold, LoadedPreset, fold, load_preset, preset_id, read_preset
from lw_tavern.room.documents import PRESET

from lwcore.api import LwError, atomic_write_bytes

if TYPE_CHECKING:
    from lwcore.api import Room

LIBRARY = "presets"


def library(kernel: Any) -> Path:
    """The shared preset library, ``<data dir>/presets``."""
    return Path(kernel.data_dir) / LIBRARY


def install(kernel: Any, path: Path) -> tuple[str, LoadedPreset]:
    """Validate the preset at ``path`` and install it into the library (replacing one with the
    same id); ``(id, the loaded preset)``. Nothing is written when it does not validate."""
    read: list[str] = []
    data, text = read_json_file(path, read)
    loaded = load_preset(data, file=path, text=text)
    loaded.warnings[:0] = read
    pid = preset_id(path.name)
    target = library(kernel) / f"{pid}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(target, text.encode("utf-8"))
    return pid, loaded


def installed(kernel: Any) -> list[str]:
    """The ids in the library, sorted."""
    folder = library(kernel)
    return sorted(p.stem for p in folder.glob("*.json") if p.is_file()) if folder.is_dir() else []


def read_installed(kernel: Any, pid: str) -> LoadedPreset:
    """An installed preset by id; a located error when it is missing or no longer valid."""
    if preset_id(pid + ".json") != pid:
        raise LwError(f"{pid!r} is not a preset id", expected="one of: " + (", ".join(installed(kernel)) or "(none)"))
    path = library(kernel) / f"{pid}.json"
    if not path.is_file():
        raise LwError(f"no preset {pid!r} is installed", expected="one of: " + (", ".join(installed(kernel)) or "(none)"),
                      code="unknown")
    return read_preset(path)


def enabled_ids(room: Room) -> list[str]:
    return [doc.id for doc in room.documents.all(PRESET)]


def enabled_folds(room: Room) -> tuple[list[tuple[str, Fold]], list[str]]:
    """The folds of the presets this room enabled, in the order enabled, and a line for each
    that could not be read (it is left out)."""
    folds: list[tuple[str, Fold]] = []
    problems: list[str] = []
    for pid in enabled_ids(room):
        try:
            folds.append((pid, fold(read_installed(room.kernel, pid).preset)))
        except LwError as exc:
            problems.append(f"preset {pid}: {exc}")
    return folds, problems
