"""New proper nouns in a draft (spec §4.5, §8 step 5): names the roster does not know yet.

A segmenter alone lists every word it has never seen ("雪下", "那支", "抱得"): in web-novel
prose most of those are ordinary words glued by a verb complement or a particle. A name earns
its place here only with evidence, counted, never guessed:

- **shape**: a surname followed by a given name that is no dictionary word (沈砚, 周不疑); a
  rare or coined stem (two to four characters) before a suffix that makes places, sects, items
  and techniques (寒江+渡, 玄冥+教, 赤霄+剑, 九转炼体+诀, 星河+资本); a surname with a kinship
  word or a role (杨二嫂, 苏长老, 孟掌柜); a word jieba's dictionary tags as a proper noun, if it
  is rare; an unknown word whose characters read as a given name (how often jieba's ~36,000
  people carry them, :meth:`_Lexicon.given`);
- **repetition**: the same form more than once in the chapter (a longer form that always
  continues the shorter one wins: 顾长歌, not 顾长; 方必开, not 方必);
- **context**: an introduction (在下/名叫/法号/我叫…, 姓王名仁), a place verb (来到/便是/在…)
  or a place word after it (关外, 一带), a speech or action right after a person (道/问/点头…),
  kin before a surname-led name (她父亲沈国栋), a name quoted on its own (“苏晚晴。”), a
  technique learned or used (学会/使出…).

Signals other books share, added in the fifth round of issue 30:

- **recurrence**: a fragment always said after the same character grows into the unit the draft
  keeps saying (疤脸+老七, 九转回+元丹); a stem and a suffix no dictionary knows, said again after
  different words (回春堂), or one coined character before two place suffixes (澜城, 澜江);
- **given-name characters** read from two samples, jieba's people and the ngender package's
  table of ~32 million given-name characters (:meth:`_Lexicon.given`): a surname and characters
  that all read as a given name's, cut as whole words, is a name said once (王腾, 林浩然);
- **ordinary words need evidence**: a would-be person counted with a measure word (两根艾草), a
  sect's rank (师叔), a word for a name (名字), a double hour (子时), a description (旧+折扇,
  破+镇妖碑), a fragment inside another name found (江里 of 澜江里), a poem's line, the literary
  register's 余/吾 (余曰), a field's word before an institution's (兽医+研究所: a kind of institute) are none;
  an office's word before a full name is the title, not the name (所长+韩砚秋).

A candidate needs two of the three — or, for a surname-led person one short, a place in a list
beside someone found or known (本家的赵白眼，赵司晨). A word with no name's shape said alone in
quotes is a cry or an insult (“忘八蛋！”), not a name. Names the book knows (characters and
their aliases, the roster, things characters hold, this draft's own setting changes), their
parts, role words (师兄, 姑娘…), the address forms of a name found whole in the same draft
(秦公子 of 秦无衣 — unless several people of that family are found: 赵大爷 beside 赵太爷 and
赵司晨; a wife by her husband's surname, 方太太, is never one) and the book's ignore list
(``lw story entity ignore``) are never reported.
The kind comes from the suffix or the evidence (人物/地点/组织/物品/功法).

The labelled chapters in ``tests/corpus/专名*`` measure it (precision and recall are printed
by ``bench/story.py`` and pinned by the tests; 专名-网文-评估, 专名-他人-新评估 and 专名-他人-评估
are evaluation sets, of which only the figures are ever printed).
"""

from __future__ import annotations

import functools
import logging
import math
import re
import sys
from bisect import bisect_left, bisect_right, insort
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, compress
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, Sequence

from lwcore.api import LwError

from lw_storyrepo.changes import CHANGE
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.nametables import NameTables, charfreq_path, name_tables, tables_key
from lw_storyrepo.names import KINSHIP, SURNAME_CHARS, address_forms, surname_of
from lw_storyrepo.sources import read_text
from lw_storyrepo.wordsre import alternation, occurring, starts_of

_COMMON_CHARS = frozenset("都和那于时向成平安常能相双空通边别居步终须养益公东后满广家从查盖权游曾应解连习计伏乐国关谷宗师"
                          "封仰班车甘武符景司索咸籍蒙乔阳闻党贡劳申扶堵尚温容易越冷饶简丰巢红竺隆利沃欧寇匡弘满耿衡")
COMPOUND_SURNAMES = ("欧阳", "上官", "司马", "慕容", "诸葛", "东方", "独孤", "令狐", "公孙", "皇甫", "长孙", "宇文", "尉迟", "端木",
                     "西门", "南宫", "百里", "拓跋", "夏侯", "轩辕", "呼延", "澹台", "司徒", "司空", "钟离", "闻人", "赫连", "太史")
SURNAMES = frozenset(
    "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章云苏潘葛范彭郎鲁韦昌马苗凤花方"
    "俞任袁柳鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬常乐于傅齐康伍余元顾孟黄穆萧尹姚邵湛汪祁毛狄米贝明"
    "臧戴宋庞熊纪舒屈项祝董梁杜阮蓝闵席季贾路江童颜郭梅盛林钟徐邱骆高夏蔡田樊胡凌霍虞万柯管卢莫房"
    "丁宣邓郁单杭洪包左石崔龚程邢裴陆荣翁荀甄储靳焦侯秋仲伊宫宁仇栾厉戎祖刘詹"
    "龙叶韶黎白蒲邰鄂赖卓蔺屠池胥苍莘翟谭姬冉宰雍桑桂牛寿燕冀浦"
    "庄晏柴瞿阎慕连茹宦艾鱼向古慎戈廖庾蔚聂晁勾敖融辛阚鞠蒯荆桓楚"
) - _COMMON_CHARS
ALL_SURNAMES = SURNAME_CHARS | frozenset("段温")
"""Every surname's character: those that mostly write other words too (于, 常, 乐: :data:`SURNAMES` leaves them out), and
two the list of :mod:`lw_storyrepo.names` lacks."""
# longest first: a two-character suffix wins over its last character
SUFFIXES: tuple[tuple[str, str], ...] = tuple(sorted((
    *((s, "功法") for s in ("剑法", "刀法", "掌法", "拳法", "枪法", "身法", "心法", "神功", "功", "诀", "经", "掌", "拳", "指")),
    *((s, "组织") for s in ("宗", "派", "教", "盟", "帮", "会", "阁", "宫", "山庄", "世家", "镖局", "商会", "书馆", "书局",
                           "学堂", "学校", "文社", "局")),
    *((s, "物品") for s in ("剑", "刀", "枪", "鞭", "扇", "笛", "琴", "鼎", "珠", "印", "令牌", "符", "镜", "甲", "铃", "钟", "丹",
                           "丸", "散", "膏", "汤", "酒", "露")),
    *((s, "地点") for s in ("山", "峰", "岭", "崖", "谷", "岛", "洲", "泽", "湖", "江", "河", "川", "渡", "溪", "泉", "潭",
                           "城", "镇", "村", "寨", "关", "州", "郡", "原", "林", "海", "塔", "寺", "观", "庙", "庵",
                           "殿", "楼", "轩", "居", "院", "庄", "堂", "亭", "台", "洞", "府", "门", "坡", "集", "坊", "街", "巷",
                           "湾", "滩", "堡", "驿", "桥", "屯", "墺", "酒店", "酒楼", "饭店", "客栈", "茶馆", "药房", "药铺",
                           "公寓", "老店")),
), key=lambda item: -len(item[0])))
SUFFIX_WORDS = frozenset(suffix for suffix, _kind in SUFFIXES)
ITEM_SUFFIXES = frozenset(suffix for suffix, kind in SUFFIXES if kind == "物品")
LANDFORM_HEADS = ("岗", "冈", "坪", "坳", "峪", "坞", "礁", "岩", "嘴", "梁", "塬", "峁", "冲")
"""N30: a rise, a flat, a hollow, a valley or a walled yard of the land that a place is named by on its own (红泥+岗, 柚子+坪,
永丰+坞), as 岭, 坡 and 洼 name one: the relief words of :data:`SETTLEMENT_FEATURES` no suffix row held. N31: a reef
and a rock face of the coast and the hills (断橹+礁, 鲤鱼+岩), named as 滩 and 崖 are (岩 after a surname's character is
a given name first: :data:`GIVEN_NAME_HEADS`). N35: the ridges and tablelands of the loess country (青冈+梁, 枣林+塬,
and 峁) and the valley fields of the south (鹅公+冲), 冲 being a verb of rushing too (:data:`MOTION_SUFFIXES`)."""
THING_HEAD_STEMS = {"梁": frozenset("木钢铁泥竹房屋横主脊鼻桥门椽栋檩顶")}
"""fn35: landform heads that are a thing's word too, with the last characters of the stems that make them that thing: 梁
after a wood, a material or a part of a house or a bridge (松木+梁, 水泥+梁, 房+梁, 横+梁) is a beam, not a ridge (a ridge
is named by a numeral, a tree or a shape: 二道梁, 青冈梁, 卧驼梁)."""
GIVEN_NAME_HEADS = frozenset(("岩",))
"""Landform heads that are everyday given names' characters too (张岩, 田白岩): after a surname's character and one
more they end a person's name, not a place's (a place named by a surname's character and 岩 is left unread)."""
MORE_SUFFIXES: tuple[tuple[str, str], ...] = tuple(sorted((
    *((s, "功法") for s in ("剑诀", "术", "神火", "步", "阵", "刀诀", "剑谱", "刀谱", "宝典", "真经", "大法", "针法", "腿法")),
    *((s, "组织") for s in ("集团", "公司", "资本", "物流", "科技", "银行", "律所", "事务所", "基金", "工作室", "报社", "一中",
                           "中学", "小学", "大学", "医院", "寨", "学院", "王府", "侯府", "传媒", "影视", "地产", "证券",
                           "实业", "控股", "军", "研究所", "实验室", "娱乐", "洋行", "书院", "派出所", "小组",
                           "公安局", "分局", "公会", "战队", "俱乐部", "矿业", "互娱", "联合体", "军团", "佣兵团",
                           "球迷会", "小队", "马帮")),
    *((s, "物品") for s in ("果", "令", "榜", "碑", "旗", "幡", "图", "盾", "戟", "弓", "锤", "斧", "戒", "环", "炉", "佩", "簪",
                           "号", "杯")),
    *((s, "地点") for s in ("大陆", "渊", "涧", "陵", "漠", "域", "界", "茶社", "公寓", "会所", "大厦", "广场", "小区", "花园", "大街",
                           "路", "胡同", "池", "咖啡", "书店", "酒吧", "餐厅", "饭馆", "面馆", "茶楼", "会馆", "当铺", "钱庄",
                           "医馆", "武馆", "馆", "码头", "商行", "银号", "基地", "避难所", "营地", "山脉", "市", "县",
                           "网吧", "旅社", "旅馆", "宾馆", "茶园", "布庄", "厅", "栈", "空间站", "森林", "峡谷", "沙漠", "草原", "沼泽", "要塞", "斋", "冢", "港",
                           "屿", "剧场", "剧院", "体育馆", "博物馆", "图书馆", "舞蹈室", "遗址", "小卖部", "澳",
                           "球场", "大厅", "病房", "马店", "沟", "井", "洼", "乡",
                           *LANDFORM_HEADS)),
), key=lambda item: -len(item[0])))
"""Suffixes that make names too, but not heads of things the contract check describes (令 of 鹰扬令)."""
CANDIDATE_SUFFIXES = tuple(sorted(SUFFIXES + MORE_SUFFIXES, key=lambda item: -len(item[0])))
ALL_SUFFIX_WORDS = frozenset(suffix for suffix, _kind in CANDIDATE_SUFFIXES)
_KIND_OF_SUFFIX: dict[str, str] = {}
for _suffix, _kind in CANDIDATE_SUFFIXES:  # a suffix listed twice: its first kind
    _KIND_OF_SUFFIX.setdefault(_suffix, _kind)
_SUFFIXES_BY_FIRST: dict[str, list[tuple[str, str]]] = {}
for _suffix, _kind in CANDIDATE_SUFFIXES:  # longest first at each character
    _SUFFIXES_BY_FIRST.setdefault(_suffix[0], []).append((_suffix, _kind))
_SUFFIX_FIRST = re.compile("[" + "".join(map(re.escape, _SUFFIXES_BY_FIRST)) + "]")
FUNCTION = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀哦嗯和与而但却将已很太更最给让从对往每各某此其该几有没无"
                     "上下里中外内前后来去起出进回开到住说道问笑看望站走坐拍叹听你我他她它您咱")
LEAD_BAD = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀和与而但却将已很更最给让从对往你我他她它您咱每各某此其该几便再即"
                     "前后上下里中外内姓比多伊越众")
STEM_END_BAD = frozenset("向到着过起出进入回开上下来去住得见了在跟与把被给对从连")  # a verb and its complement (望向, 握住), a preposition (刘+跟+基地)
RESULT_ENDS = frozenset("成于为作")
"""What a verb takes before the thing it makes or the place it happens in (熬+成+汤, 划+成+海, 殁+于+城, 化+为+灰,
化+作+海): after a verb of the dictionary, the clause, never a stem (德+成+号, 天+成+堂 open on no verb) (N36)."""


def _verb_and_result(lex: "_Lexicon", stem: str, suffix: str | None = None) -> bool:
    """Whether ``stem`` ends in a verb of the dictionary and one of :data:`RESULT_ENDS` (熬成, 划成, 化为): before a place's
    or a thing's suffix, a clause (熬成+汤, 湾+划成+海), no name's stem (N36). Only before what a verb makes or where an
    act ends (``suffix`` a thing's or a landform's word: :data:`ITEM_SUFFIXES`, :data:`LANDFORMS`; not given: the stem
    alone is read): a shop, a firm or a village is named with an auspicious verb and 成 (聚成+号, 兴成+村, fn36)."""
    return len(stem) >= 2 and stem[-1] in RESULT_ENDS and lex.tags.get(stem[-2], "")[:1] == "v" \
        and (suffix is None or suffix in ITEM_SUFFIXES or suffix in LANDFORMS)
MIDDLE_BAD = frozenset("的了着过地得是在把被这那么吗呢吧啊呀你我他她它没伊人们而")
NAME_END = FUNCTION | frozenset("摇点冷低轻忽便正朝跟向面脸眉心手头身一人们及之矣焉哉乎耳者以而入为")
DETERMINERS = frozenset("这那哪每各某此其该一两二三几半全整满")
MATERIALS = frozenset("石木铁铜钢银金玉竹布纸瓷陶锡")
"""A thing made of a material is a kind of thing (石桌, 青钢剑, 铁剑), never a name."""
SENSE_ENDS = frozenset("香气意光色味声影力火风雪血烟雾云")
"""An unknown word ending in a sense or an element (药香, 剑意, 灵气) names a thing felt, not
someone: only context (an introduction, speech after it) makes it a name."""
GENERIC_STEMS = frozenset(("宗门", "门派", "师门", "本门", "家族", "帮派", "朝廷", "皇室", "王府", "官府", "衙门", "书院", "学院",
                           "电竞", "网游", "手游", "页游", "网红", "主播", "动漫", "二次元"))
"""Words for a kind of institution: 宗门令牌 is a sect's token, not a named one; and the trades of
today that jieba's dictionary does not know, which would read as coined stems (电竞+俱乐部, 手游+公会)."""
MEASURES = frozenset("个座条把口只张间位名件块片支枝根颗粒扇道层声句阵场群队匹头")
ROLES = ("姑娘", "公子", "师兄", "师姐", "师弟", "师妹", "师父", "师傅", "大侠", "少侠", "前辈", "老人", "老者", "小姐",
         "夫人", "掌柜", "大哥", "兄弟", "老爷", "少爷", "长老", "掌门", "弟子", "先生", "大人", "将军", "和尚", "道长",
         "少年", "少女", "小主")
_ROLE_WORDS = frozenset(ROLES)
_ROLE_SIZES = tuple(sorted({len(r) for r in ROLES}))


def _holds_role(word: str) -> bool:
    """Whether a word of :data:`ROLES` stands in ``word``: its pieces of their lengths looked up, not
    every role searched for in it."""
    return any(word[k:k + n] in _ROLE_WORDS for n in _ROLE_SIZES for k in range(len(word) - n + 1))
SECT_ROLES = ("师叔", "师伯", "师祖", "师叔祖", "师伯祖", "师侄", "师娘", "师母", "师尊", "宗主", "门主", "谷主", "峰主")
"""The ranks of a sect, said like kinship (王师叔): a role, never a name."""
NAME_WORDS = frozenset(("名字", "名号", "名讳", "外号", "绰号", "称号", "姓名", "全名", "小名", "乳名", "大名", "本名", "真名",
                        "字号", "名头"))
"""Words for a name: 叫你名字 calls someone by theirs, it is none."""
OFFICES = frozenset(("舰长", "船长", "机长", "大副", "二副", "会长", "队长", "村长", "镇长", "县长", "市长", "站长", "组长",
                     "班长", "社长", "馆长", "墓主", "庄主", "寨主", "当家", "老大", "老板", "老板娘", "司令", "首领", "族长"))
"""An office or a rank said on its own (叫她舰长, 去见会长): how people are addressed, no name; after a
surname it makes one (沈舰长, 韦队长: the title rule's)."""
CRIES = frozenset(("苍天", "老天", "皇天", "上天", "天哪", "天啊", "老天爷", "天老爷", "我的天", "天爷"))
"""Heaven cried to (“苍天，苍天！”): a cry, said like someone called, no one."""
STOP = frozenset(ROLES) | frozenset(SECT_ROLES) | NAME_WORDS | OFFICES | CRIES
SURNAME_GIVEN = re.compile(r"姓([\u4e00-\u9fff])[，,]?(?:单名一个|名叫|名唤|名|叫做|叫)([\u4e00-\u9fff]{1,2})")
_INTRO = r"在下|我叫|我是|名叫|叫做|唤作|名唤|法号|道号|号称|人称|自称|叫我一声|叫他一声|表字|小字|乳名|别号|叫"
CLOSING_PARTICLES = "吧了呢啊啦呀嘛喽咯哟"
"""Sentence-final particles that may close what a naming verb introduced (叫你素心吧, 以后就叫他阿福啦): not part of the
name. N37 (stop 62): 啦, 呀, 嘛, 喽, 咯, 哟 beside 吧, 了, 呢, 啊 (叫你+扇骨+啦 read 扇骨啦, not 扇骨)."""
INTRO = re.compile(rf"(?:{_INTRO})(?:你|他|她|我|它)?([\u4e00-\u9fff]{{2,4}}?)(?=(?:就行|就好|就可以)?[{CLOSING_PARTICLES}]?[，。！？、：；“”「」\s]|$)")
CALLED_ONE = re.compile(r"(?:[一个位名])(?:叫|叫做|名叫|唤作)([\u4e00-\u9fff]{2,4}?)的(?:人|男人|女人|家伙|姑娘|小子|老头|老人|"
                        r"少年|少女|女孩|男孩|孩子|汉子|年轻人|小伙子|老太太|女子|男子|胖子|瘦子|大汉|书生|和尚|道士|"
                        r"用户|网友|主播|粉丝|玩家|客人|顾客|乘客|病人|学生|工人|猎人|商人|老乡)")
"""一个叫铁牙的男人, 一位名叫柳青的姑娘: a person counted, then named, then said to be a person."""
NICKNAME_WORDS = "外号|绰号|诨号|代号|艺名|花名|昵称|网名|笔名|署名|呼号|自号"
NAMED_FRAME = re.compile(rf"(?:(?:{NICKNAME_WORDS})(?:[，,](?:就|也)?(?:叫做|叫作|叫|唤作)|(?:也就|就|也)?(?:叫做|叫|是|唤作)?)|(?:名字|名称|名号|队名|团名|歌名|店名|船名|全名|本名|真名|原名|微信名|用户名|账号名|群名)(?:就|也|却|便)?"
                         rf"(?:叫做|叫|是|唤作|成了|改成|改叫|[：:])|(?<=的)名字[，,])([“「《]?)([\u4e00-\u9fff]{{2,6}}?)([”」》]?)(?=[，。！？、；…—\s”」]|的|$)")
"""A word for a name and what it is (外号黑子, 外号叫穿山甲的, 名字叫满天星, 名字：七曜, 歌名叫《纸飞机》): the name
said in its naming frame. A bare name word (名字) needs 叫, 是 or a colon after it (名字好听 names nothing), or
someone's before it and a comma after (写着她的名字，韦小雨). N37 (stop 62): a nickname's word, a comma and 叫 (有了外号，叫书包;
绰号，叫作X); after a comma without 叫 the clause goes on (外号，是亲近的意思)."""
NAME_GIVER = re.compile(r"的[^，。！？；：“”「」]{1,5}?(?:给|替|帮)?(?:起|取|改|定|想|选|挑)的")
"""After what a name word's 是 seems to name, the rest of who gave the name (名字是村里+的老塾师给起的, 名字是村里+的老先生起的):
a common word of the frame (村里) is the giver's place or household, no name; a coined one is still a place's name
(外号是望川+的球迷给他起的). N34; 名字是他爹起的 opens with a pronoun, read no further."""
CALLED_PLACE = re.compile(r"[一个家座间所处](?:叫|叫做|名叫|唤作)([“「]?)([\u4e00-\u9fff]{2,6}?)([”」]?)的"
                          r"(地方|村子|村庄|小村|镇子|小镇|山沟|山村|岛|小岛|海湾|公司|工作室|铺子|店|饭馆|酒馆|客栈|组合|乐队|战队|帮派|学校)")
"""一个叫槐树沟的地方, 一个叫“不知名工作室”的公司: a place or a firm counted, named, then said to be one."""
CALLED_IT = re.compile(r"(?:管(?:它|他|她|这|那)(?:个|东西|玩意儿?)?(?:们)?(?:也|都)?叫(?:做)?|[都就也]叫它)([“「]?)([\u4e00-\u9fff]{2,6}?)([”」]?)"
                       r"(?=[，。！？；、]|$)")
"""管它叫罗氏三点法, 他们管他叫老鬼, 都叫它青槐棚: what people call a thing, or someone, whole up to six characters (the
word frame 叫 reads four)."""
CALLED_THING = re.compile(r"一(?:艘|辆|列|架|把|柄|本|块|枚|只|件|台)(?:叫|叫做|名叫|唤作)([“「]?)([\u4e00-\u9fff]{2,6}?)([”」]?)的"
                          r"(?=[\u4e00-\u9fff])")
"""一艘叫红星号的货轮, 一把叫月牙的刀: a thing counted by its own measure word, named, then said to be one (a person or a
place is counted by 个/位/座, not by these)."""
WORK_FRAME = re.compile(r"(?:歌|曲|节目|综艺|选秀|剧|电影|专辑|游戏|小说|漫画|软件|动画)(?:就|也)?(?:叫做|叫|名叫|是)?(《)([\u4e00-\u9fff]{2,8})(》)"
                        r"|(《)([\u4e00-\u9fff]{2,8})(》)(?=节目|剧组|综艺|专辑|这首歌|这部)")
"""A work of the story's world named after what it is (衍生综艺《宿舍夜谈》, 主题曲叫《破晓》, 《逐光少年》节目组): a
title no play of older prose takes in this frame (唱一出《翠屏山》 names no new thing)."""
TITLED = re.compile(r"(?:(?:题目|标题|篇名|题名)(?:就|也)?为|叫做|叫|名叫|唤作|题为)《([\u4e00-\u9fff]{2,8})》")
"""A piece of the story's world given its title (题目叫《X》, 标题叫《X》): the title is the name, whole, even with
的 inside it (a line of verse or a phrase); 标题是《X》 identifies a headline rather than naming a work."""
PERIODICAL = re.compile(r"《([\u4e00-\u9fff]{2,8}(?:报|刊|杂志))》")
"""A newspaper or a magazine by its title (《醒世晚报》, 《船台快报》, 《青年文摘月刊》): a group of the story's world that
prints it, unlike a play's or a book's title (《翠屏山》)."""
ASKED_WHO = re.compile(r"(?<=[“「])([\u4e00-\u9fff]{2,4}?)是谁[？?]")
"""A quote that opens by asking who someone is (“海和尚是谁？”, “西窗散人是谁？”): the word asked about is someone's
name, a nickname of ordinary words too, when it is no word for someone (那人, 足下 said once) and no clause (阿彪又)."""
_COUNT = "一二两三四五六七八九十"
WRITTEN = re.compile(rf"([{_COUNT}])个[^，。：:“”「」\s]{{0,3}}字[：:，]?\s*([“「《]?)([\u4e00-\u9fff]{{2,9}})([”」》]?)(?=[，。！？；、\s”」]|$)"
                     rf"|([“「《])([\u4e00-\u9fff]{{2,9}})([”」》])([{_COUNT}])个[^，。：:“”「」\s]{{0,3}}字")
"""A name written on a thing and counted (写着三个字：海底簿, 刻着两个小字：秋水, 写着“醉仙居”三个字): the count must be
the name's length."""
INSCRIBED = frozenset(("写着", "刻着", "印着", "题着", "绣着", "漆着", "烙着", "铸着"))
"""What is written on a thing right before a counted inscription (刀背上刻着两个小字：断水): the thing's own name."""
PREDICATE_TAGS = frozenset("vadli")
"""jieba's tag initials of a verb, an adjective, an adverb, a set phrase or an idiom: a message, not a name."""
WRITTEN_OUT = re.compile(r"(?:写着|写的是|刻着|印着|题着|字|牌子|招牌|木牌|匾)[：:]\s*([“「《]?)([\u4e00-\u9fff]{2,10})([”」》]?)(?=[。！\n]|$)")
"""A name read out after a colon, the whole of its sentence (烫金的字：望海书局。, 门口的木牌：青禾农庄。): what a sign,
a plate or a heading says, counted or not."""
DEFINED = re.compile(r"(?:^|(?<=[。！？”」]))([\u4e00-\u9fff]{2,6})是[^，。！？；：“”「」]{1,20}的[\u4e00-\u9fff]{1,6}(?=[，。；！？])")
"""A sentence that opens with a word and says what it is (X是殖民者自己的组织。, X是温家独有的一种釉，): the word
defined, when it is said again and the dictionary does not know it."""
DEFINED_ONE = re.compile(r"(?:^|(?<=[。！？”」]))([\u4e00-\u9fff]{2,5}?)(?:原来|本来)?是[^，。！？；：“”「」]{0,20}的一"
                         r"[个条台款座片家只位名艘辆把间所处块本首张部支]")
"""A sentence that opens with a word and says it is one of a kind, counted (X是南市后头的一条窄胡同, X是东屿码头年纪最
大的一台岸桥, X原来是宝安的一个小村子): the word is that one thing's name, a dictionary word of three characters or more
said again too (a two-character one is the language's own noun: 店主是他的一个远房亲戚)."""
APP_FRAME = re.compile(r"(?:软件|应用|平台|网站|公众号|小程序|APP|App|app)([\u4e00-\u9fff]{2,4}?)(?=[上里中的，。！？、；]|$)")
"""An app or a site named after what it is (投票软件口袋星球上, 直播平台星芒的): a name no dictionary knows."""
PLACE_HEAD_WORDS = frozenset(("地方", "村子", "村庄", "小村", "镇子", "小镇", "山沟", "山村", "岛", "小岛", "海湾", "铺子", "店",
                              "饭馆", "酒馆", "客栈"))
"""The kinds a place-naming frame's head says are a place (一个叫望川的地方): any other head names an organisation. Was
bound as PLACE_HEADS, which the longer-word guard's characters below rebound (stop 60's read: a place read as 组织)."""
HEAD_WORDS = ("组织", "门派", "帮派", "公司", "地方", "东西", "道具", "武器", "宝贝", "法宝", "匕首", "刀", "剑", "枪", "技能", "名字",
              "名儿", "主播", "博主", "网红", "歌手", "演员", "模特", "选手", "队员", "新人", "用户", "网友")
NAMED_KINDS = ("船", "舟", "艇", "筏", "车", "马", "驴", "骡", "牛", "狗", "猫", "鹰", "鸽", "骆驼", "琴", "笛", "铃", "钟", "鼓",
               "笔", "刀", "剑", "枪", "锤")
"""N37 (stop 62): the kinds of things and beasts a book names one of (这条船叫菱角, 这马叫火车, 矮脚马叫黑豆, 管这辆车叫骆驼,
这铃叫喜鹊): a vessel, a cart, a beast of burden or a pet, a hawk or a pigeon, an instrument, a bell, a blade; after the
kind, 叫 and an ordinary word is the thing's name, not a call for the word (叫条子). Its cry is no name: see
:data:`CRY_WORDS`."""
CRY_WORDS = frozenset(_COUNT) | frozenset("头了着得声起个")
"""What opens a beast's cry or a call after 叫 (马叫了两声, 鸡叫头遍, 狗叫得凶, 叫起来): no name starts so."""
PASSIVE_RESULTS = frozenset("走翻伤病坏破死跑响掉倒碎断湿透醒住")
"""The results of a deed a passive 叫 (= 被) reports (马叫狼叼+走+了, 船叫浪打+翻, 驴叫雨淋+病: r62-1)."""
PASSIVE_AFTER = frozenset("了过着")
"""An aspect after what 叫 introduced: a deed done (那匹马叫狼叼走了), never a name."""


def _passive_done(lex: _Lexicon, line: str, end: int, word: str) -> bool:
    """Whether ``word`` after 叫, ending at column ``end`` of ``line``, is what was done to the thing before 叫 (the
    northern passive, r62-1): three characters or more ending in a result of :data:`PASSIVE_RESULTS` (狼叼+走), or in a
    verb's character with an aspect of :data:`PASSIVE_AFTER` after it (狗+咬了). A name said with 了 after it stays (它就叫
    千里眼了: 眼 no verb)."""
    return len(word) >= 3 and (word[-1] in PASSIVE_RESULTS
                               or (line[end:end + 1] in PASSIVE_AFTER and lex.tags.get(word[-1], "")[:1] == "v"))


NAMED_KIND = re.compile(rf"(?:{'|'.join(NAMED_KINDS)})[，,]?(?:也|就|都)?$")
HEADED = re.compile(rf"(?:{'|'.join(HEAD_WORDS)})[，,]?$")
"""A kind of thing (or a name) right before 叫 (一个组织，叫守夜人; 匕首叫破晓; 起了个名字，叫月牙): 叫 names one of that
kind, not a call for something."""
HEADED_REACH = max(map(len, HEAD_WORDS)) + 1
"""How far before 叫 :data:`HEADED` can stand (its longest word and a comma): the text before a line's every 叫 is
not read from the line's start again (a line of thousands of 叫X: A17, stop 57)."""
CALLED_KIND = re.compile(rf"(?:{'|'.join(HEAD_WORDS)})[，,]?(?:就|也)?叫(?:做)?([“「]?)([\u4e00-\u9fff]{{5,6}})([”」]?)(?=[，。！？；、]|$)")
"""A kind of thing and its name of five or six characters (一种道具，叫替身稻草人): :data:`HEADED`'s frame, longer than
the word frame 叫 reads."""
TERMED = re.compile(r"(?:行话|土话|术语|方言|黑话|俚语|叫法|说法|业内|圈内)[里上中]?(?:就|也|都)?$")
"""A trade's or a tongue's word for something right before 叫 (行话叫仰焊, 土话里就叫水耗子, 业内叫压舱石): what follows
is the term for a thing or a craft, not a name. A name introduced so (外号叫, 学名叫, 俗名叫) opens on no such word,
and one said of someone (土话里叫他铁秤砣) has the pronoun."""
PANEL = re.compile(r"【([^【】\n]{1,80})】")
PANEL_VALUE = re.compile(r"[：:]([\u4e00-\u9fff]{2,6})(?=[。，；]|$)")
"""A game system's notice (【副本名称：雾港。】, 【通关奖励：归途伞。】): each value after a colon that is a clause of its own
names what the system gives or opens."""
BEFORE_PERSON = re.compile(rf"(?:{_INTRO}|便是|就是|正是|乃是|的是|谋士|弟子|徒弟|助理|秘书|司机|死者|法医|警官|警员|医生|护士|律师|记者|"
                           rf"同事|嫌犯|嫌疑人|丫鬟|丫头|书童|家丁|小厮|侍女|侍卫|"
                           rf"管家|伙计|东家|{'|'.join(ROLES)})$")
BEFORE_KIN = re.compile(r"(?:父亲|母亲|哥哥|姐姐|弟弟|妹妹|儿子|女儿|妻子|丈夫|同学|朋友|郡主|公主|小姐|少爷|公子|唤|"
                        r"[大二三四五六七八九小](?:伯|叔|姑|舅|姨|哥|姐|嫂)|伯娘|婶子|表[哥姐弟妹]|堂[兄哥姐弟妹])[，、]?$")
PERSON_NOUN_ENDS = frozenset("长夫师匠员手人警史户官吏兵卒商令")
"""The last character of a dictionary noun for someone by trade or office (船长, 车夫, 厨师, 铁匠, 店员,
水手, 主持人): right before a surname-led word, it introduces that person (主持人林晓晓)."""
"""Kin before a surname-led name (她父亲沈国栋): only there, 儿子攻书 is no name."""
BEFORE_THING = re.compile(r"(?:便是|就是|正是|乃是|名叫|叫做|唤作|号称|(?:来到|前往|抵达|赶到|走进|回到|离开|进入|投奔|拜入)了?|"
                          r"到了|进了|出了|过了|位于|住在|来自|"
                          r"出自|听说过|说起|提起|见过|去过|到过|打听|学会|修炼|练成|使出|施展|打出|可是|找|寻|夺|抢|交出|拔出|"
                          r"[去回]了|[是在到往去向进入离回从来：:])$")
AFTER_PERSON = re.compile(r"^(?:[道说问答曰][：:，“。！？]|笑道|听了|听罢|忙[道说问]|心想|暗想|想道|笑了|叹道|叹了|点头|点了点头|摇头|摇了摇头|一愣|一怔|脸色|皱眉|沉声|低声|冷笑|"
                          r"轻声|咧嘴|拱手|抱拳|自报|没有回答|上前|站起|转身|回头|举杯|"
                          # a body that moves: the subject of a sentence is someone (林浩然转过身来, 赵铁柱从楼道里钻出来)
                          r"转过[身头脸]|抬起?头|低下?头|伸[手出]|挥手|摆手|咬[牙着]|盯着|瞪[着了]|"
                          r"[走跑冲钻跳扑跨迈爬挤][进出过上下到了向回]|从[^，。！？]{1,6}[走跑冲钻跳爬挤][进出过上下来]|"
                          r"推[门开]|一把[抓揪拉推夺按]|上个月|昨[天晚日夜]|再拜|拜[谢别见]|作揖|叩首|磕头|行礼|"
                          r"是(?:一)?[个位名][^，。！？]{0,3}(?:人|汉|子|婆|妇|娘|头|者|鬼|佬|老|孩|女|男|客|匠|夫)|"
                          # an age said of the subject: 窦大海四十多岁 (十七岁 alone, after a comma, is no subject's)
                          r"[一二三四五六七八九十]{1,3}[来多]?岁)")
APPOSITIVE = re.compile(r"^[，,][^，。！？；“”「」]{1,12}?(?:院长|校长|会长|社长|厂长|馆长|所长|局长|部长|主任|掌柜|东家|老板|师父|创始人|"
                        r"创办人|主人|总管)[，。；]")
"""A person's office said right after the name (韦德仁，红伞医院第一任院长，…): someone, introduced."""
AFTER_THING = re.compile(r"^(?:是|位于|坐落|地处|建在|在哪|里[^面头边]|的人|的弟子|的师[兄姐弟妹父尊]|的长老|的掌门|的宗主|主[^意要]|外[^面边头]|一带|附近|深处|脚下|门口)")
CLEFT = re.compile(r"是[^，。！？；：“”「」]{1,16}?的")
SENTENCE_ENDS = frozenset("。！？\n")
"""N34: a sentence that opens on a surname-led word and goes on 是…的 says when, how or what that one is (齐春生是腊月初三进的
傅家甸, 彭小舟是第二天早上才知道的, 白水生是在黄河开冻后…): the narration introducing someone by full name."""


CLEFT_MADE = re.compile(r"(?:蒸|煮|烙|炸|烤|腌|酿|做|编|织|缝|绣|纳|铺|砌|盖|垒|挖|种|栽|画|写|刻|雕|造|钉|扎|糊|剪|裁|磨|烧|"
                        r"买|打|修|补|焊)(?:[了下出好成]|出来|起来)?的$")
"""fn34: a 是…的 that ends on a verb of making or getting (江米糕是秀兰蒸的, 石板路是前年才铺的, 白铁壶是镇上买的) says who made
the thing or where it came from, the commonest cleft of a thing: no one introduced."""
THING_HEADS = frozenset("糕饼馍馒粽面酒茶衫袄褂裤裙鞋袜帽巾褥被桶壶盆碗盘罐缸瓮筐篮篓箱柜桌凳椅床锄镰犁耙锹灯伞路墙")
"""fn34: the last character of an everyday thing's word (江米+糕, 花布+衫, 马粪+筐): such a word opening a 是…的 is a thing."""


