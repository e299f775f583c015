"""``lw pack build``: a source folder with a ``pack.yaml`` to one byte-deterministic ``.lwpack``.

Every declared content item is parsed by the validator its kind registered (the code that will
run it); every problem in the whole pack is reported at once, located, and any problem means no
pack. The archive holds the built manifest (the author's fields, each item's detected facts,
the assets' media types, the complete ``files`` inventory and the generated ``trust`` block)
and every member the items and assets ship, nothing else. The same tree gives the same bytes on
any machine, whatever the files' modification times, owners or permissions and the umask
(see :mod:`lwcore.pack.archive`). The build ends by verifying its own output exactly as an
install would, so a pack that builds is a pack that installs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lwcore.errors import LwError, LwErrors
from lwcore.io.text import decode_text, describe_size
from lwcore.pack.archive import write_pack
from lwcore.pack.contents import Checked, check_contents, expand_assets, trust_of
from lwcore.pack.files import SourceTree
from lwcore.pack.limits import DEFAULT_LIMITS, PackLimits
from lwcore.pack.names import clashes
from lwcore.pack.manifest import (
    MANIFEST_NAME,
    MANIFEST_VERSION,
    PACK_SUFFIX,
    BuiltAsset,
    BuiltManifest,
    FileRecord,
    SourceManifest,
    dump_manifest,
    parse_manifest,
)
from lwcore.pack.verify import require_engine, verify_pack

if TYPE_CHECKING:
    from lwcore.kernel import Kernel


@dataclass(frozen=True)
class BuiltPack:
    """A written ``.lwpack``: where, its sha256, its manifest and the validators' warnings."""

    path: Path
    sha256: str
    manifest: BuiltManifest
    warnings: tuple[str, ...] = ()


def build_pack(kernel: Kernel, source: str | Path, out_dir: str | Path | None = None, *,
               limits: PackLimits = DEFAULT_LIMITS, locale: str = "en") -> BuiltPack:
    """Check ``source`` and write ``<out_dir>/<id>-<version>.lwpack`` (``out_dir`` defaults to the
    current folder). Raises :class:`LwError`/``LwErrors`` with every problem; writes nothing then."""
    tree = SourceTree(source)
    manifest_file = Path(source) / MANIFEST_NAME
    if not tree.is_file(MANIFEST_NAME):
        raise LwError(f"no {MANIFEST_NAME} here (a pack's source folder starts with one)", file=manifest_file,
                      code="not_found")
    text = decode_text(tree.read_bytes(MANIFEST_NAME, max_bytes=limits.manifest_bytes), manifest_file)
    manifest, locate = parse_manifest(text, file=str(manifest_file), built=False)
    require_engine(manifest.engine, locale, file=str(manifest_file))
    checked = check_contents(kernel, manifest.contents, tree, pack_id=manifest.id, locate=locate, max_items=limits.items)
    problems = list(checked.problems)
    assets, asset_problems = expand_assets(manifest.assets, tree, locate=locate)
    problems += asset_problems
    members = dict(checked.claims)
    for asset in assets:
        if asset.path in members:
            problems.append(LwError(f"{asset.path!r} is an asset and also shipped by {members[asset.path]}",
                                    **locate(("assets",)), code="duplicate"))
        members.setdefault(asset.path, "assets")
    if MANIFEST_NAME in members:
        problems.append(LwError(f"{MANIFEST_NAME} is the manifest; no item or asset may ship it", file=str(manifest_file)))
    names = [MANIFEST_NAME, *sorted(set(members) - {MANIFEST_NAME})]
    for index, _, why in clashes(names):
        problems.append(LwError(f"name {why}", file=tree.display(names[index]), code="duplicate"))
    if len(members) + 1 > limits.entries:
        problems.append(LwError(f"the pack would hold {len(members) + 1} files; the limit is {limits.entries}",
                                file=str(manifest_file), code="limit"))
    sizes: dict[str, int] = {}
    for name in sorted(members):
        try:
            sizes[name] = tree.size(name)
        except (OSError, LwError) as exc:
            problems.append(exc if isinstance(exc, LwError) else LwError(str(exc), file=tree.display(name)))
            continue
        if sizes[name] > limits.file_bytes:
            problems.append(LwError(f"is {describe_size(sizes[name])}; the limit for one file is "
                                    f"{describe_size(limits.file_bytes)}", file=tree.display(name), code="limit"))
    if sum(sizes.values()) > limits.total_bytes:
        problems.append(LwError(f"the pack's files add up to {describe_size(sum(sizes.values()))}; the limit is "
                                f"{describe_size(limits.total_bytes)}", file=str(manifest_file), code="limit"))
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)

    out = Path(out_dir) if out_dir is not None else Path.cwd()
    target = out / f"{manifest.id}-{manifest.version}{PACK_SUFFIX}"
    records: dict[str, FileRecord] = {}

    def hashed(name: str) -> Callable[[], Iterator[bytes]]:
        def chunks() -> Iterator[bytes]:
            digest, size = hashlib.sha256(), 0
            for chunk in tree.chunks(name):
                digest.update(chunk)
                size += len(chunk)
                yield chunk
            records[name] = FileRecord(path=name, size=size, sha256=digest.hexdigest())

        return chunks

    def manifest_bytes() -> Iterator[bytes]:
        built = _built(manifest, checked, assets, records)
        yield dump_manifest(built).encode("utf-8")

    names = sorted(members)
    write_pack(target, [*((n, hashed(n)) for n in names), (MANIFEST_NAME, manifest_bytes)])
    try:
        with verify_pack(kernel, target, limits=limits, locale=locale) as verified:
            return BuiltPack(target, verified.sha256, verified.manifest, tuple(checked.warnings))
    except LwError:
        target.unlink(missing_ok=True)
        raise


def _built(manifest: SourceManifest, checked: Checked, assets: list[BuiltAsset],
           records: dict[str, FileRecord]) -> BuiltManifest:
    """The built manifest from the checked source manifest and the members as written."""
    contents: dict[str, list[object]] = {}
    for item in checked.items:
        contents.setdefault(item.kind, []).append(item.built())
    data = {
        **{k: getattr(manifest, k) for k in ("id", "version", "engine", "name", "description", "authors", "license")},
        **manifest.extras(),
        "manifest_version": MANIFEST_VERSION,
        "contents": contents,
        "assets": assets,
        "files": [records[n] for n in sorted(records)],
        "trust": trust_of(checked.items, assets, {n: r.size for n, r in records.items()}),
    }
    return BuiltManifest.model_validate(data)
