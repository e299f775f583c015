"""Turn pipeline speed: compile a turn (example room, large room) and apply a 10-call reply.

Baselines measured in the same run: kernel boot (``Kernel()`` with entry points) and a plain
``json.dumps`` of the compiled payload. Target: a warm compile of the large room (200 history
messages, 50 variables, 10 sheets) under 20 ms.

    .venv/bin/python bench/turn.py
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fog-harbor"
SAY = "我去码头查看那艘空船。"


def timed(fn, repeat: int) -> tuple[float, object]:
    """Median wall time in milliseconds over ``repeat`` calls, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def make_large_room(target: Path) -> Path:
    import yaml

    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("replies"))
    room = yaml.safe_load((target / "room.yaml").read_text(encoding="utf-8"))
    base = yaml.safe_load((target / "sheets" / "chen-mo.yaml").read_text(encoding="utf-8"))
    for i in range(3, 11):
        sheet = dict(base, name=f"调查员{i}", owner=f"p{i}")
        (target / "sheets" / f"inv{i}.yaml").write_text(yaml.safe_dump(sheet, allow_unicode=True), encoding="utf-8")
        room["players"].append({"id": f"p{i}", "name": f"玩家{i}", "sheet": f"sheets/inv{i}.yaml"})
    (target / "room.yaml").write_text(yaml.safe_dump(room, allow_unicode=True, sort_keys=False), encoding="utf-8")
    variables = yaml.safe_load((target / "variables.yaml").read_text(encoding="utf-8"))
    for i in range(50 - len(variables["variables"])):
        variables["variables"].append({
            "id": f"tracker_{i}", "kind": "number", "minimum": 0, "maximum": 100, "value": i,
            "visibility": "keeper" if i % 2 else "player", "labels": {"en": f"Tracker {i}", "zh": f"追踪{i}"},
        })
    (target / "variables.yaml").write_text(yaml.safe_dump(variables, allow_unicode=True, sort_keys=False), encoding="utf-8")
    lines = []
    for i in range(200):
        role = ("player", "keeper", "event")[i % 3]
        text = f"第{i // 3 + 1}回合：" + "雾气在码头上翻涌，远处的灯塔忽明忽暗。" * 3
        lines.append(json.dumps({"turn": i // 3 + 1, "role": role, "actor": "p1" if role == "player" else "kp",
                                 "text": text}, ensure_ascii=False))
    (target / "history.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def ten_call_reply() -> dict:
    calls = [
        ("skill_check", {"character": "p1", "skill": "侦查"}),
        ("skill_check", {"character": "p2", "skill": "医学", "difficulty": "hard"}),
        ("subsystem_check", {"character": "p1", "subsystem": "sanity", "loss": "1/1d4"}),
        ("adjust_variable", {"id": "clues_found", "delta": 1}),
        ("adjust_variable", {"id": "cult_alert", "delta": 2}),
        ("set_variable", {"id": "fog", "value": "蔽日"}),
        ("set_variable", {"id": "ritual_nights_left", "value": 9}),
        ("adjust_variable", {"id": "clues_found", "delta": "bad"}),
        ("skill_check", {"character": "p2", "skill": "聆听", "modifiers": ["bonus"]}),
        ("set_variable", {"id": "true_culprit", "value": "无人"}),
    ]
    content = [{"type": "tool_use", "id": f"t{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
    content.append({"type": "text", "text": "钟声响了 {{roll:1d3}} 下。"})
    return {"content": content}


def main() -> int:
    from lwcore.kernel import Kernel
    from lwcore.turn.apply import apply_reply
    from lwcore.turn.compile import compile_turn
    from lwcore.turn.room import Room

    work = Path(tempfile.mkdtemp(prefix="lw-bench-turn-"))
    try:
        env = {"LW_HOME": str(work / "home")}
        boot_ms, _ = timed(lambda: Kernel(data_dir=work / "home", env=env), 5)
        kernel = Kernel(data_dir=work / "home", env=env)
        start = time.perf_counter()
        compile_turn(kernel, Room.load(EXAMPLE, kernel), SAY)  # first compile: imports, registries, packs
        first_ms = (time.perf_counter() - start) * 1000

        rows = []
        small = Room.load(EXAMPLE, kernel)
        large_dir = make_large_room(work / "large")
        large = Room.load(large_dir, kernel)
        load_ms, _ = timed(lambda: Room.load(large_dir, kernel), 10)
        for label, room in (("example room", small), ("large room", large)):
            for protocol in ("anthropic_messages", "chat_completions"):
                compile_ms, compiled = timed(lambda: compile_turn(kernel, room, SAY, provider=protocol), 30)
                dumps_ms, text = timed(lambda: json.dumps(compiled.request, ensure_ascii=False), 30)
                rows.append((f"compile {label} ({protocol})", compile_ms, dumps_ms, len(text.encode("utf-8"))))

        reply = ten_call_reply()
        apply_times = []
        for i in range(10):
            room_dir = work / f"apply{i}"
            shutil.copytree(large_dir, room_dir)
            compiled = compile_turn(kernel, Room.load(room_dir, kernel), SAY)
            start = time.perf_counter()
            applied = apply_reply(kernel, compiled, reply, rng=random.Random(i))
            apply_times.append((time.perf_counter() - start) * 1000)
        errors = sum(r.is_error for r in applied.results)
        apply_ms = statistics.median(apply_times)

        print(f"kernel boot (Kernel(), entry points)      {boot_ms:8.2f} ms   (baseline)")
        print(f"first compile (cold imports/registries)    {first_ms:8.2f} ms")
        print(f"load large room from disk                  {load_ms:8.2f} ms")
        for name, ms, dumps, size in rows:
            print(f"{name:42s} {ms:8.2f} ms   = {ms / boot_ms:5.2f}x boot, {ms / dumps:6.1f}x json.dumps "
                  f"({dumps:.3f} ms, {size} bytes)")
        print(f"apply 10-call reply, large room (saved)   {apply_ms:8.2f} ms   = {apply_ms / boot_ms:5.2f}x boot "
              f"({len(applied.results)} calls, {errors} tool error by design)")
        large_warm = max(ms for name, ms, _, _ in rows if "large" in name)
        verdict = "OK" if large_warm < 20 else "OVER"
        print(f"target: warm compile of the large room < 20 ms -> {large_warm:.2f} ms {verdict}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
