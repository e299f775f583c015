"""New proper nouns in a draft (spec §4.5, §8 step 5): names the roster does not know yet.

A segmenter alone lists every word it has never seen ("雪下", "那支", "抱得"): in web-novel
prose most of those are ordinary words glued by a verb complement or a particle. A name earns
its place here only with evidence, counted, never guessed:

- **shape**: a surname followed by a given name that is no dictionary word (沈砚, 周不疑); a
  rare stem before a suffix that makes places, sects, items and techniques (寒江+渡, 玄冥+教,
  赤霄+剑, 龟息+功); a word jieba's dictionary tags as a proper noun, if it is rare;
- **repetition**: the same form more than once in the chapter (a longer form that always
  continues the shorter one wins: 顾长歌, not 顾长);
- **context**: an introduction (在下/名叫/法号/我叫…), a place verb (来到/便是/在…), a
  speech or action right after a person (道/问/点头…), a name quoted on its own (“苏晚晴。”),
  a technique learned or used (学会/使出…).

A candidate needs two of the three. Names the book knows (characters and their aliases, the
roster, things characters hold, this draft's own setting changes), their parts, role words
(师兄, 姑娘…) and the book's ignore list (``lw story entity ignore``) are never reported.
The kind comes from the suffix or the evidence (人物/地点/组织/物品/功法).

The labelled chapters in ``tests/corpus/专名`` measure it (precision and recall are printed
by ``bench/story.py`` and held to ≥ 0.9 precision by the tests).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.names import address_forms
from lw_storyrepo.sources import read_text

_COMMON_CHARS = frozenset("都和那于时向成平安常能相双空通边别居步终须养益公东后满广家从查盖权游曾应解连习计伏乐国关谷宗师"
                          "封仰班车甘武符景司索咸籍蒙乔阳闻党贡劳申扶堵尚温容易越冷饶简丰巢红竺隆利沃欧寇匡弘满耿衡")
COMPOUND_SURNAMES = ("欧阳", "上官", "司马", "慕容", "诸葛", "东方", "独孤", "令狐", "公孙", "皇甫", "长孙", "宇文", "尉迟", "端木",
                     "西门", "南宫", "百里", "拓跋", "夏侯", "轩辕", "呼延", "澹台", "司徒", "司空", "钟离", "闻人", "赫连", "太史")
SURNAMES = frozenset(
    "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章云苏潘葛范彭郎鲁韦昌马苗凤花方"
    "俞任袁柳鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬常乐于傅齐康伍余元顾孟黄穆萧尹姚邵湛汪祁毛狄米贝明"
    "臧戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季贾路江童颜郭梅盛林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房"
    "丁宣邓郁单杭洪包左石崔龚程邢裴陆荣翁荀甄储靳焦侯秋仲伊宫宁仇栾厉戎祖刘詹"
    "龙叶韶黎白蒲邰鄂赖卓蔺屠池胥苍莘翟谭姬冉宰雍桑桂牛寿燕冀浦"
    "庄晏柴瞿阎慕连茹宦艾鱼向古慎戈廖庾蔚聂晁勾敖融辛阚鞠蒯荆桓楚"
) - _COMMON_CHARS
# longest first: a two-character suffix wins over its last character
SUFFIXES: tuple[tuple[str, str], ...] = tuple(sorted((
    *((s, "功法") for s in ("剑法", "刀法", "掌法", "拳法", "枪法", "身法", "心法", "神功", "功", "诀", "经", "掌", "拳", "指")),
    *((s, "组织") for s in ("宗", "派", "教", "盟", "帮", "会", "阁", "宫", "山庄", "世家", "镖局", "商会", "书馆", "书局",
                           "学堂", "学校", "文社", "局")),
    *((s, "物品") for s in ("剑", "刀", "枪", "鞭", "扇", "笛", "琴", "鼎", "珠", "印", "令牌", "符", "镜", "甲", "铃", "钟", "丹",
                           "丸", "散", "膏", "汤", "酒", "露")),
    *((s, "地点") for s in ("山", "峰", "岭", "崖", "谷", "岛", "洲", "泽", "湖", "江", "河", "川", "渡", "溪", "泉", "潭",
                           "城", "镇", "村", "寨", "关", "州", "郡", "原", "林", "海", "塔", "寺", "观", "庙", "庵",
                           "殿", "楼", "轩", "居", "院", "庄", "堂", "亭", "台", "洞", "府", "门", "坡", "集", "坊", "街", "巷",
                           "湾", "滩", "堡", "驿", "桥", "屯", "墺", "酒店", "酒楼", "饭店", "客栈", "茶馆", "药房", "药铺",
                           "公寓", "老店")),
), key=lambda item: -len(item[0])))
SUFFIX_WORDS = frozenset(suffix for suffix, _kind in SUFFIXES)
FUNCTION = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀哦嗯和与而但却将已很太更最给让从对往每各某此其该几有没无"
                     "上下里中外内前后来去起出进回开到住说道问笑看望站走坐拍叹听你我他她它您咱")
LEAD_BAD = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀和与而但却将已很更最给让从对往你我他她它您咱每各某此其该几"
                     "前后上下里中外内姓比多伊")
STEM_END_BAD = frozenset("向到着过起出进回开上下来去住得见了在")  # a verb and its complement: 望向, 握住
MIDDLE_BAD = frozenset("的了着过地得是在把被这那么吗呢吧啊呀你我他她它没伊人们")
NAME_END = FUNCTION | frozenset("摇点冷低轻忽便正朝跟向面脸眉心手头身一人们")
DETERMINERS = frozenset("这那哪每各某此其该一两二三几半全整满")
MATERIALS = frozenset("石木铁铜钢银玉竹布纸瓷陶锡")
"""A thing made of a material is a kind of thing (石桌, 青钢剑, 铁剑), never a name."""
SENSE_ENDS = frozenset("香气意光色味声影力火风雪血烟雾云")
"""An unknown word ending in a sense or an element (药香, 剑意, 灵气) names a thing felt, not
someone: only context (an introduction, speech after it) makes it a name."""
GENERIC_STEMS = frozenset(("宗门", "门派", "师门", "本门", "家族", "帮派", "朝廷", "皇室", "王府", "官府", "衙门", "书院", "学院"))
"""Words for a kind of institution: 宗门令牌 is a sect's token, not a named one."""
MEASURES = frozenset("个座条把口只张间位名件块片支枝根颗粒扇道层声句阵场群队匹头")
ROLES = ("姑娘", "公子", "师兄", "师姐", "师弟", "师妹", "师父", "师傅", "大侠", "少侠", "前辈", "老人", "老者", "小姐",
         "夫人", "掌柜", "大哥", "兄弟", "老爷", "少爷", "长老", "掌门", "弟子", "先生", "大人", "将军", "和尚", "道长",
         "少年", "少女")
