"""R59's bugs in F2's and K8's readings, narrowed (ff2, stop 59): the reviewer's own counter-example sentences.

F2-1: a day named by a loss (:data:`lw_storyrepo.continuity.LOSS_DAY`) is read on the narration only, leading its clause, not
as a modifier of a thing; F2-2: a remembered day or stretch holds a rank only leading the sentence as a time alone or in the
rank's own clause (:data:`lw_storyrepo.ranks.GONE_TIME`). K8-1: a letter's writer is not taken from a question asked after the
reading, nor a brother's from a letter an elder writes to a child; K8-2: the other of a scene of two does not say a quote
that follows narration telling of a voice from outside or a comer."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from lw_storyrepo.checks import CheckContext, leak_and_waste  # noqa: E402
from test_continuity_false_alarms_two import about, findings  # noqa: E402


# --- F2-1: a loss day in a quote, in the future, or describing a thing, silences nothing ---------------------------

def test_a_loss_day_inside_a_quote_does_not_make_the_absent_speakers_line_a_memory() -> None:
    assert about(findings("罗二蹲在跳板上，一路都在骂娘：“等你走那天，我来送！”"), "罗二喜")
    assert about(findings("罗二蹲在跳板上，一路都在骂娘：“这船谁掌的舵？出事那天我就说过！”"), "罗二喜")


def test_a_loss_day_describing_a_thing_opens_no_remembered_scene() -> None:
    assert about(findings("水生蹲在廖师傅下葬那天种的柳树底下，削着篙头。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")
    assert about(findings("水生想起廖师傅下葬那天的雨，手慢了下来。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")


def test_a_loss_day_leading_the_narration_still_opens_a_remembered_scene() -> None:
    assert not about(findings("廖师傅下葬那天，也是这样的雾。\n\n“水生，莫怕水。”廖师傅说。"), "廖青山")


def test_a_leaving_to_come_is_no_day_gone() -> None:
    assert about(findings("石老大说：“你走那天，我去码头送你。”廖师傅推开舱门走了出来，蹲在船头抽烟。"), "廖青山")


# --- F2-2: 那天的事 / 那阵子的账 in a rank's sentence say nothing of when the rank was held ---------------------------

def test_a_remembered_day_naming_a_thing_does_not_hold_the_rank_then() -> None:
    assert about(findings("石老大把缆绳一甩：“那天的事莫提了，老龚不过是个船工。”"), "龚满仓")
    assert about(findings("石老大把缆绳一甩：“这船老龚掌不了，那阵子的账我还没跟他算，老龚不过是个船工。”"), "龚满仓")
    assert about(findings("那天夜里的雨还在下，老龚不过是个船工，掌不得舵。"), "龚满仓")


def test_a_remembered_day_leading_the_rank_still_holds_it_then() -> None:
    assert not about(findings("那天早上，老龚不过是个船工，掌不得舵。"), "龚满仓")
    assert not about(findings("老龚那阵子还是个船工，掌不得舵。"), "龚满仓")


# --- K8: a letter's writer and the other of two (checks.voices, leak_and_waste) ------------------------------------

PEOPLE = {"山林": "周山林", "周山林": "周山林", "哥": "周山河", "山河": "周山河", "周山河": "周山河",
          "你哥": "周山河", "老杨": "杨守田", "杨守田": "杨守田", "阿娘": "何秀英", "何秀英": "何秀英",
          "爹": "周老满", "周老满": "周老满", "小何": "何小满", "何小满": "何小满"}


def leakers(body: str, knowers: set[str]) -> list[str]:
    """Who 泄密 names in ``body`` (a scene of 周山林 and 何小满 told by 周山林) for a secret 黑石沟 ``knowers`` know."""
    people = set(PEOPLE.values())
    ctx = CheckContext(dict(PEOPLE), [("S-001", knowers, False, ["黑石沟"])], [], [], 0, people, set(), people=people,
                       dead=frozenset()).for_draft({"在场": ["周山林", "何小满"], "视角": "周山林"})
    return [f.subject.who for f in leak_and_waste(ctx, body.split("\n"), 1) if f.kind == "泄密" and f.subject]


def test_a_listeners_question_about_someone_after_a_childs_letter_does_not_name_its_writer() -> None:
    body = ("晌午盐场的信客喊：“小何，家信！”\n\n小何拆开信，念给山林听。信是村里先生代写的。\n\n"
            "“满儿：家里都好，你莫挂念。听人讲，那个测量员往黑石沟去了，你在外头莫多嘴。”\n\n"
            "山林听完，问：“你山河哥今年回不回来过年？”\n\n小何摇摇头，把信折好。")
    assert leakers(body, {"何秀英", "何小满", "周山林"}) == []


def test_a_voice_from_outside_is_not_the_other_of_two() -> None:
    knows = {"杨守田"}
    assert leakers("夜里山林和小何守着炉子，谁也没睡。\n\n窗外忽然有人拍窗户。\n\n“山林，快开门！测量员在黑石沟叫人找着了！”"
                   "\n\n山林跳下炕去开门。", knows) == []
    assert leakers("夜里山林和小何守着炉子，谁也没睡。\n\n门帘一掀，老杨进来了，一身的雪。\n\n“山林，测量员在黑石沟叫人找着了！”"
                   "\n\n山林跳下炕。", knows) == []


def test_the_other_of_two_still_opens_an_exchange_after_the_scenes_own_narration() -> None:
    assert leakers("夜深了，炉子上的水开了。\n\n“山林，测量员在黑石沟叫人找着了！”\n\n山林跳下炕。",
                   {"杨守田"}) == ["何小满"]
