"""What a character's state forbids (spec §4.2, 状态): the one reader of it.

A card's 状态 is one word (停职, 烫伤, 倒仓); what it keeps someone from doing is told in prose — in the
card's own text or in a sentence of 世界观.md that names them: 不许进锦春楼的门, 不得进入园区, 右手什么也
拿不了, 嗓子一个音也唱不出来 — and, for a few states whose bar every book takes for granted, by the state
word itself (禁赛 bars an official match, 停职 the duty, 禁足 going out). :func:`forbidden_of` reads all of
it into one :class:`Bars` a person, which the continuity check holds the prose to. The per-word
knowledge is data here (:data:`SCENES`), read by the same function as the prose, not a second
mechanism: a state word of the table gives a scene bar; the sentences give the others. The kinds:

- a scene barred (:data:`SCENES`: the words that set a scene the state word keeps them out of) — the
  person must not act in such a scene while the state holds;

- a place barred (:data:`BARRED_PLACE`: 不许/不准/不得/禁止 … 进/踏进/进入 … a known place) — the person must
  not be seen entering it or inside it while the state holds;
- a place not to be left (:data:`KEPT`: 11月8日前出不了院, 不得离开县城, 下不了床) — their card's 位置: the
  person must not be seen in the point of view's scene anywhere else;
- a part of the body that cannot do a thing (:data:`UNABLE_PART`: 右手…拿不了, 嗓子…唱不出来) — the person's
  part must not be seen doing it, or (a hand) handling anything;
- a way of moving the legs cannot (:data:`MOVES`: 上不得楼梯, 下不了楼梯, 跑不得) — the person must not be seen
  climbing stairs or a ladder, or running;
- a faculty gone, in the card's words without a part named (:data:`FACULTIES`: 什么也看不见, 走不了路) — the person
  must not be seen reading, running or jumping.

It reads only sentences naming one character whose card gives a 状态 other than the ordinary
(:data:`ORDINARY`); the continuity check decides when the prose contradicts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from lw_storyrepo.kinship import FORMS, WORDS

SCENES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("禁赛", "停赛", "禁止参赛"), re.compile(r"主场|客场|正式比赛|正赛|联赛|比赛馆|比赛席|赛场上|登场|上场|出战")),
    (("停职", "停诊", "吊销", "停飞"), re.compile(r"手术台|坐诊|出诊|查房|出警|办案|开庭|执勤|上班|驾驶舱|机长座|站会|周会|例会|晨会|开会")),
    (("禁足", "面壁"), re.compile(r"出门|出府|出宫|下山|上街|溜出|出了[门府宫山]")),
    (("停课", "休学", "开除"), re.compile(r"上课|课堂|讲台|月考|期中考|期末考")),
)
"""States that bar an activity by their word alone (禁赛: an official match; 停职: the duty; 禁足: going
out), each with the words that set a scene of it; a state is one of them when it starts with the word."""
ORDINARY = ("在世", "正常", "健康", "活着", "无", "")
"""States that forbid nothing: no bar is read for someone in them."""
BARRED_PLACE = re.compile(r"(?:不许|不准|不得|不能|不可|禁止|严禁|不让)(?:再|擅自|随便|私自)?(?:他|她)?"
                          r"(?:踏进|踏入|迈进|跨进|进入|走进|进到|进|回到|回|靠近|登上|上)(?P<rest>[^，,。；;！？!?\n]{1,16})")
"""A bar on a place: 不许进锦春楼的门, 不得进入星澜园区的任何一栋楼, 不许踏进同庆园一步, 不许上江顺轮 (a boat
boarded; the place is the first known place in ``rest``)."""
PARTS = ("右手", "左手", "双手", "两手", "两只手", "手", "右腿", "左腿", "双腿", "两腿", "腿", "右脚", "左脚", "脚",
         "嗓子", "喉咙", "眼睛", "腰")
"""Parts of the body a state may leave unable (右手叫热油烫了, 嗓子倒了仓)."""
_PARTS = "|".join(sorted(PARTS, key=len, reverse=True))
NOT_THE_PART = "下艺头段面包"
"""After a part's word, what makes it another word (手下, 手艺, 手头, 手段, 眼下, 腰包): no part of the body named (R58 at
stop 58: 手下那几个老油条他拿不住 — people not held — bars no hand)."""
UNABLE_PART = re.compile(rf"(?P<part>{_PARTS})(?![{NOT_THE_PART}])[^，,。；;！？!?\n]{{0,8}}?(?P<verb>[\u4e00-\u9fff])(?:不出|不了|不得|不动|不起|(?<=[握拿抓攥捏端])不住)")
"""A part that cannot do a thing: 右手什么也拿不了 (右手, 拿), 嗓子一个音也唱不出来 (嗓子, 唱), 右手握不住东西 (右手, 握; 不住
only after a verb of holding: 手也闲不住 is a busy hand)."""
KEPT = re.compile(r"出不了(?:院|门|屋|城|山|岛|村|寨|宫|府|关|营|牢|监|狱|病房)|离不开(?:病房|医院|病床|床|屋|家|岛|山)|"
                  r"(?:不得|不许|不准|不能|不可|无法|没法)(?:擅自|随便|私自)?(?:离开|走出|出院|出城|出岛|下山|下床)|下不了(?:床|地|山|岛)")
"""A bar on leaving the place someone is (她住在医院，11月8日前出不了院; 不得离开县城): their card's 位置 holds them."""
_STAIRS = r"楼梯|梯子|扶梯|舷梯|桅杆"
"""What one climbs (上不得梯子; 爬上桅杆)."""
_RUNNING = r"跑(?:上|下|到|进|出|过|向|了|去|来)|蹿|一溜烟|飞奔|奔(?:向|到|过|进|出)|追(?:过|到|上|出)"
"""What reads as running (一溜烟追过院子, 三两步蹿到, 光着脚跑到门口)."""
MOVES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"[上下登](?:不得|不了|不去|不来)(?:{_STAIRS}|楼|台阶)|爬不[得了动上]"),
     rf"(?:[爬跑走蹿奔冲追]?[上下]了?|爬)[^，,。；;！？“”\n没不别]{{0,6}}?(?:{_STAIRS})|"
     rf"(?:{_STAIRS})[^，,。；;！？“”\n没不别]{{0,10}}?[上下](?:来|去)|爬了?上|爬到"),
    (re.compile(r"跑不[得了动]"), _RUNNING),
)
"""Ways of moving a leg's hurt bars, as the book words the bar (柳杏儿…跑不得，上不得楼梯; 下不了楼梯), each with what
reads as doing it: climbing stairs, a ladder or a mast (跑上了绣楼的楼梯, 扶着楼梯扶手一级一级下来, 手脚并用爬了上去),
running (一溜烟追过院子, 三两步蹿到)."""
_CLAUSE = r"[^，,。；;！？!?“”\n没不别]"
"""A piece of one clause with no negation in it (what may stand between an act's words)."""
ACT_KIN = ("拉拽扯拖牵", "扛背挑担驮", "搬抬", "拾捡摘采", "撑", "上登", "端捧", "骑", "划摇", "推", "挂", "写")
"""The acts of a trade a card may bar with a thing (上不得船, 拉不得纤, 撑不得篙, 拾不了花, 跳板上不得), one row the verbs that
do the same act to a thing: a bar read on one verb of a row is broken by any verb of it (拉不得纤: 拽了一把纤绳; 扛不得:
背着). Only a verb of a row is read as a bar here: walking, seeing, hearing are :data:`FACULTIES`'."""
_KIN_OF = {verb: row for row in ACT_KIN for verb in row}
BARRED_ACTS_MAX = 8
"""How many acts of a trade (:data:`BARRED_ACT`) one person's words are read for, the first the card and 世界观 say: a
card bars a trade's one to three acts (上不得船，拉不得纤); one of thousands (a card's paragraph of 上不得X) had the
draft's every line searched once for each (A19, stop 59)."""
ANYTHING = ("东西", "重物", "重东西", "重活", "力气", "活", "")
"""A barred act's thing that is no thing in particular (搬不得东西, 扛不得): not read — a carrying or pulling verb alone is
too common a word for a body (背着手, 抬起头, 拉着他的手) to hold the card to."""
SPAN = re.compile(r"多久|多少?(?:天|日子|年|时候|时间)|几(?:天|日|年|个?月)|[一二三两几]?个?时辰")
"""A barred act's "thing" that is a span of time (撑不了多久, 熬不了几天): how long someone lasts, no act with a thing (R58
at stop 58)."""
BARRED_ACT = re.compile(r"(?:^|(?<=[、，,；;也还更又他她]))(?P<fronted>[\u4e00-\u9fff]{2}(?:更|也|还)?)?(?P<verb>[\u4e00-\u9fff])(?:不得|不了)"
                        r"(?P<thing>[\u4e00-\u9fff]{0,3}?)(?=[、，,；;。！!\n]|$)")