STOP = frozenset(ROLES)
_INTRO = r"在下|我叫|我是|名叫|叫做|唤作|名唤|法号|道号|号称|人称|自称|叫我一声|叫他一声|叫"
INTRO = re.compile(rf"(?:{_INTRO})([\u4e00-\u9fff]{{2,4}}?)(?=[，。！？、：；“”「」\s]|$)")
BEFORE_PERSON = re.compile(rf"(?:{_INTRO}|便是|就是|正是|乃是|谋士|弟子|徒弟|{'|'.join(ROLES)})$")
BEFORE_THING = re.compile(r"(?:便是|就是|正是|乃是|名叫|叫做|唤作|号称|(?:来到|前往|抵达|赶到|走进|回到|离开|进入|投奔|拜入)了?|"
                          r"到了|进了|出了|过了|位于|住在|来自|"
                          r"出自|听说过|说起|提起|见过|去过|到过|打听|学会|修炼|练成|使出|施展|打出|可是|找|寻|夺|抢|交出|拔出|"
                          r"[是在到往去向进入离回从：:])$")
AFTER_PERSON = re.compile(r"^(?:[道说问答][：:，“]|笑道|笑了|叹道|叹了|点头|点了点头|摇头|摇了摇头|一愣|一怔|脸色|皱眉|沉声|低声|冷笑|"
                          r"轻声|咧嘴|拱手|抱拳|自报|没有回答|上前|站起|转身|回头|举杯)")
