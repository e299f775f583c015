"""写评分离 enforced (spec §1.5, §8 step 6: three lens reviews, each in a fresh context): the
plugin's tools called by a model inside real kernel turns (recorded replies applied by
``Kernel.turn``), by a host with its own context ids, and ``lw story`` by hand."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lw_storyrepo import layout as L
from lw_storyrepo import tools
from lw_storyrepo.cli import story
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.samples import CONTRACT, DRAFT, NEW_PROMISE
from lw_storyrepo.workspace import load_state

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "fog-harbor"
STORY_FEATURE = "features:\n  - id: story-author\n    tools: [story_submit_draft, story_submit_review, story_next]\n"


def lw(book: StoryRepo, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(story, ["--locale", "zh", *args, "-C", str(book.root)], catch_exceptions=False)
    assert (result.exit_code == 0) == ok, (args, result.output)
    return result.output


def to_packed(book: StoryRepo) -> None:
    lw(book)  # brief
    lw(book, "card", "edit", *[x for c in CONTRACT for x in ("--合同", c)])
    lw(book, "decide")
    lw(book)  # pack
    book.p(L.新承诺).mkdir(parents=True, exist_ok=True)
    (book.p(L.新承诺) / "P-003-神秘老者来历.md").write_text(NEW_PROMISE, encoding="utf-8")


def make_room(tmp_path: Path, name: str) -> Path:
    """A copy of the example room offering the story tools (a feature asks for them: gated)."""
    room = tmp_path / "rooms" / name
    shutil.copytree(EXAMPLE, room, ignore=shutil.ignore_patterns("replies"))
    text = (room / "room.yaml").read_text(encoding="utf-8")
    assert "features: []\n" in text
    (room / "room.yaml").write_text(text.replace("features: []\n", STORY_FEATURE), encoding="utf-8")
    return room


def reply(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A recorded model reply (Anthropic Messages shape) calling the tools, then a line of text."""
    content: list[dict[str, Any]] = [{"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": args}
                                     for n, (name, args) in enumerate(calls, start=1)]
    content.append({"type": "text", "text": "好。"})
    return {"id": "msg_story", "type": "message", "role": "assistant", "model": "recorded", "stop_reason": "tool_use",
            "content": content}


