"""Helpers of the skills plugin's tests: skill folders, rooms, kernels, replies, ``lw``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "fog-harbor"
PROTOCOLS = ("anthropic_messages", "chat_completions", "openai_responses")
LW = str(Path(sys.executable).with_name("lw"))
REFERENCE = Path("/work/.mirror/1A7432+loreweaver/repo")
"""The reference implementation (read-only mirror); tests that need it skip without it."""


def make_kernel(data_dir: Path, **options: Any) -> Any:
    """A kernel over the installed plugins (the skills plugin included) and ``data_dir``."""
    from lwcore.kernel import Kernel

    options.setdefault("env", {})
    return Kernel(data_dir=data_dir, **options)


def copy_room(target: Path) -> Path:
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("replies", "README*"))
    return target


def write_skill(root: Path, skill_id: str, frontmatter: str, body: str = "Do the thing.",
                files: Mapping[str, str | bytes] | None = None) -> Path:
    """``root/<skill_id>/SKILL.md`` from frontmatter text (dedented) and a body, plus files."""
    folder = root / skill_id
    folder.mkdir(parents=True, exist_ok=True)
    text = f"---\n{textwrap.dedent(frontmatter).strip()}\n---\n\n{body}\n"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    for rel, content in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def set_room(room_dir: Path, **changes: Any) -> None:
    """Change top-level keys of ``room.yaml`` (through the round trip, comments kept)."""
    from lwcore.io.roundtrip import update_yaml_text
    from lwcore.io.safe_yaml import load_yaml

    path = room_dir / "room.yaml"
    text = path.read_text(encoding="utf-8")
    data = load_yaml(text)
    data.update(changes)
    path.write_text(update_yaml_text(text, data), encoding="utf-8")


def reply(protocol: str, text: str = "", calls: Sequence[tuple[str, Mapping[str, Any]]] = ()) -> dict[str, Any]:
    """A model reply in ``protocol``'s shape: ``text`` and tool ``calls`` (name, arguments)."""
    if protocol == "anthropic_messages":
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [{"type": "tool_use", "id": f"tu{i}", "name": n, "input": dict(a)} for i, (n, a) in enumerate(calls)]
        return {"content": content, "stop_reason": "tool_use" if calls else "end_turn"}
    if protocol == "chat_completions":
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = [{"id": f"call{i}", "type": "function",
                                      "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)}}
                                     for i, (n, a) in enumerate(calls)]
        return {"object": "chat.completion", "choices": [{"index": 0, "message": message,
                                                          "finish_reason": "tool_calls" if calls else "stop"}]}
    if protocol == "openai_responses":
        output: list[dict[str, Any]] = [{"type": "function_call", "id": f"fc{i}", "call_id": f"call{i}", "name": n,
                                         "arguments": json.dumps(a, ensure_ascii=False), "status": "completed"}
                                        for i, (n, a) in enumerate(calls)]
        if text:
            output.append({"type": "message", "role": "assistant", "status": "completed",
                           "content": [{"type": "output_text", "text": text}]})
        return {"object": "response", "status": "completed", "output": output}
    raise ValueError(protocol)


def lw(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``lw`` in a subprocess, on data dir ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    return subprocess.run([LW, *args], capture_output=True, text=True, env=env, input=stdin, timeout=120,
                          encoding="utf-8")


def reference_skills(target: Path) -> list[str]:
    """Copy the reference implementation's shipped skills into ``target`` (outside the
    repository); their ids."""
    listing = subprocess.run(["git", "-C", str(REFERENCE), "ls-tree", "-r", "--name-only", "HEAD", "skills"],
                             capture_output=True, text=True, check=True).stdout.split()
    ids = []
    for name in listing:
        data = subprocess.run(["git", "-C", str(REFERENCE), "show", f"HEAD:{name}"], capture_output=True,
                              check=True).stdout
        path = target / Path(name).relative_to("skills")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if path.name == "SKILL.md":
            ids.append(path.parent.name)
    return sorted(ids)
