"""Mechanical checks of a draft (spec §8 step 5). Script, not model: everything here is counted.

- contract: contract lines naming a promise (``P-031``) are honoured by the draft's moves;
- leak (泄密): a character speaks or thinks a keyword of an info gap they are not 知情人 of — one
  keyword is enough when it names nothing the book knows and its public text (世界观, cards,
  promises, timeline) never says it (买凶, 私生女: the secret itself); a name (大长老, a place, a
  held thing) or a word everyone says (灭门, when the massacre is public) counts only with another
  keyword — but a place, a thing or a person of the gap's own (listed by the roster alone, no card, no public text
  naming it) is its answer and counts alone; dialogue attributed by the common Chinese quote patterns, a letter read
  out its writer's;
- waste (废笔): a sentence restating a 读者已知 gap (≥3 of its keywords, fewer when it has fewer);
- banned words and banned sentence patterns of the style constitution;
- repetition: repeated sentences and over-used four-character phrases;
- new proper nouns not in the roster, with evidence (:mod:`lw_storyrepo.propernouns`);
- continuity against the cards and the timeline (:mod:`lw_storyrepo.continuity`);
- word count against 每章目标字数.

Every finding carries a 1-based line and column in the draft file.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, TypeVar, cast

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.ranks import ladders_of
from lw_storyrepo.changes import CHANGE, SECRET_ID, YES
from lw_storyrepo.continuity import REACTION, SPEAKING, DEAD, DEFAULT_STAGES, PLAN_WORDS, UNDONE_WORDS, World, arrivals_of, calls_going_on, dated_events, dated_subjects, dates_of_death, check_continuity, recent_paragraphs, far_places, signature, haunts_of, journeys, place_nesting, prose_places, stages_of, told_of
from lw_storyrepo.counting import word_count
from lw_storyrepo.drafts import DRAFT_FIELDS
from lw_storyrepo.findings import ERROR, FULL_WIDTH_STOP, FULL_WIDTH_STOPS, INFO, WARN, Finding, Subject, clipped, span_end, span_start
from lw_storyrepo.forbidden import forbidden_of
from lw_storyrepo.giving import GIVING_VERBS, HANDOVER_VERBS, SHOW_VERBS, TAKE_BACK_VERBS
from lw_storyrepo.memo import per_book
from lw_storyrepo.listeners import called_at_start
from lw_storyrepo.kinship import FORMS, ONE_CHARACTER, WORDS, NamesIn, address_book, alias_gender, free_text, gender_of, kin_forms, named_ends, relation_gender, relations, reverse_relations
from lw_storyrepo.numerals import chinese, value
from lw_storyrepo.names import address_forms, described, present, surname_of
from lw_storyrepo.propernouns import CANDIDATES_MAX, LOCALIZERS, SUFFIXES, find_new_nouns, known_names, lexicon, not_inside_longer, with_address_forms
from lw_storyrepo.repo import StoryRepo, as_list
from lw_storyrepo.stylepatterns import banned_pattern
from lw_storyrepo.wordsre import Spots, alternation, found_at, guarded, starts_of

SAY = r"(?:道|说|问|答|喝|喊|叫|笑|骂|吼|叹|嘀咕|低语|开口|回答|追问|反问|冷哼|沉声|怒道|喃喃)"
THINK = r"(?:心想|暗想|心道|暗道|想道|心中暗道|心里想|在心里想|心中想|暗忖|寻思)"
KNOW = (r"(?:心想|暗想|心道|暗道|想道|心中暗道|心里想|在心里想|心中想|暗忖|暗自寻思|寻思|思量|思忖|忖度|琢磨|揣测|猜想|估摸|盘算|"
        r"犯嘀咕|觉得|怀疑|心里清楚|心中清楚|心里明白|心中明白|"
        r"心知肚明|心知|终于明白|明白|知道|想起|想到|记得|认定|猜到|猜出|料定|断定|意识到|确信|认出|看出)")
QUOTE = re.compile(r"“([^”]*)”|「([^」]*)」|\"([^\"]*)\"")
SPOKEN = re.compile(r"[，。！？!?,…—、；：]|^.{5,}$")
SENTENCE = re.compile(r"[^。！？!?…\n]+[。！？!?…]*")


TITLES = ("警官", "队长", "局长", "医生", "大夫", "老师", "教授", "律师", "记者", "经理", "主任", "总", "董", "博士", "同学",
          "师傅", "将军", "捕头", "县令", "大侠", "女侠", "少侠", "道长", "真人", "施主")
"""Titles prose gives a person after their surname (苏警官 for 苏晴), beyond :mod:`lw_storyrepo.names`' forms."""


PLACE_CHARS_MAX = 32
"""The longest place (a card's 位置, a 名册 place, a place the world's prose sets apart) the world's and the cards' text
is read for — what lies in what, one place said of a list, far places, journeys, haunts. A place is a few characters (a
development set's longest 位置 is six); each reader cut the text into pieces of every length its places have, so a book
of hundreds of places of hundreds of lengths each was the product of the world's length and theirs (A18, stop 58).
A longer 位置 is still the card's place to every other check."""


class _NameIndex(NamedTuple):
    """A context's names looked up by their ends (:meth:`CheckContext.name_index`), built once: a contract of
    hundreds of places against a 名册 of thousands reads each term among the few names sharing its ends, not the
    whole book once a term."""

    size: tuple[int, int]  # how many aliases and places it was built from
    by_canonical: dict[str, list[str]]  # canonical name -> its names, in the aliases' order
    by_start: dict[str, list[str]]  # first two characters -> the names of two or more, longest first
    by_end: dict[str, list[str]]  # last two characters -> the names and places of two or more
    dwellers: frozenset[str]  # everyone whose card's 位置 is a place
    variants: dict[str, frozenset[str]]  # term -> CheckContext.variants(term)


@dataclass
class CheckContext:
    """Everything the checks need from the book, loaded once."""

    aliases: dict[str, str]
    secrets: list[tuple[str, set[str], bool, list[str]]]  # (id, knowers, reader_knows, keywords)
    banned_words: list[str]
    banned_patterns: list[tuple[str, re.Pattern[str] | None]]
    target_words: int
    known_names: set[str] = field(default_factory=set)
    items: set[str] = field(default_factory=set)  # things characters hold
    ignored: set[str] = field(default_factory=set)  # words the author said are no names
    world: World | None = None  # cards, places, items, realm stages, last in-book time (continuity)
    people: set[str] | None = None  # canonical names of people (cards, roster 人物, the draft's own); None: any name
    kin: dict[str, frozenset[str]] = field(default_factory=dict)  # person -> kinship forms from their card's relations
    kin_of_pov: dict[str, dict[str, str]] = field(default_factory=dict)  # 陈默 -> {爷爷: 陈守义}: what 陈默's relatives go by
    kin_words: frozenset[str] = frozenset()  # the relatives' words this draft's point of view adds to the names
    cast: frozenset[str] = frozenset()  # the draft's 在场 (canonical names); empty: the draft lists none
    public_words: frozenset[str] = frozenset()  # info-gap keywords the book's public text says (灭门 of a known massacre)
    dwellers: dict[str, frozenset[str]] = field(default_factory=dict)  # place -> the people whose card's 位置 it is
    denials: dict[str, list[tuple[str, frozenset[str]]]] = field(default_factory=dict)  # info gap -> its 不是…的 (:func:`denials_of`)
    dead: frozenset[str] = frozenset()  # characters whose card's 状态 says dead (a contract line speaks of them, never asks them in)
    roles: dict[str, frozenset[str]] = field(default_factory=dict)  # person -> the post only they hold (列车长): :func:`roles_of`
    looks: dict[str, frozenset[str]] = field(default_factory=dict)  # held thing -> the words its holder's card puts before it (摩托罗拉)
    called: dict[str, dict[str, str]] = field(default_factory=dict)  # caller -> {form: person}: the cards' 叫他“师伯” (kinship.address_book)
    keepers: dict[str, frozenset[str]] = field(default_factory=dict)  # place -> who keeps it (恒裕当的掌柜): keepers_of
    addressed: dict[str, frozenset[str]] = field(default_factory=dict)  # person -> what this draft's 视角 and anyone call them (for_draft)
    posts: dict[str, frozenset[str]] = field(default_factory=dict)  # person -> the posts their card's text gives them (执事): posts_of
    gap_grams: dict[str, frozenset[str]] = field(default_factory=dict)  # info gap -> its 内容's pairs (:func:`_content_grams`)
    book_text: str = ""  # the book's own text (lore, cards, promises, timeline): words it uses everywhere tell nothing
    _names_re: re.Pattern[str] | None = None
    _terms_re: re.Pattern[str] | None = None
    _scope: frozenset[str] | None = None  # the characters of the text read (:meth:`reading`); None: any text
    _known_forms: set[str] | None = None
    _book_pairs: frozenset[str] | None = None
    # what is read from the book alone, built once: the dict itself is carried over by ``replace`` (a draft's context)
    _by_book: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _index: _NameIndex | None = field(default=None, init=False, repr=False, compare=False)  # each copy builds its own

    def per_book(self, key: str, deps: tuple[object, ...], build: Callable[[], T]) -> T:
        """:func:`lw_storyrepo.memo.per_book` on this context's ``_by_book``: ``build()``'s value while ``deps``
        are unchanged."""
        return per_book(self._by_book, key, deps, build)

    def name_index(self) -> _NameIndex:
        """:class:`_NameIndex` of this context, built once, and again if names were added to it in place."""
        places = self.world.places if self.world is not None else set()
        size = (len(self.aliases), len(places))
        if self._index is None or self._index.size != size:
            by_canonical: dict[str, list[str]] = {}
            by_start: dict[str, list[str]] = {}
            by_end: dict[str, list[str]] = {}
            for name, canonical in self.aliases.items():
                by_canonical.setdefault(canonical, []).append(name)
            for name in sorted((n for n in self.aliases if len(n) >= 2), key=len, reverse=True):
                by_start.setdefault(name[:2], []).append(name)
            for name in dict.fromkeys([*self.aliases, *places]):
                if len(name) >= 2:
                    by_end.setdefault(name[-2:], []).append(name)
            self._index = _NameIndex(size, by_canonical, by_start, by_end,
                                     frozenset(p for people in self.dwellers.values() for p in people), {})
        return self._index

    def book_pairs(self) -> frozenset[str]:
        """Every pair of neighbouring Chinese characters of :attr:`book_text`, computed once: a pair is
        looked up, the book's text is not searched once a pair."""
        if self._book_pairs is None:
            self._book_pairs = frozenset(pairs(self.book_text))
        return self._book_pairs

    def keywords(self) -> tuple[re.Pattern[str], list[dict[str, list[int]]]] | None:
        """The pattern of every info gap's keywords and, for each gap of :attr:`secrets`, its
        keywords by place in its list (:func:`_places_in`), built once per book; None when no gap
        has a keyword."""
        def build() -> tuple[re.Pattern[str], list[dict[str, list[int]]]] | None:
            all_kws = {k for _sid, _kn, _r, kws in self.secrets for k in kws}
            # guarded: the keywords' first level told apart (thousands of gaps' keywords, each voice read; A16)
            return (re.compile(guarded(all_kws)), [_places_in(kws) for _sid, _kn, _r, kws in self.secrets]) \
                if all_kws else None
        return self.per_book("keywords", (self.secrets,), build)  # a context of other secrets reads its own

    def known_forms(self) -> set[str]:
        """:attr:`known_names` with the address forms of its people, computed once."""
        if self._known_forms is None:
            self._known_forms = with_address_forms(self.known_names)
        return self._known_forms

    @classmethod
    def load(cls, repo: StoryRepo) -> CheckContext:
        characters = repo.characters()
        aliases = repo.aliases(characters)
        secrets = []
        denials: dict[str, list[tuple[str, frozenset[str]]]] = {}
        gap_grams: dict[str, frozenset[str]] = {}
        for item in repo.secrets():
            denials[item.id] = denials_of(item.section("内容") or item.body)
            gap_grams[item.id] = frozenset(_content_grams(item.section("内容") or item.body))
            knowers = {aliases.get(str(k), str(k)) for k in as_list(item.meta.get("知情人"))}
            kws = [str(k) for k in as_list(item.meta.get("关键词")) if str(k).strip()]
            secrets.append((item.id, knowers, item.meta.get("读者已知") is True, kws))
        style = repo.style()
        patterns: list[tuple[str, re.Pattern[str] | None]] = []
        for p in style.banned_patterns:
            try:
                patterns.append((p, banned_pattern(p)))
            except LwError:
                patterns.append((p, None))
        known = set(aliases)
        items: set[str] = set()
        for meta in characters.values():
            items.update(str(v) for v in as_list(meta.get("持有")) if len(str(v)) >= 2)
            for key in ("持有", "位置", "境界"):
                known.update(str(v) for v in as_list(meta.get(key)))
        for _sid, _kn, _r, kws in secrets:
            known.update(kws)
        for q in style.quirks:
            known.update(re.findall(r"[\u4e00-\u9fff]{2,}", q.split("：")[0]))
        roster = repo.roster()
        places = {str(m.get("位置")) for m in characters.values() if m.get("位置")}
        places |= {row["正名"] for row in roster if row["类型"] == "地点"}
        things = items | {row["正名"] for row in roster if row["类型"] == "物品"}
        people = set(characters) | {row["正名"] for row in roster if row["类型"] == "人物"}
        last = repo.last_chapter()
        when = str(repo.chapter_meta(last).get("书内时间") or "") if last else ""
        lore = repo.text_or(L.世界观)
        stages = stages_of(lore)
        for rank_word, holder in top_rank_names(characters, stages).items():
            aliases.setdefault(rank_word, holder)
            known.add(rank_word)
        texts = card_texts(repo)
        names = set(aliases)
        named = named_ends(names)  # built once for every card's relations
        spotted = NamesIn(names)  # and for every card's pronouns
        places = {p for p in places | prose_places([lore, *texts.values()], names | people, places) if len(p) >= 2}
        looked_up = {p for p in places if len(p) <= PLACE_CHARS_MAX}  # the places the world's text is read for
        died, died_day = dates_of_death(characters, texts)
        inside, one_place = place_nesting("\n".join([lore, *texts.values()]), looked_up)
        world = World(characters, aliases, places, {t for t in things if len(t) >= 2},
                      stages, (last, when) if when else None, inside,
                      {name: gender_of(text, spotted) or alias_gender(as_list((characters.get(name) or {}).get("别名")))
                       for name, text in texts.items()},
                      far=far_places([lore, *texts.values()], looked_up),
                      journey=journeys([lore, *texts.values()], looked_up),
                      kin_gender={name: relation_gender(text, named) for name, text in texts.items()},
                      haunts=haunts_of(texts, looked_up), died=died,
                      died_day=died_day,
                      ladders=ladders_of(lore, [str(c.get("境界")) for c in characters.values() if c.get("境界")]) or None,
                      dated=dated_events([lore, *texts.values()]),
                      dated_by=dated_subjects(lore, texts),
                      arrived=arrivals_of(lore, texts, places, names, aliases),
                      told=told_of({name: free_text(text) for name, text in texts.items()}, characters),
                      texts={name: free_text(text) for name, text in texts.items()},
                      bars=forbidden_of(characters, {name: free_text(text) for name, text in texts.items()}, lore, aliases, places),
                      one_place=one_place)
        # a promise's title and 描述 name the question the reader holds (灭门真凶: the massacre is known); its 兑付计划 is
        # the author's plan of what the book will reveal (揭开安全销的事) and makes no secret's keyword common knowledge
        # (U11, stop 54: three planted leaks silenced so)
        told = "\n".join([lore, *texts.values(), *(str(row["事件"]) for row in repo.timeline()),
                          *(f"{p.title}\n{p.section('描述')}" for p in repo.promises())])
        public = "\n".join([lore, *texts.values(), *(f"{p.title}\n{p.body}" for p in repo.promises()),
                             *(str(row["事件"]) for row in repo.timeline())])
        return cls(aliases, secrets, style.banned_words, patterns, repo.book()["每章目标字数"], known, items,
                   set(repo.ignored_names()), world, people=people, kin=kin_of(repo, texts),
                   kin_of_pov=relatives(texts, aliases),
                   public_words=frozenset(k for _sid, _kn, _r, kws in secrets for k in kws if k in told),
                   dwellers=dwellers_of(characters), denials={k: v for k, v in denials.items() if v},
                   dead=dead_of(characters), roles=roles_of(characters), looks=looks_of(texts, characters),
                   called=called_of(texts, aliases), keepers=keepers_of(texts, places), posts=posts_of(texts),
                   gap_grams=gap_grams, book_text=public)

    @classmethod
    def for_contract(cls, aliases: dict[str, str]) -> CheckContext:
        """The names part of the context, from the cards' file names and the roster alone: what
        settle first reads the contract with, without reading every card. It knows fewer forms than
        :meth:`load`'s context, so a line it finds unmet may be met through a card's post or a form
        of address: settle refuses only what :meth:`load`'s context — the draft check's own — finds."""
        return cls(aliases, [], [], [], 0, set(aliases), set())

    def is_person(self, name: str) -> bool:
        """Whether a name found in the prose is a person's (not a place's or a thing's)."""
        return self.people is None or self.aliases.get(name, name) in self.people

    def names_re(self) -> re.Pattern[str] | None:
        """Every name of :attr:`aliases`, longest first; in a context :meth:`reading` a text, only
        the names whose characters all stand in it (a pattern that matches nothing when none do). A person's name is
        not found inside a longer word (:func:`name_pattern`: 老板 in 老板娘)."""
        if self._names_re is None and self.aliases:
            names = frozenset(n for n in self.aliases if self._scope is None or self._scope.issuperset(n))
            self._names_re = re.compile(name_pattern(names, frozenset(n for n in names if self.is_person(n)), self._scope))
        return self._names_re

    def reading(self, text: str) -> CheckContext:
        """This context for the checks of ``text`` alone (a draft's body): its :meth:`names_re`
        keeps the names made only of characters ``text`` has — or a held thing's name has (the
        continuity rules write one into a sentence: 那柄…的剑 → 青霜剑), or a blank —, since no
        other can match what the checks read (``text``'s pieces, blanked or joined). A book's
        hundreds of names tried at every surname character of a draft, in every pattern built on
        them, cost more than any rule; a draft holds the characters of a few dozen. The same
        findings; the pattern is built again for another text."""
        things = "".join(self.items) + "".join(self.world.items if self.world is not None else ())
        # what the book context computes once (its names' address forms) stays computed in it
        return replace(self, _scope=frozenset(text) | frozenset(things) | frozenset(" \u3000"), _names_re=None,
                       _known_forms=self.known_forms())

    def contract_terms_in(self, text: str) -> list[str]:
        """Names and held things the book knows, found in ``text`` (canonical names); a relative's
        word (妹妹, 娘亲) is no term: it finds the person in the prose, it does not ask for them."""
        return [self.aliases.get(m.group(), m.group()) for m in self.terms_re().finditer(text)]

    def terms_re(self) -> re.Pattern[str]:
        """The pattern of the names (two characters or more, no relative's word) and held things the book
        knows, longest first: what :meth:`contract_terms_in` finds; built once a context."""
        if self._terms_re is None:
            terms = sorted({t for t in self.aliases if len(t) >= 2 and t not in self.kin_words} | self.items,
                           key=len, reverse=True)
            self._terms_re = _terms_pattern(tuple(terms), frozenset(t for t in terms if self.is_person(t)))
        return self._terms_re

    def variants(self, term: str) -> set[str]:
        """``term``, every other name of the same entity (cards, roster, this draft's own
        aliases) and the forms they go by in prose (:func:`lw_storyrepo.names.address_forms`);
        computed once a term (a new set each call: callers add to it)."""
        index = self.name_index()
        known = index.variants.get(term)
        if known is None:
            known = index.variants[term] = frozenset(self._variants(term, index))
        return set(known)

    def _variants(self, term: str, index: _NameIndex) -> set[str]:
        canonical = self.aliases.get(term)
        names = {term} if canonical is None else set(index.by_canonical.get(canonical, ()))
        if not self.is_person(canonical or term):  # 罗湖口岸 is no 罗 whose given name is 湖口岸
            return names | {form for name in names for form in numeral_forms(name)}
        posts = self.posts.get(canonical or term, frozenset())
        titled = {name[:1] + t for name in names if surname_of(name) == name[:1] for t in (*TITLES, *posts)}
        roles = self.roles.get(canonical or term, frozenset())
        bare = {form for name in names for form in unsurnamed_forms(name, roles)}
        return (names | titled | bare | roles | {form for name in names for form in address_forms(name)}
                | set(self.kin.get(canonical or term, ())) | {form for name in names for form in numeral_forms(name)}
                | self.addressed.get(canonical or term, frozenset()))

    def addressed_by(self, pov: str) -> dict[str, frozenset[str]]:
        """``{person: forms}`` a draft told from ``pov`` may call people by, from the cards'
        quoted forms of address (:attr:`called`): all that ``pov`` calls them (娘, 师伯: the
        narration speaks as its point of view; and the one-character word of a relation the cards
        state, 娘 for the 视角's mother), what a group calls them, and any other caller's
        form of two characters or more that names no one else and holds a character of the
        person's names (笙子 for 沈云笙 — 丫头, 弟妹 are anyone's in another's chapter)."""
        out: dict[str, set[str]] = {}
        owners: dict[str, set[str]] = {}
        for caller, forms in self.called.items():
            for form, person in forms.items():
                owners.setdefault(form, set()).add(person)
        own: dict[str, set[str]] = {}  # person -> the characters of their names
        if self.called:
            for name, who in self.aliases.items():
                own.setdefault(who, set(who)).update(name)
        for caller, forms in self.called.items():
            for form, person in forms.items():
                if caller in (pov, "") or (len(form) >= 2 and len(owners[form]) == 1 and form not in self.aliases
                                           and own.get(person, set(person)) & set(form)):
                    out.setdefault(person, set()).add(form)
        for form, person in self.kin_of_pov.get(pov, {}).items():  # 陈默的母亲: 娘 in 陈默's chapter (我娘's bare word)
            if len(form) == 2 and form[0] == "我":
                out.setdefault(person, set()).add(form[1])
        return {person: frozenset(forms) for person, forms in out.items()}

    def for_draft(self, meta: dict[str, Any]) -> CheckContext:
        """This context plus the names a draft brings itself: characters its 设定变更 creates,
        aliases it declares (``X.别名+Y``), the people of its 在场 and 视角. The same context when
        the draft brings none."""
        extra: dict[str, str] = {}
        for line in as_list(meta.get("设定变更")):
            m = CHANGE.match(str(line))
            if not m or SECRET_ID.fullmatch(m.group("who")):
                continue
            who = self.aliases.get(m.group("who"), m.group("who"))
            if who not in self.aliases:
                extra[who] = who
            if m.group("field") == "别名" and m.group("op") == "+":
                extra[m.group("value")] = who
        pov = meta.get("视角")
        kin_words: set[str] = set()
        if isinstance(pov, str) and pov.strip():
            for form, person in self.kin_of_pov.get(self.aliases.get(pov.strip(), pov.strip()), {}).items():
                if form not in self.aliases:
                    extra.setdefault(form, person)  # 爷爷 in 陈默's chapter is 陈守义
                    kin_words.add(form)
        for key in ("在场", "视角"):
            for name in as_list(meta.get(key)):
                name = str(name).strip()
                if name and name not in self.aliases and len(name) >= 2:
                    extra.setdefault(name, name)
        extra = {k: v for k, v in extra.items() if k not in self.aliases and k}
        cast = frozenset({**extra, **self.aliases}.get(str(n).strip(), str(n).strip())
                         for n in as_list(meta.get("在场")) if str(n).strip())
        addressed = self.addressed_by(self.aliases.get(pov.strip(), pov.strip()) if isinstance(pov, str) else "")
        if not extra:
            return self if (cast, addressed) == (self.cast, self.addressed) else replace(self, cast=cast, addressed=addressed)
        people = None if self.people is None else self.people | set(extra.values())
        return replace(self, aliases={**self.aliases, **extra}, known_names=self.known_names | set(extra), people=people,
                       kin_words=frozenset(kin_words), cast=cast, addressed=addressed,
                       _names_re=None, _terms_re=None,
                       _known_forms=self.known_forms() | with_address_forms(set(extra)))


def looks_of(texts: dict[str, str], characters: dict[str, dict[str, Any]]) -> dict[str, frozenset[str]]:
    """``{held thing: {words}}``: what its holder's card says of it between a measure word and its
    name (腰上别一台摩托罗拉汉显BP机 → 摩托罗拉; 一只黄壳的福禄克万用表 → 黄壳), two to six characters. Each thing
    found by ``str.find`` (:func:`starts_of`), no pattern compiled for each of a card's thousands of things (A16)."""
    out: dict[str, set[str]] = {}
    for name, text in texts.items():
        body = free_text(text)
        for thing in map(str, as_list((characters.get(name) or {}).get("持有"))):
            for at in starts_of(thing, body):
                look = _LOOK.search(body[max(0, at - 9):at])
                if look:
                    out.setdefault(thing, set()).add(look.group(1))
    return {thing: frozenset(words) for thing, words in out.items()}


def roles_of(characters: dict[str, dict[str, Any]]) -> dict[str, frozenset[str]]:
    """``{person: {post}}`` for each post (the card's 境界: 列车长, 舰长, 掌门) that one card alone
    holds: prose calls that person by it (列车长把缸子一墩). A post two cards share names no one."""
    holders: dict[str, set[str]] = {}
    for name, meta in characters.items():
        for post in as_list(meta.get("境界")):
            if len(str(post)) >= 2:
                holders.setdefault(str(post), set()).add(name)
    out: dict[str, set[str]] = {}
    for post, people in holders.items():
        if len(people) == 1:
            out.setdefault(next(iter(people)), set()).add(post)
    return {name: frozenset(posts) for name, posts in out.items()}


POSTS = ("执事", "长老", "护法", "堂主", "峰主", "管事", "掌柜", "账房", "管家", "总管", "护士长", "护士", "医生", "大夫", "主任",
         "科长", "处长", "厂长", "班长", "组长", "队长", "站长", "校长", "老师", "教官", "太监", "公公", "嬷嬷", "尚宫", "侍卫",
         "统领", "捕头", "县令", "知县", "师爷", "掌事", "主管", "经理", "秘书", "工程师", "技术员", "会计", "书记", "指导员",
         "连长", "排长", "营长", "团长", "参谋", "医官", "军需", "副官", "管带", "镖头", "班主", "先生")
"""Posts a card's text may give its person (原是筑基后期的执事, 当过三年护士长): prose calls them by their
surname and it (韩执事, 周护士长), a past post too."""
_POST = re.compile(rf"({'|'.join(sorted(POSTS, key=len, reverse=True))})")


def posts_of(texts: dict[str, str]) -> dict[str, frozenset[str]]:
    """``{person: {post}}``: the posts of :data:`POSTS` each card's free text names (的执事, 内科医生) — not
    after a surname (宋长老, 许护士长 are someone else's)."""
    out: dict[str, frozenset[str]] = {}
    for name, text in texts.items():
        body = free_text(text)
        found = frozenset(m.group(1) for m in _POST.finditer(body)
                          if not (m.start() and surname_of(body[m.start() - 1:m.end()]) == body[m.start() - 1]))
        if found:
            out[name] = found
    return out


def unsurnamed_forms(name: str, posts: Iterable[str] = ()) -> set[str]:
    """The forms prose makes of a name with no Chinese surname (哈力克, 莉莉安) from its first
    character: 老哈, 小哈, 哈乘警 (with a title or the person's post). Names of two characters, or
    led by 阿/小/老, or with a surname, give none (their forms: :func:`lw_storyrepo.names.address_forms`)."""
    if len(name) < 3 or surname_of(name) or name[0] in "阿小老大" or not "\u4e00" <= name[0] <= "\u9fff":
        return set()
    head = name[0]
    return {"老" + head, "小" + head} | {head + t for t in (*TITLES, *posts) if len(t) >= 2}


_NUMBER = re.compile(r"[0-9０-９]{1,2}|[零一二三四五六七八九十]{1,3}")


def numeral_forms(term: str) -> set[str]:
    """A name holding a number (up to 99) written the other way: 7号车厢 ↔ 七号车厢, 十四号 ↔ 14号.
    A name without one gives nothing."""
    out = set()
    for m in _NUMBER.finditer(term):
        n = value(m.group())
        if n is None or n > 99:
            continue
        other = chinese(n) if m.group()[0].isdigit() else str(n)
        out.add(term[:m.start()] + other + term[m.end():])
    return out


def top_rank_names(characters: dict[str, dict[str, Any]], stages: tuple[str, ...]) -> dict[str, str]:
    """A rank of the world's own ladder (not the default one), of two characters or more, that one card
    holds and that is the top (皇后, 掌门, 船长 — there is one) or ends one of that card's own aliases (韩贵妃:
    贵妃 is how she is called): that word names its holder. ``{rank: holder}``."""
    if stages == DEFAULT_STAGES:
        return {}
    out = {}
    for k, rank in enumerate(stages):
        holders = [n for n, m in characters.items() if str(m.get("境界") or "") == rank]
        if len(rank) < 2 or len(holders) != 1 or rank in characters:
            continue
        titled = any(str(a).endswith(rank) and str(a) != rank for a in as_list(characters[holders[0]].get("别名")))
        if k == len(stages) - 1 or titled:
            out[rank] = holders[0]
    return out


def dead_of(characters: dict[str, dict[str, Any]]) -> frozenset[str]:
    """The characters whose card's 状态 says they are dead (已死, 陨落 …)."""
    return frozenset(n for n, meta in characters.items() if str(meta.get("状态") or "").startswith(DEAD))


def card_texts(repo: StoryRepo) -> dict[str, str]:
    """Each character card's whole text, by the character's name (姓名, else the file's name)."""
    out: dict[str, str] = {}
    for file_name, text, _meta in repo.cards():  # read once per command (StoryRepo.cards)
        meta_name = re.search(r"^姓名:\s*(\S+)", text, re.M)
        out[meta_name.group(1) if meta_name else file_name[:-3]] = text
    return out


def relatives(texts: dict[str, str], aliases: dict[str, str]) -> dict[str, dict[str, str]]:
    """For each character a card relates another to (陈守义's card: 陈默的爷爷), the words that
    character's relatives go by and who they are: ``{陈默: {爷爷: 陈守义, 祖父: 陈守义}}``. A word
    two relatives of the same character share (two uncles) is left out. The name a relation follows is the longest
    ending the text before it, looked up by :func:`named_ends` (not every name tried: cards × cards; A16, stop 56)."""
    names = named_ends(aliases)
    out: dict[str, dict[str, str]] = {}
    clash: set[tuple[str, str]] = set()
    for person, text in texts.items():
        for before, forms in relations(text):
            anchor = next((aliases[n] for n in names.of(before)), None)
            if anchor is None or anchor == person:
                continue
            for form in forms:
                if out.setdefault(anchor, {}).setdefault(form, person) != person:
                    clash.add((anchor, form))
    for anchor, form in clash:
        out[anchor].pop(form, None)
    return out


KEEPERS = ("掌柜", "老板娘", "老板", "东家", "店主", "店东", "主人", "住持", "方丈", "观主", "馆主", "庄主", "堂主", "寨主",
           "班主", "掌门", "帮主", "经理", "厂长", "院长", "校长", "站长", "所长", "船老大", "村长", "族长")
"""The words a card says its character keeps a place with (珠市口恒裕当的掌柜, 「陈记通讯」的老板)."""
_KEEPER_AT = re.compile("(?=" + "|".join(KEEPERS) + ")")
"""Every place a word of :data:`KEEPERS` starts at (老板娘 and 老板 at one, 店东家's 店东 and 东家 at two)."""


def keepers_of(texts: dict[str, str], places: set[str]) -> dict[str, frozenset[str]]:
    """``{place: people}`` whose card's free text makes them its keeper (:data:`KEEPERS`, after
    the place, 的 and 大/二/老 between): a line about the shop (恒裕当给的价钱) may be told through
    its keeper (胡六爷给的是活当的价). Read back from each keeper's word, the places looked up by the
    text's pieces (a book of thousands of places searched every card once per place)."""
    out: dict[str, set[str]] = {}
    named = {p for p in places if len(p) >= 2}
    for person, text in texts.items():
        body = free_text(text)
        ending: dict[int, list[str]] | None = None  # where each place the card names ends
        for m in _KEEPER_AT.finditer(body):
            ends = {m.start()}
            for between in ("大二老", "的", "」』"):  # what may stand between the place and the word, read backwards
                ends |= {e - 1 for e in ends if e > 0 and body[e - 1] in between}
            if ending is None:
                ending = {}
                for at, found in found_at(named, body).items():
                    for place in found:
                        ending.setdefault(at + len(place), []).append(place)
            for e in ends:
                for place in ending.get(e, ()):
                    out.setdefault(place, set()).add(person)
    return {place: frozenset(people) for place, people in out.items()}


def _kept_by(ctx: CheckContext, person: str) -> list[str]:
    """The places ``person`` alone keeps (:func:`keepers_of`)."""
    return sorted(place for place, people in ctx.keepers.items() if people == {person})


def _keeper_named(ctx: CheckContext, term: str, body: str) -> bool:
    """A person the prose names as the keeper of the place they alone keep: 恒裕当的掌柜 is 胡六."""
    canonical = ctx.aliases.get(term, term)
    keeper = "(?:" + "|".join(KEEPERS) + ")"
    return any(re.search(re.escape(form) + f"[」』]?的?[大二老]?{keeper}", body)
               for place in _kept_by(ctx, canonical) for form in ctx.variants(place))


def called_of(texts: dict[str, str], aliases: dict[str, str]) -> dict[str, dict[str, str]]:
    """What one character calls another, from the cards' quoted forms of address
    (:func:`lw_storyrepo.kinship.address_book`), each card's pronoun read from its own words."""
    names = set(aliases)
    named = named_ends(names)  # built once for every card's relations
    spotted = NamesIn(names)  # and for every card's pronouns
    return address_book(texts, aliases, relatives(texts, aliases),
                        {n: gender_of(t, spotted) or relation_gender(t, named) for n, t in texts.items()})


def kin_of(repo: StoryRepo, texts: dict[str, str] | None = None) -> dict[str, frozenset[str]]:
    """Each character's kinship forms, from the relations their card's text states
    (:func:`lw_storyrepo.kinship.kin_forms`); characters whose card states none are left out."""
    texts = card_texts(repo) if texts is None else texts
    forms = {name: set(kin_forms(text)) for name, text in texts.items()}
    names = named_ends(texts)  # the longest name ending the text before a relation, looked up (not cards × cards)
    for person, text in texts.items():  # 马秀兰's card says 杜建国的师父: 杜建国 is 徒弟
        for before, other_side in reverse_relations(text):
            anchor = next(names.of(before), None)
            if anchor is not None and anchor != person:
                forms.setdefault(anchor, set()).update(other_side)
    return {name: frozenset(f) for name, f in forms.items() if f}


