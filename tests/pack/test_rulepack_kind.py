"""The rulepacks kind, checked by the rules engine: extends inside the pack first, then the
host; rules scripts ship beside their rulepack and land with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack

BASE = "names: [base]\ndefaults:\n  腿力: 40\nresolution:\n  roll: 1d100\n  target: skill\n  compare: \"<=\"\n"
PATCH = "extends: base\nnames: [patch]\nderived:\n  跳远: {expr: \"腿力 * 2\"}\n"


def test_extends_finds_the_packs_own_base_before_the_hosts(kernel: Kernel, tmp_path: Path, write) -> None:
    host = kernel.data_dir / "rulepacks"
    host.mkdir(parents=True)
    (host / "base.yaml").write_text("names: [base]\nresolution: {roll: 1d20, target: dc, compare: \">=\"}\n", encoding="utf-8")
    src = write(tmp_path / "src", files={"rules/base.yaml": BASE, "rules/patch.yaml": PATCH},
                contents="contents:\n  rulepacks: [rules/patch.yaml, rules/base.yaml]\n")
    built = build_pack(kernel, src, tmp_path / "out")
    items = {i.path: i for i in built.manifest.contents["rulepacks"]}
    assert items["rules/patch.yaml"].detected == {"extends": "base"} and items["rules/base.yaml"].id == "base"
    alone = write(tmp_path / "src2", files={"rules/patch.yaml": PATCH}, contents="contents:\n  rulepacks: [rules/patch.yaml]\n")
    with pytest.raises(LwError, match="腿力") as caught:  # the host's base has no 腿力: the pack's own was used above
        build_pack(kernel, alone, tmp_path / "out2")
    assert caught.value.file.endswith("rules/patch.yaml") and caught.value.line == 4


def test_an_unknown_parent_is_located(kernel: Kernel, tmp_path: Path, write) -> None:
    src = write(tmp_path / "src", files={"rules/fen.yaml": "names: [fen]\nextends: nowhere\n"})
    with pytest.raises(LwError, match="unknown parent system 'nowhere'") as caught:
        build_pack(kernel, src, tmp_path / "out")
    assert caught.value.line == 2


def test_rules_scripts_ship_beside_their_rulepack_and_land_with_it(kernel: Kernel, tmp_path: Path, write) -> None:
    rules = "extends: coc7\nnames: [fen]\nresolution:\n  script: scripts/resolve.js\n"
    src = write(tmp_path / "src", files={"rules/fen.yaml": rules, "rules/scripts/resolve.js": "function resolve(c) {}\n"})
    built = build_pack(kernel, src, tmp_path / "out")
    [item] = built.manifest.contents["rulepacks"]
    assert item.files == ["rules/scripts/resolve.js"] and built.manifest.trust.has_rules_script
    report = install_pack(kernel, str(built.path))
    assert report is not None and report.landed == ["rulepacks/fen.yaml", "rulepacks/scripts/resolve.js"]
    assert (kernel.data_dir / "rulepacks/scripts/resolve.js").read_text(encoding="utf-8") == "function resolve(c) {}\n"


@pytest.mark.parametrize(("script", "words"), [("gone.js", "is not in the pack"),
                                                ("../../outside.js", "inside the pack")])
def test_a_missing_or_escaping_script_is_refused_at_its_line(kernel: Kernel, tmp_path: Path, write, script: str, words: str) -> None:
    rules = f"extends: coc7\nnames: [fen]\nsubsystems:\n  fate:\n    script: {script}\n"
    src = write(tmp_path / "src", files={"rules/fen.yaml": rules})
    with pytest.raises(LwError, match=words) as caught:
        build_pack(kernel, src, tmp_path / "out")
    assert caught.value.line == 5