"""A card's clause barring an act with its thing, after it or fronted before it (上不得船, 拉不得纤, 拾不了花, 跳板更上不得):
the verb (one of :data:`ACT_KIN`) and the thing."""
NOT_A_THING = re.compile(r"[他她你我们也都还更又就不]")
"""What a fronted thing of :data:`BARRED_ACT` cannot hold: it is a subject or an adverb (他们扛不得), not the thing."""
OTHER_VERBS = "想看望瞧听说问叫等做干吃喝坐站走跑睡哭笑"
"""Verbs of another act that cannot stand between a barred act's verb and its thing (背着手想事: a posture, then a
thought; R58 at stop 58)."""
ACT_GAP = rf"[着了起过住]?[^，,。；;！？!?“”\n没不别的在是有{OTHER_VERBS}]{{0,5}}?"
"""What may stand between a barred act's verb and its thing in the prose (拽了一把纤绳, 撑着长篙, 走上了跳板): an aspect and a
measure or a modifier, not a 的 (河上的船: a place, not boarding) nor 在/是/有, nor another verb (:data:`OTHER_VERBS`)."""
BOARDING = "上登"
"""The row of :data:`ACT_KIN` whose verb is also a direction (爬上, 走上): read only with its thing, never done well."""
BOARDED_PART = "头尾背身沿边上里来去了就便后时"
"""What may follow a boarded thing's word (跨上排头, 跨上马背, 摸上船来, 上了船就): a part of it, a direction or what goes on
in time — any other character
makes another word (上了台阶, 台灯: R58 at stop 58)."""
DONE_WELL = r"得(?:比|飞快|又快|又稳|利索|麻利|起劲)"
"""A degree of skill or speed told after an act (拾得比谁都快, 摘得又快又稳): the act done now, and well — not a bare
得很/得真 (撑得很吃力: hard done, R58 at stop 58)."""


