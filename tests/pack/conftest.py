"""Helpers of the pack tests: a kernel per test, a small pack source, tree snapshots."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from lwcore.kernel import Kernel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "blackmoor"

CARD_PERSON = {"spec": "chara_card_v2", "spec_version": "2.0",
               "data": {"name": "Mira", "description": "A quiet cartographer.", "first_mes": "Hello.",
                        "personality": "", "scenario": "", "mes_example": ""}}


@pytest.fixture
def kernel(tmp_path: Path) -> Kernel:
    return Kernel(data_dir=tmp_path / "data", env={})


def write_source(root: Path, *, pack_id: str = "fen", version: str = "1.0.0", extra: str = "",
                 files: dict[str, str | bytes] | None = None, contents: str | None = None) -> Path:
    """A small pack source: a rulepack extending coc7, a character card, an asset."""
    default_files: dict[str, str | bytes] = {
        "rules/fen.yaml": "extends: coc7\nnames: [fen]\ndefaults:\n  沼泽知识: 15\n",
        "cards/mira.json": json.dumps(CARD_PERSON),
        "art/map.png": b"\x89PNG\r\n\x1a\n" + bytes(range(64)),
    }
    default_files.update(files or {})
    root.mkdir(parents=True, exist_ok=True)
    for rel, body in default_files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body, encoding="utf-8")
    if contents is None:
        contents = "contents:\n  rulepacks: [rules/fen.yaml]\n  cards: [cards/mira.json]\nassets: [art/]\n"
    (root / "pack.yaml").write_text(
        f"id: {pack_id}\nversion: {version}\nengine: \"0.1.0\"\nname: Fen\ndescription: A fen.\n"
        f"license: CC0-1.0\n{contents}{extra}", encoding="utf-8")
    return root


def snapshot(root: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every path under ``root`` with its kind and bytes (links by target): a tree, byte for byte."""
    out: dict[str, tuple[str, bytes | str]] = {}
    if not root.exists():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", b"")
            else:
                out[rel] = ("file", path.read_bytes())
    return out


@pytest.fixture
def source(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(1000))

    def make(**kw: object) -> Path:
        return write_source(tmp_path / f"src{next(counter)}", **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def built(kernel: Kernel, source: Callable[..., Path], tmp_path: Path) -> Callable[..., Path]:
    """``built(**source kwargs)`` -> the path of a freshly built .lwpack."""
    from lwcore.pack.build import build_pack

    counter = iter(range(1000))

    def make(**kw: object) -> Path:
        return build_pack(kernel, source(**kw), tmp_path / f"out{next(counter)}").path

    return make


def copy_example(target: Path) -> Path:
    shutil.copytree(EXAMPLE, target)
    return target


@pytest.fixture
def write() -> Callable[..., Path]:
    """``write(root, **kw)``: :func:`write_source`."""
    return write_source


@pytest.fixture
def example() -> Callable[[Path], Path]:
    """``example(target)``: a copy of examples/blackmoor."""
    return copy_example


@pytest.fixture
def tree() -> Callable[[Path], dict[str, tuple[str, bytes | str]]]:
    """``tree(root)``: :func:`snapshot`."""
    return snapshot


@dataclass
class Server:
    port: int
    seen: list[dict[str, str]] = field(default_factory=list)
    routes: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)

    def url(self, host: str, path: str) -> str:
        return f"https://{host}:{self.port}{path}"


@pytest.fixture
def tls() -> Iterator[tuple[Server, ssl.SSLContext]]:
    """An HTTPS server on 127.0.0.1 (certificate for 127.0.0.1 and localhost from a test CA),
    its request log and routes, and a client TLS context trusting that CA."""
    import trustme

    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert.configure_cert(server_context)
    client_context = ssl.create_default_context()
    ca.configure_trust(client_context)
    state = Server(0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            state.seen.append({"host": self.headers.get("Host", "").rsplit(":", 1)[0], "path": self.path,
                               "authorization": self.headers.get("Authorization", "")})
            status, headers, body = state.routes.get(self.path, (404, {}, b"not here"))
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    class Quiet(ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            return None  # a client refusing our certificate is what one test wants

    httpd = Quiet(("127.0.0.1", 0), Handler)
    httpd.socket = server_context.wrap_socket(httpd.socket, server_side=True)
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, client_context
    finally:
        httpd.shutdown()
        httpd.server_close()


