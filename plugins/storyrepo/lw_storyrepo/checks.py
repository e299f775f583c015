"""Mechanical checks of a draft (spec §8 step 5). Script, not model: everything here is counted.

- contract: contract lines naming a promise (``P-031``) are honoured by the draft's moves;
- leak (泄密): a character speaks or thinks ≥2 keywords (1 when the gap has one keyword) of an
  info gap they are not 知情人 of; dialogue attributed by the common Chinese quote patterns;
- waste (废笔): a sentence restating a 读者已知 gap (≥3 of its keywords, fewer when it has fewer);
- banned words and banned sentence patterns of the style constitution;
- repetition: repeated sentences and over-used four-character phrases;
- new proper nouns not in the roster, with evidence (:mod:`lw_storyrepo.propernouns`);
- word count against 每章目标字数.

Every finding carries a 1-based line and column in the draft file.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from lw_storyrepo.counting import word_count
from lw_storyrepo.propernouns import find_new_nouns, known_names
from lw_storyrepo.repo import StoryRepo, as_list

ERROR, WARN, INFO = "error", "warn", "info"
SAY = r"(?:道|说|问|答|喝|喊|叫|笑|骂|吼|叹|嘀咕|低语|开口|回答|追问|反问|冷哼|沉声|怒道|喃喃)"
THINK = r"(?:心想|暗想|心道|暗道|想道|心中暗道|心里想|在心里想|心中想|暗忖|寻思)"
KNOW = (r"(?:心想|暗想|心道|暗道|想道|心中暗道|心里想|在心里想|心中想|暗忖|暗自寻思|寻思|心里清楚|心中清楚|心里明白|心中明白|"
        r"心知肚明|心知|终于明白|明白|知道|想起|想到|记得|认定|猜到|猜出|料定|断定|意识到|确信|认出|看出)")
QUOTE = re.compile(r"“([^”]*)”|「([^」]*)」|\"([^\"]*)\"")
SPOKEN = re.compile(r"[，。！？!?,…—、；：]|^.{5,}$")
SENTENCE = re.compile(r"[^。！？!?…\n]+[。！？!?…]*")


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
    ignored: set[str] = field(default_factory=set)  # words the author said are no names
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
        return cls(aliases, secrets, style.banned_words, patterns, repo.book()["每章目标字数"], known, items,
                   set(repo.ignored_names()))

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
    revealed: set[str] = set()
    for change in as_list(draft.meta.get("设定变更")):
        m = re.match(r"^\s*(S-\d{3,})\s*[.。]\s*知情人\s*\+\s*(.+?)\s*$", str(change))
        if m:
            learned.setdefault(m.group(1), set()).add(ctx.aliases.get(m.group(2), m.group(2)))
        m = re.match(r"^\s*(S-\d{3,})\s*[.。]\s*读者已知\s*=\s*(true|是|真|yes)\s*$", str(change), re.I)
        if m:
            revealed.add(m.group(1))
    pov = draft.meta.get("视角")
    findings += check_text(ctx, draft.body, draft.body_line, learned=learned, revealed=revealed,
                           pov=str(pov) if isinstance(pov, str) and pov else None)
    for noun, kind, line in new_proper_nouns(repo, draft, ctx):
        findings.append(Finding("新专名", WARN, f"新专名「{noun}」（{kind}）不在名册：验收时确认是新实体还是笔误", line))
    return findings


def check_text(ctx: CheckContext, body: str, first_line: int = 1, learned: dict[str, set[str]] | None = None,
               revealed: set[str] | None = None, pov: str | None = None) -> list[Finding]:
    findings: list[Finding] = []
    lines = body.split("\n")
    findings += leak_and_waste(ctx, lines, first_line, learned or {}, revealed or set(), pov)
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


@dataclass
class Voice:
    """Words someone says or thinks (``speaker``), or the narration's own (``speaker`` None)."""

    speaker: str | None
    words: str
    line: int  # 0-based index in the body
    column: int  # 1-based


def _attributed(ctx: CheckContext, names: re.Pattern[str], line: str, m: re.Match[str]) -> str | None:
    """The speaker a quote's own line names: ``X道：“…”``, ``“…”X问``, or the only person there."""
    before = line[max(0, m.start() - 24):m.start()]
    after = line[m.end():m.end() + 16]
    for cand in reversed(list(names.finditer(before))):
        tail = before[cand.end():]
        if re.search(SAY + r"|" + THINK, tail) and not re.search(r"[。！？”」]", tail):
            return cand.group()
    post = names.search(after)
    if post and re.match(r"^[，,。\s]*$", after[:post.start()]) and re.match(r"^[^。！？“]{0,8}?" + SAY, after[post.end():]):
        return post.group()
    if m.start() <= 1:
        who = {ctx.aliases[n.group()] for n in names.finditer(line[:m.start()] + line[m.end():])}
        if len(who) == 1:
            return next(iter(who))
    return None


