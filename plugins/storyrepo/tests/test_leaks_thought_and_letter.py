"""lk1's round (stop 62): a person of the gap's own, said alone, gives the secret away.

An info gap's keyword that is a person the roster lists with no card, and that no public text names (the buyer of stolen
goods, the one who hides a runaway, the keeper of a parcel), is the gap's answer as much as a place no public text names:
thought in the narration of a point of view outside the gap, or written in a letter a non-knower sends and read aloud,
it leaks on its own — when the words identify the person by the name (有个叫X的, 那个…的X, 正是X), not when the person is
only seen or mentioned (r62-1). A person with a card is the book's public cast; a common noun (货郎) is no name (r62-2); two
words that spell the name (才让开一条道) identify no one (r62-3).
The sentences are this file's own (a salt works in the 1950s, a lumber camp, a river ferry)."""

from __future__ import annotations

import re

import pytest

from lw_storyrepo.checks import CheckContext, leak_and_waste, voices
from lw_storyrepo.listeners import addressee, called_at_start

from continuity_helpers import world_of

PEOPLE = {"孙大河": "孙大河", "大河": "孙大河", "老葛": "葛长顺", "葛长顺": "葛长顺", "秀英": "赵秀英", "赵秀英": "赵秀英",
          "爹": "孙老栓", "孙老栓": "孙老栓",
          # the roster's people with no card: the gap's own
          "马三炮": "马三炮", "才让": "才让", "了尘": "了尘"}
CARDS = {p: {"状态": "在世"} for p in ("孙大河", "葛长顺", "赵秀英", "孙老栓")}
SECRETS = [("S-001", {"葛长顺"}, False, ["马三炮", "北滩"]),  # who buys the stolen salt: 葛长顺 alone knows
           ("S-002", {"赵秀英"}, False, ["才让", "了尘"])]  # who hides the runaway: 赵秀英 alone knows


def _leaks(body: str, pov: str, cast: list[str], cards: dict[str, dict[str, str]] | None = None) -> list[str]:
    people = set(PEOPLE.values())
    world = world_of(dict(cards or CARDS), PEOPLE, set(), {})
    ctx = CheckContext(dict(PEOPLE), SECRETS, [], [], 0, people, set(), world=world,
                       people=people).for_draft({"在场": cast, "视角": pov})
    return [f"{f.subject.who if f.subject else None}:{f.excerpt}" for f in leak_and_waste(ctx, body.split("\n"), 1, pov=pov)
            if f.kind == "泄密"]


@pytest.mark.parametrize("body, pov, cast", [
    # a thought in the narration of a point of view outside the gap: the person identified (那个…的X, 正是X)
    ("半夜大河蹲在盐垛后头，心里一下子冒出一个名字：那个专收私盐的马三炮，是不是就在北边等着？", "孙大河", ["孙大河"]),
    ("秀英走后，大河才想起来，那天在渡口撑船的正是马三炮。", "孙大河", ["孙大河"]),
    # a letter from the father, signed with his kin word and a date, read aloud: 有个叫X的
    ("大河拆开信，念：“大河：家里都好。听人说盐场那边有个叫马三炮的，专收公家的盐。你莫沾。爹，三月初二。”\n\n老葛没吭声。",
     "孙大河", ["孙大河", "葛长顺"]),
    # siblings no book wrote: 名叫X, 会不会是X, 一位…的X
    ("大河想起灶房里那个赶牦牛的汉子，名叫才让，一句汉话也不会说。", "孙大河", ["孙大河"]),
    ("大河想，把人领走的会不会是才让。", "孙大河", ["孙大河"]),
    ("大河听人讲起一位在山里看庙的了尘，心里咯噔一下。", "孙大河", ["孙大河"]),
])
def test_a_person_of_the_gap_said_alone_leaks(body: str, pov: str, cast: list[str]) -> None:
    assert _leaks(body, pov, cast)


