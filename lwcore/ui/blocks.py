"""Tier-0 UI blocks: the one schema of what every client draws natively (``lw schema ui-block``).

Seven kinds -- ``meter``, ``stat``, ``badge``, ``text``, ``divider``, ``choices``, ``image`` --
each a strict model (no coercion, no unknown fields, no NaN or infinity). Labels and texts
are a string or the same text by locale (``{en: Fear, zh: 恐惧}``); readers pick theirs
(:func:`lwcore.contributions.localized`). Any block may carry ``visible_when``, a condition of
the grammar in :mod:`lwcore.ui.condition`, checked here.

The same definitions serve twice (:func:`block_family`):

- **tier 0** (:data:`Block`): what a hook's ``emitUI`` asks for and what a panel resolves to
  for one viewer; an ``image`` names its picture by pack-relative ``src`` or content ``hash``.
- **templates** (:data:`TemplateBlock`): the blocks of a pack's ``ui/panels.yaml``, where any
  text or number a viewer sees may instead be a binding -- ``{$var: id}`` (the viewer's own
  variable of that id) or, inside a ``repeat``, ``{$leaf: id|label|value}`` (the variable the
  repeat is on) -- and ``{repeat: {prefix, block}}`` stands for one block per variable whose
  id starts with ``prefix``. An ``image`` there names its ``src`` only (the pack's build
  content-addresses it; an author never writes a hash).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    RootModel,
    StringConstraints,
    Tag,
    model_validator,
)

from lwcore.ui.condition import MAX_LENGTH as MAX_CONDITION
from lwcore.ui.condition import check as check_condition

MAX_OPTIONS = 12
MAX_LABEL = 120
MAX_UI_TEXT = 2000
MAX_INPUT = 200
MAX_SRC = 300
MAX_VAR_ID = 200
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
LOCALE_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
SHA256 = r"^[0-9a-f]{64}$"
KINDS = ("meter", "stat", "badge", "text", "divider", "choices", "image")
TONES = ("info", "warn", "danger")
TEXT_STYLES = ("quote", "warning")
LEAF_FIELDS = ("id", "label", "value")

Locale = Annotated[str, StringConstraints(pattern=LOCALE_PATTERN)]
ShortText = Annotated[str, StringConstraints(max_length=MAX_LABEL)]
Label = Union[ShortText, dict[Locale, ShortText]]
"""A text, or the same text by locale (``{en: Fear, zh: 恐惧}``): readers pick theirs."""
LongText = Union[
    Annotated[str, StringConstraints(max_length=MAX_UI_TEXT)],
    dict[Locale, Annotated[str, StringConstraints(max_length=MAX_UI_TEXT)]],
]
Number = Union[int, float]


class Strict(BaseModel):
    """Checked as written: no coercion (``"3"`` is not a number, ``true`` is not 1), no
    unknown fields, no NaN or infinity."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


def _relative_src(value: str) -> str:
    if value.startswith(("/", "\\")) or ".." in re.split(r"[/\\]", value) or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", value):
        raise ValueError("src must be a relative path inside the pack (no leading /, no .., no scheme)")
    return value


Condition = Annotated[str, StringConstraints(max_length=MAX_CONDITION), AfterValidator(check_condition)]
Src = Annotated[str, StringConstraints(min_length=1, max_length=MAX_SRC), AfterValidator(_relative_src)]


class VarBinding(Strict):
    """``{$var: id}``: the viewer's own variable ``id`` (a declared variable, or ``mvu.`` and
    a path for a leaf of the variable tree the keeper exposed). A viewer without it -- a
    player and a keeper-only variable -- does not see the block at all."""

    var: Annotated[str, StringConstraints(min_length=1, max_length=MAX_VAR_ID)] = Field(alias="$var")
    model_config = ConfigDict(populate_by_name=False)


class LeafBinding(Strict):
    """``{$leaf: id|label|value}``: inside a ``repeat``, a field of the variable this copy
    of the block is for."""

    leaf: Literal["id", "label", "value"] = Field(alias="$leaf")
    model_config = ConfigDict(populate_by_name=False)


Binding = Annotated[
    Union[Annotated[VarBinding, Tag("var")], Annotated[LeafBinding, Tag("leaf")]],
    Discriminator(lambda v: "var" if isinstance(v, dict) and "$var" in v or isinstance(v, VarBinding) else "leaf"),
]


def is_binding(value: Any) -> bool:
    return isinstance(value, (VarBinding, LeafBinding))


