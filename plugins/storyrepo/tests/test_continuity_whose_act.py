"""Whose thing, whose act — h16's round (issue 30, stop 62): who a clause with no subject of its own is about.

- **The one seen doing something leads the clauses after.** 他看见X还坐着，手里提着…: a verb of seeing inside the lead's
  clause, the one seen then told doing or being something there — the clauses after with no subject are the seen one's
  (:func:`lw_storyrepo.continuity._seen_takes_over`); a pronoun seen so is someone we cannot name, no guess. The seen one
  a bare object (他看见X，…) leaves the lead the subject.
- **A thing carried as the topic across one clause to the speaker's keeping place.** “那只X，前天我拿去修了，还在我抽屉里”:
  the thing is the dropped subject of the keeping clause (:func:`lw_storyrepo.continuity._carried_topic`); not when the
  clause between has another actor (他, 你, a name) or a plan, a denial, a done-before.
- **A record taking a thing from its holder.** 今暂收…X随身…一只, 兹借到X…, 即日扣留X…: a receipt, an IOU or a seizure
  note opening on its own day (:data:`lw_storyrepo.continuity.RECORD_TAKES`) puts the thing out of its card holder's hands.
- **Steering by eye is sight's.** 挂上倒挡, 一把方向, 把车倒到…, 骑上车子, 纫针: what a blind card (雪盲, 全盲, 失明 …) cannot
  do (:data:`lw_storyrepo.forbidden.STEERING`), told of them in a run of clauses whose subject is the run's first.

Written in a lighthouse of our own, not the labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
from continuity_helpers import findings
from lw_storyrepo.continuity import World, told_of

PLACE = "灯塔"


def _held(body: str, changes: list[str] | None = None) -> list[str]:
    """The 持有 findings of ``body`` told by 阿满 at the lighthouse: 阿满 holds 铜望远镜, 老周 煤油灯, 苏禾 秒表, 钱叔 怀表."""
    cards: dict[str, dict[str, Any]] = {
        "阿满": {"姓名": "阿满", "状态": "在世", "位置": PLACE, "持有": ["铜望远镜"]},
        "老周": {"姓名": "老周", "状态": "在世", "位置": PLACE, "持有": ["煤油灯"]},
        "苏禾": {"姓名": "苏禾", "状态": "在世", "位置": PLACE, "持有": ["秒表"]},
        "钱叔": {"姓名": "钱叔", "状态": "在世", "位置": PLACE, "持有": ["怀表"]},
    }
    texts = {"阿满": "阿满守塔。", "老周": "老周是驿丞。", "苏禾": "苏禾教物理。", "钱叔": "钱叔开钟表铺。"}
    gender = {"阿满": "她", "老周": "他", "苏禾": "她", "钱叔": "他"}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, {n: n for n in cards}, {PLACE}, items, (), None, {}, gender, told=told_of(texts, cards))
    return [f.message for f in findings(body, world, "阿满", "1931年9月2日", list(cards), changes=changes, items=items)
            if f.subject is not None and f.subject.field == "持有"]


def _by(found: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(who) and f"「{thing}」" in m for m in found)


def test_the_one_seen_doing_something_holds_what_the_clauses_after_tell() -> None:
    for body in ("阿满看见老周还坐在灯下，手里提着煤油灯。",
                 "上到灯室，阿满瞅见老周还没睡，手里提着煤油灯。",  # a word of seeing no book used here: 瞅见
                 "阿满瞥见苏禾还趴在窗口，手里攥着秒表。"):  # 瞥见, another sibling
        assert _held(body) == [], body


def test_a_pronoun_seen_doing_something_is_no_guess_of_the_seer() -> None:
    assert _held("上到灯室，阿满看见她还坐着，手里攥着秒表。") == []


def test_a_seen_one_as_a_bare_object_leaves_the_seer_the_subject() -> None:
    found = _held("阿满看见老周，拎起煤油灯就走。")
    assert _by(found, "阿满", "煤油灯"), found


def test_a_thing_carried_as_the_topic_to_the_speakers_keeping_place_is_theirs_now() -> None:
    for body in ("老周说：“苏禾那只秒表，前天我拿去修了，还在我抽屉里。”",
                 "老周说：“你那只秒表，我借去掐了两回表，照旧锁在我柜子里。”",  # held out per word: 借去掐, 锁在
                 "老周说：“钱叔那块怀表，我带去县城擦了油，还揣在我怀里。”"):
        found = _held(body)
        assert _by(found, "老周", "秒表" if "秒表" in body else "怀表"), (body, found)


def test_a_clause_between_with_another_actor_or_not_now_keeps_it_silent() -> None:
    for body in ("老周说：“苏禾那只秒表，她拿去修了，还在我抽屉里。”",  # another acts between
                 "老周说：“你那只秒表，你忘了，还在我抽屉里。”",
                 "老周说：“苏禾那只秒表，我明天拿去修，放在我抽屉里。”",  # a plan
                 "苏禾说：“秒表，前天我拿去修了，还在我抽屉里。”"):  # its holder's own place
        assert _held(body) == [], body


def test_a_record_taking_a_thing_from_its_holder_puts_it_out_of_their_hands() -> None:
    for body, who, thing in (("条子上写着：“今暂收守塔人阿满随身铜望远镜一架，存邮局铁柜。老周具。”", "阿满", "铜望远镜"),
                             ("借条写的是：“兹借到苏禾秒表一只，月底奉还。”", "苏禾", "秒表"),  # an IOU: held out per word
                             ("单子上只一行：“即日扣留钱叔怀表一块。”", "钱叔", "怀表")):
        found = _held(body)
        assert _by(found, who, thing) and "收走" in found[0], (body, found)


def test_a_record_is_silent_when_the_draft_says_so_or_it_is_no_record() -> None:
    body = "条子上写着：“今暂收守塔人阿满随身铜望远镜一架，存邮局铁柜。老周具。”"
    assert _held(body, changes=["阿满.持有-铜望远镜"]) == []
    for body in ("当年那张条子上写着：“今收到阿满铜望远镜一架。”",  # a time gone
                 "阿满今天借苏禾的秒表掐了掐。"):  # narration, no record's opener standing first
        assert not any("字据" in m for m in _held(body)), body


def test_a_record_naming_another_than_the_holder_says_it_was_theirs() -> None:
    found = _held("条子上写着：“今收到老周铜望远镜一架。”")
    assert _by(found, "老周", "铜望远镜") and "字据却写它是老周的" in found[0], found


def test_a_record_list_line_names_the_owner_by_a_role_after_the_thing() -> None:
    for body, who, thing, how in (
            ("门上贴着告示：“拾到秒表一只，铜壳，表链断了一截，失主老周，请到灯室领取。”", "老周", "秒表", "是老周的"),
            ("账上一条条写着：“煤油灯一盏，罩子裂了，寄存人老周。”", "老周", "煤油灯", "收走"),  # held out per word: 寄存人
            ("送修单上写着：“怀表一块，不走字，送修人阿满。”", "阿满", "怀表", "是阿满的")):  # 送修人, another sibling
        found = _held(body)
        assert _by(found, who, thing) and how in found[0], (body, found)


def test_a_list_line_role_is_the_nearest_things_only() -> None:
    # another known thing between the thing and the role: the role is that one's (its holder: taken)
    found = _held("单子上写着：“秒表一只，煤油灯一盏，寄存人老周。”")
    assert not _by(found, "老周", "秒表") and _by(found, "老周", "煤油灯"), found


STATE_CARDS: dict[str, dict[str, Any]] = {
    "钱叔": {"姓名": "钱叔", "状态": "雪盲", "位置": PLACE},
    "老周": {"姓名": "老周", "状态": "在世", "位置": PLACE},
    "阿满": {"姓名": "阿满", "状态": "在世", "位置": PLACE},
}


def _barred(body: str, state: str = "雪盲") -> bool:
    cards = {n: dict(c) for n, c in STATE_CARDS.items()}
    cards["钱叔"]["状态"] = state
    texts = {"钱叔": "钱叔开车。", "老周": "老周是驿丞。", "阿满": "阿满守塔。"}
    world = continuity_helpers.world_of(cards, {n: n for n in cards}, {PLACE}, texts, "", {"钱叔": "他", "老周": "他", "阿满": "她"})
    return any(f.subject is not None and f.subject.field == "状态" and f.subject.who == "钱叔"
               for f in continuity_helpers.findings(body, world, "阿满", "1931年9月2日", list(cards)))


def test_steering_by_eye_in_a_run_of_clauses_is_the_blind_ones_act() -> None:
    assert _barred("钱叔摸着车门爬进驾驶室，挂上二挡，一把方向把车拐进了院子。")
    assert _barred("钱叔推过车子，骑上车子就往坡下冲。")  # a sibling no book uses: riding
    assert _barred("钱叔摸出针线，纫上针，把扣子缝了。", "全盲")  # another word of blindness, another act


def test_steering_told_of_another_or_not_done_is_no_act_of_theirs() -> None:
    assert not _barred("钱叔坐在副驾驶上，老周挂上倒挡，一把方向把车倒了进去。")
    assert not _barred("钱叔摸着方向盘叹了口气：“开不了喽。”")
    assert not _barred("钱叔想起当年挂上倒挡，一把方向把车倒进库里的样子。")


def test_a_thing_put_away_for_someone_is_in_the_speakers_keeping() -> None:
    for body in ("老周说：“苏禾那只秒表，我替你锁在箱子里了。”",
                 "老周说：“秒表，俺给她收起来了。”",  # held out per word: 给…收起来
                 "老周说：“你娘给你买的那只秒表，我帮你藏到柜顶上了，省得丢。”"):  # 帮…藏到: another sibling
        assert _by(_held(body), "老周", "秒表"), body


def test_a_thing_put_back_in_its_holders_place_is_not_the_speakers() -> None:
    for body in ("老周说：“苏禾那只秒表，我替你锁在你箱子里了。”", "老周说：“秒表，我替她收在她抽屉里了。”"):
        assert _held(body) == [], body


def test_the_seer_leads_on_when_the_clause_after_is_an_act_not_a_state() -> None:
    """r62-1: 看见Y做…，赶紧… — the seer reacts; only a state of the one seen (手里攥着…) passes the lead to them."""
    found = _held("老周看见苏禾进了门，赶紧把秒表塞进怀里。")
    assert not _by(found, "苏禾", "秒表") and _by(found, "老周", "秒表"), found
    found = _held("老周瞅见苏禾在门口探头，一把抓起秒表，揣进怀里。")
    assert not _by(found, "苏禾", "秒表"), found
    found = _held("阿满发现苏禾不在屋里，拿起秒表掐了一下。")  # 发现: a state noticed, the finder acts
    assert _by(found, "阿满", "秒表"), found


def test_a_record_owner_who_got_it_back_or_a_keeper_is_no_taking() -> None:
    """r62-2, r62-3: 失主…领走了, 当户…赎回去了 — back in their hands; 现存X处 — kept at theirs."""
    for body in ("老周说：“秒表找着了，失主苏禾刚来领走了。”", "老周说：“那只秒表，原主苏禾早赎回去了。”",
                 "单子上写着：“秒表一只，当户苏禾，已赎回。”",
                 "库房的单子上写着：现存苏禾处秒表一只，老周处煤油灯一盏。", "老周说：“现存苏禾处秒表一只，你问她去。”",
                 "老周说：“今寄存苏禾处秒表一只。”"):
        assert not any("字据" in m for m in _held(body)), body


def test_changing_trains_or_an_open_car_window_is_no_steering() -> None:
    """r62-4: 倒了车 (changed buses), 开着车窗 — no act of the eyes."""
    assert not _barred("钱叔在郑州倒了车，摸黑回到灯塔。", "双目失明")
    assert not _barred("钱叔坐在副驾驶上，开着车窗吹风。", "双目失明")
    assert _barred("钱叔往左打了一把方向，车拐进了院子。", "双目失明")


def test_the_seers_manner_or_a_seen_act_keeps_the_seer_leading() -> None:
    """r62-5: 笑着/忙着/跟着 are the seer's manner; 看见Y进了门 is news the seer reacts to — the seer's hands after it.
    (看见Y进了门，手里攥着X is read as Y's by an older reading, the nearest name before a held thing — main's too, not this
    round's.)"""
    for body in ("老周看见苏禾进了门，笑着把煤油灯塞进柜里。", "老周看见苏禾进了门，忙着把煤油灯拎到身后。",
                 "老周瞅见苏禾在门口探头，跟着就把煤油灯吹灭了。"):
        assert not _by(_held(body), "苏禾", "煤油灯"), body
