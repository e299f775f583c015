"""Volumes (卷): which volume a chapter is in, where a volume ends, what ``第7卷`` means.

``卷规模`` in book.yaml is a reference value (spec §3), not a boundary. A chapter's volume is
its front matter's ``卷``: a draft may set it; otherwise a chapter continues the previous
chapter's volume, and starts the next one once that volume has been closed by its volume
review (``定稿/记忆/卷摘要/第NN卷.md`` exists). A volume ends where the author says: a draft
(or the decision card) marks its chapter ``卷末``, or the author runs the volume review.

A deadline ``第7卷`` means the last chapter of volume 7: known exactly once volume 7 is over,
estimated from the reference size before that.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.repo import StoryRepo, as_int


def reference_position(chapter: int, volume_size: int) -> tuple[int, int]:
    """``(volume, position)`` if every volume had exactly ``volume_size`` chapters."""
    size = max(1, volume_size)
    return (chapter - 1) // size + 1, (chapter - 1) % size + 1


def volume_closed(repo: StoryRepo, volume: int) -> bool:
    return repo.p(f"{L.卷摘要}/{L.volume_name(volume)}.md").is_file()


def closed_volumes(repo: StoryRepo) -> set[int]:
    """Volumes whose review has been committed (they have a 卷摘要)."""
    folder = repo.p(L.卷摘要)
    out = set()
    if folder.is_dir():
        for path in folder.glob("第*卷.md"):
            m = re.fullmatch(r"第(\d+)卷", path.stem)
            if m:
                out.add(int(m.group(1)))
    return out


def ends_volume(meta: dict[str, Any]) -> bool:
    """Whether a chapter's front matter marks it as the last of its volume."""
    value = meta.get("卷末")
    return value is True or str(value).strip() in ("是", "true")


def next_volume(repo: StoryRepo) -> int:
    """The volume the next chapter belongs to when its draft does not say."""
    last = repo.last_chapter()
    if not last:
        return 1
    volume = as_int(repo.chapter_meta(last).get("卷")) or 1
    return volume + 1 if volume_closed(repo, volume) else volume


def draft_volume(repo: StoryRepo, value: Any) -> int:
    """The volume of the chapter being settled: the draft's ``卷`` if given, else the next."""
    expected = next_volume(repo)
    if value is None or value == "":
        return expected
    volume = as_int(value)
    if volume is None or volume < 1:
        raise LwError(f"草稿的「卷」是「{value}」，应是正整数")
    last = repo.last_chapter()
    before = as_int(repo.chapter_meta(last).get("卷")) if last else None
    if before is not None and volume < before:
        raise LwError(f"草稿的「卷」是 {volume}，但上一章已在第 {before} 卷（卷只往后走）")
    return volume



DEADLINE = re.compile(r"第?\s*([1-9]\d{0,8})\s*[卷章]?")
"""A promise's 兑付期限 as an author writes it: 第7卷, 第200章, or a chapter number (from 1)."""


def check_deadline(value: str | None) -> None:
    """Refuse a 兑付期限 that names no volume or chapter (``-1``, ``0``, ``下卷``): it would be
    read as some other chapter, or as none, without a word."""
    if value is not None and value.strip() and not DEADLINE.fullmatch(value.strip()):
        raise LwError(f"兑付期限「{value}」看不懂", expected="第7卷、第200章 或 200（从 1 起）")

def deadline_behind(repo: StoryRepo, value: Any) -> tuple[int, int] | None:
    """``(due, opens)`` when the 兑付期限 ``value`` is a chapter (or a closed volume's last chapter) before
    ``opens``, the next chapter a new promise can be paid in (the last settled one + 1); else None."""
    if value is None or not str(value).strip():
        return None
    opens = repo.last_chapter() + 1
    due = Volumes.of(repo).deadline(str(value).strip())
    return (due, opens) if due is not None and due < opens else None


def check_deadline_ahead(repo: StoryRepo, value: str | None) -> None:
    """Refuse a 兑付期限 already behind the book (:func:`deadline_behind`): the overdue count would
    report it at once, and nothing said so when it was given."""
    behind = deadline_behind(repo, value)
    if behind is not None and value is not None:
        due, opens = behind
        raise LwError(f"兑付期限「{value.strip()}」（第 {due} 章）已经过了：新承诺最早在第 {opens} 章兑付",
                      expected=f"第 {opens} 章或更晚的一章、一卷")


class Volumes:
    """Settled chapters' volumes, read lazily from the last chapter backwards."""

    def __init__(self, pairs: Iterable[tuple[int, int]], volume_size: int, closed: set[int] | None = None) -> None:
        self._pairs: Iterator[tuple[int, int]] = iter(pairs)  # (chapter, volume), newest first
        self.seen: list[tuple[int, int]] = []
        self._spans: dict[int, tuple[int, int]] = {}
        self.size = max(1, volume_size)
        self.closed = closed or set()
        self._done = False
        self._current: tuple[int, int] | None = None

    @classmethod
    def of(cls, repo: StoryRepo, volume_size: int | None = None) -> Volumes:
        size = volume_size or repo.book()["卷规模"]

        def pairs() -> Iterator[tuple[int, int]]:
            last_volume = None
            for n, _path in reversed(repo.chapter_files()):
                volume = as_int(repo.chapter_meta(n).get("卷")) or last_volume or 1
                last_volume = volume
                yield n, volume

        return cls(pairs(), size, closed_volumes(repo))

    def _read_until(self, volume: int) -> None:
        """Read older chapters until one in a volume before ``volume`` (or the first)."""
        while not self._done and not (self.seen and self.seen[-1][1] < volume):
            nxt = next(self._pairs, None)
            if nxt is None:
                self._done = True
                continue
            self.seen.append(nxt)
            n, v = nxt
            first, last = self._spans.get(v, (n, n))
            self._spans[v] = (min(first, n), max(last, n))

    def last(self) -> tuple[int, int] | None:
        """``(chapter, volume)`` of the newest settled chapter."""
        if not self.seen:
            self._read_until(10**9)
        return self.seen[0] if self.seen else None

    def span(self, volume: int) -> tuple[int, int] | None:
        """``(first, last)`` settled chapter of ``volume``, or None when it has none."""
        self._read_until(volume)
        return self._spans.get(volume)

    def current(self) -> tuple[int, int]:
        """``(volume, position)`` of the next chapter to write."""
        if self._current is None:
            last = self.last()
            if last is None:
                self._current = (1, 1)
            else:
                volume = last[1] + 1 if last[1] in self.closed else last[1]
                span = self.span(volume)
                self._current = (volume, (span[1] - span[0] + 2) if span else 1)
        return self._current

    def deadline(self, value: Any) -> int | None:
        """``第7卷`` -> the last chapter of volume 7; ``第200章``/``200`` -> 200; else None."""
        if value is None or value == "" or isinstance(value, bool):
            return None
        if isinstance(value, int):
            return as_int(value)
        text = str(value)
        m = re.search(r"(\d+)\s*卷", text)
        if not m:
            m = re.search(r"(\d+)", text)
            return as_int(m.group(1)) if m else None
        volume = as_int(m.group(1))
        if volume is None:
            return None
        current, position = self.current()
        last = self.last()
        if volume < current or volume in self.closed:
            span = self.span(volume)
            if span is not None:
                return span[1]
        next_chapter = (last[0] if last else 0) + 1
        start = next_chapter - position + 1  # first chapter of the current volume
        return max(start, 1) + (volume - current + 1) * self.size - 1
