"""The classes the twenty-second round read (issue 30: false alarms and contract misses), found on the development
books 连续性-盲评二十 to 二十三 and kept because each gained on two of them or is a plain reading with no loss on any
development book, written here at a Yellow River ferry (渡口) in the 1950s — other words than the labelled drafts:
the right sentence next to each wrong one.

- one table of the verbs of giving and showing (:mod:`lw_storyrepo.giving`): each reader takes the kinds of act it
  asks about, so a verb is never known to one reader and missing from the next;
- a quoted term's own spaces are any break the prose writes there (“七爷到此 三·十五” carved as 七爷到此　三·十五 or
  七爷到此。三·十五。);
- a promise line whose names the prose lacks says the promise's step is what is missing;
- a place told as where the dead lie (老七埋在孟门山脚下) is nobody's arrival;
- a key on its string put back in the collar (塞回了领口里) is a handover kept back;
- a tower or a platform is called by its last character by the people of it (阁上 of 文昌阁, 台上 of 望河台), when no
  other name the book knows ends with it;
- one kept (禁足) in the town the point of view is in is found where he is kept — his courtyard is inside the town —
  unless he comes into the scene (晃了进来).
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo import giving
from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of, voices
from lw_storyrepo.continuity import World, check_continuity
from lw_storyrepo.drafts import Draft

CARDS: dict[str, dict[str, Any]] = {
    "冯满仓": {"姓名": "冯满仓", "状态": "在世", "位置": "碛口", "持有": ["羊皮筏"]},
    "温老七": {"姓名": "温老七", "状态": "已死", "位置": "碛口"},
    "秦巧儿": {"姓名": "秦巧儿", "状态": "在世", "位置": "碛口", "持有": ["铜烟锅"]},
}
ALIASES = {**{name: name for name in CARDS}, "满仓": "冯满仓", "老七": "温老七", "七爷": "温老七", "巧儿": "秦巧儿"}
PLACES = {"碛口", "孟门", "吴堡", "望河台", "文昌阁"}


def contract(line: str, body: str, meta: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    aliases = {**ALIASES, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, set(), ("普通人",), None, {}, {})
    meta = {"设定变更": [], "推进承诺": [], **(meta or {})}
    ctx = CheckContext(aliases, [], [], [], 0, set(aliases), set(), world=world, people=set(CARDS),
                       dwellers=dwellers_of(CARDS)).for_draft(meta)
    return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", meta, body, 5), ctx)
            if f.severity in (ERROR, WARN)]


def test_one_table_of_giving_verbs_every_reader_draws_on() -> None:
    assert set(giving.HANDOVER_VERBS) | set(giving.GIVING_VERBS) | set(giving.PUT_VERBS) | set(giving.SHOW_VERBS) \
        | set(giving.TAKE_BACK_VERBS) | set(giving.HOLD_OUT_VERBS) == set(giving.VERBS)  # TAKE_BACK_VERBS: K2's reader
    # (stop 54); HOLD_OUT_VERBS: H7's giving with no 把 (stop 55)
    hands = set(giving.verbs_of(giving.HAND))
    for reader in (giving.HANDOVER_VERBS, giving.GIVING_VERBS, giving.PUT_VERBS, giving.SHOW_VERBS):
        assert hands <= set(reader)  # a verb of handing over, added once, is every reader's
    assert "派给" in giving.HANDOVER_VERBS and "派给" not in giving.PUT_VERBS  # a task is handed, never set down
    assert "接过" in giving.GIVING_VERBS and "接过" not in giving.SHOW_VERBS  # taken, not brought out
    assert "捧出" in giving.SHOW_VERBS and "放在" in giving.PUT_VERBS
    assert list(giving.SHOW_VERBS) == sorted(giving.SHOW_VERBS, key=lambda v: (-len(v), v))


def test_a_thing_its_holder_brings_out_is_the_scenes() -> None:
    world = World(CARDS, dict(ALIASES), PLACES, set(CARDS["秦巧儿"]["持有"]) | {"羊皮筏"}, ("普通人",), None, {}, {})
    meta = {"视角": "冯满仓", "书内时间": "1956年6月3日", "在场": ["冯满仓", "秦巧儿"]}
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words

    def used(body: str) -> list[str]:
        lines = body.split("\n")
        return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
                if "铜烟锅" in f.message]
    assert used("巧儿捧出铜烟锅。满仓攥着铜烟锅敲了敲船帮。") == []
    assert used("满仓攥着铜烟锅敲了敲船帮。")


def test_a_quoted_term_with_its_own_spaces() -> None:
    line = "P-001 推进：冯满仓在船帮上摸到刻的“七爷到此 三·十五”"
    meta = {"推进承诺": ["P-001"]}
    assert contract(line, "满仓把灯凑过去。船帮上刻着一行字：\n\n七爷到此　三·十五\n", meta) == []
    assert contract(line, "满仓把灯凑过去。船帮上刻着一行字：\n\n七爷到此。三·十五。\n", meta) == []  # a full stop for the space
    assert contract(line, "满仓把灯凑过去。船帮上刻着一行字：\n\n七爷来过\n", meta) != []
    assert contract("P-001 推进：冯满仓在船帮上摸到刻的“七爷到此”", "满仓摸到了七爷。到此为止。", meta) != []  # no space, no break


def test_a_promise_line_whose_names_are_missing_names_the_promise() -> None:
    said = contract("P-001 推进：秦巧儿说老七走前在吴堡见过一个人", "满仓蹲在岸边补筏子。", {"推进承诺": ["P-001"]})
    errors = [m for s, m in said if s == ERROR]
    assert errors and all("P-001 这一步也就没有写到" in m.split("」", 1)[1] for m in errors)  # outside the line it quotes
    assert all("这一步" not in m for _s, m in contract("秦巧儿出场", "满仓蹲在岸边补筏子。"))


def test_a_place_told_as_where_the_dead_lie() -> None:
    line = "冯满仓去孟门给温老七上坟"
    turned = ("天不亮，满仓就揣着一包纸钱出了门。老七埋在孟门山脚下，埋下去一年多了。\n"
              "走到渡口，巧儿在后头喊：“满仓！河里起了大水，船要冲走了！”满仓转过身，跟着她往回跑。")
    assert [s for s, _m in contract(line, turned)] == [WARN]
    there = "天不亮，满仓就揣着一包纸钱出了门。晌午到了孟门，他在老七坟前烧了纸。"
    assert contract(line, there) == []


def test_a_key_put_back_in_the_collar() -> None:
    line = "秦巧儿把库房的钥匙交给冯满仓"
    kept = ("巧儿一只手伸到脖子上，捏住了那根挂钥匙的红绳。满仓伸出手，等着。\n"
            "巧儿看了他一眼，忽然把钥匙塞回了领口里：“算了，我自己去。”")
    assert [s for s, _m in contract(line, kept)] == [WARN]
    given = "巧儿从脖子上摘下钥匙，交给满仓：“库房归你管了。”"
    assert contract(line, given) == []


def test_a_tower_or_a_platform_by_its_last_character() -> None:
    assert contract("冯满仓上望河台看水", "满仓在台上站了半晌，河水黄得像泥汤。") == []
    assert contract("冯满仓去文昌阁借书", "满仓到了阁下，仰头看了看那块匾。") == []
    assert contract("冯满仓上望河台看水", "满仓在驾驶台上站了半晌。") != []  # another word's 台
    assert contract("冯满仓上望河台看水", "满仓蹲在岸边补筏子。") != []


def test_one_kept_in_the_town_the_scene_is_in() -> None:
    cards: dict[str, dict[str, Any]] = {
        "冯满仓": {"姓名": "冯满仓", "状态": "在世", "位置": "碛口"},
        "温二娃": {"姓名": "温二娃", "状态": "禁足", "位置": "碛口"},
        "薛老三": {"姓名": "薛老三", "状态": "在押", "位置": "看守所"},
    }
    aliases = {name: name for name in cards}
    places = {"碛口", "吴堡", "看守所"}
    meta = {"视角": "冯满仓", "书内时间": "1956年6月3日", "在场": ["冯满仓", "温二娃", "薛老三"]}

    def held(body: str, pov_place: str = "碛口") -> list[str]:
        world = World({**cards, "冯满仓": {**cards["冯满仓"], "位置": pov_place}}, dict(aliases), places, set(),
                      ("普通人",), None, {"看守所": {"碛口"}}, {"冯满仓": "他", "温二娃": "他", "薛老三": "他"})
        ctx = CheckContext(dict(aliases), [], [], [], 0, set(aliases), set(), world=world, people=set(cards)).for_draft(meta)
        world.aliases, world.indirect = ctx.aliases, ctx.kin_words
        lines = body.split("\n")
        return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())
                if "禁足" in f.message or "在押" in f.message]
    # kept at home in 碛口, and the scene is in 碛口: his own courtyard is inside the town
    assert held("满仓推开院门。温二娃蹲在院子里劈柴，抬头说：“满仓哥，河里水大不大？”") == []
    assert held("满仓推开院门。温二娃蹲在院子里劈柴，抬头说：“满仓哥，河里水大不大？”", pov_place="吴堡")
    # one who comes into the scene has left the place he is kept in
    assert held("满仓在渡口补筏子。温二娃从坡上晃了进来，一屁股坐在船帮上。\n“满仓哥，河里水大不大？”温二娃说。")
    # a prisoner kept in the lock-up inside the town is not where the town's scene is
    assert held("满仓走在街上。薛老三从对面走过来，说：“满仓，借个火。”")