def _barred_act(verb: str, thing: str) -> str:
    """What reads as doing a barred act (:data:`BARRED_ACT`): any verb of its row (:data:`ACT_KIN`) done to the thing (a
    子 or 儿 after it dropped: 梯子 → 梯), or the verb itself told done well (:data:`DONE_WELL`); boarding
    (:data:`BOARDING`) only right after the verb, the thing a whole word (:data:`BOARDED_PART`)."""
    head = thing.rstrip("子儿") or thing
    if verb in BOARDING:  # the thing right after the verb (an aspect aside), a whole word (上了台, not 上了台阶)
        return rf"[{BOARDING}]了?{re.escape(thing)}(?![^{BOARDED_PART}\W\d])"
    return rf"[{_KIN_OF[verb]}]{ACT_GAP}{re.escape(head)}|{re.escape(verb)}{DONE_WELL}"


WRITTEN = "字|名|号|信|书|账|单|牌|标语|告示|布告|通知|报|方|榜|契|帖|簿|册|条子|纸条|字条"
"""Things written to be read (a name, a letter, a notice, a paper, a prescription, a list)."""
NOT_WRITTEN_BEFORE = "被床地"
NOT_WRITTEN_AFTER = "箱包架桌柜房位向便衣"
"""Around a one-character written thing, what makes it a word for no written thing (被单, 床单, 地方; 书箱, 书包, 书架,
单位, 方向, 单衣): a thing looked at is no reading (R58 at stop 58)."""
_WRITTEN_WORD = rf"(?<![{NOT_WRITTEN_BEFORE}])(?:{WRITTEN})(?![{NOT_WRITTEN_AFTER}])"
_UNGIVEN = r"[^，,。；;！？!?“”\n没不别给]"
"""A piece of one clause with no negation and no 给 in it (把信递给他看: shown to another, not read)."""
BY_PIECE = "行个字页张句"
"""The pieces a written thing is gone through by (一行一行, 一个字一个字, 一页一页, 一张一张)."""
RECITED = "经|咒|真言|六字|佛|诗|词|歌|谣|名字|口诀|祷|咒语"
"""What is said by heart, not read (一句一句地念经, 一个字一个字地念六字真言): after 念/读 piece by piece, no reading — the
blind recite prayers, verses and names (fs3, stop 60: S3-4)."""
NEAR_EYES = "眼前|眼跟前|眼皮底下|眼皮子底下|眼睛跟前|眼底下"
"""Where a thing is brought to be looked at closely (凑到眼前, 举到眼皮底下) — not 凑到鼻子底下 (a smell: 连续性-盲评四十二's
眼伤 四喜哥 smells a root so)."""
NOT_BY_EYE = "闻|嗅|摸|听|舔|尝|念|磨蹭|贴脸"
"""What a thing brought up to the face is for when not for the eyes (凑到眼前闻了闻, 捧在眼前用手摸, 贴在眼前念念有词): a
smell, a touch, a prayer — what the blind do as well, read in the clause and the next up to a looking verb (fs3, stop 60:
S3-3)."""
LOOKING_CLOSE = (rf"(?:凑|举|贴|拿|送|捧)(?:到|在|近|上)了?(?:{NEAR_EYES})(?![^。；;！？!?“”\n看瞧瞅认]{{0,10}}?(?:{NOT_BY_EYE}))|"
                 rf"眯(?:着|起|缝着)眼(?:睛)?{_CLAUSE}{{0,4}}?(?:看|瞧|瞅|认)|"
                 rf"对着(?:亮|光|亮光|灯|灯光|日头|太阳|窗口|窗户){_CLAUSE}{{0,3}}?(?:看|照|瞧|瞅)")
