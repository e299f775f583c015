"""The new-name check, ninth round (task N9): names never proposed and words that read like names
and are none, found by scoring 专名-网文-盲评四 (a development set since this round) and grouped by
class. Each rule stands next to a wrong word in the same text; the forms here are none of that set's."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_nickname_in_its_naming_frame_is_a_name_even_of_ordinary_words() -> None:
    """外号铁锅, 绰号叫山猫的: a nickname made of ordinary words, said in its frame; the same word in its
    ordinary sense elsewhere, a question (外号叫什么) and a predicate (外号不好听) are none."""
    found = _found("码头上有个扛包的，外号铁锅，一顿能吃八个馒头。灶上架着一口铁锅。"
                   "街口还有个外号叫山猫的小贼，翻墙比猫还快。“你外号叫什么？”“我外号不好听。”")
    assert {"铁锅", "山猫"} <= found
    assert not {"什么", "不好听"} & found


def test_a_name_word_needs_its_verb_or_a_colon() -> None:
    """队名叫灯塔, 名字：长庚 name a team and a band; 名字好听 and 名字是假的 name nothing."""
    found = _found("这支新组的队伍，队名叫灯塔，七个人里有三个是替补。乐队最后定下的名字：长庚。"
                   "“这名字好听。”她说。“名字是假的，人是真的。”")
    assert {"灯塔", "长庚"} <= found
    assert not {"好听", "假的"} & found


def test_a_place_or_a_firm_counted_then_named() -> None:
    """一个叫柳条湾的地方, 一家叫“无名氏文化”的公司: named and said to be a place or a firm, also when
    the name opens with a word that starts no name elsewhere (无); 一个叫人心疼的地方 is no name."""
    found = _found("他们在一个叫柳条湾的地方歇脚。她签进了一家叫“无名氏文化”的公司。那是一个叫人心疼的地方。")
    assert {"柳条湾", "无名氏文化"} <= found
    assert not {"人心疼", "叫人心疼"} & found


def test_a_work_of_the_story_named_after_what_it_is() -> None:
    """片尾曲叫《归航》, 网剧《雾中灯》, 《归航》这首歌: the story's own works; a play of older prose sung
    (唱了一出《斩黄袍》) is no new thing."""
    found = _found("片尾曲叫《归航》，是她写的。《归航》这首歌后来火了。她又接了网剧《雾中灯》。"
                   "戏台上唱了一出《斩黄袍》，台下叫好。")
    assert {"归航", "雾中灯"} <= found
    assert "斩黄袍" not in found


def test_an_adjective_surname_introduced_by_name_stays_someone() -> None:
    """这人叫黄守义: an adjective surname and a dictionary given name (守义), introduced by 叫 — someone,
    though he never speaks in a gesture the rules know; 黄手帕 is a yellow handkerchief."""
    found = _found("这人叫黄守义，是个账房，手里总攥着一块黄手帕。黄守义慢吞吞地开口：“钱不够。”")
    assert "黄守义" in found
    assert "黄手帕" not in found


def test_venue_and_site_suffixes() -> None:
    """松风剧场, 东岭体育馆, 梅岭遗址, 老钱小卖部: venues and sites; 剧场 and 遗址 after a common word
    said once (这座剧场, 古代遗址) are kinds."""
    found = _found("汇演定在松风剧场。决赛挪到了东岭体育馆。考古队进驻梅岭遗址，梅岭遗址出了陶片。"
                   "老钱小卖部的门开着。这座剧场很旧。课本上说的古代遗址多了。")
    assert {"松风剧场", "东岭体育馆", "梅岭遗址"} <= found
    assert not {"这座剧场", "古代遗址", "座剧场"} & found


def test_jiao_inside_a_word_introduces_no_name() -> None:
    """鸡叫声吵醒: 叫 of 叫声 (a crowing) before a verb; 叫做洪小满 introduces someone."""
    found = _found("天没亮，他就被一阵鸡叫声吵醒了。隔壁的孩子，叫做洪小满，正趴在窗台上。")
    assert "洪小满" in found
    assert not {"声吵醒", "叫声吵醒"} & found


def test_a_modal_after_a_name_is_no_society() -> None:
    """谁也想不到鹊王会埋在这里: 会 is the modal before a verb; 青莲会 (said before 的) is a society."""
    found = _found("谁也想不到，鹊王会埋在这么偏的地方。青莲会的人也来了，青莲会的旗插在山口。")
    assert "青莲会" in found
    assert "鹊王会" not in found


def test_a_counted_common_dish_is_a_kind() -> None:
    """一碗牛肉汤: a bowl counts a common dish; 一碗归元汤 … 归元汤 said again is a named brew (no
    dictionary word before the kind)."""
    found = _found("他喝了一碗牛肉汤。药童端上一碗归元汤，归元汤苦得很。")
    assert "归元汤" in found
    assert "牛肉汤" not in found


def test_men_starts_no_name() -> None:
    """学员们按小组坐: 们 ends the word before, it starts no name; 白鹭公司 is a firm."""
    found = _found("学员们按公司坐成几排。白鹭公司的人坐在前面，白鹭公司来了十个。")
    assert "白鹭公司" in found
    assert not {"们按公司", "按公司"} & found


def test_an_adjective_before_a_frequent_common_word_said_once_describes() -> None:
    """去大城市, 一片白沙滩: an adjective and a frequent common word, said once — a description; 乌鸦岭
    said twice is a place."""
    found = _found("他想去大城市闯一闯。船停在一片白沙滩边上。乌鸦岭离这里不远，土匪都住在乌鸦岭。")
    assert "乌鸦岭" in found
    assert not {"大城市", "白沙滩"} & found


def test_a_rank_and_kin_form_of_a_name_found_whole_is_the_same_person() -> None:
    """梁七姑 and 七姑 in one chapter: one person, found once; 七姑 alone (no 梁七姑) is left to the
    other rules."""
    found = _found("渡口的船都归梁七姑管。“七姑，”船工喊，“风大了。”七姑摆摆手。梁七姑笑道：“开船。”")
    assert "梁七姑" in found
    assert "七姑" not in found


def test_a_three_character_suffix_ends_a_name_the_segmenter_glued_on() -> None:
    """桃溪舞蹈室学: a three-character suffix (舞蹈室, 工作室) ends the name even when the segmenter glues its
    last character to the next word; a common word before it (那间舞蹈室) is a kind."""
    found = _found("她小时候在苏州的桃溪舞蹈室学跳舞。那间舞蹈室早就关了。")
    assert "桃溪舞蹈室" in found
    assert not {"那间舞蹈室", "间舞蹈室"} & found


def test_an_institution_named_by_its_place_also_a_known_one() -> None:
    """云州博物馆 (云州 known), 青石镇派出所 beside 青石镇: a public institution named by the place it
    serves is a new organisation; the place said alone stays a place; 这家博物馆 is a kind."""
    found = _found("文物连夜运进了云州博物馆的库房。青石镇派出所来了两个人。青石镇不大，青石镇只有一条街。"
                   "这家博物馆很小。", known=("云州",))
    assert {"云州博物馆", "青石镇派出所", "青石镇"} <= found
    assert not {"云州", "这家博物馆", "家博物馆"} & found


def test_a_trade_noun_before_a_pet_name_says_who() -> None:
    """摄影师小鸥 said once is someone; 小心 after a trade's noun (厨师小心地) and 小鸥 with no trade
    before (一只小鸥) are not."""
    assert "小鸥" in _found("开拍前，摄影师小鸥又调了调灯。")
    found = _found("厨师小心地端起锅。海面上飞过一只小鸥。")
    assert not {"小心", "小鸥"} & found


def test_a_name_word_and_what_it_became() -> None:
    """它在村里的名字却成了大金牙, 名字改成了…: a nickname given to a thing or someone; 名字成了问题 is a
    predicate (a common word, no frame of its own)."""
    found = _found("那只铜壶后来在村里的名字却成了大肚子，谁见了都笑。报名的时候，名字成了问题。")
    assert "大肚子" in found
    assert "问题" not in found


def test_a_name_written_on_a_thing_and_counted() -> None:
    """匾上写着三个字：望江楼, 刀鞘上刻着两个小字：照夜, 写着“听潮亭”三个字: a name written and counted, its
    length the count; a dictionary word quoted (“电话”两个字), a verb (写了两个字：回家) and a count that is
    not the word's length (四个字：青云) name nothing."""
    found = _found("匾上写着三个字：望江楼。刀鞘上刻着两个小字：照夜。石碑上刻着“听潮亭”三个字。"
                   "他一听见“电话”两个字就发愁。纸条上写了两个字：回家。信封上写着四个字：青云直上。门上写着四个字：青云。")
    assert {"望江楼", "照夜", "听潮亭"} <= found
    assert not {"电话", "回家", "青云"} & found


