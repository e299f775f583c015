"""Blocks compiled once, resolved per viewer: bindings, ``repeat``, ``visible_when``, locale.

A pack's template blocks (and a hook's tier-0 blocks) are compiled into closures when the
pack is loaded; resolving them for one viewer is then a walk over closures against that
viewer's own variables (:class:`ViewerVar`, built from the projections by
:mod:`lw_panels.variables`). The rules, for every block:

- ``visible_when`` false, or not decidable (an error, an unorderable comparison): hidden;
- a ``{$var: id}`` the viewer does not have (a keeper-only variable for a player, a leaf the
  keeper did not expose, a name that does not exist): the whole block is hidden;
- a number field bound to something that is not a number (a text, a bool): hidden;
- ``repeat``: one copy per viewer variable whose id starts with the prefix, in the viewer's
  order, at most :data:`MAX_REPEAT`; ``{$leaf: id|label|value}`` reads that variable;
- texts by locale resolve to the viewer's locale (then its language, then ``en``).

The result is tier-0 blocks with plain strings: what every renderer draws. A block that
reads no variable is built once per locale and shared: resolved blocks are read-only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from lwcore.api import LeafBinding, VarBinding, compile_condition, localized

MAX_REPEAT = 32

_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class ViewerVar:
    """One variable as a viewer sees it: ``value`` as stored (what conditions compare),
    ``text`` as shown (an enum's label in the viewer's locale), ``label`` its display name."""

    id: str
    label: str
    value: Any
    text: str


Vars = Mapping[str, ViewerVar]
Values = Mapping[str, Any]
Emit = Callable[[list, Vars, Values, str, "ViewerVar | None"], None]
"""``emit(out, vars, values, locale, leaf)`` appends the block's resolved copies to ``out``."""
Getter = Callable[[Vars, str, "ViewerVar | None"], Any]