_I = re.compile(r"我(?!们)")

_CLOSERS = {"“": "”", "「": "」", '"': '"'}
_OPENER = re.compile("[" + "".join(_CLOSERS) + "]")


def without_quotes(text: str) -> str:
    """``QUOTE.sub("", text)`` in one pass: the regex looks for a closer from every opener, so a
    draft of unclosed openers costs the square of its length; here each closer's next position
    (or its absence) is remembered."""
    out: list[str] = []
    found: dict[str, int] = {}  # closer -> the position last found for it
    none_from: dict[str, int] = {}  # closer -> from here on the text holds none
    i, n = 0, len(text)
    while i < n:
        close = _CLOSERS.get(text[i])
        if close is not None and i + 1 < none_from.get(close, n + 1):
            j = found.get(close, -1)
            if j <= i:
                j = text.find(close, i + 1)
                if j < 0:
                    none_from[close] = i + 1
                else:
                    found[close] = j
            if j > i:
                i = j + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def quote_matches(text: str) -> Iterator[re.Match[str]]:
    """``QUOTE.finditer(text)`` in one pass, as :func:`without_quotes` finds them: each quote is
    matched where its opener stands, to its closer (a line of 60,000 unclosed openers is not
    read again from each one)."""
    found: dict[str, int] = {}
    none_from: dict[str, int] = {}
    i, n = 0, len(text)
    while (opener := _OPENER.search(text, i)) is not None:  # the characters between openers are passed over by C
        i = opener.start()
        close = _CLOSERS[text[i]]
        if i + 1 < none_from.get(close, n + 1):
            j = found.get(close, -1)
            if j <= i:
                j = text.find(close, i + 1)
                if j < 0:
                    none_from[close] = i + 1
                else:
                    found[close] = j
            if j > i:
                m = QUOTE.match(text, i)
                if m is not None:
                    yield m
                i = j + 1
                continue
        i += 1


def _last_clause(text: str, end: int) -> str:
    """``re.split(r"[。！？”」]", text[:end])[-1]`` without cutting the text: what follows the last
    sentence end or closer before ``end``."""
    return text[max(text.rfind(c, 0, end) for c in "。！？”」") + 1:end]


def first_person(meta: dict[str, Any], body: str, aliases: dict[str, str]) -> str | None:
    """The point of view (视角) of a draft told in the first person — 我 in its narration, outside
    quotes and outside what follows a colon (林晚心想：我…) —; None otherwise. In such a draft 我
    is that character."""
    pov = meta.get("视角")
    if not isinstance(pov, str) or not pov.strip():
        return None
    narration = re.sub(r"[：:][^。！？\n]*", "", without_quotes(body))
    return aliases.get(pov.strip(), pov.strip()) if _I.search(narration) else None


def check_draft(repo: StoryRepo, draft: Any, state: dict[str, Any] | None = None,
                ctx: CheckContext | None = None) -> list[Finding]:
    ctx = (ctx or CheckContext.load(repo)).for_draft(draft.meta)
    me = first_person(draft.meta, draft.body, ctx.aliases)
    if me is not None and "我" not in ctx.aliases:  # 我 is the point of view: it speaks, holds, stands
        ctx = replace(ctx, aliases={**ctx.aliases, "我": me}, _names_re=None, _terms_re=None)
    ctx = ctx.reading(draft.body)
    findings: list[Finding] = []
    lines = draft.body.split("\n")
    said = list(voices(ctx, lines))  # who says what, read once for the contract, the leaks and the continuity
    if state is not None:
        findings += contract_findings(state, draft, ctx, said)
    learned: dict[str, set[str]] = {}
    revealed: set[str] = set()
    for change in as_list(draft.meta.get("设定变更")):
        m = CHANGE.match(str(change))
        if m and SECRET_ID.fullmatch(m["who"]) and m["field"] == "知情人" and m["op"] == "+":
            learned.setdefault(m["who"], set()).add(ctx.aliases.get(m["value"], m["value"]))
        if m and SECRET_ID.fullmatch(m["who"]) and m["field"] == "读者已知" and m["op"] == "=" \
                and m["value"].lower() in YES:  # as settle reads it
            revealed.add(m["who"])
    pov = draft.meta.get("视角")
    me = ctx.aliases.get(str(pov).strip(), str(pov).strip()) if isinstance(pov, str) else ""
    called, heard = pov_calls(ctx, me)
    # the leaks read a letter as its writer's words (voices(letters=True)) and a present person by what the point
    # of view calls them (:func:`calls_of_the_present`): read again when the draft speaks of a letter or so calls one
    calls = calls_of_the_present(ctx, called, heard, lines)
    heard_ctx = replace(ctx, aliases={**calls, **ctx.aliases}, _names_re=None, _terms_re=None) if calls else ctx
    written = list(voices(heard_ctx, lines, letters=True)) \
        if calls or any(LETTER_WORD.search(line) for line in lines) else said
    findings += check_text(ctx, draft.body, draft.body_line, learned=learned, revealed=revealed,
                           pov=str(pov) if isinstance(pov, str) and pov else None, said=written)
    if ctx.world is not None:
        # what the point of view calls people, as the cards quote it (陆骁叫他“周叔”): their names in its chapter
        # (:func:`pov_calls`); and the one-character kin word a relative's card gives as a name (杨桂英: 娘), the point of view theirs by the
        # cards (向秋生叫她“娘”, 赵满囤的娘)
        kin_of_pov = {*ctx.called.get(me, {}).values(), *ctx.kin_of_pov.get(me, {}).values()}
        kin = {f for f in ONE_CHARACTER if ctx.aliases.get(f) in kin_of_pov}
        findings += check_continuity(replace(ctx.world, aliases={**ctx.aliases, **called},
                                             indirect=ctx.kin_words | set(called) | kin,
                                             heard=heard),
                                     draft.meta, lines,
                                     draft.body_line,
                                     said, ctx.names_re())
    for f in findings:  # a finding on a front-matter field (its excerpt 「书内时间: …」) stands on that field's line
        if f.line == 1 and (field := f.excerpt.partition(":")[0]) in DRAFT_FIELDS:
            f.line = draft.line_of(f"{field}:")
    capped: list[tuple[int, int]] = []
    for noun, kind, line in new_proper_nouns(repo, draft, ctx, capped):
        findings.append(Finding("新专名", WARN, f"新专名「{noun}」（{kind}）不在名册：验收时确认是新实体还是笔误", line,
                                draft.column_of(line, noun)))
    for count, line in capped:
        findings.append(Finding("新专名", WARN, f"新专名候选有 {count} 个，远超一章所有（上限 {CANDIDATES_MAX}）：只查了最先出现的 "
                                f"{CANDIDATES_MAX} 个，从这一行起的没有查", line))
    return findings


def pov_calls(ctx: CheckContext, pov: str) -> tuple[dict[str, str], dict[str, str]]:
    """What a draft told from ``pov`` calls people by, as the cards quote it: ``(called, heard)`` — the forms of two
    characters or more ``pov`` calls them (何松叫他“罗叔”) and the forms a group calls them (班里人都叫他“班主”), each
    ``{form: person}``, neither a name the aliases hold already."""
    called = {f: p for f, p in ctx.called.get(pov, {}).items() if len(f) >= 2 and f not in ctx.aliases}
    heard = {f: p for f, p in ctx.called.get("", {}).items() if f not in ctx.aliases}  # 家里下人叫他“少爷”
    return called, heard


def calls_of_the_present(ctx: CheckContext, called: dict[str, str], heard: dict[str, str],
                         lines: list[str]) -> dict[str, str]:
    """The forms of :func:`pov_calls` that name a person of the draft's 在场 (:attr:`CheckContext.cast`) and that
    the draft writes: the names its narration gives the people of the scene (罗叔盘腿坐着, “……”根哥说), read by the
    leaks' speakers (lk2's round, stop 63: a knower's words were nobody's, or the point of view's, when the prose
    called the speaker only so). A form two present people share names neither; one of two characters or more
    only, as :func:`pov_calls` gives them, except the group's, which a card quotes as that person's own."""
    if not ctx.cast:
        return {}
    body = "\n".join(lines)
    owners: dict[str, set[str]] = {}
    for form, person in [*heard.items(), *called.items()]:
        if len(form) >= 2:
            owners.setdefault(form, set()).add(person)
    return {form: next(iter(people)) for form, people in owners.items()
            if len(people) == 1 and people <= ctx.cast and form in body}


def check_text(ctx: CheckContext, body: str, first_line: int = 1, learned: dict[str, set[str]] | None = None,
               revealed: set[str] | None = None, pov: str | None = None, said: list[Voice] | None = None) -> list[Finding]:
    findings: list[Finding] = []
    lines = body.split("\n")
    findings += leak_and_waste(ctx, lines, first_line, learned or {}, revealed or set(), pov, said)
    findings += banned(ctx, lines, first_line)
    findings += repetition(ctx, lines, first_line)
    count = word_count(body)
    target = ctx.target_words
    if target:
        ratio = count / target
        start = first_line + next((i for i, line in enumerate(lines) if line.strip()), 0)  # where the prose starts
        if ratio < 0.5 or ratio > 2.0:
            findings.append(Finding("字数", ERROR, f"字数 {count}，目标 {target}（差距过大：须在 {-(-target // 2)}–{target * 2} 字之间，"
                                    "即目标的一半到两倍）", start))
        elif ratio < 0.8 or ratio > 1.3:
            findings.append(Finding("字数", WARN, f"字数 {count}，目标 {target}", start))
    return findings


# --- contract ---------------------------------------------------------------------------------


MOVE_WORDS = (("开启", "开启承诺"), ("开新", "开启承诺"), ("新开", "开启承诺"), ("推进", "推进承诺"), ("兑付", "兑付承诺"),
              ("弃置", "弃置承诺"))
"""The only words a contract line names a promise move with; any other verb (揭开, 埋下) asks
for no particular move: the promise must be touched, and the lenses judge the rest."""
THING_HEADS = tuple(suffix for suffix, kind in SUFFIXES if kind == "物品")
_CLAUSE = re.compile(r"[^，,。；;！？!?]+")


def contract_moves(text: str, pid: str) -> set[str]:
    """The moves a contract line asks of ``pid``, read from the words of its own clause (before a
    colon: ``P-058 开启：…``, ``推进或兑付 P-002``); empty when the line names none."""
    for m in _CLAUSE.finditer(text):
        clause = m.group()
        if pid not in clause:
            continue
        head = re.split(r"[：:]", clause)
        part = next((h for h in head if pid in h), clause)
        part = re.sub(r"[（(][^）)]*[）)]", "", part)  # a note in brackets is no move (（节奏债：…未推进）)
        return {key for word, key in MOVE_WORDS if word in part}
    return set()
MISSING = ("失踪", "下落不明", "不知所踪")
"""What a card's 状态 starts with when no one knows where the character is: their card's 位置 is
where they were lost (吴老四 at 罗湖口岸), not where they are."""


def dwellers_of(characters: dict[str, dict[str, Any]]) -> dict[str, frozenset[str]]:
    """``{place: people whose card's 位置 it is}``; the missing are at no place."""
    out: dict[str, set[str]] = {}
    for name, meta in characters.items():
        if meta.get("位置") and not str(meta.get("状态") or "").startswith(MISSING):
            out.setdefault(str(meta["位置"]), set()).add(name)
    return {place: frozenset(people) for place, people in out.items()}


def _there_by_card(place: str, draft: Any, ctx: CheckContext, line: str = "") -> bool:
    """Whether the prose brings in someone whose card puts them at ``place`` (莫七 of the 货舱, the
    captain calling from her scout craft) and whom the draft moves nowhere else: the place is in
    the chapter with them. A line that sends someone there (:data:`GO_TO`: 去医院看妈) asks the visit: the one
    living there brings the place only when the narration has them met (:func:`_met`), not only called or missed."""
    body = getattr(draft, "body", "")
    visit = _visit(place, line)
    return any(not visit or _met(ctx.variants(person), body) for person in _dwellers_named(place, draft, ctx, line))


def _dwellers_named(place: str, draft: Any, ctx: CheckContext, line: str) -> list[str]:
    """The people whose card puts them at ``place``, whom the prose names and the draft moves nowhere else; a
    dead one only for a line about them."""
    moved = {ctx.aliases.get(m.group("who"), m.group("who")) for m in map(CHANGE.match, map(str, as_list(
        (getattr(draft, "meta", {}) or {}).get("设定变更")))) if m and m.group("field") == "位置"}
    body = getattr(draft, "body", "")
    return [person for person in sorted(ctx.dwellers.get(place, ())) if person not in moved
            and (person not in ctx.dead or person in ctx.contract_terms_in(line))
            and any(_named(v, body) for v in ctx.variants(person))]


def _visit(place: str, line: str) -> bool:
    """Whether a contract line sends someone to ``place`` (:data:`GO_TO`: 去医院看妈)."""
    return any(GO_TO.search(line[max(0, at - 2):at]) for at in _spots(place, line))


AT_A_DISTANCE = re.compile(r"电话|微信|短信|视频|语音|消息|信里|信上|信中|来信|回信|打字|发来|听筒|话筒|那头|手机|传音|玉简|传讯")
"""A paragraph that reaches someone through a medium (给妈打电话, 是宋姐的微信), not where they are."""
ONLY_WISHED = re.compile(r"想|要|打算|准备|惦记|念叨|挂念|担心|等")
"""A clause that names someone only as missed or meant (说她想柏哥了, 要送到大牢里给柏哥)."""


def _met(forms: Iterable[str], body: str) -> bool:
    """Whether the narration (what people say left out) names someone by one of ``forms`` in a clause that
    does not only wish for them (:data:`ONLY_WISHED`), in a paragraph no call or message carries: none going
    on (:func:`lw_storyrepo.continuity.calls_going_on`) and no medium (:data:`AT_A_DISTANCE`) in it or the
    few paragraphs before it (:func:`lw_storyrepo.continuity.recent_paragraphs`)."""
    clauses = _MET_READ.of(body, lambda: _meeting_clauses(body))
    return any(_named_in(form, clause) for clause in clauses for form in forms)


def _meeting_clauses(body: str) -> list[str]:
    """The clauses :func:`_met` reads a person in, of the whole prose: read once per draft (each
    paragraph's quotes were blanked again for every paragraph after it, and for every person asked)."""
    lines = body.split("\n")
    calls = calls_going_on(lines)
    distant: dict[str, bool] = {}  # paragraph -> a medium in it, its quotes left out

    def far(paragraph: str) -> bool:
        if paragraph not in distant:
            distant[paragraph] = AT_A_DISTANCE.search(_QUOTED.sub("", paragraph)) is not None
        return distant[paragraph]

    out = []
    for i, line in enumerate(lines):
        told = _QUOTED.sub(lambda m: "，" * len(m.group()), line)
        if calls[i] or not told.strip() or any(far(x) for x in [*recent_paragraphs(lines, i), line]):
            continue
        out += [clause for clause in re.split(r"[，,。！？!?；;：:]", told) if not ONLY_WISHED.search(clause)]
    return out


T = TypeVar("T")


class PerProse(threading.local):
    """What a rule read of the prose it saw last, per thread (a host may check two books at once): a
    contract of many lines asks about the same draft over and over, and each answer is read once."""

    def of(self, body: str, read: Callable[[], T]) -> T:
        """The value ``read`` made for this prose object, made now (and the last prose's forgotten) when
        ``body`` is another object than the last one asked about."""
        last: tuple[str, Any] | None = getattr(self, "last", None)
        if last is None or last[0] is not body:
            last = self.last = (body, read())
        return cast(T, last[1])


_MET_READ = PerProse()
"""The prose :func:`_met` last read and its clauses."""
_NAMED_SEEN = PerProse()
"""The prose :func:`_named` last read and its answers: a contract of 600 lines that name the same person
searches the draft for each of their forms once, not once a line (lines × forms × draft was 100 s at the cap)."""


def _named(form: str, body: str, person: bool = False) -> bool:
    """Whether the prose names someone by ``form``: :func:`lw_storyrepo.names.present`, and a form
    of one character (娘, 爹 — a card's 叫母亲“娘”) only as a word of its own: after no other
    character but a pronoun, 的 or a word that only ever stands before a noun (:data:`KIN_LED_BY`: 是娘托人写的,
    给爹捎去, 跟娘说), and before none that makes a longer word of it (姑娘, 娘家, 爹们). A ``person``'s form of two
    characters or more standing whole in the prose only inside a longer word is not named there
    (:func:`propernouns.not_inside_longer`: 老板 of 老板娘, the names pattern's own guard)."""
    seen: dict[tuple[str, bool], bool] = _NAMED_SEEN.of(body, dict)
    hit = seen.get((form, person))
    if hit is None:
        hit = seen[(form, person)] = _named_in(form, body)
        if hit and person and len(form) >= 2 and form in body and (guard := not_inside_longer([form])):
            hit = re.search(re.escape(form) + guard, body) is not None
    return hit


def _named_in(form: str, body: str) -> bool:
    if len(form) != 1:
        return present(form, body)
    return re.search(rf"(?:(?<![\u4e00-\u9fff])|(?<=[{KIN_LED_BY}])){re.escape(form)}(?![{KIN_WORD_GOES_ON}{re.escape(form)}])",
                     body) is not None


KIN_WORD_GOES_ON = "们子家亲儿胎祖舅姨"
"""The characters that, after a one-character word of a relation, make a longer word of it (:func:`_named`): 娘们, 娘子,
娘家, 娘亲, 娘儿俩, 娘胎, 妈祖 (妈祖庙), 娘舅, 娘姨 — the relative is no word of its own there (R55, stop 55: 这病是娘胎里带来的,
船上都说是妈祖保佑 named no mother)."""


KIN_LED_BY = "我你他她咱俺的是给跟和同对向让叫被把替像问找陪随与帮喊"
"""The characters a one-character word of a relation (娘, 爹) may follow and still be a word of its own (:func:`_named`):
the pronouns, 的, and the copula, prepositions and verbs that take a person after them (是娘托人写的, 给爹捎去, 跟娘说,
叫娘) — none ends a longer word in 娘/爹/妈/哥 (姑娘, 新娘, 老娘, 干爹, 大哥 stay out: K3, stop 55)."""


_DEMONSTRATIVE = "(?:那|这)[枚块只把个件颗张支柄根条面串口台辆副顶本封盏双]"


def _by_its_kind(term: str, body: str) -> bool:
    """A thing named by its kind after a demonstrative and a measure word: 那枚芯片 for 星图芯片 (the
    one the story knows; 一块玉佩 is any pendant).
    The kind is a word of two characters or more of :data:`LOOK_HEADS` the name ends with, after
    at least two characters that tell which one."""
    return any(len(head) >= 2 and term.endswith(head) and len(term) >= len(head) + 2
               and re.search(_DEMONSTRATIVE + re.escape(head), body) for head in LOOK_HEADS)


def _tails(ctx: CheckContext, term: str) -> list[str]:
    """The shorter names a held thing goes by in prose: the tails of its name of two characters or
    more after one or more that tell which one (蟒袍 of 金丝蟒袍, 古镜 of 青铜古镜, 账本 of 家账本), when no
    other name or thing the book knows ends with that tail, and the tail itself names nothing else."""
    if term not in ctx.items and (ctx.world is None or term not in ctx.world.items):
        return []
    canonical = ctx.aliases.get(term, term)
    ends = _name_ends(ctx)
    return [tail for tail in (term[k:] for k in range(1, len(term) - 1))
            if tail not in ctx.aliases and not any(n != term and ctx.aliases.get(n, n) != canonical
                                                   for n in ends.ending_with(tail))]


class _NameEnds:
    """Which of many names end with a text: the names sorted by their reversed spelling, those ending with it one run
    of them (found by bisection), not every name tried (a contract of hundreds of lines each handing over one of a
    card's thousands of things tried each of those things against each tail of each: lines × things; A14, stop 55)."""

    def __init__(self, names: Iterable[str]) -> None:
        pairs_ = sorted((n[::-1], n) for n in set(names))
        self.reversed = [r for r, _ in pairs_]
        self.names = [n for _, n in pairs_]

    def ending_with(self, tail: str) -> Iterator[str]:
        """The names ending with ``tail`` (not empty), in the order of their reversed spelling."""
        wanted = tail[::-1]
        for i in range(bisect_left(self.reversed, wanted), len(self.reversed)):
            if not self.reversed[i].startswith(wanted):
                return
            yield self.names[i]


def _name_ends(ctx: CheckContext) -> _NameEnds:
    """:class:`_NameEnds` of every name, thing and world thing :func:`_tails` tells a tail apart from, built once while
    the context's names and things are the same dicts and sets (a draft's context, with its own names, builds its own)."""
    world_items = ctx.world.items if ctx.world is not None else set()
    return ctx.per_book("name ends", (ctx.aliases, ctx.items, world_items),
                        lambda: _NameEnds([*ctx.aliases, *ctx.items, *world_items]))


_LOOKS_BETWEEN = r"(?:[^，,。！？；;“”\n]{1,6}的[^，,。！？；;“”\n的]?)?"
"""What the prose may say of a thing's looks between the measure word and its name (那本蓝布面的旧账本)."""


def _by_its_tail(ctx: CheckContext, term: str, body: str) -> bool:
    """A held thing the prose names by a shorter name (:func:`_tails`) after a demonstrative and a
    measure word: 那件蟒袍 is 金丝蟒袍, the one the story knows (一件蟒袍 is any robe); with its looks between
    (那本蓝布面的旧账本 for 家账本) only when the prose brings in no other of the kind (一把白色的键盘)."""
    for tail in _tails(ctx, term):
        if tail not in body:
            continue  # each pattern needs it: none compiled for a tail the prose never writes (A14, stop 55)
        t = re.escape(tail)
        if re.search(_DEMONSTRATIVE + t, body) or (re.search(_DEMONSTRATIVE + _LOOKS_BETWEEN + t, body)
                                                   and not re.search(rf"一[{_MEASURE}]{_LOOKS_BETWEEN}{t}", body)):
            return True
    return False


def _by_its_kind_in_region(ctx: CheckContext, term: str, body: str) -> bool:
    """A place named by a known place and its kind (城南 + 医院 = 城南医院) that the prose calls by its
    kind alone (医院), when no other name the book knows ends in that kind: the only one of its kind."""
    places = ctx.world.places if ctx.world is not None else set()
    ends = ctx.name_index().by_end
    for region in (term[:i] for i in range(len(term) - 1)):
        tail = term[len(region):]
        if region in places and tail in body \
                and not any(n != term and n.endswith(tail) and ctx.aliases.get(n, n) != ctx.aliases.get(term, term)
                            for n in ends.get(tail[-2:], ())):
            return True
    return False


PERFORM = ("唱", "念道", "念着", "念了", "念白", "读", "背诵", "背出", "吟", "诵", "哼", "吊嗓", "弹", "奏", "演", "练")
"""What prose does with a work (a play, a song, a book) when it gives its words and not its title."""


def _performed(term: str, line: str, body: str) -> str | None:
    """Why a work the line names in 《》 may be there without its title: the prose quotes words and
    sings, reads or recites (:data:`PERFORM`) — its lines (“在黄罗宝帐领将令——”), which no
    table tells from another work's; ``None`` for a term in 「」 or “” (its words are asked) or
    prose that performs nothing."""
    if f"《{term}》" not in line or not QUOTE.search(body):
        return None
    verb = next((w for w in PERFORM if w in body), None)
    return None if verb is None else f"正文{verb}了引号里的词句，没写《{term}》的名字"


REVIEW_WORDS = ("钩", "爽", "节奏", "氛围", "情绪", "悬念", "反转", "高潮")
_QUOTED = re.compile(r"「([^」]+)」|“([^”]+)”|《([^》]+)》")


def _changes_of(draft: Any) -> list[re.Match[str]]:
    """The draft's 设定变更 lines read as who, field, op and value (林晚.持有+演示U盘)."""
    return [m for m in map(CHANGE.match, map(str, as_list((getattr(draft, "meta", {}) or {}).get("设定变更")))) if m]


def _handed_over(ctx: CheckContext, term: str, draft: Any, body: str) -> bool:
    """A held thing the draft's 设定变更 moves from or to a card (许嘉.持有-演示U盘) that the prose names by
    a shorter name (:func:`_tails`: U盘) or its kind: the declared handover says which one it is."""
    if term not in ctx.items or not any(m.group("field") == "持有" and m.group("value") == term for m in _changes_of(draft)):
        return False
    return _kind_word(term, body) is not None or any(tail in body for tail in _tails(ctx, term))


def contract_findings(state: dict[str, Any], draft: Any, ctx: CheckContext | None = None,
                      said: list[Voice] | None = None) -> list[Finding]:
    """Every contract line against the draft (spec §8 step 5: 合同断言比对). ``said``: :func:`voices` of the
    draft's lines under ``ctx`` when the caller has read them already (read here otherwise, once, when a line asks).

    - a promise id (``P-031``) must be moved as its clause says (开启/推进/兑付/弃置:
      :func:`contract_moves`; no such word: any move), never guessed from another verb;
    - 开启/兑付/弃置 without an id needs at least one such move;
    - names the book knows (characters, aliases, roster entries, things characters hold, the
      draft's own new names and aliases) and quoted terms must appear in the prose — by any of
      their names or address forms (你娘 for 云娘, 陈叔 for 陈伯远), broken by punctuation
      (寒……潭……), or a thing by its description (刻着“玄”字的令牌): :mod:`lw_storyrepo.names`,
      or by its kind after a demonstrative (那枚芯片); a person also by what the cards quote
      the point of view calls them (叫母亲“娘”: :meth:`CheckContext.addressed_by`), a held thing by
      a shorter name of its own after a demonstrative (那件蟒袍: :func:`_by_its_tail`); a place is
      there too with someone the prose names whose card puts them there and whom the draft moves
      nowhere else; what may be there in a form no table reads is a warning (:func:`_maybe_there`,
      :func:`_performed`: a 《》 work sung or read without its title), never an error;
    - a line that hands a held thing over (把仓库钥匙交给…) warns when the draft's 设定变更 does not move
      it; one that hands over what no name of the book is (a task, a place on a list) warns when the
      prose writes nothing of it (:func:`_untold`), or writes it only refused or negated (:func:`_refused`:
      没给, 不肯, 拒绝, 摇了摇头) — an event that may never happen, asked, never refused;
    - any other event line of people (a punishment, a dismissal, a pledge: no appearance, move to a place,
      speech or promise) warns when the prose writes none of its own words once its names are taken out
      (:func:`_event_words`, five or more of them and three of the dictionary's words, :data:`EVENT_DICT_WORDS_MIN`:
      a shorter line may be told in words that share none), or
      writes them only refused or negated (没有开除);
    - a finding names its line by its start (:func:`lw_storyrepo.findings.clipped`), and no control or bidi
      character of the author's text reaches a terminal (:class:`Finding` escapes them);
    - a promise the draft opens that no contract line names is a warning, unless a line asks to
      open one (开启 without an id);
    - what no script can count (a strong hook, a mood) is listed for the lens reviews to confirm.
    """
    moves = {key: set(draft.ids(key)) for key in ("开启承诺", "推进承诺", "兑付承诺", "弃置承诺")}
    touched = moves["开启承诺"] | moves["推进承诺"] | moves["兑付承诺"]
    body = getattr(draft, "body", "")
    line_no = getattr(draft, "body_line", 1)
    me = first_person(getattr(draft, "meta", {}) or {}, body, ctx.aliases if ctx is not None else {})
    out = []
    contract = [str(raw) for raw in as_list(state.get("合同"))]
    named = {pid for text in contract for pid in re.findall(r"\b(P-\d{3,})\b", text)}
    if contract and not any("开启" in t or "开新" in t or "新开" in t for t in contract):
        # a warning: the contract says what must happen, not all that may; a thread opened on the way is
        # the author's call, shown to the lenses (the fixture sessions open one mid-draft)
        for pid in sorted(moves["开启承诺"] - named):  # a promise the frozen contract never asked for
            out.append(Finding("合同", WARN, f"草稿开启了合同没有提到的承诺 {pid}；要开就先修改合同", line_no))
    if named:  # a contract that names its promises by id: one moved beside them is the author's call to confirm
        for key, word in (("推进承诺", "推进"), ("兑付承诺", "兑付")):
            for pid in sorted(moves[key] - named):
                out.append(Finding("合同", WARN, f"草稿{word}了合同没有提到的承诺 {pid}：请确认，或先修改合同", line_no))
    in_prose: dict[tuple[str, bool], bool] = {}
    called_off = functools.cache(lambda: list(CALLED_OFF.finditer(body)))  # the prose's puttings off, read once a draft
    speaking: set[str] | None = None  # who speaks in the prose, named: read once for every line that asks
    kinds_named = functools.cache(lambda: _kinds_named(ctx) if ctx is not None else {})
    # whether the prose names a term by any of its forms: read once a term, not once for each line asking it in
    named_by_variant = functools.cache(lambda term: any(_named(v, body) for v in ctx.variants(term)) if ctx is not None else False)
    # whether the prose is at a term's spot (_by_its_spot): read once a spot, not once for each line or mention asking it
    spot_met = functools.cache(lambda term, spot: ctx is not None and _spot_met(ctx, term, spot, body))
    held_things = functools.cache(lambda: _things_of(ctx) if ctx is not None else _Starting(()))  # once a draft
    for raw in as_list(state.get("合同")):
        text = str(raw)
        # the line's runs as the dictionary cuts them (:meth:`propernouns._Lexicon.boundaries`' ``cuts``): its readers
        # (the act given up, a place in reported words, the words an event says) segment a run of it once
        cuts: dict[str, tuple[int, ...]] = {}
        # what of the line's act the prose never writes: read once a line, asked by each of its missing names
        act_untold = functools.cache(lambda: _act_untold(ctx, text, body, cuts) if ctx is not None else None)
        shown = clipped(text)  # a finding names the line by its start (findings.clipped; Finding escapes what a terminal acts on)
        first = len(out)  # this line's findings are out[first:]
        checked = False
        ids = re.findall(r"\b(P-\d{3,})\b", text)
        for pid in ids:
            checked = True
            wanted = contract_moves(text, pid)
            ok = any(pid in moves[key] for key in wanted) if wanted else pid in touched
            if not ok:
                where = "或".join(sorted(wanted, key=lambda k: [w[1] for w in MOVE_WORDS].index(k))) if wanted \
                    else "开启/推进/兑付承诺"
                out.append(Finding("合同", ERROR, f"合同「{shown}」要求 {pid} 出现在草稿的{where}里，但没有", line_no))
        if not ids:
            for word, key in MOVE_WORDS:
                if word in text and key != "推进承诺":
                    checked = True
                    if not moves[key]:
                        out.append(Finding("合同", ERROR, f"合同「{shown}」要{word}承诺，但草稿的{key}是空的", line_no))
                    break
        if len(out) > first and out[-1].severity == ERROR:
            continue  # a line whose promise is not moved as asked is reported once, not again for each name in it
        put_off: set[str] = set()  # the places of a line the prose puts off: not reached, said by its warning
        # a line's own event put off or given up is read here; a handover (把通知单交给…) is read by its own readers
        # below (_handover_told, _refused, _withheld)
        event_line = ctx is not None and not ids and not _HANDOVER.search(text) and _is_event(ctx, text)
        if ctx is not None and event_line and called_off() \
                and (off := _put_off_event(ctx, text, body, called_off(), cuts)) is not None:
            # the prose puts the line's own event off (明天验了再说, 今天去不成了): the event, and any place it goes to, never
            # happen — said once, not again for each place of the line; a person the prose never names is still missing.
            places = [t for t in dict.fromkeys(ctx.contract_terms_in(text)) if ctx.world is not None and t in ctx.world.places]
            put_off = set(places)
            where = f"，也就没有到「{'」「'.join(places)}」" if places else ""
            out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文写到它推迟或作罢了（{off.group()}）{where}：请确认这件事发生了",
                               line_no, excerpt=_telling_of(body, off)))
        if ctx is not None and not ids and not put_off and (use := _use_called_off(ctx, text, body, cuts)) is not None:
            # a thing taken out for the line's act, and the act given up (算了，不掐了; 改天再来写): the event never
            # happens, said once — and the thing, had or not (摸了个空), is not asked again
            thing, off = use
            put_off = {thing}
            out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文写到它推迟或作罢了（{off.group()}）：请确认这件事发生了",
                               line_no, excerpt=_telling_of(body, off)))
        elif ctx is not None and event_line and not put_off and not LINE_FORBIDS.search(text) \
                and (off := _line_act_given_up(ctx, text, body, cuts)) is not None:
            # the line's own act given up where its people or things are (不碾了, 明天再试, 经藏不开): said once, as above
            out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文写到它推迟或作罢了（{off.group()}）：请确认这件事发生了",
                               line_no, excerpt=_telling_of(body, off)))
        elif ctx is not None and not ids and not put_off and not LINE_FORBIDS.search(text) \
                and not APPEAR.search(text) and not any(word in text for word in REVIEW_WORDS) \
                and not any(word in text for word, _k in MOVE_WORDS) \
                and (back := _line_act_put_back(ctx, text, body, cuts)) is not None:
            # the thing of the line's act taken up and put back (钥匙揣回腰间), the act told done nowhere: said once
            out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文只写到要用的东西拿起又放回（{back.group()}），"
                                             "事情本身没有做：请确认这件事发生了", line_no, excerpt=_telling_of(body, back)))
        terms = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
        quoted = dict.fromkeys(terms, True)  # a quoted term asks for its words: no other form, no doubt
        if ctx is not None:
            rest = _QUOTED.sub("", text)
            for name in ctx.contract_terms_in(rest):
                terms.append(name)
        appears = APPEAR.search(text) is not None  # read once a line, not once for each of the thousands of terms it names
        for term in dict.fromkeys(terms):
            checked = True
            if term in put_off:
                continue  # a place the event put off goes to, a thing its act was to use: its warning says it
            who = ctx.aliases.get(term, term) if ctx is not None else term
            if ctx is not None and ctx.cast and appears and text.startswith(term) and ctx.is_person(who) \
                    and who not in ctx.cast and who not in ctx.dead and who != me:
                # the line asks them in and the draft's own 在场 leaves them out: there, or only spoken of?
                if speaking is None:
                    heard = said if said is not None else voices(ctx, body.split("\n"))
                    speaking = {ctx.aliases.get(v.speaker, v.speaker) for v in heard if v.speaker is not None and not v.guessed}
                if who in speaking:
                    pass  # they speak in the prose, named (a call, a phantom): they are in the chapter
                elif named_by_variant(term):
                    out.append(Finding("合同", WARN, f"合同「{shown}」要「{clipped(term)}」出场，草稿的在场名单里却没有："
                                                     "请确认是出场了还是只被提到", line_no))
                else:
                    out.append(Finding("合同", ERROR, f"合同「{shown}」提到「{clipped(term)}」，正文里没有", line_no))
                continue
            if ctx is not None and ctx.aliases.get(term, term) in ctx.dead and not appears:
                continue  # 裴延死那夜, 裴延案的狱簿: a line names the dead for what was theirs, it cannot ask them in
            if ctx is not None and not quoted.get(term) and _owner_only(ctx, term, text, body, held_things):
                continue  # 找到莉莉安的发带: the ribbon is asked and the prose tells it; she need not be there
            variants = ctx.variants(term) if ctx is not None else {term} | set(address_forms(term))
            if me is not None and (ctx.aliases.get(term, term) if ctx is not None else term) == me:
                variants.add("我")  # a draft told by 叶秋 names him 我
            if not quoted.get(term):
                variants |= _place_stems(ctx, term) | _brand(ctx, term)
                if _only_whence(term, text) or _only_modifies(ctx, term, text, body) or _district_of(ctx, term, text, body):
                    continue
            key = (term, bool(quoted.get(term)))
            if key not in in_prose:  # what depends on the term and the prose alone, read once per term, not once a line
                person = ctx is not None and ctx.people is not None and ctx.is_person(term)
                in_prose[key] = any(_named(v, body, person) for v in variants) or described(term, body, THING_HEADS) \
                    or _looks_like(term, body) or _by_its_kind(term, body) \
                    or (ctx is not None and (_by_kind(ctx, term, body)
                                             or _by_its_tail(ctx, term, body) or _by_its_kind_in_region(ctx, term, body)
                                             or _shaped(ctx, term, body)
                                             or _keeper_named(ctx, term, body) or _inner_place(ctx, term, body)
                                             or _by_its_home_kind(ctx, term, body, kinds_named())))
            # a place the line names with a spot in it (厂署秤房) and the prose by that spot alone (秤房里)
            spot = _by_its_spot(ctx, term, text, body, spot_met) if not in_prose[key] and not quoted.get(term) else None
            if not in_prose[key] and spot is None and not (ctx is not None and (_there_by_card(term, draft, ctx, text) or (
                    not quoted.get(term) and (_told_of(ctx, term, text, body) is not None
                                              or _place_of_a_telling(ctx, term, text, body)
                                              or _handed_over(ctx, term, draft, body))))):
                doubt = _maybe_there(ctx, term, text, draft, body) if not quoted.get(term) else _performed(term, text, body)
                step = f"（{'、'.join(ids)} 这一步也就没有写到）" if ids else ""  # the promise the line moves is what is missing
                if doubt is None and not ids and ctx is not None and term in ctx.items \
                        and (given := _HANDOVER.search(text)) is not None \
                        and term in ctx.contract_terms_in(given.group("what")):
                    # the thing a handover line gives is nowhere: the handover, the event the line asks, never happens
                    out.append(Finding("合同", ERROR, f"合同里的事件「{shown}」正文里找不到：要交出的「{clipped(term)}」"
                                                      "正文里没有", line_no))
                elif doubt is None and event_line and ctx is not None and (untold := act_untold()) is not None:
                    # the one who does the line's act, or the thing it is done with or to, is nowhere, and nothing of
                    # the act either: the event never happens, said as such (c3, stop 60; a thing too: c5, stop 62),
                    # the name named as before
                    out.append(Finding("合同", ERROR, f"合同里的事件「{shown}」正文里找不到：「{clipped(term)}」正文里没有，"
                                                      f"事情本身（{clipped('、'.join(sorted(untold)))}）也一个字眼没有写到",
                                       line_no))
                elif doubt is None:
                    out.append(Finding("合同", ERROR, f"合同「{shown}」提到「{clipped(term)}」，正文里没有{step}", line_no))
                else:
                    out.append(Finding("合同", WARN, f"合同「{shown}」提到「{clipped(term)}」，正文里找不到它的名字或已知叫法"
                                                     f"（{doubt}）{step}：请确认草稿写到了", line_no))
            elif ctx is not None and spot is None and not quoted.get(term) and _only_meant(ctx, term, text, body, cuts):
                out.append(Finding("合同", WARN, f"合同「{shown}」要到「{term}」，正文只说了要去、去不成或怎么走，"
                                                 f"没有写到了那里：请确认", line_no))
        handover = _HANDOVER.search(text)
        if ctx is not None and handover and not ids and len(out) == first:
            thing = next((t for t in ctx.contract_terms_in(handover.group("what")) if t in ctx.items), None)
            changes = [m for m in _changes_of(draft) if m.group("field") == "持有"]
            told = _handover_told(ctx, thing, body, text[:handover.start()], text[handover.end():]) \
                if thing is not None else None
            if thing is not None and not any(m.group("value") == thing for m in changes) \
                    and not _holds_already(ctx, text[handover.end():], thing) and told is not False:
                # spec §8: settle moves 持有 by the draft's 设定变更 alone — a handover the prose tells and keeps must be
                # declared; one the prose never tells is the event missing, said as such (what the line asks)
                out.append(Finding("合同", WARN, f"合同「{shown}」要交出「{thing}」，草稿的设定变更却没有记下它换了人："
                                                 "请确认交接写到了", line_no) if told else
                           Finding("合同", WARN, f"合同里的事件「{shown}」正文里找不到：「{thing}」没有写到交出去"
                                                 "（设定变更也没有记下它换了人），请确认这件事发生了", line_no))
            elif not ctx.contract_terms_in(handover.group("what")) and _untold(ctx, handover.group("what"), body):
                out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文里找不到：要交出的「{clipped(handover.group('what'))}」"
                                                 "一个字眼也没有写到，请确认这件事发生了", line_no))
            elif thing is None and not any(ctx.is_person(ctx.aliases.get(t, t)) for t in ctx.contract_terms_in(handover.group("what"))):
                # a thing no name of the book is, or one told by a place or a name it is not (一封上海寄来的信)
                refused = (None if ctx.contract_terms_in(handover.group("what"))
                           else _refused(ctx, _handed_words(ctx, handover.group("what")), body)) or _withheld(body)
                if refused is not None:
                    out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文只写到「{clipped(handover.group('what'))}」"
                                                     "被拒绝或没有交出：请确认这件事发生了", line_no, excerpt=refused))
        elif ctx is not None and not ids and len(out) == first and not put_off and _is_event(ctx, text):
            words = _event_words(ctx, text)
            if _event_untold(ctx, text, body, cuts) is not None:
                out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文里找不到：人物写到了，"
                                                 f"事情本身（{clipped('、'.join(sorted(words)))}）一个字眼也没有写到，"
                                                 "请确认这件事发生了", line_no))
            elif words and not REFUSE.search(text) and not _NEGATION.search(text):  # a line that itself says 没有… is no refusal to find
                refused = _refused(ctx, words, body, put_back=GIVES_OR_SHOWS.search(text) is not None)
                if refused is not None:
                    out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文只写到它被拒绝、没有或没做成：请确认这件事发生了",
                                       line_no, excerpt=refused))
        if ctx is not None and not ids and len(out) == first and not put_off \
                and (head := _led_act_untold(ctx, text, body)) is not None:
            # one person leads another to an act whose object the prose never writes: the act never happens, though the
            # two may be together and the place reached (c4, stop 61)
            out.append(Finding("合同", WARN, f"合同里的事件「{shown}」正文里找不到：人物写到了，要做的事（{head}）没有写到，"
                                             "请确认这件事发生了", line_no))
        step = _STEP.search(text) if ids and ctx is not None and len(out) == first else None
        if step is not None and ctx is not None \
                and len(words := _event_words(ctx, step.group("step"))) >= _step_words_min(ctx, step.group("step")) \
                and not any(w in _pair_spots(body) for w in words):
            # the promise is moved in the front matter, and nothing of the step the line says is in the prose
            out.append(Finding("合同", WARN, f"合同「{shown}」要写的 {'、'.join(ids)} 这一步正文里找不到：人物写到了，"
                                             f"这一步的事（{clipped('、'.join(sorted(words)))}）一个字眼也没有写到，"
                                             "请确认写到了", line_no))
        if any(word in text for word in REVIEW_WORDS) or not checked:
            out.append(Finding("合同", INFO, f"合同「{shown}」脚本判断不了，交评审确认", line_no))
    return out


