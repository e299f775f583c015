"""The new-name check, twenty-seventh round (task N27): false names that are a clause, a kind of people or an address.
A one-character suffix that is an everyday verb before its aspect (指着, 锁了: :data:`SUFFIX_VERBS`, one
:func:`_suffix_acts` for both readers of a stem and a suffix) is the clause's verb, no name's end, and 会 before one of
them is the modal (伞尖+会+指向); a common noun glued
to the adjective or localizer after it (天+黑, 船+上: :func:`_predicate_tailed`) is a clause, not someone; a common word
before a trade word's end (船+夫, 园+丁: :func:`_trade_word`, :data:`TRADE_ENDS`) is a kind of people; a real county or
city before a village no dictionary knows is the address's first part, the village is the name (婺源+篁岭村:
:func:`_county_led`). Recall: a slogan of the planned economy before a body's head word opens its name, though the
dictionary calls it a verb or a common noun (向阳+公社, 红旗+大队: :data:`SLOGAN_STEMS`). The sentences are made up for these tests, in other genres and periods than the sets'; none is a
labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (SLOGAN_STEMS, SUFFIX_VERBS, TRADE_ENDS, _county_led, _predicate_tailed, _suffix_acts,
                                     _trade_word, find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def _acts(line: str, suffix: str) -> bool:
    at = line.index(suffix)
    return _suffix_acts(lexicon(), line, at, at + len(suffix))


def test_a_suffix_that_is_a_verb_before_its_aspect_is_the_clause_s_verb() -> None:
    """指, 铺, 锁 end names (一阳指, 当铺, 金锁) and are verbs: before 着 or 了 they are the clause's (a sailing ship, a
    country house, a schoolyard)."""
    assert {"指", "铺", "锁"} <= SUFFIX_VERBS
    assert _acts("水手铺着草席睡了一夜。", "铺")
    assert _acts("管家锁了库房的门，钥匙揣进怀里。", "锁")
    assert _acts("少年指了指天边的云。", "指")


def test_the_suffix_said_as_a_name_s_end_stays() -> None:
    """Near misses: the suffix before a full stop or a comma ends a name (一阳指, 当铺)."""
    assert not _acts("他苦练三年，终于练成了一阳指。", "指")
    assert not _acts("他去了城东的当铺，又空着手回来。", "铺")


def test_the_modal_before_an_everyday_verb_is_no_society() -> None:
    """会 before one of :data:`SUFFIX_VERBS` (指向, 指着) is the modal, as before any verb (a wuxia sword's tassel, a
    compass needle at midnight, a bronze mirror of a treasure hunt)."""
    assert "剑穗会" not in _found("（说明：天黑以后，剑穗会指向来敌。）")
    assert "罗针会" not in _found("（注：子夜时分，罗针会指着南方。）")
    assert "铜鉴会" not in _found("（注：月圆之夜，铜鉴会指向宝藏。）")


def test_a_society_before_a_comma_or_its_hall_stays() -> None:
    """Near misses: 会 followed by a comma, or by 馆 (a guild hall), is no modal before a verb."""
    assert "青木会" in _found("青木会，指的是城西那帮木匠。")
    assert "洪门会馆" in _found("他进了洪门会馆，茶已经凉了。")


def test_a_noun_glued_to_its_predicate_is_no_one() -> None:
    """A common noun and the adjective or the localizer after it (a night watch, a river boat, a lamplit study)."""
    lex = lexicon()
    assert _predicate_tailed(lex, "天黑")
    assert _predicate_tailed(lex, "船上")
    assert _predicate_tailed(lex, "浪高")
    assert "风大" not in _found("“风大。”守夜的老人说，“关窗吧。”")


def test_a_given_name_of_a_noun_and_an_adjective_stays() -> None:
    """Near misses: 国强, 志刚 read as given names (a character a given name carries); 石坚 opens on a surname."""
    lex = lexicon()
    assert not _predicate_tailed(lex, "国强")
    assert not _predicate_tailed(lex, "志刚")
    assert not _predicate_tailed(lex, "石坚")


def test_a_trade_word_is_a_kind_of_people() -> None:
    """A common word and a trade word's end (boatmen of a canal, a manor's gardener, a post road's runner), plural too."""
    lex = lexicon()
    assert {"夫", "丁", "卒", "户"} <= TRADE_ENDS
    assert _trade_word(lex, "纤夫们")
    assert _trade_word(lex, "园丁")
    assert _trade_word(lex, "驿卒")


def test_a_surname_before_a_trade_end_is_someone() -> None:
    """Near misses: a surname (李+商) or an address form's lead (小丁, 老史) opens a name."""
    lex = lexicon()
    assert not _trade_word(lex, "李商")
    assert not _trade_word(lex, "小丁")
    assert not _trade_word(lex, "老史")


def test_a_county_before_a_village_is_the_address_s_first_part() -> None:
    """An envelope, a cousin's home town, a county road: the village or town is the name."""
    lex = lexicon()
    assert _county_led(lex, "绍兴柯桥镇") == "柯桥镇"
    assert _found("表叔是昆山锦溪镇人，年年秋天来城里卖菱角。锦溪镇的菱角好。") == {"锦溪镇"}
    assert "篁岭村" in _found("信封上写着：婺源篁岭村，程家收。\n他把信交给邮差。\n第二年春天，他回了篁岭村，村口的樟树还在。")


def test_a_village_led_by_no_county_stays_whole() -> None:
    """Near misses: a common word before the village (桃花+源村) and a town's word that is no village's (临安+城)."""
    lex = lexicon()
    assert _county_led(lex, "桃花源村") == "桃花源村"
    assert _county_led(lex, "临安城") == "临安城"


def test_a_slogan_before_a_body_s_head_is_its_name() -> None:
    """A reservoir site of 1958, a co-operative's ledger, a brigade's harvest: the slogan and the head are the name."""
    assert {"红旗", "曙光", "胜利"} <= SLOGAN_STEMS
    assert _found("一九五八年秋天，红旗公社的社员们都上了水库工地。") == {"红旗公社"}
    assert _found("曙光合作社的账本一直锁在会计的抽屉里。") == {"曙光合作社"}
    assert _found("老支书说，胜利大队今年的麦子收得早。") == {"胜利大队"}


def test_a_slogan_word_said_apart_from_the_head_names_nothing() -> None:
    """Near misses: the slogan's words in their own sense, away from the head (向阳坡上的公社, 东风吹过, 公社大院)."""
    assert _found("那年春天，向阳坡上的公社社员都去挖渠了。") == set()
    assert _found("东风吹过，公社大院里的红旗哗哗地响。") == set()
