"""The new-name check, tenth round (task N10): names never proposed and words that read like names
and are none, found by scoring 专名-网文-盲评五 (a development set since this round) and grouped by
class. Each rule stands next to a wrong word in the same text; the forms here are none of that set's."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_thing_counted_by_its_measure_word_then_named() -> None:
    """一艘叫海燕号的渔船, 一把叫霜降的短刀: a thing counted by its own measure word, named, said to be one."""
    found = _found("码头边停着一艘叫海燕号的渔船，船头漆成了白色。他腰里别着一把叫霜降的短刀。")
    assert {"海燕号", "霜降"} <= found


def test_a_person_said_once_with_an_age_or_a_role_before() -> None:
    """严大江三十来岁, 东家白立言: a surname-led name said once, with its age or a word for someone;
    a surname that is an adjective too (白) before a dictionary word is someone after 东家."""
    found = _found("严大江三十来岁，在码头上扛了十年包。那年秋天，东家白立言亲自来送行，带了两坛酒。")
    assert {"严大江", "白立言"} <= found


def test_someones_name_a_comma_and_the_name() -> None:
    """写着他的名字，沈小禾: someone's 名字, a comma, the name; 名字，他想了想 names nothing."""
    found = _found("照片背后用铅笔写着他的名字，沈小禾。她念了一遍名字，他想了想，没说话。")
    assert "沈小禾" in found
    assert not {"他想了想", "想了想"} & found


def test_a_system_notice_names_what_it_gives_or_opens() -> None:
    """【副本名称：沉钟镇。】, 【通关奖励：引路灯。】: the values of a game's notice; a number (编号：一九) and
    a dictionary word (身份：新手) are none."""
    found = _found("【玩家编号：一九。身份：新手。】\n【副本名称：沉钟镇。】\n【通关奖励：引路灯。被动效果：夜里自亮。】")
    assert {"沉钟镇", "引路灯"} <= found
    assert not {"一九", "新手", "夜里自亮"} & found


def test_a_kind_of_thing_or_a_name_word_before_jiao() -> None:
    """那把匕首叫寒鸦, 一个组织，叫拾灯人, 起了个名字，叫银钩; 叫唤 is a verb, 叫他来 a call."""
    found = _found("那把匕首叫寒鸦，是他从第三个副本里带出来的。城里有一个组织，叫拾灯人，专收走丢的孩子。"
                   "他给那把弯刀起了个名字，叫银钩。老板娘扯着嗓子叫他来吃饭。")
    assert {"寒鸦", "拾灯人", "银钩"} <= found
    assert not {"他来", "叫他来"} & found


def test_a_numbered_part_leaves_the_named_thing() -> None:
    """长风号·第三车厢: the train is 长风号, the carriage a numbered part of it."""
    found = _found("我们要在天亮前登上长风号列车。车票上印着“长风号·第三车厢”。")
    assert "长风号" in found
    assert "长风号·第三车厢" not in found


def test_kinds_of_places_and_groups_as_suffixes() -> None:
    """青石球场, 回音大厅, 夜枭小队: modern kinds of places and groups; 七号+病房 (a number), 灰色+大厅 (a colour)
    and 门柱+帮+了 (a verb) are none."""
    found = _found("周末的比赛在青石球场。回音大厅里挤满了玩家，夜枭小队的人占了角落。回音大厅的灯灭了。"
                   "走廊尽头是七号病房。灰色大厅空无一人。好在门柱帮了一回忙。夜枭小队的人都笑了。")
    assert {"青石球场", "回音大厅", "夜枭小队"} <= found
    assert not {"七号病房", "灰色大厅", "门柱帮"} & found


def test_a_place_or_a_side_is_no_person() -> None:
    """塘埂上, 菜摊边上: a word one stands on or beside, never acting, is no one; 北+看台, said again, is a side of a stand (a direction before a built thing)."""
    found = _found("他站在塘埂上发呆。塘埂上一个人也没有。他爹的菜摊就在街口，他在菜摊边上蹲着。北看台上的人站了起来。"
                   "球迷在北看台的栏杆上挂横幅。")
    assert not {"塘埂", "菜摊", "北看台"} & found


def test_a_shop_mark_with_its_kind_of_shop_and_its_short_form() -> None:
    """孙记牛肉馆: the owner's mark, the trade and the kind of shop; 牛肉馆 after it is its short form."""
    found = _found("收工以后，他们在孙记牛肉馆里坐下。牛肉馆里人不多。")
    assert "孙记牛肉馆" in found
    assert "牛肉馆" not in found


def test_a_places_name_before_a_kind_of_group_and_a_group_word() -> None:
    """老渡口球迷会: a place's name and a kind of group; 同心马帮 said again: a dictionary noun led by 同 and a kind of group;
    马帮 alone is the ordinary word, no one named 马."""
    found = _found("老渡口球迷会的会长姓孔。老渡口球迷会每场都来。天一亮，同心马帮就要上路了。"
                   "这一趟，同心马帮驮的是茶。马帮走得很慢，马帮歇在河边。")
    assert {"老渡口球迷会", "同心马帮"} <= found
    assert "马帮" not in found


def test_a_thing_named_in_the_literary_genitive_said_again() -> None:
    """星海之泪 said twice is a thing's name; a phrase of older prose said once (相忌之心) is none."""
    found = _found("打完这个首领，掉落的星海之泪归你。他看着背包里的星海之泪发呆。二人素有相忌之心。")
    assert "星海之泪" in found
    assert "相忌之心" not in found


def test_an_office_said_right_after_a_name_said_once() -> None:
    """孟怀安，青石书院第一任院长: a surname-led name and its office after a comma; 我，一个人 is none."""
    found = _found("门口的铜牌上刻着：孟怀安，青石书院第一任院长，光绪年间建院。我，一个人，站了很久。")
    assert "孟怀安" in found


def test_a_cup_named_by_its_stem() -> None:
    """银帆杯 is a tournament's cup; 一杯, 茶杯, 举杯, 干了三杯 count or hold drinks."""
    found = _found("上个月他在银帆杯少年赛上进了四个球。老板给他倒了一杯酒，他端起茶杯，又举杯敬大家，"
                   "一口气干了三杯。玻璃杯碎了一地，满满一大杯啤酒洒在桌上。")
    assert "银帆杯" in found
    assert not {"一杯", "茶杯", "举杯", "三杯", "玻璃杯", "一大杯", "大杯"} & found
