"""写评分离 (spec §1.5; §8 step 6: 镜头评审 模型×3，各自新鲜上下文), enforced where the plugin can
see the context a tool call comes from -- not only ordered.

A *context* is the conversation a model works in. The plugin sees it in a tool handler's
``ctx`` (:func:`context_of`):

- a host's own context id, ``story_context`` (a key of a mapping ``ctx`` or an attribute): a
  host that gives a step a fresh conversation (a new chat, a sub-agent) passes a new id;
- inside a kernel turn, the room (``ctx.room``): a room is one conversation -- its history,
  folded or not, goes into every later turn's prompt, and a turn's tool loop sees its own
  calls -- so every turn of one room is one context;
- nothing else: a host calling the tools without either, and the ``lw story`` commands, are a
  context the plugin cannot see (``None``). An author who pastes a review from
  ``lw story prompt lens --lens X`` run in a new conversation vouches for it; the plugin
  records that the review came from the author (:data:`AUTHOR`).

What is recorded, in the transaction state (``工作区/事务.yaml``, flat ``标签=上下文`` lists):
``渲染上下文``, every context a draft of this chapter was submitted from (rejected drafts
included: that conversation has seen the chapter being written); ``评审上下文``, the context of
each lens review of the chosen draft (dropped with the reviews). :func:`check_review` refuses a
lens review from a context that rendered a draft of the chapter, or that already gave another
lens's review, and :func:`check_render` a draft from a context that reviewed this chapter (the
same clash the other way round), each with a located :class:`LwError` naming what to do. Contexts are stored as
digests (``room:<12 hex>``, ``host:<12 hex>``): no server path or host id reaches the book.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lwcore.api import LwError

from lw_storyrepo import layout as L
from lw_storyrepo.repo import StoryRepo, as_list

RENDERED = "渲染上下文"
REVIEWED = "评审上下文"
AUTHOR = "作者"
"""A review entered by the author (``lw story review``): a context the plugin cannot see."""


@dataclass(frozen=True)
class Context:
    """One conversation (``room:…``/``host:…``) and, in a kernel room, the turn."""

    conversation: str
    turn: int | None = None

    def dump(self) -> str:
        return self.conversation if self.turn is None else f"{self.conversation}#{self.turn}"

    @classmethod
    def load(cls, text: str) -> Context | None:
        if text == AUTHOR or ":" not in text:
            return None
        conversation, _, turn = text.partition("#")
        # a hand-edited state may hold any digits (²) or thousands of them: only a plain turn number counts
        number = int(turn) if turn.isascii() and turn.isdigit() and len(turn) <= 18 else None
        return cls(conversation, number)

    def describe(self) -> str:
        kind, _, digest = self.conversation.partition(":")
        if kind == "room":
            return f"房间对话 {digest}" + (f" 第 {self.turn} 轮" if self.turn is not None else "")
        return f"宿主上下文 {digest}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _get(ctx: Any, key: str) -> Any:
    return ctx.get(key) if isinstance(ctx, dict) else getattr(ctx, key, None)


def context_of(ctx: Any) -> Context | None:
    """The context a tool call comes from (see the module docstring); None when unseen."""
    if ctx is None:
        return None
    own = _get(ctx, "story_context")
    if own:
        return Context("host:" + _digest(str(own)))
    room = _get(ctx, "room")
    path = getattr(room, "path", None) if room is not None else None
    if path is None:
        return None
    turn = getattr(room, "turn_number", None)
    return Context("room:" + _digest(str(Path(path).resolve())),
                   turn + 1 if isinstance(turn, int) and not isinstance(turn, bool) else None)


def _pairs(state: dict[str, Any], key: str) -> list[tuple[str, str]]:
    out = []
    for item in as_list(state.get(key)):
        label, sep, value = str(item).partition("=")
        if sep:
            out.append((label.strip(), value.strip()))
    return out


def _put(state: dict[str, Any], key: str, pairs: list[tuple[str, str]]) -> None:
    state[key] = [f"{label}={value}" for label, value in pairs] or None


def _clash(state: dict[str, Any], key: str, context: Context, skip: str | None = None) -> tuple[str, str, Context] | None:
    """The first ``(label, value, context)`` recorded under ``key`` (but ``skip``) from the same
    conversation as ``context``; None when there is none."""
    for label, value in _pairs(state, key):
        seen = Context.load(value)
        if label != skip and seen is not None and seen.conversation == context.conversation:
            return label, value, seen
    return None


def check_render(repo: StoryRepo, state: dict[str, Any], label: str, context: Context | None) -> None:
    """Refuse a draft written in a conversation that already reviewed this chapter: that
    conversation would then be both a lens and a writer (reviewing first, drafting second)."""
    clash = _clash(state, REVIEWED, context) if context is not None else None
    if clash is not None:
        lens, value, seen = clash
        raise LwError(
            f"写评分离：草稿 {label} 来自给出{lens}镜头评审的同一对话（{seen.describe()}），评审的上下文不能再写草稿",
            file=L.事务, line=_where(repo, f"{lens}={value}"), code="separation",
            expected="在另一个对话里写草稿（或宿主的新上下文），再提交 story_submit_draft 或 lw story draft")


def record_render(state: dict[str, Any], label: str, context: Context | None) -> None:
    """Remember that draft ``label`` was written in ``context`` (``state`` updated, not saved)."""
    if context is None:
        return
    pairs = _pairs(state, RENDERED)
    if (label, context.dump()) not in pairs:
        _put(state, RENDERED, [*pairs, (label, context.dump())])


def forget_reviews(state: dict[str, Any]) -> None:
    """The reviews were dropped: so are their contexts."""
    state.pop(REVIEWED, None)


def _where(repo: StoryRepo, needle: str) -> int | None:
    for n, line in enumerate(repo.text_or(L.事务).splitlines(), start=1):
        if needle in line:
            return n
    return None


def check_review(repo: StoryRepo, state: dict[str, Any], lens: str, context: Context | None) -> None:
    """Refuse a lens review that breaks 写评分离; else record its context (``state`` updated,
    not saved). See the module docstring for the rules."""
    if context is not None:
        fresh = (f"在新的对话里评审：把 lw story prompt lens --lens {lens} 的输出交给新对话（或宿主的新上下文），"
                 f"再提交 story_submit_review 或 lw story review {lens} FILE")
        clash = _clash(state, RENDERED, context)
        if clash is not None:
            label, value, seen = clash
            raise LwError(f"写评分离：{lens}镜头的评审来自写草稿 {label} 的同一对话（{seen.describe()}），这个上下文里有草稿的渲染过程",
                          file=L.事务, line=_where(repo, f"{label}={value}"), code="separation", expected=fresh)
        clash = _clash(state, REVIEWED, context, skip=lens)
        if clash is not None:
            other, value, seen = clash
            raise LwError(f"各自新鲜上下文：{lens}镜头的评审和{other}镜头的评审来自同一对话（{seen.describe()}）",
                          file=L.事务, line=_where(repo, f"{other}={value}"), code="separation", expected=fresh)
    pairs = [(other, value) for other, value in _pairs(state, REVIEWED) if other != lens]
    _put(state, REVIEWED, [*pairs, (lens, context.dump() if context is not None else AUTHOR)])
