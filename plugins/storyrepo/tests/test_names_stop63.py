"""The new-name check, thirty-eighth round (task N38, stop 63). Recall:

- a nickname made of an ordinary word (:data:`NICKNAME_SHAPES`, :func:`_nickname_candidates`): a dictionary noun the draft
  shows as a person on two lines or more -- others call him so (都喊他X), he is addressed by it (“X，你…”), he speaks under
  it (”X说), a sentence defines it as someone (X是…的船工), a quote asks it back (“X？”), he makes a person's gesture (X点点头).

Precision: 叫 with someone told to act (叫人+去砌墙, 叫我+姐+念, 叫他+拆开+读: :func:`_ordered_act`) names nobody.

The sentences are made up for these tests; none is a labelled answer of any set. The nicknames (瓦罐, 陀螺, 铁锨, 算珠) are
words no development book uses as one (siblings of the class, held out per word)."""

from __future__ import annotations

from lw_storyrepo.propernouns import NICKNAME_LINES_MIN, _nickname_candidates, _ordered_act, find_new_nouns, lexicon


def _found(text: str, known: tuple[str, ...] = ()) -> dict[str, str]:
    return {n.name: n.kind for n in find_new_nouns(text, list(known))}


def _nicknames(text: str) -> list[str]:
    return [name for name, _i, _col in _nickname_candidates(lexicon(), text.split("\n"))]


def test_an_ordinary_word_called_addressed_and_acting_is_someone() -> None:
    """Called (都喊他), addressed (“X，你…”) and a gesture (X点点头): three lines, one person."""
    text = "站里新来的小伙子都喊他瓦罐。\n“瓦罐，你把这箱子搬到后头去。”老周说。\n瓦罐点点头，扛起箱子就走。"
    assert _found(text).get("瓦罐") == "人物"


def test_a_word_asked_back_then_speaking_is_someone() -> None:
    """Said as whom to learn from, asked back alone (“X？”), then the speaker after a quote."""
    text = "厂长说：“明天你跟陀螺学。”\n“陀螺？”\n“车间里转得最快的那个。”\n“来了。”陀螺说。"
    assert _found(text).get("陀螺") == "人物"


def test_a_word_defined_as_someone_then_speaking_is_someone() -> None:
    """X是…的老船工 (a word for someone ends the clause), then ”X说."""
    text = "铁锨是队里年纪最大的老船工，话不多。\n“走吧。”铁锨说。"
    assert _found(text).get("铁锨") == "人物"


def test_a_nickname_is_a_person_whatever_its_suffix_reads() -> None:
    """算珠 ends like a bead (an item's suffix); called her and addressed, it is someone."""
    text = "新来的学徒都叫她算珠。\n“算珠，你把账再对一遍。”"
    assert _found(text).get("算珠") == "人物"


def test_one_line_is_not_enough() -> None:
    """Near miss: one address, then the thing itself (他把瓦罐放下): NICKNAME_LINES_MIN lines are needed."""
    assert NICKNAME_LINES_MIN == 2
    assert _nicknames("“瓦罐，你小心点。”她说。\n他把瓦罐放下。") == []
    assert "瓦罐" not in _found("“瓦罐，你小心点。”她说。\n他把瓦罐放下。")


def test_the_thing_itself_and_a_childs_cry_are_no_one() -> None:
    """Near miss: the real top (一只陀螺, 陀螺转得飞快) and children crying its name with no one addressed."""
    text = "他手里转着一只陀螺。\n陀螺转得飞快，孩子们围着看。\n“陀螺，陀螺！”孩子们喊。"
    assert "陀螺" not in _found(text)


def test_a_description_counted_as_a_person_is_no_name() -> None:
    """Near miss: 那个光头 (a person's measure before it) addressed and speaking: a description, not a nickname."""
    text = "那个光头点点头。\n“光头，你过来。”老周说。\n“来了。”光头说。"
    assert "光头" not in _found(text)
    assert _nicknames(text) == []


def test_a_time_word_addressed_is_no_name() -> None:
    """Near miss: 明天，你… opens two quotes; a time word is no nickname."""
    assert _nicknames("“明天，你早点来。”\n“明天，你们都去。”她说。") == []


def test_someone_told_to_act_is_no_name() -> None:
    """叫 + someone (人, a kin word, a pronoun) + a verb: an order. Siblings no book uses (砌墙, 地基, 姐, 拆开读)."""
    lex = lexicon()
    assert _ordered_act(lex, "人去砌墙") and _ordered_act(lex, "人打地基")
    assert _ordered_act(lex, "姐念") and _ordered_act(lex, "娘来接")
    assert _ordered_act(lex, "拆开读")
    assert "人去砌墙" not in _found("汪老板当场叫人去砌墙。")
    assert "人打地基" not in _found("他看完了，才叫人打地基。")
    assert "姐念" not in _found("我娘不识字，叫我姐念。")
    assert "拆开读" not in _found("信是从乡下寄来的，掌柜叫他拆开读。")


def test_a_name_after_a_call_stays_a_name() -> None:
    """Near misses of the order: a name (阿福, 铁柱), a verb and a thing (发光+石, 充电+线) after 叫 are names."""
    lex = lexicon()
    assert not _ordered_act(lex, "阿福") and not _ordered_act(lex, "铁柱")
    assert not _ordered_act(lex, "发光石") and not _ordered_act(lex, "充电线")
    assert _found("村里人都叫他铁柱。\n铁柱笑了笑。").get("铁柱") == "人物"



def test_terms_of_address_body_parts_crowds_and_topics_are_no_nicknames() -> None:
    """r63-4, r63-5, r63-6, r63-22, r63-23, r63-29, r63-30: two addresses (笨蛋, 来人, 小时候), two gestures (眉头, 大伙,
    老两口), an echo and a thing's definition (渡口是个小码头) show no one in the third person (NICKNAME_SAID_SHAPES)."""
    known = ("王建国", "李秀兰")
    cases = ("王建国听完没吭声，眉头皱了起来。\n李秀兰又说了一遍，他还是不吭声，眉头皱得更紧了。",
             "“笨蛋，你又忘了带钥匙！”李秀兰在门口喊。\n“笨蛋！快去拿呀。”",
             "“来人！快把他拖下去！”王建国一拍桌子。\n“来人！把门关上！”",
             "王建国说完，大伙笑了。\n李秀兰又讲了个笑话，大伙笑着散了。",
             "王建国说完，老两口笑了。\n饭后又聊了一阵，老两口点点头，各自回屋。",
             "“明早去渡口。”王建国说。\n“渡口？”李秀兰一愣。\n渡口是个小码头，一天只有两班船。",
             "“小时候，我最怕打雷。”李秀兰说。\n“小时候，娘总给我煮鸡蛋。”",
             "“供销社，你去过没有？”王建国问。\n“供销社？”李秀兰一愣。")
    for text in cases:
        assert _nicknames(text) == [], text
        assert not set(_found(text, known)) - {"供销社"}, text