def _opens_cleft(text: str, at: int, name: str) -> bool:
    """Whether ``name`` at ``at`` of ``text``, three characters or more (a surname and a given name: 墨坯是活的 is a
    thing), opens a sentence that goes on 是…的 (:data:`CLEFT`) saying no maker of a thing (:data:`CLEFT_MADE`,
    :data:`THING_HEADS`)."""
    if len(name) < 3 or name[-1] in THING_HEADS or not (at == 0 or text[at - 1] in SENTENCE_ENDS):
        return False
    cleft = CLEFT.match(text, at + len(name))
    return cleft is not None and CLEFT_MADE.search(cleft.group()) is None
IDENTIFIED = re.compile(r"(?:正是|便是|乃是|就是|原来是)[^，。！？；“”]{0,8}的$")
ALONE = re.compile(r"^[。！？]?[”」]")
CJK = re.compile(r"[\u4e00-\u9fff]+")
RARE = 300
RARE_PAIR = 20
"""A dictionary word used less often than this may be the start of a name (陆景 of 陆景琛)."""
STRONG_GIVEN = 0.8
"""At or above this :meth:`_Lexicon.given` score every given-name character reads as a name's."""
UNNAMED = 0.1
"""Below this :meth:`_Lexicon.given` score a character is (almost) never part of a given name."""
RARE_STEM = 200
COMMON_PLACE = 50
"""A dictionary word with a place suffix used this often is a kind of place (独木桥), not one."""


@dataclass
class Noun:
    name: str
    kind: str
    line: int  # 1-based, in the body
    count: int


