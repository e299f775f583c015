"""Installing a 50 MB pack, against the floor of unzipping and hashing the same bytes, in one run.

    .venv/bin/python bench/pack.py

The pack is the example pack's rulepack and card plus 50 media files of 1 MB (random bytes,
like images and audio: nothing to compress). An install is everything `lw pack install --yes`
does after the file is local: open and check the archive, read and check the manifest, hash
every member against the inventory, re-parse the content files with their validators, derive
the trust block, then stage every member (hashing again while copying, fsync), move the home,
the landed files and the ledger into place as one swap, and clean up. The floor is the least
any installer must do with the same archive: extract every member (Python's zipfile) and
sha256 its bytes. Goal: install <= 2x the floor. Best of several runs each, in fresh folders.

An install fsyncs what it stages (``durable=True``, the default) so a power cut cannot leave a
half-written member behind a committed install; waiting for the disk is not something an unzip
does, so the run also measures both on equal footing: the install without fsync against the
floor, and the durable install against the floor followed by an fsync of what it extracted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lwcore.kernel import Kernel  # noqa: E402
from lwcore.pack.build import build_pack  # noqa: E402
from lwcore.pack.install import install_pack  # noqa: E402

MEDIA_FILES = 50
MEDIA_BYTES = 1_000_000
RUNS = 5


def make_pack(work: Path) -> Path:
    src = work / "src"
    shutil.copytree(ROOT / "examples" / "blackmoor", src)
    rng = __import__("random").Random(7)
    for i in range(MEDIA_FILES):
        (src / "art" / f"plate-{i:02d}.png").write_bytes(rng.randbytes(MEDIA_BYTES))
    kernel = Kernel(data_dir=work / "build-data", env={})
    return build_pack(kernel, src, work / "dist").path


def floor(pack: Path, target: Path) -> None:
    with zipfile.ZipFile(pack) as archive:
        archive.extractall(target)
        for info in archive.infolist():
            hashlib.sha256((target / info.filename).read_bytes()).hexdigest()


def floor_synced(pack: Path, target: Path) -> None:
    floor(pack, target)
    for path in target.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)


def install(pack: Path, data: Path) -> None:
    install_pack(Kernel(data_dir=data, env={}), str(pack))


def install_unsynced(pack: Path, data: Path) -> None:
    install_pack(Kernel(data_dir=data, env={}), str(pack), durable=False)


def best(label: str, fn, pack: Path, work: Path) -> float:  # noqa: ANN001
    times = []
    for run in range(RUNS):
        target = work / f"{label}-{run}"
        start = time.perf_counter()
        fn(pack, target)
        times.append(time.perf_counter() - start)
        shutil.rmtree(target)
    return min(times)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="lw-bench-pack-") as tmp:
        work = Path(tmp)
        pack = make_pack(work)
        size = pack.stat().st_size
        Kernel(data_dir=work / "warm", env={}).pack_validators  # noqa: B018 - import the validators once
        floor_s = best("floor", floor, pack, work)
        unsynced_s = best("unsynced", install_unsynced, pack, work)
        synced_floor_s = best("floor-synced", floor_synced, pack, work)
        install_s = best("install", install, pack, work)
        print(f"pack: {size / 1e6:.1f} MB, {MEDIA_FILES + 3} members ({os.cpu_count()} CPUs), best of {RUNS}")
        print(f"floor: zipfile extract + sha256 of every member       {floor_s * 1000:8.1f} ms")
        print(f"install, durable=False (verify + staged swap)         {unsynced_s * 1000:8.1f} ms"
              f"   {unsynced_s / floor_s:.2f}x the floor (goal <= 2x)")
        print(f"floor + fsync of every extracted file                 {synced_floor_s * 1000:8.1f} ms")
        print(f"install (the default: staged files fsynced)           {install_s * 1000:8.1f} ms"
              f"   {install_s / synced_floor_s:.2f}x the fsynced floor, {install_s / floor_s:.2f}x the plain floor")


if __name__ == "__main__":
    main()
