"""The new-name check, thirty-seventh round (task N37, stop 62). Recall:

- a body named by its place in a series (:func:`_ordinal_body_candidates`: 第, a numeral, a trade and a head of
  :data:`ORDINAL_BODY_HEADS`), with the real place before it when there is one;
- a naming verb before a body's whole name (:data:`CALLED_BODY`: 叫+stem+供销社/公司/俱乐部…), however long its stem;
- a firm said in full once the draft makes its short name the subject of what it is (:data:`FIRM_DEFINED`: X是跑船的, X是…
  的公司; :func:`_firm_short_candidates`), the trade words after the short name open;
- a name a naming verb introduces before a closing particle (:data:`CLOSING_PARTICLES`: 叫你X啦).

Precision: a surname's character that is a measure after a numeral (一汪+咸水: :data:`THING_MEASURES`), a subject glued to
a clause adverb (X+就是…: :func:`_subject_adverb_glued`), an ease predicate (路+好走: :func:`_ease_predicate`) and an act
and its object after a modal (会+画草图: :func:`_verb_object`) are no names.

The sentences are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (CALLED_BODY, CLOSING_PARTICLES, FIRM_DEFINED, THING_MEASURES, _ease_predicate,
                                      _ordinal_body_candidates, _subject_adverb_glued, _verb_object, find_new_nouns,
                                      lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


def _ordinal(line: str) -> list[str]:
    lex = lexicon()
    return [name for name, _col in _ordinal_body_candidates(lex, line, lex.boundaries(line))]


def test_a_body_numbered_in_its_series_is_an_organisation() -> None:
    """Siblings no book uses: a drilling brigade, a machine works, a railway office, with and without a province."""
    assert _ordinal("他被分到甘肃第二勘探大队，一干就是八年。") == ["甘肃第二勘探大队"]
    assert _ordinal("父亲在第五机械厂当钳工。") == ["第五机械厂"]
    assert "第四铁路工程处" in _found("老马是第四铁路工程处的，修了一辈子桥。\n第四铁路工程处的人都认识他。")


def test_an_ordinal_that_counts_is_no_body() -> None:
    """Near misses: the first time, the third works (counted), the team's leader, a clause between 第N and 队."""
    assert _ordinal("那是他第一次进厂。") == []
    assert _ordinal("这是他待过的第三个厂。") == []
    assert _ordinal("他当了第七地质队长。") == []
    assert _ordinal("第一次公演是团里最热闹的一天。") == []


def test_a_naming_verb_before_a_bodys_whole_name() -> None:
    """A stem of two to eight characters before a body's head, after 叫/名叫: the whole body (CALLED_BODY)."""
    assert CALLED_BODY.search("镇上有个合作社，叫石湖渡合作社，收鱼也卖网。")
    assert "石湖渡合作社" in _found("镇上有个合作社，叫石湖渡合作社，收鱼也卖网。\n她每月去一趟。")
    assert "远山徒步俱乐部" in _found("他加入了一个俱乐部，名叫远山徒步俱乐部。\n周末就去爬山。")


def test_a_call_for_a_body_is_no_name() -> None:
    """Near misses: a pronoun or a demonstrative after 叫 (叫他们公司, 叫这个公司), what it is not called (不叫…)."""
    assert not CALLED_BODY.search("这事不叫南山公司，你记错了。")
    found = _found("老板说，叫他们公司派人来。\n叫这个公司也行。")
    assert not {n for n in found if n.endswith("公司")}


def test_a_firm_said_in_full_once_its_short_name_is_defined() -> None:
    """Siblings no book uses: a hauling firm (X是拉货的), a printing studio (X是…的公司), the trade words open."""
    text = "街口有一家顺达货运，门口停着三辆卡车。\n“顺达是拉货的，”舅舅说，“咱的煤都是它给运。”"
    assert FIRM_DEFINED.search("“顺达是拉货的，”舅舅说")
    assert "顺达货运" in _found(text)
    text = "接活的是青禾印艺。青禾是城南做丝网印刷最老的公司。\n青禾的老板姓许。"
    assert "青禾印艺" in _found(text)


def test_a_thing_defined_by_its_use_defines_no_firm() -> None:
    """Near misses: what a thing is used for (X是…用的), a definition across a comma (the firm word in another clause)."""
    assert not FIRM_DEFINED.search("稻草是冬天烧炕用的，可没一家舍得烧。")
    assert not FIRM_DEFINED.search("米酒是按外婆的方子，在镇上找了个酒厂做的。")
    found = _found("稻草是冬天烧炕用的，可没一家舍得烧。\n她把攒的稻草全搬出来了。")
    assert "稻草全搬" not in found


def test_a_name_introduced_before_a_closing_particle() -> None:
    """叫你X啦 / 叫他X呀: the name without the particle (siblings 呀, 嘛 beside 啦)."""
    assert set("啦呀嘛") <= set(CLOSING_PARTICLES)
    text = "她笑着说：“以后就叫你豆芽啦。”\n豆芽点点头。\n豆芽从此有了名字。"
    found = _found(text)
    assert "豆芽" in found and "豆芽啦" not in found
    found = _found("“那就叫他石墩呀！”\n石墩憨憨地笑了。\n石墩力气大。")
    assert "石墩呀" not in found


