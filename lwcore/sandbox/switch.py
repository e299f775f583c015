"""The operator's one switch for every sandboxed JavaScript surface.

``TRPG_ENABLE_FULL_EJS=false`` (the contract's name, C.1: "会连同其它所有沙箱 JS 面一起关掉它";
also ``0``, ``no``, ``off``, any case) in the environment the kernel reads turns off, each
degrading as the contract says:

- **full-mode templates** (a card plugin's EJS): the read-only subset renders them
  (``ejs_lite``; a template's ``setvar`` is a no-op there), fail-safe as ever;
- **hooks** (a skill's or a world card's ``hooks.js``): not run; the turn goes on, and the
  keeper is told once a turn which scripts were left out;
- **rule scripts** (``resolution: {script:}``, ``subsystems.<name>.script``): a check or
  subsystem that needs one is refused with this reason; the rest of the pack works;
- **prep scripts** (``run_prep_plan``, ``.module`` setups): refused with this reason, nothing
  applied;
- **tier-2 views' scripts** (the web table's sandboxed frames): not served; the panel shows
  its tier-1 fallback (or says it needs scripts).

Unset, or any other value: everything runs (the sandbox's own limits hold).
"""

from __future__ import annotations

from collections.abc import Mapping

SWITCH = "TRPG_ENABLE_FULL_EJS"
OFF_WORDS = frozenset({"false", "0", "no", "off"})
REASON = f"sandboxed JavaScript is turned off on this server ({SWITCH}=false)"


def js_enabled(env: Mapping[str, str]) -> bool:
    """Whether sandboxed JS may run under ``env`` (the kernel's environment)."""
    return env.get(SWITCH, "").strip().lower() not in OFF_WORDS
