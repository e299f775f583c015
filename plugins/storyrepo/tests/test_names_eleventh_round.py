"""The new-name check, eleventh round (task N11): two faults a new author met, fixed as classes.
The forms here are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _kinds(text: str) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, [])}


def test_a_word_for_a_relative_before_a_surname_led_name_said_once() -> None:
    """姑母韩素, 叔父钱默: a dictionary word for a relative (two kinship characters), then a surname
    and a given name, said once; the kin word before an ordinary word (姑母来信) names nobody."""
    found = _kinds("他想起远在杭州的姑母韩素，眼眶一热。\n他把事情告诉了叔父钱默。\n姑母来信了，说一切都好。")
    assert found.get("韩素") == "人物" and found.get("钱默") == "人物"
    assert not {"姑母", "姑母来信", "来信"} & set(found)


def test_a_person_introduced_by_name_though_the_name_ends_like_a_landform() -> None:
    """那汉子叫焦远峰, 领头的名叫鲍青川: a surname and a given name after 叫 are a person even when the
    last character is a mountain's or a river's; 这山叫石门山, 那地方叫吴家河 stay places."""
    found = _kinds("那汉子叫焦远峰，是个猎户。\n领头的名叫鲍青川，脸上有疤。\n这山叫石门山，山上有座庙。\n那地方叫吴家河。")
    assert found.get("焦远峰") == "人物" and found.get("鲍青川") == "人物"
    assert found.get("石门山") == "地点" and found.get("吴家河") == "地点"


def test_a_name_read_out_after_a_colon_or_defined_by_the_sentence_it_opens() -> None:
    """烫金的字：望海书局。 — what a sign says after a colon, the whole sentence, counted or not; a headline with a
    verb (码头血案再起波澜) or a date is none. 青鸾卫是朝廷暗中设下的衙门。 — a word the dictionary lacks, said
    again, opening a sentence that says what it is; a place word (桌面上是…的) is none."""
    text = ("门楣上是五个烫金的字：望海书局。\n报纸头版写着：码头血案再起波澜。\n碑上刻着：光绪十三年立。\n"
            "青鸾卫是朝廷暗中设下的衙门。那晚青鸾卫的人来了。\n桌面上是一层厚厚的灰。桌面上什么也没有。")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"望海书局", "青鸾卫"} <= found
    assert not {"码头血案再起波澜", "光绪十三年立", "桌面上", "桌面"} & found
