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


CLASHY = st.lists(st.lists(st.sampled_from(["a", "A", "b", "\u00e9", "e\u0301", "\u00c9", "stra\u00dfe", "STRASSE",
                                             "x.png", "X.PNG"]), min_size=1, max_size=3).map("/".join),
                  min_size=1, max_size=6)


def _materialize(root: Path, names: list[str]) -> bool:
    """Whether every name can be written as its own new file under ``root``."""
    try:
        for name in names:
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb"):
                pass
    except (FileExistsError, NotADirectoryError, IsADirectoryError):
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(CLASHY)
def test_names_without_a_clash_fit_one_tree_on_a_case_sensitive_and_a_case_insensitive_system(names: list[str]) -> None:
    """``clashes`` is the whole story: when it finds nothing, the names can be written as files
    side by side both as spelt (a case-sensitive system) and folded (what a case- and
    normalization-insensitive system sees); when either cannot be written, it finds a clash.
    Its verdict does not depend on the order of the names."""
    import tempfile

    from lwcore.pack.names import clashes

    found = clashes(names)
    with tempfile.TemporaryDirectory() as spelt, tempfile.TemporaryDirectory() as folded:
        fits = _materialize(Path(spelt), names) and _materialize(Path(folded), [fold(n) for n in names])
    assert fits or found, names
    if not found:
        assert fits
    assert bool(clashes(list(reversed(names)))) == bool(found)
    for index, earlier, why in found:
        assert earlier < index
        assert names[earlier] in why or (why == "appears more than once" and names[earlier] == names[index])
