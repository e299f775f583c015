"""MagVarUpdate's readings of text -- ``parseCommandValue`` and ``parseString`` -- with its libraries.

A command's argument (``_.set('hp', 10, 'cos(pi)+2')``) and an ``[InitVar]`` or ``<JSONPatch>``
text mean what MagVarUpdate makes of them: it reads them with JSON, JavaScript literals, mathjs,
the ``yaml`` package (YAML 1.2, merge keys), JSON5 and jsonrepair, each a published npm package
(:mod:`lw_tavern.jsdeps`). Those run in the kernel's sandbox (``js/mvu_values.js``: one run for a
whole batch, the libraries compiled only when a text needs them; mathjs, ≈ 0.2 s to compile,
only on a second run for the texts that reach it). Texts whose reading is certain without them
are read here: ``true``/``false``/``null``/``undefined``, JSON, a quoted text without quotes or
backslashes inside, and text of CJK characters only (neither JSON, a literal, nor a mathjs
expression: YAML reads it as itself).

Without the sandbox or the libraries, the texts that need them are read by the ``json5`` package
where it can (a value that stays a text otherwise), and :attr:`Reader.missing` says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from lwcore.api import SandboxLimits as Limits

from lw_tavern import jsdeps
from lw_tavern.mvu.json5 import Json5Error, parse_json5

UNDEFINED: Any = type("Undefined", (), {"__repr__": lambda self: "undefined"})()
"""JavaScript's ``undefined`` as a command's value (``_.set('x', undefined)``)."""

SCRIPT = Path(__file__).resolve().parent.parent / "js" / "mvu_values.js"
LIMITS = Limits(memory_bytes=96 * 1024 * 1024, time_s=3.0, stack_bytes=512 * 1024, output_chars=2_000_000,
                source_chars=20_000)
"""One batch's run: mathjs alone is ≈ 740,000 characters to compile and ≈ 4 MiB once loaded."""
MAX_TEXT = 64 * 1024

_QUOTED = re.compile(r"'([^'\\\n]*)'|\"([^\"\\\n]*)\"")
_CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]+")


_ACTIVE: ContextVar[Reader | None] = ContextVar("lw_tavern_mvu_reader", default=None)


@contextmanager
def reading(reader: Reader) -> Iterator[Reader]:
    """Make ``reader`` the one :func:`current` gives (an import reads its declarations with it)."""
    token = _ACTIVE.set(reader)
    try:
        yield reader
    finally:
        _ACTIVE.reset(token)


def current() -> Reader | None:
    return _ACTIVE.get()


class ReadError(ValueError):
    """A text none of the readers accepts (``parseString`` throws)."""


@cache
def _script() -> str:
    return SCRIPT.read_text(encoding="utf-8")


def _no_constants(name: str) -> Any:
    raise ValueError(name)


def fast_value(text: str) -> tuple[bool, Any]:
    """``(known, value)``: a command argument read without the libraries when that is certain."""
    trimmed = text.strip()
    if trimmed in ("true", "false", "null"):
        return True, {"true": True, "false": False, "null": None}[trimmed]
    if trimmed == "undefined":
        return True, UNDEFINED
    try:
        return True, json.loads(trimmed, parse_constant=_no_constants)
    except ValueError:
        pass
    quoted = _QUOTED.fullmatch(trimmed)
    if quoted and quoted.group(1) is not None:
        return True, quoted.group(1)
    if _CJK.fullmatch(trimmed):
        return True, trimmed
    return False, None


def fast_parse(text: str) -> tuple[bool, Any]:
    """``(known, value)``: a ``parseString`` text read without the libraries when that is certain
    (JSON that starts with ``[`` or ``{``: JSON5 reads JSON alike)."""
    if re.match(r"\s*[\[{]", text):
        try:
            return True, json.loads(text, parse_constant=_no_constants)
        except ValueError:
            pass
    return False, None


