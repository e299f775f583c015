"""Mechanical checks of a draft (spec §8 step 5). Script, not model: everything here is counted.

- contract: contract lines naming a promise (``P-031``) are honoured by the draft's moves;
- leak (泄密): a character speaks or thinks ≥2 keywords (1 when the gap has one keyword) of an
  info gap they are not 知情人 of; dialogue attributed by the common Chinese quote patterns;
- waste (废笔): a sentence restating a 读者已知 gap (≥3 of its keywords, fewer when it has fewer);
- banned words and banned sentence patterns of the style constitution;
- repetition: repeated sentences and over-used four-character phrases;
- new proper nouns not in the roster, found with jieba's POS tagger (nr/ns/nt/nz);
- word count against 每章目标字数.

Every finding carries a 1-based line and column in the draft file.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from lw_storyrepo.counting import word_count
from lw_storyrepo.repo import StoryRepo, as_list

ERROR, WARN, INFO = "error", "warn", "info"
SAY = r"(?:道|说|问|答|喝|喊|叫|笑|骂|吼|叹|嘀咕|低语|开口|回答|追问|反问|冷哼|沉声|怒道|喃喃)"
THINK = r"(?:心想|暗想|心道|暗道|想道|心中暗道|心里想|在心里想|心中想|暗忖|寻思)"
QUOTE = re.compile(r"“([^”]*)”|「([^」]*)」|\"([^\"]*)\"")
SENTENCE = re.compile(r"[^。！？!?…\n]+[。！？!?…]*")
NOUN_FLAGS = {"nr": "人物", "nrfg": "人物", "nrt": "人物", "ns": "地点", "nt": "组织", "nz": "其他"}
STOP_NOUNS = {"老者", "少年", "少女", "师父", "师兄", "师妹", "长老", "掌门", "公子", "姑娘"}


@dataclass
class Finding:
    kind: str
    severity: str
    message: str
    line: int
    column: int = 1
    excerpt: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "severity": self.severity, "message": self.message,
                "line": self.line, "column": self.column, "excerpt": self.excerpt}


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
    _names_re: re.Pattern[str] | None = None
    _terms_re: re.Pattern[str] | None = None

    @classmethod
    def load(cls, repo: StoryRepo) -> CheckContext:
        characters = repo.characters()
        aliases = repo.aliases(characters)
        secrets = []
        for item in repo.secrets():
            knowers = {aliases.get(str(k), str(k)) for k in as_list(item.meta.get("知情人"))}
            kws = [str(k) for k in as_list(item.meta.get("关键词")) if str(k).strip()]
            secrets.append((item.id, knowers, item.meta.get("读者已知") is True, kws))
        style = repo.style()
        patterns = []
        for p in style.banned_patterns:
            try:
                patterns.append((p, re.compile(p)))
            except re.error:
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
        return cls(aliases, secrets, style.banned_words, patterns, repo.book()["每章目标字数"], known, items)

    def names_re(self) -> re.Pattern[str] | None:
        if self._names_re is None and self.aliases:
            names = sorted(self.aliases, key=len, reverse=True)
            self._names_re = re.compile("|".join(re.escape(n) for n in names))
        return self._names_re

    def contract_terms_in(self, text: str) -> list[str]:
        """Names and held things the book knows, found in ``text`` (canonical names)."""
        if self._terms_re is None:
            terms = sorted({t for t in self.aliases if len(t) >= 2} | self.items, key=len, reverse=True)
            self._terms_re = re.compile("|".join(re.escape(t) for t in terms)) if terms else re.compile(r"(?!)")
        return [self.aliases.get(m.group(), m.group()) for m in self._terms_re.finditer(text)]

    def variants(self, term: str) -> set[str]:
        """``term`` and every other name of the same entity."""
        canonical = self.aliases.get(term)
        if canonical is None:
            return {term}
        return {name for name, c in self.aliases.items() if c == canonical}


def check_draft(repo: StoryRepo, draft: Any, state: dict[str, Any] | None = None,
                ctx: CheckContext | None = None) -> list[Finding]:
    ctx = ctx or CheckContext.load(repo)
    findings: list[Finding] = []
    if state is not None:
        findings += contract_findings(state, draft, ctx)
    learned: dict[str, set[str]] = {}
    for change in as_list(draft.meta.get("设定变更")):
        m = re.match(r"^\s*(S-\d{3,})\s*[.。]\s*知情人\s*\+\s*(.+?)\s*$", str(change))
        if m:
            learned.setdefault(m.group(1), set()).add(ctx.aliases.get(m.group(2), m.group(2)))
    findings += check_text(ctx, draft.body, draft.body_line, learned=learned)
    for noun, kind, line in new_proper_nouns(repo, draft, ctx):
        findings.append(Finding("新专名", WARN, f"新专名「{noun}」（{kind}）不在名册：验收时确认是新实体还是笔误", line))
    return findings


def check_text(ctx: CheckContext, body: str, first_line: int = 1,
               learned: dict[str, set[str]] | None = None) -> list[Finding]:
    findings: list[Finding] = []
    lines = body.split("\n")
    findings += leak_and_waste(ctx, lines, first_line, learned or {})
    findings += banned(ctx, lines, first_line)
    findings += repetition(ctx, lines, first_line)
    count = word_count(body)
    target = ctx.target_words
    if target:
        ratio = count / target
        if ratio < 0.5 or ratio > 2.0:
            findings.append(Finding("字数", ERROR, f"字数 {count}，目标 {target}（差距过大）", first_line))
        elif ratio < 0.8 or ratio > 1.3:
            findings.append(Finding("字数", WARN, f"字数 {count}，目标 {target}", first_line))
    return findings


# --- contract ---------------------------------------------------------------------------------


MOVE_WORDS = (("开启", "开启承诺"), ("开新", "开启承诺"), ("兑付", "兑付承诺"), ("揭", "兑付承诺"), ("弃置", "弃置承诺"),
              ("弃", "弃置承诺"))
REVIEW_WORDS = ("钩", "爽", "节奏", "氛围", "情绪", "悬念", "反转", "高潮")
_QUOTED = re.compile(r"「([^」]+)」|“([^”]+)”|《([^》]+)》")


def contract_findings(state: dict[str, Any], draft: Any, ctx: CheckContext | None = None) -> list[Finding]:
    """Every contract line against the draft (spec §8 step 5: 合同断言比对).

    - a promise id (``P-031``) must be moved as the line says (开启/兑付/弃置, else any move);
    - 开启/兑付/弃置 without an id needs at least one such move;
    - names the book knows (characters, aliases, roster entries, things characters hold) and
      quoted terms must appear in the prose;
    - what no script can count (a strong hook, a mood) is listed for the lens reviews to confirm.
    """
    moves = {key: set(draft.ids(key)) for key in ("开启承诺", "推进承诺", "兑付承诺", "弃置承诺")}
    touched = moves["开启承诺"] | moves["推进承诺"] | moves["兑付承诺"]
    body = getattr(draft, "body", "")
    line_no = getattr(draft, "body_line", 1)
    out = []
    for raw in as_list(state.get("合同")):
        text = str(raw)
        checked = False
        ids = re.findall(r"\b(P-\d{3,})\b", text)
        for pid in ids:
            checked = True
            before = text.split(pid)[0][-2:]
            want = next((key for word, key in MOVE_WORDS if word in text or word in before), None)
            ok = pid in moves[want] if want else pid in touched
            if not ok:
                out.append(Finding("合同", ERROR, f"合同「{text}」要求 {pid} 出现在草稿的{want or '开启/推进/兑付承诺'}里，但没有",
                                   line_no))
        if not ids:
            for word, key in MOVE_WORDS:
                if len(word) > 1 and word in text:
                    checked = True
                    if not moves[key]:
                        out.append(Finding("合同", ERROR, f"合同「{text}」要{word}承诺，但草稿的{key}是空的", line_no))
                    break
        terms = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
        if ctx is not None:
            rest = _QUOTED.sub("", text)
            for name in ctx.contract_terms_in(rest):
                terms.append(name)
        for term in dict.fromkeys(terms):
            checked = True
            variants = ctx.variants(term) if ctx is not None else {term}
            if not any(v in body for v in variants):
                out.append(Finding("合同", ERROR, f"合同「{text}」提到「{term}」，正文里没有", line_no))
        if any(word in text for word in REVIEW_WORDS) or not checked:
            out.append(Finding("合同", INFO, f"合同「{text}」脚本判断不了，交评审确认", line_no))
    return out


# --- leak and waste -----------------------------------------------------------------------------


def utterances(ctx: CheckContext, line: str) -> Iterable[tuple[str, str, int]]:
    """``(canonical speaker, words, column)`` for attributed dialogue and inner thoughts."""
    names = ctx.names_re()
    if names is None:
        return
    for m in QUOTE.finditer(line):
        words = next(g for g in m.groups() if g is not None)
        before = line[max(0, m.start() - 24) : m.start()]
        after = line[m.end() : m.end() + 16]
        speaker = None
        pre = list(names.finditer(before))
        for cand in reversed(pre):
            tail = before[cand.end():]
            if re.search(SAY + r"|" + THINK, tail) and not re.search(r"[。！？”」]", tail):
                speaker = cand.group()
                break
        if speaker is None:
            post = names.search(after)
            if post and re.match(r"^[，,。\s]*$", after[: post.start()]) and re.match(r"^[^。！？“]{0,8}?" + SAY, after[post.end():]):
                speaker = post.group()
        if speaker is None and m.start() <= 1:
            # a quote opening the paragraph with a single named person in the paragraph
            who = {ctx.aliases[n.group()] for n in names.finditer(line[: m.start()] + line[m.end():])}
            if len(who) == 1:
                speaker = next(iter(who))
        if speaker:
            yield ctx.aliases.get(speaker, speaker), words, m.start() + 1
    for m in re.finditer(r"(" + names.pattern + r")[^。！？“”]{0,4}?" + THINK + r"[：:，,]?\s*", line):
        rest = line[m.end():]
        if rest.startswith("“") or rest.startswith("「"):
            continue  # a quoted thought is handled above
        end = re.search(r"[。！？]", rest)
        words = rest[: end.start() + 1] if end else rest
        who = m.group(1)
        yield ctx.aliases.get(who, who), words, m.start() + 1


def _need(keywords: list[str], cap: int) -> int:
    return min(cap, len(keywords))


def leak_and_waste(ctx: CheckContext, lines: list[str], first_line: int,
                   learned: dict[str, set[str]] | None = None) -> list[Finding]:
    learned = learned or {}
    out: list[Finding] = []
    if not ctx.secrets:
        return out
    all_kws = {k for _sid, _kn, _r, kws in ctx.secrets for k in kws}
    if not all_kws:
        return out
    kw_re = re.compile("|".join(re.escape(k) for k in sorted(all_kws, key=len, reverse=True)))
    for i, line in enumerate(lines):
        if not line.strip() or not kw_re.search(line):
            continue
        lineno = first_line + i
        for speaker, words, col in utterances(ctx, line):
            present = set(kw_re.findall(words))
            if not present:
                continue
            for sid, knowers, _reader, kws in ctx.secrets:
                if not kws or speaker in knowers or speaker in learned.get(sid, ()):
                    continue
                hit = [k for k in kws if k in present and k != speaker and ctx.aliases.get(k) != speaker]
                if len(hit) >= _need(kws, 2):
                    out.append(Finding("泄密", ERROR, f"{speaker} 不是 {sid} 的知情人，却说出/想到了「{'、'.join(hit)}」",
                                       lineno, col, words[:40]))
        for sm in SENTENCE.finditer(line):
            sent = sm.group()
            present = set(kw_re.findall(sent))
            if len(present) < 2:
                continue
            for sid, _kn, reader, kws in ctx.secrets:
                if not reader or not kws:
                    continue
                hit = [k for k in kws if k in present]
                if len(hit) >= max(2, _need(kws, 3)):
                    out.append(Finding("废笔", WARN, f"向读者复述已知信息 {sid}（{'、'.join(hit)}）", lineno, sm.start() + 1, sent[:40]))
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
    where: dict[str, tuple[int, int]] = {}
    for i, line in enumerate(lines):
        for sm in SENTENCE.finditer(line):
            sent = sm.group().strip()
            if len(sent) >= 8:
                if sent in seen:
                    out.append(Finding("复读", WARN, f"与第 {seen[sent]} 行重复的句子", first_line + i, sm.start() + 1, sent[:40]))
                else:
                    seen[sent] = first_line + i
        for m in _CJK4.finditer(line):
            g = m.group(1)
            grams[g] += 1
            if grams[g] == gram_limit + 1:
                where[g] = (first_line + i, m.start() + 1)
    names = ctx.known_names
    for g, count in grams.most_common(8):
        if count <= gram_limit:
            break
        if any(n in g or g in n for n in names if len(n) >= 2):
            continue
        line, col = where[g]
        out.append(Finding("复读", WARN, f"「{g}」出现 {count} 次", line, col, g))
    return out


# --- new proper nouns ----------------------------------------------------------------------------

_JIEBA_READY: set[str] = set()
SURNAMES = set("赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章云苏潘葛范彭郎鲁韦昌马苗凤花方"
               "俞任袁柳鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬安常乐于时傅齐康伍余元顾孟平黄和穆萧尹姚邵湛汪祁毛狄米贝明"
               "臧计伏成戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季贾路江童颜郭梅盛林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房"
               "解应宗丁宣邓郁单杭洪包左石崔龚程邢裴陆荣翁荀甄家封储靳焦谷车侯班仰秋仲伊宫宁仇栾甘厉戎祖武符刘景詹"
               "龙叶司韶黎白蒲邰从鄂索咸籍赖卓蔺屠蒙池乔阳胥能苍双闻莘党翟谭贡劳姬申扶堵冉宰雍桑桂牛寿通边燕冀浦尚"
               "温别庄晏柴瞿阎慕连茹习宦艾鱼容向古易慎戈廖庾终居衡步都耿满弘匡国文寇广禄东欧沃利蔚越隆师巩聂晁勾敖"
               "融冷辛阚那简饶空曾沙养鞠须丰巢关蒯相查后荆红游竺权盖益桓公楚")


class _Freq:
    __slots__ = ("base",)

    def __init__(self, base: dict[str, int]) -> None:
        self.base = base

    def get(self, word: str, default: int | None = None) -> int | None:
        return 0 if word in _JIEBA_READY else self.base.get(word, default)


class Token:
    __slots__ = ("word", "flag")

    def __init__(self, word: str, flag: str) -> None:
        self.word, self.flag = word, flag


def _pseg() -> Any:
    import logging

    import jieba
    import jieba.posseg

    if "init" not in _JIEBA_READY:
        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        _JIEBA_READY.add("init")
    return jieba, jieba.posseg


def tag_tokens(jieba: Any, pseg: Any, line: str) -> list[Token]:
    """Segment with jieba (HMM on: unknown words are discovered) and tag every token.

    Dictionary words take their POS tag from jieba's dictionary; words the HMM discovered
    (not in the dictionary) are tagged by shape: a leading surname -> nr, a place suffix ->
    ns, otherwise nz. One HMM cut is ~10x faster than jieba.posseg's per-character HMM.
    """
    tags = pseg.dt.word_tag_tab
    out = []
    for word in jieba.lcut(line, HMM=True):
        flag = tags.get(word)
        if flag is None:
            if not word.strip() or not ("\u4e00" <= word[0] <= "\u9fff"):
                flag = "x"
            elif len(word) >= 2 and word[0] in SURNAMES and len(word) <= 4:
                flag = "nr"
            elif len(word) >= 2 and word[-1] in PLACE_SUFFIX:
                flag = "ns"
            elif len(word) >= 2:
                flag = "nz"
            else:
                flag = "x"
        out.append(Token(word, flag))
    return out


def new_proper_nouns(repo: StoryRepo, draft: Any, ctx: CheckContext | None = None) -> list[tuple[str, str, int]]:
    """``(noun, kind, line)`` for proper nouns in the draft that the roster does not know."""
    if ctx is None:
        ctx = CheckContext.load(repo)
    jieba, pseg = _pseg()
    for name in ctx.known_names:
        if name not in _JIEBA_READY and len(name) >= 2:
            jieba.add_word(name, freq=2000, tag="nr")
            _JIEBA_READY.add(name)
    out: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    known = ctx.known_names
    freq = _Freq(jieba.dt.FREQ)  # names any book registered are never "common words"
    for i, line in enumerate(draft.body.split("\n")):
        if not line.strip():
            continue
        for word, kind in proper_noun_candidates(tag_tokens(jieba, pseg, line), freq):
            if len(word) < 2 or word in seen or word in STOP_NOUNS:
                continue
            if word in known or any(k in word for k in known if len(k) >= 2):
                continue
            seen.add(word)
            out.append((word, kind, draft.body_line + i))
    return out


PLACE_SUFFIX = set("阁宗门派城山谷殿峰府楼宫岛州国寺观洲域林海关镇村")
RARE = 60
_NOT_NAME = ("v", "x", "u", "p", "r", "d", "c", "m", "q", "f", "t", "y", "e", "o", "w")


def proper_noun_candidates(tokens: list[Any], freq: dict[str, int]) -> Iterable[tuple[str, str]]:
    """POS-tagged tokens -> proper-noun candidates.

    jieba tags names and places (nr/ns/nt/nz); a rare word (dictionary frequency < 60 or
    unknown) with such a tag is a candidate. Two repairs on top of the tagger for fiction:
    a one-character surname (nr) glued to the rare word after it (萧+无涯 -> 萧无涯), and a
    rare word glued to a place suffix (天机+阁 -> 天机阁).
    """
    n = len(tokens)
    i = 0
    while i < n:
        word, flag = tokens[i].word, tokens[i].flag
        nxt = tokens[i + 1] if i + 1 < n else None
        if flag == "nr" and len(word) == 1 and nxt is not None and 1 <= len(nxt.word) <= 2 \
                and not nxt.flag.startswith(_NOT_NAME) and (freq.get(nxt.word) or 0) < 200:
            yield word + nxt.word, "人物"
            i += 2
            continue
        if nxt is not None and len(nxt.word) == 1 and nxt.word in PLACE_SUFFIX and len(word) >= 2 \
                and flag.startswith(("n", "nz")) and (freq.get(word) or 0) < 500 and not flag.startswith("nr"):
            yield word + nxt.word, "地点"
            i += 2
            continue
        kind = NOUN_FLAGS.get(flag)
        if kind is not None and (freq.get(word) or 0) < RARE:
            yield word, kind
        i += 1


def render_findings(label: str, findings: list[Finding]) -> str:
    errors = [f for f in findings if f.severity == ERROR]
    lines = [f"# 机检报告：草稿 {label}", "", f"结论：{'不过关，打回重写' if errors else '通过'}（{len(errors)} 个错误，"
             f"{len(findings) - len(errors)} 个提示）", ""]
    for f in findings:
        mark = {ERROR: "✗", INFO: "？"}.get(f.severity, "·")
        lines.append(f"- {mark} [{f.kind}] 第 {f.line} 行第 {f.column} 列：{f.message}" + (f"　「{f.excerpt}」" if f.excerpt and f.excerpt not in f.message else ""))
    return "\n".join(lines) + "\n"
