"""The contract check's fifteenth round (issue 30, stop 60: c3): an event line's refusal, putting off and missing doer,
and a promise step a person says.

- a thing put back (放回抽屉, 塞回袖子, 揣回怀里, 推了回来) refuses only an event that gives or shows a thing
  (checks.GIVES_OR_SHOWS: 递给, 拿给…看, 亮出); any other act (copying a log, keeping watch, counting, reading aloud)
  is done with things that are put away after it, and the put-back is no refusal of it;
- a condition waited for, then 再说 (等雨停了再说, 等他回来再商量: checks.CALLED_OFF), puts the line's event off when it is
  said where the line's people or words are; another matter put off elsewhere does not;
- a line whose doer the prose never names, and of whose act it writes no word (checks._event_untold), is the event
  missing: said as such, the doer still named in the finding;
- a promise step a person says (石…说…) is missing when the prose writes none of its nine telling pairs
  (checks.STEP_TOLD_WORDS_MIN); a step seen, found or remembered keeps checks.STEP_WORDS_MIN.

Settings are not the labelled sets': a hydrological station on a river, a lighthouse, a ferry, a forest lookout.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR, STEP_TOLD_WORDS_MIN, STEP_WORDS_MIN, WARN, CheckContext, _event_words, contract_findings
from lw_storyrepo.drafts import Draft
from lw_storyrepo.findings import Finding

PEOPLE = {"吕秋生": "吕秋生", "老吕": "吕秋生", "柯秀兰": "柯秀兰", "柯大姐": "柯秀兰", "温德才": "温德才",
          "温师傅": "温德才", "范小妹": "范小妹", "小妹": "范小妹", "包主任": "包主任"}


def ctx(book_text: str = "") -> CheckContext:
    c = CheckContext(dict(PEOPLE), [], [], [], 0, set(PEOPLE), set(), people=set(PEOPLE.values()), book_text=book_text)
    return c.for_draft({})


def findings(line: str, body: str, book_text: str = "") -> list[Finding]:
    return contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx(book_text))


def event_findings(line: str, body: str) -> list[str]:
    return [f.message for f in findings(line, body) if "合同里的事件" in f.message]


# --- 1. a thing put back refuses only a giving or a showing ----------------------------------------------------------


@pytest.mark.parametrize("line, body", [
    # a hydrological station: the log copied, then the book back in its drawer
    ("吕秋生替温德才抄水文记录",
     "吕秋生趴在桌上，一笔一笔把今天的水位抄进记录本，抄到天黑。抄完，他把记录本放回了抽屉里。"),
    # a ferry: one keeps watch while the other pries a plank; the crowbar goes back up a sleeve
    ("柯秀兰在渡口给吕秋生望风",
     "柯大姐蹲在渡口，装着洗衣裳，眼睛盯着坡上。老吕撬开船板看了一眼，把撬棍塞回袖子里。柯大姐望风望到他上了岸。"),
    # a lighthouse: a telegram read aloud to one who pushed the paper back (his eyes are bad)
    ("范小妹把电报念给温德才听",
     "小妹把电报递过去，温师傅推了回来：“眼花了，你念。”小妹就一个字一个字地念电报：母病速归。温师傅听完，半天没说话。"),
    # a forest lookout: the count done, the tally book tucked back into the coat
    ("温德才替包主任清点防火器材",
     "温师傅在库房里清点防火器材，一样一样对着单子数，数完在单子上签了字，把小本子揣回怀里。"),
])
def test_a_thing_put_back_is_no_refusal_of_an_act_that_gives_nothing(line: str, body: str) -> None:
    assert event_findings(line, body) == []


@pytest.mark.parametrize("line, body", [
    # a showing: the ticket brought out, then put back unshown
    ("吕秋生把船票拿给温德才看", "温师傅在跳板边上等着。吕秋生掏出船票，捏了半天，又把船票塞回了口袋里，一句话也没说。"),
    # a giving the line asks with 亮出 (a pass shown at the gate), put back unshown
    ("柯秀兰亮出通行证给包主任验", "柯大姐摸出通行证，看了看包主任的脸色，又把通行证揣回了怀里。"),
])
def test_a_thing_put_back_still_refuses_a_giving_or_a_showing(line: str, body: str) -> None:
    warned = event_findings(line, body)
    assert len(warned) == 1 and "拒绝、没有或没做成" in warned[0], warned


def test_a_refused_act_is_still_refused_without_a_put_back() -> None:
    line = "吕秋生替温德才抄水文记录"
    body = "吕秋生要替温师傅抄水文记录，温师傅摇了摇头：“记录我自己抄。”吕秋生只好回了宿舍。"
    warned = event_findings(line, body)
    assert len(warned) == 1 and "拒绝、没有或没做成" in warned[0], warned


# --- 2. a condition waited for, then 再说 ------------------------------------------------------------------------------


@pytest.mark.parametrize("off", ["等雨停了再说", "等天晴了再办", "等温师傅回来再商量"])
def test_waiting_for_a_condition_puts_the_event_off(off: str) -> None:
    line = "柯秀兰爬上灯塔给信号灯换灯泡"
    body = (f"柯大姐提着新灯泡走到灯塔底下，雨下得正紧，铁梯子滑得站不住脚。她仰头看了看：“{off}。”"
            "她把灯泡揣进兜里，回了值班室。")
    warned = event_findings(line, body)
    assert len(warned) == 1 and f"推迟或作罢了（{off}）" in warned[0], warned
    assert all(f.severity == WARN for f in findings(line, body))


@pytest.mark.parametrize("told", [
    "柯大姐说，上个月她就想换，温师傅叫她等雨停了再说。",  # a putting off told of the past
    "信上写着：‘灯塔的灯泡不亮，等温师傅回来再讲。’柯大姐看完把信折好。",  # one quoted from a letter, after a comma
])
def test_a_putting_off_told_or_quoted_is_no_putting_off_now(told: str) -> None:
    line = "柯秀兰爬上灯塔给信号灯换灯泡"
    body = f"柯大姐提着新灯泡走到灯塔底下。{told}她爬上灯塔，给信号灯换了灯泡。"
    assert event_findings(line, body) == []


def test_another_matter_waited_for_elsewhere_puts_nothing_off() -> None:
    line = "柯秀兰爬上灯塔给信号灯换灯泡"
    body = ("柯大姐爬上灯塔，给信号灯换了新灯泡，擦干净了玻璃罩。\n\n"
            "晚饭桌上，包主任说起年底评先进的事，范小妹问他名单定了没有。包主任摆摆手：“等开了春再说。”")
    assert event_findings(line, body) == []


# --- 3. the doer nowhere, the act nowhere: the event missing ----------------------------------------------------------


# the book's own text names the engine and its rings everywhere: with the doer nowhere, its words still tell the act
@pytest.mark.parametrize("book_text", ["", "柴油机的活塞环磨了，温师傅说等零件到了就换活塞环。柴油机一停，灯塔就黑。"])
def test_a_line_whose_doer_and_act_are_both_missing_is_the_event_missing(book_text: str) -> None:
    line = "温德才带范小妹给柴油机换活塞环"
    body = "小妹上午在灯塔底下晒被子，下午跟柯大姐去渡口买了两条鱼，晚上早早睡了。"
    found = findings(line, body, book_text)
    missing = [f for f in found if f.message.startswith(f"合同里的事件「{line}」正文里找不到：「温德才」正文里没有")]
    assert len(missing) == 1 and missing[0].severity == ERROR, found
    assert not [f for f in found if f.message.startswith(f"合同「{line}」提到「温德才」")]


def test_a_missing_doer_whose_act_is_told_is_still_the_person_missing() -> None:
    line = "温德才带范小妹给柴油机换活塞环"
    body = "小妹蹲在柴油机边上，拿扳手把旧活塞环一个个卸下来，换上新的，手上全是油。"
    found = findings(line, body)
    assert [f.message for f in found if f.severity == ERROR] == [f"合同「{line}」提到「温德才」，正文里没有"], found


# --- 4. a promise step that a person says: nine telling pairs ---------------------------------------------------------


def promise_findings(line: str, body: str) -> list[str]:
    draft = Draft("A", {"推进承诺": ["P-002"]}, body, 5)
    return [f.message for f in contract_findings({"合同": [line]}, draft, ctx()) if "这一步正文里找不到" in f.message]


SAID_STEP = "P-002 推进：温德才说老周临走把马灯挂梁上"  # ten telling pairs: 说老, 老周, 周临, 临走 … 梁上
MISSING = "温师傅蹲在柴油机边上修机器，修到天黑。小妹给他送了一碗面条，他吃完又接着修。"


def test_a_step_a_person_says_is_missing_when_the_prose_writes_none_of_its_words() -> None:
    warned = promise_findings(SAID_STEP, MISSING)
    assert len(warned) == 1 and "P-002 这一步正文里找不到" in warned[0], warned


def test_a_step_a_person_says_is_met_by_the_telling() -> None:
    assert promise_findings(SAID_STEP, "温师傅擦着手说：“老周走的那天，把马灯挂在梁上了。”") == []


def test_a_step_seen_not_said_keeps_the_higher_bar() -> None:
    # the same words seen, not said: a sight is told in any words, the higher bar holds
    step = "P-002 推进：温德才见老周临走把马灯挂梁上"
    assert STEP_TOLD_WORDS_MIN <= len(_event_words(ctx(), step.split("：", 1)[1])) < STEP_WORDS_MIN
    assert promise_findings(step, MISSING) == []
