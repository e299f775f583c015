"""A contract line met in words other than its own (issue 30: a new book's good drafts sent back),
each a class of form an author writes, with the wrong draft that must still be caught beside it
(corpora: 连续性-开发六, 连续性-盲评七). An error only when the draft certainly lacks the term;
where the prose may hold it under a form no table reads, a warning that asks."""

from __future__ import annotations

from typing import Any, cast

from lw_storyrepo.checks import ERROR, WARN, CheckContext, contract_findings, dwellers_of, kin_of, numeral_forms, roles_of
from lw_storyrepo.continuity import DEFAULT_STAGES, World
from lw_storyrepo.drafts import Draft
from lw_storyrepo.kinship import kin_forms

CARDS: dict[str, dict[str, Any]] = {
    "杜建国": {"姓名": "杜建国", "状态": "在世", "位置": "43次列车", "境界": "列车员", "持有": ["铜哨", "上海牌手表"]},
    "马秀兰": {"姓名": "马秀兰", "状态": "在世", "位置": "43次列车", "境界": "列车长"},
    "哈力克": {"姓名": "哈力克", "状态": "在世", "位置": "43次列车", "境界": "乘警"},
    "钱卫东": {"姓名": "钱卫东", "状态": "在世", "位置": "43次列车", "持有": ["帆布箱"]},
    "杜满仓": {"姓名": "杜满仓", "状态": "已死", "位置": "柳园站", "境界": "扳道工"},
    "吴老四": {"姓名": "吴老四", "状态": "失踪", "位置": "罗湖口岸"},
}
PLACES = {"43次列车", "7号车厢", "柳园站", "嘉峪关站", "罗湖口岸", "罗湖区", "上步仓库", "上步工业区", "赛格电子市场",
          "华强北", "深圳", "香港", "鸭寮街"}
ITEMS = {"铜哨", "上海牌手表", "帆布箱"}
KIN = kin_of(cast(Any, None), {"马秀兰": "---\n姓名: 马秀兰\n---\n## 关系\n杜建国的师父。",
                                "杜满仓": "---\n姓名: 杜满仓\n---\n## 关系\n杜建国的父亲。",
                                "杜建国": "---\n姓名: 杜建国\n---\n## 设定\n列车员。"})


def ctx_for(meta: dict[str, Any]) -> CheckContext:
    aliases = {**{n: n for n in CARDS}, **{p: p for p in PLACES}}
    world = World(CARDS, dict(aliases), PLACES, ITEMS, DEFAULT_STAGES, None, {"华强北": {"深圳"}}, {})
    return CheckContext(aliases, [], [], [], 0, set(aliases), set(ITEMS), world=world, people=set(CARDS), kin=KIN,
                        dwellers=dwellers_of(CARDS), dead=frozenset({"杜满仓"}), roles=roles_of(CARDS)).for_draft(meta)


def found(lines: list[str], body: str, meta: dict[str, Any] | None = None, *, ids: tuple[str, ...] = ("P-001",)) -> list[tuple[str, str]]:
    meta = {"推进承诺": list(ids), "视角": "杜建国", **(meta or {})}
    draft = Draft("A", meta, body, 5)
    return [(f.severity, f.message) for f in contract_findings({"合同": lines}, draft, ctx_for(meta))
            if f.severity in (ERROR, WARN)]


def errors(lines: list[str], body: str, meta: dict[str, Any] | None = None) -> list[str]:
    return [m for s, m in found(lines, body, meta) if s == ERROR]


def test_a_post_only_one_card_holds_names_its_holder() -> None:
    assert roles_of(CARDS)["马秀兰"] == {"列车长"}
    assert errors(["马秀兰出场"], "列车长把缸子往桌上一墩。") == []
    assert errors(["马秀兰出场"], "乘务员把缸子往桌上一墩。") != []
    assert "列车员" not in roles_of({**CARDS, "小王": {"境界": "列车员"}}).get("杜建国", set())  # two hold it: no one's


def test_a_name_with_no_han_surname_goes_by_its_first_character() -> None:
    assert errors(["哈力克出场"], "老哈进来了，帽檐上全是霜。") == []
    assert errors(["哈力克出场"], "哈乘警从过道那头过来了。") == []
    assert errors(["哈力克出场"], "一个穿制服的人从过道那头过来了。") != []


def test_a_number_is_read_either_way() -> None:
    assert numeral_forms("7号车厢") == {"七号车厢"} and numeral_forms("十四号井") == {"14号井"}
    assert errors(["P-001 推进：杜建国在7号车厢查票"], "杜建国打着手电查七号车厢。") == []
    assert errors(["P-001 推进：杜建国在7号车厢查票"], "杜建国打着手电查八号车厢。") != []


def test_a_place_without_its_kind_unless_another_place_shares_the_rest() -> None:
    assert errors(["杜建国去柳园站"], "车到柳园，杜建国跳下车。") == []
    assert errors(["杜建国去赛格电子市场"], "杜建国上了赛格的二楼。") == []
    assert errors(["杜建国去上步仓库"], "杜建国走进上步那间铁皮屋。") != []  # 上步 is also 上步工业区's


def test_address_forms_are_a_persons_only() -> None:
    assert errors(["杜建国去罗湖口岸"], "杜建国望着湖口岸边的灯。") != []  # no 罗 whose given name is 湖口岸


def test_a_thing_by_its_brand_or_a_two_character_thing_by_its_kind() -> None:
    assert errors(["杜建国摘下上海牌手表"], "杜建国把那块上海牌摘下来。") == []
    assert errors(["杜建国吹响铜哨"], "杜建国把哨子含在嘴里。") == []
    assert errors(["杜建国吹响铜哨"], "杜建国扯着嗓子喊了一声。") != []