"""Looking a thing over with the eyes, by the gesture (接过当票，凑到眼前; 眯着眼把船名认了一遍; 对着亮看了看): what no blind
one does (S3's round, stop 60: 连续性-盲评四十二 凑到眼前, 四十七 凑到眼前, 二十三 眯着眼, 四十六 凑到窗户跟前 — the same way of
writing in four books)."""
READING = (rf"把{_CLAUSE}{{0,10}}?(?:{WRITTEN}){_CLAUSE}{{0,6}}?(?:念|读)(?!给{_CLAUSE}{{0,6}}?听)|"
           rf"把{_UNGIVEN}{{0,10}}?{_WRITTEN_WORD}{_UNGIVEN}{{0,6}}?看(?:了|过|完)|"
           rf"一([{BY_PIECE}])(字?)一\1\2{_CLAUSE}{{0,3}}?(?:看|认|(?:念|读)(?!了?(?:{RECITED})))|看(?:起|完)?了?(?:信|书|报纸|账本)|读(?:起|完|了起来|下去)")
"""Reading a written thing (:data:`WRITTEN`: 把船头上的白字一个一个念了出来, 把告示从头到尾看了一遍, 把药方凑到眼前看了半天,
一行一行看下去, 一个字一个字念 — the pieces :data:`BY_PIECE`, a 字 after the measure or not; not 念给…听: read to them; nor
把信递给他看: shown to another)."""
WRITING = r"(?:亲手|亲笔)(?:写|签|题|批|填|记)|提笔|落笔|提起笔|执笔|蘸了?墨|(?:写|签|填)(?:下|上)了?(?:[一两几]?[个行张笔句]|字|名)|签了?(?:字|名)"
"""Writing by one's own hand (亲手写的一个“验”字, 提笔, 写下一行字, 签了字): what the blind cannot do — the card says so
(写不了字, 不能看字、写字: 连续性-盲评四十六, 四十七), and every sight's loss takes it with reading. A trace so made (亲手写的)
is held to today by the continuity check (:func:`lw_storyrepo.continuity._forbidden`)."""
STEERING = (r"(?:挂上|挂了|挂进|挂到|换上|换了)(?:[一二三四五六]|倒|空|低|高)(?:挡|档)|"
            r"(?:一把|猛|打了?|往[左右]打|回)(?:一把)?(?:方向盘?|轮)(?!感)|(?:握|把|扶|攥)(?:着|住|紧)?方向盘|"
            r"把车(?:倒|开|停|拐|掉)(?:到|进|回|在|出|了|过)|(?:往后|往回)倒(?:了|着)?车|开(?:着|动|起)了?(?:车|拖拉机|卡车)(?![窗门灯厢帘库])|"
            r"(?:骑|蹬)(?:着|上|起)了?(?:车|自行车|车子)|瞄(?:准|着)|端枪|(?:穿|纫|认)(?:上|了)?针")
