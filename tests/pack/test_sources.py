"""Fetching packs over real TLS from servers on loopback: the GitHub token rides only on the
release-metadata request the engine builds, never on a URL a person typed, and never across a
redirect to another host (``127.0.0.1`` and ``localhost`` are two host names of one machine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.install import install_pack
from lwcore.pack.limits import PackLimits
from lwcore.pack.sources import Transport, fetch_pack

TOKEN = "ghp_secret_token_value"


def release(server, *, asset_host: str, names: tuple[str, ...] = ("fen-1.0.0.lwpack",)) -> bytes:
    return json.dumps({"tag_name": "v1", "assets": [
        {"name": n, "browser_download_url": server.url(asset_host, f"/download/{n}")} for n in names
    ]}).encode()


def test_gh_ref_sends_the_token_to_the_api_only(tls, built, kernel: Kernel) -> None:
    server, context = tls
    pack = built()
    server.routes["/repos/owner/fen/releases/tags/v1"] = (200, {"Content-Type": "application/json"},
                                                          release(server, asset_host="localhost"))
    server.routes["/download/fen-1.0.0.lwpack"] = (200, {}, pack.read_bytes())
    transport = Transport(api_base=server.url("127.0.0.1", ""), ssl_context=context)
    kernel = Kernel(data_dir=kernel.data_dir, env={"GITHUB_TOKEN": TOKEN})
    report = install_pack(kernel, "gh:owner/fen@v1", transport=transport)
    assert report is not None and report.manifest.key == "fen@1.0.0"
    assert [(s["host"], s["path"], s["authorization"]) for s in server.seen] == [
        ("127.0.0.1", "/repos/owner/fen/releases/tags/v1", f"Bearer {TOKEN}"),
        ("localhost", "/download/fen-1.0.0.lwpack", ""),
    ]


def test_a_redirect_to_another_host_drops_the_token(tls, built, tmp_path: Path) -> None:
    server, context = tls
    pack = built()
    server.routes["/repos/owner/fen/releases/latest"] = (302, {"Location": server.url("localhost", "/moved/latest")}, b"")
    server.routes["/moved/latest"] = (200, {}, release(server, asset_host="127.0.0.1"))
    server.routes["/download/fen-1.0.0.lwpack"] = (302, {"Location": server.url("localhost", "/cdn/fen.lwpack")}, b"")
    server.routes["/cdn/fen.lwpack"] = (200, {}, pack.read_bytes())
    path = fetch_pack("gh:owner/fen", cache_dir=tmp_path / "cache", env={"GH_TOKEN": TOKEN},
                      transport=Transport(api_base=server.url("127.0.0.1", ""), ssl_context=context))
    assert path.read_bytes() == pack.read_bytes() and path.parent == tmp_path / "cache"
    assert [(s["host"], s["authorization"]) for s in server.seen] == [
        ("127.0.0.1", f"Bearer {TOKEN}"), ("localhost", ""), ("127.0.0.1", ""), ("localhost", ""),
    ]


def test_a_same_host_redirect_keeps_it_and_a_typed_url_never_gets_it(tls, built, tmp_path: Path) -> None:
    server, context = tls
    pack = built()
    server.routes["/repos/owner/fen/releases/latest"] = (301, {"Location": "/repos/owner/fen2/releases/latest"}, b"")
    server.routes["/repos/owner/fen2/releases/latest"] = (200, {}, release(server, asset_host="localhost"))
    server.routes["/download/fen-1.0.0.lwpack"] = (200, {}, pack.read_bytes())
    transport = Transport(api_base=server.url("127.0.0.1", ""), ssl_context=context)
    fetch_pack("gh:owner/fen", cache_dir=tmp_path / "c", env={"GITHUB_TOKEN": TOKEN}, transport=transport)
    assert [s["authorization"] for s in server.seen] == [f"Bearer {TOKEN}", f"Bearer {TOKEN}", ""]
    server.seen.clear()
    typed = server.url("127.0.0.1", "/repos/owner/fen2/releases/latest")
    with pytest.raises(LwError):  # a release description is not a pack, but what matters is who saw the token
        install_pack(Kernel(data_dir=tmp_path / "d", env={"GITHUB_TOKEN": TOKEN}), typed, transport=transport)
    assert server.seen == [{"host": "127.0.0.1", "path": "/repos/owner/fen2/releases/latest", "authorization": ""}]


def test_without_a_token_the_api_is_asked_anonymously_and_a_403_says_what_to_do(tls, tmp_path: Path) -> None:
    server, context = tls
    server.routes["/repos/owner/fen/releases/latest"] = (403, {}, b"rate limited")
    with pytest.raises(LwError, match="403.*set GITHUB_TOKEN or GH_TOKEN"):
        fetch_pack("gh:owner/fen", cache_dir=tmp_path, env={},
                   transport=Transport(api_base=server.url("127.0.0.1", ""), ssl_context=context))
    assert server.seen[0]["authorization"] == ""


@pytest.mark.parametrize(("names", "words"), [((), "has no .lwpack asset"),
                                              (("a.lwpack", "b.lwpack"), "several .lwpack assets")])
def test_a_release_must_hold_exactly_one_pack(tls, tmp_path: Path, names: tuple[str, ...], words: str) -> None:
    server, context = tls
    server.routes["/repos/o/r/releases/latest"] = (200, {}, release(server, asset_host="localhost", names=names))
    with pytest.raises(LwError, match=words):
        fetch_pack("gh:o/r", cache_dir=tmp_path, env={},
                   transport=Transport(api_base=server.url("127.0.0.1", ""), ssl_context=context))


def test_plain_http_and_downgrading_redirects_are_refused(tls, tmp_path: Path) -> None:
    server, context = tls
    transport = Transport(ssl_context=context)
    with pytest.raises(LwError, match="http:// is not fetched"):
        fetch_pack(f"http://127.0.0.1:{server.port}/x.lwpack", cache_dir=tmp_path, env={}, transport=transport)
    server.routes["/x.lwpack"] = (302, {"Location": f"http://localhost:{server.port}/x.lwpack"}, b"")
    with pytest.raises(LwError, match="refusing a redirect away from https"):
        fetch_pack(server.url("127.0.0.1", "/x.lwpack"), cache_dir=tmp_path, env={}, transport=transport)
    assert len(server.seen) == 1


def test_a_download_over_the_size_cap_stops_while_reading(tls, tmp_path: Path) -> None:
    server, context = tls
    server.routes["/big.lwpack"] = (200, {}, bytes(64 * 1024))
    with pytest.raises(LwError, match="limit for a pack"):
        fetch_pack(server.url("localhost", "/big.lwpack"), cache_dir=tmp_path, env={},
                   transport=Transport(ssl_context=context), limits=PackLimits(archive_bytes=1024))
    assert not list(tmp_path.glob("*.lwpack")) and not list(tmp_path.glob(".download-*"))


def test_an_untrusted_certificate_is_refused(tls, tmp_path: Path) -> None:
    server, _ = tls
    with pytest.raises(LwError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        fetch_pack(server.url("127.0.0.1", "/x.lwpack"), cache_dir=tmp_path, env={}, transport=Transport())
