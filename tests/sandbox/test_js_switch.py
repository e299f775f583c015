"""One operator setting turns off every sandboxed JavaScript surface: ``TRPG_ENABLE_FULL_EJS=false``
(the contract's name, C.1; :mod:`lwcore.sandbox.switch`), each surface degrading as the
contract says -- through ``lw`` with the variable in its environment, as an operator runs it:

- hooks (``examples/blackmoor``'s ``hooks.js``) do not run; the keeper is told; the turn goes on;
- full-mode templates (a tavern world book's loop) fall back to the read-only subset, never raw;
- rule scripts (a scripted resolution, a scripted subsystem) are refused, located; the rest runs;
- prep scripts (``.module`` setups) are refused with nothing applied, their preview says why;
- tier-2 views (``lw serve``) get no frame: the page shows the panel's tier-1 fallback, the
  frame's files are not served.

The same commands with the variable unset (or set to anything else) run every surface.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from lwcore.sandbox.switch import OFF_WORDS, REASON, SWITCH, js_enabled

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
OFF = {SWITCH: "false"}


def env_with(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_") and k != SWITCH}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def lw(work: Path, *args: str, env: dict[str, str] | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(work / "data"), *args], capture_output=True, text=True, timeout=120,
                         cwd=work, env=env_with({"LW_HOME": str(work / "home"), **(env or {})}))
    assert "Traceback" not in run.stderr, run.stderr
    assert (run.returncode == 0) == ok, run.stderr
    return run


def say(work: Path, member: str, line: str, *extra: str, env: dict[str, str] | None = None,
        ok: bool = True) -> subprocess.CompletedProcess[str]:
    return lw(work, "turn", "room", "--as", member, "--say", line, "--seed", "11", *extra, env=env, ok=ok)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not {"cache", ".lw"} & set(p.relative_to(root).parts)}


@pytest.mark.parametrize("value", ["false", "FALSE", " False ", "0", "no", "off", "Off"])
def test_the_words_that_turn_it_off(value: str) -> None:
    assert not js_enabled({SWITCH: value})


@pytest.mark.parametrize("value", ["", "true", "1", "yes", "on", "full", "flase"])
def test_anything_else_leaves_it_on(value: str) -> None:
    assert js_enabled({SWITCH: value}) and js_enabled({})
    assert value.strip().lower() not in OFF_WORDS


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The example room with ``blackmoor`` installed in it (a hook, a module setup)."""
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "data").mkdir()
    lw(tmp_path, "pack", "build", str(ROOT / "examples" / "blackmoor"), "-o", "out")
    say(tmp_path, "kp", ".pack install out/blackmoor-1.0.0.lwpack")
    return tmp_path


def peat(work: Path) -> int:
    variables = yaml.safe_load((work / "room" / "variables.yaml").read_text(encoding="utf-8"))["variables"]
    return next(v for v in variables if v["id"] == "peat_memory")["value"]


def test_hooks_do_not_run_and_the_keeper_is_told(work: Path) -> None:
    say(work, "p1", ".ra 沼泽知识", env=OFF)  # a failure at seed 11: the hook would add 2
    assert peat(work) == 0
    last = [json.loads(line) for line in (work / "room" / "history.jsonl").read_text(encoding="utf-8").splitlines()]
    told = [e for e in last if (e.get("data") or {}).get("kind") == "hook_log" and "hooks not run" in e["text"]]
    assert len(told) == 1 and told[0]["audience"] == "keeper" and REASON in told[0]["text"]
    assert "fen-guide" in told[0]["text"]
    say(work, "p1", ".ra 沼泽知识")  # the switch unset: the hook runs again
    assert peat(work) == 2


def test_prep_scripts_are_refused_with_nothing_applied(work: Path) -> None:
    shown = say(work, "kp", ".module show blackmoor", env=OFF).stdout
    assert f"铺设 prep/setup.js：无法预览：prep script blackmoor/prep/setup.js: {REASON}" in shown
    say(work, "kp", ".phase prep")
    before = files(work / "room")
    refused = say(work, "kp", ".module start blackmoor", env=OFF, ok=False)
    assert REASON in refused.stderr and "nothing of blackmoor was started" in refused.stderr
    assert files(work / "room") == before
    assert say(work, "kp", ".module start blackmoor").stdout.splitlines()[-1] == "铺设 prep/setup.js：已运行 5 步"


