"""Continuity false alarms by class, found on a genre no set had used (连续性-盲评八, an esports club)
and written here in other words (a hospital), the right sentence next to the wrong one: a call goes
on until it is hung up; a thing everyone carries named by its kind is nobody's known thing; a
past event (走的那天, 当时) and a photograph place no one in the scene. And the misses of that set
by class: a season said now (入冬以来), a register listing people under a stage (主治：…), a thing
worn on someone's arm, a patient (状态 住院) out of their ward."""

from __future__ import annotations

from lw_storyrepo.checks import CheckContext, voices
from lw_storyrepo.continuity import World, check_continuity, far_places, places_inside
from lw_storyrepo.forbidden import forbidden_of

STAGES = ("实习医生", "住院医", "主治", "副主任", "主任")
CARDS = {
    "林知远": {"姓名": "林知远", "状态": "在世", "位置": "仁和医院", "境界": "住院医", "持有": ["听诊器"]},
    "沈曼": {"姓名": "沈曼", "状态": "在世", "位置": "仁和医院", "境界": "主治", "持有": ["裂屏手机", "值班日志"]},
    "周海生": {"姓名": "周海生", "状态": "在世", "位置": "广州", "境界": "主治", "持有": ["旧相机"]},
    "王伯": {"姓名": "王伯", "状态": "住院", "位置": "市一院"},
    "赵刚": {"姓名": "赵刚", "状态": "停职", "位置": "仁和医院"},
}
ALIASES = {**{name: name for name in CARDS}, "老周": "周海生", "沈姐": "沈曼"}
PLACES = {"仁和医院", "广州", "急诊科", "市一院"}
ITEMS = {"听诊器", "裂屏手机", "值班日志", "旧相机"}
LORE = "急诊科在仁和医院。周海生去了广州进修，坐飞机要三个钟头。"


def continuity(body: str, meta: dict | None = None) -> list[str]:
    meta = {"视角": "林知远", "在场": ["林知远", "沈曼"], **(meta or {})}
    world = World(CARDS, dict(ALIASES), PLACES, ITEMS, STAGES, None, places_inside(LORE, PLACES),
                  {"林知远": "他", "沈曼": "她", "周海生": "他", "王伯": "他", "赵刚": "他"}, far=far_places([LORE], PLACES),
                  bars=forbidden_of(CARDS, {}, "", ALIASES, PLACES))
    ctx = CheckContext(dict(ALIASES), [], [], [], 0, set(ALIASES), set(ITEMS), world=world, people=set(CARDS)).for_draft(meta)
    world.aliases, world.indirect = ctx.aliases, ctx.kin_words
    lines = body.split("\n")
    return [f.message for f in check_continuity(world, meta, lines, 1, voices(ctx, lines), ctx.names_re())]


CALL = ["夜班刚交完，林知远的手机在口袋里震了起来，是老周。", "“喂，老周。”",
        "“还没下班吧？”周海生问，“广州这边下了一天的雨。”", "“刚交班。”", "“那个病人后来怎么样了？”",
        "“转危为安了。”林知远说。", "“那就好。”周海生笑了笑，“科里门口又挂了一串灯笼吧？”", "“挂了，沈姐挂的。”",
        "“替我谢谢她。”周海生说，“行了，我先挂了。”"]


def test_a_call_goes_on_until_it_is_hung_up() -> None:
    """A voice from a call is no one in the scene for as long as the call lasts (not only the few
    paragraphs after it began): no 在场 warning, no 位置 warning; once it is hung up the same
    voice is someone in the room again, and the warning says where their card puts them."""
    assert continuity("\n\n".join(CALL)) == []
    after = continuity("\n\n".join([*CALL, "电话挂了。", "“对了，还有一件事。”周海生说。"]))
    assert after == ["周海生 不在本章的在场名单（林知远、沈曼），角色卡·位置是「广州」，正文里却在说话"]
    # no call begun: the same talk is someone in the room
    assert continuity("\n\n".join(["夜班刚交完，林知远在走廊上碰见了老周。", *CALL[1:]]))
    # a call from someone in the same place says nothing of where they are
    assert "角色卡·位置" not in " ".join(continuity("“沈姐，等等。”\n\n“我在呢。”沈曼说。", {"在场": ["林知远"]}))


