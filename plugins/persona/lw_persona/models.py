"""Pydantic models of the file formats, for ``lw schema persona-config|persona-preset``.

Every model allows extra keys: unknown keys are part of the format (§2.6). The runtime never
needs these models (reading is tolerant by design); they document and validate.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Contract(_Open):
    id: str = ""
    text: str = ""
    on: bool = True


class Style(_Open):
    enabled: bool = False
    text: str = ""
    byModel: dict[str, str] = Field(default_factory=dict)


class Persona(_Open):
    enabled: bool = True
    preset: str = ""
    selfNameFlash: str = "我"
    selfNamePro: str = "我"
    selfNameByModel: dict[str, str] = Field(default_factory=dict)
    userName: str = "用户"
    stance: str = ""
    character: str = ""
    suffix: str = Field("", description="Appended at the end of the prompt; {{cwd}} is the working folder.")
    appearance: Style = Field(default_factory=Style)
    tone: Style = Field(default_factory=Style)
    contracts: list[Contract] = Field(default_factory=list)


class ManualEntry(_Open):
    text: str = ""
    on: bool = True


class Sink(_Open):
    path: str
    format: Literal["md", "plain", "jsonl"] = "md"
    template: str = ""
    header: str = ""
    createParents: bool = True


class Memory(_Open):
    enabled: bool = False
    entries: list[ManualEntry] = Field(default_factory=list)
    inbox: bool = True
    capture: str = "on-demand"
    maxEntries: float = 30
    inboxPath: str = ""
    sinks: dict[str, Sink] = Field(default_factory=dict)
    sinkLog: str = ""
    requireConfirm: bool = True


class Budget(_Open):
    enabled: bool = False
    max: float = 0
    warnInPrompt: bool = True


class PersonaConfig(_Open):
    """whale-persona ``config.json`` (no spec field in v1)."""

    enabled: bool = True
    thinkingLanguage: str = "off"
    persona: Persona = Field(default_factory=Persona)
    memory: Memory = Field(default_factory=Memory)
    budget: Budget = Field(default_factory=Budget)


class PresetPersona(_Open):
    userName: str | None = None
    selfNameFlash: str | None = None
    selfNamePro: str | None = None
    selfNameByModel: dict[str, str] | None = None
    stance: str | None = None
    character: str | None = None
    suffix: str | None = None
    contracts: list[Contract] | None = None
    tone: Style | None = None
    appearance: Style | None = None


class PresetCard(_Open):
    """A ``whale-persona-preset/1`` card; never carries memory."""

    spec: Literal["whale-persona-preset/1"] = "whale-persona-preset/1"
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    label: str = ""
    description: str = ""
    author: str | None = None
    tags: list[str] | None = None
    thinkingLanguage: str | None = None
    persona: PresetPersona = Field(default_factory=PresetPersona)
    source: dict[str, Any] | None = None