AFTER_THING = re.compile(r"^(?:是|位于|坐落|地处|建在|在哪|里[^面头边]|的人|的弟子|主[^意要])")
ALONE = re.compile(r"^[。！？]?[”」]")
CJK = re.compile(r"[\u4e00-\u9fff]+")
RARE = 300
RARE_STEM = 200
COMMON_PLACE = 50
"""A dictionary word with a place suffix used this often is a kind of place (独木桥), not one."""


@dataclass
class Noun:
    name: str
    kind: str
    line: int  # 1-based, in the body
    count: int


class _Lexicon:
    """jieba's dictionary: frequency and tag of a word, and token boundaries (loaded once)."""

    def __init__(self) -> None:
        # the one deferred import inside the plugin: jieba's tables and dictionary take about a
        # second to load, and only the new-name check needs them
        import logging

        import jieba
        import jieba.posseg

        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        self.jieba = jieba
        self.freq: dict[str, int] = jieba.dt.FREQ
        self.tags: dict[str, str] = jieba.posseg.dt.word_tag_tab

    def boundaries(self, line: str, known: re.Pattern[str] | None = None) -> set[int]:
        """Character offsets where a token of ``line`` starts (and its end). Names the book knows
        (``known``) are tokens of their own, without teaching them to jieba's shared dictionary."""
        out = {0}
        pieces = [(0, line)]
        if known is not None:
            pieces, pos = [], 0
            for m in known.finditer(line):
                pieces.append((pos, line[pos:m.start()]))
                out.update((m.start(), m.end()))
                pos = m.end()
            pieces.append((pos, line[pos:]))
        for start, piece in pieces:
            pos = start
            for token in self.jieba.lcut(piece, HMM=True) if piece else ():
                pos += len(token)
                out.add(pos)
        return out

    def common(self, word: str) -> bool:
        """A dictionary word that is not a proper noun (or is a very frequent one)."""
        f = self.freq.get(word) or 0
        if f <= 0:
            return False
        tag = self.tags.get(word, "")
        return not tag.startswith(("nr", "ns", "nt", "nz")) or f >= RARE

    def proper(self, word: str) -> bool:
        f = self.freq.get(word) or 0
        return 0 < f < RARE and self.tags.get(word, "").startswith(("nr", "ns", "nt", "nz"))

    def coined(self, stem: str) -> bool:
        """A stem no dictionary knows (玄冥, 赤霄): with a suffix, a name on its own."""
        return not self.freq.get(stem)

    def rare(self, stem: str) -> bool:
        """A stem seldom used on its own (a coined name: 寒江, 龟息; not 客栈, 百花)."""
        return (self.freq.get(stem) or 0) < RARE_STEM


_LEXICON: _Lexicon | None = None


def lexicon() -> _Lexicon:
    """The dictionary, loaded on first use (about a second, once per process)."""
    global _LEXICON
    if _LEXICON is None:
        _LEXICON = _Lexicon()
    return _LEXICON


@dataclass
class _Candidate:
    name: str
    kind: str
    shape: int  # 0 none, 1 a name's shape, 2 a coined name with its suffix
    context: bool = False
    needs_context: bool = False  # an unknown word (药香, 寒潭 are things): only context makes it a name
    first: tuple[int, int] = (0, 0)  # (line index, column)