def test_a_thing_everyone_carries_named_by_its_kind_is_no_known_thing() -> None:
    """那部手机 is whoever's phone is at hand; the one known 裂屏手机 is used only when named (or
    named by a rare kind: 那本日志 for 值班日志)."""
    assert not [m for m in continuity("林知远掏出那部手机，看了一眼时间。") if "持有" in m]
    assert [m for m in continuity("林知远掏出裂屏手机，看了一眼时间。") if "持有" in m]
    assert [m for m in continuity("林知远翻开那本日志，一页页往下看。") if "持有" in m]


def test_a_past_event_or_a_photograph_places_no_one_in_the_scene() -> None:
    """Someone far away is not beside the point of view in a day gone by (老周走的那天, 当时) or in
    a photograph; the same sentence told as now is (a warning of 位置)."""
    far = lambda body: [m for m in continuity(body, {"在场": []}) if "很远" in m]
    assert far("林知远靠在窗边。老周坐在他对面，点了点头。")
    assert not far("林知远靠在窗边。老周走的那天，坐在他对面，点了点头。")
    assert not far("林知远靠在窗边。\n\n老周当时坐在他对面，点了点头。")
    assert not far("林知远看着墙上的合影。照片里，老周站在最边上，笑着。")
    assert not far("林知远上了楼。老周那间办公室一直空着，门一推开，全是灰。")  # 老周 owns the room: no subject
    assert far("林知远看着墙上的合影。老周站在最边上，笑着。")


def test_a_season_said_now_against_the_in_book_time() -> None:
    july = {"书内时间": "2016年7月13日"}
    assert [m for m in continuity("今天是入冬以来最冷的一天，林知远裹紧了白大褂。", july) if "书内时间" in m]
    assert not [m for m in continuity("今天是入夏以来最热的一天，林知远解开了白大褂。", july) if "书内时间" in m]
    assert not [m for m in continuity("食堂今天有冬瓜汤，林知远打了两碗。", july) if "书内时间" in m]
    assert [m for m in continuity("正值盛夏，走廊里的风扇呼呼地转。", {"书内时间": "2016年12月2日"}) if "书内时间" in m]
    # a place after a preposition of place is no season, though its name begins with one
    assert not [m for m in continuity("今天一早在春晖路口，林知远碰见了老周。", july) if "书内时间" in m]
    assert not [m for m in continuity("今天往冬青巷去的车停了，林知远只好走路。", july) if "书内时间" in m]
    assert [m for m in continuity("眼下到了冬天，林知远把白大褂换成了棉的。", july) if "书内时间" in m]


def test_a_register_lists_people_under_a_stage() -> None:
    """A roster or a duty board (主治：沈曼、老周) gives each person listed that stage: lower than
    their card is a 境界 error; the same stage or higher is none."""
    ranks = lambda body: [m for m in continuity(body) if "境界" in m]
    assert ranks("值班表贴在墙上。\n实习医生：沈姐、林知远") == [
        "沈曼 的境界是「主治」（角色卡·境界），正文的名单把沈曼列在「实习医生」，没有跌境的缘由",
        "林知远 的境界是「住院医」（角色卡·境界），正文的名单把林知远列在「实习医生」，没有跌境的缘由"]
    assert ranks("值班表贴在墙上。\n主治：沈姐、老周\n住院医：林知远") == []


def test_a_thing_worn_on_someone_s_arm_or_shoulder() -> None:
    held = lambda body: [m for m in continuity(body) if "持有" in m]
    assert held("老周的旧相机，此刻正挂在林知远的右肩上。")
    assert not held("那副听诊器，此刻正挂在林知远的脖子上。")  # his own


