"""The new-name check, twenty-eighth round (task N28): names cut before their establishment's word, and a season read as
someone. Recall: a works, a market, a trading house, a studio, a stage, an eating house or a housing block named in full —
a stem, its trade words and one of :data:`ESTABLISHMENT_HEADS`' general words (煤矿, 早市, 置业, 传媒, 文工团, 宿舍) —
is one name, the chained reader's (:func:`_chained_institution_candidates`); 厂 is read inside the dictionary's word
that holds its trade (拖拉机厂: :data:`HEADS_IN_WORDS`); a housing block's word takes only a slogan or a place's name
(:data:`NAMED_HEADS_ONLY`: 职工宿舍 is a kind); a stem the dictionary holds often is what the place deals in
(:data:`ESTABLISHMENT_STEM_MAX`: 海鲜夜市). Precision: a trade's or the weather's season (榨季, 汛季: :data:`SEASON_ENDS`)
is a time, neither someone nor, before 会, a society (U11's 榨季). The sentences are made up for these tests, in other
genres and periods than the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (ESTABLISHMENT_HEADS, HEADS_IN_WORDS, HELD_TRADE_BAD_TAGS, NAMED_HEADS_ONLY, SEASON_ENDS,
                                     TRADE_NEEDED, _hour, find_new_nouns)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_an_establishment_named_in_full_is_one_name() -> None:
    """A 1970s mining town, a late-Qing concession, a 1960s song-and-dance troupe: the stem and the establishment's
    word are one name, not the stem read as someone."""
    assert "煤矿" in ESTABLISHMENT_HEADS["works"] and "置业" in ESTABLISHMENT_HEADS["trade"]
    assert "岩桥煤矿" in _found("矿难那年，岩桥煤矿停了半年工，岩桥煤矿的工人都下了山。")
    assert "云栖置业" in _found("光绪末年，云栖置业在租界里盖了一排洋楼。")
    assert "朝阳文工团" in _found("她十六岁考进朝阳文工团，在朝阳文工团跳了八年舞。")
    found = _found("天一亮，她就去柳湾早市买菜，柳湾早市的鱼最新鲜。")
    assert "柳湾早市" in found and "柳湾" not in found


def test_a_works_is_read_inside_its_trade_s_word_and_a_housing_block_needs_a_name() -> None:
    """A 1960s paper mill named by a slogan, one word of the dictionary for its trade and 厂; a block of flats named by a
    slogan."""
    assert "厂" in HEADS_IN_WORDS and "宿舍" in NAMED_HEADS_ONLY
    assert "胜利造纸厂" in _found("一九六四年，他调到胜利造纸厂当技术员，胜利造纸厂在江边。")
    assert "红旗宿舍" in _found("我们住在红旗宿舍，红旗宿舍一共三层。")


def test_a_kind_of_establishment_stays_unnamed() -> None:
    """Near misses: the people a block houses (留学生宿舍), the goods a market sells (海鲜夜市), the trade's word alone
    (机械厂, 电影院)."""
    assert _found("他搬进了留学生宿舍，宿舍里四个人。") == set()
    assert _found("镇上最热闹的是海鲜夜市，夜市里人挤人。") == set()
    assert _found("他是机械厂的钳工，机械厂在城东。") == set()
    assert _found("我在一家电影院当放映员，电影院就在县城。") == set()


def test_a_season_of_a_trade_is_a_time_not_someone() -> None:
    """A flood-control station, a tea hill, a fishing village: the season said like someone, and before 会 (will)."""
    assert "季" in SEASON_ENDS and _hour("榨季") and _hour("汛季")
    assert _found("“老周，汛季还有二十天。”站长终于开口，“有些话，汛季完了再说。”她第一次觉得，这个汛季会很长。") == {"老周"}
    assert _found("“船老大，渔季还有半个月。”“渔季完了再说。”她想，这个渔季会很难熬。") == set()
    assert _found("“阿婆，采茶季还有几天？”“快了，茶季完了再说。”茶季一过，山就空了，茶季最忙。") == set()


def test_a_name_ending_in_the_season_s_character_stays() -> None:
    """Near misses: a surname before 季 (卓季), an address form (小季): people."""
    assert not _hour("卓季") and not _hour("小季")
    assert "卓季" in _found("卓季推门进来，卓季身上都是雪。")
    assert "小季" in _found("小季笑着说：“小季我不怕冷。”")


def test_a_season_before_the_modal_is_a_time_however_often_it_is_said() -> None:
    """R55: a harbour and a sugar mill, 冰季+会 and 榨季+会 said twice: the modal verb after a season, never someone."""
    assert _hour("冰季会") and not _hour("卓季会")
    assert _found("船长说冰季会提前，冰季会封住港口。") == set()
    assert _found("榨季会持续三个月。榨季会让大家发一笔财。") == set()


def test_a_housing_block_of_a_kind_of_people_stays_unnamed() -> None:
    """R55 (:data:`NAMED_HEADS_ONLY`): a school's form and a studio's trainees, the people the block houses."""
    assert _found("他搬进了五年级宿舍，五年级宿舍里四个人。") == set()
    assert _found("她住在练习生宿舍，练习生宿舍在三楼。") == set()


def test_a_works_named_by_its_town_alone_and_an_act_on_the_works_stay_unnamed() -> None:
    """R55: 厂 needs its trade (:data:`TRADE_NEEDED`: 本溪+厂 is a company's plant at 本溪, the town said for the plant);
    the word holding 厂 must hold a trade (an act on the works, 出厂 and 扩厂, no word of the dictionary:
    :data:`HELD_TRADE_BAD_TAGS`)."""
    assert "厂" in TRADE_NEEDED and "厂" in HEADS_IN_WORDS and "v" in HELD_TRADE_BAD_TAGS
    assert _found("总公司在株洲和本溪各有一个厂，他从株洲厂调到本溪厂，本溪厂比株洲厂冷。") == set()
    assert _found("红星机械出厂的零件，红星机械出厂的零件好。") == set()
    assert _found("那年红星机械扩厂，红星机械扩厂的事传开了。") == set()