def _clean(word: str) -> bool:
    """A plausible name: Chinese characters only, no particle inside, no determiner first,
    no role word (师兄, 姑娘 …) in it."""
    return (len(word) >= 2 and bool(CJK.fullmatch(word)) and not (MIDDLE_BAD & set(word[1:-1]))
            and word[-1] not in FUNCTION and word[0] not in DETERMINERS and not any(role in word for role in ROLES))


def _suffix_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, str, int, int]]:
    """``(name, kind, shape, start)`` for a two-character stem before a name-making suffix."""
    for suffix, kind in SUFFIXES:
        start = line.find(suffix)
        while start >= 0:
            stem_at = start - 2
            end = start + len(suffix)
            # whole tokens only: the stem and the suffix, or one token holding both (栖霞山)
            aligned = stem_at in bounds and end in bounds and (
                start in bounds or not any(b in bounds for b in range(stem_at + 1, end)))
            if stem_at >= 0 and aligned:
                stem, name = line[stem_at:start], line[stem_at:end]
                if (_clean(stem) and stem[0] not in LEAD_BAD and stem[1] not in MEASURES and stem[1] not in STEM_END_BAD
                        and stem[-1] not in MATERIALS and stem not in GENERIC_STEMS
                        and not lex.common(name) and (lex.freq.get(name) or 0) < COMMON_PLACE):
                    shape = 2 if lex.coined(stem) else 1 if lex.rare(stem) or lex.proper(name) else 0
                    yield name, kind, shape, stem_at
            start = line.find(suffix, start + 1)


def _spans(line: str, names: re.Pattern[str] | None) -> set[int]:
    """Offsets of ``line`` covered by an occurrence of one of ``names``."""
    covered: set[int] = set()
    if names is not None:
        for m in names.finditer(line):
            covered.update(range(m.start(), m.end()))
    return covered


def _alternation(words: Iterable[str], text: str) -> re.Pattern[str] | None:
    """A pattern matching any of ``words`` that occur in ``text`` (longest first), or None."""
    present = sorted((w for w in words if len(w) >= 2 and w in text), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, present))) if present else None


def _person_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]],
                       taken: set[str]) -> dict[str, tuple[bool, tuple[int, int]]]:
    """Surname-led names: the 3-character form when it always continues the 2-character one.
    A surname inside a name already found (``taken``: 慧明 in 慧明没有) starts nothing."""
    forms: dict[str, list[tuple[int, int, str]]] = {}
    taken_re = _alternation(taken, "\n".join(lines))
    for i, line in enumerate(lines):
        if i not in bounds_of:
            continue
        covered = _spans(line, taken_re)
        bounds = bounds_of[i]
        for col, ch in enumerate(line):
            if col in covered or col not in bounds:
                continue  # inside a name already found, or inside a word (忽明忽暗)
            unit = 2 if line[col:col + 2] in COMPOUND_SURNAMES else 1 if ch in SURNAMES else 0
            if not unit:
                continue
            for size in (unit + 1, unit + 2):
                word = line[col:col + size]
                if len(word) == size and CJK.fullmatch(word):
                    forms.setdefault(word, []).append((i, col, line[col + size:col + size + 1]))
    out: dict[str, tuple[bool, tuple[int, int]]] = {}
    for word, where in forms.items():
        unit = 2 if word[:2] in COMPOUND_SURNAMES else 1
        if not _clean(word) or word[-1] in NAME_END or (lex.common(word) and not lex.proper(word)):
            continue
        if word[0] in MATERIALS and lex.freq.get(word) == 0:
            continue  # the start of a dictionary word made of a material (石桌…): a thing, not 石 the surname
        if len(word) == unit + 2 and unit == 1 and lex.common(word[:2]):
            continue  # a word plus a character (江南一, 水底憋), not a name
        if len(word) == unit + 1:
            following = {nxt for _i, _c, nxt in where}
            longer = word + next(iter(following)) if len(following) == 1 else ""
            if longer in forms and longer[-1] not in NAME_END and CJK.fullmatch(longer):
                continue  # always continued: the longer form is the name
        else:
            shorter = forms.get(word[:-1], [])
            if len({nxt for _i, _c, nxt in shorter}) > 1:
                continue  # the shorter form stands on its own: this is it plus a word
        out[word] = (not lex.common(word) or lex.proper(word) or unit == 2, (where[0][0], where[0][1]))
    return out


