"""make setup's inputs agree: tools/requirements.py lists every third-party requirement and no
distribution of the checkout, and constraints.txt pins each of them (and nothing unknown)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import requirements  # noqa: E402  (tools/requirements.py)

sys.path.remove(str(ROOT / "tools"))


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def name_of(requirement: str) -> str:
    return norm(re.match(r"[A-Za-z0-9._-]+", requirement).group(0))


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not an exact pin"
            out[norm(name)] = version
    return out


def test_own_distributions_are_never_requirements() -> None:
    listed = {name_of(r) for r in requirements.third_party(extras=("test", "serve"))}
    own = {norm(p.parent.name) for p in requirements.projects()}  # folder names, for the message
    assert "loreweaver" not in listed
    assert not any(n.startswith("loreweaver-") for n in listed), listed
    assert {"jieba", "pluggy", "starlette", "pytest"} <= listed
    assert own  # the kernel and the plugins were read


def test_every_requirement_is_pinned() -> None:
    pinned = pins()
    missing = sorted(name_of(r) for r in requirements.third_party(extras=("test", "serve")) if name_of(r) not in pinned)
    assert not missing, f"constraints.txt pins none of {missing}: add them (docs/dependencies.md, Pins)"
    assert {"pip", "hatchling"} <= set(pinned)


def test_an_unknown_extra_is_refused() -> None:
    import pytest

    with pytest.raises(SystemExit, match="no extra 'nope'"):
        requirements.third_party(extras=("nope",))
