"""Helpers for the room tests: a copy of the bundled example room, imports, recorded replies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lwcore.kernel import Kernel
from lwcore.turn.room import Room, room_lock

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "fog-harbor"
FIXTURES = Path(__file__).parent / "fixtures"
PROTOCOLS = ("anthropic_messages", "chat_completions", "openai_responses")
SAY = "我去码头查看那艘空船。"
NARRATION_END = "你们要跟上去吗？"


def copy_room(target: Path, *, with_docs: bool = True) -> Path:
    """A copy of the example room (its world card imported, as shipped; ``with_docs=False``:
    the room as it was before)."""
    ignore = ["replies"] + ([] if with_docs else ["docs"])
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(*ignore))
    return target


def recorded(protocol: str) -> dict[str, Any]:
    return json.loads((EXAMPLE / "replies" / f"turn1.{protocol}.json").read_text(encoding="utf-8"))


def with_narration(reply: Any, extra: str) -> Any:
    """A copy of a recorded reply (any protocol) whose narration ends with ``extra``."""
    if isinstance(reply, dict):
        return {k: with_narration(v, extra) for k, v in reply.items()}
    if isinstance(reply, list):
        return [with_narration(v, extra) for v in reply]
    if isinstance(reply, str) and reply.endswith(NARRATION_END):
        return reply + extra
    return reply


def import_into(kernel: Kernel, room_dir: Path, file: Path, kind: str, *, member: str | None = None,
                shown: str | None = None) -> Any:
    """Import ``file`` as ``kind`` into the room on disk (as ``lw tavern import`` does)."""
    from lw_tavern.room.imports import Source, pack_id_of, run_import

    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        who = room.member(member) if kind == "pc" else None
        plan = run_import(room, Source(file, pack_id_of(file.name), shown or file.name), kind, member=who)
        room.save()
    return plan


def files(room_dir: Path) -> dict[str, bytes]:
    """Every file of a room (the lock folder left out)."""
    return {str(p.relative_to(room_dir)): p.read_bytes() for p in sorted(room_dir.rglob("*"))
            if p.is_file() and ".lw" not in p.relative_to(room_dir).parts}


def request_text(compiled: Any) -> str:
    return json.dumps(compiled.request, ensure_ascii=False)


def block(compiled: Any, name: str) -> str:
    """The text of the tavern segment ``name`` in the compiled messages."""
    for message in compiled.messages:
        for b in message.get("blocks", ()):
            if b["source"] == f"tavern:{name}":
                return str(b["markdown"])
    raise AssertionError(f"no tavern segment {name!r} in {[b['source'] for m in compiled.messages for b in m.get('blocks', ())]}")


def message(compiled: Any, prompt_id: str) -> str:
    (found,) = [m["markdown"] for m in compiled.messages if m.get("promptId") == prompt_id]
    return str(found)
