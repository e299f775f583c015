"""The new-name check, stop 64 (task n39). Two readings of Chinese prose:

- a trade or a field of knowledge before an institution's word is a kind of institution, not one named
  (:func:`_field_word`);
- an office's word before a full name is the title the person holds, in apposition, no part of the name: 局长王明 is 王明
  (:func:`_office_led`).

A Chinese institution named by what it does (兽医研究所, an institute of veterinary medicine; 海事学院, a maritime
college) is the common noun for any such institution; a named one carries an image, a coined word, a place or a number
that picks it out (星河资本, 长春宫, 第七研究所). The dictionary tells a field's word: it joins it to the word of a
government bureau (畜牧 → 畜牧局, 水文 → 水文局, 税务 → 税务局, :data:`FIELD_OFFICES`), which no image and no
coined word is (a hall, a station, a system are not: 咖啡厅, 空间站, 银河系 — r64-R).

The sentences are made up for these tests; none is a labelled answer of any set, the fields (畜牧, 水文, 税务) are none of
the development sets' false names and the offices (所长, 典狱官) and names none of their titles or people."""

from __future__ import annotations

from lw_storyrepo.propernouns import FIELD_OFFICES, OFFICE_ENDS, _field_word, _office_led, find_new_nouns, lexicon


def _found(text: str, known: tuple[str, ...] = ()) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, list(known))}


def test_a_field_and_an_institutions_word_is_a_kind_of_institution() -> None:
    """A college of animal husbandry, a hydrology institute, a tax school: what they teach or study, none named."""
    assert "畜牧学院" not in _found("她去年从畜牧学院毕业，分到了草场上。")
    assert "水文研究所" not in _found("他在水文研究所干了十年，后来调回县里。")
    assert "税务学校" not in _found("舅舅托人进了税务学校，毕业就分了工作。")


def test_a_field_word_is_one_the_dictionary_joins_to_an_office() -> None:
    """畜牧局, 水文局, 税务局 are dictionary words; a coined stem, a place and a number have no office of a field, and an
    image the dictionary joins to a hall, a station or a system (银河系, 咖啡厅, 空间站) is none either (r64-R)."""
    lex = lexicon()
    assert set(FIELD_OFFICES) == set("局处")
    assert not _field_word(lex, "银河") and not _field_word(lex, "咖啡") and not _field_word(lex, "空间")
    assert _field_word(lex, "畜牧") and _field_word(lex, "水文") and _field_word(lex, "税务")
    assert not _field_word(lex, "云帆")  # no dictionary word: an image, a name's stem
    assert not _field_word(lex, "长春")  # a city is tagged a place: no field
    assert not _field_word(lex, "第三")  # a number picks one of many


def test_a_coined_stem_a_place_and_a_number_still_name_one() -> None:
    """Near misses: 云帆学院 (a coined stem said twice), 长春宫 (a place's name makes another's), 第三研究所 (numbered)."""
    assert _found("她去年从云帆学院毕业。\n云帆学院在江边。").get("云帆学院") == "组织"
    assert "长春宫" in _found("长春宫的大门开了。\n他走进长春宫。")
    assert _found("他进了第三研究所。\n第三研究所的门口站着哨兵。").get("第三研究所") == "组织"


def test_a_title_before_a_full_name_is_no_part_of_it() -> None:
    """所长+韩砚秋, 典狱官+钟岳棠: the person is new under the name alone; known, nothing is new."""
    text = "所长韩砚秋是新调来的，头一天就把库房翻了个遍。\n门口的牌子上写着“所长韩砚秋”。"
    assert _found(text) == {"韩砚秋": "人物"}
    assert _found(text, ("韩砚秋",)) == {}
    text = "典狱官钟岳棠坐在堂上。\n典狱官钟岳棠一拍桌子。"
    assert "钟岳棠" in _found(text) and not any(name.endswith("官钟岳棠") for name in _found(text))
    assert _found(text, ("钟岳棠",)) == {}


def test_an_office_and_what_is_no_name_after_it_stay_as_they_are() -> None:
    """Near misses: 班长+方才 (an adverb), 队长+方便 (an adjective), 司长青 (a surname, not an office, opens it)."""
    lex = lexicon()
    assert set(OFFICE_ENDS) == set("长官")
    assert _office_led(lex, "所长韩砚秋") == "韩砚秋"
    assert _office_led(lex, "班长方才") == "班长方才"
    assert _office_led(lex, "队长方便") == "队长方便"
    assert _office_led(lex, "司长青") == "司长青"
    assert _found("班长方才说过，明天一早就出发。\n班长方才走了。") == {}



def test_an_image_an_office_never_names_still_names_one() -> None:
    """r64-R: 银河 is a word of the dictionary only as 银河系, a system, not a bureau: 银河公司 is a company's name."""
    assert _found("他在银河公司当保安。银河公司的大楼是这条街最高的。").get("银河公司") == "组织"
