"""The new-name check, eighteenth round (task N18): recall on the names never proposed, across authors, read off the
misses of the development books 专名-网文-盲评十, 十一, 十二 and 十三. Five forms are names now: a title only ever said
in 《》 that no dictionary knows; a work given its title by 叫 (叫《X》), and any name given in a naming frame though a
known name stands inside it; a word a quote opens by asking who it is (“X是谁？”); a word a sentence opens on and
counts as one of a kind (X是…的一条…); an organisation the text says in full and short (德兴曲艺社, 德兴社). The
sentences here are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import ASKED_WHO, DEFINED_ONE, TITLED, _said_alone, find_new_nouns, lexicon


def _names(text: str, known: tuple[str, ...] = ()) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, list(known))}


def test_a_title_only_said_in_brackets_that_no_dictionary_knows_is_the_storys_work() -> None:
    """《秋灯谱》 is written in the story: a thing of its world, not a play of older prose the dictionary knows."""
    found = _names("今晚唱他的新本子，《秋灯谱》。\n《秋灯谱》唱完，台下没人说话。")
    assert found.get("秋灯谱") == "物品"
    assert "翠屏山" not in _names("台上正在演那《翠屏山》。\n看客们都说《翠屏山》唱得好。")


def test_a_work_given_its_title_by_a_naming_verb_is_named_whole() -> None:
    """叫《X》 and 起名叫《X》 name a work as 题目叫《X》 does; a known place inside the title does not hide it."""
    assert TITLED.search("他把这事编成一段，起名叫《瓦罐开花》。") is not None
    assert TITLED.search("标题是《瓦罐开花》。") is None  # says what a headline was, names nothing
    assert "瓦罐开花" in _names("他把这事编成一段，起名叫《瓦罐开花》。")
    found = _names("报上登了一篇文章，题目叫《石门坎上的哨兵》。大家传着看。", known=("石门坎",))
    assert "石门坎上的哨兵" in found


def test_a_name_given_in_a_naming_frame_holding_a_known_name_is_new() -> None:
    """叫它新杏林村: the new village is named after the old one the book knows; 叫它 names it all the same."""
    found = _names("村子搬到了坡上，乡亲们舍不得老名字，就叫它新杏林村。", known=("杏林村",))
    assert "新杏林村" in found
    assert "杏林村" not in found


def test_a_word_a_quote_asks_about_by_name_is_someone() -> None:
    """“X是谁？” opening a quote asks about someone by name, a nickname of ordinary words too; a pronoun phrase,
    a word for someone or a clause with an adverb at its end is no name."""
    found = _names("信是山里客寄来的。\n“山里客是谁？”她问。\n没人知道山里客住在哪儿。")
    assert found.get("山里客") == "人物"
    assert [m.group(1) for m in ASKED_WHO.finditer("“那人是谁？”")] == ["那人"]
    quiet = _names("“那人是谁？”\n“店主又是谁？”\n“老板是谁？”")
    assert not {"那人", "店主又", "老板"} & set(quiet)


def test_a_word_counted_as_one_of_a_kind_is_that_ones_name() -> None:
    """X是…的一条窄巷 says X is one particular lane: its name, a dictionary word said again too; a word for someone
    (店主是…的一个远房亲戚) names nobody."""
    text = "他们住在槐荫里。\n槐荫里是城北的一条窄巷，巷子里住着七八户人家。"
    assert [m.group(1) for m in DEFINED_ONE.finditer(text.split("\n")[1])] == ["槐荫里"]
    assert "槐荫里" in _names(text)
    found = _names("码头上的人都认得老黄牛。\n老黄牛是码头上年纪最大的一台吊车，一九九八年装的。")
    assert "老黄牛" in found
    assert "店主" not in _names("店主是他的一个远房亲戚。店主姓何。")


def test_an_organisation_said_in_full_and_short_is_named_in_full() -> None:
    """德顺+评书+社 beside 德顺社: the short form leaves the trade out; 民间队 inside 民间队伍 is no short form."""
    found = _names("他去投奔德顺评书社。\n到了才知道，德顺社只剩三个人。")
    assert found.get("德顺评书社") == "组织"
    assert "民间队" not in _said_alone(lexicon(), "他们是山地救援队的民间队伍。")
    assert "民间救援队" not in _names("来的是一支民间救援队。\n那是山地救援队的民间队伍。")


def test_an_ordinary_sentence_gives_no_name() -> None:
    """The five forms leave ordinary prose alone."""
    found = _names("他是厂里年纪最大的一个工人。\n天黑了，她把灯点上，坐在窗前写信。")
    assert not found
