"""A rule system that needs a script, shipped as a pack: its script checked at build (by the
same loader the engine uses), landed beside the rulepack, and resolving checks once installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.build import build_pack
from lwcore.pack.install import install_pack
from lwcore.rules import engine_for

EXAMPLE = Path(__file__).resolve().parents[1] / "rules" / "script_pack"
FILES = {f"rules/{p.relative_to(EXAMPLE).as_posix()}": p.read_text(encoding="utf-8")
         for p in EXAMPLE.rglob("*") if p.is_file()}
CONTENTS = "contents:\n  rulepacks: [rules/match.yaml]\n  cards: [cards/mira.json]\nassets: [art/]\n"


def test_a_scripted_system_builds_installs_and_resolves(kernel: Kernel, tmp_path: Path, write) -> None:
    src = write(tmp_path / "src", pack_id="pairs", files=FILES, contents=CONTENTS)
    built = build_pack(kernel, src, tmp_path / "out")
    [item] = built.manifest.contents["rulepacks"]
    assert sorted(item.files) == ["rules/match/resolver.js", "rules/match/strain.js"]
    assert built.manifest.trust.has_rules_script
    install_pack(kernel, str(built.path))
    engine = engine_for(kernel)
    engine.refresh()
    pack = engine.rule_system("pair match")
    assert set(pack.scripts) == {"resolution", "subsystems.strain"}
    assert pack.check(7, faces=[3, 4, 6], params={"pool": 3}).rank == "pair"
    assert pack.check(7, faces=[6, 6, 5], params={"pool": 3}).rank == "miss"


@pytest.mark.parametrize(("script", "words"), [
    ("function resolve(c) {", r"does not load: .*rules/match/resolver.js:1:22: SyntaxError"),
    ("function decide(c) { return 'pair'; }", "defines no function resolve"),
])
def test_a_script_that_does_not_load_refuses_the_build_at_its_line(kernel: Kernel, tmp_path: Path, write, script: str,
                                                                  words: str) -> None:
    src = write(tmp_path / "src", pack_id="pairs", files={**FILES, "rules/match/resolver.js": script}, contents=CONTENTS)
    with pytest.raises(LwError, match=words) as caught:
        build_pack(kernel, src, tmp_path / "out")
    assert caught.value.file.endswith("rules/match.yaml") and caught.value.line == 14
