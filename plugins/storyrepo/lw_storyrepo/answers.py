"""What the author can do about a finding: the answer a finding's words end with.

A finding that goes by a card (角色卡·状态, 角色卡·持有, 角色卡·境界, 角色卡·位置) or an info gap's knowers is answered in
one of three ways: the chapter changes the card (a line of the draft's 设定变更, applied at
settle), the card was wrong (corrected at once with ``lw story character set`` or
``lw story secret tell``, then the draft submitted again), or the sentence is rewritten. The
checks that read the prose say what they found; :func:`answered` adds the answer, in one place,
to the findings whose words do not give one yet, from what each finding is about
(:class:`lw_storyrepo.findings.Subject`, set where the finding is made), never from its words (the 时间
and narration-leak findings name theirs themselves: ``倒叙: true``, ``S-021.读者已知=是``).
"""

from __future__ import annotations

from dataclasses import replace

from lw_storyrepo.findings import Finding, Subject

ANSWER_MARK = "；答："
"""What starts a finding's answer (a finding carrying it is not answered twice)."""


CARD_ANSWERS: dict[str, tuple[str, str, str]] = {
    "状态": ("本章改了{who}的状态就在设定变更写「{who}.状态=…」", "错了", "lw story character set {who} 状态 …"),
    "持有": ("本章交到{who}手里就在设定变更写「{who}.持有+{what}」", "漏了", "lw story character set {who} 持有 {what} --op +"),
    "境界": ("本章真降了就在正文写明缘由（降职、贬、跌境…）并在设定变更写「{who}.境界={what}」", "错了",
           "lw story character set {who} 境界 {what}"),
    "位置": ("本章来了就在设定变更写「{who}.位置={what}」（只在正文写来到，角色卡仍是旧位置，往后各章照旧位置查）", "错了",
           "lw story character set {who} 位置 {what}"),
}
"""The answer to a card field's finding: what to write when this chapter changed it, the card's fault (wrong or left
out) and the command that mends the card; the rest of the sentence is the same for every field."""


OTHER_READINGS: dict[str, str] = {
    "状态": "是回忆、梦或书信就写明（如「想起{who}说过…」），检查不把它当说话",
}
"""A field's finding that the prose may not mean at all, and how to write it so the checks read it so: a dead or
absent person's line that is a memory (the checks take a memory, dream, letter or recording as no speech when the
prose says it is one); said before the rewrite, as the last answer but one."""


def answer(subject: Subject | None) -> str | None:
    """The answer to a finding about ``subject`` (:attr:`Finding.subject`), or None when the checks
    know none to give."""
    if subject is None:
        return None
    who, what = subject.who, subject.what
    if subject.field in CARD_ANSWERS:
        this_chapter, card, command = CARD_ANSWERS[subject.field]
        other = OTHER_READINGS.get(subject.field, "").format(who=who)
        return (f"{this_chapter.format(who=who, what=what)}；角色卡{card}就 {command.format(who=who, what=what)}，再交稿；"
                + (f"{other}；" if other else "") + "都不是就改写这句")
    return (f"{who}在本章得知就在设定变更写「{what}.知情人+{who}」；早就知道就 lw story secret tell {what} {who}，再交稿；"
            f"都不是就改写这句")


def answered(findings: list[Finding]) -> list[Finding]:
    """``findings`` with each one's answer (:func:`answer` of its subject) after its words, when it has none yet."""
    out = []
    for f in findings:
        said = None if ANSWER_MARK in f.message else answer(f.subject)
        out.append(replace(f, message=f.message + ANSWER_MARK + said) if said else f)
    return out
