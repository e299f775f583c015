"""Properties: any damage to a pack's bytes is a located refusal (never another exception, never
a hang); any name the path rule accepts stays inside its folder on every system."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.names import fold, name_problem
from lwcore.pack.verify import verify_pack

ROOT = Path(__file__).resolve().parents[2]


def _good_pack(tmp: Path) -> tuple[Kernel, bytes]:
    import shutil

    kernel = Kernel(data_dir=tmp / "data", env={})
    shutil.copytree(ROOT / "examples" / "blackmoor", tmp / "src")
    return kernel, build_pack(kernel, tmp / "src", tmp / "out").path.read_bytes()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_packs_are_refused_with_a_located_error(tmp_path_factory, data) -> None:
    base = tmp_path_factory.getbasetemp() / "pack-property"
    if not (base / "out").exists():
        base.mkdir(exist_ok=True)
        _good_pack(base)
    good = next((base / "out").glob("*.lwpack")).read_bytes()
    kernel = Kernel(data_dir=base / "data", env={})
    edits = data.draw(st.lists(st.tuples(st.integers(0, len(good) - 1), st.integers(0, 255)), min_size=1, max_size=8))
    cut = data.draw(st.integers(1, len(good)))
    damaged = bytearray(good[:cut])
    for at, value in edits:
        if at < len(damaged):
            damaged[at] = value
    target = base / f"damaged-{os.getpid()}.lwpack"
    target.write_bytes(bytes(damaged))
    try:
        with verify_pack(kernel, target) as verified:
            assert bytes(damaged) == good or verified.manifest.id == "blackmoor"
    except LwError as exc:
        assert exc.file is not None


SEGMENT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=12)


@settings(max_examples=500, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=5).map("/".join))
def test_an_accepted_name_never_leaves_its_folder(name: str) -> None:
    if name_problem(name) is not None:
        return
    for flavour in (PurePosixPath, PureWindowsPath):
        path = flavour(name)
        assert not path.is_absolute() and not path.drive and ".." not in path.parts
    assert os.path.normpath("/root/" + name).startswith("/root/")
    assert fold(name) == fold(fold(name))
