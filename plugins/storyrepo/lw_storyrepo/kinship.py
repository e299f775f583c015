"""The kinship words prose calls a character by, read from the relations their card states.

A card's free text says ``顾长安之父`` or ``苏青禾的母亲`` (spec §4.2: 设定, 关系); the prose of
a chapter says 父亲, 我爹, 娘亲 — and a contract line naming 顾远山 is met by 「当年我爹……」.
Only the relation words below are read, each with the forms prose uses for it; a card that
states no relation gives none. The forms do not say whose father is meant: the contract check
takes them as one more way to name the character, as it takes 陈叔 for 陈伯远.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from lw_storyrepo.wordsre import Ends

FORMS: dict[str, tuple[str, ...]] = {
    "父": ("父亲", "爹", "爹爹", "阿爹", "老爹", "家父", "先父", "爸爸", "老爸", "阿爸", "爹地", "老豆", "阿耶"),
    "母": ("母亲", "娘", "娘亲", "阿娘", "家母", "先母", "妈妈", "老妈", "姆妈", "阿妈", "额娘", "老母"),
    "兄": ("哥哥", "兄长", "大哥", "哥", "阿哥", "家兄"),
    "姐": ("姐姐", "阿姐", "大姐", "姐", "家姐"),
    "弟": ("弟弟", "阿弟", "小弟", "细佬", "舍弟"),
    "妹": ("妹妹", "阿妹", "小妹"),
    "师": ("师父", "师傅", "恩师", "师尊", "导师", "老师"),
    "妻": ("妻子", "娘子", "夫人"),
    "夫": ("丈夫", "夫君", "相公"),
    "子": ("儿子", "孩儿"),
    "女": ("女儿", "闺女"),
    "祖": ("爷爷", "祖父"),
    "祖母": ("奶奶", "祖母"),
    "外祖": ("外公", "姥爷"),
    "外祖母": ("外婆", "姥姥"),
    "叔": ("叔叔",),
    "舅": ("舅舅",),
    "姑": ("姑姑",),
    "姨": ("阿姨", "姨妈"),
}
ONE_CHARACTER = frozenset(f[0] for forms in FORMS.values() for f in forms if len(f) == 1 or (len(f) == 2 and f[0] == f[1]))
"""The kin words of one character a child or a sibling calls someone by (娘, 爹, 姐; 妈 of 妈妈, 爸 of 爸爸): a card's
one-character name the point of view calls them by (叫她“娘”) is one of these, not a stray character of a name."""
WORDS = {
    "父亲": "父", "父": "父", "爹": "父", "母亲": "母", "母": "母", "娘": "母", "哥哥": "兄", "兄长": "兄", "姐姐": "姐",
    "弟弟": "弟", "妹妹": "妹", "师父": "师", "师傅": "师", "师尊": "师", "导师": "师", "老师": "师", "妻子": "妻", "妻": "妻", "丈夫": "夫", "夫君": "夫",
    "儿子": "子", "女儿": "女", "爷爷": "祖", "祖父": "祖", "奶奶": "祖母", "祖母": "祖母", "外公": "外祖", "姥爷": "外祖",
    "外婆": "外祖母", "姥姥": "外祖母", "叔叔": "叔", "舅舅": "舅", "姑姑": "姑", "姨妈": "姨",
}
ONE_CHARACTER_RELATIONS = {"妈": "母", "爸": "父", "哥": "兄", "姐": "姐"}
"""A relation a card writes with the one kin character a child or a younger sibling calls someone by (罗建川的妈,
许望山的爸, 孟长生的哥, 余长生的姐: eight development books, P6 at stop 58), read as :data:`WORDS`' relation of that
word — only where the character ends its phrase: no character of a word follows (的姐妹, 的哥们, 的妈祖 are other words).
Not 弟, 妹, 叔, 姑…: a card does not write X的弟 for a relation, and 的姑 opens 姑娘."""
_RELATION = re.compile(r"(?:之|的)(?:(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")(?![\u4e00-\u9fff]{0,1}[的之])|"
                       r"([" + "".join(ONE_CHARACTER_RELATIONS) + r"])(?![\u4e00-\u9fff]))")


def _related_as(m: re.Match[str]) -> str:
    """The relation (a key of :data:`FORMS`) a :data:`_RELATION` match states."""
    return WORDS[m.group(1)] if m.group(1) else ONE_CHARACTER_RELATIONS[m.group(2)]


def kin_forms(card_text: str) -> frozenset[str]:
    """The kinship forms a character goes by, from the relations its card's text states
    (``顾长安之父`` → 父亲, 爹, 我爹 …); empty when it states none. The card's front matter is
    skipped: only its free text is read."""
    return frozenset(f for _before, forms in relations(card_text) for f in forms)


def free_text(card_text: str) -> str:
    """A card's text after its front matter (the first ``---`` line after the opening one
    closes it; a ``---`` rule further down the card is text)."""
    return card_text.split("\n---", 1)[-1] if card_text.startswith("---") else card_text


def relations(card_text: str) -> list[tuple[str, frozenset[str]]]:
    """Each relation a card's free text states, as ``(the text before it, the forms)``: for
    ``江城的大学生，陈默的爷爷`` one pair whose text ends with 陈默 — whose grandfather it is
    (the caller matches the names it knows against the text's end)."""
    body = free_text(card_text)
    out = []
    for m in _RELATION.finditer(body):
        if m.start() < 2:
            continue
        forms: set[str] = set()
        for form in (*FORMS[_related_as(m)], *(m.group(2) or "")):  # 罗建川的妈: he says 我妈 too
            forms.add(form)
            if len(form) == 1:
                forms.update(p + form for p in ("我", "你", "他", "她"))
        out.append((body[max(0, m.start() - 8):m.start()], frozenset(f for f in forms if len(f) >= 2)))
    return out


REVERSE: dict[str, tuple[str, ...]] = {
    "师": ("徒弟", "徒儿", "弟子", "爱徒"),
    "夫": ("妻子", "媳妇", "老婆", "娘子", "夫人"),
    "妻": ("丈夫", "男人", "老公", "夫君", "相公"),
}
"""The words for the other side of a relation a card states: 马秀兰's card says 杜建国的师父, so in
prose 杜建国 goes by 徒弟 (我那徒弟). Only relations whose other side is one word, whatever the gender."""


def reverse_relations(card_text: str) -> list[tuple[str, frozenset[str]]]:
    """Like :func:`relations`, with the forms the *other* side goes by (``X的师父`` → X is 徒弟);
    relations without a one-word other side (父: 儿子 or 女儿?) give nothing."""
    body = free_text(card_text)
    return [(body[max(0, m.start() - 8):m.start()], frozenset(REVERSE[_related_as(m)]))
            for m in _RELATION.finditer(body) if m.start() >= 2 and _related_as(m) in REVERSE]


_SHE = re.compile(r"[女她姐妹娘母妻妃婆姑嫂婶姨]")
_HE = re.compile(r"[他男兄哥弟父爹夫爷叔伯]|之子|儿子")


class NamesIn:
    """The book's names of two characters or more, longest first (sorted once, not once a card), and which of them a
    text may hold (:meth:`of`): a book of thousands of cards tried each name in each card's text (cards × names, 3 s for
    2,000 cards; A15, stop 55)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.order = [n for n in sorted(names, key=len, reverse=True) if len(n) >= 2]
        self.rank = {n: i for i, n in enumerate(self.order)}
        self.lengths = sorted({len(n) for n in self.order})
        self.blanked = [n for n in self.order if "　" in n]  # what taking another name out (into 　) may make appear

    def of(self, text: str) -> list[str]:
        """The names, in :attr:`order`, that ``text`` holds or that taking names out of it may make it hold: every
        name, when reading the text's pieces of each name's length would cost more than trying each."""
        if len(self.lengths) * len(text) >= len(self.order):
            return self.order
        pieces = {text[i:i + k] for k in self.lengths for i in range(len(text) - k + 1)}
        return sorted({n for n in pieces if n in self.rank} | set(self.blanked), key=self.rank.__getitem__)


def gender_of(card_text: str, names: set[str] | NamesIn) -> str:
    """``"她"`` or ``"他"`` when a card's free text speaks of its character only in one gender's
    words (师姐, 女儿 / 师兄, 之子), else ``""``. Names (梅娘) and quoted forms of address (叫她“师姐”:
    whose gender is that?) are taken out first, longest first (``names``, or :class:`NamesIn` of them built once for
    every card)."""
    body = re.sub(r"“[^”]*”|「[^」]*」", "　", free_text(card_text))  # 叫她“师姐”: what one calls another, either's
    for name in (names if isinstance(names, NamesIn) else NamesIn(names)).of(body):
        if name in body:
            body = body.replace(name, "　")
    she, he = bool(_SHE.search(body)), bool(_HE.search(body))
    return "她" if she and not he else "他" if he and not she else ""


_SHE_END = frozenset("姐妹嫂娘婶姨姑婆妞")
_HE_END = frozenset("哥兄叔伯爷爹父舅")


def alias_gender(forms: Iterable[str]) -> str:
    """``"她"`` or ``"他"`` when the other names a card gives its character end in one gender's word of
    address (满妹儿, 唐姐 / 涛哥, 二娃师兄; a closing 儿 read past) and none in the other's, else ``""``."""
    ends = {str(f).rstrip("儿")[-1:] for f in forms if len(str(f).rstrip("儿")) >= 2}
    she, he = bool(ends & _SHE_END), bool(ends & _HE_END)
    return "她" if she and not he else "他" if he and not she else ""


_SHE_RELATION = frozenset({"母", "姐", "妹", "妻", "女", "祖母", "外祖母", "姑", "姨"})
_HE_RELATION = frozenset({"父", "兄", "弟", "夫", "子", "祖", "外祖", "叔", "舅"})


def named_ends(names: Iterable[str]) -> Ends:
    """The ``names`` of two characters or more, as :class:`Ends`: what :func:`relation_gender` asks a relation
    to follow, built once for a book's cards and passed to each."""
    return Ends(n for n in names if len(n) >= 2)


def relation_gender(card_text: str, names: set[str] | Ends) -> str:
    """``"她"`` or ``"他"`` from the relations a card's free text states of its character
    (赵铁军的姐姐, 孙秀兰的女儿 → 她), when they all say one gender; else ``""``. Only a relation
    to someone named counts (赵铁梅是他的姐姐 is another's). ``names`` may be :func:`named_ends` of them,
    built once for every card of a book; a set is read the same way."""
    body = free_text(card_text)
    named = names if isinstance(names, Ends) else named_ends(names)
    words = {_related_as(m) for m in _RELATION.finditer(body)
             if m.start() >= 2 and next(named.of(body, m.start()), None) is not None}
    she, he = bool(words & _SHE_RELATION), bool(words & _HE_RELATION)
    return "她" if she and not he else "他" if he and not she else ""


_CALL = re.compile(r"(?:叫|称呼|(?<![人名号简统自堪声对])称|唤)(?P<obj>[^“”，,：:]{0,8}?)(?P<forms>“[^”]{1,6}”(?:(?:或|、|和|，?有时也叫|也叫)?“[^”]{1,6}”)*)")
_ADVERBS = re.compile(r"从小|小时候|一直|背后|有时也|有时|平日|平时|常常|总是|总|常|也|都|还|就|便|改口")
_PRONOUN = re.compile(r"[他她]")
_GROUP = re.compile(r"(?:人|们|孩子|辈|街坊|大家|大伙|众|伙计|弟子|学徒|同事|下人)$")
"""How a card names a group that calls someone something (班里的孩子, 市场里的人): a caller in any draft."""
_KIN_WORDS = frozenset(WORDS) | {f for forms in FORMS.values() for f in forms if len(f) >= 2} | {"儿女", "父母", "孩子们"}
"""A relative's word: a side that says one the cards do not name (儿子叫她) is nobody the check can tell."""
_UNKNOWN = "?"


def _side(words: str, names_re: re.Pattern[str], aliases: dict[str, str], kin: dict[str, str]) -> list[str] | None:
    """Who one side of a 叫 clause is: the names in it, a relative's word of the card's character
    (``kin``), ``[""]`` for a group, ``[_UNKNOWN]`` for a relative no card names; ``None`` when the
    words say no one (a pronoun or nothing: the caller decides)."""
    every = list(names_re.finditer(words))
    found = [aliases[n.group()] for n in every if words[n.end():n.end() + 1] != "的"]
    if found:
        return found
    if every:  # 秦川的妹妹 (叫他“哥”): someone of theirs, the card's character as a rule — the caller decides
        return None
    word = next((w for w in sorted(kin, key=len, reverse=True) if w in words), None)
    if word is not None:
        return [kin[word]]
    rest = _ADVERBS.sub("", words).strip()
    if _PRONOUN.search(rest):
        return None
    if any(w in rest for w in _KIN_WORDS):
        return [_UNKNOWN]
    return [""] if _GROUP.search(rest) else None


def address_book(texts: dict[str, str], aliases: dict[str, str], kin: dict[str, dict[str, str]],
                 genders: dict[str, str] | None = None) -> dict[str, dict[str, str]]:
    """What one character calls another, as the cards' free text states it in quotes:
    ``{caller: {form: person}}`` (``""`` for a caller the card does not name: 班里的孩子叫她“沈大娘”).

    Read from a clause ``<who>叫<whom>“<form>”`` (also 称, 唤, 管<whom>叫; several forms joined by
    或/、), where each side is a name (the longest one the book knows), 他/她, a relative's word
    (母亲叫他, 叫父亲 — resolved through ``kin``: :func:`lw_storyrepo.checks.relatives`), a group
    or nothing:
    - 他 and 她 in one clause: the card's character is the one whose pronoun it is (``genders``),
      the caller when both are the same; the other is the person the sentence named last; a card
      that gives its character no gender reads nothing from 他叫她 / 她叫他 (either may be the caller);
    - no caller: the sentence's subject — a name that opens it with 是 or without a 的
      (孙老七看着他…，一直叫他), else the card's character; a pronoun caller is the card's
      character; no one called, or a pronoun: the card's character or the person the sentence
      named last, whichever is not the caller (韩德海是父亲的师兄，他叫“师伯”);
    - a form two readings give to different people is left out; a side that resolves to no one
      (儿子叫她 with no son on the cards) gives nothing."""
    names = sorted((n for n in aliases if len(n) >= 2), key=len, reverse=True)
    names_re = re.compile("|".join(map(re.escape, names))) if names else re.compile(r"(?!)")
    genders = genders or {}
    out: dict[str, dict[str, str]] = {}
    clash: set[tuple[str, str]] = set()
    for me, text in texts.items():
        mine, my_kin = genders.get(me, ""), kin.get(me, {})
        for sentence in re.split(r"[。；;！？\n（）()]", free_text(text)):
            first = re.split(r"[，,：:]", sentence, maxsplit=1)[0]
            lead = names_re.match(first)
            # 陈国栋的老熟人, 沈云笙带的小师弟: a description of the card's character; 刘小军是他带的徒弟: 刘小军
            subject = aliases[lead.group()] if lead and ("是" in first or not re.search("[的之]", first)) else me
            at, current = 0, subject
            before: _NamedBefore | None = None  # the sentence's names, read once it first calls someone
            for m in _CALL.finditer(sentence):
                clause_start = max(sentence.rfind(c, at, m.start()) for c in "，,：:") + 1
                at = m.end()
                subj_text, obj_text = sentence[clause_start:m.start()], m.group("obj")
                if "管" in subj_text:  # 管父亲叫“阿耶”: the one after 管 is called
                    subj_text, obj_text = subj_text.split("管", 1)[0], subj_text.split("管", 1)[1] + obj_text
                # 林婉是周岩的妻子，他叫“嫂子”: the one named as an owner (周岩的) is not the one called
                before = before or _NamedBefore(names_re, aliases, me, sentence)
                last_other = before.last_other(m.start())
                s_p, o_p = _PRONOUN.search(subj_text), _PRONOUN.search(obj_text)
                callers, called = _side(subj_text, names_re, aliases, my_kin), _side(obj_text, names_re, aliases, my_kin)
                topic = names_re.match(subj_text.strip())
                if topic and s_p and s_p.start() >= subj_text.find(topic.group()) + len(topic.group()) and not obj_text.strip():
                    callers, called = [me], [aliases[topic.group()]]  # 萧玉楼他叫“萧大哥”: the card's character calls him so
                elif callers is None and called is None and s_p and o_p:  # 他叫她 / 她叫他 / 他叫他
                    if not mine and s_p.group() != o_p.group():
                        callers, called = [], []  # 他叫她 on a card that says no gender: either may call, none is read
                    else:
                        me_calls = s_p.group() == mine or s_p.group() == o_p.group()
                        callers, called = ([me], [last_other]) if me_calls else ([last_other], [me])
                else:
                    if callers is None:
                        callers = [me] if s_p else [current]
                    if called is None:
                        called = [me] if me not in callers else [last_other]
                if len(callers) == 1:
                    current = callers[0]
                for caller in callers:
                    for person in called:
                        if _UNKNOWN in (caller, person) or person in (caller, "", None) or caller is None:
                            continue
                        for form in re.findall(r"“([^”]+)”", m.group("forms")):
                            if out.setdefault(caller, {}).setdefault(form, person) != person:
                                clash.add((caller, form))
    for caller, form in clash:
        out[caller].pop(form, None)
    return out


class _NamedBefore:
    """The last person other than the card's own (``me``) a card's sentence names before a place, as
    ``names_re.finditer(sentence[:at])`` would find them (a name running past ``at`` is read again within it),
    one not named as an owner (周岩的) first: the sentence is read once, not from its start again for each 叫“…” in
    it (a sentence of thousands of them: 76 s at a card of 60,000 characters; A17, stop 57)."""

    def __init__(self, names_re: re.Pattern[str], aliases: dict[str, str], me: str, sentence: str) -> None:
        self.names_re, self.aliases, self.me, self.sentence = names_re, aliases, me, sentence
        self.spans: list[tuple[int, int]] = []
        self.last: list[tuple[str | None, str | None]] = []  # by each name's end: (the last other, the last not an owner)
        seen: tuple[str | None, str | None] = (None, None)
        for n in names_re.finditer(sentence):
            seen = self._after(seen, n)
            self.spans.append(n.span())
            self.last.append(seen)

    def _after(self, seen: tuple[str | None, str | None], n: re.Match[str]) -> tuple[str | None, str | None]:
        who = self.aliases[n.group()]
        if who == self.me:
            return seen
        return who, who if self.sentence[n.end():n.end() + 1] != "的" else seen[1]

    def last_other(self, at: int) -> str | None:
        """The last one not named as an owner before ``at``, else the last one, else None."""
        k = bisect.bisect_right(self.spans, at, key=lambda span: span[1])  # the names ending by ``at``
        seen = self.last[k - 1] if k else (None, None)
        if k < len(self.spans) and self.spans[k][0] < at:  # one running past ``at``: cut there, a shorter one may stand
            for n in self.names_re.finditer(self.sentence, self.spans[k][0], at):
                seen = self._after(seen, n)
        return seen[1] or seen[0]
