"""The new-name check, twenty-sixth round (task N26): false names of the story's world. A word read as someone that is
counted as a shop (:data:`SHOP_MEASURES`; 只/群/嘴, a beast, a herd, a mouthful, were withdrawn at the merge: a pet's
name counted with 只 is a name, and an evaluation set lost one that way), counted and then described (一块+几百斤重的+
X: :data:`DESCRIBED_COUNT`, unless it speaks), or is the object of an act done only to things (:data:`THING_ACTS`:
drink, cook, ride, wear, wipe…) is no one; a place counted as one of its kind with an everyday stem (一片+碎石滩, 一家+
小饭馆: :data:`PLACE_COUNTS`) is no place's name. Recall: a word read as someone that is always followed by the same word
for an establishment is that establishment (九如银+楼: :func:`_whole_institution`). The sentences are made up for these tests, in other genres and periods
than the sets'; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (PLACE_COUNTS, SHOP_MEASURES, THING_ACTS, _counted, _counted_place,
                                     _object_ends, _whole_institution, find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_shop_counted_is_no_one_and_a_beast_counted_may_be_a_pet_s_name() -> None:
    """一家 before a word: a shop (a county fair); 一只, 一群 before a word are not read (一只大黄 may be a dog's name)."""
    assert "家" in SHOP_MEASURES
    assert _counted("集上新开了一家鞋铺，门口排着队。", "鞋铺")
    assert not _counted("院里养着一只黑虎，见了生人就叫。", "黑虎")
    assert not _counted("坡下来了一群黄犍，赶牛的汉子吆喝着。", "黄犍")


def test_someone_counted_as_a_person_is_still_someone() -> None:
    """Near misses: 一位, 一个 count people (一位顾先生), and 只 the adverb after a noun (他只顾先生) counts nothing."""
    assert not _counted("门外来了一位顾长庚，说要见掌柜。", "顾长庚")
    assert not _counted("他只等顾长庚回来再说。", "顾长庚")


def test_a_thing_counted_then_described_is_no_one() -> None:
    """A count, a measure, a description and 的 before a word (a mining camp, a monastery, a harbour)."""
    assert _counted("空地中间是一块半人多高的磨盘，四个人推着转。", "磨盘")
    assert _counted("院墙外是一排光秃秃的白蜡，冬天鸟都不落。", "白蜡")
    assert _counted("船头立着一根碗口粗的桅杆，帆早就收了。", "桅杆")


def test_someone_described_after_a_count_is_still_someone() -> None:
    """Near misses: what a person has (一条腿的, 一根筋的) and a word that speaks (…的韩松说) are someone."""
    assert not _counted("镇上都知道瘸了一条腿的韩松，他修鞋修了三十年。", "韩松")
    assert not _counted("村里都知道一股子倔劲的韩松。", "韩松")
    assert not _counted("一群吵吵嚷嚷的韩松说：“走！”", "韩松")


def test_the_object_of_an_act_done_to_things_is_no_one() -> None:
    """Drinking, riding, wearing, cooking: what is done to it makes it a thing (a frontier post, a boarding school,
    a farmhouse)."""
    assert {"喝", "熬", "骑", "穿", "擦"} <= set(THING_ACTS)
    assert _counted("守关的兵骑着青骢从山口下来。", "青骢")
    assert _counted("宿舍里冷，舍监给每人熬了红枣茶。", "红枣茶")
    assert _counted("他擦了银柄，又去擦马鞍。", "银柄")


def test_whose_thing_it_is_is_still_someone() -> None:
    """Near misses: a name after the act that goes on to say whose the thing is (吃王婶做的饭, 喝李四的酒), and 揭穿
    (an act done to a person)."""
    assert not _object_ends("做") and not _object_ends("的") and _object_ends("。") and _object_ends("")
    assert not _counted("那年冬天，他天天吃郑秋月做的饭。", "郑秋月")
    assert not _counted("是他当众揭穿郑秋月。", "郑秋月")


def test_a_stretch_of_land_or_a_shop_counted_with_an_everyday_stem_is_no_name() -> None:
    """一片 before any everyday word and its kind, 一家 before one character and a shop word (a desert road, a
    railway town, a mountain pass)."""
    lex = lexicon()
    assert PLACE_COUNTS["家"] == 1
    assert _counted_place(lex, "车出了城，眼前是一片灰白的盐碱滩。", "盐碱滩")
    assert _counted_place(lex, "车站对面有一家小茶馆，卖大碗茶。", "小茶馆")
    assert _counted_place(lex, "关口下是一片乱石滩，马走得很慢。", "乱石滩")
    assert "小茶馆" not in _found("车站对面有一家小茶馆，卖大碗茶。小茶馆的掌柜是个胖子，小茶馆里整天有人。")


def test_a_named_shop_or_hall_counted_stays_a_name() -> None:
    """Near misses: a shop with a two-character stem (那家云来阁) and a place counted with 个 or 座 (还有一个望月楼)
    are names, counted or not."""
    lex = lexicon()
    assert not _counted_place(lex, "饭后大家说起巷口新开的那家云来阁。", "云来阁")
    assert not _counted_place(lex, "镇上除了它，还有一个望月楼。", "望月楼")
    assert "云来阁" in _found("饭后大家说起巷口新开的那家云来阁。云来阁的东家姓钱，云来阁的点心最好。")


def test_a_shop_said_with_its_establishment_word_every_time_is_found_whole() -> None:
    """Recall: a word read as someone, said again and again and each time followed by the same word for an
    establishment, is that establishment's name (a silver shop, a silk-thread shop, a teahouse town)."""
    assert "九安银楼" in _found("镇上的九安银楼最大。九安银楼的伙计来了。九安银楼在东街。")
    assert "宏泰丝线铺" in _found("他在宏泰丝线铺当学徒。宏泰丝线铺在桥头。宏泰丝线铺的老板姓陆。")
    lex = lexicon()
    assert _whole_institution(lex, "隆顺茶叶店开张了。隆顺茶叶店的伙计姓吴。", "隆顺") == "隆顺茶叶店"


def test_someone_before_a_word_of_place_is_still_someone() -> None:
    """Near misses: 楼下, 楼上 after a name are where, not a building's name; a name said once with 店 after it is
    not grown."""
    lex = lexicon()
    assert _whole_institution(lex, "沈秋白楼下有人喊。沈秋白楼上的灯亮了。", "沈秋白") == "沈秋白"
    assert _whole_institution(lex, "沈秋白店里的伙计都笑了。", "沈秋白") == "沈秋白"
    assert "沈秋白" in _found("沈秋白楼下有人喊。沈秋白楼上的灯亮了。沈秋白说：“谁？”")


def test_a_verb_that_takes_a_person_is_no_act_on_a_thing() -> None:
    """Near misses: 折磨, 琢磨, 拆穿, 盘剥 before a name act on someone (a court drama, a family saga)."""
    assert not _counted("那几年，他变着法子折磨郑秋月。", "郑秋月")
    assert not _counted("当着众人，她拆穿郑秋月。", "郑秋月")
    assert not _counted("地主年年盘剥郑秋月，", "郑秋月")


def test_someone_after_a_count_that_counts_what_they_hold_or_have_is_still_someone() -> None:
    """Fixer FN (reader R53): a description that ends in a noun is what the count counts (挎着一只竹篮+的, 有过一面之缘+的,
    一张圆脸+的), and the word after 的 is who holds, met or has it (a fishing village, a boarding school)."""
    assert not _counted("背着一捆干柴的韦秀英从后山下来。韦秀英把柴放在灶边。", "韦秀英")
    assert not _counted("和我有过一面之缘的韦秀英也来了。", "韦秀英")
    assert not _counted("班里那个一张圆脸的韦秀英举了手。", "韦秀英")
    assert "韦秀英" in _found("背着一捆干柴的韦秀英从后山下来。韦秀英把柴放在灶边。韦秀英说：“水开了。”")


def test_a_thing_described_by_how_it_is_after_a_count_is_no_one_unless_it_speaks() -> None:
    """Guard: a count and a description of how the thing is (一根瘦高高的) make the word a thing, unless it speaks
    right after being named (韦秀英说): someone."""
    assert _counted("院里立着一根瘦高高的旗杆。", "旗杆")
    assert not _counted("街角站着一根瘦高高的韦秀英，韦秀英说：“走吧。”", "韦秀英")


def test_a_shout_at_someone_is_no_drink() -> None:
    """Fixer FN (reader R53): 喝 after 怒, 厉, 呼 is a shout at someone, not a drink (a drill ground, a yamen)."""
    assert not _counted("教头怒喝韦秀英：“站直！”", "韦秀英")
    assert not _counted("堂上县令厉喝韦秀英，", "韦秀英")
    assert not _counted("班头喝令韦秀英跪下。", "韦秀英")
    assert _counted("他喝了米酒。", "米酒")


def test_a_particle_after_a_name_is_no_establishment() -> None:
    """Fixer FN (reader R53): 吧 after a name said twice is the sentence's particle (你就是韦秀英吧？), not a bar; a
    bar is said with its everyday word (蓝鲸+酒吧)."""
    lex = lexicon()
    assert _whole_institution(lex, "你就是韦秀英吧？她点点头。韦秀英吧，跟我走。", "韦秀英") == "韦秀英"
    assert "韦秀英吧" not in _found("你就是韦秀英吧？她点点头。韦秀英吧，跟我走。韦秀英说：“好。”")
    assert _whole_institution(lex, "蓝鲸酒吧开到半夜。蓝鲸酒吧的老板姓吴。", "蓝鲸") == "蓝鲸酒吧"


def test_an_uncommon_word_before_an_establishment_s_kind_is_no_part_of_it() -> None:
    """Guard: a tail of two or three characters ends an establishment's name only after an everyday word (丝线+铺);
    an uncommon one (踱进+院) is a clause, and the word before it stays as it is."""
    lex = lexicon()
    assert _whole_institution(lex, "韦秀英踱进院，坐下。过了一会，韦秀英踱进院。", "韦秀英") == "韦秀英"


def test_a_coined_or_too_long_stem_counted_stays_a_place_s_name() -> None:
    """Guards: a coined stem (一片落星滩) and an everyday stem longer than the measure allows (一家国营饭店: 家 allows
    one character) keep the place's name; the same counts with an everyday, short enough stem do not."""
    lex = lexicon()
    assert not _counted_place(lex, "河湾外是一片落星滩，落星滩上没有人。", "落星滩")
    assert _counted_place(lex, "河湾外是一片黑风滩，黑风滩上没有人。", "黑风滩")
    assert not _counted_place(lex, "城东有一家国营饭店，国营饭店的菜很贵。", "国营饭店")
    assert _counted_place(lex, "城东有一家老饭馆，老饭馆的菜很贵。", "老饭馆")
