"""The contract check's eighth round (issue 30): events that never happen, refused handovers, safe messages.

- an event line of the contract (people and an action: a punishment, a dismissal, a vow) is read by its
  own words once the names are taken out (checks._event_words): the prose must tell any of them, in other
  words if it likes; when it tells none, a warning (never an error: precision first);
- a telling that is refused or negated (没给, 不肯, 拒绝, 摇了摇头, 没有开除) does not meet the line when it is the
  only telling: a warning;
- a finding quotes its contract line by its first characters (findings.clipped) and no control, format or
  bidi character reaches the terminal raw (Finding escapes them): checked through ``lw story check``.

Settings are not the labelled sets': a farm, a school, a shipyard, an office, a hospital.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of
from lw_storyrepo.continuity import World
from lw_storyrepo.cli import story
from lw_storyrepo.drafts import Draft
from lw_storyrepo.findings import QUOTE_MAX, Finding, clipped, visible
from lw_storyrepo.samples import to_reviewed

PEOPLE = {"场长": "孙场长", "孙场长": "孙场长", "李春生": "李春生", "王校长": "王校长", "赵小军": "赵小军",
          "老周": "周德海", "周德海": "周德海", "徐海": "徐海", "刘主任": "刘主任", "小陈": "陈晓",
          "陈晓": "陈晓", "周院长": "周院长", "林医生": "林医生", "晒场": "晒场"}


def ctx(book_text: str = "") -> CheckContext:
    c = CheckContext(dict(PEOPLE), [], [], [], 0, set(PEOPLE), set(),
                     people={v for k, v in PEOPLE.items() if k != "晒场"}, book_text=book_text)
    return c.for_draft({})


def findings(line: str, body: str, book_text: str = "") -> list[Finding]:
    return [f for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx(book_text))]


def event_warnings(line: str, body: str, book_text: str = "") -> list[str]:
    found = findings(line, body, book_text)
    assert not [f for f in found if f.severity == ERROR], found  # an event is never an error
    return [f.message for f in found if f.severity == WARN and "合同里的事件" in f.message]


# --- 1. an event line that is no handover ------------------------------------------------------------------------


@pytest.mark.parametrize("line, told, untold", [
    # a farm: the punishment told in other words (这个月, 挑大粪), or only a scolding happens
    ("场长当众罚李春生在粪坑边上挑一个月的大粪",
     "场长当着全场社员发了话：李春生这个月不用下地了，天天去挑大粪。李春生一声没吭。",
     "场长在地头把李春生骂了一通。老会计出来打了圆场，场长哼了一声，走了。李春生站了好久。"),
    # a school: the expulsion told by its word (开除学籍), or a demerit is all he gets
    ("王校长在全校大会上开除了赵小军",
     "王校长念完处分决定：赵小军，开除学籍。赵小军低着头走出了礼堂。",
     "王校长把赵小军叫到办公室，训了一顿，记了个过。赵小军低着头走了出去。"),
    # an office: a pledge signed (军令状 told, 立下 not), or nothing signed at all
    ("刘主任逼小陈当众立下军令状",
     "刘主任把笔往桌上一拍，小陈咬着牙，在会上签了那份军令状。",
     "刘主任把笔往桌上一拍，小陈咬着牙，一句话也没说，转身出了会议室。"),
])
def test_an_event_line_is_told_by_its_own_words_or_warned(line: str, told: str, untold: str) -> None:
    assert event_warnings(line, told) == []
    warned = event_warnings(line, untold)
    assert len(warned) == 1 and "正文里找不到" in warned[0] and line in warned[0]


def test_words_the_book_uses_everywhere_and_numbers_tell_nothing() -> None:
    line = "王校长在全校大会上开除了赵小军"  # 全校, 校大, 大会, 会上, 开除
    body = "王校长表扬了他们一个个，赵小军坐在最后一排。"
    assert event_warnings(line, body) != []
    # 全校大会 is the book's own word (a school book): three telling pairs left are too few to say the prose
    # lacks them (it may tell a short event in words that share none): the check says nothing
    assert event_warnings(line, body, book_text="每周一的全校大会上") == []
    # 一个 and 他们 are in any prose: they never tell the event
    assert event_warnings("王校长当众罚了赵小军一个学期的劳动", "王校长看了他们一个一个。赵小军没来。") != []


def test_lines_that_are_no_event_of_people_are_not_read_as_one() -> None:
    # an appearance, a promise move, a mood for the lenses, a move to a place, a line naming no person
    assert event_warnings("赵小军出场并且当众顶撞了全校老师", "王校长走进教室，赵小军站了起来。") == []
    assert event_warnings("结尾留一个强钩：赵小军当众撕了录取通知书", "赵小军笑了。") == []
    assert event_warnings("李春生半夜一个人偷偷回到晒场", "李春生蹲在晒场边上抽烟。") == []
    # what someone says or learns is told in any words: no event to look for
    assert event_warnings("王校长在全校大会上说起赵小军的家事", "王校长讲完了，赵小军的脸红了。") == []
    assert event_warnings("仓库后墙塌了半边砸坏三台拖拉机", "李春生蹲在地头抽烟。") == []


def test_a_negated_telling_does_not_meet_the_event() -> None:
    line = "王校长在全校大会上开除了赵小军"
    refused = "王校长终究没有开除赵小军，只记了一个大过。"
    warned = event_warnings(line, refused)
    assert len(warned) == 1 and "拒绝、没有或没做成" in warned[0]
    assert findings(line, refused)[0].excerpt.startswith("开除赵小军")
    # told once refused, once done: it happened
    assert event_warnings(line, refused + "可第二天，王校长还是开除了赵小军。") == []


# --- 2. a refused handover -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("line, given, refused", [
    # a shipyard: the key of a slipway asked for and refused by a head shake; given after all
    ("老周把三号船台的钥匙交给徐海",
     "徐海找老周要三号船台的钥匙。老周犹豫了半天，从腰上解下钥匙，塞进了他手里。",
     "徐海找老周要三号船台的钥匙。老周摇了摇头：“这个不能给你。”徐海只好回了宿舍。"),
    ("老周把三号船台的钥匙交给徐海",
     "徐海找老周要三号船台的钥匙，老周起初不肯，后来还是交给了他。",
     "徐海找老周要三号船台的钥匙，老周说什么也不肯给。"),
    # a hospital: a night-shift place granted, or refused with 没批
    ("周院长把夜班进修的名额批给林医生",
     "林医生去院长办公室问夜班进修的名额。周院长在申请表上签了字：“去吧，好好学。”",
     "林医生去院长办公室问夜班进修的名额。周院长看了申请，没批，说明年再说。"),
    # an office: a project refused (拒绝)
    ("刘主任把新厂房的设计活派给小陈",
     "刘主任把图纸往小陈面前一推：“新厂房的设计，你来。”小陈接了过来。",
     "小陈去找刘主任要新厂房的设计活。刘主任当场拒绝了，说他资历太浅。"),
])
def test_a_refused_handover_does_not_meet_the_line(line: str, given: str, refused: str) -> None:
    assert event_warnings(line, given) == []
    warned = event_warnings(line, refused)
    assert len(warned) == 1 and "被拒绝或没有交出" in warned[0], warned


def test_a_refusal_of_something_else_leaves_the_handover_told() -> None:
    line = "老周把三号船台的钥匙交给徐海"
    body = "老周没答应徐海去喝酒的事。\n\n第二天一早，老周把三号船台的钥匙交给了徐海。"
    assert event_warnings(line, body) == []
    # an order after the giving (不许, 别, 不准) is no refusal
    assert event_warnings(line, "老周把三号船台的钥匙交给徐海。“不许弄丢了，别给外人看。”") == []
    # the handover negated in its own sentence
    assert len(event_warnings(line, "老周到底没把三号船台的钥匙交给徐海。")) == 1


# --- 3. the quoted line: bounded and escaped at one place --------------------------------------------------------


def test_findings_quote_the_start_of_a_line_and_escape_what_a_terminal_acts_on() -> None:
    line = "孙场长\x1b[2J\x00\u202e" + "麦" * 500_000
    assert clipped(line) == line[:QUOTE_MAX] + "…" and clipped("短") == "短"
    f = Finding("合同", WARN, f"合同「{clipped(line)}」", 1, excerpt="a\x07b\u2066c")
    assert f.message == "合同「孙场长\\u001b[2J\\u0000\\u202e" + "麦" * (QUOTE_MAX - 9) + "…」"
    assert f.excerpt == "a\\u0007b\\u2066c"
    assert visible("寻常的字，换行也不在") == "寻常的字，换行也不在"


HOSTILE = "林晚把\x1b]0;pwned\x07\x1b[31m\x00\u202e\u2067守夜的差事\x7f\u200b" + "雪" * 500_000 + "交给陈伯远"
REFUSED = "P-002 兑付：\x1b[2J\x00\u202e旧约" + "霜" * 500_000  # an error: settle's refusal quotes it too
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


def test_a_hostile_contract_reaches_lw_story_check_bounded_and_escaped(book) -> None:
    lines = ["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历", HOSTILE, "结尾强钩"]
    to_reviewed(book, contract=lines)
    amend = ["amend", "--原因", "加一条旧约", *(a for line in [*lines, REFUSED] for a in ("--合同", line))]
    outputs = []
    for args in (["check", "--json"], amend, []):  # the warning first; then amended: the next step checks again
        result = CliRunner().invoke(story, ["--locale", "zh", *args, "-C", str(book.root)], catch_exceptions=False)
        assert result.exit_code == 0, result.output[:500]
        outputs.append(result.output)
        assert len(result.output) < 4000 and not CONTROL.search(result.output), result.output[:500]
    assert all("守夜的差事" in out and "\\u001b" in out and "\\u202e" in out and "\\u0000" in out for out in outputs[:2])
    assert "霜霜…" in outputs[1] and "没过机检" in outputs[2]
    # each finding still names its line by its start, so the author can find it
    event = [f for f in json.loads(outputs[0])["A"] if "合同里的事件" in f["message"]]
    assert len(event) == 1 and event[0]["message"].startswith("合同里的事件「林晚把\\u001b]0;pwned\\u0007")
    report = book.p("工作区/评审报告/机检-A.md").read_text(encoding="utf-8")
    assert not CONTROL.search(report) and len(report) < 4000, report[:500]
    assert "合同里的事件「林晚把\\u001b]0;pwned\\u0007" in report
    assert "合同「P-002 兑付：\\u001b[2J\\u0000\\u202e旧约霜" in report  # the error that sends the draft back


def test_settles_own_refusal_quotes_the_line_bounded_and_escaped(book) -> None:
    from lw_storyrepo.drafts import read_draft
    from lw_storyrepo.settle import refusals
    from lw_storyrepo.workspace import load_state

    to_reviewed(book, contract=["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历"])
    state = load_state(book)
    assert state is not None
    state["合同"] = [*state["合同"], REFUSED]
    found = [f.message for f in refusals(book, state, read_draft(book, "A"))]
    assert any(m.startswith("合同「P-002 兑付：\\u001b[2J\\u0000\\u202e旧约霜") for m in found), found
    assert all(len(m) < 300 and not CONTROL.search(m) for m in found), found


def test_many_event_lines_read_the_prose_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of event lines (bench/story_hostile.py's shapes at the cap) look their words up in one index
    of the prose, and each telling's refusal is read once per prose, not once a line."""
    from lw_storyrepo import checks

    calls = []
    real = checks._refused_at

    def counted(body: str, k: int, put_back: bool = True) -> bool:
        calls.append(k)
        return real(body, k, put_back)

    monkeypatch.setattr(checks, "_refused_at", counted)
    body = "王校长终究没有开除赵小军。\n" * 3 + "赵小军回了家。\n" * 200
    lines = [f"王校长在第{i}次全校大会上开除了赵小军" for i in range(300)]
    found = contract_findings({"合同": lines}, Draft("A", {}, body, 1, body), ctx())
    assert len([f for f in found if "拒绝、没有或没做成" in f.message]) == 300
    assert len(calls) == 3  # the three tellings of 开除, once each
    # 当众 added (K6, stop 57): a line must say three of the dictionary's words to be warned (EVENT_DICT_WORDS_MIN)
    untold = [f"王校长在第{i}次全校大会上当众{'、'.join(chr(0x4E00 + (i * 7919 + j) % 20000) for j in range(50))}赵小军"
              for i in range(300)]
    found = contract_findings({"合同": untold}, Draft("A", {}, body, 1, body), ctx())
    assert 250 < len(found) <= 300 and all(len(f.message) < 400 for f in found)  # a line naming 说, 问…: speech


