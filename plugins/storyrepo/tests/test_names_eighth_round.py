"""The new-name check, eighth round (task N8): classes of words that read like names and are none,
and names never proposed, found by scoring 专名-网文-盲评三 (a development set since this round).
Each rule stands next to a real name in the same text; the forms here are none of that set's."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_question_after_an_introduction_is_no_name() -> None:
    """本名叫什么 asks a name; 本名叫韩东篱 says one."""
    found = _found("那个卖花的女人本名叫什么，街坊都说不清。问她什么，她都笑。“她本名叫韩东篱。”老周说。"
                   "韩东篱笑了笑，没再说什么。")
    assert "韩东篱" in found
    assert "什么" not in found


def test_a_degree_adverb_after_a_surname_character_is_a_predicate() -> None:
    """汤太淡: a noun that is a surname too, and what it is like; 孙太医 (an office) and 钟太平 (a
    given name) are people."""
    found = _found("“汤太淡了。”钟太平放下勺子。米太少，汤太淡，钟太平又皱眉。孙太医道：“将就吧。”")
    assert {"钟太平", "孙太医"} <= found
    assert "汤太淡" not in found


def test_the_doorway_of_a_place_is_no_place_called_men() -> None:
    """红玫瑰门口 is the door of 红玫瑰 (a dance hall), not a place 红玫瑰门; 玄阴门 is a sect."""
    found = _found("他没有停，混进了红玫瑰门口看戏散场的人堆里。玄阴门的人早就等在巷尾，玄阴门这回来了三个。")
    assert "玄阴门" in found
    assert not {"红玫瑰门口", "红玫瑰门"} & found


def test_a_measure_word_counting_a_dish_is_no_part_of_its_name() -> None:
    """一壶梨花酒, 那壶梨花酒: the pot counts the wine, said whole each time; 柳三娘 is someone."""
    found = _found("他要了一壶梨花酒。那壶梨花酒端上来，满屋都是香气。柳三娘笑了。")
    assert "柳三娘" in found
    assert "壶梨花酒" not in found


def test_an_adjective_before_a_common_place_word_describes_it() -> None:
    """一道矮土坡: a kind of slope; 槐荫胡同 names a lane."""
    found = _found("他爬上一道矮土坡，又走进槐荫胡同。槐荫胡同口坐着秦望川。秦望川招手。")
    assert {"槐荫胡同", "秦望川"} <= found
    assert "矮土坡" not in found


def test_a_numeral_before_the_suffix_counts() -> None:
    """走三关: a number of passes; 第九要塞 is one place with a number."""
    found = _found("他一路走三关，跨五岭，总算到了第九要塞。第九要塞的守将叫庞飞虎。庞飞虎迎了出来。")
    assert "第九要塞" in found
    assert "走三关" not in found


def test_a_conjunction_before_a_thing_word_joins_two_things() -> None:
    """鱼连汤: the fish with its soup; 回阳汤 is a named brew."""
    found = _found("他把整条鱼连汤倒进锅里。回阳汤熬好了，回阳汤得趁热喝。")
    assert "回阳汤" in found
    assert "鱼连汤" not in found


def test_a_place_and_a_verb_make_no_longer_place() -> None:
    """芦湾村建村: the village and its founding; 芦湾村 is the place."""
    found = _found("那棵老树，据说是芦湾村建村的时候就有的。芦湾村在山脚下，芦湾村的人不多。")
    assert "芦湾村" in found
    assert "芦湾村建村" not in found


def test_a_shop_named_by_its_owner_and_trade_is_one_place() -> None:
    """唐记烧腊: 某记 and what the shop sells, one place (not 唐记 alone); 日记本 and 忘记 are words, 老李记笔记
    and 小王记台词 someone noting something down."""
    found = _found("宋青山进了唐记烧腊，唐记烧腊的老板姓唐。宋青山在日记本上记了一笔，他忘记带伞了。"
                   "会上，他让老李记笔记，小王记台词。")
    assert {"唐记烧腊", "宋青山"} <= found
    assert not {"唐记", "日记本", "忘记", "李记笔记", "王记台词"} & found


def test_suffixes_of_cells_halls_inns_tea_gardens_and_cloth_shops() -> None:
    """青萍小组 (a cell), 听雨厅 (a hall), 福源栈 (an inn), 松风茶园 (a tea garden) are names; 调查小组,
    客厅, 货栈 are kinds, and so are the halls the dictionary knows (贵宾厅, 卫生厅: a kind, an office)."""
    found = _found("他是青萍小组的人，调查小组的人也来了。青萍小组只剩三个人。\n晚饭在听雨厅。听雨厅里坐满了人，"
                   "客厅里却没人。\n他在福源栈住了一夜，福源栈的掌柜很和气。货栈里堆满了麻袋。\n"
                   "下午他们去松风茶园听书。松风茶园里人很多。\n他走进贵宾厅。贵宾厅里人很多，他在贵宾厅坐下。"
                   "卫生厅的人也来了，卫生厅在城东。")
    assert {"青萍小组", "听雨厅", "福源栈", "松风茶园"} <= found
    assert not {"青萍", "调查小组", "客厅", "货栈", "贵宾厅", "卫生厅"} & found


def test_a_trade_or_a_ranked_relative_before_a_surname_introduces_someone() -> None:
    """主持人苏圆圆, 二叔何铁柱: a trade's noun or a ranked kinship word right before a surname-led word
    introduces that person, said once; 铁匠张罗着 is a smith busy at something (张罗 is a verb), 经纪人王姐
    an address form, no name."""
    found = _found("报幕的是主持人苏圆圆，一个扎辫子的姑娘。铁匠张罗着生火。经纪人王姐把她叫走了。\n"
                   "家里人口多。二叔何铁柱是长子，跟着爷爷种了一辈子地。")
    assert {"苏圆圆", "何铁柱"} <= found
    assert not {"张罗", "铁匠张罗", "王姐"} & found


def test_a_common_word_before_tu_is_a_kind_of_map() -> None:
    """施工图 (a map of building work), said again and again, is a kind of map; 玄黄图 is one named scroll."""
    found = _found("他把施工图摊在桌上。施工图上画着炮位，这张施工图不能丢。柜子里还锁着玄黄图，玄黄图是祖传的。")
    assert "玄黄图" in found
    assert "施工图" not in found


def test_a_surname_glued_to_the_word_before_still_takes_its_title() -> None:
    """独轮车夫吴瞎子 (the segmenter cuts 独轮车|夫吴|瞎子): 吴瞎子 is someone; a face's 麻子 is none."""
    found = _found("独轮车夫吴瞎子在路口等客，见了他就招手。他脸上的麻子很多，满脸麻子。")
    assert "吴瞎子" in found
    assert not {"夫吴瞎子", "麻子", "满脸麻子"} & found
