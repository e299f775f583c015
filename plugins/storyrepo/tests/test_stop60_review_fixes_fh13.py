"""Stop 60's review of H13's 持有 round (R60's H13-1 … H13-5), narrowed by fh13.

The reviewer's own sentences, in the holdings rounds' book of three at the lighthouse (阿满 holds 铜望远镜, 老周 煤油灯
and 驿符, 苏禾 秒表; all in the scene): each sent a good draft back with an ERROR 持有 finding.

- H13-1: a place *near* the speaker (我头顶上, 我楼下), a shared place (我们塔上) or a kin's keeping (我哥那里) is not
  the speaker's keeping place.
- H13-2: 留意着 (keeping an eye on), 带着 + a person, 拿着看 … 挂回去 are no keeping.
- H13-3: a thing handed *to* the speaker (交给我保管, 传给我), 当了…的伴 (served as), 丢了魂似的 (an idiom) are not
  its holder parting with it.
- H13-4: speech closing on a bare name after a question (谁来问过？苏禾。) is an answer, not a signature.
- H13-5: one long quote of keeping claims is read in linear work, not back to each claim's clause start.
"""

from __future__ import annotations

from typing import Any

import continuity_helpers
import pytest
from lw_storyrepo import continuity

PLACE = "灯塔"


def held(body: str) -> list[str]:
    """The 持有 findings of ``body`` in the book of three."""
    return [f.message for f in continuity_helpers.three_holders(body, PLACE)
            if f.subject is not None and f.subject.field == "持有"]


@pytest.mark.parametrize("body", [
    "阿满抬头望了望：“老周的煤油灯就在我头顶上，亮着呢。”",
    "阿满指了指楼板：“老周那盏煤油灯在我楼下，你下去拿。”",
    "阿满指了指窗外：“老周的煤油灯在我们塔上挂了三十年了。”",
    "阿满想了想：“老周的煤油灯在我哥那里，他借去用两天。”",
    "阿满想了想：“老周的煤油灯在我爹屋里，我爹夜里要起来喂牲口。”",
])
def test_h13_1_a_place_near_the_speaker_is_not_their_keeping(body: str) -> None:
    assert held(body) == [], body


@pytest.mark.parametrize("body", [
    "阿满压低了声音：“老周那盏煤油灯我一直留意着，没人动过。”",
    "阿满压低了声音：“老周那盏煤油灯我带着苏禾去瞧了一眼，好好的。”",
    "阿满压低了声音：“老周那盏煤油灯我拿着看了看，又给挂回去了。”",
])
def test_h13_2_watching_leading_or_looking_is_not_keeping(body: str) -> None:
    assert held(body) == [], body


@pytest.mark.parametrize("body", [
    "老周摸了摸腰间：“驿符交给我保管，你们放心。”",
    "老周拍了拍灯罩：“家里这盏煤油灯传给我了，往后我守着。”",
    "老周拍了拍灯罩：“这盏煤油灯当了我二十年的伴。”",
    "苏禾看了看表：“秒表丢了魂似的，走得飞快。”",
])
def test_h13_3_a_thing_received_or_an_idiom_is_not_parted_with(body: str) -> None:
    assert held(body) == [], body


def test_h13_4_a_bare_name_answering_a_question_signs_nothing() -> None:
    assert held("老周指了指屋里：“煤油灯在我屋里锁着。谁来问过？苏禾。”") == []


@pytest.mark.parametrize(("body", "who", "thing"), [
    # the speaker's keeping: the closed places after bare 在, an open place after a verb of putting away
    ("老周坐在桌边，说：“阿满那架铜望远镜在我箱子里，你自己去拿。”", "老周", "铜望远镜"),
    ("老周说：“阿满的铜望远镜在我这儿。”", "老周", "铜望远镜"),
    ("老周说：“铜望远镜锁在我柜子里了，钥匙在门后。”", "老周", "铜望远镜"),
    ("苏禾说：“老周那盏煤油灯我收着，没丢。”", "苏禾", "煤油灯"),
    ("苏禾说：“老周那盏煤油灯我带到上海来了。”", "苏禾", "煤油灯"),
    # the holder parting with their own thing
    ("老周叹了口气：“我那盏煤油灯送给苏禾了。”", "老周", "煤油灯"),
    ("老周叹了口气：“我那盏煤油灯当了。”", "老周", "煤油灯"),
    ("老周叹了口气：“我那盏煤油灯留在县城客栈里。”", "老周", "煤油灯"),
])
def test_the_keeping_catches_stay(body: str, who: str, thing: str) -> None:
    found = held(body)
    assert any(m.startswith(who) and f"「{thing}」" in m for m in found), (body, found)


def test_a_signed_note_is_still_its_writers() -> None:
    found = held("阿满念着桌上的字条：“煤油灯在我屋里锁着。苏禾留。”")
    assert any(m.startswith("苏禾") and "「煤油灯」" in m for m in found), found


def test_h13_5_a_long_quote_of_keeping_claims_is_read_in_linear_work(monkeypatch: Any) -> None:
    counted = continuity_helpers.Counted(continuity.KEEPING_AFTER_NOT_NOW)
    monkeypatch.setattr(continuity, "KEEPING_AFTER_NOT_NOW", counted)
    words = "老周的煤油灯在我屋里" * 400
    continuity_helpers.three_holders("阿满说：“" + words + "”", PLACE)
    assert counted.read <= 40 * len(words)


def test_h13_6_a_spoken_quote_is_not_a_later_letters() -> None:
    body = "老周摆摆手：“煤油灯在我屋里锁着，你放心。”\n\n阿满拆开苏禾寄回来的信，末尾写着：“塔上一切安好，勿念。苏禾谨上。”"
    assert not any(m.startswith("苏禾") for m in held(body))