def block_family(bind: Callable[[Any], Any], *, template: bool) -> dict[str, Any]:
    """The seven block models, with every viewer-facing scalar typed ``bind(type)``
    (identity for tier 0; ``type | Binding`` for templates). Returns ``{kind: model}`` plus
    ``"Block"``, their discriminated union."""

    class _Block(Strict):
        visible_when: Condition | None = None

    class MeterBlock(_Block):
        """A bounded gauge: ``min < max``; a value outside them is drawn at the nearer end."""

        kind: Literal["meter"]
        label: bind(Label)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        value: bind(Number)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        min: bind(Number) = 0  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        max: bind(Number)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)

        @model_validator(mode="after")
        def _range(self) -> Any:
            low, high = self.min, self.max
            if not (is_binding(low) or is_binding(high)) and not high > low:
                raise ValueError(f"max ({high}) must be above min ({low})")
            return self

    class StatBlock(_Block):
        """One labelled value."""

        kind: Literal["stat"]
        label: bind(Label)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        value: bind(Union[ShortText, int, float, bool])  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)

    class BadgeBlock(_Block):
        """A short tag; ``tone`` colours it."""

        kind: Literal["badge"]
        label: bind(Label)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        tone: Literal["info", "warn", "danger"] | None = None

    class TextBlock(_Block):
        """A paragraph (``style``: a quotation or a warning)."""

        kind: Literal["text"]
        text: bind(LongText)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        style: Literal["quote", "warning"] | None = None

    class DividerBlock(_Block):
        kind: Literal["divider"]

    class Choice(Strict):
        """Picking it sends ``input`` as if the viewer had typed it."""

        id: Annotated[str, StringConstraints(pattern=ID_PATTERN)]
        label: bind(Label)  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        input: Annotated[str, StringConstraints(min_length=1, max_length=MAX_INPUT)]

    class ChoicesBlock(_Block):
        """Options the viewer may pick, each sending its ``input`` as their own line."""

        kind: Literal["choices"]
        prompt: bind(Label) | None = None  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
        options: Annotated[list[Choice], Field(min_length=1, max_length=MAX_OPTIONS)]

        @model_validator(mode="after")
        def _unique(self) -> Any:
            ids = [option.id for option in self.options]
            if len(set(ids)) != len(ids):
                raise ValueError("option ids must be unique")
            return self

    if template:
        class ImageBlock(_Block):
            """A picture of the pack by its pack-relative ``src`` (PNG, JPEG, WebP, GIF or SVG);
            the build content-addresses it. Text clients show ``caption``."""

            kind: Literal["image"]
            src: Src
            caption: bind(Label) | None = None  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
            alt: bind(Label) | None = None  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
    else:
        class ImageBlock(_Block):  # type: ignore[no-redef]  # ImageBlock is defined per tier inside block_family
            """A picture by pack-relative ``src`` (``assets/map.png``) or by content ``hash``
            (SHA-256, lowercase hex): exactly one. Text clients show ``caption``."""

            kind: Literal["image"]
            src: Src | None = None
            hash: Annotated[str, StringConstraints(pattern=SHA256)] | None = None
            caption: Label | None = None
            alt: Label | None = None

            @model_validator(mode="after")
            def _one_source(self) -> Any:
                if (self.src is None) == (self.hash is None):
                    raise ValueError("give exactly one of src (a path inside the pack) and hash")
                return self

    models = {"meter": MeterBlock, "stat": StatBlock, "badge": BadgeBlock, "text": TextBlock,
              "divider": DividerBlock, "choices": ChoicesBlock, "image": ImageBlock}
    union: Any = Annotated[Union[tuple(models.values())], Field(discriminator="kind")]
    return {**models, "Choice": Choice, "Block": union}


def _plain(kind: Any) -> Any:
    return kind


def _bindable(kind: Any) -> Any:
    return Union[Binding, kind]


_TIER0 = block_family(_plain, template=False)
_TEMPLATE = block_family(_bindable, template=True)

MeterBlock = _TIER0["meter"]
StatBlock = _TIER0["stat"]
BadgeBlock = _TIER0["badge"]
TextBlock = _TIER0["text"]
DividerBlock = _TIER0["divider"]
ChoicesBlock = _TIER0["choices"]
ImageBlock = _TIER0["image"]
Choice = _TIER0["Choice"]
Block = _TIER0["Block"]
"""The tier-0 UI blocks every client renders natively (a discriminated union on ``kind``)."""

TemplateBlockKind = _TEMPLATE["Block"]


class RepeatSpec(Strict):
    """One copy of ``block`` per variable of the viewer whose id starts with ``prefix``
    (in the order the viewer's variables come; at most ``MAX_REPEAT`` copies)."""

    prefix: Annotated[str, StringConstraints(min_length=1, max_length=MAX_VAR_ID)]
    block: TemplateBlockKind  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)


class RepeatBlock(Strict):
    """``{repeat: {prefix, block}}``; ``visible_when`` here gates the whole list."""

    repeat: RepeatSpec
    visible_when: Condition | None = None


TemplateBlock = Annotated[
    Union[Annotated[RepeatBlock, Tag("repeat")], Annotated[TemplateBlockKind, Tag("block")]],  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
    Discriminator(lambda v: "repeat" if (isinstance(v, dict) and "repeat" in v) or isinstance(v, RepeatBlock)
                  else "block"),
]
"""A block of a panel template: a tier-0 block with bindings, or a ``repeat``."""


class UIBlock(RootModel[Block]):  # type: ignore[valid-type]  # block models are built at run time by block_family (bind() per tier)
    """One tier-0 UI block (``lw schema ui-block``)."""


class UIOptions(Strict):
    """Where an ``emitUI`` emission goes: ``inline`` (the narrative stream, the default) or a
    panel slot; ``id`` names a region a later emission with the same id replaces."""

    panel: Literal["inline", "sidebar", "tray", "modal"] = "inline"
    id: Annotated[str, StringConstraints(pattern=ID_PATTERN)] | None = None
    replace: bool = False
