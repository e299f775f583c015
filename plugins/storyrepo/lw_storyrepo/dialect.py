"""Reading and writing Story Repo files in the fool-proof dialect (spec §2.2), and repair cards.

Reading is tolerant: front matter is parsed with ruamel.yaml's round-trip loader, so unknown
keys, key order and author comments survive every write. Writing follows the dialect: flat
keys, block lists only, risky scalars quoted, two-space indent, UTF-8 without BOM.

When a file does not parse, :class:`RepairNeeded` carries a :class:`RepairCard` (file, line,
the surrounding lines, a proposed fix). Full-width colons and commas in structural positions
are fixed deterministically (:func:`auto_fix`) and reported, not asked.

A fast path (:func:`fast_flat`) reads the flat dialect without ruamel for the cache rebuild;
anything it does not recognise falls back to the round-trip loader.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import LwError, load_yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

from lw_storyrepo.i18n import tr

FENCE = "---"
CONTEXT_WIDTH = 120

# --- repair cards -----------------------------------------------------------------------------


@dataclass
class RepairCard:
    """One file that needs attention: where, what, the context, and the fix."""

    file: str
    line: int | None
    problem: str
    context: list[str] = field(default_factory=list)
    proposal: str = ""
    auto: bool = False  # True: deterministic fix, applied and reported only
    fixed_text: str | None = None  # the whole file with the proposed fix applied

    def render(self) -> str:
        """The card as the author reads it (in the reader's language; the file's lines as they are)."""
        head = tr(f"修复卡：{self.file} 第 {self.line} 行" if self.line else f"修复卡：{self.file}")
        lines = [head, tr(f"问题：{self.problem}")]
        if self.context:
            lines.append(tr("上下文："))
            lines.extend(f"  {c}" for c in self.context)
        if self.proposal:
            lines.append(tr(f"已自动修复：{self.proposal}" if self.auto else f"建议修复：{self.proposal}"))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "problem": self.problem,
            "context": self.context,
            "proposal": self.proposal,
            "auto": self.auto,
        }


class RepairNeeded(LwError):
    """A source file failed to parse or validate; ``card`` says where and how to fix it."""

    def __init__(self, card: RepairCard) -> None:
        super().__init__(card.problem, file=card.file, line=card.line, expected=card.proposal or None)
        self.card = card


def context_lines(text: str, line: int | None, radius: int = 2, offset: int = 0) -> list[str]:
    """The lines around 1-based ``line`` of ``text``, numbered (plus ``offset``), marked ``>``."""
    if not line:
        return []
    lines = text.splitlines()
    out = []
    for n in range(max(1, line - radius), min(len(lines), line + radius) + 1):
        mark = ">" if n == line else " "
        text = lines[n - 1]
        out.append(f"{mark}{n + offset:4d} | {text[:CONTEXT_WIDTH]}{'…' if len(text) > CONTEXT_WIDTH else ''}")
    return out


# --- the YAML engine ------------------------------------------------------------------------

_YAML: Any = None


def _yaml() -> Any:
    global _YAML
    if _YAML is None:
        y = YAML(typ="rt")
        y.indent(mapping=2, sequence=4, offset=2)
        y.width = 4096
        y.preserve_quotes = True
        y.allow_unicode = True
        y.explicit_start = False
        _YAML = y
    return _YAML


def new_map() -> Any:
    return CommentedMap()


_SHAPE_FIX = "front matter 只写平铺的「字段名: 值」和块列表，不用锚点/别名、标签和重复的键"
_VALUE_FIX = "这一行的值写成书能存的数（整数不超过九位）、一行文字（可加引号）或 true/false"


def yaml_load(text: str, *, file: str, line_offset: int = 0) -> Any:
    """Round-trip load a YAML mapping; any problem becomes a located :class:`RepairNeeded`.

    The kernel's safe reader (:func:`lwcore.io.load_yaml`) reads the text first, so alias
    bombs, deep nesting, duplicate keys and unknown tags are refused with their location before
    ruamel.yaml builds the round-trip document (which keeps comments and key order for writing).
    """
    try:
        load_yaml(text, file)
    except LwError as exc:
        line = (exc.line + line_offset) if exc.line else None
        if exc.code == "syntax":
            raise _card_for_error(text, file, line, line_offset, exc.message) from None
        raise RepairNeeded(RepairCard(file, line, f"格式问题：{exc.message}",
                                      context_lines(text, exc.line, offset=line_offset),
                                      _VALUE_FIX if exc.code == "value" else _SHAPE_FIX)) from None
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark is not None else None
        raise _card_for_error(text, file, line, line_offset, str(exc.problem or exc.context)) from None
    except YAMLError as exc:
        raise _card_for_error(text, file, None, line_offset, str(exc)) from None
    if data is None:
        return CommentedMap()
    if not isinstance(data, CommentedMap):
        line = 1 + line_offset
        raise RepairNeeded(
            RepairCard(
                file=file,
                line=line,
                problem="这里应是「键: 值」的字段表，却读到了别的内容",
                context=context_lines(text, 1, offset=line_offset),
                proposal="每行写成「字段名: 值」，冒号用半角并在后面空一格",
            )
        )
    return data


def _card_for_error(text: str, file: str, line: int | None, offset: int, problem: str) -> RepairNeeded:
    rel = (line - offset) if line else None
    lines = text.splitlines()
    proposal = "按系统写出的样子改：「字段名: 值」，列表一行一条「  - 条目」"
    bad = lines[rel - 1] if rel and 0 < rel <= len(lines) else ""
    # look for the classic slips near the reported line
    window = range(max(1, (rel or 1) - 2), min(len(lines), (rel or 1) + 1) + 1)
    for n in window:
        candidate = lines[n - 1]
        if "\t" in candidate[: len(candidate) - len(candidate.lstrip())]:
            rel, bad = n, candidate
            proposal = "把行首的制表符（Tab）换成两个空格：" + candidate.replace("\t", "  ").rstrip()
            break
    else:
        if "：" in bad:
            proposal = "把键后的全角冒号「：」换成半角冒号加空格「: 」"
    fixed = None
    if "Tab" in proposal:
        fixed_lines = list(lines)
        for n, candidate in enumerate(fixed_lines):
            stripped = candidate.lstrip(" \t")
            indent = candidate[: len(candidate) - len(stripped)]
            if "\t" in indent:
                fixed_lines[n] = indent.replace("\t", "  ") + stripped
        fixed = "\n".join(fixed_lines) + ("\n" if text.endswith("\n") else "")
    shown = (rel + offset) if rel else None
    return RepairNeeded(
        RepairCard(
            file=file,
            line=shown,
            problem=f"格式解析失败：{problem}",
            context=context_lines(text, rel, offset=offset),
            proposal=proposal,
            fixed_text=fixed,
        )
    )


# --- risky scalars and dialect writing -----------------------------------------------------------

_NUMBERISH = re.compile(r"^[-+]?(\d[\d_,]*\.?\d*|\.\d+)([eE][-+]?\d+)?$|^0[xob][0-9a-fA-F_]+$|^[-+]?\.(inf|nan)$", re.I)
_BOOLISH = {
    "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "none",
    "是", "否", "是的", "不是", "对", "错", "真", "假", "有", "无", "没有",
}


def risky(value: str) -> bool:
    """Whether a string would be misread as another type by some YAML reader (spec §2.2)."""
    s = value.strip()
    if s != value or not s:
        return True
    if "\n" in s or "\r" in s or "\t" in s or not s.isprintable():
        return True
    if s.lower() in _BOOLISH or _NUMBERISH.match(s):
        return True
    if s[0] in "[]{}&*!|>'\"%@`#,?:-" or ": " in s or " #" in s or s.endswith(":"):
        return True
    return False


def to_dialect(value: Any) -> Any:
    """Convert a Python value into what the dialect writes (quoted risky strings, block lists)."""
    if isinstance(value, ScalarString):
        if risky(str(value)) and not isinstance(value, DoubleQuotedScalarString):
            return DoubleQuotedScalarString(str(value))
        return value
    if isinstance(value, str):
        return DoubleQuotedScalarString(value) if risky(value) else value
    if isinstance(value, CommentedSeq):
        for i, item in enumerate(value):
            value[i] = to_dialect(item)
        value.fa.set_block_style()
        return value
    if isinstance(value, (list, tuple)):
        seq = CommentedSeq([to_dialect(v) for v in value])
        seq.fa.set_block_style()
        return seq
    if isinstance(value, CommentedMap):
        for key in list(value.keys()):
            value[key] = to_dialect(value[key])
        return value
    return value


def _flat_scalar(value: Any) -> str | None:
    """The dialect text of a simple scalar, or None when ruamel must write it."""
    if value is None:
        return ""
    t = type(value)
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return str(value)
    if t is str:
        return json.dumps(value, ensure_ascii=False) if risky(value) else value
    if t is DoubleQuotedScalarString and "\\" not in value and value.isprintable():
        return json.dumps(str(value), ensure_ascii=False)
    return None


def flat_dump(data: Any) -> str | None:
    """Fast writer for flat, comment-free mappings (the common case); None = use ruamel.

    Produces exactly what ruamel writes in the dialect for such data (a property test holds
    the two in step); anything with comments, nesting, flow lists or unusual scalars returns
    None.
    """
    ca = getattr(data, "ca", None)
    if ca is not None and (ca.items or ca.comment or getattr(ca, "end", None)):
        return None
    lines = []
    for key, value in data.items():
        if type(key) is not str or risky(key):
            return None
        if isinstance(value, list):
            sca = getattr(value, "ca", None)
            if not value or (sca is not None and (sca.items or sca.comment)):
                return None
            fa = getattr(value, "fa", None)
            if fa is not None and fa.flow_style():
                return None
            lines.append(f"{key}:")
            for item in value:
                text = _flat_scalar(item)
                if text is None or text == "":
                    return None
                lines.append(f"  - {text}")
            continue
        text = _flat_scalar(value)
        if text is None:
            return None
        lines.append(f"{key}: {text}" if text else f"{key}:")
    return "\n".join(lines) + "\n" if lines else ""


def yaml_dump(data: Any, *, convert: bool = True) -> str:
    """Dump a mapping in the dialect (UTF-8 text, two-space indent, block lists).

    ``convert=False`` leaves values as they are (a round-trip document whose changed values
    were already converted when set: the author's own fields are written back untouched).
    """
    if convert:
        to_dialect(data)
    fast = flat_dump(data)
    if fast is not None:
        return fast
    buf = io.StringIO()
    _yaml().dump(data, buf)
    return buf.getvalue()


# --- documents (front matter + Markdown body) --------------------------------------------------


@dataclass
class Doc:
    """A Markdown file with a flat front matter. ``meta`` is a ruamel ``CommentedMap``.

    ``newline`` is the front matter's line ending as the file had it: a file saved with CRLF
    (Notepad on Windows) is written back with CRLF, never with mixed endings.
    """

    meta: Any
    body: str
    path: str = ""
    newline: str = "\n"

    def get(self, key: str, default: Any = None) -> Any:
        value = self.meta.get(key, default)
        return default if value is None else value

    def set(self, key: str, value: Any) -> None:
        if isinstance(value, (list, tuple)) and not value:
            value = None  # an empty list is written as an empty key, ready for block items
        self.meta[key] = to_dialect(value)

    def dump(self) -> str:
        fm = yaml_dump(self.meta, convert=False) if len(self.meta) else ""
        head = f"{FENCE}\n{fm}{FENCE}\n"
        return (head.replace("\n", "\r\n") if self.newline == "\r\n" else head) + self.body


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """``(front matter text or None, body, line number of the first front-matter line)``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.startswith("---\n"):
        if text.startswith("---\n---\n"):
            return "", text[8:], 2
        end = text.find("\n---\n", 3)
        if end >= 0:
            return text[4 : end + 1], text[end + 5 :], 2
        if text.endswith("\n---"):
            return text[4 : len(text) - 3], "", 2
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return None, text, 0
    start = text.index("\n") + 1
    pos = start
    while True:
        end = text.find("\n", pos)
        line = text[pos:] if end < 0 else text[pos:end]
        if line.rstrip("\r") == FENCE:
            body = "" if end < 0 else text[end + 1 :]
            return text[start:pos], body, 2
        if end < 0:
            return None, text, 0
        pos = end + 1


def parse_doc(text: str, file: str = "", *, autofix: bool = True) -> tuple[Doc, list[str]]:
    """Parse a front-matter document; returns the doc and the list of auto-fixes applied.

    Raises :class:`RepairNeeded` when the front matter cannot be read even after the
    deterministic fixes.
    """
    fm, body, first = split_front_matter(text)
    if fm is None:
        return Doc(new_map(), body, file), []
    newline = "\r\n" if "\r\n" in fm else "\n"
    fm = fm.replace("\r\n", "\n")
    fixes: list[str] = []
    if autofix:
        fm, fixes = auto_fix(fm, line_offset=first - 1)
    meta = yaml_load(fm, file=file, line_offset=first - 1)
    return Doc(meta, body, file, newline), fixes


# --- deterministic fixes (full-width punctuation in structural positions) --------------------

_FW_KEY = re.compile(r"^(?P<key>[^\s\-#'\"\[\]{}:：][^:：#\[\]{}]{0,30}?)\s*：[ \t\u3000]*(?P<value>.*)$")
_FLOW = re.compile(r"^(?P<head>(?:[^#:]|:(?!\s*\[)|:\s*\[[^\]#]*\])*?:\s*)\[(?P<items>[^\]]*)\]\s*(?P<comment>#.*)?$")
"""A key line with an inline list (标签: [甲，乙]  # note): head (up to the first ``: [`` whose list closes the line),
items, comment. The head steps over an earlier ``: [...]`` whole: every start inside it closes at the same ``]``
and fails as it did, so a line of thousands of ``a:[`` and no ``]`` is read once, not once per ``:`` (the square of
its length, twenty seconds for a front-matter line of the draft's cap); the matches are those of the plain lazy
head ``[^#]*?``."""


def auto_fix(text: str, *, line_offset: int = 0) -> tuple[str, list[str]]:
    """Fix full-width colons after keys and full-width commas in inline lists.

    Returns the fixed text and one message per fix (``第 N 行：…``). Only top-level key
    lines are touched; list items and values may contain full-width punctuation freely.
    """
    fixes: list[str] = []
    out: list[str] = []
    for n, line in enumerate(text.split("\n"), start=1):
        shown = n + line_offset
        if line and not line[0].isspace() and not line.startswith("-") and not line.startswith("#"):
            head = line.split(" #", 1)[0]
            if not re.search(r":(\s|$)", head):
                m = _FW_KEY.match(line)
                if m:
                    value = m.group("value")
                    line = f"{m.group('key')}: {value}".rstrip() if value else f"{m.group('key')}:"
                    fixes.append(f"第 {shown} 行：键后的全角冒号「：」已改为半角「: 」")
        m = _FLOW.match(line)
        if m and ("，" in m.group("items") or "、" in m.group("items")) and not line.startswith(" "):
            items = [i.strip() for i in re.split(r"[，,、]", m.group("items")) if i.strip()]
            head = m.group("head").rstrip()
            out.append(head + (f"  {m.group('comment')}" if m.group("comment") else ""))
            out.extend(f"  - {_quote_if_risky(i)}" for i in items)
            fixes.append(f"第 {shown} 行：行内列表里的全角逗号已拆成块列表（一行一条）")
            continue
        out.append(line)
    return "\n".join(out), fixes


def _quote_if_risky(item: str) -> str:
    item = item.strip("'\"")
    return '"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' if risky(item) else item


# --- the fast flat reader -------------------------------------------------------------------------

_INT = re.compile(r"^[-+]?\d+$")
# plain scalars the YAML 1.2 core schema (or ruamel's timestamp resolver) would type: leave to ruamel
_TYPED = re.compile(
    r"^[-+]?(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?$|^0[xo][0-9a-fA-F]+$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$"
    r"|^\d{4}-\d\d?-\d\d?([Tt ]|$)"
)


_SPECIAL_START = frozenset("[]{}&*!|>%@`'\"?,")
_WORDS = {"true": True, "false": False, "null": None, "~": None}


def _scalar(raw: str) -> tuple[bool, Any]:
    raw = raw.strip()
    if not raw:
        return True, None
    c = raw[0]
    if c in _SPECIAL_START:
        if c == '"':
            if len(raw) >= 2 and raw[-1] == '"' and "\\" not in raw and '"' not in raw[1:-1]:
                return True, raw[1:-1]
            return False, None
        if c == "'":
            if len(raw) >= 2 and raw[-1] == "'" and "'" not in raw[1:-1]:
                return True, raw[1:-1]
            return False, None
        if raw in ("[]", "[ ]"):
            return True, []
        return False, None
    if "#" in raw:
        if " #" in raw:
            raw = raw.split(" #", 1)[0].rstrip()
    if ":" in raw and (": " in raw or raw[-1] == ":"):
        return False, None
    if c.isdigit() or c in "+-.":
        if _INT.match(raw):
            try:
                return True, int(raw)
            except ValueError:  # past int()'s digit limit: the full reader refuses it, located
                return False, None
        if c == "-" and raw[1:2] in (" ", ""):
            return False, None
        if _TYPED.match(raw):
            return False, None
        return True, raw
    if len(raw) <= 5:
        low = raw.lower()
        if low in _WORDS:
            return True, _WORDS[low]
    return True, raw


def fast_flat(fm: str) -> dict[str, Any] | None:
    """Read a flat-dialect front matter into a plain dict, or ``None`` when it is not simple."""
    out: dict[str, Any] = {}
    current: list[Any] | None = None
    pending: list[str] = []
    for line in fm.split("\n"):
        if not line:
            continue
        c = line[0]
        if c == " " or c == "-" or c == "\t":
            s = line.lstrip(" ")
            if not s or s[0] == "#":
                continue
            if current is None or s[0] != "-" or c == "\t":
                return None
            if s == "-":
                current.append(None)
                continue
            if s[1] != " ":
                return None
            ok, value = _scalar(s[2:])
            if not ok:
                return None
            current.append(value)
            continue
        if c == "#" or c == "\r":
            if line.strip() and c != "#":
                return None
            continue
        key, sep, rest = line.partition(":")
        if not sep or c in "'\"?{[" or (rest and rest[0] != " " and rest[0] != "\t"):
            return None
        key = key.strip()
        if key in out:
            return None  # a duplicate key: the safe reader refuses it with its location
        rest = rest.strip()
        if not rest or rest[0] == "#":
            current = []
            out[key] = current
            pending.append(key)
            continue
        ok, value = _scalar(rest)
        if not ok:
            return None
        out[key] = value
        current = None
    for key in pending:  # a key with an empty value and no items is null, not an empty list
        if out.get(key) == []:
            out[key] = None
    return out


def plain(value: Any) -> Any:
    """ruamel containers -> plain Python (dict/list/str/int/bool/None)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def quick_meta(text: str, file: str = "") -> tuple[dict[str, Any], str]:
    """Front matter as a plain dict plus the body, fast path first (used by the cache)."""
    fm, body, _first = split_front_matter(text)
    if fm is None:
        return {}, body
    data = fast_flat(fm)
    if data is None:
        doc, _ = parse_doc(text, file)
        data = plain(doc.meta)
    return data, body
