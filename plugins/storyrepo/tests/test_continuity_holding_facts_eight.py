"""Holdings as facts, eighth round (issue 30, H9 at stop 56): two faults of the holdings reader on good text.

- **A use read from its own clause's subject.** A use after a clause led by another name is read from the subject of
  the clause it stands in (老周咳了两声，苏禾拿起… is 苏禾's use), the way H8 read a giving
  (:func:`lw_storyrepo.continuity._each_from_its_last_name`). A clause with no subject of its own keeps the name before
  (老周咳了两声，拿起…), and a name inside the clause that is not its subject (从苏禾抽屉里摸出…) is no user.
- **Known or remembered, not done now.** A use or a giving under a verb of remembering (想起, 记得, 回想…), or under a
  verb of knowing (明白, 知道, 懂…) asked why or how or set in a time gone (为什么, 怎么, 当初, 那天…), tells a fact of
  the past, no act of the scene (:data:`lw_storyrepo.continuity.KNOWN_NOT_DONE`: U13's 也明白了爹为什么把窑钥匙交给他).
  A fact known of now (知道老周拿着…) and a question asked of an act now (问阿满为什么拿着…) are read as before.

Written in a lighthouse and harbour of our own (the holdings rounds' book of three), not the labelled drafts' words.
"""

from __future__ import annotations

from continuity_helpers import three_holders

GAVE_AWAY = "交到别人手里"


def _held(body: str) -> list[str]:
    return [f.message for f in three_holders(body, "灯塔") if f.subject is not None and f.subject.field == "持有"]


def test_a_use_after_another_s_clause_is_read_from_its_own_subject() -> None:
    for body, who, thing in (("老周咳了两声，苏禾拿起铜望远镜朝海上看。", "苏禾", "铜望远镜"),
                             ("阿满点了点头，老周掏出秒表按了一下。", "老周", "秒表"),
                             ("苏禾笑了笑，阿满从抽屉里摸出驿符看了看。", "阿满", "驿符")):
        found = _held(body)
        assert any(m.startswith(who) and thing in m for m in found), (body, found)
        assert all(m.startswith(who) for m in found), (body, found)  # the one before, who uses nothing, is not named


def test_a_use_by_its_own_holder_after_another_s_clause_stays_silent() -> None:
    assert _held("老周咳了两声，苏禾拿起秒表掐了一下。") == []
    assert _held("阿满点了点头，老周提起煤油灯往外走。") == []


def test_a_clause_with_no_subject_or_a_name_not_its_subject_keeps_the_name_before() -> None:
    assert any(m.startswith("老周") and "秒表" in m for m in _held("老周咳了两声，拿起秒表掐了一下。"))
    assert any(m.startswith("老周") and "秒表" in m for m in _held("老周从苏禾的抽屉里摸出秒表，揣进兜里。"))


def test_a_use_or_giving_known_or_remembered_stays_silent() -> None:
    assert _held("苏禾这一下子全明白了老周为什么把秒表交给阿满。") == []  # a why known
    assert _held("阿满明白了，老周为什么把秒表交给她。") == []
    assert _held("阿满也明白了老周为什么把秒表交给她。") == []  # the knower first, the verb between
    assert _held("苏禾想起那天老周提着铜望远镜站在码头上的样子。") == []  # remembered
    assert _held("阿满一直不懂老周当初怎么会把铜望远镜交给苏禾。") == []  # a how, a time gone
    # a giving remembered is no giving now: its giver's use after is no use of a thing given away
    assert _held("苏禾想起老周把煤油灯交给阿满的那天。\n老周拿起煤油灯看了看。") == []


def test_a_fact_known_of_now_a_question_now_and_a_giving_now_still_fire() -> None:
    assert any(m.startswith("老周") and "铜望远镜" in m for m in _held("苏禾知道，老周正拿着铜望远镜在外头看船。"))
    assert any(m.startswith("阿满") and "驿符" in m for m in _held("阿满为什么拿着驿符？苏禾想不通。"))
    assert any(m.startswith("老周") and "秒表" in m for m in _held("老周拿起秒表，想起了什么。"))
    assert any(m.startswith("老周") and "秒表" in m for m in _held("老周记得拿起秒表。"))  # remembering to do: done now
    assert any(GAVE_AWAY in m for m in _held("老周把煤油灯交给阿满。\n老周拿起煤油灯看了看。"))
