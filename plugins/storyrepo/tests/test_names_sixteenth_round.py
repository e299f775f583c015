"""The new-name check, sixteenth round (task N16): organisations and titled works, on the development books
专名-网文-盲评七, 八, 十 and 十一. Two classes kept: a work's title given by a word for a title (题目叫《X》), and a
paper or a work unit named by the place it serves (X日报, X井队, X航运公司), started by the place the book knows or
else by the shortest place candidate. The forms here are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import find_new_nouns


def _names(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def test_a_title_given_by_a_word_for_a_title_is_a_name_even_with_的_inside() -> None:
    """题目叫《X》, 标题叫《X》: the title is named whole, a phrase with 的 in it too."""
    found = _names("她在晚报上发了一首诗，题目叫《渡口的灯》，署名小禾。\n"
                   "那篇通讯的标题叫《雪夜赶车人》，登在头版。")
    assert {"渡口的灯", "雪夜赶车人"} <= found


def test_a_headline_said_to_be_a_title_names_no_work() -> None:
    """标题是《X》 says what a headline was, it names nothing of the story's world."""
    assert "桥头两店被查" not in _names("他点开那条新闻，标题是《桥头两店被查》。他看完就关了。")


def test_a_paper_or_a_work_unit_named_by_its_place_is_an_organisation() -> None:
    """A known place before 日报, 井队 or 航运公司 names a new organisation."""
    found = _names("第二天的柳渡日报登了一篇短评。\n他被分到芦台井队，当了司钻。\n那条拖轮是柳渡航运公司的。",
                   known=("柳渡", "芦台"))
    assert {"柳渡日报", "芦台井队", "柳渡航运公司"} <= found


def test_the_place_before_a_bureau_is_the_known_one_not_the_words_glued_before_it() -> None:
    """剧团受+柳渡市文化局: the bureau starts at the place, never at the verb glued before it."""
    found = _names("这一回，剧团受柳渡市文化局的邀请，去柳渡唱半个月。柳渡是个老码头。\n柳渡的戏园子多。", known=("柳渡",))
    assert "柳渡市文化局" in found
    assert not any(n.startswith("受") or n.startswith("团受") for n in found)
    unknown = _names("剧团的火车停在了柳渡市。\n这一回，剧团受柳渡市文化局的邀请，来柳渡演半个月。柳渡是个老码头。\n她是柳渡人。")
    assert "柳渡市文化局" in unknown


def test_a_work_unit_word_alone_or_after_a_common_word_is_no_name() -> None:
    """日报, 林场 said of no place (省里的日报, 附近的林场) name nothing."""
    found = _names("省里的日报来了个记者。附近的林场在招人。")
    assert not {"日报", "林场"} & found
