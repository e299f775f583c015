"""Holdings as facts, fourth round (issue 30, H5 at stop 53): a description between the act and the thing.

A use verb (掏出, 解下, 拿起) may be followed by a bounded description before the known thing: that/this/one and a
measure word, a 的-phrase (a relative clause, a short quoted inscription) and a few words of looks — 掏出那把他爹传下来的
旧铜烟袋. Read as a use of the thing when the description holds no clause end, no person's name (老周的: whose it is),
no verb of giving (送的, 借来的) and no seeing or saying. The thing only looked at stays silent, and so does the thing its
holder hands over first.

Written in genres and periods of our own (a lighthouse, a Tang post station, a school lab), not the labelled drafts' words.
"""

from __future__ import annotations

import continuity_helpers


def _held(body: str, viewpoint: str = "阿满") -> list[str]:
    return [f.message for f in continuity_helpers.three_holders(body, "灯塔", viewpoint) if "的持有里没有" in f.message]


def test_a_use_across_a_description_fires() -> None:
    assert any("阿满" in m and "煤油灯" in m
               for m in _held("天黑得早，阿满解下斜挂在塔梯扶手上的那盏旧煤油灯，擦着了火柴。"))
    assert any("苏禾" in m and "驿符" in m
               for m in _held("苏禾从怀里掏出那枚刻着“急递”两个字的铜驿符，往案上一拍。"))
    assert any("老周" in m and "秒表" in m
               for m in _held("老周拿起那只表壳磨得发白、指针有点歪的秒表，按了一下。"))
    # a clause naming nobody, after one led by a name: the sentence's subject uses it
    assert any("苏禾" in m and "煤油灯" in m
               for m in _held("下课铃响了，苏禾拉开讲台的抽屉，取出那盏灯罩上贴着“实验专用”的煤油灯，擦了擦。"))


def test_another_owner_or_a_look_stays_silent() -> None:
    # whose it is said in the description: the holder hands it over first — in the scene's hands
    assert _held("老周把煤油灯递了过来。阿满掏出那盏老周用了十年的煤油灯，照了照门口。") == []
    # a description holding a name or a giving: not read as the user's own act
    assert _held("阿满拿出那盏老周借给她的煤油灯，照了照门口。") == []
    # only looked at
    assert _held("阿满看着挂在墙上的那盏旧煤油灯，半天没说话。") == []


def test_the_short_reading_is_unchanged() -> None:
    assert any("阿满" in m and "秒表" in m for m in _held("阿满掏出一只秒表，按了一下。"))
