"""R57's review of stop 57 (issue 30), fixer ft6: F8 (T6's ``_going_on_day``) and F11 (N31's 乡下 row).

F8: the going word of a 是…的 clause after a day must be a going in its sense — a death or mishap word as the clause's
last telling (压在老巷里的, 叫水卷走的, 落的水), 走/没 closed by 了 or 的 (那天走的, 那年没了), or a stressed going-into
followed by 再也没出来 — never 走 the walk or 没 the "not". The counter-examples are the reviewer's own sentences, on
T6's reservoir book (the father dead 一九五七年六月十一日, a day before which he was alive).

F11: 乡下 (the countryside) is a word, but 乡 + 下辖/下属/下设/下面 is a township's own sentence.
"""

from __future__ import annotations

import test_continuity_time_and_state_six as six

from lw_storyrepo import propernouns


def test_a_remembered_day_of_the_dead_alive_is_no_going() -> None:
    for line in ("去年三月十四日，春生考上了县中，爹是走着送他去的。",
                 "去年三月十四日，春生去公社开会，爹是没去的。",
                 "去年三月十四日，春生订了亲，爹也是高兴得一宿没睡的。",
                 "去年三月十四日，春生过十八岁生日，爹是摸黑走了三十里山路赶回来的。",
                 "去年三月十四日那天，导流洞塌了一角，爹是最先压在底下的那几个人里头唯一爬出来的。"):
        assert not six.dam(line), line


def test_a_going_told_in_its_sense_still_fires() -> None:
    assert six.dam("去年六月十四日夜里，爹就是在这个导流洞里没的。")
    assert six.dam("去年六月十四日夜里，爹就是那天走的。")
    assert six.dam("春生想着那天的事：爹是六月十四日那天后半夜压在洞里的，三天后才挖出来。")
    assert six.dam("去年六月十四日夜里，爹就是叫水卷走的。")
    # a stressed going-into and the clause that he never came back
    assert six.dam("那场暴雨是去年六月十四日下半夜下起来的，爹就是那天走进导流洞，再也没出来。")
    # a going-into he came back from is none
    assert not six.dam("那场暴雨是去年六月十四日下半夜下起来的，爹就是那天走进导流洞，天亮才出来。")


def _found(text: str) -> set[str]:
    return {noun.name for noun in propernouns.find_new_nouns(text, ())}


def test_a_township_that_administers_is_still_a_township() -> None:
    assert "红旗乡" in _found("一九六二年春天，红旗乡下辖十二个生产队，乡政府就设在一座旧祠堂里。"
                              "红旗乡下辖的生产队里，数柳树湾最穷。")
    assert "红旗乡" in _found("红旗乡下属的几个大队都缺水。\n红旗乡下面有个水库，红旗乡下设三个管区。")
    # the countryside of a town stays no township, the line's end too
    assert not any(name.endswith("乡") for name in _found("她娘是湖州乡下人，十五岁进城做工。\n湖州乡下的亲戚每年送两回米来。\n回了湖州乡下"))
    assert not propernouns._suffix_as_word("红旗乡下辖", 2, 3) and propernouns._suffix_as_word("湖州乡下", 2, 3)