def voices(ctx: CheckContext, lines: list[str]) -> Iterable[Voice]:
    """Everything the draft says, by whom: attributed dialogue (a quote alone in its paragraph
    belongs to the person the paragraph before starts with), thoughts and what a character
    knows (心想、心里清楚、知道、想起…), and the narration's own sentences."""
    names = ctx.names_re()
    subject: str | None = None
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        taken: list[tuple[int, int]] = []
        # a short quote without punctuation is a term (刻着“慕容”), not speech: it stays narration
        quotes = [q for q in QUOTE.finditer(line) if SPOKEN.search(q.group()[1:-1])] if names else []
        outside = line
        for q in quotes:
            outside = outside[:q.start()] + " " * (q.end() - q.start()) + outside[q.end():]
        alone = bool(quotes) and not (names and names.search(outside)) and not outside.strip(" ，。！？、…—")
        for m in quotes:
            speaker = _attributed(ctx, names, line, m) if names else None
            if speaker is None and alone:
                speaker = subject
            if speaker:
                words = next(g for g in m.groups() if g is not None)
                yield Voice(ctx.aliases.get(speaker, speaker), words, i, m.start() + 1)
            taken.append(m.span())
        if names:
            for m in re.finditer(r"(" + names.pattern + r")[^。！？“”，]{0,6}?" + KNOW + r"[了，,：:]?\s*", outside):
                rest = outside[m.end():]
                end = re.search(r"[。！？]", rest)
                words = rest[: end.start() + 1] if end else rest
                if words.strip():
                    who = m.group(1)
                    yield Voice(ctx.aliases.get(who, who), words, i, m.start() + 1)
                    taken.append((m.start(), m.end() + len(words)))
        for sm in SENTENCE.finditer(outside):
            if not any(a <= sm.start() < b for a, b in taken) and sm.group().strip():
                yield Voice(None, sm.group(), i, sm.start() + 1)
        first = names.search(outside) if names else None
        if first:
            subject = first.group()


def _need(keywords: list[str], cap: int) -> int:
    return min(cap, len(keywords))


def leak_and_waste(ctx: CheckContext, lines: list[str], first_line: int, learned: dict[str, set[str]] | None = None,
                   revealed: set[str] | None = None, pov: str | None = None) -> list[Finding]:
    """泄密: a character who is not 知情人 says or thinks the keywords of an info gap, or the
    narration states an info gap the reader does not know yet (from a point of view that does
    not know it either); 废笔: narration restating what readers already know."""
    learned = learned or {}
    out: list[Finding] = []
    all_kws = {k for _sid, _kn, _r, kws in ctx.secrets for k in kws}
    if not all_kws:
        return out
    kw_re = re.compile("|".join(re.escape(k) for k in sorted(all_kws, key=len, reverse=True)))
    pov = ctx.aliases.get(pov, pov) if pov else None
    for voice in voices(ctx, lines):
        present = set(kw_re.findall(voice.words))
        if not present:
            continue
        lineno = first_line + voice.line
        for sid, knowers, reader, kws in ctx.secrets:
            if not kws or sid in (revealed or ()):
                continue
            who = voice.speaker
            hit = [k for k in kws if k in present and (who is None or (k != who and ctx.aliases.get(k) != who))]
            if who is None:
                if reader:
                    if len(hit) >= max(2, _need(kws, 3)):
                        out.append(Finding("废笔", WARN, f"向读者复述已知信息 {sid}（{'、'.join(hit)}）", lineno, voice.column,
                                           voice.words.strip()[:40]))
                    continue
                if (pov is None or (pov not in knowers and pov not in learned.get(sid, ()))) and len(hit) >= _need(kws, 2):
                    out.append(Finding("泄密", ERROR, f"叙述说出了读者尚不知道的 {sid}（{'、'.join(hit)}）；有意揭晓就在设定变更写"
                                       f"「{sid}.读者已知=是」", lineno, voice.column, voice.words.strip()[:40]))
                continue
            if who in knowers or who in learned.get(sid, ()):
                continue
            if len(hit) >= _need(kws, 2):
                out.append(Finding("泄密", ERROR, f"{who} 不是 {sid} 的知情人，却说出/想到了「{'、'.join(hit)}」",
                                   lineno, voice.column, voice.words[:40]))
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


def new_proper_nouns(repo: StoryRepo | None, draft: Any, ctx: CheckContext | None = None) -> list[tuple[str, str, int]]:
    """``(noun, kind, line)`` for proper nouns in the draft that the book does not know yet
    (:mod:`lw_storyrepo.propernouns`); the book's ignore list is respected."""
    if ctx is None:
        assert repo is not None
        ctx = CheckContext.load(repo)
    nouns = find_new_nouns(draft.body, known_names(ctx, draft), ctx.ignored)
    return [(n.name, n.kind, draft.body_line + n.line - 1) for n in nouns]


def render_findings(label: str, findings: list[Finding]) -> str:
    errors = [f for f in findings if f.severity == ERROR]
    lines = [f"# 机检报告：草稿 {label}", "", f"结论：{'不过关，打回重写' if errors else '通过'}（{len(errors)} 个错误，"
             f"{len(findings) - len(errors)} 个提示）", ""]
    for f in findings:
        mark = {ERROR: "✗", INFO: "？"}.get(f.severity, "·")
        lines.append(f"- {mark} [{f.kind}] 第 {f.line} 行第 {f.column} 列：{f.message}" + (f"　「{f.excerpt}」" if f.excerpt and f.excerpt not in f.message else ""))
    return "\n".join(lines) + "\n"
