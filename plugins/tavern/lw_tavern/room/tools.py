"""``set_stat`` / ``adjust_stat`` / ``get_stat``: the model's checked channel to the room's MVU tree.

Offered where the room enables the feature ``tavern-mvu`` (a world import that seeds variables
enables it). The writes are the kernel's tree operations, applied by the engine
(:func:`lwcore.turn.mvu.apply_to_room`): ``set_stat`` changes an existing leaf only (a number
leaf takes numbers; a ``[value, "description"]`` leaf keeps its description), ``adjust_stat``
adds to a number (or milliseconds to an ISO date). A refused write is a tool error saying why.
The changes are keeper-only events (the tree is hidden from players until ``.var expose``).
"""

from __future__ import annotations

import math
from typing import Any

from lwcore.contributions import TreeOp
from lwcore.turn import mvu
from lwcore.turn.tools import ToolError
from pydantic import BaseModel, ConfigDict, Field, field_validator

PATH = Field(min_length=1, max_length=1000, description="a variable path: 角色.好感度, 背包[0].名称")


class SetStat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = PATH
    value: Any = Field(description="the new value (a number leaf takes a number)")
    reason: str = Field("", max_length=300)


class AdjustStat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = PATH
    delta: float = Field(description="added to the number (milliseconds for a date)")
    reason: str = Field("", max_length=300)

    @field_validator("delta")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("delta must be a finite number")
        return value


class GetStat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = PATH


def _write(ctx: Any, op: TreeOp, tool: str) -> dict[str, Any]:
    (event,) = mvu.apply_to_room(ctx.room, [op], by=tool)
    ctx.events.append(event)
    if event["kind"] != "tree":
        raise ToolError(event["summary"].split("refused: ", 1)[-1])
    return {"path": op.path, "before": event["before"], "value": event["value"]}


def set_stat(args: SetStat, ctx: Any) -> dict[str, Any]:
    return _write(ctx, TreeOp("set", args.path, (args.value,), args.reason), "set_stat")


def adjust_stat(args: AdjustStat, ctx: Any) -> dict[str, Any]:
    delta: float | int = int(args.delta) if args.delta.is_integer() else args.delta
    return _write(ctx, TreeOp("add", args.path, (delta,), args.reason), "adjust_stat")


def get_stat(args: GetStat, ctx: Any) -> dict[str, Any]:
    from lwcore.turn import mvu
    from lwcore.turn.tools import ToolError

    tree = mvu.tree_of(ctx.room)
    found, node = mvu.lookup(tree, mvu.parse_path(args.path))
    if not found:
        raise ToolError(f"{args.path}: no such variable (top level: {', '.join(map(str, tree)) or 'the tree is empty'})")
    return {"path": args.path, "value": mvu.value_of(node),
            **({"description": node[1]} if mvu.is_described(node) else {})}
