"""SillyTavern chat-completion presets (``prompts`` + ``prompt_order``) and their fold (A.6).

A preset is a pool of prompts (``prompts``: text prompts and the eight *markers* where
SillyTavern puts its own context) and one or more order lists (``prompt_order``: per character,
``100001`` the global one) that say which prompts run, in what sequence. A prompt runs when it
is enabled in the pool *and* in the chosen order list; one the order list never names does not
run. :func:`load_preset` validates a file (every problem located); :func:`effective_prompts`
gives the running sequence; :func:`fold` maps it onto the places a Loreweaver turn has:

- text before every marker → ``style`` (the stable style layer);
- text from the first marker to ``worldInfoAfter`` → ``before_lore`` and text after it →
  ``after_lore`` (they wrap the world-book injection);
- text after ``chatHistory`` → ``late`` (the late slot of the per-turn state message, nearest to
  generation);
- the other five markers only split (they move the walk into the context part; the walk only
  goes forward, so markers in an odd order still fold deterministically);
- prompts with ``injection_position: 1`` go to ``at_depth`` (inserted into the chat at a depth).

A preset without markers folds entirely into ``style``. Nothing here expands macros or runs
anything; the ``extensions`` (regex scripts, helper scripts) are kept as data and reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lwcore.api import LwError, LwErrors
from pydantic import BaseModel, ConfigDict, Field

from lw_tavern.files import located, read_json_file, validate

MARKERS = ("personaDescription", "charDescription", "charPersonality", "scenario", "worldInfoBefore",
           "worldInfoAfter", "dialogueExamples", "chatHistory")
GLOBAL_ORDER = (100001, 100000)
BANDS = ("style", "before_lore", "after_lore", "late")
_BAND_AFTER_MARKER = {m: 1 for m in MARKERS} | {"worldInfoAfter": 2, "chatHistory": 3}
MAX_PROMPTS = 2000
MAX_PROMPT_TEXT = 200_000


class PresetPrompt(BaseModel):
    """One prompt of the pool (a text prompt or a marker)."""

    model_config = ConfigDict(extra="allow", strict=True)

    identifier: str = Field(min_length=1)
    name: str = ""
    role: Literal["system", "user", "assistant"] | None = "system"
    content: str = Field("", max_length=MAX_PROMPT_TEXT)
    system_prompt: bool = False
    marker: bool = False
    enabled: bool = True
    injection_position: Literal[0, 1] = 0
    injection_depth: int = Field(4, ge=0, le=10_000)
    injection_order: int | None = None
    forbid_overrides: bool = False


class OrderRef(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)

    identifier: str
    enabled: bool = True


class OrderGroup(BaseModel):
    """One order list: the character it belongs to and its prompts in sequence."""

    model_config = ConfigDict(extra="allow", strict=True)

    character_id: int
    order: list[OrderRef] = Field(default_factory=list)


class ChatPreset(BaseModel):
    """A chat-completion preset; sampler settings and everything else are kept as they are."""

    model_config = ConfigDict(extra="allow", strict=True)

    prompts: list[PresetPrompt] = Field(min_length=1, max_length=MAX_PROMPTS)
    prompt_order: list[OrderGroup] = Field(default_factory=list)
    extensions: dict[str, Any] = Field(default_factory=dict)


@dataclass
class LoadedPreset:
    """A validated preset and the things worth telling its keeper."""

    preset: ChatPreset
    warnings: list[str] = field(default_factory=list)


def load_preset(data: Any, *, file: Any = None, text: str | None = None) -> LoadedPreset:
    """A preset from JSON data: located errors for what is wrong, warnings for what is odd."""
    if not isinstance(data, Mapping):
        raise located("a preset is a JSON object", file=file, text=text, path=())
    if "prompts" not in data:
        raise located("no `prompts`: this is not a chat-completion preset", file=file, text=text, path=(),
                      expected='{"prompts": [...], "prompt_order": [...]}')
    preset = validate(ChatPreset, data, file=file, text=text)
    problems: list[LwError] = []
    seen: set[str] = set()
    for i, p in enumerate(preset.prompts):
        if p.identifier in seen:
            problems.append(located(f"identifier {p.identifier!r} is used twice", file=file, text=text,
                                    path=("prompts", i, "identifier")))
        seen.add(p.identifier)
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    warnings = []
    for g, group in enumerate(preset.prompt_order):
        for ref in group.order:
            if ref.identifier not in seen:
                warnings.append(f"prompt_order[{g}] names {ref.identifier!r}, which is not in prompts (ignored)")
    for p in preset.prompts:
        if p.marker and p.identifier not in MARKERS:
            warnings.append(f"marker {p.identifier!r} is not one of SillyTavern's eight (it only splits)")
        if p.marker and p.content.strip():
            warnings.append(f"marker {p.identifier!r} has content; a marker's place is filled by the engine")
    if not preset.prompt_order:
        warnings.append("no prompt_order: no prompt runs")
    for key in ("regex_scripts", "tavern_helper", "TavernHelper_scripts"):
        if preset.extensions.get(key):
            warnings.append(f"extensions.{key} kept but not run")
    return LoadedPreset(preset, warnings)


def read_preset(path: str | Path) -> LoadedPreset:
    read: list[str] = []
    data, text = read_json_file(path, read)
    loaded = load_preset(data, file=path, text=text)
    loaded.warnings[:0] = read
    return loaded


def preset_id(filename: str) -> str:
    """The id a preset file is installed under: its name without ``.json``, made safe."""
    stem = Path(filename).name
    stem = stem[:-5] if stem.lower().endswith(".json") else stem
    clean = re.sub(r"[^\w.-]+", "-", stem, flags=re.UNICODE).strip(".-")
    return clean[:80] or "preset"


def order_group(preset: ChatPreset, character_id: int | None = None) -> OrderGroup | None:
    """The order list SillyTavern uses: the character's, else the global one, else the first."""
    for wanted in ((character_id,) if character_id is not None else ()) + GLOBAL_ORDER:
        for group in preset.prompt_order:
            if group.character_id == wanted:
                return group
    return preset.prompt_order[0] if preset.prompt_order else None