def test_a_measure_that_is_a_surname_counts_a_thing() -> None:
    """一汪+咸水, 两包+点心, 一顶+毡帽: the measure counts; no one named 汪咸水 (near miss: 汪 after no numeral is a surname)."""
    assert set("汪包顶盘") <= THING_MEASURES
    found = _found("崖下有一汪咸水，白花花的。\n那汪咸水映着云。")
    assert "汪咸水" not in found
    found = _found("他提着两包点心进了门。\n那包点心是给外婆的。")
    assert "包点心" not in found


def test_a_subject_glued_to_a_clause_adverb() -> None:
    """X+就 where the draft says X more on its own: the subject and its adverb (X+也, X+都 the siblings)."""
    text = "小满就是冲着这份活来的。\n第二天小满就到了码头。\n小满拿起扫帚。小满没说话。"
    assert _subject_adverb_glued(text, "小满就")
    assert not _subject_adverb_glued("周成就来了。", "周成就")  # said whole as often as its head: left to the others
    assert "小满就" not in _found(text, ("小满",))


def test_an_ease_predicate_is_no_person() -> None:
    """路+好走, 门+难进: 好/难 before a verb's character every time; a name said before another word stays."""
    lex = lexicon()
    assert _ease_predicate(lex, "过了山口，路好走了些。", "路好")
    assert _ease_predicate(lex, "这扇门难进得很。", "门难")
    assert not _ease_predicate(lex, "路好，你过来。路好的鞋破了。", "路好")  # said before a comma and 的: someone
    assert not _ease_predicate(lex, "路好走了些。路好的鞋破了。", "路好")  # once before 的: not every time a predicate
    assert "路好" not in _found("过了山口，路好走了些。\n他们歇了一会儿。")


def test_an_act_and_its_object_after_a_modal() -> None:
    """会+画草图, 一张一张地+写对联: one character and a noun of the dictionary, only after a modal or 地."""
    lex = lexicon()
    assert _verb_object(lex, "我会画草图。她一张一张地画草图。", "画草图")
    assert _verb_object(lex, "他会写对联。", "写对联")
    assert not _verb_object(lex, "墙上那张画草图旧了。我会画草图。", "画草图")  # said once as a thing: left to the others


def test_a_things_kind_before_its_name() -> None:
    """这条船叫X, 这马叫X, 管这辆车叫X, 这铃叫X: an ordinary word after a thing's or a beast's kind and 叫 is its name
    (siblings no book uses: a pigeon, a drum)."""
    assert "铁头" in _found("他那只灰鸽叫铁头，飞得最远。\n铁头每天早上回笼。")
    assert "响雷" in _found("祠堂里那面鼓叫响雷，一敲半个镇都听得见。\n响雷是老族长留下的。")
    found = {n.name: n.kind for n in find_new_nouns("村里那条渡船叫太平，船板补了又补。\n太平靠了岸。", [])}
    assert found.get("太平") == "物品"


def test_a_beasts_cry_is_no_name() -> None:
    """Near misses: 叫 as the beast's cry or a call (马叫了两声, 鸡叫头遍, 狗叫得凶), a call for a thing (叫条船)."""
    found = _found("院里的马叫了两声。\n天快亮时鸡叫头遍。\n那条狗叫得凶。")
    assert not found & {"了两声", "头遍", "得凶"}


def test_a_nickname_word_a_comma_and_called() -> None:
    """有了外号，叫X; 绰号，叫作X: someone's nickname. Near miss: 外号，是… goes on as a clause."""
    assert "秤杆" in _found("到了秋天，他有了外号，叫秤杆。\n秤杆瘦得像根竹子。")
    found = _found("这个外号，是亲近的意思。\n大家都笑了。")
    assert not {n for n in found if n.startswith("是")}


def test_the_passive_called_is_no_name() -> None:
    """r62-1: 叫 after a beast or a thing is the northern passive as often as a naming (X叫Y+verb+了): no name. Near
    miss: a name said with 了 after it (往后它就叫千里眼了) stays."""
    for text, deed in (("那匹马叫狼叼走了。", "狼叼走"), ("这条船叫浪打翻了。", "浪打翻"), ("那只猫叫狗咬伤了。", "狗咬伤"),
                       ("这头驴叫雨淋病了。", "雨淋病"), ("老汉说这铃叫风吹响了。", "风吹响"), ("那口钟叫人敲破。", "人敲破")):
        assert deed not in _found(text), text
    assert "顺水耳" in _found("往后这条船就叫顺水耳了，你别改。\n顺水耳靠了岸。")


def test_a_first_moment_or_echelon_is_no_body() -> None:
    """r62-2: 第一时间+赶回+厂, 第一时间+冲进+营, 第一梯队: a moment, a verb of going, a common noun — no numbered body."""
    assert _ordinal("出了事，他第一时间赶回厂。") == []
    assert _ordinal("枪声一响，三排第一时间冲进营。") == []
    assert _ordinal("咱们是第一梯队，先上。") == []
    assert _ordinal("他们第二天跑去厂里。") == []
    assert _ordinal("她调进了第六纺织厂。") == ["第六纺织厂"]  # a trade of nouns still names the body


def test_a_surname_measure_before_a_full_name_said_alone() -> None:
    """r62-3: 这席明月 with 席明月 said alone elsewhere is someone, not a thing counted (the measure counts only after a
    numeral, every time)."""
    assert "席明月" in _found("席明月坐在门口。这席明月，从小就爱哭。席明月抹了抹眼睛。")
    assert "包青禾" in _found("包青禾推门进来。一包青禾说不上，可包青禾笑了。")
