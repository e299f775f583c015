"""World-book activation, one golden table per feature (every scan runs with both matchers)."""

from __future__ import annotations

import pytest

from lw_tavern.worldbook.engine import Message
from lw_tavern.worldbook.model import WorldSettings
from lw_tavern.worldbook.timed import TimedState

from tavern_testkit import entry, fired, scan

# --- keys, case, whole words -------------------------------------------------------------------

KEYS = [
    # (entry fields, global settings, message, fires)
    ({"key": ["harbor"]}, {}, "We reach the HARBOR at dusk.", True),
    ({"key": ["harbor"], "caseSensitive": True}, {}, "We reach the HARBOR at dusk.", False),
    ({"key": ["harbor"]}, {"case_sensitive": True}, "We reach the HARBOR at dusk.", False),
    ({"key": ["harbor"], "caseSensitive": False}, {"case_sensitive": True}, "the HARBOR", True),
    ({"key": ["harbor"]}, {}, "harbormaster", True),
    ({"key": ["harbor"], "matchWholeWords": True}, {}, "harbormaster", False),
    ({"key": ["harbor"]}, {"match_whole_words": True}, "harbormaster", False),
    ({"key": ["harbor"]}, {"match_whole_words": True}, "(harbor)", True),
    ({"key": ["harbor"]}, {"match_whole_words": True}, "harbor_side", False),
    ({"key": ["harbor"]}, {"match_whole_words": True}, "the harbor-side", True),
    ({"key": ["old harbor"]}, {"match_whole_words": True}, "the old harbors", True),  # several words: substring
    ({"key": ["雾港"]}, {"match_whole_words": True}, "我们到了雾港码头", True),  # CJK is never a word char in JS
    ({"key": ["  "]}, {}, "anything", True),  # a key of spaces trims to "" and is found everywhere
    ({"key": [""]}, {}, "anything", False),  # an empty key is skipped
    ({"key": []}, {}, "anything", False),
    ({"key": ["灯塔", "lighthouse"]}, {}, "the LightHouse", True),
    ({"key": ["ΣΟΦΙΑ"]}, {}, "σοφια", True),
]


@pytest.mark.parametrize("fields,settings,message,fires", KEYS)
def test_keys(fields, settings, message, fires):
    assert fired([entry(0, **fields)], [message], settings=WorldSettings(**settings)) == (["0"] if fires else [])


REGEX = [
    ("/harb(o|ou)r/", "the harbour", True),
    ("/HARBOR/", "the harbor", False),  # regex keys ignore the case settings
    ("/HARBOR/i", "the harbor", True),
    ("/^the/", "the harbor", False),  # the buffer starts with the \x01 marker
    ("/\\bcat\\b/", "concatenate", False),
    ("/\\bcat\\b/", "a cat.", True),
    ("/\\d{3}/", "room 101", True),
    ("/\\d{3}/", "room ١٠١", False),  # \d is ASCII in JavaScript
    ("/雾[港湾]/", "雾湾", True),
    ("/a/b/", "see /a/b/", True),  # an unescaped slash: not a regex, a plain key
    ("/a\\/b/", "a/b", True),
    ("/(/", "(", False),  # invalid regex in JS: SillyTavern keeps it as a literal key "/(/"
    ("/(/", "/(/", True),
    ("/x/y", "x", False),  # sticky: tested at position 0 only
    ("/dusk$/", "at dusk", False),  # $ is the end of the whole buffer (oldest message last), not of this one
    # JavaScript's own engine: what a translation to Python's re got wrong or refused
    ("/\\p{Script=Han}{2}/u", "到了雾港", True),  # property escapes (refused before: a plain key)
    ("/(?<=雾)港/", "雾港", True),
    ("/ſ/i", "s", False),  # without u, ASCII letters fold only with ASCII letters
    ("/ſ/iu", "s", True),
    ("/\\u{96FE}/u", "雾", True),
    ("/^\\s*$/m", "x\n\ufeff\ny", True),  # a BOM is whitespace in JavaScript
]


@pytest.mark.parametrize("key,message,fires", REGEX)
def test_regex_keys(key, message, fires):
    assert fired([entry(0, key=[key])], ["older message", message] if key == "/dusk$/" else [message]) == (
        ["0"] if fires else [])


