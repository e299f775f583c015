"""The new-name check, twenty-fifth round (task N25): false names first. A naming frame's words that are a clause
about the name, not the name (名字是+namer+one of :data:`NAMING_ACTS`+的; a name word with no naming verb before a
clause adverb; a count or a greeting opening: :func:`_clause_opening`); one of :data:`PLACING_ACTS` between two nouns
(a subject, its verb and its object read across a name's boundary). (A third rule, a place the dictionary knows well
with its town, county or port word, was withdrawn: it lost a true name on an evaluation set.) The sentences are made up for these tests, in other genres
and periods than the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (COUNT_LEADS, GREETINGS, NAMING_ACTS, PLACING_ACTS, _act_inside, _clause_opening,
                                     find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_who_gave_the_name_is_no_name() -> None:
    """名字是 … 的 with a namer and an act of naming, speaking or suggesting (a palace tale, a start-up, a farm boy)."""
    assert "师傅给取" not in _found("这把剑的名字是师傅给取的，他一直没问过缘由。", ("师傅",))
    assert "陆明远提议" not in _found("公司的名字是陆明远提议的，大家都说好。", ("陆明远",))
    assert "奶奶起" not in _found("他小名叫石头，这名字是奶奶起的，说是好养活。")


def test_a_name_in_its_frame_is_still_a_name() -> None:
    """Near misses: the frame's name followed by 的 with 叫 (名字叫 … 的 introduces someone), and a name said in the
    frame with nothing after it."""
    assert "韩云起" in _found("码头上有个名字叫韩云起的少年，天天来看船。韩云起十五岁。")
    assert "铁臂" in _found("那台机器人的名字是铁臂，是去年造的。铁臂会搬砖。")


def test_a_comment_on_a_nickname_is_no_name() -> None:
    """A nickname word, no naming verb, then a clause adverb as a word of its own: what one thinks of the name
    (a school story)."""
    assert "倒也形象" not in _found("他跑得最快，腿又长，这个绰号倒也形象。")


def test_a_count_or_a_greeting_opens_no_name() -> None:
    """A count of people or things (一个, 两位) or a greeting (谢谢, 欢迎) before more words: a clause's opening."""
    assert _clause_opening("一个跟海鸟") and _clause_opening("两位老渔民") and _clause_opening("谢谢镇医院")
    assert _clause_opening("欢迎新社员")
    assert not {"谢谢镇", "谢谢镇卫生院"} & _found("“谢谢镇卫生院的大夫，还有那个护士。”")
    assert not _clause_opening("一丈青") and not _clause_opening("三叶湾") and not _clause_opening("谢安")


def test_a_placing_or_calling_verb_between_two_nouns_is_a_clause() -> None:
    """A subject, a verb of leaning, placing or calling and its object (a river port, an army barracks, a teahouse)."""
    assert "船靠码头" not in _found("天快黑的时候，船靠码头，船工们一个个跳上岸去。")
    assert "男宿舍靠门" not in _found("新兵连的头一夜，他睡在男宿舍靠门的那张铺上。")
    assert "哥叫饭馆" not in _found("散了戏，哥叫饭馆的伙计送了两碗面来。")


def test_a_verb_asked_as_a_not_a_is_in_no_name() -> None:
    """看没看过+公司, 去不去+剧团: a question read across a name's boundary; 不 in a name (不周山) is no question."""
    lex = lexicon()
    assert _act_inside(lex, "去没去过剧团") and _act_inside(lex, "来不来公司") and _act_inside(lex, "用没用过银行")
    assert not _act_inside(lex, "不周山") and not _act_inside(lex, "鹰愁涧")


def test_a_coined_name_with_a_verb_character_stays() -> None:
    """Near misses: a coined place whose middle character is another verb (鹰+愁+涧, 凤+栖+殿)."""
    assert "鹰愁涧" in _found("过了鹰愁涧，山路就平了。鹰愁涧下面是一条急流。")
    assert "凤栖殿" in _found("皇后住在凤栖殿。凤栖殿前种了两株梧桐。")


def test_a_coined_town_with_its_kind_word_stays() -> None:
    """A town whose stem is rare in the dictionary (a coined or small place), said with its kind word, is a new name."""
    assert "青阳城" in _found("三日后，大军抵达青阳城。青阳城的城门早已关了。")
    assert "落霞镇" in _found("落霞镇不大，只有一条街。她在落霞镇住了十年。")


def test_the_tables_are_rows_of_general_words() -> None:
    """Each table holds general words, none twice; the placing verbs are single characters."""
    assert len(NAMING_ACTS) == len(set(NAMING_ACTS)) and len(GREETINGS) == len(set(GREETINGS))
    assert all(len(v) == 1 for v in PLACING_ACTS) and COUNT_LEADS


def test_a_name_in_quotes_is_the_name_and_a_verb_needs_a_noun_each_side() -> None:
    """R52's near-misses for N25's guards: a nickname in quotes is the name even with a clause adverb as a word of
    its own in it (a harbour brawler, a sword-seller); a placing verb with no noun before it or none after it is no
    clause (a coined mountain, a moored boat)."""
    assert "就地滚" in _found("他外号“就地滚”，打架从来不吃亏。")
    assert "却邪刀" in _found("他外号“却邪刀”，刀法很快。")
    lex = lexicon()
    assert not _act_inside(lex, "高挂山") and not _act_inside(lex, "船靠稳")


def test_a_coined_place_built_around_a_placing_verb_stays() -> None:
    """R52: one character, a placing verb and a feature of the land (a caravan's pass) is a coined place; the same
    verb before a yard or a door is still a clause."""
    assert "马停坡" in _found("商队翻过马停坡，天就黑了。马停坡上只有一座破庙。")
    lex = lexicon()
    assert not _act_inside(lex, "马停坡") and _act_inside(lex, "马停院")
