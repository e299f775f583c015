"""Hook implementations of the storyrepo plugin. Kept light: no pydantic, no YAML, no git here.

Tools (from the one table in :mod:`lw_storyrepo.toolspecs`) and schemas are registered as lazy
references (``"lw_storyrepo.tools:Model"``); the CLI group lives in ``lw_storyrepo.cli``. The
imports inside the hooks are the plugin's boundary: they load the book code only when used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lwcore.api import CommandRef, PromptSegment, SchemaRef, ToolSpec, TurnContext, hookimpl

from lw_storyrepo.toolspecs import TOOLS

_SCHEMAS = (
    ("story-book", "Book", "Story Repo v7 book.yaml"),
    ("story-chapter", "Chapter", "Story Repo v7 chapter front matter"),
    ("story-character", "Character", "Story Repo v7 character card front matter"),
    ("story-secret", "Secret", "Story Repo v7 info gap front matter"),
    ("story-promise", "Promise", "Story Repo v7 promise front matter"),
    ("story-style", "StyleConstitution", "Story Repo v7 style constitution front matter"),
    ("story-draft", "Draft", "Story Repo v7 workspace draft front matter"),
)


@hookimpl
def lw_tools(register: Any) -> None:
    for row in TOOLS:
        register(ToolSpec(
            name=row.name,
            description={"en": row.en, "zh": row.zh},
            args_model=f"lw_storyrepo.tools:{row.model}",
            handler=f"lw_storyrepo.tools:{row.handler}",
            # Book-editing tools: a game room never sees them unless a feature asks (B.2).
            gated=True,
        ))


@hookimpl
def lw_schemas(register: Any) -> None:
    for name, model, description in _SCHEMAS:
        register(SchemaRef(name=name, model=f"lw_storyrepo.models:{model}", description=description))


@hookimpl
def lw_cli(register: Any) -> None:
    register(CommandRef("story", "lw_storyrepo.cli:story",
                        help="Story Repo v7: a web novel as a git repository (lw story = the next step)"))


@hookimpl
def lw_prompt_segments(turn: TurnContext) -> list[PromptSegment] | None:
    """The prompt of the current model step when the turn runs inside a book.

    ``turn.extra``: ``story_root`` (else ``turn.cwd``), ``story_step`` (proposal, render,
    lens, summary, volume; default: inferred from the workspace stage), ``story_lens``. An
    interrupted settle is recovered first, as every command does, and the prompt says so.
    """
    root = turn.extra.get("story_root") or turn.cwd
    if root is None or not (Path(root) / "book.yaml").is_file():
        return None
    from lw_storyrepo import prompts
    from lw_storyrepo.atomic import RECOVERED, recover
    from lw_storyrepo.repo import StoryRepo

    repo = StoryRepo(Path(root))
    recovered = recover(repo.root)  # a prompt never quotes a half-applied settle (a kill mid-way)
    step = turn.extra.get("story_step") or prompts.step_for(repo)
    if not step:
        return None
    text = prompts.build(repo, str(step), turn.extra.get("story_lens"))
    if recovered:  # said to the model, as a command says it to the author
        text = f"（已自动处理：{RECOVERED[recovered]}）\n\n{text}"
    return [PromptSegment(name=f"storyrepo.{step}", text=text, slot="context", order=50)]
