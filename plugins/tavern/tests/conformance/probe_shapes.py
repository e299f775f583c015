"""Runs every fixture of ``tests/fixtures/real_shapes`` through the real commands, as child
processes (``lw tavern inspect``, ``import --as world`` and ``--as pc`` into a copy of the example
room, ``activate`` over a one-message chat, ``preset`` for presets), and prints what each did.

    python plugins/tavern/tests/conformance/probe_shapes.py [--json FILE]

It measures; it asserts nothing (SURVEY.md records its output).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHAPES = HERE.parent / "fixtures" / "real_shapes"
sys.path.insert(0, str(HERE.parent))
LW = str(Path(sys.executable).with_name("lw"))


def run(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    p = subprocess.run([LW, *args], capture_output=True, env=env, timeout=180)
    out = (p.stdout + p.stderr).decode("utf-8", "replace").strip()
    return p.returncode, out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    from roomkit import copy_room

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("LW_")}
        env["LW_HOME"] = str(base / "home")
        template = copy_room(base / "template", with_docs=False)
        chat = base / "chat.json"
        chat.write_text(json.dumps([{"name": "玩家", "is_user": True, "mes": "雾里的灯塔，港口的钟楼，潮汐和礁石"}], ensure_ascii=False))
        for path in sorted(SHAPES.iterdir()):
            if path.suffix not in (".json", ".png") or path.name.startswith("make_"):
                continue
            row = {}
            if path.name.startswith("preset"):
                row["preset"] = run(["tavern", "preset", str(path)], env)
            else:
                row["inspect"] = run(["tavern", "inspect", str(path)], env)
                for kind in ("world", "pc"):
                    room = base / f"room-{path.stem}-{kind}"
                    shutil.copytree(template, room)
                    row[f"import {kind}"] = run(["tavern", "import", str(path), "--as", kind, str(room), "--json"], env)
                row["activate"] = run(["tavern", "activate", str(path), "--chat", str(chat)], env)
            results[path.name] = row
            print(f"== {path.name}")
            for what, (code, out) in row.items():
                first = out.splitlines()[0] if out else ""
                print(f"   {what:<10} exit {code}  {first[:150]}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
