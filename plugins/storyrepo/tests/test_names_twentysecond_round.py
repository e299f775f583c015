"""The new-name check, twenty-second round (task N22): recall by the form of the name, not by one set's words. The
misses of the development books 专名-网文-盲评十二 to 十五 (and of every other development book, for each form) were
sorted by why (never proposed: the segmenter split the name or no frame was read; proposed and refused: which rule),
and the biggest forms are read here in general. Each form has sentences of other genres than the sets', and ordinary
words of the same shape that stay no names. The sentences are made up for these tests; none is a labelled
answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _names(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_surname_and_a_given_name_named_by_jiao_whole() -> None:
    """叫于明 (于 a preposition too), 叫林安和 (和 a conjunction too): in the naming frame a surname and characters
    that read as a given name are read whole; a dictionary word of that shape (叫向前, an order to go on) is none."""
    found = _names("新来的会计，叫于明，不爱说话。\n掌柜的侄子叫林安和，在柜台后头记账。林安和算盘打得快。")
    assert {"于明", "林安和"} <= found and "林安" not in found
    assert not {"向前", "前"} & _names("班长叫向前，大家都往前走。")


def test_a_name_given_by_a_naming_frame_of_any_trade() -> None:
    """一个叫X的 before any word for someone (用户, 乘客), 管它叫X (a thing named), 微信名叫“X” and a quoted name with
    a particle inside (名字叫“那年那月”): the frame names; a question or a feeling in the frame names nothing."""
    text = ("论坛上有一个叫老船长的用户，天天发帖。\n车厢里有个叫林默的乘客，一直看窗外。\n"
            "村里人管它叫铜喇叭，那口钟一敲半个镇都听得见。\n她的微信名叫“岁月静好”，头像是一片海。\n"
            "那个小店的名字叫“那年那月”，卖旧书。")
    found = {n.name: n.kind for n in find_new_nouns(text, [])}
    assert {"老船长", "林默", "铜喇叭", "岁月静好", "那年那月"} <= set(found)
    assert found["铜喇叭"] == "物品"
    ordinary = _names("一个叫人心疼的学生，站在门口。\n你们管它叫什么？\n它叫了一声，跑了。\n这名字叫什么？")
    assert not {"人心疼", "什么", "了一声"} & ordinary


def test_a_newspaper_named_in_title_marks() -> None:
    """《X报》, 《X刊》: a paper or a magazine of the story's world, a group; the dictionary's own paper (《人民日报》)
    and a play's title (《翠屏山》, said on the stage) are no new group."""
    found = {n.name: n.kind for n in find_new_nouns("矿区的《井下快报》登了他的名字。\n他订了一份《山野月刊》，每月初到。", [])}
    assert found.get("井下快报") == "组织" and found.get("山野月刊") == "组织"
    ordinary = _names("桌上放着一份《人民日报》。\n戏台上正唱《翠屏山》，唱完了又唱《翠屏山》。")
    assert not {"人民日报", "翠屏山"} & ordinary


def test_someone_said_once_after_a_word_for_an_office_or_a_trade() -> None:
    """A surname-led name right after a noun for someone by office or trade ending 户, 史, 警, 官, 吏, 兵, 卒, 商 or 令
    (猎户林大山, 御史周文渊): that person, said once; a noun of that ending before a common word (窗户+张望, 历史+王朝)
    names no one."""
    found = {n.name: n.kind for n in find_new_nouns("猎户林大山背着弓进了村。\n第二天御史周文渊上了一道折子。", [])}
    assert found.get("林大山") == "人物" and found.get("周文渊") == "人物"
    assert not _names("他推开窗户张望了一下。\n这段历史王朝更替太快。")


def test_a_place_name_before_a_town_word_the_segmenter_split() -> None:
    """玉+山镇: the segmenter cut a town's name into a character and a common word (山镇); a stem the dictionary
    knows as a name (玉山) and a town's word make the town. A size word before the common word stays a
    description (小+山镇)."""
    assert "玉山镇" in _names("信寄到了玉山镇。玉山镇的邮局很小。")
    assert not {"小山镇", "从小山镇"} & _names("他从小山镇来。小山镇的人都认识他。")