# --- C1's round (stop 58): a work site its workers call by its kind alone --------------------------------------------
# Settings are not the labelled sets': a lime kiln, a salt well, a coal pit, a quarry's cave store.

SITE_CARDS: dict[str, dict[str, object]] = {
    "石满": {"位置": "县城", "持有": ["火钩"]},
    "韩老六": {"位置": "县城"},
    "何二": {"位置": "县城"},
    "郑七": {"位置": "县城"},
}
SITE_PLACES = {"青石窑", "白卤井", "黑沟坑", "狮子洞", "县城"}


def _site_found(line: str, body: str, places: set[str] = SITE_PLACES) -> list[Finding]:
    aliases = {**{n: n for n in SITE_CARDS}, **{p: p for p in places}}
    world = World(SITE_CARDS, dict(aliases), places, {"火钩"}, ("普通人",), None, {}, {})
    c = CheckContext(aliases, [], [], [], 0, set(aliases), {"火钩"}, world=world, people=set(SITE_CARDS),
                     dwellers=dwellers_of(SITE_CARDS)).for_draft({})
    return list(contract_findings({"合同": [line]}, Draft("A", {}, body, 5), c))


@pytest.mark.parametrize("line, place, body", [
    # a lime kiln by its door, a salt well by its mouth, a coal pit after a verb of going down, a cave store inside
    ("石满夜里去青石窑封火", "青石窑", "石满半夜爬起来，摸黑到了坡上。窑门还烫手，他拿泥把火眼一个个封死。"),
    ("韩老六在白卤井守卤", "白卤井", "天刚亮，韩老六蹲在井口，看着卤水一桶一桶往上绞。"),
    ("何二一个人下黑沟坑", "黑沟坑", "何二把矿灯拧亮，咬咬牙下了坑。巷道里滴着水，他一步一步往里挪。"),
    ("郑七在狮子洞点炸药", "狮子洞", "郑七弯腰钻进了洞。洞里黑黢黢的，他一箱一箱点清了炸药。"),
])
def test_a_work_site_said_by_its_kind_is_there(line: str, place: str, body: str) -> None:
    found = _site_found(line, body)
    assert not any(f"提到「{place}」" in f.message for f in found), found


@pytest.mark.parametrize("line, place, body", [
    # the kind written inside another word, or after a word that is no going in: the site is not there
    ("石满夜里去青石窑封火", "青石窑", "石满在家里翻出一只旧瓦罐，罐底落着窑变的釉斑，他看了一夜。"),
    ("韩老六在白卤井守卤", "白卤井", "韩老六在县城的茶馆坐了一天，说起水井的事就叹气。"),
    ("何二一个人下黑沟坑", "黑沟坑", "何二在县城买了一包烟，路过一个土坑，跳了过去。"),
])
def test_the_kind_inside_another_word_is_no_work_site(line: str, place: str, body: str) -> None:
    found = _site_found(line, body)
    assert any(f"提到「{place}」" in f.message and f.severity == ERROR for f in found), found


def test_a_kind_two_sites_of_the_book_share_names_neither() -> None:
    # the book knows two pits: 坑里 may be either, the contract's pit is still asked for
    places = SITE_PLACES | {"白沙坑"}
    found = _site_found("何二一个人下黑沟坑", "天黑了，何二下了坑，坑里只有他一个人。", places)
    assert any("提到「黑沟坑」" in f.message and f.severity == ERROR for f in found), found
