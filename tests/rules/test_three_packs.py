"""Uninstalling any one bundled rule system leaves the other two working, with no residue:
simulated by disabling it (``Kernel(disabled=…)``), by enabling only the others
(``Kernel(enabled=…)``), and by a kernel that never sees its entry point."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import lwcore.kernel
from lwcore.cli import main
from lwcore.kernel import Kernel
from lwcore.rules import engine_for

SYSTEMS = {
    "coc7": {"distribution": "loreweaver-builtin-coc7", "words": ["coc", "coc7", "call of cthulhu", "克苏鲁"],
             "residue": ["coc", "cthulhu", "克苏鲁"], "computers": ["coc7_mov"],
             "command": ".ra 侦查60", "sheet": {"dex": 60}},
    "dnd5e": {"distribution": "loreweaver-builtin-dnd5e", "words": ["dnd", "dnd5e", "d&d", "5e", "龙与地下城"],
              "residue": ["dnd", "d&d", "龙与地下城"], "computers": [],
              "command": ".chk dex dc15 adv", "sheet": {"dex": 16}},
    "wod": {"distribution": "loreweaver-builtin-wod", "words": ["wod", "owod", "world of darkness", "cofd", "黑暗世界"],
            "residue": ["wod", "world of darkness", "cofd", "黑暗世界"], "computers": ["wod_cofd_pool"],
            "command": ".w 5 6 wp", "sheet": {"dex": 3}},
}


def _kernels(gone: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    others = set(SYSTEMS) - {gone}
    yield "disabled", Kernel(data_dir=tmp_path, disabled={gone})
    yield "enabled", Kernel(data_dir=tmp_path, enabled=others | {"persona", "storyrepo", "narraeon_compiler",
                                                                 "providers"})
    real = lwcore.kernel.discover_entry_points
    dist = SYSTEMS[gone]["distribution"]

    def without(*args, **kwargs):
        return [r for r in real(*args, **kwargs) if r.distribution != dist]

    monkeypatch.setattr(lwcore.kernel, "discover_entry_points", without)
    yield "uninstalled", Kernel(data_dir=tmp_path)
    monkeypatch.setattr(lwcore.kernel, "discover_entry_points", real)


def _check(kernel: Kernel, gone: str) -> None:
    engine = engine_for(kernel)
    others = sorted(set(SYSTEMS) - {gone})
    assert [i for i in engine.ids() if i in SYSTEMS] == others
    for word in SYSTEMS[gone]["words"]:
        assert engine.find(word) is None, word
    for name in SYSTEMS[gone]["computers"]:
        assert name not in kernel.rule_computers
    problems = " ".join(str(p) for p in engine.problems()).casefold()
    for word in SYSTEMS[gone]["residue"]:
        assert word not in problems
    for other in others:
        spec = SYSTEMS[other]
        sheet = engine.sheet(other, spec["sheet"])
        result = engine.command(other, spec["command"], sheet=sheet, rng=random.Random(1), locale="zh")
        assert result.text and result.data
        for word in SYSTEMS[gone]["residue"]:
            assert word not in result.text.casefold()
        made = engine.make_char(other, rng=random.Random(2))
        assert made.system == other


@pytest.mark.parametrize("gone", list(SYSTEMS))
def test_one_system_gone_two_working(gone: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    for how, kernel in _kernels(gone, tmp_path, monkeypatch):
        _check(kernel, gone)
        seen.append(how)
    assert seen == ["disabled", "enabled", "uninstalled"]


@pytest.mark.parametrize("gone", list(SYSTEMS))
def test_cli_has_no_residue(gone: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    real = lwcore.kernel.discover_entry_points
    dist = SYSTEMS[gone]["distribution"]
    monkeypatch.setattr(lwcore.kernel, "discover_entry_points",
                        lambda *a, **k: [r for r in real(*a, **k) if r.distribution != dist])
    outputs = []
    for args in (["rulepack", "list", "--json"], ["schema", "sheet"], ["cmd", "--help"]):
        try:
            main(["--data-dir", str(tmp_path), *args])
        except SystemExit as exc:
            assert not exc.code, args
        outputs.append(capsys.readouterr().out.casefold())
    for other in set(SYSTEMS) - {gone}:
        assert other in outputs[0]
    for word in SYSTEMS[gone]["residue"]:
        assert all(word not in out for out in outputs), word
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(tmp_path), "cmd", gone, ".st show"])
    assert info.value.code == 1
    assert "unknown system" in capsys.readouterr().err
