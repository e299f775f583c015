"""The Story Repo tests' one way of checking a body of prose for continuity (D1/D2 of stop 51's duplicates: the same
``World`` + ``CheckContext`` + ``check_continuity`` helper was written in each round's test file). A test module of this
folder imports it by name (``import continuity_helpers``): ``conftest.py`` puts this folder on the path,
as the repository's own conftest does for ``tests/support``. Test code only, never runtime code. And :class:`Counted`, the hostile tests' measure of a reader's work
(D7 of the same duplicates)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import (World, check_continuity, dated_events, dated_subjects, dates_of_death, far_places,
                                     places_inside, told_of)
from lw_storyrepo.forbidden import forbidden_of
from lw_storyrepo.findings import Finding


def findings(body: str, world: World, viewpoint: str, date: str, present: list[str] | None = None, *,
             changes: list[str] | None = None, items: set[str] | None = None, people: set[str] | None = None,
             kin_of_pov: dict[str, dict[str, str]] | None = None) -> list[Finding]:
    """What ``check_continuity`` finds in ``body`` (its lines numbered from 1) as a draft told by ``viewpoint`` at the
    in-book ``date``, with ``present`` in the scene (the viewpoint alone when None) and ``changes`` as its 设定变更 (no
    such key when None), in a book whose cards, aliases, places and readings are ``world``'s. ``items`` are the book's
    held things for the context (none by default), ``people`` its people (the world's cards by default), ``kin_of_pov``
    what the viewpoint's relatives go by. The world is the draft's after the call: its aliases and kin words are the
    context's, as a check sets them — build a world per call."""
    meta: dict[str, Any] = {"视角": viewpoint, "书内时间": date, "在场": [viewpoint] if present is None else present}
    if changes is not None:
        meta["设定变更"] = changes
    aliases = dict(world.aliases)
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(items or ()), world=world,
                       people=set(world.cards) if people is None else people, kin_of_pov=kin_of_pov or {}).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())


