"""The new-name check, thirty-fifth round (task N35, stop 60). Recall:

- someone introduced by full name once and called by given name after (:func:`_given_alone_candidates`): a surname
  and two characters said where a name stands, whose given name the story then keeps as the subject of its
  sentences, is someone's name, though the given name is a dictionary word (向东, 水生, 海燕);
- a foreign name written by sound (:func:`_transliterated_candidates`): a run of transliteration syllables
  (:data:`SOUND_CHARS`) said twice the same, one of :data:`SOUND_MARKS` in it;
- the ridges and tablelands of the loess country (梁, 塬, 峁) and the valley fields of the south (冲) name places
  (:data:`LANDFORM_HEADS`), 冲 before a direction or a pronoun being the verb (:data:`MOTION_SUFFIXES`);
- a shop said in full once and by its stem after (:func:`_shop_stem_candidates`, N34) may have a slogan for a stem
  (:data:`SLOGAN_STEMS`: 东风+照相馆) and a kind of shop of the dictionary after it (:data:`SHOP_KIND_GOODS`: 光华+器材行).

Precision guards: 连…都/也 (:data:`FOCUS_LEADS`) starts no name; a full name read inside an idiom (一+叶知秋) is none;
a surname that is a preposition too stays one where no clause opens before it (便向宝琴说道).

The sentences are made up for these tests; none is a labelled answer of any set."""

from __future__ import annotations

from lw_storyrepo.propernouns import (FOCUS_LEADS, LANDFORM_HEADS, MOTION_SUFFIXES, SLOGAN_STEMS, SOUND_CHARS, SOUND_MARKS,
                                      _given_alone_candidates, _transliterated_candidates, find_new_nouns, lexicon)


def _found(text: str, known: tuple[str, ...] = ()) -> set[str]:
    return {n.name for n in find_new_nouns(text, list(known))}


# a full name once, then the given name alone

_CALLED_BY_GIVEN = ("腊月初八，常东升扛着一卷铺盖进了镇上的油坊。\n"
                    "东升才十五岁，个子却不矮。\n东升把铺盖放在灶房边上。\n"
                    "老师傅问他会不会推磨，东升说会。\n晚上，东升睡在油桶旁边。")


def test_a_full_name_said_once_then_the_given_name_acting_is_someone() -> None:
    """常 is a surname the list of everyday surnames leaves out (常 also means often); 东升 is a dictionary word (the
    sun rising): the given name opening four clauses and acting vouches for 常东升."""
    assert "常东升" in _found(_CALLED_BY_GIVEN)
    assert ("常东升", 0, 5) in set(_given_alone_candidates(lexicon(), _CALLED_BY_GIVEN.split("\n")))


def test_a_full_name_after_a_word_for_someone_then_the_given_name() -> None:
    """Not opening a clause, but after a word for someone (表姐) and a surname that is only a surname (柏)."""
    text = ("那年冬天，她表姐柏春燕从县城回来了。\n春燕带回一台收音机。\n春燕说县城里人人都有。\n"
            "晚饭后春燕又去了河边。\n春燕走得很快。")
    assert "柏春燕" in _found(text)


def test_a_given_name_said_alone_but_never_acting_vouches_for_nothing() -> None:
    """Near miss: 东升 said alone three times, but as what the sun does (太阳东升), never opening a clause and acting:
    常东升 stays unread by this rule."""
    text = ("清晨，常东升的那块地里结了霜。\n太阳东升，霜化了。\n又一日太阳东升。\n太阳东升的时候，鸡叫了。")
    assert not any(name == "常东升" for name, _i, _c in _given_alone_candidates(lexicon(), text.split("\n")))


def test_a_preposition_surname_inside_a_clause_is_the_preposition() -> None:
    """Near miss: 向 is a surname and a preposition; 便向秋生 goes toward someone, no clause opens before it."""
    text = ("她便向秋生笑了笑。\n秋生没说话。\n秋生低下头。\n秋生又抬起头。\n秋生走了。")
    assert "向秋生" not in _found(text)


def test_the_focus_of_lian_dou_starts_no_name() -> None:
    """Near miss: 连 is a surname too, but 连…都 is the focus: 连铁蛋都 says even the nickname's owner."""
    assert "连" in FOCUS_LEADS
    text = ("天一黑，连铁蛋都不敢出门。\n铁蛋说河边有鬼。\n铁蛋躲在被窝里。\n铁蛋一夜没睡。")
    assert "连铁蛋" not in _found(text)


