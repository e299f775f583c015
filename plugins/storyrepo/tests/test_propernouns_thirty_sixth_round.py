"""The new-name check, thirty-sixth round (task N36, stop 61).

- a lane or a dwelling compound named ``X里`` (:func:`_lane_candidates`): right after a word of place (在, 住, 到, 进,
  出, 离开 …), two characters that are no everyday word of the dictionary and both read as a given name's
  (:data:`LANE_GIVEN`: lanes are named as shops and children are, with words of virtue and fortune), then 里 — the lane,
  not "inside X". An everyday word (院子里, 梧桐里), a word for a space or a container however coined (识海里:
  :data:`LANE_STEM_END_BAD`) and a coined word for a nook (桌缝里) stay inside things; 里面, 里头 go on as a localizer;
- a number and 号 after a lane's name is a house's address in it, no vehicle's name (:data:`HOUSE_STEM_ENDS`);
- a verb of the dictionary and its result or its preposition (成, 于, 为, 作: :data:`RESULT_ENDS`) before a place's or a
  thing's suffix is a clause, no name's stem (熬成+汤, 葬于+山: :func:`_verb_and_result`); a stem that opens on no verb
  (德成+号) is one.

The sentences are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (HOUSE_STEM_ENDS, LANE_GIVEN, RESULT_ENDS, _lane_candidates, _verb_and_result,
                                      find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


# a lane named X里

def test_a_lane_said_after_a_verb_of_living_is_found_whole() -> None:
    """宝善 is no dictionary word; 住进 puts someone in it: the lane is 宝善里 (the stem alone was read before), and its
    house number is the address, no second name."""
    text = ("那年秋天，阿娣跟着姨妈住进了宝善里。\n宝善里是一条窄窄的弄堂，两排青砖房子面对面。\n"
            "姨妈家在宝善里九号，楼下是一家裁缝铺。")
    found = _found(text)
    assert "宝善里" in found
    assert "宝善" not in found and "宝善里九号" not in found


def test_a_lane_left_or_walked_out_of_is_found() -> None:
    """走出 and 离开, verbs of leaving, before a name-like pair of characters and 里."""
    assert "瑞康里" in _found("他把信揣进怀里，走出了瑞康里，一直走到江边。\n瑞康里的孩子都认得他。")
    assert "桂馨里" in _found("搬家那天，她离开了桂馨里，再没回去过。")


def test_a_lane_reading_needs_a_word_of_place_before_it() -> None:
    """The reader yields 兴仁里 after 住在; nothing for 心里 (one character) or 被窝里 (an everyday word)."""
    lex = lexicon()
    assert list(_lane_candidates(lex, "他住在兴仁里，天天去码头。")) == [("兴仁里", 3)]
    assert list(_lane_candidates(lex, "他在心里想，又躲进被窝里。")) == []


def test_inside_a_thing_is_no_lane() -> None:
    """Near misses: an everyday word (院子, 梧桐), a coined space (识海: 海 a space's word), a coined nook (桌缝: 缝 reads as
    no given name's character) and 里面 (the localizer going on) are inside something."""
    text = "她在院子里晒被子，又在识海里默念口诀，把手伸进桌缝里摸那枚铜钱，在梧桐里住了三年。"
    assert not {w for w in _found(text) if w.endswith("里")}
    assert "宝善里" not in _found("老周住在宝善里面的一间小屋。")
    assert min(map(lexicon().given, "桌缝")) < LANE_GIVEN <= min(map(lexicon().given, "宝善"))


def test_a_house_number_after_a_lane_is_an_address() -> None:
    """德润里十七号 on an envelope, 宝善里十二号 where someone lives: the door in the lane, never a named vehicle."""
    assert set("里弄") <= HOUSE_STEM_ENDS
    assert "德润里十七号" not in _found("信封上写着：上海德润里十七号收。")
    assert "宝善里十二号" not in _found("他住在宝善里十二号的亭子间，每天很晚才回家。")


# a verb and its result before a suffix

def test_a_verb_and_its_result_before_a_suffix_is_a_clause() -> None:
    """熬成汤 (a soup boiled down) and 葬于山 (buried on a hill): the verb's object made or the place it happened, no
    named soup or hill."""
    assert "熬成汤" not in _found("她把采来的草药熬成汤，端给阿婆。")
    assert "葬于山" not in _found("老将军战死沙场，葬于山，墓前无碑。")
    lex = lexicon()
    assert _verb_and_result(lex, "熬成") and _verb_and_result(lex, "葬于") and _verb_and_result(lex, "划成")
    assert "成" in RESULT_ENDS and "于" in RESULT_ENDS


def test_a_stem_that_opens_on_no_verb_stays_a_name() -> None:
    """Near miss: 德成号, 天成号 — 成 after a word of virtue or heaven, the way shops are named."""
    lex = lexicon()
    assert not _verb_and_result(lex, "德成") and not _verb_and_result(lex, "天成")
    assert "德成号" in _found("德成号的伙计来了。\n德成号在西街口。")
    assert "天成号" in _found("这家铺子叫天成号，天成号的老板姓孙。")
