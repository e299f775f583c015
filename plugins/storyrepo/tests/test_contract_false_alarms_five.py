"""The contract and leak checks' false alarms, fifth round (issue 30, K5 at stop 56): a place a thing is sent from, a
letter read out without a colon before it.

- a place a contract line names only as where a letter, a call or goods come from (邮车从柯洛捎来一封信, 从县城打来电话)
  is not where the scene is (:data:`lw_storyrepo.checks.SENT_FROM`, read by :func:`lw_storyrepo.checks._only_whence`):
  the prose need not name it; a thing taken away from a place (从…带走, 运出) is no such line;
- a quote that opens with a salutation and a colon (“阿郎：见字如面) after a paragraph that speaks of a letter, and a
  quote the next paragraph says was read (念完了, 念到这里), are a letter read out (:data:`lw_storyrepo.checks.SALUTED`,
  :data:`lw_storyrepo.checks.READ_DONE`): their words are the writer's, found by who 来信 (:data:`lw_storyrepo.checks.
  WRITER_CUE`), not the reader's.
Settings are not the labelled sets': a Tang post station, a colony on Mars, a 1980s fishing village, a Qing salt well.
"""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import CheckContext, _only_whence, voices


@pytest.mark.parametrize("place, line", [
    ("长安", "驿卒从长安捎来崔十一家里的一封信"),              # a Tang post station
    ("火星一号站", "补给舰从火星一号站发来一段电文"),           # a colony on Mars
    ("广州", "表哥从广州寄来一箱荔枝"),                        # a 1980s village
    ("自流井", "盐商从自流井托脚夫捎来两包井盐"),              # a Qing salt well: sent through a carrier
])
def test_a_place_a_thing_is_sent_from_is_not_where_the_line_asks(place: str, line: str) -> None:
    assert _only_whence(place, line)


@pytest.mark.parametrize("place, line", [
    ("长安", "崔十一从长安带走了一箱书"),          # he took it away: he was there
    ("广州", "表哥从广州的仓库里运出一批荔枝"),     # goods leaving the place, the scene there
    ("自流井", "盐商在自流井捎来的盐里掺了沙"),     # no 从: the place is where the salt is looked at
])
def test_a_thing_taken_from_a_place_or_a_place_without_from_is_still_asked(place: str, line: str) -> None:
    assert not _only_whence(place, line)


PEOPLE = {"崔十一": "崔十一", "柳三娘": "柳三娘", "陈站长": "陈站长", "林舟": "林舟", "阿海": "阿海", "陈阿婆": "陈阿婆",
          "老周": "老周"}


def _speakers(body: str, cast: list[str], pov: str) -> dict[str, str | None]:
    ctx = CheckContext(dict(PEOPLE), [], [], [], 0, set(PEOPLE), set(), people=set(PEOPLE)).for_draft(
        {"在场": cast, "视角": pov})
    return {v.words: v.speaker for v in voices(ctx, body.split("\n"), letters=True)}


@pytest.mark.parametrize("body, cast, pov, words, writer", [
    # a Tang post station: the letter opened, its salutation after a full stop
    ("驿卒进门就喊：柳三娘来信了。\n\n崔十一坐在廊下，把信展开。\n\n“十一郎：见字如面。长安米贵，你在外头莫要省着。”",
     ["崔十一"], "崔十一", "十一郎：见字如面。长安米贵，你在外头莫要省着。", "柳三娘"),
    # a colony on Mars: no colon before the letter, the reading stopped after it
    ("陈站长收到了林舟的来信，把信投在舱壁上，一句一句念。\n\n“氧气循环机下周就到，你们再撑一撑。”\n\n陈站长念到这里，停住了。",
     ["陈站长"], "陈站长", "氧气循环机下周就到，你们再撑一撑。", "林舟"),
    # a 1980s fishing village: read on after a listener's word, the reading done after it
    ("陈阿婆来信了。阿海蹲在船头，把信展开。\n\n“海仔：家里都好。”\n\n老周笑了：“你娘就会报喜。”\n\n"
     "“还有一桩事，你莫跟别人讲。”\n\n阿海念完了，把信折好。",
     ["阿海", "老周"], "阿海", "还有一桩事，你莫跟别人讲。", "陈阿婆"),
])
def test_a_letter_read_out_without_a_colon_before_it_is_its_writers(body: str, cast: list[str], pov: str, words: str,
                                                                  writer: str) -> None:
    assert _speakers(body, cast, pov).get(words) == writer


@pytest.mark.parametrize("body, cast, pov, words", [
    # a call with a comma is speech, however near a letter
    ("柳三娘来信了。崔十一把信收好。\n\n“十一郎，你过来。”驿卒在门口喊他。", ["崔十一"], "崔十一", "十一郎，你过来。"),
    # muttering (念叨) is no reading done
    ("陈阿婆来信了，阿海没拆。\n\n“等晚上再看。”\n\n老周念叨了一句，没接话。", ["阿海", "老周"], "阿海", "等晚上再看。"),
])
def test_speech_near_a_letter_stays_its_speakers(body: str, cast: list[str], pov: str, words: str) -> None:
    assert _speakers(body, cast, pov).get(words) not in ("柳三娘", "陈阿婆")
