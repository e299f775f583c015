"""The shortcuts that keep a draft's checks fast read what the longer way read (Q1, stop 58): a famous name is looked
up only where its first two characters stand, a 某记 shop only in a line with 记, a set of words' guarded pattern is
built once and finds what the plain alternation finds."""

from __future__ import annotations

import re

from lw_storyrepo import propernouns
from lw_storyrepo.propernouns import find_new_nouns, lexicon
from lw_storyrepo.wordsre import guarded


def test_every_famous_name_starts_with_a_head_the_lexicon_keeps() -> None:
    """A place is skipped when its two characters are no head: no famous name of two or three characters starts
    there, so none is skipped that the dictionary knows."""
    lex = lexicon()
    assert lex.famous() and all(name[:2] in lex.famous_heads for name in lex.famous())
    text = "宋江道：“多闻你的大名。”宋江笑了。\n他明白了，明白道理。"
    lines = text.split("\n")
    bounds_of = {i: lex.boundaries(line) for i, line in enumerate(lines)}
    found = {name for name, _col, _i in propernouns._famous_candidates(lex, lines, bounds_of)}
    assert found == {"宋江"}  # 明白 (tag nr too) acts as nobody
    assert {n.name: n.kind for n in find_new_nouns(text, [])}.get("宋江") == "人物"


def test_a_shop_is_read_in_a_line_with_its_mark_only() -> None:
    lex = lexicon()
    line = "他在许记面馆吃了一碗面，许记面馆的老板笑了。"
    assert ("许记面馆", 2) in list(propernouns._shop_candidates(lex, line, lex.boundaries(line)))
    plain = "他在面馆吃了一碗面，老板笑了。"
    assert list(propernouns._shop_candidates(lex, plain, lex.boundaries(plain))) == []


def test_a_guarded_pattern_is_built_once_and_finds_what_the_plain_alternation_finds() -> None:
    words = ["青石镇", "青石", "落霞谷", "a.b", "(括号)", "", "镇"]
    pattern = guarded(words)
    assert guarded(reversed(words)) == pattern  # the same words, in any order: the same pattern
    plain = re.compile("|".join(map(re.escape, sorted(filter(None, words), key=len, reverse=True))))
    fast = re.compile(pattern)
    for sentence in ("他回到青石镇。", "落霞谷里起了雾。", "a.b 在此", "axb 不在", "(括号)里", "括号", "无处可去。", "镇上"):
        assert bool(fast.search(sentence)) == bool(plain.search(sentence)), sentence
    assert guarded([""]) == "(?!)" and re.search(guarded([]), "任何") is None
