"""The new-name check, thirtieth round (task N30, stop 56): an organisation whose head the dictionary holds glued to its
trade in one word (勘测队, 医疗队, 宣传队, 乐队, 骑士团, 观光团). 队 and 团 join 厂 in :data:`HEADS_IN_WORDS`: the chained
reader (:func:`_chained_institution_candidates`) reads such a word from its start, then the stem and trade words before
it as for any head, so a place's or a coined stem and the team's word are one name, not the stem read alone or the
kind's word read as the name. The stem keeps every bound of the reader: no act, no common noun, no frequent word (日本
旅游团, 全队, 组队 stay unnamed). Precision: a thing's or a building's word of the dictionary that the tagger calls a
person's name (nr), its first part an everyday word (宿舍+楼, 显微+镜, 石板+桥: :func:`_misread_thing`), is the thing,
not a name; a proper or rare first part still opens one (白云+庵, 夜明+珠). Recall: a rise, a flat, a hollow, a valley or
a walled yard of the land (岗, 坪, 坳, 峪, 坞: :data:`LANDFORM_HEADS`) names a place on its own, as 岭 and 坡 did, unless
another place's word follows it (石门岗+遗址). The sentences are made up for these tests, in other genres and periods than the sets';
none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (CHAIN_HEADS, DEPARTMENT_IN_WORDS, HEADS_IN_WORDS, LANDFORM_HEADS, MISREAD_STEM_FREQ, TRADE_NEEDED,
                                     _chained_institution_candidates, _misread_thing, find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_team_whose_word_holds_its_trade_is_one_name() -> None:
    """A 1950s geological survey, a 1930s dance band, a 1980s rural film team: a place's or a coined stem before one
    dictionary word for the team and its trade is the team's name."""
    assert {"队", "团"} <= HEADS_IN_WORDS.keys() and "团" in CHAIN_HEADS and "团" in TRADE_NEEDED
    found = _found("一九五六年春天，沙坪勘测队进了山，沙坪勘测队的帐篷扎在河边。")
    assert "沙坪勘测队" in found and "沙坪" not in found
    assert "岚江医疗队" in _found("洪水退了以后，岚江医疗队在村口搭起了棚子，岚江医疗队的大夫挨家看病。")
    assert "霁川放映队" in _found("那年冬天，霁川放映队每月来村里一回，霁川放映队一来，晒谷场就挤满了人。")


def test_a_troupe_in_one_word_is_one_name() -> None:
    """A knight order of a western fantasy and a touring troupe: 团 inside one word (骑士团, 杂耍团)."""
    assert "澜溪骑士团" in _found("王都北面驻着澜溪骑士团，澜溪骑士团的旗子是一只白鹭。")
    assert "青弋杂耍团" in _found("庙会那天来了青弋杂耍团，青弋杂耍团的猴子会翻跟头。")


def test_a_kind_of_team_stays_unnamed() -> None:
    """Near misses: a country's tour group (日本+旅游团: a frequent word, the kind), the whole team (全队), forming a team
    (组队), the kind's word alone (医疗队), a team of two characters (团队)."""
    assert _found("去年来了一个日本旅游团，日本旅游团在寺里待了半天。") == set()
    assert _found("比赛输了，全队都没说话，第二天又组队去练。") == set()
    assert _found("镇上来了医疗队，医疗队的人都很年轻。") == set()
    assert "双桥团队" not in _found("比赛那天，双桥团队来晚了，双桥团队只剩三个人。")  # 团队: a two-character kind


def test_a_city_s_team_is_its_department() -> None:
    """A 1990s crime story: a city's name before a team's word (刑警队) is the city's department, not a body the chained
    reader names (other readers weigh the whole phrase as before); a county's survey team likewise."""
    assert "队" in DEPARTMENT_IN_WORDS and HEADS_IN_WORDS["队"] == 3
    lex = lexicon()
    for line in ("案子报到了沅陵市刑警队，连夜派了人。", "他在岚县勘测队干了三年。"):
        assert list(_chained_institution_candidates(lex, line, lex.boundaries(line, None, lex.cuts_of(line)))) == []


def test_an_everyday_thing_the_tagger_calls_someone_is_no_name() -> None:
    """A campus novel, a laboratory in a science-fiction story, a river crossing in a rural tale: the dictionary's word
    for a building, an instrument or a bridge, its first part an everyday word, is no new name."""
    lex = lexicon()
    assert MISREAD_STEM_FREQ == 50 and _misread_thing(lex, "宿舍楼") and _misread_thing(lex, "显微镜")
    assert _found("期末考试前一晚，宿舍楼停了电。他摸黑下楼，宿舍楼门口的保安也不在。") == set()
    assert _found("实验室里只有一台显微镜。师姐把显微镜让给了他，自己去洗玻片。") == set()
    assert _found("过了河就是木板桥，木板桥那头住着一个老船工。") == set()


def test_a_name_with_a_proper_or_rare_first_part_stays() -> None:
    """Near misses: a nunnery named by a proper first part (白云+庵), a jewel of a fairy tale (夜明+珠: 夜明 is rare)."""
    lex = lexicon()
    assert not _misread_thing(lex, "白云庵") and not _misread_thing(lex, "夜明珠")
    assert "白云庵" in _found("师父带他上了白云庵，白云庵的老尼姑给他端来一碗粥。")
    assert "夜明珠" in _found("海盗抢走了夜明珠，夜明珠是国王给公主的嫁妆。")


def test_a_landform_names_a_place() -> None:
    """A Red Army march, a 1940s guerrilla camp, a tea hill of a family saga: a stem and a landform's word."""
    assert {"岗", "坪", "峪", "坞"} <= set(LANDFORM_HEADS)
    assert "野狐岗" in _found("红军翻过了野狐岗，在野狐岗下面歇了一夜。")
    assert "鹰嘴峪" in _found("小分队在鹰嘴峪扎营，鹰嘴峪两边都是悬崖。")
    assert "云雾坪" in _found("他们把茶苗种在云雾坪上，云雾坪的茶最香。")


def test_a_landform_word_of_a_post_or_of_a_longer_place_is_no_name() -> None:
    """Near misses: 岗 the post one stands (站岗) and a hillock of no name (山岗); a landform opening a site's name
    (马家岗+遗址: the site is the name, not 马家岗); a ship's dock (船坞)."""
    assert _found("老汉退休以前一直在厂门口站岗，山岗上的风很大。") == set()
    found = _found("考古队进了马家岗遗址，马家岗遗址在县城北边。")
    assert "马家岗" not in found
    assert _found("渔船修好了，从船坞里开出来，船坞的工人都鼓掌。") == set()