"""Steering a vehicle or aiming by eye (挂上倒挡, 一把方向, 把车倒到…, 骑上车子, 瞄准, 纫针): what the blind cannot do
— not a bare 倒车 (changing trains) nor 开着车窗 (r62-4)
(h16, stop 62: a snow-blind driver backing a truck in 连续性-盲评五十一; 骑车, 纫针 the siblings no book uses)."""
SIGHT = rf"{READING}|{LOOKING_CLOSE}|{WRITING}|{STEERING}"
"""What the eyes are for (spec §4.2, 状态): reading a written thing, looking a thing over close, writing — one row of
:data:`FACULTIES` (S3's round, stop 60: 目盲 barred reading alone)."""
RUNNING_OR_JUMPING = rf"{_RUNNING}|[跳蹦]了?(?:下|起|上|过)"
"""Running or jumping (光着脚跑到门口, 跳下来): what legs on a crutch still cannot do (:data:`FACULTIES`)."""
WALKING = (rf"{RUNNING_OR_JUMPING}|下了?(?:床|地|炕)|(?<![扶搀架抬背])(?:站|爬)了?起(?:来|身)|起身|"
           r"走(?:[到进出向]|回(?!头)|了?(?:过|进|出|回|下|上)?[来去])|(?:走|挪|踱|迈)了?(?:几|两|三|一)步|"
           r"一瘸一拐|一拐一拐|踉踉跄跄|跌跌撞撞|回来了|迈(?:开|出|进|过)|"
           rf"一步一(?:步地?{_CLAUSE}{{0,4}}?)?(?:挪|走|蹭|捱)")
