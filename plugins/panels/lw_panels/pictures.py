"""A room's generated pictures and its image budget (M19), kept in the room's ``director/`` folder.

``director/ledger.json`` is ``{"spent": N, "pictures": {subject: {"sha256", "mime"}}}``: the
requests sent for this room (every one that left counts, answered or not: the operator pays
for attempts; one stopped before it left -- no key, a bad address -- does not) and the one picture kept per subject (a subject is drawn once per room, so it looks
the same every time it is shown); each picture is ``director/<sha256>`` by its content. Both
are written atomically; a ledger that cannot be read (damaged, over :data:`MAX_LEDGER_BYTES`, a
folder, a pipe or a link to a device) counts as the budget spent. :class:`Painter` is the only way a picture is generated: it asks
:func:`lw_panels.imagegen.request_for` (the kit's discipline), the operator's settings and
the budget first, and on any failure gives ``None`` so the caller shows the kit's own art.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lw_panels.imagegen import ADAPTERS, Adapter, request_for
from lw_panels.load import asset_bytes
from lw_panels.manifest import room_packs
from lwcore.api import DirectorSettings, LwError, atomic_write_bytes, atomic_write_text, load_json, read_bytes

if TYPE_CHECKING:
    from lwcore.api import Room

FOLDER = "director"
LEDGER = "ledger.json"
MAX_PICTURE_BYTES = 16 * 1024 * 1024
"""The most a kept picture may be when a seat's page reads it."""
MAX_LEDGER_BYTES = 1024 * 1024
"""The most ``ledger.json`` may be (larger reads as damaged: the budget counts as spent)."""
_SHA = re.compile(r"^[0-9a-f]{64}$")


class PictureStore:
    """The generated pictures and the budget ledger of the room at ``room_path``."""

    def __init__(self, room_path: Path) -> None:
        self.folder = Path(room_path) / FOLDER

    def _ledger(self) -> dict[str, Any]:
        path = self.folder / LEDGER
        if not os.path.lexists(path):
            return {"spent": 0, "pictures": {}}
        try:  # a folder, a pipe or a link to a device is refused by read_bytes: damaged, never "none spent"
            data = load_json(read_bytes(path, max_bytes=MAX_LEDGER_BYTES).decode("utf-8"), file=path)
        except (LwError, UnicodeDecodeError):
            return {"spent": 0, "pictures": {}, "damaged": True}
        spent = data.get("spent") if isinstance(data, dict) else None
        if not isinstance(spent, int) or isinstance(spent, bool) or spent < 0 or not isinstance(
                data.get("pictures"), dict):  # a negative count would be budget the operator never gave
            return {"spent": 0, "pictures": {}, "damaged": True}
        return data

    @property
    def spent(self) -> int:
        """Requests sent for this room so far (a damaged ledger counts as the budget used up)."""
        ledger = self._ledger()
        return 1 << 30 if ledger.get("damaged") else int(ledger["spent"])

    def picture(self, subject: str) -> dict[str, str] | None:
        """``{"sha256", "mime"}`` of the picture kept for ``subject``, if there is one on disk."""
        entry = self._ledger()["pictures"].get(subject)
        if not isinstance(entry, dict) or not _SHA.match(str(entry.get("sha256", ""))):
            return None
        return entry if (self.folder / entry["sha256"]).is_file() else None

    def bytes_of(self, sha: str) -> bytes:
        if not _SHA.match(sha):
            raise LwError("not a picture of this room", code="invalid")
        return read_bytes(self.folder / sha, max_bytes=MAX_PICTURE_BYTES)

    def charge(self) -> None:
        """Count one request against the room's budget (before it is sent)."""
        ledger = self._ledger()
        ledger["spent"] = int(ledger["spent"]) + 1
        self._save(ledger)

    def keep(self, subject: str, data: bytes, mime: str) -> str:
        sha = hashlib.sha256(data).hexdigest()
        atomic_write_bytes(self.folder / sha, data)
        ledger = self._ledger()
        ledger["pictures"][subject] = {"sha256": sha, "mime": mime}
        self._save(ledger)
        return sha

    def _save(self, ledger: dict[str, Any]) -> None:
        ledger.pop("damaged", None)
        atomic_write_text(self.folder / LEDGER, json.dumps(ledger, ensure_ascii=False, indent=1) + "\n")


@dataclass
class Painter:
    """Pictures for one room's kit under the operator's ``settings``: :meth:`picture` gives the
    kept one, or generates it when everything allows (``adapters``: by provider name)."""

    room: Room
    kit: dict[str, Any]
    store: PictureStore
    settings: DirectorSettings
    env: Any
    adapters: dict[str, Adapter] = field(default_factory=lambda: dict(ADAPTERS))
    notes: list[str] = field(default_factory=list)
    """Why a picture was not generated (for the keeper and the tests; never shown to players)."""
    sent: list[str] = field(default_factory=list)
    """The subjects a request was sent for, in order."""

    def kept(self, subject: str) -> dict[str, str] | None:
        return self.store.picture(subject)

    def picture(self, subject: str) -> dict[str, str] | None:
        """The picture of ``subject``: the one kept, else a new one when the kit, the settings
        and the budget allow; ``None`` otherwise (and on any failure)."""
        kept = self.store.picture(subject)
        if kept is not None:
            return kept
        if self.kit.get("generation") != "allow":  # pack_only anywhere in the room: nothing is generated
            return None
        entry = next((s for s in self.kit.get("subjects") or () if s.get("id") == subject), None)
        if entry is None or not entry.get("generate") or not entry.get("ref"):
            return None
        settings = self.settings
        if not settings.spends:
            return None
        adapter = self.adapters.get(settings.image_provider or "")
        if adapter is None:
            self.notes.append(f"no image provider {settings.image_provider!r} (known: {', '.join(sorted(self.adapters))})")
            return None
        if self.store.spent >= settings.room_budget:
            self.notes.append(f"{subject}: the room's image budget ({settings.room_budget}) is spent")
            return None
        try:
            reference, mime = self._reference(entry["ref"]["hash"])
            request = request_for(self.kit, subject, reference, mime)

            def sending() -> None:
                self.store.charge()
                self.sent.append(subject)

            data, got = adapter(request, settings, self.env, sending)
            sha = self.store.keep(subject, data, got)
        except LwError as exc:
            self.notes.append(f"{subject}: {exc.message}")
            return None
        return {"sha256": sha, "mime": got}

    def _reference(self, sha: str) -> tuple[bytes, str]:
        for pack in room_packs(self.room).packs:
            for asset in pack.files.values():
                if asset.sha256 == sha:
                    return asset_bytes(pack, asset), asset.mime
        raise LwError("the subject's reference picture is not in the room's packs", code="image_failed")