def round_file(name: str) -> ModuleType:
    """A round's own test file ``name`` of this folder, loaded by path (its world and its helpers, one copy of them, for
    the fixers' and the hostile looks' files that test the same book)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def world_of(cards: dict[str, dict[str, Any]], aliases: dict[str, str], places: set[str], texts: dict[str, str],
             lore: str = "", gender: dict[str, str] | None = None, *, far: bool = False, **more: Any) -> World:
    """The world of a hand-built book as the checks read it (D2/D4 of stop 59's duplicates: the rounds' test files each
    built it): one ordinary stage, the places nested by ``lore``, the cards' barred acts read from their texts and the
    lore, ``gender`` as the cards' own word, the far places the lore and texts link when ``far`` (none otherwise), and any
    other :class:`World` field in ``more``."""
    if far:
        more["far"] = far_places([lore, *texts.values()], places)
    return World(cards, dict(aliases), places, set(), ("普通人",), None, places_inside(lore, places), dict(gender or {}),
                 bars=forbidden_of(cards, texts, lore, aliases, places), **more)


def lumber_camp(*, nicknames: bool = True, with_dead: bool = False) -> World:
    """The place and document rounds' 1962 lumber camp (D2 of stop 60's duplicates: D1's, P3's and P3's fixer's test files
    each built it): 王铁生 (the point of view) and 孙桂芝 at 青松林场, 刘德海 far off in 哈尔滨; with ``nicknames`` 老刘, 桂芝
    and 铁生 name them, with ``with_dead`` 赵老栓 lies dead at the camp."""
    cards: dict[str, dict[str, Any]] = {
        "王铁生": {"姓名": "王铁生", "状态": "在世", "位置": "青松林场"},
        "孙桂芝": {"姓名": "孙桂芝", "状态": "在世", "位置": "青松林场"},
        "刘德海": {"姓名": "刘德海", "状态": "在世", "位置": "哈尔滨"},
    }
    gender = {"王铁生": "他", "孙桂芝": "她", "刘德海": "他"}
    if with_dead:
        cards["赵老栓"] = {"姓名": "赵老栓", "状态": "已死", "位置": "青松林场"}
        gender["赵老栓"] = "他"
    aliases = {n: n for n in cards}
    if nicknames:
        aliases.update({"老刘": "刘德海", "桂芝": "孙桂芝", "铁生": "王铁生"})
    return World(cards, aliases, {"青松林场", "哈尔滨"}, far=frozenset({"哈尔滨"}), gender=gender)


CANNERY: dict[str, dict[str, Any]] = {
    "柯满": {"姓名": "柯满", "状态": "在世", "位置": "罐头厂"},
    "韦先生": {"姓名": "韦先生", "状态": "在世", "位置": "罐头厂"},
    "老聂": {"姓名": "老聂", "状态": "已死", "位置": "罐头厂"},
}
CANNERY_TEXTS = {"老聂": "民国二十年正月初九夜里锅炉炸了，老聂死在锅炉房。", "柯满": "罐头厂的学徒。", "韦先生": "账房先生。"}
CANNERY_LORE = "民国二十年十月二十二日商会验货组到罐头厂验货。"


def cannery_time(body: str, now: str, lore: str = CANNERY_LORE) -> list[Finding]:
    """The 书内时间 findings of ``body`` told by 柯满 at the time rounds' cannery (T9 and its fixer, stop 60: D3 of the
    stop's duplicates) at ``now``, in a book whose lore dates ``lore``'s events and whose dead 老聂 (聂师傅) died in the
    first month of 民国二十年; 柯满 and 韦先生 in the scene."""
    died, days = dates_of_death(CANNERY, CANNERY_TEXTS)
    aliases = {**{n: n for n in CANNERY}, "聂师傅": "老聂"}
    world = World(CANNERY, aliases, {"罐头厂"}, set(), ("普通人",), None, {}, {"柯满": "他", "韦先生": "他", "老聂": "他"},
                  died=died, died_day=days, dated=dated_events([lore, *CANNERY_TEXTS.values()]),
                  dated_by=dated_subjects(lore, CANNERY_TEXTS))
    return [f for f in findings(body, world, "柯满", now, ["柯满", "韦先生"]) if "书内时间" in f.message]


def three_holders(body: str, place: str, viewpoint: str = "阿满") -> list[Finding]:
    """:func:`findings` of ``body`` in the holdings rounds' book of three at ``place`` (all in the scene, on 1931年9月2日):
    阿满 holds 铜望远镜, 老周 煤油灯 and 驿符, 苏禾 秒表, each card's text a line of their own; ``place`` is where every
    card puts them and the book's one place. Each call builds its world (D1 of stop 54's duplicates: the fourth and fifth
    rounds' scaffold)."""
    cards: dict[str, dict[str, Any]] = {
        "阿满": {"姓名": "阿满", "状态": "在世", "位置": place, "持有": ["铜望远镜"]},
        "老周": {"姓名": "老周", "状态": "在世", "位置": place, "持有": ["煤油灯", "驿符"]},
        "苏禾": {"姓名": "苏禾", "状态": "在世", "位置": place, "持有": ["秒表"]},
    }
    texts = {"阿满": "阿满守塔。", "老周": "老周是驿丞。", "苏禾": "苏禾教物理。"}
    known = {"阿满": "她", "老周": "他", "苏禾": "她"}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, {n: n for n in cards}, {place}, items, (), None, {}, known, told=told_of(texts, cards))
    return findings(body, world, viewpoint, "1931年9月2日", list(cards), items=items)


class Counted:
    """A compiled pattern standing in for one a reader uses (set by ``monkeypatch.setattr``), counting in :attr:`read`
    the characters each ``search`` or ``finditer`` is given (its work), then doing as the pattern does."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.read = pattern, 0

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        self.read += min(endpos, len(text)) - pos
        return self.pattern.search(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        self.read += min(endpos, len(text)) - pos
        return self.pattern.finditer(text, pos, endpos)


def names_found(text: str, aliases: dict[str, str], people: set[str]) -> list[str]:
    """The names the checks' name pattern finds in ``text`` (a book of ``aliases``, its ``people``), in order."""
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), people=people).reading(text)
    pattern = ctx.names_re()
    assert pattern is not None
    return [m.group() for m in pattern.finditer(text)]


def camp_findings(body: str, who: str = "刘德海") -> list[Finding]:
    """The findings about ``who`` of ``body`` told by 王铁生 at the lumber camp on 1962年10月8日 (刘德海 far in 哈尔滨,
    赵老栓 dead): the report rounds' book (D1 of stop 62's duplicates: RP1's and RP2's test files each built it)."""
    world = lumber_camp(with_dead=True)
    out = findings(body, world, "王铁生", "1962年10月8日", ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith(who)]
