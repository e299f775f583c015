"""Installing: landing places, the ledger, replacing, upgrading, removing, collisions, a running
kernel seeing new content, the CLI's trust card and confirmation."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from lwcore.cli import lw
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.pack.install import install_pack, installed_packs, installed_path, remove_pack
from lwcore.rules import engine_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hostile"))

V1 = {"rules/fen.yaml": "extends: coc7\nnames: [fen]\n", "rules/old.yaml": "extends: coc7\nnames: [old]\n"}
V2 = {"rules/fen.yaml": "extends: coc7\nnames: [fen, fen2]\n", "rules/bog.yaml": "extends: fen\nnames: [bog]\n"}


def contents(files: dict[str, str]) -> str:
    return "contents:\n  rulepacks: [" + ", ".join(sorted(files)) + "]\n  cards: [cards/mira.json]\nassets: [art/]\n"


@pytest.fixture
def versions(built: Callable[..., Path]) -> tuple[Path, Path]:
    return (built(version="1.0.0", files=V1, contents=contents(V1)),
            built(version="1.1.0", files=V2, contents=contents(V2)))


def test_install_lands_discovery_files_and_the_home(kernel: Kernel, versions: tuple[Path, Path]) -> None:
    report = install_pack(kernel, str(versions[0]))
    assert report is not None and report.landed == ["rulepacks/fen.yaml", "rulepacks/old.yaml"]
    home = kernel.data_dir / "packs" / "fen@1.0.0"
    assert report.home == home and (home / "pack.yaml").is_file() and (home / "cards/mira.json").is_file()
    assert (kernel.data_dir / "rulepacks/fen.yaml").read_text(encoding="utf-8") == V1["rules/fen.yaml"]
    ledger = json.loads((kernel.data_dir / "packs/ledger.json").read_text(encoding="utf-8"))
    assert ledger["packs"]["fen"]["active"] == "1.0.0"
    assert ledger["packs"]["fen"]["versions"]["1.0.0"]["lands"] == {"rulepacks/fen.yaml": "rules/fen.yaml",
                                                                   "rulepacks/old.yaml": "rules/old.yaml"}
    assert installed_path(kernel, "fen/cards/mira.json") == home / "cards/mira.json"
    assert installed_path(kernel, "fen/../../etc/passwd") is None and installed_path(kernel, "nope/x") is None


def test_a_running_kernel_sees_installed_rulepacks_without_a_restart(kernel: Kernel, versions: tuple[Path, Path]) -> None:
    engine = engine_for(kernel)
    assert "fen" not in engine.ids()
    install_pack(kernel, str(versions[0]))
    assert {"fen", "old"} <= set(engine.ids()) and engine.rule_system("fen").matches("fen")
    install_pack(kernel, str(versions[1]))
    assert "old" not in engine.ids() and engine.rule_system("bog").matches("bog") and engine.rule_system("fen").matches("fen2")


def test_a_kernel_sees_what_another_process_installed_within_its_recheck_window(
        kernel: Kernel, versions: tuple[Path, Path]) -> None:
    now = [0.0]
    from lwcore.rules.engine import RulesEngine

    engine = RulesEngine(kernel, clock=lambda: now[0])
    assert "fen" not in engine.ids()
    install_pack(Kernel(data_dir=kernel.data_dir, env={}), str(versions[0]))  # another kernel: another process
    assert "fen" not in engine.ids()  # within the window nothing is looked at again
    now[0] += engine.recheck_after
    assert {"fen", "old"} <= set(engine.ids())


def test_upgrading_makes_the_new_version_active_and_drops_stale_files(kernel: Kernel, versions: tuple[Path, Path]) -> None:
    install_pack(kernel, str(versions[0]))
    report = install_pack(kernel, str(versions[1]))
    assert report is not None and report.removed == ["rulepacks/old.yaml"]
    assert sorted(p.name for p in (kernel.data_dir / "rulepacks").iterdir()) == ["bog.yaml", "fen.yaml"]
    listing = {(p.id, p.version): p.active for p in installed_packs(kernel)}
    assert listing == {("fen", "1.0.0"): False, ("fen", "1.1.0"): True}
    removed = remove_pack(kernel, "fen@1.1.0")
    assert "packs/fen@1.1.0" in removed and "rulepacks/bog.yaml" in removed
    assert sorted(p.name for p in (kernel.data_dir / "rulepacks").iterdir()) == ["fen.yaml", "old.yaml"]
    assert (kernel.data_dir / "rulepacks/fen.yaml").read_text(encoding="utf-8") == V1["rules/fen.yaml"]
    remove_pack(kernel, "fen")
    assert installed_packs(kernel) == [] and list((kernel.data_dir / "rulepacks").iterdir()) == []
    with pytest.raises(LwError, match="'fen' is not installed"):
        remove_pack(kernel, "fen")


def test_reinstalling_the_same_version_replaces_its_home_whole(kernel: Kernel, versions: tuple[Path, Path]) -> None:
    install_pack(kernel, str(versions[0]))
    stray = kernel.data_dir / "packs" / "fen@1.0.0" / "cards" / "stray.json"
    stray.write_text("{}", encoding="utf-8")
    report = install_pack(kernel, str(versions[0]))
    assert report is not None and report.replaced and not stray.exists()


def test_an_install_never_takes_another_packs_or_the_operators_file(kernel: Kernel, built: Callable[..., Path],
                                                                     versions: tuple[Path, Path], tree) -> None:
    install_pack(kernel, str(versions[0]))
    rival = built(pack_id="rival", files={"rules/fen.yaml": "extends: coc7\nnames: [fen]\n"},
                  contents="contents:\n  rulepacks: [rules/fen.yaml]\n")
    before = tree(kernel.data_dir)
    with pytest.raises(LwError, match=r"rulepacks/fen.yaml belongs to pack fen@1.0.0 \(lw pack remove fen"):
        install_pack(kernel, str(rival))
    assert tree(kernel.data_dir) == before
    remove_pack(kernel, "fen")
    own = kernel.data_dir / "rulepacks" / "fen.yaml"
    own.write_text("extends: coc7\nnames: [mine]\n", encoding="utf-8")
    with pytest.raises(LwError, match="not from a pack; an install does not replace your own files"):
        install_pack(kernel, str(rival))
    own.write_text("extends: coc7\nnames: [fen]\n", encoding="utf-8")
    report = install_pack(kernel, str(rival))
    assert report is not None and report.kept == ["rulepacks/fen.yaml"] and report.landed == []
    remove_pack(kernel, "rival")
    assert own.read_text(encoding="utf-8") == "extends: coc7\nnames: [fen]\n"


SCRIPT_PACK = Path(__file__).resolve().parents[1] / "rules" / "script_pack"
SCRIPTED = {f"rules/{p.relative_to(SCRIPT_PACK).as_posix()}": p.read_text(encoding="utf-8")
            for p in SCRIPT_PACK.rglob("*") if p.is_file()}
"""A rulepack (``rules/match.yaml``) whose scripts land in ``<data_dir>/rulepacks/match/``."""


def test_an_operator_file_where_a_landing_needs_a_folder_is_refused_located(kernel: Kernel, built: Callable[..., Path],
                                                                             tree) -> None:
    """``<data_dir>/rulepacks/match`` is the operator's file; the pack's scripts need it as a
    folder. A real ``lw pack install`` refuses, naming that file; nothing is written."""
    from hostile_kit import assert_refused, run_lw

    pack = built(pack_id="pairs", files=SCRIPTED, contents="contents:\n  rulepacks: [rules/match.yaml]\n")
    own = kernel.data_dir / "rulepacks" / "match"
    own.parent.mkdir(parents=True)
    own.write_text("the operator's notes\n", encoding="utf-8")
    installed_packs(kernel)  # the packs folder and its lock exist, as after any pack command
    before = tree(kernel.data_dir)
    outcome = run_lw("pack", "install", "--yes", str(pack), data_dir=kernel.data_dir)
    assert_refused(outcome, where=str(own))
    assert "rulepacks/match/resolver.js needs rulepacks/match as a folder, but it is a file" in outcome.stderr
    assert tree(kernel.data_dir) == before


def test_an_upgrade_may_put_a_folder_where_its_old_version_landed_a_file(kernel: Kernel, built: Callable[..., Path]) -> None:
    """Version 1 lands ``rulepacks/match.yaml``; version 2 drops that rulepack and lands a
    script at ``rulepacks/match.yaml/resolver.js``: the stale file goes first, in the same swap."""
    v1 = built(version="1.0.0", files={"rules/match.yaml": "extends: coc7\nnames: [match]\n"},
               contents="contents:\n  rulepacks: [rules/match.yaml]\n")
    twin = {"rules/twin.yaml": SCRIPTED["rules/match.yaml"].replace('names: [match, "pair match"]', "names: [twin]")
            .replace("set_keys: [match]", "set_keys: [twin]").replace("match/", "match.yaml/"),
            "rules/match.yaml/resolver.js": SCRIPTED["rules/match/resolver.js"],
            "rules/match.yaml/strain.js": SCRIPTED["rules/match/strain.js"]}
    v2 = built(version="2.0.0", files=twin, contents="contents:\n  rulepacks: [rules/twin.yaml]\n")
    install_pack(kernel, str(v1))
    assert (kernel.data_dir / "rulepacks/match.yaml").is_file()
    report = install_pack(kernel, str(v2))
    assert report is not None and report.removed == ["rulepacks/match.yaml"]
    assert (kernel.data_dir / "rulepacks/match.yaml/resolver.js").read_text(encoding="utf-8") == SCRIPTED["rules/match/resolver.js"]
    remove_pack(kernel, "fen@2.0.0")
    assert (kernel.data_dir / "rulepacks/match.yaml").read_text(encoding="utf-8") == "extends: coc7\nnames: [match]\n"


def test_a_rulepack_may_not_take_a_plugins_system_id(kernel: Kernel, built: Callable[..., Path]) -> None:
    with pytest.raises(LwError, match="the system id 'coc7' belongs to plugin coc7"):
        built(files={"rules/coc7.yaml": "names: [x]\n"}, contents="contents:\n  rulepacks: [rules/coc7.yaml]\n")


def invoke(kernel: Kernel, *args: str, input: str | None = None) -> object:
    return CliRunner().invoke(lw, ["--data-dir", str(kernel.data_dir), "pack", *args], input=input)


def test_the_cli_shows_the_trust_card_and_refuses_without_a_terminal(kernel: Kernel, versions: tuple[Path, Path], tree) -> None:
    before = tree(kernel.data_dir)
    result = invoke(kernel, "install", str(versions[0]))
    assert result.exit_code == 1
    assert "Pack Fen (fen@1.0.0)" in result.output and "contains: 1 cards, 2 rulepacks" in result.output
    assert "no terminal to confirm on" in str(result.exception) + result.output
    assert tree(kernel.data_dir) == before
    result = invoke(kernel, "install", str(versions[0]), "--yes", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output[result.output.index("{"):])
    assert payload["landed"] == ["rulepacks/fen.yaml", "rulepacks/old.yaml"] and payload["trust"]["counts"]["rulepacks"] == 2
    listing = invoke(kernel, "list", "--json")
    assert [(p["id"], p["version"], p["active"]) for p in json.loads(listing.output)] == [("fen", "1.0.0", True)]
    assert invoke(kernel, "remove", "fen@1.0.0").exit_code == 0
    assert json.loads(invoke(kernel, "list", "--json").output) == []


def test_an_interactive_operator_is_asked_first(kernel: Kernel, versions: tuple[Path, Path], monkeypatch) -> None:
    from types import SimpleNamespace

    runner = CliRunner()
    monkeypatch.setattr("lwcore.builtins.pack.commands.sys", SimpleNamespace(stdin=SimpleNamespace(isatty=lambda: True)))
    declined = runner.invoke(lw, ["--data-dir", str(kernel.data_dir), "pack", "install", str(versions[0])], input="n\n")
    assert declined.exit_code == 1 and "Install this pack?" in declined.output and installed_packs(kernel) == []
    accepted = runner.invoke(lw, ["--data-dir", str(kernel.data_dir), "pack", "install", str(versions[0]), "--locale", "zh"],
                             input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert "安装这个内容包？" in accepted.output and "已安装 fen@1.0.0" in accepted.output