def effective_prompts(preset: ChatPreset, character_id: int | None = None) -> list[PresetPrompt]:
    """The prompts that run, in sequence: enabled in the pool and in the order list (the first
    mention decides)."""
    group = order_group(preset, character_id)
    if group is None:
        return []
    pool = {p.identifier: p for p in preset.prompts}
    out: list[PresetPrompt] = []
    placed: set[str] = set()
    for ref in group.order:
        prompt = pool.get(ref.identifier)
        if prompt is None or ref.identifier in placed:
            continue
        placed.add(ref.identifier)
        if prompt.enabled and ref.enabled:
            out.append(prompt)
    return out


@dataclass(frozen=True)
class DepthPrompt:
    """A prompt inserted into the chat ``depth`` messages from the end."""

    depth: int
    role: str
    order: int
    text: str


@dataclass(frozen=True)
class Fold:
    """A preset folded onto a turn's places (see the module docstring)."""

    style: str = ""
    before_lore: str = ""
    after_lore: str = ""
    late: str = ""
    at_depth: tuple[DepthPrompt, ...] = ()
    sequence: tuple[tuple[str, str], ...] = ()
    """(band, prompt identifier) for every text prompt placed, in order (for the keeper)."""


def fold(preset: ChatPreset, character_id: int | None = None) -> Fold:
    """Fold the running prompts by their place relative to the markers."""
    bands: dict[str, list[str]] = {b: [] for b in BANDS}
    at_depth: list[DepthPrompt] = []
    sequence: list[tuple[str, str]] = []
    band = 0
    for prompt in effective_prompts(preset, character_id):
        if prompt.marker:
            band = max(band, _BAND_AFTER_MARKER.get(prompt.identifier, 1))
            continue
        text = prompt.content.strip()
        if not text:
            continue
        if prompt.injection_position == 1:
            at_depth.append(DepthPrompt(prompt.injection_depth, prompt.role or "system",
                                        prompt.injection_order if prompt.injection_order is not None else 100, text))
            sequence.append(("at_depth", prompt.identifier))
            continue
        bands[BANDS[band]].append(text)
        sequence.append((BANDS[band], prompt.identifier))
    return Fold(**{b: "\n\n".join(parts) for b, parts in bands.items()}, at_depth=tuple(at_depth),
                sequence=tuple(sequence))
