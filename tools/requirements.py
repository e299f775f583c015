"""Print the third-party requirements of the kernel and every bundled plugin, one per line.

``make setup`` installs these first, with pip's build isolation, so a dependency that exists
only as an sdist (jieba) is built with the backend it declares, never with whatever happens to
be in the venv; then it installs the checkout's own distributions in editable mode without
build isolation (their backend, hatchling, is already in the venv). Requirements on the
checkout's own distributions are left out: they are installed from their folders, never looked
up on an index by name.

Usage: ``python tools/requirements.py [--extras test,serve]`` from the checkout's root.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise SystemExit(f"tools/requirements.py: cannot read the requirement {requirement!r}")
    return _normalize(match.group(1))


def projects(root: Path = ROOT) -> list[Path]:
    """The checkout's own ``pyproject.toml`` files: the kernel's, then each plugin's."""
    return [root / "pyproject.toml", *sorted(root.glob("plugins/*/pyproject.toml"))]


def third_party(root: Path = ROOT, extras: tuple[str, ...] = ()) -> list[str]:
    """Every requirement of the checkout's distributions (the kernel's ``extras`` included)
    that names a distribution not built from this checkout, in first-seen order, deduplicated."""
    tables = [tomllib.loads(p.read_text(encoding="utf-8"))["project"] for p in projects(root)]
    own = {_normalize(t["name"]) for t in tables}
    wanted: list[str] = []
    kernel = tables[0]
    for extra in extras:
        if extra not in kernel.get("optional-dependencies", {}):
            raise SystemExit(f"tools/requirements.py: the kernel has no extra {extra!r}")
        wanted.extend(kernel["optional-dependencies"][extra])
    for table in tables:
        wanted.extend(table.get("dependencies", []))
    seen: set[str] = set()
    out = []
    for requirement in wanted:
        if _name(requirement) in own or requirement in seen:
            continue
        seen.add(requirement)
        out.append(requirement)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="", help="the kernel's extras to include, comma-separated")
    args = parser.parse_args(argv)
    extras = tuple(e for e in args.extras.split(",") if e)
    sys.stdout.write("".join(line + "\n" for line in third_party(extras=extras)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