class _Lexicon:
    """jieba's dictionary: frequency and tag of a word, and token boundaries (loaded once).
    The tables are read from the plugin's data folder (``cache_dir``, default
    :func:`lw_storyrepo.nametables.default_dir`) when a fresh copy is there, else built by
    :meth:`build` and kept there: :mod:`lw_storyrepo.nametables`."""

    SOURCES = (__name__, "lw_storyrepo.changes", "lw_storyrepo.dialect", "lw_storyrepo.names",
               "lw_storyrepo.sources", "lw_storyrepo.wordsre")
    """The modules whose code (this one's rules, the others' constants) derives the tables."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        # the plugin's one deferred import, jieba (here and in :meth:`build`, its tagger): its tables and
        # dictionary take seconds to load, and only the new-name check needs them
        import jieba

        jieba.setLogLevel(logging.WARNING)
        self.jieba = jieba
        tables = name_tables(self.build, tables_key(self.inputs(), jieba.__version__), cache_dir)
        if not jieba.dt.initialized:  # the tables came from the file: jieba's own load is skipped
            with jieba.dt.lock:
                jieba.dt.FREQ, jieba.dt.total = tables.freq, tables.total
                jieba.dt.initialized = True
        self.tables = tables
        # the first two characters of each famous name: a place whose two characters start none starts no famous name
        self.famous_heads = frozenset(word[:2] for word in tables.famous)
        self.freq: dict[str, int] = jieba.dt.FREQ
        self.tags: dict[str, str] = tables.tags
        self._cuts: dict[str, dict[str, tuple[int, ...]]] = {}
        self._words: list[str] | None = None  # the dictionary's words, sorted: :meth:`longer_nouns`

    def inputs(self) -> list[Path]:
        """Every file the tables are derived from: jieba's dictionary, ngender's name table,
        and the source of this module and of the plugin modules it reads constants from."""
        own = [Path(str(sys.modules[name].__file__)) for name in self.SOURCES]
        dictionary = self.jieba.dt.dictionary or Path(self.jieba.__file__).parent / self.jieba.DEFAULT_DICT_NAME
        return [Path(dictionary), charfreq_path(), *own]

    def build(self) -> NameTables:
        """The tables built cold from jieba's dictionary and ngender's name table."""
        import jieba.posseg  # the same deferred import: its tagger parses the dictionary when imported

        self.jieba.initialize()
        freq: dict[str, int] = self.jieba.dt.FREQ
        tags: dict[str, str] = jieba.posseg.dt.word_tag_tab
        return NameTables(freq, self.jieba.dt.total, tags, _given_scores(freq, tags), _famous_people(tags))

    def famous(self) -> frozenset[str]:
        """The people the dictionary knows by name (:func:`_famous_people`)."""
        return self.tables.famous

    def given(self, ch: str) -> float:
        """How much ``ch`` reads as part of a given name (0–1): :func:`_given_scores`."""
        return self.tables.given.get(ch, 0.0)

    def boundaries(self, line: str, known: re.Pattern[str] | None = None,
                   cuts: dict[str, tuple[int, ...]] | None = None) -> set[int]:
        """Character offsets where a token of ``line`` starts (and its end). Names the book knows
        (``known``) are tokens of their own, without teaching them to jieba's shared dictionary.
        ``cuts``: the token ends of each run already segmented, shared by the lines of one text
        (a run said again is segmented once; :meth:`cuts_of` keeps one for each of the last texts)."""
        out = {0}
        pieces = [(0, line)]
        if known is not None:
            pieces, pos = [], 0
            for m in known.finditer(line):
                pieces.append((pos, line[pos:m.start()]))
                out.update((m.start(), m.end()))
                pos = m.end()
            pieces.append((pos, line[pos:]))
        for start, piece in (part for at, piece in pieces for part in _bounded_runs(at, piece)):
            for at, run in _segment_runs(start, piece, self.jieba.re_han_default):
                ends = cuts.get(run) if cuts is not None else None
                if ends is None:
                    ends = self._ends(run)
                    if cuts is not None:
                        cuts[run] = ends
                out.update(map(at.__add__, ends))
        return out

    def cuts_of(self, text: str) -> dict[str, tuple[int, ...]]:
        """The ``cuts`` of :meth:`boundaries` for the lines of ``text``, kept for the last
        :data:`TEXTS_KEPT` texts: a draft read again in one command (checked, then its new names
        listed for the acceptance card) is segmented once. A run's token ends depend on the run
        alone (the dictionary is never taught a word), so they hold whatever names split it."""
        kept = self._cuts
        cuts = kept.get(text)
        if cuts is None:
            cuts = {}
            # a new dict, not one changed in place: another thread may be reading the old one
            self._cuts = {**dict(list(kept.items())[1 - TEXTS_KEPT:]), text: cuts}
        return cuts

    def _ends(self, run: str) -> tuple[int, ...]:
        """The token ends of ``run`` in jieba's cut, and the middle of a two-character token that
        is a preposition glued to a name (从北|冥海)."""
        tokens = self.jieba.lcut(run, HMM=True)
        ends = list(accumulate(map(len, tokens)))
        # a token is never empty: its first character is there to look at before its length
        glued = [end - len(token) + 1 for token, end in zip(tokens, ends)
                 if token[0] in GLUED_PREPOSITIONS and len(token) in GLUED_SIZES and not self.freq.get(token)
                 and (len(token) == 2 or token[0] not in ALL_SURNAMES or self.freq.get(token[1:]))]
        return tuple(sorted(ends + glued)) if glued else tuple(ends)

    def longer_nouns(self, word: str) -> list[str]:
        """The dictionary's nouns (a tag starting ``n``) that are ``word`` and one character more, in their order
        (老板 → 老板娘; 师兄 → 师兄弟; 石头 → 石头缝): the words a name or title stands inside. A word no dictionary
        word starts with (jieba keeps every word's beginnings) has none, without a search."""
        if word not in self.freq:
            return []
        return [word + c for c in self._next_characters(word)
                if self.freq.get(word + c) and self.tags.get(word + c, "").startswith("n")]

    def words_after(self, head: str) -> list[str]:
        """The dictionary's two-character words that begin with the character ``head`` (路 → 路上, 路过, …)."""
        return [head + c for c in self._next_characters(head) if self.freq.get(head + c)]

    def _next_characters(self, prefix: str) -> Iterator[str]:
        """Each character that follows ``prefix`` in some dictionary word, in order: one search step for each
        character, not one for each word beginning with ``prefix + character``."""
        words = self._words
        if words is None:
            words = self._words = sorted(w for w, f in self.freq.items() if f)
        k = bisect_right(words, prefix)
        while k < len(words) and words[k].startswith(prefix):
            nxt = words[k][len(prefix)]
            yield nxt
            k = bisect_left(words, prefix + chr(ord(nxt) + 1), k)

    def common(self, word: str) -> bool:
        """A dictionary word that is not a proper noun (or is a very frequent one)."""
        f = self.freq.get(word) or 0
        if f <= 0:
            return False
        tag = self.tags.get(word, "")
        return not tag.startswith(("nr", "ns", "nt", "nz")) or f >= RARE

    def proper(self, word: str) -> bool:
        f = self.freq.get(word) or 0
        return 0 < f < RARE and self.tags.get(word, "").startswith(("nr", "ns", "nt", "nz"))

    def coined(self, stem: str) -> bool:
        """A stem no dictionary knows (玄冥, 赤霄): with a suffix, a name on its own."""
        return not self.freq.get(stem)

    def rare(self, stem: str) -> bool:
        """A stem seldom used on its own (a coined name: 寒江, 龟息; not 客栈, 百花)."""
        return (self.freq.get(stem) or 0) < RARE_STEM


TEXTS_KEPT = 4
"""How many texts' segmented runs the lexicon keeps (:meth:`_Lexicon.cuts_of`)."""
SEGMENT_RUN_MAX = 200
"""The longest run of characters jieba is given whole. Its unknown-word model (finalseg's
Viterbi) copies a path at every character of a run: a draft of one unbroken run of 15,000
characters (他他他…) took 6 s, the square of the run; prose breaks far sooner at punctuation."""
_SEGMENT_RUN = re.compile(rf"[\u4E00-\u9FD5a-zA-Z0-9+#&._%\-]{{{SEGMENT_RUN_MAX + 1},}}")  # jieba's re_han_default




def _segment_runs(start: int, piece: str, blocks: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """``piece`` (at offset ``start``) as jieba reads it: each run of ``blocks`` (jieba's own
    ``re_han_default``, the blocks it cuts one by one) and each
    stretch between two runs. jieba cuts each of these on its own (its ``cut`` splits a sentence
    there first), so the tokens of the parts are the tokens of the whole."""
    pos = 0
    for m in blocks.finditer(piece):
        if m.start() > pos:
            yield start + pos, piece[pos:m.start()]
        yield start + m.start(), m.group()
        pos = m.end()
    if pos < len(piece):
        yield start + pos, piece[pos:]


def _bounded_runs(start: int, piece: str) -> Iterable[tuple[int, str]]:
    """``piece`` (at offset ``start``) as consecutive parts in which no run jieba reads whole is
    longer than :data:`SEGMENT_RUN_MAX`; the parts join back to ``piece``."""
    pos = 0
    for m in _SEGMENT_RUN.finditer(piece):
        for cut in range(m.start(), m.end(), SEGMENT_RUN_MAX):
            if cut > pos:
                yield start + pos, piece[pos:cut]
            pos = cut
    yield start + pos, piece[pos:]


ADDRESS_ENDS = frozenset("老翁公婆叔伯爷姑嫂娘")
"""Characters that end the forms people are called by (玄老, 麦翁): read by jieba's list alone."""
NAME_CHARS_MAX = 2_000_000
"""Bound on the bytes read from the name-character table (it has about 150 kB)."""


def _name_char_counts() -> Counter[str]:
    """How often each character stands in a given name (men's and women's counts added), from
    the ``charfreq.csv`` table the ngender package ships (MIT; a pinned dependency). The file is
    read as data, never imported: the package's own code is not run."""
    path = charfreq_path()
    with path.open(encoding="utf-8") as handle:
        text = handle.read(NAME_CHARS_MAX)
    counts: Counter[str] = Counter()
    for row in text.splitlines()[1:]:
        parts = row.split(",")
        if len(parts) == 3 and len(parts[0]) == 1 and parts[1].isdigit() and parts[2].isdigit():
            counts[parts[0]] = int(parts[1]) + int(parts[2])
    return counts


def _famous_people(tags: dict[str, str]) -> frozenset[str]:
    """The people the dictionary knows by name (tag nr, two or three characters) that could
    be someone in a story: no address form (老X, 小X), role, title or particle in them."""
    return frozenset(
        w for w, tag in tags.items()
        if tag.startswith("nr") and 2 <= len(w) <= 3 and w[0] not in "老小大阿二" and _clean(w)
        and not w.endswith(TITLES + ROLE_TITLES) and not set(w) & FUNCTION)


def _given_scores(freq: dict[str, int], tags: dict[str, str]) -> dict[str, float]:
    """How much each character reads as part of a given name (0–1), the mean of two readings:

    - how often the ~36,000 surname-led people of jieba's dictionary (tag nr) carry it
      after their surname, against how often the dictionary's other words do;
    - how often it stands in the ~32 million given-name characters counted by the ngender
      package (its ``charfreq.csv``), against how often jieba's words use it.

    The second is the larger sample of real names: it reads 为, 草, 菜, 骨 as seldom a
    name's (修为, 艾草, 剁骨刀 are words) and 翥, 湜 as names' (谢翥, 庄湜). A character that
    ends an address form (玄老, 麦翁, 陈叔) keeps the first reading only: ngender counts
    given names, never the forms people are called by."""
    names: Counter[str] = Counter()
    words: Counter[str] = Counter()
    for word, tag in tags.items():
        if tag == "nr" and 2 <= len(word) <= 3 and word[0] in SURNAMES:
            names.update(word[1:])
        elif tag == "n" or not tag.startswith("n"):
            words.update(set(word))
    jieba_given = {c: n / (n + 0.05 * words[c] + 1) for c, n in names.items()}
    counted = _name_char_counts()
    in_names = sum(counted.values()) or 1
    text: Counter[str] = Counter()
    for word, f in freq.items():
        if f and len(word) <= 4:
            for c in word:
                text[c] += f
    in_text = sum(text.values()) or 1
    ngender_given = {c: (n / in_names) / (n / in_names + text[c] / in_text + 1e-7) for c, n in counted.items()}
    return {c: jieba_given.get(c, 0.0) if c in ADDRESS_ENDS
            else (jieba_given.get(c, 0.0) + ngender_given.get(c, 0.0)) / 2
            for c in set(jieba_given) | set(ngender_given)}


_LEXICON: _Lexicon | None = None


PERSON_HEADS = frozenset("娘婆嫂妻夫婿弟妹傅")
"""The characters that, ending a dictionary noun a person's name or title begins, make it another person (老板娘, 管家婆,
大姐夫, 老师傅): :func:`not_inside_longer` steps aside for these wherever they stand."""
PLACE_HEADS = frozenset("缝里门府庙街路巷村庄桥楼山河湾洞窝")
"""The characters that make such a noun a place or a thing named by the word (石头缝, 王爷府, 中山路): the guard steps
aside for these only where the head starts no dictionary word with the character after it that the dictionary says
more often than the longer noun — there the head opens a word of its own after the name (石头+路过, 建国+门口, 林子+里面;
石头缝+里 stays inside: 缝里 is rarer than 石头缝), as jieba's cut of the clause reads it (R58, K7-a)."""
LONGER_WORD_HEADS = PERSON_HEADS | PLACE_HEADS
"""Every head :func:`not_inside_longer` may step aside for. Any other character after a name is read as what follows the
person — a verb or a particle (阿福道：, 老板说, 老板的), an address that leaves the same person (冯大哥, 掌柜的) —
even where the dictionary knows the two as one word (阿福道 is a road there)."""
KIN_PAIRS = frozenset(("兄弟", "姐妹", "兄妹", "姐弟", "弟妹"))
KIN_RANKS = frozenset("师表堂")
"""A kin title of a rank (:data:`KIN_RANKS`: 师兄, 表姐) and the other of its pair (:data:`KIN_PAIRS`) make a plural that
holds the title's own person (师兄弟, 表姐妹 name the 师兄, the 表姐 too): no longer word to step aside for (R58, K7-b).
小姐妹 (no rank) is another crowd than the 小姐."""


LONGER_GUARD_MAX = 64
"""How many names, each with a head that makes a longer noun of it, :func:`not_inside_longer` guards (the first by head
and name; the books here have at most seven): a 名册 of thousands of dictionary words as people (龙骨 of 龙骨山, 石头 of
石头缝) made a guard of thousands of lookbehinds, compiled into every pattern of names and tried wherever a name met its
head — a draft at the cap beside 4,000 of them took minutes (A19, stop 59). A name past it is found inside the longer
word, as before the guard."""


def not_inside_longer(people: Iterable[str], scope: frozenset[str] | None = None) -> str:
    """The guard (a negative lookahead, or nothing) to put after a pattern of names so that a name of ``people`` (two
    characters or more) is not found where the dictionary reads it and the next character as one longer noun
    (:meth:`_Lexicon.longer_nouns`) ending in a head of another person or a place (:data:`LONGER_WORD_HEADS`): 老板 is
    not in 老板娘, 石头 not in 石头缝. A name followed by any other character (老板说, 老板的, 冯大哥, 阿福道：), by a
    place's head that opens a word of its own (石头路过, :data:`PLACE_HEADS`) or by the pair of its kin title (师兄弟,
    :data:`KIN_PAIRS`) is found.
    ``scope``: the characters of the text read, the only ones a longer word there can end in (None: any). The one
    guard of every pattern of people's names the checks read drafts with (:func:`lw_storyrepo.checks.name_pattern`,
    continuity's forms of people)."""
    names = frozenset(n for n in people if len(n) >= 2)
    if not names:
        return ""
    after: dict[str, list[tuple[str, str]]] = {}
    guarded = 0  # at most LONGER_GUARD_MAX names and heads: each a lookbehind tried wherever a name meets its head
    for tail, followed in sorted(_longer_after(names).items()):
        if scope is not None and tail not in scope:
            continue
        for pair in followed[:LONGER_GUARD_MAX - guarded]:
            after.setdefault(tail, []).append(pair)
            guarded += 1
    if not after:
        return ""

    def inside(name: str, tail: str, opens: str) -> str:
        # the name and its head, unless the head opens a word with the next character (石头路|过: 路过)
        chars = "".join(c for c in opens if scope is None or c in scope)
        return f"(?<={re.escape(name + tail)})" + (f"(?![{re.escape(chars)}])" if chars else "")

    # the character after the name first (one comparison where no longer word goes on), then which name it follows
    return "(?!" + "|".join(re.escape(tail) + "(?:" + "|".join(inside(n, tail, opens) for n, opens in after[tail]) + ")"
                            for tail in sorted(after)) + ")"


@functools.lru_cache(maxsize=16)
def _longer_after(names: frozenset[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """The characters that make a longer noun of some of ``names`` (:meth:`_Lexicon.longer_nouns`) and another person or
    a place of it (:data:`LONGER_WORD_HEADS`), each with the names it does so for and, for a place's head, the characters
    after it with which the head makes a word the dictionary says more often than the longer noun
    (:data:`PLACE_HEADS`: 石头路 → 过, as in 路过): :func:`not_inside_longer`'s, built once for the same names (a draft's
    readers ask for the same people's forms again and again). A kin title's pair is no longer word (:data:`KIN_PAIRS`)."""
    lex = lexicon()
    after: dict[str, list[tuple[str, str]]] = {}
    heads: dict[str, list[str]] = {}  # each place head's words read once, not once per name before it
    for name in sorted(names):
        for longer in lex.longer_nouns(name):
            tail = longer[-1]
            if tail not in LONGER_WORD_HEADS or (name[-1] + tail in KIN_PAIRS and name[-2:-1] in KIN_RANKS):
                continue
            opens = ""
            if tail in PLACE_HEADS:
                held = lex.freq.get(longer) or 0
                if tail not in heads:
                    heads[tail] = lex.words_after(tail)
                opens = "".join(sorted({w[1] for w in heads[tail] if (lex.freq.get(w) or 0) > held}))
            after.setdefault(tail, []).append((name, opens))
    return {tail: tuple(followed) for tail, followed in after.items()}


def lexicon() -> _Lexicon:
    """The dictionary, loaded on first use (once per process: a second or two from the tables
    kept in the plugin's data folder, several the first time, :mod:`lw_storyrepo.nametables`)."""
    global _LEXICON
    if _LEXICON is None:
        _LEXICON = _Lexicon()
    return _LEXICON


@dataclass
class _Candidate:
    name: str
    kind: str
    shape: int  # 0 none, 1 a name's shape, 2 a coined name with its suffix
    context: bool = False
    needs_context: bool = False  # an unknown word (药香, 寒潭 are things): only context makes it a name
    first: tuple[int, int] = (0, 0)  # (line index, column)
    broad: bool = False  # proposed only by the broad generator (:func:`_broad_candidates`)
    named: bool = False  # said in a naming frame (叫白守仁, 外号黑子): no description of a thing (:func:`_described`)


_A_NOT_A = re.compile(r"(.)不\1.?")  # 大不大: a question
COUNTRY_INSTITUTIONS = ("供销社", "供销合作社", "合作社", "信用社", "农业社", "卫生院", "广播站", "农机站", "兽医站", "粮站",
                        "粮管所", "邮电所", "食品站")
"""N34: the bodies a rural township or village keeps, named after it (石羊湾+供销社, 东礁+合作社, 椰岭+广播站): read after a
place the book knows or names as :data:`INSTITUTIONS` are, so the known place inside no longer hides them."""
INSTITUTIONS = ("文物考古研究所", "考古研究所", "研究所", "派出所", "公安局", "博物馆", "图书馆", "档案馆", "文化馆", "人民医院", "医院",
                "中学", "小学", "法院", "检察院", "电视台", "港务局", "海关", "体育频道", "新闻频道",
                "日报", "晚报", "战报", "报社", "大队", "中队", "钻井大队", "井队", "钻井队", "工程队", "运输队", "林场", "农场", "牧场",
                "渔场", "储木场", "水文站", "气象站", "林业站", "人民公社", "公社", "指挥部", "文化局", "林业局", "卫生局", "教育局",
                "水利局", "航运公司", "运输公司", "建筑公司") + COUNTRY_INSTITUTIONS
INSTITUTION = re.compile("|".join(sorted(INSTITUTIONS, key=len, reverse=True)))
PLACE_MAX = 8
"""A public institution named by the place it serves (澜州博物馆, 青石镇派出所, 云州市人民医院): a new organisation,
also when the place is known."""


def _institution_candidates(lines: list[str], rows: Iterable[int], places: set[str], known: set[str]) -> Iterator[tuple[str, int, int]]:
    """``(name, line index, column)`` of a place of ``places`` said right before an institution's word, with
    市, 县, 区 or 镇 between or not: a place the book knows first, then the shortest candidate (沧河+市文化局, never
    one that glued the words before it, 团受沧河市). Each institution's word is looked at once, with the few place
    lengths that can end before it: linear in the text."""
    for i in rows:
        line = lines[i]
        for m in INSTITUTION.finditer(line):
            ends = (m.start(), m.start() - 1) if line[m.start() - 1:m.start()] in ("市", "县", "区", "镇") else (m.start(),)
            spans = [(at, end) for end in ends for at in range(max(0, end - PLACE_MAX), end - 1)]
            found = next(((at, line[at:m.end()]) for at, end in spans if line[at:end] in known), None) \
                or next(((at, line[at:m.end()]) for at, end in sorted(spans, key=lambda s: s[1] - s[0]) if line[at:end] in places), None)
            if found:
                yield found[1], i, found[0]


QUOTE_PAIRS = frozenset(("", "“”", "「」", "《》"))


def _kind_by_suffix(word: str, default: str) -> str:
    """The kind a candidate's suffix says (青禾农庄: a place, 望海书局: an organisation), ``default`` when none
    does; the suffix alone is no name. The longest suffix the word ends with, looked up: the first of
    :data:`CANDIDATE_SUFFIXES` (longest first) it ends with."""
    return next((_KIND_OF_SUFFIX[word[at:]] for at in range(1, len(word)) if word[at:] in _KIND_OF_SUFFIX), default)


def _says_something(lex: _Lexicon, words: str) -> bool:
    """Whether ``words``, as the segmenter cuts them, hold a predicate: a verb before the last word or
    an idiom anywhere — a headline (X案再起风波, 血案再起波澜), not a name (a name's head may be a verb's
    word: 住院须知)."""
    tokens = list(lex.jieba.cut(words, HMM=False))
    return any(lex.tags.get(t) == "v" for t in tokens[:-1]) or any(lex.tags.get(t) == "i" for t in tokens)


def _particle_in(lex: _Lexicon, words: str) -> bool:
    """Whether ``words``, as the segmenter cuts them, hold a particle or a pronoun standing as a word of its own
    (:data:`MIDDLE_BAD`: 我的家): the 地 of 山地 is no particle (青稞山地救援队)."""
    return any(len(t) == 1 and t in MIDDLE_BAD for t in lex.jieba.cut(words, HMM=False))


def _ends_in_predicate(lex: _Lexicon, words: str) -> bool:
    """Whether ``words``, as the segmenter cuts them, end in a verb, an adjective or an adverb (明天+来, 快走): a
    message written out, not a name."""
    last = list(lex.jieba.cut(words, HMM=False))[-1]
    return lex.tags.get(last, "")[:1] in PREDICATE_TAGS


def _institution_named(lex: _Lexicon, words: str) -> bool:
    """Whether ``words`` of four characters or more end in a dictionary noun for a kind of institution (造船厂, 骑行+队):
    a sign's name, whatever verb its stem holds (建新+造船厂), not a headline's clause."""
    last = list(lex.jieba.cut(words, HMM=False))[-1]
    return len(words) >= 4 and last[-1] in INSTITUTION_ENDS and lex.tags.get(last, "")[:1] == "n"


NAMING_ACTS = ("起", "取", "给起", "给取", "建议", "提议", "提", "定", "选", "挑", "改", "拟", "想", "说", "出", "题", "写", "译",
               "翻译", "拍板", "决定", "主张", "要求")
"""Verbs of giving a name, of speech and of suggestion: 名字是梁晓蔓建议的, 名字是阿爹起的 — the frame's 是 … 的 says who
named it or how, and what stands there is the namer and the act, not the name."""
COUNT_LEADS = frozenset("个位名")
"""The general measures after a numeral (一个, 两位, 三名): a name does not open on a count of people or things
(名字，一个跟蛤蜊、跳鱼都不沾边的名字 goes on to describe the name)."""
GREETINGS = ("谢谢", "多谢", "感谢", "你好", "您好", "再见", "恭喜", "欢迎", "辛苦", "早安", "晚安")
"""Greetings and thanks that open a line of speech (“谢谢县医院的门神”): what follows them is whom they greet."""


def _clause_opening(name: str) -> bool:
    """Whether ``name`` opens on a count of people or things (一个, 两位: :data:`COUNT_LEADS`) or on a greeting
    (:data:`GREETINGS`) with more words after it: a clause's start glued to a name, not a name (一个跟蛤蜊,
    谢谢县医院). A name opening on a numeral and another character (一丈青, 三叶) is left alone."""
    counted = len(name) >= 3 and name[0] in NUMERALS and name[1] in COUNT_LEADS
    return counted or (len(name) > 2 and name.startswith(GREETINGS))


def _framed_clause(lex: _Lexicon, line: str, m: re.Match[str], said: bool) -> bool:
    """Whether the words a naming frame caught are a clause about the name, not the name: 名字是梁晓蔓建议的,
    名字是龚经理给起的 (是, then a namer and one of :data:`NAMING_ACTS`, then 的: who gave the name); 这个外号倒也贴切
    (a name word with no naming verb, then one of :data:`CLAUSE_ADVERBS` as a word of its own: a comment on the name);
    名字，一个跟蛤蜊 (:func:`_clause_opening`). A name said in quotes is the name (名字是“阿爹起”的)."""
    word = m.group(2)
    if m.group(1) or _clause_opening(word):
        return not m.group(1)
    verb = line[m.start():m.start(2)]
    if verb.endswith("是") and line[m.end():m.end() + 1] == "的" \
            and any(word.endswith(act) and len(word) > len(act) for act in NAMING_ACTS):
        return True
    return not said and any(t in CLAUSE_ADVERBS for t in lex.jieba.cut(word, HMM=False))


def _framed_candidates(lex: _Lexicon, line: str) -> Iterator[tuple[str, str, int]]:
    """``(name, kind, column)`` of each name said in a naming frame (:data:`NAMED_FRAME`, :data:`CALLED_PLACE`, :data:`CALLED_THING`,
    a system notice's value :data:`PANEL`):
    a nickname made of ordinary words (外号黑子) is a name there; a question (外号叫什么), a predicate (昵称是随便起的)
    or a determiner (名字叫这个) is none. Quote marks around it must pair."""
    written = []
    for m in WRITTEN.finditer(line):
        count, opened, word, closed = m.group(1, 2, 3, 4) if m.group(1) else (m.group(8), m.group(5), m.group(6), m.group(7))
        if len(word) == "一二三四五六七八九十".find(count.replace("两", "二")) + 1 and len(word) <= 6:
            inscribed = bool(m.group(1)) and line[max(0, m.start() - 2):m.start()] in INSCRIBED
            written.append((opened, word, closed, m.start(), inscribed))
    written += [(m.group(1), m.group(2), m.group(3), m.start(), False) for m in WRITTEN_OUT.finditer(line)
                if not set(m.group(2)) & NUMERALS and not _particle_in(lex, m.group(2)) and not _ends_in_predicate(lex, m.group(2))
                and (not _says_something(lex, m.group(2)) or _institution_named(lex, m.group(2)))]
    for opened, word, closed, at, inscribed in written:
        # a thing's own name carved or painted on it may be a word of the dictionary (刀背上刻着两个小字：断水); a
        # frequent word or a predicate is a message (写着两个字：保重, 平安)
        known_word = bool(lex.freq.get(word)) and not (inscribed and (lex.freq.get(word) or 0) < RARE
                                                        and lex.tags.get(word, "")[:1] not in PREDICATE_TAGS)
        doubled = any(a == b for a, b in zip(word, word[1:])) and not (inscribed and len(word) == 2 and word[0] not in INTERJECTIONS)
        if opened + closed in QUOTE_PAIRS and not known_word and not doubled \
                and word[0] not in STEM_LEAD_BAD and word not in STOP:
            # a word of the dictionary (“电报”两个字), a verse line or 歪歪扭扭: said, not named
            kind = _kind_by_suffix(word, "组织" if _institution_named(lex, word) else "物品")
            yield word, kind, line.find(word, at)
    for panel in PANEL.finditer(line):
        for m in PANEL_VALUE.finditer(panel.group(1)):
            word = m.group(1)
            if not lex.freq.get(word) and word[0] not in NUMERALS and word[0] != "零" and not set(word) & MIDDLE_BAD \
                    and word not in STOP and lex.tags.get(word[-1], "")[:1] not in "vad":
                # 玩家编号：零七, 身份：新手, 效果：夜里自亮: a number, a word of the dictionary, a predicate
                kind = _kind_by_suffix(word, "物品")
                yield word, kind, panel.start(1) + m.start(1)
    for m in APP_FRAME.finditer(line):
        word = m.group(1)
        if not lex.freq.get(word) and word[0] not in STEM_LEAD_BAD \
                and not set(word) & MIDDLE_BAD:
            yield word, "物品", m.start(1)
    for m in WORK_FRAME.finditer(line):
        at = 1 if m.group(1) else 4
        word = m.group(at + 1)
        if lex.tags.get(word, "")[:1] != "r" and not (set(word) & MIDDLE_BAD):
            yield word, "物品", m.start(at + 1)
    for m in TITLED.finditer(line):
        if lex.tags.get(m.group(1), "")[:1] != "r":
            yield m.group(1), "物品", m.start(1)
    for m in PERIODICAL.finditer(line):
        if not lex.freq.get(m.group(1)) and not set(m.group(1)) & MIDDLE_BAD:  # 《人民日报》: the dictionary's, known
            yield m.group(1), "组织", m.start(1)
    framed = [(m, "") for m in NAMED_FRAME.finditer(line)] + [(m, "place") for m in CALLED_PLACE.finditer(line)] \
        + [(m, "thing") for m in CALLED_THING.finditer(line)] + [(m, "it") for m in CALLED_IT.finditer(line)] \
        + [(m, "kind") for m in CALLED_KIND.finditer(line)]
    for m, frame in framed:
        opened, word, closed = m.group(1), m.group(2), m.group(3)
        if opened + closed not in QUOTE_PAIRS:
            continue
        # a name word and a naming verb (名字叫回溯怀表): a verb's character may start the name; 外号有来历 names nothing
        said = frame in ("", "kind") and bool(set(line[m.start():m.start(2)]) & set("叫是唤：:"))
        if line[m.start() - 1:m.start()] in ("不", "没") or (set(word[:-1]) & MIDDLE_BAD and not opened) or (word[0] in (LEAD_BAD if said else STEM_LEAD_BAD) and not opened) \
                or word[-1] in PARTICLES or lex.tags.get(word, "")[:1] == "r" or (not opened and _adverb_led(lex, word)) \
                or _A_NOT_A.fullmatch(word) or word in STOP or (frame == "" and _framed_clause(lex, line, m, said)):
            continue
        if frame == "" and lex.common(word) and NAME_GIVER.match(line, m.end(2)):
            continue  # 名字是+村里+的老先生起的: who gave the name, not the name (N34; 望川+的球迷给他起的 stays a place)
        if frame == "kind":
            kind = _kind_by_suffix(word, "人物" if HEADED.search(m.group()[:3]) and _someone_word(lex, m.group()[:2]) else "物品")
        elif frame == "it":
            if set(word) & KIN_CHARS or _someone_word(lex, word):
                continue  # 管他叫二叔, 管他叫师傅: what he is to them, no name
            kind = _kind_by_suffix(word, "人物" if set(m.group()[:3]) & set("他她") else "物品")
        elif frame == "thing":
            kind = "物品"
        elif frame == "place":
            kind = "地点" if m.group(4) in PLACE_HEAD_WORDS else "组织"
        else:
            kind = _kind_by_suffix(word, "物品" if opened == "《" else "人物")
        yield word, kind, m.start(2)
_OLD_LETTER = re.compile(r"老([A-Z])(?![A-Za-z])")  # 老K
_OLD_SMALL = re.compile(r"[老小大]([\u4e00-\u9fff])")  # 老杜, 小陈
_PET = re.compile(r"[小阿]([\u4e00-\u9fff])")
_AH = re.compile(r"阿([\u4e00-\u9fffA-Z])")  # 阿毛, 阿Q


def _clean(word: str, end_vouched: bool = False, introduced: bool = False) -> bool:
    """A plausible name: Chinese characters only, no particle inside, no determiner first,
    no role word (师兄, 姑娘 …) in it."""
    return (len(word) >= 2 and bool(CJK.fullmatch(word)) and not ((MIDDLE_BAD - set("得地" * introduced)) & set(word[1:-1]))
            and not _A_NOT_A.fullmatch(word)  # 大不大: a question
            and (end_vouched or word[-1] not in FUNCTION) and word[0] not in DETERMINERS and not _holds_role(word))


def _suffixes_in(line: str) -> Iterator[tuple[int, int, str, str, str]]:
    """``(start, end, suffix, kind, tail)`` for every name-making suffix said in ``line``; ``tail``
    is the character after it."""
    for first in _SUFFIX_FIRST.finditer(line):  # the characters no suffix starts with are passed over by C
        start = first.start()
        for suffix, kind in _SUFFIXES_BY_FIRST[first.group()]:
            if suffix == "号" and line[start - 1:start] in NUMERALS:
                continue  # 三号, 女二号: a number, not a ship's name (鲸落号)
            if line.startswith(suffix, start):
                end = start + len(suffix)
                yield start, end, suffix, kind, line[end:end + 1]


def _suffix_candidates(lex: _Lexicon, line: str, bounds: set[int],
                       suffixes: list[tuple[int, int, str, str, str]]) -> Iterable[tuple[str, str, int, int]]:
    """``(name, kind, shape, start)`` for a stem before a name-making suffix: two characters
    (寒江+渡, 玄冥+教), three or four when the stem is no dictionary word (九转炼体+诀, 天玄+大陆), one
    when the place is no dictionary word (云+城: shape 0, repetition and context must vouch).
    ``suffixes``: :func:`_suffixes_in` of ``line``."""
    for start, end, suffix, kind, tail in suffixes:
        if suffix in LANDFORM_HEADS:
            longer = next((word for word, of in _SUFFIXES_BY_FIRST.get(tail, ()) if of == "地点" and line.startswith(word, end)), "")
            if longer:
                # 石门岗+遗址: the landform opens a longer place's name (N30), read with it whole (黄泥+嘴码头: N31)
                if len(longer) >= 2 and end + len(longer) in bounds:
                    yield from _stems(lex, line, bounds, start, end + len(longer), "地点")
                continue
        if suffix in LANDFORM_HEADS and line[start - 2:start - 1] == line[start - 1:start]:
            continue  # 努努+嘴, 撇撇+嘴: a verb said twice and its object, no place (N31)
        if line[start - 1:start] in THING_HEAD_STEMS.get(suffix, ()):
            continue  # 松木+梁: a beam (fn35)
        if len(suffix) == 1 and line[start - 1:start] == suffix:
            continue  # 黑洞+洞, 亮堂+堂: an adjective's reduplicated end (ABB), no name ends in its last character twice (N31)
        if suffix in GIVEN_NAME_HEADS and line[start - 2:start - 1] in SURNAMES:
            continue  # 田白+岩: a surname, a given character and 岩 are someone (N31)
        localized = tail in LOCALIZERS  # 咸亨酒店里, 静修庵里: the segmenter may glue the suffix to the place word
        if (end in bounds or localized or len(suffix) >= 3) and not (tail in SUFFIX_TAIL_BAD and lex.freq.get(suffix + tail)) \
                and not _suffix_as_word(line, start, end):
            yield from _stems(lex, line, bounds, start, end, kind)


def _glued(lex: _Lexicon, line: str, bounds: set[int], at: int) -> bool:
    """Whether the token starting at ``at`` is two characters no dictionary knows: the segmenter
    gluing the end of a name to the next word's first character (老+郑端)."""
    nxt = next((b for b in range(at + 1, min(len(line), at + 3) + 1) if b in bounds), None)
    return nxt == at + 2 and not lex.freq.get(line[at:nxt]) and bool(CJK.fullmatch(line[at:nxt]))


VERBISH = frozenset("vpdcru")
"""jieba's tags of a one-character token that never starts a name: verb, preposition, adverb,
conjunction, pronoun, particle."""
LONG_STEM_BAD = FUNCTION | frozenset("的了着过地得是在把被这那么吗呢吧啊呀你我他她它没伊人们叫为找离连来去让给向对称作当于比跟同及与或并")
LOCALIZERS = frozenset("边外里上下内中前后头畔口底")
STEM_LEAD_BAD = LEAD_BAD | frozenset("来去到回进出离往向至入从叫为找连让给称作当于跟同及或并以起住醒自有无没尽问喊骂请可们")
KIN_CHARS = frozenset(KINSHIP) | frozenset("父母兄")
"""A dictionary word with one of these (舅父, 母亲) is a relative: no place's stem (舅父+渡孟买)."""
"""Characters that start no coined stem: a verb of motion or a preposition glued before a place
(来云城, 离德胜门)."""
GLUED_PREPOSITIONS = frozenset("从在往向到自于朝对把被给跟和与")
GLUED_SIZES = (2, 3)
"""A glued preposition is split off a token of these lengths; off a three-character one whose first character is also a
surname (向, 于) only when the rest is a dictionary word (向+县城): 向大勇 is a full name (fn34)."""
SUFFIX_TAIL_BAD = frozenset("子儿头们上里")
"""A suffix that goes on into a word with one of these is none: 城里, 山上, 院子 (the token test
sees 令人, 图案); a name before them is one (咸亨酒店里)."""


LANDFORMS = frozenset("山峰岭崖谷岛洲泽湖江河川溪泉潭海")


def _side_of(lex: _Lexicon, stem: str, suffix: str) -> bool:
    """Whether ``stem`` and ``suffix`` are a direction before a common word for a built thing (北+看台, 东+城门):
    one side of a thing of that kind, no name. Before a landform the direction names it (西+高峰)."""
    return len(stem) == 2 and stem[0] in "东南西北" and suffix[-1] not in LANDFORMS and lex.common(stem[1:] + suffix)


def _stems(lex: _Lexicon, line: str, bounds: set[int], start: int, end: int,
           kind: str) -> Iterable[tuple[str, str, int, int]]:
    name2 = ""
    for size in (2, 3, 4, 1):
        stem_at = start - size
        if stem_at < 0 or stem_at not in bounds:
            continue
        stem, name = line[stem_at:start], line[stem_at:end]
        if stem[0] in NUMERALS and stem[-1] in NUMBERED_STEM_END_BAD:
            continue  # 七号+病房, 三楼+大厅: a number says which room, no name
        if stem[-1] == "色" and lex.freq.get(stem):
            continue  # 灰色+大厅: a colour describes the place
        if stem[0] in THING_MEASURES and line[stem_at - 1:stem_at] in COUNTING:
            continue  # 一碗+片儿川, 那碗+片儿川: a measure word counting the thing, no part of its name
        if kind == "物品" and line[stem_at - 1:stem_at] in THING_MEASURES and line[stem_at - 2:stem_at - 1] in COUNTING \
                and lex.common(stem):
            continue  # 一碗+鱼丸汤, 一壶+菊花酒: a common word and the kind, counted: a kind of thing, not one named
        if line[start:end] in MODAL_SUFFIXES and (lex.tags.get(line[end:end + 1], "")[:1] == "v" or line[end:end + 1] in SUFFIX_VERBS):
            continue  # 雀侯+会+埋, 伞尖+会+指向: a modal before a verb (SUFFIX_VERBS: the dictionary calls 指 a noun), no
            # society (榨季+会, a time that will be whatever follows, is :func:`_hour`'s: N28)
        if _suffix_acts(lex, line, start, end):
            continue  # 门柱+帮+了, 驼夫+指+了指: the suffix is the sentence's verb, done
        if not CJK.fullmatch(name) or lex.common(name) or ((lex.freq.get(name) or 0) >= COMMON_PLACE and not lex.proper(name)) \
                or (line[start:end] in UNKNOWN_ONLY_SUFFIXES and lex.freq.get(name)):
            continue
        verb_led = stem_at + 1 in bounds and lex.tags.get(stem[0], "")[:1] in VERBISH
        if verb_led and (size == 1 or stem[0] in STEM_LEAD_BAD or lex.common(stem[0] + line[start:end])
                         or not lex.coined(stem[1:] + line[start:end])):
            continue  # a verb, a preposition or a pronoun glued before a name (找九龙鼎, 来云城); 葬+龙渊 is no word: a name
        if size == 2:
            # whole tokens only: the stem and the suffix, or one token holding both (栖霞山); a stem
            # no dictionary knows may be split anywhere (点/苍派, 万/剑宗)
            if not (start in bounds or not any(b in bounds for b in range(stem_at + 1, end)) or lex.coined(stem)
                    or lex.proper(stem)):  # 青+阳城: a rare place name split by the segmenter
                continue
            if stem_at + 1 in bounds and lex.common(line[start - 1:end]) \
                    and (not lex.coined(stem) or (lex.freq.get(line[start - 1:end]) or 0) >= RARE or line[start:end] in "市县") \
                    and not (lex.proper(stem) and line[start:end] in TOWN_SUFFIXES):
                continue  # a character before a word that ends in the suffix (快+关门, 早+入门, 小+集市); not a place's name (青+山镇)
            if lex.tags.get(stem[0], "") == "a" and stem_at + 1 in bounds \
                    and (lex.freq.get(line[start - 1:end]) or 0) >= COMMON_PLACE:
                continue  # an adjective before a common word that ends in the suffix (窄+弄堂, 旧+饭馆): a description
            if (stem[-1] in KINSHIP or set(stem) & KIN_CHARS) and lex.freq.get(stem):
                continue  # a kinship word before a name (大伯+林震天): no place's stem
            if stem[-1] in "树木竹草花" and line[start:end] in ("林", "园"):
                continue  # 杉树林, 桃花园: a kind of wood
            if kind == "组织" and _field_word(lex, stem):
                continue  # 兽医+研究所, 海事+学院: a trade or a field and an institution's word, a kind of institution (r64-n39)
            if stem in LANDSCAPE_KINDS or (lex.freq.get(stem) and lex.tags.get(stem, "")[:1] in ("f", "s")):
                continue  # 北方+草原, 远方+森林, 原始+森林, 茫茫+沙漠: a direction or a kind of land, no name
            if len(line[start:end]) == 1 and line[end:end + 1] in LOCALIZERS and end not in bounds \
                    and lex.tags.get(stem[-1], "") in ("v", "vg", "zg"):
                continue  # 径奔+城中: a verb and the town it goes to (静修+庵+里 is a place: 庵里 is no word)
            # a noun of the dictionary cut as one token is a word of its own: 和顺+马帮 (no 和 joining), 将军+冢 (no 将
            # to come), 蛇头+屿 (no 头 counting); not a place word's side (内宅+门) nor a real place (连江+屿)
            whole_word = stem_at in bounds and stem_at + 1 not in bounds and start in bounds and bool(lex.freq.get(stem)) \
                and lex.tags.get(stem, "") in ("n", "nz") and stem[0] not in LOCALIZERS and stem[0] not in DETERMINERS
            if ((_clean(stem) or lex.proper(stem)) and (stem[0] not in STEM_LEAD_BAD or whole_word)
                    and (stem[1] not in MEASURES or whole_word)
                    and (stem[1] not in STEM_END_BAD or lex.proper(stem))
                    and not _verb_and_result(lex, stem, line[start:end])  # 熬+成+汤 (N36)
                    and stem[1] not in "一两几半"
                    and not (stem[1] in NUMERALS and stem[0] not in NUMERALS and stem[0] != "第")  # 聚+五湖: a number counting
                    and (kind != "物品" or stem[-1] not in MATERIALS) and stem not in GENERIC_STEMS):
                name2 = name
                strong = len(name) - 2 >= 2 and (lex.freq.get(stem) or 0) < 1000 \
                    and lex.tags.get(stem, "n")[:1] not in "vpcur"  # 星河资本, 盛唐传媒; not 环绕学堂
                # 长春+宫: a place's name makes another's (not a family's: 赵家+门)
                named = lex.tags.get(stem, "")[:2] in ("nr", "ns", "nz") and stem[-1] != "家"
                shape = 2 if lex.coined(stem) or lex.proper(name) or lex.proper(stem) or strong else 1 if lex.rare(stem) or named else 0
                if shape == 2 and not (lex.proper(name) or lex.proper(stem) or strong) \
                        and lex.given(stem[1]) < VERB_UNNAMED and lex.tags.get(stem[1], "")[:1] == "v":
                    # 海+骂+山, 正+诈+酒: a verb no name carries after a subject or an adverb reads as prose (said
                    # again it may still be a name); a verb first and its object is how names are made (焚天印, 裂石掌)
                    shape = 1
                if line[start:end] in KIND_SUFFIXES and lex.common(stem) and (lex.freq.get(stem) or 0) >= COMMON_PLACE:
                    shape = 0  # 布防+图, 地形+图: a common word and 图 say what the map shows, a kind of map
                if line[start:end] in TOWN_SUFFIXES and lex.tags.get(stem, "n")[:1] == "n" and stem[0] not in "小大老":
                    shape = min(2, shape + 1)  # 青石+镇, 梧桐+巷: a noun and a town's word name one town (a kind is one character: 小镇)
                yield name, kind, shape - verb_led if shape else 0, stem_at
        elif size in (3, 4):
            # a place's name and a kind of group make a group's (老码头+球迷会); two place words are one place (金鼎大厦+楼)
            placed_group = kind == "组织" and len(line[start:end]) >= 2 \
                and any(k == "地点" for suffix, k in CANDIDATE_SUFFIXES if stem.endswith(suffix) and len(stem) > len(suffix))
            # a longer coined stem: the two characters before the suffix must be no word of their
            # own joined to a word before (来到天机阁 is 天机阁), and the stem no dictionary word
            # or a rare one (蓝月亮+酒吧)
            if (set(stem) & LONG_STEM_BAD) or stem[0] in STEM_LEAD_BAD or stem[0] in DETERMINERS \
                    or (lex.freq.get(stem) or 0) >= RARE_PAIR or lex.common(stem[:2]) \
                    or any(lex.freq.get(line[j:end]) for j in range(stem_at + 1, start)) \
                    or (kind == "物品" and stem[-1] in MATERIALS) or not _clean(stem) \
                    or any(w in stem for w in GENERIC_STEMS) or (stem[-2:] in ALL_SUFFIX_WORDS and not placed_group) \
                    or (stem[-2] in SUFFIX_WORDS and lex.tags.get(stem[-1], "")[:1] in VERBISH) \
                    or _verb_and_result(lex, stem, line[start:end]):
                continue  # ... and no name already: 金鼎大厦+楼(下) is 金鼎大厦, 白螺寺+等+马帮 is 白螺寺; 湾+划成+海 (N36)
            if lex.common(line[stem_at:stem_at + 2]) and (lex.freq.get(line[stem_at:stem_at + 2]) or 0) > 2000:
                continue  # a frequent word and a coined name glued (一座天玄…)
            yield name, kind, 1 - verb_led, stem_at  # repetition or context must vouch: 恭绘形+图, 众臣皆+散 are none
        elif size == 1 and not name2 and (end_word := line[start:end]) in "城镇村庄屯寨集州府县宗派教帮盟":
            # a town or a sect of one character (云城, 鲁镇); never a landscape word (寒潭, 古井: things)
            if stem not in FUNCTION and stem not in STEM_LEAD_BAD and stem not in DETERMINERS and stem not in NUMERALS \
                    and stem not in MATERIALS and not lex.freq.get(name) and end_word not in "门局会":
                yield name, kind, int(stem in SURNAMES and end_word in "镇村庄屯寨集"), stem_at  # 鲁镇: a surname's town


FIELD_OFFICES = frozenset("局处")
"""The words of a government bureau or office (海事局, 税务处): a stem the dictionary joins to one of them is the name of a
trade or a field of knowledge (r64-n39). A hall, a station or a system is no such word: the dictionary joins images and
things to them (咖啡厅, 空间站, 银河系 — r64-R, an outside reader's counter-examples)."""


def _field_word(lex: _Lexicon, stem: str) -> bool:
    """Whether ``stem`` is a common word that names a trade or a field of knowledge: the dictionary joins it to a bureau's word
    (兽医 → 兽医局, 海事 → 海事局). Before an institution's word (研究所, 学院, 公司) such a word says
    what kind the institution is (兽医研究所: an institute of veterinary medicine), not which one; a name's stem is an
    image or a place (星河资本, 银河公司, 玫瑰舞厅), which no bureau is named after; a place (tagged so) is no field (长春宫), and a
    number picks one of many (第七+研究所)."""
    return lex.common(stem) and not set(stem) & NUMERALS and not lex.tags.get(stem, "").startswith(("nr", "ns", "nt", "nz")) \
        and any(lex.freq.get(stem + office) for office in FIELD_OFFICES)


MODAL_SUFFIXES = frozenset(("会",))
"""A suffix that is a modal verb too (会): before a verb it is the modal (谁会来), never a society."""
DEGREE_ADVERBS = frozenset("太很挺更最真蛮忒好")
"""A degree adverb after a surname's character and before a character no given name carries is a
predicate (汤+太烫, 水+太多: the soup is too hot), never a name."""
SUFFIX_VERBS = frozenset("指铺扇锁钩盖挂封镇关印掌串")
"""One-character suffixes (一阳指, 当铺, 山海关…) that are everyday verbs too though the dictionary tags them nouns
(指 point, 铺 spread, 锁 lock, 挂 hang, 关 shut): before 了 or 着, the aspect of a verb, they are the clause's verb glued
to its subject (驼夫+指了指, 立冬+指着), never a name's end (N27)."""

MOTION_SUFFIXES = frozenset("冲")
"""N35: one-character suffixes that are verbs of motion too (冲 rush, toward): before :data:`MOTION_NEXT` they are the
clause's verb (带人+冲下来, 四丫+冲他眨眼), never a place's end."""
MOTION_NEXT = frozenset("上下进出回过起开来去着了向往到他她你我它")


def _suffix_acts(lex: _Lexicon, line: str, start: int, end: int) -> bool:
    """Whether the one-character suffix at ``line[start:end]`` is the clause's verb with its aspect after it, not a
    name's end: a verb of the dictionary before 了, 着 or 过 (门柱+帮+了), or one of :data:`SUFFIX_VERBS` before 了 or
    着 (驼夫+指+了指, 立冬+指+着), or one of :data:`MOTION_SUFFIXES` before a direction, an aspect or a pronoun
    (带人+冲下来). One test for every reader of a stem and a suffix."""
    suffix, after = line[start:end], line[end:end + 1]
    if len(suffix) != 1:
        return False
    return (after in "了着过" and lex.tags.get(suffix, "")[:1] == "v") or (after in "了着" and suffix in SUFFIX_VERBS) \
        or (bool(after) and after in MOTION_NEXT and suffix in MOTION_SUFFIXES)


SUFFIX_AS_WORD = frozenset(("门口", "门前", "门脸", "门边", "门槛", "门框", "门板", "门帘", "门缝", "门楣", "乡下"))
"""A suffix and the next character making a word of their own: the doorway of whatever stands before
(大世界+门口), or a part of its door (铺子+门脸, 灶房+门槛), not a place called ...门; the countryside around a town
(湖州+乡下人: N31), not a township called ...乡. Read by every reader of a stem
and a suffix (N31: the recurring reader read 铺子门, 连部门 off 门口 said twice). Not 门外, 门内, 门里: a sect is
said so too (玄霜门外)."""
SUFFIX_WORD_BROKEN = {"乡下": "辖属设面"}
"""The characters after a :data:`SUFFIX_AS_WORD` word that take its last character into a word of their own instead:
a township's own sentence (红旗乡+下辖/下属/下设/下面), not the countryside (R57's F11)."""


def _suffix_as_word(line: str, start: int, end: int) -> bool:
    """Whether the suffix ``line[start:end]`` and the character after it make a word of :data:`SUFFIX_AS_WORD`, the
    character after that not breaking it (:data:`SUFFIX_WORD_BROKEN`: 红旗乡下辖 keeps 红旗乡)."""
    word, nxt = line[start:end + 1], line[end + 1:end + 2]
    return word in SUFFIX_AS_WORD and not (nxt and nxt in SUFFIX_WORD_BROKEN.get(word, ""))


VERB_UNNAMED = 0.12
"""Below this given-name reading a verb's character (骂, 诈, 杀) is read as the prose's verb inside a
stem the dictionary does not know."""
LANDSCAPE_KINDS = frozenset(("原始", "热带", "茫茫", "广袤", "无边", "大片", "荒凉", "辽阔", "无垠", "浩瀚", "戈壁", "深山",
                             "密林", "漫漫", "无尽"))
"""Words that say what kind a stretch of land is (原始森林, 茫茫沙漠), never which one."""
KIND_SUFFIXES = frozenset(("图",))
"""Item suffixes that a common word before makes a kind of thing (布防图, 结构图), not one named thing."""
UNKNOWN_ONLY_SUFFIXES = frozenset(("厅",))
"""Suffixes whose dictionary words are kinds and offices (贵宾厅, 交谊厅, 卫生厅): only a name no dictionary
knows is one (长风厅)."""
TOWN_SUFFIXES = frozenset("镇村县巷乡屯寨堡街")
"""A town's or a street's word: after a noun of two characters it names one (青石镇, 梧桐巷)."""
ONE_STEM_SUFFIXES = frozenset("城江河山湖州县镇村岛峰谷")
"""Suffixes a single coined character makes a place with (澜城, 澜江)."""


def _recurring_suffix_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]], body: str,
                                 suffixes_of: dict[int, list[tuple[int, int, str, str, str]]]
                                 ) -> Iterable[tuple[str, str, int, tuple[int, int]]]:
    """``(name, kind, shape, (line index, column))`` of a stem and a name-making suffix that no
    dictionary knows as one word, weighed by signals other books share:

    - **recurrence**: said two times or more after different words (a place the story goes back
      to: 回春堂, 七号码头); a one-character stem the draft puts before two different place
      suffixes (澜城 and 澜江) — shape 1, repetition makes it a name;
    - **a verb and a name's character** (回春, 醉仙, 聚宝, 镇北: how places, sects and techniques
      are named) before a place, organisation or technique suffix — shape 2, a name said once;
      a tool named by its use (剁骨刀, 切菜刀) has a character no given name carries.

    ``suffixes_of``: :func:`_suffixes_in` of each line of ``bounds_of``."""
    seen: dict[str, list[tuple[int, int, str]]] = {}
    kinds: dict[str, str] = {}
    one_stems: dict[str, set[str]] = {}
    for i, bounds in bounds_of.items():
        line = lines[i]
        for start, end, suffix, kind, tail in suffixes_of[i]:
            # the segmenter often glues a name's edge to the next word (这醉|仙居, 燕回|镇时, 聚宝|阁分|号): a
            # particle, a pronoun, a place word or a word of its own after it ends it as well as a token boundary does
            if not (end in bounds or tail in LOCALIZERS or tail in UNIT_LEAD_BAD or tail in FUNCTION or tail == "时"
                    or not CJK.fullmatch(tail or "。") or lex.freq.get(line[end:end + 2])):
                continue
            if (tail in SUFFIX_TAIL_BAD and lex.freq.get(suffix + tail)) or _suffix_acts(lex, line, start, end) \
                    or _suffix_as_word(line, start, end):
                continue
            if lex.tags.get(line[start - 1:end], "")[:1] in ("d", "c", "p") and lex.common(line[start - 1:end]):
                continue  # 天+已经, 何+曾经: the suffix ends an adverb or a conjunction, no name
            for size in (2, 1):
                at = start - size
                if at < 0 or not (at in bounds or line[at - 1:at] in UNIT_LEAD_BAD or not CJK.fullmatch(line[at - 1:at] or "。")):
                    continue
                stem, name = line[at:start], line[at:end]
                if not CJK.fullmatch(stem) or lex.freq.get(name) or stem[0] in UNIT_LEAD_BAD or stem[0] in LEAD_BAD \
                        or set(stem) & MIDDLE_BAD or stem[-1] in MEASURES or stem[-1] in NUMERALS \
                        or stem[-1] in STEM_END_BAD or stem in GENERIC_STEMS or stem[-1] in MATERIALS \
                        or stem[-1] in KINSHIP or stem[-1] in LOCALIZERS or stem[-1] in SUFFIX_WORDS \
                        or _verb_and_result(lex, stem, suffix):  # 划成+海 (N36)
                    continue
                if _side_of(lex, stem, suffix):
                    continue
                if size == 1 and (suffix not in ONE_STEM_SUFFIXES or stem in NUMERALS or stem in "东南西北大小老"
                                  or lex.given(stem) < UNNAMED):
                    continue
                whole_tokens = start in bounds and at + 1 not in bounds  # [回春][堂], never 言|星洲
                seen.setdefault(name, []).append((i, at, line[at - 1:at] + "|" * whole_tokens))
                kinds[name] = kind
                if size == 1:
                    one_stems.setdefault(stem, set()).add(suffix)
                break
    for name, where in seen.items():
        kind, stem_len = kinds[name], 1 if name[1:] in ONE_STEM_SUFFIXES and len(name) == 2 else 2
        stem = name[:stem_len]
        first = (where[0][0], where[0][1])
        recurring = len(where) >= 2 and len({before[:1] for _i, _c, before in where}) >= 2 and body.count(name) >= 2
        if stem_len == 1:
            if recurring or len(one_stems.get(stem, ())) >= 2:
                yield name, kind, 1, first
            continue
        poetic = lex.tags.get(stem[0], "")[:1] == "v" and lex.given(stem[1]) >= 0.5 and kind in ("地点", "组织", "功法") \
            and not lex.common(stem[1] + name[2:]) and all(before.endswith("|") for _i, _c, before in where) \
            and (lex.freq.get(stem) or 0) < RARE_STEM and stem[1] not in "大小老"
        if poetic:
            yield name, kind, 2, first
        elif recurring and (lex.rare(stem) or lex.proper(stem)) \
                and not (name[2:] in KIND_SUFFIXES and lex.common(stem) and (lex.freq.get(stem) or 0) >= COMMON_PLACE):
            yield name, kind, 1, first  # never a frequent word's (厨房+门, 宿舍+楼: a part of a kind of place)


INSTITUTION_ENDS = frozenset("院团社厅行报馆场园吧会队局司所厂店楼")
"""The last character of a dictionary noun for a kind of institution or establishment (戏院, 京剧团, 茶社, 舞厅, 拍卖行,
晚报, 报馆, 林场, 茶园, 网吧, 公会, 救援队)."""
ACT_LEADS = frozenset(("v", "vn", "f", "a", "ad", "d", "p", "c", "r", "u"))
"""jieba's tags of a token that makes a stem or a two-character noun an act, a side or a description (投奔, 初, 上场)."""
ADMINISTRATIVE = frozenset("省市县区乡")
"""A stem ending in one of these is a place's administration: its 刑警队 or 文化局 is a branch of a kind, no name."""


def _institution_word(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` is a dictionary noun of two to four characters for a kind of institution (:data:`INSTITUTION_ENDS`)."""
    return 2 <= len(word) <= 4 and word[-1] in INSTITUTION_ENDS and lex.tags.get(word, "") in ("n", "nt") \
        and not set(word) & MIDDLE_BAD \
        and (len(word) > 2 or (lex.tags.get(word[0], "") not in ACT_LEADS and word[-1] != "行"))  # 上场, 全厂, 疾行: an act


def _tokens(line: str, bounds: set[int], start: int, end: int) -> list[str]:
    """The tokens of ``line[start:end]`` as ``bounds`` cut it."""
    cuts = [start] + [b for b in range(start + 1, end) if b in bounds] + [end]
    return [line[a:b] for a, b in zip(cuts, cuts[1:])]


ABBREVIATED = re.compile(r"(?=([\u4e00-\u9fff]{2})([\u4e00-\u9fff]{1,3})([" + "".join(sorted(INSTITUTION_ENDS)) + r"]))")
"""A stem, the words of a trade or a kind, and an institution's end (德兴+曲艺+社, 松风+书+会): an organisation in full,
when the text also says it short, the stem and the end alone (德兴社)."""


def _abbreviated_candidates(lex: _Lexicon, text: str) -> Iterator[tuple[str, int]]:
    """``(full name, offset in text)`` of each organisation the text says both in full and short, the trade left out
    (:data:`ABBREVIATED`): the middle words are the dictionary's, the short form no dictionary word."""
    alone: set[str] | None = None
    for m in ABBREVIATED.finditer(text):
        stem, middle, end = m.group(1, 2, 3)
        short = stem + end
        if set(stem + middle) & (MIDDLE_BAD | FUNCTION) or stem[0] in STEM_LEAD_BAD or lex.freq.get(short) \
                or not lex.freq.get(middle):
            continue
        alone = _said_alone(lex, text) if alone is None else alone
        if short in alone:
            yield stem + middle + end, m.start()


ESTABLISHMENT_HEADS: dict[str, tuple[str, ...]] = {
    # N28: one row a kind of establishment, in general Chinese (not a book's words): the last word of its name
    "works": ("厂", "煤矿", "金矿", "铁矿", "铜矿", "矿业", "林场", "农场", "窑厂"),
    "market": ("市场", "早市", "夜市", "集市", "布市", "菜市", "鱼市", "米市", "花市", "马市"),
    "trade": ("置业", "木业", "实业", "商号", "琴行", "车行", "米行", "布行", "批局"),
    "media": ("传媒", "影业", "出版社", "广播站"),
    "stage": ("影院", "电影院", "戏院", "剧院", "文工团", "歌舞团", "杂技团", "马戏团", "评剧团", "京剧团"),
    "food": ("酒馆", "茶馆", "饭馆", "面馆"),
    "housing": ("宿舍",),
}
"""Heads of a works, a market, a trading house, a newspaper or studio, a stage, an eating house or a housing block
that a stem and its trade words name in full (东岭+煤矿, 鹿鸣+早市, 兴华+置业, 北极光+传媒, 凤鸣+影院, 火线+文工团)."""
ESTABLISHMENT_HEAD_WORDS = frozenset(head for row in ESTABLISHMENT_HEADS.values() for head in row)
ESTABLISHMENT_STEM_MAX = 100
"""A stem the dictionary holds this often or more before an establishment's word is what it deals in or serves, a
kind (海鲜+夜市: jieba calls 海鲜 a place), unless a slogan; an establishment's own stem is rarer (东岭 7, 兴华 27)."""
CHAIN_HEADS = ("合作社", "供销社", "信用社", "俱乐部", "剧团", "戏班", "拍卖行", "商行", "酒店", "饭店", "宾馆", "中心", "指挥部",
               "株式会社", "公会", "协会", "商会", "有限公司", "公司", "集团", "基金会", "基金", "小组", "公社", "大队", "队", "团") \
    + tuple(sorted(ESTABLISHMENT_HEAD_WORDS))
"""General Chinese words for a body that a stem and the words of its trade name in full (野径+户外+俱乐部, 金城+航运+队,
洪埠县+防汛抗旱+指挥部): the last word of an organisation said once in full. A one-character head (队) needs a trade word
before it, as do the heads that also name a department or a team of any body (中心, 公司, 小组: 远控+中心, 急救+中心)."""
TRADE_NEEDED = frozenset(("队", "团", "中心", "公司", "小组", "厂"))
HEADS_IN_WORDS: dict[str, int] = {"厂": 2, "队": 3, "团": 3}
"""Heads the dictionary also holds glued to their trade in one word (拖拉机厂, 造纸厂; N30: 勘测队, 医疗队, 宣传队, 骑士团),
with the fewest characters of that word: read from the word's start, the stem before it as for any head. A team's
two-character word is a kind of team (团队, 球队, 乐队: a stem before it names no team)."""
DEPARTMENT_IN_WORDS = frozenset(("队",))
"""In-word heads that right after a county's or a city's name (:data:`ADMINISTRATIVE` its last character) are its
department, not a body of its own (临江市+刑警队, 沅陵+市+刑警队: the city is the name)."""
HELD_TRADE_BAD_TAGS = frozenset("vabr")
"""First letters of jieba's tags of the one character before a head of :data:`HEADS_IN_WORDS` in a two-character word
that holds no trade: an act on the works (出厂, 建厂, 迁厂: 红星机械+出厂 is no name), how much or how old (全厂, 总厂,
老厂), a pronoun (本厂). A trade's one character is a noun (砖厂, 酒厂); a longer trade is read whatever its tag (造纸厂)."""
NAMED_HEADS_ONLY = frozenset(("宿舍",))
"""Heads that also name the rooms of a kind of people (学生+宿舍, 职工+宿舍): a name's only after a slogan
(:data:`SLOGAN_STEMS`: 东风+宿舍) or a place's name the dictionary knows as one (ns)."""
CHAIN_HEAD = re.compile("|".join(sorted(CHAIN_HEADS, key=len, reverse=True)))
CHAIN_MAX = 8
"""The most characters of a stem and its trade words before the head."""
CHAIN_STOP_TAGS = frozenset(("v", "d", "p", "c", "r", "u", "m", "q", "t", "y", "e", "o", "ad", "vd", "ul", "uj", "uz", "ug"))
"""jieba's tags of a token no organisation's name holds before its head: a verb, an adverb, a pronoun, a number, a time."""
STEM_BAD_TAGS = ACT_LEADS | CHAIN_STOP_TAGS | frozenset(("s", "n"))
"""jieba's tags of a token that cannot open an organisation's name: an act, a side or a place's part (北部, 户外), a
common noun (评剧+团, 篮球+队: a kind of body). A stem is a name's (nr, ns, nz), a set phrase or no word at all."""


SLOGAN_STEMS = frozenset(("东风", "红旗", "前进", "跃进", "向阳", "红星", "胜利", "先锋", "朝阳", "曙光", "火炬", "解放", "卫东",
                          "红卫", "永红", "红光", "立新", "光明", "团结", "幸福", "东方红", "五一", "八一", "七一", "火线"))
"""Slogans that name the communes, brigades, factories and troupes of the planned economy (东风+人民公社, 向阳+公社,
跃进+大队): a verb or a common noun of the dictionary, yet before a head of :data:`CHAIN_HEADS` the stem of a name (N27)."""


def _chained_institution_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of an organisation said in full: a stem, the words of its trade and a head of
    :data:`CHAIN_HEADS`, the tokens read leftward from the head until one that is a verb, a particle, a pronoun,
    a number or a time (撞见+猎犬公会: 撞见 ends it). The stem, the leftmost token, is no act or side and
    is no common word nor a kind (商业+户外俱乐部, 国营+剧团, 手游+公会: :data:`GENERIC_STEMS`), unless it is a county's or a
    city's own (洪埠县). Each head is looked at once, with at most :data:`CHAIN_MAX` characters before it; each token's
    start is found by bisection in the line's sorted bounds (a line of thousands of heads reads each once)."""
    edges: list[int] | None = None
    for m in CHAIN_HEAD.finditer(line):
        at = m.start()
        if m.end() < len(line) and m.end() not in bounds:
            continue
        traded = False  # the head's own token holds its trade (拖拉机+厂)
        if at not in bounds:
            if m.group() not in HEADS_IN_WORDS:
                continue
            edges = sorted(bounds) if edges is None else edges
            below = bisect_left(edges, at)
            whole = line[edges[below - 1] if below else 0:m.end()]
            if not lex.tags.get(whole, "").startswith("n") or not CJK.fullmatch(whole) or len(whole) < HEADS_IN_WORDS[m.group()] \
                    or (len(whole) == 2 and lex.tags.get(whole[0], "")[:1] in HELD_TRADE_BAD_TAGS):
                continue  # 扩厂 (no word), 出厂 (an act on the works): no trade held
            at, traded = m.end() - len(whole), True
        tokens: list[str] = []
        start = at
        while start > 0 and at - start < CHAIN_MAX:
            edges = sorted(bounds) if edges is None else edges
            below = bisect_left(edges, start)
            prev = edges[below - 1] if below else 0
            token = line[prev:start]
            tag = lex.tags.get(token) or lex.tags.get(token[0], "")  # 刚到, 知不知道: read by their first character
            if token in SLOGAN_STEMS:  # 向阳+公社: a slogan opens the name, whatever the dictionary calls it
                tokens.insert(0, token)
                start = prev
                break
            if not CJK.fullmatch(token) or set(token) & MIDDLE_BAD or tag in CHAIN_STOP_TAGS \
                    or (len(token) == 1 and not lex.tags.get(token, "").startswith("n")):
                if CJK.fullmatch(token) and (token not in UNIT_LEAD_BAD if len(token) == 1 else token not in lex.tags):
                    tokens = []  # 托+克拉克公社, 叫星芒+文化传媒: the chain begins inside a word
                break
            tokens.insert(0, token)
            start = prev
        if not tokens or len(tokens[0]) < 2 or (m.group() in TRADE_NEEDED and len(tokens) < 2 and not traded):
            continue
        stem = tokens[0]
        if traded and m.group() in DEPARTMENT_IN_WORDS and at > 0 and line[at - 1] in ADMINISTRATIVE:
            continue  # 临江市+刑警队: the city's department (N30)
        if m.group() in NAMED_HEADS_ONLY and stem not in SLOGAN_STEMS and lex.tags.get(stem) != "ns":
            continue  # 练习生+宿舍: the people it houses
        if m.group() in ESTABLISHMENT_HEAD_WORDS and stem not in SLOGAN_STEMS and lex.freq.get(stem, 0) >= ESTABLISHMENT_STEM_MAX:
            continue  # 海鲜+夜市: the goods it sells
        if stem not in SLOGAN_STEMS and (lex.tags.get(stem, "") in STEM_BAD_TAGS or set(stem) & FUNCTION or stem[0] in STEM_LEAD_BAD
                                         or stem in GENERIC_STEMS or (lex.freq.get(stem, 0) >= RARE and stem[-1] not in ADMINISTRATIVE)):
            continue
        yield line[start:m.end()], start


def _said_alone(lex: _Lexicon, text: str) -> set[str]:
    """The short forms (two characters and an institution's end, :data:`INSTITUTION_ENDS`) ``text`` says somewhere with
    the end ending it, not opening a longer word (民间队+伍), read in one pass over the text (a search of the whole text
    per organisation read was their product: a line of thousands of 金城航运队 3 s at the draft's cap)."""
    return {text[at - 2:at + 1] for at in range(2, len(text)) if text[at] in INSTITUTION_ENDS
            and not lex.freq.get(text[at:at + 2])}


def _kind_word_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterator[tuple[str, str, int]]:
    """``(name, kind, column)`` of a stem that names one (a place's or a brand's word of the dictionary, or no word at all:
    长乐, 嘉华, 沪声, 曲登) said right before a dictionary noun for a kind of institution, each a whole token:
    长乐+戏院, 嘉华+拍卖行, 沪声+晚报, 曲登+牧场. The stem starts no sentence's grammar: no function character, numeral,
    determiner or verb-like lead (投奔+石牌楼), no word the dictionary knows as common and no kind (手游+公会,
    :data:`GENERIC_STEMS`); the noun starts with no verb (陈云仙+上场)."""
    for end in sorted(b for b in bounds if line[b - 1:b] in INSTITUTION_ENDS):
        for start in range(end - 4, end - 1):
            head = line[start:end]
            if start not in bounds or not _institution_word(lex, head):
                continue
            for size in (2, 3):
                at = start - size
                if at < 0 or at not in bounds:
                    continue
                stem = line[at:start]
                if not CJK.fullmatch(stem) or set(stem) & (FUNCTION | MIDDLE_BAD | NUMERALS | DETERMINERS) \
                        or stem[0] in STEM_LEAD_BAD or stem[-1] in LOCALIZERS or stem[-1] in ADMINISTRATIVE or lex.common(stem) \
                        or stem in GENERIC_STEMS \
                        or any(lex.tags.get(t, "") in ACT_LEADS for t in _tokens(line, bounds, at, start)) \
                        or (lex.coined(stem) and lex.tags.get(stem[0], "") in ACT_LEADS) \
                        or (head[0] in ALL_SUFFIX_WORDS and line[at:start + 1] not in lex.freq) \
                        or not (lex.proper(stem) or lex.coined(stem)) or lex.freq.get(stem + head) \
                        or any(b in bounds for b in range(at + 1, start)) and not lex.coined(stem) \
                        or lex.freq.get(line[at - 1:at + 1]):
                    continue
                yield stem + head, _kind_by_suffix(stem + head, "组织"), at
                break
            break


SETTLEMENT_FEATURES: dict[str, str] = {
    # the feature a village or a town is named by, then its kind (苇子+坑+村, 二道+洼+镇): one row a kind of feature
    "water": "塘坑沟渠湾泉井潭池涧浦港汊泊淀滩",
    "relief": "坝岭坡岗冈梁坪峁塬垭坳峪洼崖墩埂堰",
    "passage": "桥渡铺营集",
}
"""Characters for a feature of the land or a work on it (塘, 坑, 坝, 洼, 渡): a word and one of them before a
settlement's kind word (:data:`SETTLEMENTS`) name one settlement, said once or not."""
FEATURE_CHARS = frozenset("".join(SETTLEMENT_FEATURES.values()))
SETTLEMENTS = frozenset("村镇乡屯寨庄堡")
FEATURE_THEN_SETTLEMENT = re.compile("(?<=[" + "".join(sorted(FEATURE_CHARS)) + "])[" + "".join(sorted(SETTLEMENTS)) + "]")
"""A settlement's kind word after a feature's character (the kind matched: a class before it is slow to scan for)."""
SETTLEMENT_TAIL_BAD = frozenset("子儿")
DEMONSTRATIVES = frozenset("这那哪每各某此其该")
"""Determiners that point, not count: a numeral may start a settlement's name (二道+洼+镇, 三道+沟), these never."""
SETTLEMENT_CHARS_BAD = FUNCTION | DEMONSTRATIVES
"""After a settlement's kind word these make a common word (村子, 寨子): the kind said of a place, no name."""
SETTLEMENT_WORD_BAD = frozenset(("v", "vn", "vd", "f", "a", "ad", "d", "p", "c", "r", "u", "q", "t", "s"))
"""jieba's tags of a word that names no feature's settlement: a verb, a direction, an adjective, a function word,
a measure, a time or a place word (路口, 远方)."""


def _settlement_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a word, a feature's character and a settlement's kind word (苇子+坑+村, 白鹭+塘+村,
    二道+洼+镇): the feature says the place is named, the kind word that it is a settlement. The word is one token of
    two or three characters, no function word, verb, adjective, direction or measure (:data:`SETTLEMENT_WORD_BAD`), no
    piece of a word begun before it; the word and the feature are no frequent dictionary word (水塘, 路口, 山沟), the
    feature and the kind no common one (山寨, 集镇). (:func:`find_new_nouns` reads the word and the feature as the
    name where the text says them alone more often than with the kind: 凉水井 … 凉水井村里.)"""
    for m in FEATURE_THEN_SETTLEMENT.finditer(line, 3):
        end = m.start()  # the settlement's kind word
        if line[end + 1:end + 2] in SETTLEMENT_TAIL_BAD or lex.common(line[end - 1:end + 1]):
            continue
        for size in (2, 3):
            at = end - 1 - size
            word = line[at:end - 1]
            if at < 0 or at not in bounds or any(b in bounds for b in range(at + 1, end - 1)) or not CJK.fullmatch(word) \
                    or not SETTLEMENT_CHARS_BAD.isdisjoint(word) or word[0] in STEM_LEAD_BAD \
                    or lex.tags.get(word, "n") in SETTLEMENT_WORD_BAD or (lex.freq.get(line[at:end]) or 0) >= COMMON_PLACE \
                    or lex.freq.get(line[at:end + 1]) or (at and lex.freq.get(line[at - 1:at + 1])):
                continue
            yield line[at:end + 1], at
            break


class _SaidCount:
    """How many times a draft says a word, each word counted once however often it is asked (a reader asks for the
    same place at every kind word after it: linear in the text, not in the text times the places)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._counts: dict[str, int] = {}

    def __call__(self, word: str) -> int:
        if word not in self._counts:
            self._counts[word] = self._text.count(word)
        return self._counts[word]


SETTLEMENT_KIND_AT = re.compile("[" + "".join(sorted(SETTLEMENTS)) + "]")
KIND_OPENS_OTHER = frozenset(("镇定", "镇静", "镇压", "镇住", "庄重", "庄严", "乡亲", "庄稼"))
"""Words a settlement's kind word opens with the character after it that are no settlement: a verb or an adjective
(高山青+镇定地, a person steady) or the folk and crops of a place (乡亲, 庄稼) (R58, N32-b)."""


def _village_candidates(lex: _Lexicon, line: str, bounds: set[int], said: _SaidCount) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a three-character place and a settlement's kind word (:data:`SETTLEMENTS`) that the draft
    (``said``) also says without the kind word (螺蛳浜村 … 回螺蛳浜, 桃花岙村 … 在桃花岙): the place is named both ways, so the
    kind word is said of a name, whatever local word for a creek, a bay or a house ends it (浜, 岙, 厝, 荡, 箐: no
    table of :data:`SETTLEMENT_FEATURES` holds them all) (N32). The three characters are one run from a token boundary,
    no dictionary word, no function word, pointer or measure, no numeral first (三号墓+村里人: a numbered thing, then
    村里), opened by a dictionary word of two characters that is no verb, direction or function word
    (:data:`SETTLEMENT_WORD_BAD`); the last of them and the kind word are no common word (山村); the kind word opens no
    other word (:data:`KIND_OPENS_OTHER`: 镇定)."""
    for m in SETTLEMENT_KIND_AT.finditer(line, 3):
        end = m.start()
        at = end - 3
        place = line[at:end]
        if at not in bounds or line[end + 1:end + 2] in SETTLEMENT_TAIL_BAD or line[end:end + 2] in KIND_OPENS_OTHER \
                or not CJK.fullmatch(place) or not SETTLEMENT_CHARS_BAD.isdisjoint(place) or place[0] in STEM_LEAD_BAD or place[0] in NUMERALS \
                or set(place) & MEASURES \
                or lex.freq.get(place) or lex.freq.get(line[at:end + 1]) or lex.common(line[end - 1:end + 1]) \
                or not lex.freq.get(place[:2]) or lex.tags.get(place[:2], "n") in SETTLEMENT_WORD_BAD \
                or said(place) <= said(line[at:end + 1]):
            continue
        yield line[at:end + 1], at


STATION_TRADE = re.compile(r"(?=([\u4e00-\u9fff]{2})站)")
"""Two characters before 站: the trade a station serves when they are a noun of the dictionary (气象站, 航标站)."""
STATION_TRADE_TAGS = frozenset(("n", "vn"))
STOOD_TAILS = frozenset("在着起了住到上岗稳直成满出定")
"""After 站 these make it the verb (一根铁钎子+站+在, 竹杠+站+着, 媳妇+站+到, 姑娘+站+上, 民兵+站+岗): one stands
there, no station (R58, N32-a: 到上岗稳直成满出定)."""
STATION_PERSON_ENDS = frozenset("兵妇娘人员长婆哥姐嫂爷叔婶妹弟夫")
"""The last character of a noun for a person (哨兵, 媳妇, 姑娘, 队员, 队长): such a noun before 站 is someone standing,
never the trade a station serves (R58, N32-a)."""
STATION_PLACE_SIZES = (3, 2)
"""How long a place before a trade's station is read, longest first (牛角矶+水文站, 三沙+航标站)."""


def _station_candidates(lex: _Lexicon, line: str, bounds: set[int], said: _SaidCount) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a place, a trade (a noun of the dictionary: :data:`STATION_TRADE_TAGS`) and 站 — a station
    of that trade at that place (三沙+航标站, 牛角矶+水文站, 雪岭+气象站, 椰岭+广播站) — where the draft (``said``) says
    the place without the station too: a place the story names, then its station (N32). The place starts at a token boundary
    or after a word that stands before names (:data:`UNIT_LEAD_BAD`: 分配到+三沙),
    is two or three characters no dictionary knows (a common word is a kind: 公交+车站, 镇上+加油站; a real place's
    station, 潮州+汽车站, is that place's), with no function word nor measure in it (一根+铁钎子+站在: 站 said as a verb, see :data:`STOOD_TAILS`).
    The trade is no person (:data:`STATION_PERSON_ENDS`: 赵铁柱+媳妇+站到 is she standing)."""
    for m in STATION_TRADE.finditer(line):
        trade_at = m.start()
        trade = m.group(1)
        if lex.tags.get(trade, "") not in STATION_TRADE_TAGS or not CJK.fullmatch(trade) \
                or trade[-1] in STATION_PERSON_ENDS or line[trade_at + 3:trade_at + 4] in STOOD_TAILS:
            continue
        for size in STATION_PLACE_SIZES:
            at = trade_at - size
            place = line[at:trade_at]
            if at < 0 or not (at in bounds or line[at - 1:at] in UNIT_LEAD_BAD) or not CJK.fullmatch(place) \
                    or set(place) & (LONG_STEM_BAD | MEASURES) \
                    or place[0] in STEM_LEAD_BAD or place[0] in DEMONSTRATIVES \
                    or not lex.coined(place):
                continue
            name = line[at:trade_at + 3]
            if said(place) > said(name):
                yield name, at
                break


LANE_GOING_LEADS = ("离开",) + tuple("到去往回过出穿经抵至住")
"""The words of place before a lane's name that go to it, leave it or live in it (领到, 走出, 离开, 回到, 家住): a place
one reaches or leaves, never what one is inside of (N36; narrowed in fn36)."""
LANE_INSIDE_LEADS = tuple("在进从于")
"""The words of place before ``X里`` that also say *inside* a thing (沐浴在清辉里, 埋进花荫里, 从云霞里): after a verb
(:func:`_after_verb`) they are that verb's place, the inside of whatever X is (fn36)."""
LANE = re.compile("(" + "|".join(LANE_GOING_LEADS + LANE_INSIDE_LEADS) + r")了?([\u4e00-\u9fff]{2})里(?![面头边外])")
"""A word of place before two characters and 里 (在+德馨+里, 住+卫东+里, 离开+德润+里, 走出+谈瀛+里): a preposition or a
verb of going, living or leaving, then what may be a lane's or a compound's name (N36)."""
LANE_STEM_END_BAD = frozenset(w for w in ALL_SUFFIX_WORDS if len(w) == 1) | THING_HEADS | LANDFORMS | LOCALIZERS \
    | frozenset("境田地场区园营房屋室窝袋瓶囊匣盒箱柜包")
"""The last character of a word for a space, a place or a container (识+海, 宗+门, 秘+境, 灵+田, 丹+炉, 玉+瓶): 里 after
it is *inside* that thing, however coined the word, never a lane (N36)."""
LANE_GIVEN = 0.6
"""How much each of a lane's two characters must read as a given name's (:meth:`_Lexicon.given`): a lane is named as a
shop or a child is, with words of virtue, fortune and peace (德+馨 0.93/0.94, 福+寿, 嘉+禾, 新+安, 卫+东), where a coined
word for a nook or a thing is not (桌+缝, 窑+膛, 牛+栏, 塔+筒, 皮+卡: one of them under 0.5) (N36)."""
LANE_SENSE_ENDS = frozenset("光辉晖曦霞云雾霭岚烟涛浪波澜潮声音韵籁影荫阴风雨雪霜露月星色香芳情梦霆雷电焰火息意绪")
"""The last character of a literary word for light, sky and weather, water in motion, sound, shade, scent, feeling or
dream (清+辉, 云+霞, 松+涛, 花+荫, 荣+光, 雷+霆): such words take given names' characters too, and 里 after them is
*inside* the light or the sound (沐浴在清辉里, 淹在松涛里); only a lane's own frame (:data:`LANE_FRAMES`) makes one a lane
(fn36). Lanes' words of virtue and fortune (馨, 华, 阳, 安, 康, 寿) are not in it (德馨里, 中华里, 向阳里)."""
LANE_FRAMES = (r"(?:住|搬|迁|租|落户|安家|定居)(?:在|到|进|回|入)?了?{x}里",
               r"{x}里(?:[零〇一二三四五六七八九十百两0-9０-９]+号|弄|巷|胡同)",
               r"{x}里[^。！？\n]{{0,12}}(?:弄堂|里弄|门牌)",
               r"(?:^|[。！？；：，、“”‘’「」\s]){x}里是")
"""What only a lane's name has (fn36): a verb of living or moving house before it (家住卫东里, 搬到了宝善里), a house
number or a lane's word after it (德馨里十七号, 德馨里是条石库门弄堂), or the name opening a clause as what it is (德馨里是…,
福寿里是…). ``{x}`` stands for the stem. Said so once anywhere in the draft, every sighting of the form is the lane."""
LANE_HOUSES = ("房", "屋", "院", "门", "楼", "天井", "亭子间", "宅", "住户", "人家", "居民", "街坊", "邻居")
"""What stands in a lane, after ``X里的`` and at most two characters (新安里的土房门口, 福寿里的院门口, 卫东里的楼缝): the
lane's houses and people, where ``X里的`` of the inside of a thing goes on to what is in it (fn36)."""


def _after_verb(lex: _Lexicon, line: str, at: int) -> bool:
    """Whether the word ending at ``at`` is a verb of the dictionary (沐浴|在, 坐|在, 埋|进): the place after it is where
    the act holds, the inside of what follows (fn36)."""
    return any(lex.tags.get(line[at - k:at], "")[:1] == "v" for k in (2, 1) if at - k >= 0)


LANE_STEM = r"(?P<x>[\u4e00-\u9fff]{2})"
"""A lane's stem where the sightings below name it: two characters, as :data:`LANE` reads them."""
LANE_FRAME_SIGHTINGS = tuple(re.compile(f"(?={frame.format(x=LANE_STEM)})", re.M) for frame in LANE_FRAMES)
LANE_HOUSE_SIGHTING = re.compile(rf"(?={LANE_STEM}里的.{{0,2}}(?:{'|'.join(LANE_HOUSES)}))")
LANE_LEAD_SIGHTING = re.compile(rf"(?=(?P<lead>{'|'.join(LANE_GOING_LEADS + LANE_INSIDE_LEADS)})了?{LANE_STEM}里(?![面头边外]))")
"""Every stem a draft says as a lane, found in one pass over it (a zero-width look at each place, so sightings that
overlap are all seen): by a lane's own frame, by its houses after it, after a word of going or a preposition of place."""


@functools.lru_cache(maxsize=8)
def _lanes_said(lex: _Lexicon, body: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stems ``body`` says as a lane: those of a lane's own frame (:data:`LANE_FRAMES`), and those said so only by a
    word of going or place or by houses after them (for :func:`_lane_said` to refuse when the stem is a literary word).
    One pass per pattern over ``body`` whatever the number of candidates (a stem per candidate would read the draft once
    each: quadratic on a long draft of many sightings); kept for the few drafts being read."""
    framed = frozenset(m.group("x") for pattern in LANE_FRAME_SIGHTINGS for m in pattern.finditer(body))
    housed = {m.group("x") for m in LANE_HOUSE_SIGHTING.finditer(body)}
    led = {m.group("x") for m in LANE_LEAD_SIGHTING.finditer(body)
           if m.group("lead") in LANE_GOING_LEADS or not _after_verb(lex, body, m.start())}
    return framed, frozenset(housed | led)


def _lane_said(lex: _Lexicon, body: str, stem: str) -> bool:
    """Whether ``body`` says ``stem + 里`` as a lane anywhere (fn36): a lane's own frame (:data:`LANE_FRAMES`); or, for a
    stem that is no literary word of light, sound or feeling (:data:`LANE_SENSE_ENDS`), a word of going to or leaving it
    (领到, 走出, 离开: :data:`LANE_GOING_LEADS`), a preposition of place not after a verb (我在X里, ，在X里: the place of a
    clause, not the inside where an act holds) or its houses after it (:data:`LANE_HOUSES`). A name-like pair of
    characters after 沐浴在, 隐没在, 埋进 is the inside of that thing (清辉里, 云霞里, 花荫里)."""
    framed, placed = _lanes_said(lex, body)
    return stem in framed or (stem[-1] not in LANE_SENSE_ENDS and stem in placed)


def _lane_candidates(lex: _Lexicon, line: str, body: str | None = None) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a lane or a dwelling compound named ``X里`` (德馨里, 谈瀛里, 卫东里, 新安里): right after a word of
    place (:data:`LANE`), two characters no dictionary holds as an everyday word — coined (德馨, 谈瀛) or a proper noun's
    (新安, 嘉禾, 福寿), both characters reading as a given name's (:data:`LANE_GIVEN`) — then 里, not going on as 里面,
    里头, 里边, 里外. An everyday word before 里 (院子里, 梧桐里) is inside that thing, as is a word for a space or a
    container however coined (识海里, 宗门里: :data:`LANE_STEM_END_BAD`) and a coined word for a nook or a thing (桌缝里,
    窑膛里); no function word, numeral, measure or determiner is in the word (N36). Name-like characters are not enough:
    ``body`` (the draft; ``line`` when not given) must say the form as a lane somewhere (:func:`_lane_said`, fn36)."""
    for m in LANE.finditer(line):
        stem = m.group(2)
        if lex.common(stem) or stem[-1] in LANE_STEM_END_BAD or stem[0] in STEM_LEAD_BAD or stem[0] in DEMONSTRATIVES \
                or set(stem) & (LONG_STEM_BAD | MEASURES | NUMERALS) or stem in GENERIC_STEMS \
                or lex.freq.get(stem + "里") or min(map(lex.given, stem)) < LANE_GIVEN \
                or not _lane_said(lex, line if body is None else body, stem):
            continue
        yield stem + "里", m.start(2)


SHOP_TRADES = ("栈", "客栈", "行", "商行", "庄", "坊", "烧锅", "批局", "茶坊", "茶社", "茶馆", "茶楼", "酒坊", "酒馆", "酒楼",
               "饭馆", "饭店", "面馆", "纸坊", "油坊", "染坊", "当铺", "钱庄", "药铺", "铁铺", "布庄", "大车店", "车马店", "客店",
               "照相馆")
"""N34: the trade words of a shop, an inn or a trading house in general Chinese, old and new (同和+栈, 裕和祥+烧锅, 丰乐+茶坊,
德记+行, 永和昌+批局): after a stem the draft also says alone (同和是…, 德记的头家), the shop said in full."""
SHOP_TRADE = re.compile("|".join(sorted(SHOP_TRADES, key=len, reverse=True)))
SHOP_STEM_SIZES = (3, 2)
"""How long a shop's stem before its trade word is read, longest first (裕和祥+烧锅, 同和+栈)."""
SHOP_FILLER_FROM = 2
"""The fewest characters of a trade word that may follow one character of what the shop makes (双喜+烩+面馆); a
one-character trade word (行, 栈) is read only right after the stem (李四+也+行 is no shop)."""
SHOP_KIND_GOODS = 2
"""N35: how many characters of what a shop sells may stand between its stem and a trade word when the two make a kind of
shop the dictionary knows (光华+器材行, 永昌+五金行, 瑞蚨+绸布庄)."""
PROPER_TAGS = ("nr", "ns", "nz", "nt")
SHOP_STEM_OPENS = frozenset("同")
"""A lead of :data:`STEM_LEAD_BAD` (a preposition elsewhere: 同他) that opens shop names (同和, 同仁, 同福)."""
SHOP_STEM_BAD = LONG_STEM_BAD - frozenset("同和来") | frozenset(_COUNT)
"""Characters no shop's stem holds: those of :data:`LONG_STEM_BAD` but the words of good trade that shop names are
made of (同和, 裕和祥, 新泰来: a conjunction or a verb elsewhere), and a numeral (头一+行: a line of text)."""


def _shop_stem_candidates(lex: _Lexicon, line: str, bounds: set[int], said: _SaidCount) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a shop, an inn or a trading house said in full, a stem and a trade word of
    :data:`SHOP_TRADES` (同和+栈, 裕和祥+烧锅, 双喜+烩+面馆), where the draft (``said``) also says the stem without it:
    the shop's short name (同和是傅家甸有名的大车店, 德记的头家). The stem starts at a token boundary, holds no function
    character, opens with no verb-like lead, numeral or determiner, and is no common word (茶叶+铺, 村口+茶馆: a kind or
    a place's part) unless a proper noun of the dictionary (双喜, 太平), a rare one (丰乐) or a slogan of
    :data:`SLOGAN_STEMS` (东风+照相馆, N35); the trade word ends its token. Between the stem and the trade word may stand
    one character of what the shop makes (双喜+烩+面馆) or, where the two make a kind of shop the dictionary knows,
    :data:`SHOP_KIND_GOODS` characters of it (光华+器材行, N35)."""
    for m in SHOP_TRADE.finditer(line):
        if m.end() < len(line) and m.end() not in bounds and CJK.fullmatch(line[m.end()]):
            continue  # the trade word goes on into another (行+动, 铺+开)
        fillers = (0, 1) if len(m.group()) >= SHOP_FILLER_FROM else (0,)
        if lex.freq.get(line[m.start() - SHOP_KIND_GOODS:m.end()]):
            fillers += (SHOP_KIND_GOODS,)  # 光华+器材行: the goods and the trade make a kind of shop of the dictionary
        for filler in fillers:
            found = False
            for size in SHOP_STEM_SIZES:
                at = m.start() - filler - size
                stem = line[at:at + size]
                if at < 0 or at not in bounds or not CJK.fullmatch(line[at:m.start()]) or set(line[at:m.start()]) & SHOP_STEM_BAD \
                        or (stem[0] in STEM_LEAD_BAD and stem[0] not in SHOP_STEM_OPENS) or stem[0] in DEMONSTRATIVES \
                        or lex.freq.get(line[at:m.end()]) or lex.tags.get(stem, "").startswith(("s", "f", "t")) \
                    or (m.start() not in bounds and lex.freq.get(line[m.start() - 1:m.end()])):
                    continue
                if lex.freq.get(stem) and not lex.tags.get(stem, "").startswith(PROPER_TAGS) and not lex.rare(stem) \
                        and stem not in SLOGAN_STEMS:
                    continue  # 茶叶+铺: what it sells, a kind of shop
                name = line[at:m.end()]
                if said(stem) > said(name):
                    yield name, at
                    found = True
                    break
            if found:
                break


ORDINAL_BODY_HEADS = ("分队", "大队", "中队", "小队", "支队", "纵队", "队", "处", "团", "厂", "局", "营", "连")
"""N37 (stop 62): the heads of a body numbered in its series (第三+疟防+队, 第七+工程+处, 青海+第七+地质+队): a team, an
office, a troupe, a works, a bureau, a battalion or a company. Read only after 第, a numeral and a trade."""
ORDINAL_MEASURES = MEASURES | frozenset("次回遍届年月日天号本期轮排代拨批等级种样步笔时梯线")
"""What right after 第 and a numeral counts, not a trade (第一+次, 第三+个厂, 第二+天), or makes a common word with it
(第一+时间, 第一+梯队, 第一+线: r62-2): no body's name goes on there."""
ORDINAL_TRADE_BAD = frozenset("的了着过是在把被这那么吗呢吧啊呀你我他她它没和与就也都又还有到回进去出赶冲跑送来")
"""Characters of a clause, never of a trade between 第N and a head (第一次公演是团: 是; 第一时间+赶回+厂: a verb of
going, r62-2); 地 is left out (地质队). A trade's verb of work stays (勘探+大队, 修建+处)."""
ORDINAL_BODY_NEXT_BAD = frozenset("长员部里内外上")
"""What after the head makes it a person or a part (第七地质队+长, 第三疟防队+员, 第二连+里)."""
ORDINAL_BODY = re.compile("第[一二三四五六七八九十百零〇两]+(?=([\u4e00-\u9fff]{1,4}?)("
                          + "|".join(sorted(ORDINAL_BODY_HEADS, key=len, reverse=True)) + "))")
ORDINAL_BODY_PLACE_TAGS = ("ns",)


def _ordinal_body_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a body named by its place in a series: 第, a numeral, the words of its trade and a head of
    :data:`ORDINAL_BODY_HEADS` (第三疟防队, 第七工程处), with the place the dictionary knows right before 第 when there is
    one (青海+第七地质队). The trade holds no function character and opens on no measure (第一次, 第三个厂:
    :data:`ORDINAL_MEASURES`); nothing of :data:`ORDINAL_BODY_NEXT_BAD` follows the head (第七地质队长 is its leader)."""
    for m in ORDINAL_BODY.finditer(line):
        trade, head = m.group(1), m.group(2)
        end = m.end() + len(trade) + len(head)
        if trade[0] in ORDINAL_MEASURES or set(trade) & ORDINAL_TRADE_BAD \
                or line[end:end + 1] in ORDINAL_BODY_NEXT_BAD and line[end:end + 1] != "" \
                or (end < len(line) and end not in bounds and CJK.fullmatch(line[end])):
            continue
        start = m.start()
        for size in (3, 2):
            place = line[start - size:start]
            if start - size >= 0 and start - size in bounds and lex.tags.get(place, "").startswith(ORDINAL_BODY_PLACE_TAGS):
                start -= size
                break
        yield line[start:end], start


CALLED_BODY = re.compile("(?<![不没])(?:叫做|名叫|唤作|名为|叫)([\u4e00-\u9fff]{2,8}?)("
                         + "|".join(sorted(set(CHAIN_HEADS) | set(COUNTRY_INSTITUTIONS), key=len, reverse=True))
                         + ")(?=[，。！？、；：”」]|$)")
"""N37 (stop 62): a naming verb, a stem and the head of a body (叫+大垟+供销社, 名叫+东风人民+公社, 叫+清源环保+公司): the
body's whole name, however many characters its stem (:data:`INTRO` reads four at most)."""


def _called_body_candidates(lex: _Lexicon, line: str) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a body named by :data:`CALLED_BODY`: the stem opens on no pronoun, preposition or
    demonstrative (叫+这个公司), holds no function character and is no kind of body (叫+宗门+…: :data:`GENERIC_STEMS`)."""
    for m in CALLED_BODY.finditer(line):
        stem = m.group(1)
        if stem[0] in STEM_LEAD_BAD or stem[0] in DEMONSTRATIVES or set(stem) & FUNCTION or stem in GENERIC_STEMS \
                or lex.tags.get(stem[:2], "x")[:1] in "rdcpmq":
            continue
        yield stem + m.group(2), m.start(1)


FIRM_ACTS = frozenset("做跑开卖收贩运租拉修印造打织染榨酿编刻倒")
"""The acts of a trade a firm is said to do (跑船的, 卖米的, 拉货的, 修车的, 打铁的, 倒腾…的): right after 是, one of them,
what it works on, 的 (稿子是王亚龙帮她送到场部的: who did what to a thing, no trade)."""
FIRM_DEFINED = re.compile(r"(?:^|(?<=[。！？；，：“”「」]))([\u4e00-\u9fff]{2,3}?)是(?:"
                          r"[" + "".join(sorted(FIRM_ACTS)) + "][^，。！？；：“”]{1,6}(?<!用)的(?=[，。！？；”]|$)|"
                          r"[^，。！？；：“”]{0,24}?(?:公司|企业|商号|字号|买卖|一家|这家|那家|店|铺|厂|作坊))")
"""N37 (stop 62): a firm's short name said as the subject of what it is (通和是跑船的, 极光是哈尔滨做冰雕最大的公司, 极光是
白桦沟唯一一家租…): a business's word (公司, 店, 一家 …) or a trade's act and 的 (跑船的, 卖米的), in one clause (酸汤是按
奶奶的方子，在贵州找了个食品厂 defines no firm); what a thing is used for is no trade (麦秸是烧锅做饭用的)."""
FIRM_SAID_LEADS = frozenset("家是的到去在进叫找")
"""What stands before a firm said in full: a count (一家+通和船行), a copula or a genitive (是+极光冰艺, 的+极光装备租赁),
a verb of going or seeking (去+X, 找+X)."""
FIRM_TRADE_CHARS = 4
"""The most characters of the trade words after a firm's short name (冰艺, 船行, 装备租赁)."""


def _firm_trade(lex: _Lexicon, line: str, edges: list[int], at: int) -> str:
    """The trade words said at column ``at`` of ``line`` (``edges``: the line's token starts, sorted): up to two tokens,
    each a noun of the dictionary, a verbal noun, a word of two or more characters (租赁) after a noun, or no word at
    all (冰艺); empty when they are a word for someone (伙计, 老板) or a place's part (门口), or when none is read."""
    words = ""
    start = at
    for end in edges[bisect_right(edges, at):bisect_right(edges, at + FIRM_TRADE_CHARS)]:
        token = line[start:end]
        tag = lex.tags.get(token, "")
        if not CJK.fullmatch(token) or set(token) & FUNCTION or token[0] in LOCALIZERS \
                or not (tag[:1] == "n" or tag == "vn" or not tag or (words and len(token) >= 2 and tag[:1] == "v")):
            break
        words += token
        start = end
        if len(words) >= FIRM_TRADE_CHARS or words != token:
            break
    if not words or _someone_word(lex, words) or lex.tags.get(words, "x")[:1] in "sf":
        return ""
    return words


def _firm_short_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]]) -> Iterator[tuple[str, int, int]]:
    """``(name, line index, column)`` of a firm said in full once its short name is the subject of what it is
    (:data:`FIRM_DEFINED`): the short name, then its trade words (:func:`_firm_trade`), after one of
    :data:`FIRM_SAID_LEADS`; the whole no word of the dictionary (通和+船行, 极光+冰艺, 极光+装备租赁). The short name holds
    none of :data:`SHOP_STEM_BAD` (同和, 通和: a conjunction elsewhere, a shop's word here), opens on no verb-like lead
    or demonstrative, and is no word for someone, no pronoun, adverb, number, time or side. The short names are sought
    by one pattern, each line read once (a draft of thousands of definitions is not read once per name)."""
    stems: set[str] = set()
    for i in bounds_of:
        for m in FIRM_DEFINED.finditer(lines[i]):
            stem = m.group(1)
            if not set(stem) & SHOP_STEM_BAD and stem[0] not in STEM_LEAD_BAD and stem[0] not in DEMONSTRATIVES \
                    and not _someone_word(lex, stem) and lex.tags.get(stem, "x")[:1] not in "rdcpmqtfs":
                stems.add(stem)
    said = _alternation(stems, "\n".join(lines)) if stems else None
    if said is None:
        return
    for i, bounds in bounds_of.items():
        line = lines[i]
        edges: list[int] | None = None
        for m in said.finditer(line):
            at, after = m.start(), m.end()
            if at == 0 or line[at - 1] not in FIRM_SAID_LEADS or at not in bounds or after not in bounds:
                continue
            edges = sorted(bounds) if edges is None else edges
            trade = _firm_trade(lex, line, edges, after)
            if trade and not lex.freq.get(m.group() + trade):
                yield m.group() + trade, i, at


def _broad_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]]) -> Iterable[tuple[str, str, tuple[int, int]]]:
    """``(name, kind, (line index, column))`` of every word a name could be, evidence or not: a
    token of 2–4 characters the dictionary does not know, a surname and one or two characters
    after a token boundary, a stem of one to three characters before a name-making suffix. Most
    are ordinary words: only a learned decision that weighs their features should keep them."""
    for i, bounds in bounds_of.items():
        line = lines[i]
        edges = sorted(bounds)
        for a, b in zip(edges, edges[1:]):
            word = line[a:b]
            if 2 <= len(word) <= 4 and CJK.fullmatch(word) and not lex.freq.get(word) and word[0] not in LEAD_BAD:
                yield word, _kind_by_suffix(word, "人物"), (i, a)
        for a in edges:
            unit = 2 if line[a:a + 2] in COMPOUND_SURNAMES else 1 if line[a:a + 1] in SURNAMES else 0
            for size in (unit + 1, unit + 2) if unit else ():
                word = line[a:a + size]
                if len(word) == size and CJK.fullmatch(word) and not set(word[unit:]) & FUNCTION and not lex.common(word):
                    yield word, "人物", (i, a)
        for start, end, _suffix, kind, _tail in _suffixes_in(line):
            for size in (1, 2, 3):
                at = start - size
                word = line[at:end] if at >= 0 else ""
                if word and CJK.fullmatch(word) and at in bounds and word[0] not in LEAD_BAD and not lex.common(word) \
                        and not set(word[:size]) & FUNCTION:
                    yield word, kind, (i, at)


def _spans(line: str, names: re.Pattern[str] | None) -> set[int]:
    """Offsets of ``line`` covered by an occurrence of one of ``names``."""
    covered: set[int] = set()
    if names is not None:
        for m in names.finditer(line):
            covered.update(range(m.start(), m.end()))
    return covered


def _alternation(words: Iterable[str], text: str) -> re.Pattern[str] | None:
    """A pattern matching any of ``words`` that occur in ``text`` (longest first), or None."""
    present = occurring((w for w in words if len(w) >= 2), text)
    return re.compile(alternation(present)) if present else None  # alternation orders them, and reuses its tree for the same set


def _person_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]],
                       taken: set[str]) -> dict[str, tuple[int, tuple[int, int]]]:
    """Surname-led names: the 3-character form when it always continues the 2-character one.
    A surname inside a name already found (``taken``: 慧明 in 慧明没有) starts nothing."""
    forms: dict[str, list[tuple[int, int, str]]] = {}
    segmented: set[str] = set()  # one token of the segmenter, whose HMM joins unknown characters into a word
    text = "\n".join(lines)
    taken_re = _alternation(taken, text)
    for i, line in enumerate(lines):
        if i not in bounds_of:
            continue
        covered = _spans(line, taken_re)
        bounds = bounds_of[i]
        size_of_line = len(line)
        for col in sorted(bounds):  # a token's start only: not inside a word (忽明忽暗)
            if col >= size_of_line:
                break
            ch = line[col]
            if col in covered:
                continue  # inside a name already found
            unit = 2 if line[col:col + 2] in COMPOUND_SURNAMES else 1 if ch in SURNAMES else 0
            if not unit or (ch in MEASURES and col and line[col - 1] in COUNTING):
                continue  # 那张+定格的脸, 一条+龙: a measure word counting, no surname
            for size in (unit + 1, unit + 2):
                word = line[col:col + size]
                if col + size not in bounds and CJK.fullmatch(line[col + size:col + size + 1]):
                    continue  # a name ends where a word ends (蓝布大 of 蓝布大衫)
                if size == unit + 2 and col + size - 1 in bounds and lex.tags.get(line[col + size - 1:col + size], "x")[:1] in "dpc":
                    continue  # an adverb after a family (施家+再): no name
                if len(word) == size and CJK.fullmatch(word):
                    forms.setdefault(word, []).append((i, col, line[col + size:col + size + 1]))
                    if col + size in bounds and not any(b in bounds for b in range(col + 1, col + size)):
                        segmented.add(word)
    out: dict[str, tuple[int, tuple[int, int]]] = {}
    for word, where in forms.items():
        unit = 2 if word[:2] in COMPOUND_SURNAMES else 1
        if len(word) == unit + 1 and len(where) >= 2 and len({nxt for _i, _c, nxt in where}) == 1 \
                and CJK.fullmatch(where[0][2]) and where[0][2] not in PARTICLES and lex.given(where[0][2]) >= 0.3:
            continue  # always followed by the same character: the name is longer, or no name (方必 of 方必开)
        # a character that mostly ends a word may end a name said more than once (方必开), never a
        # character no given name has (王大个)
        speaks = any(AFTER_PERSON.match(lines[i][c + len(word):c + len(word) + 5]) for i, c, _n in where)
        ends_ok = word[-1] not in NAME_END or (
            text.count(word) >= 2 and word[-1] not in PARTICLES and word[-1] not in "一人们"
            and (lex.given(word[-1]) >= 0.5 or speaks))  # 柴进 said again; 马梦太 who speaks
        if not _clean(word, end_vouched=word[-1] in NAME_END) or not ends_ok or (lex.common(word) and not lex.proper(word)):
            continue
        if word[0] in MATERIALS and word[unit:] != "氏" \
                and (lex.freq.get(word) == 0 or (len(word) == 2 and word[1] in ITEM_SUFFIXES)):
            continue  # the start of a dictionary word made of a material (石桌…): a thing, not 石 the surname
        if len(word) == unit + 2 and word[unit] in DEGREE_ADVERBS and lex.given(word[unit + 1]) < 0.3 \
                and lex.tags.get(word[unit + 1], "")[:1] in ("a", "v", "m"):
            continue  # 汤+太烫, 水+太多: a noun that is a surname too, and what it is like
        if len(word) == unit + 2 and word[unit] in NUMERALS and word[unit + 1] in "妃位人个名口":
            continue  # 刘二妃: two consorts
        if len(word) == unit + 2 and unit == 1 and lex.common(word[:2]) \
                and ((lex.freq.get(word[:2]) or 0) >= RARE_PAIR or lex.given(word[2]) < 0.5):
            continue  # a word plus a character (江南一, 水底憋), not a name; 陆景+琛 is one (陆景 is a rare word)
        if len(word) == unit + 1:
            following = {nxt for _i, _c, nxt in where}
            longer = word + next(iter(following)) if len(following) == 1 else ""
            if longer in forms and longer[-1] not in NAME_END and CJK.fullmatch(longer):
                continue  # always continued: the longer form is the name
        else:
            shorter = forms.get(word[:-1], [])
            if len({nxt for _i, _c, nxt in shorter}) > 1:
                continue  # the shorter form stands on its own: this is it plus a word
        shaped = not lex.common(word) or lex.proper(word) or unit == 2
        if unit == 1 and len(word) == 3 and lex.tags.get(word[0], "")[:1] == "v" and (lex.freq.get(word[1:]) or 0) >= RARE:
            shaped = False  # 戴+眼镜, 管+闲事: a verb that is a surname too, and its object
        if len(word) == unit + 1 and lex.given(word[-1]) < UNNAMED:
            shaped = False  # a surname and a character no given name carries (舂米场, 黄漆): repetition and context must vouch
        # a surname and two characters the segmenter's HMM made one word of, unknown to its
        # dictionary: its statistics read a name there (王二狗, 周小婉), said once or not
        hmm = shaped and len(word) == unit + 2 and word in segmented and not lex.freq.get(word) \
            and not set(word[unit:]) & set("姓名氏某") and word[unit] not in KINSHIP
        # (姓王名仁, 方、王二姓: a surname talked about; 柳某+想: someone naming himself by his surname;
        # 陈叔+端: an address and the next verb)
        # a surname and given-name characters only (王腾, 林浩然: each high in the given-name
        # table), cut as whole tokens and no dictionary word: a name said once
        named = shaped and not hmm and word in segmented and not lex.freq.get(word) \
            and min(lex.given(c) for c in word[unit:]) >= STRONG_GIVEN
        out[word] = (int(shaped) + int(hmm or named), (where[0][0], where[0][1]))
    return out


def _surname_and_given(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` is a surname (any of :data:`ALL_SURNAMES`) and one or two characters that read as a given name,
    no dictionary word and no 小, 老, 阿 of an address (于洪, 张仲和): read whole where a word before names someone."""
    return len(name) in (2, 3) and name[0] in ALL_SURNAMES and bool(CJK.fullmatch(name)) and name[1] not in "小老阿" \
        and not lex.common(name) and min(lex.given(c) for c in name[1:]) >= 0.5


def _introduced_candidates(lex: _Lexicon, line: str) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of a surname (any of :data:`ALL_SURNAMES`, 于 too) and two characters that read as a given
    name, said right after a word for someone by trade, office or kin (油锯手于大海, 船长严鸣鹤, 局长段振邦) or right before
    an office or an honorific (:func:`_office_after`: 郑怀远政委): there the word around
    says a person is named, so neither the segmenter's cut nor the surname's other uses decide."""
    for col in range(len(line) - 2):
        if line[col] not in ALL_SURNAMES:
            continue  # :func:`_surname_and_given`'s first test, before a call at every character of the line
        name = line[col:col + 3]
        if not _surname_and_given(lex, name) or _someone_word(lex, line[col:col + 2]):
            continue
        if (col >= 2 and _someone_before(lex, line[max(0, col - 4):col])) or _office_after(line[col + 3:col + 6]):
            yield name, col


CLAUSE_START = frozenset("。！？；：，”」\n")
SUBJECT_NEXT = frozenset("就便也又却才都正在已还只")
GIVEN_ALONE_MIN = 3
"""N35: how often a story must say a full name's given name alone (守仁 of 郝守仁) for it to vouch for the full name."""
FOCUS_LEADS = frozenset("连")
"""A surname that is the focus word of 连…都/也 too (连萤火都只叫她, 连针头也): before :data:`FOCUS_ENDS` it starts no name."""
FOCUS_ENDS = frozenset("都也")
MODIFIER_SURNAMES = frozenset("白青蓝黄红绿黑紫灰石木铁铜钢银金玉竹陶马牛羊")
"""fn35: surnames that are a colour, a material or an animal too, said before a thing's word (黄+玉米, 白+馒头, 金+戒指,
石+磨盘, 牛+皮鞋): a full name opening with one vouches for someone only where its given name alone is said of someone
once (:func:`_said_of_someone`: 水生说他, 美玉点点头), not where it only lies, dries and is shared out (玉米晒了)."""
SUBJECT_ACT_TAGS = frozenset("vdp")
"""What a word standing after a subject may be tagged: a verb, an adverb, a preposition (俞向东坐了, 何满仓跟着)."""


def _acts_next(lex: _Lexicon, after: str) -> bool:
    """Whether ``after`` (the characters right after a word) opens what a subject does: an adverb of
    :data:`SUBJECT_NEXT` or a word tagged as in :data:`SUBJECT_ACT_TAGS` (就背着, 坐了, 是在, 从县里)."""
    return bool(after) and (after[0] in SUBJECT_NEXT or lex.tags.get(after[:2], "")[:1] in SUBJECT_ACT_TAGS
                            or lex.tags.get(after[:1], "")[:1] in SUBJECT_ACT_TAGS)


def _clause_subjects(lex: _Lexicon, text: str, size: int) -> Counter[str]:
    """How often each word of ``size`` characters starts a clause of ``text`` and acts (:func:`_acts_next`): one
    pass over the text for every word at once (what :func:`_subject` reads for one word)."""
    acts: Counter[str] = Counter()
    for at in range(len(text) - size):
        if at and text[at - 1] not in CLAUSE_START:
            continue
        word = text[at:at + size]
        if CJK.fullmatch(word) and _acts_next(lex, text[at + size:at + size + 2]):
            acts[word] += 1
    return acts


SOUND_CHARS = frozenset("阿埃艾安昂奥巴拜班邦鲍贝本比彼毕宾波博伯布查达戴丹德迪蒂丁杜敦多厄恩尔法菲斐费芬弗福夫盖甘冈戈格根贡"
                        "古圭哈汉豪赫亨胡怀惠霍基吉加贾杰捷卡凯坎康考柯科克肯库夸奎昆拉莱赖兰朗劳勒雷蕾里利莉丽列林琳隆"
                        "卢鲁伦罗洛吕马玛迈麦曼梅门蒙米敏莫默姆穆纳娜奈南内妮尼宁纽努诺欧帕派潘庞佩彭皮珀普齐奇契乔切钦"
                        "琼萨塞赛桑瑟森沙莎舍什施斯松苏索塔泰坦汤特滕提托图瓦万旺威韦维温沃乌伍西希锡谢辛休雅亚娅扬耶"
                        "伊因尤约扎泽詹兹佐卓茨丝黛")
"""N35: the characters Chinese writes foreign sounds with (the common transliteration syllables: 伊, 万, 诺, 夫, 瓦,
西, 耶, 洛, 佩, 斯): a run of them only, several times the same, is a foreign name (伊万诺夫, 瓦西里耶夫, 洛佩斯)."""
SOUND_MARKS = frozenset("斯尔夫诺娜娅耶蒂莱佩萨玛瓦索莉茨琳洛丝黛")
"""Of :data:`SOUND_CHARS`, the ones native words seldom hold: a transliterated run holds one (维+持 holds none)."""
SOUND_RUN_MIN = 3
SOUND_RUN_LONGEST = 8
SOUND_PLACE_HEADS = ("草原", "高原", "盆地", "油田", "戈壁", "沙漠", "河", "湖", "江", "海", "山", "岭", "峰", "岛", "湾", "港",
                     "省", "市", "县", "旗", "盟", "镇", "城", "州", "乡", "村")
"""fn35: place words a run of sound characters opens (呼伦贝尔+草原, 鄂尔多斯+高原, 额尔古纳+河, 克拉玛依+市): said so once,
the run is a place of the frontier written by sound (Mongolian, Uyghur, Manchu), never a foreign person."""
SOUND_PERSON_BEFORE = re.compile(r"(?:叫|名叫|叫做)(?:他|她)?$|·$")
"""fn35: what right before a run of sound characters says a person is named (叫伊万诺夫, 名叫贝鲁诺尼, 叫他萨莫伊洛夫) or a
foreign full name goes on (卡洛斯·门德斯); not after :data:`SOUND_PLACE_NAMERS` (那地方叫克拉玛依)."""
SOUND_PLACE_NAMERS = re.compile(r"(?:地方|地名|这里|那里|这儿|那儿|城市|草原|油田)[，,]?(?:就|也)?(?:叫|名叫|叫做)$")
PERSON_ACT_AFTER = re.compile(r"^(?:·|[会又也就还便才]?(?:说|讲|问|答|喊|告诉|耸|摇头|点点?头|点了点头|接过|握|拍|骑|叹)|"
                              r"是(?:个|一个|位)?[^，。！？]{1,3}人[，。；！？])")
"""fn35: what right after a word only a person does, besides :data:`AFTER_PERSON` (洛佩斯告诉他, 洛佩斯耸耸肩, 萨莫伊洛夫会说,
水生说他, 美玉点点头, 门德斯是巴西人, 乌尔泰是旗人) or what goes on a foreign full name (卡洛斯·门德斯)."""
PLACE_LEADS = frozenset("在到去从往回过进离穿经抵至于")
"""fn35: a place's preposition or verb of going right before a word (在克拉玛依, 到了…, 穿过…): what follows that word
is no act of someone's."""


def _sound_run_is_place(lex: _Lexicon, line: str, col: int, end: int) -> bool:
    """Whether the run of sound characters at ``line[col:end]`` opens a place word (:data:`SOUND_PLACE_HEADS`) or is cut
    from a real place of the dictionary one character longer (鄂+尔多斯, 尔古纳+河 of 额尔古纳河)."""
    return line.startswith(SOUND_PLACE_HEADS, end) or any(
        lex.tags.get(line[a:b], "").startswith("ns") for a, b in ((col - 1, end), (col, end + 1), (col - 1, end + 1))
        if a >= 0 and b <= len(line))


def _sound_run_is_someone(lex: _Lexicon, line: str, col: int, end: int) -> bool:
    """Whether the words around the run of sound characters at ``line[col:end]`` say a person: a naming verb or a word for
    someone before it (:data:`SOUND_PERSON_BEFORE`, :func:`_someone_before`), a person's act or an office after it
    (:func:`_person_acts_after`, :func:`_office_after`), the act not after a place's preposition (:data:`PLACE_LEADS`:
    在克拉玛依打出)."""
    before, after = line[max(0, col - 6):col], line[end:end + 6]
    if SOUND_PERSON_BEFORE.search(before) and not SOUND_PLACE_NAMERS.search(before):
        return True
    if _someone_before(lex, before[-4:]) or _office_after(after):
        return True
    return _person_acts_after(before, after)


def _person_acts_after(before: str, after: str) -> bool:
    """Whether ``after``, the characters right after a word, opens what a person does (:data:`PERSON_ACT_AFTER`,
    :data:`AFTER_PERSON`) and ``before`` does not end on a place's preposition or verb of going (:data:`PLACE_LEADS`:
    在克拉玛依, 到了克拉玛依), after which the word is where something is done."""
    if before[-1:] in PLACE_LEADS or (before[-2:-1] in PLACE_LEADS and before[-1:] in "了过"):
        return False
    return PERSON_ACT_AFTER.match(after) is not None or AFTER_PERSON.match(after) is not None


def _said_of_someone(text: str, word: str) -> bool:
    """Whether ``text`` says ``word`` once where it names someone (:func:`_acts`, :func:`_person_acts_after`)."""
    if _acts(text, word):
        return True
    at = text.find(word)
    while at >= 0:
        if _person_acts_after(text[max(0, at - 2):at], text[at + len(word):at + len(word) + 6]):
            return True
        at = text.find(word, at + 1)
    return False


def _transliterated_candidates(lex: _Lexicon, lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """``(name, line index, column)`` of each foreign name written by sound (N35): a whole run of
    :data:`SOUND_CHARS` of :data:`SOUND_RUN_MIN` to :data:`SOUND_RUN_LONGEST` characters, one of
    :data:`SOUND_MARKS` among them, said as that same run at least twice; a rare name of the dictionary or none
    (伊万诺夫, 瓦西里耶夫, 勒克莱尔), never a common word or a famous name (马克思, 莫斯科) nor a real place (布鲁塞尔).
    fn35: the kind is read from the text, not assumed: a run that once opens a place word or is cut from a real place
    (:func:`_sound_run_is_place`: 呼伦贝尔草原, 额尔古纳河, 鄂尔多斯) is a place, left to the place readers; a run said
    nowhere as someone (:func:`_sound_run_is_someone`) is a loan word or a place (萨克斯, 克拉玛依): neither is read."""
    runs: Counter[str] = Counter()
    first: dict[str, tuple[int, int]] = {}
    place: set[str] = set()
    someone: set[str] = set()
    for i, line in enumerate(lines):
        col, size = 0, len(line)
        while col < size:
            if line[col] not in SOUND_CHARS:
                col += 1
                continue
            end = col
            while end < size and line[end] in SOUND_CHARS:
                end += 1
            run = line[col:end]
            if SOUND_RUN_MIN <= len(run) <= SOUND_RUN_LONGEST and set(run) & SOUND_MARKS:
                runs[run] += 1
                first.setdefault(run, (i, col))
                if run not in place and _sound_run_is_place(lex, line, col, end):
                    place.add(run)
                if run not in someone and _sound_run_is_someone(lex, line, col, end):
                    someone.add(run)
            col = end
    for run, n in runs.items():
        if n >= 2 and run in someone and run not in place and not lex.common(run) \
                and not lex.tags.get(run, "").startswith("ns"):
            yield run, first[run][0], first[run][1]


def _given_alone_candidates(lex: _Lexicon, lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """``(name, line index, column)`` of someone introduced by full name and called by given name after (N35):
    a surname (any of :data:`ALL_SURNAMES`) and two characters, said where a name stands -- opening a clause and
    acting (，俞向东坐了), or right after a word for someone (闺蜜陶乐乐, 他闺女宫念念) -- whose two last
    characters the story says alone at least :data:`GIVEN_ALONE_MIN` times, more often than the whole, and at
    least twice as the subject of a clause (守仁就, 海燕拖着); a surname of :data:`MODIFIER_SURNAMES` not after a word for
    someone only with the given name said of someone once (fn35: 黄玉米 … 玉米晒了 is corn). The given name's own acts vouch for it whatever its
    characters (向东, 水生, 海燕 are dictionary words too); a surname that is a preposition too stays one where no
    clause opens before it (便向宝琴说道, 一路向东)."""
    text = "\n".join(lines)
    pairs: Counter[str] = Counter(text[at:at + 2] for at in range(len(text) - 1))
    triples: Counter[str] = Counter(text[at:at + 3] for at in range(len(text) - 2))
    subjects = _clause_subjects(lex, text, 2)
    seen: set[str] = set()
    for i, line in enumerate(lines):
        for col, ch in enumerate(line[:-2]):
            if ch not in ALL_SURNAMES:
                continue
            name = line[col:col + 3]
            if name in seen or not CJK.fullmatch(name):
                continue
            given = name[1:]
            alone = pairs[given] - triples[name]
            if alone < GIVEN_ALONE_MIN or alone <= triples[name] or subjects[given] < 2:
                continue
            if ch in FOCUS_LEADS and line[col + 3:col + 4] in FOCUS_ENDS:
                continue  # ，连萤火都只叫: 连…都, the focus, and a nickname
            only_surname = lex.tags.get(ch) == "nr" and ch not in FOCUS_LEADS
            opens = (col == 0 or line[col - 1] in CLAUSE_START) and _acts_next(lex, line[col + 3:col + 5])
            after_someone = col >= 2 and _someone_before(lex, line[max(0, col - 4):col])
            if not only_surname and not opens and not after_someone:
                continue
            if ch in MODIFIER_SURNAMES and not after_someone and not _said_of_someone(text, given):
                continue  # 黄+玉米就晒在场院上 … 玉米晒了: a colour and a thing, the thing said alone
            if lex.common(name) or set(given) & (KIN_CHARS | FUNCTION) or _someone_word(lex, given) or given in STOP:
                continue
            if any(lex.common(line[a:a + 4]) for a in (col - 1, col) if a >= 0 and len(line[a:a + 4]) == 4):
                continue  # 一+叶知秋: the end of an idiom, the word said alone after it is someone else's
            seen.add(name)
            yield name, i, col




def _subject(lex: _Lexicon, lines: list[str], name: str) -> bool:
    """A word said three times or more that starts a clause and acts at least twice (四铭进来了,
    四铭记起了, 四铭呼出了一口气): the subject of the story's sentences, someone."""
    acts = 0
    for line in lines:
        col = line.find(name)
        while col >= 0:
            nxt = line[col + len(name):col + len(name) + 2]
            if (col == 0 or line[col - 1] in CLAUSE_START) and nxt[:1] and (
                    nxt[0] in SUBJECT_NEXT or lex.tags.get(nxt, lex.tags.get(nxt[0], ""))[:1] == "v"):
                acts += 1
            col = line.find(name, col + 1)
    return acts >= 2


def _subject_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]]) -> Iterable[tuple[str, int, int]]:
    """``(name, column, line index)`` of a word no dictionary knows that the story keeps as the
    subject of its sentences: it starts a clause and acts three times or more (眉间尺又觉得,
    眉间尺忽然, 眉间尺心跳着), whatever its characters."""
    acts: Counter[str] = Counter()
    first: dict[str, tuple[int, int]] = {}
    for i, bounds in bounds_of.items():
        line = lines[i]
        for p in bounds:
            if p and line[p - 1] not in CLAUSE_START:
                continue
            for size in (3, 2):
                if p + size not in bounds or line[p] in LEAD_BAD:
                    continue
                word, nxt = line[p:p + size], line[p + size:p + size + 2]
                if len(word) < size or not nxt or lex.freq.get(word) \
                        or word[0] in LEAD_BAD or word[0] in DETERMINERS or set(word) & FUNCTION or not _clean(word) \
                        or not (nxt[0] in SUBJECT_NEXT or lex.tags.get(nxt, lex.tags.get(nxt[0], ""))[:1] in ("v", "d")):
                    continue
                acts[word] += 1
                first.setdefault(word, (p, i))
    text = "\n".join(lines)
    for word, n in acts.items():
        if n >= 3 and text.count(word) >= 4:
            yield word, first[word][0], first[word][1]


KIN_WORD_LEADS = frozenset("表堂外祖岳继养干亲")
"""What starts a word for a relative besides a kinship character: 表叔, 外婆, 祖父, 岳母."""


def _named_person(lex: _Lexicon, word: str, before: str) -> bool:
    """Whether ``word``, introduced by 叫/名叫 after ``before``, is a person's name rather than a
    place's: a surname and two characters that read as a given name (屠千山, 韩铁川), where nothing
    just before names a place, a landform or a counted place (这山叫, 一座叫, 那地方叫)."""
    if len(word) != 3 or word[0] not in SURNAMES or lex.common(word) or lex.common(word[1:]):
        return False
    if before[-1:] and (before[-1] in LANDFORMS or before[-1] in TOWN_SUFFIXES or before[-1] in "座处片条方"):
        return False
    return max(lex.given(word[1]), lex.given(word[2])) >= 0.5


def _kin_word_before(lex: _Lexicon, before: str) -> bool:
    """Whether ``before`` ends in a dictionary word for a relative (姑母, 舅舅, 外婆, 姐夫): a
    surname-led name after it is that relative's (姑母林素)."""
    for k in (3, 2):
        word = before[-k:]
        if len(word) == k and word[-1] in KIN_CHARS | {"夫"} and word in lex.tags \
                and all(c in KIN_CHARS or c in KIN_WORD_LEADS for c in word[:-1]):
            return True
    return False


def _person_noun_before(lex: _Lexicon, before: str) -> bool:
    """Whether ``before`` ends in a dictionary noun for someone by trade (:data:`PERSON_NOUN_ENDS`); only its last three
    characters are read: a caller may give just those (not the line up to each of thousands of 小X: A17, stop 57)."""
    if not before or before[-1] not in PERSON_NOUN_ENDS:
        return False
    return any(lex.tags.get(before[-k:], "") == "n" for k in (2, 3) if len(before) >= k)


OFFICE_TITLES = ("知县", "知府", "县令", "老师", "经理", "局长", "院长", "校长", "主任", "书记", "医生", "教授",
                 "大夫", "科长", "处长", "所长", "厂长", "部长", "团长", "营长", "连长")
"""Offices that name someone after a surname only (汤知县, 钱局长) and are said before or after a full name too
(:data:`PEOPLE_BY_ROLE`, :data:`AFTER_NAME`): one list, read by all three."""
HONORIFIC_TITLES = ("先生", "掌柜", "老板", "师傅", "董事长")
"""Honorifics that name someone after a surname only (孟掌柜) and are said after a full name (:data:`AFTER_NAME`)."""
ROLE_TITLES = ("老头子", "老太婆", "长老", "执事", "和尚", "相公", "道长", "少爷", "小姐", "夫人", "太太", "公子",
               "师父", "郎中", "捕头", "老头", "老汉", "管家", "镖头", "教头", "员外", "大人", "将军", "护法",
               "堂主", "舵主", "帮主", "掌门", "姑娘", "婆子", "秀才", "举人", "道人", "真人", "老道", "副院长",
               "总监", "总裁", "队长", "班长", "乡绅", "孝廉", "老爹", "老丈", "知州", "嬷嬷", "公公", "姑姑",
               "娘娘", "总管", "统领", "副将", "都统", "提督", "巡抚", "典史", "师爷", "律师", "警官", "记者",
               "主编", "导演", "司令", "总编", "尚书", "侍郎", "御史", "学士", "军机", "大军机", "观察", "提举",
               "太守", "刺史", "总兵", "参将", "都督", "丞相", "宰相", "翰林", "中堂", "制台", "抚台", "藩台",
               "道台", "总督", "主事", "千总", "把总", "守备", "寡妇", "瘸子", "麻子", "驼子", "瞎子", "哑巴",
               "铁匠", "木匠", "石匠", "屠户", "裁缝", "货郎") + HONORIFIC_TITLES + OFFICE_TITLES
"""Roles and offices that name someone after a surname only (苏长老, 孟掌柜, 滕和尚, 汤知县): never
after a stem that is no surname (教书先生, 大掌柜)."""
SOMEONE_ENDS = PERSON_NOUN_ENDS | frozenset("童者娃孩仔妞")
PEOPLE_BY_ROLE: dict[str, tuple[str, ...]] = {
    # general Chinese words for someone whose last character no person noun ends in (摊主, 编辑): before a surname
    # and a given name, the word says who is named (摊主马秀英); the rows, not the words of any one book
    "owner": ("摊主", "店主", "房主", "房东", "车主", "船主", "窑主", "矿主", "场主", "东主", "业主", "雇主"),
    "work": ("编辑", "会计", "出纳", "保姆", "厨子", "掌勺", "跑堂", "店小二", "学徒", "徒弟", "向导", "翻译", "主编", "总编"),
    # the offices of OFFICE_TITLES and only those it lacks; 当家, 老板, 老板娘 are STOP's (OFFICES)
    "office": OFFICE_TITLES + ("政委", "主席", "委员", "干事", "参谋", "代表", "副局长", "副厂长", "乡长", "区长", "省长", "排长",
                               "师长", "军长", "护士", "推官", "二当家", "大当家"),
    "tie": ("对象", "未婚夫", "未婚妻", "男友", "女友", "恋人", "情人", "邻居", "房客", "同乡", "老乡", "同伴", "伙伴",
            "搭档", "东家", "恩人", "仇人", "战友", "同志"),
}
"""Words for someone by what they own, do, hold or are to another (:data:`PEOPLE_BY_ROLE`), one row a kind."""
PEOPLE_WORDS = frozenset(w for row in PEOPLE_BY_ROLE.values() for w in row)
AFTER_NAME = frozenset(PEOPLE_BY_ROLE["office"]) | frozenset(HONORIFIC_TITLES) | frozenset(("当家", "同志", "女士", "总经理"))
"""Offices and honorifics said right after someone's full name (郑怀远政委, 钱守义副局长, 白水生同志): a surname and
a given name before one is a person, said once or not."""
AFTER_NAME_SIZES = tuple(sorted({len(w) for w in AFTER_NAME}, reverse=True))
KIN_SAID_SHORT = re.compile(r"(?:他|她|我|你|俺)(?:哥|姐|弟|妹|爸|妈|爹|娘|叔|舅|姨|姑)$")
"""A pronoun and a one-character kin word (她哥吴海生, 我妈): the relative named next."""


def _someone_word(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` is a word for someone: a role or an office (:data:`STOP`), a dictionary noun ending like one
    (记者, 船长), or an unknown one made of a noun and such an end (油锯手)."""
    return word in STOP or word in PEOPLE_WORDS or (word[-1] in SOMEONE_ENDS and lex.tags.get(word, "")[:1] == "n") \
        or (len(word) == 3 and word[-1] in SOMEONE_ENDS and lex.tags.get(word[:2], "")[:1] == "n"
            and lex.tags.get(word[-2:], "")[:1] != "n")


def _asked_candidates(lex: _Lexicon, line: str, body: str) -> Iterator[tuple[str, int]]:
    """``(name, column)`` of each word a quote asks about by name (:data:`ASKED_WHO`): not a pronoun, a word for
    someone or a role, no adverb at its end (“万员外又是谁？”); a dictionary word only when the text says it again."""
    for m in ASKED_WHO.finditer(line):
        word = m.group(1)
        if word in STOP or _someone_word(lex, word) or lex.tags.get(word, "")[:1] == "r" or word[0] in STEM_LEAD_BAD \
                or word[-1] in CLAUSE_ADVERBS or word[-1] == "又" or _adverb_led(lex, word) \
                or (lex.freq.get(word) and body.count(word) < 2):
            continue
        yield word, m.start(1)


_NICK = r"([\u4e00-\u9fff]{2,3})"
NICKNAME_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # others call the person so: 都叫他X, 喊她一声X, 管他叫X (a verb of calling, a pronoun, the word ending the clause)
    ("called", re.compile(r"(?:叫|喊|称|管|唤)(?:他|她)(?:一声|作|做|叫)?[“「]?" + _NICK + r"(?=[”」]?(?:[，。！？；]|$))")),
    # someone asks why the person is called so: 为啥叫X？, 他怎么叫X？
    ("asked", re.compile(r"(?:为啥|为什么|怎么|干吗|干嘛|咋)(?:叫|喊)(?:他|她)?" + _NICK + r"？")),
    # the word opens a quote and addresses someone: “X，你…”, “X，别…”, “X，给我…”, “X！快…” (the quote goes on after the cry;
    # r63-30: any clause after the comma took 小时候，…, 老规矩，… — the after-freeze widening is reverted)
    ("addressed", re.compile(r"(?:[“「]|……)" + _NICK + r"(?:[，,](?=[^，。！？”」]{0,12}[你您]|(?:别|快|给我|帮我|替我|跟我|过来))"
                             r"|！(?=[^”」]))")),
    # the word speaks right after a quote: ”X说, ”X问, ”X笑着
    ("speaker", re.compile(r"[”」]" + _NICK + r"(?=[说问道喊答]|笑着|笑了|叹)")),
    # a sentence defines the word as someone: X是个瘦子, X是船队里年纪最大的船工 (the clause ends on a word for someone)
    ("defined", re.compile(r"(?:^|(?<=[。！？”」]))" + _NICK + r"是(?:个|一个|位|一位)?([^，。！？；“”「」]{0,12}?)(?=[，。；！？])")),
    # a quote asks the word back alone after it was said (“X？”): who is that — checked against the lines before
    ("echoed", re.compile(r"^[“「]" + _NICK + r"？[”」]")),
    # the word opens a clause and makes a person's gesture: X点点头, X一愣, X笑着, X接过
    ("gesture", re.compile(r"(?:^|(?<=[。！？”」，]))" + _NICK + r"(?=点点头|点了点头|摇摇头|摇了摇头|一愣|愣了|笑着|笑了|叹了|咧嘴|"
                                                       r"挠|拍了拍|接过|瞪|皱)")),
)
"""N38 (stop 63): the grammar of a nickname made of an ordinary word (泡面, 钎子, 竹竿, 鸬鹚): each row a way the draft
shows the word as a person -- others call him so, he is asked about or addressed by it, he speaks or makes a person's
gesture under it, a sentence defines it as someone, a quote asks it back. Any word of the class fills the slot (the
verbs of calling, the pronouns, the gestures are general Chinese, not one book's); :func:`_nickname_candidates` needs
:data:`NICKNAME_LINES_MIN` lines of these and guards the word. A name the segmenter cut is read whole the same way
(“邱顺发！” … 邱顺发是…的水客)."""
NICKNAME_LINES_MIN = 2
"""How many lines must show an ordinary word as a person (:data:`NICKNAME_SHAPES`) before it is read as a nickname: one
address or one speaker may be a cry or a thing's line (“畜生，你…”)."""
NICKNAME_ECHO_LINES = 3
"""How many lines before a quote asking a word back (“X？”) must have said it: the echo answers that line."""
NICKNAME_TAGS_BAD = frozenset("rtdcpvaumqfs")
"""The dictionary's tags of a word no nickname is: a pronoun, a time, an adverb, a conjunction, a preposition, a verb, an
adjective, a particle, a numeral, a measure, a direction or a place word (明天，你…; 其实，你…; 放心，你…)."""
PEOPLE_MEASURES = frozenset("个位名")
"""The measure words of people: a word counted by one (那个光头, 一位老先生, 这个小伙子) describes someone, it names nobody."""


def _nickname_word(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` may be a name the draft shows as a person (a nickname made of an ordinary word, or a name the
    segmenter cut, 邱顺+发): a dictionary word that is a noun (no tag of :data:`NICKNAME_TAGS_BAD`), or an unknown word
    that reads clean (:func:`_clean`, no particle or pronoun first); not a word for someone or a relative
    (:func:`_someone_word`, :data:`ROLE_TITLES`, :data:`TITLES`, a kinship character, a rank before such a word: 老+同志,
    a role word of :data:`BEFORE_PERSON`: 丫头, or of :data:`BEFORE_KIN`: 老+同学), no determiner first and no function
    character last (胡说: 说 ends a cry; 地图 is a word)."""
    known = bool(lex.freq.get(word))
    return (lex.tags.get(word, "")[:1] not in NICKNAME_TAGS_BAD if known else _clean(word) and word[0] not in LEAD_BAD) \
        and word not in STOP \
        and not _someone_word(lex, word) and not word.endswith(ROLE_TITLES + TITLES) and not set(word) & KIN_CHARS \
        and not (word[0] in RANKS and _someone_word(lex, word[1:])) and BEFORE_PERSON.search(word) is None \
        and BEFORE_KIN.search(word) is None \
        and word[0] not in DETERMINERS and word[-1] not in FUNCTION


NICKNAME_KIND_ENDS = ("人", "族", "娘", "工", "佬", "汉", "瘦子", "胖子", "矮子", "傻子", "老头", "领班")
"""What ends a kind of person a sentence may define its subject as (瘦子, 北京人, 黎族, 船娘, 船工, 领班, 老头, 大汉); no bare 头,
子 or 班, which end things too (r63-29: 渡口是个小码头, 祠堂是个老房子)."""
NICKNAME_SAID_SHAPES = frozenset(("called", "asked", "speaker", "defined"))
"""The rows of :data:`NICKNAME_SHAPES` that say a word of someone in the third person; one of the lines must show one
(r63-4, -5, -22, -23: an address twice is a term of address or an insult, a gesture twice a body part or a crowd; an echo
with an address is a topic)."""


def _defines_someone(lex: _Lexicon, rest: str) -> bool:
    """Whether ``rest``, what a sentence says its subject is (X是 + ``rest``), ends on a word for someone
    (:func:`_someone_word`: 船工, 领班, 乡邮员) or on a person's kind (瘦子, 北京人, 黎族)."""
    return any(_someone_word(lex, rest[-k:]) for k in (2, 3) if len(rest) >= k) or rest.endswith(NICKNAME_KIND_ENDS)


LIST_NEXT = re.compile(r"([\u4e00-\u9fff]{1,4})[，、]")
"""A short word and a comma or an enumeration comma right after an address's comma: maybe a list's next item."""


def _listed_next(lex: _Lexicon, line: str, at: int) -> bool:
    """Whether what follows a comma at ``at`` is another item of a list: a dictionary noun and a comma (土豆，+白菜，),
    not a clause (毛毡，+出来，)."""
    m = LIST_NEXT.match(line, at)
    return m is not None and lex.tags.get(m.group(1), "")[:1] == "n"


def _nickname_candidates(lex: _Lexicon, lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """``(name, line index, column)`` of an ordinary word the draft shows as a person (:data:`NICKNAME_SHAPES`) on at
    least :data:`NICKNAME_LINES_MIN` lines (N38): a nickname (都喊他泡面 … “泡面？” … 泡面说). Guards: the word may be a
    nickname (:func:`_nickname_word`) and the draft never counts it as a person (:data:`PEOPLE_MEASURES`: 那个光头)."""
    seen: dict[str, dict[int, int]] = {}  # word -> line index -> first column
    said: set[str] = set()  # the words a row of NICKNAME_SAID_SHAPES shows
    for i, line in enumerate(lines):
        for shape, pattern in NICKNAME_SHAPES:
            for m in pattern.finditer(line):
                word = m.group(1)
                if shape == "defined" and not _defines_someone(lex, m.group(2)):
                    continue
                if shape == "addressed" and _listed_next(lex, line, m.end()):
                    continue  # “土豆，白菜，萝卜。”: the first of a list, no one addressed
                if shape == "echoed" and not any(word in before for before in lines[max(0, i - NICKNAME_ECHO_LINES):i]):
                    continue
                seen.setdefault(word, {}).setdefault(i, m.start(1))
                if shape in NICKNAME_SAID_SHAPES:
                    said.add(word)
    shown = {word: where for word, where in seen.items()
             if len(where) >= NICKNAME_LINES_MIN and word in said and _nickname_word(lex, word)}
    # each word counted as a person, read in one pass over the text (not one per word)
    counted = occurring((measure + word for word in shown for measure in PEOPLE_MEASURES), "\n".join(lines))
    for word, where in shown.items():
        if any(measure + word in counted for measure in PEOPLE_MEASURES):
            continue
        i = min(where)
        yield word, i, where[i]


def _someone_before(lex: _Lexicon, before: str) -> bool:
    """Whether ``before`` ends in a word for someone by trade, office or kin (:func:`_someone_word`, :data:`BEFORE_KIN`);
    a naming verb (叫, 名叫) is no such word: what it names may be a place (那地方叫吴家河)."""
    return BEFORE_KIN.search(before) is not None and not before.endswith("唤") or KIN_SAID_SHORT.search(before) is not None \
        or any(_someone_word(lex, before[-k:]) for k in (2, 3) if len(before) >= k)


def _office_after(after: str) -> bool:
    """Whether ``after`` starts with an office or an honorific said after a full name (:data:`AFTER_NAME`)."""
    return any(after[:k] in AFTER_NAME for k in AFTER_NAME_SIZES)


def _has_context(lex: _Lexicon, line: str, col: int, name: str, kind: str, quoted: bool = True) -> bool:
    """Whether the words around ``name`` at ``col`` make it a name. ``quoted``: a word said on its
    own in quotes counts (a word with no name's shape said so is a cry or an insult: “忘八蛋！”)."""
    before, after = line[max(0, col - 4):col], line[col + len(name):col + len(name) + 5]
    if before.endswith("《") and after.startswith("》"):
        return True  # a titled book or technique: 《归元诀》
    if kind != "人物" and IDENTIFIED.search(line[max(0, col - 12):col]):
        return True  # 正是少林的金刚伏魔掌: a thing identified by its name
    if quoted and before.endswith(("“", "「")) and (ALONE.match(after) or after[:1] in ("。", "！", "？")):
        return True  # the name said on its own: “苏晚晴。”, “鹰扬令。二十年前…”
    if kind == "人物":
        called = quoted and before.endswith(("“", "「", "‘")) and after[:1] in ("，", "！", ",", "!")  # “学程！” “柳如烟，…”
        by_trade = _person_noun_before(lex, before) and name[-1] not in KINSHIP  # 船长严鸣鹤; not 经纪人+王姐 (an address)
        kin = (bool(BEFORE_KIN.search(before)) or before.endswith(ROLE_TITLES) or by_trade or _kin_word_before(lex, before)) \
            and (name[0] in SURNAMES or name[:2] in COMPOUND_SURNAMES)  # 她父亲沈国栋, 知县寇若准
        pet = by_trade and len(name) == 2 and name[0] in "小阿" \
            and not lex.common(name)  # 化妆师小鹿: a trade's noun before a pet name; not 厨师+小心
        titled = name[0] in SURNAMES and APPOSITIVE.match(line[col + len(name):col + len(name) + 16]) is not None
        opens = name[0] in SURNAMES and not lex.freq.get(name) and _opens_cleft(line, col, name)
        return bool(called or kin or pet or titled or opens or BEFORE_PERSON.search(before) or AFTER_PERSON.match(after))
    return bool(BEFORE_THING.search(before) or ALONE.match(after) or AFTER_THING.match(after))


TITLES = ("老太太", "老婆子", "嫂子", "老太", "奶奶", "爷爷", "太爷", "老爷", "大爷", "大叔", "大伯", "大娘", "大婶", "大帅", "公公", "婆婆",
          "嫂", "妈", "婶")
"""Kinship and rank words that make a name of a surname or of a name (杨二嫂, 鲁四老爷, 卫老婆子,
柳妈, 七斤嫂, 九斤老太): how much of the world of a story names its minor people."""
RANKS = "一二三四五六七八九十大小老"
CLERGY = re.compile(r"([\u4e00-\u9fff]{2})(法师|禅师|上人|真人|道长|方丈|住持)")
SPOUSE_FORMS = ("太太", "夫人", "婶", "嫂", "大娘", "大婶")
"""A surname with these is mostly someone's wife (方太太 of 方玄绰's house), not the found person."""
REGION = re.compile(r"[东南西北](?:荒|域|洲|漠|疆|境)(?![地外里上内中边])")
RANKED = re.compile(r"([\u4e00-\u9fff])[老小][一二三四五六七八九十]")
TOWN = re.compile(r"([\u4e00-\u9fff])(镇|村|庄|屯|寨|集)(?![\u4e00-\u9fff]{0}[子上里外口头民])")
_TITLE = re.compile(rf"({'|'.join(sorted(TITLES + ROLE_TITLES, key=len, reverse=True))})")
AH_BAD = frozenset("姨爸妈哥姐嫂婆公伯叔爹娘奶爷呀阿哈哟啊弥拉门谀附飘斗胶片拉罗尔米蒙")
INTERJECTIONS = frozenset("哈呵嘿哎唉嗯哦喔咦呸嗳")
NUMERALS = frozenset("一二三四五六七八九十百千万两几")
COUNTING = DETERMINERS | NUMERALS
"""A determiner or a numeral: what counts the measure word after it (那张, 一条); one set, not a union made at each
character read."""
CRY_CHARS = AH_BAD | INTERJECTIONS
"""The characters a cry is made of (阿阿, 哈哈)."""
PET_LEAD_BAD = FUNCTION | NUMERALS | KIN_CHARS | AH_BAD
"""The characters no pet name after a trade's noun is (:data:`_PET`)."""
PARTICLES = frozenset("的了着过地得是在把被和与也都就又还呢吗吧啊")
COUNTED = frozenset("贯文钱两尺寸丈亩里块元角分串吊")
ANIMALS = frozenset("马牛羊龙鱼熊燕鹿虎狐猫狗鸡")


def _title_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, int, int]]:
    """``(name, start, shape)`` of a surname or a coined stem with a kinship or rank word: 杨二嫂,
    鲁四老爷, 卫老婆子, 柳妈, 张大帅, 七斤嫂 — never a rank alone (四婶, 七爷) or a pronoun (他妈);
    a religious name before its title (昙谛法师, 法忍禅师, 玄机真人): two characters no dictionary
    knows as a word."""
    for m in CLERGY.finditer(line):
        at = m.start(1)
        stem = m.group(1)
        if (at in bounds or not lex.freq.get(line[at - 1:at + 1])) and not lex.freq.get(stem) and stem[0] not in STEM_LEAD_BAD and stem[0] not in DETERMINERS \
                and not set(stem) & (FUNCTION | NUMERALS):
            yield m.group(), at, 2
    for m in _TITLE.finditer(line):
        at, end = m.start(), m.end()
        if end < len(line) and line[end] in "子" and m.group() in ("嫂", "婶"):
            end += 1
        if m.group() == "妈" and line[end:end + 1] == "妈":
            continue
        for size in (3, 2, 1):
            start = at - size
            # a surname the segmenter glued to the word before (车夫+周麻子 cut 黄包车|夫周|麻子): two characters
            # no dictionary knows, ending at the title
            glued = size == 1 and start >= 1 and start - 1 in bounds and at in bounds and not lex.freq.get(line[start - 1:at])
            if start < 0 or (start not in bounds and not glued):
                continue
            stem = line[start:at]
            if not CJK.fullmatch(stem) or stem[0] in LEAD_BAD or stem[0] in DETERMINERS:
                continue
            surname = stem[:2] if stem[:2] in COMPOUND_SURNAMES else stem[:1]
            rest = stem[len(surname):]
            if (surname in SURNAMES or surname in COMPOUND_SURNAMES) and (not rest or (len(rest) == 1 and rest in RANKS)):
                yield line[start:end], start, 2  # a surname with its title names someone on its own
                break
            if size == 1 and m.group() in ("老爷", "太太") and stem not in RANKS and stem not in FUNCTION \
                    and stem not in NUMERALS and lex.given(stem) >= 0.5 and not lex.freq.get(line[start:end]) \
                    and start + 1 in bounds:
                yield line[start:end], start, 1  # 慰老爷, 光太太: how older fiction names the gentry, said again
                break
            if m.group() in ROLE_TITLES and m.group() not in TITLES:
                continue
            numeral_name = lex.tags.get(stem, "").startswith("m")  # 七斤嫂, 八一嫂: a child weighed at birth
            if size == 2 and (numeral_name or not lex.common(stem)) and not (set(stem) & FUNCTION):
                given = (not lex.freq.get(stem) or lex.proper(stem)) and m.group() in TITLES \
                    and min(lex.given(c) for c in stem) >= 0.7
                yield line[start:end], start, 1 + given  # 祥林嫂: a given name and a kinship word, said once
                break


def _token_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, str, int]]:
    """``(name, kind, start)`` of a word the dictionary does not know that reads as a name: a
    whole token of 2–3 characters (闰土, 学程, 四铭), a child's name in 儿 (宏儿, 秀儿), 阿 with one
    character (阿毛, 阿Q). Repetition or context must still vouch for it."""
    edges = sorted(bounds)  # offsets in the line (:meth:`_Lexicon.boundaries`): b - a is the token's length
    for a, b in zip(edges, edges[1:]):
        if not 2 <= b - a <= 3:  # most tokens are of one character: told before the token is cut
            continue
        word = line[a:b]
        if not CJK.fullmatch(word):
            continue
        known = lex.freq.get(word)
        if known and (known >= RARE_PAIR or len(word) != 2 or lex.tags.get(word, "")[:1] != "n"):
            continue  # a dictionary word that cannot be the rare noun below (most tokens: decided before weighing)
        strong = all(lex.given(c) >= STRONG_GIVEN for c in word)
        # 玉生, 金凤: a material that is a name's character too, before another no dictionary word holds
        given_like = not lex.freq.get(word) and min(lex.given(c) for c in word) >= 0.6 and word[-1] not in ALL_SUFFIX_WORDS
        # a rare noun of given-name characters (春桃, a peach blossom and a maid) may be someone:
        # with no name's shape, only repetition and context make it one
        rare_noun = len(word) == 2 and strong and 0 < (lex.freq.get(word) or 0) < RARE_PAIR and lex.tags.get(word, "")[:1] == "n"
        if (lex.freq.get(word) and not rare_noun) or word[0] in LEAD_BAD or word[0] in DETERMINERS or word[-1] in NAME_END \
                or (word[0] in MATERIALS and not given_like) or word[:2] in GENERIC_STEMS \
                or set(word) & MIDDLE_BAD or set(word) <= NUMERALS or _holds_role(word):
            continue
        if lex.common(word[:2]) and len(word) == 3:
            continue  # a word and a character glued (江南一)
        if len(word) == 2 and word[-1] in SUFFIX_WORDS and word[0] not in "老阿" and not strong:
            continue  # one character and a place or thing word (寒潭, 古井): the suffix rule's, which wants a real stem
        if word == word[0] * len(word) and word[0] in CRY_CHARS:
            continue  # 阿阿, 哈哈: a cry
        if _A_NOT_A.fullmatch(word) or (word[0] in NUMERALS and word[1] in COUNTED):
            continue  # 大不大, 四贯: a question or a quantity
        if word[0] in SURNAMES or word[:2] in COMPOUND_SURNAMES:
            continue  # a surname-led name: the person rule's, which weighs its given name
        if line[b:b + len(word)] == word or line[a - len(word):a] == word:
            continue  # 改削改削: a verb said twice
        yield word, "人物", a
    for m in _OLD_LETTER.finditer(line):
        yield m.group(), "人物", m.start()  # 老K, as 阿Q
    for m in _OLD_SMALL.finditer(line):
        usual = lex.common(m.group()) and ((lex.freq.get(m.group()) or 0) >= RARE or m.group(1) in ANIMALS
                                           or lex.tags.get(m.group(), "n")[:1] not in "nt")  # 老张, 老周 are someone, 老马 a horse
        if m.group(1) in SURNAMES and m.start() in bounds and (m.end() in bounds or _glued(lex, line, bounds, m.start() + 1)) \
                and not usual:
            yield m.group(), "人物", m.start()  # 老杜, 小陈: what people call someone by the surname
    for m in _PET.finditer(line):  # 化妆师小鹿, 助理阿满: a trade's noun before a pet name says who
        pet, ch = m.group(), m.group(1)
        if m.start() in bounds and m.end() in bounds and _person_noun_before(lex, line[max(0, m.start() - 3):m.start()]) \
                and ch not in PET_LEAD_BAD and lex.tags.get(pet, "n")[:1] in "n" \
                and lex.tags.get(ch, "")[:1] not in VERBISH:
            yield pet, "人物", m.start()
    for m in _AH.finditer(line):
        verb = line[m.start() + 1:m.start() + 3]  # 阿晓得, 阿曾: the Wu dialect's question before a verb or an adverb
        if lex.common(verb) or lex.tags.get(m.group(1), "")[:1] in ("d", "p", "c", "u"):
            continue
        if m.group(1) not in AH_BAD and m.group(1) not in FUNCTION and (not lex.common(m.group()) or m.group(1).isascii()):
            yield m.group(), "人物", m.start()


