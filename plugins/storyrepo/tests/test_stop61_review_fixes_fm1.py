"""R61's M1 findings narrowed (fm1, stop 61): where m1's one table over-reached in one reader, that reader takes a
named view of it — the union less the words that are another sense there. Every sentence is the reviewer's own
(R61's probes), none from a labelled draft."""

from __future__ import annotations

import re

import pytest

from lw_storyrepo import checks, continuity
from lw_storyrepo.findings import Finding

import continuity_helpers
from test_contract_fifteenth_round import event_findings
from test_contract_ninth_round import _found as contract_found

# --- M1-1: a verb of perceiving + a direction (听到, 看出, 看上去, 听起来) is no act done for the act given up ---


@pytest.mark.parametrize("act, body", [
    ("收听天气预报", "老周听到这话，把收音机一关：“天气预报今天不听了。”\n"),
    ("听", "他听到这话，起身说：“不听了。”\n"),
])
def test_a_perceiving_before_the_giving_up_is_no_act_done(act: str, body: str) -> None:
    off = checks.act_given_up(act, body)
    assert off is not None and off.group() == "不听了"


@pytest.mark.parametrize("act, body", [
    ("听", "他摆摆手：“评书今天不听了。”\n窗外的雨声听起来更大了。\n"),
    ("看", "他摆摆手：“戏今天不看了。”\n她看上去有些失望。\n"),
    ("看", "他摆摆手：“戏今天不看了。”\n她看出他累了，没再劝。\n"),
])
def test_a_perceiving_after_the_giving_up_is_no_act_done(act: str, body: str) -> None:
    assert [m.group() for m in checks._givings_up(act, body)] == [f"不{act}了"]


@pytest.mark.parametrize("body", [
    "小七说新茶该过秤了。苏掌柜摸了摸腰上的钥匙：“今天初一，库房不开。”小七只好回了前堂，给客人开出一张收条。",
    "小七说新茶该过秤了。苏掌柜摸了摸腰上的钥匙：“今天初一，库房不开。”\n\n小七回了前堂，看见苏掌柜正跟客人开起了玩笑。",
])
def test_a_store_kept_shut_is_still_given_up_after_a_receipt_written_out(body: str) -> None:
    found = contract_found("苏掌柜打开库房让小七取出新茶过秤", body)
    assert any("推迟或作罢" in message and "不开" in message for _, message in found)


def test_an_act_told_done_by_its_aspect_still_keeps_a_later_giving_up_from_the_act_given_up() -> None:
    assert checks.act_given_up("听", "他听完了，起身说：“不听了。”\n") is None
    assert checks._givings_up("抄", "他抄了一页，叹了口气：“余下的明天再抄。”\n") == ()


# --- M1-4: FC3's not-yet words leave out 得 (觉得, 记得, 麻利得很) and 回头 (turning one's head) ---


@pytest.mark.parametrize("done", [
    "他觉得灯泡太暗，换了灯泡。胡掌柜问起工钱：“等月底再说。”",
    "他记得灯泡坏了，换了个新灯泡。胡掌柜问起工钱：“等月底再说。”",
    "他手脚麻利得很，换了灯泡。胡掌柜问起工钱：“等月底再说。”",
    "他回头看了看，换了灯泡。胡掌柜问起工钱：“等月底再说。”",
])
def test_a_bulb_changed_after_another_words_de_or_a_turned_head_is_told_done(done: str) -> None:
    assert checks._told_done_before(["换"], frozenset(["灯泡"]), done, done.index("胡"))


@pytest.mark.parametrize("body", [
    "柯大姐觉得信号灯太暗，爬上灯塔换了新灯泡。下来的时候，包主任问她工钱的事，柯大姐摆摆手：“等月底再说。”",
    "柯大姐回头看了一眼海面，爬上灯塔给信号灯换了新灯泡。包主任问她工钱的事，柯大姐摆摆手：“等月底再说。”",
])
def test_the_lighthouse_bulb_changed_then_the_pay_put_off_is_silent(body: str) -> None:
    assert event_findings("柯秀兰爬上灯塔给信号灯换灯泡", body) == []


def test_fc3s_not_yet_words_still_read_a_plan_and_a_denial() -> None:
    for undone in ("他说明天换好灯泡。胡掌柜问起工钱：“等月底再说。”", "他没换灯泡。胡掌柜问起工钱：“等月底再说。”",
                   "他要换了灯泡再走。胡掌柜问起工钱：“等月底再说。”"):
        assert not checks._told_done_before(["换"], frozenset(["灯泡"]), undone, undone.index("胡"))


# --- M1-2 and M1-3: the mourning table's two views ---

NOW = "民国二十年十月二十二日"