"""What a person on their own legs does (掀开被子下了床，几步走到窗前; 一瘸一拐地拎着水桶…回来了; 跳下来，光着脚跑到
门口; 扶着墙一步一步挪到了门口, 一步一挪): getting up, walking, running, jumping."""
HAND_VERBS = "拿抄抓握攥捏端提拎举接掂颠抡挥递切剁掌摘掏拧扶撑按推搬扛挑抱拽扯扔甩"
"""The one table of what a hand does when it handles something (抄起锅铲, 接过盘子) — not what is done to it (缠着纱布,
吊着) — read two ways: with an ending, told of a person (:data:`HANDLING`), and bare, after a barred part named before it
(:data:`HAND_USE`). Each reading leaves out its own few (:data:`HAND_ENDED_ONLY`, :data:`HAND_BARE_ONLY`)."""
HAND_ENDED_ONLY = "搬扛挑抱"
"""Hand verbs read only with an ending, told of a person (:data:`HANDLING`: 挑起来, 抱起), not bare after a part."""
HAND_BARE_ONLY = "举颠掌扶撑按推"
"""Hand verbs read only bare after a barred part (:data:`HAND_USE`: 右手…推), not with an ending told of a person."""
HANDLING = rf"(?:{'|'.join(v for v in HAND_VERBS if v not in HAND_BARE_ONLY)})(?:起|过|住|着|了|来|下|出)"
"""A hand taking up or handling a thing (抄起井边的扁担, 接过盘子, 挑起来): a hand's act with its ending, not what is
done to the hand (缠着纱布) nor a bare character of many words (提 of 提到)."""
HEARING = r"听(?:见|到|出|清)|侧耳|竖起耳朵|(?:闻声|听罢|听了这话)"
"""Hearing a sound (听见门响, 听出是谁的脚步, 闻声回头)."""
SPEAKING = r"(?<![心暗])(?:说|喊|问|答|骂|叫|嚷|唱|念)(?:道|了一?声|着|起来|了一句)|开口(?:说|问|道)|大声|高声"
"""Saying aloud (喊了一声, 开口问道, 大声说; not 心说, 暗道: a thought)."""
ANY_ACT = rf"{WALKING}|{HANDLING}|{HEARING}|{SPEAKING}|睁开眼|点了?点头|摇了?摇头|笑了|转过身|坐起|抬起头"
"""What a person awake does at all (睁开眼, 点点头, 坐起来…): the unconscious do none of it."""
FACULTIES: tuple[tuple[str, re.Pattern[str], str, re.Pattern[str] | None, str | None], ...] = (
    ("眼", re.compile(r"(?:什么[也都]|两眼|双眼|眼睛)[^，,。；;\n]{0,6}?看不见|看不见(?:东西|字)?(?=[，,。；;、\n]|$)|认不[得了出]字|"
                     r"识不得字|看不得(?:字|书|信)|双目失明|失明|瞎了|目盲|眼盲|雪盲|全盲"), SIGHT, re.compile(r"[一单]只眼|[左右]眼"), None),
    ("腿", re.compile(r"站不起(?:来)?|走不[了得动](?:路)?(?=[，,。；;、也\n]|$)|下不[了得](?:地|床|炕)|不[准许能得]下(?:地|床)|"
                     r"瘫痪|瘫在床|截瘫|卧床不起"), WALKING, re.compile(r"拄着?拐|拐杖|拐棍|拄着?(?:杖|棍|棒)"), RUNNING_OR_JUMPING),
    ("手", re.compile(r"(?:什么|啥)(?:东西)?[都也]?(?:拿|抓|握)不[得了动住]|(?:拿|抓|握)不住东西|(?:两|双)手[^，,。；;\n]{0,8}?(?:拿|用)不[得了]|用不得力|"
                     r"两只手的活[都也]?干不[了得]"), HANDLING, re.compile(r"[一单]只手|[左右]手|[左右][臂胳]|手[是倒还]?好"), None),
    ("耳", re.compile(r"什么[也都]听不见|听不见(?:声音|人说话)?(?=[，,。；;、\n]|$)|耳朵[^，,。；;\n]{0,6}?聋|聋了|失聪|耳聋"), HEARING,
     re.compile(r"[一单]只耳|[左右]耳"), None),
    ("神志", re.compile(r"昏迷不醒|昏迷|不省人事|人事不知|昏睡不醒"), ANY_ACT, None, None),
)
"""The one table of what a card's state rules out (spec §4.2, 状态), one row a faculty: ``(faculty, the words that say
it is gone, what reads as using it, what in the card's words leaves the faculty whole after all, what it still rules out
then or None)`` — 右手 (the other hand works), 拄着拐 (walking with a crutch: running and jumping still ruled out), the
part named as a noun (一只手, 左眼, 拐杖; not 一手把儿子拉扯大, 一眼, 拐到: R51 at stop 51) —
read from the card's own 状态 word and its own present clauses (:data:`ANOTHERS_OR_PAST`; 目盲: 什么也看不见，认不得字;
断腿卧床: 站不起、走不得; 烫伤: 两手缠满了布…什么都拿不得, 一个月之内拿不住东西; 昏迷) in the general Chinese any book says it with — sight:
reading a written thing, looking a thing over close, writing (:data:`SIGHT`); legs: getting up, walking, running, jumping; hands: taking up or handling a thing; hearing: hearing a sound; a
mind out: any act at all. The voice is :data:`lw_storyrepo.continuity.MUTE`'s (a mute's quotes), a part named with its
bar :data:`UNABLE_PART`'s. An act is the card's only when its clause's subject is the card (by a name, or a pronoun of a
paragraph naming no one else: :func:`lw_storyrepo.continuity._told_of`): a hand act after an unknown name (阿娇…又拿起了
放大镜) is nobody's (连续性-盲评二十七)."""
_KIN = "|".join(sorted({*WORDS, *(f for forms in FORMS.values() for f in forms), "爸", "妈", "男人", "媳妇", "老婆"}
                        - {"夫人", "娘子", "相公"}, key=len, reverse=True))
