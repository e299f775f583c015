"""The outside reader's lost catches in FU1's round (stop 58, r58b findings 4, 5 and 9), narrowed (fu1b):

- a numbered thing after 号 is a noun the dictionary cuts alone (三号箱归你), not the start of a common word
  (今天八号窗外…, 今天十号车站…, 今天三号门口…, 今天十号地里…): those are days again;
- a person away is at their card's own place only when the staying verb comes right after them and the place ends
  there (玉兰留在汉口); 把在汉口买的糖 and 坐在汉口路 place nobody in 汉口;
- a run 今天三号到十号 without 从 is a run of days unless a numbered thing's noun or a verb of handing or checking
  things follows (三号到六号归你看火 stays a run of things).
The sentences are the reviewer's own; the scaffold is FU1's (book date 1962年5月20日, 钟玉兰's card at 汉口).
"""

from __future__ import annotations

import pytest

from test_new_author_fifteen_readings import day_said, place_hints


@pytest.mark.parametrize("day", [
    "陆文清说：“今天八号窗外又下起了雨。”",
    "陆文清说：“今天十号车站挤满了人。”",
    "陆文清说：“今天三号门口贴了告示。”",
    "陆文清说：“今天十号地里的麦子该割了。”",
])
def test_a_day_before_a_common_word_is_still_a_day(day: str) -> None:
    assert day_said(day), day


def test_a_run_of_days_from_today_without_cong_is_still_read() -> None:
    assert day_said("陆文清说：“今天三号到十号我都守在窑厂。”")
    # a run of numbered things is still no day
    assert day_said("陆文清把账本一合：“阿福，今天三号到六号归你看火，别让火头塌了。”") == []
    assert day_said("陆文清说：“今天三号到六号窑都要封。”") == []


@pytest.mark.parametrize("line", [
    "钟玉兰把在汉口买的糖放在桌上，冲陆文清笑了笑。",
    "钟玉兰坐在汉口路的小馆子里，陆文清添了一把柴。",
])
def test_the_card_place_not_placing_the_person_keeps_the_hint(line: str) -> None:
    assert place_hints(line), line


def test_staying_at_the_card_place_is_still_away() -> None:
    assert place_hints("钟玉兰带着两个孩子留在汉口，守着老屋；陆文清和阿福开着窑，一天也不敢歇。") == []
    assert place_hints("玉兰守在汉口的铺子里，一封信也没寄来。陆文清添了一把柴。") == []
    assert place_hints("玉兰在汉口，一封信也没寄来。陆文清添了一把柴。") == []
