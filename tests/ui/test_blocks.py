"""Tier-0 blocks: one schema (``lw schema ui-block``), the same models for hooks and panels,
strict checks, and the template family (bindings, repeat) built from the same definitions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from lwcore.sandbox import effects
from lwcore.ui import blocks

TIER0 = TypeAdapter(blocks.Block)
TEMPLATE = TypeAdapter(blocks.TemplateBlock)

GOOD = [
    {"kind": "meter", "label": {"en": "Fear", "zh": "恐惧"}, "value": 3, "max": 10},
    {"kind": "stat", "label": "HP", "value": 12},
    {"kind": "stat", "label": "Mood", "value": "calm", "visible_when": "day >= 2"},
    {"kind": "badge", "label": "Hunted", "tone": "danger"},
    {"kind": "text", "text": "A quote.", "style": "quote"},
    {"kind": "divider"},
    {"kind": "choices", "prompt": "Go?", "options": [{"id": "a", "label": "A", "input": "I go."}]},
    {"kind": "image", "src": "assets/map.png", "caption": {"en": "Map"}},
    {"kind": "image", "hash": "a" * 64},
]

BAD = [
    ({"kind": "meter", "label": "x", "value": 1, "min": 5, "max": 5}, "above min"),
    ({"kind": "meter", "label": "x", "value": "3", "max": 5}, "number"),
    ({"kind": "stat", "label": "x", "value": 1, "extra": 1}, "Extra inputs"),
    ({"kind": "badge", "label": "x", "tone": "loud"}, "tone"),
    ({"kind": "choices", "options": []}, "at least 1"),
    ({"kind": "choices", "options": [{"id": "a", "label": "A", "input": "x"}] * 2}, "unique"),
    ({"kind": "image", "src": "../outside.png"}, "inside the pack"),
    ({"kind": "image", "src": "/etc/passwd"}, "inside the pack"),
    ({"kind": "image", "src": "https://example.com/x.png"}, "inside the pack"),
    ({"kind": "image", "src": "a.png", "hash": "a" * 64}, "exactly one"),
    ({"kind": "text", "text": "x", "visible_when": "a + 1"}, "arithmetic"),
    ({"kind": "text", "text": "x", "visible_when": "getvar('a')"}, "calls"),
    ({"kind": "gauge", "label": "x"}, "tag"),
    ({"kind": "meter", "label": {"en": "x"}, "value": float("nan"), "max": 1}, "finite"),
]


@pytest.mark.parametrize("raw", GOOD, ids=lambda r: r["kind"])
def test_good_blocks(raw: dict) -> None:
    block = TIER0.validate_python(raw)
    assert block.model_dump(mode="json", exclude_none=True, by_alias=True) == {"min": 0, **raw} if raw["kind"] == "meter" \
        else block.model_dump(mode="json", exclude_none=True, by_alias=True) == raw


@pytest.mark.parametrize("raw,words", BAD, ids=lambda r: str(r)[:40])
def test_bad_blocks(raw: dict, words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        TIER0.validate_python(raw)
    assert words.lower() in str(caught.value).lower()


def test_hooks_and_panels_share_one_set_of_models() -> None:
    assert effects.MeterBlock is blocks.MeterBlock and effects.Block is blocks.Block
    ui = effects.EmitUI.model_validate({"kind": "emitUI", "blocks": [GOOD[0]]})
    assert isinstance(ui.blocks[0], blocks.MeterBlock)


def test_bindings_only_in_templates() -> None:
    raw = {"kind": "meter", "label": {"$var": "name"}, "value": {"$var": "hp"}, "max": {"$var": "hp_max"}}
    TEMPLATE.validate_python(raw)
    with pytest.raises(ValidationError):
        TIER0.validate_python(raw)
    with pytest.raises(ValidationError):
        TEMPLATE.validate_python({**raw, "value": {"$var": "hp", "other": 1}})
    with pytest.raises(ValidationError):
        TEMPLATE.validate_python({"kind": "image", "hash": "a" * 64})  # authors name src, never a hash
    repeat = TEMPLATE.validate_python({"repeat": {"prefix": "npc.", "block": {"kind": "stat", "label": {"$leaf": "label"},
                                                                              "value": {"$leaf": "value"}}}})
    assert isinstance(repeat, blocks.RepeatBlock)
    with pytest.raises(ValidationError):
        TEMPLATE.validate_python({"repeat": {"prefix": "a", "block": {"repeat": {"prefix": "b", "block": {"kind": "divider"}}}}})


def test_lw_schema_ui_block(tmp_path: Path) -> None:
    lw = Path(sys.executable).parent / "lw"
    result = subprocess.run([str(lw), "schema", "ui-block"], capture_output=True, text=True, timeout=120,
                            env={"LW_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    kinds = {d["properties"]["kind"]["const"] for d in schema["$defs"].values() if "kind" in d.get("properties", {})}
    assert kinds == set(blocks.KINDS)