def test_a_full_name_read_inside_an_idiom_is_none() -> None:
    """Near miss: 一叶知秋 holds 叶 (a surname) and 知秋; a girl called 知秋 is not 叶知秋."""
    text = ("“一叶知秋，你就叫知秋吧。”\n知秋点点头。\n知秋从此住在庙里。\n知秋每天扫落叶。")
    assert not any(name == "叶知秋" for name, _i, _c in _given_alone_candidates(lexicon(), text.split("\n")))


# a foreign name written by sound

def test_a_foreign_name_by_sound_said_twice_is_a_name() -> None:
    """Two siblings of the pool's names no book has: a Russian engineer and an Italian priest."""
    assert set("彼得罗夫") - {"得"} <= SOUND_CHARS and set("罗夫") & SOUND_MARKS
    text = ("来的是个高个子工程师，叫科瓦廖夫斯基，也有人叫他萨莫伊洛夫。\n萨莫伊洛夫会说几句中国话。\n"
            "傍晚，萨莫伊洛夫在河边抽烟。")
    assert "萨莫伊洛夫" in _found(text)
    text = "神父名叫贝鲁诺尼。\n贝鲁诺尼在教堂后面种了一片葡萄。\n秋天，葡萄熟了。"
    assert "贝鲁诺尼" in {name for name, _i, _c in _transliterated_candidates(lexicon(), text.split("\n"))}


def test_native_words_of_sound_characters_are_no_foreign_name() -> None:
    """Near miss: runs of sound characters that hold no mark (维+持, 南+方) or are said once, or a famous name of the
    dictionary (马克思), are not read."""
    text = ("他们要维持南方的秩序。\n马克思的书摆在桌上。\n马克思写得很厚。\n他又去维持南方的秩序。")
    assert not list(_transliterated_candidates(lexicon(), text.split("\n")))


# the loess country's and the south's landforms

def test_a_ridge_and_a_tableland_name_places() -> None:
    """Siblings of the pool's 梁 and 塬 places: a ridge and a tableland no book names."""
    assert {"梁", "塬", "峁", "冲"} <= set(LANDFORM_HEADS)
    found = _found("羊群翻过了酸枣梁。\n酸枣梁北面是柿树塬，塬上有一口井。")
    assert {"酸枣梁", "柿树塬"} <= found


def test_a_valley_field_names_a_place_but_the_verb_of_rushing_does_not() -> None:
    """冲 a valley field of the south (桐子冲); near miss: 冲 the verb before a direction or a pronoun (狗子冲下来,
    阿毛冲她笑)."""
    assert "冲" in MOTION_SUFFIXES
    assert "桐子冲" in _found("他是山那边桐子冲的人。\n桐子冲的田都在山脚下。")
    found = _found("狗子冲下来，一把抓住了绳子。\n阿毛冲她笑了笑。\n狗子冲进屋里。")
    assert not {name for name in found if name.endswith("冲")}


# shops said once in full, then by their stem

def test_a_slogan_stem_names_a_shop_said_by_its_stem_after() -> None:
    """A 1960s state shop named by a slogan (红星, a sibling of the pool's 东风), said by its stem after."""
    assert "红星" in SLOGAN_STEMS
    text = "县里新开了一家红星照相馆。\n红星是全县头一家照相馆，门口总排着队。"
    assert "红星照相馆" in _found(text)


def test_a_kind_of_shop_after_a_stem_said_alone_names_the_shop() -> None:
    """What a shop sells and its trade word make a kind of shop of the dictionary (电器行): the stem before it, said
    alone after, names the shop (五金行 is no word of the dictionary: not read so)."""
    text = "他去镇上的永昌电器行买了两把锁。\n永昌的老板是个胖子，算盘打得飞快。"
    assert "永昌电器行" in _found(text)


def test_a_kind_of_shop_with_no_stem_said_alone_is_no_name() -> None:
    """Near miss: 电器行 after a word the draft never says alone (街口 is where it stands) names nothing new."""
    found = _found("他去街口电器行买了两个灯泡。\n老板是个胖子，算盘打得飞快。")
    assert not {name for name in found if name.endswith("电器行")}
