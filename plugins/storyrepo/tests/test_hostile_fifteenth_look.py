"""Hostile input, a fifteenth look: stop 55's readers (figures in bench/story_hostile.py, ``fifteenth_``).

- A handed-over thing's head after 把 (K3's :func:`~lw_storyrepo.checks._head_after_ba`: 把笔 for 描金笔) asked whether
  no other name or thing of the book ends with that head by building the set of every name and thing and trying each
  (:func:`~lw_storyrepo.checks._only_head`) — once for each thing a contract line hands over: hundreds of handover lines
  the prose tells, beside a card of 4,000 things, made 4 million tries (1.7 s of a 2.4 s check at the draft cap). The
  last characters are now read once a context (:func:`~lw_storyrepo.checks._heads_of`), at most two bearers each.

Each is read through its result and its work (the builds of the index), never timed."""

from __future__ import annotations

import random

import pytest

from lw_storyrepo import checks
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.drafts import Draft


def _things(k: int) -> list[str]:
    return ["物" + "".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(k)]


def _context(things: list[str]) -> CheckContext:
    cards: dict[str, dict[str, object]] = {"许砚": {"位置": "省城", "持有": list(things)}, "林知夏": {"位置": "省城"}}
    aliases = {"许砚": "许砚", "林知夏": "林知夏"}
    world = World(cards, dict(aliases), set(), set(things), ("普通人",), None, {}, {})
    return CheckContext(aliases, [], [], [], 0, set(aliases), set(things), world=world, people=set(cards),
                        dwellers=dwellers_of(cards)).for_draft({})


@pytest.mark.parametrize("k", [3, 2000])
def test_handover_lines_of_a_card_of_thousands_of_things_read_the_heads_once(k: int,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    things = _things(k)
    told = things[:max(3, k // 8)]
    builds: list[str] = []
    original = checks.per_book

    def counted(memo, key, deps, build):  # type: ignore[no-untyped-def]
        return original(memo, key, deps, lambda: (builds.append(key), build())[1])
    monkeypatch.setattr(checks, "per_book", counted)
    body = "".join(f"许砚把{t}递给林知夏。" for t in told)
    lines = [f"许砚把{t}交给林知夏" for t in told]
    found = [(f.severity, f.message) for f in contract_findings({"合同": lines}, Draft("A", {}, body, 5), _context(things))
             if f.severity in (ERROR, WARN)]
    # every handover is told and kept, none declared in 设定变更: the same warning for each line
    assert len(found) == len(told) and all(s == WARN and "设定变更却没有记下它换了人" in m for s, m in found)
    assert builds.count("head ends") == 1  # the heads read once, not every name and thing tried for each line


def test_only_head_reads_as_every_name_tried() -> None:
    """Random books over a small alphabet (names sharing last characters, aliases of one another, world things): the
    index answers as trying every other name and thing does."""
    rng = random.Random(15)
    for _ in range(300):
        alphabet = "笔剑表刀印甲乙"[:rng.randint(2, 7)]
        words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 8))}
        names = sorted(words)
        aliases = {n: rng.choice(names) for n in names[:rng.randint(0, len(names))]}
        items = set(rng.sample(names, rng.randint(0, len(names))))
        world_items = set(rng.sample(names, rng.randint(0, len(names))))
        world = World({}, dict(aliases), set(), world_items, ("普通人",), None, {}, {})
        ctx = CheckContext(aliases, [], [], [], 0, set(aliases), items, world=world)
        for thing in names:
            others = {*aliases, *items, *world_items}
            scan = not any(o.endswith(thing[-1]) and aliases.get(o, o) != aliases.get(thing, thing)
                           for o in others if o != thing)
            assert checks._only_head(ctx, thing) is scan