def _has_context(line: str, col: int, name: str, kind: str) -> bool:
    before, after = line[max(0, col - 4):col], line[col + len(name):col + len(name) + 5]
    if before.endswith(("“", "「")) and ALONE.match(after):
        return True  # the name said on its own: “苏晚晴。”
    if kind == "人物":
        called = before.endswith(("“", "「")) and after[:1] in ("，", "！", ",", "!")  # “学程！” “柳如烟，…”
        return bool(called or BEFORE_PERSON.search(before) or AFTER_PERSON.match(after))
    return bool(BEFORE_THING.search(before) or ALONE.match(after) or AFTER_THING.match(after))


TITLES = ("老太太", "老婆子", "嫂子", "老太", "太爷", "老爷", "大爷", "大叔", "大伯", "大娘", "大婶", "大帅", "公公", "婆婆",
          "嫂", "妈", "婶")
"""Kinship and rank words that make a name of a surname or of a name (杨二嫂, 鲁四老爷, 卫老婆子,
柳妈, 七斤嫂, 九斤老太): how much of the world of a story names its minor people."""
RANKS = "一二三四五六七八九十大小老"
TOWN = re.compile(r"([\u4e00-\u9fff])(镇|村|庄|屯|寨|集)(?![\u4e00-\u9fff]{0}[子上里外口头民])")
_TITLE = re.compile(rf"({'|'.join(TITLES)})")
AH_BAD = frozenset("姨爸妈哥姐嫂婆公伯叔爹娘奶爷呀阿哈哟啊弥拉门谀附飘斗胶片拉罗尔米蒙")
NUMERALS = frozenset("一二三四五六七八九十百千万两几")


def _title_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, int, int]]:
    """``(name, start, shape)`` of a surname or a coined stem with a kinship or rank word: 杨二嫂,
    鲁四老爷, 卫老婆子, 柳妈, 张大帅, 七斤嫂 — never a rank alone (四婶, 七爷) or a pronoun (他妈)."""
    for m in _TITLE.finditer(line):
        at, end = m.start(), m.end()
        if end < len(line) and line[end] in "子" and m.group() in ("嫂", "婶"):
            end += 1
        if m.group() == "妈" and line[end:end + 1] == "妈":
            continue
        for size in (3, 2, 1):
            start = at - size
            if start < 0 or start not in bounds:
                continue
            stem = line[start:at]
            if not CJK.fullmatch(stem) or stem[0] in LEAD_BAD or stem[0] in DETERMINERS:
                continue
            surname = stem[:2] if stem[:2] in COMPOUND_SURNAMES else stem[:1]
            rest = stem[len(surname):]
            if (surname in SURNAMES or surname in COMPOUND_SURNAMES) and (not rest or (len(rest) == 1 and rest in RANKS)):
                yield line[start:end], start, 2  # a surname with its title names someone on its own
                break
            numeral_name = lex.tags.get(stem, "").startswith("m")  # 七斤嫂, 八一嫂: a child weighed at birth
            if size == 2 and (numeral_name or not lex.common(stem)) and not (set(stem) & FUNCTION):
                yield line[start:end], start, 1
                break


