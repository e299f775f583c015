"""The forms one name goes by in prose, and how a name is found when the prose bends it.

A contract line says 云娘; the draft says 你娘, 娘亲. A card says 陈伯远; the prose says 陈叔, 老陈.
A stutter breaks a name apart (寒……潭……); a thing is named by what it looks like (一块刻着
“玄”字的令牌 for 玄阶令牌). One table serves every check that asks "is this entity in the text":
the contract check (:mod:`lw_storyrepo.checks`) and the new-name check (an address form of a
known name is no new name, :mod:`lw_storyrepo.propernouns`).

- :func:`address_forms`: kinship forms of a name that ends in a kinship word (云娘 → 娘亲, 你娘,
  阿娘), surname forms (陈伯远 → 陈叔, 老陈, 陈兄, 陈师兄 …) and given-name forms (林晚 → 晚晚,
  阿晚, 小晚, 晚姐);
- :func:`present`: a name in the text, punctuation or spaces allowed between its characters;
- :func:`described`: a thing named by its kind and a character of its name, in one sentence.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

KINSHIP = "娘爹爸妈叔伯婶姑姨舅哥姐嫂爷奶公婆弟妹"
"""A name ending in one of these is (also) a kinship term: 云娘, 陈叔, 二哥."""
COMPOUND_SURNAMES = ("欧阳", "上官", "司马", "慕容", "诸葛", "东方", "独孤", "令狐", "公孙", "皇甫", "长孙", "宇文", "尉迟",
                     "端木", "西门", "南宫", "百里", "拓跋", "夏侯", "轩辕", "呼延", "澹台", "司徒", "司空", "钟离", "闻人",
                     "赫连", "太史")
SURNAME_CHARS = frozenset(
    "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章云苏潘葛范彭郎鲁韦昌马苗凤花方"
    "俞任袁柳鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬常乐于傅齐康伍余元顾孟黄穆萧尹姚邵湛汪祁毛狄米贝明"
    "臧戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季贾路江童颜郭梅盛林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房"
    "丁宣邓郁单杭洪包左石崔龚程邢裴陆荣翁荀甄储靳焦侯秋仲伊宫宁仇栾厉戎祖刘詹"
    "龙叶韶黎白蒲邰鄂赖卓蔺屠池胥苍莘翟谭姬冉宰雍桑桂牛寿燕冀浦庄晏柴瞿阎慕连茹宦艾鱼向古慎戈廖庾蔚聂晁勾敖融辛阚鞠蒯荆桓楚")
SURNAME_ADDRESS = ("叔", "伯", "婶", "姨", "姑", "嫂", "哥", "姐", "兄", "老", "公", "婆", "爷", "大哥", "大姐", "大叔",
                   "大娘", "大婶", "大爷", "先生", "师兄", "师姐", "师弟", "师妹", "师父", "师傅", "姑娘", "公子", "小姐",
                   "夫人", "掌柜", "大人", "前辈", "长老", "老爷", "太太", "二哥", "三哥", "老板", "队", "总", "局",
                   "董", "老师", "警官", "律师", "医生", "教授")
KIN_PREFIXES = ("你", "我", "他", "她", "咱", "阿", "俺")
SEPARATOR = r"[\s…—·.．,，、!！?？~～\-]"
"""A character that may stand between a name's characters in prose (寒……潭……)."""
SEPARATORS = SEPARATOR + "*"
_SEPARATOR = re.compile(SEPARATOR)
_SEPARATOR_RUN = re.compile(SEPARATOR + "+")
BREAKS = r"[\s…—·.．,，、。；;：:!！?？~～\-]*"
"""What may stand where a quoted term has a space of its own: :data:`SEPARATORS` and the ends of clauses."""


def surname_of(name: str) -> str:
    """The surname a name starts with ('' when it starts with none)."""
    if name[:2] in COMPOUND_SURNAMES and len(name) > 2:
        return name[:2]
    return name[:1] if name[:1] in SURNAME_CHARS and len(name) > 1 else ""


@lru_cache(maxsize=4096)
def address_forms(name: str) -> frozenset[str]:
    """Every other form ``name`` goes by in prose (never ``name`` itself, never one character)."""
    forms: set[str] = set()
    if len(name) < 2:
        return frozenset()
    kin = name[-1]
    if kin in KINSHIP:
        forms.update({kin + "亲", *(p + kin for p in KIN_PREFIXES)})
    surname = surname_of(name)
    given = name[len(surname):] if surname else ""
    if surname and given and given[-1] not in KINSHIP:
        forms.update(surname + a for a in SURNAME_ADDRESS)
        forms.update({"老" + surname, "小" + surname})
        last = given[-1]
        forms.update({"阿" + last, "小" + last, last * 2, last + "儿", last + "哥", last + "姐"})  # 砚哥 of 沈砚
        if len(given) >= 2:
            forms.add(given)
    forms.discard(name)
    return frozenset(f for f in forms if len(f) >= 2)