"""Kin words (:data:`lw_storyrepo.kinship.WORDS`, its forms): a subject who is a relative, not the card (夫人, 娘子,
相公 aside: how the card herself is often called)."""
ANOTHERS_OR_PAST = re.compile(rf"(?:^|[他她我你其]的?)(?:{_KIN})|(?:[一二三四五六七八九十几两百\d]+|多|半)年前|早年|当年|"
                              r"曾经?|从前|以前|小时候|年轻时")
"""In the clause before a faculty's words, a subject who is not the card (她爹瘫痪在床, 她娘早年瞎了) or a time that is
not now (十年前, 早年, 曾, 当年): the clause does not state the card's present faculty (R51 at stop 51)."""
ONCE = re.compile(r"过")
"""After a faculty's words, a state lived through and over (昏迷过三天)."""
CAUSED = re.compile(r"[让请托求央]|(?<![大喊尖惊哭])叫(?!了?一?声|喊|嚷|道|醒|作|做)")
"""A causative before an act in its clause (小白叫沈工把信读完, 让人把门牌上的字念给她听): someone else does it — the
name after it reads as an object (:data:`lw_storyrepo.continuity.NOT_SUBJECT`), yet it is the doer."""
HAND_USE = "|".join(v for v in HAND_VERBS if v not in HAND_ENDED_ONLY)
"""What a barred hand does when it handles something, bare (:data:`HAND_VERBS`)."""
VOICE_USE = "唱|喊|吼|嚎|叫"
"""What a throat does aloud (唱了一句, 吼了一嗓子)."""


@dataclass(frozen=True)
class Bars:
    """What one character's state forbids: places not to be in, ``(part, pattern)`` for each
    part that cannot do what ``pattern`` reads (a hand's any handling, a throat's singing aloud), and
    the words that set a scene they must not act in (:data:`SCENES`; None when the state bars none), and
    whether they may not leave the place they are (:data:`KEPT`: their card's 位置), and ``(the book's words, pattern)``
    for each way of moving they cannot (:data:`MOVES`: 上不得楼梯 and what reads as climbing), and ``(the card's words,
    pattern)`` for each faculty their state rules out (:data:`FACULTIES`: 站不起 and what reads as walking), and ``(the card's
    words, pattern)`` for each act of a trade it bars (:data:`BARRED_ACT`: 上不得船 and what reads as boarding)."""

    places: frozenset[str] = frozenset()
    parts: tuple[tuple[str, str], ...] = field(default=())
    scene: re.Pattern[str] | None = None
    kept: bool = False
    moves: tuple[tuple[str, str], ...] = field(default=())
    faculties: tuple[tuple[str, str], ...] = field(default=())
    acts: tuple[tuple[str, str], ...] = field(default=())


def scene_of(state: str) -> re.Pattern[str] | None:
    """The words setting the scene a state word bars (:data:`SCENES`), or None."""
    return next((scene for words, scene in SCENES if state.startswith(words)), None)


def _uses(part: str, verb: str) -> str:
    """What a barred part doing its thing reads as: the barred verb, and every handling of a hand or
    every sound of a throat."""
    if "手" in part:
        return f"{re.escape(verb)}|{HAND_USE}"
    if part in ("嗓子", "喉咙"):
        return f"{re.escape(verb)}|{VOICE_USE}"
    return re.escape(verb)


