"""Writes cases.jsonl: the golden requests (run once; expected.jsonl holds the reference output).

expected.jsonl was produced by running these requests through a JavaScript harness built
from the narraeon 0.5.2 compiled source (mapProvider / cacheStableText / stableCacheBoundary /
compilePlayCallChain) under Node.js, then frozen here.
"""

from __future__ import annotations

import json
from pathlib import Path

RS = {"role": "runtime_system", "markdown": "Resolve dice with the tools.\nNever invent state.", "blocks": [{"source": "runtime:builtin/runtime.play-contract", "markdown": "Resolve dice with the tools.\nNever invent state."}]}
AI = {"role": "author_instruction", "markdown": "Keep the tone grim; answer in second person."}
WC = {"role": "world_context", "markdown": "# Arkham\n\nA town by the Miskatonic."}
PI = {"role": "player_input", "markdown": "I open the door."}
CJK = [
    {"role": "runtime_system", "markdown": "规则：掷骰用工具。\u2028换行符\u2029段落", "messageRole": "system", "promptId": "runtime"},
    {"role": "author_instruction", "markdown": "语气阴冷 🕯️👻，第二人称。\"引号\" \\反斜杠\\ \t制表\x01控制\x7f", "messageRole": "system", "promptId": "world"},
    {"role": "world_context", "markdown": "# 阿卡姆 🏚️\n\n米斯卡托尼克河畔的小镇。𠀀𪚥 astral", "messageRole": "system", "promptId": "world"},
    {"role": "player_input", "markdown": "我推开门。😱"},
]
LONE = [
    {"role": "runtime_system", "markdown": "lone \ud800 high and \udfff low"},
    {"role": "player_input", "markdown": "x\udc00"},
]
FLOAT_TOOLS = [{"name": "probe", "description": "number formats", "inputSchema": {"type": "object", "b": 1e21, "a": 0.1, "c": 1e-7, "d": 100.0, "e": 1.5e-6, "2": "index", "1": -0.0, "big": 2**60}}]
RUNTIME_TOOLS = None  # filled from lw_narraeon.tools at generation time


def user(markdown, prompt_id=None):
    m = {"role": "author_instruction", "markdown": markdown, "messageRole": "user"}
    if prompt_id:
        m["promptId"] = prompt_id
    return m


def assistant(markdown, prompt_id=None):
    m = {"role": "author_instruction", "markdown": markdown, "messageRole": "assistant"}
    if prompt_id:
        m["promptId"] = prompt_id
    return m


