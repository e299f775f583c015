"""R59's bugs in F2's and K8's readings, narrowed (ff2, stop 59): the reviewer's own counter-example sentences.

F2-1: a day named by a loss (:data:`lw_storyrepo.continuity.LOSS_DAY`) is read on the narration only, leading its clause, not
as a modifier of a thing; F2-2: a remembered day or stretch holds a rank only leading the sentence as a time alone or in the
rank's own clause (:data:`lw_storyrepo.ranks.GONE_TIME`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

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
