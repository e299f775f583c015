"""The new-name check on text written by others: words that read like names and are none, each
next to a real name in the same text (a rule that drops the name is as wrong as one that keeps the
word). Tuned on 专名-他人-盲评二 and 专名-网文-盲评二 (development sets since task N7); the forms here
are none of theirs."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_foreign_name_joined_by_a_middle_dot_is_one_name() -> None:
    """安德烈·伊万诺夫 is one person, not 安德烈 (nor 安德烈·伊, a numeral's character cut off); the
    title after it (先生) and the verb before it (我叫) are no part of it."""
    found = _found("“我叫安德烈·伊万诺夫。”他说。安德烈·伊万诺夫来自北方，后来汤姆·布朗先生也到了。")
    assert {"安德烈·伊万诺夫", "汤姆·布朗"} <= found
    assert not {"安德烈", "伊万诺夫", "汤姆", "汤姆·布朗先生", "我叫安德烈·伊万诺夫"} & found


def test_a_place_joined_to_its_number_by_a_hyphen() -> None:
    """泰坦-7 is a place; 泰坦 alone, or with the verb and the preposition before it, is not."""
    found = _found("飞船驶向泰坦-7。关于泰坦-7的传闻很多，泰坦-7上只有一座基地。")
    assert "泰坦-7" in found
    assert not {"泰坦", "驶向泰坦-7", "关于泰坦-7"} & found


def test_an_adverb_before_what_someone_says_he_is_is_no_name() -> None:
    """我是真糊涂 says a state; 我是林晚舟 says a name."""
    found = _found("“你是谁？”“我是真糊涂了，”老人说，“我是林晚舟。”林晚舟叹了口气。")
    assert "林晚舟" in found
    assert "真糊涂" not in found


def test_an_office_said_on_its_own_is_how_someone_is_addressed() -> None:
    found = _found("许青禾走进院子，连狗都认得她，孩子们只叫她村长。许青禾笑了。")
    assert "许青禾" in found
    assert "村长" not in found


def test_a_measure_word_after_a_determiner_is_no_surname() -> None:
    """那张+定格的照片: 张 counts a photo; 张明远 is someone."""
    found = _found("墙上挂着那张定格的照片。他盯着那张定格的照片看了很久。张明远道：“坐。”张明远又道：“走。”")
    assert "张明远" in found
    assert "张定格" not in found


def test_a_verb_glued_before_a_given_name_is_no_other_person() -> None:
    """问+秋谷道: someone asks 秋谷, no 问秋谷 is new; 沈秋谷 and 秋谷 are found."""
    found = _found("沈秋谷坐在窗边，秋谷笑道：“好。”小二问秋谷道：“客官要什么？”秋谷摇头。小二又问秋谷道：“酒呢？”"
                   "秋谷道：“不要。”")
    assert {"沈秋谷", "秋谷"} <= found
    assert "问秋谷" not in found


def test_a_verb_glued_after_a_name_is_no_longer_name() -> None:
    """苏映雪+扮: the actress and what she plays."""
    found = _found("叫苏映雪扮花旦，苏映雪扮的是花旦，映雪唱得好。苏映雪笑道：“献丑。”")
    assert "苏映雪" in found
    assert "苏映雪扮" not in found


def test_a_crowd_and_a_preposition_start_no_name() -> None:
    """众妖 are all the demons; 单为 is "only for" (为 ends no name said twice with no act), 单雄信
    someone; 抬入 is a
    verb of motion before the temple it goes into."""
    found = _found("众妖都道：“好。”众妖散了。把猪羊抬入庙中。单为此事，他跑了三趟。单为一句话，他又跑了三趟。"
                   "单雄信笑道：“好。”单雄信又道：“走。”")
    assert "单雄信" in found  # 单 is a surname before a given name
    assert not {"众妖", "众妖散", "单为", "抬入庙"} & found


def test_a_play_on_the_stage_is_no_place_of_the_story() -> None:
    """《落霞峰》 is what the actors play: no place; since the eighteenth round a title no dictionary knows, only ever
    said in 《》, is a work of the story's world (two development books by two authors label such plays), and a
    play the dictionary knows (《翠屏山》) is nothing new; 落霞峰 said in the story is a place."""
    text = "台上正演《落霞峰》，台下看客齐声喝采。散了戏，众人还在说《落霞峰》。柳如烟笑道：“好戏。”"
    found = _found(text)
    assert "柳如烟" in found
    assert {n.name: n.kind for n in find_new_nouns(text, [])}.get("落霞峰") == "物品"
    assert "翠屏山" not in _found(text.replace("落霞峰", "翠屏山"))
    assert "落霞峰" in _found("他们连夜上了落霞峰。落霞峰上风很大。")


def test_a_thing_counted_by_its_measure_word_is_no_one() -> None:
    """一道白痕: 道 counts a mark, 白 is no surname here; 陈守拙, who speaks, is someone."""
    found = _found("他在门上刻了一道白痕。白痕已经很旧了。陈守拙看了一眼，陈守拙道：“擦掉。”")
    assert "陈守拙" in found
    assert "白痕" not in found


def test_a_suffix_that_ends_an_adverb_makes_no_name() -> None:
    """夜+已经: 经 ends 已经 here, no scripture; 太玄经 said twice is one."""
    found = _found("夜已经深了。周默回头，夜已经很深了。他翻开太玄经，太玄经的第一页是空的。")
    assert "周默" in found
    assert "夜已经" not in found


def test_a_verb_no_name_carries_inside_a_stem_reads_as_prose() -> None:
    """又海+骂+山: someone railing, no mountain; a verb first and its object makes a name (裂石+掌)."""
    found = _found("那厮横冲直撞，骂天骂地，又海骂山，闹了半日。他使出裂石掌，一掌拍碎了石桌。")
    assert "裂石掌" in found
    assert "海骂山" not in found


def test_guilds_teams_firms_and_landscapes_of_modern_and_game_stories() -> None:
    """公会, 战队, 旅社, 森林, 峡谷 after a coined stem name one; said alone they are kinds."""
    found = _found("周默加入了苍穹公会。苍穹公会的会长是个女人。隔壁的天启战队来挑衅，一个公会打不过一个战队。\n"
                   "他们穿过迷雾森林，在落星峡谷扎营。森林里很安静，峡谷里风很大。\n他住进了如归旅社，旅社的老板姓王。")
    assert {"苍穹公会", "天启战队", "迷雾森林", "落星峡谷", "如归旅社"} <= found
    assert not {"公会", "战队", "森林", "峡谷", "旅社"} & found


def test_a_surname_that_is_an_adjective_too_names_someone_who_acts() -> None:
    """黄+三炮 who keeps a house and is "that man" is someone; 黄+马褂 said twice is a jacket."""
    found = _found("村东头黄三炮家住着几个外地人。黄三炮那个人你知道的，谁给钱就帮谁。\n他穿着一件黄马褂。那件黄马褂是御赐的。")
    assert "黄三炮" in found
    assert "黄马褂" not in found


def test_a_ship_in_hao_and_a_port_are_names_a_number_in_hao_is_none() -> None:
    found = _found("夜枭号从霜风港出发，夜枭号上有三十个人。\n试镜那天他排在七号，女二号早就定了，左三号的灯坏了。")
    assert {"夜枭号", "霜风港"} <= found
    assert not {"七号", "女二号", "左三号", "二号", "三号"} & found


def test_someone_counted_then_named_is_a_name_even_if_a_word() -> None:
    """一个叫麻雀的汉子, 外号叫毒蛇: a person introduced by name, though the words are words; 一个叫
    得出名字的人 says nothing of a name, and 叫车子 calls for a car."""
    found = _found("码头上有一个叫麻雀的汉子，力气大得吓人。\n领头的刺客外号叫毒蛇，出手极快。\n"
                   "他是一个叫得出名字的人。他出门叫车子去了。")
    assert {"麻雀", "毒蛇"} <= found
    assert not {"得出名字", "车子", "叫得出名字"} & found


def test_a_surname_and_an_old_office_name_someone() -> None:
    """杜侍郎, 蒋御史: how older fiction names officials; 侍郎 or 御史 alone is an office."""
    found = _found("那日杜侍郎到了府上，与蒋御史对坐饮酒。侍郎说起朝中的事，御史只是点头。")
    assert {"杜侍郎", "蒋御史"} <= found
    assert not {"侍郎", "御史"} & found


def test_heaven_cried_to_and_what_a_thing_is_not_called_are_no_names() -> None:
    """“天爷，天爷！” is a cry; 虽不叫做醉生梦死 says what his drinking is not called; 叫做柳青 names her."""
    found = _found("他顿足大哭道：“天爷，天爷！何苦如此！”\n他每日独酌，虽不叫做醉卧花丛，却也离不得酒。\n"
                   "那女子叫做柳青，柳青笑道：“公子请。”")
    assert "柳青" in found
    assert not {"天爷", "醉卧花丛"} & found


def test_a_transliterated_name_the_segmenter_cut_is_said_whole() -> None:
    """阿布+杜勒, said whole each time, is 阿布杜勒; 老猫, who squats three times, is not 老猫蹲."""
    found = _found("阿布杜勒盯着屏幕，头也不抬。阿布杜勒是这条船的领航员。“不是。”阿布杜勒终于开口了。\n"
                   "老猫蹲在门口。老猫蹲下身子。老猫蹲了很久。")
    assert {"阿布杜勒", "老猫"} <= found
    assert not {"阿布", "老猫蹲"} & found


def test_a_trade_of_today_before_a_suffix_is_a_kind_not_a_name() -> None:
    """电竞+俱乐部, 手游+公会: jieba does not know the trades, yet they are kinds; 苍狼战队 is a name."""
    found = _found("苍狼战队是本市最大的电竞俱乐部。后来他进了一家手游公会。")
    assert "苍狼战队" in found
    assert not {"电竞俱乐部", "手游公会"} & found


def test_a_vehicle_named_by_a_noun_and_a_number() -> None:
    """探索者五号 is a probe; 下月三号 a date, 男二号 a part, 码头三号仓库 a numbered place."""
    found = _found("他们发射了探索者五号。探索者五号的信号在下月三号中断了。\n"
                   "她演男二号的妹妹。货放在码头三号仓库。")
    assert "探索者五号" in found
    assert not {"下月三号", "男二号", "码头三号", "三号仓库"} & found


def test_a_surname_and_a_trade_or_a_mark_name_a_minor_person() -> None:
    """周铁匠, 何瞎子: how a village names its people; 铁匠 and 瞎子 alone are a trade and a blind man."""
    found = _found("村里的铁匠姓周，大家都叫他周铁匠。算命的何瞎子也来了，那瞎子摸着胡子。")
    assert {"周铁匠", "何瞎子"} <= found
    assert not {"铁匠", "瞎子"} & found


def test_a_courtesy_name_and_a_wife_named_by_a_material_surname() -> None:
    """表字守愚 gives a name; 母亲金氏 is a wife named by surname and 氏 though 金 is a metal; 金器
    is a thing."""
    found = _found("他姓顾，表字守愚，生得清秀。母亲金氏，随父在任。家中金器甚多。")
    assert {"守愚", "金氏"} <= found
    assert "金器" not in found


def test_a_direction_or_a_kind_of_land_before_a_landscape_word_is_no_name() -> None:
    """北方草原, 原始森林, 茫茫沙漠 are kinds of land however often said; 迷雾森林 is one forest."""
    found = _found("他们来到北方草原。北方草原上风很大。又穿过原始森林，原始森林里很暗。来到茫茫沙漠，茫茫沙漠无边无际。"
                   "最后进了迷雾森林，迷雾森林里有怪物。")
    assert "迷雾森林" in found
    assert not {"北方草原", "原始森林", "茫茫沙漠"} & found


def test_someone_who_makes_one_feel_is_not_named() -> None:
    """一个叫人头疼的孩子: 叫人 makes one feel; 一个叫木墩的孩子 names him."""
    found = _found("他是一个叫人头疼的孩子。那是一个叫人讨厌的家伙。村口有一个叫木墩的孩子。")
    assert "木墩" in found
    assert not {"人头疼", "人讨厌"} & found


def test_a_full_name_whose_surname_is_a_verb_too_stays() -> None:
    """顾长风 (顾 is a verb too) is his full name, though 长风 is said far more; 王五村 is a village."""
    found = _found("顾长风走进门来。长风笑道：“好。”长风又道：“走。”长风摇头。长风点头。长风叹道：“罢了。”\n"
                   "王五带他回了王五村。王五道：“到了。”王五笑了。")
    assert "顾长风" in found
    assert "王五村" in found