def _famous_candidates(lex: _Lexicon, lines: list[str], bounds_of: dict[int, set[int]]) -> Iterable[tuple[str, int, int]]:
    """``(name, column, line index)`` of a person jieba's dictionary knows by name (tag nr: 宋江,
    宝玉, 林黛玉) — famous, yet as new to a book's roster as any other. The dictionary's nr tag is
    loose (明白, 和平, 小姐 carry it), so the word must act as someone: said more than once and
    at least once right before speech or a person's gesture (宋江道, 黛玉笑道)."""
    seen: dict[str, tuple[int, int]] = {}
    acts: set[str] = set()
    famous, heads = lex.famous(), lex.famous_heads
    for i, bounds in bounds_of.items():
        line = lines[i]
        for a in bounds:
            if line[a:a + 2] not in heads:
                continue  # no famous name starts here (a name of three starts with a head of two)
            for size in (3, 2):
                b = a + size
                word = line[a:b]  # jieba may glue the next character to it (宋江道): only its start must be a token's
                if word not in famous:
                    continue
                seen.setdefault(word, (a, i))
                if word not in acts and AFTER_PERSON.match(line[b:b + 5]):
                    acts.add(word)
    text = "\n".join(lines)
    for word in seen:  # a full name said once, then the given name alone that acts (林黛玉 … 黛玉道)
        given = word[1:] if len(word) == 3 and word[0] in SURNAMES else ""
        rest = text.replace(word, "") if given and word not in acts else ""
        if any(AFTER_PERSON.match(rest[m.end():m.end() + 5]) for m in re.finditer(given, rest) if given):
            acts.add(word)
    for word in acts:
        if text.count(word) + text.replace(word, "").count(word[1:]) * (len(word) == 3) >= 2:
            col, i = seen[word]
            yield word, col, i


