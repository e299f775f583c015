"""What the author can do about a finding: the answer a finding's words end with.

A finding that goes by a card (角色卡·状态, 角色卡·持有) or an info gap's knowers is answered in
one of three ways: the chapter changes the card (a line of the draft's 设定变更, applied at
settle), the card was wrong (corrected at once with ``lw story character set`` or
``lw story secret tell``, then the draft submitted again), or the sentence is rewritten. The
checks that read the prose say what they found; :func:`answered` adds the answer, in one place,
to the findings whose words do not give one yet (the 时间 and narration-leak findings name
theirs themselves: ``倒叙: true``, ``S-021.读者已知=是``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from lw_storyrepo.findings import Finding

_STATE = re.compile(r"^(?P<who>[^\s，。；]+) 的状态是「[^」]*」（角色卡·状态）")
_HELD = re.compile(r"^(?P<who>[^\s，。；]+) 的持有里没有「(?P<item>[^」]+)」（角色卡·持有")
_KNOWER = re.compile(r"^(?P<who>[^\s，。；]+) 不是 (?P<sid>S-\d{3,}) 的知情人")

ANSWER_MARK = "；答："
"""What starts a finding's answer (a finding carrying it is not answered twice)."""


def answer(message: str) -> str | None:
    """The answer to a finding with these words, or None when the checks know none to give."""
    if m := _STATE.match(message):
        who = m.group("who")
        return (f"本章改了{who}的状态就在设定变更写「{who}.状态=…」；角色卡错了就 lw story character set {who} 状态 …，"
                f"再交稿；都不是就改写这句")
    if m := _HELD.match(message):
        who, item = m.group("who"), m.group("item")
        return (f"本章交到{who}手里就在设定变更写「{who}.持有+{item}」；角色卡漏了就 lw story character set {who} 持有 {item} "
                f"--op +，再交稿；都不是就改写这句")
    if m := _KNOWER.match(message):
        who, sid = m.group("who"), m.group("sid")
        return (f"{who}在本章得知就在设定变更写「{sid}.知情人+{who}」；早就知道就 lw story secret tell {sid} {who}，再交稿；"
                f"都不是就改写这句")
    return None


def answered(findings: list[Finding]) -> list[Finding]:
    """``findings`` with each one's answer (:func:`answer`) after its words, when it has none yet."""
    out = []
    for f in findings:
        said = None if ANSWER_MARK in f.message else answer(f.message)
        out.append(replace(f, message=f.message + ANSWER_MARK + said) if said else f)
    return out