def test_regex_end_anchor_matches_the_last_part():
    assert fired([entry(0, key=["/dusk$/"])], ["at dusk"]) == ["0"]


# --- secondary keys: the four logics --------------------------------------------------------------

SECONDARY = [
    # (logic, secondaries present among ["fog", "bell"], fires)
    (0, [], False), (0, ["fog"], True), (0, ["fog", "bell"], True),
    (1, [], True), (1, ["fog"], True), (1, ["fog", "bell"], False),
    (2, [], True), (2, ["fog"], False), (2, ["fog", "bell"], False),
    (3, [], False), (3, ["fog"], False), (3, ["fog", "bell"], True),
]


@pytest.mark.parametrize("logic,present,fires", SECONDARY)
def test_secondary_logic(logic, present, fires):
    e = entry(0, key=["harbor"], keysecondary=["fog", "bell"], selectiveLogic=logic)
    assert fired([e], ["harbor " + " ".join(present)]) == (["0"] if fires else [])


def test_secondary_keys_ignored_when_not_selective():
    e = entry(0, key=["harbor"], keysecondary=["fog"], selective=False)
    assert fired([e], ["harbor"]) == ["0"]


def test_primary_needed_before_secondary():
    e = entry(0, key=["harbor"], keysecondary=["fog"], selectiveLogic=2)
    assert fired([e], ["nothing here"]) == []


# --- scan depth ---------------------------------------------------------------------------------

CHAT = ["harbor (oldest)", "two", "three", "four", "five (newest)"]


@pytest.mark.parametrize("depth,fires", [(0, False), (1, False), (4, False), (5, True), (9, True)])
def test_global_scan_depth(depth, fires):
    assert fired([entry(0, key=["harbor"])], CHAT, settings=WorldSettings(depth=depth)) == (["0"] if fires else [])


@pytest.mark.parametrize("entry_depth,fires", [(0, False), (4, False), (5, True)])
def test_entry_scan_depth_overrides(entry_depth, fires):
    e = entry(0, key=["harbor"], scanDepth=entry_depth)
    assert fired([e], CHAT, settings=WorldSettings(depth=1)) == (["0"] if fires else [])


def test_names_are_scanned_when_included():
    chat = [Message("hello", name="Harbormaster")]
    assert fired([entry(0, key=["harbormaster"])], chat) == ["0"]
    assert fired([entry(0, key=["harbormaster"])], chat, settings=WorldSettings(include_names=False)) == []


def test_injections_and_global_texts_are_scanned():
    assert fired([entry(0, key=["lantern"])], ["x"], injections=["a lantern in the note"]) == ["0"]
    persona = {"persona_description": "carries a lantern"}
    assert fired([entry(0, key=["lantern"])], ["x"], globals=persona) == []
    assert fired([entry(0, key=["lantern"], matchPersonaDescription=True)], ["x"], globals=persona) == ["0"]


# --- immediate activations and filters ----------------------------------------------------------


FLAGS = [
    ({"constant": True}, True),
    ({"constant": True, "disable": True}, False),
    ({"content": "@@activate\nalways here"}, True),
    ({"content": "@@dont_activate\nnever", "key": ["harbor"]}, False),
    ({"content": "@@activate extra\nnot exact", "key": []}, False),  # SillyTavern compares whole lines
    ({"key": ["harbor"], "triggers": ["continue"]}, False),
    ({"key": ["harbor"], "triggers": ["normal", "continue"]}, True),
    ({"key": ["harbor"], "characterFilter": {"names": ["Mira"], "isExclude": False, "tags": []}}, True),
    ({"key": ["harbor"], "characterFilter": {"names": ["Mira"], "isExclude": True, "tags": []}}, False),
    ({"key": ["harbor"], "characterFilter": {"names": ["Other"], "isExclude": False, "tags": []}}, False),
]


@pytest.mark.parametrize("fields,fires", FLAGS)
def test_flags_and_filters(fields, fires):
    assert fired([entry(0, **fields)], ["harbor"], character="Mira") == (["0"] if fires else [])