JOINED = re.compile(r"([\u4e00-\u9fff]{1,6})((?:[·・•][\u4e00-\u9fff]{1,6})+)|([\u4e00-\u9fff]{1,6})-([0-9]+|[A-Z][0-9A-Z]*)(?![0-9A-Za-z])")
"""A foreign name's parts joined by a middle dot (罗伊·卡特, 伊芙琳·沈); a name and a number or a
code joined by a hyphen (卡戎-4, 天狼-B: a planet, a ship, a unit)."""
JOIN_EDGE_BAD = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀和与而但却将已很更最给让从对往你我他她它您咱"
                          "每各某此其该几便再即叫找见看说道问称名为有位跑去来到") | GLUED_PREPOSITIONS
"""Characters that end a joined name's part where the prose goes on (我叫+罗伊·卡特, 伊芙琳·沈+是);
before the name a numeral or a measure word too (一趟+卡戎-4), never after it (伊万诺夫)."""
JOIN_LEAD_BAD = JOIN_EDGE_BAD | NUMERALS | MEASURES | frozenset("趟次遍")


_JOIN_TITLES = tuple(sorted(set(TITLES + ROLE_TITLES) | OFFICES, key=len, reverse=True))


def _joined_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, str, int]]:
    """``(name, kind, start)`` of names whose parts are joined by a middle dot or a hyphen: each
    part is the run of characters next to the joint, cut where a particle, a pronoun or a verb
    of saying starts (JOIN_EDGE_BAD) and at a token's edge, without a dictionary word of two
    characters or more before it (关于+卡戎-4) or a title after it (卡特+先生); a numbered part after the dot
    (白夜号·第七车厢) leaves the thing it is part of."""
    for m in JOINED.finditer(line):
        dotted = m.group(1) is not None
        left, left_end = (m.group(1), m.end(1)) if dotted else (m.group(3), m.end(3))
        size = 0
        while size < min(4, len(left)) and left[-1 - size] not in JOIN_LEAD_BAD:
            size += 1
        while size and not (left_end - size in bounds or line[left_end - size - 1:left_end - size] in JOIN_LEAD_BAD):
            size -= 1
        start = left_end - size
        nxt = next((b for b in range(start + 2, left_end) if b in bounds), None)
        if nxt is not None and lex.common(line[start:nxt]) and (lex.freq.get(line[start:nxt]) or 0) >= RARE:
            start = nxt  # 关于+卡戎-4: a word of the prose before the name
        cut = next((j for j in range(left_end - 1, start, -1) if line.endswith(_JOIN_TITLES, 0, j)), None)
        if cut is not None:
            start = cut  # 勘探队长+马库斯·韦: a title before the name, glued by the segmenter
        if left_end - start < (1 if dotted else 2):
            continue
        if dotted:
            parts = re.split(r"[·・•]", m.group(2))[1:]
            if len(parts) == 1 and parts[0][:1] == "第" and parts[0][1:2] in NUMERALS:
                whole = line[start:left_end]  # 白夜号·第七车厢: a numbered part of the named thing, no part of its name
                yield whole, _kind_by_suffix(whole, "地点"), start
                continue
            last, last_at = parts[-1], m.end(2) - len(parts[-1])
            keep = 0
            while keep < min(4, len(last)) and last[keep] not in JOIN_EDGE_BAD:
                keep += 1
            while keep and not (last_at + keep in bounds or line[last_at + keep:last_at + keep + 1] in JOIN_EDGE_BAD):
                keep -= 1
            tail = last[:keep]
            title = next((t for t in _JOIN_TITLES if tail.endswith(t) and len(tail) > len(t)), "")
            tail = tail[:len(tail) - len(title)]
            if not tail:
                continue
            yield line[start:last_at] + tail, "人物", start
        else:
            yield line[start:m.end()], "地点", start


