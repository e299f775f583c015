"""The hostile archive corpus: every archive is refused, located, with nothing written (the data
dir is compared byte for byte before and after), by the host API and by `lw pack verify`."""

from __future__ import annotations

import io
import json
import re
import struct
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.install import install_pack
from lwcore.pack.verify import verify_pack

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))
from hostile_kit import assert_refused, run_lw  # noqa: E402

WORLD_CARD = {"spec": "chara_card_v2", "spec_version": "2.0",
              "data": {"name": "Mira", "description": "x", "first_mes": "Hi.",
                       "extensions": {"loreweaver_hooks": ["on('turn_start', () => {})"]}}}


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def zip_bytes(entries: list[tuple[zipfile.ZipInfo | str, bytes]], *, compression: int = zipfile.ZIP_STORED) -> bytes:
    import warnings

    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns about the duplicate names we want
        with zipfile.ZipFile(buffer, "w", compression=compression) as z:
            for info, body in entries:
                z.writestr(info, body)
    return buffer.getvalue()


def repack(good: Path, *, replace: dict[str, bytes] | None = None, add: dict[str, bytes] | None = None,
           manifest: Callable[[dict], None] | None = None, fix_inventory: bool = True) -> bytes:
    """The good pack with members replaced or added and its manifest edited; the inventory
    recomputed (so only the check under test fails) unless ``fix_inventory`` is off."""
    import hashlib

    found = members(good)
    data = yaml.safe_load(found.pop("pack.yaml"))
    found.update(replace or {})
    found.update(add or {})
    if fix_inventory:
        listed = {f["path"] for f in data["files"]}
        data["files"] = [{"path": n, "size": len(b), "sha256": hashlib.sha256(b).hexdigest()}
                         for n, b in sorted(found.items()) if n in listed or n in (add or {})]
    if manifest:
        manifest(data)
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()
    return zip_bytes([*sorted(found.items()), ("pack.yaml", body)])


def central_entries(data: bytes) -> list[int]:
    out, at = [], data.find(b"PK\x01\x02")
    while at != -1:
        out.append(at)
        at = data.find(b"PK\x01\x02", at + 4)
    return out


def patch(data: bytes, at: int, fmt: str, value: int) -> bytes:
    return data[:at] + struct.pack(fmt, value) + data[at + struct.calcsize(fmt):]


def symlink_entry(good: Path) -> bytes:
    info = zipfile.ZipInfo("art/link.png")
    info.create_system = 3
    info.external_attr = 0o120777 << 16
    return _with(good, (info, b"/etc/passwd"))


def _with(good: Path, *extra: tuple[zipfile.ZipInfo | str, bytes]) -> bytes:
    return zip_bytes([*members(good).items(), *extra])


def raw_name(good: Path, placeholder: str, raw: bytes) -> bytes:
    data = _with(good, (placeholder, b"x"))
    return data.replace(placeholder.encode("utf-8"), raw)


def encrypted(good: Path) -> bytes:
    data = _with(good, ("art/secret.png", b"x"))
    last = central_entries(data)[-1]
    return patch(data, last + 8, "<H", 0x1)


def overlapping(good: Path) -> bytes:
    data = _with(good, ("art/a.png", b"A" * 64), ("art/b.png", b"B" * 64))
    entries = central_entries(data)
    first_offset = struct.unpack("<I", data[entries[-2] + 42: entries[-2] + 46])[0]
    return patch(data, entries[-1] + 42, "<I", first_offset)


def lying_size(good: Path) -> bytes:
    data = _with(good, ("art/big.png", b"Z" * 4096))
    return patch(data, central_entries(data)[-1] + 24, "<I", 10)


def ratio_bomb(good: Path) -> bytes:
    info = zipfile.ZipInfo("art/zeros.png")
    info.compress_type = zipfile.ZIP_DEFLATED
    return _with(good, (info, bytes(5 * 1024 * 1024)))


def count_bomb(good: Path) -> bytes:
    return _with(good, *((f"art/{i}.png", b"") for i in range(4100)))


def mislabelled_card(good: Path) -> bytes:
    return repack(good, replace={"cards/mira.json": json.dumps(WORLD_CARD).encode()})


def lying_trust(good: Path) -> bytes:
    def edit(data: dict) -> None:
        data["trust"]["asset_bytes"] = 1

    return repack(good, manifest=edit)