@pytest.mark.parametrize("body, pov, cast", [
    # two words that spell the name: 才 + 让
    ("大河把盐包码好，这才让人去叫车。", "孙大河", ["孙大河"]),
    ("等老葛回来，才让他进屋。", "孙大河", ["孙大河"]),
    # the knower's own point of view and own words
    ("老葛心里清楚，今晚马三炮会来北边。", "葛长顺", ["葛长顺"]),
    ("秀英想起才让那双冻裂的手。", "赵秀英", ["赵秀英"]),
    # a name of a card (the public cast): named alone, nothing leaks
    ("大河想起老葛那晚的脸色。", "孙大河", ["孙大河"]),
    # r62-1: the gap's person seen or mentioned doing anything, not identified as the one
    ("马三炮挑着两只空筐从盐场门口过，冲大河点了点头。", "孙大河", ["孙大河"]),
    ("大河说：“马三炮来借过锄头，我没借。”", "孙大河", ["孙大河", "葛长顺"]),
    ("了尘和尚敲着木鱼从庙门口过。", "孙大河", ["孙大河"]),
    # r62-3: 才 + 让 and a complement, no name
    ("大河喊了两嗓子，才让开一条道。", "孙大河", ["孙大河"]),
    ("饭刚端上桌，才让出半个炕头。", "孙大河", ["孙大河"]),
])
def test_no_leak_without_a_gap_person_identified_by_name(body: str, pov: str, cast: list[str]) -> None:
    """Near misses: two words spelling the name, the knower's own voice, a card's name; r62-1 (the person only seen or
    mentioned) and r62-3 (才让 + a complement)."""
    assert _leaks(body, pov, cast) == []


def test_a_common_noun_the_roster_lists_as_a_person_is_no_gap_name() -> None:
    """r62-2: 货郎, 哑巴 — a book's minor man named by his trade or defect: the word itself tells nothing."""
    people = set(PEOPLE.values()) | {"货郎", "哑巴"}
    secrets = [*SECRETS, ("S-003", {"葛长顺"}, False, ["哑巴", "货郎", "私盐"])]
    ctx = CheckContext({**PEOPLE, "货郎": "货郎", "哑巴": "哑巴"}, secrets, [], [], 0, people, set(),
                       world=world_of(dict(CARDS), PEOPLE, set(), {}), people=people).for_draft({"在场": ["孙大河"], "视角": "孙大河"})
    for body in ("村口来了个货郎，摇着拨浪鼓。", "大河给哑巴盛了一碗粥。", "那个卖针线的正是货郎。"):
        assert [f for f in leak_and_waste(ctx, [body], 1, pov="孙大河") if f.kind == "泄密"] == [], body


def test_a_person_with_a_card_is_no_gap_person() -> None:
    cards = {**CARDS, "马三炮": {"状态": "在世"}}
    assert _leaks("大河想起那天在渡口撑船的正是马三炮。", "孙大河", ["孙大河"], cards) == []


def test_a_name_the_public_text_says_is_no_gap_answer() -> None:
    """The caller's public-word guard stands: a keyword the book's public text says needs another keyword."""
    people = set(PEOPLE.values())
    ctx = CheckContext(dict(PEOPLE), SECRETS, [], [], 0, people, set(), world=world_of(dict(CARDS), PEOPLE, set(), {}),
                       people=people, public_words=frozenset({"马三炮"})).for_draft({"在场": ["孙大河"], "视角": "孙大河"})
    assert [f for f in leak_and_waste(ctx, ["大河想起那天撑船的正是马三炮。"], 1, pov="孙大河") if f.kind == "泄密"] == []


# --- a letter read on after a pause (lk1, stop 62: 连续性-盲评四十五's 泄密-4; the shape also in 四十三's 好-4) -------------

LETTER_PEOPLE = {"大河": "孙大河", "孙大河": "孙大河", "老葛": "葛长顺", "葛长顺": "葛长顺", "哥": "孙大江", "孙大江": "孙大江"}


def _letter_speakers(body: str) -> dict[str, str | None]:
    people = set(LETTER_PEOPLE.values())
    ctx = CheckContext(dict(LETTER_PEOPLE), [], [], [], 0, people, set(), people=people).for_draft(
        {"在场": ["孙大河", "葛长顺"], "视角": "孙大河"})
    return {v.words: v.speaker for v in voices(ctx, body.split("\n"), letters=True)}


PAUSED_SIGNED = ("夜里盐棚只点一盏马灯。大河把哥的信拿出来，凑着灯念。\n\n"
                 "“大河：上回的信收到没有？窑上这几天活少，我夜里常想起娘。”\n\n"
                 "“开春我在县城碰见一个收盐的，说北滩有人夜里往外运公家的盐。”\n\n"
                 "老葛手里的烟袋一下子掉在地上。\n\n大河抬起头：“老葛？”\n\n“没事，手滑。”老葛捡起烟袋，“念下去。”\n\n"
                 "“你在盐场，莫跟人争，莫多嘴。哥。”\n\n大河念完，把信折好。")


def test_a_letter_read_on_after_a_pause_is_its_writers_in_every_part() -> None:
    said = _letter_speakers(PAUSED_SIGNED)
    assert said["开春我在县城碰见一个收盐的，说北滩有人夜里往外运公家的盐。"] == "孙大江"
    assert said["你在盐场，莫跟人争，莫多嘴。哥。"] == "孙大江"