_STEP = re.compile(r"P-\d{3,}[^：:，。]{0,6}[：:](?P<step>.+)")
"""A promise line's step, after its id and move word (P-002 推进：韩玉兰说阿大走前把…)."""
STEP_WORDS_MIN = 11
"""How many telling pairs (:func:`_event_words`) a promise line's step needs before prose that writes none of them is
warned (K3, stop 55): a step says who told what, in words the telling repeats. Read from the development pool's 1,300
promise lines: every line of a draft that writes its step has at most 10 such pairs when none is in the prose; a draft
that leaves the step out writes none of 11 to 16 (合同-2 of 二十四, 二十六, 二十八, 三十一, 三十二, 三十五, 三十七)."""


STEP_TOLD_WORDS_MIN = 9
"""How many telling pairs a promise line's step needs when it is what a person says (石满仓说…, 汪敬斋说…: a name, then
:data:`SAY`): a telling is told in its own words — the speaker's quote repeats the things and the acts the line names —
so a draft that writes none of nine leaves it out (c3, stop 60). Read from the development pool's 197 step lines that
share no pair with their prose: every step of a speaker with nine or ten such pairs is a draft leaving the step out
(合同-2 of 二十三, 二十九, 三十四, 三十六, 四十七); a speaker's step told has at most eight (连贯-持有-3 of 三十); the steps of
nine or ten that the prose writes otherwise are a finding (发现…), a remembering (想起…) or a search (查到…) — seen or
thought, told in any words — and keep :data:`STEP_WORDS_MIN`."""


def _step_words_min(ctx: CheckContext, step: str) -> int:
    """The telling pairs a step needs (:data:`STEP_TOLD_WORDS_MIN` when it opens with a person the book knows saying
    it, :data:`STEP_WORDS_MIN` else)."""
    who = ctx.terms_re().match(step.strip())
    said = who is not None and ctx.is_person(ctx.aliases.get(who.group(), who.group())) \
        and re.match(SAY, step.strip()[who.end():]) is not None
    return STEP_TOLD_WORDS_MIN if said else STEP_WORDS_MIN


_PLACE_OWNS = re.compile(r"的?([\u4e00-\u9fff]{2})")
_PERSON_OWNS = re.compile(r"的([\u4e00-\u9fff]{2})")
"""What :func:`_owner_only` reads as the thing of a place (上海点心, 上海的点心) or of a person (莉莉安的发带)."""


def _leftmost_longest(words: list[str], line: str) -> list[int]:
    """The ends of ``words`` where ``re.finditer(alternation(words), line)`` finds them (left to right, the longest
    at a place, never overlapping), without a pattern compiled for each set of words (each of a contract line's
    thousands of places compiled its own)."""
    found: list[tuple[int, int]] = []  # (where, minus the length) of every mention, overlapping ones too
    for word in set(words) - {""}:
        found.extend((at, -len(word)) for at in _every(word, line))
    ends: list[int] = []
    for at, minus in sorted(found):
        if not ends or at >= ends[-1]:
            ends.append(at - minus)
    return ends


def _every(word: str, line: str) -> list[int]:
    """Every start of ``word`` (not empty) in a contract line, overlapping ones too (:meth:`Spots.every` for a long
    line, as :func:`_spots`)."""
    if len(line) >= LINE_SPOTS_MIN:
        return _LINE_SPOTS.of(line, lambda: Spots(line)).every(word)
    return _all_starts(word, line)


class _Starting:
    """Which of many words start a text at a place: the text cut at the words' lengths and looked up, not each word
    tried there (a contract line of thousands of places asked each of a card's thousands of things; A13, stop 54)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(words)
        self.lengths = sorted({len(w) for w in self.words})

    def at(self, text: str, k: int) -> bool:
        """Whether one of the words starts ``text`` at ``k`` (``any(text.startswith(w, k) for w in words)``)."""
        return any(text[k:k + n] in self.words for n in self.lengths)


def _things_of(ctx: CheckContext) -> _Starting:
    """The things the book knows (the cards' and the world's), as :class:`_Starting`."""
    return _Starting(ctx.items | (ctx.world.items if ctx.world is not None else set()))


def _owner_only(ctx: CheckContext, term: str, line: str, body: str,
                things: Callable[[], _Starting] | None = None) -> bool:
    """Whether a contract line names someone or somewhere only to tell of a thing of theirs, and the prose writes that
    thing: a person every time before 的 (在白鸦镇找到莉莉安的发带, 看见钱卫东的帆布箱被人打开过), the line asking
    nobody in; a place only as where a thing is from (寄一盒上海点心: :func:`_only_telling`). The thing is the first two
    characters after the name (and its 的), written in the prose not only as a new one (:func:`_told_as_known`), or one
    the book knows (the line's own term, checked in its own right): the line is met without the owner in the scene.
    ``things`` gives the things the book knows (:func:`_things_of`; the contract check's is read once a draft)."""
    canonical = ctx.aliases.get(term, term)
    place = ctx.world is not None and term in ctx.world.places
    if place:
        if not _only_telling(term, line):
            return False
    elif not ctx.is_person(canonical) or APPEAR.search(line):
        return False
    forms = sorted((v for v in {term, *ctx.variants(term)} if len(v) >= 2 and _every(v, line)), key=len, reverse=True)
    spots = _leftmost_longest(forms, line)
    owned = [(_PLACE_OWNS if place else _PERSON_OWNS).match(line, end) for end in spots]
    known = things or functools.partial(_things_of, ctx)
    return bool(spots) and all(o is not None and not re.match(r"[那这]", o.group(1))
                               and (_told_as_known(o.group(1), body) or known().at(line, o.start(1)))
                               for o in owned)


def _told_as_known(word: str, body: str) -> bool:
    """Whether the prose writes ``word`` once at least in a clause that does not bring it in as new (一张车票 is
    any ticket; 接过发带 is the one). Read of a prose once per word (:data:`_KNOWN_SEEN`): a contract line of
    thousands of places each telling of its 点心 walked every 一张点心 of the prose again for each (800 places over
    6,000 of them: 20 s; A13, stop 54)."""
    seen: dict[str, bool] = _KNOWN_SEEN.of(body, dict)
    hit = seen.get(word)
    if hit is None:
        hit = seen[word] = any(not _BROUGHT_IN.search(_CLAUSE_SPLIT.split(body[max(0, at - 20):at])[-1])
                               for at in starts_of(word, body))
    return hit


_KNOWN_SEEN = PerProse()
"""The prose :func:`_told_as_known` last read and its answers."""
_CLAUSE_SPLIT = re.compile(r"[，,。！？!?；;：:“”\n]")
"""Where :func:`_told_as_known` reads a clause before a word from."""


def _handover_told(ctx: CheckContext, thing: str, body: str, giver: str = "", receiver: str = "") -> bool | None:
    """How the prose tells a held thing a contract line hands over: ``None`` when no sentence naming it (by its name,
    another name or a shorter one: :func:`_tails`) or the one after gives it (:data:`giving.GIVING_VERBS`: 递给, 递过来,
    接过); ``False`` when it is given and a later sentence naming it has it taken back (:data:`_TAKEN_BACK`:
    把罗盘收回套子里) — a handover for a moment, nobody's 持有 changed; ``True`` when it is given and kept.
    A taking back planned, not done (再把钥匙还给他, 明天还: :data:`_PLANNED` in its clause) or done by the one it went to
    (the first name of ``receiver``, the contract line after its verb) for themselves (马春生把钥匙揣回了怀里) is none:
    only one by or to the giver (``giver``, the line before 把) counts (R54)."""
    forms = sorted({thing, *ctx.variants(thing), *_tails(ctx, thing), *_head_after_ba(ctx, thing)}, key=len, reverse=True)
    starts, ends, sentences = _SENTENCES_READ.of(body, lambda: _sentences_of(body))
    named = _sentences_naming(body, forms, starts, ends)
    given = next(((j, g) for k in named for j in (k, k + 1) if j < len(sentences)
                  for g in [GIVING.search(sentences[j])] if g is not None), None)
    if given is None:
        return None
    first, verb = given  # taken back after it: later in that sentence (递过去又收回) or in a later one naming the thing,
    # and not denied (再不要还给她, 没收回: :data:`_NEGATION` in the two characters before the verb)
    takers = _forms_of(ctx, receiver)
    givers = _forms_of(ctx, giver)
    return not any(not _NEGATION.search(sentences[k], max(0, m.start() - 2), m.start())
                   and _back_done(sentences[k], m, givers, takers)
                   for k in named if k >= first
                   for m in _TAKEN_BACK.finditer(sentences[k], verb.end() if k == first else 0))


def _head_after_ba(ctx: CheckContext, thing: str) -> tuple[str, ...]:
    """A held thing by its one-character head after 把 (把笔递到他手里, 把笔要了回去 for 描金笔): 把 puts a thing the
    reader already knows before its verb, so the head alone is that one — when the name is longer than its head,
    no other name or thing the book knows ends with it and the head names nothing itself (K3, stop 55)."""
    head = thing[-1:]
    if len(thing) < 2 or head in ctx.aliases or not _only_head(ctx, thing):
        return ()
    return (f"把{head}",)


def _only_head(ctx: CheckContext, thing: str) -> bool:
    """Whether no other name or held thing of the book ends with ``thing``'s last character: looked up in the book's
    :func:`_name_ends`, the one reader of "no other name ends with it" (:func:`_tails`'s), not every name tried for each
    handed thing (lines × things: R55, stop 55)."""
    canonical = ctx.aliases.get(thing, thing)
    return not any(o != thing and ctx.aliases.get(o, o) != canonical for o in _name_ends(ctx).ending_with(thing[-1]))


_SENTENCES_READ = PerProse()
"""The prose :func:`_handover_told` last read and :func:`_sentences_of` it."""


def _sentences_of(body: str) -> tuple[list[int], list[int], list[str]]:
    """The starts, the ends and the text of each :data:`SENTENCE` of ``body``: split once a prose, not once for each
    handover line (hundreds of them; A14, stop 55)."""
    found = list(SENTENCE.finditer(body))
    return [m.start() for m in found], [m.end() for m in found], [m.group() for m in found]


def _sentences_naming(body: str, forms: Iterable[str], starts: list[int], ends: list[int]) -> list[int]:
    """The indexes, in order, of the sentences (``starts``/``ends`` of :func:`_sentences_of` of this ``body``) holding
    one of ``forms`` whole: each form's sentences read once a prose (:class:`_Naming`), not every sentence searched for
    every form of each handover line's thing, nor the whole prose searched again for each line's forms."""
    if "" in forms:
        return list(range(len(starts)))
    naming = _NAMING_READ.of(body, lambda: _Naming(body, starts, ends))
    named: set[int] = set()
    for form in forms:
        named.update(naming.of(form))
    return sorted(named)


FIND_MAX = 64
"""Up to this many forms are looked for in a prose by ``str.find`` (:class:`_Naming`); more, through its pieces."""


class _Naming:
    """The sentences of one prose naming each form asked of it, each form's read once: its mentions found by
    ``str.find`` for the first :data:`FIND_MAX` forms, then through the prose cut once into pieces of two characters
    (:class:`~lw_storyrepo.wordsre.Spots`) — hundreds of handover lines, each searching the whole prose for each form
    of its thing, cost lines × the prose (A16, stop 56). A mention counts in the sentence it starts in when it ends
    there too."""

    def __init__(self, body: str, starts: list[int], ends: list[int]) -> None:
        self.body, self.starts, self.ends = body, starts, ends
        self.named: dict[str, tuple[int, ...]] = {}
        self.spots: Spots | None = None

    def of(self, form: str) -> tuple[int, ...]:
        """The indexes of the sentences holding ``form`` (not empty) whole, in order."""
        known = self.named.get(form)
        if known is None:
            if self.spots is None and len(self.named) >= FIND_MAX:
                self.spots = Spots(self.body, cut=2)
            at_all = self.spots.every(form) if self.spots is not None else _all_starts(form, self.body)
            inside = {k for at in at_all for k in [bisect_right(self.starts, at) - 1]
                      if k >= 0 and at + len(form) <= self.ends[k]}
            known = self.named[form] = tuple(sorted(inside))
        return known


def _all_starts(word: str, text: str) -> list[int]:
    """Every start of ``word`` (not empty) in ``text``, overlapping ones too, by ``str.find``."""
    out: list[int] = []
    at = text.find(word)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + 1)
    return out


_NAMING_READ = PerProse()
"""The prose :func:`_sentences_naming` last read and its :class:`_Naming`."""


def _forms_of(ctx: CheckContext, text: str) -> tuple[str, ...]:
    """Every form (:meth:`CheckContext.variants`) of the first name a piece of a contract line names, longest first."""
    who = next((t for t in ctx.contract_terms_in(text) if ctx.is_person(t)), None)
    return tuple(sorted(ctx.variants(who), key=len, reverse=True)) if who is not None else ()


def _back_done(sentence: str, back: re.Match[str], givers: tuple[str, ...], takers: tuple[str, ...]) -> bool:
    """Whether a taking back (:data:`_TAKEN_BACK`) is one done, by or to the giver: not planned in its clause
    (:data:`_PLANNED`: 再把钥匙还给他, 明天还; 还给了 is done), and not the receiver (``takers``: their forms), named before
    the giver in its clause, keeping it (揣回了怀里) rather than giving it back (:data:`_GIVEN_BACK`: 还给, 递还)."""
    clause = sentence[max(sentence.rfind(c, 0, back.start()) for c in _CLAUSE_ENDS) + 1:back.start()]
    if _PLANNED.search(clause) and not sentence.startswith("了", back.end()):
        return False
    first = {f: clause.find(f) for f in (*takers, *givers) if f in clause}
    if not first or _GIVEN_BACK.search(back.group()):
        return True
    return min(first, key=lambda f: first[f]) not in takers


_CLAUSE_ENDS = "，,；;：:“"
_PLANNED_ALSO = ("再", r"(?<!一)会(?!儿)", "记得", "明早", "明年", "改天", "改日", "过几天", "过两天", "以后", "往后", "日后",
                 "到时", "将来", "将要", "即将", "迟早", "早晚", "下回", "下次")
""":data:`_PLANNED`'s own words beyond the shared :data:`~lw_storyrepo.continuity.PLAN_WORDS`: a doing again (再),
a 会 that is no while (一会儿), and more days ahead."""
_PLANNED = re.compile("|".join((*PLAN_WORDS, *_PLANNED_ALSO)))
"""Words in a taking back's clause that make it planned, not done (再把钥匙还给表叔, 要还, 明天还: R54)."""
_GIVEN_BACK = re.compile(r"还|[递交送退]了?回")
"""A taking back that gives the thing back (还给, 递还, 交回), whoever does it — not one keeping it (揣回, 收回)."""


def _holds_already(ctx: CheckContext, receiver: str, thing: str) -> bool:
    """Whether the one a handover line gives ``thing`` to (the first name of ``receiver``, the line after its
    verb) already holds it by their card: the book has it changed hands, the draft tells how (a flashback)."""
    who = next((ctx.aliases.get(t, t) for t in ctx.contract_terms_in(receiver)), None)
    card = ctx.world.cards.get(who or "", {}) if ctx.world is not None else {}
    return thing in {str(v) for v in as_list(card.get("持有"))}


_HANDOVER = re.compile(rf"把(?P<what>[^，。；]+?)(?:{alternation(HANDOVER_VERBS)})")
"""A contract line that hands a thing over (郑德明把仓库钥匙交给陈志远), or a task, a place on a list,
a post (严崇把带新弟子的差事交给陆青崖, 场长把育种的活派给李春生)."""
_FILLER = re.compile(r"[^\u4e00-\u9fff]|[的了着过和与跟同及之这那其]")


_KIN_WORDS = frozenset(w for w in [*WORDS, *(f for forms in FORMS.values() for f in forms)] if len(w) >= 2)


def pairs(text: str) -> set[str]:
    """Every two neighbouring Chinese characters of ``text``."""
    return {text[k:k + 2] for k in range(len(text) - 1) if "\u4e00" <= text[k] <= "\u9fff" and "\u4e00" <= text[k + 1] <= "\u9fff"}


_PAIRS_SEEN = PerProse()
"""The prose :func:`_pair_spots` last indexed: its index and which pairs :func:`_refused` found refused in
it — every pair of every contract line is looked up, not searched."""
_DESCRIBED_SEEN = PerProse()
"""The prose :func:`_described_people` last read and the people it points at unnamed."""


def _pairs_read(body: str) -> tuple[dict[str, list[int]], dict[tuple[str, bool], str | None]]:
    return _PAIRS_SEEN.of(body, lambda: (_index_pairs(body), {}))


def _index_pairs(body: str) -> dict[str, list[int]]:
    spots: dict[str, list[int]] = {}
    for k in range(len(body) - 1):
        if "\u4e00" <= body[k] <= "\u9fff" and "\u4e00" <= body[k + 1] <= "\u9fff":
            spots.setdefault(body[k:k + 2], []).append(k)
    return spots


def _pair_spots(body: str) -> dict[str, list[int]]:
    """Where each pair of neighbouring Chinese characters stands in the prose, indexed once per prose
    (a contract of many lines, a line of many words: one dict lookup a pair, never a search of the draft)."""
    return _pairs_read(body)[0]


EVENT_WORDS_MIN = 5
"""How many telling pairs an event line needs before prose that writes none of them is warned: a line that
says little (送来太后的信, 讥讽) may be told in other words that share no pair; one that says who, where, how long
and what (当众罚…在凤仪宫外的雪地里跪一个时辰) leaves words any telling of it repeats (雪地, 时辰, 罚跪)."""
_NEGATION = re.compile(r"没有|没|不|未|别|免")

NOT_TELLING = frozenset("一二两三四五六七八九十几半每百千万他她它我你咱俺们自己")
"""Characters whose pairs tell no event (一个, 给她, 他们): numbers and persons, any line has them."""


_SAID = re.compile(f"{SAY}|{KNOW}|说起|提起|提到|谈起|聊起|讲起")
"""What makes a contract line something said or known, not an event (:func:`_is_event`). C2's reading of 叫 + a name as
an order (打开金库，叫贺春生帮着…; one book) was withdrawn by the lead at stop 59: it added a false alarm on a blind book."""


def _is_event(ctx: CheckContext, text: str) -> bool:
    """Whether a contract line without a promise id is an event of people: it names a person the book
    knows and asks no appearance (出场), no promise move, nothing only a lens can judge (:data:`REVIEW_WORDS`),
    no move to a place (:data:`GO_TO`: the place rules'), no speech or thought (:data:`SAY`, :data:`KNOW`) outside its
    names (张道深 is no 道)."""
    if APPEAR.search(text) or any(word in text for word in REVIEW_WORDS) or any(word in text for word, _k in MOVE_WORDS):
        return False
    bare = ctx.terms_re().sub("，", text)
    if _SAID.search(bare):
        return False  # what someone says, asks or learns is told in any words (the leak and lens checks read it)
    names = ctx.contract_terms_in(_QUOTED.sub("，", text))
    places = ctx.world.places if ctx.world is not None else set()
    if any(GO_TO.search(text[max(0, m.start() - 2):m.start()]) and not (m.group() in places and text[m.end():m.end() + 1] == "的")
           for m in ctx.terms_re().finditer(text)):
        return False  # a move to a place (回到栖霞宗, 去太医院, 去柳三娘的药寮): the place rules' (_only_meant); 去临安的三个人 names people
    return any(ctx.is_person(t) for t in names)


def _event_words(ctx: CheckContext, text: str, book_words: bool = False) -> frozenset[str]:
    """What an event line says happens, apart from who and where: the pairs of characters of its words
    once the names the book knows, quoted terms, fillers (:data:`_FILLER`), numbers and persons
    (:data:`NOT_TELLING`) are taken out, and no pair the book's own text holds (a word the book uses
    everywhere tells nothing). 贵妃当众罚林知微在凤仪宫外的雪地里跪一个时辰 → 当众, 雪地, 时辰…: the
    prose tells the event in other words when it writes any of them (罚跪, 雪地, 一个时辰 — not 跪 alone).
    Many of these pairs straddle two words (众罚, 在渠, 边教): they are looked for, but how much a line says is
    counted by :func:`_event_word_count`."""
    book = frozenset() if book_words else ctx.book_pairs()  # book_words: the book's own words kept (_event_untold)
    return frozenset(pair for run in _event_runs(ctx, text) for pair in pairs(run)
                     if pair not in book and not NOT_TELLING.intersection(pair))


def _event_untold(ctx: CheckContext, text: str, body: str, cuts: dict[str, tuple[int, ...]] | None = None,
                  book_words: bool = False) -> frozenset[str] | None:
    """An event line's words (:func:`_event_words`) when it says enough of them (:data:`EVENT_WORDS_MIN`, and
    :data:`EVENT_DICT_WORDS_MIN` of the dictionary's) and the prose writes none: the event is not told. ``None`` else.
    ``book_words``: the words the book's own text uses are the line's too (the pump and the cylinder liner of a
    drilling book) — asked only when the one who does the act is nowhere in the prose either, where a word the
    book uses everywhere, absent from this draft, tells that the act is absent as well."""
    words = _event_words(ctx, text, book_words)
    if len(words) >= EVENT_WORDS_MIN and not any(w in _pair_spots(body) for w in words) \
            and _event_word_count(ctx, text, cuts, book_words) >= EVENT_DICT_WORDS_MIN:
        return words
    return None


def _act_untold(ctx: CheckContext, text: str, body: str, cuts: dict[str, tuple[int, ...]]) -> frozenset[str] | None:
    """What of an event line's act the prose never writes, asked where a name of the line is nowhere either: its words
    (:func:`_event_untold`, the book's own words counted), or the object of an act one person does with or for another
    (:func:`_led_act_untold` under :data:`ACTS_WITH`: A教B用喷灯烤…的油管 — 油管). ``None`` when something of it is told."""
    words = _event_untold(ctx, text, body, cuts, book_words=True)
    if words is not None:
        return words
    head = _led_act_untold(ctx, text, body, ACTS_WITH)
    return frozenset((head,)) if head is not None else None


def _event_runs(ctx: CheckContext, text: str) -> list[str]:
    """The runs of an event line :func:`_event_words` reads: what is left between its names, quoted terms and fillers."""
    rest = ctx.terms_re().sub("，", _QUOTED.sub("，", text))
    return [run for run in _FILLER.split(rest) if len(run) >= 2]


LEADS = re.compile(r"(?:带|领|引)(?:着|上|领着?)?$")
"""A contract line's leading of one person by another (A带B…, A带着B…, A带领B…, A领B…, A引着B…): the word between the
line's first two persons. What follows the companion is the event's own parts: where or for what (到锅炉间后头, 给汽铲,
在管架上), then the act and its object (看旧裂口, 换斗齿) — :func:`_led_act_untold` reads the object. Leading only: a line
of teaching, keeping company or helping (A教B…, A陪B…, A帮B…) is read so only where a thing of it is missing too
(:data:`ACTS_WITH`)."""
ACTS_WITH = re.compile(r"(?:带|领|引|教|陪|替|帮|给|跟|同|和|随|扶)(?:着|上|领着?)?$")
"""The words between a line's first two persons of any act the one does with, for or to the other (A教B用喷灯烤…, A陪B去…,
A替B…, A帮B…, A同B…): where a thing or place the line names is nowhere in the prose and the act's object is nowhere either
(:func:`_led_act_untold`), the finding names the event, not the thing (c5, stop 62). Not a warning of its own: such acts
are told in other words often (教人作策论 told as 破题; 陪人烧纸 as 烧点纸) — only leading (:data:`LEADS`) is."""
COMMON_NOUN_TAGS = frozenset(("n", "nz", "ng", "nl"))
"""Dictionary tags of a common noun, an act's possible object (裂口, 麻袋): not a place's or a person's name (the
dictionary tags 上香 a place and 洪水 a name), not a verb (点卯)."""
VERB_THEN_ONE = ("v", "f")
"""Dictionary tags of the first of a line's last two characters that make them a verb (or a direction) with a
one-character object (放树, 钉掌, 点卯, 上香, 堆防滑沙 → 滑沙), not an object noun of two characters (裂口, 斗齿, 缸套):
such an act is told in other words (砍树, 烧香, 挂号), so its two characters prove nothing absent."""


def _led_act_untold(ctx: CheckContext, text: str, body: str, leads: re.Pattern[str] = LEADS) -> str | None:
    """The object of a led event's act (A带B…的旧裂口 → 裂口; A带B给汽铲换斗齿 → 斗齿) when the prose writes none of the act's
    nouns: the two people may be there together and the place reached, but the thing the act is done to is never
    written, so the act is not told (c4, stop 61: the lines' parts — doer, companion, place, act and object — not their
    words). The line must open with a person, :data:`LEADS`, a person; its act's object is its last two characters
    (after the names and fillers of :func:`_event_runs`) when they may be an object (:func:`_object_word`: not a verb
    with a one-character object, 放树, 钉掌, 点卯); told when the prose writes it, or any other word of the act that may be its object
    (:func:`_object_word`: 垒麻袋挡塌方 — 麻袋 told) apart from a word of place parts only (后头, 底下:
    :data:`propernouns.LOCALIZERS`), or a name of the book in the act, not right after a link (赶王爷庙的庙会: 王爷庙
    named). The act starts at the first verb after the companion that is no link
    (:func:`_opens_act`); with none, after the first link and its one word (给拖拉机|换刹片), else at the companion.
    A person inside the act is whose its object is (看某某留下的铺盖), not where it is told: named, the object is still
    unwritten (c5, stop 62). ``leads``: the words between the two persons read (:data:`LEADS`, or :data:`ACTS_WITH`).
    ``None`` when told, or when the line is not of this shape."""
    names = list(ctx.terms_re().finditer(text))
    if len(names) < 2 or names[0].start() != 0 or not leads.search(text[names[0].end():names[1].start()]) \
            or not ctx.is_person(names[0].group()) or not ctx.is_person(names[1].group()) or LINE_FORBIDS.search(text):
        return None
    runs = _event_runs(ctx, text[names[1].end():])
    if not runs or not text.endswith(runs[-1]):
        return None  # the line ends on a name or a filler: no object of its own to read
    head = runs[-1][-2:]
    lex = lexicon()
    if not _object_word(lex.tags, head) and not text.endswith("的" + head):  # after 的 a noun, whatever its tag (铺盖)
        return None
    # the act starts at the first verb after the companion that is no link (给, 到, 在: where or for what) — the nouns
    # of the where (拖拉机 of 给拖拉机换刹片) are not the act's
    words = [run[a:b] for run in runs for a, b in itertools.pairwise(sorted(lex.boundaries(run) | {len(run)}))]
    link = next((i + 2 for i, w in enumerate(words) if w in ACT_LINKS), 0)  # 给拖拉机|换刹片: a link, its one word
    act = next((i for i, w in enumerate(words) if _opens_act(lex.tags, w)), link if link < len(words) else 0)
    nouns = {head, *(w for w in words[act:] if len(w) >= 2 and not LOCALIZERS.issuperset(w) and _object_word(lex.tags, w))}
    if any(n in body for n in nouns):
        return None
    # a name of the book inside the act (赶王爷庙的庙会, 看邱满仓留下的车: not after a link, 到锅炉间, 给汽铲 — the where)
    # named by the prose: the act's thing is told by its owner or its place (王爷庙赶会)
    inside = [m.group() for m in names[2:] if not any(text.endswith(link, 0, m.start()) for link in ACT_LINKS)
              and not ctx.is_person(ctx.aliases.get(m.group(), m.group()))]
    return None if any(_named_in(v, body) for t in inside for v in ctx.variants(ctx.aliases.get(t, t))) else head


def _opens_act(tags: dict[str, str], word: str) -> bool:
    """Whether a word after a led event's companion opens its act: a dictionary verb that is no link (:data:`ACT_LINKS`:
    给, 到, 在). With none (换刹片 is no dictionary word), the act starts after the first link and its one word."""
    return tags.get(word, "").startswith("v") and word not in ACT_LINKS


def _object_word(tags: dict[str, str], word: str) -> bool:
    """Whether a word of a led event's act may be what the act is done to: a common noun of the dictionary
    (:data:`COMMON_NOUN_TAGS`: 屋顶, 麻袋, 裂口), or a word the dictionary does not know that opens on no verb or
    direction (:data:`VERB_THEN_ONE`: 斗齿, 缸套; not 换斗齿, 拐垒, 滑沙, 钉掌)."""
    tag = tags.get(word)
    return tag in COMMON_NOUN_TAGS if tag is not None else tags.get(word[0]) not in VERB_THEN_ONE


def _event_word_count(ctx: CheckContext, text: str, cuts: dict[str, tuple[int, ...]] | None = None,
                      book_words: bool = False) -> int:
    """How many words an event line says besides its names (:func:`_event_words`' pairs, counted as the dictionary
    cuts them: only a pair inside one word, :func:`word_pairs`). 在河边教徒弟撒网 slices into 在河, 河边, 边教, 徒弟,
    弟撒, 撒网 but says 河边, 徒弟, 撒网: a line of a verb and its object and a place says two or three words, whatever
    its slices (K6, stop 57: :data:`EVENT_DICT_WORDS_MIN`). ``cuts``: the line's segmented runs (:func:`word_pairs`)."""
    book = frozenset() if book_words else ctx.book_pairs()
    return len({pair for run in _event_runs(ctx, text) for pair in word_pairs(run, cuts)
                if pair not in book and not NOT_TELLING.intersection(pair)})


EVENT_DICT_WORDS_MIN = 3
"""How many of the dictionary's words (:func:`_event_word_count`) an event line must say, besides its five telling
pairs (:data:`EVENT_WORDS_MIN`), before prose that writes none of them is warned (K6, stop 57). A line of two words
(a verb and its object: bring lunch to a site, tell a fortune by drawing lots, mock someone in public) is told in
other words as often as in its own (the lunch carried in a basket of rice boxes, the ridge banked by the spade).
Read from the development pool's event lines that share no pair with their prose: in seven books every good draft's
line says two such words or none; every line whose event never happens says three or more (a public punishment in the
snow for an hour; an engine stalled and mended in the dark)."""


def word_pairs(run: str, cuts: dict[str, tuple[int, ...]] | None = None) -> set[str]:
    """The pairs of neighbouring characters of ``run`` that stand inside one word of the dictionary's cut
    (:meth:`propernouns._Lexicon.boundaries`): 打埂放水 → 打埂, 放水 (not 埂放); 当众罚 → 当众 (not 众罚). ``cuts``:
    the runs already segmented (``boundaries``' own), shared by the readers of one line so each run is cut once."""
    bounds = lexicon().boundaries(run, cuts=cuts)
    return {run[k:k + 2] for k in range(len(run) - 1) if k + 1 not in bounds
            and "\u4e00" <= run[k] <= "\u9fff" and "\u4e00" <= run[k + 1] <= "\u9fff"}


def _handed_words(ctx: CheckContext, what: str) -> frozenset[str]:
    """The pairs that tell what a handover gives (its kind, 差事 of 带新弟子的差事, and its pairs the book's
    text does not hold): the words :func:`_untold` looks for."""
    runs = [run for run in _FILLER.split(what) if len(run) >= 2]
    book = ctx.book_pairs()
    return frozenset({runs[-1][-2:]} if runs else set()) | {pair for run in runs for pair in pairs(run) if pair not in book}


TAKEN_BACK = re.compile(r"(?:塞|揣|收|装|放)了?回了?[^，,。！？]{0,4}?(?:兜|怀|袖|包|口袋|衣袋|抽屉|领口|衣领|腰间)")
"""A thing held out and put back where it came from (把请帖塞回了内兜, 把帖子又揣回了怀里, a key on its string
塞回了领口里): not handed over."""
_TAKEN_BACK = re.compile(f"{alternation(TAKE_BACK_VERBS)}|{TAKEN_BACK.pattern}")
"""A thing back with the one who had it: taken back (:data:`giving.TAKE_BACK_VERBS`: 收回, 递还) or put back where it
came from (:data:`TAKEN_BACK`) — after a handover, one for a moment (:func:`_handover_told`)."""
PUT_BACK = f"推了回去|推回|{TAKEN_BACK.pattern}"
"""A thing pushed or put back (推回来, 塞回了内兜): a refusal of a giving or a showing only (:data:`GIVES_OR_SHOWS`)."""
REFUSE_ACT = re.compile(r"(?:没有|没|不|未|并未|从未)(?:能)?(?:肯|愿意|答应|同意|应允|给|交|借|批|把|松口|点头)|拒绝|回绝|婉拒|谢绝|"
                        r"推辞|驳回|摇头|摇了摇头|作罢|不了了之|没成|落空|泡汤|"
                        r"(?:没|不)(?:松手|撒手|松开)")
"""What tells that an act was refused or did not happen, whatever the act (没肯, 拒绝, 摇了摇头, 作罢)."""
REFUSE = re.compile(f"{REFUSE_ACT.pattern}|{PUT_BACK}")
"""What tells that a request was refused or a thing did not happen (没给, 不肯, 没把…交给, 拒绝, 推了回去, 没答应,
没借, 摇了摇头, 作罢; held out but not let go, put back in a pocket: 又没松手, 把请帖塞回了内兜): a class of negated
consent and giving, not the words of one draft. An order (不许弄丢,
别给人看, 不准声张) is no refusal: it follows a thing given."""
NEGATED = re.compile(r"(?:没有|没|不|未|并未|从未|别|免了)$")
"""A word right before what the event says (没罚, 免了罚): it did not happen."""
YIELDED = re.compile(r"(?:还是|终于|到底|终究|最后|最终|只好|只得|才)[^。！？!?]{0,6}?(?:给|交|借|批|递|塞|答应|同意|点头|松口|应了|收下|接过|罚|办)")
"""A refusal that gives way after all (起初不肯，后来还是交给了她): the event happened."""
GIVES_OR_SHOWS = re.compile(f"{alternation(SHOW_VERBS)}|{alternation(HANDOVER_VERBS)}"
                            r"|(?:给|让|叫|请)[^，,。；;！？!?]{1,6}?(?:看(?![守管护家门病望])|瞧(?!病)|过目|验|认(?![识得错为真]))"
                            r"|出示|亮给|拿给|交验|呈上|呈给|呈交")
"""An event line whose act passes a thing to someone or holds it out before them (把汇票拿出来递给他, 拿给他看, 亮出腰牌):
the only acts a thing put back (:data:`PUT_BACK`: 又塞回了怀里, 推回来) refuses — a showing said with any verb of one
(让他看, 叫他认, 出示, 亮给, 交验: fc3, stop 60), not a looking after (看守, 看病). Any other act (记日志, 点现洋, 念给她听, 在舱口
望风) is done with things that are put away after it — a diary back in its drawer, a needle up a sleeve, a snuff bottle back
in a pocket, a paper pushed back by one who cannot read — and none of that says the act was refused (c3, stop 60: five
books' false alarms, 十九, 二十三, 三十四, 四十三, 四十六)."""


def _telling(body: str, k: int) -> tuple[int, int]:
    """Where the telling at ``k`` is read: from its sentence's start to the end of the next sentence."""
    start = span_start(FULL_WIDTH_STOP, body, k, 60)
    ends = [m.start() for m in FULL_WIDTH_STOP.finditer(body, k, min(len(body), k + 120))]
    return start, ends[1] + 1 if len(ends) > 1 else (ends[0] + 1 if ends else min(len(body), k + 120))


def _refused_at(body: str, k: int, put_back: bool = True) -> bool:
    """Whether the telling at ``k`` is refused or negated: the word before it negates it (没罚), or its sentence
    and the next one refuse (:data:`REFUSE`; :data:`REFUSE_ACT` when a thing put back refuses nothing, ``put_back``
    false) and do not give way after (:data:`YIELDED`)."""
    start, end = _telling(body, k)
    if NEGATED.search(body[max(start, k - 2):k]):
        return True
    window = body[start:end]
    refusals = list((REFUSE if put_back else REFUSE_ACT).finditer(window))
    return bool(refusals) and not YIELDED.search(window, refusals[-1].end())


def _refused(ctx: CheckContext, words: frozenset[str], body: str, put_back: bool = True) -> str | None:
    """The sentence that refuses the event when every telling of it (a pair of ``words`` in the prose) is
    refused or negated (:func:`_refused_at`): 那差事他没交给陆青崖, or the last telling of one puts it back where
    it came from (:data:`TAKEN_BACK`: held out, then 塞回了内兜); ``None`` when one telling stands (or none
    is there: that is :func:`_untold`'s). ``put_back`` false: the event gives and shows nothing
    (:data:`GIVES_OR_SHOWS`), and a thing put back refuses none of it. Each pair's tellings are read once per prose."""
    spots, seen = _pairs_read(body)
    found = [w for w in words if w in spots]
    if not found:
        return None
    for word in found if put_back else ():  # the last telling of the thing puts it back in a pocket: not given
        start, end = _telling(body, spots[word][-1])
        back = TAKEN_BACK.search(body, start, end)
        if back is not None and not YIELDED.search(body, back.end(), min(len(body), back.end() + 120)):
            return body[start:back.end()].strip()[-40:]
    evidence = None
    for word in found:
        if (word, put_back) not in seen:
            at = spots[word]
            seen[(word, put_back)] = None if not all(_refused_at(body, k, put_back) for k in at) \
                else body[at[0]:at[0] + 40].split("\n")[0]
        if (told := seen[(word, put_back)]) is None:
            return None
        evidence = evidence or told
    return evidence


CALLED_OFF = re.compile(r"(?:回头|明天|明儿|明早|明日|改日|改天|下回|下次|以后|过两天|过几天)[^，,。！？；;“”\n]{0,6}再(?:说|讲|议|办|定|商量)|"
                        r"(?:^|(?<=[“「\n]))等[^，,。！？；;“”\n等]{1,8}?再(?:说|讲|议|办|定|商量)(?=[。！？!?…”」])|"
                        r"(?:今天|今日|今晚|今儿|今夜|这回|这趟)[^，,。！？；;“”\n]{0,4}"
                        r"(?:去不成|走不成|走不了|去不了|上不去|下不去|过不去|不走了|不去了|不开了|开不成|办不成|做不成)")
"""What puts an act off or calls it off for the day, in general words: a later time then 再说/再议 (回头再说, 明天验了再说,
以后再说) or a condition waited for then 再说, said as a whole utterance (“等天晴了再说。”, “等他回来再商量！” — not a put off told
of the past or quoted from a letter, 他说等…再说, 叫他等…再说, 参不对，等…再讲: c3, stop 60), or today's going given up (今天去不成了, 今天是上不去了, 今晚不走了). An event line the prose writes this of has
not happened in the draft: asked (a warning), never refused — a draft may put off one thing and do the line's."""


PUT_OFF_REACH = 2
"""How many sentences before a putting off (:data:`CALLED_OFF`) of its paragraph may name what is put off (阿木…往鹰嘴崖走。
走到半山…。他抹了把脸：今天是上不去了。)."""


def _put_off_event(ctx: CheckContext, text: str, body: str, offs: list[re.Match[str]],
                   cuts: dict[str, tuple[int, ...]] | None = None) -> re.Match[str] | None:
    """The first putting off of the prose (``offs``: :data:`CALLED_OFF`'s matches) that is the contract line's own event's:
    its telling (:func:`_telling`) and the :data:`PUT_OFF_REACH` sentences before it in its paragraph name one of the
    line's people or places (by any of their forms) or one of its event words (:func:`_event_words`: 龙骨, 阀门), and no
    sentence before its telling tells the event done (:func:`_told_done_before`).
    Another matter put off (胡掌柜说：“药钱回头再说。”) leaves the line's event as the prose tells it, or does not; so does
    one put off after the event is done (换了灯泡…问起工钱：“等月底再说。” — fc3, stop 60)."""
    forms = [v for t in dict.fromkeys(ctx.contract_terms_in(_QUOTED.sub("，", text))) for v in ctx.variants(t)]
    words = _event_words(ctx, text)
    acts = functools.cache(lambda: _line_acts(ctx, text, cuts))
    return next((off for off in offs if _line_told_near(forms, words, body, off.start())
                 and not _told_done_before(acts(), words, body, _telling(body, off.start())[0])), None)


_NOT_YET_DONE_ALSO = ("未", "甭", "莫", "等", "将", "就", "再", "才")
""":data:`NOT_YET_DONE`'s own words beyond the shared :data:`~lw_storyrepo.continuity.PLAN_WORDS` and
:data:`~lw_storyrepo.continuity.UNDONE_WORDS`: a not yet, a bar, a waiting, a then (只等…一到，就开船)."""
_NOT_YET_DONE_NOT = ("得", "回头")
"""Words of the shared not-yet tables that :data:`NOT_YET_DONE` leaves out: read anywhere before the act in its sentence
they are as often another word's (觉得, 记得, 麻利得很; 回头看了看 — turning one's head) and would unsay a plain 换了灯泡
(fm1, stop 61, R61's m1-4)."""
NOT_YET_DONE = re.compile("|".join(w for w in (*PLAN_WORDS, *UNDONE_WORDS, *_NOT_YET_DONE_ALSO)
                                   if w not in _NOT_YET_DONE_NOT))
"""What, anywhere before an act in its sentence, may say it is not done (yet): negated (没换), wanted or planned (要换,
打算抄), waited for (只等…一到，就开船): such a telling of a line's act is no telling that the event is done
(:func:`_told_done_before`). Read broadly on purpose — a done act it misses leaves the putting off read as before."""


def _told_done_before(acts: list[str], words: frozenset[str], body: str, end: int) -> bool:
    """Whether a sentence of the prose before ``end`` tells a contract line's event done: it says one of the line's acts
    (``acts``: :func:`_line_acts`, 换, 抄) told done (:data:`ACT_DONE`: 换了, 抄进) and one of its event words (``words``:
    :func:`_event_words`, 灯泡, 记录), with no word of :data:`NOT_YET_DONE` (没, 要, 等, 就…) before that act in the sentence. A putting off after it is
    of something else."""
    if not acts or not words:
        return False
    start = 0
    for stop in [*FULL_WIDTH_STOP.finditer(body, 0, end), None]:
        sentence = body[start:stop.end() if stop is not None else end]
        start = stop.end() if stop is not None else end
        if any(w in sentence for w in words) and any(
                not NOT_YET_DONE.search(sentence, 0, m.start()) for act in acts
                if (m := re.search(ACT_DONE.format(act=re.escape(act)), sentence)) is not None):
            return True
    return False


def _line_told_near(forms: list[str], words: frozenset[str], body: str, k: int) -> bool:
    """Whether the telling at ``k`` (:func:`_telling`) and the :data:`PUT_OFF_REACH` sentences before it in its
    paragraph name one of a contract line's people, things or places (``forms``: all their forms) or one of its event
    words (``words``: :func:`_event_words`)."""
    start, end = _telling(body, k)
    para = body.rfind("\n", 0, start) + 1
    for _ in range(PUT_OFF_REACH):
        if start <= para:
            break
        start = max(para, *(body.rfind(stop, para, start - 1) + 1 for stop in FULL_WIDTH_STOPS))
    near = body[start:end]
    return any(_named_in(v, near) for v in forms) or any(w in near for w in words)


ACT_LINKS = frozenset([*"在给让叫把被将对替跟和向为帮使令请上下去来到是有说要起出进回过",
                       *(a + b for a in "起出进回过上下" for b in "来去")])
"""Verbs of the dictionary that link an event line's parts or only give an act its direction rather than say the act
(在轮机厂, 给某某, 叫某某, 爬上, 封起来, 搬出来): never read as the act :func:`_line_act_given_up` looks for."""


LINE_FORBIDS = re.compile(f"{_NEGATION.pattern}|莫|甭")
"""A line that itself negates or forbids its act (叫某某夜里莫再摇驼铃, 没有开除): the act not done is what it asks, no
giving up to find (:func:`_line_act_given_up`)."""
ACTS_EVERYWHERE = frozenset("看听走拿做想问找等坐站吃喝弄搞叫喊用")
"""Verbs of one character any scene does for anything (看, 拿, 等): an event line's act only in a longer word (查看),
never alone — 明天拿给我看 is a request, not the line's 看新挡墙 put off."""


def _line_acts(ctx: CheckContext, text: str, cuts: dict[str, tuple[int, ...]] | None = None) -> list[str]:
    """The acts an event line says: the words of its runs (:func:`_event_runs`) the dictionary tags a verb (打开, 碾, 熄火),
    or a two-character word it does not know whose first character is one (试汽 → 试), apart from :data:`ACT_LINKS` and
    :data:`ACTS_EVERYWHERE`."""
    lex = lexicon()
    acts: list[str] = []
    for run in _event_runs(ctx, text):
        ends = sorted(lex.boundaries(run, cuts=cuts) | {len(run)})
        for a, b in zip(ends, ends[1:]):
            word = run[a:b]
            tag = lex.tags.get(word)
            act = word if tag is not None and tag.startswith("v") else \
                word[0] if tag is None and len(word) == 2 and lex.tags.get(word[0], "").startswith("v") else None
            if act is not None and act not in ACT_LINKS and act not in ACTS_EVERYWHERE and act not in acts:
                acts.append(act)
    return acts


def _line_act_given_up(ctx: CheckContext, text: str, body: str,
                       cuts: dict[str, tuple[int, ...]] | None = None) -> re.Match[str] | None:
    """An event line's own act (:func:`_line_acts`: 打开金库 → 打开, 给锅炉试汽 → 试, 蹬药碾碾川芎 → 碾) that the prose gives up at
    its last telling (:func:`act_given_up`'s frames: 不碾了, 明天再试, 经藏不开), where that telling or the sentences before
    it name the line's people, things or event words (:func:`_line_told_near`): the event never happens (C2, stop 59:
    four books' lines whose act the prose puts off or refuses, the thing and the person there). ``None`` when no act is
    given up, or one is done after all (:data:`ACT_DONE`)."""
    acts = _line_acts(ctx, text, cuts)
    if not acts:
        return None
    forms = [v for t in dict.fromkeys(ctx.contract_terms_in(_QUOTED.sub("，", text))) for v in ctx.variants(t)]
    words = _event_words(ctx, text)
    return next((off for act in acts for off in _givings_up(_act_pattern(act), body)
                 if _line_told_near(forms, words, body, off.start())
                 and (act in off.group() or _thing_in_clause([*forms, *_objects(text, act, words)], body, off))), None)


PUT_BACK_HANDS = "放塞揣推插挂搁掖藏"
"""Verbs of a hand setting a thing down where it was, any of them before 回 (放回, 塞回了领口, 揣回腰间, 推回原处,
插回壶里, 掖回, 搁回): a thing handled for an act and then put back (:data:`THING_PUT_BACK`). Not 装回, 夹回, 别回: a part
fitted back, a slip clipped back, a pin put back end a repair or a reading done."""
THING_PUT_BACK = re.compile(rf"[{PUT_BACK_HANDS}]了?回(?!头|答|应|忆|想|味|复|合|事|了?[他她你我咱]|了?给)|"
                            r"又(?:放|搁|撂)(?:下|了回去)了?(?=[，,。！？!?；;…”」])|"
                            r"(?:没|没有|不曾)(?:解|掏|摘|取|拿)(?:下来|出来)")
"""How the prose tells a thing handled and put back, in general words: a hand verb before 回 (:data:`PUT_BACK_HANDS`:
钥匙揣回腰间, 把登记簿推回原处), set down again closing its clause (摸了摸腰上的钥匙，又放下了), or never taken off or out
(终究没解下来). Not one put back into someone's hands (塞回他手里, 推回给她): that is a giving. With the thing of a
contract line's act in its sentence and the act told done nowhere, the act was reached for and not done
(:func:`_line_act_put_back`)."""
WAVERED = re.compile(r"又|半天|犹豫|迟疑|想了想|终究|终于还是|还是没|停住|掂了掂")
"""What marks a putting back as a reach given up, in its sentence (掂了掂…又把钥匙塞回了领口; 摩挲了半天，又慢慢把它揣回腰间):
a tool put back with none of it (他把钥匙挂回腰间，领着小七进去) is the ordinary end of a use told in other words (r63-24)."""
ACT_TOOLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("开锁钥库柜箱", ("钥匙", "钥")),
    ("写签批抄记押", ("笔", "印", "章")),
    ("称秤量", ("秤", "戥子", "尺")),
    ("剪裁缝补", ("剪子", "剪刀", "针")),
    ("点烧燃", ("火柴", "火镰", "洋火")),
)
"""What an act is done with, by the act's characters in the contract line (打开库房 → 钥匙, 签字 → 笔, 过秤 → 秤): a
tool the prose takes up and puts back is the line's act reached for and not done, though the line never names the tool."""


