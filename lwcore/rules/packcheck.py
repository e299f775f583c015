"""Load-time checks of a pack's ``subsystems:`` and ``commands:`` (located, all at once).

A typo in a subsystem or command (an unknown stat, a modifier the resolution does not
declare, an expression that does not parse) fails the load like a typo in ``resolution``,
instead of failing someone's first ``.sc``. Each subsystem is checked by its kind
(:mod:`lwcore.rules.kinds`); a subsystem of a kind this engine does not run (and with no
``computer:`` or ``script:``) is a warning: a newer pack still loads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from lwcore.errors import LwError
from lwcore.rules.kinds import KindSet, bundled
from lwcore.rules.diagnostics import Diagnostics, did_you_mean
from lwcore.rules.dice import compile_dice
from lwcore.rules.model import Command, Rulepack
from lwcore.rules.scripts import check_subsystem

ACTIONS = ("check", "set_stats", "make_char", "show")
VALUE_IS = ("target", "modifier", "param")
SWITCH_KEYS = ("modifier", "param", "arg", "variant")


class PackChecker:
    """What a kind's ``validate`` works with: the pack's names, and located reporting."""

    def __init__(self, model: Rulepack, diagnostics: Diagnostics) -> None:
        self.model = model
        self.diagnostics = diagnostics
        self.stats = sorted({*model.defaults, *model.derived, *model.alias})
        self._folded = {s.casefold() for s in self.stats}
        for canonical, words in model.alias.items():
            self._folded.update(w.casefold() for w in words)
        res = model.resolution
        self.modifiers = set(res.modifiers) if res else set()
        self.params = set(res.params) if res else set()
        self.variants = set(res.variants) if res else set()

    def error(self, message: str, path: tuple[Any, ...], *, expected: str | None = None, key: bool = False) -> None:
        self.diagnostics.error(message, path, expected=expected, key=key)

    def warn(self, message: str, path: tuple[Any, ...]) -> None:
        self.diagnostics.warn(message, path)

    def unknown_key(self, key: Any, path: tuple[Any, ...], known: Iterable[str]) -> None:
        self.diagnostics.unknown_key(key, path, known)

    def stat(self, value: Any, path: tuple[Any, ...]) -> None:
        if not isinstance(value, str) or value.casefold() not in self._folded:
            self.error(f"unknown stat {value!r}{did_you_mean(str(value), self.stats)}", path,
                       expected="a stat named in defaults, derived or alias")

    def dice(self, value: Any, path: tuple[Any, ...]) -> None:
        try:
            compile_dice(str(value))
        except LwError as exc:
            self.diagnostics.add(exc, path)

    def expression(self, compile_it: Callable[[], Any], path: tuple[Any, ...]) -> None:
        try:
            compile_it()
        except LwError as exc:
            self.diagnostics.add(exc, path)

    def integer(self, data: Mapping[str, Any], key: str, path: tuple[Any, ...]) -> None:
        value = data.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            self.error(f"{key} must be a whole number, not {value!r}", (*path, key))

    def boolean(self, data: Mapping[str, Any], key: str, path: tuple[Any, ...]) -> None:
        value = data.get(key)
        if value is not None and not isinstance(value, bool):
            self.error(f"{key} must be true or false, not {value!r}", (*path, key))


def check_behaviour(model: Rulepack, diagnostics: Diagnostics, *, computers: Callable[[str], Any],
                    computer_names: Callable[[], Iterable[str]], kinds: KindSet | None = None) -> None:
    """Record every problem of the pack's subsystems and commands in ``diagnostics``."""
    check = PackChecker(model, diagnostics)
    for name, raw in model.subsystems.items():
        _check_subsystem(check, name, raw, computers, computer_names, kinds or bundled())
    for cname, command in model.commands.items():
        _check_command(check, cname, command)


