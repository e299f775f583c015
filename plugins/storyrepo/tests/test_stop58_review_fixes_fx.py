"""Stop 58, second outside reader's findings on C1's, L2's and N33's rounds, narrowed (fx).

C1: a household well or a pothole (从井里打水, 到井上挑水, 踩进了坑里) is not the contract's shaft or pit; only its mouth
(井口) or going down into it (下了坑) is. L2: a run of lone quotes after a letter that closes on a name answering a
question (还能有谁？冬梅。) or runs long is a dialogue, not the letter. N33: a town of the book's own named with a common
word (永安城, 太平县) is a new name, though the dictionary knows a real place of that name. The sentences are the
reviewer's own."""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import ERROR
from lw_storyrepo.propernouns import find_new_nouns

from test_contract_eighth_round import _site_found
from test_leaks_eighth_round import _speakers


@pytest.mark.parametrize("line, place, body", [
    ("韩老六在白卤井守卤", "白卤井", "韩老六在县城家里，从井里打了桶水，洗了把脸就睡了。"),
    ("韩老六在白卤井守卤", "白卤井", "韩老六在县城里，挑着水桶出了门，到井上挑水。"),
    ("何二一个人下黑沟坑", "黑沟坑", "何二在县城的街上走，一脚踩进了坑里，鞋全湿了。"),
])
def test_a_household_well_or_a_pothole_is_no_work_site(line: str, place: str, body: str) -> None:
    found = _site_found(line, body)
    assert any(f"提到「{place}」" in f.message and f.severity == ERROR for f in found), found


@pytest.mark.parametrize("line, place, body", [
    ("韩老六在白卤井守卤", "白卤井", "天刚亮，韩老六蹲在井口，看着卤水一桶一桶往上绞。"),
    ("何二一个人下黑沟坑", "黑沟坑", "何二把矿灯拧亮，咬咬牙下了坑。巷道里滴着水，他一步一步往里挪。"),
])
def test_a_shaft_by_its_mouth_or_gone_down_into_is_there(line: str, place: str, body: str) -> None:
    assert not any(f"提到「{place}」" in f.message for f in _site_found(line, body))


ASKED = ("信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好，娘的腿也消肿了。”\n\n“后山那口废井，我前天下去过。”\n\n"
         "“这信是谁写的？”\n\n“还能有谁？冬梅。”\n\n老周点点头。")


@pytest.mark.parametrize("words", ["后山那口废井，我前天下去过。", "这信是谁写的？", "还能有谁？冬梅。"])
def test_a_name_answering_a_question_closes_no_letter(words: str) -> None:
    said = _speakers(ASKED, ["林冬生", "周铁山"], "林冬生")
    assert said["冬生：家里都好，娘的腿也消肿了。"] == "林冬梅"
    assert said.get(words) != "林冬梅"


def test_a_long_run_of_lone_quotes_is_no_letter() -> None:
    body = ("信客捎来一封冬梅的信。冬生把信拆开，念：\n\n“冬生：家里都好。”\n\n" + "\n\n".join(["“嗯。”", "“你说。”"] * 4)
            + "\n\n“莫下去。姐。”")
    assert _speakers(body, ["林冬生", "周铁山"], "林冬生").get("莫下去。姐。") != "林冬梅"


@pytest.mark.parametrize("town", ["永安城", "安宁城", "太平县", "龙门县"])
def test_a_town_named_with_a_common_word_is_the_books_own(town: str) -> None:
    body = f"众人赶了三天路，终于到了{town}。{town}的城门高大，守卫森严。他们在{town}住了一夜。"
    assert town in {n.name for n in find_new_nouns(body, set())}


@pytest.mark.parametrize("town", ["扬州城", "莱阳县", "昆山县", "苏州城"])
def test_a_real_city_is_still_the_real_one(town: str) -> None:
    body = f"众人赶了三天路，终于到了{town}。{town}的城门高大，守卫森严。他们在{town}住了一夜。"
    assert town not in {n.name for n in find_new_nouns(body, set())}
