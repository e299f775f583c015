"""Entry and preset text as the turn's model reads it, and ``@@if`` conditions, in a room.

One :class:`Renderer` per turn: templates first (the full EJS mode through the sandbox when
it is available and not switched off, else -- or when a template fails there -- the read-only
subset), then the macros: ``{{getvar::}}``/``{{var:}}`` from the room's variable tree,
``{{user}}`` the acting member's character, ``{{char}}`` (bound when the card was imported;
in a preset, the keeper), ``{{time}}``/``{{date}}`` the room's game clock, ``{{random}}``/
``{{pick}}`` and ``{{roll:XdY}}`` from the turn's random source and the kernel's dice.

Text a person import brought (a pc's or companion's lore, a companion) never comes through
:meth:`Renderer.text`: :meth:`Renderer.inert` substitutes its name macros and nothing else
(:mod:`lw_tavern.inert`). Names substituted into any text (``{{user}}``, ``{{char}}``) are
inert values: a member's character name can come from a player's card.

The switch: ``LW_TAVERN_EJS=lite`` (in the environment the kernel reads) keeps every template
on the read-only subset; anything else, or unset, allows the full mode.

Every template and JavaScript condition is charged to the turn's script budget
(:class:`lwcore.sandbox.Budget`, from the turn context). Once it is spent, a world-book entry
whose template would run is left out (:class:`~lw_tavern.worldbook.engine.LeftOut`; the engine
notes it), other texts (presets, companions) take the read-only subset, and conditions are
false; each is a warning for the keeper.

Template writes (each naming its entry and template line), injected prompts and ``activewi``
requests are collected here; the caller stages them (they are made only if the turn is
applied, through the kernel's one path of scripts' writes: declared variables checked and
clamped, other names MVU leaves). Raw template syntax never comes out:
the full mode's output is text, the subset leaves out what it cannot render.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from lwcore.api import VariableWrite, js_enabled

from lw_tavern.ejs.expr import ExprError, evaluate_condition
from lw_tavern.ejs.full import render_full
from lw_tavern.ejs.lite import render as render_lite
from lw_tavern.ejs.lite import tree_resolver
from lw_tavern.ejs.macros import MacroContext, substitute
from lw_tavern.inert import protect, protect_name
from lw_tavern.mvu.values import Reader
from lw_tavern.worldbook.engine import LeftOut

SWITCH = "LW_TAVERN_EJS"


def full_mode_allowed(env: Mapping[str, str]) -> bool:
    """Whether the full EJS mode may run (``LW_TAVERN_EJS=lite`` switches it off, and so does
    the operator's switch for all sandboxed JS, ``TRPG_ENABLE_FULL_EJS=false``)."""
    return env.get(SWITCH, "").strip().lower() != "lite" and js_enabled(env)


@dataclass
class Renderer:
    """What one turn's templates and macros read, and what they asked for."""
    tree: dict[str, Any]
    user: str | None
    clock: datetime.datetime
    rng: random.Random
    sandbox: ModuleType | None = None
    entries: Mapping[str, str] = field(default_factory=dict)
    budget: Any = None
    """The turn's :class:`lwcore.sandbox.Budget` (``None``: none, each run only its own limit)."""
    variables: dict[str, Any] | None = None
    """The room's variable tree alone (MVU's ``stat_data``: what Tavern Helper's macro-likes read);
    ``None``: :attr:`tree`."""
    default_char: str | None = None
    """``{{char}}`` where a text has none bound (a world book imported on its own): the keeper."""
    writes: list[VariableWrite] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)
    activate: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.resolve = tree_resolver(self.tree)
        self._reader: Any = None

    def _yaml(self, value: Any) -> str | None:
        """``YAML.stringify`` by the library in the sandbox (a value the fast writer is unsure of)."""
        if self.sandbox is None:
            return None
        if self._reader is None:
            self._reader = Reader(self.sandbox)
        return self._reader.yaml(value)

    def text(self, content: str, *, where: str, char: str | None = None, entry: bool = False) -> str:
        """``content`` rendered: templates, then macros. For the keeper's content only (a world
        import's entries, presets): a person's text takes :meth:`inert`. ``entry``: a world-book
        entry's text, left out (:class:`LeftOut`) rather than rendered by the subset when the
        turn's script budget is spent."""
        body = content
        if "<%" in content or "<#" in content.lower():
            body = self._template(content, where, entry, char)
        return self.macros(body, where=where, char=char)

    def macros(self, content: str, *, where: str, char: str | None = None) -> str:
        """``content`` with its macros substituted (no template runs: for text that is read,
        not placed, such as what an entry's keys are matched against)."""
        ctx = MacroContext(resolve=self.resolve, user=protect_name(self.user),
                           char=protect_name(char if char is not None else self.default_char),
                           clock=self.clock, rng=self.rng,
                           message_variables={"stat_data": self.variables if self.variables is not None else self.tree},
                           chat_variables=self.variables if self.variables is not None else self.tree,
                           yaml=self._yaml, unknown=True)
        out = substitute(content, ctx)
        self.warnings += [f"{where}: {w}" for w in ctx.warnings]
        return out

    def inert(self, content: str, *, char: str | None = None) -> str:
        """Text a person import brought, as the model reads it: no template, no condition,
        only the name and formatting macros, and :func:`lw_tavern.inert.protect`-ed (the
        caller restores the placed text once its last pass is done)."""
        ctx = MacroContext(user=protect_name(self.user), char=protect_name(char), inert=True)
        return protect(substitute(content, ctx))

    def _template(self, content: str, where: str, entry: bool, char: str | None = None) -> str:
        if self.sandbox is not None and "<%" in content:
            full = None
            if not self._spent(where, entry):
                full = render_full(content, self.sandbox, tree=self.tree, seed=self.rng.getrandbits(63),
                                   clock=self.clock, entries=self.entries, script=where,
                                   user=protect_name(self.user) or "", char=protect_name(char) or "")
            if full is not None:
                self.writes += full.writes
                self.injected += full.injected
                self.activate += full.activate
                self.warnings += [f"{where}: {w}" for w in full.warnings]
                return full.text
            if not self._spent(where, entry):
                self.warnings.append(f"{where}: the full EJS mode failed; rendered with the read-only subset")
        lite = render_lite(content, self.resolve)
        self.warnings += [f"{where}: {w}" for w in lite.warnings]
        return lite.text

    def _spent(self, where: str, entry: bool) -> bool:
        """Whether the turn's script budget is spent: a world-book entry is then left out
        (raises :class:`LeftOut`), any other text noted and rendered by the subset."""
        if self.budget is None or not self.budget.spent:
            return False
        reason = f"{self.budget.describe()}; its template was not run"
        if entry:
            self.warnings.append(f"{where}: left out: {reason}")
            raise LeftOut(reason)
        self.warnings.append(f"{where}: {reason}; rendered with the read-only subset")
        return True

    def condition(self, expr: str) -> bool:
        """An ``@@if`` condition: the closed expression language, else (full mode) JavaScript;
        one that cannot be evaluated is false (the entry stays out)."""
        try:
            return evaluate_condition(expr, self.resolve)
        except ExprError as exc:
            if self.sandbox is None:
                self.warnings.append(f"condition {expr[:60]!r}: {exc}; treated as false")
                return False
        try:
            outcome = self.sandbox.evaluate(f"!!({expr}\n)", None, state=dict(self.tree),
                                            seed=self.rng.getrandbits(63), clock=self.clock, script="condition")
            failure = None if outcome.ok else outcome.error
        except Exception as exc:  # noqa: BLE001 - no usable sandbox: fail closed
            failure = f"{type(exc).__name__}: {exc}"
        if failure is not None:
            self.warnings.append(f"condition {expr[:60]!r}: {failure}; treated as false")
            return False
        return outcome.value is True
