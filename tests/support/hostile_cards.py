"""Hostile card files: every way a card container can be wrong, for the tests of every
surface that reads cards (the reader itself, each plugin's importer, each CLI command).

A test corpus, so it lives with the tests (``tests/support/``, on ``sys.path`` for every test
of the repository through the root ``conftest.py``), never in the runtime package.

Each :class:`HostileCard` builds its bytes on demand (some are tens of MiB) and names the
:class:`lwcore.errors.LwError` code the reader must answer with. A surface passes when it
refuses each one with a located message, within a bound, and changes no file.
"""

from __future__ import annotations

import base64
import io
import json
import stat
import warnings
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lwcore.cards.png import PNG_SIGNATURE
from lwcore.cards.write import blank_image, card_charx, card_png, card_text, chunk, text_chunk

MIB = 1024 * 1024
GOOD: dict[str, Any] = {"spec": "chara_card_v3", "spec_version": "3.0",
                        "data": {"name": "Hostile", "description": "a card used to carry bad bytes"}}


@dataclass(frozen=True)
class HostileCard:
    """One hostile file: ``make()`` builds it; ``code`` is the error code it must get.

    ``in_assets``: the problem sits in an embedded PNG asset chunk, which a read with
    ``assets=False`` never opens; such a read may accept the card (its text is intact).
    """

    id: str
    name: str
    make: Callable[[], bytes]
    code: str
    in_assets: bool = False


def _deep(depth: int) -> dict[str, Any]:
    card = json.loads(json.dumps(GOOD))
    node = card["data"]["extensions"] = {}
    for _ in range(depth):
        node["x"] = {}
        node = node["x"]
    return card


def _deep_json(depth: int) -> bytes:
    head = b'{"spec": "chara_card_v2", "data": {"name": "n", "description": "d", "extensions": '
    return head + b'{"x": ' * depth + b"{}" + b"}" * depth + b"}}"