def test_a_nickname_given_by_a_frame_stays_a_name_when_the_word_is_also_counted() -> None:
    """大家就叫他核桃 names a boy, though the chapter also counts walnuts (两颗核桃); a counted fruit with
    no naming frame (三颗石榴) is none."""
    found = _found("这孩子没有大名，大家就叫他核桃。核桃手里攥着两颗核桃，核桃跑得飞快。她又摘了三颗石榴，石榴很甜。")
    assert "核桃" in found
    assert "石榴" not in found


def test_ao_a_bay_of_the_south_coast_makes_a_place() -> None:
    """鲸骨澳 (澳: a bay, as 湾): a place; 澳门 and 澳洲 are the dictionary's, not new."""
    found = _found("船队躲进了鲸骨澳。鲸骨澳外头风浪大，商船都往澳门去了，听说还有人去了澳洲。")
    assert "鲸骨澳" in found
    assert not {"澳门", "澳洲", "往澳门"} & found


def test_an_app_named_after_what_it_is() -> None:
    """直播平台星芒上, 打车软件快嘀的: an app no dictionary knows, named after its kind; 软件公司 and 平台
    老板 (dictionary words after the kind) are none."""
    found = _found("她每晚在直播平台星芒上唱歌。他用打车软件快嘀的优惠券。软件公司的人来了。平台老板的电话打不通。")
    assert {"星芒", "快嘀"} <= found
    assert not {"公司", "软件公司", "老板", "平台老板"} & found
