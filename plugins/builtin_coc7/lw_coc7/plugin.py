"""Hook implementations of the coc7 plugin.

The rulepack itself is data (``rulepacks/coc7.yaml``, read by the kernel because the manifest
provides ``rulepacks``); this module only registers the named derived-stat computers, as lazy
references so that registering them imports nothing.
"""

from __future__ import annotations

from lwcore.api import Computer, Register, hookimpl


@hookimpl
def lw_rule_computers(register: Register[Computer]) -> None:
    register(Computer("coc7_mov", "lw_coc7.computers:movement", "movement rate from DEX, STR, SIZ and age"))
    register(Computer("coc7_db", "lw_coc7.computers:damage_bonus", "damage bonus from STR+SIZ, unbounded"))
    register(Computer("coc7_build", "lw_coc7.computers:build", "build from STR+SIZ, unbounded"))
