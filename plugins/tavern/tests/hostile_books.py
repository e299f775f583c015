"""World books and chats built to make a world-book scan super-linear, one per class.

Each :class:`Case` is a book (world-info entries), a chat (oldest first), the settings that
reach the class, and what the scan must come to (how many entries fire; a text every problem
holds, where the scan skips and reports keys). Sizes are chosen so that the scan before the fix
ran for minutes or took gigabytes (the figure in each docstring line, measured on the 2-core
development machine); the fixed scan takes well under a second of work on each.

``plugins/tavern/tests/test_worldbook_hostile.py`` runs every case through a real
``lw tavern activate``; ``tests/hostile/test_content_turns.py`` runs the ones a player can bring
on their own pc card through a real room turn; ``bench/worldbook.py`` measures the nested keys at
n and 4n.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    name: str
    entries: list[dict[str, Any]]
    chat: list[str]
    settings: dict[str, Any] = field(default_factory=dict)
    fired: int = 0
    problem: str = ""
    """A text every problem the scan reports holds (none expected when empty)."""


def entry(uid: int, **fields: Any) -> dict[str, Any]:
    return {"uid": uid, "content": f"E{uid}", **fields}


ROOMY = {"max_context": 10_000_000, "budget": 100}
SPENT = "allowance for keys tested on the whole buffer is spent"


def nested(n: int, whole_words: bool = False) -> Case:
    """Keys ``a`` … ``a`` × n against 50n ``a``: n²·50 overlapping matches before (400: 3.5 s
    and 1.3 GB; 1,600: 112 s and 22 GB)."""
    tail = " " + "a" * 7 if whole_words else ""
    return Case("nested keys" + (" (whole words)" if whole_words else ""),
                [entry(i, key=["a" * (i + 1)], matchWholeWords=whole_words) for i in range(n)],
                ["a" * (50 * n) + tail], dict(ROOMY), fired=1 if whole_words else n)


def shared_prefixes(n: int) -> Case:
    """Keys ``x``, ``xa``, ``xaa`` …: nested by prefix, not suffix (one match a position)."""
    return Case("keys sharing prefixes", [entry(i, key=["x" + "a" * i]) for i in range(n)],
                [("x" + "a" * n) * 50], dict(ROOMY), fired=n)


def one_character(n: int) -> Case:
    """One key ``a`` against n words ``a``: a match a word, linear before and after."""
    return Case("a key of one character", [entry(0, key=["a"], matchWholeWords=True)], ["a " * n], dict(ROOMY),
                fired=1)


def whole_words_inside(n: int) -> Case:
    """Whole-word keys whose every occurrence is inside a word: each occurrence is checked."""
    return Case("whole-word keys inside words", [entry(i, key=[f"ab{i % 7}"], matchWholeWords=True) for i in range(n)],
                ["".join(f"xab{i % 7}" for i in range(50 * n))], dict(ROOMY), fired=0)


def joiner_whole_word(n: int) -> Case:
    """A whole-word key holding the joiner, ``\\x01a`` × n, against a long periodic run: the
    search restarted after every occurrence before (6,400: 21 s)."""
    return Case("a whole-word key on the joined buffer", [entry(0, key=["\x01a" * n], matchWholeWords=True)],
                ["ba" + "\x01a" * (50 * n) + "b"], {"depth": 1, **ROOMY}, fired=0)


def case_folding(n: int) -> Case:
    """Keys differing in case only, in both automata, against a text whose lowering is longer."""
    return Case("case-folding variants",
                [entry(i, key=["İ" * (i % 5 + 1), "i̇" * (i % 5 + 1)], caseSensitive=bool(i % 2)) for i in range(n)],
                ["İ" * (50 * n)], dict(ROOMY), fired=n)


def secondary_keys(n: int) -> Case:
    """One entry with n secondary keys (AND ALL, one never present), each new in one pass of a
    chain of n: every pass asked every secondary key before (4,000: 20 s; 8,000: 80 s)."""
    entries = [entry(i, key=[f"k{i}x"], content=f"link k{i + 1}x s{i}") for i in range(n)]
    entries.append(entry(n, key=["k0x"], keysecondary=[f"s{i}" for i in range(n)] + ["never"], selective=True,
                         selectiveLogic=3, scanDepth=1))
    return Case("secondary keys", entries, ["k0x"], {"recursive": True, "depth": 2, **ROOMY}, fired=n)


def recursion_levels(n: int) -> Case:
    """n entries each waiting for its own recursion level: every level's pass looked at every
    waiting entry before (4,000: 30 s; 8,000: about 2 min)."""
    return Case("recursion levels", [entry(i, key=["x"], delayUntilRecursion=i + 1) for i in range(n)], ["x"],
                {"recursive": True, **ROOMY}, fired=n)


def min_activations(n: int) -> Case:
    """n keys only in the oldest of 1,000 messages, min activations widening the depth one
    message a pass: each pass looked at every entry again (4,000: 18 s; 16,000: about 80 s)."""
    entries = [entry(i, key=[f"old{i}"]) for i in range(n)] + [entry(n, key=["zzz"], scanDepth=1000)]
    chat = [" ".join(f"old{i}" for i in range(n))] + [f"m{j}" for j in range(999)]
    return Case("min activations over many messages", entries, chat,
                {"min_activations": n + 5, "depth": 1, **ROOMY}, fired=n)


def joined_depths(n: int) -> Case:
    """n entries with a key holding the joiner, each at its own scan depth, over 1,000 long
    messages: one joined buffer per depth, all kept (800: 577 MB; 3,200: about 9 GB)."""
    return Case("keys on the joined buffer at many depths", [entry(i, key=["w\x01w"], scanDepth=i + 1) for i in range(n)],
                ["w" * 1000 for _ in range(1000)], dict(ROOMY), fired=0, problem=SPENT)


def joined_recursion(n: int) -> Case:
    """A regex key and a key holding the joiner whose literals occur, in a recursion chain of n:
    a new joined buffer every pass, all kept (4,000: 165 MB; 20,000: about 4 GB)."""
    entries = [entry(i, key=[f"k{i}x"], content=f"link k{i + 1}x zz") for i in range(n)]
    entries += [entry(n, key=["/zz(?=q)/"]), entry(n + 1, key=["zz\x01zz"])]
    return Case("keys on the joined buffer in a long recursion", entries, ["k0x"],
                {"recursive": True, "depth": 2, **ROOMY}, fired=n, problem="skipped")


def group_losers(n: int) -> Case:
    """n members of one group matching in every pass of a chain of n: each pass looked at every
    member again (1,000: 31 s; 2,000: about 2 min)."""
    entries = [entry(i, key=[f"k{i}x"], content=f"link k{i + 1}x") for i in range(n)]
    entries += [entry(n + i, key=["k0x"], group="g") for i in range(n)]
    return Case("group members through a long recursion", entries, ["k0x"],
                {"recursive": True, "depth": 2, **ROOMY}, fired=n + 1)


def overflow_levels(n: int) -> Case:
    """The budget overflows at once, then n recursion levels open one by one, each pass looking
    at every entry the budget had stopped (1,000: 12 s; 3,000: about 2 min)."""
    entries = [entry(i, key=["x"], delayUntilRecursion=i + 1, content="y" * 50) for i in range(n)]
    entries.append(entry(n, key=["x"], content="z" * 400))
    return Case("budget overflow and many levels", entries, ["x"],
                {"recursive": True, "max_context": 1000, "budget": 10}, fired=0)


CASES: dict[str, tuple[Callable[[int], Case], int]] = {
    "nested": (nested, 1600),
    "nested_words": (lambda n: nested(n, whole_words=True), 1600),
    "prefixes": (shared_prefixes, 1600),
    "one_character": (one_character, 262_144),
    "whole_words_inside": (whole_words_inside, 1600),
    "joiner_whole_word": (joiner_whole_word, 12_800),
    "case_folding": (case_folding, 1600),
    "secondary": (secondary_keys, 8000),
    "levels": (recursion_levels, 8000),
    "min_activations": (min_activations, 16_000),
    "joined_depths": (joined_depths, 3200),
    "joined_recursion": (joined_recursion, 20_000),
    "group_losers": (group_losers, 2000),
    "overflow_levels": (overflow_levels, 3000),
}
"""name -> (builder, the size the hostile suite runs)."""


def book_json(case: Case) -> dict[str, Any]:
    """The case's book as a world-info file."""
    return {"entries": {str(e["uid"]): e for e in case.entries}}


def card_entries(case: Case) -> list[dict[str, Any]]:
    """The case's entries in a card's ``character_book`` shape (for a pc import)."""
    from lw_tavern.worldbook.model import WorldEntry, entry_to_card

    return [entry_to_card(WorldEntry.model_validate(e)) for e in case.entries]
