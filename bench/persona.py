"""Benchmark of the persona plugin (whale-persona v1).

1. A full render (every persona block, budget on, capture on, sinks) with a 10,000-line inbox,
   cold (the inbox's cached view dropped), against the floor measured in the same run: reading
   that inbox and calling ``json.loads`` on each of its lines.
2. Inbox replay of 100,000 lines, against the same kind of floor for the 100,000-line file.

Targets: a cold render under 25 ms (issue 12); replay within 3x its floor.

    .venv/bin/python bench/persona.py
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from lw_persona import inbox as inboxmod
from lw_persona.render import render_segments


def make_inbox(path: Path, lines: int, rng: random.Random) -> None:
    out = []
    texts: list[str] = []
    for i in range(lines):
        roll = rng.random()
        if texts and roll < 0.15:
            out.append({"op": "confirm", "ref": rng.choice(texts), "at": "2026-01-01T00:00:00Z"})
        elif texts and roll < 0.20:
            old = texts.pop(rng.randrange(len(texts)))
            new = f"改写后的条目 {i}：偏好与红线"
            texts.append(new)
            out.append({"op": "supersede", "ref": old, "text": new, "at": "2026-01-01T00:00:00Z"})
        elif texts and roll < 0.23:
            out.append({"op": "drop", "ref": texts.pop(rng.randrange(len(texts))), "at": "2026-01-01T00:00:00Z"})
        else:
            text = f"条目 {i}：{rng.choice(['用户偏好简体中文', '别在 CI 里 sleep', '结论先行', '测试要快'])}"
            texts.append(text)
            fact = {"text": text, "at": "2026-01-01T00:00:00Z", "status": rng.choice(["proposed", "confirmed", "confirmed"])}
            if rng.random() < 0.3:
                fact["tag"] = rng.choice(["proj", "other", "demo"])
            out.append(fact)
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out), encoding="utf-8")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cfg = root / "config.json"
        cfg.write_text(json.dumps({
            "thinkingLanguage": "zh-CN",
            "persona": {
                "userName": "小林", "selfNameFlash": "小助", "selfNameByModel": {f"model-{i}": f"名{i}" for i in range(50)},
                "stance": "{selfName}是{userName}的搭子。", "character": "你是{selfName}。\n" * 20, "suffix": "目录 {{cwd}}",
                "appearance": {"enabled": True, "text": "短发\n戴眼镜\n" * 5, "byModel": {}},
                "tone": {"enabled": True, "text": "简洁", "byModel": {"pro": "详细"}},
                "contracts": [{"id": f"c{i}", "text": f"契约 {i}：{{userName}}说了算。", "on": i % 7 != 0} for i in range(30)],
            },
            "memory": {"enabled": True, "capture": "always", "maxEntries": 30,
                       "entries": [{"text": f"手工条目 {i}"} for i in range(10)],
                       "sinks": {"pitfall": {"path": "/notes/pit.md"}, "idea": {"path": "/notes/ideas.jsonl", "format": "jsonl"}}},
            "budget": {"enabled": True, "max": 2000},
        }, ensure_ascii=False), encoding="utf-8")
        small = root / "inbox-10k.jsonl"
        make_inbox(small, 10_000, rng)
        big = root / "inbox-100k.jsonl"
        make_inbox(big, 100_000, rng)

        out = render_segments(cfg, small, model="model-7-pro", cwd="/home/u/proj")
        assert out["persona-prefix"] and out["measure"]["budget"]["over"]
        def cold():
            inboxmod.clear_cache()
            return render_segments(cfg, small, model="model-7-pro", cwd="/home/u/proj")

        r_best, r_med = best(cold, 15)
        w_best, w_med = best(lambda: render_segments(cfg, small, model="model-7-pro", cwd="/home/u/proj"), 15)

        def floor(path: Path) -> int:
            data = path.read_bytes().decode("utf-8")
            n = 0
            for line in data.split("\n"):
                if line:
                    json.loads(line)
                    n += 1
            return n

        def replay() -> int:
            return len(inboxmod.read(big, cache=False).entries)

        s_best, s_med = best(lambda: floor(small), 15)
        f_best, f_med = best(lambda: floor(big), 5)
        p_best, p_med = best(replay, 5)
        print(f"full render, 10,000-line inbox, cold : best {r_best * 1000:7.2f} ms  median {r_med * 1000:7.2f} ms  "
              f"(target < 25 ms; prefix {len(out['persona-prefix'])} chars)")
        print(f"floor: json.loads x 10,000           : best {s_best * 1000:7.2f} ms  median {s_med * 1000:7.2f} ms")
        print(f"render / floor ratio                 : {r_best / s_best:5.2f}x (best)  {r_med / s_med:5.2f}x (median)")
        print(f"same, inbox unchanged (cached view)  : best {w_best * 1000:7.2f} ms  median {w_med * 1000:7.2f} ms")
        print(f"floor: json.loads x 100,000          : best {f_best * 1000:7.2f} ms  median {f_med * 1000:7.2f} ms")
        print(f"inbox replay, 100,000 lines          : best {p_best * 1000:7.2f} ms  median {p_med * 1000:7.2f} ms  "
              f"({replay()} entries in view)")
        print(f"replay / floor ratio                 : {p_best / f_best:5.2f}x (best)  {p_med / f_med:5.2f}x (median)  (target <= 3x)")


if __name__ == "__main__":
    main()