def wrong_parser(good: Path) -> bytes:
    return repack(good, replace={"rules/fen.yaml": json.dumps(WORLD_CARD).encode()})


def engine_from_the_future(good: Path) -> bytes:
    def edit(data: dict) -> None:
        data["engine"] = "99.0"

    return repack(good, manifest=edit)


SCRIPT_PACK = Path(__file__).resolve().parents[1] / "rules" / "script_pack"


def _landing_clash(good: Path, second: str, script_dir: str) -> bytes:
    """A pack whose two rulepacks land files at clashing places in the data dir, built with the
    landing check switched off (an older or hostile builder): the rulepack ``rules/match.yaml``
    and ``second``, whose scripts live in ``script_dir`` beside it."""
    import lwcore.pack.contents as contents
    from lwcore.pack.build import build_pack

    root = good.parent.parent / f"landing-{second.replace('/', '-')}-{script_dir}"
    files = {f"rules/{p.relative_to(SCRIPT_PACK).as_posix()}": p.read_text(encoding="utf-8")
             for p in SCRIPT_PACK.rglob("*") if p.is_file()}
    folder = second.rpartition("/")[0]
    twin = files["rules/match.yaml"].replace('names: [match, "pair match"]', "names: [twin]").replace(
        "set_keys: [match]", "set_keys: [twin]").replace("match/", f"{script_dir}/")
    files[second] = twin
    for name in ("resolver.js", "strain.js"):
        files[f"{folder}/{script_dir}/{name}"] = files[f"rules/match/{name}"]
    files["pack.yaml"] = (f"id: fen\nversion: 1.0.0\nengine: \"0.1.0\"\nname: Fen\ndescription: A fen.\nlicense: CC0-1.0\n"
                          f"contents:\n  rulepacks: [rules/match.yaml, {second}]\n")
    for name, body in files.items():
        (root / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / name).write_text(body, encoding="utf-8")
    kernel = Kernel(data_dir=root / "data", env={})
    real = contents.landing_problems
    contents.landing_problems = lambda items, files: []
    try:
        return build_pack(kernel, root / "src", root / "out").path.read_bytes()
    finally:
        contents.landing_problems = real


NAME_CASES: dict[str, tuple[Callable[[Path], bytes], str]] = {
    # one folder tree on every system (lwcore.pack.names.clashes)
    "file-and-folder": (lambda g: _with(g, ("art/x.png", b"x"), ("art/x.png/y.png", b"y")),
                        "needs 'art/x.png' as a folder, but 'art/x.png' is a file there"),
    "folder-and-file": (lambda g: _with(g, ("art/x.png/y.png", b"y"), ("art/x.png", b"x")),
                        "is a file where 'art/x.png/y.png' needs a folder"),
    "file-and-folder-by-case": (lambda g: _with(g, ("art/X.png", b"x"), ("art/x.png/y.png", b"y")),
                                "as a folder, but 'art/X.png' is a file there \\(on a case-insensitive"),
    "manifest-as-folder": (lambda g: _with(g, ("pack.yaml/x.png", b"x")), "'pack.yaml'.*(needs a folder|as a folder)"),
    "manifest-by-case": (lambda g: _with(g, ("PACK.YAML", b"x")), "only by case or Unicode form"),
    "folder-by-case": (lambda g: _with(g, ("Art/y.png", b"y")), "has the folder 'Art', which differs from 'art'"),
    "unicode-form": (lambda g: _with(g, ("art/\u00e9.png", b"a"), ("art/e\u0301.png", b"b")), "only by case or Unicode form"),
    "full-case-fold": (lambda g: _with(g, ("art/stra\u00dfe.png", b"a"), ("art/STRASSE.png", b"b")), "only by case"),
    "greek-final-sigma": (lambda g: _with(g, ("art/\u03c3.png", b"a"), ("art/\u03c2.png", b"b")), "only by case"),
    # one name, judged alone (lwcore.pack.names.name_problem)
    "zero-width-space": (lambda g: _with(g, ("art/ma\u200bp.png", b"x")), "invisible formatting character U\\+200B"),
    "bidi-override": (lambda g: _with(g, ("art/gnp\u202e.exe", b"x")), "invisible formatting character U\\+202E"),
    "byte-order-mark": (lambda g: _with(g, ("\ufeffart/x.png", b"x")), "invisible formatting character U\\+FEFF"),
    "trailing-dot": (lambda g: _with(g, ("art/map.png.", b"x")), "ending in a dot or a space"),
    "trailing-space": (lambda g: _with(g, ("art /x.png", b"x")), "ending in a dot or a space"),
    "reserved-with-space": (lambda g: _with(g, ("art/con .png", b"x")), "reserved device name"),
    "reserved-console": (lambda g: _with(g, ("art/CONIN$", b"x")), "reserved device name"),
    "reserved-superscript": (lambda g: _with(g, ("art/COM\u00b9.png", b"x")), "reserved device name"),
    "reserved-folder": (lambda g: _with(g, ("aux/x.png", b"x")), "reserved device name"),
    "long-once-decomposed": (lambda g: _with(g, ("art/" + "\u0390" * 127, b"x")), "longer than 255 bytes"),
    "windows-stream": (lambda g: _with(g, ("art/map.png:evil", b"x")), "Windows cannot store"),
    # the places the validators land files at (lwcore.pack.contents.landing_problems)
    "landing-twice": (lambda g: _landing_clash(g, "other/twin.yaml", "match"),
                      "rulepacks/match/resolver.js, and contents.rulepacks\\[0\\] lands 'rules/match/resolver.js'"
                      ": the landing place appears more than once"),
    "landing-by-case": (lambda g: _landing_clash(g, "other/twin.yaml", "Match"),
                        "has the folder 'rulepacks/Match', which differs from 'rulepacks/match'"),
    "landing-file-and-folder": (lambda g: _landing_clash(g, "other/twin.yaml", "match.yaml"),
                                "needs 'rulepacks/match.yaml' as a folder"),
}
"""The name rules' corpus: every case that once passed ``lw pack verify`` and then crashed or
differed by system at install, with its class; each is also run as ``lw`` processes below."""

