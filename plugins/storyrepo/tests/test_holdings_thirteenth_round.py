"""Holdings, H13's round (issue 30, stop 60): the words say where a known thing is now.

- **In the speaker's keeping place.** In someone's words, a known thing (whoever's: a name, an address or none before it,
  a measure word and its looks between) then a verb of lying or being put somewhere (在, 锁在, 收在, 藏在 …:
  :data:`lw_storyrepo.continuity.KEPT_AT`) and 我 with any place word of theirs (我箱子里, 俺柜上, 我这儿:
  :data:`lw_storyrepo.continuity.KEEPER_PLACE`): the speaker keeps it, so a speaker who is not its card holder has it.
- **Out of its holder's hands.** Its holder says 我那X (or the thing with no owner word) then a verb of parting with it
  by a place or a receiver (留在…, 落在…, 押在…, 送给…了, 借给…了, 当了, 自即日起交…保管:
  :data:`lw_storyrepo.continuity.LEFT_AWAY`): the card still says they hold it.
- **A signed note or letter is its writer's words.** Words closing on a name as a sentence of its own (…。老周。”), or a
  letter whose later paragraph closes on a name and 顿首/谨上 …, are that person's, whoever reads them aloud
  (:func:`lw_storyrepo.continuity._writer_of`).
- **Measure words are an open class.** 那方 (a seal, an inkstone), 那管, 那尊 … point at a known thing as 那把 does
  (:data:`lw_storyrepo.continuity.ITEM_KIND`).

No reading of now: a plan, a wish, a refusal or a supposition (要, 想, 要是 …), a time gone (去年, 当年), a done-before
(放过), a question; its holder's own place (我那只秒表在我抽屉里); the narration; a vocative after a comma signs nothing.

Written in a lighthouse of our own (the holdings rounds' book of three, and 钱叔 away in the county town), not the
labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings
from lw_storyrepo.continuity import World, told_of

PLACE = "灯塔"


def _held(body: str, present: tuple[str, ...] = ("阿满", "老周", "苏禾"), changes: list[str] | None = None) -> list[str]:
    """The 持有 findings of ``body`` told by 阿满 at the lighthouse: 阿满 holds 铜望远镜, 老周 煤油灯, 苏禾 秒表, and 钱叔,
    away in 县城, 怀表 and 图章 (a brass seal); ``present`` in the scene's list."""
    cards: dict[str, dict[str, Any]] = {
        "阿满": {"姓名": "阿满", "状态": "在世", "位置": PLACE, "持有": ["铜望远镜"]},
        "老周": {"姓名": "老周", "状态": "在世", "位置": PLACE, "持有": ["煤油灯"]},
        "苏禾": {"姓名": "苏禾", "状态": "在世", "位置": PLACE, "持有": ["秒表"]},
        "钱叔": {"姓名": "钱叔", "状态": "在世", "位置": "县城", "持有": ["怀表", "图章"]},
    }
    texts = {"阿满": "阿满守塔。", "老周": "老周是驿丞。", "苏禾": "苏禾教物理。", "钱叔": "钱叔在县城开钟表铺。"}
    gender = {"阿满": "她", "老周": "他", "苏禾": "她", "钱叔": "他"}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, {n: n for n in cards}, {PLACE, "县城"}, items, (), None, {}, gender, told=told_of(texts, cards))
    return [f.message for f in findings(body, world, "阿满", "1931年9月2日", list(present), changes=changes, items=items)
            if f.subject is not None and f.subject.field == "持有"]


def _by(found: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(who) and f"「{thing}」" in m for m in found)


def test_anothers_thing_in_the_speakers_keeping_place_is_theirs_now() -> None:
    for body in ("老周坐在桌边，说：“阿满那架铜望远镜在我箱子里，你自己去拿。”",
                 "老周说：“铜望远镜锁在我柜子里了，钥匙在门后。”",  # no owner word
                 "老周说：“钱叔那方图章照旧压在我枕头底下。”"):  # 那方: a measure word of the open class
        found = _held(body)
        assert _by(found, "老周", "铜望远镜" if "望远镜" in body else "图章"), (body, found)
        assert "在自己那里" in found[0]


def test_keeping_verbs_and_places_not_in_any_book_are_read_the_same() -> None:
    # held out per word: 藏在/揣在 and a place of the speaker's not seen in the pool (床底下, 褡裢里)
    for body in ("老周说：“苏禾那只秒表藏在我床底下。”", "老周说：“秒表揣在我褡裢里。”"):
        assert _by(_held(body), "老周", "秒表"), body


