"""The pydantic model of ``lw-plugin.toml`` (``lw schema plugin-manifest``).

Imported only when a manifest is not in the validated-manifest cache, or for the schema.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from lwcore.api_version import MAX_REQUIREMENT_CHARS, parse_requirement
from lwcore.hookspecs import DATA_KINDS, FAMILIES

ID_PATTERN = r"^[a-z][a-z0-9_-]{0,62}$"
NEED_PATTERN = re.compile(
    r"^(fs:(data_dir|read|write)|net|sandbox:js|subprocess:[A-Za-z0-9_.+-]+|env:[A-Za-z_][A-Za-z0-9_]*)$"
)
VERSION_PATTERN = r"^\d+(\.\d+)*([.+-]?[A-Za-z0-9.+-]*)?$"


class PluginManifest(BaseModel):
    """A Loreweaver plugin manifest (``lw-plugin.toml``)."""

    model_config = ConfigDict(extra="forbid", title="Loreweaver plugin manifest")

    id: str = Field(pattern=ID_PATTERN, description="Unique plugin id.")
    version: str = Field(pattern=VERSION_PATTERN, description="The plugin's own version.")
    tier: Literal["data", "declarative", "code"] = Field(
        description="data: validated files only; declarative: prompt text and tool "
        "allowlists; code: Python that runs with the operator's privileges."
    )
    provides: list[str] = Field(
        default_factory=list,
        description="Hook families (code tier) and/or data folders the plugin provides.",
    )
    needs: list[str] = Field(default_factory=list, description="Capabilities the plugin uses.")
    bundled: bool = Field(
        default=False,
        description="Ignored, accepted for older manifests: whether a plugin is bundled with "
        "Loreweaver is decided by the kernel (its own distribution's 'bundled' extra), never "
        "by the plugin.",
    )
    min_engine: str = Field(
        default="0", pattern=VERSION_PATTERN, description="Lowest lwcore version it runs on."
    )
    description: dict[str, str] = Field(
        default_factory=dict, description="Localized one-line description, locale -> text."
    )
    name: str | None = Field(default=None, description="Display name.")
    cli_commands: list[str] = Field(
        default_factory=list, description="lw subcommands this plugin adds (needs 'cli'); binding: others it registers are "
        "dropped. 'commands' is accepted as its old spelling."
    )
    pack_kinds: list[str] = Field(
        default_factory=list,
        description=".lwpack content kinds this plugin validates (needs 'pack_validators'); "
        "named when a pack needs one of them and the plugin is not enabled.",
    )
    requires_api: str | None = Field(
        default=None,
        max_length=MAX_REQUIREMENT_CHARS,
        description="Plugin API versions this plugin works with (lwcore.api.API_VERSION), "
        "comma-separated clauses such as '>=2.0,<3'; a kernel whose API does not match refuses "
        "the plugin before importing its code.",
    )
    homepage: str | None = None

    @field_validator("provides")
    @classmethod
    def _known_provides(cls, value: list[str]) -> list[str]:
        known = set(FAMILIES) | DATA_KINDS
        unknown = [v for v in value if v not in known]
        if unknown:
            raise ValueError(f"unknown entries {unknown}; known: {sorted(known)}")
        if len(set(value)) != len(value):
            raise ValueError("duplicate entries")
        return value

    @field_validator("needs")
    @classmethod
    def _known_needs(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not NEED_PATTERN.match(v)]
        if bad:
            raise ValueError(f"unknown capabilities {bad}")
        return value

    @model_validator(mode="before")
    @classmethod
    def _old_spelling(cls, data: Any) -> Any:
        """``commands`` (before lwcore 2.0) is read as ``cli_commands``; both at once is an error."""
        if isinstance(data, dict) and "commands" in data:
            if "cli_commands" in data:
                raise ValueError("give cli_commands only ('commands' is its old spelling)")
            data = {("cli_commands" if k == "commands" else k): v for k, v in data.items()}
        return data

    @field_validator("cli_commands", "pack_kinds")
    @classmethod
    def _names(cls, value: list[str], info: ValidationInfo) -> list[str]:
        pattern, what = {"cli_commands": (r"^[a-z][a-z0-9-]*$", "command names"),
                         "pack_kinds": (r"^[a-z][a-z0-9_]{0,31}$", "pack content kinds")}[info.field_name or ""]
        bad = [v for v in value if not re.match(pattern, v)]
        if bad:
            raise ValueError(f"invalid {what} {bad}")
        return value

    @field_validator("requires_api")
    @classmethod
    def _requirement(cls, value: str | None) -> str | None:
        if value is not None:
            parse_requirement(value)  # its ValueError names the bad clause
        return value

    @model_validator(mode="after")
    def _consistent(self) -> PluginManifest:
        if self.tier != "code":
            code_only = [p for p in self.provides if p not in DATA_KINDS]
            if code_only:
                raise ValueError(
                    f"a {self.tier}-tier plugin runs no code, so it cannot provide {code_only}"
                )
        if self.cli_commands and "cli" not in self.provides:
            raise ValueError("cli_commands are declared but 'cli' is not in provides")
        if self.pack_kinds and "pack_validators" not in self.provides:
            raise ValueError("pack_kinds are declared but 'pack_validators' is not in provides")
        return self