def _line_act_put_back(ctx: CheckContext, text: str, body: str,
                       cuts: dict[str, tuple[int, ...]] | None = None) -> re.Match[str] | None:
    """Where the prose puts back the thing an event line's act is done to or with (:data:`THING_PUT_BACK`: 又把钥匙塞回了
    领口, 把登记簿推回原处) when none of the line's acts (:func:`_line_acts`; a handover's giving too, :data:`GIVING_VERBS`)
    is told done (:func:`_act_done_of`): the thing was taken up for the act and the act never happens (t12, stop 63: five
    books' lines of opening a store, showing a register, changing a part, handing over a key, whose prose handles the key
    or the thing and puts it back). The put back's sentence must name the line's thing — a term of the line that is no
    person and no place, by any form or by its last character (坞钥 → 钥匙), a word its act is done to, or a tool of its
    act (:data:`ACT_TOOLS`) — and be near the line's people or words (:func:`_line_told_near`). ``None`` otherwise."""
    lex = lexicon()
    tags = lex.tags
    # a one-character act standing alone between a person's name and another name (郭崇念某某的信 → 念), which the
    # line's runs leave out — not a noun that may be a verb (库房的锁)
    lone = [c for m in ctx.terms_re().finditer(text) if ctx.is_person(ctx.aliases.get(m.group(), m.group()))
            and tags.get(c := text[m.end():m.end() + 1], "").startswith("v") and c not in ACT_LINKS
            and c not in ACTS_EVERYWHERE and ctx.terms_re().match(text, m.end() + 1) is not None]
    acts = list(dict.fromkeys([*_line_acts(ctx, text, cuts), *lone]))
    terms = list(dict.fromkeys(ctx.contract_terms_in(_QUOTED.sub("，", text))))
    if not acts or not any(ctx.is_person(ctx.aliases.get(t, t)) for t in terms) or USE_HEAD in text:
        return None  # no act, or no one of the book doing it; or a tool the line names (用怀表掐时辰): put away after use
    forms = [v for t in terms for v in ctx.variants(t)]
    words = _event_words(ctx, text)
    places = ctx.world.places if ctx.world is not None else set()
    held = [t for t in terms if not ctx.is_person(ctx.aliases.get(t, t)) and t not in places and t[-1] not in SPOT_ENDS]
    owned = [*(v for t in held for v in ctx.variants(t)),
             *(tool for chars, tools in ACT_TOOLS if any(c in chars for a in acts for c in a) for tool in tools)]
    ends = sorted(lex.boundaries(text, cuts=cuts) | {0, len(text)})
    named = [w for a, b in zip(ends, ends[1:]) if tags.get(w := text[a:b], "") in THING_TAGS
             and not any(w in t for t in terms if t not in held)]
    nouns = [w for w in named if w[-1] not in SPOT_ENDS]  # 卫生院, 库房: a place, not a thing put back
    unknown = [w for a, b in zip(ends, ends[1:]) if len(w := text[a:b]) == 2 and w not in tags
               and not any(w in t for t in terms if t not in held)]  # 浮箭: a word the dictionary lacks, by its head
    heads = [w[-1] for w in (*held, *nouns, *unknown)
             if len(w) >= 2 and tags.get(w[-1], "") in THING_TAGS and w[-1] not in SPOT_ENDS]
    # what may be put back: the line's own things (not its common nouns: 出矿签, 检尺账 are looked through and put back
    # whether or not the act is told in the line's words) and the tools of its act
    given = _HANDOVER.search(text)  # a handover line's thing is what it hands (把晒青房的钥匙交给… → 钥匙)
    things = [*owned, *(h[-1] for h in held if len(h) >= 2 and tags.get(h[-1], "") in THING_TAGS),
              *(n for n in nouns if given is not None and n in given.group("what"))]
    first = text.split("，")[0]
    main = [a for a in acts if a in first] or acts  # the first clause's acts: 叫他守好… after it is a bidding
    bounds = _word_bounds(body)
    if any(m.end() in bounds for a in main for m in re.finditer(re.escape(a), body)):
        return None  # the line's act word in the prose at all (我念两句, 翻四月的签, 掏出怀表): told, however it ends
    objects = [*owned, *named, *(v for t in terms if t in places for v in ctx.variants(t)), *heads]
    if _act_done_of(main, objects, body, _HANDOVER.search(text) is not None):
        return None
    for back in THING_PUT_BACK.finditer(body):
        start = span_start(FULL_WIDTH_STOP, body, back.start(), 80)
        if back.group().startswith("又"):  # set down again: the thing in the clause right before (摸了摸钥匙，又放下了)
            marks = [m.end() for m in _CLAUSE_MARK.finditer(body, start, back.start())]
            start = marks[-2] if len(marks) >= 2 else start
        if any(t in body[start:back.end()] for t in things) and WAVERED.search(body, start, back.end()) \
                and _line_told_near(forms, words, body, back.start()) \
                and _doer_at(ctx, [t for t in terms if t not in held and t not in places], body, back.start()):
            return back
    return None


def _doer_at(ctx: CheckContext, people: list[str], body: str, k: int) -> bool:
    """Whether the one putting back at ``k`` may be one of a contract line's ``people``: the nearest text before it, in
    its paragraph and then in up to :data:`DOER_REACH` paragraphs before, that names a person of the book names one of
    them (by any form) — 他又把旧箭插回壶里 after a paragraph of 郝三爷's — and not another person (小七把自家的钥匙挂回了门后)."""
    paragraphs = [p for p in reversed(body[:k].rsplit("\n", 2 * DOER_REACH + 2)) if p.strip()][:DOER_REACH + 1]
    for text in paragraphs:  # its own paragraph up to it, then those before, blank lines apart
        if any(_named_in(v, text) for t in people for v in ctx.variants(t)):
            return True
        if any(ctx.is_person(ctx.aliases.get(t, t)) for t in ctx.contract_terms_in(text)):
            return False
    return False


DOER_REACH = 3
"""How many paragraphs before a putting back :func:`_doer_at` reads for who does it, when its own names no one (a
short line of speech between, “退？”)."""


THING_TAGS = frozenset({"n", "ng", "nz"})
"""The dictionary's tags of a common noun: a word of a contract line tagged so is a thing its act may be done to or
with (浮箭 → 箭, 登记簿), not a person's or a place's name (nr, ns)."""
DONE_OBJECT_HINTS = ("它", "门", "锁")
"""What, in the clause of a one-character act told done, stands for the thing of an opening or a handing (开了锁, 打开了它,
把门开了): with the line's own things, what makes 开了 the line's act and not another (换成了一种神色, 打了个哈欠)."""


def _act_done_of(acts: list[str], things: list[str], body: str, giving: bool) -> bool:
    """Whether the prose tells one of a line's ``acts`` done (:data:`ACT_DONE`: 打开了, 换下来; the act's word or one of
    its characters, :func:`_act_pattern`) — or, for a handover line (``giving``), a verb of giving (:data:`GIVING_VERBS`:
    递给, 交到) — in a clause naming one of ``things`` or :data:`DONE_OBJECT_HINTS` (库房开了, 把旧箭换下来, 递给他钥匙),
    or with nothing after it in its clause but an aspect (终于打开了。): its object the thing told before; or the act
    right before one of ``things`` or its count (:data:`ACT_QUANTITY`) with nothing not yet done before it in its clause
    (:data:`NOT_YET_DONE`: 打开库房，搬出… and 我念一段 are narrated done; 要打开库房 is not). An act done to another object (换成了一种神色, 打了个哈欠) is another matter."""
    pattern = "|".join(_act_pattern(act) for act in acts)
    if giving and re.search(f"(?<![不没])(?:{alternation(GIVING_VERBS)})|往[^，,。；“”\n]{{0,8}}?(?:手|怀)里", body):
        return True  # handed, by the giver or told from the receiver's side (接了过去; 往小七手里一塞) — r63-24/25
    for done in re.finditer(ACT_DONE.format(act=f"(?:{pattern})"), body):
        clause_start = span_start(_CLAUSE_MARK, body, done.start(), 40)
        clause_end = span_end(_CLAUSE_MARK, body, done.end(), 40)
        clause = body[clause_start:clause_end]
        if any(t in clause for t in (*things, *DONE_OBJECT_HINTS)) or DONE_CLAUSE_END.fullmatch(body[done.end():clause_end]):
            return True
    bounds = _word_bounds(body)
    objects = [*map(re.escape, things), ACT_QUANTITY]
    for told in re.finditer(f"(?P<act>{pattern})(?:{'|'.join(objects)})", body):
        if told.end("act") not in bounds:
            continue  # 浮 of 浮箭: a character of a word, no act (我念 may be cut as one: the act's end decides)
        clause_start = span_start(_CLAUSE_MARK, body, told.start(), 40)
        if not NOT_YET_DONE.search(body, clause_start, told.start()):
            return True  # the act and its thing or its count, plain (打开库房，搬出…; 我念一段): narrated done
    return False


ACT_QUANTITY = r"[了过]?[一两二三四五六七八九十几半][段遍眼页句行下回趟口声番阵通]"
"""An act's count right after it (念一段, 看了一眼, 抄两页, 试了几下): the act performed, whatever its object (:func:`_act_done_of`)."""


def _objects(text: str, act: str, words: frozenset[str]) -> list[str]:
    """What a line's act is done to, in its words (打开经藏 → 经藏, and the line's event words): none holding one of
    the act's own characters (:func:`_thing_in_clause`)."""
    at = text.find(act)
    after = [text[at + len(act):at + len(act) + 2]] if at >= 0 else []
    return [w for w in (*after, *words) if len(w) == 2 and not set(w) & set(act)]


def _thing_in_clause(forms: list[str], body: str, off: re.Match[str]) -> bool:
    """Whether a giving up that says one character of the line's act (不开, not 打开) names one of the line's terms or
    event words (``forms``, none of them holding the act's characters) in its own clause (库房不开, 不开库房): a bare 别打了 stops a fight, not the line's 打开库房 (fc2, stop 59)."""
    start = span_start(_CLAUSE_MARK, body, off.start())
    end = span_end(_CLAUSE_MARK, body, off.end())
    return any(v in body[start:end] for v in forms)


def _act_pattern(act: str) -> str:
    """The act's word or one of its characters that the dictionary tags a verb (打开 → 开; 认字 → 认, not 字: 明天再教你写
    ‘船’字 puts off no 认字), none of them a link or an everyday verb (交给 → 交, not 给: 明天拿给 is no 交 put off):
    :data:`ACT_LINKS`, :data:`ACTS_EVERYWHERE`."""
    tags = lexicon().tags
    chars = "".join(c for c in act if c not in ACT_LINKS and c not in ACTS_EVERYWHERE and tags.get(c, "").startswith("v"))
    return re.escape(act) + (f"|[{re.escape(chars)}]" if chars else "")


CLAUSE_CLOSED = re.compile(r"[了吧啦呢啊喽]?[，,。！？!?；;…”」\n]")
"""What follows a giving up that is the act's last word in its clause (不碾了，; 明天再试。; 经藏不开。): not one that goes on
to what is done next time (明天再教你写‘船’字: a next lesson, the act going on)."""


@functools.lru_cache(maxsize=64)
def _givings_up(acts: str, body: str) -> tuple[re.Match[str], ...]:
    """Where the prose gives up the act ``acts`` (its word or one of its characters, a pattern: :data:`ACT_CALLED_OFF`'s
    frames, each a run of whole words of the prose's cut closing its clause (:data:`CLAUSE_CLOSED` — 不碾了, 明天再试, 不开。,
    not 打 of 打听) and not done after all: not done earlier in its paragraph nor anywhere after it (:data:`ACT_DONE`:
    不听了…又听了起来), not tried or carried on to a point anywhere before it (晒一晒; 抄到三更 … 账明天再抄 is a next
    time). Unlike
    :func:`_given_up` the act's last mention need not be the giving up (碾槽边上 after 不碾了 names a thing, not the act).
    Read once a prose for each act."""
    bounds = _word_bounds(body)
    done = [m.start() for m in re.finditer(ACT_DONE_ASPECT.format(act=f"(?:{acts})"), body)]
    carried = [m.start() for m in re.finditer(f"(?:{acts})(?:一(?:{acts})|到)", body)]
    told = _told_done(acts.split("|", 1)[0], body)
    out = []
    for off in re.finditer(ACT_CALLED_OFF.format(act=f"(?:{acts})"), body):
        if off.start() not in bounds or off.end() not in bounds or not CLAUSE_CLOSED.match(body, off.end()):
            continue
        para = body.rfind("\n", 0, off.start()) + 1
        if not any(para <= k < off.start() or k >= off.end() for k in done) and not any(k < off.start() for k in carried) \
                and not any(k < para for k in told):
            out.append(off)
    return tuple(out)


