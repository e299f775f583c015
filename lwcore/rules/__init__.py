"""The rules engine: dice, the closed expression language, rulepacks, derived stats, checks.

It never names a rule system: every system is a rulepack (data) contributed by a plugin or
dropped into ``<data_dir>/rulepacks/``. See ``README.md`` next to this file for the host API.

``import lwcore.rules`` is cheap; the names below load their module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore import lazy_exports

_LAZY = {
    "RulesEngine": "lwcore.rules.engine",
    "PackSource": "lwcore.rules.engine",
    "Problem": "lwcore.rules.engine",
    "RuleSystem": "lwcore.rules.system",
    "CheckResult": "lwcore.rules.system",
    "Sheet": "lwcore.rules.sheet",
    "SubsystemKind": "lwcore.rules.kinds.base",
    "SubsystemResult": "lwcore.rules.kinds.base",
    "DiceExpr": "lwcore.rules.dice",
    "DiceRoll": "lwcore.rules.dice",
    "FaceReplay": "lwcore.rules.dice",
    "compile_dice": "lwcore.rules.dice",
    "roll": "lwcore.rules.dice",
    "rng_drawer": "lwcore.rules.dice",
    "compile_expr": "lwcore.rules.expr",
    "ExprScope": "lwcore.rules.expr",
    "deep_merge": "lwcore.rules.merge",
    "Rulepack": "lwcore.rules.model",
    "RulesError": "lwcore.rules.errors",
    "DiceError": "lwcore.rules.errors",
    "ExprError": "lwcore.rules.errors",
    "RulepackError": "lwcore.rules.errors",
    "RulepackErrors": "lwcore.rules.errors",
    "CheckError": "lwcore.rules.errors",
}

__all__ = [*_LAZY, "engine_for"]

if TYPE_CHECKING:
    from lwcore.kernel import Kernel
    from lwcore.rules.kinds.base import SubsystemKind, SubsystemResult
    from lwcore.rules.sheet import Sheet
    from lwcore.rules.system import CheckResult, RuleSystem
    from lwcore.rules.dice import DiceExpr, DiceRoll, FaceReplay, compile_dice, rng_drawer, roll
    from lwcore.rules.engine import PackSource, Problem, RulesEngine
    from lwcore.rules.errors import CheckError, DiceError, ExprError, RulepackError, RulepackErrors, RulesError
    from lwcore.rules.expr import ExprScope, compile_expr
    from lwcore.rules.merge import deep_merge
    from lwcore.rules.model import Rulepack


def engine_for(kernel: Kernel) -> RulesEngine:
    """The kernel's shared :class:`RulesEngine` (the kernel service ``rules.engine``)."""
    from lwcore.rules.engine import RulesEngine

    return kernel.service("rules.engine", RulesEngine)


__getattr__ = lazy_exports(__name__, _LAZY)
