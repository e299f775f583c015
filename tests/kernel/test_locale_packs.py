"""Locale packs (issue 27, item 10: a declared data kind with a use): a data plugin providing
``locales`` adds a language to the kernel's and the plugins' own messages
(``locales/<language>/<package>.json``). It adds, never replaces a shipped text; a message that
is not the package's, or takes other placeholders, is refused with its file and the rest used.
Through the real ``lw``, as an operator runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

LW = str(Path(sys.executable).with_name("lw"))
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fog-harbor"


def lw(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
    env["LW_HOME"] = str(home)
    done = subprocess.run([LW, *args], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def french_room(tmp_path: Path) -> Path:
    room = tmp_path / "room"
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies", ".lw"))
    text = (room / "room.yaml").read_text(encoding="utf-8")
    (room / "room.yaml").write_text(text.replace("    name: Alex\n    locale: en\n", "    name: Alex\n    locale: fr\n"),
                                    encoding="utf-8")
    assert "locale: fr" in (room / "room.yaml").read_text(encoding="utf-8")
    return room


def locale_pack(home: Path, files: dict[str, dict[str, str]]) -> Path:
    folder = home / "plugins" / "francais"
    folder.mkdir(parents=True)
    (folder / "lw-plugin.toml").write_text('id = "francais"\nversion = "1.0.0"\ntier = "data"\nprovides = ["locales"]\n'
                                           '[description]\nen = "French"\n', encoding="utf-8")
    for name, messages in files.items():
        path = folder / "locales" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    return folder


def test_a_locale_pack_adds_a_language_and_never_replaces_a_shipped_text(tmp_path: Path) -> None:
    home = tmp_path / "home"
    room = french_room(tmp_path)
    before = lw(home, "turn", str(room), "--as", "p2", "--say", ".help").stdout
    assert before.startswith("Room commands you can run here:")  # no French yet: the default language
    folder = locale_pack(home, {
        "fr/lwcore.json": {"help.head": "Commandes de salle :", "help.dice": "Jets du système : {commands}",
                           "no.such.message": "x", "view.recap": "Résumé : {wrong}"},
        "zh/lwcore.json": {"help.head": "被换掉了"},  # Chinese ships: never replaced
        "fr/no_such_package.json": {"a": "b"},
    })
    after = lw(home, "turn", str(room), "--as", "p2", "--say", ".help").stdout
    assert after.startswith("Commandes de salle :")
    assert "Room commands you can run here:" not in after
    zh = lw(home, "turn", str(room), "--as", "p1", "--say", ".help").stdout
    assert zh.startswith("可用的房间命令：") and "被换掉了" not in zh
    listed = {r["id"]: r for r in json.loads(lw(home, "plugins", "list", "--json").stdout)}
    errors = " ".join(listed["francais"].get("errors") or [listed["francais"].get("reason") or ""])
    assert "'no.such.message' is not a message of lwcore" in errors
    assert "'view.recap' takes ['wrong'] (plain {name} fields only), not ['text']" in errors
    assert str(folder / "locales" / "fr" / "no_such_package.json") in errors


def test_a_hostile_locale_pack_never_stalls_crashes_or_shadows_shipped_text(tmp_path: Path) -> None:
    """The attacker's H3/H4: a deeply nested file, a FIFO, a region tag over a shipped language,
    format specs in a template -- each refused or harmless; every command still answers."""
    home = tmp_path / "home"
    room = french_room(tmp_path)
    folder = locale_pack(home, {
        "fr/lwcore.json": {"help.head": "Commandes de salle :"},
        "en-us/lwcore.json": {"help.head": "REPLACED", "pack.code": "code run in the sandbox: none{hooks!s:.0}"},
        "zh-cn/lwcore.json": {"help.head": "被换掉了"},
        "de/lwcore.json": {"help.head": "Raumbefehle:{x:>300000000}"},
    })
    (folder / "locales" / "it").mkdir()
    (folder / "locales" / "it" / "lwcore.json").write_text('{"a":' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    (folder / "locales" / "es").mkdir()
    os.mkfifo(folder / "locales" / "es" / "lwcore.json")
    listed = {r["id"]: r for r in json.loads(lw(home, "plugins", "list", "--json").stdout)}
    errors = " ".join(listed["francais"].get("errors") or [])
    assert "not a regular file" in errors and "it/lwcore.json" in errors
    assert lw(home, "turn", str(room), "--as", "p2", "--say", ".help").stdout.startswith("Commandes de salle :")
    room_file = room / "room.yaml"
    room_file.write_text(room_file.read_text(encoding="utf-8").replace("locale: fr", "locale: en-US"), encoding="utf-8")
    assert lw(home, "turn", str(room), "--as", "p2", "--say", ".help").stdout.startswith("Room commands you can run here:")
    room_file.write_text(room_file.read_text(encoding="utf-8").replace("locale: zh\n", "locale: zh-CN\n", 1),
                         encoding="utf-8")
    assert lw(home, "turn", str(room), "--as", "p1", "--say", ".help").stdout.startswith("可用的房间命令：")


def test_each_kernel_reads_its_own_locale_packs_in_one_process(tmp_path: Path) -> None:
    """Two kernels in one process (a host serving two data dirs): each reads the packs of its
    own data dir -- where it loaded, in each of its turns, and in a turn queue's worker thread
    -- never the other's, whichever loaded last."""
    import threading

    from lwcore import i18n
    from lwcore.kernel import Kernel
    from lwcore.turn.queue import TurnQueue

    french, plain = tmp_path / "french", tmp_path / "plain"
    locale_pack(french, {"fr/lwcore.json": {"help.head": "Commandes de salle :"}})
    plain.mkdir()
    head = lambda: i18n.kernel_text("help.head", "fr")  # noqa: E731
    english = head()
    assert english.startswith("Room commands")

    seen: dict[str, str] = {}

    def load_and_read(name: str, home: Path) -> None:
        Kernel(data_dir=home, env={}).load_all()
        seen[name] = head()

    threads = [threading.Thread(target=load_and_read, args=(n, h)) for n, h in (("french", french), ("plain", plain))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"french": "Commandes de salle :", "plain": english}

    a = Kernel(data_dir=french, env={})
    a.load_all()
    assert head() == "Commandes de salle :"
    b = Kernel(data_dir=plain, env={})
    b.load_all()
    assert head() == english  # the last loaded in this thread is in use here
    with i18n.packs_in_use(a.locale_packs):
        assert head() == "Commandes de salle :"
        worker = TurnQueue("t", idle=0.1).submit(head)  # a queued job runs in its submitter's context
        assert worker.result(timeout=30) == "Commandes de salle :"
    assert head() == english

    room = french_room(tmp_path)
    result = a.turn(room, ".help", actor="p2")
    assert result.command is not None and str(result.command.to_json()["text"]).startswith("Commandes de salle :")
    assert head() == english  # a's turn left b's packs in use here