HAND_ACTS = "送交递捎"
"""Verbs of handing a thing over: one told done (把信交到某某手里) is any of them done (:func:`_told_done`)."""


TOLD_ALONE = r"(?<![不没别甭莫未])(?:{act})(?=着|到|起|[，,。！？!?；;…])"
"""An act the narration tells by its word alone, closing its clause, going on or reached (炒青，一直忙到半夜; 炒着; 送到: its
own 到 and 起, as before m1 of stop 61): with :data:`ACT_DONE_ASPECT` (炒了一宿) what :func:`_told_done` reads as the act done — not a noun the act's word begins (碾槽 is a
trough, no 碾 done). :func:`_told_done`'s own view: a giving up's paragraph read with it would take 明天再试。's 试 for done."""


def _told_done(word: str, body: str) -> list[int]:
    """Where the narration tells the act ``word`` (the whole act, not one of its characters) as done: a whole word of the
    prose's cut outside the quotes, not negated nor planned in its clause (:data:`NOT_REACHED`) — or, for an act of
    handing over (:data:`HAND_ACTS`), any of them followed by 到/给. A giving up in a later paragraph is a next time
    (炒了一宿 … 今天不炒了; 把信交到某某手里 … 回信明天再送), not the line's event given up (fc2, stop 59)."""
    bounds = _word_bounds(body)
    quoted = [(m.start(), m.end()) for m in quote_matches(body)]
    pattern = f"{ACT_DONE_ASPECT}|{TOLD_ALONE}".format(act=re.escape(word)) \
        + (f"|(?<![不没别甭莫未])[{HAND_ACTS}](?=[到给])" if word in HAND_ACTS else "")
    return [m.start() for m in re.finditer(pattern, body)
            if m.start() in bounds and m.end() in bounds and not any(a <= m.start() < b for a, b in quoted)
            and not NOT_REACHED.search(_CLAUSE_MARK.split(body[max(0, m.start() - 16):m.start()])[-1])]


USE_HEAD = "用"
"""What names a line's thing as the means of its act (某某用怀表给某某掐时辰, 用钢笔替某某写信): :func:`_use_called_off`."""
USE_LINKS = frozenset("给替帮为跟和向对把")
"""The words between a thing used and its act that name whom the act is for, not what it is (给某某掐, 替某某写)."""
ACT_CALLED_OFF = (r"(?:不|别|甭|莫)(?:再)?{act}了|没{act}成|{act}不成|不(?:再)?{act}(?=[，,。！？!?；;…”」])|"
                  r"(?:改天|改日|下回|下次|明天|明儿|明日|过两天|过几天)[^，,。！？；;“”\n]{{0,8}}?{act}")
"""How the prose gives up an act, in general words, ``{act}`` its verb: said not to be done now (算了，不掐了; 不听了,
看天吧), not done to the end (没写成, 写不成), or put to another day (改天拿好纸来写). Read from three books' lines of a
thing used for an act (K6, stop 57); the frames are those of :data:`CALLED_OFF` and :data:`PUT_OFF`, said of the act.
A 不 closing its clause (经藏不开。, 一天也不开。) says the act is not done now (C2, stop 59; 没打， is no frame: 连饭都没打
gets no meal, 打 of another sense)."""


DONE_ASPECT = ("了", "完", "过", "好")
"""What, right after an act, tells it done by its aspect (换了, 抄完, 听过, 写好)."""
DONE_REACHED = ("掉", "成", "到", "上", "下", "进", "出", "回", "起")
"""What, right after an act, tells it done by a result or a direction reached (抄到天黑, 爬上灯塔, 抄进记录本) — or, after a
verb of perceiving or a one-character act of another word, no act done at all (听到这话, 看出, 看上去, 听起来; 开 of 打开 in
开出一张收条, 开起了玩笑: fm1, stop 61, R61's m1-1)."""
DONE_AFTER = f"(?:{'|'.join((*DONE_ASPECT, *DONE_REACHED))})"
"""What, right after an act, tells it done: :data:`DONE_ASPECT` or :data:`DONE_REACHED`. An act word alone (留存对比。,
开船。) may be a noun or a plan."""
ACT_DONE = rf"(?<![不没别甭莫未])(?:{{act}})(?={DONE_AFTER})"
"""An act told done, ``{act}`` its word (听完, 写了一页, 掐了个时辰, 抄进记录本; not 不听了's 听了), the match the act's
word alone: the one "act told done" of the contract readers (m1, stop 61). Read whole by :func:`_told_done_before` (a
putting off after a sentence telling it done, with the line's event word, is of something else); the readers of an act
given up read its view :data:`ACT_DONE_ASPECT`."""
ACT_DONE_ASPECT = rf"(?<![不没别甭莫未])(?:{{act}})(?={'|'.join(DONE_ASPECT)})"
""":data:`ACT_DONE`'s view for the readers of an act given up (:func:`_given_up`, :func:`_givings_up`,
:func:`_told_done`), which read the act as its word **or one of its characters** and need no event word beside it:
the act told done by its aspect only (听完, 写了一页; not 听到这话, 看上去, 开 of 打开 in 开出一张收条 — fm1, stop 61, R61's
m1-1). :func:`_told_done_before` reads the whole :data:`ACT_DONE` (爬上灯塔): it needs the line's event word in the
sentence too."""
DONE_CLAUSE_END = re.compile(rf"(?:{DONE_AFTER}|[来去])*[吧啦呢啊喽]?")
"""What may follow an act told done to its clause's end with no object after it (打开了, 换下来了, 交出去): its object
the thing told before it (:func:`_act_done_of`)."""




def _use_called_off(ctx: CheckContext, text: str, body: str,
                    cuts: dict[str, tuple[int, ...]] | None = None) -> tuple[str, re.Match[str]] | None:
    """A line of a person using a thing for an act (:data:`USE_HEAD`: 某某用<thing>给某某<act>…) whose act the prose
    gives up (:data:`ACT_CALLED_OFF`) at its last telling: ``(the thing, the giving up)``, else None. The act is the
    dictionary's first word after the thing and whom it is for (:data:`USE_LINKS`; 收听天气预报 → 收听, 掐扛一趟 → 掐);
    its last telling (:func:`act_given_up`) decides — given up and then done after all (不听了…又听了
    起来) is done, and a giving up told of another time (“那回他没写成”) is read as any other telling: it is the last."""
    things = ctx.items | (ctx.world.items if ctx.world is not None else set())
    for m in ctx.terms_re().finditer(text):
        if text[max(0, m.start() - len(USE_HEAD)):m.start()] != USE_HEAD or ctx.aliases.get(m.group(), m.group()) not in things:
            continue
        rest = ctx.terms_re().sub("，", text[m.end():])
        runs = [run for run in _FILLER.split(rest) if run and not USE_LINKS.issuperset(run)]
        if not runs or not any(ctx.is_person(t) for t in ctx.contract_terms_in(text[:m.start()])):
            return None
        off = act_given_up(runs[0].lstrip("".join(USE_LINKS)), body, cuts)
        return (m.group(), off) if off is not None else None
    return None


def act_given_up(said: str, body: str, cuts: dict[str, tuple[int, ...]] | None = None) -> re.Match[str] | None:
    """Where the prose gives up the act ``said`` begins with (its first word in the dictionary's cut: 收听天气预报 →
    收听, 掐扛一趟 → 掐) at its last telling (:data:`ACT_CALLED_OFF`), else None. A telling is the act's word, or one
    of its characters, standing as a whole word of the prose's cut (听 of 不听了, not 收 of 收拾: FK6, stop 57); a
    giving up after the act told done earlier in its paragraph (听完了，…不听了; 写了一页…改天再写一封) is stopping
    after it or a next time, not giving it up (:data:`ACT_DONE`). ``cuts``: the contract line's runs already
    segmented (:func:`word_pairs`)."""
    ends = sorted(lexicon().boundaries(said, cuts=cuts) - {0})
    act = said[:ends[0]] if ends else said
    return _given_up(f"{re.escape(act)}|[{re.escape(act)}]", body)


@functools.lru_cache(maxsize=64)
def _given_up(acts: str, body: str) -> re.Match[str] | None:
    """:func:`act_given_up` of the act ``acts`` (its word or one of its characters, a pattern), read once a prose for
    the contract lines of one act: each of hundreds of them cut the whole prose into words again and searched its
    paragraph for the act done (A18, stop 58)."""
    bounds = _word_bounds(body)
    told = [m.start() for m in re.finditer(acts, body) if m.start() in bounds and m.end() in bounds]
    if not told:
        return None
    last = told[-1]
    frames = re.compile(ACT_CALLED_OFF.format(act=f"(?:{acts})"))
    start, end = _telling(body, last)
    off = next((f for f in frames.finditer(body, start, end) if f.start() <= last < f.end()), None)
    if off is None:
        return None
    para = body.rfind("\n", 0, off.start()) + 1
    done = re.compile(ACT_DONE_ASPECT.format(act=f"(?:{acts})"))
    return None if done.search(body, para, off.start()) else off


@functools.lru_cache(maxsize=4)
def _word_bounds(body: str) -> frozenset[int]:
    """Where the words of the prose's cut start and end (:meth:`propernouns._Lexicon.boundaries`), cut once a prose."""
    lex = lexicon()
    return frozenset(lex.boundaries(body, cuts=lex.cuts_of(body)))


def _telling_of(body: str, m: re.Match[str]) -> str:
    """The sentence around a match, as a finding's excerpt (:func:`_telling`, at most 40 characters ending at it)."""
    start, _end = _telling(body, m.start())
    return body[start:m.end()].strip()[-40:]


STOWED = re.compile(r"往[^，,。！？；;他她你]{0,6}?(?:兜|怀|袖|包|口袋|衣袋|抽屉)里?(?:一)?(?:塞|揣|收|装|放)")
"""A thing put away in the holder's own pocket (把红纸信封往夹袄兜里一塞): kept, not given — the companion of
:data:`TAKEN_BACK` said with 往."""
PUT_OFF = re.compile(r"改日|改天|回头再|下回再|过两天|过几天|落在[^，,。！？]{0,6}?(?:里|了)")
"""A handover put off to another day or the thing left elsewhere (改日再给, 钥匙落在捕房抽屉里了)."""
GIVING = re.compile(alternation(GIVING_VERBS))
"""The prose's words of giving a thing over, or of taking it (:mod:`lw_storyrepo.giving`)."""
UNGIVEN = re.compile(r"(?:没|没有|不|别|想|原想|本想|要|打算|准备|改日|改天|过两天|过几天|回头|下回|明天|明儿)[^。！？!?]{0,10}$")
"""What, in the sentence before a giving word, keeps it from happening (却没递过来, 我原想今朝交给你, 过两天…顺手带给你)."""


def _withheld(body: str) -> str | None:
    """The sentence that keeps a handover back when the prose never gives a thing plainly — every giving word
    (:data:`GIVING`) negated, wished or put off in its sentence (:data:`UNGIVEN`), none at all counting too — and the
    holder stows it (:data:`STOWED`) or puts the handover off (:data:`PUT_OFF`); ``None`` otherwise. A form of the
    handover told as not done that names neither the thing nor its kind (信封 for 请帖, a key left at the office)."""
    for m in GIVING.finditer(body):
        start = span_start(FULL_WIDTH_STOP, body, m.start(), 40)
        if not UNGIVEN.search(body[start:m.start()]):
            return None
    kept = STOWED.search(body) or PUT_OFF.search(body)
    if kept is None:
        return None
    start, end = _telling(body, kept.start())
    return body[start:kept.end()].strip()[-40:]


def _untold(ctx: CheckContext, what: str, body: str) -> bool:
    """Whether the prose never writes what a contract line hands over, when it is no name the book
    knows (本脉带新弟子的差事, 育种的活): neither its kind (the last two characters of its words: 差事,
    钥匙) nor any of its pairs of characters that the book's own text (:attr:`CheckContext.book_text`)
    does not hold already is in the prose — a word the book uses
    everywhere (弟子 in a sect) tells nothing. False when every pair is such a word, or when what
    is handed over is a relative (把女儿托付给…: prose calls her 丫头, 闺女, by her name): then the
    check cannot tell, and says nothing."""
    if any(word in what for word in _KIN_WORDS):
        return False
    runs = [run for run in _FILLER.split(what) if len(run) >= 2]
    spots = _pair_spots(body)
    if runs and runs[-1][-2:] in spots:  # its kind (钥匙 of 库房钥匙, 差事) written: the thing is there, a book's word or not
        return False
    book = ctx.book_pairs()
    telling = {pair for run in runs for pair in pairs(run) if pair not in book}
    return bool(telling) and not any(pair in spots for pair in telling)
_HOMELY_PLACES = "镇村府寺庙寨楼宫庄"
"""Kinds of place a name ends with that both tables hold: prose drops them (到了清溪) and its own people say them
alone (村里, 镇上)."""
PLACE_SUFFIXES = _HOMELY_PLACES + "站县城州港观街巷岛湖关峰谷堡阁殿屯坊"
"""The last characters that say only what kind of place a name is (柳园站, 落雁城): prose drops
them (车到柳园) when the rest still tells the place."""
PLACE_KINDS = ("秘境", "电子市场", "工业区", "市场", "商场", "大厦", "广场", "公园", "码头", "车站", "火车站", "医院", "学校",
               "中学", "大学", "仓库", "酒楼", "茶楼", "饭店", "酒店", "宾馆", "客栈", "大街", "胡同", "书院", "山庄")
"""Words of two characters or more that say only what kind of place a name is (赛格电子市场 → 赛格)."""


def _place_stems(ctx: CheckContext | None, term: str) -> set[str]:
    """A place by its name without the kind (柳园 for 柳园站; 枫木 for 枫木大队, a name of four characters or more ending
    in a kind of :data:`HOME_KINDS` drops two: 大队, 公社): the rest is two characters or more and
    names nothing else the book knows — or names a known place of which this is the only longer name (黑水
    for 黑水秘境); a person or a held thing gives none."""
    if ctx is None or len(term) < 3 or term in ctx.items:
        return set()
    kind = next((k for k in sorted(PLACE_KINDS, key=len, reverse=True) if term.endswith(k)), None)
    if kind is None and len(term) >= 4 and term[-1] in HOME_KINDS and term[-1] not in PLACE_SUFFIXES:
        kind = term[-2:]  # 枫木大队, 白沙公社: a body's or a place's kind of two characters, after the name that tells it
    if kind is None and term[-1] not in PLACE_SUFFIXES:
        return set()
    canonical = ctx.aliases.get(term, term)
    if canonical in ctx.kin or canonical in ctx.roles or canonical in ctx.dead \
            or canonical in ctx.name_index().dwellers \
            or (ctx.people is not None and canonical in ctx.people):
        return set()
    stem = term[:-len(kind)] if kind else term[:-1]
    if len(stem) < 2:
        return set()
    other = ctx.aliases.get(stem)
    # the stem a known place itself, and this the only longer name it begins (黑水 and 黑水秘境: the region
    # and its realm, one place at two grains) — else it tells neither
    region = other == stem and ctx.world is not None and stem in ctx.world.places
    if any(name.startswith(stem) and ctx.aliases[name] != canonical and not (region and name == stem)
           for name in ctx.name_index().by_start.get(stem[:2], ())):
        return set()  # 上步 of 上步仓库 is also 上步工业区's: it tells neither
    return {stem} if other is None or other == canonical or region else set()


_CLAUSE_MARK = re.compile(r"[，,。！？；;“”\n]")
"""A mark that ends a clause or a quote: :func:`_by_its_spot` and :func:`_meant_at` read the clause before a spot
from the last one."""
_SENTENCE_MARK = re.compile(r"[。！？；;“”\n]")
"""A mark that ends a sentence or a quote (no comma): :func:`_meant_at` reads a wish from the last one."""
SPOT_ENDS = frozenset("头边面侧房屋室厅堂院门口台楼仓库场坝岸桥井巷街棚廊亭窖坡")
"""The last character of a word that names a part of a place or a spot in it, said right after the place's name
(厂署秤房, 沈家门码头, 第四燧北头, 祠堂后院, 学校操场): a room, a gate, a side, a yard, a landing, a lane …"""
ANY_PLACES_SPOT = SPOT_ENDS | frozenset("里外上下前后旁内中左右大小")
"""What a spot made of these characters alone names is a spot of any place (门口, 外面, 大门, 后院): the prose's 门口
is nobody's in particular, so it does not stand for the place the line names."""


def _by_its_spot(ctx: CheckContext | None, term: str, line: str, body: str,
                 met: Callable[[str, str], bool] | None = None) -> str | None:
    """A place the line names with a spot in it right after its name (在厂署秤房码铜饼, 沈家门码头, 第四燧北头的天田) that the
    prose names as one it knows (秤房里, 码头上, 你们这儿北头): the scene is at that spot, so at the place. The spot is
    the two or three characters right after the name (no 的 between: 的大门 is none) that end in one of
    :data:`SPOT_ENDS` (剪辑室), in Chinese characters, no name the book knows and not any place's (门口:
    :data:`ANY_PLACES_SPOT`); the prose's spot must be met there (:func:`_spot_met`). The spot found, or ``None``.
    ``met`` is :func:`_spot_met` for this prose, or a cache of it (the contract check's: a spot the lines ask of again
    and again is read of the prose once). Cost: one walk of the prose per distinct spot of the line, none for a term
    with no spot in its line (a line naming 厂署秤房 two thousand times, or five hundred lines naming it, walked the
    prose for each: 33 s at the draft cap; A13, stop 54)."""
    if ctx is None or ctx.world is None or term not in ctx.world.places:
        return None
    places = ctx.world.places
    asked: dict[str, None] = {}
    for end in (at + len(term) for at in _spots(term, line)):
        spot = next((line[end:end + k] for k in (2, 3) if line[end + k - 1:end + k] in SPOT_ENDS), "")
        if not spot or "的" in spot or not all("\u4e00" <= c <= "\u9fff" for c in spot) or spot in ctx.aliases \
                or spot in places or all(c in ANY_PLACES_SPOT for c in spot):
            continue
        asked[spot] = None
    known = ctx
    read = met or (lambda t, s: _spot_met(known, t, s, body))
    return next((spot for spot in asked if read(term, spot)), None)


def _spot_met(ctx: CheckContext, term: str, spot: str, body: str) -> bool:
    """Whether the prose names ``spot`` (of ``term``'s, :func:`_by_its_spot`) as one it is at: not brought in as new
    (一口水井: :func:`_new_one`), gone toward (去北坡) or only meant (想去码头, 远远看得见码头: :func:`_meant_at`, what
    :func:`_only_meant` reads of a place's name — whether the scene reaches the spot is read there, once), nor after
    another place the book knows, with or without 的 (第十燧北头, 月海营地的机修库). Cost: one ``str.find`` walk of the
    prose (:func:`starts_of`)."""
    places = ctx.world.places if ctx.world is not None else set()
    ends = ctx.name_index().by_end
    for at in starts_of(spot, body):
        before = body[max(0, at - 8):at]
        if before.endswith("去") or _meant_at(body, at, len(spot)):
            continue  # 就去北坡那棵松树底下, 想去码头: a spot only gone toward or meant is no scene there
        owner = before.removesuffix("的")  # 月海营地的机修库: the spot of the place named before it
        if not _new_one(before) and not any(n != term and n in places and owner.endswith(n)
                                            for n in ends.get(owner[-2:], ())):
            return True
    return False


_FROM = re.compile(r"从$")
SENT_FROM = ("捎", "寄", "带", "送", "运", "发", "拍", "传", "汇", "递", "押")
"""The verbs a thing comes by from a place (邮车从柯洛捎来一封信, 他从上海寄来, 从县城打来电话, 从吉林发来的札付): with a way
here after them (来, 到, 回, 上, 过来) the place is where the letter, call or goods set out, not where the scene is — the
line asks the thing here, as 从香港来到 asks the person (K5, stop 56: the pool's 从X捎来/寄来/打来 lines, 三十九's 柯洛).
打 is a call only before 来/过来 with 电话 near (从县城打来电话); 打上来一桶水 is done at the place (R56, stop 56)."""
_GO = re.compile(r"^(?:过来|来到|回到|赶到|赶来|来|到|回|赶|出发|动身|过"
                 rf"|(?:托[^，,。；;从]{{1,4}}?)?[{''.join(SENT_FROM)}](?:过来|来|到|回|上)|打(?:过来|来)(?=[^，,。；;]{{0,6}}?电话))")


def _only_whence(term: str, line: str) -> bool:
    """A place the line names only as where someone comes from (黄伟强从香港来到华强北) or a thing is sent from
    (:data:`SENT_FROM`: 邮车从柯洛捎来杨秀珍的信): the line asks them here, not there."""
    spots = _spots(term, line)
    return bool(spots) and all(_FROM.search(_before(line, at)) and _GO.match(line[at + len(term):]) for at in spots)


GOES_TO = frozenset("到去在进回往赴抵至上下出入离于向朝经过住守留奔赶逛游闯跑走从自")
"""Characters before a place that make it where someone goes, is or comes from (到北京的…, 在天津的家, 赶王爷庙的庙会, 去临安的
三个人): a place so named is asked by the line, even when 的 follows it (:func:`_only_modifies`)."""
_MODIFIER = re.compile(rf"(?:[{''.join(SENT_FROM)}]?过?来)?的(?=[\u4e00-\u9fff])(?![^，,。；;：:！？、]{{0,6}}?"
                       rf"[{''.join(sorted(LOCALIZERS))}](?:[，,。；;：:！？、]|$))")
"""What follows a place that makes it a modifier of the thing after it (北京来的邮袋, 上海寄来的信, 黑石梁的剖面图, 香港的某某):
来的 or a verb of sending (:data:`SENT_FROM`) and 来的, or 的 alone — unless the phrase after it ends on a place part
(二号船台的脚手架上: a spot of the place, where something is)."""


def _only_modifies(ctx: CheckContext | None, term: str, line: str, body: str) -> bool:
    """A place of the book the line names only as what a thing or person comes from or belongs to: the line asks the
    thing here, not the scene there (c5, stop 62). Two shapes (:data:`_MODIFIER`):

    - where it comes from, PLACE + (a verb of sending) + 来的 (接北京来的邮袋, 翻出一封洛阳来的信, 看某地捎来的盐样): always;
    - whose or of where, PLACE + 的 (查某秘境的舆图, 给香港的某某打电话): only when the prose writes the thing or person
      after 的 (:func:`_modified_written`) — the line is told by its thing; else the act may be done at the place
      (修某地的水闸, 挖某地的排水渠) and :func:`_only_telling`'s warning asks (r62-1).

    Not when what stands before the place makes it a place gone to or been at (:data:`GOES_TO`: 去临安的三个人, 上朝天岭的
    急递铺), nor when the phrase after 的 ends on a place part or opens on a spot of the place (:func:`_spot_of_place`)."""
    if ctx is None or ctx.world is None or ctx.aliases.get(term, term) not in ctx.world.places:
        return False
    spots = _spots(term, line)
    written: dict[str, bool] = {}  # the words after 的 looked up in the prose: once each, not once a spot
    return bool(spots) and all((at == 0 or line[at - 1] not in GOES_TO) and (mod := _MODIFIER.match(line, at + len(term)))
                               and not _spot_of_place(line, mod.end())
                               and ("来" in mod.group() or _modified_written(line, mod.end(), body, written))
                               for at in spots)


def _modified_written(line: str, at: int, body: str, written: dict[str, bool]) -> bool:
    """Whether the prose writes what a place's 的 modifies (``line`` from ``at``: its first two to four characters,
    :data:`_OPENING_WORD`, by the longest the prose writes, down to two). ``written``: the lookups made already."""
    run = _OPENING_WORD.match(line, at)
    if run is None:
        return False
    word = run.group()
    if word not in written:
        written[word] = any(word[:k] in body for k in range(len(word), 1, -1))
    return written[word]


SPOT_TAILS = (SPOT_ENDS - frozenset("头边面侧口")) | frozenset("沟铺区馆店所站处坑窑")
"""Last characters of a word after 的 that make it a spot of the place before (南泡子的老井场, 某岭的边沟, 某地的急递铺, 某市场的
维修区): the line is at the place, not of a thing from it (:func:`_only_modifies`). Not the place parts 头, 边, 面, 侧, 口 (剖面图,
口信: nouns of things; a place part ending the phrase is read by :data:`_MODIFIER`)."""


_OPENING_WORD = re.compile(r"[\u4e00-\u9fff]{2,4}")


def _spot_of_place(line: str, at: int) -> bool:
    """Whether what follows a place's 的 (``line`` from ``at``) opens on a spot of it: a word of two to four characters
    with a character of :data:`SPOT_TAILS` after its first (井场, 边沟, 急递铺, 维修区, 盐库里). Read by characters, not by
    the dictionary's cut, which splits a compound it does not know (盐|库里); read in place, not on a copy of the rest of
    the line for each spot."""
    run = _OPENING_WORD.match(line, at)
    return run is not None and any(c in SPOT_TAILS for c in run.group()[1:])


def _before(line: str, at: int) -> str:
    """What an end-anchored pattern of two characters at most (_FROM, _COUNTED, _REACHED_AT) reads of ``line`` before
    ``at``: its last three characters (a newline may end them), not the whole line again for each term a long line
    names."""
    return line[max(0, at - 3):at]


def _district_of(ctx: CheckContext | None, term: str, line: str, body: str) -> bool:
    """A place the line names as the district of another (香港鸭寮街: 鸭寮街 in 香港) or a place
    the world puts inside it (华强北 in 深圳), when the prose names that one. A place of the same one-place list as the
    line's (:attr:`World.one_place`: 北崖、十八盘、松树坡…算一处地方) is none: the list lets people walk among its places
    without leaving, it does not put the scene at the one the line asks (C2, stop 59)."""
    if ctx is None:
        return False
    starts = ctx.name_index().by_start
    for end in (at + len(term) for at in _spots(term, line)):  # no pattern per term (thousands on a line; A13)
        inner = next((n for n in starts.get(line[end:end + 2], ()) if n != term and line.startswith(n, end)), None)
        # _named: a line naming 孟姐许砚 three thousand times searches the prose for 许砚 once, not at each
        if inner is not None and ctx.aliases.get(inner) != ctx.aliases.get(term) and _named(inner, body):
            return True
    if ctx.world is not None:
        canonical = ctx.aliases.get(term, term)
        siblings = {p for one in ctx.world.one_place if canonical in one for p in one}
        return any(canonical in outer and place not in siblings and present(place, body)
                   for place, outer in ctx.world.inside.items())
    return False


def _brand(ctx: CheckContext | None, term: str) -> set[str]:
    """A held thing by its brand (那块上海牌 for 上海牌手表): the name's part up to 牌, of three
    characters or more."""
    if ctx is None or term not in ctx.items:
        return set()
    at = term.find("牌")
    return {term[:at + 1]} if 2 <= at < len(term) - 1 else set()


GO_TO = re.compile(r"(?:去|到|来到|回到|赶到|赶去|前往|进|走进|踏进)$")
"""A contract line's move to a place (林知微去太医院): the verb right before the place."""
GO_UP = re.compile(r"(?<![早晚马路])上$")
"""A contract line's climb to a place (某某上山口插标杆, 登上塔顶; not 晚上, 马上): a move :func:`_only_meant` reads as
:data:`GO_TO`'s (C2, stop 59: four books' lines 上 a hill, a pass or a rock whose prose only meant to go). An event line
of 上 is still an event (:func:`_is_event`: 爬上风向杆给风速器加油 asks the oiling)."""
_NOT_REACHED_ALSO = ("正要", "本要", "欲", "能", "未", "拦", "不许", "不准", "不让", "改日", "下回")
""":data:`NOT_REACHED`'s own words beyond the shared :data:`~lw_storyrepo.continuity.PLAN_WORDS` and
:data:`~lw_storyrepo.continuity.UNDONE_WORDS`: an intent (正要, 欲), a may (能), a bar (拦, 不许), more days ahead."""
NOT_REACHED = re.compile("(?:" + "|".join((*PLAN_WORDS, *UNDONE_WORDS, *_NOT_REACHED_ALSO)) + r")[^，,。！？；;“”]{0,4}$")
"""What makes a place named in a clause one not reached (想去太医院, 不许进, 明天就能在…门口): a wish, a plan, a
refusal, a day ahead."""
SENT_OFF = re.compile(r"(?:叫|让|派|打发|催|喊|吩咐)[他她你我]?(?:先|赶紧|快)?去$|(?:远远|看得见|望得见|看得到|望得到|瞧得见)[^，,。！？；;“”]{0,8}$")
"""A place named only as an errand someone is sent on (叫她去荷花池市场) or seen from afar (远远地已经看得见…市场那个
大铁门了): not reached by those words."""
WISHED = re.compile(r"(?:想|打算|准备|本想|本打算|盘算着)(?!了想|想)[^，,。！？；;“”]{0,10}[，,]\s*(?:先|再|就)?去$")
"""A bare 去 clause carried by a wish the clause before says (她想趁着下午没事，去永兴当…): not reached."""
BARRED_GO = re.compile(r"(?:不准|不许|不让|不要|不能|不得|别|没|禁止)[^，,。；;]{0,2}$")
"""A contract line that itself bars or denies the move (叮嘱他往后不准去彪记帮厨): it asks for no arrival."""
TOLD_OF = re.compile(r"在|逢|离|距|位于|坐落|是[个座一]")
"""What a place opening its sentence is followed by when the sentence tells of it (天宁寺在城北，…; 羊场镇逢三六九赶场):
where it lies or what it is — nothing of reaching it either way, so the place's other mentions decide (none: reached,
the scene may open on the place it describes)."""
BURIED = re.compile(r"(?:埋|葬|安葬|埋葬)在$")
"""The place told as where the dead lie (师父埋在西山脚下的义地): nobody's arrival."""
ROUTE = re.compile(r"从[^，,。！？；;“”]{1,8}?到$")
ROUTE_AHEAD = re.compile(r"^[^，,。！？；;“”]{0,6}[，,]\s*(?:要|得|需|须|必|只能|还得|中间)")
"""A route told, not travelled (从瑶华宫到太医院，要穿过御花园); 从江湾到瑞金医院，出租车开了四十分钟 is a trip made."""


def _meant_at(body: str, k: int, n: int) -> bool:
    """Whether the ``n`` characters of ``body`` at ``k`` name a place only in a clause that does not reach it: an
    errand given in words (“去菜园坝…), one someone is sent on or a sight from afar (:data:`SENT_OFF`), a wish
    (:data:`WISHED`), where the dead lie (:data:`BURIED`), a plan or refusal (:data:`NOT_REACHED`), a route told
    (:data:`ROUTE`)."""
    if body[max(0, k - 2):k] == "“去":
        return True  # an errand given in words (“去菜园坝买两捆麻绳…”)
    clause = _CLAUSE_MARK.split(body[max(0, k - 16):k])[-1]
    if SENT_OFF.search(clause) or WISHED.search(_SENTENCE_MARK.split(body[max(0, k - 24):k])[-1]):
        return True
    if BURIED.search(clause):
        return True  # where the dead lie (师父埋在西山脚下): nobody's arrival
    return NOT_REACHED.search(clause) is not None or (ROUTE.search(clause) is not None
                                                      and ROUTE_AHEAD.search(body[k + n:k + n + 20]) is not None)


ASKED_AFTER = re.compile(r"[^，,。；;！？!?]{0,4}?(?:几|多少|多久|多远|怎么|咋|哪|啥|什么)")
"""A question asked of the place right after it, in its clause (到省城要几个钟头, 到县城多远, 去省城怎么走)."""


def _reported_question(line: str, at: int, term: str, cuts: dict[str, tuple[int, ...]] | None = None) -> bool:
    """The place ``term`` at ``at`` of a contract line is in a question the line reports (某某说他问过…搭车到省城要几个钟头):
    a saying or knowing word standing as a whole word of the line's cut before it (not 说 of 听说/说服, 叫 of 叫上),
    and a question of the place right after it (:data:`ASKED_AFTER`) — not any 说/知道 before it (阿旺知道消息后去省城
    asks the arrival: FK6, stop 57). ``cuts``: the line's runs already segmented (:func:`word_pairs`)."""
    if not ASKED_AFTER.match(line, at + len(term)):
        return False
    before = line[max(0, at - REPORTED_REACH):at]
    bounds = lexicon().boundaries(before, cuts=cuts)
    return any(m.start() in bounds and m.end() in bounds for m in re.finditer(f"{SAY}|{KNOW}", before))


REPORTED_REACH = 100
"""The most characters before a place :func:`_reported_question` reads for the saying word (a line's own report says
it within a few clauses): a contract line of thousands of places each asked after was cut from its start for each of
them, the square of the line (A18, stop 58)."""


def _only_meant(ctx: CheckContext, term: str, line: str, body: str,
                cuts: dict[str, tuple[int, ...]] | None = None) -> bool:
    """A place a contract line moves someone to (:data:`GO_TO`, :data:`GO_UP`) that the prose names, every time, only in a
    clause that does not reach it (:func:`_meant_at`): the scene never gets there. (A place met by its spot alone is
    :func:`_by_its_spot`'s, which reads each of the spot's mentions the same way.)"""
    if ctx.world is None or term not in ctx.world.places:
        return False
    at = line.find(term)
    if at < 0 or not (GO_TO.search(line[max(0, at - 2):at]) or GO_UP.search(line[max(0, at - 2):at])) \
            or BARRED_GO.search(line[max(0, at - 6):at]):
        return False  # 叮嘱他往后不准去彪记: the line itself asks no arrival
    if _reported_question(line, at, term, cuts):
        return False  # 某某说他问过搭车到省城要几个钟头: the place is in the words the line reports, no arrival it asks (K6, stop 57)
    def told_of(k: int, n: int) -> bool:  # the place the sentence tells of: it says nothing of reaching it either way
        return (k == 0 or body[k - 1] in "。！？!?\n") and TOLD_OF.match(body, k + n) is not None

    spots = [(m.start(), len(v)) for v in ctx.variants(term) if len(v) >= 2 for m in re.finditer(re.escape(v), body)]
    spots = [(k, n) for k, n in spots if not told_of(k, n)]
    return bool(spots) and all(_meant_at(body, k, n) for k, n in spots) \
        and not _act_done_apart(ctx, line[at + len(term):], body, [k for k, _n in spots], cuts,
                                who={t for t in ctx.contract_terms_in(line[:at]) if ctx.is_person(t)})