@dataclass
class Reader:
    """Reads a batch of texts; ``missing`` names what was not available (the sandbox, a library)."""

    sandbox: Any = None
    missing: list[str] = field(default_factory=list)
    runs: int = 0
    _yaml_cache: dict[str, str | None] = field(default_factory=dict)

    def values(self, texts: Sequence[str]) -> list[Any]:
        """``parseCommandValue`` of each text (:data:`UNDEFINED` for ``undefined``)."""
        return [self._result(r, text, "value") for r, text in zip(self._batch("value", texts), texts)]

    def parse(self, texts: Sequence[str]) -> list[Any]:
        """``parseString`` of each text; a :class:`ReadError` in place of a text none reads."""
        return [self._result(r, text, "parse") for r, text in zip(self._batch("parse", texts), texts)]

    def yaml(self, value: Any) -> str | None:
        """``YAML.stringify(value, {blockQuote: 'literal'})`` by the library, its end trimmed;
        ``None`` when the library cannot run here."""
        key = json.dumps(value, ensure_ascii=False)
        if key not in self._yaml_cache:
            found = self._run([{"kind": "yaml", "value": value}], math=False)
            first = found[0] if found else None
            self._yaml_cache[key] = first["v"] if isinstance(first, dict) and isinstance(first.get("v"), str) else None
        return self._yaml_cache[key]

    def _result(self, result: Any, text: str, kind: str) -> Any:
        if isinstance(result, tuple):
            return result[1]
        if "undef" in result:
            return UNDEFINED
        if "error" in result:
            return ReadError(result["error"])
        return result["v"]

    def _batch(self, kind: str, texts: Sequence[str]) -> list[Any]:
        fast = fast_value if kind == "value" else fast_parse
        out: list[Any] = []
        slow: list[int] = []
        for i, text in enumerate(texts):
            known, value = fast(text)
            out.append((True, value) if known else None)
            if not known:
                slow.append(i)
        if not slow:
            return out
        items = [{"kind": kind, "text": texts[i][:MAX_TEXT]} for i in slow]
        first = self._run(items, math=False)
        if first is None:
            for i in slow:
                out[i] = (True, self._fallback(kind, texts[i]))
            return out
        again = [j for j, r in enumerate(first) if isinstance(r, dict) and r.get("math")]
        if again:
            second = self._run([items[j] for j in again], math=True)
            for j, r in zip(again, second or [None] * len(again)):
                first[j] = r if isinstance(r, dict) else {"v": _trim_quotes(items[j]["text"])}
        for i, r in zip(slow, first):
            out[i] = r if isinstance(r, dict) else (True, self._fallback(kind, texts[i]))
        return out

    def _run(self, items: list[dict[str, Any]], *, math: bool) -> list[Any] | None:
        if self.sandbox is None:
            self._miss("the sandbox")
            return None
        yaml, json5, repair = jsdeps.modules("yaml"), jsdeps.source("json5"), jsdeps.source("jsonrepair")
        mathjs = jsdeps.source("mathjs") if math else None
        for name, got in (("yaml", yaml), ("json5", json5), ("jsonrepair", repair)) + ((("mathjs", mathjs),) if math else ()):
            if got is None:
                self._miss(name)
                return None
        inputs = {"items": items, "yaml": yaml, "json5": json5, "jsonrepair": repair, "mathjs": mathjs or ""}
        self.runs += 1
        try:
            outcome = self.sandbox.evaluate(_script(), inputs, state={}, seed=0, clock=0, limits=LIMITS,
                                            script="mvu-values")
        except Exception as exc:  # noqa: BLE001 - no usable sandbox
            self._miss(f"the sandbox ({type(exc).__name__})")
            return None
        if not outcome.ok or not isinstance(outcome.value, list) or len(outcome.value) != len(items):
            self._miss(f"the sandbox ({outcome.error})" if not outcome.ok else "the sandbox (no answer)")
            return None
        return outcome.value

    def _miss(self, what: str) -> None:
        if what not in self.missing:
            self.missing.append(what)

    @staticmethod
    def _fallback(kind: str, text: str) -> Any:
        try:
            return parse_json5(text)
        except Json5Error:
            return ReadError("cannot be read without MagVarUpdate's libraries") if kind == "parse" else _trim_quotes(text)


def _trim_quotes(text: str) -> str:
    return re.sub(r"^[\\\"'` ]*(.*?)[\\\"'` ]*$", r"\1", text, flags=re.DOTALL)