_OWN_BREAK = re.compile(r"[\s…—·.．,，、。；;：:!！?？~～\-]+")
"""A term's own spaces and punctuation (a quoted line: “船要开了，莫回头”, “那晚我要是……”): where it breaks, not
words it asks for."""


@lru_cache(maxsize=4096)
def _spaced(term: str) -> re.Pattern[str]:
    """``term``'s characters with any separators between; its own spaces and punctuation (四海到此 十一·十九, 廿吨 夜一点;
    a quoted line's 船要开了，莫回头 or 那晚我要是……) are any break the prose writes there, a full stop or none too
    (四海到此　十一·十九, 廿吨。夜一点。, 船要开了……莫回头, 那晚我要是——): a quote's words, not its stops."""
    parts = [part for part in _OWN_BREAK.split(term) if part] or [term]
    return re.compile(BREAKS.join(SEPARATORS.join(map(re.escape, part)) for part in parts))


class _Squeezed(threading.local):
    """The text :func:`present` last read, and it with every :data:`SEPARATOR` taken out, per thread (a host may
    check two books at once): a contract's terms asked one after another of the same draft squeeze it once."""

    text: str | None = None
    squeezed: str = ""

    def of(self, text: str) -> str:
        if self.text is not text:
            self.squeezed, self.text = _SEPARATOR_RUN.sub("", text), text
        return self.squeezed


_SQUEEZED = _Squeezed()
PAIRS_AFTER = 16
"""How many terms :func:`present` asks of one text by substring search before it reads the text's pairs of
characters (:class:`_Pairs`) once and searches only for a term whose every pair is there."""


class _Pairs(threading.local):
    """The text :func:`present` last read, how often it was asked of, and once asked more than :data:`PAIRS_AFTER`
    times its characters, its pairs of characters and its squeezed text's (:class:`_Squeezed`), per thread: a contract
    line of thousands of places asked of a draft at the cap searched the whole draft for each (A12, stop 53)."""

    text: str | None = None
    asked: int = 0
    chars: frozenset[str] | None = None
    pairs: frozenset[str] = frozenset()
    squeezed: frozenset[str] = frozenset()

    def of(self, text: str) -> _Pairs | None:
        """This, read of ``text``, or None while ``text`` was asked of at most :data:`PAIRS_AFTER` times."""
        if self.text is not text:
            self.text, self.asked, self.chars = text, 0, None
        self.asked += 1
        if self.chars is None and self.asked > PAIRS_AFTER:
            squeezed = _SQUEEZED.of(text)
            self.pairs = frozenset(text[i:i + 2] for i in range(len(text) - 1))
            self.squeezed = frozenset(squeezed[i:i + 2] for i in range(len(squeezed) - 1))
            self.chars = frozenset(text)
        return self if self.chars is not None else None

    @staticmethod
    def within(term: str, pairs: frozenset[str]) -> bool:
        """Whether every pair of characters of ``term`` is one of ``pairs`` (so ``term`` may stand in their text)."""
        return all(term[i:i + 2] in pairs for i in range(len(term) - 1))


_PAIRS = _Pairs()


def present(term: str, text: str) -> bool:
    """Whether ``term`` is in ``text``, also broken by punctuation or spaces (寒……潭……).

    A term with no separator or space of its own is broken in ``text`` exactly when it stands whole in ``text``
    with its separators taken out: one substring search of the squeezed text (kept for the last text asked), not a
    pattern compiled for each term (about 0.2 ms each: a contract of hundreds of names asked of one draft). A text
    asked of many times is searched only for a term whose pairs of characters it holds (:class:`_Pairs`)."""
    read = _PAIRS.of(text)
    if (read is None or _Pairs.within(term, read.pairs)) and term in text:
        return True
    if len(term) < 2 or (term[0] not in (text if read is None or read.chars is None else read.chars)
                         and term[0].isalnum()):
        return False
    if _OWN_BREAK.search(term) is None:
        return (read is None or _Pairs.within(term, read.squeezed)) and term in _SQUEEZED.of(text)
    return _spaced(term).search(text) is not None


_SENTENCE = re.compile(r"[^。！？!?\n]+")


def described(term: str, text: str, heads: tuple[str, ...]) -> bool:
    """A thing named by description: a sentence holds its kind (``heads``: the suffixes that make
    things, 令牌, 剑 …) and one character of its name quoted or called a character (“玄”字,
    「玄」, 玄字) — 一块刻着“玄”字的令牌 is 玄阶令牌."""
    head = next((h for h in sorted(heads, key=len, reverse=True) if term.endswith(h) and len(term) > len(h)), None)
    if head is None or head not in text:
        return False
    stem = term[: -len(head)]
    for m in _SENTENCE.finditer(text):
        sentence = m.group()
        if head not in sentence:
            continue
        if stem in sentence:
            return True
        if any(f"“{c}”" in sentence or f"「{c}」" in sentence or f"‘{c}’" in sentence or f"{c}字" in sentence for c in stem):
            return True
    return False