def _act_done_apart(ctx: CheckContext, rest: str, body: str, spots: list[int],
                    cuts: dict[str, tuple[int, ...]] | None = None, who: set[str] | None = None) -> bool:
    """Whether the prose does the act a move line asks at its place (``rest``, the line after the place: 给某某的坟培土 →
    培土; :func:`_line_acts`) in a sentence that does not name the place (``spots``) and not given up (:func:`_givings_up`):
    the plan said (满叔说要上嵩云山看看), then the going told in other words and the act done there in the narration
    (往坟上培土) — the place was reached. An act said only in the plan's own sentence (说要上嵩云山给爹上坟) is the plan,
    one said in someone's words (“上坟改天”, “信我托人捎去”) or planned in its clause (:data:`NOT_REACHED`: 得去场上买双新的)
    no act done (C2, stop 59). The act is the line's only when no other person of the world leads its sentence up to
    the act (``who``: the line's people; 小七在菜地里插秧苗 is another's act) and no place of the world is named in its
    sentence (把旗插在场部门口: done, but elsewhere) (fc2, stop 59)."""
    acts = _line_acts(ctx, rest, cuts)
    if not acts:
        return False
    bounds = _word_bounds(body)
    # the place's own sentences (the plan), and what people say (信我托人捎去, 上坟改天): no act the narration does
    apart = [(max((body.rfind(c, 0, k) for c in "。！？!?\n"), default=-1),
              min((e for e in (body.find(c, k) for c in "。！？!?\n") if e >= 0), default=len(body))) for k in spots]
    apart += [(m.start() - 1, m.end()) for m in quote_matches(body)]
    for act in acts:
        off = [(m.start(), m.end()) for m in _givings_up(re.escape(act), body)]
        for m in re.finditer(re.escape(act), body):
            if m.start() in bounds and m.end() in bounds and not any(a < m.start() < b for a, b in apart) \
                    and not any(a <= m.start() < b for a, b in off) \
                    and not NOT_REACHED.search(_CLAUSE_MARK.split(body[max(0, m.start() - 16):m.start()])[-1]) \
                    and _done_by_the_line(ctx, body, m.start(), who or set()):
                return True
    return False


def _done_by_the_line(ctx: CheckContext, body: str, k: int, who: set[str]) -> bool:
    """Whether the act told at ``k`` is the move line's own: the first person its sentence names before it is one of
    the line's people ``who`` (or none: 他, a dropped subject), and its sentence names no place of the world
    (:func:`_act_done_apart`)."""
    start = max(body.rfind(c, 0, k) for c in "。！？!?\n") + 1
    end = min((e for e in (body.find(c, k) for c in "。！？!?\n") if e >= 0), default=len(body))
    if ctx.world is not None and any(t in ctx.world.places for t in ctx.contract_terms_in(body[start:end])):
        return False
    people = [t for t in ctx.contract_terms_in(body[start:k]) if ctx.is_person(t)]
    return not people or ctx.aliases.get(people[0], people[0]) in {ctx.aliases.get(w, w) for w in who}


def _maybe_there(ctx: CheckContext | None, term: str, line: str, draft: Any, body: str) -> str | None:
    """Why a term the prose does not name may still be there under a form no table reads — then the
    contract check warns and asks, it does not send the draft back; ``None`` when the draft
    certainly lacks it:

    - a person the draft's own 在场 lists (the prose may call them 下铺的人, 那人, by a nickname);
    - a person the line names only for what is theirs (找到莉莉安的发带: the ribbon is asked, not her);
    - a thing whose kind (its last character: 箱 of 帆布箱) the prose names;
    - a place the draft's 设定变更 moves someone to;
    - a place whose keeper (:func:`keepers_of`) the prose names: the shop may act through its keeper;
    - a keeper whose place and a keeper's word (掌柜) the prose names apart (进了恒裕当…掌柜的抬起头)."""
    if ctx is None:
        return None
    canonical = ctx.aliases.get(term, term)
    changes = _changes_of(draft)
    if canonical in ctx.cast:
        return "草稿的在场名单里有"
    kept = next((p for p in _kept_by(ctx, canonical) if any(_named(v, body) for v in ctx.variants(p))), None)
    if kept is not None and any(w in body for w in KEEPERS):
        return f"正文写到了「{kept}」和它的主事人"
    thing = term in ctx.items or (ctx.world is not None and term in ctx.world.items)
    if not thing and term[-1] not in PLACE_SUFFIXES and ctx.is_person(canonical) \
            and all(line[m.end():m.end() + 1] == "的" for m in re.finditer(re.escape(term), line)):
        return "合同只提到它的东西"
    if ctx.world is not None and term in ctx.world.places and _only_telling(term, line):
        return "合同只用这个地方说明别的东西"
    if thing or term.endswith(LOOK_HEADS):
        kind = _kind_word(term, body) or next((w for w in sorted(ctx.looks.get(term, ())) if w in body), None) \
            or next((t for t in _tails(ctx, term) if any(not _new_one(body[:m.start()]) for m in re.finditer(re.escape(t), body))),
                    None)
        if kind is not None:
            return f"正文写到了「{kind}」"
        if any(m.group("field") == "持有" and m.group("value") == term for m in changes):
            return "草稿的设定变更交接了它"
    for m in changes:
        if m.group("field") == "位置" and ctx.aliases.get(m.group("value"), m.group("value")) == canonical:
            return "草稿的设定变更把人移到了这里"
    keeper = next((k for k in sorted(ctx.keepers.get(canonical, ())) if any(_named(v, body) for v in ctx.variants(k))), None)
    if keeper is not None:
        return f"正文写到了它的主事人「{keeper}」"
    dweller = next(iter(_dwellers_named(term, draft, ctx, line)), None) if _visit(term, line) else None
    if dweller is not None:  # _there_by_card refused them: a visit asked, they are only called, messaged or missed
        return f"正文写到的「{dweller}」只在电话、消息或念叨里，没有写到去了那里"
    return None


_TELLS_OF = re.compile(r"的|[那这](?:场|次|回|趟|个|件|桩|批|盒|包|封)")
"""What tells of something else right after a place (read with ``match`` at the place's end, not on a copy of the
rest of the line)."""
_COUNTED = re.compile(r"[一两几半][\u4e00-\u9fff]$")
_REACHED_AT = re.compile(r"(?:去|到|回|进|在|从|往|赴|抵|离|出)$")


def _only_telling(term: str, line: str) -> bool:
    """Whether a contract line names a place only to tell of something else — what comes from there or
    happens there (上海的点心, 成都那场: after it 的 or 那/这 and a measure word; 一盒上海点心: after a count), never where someone goes,
    is or comes from (去上海的火车, 在成都的那场): the prose may tell that thing without the place's name."""
    spots = _spots(term, line)
    return bool(spots) and all((_TELLS_OF.match(line, at + len(term)) or _COUNTED.search(_before(line, at)))
                               and not _REACHED_AT.search(_before(line, at)) for at in spots)


def _spots(term: str, line: str) -> list[int]:
    """Where ``term`` stands in a contract line, each after the last's end (:func:`starts_of`; an empty term nowhere):
    no pattern compiled per term, nor the rest of the line copied at each (A12, stop 53); a long line is cut once into
    :class:`Spots` and each term looked up, not searched for again from the line's start (a line of 4,000 places, each
    asked by several rules, walked the line 20,000 times: 13 s at the draft cap; A14, stop 55)."""
    if not term:
        return []
    if len(line) < LINE_SPOTS_MIN:
        return list(starts_of(term, line))
    return _LINE_SPOTS.of(line, lambda: Spots(line)).of(term)


LINE_SPOTS_MIN = 256
"""A line this long or longer is read by :class:`Spots` (:func:`_spots`); a shorter one by ``str.find``."""
_LINE_SPOTS = PerProse()
"""The long contract line :func:`_spots` read last and its :class:`Spots`."""


PERSON_WORDS = {
    "她": ("丫头", "小丫头", "姑娘", "小姑娘", "丫鬟", "宫女", "婢女", "侍女", "女人", "女子", "妇人", "闺女", "女孩", "女孩子",
          "老太太", "婆子", "大婶", "嫂子", "媳妇", "小媳妇", "女娃", "女生", "女学生", "女弟子", "护士"),
    "他": ("小子", "汉子", "男人", "后生", "小伙子", "小伙", "老头", "老头儿", "老汉", "太监", "小太监", "男孩", "男孩子", "男娃",
          "男生", "伙计", "小厮", "书生"),
    "": ("人", "孩子", "老人", "年轻人", "学生", "病人", "弟子", "徒弟", "工人", "家伙", "客人", "犯人", "逃犯", "逃奴"),
}
"""The words prose calls a person by when it will not name them (那个丫头, 那位老人), by the gender they
fit ("" either): Chinese prose of any genre points at someone known so."""
_PERSON_WORD = {w: g for g, ws in PERSON_WORDS.items() for w in ws}
_PERSON_DESCRIBED = re.compile(rf"[那这](?:个|位|名)(?:小|老)?({'|'.join(sorted(_PERSON_WORD, key=len, reverse=True))})")
_EMPTY_GRAM = frozenset("那这的个了一是在说也就都着")


def _content_grams(text: str) -> set[str]:
    """The :func:`pairs` of ``text`` with no empty character (那, 的, 了 …) in them."""
    return {pair for pair in pairs(text) if not set(pair) & _EMPTY_GRAM}


def _told_of(ctx: CheckContext, term: str, line: str, body: str) -> str | None:
    """A person the prose points at without a name (那个丫头, 那位老人: :data:`PERSON_WORDS`, of a gender
    their card allows) in a paragraph that tells at least three two-character pieces of the rest of the
    contract line (逃奴册上碧桃那一页 → 逃奴册上原该有她一页): the line is met with the person unnamed.
    Returns the words that point at them, else ``None``."""
    canonical = ctx.aliases.get(term, term)
    if not ctx.is_person(canonical):
        return None
    gender = _gender_of(ctx, canonical)
    rest = line
    for v in sorted(ctx.variants(term), key=len, reverse=True):
        rest = rest.replace(v, "|")
    wanted = _content_grams(rest)
    for pointer, word, grams in _described_people(body):
        if (_PERSON_WORD[word] in ("", gender) or not gender) and len(wanted & grams) >= 3:
            return pointer
    return None


REPORTED = re.compile(r"说起|说|讲起|讲|告诉|提起|提到|想起|记得|听说|信里写|写道")
"""The verbs a contract line reports a telling by (孙赏说…, 告诉他…, 想起…): what comes after them is what was told."""
TOLD_DETAIL_MIN = 5
"""How many content pairs (:func:`_content_grams`) of the telling, the place taken out, one paragraph of the prose must
share for the telling to be there with its place unnamed (the pool's good drafts share 5–8; a missing step 1–2)."""
TELLING_LINE_MAX = 200
"""The longest contract line :func:`_place_of_a_telling` reads (a line is a sentence or two: the pool's longest is under
80 characters). Each place of a line is read against the line's whole telling, so a line of thousands of places would
cost places × line; a longer line names its places as any line must."""


