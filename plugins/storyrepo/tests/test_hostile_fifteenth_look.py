"""Hostile input, a fifteenth look: stop 55's readers (figures in bench/story_hostile.py, ``fifteenth_``).

- A handed-over thing's head after 把 (K3's :func:`~lw_storyrepo.checks._head_after_ba`: 把笔 for 描金笔) asked whether
  no other name or thing of the book ends with that head by building the set of every name and thing and trying each
  (:func:`~lw_storyrepo.checks._only_head`) — once for each thing a contract line hands over: hundreds of handover lines
  the prose tells, beside a card of 4,000 things, made 4 million tries (1.7 s of a 2.4 s check at the draft cap). The
  book's names are now read once a context into :func:`~lw_storyrepo.checks._name_ends` (the index :func:`_tails` reads;
  FK3 and A15 fixed it at once, and the one reader was kept).

Each is read through its result and its work (the builds of the index), never timed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import continuity_helpers

from lw_storyrepo import checks, kinship
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.drafts import Draft
from lw_storyrepo.kinship import NamesIn, free_text, gender_of
from lw_storyrepo.ranks import ladders_of


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
    assert builds.count("name ends") == 1  # the heads read once, not every name and thing tried for each line


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


# A title on a surname (T4's 方墨师: the surname's one ranked bearer) tried every bearer of the surname for a rank at each
# title the prose said: 王主任 thousands of times beside thousands of cards of 王 (1.2–1.5 s at the draft cap). The bearers
# holding a rank are read once a book (RankReader.ranked_of).
TROUPE_LADDER = "## 职级\n学员 ＜ 演员 ＜ 台柱 ＜ 团长\n"


class _Asked(dict):  # type: ignore[type-arg]
    """A dict counting the ``in`` asked of it."""

    asked = 0

    def __contains__(self, key: object) -> bool:
        _Asked.asked += 1
        return super().__contains__(key)


@pytest.mark.parametrize("k", [2, 2000])
def test_a_title_on_a_surname_of_thousands_of_bearers_reads_the_ranked_once(k: int) -> None:
    troupe: dict[str, dict[str, Any]] = {"韩小云": {"姓名": "韩小云", "状态": "在世", "位置": "剧团", "境界": "演员", "持有": []}}
    for i in range(k):  # unranked bearers of 韩
        name = "韩" + chr(0x4E00 + (i * 7919) % 20000) + chr(0x4E00 + (i * 31) % 20000)
        troupe[name] = {"姓名": name, "状态": "在世", "位置": "剧团", "持有": []}
    world = World(troupe, {p: p for p in troupe}, {"剧团"}, set(), ("学员", "演员", "台柱", "团长"), None, {},
                  {p: "她" for p in troupe}, ladders=ladders_of(TROUPE_LADDER, ["学员", "演员"]), told=told_of({}, troupe))
    reader = world.rank_reader()
    assert reader.ranked_of("韩") == ["韩小云"] and reader.ranked_of("贾") == []
    reader.holds = _Asked(reader.holds)
    _Asked.asked = 0
    body = "锣鼓还没响。韩台柱一早就进了化妆间，对着镜子勾脸。\n" * 200
    found = [f.message for f in continuity_helpers.findings(body, world, "韩小云", "一九八三年三月三日", ["韩小云"], changes=[])
             if "境界" in f.message]
    assert found  # 韩台柱 is hers: the 演员 said a 台柱
    assert _Asked.asked <= 2 * 200 * 4  # a few lookups a title, not one for each of the surname's thousands of bearers


# A card's pronoun (kinship.gender_of) took every name of the book out of each card's text, sorting them again for each:
# a book of 2,000 cards tried 4 million names (3 s of the cards' load). The names are now sorted once (NamesIn) and a
# card's text tries only those it holds.
def _gender_by_every_name(card_text: str, names: set[str]) -> str:
    body = re.sub(r"“[^”]*”|「[^」]*」", "　", free_text(card_text))
    for name in sorted(names, key=len, reverse=True):
        if len(name) >= 2 and name in body:
            body = body.replace(name, "　")
    she, he = bool(kinship._SHE.search(body)), bool(kinship._HE.search(body))
    return "她" if she and not he else "他" if he and not she else ""


def test_a_card_s_pronoun_reads_as_every_name_taken_out() -> None:
    rng = random.Random(55)
    alphabet = "梅娘姐兄之子女他她　的师"
    for _ in range(600):
        names = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.choice([0, 12, 400]))}
        text = "## 设定\n" + "".join(rng.choice(alphabet) for _ in range(rng.choice([3, 12, 40])))
        assert gender_of(text, NamesIn(names)) == gender_of(text, names) == _gender_by_every_name(text, names)


@pytest.mark.parametrize("k", [3, 4000])
def test_a_card_s_pronoun_beside_thousands_of_names_tries_those_it_holds(k: int) -> None:
    names = {"顾长安", "厉无咎", *("".join(chr(0x4E00 + (i * 7919 + j * 104729) % 20000) for j in range(3)) for i in range(k))}
    spotted = NamesIn(names)
    card = "## 设定\n顾长安的师姐，厉无咎的女儿。"
    assert gender_of(card, spotted) == "她"
    assert len(spotted.of(free_text(card))) <= (len(names) if k == 3 else 2)  # the names it holds, not thousands


# The turn-taking (checks._lone_speaker, and K3's other party of a guessed call) walked back through every turn of the
# draft for the last speaker unlike the last one: thousands of quotes of one speaker, each followed by a quote alone,
# walked thousands of turns each (quadratic; 0.46 s at the draft cap). Each speaker is now kept once, at their last turn.
@pytest.mark.parametrize("k", [3, 2000])
def test_thousands_of_turns_of_one_speaker_keep_one_turn(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    aliases = {"林知夏": "林知夏", "许砚": "许砚"}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), people=set(aliases)).for_draft({})
    lengths: list[int] = []
    original = checks._lone_speaker

    def counted(turns, *rest):  # type: ignore[no-untyped-def]
        lengths.append(len(turns))
        return original(turns, *rest)
    monkeypatch.setattr(checks, "_lone_speaker", counted)
    lines = ["林知夏说：“好。”", "“好。”"] * k
    said = [(v.speaker, v.words) for v in checks.voices(ctx, lines) if v.speaker is not None]
    assert said == [("林知夏", "好。")] * k  # a quote alone after hers has no other party: nobody's, as on a short exchange
    assert max(lengths) <= 1  # one speaker, one turn kept: none walked back through thousands
    lengths.clear()
    lines = ["许砚说：“走吧。”", "“好。”"] + ["林知夏说：“好。”", "“好。”"] * k
    said = [(v.speaker, v.words) for v in checks.voices(ctx, lines) if v.speaker is not None]
    assert said == [("许砚", "走吧。")] + [("林知夏", "好。"), ("许砚", "好。")] * k  # the other party answers
    assert max(lengths) <= 2
