"""A finding of the mechanical checks: what, how bad, where in the draft, and the evidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ERROR, WARN, INFO = "error", "warn", "info"
"""An error sends the draft back to rendering; a warning and an info go to the author and lenses."""


@dataclass
class Finding:
    kind: str
    severity: str
    message: str
    line: int  # 1-based, in the draft file
    column: int = 1
    excerpt: str = ""  # the sentence that is the evidence

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "severity": self.severity, "message": self.message,
                "line": self.line, "column": self.column, "excerpt": self.excerpt}