def _place_of_a_telling(ctx: CheckContext, term: str, line: str, body: str) -> bool:
    """A place a contract line names only inside a telling it reports (郑国梁说去年在北沟找到许德钧的时候…: after
    :data:`REPORTED`, every time), when one paragraph of the prose tells that telling — at least
    :data:`TOLD_DETAIL_MIN` content pairs of it, and a quarter of them — without the name: the speaker says 那会儿,
    the line's place is a detail of what is said, not where the scene is (K2, stop 54)."""
    if ctx.world is None or term not in ctx.world.places or len(line) > TELLING_LINE_MAX:
        return False
    told = REPORTED.search(line)
    if told is None or any(at < told.end() for at in _spots(term, line)):
        return False
    wanted = _content_grams(line[told.end():].replace(term, "|"))
    need = max(TOLD_DETAIL_MIN, (len(wanted) + 3) // 4)
    return any(len(wanted & grams) >= need for grams in _PARAGRAPH_GRAMS.of(body, lambda: _paragraph_grams(body)))


_PARAGRAPH_GRAMS = PerProse()
"""The prose :func:`_place_of_a_telling` last read and its paragraphs' content pairs: read once a prose, not once
for each of a contract line's places (4,000 places on a line: 264 s at the draft cap; A13, stop 54)."""


def _paragraph_grams(body: str) -> list[set[str]]:
    """The :func:`_content_grams` of each paragraph (line) of ``body``."""
    return [_content_grams(paragraph) for paragraph in body.split("\n")]


def _described_people(body: str) -> list[tuple[str, str, set[str]]]:
    """Each person pointed at unnamed in the prose (:data:`_PERSON_DESCRIBED`) as (the words, the person
    word, the content pairs of its paragraph), in order: read once per prose and thread, so a contract of
    many lines costs one pass of the draft, not one a line."""
    def read() -> list[tuple[str, str, set[str]]]:
        found: list[tuple[str, str, set[str]]] = []
        for paragraph in body.split("\n"):
            pointers = [(m.group(), m.group(1)) for m in _PERSON_DESCRIBED.finditer(paragraph)]
            if pointers:
                grams = _content_grams(paragraph)  # once a paragraph, however many pointers it holds
                found += [(pointer, word, grams) for pointer, word in dict.fromkeys(pointers)]
        return found

    return _DESCRIBED_SEEN.of(body, read)


def _kind_word(term: str, body: str) -> str | None:
    """The kind of a thing (怀表 of 银壳怀表, 箱 of 帆布箱) where the prose names it as a thing: a kind
    of two characters anywhere, one character after a measure word, 的, 那/这 or before 子 (表情 is
    no watch); ``None`` when the prose names no such kind."""
    head = next((h for h in sorted(LOOK_HEADS, key=len, reverse=True)
                 if len(h) >= 2 and term.endswith(h) and len(term) > len(h)), None)
    if head is None:
        head = term[-1:]
        if head and head not in _KIND_MARKS and head != "子":
            after, before_zi = _KIND_SPOTS.of(body, lambda: _kind_spots(body))
            spots = after.get(head, []) + before_zi.get(head, [])
        else:  # a mark or 子 itself: the patterns' own reading of overlaps
            spots = [m.start() + 1 for m in re.finditer(f"(?:[{_KIND_MARKS}]){re.escape(head)}", body)] + \
                    [m.start() for m in re.finditer(f"{re.escape(head)}子", body)]
    else:
        spots = list(starts_of(head, body))
    # 捡到一枚芯片: a chip the prose brings in as new (一 and a measure word) is not the one the book knows
    if len(term) >= 2 and any(not _new_one(body[max(0, at - 2):at].replace(head, "")) for at in spots):
        return head
    return None


LOOK_HEADS = tuple(dict.fromkeys(THING_HEADS + ("芯片", "玉佩", "佩", "罗盘", "簪", "戒", "镯", "坠", "匣", "弓", "杖", "袍", "旗", "幡",
                                                "卷", "图", "书", "瓶", "葫芦", "灯", "伞", "锁", "钥匙",
                                                "怀表", "手表", "表", "手枪", "枪", "打火机", "手杖", "眼镜", "钢笔", "笔",
                                                "相机", "皮箱", "箱", "戒指", "项链", "耳环", "手机", "徽章", "勋章")))
"""The kinds a thing is shown as in prose (a pendant, a compass, a pocket watch …): the suffixes that
make things, and more, of every age."""
_PLAIN_STEM = frozenset("纹阶品级色之的小大上下中")
"""Characters of a thing's name that say nothing of how it looks (龙纹玉佩: 龙 does, 纹 does not)."""


APPEAR = re.compile(r"出场|登场|现身|露面|出现|回来|归来|复活")
"""What a contract line says to ask a character into the chapter (a dead one included: a flashback)."""
_MEASURE = "把枚块柄支只张面颗根串条件口台辆副顶本封盏双"
NAME_OF_A_THING = re.compile(rf"(?:[^，,。！？；;：:“”「」\s的他她我你把被在到往]{{0,8}}?(?<![上里中边旁内外])的)?[这那]一?[{_MEASURE}锭方杆盒包袋箱瓶碗罐坛壶卷册页幅些]")
"""What after a person's name makes the name a part of a thing's name, not a clause's subject: the name as a possessor
before a demonstrative and a thing's measure word (阿爸那副老鞍子, 师父那本旧簿子, 姐那盏灯), or as the doer of a clause
closed by 的 before one (爹写的那张字条, 娘临走时托人捎来的那锭墨) — no pronoun in that clause (老周盯着他的那把锯: 老周 looks), no
把, 被 or place in it (老周趴在往南去的那条船上, 老周把师父留下的那把锯…: 老周 acts) and no place word before its 的
(老周拿起桌上的那把锯: 老周 takes). A grammar, any name and any act: what follows the
colon after such a clause (把阿爸那副老鞍子拎起来，拍了拍：“…”) is the clause's own subject's words, and a 他 after it
(爹写的那张字条，就压在他胸口：…) is not the name (fa1's round, stop 63). Not 个 or 位 (老周那个人 is 老周 himself),
not a time (那会儿, 那天, 那年) or a place (那头, 那边)."""
_LOOK = re.compile(f"[一两][{_MEASURE}台部]([\\u4e00-\\u9fff]{{2,6}}?)的?$")
"""What :func:`looks_of` reads before a held thing: a measure word and its looks."""
_BROUGHT_IN = re.compile(rf"[一两几][{_MEASURE}]")
"""A count and a measure word in the clause before a thing's word: :func:`_told_as_known`'s thing brought in new."""


_KIND_MARKS = _MEASURE + "的那这"
"""What :func:`_kind_word` reads before a kind of one character (一把尺, 的尺, 那尺)."""
_KIND_SPOTS = PerProse()
"""The prose :func:`_kind_word` last read and :func:`_kind_spots` of it."""


def _kind_spots(body: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """``({c: where c stands after one of _KIND_MARKS}, {c: where c stands before 子})`` over the prose, in order: what
    ``re.finditer("(?:[_KIND_MARKS])c")`` and ``re.finditer("c子")`` find for a ``c`` neither a mark nor 子, for every
    ``c`` in one pass (the prose searched once for each thing of hundreds of handover lines; A14, stop 55)."""
    after: dict[str, list[int]] = {}
    before_zi: dict[str, list[int]] = {}
    for i in range(1, len(body)):
        if body[i - 1] in _KIND_MARKS:
            after.setdefault(body[i], []).append(i)
        if body[i] == "子":
            before_zi.setdefault(body[i - 1], []).append(i - 1)
    return after, before_zi


def _new_one(before: str) -> bool:
    """Whether the text right before a thing's word brings it in as new: 一 and a measure word end ``before``
    (捡到一枚芯片 is any chip, not the one the book knows). :func:`_told_as_known` reads a wider count (两/几 too, with
    looks between, for a thing named after its owner); :func:`_only_telling` a count before a place, by any measure
    (一盒上海点心) — other questions, so other readers."""
    return re.search(f"一[{_MEASURE}]$", before[-2:]) is not None


def _kinds_held(ctx: CheckContext) -> Counter[str]:
    """How many of the things characters hold (:attr:`CheckContext.items`) end with each character: counted once while
    the context's things are the same set, not every thing tried for each thing a contract line names (hundreds of
    lines beside a card of thousands of things; A14, stop 55)."""
    return ctx.per_book("kinds held", (ctx.items,), lambda: Counter(other[-1:] for other in ctx.items if other))


def _by_kind(ctx: CheckContext, term: str, body: str) -> bool:
    """A held thing the prose calls by its kind alone (这尺子, 一把尺 for 乌木尺): the only thing
    of that kind the book knows, and its name longer than the kind."""
    head = term[-1:]
    if term not in ctx.items or len(term) < 2 or not head:  # 铜哨 → 哨子, 一只哨
        return False
    if _kinds_held(ctx)[head] > 1:  # another thing of the book ends with it too (term is one of them)
        return False
    # a measure word after a number or 那/这 (一把尺, 那把尺): 把 alone is the particle of 把符纸对折, not a measure;
    # 那/这 alone before a kind no measure word spells (这表), unless the prose brings in another of the kind
    # (借了一柄铁剑…这剑早就裂了)
    counted, pointed, brought_in = _KINDS_SAID.of(body, lambda: _kinds_said(body))
    if head in counted:
        return True
    return head not in _MEASURE and head in pointed and head not in brought_in


_COUNTING = frozenset("一两二三四五六七八九十几半那这每哪整")
_NOT_BETWEEN = frozenset("，,。！？；;“”\n")
_KINDS_SAID = PerProse()
"""The prose :func:`_by_kind` last read and :func:`_kinds_said` of it."""


def _kinds_said(body: str) -> tuple[set[str], set[str], set[str]]:
    """What :func:`_by_kind` asks of the prose for a kind ``h`` (one character), for every character at once, read in
    one pass of the prose (three patterns compiled and searched for each thing a contract line named: hundreds of lines
    beside a card of thousands of things; A14, stop 55): the characters that ``h子`` or
    ``(?:[一两…整]|^)[量词]h`` (``^`` a line's start) finds; those that ``[那这]h`` finds; those that
    ``一[量词][^，,。！？；;“”\\n]{0,4}?h`` finds."""
    counted: set[str] = set()
    pointed: set[str] = set()
    brought_in: set[str] = set()
    for i, c in enumerate(body):
        if body.startswith("子", i + 1):
            counted.add(c)
        if i >= 1 and body[i - 1] in _MEASURE and (i == 1 or body[i - 2] in _COUNTING or body[i - 2] == "\n"):
            counted.add(c)
        if i >= 1 and body[i - 1] in "那这":
            pointed.add(c)
        if c == "一" and body[i + 1:i + 2] and body[i + 1] in _MEASURE:
            for j in range(i + 2, min(i + 7, len(body))):
                brought_in.add(body[j])
                if body[j] in _NOT_BETWEEN:
                    break
    return counted, pointed, brought_in


HOME_KINDS = _HOMELY_PLACES + "厂班园店馆铺局队社堂衙校矿营宗帮团阁台"
"""The last character of a place's or a body's name that its own people call it by (厂里, 你们班, 园子后门, 阁上 of
尊经阁, 台上 of 观象台): a factory, a troupe, a garden theatre, a shop, a team, a sect, a tower or a platform … — not one
that is mostly another word (所, 场, 会)."""
_HOME_BEFORE = "回进到在出去从来是了和跟"
WORKSITE_KINDS = "硐洞窑井坑"
"""The last character of a work site's name its workers call it by alone (进了硐, 洞里只剩两台车床, 窑门开了, 井口, 下了坑):
a mine adit, a cave workshop, a kiln, a shaft, a pit — read like :data:`HOME_KINDS`, and also with 口 after it
(硐口没人守) or at a word's end after a verb of going in or out (弯腰进了硐。). Not in :data:`HOME_KINDS`: a name ending
in them keeps its whole form for :func:`_place_stems` (三号洞 is no 三号). A shaft or a pit (:data:`SHAFT_KINDS`) only by its mouth or gone down into."""
SHAFT_KINDS = "井坑"
"""The work sites of :data:`WORKSITE_KINDS` read only as 井口/坑口 or after 下 (下了井, 下坑): 从井里打水, 到井上挑水,
踩进了坑里 are any household well or pothole, not the contract's shaft (R58b, stop 58)."""
_SHAFT_GONE = "下"
_WORKSITE_GONE = "进入下出回到"


def _kinds_named(ctx: CheckContext) -> dict[str, set[str]]:
    """``{kind: the entities a name the book knows ending in it names}`` for every kind :func:`_by_its_home_kind`
    reads (:data:`PLACE_KINDS`, :data:`HOME_KINDS`): found once a contract, not by reading every name of the book
    for each of its terms (a contract of hundreds of places against a book of thousands)."""
    places = ctx.world.places if ctx.world is not None else set()
    kinds = {*PLACE_KINDS, *HOME_KINDS, *WORKSITE_KINDS}
    sizes = {len(k) for k in kinds}
    out: dict[str, set[str]] = {}
    for n in {*ctx.aliases, *ctx.items, *places}:
        for size in sizes:
            if len(n) >= size and n[-size:] in kinds:
                out.setdefault(n[-size:], set()).add(ctx.aliases.get(n, n))
    return out


def _by_its_home_kind(ctx: CheckContext, term: str, body: str, named: dict[str, set[str]]) -> bool:
    """A place or a body (a troupe, a factory: no person, no held thing) the prose calls by the kind its name ends
    with, the way the people of it do, when no other name the book knows ends with that kind: a kind of one
    character (:data:`HOME_KINDS`, :data:`WORKSITE_KINDS` with its further forms) after 我们/你们/咱/俺 (你们班跑了个唱武生的) or with 子/里/门/上/下 after no character
    or one that moves or places (是班里跑了的, 来园子后门, 回厂里, 在台上); one of two characters or more
    (:data:`PLACE_KINDS`: 仓库 of 上步仓库; or a tail of its own, :func:`_own_kinds`: 水库 of 龙潭水库) after no character,
    one of those or 那/这/的 (仓库里闷得像蒸笼). ``named`` is :func:`_kinds_named` of ``ctx``."""
    canonical = ctx.aliases.get(term, term)
    if len(term) < 2 or term in ctx.items or ctx.is_person(canonical) or (ctx.world is not None and term in ctx.world.items):
        return False
    kinds = [k for k in PLACE_KINDS if term.endswith(k) and len(term) > len(k)] \
        + [term[-1]] * (term[-1] in HOME_KINDS or term[-1] in WORKSITE_KINDS)
    for kind in [*kinds, *(tail for tail in _own_kinds(ctx, term, canonical) if tail not in kinds)]:
        owners = named.get(kind, set())
        if len(owners) > 1 or (owners and canonical not in owners):
            continue  # another name the book knows ends with the kind
        k = re.escape(kind)
        site = kind in WORKSITE_KINDS
        home = rf"(?:(?<![\u4e00-\u9fff])|(?<=[{_HOME_BEFORE}])){k}口|(?<=[{_SHAFT_GONE}])了?{k}(?![\u4e00-\u9fff])" \
            if kind in SHAFT_KINDS \
            else rf"(?<=[们咱俺]){k}|(?:(?<![\u4e00-\u9fff])|(?<=[{_HOME_BEFORE}])){k}[子里门上下{'口' * site}]" \
            + (rf"|(?<=[{_WORKSITE_GONE}])了?{k}(?![\u4e00-\u9fff])" if site else "") if len(kind) == 1 \
            else rf"(?:(?<![\u4e00-\u9fff])|(?<=[们咱俺那这的{_HOME_BEFORE}])){k}"
        if re.search(home, body, re.M):
            return True
    return False


def _own_kinds(ctx: CheckContext, term: str, canonical: str) -> list[str]:
    """The tails of a name of four characters or more that may be its kind when no table lists it (水库 of 龙潭水库,
    稽核所 of 盐务稽核所): two characters or more after two or more that tell which one, that the book's own text
    (:attr:`CheckContext.book_text`) says alone the way its people call it (水库指挥部 — not 老街 of 东门老街, which
    it says only in the whole name), when no other name the book knows ends with the tail and the tail is no held
    thing. Only a name the book knows (a quoted line's words are no name: 七爷到此 is no 到此); read once a book."""
    if len(term) < 4 or (term not in ctx.aliases and (ctx.world is None or term not in ctx.world.places)):
        return []
    # per term, the tails read with the names map they were read against: a draft's own names may end with the tail
    # too, so a context with another map (another draft's) reads them again
    known: dict[str, tuple[dict[str, str], list[str]]] = ctx.per_book("own_kinds", (), dict)
    kept = known.get(term)
    out = kept[1] if kept is not None and kept[0] is ctx.aliases else None
    if out is None:
        ends = ctx.name_index().by_end
        said = ctx.book_text.replace(term, "\n")
        out = [
            tail for tail in (term[i:] for i in range(2, len(term) - 1))
            if tail in said and tail not in ctx.items and ctx.aliases.get(tail, canonical) == canonical
            and not any(n.endswith(tail) and ctx.aliases.get(n, n) != canonical for n in ends.get(tail[-2:], ()))]
        known[term] = (ctx.aliases, out)
    return out


def _inner_place(ctx: CheckContext, term: str, body: str) -> bool:
    """A place the contract names with its district (西市济春堂) and the prose by its own name
    (济春堂): another known place ends the term, and the prose names it."""
    places = ctx.world.places if ctx.world is not None else set()
    if term not in places:
        return False
    return any(term[i:] in places and present(term[i:], body) for i in range(1, len(term) - 1))


def _looks_like(term: str, body: str) -> bool:
    """A thing the prose shows by its looks, in one sentence: its kind and a telling character of
    the rest of its name (一块玉佩，玉佩上盘着一条龙 is 龙纹玉佩). The kind is one of
    :data:`LOOK_HEADS`; a name without one is never matched this way."""
    for head in sorted(LOOK_HEADS, key=len, reverse=True):  # 银壳怀表 is a 怀表, and a 表 (表链, 表盖)
        if not term.endswith(head) or len(term) <= len(head) or head not in body:
            continue
        telling = [c for c in term[: -len(head)] if c not in _PLAIN_STEM][:1]  # 雷击木剑: 雷, not the 木 of 桃木剑
        if telling and any(head in m.group() and telling[0] in m.group() for m in SENTENCE.finditer(body)):
            return True
    return False


def _shaped(ctx: CheckContext, term: str, body: str) -> bool:
    """A thing shown by its shape and stuff under another kind's word: 鱼形的小铜片 is 铜鱼符 —
    every telling character of its name, close together in one sentence, with 形/状/样."""
    if term not in ctx.items and (ctx.world is None or term not in ctx.world.items):
        return False
    stem = [c for c in term[:-1] if c not in _PLAIN_STEM]
    if len(stem) >= 2 and all(c in body for c in stem):
        for m in SENTENCE.finditer(body):
            text = m.group()
            for k, c in enumerate(text):  # a window of seven characters holding the whole stem (沈青's 青 is no 青铜)
                if c in stem and all(x in text[k:k + 7] for x in stem) and re.search("[形状样]", text[k:k + 10]):
                    return True
    return False


# --- leak and waste -----------------------------------------------------------------------------


@dataclass
class Voice:
    """Words someone says or thinks (``speaker``), or the narration's own (``speaker`` None)."""

    speaker: str | None
    words: str
    line: int  # 0-based index in the body
    column: int  # 1-based
    guessed: bool = False  # the speaker was inferred (turn-taking, a pronoun), not named by the text


_KIN_SAYS = re.compile(r"[，,]?\s*([\u4e00-\u9fff])(?:[^。！？“”，,]{0,4}?)" + SAY)
_KIN_SAID = re.compile(r"(?:^|(?<=[”」。！？，,\s]))([\u4e00-\u9fff])[^。！？“”，,]{0,4}?" + SAY + r"[，,：:]?\s*$")
"""A quote followed by a one-character kin word and a verb of saying (“…”妈说, “…”妈在那头笑), or
led by them (妈说，“…”); the word alone, not the end of another (姑妈说)."""


OWN_WORDS = re.compile(r"[^，,。；;：:]{0,4}?(?:信|话|字|条|留言|电报|短信|声|嗓|喉咙|口气|语气|口吻|腔|原话|意思|吩咐|交代|嘱咐|遗言)")
"""What a name's 的 may own before a colon that is its words or its voice (陆掌柜的信上只有一句：…, 老祁的嗓子哑得厉害：…,
师父的原话是：…): the words after the colon are theirs; any other thing (老葛的账, 孙厂长的背影) is only handled or looked at
by the clause's speaker."""


def _attributed(ctx: CheckContext, names: re.Pattern[str], clauses: _Clauses, line: str, m: re.Match[str],
                people_outside: Callable[[], frozenset[str]],
                turned_to: Callable[[str], bool] | None = None) -> str | None:
    """The speaker a quote's own line names: ``X道：“…”``, ``“…”X问``, or the only person there
    (``people_outside``: the people the line names outside its quotes, :func:`_people_outside_quotes`)."""
    before = line[max(0, m.start() - 24):m.start()]
    after = line[m.end():m.end() + 16]
    person = ctx.is_person
    for cand in reversed([c for c in names.finditer(before) if person(c.group())]):
        tail = before[cand.end():]
        if before[cand.start() - 1:cand.start()] in _TO and cand.start() > 0:
            continue  # 对韩拓说：the one spoken to
        if LOOK_BEFORE_NAME.search(before, 0, cand.start()):
            continue  # 郭秀兰盯着孙厂长的背影，压低声音说：the one looked at, not the clause's subject who speaks
        if HEARD.search(before, 0, cand.start()) and before[cand.end():cand.end() + 1] == "的":
            continue  # 听了阿秋的话也不信，摇着头说：the one whose words were heard, not the one who answers them
        if _acted_on(before, cand.start()):
            continue  # 阿朵放下碗，走到和远山身边，压低声音说：the one walked to, spoken with or touched, not the chain's subject
        if re.search(SAY + r"|" + THINK, tail) and not re.search(r"[。！？”」]", tail):
            return cand.group()
    if re.search(r"[：:]\s*$", before):  # 孟三娘压低了声音：“…” — the clause's own person speaks
        clause = _last_clause(before, len(before))
        # 对着老葛的账一行一行算，…：“…” — a name closed by 的 inside a piece owns a thing the piece's act handles; it does
        # not speak (P3, stop 60: 连续性-盲评四十六's 好-5) — unless the thing is its words (陆掌柜的信上…: :data:`OWN_WORDS`);
        # one opening its piece is its subject (小川的心往下一沉：…)
        own = [c for c in names.finditer(clause)
               if person(c.group()) and (clause[c.start() - 1:c.start()] not in _TO or c.start() == 0)
               and (clause[c.end():c.end() + 1] != "的" or OWN_WORDS.match(clause, c.end() + 1)
                    or line[:m.start() - len(clause) + c.start()].rstrip()[-1:] in ("", *"，,。；;！？!?“”"))
               and not (NAME_OF_A_THING.match(clause, c.end()) and not OWN_WORDS.match(clause, c.end()))]
        if own:
            return own[0].group()
    # “…”阿庆嫂朝门外瞟了一眼，“…” — a beat between two parts of one speech, or before a quote,
    # that starts with a person: that person speaks
    clause = _last_clause(line, m.start())
    if re.search(r"[，,]\s*$", clause):  # 林晚看着他，大长老叹了口气，“…”: the last piece led by a person
        for piece in reversed(re.split(r"[，,]", clause)):
            lead = names.match(piece.strip())
            if lead and person(lead.group()):
                return lead.group()
    lead = clauses.speaks_on.match(line, m.end())
    if lead and person(lead.group(1)):
        return lead.group(1)
    post = next((c for c in names.finditer(after) if person(c.group())), None)
    if post and re.match(r"^[，,。\s]*$", after[:post.start()]) and re.match(r"^[^。！？“]{0,8}?" + SAY, after[post.end():]):
        return post.group()
    # “…”妈说 / 妈说，“…”: the point of view's one-character word for a relative (妈妈) speaks
    for kin in (_KIN_SAYS.match(after), _KIN_SAID.search(before)):
        if kin and kin.group(1) * 2 in ctx.kin_words and kin.group(1) * 2 in ctx.aliases:
            return kin.group(1) * 2
    # “…” alone with its one person, or after that person's own sentence (裴照微…额上还带着汗。“…”)
    led = names.match(line) is not None and _solid_before(line, m.start()) in ("。", "！", "？") and m.start() > 0
    if m.start() <= 1 or led:
        who = people_outside()
        if len(who) == 1 and not (turned_to is not None and turned_to(next(iter(who)))):
            return next(iter(who))
    return None


def _spoken_to_only(ctx: CheckContext, names: re.Pattern[str], told: str, who: str) -> bool:
    """Whether every naming of ``who`` in a line's narration ``told`` (its quotes blanked) stands right after a word of
    turning to (:data:`_TO`: 她回头冲孟和说): the one spoken to, no speaker of the line (hk1, stop 63)."""
    said = [n for n in names.finditer(told) if ctx.aliases.get(n.group(), n.group()) == who]
    return bool(said) and all(n.start() > 0 and told[n.start() - 1] in _TO for n in said)


def _blank_quotes(line: str) -> str:
    """``line`` with each of its quotes blanked (the same length: positions stand)."""
    parts, at = [], 0
    for q in quote_matches(line):
        parts += [line[at:q.start()], " " * (q.end() - q.start())]
        at = q.end()
    return "".join(parts) + line[at:]



def _solid_before(text: str, at: int) -> str:
    """The last non-blank character of ``text[:at]`` (``text[:at].rstrip()[-1:]``), the text before it not copied: a
    line of thousands of quotes asks it at each."""
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return text[at - 1:at] if at > 0 else ""


def _people_outside_quotes(ctx: CheckContext, line: str, names: re.Pattern[str]) -> frozenset[str]:
    """The people (as the cards name them) a line names outside its quotes, read once for all its quotes by
    :func:`voices` (a quote blanked first and then the rest is the same as every quote of the line blanked): a line of
    thousands of quotes and names had gathered them again at each quote (43 s at the draft cap; A17, stop 57)."""
    return frozenset(ctx.aliases[n] for n in _named_outside_quotes(line, names) if ctx.is_person(n))


def _named_outside_quotes(line: str, names: re.Pattern[str]) -> tuple[str, ...]:
    """The names a line says outside its quotes (a quote blanked first and then the rest is the same as every quote
    of the line blanked)."""
    return tuple(n.group() for n in names.finditer(_blank_quotes(line)))

OBJECT_BEFORE_NAME = re.compile(
    r"(?:走|来|凑|跑|挪|靠|奔|冲|退|坐|站|蹲|踱|移|转|追|赶|回|扑|爬|溜|闪|跟|挤)了?(?:到|近|至|过去到)$|"  # 走到X身边
    r"(?<=[\u4e00-\u9fff])(?:和|与)$|"  # 阿朵和X说 (after a word: 和 leading a clause is a name's own)
    r"(拍|摸|推|拉|扯|拽|捅|碰|戳|按|捏|揉|晃|摇|搡|挠|掐)了?\1$|"  # 拍了拍X的肩, 推推X (a hand's verb: 偏偏X说 is X's)
    r"(?:拍|摸|按|捏|推|碰|戳|捅|踢|撞|挽|牵|搀|抱|揽|拦|叫住|喊住|找|扒拉)(?:了|住|着|起|开)?(?:一下|一把)?$")
"""What right before a name makes it the object of a clause in a chain before a quote, not its subject (L1, stop 57:
U12, U13, U14 — 走到和远山身边，…说): a goal of motion (走到/来到/凑到/跑到/挪到/靠到 X 身边), a partner after 和/与 (the
other prepositions are :data:`_TO`), the one a hand's verb, reduplicated (拍了拍 X 的肩) or not (推着, 按住), or a verb of
seeking (找) acts on — not an adverb doubled (偏偏, 刚刚: X after it is the subject). Read from the name back, as :data:`LOOK_BEFORE_NAME`."""


def _acted_on(before: str, at: int) -> bool:
    """Whether the name at ``at`` of ``before`` is an object of its clause (:data:`OBJECT_BEFORE_NAME`)."""
    return OBJECT_BEFORE_NAME.search(before, max(0, at - 6), at) is not None


HEARD = re.compile(r"听(?:了|完|罢|到|见|着)?$")
"""What right before a name makes it the one heard (听了阿秋的话): not the speaker of the clause's 说."""
_TO = ("对", "向", "跟", "朝", "冲", "给", "问")
"""A name right after one of these is the one spoken to (对韩拓说), not the speaker."""
LOOK_BEFORE_NAME = re.compile(r"(?:(?:盯|看|望|瞪|瞅|瞧|瞥|瞟|注视|凝视|打量|朝|冲|对|拉|拽|扯|揪|抓|握|扶|搂|指)(?:着|住|向)|"
                              r"(?:看|望|瞪|瞅|瞧|瞥|瞟|打量)了(?:一眼|一下|眼)?|转向|转身向|扭头看|回头看)$")
"""A verb of looking, facing, pointing or holding on to right before a name (盯着孙厂长, 看向爹, 拉着她的手, 转向老周):
that name is the one looked at or held, the object — the clause's subject before it (郭秀兰盯着孙厂长的背影，…说) is
the one who speaks. Read from the name back (``search(before, 0, name start)``), the line's own text, no new pass."""


class _Mentioned:
    """The people the scene's recent narration paragraphs name, the latest paragraph first —
    read only when a lone quote asks (a person named two paragraphs up is still in the room)."""

    RECENT = 4

    def __init__(self, ctx: CheckContext, names: re.Pattern[str], lines: list[str]) -> None:
        self.ctx, self.names, self.lines = ctx, names, lines[-self.RECENT:]
        self._found: list[str] | None = None

    def __iter__(self) -> Iterator[str]:
        if self._found is None:
            self._found = list(dict.fromkeys(self.ctx.aliases.get(n.group(), n.group())
                                             for line in reversed(self.lines) for n in self.names.finditer(line)
                                             if self.ctx.is_person(n.group())))
        return iter(self._found)


SILENT_REPLY = re.compile(r"摇头|摇了摇头|点头|点了点头|耸肩|耸了耸肩|没说话|没有说话|没吭声|不吭声|没作声|不作声|没回答|没有回答|"
                          r"没接话|没应声|一言不发|沉默|不说话|不答|"
                          # lk2's round (stop 63): a wave of the hand, a thing neither owned nor denied, a mouth kept shut
                          r"摆摆手|摆了摆手|没(?:有)?(?:承认|否认|出声|答话|搭腔|言语|应)|不(?:出声|搭腔|言语)")
"""A turn taken without words (老周摇头。): the question after it is the asker pressing on."""


def _lone_speaker(turns: list[str], beat: str | None, mentioned: Iterable[str], after_narration: bool,
                  pressed: bool = False) -> str | None:
    """Who says a quote alone in its paragraph, by the turn-taking around it: right after a
    narration paragraph, the person that paragraph starts with (the action beat: 沈砚点了点头。
    “走吧。”) — unless ``pressed``: that paragraph answered without words (:data:`SILENT_REPLY`)
    and the quote is a question, the last speaker asking again (“是谁？” 护士摇头。 “是主任？”);
    after another quote, the other party of the exchange — the speaker before the last
    one, else the person the recent narration named last who is not the last speaker."""
    if after_narration and beat:
        return turns[-1] if pressed and turns and turns[-1] != beat else beat
    if not turns:
        return beat
    last = turns[-1]
    other = next((s for s in reversed(turns) if s != last), None)
    return other or next((n for n in mentioned if n != last), None) or (beat if beat != last else None)


READ_OUT = re.compile(r"(?<![想怀惦思纪悼挂])(?:念|读)(?![叨头经佛书])[^。！？“”：:，,]{0,4}[：:，,]\s*$")
"""A clause that reads a written text out, right before the quote it reads (接着念：, 小声念，, 往下读：) — not 念叨
(muttering: the speaker's own words), 想念, 读书."""
NOT_A_LETTER = r"(?![任号息用心誉仰服物徒赖奉手步口念])"
"""What after 信 makes another word of it (信任, 信号, 信息, 信心, 信物, 信手, 信口): no letter."""
LETTER_NOUN = (r"(?:(?:封|份|的|来|回|书|家|写|寄|念|读|看|拆|开|收|到|把|送|这|那|此|密)信|"
               r"(?<![相自确迷诚威通不深坚轻误听置笃守失背可])信(?:纸|封|笺|件|上|里|中|末|尾)|"
               r"(?:^|(?<=[，,。！？；：:、“”「」\s]))信(?![不了他她你我得过]))" + NOT_A_LETTER)
"""信 as a letter, a noun: counted (一封信, 第二封信), owned (X的信), sent, held or read (来信, 回信, 写信, 寄信, 收到信, 把信, 念信, 读信, 拆开信),
shown (这信, 那信), a part of one (信上, 信里, 信纸, 信封) or a clause's subject (…，信是隔壁的老师代写的) — never the verb or a compound (不信, 信不信, 相信, 深信,
信任, 信号, 信息)."""
LETTER_WORD = re.compile(LETTER_NOUN + r"|电报|短信")
"""A letter the prose speaks of (:data:`LETTER_NOUN`, 电报, 短信). A note (沈砚的字条) is not one: who reads it out is read
as before."""
WRITER_CUE = re.compile(r"的(?:[^，,。！？“”\n]{0,5}?[封份])?信" + NOT_A_LETTER + r"|的[^，,。！？“”\n]{0,6}?(?:电报|短信)|"
                        r"(?:又|再|还)?(?:写|寄|捎|发)(?:给[^，,。！？“”\n]{0,4})?(?:来|过来)?的|的?来信" + NOT_A_LETTER)
"""What follows a person who sent a letter (阿妈的第二封信, 你娘的信, 伯年又写给你的, 他寄来的, 你妈来信了 — K5, stop 56): its writer; after 给 the
person is the one it goes to (写给娘的信). A 信 that is no letter's (阿秋的话也不信) names no writer."""
SIGNATURE = signature(r"[\u4e00-\u9fff]{1,4}?")
"""A letter's last sentence a name alone (落款: 娘。 伯年手书。 阿妈。 — :func:`lw_storyrepo.continuity.signature`)."""
SALUTED = re.compile(r"[“「](?:[^，,。！？!?：:“”「」\s]{1,6}、)?([^，,。！？!?：:“”「」、\s]{1,6})[：:]")
"""A quote that opens with a salutation and a colon (“川娃：见字如面, “山子：, “景山如晤：, “娘、二弟：) — how a letter starts,
not speech (a call in speech takes a comma): after a paragraph that speaks of a letter (把信展开。), the letter read out
(K5, stop 56; 三十九, 三十五, 二十八, 十二, 十八, 二十三). The words before the colon must be an address
(:func:`_salutation`), not any word (都听着：, 注意：, 通知： open speech — R56)."""
ADDRESS_ENDS = ("如晤", "台鉴", "膝下", "知悉", "见字", "诸位", "吾儿", "娃", "仔", "子", "儿", "郎", "生", "弟", "兄", "妹", "姐",
                "哥", "妈", "娘", "爹", "爸", "伯", "叔", "婶", "姑", "嫂", "爷", "奶", "婆")
"""How an address ends (川娃, 春子, 禹儿, 二郎, 沈生, 砚弟如晤, 驿令台鉴, 姆妈膝下, 井上诸位): a kin word, a pet-name end or a
letter's opening formula."""
FAMILIAR = re.compile(r"[阿小老][\u4e00-\u9fff]")
"""A familiar name of two characters (阿生, 小宋, 老卢)."""


def _salutation(ctx: CheckContext, text: str) -> bool:
    """Whether ``text`` opens on a letter's salutation (:data:`SALUTED`): the words before the colon are a name the
    book knows, a familiar name (:data:`FAMILIAR`) or end in an address (:data:`ADDRESS_ENDS`) — 都听着：, 注意：, 通知：
    are speech (R56, stop 56)."""
    m = SALUTED.match(text)
    if m is None:
        return False
    called = m.group(1)
    return called in ctx.aliases or FAMILIAR.fullmatch(called) is not None or called.endswith(ADDRESS_ENDS)
READ_DONE = re.compile(r"[^“”「」。！？!?\n]{0,8}?(?<![想怀惦思纪悼挂])(?:念|读)"
                       r"(?:到这里|到这儿|完了?(?:这封信|那封信|信|电报)?(?=[，,。；;！!？?…—\s]|$))")
"""A paragraph opening on the reading stopped or done (罗建川念完了, 念到这里，他顿了一下, 信念完了, 念完了信，): the quote right
before it was read out, not said (K5, stop 56: the pool's letters, twenty books — 三十九, 三十八, 三十六, 二十八, 二十六, 六, …).
The reading done has the letter as its object or nothing after it: 念完 with another word after it is another word or
another reading (老秦的信念完全垮了: 信念, a belief; 念完初中, 念完书, 读完大学: schooling — R56, stop 56)."""
LETTER_GAP = 2
"""How many narration paragraphs may stand between two read parts of one letter (美玲坐了起来。 宋家栋往下念：)."""
LETTER_RUN_MAX = 4
"""How many quote-alone paragraphs a letter may enclose beyond its read parts (:func:`_enclosed_runs`): a letter's
unread middle is a few paragraphs; a longer run of lone quotes is a dialogue (R58b, stop 58)."""
YOURS = ("你们家", "你家", "你")
"""How a listener's words open on the reader's own person (你哥有口福。 你阿母真好。 你额吉的？ 你家阿妈…): said to the one
reading a letter out, about someone of theirs — the letter's writer (:func:`_named_to_reader`)."""
TO_A_CHILD = re.compile(r"(?:[\u4e00-\u9fff]{1,2}儿|孩子|娃儿?|乖乖)[：:，,]")
"""A letter's salutation an elder writes to a child (满儿：, 吾儿：, 孩子：): its writer is a parent or an elder of the
reader's, not a brother or a friend a listener asks after (R59, K8-1)."""
ELDER_KIN = re.compile(r"[爹娘妈爸父母爷奶婆公吉叔伯姑舅姨]")
"""The kin whose letters call the reader as a child (你爹, 你阿母, 你额吉, 你二叔)."""
QUESTION_MARKS = frozenset("？?")
"""A paragraph holding a question is said to someone there (还能有谁？冬梅。 answers one): no letter's signature."""


def _signer(ctx: CheckContext, signed: str) -> str | None:
    """The person a letter's signature names: a name or alias of theirs, or the given name of a surnamed name
    (伯年 of 韩伯年) that no one else shares."""
    if ctx.is_person(signed) and signed in ctx.aliases:
        return ctx.aliases[signed]
    if len(signed) < 2:
        return None
    owners = {p for p in set(ctx.aliases.values()) if len(p) == len(signed) + 1 and p.endswith(signed) and surname_of(p)
              and ctx.is_person(p)}
    return next(iter(owners)) if len(owners) == 1 else None


def _named_to_reader(ctx: CheckContext, names: re.Pattern[str], lines: list[str], filled: list[int],
                     rank: dict[int, int], group: list[int]) -> str | None:
    """The writer of a letter no signature and no sender names, as a listener names them to the reader: a quote in the
    paragraphs around the letter's read parts (from :data:`LETTER_GAP` paragraphs before its first to
    :data:`LETTER_GAP` after its last, the read parts themselves left out) that opens on :data:`YOURS` and a person
    (“你哥有口福。” “你阿母真好。” “你额吉的？念念” — K8, stop 59: a letter read aloud to someone there, 二十八,
    三十三, 四十四) who is not in the draft's 在场 and not dead (:attr:`CheckContext.dead`: 你爹坟上…, 你师父死以前…
    speak of the dead): the reader's absent relative the letter came from. The first such quote names them; none: no
    writer.
    ``filled``: the draft's non-blank paragraphs, ``rank`` their places in it."""
    read = set(group)
    lo, hi = max(0, rank[group[0]] - LETTER_GAP), min(len(filled), rank[group[-1]] + LETTER_GAP + 1)
    opening = lines[group[0]].lstrip()
    to_a_child = TO_A_CHILD.match(opening, 1) is not None if opening[:1] in "“「" else False
    for i in filled[lo:hi]:
        if i in read:
            continue
        text = lines[i]
        for q in quote_matches(text):
            words = text[q.start() + 1:q.end()]
            mine = next((p for p in YOURS if words.startswith(p)), None)
            if mine is None:
                continue
            if rank[i] > rank[group[-1]] and QUESTION_MARKS & set(words):
                continue  # 你山河哥今年回不回来？ asked after the reading is about them, not whose the letter is
            if to_a_child and not ELDER_KIN.search(words, len(mine), len(mine) + 3):
                continue  # 满儿：… is an elder's to a child: not 你哥's
            whole = names.match(words)  # a kin form the book knows with its 你 (你哥), else the name after it
            found = whole if whole is not None and len(whole.group()) > len(mine) else names.match(words, len(mine))
            who = ctx.aliases.get(found.group(), found.group()) if found is not None else None
            if who is not None and ctx.is_person(who) and who not in ctx.cast and who not in ctx.dead:
                return who
    return None


def _quote_alone(text: str) -> bool:
    """Whether a paragraph is one or more quotes and nothing else (“…” “…”): no narration, no speech tag."""
    if not text or text[0] not in "“「" or text[-1] not in "”」":
        return False
    at = 0
    for q in quote_matches(text):
        if text[at:q.start()].strip():
            return False
        at = q.end()
    return at == len(text)


def _enclosed_runs(ctx: CheckContext, lines: list[str], filled: list[int], read: list[int]) -> list[int]:
    """``read`` (the letter paragraphs found, in order) with the quote-alone paragraphs a letter encloses: a run of
    adjacent paragraphs that are quotes and nothing else (:func:`_quote_alone`) is all the letter's when it opens on a
    read paragraph or within :data:`LETTER_GAP` narration paragraphs after one, and closes on a read paragraph or on a
    signature naming a person (:data:`SIGNATURE`, :func:`_signer`) in a paragraph that asks nothing
(:data:`QUESTION_MARKS`), or — opening right on a read paragraph and asking nothing — when the letter is read on after
    a pause to its signature (:func:`_read_on_signed`), and adds at most :data:`LETTER_RUN_MAX` paragraphs. A letter read paragraph by paragraph, each closing
    its quote (“生子：…” “…哥。”), or going on after the reader's pause (念到这里，停了停。 “…” “…” 信念完了。), is the
    writer's to its end; a run that ends on no read paragraph and no signature (the listener's “好事，好事。”) is left
    to the other readings. Each paragraph is looked at once."""
    if not read:
        return read
    taken = set(read)
    runs: list[list[int]] = []
    prev: int | None = None
    for i in filled:
        alone = _quote_alone(lines[i].strip())
        if alone and runs and runs[-1][-1] == prev:
            runs[-1].append(i)
        elif alone:
            runs.append([i])
        prev = i
    rank = {i: k for k, i in enumerate(filled)}
    read_ranks = sorted(rank[i] for i in read)
    for run in runs:
        if all(i in taken for i in run):
            continue
        first = rank[run[0]]
        k = bisect_right(read_ranks, first) - 1  # the last read paragraph at or before the run's first
        opens = k >= 0 and first - read_ranks[k] - 1 <= LETTER_GAP
        last = lines[run[-1]].strip().rstrip("”」")
        signed = SIGNATURE.search(last)
        closes = run[-1] in taken or (signed is not None and not QUESTION_MARKS & set(last)
                                      and _signer(ctx, signed.group(1)) is not None) \
            or (k >= 0 and read_ranks[k] == first and _read_on_signed(ctx, lines, filled, read_ranks, rank[run[-1]])
                and not any(QUESTION_MARKS & set(lines[i]) for i in run if i not in taken))
        if opens and closes and sum(1 for i in run if i not in taken) <= LETTER_RUN_MAX:
            taken.update(run)
    return sorted(taken)


READ_ON = re.compile(r"(?:念|读)下去|(?:接着|往下|继续|又|再)(?:念|读)|(?:念|读)到这里|停了停|顿了顿|停了一下|顿了一下")
"""In a letter's pause: the reading said to go on (“念下去。”, 接着念, 念到这里，停了停) — the pause is the reading's, not a
talk of its own (r62-4)."""
LETTER_PAUSE_MAX = 4
"""How many paragraphs (the listener's start, a word, “念下去”) a letter's reading may pause for and still be one letter
read on: :func:`_read_on_signed`."""


def _read_on_signed(ctx: CheckContext, lines: list[str], filled: list[int], read_ranks: list[int], end: int) -> bool:
    """Whether the letter whose read part a run of lone quotes opens on is read on after a pause and signed: the next
    read part after the run's last paragraph (rank ``end``) comes within :data:`LETTER_PAUSE_MAX` paragraphs and ends on
    a signature naming a person (:data:`SIGNATURE`, :func:`_signer`), the pause saying the reading goes on
    (:data:`READ_ON`). A letter opened on its salutation (“阿福：…”), read
    on in a paragraph of its own, paused by the listener (阿三哥手里的纱一下子扯断了。 … “念下去。”) and read to its
    signature (…哥。” 福生念完) is its writer's in every part; a reply right after a letter read to no signature stays
    the listener's (:func:`_enclosed_runs`)."""
    k = bisect_right(read_ranks, end)
    if k >= len(read_ranks) or read_ranks[k] - end - 1 > LETTER_PAUSE_MAX \
            or not any(READ_ON.search(lines[filled[r]]) for r in range(end + 1, read_ranks[k])):
        return False
    last = lines[filled[read_ranks[k]]].strip().rstrip("”」")
    signed = SIGNATURE.search(last)
    return signed is not None and not QUESTION_MARKS & set(last) and _signer(ctx, signed.group(1)) is not None


def _letters(ctx: CheckContext, names: re.Pattern[str], lines: list[str]) -> dict[int, tuple[str, bool]]:
    """The paragraphs that read a letter (or a wire, a text message) out, and whose words they are: ``{line: (writer,
    guessed)}``. A letter's paragraph is a quote opened right after a paragraph that speaks of a letter or of reading
    and ends in a colon (…端端正正：), one led by a reading clause (罗秀英接着念：“…”, 小声念，“…”), one opened by a
    salutation after a paragraph that speaks of a letter (:data:`SALUTED`: 把信展开。 “川娃：…”), one the next paragraph
    says was read (:data:`READ_DONE`: 罗建川念完了), or a paragraph going on a letter whose last paragraph left its quote
    open (the many-paragraph quote). Parts read within
    :data:`LETTER_GAP` narration paragraphs of each other are one letter. Its writer: the person its last sentence
    signs (:data:`SIGNATURE`: 娘。 伯年手书。 — not guessed), else the last person the prose said sent a letter
    before it (:data:`WRITER_CUE`: 阿妈的第二封信 — guessed). The reader's voice reads another's words: whatever the
    letter gives away is its writer's; a letter with no writer found is left to the other readings."""
    if not any(LETTER_WORD.search(line) for line in lines):
        return {}
    read: list[int] = []
    prev: int | None = None  # the last non-blank paragraph
    open_letter = False  # the last paragraph was a letter's, its quote left open
    filled = [i for i, line in enumerate(lines) if line.strip()]
    after = dict(zip(filled, filled[1:]))  # each paragraph's next non-blank one
    for i, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        starts_quoted = text[0] in "“「"
        before = lines[prev].strip() if prev is not None else ""
        cue = starts_quoted and ((before[-1:] in "：:" and (LETTER_WORD.search(before) or READ_OUT.search(before[-8:])))
                                 or (_salutation(ctx, text) and LETTER_WORD.search(before) is not None)
                                 or (i in after and READ_DONE.match(lines[after[i]].strip()) is not None))
        led = next((True for q in quote_matches(text) if READ_OUT.search(text[max(0, q.start() - 12):q.start()])), False)
        if (starts_quoted and open_letter) or cue or led:
            read.append(i)
            open_letter = text.count("“") > text.count("”")
        else:
            open_letter = False
        prev = i
    read = _enclosed_runs(ctx, lines, filled, read)
    rank = {i: k for k, i in enumerate(filled)}
    out: dict[int, tuple[str, bool]] = {}
    groups: list[list[int]] = []
    for i in read:
        gap = sum(1 for k in range(groups[-1][-1] + 1, i) if lines[k].strip()) if groups else LETTER_GAP + 1
        if gap <= LETTER_GAP:
            groups[-1].append(i)
        else:
            groups.append([i])
    for group in groups:
        last = lines[group[-1]].strip().rstrip("”」")
        signed = SIGNATURE.search(last)
        writer = _signer(ctx, signed.group(1)) if signed else None
        guessed = writer is None
        if writer is None:
            text = "\n".join(lines[max(0, group[0] - 12):group[0]])
            for cue in WRITER_CUE.finditer(text):
                head = text[max(0, cue.start() - 8):cue.start()]
                found = [n for n in names.finditer(head) if n.end() == len(head) and ctx.is_person(n.group())
                         and head[n.start() - 1:n.start()] != "给"]
                if found:
                    writer = ctx.aliases.get(found[-1].group(), found[-1].group())
        if writer is None:
            writer = _named_to_reader(ctx, names, lines, filled, rank, group)
        if writer is not None:
            out.update(dict.fromkeys(group, (writer, guessed)))
    return out


def voices(ctx: CheckContext, lines: list[str], letters: bool = False) -> Iterable[Voice]:
    """Everything the draft says, by whom: attributed dialogue (a quote alone in its paragraph
    by the turn-taking around it, :func:`_lone_speaker`), thoughts and what a character knows
    (心想、心里清楚、知道、想起…), and the narration's own sentences. ``letters``: a letter read out is its
    writer's words (:func:`_letters`) — what the leak check asks; the writer is not in the scene for that, so the
    contract and continuity readings (who is there, who speaks) take the voices without it."""
    names = ctx.names_re()
    # the patterns built on the names, looked up once: a pattern is a key by its whole compiled code
    # (hashed and compared at every lookup), thousands of names' worth at every line of a draft
    clauses = _clauses_of(names) if names else None
    subject: str | None = None
    beat: str | None = None  # who acts last in the narration before a lone quote (:func:`_beat`)
    # who spoke, in the order of their last turns (each once: the turn-taking asks only for the last one unlike some
    # other, which a draft of thousands of quotes of one speaker had walked back through all of: A15, stop 55)
    turns: list[str] = []
    mentioned: Iterable[str] = ()  # the people the recent narration paragraphs named, latest first
    narration: list[str] = []  # the narration paragraphs so far
    after_narration = False
    silent = False  # the last narration paragraph answered without words (:data:`SILENT_REPLY`)
    read_out = _letters(ctx, names, lines) if names and letters else {}  # the paragraphs reading a letter out: its writer
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        letter = read_out.get(i)
        opener = len(line) - len(line.lstrip())
        if letter is not None and line[opener] in "“「" and next(quote_matches(line), None) is None:
            # a letter's paragraph whose quote goes on past it: all of it the writer's
            yield Voice(letter[0], line[opener + 1:], i, opener + 2, letter[1])
            after_narration = False
            continue
        taken: list[tuple[int, int]] = []
        # a short quote without punctuation is a term (刻着“慕容”), not speech: it stays narration
        quotes = [q for q in quote_matches(line) if SPOKEN.search(q.group()[1:-1])] if names else []
        outside = line
        if quotes:  # each quote blanked, in one join
            parts, at = [], 0
            for q in quotes:
                parts += [line[at:q.start()], " " * (q.end() - q.start())]
                at = q.end()
            outside = "".join(parts) + line[at:]
        first = next((n for n in names.finditer(outside) if ctx.is_person(n.group())), None) if names else None
        # no person named around the quotes (他把银子揣进怀里，“…”): the turn-taking says who speaks;
        # an unnamed speaker's own clause (老汉点点头：“…”) says it is nobody the book knows
        alone = bool(quotes) and first is None
        turn: str | None = None  # who says this paragraph's first quote: a paragraph with no name in it is one turn
        people_outside = functools.cache(functools.partial(_people_outside_quotes, ctx, line, names)) if names and quotes else None
        # whether the line's narration names a person only as the one turned to: read once a line and person (r63-21)
        turned_to = functools.cache(functools.partial(_spoken_to_only, ctx, names, outside)) if names and quotes else None
        marks = _LineMarks(ctx, names, outside)
        for m in quotes:
            if letter is not None:  # a letter read out: its writer's words, not the reader's
                words = next(g for g in m.groups() if g is not None)
                yield Voice(letter[0], words, i, m.start() + 1, letter[1])
                taken.append(m.span())
                continue
            speaker = _attributed(ctx, names, clauses, line, m, people_outside, turned_to) \
                if names and clauses is not None and people_outside is not None else None
            lead = marks.lead(m.start())
            guessed = speaker is None
            if speaker is None and lead and names:  # 他…借着炉火低声念出声：“…”
                speaker = _referent(ctx, None, subject, lead) or marks.first_of_gender(m.start(), lead)
            if speaker is None and alone and turn is not None:
                speaker = turn  # “…”她咬着嘴唇，“…”: the paragraph's later quote goes on the same turn
            elif speaker is None and turn is not None and taken and PRONOUN_BEAT.fullmatch(line, taken[-1][1], m.start()) \
                    and _gender_of(ctx, turn) in ("", line[taken[-1][1]:m.start()].lstrip()[0]):
                # “…”孙某把账本一合，“…”他压低了声音，“…”: the pronoun right after a quote is its speaker — not a 她
                # after a man's quote (FK6, stop 57)
                speaker = turn
            elif speaker is None and alone and not marks.unnamed(m.start()):
                asked = next(g for g in m.groups() if g is not None).rstrip().endswith(("？", "?"))
                speaker = _lone_speaker(turns, beat, mentioned, after_narration, silent and asked)
                if speaker and ctx.cast and ctx.aliases.get(speaker, speaker) not in ctx.cast:
                    speaker = None  # turn-taking picks among the scene's cast when the draft lists it
                if speaker is None and after_narration and names:
                    speaker = _other_of_two(ctx, names, next(g for g in m.groups() if g is not None),
                                            narration[-1] if narration else "")
            elif speaker is None and alone and len(ctx.cast) == 2:
                # 秋生想了半天，问：“…” — an unnamed clause led by the given name of one of a scene of two: theirs
                clause = outside[marks.clause_start(m.start()):m.start()].lstrip()
                speaker = next((p for p in sorted(ctx.cast) if len(p) == 3 and surname_of(p) == p[0]
                                and clause.startswith(p[1:]) and not lexicon().freq.get(p[1:])
                                and clause[2:3] not in NOT_AFTER_SUBJECT), None)
            words = next(g for g in m.groups() if g is not None)
            if speaker is None and names and people_outside is not None:
                speaker = _other_of_cast(ctx, names, words, line, m, people_outside())
                if speaker is None and turn is not None and taken:
                    speaker = _beat_of_cast(ctx, names, line[taken[-1][1]:m.start()], turn)
            called = _called_at_start(ctx, names, words) if speaker and names else None
            if called is not None and called == ctx.aliases.get(speaker or "", speaker):
                # “川哥，我想了一上午”: the one the words call at their start is spoken to, not speaking — a guess by the
                # turn-taking goes to the other party of the exchange (one alive: a memory's voice is no party), an
                # attribution to nobody
                speaker = next((s for s in reversed(turns) if s != called and s not in ctx.dead
                                and (not ctx.cast or s in ctx.cast)), None) if guessed and alone else None
                # (among the scene's cast when the draft lists it, as the turn-taking picks: a letter's writer read out
                # before is no party — K3, stop 55)
                if speaker is None and names and people_outside is not None:  # in a scene of two, the other one (hk1, stop 63)
                    speaker = _other_of_cast(ctx, names, words, line, m, people_outside())
            if speaker:
                speaker = ctx.aliases.get(speaker, speaker)
                turn = turn or speaker
                if speaker in turns:  # each speaker once, at their last turn: who spoke before whom reads the same
                    turns.remove(speaker)
                turns.append(speaker)
                yield Voice(speaker, words, i, m.start() + 1, guessed)
            taken.append(m.span())
        if names and clauses is not None:
            for m in clauses.knows.finditer(outside):
                if re.search(r"[不没未]$", m.group(2)) or not ctx.is_person(m.group(1)):
                    continue  # 陈默不知道，…: what follows is the narration's, not his
                words = _sentence_rest(outside, m.end())
                if words.strip():
                    who = m.group(1)
                    yield Voice(ctx.aliases.get(who, who), words, i, m.start() + 1)
                    taken.append((m.start(), m.end() + len(words)))
            # 艾琳越想越觉得不对：… — a person's clause ending in a colon, no quote after it: their words
            held = _Covered(taken)
            for m in clauses.colon.finditer(outside):
                if held.covers(m.start()) or not ctx.is_person(m.group(1)) or outside[m.start() - 1:m.start()] in ADDRESSED \
                        or outside[m.end(1):m.end(1) + 1] == "的":
                    continue  # 是师父的字：…: the name owns what the colon lists, it says nothing
                words = _sentence_rest(outside, m.end())
                if WORDED.search(words):  # 娘托人写的字：“…”。: the quote after the colon is taken (blank here), not said again
                    yield Voice(ctx.aliases.get(m.group(1), m.group(1)), words, i, m.start() + 1)
                    taken.append(held.add(m.start(), m.end() + len(words)))
            # 敲得他心头一片雪亮：… — a pronoun's clause ending in a colon: the words of the person it stands for
            held = _Covered(taken)
            for m in re.finditer(r"([他她])[^。！？“”：:，,]{0,10}[：:](?!\s*[“「\"])", outside):
                if held.covers(m.start()):
                    continue
                who = _referent(ctx, marks.person_before(m.start()), subject, m.group(1))
                words = _sentence_rest(outside, m.end())
                if who and words.strip() and (names is None or (_called_at_start(ctx, names, words) != who
                                                                and not _spoken_of(ctx, names, words, who))):
                    # 她在心里说：栓子哥，…: the one the words call is not the one saying them; nor one they speak of
                    # (他心里明白：…老周是挡了人家的道 — 他 is not 老周)
                    yield Voice(who, words, i, m.start() + 1, True)
                    taken.append(held.add(m.start(), m.end() + len(words)))
        rest_of_line = _blanked(outside, taken)  # what is left once the people's words are taken out is the narration's
        for sm in SENTENCE.finditer(rest_of_line):
            if sm.group().strip(" ，,：:。！？"):
                yield Voice(None, sm.group(), i, sm.start() + 1)
        if first or not quotes:
            beat = _beat(ctx, clauses, outside, first) if first and clauses is not None else None
            silent = not quotes and SILENT_REPLY.search(outside) is not None
        if first and not re.search(r"[他她]", outside[:first.start()]) and outside[first.end():first.end() + 1] != "的":
            subject = ctx.aliases.get(first.group(), first.group())
        elif first:
            pass  # 他…想起了杜衡, 纸条上是周铁牛的字: the subject carries on; 杜衡 is thought of, 周铁牛 owns
        elif not quotes:
            subject = None  # a paragraph naming nobody: its actor is no one the book knows
        after_narration = not quotes
        if after_narration and names:
            narration.append(line)
            mentioned = _Mentioned(ctx, names, narration)


VOICE_FROM_OUTSIDE = re.compile(r"(?<!没)有人|一个声音|门外|窗外|院外|屋外|外头|外面|喇叭|广播|脚步声|敲门|拍门|叫门|拍窗|"
                                r"[进来]了|进来|进屋|进门|掀|闯")
"""Narration telling of a voice from outside the scene or of someone coming in (窗外有人拍窗户, 门帘一掀，老杨进来了): the
quote after it may be that third one's (R59, K8-2)."""


def _other_of_two(ctx: CheckContext, names: re.Pattern[str], words: str, before: str) -> str | None:
    """Who opens an exchange no narration tags: right after a narration paragraph that gives no speaker, a quote alone
    that calls one of a scene of two by name at its start (“建国，你说…？” :func:`_called_at_start`) is the other's,
    and the turn-taking goes on from it (K8, stop 59). Only a draft whose 在场 lists exactly two people: in a larger
    scene the one called says nothing of who calls; no 在场, no scene to read it from. Not after a narration paragraph
    (``before``) telling of a voice from outside or of a comer (:data:`VOICE_FROM_OUTSIDE`), nor one naming a person
    outside the two: a third may be speaking."""
    if len(ctx.cast) != 2 or VOICE_FROM_OUTSIDE.search(before):
        return None
    if any(ctx.is_person(n.group()) and ctx.aliases.get(n.group(), n.group()) not in ctx.cast
           for n in names.finditer(before)):
        return None
    called = _called_at_start(ctx, names, words)
    if called is None or called not in ctx.cast:
        return None
    return next(p for p in ctx.cast if p != called)


NOT_AFTER_SUBJECT = frozenset("上下里外中内前后边旁头的之")
"""What follows a word that is a place or a thing's, not a person acting (长江上起了雾, 守灯塔里): a clause led by a
given name read as its card's turn only when the name is no dictionary word and none of these follows (FK6, stop 57)."""


def _gender_of(ctx: CheckContext, who: str) -> str:
    """他/她 when the book's cards say ``who``'s gender (their own word, else their relations'), else ``""``."""
    if ctx.world is None:
        return ""
    return ctx.world.pronoun_of(who) or ""


PRONOUN_BEAT = re.compile(r"[他她][^“”「」。！？!?\n]{0,12}[，,：:]\s*")
"""The narration between two quotes of one paragraph that is a pronoun's beat alone (“…”他压低了声音，“…”): the pronoun
right after a quote stands for its speaker, and the next quote goes on that turn (K6, stop 57)."""


STRANGER_NEAR = re.compile(r"有人|一个|那人|外头|外面|门外|窗外|谁|几个|大伙|众人|其他人|别人|旁人")
"""Words of the narration by a quote that put someone the book does not know in play (一个婆婆探进头来，冲他喊：, 外头有人喊):
:func:`_other_of_cast` gives the quote to none of a scene of two (r63-1)."""
LED_BY_PRONOUN = re.compile(r"\s*(?:[^，,。！？!?“”\n]{1,6}[，,])?(?<![其吉])([他她])(?!们)")
"""A narration segment led by a pronoun as its subject: at its start, or after one short clause (换完垫子，他…)."""


def _other_of_cast(ctx: CheckContext, names: re.Pattern[str], words: str, line: str, m: re.Match[str],
                   named: frozenset[str]) -> str | None:
    """Who says ``words`` (the quote ``m`` of ``line``, which no other reading gave a speaker) in a scene of two (the
    draft's 在场): the one the words do not call at their start when they call the other (“小余，…”, “老杜，把…递过来”) —
    the one spoken to never speaks — when the narration adjoining the quote (its sentence before it, or the clause right
    after it) is led by a pronoun of that one's gender as its subject (换完垫子，他满手油泥…：“小杜，…”; “小余，…”他伸出右手)
    and the line's narration names nobody but the two (``named``). And words calling nobody, the clause right after them
    led by a 他 or a 她, when one of the two alone is of that gender by the cards (“…”她学着他的样子缩脖子): theirs. None
    when the narration by the quote puts a stranger in play (:data:`STRANGER_NEAR`: 一个婆婆探进头来，冲他喊：), or the
    pronoun after the words reacts to them (:data:`REACTION`: 她愣了一下) (hk1, stop 63; r63-1, r63-2, r63-17)."""
    cast = {ctx.aliases.get(p, p) for p in ctx.cast}
    if len(cast) != 2 or not named <= cast:
        return None
    start = max(line.rfind(c, 0, m.start()) for c in "。！？!?”」\n") + 1
    before = line[start:m.start()]
    stop = min((k for k in (line.find(c, m.end()) for c in "。！？!?“「") if k >= 0), default=len(line))
    after = line[m.end():stop]
    if STRANGER_NEAR.search(before) or STRANGER_NEAR.search(after):
        return None
    lead_before, lead_after = LED_BY_PRONOUN.match(before), LED_BY_PRONOUN.match(after)
    said_after = lead_after.group(1) if lead_after and not REACTION.search(after) and SPEAKING.search(after) else None
    called = _called_at_start(ctx, names, words)
    if called is None:
        of_gender = [p for p in cast if said_after and _gender_of(ctx, p) == said_after]
        return of_gender[0] if len(of_gender) == 1 and all(_gender_of(ctx, p) for p in cast) else None
    if called not in cast:
        return None
    other = next(p for p in cast if p != called)
    pronoun = _gender_of(ctx, other)
    leads = {x.group(1) for x in (lead_before, lead_after) if x is not None}
    return other if (pronoun in leads if pronoun else leads) else None


CAST_BEAT = re.compile(r"[他她][^“”「」。！？!?\n]{0,24}[，,：:]\s*")
"""A pronoun's beat between two quotes of one paragraph in a scene of two (“…”他伸出右手，在长生眼前晃了晃，“…”): longer
than :data:`PRONOUN_BEAT`'s, the other of the two named in it only as an object (:func:`_beat_of_cast`)."""


BEAT_AGENT_BEFORE = frozenset("被让叫由替却就便倒")
"""A character before a name in a beat that makes the name act there (被老周抢了先, 却老周先开了口)."""


def _beat_of_cast(ctx: CheckContext, names: re.Pattern[str], beat: str, turn: str) -> str | None:
    """``turn`` (who said the paragraph's quote before) when ``beat``, the narration between it and the next quote, is
    :data:`CAST_BEAT` of ``turn``'s pronoun, in a scene of two (the draft's 在场) with ``turn`` one of them, and no clause
    of it opens on a name (她把碗递给老周，老周接过来，“…”: the next words are 老周's); None otherwise (hk1, stop 63)."""
    cast = {ctx.aliases.get(p, p) for p in ctx.cast}
    pronoun = _gender_of(ctx, turn)
    if len(cast) != 2 or turn not in cast or not CAST_BEAT.fullmatch(beat) or (pronoun and beat[0] != pronoun):
        return None
    if any(names.match(clause.lstrip()) for clause in re.split(r"[，,]", beat)[1:]):
        return None
    # 他刚要往下说，却被老周抢了先: another acting in the beat (被/让/叫/由/替, or a subject after 却/就/便/倒) takes the turn (r63-3)
    return None if any(beat[n.start() - 1:n.start()] in BEAT_AGENT_BEFORE and ctx.aliases.get(n.group(), n.group()) != turn
                       for n in names.finditer(beat) if n.start()) else turn


def _called_at_start(ctx: CheckContext, names: re.Pattern[str], words: str) -> str | None:
    """The person a quote calls by name at its very start (:func:`lw_storyrepo.listeners.called_at_start`)."""
    return called_at_start(words, names, ctx.aliases)


def _spoken_of(ctx: CheckContext, names: re.Pattern[str], words: str, who: str) -> bool:
    """Whether ``words`` name ``who`` (any name of theirs) as someone spoken of: one does not name oneself by name in
    one's own thoughts, so a pronoun's guessed referent named there is not the one thinking them (K3, stop 55)."""
    return any(ctx.aliases.get(m.group(), m.group()) == who for m in names.finditer(words))


ADDRESSED = tuple("对向跟朝冲给")
"""What puts the person after it as the one spoken to (在心里对阿爷说：…, 一桩一桩说给师父听：…): the colon's words are not
theirs (给: fa1's round, stop 63)."""


class _Clauses(NamedTuple):
    """The patterns :func:`voices` reads every line with, built on the names of the book (once per
    set of names, by :func:`_clauses_of`, not once per line or quote)."""

    knows: re.Pattern[str]  # a person and what they know or think (陈默心想，)
    colon: re.Pattern[str]  # a person's clause ending in a colon, no quote after it (艾琳越想越觉得不对：)
    leads: re.Pattern[str]  # a person leading a clause (:func:`_beat`)
    speaks_on: re.Pattern[str]  # after a quote, a person, a beat and another quote (:func:`_attributed`)


@functools.lru_cache(maxsize=8)
def _terms_pattern(terms: tuple[str, ...], people: frozenset[str] = frozenset()) -> re.Pattern[str]:
    """The pattern of :meth:`CheckContext.contract_terms_in`'s ``terms`` (longest first), built once for
    the same terms: each draft's context asks again for the book's thousands of names. A tree of the terms
    (:func:`~lw_storyrepo.wordsre.alternation`, the same longest match at each place), not one branch per term: a flat
    alternation of a card's 4,000 things tried them all at every character of each of hundreds of contract lines (A16).
    The terms of ``people`` are not found inside a longer word (:func:`name_pattern`)."""
    return re.compile(name_pattern(frozenset(terms), people))


def name_pattern(names: frozenset[str], people: frozenset[str], scope: frozenset[str] | None = None) -> str:
    """:func:`~lw_storyrepo.wordsre.alternation` of ``names``, where a name of ``people`` is not found inside a longer
    noun of the dictionary it begins (:func:`propernouns.not_inside_longer`: 老板 not in 老板娘, 石头 not in 石头缝; 老板说,
    老板的, 冯大哥 found). One guard on the pattern every reader of names builds on (the voices of the leak check,
    continuity, the contract's terms); ``scope``: the characters of the text read (:meth:`CheckContext.reading`).
    Places and things keep their longer words (浙江省 is 浙江)."""
    return f"(?:{alternation(names)}){not_inside_longer(people, scope)}"


@functools.lru_cache(maxsize=8)
def _clauses_of(names: re.Pattern[str]) -> _Clauses:
    return _Clauses(re.compile(r"(" + names.pattern + r")([^。！？“”，]{0,6}?)" + KNOW + r"[了，,：:]?\s*"),
                    re.compile(r"(" + names.pattern + r")[^。！？“”：:，,]{0,10}[：:](?!\s*[“「\"])"),
                    re.compile(r"(?:^|[，,。；;！？：:])\s*(" + names.pattern + r")"),
                    re.compile(r"[，,]?\s*(" + names.pattern + r")[^。！？“”「」]*[，,：:]\s*[“「]"))


WORDS_MAX = 600
"""The most characters of one person's thought or colon clause (the labelled chapters' longest
sentence has under 400): a line of thousands of 许砚知道 without a sentence end gave each its
whole rest of the line, thousands of voices the length of the line."""


WORDED = re.compile(r"[\w]")
"""What makes the rest of a sentence after a colon words (a letter, a digit): a quote there is read on its own and blanked,
and the stop after it says nothing (K3, stop 55)."""


def _sentence_rest(text: str, at: int) -> str:
    """``text`` from ``at`` to its next sentence end (included), at most :data:`WORDS_MAX` of it."""
    end = FULL_WIDTH_STOP.search(text, at, at + WORDS_MAX)
    return text[at:end.end()] if end else text[at:at + WORDS_MAX]


class _Covered:
    """Whether a position lies in one of some spans, asked at positions that never go back; a
    span added starts at the position just asked. One sweep, not a look at every span per position
    (a line of thousands of quotes asked each of thousands of colons about all of them)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans, self.k, self.reach = sorted(spans), 0, -1

    def covers(self, at: int) -> bool:
        while self.k < len(self.spans) and self.spans[self.k][0] <= at:
            self.reach = max(self.reach, self.spans[self.k][1])
            self.k += 1
        return at < self.reach

    def add(self, start: int, end: int) -> tuple[int, int]:
        self.reach = max(self.reach, end)
        return start, end


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with every span turned to spaces, in one join."""
    parts, at = [], 0
    for a, b in sorted(spans):
        b = min(b, len(text))
        if b <= at:
            continue
        a = max(a, at)
        parts += [text[at:a], " " * (b - a)]
        at = b
    return "".join(parts) + text[at:]


def _beat(ctx: CheckContext, clauses: _Clauses, outside: str, first: re.Match[str]) -> str:
    """Who acts last in a paragraph: the last person leading a clause (正要走，阿萝却拉住他的袖子),
    else the first person it names (他听见阿娘压低的声音)."""
    lead = [n.group() for n in clauses.leads.finditer(outside)]
    lead = [n.strip("，,。；;！？：: ") for n in lead]
    lead = [n for n in lead if ctx.is_person(n) and n not in ctx.kin_words]
    who = lead[-1] if lead else first.group()
    return ctx.aliases.get(who, who)


def _referent(ctx: CheckContext, named: str | None, subject: str | None, pronoun: str) -> str | None:
    """Who 他/她 stands for: ``named``, the last person named before it in its paragraph
    (:meth:`_LineMarks.person_before`), else the paragraph's subject carried over; None when the cards give
    that person the other gender (:func:`_gender_of`: their own word, else their relations')."""
    who = ctx.aliases.get(named, named) if named else subject
    return who if not who or _gender_of(ctx, who) in ("", pronoun) else None


class _LineMarks:
    """What :func:`voices` asks of a line's text outside its quotes at each quote or pronoun, read in one pass of
    the line: a line of thousands of 他说：“…” read the whole line before each for the last person named and the
    clause leading the quote."""

    def __init__(self, ctx: CheckContext, names: re.Pattern[str] | None, outside: str) -> None:
        self.ctx, self.names, self.text = ctx, names, outside
        self._found: list[tuple[int, int, str | None]] | None = None  # (start, end, the last person named by its end)
        self._marks: tuple[list[int], list[int], list[int], list[int]] | None = None
        self._gendered: list[tuple[int, dict[str, str | None]]] | None = None  # (end, the last 他 and 她 by it)

    def person_before(self, at: int) -> str | None:
        """The last person (no relative's word) ``names`` finds in the text up to ``at`` — as
        ``names.finditer(text[:at])`` would: a name running past ``at`` is read again within it."""
        if self.names is None:
            return None
        if self._found is None:
            self._found, last = [], None
            for n in self.names.finditer(self.text):
                if self.ctx.is_person(n.group()) and n.group() not in self.ctx.kin_words \
                        and not NAME_OF_A_THING.match(self.text, n.end()):
                    last = n.group()  # 爹写的那张字条，…他: a name inside a thing's name is no pronoun's antecedent
                self._found.append((n.start(), n.end(), last))
        k = bisect_right(self._found, at, key=lambda f: f[1])  # the names ending by ``at``
        who = self._found[k - 1][2] if k else None
        if k < len(self._found) and self._found[k][0] < at:  # one running past ``at``: cut there, a shorter one may stand
            cut = [n.group() for n in self.names.finditer(self.text, self._found[k][0], at)
                   if self.ctx.is_person(n.group()) and n.group() not in self.ctx.kin_words]
            who = cut[-1] if cut else who
        return who

    def first_of_gender(self, at: int, pronoun: str) -> str | None:
        """The first person named before ``at`` whose cards give them ``pronoun`` (:func:`_gender_of`; 她: the line's first woman) — who a
        pronoun leading a quote stands for when the paragraph's subject is of the other gender (阿朵来找他。…她压低了
        声音说：“…” after a paragraph of 和远山's: L1, stop 57). The first, the line's subject, not the last: a later
        name is more often an object or a bystander (强哥四下看了看，老板娘正盯着电视。他压低声音：… — R57's pool run).
        None when no card says. One pass of the line, read once."""
        if self.names is None or self.ctx.world is None or not (self.ctx.world.gender or self.ctx.world.kin_gender):
            return None
        if self._gendered is None:
            self._gendered = []
            first: dict[str, str | None] = {"他": None, "她": None}
            for n in self.names.finditer(self.text):
                who = self.ctx.aliases.get(n.group(), n.group())
                gender = _gender_of(self.ctx, who)
                if self.ctx.is_person(n.group()) and first.get(gender, "") is None \
                        and not NAME_OF_A_THING.match(self.text, n.end()):  # 把阿爸那副老鞍子…，他…: no subject
                    first = {**first, gender: who}
                self._gendered.append((n.end(), first))
        k = bisect_right(self._gendered, at, key=lambda f: f[0])
        return self._gendered[k - 1][1].get(pronoun) if k else None

    def lead(self, at: int) -> str | None:
        """The pronoun leading the quote at ``at`` when its clause is the pronoun's, ending in a colon (他…借着炉火
        低声念出声：“…”): ``re.match(r"([他她])[^。！？“”]*[：:]\\s*$", _last_clause(text, at).lstrip())``, by
        bisection among the line's sentence ends, quote marks and non-blank characters found once."""
        ends, breaks, solid, _ = self._read()
        start = self.clause_start(at)
        first, last = bisect_left(solid, start), bisect_left(solid, at) - 1
        if first > last or self.text[solid[first]] not in "他她" or self.text[solid[last]] not in "：:" or first == last:
            return None
        return None if bisect_left(breaks, solid[first] + 1) < bisect_left(breaks, solid[last]) else self.text[solid[first]]

    def unnamed(self, at: int) -> bool:
        """Whether the text before the quote at ``at`` is a clause of its own ending in a colon (老汉点点头：), which
        names its speaker — someone the book does not know: the clause's last non-blank character a colon, and a
        character in it that is neither a blank nor a colon."""
        _, _, solid, others = self._read()
        start = self.clause_start(at)
        last = bisect_left(solid, at) - 1
        return last >= 0 and solid[last] >= start and self.text[solid[last]] in "：:" \
            and bisect_left(others, start) < bisect_left(others, at)

    def clause_start(self, at: int) -> int:
        """Where :func:`_last_clause` of the text up to ``at`` starts."""
        ends = self._read()[0]
        k = bisect_left(ends, at)
        return ends[k - 1] + 1 if k else 0

    def _read(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Where the text's sentence ends and closers, sentence ends and quote marks, non-blank characters, and
        characters neither a space nor a colon stand, found once."""
        if self._marks is None:
            ends, breaks, solid, others = ([m.start() for m in re.finditer(pattern, self.text)]
                                           for pattern in (r"[。！？”」]", r"[。！？“”]", r"\S", r"[^ ：:]"))
            self._marks = (ends, breaks, solid, others)
        return self._marks


_DENIAL = re.compile(r"([\u4e00-\u9fff]{1,6}?)(?:根本|并|也|都|其实|原本)?不是([\u4e00-\u9fff]{1,8}?)的")
_NOT_SO = re.compile(r"不是([\u4e00-\u9fff]{1,8}?)的")
_EMPTY = frozenset("自己动系统人的了着下来去上起是被就也都")
"""Characters of a denied predicate that say nothing of the act (自己, 自动, 下, 了): 自动落下 acts by 落."""


def denials_of(content: str) -> list[tuple[str, frozenset[str]]]:
    """What an info gap's 内容 denies of the public account — 隔离门不是自动落下的 — as
    ``(the last character of its subject, the characters of its act)``: (门, {落})."""
    out = []
    for clause in re.split(r"[，,。：:；;！？\n]", content):
        m = _DENIAL.search(clause)
        if m:
            act = frozenset(m.group(2)) - _EMPTY
            if act:
                out.append((m.group(1)[-1], act))
    return out


def _denies(ctx: CheckContext, sid: str, words: str) -> str | None:
    """The sentence of ``words`` that says what info gap ``sid`` denies — in other words: the same
    thing not done the same way (那道门，不是系统落的 for 隔离门不是自动落下的) —, else None."""
    for sentence in re.findall(r"[^。！？!?]+[。！？!?]?", words):
        for m in _NOT_SO.finditer(sentence):
            act = frozenset(m.group(1))
            if any(head in sentence[:m.start(1)] and act & acts for head, acts in ctx.denials.get(sid, ())):
                return sentence.strip()
    return None


def _need(keywords: list[str], cap: int) -> int:
    return min(cap, len(keywords))


def _denial_leaks(ctx: CheckContext, voice: Voice, first_line: int, learned: dict[str, set[str]], revealed: set[str],
                  pov: str | None) -> list[Finding]:
    """泄密 of an info gap told without its keywords, by denying what it denies (:func:`_denies`)."""
    out = []
    for sid, knowers, reader, _kws in ctx.secrets:
        if voice.speaker is None and (reader or sid in revealed):
            continue  # what the reader knows frees the narration, not a character outside the gap
        who = voice.speaker or pov
        if who is not None and (who in knowers or who in learned.get(sid, ())):
            continue
        said = _denies(ctx, sid, voice.words)
        if said is None:
            continue
        if voice.speaker is None:
            seen_by = f"（视角 {pov} 不是知情人）" if pov else ""
            message = f"叙述{seen_by}换了说法说出了读者尚不知道的 {sid}；有意揭晓就在设定变更写「{sid}.读者已知=是」"
        else:
            message = f"{voice.speaker} 不是 {sid} 的知情人，却换了说法说出了它（{said[:20]}）"
        subject = Subject("知情人", voice.speaker, sid) if voice.speaker is not None else None
        out.append(Finding("泄密", ERROR, message, first_line + voice.line, voice.column, said[:60], subject))
    return out


def _places_in(words: list[str]) -> dict[str, list[int]]:
    """``{word: where it stands in words}``."""
    out: dict[str, list[int]] = {}
    for at, word in enumerate(words):
        out.setdefault(word, []).append(at)
    return out


NAME_INTRODUCED = re.compile(r"(?:叫|叫做|名叫|唤作|称作|称|号|是)$|"
                             r"(?:[那这一有哪](?:个|位|名)|是)[^，,。！？!?；;：:“”]{0,24}的$")
"""What right before a person's name identifies them by it — the name given, not the person merely seen: a verb of
calling or the copula (有个叫韩某的, 名叫X, 正是X, 会不会是X), or an introducing phrase closed by 的 (那个在路上专收汽油的X,
是城南寺里的X). Read back from the name within :data:`NAME_INTRODUCED_REACH` characters."""
NAME_INTRODUCED_REACH = 28
"""How far before a gap person's name :data:`NAME_INTRODUCED` is looked for (an introducing phrase of 24 characters and
its opening word)."""


GAP_PAIRS = 2
"""How many pairs of an info gap's 内容 (:func:`_content_grams`) words naming one of its own people must share with it
(:func:`_gap_person`): the whole pool's introduced gap people (五十一's three, 四十五's, 二十七's) share two to five; the
good drafts name none so. One two-character word of the 内容 (盐场, 只有) is one pair."""


def _gap_person(ctx: CheckContext, keyword: str, words: str, sid: str = "") -> bool:
    """Whether ``keyword`` names a person of an info gap's own — one the roster lists with no card (the buyer of stolen
    fuel, the herdsman who hides a runaway, the monk who keeps a parcel), by a name no dictionary holds as a word — and
    ``words`` identify them by it (:data:`NAME_INTRODUCED`: 有个叫X的, 那个…的X, 正是X), never inside a longer name
    (:func:`_named`). Such a person is the gap's answer as a place no public text names is (the caller asks first that
    no public text says the keyword): named as the one, by one who is not 知情人, the secret is out. The person seen or
    mentioned doing anything else (X挑着筐从门口过, X来借过锄头) tells nothing (r62-1); a common noun the roster lists as a
    person (哑巴, 货郎) is no name (r62-2); two words that spell the name (才让开一条道) are not introduced (r62-3). A
    person with a card is in the book's public cast: said every day. When the context holds the gap's 内容
    (:attr:`CheckContext.gap_grams`), the words must also share a pair of it beyond the name (那个专收汽油的X: the gap's
    act; 城南寺里的X: its place) — a boy named at the door (那个叫X的小喇嘛跑了进来) is not the gap's answer (r62-5) — and
    share :data:`GAP_PAIRS` pairs of it at least (专收私盐: 收私, 私盐; 城南 and 和尚): one everyday word of the 内容
    beside the name (那个在盐场门口挑空筐的X) is a person seen, not told (r62-6, lk2's round at stop 63)."""
    person = ctx.aliases.get(keyword, keyword)
    cards = ctx.world.cards if ctx.world is not None else {}
    if ctx.people is None or person not in ctx.people or person in cards or lexicon().freq.get(keyword) \
            or not _named(keyword, words, person=True):
        return False
    grams = ctx.gap_grams.get(sid)
    if grams is not None and len(_content_grams(words.replace(keyword, "\n")) & grams) < GAP_PAIRS:
        return False
    return any(NAME_INTRODUCED.search(words, max(0, at - NAME_INTRODUCED_REACH), at) for at in starts_of(keyword, words))


def leak_and_waste(ctx: CheckContext, lines: list[str], first_line: int, learned: dict[str, set[str]] | None = None,
                   revealed: set[str] | None = None, pov: str | None = None,
                   said: list[Voice] | None = None) -> list[Finding]:
    """泄密: a character who is not 知情人 says or thinks the keywords of an info gap, or the
    narration states an info gap the reader does not know yet (from a point of view that does
    not know it either, named in the finding); either of them denying, without a keyword, what
    the gap's 内容 denies (:func:`_denies`); 废笔: narration restating what readers already know."""
    learned = learned or {}
    out: list[Finding] = []
    keywords = ctx.keywords()
    if keywords is None:
        return out
    # each gap's keywords by place in its list: a voice's hits are read from the few it says, not from
    # every keyword of the gap (thousands of keywords, at every voice of a draft)
    kw_re, wheres = keywords
    pov = ctx.aliases.get(pov, pov) if pov else None
    # the names of people, places and things: a roster entry of another kind (an order, a gang) that no
    # public text names is the secret's own word, not a name said every day
    things = ctx.items | (ctx.world.places | ctx.world.items if ctx.world is not None else set())
    cards = ctx.world.cards if ctx.world is not None else {}
    named = things | {a for a, n in ctx.aliases.items() if n in cards or ctx.people is None or n in ctx.people or n in things}

    def gives_away(kws: list[str], hit: list[str], words: str, sid: str) -> bool:
        # a keyword naming no one and nothing that the book never says openly (买凶) is the secret
        # itself; a name (大长老) or a public word (灭门 of a known massacre) is said every day — but a place
        # or a thing no public text names (the town a runaway went to, there only in the gap and the roster) is
        # the gap's own answer, said alone or in a list of places; so is a person of the gap's own, one the roster
        # lists with no card and no public text names (the buyer, the hider: :func:`_gap_person`)
        return any(k not in ctx.public_words and (k not in named or (k in things and not ctx.is_person(ctx.aliases.get(k, k)))
                                                  or _gap_person(ctx, k, words, sid))
                   for k in hit) or len(hit) >= _need(kws, 2)

    holding: dict[str, list[int]] | None = None  # keyword -> the gaps (their indexes) holding it, built at the first hit
    for voice in said if said is not None else voices(ctx, lines, letters=True):
        present = set(kw_re.findall(voice.words))
        if not present:
            if ctx.denials and "不是" in voice.words:
                out += _denial_leaks(ctx, voice, first_line, learned, revealed or set(), pov)
            continue
        lineno = first_line + voice.line
        # only the gaps holding a keyword the voice says can find anything in it: looked up, in the gaps' order,
        # not every gap asked at every voice (thousands of gaps × thousands of voices; A16, stop 56)
        if holding is None:
            holding = {}
            for k, where in enumerate(wheres):
                for word in where:
                    holding.setdefault(word, []).append(k)
        for k in sorted({k for word in present for k in holding.get(word, ())}):
            (sid, knowers, reader, kws), where = ctx.secrets[k], wheres[k]
            who = voice.speaker
            if not kws or (who is None and sid in (revealed or ())):
                continue  # the reader told (读者已知=是) frees the narration only: a character outside the gap still does not know
            hit = [kws[at] for at in sorted(at for k in present for at in where.get(k, ()))]
            hit = [k for k in hit if who is None or (k != who and ctx.aliases.get(k) != who)]
            if who is None:
                if reader:
                    if len(hit) >= max(2, _need(kws, 3)):
                        out.append(Finding("废笔", WARN, f"向读者复述已知信息 {sid}（{'、'.join(hit)}）", lineno, voice.column,
                                           voice.words.strip()[:40]))
                    continue
                if (pov is None or (pov not in knowers and pov not in learned.get(sid, ()))) and hit and gives_away(kws, hit, voice.words, sid):
                    seen_by = f"（视角 {pov} 不是知情人）" if pov else ""
                    out.append(Finding("泄密", ERROR, f"叙述{seen_by}说出了读者尚不知道的 {sid}（{'、'.join(hit)}）；有意揭晓就在设定变更写"
                                       f"「{sid}.读者已知=是」", lineno, voice.column, voice.words.strip()[:40]))
                continue
            if who in knowers or who in learned.get(sid, ()):
                continue
            if hit and gives_away(kws, hit, voice.words, sid):  # said by a guessed speaker: the author judges, no redraft forced
                out.append(Finding("泄密", WARN if voice.guessed else ERROR, f"{who} 不是 {sid} 的知情人，却说出/想到了「{'、'.join(hit)}」",
                                   lineno, voice.column, voice.words[:40], Subject("知情人", who, sid)))
    return out


# --- banned words and patterns -------------------------------------------------------------------

def banned(ctx: CheckContext, lines: list[str], first_line: int) -> list[Finding]:
    out = []
    for i, line in enumerate(lines):
        if not line:
            continue
        for word in ctx.banned_words:
            start = line.find(word)
            while start >= 0:
                out.append(Finding("禁词", ERROR, f"禁词「{word}」", first_line + i, start + 1, word))
                start = line.find(word, start + 1)
        if ctx.banned_patterns:
            for sm in SENTENCE.finditer(line):
                for text, pattern in ctx.banned_patterns:
                    if pattern is not None and pattern.search(sm.group()):
                        out.append(Finding("禁句式", ERROR, f"禁句式「{text}」", first_line + i, sm.start() + 1, sm.group()[:40]))
    return out


# --- repetition --------------------------------------------------------------------------------------

_CJK4 = re.compile(r"(?=([\u4e00-\u9fff]{4}))")


def repetition(ctx: CheckContext, lines: list[str], first_line: int, *, gram_limit: int = 4) -> list[Finding]:
    out = []
    seen: dict[str, int] = {}
    grams: Counter[str] = Counter()
    for i, line in enumerate(lines):
        for sm in SENTENCE.finditer(line):
            sent = sm.group().strip()
            if len(sent) >= 8:
                if sent in seen:
                    out.append(Finding("复读", WARN, f"与第 {seen[sent]} 行重复的句子", first_line + i, sm.start() + 1, sent[:40]))
                else:
                    seen[sent] = first_line + i
        grams.update(_CJK4.findall(line))  # counted by C; where a phrase is said too often is looked up for the few reported
    names = ctx.known_names
    inside: str | None = None  # the names of two characters or more, one string (a phrase inside one is found in it)
    for g, count in grams.most_common(8):
        if count <= gram_limit:
            break
        if inside is None:
            inside = "\n".join(n for n in names if len(n) >= 2)
        if g in inside or any(g[a:b] in names for a in range(len(g)) for b in range(a + 2, len(g) + 1)):
            continue  # a known name holds the phrase, or the phrase holds one
        line, col = _said_for_the(lines, g, gram_limit + 1)
        out.append(Finding("复读", WARN, f"「{g}」出现 {count} 次", first_line + line, col + 1, g))
    return out


def _said_for_the(lines: list[str], phrase: str, nth: int) -> tuple[int, int]:
    """``(line index, column)`` where ``phrase`` is said for the ``nth`` time (1-based; overlapping
    sayings count, as the 4-grams of :func:`repetition` do); ``lines`` say it at least that often."""
    for i, line in enumerate(lines):
        at = line.find(phrase)
        while at >= 0:
            nth -= 1
            if not nth:
                return i, at
            at = line.find(phrase, at + 1)
    return 0, 0  # not reached: the caller counted it said that often


# --- new proper nouns ----------------------------------------------------------------------------


def new_proper_nouns(repo: StoryRepo | None, draft: Any, ctx: CheckContext | None = None,
                     capped: list[tuple[int, int]] | None = None) -> list[tuple[str, str, int]]:
    """``(noun, kind, line)`` for proper nouns in the draft that the book does not know yet
    (:mod:`lw_storyrepo.propernouns`); the book's ignore list is respected. ``capped`` receives
    ``(candidates, line)`` when the draft had too many to weigh them all (line in the draft file)."""
    if ctx is None:
        assert repo is not None
        ctx = CheckContext.load(repo)
    cut: list[tuple[int, int]] = []
    nouns = find_new_nouns(draft.body, known_names(ctx, draft), ctx.ignored, expanded=True, capped=cut)
    if capped is not None:
        capped += [(count, draft.body_line + line - 1) for count, line in cut]
    return [(n.name, n.kind, draft.body_line + n.line - 1) for n in nouns]


def render_findings(label: str, findings: list[Finding]) -> str:
    errors = [f for f in findings if f.severity == ERROR]
    lines = [f"# 机检报告：草稿 {label}", "", f"结论：{'不过关，打回重写' if errors else '通过'}（{len(errors)} 个错误，"
             f"{len(findings) - len(errors)} 个提示）", ""]
    for f in findings:
        mark = {ERROR: "✗", INFO: "？"}.get(f.severity, "·")
        lines.append(f"- {mark} [{f.kind}] 第 {f.line} 行第 {f.column} 列：{f.message}" + (f"　「{f.excerpt}」" if f.excerpt and f.excerpt not in f.message else ""))
    return "\n".join(lines) + "\n"
