"""Entry and card text as the model will read it: the EJS subset, then the macros."""

from __future__ import annotations

from lw_tavern.ejs.lite import Rendered, render
from lw_tavern.ejs.macros import MacroContext, substitute


def render_text(text: str, ctx: MacroContext) -> Rendered:
    """``text`` rendered read-only: templates against ``ctx.resolve``, then ``{{macros}}``.
    The warnings of both steps come back with it (also collected on ``ctx.warnings``)."""
    first = render(text, ctx.resolve or (lambda _path: None))
    before = len(ctx.warnings)
    out = substitute(first.text, ctx)
    return Rendered(out, first.warnings + ctx.warnings[before:])