def test_anothers_thing_the_speaker_keeps_as_the_topic_is_theirs_now() -> None:
    # the thing first, then 我 and a verb of taking along or keeping (带…来了, 收着; held out per word: 揣着, 锁了)
    for body in ("老周说：“阿满那架铜望远镜我带到县城来了，你莫找。”", "老周说：“秒表我一直收着。”",
                 "老周说：“苏禾那只秒表我揣着。”", "老周说：“铜望远镜我锁起来了。”"):
        found = _held(body)
        assert _by(found, "老周", "铜望远镜" if "望远镜" in body else "秒表"), (body, found)
    for body in ("老周说：“秒表我放回她抽屉了。”",  # given back
                 "老周说：“秒表我还给苏禾了。”",
                 "苏禾说：“秒表我一直收着。”"):  # its holder
        assert _held(body) == [], body


def test_its_holder_telling_it_out_of_their_hands_is_caught() -> None:
    for body in ("苏禾说：“我那只秒表留在学堂的抽屉里，谁要用谁拿。”",
                 "苏禾说：“我那只秒表送给阿满了。”",
                 "苏禾说：“我那只秒表押在当铺里，过了节再赎。”",  # held out per word: 押在
                 "苏禾说：“我那只秒表落在船上了。”",  # held out per word: 落在
                 "苏禾说：“我那只秒表当了。”"):
        found = _held(body)
        assert _by(found, "苏禾", "秒表") and "不在自己手上" in found[0], (body, found)


def test_a_signed_note_is_its_writers_words_whoever_reads_it() -> None:
    body = "阿满拿起桌上的纸条念：“我那只秒表借给学堂了，月底还。苏禾。”"
    assert _by(_held(body), "苏禾", "秒表")
    body = ("阿满展开钱叔从县城写的信，一句一句念：\n\n“周兄：我那方图章留在灯塔的柜子里，你要用尽管用。”\n\n"
            "老周点了点头。\n\n“余不一一。钱叔顿首。”")
    assert _by(_held(body), "钱叔", "图章")
    # a signature with the letter's date after it
    body = "阿满念信：“老周：阿满那架铜望远镜我带到县城来了，莫找。钱叔，九月初一。”"
    assert _by(_held(body), "钱叔", "铜望远镜")


def test_no_fact_of_now_or_its_holders_own_place_stays_silent() -> None:
    for body in ("苏禾说：“我那只秒表在我抽屉里。”",  # its holder's own place
                 "苏禾说：“阿满那架铜望远镜在老周屋里。”",  # no 我: not the speaker's keeping
                 "苏禾说：“我那只秒表明天要送给阿满。”",  # a plan, not done
                 "苏禾说：“我那只秒表要是送给阿满了，你别怪我。”",  # a supposition
                 "老周说：“阿满那架铜望远镜在我这儿吗？”",  # a question
                 "老周说：“阿满那架铜望远镜在我箱子里放过一阵。”",  # done before
                 "老周说：“去年阿满那架铜望远镜在我箱子里。”",  # a time gone
                 "老周说：“当年钱叔那方图章在我抽屉里。”",
                 "苏禾那只秒表在我箱子里躺了一夜。",  # the narration (its 我 no one's words)
                 "苏禾说：“我那只秒表借给过阿满。”"):  # lent once
        assert _held(body) == [], body


def test_a_holders_note_handing_it_into_anothers_keeping_is_caught() -> None:
    # a log's line signed by its holder, no owner word before the thing: handed over from today
    body = "阿满翻开值班簿，最后一行写着：“九月二日：秒表自即日起交老周保管，掐时找他。苏禾。”"
    assert _by(_held(body), "苏禾", "秒表")
    body = "阿满翻开值班簿，最后一行写着：“秒表从今天起移交阿满看管。苏禾。”"  # held out per word: 移交, 看管
    assert _by(_held(body), "苏禾", "秒表")
    # signed by another than its holder: not the holder's words, and no keeping of the writer's
    body = "阿满翻开值班簿，最后一行写着：“秒表自即日起交老周保管。阿满。”"
    assert not _by(_held(body), "苏禾", "秒表")


def test_a_vocative_after_a_comma_signs_nothing() -> None:
    # the words read by 阿满 end on a name after a comma: a call, no signature — 阿满 (not its holder) says them
    body = "阿满说：“我那只秒表送给学堂了，苏禾。”"
    assert not _by(_held(body), "苏禾", "秒表")


def test_the_drafts_change_says_it_already() -> None:
    assert _held("苏禾说：“我那只秒表送给阿满了。”", changes=["苏禾.持有-秒表"]) == []
    assert _held("老周说：“钱叔那方图章照旧压在我枕头底下。”", changes=["老周.持有+图章"]) == []