def _token_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, str, int]]:
    """``(name, kind, start)`` of a word the dictionary does not know that reads as a name: a
    whole token of 2–3 characters (闰土, 学程, 四铭), a child's name in 儿 (宏儿, 秀儿), 阿 with one
    character (阿毛, 阿Q). Repetition or context must still vouch for it."""
    edges = sorted(bounds)
    for a, b in zip(edges, edges[1:]):
        word = line[a:b]
        if not 2 <= len(word) <= 3 or not CJK.fullmatch(word):
            continue
        if lex.freq.get(word) or word[0] in LEAD_BAD or word[0] in DETERMINERS or word[-1] in NAME_END \
                or word[0] in MATERIALS or word[:2] in GENERIC_STEMS \
                or set(word) & MIDDLE_BAD or set(word) <= NUMERALS or any(role in word for role in ROLES):
            continue
        if lex.common(word[:2]) and len(word) == 3:
            continue  # a word and a character glued (江南一)
        if len(word) == 2 and word[-1] in SUFFIX_WORDS:
            continue  # one character and a place or thing word (寒潭, 古井): the suffix rule's, which wants a real stem
        yield word, "人物", a
    for m in re.finditer(r"[老小]([\u4e00-\u9fff])", line):
        if m.group(1) in SURNAMES and m.start() in bounds and m.end() in bounds and not lex.common(m.group()):
            yield m.group(), "人物", m.start()  # 老杜, 小陈: what people call someone by the surname
    for m in re.finditer(r"阿([\u4e00-\u9fffA-Z])", line):
        if m.group(1) not in AH_BAD and m.group(1) not in FUNCTION and not lex.common(m.group()):
            yield m.group(), "人物", m.start()


def with_address_forms(names: Iterable[str]) -> set[str]:
    """``names`` and the forms the people among them go by (陈叔, 老陈 of 陈伯远; a place or a
    thing — a name ending in a suffix word — has none)."""
    out = {k for k in names if k}
    people = [k for k in out if 2 <= len(k) <= 4 and k[-1:] not in SUFFIX_WORDS and k[-2:] not in SUFFIX_WORDS]
    out.update(form for k in people for form in address_forms(k))
    return out


def find_new_nouns(body: str, known: Iterable[str], ignore: Iterable[str] = (), *, expanded: bool = False) -> list[Noun]:
    """New proper nouns of ``body`` (one entry per name, first line), with their kind.
    ``expanded``: ``known`` already holds the address forms (:func:`with_address_forms`)."""
    lex = lexicon()
    known_set = set(known) if expanded else with_address_forms(known)  # 陈叔 of 陈伯远 is no new name
    skip = known_set | set(ignore) | STOP
    lines = body.split("\n")
    candidates: dict[str, _Candidate] = {}
    chars = set(body)
    in_text = {k for k in known_set if len(k) >= 2 and k[0] in chars and k[1] in chars and k in body}
    long_known = sorted(in_text)  # a known name can only contain or hold a candidate where it is in the text
    known_re = _alternation(in_text, body)
    bounds_of = {i: lex.boundaries(line, known_re) for i, line in enumerate(lines) if CJK.search(line)}
    for i, bounds in bounds_of.items():
        line = lines[i]
        for name, kind, shape, col in _suffix_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, kind, shape, first=(i, col)))
        for name, col, shape in _title_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, "人物", shape, first=(i, col)))
        for m in TOWN.finditer(line):  # 鲁镇, 赵庄: a surname's village
            if m.group(1) in SURNAMES and m.start() in bounds and not lex.common(m.group()) and m.group() not in candidates:
                candidates[m.group()] = _Candidate(m.group(), "地点", 1, first=(i, m.start()))
        for name, kind, col in _token_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, kind, 1, first=(i, col), needs_context=name[-1] in SENSE_ENDS))
        for m in INTRO.finditer(line):
            word = m.group(1)
            if _clean(word) and word[0] not in LEAD_BAD and word[-1] not in NAME_END:
                kind = next((k for suffix, k in SUFFIXES if word.endswith(suffix) and len(word) > len(suffix)), "人物")
                c = candidates.setdefault(word, _Candidate(word, kind, 1, first=(i, m.start(1))))
                c.context = True
    for word, (shape, first) in _person_candidates(lex, lines, bounds_of, in_text | set(candidates)).items():
        if word in candidates and candidates[word].needs_context:
            del candidates[word]  # a surname-led name wins over the same unknown word (柳如烟)
        candidates.setdefault(word, _Candidate(word, "人物", int(shape), first=first))
    text = "\n".join(lines)
    counts = Counter({name: text.count(name) for name in candidates})
    out = []
    for name, c in candidates.items():
        if name in skip or any(k in name or (name in k and len(k) > len(name)) for k in long_known):
            continue
        if any(name != other and name in other and counts[other] == counts[name] for other in candidates):
            continue  # only ever seen inside a longer candidate
        if not c.context:
            for i, line in enumerate(lines):
                col = line.find(name)
                while col >= 0 and not c.context:
                    c.context = _has_context(line, col, name, c.kind)
                    col = line.find(name, col + 1)
                if c.context:
                    break
        if c.shape + int(counts[name] >= 2) + int(c.context) >= 2 and (c.context or not c.needs_context):
            out.append(Noun(name, c.kind, c.first[0] + 1, counts[name]))
    # the stem of a thing or a place found whole is that thing's short form (赤霄 of 赤霄剑)
    whole = {n.name for n in out}
    out = [n for n in out if not any(w != n.name and w.startswith(n.name) and w[len(n.name):] in SUFFIX_WORDS
                                     for w in whole)]
    return sorted(out, key=lambda n: (n.line, lines[n.line - 1].find(n.name)))


