"""The new-name check, thirty-first round (task N31, stop 57). Precision: a doorway or a part of a door after a building's
word (茶棚+门口, 铺子+门脸) is read by every reader of a stem and a suffix as the door, no place called ...门
(:data:`SUFFIX_AS_WORD`, now honoured by the recurring reader too); an adjective's reduplicated end (黑洞+洞, ABB) is no
name's suffix; a place of the dictionary right before a firm's brand opens the firm's registered name (place, brand,
trade, kind), so the brand and trade alone are not read as a second, cut name. Recall: a reef, a rock face and a spit
of land (礁, 岩, 嘴: :data:`LANDFORM_HEADS`) name a place on their own, as 滩 and 崖 do; 岩 after a surname's character
is a given name first (:data:`GIVEN_NAME_HEADS`), 嘴 after a verb said twice is the verb's object (努努嘴); a landform
before another place's word is read with it whole (…嘴+码头). The sentences are made up for these tests, in other
genres and periods than the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import GIVEN_NAME_HEADS, LANDFORM_HEADS, SUFFIX_AS_WORD, find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_doorway_said_twice_is_no_place() -> None:
    """A 1920s market town and a 1970s army farm: the doorway of a shed, a stall or a company office said again and
    again is the prose's 门口, not a place called 茶棚门."""
    assert {"门口", "门前", "门脸", "门槛"} <= SUFFIX_AS_WORD
    found = _found("赶集那天，茶棚门口挤满了人。\n晌午过后，茶棚门口又来了两个挑担的。\n傍晚，他还蹲在茶棚门前抽烟。")
    assert not any(name.endswith("门") for name in found)
    found = _found("连部门口贴了一张告示。\n第二天连部门口又多了一块黑板。")
    assert not any(name.endswith("门") for name in found)


def test_a_sect_called_men_is_still_a_name() -> None:
    """Near miss: a sect's name ending in 门, said where no door word follows, is still read."""
    found = _found("青霄门的弟子下了山。\n青霄门的长老说，此事青霄门管定了。")
    assert "青霄门" in found


def test_a_reduplicated_adjective_is_no_name() -> None:
    """A haunted-house story and a village tale: ABB adjectives whose last character is a place suffix (洞, 堂)."""
    found = _found("他推开门，屋里黑洞洞的，什么也看不见。\n地窖里也黑洞洞的，一股霉味。\n外头的院子亮堂堂的。")
    assert not (found & {"黑洞洞", "亮堂堂"})


def test_a_reef_a_rock_and_a_spit_name_places() -> None:
    """A 1960s fishing island, a mountain guerrilla story, a river ferry: a stem and 礁, 岩 or 嘴 is a place."""
    assert {"礁", "岩", "嘴"} <= set(LANDFORM_HEADS)
    assert "破船礁" in _found("天没亮，渔船就绕过了破船礁。\n破船礁那边浪大，老舵工不让靠。")
    assert "猫头岩" in _found("游击队在猫头岩下歇脚。\n猫头岩上站着放哨的人。")
    assert "老鹳嘴" in _found("渡船从老鹳嘴开出去。\n老鹳嘴的水急，船老大不敢大意。")


def test_a_landform_before_a_place_word_is_read_whole() -> None:
    """A river port and a dig: the landform's name opens the pier's and the site's, read as one name (the landform
    alone would be a part of it, the stem an everyday word the longer reader refuses)."""
    assert "黄沙嘴码头" in _found("货船靠上了黄沙嘴码头。\n黄沙嘴码头上堆满了麻包。")
    assert "石桥坞遗址" in _found("考古队挖开了石桥坞遗址。\n石桥坞遗址里出了不少陶片。")


def test_a_given_name_and_a_pout_are_no_places() -> None:
    """Near misses: 岩 ending someone's name after a surname's character (田青岩 speaks), and 嘴 after a verb said
    twice (努努嘴, 撇撇嘴)."""
    assert "岩" in GIVEN_NAME_HEADS
    found = _found("田青岩说：“明天再去。”\n田青岩点了点头。")
    assert not any(name.endswith("岩") and name != "田青岩" for name in found)
    found = _found("她朝窗外努努嘴，没说话。\n他撇撇嘴，转身走了。\n小妹也朝门口努努嘴。")
    assert not any(name.endswith("嘴") for name in found)


def test_a_firm_s_registered_name_opens_with_its_place() -> None:
    """A 2010s office story: the city before the brand is part of the firm's registered name; the brand, trade and
    kind alone are not read as another name."""
    found = _found("她后来进了杭州星岚网络科技有限公司，做了三年运营。")
    assert "杭州星岚网络科技有限公司" in found
    assert "星岚网络科技有限公司" not in found


def test_the_countryside_of_a_town_is_no_township() -> None:
    """A 1950s family saga: 乡下 after a town's name is its countryside (乡下人), not a township called ...乡; a
    township's own name is still read."""
    assert "乡下" in SUFFIX_AS_WORD
    found = _found("她娘是湖州乡下人，十五岁进城做工。\n湖州乡下的亲戚每年送两回米来。")
    assert not any(name.endswith("乡") for name in found)
    assert "芦湾乡" in _found("他被分到芦湾乡当文书。\n芦湾乡离县城四十里。")