def test_the_other_side_of_a_cards_relation_and_regional_kin_words() -> None:
    assert "徒弟" in KIN["杜建国"] and "师父" in KIN["马秀兰"]
    assert errors(["杜建国出场"], "我那徒弟在门外敲了两下。", {"视角": "马秀兰"}) == []
    assert "家姐" in kin_forms("---\n姓名: 陈志红\n---\n陈志远的姐姐。")


def test_an_error_only_when_the_draft_certainly_lacks_the_term() -> None:
    line = ["P-001 推进：钱卫东半夜打开帆布箱"]
    there = found(line, "下铺那人半夜打开帆布箱。", {"在场": ["杜建国", "钱卫东"]})
    assert [s for s, m in there if "钱卫东" in m] == [WARN]  # the draft's 在场 lists him: asked, not refused
    gone = found(line, "下铺那人半夜打开帆布箱。", {"在场": ["杜建国"]})
    assert [s for s, m in gone if "钱卫东" in m] == [ERROR]
    assert [s for s, m in found(["杜建国吹响铜哨"], "杜建国摸了摸口袋里的哨。") if "铜哨" in m] == [WARN]  # 哨: maybe it
    moved = found(["杜建国去嘉峪关站"], "车停了，杜建国跳下去。", {"设定变更": ["杜建国.位置=嘉峪关站"]})
    assert [s for s, m in moved if "嘉峪关站" in m] == [WARN]
    assert [s for s, m in found(["P-001 推进：找到钱卫东的车票"], "杜建国找到一张车票。") if "钱卫东" in m] == [WARN]


def test_the_missing_and_the_dead_bring_no_place_to_a_line_not_about_them() -> None:
    assert errors(["杜建国去罗湖口岸"], "杜建国听人说起四哥。") != []  # 吴老四 is missing: his card's place is no place
    assert errors(["杜建国去柳园站打听"], "杜建国在嘉峪关下车，想起他爹。") != []
    assert errors(["马秀兰说起杜满仓在柳园站出事"], "列车长说起他爹那天夜里的事。") == []


def test_a_place_as_whence_or_as_a_district() -> None:
    assert errors(["钱卫东从香港来到华强北"], "钱卫东在华强北下了车。") == []
    assert errors(["P-001 推进：钱卫东说香港鸭寮街有货"], "钱卫东说鸭寮街有货。") == []
    assert errors(["钱卫东去深圳"], "钱卫东在华强北下了车。") == []  # 华强北 lies in 深圳
    assert errors(["钱卫东去香港"], "钱卫东在华强北下了车。") != []


def test_a_line_asking_someone_in_whom_the_cast_leaves_out() -> None:
    meta = {"在场": ["杜建国"]}
    talked = found(["马秀兰出场"], "杜建国听人说，马秀兰病了。", meta)
    assert [s for s, m in talked if "马秀兰" in m] == [WARN]
    assert found(["马秀兰出场"], "电话里，马秀兰说：“快回来。”", meta) == []  # she speaks: a call
    assert [s for s, m in found(["马秀兰出场"], "杜建国一个人查票。", meta) if "马秀兰" in m] == [ERROR]


def test_a_promise_moved_beside_the_contracts_and_a_handover_not_recorded() -> None:
    extra = found(["P-002 推进：钱卫东换了铺位"], "钱卫东换了铺位。", ids=("P-001", "P-002"))
    assert [s for s, m in extra if "P-001" in m] == [WARN]
    assert found(["P-002 推进：钱卫东换了铺位"], "钱卫东换了铺位。", ids=("P-002",)) == []
    line = ["杜建国把上海牌手表押给钱卫东"]
    assert [s for s, m in found(line, "杜建国把上海牌手表押给了钱卫东。") if "交出" in m] == [WARN]
    assert found(line, "杜建国把上海牌手表押给了钱卫东。", {"设定变更": ["钱卫东.持有+上海牌手表"]}) == []


def test_a_things_kind_named_as_a_thing_asks_and_a_new_one_does_not() -> None:
    line = ["杜建国摘下上海牌手表"]
    assert [s for s, m in found(line, "杜建国摘下腕上的手表。") if "上海牌手表" in m] == [WARN]
    assert [s for s, m in found(line, "杜建国的表情僵了一下。") if "上海牌手表" in m] == [ERROR]  # 表情 is no watch
    assert [s for s, m in found(line, "杜建国在地上捡到一块手表。") if "上海牌手表" in m] == [ERROR]  # a new one


def test_a_held_thing_by_the_words_its_holders_card_gives_it() -> None:
    from lw_storyrepo.checks import looks_of

    card = "---\n姓名: 陈志远\n---\n## 设定\n腰上别一台摩托罗拉汉显BP机，随身带一只黄壳的福禄克万用表。"
    meta = {"持有": ["汉显BP机", "福禄克万用表"]}
    assert looks_of({"陈志远": card}, {"陈志远": meta}) == {"汉显BP机": {"摩托罗拉"}, "福禄克万用表": {"黄壳"}}
    ctx = CheckContext({"陈志远": "陈志远"}, [], [], [], 0, {"陈志远"}, {"汉显BP机"}, people={"陈志远"},
                       looks=looks_of({"陈志远": card}, {"陈志远": meta}))
    draft = lambda body: Draft("A", {"推进承诺": ["P-001"]}, body, 5)
    severities = lambda body: [f.severity for f in contract_findings({"合同": ["陈志远的汉显BP机响了"]}, draft(body), ctx)
                               if "汉显BP机" in f.message]
    assert severities("陈志远腰间的摩托罗拉响了。") == [WARN]
    assert severities("陈志远的电话响了。") == [ERROR]