def shown(value: Any) -> str:
    """A value as a viewer reads it (numbers without a needless ``.0``, bools in lower case)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if value is None:
        return ""
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _leaf_field(field: str, want: str) -> Getter:
    def get(vars: Vars, locale: str, leaf: ViewerVar | None) -> Any:
        if leaf is None:
            return _MISSING
        if field == "id":
            return leaf.id if want != "number" else _MISSING
        if field == "label":
            return leaf.label if want != "number" else _MISSING
        if want == "text":
            return leaf.text
        if want == "number":
            return leaf.value if _is_number(leaf.value) else _MISSING
        return leaf.value if _is_number(leaf.value) or isinstance(leaf.value, bool) else leaf.text
    return get


def _var_field(var_id: str, want: str) -> Getter:
    if want == "text":
        def text(vars: Vars, locale: str, leaf: ViewerVar | None) -> Any:
            var = vars.get(var_id)
            return _MISSING if var is None else var.text
        return text
    if want == "number":
        def number(vars: Vars, locale: str, leaf: ViewerVar | None) -> Any:
            var = vars.get(var_id)
            return var.value if var is not None and _is_number(var.value) else _MISSING
        return number

    def scalar(vars: Vars, locale: str, leaf: ViewerVar | None) -> Any:
        var = vars.get(var_id)
        if var is None:
            return _MISSING
        return var.value if _is_number(var.value) or isinstance(var.value, bool) else var.text
    return scalar


def getter(field: Any, want: str = "text") -> Getter:
    """A field's value for a viewer: ``want`` is ``text`` (a string in the viewer's locale),
    ``number``, or ``scalar`` (a stat's value: number, bool or text)."""
    if isinstance(field, VarBinding):
        return _var_field(field.var, want)
    if isinstance(field, LeafBinding):
        return _leaf_field(field.leaf, want)
    if isinstance(field, Mapping):
        texts = dict(field)
        memo: dict[str, str] = {}

        def by_locale(vars: Vars, locale: str, leaf: ViewerVar | None) -> Any:
            text = memo.get(locale)
            if text is None:
                text = memo[locale] = localized(texts, locale)
            return text
        return by_locale
    constant = field
    return lambda vars, locale, leaf: constant


def compile_block(block: Any, image: Callable[[str], Mapping[str, Any]] | None = None) -> Emit:
    """``block`` (a template or tier-0 block model, or a repeat) as an :data:`Emit`.

    ``image(src)`` gives an image's content address (``{hash, mime}``) in its pack; without
    it an image keeps what it names (a tier-0 ``hash``, else nothing but its caption)."""
    repeat = getattr(block, "repeat", None)
    condition = block.visible_when
    visible = compile_condition(condition) if condition is not None else None
    if repeat is not None:
        inner = compile_block(repeat.block, image)
        prefix = repeat.prefix

        def emit_repeat(out: list, vars: Vars, values: Values, locale: str, leaf: ViewerVar | None) -> None:
            if visible is not None and not visible(values):
                return
            count = 0
            for var in vars.values():
                if var.id.startswith(prefix):
                    inner(out, vars, values, locale, var)
                    count += 1
                    if count >= MAX_REPEAT:
                        break
        return emit_repeat
    build = _BUILDERS[block.kind](block, image)
    fixed = not _bound(block)
    if fixed:
        build = _per_locale(build)
    if visible is None:
        def emit_always(out: list, vars: Vars, values: Values, locale: str, leaf: ViewerVar | None) -> None:
            resolved = build(vars, locale, leaf)
            if resolved is not None:
                out.append(resolved)
        if fixed:
            emit_always.fixed = build  # type: ignore[attr-defined]  # the emitter carries its builder as a function attribute for the fixed-value fast path
        return emit_always

    def emit(out: list, vars: Vars, values: Values, locale: str, leaf: ViewerVar | None) -> None:
        if visible(values):
            resolved = build(vars, locale, leaf)
            if resolved is not None:
                out.append(resolved)
    return emit


def compile_blocks(blocks: Iterable[Any], image: Callable[[str], Mapping[str, Any]] | None = None) -> tuple[Emit, ...]:
    """:func:`compile_block` of each block; a run of blocks that read nothing and have no
    condition becomes one step (the same for every viewer of a locale)."""
    out: list[Emit] = []
    run: list[Build] = []
    for emit in (compile_block(block, image) for block in blocks):
        fixed = getattr(emit, "fixed", None)
        if fixed is not None:
            run.append(fixed)
            continue
        if run:
            out.append(_fixed_run(run))
            run = []
        out.append(emit)
    if run:
        out.append(_fixed_run(run))
    return tuple(out)


def _fixed_run(builds: list[Build]) -> Emit:
    memo: dict[str, list[dict[str, Any]]] = {}

    def emit_run(out: list, vars: Vars, values: Values, locale: str, leaf: ViewerVar | None) -> None:
        blocks = memo.get(locale)
        if blocks is None:
            built = (build(vars, locale, None) for build in builds)
            blocks = memo[locale] = [b for b in built if b is not None]
        out.extend(blocks)
    return emit_run


def _bound(value: Any) -> bool:
    """Whether a block reads any variable (a ``$var`` or ``$leaf`` anywhere in it)."""
    if isinstance(value, (VarBinding, LeafBinding)):
        return True
    if isinstance(value, BaseModel):
        return any(_bound(getattr(value, name)) for name in type(value).model_fields)
    if isinstance(value, (list, tuple)):
        return any(_bound(item) for item in value)
    return False


class Shared(dict):
    """A resolved block every viewer of a locale shares (it reads no variable): read-only,
    and renderers keep what they drew of it (:class:`Drawn`)."""

    __slots__ = ()


def _per_locale(build: Build) -> Build:
    """A block that reads no variable resolves the same for every viewer of a locale: built
    once per locale, as a :class:`Shared` block."""
    memo: dict[str, dict[str, Any] | None] = {}

    def cached(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
        if locale in memo:
            return memo[locale]
        resolved = build(vars, locale, leaf)
        memo[locale] = resolved = Shared(resolved) if resolved is not None else None
        return resolved
    return cached


Build = Callable[[Vars, str, "ViewerVar | None"], "dict[str, Any] | None"]


def _meter(block: Any, image: Any) -> Build:
    label, value, low, high = getter(block.label), getter(block.value, "number"), getter(block.min, "number"), \
        getter(block.max, "number")

    def build(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
        out = {"kind": "meter", "label": label(vars, locale, leaf), "value": value(vars, locale, leaf),
               "min": low(vars, locale, leaf), "max": high(vars, locale, leaf)}
        if _MISSING in out.values() or not out["max"] > out["min"]:
            return None
        return out
    return build


def _stat(block: Any, image: Any) -> Build:
    label, value = getter(block.label), getter(block.value, "scalar")

    def build(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
        text, shown_value = label(vars, locale, leaf), value(vars, locale, leaf)
        if text is _MISSING or shown_value is _MISSING:
            return None
        return {"kind": "stat", "label": text, "value": shown_value}
    return build


def _one_text(kind: str, field: str, option: str) -> Callable[[Any, Any], Build]:
    """The builder of a block of one text ``field`` and an optional literal ``option``
    (a badge's label and tone, a text's text and style)."""
    def builder(block: Any, image: Any) -> Build:
        text_of, extra = getter(getattr(block, field)), getattr(block, option)

        def build(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
            text = text_of(vars, locale, leaf)
            if text is _MISSING:
                return None
            return {"kind": kind, field: text, option: extra} if extra else {"kind": kind, field: text}
        return build
    return builder


def _divider(block: Any, image: Any) -> Build:
    return lambda vars, locale, leaf: {"kind": "divider"}


def _choices(block: Any, image: Any) -> Build:
    prompt = getter(block.prompt) if block.prompt is not None else None
    options = [(option.id, getter(option.label), option.input) for option in block.options]

    def build(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
        out: dict[str, Any] = {"kind": "choices"}
        if prompt is not None:
            text = prompt(vars, locale, leaf)
            if text is _MISSING:
                return None
            out["prompt"] = text
        picked = []
        for option_id, label, line in options:
            text = label(vars, locale, leaf)
            if text is _MISSING:
                return None
            picked.append({"id": option_id, "label": text, "input": line})
        out["options"] = picked
        return out
    return build


def _image(block: Any, image: Any) -> Build:
    src = getattr(block, "src", None)
    address: dict[str, Any] = {}
    if src is not None and image is not None:
        address = dict(image(src))
    elif getattr(block, "hash", None):
        address = {"hash": block.hash}
    caption = getter(block.caption) if block.caption is not None else None
    alt = getter(block.alt) if block.alt is not None else None

    def build(vars: Vars, locale: str, leaf: ViewerVar | None) -> dict[str, Any] | None:
        out: dict[str, Any] = {"kind": "image", **address}
        for name, field in (("caption", caption), ("alt", alt)):
            if field is not None:
                text = field(vars, locale, leaf)
                if text is _MISSING:
                    return None
                out[name] = text
        return out
    return build


_BUILDERS: dict[str, Callable[[Any, Any], Build]] = {
    "meter": _meter, "stat": _stat, "badge": _one_text("badge", "label", "tone"),
    "text": _one_text("text", "text", "style"), "divider": _divider,
    "choices": _choices, "image": _image,
}


class SharedBlocks(list):
    """A panel's resolved blocks, shared by every viewer whose variables read the same to
    it (:func:`resolve_reusing`): read-only, and renderers keep what they drew of them."""

    __slots__ = ()


def reads(named: Iterable[str], prefixes: Iterable[str], vars: Vars) -> tuple[Any, ...]:
    """Everything a panel's resolution depends on besides the locale: the variables it names
    (as the viewer has them: value, text, label, or ``None``) and those its repeats match."""
    key: tuple[Any, ...] = tuple(vars.get(name) for name in named)
    for prefix in prefixes:
        key += tuple(v for v in vars.values() if v.id.startswith(prefix))
    return key


def resolve_reusing(memo: dict[str, Any], blocks: tuple[Emit, ...], named: Iterable[str], prefixes: Iterable[str],
                    vars: Vars, values: Values, locale: str) -> SharedBlocks:
    """:func:`resolve`, reusing the last result for ``locale`` when what the blocks read is
    unchanged (``memo`` belongs to one panel): after a turn, a panel re-resolves only when a
    variable it names changed."""
    key = reads(named, prefixes, vars)
    hit = memo.get(locale)
    if hit is not None and hit[0] == key:
        return hit[1]
    resolved = SharedBlocks(resolve(blocks, vars, values, locale))
    memo[locale] = (key, resolved)
    return resolved


class Drawn:
    """What a renderer drew of :class:`Shared` blocks and :class:`SharedBlocks`, by identity
    and a key (the renderer's options); anything else is drawn every time. The block is held with its
    drawing, so its identity stays its own."""

    def __init__(self, limit: int = 8192) -> None:
        self._memo: dict[tuple[int, Any], tuple[object, Any]] = {}
        self._limit = limit

    def get(self, block: Any, key: Any, draw: Callable[[], Any]) -> Any:
        if block.__class__ is not Shared and block.__class__ is not SharedBlocks:
            return draw()
        slot = (id(block), key)
        hit = self._memo.get(slot)
        if hit is not None and hit[0] is block:
            return hit[1]
        drawn = draw()
        if len(self._memo) >= self._limit:
            self._memo.clear()
        self._memo[slot] = (block, drawn)
        return drawn


def resolve(blocks: tuple[Emit, ...] | list[Emit], vars: Vars, values: Values, locale: str) -> list[dict[str, Any]]:
    """Compiled blocks resolved for one viewer (see the module docstring)."""
    out: list[dict[str, Any]] = []
    for emit in blocks:
        emit(out, vars, values, locale, None)
    return out
