"""Benchmark: compile a 200-message, ~1 MB conversation for each provider protocol.

Prints, per provider, the median compile time (payload + stable text + fingerprint) and the
median time of a plain ``json.dumps`` of the same payload measured in the same run (the
floor), and their ratio. Target: compile within 3x the floor.

    .venv/bin/python bench/compile.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from lw_narraeon.compiler import compile_call_chain, compile_prompt
from lw_narraeon.tools import runtime_tool_definitions

PROVIDERS = ("anthropic_messages", "chat_completions", "openai_responses")
WORDS = ["the", "door", "creaks", "守秘人", "掷骰", "月光", "🕯️", "\"quoted\"", "back\\slash", "lamp", "Arkham", "河畔"]


def conversation(rng: random.Random, target_bytes: int = 1_000_000, count: int = 200) -> list[dict]:
    per_message = target_bytes // count
    messages = [
        {"role": "runtime_system", "markdown": "", "messageRole": "system", "promptId": "runtime"},
        {"role": "author_instruction", "markdown": "", "messageRole": "system", "promptId": "style"},
        {"role": "world_context", "markdown": "", "messageRole": "system", "promptId": "world"},
    ]
    while len(messages) < count - 1:
        role = "user" if len(messages) % 2 else "assistant"
        messages.append({"role": "author_instruction", "markdown": "", "messageRole": role, "promptId": f"turn-{len(messages)}"})
    messages.append({"role": "player_input", "markdown": ""})
    for message in messages:
        words = []
        size = 0
        while size < per_message:
            word = rng.choice(WORDS)
            words.append(word)
            size += len(word.encode("utf-8")) + 1
        lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
        message["markdown"] = "\n".join(lines)
    return messages


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    messages = conversation(random.Random(7))
    size = sum(len(m["markdown"].encode("utf-8")) for m in messages)
    tools = runtime_tool_definitions()
    print(f"conversation: {len(messages)} messages, {size / 1e6:.2f} MB of markdown, {len(tools)} tools")
    print(f"{'variant':<44}{'compile ms':>12}{'json.dumps ms':>15}{'ratio':>8}")
    worst = 0.0
    for provider in PROVIDERS:
        for label, fn in (("ordered", compile_prompt), ("call-chain", compile_call_chain)):
            result = fn(provider, messages, tools=tools)
            payload = result.provider
            floor = best_of(lambda: json.dumps(payload, ensure_ascii=False, separators=(",", ":")), args.repeat)
            spent = best_of(lambda: fn(provider, messages, tools=tools), args.repeat)
            ratio = spent / floor
            worst = max(worst, ratio)
            print(f"{provider + ' ' + label:<44}{spent * 1e3:>12.2f}{floor * 1e3:>15.2f}{ratio:>7.2f}x")
        # The legacy payload keeps one message per role (tiny); its real work is the stable
        # text of every message, so its floor is json.dumps of payload + stable text.
        result = compile_prompt(provider, messages, ordered=False, tools=tools)
        pair = [result.provider, result.stable_text]
        floor = best_of(lambda: json.dumps(pair, ensure_ascii=False, separators=(",", ":")), args.repeat)
        spent = best_of(lambda: compile_prompt(provider, messages, ordered=False, tools=tools), args.repeat)
        print(f"{provider + ' legacy*':<44}{spent * 1e3:>12.2f}{floor * 1e3:>15.2f}{spent / floor:>7.2f}x")
    print("* legacy floor = json.dumps of [payload, stableText]: its payload keeps one message per role")
    print(f"worst ordered/call-chain ratio: {worst:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
