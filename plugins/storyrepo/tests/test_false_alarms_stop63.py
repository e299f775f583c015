"""fa1's round (stop 63): good text the voices misread as the dead speaking.

The class (seen in three books of the older pool, each a different slot of one grammar): a person named inside the name
of a thing — as its possessor before a demonstrative and a measure word (把阿爸那副老鞍子拎起来，拍了拍：“…”), as the
doer of a clause closed by 的 before one (爹写的那张字条，…压在他胸口：…) — or as the one spoken to (说给先生听：…) is
not the one whose words follow. The sentences here are this file's own, not the pool's; siblings use other measure words,
other acts and other verbs of telling than any book did. The near misses: the same dead person as the clause's subject
still speaks, and is still found."""

from __future__ import annotations

import continuity_helpers
from lw_storyrepo.checks import NAME_OF_A_THING
from lw_storyrepo.findings import Finding


def _dead_speaks(body: str) -> list[Finding]:
    """The 状态 findings of ``body`` told by 王铁生 at the lumber camp where 赵老栓 lies dead."""
    world = continuity_helpers.lumber_camp(with_dead=True)
    found = continuity_helpers.findings(body, world, "王铁生", "1962年4月3日", ["王铁生", "孙桂芝"])
    return [f for f in found if "赵老栓" in f.message and "状态" in f.message]


def test_a_possessor_before_a_measure_word_does_not_speak() -> None:
    for body in ("王铁生站起来，把赵老栓那副旧手套拎起来，拍了拍：“这副，洗洗还能戴。”",
                 "王铁生蹲下去，把赵老栓那只搪瓷缸子端起来，吹了吹灰：“缸子还好好的，留着喝水。”",  # sibling: 只
                 "他站起来，把赵老栓那杆旧烟袋从墙上摘下来，掂了掂：“给桂芝她爹捎去吧。”"):  # sibling: 杆, a pronoun leads
        assert _dead_speaks(body) == [], body


def test_the_doer_of_a_clause_closed_by_de_is_no_pronouns_antecedent() -> None:
    for body in ("王铁生翻着账，手心发潮。赵老栓记的那本工分簿，就揣在他怀里：数对不上。",
                 "孙桂芝没吭声。赵老栓临走时托人捎来的那封信，一直压在他枕头底下：开春别进南沟。"):  # sibling: 托人捎来, 封
        assert _dead_speaks(body) == [], body


def test_the_one_told_to_does_not_speak() -> None:
    for body in ("王铁生把这些天的事一件一件说给赵老栓听：林场开了春，南沟的树号完了。",
                 "王铁生坐在坟前，把信念给赵老栓听：林场开了春，南沟的树号完了。"):  # sibling: 念给
        assert _dead_speaks(body) == [], body


def test_the_dead_as_the_clauses_subject_still_speaks() -> None:
    """The near misses: the name leads its clause and acts — it is the speaker, and the dead do not speak."""
    for body in ("赵老栓站起来，把那副旧手套拎起来，拍了拍：“这副，洗洗还能戴。”",
                 "赵老栓把那本工分簿往桌上一拍：“数对不上。”"):
        assert _dead_speaks(body), body


def test_the_grammar_not_the_words() -> None:
    """Any act before 的 and any thing's measure word; not a time or a place word after 那, not 个 (老周那个人 is 老周)."""
    for tail in ("那副旧手套", "那把锯", "留下的那锭墨", "写的那张纸", "那些书"):
        assert NAME_OF_A_THING.match(tail), tail
    for tail in ("那会儿说", "那天说", "那头说", "那个人倔", "说：", "站起来", "盯着他的那把锯", "拿起桌上的那把锯",
                 "趴在往南去的那条船上", "把师父留下的那把锯"):
        assert not NAME_OF_A_THING.match(tail), tail