def test_a_patient_stays_in_the_ward_unless_visited_or_called() -> None:
    """状态 住院 keeps someone in their card's 位置 as a cell does: in the scene elsewhere they act
    against the card (an error); a visit to the ward (told once, going on for paragraphs) or a call
    is no contradiction."""
    acting = lambda body: [m for m in continuity(body, {"在场": []}) if "住院" in m]
    assert acting("林知远在值班室写病历。王伯推门走了进来，把饭盒放在桌上。") == [
        "王伯 的状态是「住院」（角色卡·状态），住在「市一院」，正文里却在场动作"]
    small_talk = ["“最近睡得好吗？”", "“还行。”", "“吃饭呢？”", "“也还行。”", "“那就好。”"]
    visit = "\n\n".join(["林知远打车来到市一院，上了九楼。", *small_talk, "王伯笑了。"])
    assert acting(visit) == []
    assert acting(visit.replace("王伯笑了。", "林知远离开了病区，回到仁和医院。\n\n王伯笑了。"))
    call = "\n\n".join(["林知远的手机响了，是王伯打来的。", *small_talk, "王伯在那头笑了。"])
    assert acting(call) == []
    # someone else's call saying he came is no call of his: his body at the gate is here
    assert acting("门卫打电话上来：“你家王伯来了。”\n\n林知远跑下楼。\n\n王伯站在大门外头，拎着饭盒。")
    assert not acting("门卫打电话上来：“你家王伯来了。”\n\n林知远跑下楼。\n\n王伯在电话里叹了口气。")


def test_a_stage_said_of_someone_with_a_modifier_between() -> None:
    """不过是个刚来的实习医生 says the stage of the one named before it, whatever words describe
    it; 面前的 before it still says the stage is someone else's."""
    ranks = lambda body: [m for m in continuity(body) if "境界" in m]
    assert ranks("如今的林知远，不过是个刚来没几天的实习医生。")
    assert ranks("林知远不过是个实习医生。")
    assert not ranks("林知远面前的不过是个刚来没几天的实习医生。")
    assert not ranks("林知远，不过是个刚来没几天的主任。")  # higher than his card: no fall


def test_a_one_character_kin_word_says_who_speaks() -> None:
    """“…”妈说 and 妈说，“…” are the words of the point of view's mother (her card's 妈妈), not a
    guess by turn-taking; 姑妈说 is someone else."""
    people = {"林知远": "林知远", "沈曼": "沈曼", "林母": "林母"}
    ctx = CheckContext(dict(people), [], [], [], 0, set(people), set(), people=set(people),
                       kin_of_pov={"林知远": {"妈妈": "林母", "母亲": "林母"}}).for_draft({"视角": "林知远"})
    said = lambda line: [(v.speaker, v.guessed) for v in voices(ctx, ["沈曼推门进来。", line])
                          if v.line == 1 and v.speaker]
    assert said("“吃了没有？”妈说。") == [("林母", False)]
    assert said("妈低声说：“早点睡。”") == [("林母", False)]
    assert ("林母", False) not in said("“吃了没有？”姑妈说。")


def test_a_state_that_bars_an_activity() -> None:
    """停职 (as 禁赛, 禁足) bars a scene: the one suspended acting in a scene the prose sets as that
    duty (手术台, 查房) contradicts the card; the duty denied (没再上过手术台) or someone else's is none."""
    barred = lambda body: [m for m in continuity(body, {"在场": []}) if "停职" in m]
    assert barred("第一台手术九点开始。\n\n赵刚站在手术台边，接过了止血钳。") == [
        "赵刚 的状态是「停职」（角色卡·状态），正文里却在「手术台」的场合里动作"]
    assert barred("赵刚停职以后就没再上过手术台，每天坐在走廊上发呆。") == []
    assert barred("沈曼站在手术台边。\n\n一\n\n二\n\n三\n\n赵刚坐在楼下的小卖部门口。") == []


def test_the_point_of_view_s_quoted_form_of_address_names_the_dead_in_check_draft(book) -> None:
    """What a card says the point of view calls someone (林晚叫他“老槐”) names that person in the
    continuity check of a whole draft (``check_draft``): the dead man acting under it is found in
    林晚's chapter, and the same words in another's chapter name no one."""
    from lw_storyrepo.checks import check_draft
    from lw_storyrepo.drafts import Draft

    card = "---\n姓名: 陈守义\n状态: 已死\n---\n## 设定\n林家的老账房，去年冬天病故。\n\n## 关系\n林晚叫他“老槐”。\n"
    book.p("定稿/设定/角色/陈守义.md").write_text(card, encoding="utf-8")
    body = "雪停了。\n老槐推门走了进来，在炉边坐下，搓了搓手。\n"

    def dead_acting(pov: str) -> list[str]:
        draft = Draft("A", {"视角": pov, "在场": [pov]}, body, 10)
        return [f.message for f in check_draft(book, draft) if f.kind == "连贯" and "陈守义" in f.message]

    assert dead_acting("林晚"), "the dead man under the point of view's own name for him"
    assert dead_acting("大长老") == []
