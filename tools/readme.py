"""The README's command blocks, by the heading they stand under, and a runner for them.

Every shell block of the README is run as written by something: ``tests/kernel/test_readme.py``
runs the ones that need no network and checks that every block is claimed by a runner;
``.ci/run`` runs the ones that install from PyPI (``python tools/readme.py run HEADING``).

Usage: ``python tools/readme.py list`` | ``python tools/readme.py run HEADING``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
_HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


def blocks(lang: str = "sh", text: str | None = None) -> list[tuple[str, str]]:
    """``(heading, code)`` for every fenced block in ``lang``, in order; ``heading`` is the
    nearest heading above the block."""
    text = README.read_text(encoding="utf-8") if text is None else text
    headings = [(m.start(), m.group(1).strip()) for m in _HEADING.finditer(text)]
    out = []
    for match in _FENCE.finditer(text):
        if match.group(1) != lang:
            continue
        above = [h for pos, h in headings if pos < match.start()]
        out.append((above[-1] if above else "", match.group(2)))
    return out


def script(heading: str, text: str | None = None) -> str:
    """The shell blocks under ``heading`` joined into one script that stops at the first
    failing command."""
    found = [code for h, code in blocks("sh", text) if h == heading]
    if not found:
        raise SystemExit(f"README.md has no shell block under the heading {heading!r}")
    return "set -euo pipefail\n" + "\n".join(found)


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        for heading, code in blocks():
            print(f"{heading}: {len(code.splitlines())} lines")
        return 0
    if len(argv) == 2 and argv[0] == "run":
        body = script(argv[1])
        print(f"README: running the block(s) under {argv[1]!r}", flush=True)
        return subprocess.run(["bash", "-c", body], cwd=ROOT).returncode
    print(__doc__.strip().splitlines()[-1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
