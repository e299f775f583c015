"""The character cards are read once per command (the checks' context, the kinship forms and
settle's contract check share :meth:`StoryRepo.cards`), and a card changed on disk is read again."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from lw_storyrepo import layout as L
from lw_storyrepo import sources
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import DRAFT, to_reviewed

from story_cli import lw


def card_reads(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    reads: collections.Counter[str] = collections.Counter()
    original = sources.read_bytes

    def counting(path: Path | str, *args: object, **kwargs: object) -> bytes:
        if f"/{L.角色}/" in Path(path).as_posix():
            reads[Path(path).name] += 1
        return original(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sources, "read_bytes", counting)
    return reads


def test_check_and_accept_read_each_card_once(book: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    to_reviewed(book)
    draft = book.root.parent / "A.md"
    draft.write_text(DRAFT, encoding="utf-8")
    cards = sorted(p.name for p in book.p(L.角色).glob("*.md"))
    reads = card_reads(monkeypatch)
    lw(book, "draft", "A", str(draft))
    reads.clear()
    lw(book, "check")  # checks every draft, then the acceptance card's new names
    assert sorted(reads) == cards and set(reads.values()) == {1}, reads
    for lens in ("读者", "编辑", "事实"):
        lw(book, "review", lens, str(draft))
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书。")
    reads.clear()
    lw(book, "accept")  # the check again, the plan, the settle that writes 林晚's card
    assert sorted(reads) == cards and set(reads.values()) == {1}, reads
    assert "北境雪原" in book.p(f"{L.角色}/林晚.md").read_text(encoding="utf-8")


def test_a_card_changed_on_disk_is_read_again(book: StoryRepo) -> None:
    before = book.characters()["林晚"]
    path = book.p(f"{L.角色}/林晚.md")
    path.write_text(path.read_text(encoding="utf-8").replace("姓名: 林晚", "姓名: 林晚\n境界: 金丹初期"), encoding="utf-8")
    assert book.characters()["林晚"].get("境界") == "金丹初期" != before.get("境界")
    book.characters()["林晚"]["境界"] = "改了调用方的副本"
    assert book.characters()["林晚"]["境界"] == "金丹初期"  # the caller's copy, never the cache
    path.unlink()
    assert "林晚" not in book.characters() and "林晚" not in book.aliases()


def test_a_card_rewritten_with_its_size_and_mtime_kept_is_read_again(book: StoryRepo) -> None:
    """The cache key holds the change time too: ``os.utime`` can put a modification time back,
    never the change time, so an edit of the same size is still seen by the same StoryRepo."""
    import os

    card = book.p(f"{L.角色}/林晚.md")
    before = book.characters()["林晚"]["位置"]
    text = card.read_text(encoding="utf-8")
    assert before in text
    other = "天剑门" if before != "天剑门" else "青云宗"
    assert len(other.encode()) == len(before.encode())
    st = card.stat()
    import time

    time.sleep(0.05)  # file times tick coarsely (a few ms): the edit must land in a later tick than the card's making
    with open(card, "r+b") as handle:  # in place: the same inode, the same size
        handle.write(text.replace(before, other, 1).encode("utf-8"))
    os.utime(card, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert card.stat().st_size == st.st_size and card.stat().st_mtime_ns == st.st_mtime_ns
    assert book.characters()["林晚"]["位置"] == other
