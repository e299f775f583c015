"""K8's round (stop 59): the leaks of a letter read aloud whose writer only a listener names, and of an exchange no
narration tags.

A letter read out to someone there often carries no signature and no sender in the prose (邮递员捎来一封信。 X念：“…”); the
listener's reply names its writer to the reader — 你哥有口福。 你阿母真好。 你额吉的？ —: an absent, living person of the
reader's, whose words the letter is (the leak check asks them, not the reader). And a quote alone right after narration
that gives no speaker, calling one of a scene of two by name (“建国，你说…？”), is the other's: the exchange's turns go on
from it. The sentences are this file's own (a forestry camp in the 1970s, a salt works, a ferry crossing)."""

from __future__ import annotations

import pytest

from lw_storyrepo.checks import CheckContext, leak_and_waste, voices

PEOPLE = {"山林": "周山林", "周山林": "周山林", "哥": "周山河", "山河": "周山河", "周山河": "周山河",
          "你哥": "周山河", "老杨": "杨守田", "杨守田": "杨守田", "阿娘": "何秀英", "何秀英": "何秀英",
          "爹": "周老满", "周老满": "周老满", "小何": "何小满", "何小满": "何小满"}
SECRET = ("S-001", {"杨守田"}, False, ["黑石沟"])  # where the lost surveyor went: 杨守田 alone knows


def _ctx(cast: list[str], pov: str, dead: frozenset[str] = frozenset()) -> CheckContext:
    people = set(PEOPLE.values())
    return CheckContext(dict(PEOPLE), [SECRET], [], [], 0, people, set(), people=people,
                        dead=dead).for_draft({"在场": cast, "视角": pov})


def _speakers(body: str, cast: list[str], pov: str, dead: frozenset[str] = frozenset()) -> dict[str, str | None]:
    return {v.words: v.speaker for v in voices(_ctx(cast, pov, dead), body.split("\n"), letters=True)}


def _leakers(body: str, cast: list[str], pov: str) -> list[str]:
    return [f.subject.who for f in leak_and_waste(_ctx(cast, pov), body.split("\n"), 1)
            if f.kind == "泄密" and f.subject is not None]


# a forestry camp: the postman brings a letter nobody signs; the listener's 你哥 names its writer between the read parts
BROTHER = ("下午邮递员上了山，给山林捎来一封信。老杨躺在铺上，叫他念念。\n\n"
           "山林念：“山子：见信好。林场里活紧，过了秋就回不去了。”\n\n"
           "老杨咧嘴一笑：“你哥惦记你。”\n\n"
           "山林接着念：“前些天听人讲，那个丢了的测量员，有人在黑石沟见过他。”\n\n"
           "老杨不笑了。")
# a salt works: the mother's letter, written by a scribe, read to a neighbour who asks whose it is before the reading
MOTHER = ("晌午盐场的信客喊：“小何，家信！”\n\n"
          "山林凑过来：“你阿娘的？念念，我也听听。”\n\n"
          "小何拆开信。信是村里先生代写的。\n\n"
          "“满儿：家里都好，你莫挂念。”\n\n"
          "“听你舅讲，那个测量员往黑石沟去了，你在外头莫多嘴。”\n\n"
          "信念完了。")


@pytest.mark.parametrize("body, cast, pov, words, writer", [
    (BROTHER, ["周山林", "杨守田"], "周山林", "前些天听人讲，那个丢了的测量员，有人在黑石沟见过他。", "周山河"),
    (BROTHER, ["周山林", "杨守田"], "周山林", "山子：见信好。林场里活紧，过了秋就回不去了。", "周山河"),
    (MOTHER, ["何小满", "周山林"], "何小满", "听你舅讲，那个测量员往黑石沟去了，你在外头莫多嘴。", "何秀英"),
])
def test_a_letter_is_the_writer_a_listener_names_to_the_reader(body: str, cast: list[str], pov: str, words: str,
                                                              writer: str) -> None:
    assert _speakers(body, cast, pov).get(words) == writer


def test_the_leak_of_such_a_letter_is_its_writers_not_the_readers() -> None:
    assert _leakers(BROTHER, ["周山林", "杨守田"], "周山林") == ["周山河"]


@pytest.mark.parametrize("body, cast, pov, dead", [
    # the one the listener names is there in the scene: he did not write to it
    (BROTHER.replace("老杨咧嘴一笑", "山河咧嘴一笑"), ["周山林", "周山河"], "周山林", frozenset()),
    # the one named is dead: the listener speaks of him, he wrote nothing (你爹坟上…)
    (BROTHER.replace("你哥惦记你", "你爹坟上的草该拔了").replace("哥惦记", ""), ["周山林", "杨守田"], "周山林",
     frozenset({"周老满"})),
    # the listener's words name the reader's kin only inside the sentence, not at its start: no naming of the writer
    (BROTHER.replace("你哥惦记你", "这字比你哥写得好"), ["周山林", "杨守田"], "周山林", frozenset()),
    # far from the letter (three paragraphs after its last read part) the listener's words are other talk
    (BROTHER.replace("老杨咧嘴一笑：“你哥惦记你。”\n\n", "") + "\n\n天黑了。\n\n老杨翻了个身。\n\n“你哥惦记你。”",
     ["周山林", "杨守田"], "周山林", frozenset()),
])
def test_no_writer_is_named_without_the_listeners_naming(body: str, cast: list[str], pov: str,
                                                         dead: frozenset[str]) -> None:
    words = "前些天听人讲，那个丢了的测量员，有人在黑石沟见过他。"
    assert _speakers(body, cast, pov, dead).get(words) not in {"周山河", "周老满"}


# a ferry crossing: two men by the fire, the exchange opening on a name, no tag anywhere
EXCHANGE = ("夜里渡口起了风，山林和小何缩在棚子里烤火。\n\n火堆里的红薯噼啪作响。\n\n"
            "“山林，你说那个测量员到底去哪了？”\n\n“回城了吧。”\n\n“回城要介绍信，他没有。”\n\n"
            "“那你说他去哪了？”\n\n“我听撑船的讲，黑石沟那边收人，不问来路。”")


def test_an_exchange_opening_on_a_name_is_the_others() -> None:
    said = _speakers(EXCHANGE, ["周山林", "何小满"], "周山林")
    assert said["山林，你说那个测量员到底去哪了？"] == "何小满"
    assert said["回城了吧。"] == "周山林"
    assert said["我听撑船的讲，黑石沟那边收人，不问来路。"] == "何小满"
    assert _leakers(EXCHANGE, ["周山林", "何小满"], "周山林") == ["何小满"]


@pytest.mark.parametrize("body, cast", [
    # a scene of three: the one called says nothing of who calls
    (EXCHANGE, ["周山林", "何小满", "杨守田"]),
    # no 在场: no scene to read the other from
    (EXCHANGE, []),
    # the name called is no one of the scene
    (EXCHANGE.replace("“山林，你说", "“山河，你说"), ["周山林", "何小满"]),
])
def test_no_other_of_two_outside_a_scene_of_two(body: str, cast: list[str]) -> None:
    said = _speakers(body, cast, "周山林")
    assert said.get("我听撑船的讲，黑石沟那边收人，不问来路。") != "何小满"


def test_a_tagged_exchange_keeps_its_tags() -> None:
    body = EXCHANGE.replace("“我听撑船的讲", "山林说：“我听撑船的讲")
    assert _speakers(body, ["周山林", "何小满"], "周山林")["我听撑船的讲，黑石沟那边收人，不问来路。"] == "周山林"