def cases():
    from lw_narraeon.tools import runtime_tool_definitions

    base = [RS, AI, WC, PI]
    with_ids = [dict(RS, promptId="runtime"), dict(AI, promptId="style"), dict(AI, markdown="Second author block.", promptId="world"), dict(WC, promptId="world"), PI]
    chat_turns = [RS, AI, user("Earlier: I asked about the key."), assistant("The key is under the mat."), user("And the lamp?", "turn-2"), assistant("Lit.", "turn-2"), WC, PI]
    conversation = [RS, AI, WC, user("Earlier: I asked about the key."), assistant("The key is under the mat."), user("And the lamp?", "turn-2"), user("Quickly!", "turn-2"), assistant("Lit.", "turn-2"), PI]
    # (name, request)
    out = []
    for provider in ("anthropic_messages", "chat_completions", "openai_responses"):
        short = provider.split("_")[0]
        out += [
            (f"{short}-ordered-basic", {"provider": provider, "messages": base}),
            (f"{short}-ordered-merge-off", {"provider": provider, "mergeConsecutiveMessages": False, "messages": with_ids}),
            (f"{short}-ordered-merge-on-ids", {"provider": provider, "mergeConsecutiveMessages": True, "messages": with_ids}),
            (f"{short}-ordered-cjk-emoji", {"provider": provider, "mergeConsecutiveMessages": False, "messages": CJK}),
            (f"{short}-ordered-lone-surrogates", {"provider": provider, "messages": LONE}),
            (f"{short}-ordered-no-player", {"provider": provider, "messages": [RS, AI, WC]}),
            (f"{short}-ordered-two-players", {"provider": provider, "messages": [RS, PI, AI, dict(PI, markdown="And look around.")]}),
            (f"{short}-ordered-empty", {"provider": provider, "messages": []}),
            (f"{short}-ordered-cliproxy", {"provider": provider, "cacheStrategy": "explicit_cliproxyapi_message", "messages": base}),
            (f"{short}-ordered-provider-managed", {"provider": provider, "cacheStrategy": "provider_managed", "messages": base}),
            (f"{short}-ordered-explicit-blocks", {"provider": provider, "cacheStrategy": "explicit_anthropic_blocks", "messages": base}),
            (f"{short}-ordered-runtime-tools-en", {"provider": provider, "tools": runtime_tool_definitions(locale="en"), "messages": base}),
            (f"{short}-ordered-runtime-tools-zh", {"provider": provider, "tools": runtime_tool_definitions(locale="zh-CN"), "toolStrategy": "runtime_gate", "messages": CJK}),
            (f"{short}-ordered-float-tools", {"provider": provider, "tools": FLOAT_TOOLS, "messages": base}),
            (f"{short}-ordered-conversation-merge-on", {"provider": provider, "messages": chat_turns}),
            (f"{short}-ordered-conversation-merge-off", {"provider": provider, "mergeConsecutiveMessages": False, "messages": chat_turns}),
            (f"{short}-ordered-dialogue-merge-on", {"provider": provider, "messages": conversation}),
            (f"{short}-ordered-dialogue-merge-off", {"provider": provider, "mergeConsecutiveMessages": False, "messages": conversation}),
            (f"{short}-ordered-dialogue-provider-managed", {"provider": provider, "cacheStrategy": "provider_managed", "messages": conversation}),
            (f"{short}-ordered-empty-user-entries", {"provider": provider, "mergeConsecutiveMessages": False, "messages": [RS, user("   \n\t"), AI, user(""), user("\u3000"), WC, PI]}),
            (f"{short}-ordered-system-after-user", {"provider": provider, "messages": [RS, user("hello"), AI, PI]}),
            (f"{short}-ordered-system-after-assistant", {"provider": provider, "messages": [assistant("prefill"), RS]}),
            (f"{short}-ordered-assistant-tool-roles", {"provider": provider, "messages": [RS, {"role": "assistant", "markdown": "as author"}, {"role": "tool", "markdown": "tool text"}, PI]}),
            (f"{short}-legacy-full", {"provider": provider, "ordered": False, "messages": base}),
            (f"{short}-legacy-provider-managed", {"provider": provider, "ordered": False, "cacheStrategy": "provider_managed", "messages": base}),
            (f"{short}-legacy-empty-player", {"provider": provider, "ordered": False, "messages": [RS, AI, WC, dict(PI, markdown="")]}),
            (f"{short}-legacy-last-wins", {"provider": provider, "ordered": False, "messages": [RS, AI, dict(AI, markdown="later author"), WC, PI]}),
            (f"{short}-chain-ordered", {"provider": provider, "callChain": True, "messages": [WC, RS, dict(WC, markdown="more world"), AI, PI]}),
            (f"{short}-chain-ordered-cliproxy", {"provider": provider, "callChain": True, "cacheStrategy": "explicit_cliproxyapi_message", "messages": [RS, WC, AI, PI]}),
            (f"{short}-chain-ordered-provider-managed", {"provider": provider, "callChain": True, "cacheStrategy": "provider_managed", "messages": [RS, WC, AI, PI]}),
            (f"{short}-chain-ordered-explicit-last-runtime", {"provider": provider, "callChain": True, "cacheStrategy": "explicit_anthropic_blocks", "messages": [AI, RS, WC, PI]}),
            (f"{short}-chain-ordered-merge-off", {"provider": provider, "callChain": True, "mergeConsecutiveMessages": False, "messages": with_ids}),
            (f"{short}-chain-ordered-cjk", {"provider": provider, "callChain": True, "messages": CJK}),
            (f"{short}-chain-legacy", {"provider": provider, "callChain": True, "ordered": False, "messages": base}),
            (f"{short}-chain-legacy-cliproxy", {"provider": provider, "callChain": True, "ordered": False, "cacheStrategy": "explicit_cliproxyapi_message", "messages": base}),
        ]
    return out


if __name__ == "__main__":
    here = Path(__file__).parent
    with (here / "cases.jsonl").open("w", encoding="utf-8") as f:
        for name, request in cases():
            f.write(json.dumps({"name": name, "request": request}, ensure_ascii=True) + "\n")
    with (here / "requests.tmp.jsonl").open("w", encoding="utf-8") as f:
        for name, request in cases():
            f.write(json.dumps(request, ensure_ascii=True) + "\n")
