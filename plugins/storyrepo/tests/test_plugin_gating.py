"""Story tools are gated: a game room's turn never offers them unless a feature asks."""

from __future__ import annotations

from lwcore.kernel import Kernel


def test_story_tools_are_gated() -> None:
    kernel = Kernel()
    story = [spec for name, spec in kernel.tools.items() if kernel.tools.origin(name) == "storyrepo"]
    assert story and all(spec.gated for spec in story)