def test_full_templates_fall_back_to_the_subset(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    shutil.copy(ROOT / "plugins" / "tavern" / "tests" / "fixtures" / "bell-tower.world.json", tmp_path / "room")
    (tmp_path / "data").mkdir()
    say(tmp_path, "kp", ".import bell-tower.world.json world")
    full = say(tmp_path, "p1", "我提着灯。", "--payload").stdout
    assert "LOOP0 LOOP1 LOOP2" in full  # a JavaScript loop in a world-book entry, run in the sandbox
    lite = say(tmp_path, "p1", "我提着灯。", "--payload", env=OFF).stdout
    assert "LOOP" not in lite and "<%" not in lite and "for (" not in lite  # left out, never raw


def test_rule_scripts_are_refused_and_the_rest_of_the_pack_runs(tmp_path: Path) -> None:
    root = tmp_path / "data" / "plugins" / "pair-match"
    shutil.copytree(ROOT / "tests" / "rules" / "script_pack", root / "rulepacks")
    (root / "lw-plugin.toml").write_text('id = "pair-match"\nversion = "1.0.0"\ntier = "data"\n'
                                         'provides = ["rulepacks"]\n[description]\nen = "scripted"\n',
                                         encoding="utf-8")
    assert lw(tmp_path, "cmd", "match", ".m Wits", "--seed", "1").stdout == "Wits 7: 3d6=12/7 Pair\n"
    for line, key in ((".m Wits", "resolution"), (".strain", "subsystems.strain")):
        refused = lw(tmp_path, "cmd", "match", line, "--seed", "1", env=OFF, ok=False)
        assert refused.stderr.startswith(f"error: match: the {key} script cannot run: {REASON}"), refused.stderr
    assert "Wits" in lw(tmp_path, "rulepack", "show", "match", env=OFF).stdout  # the pack itself still reads
    assert lw(tmp_path, "roll", "2d6", "--seed", "1", env=OFF).returncode == 0


def _page(process: subprocess.Popen[str]) -> str:
    seen = ""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, seen
        seen += process.stdout.readline()  # type: ignore[union-attr]
        links = dict(re.findall(r"\((keeper|p1|p2)\): (http://127\.0\.0\.1:\d+/t/\S+/)", seen))
        if "p1" in links:
            return links["p1"]


def _get(url: str) -> tuple[int, str]:
    """GET ``url``, following a seat link's redirect with the session cookie it sets."""
    import http.cookiejar

    deadline = time.monotonic() + 30
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    while True:
        try:
            with opener.open(url, timeout=30) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.1)


@pytest.mark.parametrize("off", [False, True])
def test_tier_two_views_show_their_fallback(tmp_path: Path, off: bool) -> None:
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    (tmp_path / "data").mkdir()
    mounts = {"LW_DEV_PACKS": str(ROOT / "plugins" / "panels" / "examples" / "harbor-ui")}
    say(tmp_path, "kp", ".panels enable harbor-ui", env=mounts)
    env = env_with({"LW_HOME": str(tmp_path / "home"), **mounts, **(OFF if off else {})})
    process = subprocess.Popen([LW, "--data-dir", str(tmp_path / "data"), "serve", str(tmp_path / "room"), "--port",
                                "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        link = _page(process)
        status, page = _get(link)
        assert status == 200 and 'data-panel="harbor-ui/map"' in page
        section = page[page.index('data-panel="harbor-ui/map"'):]
        section = section[:section.index("</section>")]
        frame_status, _ = _get(link + "frame/harbor-ui/map/index.html")
        if off:
            assert "<iframe" not in section and "<img" in section and "lw-fallback" not in section  # the fallback, shown
            assert frame_status == 404
        else:
            assert '<iframe class="lw-frame"' in section and "lw-fallback" in section and frame_status == 200
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert "Traceback" not in err, err