def forbidden_of(characters: dict[str, dict[str, Any]], texts: dict[str, str], lore: str,
                 aliases: dict[str, str], places: Iterable[str]) -> dict[str, Bars]:
    """``{character: Bars}`` for each character in a state (:data:`ORDINARY` aside) whose state word
    bars a scene (:data:`SCENES`), or whose card text or a 世界观 sentence naming them alone says what it
    forbids (:data:`BARRED_PLACE`, :data:`KEPT`, :data:`UNABLE_PART`, :data:`MOVES`)."""
    held = {n for n, c in characters.items() if str(c.get("状态") or "").strip() not in ORDINARY}
    if not held:
        return {}
    known = frozenset(p for p in places if len(p) >= 2)
    forms = {a: n for a, n in aliases.items() if n in held and len(a) >= 2}
    form_words, form_lengths = frozenset(forms), frozenset(map(len, forms))
    place_lengths = frozenset(map(len, known))
    scenes = {n: scene for n in held if (scene := scene_of(str(characters[n].get("状态") or ""))) is not None}
    said: dict[str, list[str]] = {n: [] for n in scenes}
    for n in held:
        said.setdefault(n, []).append(str(characters[n].get("状态") or ""))  # 状态: 失明 says it by itself
        if n in texts:
            said[n].extend(re.split(r"[。\n]", texts[n]))
    for sentence in re.split(r"[。\n]", lore):
        who = {forms[a] for a in _held_in(sentence, form_words, form_lengths)}
        if len(who) == 1:
            said.setdefault(who.pop(), []).append(sentence)
    alias_lengths = frozenset(len(a) for a in aliases if len(a) >= 2)
    every_form = frozenset(a for a in aliases if len(a) >= 2)  # once: each person's others were the whole book's again

    def names_another(clause: str, n: str) -> bool:
        return any(aliases[a] != n for a in _held_in(clause, every_form, alias_lengths))

    out: dict[str, Bars] = {}
    for n, sentences in said.items():
        barred: set[str] = set()
        parts: dict[str, str] = {}
        kept = False
        moves: dict[str, str] = {}
        faculties: dict[str, tuple[str, str]] = {}
        acts: dict[str, str] = {}
        for sentence in sentences:
            for clause in re.split(r"[，,；;：:]", sentence):  # the card's own clause: one naming nobody else
                for bar in BARRED_ACT.finditer(clause):
                    fronted = (bar.group("fronted") or "").rstrip("更也还")
                    thing = bar.group("thing") or ("" if NOT_A_THING.search(fronted) else fronted)
                    if len(acts) >= BARRED_ACTS_MAX:
                        break
                    if bar.group("verb") in _KIN_OF and thing not in ANYTHING and not SPAN.fullmatch(thing) \
                            and not names_another(clause, n) \
                            and not ANOTHERS_OR_PAST.search(clause, 0, bar.start("verb")):
                        words = bar.group() if thing == fronted else bar.group()[bar.start("verb") - bar.start():]
                        acts.setdefault(words, _barred_act(bar.group("verb"), thing))
                for faculty, bar, doing, unless, lesser in FACULTIES:  # keyed by faculty: one reading of the legs
                    if faculty not in faculties and (said_so := bar.search(clause)) is not None \
                            and not names_another(clause, n) \
                            and not ANOTHERS_OR_PAST.search(clause, 0, said_so.start()) \
                            and not ONCE.match(clause, said_so.end()):
                        rules_out = lesser if unless and any(unless.search(other) for other in sentences) else doing
                        if rules_out is not None:
                            faculties[faculty] = (said_so.group(), rules_out)
            kept = kept or KEPT.search(sentence) is not None
            for m in BARRED_PLACE.finditer(sentence):
                rest = m.group("rest")
                first = min(((rest.find(p), p) for p in _held_in(rest, known, place_lengths)), default=None)
                if first is not None:
                    barred.add(first[1])
            for m in UNABLE_PART.finditer(sentence):
                parts.setdefault(m.group("part"), _uses(m.group("part"), m.group("verb")))
            for bar, doing in MOVES:
                if doing not in moves.values() and (said_so := bar.search(sentence)) is not None:
                    moves[said_so.group()] = doing
        if barred or parts or kept or moves or faculties or acts or n in scenes:
            out[n] = Bars(frozenset(barred), tuple(parts.items()), scenes.get(n), kept, tuple(moves.items()),
                          tuple(faculties.values()), tuple(acts.items()))
    return out


def _held_in(text: str, words: frozenset[str], lengths: frozenset[int]) -> set[str]:
    """The ``words`` (of ``lengths``) that occur in ``text``, found among its pieces of their lengths: a card of
    thousands of aliases, or a book of thousands of places, was looked for word by word in every sentence of 世界观."""
    return {text[i:i + n] for n in lengths for i in range(len(text) - n + 1)} & words