def known_names(ctx: Any, draft: Any) -> set[str]:
    """Everything the book (and the draft's own moves) already names, with the address forms
    of its people (the book's part computed once per context)."""
    known = set(ctx.known_forms())
    own: set[str] = set()
    for change in draft.meta.get("设定变更") or []:
        m = re.match(r"^\s*(.+?)\s*[.。]\s*[^=+\-\s]+?\s*[=+]\s*(.+?)\s*$", str(change))
        if m:
            own.update({m.group(1), m.group(2)})
    for key in ("在场", "视角"):
        value = draft.meta.get(key)
        own.update(str(v) for v in (value if isinstance(value, list) else [value]) if v)
    return known | with_address_forms(own - known)


@dataclass
class Score:
    """Precision and recall of :func:`find_new_nouns` on labelled chapters."""

    chapters: int
    true_positives: int
    false_positives: list[str]
    missed: list[str]
    kinds_right: int

    @property
    def precision(self) -> float:
        found = self.true_positives + len(self.false_positives)
        return self.true_positives / found if found else 1.0

    @property
    def recall(self) -> float:
        gold = self.true_positives + len(self.missed)
        return self.true_positives / gold if gold else 1.0


def score(folder: Any) -> Score:
    """Score the detector on a folder of labelled chapters: each ``NN.md`` has front matter
    ``已知`` (the names the book knows then), ``新专名`` (``名字（类型）``, the right answers) and
    optionally ``不计`` (names neither right nor wrong: a report of one counts for nothing).
    A folder's README.md (its source and labelling rules) is no chapter."""
    result = Score(0, 0, [], [], 0)
    for path in sorted(Path(folder).glob("*.md")):
        if path.name == "README.md":
            continue
        meta, body = quick_meta(read_text(path), path.name)
        neutral = {str(k) for k in meta.get("不计") or []}
        gold = {}
        for item in meta.get("新专名") or []:
            m = re.fullmatch(r"(.+?)（(.+)）", str(item))
            if m:
                gold[m.group(1)] = m.group(2)
        found = {n.name: n.kind for n in find_new_nouns(body, [str(k) for k in meta.get("已知") or []])}
        result.chapters += 1
        hits = set(found) & set(gold)
        result.true_positives += len(hits)
        result.kinds_right += sum(found[n] == gold[n] for n in hits)
        result.false_positives += [f"{path.stem}:{n}" for n in sorted(set(found) - set(gold) - neutral)]
        result.missed += [f"{path.stem}:{n}" for n in sorted(set(gold) - set(found))]
    return result
