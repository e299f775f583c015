"""Reflex rules (§8, optional layer): match the user's latest message without any model call.

Rules file: ``$DSH_REFLEX_RULES`` or ``<config folder>/reflex.json``; ``DSH_REFLEX_OFF=1`` turns the
layer off. Factory state is zero rules = zero behaviour change. Three channels, first hit wins:
``when.text`` (regex), ``when.nearAny`` (normalised substring), ``when.keywords`` + ``minHits``
(bag of words, a *soft* hit). Filters: ``when.tier`` (flash/pro/any), ``when.textNot`` (veto
regex), ``when.maxChars``. ``dryRun`` only records. The hit ledger records the rule id, the tier
and the first 40 characters of the message -- nothing else.

The two regex fields are JavaScript regular expressions (the format's reference host is
JavaScript), matched case-insensitively (``i``) by the kernel's bounded tester
(:class:`lwcore.sandbox.RegexTester`: QuickJS's engine, 0.1 s a test, the turn's script budget),
never by Python's ``re``: a pattern that backtracks for minutes costs a turn 0.1 s and no hit. A
pattern JavaScript refuses, or one that overruns, matches nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lwcore.api import js
from lw_persona.inbox import append_line, now_iso
from lw_persona.places import Places
from lwcore.api import JSON_LIMITS, LwError, RegexFailed, RegexTester, read_json

MAX_RULES_BYTES = 256 * 1024
MAX_LEDGER_BYTES = 2 * 1024 * 1024
_PUNCT = re.compile(r"[\s，,。.！!？?、；;：:「」“”‘’（）()【】\[\]…~～\-]")
_FOLD = str.maketrans({"妳": "你", "您": "你", "嗎": "吗", "嘛": "吗", "麼": "么", "誰": "谁", "認": "认", "識": "认"})


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force; ``error`` says (located) why a rules file that exists was not used."""

    enabled: bool
    dry_run: bool
    rules: tuple[dict[str, Any], ...]
    file: Path | None
    error: str = ""


@dataclass(frozen=True, slots=True)
class Hit:
    rule: dict[str, Any]
    soft: bool
    why: str


def rules_path(places: Places | None = None) -> Path:
    places = places or Places.resolve()
    override = (places.env.get("DSH_REFLEX_RULES") or "").strip()
    return Path(os.path.abspath(override)) if override else places.folder / "reflex.json"


def _sanitize(items: Any) -> tuple[dict[str, Any], ...]:
    out = []
    for r in items if isinstance(items, list) else []:
        if not isinstance(r, dict):
            continue
        rid = r["id"].strip() if isinstance(r.get("id"), str) and r["id"].strip() else None
        then = then_raw if isinstance(then_raw := r.get("then"), dict) else None
        if not rid or then is None:
            continue
        reply = then["reply"] if isinstance(then.get("reply"), str) else ""
        directive = then["directive"] if isinstance(then.get("directive"), str) else ""
        if not reply and not directive:
            continue
        prio = js.to_number(r.get("priority"))
        out.append({
            "id": rid,
            "priority": prio if prio == prio else 0,
            "when": r["when"] if isinstance(r.get("when"), dict) else {},
            "then": {"reply": reply, "directive": directive, "extra": then["extra"] if isinstance(then.get("extra"), str) else ""},
        })
    return tuple(out)


def load_rules(places: Places | None = None) -> Rules:
    """The rules in force; never raises (a missing file = no rules; an unusable one = no rules
    and the located reason in ``error``)."""
    places = places or Places.resolve()
    if places.env.get("DSH_REFLEX_OFF") == "1":
        return Rules(False, False, (), None)
    file = rules_path(places)
    try:
        cfg = read_json(file, limits=JSON_LIMITS.with_(max_bytes=MAX_RULES_BYTES))
    except LwError as exc:
        return Rules(True, False, (), file, "" if exc.code == "not_found" else str(exc))
    if not isinstance(cfg, dict):
        return Rules(True, False, (), file, f"{file}: the rules file holds no JSON object")
    return Rules(cfg.get("enabled") is not False, cfg.get("dryRun") is True, _sanitize(cfg.get("rules")), file)


def normalize(text: str) -> str:
    """Form-only normalisation: full-width -> half-width, no spaces/punctuation, a few variants, lower."""
    text = "".join(chr(ord(c) - 0xFEE0) if 0xFF01 <= ord(c) <= 0xFF5E else c for c in text or "")
    return js.trim(_PUNCT.sub("", text).translate(_FOLD).lower())


