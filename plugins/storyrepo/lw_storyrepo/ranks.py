"""A generic reader of ranks (角色卡·境界) for any book's ladder (issue 30).

The older rank rules in :mod:`lw_storyrepo.continuity` were each read off one book's sentences; this
module is one path for every ladder, driven by tables:

- :func:`ladders_of` reads the ladders the world states, in any notation (``A ＜ B ＜ C``, ``A → B``,
  ``A > B`` downwards, ``A、B、C 依次``, a numbered list, a table, a range written as its endpoints such
  as ``P4–P10`` or ``一品…九品``, letter grades ``S/A/B/C/D 级``), lowest first, in the direction the book
  states (:data:`DOWNWARD`, :data:`NUMBER_HIGHER`). Several ladders may coexist; a rank is compared only
  within its own ladder.
- :class:`RankReader` (compiled once per world) binds a person to a rank in a sentence by the frames of
  :data:`FRAMES` (narration, a register line, a title or address, a comparison) and returns findings
  when the rank said is lower (an error) or, in narration, higher (a warning) than the card's, unless
  the sentence is about another time, a hypothesis, a rumour or a negation (:data:`NOT_NOW_MARKS`), or
  the draft tells an event (:data:`DOWN_WORDS`).
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field, replace
from collections.abc import Iterable
from typing import Any, Callable

from lw_storyrepo.findings import ERROR, WARN, Finding, Subject
from lw_storyrepo.numerals import chinese, value
from lw_storyrepo.repo import as_list
from lw_storyrepo.listeners import QUOTED, addressee
from lw_storyrepo.wordsre import first_end, quoted_at

# --- ladders ---------------------------------------------------------------------------------------

RANKY = re.compile(r"力量体系|职级|等级|品级|品阶|军衔|警衔|职称|段位|位分|级别|官阶|官职|境界|阶位|位阶|衔级|职位|职务|"
                   r"晋升|爵位|名分|功名|科举|资历|岗位|头衔|rank|level", re.I)
"""A section header (or a line) that announces a ladder: any notation in it counts."""
UP_SEP = r"\s*(?:<|＜|→|->|—>|⇒|➝|➔|〈)\s*"
DOWN_SEP = r"\s*(?:>|＞|←|<-|〉)\s*"
DOWNWARD = re.compile(r"从高到低|由高到低|自高而低|自高至低|自上而下|从上到下|由上到下|高到低|降序")
"""A statement that a list (not a ``<`` chain, whose sign says it) runs from the top down."""
UPWARD = re.compile(r"从低到高|由低到高|自低而高|自低至高|自下而上|从下到上|低到高|升序")
LIST_CUE = re.compile(rf"依次|分为|分成|共有|共分|{DOWNWARD.pattern}|{UPWARD.pattern}")
NUMBER_HIGHER = re.compile(r"数字?越(?P<way>[大小])[^。\n]{0,8}?越高|(?P<small>[一1])[品级等段阶][^。\n]{0,3}最高|"
                           r"(?P<low>[一1])[品级等段阶][^。\n]{0,3}最低")
"""What says which end of a numbered ladder is the top (数字越小职级越高, 一品最高)."""
SMALL_IS_HIGH = "品等"
"""Suffixes whose ladder tops at one unless the book says otherwise (一品 over 九品, 一等 over 三等)."""
_CN = "〇零一二两三四五六七八九十"
_TO = r"\s*(?:–|—|－|-|~|～|〜|到|至|…+|\.{2,}|⋯+)\s*"
LATIN_RANGE = re.compile(rf"(?<![A-Za-z])([A-Z]{{1,2}})(\d{{1,2}}){_TO}(?:\1)?(\d{{1,2}})(?!\d)")
CN_RANGE = re.compile(rf"(?:从)?([{_CN}十]{{1,3}})([品级段阶等星])(?:{_TO})([{_CN}十]{{1,3}})\2")
LETTERS = re.compile(r"(?<![A-Za-z])((?:[A-Z]{1,3}\s*[/／、,，<＜>＞]\s*){2,}[A-Z]{1,3})\s*(?:[一二三四五六七八九十]?[级等阶]|级)")
NUMBERED = re.compile(r"^\s*(?:\d{1,2}\s*[.、)）．]|[（(]\d{1,2}[)）]|[-*•·]|[一二三四五六七八九十]{1,2}\s*[、.．])\s*"
                      r"(?:\*\*)?([^\s：:（(，,。;；|*—\-]{1,8})")
_TOKEN = re.compile(r"^[\w\u4e00-\u9fff]{1,8}$")
_STRIP = re.compile(r"[*`「」“”\"'《》【】\[\]]|[（(][^）)]*[）)]")


@dataclass(frozen=True)
class Ladder:
    """One ladder of ranks, lowest first; ``called`` the other names the world gives its rungs (:func:`rung_names`:
    ``(name, rung)``), no part of its identity (a ladder stated twice is one)."""

    rungs: tuple[str, ...]
    called: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def index(self, rung: str) -> int:
        return self.rungs.index(rung)


def _clean(token: str) -> str:
    return _STRIP.sub("", token).strip(" \t:：，,。.;；")


def _ladder(tokens: list[str], down: bool = False) -> Ladder | None:
    words = [w for w in (_clean(t) for t in tokens) if w]
    if len(words) < 2 or not all(_TOKEN.match(w) for w in words) or len(set(words)) != len(words):
        return None
    return Ladder(tuple(reversed(words)) if down else tuple(words))


@functools.lru_cache(maxsize=64)
def _stated_down(context: str) -> bool:
    """Whether ``context`` says its list runs from the top down. Cached: every line, table and list of a
    section asks it of the same section (thousands of lines read it thousands of times)."""
    return DOWNWARD.search(context) is not None and UPWARD.search(context) is None


def _ranges(line: str, context: str) -> list[Ladder]:
    out: list[Ladder] = []
    for m in LATIN_RANGE.finditer(line):
        a, b = int(m.group(2)), int(m.group(3))
        if abs(a - b) < 1 or abs(a - b) > 20:
            continue
        rungs = [f"{m.group(1)}{n}" for n in range(min(a, b), max(a, b) + 1)]
        out.append(Ladder(tuple(reversed(rungs)) if _small_is_high(context, "") else tuple(rungs)))
    for m in CN_RANGE.finditer(line):
        a, b = value(m.group(1)), value(m.group(3))
        if a is None or b is None or a == b or abs(a - b) > 20:
            continue
        rungs = [f"{chinese(n)}{m.group(2)}" for n in range(min(a, b), max(a, b) + 1)]
        out.append(Ladder(tuple(reversed(rungs)) if _small_is_high(context, m.group(2)) else tuple(rungs)))
    return out


@functools.lru_cache(maxsize=16)
def _top_said(context: str) -> bool | None:
    """Whether ``context`` says a numbered ladder's small number is its top; None when it says nothing.
    Every range of a section asks this of the same section: read once, not once per range (a line of
    thousands of ranges read the section thousands of times)."""
    said = NUMBER_HIGHER.search(context)
    return None if said is None else said.group("way") == "小" or bool(said.group("small"))


def _small_is_high(context: str, suffix: str) -> bool:
    said = _top_said(context)
    if said is not None:
        return said
    return bool(suffix) and suffix in SMALL_IS_HIGH


def _letter_key(grade: str) -> int:
    letters = grade.rstrip("级等阶")
    if set(letters) == {"S"}:
        return 100 + len(letters)
    return -(ord(letters[0]) - ord("A")) * 4 + (len(letters) - 1)


def _letters(line: str, context: str) -> list[Ladder]:
    out = []
    for m in LETTERS.finditer(line):
        signs = re.findall(r"[<＜>＞]", m.group(1))
        grades = [f"{g}级" for g in re.findall(r"[A-Z]{1,3}", m.group(1))]
        if len(set(grades)) != len(grades):
            continue
        if signs:
            rungs = grades if signs[0] in "<＜" else list(reversed(grades))
        else:
            rungs = sorted(grades, key=_letter_key)
        out.append(Ladder(tuple(rungs)))
    return out


def _line_ladders(line: str, context: str, ranky: bool) -> list[Ladder]:
    found: list[Ladder] = []
    least = 2 if ranky else 3
    body = line.strip().lstrip("-*• ").strip()
    if re.search(UP_SEP, body) or re.search(DOWN_SEP, body):
        # the chain itself: the longest run of short tokens joined by one kind of sign
        for sep, down in ((UP_SEP, False), (DOWN_SEP, True)):
            m = re.search(rf"[^\s<＜>＞→←⇒➝➔〈〉:：，,。;；]{{1,10}}(?:{sep}[^\s<＜>＞→←⇒➝➔〈〉:：，,。;；]{{1,10}})+", body)
            if m:
                parts = re.split(sep, m.group())
                if len(parts) >= least:
                    arrow = "→" in m.group() or "->" in m.group() or "←" in m.group()
                    ladder = _ladder(parts, down or (arrow and _stated_down(context)))  # a < chain says its own way
                    if ladder:
                        found.append(ladder)
                        break
        if found:
            return found
    found += _letters(line, context)
    if found:
        return found
    found += _ranges(line, context)
    if "、" in line and (ranky or LIST_CUE.search(line)):
        # the list after the cue that says its order (从低到高依次是：A、B、C), else the longest
        cue = max((m.end() for m in LIST_CUE.finditer(line)), default=0)
        lists = re.findall(r"[^\s、，,：:。；;（）()]{1,10}(?:\s*、\s*[^\s、，,：:。；;（）()]{1,8})+", line[cue:]) \
            or re.findall(r"[^\s、，,：:。；;（）()]{1,10}(?:\s*、\s*[^\s、，,：:。；;（）()]{1,8})+", line)
        parts = max(lists, key=len, default="").split("、")
        if parts:
            parts[0] = re.split(r"依次为|依次是|分为|分成|共有|共分|依次|为|是|有", parts[0])[-1]
            parts[-1] = re.split(r"[等共这几四五六七八九十三两]{1,2}(?:等|级|个|种|阶|档)|依次|等", parts[-1])[0]
        if len(parts) >= max(3, least):
            ladder = _ladder(parts, _stated_down(line if (DOWNWARD.search(line) or UPWARD.search(line)) else context))
            if ladder:
                found.append(ladder)
    return found


def _table(rows: list[str], context: str) -> Ladder | None:
    cells = [[_clean(c) for c in row.strip().strip("|").split("|")] for row in rows]
    cells = [r for r in cells if not all(re.fullmatch(r":?-{2,}:?|", c) for c in r)]
    if len(cells) < 3:
        return None
    head = cells[0]
    col = next((k for k, c in enumerate(head) if RANKY.search(c) or re.search(r"称谓|名称|头衔|级", c)), 0)
    column = [r[col] for r in cells[1:] if col < len(r)]
    return _ladder(column, _stated_down(context))


def _numbered(block: list[str], context: str) -> Ladder | None:
    items = [m.group(1) for m in (NUMBERED.match(x) for x in block) if m]
    return _ladder(items, _stated_down(context)) if len(items) >= 3 else None


def ladders_of(world_text: str, card_ranks: list[str] | None = None) -> tuple[Ladder, ...]:
    """Every ladder 世界观.md states, lowest rung first; with ``card_ranks`` (the cards' 境界 values), only
    those on which some card holds a rung (a list in the geography that happens to read like one is none)."""
    sections = re.split(r"(?m)^(?=#{1,6}\s)", world_text or "")
    found: list[Ladder] = []
    for section in sections:
        lines = section.split("\n")
        header = lines[0] if lines and lines[0].startswith("#") else ""
        ranky = RANKY.search(header) is not None
        context = section
        k = 0
        while k < len(lines):
            line = lines[k]
            if line.lstrip().startswith("|"):
                j = k
                while j < len(lines) and lines[j].lstrip().startswith("|"):
                    j += 1
                if ranky or RANKY.search(lines[k]):
                    ladder = _table(lines[k:j], context)
                    if ladder:
                        found.append(ladder)
                k = j
                continue
            if NUMBERED.match(line) and (ranky or (k and RANKY.search(lines[k - 1]))):
                j = k
                while j < len(lines) and NUMBERED.match(lines[j]):
                    j += 1
                ladder = _numbered(lines[k:j], "\n".join(lines[max(0, k - 2):k]) or context)
                if ladder and not any(_line_ladders(x, context, ranky) for x in lines[k:j]):
                    found.append(ladder)
                    k = j
                    continue
            found += _line_ladders(line, context, ranky or RANKY.search(line) is not None)
            k += 1
    held = [str(v) for v in card_ranks or [] if str(v).strip()]
    found = list(dict.fromkeys(found))  # a ladder said on a thousand lines is compared once, not a thousand times
    if held:
        told = [frozenset(y.rungs) for y in found]
        found += [x for x in dict.fromkeys(_held_in_order(sections, held)) if not any(frozenset(x.rungs) <= t for t in told)]
    return tuple(replace(x, called=rung_names(world_text, x.rungs)) for x in dict.fromkeys(found)
                 if not held or any(_rung_in(v, x) for v in held))


NAMING_VERBS = r"叫做|叫作|称作|称为|称做|唤作|喊作|叫|称|喊|唤"
"""The verbs a world text gives a rung another name with (乡下人叫秀才“相公”, 线长…厂里人顺口叫「拉长」)."""
RUNG_NAMED = re.compile(rf"(?:{NAMING_VERBS})(?P<rung>[^“”「」，,。；;：:\n]{{0,6}}?)[“「](?P<name>[\u4e00-\u9fff]{{2,4}})[”」]")
"""A naming verb, the rung it names if said right after it (叫秀才“相公”), and the quoted name (:func:`rung_names`)."""
MISNAMED = re.compile(r"[^，,。；;\n]{0,6}?(?:错|不对|不该|不能|不准|不许)|[^，,。；;\n]{0,2}?(?:不算|不是)")
"""What after a naming says the name is wrong for that rung (叫童生“相公”就是叫错了功名)."""
RUNG_RANGE = re.compile(r"及?(?:以上|以下|之上|之下|往上|往下|上下|前后)")
"""After a rung, what makes a naming of a range of rungs (嫔以上是一宫主位，宫人称“娘娘”), no one rung's name."""
EVERYONES_ADDRESS = frozenset({"先生", "老爷", "大人", "太太", "夫人", "小姐", "少爷", "老板", "师傅", "老师", "同志", "大哥",
                               "大姐", "阿姨", "叔叔", "大爷", "大娘", "掌柜", "东家", "师父", "娘娘", "小主", "主子"})
"""Words of address anyone may be called by: never a rung's own name, whatever the world text says (秀才的娘子叫“太太”,
童生见了秀才要叫“先生”: r63-8)."""
NAMES_REACH = 40
"""How far back in its sentence a naming with no rung right after its verb looks for the rung it names."""


def rung_names(world_text: str, rungs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The other names the world text gives the rungs ``rungs``: ``(name, rung)`` for a quoted name after a verb of naming
    (:data:`NAMING_VERBS`), of the rung said between them (乡下人叫秀才“相公”) or else of the last rung said before the verb in
    its sentence, :data:`NAMES_REACH` characters back at most (线长管一条拉，厂里人顺口叫「拉长」) — a name said wrong for
    a rung (:data:`MISNAMED`: 叫童生“相公”就是叫错了, 童生不是相公), a rung itself or a name given two rungs is none
    (hk1, stop 63)."""
    found: dict[str, set[str]] = {}
    wrong: set[tuple[str, str]] = set()
    by_length = sorted(rungs, key=len, reverse=True)
    rung_re = re.compile("|".join(re.escape(r) for r in by_length)) if by_length else None
    if rung_re is None:
        return ()
    # every "rung不是…" of the text once, cut at each name length RUNG_NAMED allows (r63-10: one scan, not one per naming)
    denied = {world_text[d.start():d.start() + len(d.group("rung")) + 2 + size]
              for d in re.finditer(rf"(?=(?P<rung>{rung_re.pattern})不是)", world_text or "") for size in range(2, 5)}
    for m in RUNG_NAMED.finditer(world_text or ""):
        name, said = m.group("name"), m.group("rung")
        rung = said if said in rungs else None
        if rung is None and not said:
            start = max(world_text.rfind(c, max(0, m.start() - NAMES_REACH), m.start()) for c in "。；;\n") + 1
            before = list(rung_re.finditer(world_text, start, m.start()))
            rung = before[-1].group() if before else None
            if before and RUNG_RANGE.match(world_text, before[-1].end()):
                continue  # 嫔以上…称“娘娘”: a name of every rung from it up, none's own
        if rung is None or name in rungs or name in EVERYONES_ADDRESS \
                or (not said and "的" in world_text[before[-1].end():m.start()]):
            continue  # 秀才的娘子叫“太太”: a name of someone of the rung's, not of the rung (r63-8)
        if MISNAMED.match(world_text, m.end()) or f"{rung}不是{name}" in denied:
            wrong.add((name, rung))
            continue
        found.setdefault(name, set()).add(rung)
    return tuple((name, next(iter(held))) for name, held in found.items()
                 if len(held) == 1 and (name, next(iter(held))) not in wrong)


ORDERED = re.compile(r"往上|再往上|之上|以上是|之下|以下是|高于|低于|高过|低过|升为|升到|晋为|晋升|考中|中了|过了")
"""Words that make a line naming ranks an order of them."""


def _held_in_order(sections: list[str], held: list[str]) -> list[Ladder]:
    """Ladders the book tells in prose or an unmarked list: the cards' 境界 values in the order one line names
    them (three of them, or two in a section about ranks), with the words listed between them
    (考过县试是童生，院试过了是秀才，乡试中了是举人); lowest first unless the line or section says 从高到低."""
    values = sorted({v.strip() for v in held if 1 <= len(v.strip()) <= 8}, key=len, reverse=True)
    if len(values) < 2:
        return []
    value_re = re.compile("|".join(map(re.escape, values)))
    out = []
    for section in sections:
        ranky = RANKY.search(section.split("\n", 1)[0]) is not None
        for line in section.split("\n"):
            seen = list(dict.fromkeys(m.group() for m in value_re.finditer(line)))
            if len(seen) < 2 or not (ranky or RANKY.search(line) or LIST_CUE.search(line) or ORDERED.search(line)):
                continue  # a line of the geography or of who is who (韩德厚是车间主任，马国庆是工段长) orders nothing
            tokens = [_clean(t) for t in re.split(r"\s*[、，,/／→<＜]\s*", line)]
            if all(v in tokens for v in seen):
                a, b = tokens.index(seen[0]), tokens.index(seen[-1])
                span = tokens[min(a, b):max(a, b) + 1]
                rungs = span if all(_TOKEN.match(t) for t in span) and a < b else seen
            else:
                rungs = seen
            ladder = _ladder(rungs, _stated_down(line) or (not UPWARD.search(line) and _stated_down(section)))
            if ladder:
                out.append(ladder)
    return out


def _rung_in(value: str, ladder: Ladder) -> str | None:
    """The rung a card value names on ``ladder`` (the longest it contains: 主治医师 is 主治; B is B级)."""
    value = value.strip()
    best = None
    for rung in ladder.rungs:
        if rung in value or (rung.endswith("级") and value == rung[:-1]):
            if best is None or len(rung) > len(best):
                best = rung
    return best


# --- binding a person to a rank ------------------------------------------------------------------------

THAT_DAY = (r"那一?(?:天(?!井|空|花|平|鹅|线|才|真|窗|桥|色|亮|棚|地|气|上|河)|日(?!头|子|本|光|记|历)|"
            r"晚(?!饭|霞|报|辈|年|餐|会)|夜(?!色|空|宵|壶|校|班|幕|风))")
"""A remembered day (那天早上, 那一夜): the day word alone, not 那天井, 那日头, 那晚饭, 那夜色 (R58 at stop 58)."""
TIME_NOUNS = r"辰光|时候|时节|时光|光景|当口|当儿|年月|年头|岁月|会子|会儿|阵子|阵儿|日子|时日"
"""Nouns of a time, any register or dialect (时候, Wu 辰光, classical 时节, northern 会子): after 那 a time gone
(:data:`GONE_SPANS`), after a clause and 的 a time of something done (:data:`WHEN`); rk1's round (stop 60)."""
STRETCH_NOUNS = r"辰光|时节|时光|年月|年头|岁月|阵子|阵儿|日子|时日"
"""The nouns of :data:`TIME_NOUNS` that name a stretch (那阵子, 那些年月), not a moment: in narration 那当口, 那当儿,
那会子, 那光景, 那时候 are the scene's own now ("at that moment"), so only these say a time gone there (frk1, stop 60)."""
HELD_WHEN = re.compile(rf"(?:的|那)(?:{TIME_NOUNS})|那(?:些|几)?年|时(?=[，,；;：:\s]|$)|期间|任上")
"""After a rank, what makes it the time the rank was held (还是R的时候, 当R那会儿, 做R那阵子, 当R时，…, R任上): a
clause of when, told of another time (or of a plan), never a statement of the rank now — whatever the words before it
say (开春以前, 去年, 我刚来); asked with ``match`` at the rank's end (rk3's round, stop 62: the shape is in the good text of eight books)."""
GONE_SPANS = rf"那(?:{STRETCH_NOUNS})|那些年|那几年|那些日子|那段日子|那段时间|那些时候"
"""A stretch of time named as gone (老贺那阵子还是个观测员, 他跑船那些年, 那时节他还是…)."""
GONE_SPANS_SAID = rf"那(?:{TIME_NOUNS})|那些年|那几年|那些日子|那段日子|那段时间|那些时候"
"""In a quote, any time noun after 那 is a time gone (我那辰光还是…, 我那当口还是个…): a speaker tells of another day."""


def _gone_time(spans: str) -> re.Pattern[str]:
    """:data:`GONE_TIME` over the given spans of time gone (narration's or a quote's)."""
    return re.compile(
        rf"(?:(?:^|(?<=[，,；;：:“]))\s*(?:{spans}|{THAT_DAY})[早晚上下午夜中里头间]{{0,3}}[，,])|"
        rf"(?:{spans}|{THAT_DAY})(?![早晚上下午夜中里头间]{{0,3}}的)[^，,；;：:“”。！？]*$")


GONE_TIME = _gone_time(GONE_SPANS)
"""A rank held at a time gone (R59, F2-2): a remembered day or stretch (:data:`THAT_DAY`, :data:`GONE_SPANS`) leading
the sentence's clauses as a time alone (那天早上，龚船工…) or in the rank's own clause (老贺那阵子还是个…) — searched on
the words before the rank; not one naming a thing (那天的事, 那阵子的账, 那天夜里的雨) or said in an earlier clause."""
GONE_TIME_SAID = _gone_time(GONE_SPANS_SAID)
"""A rank held at a time gone, in a quote: :data:`GONE_TIME` with the moment nouns too (:data:`GONE_SPANS_SAID`)."""
NOT_NOW_MARKS = re.compile(
    r"当年|那年|以前|之前|从前|早年|曾经|曾是|那时|那会儿|当时|当初|起初|最初|原先|原本|本来|过去|昔日|小时候|刚入|刚进|刚来|"
    r"[一两二三四五六七八九十几数半]+年前|[一两二三四五六七八九十几数半]+个?月前|去年|前年|回忆|想起|记得|梦|"
    r"要是|若是|若|万一|除非|如果|假如|假使|倘若|倘使|哪怕|就算|即使|即便|的话|"
    r"将来|以后|日后|明年|后年|迟早|早晚|总有一天|等到|等他|等她|"
    r"听说|据说|传言|传闻|谣传|谣言|风言风语|有人说|都说|人说|听人说")
"""A rank said of another time, a hypothesis, the future or a rumour: not the card's now."""
REACHED = re.compile(r"(?:才|刚|刚刚|终于|总算|好不容易|已经|早就|早已)(?:熬|当|升|评|考|混|晋升)(?:上|到)了?(?:一?个)?$")
"""A stage reached (当了四年学徒才熬上水手, 那时候他刚当上排头, 打了三年荷才熬上砧板): the verbs of :data:`ASPIRE` with
their result said done — someone at the stage, not below it (H11, stop 58: three books' good text)."""
NOT_YET = re.compile(r"明年|下个?月|下回|将来|往后|以后|等到|还没|没有?")
"""A time to come or a not-yet before a stage reached (明年才升到, 还没熬到): :data:`REACHED` does not hold."""
GROUP_OF = "们"
"""After a stage, what makes it a group (脚夫们, 弟子们, 水手们): the people of that stage, nobody's own (H11, stop 58)."""
LATER = re.compile(r"\s*后来(?![的嘛呢啊呀吧么])")
"""后来 opening a clause (后来他当了舵工, 后来，…), not 后来的事 (a noun phrase) or 后来嘛 (a pause): a past told on."""
WHEN = re.compile(rf"^\s*(?![等到要若如假])[^，,。！？“”：:]{{2,20}}的(?:{TIME_NOUNS})$")
"""A clause of a time of something done (你爹教我这个扣的时候), not 等/到/要是/如果… (a time to come)."""
THEN_MARKS = re.compile(r"还(?:只)?是|还在|那会儿?|当年|那年|那时|当初|从前|以前|小时候|了|过")
"""What says a time clause (:data:`WHEN`) is a past, in it or in the stage's clause after it (…的时候，他还是纤夫): without
one, 开会的时候，他是总灶 is a habit of now."""
NOW_WORDS = re.compile(r"如今|现在|眼下|目前|这会儿|而今|今天|今年|现如今")
"""A word for now in a stage's own clause: whatever was told before it, the stage is the card's now."""


def told_back(before: str) -> bool:
    """Whether ``before`` (the text up to a stage) tells a past the stage belongs to: the stage's own clause opened on
    :data:`LATER` (后来他当了灶头), or following a clause so opened (后来他当了舵工，焦胡子来当头工) or a time clause
    (:data:`WHEN`) with a past mark (:data:`THEN_MARKS`) — and the stage's clause holds no word for now (:data:`NOW_WORDS`). Callers ask it only of a
    stage inside quoted words (the way of telling a past in speech, H11, stop 58; narrowed by the second outside
    reader: 后来的事…，大成如今是总灶 and 开会的时候，大成是总灶 say now)."""
    clauses = re.split(r"[，,；;：:“”]", before)
    own = clauses[-1]
    if NOW_WORDS.search(own):
        return False
    if LATER.match(own):
        return True
    prior = clauses[-2] if len(clauses) >= 2 else ""
    if LATER.match(prior):
        return True
    return WHEN.search(prior) is not None and (THEN_MARKS.search(prior) is not None or THEN_MARKS.search(own) is not None)


def reached(before: str) -> bool:
    """Whether ``before`` (the text up to a stage) ends on the stage reached (:data:`REACHED`), in a clause saying no time
    to come and no not-yet (:data:`NOT_YET`)."""
    done = REACHED.search(before)
    return done is not None and not NOT_YET.search(re.split(r"[，,；;：:“”]", before[:done.start()])[-1])


NEGATED = re.compile(r"(?<!不过)(?<!只不)不是|不再是|早不是|已不是|已经不是|再也不是|并非|并不是|哪是|哪里是|不算|没当|没做")
DOWN_WORDS = re.compile(r"沦为|降职|降级|降了级|降了职|降为|降成|降到|降位|降了位|撤职|撤了职|免职|免了职|革职|革去|罢免|罢官|罢了官|"
                        r"贬为|贬到|贬成|被贬|贬了|撸了|撸掉|撸下|撸成|一撸到底|打回|被打回|跌落|跌境|跌回|退回|褫夺|削去|夺了|"
                        r"降格|下放|留用察看|废为|黜")
"""Events that explain a rank lower than the card's, anywhere in the draft."""
UP_WORDS = re.compile(r"中了|考中|中举|进学|转为|转成|补为|补上|升为|升任|升到|升了|晋为|晋升|晋了|提为|提拔|提了|擢升|封为|册封|晋封|转正|评上|考上|当上|突破")

BETWEEN_BEING = re.compile(
    r"(?:(?:如今|现在|眼下|目前|此刻|此时|今天|今年|这会儿|这阵子|至今|到现在)[，,]?)?"
    r"(?:也|还|仍|仍然|依旧|依然|都|却|已|已经|早已|早就|才|就|终究|毕竟|好歹|可|明明|分明)*"
    r"(?:(?:只|不过|仅|仅仅|只不过|顶多|充其量|区区|也就)?"
    r"(?:是|算|算是|当|当着|做|做着|干|干着|乃|为|(?<=[还仍只才都])在|[卡停困]在|一介)"
    r"(?:(?:一?[个名位介]|一)(?:小小的?|区区)?(?:[^，,。！？；;“”的\s]{1,6}的)?|(?:小小的?|区区))?(?:跑|当|做|干|打|挂)?"
    r"|(?:也|还|仍|都|却|就|可|才|正|本)*(?:是|算是)[^，,。！？；;：:“”「」的\s你我他她您咱它]{1,8}的"
    r"|(?<![\u4e00-\u9fff])(?:的)?(?:职级|级别|等级|职称|品级|官阶|军衔|警衔|段位|位分|境界|职务|段|级)"
    r"(?:如今|现在|眼下|目前)?(?:也|还|仍|都|却|已|已经|才|就|只|不过|只有|也就)*(?:是|为|：|:)?"
    r"|(?:如今|现在|眼下|目前)?(?:才|也就|还只|只|刚|才刚|不过|只不过)(?:到)?)$")
"""Between a name and a rank: the person is said to be the rank (林晓如今不过是个科员, 她还是个常在,
秦川如今不过是D级, 不过是个坐冷板凳的替补, 林晓的职级才是P5, 林晓才P5; and, rk1's round (stop 60), a copula and any
modifier of the rank with no measure word: 某某是号里资格最老的R, 某某是柜上的R — not a person's (是她的贵人: a word))."""
NOT_STATED_AFTER = re.compile(r"^(?:的(?!了|呢|啊|吧|。|，|！|？|$|修为|实力|身份|功力|境界|底子|资历)|之[位女子职]|手下|身边|面前|跟前|那里|那儿|那边|办公室|家|夫人|太太|娘子|"
                              r"儿子|女儿|媳妇|们|出身|起家|起步|时|的时候|那会|期间|任上|以上|以下|及以上|之上|之下|级别|待遇|水平|考试|考核)")
"""What after a rank makes it no statement of the person's rank (林晓是主任的学生, 科员出身, 当科长时)."""
BETWEEN_THIS = re.compile(r"^(?:这个|这位|这名|这)$")
"""X这个R: the rank as an apposition."""
BETWEEN_LISTED = re.compile(r"^\s*(?:[，,](?:一[个名位])?(?:小小的?)?|[（(]|\s)\s*$")
"""X，R / X（R）/ X：R — a register or roster line (the rank must close its entry: :data:`ENTRY_END`)."""
ENTRY_END = re.compile(r"\s*(?:$|[，,。；;、）)\s|/／])")
ROSTER_CLOSE = re.compile(rf"{ENTRY_END.pattern}|\s*[（(]|兼")
"""What may close a roster's entry after its rank: :data:`ENTRY_END`, a note in brackets (驾驶员（九号车）) or a second post
(驾驶员兼炊事员) — r62-1 on rk3's round."""
CALLED_ALL = re.compile(r"你们|你俩")
"""Words that make a list of ranks and names a call to them all (“班长X、排长Y，连长叫你们俩…”): vocatives, no roster
(r62, second look at rk3's round)."""
ROSTER_DIVIDERS = "；;、"
"""What divides the entries of a roster written out in a line (东头第一台，司事X；东头第二台，司事Y)."""
ENTRY_OPENS = " \t，,；;：:、“「"
"""What may stand right before an entry of a roster."""


def roster_entry(sentence: str, start: int, end: int) -> bool:
    """Whether a rank glued before a name (``start``..``end`` of ``sentence``: 司事冯五) is an entry of a roster written out
    — opened by a field mark, closed by one (:data:`ROSTER_CLOSE`), a :data:`ROSTER_DIVIDERS` within :data:`LOOK_BACK` of
    it (the entries of a line divided): a record's line copied, read out or pinned up states each one's rank, even in quoted words, where a rank
    before a name alone may be a courtesy (rk3's round, stop 62)."""
    opened = start == 0 or sentence[start - 1] in ENTRY_OPENS
    # a window about the entry, not the whole sentence: a line of thousands of entries is read once per entry over a few
    window = sentence[max(0, start - LOOK_BACK):end + LOOK_BACK]
    return opened and ROSTER_CLOSE.match(sentence, end) is not None and any(c in window for c in ROSTER_DIVIDERS) \
        and CALLED_ALL.search(window) is None


BETWEEN_FIELDS = re.compile(r"^[，,](?:[^，,。；;：:“”「」！？\s的了着是说你我他她]{1,6}[，,]){1,2}$")
"""X，老生，R / X，年十九，R — a register entry with one or two short fields (a trade, an age, a post) before
the rank (the rank must close its entry: :data:`ENTRY_END`)."""
CALLED_DONE = re.compile(r"“([^“”，,！!？?。]{1,8})[，,！!]\s*你?(?:现在|如今|眼下)?(?:都|已经|早就|早都|都已经)"
                         r"(?:是|挂上?了?|当上?了?|升到了?|成了)?(?:一?[个名位])?$")
"""“秋姐，你都挂头牌了” / “Vivian，都P7了”: a quote calling its listener by name, then their rank said as reached
(the rank must be followed by 了)."""
DONE_TO_YOU = re.compile(r"(?<![等要若如假倘万当])你(?:现在|如今|眼下)?(?:都|已经|早就|早都|都已经)(?:是|挂上?了?|当上?了?|升到了?|升了|上了?|坐上了?|熬上了?|"
                         r"成了)?(?:一?[个名位])?$")
"""“…你都上炉头了” after the quote's vocative: the rank the listener is said to have reached (followed by 了) — not
等你都当上R了 (a time to come: :data:`YOU_ARE`'s lookbehind, frk2 at stop 61)."""
VOCATIVE = re.compile(r"“([^“”，,！!？?。：:]{1,8})[，,！!]")
"""A quote opening by calling its listener (“满姐，…)."""
NOT_CALLED = re.compile(r"[你我他她您俺咱]")
"""What a quote's first clause holds when it is said, not a call (“以前你称东西，…”): a person's pronoun (hk1, stop 63)."""
ADDRESS_ENDS = "姐哥妹弟叔姨婶伯"


def _given_forms(people: Iterable[str], surname: Callable[[str], str]) -> dict[str, str]:
    """``{form: person}``: a character of a person's given name with a word of address after it (秋姐 for 沈砚秋, 满姐
    for 林小满) or 阿 before it, the whole given name of two characters or more with one (满江哥 for 陈满江), and 小/老/阿 on the surname of its one bearer (老俞) — forms two people could go by, and
    the prefixes 小/大/老/阿, left out."""
    seen: dict[str, set[str]] = {}
    for person in people:
        given = person[len(surname(person)):]
        for c in set(given) - set("小大老阿"):  # 小姐 is anyone's address, not 苏小禾's
            for form in [c + end for end in ADDRESS_ENDS] + ["阿" + c]:
                seen.setdefault(form, set()).add(person)
        if len(given) >= 2:  # 满江哥 for 陈满江: the whole given name and a word of address (rk2's round, stop 61)
            for end in ADDRESS_ENDS:
                seen.setdefault(given + end, set()).add(person)
    # 小俞 / 老俞 for the one person of the surname 俞: a word of familiarity on a surname (E1, stop 51); a form a
    # given name gives another (阿周 for 李小周 beside 周大成) is neither's (R51, stop 51)
    by_surname: dict[str, set[str]] = {}
    for person in people:
        if len(surname(person)) == 1:
            by_surname.setdefault(surname(person), set()).add(person)
    for s, who in by_surname.items():
        if len(who) == 1:
            for pre in SURNAME_FAMILIAR:
                seen.setdefault(pre + s, set()).update(who)
    return {form: next(iter(who)) for form, who in seen.items() if len(who) == 1}


SURNAME_FAMILIAR = ("小", "老", "阿")
"""Words of familiarity before a surname in an address (小俞, 老周, 阿陈)."""
SPAN = (r"(?:整整|足足|快|近|将近|差不多|小|大|好)?(?:[一两二三四五六七八九十百几多半来数]+个?(?:年|月|季|冬|春|秋|夏|年头|载)(?:多|来|半)?|[这那]么(?:些|多|几)?年|[这那](?:些|几)年)")
"""A span of time served, any length and unit (五年, 半年, 两年多, 三个月, 大半年, 这么些年): rk1's round (stop 60). No
days or weeks: 干了三天R, 当了两天R is a stint of that work, not a post held (frk1, stop 60)."""
SERVE_VERBS = r"(?:当|做|干|熬|混|坐|任)了"
"""Verbs of serving in a post for a span (当了五年R, 做了两年R, 熬了三年R, 坐了十年R): the post held till now —
not 当过 (a past) nor 当上 (a reaching, :data:`UP_WORDS`)."""
SERVED_SPAN = rf"{SERVE_VERBS}{SPAN}(?:的)?(?:一?个)?"
"""A span served right before a rank (当了五年R, 做了两年的R, 当了这么些年的R): the one pattern of the rank
readers of years served (m1, stop 61) — :data:`SERVED`, and :data:`YOU_FRAMES`' 你当了…."""
SERVED = re.compile(rf"{SERVED_SPAN}$")
"""Between a person and a rank: the rank said as the span they have served in it (某某当了五年R, 某某在店里做了两年R,
某某上山当了半年R) — the person's rank now (rk1's round, stop 60: three books of stop 59); before it and 的 a name
after (当了七八年R的X)."""
SERVED_BY_ANOTHER = re.compile(r"手下|底下|身边|跟前|门下|家|的|把|被|给|替|帮|跟|随|和|同|与|让|叫|教")
"""What between a name and :data:`SERVED` makes the name another's (在老汪手下做了两年写票: 老汪 is not the one serving)."""
SERVED_UNDER = re.compile(r"(?:跟着?|随着?|给|替|帮|和|同|与|跟随|陪着?)$")
"""What before the name makes it the one served under or with (柳根跟着石大成当了两年R: the rank is not 石大成's)."""
PLACE_BEFORE = frozenset("在到进于去来回")
"""What before a name makes it a place the person serves in (在某号做了两年R), not another person."""
SERVED_THEN = re.compile(r"[^。！？；;“”]*?(?:(?:才|后来|之后|以后|然后|往后|后头|再|又|就)[^。！？；;“”]{0,6}?"
                         r"(?:升|提|转|熬上|当上|评上|考上|换|调|改|接|退|不干|走)|"
                         r"如今|现在|眼下|早就|早已|这才|便|总算|熬出|出师|出了?头|提的|升的|提了|升了|"
                         r"后来|那会[儿子]?|那时|那阵|那年|当年|一直[^。！？；;“”]{0,6}?到(?!现在|如今|眼下|今))")
"""After a rank served, in the rest of its sentence or the next (a window), a next step told or a now that is
another (当了四年R才熬上R2, 做了两年R，后来升了R2, 当了十年R，如今是R2了, 熬了两年R，总算熬出了头): the span is a
past, a back-story of how the person rose (frk1, stop 60) — or 后来 with any doing, a time gone named (那会儿, 那时,
当年) or the span closed (一直做到…): a back-story too (frk2, stop 61)."""
RISEN_TO = re.compile(r"(?:是|做了?|当上|成了|升|提|升了|提了|升为|提为|当了)(?:一?个|为)?$")
"""Right before a rung after a span served: the rung said as someone's now or reached (…做了R2, 如今是R2, 升了R2)."""
YOU_FRAMES = (
    (re.compile(r"你(?:现在|如今|眼下)?(?:一个|一介|这个|这么个|堂堂|堂堂一个|好歹是个|好歹也是个)(?:小小的?|区区)?$"), False),
    (re.compile(rf"你(?:现在|如今|眼下)?(?:都|已经|早就|都已经)?{SERVED_SPAN}$"), False),
    (DONE_TO_YOU, True),
)
"""General attributive frames that say the listener (你) is a rank (E1, stop 51): 你一个R, 你堂堂R, 你当了这么些年的R
(as is), 你都是R了, 你都当上R了 (the rank followed by 了). The listener is the one the quote calls (a vocative in the
paragraph); no vocative, no finding."""
NOT_A_CLAIM_BEFORE = re.compile(r"(?:代|署理|暂代|代理|前|原|老|退休的?|卸任的?|从前的?|以前的?|早先的?|昔日的?|当年的?|"
                                r"未来的?|将来的?|准|候补|见习|预备|想当|要当|当上)$")
"""What before a title makes it no claim of the person's rank now (代R, 前R, 老R, 从前的R: acting, former, veteran;
未来的R, 准R, 想当R: a rank to come, frk1 at stop 60)."""
NOT_A_CLAIM_REACH = 8
"""How far before a title :data:`NOT_A_CLAIM_BEFORE` is looked for (longer than its longest word)."""
SERVED_AGAIN = re.compile(rf"({SERVE_VERBS}){SPAN}")
"""Right after a rank, the verb before it again with 了 and a span (做R做了三年, 当R当了五年, 干R干了大半年): the
verb-copy word order of :data:`SERVED` (rk2's round, stop 61) — the verb said once before the rank and once after."""
YOU_ARE = re.compile(r"(?<![等要若如假倘万当])你(?:现在|如今|眼下|可|好歹|毕竟|到底|总归|既然|既|本来就|本就)?是(?:一?个)?$")
"""A quote's 你是R (你是副班长，这活儿不归你干; 你可是R; 你好歹是个R): the listener's rank told to their face — a
rebuke or a reminder of duty (rk2's round, stop 61). Not 你要是R (a wish), 等你是R (a time to come), 你那时是R (a
past: no other word may stand between 你 and 是), 你是R吗 (a question: :data:`ASKED_AFTER`)."""
ASKED_AFTER = re.compile(r"^(?:吗|么|不|没|(?:了|的)?(?:呢|啊|呀|哪|吧)?[？?])")
"""Right after the rank of :data:`YOU_ARE` (or the 了 of :data:`DONE_TO_YOU`), read in the line, not the cut sentence:
a question (你是R吗, 你是R不是, 你是R？, 你是R啊？, 你都当上R了？) — the rhetorical one the commonest rebuke (frk2, stop 61)."""
NOT_SAID_BEFORE = re.compile(r"(?:以为|当|算|就算|哪怕|即便|即使|除非|谁(?:跟你|和你|同你|对你)?说)$")
"""Right before the 你是R of :data:`YOU_ARE` (a window of :data:`NOT_SAID_REACH`): who-do-you-think-you-are (你以为你是R,
你还真当你是R), a concession (就算你是R) or the claim denied (谁说你是R了): no claim of the listener's rank (frk2, stop 61)."""
NOT_SAID_REACH = 6
"""How far before 你 :data:`NOT_SAID_BEFORE` is looked for (its longest word, 谁跟你说, and one word between)."""
FROM_NOW_ON = re.compile(r"从今|打今|自今|从此|此后|往后|今后|以后|明儿起|明天起|明日起")
"""Before :data:`YOU_ARE` in its sentence: a rank given from now on (从今天起你是R, 以后你是R): the card's next, not its
now (the draft's setting changes say it)."""


@functools.lru_cache(maxsize=16)
def _narration_of(line: str, names: re.Pattern[str], rung_re: re.Pattern[str] | None
                  ) -> tuple[list[int], list[int], str, tuple[str, ...], tuple[int, ...]]:
    """A line read once for all its titles: the offsets of its opening and closing quote marks (sorted, to count those
    before a title by bisection), its narration (each quote one ``\\x00``), the names said there and the starts of the
    ranks said there."""
    told = QUOTED.sub("\x00", line)
    return ([k for k, c in enumerate(line) if c == "“"], [k for k, c in enumerate(line) if c == "”"], told,
            tuple(m.group() for m in names.finditer(told)),
            tuple(m.start() for m in rung_re.finditer(told)) if rung_re is not None else ())


BETWEEN_LIKE = re.compile(r"^(?:跟|和|与|同|像)[^，,。！？“”]{1,6}?(?:一样|一般)[，,]?(?:都|也|还|同样)*(?:只|不过|只不过)?(?:是|算)"
                          r"(?:一?[个名位])?$")
"""X跟你一样是R: X is the rank (the one compared with is not who is ranked)."""
SAID_LIKE = re.compile(r"^(?:一样|一般)[，,]?(?:都|也|还|同样|仍|仍然)*(?:只|不过|只不过)?(?:是|算)(?:一?[个名位])?$")
"""一样，还是(个) after the name compared with: the rank is the subject's before 跟."""
AS_FRONT = re.compile(r"(?:身为|作为|以)(?:一?[个名位介])?(?:小小的?|区区)?$")
"""身为R的X, 作为一名R，X, 以R之身: the person follows (or is the clause's subject before, for 以…之身)."""
TITLE_AFTER = re.compile(r"^(?:娘娘|大人|老爷|爷|哥|姐|总|同志|师傅|小主|阁下|公|娘子|相公)")
"""A rank made an address (R娘娘, R大人): said of the name or surname right before it."""
STEP = re.compile(r"比(?P<other>[^，,。！？“”]{1,6}?)(?P<way>[高低])(?P<n>[一两二三四五六七八九\d])(?:级|个?级别|阶|品|等|档)")
"""X比Y高一级 / 低两级: X's rank from Y's card."""
ASPIRING = re.compile(r"(?:还没|没|尚未|未)(?:熬到|升到|升上|当上|评上|考上|混到|够上|摸到|到)(?:一?个)?$|"
                      r"(?:要|想|准备|打算|盼着|等着)(?:考|评|升|冲|冲击|熬)(?:一?个)?$")
"""Someone still below a rank (还没熬到主治, 下个月就要考四级了): a card at or above it contradicts."""
MAX_BETWEEN = 14
OPEN_QUOTE = re.compile("“")
"""A quote opening: a rank after one in its sentence may be someone's words, not the narration's."""
PAUSE = re.compile(r"[，,。；;：:]")
"""A pause in a sentence: a rank after one is in another clause than the sentence's first (:func:`first_end` of the
sentence asks each once a sentence, not the sentence's text up to each of thousands of ranks: A17, stop 57)."""
LEVEL = r"(?:期|位(?!分|置|子))?(?:[一二两三四五六七八九十\d]{1,2}[层重阶段星]|初期|前期|中期|后期|巅峰|大圆满|圆满)?"
"""A level within a rung (炼气七层, 筑基圆满): read past, compared by the rung only (the older rules compare levels)."""
AS_ONESELF = r"之身|的修为|的身份|的资历|的级别|的职级|的位分|的品级|的官阶|的军衔|的段位"
"""以R之身 / 以R的修为: what the person acts as (the subject before 以)."""
LOOK_BACK = 60
"""How far before a rank the markers of another time, a hypothesis or a rumour are looked for."""
OPENS = " \t，,。；;：:“「（(、！？"
"""What may stand right before a rank that opens its clause."""


@dataclass
class RankReader:
    """The ladders of a world and their patterns, compiled once (:func:`reader_for`)."""

    ladders: tuple[Ladder, ...]
    cards: dict[str, dict[str, Any]]
    rung_re: re.Pattern[str] | None = None
    holds: dict[str, dict[int, str]] = field(default_factory=dict)  # person -> ladder index -> rung
    surnames: dict[str, list[str]] = field(default_factory=dict)
    ranked: dict[str, list[str]] = field(default_factory=dict)  # surname -> its bearers holding a rank (:meth:`ranked_of`)
    ladder_of: dict[str, list[int]] = field(default_factory=dict)  # rung -> ladders it is on
    short: dict[str, str] = field(default_factory=dict)  # 博士 -> 茶博士, 队 -> 队长: what a surname takes as an address
    clipped: dict[str, str] = field(default_factory=dict)  # 四级 -> 四级工: a rank said without its trade
    called: dict[str, str] = field(default_factory=dict)  # 秋姐 -> 沈砚秋: a given name's character and a word of address
    titles: dict[str, str] = field(default_factory=dict)  # 拉长 -> 线长, 骁骑 -> 骁骑校: a rung's other name, a surname's title only
    declared: frozenset[str] = frozenset()  # the titles the world text gives (:func:`rung_names`), not read off an alias
    posted_surnames: frozenset[str] = frozenset()  # surnames (of :attr:`surnames`) borne by one of no rank field whose
    # card's text names a rung of two characters or more (退休的老主任)

    def ranked_of(self, surname: str) -> list[str]:
        """The people of ``surname`` whose cards hold a rank, in the cards' order: read once a book (:meth:`build`), not
        every bearer of the surname tried for each title the prose puts on it (王主任 said thousands of times beside
        thousands of cards of 王: mentions × cards; A15, stop 55)."""
        return self.ranked.get(surname, [])

    @classmethod
    def build(cls, ladders: tuple[Ladder, ...], cards: dict[str, dict[str, Any]], surname: Callable[[str], str],
              texts: dict[str, str] | None = None) -> RankReader:
        """The reader of ``ladders`` for ``cards`` (their 境界 fields), ``texts`` their cards' free texts: a person whose
        card holds no rank but whose text names a rung of two characters or more (退休的老主任) may bear that title."""
        reader = cls(ladders, cards)
        rungs: set[str] = set()
        for k, ladder in enumerate(ladders):
            for rung in ladder.rungs:
                reader.ladder_of.setdefault(rung, []).append(k)
                rungs.add(rung)
        for person, card in cards.items():
            values = [v for v in re.split(r"[、,，/／;；]|\s+", str(card.get("境界") or "")) if v] or []
            for k, ladder in enumerate(ladders):
                held = next((r for r in (_rung_in(v, ladder) for v in values) if r), None) \
                    or _rung_in(str(card.get("境界") or ""), ladder)
                if held:
                    reader.holds.setdefault(person, {})[k] = held
            if len(surname(person)) == 1:
                reader.surnames.setdefault(surname(person), []).append(person)
        for person, card in cards.items():  # 巴领催 of 巴彦: a name no surname starts, its head said before its rung
            if len(surname(person)) != 1 and _alias_stem(person, card, reader.holds.get(person, {}).values()):
                reader.surnames.setdefault(person[0], []).append(person)
        reader.ranked = {s: [p for p in people if p in reader.holds] for s, people in reader.surnames.items()}
        reader.called = _given_forms([p for p in cards if p in reader.holds], surname)
        said = [r for r in rungs if len(r) >= 2]
        posted = {p for p, text in (texts or {}).items() if p not in reader.holds and any(r in text for r in said)}
        reader.posted_surnames = frozenset(n for n, people in reader.surnames.items() if any(p in posted for p in people))
        tails: dict[str, set[str]] = {}
        for rung in rungs:
            if len(rung) >= 3 and re.fullmatch(r"[\u4e00-\u9fff]+", rung):
                tails.setdefault(rung[-2:], set()).add(rung)
        reader.short = {t: next(iter(full)) for t, full in tails.items()
                        if len(full) == 1 and t not in rungs and not any(x.endswith(t) and x not in full for x in rungs)}
        # 陆队 for a 队长, 王局 for a 局长: the head of a two-character rank in 长, a surname's address only
        heads: dict[str, list[str]] = {}
        for rung in rungs:
            if len(rung) == 2 and rung.endswith("长") and rung[0] not in rungs:
                heads.setdefault(rung[0], []).append(rung)
        reader.short |= {h: full[0] for h, full in heads.items() if len(full) == 1}
        # 四级 for 四级工, 三级 for 三级技师: a rank said without its trade (要考四级了), in every frame
        clipped: dict[str, list[str]] = {}
        for rung in rungs:
            m = re.fullmatch(rf"([{_CN}十\d]+级)[\u4e00-\u9fff]{{1,2}}", rung)
            if m and m.group(1) not in rungs:
                clipped.setdefault(m.group(1), []).append(rung)
        reader.clipped = {c: full[0] for c, full in clipped.items() if len(full) == 1}
        reader.titles, reader.declared = _rung_titles(ladders, cards, surname, reader.holds, rungs)
        if rungs:
            ones = "".join(r for r in rungs if len(r) == 1)
            forms = []
            for rung in sorted(rungs | set(reader.short) | set(reader.clipped) | set(reader.titles), key=len, reverse=True):
                if len(rung) == 1:
                    behind = rf"(?<![{ones}])" if ones else ""
                    forms.append(rf"{behind}{re.escape(rung)}(?=[位娘的了呢吧啊呀么]|[^\u4e00-\u9fff]|$)")
                elif re.fullmatch(r"[A-Za-z]+\d+", rung):
                    forms.append(rf"(?<![A-Za-z0-9]){re.escape(rung)}(?!\d)")
                elif re.fullmatch(r"[A-Z]{1,3}级", rung):
                    forms.append(rf"(?<![A-Za-z]){re.escape(rung)}")
                elif re.match(rf"[{_CN}十]+[级品段阶等星]$", rung):
                    # 高一级, 升一级, 一级棒, 一级一级: the word, not the rung
                    forms.append(rf"(?<![高低升降跳差越连第超特每]){re.escape(rung)}(?!棒|一|二|三|的水平)")
                else:
                    forms.append(re.escape(rung))
            reader.rung_re = re.compile(rf"(?P<rung>{'|'.join(forms)}){LEVEL}")
        return reader

    def _titled(self, sentence: str, r: re.Match[str], spans: list[tuple[int, int]], k: int) -> str | None:
        """The one ranked bearer of the surname right before ``r`` (a rung's other name, :attr:`titles`), when it is an
        address (罗拉长, 巴骁骑): no name the book knows running into the title, the surname not posted
        (:attr:`posted_surnames`), the character before it no part of a word (:meth:`_address_ok`); None otherwise."""
        if r.start() < 1:
            return None
        s = sentence[r.start() - 1]
        owners = self.ranked_of(s)
        if len(owners) != 1 or s in self.posted_surnames or (k and spans[k - 1][1] > r.start() - 1) \
                or not self._address_ok(sentence, r):
            return None
        return owners[0]

    def compare(self, who: str, rung: str) -> tuple[int, str] | None:
        """(said − held, the card's rung) on the ladder both are on; None when the person holds none there."""
        for k in self.ladder_of.get(rung, []):
            held = self.holds.get(who, {}).get(k)
            if held:
                ladder = self.ladders[k]
                return ladder.index(rung) - ladder.index(held), held
        return None

    def findings(self, names: re.Pattern[str], aliases: dict[str, str], sentences: list[tuple[int, int, str]],
                 first_line: int, text: str, skip: set[str],
                 antecedent: Callable[[int, int], str | None], pov: str | None,
                 lines: list[str] | None = None,
                 spoken_to: Callable[[int, int], str | None] | None = None,
                 present: frozenset[str] = frozenset()) -> list[Finding]:
        """Findings of ranks said of a person lower (error) or, in narration, higher (warning) than their card's
        境界; ``skip`` the people whose 境界 the draft's setting changes set. A title higher than the card's warns
        too where it is a claim (:meth:`_title_claims`; ``lines``: the draft's lines the sentences index, to tell
        narration from a quote; ``spoken_to``: who words at a line and column are said to, ``present``: the draft's 在场)."""
        if self.rung_re is None or not self.holds:
            return []
        # a fall told anywhere in the draft explains a rank said lower, never one said higher — unless in that
        # sentence (品检台上又退回来一箱板子 explains no 罗拉长 of a 普工; hk1, stop 63)
        fallen = DOWN_WORDS.search(text) is not None
        # who a fall is told of: the people its clauses name, everyone when one speaks of a 他/她 (阿福被撸成木匠已经三年了:
        # “严领作，…” is the old title kept; r63-7)
        fell = [clause for _i, _c, sentence in sentences if fallen and DOWN_WORDS.search(sentence)
                for clause in re.split(r"[，,；;：:]", sentence) if DOWN_WORDS.search(clause)]  # the fall's own clause
        fell_of = {aliases.get(n.group(), n.group()) for x in fell for n in names.finditer(x)}
        fell_any = any(re.search(r"(?<![其吉])[他她](?!们)", x) for x in fell)
        out: list[Finding] = []
        flagged: set[tuple[int, str]] = set()
        paragraph = (-1, "")  # the line read and the end of its sentences so far: a quote's vocative said before the rank
        for nth, (i, col, sentence) in enumerate(sentences):
            before = paragraph[1] if paragraph[0] == i else ""
            paragraph = (i, before[-LOOK_BACK:] + sentence[-LOOK_BACK:])
            if not self.rung_re.search(sentence):
                continue
            # a rank standing for its one holder (工段长 for the only 工段长) is a rank here, not a name
            spans = [(m.start(), m.end()) for m in names.finditer(sentence) if m.group() not in self.ladder_of]
            starts = [a for a, _b in spans]
            for r in self.rung_re.finditer(sentence):
                bound = self._bind(sentence, r, spans, starts, names, aliases, i, col, antecedent, pov, before[-LOOK_BACK:],
                                   lines, spoken_to)
                if bound is None:
                    continue
                who, kind, said = bound
                if who in skip or (i, who) in flagged:
                    continue
                # a window, not the whole sentence: a sentence of thousands of ranks is read once per rank over a few characters
                before = sentence[max(0, r.start() - LOOK_BACK):r.start()]
                clause = re.split(r"[，,；;：:“]", before)[-1]
                if sentence.startswith(GROUP_OF, r.end()) \
                        or (lines is not None and told_back(before) and quoted_at(lines[i], col - 1 + r.start())):
                    continue
                if fallen and (kind == "below" or DOWN_WORDS.search(sentence)):
                    continue
                if kind == "below" and reached(before):
                    kind = "narration"  # 刚当上灶丁: the stage just reached is the stage now, compared as said
                spoken = lines is not None and quoted_at(lines[i], col - 1 + r.start())
                if NOT_NOW_MARKS.search(before) or (GONE_TIME_SAID if spoken else GONE_TIME).search(before) \
                        or NEGATED.search(clause) \
                        or NEGATED.search(sentence[r.end():r.end() + 2]) \
                        or (UP_WORDS.search(clause) and not (DONE_TO_YOU.search(before) and sentence.startswith("了", r.end()))):
                    # 你都当上R了: a rise told as done before now is the rank now (rk2's round, stop 61), not this chapter's rise
                    continue
                if kind == "below":
                    held = self.compare(who, said)
                    if held and held[0] <= 0:
                        flagged.add((i, who))
                        out.append(Finding("连贯", ERROR, f"{who} 的境界已是「{held[1]}」（角色卡·境界），正文却说{who}还在「{said}」之下",
                                           first_line + i, col, sentence.strip()[:60]))
                    continue
                cmp = self.compare(who, said)
                if cmp is None:
                    continue
                diff, held = cmp
                if diff == 0:  # the same rung: its level, where both say one of a kind (七层 under 九层, 初期 under 后期)
                    card_value = str(self.cards.get(who, {}).get("境界") or "")
                    mine, theirs = _level(sentence[r.end("rung"):r.end()]), _level(card_value[card_value.find(held) + len(held):])
                    if mine and theirs and mine[0] == theirs[0] and mine[1] != theirs[1]:
                        diff = mine[1] - theirs[1]
                        said, held = said + sentence[r.end("rung"):r.end()], card_value
                if kind == "served" and nth + 1 < len(sentences) and sentences[nth + 1][0] == i \
                        and self._moved_on(sentences[nth + 1][2], 0):
                    continue  # 当了十年R。前年坞主提他做了R2: the next sentence tells the step since
                if diff < 0 and fallen:
                    continue
                if diff > 0 and (who in fell_of or fell_any):
                    continue  # a higher rank of one the draft tells fell: the old one, kept in the mouth (r63-7)
                if diff < 0:
                    flagged.add((i, who))
                    # a span served is weak evidence of the rank now (a back-story of a rise): a warning, not an error
                    out.append(Finding("连贯", WARN if kind == "served" else ERROR, f"{who} 的境界是「{held}」（角色卡·境界），正文写成更低的「{said}」，"
                                       "本章没有写降级的缘由", first_line + i, col, sentence.strip()[:60],
                                       Subject("境界", who, said)))  # answered and placed at the rank by review.check
                elif diff > 0 and kind == "title" and self._title_claims(who, said, sentence, r, lines[i] if lines else None, col,
                                                                          names, aliases, bool(present) and who not in present):
                    flagged.add((i, who))
                    out.append(Finding("连贯", WARN, f"{who} 的境界是「{held}」（角色卡·境界），正文用更高的「{said}」称呼{who}；"
                                       f"本章晋升了就在设定变更写「{who}.境界={said}」", first_line + i, col, sentence.strip()[:60]))
                elif diff > 0 and kind in ("narration", "list", "served"):
                    flagged.add((i, who))
                    out.append(Finding("连贯", WARN, f"{who} 的境界是「{held}」（角色卡·境界），正文写成更高的「{said}」；"
                                       f"本章晋升了就在设定变更写「{who}.境界={said}」", first_line + i, col, sentence.strip()[:60]))
        return out

    def _bind(self, sentence: str, r: re.Match[str], spans: list[tuple[int, int]], starts: list[int],
              names: re.Pattern[str], aliases: dict[str, str], i: int, col: int,
              antecedent: Callable[[int, int], str | None], pov: str | None, before: str = "",
              lines: list[str] | None = None,
              spoken_to: Callable[[int, int], str | None] | None = None) -> tuple[str, str, str] | None:
        """(person, frame kind, rung) the rank at ``r`` is said of, or None (``before``: the paragraph's text before the
        sentence; ``lines``: the draft's lines, ``i`` the sentence's, to find a quote's listener in their narration). Kinds: narration (a statement of the person's rank: warns when higher), title (an address: courtesy
        may raise it), below."""
        rung = r.group("rung")
        rung = self.clipped.get(rung, rung)
        k = bisect.bisect_right(starts, r.start())
        if rung in self.titles:  # 罗拉长 for a 线长, 巴骁骑 for a 骁骑校: another name of the rung, after a surname only
            titled = self._titled(sentence, r, spans, k)
            return (titled, "title", self.titles[rung]) if titled else None
        if rung in self.short:  # 王博士 for a 茶博士: only as a surname's address
            full = names.match(sentence, r.end())
            unit = r.start() and sentence[r.start() - 1] in TAIL_NOT_AFTER  # 副班长X, 炊事班班长X (r63-28)
            if len(rung) >= 2 and not unit and full is not None and full.group() in self.cards \
                    and not (k and spans[k - 1][1] > r.start()):
                # 复核人班长陈国梁 for a 道班班长: the tail of a rung right before a full name is its title there too —
                # never a one-character head (三连刘满仓 is of the third company, no 连长; hk1)
                return full.group(), "title", self.short[rung]
            owners = self.ranked_of(sentence[r.start() - 1:r.start()])
            if r.start() and len(owners) == 1 and len(self.surnames[sentence[r.start() - 1]]) == 1 \
                    and not (k and spans[k - 1][1] > r.start() - 1) and self._address_ok(sentence, r):
                return owners[0], "title", self.short[rung]
            return None
        if k and spans[k - 1][0] <= r.start() < spans[k - 1][1]:
            return None  # inside a name the book knows (马工段长 an alias of its own)

        def canon(n: str) -> str:
            return aliases.get(n, n)

        # 五级工周大海, 心外科副主任顾衡: the rank right before a name is their title
        after = names.match(sentence, r.end() + (1 if sentence[r.end():r.end() + 1] == " " and rung.isascii() else 0))
        if after:
            # 手艺最硬的五级工郑大炮: the narrator's own apposition states the rank; a quote's may be a courtesy
            quoted = sentence.count("“", 0, r.start()) > sentence.count("”", 0, r.start())
            told = r.start() and sentence[r.start() - 1] == "的" and not quoted
            if roster_entry(sentence, r.start(), after.end()):
                return canon(after.group()), "list", rung  # …，司事冯五；…: a roster's entry states the rank
            return canon(after.group()), "narration" if told else "title", rung
        if sentence.startswith("的", r.end()) and (r.start() == 0 or sentence[r.start() - 1] in OPENS):
            of = names.match(sentence, r.end() + 1)
            if of:
                return canon(of.group()), "title", rung  # P6的林晓, 三级工的赵铁军: said as who they are
        # 身为R的X / 作为一名R，X
        front = AS_FRONT.search(sentence, max(0, r.start() - 8), r.start())
        if front:
            rest = sentence[r.end():]
            m = re.match(r"(?:的|之身)?[，,]?\s*", rest)
            nxt = names.match(sentence, r.end() + (m.end() if m else 0))
            if nxt:
                return canon(nxt.group()), "narration", rung
            if re.match(AS_ONESELF, rest) and front.group().startswith("以") and k \
                    and front.start() - spans[k - 1][1] <= 4:
                return canon(sentence[slice(*spans[k - 1])]), "narration", rung  # 苏青禾以炼气七层的修为…
        # surname + R (王经理, 顾副主任): one ranked person of that surname, the surname not part of a name; others of
        # the surname whose cards hold no rank at all take no rank's title (程掌作 of the 墨师 程仲甫, not of his wife
        # 程月娥, who carries no 境界: T4, stop 55) — unless another's card text names a post (退休的老主任: R55)
        if r.start() >= 1:
            s = sentence[r.start() - 1]
            owners = self.ranked_of(s)
            if len(owners) == 1 and s not in self.posted_surnames and not (k and spans[k - 1][1] > r.start() - 1) and self._address_ok(sentence, r):
                return owners[0], "title", rung
        served = self._served(sentence, r, spans, k, canon)
        if served:
            return served, "served", rung  # 某某在店里做了两年R: the rank served till now
        # a person's name before the rank (a place's is none: 景福宫，妃位，韩氏), and what lies between them
        if k and canon(sentence[slice(*spans[k - 1])]) in self.cards:
            a, b = spans[k - 1]
            between = sentence[b:r.start()]
            who = canon(sentence[a:b])
            stated = _states(sentence, r.end())
            if len(between) <= MAX_BETWEEN:
                if between == "" and TITLE_AFTER.match(sentence, r.end()):
                    return who, "title", rung
                if between == "" and rung.isascii() and ENTRY_END.match(sentence, r.end()):
                    return who, "list", rung  # 老周P6，…: a code right after the name
                if not stated:
                    return None
                if BETWEEN_THIS.match(between):
                    return who, "narration", rung
                if (BETWEEN_LISTED.match(between) or BETWEEN_FIELDS.match(between)) and ENTRY_END.match(sentence, r.end()):
                    return who, "list", rung
                if BETWEEN_LIKE.match(between):
                    return who, "narration", rung
                if k >= 2 and SAID_LIKE.match(between) and re.fullmatch(r"(?:跟|和|与|同|像)", sentence[spans[k - 2][1]:a]):
                    return canon(sentence[slice(*spans[k - 2])]), "narration", rung  # 赵大个跟三宝一样，还是学徒
                if SAID_LIKE.match(between) and a >= 2 and sentence[a - 2] in "他她" and sentence[a - 1] in "跟和与同像" \
                        and not (k >= 2 and spans[k - 2][1] > a - 2):
                    compared = antecedent(i, col + a - 2)  # 她跟小春子一样还是个学徒: the pronoun before 跟 is ranked
                    if compared:
                        return compared, "narration", rung
                aspire = ASPIRING.search(between)
                if aspire and _own_clause(between[:aspire.start()]):
                    return who, "below", rung
                plain = re.sub(r"^的(?=职级|级别|等级|职称|品级|官阶|军衔|警衔|段位|位分|境界|职务)", "", between)
                being = BETWEEN_BEING.search(plain)
                if being and _own_clause(plain[:being.start()]) and not re.search(r"[的把被对向给让叫]", plain.split("是")[0]):
                    return who, "narration", rung
        called = CALLED_DONE.search(sentence, max(0, r.start() - 24), r.start())
        if called and sentence.startswith("了", r.end()):
            listener = self._listener(called.group(1), names, aliases)
            if listener:
                return listener, "narration", rung
        # the words after the rank in its line: a sentence is cut before its ？ (你是R？ read as 你是R)
        after_rank = lines[i][col - 1 + r.end():] if lines is not None else sentence[r.end():]
        you = YOU_ARE.search(sentence, max(0, r.start() - 12), r.start())
        you_are = you is not None \
            and not ASKED_AFTER.match(after_rank) and _states(sentence, r.end()) \
            and not NOT_SAID_BEFORE.search(sentence, max(0, you.start() - NOT_SAID_REACH), you.start()) \
            and not FROM_NOW_ON.search(sentence, max(0, r.start() - LOOK_BACK), r.start())
        if you_are or any((not done or (sentence.startswith("了", r.end()) and not ASKED_AFTER.match(after_rank)))
                          and frame.search(sentence, max(0, r.start() - 12), r.start())
                          for frame, done in YOU_FRAMES):
            # “满姐，莫怄了。”他说，“你都上炉头了…” / “小俞，你当了这么些年的R”: the listener the quote called at its
            # start, earlier in the paragraph (a window: a sentence of thousands of ranks is not read again for each)
            # a quote's first clause with a person's pronoun in it is said, not called (“以前你称东西，…”: hk1)
            vocative = [v for v in VOCATIVE.finditer((before + sentence[max(0, r.start() - LOOK_BACK):r.start()])[-LOOK_BACK:])
                        if not NOT_CALLED.search(v.group(1))]
            listener = self._listener(vocative[-1].group(1), names, aliases) if vocative else None
            if listener is None and not vocative and lines is not None and quoted_at(lines[i], col - 1 + r.start()):
                listener = self._addressee(lines, i, names, aliases, antecedent, pov)  # 瞅他一眼：“你是R…”
                if listener is None and spoken_to is not None:
                    listener = spoken_to(i, col - 1 + r.start())  # a scene of two: one speaks to the other (hk1)
            if listener:
                return listener, "narration", rung
        if sentence.startswith("的", r.end()) and SERVED.search(sentence, max(0, r.start() - 12), r.start()):
            served = names.match(sentence, r.end() + 1)  # 当了七八年R的X
            if served:
                return canon(served.group()), "narration", rung
        # a pronoun or no name: 她如今不过是个常在 / 自己不过是个R
        pre = sentence[max(0, r.start() - MAX_BETWEEN):r.start()]
        he = max(pre.rfind("他"), pre.rfind("她"))
        if he >= 0 and not (k and spans[k - 1][1] > r.start() - MAX_BETWEEN + he) and BETWEEN_THIS.match(pre[he + 1:]) \
                and not NOT_STATED_AFTER.match(sentence[r.end():r.end() + 4]):
            # 他这个R在…: an apposition names the pronoun's rank whatever its clause goes on to say (E1, stop 51)
            who = antecedent(i, col + r.start() - len(pre) + he)
            if who:
                return who, "narration", rung
        if he >= 0 and not (k and spans[k - 1][1] > r.start() - MAX_BETWEEN + he) and _states(sentence, r.end()):
            between = pre[he + 1:]
            being = BETWEEN_BEING.search(between)
            if (being and _own_clause(between[:being.start()])) or BETWEEN_THIS.match(between) or BETWEEN_LIKE.match(between):
                who = antecedent(i, col + r.start() - len(pre) + he)
                if who:
                    return who, "narration", rung
            aspire = ASPIRING.search(between)
            if aspire and _own_clause(between[:aspire.start()]):
                who = antecedent(i, col + r.start() - len(pre) + he)
                if who:
                    return who, "below", rung
        if not spans and pov and first_end(OPEN_QUOTE, sentence) > r.start():
            aspire = ASPIRING.search(sentence, max(0, r.start() - 12), r.start())
            if aspire and first_end(PAUSE, sentence) > aspire.start():
                return pov, "below", rung  # 下个月就要考四级了: the point of view's narration of itself, no subject named
        if not k and pov and _states(sentence, r.end()):
            # 自己在镖局里，还是个趟子手: the point of view's own thought of himself (我 only outside a quote)
            window = sentence[max(0, r.start() - 24):r.start()]
            m = re.search(r"(?:^|[，,：:])\s*(自己|我)(?!们)([^。！？“”]{0,16})$", window)
            if m and (m.group(1) == "自己" or first_end(OPEN_QUOTE, sentence) > r.start()):
                last = re.split(r"[，,]", m.group(2))[-1]
                if ASPIRING.search(last):
                    return pov, "below", rung
                if BETWEEN_BEING.search(last) and re.search(r"[是算当]|才|只|不过", last):
                    return pov, "narration", rung
        # 景福宫，妃位，韩氏: a register line with the rank between commas and its person after it
        if r.start() and sentence[r.start() - 1] in "，,、" and sentence[r.end():r.end() + 1] in ("，", ",", "、") \
                and not NOT_NOW_MARKS.search(sentence[r.start() - 1:r.start()]):
            nxt = names.match(sentence, r.end() + 1)
            if nxt and (nxt.end() == len(sentence) or sentence[nxt.end()] in "，,。；;、！？”"):
                return canon(nxt.group()), "list", rung
            clan = re.compile(r"([\u4e00-\u9fff])氏(?=[，,。；;、！？”]|$)").match(sentence, r.end() + 1)  # 韩氏: a surname and 氏
            if clan and len(self.surnames.get(clan.group(1), [])) == 1:
                return self.surnames[clan.group(1)][0], "list", rung
        # R：X、Y (a register with the rank first)
        m = re.match(r"\s*[：:]\s*", sentence[r.end():])
        if m and (r.start() == 0 or sentence[r.start() - 1] in " \t，,。；;（(|、"):
            nxt = names.match(sentence, r.end() + m.end())
            if nxt:
                return canon(nxt.group()), "list", rung
        return None

    def _served(self, sentence: str, r: re.Match[str], spans: list[tuple[int, int]], k: int,
                canon: Callable[[str], str]) -> str | None:
        """The person said to have served the rank at ``r`` for a span (:data:`SERVED`, or the verb said again after the
        rank: :data:`SERVED_AGAIN`): the last card's name before the
        verb, in its own clause, with only a place or a group's name (在某号, 在井队) and no other person between
        (:data:`SERVED_BY_ANOTHER`), the rank closing its statement and no next step told after it (:data:`SERVED_THEN`)."""
        served = SERVED.search(sentence, max(0, r.start() - MAX_BETWEEN), r.start())
        said_at, told_to = (served.start(), r.end()) if served else (r.start() - 1, r.end())
        if served is None:
            again = SERVED_AGAIN.match(sentence, r.end())  # 做R做了三年: the verb before the rank said again after it
            if again is None or not r.start() or sentence[r.start() - 1] != again.group(1)[0]:
                return None
            told_to = again.end()
        if not _states(sentence, told_to) or self._moved_on(sentence, told_to):
            return None
        for j in range(k - 1, -1, -1):  # back from the rank, a few names at most (the window is MAX_BETWEEN long)
            a, b = spans[j]
            if b > said_at:
                continue
            if said_at - b > MAX_BETWEEN:
                return None
            prefix = sentence[b:said_at]
            if not _own_clause(prefix) or SERVED_BY_ANOTHER.search(prefix):
                return None
            who = canon(sentence[a:b])
            if who in self.cards:
                return None if SERVED_UNDER.search(sentence, max(0, a - 3), a) else who
            if not a or sentence[a - 1] not in PLACE_BEFORE or len(sentence[a:said_at]) > MAX_BETWEEN:
                return None  # a name that is no card's is passed over only as a place (在某号)
        return None

    def _moved_on(self, text: str, at: int) -> bool:
        """Whether the words from ``at`` (a window of :data:`LOOK_BACK`) tell a rank served as left since: a next step or
        a now told (:data:`SERVED_THEN`), or another rung said as someone's (:data:`RISEN_TO`: 提他做了R2) — not a rung
        merely named (当了半年R，头一回见R2发火: R2 is another person)."""
        window = text[at:at + LOOK_BACK]
        return SERVED_THEN.match(window) is not None or (self.rung_re is not None and any(
            RISEN_TO.search(window, max(0, m.start() - 4), m.start()) for m in self.rung_re.finditer(window)))

    def _listener(self, form: str, names: re.Pattern[str], aliases: dict[str, str]) -> str | None:
        """Who a quote's vocative calls: a known name, or a character of one ranked person's given name with a word
        of address (秋姐, 阿满)."""
        known = names.fullmatch(form)
        return aliases.get(known.group(), known.group()) if known else self.called.get(form)

    def _addressee(self, lines: list[str], i: int, names: re.Pattern[str], aliases: dict[str, str],
                   antecedent: Callable[[int, int], str | None], pov: str | None) -> str | None:
        """The one the quotes of line ``i`` are spoken to (:func:`lw_storyrepo.listeners.addressee` among the cards)."""
        return addressee(lines, i, names, aliases, self.cards, antecedent, pov)

    def _title_claims(self, who: str, said: str, sentence: str, r: re.Match[str], line: str | None, col: int,
                      names: re.Pattern[str], aliases: dict[str, str], absent: bool = False) -> bool:
        """Whether a title higher than ``who``'s card is a claim of their rank, not a courtesy (E1, stop 51): said by the
        narrator (outside any quote), or in a quote whose one speaker named in the line's narration holds the title's
        rung or higher (a superior does not flatter upward); never after 代/前/老 (acting, former, veteran) on the
        rank or its surname; never beside another rung (炉头砧板: ranks listed, the second one's holder no title's
        bearer). Without ``line``, never. A title in words of one ``absent`` from the scene (not in the draft's 在场:
        是赵候官交代过的) is a claim too — courtesy is paid to one's face — unless it only drops the card's 副/代 (hk1, stop 63)."""
        # a bounded window before the title (the pattern ends at it): not the whole prefix per title (R51, stop 51)
        if line is None or (self.rung_re is not None and self.rung_re.match(sentence, r.end())) \
                or NOT_A_CLAIM_BEFORE.search(sentence, max(0, r.start() - NOT_A_CLAIM_REACH), r.start()) \
                or (r.start() and NOT_A_CLAIM_BEFORE.search(sentence, max(0, r.start() - 1 - NOT_A_CLAIM_REACH),
                                                            r.start() - 1)):
            return False
        if r.group("rung") in self.declared:
            return True  # 叫童生“相公”就是叫错了功名: the world gives the name to the rung, whoever says it (hk1, stop 63)
        if absent and said not in EVERYONES_ADDRESS and not any(said.endswith(x) for x in ADDRESS_POSTS) \
                and not (r.start() >= 2 and sentence[r.start() - 2] in CALLED_BEFORE and sentence[r.end():r.end() + 1] in CALLED_AFTER):
            # “来两斤茶，郑掌柜。”: one called is there, whatever the 在场 lists — a courtesy to their face
            held = self.compare(who, said)
            return not (held is not None and any(held[1] == head + said for head in DEPUTY_HEADS))
        if r.start() >= 2 and sentence[r.start() - 2] in VOCATIVE_OPENS and sentence[r.end():r.end() + 1] in VOCATIVE_ENDS:
            # “韩把头，…”: the one spoken to is called by the rank, whoever speaks (a hint) — but a deputy or an acting
            # holder called by the title without its 副/代 (王副局长 as 王局长) is the everyday courtesy (R57)
            held = self.compare(who, said)
            return not (held is not None and any(held[1] == head + said for head in DEPUTY_HEADS))
        named_after = names.match(sentence, r.end())
        if named_after and aliases.get(named_after.group(), named_after.group()) == named_after.group() == who:
            return True  # 验货R某某, 值日R某某: a rank before a full name, a record's or a roster's entry in any words
        at = col + r.start()
        opens, closes, told, named, titled = _narration_of(line, names, self.rung_re)
        if bisect.bisect_left(opens, at) <= bisect.bisect_left(closes, at):
            return True
        speakers = {aliases.get(n, n) for n in named}
        for start in titled:  # 鲁驿令拍拍手上的灰: a surname and a title
            owners = self.ranked_of(told[start - 1:start]) if start else []
            if len(owners) == 1:
                speakers.add(owners[0])
        speakers.discard(who)
        if len(speakers) != 1:
            return False
        cmp = self.compare(next(iter(speakers)), said)
        return cmp is not None and cmp[0] <= 0

    @staticmethod
    def _address_ok(sentence: str, r: re.Match[str]) -> bool:
        """A surname right before a rank is an address when the character before the surname is not part of
        a word (start, punctuation, a quote, 的, 找/叫/问 …)."""
        if r.start() < 2:
            return True
        c = sentence[r.start() - 2]
        return not re.match(r"[\u4e00-\u9fff]", c) or c in "的找叫问喊请跟和与同给对向是见让把被称"


VOCATIVE_OPENS = "“「"
"""What opens the quote a vocative title stands first in (its surname right after)."""
VOCATIVE_ENDS = frozenset("，,！!")
"""What follows a vocative title: the pause after the one spoken to is named (“周排长，今天…”, “韩把头！”)."""
ADDRESS_POSTS = ("师傅", "老师", "大夫", "医生", "先生", "老板", "掌柜", "经理", "主任", "科长", "处长", "局长", "厂长", "队长",
                 "班长", "组长", "师父", "工程师", "技术员", "会计")
"""Posts said as everyday address behind one's back too (孙师傅今天没来？, 王经理人好): an absent one called by them is no
claim of the rank (r63-18)."""
TAIL_NOT_AFTER = frozenset("副代正班队组排连车科股")
"""A character before a rung's tail that makes it a deputy's (副班长) or another unit's head (炊事班班长), no rung's title."""
CALLED_BEFORE = frozenset("“「，,")
CALLED_AFTER = frozenset("，,。！!？?”」")
"""Around a title (its surname first), what makes it a call (“…，郑掌柜。”): the one spoken to is in the scene."""
DEPUTY_HEADS = ("副", "代", "常务副", "代理")
"""What a card's rank may add before the title a vocative drops (王副局长 spoken to as 王局长)."""


PHASES = {"初期": 1, "前期": 1, "中期": 2, "后期": 3, "巅峰": 4, "圆满": 5, "大圆满": 6}


def _rung_titles(ladders: tuple[Ladder, ...], cards: dict[str, dict[str, Any]], surname: Callable[[str], str],
                 holds: dict[str, dict[int, str]], rungs: set[str]) -> tuple[dict[str, str], frozenset[str]]:
    """``({title: rung}, the titles the world gives)``: the other names the world text gives the rungs
    (:attr:`Ladder.called`: 相公 for 秀才, 拉长 for 线长), and the head of a rung a card's alias puts after its bearer's
    surname (图骁骑 of a 骁骑校: 骁骑), two characters or more and no rung itself — a title said of whoever bears one
    ranked surname (:meth:`RankReader._titled`); a title of two rungs is none (hk1, stop 63)."""
    named: dict[str, set[str]] = {}
    for ladder in ladders:
        for name, rung in ladder.called:
            named.setdefault(name, set()).add(rung)
    declared = {n for n, held in named.items() if len(held) == 1}
    for person, card in cards.items():
        stem = surname(person) or (person[0] if _alias_stem(person, card, holds.get(person, {}).values()) else "")
        for alias in (str(a) for a in as_list(card.get("别名"))):
            head = alias[len(stem):] if stem and alias.startswith(stem) else ""
            for rung in holds.get(person, {}).values():
                if len(head) >= 2 and rung.startswith(head) and head != rung and head not in rungs:
                    named.setdefault(head, set()).add(rung)
    titles = {n: next(iter(held)) for n, held in named.items() if len(held) == 1 and n not in rungs}
    return titles, frozenset(declared & set(titles))


def _alias_stem(person: str, card: dict[str, Any], held: Iterable[str]) -> bool:
    """Whether an alias of ``person``'s card is the first character of their name before a rung they hold, or before
    the head of one (巴领催 of 巴彦, 图骁骑 of 图泰, a 骁骑校): a name no surname starts, called by its head like a surname
    (hk1, stop 63)."""
    return any(len(alias) >= 3 and alias[0] == person[0] and alias != person
               and any(rung.startswith(alias[1:]) for rung in held) for alias in (str(a) for a in as_list(card.get("别名"))))


def _level(text: str) -> tuple[str, int] | None:
    """(kind, value) of a level within a rung: ("层", 7) for 七层, ("期", 1) for 初期; None when none is said."""
    m = re.match(r"(?:期|位)?([一二两三四五六七八九十\d]{1,3})([层重阶段星])", text)
    if m:
        n = value(m.group(1).replace("两", "二"))
        return (m.group(2), n) if n else None
    m = re.match(r"(?:期)?(大圆满|圆满|初期|前期|中期|后期|巅峰)", text)
    return ("期", PHASES[m.group(1)]) if m else None


CLOSES = re.compile(r"^(?:[^\u4e00-\u9fff]|$|了|呢|吧|啊|呀|么|嘛|哦|啦|罢了|而已|哪|的|之身|身份|[医大]?(?:医师|医生|大夫)|弟子|修士|"
                    r"大员|官|人|者|选手|队员|球员|小主|娘娘|大人|老爷|师傅|同志|也|都|还|却|就|又|而|但|可|呗)")
"""What may follow a rank that states someone's rank: the clause's end, a particle, a person's noun
(主治医师, 练气弟子, 七品芝麻官); any other word makes the rank part of a thing's name (D级晶核, A级任务)."""


def _states(sentence: str, end: int) -> bool:
    """Whether the rank ending at ``end`` closes a statement of someone's rank (:data:`NOT_STATED_AFTER`, :data:`CLOSES`)."""
    rest = sentence[end:end + 4]
    return not NOT_STATED_AFTER.match(rest) and CLOSES.match(rest) is not None


def _own_clause(prefix: str) -> bool:
    """Whether what stands between a name and the words that state its rank keeps the name the subject: no
    clause break, quote or other person (韩总工头也没抬，“你是一级技师” is said of 你)."""
    if prefix in ("，", ","):
        return True  # 如今的陆骁，不过是个替补: the name a topic, its rank after the comma
    return len(prefix) <= 8 and not re.search(r"[，,。；;：:“”「」！？你我他她您它咱]", prefix)


def steps(reader: RankReader, names: re.Pattern[str], aliases: dict[str, str], sentences: list[tuple[int, int, str]],
          first_line: int, skip: set[str]) -> list[Finding]:
    """X比Y高一级 / 低一级: X's rank from Y's card, against X's card."""
    out = []
    for i, col, sentence in sentences:
        if "比" not in sentence:
            continue
        for m in STEP.finditer(sentence):
            # the subject is named in the clause right before 比 (a window: no rescan of a long sentence)
            window = sentence[max(0, m.start() - LOOK_BACK):m.start()]
            x = [n for n in names.finditer(re.split(r"[，,。；;：:“”]", window)[-1])]
            y = names.fullmatch(m.group("other").strip()) or names.search(m.group("other"))
            if not x or not y:
                continue
            a, b = aliases.get(x[-1].group(), x[-1].group()), aliases.get(y.group(), y.group())
            if a in skip or a == b or NOT_NOW_MARKS.search(window) or GONE_TIME.search(window) \
                    or NEGATED.search(window[-6:]):
                continue
            n = value(m.group("n")) or 0
            for k, held_b in reader.holds.get(b, {}).items():
                held_a = reader.holds.get(a, {}).get(k)
                if not held_a:
                    continue
                ladder = reader.ladders[k]
                said = ladder.index(held_b) + (n if m.group("way") == "高" else -n)
                if said < ladder.index(held_a) and 0 <= said < len(ladder.rungs):
                    out.append(Finding("连贯", ERROR, f"{a} 的境界是「{held_a}」（角色卡·境界），正文说{a}比{b}（{held_b}）"
                                       f"{m.group('way')}{m.group('n')}级，即「{ladder.rungs[said]}」，没有降级的缘由",
                                       first_line + i, col, sentence.strip()[:60]))
    return out
