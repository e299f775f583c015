"""The new-name check, twenty-fourth round (task N24): a surname and a given name said once, with no naming verb, read
whole when the words around it say a person is named — a word for someone right before it (:data:`PEOPLE_BY_ROLE`:
what one owns, does, holds or is to another: 摊主, 编辑, 政委, 对象; a pronoun and a one-character kin word: 她哥) or an
office or an honorific right after it (:data:`AFTER_NAME`: 政委, 副局长, 同志); and a settlement named by a word, a
feature of the land and a settlement's kind word (:data:`SETTLEMENT_FEATURES`: 苇子+坑+村, 白鹭+塘+村). The sentences are made up for these
tests, in other genres and periods than the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (AFTER_NAME, FEATURE_CHARS, HONORIFIC_TITLES, OFFICE_TITLES, PEOPLE_BY_ROLE, PEOPLE_WORDS,
                                     ROLE_TITLES, SETTLEMENTS, STOP, find_new_nouns)


def _found(text: str, known: tuple[str, ...] = ()) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, list(known))}


def test_a_word_for_someone_by_role_before_a_full_name_said_once() -> None:
    """A shop owner in a Song-dynasty market, an editor of a 1980s magazine, a fiancé in a city romance: each said once,
    after a word of the role table, is someone."""
    assert _found("汴河边上的糖水铺，店主韩秀兰一早就生了火。").get("韩秀兰") == "人物"
    assert _found("那年秋天，杂志社的编辑尹立群给他回了一封长信。").get("尹立群") == "人物"
    assert _found("周末，她对象聂文博开车来接她去看电影。").get("聂文博") == "人物"


def test_a_kin_word_after_a_pronoun_before_a_full_name() -> None:
    """她哥, 我妈: a pronoun and a one-character kin word name the relative next (a letter from home, a village tale)."""
    assert _found("过了年，我妈魏淑芬又托人捎来两罐咸菜。").get("魏淑芬") == "人物"


def test_an_office_or_honorific_after_a_full_name_said_once() -> None:
    """An office or an honorific after a surname and a given name (a wartime report, a county meeting, a hospital)."""
    assert _found("会上，彭国栋政委把地图摊在桌上，一句话没说。").get("彭国栋") == "人物"
    assert _found("第二天一早，县里的邵春生副局长就到了工地。").get("邵春生") == "人物"
    assert _found("兹有我厂职工贺明辉同志前往贵处联系业务。").get("贺明辉") == "人物"


def test_a_role_word_or_an_office_beside_no_name_names_nobody() -> None:
    """Near misses: a role word before a word that is no surname and given name (店主+自己, 编辑+部里), and an office
    after a dictionary word or a surname with characters no given name has (全体+同志, 石板路+主任 is no one)."""
    found = _found("店主自己也说不清。\n编辑部里只剩两个人。\n全体同志都到了。\n石板路主任说要修。")
    assert not {"店主自己", "自己也", "部里只", "全体同", "石板路"} & set(found)


def test_the_tables_are_rows_of_general_words() -> None:
    """Every row holds words for someone, no word twice across rows; every office is said after a name too."""
    rows = [w for row in PEOPLE_BY_ROLE.values() for w in row]
    assert len(rows) == len(set(rows)) == len(PEOPLE_WORDS)
    assert set(PEOPLE_BY_ROLE["office"]) <= AFTER_NAME


def test_the_office_and_honorific_words_are_one_table() -> None:
    """R51 finding 2: the office row and AFTER_NAME repeated about 27 words of ROLE_TITLES, and 当家, 老板, 老板娘 of STOP.
    The offices and honorifics of ROLE_TITLES are written once (OFFICE_TITLES, HONORIFIC_TITLES); the rows add only
    the words ROLE_TITLES lacks, and no row repeats a word STOP already holds."""
    assert not PEOPLE_WORDS & STOP
    assert set(PEOPLE_BY_ROLE["office"]) & set(ROLE_TITLES) == set(OFFICE_TITLES)
    assert AFTER_NAME & set(ROLE_TITLES) == set(OFFICE_TITLES) | set(HONORIFIC_TITLES)


def test_a_word_a_feature_and_a_settlements_kind_name_a_settlement_said_once() -> None:
    """A word, a feature of the land and a settlement's kind word name one settlement said once: a wartime march, a
    land reform record, a present-day delivery round."""
    assert _found("部队连夜开进了柳条沟村，天亮前架好了电台。").get("柳条沟村") == "地点"
    assert _found("一九五一年，工作组在黄泥坝村分了地。").get("黄泥坝村") == "地点"
    assert _found("快递车开到荷叶塘镇，已经是下午四点。").get("荷叶塘镇") == "地点"


def test_the_feature_said_alone_is_the_name_and_the_kind_is_said_of_it() -> None:
    """Where the text says the word and the feature alone more than with the kind (槐树坡 … 槐树坡村里), they are the
    name."""
    found = _found("他从小在槐树坡长大。\n后来槐树坡村里修了路，他才回去。\n槐树坡的老井还在。")
    assert found.get("槐树坡") == "地点" and "槐树坡村" not in found


def test_a_common_word_before_the_kind_or_a_kind_said_of_a_place_names_no_settlement() -> None:
    """Near misses: a frequent dictionary word of a feature (水塘, 路口, 山沟) or a common word of feature and kind
    (山寨) before a settlement's word describe a place; a kind word going on into 子 (村子) is the kind said."""
    found = _found("他绕过路口村里的狗。\n那伙土匪占了山寨。\n她家门前有个水塘村子里的孩子都去游泳。\n他在山沟村长家住了一夜。")
    assert not {"路口村", "土匪山寨", "水塘村", "山沟村"} & set(found)


def test_the_settlement_tables_hold_single_characters() -> None:
    """Every feature and kind is one character, no feature is a kind too."""
    assert all(len(c) == 1 for c in FEATURE_CHARS | SETTLEMENTS) and not FEATURE_CHARS & SETTLEMENTS


def test_a_pronoun_and_a_one_character_kin_word_alone_name_the_relative() -> None:
    """R51 finding 3: KIN_SAID_SHORT with no other word for kin around (我妈 was also caught by other rules): a
    soldier home on leave, an aunt at a New Year table, a brother off to normal school."""
    assert _found("开春以后，她哥吴海生从部队回来了。").get("吴海生") == "人物"
    assert _found("晚饭时，他姨范玉琴端上来一盘饺子。").get("范玉琴") == "人物"
    assert _found("第二年春天，你弟童立新考上了师范。").get("童立新") == "人物"