def test_someone_by_trade_called_by_a_common_word() -> None:
    """最红的主播叫奶糖, 船上的水手叫海带: after a word for someone by trade, 叫 and a common word is what that person
    is called, not a call for the thing; a relative's word (孩子叫妈妈) is no name."""
    assert "奶糖" in _names("直播间里人气最高的主播叫奶糖。奶糖每天唱歌。")
    assert "海带" in _names("船上的水手叫海带，海带会游泳，海带还会补网。")
    assert not _names("孩子叫妈妈。妈妈来了。")


def test_a_things_own_name_carved_or_painted_on_it() -> None:
    """刻着/写着/漆着 and a counted inscription of the name's length: the thing's name, a word of the dictionary or a
    doubled pet name too (老黄牛 on a boat, 豆豆 on a collar); a frequent word or a predicate written so is a message
    (保重, 危险, 平安), a laugh no name (哈哈)."""
    found = _names("船舷上漆着三个大字：老黄牛。\n枪托上刻着两个字：黑鹰。\n项圈上刻着两个小字：豆豆。")
    assert {"老黄牛", "黑鹰", "豆豆"} <= found
    assert not _names("信封上写着两个字：保重。\n牌子上写着两个大字：危险。\n纸上写着两个字：哈哈。\n门上写着两个字：平安。")


def test_what_people_call_a_thing_or_someone() -> None:
    """管它叫X, 都叫它X, 管他叫X: what a thing or someone is called, whole up to six characters (管它叫钢铁大骆驼); a
    question (管这叫什么), a verb's end (管它叫了半天) and what he is to them (管他叫二叔, 管他叫师傅) are none."""
    found = {n.name: n.kind for n in find_new_nouns("机修班管它叫钢铁大骆驼。\n那台旧机器，厂里都叫它铁皮老黄牛。\n"
                                                     "镇上的人管他叫赛半仙老周，他也不恼。", [])}
    assert found.get("钢铁大骆驼") == "物品" and found.get("铁皮老黄牛") == "物品" and found.get("赛半仙老周") == "人物"
    assert not _names("你管这叫什么？\n我们管它叫了半天。\n外人面前，他管他叫二叔。\n徒弟们都管他叫师傅。")


def test_a_kind_of_thing_named_at_length_or_by_a_verbs_character() -> None:
    """一种道具，叫X of five or six characters, a name that ends in 人 (替身纸扎人);
    名字叫X whose first character is a verb's too (回, 出, 来: 回春针, 出云); 外号 with no naming verb names nothing
    (外号有来历), nor 名字叫 a particle's clause."""
    found = _names("背包里有一件法宝，叫千里追魂铃，一摇就响。\n他们给新队员发了一样东西，名字叫回春针，能止血。\n"
                   "那条狗的名字叫出云，跑得飞快。\n商店里最贵的道具，叫替身纸扎人。")
    assert {"千里追魂铃", "回春针", "出云", "替身纸扎人"} <= found
    assert not _names("这个外号有来历。\n名字叫出来吧。")


def test_a_pen_name_a_call_sign_and_a_style_taken_by_oneself() -> None:
    """笔名, 署名, 呼号, 自号 name like 外号 (署名是听雨客, 呼号是北岸三号, 自号青灯居士: a title that is a name);
    the verb 呼号 (哭喊呼号) and 署名 as an act (请在这里署名) name nothing."""
    found = _names("报上那篇小说，署名是听雨客。\n对讲机里的呼号是北岸三号。\n那位老先生自号青灯居士，不问世事。\n"
                   "她的笔名叫南枝，写了十年。")
    assert {"听雨客", "北岸三号", "青灯居士", "南枝"} <= found
    assert not _names("难民们哭喊呼号，声震四野。\n请在这里署名。\n署名处还空着。")


def test_a_name_read_off_a_sign_or_a_letter() -> None:
    """木牌：X, 写的是：X: a sign's or a letter's name, its particle-like character inside a word (山地) and a verb in
    its stem (兴华+印刷厂) too; a message written out (明天来, 快走) is none."""
    found = _names("村口立着一块木牌：白桦山地骑行队。\n调令上写的是：兴华印刷厂。")
    assert {"白桦山地骑行队", "兴华印刷厂"} <= found
    assert not _names("信上写着：明天来。\n纸条上写着：快走。")