@pytest.mark.parametrize("body, words", [
    # read to no signature: the lone quote after it is the listener's reply, as before
    ("大河把哥的信拿出来，凑着灯念。\n\n“大河：窑上这几天活少。”\n\n“好事，少干点也好。”\n\n老葛抽了口烟。\n\n"
     "“你在盐场，莫多嘴。”\n\n大河念完，把信折好。", "好事，少干点也好。"),
    # a question after the opening part is the listener's, even when the letter is read on to its signature
    ("大河把哥的信拿出来，凑着灯念。\n\n“大河：窑上这几天活少。”\n\n“窑上也歇了？”\n\n大河没答。\n\n"
     "“你在盐场，莫多嘴。哥。”\n\n大河念完，把信折好。", "窑上也歇了？"),
    # read on too late: five paragraphs of the listener's pause are a talk of their own
    ("大河把哥的信拿出来，凑着灯念。\n\n“大河：窑上这几天活少。”\n\n“好事，少干点也好。”\n\n老葛抽了口烟。\n\n"
     "大河看着灯。\n\n外头起了风。\n\n老葛又抽了口烟。\n\n棚顶的油毡哗哗响。\n\n“你在盐场，莫多嘴。哥。”\n\n大河念完。",
     "好事，少干点也好。"),
])
def test_a_reply_not_read_on_to_a_signature_stays_the_listeners(body: str, words: str) -> None:
    assert _letter_speakers(body).get(words) != "孙大江"


# --- one listener finder (the lead's mend, stop 62) ---------------------------------------------------------------

def test_the_listener_finder_reads_the_narration_turned_to_and_the_turn_before() -> None:
    names = re.compile("孙大河|大河|葛长顺|老葛")
    aliases = {"孙大河": "孙大河", "大河": "孙大河", "葛长顺": "葛长顺", "老葛": "葛长顺"}
    people = {"孙大河", "葛长顺"}
    him = lambda i, k: "孙大河"  # noqa: E731 — the antecedent the caller reads
    # 看他: the one looked at, the pronoun read back (not the looker)
    lines = ["老葛看他不说话，岔开话头：“你娘给你缝的那件棉袄，我借穿了两天。”"]
    assert addressee(lines, 0, names, aliases, people, him, "孙大河") == "孙大河"
    # no narration turned to anyone: the speaker of the turn before
    lines = ["“盐垛码好了？”大河问。", "", "“好了。”"]
    assert addressee(lines, 2, names, aliases, people, him, "孙大河") == "孙大河"
    assert called_at_start("老葛，你歇着。", names, aliases) == "葛长顺"
    assert called_at_start("老葛说你歇着。", names, aliases) is None


def test_r62_5_a_gap_person_named_with_nothing_of_the_gap_is_no_answer() -> None:
    """r62-5: with the gap's 内容 known, the words naming its person must share something of it (its act, its place):
    a boy named at the door, or a bare 是X, tells nothing; 那个专收私盐的X does."""
    people = set(PEOPLE.values())
    grams = {"S-001": frozenset({"私盐", "收私", "北滩", "夜里"}), "S-002": frozenset({"牦牛", "山里", "藏人"})}
    ctx = CheckContext(dict(PEOPLE), SECRETS, [], [], 0, people, set(), world=world_of(dict(CARDS), PEOPLE, set(), {}),
                       people=people, gap_grams=grams).for_draft({"在场": ["孙大河"], "视角": "孙大河"})

    def leaks(body: str) -> list[str]:
        return [f.excerpt for f in leak_and_waste(ctx, body.split("\n"), 1, pov="孙大河") if f.kind == "泄密"]

    assert leaks("大河冲门外喊了一声，那个叫才让的小喇嘛跑了进来。") == []
    assert leaks("那个挑着空筐的马三炮又从门口过去了。") == []
    assert leaks("大河心里冒出一个名字：那个专收私盐的马三炮。")


def test_r62_4_a_pause_that_does_not_read_on_keeps_the_reply_the_listeners() -> None:
    """r62-4: a listener's comment in the pause (你哥…) stays the listener's unless the pause says the reading goes on."""
    body = ("大河把哥的信拿出来，凑着灯念。\n\n“大河：窑上这几天活少，我夜里常想起娘。”\n\n“窑上活少，你哥这个冬天就难熬了。”\n\n"
            "老葛磕了磕烟袋。\n\n“你在盐场，莫跟人争，莫多嘴。哥。”\n\n大河念完，把信折好。")
    assert _letter_speakers(body).get("窑上活少，你哥这个冬天就难熬了。") != "孙大江"