def test_decorator_lines_are_stripped_from_content():
    a = scan([entry(0, content="@@activate\n@@@unused fallback\nThe harbor.")], ["x"])
    assert a.contents["0"] == "The harbor."


CONDITIONS = [(None, False), (lambda expr: expr == "ok", True), (lambda expr: False, False)]


@pytest.mark.parametrize("condition,fires", CONDITIONS)
def test_if_condition_fails_closed(condition, fires):
    e = entry(0, key=["harbor"], content="@@if ok\ntext")
    kwargs = {"condition": condition} if condition else {}
    assert fired([e], ["harbor"], **kwargs) == (["0"] if fires else [])


def test_external_activation():
    assert fired([entry(0, key=["nope"])], ["x"], force=frozenset({"0"})) == ["0"]


# --- probability --------------------------------------------------------------------------------

PROBABILITY = [
    # (probability, useProbability, roll, fires, rolls drawn)
    (50, True, 0.49, True, 1),
    (50, True, 0.50, True, 1),  # roll*100 <= probability
    (50, True, 0.51, False, 1),
    (50, False, 0.99, True, 0),
    (100, True, 0.99, True, 0),
    (0, True, 0.0, True, 1),
    (0, True, 0.01, False, 1),
]


@pytest.mark.parametrize("probability,use,roll,fires,drawn", PROBABILITY)
def test_probability(probability, use, roll, fires, drawn):
    e = entry(0, key=["harbor"], probability=probability, useProbability=use)
    assert fired([e], ["harbor"], rolls=[roll] * drawn) == (["0"] if fires else [])


# --- positions and insertion order --------------------------------------------------------------


def test_positions_and_order():
    entries = [
        entry(1, constant=True, position=0, order=10, content="before-low"),
        entry(2, constant=True, position=0, order=90, content="before-high"),
        entry(3, constant=True, position=1, order=5, content="after"),
        entry(4, constant=True, position=2, content="an-top"),
        entry(5, constant=True, position=3, content="an-bottom"),
        entry(6, constant=True, position=4, depth=2, role=1, order=1, content="d2-user-low"),
        entry(7, constant=True, position=4, depth=2, role=1, order=50, content="d2-user-high"),
        entry(8, constant=True, position=4, depth=0, content="d0-system"),
        entry(9, constant=True, position=5, content="em-top"),
        entry(10, constant=True, position=6, content="em-bottom"),
        entry(11, constant=True, position=7, outletName="hud", order=1, content="outlet-low"),
        entry(12, constant=True, position=7, outletName="hud", order=9, content="outlet-high"),
        entry(13, constant=True, position=7, content="outlet without a name"),
        entry(14, constant=True, position=1, content=""),
    ]
    p = scan(entries, ["x"]).placement
    assert p.before == ("before-low", "before-high")  # higher order sits closer to the chat
    assert p.after == ("after",)
    assert (p.an_top, p.an_bottom, p.em_top, p.em_bottom) == (("an-top",), ("an-bottom",), ("em-top",), ("em-bottom",))
    assert [(g.depth, int(g.role), g.contents) for g in p.depth] == [
        (0, 0, ("d0-system",)), (2, 1, ("d2-user-low", "d2-user-high"))]
    assert dict(p.outlets) == {"hud": ("outlet-high", "outlet-low")}  # outlets keep descending order
    assert p.world_info_before == "before-low\nbefore-high"


def test_render_replaces_content_once_it_passes():
    a = scan([entry(0, constant=True, content="Hi {{char}}")], ["x"], render=lambda e, c: c.replace("{{char}}", "Mira"))
    assert a.contents["0"] == "Hi Mira" and a.placement.before == ("Hi Mira",)


# --- recursion ----------------------------------------------------------------------------------


def chain(**b_fields):
    return [entry(0, key=["harbor"], content="The lighthouse stands here."),
            entry(1, key=["lighthouse"], content="The keeper lives inside.", **b_fields)]


RECURSION = [
    ({"recursive": False}, {}, ["0"]),
    ({"recursive": True}, {}, ["0", "1"]),
    ({"recursive": True}, {"excludeRecursion": True}, ["0"]),
    ({"recursive": True, "max_recursion_steps": 1}, {}, ["0"]),
    ({"recursive": True, "max_recursion_steps": 2}, {}, ["0", "1"]),
]