NUMBERED = re.compile(r"[一二三四五六七八九十]{1,3}号")
NUMBERED_STEM_END_BAD = frozenset("第月日天年周期号楼层室间排座栋")
HOUSE_STEM_ENDS = frozenset("里弄")
"""The end of a lane's name (德润+里, 猫耳+弄): a number and 号 after it is a house's door in that lane, its address, never a
vehicle's name (德润里+十七号) (N36)."""


def _numbered_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, int]]:
    """``(name, start)`` of a vehicle's or a probe's name: a noun of two or three characters, one
    token, then a number and 号 (开拓者三号, 神舟五号). Never a date or a place in a row (下月三号,
    第六号, 以前在七号), a part in a cast (男二号: one character), a numbered part of a place
    (空间站七号泊位, 码头三号仓库), a house in a lane (德润里十七号: :data:`HOUSE_STEM_ENDS`) or a run of numbered things
    (三号箱到十号箱: the stem follows a number's 号)."""
    for m in NUMBERED.finditer(line):
        for size in (3, 2):
            start = m.start() - size
            stem = line[start:m.start()] if start >= 0 else ""
            if not stem or start not in bounds or any(b in bounds for b in range(start + 1, m.start())) \
                    or not CJK.fullmatch(stem) or set(stem) & (PARTICLES | DETERMINERS) or stem[-1] in NUMBERED_STEM_END_BAD \
                    or stem[-1] in HOUSE_STEM_ENDS \
                    or (line[start - 1:start] == "号" and line[start - 2:start - 1] in NUMERALS) \
                    or stem[0] in STEM_LEAD_BAD or lex.tags.get(stem, "n")[:1] != "n" \
                    or any(stem.endswith(sfx) for sfx in ALL_SUFFIX_WORDS) \
                    or lex.tags.get(line[m.end():m.end() + 2], "")[:1] == "n":
                continue  # 空间站+七号+泊位: a place's numbered part
            yield line[start:m.end()], start
            break




ORDINAL_FEATURES = "沟卡岭河湾洼梁岔甸"
"""N34: the features a settlement of the northern frontier is named for by their order along a road or a river, 头道 to
九道 (二道沟, 三道卡, 头道卡, 二道洼): a place's name, where 一道/两道 count (一道卡子, 两道沟)."""
ORDINAL_PLACE = re.compile(r"(?<![第十百千零一二两三四五六七八九几])[头二三四五六七八九]道[" + ORDINAL_FEATURES + "](?![子儿上里外边头口])")
"""The order, 道 and the feature, said as no count (not after another numeral or 第: 十二道坎 is twelve slopes) nor a part
of the feature (一道卡子, 沟里, 岭上)."""


ORDINAL_GOES_TO = frozenset("去到进回往来至奔出离")
"""Verbs of going before a place (调去+三道卡); any other verb or an aspect's particle before 三道沟 counts what it made
or crossed (挖了+三道沟, 翻过+两道岭)."""


ORDINAL_COUNTED_AFTER = frozenset("这那些每各上里前都有")
"""fn34: before 三道沟 a demonstrative (这/那/这些/每), a place word (额头上, 地里) or 都/还有/只有 make it a count of
ditches or wrinkles, not a place's name."""


def _ordinal_place_candidates(lex: _Lexicon, line: str) -> Iterator[tuple[str, int]]:
    """``(name, start)`` of a place named for its order along a road or a river (:data:`ORDINAL_PLACE`: 三道沟, 头道卡),
    not right after a verb other than one of going (:data:`ORDINAL_GOES_TO`) nor after 了, 着 or 过."""
    for m in ORDINAL_PLACE.finditer(line):
        before = line[m.start() - 1:m.start()]
        if before in ("了", "着", "过") or (lex.tags.get(before, "")[:1] == "v" and before not in ORDINAL_GOES_TO) \
                or before in ORDINAL_COUNTED_AFTER:
            continue  # 挖了+三道沟, 挖+三道沟, 这+三道沟, 额头上+三道沟: a count of ditches (or of wrinkles)
        yield m.group(), m.start()


def _genitive_candidates(lex: _Lexicon, line: str, body: str) -> Iterator[tuple[str, int]]:
    """``(name, start)`` of a thing named in the literary genitive, a noun 之 a noun (月神之泪, 枯木之心, 静默之瞳):
    said again (a phrase of older prose, 相忌之心, is said once), no word of the dictionary, never a verb's or an
    adverb's phrase. Shape 1: repetition must vouch."""
    for m in re.finditer(r"([\u4e00-\u9fff]{2})之([\u4e00-\u9fff])", line):
        name, owner, head = m.group(), m.group(1), m.group(2)
        if lex.freq.get(name) or lex.freq.get(owner + "之") or body.count(name) < 2 or owner[0] in LEAD_BAD \
                or lex.tags.get(owner, "n")[:1] in VERBISH or lex.tags.get(head, "")[:1] != "n" or set(name) & FUNCTION:
            continue
        yield name, m.start()


SHOP_OWNER_BAD = frozenset("老小阿让叫帮替给请要会先再就也都还又得")
"""Before the owner's character of 某记: an address form (老李) or a verb or adverb, so 记 is "note down"."""
SHOP_MARK = re.compile(r"([\u4e00-\u9fff])记([\u4e00-\u9fff]{2})([\u4e00-\u9fff]?)")


FIRM_KINDS = re.compile(r"股份有限公司|集团有限公司|有限公司|集团|公司")


REGISTERED_PLACE_SIZES = (3, 2)
"""Lengths of the place (内蒙古, 东莞) a firm's registered name opens with, longest first."""


def _firm_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, int]]:
    """``(name, start)`` of a firm named in full: a brand no common word (宏远, 洪埠; no verb and its preposition: 卖给) before its trade
    said in dictionary words (陶瓷, 通用+航空, 新+能源) and the firm's kind (集团, 有限公司). The trade
    alone is no head (远陶瓷集团 is half a name). A place of the dictionary (ns) said right before the brand opens the
    name, as a registered firm's name does (place, brand, trade, kind: 东莞+萤火+智能科技+有限公司; N31)."""
    for m in FIRM_KINDS.finditer(line):
        if m.end() not in bounds:
            continue
        for trade_at in range(m.start() - 2, max(m.start() - 7, 2) - 1, -1):
            head, start = line[trade_at - 2:trade_at], trade_at - 2
            cuts = [b for b in range(trade_at, m.end() + 1) if b in bounds]
            if start not in bounds or trade_at not in bounds or not CJK.fullmatch(head) or head[0] in STEM_LEAD_BAD or head[1] in STEM_END_BAD \
                    or lex.tags.get(head, "")[:1] in VERBISH or (lex.common(head) and not (lex.proper(head) or lex.rare(head))):
                continue  # 一家+航运公司, 转手+游戏公司: a word before the trade, no brand
            if all(lex.freq.get(line[x:y]) and line[x:y] not in FUNCTION and lex.tags.get(line[x:y], "")[:1] in "nvab"
                   for x, y in zip(cuts, cuts[1:])):
                start = next((start - size for size in REGISTERED_PLACE_SIZES
                              if start - size in bounds and lex.tags.get(line[start - size:start], "") in ("ns", "nz")), start)
                yield line[start:m.end()], start
                break


def _shop_candidates(lex: _Lexicon, line: str, bounds: set[int]) -> Iterable[tuple[str, int]]:
    """``(name, start)`` of a shop named 某记 and what it sells (许记+面馆, 周记+布庄, 彪记+海鲜): a
    surname or a given name's character before 记, no dictionary word with it (日记, 忘记, 登记), and
    a trade after it — a dictionary noun or a word ending in a place suffix."""
    if "记" not in line:
        return  # the mark is not there: no pass of the pattern's leading class over every character of the line
    for m in SHOP_MARK.finditer(line):
        owner, trade = m.group(1), m.group(2)
        if owner in LEAD_BAD or owner in DETERMINERS or owner in NUMERALS or (lex.freq.get(owner + "记") and owner not in SURNAMES):
            continue
        if owner not in SURNAMES and lex.given(owner) < 0.5:
            continue
        if line[m.start() - 1:m.start()] in SHOP_OWNER_BAD:
            continue  # 老李+记笔记, 让王+记台词: someone writing something down
        if not (lex.tags.get(trade, "")[:1] == "n" and lex.freq.get(trade)) and trade[-1] not in SUFFIX_WORDS:
            continue
        longer = trade + m.group(3)
        if m.group(3) and (longer[-1] in ALL_SUFFIX_WORDS or longer[-2:] in ALL_SUFFIX_WORDS) and not lex.freq.get(longer):
            yield m.group(), m.start()  # 马记+羊汤馆: the trade and the shop's kind
            continue
        if m.end(2) not in bounds and CJK.fullmatch(line[m.end(2):m.end(2) + 1]) and trade[-1] not in SUFFIX_WORDS:
            continue  # the trade word goes on: 周记+作业本
        yield m.group(1) + "记" + trade, m.start()


BRANCHES = frozenset("子丑寅卯辰巳午未申酉戌亥")


SEASON_ENDS = frozenset("季")
"""The last character of a trade's or the weather's season (榨季 of a sugar mill, 汛季, 茶季, 渔季; N28: U11's 榨季 read as
someone): after a character no surname, no name."""
ADDRESS_LEADS = frozenset("老小阿")
"""The leads of an address form (老季, 小季, 阿季): a person whatever follows."""


def _hour(name: str) -> bool:
    """A double hour (子时, 午时三刻) or a season (榨季, 汛季: :data:`SEASON_ENDS`, no surname before it; 卓季 is a
    name), alone or before the modal verb (冰季+会, 榨季+会: :data:`MODAL_SUFFIXES`, however often it is said; R55):
    a time, never a name."""
    if len(name) == 3 and name[2] in MODAL_SUFFIXES:
        name = name[:2]
    return len(name) >= 2 and name[0] in BRANCHES and name[1] in "时正初" \
        or len(name) == 2 and name[1] in SEASON_ENDS and name[0] not in ALL_SURNAMES and name[0] not in ADDRESS_LEADS


def _counted(text: str, name: str) -> bool:
    """Whether ``name``, read as someone, is a thing counted somewhere in ``text``: a numeral or a determiner and
    a measure word before it (两根艾草, 一把旧折扇), or a measure word that starts it after a numeral
    (一张琴: 张 the measure, not the surname; 一汪咸水, 那包咸鱼: three characters, counted wherever said). A name is never counted; a person is (一个, 一位 are
    not read as counting here: 一位王先生 is someone)."""
    for at in starts_of(name, text):
        before = text[max(0, at - 2):at]
        if len(before) == 2 and (before[0] in NUMERALS or before[0] in DETERMINERS) \
                and (before[1] in THING_MEASURES
                     or (before[1] in SHOP_MEASURES and not name.endswith(tuple(ALL_SUFFIX_WORDS)))):
            return True  # 一把扳钳, 一家米行 (那家云来阁: a shop's name, its suffix says so)
        described = DESCRIBED_COUNT.search(text[max(0, at - DESCRIBED_REACH):at])
        if described and not _counts_its_own(described.group(1)) and not _speaks(text, name):
            return True  # 一块几百斤重的石夯, 一排歪歪扭扭的树: a thing counted, then described (一根筋的李四 speaks: someone)
        if HANDLED.search(text[max(0, at - HANDLED_REACH):at]) and _object_ends(text[at + len(name):at + len(name) + 1]):
            return True  # 熬姜汤, 骑着毛驴从坡上下来: done to a thing (吃王婶做的饭: whose dish, not the dish)
        if name[0] in THING_MEASURES and before[-1:] and (before[-1] in NUMERALS or before[-1] in DETERMINERS) \
                and len(name) == 2:
            return True  # 一张琴
    # 一汪+咸水, 那包+咸鱼 (N37): a measure that is a surname's character, counted every time it is said (这席明月 …
    # 席明月坐着: someone, r62-3); read once, after the loop
    return name[0] in THING_MEASURES and len(name) == 3 and bool(lexicon().freq.get(name[1:])) \
        and all(text[a - 1:a] and (text[a - 1] in NUMERALS or text[a - 1] in DETERMINERS) for a in starts_of(name, text))


THING_MEASURES = frozenset("张根把支枝颗粒块片件条柄杆盏株朵棵本卷封壶碗杯坛瓶道面艘辆幅尊具股缕汪包顶盘席")
"""Measure words that count things, never a person: 一张琴, 两根艾草, 一股焦香, 一缕沉烟 (股 and 缕 a smell, a smoke). N37
(stop 62): the measures that are surnames' characters too, of a pool of water, a packet, a hat or a tent, a dish and a
talk (一汪+咸水, 两包+点心, 一顶+毡帽, 一盘+咸鸭蛋, 一席+话): after a numeral they count, they open no name."""
SHOP_MEASURES = frozenset("家")
"""The measure word of a shop or a firm (一家米行): before a word with no name's suffix it counts a trade's place, not
someone (那家云来阁, with 阁, is a shop's name; 家 the home after a noun is not read: a determiner or a numeral
stands before it)."""
ROW_MEASURES = frozenset("排")
"""A row of things (一排柳树): said with a description between the count and the word, never of one person."""
PERSON_HAS = ("腿", "眼", "手", "脚", "脸", "嘴", "胳膊", "膀子", "指头", "年纪", "心", "筋", "正经", "好心", "痴心", "子")
"""What a description after a count says a person has (一条腿的, 一把年纪的, 一根筋的, 一本正经的, 一股子倔劲的): a person it
may be."""
DESCRIBED_COUNT = re.compile("[" + "".join(sorted(NUMERALS | DETERMINERS)) + "][" + "".join(sorted(THING_MEASURES | ROW_MEASURES))
                             + "](?!" + "|".join(PERSON_HAS) + ")([^的，。！？；：、“”「」\\s]{1,6})的$")
DESCRIBED_REACH = 10
"""How far before a word :data:`DESCRIBED_COUNT` reads: a count, a measure, up to six characters of description, 的."""


def _counts_its_own(description: str) -> bool:
    """Whether the description between a count and 的 (:data:`DESCRIBED_COUNT`) ends in a noun: then the count counts
    that noun (提着+一盏应急灯+的, 有过+一面之缘+的, 一张娃娃脸+的), and the word after 的 is who holds, met or has it,
    not the thing counted; a description that ends in how the thing is (碗口粗, 歪歪扭扭) describes the word after 的."""
    return lexicon().tags.get(description[-1], "")[:1] == "n"


SPEAKS = re.compile(r"(?:[道说问答喊骂笑叹哭]|开口|点头|摇头)")
"""What only someone does right after being named: speaks, calls, laughs, nods (李四说, 李四点头)."""


def _speaks(text: str, name: str) -> bool:
    """Whether ``name`` is somewhere in ``text`` said right before :data:`SPEAKS`: someone, not a thing."""
    return any(SPEAKS.match(text, at + len(name)) for at in starts_of(name, text))


THING_ACTS = ("喝", "吃", "熬", "煮", "炖", "煎", "沏", "舀", "骑", "穿", "擦", "剥", "晒", "腌", "锯")
"""Acts done to a thing, a dish or a beast, never to a person: one drinks, eats, cooks or ladles it (熬米粥,
舀凉水), rides it (骑着骆驼), wears it (穿棉袄), wipes, peels, dries or saws it (剥豆子, 锯木头); 磨 and 研 are left
out (折磨, 琢磨 and 钻研 take a person). The verb
stands right before the word, or with 着, 了 or 过 (骑着骡子, 熬了米粥); the word ends there (:func:`_object_ends`)."""
THING_ACT_AFTER_BAD = frozenset("揭看贯刺说望戳拆盘吆怒厉呼")
"""What makes the act's character part of another verb that takes a person (揭穿, 看穿, 拆穿, 盘剥, 吆喝; 怒喝, 厉喝,
呼喝: 喝 shouted at someone, not drunk)."""
HANDLED = re.compile("(?<![" + "".join(sorted(THING_ACT_AFTER_BAD)) + "])(?:" + "|".join(THING_ACTS) + ")[着了过]?$")
HANDLED_REACH = 3
"""How far before a word :data:`HANDLED` reads: the act, 着/了/过, and the character before the act."""
OBJECT_NEXT = frozenset("了着过从往向到在进出上下回去来，。！？；、：”」…—\n")
"""What may follow the thing an act is done to: an aspect, a preposition or a direction, a stop (骑着毛驴从坡上下来,
熬姜汤。); anything else may make the word whose thing it is (吃王婶做的饭, 喝李四的酒)."""


def _object_ends(after: str) -> bool:
    """Whether ``after`` (the character after a word, or nothing at the text's end) ends the object of an act
    (:data:`OBJECT_NEXT`)."""
    return not after or after in OBJECT_NEXT


UNIT_LEAD_BAD = frozenset("的了着过地得在是不也都就又还把被这那哪个些么吗呢吧啊呀和与而但却将已很太更最给让从对往每各某此其该几有没无"
                          "你我他她它您咱们仔及之于以为到向说道问叫见看听去来找进出在姓称唤号做作") | DETERMINERS | MEASURES
"""What comes before a name, never inside one: a particle, a pronoun, a preposition, a verb of
saying, seeing or going, a measure word."""
UNIT_MAX = 5


def _whole_unit(text: str, name: str, known: set[str]) -> str:
    """``name`` grown to the left while every one of its occurrences (two or more) follows the
    same character: a name the draft says again and again is said whole each time (疤脸+老七,
    九转回+元丹, 锁+龙井); a word that also stands alone, or follows different words, stays as it is.
    A verb, a particle or a pronoun before it (来到, 的, 他) ends the growth, as does a known name."""
    starts = list(starts_of(name, text))
    if len(starts) < 2:
        return name
    while len(name) < UNIT_MAX:
        before = {text[s - 1:s] if s else "" for s in starts}
        if len(before) != 1:
            break
        ch = before.pop()
        if not ch or not CJK.fullmatch(ch) or ch in UNIT_LEAD_BAD or any(k in ch + name for k in known if ch in k):
            break
        if ch in THING_MEASURES and all(text[s - 2:s - 1] in COUNTING for s in starts):
            break  # 一壶+梨花酒, 那壶+梨花酒: a measure word counting the thing, no part of its name
        name, starts = ch + name, [s - 1 for s in starts]
    return name


UNIT_RIGHT_MIN = 3


def _whole_unit_right(lex: _Lexicon, text: str, name: str) -> str:
    """``name`` grown to the right while every one of its occurrences (three or more) goes on
    with the same character: a transliterated name the segmenter cut (阿卜+杜勒 said eight times
    whole). A character that ends a name's run (a particle, a verb of saying, a place word, a
    suffix) ends the growth, as does a verb or an adverb no given name carries (老猫+蹲 said three
    times is still 老猫)."""
    starts = list(starts_of(name, text))
    if len(starts) < UNIT_RIGHT_MIN:
        return name
    grown = name
    while len(grown) < UNIT_MAX:
        after = {text[s + len(grown):s + len(grown) + 1] for s in starts}
        if len(after) != 1:
            break
        ch = after.pop()
        if not ch or not CJK.fullmatch(ch) or ch in NAME_END or ch in UNIT_LEAD_BAD or ch in LOCALIZERS \
                or ch in ALL_SUFFIX_WORDS or ch in PARTICLES \
                or (lex.tags.get(ch, "")[:1] in VERBISH and lex.given(ch) < 0.5):
            break
        grown += ch
    return grown


ESTABLISHMENT_ENDS = frozenset("院团社厅馆场园吧厂店楼铺")
"""The last character of a word for an establishment that is no verb, modal or paper on its own (会 a modal, 所 所说,
行 a verb; 报, 局, 队 and 司 other words): after a word said again and again, it ends an establishment's name (九如银+楼,
恒丰+丝线铺)."""
ESTABLISHMENT_TAIL = 3
"""The longest establishment word read after a word said again and again (丝线+铺: an everyday word and its kind)."""
ESTABLISHMENT_SAID = 2
"""How often a word must be said, each time followed by the same establishment word, to be read with it."""


def _whole_institution(lex: _Lexicon, text: str, name: str) -> str:
    """``name`` (read as someone) with the word for an establishment that follows it every time it is said (at least
    :data:`ESTABLISHMENT_SAID` times): one of :data:`ESTABLISHMENT_ENDS`, alone (九如银+楼) or after an everyday word
    (恒丰+丝线+铺, 德兴+茶叶+店); else ``name``. The longest such tail wins; one character alone never where it starts a
    word with the next (林晓+楼下, 王五+店里), nor a particle (柯望舒+吧？: 吧 ends the sentence)."""
    starts = list(starts_of(name, text))
    if len(starts) < ESTABLISHMENT_SAID:
        return name
    end = len(name)
    for size in range(ESTABLISHMENT_TAIL, 0, -1):
        tails = {text[s + end:s + end + size] for s in starts}
        if len(tails) != 1:
            continue
        tail = tails.pop()
        if len(tail) != size or tail[-1] not in ESTABLISHMENT_ENDS:
            continue
        if size > 1 and lex.common(tail[:-1]):
            return name + tail
        if size == 1 and tail not in PARTICLES \
                and not any(lex.freq.get(text[s + end:s + end + 2]) for s in starts):  # 林晓+楼下: below, no 林晓楼; 吧 the particle
            return name + tail
    return name


