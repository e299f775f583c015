"""Helpers of the stage director's tests: a loopback image provider speaking the OpenAI Images
wire format, the Blackmoor kit on the example room, recorded replies that move the story.

The room is the example room (``examples/fog-harbor``) with four more player-visible
variables (``scene``, ``act``, ``artifact_letter``) and one keeper-only one (``keeper_scene``,
whose value must never be staged); the pack is a copy of ``examples/blackmoor`` (its
presentation kit: the fen map, the drowned chapel and Zhou Heng with reference pictures, the
survey book without one, two sound cues).
"""

from __future__ import annotations

import base64
import email.parser
import email.policy
import json
import shutil
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from panels_testkit import ROOT, png, say

BLACKMOOR = ROOT / "examples" / "blackmoor"
KEEPER_SCENE = "钟里刻着周衡的名字"
"""The keeper-only ``keeper_scene`` value a turn sets: never staged."""

EXTRA_VARIABLES = """\
  - id: scene
    kind: text
    visibility: player
    labels: {zh: 场景, en: Scene}
    value: 码头
  - id: act
    kind: text
    visibility: player
    labels: {zh: 幕, en: Act}
    value: 第一幕
  - id: artifact_letter
    kind: text
    visibility: player
    labels: {zh: 信件, en: Letter}
    value: ""
  - id: keeper_scene
    kind: text
    visibility: keeper
    labels: {zh: 幕后, en: Behind the scenes}
    value: ""
"""

GENERATED = png(8, 8, (200, 120, 40))
"""The picture the loopback provider answers with."""


class ImageServer:
    """``POST /v1/images/edits`` on 127.0.0.1: each request kept (its form fields, the
    reference picture's bytes, the key it carried); answers ``{"data": [{"b64_json": …}]}``
    with ``picture``, or ``status`` when set (a failing provider)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status: int | None = None
        self.picture = GENERATED
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                head = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
                message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
                fields: dict[str, Any] = {}
                for part in message.iter_parts():
                    name = part.get_param("name", header="content-disposition")
                    data = part.get_payload(decode=True)
                    fields[name] = data if part.get_filename() else data.decode("utf-8")
                server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **fields})
                if server.status is not None:
                    self.send_response(server.status)
                    self.end_headers()
                    return
                answer = json.dumps({"created": 1, "data": [{"b64_json": base64.b64encode(server.picture).decode()}]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(answer.encode())

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subjects(self) -> list[str]:
        """The subjects asked for, read from the prompts (the kit's prompts are unique)."""
        return [r["prompt"].splitlines()[0] for r in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def director_env(url: str, budget: int = 2, prefetch: int = 1) -> dict[str, str]:
    return {"TRPG_DIRECTOR__IMAGE_PROVIDER": "openai_images", "TRPG_DIRECTOR__IMAGE_ENDPOINT": url,
            "TRPG_DIRECTOR__ROOM_BUDGET": str(budget), "TRPG_DIRECTOR__PREFETCH": str(prefetch),
            "OPENAI_API_KEY": "sk-test"}


def stage_room(kernel: Any, room: Path, tmp_path: Path, *extra_packs: Path) -> Path:
    """``room`` with the story variables and the Blackmoor kit (and ``extra_packs``) switched on."""
    from lw_panels.packs import dev_mounts, read_home

    variables = room / "variables.yaml"
    variables.write_text(variables.read_text(encoding="utf-8") + EXTRA_VARIABLES, encoding="utf-8")
    blackmoor = tmp_path / "blackmoor-pack"
    shutil.copytree(BLACKMOOR, blackmoor, ignore=shutil.ignore_patterns("room", "replies"))
    for folder in (blackmoor, *extra_packs):
        dev_mounts(kernel).mount(folder)
        say(kernel, room, f".panels enable {read_home(folder, dev=True).id}", "kp")
    return room


def reply(text: str, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A recorded Anthropic Messages reply: ``calls`` (tool name, input), then ``text``."""
    content: list[dict[str, Any]] = [{"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": args}
                                     for n, (name, args) in enumerate(calls, 1)]
    content.append({"type": "text", "text": text})
    return {"id": "msg_stage", "type": "message", "role": "assistant", "model": "recorded",
            "stop_reason": "end_turn", "content": content}


def set_var(var: str, value: Any) -> tuple[str, dict[str, Any]]:
    return ("set_variable", {"id": var, "value": value})


def replies(*items: dict[str, Any]) -> deque[Any]:
    return deque(items)