def _check_subsystem(check: PackChecker, name: str, raw: Any, computers: Callable[[str], Any],
                     computer_names: Callable[[], Iterable[str]], kinds: KindSet) -> None:
    base = ("subsystems", name)
    data: Mapping[str, Any] = raw or {}
    if not isinstance(data, Mapping):
        check.error("a subsystem is a mapping of settings", base)
        return
    if data.get("script") is not None:
        check_subsystem(data, check, base)
        return
    if data.get("computer") is not None:
        cname = str(data["computer"])
        if computers(cname) is None:
            known = ", ".join(sorted(computer_names())) or "none are registered"
            check.error(f"unknown computer {cname!r}", (*base, "computer"), expected=f"a registered computer ({known})")
        return
    word = str(data.get("kind", data.get("template", name)))
    kind = kinds.named(word)
    if kind is None:
        names = [k.name for k in kinds.all()]
        key = next((k for k in ("kind", "template") if k in data), None)
        check.warn(f"kind {word!r} is not one this engine runs (kept, not used){did_you_mean(word, names)}",
                   (*base, key) if key else base)
        return
    kind.check_common(data, check, base)
    kind.validate(data, check, base)


def _subsystem_named(model: Rulepack, word: str) -> bool:
    subs = model.subsystems
    return word in subs or any(isinstance(d, Mapping) and d.get("kind", d.get("template")) == word
                               for d in subs.values())


def _check_command(check: PackChecker, cname: str, command: Command) -> None:
    base = ("commands", cname)
    spec = command.model_dump(exclude_none=True)
    action, tool = spec.get("action"), spec.get("tool")
    modifiers, params, variants = check.modifiers, check.params, check.variants
    if tool is not None:
        if not _subsystem_named(check.model, tool):
            subs = check.model.subsystems
            check.error(f"command tool {tool!r} names no subsystem{did_you_mean(tool, subs)}", (*base, "tool"),
                        expected="one of: " + (", ".join(subs) or "(none declared)"))
    elif action not in ACTIONS:
        check.error(f"unknown action {action!r}{did_you_mean(str(action), ACTIONS)}", (*base, "action"),
                    expected="one of: " + ", ".join(ACTIONS))
    for word, mod in (spec.get("counted") or {}).items():
        if mod not in modifiers:
            check.error(f"counted {word!r} names the modifier {mod!r}, which resolution does not declare"
                        f"{did_you_mean(mod, modifiers)}", (*base, "counted", word))
    for word, switch in (spec.get("switches") or {}).items():
        path = (*base, "switches", word)
        if not set(SWITCH_KEYS) & set(switch):
            check.error("a switch is {modifier: M}, {param: P}, {arg: A} or {variant: V}", path)
            continue
        if "modifier" in switch and switch["modifier"] not in modifiers and tool is None:
            check.error(f"unknown modifier {switch['modifier']!r}{did_you_mean(str(switch['modifier']), modifiers)}",
                        path)
        if "param" in switch and switch["param"] not in params and tool is None:
            check.error(f"unknown parameter {switch['param']!r}{did_you_mean(str(switch['param']), params)}", path)
        if "variant" in switch and switch["variant"] not in variants:
            check.error(f"unknown variant {switch['variant']!r}{did_you_mean(str(switch['variant']), variants)}", path)
    if spec.get("variant") is not None and spec["variant"] not in variants:
        check.error(f"unknown variant {spec['variant']!r}{did_you_mean(spec['variant'], variants)}",
                    (*base, "variant"))
    if tool is None:
        for i, pname in enumerate(spec.get("positional") or []):
            if pname not in params:
                check.error(f"unknown parameter {pname!r}{did_you_mean(pname, params)}", (*base, "positional", i))
    if spec.get("stat") is not None:
        check.stat(spec["stat"], (*base, "stat"))
    if spec.get("difficulty") is not None and check.model.resolution is not None \
            and spec["difficulty"] not in check.model.resolution.difficulties:
        diffs = check.model.resolution.difficulties
        check.error(f"unknown difficulty {spec['difficulty']!r}{did_you_mean(spec['difficulty'], diffs)}",
                    (*base, "difficulty"))