class Turns:
    """Kernel turns in rooms, with the book found from the working directory (the host's)."""

    def __init__(self, tmp_path: Path) -> None:
        from lwcore.kernel import Kernel

        self.kernel = Kernel(data_dir=tmp_path / "data", env={})
        self.tmp_path = tmp_path
        self.rooms: dict[str, Path] = {}

    def __call__(self, room: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
        if room not in self.rooms:
            self.rooms[room] = make_room(self.tmp_path, room)
        result = self.kernel.turn(self.rooms[room], "继续写书。", provider="anthropic_messages", reply=reply(*calls))
        assert result.applied is not None
        return list(result.applied.results)


def draft_call(label: str = "A") -> tuple[str, dict[str, Any]]:
    return "story_submit_draft", {"label": label, "text": DRAFT}


def review_call(lens: str, text: str | None = None) -> tuple[str, dict[str, Any]]:
    return "story_submit_review", {"lens": lens, "text": text or f"{lens}：节奏紧，结尾有钩。"}


@pytest.fixture
def turns(tmp_path: Path, book: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> Turns:
    monkeypatch.chdir(book.root)
    to_packed(book)
    return Turns(tmp_path)


def test_a_review_from_the_rendering_room_is_refused_in_a_later_turn(book: StoryRepo, turns: Turns) -> None:
    [done] = turns("writer", draft_call())
    assert not done.is_error, done.content
    assert "已机检（过：A" in lw(book)
    state = load_state(book)
    assert state is not None and [str(x).split("=")[0] for x in state["渲染上下文"]] == ["A"]
    assert str(state["渲染上下文"][0]).split("=")[1].startswith("room:")
    assert str(EXAMPLE.parent) not in book.p(L.事务).read_text(encoding="utf-8")  # a digest, never a path
    [refused] = turns("writer", review_call("读者"))
    assert refused.is_error
    message = refused.content["error"]
    assert "写评分离" in message and "写草稿 A 的同一对话" in message and "房间对话" in message
    assert message.startswith(f"{L.事务}:") and "lw story prompt lens --lens 读者" in message
    assert not book.p(L.lens_file("读者")).exists()


def test_a_draft_and_its_review_in_one_turn_are_one_context(book: StoryRepo, turns: Turns) -> None:
    results = turns("writer", draft_call(), ("story_next", {}), review_call("读者"))
    assert [r.is_error for r in results] == [False, False, True], [r.content for r in results]
    assert "写评分离" in results[2].content["error"]


def test_three_fresh_rooms_review_and_the_chapter_is_accepted(book: StoryRepo, turns: Turns) -> None:
    turns("writer", draft_call())
    lw(book)  # checks
    [ok] = turns("reader", review_call("读者"))
    assert not ok.is_error, ok.content
    [twice] = turns("reader", review_call("编辑"))  # two lenses from one context: 各自新鲜上下文
    assert twice.is_error and "编辑镜头的评审和读者镜头的评审来自同一对话" in twice.content["error"]
    [ok] = turns("editor", review_call("编辑"))
    assert not ok.is_error, ok.content
    [again] = turns("reader", review_call("读者", "读者：改了主意，还行。"))  # the same lens again: its own context
    assert not again.is_error, again.content
    same = book.root.parent / "事实.md"
    same.write_text("事实：机检的发现都是误报。\n", encoding="utf-8")
    lw(book, "review", "事实", str(same))  # the author vouches for a context the plugin cannot see
    state = load_state(book)
    assert state is not None and state["阶段"] == "reviewed"
    kinds = {str(x).split("=")[0]: str(x).split("=")[1].split(":")[0] for x in state["评审上下文"]}
    assert kinds == {"读者": "room", "编辑": "room", "事实": "作者"}
    lw(book, "summary", "林晚抵达北境雪原，得到灭门血书，遇见神秘老者。")
    lw(book, "accept")
    assert book.git.out("log", "--format=%s", "-1").strip() == "ch(1): 北境的雪"


def test_a_rejected_drafts_room_stays_a_rendering_context(book: StoryRepo, turns: Turns) -> None:
    turns("writer", draft_call())
    lw(book)
    lw(book, "reject", "开头太慢")
    path = book.root.parent / "B.md"
    path.write_text(DRAFT.replace("风雪扑面。", "风雪扑面，她没有停。"), encoding="utf-8")
    lw(book, "draft", "B", str(path))  # by hand: a context the plugin cannot see
    lw(book)
    [refused] = turns("writer", review_call("读者"))  # that room has seen the chapter being written
    assert refused.is_error and "写草稿 A 的同一对话" in refused.content["error"]
    [ok] = turns("reader", review_call("读者"))
    assert not ok.is_error, ok.content


def test_picking_another_draft_drops_the_review_contexts(book: StoryRepo, turns: Turns) -> None:
    turns("writer", draft_call("A"), draft_call("B"))
    lw(book)
    turns("reader", review_call("读者"))
    lw(book, "pick", "B")
    state = load_state(book)
    assert state is not None and "评审上下文" not in state
    [ok] = turns("reader", review_call("编辑"))  # the old review is gone: this room is fresh for B's lenses
    assert not ok.is_error, ok.content


def test_host_context_ids(book: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    to_packed(book)
    root = str(book.root)
    tools.submit_draft(tools.SubmitDraftArgs(label="A", text=DRAFT), {"story_root": root, "story_context": "chat-1"})
    lw(book)
    with pytest.raises(Exception, match="写评分离"):
        tools.submit_review(tools.SubmitReviewArgs(lens="读者", text="读者：好。"),
                            {"story_root": root, "story_context": "chat-1"})
    tools.submit_review(tools.SubmitReviewArgs(lens="读者", text="读者：好。"), {"story_root": root, "story_context": "chat-2"})
    with pytest.raises(Exception, match="各自新鲜上下文"):
        tools.submit_review(tools.SubmitReviewArgs(lens="编辑", text="编辑：好。"),
                            {"story_root": root, "story_context": "chat-2"})
    # a host that says nothing of its contexts is not checked: the plugin cannot see them
    tools.submit_review(tools.SubmitReviewArgs(lens="编辑", text="编辑：好。"), {"story_root": root})
    assert "chat-2" not in book.p(L.事务).read_text(encoding="utf-8")


def test_a_reviewing_conversation_cannot_write_a_draft_afterwards(book: StoryRepo) -> None:
    """Reviewing first and drafting second is the same clash the other way round (an attacker's
    path: 读者 from chat-2, then draft B from chat-2, then accept)."""
    to_packed(book)
    root = str(book.root)
    tools.submit_draft(tools.SubmitDraftArgs(label="A", text=DRAFT), {"story_root": root, "story_context": "chat-1"})
    lw(book)
    tools.submit_review(tools.SubmitReviewArgs(lens="读者", text="读者：好。"), {"story_root": root, "story_context": "chat-2"})
    before = book.p(L.事务).read_text(encoding="utf-8")
    with pytest.raises(Exception, match="评审的上下文不能再写草稿"):
        tools.submit_draft(tools.SubmitDraftArgs(label="B", text=DRAFT), {"story_root": root, "story_context": "chat-2"})
    assert not book.p(L.draft_file("B")).exists() and book.p(L.事务).read_text(encoding="utf-8") == before
    tools.submit_draft(tools.SubmitDraftArgs(label="B", text=DRAFT), {"story_root": root, "story_context": "chat-5"})


@pytest.mark.parametrize("turn", ["²", "٣", "9" * 5000, "-1", ""])
def test_a_hand_edited_turn_in_the_state_is_no_traceback(book: StoryRepo, turn: str) -> None:
    """事务.yaml is the author's file: a turn that is not a plain number is no turn at all."""
    to_packed(book)
    root = str(book.root)
    tools.submit_draft(tools.SubmitDraftArgs(label="A", text=DRAFT), {"story_root": root, "story_context": "chat-1"})
    lw(book)
    path = book.p(L.事务)
    text = path.read_text(encoding="utf-8")
    digest = next(line for line in text.splitlines() if "A=host:" in line).split("A=")[1].strip()
    path.write_text(text.replace(f"A={digest}", f"A={digest}#{turn}"), encoding="utf-8")
    with pytest.raises(Exception, match="写评分离"):  # still the rendering conversation, refused with its reason
        tools.submit_review(tools.SubmitReviewArgs(lens="读者", text="读者：好。"),
                            {"story_root": root, "story_context": "chat-1"})
    tools.submit_review(tools.SubmitReviewArgs(lens="读者", text="读者：好。"), {"story_root": root, "story_context": "chat-2"})
