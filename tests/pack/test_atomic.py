"""Install and remove are all or nothing: a failure (raised) or a killed process (SIGKILL) at
every step leaves the previous state once recovery has run; past the commit point, the new one."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from lwcore.kernel import Kernel
from lwcore.pack.install import install_pack, installed_packs, remove_pack

V1 = {"rules/fen.yaml": "extends: coc7\nnames: [fen]\n", "rules/old.yaml": "extends: coc7\nnames: [old]\n"}
V2 = {"rules/fen.yaml": "extends: coc7\nnames: [fen, fen2]\n", "rules/bog.yaml": "extends: fen\nnames: [bog]\n"}
AFTER_COMMIT = ("committed", "done")


def contents(files: dict[str, str]) -> str:
    return "contents:\n  rulepacks: [" + ", ".join(sorted(files)) + "]\n  cards: [cards/mira.json]\nassets: [art/]\n"


def without_cache(snap: dict) -> dict:
    return {k: v for k, v in snap.items() if not k.startswith("cache")}


@pytest.fixture
def scenario(tmp_path: Path, built: Callable[..., Path], tree) -> dict:
    """fen@1.0.0 installed in a data dir; fen@1.1.0 to install over it (a home, a changed file,
    a new file, a stale file to delete, the ledger); the states before and after."""
    v1 = built(version="1.0.0", files=V1, contents=contents(V1))
    v2 = built(version="1.1.0", files=V2, contents=contents(V2))
    base = tmp_path / "base"
    install_pack(Kernel(data_dir=base, env={}), str(v1))
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    steps: list[str] = []
    install_pack(Kernel(data_dir=reference, env={}), str(v2), fault=steps.append)
    return {"v2": v2, "base": base, "before": tree(base), "after": without_cache(tree(reference)), "steps": steps}


def test_the_install_has_the_steps_the_kill_tests_walk(scenario: dict) -> None:
    assert scenario["steps"][0] == "journal" and scenario["steps"][-2:] == ["committed", "done"]
    assert {"moved:rulepacks/fen.yaml", "placed:rulepacks/bog.yaml", "moved:rulepacks/old.yaml",
            "placed:packs/ledger.json", "placed:packs/fen@1.1.0"} <= set(scenario["steps"])


def _fresh(scenario: dict, tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(scenario["base"], target)
    return target


def test_a_failure_at_any_step_leaves_the_previous_state(scenario: dict, tmp_path: Path, tree) -> None:
    for index, step in enumerate(scenario["steps"]):
        data = _fresh(scenario, tmp_path, f"raise{index}")
        before = tree(data)

        def fault(name: str, step: str = step) -> None:
            if name == step:
                raise OSError(f"disk gone at {step}")

        kernel = Kernel(data_dir=data, env={})
        if step in AFTER_COMMIT:
            with pytest.raises(OSError):
                install_pack(kernel, str(scenario["v2"]), fault=fault)
            installed_packs(kernel)
            assert without_cache(tree(data)) == scenario["after"], step
            continue
        with pytest.raises(OSError, match="disk gone"):
            install_pack(kernel, str(scenario["v2"]), fault=fault)
        assert tree(data) == before, step


KILLER = textwrap.dedent("""
    import os, signal, sys
    from lwcore.kernel import Kernel
    from lwcore.pack.install import install_pack, remove_pack
    data, action, ref, step = sys.argv[1:5]

    def fault(name):
        if name == step:
            os.kill(os.getpid(), signal.SIGKILL)

    kernel = Kernel(data_dir=data, env={})
    if action == "install":
        install_pack(kernel, ref, fault=fault)
    else:
        remove_pack(kernel, ref, fault=fault)
    print("finished")
""")


def _kill_at(data: Path, action: str, ref: str, step: str, tmp_path: Path) -> None:
    script = tmp_path / "killer.py"
    script.write_text(KILLER, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(data), action, ref, step], capture_output=True,
                          text=True, timeout=120, cwd=os.getcwd())
    assert done.returncode == -signal.SIGKILL, (step, done.stdout, done.stderr)


def test_a_killed_install_leaves_the_previous_state(scenario: dict, tmp_path: Path, tree) -> None:
    for index, step in enumerate(scenario["steps"]):
        data = _fresh(scenario, tmp_path, f"kill{index}")
        before = tree(data)
        _kill_at(data, "install", str(scenario["v2"]), step, tmp_path)
        if step != "done":
            assert (data / "packs" / ".lw" / "txn").exists()
        installed_packs(Kernel(data_dir=data, env={}))  # the next pack operation recovers
        if step in AFTER_COMMIT:
            assert without_cache(tree(data)) == scenario["after"], step
        else:
            assert tree(data) == before, step
        assert not any((data / "packs" / ".lw" / "txn").glob("*")), step


def test_a_killed_remove_leaves_the_previous_state(scenario: dict, tmp_path: Path, tree) -> None:
    data = _fresh(scenario, tmp_path, "remove-reference")
    install_pack(Kernel(data_dir=data, env={}), str(scenario["v2"]))
    steps: list[str] = []
    probe = tmp_path / "probe"
    shutil.copytree(data, probe)
    remove_pack(Kernel(data_dir=probe, env={}), "fen@1.1.0", fault=steps.append)
    assert "placed:rulepacks/old.yaml" in steps and "moved:rulepacks/bog.yaml" in steps
    for index, step in enumerate(s for s in steps if s not in AFTER_COMMIT):
        victim = tmp_path / f"remove{index}"
        shutil.copytree(data, victim)
        before = tree(victim)
        _kill_at(victim, "remove", "fen@1.1.0", step, tmp_path)
        installed_packs(Kernel(data_dir=victim, env={}))
        assert tree(victim) == before, step
