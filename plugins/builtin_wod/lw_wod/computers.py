"""The Chronicles of Darkness dice pool as a named subsystem computer (deterministic, no IO).

The engine hands in ``call``: ``data`` (the pack's subsystem settings), ``args`` (from the
command or the API: ``pool``, ``again``, ``target``), and ``draw`` (the engine's dice: every
face comes from it, so a result replays from its faces). It returns a verdict the engine
checks and reports.

Rules: roll ``pool`` d10; each die at ``target`` (8) or more is a success; each die at
``again`` (10; 9-again, 8-again as options; 11 = none) or more adds one more die, which can
add again (at most ``MAX_REROLLS``). 1s do not cancel. No successes: failure; ``exceptional_at``
(5) or more: exceptional success. A pool below 1 rolls one chance die: 10 succeeds, 1 is a
dramatic failure, anything else fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_REROLLS = 100


def _int(value: Any, default: int) -> int:
    if value is None or value is True:
        return default
    return int(value)


def cofd_pool(call: Mapping[str, Any]) -> dict[str, Any]:
    data = call.get("data") or {}
    args = call.get("args") or {}
    draw = call["draw"]
    pool = _int(args.get("pool", args.get("value")), 1) + _int(args.get("adjust"), 0)
    target = _int(args.get("target"), _int(data.get("target"), 8))
    again = _int(args.get("again"), _int(data.get("again"), 10))
    exceptional_at = _int(data.get("exceptional_at"), 5)
    if not 8 <= again <= 11:
        raise ValueError(f"again must be 8, 9, 10 or 11 (none), not {again}")
    if pool < 1:
        face = draw(10)
        if face == 10:
            outcome, successes = "success", 1
        elif face == 1:
            outcome, successes = "dramatic_failure", 0
        else:
            outcome, successes = "failure", 0
        return {"outcome": outcome, "success": successes > 0,
                "values": {"pool": pool, "chance": True, "successes": successes, "dice": [face]},
                "flags": {"chance_die": True}, "rolls": [{"expr": "1d10", "faces": [face]}]}
    faces: list[int] = []
    remaining = pool
    rerolls = 0
    while remaining > 0:
        face = draw(10)
        faces.append(face)
        remaining -= 1
        if face >= again and rerolls < MAX_REROLLS:
            remaining += 1
            rerolls += 1
    successes = sum(1 for f in faces if f >= target)
    if successes == 0:
        outcome = "failure"
    elif successes >= exceptional_at:
        outcome = "exceptional"
    else:
        outcome = "success"
    return {"outcome": outcome, "success": successes > 0,
            "values": {"pool": pool, "again": again, "successes": successes, "rerolls": rerolls, "dice": faces},
            "flags": {"exceptional": True} if outcome == "exceptional" else {},
            "rolls": [{"expr": f"{pool}d10", "faces": faces}]}