LITERARY_LEADS = frozenset("余吾予汝尔或若幸私")
ACTS_AFTER = re.compile(r"^(?:家[^具常伙里]|那个人|这个人|那人|这人)")


PLACE_COUNTS: dict[str, int] = {"片": 4, "家": 1}
"""Measure words that count a place as one of its kind, with the longest everyday stem before its kind word each
allows: a stretch of land (一片碎石滩, 一片黑色的砾石滩) before any common word; a shop (一家小饭馆, 一家钱庄) before one
character only (那家彩霞阁 is a shop's name). 个, 座 and 间 are left out: a named place is said with them too (还有一个
黄昏大厅, 一座青云山)."""
COUNTED_PLACE = re.compile("[一这那]([" + "".join(sorted(PLACE_COUNTS)) + "])(?:[^的，。！？；：、“”「」\\s]{1,6}的)?$")
COUNTED_PLACE_REACH = 10
"""How far before a place :data:`COUNTED_PLACE` reads: the count, its measure, up to six characters of description, 的."""


def _place_stem(name: str) -> str:
    """``name`` without the longest place, group or thing suffix it ends with (小+饭馆, 碎石+滩), or ``name`` itself."""
    return next((name[:-len(suffix)] for suffix, _kind in CANDIDATE_SUFFIXES
                 if name.endswith(suffix) and len(name) > len(suffix)), name)


def _counted_place(lex: _Lexicon, text: str, name: str) -> bool:
    """Whether ``name``, read as a place or a group, is somewhere in ``text`` counted as one of its kind
    (:data:`PLACE_COUNTS`; a description and 的 may stand between: 一片黑色的砾石滩) while what comes before its kind
    word is an everyday word no longer than that measure allows (小, 碎石): a place of the story's world, not its
    name. A coined stem (一家悦来客栈) stays a name."""
    stem = _place_stem(name)
    if stem == name or not lex.common(stem):
        return False
    for at in starts_of(name, text):
        m = COUNTED_PLACE.search(text[max(0, at - COUNTED_PLACE_REACH):at])
        if m and len(stem) <= PLACE_COUNTS[m.group(1)]:
            return True
    return False


def _acts(text: str, name: str) -> bool:
    """Whether ``name`` is said, somewhere in ``text``, right before speech, a person's gesture or
    a household (黄三炮道, 黄三炮家, 黄三炮那个人), right after a word for someone (东家白守仁) or opening a
    sentence that says 是…的 of it (齐春生是腊月初三进的…, :func:`_opens_cleft`): someone, not a thing."""
    at = text.find(name)
    while at >= 0:
        after = text[at + len(name):at + len(name) + 5]
        if AFTER_PERSON.match(after) or ACTS_AFTER.match(after) or BEFORE_PERSON.search(text[max(0, at - 4):at]) \
                or _opens_cleft(text, at, name):
            return True
        at = text.find(name, at + 1)
    return False


GROUP_ENDS = frozenset("帮派会盟教宗")
"""The last character of a dictionary word for a group (马帮, 教会): a surname before it makes no one."""
STOOD_ON = re.compile(r"^(?:上(?![了来去前场车楼台班课学路岸马门过着])|下面|底下|边上|旁边)")
"""On or beside a thing (江堤上, 鱼摊边上); 上 as a verb after someone (李四上了车, 上场) is none of these."""


def _stood_on(text: str, name: str) -> bool:
    """Whether ``name`` is somewhere said before a word for where on or beside it (江堤上, 鱼摊边上) and never
    acts (:func:`_acts`): a place or a thing one stands on, not someone."""
    at = text.find(name)
    while at >= 0:
        if STOOD_ON.match(text[at + len(name):at + len(name) + 2]):
            return not _acts(text, name)
        at = text.find(name, at + 1)
    return False


GLUED_GIVEN = 0.2
"""Below this :meth:`_Lexicon.given` score a character seldom stands in a given name (乙, 装, 碍)."""


def _glued_to_surname(lex: _Lexicon, name: str) -> bool:
    """Whether ``name``, a surname's character and two more, is that character glued to a phrase (单+乙七更, 林班+装,
    张+余睫 of 不能张余睫): one of the two seldom stands in a given name (:data:`GLUED_GIVEN`) and the two are no
    dictionary word (乡绅, 寡妇 are: 王乡绅 is someone). Said once and with no context, it is no one."""
    return len(name) == 3 and surname_of(name) == name[0] and min(lex.given(ch) for ch in name[1:]) < GLUED_GIVEN \
        and not lex.freq.get(name[1:])


MODALS = frozenset("要想会能该得敢肯愿可须")