CORPUS: dict[str, tuple[Callable[[Path], bytes], str]] = {
    **NAME_CASES,
    "zip-slip": (lambda g: _with(g, ("../evil.png", b"x")), r"'\.\.' segment"),
    "zip-slip-deep": (lambda g: _with(g, ("art/../../evil.png", b"x")), r"'\.\.' segment"),
    "absolute-posix": (lambda g: _with(g, ("/etc/evil.png", b"x")), "is absolute"),
    "absolute-drive": (lambda g: _with(g, ("C:/evil.png", b"x")), "is absolute"),
    "backslash": (lambda g: _with(g, ("..\\evil.png", b"x")), "Windows cannot store"),
    "control-char": (lambda g: _with(g, ("art/a\x07.png", b"x")), "control character"),
    "reserved-device": (lambda g: _with(g, ("art/CON.png", b"x")), "reserved device name"),
    "symlink": (symlink_entry, "symbolic link"),
    "folder-entry": (lambda g: _with(g, ("art/sub/", b"")), "folder entry"),
    "duplicate-name": (lambda g: _with(g, ("art/map.png", b"other")), "appears more than once"),
    "case-duplicate": (lambda g: _with(g, ("art/MAP.png", b"other")), "only by case"),
    "bad-utf8-unflagged": (lambda g: raw_name(g, "art/XX.png", b"art/\xff\xfe.png"), "not UTF-8"),
    "bad-utf8-flagged": (lambda g: raw_name(g, "art/\u00e9.png", b"art/\xff\xfe.png"), "not a readable zip"),
    "encrypted": (encrypted, "encrypted"),
    "overlapping": (overlapping, "overlaps"),
    "ratio-bomb": (ratio_bomb, "inflates"),
    "count-bomb": (count_bomb, "members; the limit is 4096"),
    "lying-size": (lying_size, "sizes differ"),
    "undeclared-member": (lambda g: repack(g, add={"art/extra.png": b"x"}, fix_inventory=False), "undeclared"),
    "inventoried-but-unshipped": (lambda g: repack(g, add={"art/extra.png": b"x"}), "no content item or asset ships it"),
    "hash-mismatch": (lambda g: repack(g, replace={"art/map.png": b"\x89PNG\r\n\x1a\n" + bytes(range(63)) + b"!"},
                                       fix_inventory=False), "sha256 does not match"),
    "missing-member": (lambda g: zip_bytes([(n, b) for n, b in members(g).items() if n != "art/map.png"]),
                       "listed but not in the archive"),
    "mislabelled-card": (mislabelled_card, "parses differently than its manifest says: detected"),
    "lying-trust": (lying_trust, "trust block does not match"),
    "card-in-rulepacks": (wrong_parser, "rules/fen.yaml"),
    "no-manifest": (lambda g: zip_bytes([(n, b) for n, b in members(g).items() if n != "pack.yaml"]), "no pack.yaml"),
    "not-a-zip": (lambda g: b"PK\x03\x04 this is not a zip at all" * 10, "not a readable zip"),
    "truncated": (lambda g: g.read_bytes()[: len(g.read_bytes()) // 2], "not a readable zip"),
    "engine-too-new": (engine_from_the_future, "needs lwcore 99.0 or newer"),
}


@pytest.fixture
def installed_state(kernel: Kernel, built: Callable[..., Path]) -> Path:
    """A data dir that already holds one installed pack (the tree the corpus must not touch)."""
    install_pack(kernel, str(built(pack_id="other", files={"rules/marsh.yaml": "extends: coc7\nnames: [marsh]\n"},
                                   contents="contents:\n  rulepacks: [rules/marsh.yaml]\nassets: [art/]\n")))
    return built()


@pytest.mark.parametrize("case", sorted(CORPUS))
def test_hostile_archive_is_refused_with_nothing_written(case: str, kernel: Kernel, installed_state: Path,
                                                          tmp_path: Path, tree) -> None:
    make, words = CORPUS[case]
    hostile = tmp_path / f"{case}.lwpack"
    hostile.write_bytes(make(installed_state))
    before = tree(kernel.data_dir)
    with pytest.raises(LwError, match=words) as caught:
        install_pack(kernel, str(hostile))
    assert str(hostile) in str(caught.value) or caught.value.file is not None
    assert tree(kernel.data_dir) == before
    with pytest.raises(LwError, match=words):
        verify_pack(kernel, hostile)


def test_the_good_pack_of_the_corpus_installs(kernel: Kernel, installed_state: Path) -> None:
    report = install_pack(kernel, str(installed_state))
    assert report is not None and report.landed == ["rulepacks/fen.yaml"]


def test_an_engine_refusal_speaks_the_operators_language(kernel: Kernel, installed_state: Path, tmp_path: Path) -> None:
    hostile = tmp_path / "future.lwpack"
    hostile.write_bytes(engine_from_the_future(installed_state))
    with pytest.raises(LwError, match="这个内容包需要 lwcore 99.0 或更新版本") as caught:
        install_pack(kernel, str(hostile), locale="zh-CN")
    assert caught.value.code == "engine"


@pytest.mark.parametrize("case", ["zip-slip", "symlink", "ratio-bomb", "bad-utf8-unflagged", "not-a-zip", "lying-trust"])
def test_lw_pack_verify_refuses_in_one_located_line(case: str, installed_state: Path, tmp_path: Path) -> None:
    hostile = tmp_path / f"{case}.lwpack"
    hostile.write_bytes(CORPUS[case][0](installed_state))
    run = subprocess.run([sys.executable, "-c", "from lwcore.cli import main; main()", "--data-dir", str(tmp_path / "d"), "pack", "verify",
                          str(hostile)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and run.stderr.startswith("error: ") and str(hostile) in run.stderr


@pytest.mark.parametrize("case", sorted(NAME_CASES))
def test_lw_pack_verify_and_install_refuse_the_name_corpus_alike(case: str, kernel: Kernel, installed_state: Path,
                                                                 tmp_path: Path, tree) -> None:
    """Verify and install apply one set of name rules: each case is refused by both commands,
    as real ``lw`` processes, with the same located message, and the data dir (which already
    holds a pack) is byte-identical afterwards."""
    make, words = NAME_CASES[case]
    hostile = tmp_path / f"{case}.lwpack"
    hostile.write_bytes(make(installed_state))
    before = tree(kernel.data_dir)
    messages = []
    for command in (("pack", "verify", str(hostile)), ("pack", "install", "--yes", str(hostile))):
        outcome = run_lw(*command, data_dir=kernel.data_dir, surface=f"lw {' '.join(command[:2])} (names)")
        message = assert_refused(outcome, where=f"{hostile}!/")
        assert re.search(words, message), message
        messages.append(message[message.index("error: "):])
        assert tree(kernel.data_dir) == before
    assert messages[0] == messages[1]
