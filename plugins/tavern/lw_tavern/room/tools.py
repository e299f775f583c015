"""``set_stat`` / ``adjust_stat`` / ``get_stat``: the model's checked channel to the room's MVU tree.

Offered where the room enables the feature ``tavern-mvu`` (a world import that seeds variables
enables it). The writes are MVU's operations (:mod:`lw_tavern.mvu.ops`) handed to the kernel
as tree changes, which it checks, makes and records (:func:`lwcore.turn.tree.apply_changes`): ``set_stat`` changes an existing leaf only (a number
leaf takes numbers; a ``[value, "description"]`` leaf keeps its description), ``adjust_stat``
adds to a number (or milliseconds to an ISO date). A refused write is a tool error saying why.
The changes are keeper-only events (the tree is hidden from players until ``.var expose``).
"""

from __future__ import annotations

import math
from typing import Any

from lwcore.api import ToolError, tree as var_tree
from pydantic import BaseModel, ConfigDict, Field, field_validator

from lw_tavern.mvu.ops import Op, change

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


def _write(ctx: Any, op: Op, tool: str) -> dict[str, Any]:
    (event,) = var_tree.apply_changes(ctx.room, [change(op)], by=tool)
    ctx.events.append(event)
    if event["kind"] != "tree":
        raise ToolError(event["summary"].split("refused: ", 1)[-1])
    return {"path": op.path, "before": event["before"], "value": event["value"]}


def set_stat(args: SetStat, ctx: Any) -> dict[str, Any]:
    return _write(ctx, Op("set", args.path, (args.value,), args.reason), "set_stat")


def adjust_stat(args: AdjustStat, ctx: Any) -> dict[str, Any]:
    delta: float | int = int(args.delta) if args.delta.is_integer() else args.delta
    return _write(ctx, Op("add", args.path, (delta,), args.reason), "adjust_stat")


def get_stat(args: GetStat, ctx: Any) -> dict[str, Any]:
    tree = var_tree.tree_of(ctx.room)
    found, node = var_tree.lookup(tree, var_tree.parse_path(args.path))
    if not found:
        raise ToolError(f"{args.path}: no such variable (top level: {', '.join(map(str, tree)) or 'the tree is empty'})")
    return {"path": args.path, "value": var_tree.value_of(node),
            **({"description": node[1]} if var_tree.is_described(node) else {})}
