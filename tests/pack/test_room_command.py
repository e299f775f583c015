"""`.pack install <ref>` in a room: keeper-only (the kernel enforces it), the CLI's ref forms, the same
install as the CLI, a keeper-only receipt with the trust card and a risk line, and each kind's
`enable` seam called with the room."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from lwcore.contributions import ContentReport, PackValidator
from lwcore.errors import LwError
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.sources import Transport
from lwcore.plugins import InProcessPlugin
from lwcore.turn.pipeline import run_turn

ROOT = Path(__file__).resolve().parents[2]


def maps_plugin(calls: list[object]) -> InProcessPlugin:
    """A plugin owning a content kind ``maps``, with an ``enable`` that changes the room."""

    def enable(ctx):  # noqa: ANN001, ANN202
        calls.append(ctx)
        ctx.room.file.features.append(_feature(f"maps:{ctx.pack.id}"))
        ctx.room.mark("room")
        return f"maps on: {', '.join(i.path for i in ctx.items)}"

    @hookimpl
    def lw_pack_validators(register):  # noqa: ANN001, ANN202
        register(PackValidator("maps", lambda item: ContentReport(id=item.path), enable=enable))

    manifest = {"id": "maps", "version": "1", "tier": "code", "provides": ["pack_validators"], "pack_kinds": ["maps"]}
    return InProcessPlugin(manifest, SimpleNamespace(lw_pack_validators=lw_pack_validators))


def _feature(feature_id: str):  # noqa: ANN202
    from lwcore.turn.room import Feature

    return Feature(id=feature_id)


@pytest.fixture
def room(tmp_path: Path) -> Path:
    target = tmp_path / "room"
    shutil.copytree(ROOT / "examples" / "fog-harbor", target, ignore=shutil.ignore_patterns("replies"))
    return target


def test_pack_install_from_a_room(tls, tmp_path: Path, room: Path, write, tree) -> None:
    server, context = tls
    calls: list[object] = []
    kernel = Kernel(data_dir=tmp_path / "data", env={}, plugins=[maps_plugin(calls)])
    kernel.service("pack.transport", lambda k: Transport(ssl_context=context))
    src = write(tmp_path / "src", files={"maps/harbor.map": "a map"},
                contents="contents:\n  rulepacks: [rules/fen.yaml]\n  maps: [maps/harbor.map]\n")
    server.routes["/fen.lwpack"] = (200, {}, build_pack(kernel, src, tmp_path / "out").path.read_bytes())
    url = server.url("localhost", "/fen.lwpack")

    before = tree(kernel.data_dir)
    with pytest.raises(LwError, match="keeper"):
        run_turn(kernel, room, f".pack install {url}", actor="p1")
    with pytest.raises(LwError, match="keeper"):  # a path on the server: never for a player either
        run_turn(kernel, room, f".pack install {tmp_path / 'out' / 'fen-1.0.0.lwpack'}", actor="p1")
    assert tree(kernel.data_dir) == before and server.seen == []

    run = run_turn(kernel, room, f".pack install {url}", actor="kp").command
    text = run.reply.text
    assert run.reply.audience == "keeper"
    assert "内容包 Fen（fen@1.0.0）" in text and "它的 hooks 与脚本在本服务器的沙箱中运行" in text
    assert "现在可发现：rulepacks/fen.yaml" in text and "maps on: maps/harbor.map" in text
    assert (kernel.data_dir / "rulepacks" / "fen.yaml").is_file()
    [ctx] = calls
    assert ctx.kind == "maps" and ctx.actor.id == "kp" and ctx.home == kernel.data_dir / "packs" / "fen@1.0.0"
    assert "maps:fen" in (room / "room.yaml").read_text(encoding="utf-8")  # the room change was saved
    history = (room / "history.jsonl").read_text(encoding="utf-8")
    assert "内容包 Fen" in history and '"audience":"keeper"' in history


def test_a_failing_enable_is_contained(tls, tmp_path: Path, room: Path, write) -> None:
    server, context = tls

    @hookimpl
    def lw_pack_validators(register):  # noqa: ANN001, ANN202
        register(PackValidator("maps", lambda item: ContentReport(), enable=lambda ctx: 1 / 0))

    broken = InProcessPlugin({"id": "maps", "version": "1", "tier": "code", "provides": ["pack_validators"]},
                             SimpleNamespace(lw_pack_validators=lw_pack_validators))
    kernel = Kernel(data_dir=tmp_path / "data", env={}, plugins=[broken])
    kernel.service("pack.transport", lambda k: Transport(ssl_context=context))
    src = write(tmp_path / "src", files={"maps/a.map": "x"}, contents="contents:\n  maps: [maps/a.map]\n")
    server.routes["/p.lwpack"] = (200, {}, build_pack(kernel, src, tmp_path / "out").path.read_bytes())
    text = run_turn(kernel, room, f".pack install {server.url('127.0.0.1', '/p.lwpack')}", actor="kp").command.reply.text
    assert "maps: plugin maps could not switch it on (ZeroDivisionError)" in text
    assert any("enable of maps failed" in e for e in kernel.plugin("maps").errors)