def _bomb(size: int) -> bytes:
    squeezer = zlib.compressobj(9)
    block = b"A" * MIB
    return b"".join([squeezer.compress(block) for _ in range(size // MIB)] + [squeezer.flush()])


def _png(*chunks: bytes, end: bool = True) -> bytes:
    image = blank_image()
    head = image[:image.index(b"IDAT") + 4 + len(zlib.compress(b"\x00" * 5)) + 4]
    return head + b"".join(chunks) + (chunk(b"IEND", b"") if end else b"")


def _card_chunk(payload: bytes, kind: str = "tEXt", keyword: str = "ccv3") -> bytes:
    return text_chunk(keyword, base64.b64encode(payload), kind)


def _bad_crc() -> bytes:
    good = _card_chunk(json.dumps(GOOD).encode())
    return _png(good[:-4] + bytes(4))


def _chunk_flood() -> bytes:
    return _png(*([chunk(b"abCd", b"")] * 70_000), _card_chunk(json.dumps(GOOD).encode()))


def _asset_bomb_flood() -> bytes:
    one = _bomb(MIB)
    floods = [chunk(b"zTXt", f"chara-ext-asset_:a/{i}.png".encode() + b"\x00\x00" + one) for i in range(200)]
    return _png(_card_chunk(json.dumps(GOOD).encode()), *floods)


def _zip(members: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names on purpose
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for info, data in members:
                archive.writestr(info, data)
    return buffer.getvalue()


CARD_JSON = json.dumps(GOOD).encode()


def _with_card(*members: tuple[zipfile.ZipInfo | str, bytes]) -> bytes:
    return _zip([("card.json", CARD_JSON), *members])


def _symlink() -> bytes:
    info = zipfile.ZipInfo("assets/icon/images/main.png")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return _with_card((info, b"/etc/passwd"))


def _encrypted() -> bytes:
    """A member whose general-purpose flags say "encrypted" (bit 0), in both of its headers
    (zipfile clears the flag when writing, so it is set in the bytes)."""
    name = b"assets/secret.png"
    data = bytearray(_with_card((name.decode(), b"not really encrypted")))
    local = data.index(name) - 30
    central = data.index(name, local + 31) - 46
    data[local + 6] |= 0x1
    data[central + 8] |= 0x1
    return bytes(data)


def _bzip2() -> bytes:
    info = zipfile.ZipInfo("assets/a.png")
    info.compress_type = zipfile.ZIP_BZIP2
    return _with_card((info, b"data"))


def _renamed(name: str, raw: bytes) -> bytes:
    """An archive whose member ``name`` is renamed to the raw bytes ``raw`` (same length)."""
    return _with_card((name, b"x")).replace(name.encode("utf-8"), raw)


def _lying_size() -> bytes:
    data = bytearray(_zip([(zipfile.ZipInfo("card.json"), CARD_JSON)]))
    at = data.index(CARD_JSON)
    data[at + 1] ^= 0x20  # the stored bytes no longer match their CRC
    return bytes(data)


def _stored(name: str, data: bytes) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_STORED
    return info


def _stored_card() -> bytes:
    return _zip([(_stored("card.json", CARD_JSON), CARD_JSON)])


def _cases() -> list[HostileCard]:
    j = json.dumps
    cases = [
        # --- JSON ---------------------------------------------------------------------------
        HostileCard("json-extensions-600-deep", "deep.json", lambda: j(_deep(600)).encode(), "limit"),
        HostileCard("json-50000-deep", "deeper.json", lambda: b"[" * 50_000 + b"]" * 50_000, "limit"),
        HostileCard("json-over-16-mib", "huge.json", lambda: b'{"name": "' + b"a" * (17 * MIB) + b'"}', "limit"),
        HostileCard("json-600k-values", "values.json", lambda: b"[" + b"0," * 600_000 + b"0]", "limit"),
        HostileCard("json-invalid-utf8", "bytes.json", lambda: b'{"name": "\xff\xfe", "description": "d"}', "encoding"),
        HostileCard("json-lone-surrogate", "surrogate.json", lambda: b'{"name": "\\ud800", "description": "d"}', "value"),
        HostileCard("json-nan", "nan.json", lambda: b'{"name": NaN, "description": "d"}', "value"),
        HostileCard("json-1e400", "overflow.json", lambda: b'{"name": "n", "description": "d", "x": 1e400}', "value"),
        HostileCard("json-5000-digits", "digits.json", lambda: b'{"name": 1' + b"1" * 5000 + b"}", "value"),
        HostileCard("json-duplicate-key", "dup.json", lambda: b'{"name": "a", "name": "b", "description": "d"}', "duplicate_key"),
        HostileCard("json-syntax", "syntax.json", lambda: b'{"spec": "chara_card_v2",\n "data": {oops}}', "syntax"),
        HostileCard("json-truncated", "cut.json", lambda: j(GOOD).encode()[:40], "syntax"),
        HostileCard("json-array", "array.json", lambda: b"[1, 2, 3]", "not_a_card"),
        HostileCard("json-empty-object", "empty.json", lambda: b"{}", "not_a_card"),
        HostileCard("json-spec-number", "spec.json", lambda: b'{"spec": 2, "data": {}}', "not_a_card"),
        HostileCard("json-data-string", "data.json", lambda: b'{"spec": "chara_card_v2", "data": "x"}', "not_a_card"),
        HostileCard("json-unknown-spec", "v9.json", lambda: b'{"spec": "chara_card_v9", "data": {}}', "not_a_card"),
        HostileCard("binary-garbage", "garbage.png", lambda: b"\x00\x01\x02garbage" * 10, "not_a_card"),
        HostileCard("empty-file", "empty.card", lambda: b"", "not_a_card"),
        # --- PNG ----------------------------------------------------------------------------
        HostileCard("png-signature-only", "sig.png", lambda: PNG_SIGNATURE, "corrupt"),
        HostileCard("png-truncated-header", "cut.png", lambda: PNG_SIGNATURE + b"\x00\x00\x00", "corrupt"),
        HostileCard("png-truncated-in-card", "cut-card.png", lambda: card_png(GOOD)[:-40], "corrupt"),
        HostileCard("png-no-iend", "no-iend.png", lambda: _png(_card_chunk(CARD_JSON), end=False), "corrupt"),
        HostileCard("png-length-past-end", "long.png", lambda: PNG_SIGNATURE + b"\x7f\xff\xff\xfftEXt" + b"x" * 20, "corrupt"),
        HostileCard("png-bad-chunk-type", "type.png", lambda: _png(b"\x00\x00\x00\x00\x00\x01ab\x00\x00\x00\x00"), "corrupt"),
        HostileCard("png-crc", "crc.png", _bad_crc, "corrupt"),
        HostileCard("png-no-card", "plain.png", blank_image, "not_a_card"),
        HostileCard("png-ztxt-bomb", "bomb-z.png", lambda: _png(chunk(b"zTXt", b"ccv3\x00\x00" + _bomb(64 * MIB))), "limit"),
        HostileCard("png-itxt-bomb", "bomb-i.png",
                    lambda: _png(chunk(b"iTXt", b"chara\x00\x01\x00en\x00\x00" + _bomb(64 * MIB))), "limit"),
        HostileCard("png-asset-bomb-flood", "flood.png", _asset_bomb_flood, "limit", in_assets=True),
        HostileCard("png-chunk-flood", "chunks.png", _chunk_flood, "limit"),
        HostileCard("png-giant-text", "giant.png", lambda: _png(chunk(b"tEXt", b"ccv3\x00" + b"A" * (25 * MIB))), "limit"),
        HostileCard("png-base64-garbage", "b64.png", lambda: _png(chunk(b"tEXt", b"ccv3\x00not base64!!")), "corrupt"),
        HostileCard("png-base64-cut", "b64cut.png", lambda: _png(chunk(b"tEXt", b"chara\x00" + card_text(GOOD)[:-3])), "corrupt"),
        HostileCard("png-json-syntax", "json.png", lambda: _png(_card_chunk(b"[1,")), "syntax"),
        HostileCard("png-json-invalid-utf8", "utf8.png", lambda: _png(_card_chunk(b'{"name": "\xff"}')), "encoding"),
        HostileCard("png-json-deep", "deep.png", lambda: card_png(_deep(600)), "limit"),
        HostileCard("png-json-not-a-card", "list.png", lambda: _png(_card_chunk(b"[]")), "not_a_card"),
        HostileCard("png-ztxt-truncated-zlib", "z-cut.png",
                    lambda: _png(chunk(b"zTXt", b"ccv3\x00\x00" + zlib.compress(card_text(GOOD))[:-8])), "corrupt"),
        HostileCard("png-ztxt-corrupt-zlib", "z-bad.png", lambda: _png(chunk(b"zTXt", b"ccv3\x00\x00x\x9cgarbage")), "corrupt"),
        HostileCard("png-ztxt-stray-bytes", "z-stray.png",
                    lambda: _png(chunk(b"zTXt", b"ccv3\x00\x00" + zlib.compress(card_text(GOOD)) + b"xx")), "corrupt"),
        HostileCard("png-ztxt-method", "z-method.png", lambda: _png(chunk(b"zTXt", b"ccv3\x00\x07data")), "corrupt"),
        HostileCard("png-itxt-flag", "i-flag.png", lambda: _png(chunk(b"iTXt", b"ccv3\x00\x05\x00\x00\x00data")), "corrupt"),
        HostileCard("png-itxt-no-language", "i-lang.png", lambda: _png(chunk(b"iTXt", b"ccv3\x00\x00\x00en")), "corrupt"),
        HostileCard("png-keyword-without-nul", "nul.png", lambda: _png(chunk(b"zTXt", b"ccv3")), "corrupt"),
        HostileCard("png-asset-path-climbs", "asset.png",
                    lambda: card_png(GOOD, assets={"../../../etc/evil": b"x"}), "unsafe_path", in_assets=True),
        HostileCard("png-asset-path-absolute", "asset-abs.png", lambda: card_png(GOOD, assets={"/etc/evil": b"x"}),
                    "unsafe_path", in_assets=True),
        # --- CHARX --------------------------------------------------------------------------
        HostileCard("charx-no-card-json", "none.charx", lambda: _zip([("other.json", b"{}")]), "not_a_card"),
        HostileCard("charx-card-json-nested", "nested.charx", lambda: _zip([("x/card.json", CARD_JSON)]), "not_a_card"),
        HostileCard("charx-empty-archive", "empty.charx", lambda: _zip([]), "not_a_card"),
        HostileCard("charx-slip-dotdot", "slip.charx", lambda: _with_card(("../../evil.png", b"x")), "unsafe_path"),
        HostileCard("charx-slip-inner-dotdot", "slip2.charx", lambda: _with_card(("assets/../../evil.png", b"x")), "unsafe_path"),
        HostileCard("charx-absolute", "abs.charx", lambda: _with_card(("/etc/evil.png", b"x")), "unsafe_path"),
        HostileCard("charx-drive", "drive.charx", lambda: _with_card(("C:/evil.png", b"x")), "unsafe_path"),
        HostileCard("charx-backslash", "backslash.charx", lambda: _with_card(("assets\\..\\..\\evil.png", b"x")), "unsafe_path"),
        HostileCard("charx-nul-in-name", "nul.charx", lambda: _renamed("assets/aXpng", b"assets/a\x00png"), "unsafe_path"),
        HostileCard("charx-symlink", "link.charx", _symlink, "unsafe_path"),
        HostileCard("charx-duplicate-name", "dup.charx", lambda: _with_card(("card.json", b"{}")), "duplicate"),
        HostileCard("charx-bomb-by-ratio", "ratio.charx", lambda: _with_card(("assets/zeros.bin", bytes(10 * MIB))), "limit"),
        HostileCard("charx-bomb-by-size", "size.charx", lambda: _with_card(("assets/zeros.bin", bytes(65 * MIB))), "limit"),
        HostileCard("charx-bomb-by-count", "count.charx",
                    lambda: _with_card(*[(f"assets/{i}.png", b"") for i in range(1100)]), "limit"),
        HostileCard("charx-name-invalid-utf8", "name.charx", lambda: _renamed("assets/XY.png", b"assets/\xff\xfe.png"), "encoding"),
        HostileCard("charx-name-invalid-utf8-flagged", "name2.charx",
                    lambda: _renamed("assets/é.png", b"assets/\xc3\x28.png"), "encoding"),
        HostileCard("charx-encrypted", "enc.charx", _encrypted, "unsupported"),
        HostileCard("charx-bzip2", "bz.charx", _bzip2, "unsupported"),
        HostileCard("charx-truncated", "cut.charx", lambda: _with_card(("assets/a.png", b"x" * 1000))[:-30], "corrupt"),
        HostileCard("charx-crc", "crc.charx", _lying_size, "corrupt"),
        HostileCard("charx-card-json-deep", "deep.charx", lambda: _zip([("card.json", _deep_json(600))]), "limit"),
        HostileCard("charx-card-json-syntax", "syntax.charx", lambda: _zip([("card.json", b'{\n  "spec": oops\n}')]), "syntax"),
        HostileCard("charx-card-json-not-a-card", "nocard.charx", lambda: _zip([("card.json", b'{"spec": "other"}')]), "not_a_card"),
    ]
    return cases


def hostile_cards() -> tuple[HostileCard, ...]:
    """Every hostile card, in a stable order (ids are unique)."""
    return tuple(_cases())


_CLI_RUNNER = r"""
import contextlib, io, json, sys, time
from pathlib import Path
folder, args = Path(sys.argv[1]), json.loads(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from hostile_cards import hostile_cards
from lwcore.cli import main
for case in hostile_cards():
    if case.in_assets:
        continue
    path = folder / case.name
    path.write_bytes(case.make())
    err = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main([str(path) if arg == "{file}" else arg for arg in args])
            code = 0
        except SystemExit as stop:
            code = stop.code
    print(json.dumps({"id": case.id, "file": str(path), "code": code, "stderr": err.getvalue(),
                      "ms": (time.perf_counter() - start) * 1000}), flush=True)
    path.unlink()
"""


def run_cli(args: list[str], folder: Any, *, env: dict[str, str] | None = None, timeout: float = 300) -> list[dict[str, Any]]:
    """Every hostile card an import reads (the ``in_assets`` ones left out: an import reads no
    assets) through ``lw ARGS`` -- ``"{file}"`` in ``args`` stands for the card, written into
    ``folder`` and removed after -- in one child process (``lwcore.cli.main`` per card, one
    ``timeout`` for all). One record per card, in corpus order: ``id``, ``file``, ``code`` (the
    exit code), ``stderr``, ``ms``. :class:`RuntimeError` when the child process itself fails."""
    import subprocess
    import sys

    support = str(Path(__file__).resolve().parent)
    done = subprocess.run([sys.executable, "-c", _CLI_RUNNER, str(folder), json.dumps(args), support], capture_output=True,
                          text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise RuntimeError(f"the corpus run failed: {done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines()]
