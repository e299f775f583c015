"""Hook implementations of the wod plugin.

The classic (oWoD) pool is pure data in ``rulepacks/wod.yaml``. The Chronicles of Darkness
pool (n-again rerolls, chance die) is a named computer: the rules DSL does not grow for one
system, so the procedure lives here, registered as a lazy reference (registering imports
nothing).
"""

from __future__ import annotations

from lwcore.api import Computer, Register, hookimpl


@hookimpl
def lw_rule_computers(register: Register[Computer]) -> None:
    register(Computer("wod_cofd_pool", "lw_wod.computers:cofd_pool",
                      "Chronicles of Darkness pool: target 8, n-again, chance die, exceptional at 5"))
