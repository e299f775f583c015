"""World materials for a play compilation: the initial directory index and frozen reuse.

``initial_directory_index`` builds the ``runtime:initial-directories`` block that lists every
directory handle of the world state (the root included), sorted as JavaScript sorts strings
(UTF-16 code units), under a localized heading. ``play_materials`` puts that block in front
of the world blocks -- or, given a frozen earlier compilation, reuses its world context
verbatim (minus the coverage blocks, which are regenerated) so the cached prefix stays the
same across a play chain.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from lwcore.api import localized, utf16_sort_key as js_sort_key

from lw_narraeon.compiler import join_blocks
from lw_narraeon.dirhandles import encode_dir_handle

INITIAL_DIRECTORIES_SOURCE = "runtime:initial-directories"
COVERAGE_SOURCES = frozenset(
    {"runtime:world-placeholder/coverage", "runtime:builtin/runtime.coverage"}
)
# Headings are part of the payload format, byte for byte.
INDEX_HEADING = {
    "zh-CN": "# 初始目录索引\n\n全部目录句柄，可直接使用；文档正文仍按需读取。",
    "en": "# Initial directory index\n\nAll directory handles, ready to use; read document bodies as needed.",
}


def discover_directories(list_directories: Callable[[str], Iterable[str]]) -> list[str]:
    """Every directory reachable from the root (``""``), breadth first, each once.

    ``list_directories(directory)`` returns the child directories of one directory as
    root-relative paths (``"characters/npc"``); the host pages through its store.
    """
    seen = {""}
    pending = [""]
    for directory in pending:
        for child in list_directories(directory):
            if child not in seen:
                seen.add(child)
                pending.append(child)
    return pending


def initial_directory_index(directories: Iterable[str], locale: str = "en") -> dict[str, str]:
    """The ``runtime:initial-directories`` block (``{source, markdown}``).

    The root is always listed; duplicates are dropped; a directory that cannot be a handle
    raises :class:`lw_narraeon.errors.DirHandleError`.
    """
    unique = set(directories)
    unique.add("")
    lines = "\n".join(f"- {encode_dir_handle(d)}" for d in sorted(unique, key=js_sort_key))
    heading = localized(INDEX_HEADING, locale)
    return {"source": INITIAL_DIRECTORIES_SOURCE, "markdown": f"{heading}\n{lines}"}


def play_materials(
    *,
    blocks: Sequence[Mapping[str, str]] = (),
    coverage: Sequence[Any] = (),
    directories: Iterable[str] = (),
    maintenance: Any = None,
    locale: str = "en",
    frozen: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``{blocks, coverage, maintenance?}`` for the world context of a play compilation.

    With ``frozen`` (an earlier compilation: ``logicalMessages``, ``coverage``,
    ``maintenance``?), its world-context blocks are reused (coverage blocks removed) with
    its coverage and maintenance, and ``blocks``/``directories`` are ignored. Otherwise the
    directory index block comes first, then ``blocks``. ``maintenance`` is left out when None.
    """
    if frozen is not None:
        reused = [
            dict(block)
            for message in frozen.get("logicalMessages", [])
            if message.get("role") == "world_context"
            for block in message.get("blocks", [])
            if block.get("source") not in COVERAGE_SOURCES
        ]
        out: dict[str, Any] = {"blocks": reused, "coverage": copy.deepcopy(list(frozen.get("coverage", [])))}
        if frozen.get("maintenance") is not None:
            out["maintenance"] = copy.deepcopy(frozen["maintenance"])
        return out
    out = {
        "blocks": [initial_directory_index(directories, locale), *(dict(b) for b in blocks)],
        "coverage": copy.deepcopy(list(coverage)),
    }
    if maintenance is not None:
        out["maintenance"] = copy.deepcopy(maintenance)
    return out


def logical_message(
    role: str,
    blocks: Sequence[Mapping[str, str]],
    *,
    message_role: str | None = None,
    prompt_id: str | None = None,
) -> dict[str, Any] | None:
    """A logical message from blocks (markdown = blocks trimmed, joined by a blank line).

    ``None`` when there are no blocks (such a message is never appended).
    """
    if not blocks:
        return None
    message: dict[str, Any] = {"role": role, "blocks": [dict(b) for b in blocks], "markdown": join_blocks(blocks)}
    if message_role is not None:
        message["messageRole"] = message_role
    if prompt_id is not None:
        message["promptId"] = prompt_id
    return message


def world_prompt(
    instructions: Sequence[Mapping[str, str]],
    materials: Mapping[str, Any],
    *,
    prompt_id: str = "world",
    message_role: str = "system",
) -> list[dict[str, Any]]:
    """The messages of a "world" prompt entry: world instructions (author_instruction) then
    world material (world_context), both carrying the entry's promptId and messageRole, so
    they stay one provider message even with merging off. Empty parts are left out."""
    parts = (
        logical_message("author_instruction", instructions, message_role=message_role, prompt_id=prompt_id),
        logical_message("world_context", materials.get("blocks", []), message_role=message_role, prompt_id=prompt_id),
    )
    return [p for p in parts if p is not None]
