"""The ``prep`` kind of ``.lwpack`` content: prep scripts, checked statically.

A prep script is JavaScript a keeper runs on request (``run_plan`` previews its whole plan
before anything applies), never by itself; so a build does not run it. It must be a ``.js``
file of UTF-8 text (bad bytes located) within the sandbox's source limit.
"""

from __future__ import annotations

from lwcore.contributions import ContentReport, PackItem
from lwcore.errors import LwError
from lwcore.sandbox.runtime import Limits


def validate(item: PackItem) -> ContentReport:
    label = item.files.display(item.path)
    if not item.path.endswith(".js"):
        raise LwError("a prep script is a .js file", file=label, expected="prep/<name>.js")
    limit = Limits().source_chars
    text = item.files.read_text(item.path, max_bytes=limit * 4)
    if len(text) > limit:
        raise LwError(f"the script is {len(text)} characters long; the sandbox runs at most {limit}", file=label,
                      code="limit")
    return ContentReport(id=item.path.rsplit("/", 1)[-1][:-3])