@pytest.mark.parametrize("settings,fields,expected", RECURSION)
def test_recursion(settings, fields, expected):
    assert fired(chain(**fields), ["the harbor"], settings=WorldSettings(**settings)) == expected


def test_prevent_recursion_keeps_text_out_of_the_buffer():
    entries = [entry(0, key=["harbor"], content="The lighthouse.", preventRecursion=True),
               entry(1, key=["lighthouse"])]
    assert fired(entries, ["harbor"], settings=WorldSettings(recursive=True)) == ["0"]


def test_exclude_recursion_entry_still_fires_from_chat():
    assert fired(chain(excludeRecursion=True), ["harbor lighthouse"], settings=WorldSettings(recursive=True)) == ["0", "1"]


def test_delay_until_recursion_levels():
    entries = [
        entry(0, key=["harbor"], content="alpha"),
        entry(1, key=["alpha"], delayUntilRecursion=True, content="beta"),
        entry(2, key=["harbor"], delayUntilRecursion=2, content="gamma"),
        entry(3, key=["harbor"], delayUntilRecursion=1),
    ]
    # level 1 entries may fire from the first recursion pass on, level 2 only after level 1 is done
    assert fired(entries, ["harbor"], settings=WorldSettings(recursive=True)) == ["0", "1", "3", "2"]
    # with recursion off the first level is skipped and the next one opens a single recursion pass
    # over the text so far, in which every level up to it may fire (SillyTavern does the same)
    assert fired(entries, ["harbor"], settings=WorldSettings(recursive=False)) == ["0", "1", "2", "3"]


# --- min activations ----------------------------------------------------------------------------


MIN_ACTIVATIONS = [
    ({"depth": 1}, []),
    ({"depth": 1, "min_activations": 1}, ["0"]),
    ({"depth": 1, "min_activations": 1, "min_activations_depth_max": 2}, []),
    ({"depth": 1, "min_activations": 2}, ["0"]),  # stops at the end of the chat
]


@pytest.mark.parametrize("settings,expected", MIN_ACTIVATIONS)
def test_min_activations(settings, expected):
    chat = ["harbor", "b", "c", "d"]
    assert fired([entry(0, key=["harbor"])], chat, settings=WorldSettings(**settings)) == expected


# --- token budget -------------------------------------------------------------------------------


def test_budget_overflow_drops_entries_and_ignore_budget_continues():
    entries = [entry(i, constant=True, order=100 - i, content="x" * 35) for i in range(4)]
    entries.append(entry(9, constant=True, order=1, content="y" * 35, ignoreBudget=True))
    settings = WorldSettings(max_context=100, budget=25)  # 25 tokens; 36 bytes = 9 tokens each
    a = scan(entries, ["x"], settings=settings)
    assert a.fired == ("0", "1", "9") and a.overflowed
    assert a.verdicts["2"].code == "budget"
    assert scan(entries[:4], ["x"], settings=settings).fired == ("0", "1")


def test_budget_cap_and_custom_tokenizer():
    entries = [entry(i, constant=True, content="w") for i in range(5)]
    assert WorldSettings(max_context=1000, budget=50, budget_cap=3).token_budget() == 3
    a = scan(entries, ["x"], settings=WorldSettings(max_context=1000, budget=50, budget_cap=3),
             tokens=lambda text: text.count("\n"))
    assert a.fired == ("0", "1")


# --- inclusion groups ---------------------------------------------------------------------------


def grouped(*specs):
    return [entry(i, key=["harbor"], group=g, **f) for i, (g, f) in enumerate(specs)]


GROUPS = [
    # (entries as (group, fields), rolls, fired)
    ((("a", {}), ("a", {})), [0.1], ["0"]),  # weighted: 0.1 * 200 = 20 <= 100
    ((("a", {}), ("a", {})), [0.9], ["1"]),
    ((("a", {"groupWeight": 1}), ("a", {"groupWeight": 99})), [0.02], ["1"]),
    ((("a", {"groupOverride": True, "order": 5}), ("a", {"groupOverride": True, "order": 9})), [], ["1"]),
    ((("a", {}), ("b", {})), [], ["0", "1"]),
    # entry 0 is in two groups: it wins "a" (20 of 200) and loses "b" (180 of 200) to entry 1
    ((("a,b", {}), ("b", {}), ("a", {})), [0.1, 0.9], ["1"]),
]


