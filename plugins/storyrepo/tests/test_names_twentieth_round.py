"""The new-name check, twentieth round (task N20): precision on fresh text, the false names the nineteenth round
left, by their form, across the development books 专名-网文-盲评七, 八, 十, 十一, 十二 and 十三. Two forms are no new
names: 老, 小 or 大 before a dictionary word for a relative or an address (someone called by what they are, even
in a naming frame); a common word the dictionary tags as a person's name, frequent in its corpus, said with no
context and in no naming frame (a tree, a tool, a compass). The sentences here are made up for these tests; none
is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import _address_word, _common_misread, find_new_nouns, lexicon


def _names(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_an_old_mother_is_called_by_what_she_is() -> None:
    """老+阿妈, 小+郎君, 大+姑: a lead of age or size before a dictionary word for a relative or an address."""
    lex = lexicon()
    assert _address_word(lex, "老阿妈") and _address_word(lex, "小郎君")
    text = "山口的帐篷里住着一个老阿妈。老阿妈把奶茶倒进碗里，看着他们喝完。"
    assert "老阿妈" not in _names(text)


def test_a_naming_frame_does_not_make_an_address_a_name() -> None:
    """叫他小郎君: they call the young clerk what he is; the frame gives no name."""
    text = "驼队的人叫他书生，叫他小郎君，没人问他姓什么。小郎君也不说。"
    assert "小郎君" not in _names(text)


def test_nicknames_and_surname_led_addresses_are_not_touched() -> None:
    """老黄牛 ends in no word for a relative; 王老爷 and 刘公公 open on a surname; 阿妈 alone has no lead."""
    lex = lexicon()
    for word in ("老黄牛", "小哑巴", "王老爷", "刘公公", "阿妈", "老苟"):
        assert not _address_word(lex, word), word


def test_a_frequent_word_tagged_as_a_name_said_with_no_context_is_the_thing() -> None:
    """柳树 by the dyke, 罗盘 on the table: the tagger calls them people's names; nothing in the text does."""
    lex = lexicon()
    assert _common_misread(lex, "柳树")
    text = "河堤下面的柳树只剩半截。风一吹，柳树的叶子全落在水里。到了秋天，柳树就光了。"
    assert "柳树" not in _names(text)


def test_a_rare_name_the_dictionary_knows_is_left_to_the_other_rules() -> None:
    """A coined given name or a rare dictionary name is no frequent misread word."""
    lex = lexicon()
    assert not _common_misread(lex, "林浩然")
    assert not _common_misread(lex, "蓝鲸")
    assert not _common_misread(lex, "丫头")  # a common noun, not tagged as a name: other rules weigh it
