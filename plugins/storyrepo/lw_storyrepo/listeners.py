"""Who a quote is spoken to: the one person the line's narration turns to or looks at, else the speaker of the turn
before — one finder for every reading that asks for a quote's listener (the ranks' 你是R, rk2's round at stop 61; the
holdings' 你的X). Read from the draft's lines, the people being the cards' (``people``); a pronoun is read back by the
caller's ``antecedent``."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Callable

QUOTED = re.compile(r"“[^”]*(?:”|$)")
"""A quote in a line (to its end when it runs on): what is left is the line's narration."""
ADDRESSED = re.compile(r"(?:对着?|朝着?|冲着?|向着?|(?:瞅|看|瞪|瞟|盯|望|睨|瞄|剜|白|横)(?:了|着)?)$")
"""In a line's narration, right before a person (a name or 他/她): the one spoken to — the speaker turned to them
(对他说, 冲她喊, 朝X道) or looking at them (瞅他一眼, 瞪了X一眼, 看着她): the listener of the line's quote when it
calls no one by name (rk2's round, stop 61)."""
HANDED_TO = re.compile(r"(?:给|到|进)了?[他她](?![们的])")
"""In a line's narration: a thing handed to a pronoun (塞给了他, 递到她手里): the line turned to someone, whoever the
turn before's speaker was (frk2, stop 61)."""
ADDRESS_REACH = 3
"""How far before a person :data:`ADDRESSED` is looked for (its longest word)."""


def addressee(lines: list[str], i: int, names: re.Pattern[str], aliases: dict[str, str], people: Collection[str],
              antecedent: Callable[[int, int], str | None], pov: str | None) -> str | None:
    """The one the quotes of line ``i`` are spoken to, told by its narration (outside the quotes): the one person
    (a card's name, or 他/她 read back to one) right after a word of turning to or looking at (:data:`ADDRESSED`:
    对他说, 冲X喊, 瞅他一眼) — not 他的 (瞅着他的锹: a thing); two so named, None. A pronoun read back to the one
    who looks at it (the last name before the look: the speaker) is the point of view ``pov`` instead, unless the
    narration names them too (陆青崖看着她 told by 陆青崖: None); read back to anyone else, it is that one. Named so by no one: the one speaker of the turn
    before (:func:`turn_before`)."""
    line = lines[i]
    found: set[str] = set()
    others: set[str] = set()  # named in the narration but not turned to: the speaker (陆青崖看着她: 她 is not 陆青崖)
    back: set[str] = set()  # a pronoun looked at, read back to the one looking: not them (宫大哥瞅他一眼)
    at = 0
    for quote in [*QUOTED.finditer(line), None]:
        end = quote.start() if quote else len(line)
        for m in re.finditer(r"他(?![们的])|她(?![们的])", line[at:end]):
            k = at + m.start()
            turned = ADDRESSED.search(line, max(at, k - ADDRESS_REACH), k)
            if turned:
                who = antecedent(i, k + 1)
                if who is None:
                    return None
                # the one who looks: the last name in the narration before the look (房德厚瞪了他, 宫大哥放下碗，瞅他)
                told = QUOTED.sub(lambda q: "\x00" * len(q.group()), line[:turned.start()])
                looker = [aliases.get(n.group(), n.group()) for n in names.finditer(told)][-1:]
                (back if looker == [who] else found).add(who)
        for m in names.finditer(line, at, end):
            if ADDRESSED.search(line, max(at, m.start() - ADDRESS_REACH), m.start()) \
                    and not line.startswith("的", m.end()):
                found.add(aliases.get(m.group(), m.group()))
            else:
                others.add(aliases.get(m.group(), m.group()))
        at = quote.end() if quote else end
    found &= set(people)
    back &= set(people)
    if back:
        # a pronoun read back to the one who looks at it (宫大哥瞅他一眼): the other one always there, the point of
        # view, unless the narration names them too (陆青崖看着她, told by 陆青崖: no guess) — not a pronoun read back
        # to another the narration names (阿福把墨斗一放，房德厚瞪了他一眼: 他 is 阿福, frk2 at stop 61)
        return pov if len(back) == 1 and not found and pov is not None and pov not in others else None
    if found:
        return next(iter(found)) if len(found) == 1 else None
    return turn_before(lines, i, names, aliases, people)


def turn_before(lines: list[str], i: int, names: re.Pattern[str], aliases: dict[str, str],
                people: Collection[str]) -> str | None:
    """The one spoken to in a dialogue's turn (“给小满讨点热水。”沈砚站起来。⏎“你一个R…”郭直学说): the one card's
    name in the narration of the line before (the nearest one not blank), when that line holds a quote too and line
    ``i``'s own narration does not name that person, names one card at most (its own speaker) and hands nothing to
    a pronoun (rk2's round, stop 61; frk2: a line turned to a third person, “你是R，你去。”X把锤子塞给了Y, is no
    answer to the turn before); else None."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j < 0 or QUOTED.search(lines[j]) is None:
        return None
    spoke = {aliases.get(m.group(), m.group()) for m in names.finditer(QUOTED.sub("\x00", lines[j]))} & set(people)
    told = QUOTED.sub("\x00", lines[i])
    here = {aliases.get(m.group(), m.group()) for m in names.finditer(told)} & set(people)
    # this line's narration names two cards (…房德厚把锤子塞给了水生) or hands to a pronoun (塞给了他): someone else
    # is in play, not the turn before's speaker; one card named is this line's speaker (郭直学抬手朝外一指)
    return next(iter(spoke)) if len(spoke) == 1 and not spoke & here and len(here) <= 1 \
        and not HANDED_TO.search(told) else None


CALLED_KIN = frozenset("哥姐叔伯婶爷奶妹弟")
"""A kin word after a name in a call (栓子哥，…): still the one called."""


def called_at_start(words: str, names: re.Pattern[str], aliases: dict[str, str]) -> str | None:
    """The person a quote's ``words`` call by name at their very start (“何总，这是…”, “阿珍！”, a kin word after it:
    “栓子哥，…”) — the one spoken to, never the speaker (the leak reading's turn-taking, the contract's); else ``None``."""
    said = words.lstrip()
    m = names.match(said)
    if m is None:
        return None
    end = m.end() + 1 if said[m.end():m.end() + 1] in CALLED_KIN else m.end()
    if said[end:end + 1] not in ("，", ",", "！", "!", "、"):
        return None
    return aliases.get(m.group(), m.group())
