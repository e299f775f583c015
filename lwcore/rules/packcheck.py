"""Load-time checks of a pack's ``subsystems:`` and ``commands:`` (located diagnostics).

A typo in a subsystem or command (an unknown stat, a modifier the resolution does not
declare, an expression that does not parse) fails the load like a typo in ``resolution``,
instead of failing someone's first ``.sc``. A subsystem of a kind this engine does not run
(and with no ``computer:`` or ``script:``) is a warning: a newer pack still loads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lwcore.errors import LwError
from lwcore.rules.errors import RulepackError
from lwcore.rules.model import Rulepack
from lwcore.io.safe_yaml import Positions

ACTIONS = ("check", "set_stats", "make_char", "show")
VALUE_IS = ("target", "modifier", "param")
STAT_KEYS = {"sanity": ("stat",), "luck": ("stat",), "tally": ("success_stat", "failure_stat")}


def check_behaviour(model: Rulepack, positions: Positions, file: str | None, *,
                    computers: Callable[[str], Any], computer_names: Callable[[], Any]) -> list[str]:
    """Raise a located :class:`RulepackError` on the first problem; return warnings."""
    from lwcore.rules.compiled import locate

    def fail(message: str, path: tuple[Any, ...], expected: str | None = None, key: bool = False) -> RulepackError:
        return locate(RulepackError(message, expected=expected), positions, path, key=key, fallback_file=file)

    stats = {*model.defaults, *model.derived, *model.alias}
    folded = {s.casefold() for s in stats}
    for canonical, words in model.alias.items():
        folded.update(w.casefold() for w in words)
        folded.add(canonical.casefold())
    res = model.resolution
    modifiers = set(res.modifiers) if res else set()
    params = set(res.params) if res else set()
    variants = set(res.variants) if res else set()
    warnings: list[str] = []

    def known_stat(value: Any, path: tuple[Any, ...]) -> None:
        if not isinstance(value, str) or value.casefold() not in folded:
            raise fail(f"unknown stat {value!r}", path, "a stat named in defaults, derived or alias")

    def dice(value: Any, path: tuple[Any, ...]) -> None:
        from lwcore.rules.dice import compile_dice

        try:
            compile_dice(str(value))
        except LwError as exc:
            raise fail(exc.message, path, exc.expected) from None

    for name, raw in model.subsystems.items():
        base = ("subsystems", name)
        data: Mapping[str, Any] = raw or {}
        if not isinstance(data, Mapping):
            raise fail("a subsystem is a mapping of settings", base)
        if data.get("script") is not None:
            continue
        if data.get("computer") is not None:
            cname = str(data["computer"])
            if computers(cname) is None:
                known = ", ".join(sorted(computer_names())) or "none are registered"
                raise fail(f"unknown computer {cname!r}", (*base, "computer"), f"a registered computer ({known})")
            continue
        kind = str(data.get("kind", name))
        for key in STAT_KEYS.get(kind, ()):
            if key not in data:
                raise fail(f"a {kind} subsystem needs {key}:", base, f"{key}: <a stat name>")
            known_stat(data[key], (*base, key))
        if kind == "sanity":
            if data.get("fumble_loss", "max") not in ("max", "roll"):
                raise fail("fumble_loss must be max or roll", (*base, "fumble_loss"))
        elif kind == "growth":
            from lwcore.rules.expr import BOOL, NUM, Context, compile_expr

            try:
                compile_expr(data.get("improve_when", "roll > skill"),
                             Context({"roll": NUM, "skill": NUM}, what="improve_when"), BOOL)
            except LwError as exc:
                raise locate(exc, positions, (*base, "improve_when"), fallback_file=file) from None  # type: ignore[arg-type]
            for key in ("roll", "gain"):
                if key in data:
                    dice(data[key], (*base, key))
        elif kind == "opposed":
            for i, rule in enumerate(data.get("tie") or []):
                if rule not in ("higher_skill", "lower_roll", "higher_margin"):
                    raise fail(f"unknown tie rule {rule!r}", (*base, "tie", i), "higher_skill, lower_roll, higher_margin")
            if data.get("final", "draw") not in ("draw", "first", "second"):
                raise fail("final must be draw, first or second", (*base, "final"))
        elif kind in ("random_madness", "table"):
            tables = data.get("tables")
            if not isinstance(tables, Mapping) or not tables:
                raise fail("tables: needs at least one table", base)
            for tname, tab in tables.items():
                tpath = (*base, "tables", tname)
                if isinstance(tab, str):
                    dice(tab, tpath)
                    continue
                if not isinstance(tab, Mapping):
                    raise fail("a table is a dice expression or {roll, entries, duration, unit}", tpath)
                dice(tab.get("roll", "1d10"), (*tpath, "roll"))
                if tab.get("duration") is not None:
                    dice(tab["duration"], (*tpath, "duration"))
        elif kind == "advantage":
            pair = data.get("pair") or ["advantage", "disadvantage"]
            for i, mod in enumerate(pair[:2]):
                if mod not in modifiers:
                    raise fail(f"advantage names the modifier {mod!r}, which resolution does not declare",
                               (*base, "pair", i), "one of: " + (", ".join(sorted(modifiers)) or "(none)"))
            modes = [data.get("cancel", "all"), *((data.get("house") or {}).values())]
            if any(m not in ("all", "net") for m in modes):
                raise fail("cancel modes are all or net", base)
        elif kind == "tally":
            if data.get("variant") is not None and data["variant"] not in variants:
                raise fail(f"unknown variant {data['variant']!r}", (*base, "variant"))
            if data.get("regain_stat") is not None:
                known_stat(data["regain_stat"], (*base, "regain_stat"))
        elif kind not in ("push", "luck", "sanity"):
            warnings.append(f"subsystems.{name}: kind {kind!r} is not one this engine runs (kept, not used)")
    for cname, command in model.commands.items():
        base = ("commands", cname)
        spec = command.model_dump(exclude_none=True)
        action, tool = spec.get("action"), spec.get("tool")
        if tool is not None:
            subs = model.subsystems
            if tool not in subs and not any(isinstance(d, Mapping) and d.get("kind") == tool for d in subs.values()):
                raise fail(f"command tool {tool!r} names no subsystem", (*base, "tool"),
                           "one of: " + (", ".join(subs) or "(none declared)"))
        elif action not in ACTIONS:
            raise fail(f"unknown action {action!r}", (*base, "action"), "one of: " + ", ".join(ACTIONS))
        if spec.get("value_is", "target") not in VALUE_IS:
            raise fail("value_is must be target, modifier or param", (*base, "value_is"))
        for word, mod in (spec.get("counted") or {}).items():
            if mod not in modifiers:
                raise fail(f"counted {word!r} names the modifier {mod!r}, which resolution does not declare",
                           (*base, "counted", word))
        for word, sw in (spec.get("switches") or {}).items():
            path = (*base, "switches", word)
            if not isinstance(sw, Mapping) or not ({"modifier", "param", "arg", "variant"} & set(sw)):
                raise fail("a switch is {modifier: M}, {param: P}, {arg: A} or {variant: V}", path)
            if "modifier" in sw and sw["modifier"] not in modifiers and tool is None:
                raise fail(f"unknown modifier {sw['modifier']!r}", path)
            if "param" in sw and sw["param"] not in params and tool is None:
                raise fail(f"unknown parameter {sw['param']!r}", path)
            if "variant" in sw and sw["variant"] not in variants:
                raise fail(f"unknown variant {sw['variant']!r}", path)
        if spec.get("variant") is not None and spec["variant"] not in variants:
            raise fail(f"unknown variant {spec['variant']!r}", (*base, "variant"))
        if tool is None:
            for i, pname in enumerate(spec.get("positional") or []):
                if pname not in params:
                    raise fail(f"unknown parameter {pname!r}", (*base, "positional", i))
        if spec.get("stat") is not None:
            known_stat(spec["stat"], (*base, "stat"))
    return warnings
