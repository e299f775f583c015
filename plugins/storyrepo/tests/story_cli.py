"""The Story Repo tests' one way of running ``lw story`` as an author does, in process (the same ``lw`` helper was
written in each new author's and guardrail's test file: stop 53's duplicates). A test module of this folder imports
it by name (``from story_cli import hand_in, lw``): ``conftest.py`` puts this folder on the path. Test code only.
And :func:`new_book`, the new authors' book set up as each of them did it, :func:`accept_chapter`, a passed
draft reviewed and accepted, and :func:`subjects`, its git log; :func:`card_text` a card's text and :func:`checked_chapter` the findings on one
draft of a book of such cards."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo.cli import story
from lw_storyrepo.repo import StoryRepo
from lwcore.api import LwError


def lw(book: Path | StoryRepo, *args: str, ok: bool = True, locale: str = "zh", answer: str | None = None) -> str:
    """Run ``lw story --locale <locale> <args> -C <book>`` (``book`` a folder or a :class:`StoryRepo`; ``init`` takes
    its folder as its own argument) with ``answer`` on stdin, and hold its exit to ``ok``. What it printed, then the
    message of a located error it raised (an error ``lw`` itself prints: the kernel reports it, in English). Any other
    exception is a bug and is raised, never counted as a refusal."""
    root = book.root if isinstance(book, StoryRepo) else book
    command = list(args) if args and args[0] == "init" else [*args, "-C", str(root)]
    result = CliRunner().invoke(story, ["--locale", locale, *command], input=answer)
    raised = result.exception
    if raised is not None and not isinstance(raised, (SystemExit, LwError)):
        raise raised
    assert (result.exit_code == 0) == ok, (args[:4], result.output[:2000])
    return result.output + (str(raised) if isinstance(raised, LwError) else "")


def hand_in(book: Path | StoryRepo, text: str, name: str = "A") -> None:
    """Hand ``text`` in as draft ``name`` of ``book`` (written to 草稿.md beside the book's folder)."""
    root = book.root if isinstance(book, StoryRepo) else book
    path = root.parent / "草稿.md"
    path.write_text(text, encoding="utf-8")
    lw(book, "draft", name, str(path))


def new_book(root: Path, world: str, settings: Iterable[tuple[str, ...]], *, extra: Iterable[tuple[str, ...]] = (),
             contract: Sequence[str] = (), promise: Sequence[str] = ()) -> Path:
    """A book at ``root`` (its folder's name its title, 200 characters a chapter) set up as an author does: ``world``
    as 世界观.md (committed by ``fix``), each of ``settings`` a ``character set``, each of ``extra`` a command of its
    own, then the brief; with ``contract``, chapter 1's card lines, decided and packed; with ``promise``, the
    arguments of a ``promise draft``. ``root``."""
    lw(root, "init", str(root), "--书名", root.name, "--每章目标字数", "200")
    (root / L.世界观).write_text(world, encoding="utf-8")
    lw(root, "fix")
    for args in settings:
        lw(root, "character", "set", *args)
    for args in extra:
        lw(root, *args)
    lw(root)  # brief
    if contract:
        lw(root, "card", "edit", *(x for line in contract for x in ("--合同", line)))
        lw(root, "decide")
        lw(root)  # pack
    if promise:
        lw(root, "promise", "draft", *promise)
    return root


def accept_chapter(root: Path, summary: str) -> None:
    """The three lens reviews, ``summary`` as the chapter's summary and ``accept`` of the draft that passed."""
    for lens in ("读者", "编辑", "事实"):
        (root.parent / "评.md").write_text("可以收。", encoding="utf-8")
        lw(root, "review", lens, str(root.parent / "评.md"))
    lw(root, "summary", summary)
    lw(root, "accept")


def subjects(root: Path) -> list[str]:
    """The subjects of the book's commits, newest first."""
    return subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True,
                          check=True).stdout.splitlines()


def card_text(name: str, aliases: Sequence[str], place: str, about: str, relations: str, state: str = "在世",
              holds: Sequence[str] = (), rank: str = "") -> str:
    """A character card's text: front matter (姓名, 别名, 状态, 位置, 境界 when ``rank``, 持有 when ``holds``, 最后变更章 0),
    then its 设定 and 关系 sections."""
    listed = "".join(f"  - {a}\n" for a in aliases)
    ranked = f"境界: {rank}\n" if rank else ""
    held = "持有:\n" + "".join(f"  - {h}\n" for h in holds) if holds else ""
    return (f"---\n姓名: {name}\n别名:\n{listed}状态: {state}\n位置: {place}\n{ranked}{held}最后变更章: 0\n---\n"
            f"## 设定\n{about}\n\n## 关系\n{relations}\n")


Card = tuple[str, Sequence[str], str, str, str]
""":func:`card_text`'s arguments but the state: name, aliases, 位置, 设定, 关系."""


def checked_chapter(root: Path, world: str, cards: Mapping[str, Card], event: str, front: str, body: str,
                    dead: str = "", held: Mapping[str, str] | None = None,
                    ranks: Mapping[str, str] | None = None) -> list[dict[str, object]]:
    """The findings of ``lw story check --json`` on draft A of chapter 1 of a new 年代 book at ``root``: ``world`` as its
    世界观, ``cards`` (``dead``'s card 已死, the others 在世; ``held`` maps a card to the one thing its 持有 lists,
    ``ranks`` to its 境界), a contract of the one line ``event``, and the draft ``---\n<front>\n---\n\n<body>``."""
    held = held or {}
    ranks = ranks or {}
    lw(root, "init", str(root), "--书名", root.name, "--类型", "年代", "--每章目标字数", "200")
    (root / L.世界观).write_text(world, encoding="utf-8")
    folder = root / L.角色
    folder.mkdir(parents=True, exist_ok=True)
    for name, card in cards.items():
        holds = [held[name]] if name in held else []
        (folder / f"{name}.md").write_text(card_text(*card, "已死" if name == dead else "在世", holds, ranks.get(name, "")),
                                           encoding="utf-8")
    lw(root, "fix")
    lw(root)  # brief
    lw(root, "card", "edit", "--合同", event)
    lw(root, "decide")
    lw(root)  # pack
    hand_in(root, f"---\n{front}\n---\n\n{body}\n")
    found: list[dict[str, object]] = json.loads(lw(root, "check", "--json"))["A"]
    return found


HeldCard = tuple[Sequence[str], str, str, str]
"""A card of :func:`held_messages`: aliases, 设定, 关系, and the one thing its 持有 lists."""


def held_messages(root: Path, world: str, place: str, cards: Mapping[str, HeldCard], title: str, day: str, event: str,
                  body: str) -> list[str]:
    """The 持有 messages of ``lw story check`` on ``body``: chapter 1 of a new 年代 book at ``root`` whose ``cards`` are
    all at ``place`` and all in the scene, told by the first card on ``day``, with ``event`` as the one contract line."""
    pov = next(iter(cards))
    front = (f"标题: {title}\n视角: {pov}\n书内时间: {day}\n一句话事件: {event}\n在场:\n"
             + "\n".join(f"  - {name}" for name in cards))
    found = checked_chapter(root, world, {name: (name, aliases, place, about, relations)
                                          for name, (aliases, about, relations, _) in cards.items()},
                            event, front, body, held={name: card[3] for name, card in cards.items()})
    return [str(f["message"]) for f in found if f["kind"] == "连贯" and "持有" in str(f["message"])]
