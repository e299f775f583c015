"""Stop 59 review fixes of the thirty-fourth names round (fn34): the reviewer's counter-examples stay silent (or keep
the full name), and the round's own readings still hold."""
from lw_storyrepo.propernouns import find_new_nouns

KNOWN = ["王铁柱", "铁柱", "李秀兰", "秀兰"]


def _found(body: str) -> list[tuple[str, str]]:
    return [(n.name, n.kind) for n in find_new_nouns(body, KNOWN)]


def test_a_surname_that_is_a_preposition_stays_on_a_three_character_name() -> None:
    for body in ("向大勇推门进来，把帽子一摘。向大勇说：“铁柱，走。”铁柱跟着他出了门。",
                 "铁柱去找向大勇。向大勇说：“走。”",
                 "铁柱给向大勇递了根烟。向大勇摆摆手说不抽。"):
        assert _found(body) == [("向大勇", "人物")], body


def test_a_thing_made_by_someone_in_a_cleft_is_no_person() -> None:
    assert _found("江米糕是秀兰蒸的。铁柱吃了一块。") == []
    assert _found("花布衫是秀兰做的。铁柱穿上了。") == []


def test_a_cleft_of_when_someone_came_still_introduces_them() -> None:
    assert ("齐春生", "人物") in _found("齐春生是腊月初三进的城。铁柱见过他。齐春生说：“走。”")


def test_an_ordinal_feature_after_a_demonstrative_or_a_place_word_is_a_count() -> None:
    assert _found("铁柱蹲在地头抽烟。这三道沟都是他一锹一锹挖出来的。秀兰送饭来了。") == []
    assert _found("铁柱在地里挖了一下午。那三道沟一直通到河边。秀兰说那三道沟挖得直。") == []
    assert _found("老汉的额头上三道沟，一笑就挤到一块儿。铁柱看着他。") == []


def test_an_ordinal_place_gone_to_is_still_a_place() -> None:
    assert _found("铁柱调去三道沟当会计。三道沟离县城四十里。") == [("三道沟", "地点")]


def test_a_dictionary_word_of_a_trade_never_splits_into_a_shop() -> None:
    body = "铁柱说：“明天去县城，大家同意不同意？”秀兰说：“行，大家同行。”铁柱点点头。铁柱又说大家同意就好。"
    assert _found(body) == []