@pytest.mark.parametrize("specs,rolls,expected", GROUPS)
def test_inclusion_groups(specs, rolls, expected):
    assert fired(grouped(*specs), ["harbor"], rolls=rolls) == expected


def test_group_scoring_keeps_the_best_matches():
    entries = [entry(0, key=["harbor"], group="g", useGroupScoring=True),
               entry(1, key=["harbor", "fog"], group="g", useGroupScoring=True)]
    assert fired(entries, ["harbor fog"]) == ["1"]
    assert fired(entries, ["harbor fog"], settings=WorldSettings(use_group_scoring=False)) == ["1"]


def test_group_already_activated_blocks_later_members():
    entries = [entry(0, key=["harbor"], group="g", content="lighthouse"),
               entry(1, key=["lighthouse"], group="g")]
    assert fired(entries, ["harbor"], settings=WorldSettings(recursive=True)) == ["0"]


# --- timed effects ------------------------------------------------------------------------------


def turns(entries, chats, **kwargs):
    state = TimedState()
    out = []
    for chat in chats:
        a = scan(entries, [chat], state=state, **kwargs)
        out.append(list(a.fired))
        state = a.state
    return out, state


def test_sticky_keeps_an_entry_after_its_key_is_gone():
    out, state = turns([entry(0, key=["harbor"], sticky=2)], ["harbor", "x", "x", "x"])
    assert out == [["0"], ["0"], [], []]
    assert state.turn == 4 and state.sticky == {}


def test_cooldown_blocks_reactivation():
    out, _ = turns([entry(0, key=["harbor"], cooldown=2)], ["harbor"] * 5)
    assert out == [["0"], [], ["0"], [], ["0"]]


def test_sticky_then_cooldown():
    out, _ = turns([entry(0, key=["harbor"], sticky=2, cooldown=2)], ["harbor"] * 6)
    # sticky for turns 1-2; when it runs out (turn 3) the cooldown starts there and lasts to turn 5
    assert out == [["0"], ["0"], [], [], ["0"], ["0"]]


def test_delay():
    out, _ = turns([entry(0, key=["harbor"], delay=3)], ["harbor"] * 4)
    assert out == [[], [], ["0"], ["0"]]


def test_preview_does_not_advance():
    e = [entry(0, key=["harbor"], sticky=3)]
    a = scan(e, ["harbor"], advance=False)
    assert a.fired == ("0",) and a.state == TimedState()


def test_edited_entry_loses_its_effects():
    _, state = turns([entry(0, key=["harbor"], sticky=5)], ["harbor"])
    assert fired([entry(0, key=["harbor"], sticky=5, content="edited")], ["x"], state=state) == []


# --- keys of entries are unique ------------------------------------------------------------------

KEY_CLASHES = [
    # (entries as (uid, id), keys of the compiled entries in book order)
    ([(0, None), (1, None)], ["0", "1"]),
    ([(1, None), (0, "1")], ["1~2", "1"]),  # an entry's own id keeps its key; the uid moves aside
    ([(0, "x"), (1, "x")], ["x", "x~2"]),  # an id written twice: the first keeps it
    ([(3, None), (3, None)], ["3", "3~2"]),  # a card book with one id twice
]


@pytest.mark.parametrize("pairs,keys", KEY_CLASHES)
def test_entry_keys_are_unique(pairs, keys):
    """Two entries never share a key (timed state and verdicts are kept by it): each fires."""
    from lw_tavern.worldbook.engine import compile_book

    from tavern_testkit import book

    entries = [entry(uid, id=entry_id, key=["bell"]) for uid, entry_id in pairs]
    assert [c.key for c in compile_book(book(*entries)).entries] == keys
    assert sorted(fired(entries, ["the bell rings"])) == sorted(keys)