def _search(pattern: Any, text: str) -> bool:
    if not isinstance(pattern, str) or not pattern:
        return False
    tester = RegexTester(script="reflex rule")
    try:
        return tester.check(pattern, "i").verdict == "ok" and tester.test(pattern, "i", text)
    except RegexFailed:
        return False


def match_rule(rule: Mapping[str, Any], text: str, tier: str) -> Hit | None:
    w = w_raw if isinstance(w_raw := rule.get("when"), dict) else {}
    want_tier = w.get("tier")
    if want_tier and want_tier != "any" and want_tier != tier:
        return None
    max_chars = js.to_number(w.get("maxChars")) if w.get("maxChars") else 0
    if max_chars and js.utf16_length(text) > max_chars:
        return None
    if w.get("textNot") and _search(w["textNot"], text):
        return None
    if w.get("text") and _search(w["text"], text):
        return Hit(dict(rule), False, "text")
    norm = normalize(text)
    for phrase in listed if isinstance(listed := w.get("nearAny"), list) else []:
        p = normalize(js.to_string(phrase, null=""))
        if not p:
            continue
        at = norm.find(p)
        if at < 0:
            continue
        before = js.utf16_slice(norm[:at], -2)  # norm.slice(Math.max(0, at - 2), at)
        if re.search(r"[他她它]|别人|他们", before):
            continue
        return Hit(dict(rule), False, f"near:{phrase}")
    words = words_raw if isinstance(words_raw := w.get("keywords"), list) else []
    if words:
        need = js.to_number(w.get("minHits"))
        need = need if need > 0 else 2
        hits = [k for k in words if normalize(js.to_string(k, null="")) and normalize(js.to_string(k, null="")) in norm]
        if len(hits) >= need:
            return Hit(dict(rule), True, "keywords:" + "+".join(map(str, hits)))
    return None


def evaluate(rules: Rules, text: str, tier: str) -> Hit | None:
    """The first matching rule, highest ``priority`` first, file order among equals."""
    if not rules.enabled or not rules.rules or not text:
        return None
    ordered = sorted(enumerate(rules.rules), key=lambda pair: (-pair[1]["priority"], pair[0]))
    for _, rule in ordered:
        hit = match_rule(rule, text, tier)
        if hit:
            return hit
    return None


def directive(hit: Hit) -> str:
    """The one-step instruction injected for a hit (soft hits say: ignore me if I do not fit)."""
    then = hit.rule["then"]
    lines = [f"【条件反射·{hit.rule['id']}】"]
    if hit.soft:
        lines.append("（关键词粗筛命中，可能不符：先判断是否相关，不相关就完全忽略本条。）")
    if then["reply"]:
        lines.append("本步直接回答：" + then["reply"])
    if then["directive"]:
        lines.append(then["directive"])
    if then["extra"]:
        lines.append(then["extra"])
    lines.append("若本条与用户当前的问题无关，忽略本条，按问题本身正常回答。")
    return "\n".join(lines)


def ledger_path(places: Places | None = None) -> Path:
    return (places or Places.resolve()).folder / "reflex.log.jsonl"


def record(hit: Hit, tier: str, text: str, *, dry_run: bool, places: Places | None = None) -> None:
    """Append one ledger line (rule id, tier, first 40 characters); never raises."""
    path = ledger_path(places)
    try:
        if path.exists() and (not path.is_file() or path.stat().st_size > MAX_LEDGER_BYTES):
            return
        append_line(path, {"t": now_iso(), "phase": "dry-run" if dry_run else "fire", "rule": hit.rule["id"],
                           "tier": tier, "head": text[:40]})
    except OSError:
        pass


def reflex_segment(text: str | None, tier: str, places: Places | None = None) -> str:
    """The directive for this turn ('' when nothing fires or in dry-run); records the hit."""
    if not text:
        return ""
    try:
        rules = load_rules(places)
        hit = evaluate(rules, text, tier)
        if hit is None:
            return ""
        record(hit, tier, text, dry_run=rules.dry_run, places=places)
        return "" if rules.dry_run else directive(hit)
    except Exception:  # noqa: BLE001 - the optional layer never breaks a turn
        return ""