@pytest.mark.parametrize("body", [
    "老聂那孙子的百日酒是韦先生张罗的，一晃五年了。",
    "韦先生说：“老聂在的时候给这厂子拿过抚恤的主意，一晃五年了。”",
])
def test_a_count_beside_a_babys_hundredth_day_or_a_due_is_not_since_the_death(body: str) -> None:
    assert [f for f in continuity_helpers.cannery_time(body, NOW) if "书内时间" in f.message] == []


def test_a_count_beside_mourning_is_still_since_the_death() -> None:
    assert continuity.OF_A_DEATH.search("给老聂上坟，一晃五年了") is not None
    assert continuity.OF_A_DEATH.search("今天是老王的头七") is not None
    for word in continuity.NOT_A_DEATH_BESIDE_A_COUNT:
        assert continuity.OF_A_DEATH.search(f"老聂孙子的{word}") is None


def _cannery_status(body: str) -> list[Finding]:
    C = continuity_helpers
    died, days = continuity.dates_of_death(C.CANNERY, C.CANNERY_TEXTS)
    aliases = {**{n: n for n in C.CANNERY}, "聂师傅": "老聂"}
    world = continuity.World(C.CANNERY, aliases, {"罐头厂"}, set(), ("普通人",), None, {},
                             {"柯满": "他", "韦先生": "他", "老聂": "他"}, died=died, died_day=days)
    return [f for f in C.findings(body, world, "柯满", NOW, ["柯满", "韦先生"])
            if f.message.startswith("老聂") and "往后还要来做事" in f.message]


@pytest.mark.parametrize("body", [
    "韦先生拍拍柯满：“别哭丧着脸，等老聂下了夜班，让他带你去吃面。”",
    "韦先生拍拍柯满：“别哭丧着脸，等老聂回来，让他带你去吃面。”",
    "韦先生拍拍柯满：“别这么沮丧，等老聂下了夜班，让他带你去吃面。”",
])
def test_a_long_face_in_the_quote_leaves_the_dead_man_to_come_caught(body: str) -> None:
    assert _cannery_status(body)


def test_a_funeral_in_the_quote_still_speaks_of_the_dead_as_dead() -> None:
    assert not _cannery_status("韦先生拍拍柯满：“等老聂的丧事办完，让他那屋空着吧。”")
    assert re.search(continuity.RITES, "明天给老聂上坟") is not None


# --- M1-5: 表 of 手表, 单 of 床单 set out no words as written ---

NAMES = re.compile("守仁|老周|苏禾|黄振江")


def _writer(line: str) -> str | None:
    return continuity._writer_of([line], 0, len(line) - 1, NAMES, {})


@pytest.mark.parametrize("line", [
    "他表情凝重，问：“谁来问过？苏禾。”",
    "他简单问了一句：“这表是谁的？老周。”",
    "他把床单一抖：“谁叠的？苏禾。”",
    "她看了看手表：“该谁值班了？苏禾。”",
])
def test_a_name_answered_after_a_watch_or_a_sheet_signs_nothing(line: str) -> None:
    assert _writer(line) is None


def test_a_spoken_answer_after_a_glance_at_the_watch_is_no_holding_claim() -> None:
    body = "阿满瞅了眼手表：“铜望远镜在我这儿收着。上回谁借走的？苏禾。”"
    assert [f for f in continuity_helpers.three_holders(body, "灯塔") if "持有" in f.message] == []


def test_written_words_are_still_signed() -> None:
    assert _writer("他拿钢笔添了一行：“以后就是他的。黄振江。”") == "黄振江"
    assert _writer("他贴出一张告示：“明日停工。苏禾。”") == "苏禾"


# --- M1-6: 一字一句, 把笔一拍 are manners of speaking, no dated document ---

TODAY = "1962年10月8日"


def _camp(body: str) -> list[Finding]:
    out = continuity_helpers.findings(body, continuity_helpers.lumber_camp(), "王铁生", TODAY, ["王铁生", "孙桂芝"])
    return [f for f in out if f.message.startswith("刘德海") and "位置" in f.message]


@pytest.mark.parametrize("body", [
    "桂芝一字一句地说：“十月八号，老刘那批木料还一根没发。”",
    "桂芝把笔往桌上一拍：“十月八号，老刘那批木料还一根没发。”",
])
def test_a_date_said_with_a_manner_of_speaking_is_no_document_of_today(body: str) -> None:
    assert _camp(body) == []


def test_a_date_announced_after_putting_the_pen_down_is_no_document_dated_ahead() -> None:
    body = "韦先生把笔一放：“验货的日子定了，民国二十年十月二十二日。”"
    assert [f for f in continuity_helpers.cannery_time(body, "民国二十年十月十三日") if "文书" in f.message] == []


def test_a_document_frame_still_reads_its_pieces() -> None:
    assert continuity.DOCUMENT_FRAME.search("翻开值班日志：") is not None
    assert continuity.DOCUMENT_FRAME.search("他提笔签：") is not None
    assert continuity.PIECE_FRAME.search("落款：") is not None
    assert continuity.DOCUMENT_FRAME.search("一字一句地说：") is None
