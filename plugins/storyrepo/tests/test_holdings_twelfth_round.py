"""Holdings, H12's round (issue 30, stop 59): a thing the speaker calls their own, and a quote's words read as acts.

- **The speaker calls a known thing their own.** In someone's words, 我 (or 俺) then this or that and a measure word — a
  place of their body or house may stand between (我手上这只…, 我鼻梁上这副…, 俺屋里那把…), a few words of its looks
  after — and the thing: whoever says it has it now, though no verb uses it (:data:`lw_storyrepo.continuity.MINE_POINTED`,
  :func:`lw_storyrepo.continuity._claims_own`). A speaker the text names will do; one only the turn-taking or a
  pronoun gives only when the thing's card holder is neither in the scene's list nor named nearby. No claim of now: the
  thing given, lost or asked after (我那只…早当了, …呢？), a time gone, a supposition or a comparison before 我, another
  person acting on it (他拿了我那只…), 我的… with no this or that, and the narration's own 我.
- **A quote opened after a sentence's lead is no act of the lead.** 老周站起来，“去，把你那盏…拿来”: the clauses after the
  quote opens are the words of an order, not 老周's hands (:func:`lw_storyrepo.continuity._subjectless`).

Written in a lighthouse of our own (the holdings rounds' book of three, and 钱叔 away in the county town), not the
labelled drafts' words.
"""

from __future__ import annotations

from typing import Any

from continuity_helpers import findings
from lw_storyrepo.continuity import World, told_of

PLACE = "灯塔"


def _held(body: str, present: tuple[str, ...] = ("阿满", "老周", "苏禾")) -> list[str]:
    """The 持有 findings of ``body`` told by 阿满 at the lighthouse: 阿满 holds 铜望远镜, 老周 煤油灯, 苏禾 秒表, and 钱叔,
    away in 县城, 怀表 and 老花镜; ``present`` in the scene's list."""
    cards: dict[str, dict[str, Any]] = {
        "阿满": {"姓名": "阿满", "状态": "在世", "位置": PLACE, "持有": ["铜望远镜"]},
        "老周": {"姓名": "老周", "状态": "在世", "位置": PLACE, "持有": ["煤油灯"]},
        "苏禾": {"姓名": "苏禾", "状态": "在世", "位置": PLACE, "持有": ["秒表"]},
        "钱叔": {"姓名": "钱叔", "状态": "在世", "位置": "县城", "持有": ["怀表", "老花镜"]},
    }
    texts = {"阿满": "阿满守塔。", "老周": "老周是驿丞。", "苏禾": "苏禾教物理。", "钱叔": "钱叔在县城开钟表铺。"}
    gender = {"阿满": "她", "老周": "他", "苏禾": "她", "钱叔": "他"}
    items = {str(x) for card in cards.values() for x in card.get("持有", [])}
    world = World(cards, {n: n for n in cards}, {PLACE, "县城"}, items, (), None, {}, gender, told=told_of(texts, cards))
    return [f.message for f in findings(body, world, "阿满", "1931年9月2日", list(present), items=items)
            if f.subject is not None and f.subject.field == "持有"]


def _by(found: list[str], who: str, thing: str) -> bool:
    return any(m.startswith(who) and f"「{thing}」" in m for m in found)


def test_a_named_speaker_calling_anothers_thing_their_own_is_caught() -> None:
    for body in ("老周说：“莫看我手上这只秒表，掐得比钟还准。”",
                 "老周拍了拍口袋，说：“我兜里那只秒表，一秒都不差。”",
                 "老周说：“我那只上了弦的秒表，今早又慢了两秒。”"):
        found = _held(body)
        assert _by(found, "老周", "秒表"), (body, found)


def test_a_pronoun_speaker_counts_when_the_holder_is_away() -> None:
    body = "老周蹲在灯座边，看不清刻度。\n\n“阿满！”他回头喊，“把我那副老花镜拿来！”"
    assert _by(_held(body), "老周", "老花镜")
    body = "老周把账本合上。\n\n“你别看我鼻梁上这副老花镜，看字比你还清楚。”他说。"
    assert _by(_held(body), "老周", "老花镜")


def test_a_pronoun_speaker_is_no_guess_when_the_holder_is_near() -> None:
    # 钱叔 in the scene's list, or named in the paragraph before: the one speaking may be its holder
    body = "老周蹲在灯座边，看不清刻度。\n\n“阿满！”他回头喊，“把我那副老花镜拿来！”"
    assert _held(body, ("阿满", "老周", "苏禾", "钱叔")) == []
    body = "钱叔和老周蹲在灯座边。\n\n“阿满！”他回头喊，“把我那副老花镜拿来！”"
    assert _held(body) == []


def test_its_holder_or_no_claim_of_now_stays_silent() -> None:
    for body in ("苏禾说：“莫看我手上这只秒表，掐得比钟还准。”",  # its holder
                 "老周说：“我那只秒表早当了。”",  # given away
                 "老周说：“我那只秒表叫人偷了。”",
                 "老周说：“我那只秒表呢？”",  # asked after
                 "老周说：“当年我那只秒表，比这个准。”",  # a time gone
                 "老周说：“要是我那只秒表还在就好了。”",  # a supposition
                 "老周说：“跟我那只秒表一个样。”",  # a comparison
                 "老周说：“她拿了我那只秒表。”",  # another acting on it
                 "老周说：“你偷偷用了我那只秒表。”",
                 "老周说：“我没拿那只秒表。”",  # a verb between 我 and this or that: no claim of own
                 "老周说：“我的秒表，谁也别碰。”",  # no this or that: no claim read
                 "我那只秒表还在抽屉里。"):  # the narration's own 我, nobody's words
        assert _held(body) == [], body


def test_a_quote_opened_after_the_lead_is_no_act_of_the_lead() -> None:
    body = "老周站起来，拍拍裤子上的灰，“去，把你那只秒表拿来，我给你换根链子。”"
    assert _held(body) == []
    # the narration's own clauses before the quote are still the lead's
    body = "老周站起来，拿起秒表，“走，下去看看。”"
    assert _by(_held(body), "老周", "秒表")


def test_the_narration_after_the_quote_closes_is_the_leads_again() -> None:
    body = "老周站起来，“走，”拿起秒表就出了门。"
    assert _by(_held(body), "老周", "秒表")
    body = "老周说了句“走”，拿起秒表就出了门。"
    assert _by(_held(body), "老周", "秒表")