def _adverb_led(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` (three characters or more) opens with an adverb, a modal, a pronoun or a
    conjunction of the dictionary before more words — a predicate, not a name: 真+外行, 要+进京,
    如何+不气, 已经+走了. A character that is a given name's too (正, 真) counts only before a
    dictionary word (真+外行); a name's first character before a coined rest (真如雪) does not."""
    if len(word) < 3:
        return False
    for size in (2, 1):
        head, rest = word[:size], word[size:]
        tag = lex.tags.get(head, "")[:1]
        if size == 2 and tag in "drcp" and lex.common(head):
            return True
        if size == 1 and (tag in "drcp" or head in MODALS) and (lex.given(head) < 0.5 or lex.common(rest)) \
                and (lex.common(rest) or lex.common(rest[:2])):
            return True
    return False


SERIAL = re.compile(r"(?:第[一二三四五六七八九十百千零〇两0-9]+[\u4e00-\u9fff]|[一二三四五六七八九十百千零〇两0-9]+[台架辆艘间])$"
                    r"|[甲乙丙丁戊己庚辛壬癸]字?号")
"""A serial, an ordinal or a count that is the whole word: 第九环, 十二台, 丙字号 (a ring of a well, twelve machines, a
store in a row of 甲/乙/丙) — a place in a sequence, not a name. An ordinal before a word of its own is left to the
other rules (第七避难所 and 七号码头 are names, 七号病房 is not), as is a number after the stem (矶头一号, 跃进号)."""


def _serial(name: str) -> bool:
    """Whether ``name`` is a serial, an ordinal or a count (:data:`SERIAL`)."""
    return SERIAL.match(name) is not None


ORDERED_KIN = frozenset("哥姐弟妹爹娘爸妈叔婶舅姨姑")
"""One-character kin words that may stand between 叫 and the act ordered (叫我+哥+念, 叫他+娘+来): a relative told to act."""


def _ordered_act(lex: _Lexicon, word: str) -> bool:
    """Whether ``word``, what 叫 (or 叫 + a pronoun) introduces, is someone told to act, not a name (N38): a person (人)
    or a one-character kin word (:data:`ORDERED_KIN`) and then a verb (叫人+去刻石, 叫人+打底脚, 叫我+哥+念), or a verb of
    two characters and another verb, what no dictionary holds whole (叫他+打开+念). 叫他阿福, 叫她来福 (no verb of two
    characters), 叫他+充电+宝, 叫+生锈+齿轮 (a verb and a thing: a thing's or a nickname's name) stay names."""
    def verb_led(rest: str) -> bool:
        return bool(rest) and (lex.tags.get(rest[:2], "")[:1] == "v" or lex.tags.get(rest[:1], "")[:1] == "v")
    if word[0] == "人" or word[0] in ORDERED_KIN:
        return len(word) >= 2 and verb_led(word[1:])
    return len(word) >= 3 and lex.tags.get(word[:2], "")[:1] == "v" and verb_led(word[2:]) and not lex.freq.get(word)


def _person_tail_clause(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` is 人 (the end of a person noun: 守灯人, 那个人, 叫人) glued to the dictionary word the clause
    goes on with: 人+醉酒, 人+嗓门, 人+头晕. No surname is 人, and a name's stem does not open on it."""
    return len(name) >= 3 and name[0] == "人" and lex.common(name[1:])


CLAUSE_ADVERBS = frozenset("也就都还却便再已")
"""Adverbs that carry a clause on from its subject (小吴+也行, 水+就来了); each is rare in given names."""


def _adverb_tailed(lex: _Lexicon, word: str, named: bool = False) -> bool:
    """Whether ``word`` (three characters or more) ends in an adverb of the dictionary the clause goes on with — a
    noun glued to its predicate, not a name: 牛+终于, 水+终于, 小吴+也行 (one of :data:`CLAUSE_ADVERBS` before a
    word). The mirror of :func:`_adverb_led`. A word said in a naming frame (叫石敢当) is read for the clause adverbs
    only: a name may end in two characters the dictionary calls an adverb (敢当)."""
    if len(word) < 3:
        return False
    tail = word[-2:]
    if not named and lex.tags.get(tail, "")[:1] == "d" and lex.common(tail) and min(lex.given(c) for c in tail) < 0.5:
        return True  # 谭+立新 reads as a given name, though the dictionary has 立新 as an adverb
    return tail[0] in CLAUSE_ADVERBS and lex.common(tail[1])


def _subject_adverb_glued(text: str, name: str) -> bool:
    """Whether ``name`` (three characters or more) is a subject the draft says more often on its own, glued to one of
    :data:`CLAUSE_ADVERBS` the clause goes on with: 初雪+就是…, 老周+也来了, 阿福+都知道 (N37, stop 62). The mirror of
    :func:`_verb_glued` at a name's end; a name ending in such a character is said whole as often as its head."""
    return len(name) >= 3 and name[-1] in CLAUSE_ADVERBS and text.count(name[:-1]) > text.count(name)


EASE_HEADS = frozenset("好难")
"""Characters that before a one-character verb make an adjective of ease (好走, 难走, 好找, 难缠): 路+好走, 门+难进 — a
noun and its predicate, though a surname (路, 门) may open the pair (N37, stop 62)."""


def _ease_predicate(lex: _Lexicon, text: str, name: str) -> bool:
    """Whether ``name`` (two characters, read as someone) ends in one of :data:`EASE_HEADS` that, every place it is said,
    stands before a verb's character (路好+走了些, 这事难+办): a noun and how easy it is, not a person."""
    if len(name) != 2 or name[-1] not in EASE_HEADS:
        return False
    nexts = [text[at + 2:at + 3] for at in starts_of(name, text)]
    return bool(nexts) and all(n and lex.tags.get(n, "")[:1] == "v" for n in nexts)


VERB_SLOT_LEADS = frozenset("会能要想肯敢去来再又还正地着")
"""What stands right before an act: a modal (会+画草图, 想+学手艺), an adverb of it, 地 of manner (一张一张地+画草图), 着
of a second act: a word said only after one is a verb and its object, not a thing's name (N37, stop 62)."""


def _verb_object(lex: _Lexicon, text: str, name: str) -> bool:
    """Whether ``name`` (three characters, read as a thing) is one character and a noun or a verbal noun of the
    dictionary (画+草图, 学+手艺, 写+对联), said only right after one of :data:`VERB_SLOT_LEADS`: an act and its object."""
    if len(name) != 3 or not lex.tags.get(name[1:], "").startswith(("n", "vn")) or not lex.common(name[1:]):
        return False
    befores = [text[at - 1:at] for at in starts_of(name, text)]
    return bool(befores) and all(b and b in VERB_SLOT_LEADS for b in befores)


PREDICATE_TAIL_TAGS = frozenset("af")
"""Dictionary tags of a word that, after a common noun, is the noun's predicate or its localizer: an adjective
(风+大, 炮仗+响亮) or a localizer (井+边, 船+上)."""
PREDICATE_GIVEN = 0.6
"""At or above this :meth:`_Lexicon.given` score a character may stand in a given name (国强, 志刚: names)."""


def _predicate_tailed(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` (read as someone) is a common noun glued to the adjective or the localizer after it — the clause
    风+大, 天+黑, 船+上, not a name: the tail is a dictionary word of :data:`PREDICATE_TAIL_TAGS`, the head a
    dictionary word that opens on no surname, and no character of it reads as a given name's
    (:data:`PREDICATE_GIVEN`: 国强, 天明 stay). Not read of a word a naming frame read: 叫扎+西 is a name."""
    for cut in (len(word) - 2, len(word) - 1):
        head, tail = word[:cut], word[cut:]
        if head and lex.tags.get(tail, "")[:1] in PREDICATE_TAIL_TAGS and lex.common(tail) and lex.common(head) \
                and head[0] not in ALL_SURNAMES and max(lex.given(ch) for ch in word) < PREDICATE_GIVEN:
            return True
    return False


TRADE_ENDS = PERSON_NOUN_ENDS | frozenset("丁")
"""The last character of a word for someone by trade (:data:`PERSON_NOUN_ENDS` and 丁 of 园丁, 家丁, 兵丁)."""
TRADE_LEADS_OK = frozenset("老小阿大")
"""Leads that make an address form of a surname before a trade word's end (小丁, 老史): not a trade word."""


def _trade_word(lex: _Lexicon, word: str) -> bool:
    """Whether ``word`` is a common word and one of :data:`TRADE_ENDS` — a kind of people by trade, not someone's name:
    旗+丁, 灶+户, 驼+夫(们). A surname or one of :data:`TRADE_LEADS_OK` before it opens a name."""
    word = word[:-1] if word.endswith("们") else word  # 驼夫们: the trade word's plural
    head = word[:-1]
    return len(word) >= 2 and word[-1] in TRADE_ENDS and head[0] not in ALL_SURNAMES and head[0] not in TRADE_LEADS_OK \
        and lex.common(head)


COUNTY_TAGS = ("ns", "nrt")
"""Dictionary tags of a real county's or city's name (潮安, 莱阳: ns; 顺德, 嵊泗: the dictionary's nrt)."""


def _county_led(lex: _Lexicon, name: str) -> str:
    """``name`` without the real county or city said before a village or a town no dictionary knows — an address's
    first part, not the village's name: 潮安+蔗林村, 富阳+桐坞村, 莱阳+石臼村 → 蔗林村, 桐坞村, 石臼村. The county is a
    two-character place of the dictionary (:data:`COUNTY_TAGS`), the rest a two-character stem and one of
    :data:`SETTLEMENTS`; otherwise ``name`` unchanged (N27)."""
    county, rest = name[:2], name[2:]
    if len(rest) == 3 and rest[-1] in SETTLEMENTS and lex.tags.get(county, "").startswith(COUNTY_TAGS) \
            and not lex.freq.get(rest) and not lex.common(rest[:2]):
        return rest
    return name


def _keep_tails(candidates: dict[str, _Candidate], tails: dict[str, str], known: Collection[str] = (), kind: str = "") -> None:
    """Each candidate of ``tails`` (read once, before any is changed) becomes its tail, the name its head only places or
    titles: moved to the tail's offset, given ``kind`` when one is given, and dropped when the tail is ``known`` or
    already a candidate (that one is kept)."""
    for name, tail in tails.items():
        c = candidates.pop(name)
        if tail in known or tail in candidates:
            continue
        c.name, c.kind = tail, kind or c.kind
        c.first = (c.first[0], c.first[1] + len(name) - len(tail))
        candidates[tail] = c


OFFICE_ENDS = frozenset("长官")
"""The last character of a word for an office (巡长, 局长, 提调官, 书记官): before a full name, the title the person holds
(r64-n39)."""


def _office_led(lex: _Lexicon, name: str) -> str:
    """The person's full name when ``name`` is an office's word and a full name in apposition (巡长+方镇川, 提调官+孙文炳):
    in Chinese the title stands before the name (局长王明) and is no part of it; otherwise ``name`` unchanged. The office
    is two or three characters ending in one of :data:`OFFICE_ENDS` and no surname-led name of its own (长 and 官 close no
    given name there: 司长青 is 司+长青); the name a surname and one or two characters that make no common word (班长+方才,
    队长+方便 are an adverb and an adjective after the title)."""
    for cut in (2, 3):
        office, rest = name[:cut], name[cut:]
        if office[-1] in OFFICE_ENDS and 2 <= len(rest) <= 3 and rest[0] in SURNAMES and office[0] not in SURNAMES \
                and not lex.common(rest) and not lex.common(rest[1:]):
            return rest
    return name


GLUED_LEAD_OK = frozenset("老小大阿新旧东西南北上下前后内外中")
"""Characters a name may open on before a name of its own (新+柳树湾, 老+鹰嘴, 北+岔): none is a verb glued before one."""


def _verb_glued(lex: _Lexicon, text: str, name: str) -> bool:
    """Whether ``name`` (three characters or more) is one character glued before a word the draft says on its own
    more often than with it — the verb, preposition or measure before an object, not a name: 趟+西州, 经+占城,
    走+吕宋, 替+雷氏矿业, 座+鬼庙, 指+窗台. A surname, an adjective or one of :data:`GLUED_LEAD_OK` opens names, as
    does the order of a place named for it (三+道卡 beside 一道卡子: :data:`ORDINAL_PLACE`)."""
    lead, rest = name[0], name[1:]
    if len(name) < 3 or lead in GLUED_LEAD_OK or lead in ALL_SURNAMES or lex.tags.get(lead, "")[:1] == "a" \
            or ORDINAL_PLACE.fullmatch(name):
        return False
    return text.count(rest) > text.count(name)


PLACE_KIND_ENDS = frozenset("城县")
"""A town's or a county's word after a place's name says what kind of place it is (拉萨+城, 邵阳+县)."""


def _place_with_its_kind(lex: _Lexicon, text: str, name: str) -> bool:
    """Whether ``name`` is a name the dictionary knows (tag nr or ns), said on its own in the draft too, with a word
    for a place's kind after it (沙州+城外 beside 沙州, 拉萨+城外 beside 拉萨, 邵阳+县): the place itself, not a new
    one. A coined stem or a common word (望川县, 落日城, 黑水城) is left to the other rules, as is a stem never said
    alone (青阳城)."""
    stem = name[:-1]
    return len(name) >= 3 and name[-1] in PLACE_KIND_ENDS and lex.tags.get(stem, "").startswith(("nr", "ns")) \
        and (text.count(stem) > text.count(name) or _real_county_or_city(lex, name))


COMMON_STEM_RATIO = 100
"""How many times more often than as a county or a city (stem+县, stem+市) the dictionary counts a stem said alone when
the stem is a common word first (太平 1113 to 太平县 10, 安宁, 永安, 龙门, 新城): a town of a book's own named with it
(太平县, 永安城) is no real place. Real ones are said with their kind far more (扬州 30 times, 昆山 49 — R58b, stop 58)."""
REAL_PLACE_KIND = {"县": "县", "城": "市"}
"""The dictionary's word a real place is filed under, by the kind said after its name: a county (莱阳+县 → 莱阳县),
a city's town (扬州+城 → 扬州市)."""


def _real_county_or_city(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` (a place's name and 城 or 县) is a real county's or city's: the dictionary tags the stem a
    place (:data:`COUNTY_TAGS`) and files it as a county or a city (:data:`REAL_PLACE_KIND`: 莱阳县, 扬州市). A coined
    stem (望川县, 落日城), a real county's name with 城 (青阳城: the dictionary knows 青阳县, no 青阳市) or a stem that is
    a common word first (:data:`COMMON_STEM_RATIO`: 太平县, 永安城) is a name of the book's own (N33)."""
    stem, kind = name[:-1], REAL_PLACE_KIND.get(name[-1:])
    return kind is not None and lex.tags.get(stem, "").startswith(COUNTY_TAGS) and lex.tags.get(stem + kind) == "ns" \
        and (lex.freq.get(stem) or 0) <= COMMON_STEM_RATIO * (lex.freq.get(stem + kind) or 0)


A_NOT_A_INSIDE = re.compile(r"(.)[不没]\1")
"""A verb, 不 or 没, and the verb again (看没看过, 去不去): a question, in no name."""
PLACING_ACTS = frozenset("靠倚挨摆放搁挂贴停叫喊")
"""Everyday verbs of leaning, placing, stopping and calling whose object is a place or a thing (船+靠+码头, 宿舍+靠+门,
在玉林路+摆+路边摊, 姐+叫+茶园的伙计): one of them between two nouns is a clause read across a name's boundary."""


def _act_inside(lex: _Lexicon, name: str) -> bool:
    """Whether ``name``, as the dictionary cuts it, holds one of :data:`PLACING_ACTS` as a word of its own between two
    nouns (船+靠+码头, 女宿舍+靠+门, 姐+叫+茶园, 玉林路+摆+路): a subject, its verb and its object, not a place. A coined
    name's verb character is another (鹰+愁+涧, 凤+栖+殿, 雁+归+楼), or the verb between one character and a feature of
    the land (:data:`FEATURE_CHARS`: 马+停+坡, a coined place, three characters in all). A verb asked as A-not-A
    (看没看过+公司, 去不去) is a question read across the boundary too."""
    if A_NOT_A_INSIDE.search(name):
        return True
    if len(name) == 3 and name[2] in FEATURE_CHARS:
        return False
    tokens = lex.jieba.lcut(name, HMM=False)
    tags = [lex.tags.get(t, "") for t in tokens]
    return any(tokens[i] in PLACING_ACTS and tags[i - 1][:1] == "n" and tags[i + 1][:1] == "n" for i in range(1, len(tokens) - 1))


def _household(name: str) -> bool:
    """Whether ``name`` is a surname and 家, a household (俞家的灶, 贺家的班子), not someone: the family's people
    and the troupe or firm it keeps (贺家班) are named on their own."""
    return len(name) == 2 and name[1] == "家" and name[0] in ALL_SURNAMES


COLOURS = frozenset("白青蓝黄红绿黑紫赤灰")
"""Colour characters: each a surname too (白, 黄), and each the first of many words for a thing (白沙, 青槐, 黄泉)."""


def _coloured_thing(name: str) -> bool:
    """Whether ``name`` is a colour and one character more (白沙, 青槐, 蓝鲸, 白光, 白鹭): read as someone only
    because a colour is a surname's character too. Said with no context (no act, no address), it is a thing of
    that colour; someone so named (白露, 黑子, 红姑) acts or is spoken to."""
    return len(name) == 2 and name[0] in COLOURS


CALLED_BY_ENDS = KIN_CHARS | frozenset("君")
"""The last character of a dictionary word one calls someone by what they are (阿妈, 郎君, 老爷)."""
CALLED_BY_LEADS = frozenset("老小大")
"""What one puts before such a word to address someone by it (老阿妈, 小郎君)."""


def _address_word(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` is 老, 小 or 大 before a dictionary word for a relative or an address (老+阿妈, 小+郎君): what
    someone is called by what they are, not a name, even in a naming frame (叫他小郎君). A nickname of ordinary words
    (老黄牛, 小哑巴) ends in no such word; a surname before one (王+老爷, 刘+公公) opens on no such lead."""
    return len(name) >= 3 and name[0] in CALLED_BY_LEADS and name[-1] in CALLED_BY_ENDS and bool(lex.freq.get(name[1:]))


MISREAD_FREQ = 100
"""From this dictionary frequency on, a word tagged as a person's name is mostly a common word the tagger misread
(柳树 248, 祖师爷 207, 罗盘): a coined person's name is rare in the dictionary's corpus."""


def _common_misread(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` is a common word the dictionary tags as a person's name (nr) at :data:`MISREAD_FREQ` or more
    (柳树, 罗盘, 祖师爷): said with no context and in no naming frame, it is the thing, not someone."""
    return lex.tags.get(name, "").startswith("nr") and (lex.freq.get(name) or 0) >= MISREAD_FREQ


MISREAD_STEM_FREQ = 50
"""How often the dictionary holds the first part of a thing's or a place's word, from which that part is an everyday
word (宿舍 917, 显微 88, 石板 482; a name's coined first part is rare: 夜明 2 of 夜明珠)."""


DISH_SUFFIXES = frozenset("汤")
"""A dish's word after what it is cooked from (狗肉+汤, 羊肉+汤, 片儿+汤): an everyday word before it makes the dish,
not a named one (孟婆汤, 阿婆酸汤 open on a coined or a person's word)."""
ACT_TAGS = ("v", "d")
"""Dictionary tags of a verb or an adverb: an act before a remedy's word names a coined one (还魂+汤, 回春+丹)."""


def _everyday_dish(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` is an everyday word of the dictionary (:meth:`_Lexicon.common`, no verb nor adverb:
    :data:`ACT_TAGS`) and one of :data:`DISH_SUFFIXES` — the dish cooked from it (狗肉汤, 羊肉汤, 片儿汤), not a name
    (N32). A proper or a coined first part (孟婆, 阿婆酸) or an act (还魂) opens a name."""
    stem = name[:-1]
    return len(stem) >= 2 and name[-1] in DISH_SUFFIXES and lex.common(stem) \
        and not lex.tags.get(stem, "").startswith(ACT_TAGS)


def _misread_thing(lex: _Lexicon, name: str) -> bool:
    """Whether ``name`` (three characters or more) is a word of the dictionary the tagger calls a person's name (nr) whose
    first part, all but its last character, is an everyday word of it — no proper noun, held :data:`MISREAD_STEM_FREQ`
    times or more: the thing or the building, not a name (宿舍+楼, 显微+镜, 石板+桥). A proper first part opens a
    name (白云+庵, 老虎+口, 碧水+潭), as does a rare one (夜明+珠) (N30)."""
    stem = name[:-1]
    return len(name) >= 3 and lex.tags.get(name, "").startswith("nr") \
        and not lex.tags.get(stem, "nr").startswith(("nr", "ns", "nt", "nz")) and (lex.freq.get(stem) or 0) >= MISREAD_STEM_FREQ


PREDICATE_MARKS = CLAUSE_ADVERBS | frozenset("刚才不没来去上下里")
"""What stands between a clause's subject and its verb: an adverb (棚+刚+散, 挤+不+进去), a motion verb before what one
goes to do (杜衡+去+抓), a localizer before what is done there (册+上+写)."""
PLACE_LOCALIZERS = frozenset("上下里中内外边旁")
"""Localizers after a noun that make it a place phrase, not a name (码头+上, 车间+里, 院墙+外)."""
WHOLE_LEADS = {"全": 100, "整": 100, "满": 100, "半": 100, "大": 1000, "小": 1000}
"""A determiner of wholeness or a degree before a common noun, with the dictionary frequency from which that noun is an
everyday one: the whole workshop, the big platforms (全+车间, 大+平台). 大 and 小 open coined names and nicknames more
often (大+明湖, 小+龙女, 大+个子): only a very common noun after them makes a phrase, and never someone's."""
DEGREE_LEADS = frozenset("大小")
STOREY = re.compile(r"(?<=[\u4e00-\u9fff]{2})[一二三四五六七八九十]{1,2}[楼层]$")
"""A place and one of its storeys (清风茶社+二楼): where in the place, not a new one (a numbered thing, 夜莺二号, is
left alone)."""
EVERYDAY_NOUN_FREQ = 100
"""From this dictionary frequency on, a noun before a localizer is an everyday one (码头, 操场, 车间)."""


NAME_QUOTES = (("“", "”"), ("「", "」"), ("‘", "’"), ("『", "』"))
"""The quotes a name is given in (名字叫“那年那月”)."""


def _quoted(text: str, name: str) -> bool:
    """Whether ``text`` says ``name`` whole inside quotes."""
    return any(opening + name + closing in text for opening, closing in NAME_QUOTES)


def _clause_piece(lex: _Lexicon, name: str, kind: str, named: bool = False, quoted: bool = False) -> bool:
    """Whether ``name`` is a piece of a clause by its form, read from the dictionary's cut of the word alone:
    a 的-phrase (提线的: the one who does it); a pronoun or a prohibitive that is no surname before more words
    (啥+叫+啥, 别+敲门); a subject, one of :data:`PREDICATE_MARKS` and a verb (杜衡+去+抓, 许闻+去+查, 挤+不+进去,
    册+上+写) unless the subject is a surname alone (周+不+疑 is someone); an everyday noun of two characters or more
    and one of :data:`PLACE_LOCALIZERS` (码头+上, 操场+上), or a place and a storey (:data:`STOREY`); a noun, 大 or
    小 and a noun (青瓷+小+罐: a thing told by its stuff and its size); a place, a group or a thing of one of :data:`WHOLE_LEADS`
    and an everyday noun (全+车间, 大+平台; someone's nickname such as 大+个子 is left alone). A word the dictionary holds
    whole (大胡子, 半山坡) is one token and none of these. A name a naming frame gave (``named``: 管它叫钢铁大骆驼) is no
    stuff and size; one it gave in quotes (``quoted``: 名字叫“那年那月”) opens on a pronoun and is a clause only when it
    ends on a verb (“别进来”, a message)."""
    if name[-1] == "的" or (len(name) >= 4 and STOREY.search(name) is not None):
        return True
    stem = name[:-1]
    if name[-1] in PLACE_LOCALIZERS and len(stem) >= 2 and lex.tags.get(stem) == "n" \
            and (lex.freq.get(stem) or 0) >= EVERYDAY_NOUN_FREQ:
        return True
    tokens = lex.jieba.lcut(name, HMM=False)
    if len(tokens) < 2:
        return False
    tags = [lex.tags.get(t, "") for t in tokens]
    if tags[0][:1] == "r" and name[0] not in ALL_SURNAMES and (not quoted or tags[-1][:1] == "v"):
        return True
    if not named and any(tokens[i] in DEGREE_LEADS and tags[i - 1][:1] == tags[i + 1][:1] == "n" and len(tokens[i - 1]) >= 2
           for i in range(1, len(tokens) - 1)):
        return True  # 青瓷+小+罐, 玻璃+小+罐: a thing told by its stuff and its size (回音+大厅: 大厅 is one word, a kind)
    if len(tokens) >= 3 and tags[-1][:1] == "v" and tokens[-2] in PREDICATE_MARKS \
            and not (len(tokens) == 3 and tokens[0] in ALL_SURNAMES):
        return True
    floor = WHOLE_LEADS.get(tokens[0])
    return (kind != "人物" or tokens[0] not in DEGREE_LEADS) and floor is not None and len(tokens) == 2 and tags[1] == "n" and len(tokens[1]) >= 2 \
        and (lex.freq.get(tokens[1]) or 0) >= floor


SIMILE = re.compile(r"(?:像是|好像|就像|活像|好似|如同|仿佛|像|似)(?:[一两三几]?[个只头座块根尊条把张])?")
"""What likens something to what follows: 像一个石墩子, 活像只猴, 如同一座山 (read once per draft, where each ends)."""
SIMILE_LEADS = ("像", "好像", "就像", "活像", "好似", "如同", "仿佛")
"""The same words glued before the image they bring (像+石墩子)."""


def _image(lex: _Lexicon, text: str, name: str, kind: str, count: int, likened: int) -> bool:
    """Whether ``name`` is an image, not a name: each of the ``count`` places ``text`` says it is after
    :data:`SIMILE` (``likened`` of them are: 坐下来像一个石墩子, 站起来也像一个石墩子); it opens on one of
    :data:`SIMILE_LEADS` before two characters or more (像+石墩子); or, read as someone, it opens on a dictionary
    verb that no surname is and every place it is said goes on with 的 (卖胡饼的, 卖胡饼的曹二: one who sells them,
    the 的-phrase cut before its 的). A nickname drawn from an image (竹竿, 石头) is said on its own too."""
    if name.startswith(SIMILE_LEADS) and len(name) - (2 if name[:2] in SIMILE_LEADS else 1) >= 2:
        return True
    if count and likened >= count:
        return True
    if kind != "人物" or name[0] in ALL_SURNAMES or lex.tags.get(lex.jieba.lcut(name, HMM=False)[0]) != "v":
        return False
    return bool(count) and text.count(name + "的") >= count

def _described(lex: _Lexicon, noun: Noun, found: set[str], text: str = "") -> bool:
    """Whether ``noun`` is a found name or an ordinary thing with a word that describes it: an
    adjective or a verb before another name found (破+镇妖碑), an adjective or a verb before a
    dictionary word for a thing (旧+折扇, 戴+眼镜). A surname that is an adjective too (黄, 白)
    before a word is someone when the draft has it act or keep a household (黄三炮那个人, 黄三炮家)."""
    name = noun.name
    if len(name) < 3 or lex.tags.get(name[0], "")[:1] not in "av":
        return False
    if noun.kind == "人物" and name[0] in SURNAMES and _acts(text, name):
        return False
    rest = name[1:]
    if rest in found:
        return True
    if noun.kind == "地点" and noun.count == 1 and lex.tags.get(name[0], "")[:1] == "a" \
            and lex.common(rest) and (lex.freq.get(rest) or 0) >= RARE:
        return True  # 大+城市, 白+沙滩 said once: an adjective and a common word describe a place
    lead = lex.tags.get(name[0], "")[:1]
    return lex.common(rest) and ((lead in "av" and noun.kind == "物品")  # 旧+折扇, 戴+眼镜
                                 or (lead == "a" and noun.kind == "人物" and name[0] not in "小老大阿"))  # 粗+嗓门; 小桃红 is someone


_CLAUSES = re.compile(r"[^，。！？；、,.!?;]+")


def _verse(line: str) -> bool:
    """A line of classical verse: two clauses or more, all of five or all of seven characters
    (纷纷五代乱离间，一旦云开复见天。)."""
    clauses = _CLAUSES.findall(line.strip())
    return len(clauses) >= 2 and len({len(c) for c in clauses}) == 1 and len(clauses[0]) in (5, 7) \
        and all(CJK.fullmatch(c) for c in clauses)


def _fragments(text: str, names: Iterable[str], found: set[str]) -> set[str]:
    """The ``names`` every occurrence of which starts inside another name found in the draft (江里
    of 澜江里) or ends inside one (吾友+庄 of 庄湜): the segmenter's fragments, not names of their own.
    Each name's occurrences are found once; a point is inside another's span when the farthest end
    among the spans that start before it, counting only other names, lies past it (prefix maxima
    kept for the best two owners), so the cost grows with the occurrences, not their square."""
    where = {n: [(at, at + len(n)) for at in starts_of(n, text)] for n in set(names) | found if n}
    spans = sorted((a, b, n) for n in found if len(n) >= 2 for a, b in where.get(n, ()))
    if not spans:
        return set()
    starts = [a for a, _b, _n in spans]
    best: list[tuple[int, str, int]] = []  # after each span: farthest end, its owner, farthest end of any other owner
    top, owner, second = -1, "", -1
    for _a, b, n in spans:
        if n == owner:
            top = max(top, b)
        elif b > top:
            top, owner, second = b, n, top
        else:
            second = max(second, b)
        best.append((top, owner, second))

    def inside(point: int, name: str) -> bool:
        i = bisect_left(starts, point)  # the spans starting strictly before the point
        if i == 0:
            return False
        top, owner, second = best[i - 1]
        return (top if owner != name else second) > point

    # a name not said as such (none of its occurrences) counts as inside, as it always has
    return {name for name in names
            if any(n != name for _a, _b, n in spans) and all(inside(a, name) or inside(b, name) for a, b in where[name])}


ADDRESS_VERBS = frozenset("问叫喊唤骂劝请告谢求拉扶推看望瞧盯见随陪替")
"""Verbs done to someone, said right before the name (问秋谷道, 拉住宝琴): the dictionary tags some
of them as nouns (问)."""


def _unglued(lex: _Lexicon, text: str, found: list[Noun], known: set[str]) -> list[Noun]:
    """``found`` without the names that are another person's name and a character the segmenter
    glued to it, when that person is said on their own more often than with it:

    - a person's name and the verb after it (陈云仙+扮的石秀, 老巴+会从炉子底下…);
    - a verb, a preposition or an adverb before a person's two-character name (问+秋谷道, 向+秋谷一笑
      beside 秋谷 said alone); never a surname (顾+长风 is his full name, 顾 a verb too).

    A person's name said no more often than the longer form (王仁 only in 王仁见) does not
    decide: the longer one stands. Counting is per name, once: linear in the names found."""
    # any kind: the suffix rule may have read a person's name as a place first (秋谷: 谷, a valley)
    people = {n.name for n in found} | {k for k in known if 2 <= len(k) <= 4}
    counts: dict[str, int] = {}

    def said(name: str) -> int:
        if name not in counts:
            counts[name] = text.count(name)
        return counts[name]

    out = []
    for n in found:
        name = n.name
        head = name[:-1]
        if len(name) >= 3 and head in people and said(head) > said(name) \
                and (lex.tags.get(name[-1], "")[:1] == "v" or name[-1] not in ALL_SUFFIX_WORDS):
            continue  # 陈云仙扮: 陈云仙 and a verb (王五+村, a place named after him, stays)
        if n.kind == "人物" and len(name) == 3 and name[1:] in people and name[0] not in SURNAMES \
                and (lex.tags.get(name[0], "")[:1] in "pvd" or name[0] in ADDRESS_VERBS) \
                and said(name[1:]) > 2 * said(name):
            continue  # 问秋谷, 向秋谷 beside 秋谷
        out.append(n)
    return out


def with_address_forms(names: Iterable[str]) -> set[str]:
    """``names`` and the forms the people among them go by (陈叔, 老陈 of 陈伯远; a place or a
    thing — a name ending in a suffix word — has none). A surname with a word for a wife (方太太
    beside 方玄绰) is someone else, mostly: not one of the forms."""
    out = {k for k in names if k}
    people = [k for k in out if 2 <= len(k) <= 4 and k[-1:] not in SUFFIX_WORDS and k[-2:] not in SUFFIX_WORDS]
    out.update(form for k in people for form in address_forms(k) if not form.endswith(SPOUSE_FORMS))
    return out


FEATURES = ("bias", "shape1", "shape2", "twice", "thrice", "log_count", "context", "needs_context",
            "person", "place", "group", "item", "technique", "len2", "len3", "len4plus", "surname_led",
            "given_min", "given_mean", "in_dictionary", "log_freq", "proper_tag", "suffix_end", "title_end",
            "address_lead", "verb_lead", "adjective_lead", "name_end_char", "acts_share", "left_variety",
            "quoted_share", "rule_vote", "broad")
"""The signals a learned decision weighs per candidate: classes of a word (its shape, kind,
length, the given-name reading of its characters, the dictionary's frequency and tag), how the
chapter uses it (how often, the share of its occurrences a person's act follows, how varied the
characters before it are, in quotes) and the hand rule's vote — never the word itself."""
Decision = Callable[[Sequence[float]], bool]


def _features(lex: _Lexicon, c: _Candidate, count: int, text: str, rule_vote: bool) -> list[float]:
    """The values of :data:`FEATURES` for candidate ``c``, said ``count`` times in ``text``."""
    name = c.name
    surname = surname_of(name) if c.kind == "人物" else ""
    given = name[len(surname):] or name
    readings = [lex.given(ch) for ch in given]
    freq = lex.freq.get(name) or 0
    tag = lex.tags.get(name[0], "")[:1]
    acts = quoted = 0
    left: set[str] = set()
    seen = 0
    at = text.find(name)
    while at >= 0 and seen < 50:  # the first fifty occurrences tell enough
        seen += 1
        end = at + len(name)
        acts += bool(AFTER_PERSON.match(text[end:end + 5]))
        quoted += text[at - 1:at] in ("“", "「", "‘")
        left.add(text[at - 1:at])
        at = text.find(name, at + 1)
    seen = seen or 1
    return [1.0, float(c.shape == 1), float(c.shape >= 2), float(count >= 2), float(count >= 3),
            min(1.0, math.log1p(count) / 4), float(c.context), float(c.needs_context),
            float(c.kind == "人物"), float(c.kind == "地点"), float(c.kind == "组织"), float(c.kind == "物品"),
            float(c.kind == "功法"), float(len(name) == 2), float(len(name) == 3), float(len(name) >= 4),
            float(bool(surname)), min(readings), sum(readings) / len(readings), float(freq > 0),
            min(1.0, math.log1p(freq) / 12), float(lex.proper(name)),
            float(any(name.endswith(sfx) and len(name) > len(sfx) for sfx in ALL_SUFFIX_WORDS)),
            float(name.endswith(TITLES + ROLE_TITLES)), float(name[0] in "老小阿"), float(tag == "v"),
            float(tag == "a"), float(name[-1] in NAME_END), acts / seen, len(left) / seen, quoted / seen,
            float(rule_vote), float(c.broad)]


def learned_decision(model: dict[str, Any]) -> Decision:
    """The decision of a logistic model ``{"weights": {feature: weight}, "threshold": t}``."""
    weights = [float(model["weights"].get(f, 0.0)) for f in FEATURES]
    threshold = float(model["threshold"])

    def decide(values: Sequence[float]) -> bool:
        z = sum(w * v for w, v in zip(weights, values))
        return z >= threshold

    return decide


CANDIDATES_MAX = 400
"""The most new-name candidates one draft has weighed. A chapter of the labelled sets has at
most about 30; each is weighed against the whole text (its count, its context, the longer unit it
stands in), so a draft of thousands (a string of coined two-character words and suffixes, 60,000
characters) took minutes in their product."""


def find_new_nouns(body: str, known: Iterable[str], ignore: Iterable[str] = (), *, expanded: bool = False,
                   trace: list[tuple[str, str, int, int, bool, bool]] | None = None,
                   decide: Decision | None = None, rows: list[tuple[str, list[float]]] | None = None,
                   broad: bool = False, capped: list[tuple[int, int]] | None = None) -> list[Noun]:
    """New proper nouns of ``body`` (one entry per name, first line), with their kind.
    ``expanded``: ``known`` already holds the address forms (:func:`with_address_forms`).
    ``trace``, when given, receives every candidate weighed: ``(name, kind, shape, count,
    context, kept)`` (for tuning on the development sets). ``decide``, when given, weighs the
    :data:`FEATURES` of each candidate in place of the two-of-three count; ``rows`` receives each
    candidate's name and features (to train and measure such a decision). ``capped``, when
    given, receives ``(candidates, line)`` when the draft has more than :data:`CANDIDATES_MAX`
    candidates: only the first ones (by where they first stand) are weighed, ``line`` (1-based)
    is where the first one left out stands."""
    lex = lexicon()
    known_set = set(known) if expanded else with_address_forms(known)  # 陈叔 of 陈伯远 is no new name
    skip = known_set | set(ignore) | STOP
    lines = body.split("\n")
    candidates: dict[str, _Candidate] = {}
    termed: set[str] = set()  # the terms a trade's word introduces (行话叫仰焊): no names unless a frame names them
    chars = set(body)
    # the names whose characters all stand in the text, sifted by C: occurring weighs only those
    in_text = occurring((k for k in filter(chars.issuperset, known_set) if len(k) >= 2), body)
    long_known = sorted(in_text)  # a known name can only contain or hold a candidate where it is in the text
    known_re = re.compile(alternation(in_text)) if in_text else None  # in_text holds only words of body already
    cuts = lex.cuts_of(body)  # each run of this text segmented once, and once for a text read again
    bounds_of = {i: lex.boundaries(line, known_re, cuts) for i, line in enumerate(lines) if CJK.search(line)}
    suffixes_of = {i: list(_suffixes_in(lines[i])) for i in bounds_of}  # read by two candidate rules
    settled: set[str] = set()  # the settlements named by a feature and a kind (苇子坑村)
    stations: set[str] = set()  # a trade's station at a place the draft names (三沙航标站)
    said = _SaidCount(body)  # how often the draft says a place, asked by the village and station readers
    for i, bounds in bounds_of.items():
        line = lines[i]
        for name, kind, col in _joined_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, kind, 2, first=(i, col))).shape = 2  # also when said before
        for name, col in _shop_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
        for name, col in _firm_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
        for name, col in _ordinal_place_candidates(lex, line):  # 三道沟, 头道卡 (N34)
            candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
        for name, col in _numbered_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, "物品", 2, first=(i, col)))
        for name, kind, shape, col in _suffix_candidates(lex, line, bounds, suffixes_of[i]):
            candidates.setdefault(name, _Candidate(name, kind, shape, first=(i, col)))
        for name, kind, col in _kind_word_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, kind, 2, first=(i, col)))
        for name, col in _settlement_candidates(lex, line, bounds):
            c = candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
            c.kind, c.shape = "地点", 2
            settled.add(name)
        for name, col in _station_candidates(lex, line, bounds, said):  # 三沙航标站 … 三沙 (N32)
            stations.add(name)
            c = candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
            c.kind, c.shape, c.context = "地点", 2, True
        for name, col in _shop_stem_candidates(lex, line, bounds, said):  # 同和栈 … 同和是 (N34)
            c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
            c.kind, c.shape, c.context = "组织", 2, True
        for name, col in _lane_candidates(lex, line, body):  # 住在+德馨里, 走出+谈瀛里 (N36)
            c = candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
            c.kind, c.shape, c.context = "地点", 2, True
        for name, col in _village_candidates(lex, line, bounds, said):  # 螺蛳浜村 … 螺蛳浜 (N32)
            c = candidates.setdefault(name, _Candidate(name, "地点", 2, first=(i, col)))
            c.kind, c.shape = "地点", 2
            settled.add(name)
        for name, col, shape in _title_candidates(lex, line, bounds):
            candidates.setdefault(name, _Candidate(name, "人物", shape, first=(i, col)))
        for name, col in _genitive_candidates(lex, line, body):
            candidates.setdefault(name, _Candidate(name, "物品", 1, first=(i, col)))
        for m in REGION.finditer(line):  # 东荒, 南域: a quarter of a made-up world
            if m.start() in bounds and not lex.freq.get(m.group()) and m.group() not in candidates:
                candidates[m.group()] = _Candidate(m.group(), "地点", 2, first=(i, m.start()))
        for m in RANKED.finditer(line):  # 贺老六, 王小二: a surname and a rank by birth
            after = line[m.end():m.end() + 1]
            if m.group(1) in SURNAMES and m.start() in bounds and not lex.freq.get(m.group()) \
                    and (not CJK.fullmatch(after or "。") or after in NAME_END):
                candidates.setdefault(m.group(), _Candidate(m.group(), "人物", 2, first=(i, m.start())))
        for m in TOWN.finditer(line):  # 鲁镇, 赵庄: a surname's village
            if m.group(1) in SURNAMES and m.start() in bounds and not lex.common(m.group()) and m.group() not in candidates:
                candidates[m.group()] = _Candidate(m.group(), "地点", 1, first=(i, m.start()))
        for name, kind, col in _token_candidates(lex, line, bounds):
            # a bare unknown word is a name's shape only when its characters read as a given name
            # (闰土 waits for context like 熟滥, 改削: repetition alone is not enough)
            plain = name[0] not in "阿老小" and name[-1] != "儿"
            shape = 0 if plain and min(lex.given(c) for c in name) < 0.5 else 1
            if name[-1] == "儿" and lex.given(name[0]) < UNNAMED:
                shape = 0  # 秃儿: a word of abuse, not a child's name (宏儿)
            if len(name) == 2 and name[0] == "阿" and lex.given(name[1]) >= 0.5:
                shape = 2  # 阿杰, 阿Q: 阿 before a given name's character names someone on its own
            candidates.setdefault(name, _Candidate(name, kind, shape, first=(i, col),
                                                   needs_context=name[-1] in SENSE_ENDS))
        for m in INTRO.finditer(line):
            word = m.group(1)
            if line[m.start() - 1:m.start()] in ("不", "没"):
                continue  # 虽不叫做沉酣曲蘖: what something is not called
            if TERMED.search(line, max(0, m.start() - 6), m.start()) and line[m.start(1) - 1] not in "你他她我它":
                termed.add(word)
                continue  # 行话叫仰焊: a trade's term (土话里叫他铁秤砣 names someone)
            bare = m.group().startswith("叫") and line[m.start() - 1:m.start()] not in "我你他她它就都便名人也字号" \
                and m.group()[1:2] not in "你他她我它"  # 叫你素心吧 names someone
            headed = HEADED.search(line[max(0, m.start() - HEADED_REACH):m.start()]) is not None  # 有一个组织，叫守夜人: a kind of thing, then its name
            kind_named = m.group().startswith("叫") and word[0] not in CRY_WORDS and not _passive_done(lex, line, m.end(1), word) \
                and NAMED_KIND.search(line[max(0, m.start() - HEADED_REACH):m.start()]) is not None  # 这马叫火车 (N37)
            headed = headed or kind_named
            if m.group().startswith("叫") and m.group()[1:2] not in "你他她我它" and len(word) >= 3 \
                    and _passive_done(lex, line, m.end(1), word):
                continue  # 船叫浪打翻了: the passive 叫 and the deed (r62-1)
            # 最红的主播叫甜筒, 那个会计叫算盘: someone by trade, then what they are called (病人叫护士 calls for someone)
            called = m.group().startswith("叫") and _someone_before(lex, line[max(0, m.start() - 4):m.start()]) \
                and not _someone_word(lex, word) and not set(word) & KIN_CHARS
            bare = bare and not headed and not called
            if bare and (lex.common(word) or (lex.common("叫" + word[0]) and m.group(1) == line[m.start() + 1:m.end()]
                                              and body.count(word) < 2)):
                continue  # 叫条子, 叫车子: a call for something (叫+唤魂哨 said again on its own is a name)
            if m.group().startswith(("我是", "就是")) and lex.common(word):
                continue  # 我是赌气: a state, not a name
            if lex.tags.get(word, "")[:1] == "r":
                continue  # 本名叫什么, 叫谁: a question, not a name
            if _adverb_led(lex, word):
                continue  # 我是真外行, 叫他如何不气: an adverb or a modal before what is said
            if _person_tail_clause(lex, word):
                continue  # 叫人+头晕: 叫人 makes one feel (CALLED_ONE's 一个叫人头疼的孩子)
            if m.group().startswith("叫") and _ordered_act(lex, word):
                continue  # 叫人+去刻石, 叫他+打开念: someone told to act (N38)
            # a surname and a given name read whole: 叫于洪 (于 a preposition too), 叫张仲和 (和 a conjunction too)
            surnamed = _surname_and_given(lex, word)
            ends_ok = word[-1] not in NAME_END or body.count(word) >= 2 or headed or surnamed  # the kind vouches for the end (叫拾灯人)
            if _clean(word, end_vouched=ends_ok, introduced=True) and (word[0] not in STEM_LEAD_BAD or surnamed) and ends_ok \
                    and (word[-1] not in PARTICLES or surnamed) \
                    and not _A_NOT_A.fullmatch(word):
                kind = _kind_by_suffix(word, "物品" if "它" in line[m.start() - 1:m.start() + 2] or kind_named
                                       else "人物")  # 管它叫铁公鸡, 这条船叫菱角: a thing
                person = kind != "人物" and _named_person(lex, word, line[max(0, m.start() - 3):m.start()])
                c = candidates.setdefault(word, _Candidate(word, kind, 1, first=(i, m.start(1))))
                if person:
                    c.kind = "人物"  # 那汉子叫屠千山: a surname and a given name, though it ends like a mountain
                c.context = c.named = True
                if c.kind != "人物":
                    c.shape = max(c.shape, 1)  # a place the suffix rule weighed as its stem (哑巴+井), named by 叫
        for name, kind, col in _framed_candidates(lex, line):
            c = candidates.setdefault(name, _Candidate(name, kind, 1, first=(i, col)))
            c.context = c.named = True
            c.shape = max(c.shape, 1)  # the frame gives a common word a name's shape (一个叫槐树沟的地方)
        for name, col in _asked_candidates(lex, line, body):  # “海和尚是谁？”: someone asked about by name
            c = candidates.setdefault(name, _Candidate(name, "人物", 1, first=(i, col)))
            c.context = c.named = True
            c.shape = max(c.shape, 1)
        for m in CALLED_ONE.finditer(line):  # 一个叫铁牙的男人: someone introduced by name
            word = m.group(1)
            if _clean(word, end_vouched=True, introduced=True) and word[0] not in STEM_LEAD_BAD and word[0] != "人" \
                    and not _adverb_led(lex, word):  # 一个叫人头疼的孩子: 叫人 makes one feel
                c = candidates.setdefault(word, _Candidate(word, "人物", 1, first=(i, m.start(1))))
                c.context = c.named = True
        for m in SURNAME_GIVEN.finditer(line):  # 姓王名仁 … 王仁; 姓黄，名叫瑞和
            surname, given = m.group(1), m.group(2)
            for name in (surname + given, surname + given[:1], given if len(given) == 2 else ""):
                if len(name) >= 2 and body.count(name) > 0:  # 姓杜，名灵芳: introduced, said once
                    c = candidates.setdefault(name, _Candidate(name, "人物", 1, first=(i, m.start())))
                    c.context = True
                    break
    for name, kind, shape, first in _recurring_suffix_candidates(lex, lines, bounds_of, body, suffixes_of):
        c = candidates.get(name)
        if c is None:
            candidates[name] = _Candidate(name, kind, shape, first=first)
        elif c.shape < shape:
            c.shape = shape
    places = {k for k in in_text if k in known_set and len(k) >= 2} | {n for n, c in candidates.items() if c.kind == "地点"}
    serving: set[str] = set()  # institutions named by a place, known or not (澜州博物馆 when 澜州 is known)
    for name, at in _abbreviated_candidates(lex, body):  # 德兴曲艺社 said beside 德兴社
        c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(body.count("\n", 0, at), at - body.rfind("\n", 0, at) - 1)))
        c.context = True
    backwards = sorted(w[::-1] for w in candidates)  # each candidate read from its end: the ones a name ends, by bisection
    for i, bounds in bounds_of.items():  # 野径户外俱乐部, 金城航运队: an organisation said in full
        for name, col in _chained_institution_candidates(lex, lines[i], bounds):
            if any(name[k:] in candidates for k in range(len(name))):  # 邻村+茂源酒店: a candidate ends it
                continue
            eman = name[::-1]
            after = bisect_left(backwards, eman)
            if after < len(backwards) and backwards[after].startswith(eman):  # it ends a candidate
                continue
            candidates[name] = _Candidate(name, "组织", 2, context=True, first=(i, col))
            insort(backwards, eman)
    for i, bounds in bounds_of.items():  # N37: 青海第七地质队; 叫大垟供销社
        for name, col in _ordinal_body_candidates(lex, lines[i], bounds):
            c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
            c.shape, c.context = 2, True
        for name, col in _called_body_candidates(lex, lines[i]):
            c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
            c.shape, c.context, c.named = 2, True, True
    for name, i, col in _firm_short_candidates(lex, lines, bounds_of):  # 通和是跑船的 … 一家通和船行 (N37)
        c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
        c.shape, c.context = 2, True
    for name, i, col in _institution_candidates(lines, bounds_of, places, known_set):
        serving.add(name)
        c = candidates.setdefault(name, _Candidate(name, "组织", 2, first=(i, col)))
        c.kind, c.shape, c.context = "组织", 2, True
    for i in bounds_of:
        for name, col in _introduced_candidates(lex, lines[i]):
            c = candidates.setdefault(name, _Candidate(name, "人物", 2, first=(i, col)))
            c.kind, c.shape, c.context = "人物", max(c.shape, 1), True
    for name, i, col in _transliterated_candidates(lex, lines):  # 伊万诺夫 (N35)
        c = candidates.setdefault(name, _Candidate(name, "人物", 2, first=(i, col)))
        c.shape = 2
    called_by_given: set[str] = set()  # 白水生 … 水生: no adjective and a common word (:func:`_described`)
    for name, i, col in _given_alone_candidates(lex, lines):  # 郝守仁 … 守仁就 (N35)
        c = candidates.setdefault(name, _Candidate(name, "人物", 1, first=(i, col)))
        if c.kind == "人物":
            c.shape, c.context = max(c.shape, 1), True
            called_by_given.add(name)
    for name, i, col in _nickname_candidates(lex, lines):  # 都喊他泡面 … 泡面说 (N38)
        c = candidates.setdefault(name, _Candidate(name, "人物", 1, first=(i, col)))
        # 叫她算珠 … “算珠，你…”: someone, whatever its suffix; named: the thing it is named after may stand in the
        # draft too (这是一块黑炭 … “黑炭，你…”), the two lines name the person
        c.kind, c.shape, c.context, c.named = "人物", max(c.shape, 1), True, True
    for name, col, i in _subject_candidates(lex, lines, bounds_of):
        if name not in candidates:
            candidates[name] = _Candidate(name, "人物", 1, context=True, first=(i, col))
    for i in bounds_of:
        for m in DEFINED.finditer(lines[i]):
            word = m.group(1)
            if word not in candidates and not lex.freq.get(word) and body.count(word) >= 2 and not set(word) & MIDDLE_BAD \
                    and word[0] not in STEM_LEAD_BAD and word[-1] not in LOCALIZERS and word not in STOP and not _adverb_led(lex, word) \
                    and lex.tags.get(word[:2], "")[:1] not in "rdcp":
                kind = _kind_by_suffix(word, "物品")
                candidates[word] = _Candidate(word, kind, 1, context=True, first=(i, m.start(1)))
        for m in DEFINED_ONE.finditer(lines[i]):
            word = m.group(1)
            if body.count(word) >= 2 and not set(word) & MIDDLE_BAD and word[0] not in STEM_LEAD_BAD and word not in STOP \
                    and not (len(word) == 2 and lex.freq.get(word)) and not _someone_word(lex, word) and not _adverb_led(lex, word) and lex.tags.get(word[:2], "x")[:1] not in "rdcp":
                c = candidates.setdefault(word, _Candidate(word, _kind_by_suffix(word, "物品"), 1, first=(i, m.start(1))))
                if c.shape == 0:
                    c.kind = _kind_by_suffix(word, "物品")  # 踏浪 is a shoe, not someone's unknown name
                c.shape, c.context, c.named = max(c.shape, 1), True, True
    for name, col, i in _famous_candidates(lex, lines, bounds_of):
        if name not in candidates:
            candidates[name] = _Candidate(name, "人物", 1, context=True, first=(i, col))
    taken = in_text | {name for name, c in candidates.items() if not c.needs_context}
    for word, (shape, first) in _person_candidates(lex, lines, bounds_of, taken).items():
        if word in candidates and candidates[word].needs_context:
            del candidates[word]  # a surname-led name wins over the same unknown word (柳如烟)
        candidates.setdefault(word, _Candidate(word, "人物", int(shape), first=first))
    if broad:
        for name, kind, (i, col) in _broad_candidates(lex, lines, bounds_of):
            if name not in candidates:
                candidates[name] = _Candidate(name, kind, 0, first=(i, col), broad=True)
    if len(candidates) > CANDIDATES_MAX:  # each candidate is weighed against the whole text: bound their number
        order = sorted(candidates, key=lambda n: candidates[n].first)
        if capped is not None:
            capped.append((len(candidates), candidates[order[CANDIDATES_MAX]].first[0] + 1))
        kept_names = set(order[:CANDIDATES_MAX])
        candidates = {n: c for n, c in candidates.items() if n in kept_names}
    text = "\n".join(lines)
    for name in [n for n in settled if n in candidates]:
        if text.count(name[:-1]) > text.count(name):  # 凉水井 … 凉水井村里: the feature's name, its kind said of it
            c = candidates.pop(name)
            c.name = name[:-1]
            short = candidates.setdefault(c.name, c)
            short.kind, short.shape = "地点", 2
    for name in list(candidates):  # 老七 of 疤脸老七, 元丹 of 九转回元丹: the unit the draft keeps saying
        whole = _whole_unit(text, name, in_text)
        if whole == name and candidates[name].kind == "人物":
            whole = _whole_unit_right(lex, text, name)  # 阿卜 of 阿卜杜勒
        if candidates[name].kind == "人物" and not candidates[name].named:
            whole = _whole_institution(lex, text, whole)  # 九如银 of 九如银楼
        if whole != name and whole not in candidates:
            c = candidates.pop(name)
            c.name, c.first = whole, (c.first[0], max(0, c.first[1] - len(whole) + len(name)))
            c.kind = next((k for suffix, k in CANDIDATE_SUFFIXES if whole.endswith(suffix)), c.kind)  # 九转回元丹: a pill
            candidates[whole] = c
    # 潮安+蔗林村: the village, its county before it; 巡长+方镇川: the person under the title he holds, or a known one (r64-n39)
    _keep_tails(candidates, {n: village for n in candidates if (village := _county_led(lex, n)) != n})
    _keep_tails(candidates, {n: person for n in candidates if (person := _office_led(lex, n)) != n}, known_set, "人物")
    for name in [n for n in candidates if n in stations]:  # 长白山+雪岭气象站: the real place is the address (N32)
        for longer in [w for w in candidates if w != name and w.endswith(name)
                       and lex.tags.get(w[:-len(name)], "").startswith(COUNTY_TAGS)]:
            del candidates[longer]
    counts = Counter({name: text.count(name) for name in candidates})
    likened_at = [m.end() for m in SIMILE.finditer(text)]  # where an image may start (像一个+石墩子)
    heads: dict[int, Counter[str]] = {}  # per length, what the text says after a simile: one pass per length, not per name

    def likened(name: str) -> int:
        if len(name) not in heads:
            heads[len(name)] = Counter(text[at:at + len(name)] for at in likened_at)
        return heads[len(name)][name]
    starts = [0]  # where each line starts in text
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    out = []
    pending: list[_Candidate] = []  # surname-led people one piece of evidence short: a list may vouch
    for name, c in candidates.items():
        if name in skip or (name not in serving and not c.named and any(k in name or (name in k and len(k) > len(name)) for k in long_known)):
            continue
        if not c.context and any(name != other and name in other and counts[other] == counts[name] and not candidates[other].broad
                                 for other in candidates):
            continue  # only ever seen inside a longer candidate
        at = text.find(name) if not c.context else -1
        while at >= 0 and not c.context:  # every place it is said, in order, until one gives context
            i = bisect_right(starts, at) - 1
            c.context = _has_context(lex, lines[i], at - starts[i], name, c.kind, quoted=c.shape > 0)
            at = text.find(name, at + 1)
        if not c.context and c.kind == "人物" and counts[name] >= 3:  # once: it reads every place the name is said
            c.context = _subject(lex, lines, name)
        evidence = c.shape + int(counts[name] >= 2) + int(c.context) >= 2 and (c.context or not c.needs_context)
        values = _features(lex, c, counts[name], text, evidence) if decide is not None or rows is not None else []
        if rows is not None:
            rows.append((name, values))
        kept = (decide(values) if decide is not None else evidence) \
            and not (c.kind == "人物" and not c.named and (_counted(text, name) or _stood_on(text, name))) and not _hour(name) \
            and not (c.kind == "人物" and not c.named and name[-1] in GROUP_ENDS and lex.freq.get(name)) \
            and not (c.kind != "人物" and not c.named and lex.tags.get(name) == "nt") \
            and not (c.kind == "人物" and not c.named and not c.context and counts[name] == 1 and _glued_to_surname(lex, name)) \
            and not (name[-1] == "氏" and name[0] in KIN_CHARS) \
            and not (not c.named and (_serial(name) or _person_tail_clause(lex, name))) and not _adverb_tailed(lex, name, c.named) \
            and not (c.kind != "人物" and not c.named and _verb_glued(lex, text, name))  # 舅氏: a relative; 丙字号, 人+醉酒, 牛+终于, 趟+西州: no names
        kept = kept and not (not c.named and (_household(name) or (not c.context and _coloured_thing(name))
                                              if c.kind == "人物" else _place_with_its_kind(lex, text, name)))  # 俞家, 白沙; 拉萨城
        kept = kept and not (c.kind == "人物" and _address_word(lex, name))  # 老阿妈; 叫他小郎君
        kept = kept and not (c.kind == "人物" and not c.named and _predicate_tailed(lex, name))  # 风+大 (N27)
        kept = kept and not (not c.named and _subject_adverb_glued(text, name))  # 初雪+就 (N37)
        kept = kept and not (c.kind == "人物" and not c.named and _ease_predicate(lex, text, name))  # 路+好走 (N37)
        kept = kept and not (c.kind == "物品" and not c.named and _verb_object(lex, text, name))  # 画+草图 (N37)
        kept = kept and not (c.kind in ("人物", "物品") and not c.named and _trade_word(lex, name))  # 旗丁, 检尺员 (N27)
        kept = kept and not (c.kind == "人物" and not c.named and not c.context and _common_misread(lex, name))  # 柳树
        kept = kept and not (c.kind != "人物" and not c.named and _misread_thing(lex, name))  # 宿舍楼, 显微镜 (N30)
        kept = kept and not (c.kind == "物品" and not c.named and _everyday_dish(lex, name))  # 狗肉汤 (N32)
        kept = kept and not (_clause_piece(lex, name, c.kind, c.named, c.named and _quoted(text, name))
                             and "《" + name + "》" not in text)  # 杜衡去抓, 码头上, 全公司
        kept = kept and not (not c.named and _clause_opening(name))  # 一个+跟蛤蜊, 谢谢+县医院: a clause's opening
        kept = kept and not (c.kind != "人物" and not c.named and _act_inside(lex, name))  # 船+靠+码头: a clause
        kept = kept and not (c.kind != "人物" and not c.named and _counted_place(lex, text, name))  # 一片碎石滩
        kept = kept and not (name in termed and not c.named)  # 行话叫仰焊 … 仰焊是焊工里最难的活
        kept = kept and not (not c.named and _image(lex, text, name, c.kind, counts[name],
                                                    likened(name)))  # 像一个石墩子, 卖胡饼的
        if trace is not None:
            trace.append((name, c.kind, c.shape, counts[name], c.context, kept))
        if kept:
            out.append(Noun(name, c.kind, c.first[0] + 1, counts[name]))
        elif c.kind == "人物" and c.shape >= 1 and not c.needs_context and surname_of(name):
            pending.append(c)
    # a name listed beside someone found or known is someone too (本家的赵白眼，赵司晨)
    beside = occurring((w for w in {n.name for n in out if n.kind == "人物"} | in_text if len(w) >= 2), text)
    for c in pending if beside else ():
        if _listed_beside(text, c.name, beside):
            out.append(Noun(c.name, c.kind, c.first[0] + 1, counts[c.name]))
    out = _unglued(lex, text, out, in_text)
    # a play's or a book's title (《翠屏山》 on the stage): no place, people or group of the story;
    # a technique's manual or a scroll is (《归元诀》)
    out = [n if n.kind in ("功法", "物品") or text.count("《" + n.name + "》") < n.count or PERIODICAL.fullmatch("《" + n.name + "》")
           else Noun(n.name, "物品", n.line, n.count)
           for n in out if n.kind in ("功法", "物品") or text.count("《" + n.name + "》") < n.count or not lex.freq.get(n.name)]
    # the stem of a thing or a place found whole is that thing's short form (赤霄 of 赤霄剑)
    whole = {n.name for n in out}
    fragments = _fragments(text, whole, whole)
    named = {name for name, c in candidates.items() if c.named}
    out = [n for n in out if n.name not in fragments
           and (n.name in named or n.name in called_by_given or not _described(lex, n, whole, text))]
    in_verse = list(map(_verse, lines))  # each line read once, for the verse and the prose
    verse = list(compress(lines, in_verse))
    if verse:  # a poem's lines (a chapter's opening verse): its words are images, not people or places
        prose_text = "\n".join(line for line, poem in zip(lines, in_verse) if not poem)
        out = [n for n in out if n.name in prose_text or not any(n.name in v for v in verse)]
    if text.count("曰") >= 2:  # the literary register: 余, 吾, 予 are "I" (余曰, 余忽见), 或, 若 "some", "if"
        out = [n for n in out if n.name[0] not in LITERARY_LEADS]
    out = [n for n in out if not any(w != n.name and w.startswith(n.name) and w[len(n.name):] in ALL_SUFFIX_WORDS
                                     and w not in serving for w in whole)]
    # the end of a place or a group found whole, of three characters or more, is its short form (羊汤馆 of 马记羊汤馆);
    # a family's before a name says whose it is (贾家+济世老店: the name is 济世老店)
    kinds = {n.name: n.kind for n in out}
    out = [n for n in out if n.kind == "人物" or len(n.name) < 3
           or not any(w != n.name and w.endswith(n.name) and kinds.get(w) == n.kind and w[-len(n.name) - 1] != "家"
                      for w in kinds)]
    # a person found by full name is not found again by an address form of it (秦公子 of 秦无衣)
    full = [n.name for n in out if n.kind == "人物" and n.name[:1] not in "老小阿"
            and not n.name.endswith(TITLES + ROLE_TITLES) and n.name[len(surname_of(n.name)):] not in ("家", "氏")]
    forms = {f for k in full for f in with_address_forms([k]) if f != k}  # 嘉禾 of 许嘉禾, both found
    # a surname before a rank and a kinship word (柯九娘, 王三叔): the rest is the same person, said without it
    forms |= {k[len(surname_of(k)):] for k in full if surname_of(k) and len(k) - len(surname_of(k)) >= 2
              and k[-1] in KINSHIP and k[-2] in RANKS}
    surnames = Counter(surname_of(n.name) for n in out if n.kind == "人物")
    # ... unless the family has several people in the chapter: then whose form it is, is the author's call (赵大爷
    # beside 赵太爷 and 赵司晨)
    out = [n for n in out if n.name not in forms or (surname_of(n.name) and surnames[surname_of(n.name)] > 2)]
    return sorted(out, key=lambda n: (n.line, lines[n.line - 1].find(n.name)))


LIST_JOINS = frozenset("、，和与及")
"""What joins two items of a list of people (赵白眼，赵司晨; 张三和李四)."""
LIST_ITEM_ENDS = frozenset("、，。；！？\n")
"""What ends an item of a list (叶医生，柳某想请你 is no list: 柳某 goes on)."""


def _listed_beside(text: str, name: str, others: set[str]) -> bool:
    """Whether ``text`` lists ``name`` right after or right before one of ``others``, joined by
    :data:`LIST_JOINS`, the later item ending there (:data:`LIST_ITEM_ENDS`, or the text's end):
    each place ``name`` is said is read, not the text at each place one of ``others`` may start."""
    def ends(at: int) -> bool:
        return at == len(text) or text[at] in LIST_ITEM_ENDS

    at = text.find(name)
    while at >= 0:
        after = at + len(name)
        if at >= 1 and text[at - 1] in LIST_JOINS and ends(after) \
                and any(text.endswith(w, 0, at - 1) for w in others):
            return True
        if after < len(text) and text[after] in LIST_JOINS \
                and any(text.startswith(w, after + 1) and ends(after + 1 + len(w)) for w in others):
            return True
        at = text.find(name, at + 1)
    return False


def known_names(ctx: Any, draft: Any) -> set[str]:
    """Everything the book (and the draft's own moves) already names, with the address forms
    of its people (the book's part computed once per context)."""
    known = set(ctx.known_forms())
    own: set[str] = set()
    for change in draft.meta.get("设定变更") or []:
        m = CHANGE.match(str(change))
        if m and m["op"] in "=+":
            own.update({m["who"], m["value"]})
    for key in ("在场", "视角"):
        value = draft.meta.get(key)
        own.update(str(v) for v in (value if isinstance(value, list) else [value]) if v)
    return known | with_address_forms(own - known)


@dataclass
class Score:
    """Precision and recall of :func:`find_new_nouns` on labelled chapters."""

    chapters: int
    true_positives: int
    false_positives: list[str]
    missed: list[str]
    kinds_right: int

    @property
    def precision(self) -> float:
        found = self.true_positives + len(self.false_positives)
        return self.true_positives / found if found else 1.0

    @property
    def recall(self) -> float:
        gold = self.true_positives + len(self.missed)
        return self.true_positives / gold if gold else 1.0


def score(folder: Any, decide: Decision | None = None, broad: bool = False) -> Score:
    """Score the detector on a folder of labelled chapters: each ``NN.md`` has front matter
    ``已知`` (the names the book knows then), ``新专名`` (``名字（类型）``, the right answers) and
    optionally ``不计`` (names neither right nor wrong: a report of one counts for nothing).
    An answer may list the forms one person takes in the chapter, ``胡老爹|胡屠户（人物）``: a
    report of any form finds it, a report of another of its forms counts for nothing.
    A folder's README.md (its source and labelling rules) is no chapter. ``decide``: as in
    :func:`find_new_nouns`."""
    result = Score(0, 0, [], [], 0)
    for path in sorted(Path(folder).glob("*.md")):
        if path.name == "README.md":
            continue
        meta, body = quick_meta(read_text(path), path.name)
        neutral = {str(k) for k in meta.get("不计") or []}
        gold: dict[str, tuple[str, list[str]]] = {}  # first form -> (kind, every form)
        for item in meta.get("新专名") or []:
            m = re.fullmatch(r"(.+?)（(.+)）", str(item))
            if m:
                forms = [f.strip() for f in m.group(1).split("|") if f.strip()]
                gold[forms[0]] = (m.group(2), forms)
        found = {n.name: n.kind for n in find_new_nouns(body, [str(k) for k in meta.get("已知") or []], decide=decide, broad=broad)}
        result.chapters += 1
        answered: set[str] = set()
        for first, (kind, forms) in gold.items():
            hit = next((f for f in forms if f in found), None)
            if hit is None:
                result.missed.append(f"{path.stem}:{first}")
                continue
            result.true_positives += 1
            result.kinds_right += found[hit] == kind
            answered.update(forms)
        wrong = set(found) - answered - neutral - {f for _, forms in gold.values() for f in forms}
        result.false_positives += [f"{path.stem}:{n}" for n in sorted(wrong)]
    return result
