"""Writes own_cases.jsonl: legacy requests with missing roles, where we deliberately differ
from the reference (it writes "undefined" or a text-less block; we omit the role).
own_expected.jsonl is our reviewed output, frozen."""

from __future__ import annotations

import json
from pathlib import Path

RS = {"role": "runtime_system", "markdown": "mechanics 规则"}
AI = {"role": "author_instruction", "markdown": "style 😀"}
WC = {"role": "world_context", "markdown": "world"}
PI = {"role": "player_input", "markdown": "I look."}


def cases():
    sets = {
        "no-runtime": [AI, WC, PI],
        "no-author": [RS, WC, PI],
        "no-world": [RS, AI, PI],
        "no-player": [RS, AI, WC],
        "only-player": [PI],
        "only-world": [WC],
        "nothing": [],
    }
    out = []
    for provider in ("anthropic_messages", "chat_completions", "openai_responses"):
        short = provider.split("_")[0]
        for name, messages in sets.items():
            out.append((f"{short}-legacy-{name}", {"provider": provider, "ordered": False, "messages": messages}))
            out.append((f"{short}-legacy-{name}-managed", {"provider": provider, "ordered": False, "cacheStrategy": "provider_managed", "messages": messages}))
        out.append((f"{short}-chain-legacy-no-world", {"provider": provider, "ordered": False, "callChain": True, "messages": [RS, AI, PI]}))
    return out


if __name__ == "__main__":
    with (Path(__file__).parent / "own_cases.jsonl").open("w", encoding="utf-8") as f:
        for name, request in cases():
            f.write(json.dumps({"name": name, "request": request}, ensure_ascii=True) + "\n")
