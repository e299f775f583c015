"""A draft's lanes are read in one pass, whatever the number of sightings (issue 30, stop 61).

fn36's :func:`~lw_storyrepo.propernouns._lane_said` searched the whole draft once per candidate ``X里``: a long draft
with thousands of sightings was read thousands of times over (the lead's probe: 16,000 characters 1.5 s, 32,000 7 s).
Now :func:`~lw_storyrepo.propernouns._lanes_said` finds every stem the draft says as a lane in one pass per pattern and
keeps it for the draft. The work is counted here, not timed: one reading of the draft per ``find_new_nouns`` call, and
the same lanes found as before.
"""

from __future__ import annotations

from lw_storyrepo.propernouns import _lane_said, _lanes_said, find_new_nouns, lexicon

STEMS = ("德馨", "福寿", "嘉禾", "卫东", "新安", "德润", "宝善", "瑞康", "兴仁")


def test_a_long_draft_of_many_lane_sightings_is_read_for_lanes_once() -> None:
    body = "\n".join(f"第{i}户搬到{stem}里，天天在{stem}里进出。" for i in range(400) for stem in STEMS)
    _lanes_said.cache_clear()
    found = {n.name for n in find_new_nouns(body, [])}
    info = _lanes_said.cache_info()
    assert info.misses == 1 and info.hits >= len(STEMS) - 1
    assert {f"{stem}里" for stem in STEMS} <= found


def test_what_a_lane_is_said_by_is_unchanged() -> None:
    lex = lexicon()
    assert _lane_said(lex, "他家住清辉里，离厂子不远。", "清辉")
    assert _lane_said(lex, "信封上写着清辉里八号。", "清辉")
    assert not _lane_said(lex, "一缕月色从清辉里漏下来。他走到清辉里去。", "清辉")  # a word of light: its frame only
    assert _lane_said(lex, "他走到德馨里去。", "德馨")  # a word of going
    assert _lane_said(lex, "，在德馨里，人都认得他。", "德馨")  # a preposition of place after no verb
    assert not _lane_said(lex, "他沐浴在德馨里。", "德馨")  # after a verb: the inside of a thing
    assert _lane_said(lex, "德馨里的石库门都朝南。", "德馨")  # its houses after it
    assert _lane_said(lex, "德馨里是条老弄堂。", "德馨")  # the name opening a clause as what it is
