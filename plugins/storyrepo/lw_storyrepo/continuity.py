"""Continuity of a draft against the character cards (spec §4.2) and the timeline (§4.4).

Each finding names the card field it contradicts and quotes the sentence that does:

- **境界**: a realm or level going down — a setting change lowering it, or the prose giving a
  character a lower realm than the card — without an event that explains it (跌境, 散功, 封印,
  修为尽失 …) anywhere in the draft;
- **持有**: an item the book knows (held by someone, or a 物品 of the roster) used by a character
  whose card does not hold it (拔出, 握紧, 祭出, 服下, 拧开 …), unless the draft gives it to them first
  (a ``X.持有+物`` change, or 接过/夺过/拿到 … earlier in the prose); a verb closed by 的 right
  before the thing (母亲留下的芯片) says whose it was, not a use; someone's words saying where a known thing is now — in
  the speaker's keeping place (东家那方铜印在我抽屉里) or out of its holder's hands by the holder's own words (我那架望远镜
  送给他了; a signed note or letter is its writer's words) — against the cards (:func:`_kept_away`);
- **状态**: a character whose card says dead or gone (已死, 陨落, 失踪, 封印 …) speaking or
  thinking, unless the draft changes that 状态 or the paragraph is a memory, a dream, a letter (words
  written down before, 是阿爸写的：…, or reported or mimicked inside another's quote are no voice at all);
  a mute (:data:`MUTE`) speaking aloud, unless the paragraph writes or signs it (:data:`SIGNED`);
  a character with a card speaking who is not in the draft's 在场 list (when it has one; a walk-on the
  roster names without a card — 张院判, 钱管事 — is nobody the list is kept for), and whose card does not
  put them where the point of view is (:func:`_lives_here`), is a warning, unless
  a call or a letter (电话, 对讲机, 屏幕, 信中 …) or a voice overheard (隔着, 门外, 通风 …) is named
  in their paragraph or the four before, or a phone or video call begun before is not hung up yet
  (:func:`_calls`; any device of :data:`DEVICES` that lights up or carries a voice: 玉符亮了, 对讲机响了);
  someone held (在押 …, in hospital: 住院, in seclusion or quarantine: 闭关, 隔离, until a 出关 is told)
  out of their card's 位置; someone acting in a scene their state bars (禁赛 at an official match, 停职 at
  the duty: :attr:`World.bars`, :mod:`lw_storyrepo.forbidden`) or doing what it leaves them unable to (:data:`UNABLE`: the bedridden on their
  feet, a crippled cultivator flying a sword light);
- **位置**: a character other than the point of view (the narration follows it: where it is is
  the scene) placed (站在, 坐在, 在 …; or by a place opening the sentence: 温室里，她正
  坐在…) in a place the book knows that is neither the
  card's 位置, nor one the draft moves them to (``X.位置=``), nor one the prose took them to
  before (来到, 回到, 赶到 …), nor one their card's text says they keep to (坐镇执法堂: :func:`haunts_of`) —
  a warning, since places nest (a hall inside a sect); someone whose card puts them far away acting
  beside the point of view, or spoken to face to face (“长风，你来说。”), or seen today by a witness (by a
  form the cards say people call them: 少爷); someone the book keeps at their card's place (出不了院:
  :attr:`lw_storyrepo.forbidden.Bars.kept`) is as far, unless the point of view is there;
  someone said to have set out yesterday from a place the world or a card puts days away
  (:func:`journeys`) — an error, the road is shorter than the map;
- **书内时间**: the draft's in-book time earlier than the last chapter's (unless the draft says
  ``倒叙: true``); the prose's today, a festival, 节气 or season (入冬以来) said to be now, or tonight's
  moon, that the in-book date cannot have (lunar months and days, or the Gregorian day and the synodic month);
  a later day of the year told as past (十月初一那天刚上山的 on 九月十五: :data:`PAST_DATE`); a quoted piece written in
  the scene headed or signed with another day, a notice in hand issued on a later one (:func:`_document_days`).

A document dated the in-book day itself (a log's page, a receipt, minutes laid out line by line, a ledger read out)
records who acted that day where it was made: a duty field (校对：…), a name signing its own act (…经手), a name
opening a ledger entry — the dead are an 状态 error, the far away a 位置 warning (:func:`_document_actors`).

A flashback (``倒叙: true``) is checked by its setting changes only: the cards say how things
are now, not how they were (the dead spoke then, the hero was weaker). A sentence set in the
past (那时, 小时候, 当年 …) is not held to the card's 境界 either; a register (替补：A、B) lists
its people under a stage. A bare stage (学徒) counts
when someone is said to be it (不过是个学徒), compared by stage only. 他/她 stands for the one
character with a card named before it in its paragraph (else the paragraph before, past blank
lines; a name said inside a quote is the one spoken to, never the antecedent), or the one
of its gender (:attr:`World.gender`) — never a guess between two; a relative's word (娘亲) is
never the antecedent. Places nest as 世界观.md's clauses say (:func:`places_inside`). A missing character (失踪) has
no certain place; an arrival in the placing clause (在济春堂门口下了马) is a move; 坐在阁中 is the
known place ending in 阁 named nearby; 自己 is the point of view; a thing in a comparison
(和乌木尺一样) is not used. A voice whose speaker was guessed (turn-taking, a pronoun) makes a
warning, not an error.

Realms are ranked by the stages of 世界观.md's 「力量体系」 section (one stage a line or a list
separated by ＜ > → 、), else the usual cultivation ladder; levels by 一…十 with 层/重/阶/品/级,
初期/中期/后期/圆满.
"""

from __future__ import annotations

import bisect
import datetime
import functools
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, TypeVar

from lw_storyrepo.changes import CHANGE
from lw_storyrepo.findings import CLAUSE_MARKS, CLOSING_QUOTES, ERROR, FULL_WIDTH_STOP, SENTENCE_STOPS, WARN, Finding, Subject, span_start
from lw_storyrepo.forbidden import CAUSED, WRITING, Bars
from lw_storyrepo.memo import per_book
from lw_storyrepo.answers import ANSWER_MARK
from lw_storyrepo.giving import AWAY_VERBS, HOLD_OUT_VERBS, INTO_HANDS, INTO_VERBS, PUT_VERBS, SHOW_VERBS, TAKE_BACK_VERBS
from lw_storyrepo.kinship import FORMS as KIN_TABLE, ONE_CHARACTER as KIN_ONE_CHARACTER, WORDS as KIN_WORDS
from lw_storyrepo.names import SURNAME_ADDRESS, surname_of
from lw_storyrepo.numerals import value
from lw_storyrepo.propernouns import PEOPLE_WORDS, ROLE_TITLES, lexicon, not_inside_longer
from lw_storyrepo.ranks import (DOWN_WORDS, GONE_TIME, GONE_TIME_SAID, GROUP_OF, HELD_WHEN, NOW_WORDS, THAT_DAY, Ladder,
                                 ROSTER_CLOSE, VOCATIVE_OPENS, RankReader, reached, roster_entry, steps, told_back)
from lw_storyrepo.repo import as_list
from lw_storyrepo.wordsre import Ends, alternation, first_end, found_at, guarded, occurring, quoted_at

DEFAULT_STAGES = ("凡人", "炼体", "练气", "炼气", "筑基", "结丹", "金丹", "元婴", "化神", "炼虚", "合体", "大乘", "渡劫", "真仙",
                  "天仙", "金仙")
SAME_STAGE = {"炼气": "练气", "结丹": "金丹"}
DEAD = ("已死", "死亡", "身亡", "陨落", "已故", "战死", "亡故", "死去", "已逝", "去世")
GONE = ("失踪", "封印", "被封印", "下落不明")
# The kinds of "not now" a sentence can be in; NOT_NOW is their union, in this order.
RECALLED = r"回忆|想起|记得|梦"
"""A memory or a dream: the mind elsewhere."""
PAST_TIME = r"当年|那年|那些年|那几年|那些日子|那段日子|那阵子|那时|那会儿|当时|[走来去了过死]的那[天晚夜年次回]|小时候|幼时|儿时|当初|昔日|(?<![\u4e00-\u9fff])(?:以前|从前)(?!的)"
"""A time named as gone: a year, those years (他在沈家门跑船那些年, F9), a childhood, the day someone left, a clause opened on 以前/从前 (以前他爬到半截就要等
师父 — 出发以前 is a moment of the scene; 以前的账 is a thing, no time told as gone)."""
RECORDED = r"遗言|遗书|信中|信上|信里|留音|幻象|幻影|玉简|录音|录像|留言|留影|残魂|画像"
"""Words or a likeness kept from before: a letter, a recording, a portrait, a lingering soul."""
LIFETIME_PAST = r"生前|(?:临死|临终|死|去世|过世|遇害|出事|咽气)[之以]?前|曾经说"
"""Before a death: what someone did or said in their lifetime."""
HABIT = r"每[次回逢当][^。！？]{0,12}?[都总]|往常|以往|以前[^。！？]{0,12}?(?:总是|老是|常常|总爱|总要)"
"""What someone always did: each time, as usual, used to."""
YEARS_BACK = r"去年|前年|[一两二三四五六七八九十几数]+年前|前[一两三几]年|[一两二三四五六七八九十几数半]+个月前"
"""A span counted back from now: last year, three years ago, half a month ago."""
REMEMBERED_DAY = r"最后那[天晚夜次回]|临(?:出门|出发|走|行|别)[之以]?前|^\s*那(?:一)?[天日晚夜]"
"""A remembered day (最后那天, 临出门前, a paragraph opening on 那天傍晚): a scene told in the past."""
COUNTED_HABIT = r"[\u4e00-\u9fff]过(?:多少|好几|无数)[回次遍]"
"""A habit of a lifetime counted (先生骂过多少回)."""
NOT_NOW = re.compile("|".join((RECALLED, PAST_TIME, RECORDED, LIFETIME_PAST, HABIT, YEARS_BACK, REMEMBERED_DAY,
                               COUNTED_HABIT)))
"""A sentence told outside the scene's now; only ever asked whether it matches."""
LOSS_LEAD = 5
"""How many characters of a subject may come before a loss day in its clause (秦师傅下葬那天, 南城出事那天): the day leads
its clause; one further in (蹲在廖师傅下葬那天种的柳树底下) only describes a thing (R59, F2-1)."""
LOSS_DAYS = ("出事", "出殡", "下葬", "入殓", "落水", "走水", "失火", "翻船", "沉船", "塌硐", "塌窑", "塌方", "遇难", "遇害",
             "失踪", "咽气", "断气", "过世", "去世", "走")
"""Losses a day is named by: a death, a burial, an accident, a disappearance, a leaving (阿爹走那夜, 哥走那天 — the
day the dead or the missing went, in ten books of the pool; F2, stop 59)."""
LOSS_DAY = (rf"(?:(?:^|(?<=[。！？!?；;，,：:\n]))\s*[^。！？!?；;，,：:\n]{{0,{LOSS_LEAD}}}?)"
            rf"(?:{'|'.join(x for x in LOSS_DAYS if x != '走')}|(?<![你我咱俺要就等])走)的?那一?[天日晚夜年回]"
            r"(?![早晚上下午夜中里头间]{0,2}的|[\u4e00-\u9fff]的[\u4e00-\u9fff])")
"""A day named by a loss (南城出事那天他被抬回来, 秦师傅下葬那天，也是这样的雾): a day gone by whatever the verbs say — nobody
plans an accident or a burial ahead. Not in :data:`NOT_NOW` (its other readers — the book's time, the leaks — count from such
a day); only the readers of who is in the scene (the voices of the dead and the absent, the acts of the dead, the far in the
scene) take it, through :func:`scene_gone`."""
LOSS_DAY_LED = re.compile(LOSS_DAY)
""":data:`LOSS_DAY` leading its clause."""


def scene_gone(line: str) -> re.Match[str] | None:
    """Whether a line tells of a time the scene is not: :data:`NOT_NOW` anywhere in it, or a day named by a loss
    (:data:`LOSS_DAY`) leading a clause of its narration — never in a quote (“等你走那天，我来送！”, “出事那天我就说过！”
    are said in the scene: R59, F2-1)."""
    return NOT_NOW.search(line) or LOSS_DAY_LED.search(_QUOTED_WORDS.sub(" ", line))
LIFETIME = re.compile(r"(?:在世|活着|在)的时候|在世时|(?:死|去世|过世|遇害|咽气|落水|淹死|下葬|入殓|出殡)(?:了|之|以)?后|"
                      r"[\u4e00-\u9fff]了(?:一|半|大半)辈子")
"""A paragraph set in a dead person's lifetime (师父在的时候说过：…; 都是师父用了一辈子的：一把锤，一卷麻 — a list after
its colon, no voice) or after their death (师父落水以后，东西收拾出来): what it tells of them is no act or voice in the
scene. Read for the dead only: a living one's 搭了半辈子 is no past of the scene."""
_KNOWING = r"(?:知道|明白|清楚|料到|猜到|想到|察觉)"
KNEW = re.compile(rf"[\u4e00-\u9fff]{{1,8}}?(?:(?:其实|原来|早就|早已|早都|一直|始终|从来)(?:都|就)?{_KNOWING}|"
                  rf"(?:就|怎么|怎会|如何|哪里)(?:都|就)?{_KNOWING}(?=[^。！!\n]*?(?:[？?]|[吗呢](?=[。，,！!…\n]|$))))")
"""What someone had long known, read at their name (他爹早就知道那笔账有问题): a thought of their lifetime, not
words in the scene — the dead and the missing are told of so; and what the point of view asks they knew (大庚怎么知道，…？;
巴雅尔大叔二月里就知道自己要往北边去？ — S1 at stop 51: a knowing, no voice) — asked: a bare 就 of a thought in the
scene (鲁万山一听就明白，心里想…; 转身就想到了对策) is no question (R51 at stop 51)."""
MEDIUM = re.compile(r"传音|信中|信上|玉简|传讯|电话|留音|隔空|听筒|话筒|电报|无线电|电台|步话机|对讲机|通讯|信号|屏幕|视频|连线|语音")
"""A call or a letter: what carries a body's doings from elsewhere (妈在电话里叹了口气)."""
REMOTE = re.compile(MEDIUM.pattern + r"|隔着(?![^，,。！？；;]{0,4}?(?:人堆|人群|人丛|人缝))|隔壁|墙那边|墙后|门外|窗外|通风|格栅|"
                    r"管道里|声音从")
"""A voice from elsewhere (a call, a letter, words overheard through a wall or a vent): said in
the speaker's paragraph or the few before it. Across a crowd (隔着街上的人堆) is in sight, not elsewhere."""
DOOR_SIDE = re.compile(r"门外|窗外")
"""The words of :data:`REMOTE` that name the outside of a door or a window of here (山门外, 院门外, 窗外): a voice
through it is elsewhere, but a body seen doing what a body does there is here (PS4, stop 63: 连续性-盲评二十六's
驿门外一阵铃铛响…范掌柜翻身下了骡子, 二十九's 山门外，阎和尚拄着锡杖站在夕阳里, 三十's 院门外头一阵铃铛响…乔掌柜跳下马车 —
three books). :func:`_present_far` reads a paragraph whose only remote words are these for the body's acts, not for
voices (spoken to, calling, speaking beside a quote, reports in its quotes)."""
SCREEN = re.compile(r"电话|视频|屏幕|连线|镜头|画面|监控|对讲|听筒|话筒|通话|直播|录像")
"""A call or a screen that goes on for paragraphs: the body seen is elsewhere (a letter read says nothing of who comes in)."""
CALL_SPAN = 4
"""How many paragraphs before a voice a call or a letter still carries it (the call goes on)."""
DEVICES = ("对讲机", "步话机", "无线电", "电台", "卫星电话", "通讯器", "耳麦", "传音玉符", "玉符", "传音符", "传讯符", "传音石",
           "传讯玉简", "水晶球", "通讯玉佩")
"""What carries a far voice for as long as a talk lasts besides a phone (a radio, a sect's paired jade talisman):
its lighting up is its ringing. A phone's or a screen's lighting up is a message, not a call (CALL_OPEN's own forms)."""
_DEVICE = "|".join(sorted(DEVICES, key=len, reverse=True))
CALL_OPEN = re.compile(r"打来|打过来|来电|接起|接通|拨通|拨了|回拨|打了个?电话|电话响|手机[^。！？，,；;\n]{0,4}[响震]|"
                       r"视频请求|视频通话|语音通话|视频电话|(?:电话|视频|屏幕|听筒|手机)那[头边端]|电话里|听筒里|"
                       rf"(?:{_DEVICE})(?:[^。！？，,\n]{{0,4}}?)(?:亮了|亮起|响了|响起|震了|发烫|泛起|传来|传出|那[头边端]|里传|里头传|里响)|"
                       rf"(?:{_DEVICE})(?:里|里头|那头)[^。！？\n]{{0,6}}?(?:声音|嗓音|说|问|喊)|"
                       r"(?:接过|拿起|抓起|提起|摘下|抄起)了?[^。！？，,\n]{0,2}?(?:听筒|话筒|电话(?![簿本号费单线]))")
"""A phone or video call begun (手机响了, 打来视频, 电话那头, the receiver taken up: 秋生接过听筒, 抓起电话 — twelve books of the
pool, F2 at stop 59), or any device of :data:`DEVICES` lighting up or carrying a voice (对讲机响了, 玉符亮了, 玉符里传来他的声音):
it goes on until it is hung up (:data:`HANG_UP`)."""
HANG_UP = re.compile(r"(?:电话|视频|语音)(?:就|便|已经)?挂了|挂了(?:电话|视频)|[我先就便]挂了(?=[啊吧哈啦，,。！!…]|$)|挂断|挂掉|"
                     r"挂上电话|收线|屏幕一黑|黑了屏|电话断|断了线|掉线|通话结束|放下电话|忙音|"
                     r"(?:放下|撂下|搁下|挂上|放回)了?(?:听筒|话筒)|把(?:听筒|话筒)[^。！？，,\n]{0,2}?(?:放|搁|撂|挂)|^\s*[*＊—\-~～·]{3,}\s*$|"
                     rf"(?:{_DEVICE})[^。！？\n]{{0,6}}?(?:暗了下去|灭了|熄了|熄灭|没了声|没声了|断了)")
"""A call ended (电话挂了, 屏幕一黑) or a scene break: the voices after it are in the room again."""
CALL_RUN = 40
"""The most non-empty paragraphs a call carries a voice without being hung up (a call left open is no licence for the chapter)."""
CONFINED = ("在押", "羁押", "关押", "收押", "刑拘", "拘留", "被拘", "服刑", "入狱", "坐牢", "收监", "囚禁", "软禁", "被捕",
            "被关", "监禁", "被囚")
INPATIENT = ("住院", "留院", "入院", "留观", "住进医院")
"""States that keep a character in a hospital ward, their card's 位置: held like :data:`CONFINED`."""
SECLUSION = ("闭关", "闭死关", "坐关", "坐死关", "闭门谢客")
QUARANTINE = ("隔离", "关禁闭", "禁闭")
HOUSE_ARREST = ("禁足", "圈禁", "幽禁", "闭门思过", "面壁思过")
"""States that keep someone inside their own house, palace or cave by order (禁足 in a palace, 面壁 in a sect)."""
SECLUDED = SECLUSION + QUARANTINE + HOUSE_ARREST
"""States that keep a character in their card's 位置 of their own rule or a quarantine (a cave sealed for
seclusion, an isolation ward): seen there or behind its door only, until released (:data:`RELEASED`)."""
RELEASED = re.compile(r"出关|破关|出了关|解除隔离|隔离期满|出了隔离|解除了隔离|禁闭期满|放了出来|放出来|解禁|"
                      r"解[了除][^，,。！？]{0,6}?禁足|禁足期满|思过期满")
"""A seclusion or a quarantine ended, said in the paragraph that names the one it held."""
CONFINED += INPATIENT + SECLUDED
"""States that hold a character in their card's 位置 (a cell, a prison, a ward): seen, heard or placed
anywhere else, they are at large (or out of hospital)."""
VISIT = re.compile(r"探视|探监|探望|看望|病房|病床|陪床|陪护|会见|接见|提审|审讯|隔着|铁窗|铁栅|栅栏|看守|玻璃那头|玻璃对面|监区|监室|牢房|牢里|狱中|号子里")
"""A visit to someone held (探视, 隔着玻璃): where they are is their cell, not the scene's place."""
CARRYING = ("扛着", "挑着", "背着(?![手他她我你人])")
"""Carrying a load on a shoulder, a pole or the back (林大脚扛着一捆船板…, 他背着那只图囊…, 挑着两桶水上了坡): a body's act
as 拎着, 提着, 抱着 are (S2, stop 59; 连续性-盲评二十五, 三十一, 三十五 wrote 扛着 and 背着, 四十四 挑着) — not 背着手 (a posture
:data:`BODY_MOVES` reads) nor 背着他 (behind someone's back). A row of :data:`ACTS`, a regular expression as they all are. Not 挎着 (连续性-盲评十's
小雪就挎着它从面包车里跳下来, a day remembered with no word of memory) nor 担着 (担着责任, a charge borne)."""
VEHICLES = "车|船|爬犁|雪橇|筏|排|舢板|拖拉机"
"""What a body drives, rows or poles along (解放车, 马车, 渡船, 青马爬犁, 木排)."""
CONVEYING = (rf"(?:开|驾|赶|撑|划|摇|蹬)着[^，,。！？；;\n的]{{0,6}}?(?:{VEHICLES})",
             r"(?:拉|运|载|驮|送)(?:来|过来|回来|了)了?一(?:车|船|筏|爬犁|趟)")
"""Driving, rowing or poling a vehicle along (开着解放车, 赶着那匹青马爬犁, 撑着篙把船头抵上了岸) and bringing a load by it
(拉来一车水, 运了一船煤): a body's act as 骑着, 牵着 are (S3's round, stop 60: 连续性-盲评二十五, 三十七, 四十六 wrote it). Rows of
:data:`ACTS`."""
MOUNTS = ("马车", "马", "骡子", "骡", "驴", "毛驴", "牛背", "牛车", "骆驼", "轿子", "轿", "大车", "车", "船", "舢板", "筏子", "筏",
          "爬犁", "雪橇", "自行车", "摩托")
"""What a body rides or is carried by and gets down from (a beast, a cart, a chair, a boat): the table of :data:`ALIGHTING`."""
ALIGHTING = (rf"(?:(?:翻身|跳|跨|滚|溜|爬|跃|蹦)|(?<![留放扔撂剩卸买搁丢撇落拉扯取摘乡底地坐躺写记收撤换拆]))下了?"
             rf"(?:{alternation(MOUNTS)})(?![间威头上里钥票鞭帘费厢轮路])")
"""Getting down from a mount or a vehicle (翻身下了骡子, 跳下马车, 下了轿): the one who does it has arrived where the
scene is (PS4, stop 63: a grammar — an optional manner of the body, 下, a word of :data:`MOUNTS` — from 连续性-盲评二十六,
三十 and 二十二's sighting); not 下车间 (a workshop), 下马威 (a show of force), 下船头 (a part of it), nor a 下 that
completes another verb (留下马车, 放下车钥匙: r63-16) or a mount word heading a thing (车钥匙, 车票, 马鞭). A row of
:data:`ACTS`.
"""
HAND_HOLDS = "举|捧|拄|攥|捏|拿|夹|叼|衔|搂|擎|握|掐|拈"
"""One-character verbs of a hand (or the mouth) holding a thing: the open class of :data:`HOLDING_NOW` — not 撑, 托, 抓,
whose 着 is as often a charge borne (全靠他一个人撑着, 抓着生产, 托着关系: r63-13)."""
HOLDING_NOW = (rf"(?:{HAND_HOLDS})着(?![的急想命])"
               r"(?![^。！？；;，,：:“”\n]{0,10}?的(?:样子|样儿|模样|背影|身影|影子|神气|神情|架势|声音|笑|眼神|手|脸)(?:[，,。；;]|$))")
"""A body holding a thing right now (举着那只千里镜, 捧着手炉, 拄着锡杖, 攥着一把钥匙): whoever does it is where the scene
looks (PS4, stop 63: the verb's class, not the books' words; 连续性-盲评二十, 二十九, 三十四 wrote 捧着, 拄着, 举着) — not
closed by 的 (拄着的拐: a thing), nor 拿着急 (in a hurry), nor a clause closed on a look of its holder (书记捧着搪瓷缸的样子:
a picture in the mind, as :data:`LOOK_OF` reads). A row of :data:`ACTS`; 拎着, 提着, 端着, 抱着 were already rows."""
ACTS = ("推门", "推开", "走进", "走了进来", "走进来", "进来", "走过来", "走了过来", "走来", "走到", "来到", "迎上", "坐下", "坐了下来",
        "坐在", "站在", "站起", "立在", "蹲在", "靠在", "倚在", "点头", "点了点头", "点点头", "摇头", "摇了摇头", "笑了", "笑着",
        "笑了笑", "伸手", "伸出手", "抬手", "抬起头", "抬头", "低头", "低下头", "转身", "转过身", "回头", "回过头", "写下", "拿起",
        "端起", "叹了口气", "看着", "望着", "盯着", "拍了拍", "握住", "拉住", "扶着", "解开", "推了推", "招手", "招了招手",
        "挥手", "挥了挥手", "递给", "接过", "敲了敲", "掀开", "翻开", "起身", "眨了眨眼", "咳嗽", "咳了一声", "抽着烟", "冲", "朝",
        "出来", "走出来", "走了出来", "拎着", "端着", "提着", "抱着", "推着", "系着", "进了", "迈进", "跨进", "缝合", "查房", "值班",
        "忙着", "埋头", "俯身", "弯腰", "蹲下", "跪下", "躺下", "探出头", "探出", "探进", "探头", "钻出来", "带着", "领着",
        *CARRYING, *CONVEYING, ALIGHTING, HOLDING_NOW)
"""What a body does (推门走了进来, 点了点头, 冲她招手): the dead and the held do none of it in the scene."""
BEFORE_NOW = re.compile(r"死|去世|过世|没了|不在了|故去|走后|走了|去了|临走|走前|走之前|动身前|离开|那年|当年|从前|以前|原先|过去")
"""A sentence's first clause that puts its subject gone or in the past (爹走了以后, 苗三叔临走): its later
clauses are not that person acting now."""
UNKNOWN_TO_THEM = re.compile(r"不知道|并不知道|哪里知道|哪知道|殊不知|谁也不知道|谁都不知道|没人知道|无人知道|不晓得|蒙在鼓里|与此同时|同一时刻|"
                             r"此时此刻")
"""The narrator telling what the scene does not know (他不知道，韩五这时候…): the missing seen there are elsewhere."""
BODY_ACT = r"往[^。！？；;，,：:“”\n的]{1,6}?[上里下边前头]一[\u4e00-\u9fff]"
"""A body disposing of a thing with a gesture (把胡琴往腿上一架, 把杆子往地上一杵): only someone in the scene does it."""
NOT_A_PLACE = ("绝路", "死路", "末路", "歧途", "歧路", "邪路", "弯路", "老路", "正轨", "正道", "正路", "岗位", "仕途", "征程",
               "道路", "不归路", "巅峰", "高峰", "人生", "政坛", "舞台", "前台", "台前", "领导", "犯罪", "革命", "极端", "富裕")
"""What 走上/走进 reaches that is no place (走上了绝路, 走上正轨, 走上岗位, 走上了一条歧途): a course of life, no move."""
BODY_MOVES = (r"(?:[走跑爬钻转闪溜挤跨跳蹿迈攀]了?(?:[进出回过下]了?[来去]|[上进](?!了?[一几两]?[年月天]|"
              rf"了?(?:[一这那]条)?(?:{'|'.join(NOT_A_PLACE)})))|"
              r"[低垂埋弓佝]着(?:头|腰)|背着手|叉着腰|翻了个身|翻过身|牵着|骑着|骑在|骑了?上)(?!的)")
"""What a body does that no phrase of :data:`ACTS` says, by the kind of word (a way of moving with where to: 转了出来,
爬上驾驶台, 钻了进来; a posture held: 低着头, 背着手; turning in bed: 翻了个身; leading or riding a beast: 牵着一头骡子,
骑着他那匹黄骠马 — S1 at stop 51):
the dead and the missing do none of it in the scene; not one closed by 的 (走过的路: a path, no act), nor one
reaching no place (:data:`NOT_A_PLACE`: 走上了绝路)."""
FAR_ARRIVAL = re.compile(r"回来(?!信)|回到|赶回|赶来|赶到|赶了回来|探亲|下了?火车|下了?飞机|坐火车|坐飞机|飞回|回国|请了?假回|"
                         r"提前回|专程|大老远|千里迢迢|捎来|(?<![起头身过出下上])来看")
"""What tells that someone far away came (从攀枝花赶回来, 下了火车): said in a sentence naming them, they may be here."""
AWAITED = re.compile(rf"等着?[^，,。！？；;\n]{{0,8}}?(?:{FAR_ARRIVAL.pattern})(?!时|的时候|之时|以后|之后)")
"""An arrival waited for, still to come (这匣子账…等老爷回来过目): nobody came."""
ABED = ("重伤", "瘫痪", "卧床", "病危", "昏迷", "植物人", "截瘫", "卧病", "下不了床")
"""States that keep a character in bed: they do not run, jump or get up (:data:`ON_FOOT`)."""
ON_FOOT = re.compile(r"(?<![不没难想要能法])(?:小跑|跑|奔|跳|翻身下地|下了地|下地|下了床|下床|追到|追了|追出|冲出|冲到|冲进|快步|大步|一溜烟|蹦|"
                     r"走到|走过来|走了过来|走进|走出|迈开|迈着|步子迈|扛着|挑着)")
"""What someone on their feet does (一溜小跑追到了走廊, 扛着锄头一直走到地头), not said as a wish or a failure (想下床,
下不了床)."""
POWERLESS = ("修为尽废", "修为全废", "修为尽失", "修为全失", "经脉尽断", "丹田被废", "武功尽失", "武功全废", "内力全失", "废人",
             "异能尽失", "失去异能", "异能消失", "魔力尽失", "法力尽失")
"""States that take a power away (a crippled cultivator, a mage who lost his magic, a mutant burnt out)."""
UNABLE: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = (
    (ABED, ON_FOOT, "却下地走动"),
    (POWERLESS, re.compile(r"(?<![不没难想要能法再])(?:御剑|驭剑|驭起|御起|祭起|祭出|掐诀|掐了个诀|捏诀|运起|运功|施法|催动|"
                           r"放出神识|神识一扫|腾空而起|踏空而|凌空而起|御风而|放出威压|[斩劈挥划]出一道剑气|"
                           r"释放异能|发动异能|动用异能|放出异能|施展异能|凝出|凝聚出|召唤出|"
                           # the power seen at work: a new wall or blade of an element (一道冰墙从地上拔起来),
                           # not one standing there (那道化开的冰墙)
                           r"(?:一道|一面|一堵|一团|一簇|一根|一排|一片)[冰火雷风水岩石土][墙锥刃盾柱球箭枪幕龙蛇])"), "却动用了修为"),
    (("吊销驾照", "驾照被吊销", "禁驾", "禁止驾驶"), re.compile(r"(?<![不没难想要能法再])(?:开着车|开车|驾车|握着方向盘|握住方向盘|"
                                                     r"踩下油门|踩油门|一脚油门|发动了车|打着了火)"), "却开了车"),
)
"""States that leave someone unable to do a thing, what doing it reads as (not as a wish or a failure:
下不了床, 再也御不了剑), and what the finding says: bedridden on their feet, a crippled cultivator flying
a sword light, a driver whose licence is gone at the wheel."""
MUTE = ("哑", "失声", "失语", "不能说话", "不能言语", "口不能言", "说不出话", "不会说话", "聋哑")
"""States that take the voice away: someone in one does not speak aloud (:data:`SIGNED` is how they tell)."""
SIGNED = re.compile(r"写|比划|比画|比了|手势|手语|打手势|纸上|字条|纸条|板上|指了指|点头|摇头|心想|暗想|心道|暗道|心里|"
                    r"打字|[一两几][个行句段]字|短信|微信(?!语音|电话|视频)")
"""What a mute's words are told by instead of a voice (在灰上写了一个字, 比划着, 回了一个字), or a thought of theirs."""
VOICED = re.compile(r"的声音|声音从|的嗓音|嗓子眼里挤|开口说|开了口")
"""What the narration says is a voice heard (宋姐的声音从听筒里传出来): a mute's words so told are spoken, whatever
else the paragraph writes (砂纸上 is no note)."""
FRESH = re.compile(r"今天|今早|今儿|刚才|刚刚|方才|昨天|昨晚|昨夜|这会儿|一早|墨迹还新|墨还没干")
"""What makes a trace new (今天早上…亲笔写的): the dead did not leave it."""
TRACE = r"(?:亲笔|亲手|刚|才)?(?:写|留|签|画|寄|塞|放|捎)(?:的|下|了)"
MADE_KNOWN = re.compile(rf"[^。！？；;，,：:]{{0,8}}?{TRACE}了?[那这]")
"""An act of the dead that made a trace the story already holds (师父写下了那条批注): its making was their lifetime."""
"""A written or left trace by someone (赵八级亲笔写的)."""
NOT_SUBJECT = "的和跟与同给替为把被让叫对向朝冲帮找问陪随送将"
"""A character right after one of these is an object (许砚对陈守礼点了点头), not the one acting."""
NOT_SURNAME_BEFORE_POST = NOT_SUBJECT + "连于在从自"
"""Characters that are a preposition or particle right before a post (连站长也…, 向站长…, 于站长处), though
:func:`surname_of` takes them for surnames: no surname there (:func:`_post_of_another`)."""
NOT_THERE = re.compile(r"照片|相片|遗像|相框|画像|监控|视频|录像|屏幕|遗体|尸体|尸身|灵堂|灵位|牌位|墓|坟|骨灰|太平间|追悼")
"""The dead shown, not acting: a photograph, a recording, the body, a grave."""
DOWN_EVENTS = re.compile(r"跌落|跌境|跌回|境界跌|修为尽失|修为大减|修为倒退|废去|废了|散功|自废|封印|倒退|受损|重创|燃烧|"
                         r"降职|降级|撤职|免职|革职|停职|贬为|贬到|降为|降成|撸了|撤了职|一撸到底")
USE_VERBS = ("拔出", "抽出", "握着", "握紧", "握住", "举起", "挥动", "挥出", "祭出", "取出", "掏出", "亮出", "服下", "吞下", "催动",
             "捏着", "攥着", "攥紧", "佩着", "背着", "抚着", "擦拭", "拿着", "提着", "摸出", "拿出", "翻出", "抖出", "甩出", "抛出",
             "递出", "递过", "举着", "托着", "捧着", "戴着", "戴上", "按进", "按在", "插进", "嵌进", "咽下", "祭起", "扬起", "亮了亮",
             "吹起", "吹着", "吹响", "弹起", "弹着", "摇着", "摇响", "挥起", "拈起", "捏起", "抽出了", "横起", "展开", "抖开",
             "打开", "点燃", "捏碎", "砸碎", "套上", "披上", "穿上")
USE_VERBS += ("推出", "推着", "骑上", "骑着", "跨上", "扣着", "递给", "塞给", "塞进", "拿起", "拎着", "拎起", "把玩", "摩挲", "掂了掂",
              "晃了晃", "攥在", "握在", "别着", "挂着", "系着", "揣着", "揣进", "押在", "当掉", "摘下", "按下", "拧开", "撬开", "端起",
              "端着", "抄起", "抓起", "亮出")
HANDLE = "攥|握|捏|拿|揣|抓|掏|取|拧|用|戴|挂|别|系|佩|塞|收|藏|递|举|按|插|扣|推|骑|拎|提|端|抱|背|摘|夹|套|捧|托|搭|披|穿|裹|围|箍|缠|绑"
"""What a hand does with a thing, said after it: 怀表被她攥着, 钥匙挂在她腰间."""
BODY = "腰|胸|脖|颈|手|指|腕|怀|兜|口袋|袖|身上|掌|肩|背|头上|耳|拇|大拇|食指|中指|无名指|小指|胳膊|臂|腿|膝|脚|踝|头|脸|额"
"""Where on someone a thing is worn or held (挂在林知夏的腰间)."""
TOPIC_ADVERBS = "这会儿|此刻|此时|眼下|如今|现在|今天|今日|今儿|正|竟|竟然|居然|却|就|已经|早已|早就|分明|明明|还|都|也|又|倒"
"""What may stand between a thing said first and the clause that puts it on someone (那枚扳指，这会儿却套在…)."""
USE_VERBS += ("捧出", "端出", "抱出", "搬出", "拎出", "捧起", "抱起", "取下", "解下", "拴上", "别上", "系上", "挂上", "揣上",
              "亮给", "披着", "穿着", "裹着", "搭着", "套着")
GET_VERBS = ("接过", "收下", "拿到", "夺过", "夺下", "捡起", "拾起", "得到", "取回", "借来", "买下", "收起", "拿过", "抓过", "抢过")
BACK_AGAIN = re.compile(alternation(TAKE_BACK_VERBS))
"""A thing going back (:data:`giving.TAKE_BACK_VERBS`: 接回, 要回, 还给): said in a sentence naming a thing given away, it
is its giver's again (H6) — the contract's handover for a moment reads the same verbs."""
NOT_GIVEN = re.compile(r"没|不|别|未|想|要|该|肯|打算|准备|让|叫|喊|请|替|帮|给|和|跟|同|与|若|如果|万一|[他她你我]")
"""Words between a giver and 把, in the clause of 把, that make the giving not done, not theirs or not their own act
(没把, 想把, 叫他把, 跟老郑把): no giving read (H6)."""
SET_DOWN_AGAIN = "放|搁|摆|撂|靠|立|搬|挪"
"""What anyone does, after 把 and a thing given away, that sets it down somewhere (把喷烟壶搁在他脚边, 把马灯放回桌上):
out of the receiver's hands, within reach — its giver using it later is no contradiction (H6, R54). A putting into
another's hand (放到老郑手上) is read again as a giving right after."""
HE_ONE_OR_YOU = re.compile(r"[他她你]")
"""Another's hand said by a pronoun (塞进他手里, 放到你手上)."""
NOT_ANOTHERS = re.compile(r"^[^。！？“”，,\n]*?自己")
"""A hand said as one's own (塞进自己怀里) between a putting verb and the hand: no other's hand, no giving (H6, R54)."""
NOT_ALL_OF_IT = re.compile(r"[^。！？“”，,\n]{0,6}?(?:[一两几半][台块支辆把枚只串副个张本件条顶盏架部柄颗粒根杆面片包袋口撮"
                           r"碗杯壶瓶盆桶罐盒碟盘勺缸筐篮捆沓叠截段滴捧]|看|瞧)")
"""What may follow a giving's verb and its receiver that makes it no giving of the thing itself (掏出烟盒，递给老郑一支;
把相册递给他看): a part of it or a measure of another thing (递给她一碗姜汤: a bowl, cup or pot is a measure too — R55), or
a showing for a look — its holder keeps it (H7)."""
HELD_OUT_GAP = re.compile(r"(?:了|来|出来|起来|下来)?(?:[，,]|$)")
"""What alone may stand between the thing taken in hand with no 把 and the clause's end (拿出铜扳手，递给…; 拿起马灯递过去):
anything else there is another thing or a part named after it (拿起煤油灯旁边的火柴, 取下煤油灯罩子), the one handed (R55)."""
OTHER_THING = "的"
"""A 的 between a thing and the verb that hands something on (``OTHER_THING in gap``): the thing only describes what is
handed (把煤油灯旁边的火柴递给…: R55)."""
BACK_OTHER = re.compile(rf"把(?![它这那])[^。！？“”，,\n]{{1,6}}?(?:{alternation(TAKE_BACK_VERBS)})")
"""A taking back naming, after 把, another thing than a known one (苏禾把钱又还给了老周): no thing given away comes back
(R55); 把它, 把这东西, 把那盏灯 point at the given thing."""
ANOTHER_ONE = re.compile(r"另|又一|新|备用|第二")
"""Words right before a thing that make it another one of its kind (另一盏马灯): not the one given away (H6)."""
STAY_VERBS = ("站在", "坐在", "躺在", "留在", "守在", "立在", "等在", "跪在", "住在", "困在", "靠在", "倚在", "蹲在", "候在",
              "躲在", "藏在", "趴在", "窝在", "歪在", "挤在", "围在", "坐镇", "在")
HE = ("他", "她")
"""A pronoun subject: the character is the last one named before it in the paragraph (or the
paragraph before), as a reader takes it. The one set the pronoun patterns are built from (:data:`HE_ONE`)."""
HE_ONE = f"[{''.join(HE)}]"
""":data:`HE` as one character of a pattern: :data:`PERSONS`, :data:`_PRONOUN` and :data:`_PRONOUN_LEAD` are built on it."""
SEEING_WORDS = ("看见", "看到", "瞧见", "瞅见", "望见", "瞥见", "撞见", "听见", "听说", "知道", "晓得", "发现", "觉出", "认出",
                "看着", "望着", "盯着", "瞅着", "瞧着", "注视着", "眼看着")
"""Verbs of seeing, watching or knowing whose object may be a clause of another's act (阿满看着老周拿起…): the one table
:data:`NOT_USE` and :data:`SEES_A_CLAUSE` are built from (R57 F3, stop 57: the watching verbs and 发现/晓得/觉出 were in
one table and not the other)."""
NOT_USE = re.compile(r"看|望|盯|瞧|瞥|瞄|想|听|见|认出|注意|指着|对着|朝着|冲着|提到|说|问|道|知道|记得|梦|没有|没|不|"
                     r"赎|寻|找|讨|盼|惦|念叨|提起|说起|打听|要回|买回|" + alternation(SEEING_WORDS))
"""Words between a character and a thing that say it is seen, thought of, talked about or sought
(攒钱赎爹那件蟒袍, 四处打听那块表), not used."""
ITEM_KIND = "台块支辆把枚只串副个张本件条顶盏架部柄颗粒根杆面方尊口卷册幅轴管锭挺具座艘匹封套领枝盒瓶"
"""Measure words that point at one known thing by its kind (那台高温计 for 光学高温计)."""
DESCRIBED_KIND = ITEM_KIND + "片"
"""Measure words that may open a description said between a hand act and a known thing (拿起那片…的竹口弦)."""
AGAIN_ONE = re.compile(rf"又[^。！？“”，,\n]{{0,4}}?一[{DESCRIBED_KIND}]$")
"""A use that brings out one more of its kind (又摸出一只手电筒), read on the few characters before the thing: not the one
given away (H7)."""
TWO_OF = rf"(?:[两俩几]|一[双对])[{DESCRIBED_KIND}双对]?"
"""More than one of a thing said before its name (两只手电筒, 一对玉镯): its giver may give one and keep one (H7)."""
DESCRIPTION_UNIT = r"(?:[^。！？“”，,：:；;\n]|“[^。！？“”\n]{1,10}”)"
"""One piece of a description between an act and its thing: no clause end; a short quoted inscription (刻着“…”的) may stand in it."""
GIVING = re.compile(r"给|送|交|赠|借|还|赏|赐|留给|传给")
GIVEN_TO = re.compile(r"(?:给|送给|借给|赏给|赐给|留给|传给|交给)[他她我]的")
"""A giving to the user said between the act and the thing (借给她的): the thing is in the user's hands (H5)."""
"""A second verb of giving inside a description (他爹送的…) says whose hands the thing passed through: no reading (H5)."""
TO_ITS_HOLDER = re.compile(rf"^[^。！？“”\n]{{0,8}}?(?:(?:{alternation(AWAY_VERBS + TAKE_BACK_VERBS)})了?(?P<to>[^。！？“”，,\n]{{1,6}})"
                           rf"|(?:{alternation(INTO_VERBS + ('塞回', '放回', '递回'))})(?P<whose>[^。！？“”，,\n]{{1,6}}?)"
                           rf"(?:{alternation(INTO_HANDS)}))")
"""What may follow a thing another holds, after the act bringing it out, in the same sentence: handed on at once, into
the hands of the one named after the verb (摸出那只口琴，塞到他手里; 把竹杖捡起来，塞回小苗手里) — read by
:func:`_brought_to_holder` (H8, stop 56)."""
KNOWING = r"明白|知道|晓得|清楚|懂得?|猜到|猜出|想通|想不通|想不明白|弄不?明白|纳闷|不解"
"""Verbs of knowing or wondering: what stands under them is a fact known, not an act of the scene — when it is asked
why or how, or set in a time gone (:data:`KNOWN_NOT_DONE`)."""
ASKED = r"为什么|为何|为啥|凭什么|怎么|怎样|如何"
"""A why or a how: asked of an act already done."""
KNOWN_NOT_DONE = tuple((re.compile(rf"(?:{head})[^，,；;。！？“”\n]{{0,3}}[，,：:]?\s*$") if head else None,
                        re.compile(between) if between else None)
                       for head, between in ((f"{RECALLED}|记起|忆起|回想|忘不了|忘不掉", None),
                                             (KNOWING, f"{ASKED}|{PAST_TIME}"),
                                             (None, "回忆|想起|记起|忆起|回想|梦见|梦到"),
                                             (None, rf"(?:{KNOWING})[^。！？“”\n]*?(?:{ASKED}|{PAST_TIME})")))
"""A clause under a verb of knowing or remembering, read by :func:`_known_not_done`: one row a kind — the verb right
before the one acting (``head``, a few characters and a clause mark may stand between; None: none needed) and what
must stand between them and the thing (``between``; None: nothing needed). The last two rows read a knower or a
rememberer taken for the one acting, the verb between them and the thing (苏禾想起那天老周提着…; 记得, a remembering to
do, is not among them: 老周记得拿起秒表 is done now). 想起那天老周把刀交给他 (remembered), 明白了爹为什么把窑钥匙交给他 (a
why known), 知道老周当初怎么把刀交给他 (a how and a time gone): no act of the scene's now. 知道老周拿着刀 (a fact now)
keeps its reading (H9, stop 56: U13's good 5 A)."""
SPOKEN_USE_VERBS = ("拿", "用", "使", "借", "提", "拎", "开", "骑", "扛", "背")
"""The verbs of 我 using a thing in someone's words (我拿…, 我开着东方红…, 我提着那盏马灯…, 我借你那根扁担…): the speaker's use
of what follows (:data:`SPOKEN_NOT_DONE` and :data:`SPOKEN_AFTER_NOT_DONE` take back a plan, a fetch, a return)."""
SPOKEN_CARRY_VERBS = ("挑",)
"""Verbs of :data:`SPOKEN_USE_VERBS`'s kind whose bare form is another sense (我挑那只… = I choose): a use only with 着/了
(我挑着那担水) (R57 F1, stop 57)."""
MINE_SPEAKERS = ("我", "俺")
"""The first person of someone's words whose own thing the words may name (:data:`MINE_NOT_NOW`, H12 at stop 59)."""
MINE_POINTED = re.compile(rf"(?:{alternation(MINE_SPEAKERS)})的?(?:[^。！？“”，,：:\n的这那]{{1,3}}?[上里])?[这那]一?[{ITEM_KIND}]")
"""The speaker pointing at a thing as their own in the sentence as written (我那只…, 我手上这只…, 俺抽屉里那把…): this or
that and a measure word right after 我 or a place of theirs — the sentence read may have moved the measure word after the
thing's name. 我的刀 alone, or a verb between (我没拿那只…), is no claim read (H12)."""
MINE_NOT_NOW = re.compile(rf"[^。！？!?“”，,；;\n]{{0,8}}?(?:送|借|给|还|当|卖|丢|输|押|换|赔|偷|抢|没了|不见|早|原先|原来|{PAST_TIME}"
                          r"|被|叫|让|呢|吗|么)")
"""What may follow a thing the speaker calls their own (我那只…千里镜, 我手上这只…扳指, 我鼻梁上这副…眼镜, 俺那杆…) in their
clause that makes the words no claim that they have it now: it was given, lent, pawned, sold, lost or taken (我那只表早当了,
我那把刀叫他拿走了), or it is asked after (我那只表呢？). Read by :func:`_claims_own` (H12, stop 59)."""
MINE_ELSEWHERE = re.compile(r"还我|还给|送给|送人|借给|借走|借去|给了|当了|卖了|丢了|输了|押了|偷了|抢了|没了|不见|找不|没见|"
                            r"哪儿|哪里|哪去|在[^。！？!?，,；;]{1,6}?(?:手里|手上|那儿|那里|家里?)|收着|修着|送修|去修")
"""Plain words anywhere in the rest of the sentence of a thing the speaker calls their own that put it out of their hands:
given, lent, pawned, lost, not found, in someone's keeping or being mended (我那只表啊，早当了 is :data:`MINE_NOT_NOW`'s;
我那只表，给苏禾了, …哪儿去了, …找不着了, …在她手里, …她替我收着呢, …还我). Kept to whole words, since the later clauses
may tell its looks or use (我鼻梁上这副眼镜，看色比眼睛还准: a bare 还 or 早 there is no giving back) (fh12, stop 59)."""
_WORDS_SENTENCE_END = re.compile(f"[{SENTENCE_STOPS}”]")
"""Where a sentence of someone's words ends: a stop or the quote's close (:func:`_claims_own`)."""
MINE_BEFORE_NOT_NOW = re.compile(rf"(?:{PAST_TIME}|要是|如果|假如|倘若|若是|像|比|跟|和|同|与|原本|原先|原来|本来)")
"""What may stand before 我 in the clause of a thing the speaker calls their own that makes it no claim of now: a time gone,
a wish or a supposition, a comparison (你那把跟我那把…), what it was once (你手上那只，原本是我那只): :func:`_claims_own`."""
KEPT_AT = r"(?:照旧|还|就|都|正|一直)?(?:在|放在|锁在|收在|搁在|存在|藏在|压在|塞在|揣在)"
"""Verbs of a thing lying in a keeping place now (在, 锁在, 收在 …), an adverb of still-so before them: what
:data:`KEEPER_PLACE` follows in :func:`_kept_away` (H13, stop 60)."""
NOT_KEEPER_PLACE = (r"们|[哥姐弟妹爹娘妈爸叔伯舅姑姨婶爷奶公婆儿女媳兄嫂侄孙]|男人|老婆|丈夫|媳妇|师|东家|老板|"
                    r"头顶|脚下|脚边|楼上|楼下|眼前|跟前|旁边|身边|身后|背后|对面|隔壁|前面|后面|上面|下面|上头|下头")
"""What after 我 makes a place no keeping of the speaker's (fh13, stop 60, R60's H13-1): a shared place (我们塔上), a kin's
keeping (我哥那里, 我爹屋里), a place by the speaker's body or house (我头顶上, 我楼下, 我身后)."""
KEEPER_PLACE = (rf"(?P<keeper>{alternation(MINE_SPEAKERS)})(?!{NOT_KEEPER_PLACE})"
                r"(?:这儿|这里|这边|手上|手里|身上|怀里|兜里|家里?|屋里|房里"
                r"|[^。！？!?“”，,；;\n]{0,3}?(?:抽屉|箱子?|柜子?|包袱?|包|兜|口袋|匣子?|盒子?|枕头|褥子|床)(?:里|底下|下)"
                r"|(?<=[锁收藏塞揣压存放搁]在[我俺])[^。！？!?“”，,；;\n]{0,5}?[里上下])")
"""The speaker's own keeping place after :data:`KEPT_AT` (在我抽屉里, 锁在俺柜里, 在我这儿, 在我身上): after a bare 在 a
closed class — here, the hands, the body, the house, a drawer, box or chest of theirs —; after a verb of putting away
(锁在, 收在, 藏在 …) any place word of theirs ending in 里/上/下; never one of :data:`NOT_KEEPER_PLACE` (H13, stop 60;
fh13's narrowing of R60's H13-1: 在我头顶上, 在我们塔上, 在我哥那里 are no keeping)."""
KEEPER_HOLDS = (rf"(?P<holds>{alternation(MINE_SPEAKERS)})(?:还|都|一直|已经|早)?"
                r"(?:(?:收|揣|锁|藏|存|留)着|(?:收|锁|藏|存)(?:好|起来)了|(?:带|拿)(?:到[^。！？!?“”，,；;\n]{1,4}?)?(?:来|去|走)了"
                r"|(?:替|给|帮)(?:你|您|他|她)?(?:收|锁|藏|存)(?:着|(?:好|起来)了|(?:在|到|进)(?![你您他她])"
                r"[^。！？!?“”，,；;\n]{1,8}?(?:里|上|下)了?))")
"""The speaker keeping a thing said before them as the topic (那杆戥子我带到上海来了, 煤油灯我收着): 我 and a whole word of
keeping (收着, 锁着, 留着, 收好了) or of taking it along (带来了, 带到…来了, 拿走了), only a place between (H13, stop 60;
fh13's narrowing of R60's H13-2: 留意着, 带着 a person, 拿着看 are no keeping); or put away for someone (我替你锁在箱子里了,
俺给他收起来了, 我帮你存着: h16, stop 62) — never into a place of theirs (替你锁在你箱子里: back in their keeping)."""
LEFT_AWAY = (r"(?:留|丢|落|忘|寄|押|当|扔|撂|存)在[^。！？!?“”，,；;\n]{1,10}"
             r"|(?:送|借|交|留|卖|赔|让|传|托)给(?![我俺])[^。！？!?“”，,；;\n]{1,6}?了|送人了"
             r"|(?:当|卖|押|丢|送)(?:掉)?了(?=[，,；;。！？!?”\n]|$)"
             r"|(?P<handover>(?:自即日起|自今日起|从今[天日]起|即日起|今[天日]起)?(?:转交|移交|交)(?:给|与|由)?(?![我俺给与由])"
             r"[^。！？!?“”，,；;\n]{1,6}?(?:保管|收管|掌管|收执|代管|看管|管着|收着))")
"""What a holder says of their own thing that puts it out of their hands now (H13, stop 60): left, lost, pawned or
stored at a place (留在账房抽屉里, 落在家里), or handed to another and done (送给他了, 交给小王了), pawned, sold, lost
(当了, 卖掉了), or handed over into another's keeping from today (a note or a log's line: 自即日起交小王保管) — an open class
of verbs of parting with a thing by a place or a receiver, read by :func:`_kept_away`. Never a receiver who is the
speaker (交给我保管, 传给我了), and 当了/丢了 only closing the clause (当了我二十年的伴, 丢了魂似的: fh13's narrowing of
R60's H13-3)."""
PLAN_WORDS = ("要", "想", "打算", "准备", "明天", "明儿", "回头")
"""Words that put a deed ahead of now, a plan or a day to come (要去, 想还, 明天还, 回头再说): the one list the readers of
a deed not yet done share (:data:`NOT_GONE`, :data:`KEEPING_NOT_NOW`; checks' ``_PLANNED``, ``NOT_REACHED`` and
``NOT_YET_DONE``), each adding its own words."""
UNDONE_WORDS = ("本想", "该", "得", "没", "不", "别")
"""Words that keep a deed from being done, a duty, a denial or a plan dropped (该去, 没去, 别去, 本想去): shared by
:data:`NOT_GONE`, :data:`KEEPING_NOT_NOW` and checks' ``NOT_REACHED`` and ``NOT_YET_DONE``."""
_KEEPING_NOT_NOW_ALSO = ("会", "莫", "过", "吗", "么", "呢", "是不是", "如果", "要是", "假如", "若")
""":data:`KEEPING_NOT_NOW`'s own words beyond :data:`PLAN_WORDS` and :data:`UNDONE_WORDS`: a may be, a done-before (借给过),
a question, a supposition."""
KEEPING_NOT_NOW = re.compile("|".join((*PLAN_WORDS, *UNDONE_WORDS, *_KEEPING_NOT_NOW_ALSO)))
"""Words between the thing and the end of its keeping clause that make it no fact of now: a plan, a wish, a refusal,
a done-before (借给过), a question or a supposition (:func:`_kept_away`)."""
KEEPING_AFTER_NOT_NOW = re.compile(r"过|吗|么|呢|没有|不成|不")
"""What may follow a thing's keeping place in its clause that makes it no fact of now: a done-before (放过一阵), a question
(在我这儿吗), a denial (:func:`_kept_findings`)."""
KEEPING_CLAUSE_MAX = 20
"""How far the clause of a keeping claim (:func:`_kept_findings`) is read back from its start and on from its end for
the words that make it no fact of now, in characters: one long quote of thousands of claims is not read again to its
start or end for each (fh13, stop 60, R60's H13-5)."""
CARRIED_TOPIC_MAX = 16
"""How long the one clause between a thing said as the topic and its keeping clause may be, in characters (那把口琴，昨晚上
我借去吹了两支歌，还在我挎包里: the thing is the dropped subject of 还在…): the words a speaker says they did with it, read
by :func:`_carried_topic` (h16, stop 62)."""
CARRIED_NOT = re.compile(rf"{HE_ONE}|[你您]|们")
"""What in the clause between a topic thing and its keeping clause says another acts there (他拿去…, 你忘了, 我们…): the
thing is no longer plainly the speaker's to tell of (:func:`_carried_topic`)."""
RECORD_OPENERS = r"(?<![\u4e00-\u9fff])(?:今|兹|即日)"
"""The words a receipt, an IOU or a note of seizure opens its line on (今收到…, 兹收…, 即日扣留…), standing first (no word
of Chinese before: 他今天借…, 发现存… are narration): the record speaks of its own day (:data:`RECORD_TAKES`, h16,
stop 62)."""
RECORD_TAKE_VERBS = (r"(?:暂|代|已|特)?(?:收到|收存|收缴|收讫|收|借到|借|领到|领|扣押|扣留|扣下|扣|没收|查收|查扣|寄存|存)")
"""The verbs of a record of taking a thing from someone into the writer's or the office's keeping (收, 扣留, 没收, 借到,
寄存 …), an adverb of for-now or on-behalf before them (暂收, 代收)."""
RECORD_TAKES = rf"(?:{RECORD_OPENERS}){RECORD_TAKE_VERBS}(?P<role>[\u4e00-\u9fff]{{0,4}}?)(?P<owner>WHO)"
"""A record's line taking a thing from a person (今暂收信差NAME随身…一只, 兹借到NAME…一架, 即日扣留NAME…): the
record's opener and verb, a role glued before the name at most (信差, 失主), then the name (``WHO``: the book's names);
the thing follows within a few words of its looks (:func:`_record_findings`). The one named had it till the record took
it: the card that still gives it to them is stale (h16, stop 62)."""
RECORD_THING_GAP = 8
"""How many characters of a thing's looks or whose-ness (随身牛皮, 的旧) may stand between a record's name and the thing
it took (:data:`RECORD_TAKES`), in characters (h16, stop 62)."""
RECORD_LIST_GAP = 32
"""How many characters of a thing's count and looks (一只，镀镍，三节电池，…) may stand between a record's thing and its owner role
(:data:`RECORD_OWNER`), in characters (h16, stop 62)."""
RECORD_OWNER_ROLES = "失主|当户|物主|押主|典主|寄存人|存放人|交存人|送修人|送存人"
"""The roles a record's list line names a thing's owner by after the thing (梅花银簪一支，…，当户NAME; 拾到…一只，…，失主NAME):
the one who pawned, lost, deposited or sent it — it was theirs, and is out of their hands now (:data:`RECORD_OWNER`,
h16, stop 62: 当户 of 连续性-盲评四十七, 失主 of 四十九; 物主, 寄存人, 送修人 the siblings no book uses)."""
RECORD_BACK = (r"(?:[，,]\s*)?[^。！？!?“”，,；;\n]{0,6}?(?:(?:领|取|拿|赎|要|认|接|收)(?:走|回|去)|认领"
               r"|(?:还|交还|退还|送还)(?:给|与)|物归原主|(?:来|已)(?:领|取|拿))")
"""What after a record's named owner, in their clause or the next, says it went back to them (失主苏禾刚来领走了,
当户早赎回去了, 当户X，已赎回): no taking from
them (:func:`_record_findings`, r62-2)."""
RECORD_AT = r"处|那里|那儿|那边|家|手里|手上|身边|屋里"
"""What after a record's name makes them its keeper, not the one it was taken from (现存苏禾处秒表一只: r62-3)."""
RECORD_OWNER = rf"(?P<thing>ITEM)(?=[一两二三四五六七八九十\d]+[{ITEM_KIND}])(?P<gap>(?:(?!ITEM)[^。！？!?“”\n]){{0,{RECORD_LIST_GAP}}}?)[，,；;]\s*(?:{RECORD_OWNER_ROLES})[是为：:]?\s*(?P<owner>WHO)"
"""A record's list line: a thing (``ITEM``: the book's held things) with its count right after it (银簪一支, 手电筒一只),
its looks in a few clauses (``gap``, no other thing in it), then an owner role of :data:`RECORD_OWNER_ROLES` glued to a name (``WHO``) (h16, stop 62)."""
CLAUSE_STOPS = "，,；;。！？!?"
"""The marks every clause ends at: a comma, a semicolon, a sentence's stop (:data:`CLAUSE_END`, :data:`CLAUSE_OR_COLON_END`:
one source, the two views differing by what else ends a clause — m1, stop 61)."""
CLAUSE_END = re.compile(f"[{CLAUSE_STOPS}”\n]")
"""Where a clause of someone's words ends: at :data:`CLAUSE_STOPS`, their quote's close or the line's end (the mark
found tells a question: ？)."""
STRICT_SIGN_OFF = r"顿首|手书|谨上|敬上|拜上|谨启|亲笔"
"""Sign-offs that only a letter closes on (:data:`SIGN_OFF`'s own view for :func:`_writer_of`): read in the paragraphs
after the words, the rest of the same letter."""
SIGN_OFF = rf"{STRICT_SIGN_OFF}|手启|手字|上|字|留|书|草"
"""The words a letter or a note closes on after its writer's name (守仁顿首, 老周字, 伯年手书): who wrote them
(:func:`signature`)."""
LETTER_DATE = r"[一二三四五六七八九十廿卅〇零0-9]{1,3}月[初一二三四五六七八九十廿卅0-9]{1,3}[日号]?"
"""A month and day after a letter's signature (姐，七月廿八。): :func:`signature` reads the name before it."""


def signature(name: str) -> re.Pattern[str]:
    """A letter's or a note's last sentence that is a name alone (落款), ``name`` the pattern of a name (group 1): the
    name, then maybe a :data:`SIGN_OFF` and a :data:`LETTER_DATE` (group ``off``: 守仁顿首。 老周字。 姐，七月廿八。 娘。),
    closing the text searched. The one signature of the plugin (m1, stop 61): H13's writer of kept words
    (:func:`_writer_of`, the book's names) and the leak check's letter writer (:data:`lw_storyrepo.checks.SIGNATURE`,
    any one to four characters)."""
    return re.compile(rf"(?:^|[。！？!?\s])({name})(?P<off>(?:{SIGN_OFF})?(?:[，,\s]*{LETTER_DATE})?)[。.]?\s*$")


OTHER_PERSON = re.compile(rf"{HE_ONE}|你|您")
"""Another person than the speaker, by a pronoun (a name is read by the book's names)."""
TAKEN_BY = re.compile(r"[^，,]{0,4}?(?:拿|偷|抢|借|用|摸|取|收|藏|弄|卖|当|戴|揣|抱|扔|砸|摔|占)")
"""A verb of taking or using after another person before 我 (他拿了我那只…, 你偷偷用我那把…): their act on the speaker's
thing, no claim of the speaker's (你别看我这副… asks no such verb): :func:`_claims_own`."""
SPOKEN_BETWEEN_NOT_DONE = re.compile(r"[不没换]")
"""Words between the speaker's use verb and the thing that make it no use: a refusal or an inability (用不着, 背不动, 拿不了),
a barter (我拿这块怀表换你的…) (R57 F1, stop 57)."""
SPOKEN_NOT_DONE = re.compile(r"(?<![后本原])[要想得去来]|打算|准备")
"""Words between 我 and 拿/用 in someone's words that make the use a plan or a fetch, not an act done
(我要拿…去打酒, 我去拿…来): :func:`_spoken_not_done`."""
SPOKEN_AFTER_NOT_DONE = re.compile(r"[^。！？!?\n”]{0,6}?(?:还给|送回|放回|交还|还回)|(?:过)?来[。！？!?，,\n”]|"
                                   r"[^。！？!?\n”，,]*?(?:什么|吗|呢|干嘛|做甚|作甚)|[^。！？!?\n”，,]*[？?]")
"""What follows the thing in 我拿X… that makes it no use of the thing: a return (还给他), a fetch (拿…来), a question of
its own clause (我拿你的刀干什么？) — a question or a 呢 in a clause after (…压了两锭，你看看，压出来没有？; …，你还没起炕呢)
asks something else (H7, stop 55)."""
OWNS = rf"(?![那这]一?[{ITEM_KIND}间座栋所扇])"
"""A name right before 那间/这把 owns what follows (老周总那间办公室…，门一推开): it is not the one acting."""
USE_MARK = re.compile(r"[着起出下上把了碎开用]")
"""An action on a thing (转动着…, 把…戴上) when no verb of USE_VERBS names it."""
SUBJECTLESS_USE = re.compile(r"[着起出下把了碎开]|(?:^|[就便又再先才也还却只都仍])用$")
"""An action on a thing in a clause with no subject of its own (…，拿起了…; …蹲下去，用铜扳手卡住螺母: 用 right before the
thing, the instrument — H7, stop 55: U11's giver using what she gave away; alone or after an adverb — a word ending in
用, 专用 or 借用, is no use: R55)."""
DEMONSTRATED_BA = re.compile(r"[那这]把")
"""那把/这把: a measure word after a demonstrative (先生那把黄杨木算盘 says whose it is), not the particle of an act."""
_RELATIVE = re.compile(rf"[着起出下上把了碎开]的(?:[那这]一?[{ITEM_KIND}][^，,。！？“”的\n]{{0,2}})?$")
"""A verb closed by 的 right before the thing makes a relative clause: 母亲留下的星图芯片 (师父留下的那块旧怀表, a word of
its looks after the measure) says whose it was, not that she uses it (转动着指间的戒指 still uses it)."""
BEING = re.compile(r"(?:是|成了|成为|只是|不过是|还是|才是|乃是|仍是|已是|身为|作为|区区|小小的?)(?:一?个|一名|一位|一介)?(?:小小的?)?"
                   r"(?:(?:跑|当|做|干|打|挂)?|(?<=[个名位介的])[^，,。！？的“”\s]{1,6}的)$")
"""What makes a bare stage name (学徒, 筑基) a statement of someone's realm: 不过是个学徒, 只是个跑龙套的,
还是个打杂的 (the trade's verb before its rank), 不过是个坐冷板凳的替补 (a modifier closed by 的)."""
APPOSED = re.compile(r"(?<![\u4e00-\u9fff])[他她](?:这么|这样)?一个$")
"""A stage set beside him or her (他一个学徒，哪里轮得到…): what he is, said to belittle — a lower stage than the
card's is a slip, a higher one the courtesy or the past of a grudge (他一个副队长，不会不晓得…), never read."""
OTHER_SUBJECT = re.compile(r"[，,；;]\s*[你我他她]们?(?:[^，,；;]{0,3})$")
"""A clause between a name and a rank opening on a pronoun (沈老九是内舍生，你是…): the rank is the pronoun's."""
MONTH_BACK = re.compile(r"(?:[正一二三四五六七八九十冬腊]{1,2}|\d{1,2})月(?:里|间|份|那会儿|的时候)[^。！？]{0,10}$")
"""A month the rank is said of (四月里我还是个粗使): a time gone by, not the card's now."""
COMPARED = re.compile(r"(?:不|不大|不太)?(?:一样|一般|似的|那样|这样)")
"""What closes a comparison with the name before it (跟阿福一样，还是学徒): the rank is the subject's, said
like the other's — the name compared with is not who is ranked."""
ASPIRE = re.compile(r"(?:考|考上|考个|升|升上|升到|评|评上|评到|熬到|熬上|当上|混上|混到|晋升|晋升到|冲击|冲|够得上|够不上|盼着当|等着当)"
                    r"(?:一?个)?$")
"""What says someone is below a stage (下个月就要考四级了, 还没熬到主治): their rank is under it."""
LISTED = r"\s*[，,、：:]\s*$"
"""A name and then its stage, as a register reads (赵铁军，三级工)."""
LOOK_BACK = 40
"""How far before a rank :data:`ASPIRE`, :data:`BEING` and :data:`LISTED` look (their longest forms, a
name and some spaces), and before the name ahead of it :data:`LIKE`: a sentence of thousands of ranks is not read
again for each."""

AROUND = re.compile(r"以[东南西北]|[东南西北][边面方侧]|附近|之外|外面|对面|旁边|隔壁|[\d一二两三四五六七八九十百千]+(?:里|公里|米)|"
                    r"[东南西北]{1,2}(?:约|大约)?[\d一二两三四五六七八九十百千万几数]+[多余]?(?:里|公里|华里|米)")
"""What follows a place to say another lies beside it, not in it (a bearing and a distance: 南京在海州西南六百多里)."""
INSIDE = re.compile(r"^(?P<a>[\u4e00-\u9fff]{2,8}?)(?:坐落在|坐落于|位于|地处|就在|在)(?P<b>[\u4e00-\u9fff]{2,8})")
ARRIVE = re.compile(r"下了?马|下了?车|下了?轿|落了?脚|推门|掀帘|叩门|敲门|进门")
"""An arrival told in the clause that places someone (裴照微在济春堂门口下了马): the place is reached."""
LOST = ("失踪", "下落不明")
"""States whose card's 位置 is where the character was last seen, not where they are: no place contradicts it."""
LIKENING = "和跟与同像如"
"""The one string of comparison words (和…一样, 像…): :data:`LIKE` and :data:`LIKENED` read them."""
LIKE = re.compile(rf"(?:{'|'.join(LIKENING)})$")
"""What puts a thing in a comparison (和乌木尺背面一样): it is named, not used."""
NOT_LIKENING = ("如今", "如果", "如此", "如何", "同时", "同样")
"""Words opening with a comparison character that compare nothing (如今, 同时): :data:`LIKE_BEFORE` skips them (R57 F2)."""
LIKE_BEFORE = re.compile(rf"(?!{alternation(NOT_LIKENING)})[{LIKENING}][^，,；;：:。！？“”\n]{{0,8}}$")
LIKE_AFTER = re.compile(r"[^，,；;：:。！？“”\n]{0,6}?(?:一模一样|一样|似的|一般)")
"""A thing inside a comparison's frame (跟马把头签筒里的一样, 和乌鞘刀刀柄上一样, 和乌木尺背面一样): a comparison word in
its clause a few characters before it — an owner or a name may stand between — and 一样/似的 a few after: it is named
to say what another looks like, not used (H10, stop 57: three books' good text)."""
SHAPED = re.compile(r"(?:形|状|样)的")
"""Right after a thing, what makes it the shape of another (鱼形的铜符, 月牙形的焦痕, 那个葫芦样的押): the thing is named
to say what the other looks like, not used (H11, stop 58: 形 from four books' good text, 样 from one)."""
LIKENED = re.compile(rf"[{LIKENING}]")
"""A comparison word inside a thing's description (一块和玄阶令牌一样的…): the description is of another thing."""
BELITTLE = re.compile(r"不过|只是|区区|小小")
"""不过是个…: a stage said to belittle, which never raises anyone: a higher one after it is no slip of the grade."""
VOCATIVE_YOU = re.compile(r"^[，,！!]\s*(?:你|您)")
"""A name followed by a comma and 你 (东子，你到了上海): the one spoken to, not the subject of what follows."""
JUST_NOW = ("刚才", "刚刚", "方才")
"""Times that say within the hour: one table for :data:`TODAY_AT` and :data:`LATELY` (R56); any doing right after
them is a doing of today (:data:`LATELY_ACTS`, T5, stop 56)."""
TODAY_AT = f"今儿一早|今天一早|今儿早上|今天早上|今早|今儿个|今儿|今天|今日|这会儿|此刻|眼下|{'|'.join(JUST_NOW)}|一早"
"""When today someone is somewhere (太后今儿一早在慈宁宫召见了…): said between the person and 在, still a placing."""
TODAY_SAID = re.compile(TODAY_AT)
""":data:`TODAY_AT` read between a pronoun and the place it is said at (the card-place reader, a pronoun in quoted words)."""
WALKED_IN = re.compile(r"进了|走进|踏入|进入")
"""The :data:`MOVE_VERBS` that walk into a room or a yard (推门进了灯室), not back from a journey: one the draft sent away
who walks in has not been told to return (:func:`_gone_in_draft`)."""
MOVE_VERBS = ("来到", "到了", "回到", "赶到", "赶回", "抵达", "进了", "走进", "踏入", "前往", "去了", "飞往", "奔向", "返回", "进入")
_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_PHASE = {"初期": 1, "前期": 1, "中期": 2, "后期": 3, "巅峰": 4, "大圆满": 5, "圆满": 4}
_SENTENCE = re.compile(r"[^。！？!?\n]+[。！？!?]*")
_QUOTED_WORDS = re.compile(r"“[^”]*”?|「[^」]*」?")


_HEAD_KEY = 4
"""How many first characters of a dated event's words :meth:`World.dated_of` indexes them by."""
_SEEN_MAX = 50_000
"""How many looked-up words :meth:`World.events_holding` keeps answers for before it starts again (bounded memory)."""


_Built = TypeVar("_Built")


@dataclass
class World:
    """What the continuity checks read from the book, loaded once per transaction."""

    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    places: set[str] = field(default_factory=set)
    items: set[str] = field(default_factory=set)
    stages: tuple[str, ...] = DEFAULT_STAGES
    last_time: tuple[int, str] | None = None  # (chapter, 书内时间) of the last settled chapter
    inside: dict[str, set[str]] = field(default_factory=dict)  # place -> the places it lies in (世界观.md)
    gender: dict[str, str] = field(default_factory=dict)  # character -> 他/她 when their card says (kinship.gender_of)
    indirect: frozenset[str] = frozenset()  # words naming someone by relation (娘亲): a mention, never a pronoun's antecedent
    kin_gender: dict[str, str] = field(default_factory=dict)  # character -> 他/她 by the relations their card states (relation_gender)
    far: frozenset[str] = frozenset()  # places the world or a card says are far (a journey of days, by train): far_places
    journey: dict[str, float] = field(default_factory=dict)  # place -> the days the world or a card says it is away: journeys
    haunts: dict[str, set[str]] = field(default_factory=dict)  # character -> places their card says they keep to: haunts_of
    died: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # the dead -> (era, year, month) of death: dates_of_death
    died_day: dict[str, int] = field(default_factory=dict)  # the dead -> the day of the month of their death: dates_of_death
    ladders: tuple[Ladder, ...] | None = None  # the world's ladders (ranks.ladders_of); None: the one of ``stages``
    dated: dict[str, tuple[int, int]] = field(default_factory=dict)  # an event the world or a card dates -> (month, day): dated_events
    dated_by: tuple[tuple[str, str, tuple[int, int]], ...] = ()  # (who or what it is said of, event, (month, day)): dated_subjects
    arrived: tuple[tuple[frozenset[str], str, str], ...] = ()  # (people named, place, the date's words): arrivals_of
    told: dict[str, frozenset[str]] = field(default_factory=dict)  # held thing -> the words its holder's card tells it by: told_of
    bars: dict[str, Bars] = field(default_factory=dict)  # character -> what their state forbids, as the book words it: forbidden_of
    heard: dict[str, str] = field(default_factory=dict)  # a form people at large call someone, as the cards quote it -> them
    texts: dict[str, str] = field(default_factory=dict)  # character -> their card's free text (a post told there: ranks)
    one_place: tuple[frozenset[str], ...] = ()  # the world's lists of places that are one place (place_nesting)
    # what is read from the cards and the ladders alone, built once: the dict itself is carried over by ``replace``
    # (a draft's own names, checks.check_draft), so every draft of a transaction shares it
    _by_book: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _names_by: tuple[dict[str, str], dict[str, list[str]]] | None = field(default=None, init=False, repr=False, compare=False)

    def pronoun_of(self, who: str) -> str | None:
        """他/她 as the cards give ``who``: their own card's word (:attr:`gender`), else the relations their card states
        (:attr:`kin_gender`); None (or ``""``) when neither says. The one reading of a person's gender for the checks
        that weigh both."""
        return self.gender.get(who) or self.kin_gender.get(who)

    def per_book(self, key: str, deps: tuple[object, ...], build: Callable[[], _Built]) -> _Built:
        """:func:`lw_storyrepo.memo.per_book` on this world's :attr:`_by_book`: ``build()``'s value while ``deps`` are unchanged."""
        return per_book(self._by_book, key, deps, build)

    def rank_reader(self) -> RankReader:
        """The generic rank reader of this world, its patterns compiled once per book (:class:`lw_storyrepo.ranks.RankReader`;
        it reads :attr:`cards`, :attr:`texts`, :attr:`ladders` and :attr:`stages`, which a draft's ``replace`` leaves as they are)."""
        return self.per_book("ranks", (), self._build_rank_reader)

    def _build_rank_reader(self) -> RankReader:
        """:meth:`rank_reader` built."""
        ladders = tuple(self.ladders or ())
        stated = Ladder(tuple(dict.fromkeys(self.stages)))
        if self.stages != DEFAULT_STAGES and not any(set(stated.rungs) <= set(x.rungs) for x in ladders):
            ladders += (stated,)  # the older reader's ladder (stages_of) where this one read none like it
        return RankReader.build(ladders, self.cards, surname_of, self.texts)

    def holdings(self) -> dict[str, list[str]]:
        """``{character: the things their card holds (持有)}`` in the cards' order, read once per book
        (``replace`` for a draft leaves :attr:`cards` as they are). Never change it in place."""
        return self.per_book("held", (), lambda: {who: [str(x) for x in as_list(card.get("持有"))]
                                                 for who, card in self.cards.items()})

    def names_of(self, person: str) -> list[str]:
        """The names :attr:`aliases` gives ``person``, in its order: the aliases are inverted once
        per aliases dict (a rule asking for each of 300 cards' names reads them once, not 300 times).
        The index is dropped when :attr:`aliases` is another dict (``replace`` for a draft's names);
        the dict itself is never changed in place once the world is built."""
        if self._names_by is None or self._names_by[0] is not self.aliases:
            index: dict[str, list[str]] = {}
            for alias, who in self.aliases.items():
                index.setdefault(who, []).append(alias)
            self._names_by = (self.aliases, index)
        return self._names_by[1].get(person, [])

    def dated_of(self, who: str) -> list[tuple[str, str, tuple[int, int]]]:
        """The entries of :attr:`dated_by` said of ``who`` (their words start with it), in its order: from an index of
        the words' first characters built once per :attr:`dated_by` (a draft naming someone thousands of times beside
        a card of thousands of dated events reads them once, not once per name; A11, stop 52)."""
        def build() -> dict[str, list[tuple[str, str, tuple[int, int]]]]:
            heads: dict[str, list[tuple[str, str, tuple[int, int]]]] = {}
            for entry in self.dated_by:
                for k in range(1, min(len(entry[0]), _HEAD_KEY) + 1):
                    heads.setdefault(entry[0][:k], []).append(entry)
            return heads
        heads = self.per_book("dated_of", (self.dated_by,), build)
        if not who:
            return list(self.dated_by)
        return [e for e in heads.get(who[:_HEAD_KEY], ()) if e[0].startswith(who)]

    def named_in(self, text: str) -> set[str]:
        """Who of the cast (a card or an alias) ``text`` names, each as their card's name: every name of :attr:`cards`
        and :attr:`aliases` held in ``text``, looked for among the names opening with one of its characters (an index
        of the names' first characters built once per cards and aliases dicts, not a scan of the whole cast per text;
        a draft's ``replace`` with its own aliases builds it again, once)."""
        def build() -> dict[str, list[str]]:
            firsts: dict[str, list[str]] = {}
            for n in (*self.cards, *self.aliases):
                if n:
                    firsts.setdefault(n[0], []).append(n)
            return firsts
        firsts = self.per_book("named_in", (self.cards, self.aliases), build)
        return {self.aliases.get(n, n) for c in set(text) for n in firsts.get(c, ()) if n in text}

    def said_of(self, event: str) -> list[str]:
        """What each entry of :attr:`dated_by` dating ``event`` is said of, in its order: from an index of the entries by
        event built once per :attr:`dated_by` (not a scan of every dated event per question)."""
        def build() -> dict[str, list[str]]:
            by_event: dict[str, list[str]] = {}
            for said, what, _on in self.dated_by:
                by_event.setdefault(what, []).append(said)
            return by_event
        return list(self.per_book("said_of", (self.dated_by,), build).get(event, ()))

    def events_holding(self, said: str) -> tuple[str, ...]:
        """The events of :attr:`dated` whose name holds ``said``, shortest first (in :attr:`dated`'s order among the
        equally long): looked up among the events holding its rarest character or pair of characters (an index built
        once per :attr:`dated`), each ``said`` once per book (A11, stop 52: thousands of 只剩三天 or 离…的寿日 beside
        thousands of dated events; a per-count scan of every event made a check of seconds)."""
        def build() -> tuple[dict[str, list[str]], dict[str, tuple[str, ...]]]:
            parts: dict[str, list[str]] = {}
            for event in sorted(self.dated, key=len):
                for part in dict.fromkeys([*event, *(event[k:k + 2] for k in range(len(event) - 1))]):
                    parts.setdefault(part, []).append(event)
            return parts, {}
        parts, seen = self.per_book("events_holding", (self.dated,), build)
        if said not in seen:
            if len(seen) >= _SEEN_MAX:
                seen.clear()
            keys = [said] if len(said) == 1 else [said[k:k + 2] for k in range(len(said) - 1)]
            rarest = min((parts.get(key, []) for key in keys), key=len) if said else list(self.dated)
            seen[said] = tuple(e for e in rarest if said in e) if said else tuple(sorted(self.dated, key=len))
        return seen[said]


DEATH_WORDS = ("殁", "死", "去世", "过世", "故去", "病故", "没了", "遇害", "遇难", "落水", "落了水", "淹", "翻了船", "翻船")
"""The death words a card and a quote share (:data:`DIED_WORDS`, :data:`DEATH_TOLD`), each adding its own."""
DIED_WORDS = re.compile("|".join((*DEATH_WORDS, "亡故", "身亡", "病逝", "逝世", r"落进[^，,。；;]{1,6}?[河江湖海井塘]",
                                  "捞上来", "捞起来", "溺", r"船[^，,。；;]{0,6}?翻了")))
"""What tells a death on a card (病逝; drowned: 落进苏州河, 在小秦淮里捞上来, 船在河心翻了): :data:`DEATH_WORDS` and the
written words of a card."""
_DATED = re.compile(r"([^\d〇零一二三四五六七八九十，,。；;：:\s]{0,4}?)([\d〇零一二三四五六七八九十]{1,5})年([^，,。；;]{0,3}?月)")
_DAY_AFTER = re.compile(r"(初[一二三四五六七八九十]|[\d〇零一二三四五六七八九十廿卅]{1,3})[日号]?")


def dates_of_death(characters: dict[str, dict[str, Any]],
                   texts: dict[str, str]) -> tuple[dict[str, tuple[str, int, int]], dict[str, int]]:
    """When each dead character (状态 :data:`DEAD`) died, from the first sentence of their card that dates a month
    and tells a death (永和二年冬月染了寒症…冬月二十七夜里殁了; 1998年3月病逝), read in one pass: ``({name: (era,
    year, month)}, {name: day of the month})``, the day only where the sentence names it right after the month
    (一九七五年九月二十七日（星期六）夜里…船在河心翻了 → 27)."""
    died: dict[str, tuple[str, int, int]] = {}
    days: dict[str, int] = {}
    for name, card in characters.items():
        if not str(card.get("状态") or "").startswith(DEAD):
            continue
        for sentence in re.split(r"[。！？\n]", texts.get(name, "")):
            m = _DATED.search(sentence)
            if not (m and DIED_WORDS.search(sentence)):
                continue
            year, month = _cn_int(m.group(2)), _MONTHS.get(m.group(3).strip()) or _cn_int(m.group(3)[:-1])
            if year and month:
                died[name] = (m.group(1).strip(), year, month)
            d = _DAY_AFTER.match(sentence, m.end())
            if d and (on := _cn_int(d.group(1))) is not None and 1 <= on <= 31:
                days[name] = on
            break
    return died, days


DEATH_VERBS = "走|死|没|过世|去世|不在|出事|遇难|遇害|下葬|出殡|落水"
"""The verbs a count of time since a death follows (走了, 出事, 落水): :data:`ELAPSED`'s and :data:`DAYS_PASSED`'s."""
EXACTLY = ("整整", "足足", "正好", "刚好", "满")
"""What makes a count of time exact (整整一年, 足足三个月): no more than a month's slack (T9, stop 60)."""
ELAPSED = re.compile(rf"(?:(?:一晃|转眼|转眼间|眨眼|一眨眼|眨眼间)(?:就|都|已经|便)?|"
                     rf"(?:(?:{DEATH_VERBS})了?(?:以来|之后|以后)?[，,]?|(?:那天|那年|那夜|以来)?到(?:今儿|今天|今日|如今|现在)[，,]?)"
                     rf"(?:也|都|已经|就)?(?P<nearly>快|将近|差不多)?(?P<exact>{alternation(EXACTLY)})?(?:都|已经|有)?)"
                     r"(?P<n>[一两二三四五六七八九十几]+)年(?P<more>多|半)?(?:了|过去了)")
"""Time told as passed since an event (一晃两年多了, 落水那天到今儿，整整两年了) or since a death by its verb
(你阿爷走了快两年了; 离老周出事，整整一年了): with the dead named in the sentence, since their death."""
MOURNING_WORDS = ("灵前", "灵位", "灵堂", "灵柩", "牌位", "遗像", "遗物", "遗容", "坟", "墓", "祭", "忌日", "周年", "丧",
                  "守孝", "戴孝", "入土", "故去", "殁", "头七", "百日", "骨灰", "抚恤", "九泉", "泉下", "烧纸", "纸钱", "上香")
"""Words of the dead and of mourning (温姐姐的灵前, 上坟, 守孝, 头七, 骨灰): a sentence telling of a death without its verb
(:data:`OF_A_DEATH`); what the dead are waited on for (:data:`RITES`). The one table of both (m1, stop 61: FT9's and S3's
made one)."""
NOT_A_DEATH_BESIDE_A_COUNT = ("百日", "抚恤", "上香")
"""Words of :data:`MOURNING_WORDS` that :data:`OF_A_DEATH` leaves out: rites or dues the dead are waited on for, but as
often of the living (百日酒 of a baby, 抚恤 of the injured, 上香 at a temple) — a count beside them is no count since a death
(fm1, stop 61, R61's m1-2)."""
OF_A_DEATH = re.compile(rf"(?:{DEATH_VERBS})(?:了|后|那|的|在|于|以后|之后|以来)|"
                        rf"{alternation(w for w in MOURNING_WORDS if w not in NOT_A_DEATH_BESIDE_A_COUNT)}")
"""A death told in a sentence (走了, 落水那天, 死在, 走后) or mourned in it (:data:`MOURNING_WORDS`): a count of
:data:`ELAPSED` opening on no death verb (一晃两年了, 到如今整整十年了) is a count since the death only beside one — else it
counts from another event the sentence names (带我进厂，一晃就十年了; R60 on T9, pre-existing). A count opening its
sentence (一晃三年多了，老王那只搪瓷缸子还摆在窗台上) names no other event: it is since the death."""
_COUNT_LEAD = "，,、；; 　“”「」"
"""What may stand before a count that opens its sentence: marks and quotes, no event."""
MONTHS_AS_DAYS = {"半个月": 15, "半月": 15, "半个多月": 20, "半拉月": 15, "半拉个月": 15, "个把月": 30, "一个来月": 30, "月把": 30, "月余": 30,
                  "个把礼拜": 7, "个把星期": 7, "礼拜把": 7, "星期把": 7, "半年": 182, "年把": 365, "年余": 365}
"""Spans told without a count (才半个月, 半拉月, 个把礼拜, 年把), as days: :data:`DAYS_PASSED` reads them as a count said
roughly (:data:`MONTH_SLACK`; weeks and years too, t11, stop 62)."""
SPAN_UNITS = {"天": 1, "日": 1, "礼拜": 7, "星期": 7, "周": 7, "旬": 10, "月": 30, "年": 365}
"""The units a count of time since a death is said in, as days (一个礼拜, 两星期, 三周, 一旬, 两个多月, 一年; t11, stop 62):
all but a day (:data:`EXACT_UNITS`) are said loosely (:data:`MONTH_SLACK`)."""
EXACT_UNITS = ("天", "日")
"""The units of :data:`SPAN_UNITS` a count is said exactly in (十天 is ten days, a day either way)."""
COUNT_WORDS = {"俩": 2, "仨": 3}
"""Counts said in one character of the spoken tongue (俩礼拜, 仨月): their number, as :func:`_cn_int` does not read them."""
MONTH_SLACK = 0.5
"""How far a span said in months may be off the days passed, as a share of it (半个月 is eight to twenty-two days, 两个月
thirty to ninety; 两个多月 from sixty to half as much again and fifteen more): a month is said loosely (T10, stop 61), and
so is a week, a ten-day and a year (t11, stop 62)."""
DYING = "牺牲|咽气|断气|故去|病故|归天|归西|殁"
"""Verbs of dying beside :data:`DEATH_VERBS` that :data:`DAYS_PASSED` reads before a count (老耿牺牲才一个礼拜, 殁了不到一旬;
t11, stop 62). Not 去了: far more often a going away than a death (老聂去了半个月，天天往家里捎信; R62's r62-2)."""
SPAN_SAID = (rf"(?:(?P<nearly>快|将近|差不多)|(?P<under>还不到|不到|没到|不够|不满))?"
             rf"(?:已经|都|{alternation(EXACTLY)}|有|才|刚|刚刚|也就|不过|只有|统共|总共)*"
             rf"(?:(?P<months>{alternation(MONTHS_AS_DAYS)})"
             r"|(?P<n>[\d一两二三四五六七八九十俩仨]{1,3})(?P<more>来|多)?(?:个(?P<more2>多)?)?"
             r"(?P<unit>天|日|礼拜|星期|周(?![岁年])|旬|(?<=[个多俩仨])月|年)(?P<more3>多|半)?)")
"""A span of time said (才一个礼拜, 快两个月, 不到一旬, 半拉月, 一年多): the count grammar :data:`DAYS_PASSED` and
:data:`ARRIVED_SPAN` share, read as days by :func:`_span_days` and held to the days passed by :func:`_span_fits`."""
DAYS_PASSED = re.compile(rf"(?:{DEATH_VERBS}|{DYING})了?(?:以来|之后|以后|到今天|到今儿|到如今|到现在)?[，,]?{SPAN_SAID}"
                         r"(?![的子路程头里间]|后|以后|之后|过后)")
"""Time told as passed since a death, by its verb (师父走了整整十天, 离老龚出事已经二十天了, 死了快一百天, 出事才半个月, 走了两个多月,
耿班长没了才一个礼拜, 殁了不到一旬, 牺牲还不到一年: any unit of :data:`SPAN_UNITS`, or a span of :data:`MONTHS_AS_DAYS`;
T10, stop 61; t11, stop 62): with the dead named right before the verb, since the day their card dates the death; not a
journey of days (走了十天的山路), nor a time after it (出事半个月后, 死了两个月以后: the day of another event; ft10, stop 61).
A month is said with 个 or a one-character count (两个月, 仨月; 三月 is a month's name; R62's r62-4)."""
MEASURED_TO = re.compile(r"\s*[，,]\s*(?!你们?(?:就|便|才|又))[^，,。！？；;：:“”「」\n]{0,8}?(?<!刚)(?:就|便|才|又)")
"""A clause right after a span since a death that tells another event by it (老聂死了三个多月，他媳妇就改嫁了; 走了个把月，厂里才把
铺盖寄回乡下): the span is the time from the death to that event, not to today (ft10, stop 61, R61's T10-1). A span closed
by 了 (死了三个多月了，…) is one up to today, and so is one before a rebuke to the one spoken to (才半个月，你就…: what they did
is of today)."""
STILL_AS_IT_WAS = re.compile(r"(?=[^，,。！？；;]*?(?:他|她)(?:的|那))[^，,。！？；;]*?(?:(?:都|也)还(?:是|在|没|[留摆挂放搁贴锁]着|[留摆挂放搁贴锁]在)|"
                             r"(?:仍然|仍旧|依然|依旧)(?:是|在|留着|摆着|挂着|放着))")
"""What, in the clause right after a :data:`MEASURED_TO` clause, tells the dead one's trace as it still is today (连座垫上的
凹窝都还是他的样子, 他的茶缸也还摆在窗台上): the span then runs to today, the other event is told inside it (t11, stop
62). Only a trace of theirs (他的, 她那…) — another's present (俩孩子也还在念书, 他娘至今不知道) leaves the span measured to the
event (R62's r62-6)."""
NEARLY = ("快", "将近", "差不多")
"""What makes a count of years one short of it (走了快两年: a year and a half or more)."""


KEEP_TO = re.compile(r"坐镇|坐在|住在|守在|守着|看守|看管|管着|驻守|驻扎在|常驻|值守|待在|呆在|常年在|一直在|平日在|如今在|"
                     r"替[^，,。；;\n]{0,6}?看")
"""What a card says of the places someone keeps to (坐镇执法堂, 常年坐在天枢峰顶, 替宗门看药园): they are
found there without a journey told."""


def haunts_of(texts: dict[str, str], places: Iterable[str]) -> dict[str, set[str]]:
    """``{character: {place}}``: the known places each card's text puts right after :data:`KEEP_TO`
    (栖霞宗执法长老，坐镇执法堂 → 执法堂), in its own clause."""
    known = sorted((p for p in places if len(p) >= 2), key=len, reverse=True)
    if not known:
        return {}
    keep = re.compile(rf"(?:{KEEP_TO.pattern})({'|'.join(map(re.escape, known))})")
    out: dict[str, set[str]] = {}
    for name, text in texts.items():
        for m in keep.finditer(text):
            out.setdefault(name, set()).add(m.group(1))
    return out


RARE_CONTACT = re.compile(r"(?:(?:过年|春节|年下|中秋|端午|清明|逢年过节)才(?:回来|回家|回|来)|(?:年底|年关)才(?:回来|回家|回))"
                          r"(?:一趟|一回|一次)?|"
                          r"隔(?:些|几|一阵|阵子|三差五|上)[^。；;，,\n]{0,10}?(?:捎|寄|写|带|递|托)[^。；;，,\n]{0,6}?(?:信|[一两几]?封)|"
                          r"只(?:能|好)?(?:写|寄|捎)信(?![也都])")
"""The rows of :data:`FAR_WORDS` that say someone is far by how rarely they are seen (RP1, stop 61: 隔些日子寄一封信来,
过年才回来一趟, 只写信; the letter by its count alone, 隔些日子寄一封来, 隔三差五捎一封回去: RP2, stop 62; the year's end
with a going home only — 年底才来青松林场结一回账 is a schedule of business, not a distance: R61's RP1-7): read by :func:`far_places` of the place the person is only (在/住在/去 兰州, not 来青松林场, the
place come to), and not where the sentence says it near or the person busy (:data:`NEAR_SAID`: R61's RP1-7)."""
NEAR_SAID = re.compile(r"就隔|只隔|不过[一二两三四五六七八九十几半]+里|隔(?:一|一道|一条|一座|道|条)[岭河山沟坡梁]|不远|没多远|"
                       r"不多远|几步路|活多|活忙|忙|走不开|抽不开|脱不开")
"""What says, in the sentence of a :data:`RARE_CONTACT` row, that the place is near or the person busy (就隔一道岭,
离青松林场不过三里地, 地里活多: P3-8's "busy, not far"): the rare contact then makes nothing far."""
RARE_CONTACT_AT = ("在", "去", "到", "于")
"""What stands right before the place a :data:`RARE_CONTACT` row makes far: where the person is or went (住在兰州,
去兰州修铁路) — never a place they come to (来青松林场)."""
FAR_WORDS = re.compile(r"远|公里|[百千万]余?里|[几数两三四五六七八九十百]+里[地路]?|火车|飞机|航班|坐车|快马|"
                       r"(?<!第)(?<!第[一二三四五六七八九十几])[一两二三四五六七八九十几]天|钟头|"
                       r"[一两二三四五六七八九十几]个?小时|坐船|乘船|书信|来信|信在路上|出差|出国|国外|外地|"
                       r"南下|北上|飞去|飞往|异乡|他乡|千里|长途|电报|"
                       r"之间(?!来回|往返|来往)[^。；;，,\n]{0,8}?(?:写信|寄信|捎信|口信|捎话|递信|带信|通信)|(?<![目眼当跟面门])前(?:不回|回不来|走不开)|"
                       r"(?:过年|春节|中秋|端午)(?:也|都)回不来|"
                       rf"{RARE_CONTACT.pattern}")
"""What says a place is a journey away (坐火车三天三夜, 离滨江一万多公里, 飞去日内瓦开会): two places between which
only letters and messages pass (仪征和府里之间准许写信、托船上的人捎口信; not where someone goes back and forth between
them: 在府城和青石镇之间来回，准许捎信捎话), someone not back before a date or even by a feast one travels home for (过年也回不来, 中秋都回不来: P3, stop 60; not a busy one's 月底都走不开, 过节都不回家, 年底也走不开 — too busy, not far: P3-8) (老爷在仪征，十七日以前不回扬州 — the place
not returned to is home, :data:`BACK_TO`; 回了娘家服侍老父，中秋前回不来; 在省城学习，年底以前走不开: stop 55's P2; not 目前/眼前/跟前…, a now or a nearness: 眼前走不开, R55). A day counted in order (第二天下午才找到人, 第十二天) is when, not how long: no
journey."""


A_WALK = re.compile(r"(?<![\d〇零一二两三四五六七八九十百千万几数])(?:[一二两三四五六七八九几]|十[一二三四五六七八九几]?)(?:里|华里)|"
                    r"(?<![\d〇零一二两三四五六七八九十百千万几数])(?:[1-9]|[一二两三四五六七八九几])(?:公里|千米)")
"""A distance walked within the hour or two (青石镇离陈家村五里, 三公里): a neighbour's, not a journey's, though
:data:`FAR_WORDS` reads any count of 里 — 三十里 and more stays a journey."""


ASIDE = re.compile(r"（[^（）]*）|\([^()]*\)")
"""A parenthesis in a world sentence (北平和天津之间准许打长途电话（同庆园账房里有一部电话）): an aside."""
FAR_SPAN = 20
"""How near a place its journey is said (杜衡's card: 大理寺司直，…去洛阳，出京第三天 makes 洛阳 far, not 大理寺)."""


PROSE_PLACE = re.compile(r"(?:^|(?<=[。；;，,\n]))\s*(?![这那此其他她我你它])([\u4e00-\u9fff]{2,5}?)在"
                         r"(?![这那此其])([\u4e00-\u9fff]{2,5}?)(?<![东西南北])以?(?:东北|西北|东南|西南|东|南|西|北)(?:边|面|方)?"
                         r"(?:约|大约|差不多)?[一二两三四五六七八九十百千万几数\d]+[多余]?(?:公里|华里|里|米)")
"""A place the world's prose sets from another by a bearing and a distance (北京在潍坊西北四百多公里, 京城在景德镇以北
两千多里, 浮梁县在景德镇东北十几里): both are places of the book, though no card is there and the roster lists neither
(:func:`prose_places`); how far is :func:`far_places`' to say. A count before the 里 (汤丹厂在小江西岸的大山里 is
inside, no distance), a town before the bearing (莫高窟在城东南二十五里: 城 is no name, 城东 none either)."""


PLACE_END = "城镇村庄乡县府州省市关寨塞堡营站井谷山岭峰坡河江湖海港湾岛滩洲渡口坝屯集场厂矿寺庙观宫寝陵园院堂楼阁台"
"""The last characters of a place's name (府城, 青窑镇, 冰原三号井, 紫荆关, 甲渠塞, 落霞谷, 汤泉行宫, 妃园寝)."""
SOMEONE_OR_DAY = re.compile(r"^(?:大家|大伙|众人|人们|咱们|我们|他们|她们|全家|一家)|们$|队伍|部队|[军兵人]$|"
                         r"^[老小阿][\u4e00-\u9fff]$|掌柜|师傅|先生|^第[^天日夜年]{1,3}[天日夜年]$|"
                         r"^(?:当天|当日|当晚|次日|翌日|隔天|那天|这天|那年|这年|那晚|那夜)|的$")
"""What, at a clause's start before 在, is someone or a day, not a place (R57's F6: 老周, 大家, 第二天, 队伍, 日军 — a
person, a company, a day; 河的 — a word cut in two)."""


def prose_places(texts: Iterable[str], people: Iterable[str] = (), places: Iterable[str] = ()) -> set[str]:
    """The places :data:`PROSE_PLACE` reads in ``texts`` (the world's and the cards' words), one pass a text: of the
    two it sets apart, each that is no name or alias of ``people`` (a card 老陈) nor someone or a day
    (:data:`SOMEONE_OR_DAY`), where one of the two ends as a place's name does (:data:`PLACE_END`) or is one of
    ``places`` (南京在海州西南六百多里: 南京 by 海州)."""
    persons, known = set(people), set(places)

    def placed(p: str) -> bool:
        return p[-1] in PLACE_END or p in known

    return {p for text in texts for m in PROSE_PLACE.finditer(text) for p, other in (m.groups(), m.groups()[::-1])
            if p not in persons and not SOMEONE_OR_DAY.search(p) and (placed(p) or placed(other))}


HOME_PLACE = re.compile(r"的?(?:老家|娘家)")
"""Where someone's family home is, said right after the place (在四川天全老家种地, 回了沧州娘家, 回了衡阳老家): a place
one goes back to from where the book is, away from it (unless the world nests it with the point of view's: _related);
not 娘家在周家庄, a home whose place follows; not the book's own town (:func:`_own_places`: 一九四六年冬，沧州。…林家三代住在
沧州老家) nor a home said to be here (这里就是沧州老家: :data:`HOME_HERE`) — R57's F7."""
HOME_HERE = re.compile(r"这里|这儿|这边|此地|此处|本地")
"""A sentence saying the home it names is where the book is (这里就是沧州老家)."""


def _own_places(texts: list[str], known: "_Places") -> tuple[str, set[str]]:
    """The world's setting line (一九四六年冬，沧州。: the first sentence of the first text that is no heading) and the
    places it names, where the book is — no family home away from it, unless that line itself says so
    (他娘在陕北榆林老家种地。)."""
    for sentence in re.split(r"[。！？；;\n]", texts[0] if texts else ""):
        if sentence.strip() and not sentence.lstrip().startswith("#"):
            return sentence, known.in_text(sentence)
    return "", set()


def far_places(texts: Iterable[str], places: Iterable[str]) -> frozenset[str]:
    """The places a sentence of the world or of a card names together with a journey
    (:data:`FAR_WORDS`) or as someone's family home (:data:`HOME_PLACE`): someone there is not beside the point of
    view unless a journey is told."""
    out: set[str] = set()
    texts = list(texts)
    own: tuple[str, set[str]] | None = None
    for said, known in _world_sentences(texts, places):
        sentence = ASIDE.sub("", said)  # （同庆园账房里有一部电话）: an aside names no journey's end
        for home in HOME_PLACE.finditer(sentence):  # the places ending where it starts, looked up by their lengths
            if first_end(HOME_HERE, sentence) <= home.start():
                continue  # the sentence says here before it (searched once, not from its start at each home: A18)
            setting, here = own = _own_places(texts, known) if own is None else own
            out.update(p for n in known.lengths if (p := sentence[home.start() - n:home.start()]) in known.names
                       and (p not in here or said == setting))
        walks = [m.span() for m in A_WALK.finditer(sentence)]
        starts = [a for a, _ in walks]
        journeys, rare = [], False
        for m in FAR_WORDS.finditer(sentence):
            if _within(walks, starts, m.start()):
                continue
            if RARE_CONTACT.fullmatch(m.group()):
                rare = True
            else:
                journeys.append(m.start())
        if journeys:
            named = _far_ends(sentence, known)
            one = len(set(named.values())) == 1  # one far end (with the place it lies in: the same spot)
            out.update(p for p, at in named.items() if one or _near(journeys, at))
        elif rare and not NEAR_SAID.search(sentence):  # 住在兰州，过年才回来: where they are, not where they come to
            out.update(p for p, at in _far_ends(sentence, known).items() if sentence[:at].endswith(RARE_CONTACT_AT))
    return frozenset(out)


def _within(spans: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    """Whether ``at`` lies in one of ``spans`` (in order, not overlapping; ``starts`` their starts): looked up, not
    tried against each (a world line of thousands of 五里远 was the square of its length)."""
    k = bisect.bisect_right(starts, at) - 1
    return k >= 0 and at < spans[k][1]


def _near(positions: list[int], at: int) -> range:
    """The indices of ``positions`` (in order) within :data:`FAR_SPAN` characters of ``at``."""
    return range(bisect.bisect_left(positions, at - FAR_SPAN), bisect.bisect_right(positions, at + FAR_SPAN))


class _Places(NamedTuple):
    """A book's places, looked up in a sentence by its pieces (thousands of places, each searched for
    in every sentence of the world, were the square of the book)."""

    names: frozenset[str]
    lengths: tuple[int, ...]  # longest first

    def at_start(self, text: str) -> Iterator[str]:
        """The places ``text`` starts with, longest first."""
        return (text[:n] for n in self.lengths if n <= len(text) and text[:n] in self.names)

    def in_text(self, text: str) -> set[str]:
        """The places ``text`` names."""
        return {text[i:i + n] for n in self.lengths for i in range(len(text) - n + 1)} & self.names


def _world_sentences(texts: Iterable[str], places: Iterable[str]) -> Iterable[tuple[str, _Places]]:
    """Each sentence of the world's and the cards' texts, with the places of two characters or more
    (the ones a sentence can name as a journey's far end)."""
    names = frozenset(p for p in places if len(p) >= 2)
    known = _Places(names, tuple(sorted({len(p) for p in names}, reverse=True)))
    for text in texts:
        for sentence in re.split(r"[。！？；;\n]", text):
            yield sentence, known


def _named_at(sentence: str, place: str) -> int:
    """Where a sentence names a place as the one far away, not as the point the journey starts from
    (从上海坐船要走七八天: the days are the other end's): -1 when it does not."""
    at = sentence.find(place)
    while at > 0 and sentence[max(0, at - 2):at].endswith(FROM_HERE):
        at = sentence.find(place, at + 1)
    return at


def _far_ends(sentence: str, places: _Places) -> dict[str, int]:
    """``{place: position}`` of the places a sentence may say are far: the one it opens with, when it
    goes on to place it (天剑宗在东海边上，离栖霞山三万余里: the others are where it is measured from); else
    each named not as a distance's near end (:func:`_named_at`)."""
    lead = sentence.lstrip()
    opener = next((p for p in places.at_start(lead) if lead[len(p):len(p) + 2].startswith(PLACED)), None)
    if opener is not None:
        at = len(sentence) - len(lead)
        # 曙光基地在北方的雁城，…要走二十多天: the place it lies in is as far, measured from the same spot
        clause = LIES_IN.match(lead, len(opener))
        where = clause.group("where") if clause is not None else ""
        outer = next((p for p in places.at_start(where) if p != opener), None)
        # 府城在清河县城北面一百二十里: the other place is where it is measured from, not where it lies
        if outer is not None and not AROUND.search(where[len(outer):]):
            return {opener: at, outer: at}
        return {opener: at}
    named = {p: at for p in sorted(places.in_text(sentence)) for at in [_named_at(sentence, p)] if at >= 0}
    # 何敏在新加坡出差，十号才飞回杭州: of a journey's two ends, the one returned to is home, the other far
    away = {p: at for p, at in named.items() if not sentence[max(0, at - 2):at].endswith(BACK_TO)}
    return away if away and len(away) < len(named) else named


LIES_IN = re.compile(r"(?:在|位于|地处|坐落在|坐落于)(?:[^，,。；;、的\n]{1,3}的)?(?P<where>[^，,。；;、\n]*)")
"""A place's opening clause up to the place it lies in (曙光基地在北方的雁城): :func:`_far_ends` reads that one
as far as the opener."""
PLACED = ("在", "位于", "地处", "坐落")
"""What follows a place that opens a sentence about where it lies (汉口在长江上游); 北岭离沈阳四个钟头 says
either may be far, whichever the point of view is not in."""
FROM_HERE = ("从",)
"""What puts a place as a journey's near end (从上海坐船要走七八天)."""
BACK_TO = ("回", "回到", "返回", "返抵")
"""What puts a place as the end a journey returns to (飞回杭州): home, when the sentence names the other end."""


_COUNT = r"[\d一二两三四五六七八九十几]{1,3}"
DURATION = re.compile(rf"(?<![第月初号\d〇零一二两三四五六七八九十几廿卅])(?P<days>{_COUNT})(?:来|多)?(?:个)?(?:天|日)(?!子)|"
                      rf"(?P<months>{_COUNT}(?=个|多个|来个)|半)(?:多|来)?个?(?:多|来)?月(?![份初底中末亮光])|"
                      rf"(?P<monthish>月余|个把月|一月有余)|(?P<half>大半天|小半天|半天)|(?P<hours>{_COUNT})个?(?:钟头|小时)")
"""How long a journey is said to take (十来天, 半个月, 月余, 大半天, 三个钟头; 八月 is a month of the year,
not a month's road; 第二天 is the next day, not two days' road), read as days by :func:`journeys`."""


def _days(m: re.Match[str]) -> float | None:
    if m.group("half"):
        return 0.5
    if m.group("monthish"):
        return 30
    if m.group("months"):
        n = 0.5 if m.group("months") == "半" else _cn_int(m.group("months").replace("几", "三"))
        return n * 30 if n else None
    said = (m.group("days") or m.group("hours")).replace("几", "三")
    if len(said) == 2 and said[0] in _NUM and said[1] in _NUM and "十" not in said:
        said = said[0]  # 七八天: the shorter
    count = _cn_int(said)
    if count is None:
        return None
    return count if m.group("days") else count / 24


def journeys(texts: Iterable[str], places: Iterable[str]) -> dict[str, float]:
    """The days a sentence of the world or of a card says a place is away (上海…书信走海路，一封信要走十来天;
    保定府…坐火车要大半天): the shortest one said within :data:`FAR_SPAN` characters of it."""
    out: dict[str, float] = {}
    for sentence, known in _world_sentences(texts, places):
        said = [(m.start(), d) for m in DURATION.finditer(sentence) for d in [_days(m)] if d]
        if not said:
            continue
        named = _far_ends(sentence, known)
        one = len(set(named.values())) == 1
        where = [j for j, _ in said]
        for p, at in named.items():
            near = [d for _, d in said] if one else [said[k][1] for k in _near(where, at)]
            if near:
                out[p] = min(out.get(p, min(near)), min(near))
    return out


SINCE = {"今早": 0, "今儿一早": 0, "今天一早": 0, "今儿早上": 0, "今天早上": 0, "今儿个一早": 0, "昨儿": 1, "昨天": 1, "昨日": 1,
         "昨晚": 1, "昨夜": 1, "昨儿个": 1, "前天": 2, "前儿": 2, "前儿个": 2, "大前天": 3}
SET_OUT = re.compile(r"上的船|上船|上了船|坐的船|动的身|动身|出发|出的门|起身|起的身|启程|上的车|上车|上了车|坐的车|走的|离开|坐船|坐车")
"""Setting out from a place (从上海上的船, 从保定动身): with when (:data:`SINCE`) it says how long the road took."""


SENT_FROM = "写下|写的|写好|写成|寄出|寄的|发出|发的|封好|封的|托人捎|捎出"
"""A letter or a parcel made at a place (昨儿夜里才在行宫写下的): here today, it took the road from there."""


DAY_PARTS = {"凌晨": 0, "后半夜": 0, "天不亮": 3, "一早": 5, "早上": 5, "早晨": 5, "清早": 5, "今早": 5, "上午": 8, "中午": 11,
             "晌午": 11, "下午": 12, "后晌": 12, "傍晚": 17, "黄昏": 17, "晚上": 18, "夜里": 18, "昨晚": 18, "昨夜": 18,
             "半夜": 22, "深夜": 22}
"""The earliest hour a part of the day may mean (昨儿夜里 is six in the evening at the earliest)."""
_PARTS = "|".join(sorted(DAY_PARTS, key=len, reverse=True))
CLOCK = re.compile(rf"({_PARTS})?([\d〇零一二两三四五六七八九十]{{1,3}})点(?:钟|半|多)?")
"""An hour of the clock (早上八点, 上午十点, 十点半), with the part of the day that places it."""
_LATER_HALF = ("下午", "后晌", "傍晚", "黄昏", "晚上", "夜里", "昨晚", "昨夜", "半夜", "深夜")


def _hour(text: str, latest: bool) -> float | None:
    """The hour ``text`` says (早上八点 → 8, 下午三点 → 15, 夜里 → 18): a clock's, else a part of the day's earliest;
    a clock with no part of the day is its later half when ``latest`` (十点 may be ten at night), else its earlier."""
    clock = CLOCK.search(text)
    if clock is not None:
        n = _cn_int(clock.group(2))
        if n is None or n > 24:
            return None
        part = clock.group(1)
        later = part in _LATER_HALF if part else latest
        return float(n + 12 if later and n < 12 else n)
    return next((float(DAY_PARTS[w]) for w in sorted(DAY_PARTS, key=len, reverse=True) if w in text), None)


def _scene_hour(sentences: list[tuple[int, int, str]], upto: int) -> float:
    """The latest hour the narration before sentence ``upto`` gives the scene by the clock (上午十点，门被推开): 24
    (the day's end) when it gives none; what people say is not read."""
    for _i, _col, sentence in reversed(sentences[:upto]):
        told = _QUOTED_WORDS.sub("", sentence)
        if CLOCK.search(told) is not None:
            hour = _hour(told, latest=True)
            if hour is not None:
                return hour
    return 24.0


def _too_soon(world: World, sentences: list[tuple[int, int, str]], first_line: int, here: str) -> list[Finding]:
    """位置: someone said to have set out from a place yesterday (昨儿一早才从上海上的船) who is here today, when
    the world or a card says that place is days away (:attr:`World.journey`) and it is not where the point of
    view is (``here``, its card's or moved 位置): the road is shorter than the map. The time on the road is read
    to the hour when the setting out says one (昨儿夜里, 今天早上八点: :func:`_hour`) and the narration gives the
    scene's clock (:func:`_scene_hour`); else from the day's start to its end."""
    away = [p for p in world.journey if not (here and _related(world, p, here))]
    if not away:
        return []
    since = "|".join(sorted(SINCE, key=len, reverse=True))
    # a far place by its kind alone when no other known place ends so (行宫 for 汤泉行宫)
    kinds = {p[-2:]: p for p in away if len(p) >= 4 and sum(q.endswith(p[-2:]) for q in world.places) == 1}
    where = "|".join(map(re.escape, sorted([*away, *kinds], key=len, reverse=True)))
    since = rf"{since}|{_COUNT}天前|前{_COUNT}天"
    road = re.compile(rf"({since})[^，,。！？；;\n]{{0,6}}?从({where})[^，,。！？；;\n]{{0,4}}?(?:{SET_OUT.pattern})|"
                      rf"从({where})[^，,。！？；;\n]{{0,4}}?(?:{SET_OUT.pattern})[^，,。！？；;\n]{{0,2}}?(?:是)?({since})|"
                      rf"({since})[^，,。！？；;\n]{{0,6}}?在({where})[^，,。！？；;\n]{{0,4}}?(?:{SENT_FROM})")
    out = []
    for k, (i, col, sentence) in enumerate(sentences):
        if ("从" not in sentence and "在" not in sentence) or NOT_NOW.search(sentence):
            continue
        for m in road.finditer(sentence):
            when, place = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3)) if m.group(4) \
                else (m.group(5), m.group(6))
            place = kinds.get(place, place)
            days = world.journey[place]
            count = re.search(_COUNT, when)
            gone = SINCE.get(when) if when in SINCE else _cn_int(count.group().replace("几", "三")) if count else None
            setting_out = m.group()[:m.group().find("从" if m.group(5) is None else "在")] if m.group(4) is None else ""
            left = (_hour(setting_out, latest=False) or 0.0) if setting_out else 0.0
            if gone is not None and gone + ((_scene_hour(sentences, k) if setting_out else 24.0) - left) / 24 < days:
                road_time = f"{days:g}天" if days >= 1 else f"{round(days * 24, 1):g}个钟头"
                out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可「{place}」离这里要走{road_time}（世界观/角色卡），"
                                   f"路上的日子不够：人的位置对不上", first_line + i, col, sentence.strip()[:60]))
    return out


def places_inside(world_text: str, places: Iterable[str]) -> dict[str, set[str]]:
    """:func:`place_nesting`'s places and what they lie in, without its one-place lists."""
    return place_nesting(world_text, places)[0]


def place_nesting(world_text: str, places: Iterable[str]) -> tuple[dict[str, set[str]], tuple[frozenset[str], ...]]:
    """Which known places lie in which, from the world's clauses (断魂崖在青崖山后山, 血衣楼位于云梦泽
    深处) and from one place written right after another, with or without 的 (四川的攀枝花钢铁厂,
    住在瑶华宫西配殿: Chinese names the larger place first): ``{place: {places it lies in}}``, transitively.
    The places are looked up by the text's pieces (a book of thousands of places read the world's
    text once per place). Second: the world's one-place lists (排坞、河街和洪江城里算一处地方), each of whose places
    lies in the others in the first — siblings of one place, which says nothing of which one a scene is at; a list's
    own name (…算一处地方，叫九道班) is the whole, left out of its list."""
    ordered = sorted(places, key=len, reverse=True)  # the first of two places said in each other wins: an order
    known = set(ordered)
    lengths = sorted({len(p) for p in known}, reverse=True)
    out: dict[str, set[str]] = {}
    for clause in re.split(r"[，,。；;！？\n]", world_text):
        m = INSIDE.match(clause.strip())
        if not m:
            continue
        a = next((m.group("a")[-n:] for n in lengths if m.group("a")[-n:] in known and n <= len(m.group("a"))), None)
        b = next((m.group("b")[:n] for n in lengths if m.group("b")[:n] in known and n <= len(m.group("b"))), None)
        if b and AROUND.match(clause.strip()[m.start("b") + len(b):]):
            continue  # 海城在江城以东两百公里: beside it, not in it
        if a and b and a != b:
            out.setdefault(a, set()).add(b)
    starts = found_at(known, world_text)
    said: dict[str, list[int]] = {}  # place -> where it starts, in order
    for at in sorted(starts):
        for p in starts[at]:
            said.setdefault(p, []).append(at)
    for b in ordered:  # 四川的攀枝花钢铁厂, 瑶华宫西配殿: the second lies in the first
        free = 0  # each place's mentions one after another, none inside the last one (and its 的)
        for at in said.get(b, ()):
            if at < free:
                continue
            end = at + len(b) + (world_text[at + len(b):at + len(b) + 1] == "的")
            free = end
            for a in starts.get(end, ()):  # 攀枝花钢铁厂 and 攀枝花
                if a != b and a not in out.get(b, ()):
                    out.setdefault(a, set()).add(b)
    # 排坞、河街、田裕记木行和洪江城里算一处地方: the places a world says are one place lie in one another (P3, stop 56),
    # the list its own clause (、 and 和 join it; a comma ends it: 戏班子从汉口出发，…马厩和帐篷算一处地方 leaves 汉口 out),
    # at most ONE_PLACE_MOST of them, none when the clause denies it (不算一处地方, 也不为过: R56)
    groups: list[set[str]] = []
    whole: list[str] = []  # each list's own name (…算一处地方，叫九道班), "" when it has none: the whole, no sibling
    said_at = sorted(starts)  # one pass: each clause's places looked up by their starts, not a walk per character
    # where clauses end, read once: a search from each list for each end mark (one the world never writes walked the
    # whole world each time) made a world of thousands of lists the square of its length (A18, stop 58)
    clause_ends = [e.start() for e in re.finditer(f"[{re.escape(ONE_PLACE_ENDS)}]", world_text)]
    denials = [d.start() for d in ONE_PLACE_DENIED.finditer(world_text)]  # one character each: looked up, not searched

    def denied(start: int, stop: int) -> bool:
        return bisect.bisect_left(denials, start) < bisect.bisect_left(denials, stop)

    said_before = 0  # where the last one-place word ends: a clause's second list starts after its first
    for m in ONE_PLACE.finditer(world_text):
        k = bisect.bisect_left(clause_ends, m.start())
        begin = max(clause_ends[k - 1] + 1 if k else 0, said_before)
        said_before = m.end()
        k = bisect.bisect_left(clause_ends, m.end(), k)
        close = clause_ends[k] if k < len(clause_ends) else len(world_text)
        end = m.end()
        named = NAMED_ONE_PLACE.match(world_text, end)
        if named is not None and named.group(1) in known:  # …算一处地方，叫九道班: the one place's own name
            end = named.end(1)
        group: list[str] = []
        free = begin
        for k in range(bisect.bisect_left(said_at, begin), bisect.bisect_left(said_at, end)):
            at = said_at[k]
            here = next((p for p in starts[at] if at + len(p) <= end), None) if at >= free else None
            if here is not None:  # the places said, longest first, none inside the last
                group.append(here)
                free = at + len(here)
            if len(group) > ONE_PLACE_MOST:
                break
        last = max((world_text.rfind(p, begin, m.start()) + len(p) for p in group), default=begin)
        if not group or len(group) > ONE_PLACE_MOST or denied(last, m.start()) or denied(m.end(), close):
            continue
        groups.append(set(group))
        whole.append(named.group(1) if named is not None and end == named.end(1) else "")
    for _ in range(3):  # a place in a place in a place
        for a, outer in out.items():
            outer |= {c for b in list(outer) for c in out.get(b, ())}
            outer.discard(a)
    # after the nesting, each list with what its places lie in: a list is one place, chained lists are not (no closure)
    for one, around in [(one, one.union(*(out.get(b, set()) for b in one))) for one in groups]:
        for a in one:
            out.setdefault(a, set()).update(around - {a})
    return out, tuple(frozenset(one - {name}) for one, name in zip(groups, whole))


ONE_PLACE = re.compile(r"(?:算|当|看作|看成)(?:作|做|是|成)?(?:同)?一(?:处(?:地方)?|个地方|块地方)")
"""A world saying the places it lists are one place (A、B和C算一处地方; 算作一处, 当一个地方): where its people come and go
without leaving (:func:`places_inside`)."""
ONE_PLACE_ENDS = "，,。；;！？!?\n"
"""What ends the clause of a one-place list (、 and 和 join the list; a comma ends it)."""
ONE_PLACE_MOST = 8
"""The most places a one-place list joins: a longer run is a list of stops, not one place (and stays linear)."""
ONE_PLACE_DENIED = re.compile(r"[不没未别非难]|吗")
"""A word of the list's clause, between its last place and its end, that denies the one place (不算一处地方, 可不能当一个
地方, 也不为过, 算一处地方吗)."""
NAMED_ONE_PLACE = re.compile(r"[，,]\s*(?:叫|叫做|叫作|统称|合称|就是|即)?([\u4e00-\u9fff]{2,8})(?=[：:，,。；;）)])")
"""The one place's name said right after (…算一处地方，九道班：…; …算一处地方，统称老营): read when it is a known place."""


# --- ranks ------------------------------------------------------------------------------------------


def stages_of(world_text: str) -> tuple[str, ...]:
    """The realm stages in order from 世界观.md's 「力量体系」 section, else from a ladder line
    (:data:`_CHAIN`) anywhere in it, else the default ladder."""
    m = re.search(r"^##\s*力量体系[^\n]*\n(.*?)(?=^##\s|\Z)", world_text, re.M | re.S)
    if not m:
        chain = next((line for line in world_text.split("\n") if _CHAIN.fullmatch(line.strip())), None)
        if chain is None:
            return DEFAULT_STAGES
        return tuple(dict.fromkeys(w.strip() for w in re.split(r"[<＜]", chain.strip())))
    section = m.group(1)
    # the ladder's own line when it has one (F级 ＜ E级 ＜ …): the prose after it names no stage
    line_of = next((line for line in section.split("\n") if re.search(r"[<＜>＞→]", line)
                    and len(_STAGE_WORD.findall(line)) >= 2), None)
    ladder = section if line_of is None else line_of
    sign = re.search(r"[<＜>＞→]", ladder) if line_of is not None else None
    if sign is not None:  # 井上手艺人的等第：学徒 ＜ 帮手 …: the label before a colon is no rung (外门，内门，真传 → 长老: all are)
        ladder = ladder[max(ladder.rfind(c, 0, sign.start()) for c in "：:") + 1:]
    found = [w for w in re.split(r"[\s<＜>＞→、,，|｜\-—*]+", ladder) if _STAGE_WORD.fullmatch(w)]
    return tuple(dict.fromkeys(found)) if len(found) >= 2 else DEFAULT_STAGES


_CHAIN = re.compile(r"[\u4e00-\u9fff]{1,4}(?:\s*[<＜]\s*[\u4e00-\u9fff]{1,4}){3,}")
"""A ladder of four or more ranks on a line of its own, lowest first, in any section (官女子 ＜ 答应 ＜ 常在 …,
列兵 ＜ 下士 ＜ 中士 …, 科员 ＜ 副科 ＜ 正科 …): a world without 力量体系 still ranks by it; a rank may be one
character (嫔, 妃)."""
_STAGE_WORD = re.compile(r"[\u4e00-\u9fff]{2,4}|[A-Z]{1,3}[级阶]")
"""A stage of a ladder: a word (练气, 筑基) or a letter grade (D级, SS级)."""


def _number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text in _NUM:
        return _NUM[text]
    if len(text) == 2 and text[0] == "十" and text[1] in _NUM:
        return 10 + _NUM[text[1]]
    if len(text) == 2 and text[1] == "十" and text[0] in _NUM:
        return _NUM[text[0]] * 10
    return None


@functools.lru_cache(maxsize=64)
def realm_pattern(stages: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern of a realm of ``stages`` (a stage, then a level or a phase), built once per ladder (built per
    :func:`rank` call, a draft of thousands of titles beside a ladder of hundreds of rungs escaped every rung at
    each: 3.5 s at the draft's cap)."""
    names = sorted(stages, key=len, reverse=True)
    return re.compile(rf"({'|'.join(map(re.escape, names))})(?:期)?(?:([一二两三四五六七八九十\d]{{1,2}})[层重阶品级段]|"
                      rf"({'|'.join(sorted(_PHASE, key=len, reverse=True))}))?")


def rank(realm: str, stages: tuple[str, ...]) -> tuple[int, int] | None:
    """``(stage, level)`` of a realm such as 筑基七层, 金丹初期, 练气; None when unknown."""
    m = realm_pattern(stages).search(realm or "")
    if not m:
        return None
    stage = SAME_STAGE.get(m.group(1), m.group(1))
    level = _number(m.group(2)) if m.group(2) else _PHASE.get(m.group(3) or "", 0)
    return _stage_order(stages)[stage], level or 0


@functools.lru_cache(maxsize=64)
def _stage_order(stages: tuple[str, ...]) -> dict[str, int]:
    """``{stage: its place}`` of a ladder, a stage said the same way (:data:`SAME_STAGE`) at its first place."""
    order: dict[str, int] = {}
    for i, s in enumerate(stages):
        order.setdefault(SAME_STAGE.get(s, s), i)
    return order


# --- in-book time ---------------------------------------------------------------------------------------

_MONTHS = {"正月": 1, "一月": 1, "二月": 2, "三月": 3, "四月": 4, "五月": 5, "六月": 6, "七月": 7, "八月": 8, "九月": 9,
           "十月": 10, "冬月": 11, "十一月": 11, "腊月": 12, "十二月": 12}
def _cn_int(text: str) -> int | None:
    """A number of the calendar or a count (初三 is 3, 12 is 12, any script's decimal digits as ``int`` reads them):
    :func:`numerals.value` after 初."""
    return int(text) if text.isdecimal() else value(text[1:] if text.startswith("初") else text)


WEEKDAY_AFTER = re.compile(r"(?<![\s，,（(])[\s，,（(]*(?:星期|礼拜|周)[一二三四五六日天][）)]?\s*$")
"""A weekday written after a date (2025年11月3日 星期一, 11月3日（周一）). Tried only where a run of blanks and
commas begins (a later start in the run finds the same end, and the first start wins): tried at each of the
run's characters, a run of tens of thousands without a weekday was read again from each (the square of its
length)."""
YEAR = re.compile(r"(?:^|(?<=[\d〇零一二三四五六七八九十]))([^\d〇零一二三四五六七八九十]*)([\d〇零一二三四五六七八九十]{1,5}|元)\s*年")
"""The first year of an in-book time (大历1023年; a reign's first, 乾隆元年, is its year 1: T9, stop 60): the era before
it, its numeral. Tried only at the start and after
a numeral (a later start in the same stretch of other characters finds the same year, and the first start wins):
tried at each character, a time of tens of thousands of characters and no year was read again from each (the
square of its length, a minute for a 书内时间 of the draft's cap)."""


def _year_of(numeral: str) -> int | None:
    """The year a year's numeral names (:data:`YEAR`): 元 is the first."""
    return 1 if numeral == "元" else _cn_int(numeral)


def book_time(text: str) -> tuple[str, tuple[int | None, int | None, int | None]] | None:
    """``(era, (year, month, day))`` of an in-book time (大历1023年冬月初三, 1023冬月初三, 冬月初五,
    第12日); None when nothing in it can be read as a date."""
    text = (text or "").strip()
    if not text:
        return None
    m = re.search(r"第\s*([\d一二三四五六七八九十百零〇两]{1,9})\s*[日天]", text)
    if m:
        day = _cn_int(m.group(1))
        return ("", (None, None, day)) if day is not None else None
    year = month = day = None
    era = ""
    ym = YEAR.search(text)
    if ym:
        era, year = ym.group(1).strip(), _year_of(ym.group(2))
    else:
        lead = re.match(r"([^\d]*?)(\d{3,5})", text)
        if lead:
            era, year = lead.group(1).strip(), int(lead.group(2))
    for name in sorted(_MONTHS, key=len, reverse=True):
        if name in text:
            month = _MONTHS[name]
            break
    if month is None:
        mm = re.search(r"(\d{1,2})\s*月", text)
        month = int(mm.group(1)) if mm else None
    # 11月3日 星期一: the weekday after the date is no day of the month
    after_month = WEEKDAY_AFTER.sub("", text.split("月")[-1]).rstrip(" ，,（）()")
    dm = re.search(r"(初[一二三四五六七八九十]|[廿卅]?[一二三四五六七八九十]{1,3}|\d{1,2})\s*[日号]?$", after_month) \
        if month is not None else None
    if dm:
        day = _cn_int(dm.group(1))
    if year is None and month is None and day is None:
        return None
    return era, (year, month, day)


SEASONS: tuple[tuple[str, tuple[int, int]], ...] = (
    # festivals and 节气 first (春节 is no spring, 立秋 no autumn's whole span); a span of months that
    # holds for the lunar and the Gregorian calendar both, so a book's calendar need not be known
    ("元旦", (1, 1)), ("春节", (1, 2)), ("过年", (1, 2)), ("元宵", (1, 3)), ("上元", (1, 3)), ("寒食", (2, 4)),
    ("清明", (2, 4)), ("端午", (5, 6)), ("端阳", (5, 6)), ("七夕", (7, 8)), ("中元", (7, 9)), ("中秋", (8, 10)),
    ("重阳", (9, 10)), ("国庆", (10, 10)),
    ("立春", (1, 2)), ("雨水", (1, 2)), ("惊蛰", (2, 3)), ("春分", (2, 3)), ("谷雨", (3, 4)), ("立夏", (4, 5)),
    ("小满", (4, 5)), ("芒种", (5, 6)), ("夏至", (5, 6)), ("小暑", (6, 7)), ("大暑", (6, 7)), ("立秋", (7, 8)),
    ("处暑", (7, 8)), ("白露", (8, 9)), ("秋分", (8, 9)), ("寒露", (9, 10)), ("霜降", (9, 10)), ("立冬", (10, 11)),
    ("小雪", (10, 11)), ("大雪", (11, 12)), ("冬至", (11, 12)),
    ("春", (1, 5)), ("夏", (4, 8)), ("秋", (7, 11)),
)
"""Seasons, 节气 and festivals of an in-book time, as the months they can fall in (冬 runs into the
next year's first months: it is left out, never surely before anything)."""
MONTH_PART: tuple[tuple[str, tuple[int, int]], ...] = (
    ("上旬", (1, 10)), ("月初", (1, 10)), ("初旬", (1, 10)), ("中旬", (11, 20)), ("月中", (11, 20)),
    ("下旬", (21, 31)), ("月底", (21, 31)), ("月末", (21, 31)), ("月尾", (21, 31)))
"""A part of a month, as the days it can be."""


def _span(text: str) -> tuple[str, int | None, tuple[int, int] | None, tuple[int, int] | None] | None:
    """``(era, year, months, days)`` of an in-book time, each a span when the time names a
    season, a 节气, a festival or a part of the month (2024年立秋, 十月上旬); None when unread."""
    read = book_time(text)
    era, (year, month, day) = read if read else ("", (None, None, None))
    months = (month, month) if month is not None else None
    days = (day, day) if day is not None else None
    if months is None:
        word = next((w for w, _span in SEASONS if w in text), None)
        if word is not None:
            months = dict(SEASONS)[word]
            if read is None:
                lead = YEAR.match(text)
                era, year = (lead.group(1).strip(), _year_of(lead.group(2))) if lead else ("", None)
            elif era.endswith(word):
                era = era[:-len(word)].strip()
    if months is not None and months[0] == months[1]:
        part = next((d for w, d in MONTH_PART if w in text), None)
        if part is not None and (days is None or not re.search(r"初[一二三四五六七八九十]", text)):
            days = part
    if year is None and months is None and days is None:
        return None
    return era, year, months, days


def earlier(a: str, b: str) -> bool:
    """Whether in-book time ``a`` is surely before ``b`` (same era; compared down to the first
    field either leaves out; a season, 节气, festival or part of the month is the span it can be)."""
    ta, tb = _span(a), _span(b)
    if ta is None or tb is None or (ta[0] and tb[0] and ta[0] != tb[0]):
        return False
    if (ta[1] is None) != (tb[1] is None):
        return False
    if ta[1] is not None and tb[1] is not None and ta[1] != tb[1]:
        return ta[1] < tb[1]
    for x, y in ((ta[2], tb[2]), (ta[3], tb[3])):
        if x is None and y is None:
            continue
        if x is None or y is None:
            return False
        if x[1] < y[0]:
            return True
        if x != y or x[0] != x[1]:
            return False  # overlapping spans: not surely ordered
    return False


# --- the checks -------------------------------------------------------------------------------------------


@dataclass
class _Change:
    who: str
    field: str
    op: str
    value: str


def _changes(meta: dict[str, Any], aliases: dict[str, str]) -> list[_Change]:
    out = []
    for line in as_list(meta.get("设定变更")):
        m = CHANGE.match(str(line))
        if m:
            out.append(_Change(aliases.get(m["who"], m["who"]), m["field"], m["op"], m["value"]))
    return out


def _sentences(lines: list[str]) -> Iterable[tuple[int, int, str]]:
    for i, line in enumerate(lines):
        for m in _SENTENCE.finditer(line):
            if m.group().strip():
                yield i, m.start() + 1, m.group()


def check_continuity(world: World, meta: dict[str, Any], lines: list[str], first_line: int,
                     voices: Iterable[Any], names: re.Pattern[str] | None) -> list[Finding]:
    """Every continuity finding of a draft (``meta`` its front matter, ``lines`` its body from
    ``first_line``); ``voices`` who says what (:func:`lw_storyrepo.checks.voices`), ``names`` the
    pattern of every name the draft may use."""
    out: list[Finding] = []
    aliases = world.aliases
    changes = _changes(meta, aliases)
    text = "\n".join(lines)
    pov = aliases.get(str(meta.get("视角") or "").strip()) or None
    sentences = list(_sentences(lines))
    voices = list(voices)  # read by the 持有 reader (who says 我) and the 状态 reader (who speaks)
    # 书内时间
    now = str(meta.get("书内时间") or "")
    flashback = meta.get("倒叙") is True or str(meta.get("倒叙") or "").strip() in ("是", "true")
    if flashback:
        names = None  # the cards say how things are now; a flashback's prose is checked by its setting changes only
    if world.last_time and now and not flashback and earlier(now, world.last_time[1]):
        n, then = world.last_time
        # where the prose writes the same day (a signed log entry: 十月初十夜，…记), the finding points there
        day_said = WEEKDAY_AFTER.sub("", now.rsplit("年", 1)[-1]).strip()
        at = next(((i, line.find(day_said)) for i, line in enumerate(lines) if len(day_said) >= 3 and day_said in line),
                  None)
        out.append(Finding("连贯", ERROR, f"书内时间「{now}」早于第 {n} 章的「{then}」（时间倒流）；倒叙就在草稿写「倒叙: true」",
                           *((first_line + at[0], at[1] + 1, _sentence_at(lines[at[0]], at[1]).strip()[:60]) if at
                             else (1, 1, f"书内时间: {now}"))))
    if now and not flashback:
        out += _said_today(now, sentences, first_line, (*world.cards, *world.aliases))
        out += _feast_counted(now, lines, first_line)
        out += _grave_dated(world, lines, first_line)
        out += _countdown(world, now, sentences, first_line)
        out += _dates_in_prose(now, lines, sentences, first_line)
        out += _entry_dated(now, lines, first_line)
        out += _document_days(now, lines, first_line, (*world.cards, *world.aliases))
        if names is not None and world.dated_by:
            out += _since_going(world, names, now, sentences, first_line)
            out += _date_restated(world, names, now, sentences, first_line)
            out += _going_on_day(world, names, now, sentences, first_line)
        if names is not None:
            out += _since_arrival(world, pov, now, sentences, first_line, lines, voices)
        if names is not None and world.died:
            out += _since_death(world, names, now, sentences, first_line) + _days_since_death(world, names, now, sentences,
                                                                                          first_line)
    # 境界
    explained = DOWN_EVENTS.search(text) is not None
    set_realm = {c.who: c.value for c in changes if c.field == "境界" and c.op == "="}
    for who, value in set_realm.items():
        card = world.cards.get(who, {})
        old, new = rank(str(card.get("境界") or ""), world.stages), rank(value, world.stages)
        if old and new and new < old and not explained and not _demoted(text, value):
            out.append(Finding("连贯", ERROR, f"{who} 的境界从「{card.get('境界')}」（角色卡·境界）降到「{value}」，正文没有写明缘由"
                               f"（跌境、散功、封印…）", 1, 1, f"{who}.境界={value}"))
    if names is not None:
        asked: dict[tuple[int, int], str | None] = {}  # who each pronoun before a rank is, asked once for both readers
        out += _ranks(world, names, lines, sentences, first_line, pov, set(set_realm), explained, asked)
        if not explained:
            out += _register(world, names, sentences, first_line, set(set_realm))
        present = frozenset(aliases.get(str(x), str(x)) for x in as_list(meta.get("在场")))
        out += _generic_ranks(world, names, lines, sentences, first_line, pov, set(set_realm), text, out, asked,
                              _other_of_two(voices, set(present), lines), present)
    # 持有
    given = {(c.who, c.value) for c in changes if c.field == "持有" and c.op == "+"}
    looks = _described(world) if names is not None and world.items else None
    told = _told(world, names) if names is not None and world.items else None
    known = _identified(world) if names is not None and world.items else None
    looked = [known(told(looks(said_sentence))) for _i, _col, said_sentence in sentences] \
        if looks is not None and told is not None and known is not None else []
    canon = _item_forms(world.items, "\n".join(looked)) if looked else []
    book_names, book_aliases = names, aliases  # the 持有 reader's own names, given back after it (below)
    called = _called_unread(world, names, text) if names is not None and canon else {}
    addressed = {**called, **surname_addressed(world, names, text)} if names is not None and canon else {}
    # 孟和叫他“张大叔”…张大叔说…。⏎他摸出…: for the 持有 readers alone, a called form is a pronoun's antecedent (H15)
    held_world = replace(world, indirect=world.indirect - called.keys()) if called else world
    if names is not None and addressed:  # 任叔拿起…: a surname and an address word are the one card of that surname
        names = re.compile(f"{alternation(addressed)}|{names.pattern}")
        aliases = {**aliases, **addressed}
    if names is not None and canon:
        held_names = names  # this block's names, for the closures below (``names`` is given back after the block)
        item_re = _items_pattern(canon)
        owner = rf"(?:(?:{names.pattern})(?:的|[那这]一?[{ITEM_KIND}]))?"  # 捧出萧老板那副点翠头面: whose it is, said between
        # 摸出一只刻着盘龙的黄铜打火机: a measure word and the thing's looks may stand after the verb too
        looks_said = rf"[一那这]?[{ITEM_KIND}][^。！？“”，,：:\n的]{{1,10}}的[^。！？“”，,：:\n的]{{0,4}}?"
        # 起身从自己的抽屉里摸出…: where it came from may stand before the verb, in the subject's own clause
        source = r"[^。！？“”，,：:\n]{0,8}?从[^。！？“”，,：:\n]{1,8}?[里上中]"
        # 掏出严书记那枚包着红绒布的铜柄公章: an owner and a measure word, then the thing's looks (hk1, stop 63)
        owner_looks = rf"(?:{names.pattern})的?[那这]一?[{ITEM_KIND}][^。！？“”，,：:\n的]{{1,10}}的[^。！？“”，,：:\n的]{{0,4}}?"
        use = re.compile(rf"({names.pattern}|{'|'.join(HE)})(?P<lead>[^。！？“”\n]{{0,8}}?|{source})(?:{'|'.join(USE_VERBS)})"
                         rf"(?:{owner_looks}|{owner}(?:[^。！？“”\n]{{0,6}}?|{looks_said}))(?P<thing>{item_re})")
        # “我拿青哥那只骨哨吹了三声”, “我用我那把刀割的”: in someone's words, 我 using a thing an owner word names
        # (拿/用 X + an act: X the instrument) is the speaker using it — whose it is said, so no guess at the thing.
        # Another's name as the owner: the speaker is not its holder whoever of the scene says it, so a speaker the
        # turn-taking guessed will do; 我 as the owner: only a speaker the text names (the holder may be the one speaking)
        # 我拿沈师兄那只刻着北斗的青铜酒葫芦: after the owner only a measure word and the thing's looks, never another noun
        # (我用沈师兄的法子看了看那只…: the owner's 的 governs 法子)
        # 掏出那把他爹传下来的旧铜烟袋, 解下斜挎在自己身上的那只绿漆水壶: a bounded description (that/this/one + measure, a
        # 的-phrase of at most 18 pieces, a few words of looks) between a use verb and the thing (H5); read only where the
        # shorter reading above did not, and kept only with no name, no giving and no seeing or saying inside (below)
        described = re.compile(rf"({names.pattern}|{'|'.join(HE)})(?P<lead>[^。！？“”\n]{{0,8}}?|{source})(?:{'|'.join(USE_VERBS)})"
                               rf"(?:[一那这][{DESCRIBED_KIND}])?(?P<description>{DESCRIPTION_UNIT}{{1,18}}?的)"
                               rf"(?:[一那这]?[{DESCRIBED_KIND}])?[^。！？“”，,：:\n的]{{0,4}}?(?P<thing>{item_re})")
        # 我拿了你那把…快马子, 我拿小砚你那副松鹤模子: the one spoken to as the owner (你, after their name or not) — another's
        # thing, like a name's; its 那把 may be gone from the sentence read (a known thing's measure word is moved after it)
        # (H7, stop 55)
        # 我开着东方红去…, 我提着那盏…马灯出去看, 我借你那根…扁担: the verbs of SPOKEN_USE_VERBS, and no owner word at all — then
        # only a speaker the text names (the holder may be the one speaking) (H10, stop 57)
        spoke = re.compile(rf"我([^。！？“”，,：:\n]{{0,3}}?)(?:(?:{alternation(SPOKEN_USE_VERBS)})[了着]?|(?:{alternation(SPOKEN_CARRY_VERBS)})[了着])"
                           rf"((?:{names.pattern})?你(?:的|[那这]一?[{ITEM_KIND}])?"
                           rf"|(?:{names.pattern}|我)(?:的|[那这]一?[{ITEM_KIND}])|)"
                           rf"(?:[那这]?一?[{ITEM_KIND}])?(?:[^。！？“”，,：:\n的]{{1,8}}的)?"
                           rf"(?:(?<=[{ITEM_KIND}])[^。！？“”，,：:\n的]{{1,4}}?)?({item_re})")  # 那把银鞘蒙古刀: a few words of looks after a measure (hk1)
        speakers = _by_line(voices)  # line -> the voices with a speaker on it (where their words stand)
        # “莫看我手上这只翡翠扳指”, “把我那只鲨鱼皮套的千里镜拿来”: the speaker calls a known thing their own — this/that and
        # a measure word after 我 (a place of their body or house between), a few words of looks — with no use verb: whoever
        # says it has it now, unless :func:`_claims_own` reads it as past, given away, supposed or another's act (H12, stop 59)
        mine = re.compile(rf"(?<![自忘])(?:{alternation(MINE_SPEAKERS)})(?!们)的?(?:[^。！？“”，,：:\n的这那]{{1,3}}?[上里])?"
                          rf"(?:[这那]一?[{ITEM_KIND}])?(?:[^。！？“”，,：:\n的]{{1,8}}的)?[^。！？“”，,：:\n的]{{0,4}}?(?P<thing>{item_re})")
        # “东家那方铜印在我抽屉里”, “我那架望远镜送给谭宝山了”: the words say where a known thing is now — in the speaker's
        # keeping place, or out of its holder's hands (:func:`_kept_away`, H13, stop 60)
        keeping = re.compile(rf"(?P<owner>{names.pattern}|{alternation(MINE_SPEAKERS)})?(?:的|[那这]一?[{ITEM_KIND}])?"
                             rf"(?:[^。！？“”，,：:\n的]{{1,8}}的)?[^。！？“”，,：:\n的]{{0,4}}?(?P<thing>{item_re})[\u3000\s]*"
                             rf"(?:[，,](?:(?P<between>[^。！？!?“”，,：:；;\n]{{1,{CARRIED_TOPIC_MAX}}})[，,])?)?"
                             rf"(?P<verb>{KEPT_AT}{KEEPER_PLACE}|{KEEPER_HOLDS}|{LEFT_AWAY})")
        # 今暂收信差郑福生随身牛皮护书一只: a record taking a thing from its holder (:func:`_record_findings`, h16)
        records = (re.compile(RECORD_TAKES.replace("WHO", names.pattern)
                              + rf"[^。！？“”，,：:；;\n]{{0,{RECORD_THING_GAP}}}?(?P<thing>{item_re})"),
                   re.compile(RECORD_OWNER.replace("ITEM", item_re).replace("WHO", names.pattern)))
        dropped = {(c.who, c.value) for c in changes if c.field == "持有" and c.op == "-"}
        listed = {aliases.get(str(x), str(x)) for x in as_list(meta.get("在场"))}
        voice_starts = functools.cache(lambda i: (sorted(speakers.get(i, ()), key=lambda v: v.column),
                                                  sorted(v.column - 1 for v in speakers.get(i, ()))))
        # who is named in a line and the paragraphs before it, read once a line (a line of thousands of claims asks once)
        named_near = functools.cache(lambda i: frozenset(aliases.get(n.group(), n.group()) for text in
                                                         (lines[i], *_paragraphs_before(lines, i, HOLDER_NEAR))
                                                         for n in held_names.finditer(text)))
        # 腰间系着一块雕着卧鹿的羊脂玉佩: a measure word and what the thing looks like may stand between
        acts = re.compile(rf"({names.pattern}|{'|'.join(HE)})([^。！？“”，,：:\n]{{1,10}}?)"
                          rf"(?:一[{ITEM_KIND}][^。！？“”，,：:\n的]{{1,8}}的)?({item_re})")
        get = re.compile(rf"({names.pattern})[^。！？“”\n]{{0,8}}?(?:{'|'.join(GET_VERBS)})[^。！？“”\n]{{0,6}}?({item_re})")
        handed = re.compile(rf"({names.pattern})[^。！？“”\n]{{0,4}}?把[^。！？“”\n]{{0,8}}?({item_re})[^。！？“”\n]{{0,6}}?"
                            rf"(?:{alternation(PUT_VERBS)})|({names.pattern})[^。！？“”\n]{{0,20}}?(?:{alternation(SHOW_VERBS)})"
                            rf"[^。！？“”\n]{{0,10}}?({item_re})")
        # 那枚扳指，这会儿套在…: the thing a topic; 那柄剑，是师尊赐的，今天就挂在…: with what it is said between
        topic = rf"\s*[^。！？“”，,\n]{{0,2}}?(?:[，,](?:是|乃是|原是|本是)[^。！？“”，,\n]{{1,20}}?的)?(?:[，,](?:{TOPIC_ADVERBS})*)?"
        passive = re.compile(rf"({item_re}){topic}被({names.pattern})[^。！？“”，,\n]{{0,6}}?(?:{HANDLE})")
        worn = re.compile(rf"({item_re}){topic}(?:{HANDLE})在({names.pattern})的?[左右两]?(?:{BODY})")
        in_hand = re.compile(rf"^\s*({item_re})[^。！？\n]*?[，,](?:{HANDLE})在(?:手里|手上|手心|掌心)")
        # 把马灯递给老郑, 把铜印塞进他手里: its holder gives it away — in another's hands until it comes back (H6)
        # 拿出铜扳手，递给阿爸; 拿起马灯递过去: a holder's taking it in hand (giving.HOLD_OUT_VERBS), then a verb of handing
        # with no other subject between, is the same giving with no 把 (H7, stop 55)
        gave = re.compile(rf"({names.pattern}|{HE_ONE})([^。！？“”\n]{{0,12}}?)(?P<how>把|{alternation(HOLD_OUT_VERBS)})"
                          rf"([^。！？“”\n]{{0,8}}?)({item_re})(?!的)(?P<gap>[^。！？“”\n]{{0,6}}?)(?:{alternation(AWAY_VERBS)}|"
                          rf"(?:{alternation(INTO_VERBS)})(?P<whose>[^。！？“”，,\n]{{0,6}}?)(?:{alternation(INTO_HANDS)}))")
        # 把喷烟壶搁在杜老四脚边, 放下马灯: a thing given away set down again, by whoever — within its giver's reach (R54)
        set_down = re.compile(rf"把[^。！？“”\n]{{0,8}}?({item_re})[^。！？“”，,\n]{{0,4}}?(?:{SET_DOWN_AGAIN})了?[在到下回进]"
                              rf"|(?:{SET_DOWN_AGAIN})[下回][^。！？“”，,\n]{{0,6}}?({item_re})")
        two_of = re.compile(rf"{TWO_OF}({item_re})")
        two: set[str] = set()  # things the draft says there are more than one of (两只手电筒): giving one keeps one (H7)
        gone: dict[tuple[str, str], tuple[int, int]] = {}  # (giver, thing) -> the giving sentence (line, column), while it is in another's hands
        got: set[tuple[str, str]] = set()
        shared: set[str] = set()
        any_item = re.compile(item_re)
        by_length = sorted(world.items, key=len)
        owners: dict[str, str] = {}
        for n, things in world.holdings().items():
            for x in things:
                owners.setdefault(x, n)
        reading = list(zip(sentences, looked)) + _revealed(sentences, looked, names, item_re)
        for (i, col, said_sentence), sentence in reading:
            if not any_item.search(sentence):
                back_at = BACK_AGAIN.search(sentence)
                if gone and back_at and not BACK_OTHER.search(sentence):
                    # 阿爸看了看，又还给了她: a taking back naming no thing is of what was given away (H7) — back to the
                    # one it names after the verb, if any (…还给了老周: only 老周's givings; R55)
                    to = names.match(sentence, back_at.end() + (sentence.startswith("了", back_at.end())))
                    to_whom = aliases.get(to.group(), to.group()) if to else None
                    gone = {k: v for k, v in gone.items() if to_whom is not None and k[0] != to_whom}
                continue
            two |= {_canonical(m.group(1), world.items, by_length) for m in two_of.finditer(sentence)}
            for m in get.finditer(sentence):
                got.add((aliases.get(m.group(1), m.group(1)), _canonical(m.group(2), world.items, by_length)))
                gone.pop((aliases.get(m.group(1), m.group(1)), _canonical(m.group(2), world.items, by_length)), None)
            if gone and BACK_AGAIN.search(sentence):  # 老郑把马灯还给他, 阿生要回了马灯: back with its giver
                back = {_canonical(x.group(), world.items, by_length) for x in any_item.finditer(sentence)}
                gone = {k: v for k, v in gone.items() if k[1] not in back}
            giving_ends: list[int] = []  # where each giving of the sentence ends: a setting down is read after them
            for m in _each_from_its_last_name(gave, names, sentence):
                between = m.group(2)
                whose = m.group("whose")  # 塞进怀里, 按在掌心里: a putting into a hand needs another's hand named (他手里, 老郑怀里: R54)
                if whose is not None and (NOT_ANOTHERS.search(whose) or not (names.search(whose) or HE_ONE_OR_YOU.search(whose))):
                    continue
                if NOT_GIVEN.search(between, max(between.rfind("，"), between.rfind(","), 0)) or names.search(between) or ANOTHER_ONE.search(m.group(4)) \
                        or quoted_at(lines[i], col - 1 + m.start()):
                    continue
                if m.group(1) in called and not _called_here(sentence, m.start(1), lines[i], col - 1 + m.start(1),
                                                             speakers.get(i, ()), pov):
                    continue  # 我程师傅把…递给…: the cards' form after an owner word names someone else's (fh14)
                # 拿出烟盒，他递给老郑…; 掏出烟盒，递给老郑一支: another subject between, or a part of it given (H7)
                if names.search(m.group("gap")) or HE_ONE_OR_YOU.search(m.group("gap")) or NOT_ALL_OF_IT.match(sentence, m.end()):
                    continue
                if _known_not_done(sentence, m.start(), m.end(1), m.start(5)):
                    continue  # 想起那天爹把窑钥匙交给他: a giving remembered is no giving now (H9)
                # 拿起煤油灯旁边的火柴，递给…; 取下煤油灯罩子，递给…: another thing or a part of it named after it is what is
                # handed (R55)
                if OTHER_THING in m.group("gap") or (m.group("how") != "把" and not HELD_OUT_GAP.match(m.group("gap"))):
                    continue
                giver = _antecedent(names, lines, i, col + m.start(), held_world, pov) if m.group(1) in HE \
                    else aliases.get(m.group(1), m.group(1))
                thing = _canonical(m.group(5), world.items, by_length)
                gone = {k: v for k, v in gone.items() if k[1] != thing}  # handed on by whoever had it: back in play
                if giver is not None:
                    gone[(giver, thing)] = (i, col)
                    giving_ends.append(m.end())
            if gone:  # set down again by whoever, after any giving of the sentence: out of the receiver's hands (R54)
                down = {_canonical(m.group(1) or m.group(2), world.items, by_length) for m in set_down.finditer(sentence)
                        if all(m.start() >= end for end in giving_ends)}
                gone = {k: v for k, v in gone.items() if k[1] not in down}
            for m in handed.finditer(sentence):  # its holder hands it over or brings it out: it is in the scene's hands
                giver, thing = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
                thing = _canonical(thing, world.items, by_length)
                if owners.get(thing) == aliases.get(giver, giver):
                    shared.add(thing)
            # 温驿丞点了点头，小蔡解下潜水表: a use is read from the subject of its own clause (H9)
            used = [(m.start(), m.group(1), m.group("thing")) for m in _each_from_its_last_name(use, names, sentence, "lead")]
            starts = {start for start, _w, _i in used}  # looked up, not scanned, at each act of a sentence of thousands
            used += [(m.start(), m.group(1), m.group("thing")) for m in _each_from_its_last_name(described, names, sentence, "lead")
                     if m.start() not in starts and _plain_description(m.group("description"), names)]
            starts |= {start for start, _w, _i in used}
            used += [(m.start(), m.group(1), m.group(3)) for m in acts.finditer(sentence)
                     if USE_MARK.search(DEMONSTRATED_BA.sub("", m.group(2))) and not NOT_USE.search(m.group(2))
                     and not _RELATIVE.search(m.group(2)) and m.start() not in starts]
            # 陈默把古镜放在桌上，捏碎了一颗血煞珠: a clause without a subject has the sentence's
            told = {(w, t) for _s, w, t in used}
            used += [u for u in _subjectless(sentence, names, use, acts, described) if (u[1], u[2]) not in told]
            # 那块旧怀表被陈晓棠攥在手心里, 办公室钥匙挂在林知夏的腰间: the thing first, then who has it
            used += [(m.start(), m.group(2), m.group(1)) for pattern in (passive, worn) for m in pattern.finditer(sentence)]
            said_by = [(m.start(), _speaker_at(speakers.get(i, ()), lines[i], col - 1 + m.start(), m.group(2)[:1] not in ("我", "")),
                        m.group(3)) for m in spoke.finditer(sentence) if not NOT_USE.search(m.group(1))
                       and not (HE_ONE_OR_YOU.search(m.group(1)) or names.search(m.group(1)))
                       and not _spoken_not_done(m, lines[i], col - 1)] if i in speakers else []
            claimed = [(m.start(), _claims_own(m, lines[i], col - 1, voice_starts(i), names,
                                               owners.get(_canonical(m.group("thing"), world.items, by_length)),
                                               {aliases.get(n.group(), n.group()) for n in names.finditer(sentence)},
                                               lambda holder: _holder_near(holder, listed, named_near, i)),
                        m.group("thing")) for m in mine.finditer(sentence)
                       if MINE_POINTED.match(said_sentence, m.start())] if i in speakers else []
            said_by += [c for c in claimed if not any(c[1] == w and c[2] == t for _s, w, t in said_by)]  # 我拿我那只…: once
            out += _kept_findings(world, keeping, sentence, said_sentence, lines, i, col, first_line, speakers, names,
                                  aliases, owners, by_length, given | got | dropped)
            out += _record_findings(world, records, sentence, said_sentence, lines[i], col, first_line + i, owners, by_length,
                                    given | got | dropped)
            spoken = {start for start, who, _t in said_by if who is not None}
            used += [(start, str(who), thing) for start, who, thing in said_by if who is not None]
            # 那把勺子…，握在手里沉甸甸的: held in a hand nobody names, in a paragraph naming nobody — the point of view's
            if pov and not used and not re.search(r"[他她我]", sentence) \
                    and names.search(lines[i][max(0, col - 1 - LOOK_BACK):col - 1] + sentence) is None:
                used += [(m.start(1), pov, m.group(1)) for m in in_hand.finditer(sentence)]
            out_now: set[str] = set()
            spans: _NameSpans | None = None  # where the sentence names someone, read once it is asked (below)
            for start, who, said in used:
                item = _canonical(said, world.items, by_length)
                if start not in spoken and PLACED_BY.match(sentence, start + len(who)):
                    continue  # 坐在索法成对面的空案上，解下…: a name telling a place is not who acts
                if who in called and not _called_here(sentence, start, lines[i], col - 1 + start, speakers.get(i, ()), pov):
                    continue  # “我任叔昨天借走了…” in another's mouth: their own 任叔, not the card's (fh14)
                if _known_not_done(sentence, start, start + len(who), sentence.find(said, start)):
                    continue  # 也明白了爹为什么把窑钥匙交给他: a past act known or remembered, not one of now (H9)
                if _post_of_another(world, sentence, start, who):
                    continue  # 罗镶头把酒葫芦摸出来: another surname before the post one card holds is someone else
                who = aliases.get(who, who)
                if who in HE and quoted_at(lines[i], col - 1 + start):
                    continue  # “他手里提着一盏马灯”: a pronoun in someone's words is not the speaker, and no guess
                if who in HE:
                    said_to = sentence.rfind(who, 0, start)
                    spans = spans or _NameSpans(names, sentence)
                    if spans.within(spans.clause_start(start), start) or (said_to >= 0 and spans.within(0, said_to)):
                        continue  # 晴晴…喊她吃饭，她应了一声，拿起…: the pronoun one a named one acted on is not them; no guess
                # 字是像师父的字…。⏎他把窥筒从腰上解下来 (the point of view's 窥筒): a pronoun after a sentence opening on no
                # name, using the point of view's own thing, may be the point of view — their own use, no guess (H4)
                if who in HE and pov is not None and owners.get(item) == pov and world.gender.get(pov) in (None, "", who) \
                        and next((read.lead for read in _reads_back(names, held_world, lines, i, col - 1 + start,
                                                                    _paragraphs_before(lines, i, 1)) if read.told),
                                 None) in (None, pov):
                    continue
                if who in HE:
                    who = _antecedent(names, lines, i, col + start, held_world, pov) or who
                card = world.cards.get(who)
                at = sentence.find(said, start)
                gave_at = gone.get((who, item))
                if card is not None and gave_at is not None and gave_at < (i, col) and (who, item) not in given \
                        and not (at > 0 and (ANOTHER_ONE.search(sentence, max(0, at - 4), at)
                                             or AGAIN_ONE.search(sentence, max(0, at - 8), at))) and item not in two:
                    del gone[(who, item)]  # said once: the first use after the giving
                    out.append(Finding("连贯", ERROR, f"{who} 在第 {first_line + gave_at[0]} 行已把「{item}」交到别人手里，正文却又写{who}"
                                       f"用它，中间没有拿回{ANSWER_MARK}中间拿回来了就在正文写明（接过、要回…）；用的是另一件就写明"
                                       f"（另一…）；都不是就改写这句", first_line + i, lines[i].find(said, col - 1) + 1 or col,
                                       said_sentence.strip()[:60], Subject("持有", who, item)))
                    continue
                if card is None or (who, item) in given or (who, item) in got or item in shared:
                    continue
                if at > 0 and (LIKE.search(sentence, max(0, at - 2), at)
                               or (LIKE_BEFORE.search(sentence, max(0, at - 9), at) and LIKE_AFTER.match(sentence, at + len(said)))
                               or SHAPED.match(sentence, at + len(said))):
                    continue  # 画着一排和乌木尺背面一样的刻痕, 跟马把头签筒里的一样长, 那个葫芦样的押: a comparison
                if at > 0 and GIVEN_TO.search(said_sentence, start, _past_spaces(sentence, at + len(said))):
                    continue  # 拿出那盏老周借给她的煤油灯: given to the one using it, said between — in their hands (H5)
                held = world.holdings()[who]
                if item in held:
                    out_now.add(item)  # its holder has it out in the scene (把日记本摊在膝盖上): in reach of the others after
                    continue
                owner = owners.get(item)
                if owner is None and at > 0 and PORTION.search(sentence, max(0, at - 16), at):
                    continue  # 提着一包丹房配的续脉散: a portion of a kind no card holds, anyone's to buy
                if quoted_at(lines[i], col - 1 + start) \
                        and _told_as_past(world, aliases, _words_before(lines[i], col - 1 + start), who):
                    continue  # “去年…你爹把码簿交给了我”: in someone's words, a past they tell (H8)
                if owner and owner != who and at > 0 \
                        and _brought_to_holder(held_names, aliases, sentence[at + len(said):], owner,
                                               lambda k: _antecedent(held_names, lines, i, col + at + len(said) + k, held_world,
                                                                     pov, lambda n: n != who),
                                               (frozenset(aliases.get(m.group(), m.group()) for m in held_names.finditer(text)) - {who}
                                                for text in (lines[i][:col - 1 + at], *_paragraphs_before(lines, i, HOLDER_NEAR)))):
                    continue  # 摸出那只口琴，塞到他手里: brought to its holder, no use of it (H8)
                where = f"（它在{owner}的持有里）" if owner and owner != who else ""
                named_at = lines[i].find(said, col - 1) + 1 or col  # the column of the thing, not of its sentence
                out.append(Finding("连贯", ERROR, f"{who} 的持有里没有「{item}」（角色卡·持有：{'、'.join(held) or '无'}）{where}，"
                                   f"正文却写{who}用它", first_line + i, named_at, said_sentence.strip()[:60],
                                   Subject("持有", who, item)))
            shared |= out_now
    names, aliases = book_names, book_aliases
    # 状态: the dead and the gone do not speak
    revived = {c.who for c in changes if c.field == "状态"} | _released(world, lines)
    present = {aliases.get(str(x), str(x)) for x in as_list(meta.get("在场"))}
    seen: set[tuple[str, int]] = set()
    home = {c.value for c in changes if c.who == pov and c.field == "位置" and c.op == "="} \
        or {str(world.cards.get(pov or "", {}).get("位置") or "")} - {""}
    calls = _calls(lines)
    # what a line says of itself, read once a line: a line of thousands of quotes was read whole at each of them. For
    # the 状态 of a voice the frame is the narration's, outside the quotes: “比我当年扎的强。” said by the dead is said
    # now (S2, stop 55); one absent from the 在场 list still reads the whole line (a memory told in a quote is no voice)
    not_now = functools.cache(lambda i: scene_gone(lines[i]) or _remembered_on(lines, i) or None)
    framed = functools.cache(lambda i: scene_gone(_QUOTED_WORDS.sub(" ", lines[i])) or _remembered_on(lines, i) or None)
    remote = functools.cache(lambda i: _remote(lines, i))
    for voice in () if flashback else voices:
        who = voice.speaker
        if who is None or (who, voice.line) in seen:
            continue
        line = lines[voice.line]
        if _not_spoken_now(line, voice.column - 1, voice.words):
            continue  # 是阿爸写的：…, “他说：‘…’”: words written or reported, nobody's voice in the scene
        card = world.cards.get(who, {})
        state = str(card.get("状态") or "")
        if who not in revived and state.startswith(DEAD) and LIFETIME.search(line):
            continue  # 师父在的时候说过：…: words of their lifetime, in the scene or not
        if who not in revived and state.startswith(DEAD + GONE) and KNEW.match(line, voice.column - 1):
            continue  # 大庚怎么知道，…？: what the dead or the missing knew, asked — no voice for any reader below
        if who not in revived and state.startswith(DEAD + GONE) and framed(voice.line) is None:
            seen.add((who, voice.line))
            out.append(Finding("连贯", WARN if getattr(voice, "guessed", False) else ERROR,
                               f"{who} 的状态是「{state}」（角色卡·状态），正文里却在说话或想事",
                               first_line + voice.line, voice.column, line.strip()[:60], Subject("状态", who)))
        elif who not in revived and state.startswith(MUTE) and not getattr(voice, "guessed", False) \
                and (not SIGNED.search(line) or VOICED.search(_QUOTED_WORDS.sub("", line))) and framed(voice.line) is None:
            # a voice given to the mute by turn-taking is someone else's: only one the text names is theirs
            seen.add((who, voice.line))
            out.append(Finding("连贯", ERROR,
                               f"{who} 的状态是「{state}」（角色卡·状态），说不了话，正文里却开口说话",
                               first_line + voice.line, voice.column, line.strip()[:60], Subject("状态", who)))
        elif who not in revived and state.startswith(CONFINED) and not _visited(lines, voice.line, card, calls) \
                and framed(voice.line) is None \
                and not (_kept_here(world, card, home) and not _came_in(world, who, [*_recent(lines, voice.line), line])):
            seen.add((who, voice.line))
            out.append(Finding("连贯", WARN if getattr(voice, "guessed", False) else ERROR,
                               f"{who} 的状态是「{state}」（角色卡·状态），{_kept(state)}「{card.get('位置') or '?'}」，正文里却在场说话",
                               first_line + voice.line, voice.column, line.strip()[:60], Subject("状态", who)))
        elif present and who in world.cards and who not in present and not remote(voice.line) and not calls[voice.line] \
                and not_now(voice.line) is None and not _lives_here(world, who, home):
            seen.add((who, voice.line))
            out.append(Finding("连贯", WARN, f"{who} 不在本章的在场名单（{'、'.join(sorted(present))}）{_elsewhere(world, who, pov)}，"
                               f"正文里却在说话",
                               first_line + voice.line, voice.column, line.strip()[:60]))
    # 状态: the dead and the held do not act in the scene (推门走了进来, 点了点头)
    if names is not None:
        out += _acting(world, lines, first_line, revived, seen, calls, home, now)
        out += _barred(world, lines, first_line, revived)
        out += _forbidden(world, lines, first_line, revived, seen)
    # 位置
    moved = {c.who: {c.value} for c in changes if c.field == "位置" and c.op == "="}
    today = _dated_today(now)
    reached: dict[str, set[str]] = {}
    entered: dict[str, set[str]] = {}  # the places of ``reached`` walked into (进了, 走进): no journey's end
    placed: set[tuple[str, int]] = set()
    if names is not None and world.places:
        places = sorted(world.places | {v for vs in moved.values() for v in vs}, key=len, reverse=True)
        place_re = "|".join(map(re.escape, places))
        go = rf"({names.pattern})[^。！？“”\n]{{0,6}}?(?:{'|'.join(MOVE_VERBS)})({place_re})"
        stay = (rf"({names.pattern}|{'|'.join(HE)})(?:(?:{TODAY_AT})?(?:正|还|仍|便|就|已经|独自|一直)?在|"
                rf"[^。！？“”，,\n]{{0,4}}?(?:{'|'.join(v for v in STAY_VERBS if len(v) > 1)}))({place_re})")
        # whether a sentence names a place at all, asked of every sentence: the same places behind one look at their first
        # characters (:func:`~lw_storyrepo.wordsre.guarded`), not one branch each tried at every character
        any_place = re.compile(place_re if "" in places else guarded(places))
        # 霞飞路的老房子里，姆妈正坐在八仙桌边: a place that opens the sentence sets where the person is
        fronted = (rf"^\s*(?:在)?({place_re})[^。！？“”，,\n]{{0,8}}?[，,]\s*({names.pattern}|{'|'.join(HE)})"
                   rf"(?:正|还|仍|便|就|已经|独自|一直)?[坐站躺跪蹲靠倚守等住]")
        # built on this draft's names: compiled at its first sentence naming a place, if any
        placing = functools.cache(lambda: (re.compile(go), re.compile(stay), re.compile(fronted)))
        voices_on = functools.cache(lambda: _by_line(voices))  # who speaks on each line, read once a quoted pronoun
        for i, col, sentence in sentences:
            if not any_place.search(sentence) and not _SHORT.search(sentence):
                continue
            go_re, stay_re, fronted_re = placing()
            for m in go_re.finditer(sentence):
                if VOCATIVE_YOU.search(sentence[m.end(1):m.start(2)]):
                    continue  # 东子，你到了上海…: the name is called, the journey is the listener's, to come
                reached.setdefault(aliases.get(m.group(1), m.group(1)), set()).add(m.group(2))
                if WALKED_IN.search(m.group(), m.end(1) - m.start()):  # 推门进了灯室: walking in, no return from afar
                    entered.setdefault(aliases.get(m.group(1), m.group(1)), set()).add(m.group(2))
            if NOT_NOW.search(sentence):
                continue
            found = [(m.start(), m.group(1), m.group(2)) for m in stay_re.finditer(sentence)]
            found += [(m.start(2), m.group(2), m.group(1)) for m in fronted_re.finditer(sentence)]
            found += _short_place(names, sentence, lines[max(0, i - 2):i + 1], places)
            other_days = _another_days_at(sentence, today) if found else []
            for start, who, place in found:
                if any(on < start < end for on, end in other_days):  # 五月初五晚上，马把头在南市请我听戏: that day, not now
                    continue
                who = aliases.get(who, who)
                if who in HE:
                    # “他在清水江上，比在这里太平。”他说: a pronoun in someone's words is not its speaker, who says 我 —
                    # the one it stands for is another the words or the lines before name (P3, stop 56: 连续性-盲评三十八
                    # 好-6; “Linda！”晴晴压低了声音，“她今儿一早就在A座…”: no one else named, a placing today keeps the
                    # guess — 连续性-盲评十三's caught 位置-3 rests on it). One narrated in a sentence with the speaker
                    # (老孟和小顺子蹲在阿桂旁边。“他在汉口…”老孟说) is right there, not the one placed away (R56)
                    speaker = _speaker_at(voices_on().get(i, ()), lines[i], col - 1 + start, True)
                    other = None if speaker is None else \
                        _antecedent(names, lines, i, col + start, world, pov, lambda n: n != speaker)
                    if other is not None and _said_together(names, aliases, lines[max(0, i - 1):i + 1], {speaker, other}):
                        continue
                    if speaker is not None and other is None \
                            and not TODAY_SAID.search(sentence, start, max(start, sentence.find(place, start))):
                        continue
                    who = other or _antecedent(names, lines, i, col + start, world, pov) or who
                card = world.cards.get(who)
                state = str(card.get("状态") or "") if card is not None else ""
                if card is None or not card.get("位置") or who == pov or state.startswith(LOST) or state.startswith(DEAD):
                    continue  # the narration follows its point of view: where it is is the scene itself; the missing have
                    # no certain place; the dead are the 状态 check's (_acting)
                tail = re.split(r"[，,。；;！？]", sentence[sentence.find(place, start) + len(place):])[0]
                if ARRIVE.search(tail):  # 裴照微在济春堂门口下了马: his own clause tells the arrival
                    reached.setdefault(who, set()).add(place)
                    continue
                # the places a card says someone keeps to, unless it puts them far from there now (回了苏州娘家)
                kept_to = world.haunts.get(who, set()) if str(card["位置"]) not in world.far else set()
                allowed = {str(card["位置"])} | moved.get(who, set()) | reached.get(who, set()) | kept_to
                if any(place == a or place in a or a in place or a in world.inside.get(place, ())
                       or place in world.inside.get(a, ()) for a in allowed):
                    continue
                if state.startswith(CONFINED) and who not in revived and not _visited(lines, i, card):
                    out.append(Finding("连贯", ERROR, f"{who} 的状态是「{state}」（角色卡·状态），{_kept(state)}「{card['位置']}」（角色卡·位置），"
                                       f"正文却在「{place}」", first_line + i, col, sentence.strip()[:60], Subject("状态", who)))
                    continue
                placed.add((who, i))
                # where this draft's own 设定变更 put them, when it did (U11: the card's place named though the draft moved him)
                where = f"「{'、'.join(sorted(moved[who]))}」（设定变更·位置）" if moved.get(who) else f"「{card['位置']}」（角色卡·位置）"
                out.append(Finding("连贯", WARN, f"{who} 在{where}，本章没有写他到「{place}」去",
                                   first_line + i, col, sentence.strip()[:60], Subject("位置", who, place)))
    if names is not None:
        here = next(iter(moved.get(pov or "", ())), None) or str(world.cards.get(pov or "", {}).get("位置") or "")
        out += _too_soon(world, sentences, first_line, here)
    if names is not None:
        out += _two_at_once(world, lines, first_line)
    if names is not None and pov:
        pov_place = next(iter(moved.get(pov, ())), None) or (sorted(reached[pov])[-1] if reached.get(pov) else None) \
            or str(world.cards.get(pov, {}).get("位置") or "") or None
        if pov_place:  # the dead and the missing reported here today (状态), read as the far are (RP1, stop 61)
            out += _reported_held(world, lines, first_line, revived, seen, pov_place, now, pov)
            out += _present_far(world, lines, first_line, pov, pov_place, moved, reached, placed, calls, entered,
                                _dated_today(now))
    if names is not None and now and ("月" in text or "“" in text or "「" in text or any(w in text for w in TODAY_DOCUMENT)):
        # a document dated today, by its date or a word (今朝高柜：…): who it says acted (D1, stop 59; P3, stop 60)
        at_place = (next(iter(moved.get(pov, ())), None) or (sorted(reached[pov])[-1] if reached.get(pov) else None)
                    or str(world.cards.get(pov, {}).get("位置") or "") or None) if pov else None
        far, kept = _away_from(world, pov, at_place, moved, reached, today) if pov and at_place else ({}, {})
        out += _document_actors(world, names, lines, first_line, now, pov, far, kept, at_place, revived, present)
    return out


DUTY = ("校对", "观测", "记录", "值班", "值日", "值夜", "值守", "经手", "签发", "签收", "主持", "审核", "复核", "审批", "核准",
        "制表", "填表", "清点", "点验", "验收", "监督", "监收", "发报", "收报", "放映", "执笔", "出席", "列席", "带班", "领班",
        "押运", "押车", "监工", "司秤", "过秤", "看色")
"""The duties a document's field names (校对：…, 值班员：…, 主持人：…, 出席：…): the one written there did it where and when
the document was made (D1, stop 59). Only acts of the document's making — never one it is sent to, hands over to or
tells of (收件人, 致, 抄送)."""
DUTY_HOLDER = "人|员|者|官"
"""What may follow a duty word before the colon (记录人, 值班员)."""
TODAY_DOCUMENT = ("今朝", "今日", "今天", "今儿", "今晚", "今夜")
"""Words that date a document the day it is read on without a date (今朝高柜：…, 今日值班：…, 今天的值班表：“…”): a piece
opening on one, or framed by one before a kind of document (:data:`TODAY_FRAME`), records today (P3, stop 60). Not
当天/当日 (that same day — any day told: 去年出事那天…当天的派工单) nor 本日 (a document's word for its own day, not the
chapter's): P3-10, stop 60."""
TODAY_PAPERS = ("水牌", "牌子", "值班表", "排班表", "班表", "考勤表", "派工单", "领料单", "发料单", "工单", "单子", "名单",
                "花名册", "点名册", "账本", "账簿", "日志", "记录", "通知", "告示", "布告", "安排", "派工", "分工", "黑板")
"""The kinds of document, whole words, a word of today frames (:data:`TODAY_FRAME`): never a character of another word
(表情, 单独, 简单: P3-4, stop 60)."""
TODAY_FRAME = re.compile(rf"(?:{'|'.join(TODAY_DOCUMENT)})的?[\u4e00-\u9fff]{{0,3}}?的?(?:{alternation(TODAY_PAPERS)})"
                         r"(?=[上里写贴挂是：:]|[，,](?:上|里|写)|$)")
"""The words before a quoted piece that make it today's document (把今朝的水牌写好挂在柜房门口：“…”, 今天的派工单上写着：“…”):
the word of today, at most 的 and a short qualifier, a kind of document (:data:`TODAY_PAPERS`) and right after it where
or how it is written (上, 里, 写, 贴, 挂, 是, a colon; or a comma and 上面/里头/写着) — P3-4, stop 60."""
TODAY_FORM = re.compile(rf"\s*(?:{'|'.join(TODAY_DOCUMENT)})[^\s，,。；;：:“”「」\d]{{1,6}}?[：:]")
"""A form line a word of today dates (今朝高柜：蒋朝奉, 今日值班：…): the word, a label and its colon right after — never a
paragraph or a speech that merely begins with the word (今天收到一张汇款单，汇款人：…; “今天本该老刘值班。”: P3-3, stop 60)."""
ROLE_LABEL_NOT = re.compile(r"收件|收信|寄件|寄信|发件|发信|写信|来信|致|抄送|转交|呈|日期|时间|日子|地点|地址|住址|籍贯|单位|"
                            r"事由|原因|理由|备注|附|另|注|请假|告假|休假|病假|事假|探亲|缺|外出|出差|不在|在外|离|调往|调走|调出|死|亡|故|殁|"
                            r"失踪|家属|亲属|联系|证明|担保|介绍|推荐|保人|落款|署名|姓名|名字|户主|称呼|"
                            r"汇|款|未到|未来|没到|缺席|表彰|表扬|先进|光荣|奖|委托|代理|受托|申请|借|欠|订户|户名|"
                            r"原任|前任|^原|^旧|调离|离任|(?:说|讲|道|问|写|念|喊|叫|"
                            r"答|骂|想|记|云|曰)(?:着|了|道|的)?$|^(?:父亲?|母亲?|兄长?|哥哥|姐姐?|弟弟?|妹妹?|妻子?|丈夫|儿子|女儿|配偶)$")
"""What makes a document's label no post of its making (P3, stop 60): whom it is sent or handed to and who wrote
from elsewhere (收件人, 寄信人, 致, 抄送), its date, place, reason or notes (日期, 地点, 事由, 备注), someone absent or
gone (请假人, 缺勤, 出差, 外出, 调出, 死者, 失踪人), a relation or a surety (家属, 证明人, 担保人, 父亲), a name's own field
(姓名) or a clause of saying (队长说：…); money sent or paid (汇款人, 收款人), absence (未到, 缺席), honour (表彰,
先进生产者), a proxy, a loan or an account (委托人, 借用人, 户名) and a former holder (原任, 前任, 调离): P3-2, stop 60.
Any other short label is a post someone holds where and when the document is
made — :data:`ROLE_LABEL`."""
ROLE_LABEL = r"(?P<label>[^\s，,。；;：:“”「」\d]{1,6}?)[：:]\s*"
"""A document's open label before its names (发料人：, 高柜：, 写票：, 当班：, 领工：): any label but :data:`ROLE_LABEL_NOT`'s, its
names all the field holds (葛福林; 蒋朝奉、钱朝奉) up to the field's end (P3, stop 60: D1's duty table made an open class)."""
LETTER_FRAME = re.compile(r"信|电报|来电|寄来|捎来|带来的条")
"""Words before a quoted piece that make it a letter or a wire from elsewhere (拆开哥的信：“…”): its labels are no posts of
here."""
POST_BAR = re.compile(r"不能|不许|不准|不可(?![少缺])|无法|没法|(?<![巴恨舍怪顾由免少离忘错大了])不得(?!不)|"
                      r"(?<=[\u4e00-\u9fff])(?<![巴恨舍怪顾由免少离忘错大了])不了")
"""Words of a card barring its holder an act (不能接电话, 上不了观测场, 不能缫丝、索绪、写字): a post whose act the words right
after the bar name (a list after the bar word included, up to :data:`BAR_END`) is one they cannot hold (RL1, stop 61:
:func:`_barred_post`). Not the fixed words of wish or need (巴不得, 恨不得, 舍不得, 少不了, 离不了, 免不了, 不得不, 不可少:
frl1, stop 61, R61's RL1-5)."""
BAR_END = re.compile(r"只|就|但|可以|可是|却|还能|还可|还得|也能|也可|倒能|改|而")
"""What ends the act a bar word bars (不能下井只能在井口值班: 下井 barred, 值班 allowed — frl1, stop 61, R61's RL1-5)."""
POST_HOLDER = re.compile(rf"(?:{DUTY_HOLDER})$")
"""What ends a post's label after its act (接电话人, 记录员): dropped to read the act itself."""
NO_POST_STATES = ABED + CONFINED
"""States that keep someone from every post of a workplace (卧床, 重伤, 在押, 住院, 闭关): whatever a document of the day
names them to do, they did not do it (RL1, stop 61)."""
LAID_UP_LABEL = re.compile(r"伤|病|患|号|犯|押|囚|探视|探监|就医|看病|诊|休|歇|养|疗|假|住院|卧床|在家")
"""A label that names someone *as* laid up, held or off (伤员, 病号饭, 休息, 轮休, 在家养伤, 在押人员, 探视对象): a list of
:data:`NO_POST_STATES`' own kind, no post they cannot hold (frl1, stop 61, R61's RL1-3)."""
GLUED_ROLE = r"(?P<label>[\u4e00-\u9fff]{1,4}?)"
"""A role word glued to a name at a record's clause start (司炉周长根, 夜班张三, 值班 李四): a trade, a post or a shift, any
word of one to four characters but :data:`GLUED_NOT`'s (RL1, stop 61)."""
GLUED_NOT = re.compile(rf"[{NOT_SUBJECT}了着过到见起是在有说讲问喊想看瞅瞧望等]$|^[{NOT_SUBJECT}想念悼怀葬埋顶代找寻探访]|"
                       rf"{alternation(MOURNING_WORDS)}")
"""What makes the word before a name no role but a verb or a preposition acting on the name (交给周某, 轮到周某, 看见周某,
跟周某, 顶替周某, 悼念周某) or a rite for the dead (祭奠周某, 周年): the name is no one's post there."""
SHIFTS = ("夜班", "早班", "中班", "白班", "晚班", "大夜", "小夜", "前半夜", "后半夜", "夜里", "上午", "下午", "早上", "晚上",
          "夜", "早", "晚")
"""The shifts a record's day may be followed by (初六夜班, 十二日早班): what makes a bare day a record's head."""
BARE_DAY = re.compile(r"\s*(?P<day>(?:初[一二三四五六七八九十]|廿[一二三四五六七八九]?|卅)[日号]?|"
                      r"(?:[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九]|[12]?\d|3[01])[日号])"
                      rf"(?=[，,、\s]|(?:{alternation(SHIFTS)}))")
"""A record's head that is a day without its month (初六夜班，…; 十二日，…): a day of the in-book month, read no later than
the in-book day (RL1, stop 61) — never a number before a noun (三号汽铲)."""
SIGNED_AFTER = ("经手", "亲书", "亲笔书", "签发", "签收", "验收", "监收", "当值", "值班", "值夜", "带班", "押运")
"""A name's own act written after it at a document's foot (…，邓某经手。; 某某亲书于…): done where and when it was made.
A letter's or a petition's close (拜上, 顿首, 手书, 具) is not one: a letter is written far away by its nature."""
DOCUMENT_DATE = re.compile(r"(?:[\u4e00-\u9fff]{2}(?=(?:[\d〇零一二三四五六七八九十]{1,5}|元)年))?(?:(?:[\d〇零一二三四五六七八九十]{1,5}|元)年)?"
                           r"(?:正|冬|腊|十[一二]|1[0-2]|[1-9一二三四五六七八九十])月"
                           r"(?:初[一二三四五六七八九十]|廿[一二三四五六七八九]?|卅|三十一?|二十[一二三四五六七八九]?|"
                           r"十[一二三四五六七八九]?|[一二三四五六七八九]|[12]\d|3[01]|[1-9])(?![\d〇零一二三四五六七八九十])[日号]?")
"""A day a document is dated (九月五日十四时，…; 民国二十一年八月初十; 1957年9月5日), with its era and year when written."""
OTHER_YEAR = re.compile(r"去年|前年|明年|后年|那年|当年|往年|[上下]一?年")
"""Words just before a document's date that put it in another year (去年九月五日)."""
OLD_BOOK = re.compile(rf"{OTHER_YEAR.pattern}|(?<![依仍照守念怀叙])旧|发黄|泛黄|箱底|从前|早年|抄件|抄本|底稿|存档|档案|老账|老皇历|老黄历")
"""Words before a quoted record that make it an old book or a copy (翻开去年的值班簿, 发黄的旧值班簿, 旧账, 一份抄件): its bare
day (:data:`BARE_DAY`) is no day of the in-book month (frl1, stop 61, R61's RL1-1)."""
DOCUMENT_EXCERPT = 50
"""How far before a document's act its finding's excerpt may start (from its date, else from the act's own clause)."""
DEATH_RECORD = re.compile(rf"{DIED_WORDS.pattern}|{alternation(MOURNING_WORDS)}|殉职|殉难|牺牲|罹难|烈士|追认|追悼|安葬|收殓|亡|遗|恤")
"""Words in a record's sentence naming the dead that make it a record *of* the death (抚恤：某, 遇难：某, 烈士某, 工友某，殉职):
the dead are named for their death, on no post (frl1, stop 61, R61's RL1-2)."""
NOT_AN_ACT = "的之、和与及同跟给被让叫向对"
"""Characters after a name at an entry's clause start that make it no subject acting (沈某的布, 沈某、冯某…)."""
NOT_DONE_HERE = re.compile(r"来信|来电|来话|捎信|捎话|捎来|托人|请假|请了假|告假|休假|探亲|回|去|走了|走的|没了|不在|去世|过世|死|病故|"
                           r"周年|忌日|祭日|生日|寿|该|要|会|得|在|说|想|的")
"""Words in an entry's clause after its name that tell an act done elsewhere, to come, or a day of the dead (R59 on D1:
刘德海来信…, 刘德海请假回…, 赵老栓周年, 赵老栓走了整一年, 刘德海该到…了, 刘德海经手的那批货): no act done there that day."""
WRITING_FRAME_WORDS = ("写", "记", "抄", "誊", "填", "刻", "添", "签", "账", "簿", "册", "本子", "日志", "日记", "单", "表", "条",
                       "纸", "笔", "牌", "榜", "告示", "通知", "布告", "信", "留言", "落款", "署名", "字", "一行")
"""Words of writing and of written pieces before a quote (在日记本上写, 翻开值班日志, 递过来一张条子, 贴出一张通知, 拿钢笔添了一行,
字条): the one table of "a written piece" frames (m1, stop 61: T9/D1's frames and H13's :data:`WRITTEN_FRAME` made one)."""
HANDLING_FRAME_WORDS = ("念", "读", "翻", "看", "瞅", "瞧", "贴", "递", "接过", "拆开", "展开", "打开", "上面", "上头")
"""Words of reading, looking at or handing something before a quote (念一遍, 看了看, 接过): a written piece's frame only
beside one (:data:`DOCUMENT_FRAME`); alone they frame speech as well (看了看他，说：)."""
NOT_A_DOCUMENT_BEFORE_SPEECH = ("字", "笔", "纸", "添")
"""Words of :data:`WRITING_FRAME_WORDS` that :data:`DOCUMENT_FRAME` and :data:`PIECE_FRAME` leave out: H13's words of a
note, as often a manner of speaking before a dated quote (一字一句地说, 把笔往桌上一拍, 点上一支纸烟, 又添了一句) — a
spoken date read as a document's (fm1, stop 61, R61's m1-6)."""
_DOCUMENT_WORDS = tuple(w for w in WRITING_FRAME_WORDS if w not in NOT_A_DOCUMENT_BEFORE_SPEECH)
DOCUMENT_FRAME = re.compile(alternation(_DOCUMENT_WORDS + HANDLING_FRAME_WORDS))
"""Words before a quote that frame it as a written piece (念一遍, 在日记本上写, 翻开值班日志, 递过来一张条子, 贴出一张通知):
a quote after words of speaking alone (说, 问, 算) is speech, its clauses no entries nor a foot (R59 on D1)."""
NOT_WRITTEN_BEFORE_SPEECH = ("表", "单", "牌", "榜", "刻", "账", "填", "通知")
"""Words of :data:`WRITING_FRAME_WORDS` that :data:`WRITTEN_FRAME` leaves out: before a quote they are as often of
speech (手表, 表情, 简单, 床单, 打牌, 立刻, 算账, 通知大家) — T9/D1's pieces, read beside a date or with a word of handling,
not where a bare name closing the words would be signed by it (fm1, stop 61, R61's m1-5)."""
WRITTEN_FRAME = re.compile(alternation(w for w in WRITING_FRAME_WORDS if w not in NOT_WRITTEN_BEFORE_SPEECH))
"""Words of the narration before a quote that set it out as written (…头一行写着：“…”, 拿钢笔添了一行：“…”, 字条): only
then do words closing on a bare name stand signed by it (:func:`_writer_of`; fh13, stop 60, R60's H13-4: 谁来问过？苏禾。
said aloud is an answer)."""
PIECE_FRAME = re.compile(alternation(_DOCUMENT_WORDS + ("印", "票", "据", "存根", "帖", "契")))
"""Words of the sentence bringing a quote in that name a writing or a written piece (存根上写着：; 念了一遍票根：; 收据上印着：):
the frame :data:`DATE_FOOT` is read in — a word of looking or handing alone (看了看他，说：) frames speech too (R60 on T9)."""
SPOKEN_INTRO = re.compile(r"说(?!明)|讲|问|答|告诉|吩咐|交代|嘱咐|叮嘱|嚷|喊|(?<![写念读批注记签题])道")
"""Words of saying in the last clause before a quote (看了看柯满，说：; 对他道：): the quote is speech, its last date no
piece's foot — 写道, 念道 are a piece written or read (R60 on T9)."""
DUE_WORDS = re.compile(r"到期|期票|票期|归还|交货|开船|开车|启程|起程|动身|截止|为期|为限|限期|定于|订于|届时|以前|之前|"
                       r"前交|前还|前付|候光|恭候|敬候|光临")
"""Words in a piece ending on its date alone that make the date a day due or set, not the day it was made (到期照付; 十日内
归还; 谨订于…候光; 在这之前装箱): a note falling due, an invitation, a deadline are dated ahead by their nature (R60 on T9)."""
DUE_PIECES = re.compile(r"期票|支票|汇票|船票|车票|机票|戏票|门票|入场券|通行证|路条|请帖|请柬|喜帖")
"""Pieces, named before a quote or in it, dated the day they are used, fall due or are to be paid back (a ticket's
sailing day, a post-dated cheque, an invitation's feast): no foot of theirs is the day they were
made (R60 on T9)."""
FIELD_LINE = re.compile(rf"\s*(?:[^\s，,。；;：:“”]{{1,8}}[：:]|(?:{alternation(DUTY)}))")
"""A form's field line: a short label and its colon (地点：工棚。), or a duty opening it (值班孙某): a run of lines without
a blank line between is a form only when its lines are such (R59 on D1: most drafts break paragraphs by one newline)."""
SIGNATURE_CLOSE = re.compile(r"^(?:儿|女儿|弟|兄|姐|妹|侄|孙|妻|夫|父|母|娘|爹|爸|妈|愚|晚|学生|小|老)|"
                             r"(?:叩|拜|敬|谨|启|上|具|书|字|笔|留|草|泣|白|示|谕|令|告|代|立|记|制|签|经手)$|"
                             r"(?:场部|办公室|委员会|指挥部|革委会|公社|大队|小队|生产队|厂|局|社|站|所|处|科|部|队|会)$")
"""A foot's signature that looks like one: a kin word or a humble word opening it (儿铁生, 弟生子, 娘), a letter's closing
word ending it (拜上, 敬上, 手书), or an issuing body (场部): not a verb clause (发工资, 通车; R59 on D1)."""
RECEIVED = re.compile(r"拆开|拆了|递过来|递来|递给|送来|寄来|捎来|收到|接过|看")
"""Words before a quoted piece of its being received or looked at, not written (邮递员送来一封信，铁生拆开看：): its foot
is the day it was written elsewhere (R59 on D1)."""
LUNAR_DAY = re.compile(r"初[一二三四五六七八九十]|[廿卅]|(?:正|冬|腊)月")
"""A day written the lunar way (九月初十, 腊月廿三): in a Gregorian book a foot so dated is the old calendar's (R59 on D1)."""


def _form_or_lines(pieces: list[tuple[int, int, str]], quoted: bool) -> list[tuple[list[tuple[int, int, str]], bool]]:
    """A run of unquoted lines kept as one document when it is a form — every line after its head a field line
    (:data:`FIELD_LINE`) —, else each line its own (R59 on D1: narration broken by single newlines is no form)."""
    if quoted or len(pieces) < 2 or all(FIELD_LINE.match(text) for _i, _c, text in pieces[1:]):
        return [(pieces, quoted)]
    return [([piece], False) for piece in pieces]


def _before_quote(lines: list[str], i: int, start: int) -> str:
    """The words before a quote opening at column ``start`` of line ``i``: its own line's (up to
    :data:`MADE_BEFORE_SPAN`), else the end of the paragraph before."""
    before = lines[i][max(0, start - MADE_BEFORE_SPAN):start]
    if not before.strip():
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")[-MADE_BEFORE_SPAN:]
    return before


def _document_actors(world: World, names: re.Pattern[str], lines: list[str], first_line: int, now: str,
                     pov: str | None, far: dict[str, str], kept: dict[str, str], pov_place: str | None,
                     revived: set[str], present: set[str]) -> list[Finding]:
    """位置 and 状态 a document dated the chapter's own day contradicts (D1, stop 59). A document is someone's quoted words
    or a form: a run of field lines with no blank between (:func:`_form_or_lines`); what it records after a date that is the in-book day (:data:`DOCUMENT_DATE`,
    its year, when written, the in-book year) and before any other date is done on that day where it is made: a duty
    field (:data:`DUTY` + ：, a name after it), a name with its own act after it at a foot (:data:`SIGNED_AFTER`, the
    piece's or the sentence's end, 于 or a date after it), and, in a quoted document opening on its date framed as a
    written one (:data:`DOCUMENT_FRAME` before it, or more dates in it: a ledger's or a log's entry), a name opening a
    clause with an act after it done there (none of :data:`NOT_DONE_HERE`). Such a
    person dead by their card (and brought back by no change) is an 状态 error; one far away by their card (``far``,
    :func:`_away_from`; not in the scene's 在场 list) a 位置 warning. An old record, a letter, a date to come or gone is
    another day's: read only on the in-book day itself."""
    today = _dated_today(now)
    if today is None:
        return []
    era, year, month, day = today

    @functools.cache
    def is_today(text: str) -> bool:
        read = book_time(text if "月" in text else f"{month}月{text}")  # a bare day: the in-book month's (R61's RL1-6)
        if read is None or read[1][1:] != (month, day):
            return False
        told_era, (told_year, _m, _d) = read
        return told_year is None or (told_year == year and (not told_era or not era or told_era == era))

    def after_death(who: str, told: str) -> bool:
        """Whether a record's date ``told`` (a bare day read in the in-book month) falls after ``who``'s death as their
        card dates it (:func:`dates_of_death`) and no later than the in-book day (RL1, stop 61)."""
        read = book_time(told if "月" in told else f"{month}月{told}")
        if read is None or who not in world.died or read[1][1] is None or read[1][2] is None:
            return False
        told_era, (told_year, on_month, on_day) = read
        if (told_year is not None and told_year != year) or (told_era and era and told_era != era) \
                or (on_month, on_day) > (month, day):
            return False
        d_era, d_year, d_month = world.died[who]
        if (d_era and era and d_era != era) or year is None:
            return False
        return d_year < year or (d_year == year and (d_month, world.died_day.get(who, 31)) < (on_month, on_day))

    name_re = names.pattern
    duty = re.compile(rf"(?P<label>(?:{alternation(DUTY)})(?:{DUTY_HOLDER})?)[：:]\s*(?P<list>[^；;。！？!?\n“”「」]{{1,40}})")
    signed = re.compile(rf"(?P<who>{name_re})(?P<label>{alternation(SIGNED_AFTER)})(?=\s*(?:$|[。.；;！!]|于|[，,]\s*{_DATE}))")
    glued = re.compile(rf"(?:^|(?<=[：:，,；;。]))\s*{GLUED_ROLE}\s?(?P<who>{name_re})(?=\s*(?:$|[，,；;。、]))")
    entry = re.compile(rf"(?:^|(?<=[：:，,；;。]))\s*(?P<who>{name_re})(?![{NOT_AN_ACT}])(?=[\u4e00-\u9fff])")
    role = re.compile(rf"(?:^|(?<=[\s，,；;。：:]))(?:{'|'.join(TODAY_DOCUMENT)})?{ROLE_LABEL}"
                      rf"(?P<list>(?:{name_re})(?:\s*[、和及与/／]\s*(?:{name_re}))*)(?=\s*(?:$|[；;。.，,（(]))")
    units: list[tuple[list[tuple[int, int, str]], bool]] = []  # (line, column, text) pieces of one document; quoted
    undated: set[tuple[int, int]] = set()  # the first pieces of the documents a word dates today (今朝高柜：…)
    from_afar: set[tuple[int, int]] = set()  # the quoted pieces a letter or a wire brings (no post of here)
    block: list[tuple[int, int, str]] = []
    for i, line in enumerate(lines):
        if not line.strip():
            if block:
                units.append((block, False))
            block = []
            continue
        if "月" not in line and not block and not _QUOTED_WORDS.search(line) and not TODAY_FORM.match(line):
            continue
        for q in _QUOTED_WORDS.finditer(line):
            before = _before_quote(lines, i, q.start())
            if "月" in q.group() or BARE_DAY.match(q.group()[1:]):
                units.append(([(i, q.start() + 1, q.group()[1:])], True))
            elif TODAY_FORM.match(q.group()[1:]) or TODAY_FRAME.search(before):
                undated.add((i, q.start() + 1))
                units.append(([(i, q.start() + 1, q.group()[1:])], True))
            if LETTER_FRAME.search(before):
                from_afar.add((i, q.start() + 1))
        if not block and TODAY_FORM.match(line):
            undated.add((i, 0))
        block.append((i, 0, _QUOTED_WORDS.sub(lambda q: " " * len(q.group()), line)))
    if block:
        units.append((block, False))
    units = [split for unit in units for split in _form_or_lines(*unit)]
    out: list[Finding] = []
    told: set[tuple[str, bool]] = set()  # (who, dead): a person's 状态 or 位置 finding made
    for pieces, quoted in units:
        dated: tuple[int, int, str] | None = None  # the last date read so far: (piece, column, date)
        if pieces[0][:2] in undated:  # dated today by a word: a date read at its start
            dated = (0, 0, next(w for w in TODAY_DOCUMENT if w in (pieces[0][2] + _before_quote(lines, pieces[0][0], max(0, pieces[0][1] - 1)))))
        bare = BARE_DAY.match(pieces[0][2]) if quoted and not DOCUMENT_DATE.match(pieces[0][2].lstrip()) \
            and not OLD_BOOK.search(_before_quote(lines, pieces[0][0], max(0, pieces[0][1] - 1))) else None
        opens_dated = quoted and (DOCUMENT_DATE.match(pieces[0][2].lstrip()) is not None or bare is not None) and (
            DOCUMENT_FRAME.search(_before_quote(lines, pieces[0][0], pieces[0][1] - 1)) is not None
            or len(list(DOCUMENT_DATE.finditer(pieces[0][2]))) > 1)
        for k, (i, col, text) in enumerate(pieces):
            dates = [(m.start(), m.group()) for m in DOCUMENT_DATE.finditer(text)
                     if not OTHER_YEAR.search(text, max(0, m.start() - 3), m.start())]
            if k == 0 and bare is not None:
                dates.insert(0, (bare.start("day"), bare.group("day")))
            if not dates and dated is None:
                continue
            # (where, who, the post's label: "" for an act that names no post)
            acts = [(m.start("list") + n.start(), n.group(), m.group("label"))
                    for m in duty.finditer(text) for n in names.finditer(m.group("list"))]
            if (pieces[0][0], pieces[0][1]) not in from_afar:  # an open label of a post (发料人：葛福林), not a letter's
                acts += [(m.start("list") + n.start(), n.group(), m.group("label")) for m in role.finditer(text)
                         if not ROLE_LABEL_NOT.search(m.group("label")) and not names.fullmatch(m.group("label"))
                         for n in names.finditer(m.group("list"))]
            if quoted or len(pieces) > 1:  # a form laid out line by line, or quoted: not a sentence of narration
                acts += [(m.start(), m.group("who"), m.group("label")) for m in signed.finditer(text)]
            if opens_dated:
                acts += [(m.start("who"), m.group("who"), "") for m in entry.finditer(text)
                         if not NOT_DONE_HERE.search(re.split(r"[，,。；;！？!?]", text[m.end("who"):], maxsplit=1)[0])]
                # a role glued to a name in a record (初六夜班，司炉周长根，…): RL1, stop 61
                acts += [(m.start("who"), m.group("who"), m.group("label")) for m in glued.finditer(text)
                         if not GLUED_NOT.search(m.group("label")) and not ROLE_LABEL_NOT.search(m.group("label"))
                         and not names.search(m.group("label"))]
            starts = [s for s, _d in dates]
            for at, said, label in sorted(acts):
                on = bisect.bisect_left(starts, at)  # the last date before the act, looked up (not scanned at each act)
                date = (k, *dates[on - 1]) if on else dated
                if date is None:
                    continue
                who = world.aliases.get(said, said)
                card = world.cards.get(who)
                if card is None or who == pov:
                    continue
                state = str(card.get("状态") or "")
                dead = state.startswith(DEAD) and who not in revived
                if not (date[2] in TODAY_DOCUMENT or is_today(date[2])
                        or (dead and label and after_death(who, date[2]))):  # a post of a day since the death
                    continue
                if dead:  # the sentence naming them, from its date at most: a record of the death names no post
                    head = max([date[1] if date[0] == k else 0] + [text.rfind(c, 0, at) + 1 for c in "。；;！!？?"])
                    foot = min([starts[on] if on < len(starts) else len(text)]
                               + [e for c in "。；;！!？?" if (e := text.find(c, at)) >= 0])
                    if DEATH_RECORD.search(text, head, foot):
                        continue
                barred = "" if dead or not label or who in revived else _barred_post(world, who, state, label)
                if (who, dead or bool(barred)) in told \
                        or not (dead or barred or (pov and pov_place and who in far and who not in present)):
                    continue
                told.add((who, dead or bool(barred)))  # one finding a person and field: the excerpt is read for it alone
                start = date[1] if date[0] == k else 0
                if at + len(said) - start > DOCUMENT_EXCERPT:
                    start = max(text.rfind(c, max(0, at - DOCUMENT_EXCERPT), at) for c in "，,。；;：:") + 1
                excerpt = text[start:].strip()[:60]
                if dead:
                    day_of = "本章当天" if date[2] in TODAY_DOCUMENT or is_today(date[2]) else f"{who}死后"
                    did = f"当「{label}」" if label else f"在做事（「{said}」）"
                    out.append(Finding("连贯", ERROR, f"{who} 的状态是「{state}」（角色卡·状态），{day_of}（{date[2]}）的文书却记着"
                                       f"{who}{did}；是旧账、抄件或别的日子就在正文写明", first_line + i,
                                       col + at + 1, excerpt, Subject("状态", who)))
                elif barred:
                    out.append(Finding("连贯", ERROR, f"{who} 的状态是「{state}」（角色卡·状态：{barred}），本章当天（{date[2]}）的文书"
                                       f"却记着{who}当「{label}」；是旧账、抄件或别的日子就在正文写明", first_line + i,
                                       col + at + 1, excerpt, Subject("状态", who)))
                else:
                    out.append(Finding("连贯", WARN, f"{_away(who, far, kept, pov or '', pov_place or '')}，本章当天（{date[2]}）的文书"
                                       f"却记着{who}在这里做事（「{said}」），本章没有写{who}来到这里", first_line + i,
                                       col + at + 1, excerpt, Subject("位置", who, pov_place or "")))
            if dates:
                dated = (k, *dates[-1])
    return out


def _barred_post(world: World, who: str, state: str, label: str) -> str:
    """What keeps ``who`` from the post ``label`` a document of the day names them to (RL1, stop 61), as the finding
    says it: a state that keeps them from every post (:data:`NO_POST_STATES`: 卧床, 在押, 住院) unless the label names
    them as such (:data:`LAID_UP_LABEL`: 伤员, 休息), or a clause of their card barring the post's act (:data:`POST_BAR`:
    不能接电话 against 接电话人; 上不了观测场 against 观测; 接不了电话 against 接电话) — the label's act, its holder's word
    (:data:`POST_HOLDER`) and a word of today dropped, of two characters or more, in the words the bar bars (after the bar
    word up to :data:`BAR_END`, the verb before a 不了/不得 with them). ``""`` when nothing does."""
    if state.startswith(NO_POST_STATES):
        return "" if LAID_UP_LABEL.search(label) else state
    act = POST_HOLDER.sub("", re.sub(rf"^(?:{'|'.join(TODAY_DOCUMENT)})", "", label))
    if len(act) < 2:
        return ""
    for clause in re.split(r"[，,。；;：:\n]", world.texts.get(who, "")):
        for bar in POST_BAR.finditer(clause):
            rest = clause[bar.end():]
            barred = rest[:end.start()] if (end := BAR_END.search(rest)) else rest
            # V不了O bars VO (接不了电话: 接电话)
            verb = clause[bar.start() - 1] if bar.group().startswith(("不了", "不得")) and bar.start() else ""
            if act in verb + barred:
                return (clause[bar.start() - len(verb):bar.end()] + barred).strip()
    return ""


_DATE = DOCUMENT_DATE.pattern
_SIGNATURE = r"[^\W\d〇零一二三四五六七八九十廿卅月日号年至到起止_]{1,6}"
DOCUMENT_FOOT = re.compile(rf"[，,。；;！？!?\s](?P<foot>(?P<date>{_DATE})[，,\s]*{_SIGNATURE}|{_SIGNATURE}[，,\s]*"
                           rf"(?P<date2>{_DATE}))[。.]?\s*$")
"""A written piece's foot: its date beside a signature of a few characters, ending it (…兴许能在天津见着你。道光二十三年四月初十，
弟生子。; …儿家栋叩上，十二月二日。): the day it was written."""
DATE_FOOT = re.compile(rf"[，,。；;]\s*(?P<date>(?=[^，,。；;\s]{{0,4}}?(?:[\d〇零一二三四五六七八九十]{{1,5}}|元)年){_DATE})[。.]?\s*$")
"""A written piece's foot that is its full date alone, year and all, as its last clause (…当钱二百文，乾隆元年三月十六日。;
…井深一千米，1978年10月12日。): the day it was made, whoever made it (T9, stop 60; a foot with a signature is
:data:`DOCUMENT_FOOT`'s)."""
ISSUED = re.compile(rf"^\s*(?P<date>{_DATE})[^，,。：:“”\n]{{0,2}}[，,]?\s*[\u4e00-\u9fff]{{0,6}}?(?:谕|示|告|启|令|札|批|通知|布告|告示)[：:]")
"""A notice's head: its date, then who issues it and the word of issuing before a colon (五月十一日，东家谕：…): the day it
was issued."""
DOCUMENT_HEAD_SPAN = 6
"""The fewest characters a quoted piece holds after its head date for the date to head a piece (“九月初一。” alone is an
answer, not a document)."""
NOT_A_WRITING = re.compile(r"写字台|写字楼|写字间")
"""Furniture and places named after writing (把流水簿搁在写字台上): no writing done."""
DONE_WRITING = re.compile(r"(?:[他她]|[\u4e00-\u9fff]{2,3}(?=[写刻落署搁放停收]))?"
                          r"(?:写完|写好|写罢|刻完|刻好|刻罢|落了款|落好款|署了名|搁下笔|放下笔|停了笔|收了笔)")
"""Words opening the sentence after a signed piece — after its writer at most — that tell it was just written (写完，他从头看
了一遍; 铁生写完…). 落款 alone is a noun, the signature looked at (R59 on D1)."""
MADE_BEFORE_SPAN = 80
"""The characters before a quoted piece (its own paragraph's, else the paragraph before's end) read for its being written now."""


def _document_days(now: str, lines: list[str], first_line: int, known: Iterable[str] = ()) -> list[Finding]:
    """书内时间 a quoted document's own date contradicts (D1, stop 59): a piece written in the scene signed
    (:data:`DOCUMENT_FOOT`) with another day of the in-book year — written now by a word of writing now
    (:data:`WRITTEN_NOW`, no old one, :data:`NOT_WRITTEN_NOW`, nor a writing already there) in the words before it, or by
    the paragraph after it opening on its being done (:data:`DONE_WRITING`) —; and any notice in hand issued
    (:data:`ISSUED`) or signed on a day after the in-book day. A foot is read only in a quote framed as a written piece
    (:data:`DOCUMENT_FRAME` before it, or :data:`DONE_WRITING` after it), its signature looking like one (:func:`_signs`),
    and not dated the lunar way in a Gregorian book (:data:`LUNAR_DAY`); a piece received or looked at
    (:data:`RECEIVED`) is not written now (R59 on D1). A piece ending on its full date alone (:data:`DATE_FOOT`) in a
    quote framed as a written piece is read for a day after the in-book day only (T9, stop 60: a ticket's stub written
    today dated three days on). A date heading a piece written now may be the day a
    statement tells of or an invitation's to come (a log's entry is :func:`_entry_dated`'s), a date in its body is the
    day it tells of; a piece read, copied or found is an old one."""
    today = _dated_today(now)
    if today is None:
        return []
    era, year, month, day = today
    known = frozenset(known)
    lunar_book = _lunar(now)
    out: list[Finding] = []
    for i, line in enumerate(lines):
        if "月" not in line:
            continue
        for q in _QUOTED_WORDS.finditer(line):
            body = q.group()[1:].rstrip("”」")
            head = DOCUMENT_DATE.match(body)
            foot = DOCUMENT_FOOT.search(body)
            before = NOT_A_WRITING.sub(" ", _before_quote(lines, i, q.start()))
            after = line[q.end():].strip() or next((lines[j] for j in range(i + 1, len(lines)) if lines[j].strip()), "")
            after = re.split(r"[。！？!?]", after, maxsplit=1)[0]
            done = DONE_WRITING.match(after) is not None
            if foot is not None and (foot.start("foot") <= DOCUMENT_HEAD_SPAN or not (DOCUMENT_FRAME.search(before) or done)
                                     or not _signs(foot, known)
                                     or (not lunar_book and LUNAR_DAY.search(foot.group("date") or foot.group("date2")))):
                foot = None
            issued = ISSUED.match(body)
            own = [(m.start(), m.group()) for m in (head,) if m is not None and len(body) - m.end() >= DOCUMENT_HEAD_SPAN]
            if foot is not None:
                own.append((foot.start("foot"), foot.group("date") or foot.group("date2")))
            # a foot that is a date alone: read only for a day still to come (who made it, and when, is unsaid)
            alone = _dated_alone(body, before) if foot is None else None
            if alone is not None and (alone.start("date") <= DOCUMENT_HEAD_SPAN
                                      or (not lunar_book and LUNAR_DAY.search(alone.group("date")))):
                alone = None
            if alone is not None:
                own.append((alone.start("date"), alone.group("date")))
            for at, date in own:
                read = book_time(date)
                if read is None or None in read[1][1:] or OTHER_YEAR.search(body, max(0, at - 3), at) \
                        or (read[1][0] is not None and (read[1][0] != year or (read[0] and era and read[0] != era))):
                    continue
                said = (read[1][1], read[1][2])
                if said == (month, day):
                    continue
                # a foot is the day of the writing; a head written now may be the day a statement or a letter home tells
                # of, or an invitation's day to come (R54): only the log's entry reading (_entry_dated) reads a head
                dated_alone = alone is not None and at == alone.start("date")
                written = at > 0 and not dated_alone and not NOT_WRITTEN_NOW.search(before) and not (
                    RECEIVED.search(before) and not _writes_now(before)) and (
                    done
                    or (_writes_now(before) and not TOLD_BEFORE.search(before) and not NOT_WRITTEN_NOW.search(after)))
                later = said > (month, day) and (issued is not None and at == 0 or (foot is not None or dated_alone) and at > 0)
                if not (written or later):
                    continue
                # a date alone at the foot is shown with the clause it closes (…当钱二百文，乾隆元年三月十六日。)
                shown = max(0, *(body.rfind(c, 0, alone.start()) + 1 for c in "，,。；;：:")) if dated_alone and alone \
                    else max(0, at - 4 if at else 0)
                # a date alone says nothing of who dated the piece, nor why: a warning (R60 on T9)
                out.append(Finding("连贯", WARN if dated_alone else ERROR,
                                   f"这份文书{'本章当天写下' if written else '已在手上'}，落的日子却是「{date}」，"
                                   f"可本章的书内时间是「{now}」；补写旧事、抄件或别的日子的文书就在正文写明",
                                   first_line + i, q.start() + at + 2, body[shown:].strip()[:60]))
                break
    return out


def _dated_alone(body: str, before: str) -> re.Match[str] | None:
    """The full date alone ending a quoted piece (:data:`DATE_FOOT`) when it may be the day the piece was made: the
    sentence bringing the quote in (the end of ``before``) names a writing or a written piece (:data:`PIECE_FRAME`), its
    last clause no word of saying (:data:`SPOKEN_INTRO`: a date closing speech is a day said), and neither that sentence
    nor the piece names a day due or set (:data:`DUE_WORDS`) or a piece dated the day it is used (:data:`DUE_PIECES`:
    a note falling due, a ticket, an invitation). R60 on T9."""
    sentence = before[max(before.rfind(c) for c in "。！？!?\n") + 1:]
    clause = sentence[max(sentence.rfind(c) for c in "，,；;") + 1:]
    if not PIECE_FRAME.search(sentence) or SPOKEN_INTRO.search(clause) or DUE_PIECES.search(sentence) \
            or DUE_WORDS.search(body) or DUE_PIECES.search(body):
        return None
    return DATE_FOOT.search(body)


def _signs(foot: re.Match[str], known: frozenset[str]) -> bool:
    """Whether a foot's words beside its date look like a signature (:data:`SIGNATURE_CLOSE`, or a name of the book's
    cards, its given name, 铁生 of 王铁生, or ending one), not a verb clause of speech (十月十五，发工资)."""
    date = foot.group("date") or foot.group("date2")
    words = foot.group("foot").replace(date, "", 1).strip(" ，,。.\t")
    return any(words.endswith(name) or len(words) >= 2 and name.endswith(words) for name in known if len(name) >= 2) \
        or SIGNATURE_CLOSE.search(words) is not None


_SHORT = re.compile(r"(?:端坐|高坐|坐在|站在|立在|坐于|坐|站|立)([\u4e00-\u9fff])(?:上|中|内|里|前)")


_PLAIN = frozenset("的了着是在一上下里中个把只这那有他她它们送给当从不就都也又很和与每为被让叫说人今去来到过得地之其所以而两几位")
"""Characters that make a two-character run no word of a thing's looks (了一, 是一, 给他)."""
_SENTENCE_OR_SEMI = re.compile(r"[^。！？!?；;\n]+")
"""A sentence or a semicolon's half, commas kept inside (checks.py's ``_CLAUSE`` splits on commas too)."""


def _words(text: str) -> set[str]:
    """The two-character runs of ``text`` that can tell a thing's looks (:data:`_PLAIN` characters left out)."""
    return {text[k:k + 2] for k in range(len(text) - 1)
            if "\u4e00" <= text[k] <= "\u9fff" and "\u4e00" <= text[k + 1] <= "\u9fff" and not (set(text[k:k + 2]) & _PLAIN)}


def told_of(texts: dict[str, str], characters: dict[str, dict[str, Any]]) -> dict[str, frozenset[str]]:
    """``{held thing: {words}}``: the two-character words of its holder's card sentences naming it, the name's own
    among them (月牙是他的弯刀，刀柄缠着红绳 → 弯刀, 刀柄, 红绳, 月牙 …), or naming it in its two parts, what it
    belongs to and then its kind (有一只铁皮药柜，钥匙是一把… for 药柜钥匙); a word two things' sentences share is left out."""
    out: dict[str, set[str]] = {}
    for name, text in texts.items():
        for thing in map(str, as_list((characters.get(name) or {}).get("持有"))):
            for clause in _SENTENCE_OR_SEMI.findall(text):
                if thing in clause or (thing[-2:] in clause and _in_parts(thing, clause)):
                    out.setdefault(thing, set()).update(_words(clause))
    shared = {w for a, b in itertools.combinations(out.values(), 2) for w in a & b}
    return {thing: frozenset(words - shared) for thing, words in out.items()}


def _in_parts(thing: str, clause: str) -> bool:
    """Whether a clause names a thing in two parts of at least two characters each, in their order, apart
    (保险柜 … 钥匙 for 保险柜钥匙)."""
    for k in range(2, len(thing) - 1):
        head = clause.find(thing[:k])
        if head >= 0 and clause.find(thing[k:], head + k + 1) >= 0:
            return True
    return False


_TOLD_SPAN = 24


def _told(world: World, names: re.Pattern[str]) -> Callable[[str], str]:
    """A function putting a held thing's name in place of a thing the prose tells by its owner (陆队那把弯刀, Kevin
    那只贴着白胶布的U盘: one of the owner's things, its kind said or told on their card) or by the looks its holder's
    card gives it (一把乌木骨的折扇 when the card says 乌木扇骨 … 折扇: two words of one thing's card, apart — not
    one word like 文件夹 —, more than of any other). The name is padded to the phrase's length, so what follows stays in place."""
    if not world.items:
        return lambda sentence: sentence
    owned = re.compile(rf"({names.pattern})的?(?=[那这]一?[{ITEM_KIND}])")
    counted = re.compile(rf"[那这一]一?[{ITEM_KIND}]")
    held = world.holdings()

    def owner_thing(who: str, rest: str) -> tuple[str, int] | None:
        tail = rest.rsplit("的", 1)[-1] if "的" in rest else rest
        base = len(rest) - len(tail)
        for size in range(len(tail), 0, -1):
            noun = tail[:size]
            core = noun[:-1] if size >= 2 and noun[-1] in "子儿" else ""  # 梭子 of 象牙梭, 匣子 of 檀木匣
            # no material rule here: its owner named, the thing is theirs (钱大副那只黄铜的单筒望远镜)
            fits = [t for t in held.get(who, []) if (size >= 2 and t.endswith(noun)) or t == noun or (core and t.endswith(core))
                    or (size >= 2 and noun in world.told.get(t, ()))]
            if len(fits) == 1:
                return fits[0], base + size
        return None

    def looks_thing(rest: str) -> tuple[str, int] | None:
        words = _words(rest)
        if len(words) < 2:
            return None
        scored = sorted(((len(words & told), t) for t, told in world.told.items()), reverse=True)
        if not scored or scored[0][0] < 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        told = world.told[scored[0][1]]
        at = [k for k in range(len(rest) - 1) if rest[k:k + 2] in told]
        if at[-1] - at[0] < 2:
            return None  # 文件 and 件夹 are one word (文件夹), not two things said of it
        end = at[-1] + 2
        return scored[0][1], end + (1 if rest[end:end + 1] == "子" else 0)

    def put(sentence: str) -> str:
        out = sentence
        for m in counted.finditer(sentence):
            rest = re.split(r"[。！？!?，,；;：:\n]", sentence[m.end():m.end() + _TOLD_SPAN])[0]
            if not rest:
                continue
            own = next((o for o in owned.finditer(sentence, max(0, m.start() - 12), m.end()) if o.end() == m.start()), None)
            who = world.aliases.get(own.group(1), own.group(1)) if own else None
            found = owner_thing(who, rest) if who else looks_thing(rest)
            if found is None and who is None and m.start() == len(sentence) - len(sentence.lstrip()) \
                    and names.search(sentence) is None:
                # 那把勺子是铁的，勺柄上刻着…: the thing the sentence's topic, its looks told clause after clause
                found = looks_thing(re.split(r"[。！？!?；;\n]", sentence[m.end():m.end() + 2 * _TOLD_SPAN])[0])
            if found is None:
                continue
            thing, size = found
            start = m.start()
            span = m.end() + size - start
            if own is not None:
                start, span = own.end(), m.end() + size - own.end()
                if span >= 1 + len(thing):  # 陆队那把弯刀 → 陆队的月牙: whose it is, then the thing
                    out = out[:start] + "的" + thing + "\u3000" * (span - 1 - len(thing)) + out[start + span:]
            elif span >= len(thing):
                out = out[:start] + thing + "\u3000" * (span - len(thing)) + out[start + span:]
        return out

    return put


def _demoted(text: str, value: str) -> bool:
    """Whether the prose tells a demotion (降职, 撤职, 贬为 …; 头牌降二路, 降成了二路: a 降 right before the new rank)."""
    return DOWN_WORDS.search(text) is not None or re.search(rf"[降贬撤](?:成|为|到|回)?了?{re.escape(value)}", text) is not None


TAIL_MAX = 12
"""The longest end of a held thing's name, and the longest brand, read as a shorter name of it
(:func:`_item_forms`): 那台 and a dozen characters is already the whole name; a name of thousands of
characters costs what a name of a dozen does."""


_BEHIND = rf"(?<=[那这][{ITEM_KIND}])"


def _item_forms(items: Iterable[str], text: str | None = None) -> list[str]:
    """The patterns a held thing goes by: its name; its brand (上海牌 for 上海牌手表); the end of its
    name after 那/这 and a measure word (那台高温计 for 光学高温计), unless another thing's name ends
    the same way (钥匙 of 药柜钥匙 and 办公室钥匙) — ends and brands of at most :data:`TAIL_MAX`
    characters. With ``text`` (the sentences the patterns will read, :func:`_described` applied), only
    the forms it holds — the pattern of a card holding thousands of things is the few a draft names.
    Linear in the names: whose end or brand is shared is counted once."""
    names = [str(x) for x in items]
    distinct = set(names)
    ends = Counter(m[k:] for m in distinct for k in range(max(0, len(m) - TAIL_MAX), len(m)))
    brands = Counter(m[:j + 1] for m in distinct for j, c in enumerate(m[:TAIL_MAX]) if c == "牌")
    # the forms the text holds, found in one reading of it (:func:`occurring`), not each thing's searched for in the
    # text: a card of 4,000 things beside a draft naming hundreds of them was things × the draft (A16, stop 56)
    held = None if text is None else occurring(
        [*names, *(n[:n.find("牌", 0, TAIL_MAX) + 1] for n in names),
         *(n[k:] for n in names for k in range(max(1, len(n) - TAIL_MAX), len(n) - 1))], text)

    def fits(form: str) -> bool:
        return held is None or form in held

    out = [re.escape(n) for n in names if n and fits(n)]
    for n in names:
        brand = n.find("牌", 0, TAIL_MAX)
        if 2 <= brand < len(n) - 1 and brands[n[:brand + 1]] == 1 and fits(n[:brand + 1]):
            out.append(re.escape(n[:brand + 1]))
        for k in range(max(1, len(n) - TAIL_MAX), len(n) - 1):
            tail = n[k:]
            if len(tail) >= 2 and ends[tail] == 1 and tail not in distinct and tail not in EVERYDAY and fits(tail):
                out.append(_BEHIND + re.escape(tail))
    return list(dict.fromkeys(out))


def _items_pattern(forms: list[str]) -> str:
    """The forms of :func:`_item_forms` as one alternation, longest first; a run of ends read after
    那/这 and a measure word shares one look-behind (the same matches: a look-behind of its own per end
    cost thousands of character sets to compile and thousands of look-behinds tried at every place).
    The forms of one length (all of them match the same span) as a tree behind a look at their first characters
    (:func:`~lw_storyrepo.wordsre.guarded`), not one branch each: a draft naming a card's 4,000 things tried them all
    at each place every pattern of :func:`check_continuity` reached (A16, stop 56); forms with an escape (their
    length not their text's) stay one branch each, in their order."""
    out: list[str] = []
    ordered = sorted(forms, key=lambda f: -len(f.split(")")[-1]))
    for _size, group in itertools.groupby(ordered, key=lambda f: len(f.split(")")[-1])):
        same = list(group)
        if any("\\" in (f[len(_BEHIND):] if f.startswith(_BEHIND) else f) for f in same):
            out.extend(_one_each(same))
            continue
        plain = [f for f in same if not f.startswith(_BEHIND)]
        ends = [f[len(_BEHIND):] for f in same if f.startswith(_BEHIND)]
        out.extend([guarded(plain)] if plain else [])
        out.extend([f"{_BEHIND}(?:{guarded(ends)})"] if ends else [])
    return "|".join(out)


def _one_each(forms: list[str]) -> list[str]:
    """``forms`` in their order, each a branch, a run of ends sharing one look-behind."""
    out: list[str] = []
    run: list[str] = []
    for form in forms:
        if form.startswith(_BEHIND):
            run.append(form[len(_BEHIND):])
            continue
        if run:
            out.append(f"{_BEHIND}(?:{'|'.join(run)})")
            run = []
        out.append(form)
    if run:
        out.append(f"{_BEHIND}(?:{'|'.join(run)})")
    return out


def _described(world: World) -> Callable[[str], str]:
    """A function putting a held thing's name in place of a thing told by its looks (那件石青缎子、金线盘蟒
    的袍子 for 金丝蟒袍): after 那/这 and a measure word, a description ending in 的 and the end of one
    thing's name (袍, 蟒袍; 子 may follow) that no other thing's name ends with, when the description shares
    a character with the rest of that name (金, 蟒) and no other material or colour (:func:`_another_thing`) — 那件洗旧的
    袍子 is anyone's. The name is padded to the phrase's length, so places in the sentence stay."""
    names = sorted({str(x) for x in world.items if len(str(x)) >= 2})
    another = _another_thing(world)
    heads: dict[str, list[str]] = {}
    for n in names:
        for k in (1, 2):
            if k < len(n):
                heads.setdefault(n[-k:], []).append(n)
    if not heads:
        return lambda sentence: sentence
    phrase = re.compile(rf"[那这]一?[{ITEM_KIND}]([^。！？“”\n的]{{2,30}})的([长短大小宝古旧老]?)"
                        rf"({'|'.join(sorted(map(re.escape, heads), key=len, reverse=True))})子?")

    def put(m: re.Match[str]) -> str:
        # the one thing of that kind whose name shares a character with the looks told (赤红 → 赤霄剑, not 秋水剑)
        told = set(m.group(1)) - _PLAIN_LOOKS
        fits = [n for n in heads[m.group(3)] if set(n[:-len(m.group(3))]) & told and not another(m.group(1), n)]
        if len(fits) != 1:
            return m.group()
        name = fits[0]
        return name + "\u3000" * max(0, len(m.group()) - len(name))

    return lambda sentence: phrase.sub(put, sentence) if "的" in sentence else sentence


_IDENTITY_SPAN = 24
"""The longest description read between a measure word and a thing's kind (:func:`_identified`)."""
_NOUN_SUFFIX = "子儿"
"""Suffixes that make a kind a noun without telling a different kind (帽 → 帽子, 壶 → 壶儿)."""
MARK_CLASSES = ("金银铜铁锡钢铝木竹玉石瓷陶皮布绸缎绒纸骨牙角", "红黄蓝绿青白黑紫灰褐棕")
"""Marks one thing has one of, as rows: a material, a colour. A description saying another of a row than the thing's
(铜壳 for a 银壳怀表) tells another thing."""
THREAD = re.compile(r"[金银铜][线丝]")
"""Gold or silver thread (金线盘蟒, 银丝滚边): an embroidery or a trim, no material of the thing's body (a 石青缎子、金线盘蟒
的袍子 is a 金丝蟒袍) — read out of a description and of a thing before their rows are compared."""
WORN = re.compile(r"^[发磨褪泛生变起掉][\u4e00-\u9fff]$|[旧破脏亮锈]")
"""Words of wear and age (发黄, 磨旧, 生锈): what happens to any thing, no mark of one."""


class _Identity(NamedTuple):
    """A held thing as its kind's reader sees it: its name, the card's words of it that mark it (:data:`WORN` left out),
    and the letters of its name before its kind's compound (皮 of 狐皮暖帽, not 暖)."""
    thing: str
    words: frozenset[str]
    letters: frozenset[str]
    rows: tuple[frozenset[str], ...]
    """The thing's material and colour, one set per row of :data:`MARK_CLASSES` (:func:`_thing_rows`)."""


def _another_thing(world: World) -> Callable[[str, str], bool]:
    """The one rule every 持有 reader asks before it puts a held thing's name in place of a description
    (:func:`_described`, :func:`_identified`; a thing said with its owner is theirs): ``(description, thing)`` is true when the description says
    a material or colour of a row of :data:`MARK_CLASSES` other than the thing's — 铜壳 of a 银壳怀表, 银 of a
    累丝金凤簪: another thing. The thing's rows are read from its name and its card's words (:attr:`World.told`,
    :data:`WORN` left out), once per book; a thread (:data:`THREAD`) is no material of either."""
    def another(told: str, thing: str) -> bool:
        letters = set(THREAD.sub("", told))
        return any(mine and (letters & every) - mine for mine, every in zip(_thing_rows(world, thing), _CLASSES))

    return another


_CLASSES = tuple(frozenset(row) for row in MARK_CLASSES)


def _thing_rows(world: World, thing: str) -> tuple[frozenset[str], ...]:
    """A held thing's material and colour, one set per row of :data:`MARK_CLASSES`, read once per book from its name
    alone (件金 of 那件金丝蟒袍 is no letter of it) and its card's words of it (:data:`WORN` and threads left out)."""
    rows: dict[str, tuple[frozenset[str], ...]] = world.per_book("mark rows", (), dict)
    own = rows.get(thing)
    if own is None:
        name = thing.rstrip(_NOUN_SUFFIX) if len(thing) > 1 else thing
        said = set(THREAD.sub("", name[:-1])).union(
            *(set(THREAD.sub("", w)) - set(thing) for w in world.told.get(thing, frozenset()) if not WORN.search(w)))
        own = rows[thing] = tuple(row & said for row in _CLASSES)
    return own


def _identities(world: World) -> tuple[dict[str, list[_Identity]], re.Pattern[str]] | None:
    """Each held thing as an identity, read once per book: ``({kind: [identity]}, phrase)`` — its kind the last
    character of its name (a Chinese compound's head noun: 军用水壶 → 壶, 狐皮暖帽 → 帽, 怀表 → 表), its marks the words
    its holder's card tells it by (:attr:`World.told`: 墨竹, 红线) and the letters of its name before the compound of its
    kind (狐, 皮 of 狐皮暖帽; 钥 of 仓库钥匙 is the kind's own 钥匙); ``phrase`` finds a thing told by a measure word, a
    description and a kind (那顶毛茸茸的皮帽子). ``None`` when no card holds a thing."""
    return world.per_book("identities", (), lambda: _read_identities(world))


def _read_identities(world: World) -> tuple[dict[str, list[_Identity]], re.Pattern[str]] | None:
    """:func:`_identities` read."""
    kinds: dict[str, list[_Identity]] = {}
    for thing in sorted(world.items):
        name = thing.rstrip(_NOUN_SUFFIX) if len(thing) > 1 else thing
        if not name or not "\u4e00" <= name[-1] <= "\u9fff":
            continue
        words = frozenset(w for w in world.told.get(thing, frozenset()) if not WORN.search(w))
        letters = frozenset(name[:-2]) - _PLAIN_LOOKS - _PLAIN
        kinds.setdefault(name[-1], []).append(_Identity(thing, words, letters, _thing_rows(world, thing)))
    out = None
    if kinds:
        phrase = re.compile(rf"[那这一]一?[{ITEM_KIND}]([^。！？!?，,；;：:\n]{{1,{_IDENTITY_SPAN}}}?)"
                            rf"([{''.join(sorted(kinds))}])[{_NOUN_SUFFIX}]?")
        out = (kinds, phrase)
    return out


class _Marked:
    """The things of one kind by their marks, as bit sets over the kind's things (bit ``i`` is ``ones[i]``): under each
    word of a card and each letter of a name the things holding it, and under each material or colour of a row the
    things of that row told by it and the things told by any of the row. :meth:`best` is :func:`_identified`'s choice
    with a few set operations per mark a description says, whatever the number of things (a card of thousands of 甲…表
    told by thousands of 那块甲表 was their product, each description scored against each thing)."""

    def __init__(self, ones: list[_Identity]) -> None:
        self.things = [one.thing for one in ones]
        self.words: dict[str, int] = {}
        self.letters: dict[str, int] = {}
        self.in_row: list[dict[str, int]] = [{} for _ in MARK_CLASSES]
        self.has_row = [0] * len(MARK_CLASSES)
        for i, one in enumerate(ones):
            bit = 1 << i
            for word in one.words:
                self.words[word] = self.words.get(word, 0) | bit
            for letter in one.letters:
                self.letters[letter] = self.letters.get(letter, 0) | bit
            for r, row in enumerate(one.rows):
                if row:
                    self.has_row[r] |= bit
                for mark in row:
                    self.in_row[r][mark] = self.in_row[r].get(mark, 0) | bit
        self.cache: dict[str, str | None] = {}

    def best(self, told: str) -> str | None:
        """The one thing the description ``told`` marks most — a word of its card (two-character runs,
        :func:`_words`) or a letter of its name, each once —, unless it says a material or colour of a row other than
        the thing's (:data:`MARK_CLASSES`); ``None`` for no mark or a tie at the top."""
        if told in self.cache:
            return self.cache[told]
        chars = set(told)
        other = 0  # the things told another material or colour than theirs (铜壳 of a 银壳怀表): they score nothing
        letters = set(THREAD.sub("", told))  # a thread is no material (:func:`_another_thing`)
        for r, every in enumerate(_CLASSES):
            for mark in letters & every:
                other |= self.has_row[r] & ~self.in_row[r].get(mark, 0)
        masks = [mask for mask in (*(self.words.get(w, 0) for w in _words(told)),
                                   *(self.letters.get(c, 0) for c in chars)) if mask & ~other]
        at_least: list[int] = []  # at_least[j]: the things holding j + 1 of the marks said, or more
        for mask in masks:
            mask &= ~other
            at_least.append(0)
            for j in range(len(at_least) - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & mask
            at_least[0] |= mask
        top = next((bits for bits in reversed(at_least) if bits), 0)
        one = self.things[top.bit_length() - 1] if top and top & (top - 1) == 0 else None
        if len(self.cache) < _MARKED_CACHE:
            self.cache[told] = one
        return one


_MARKED_CACHE = 4096
"""The descriptions :class:`_Marked` remembers per kind and book (a description is at most :data:`_IDENTITY_SPAN`
characters)."""


def _marked(world: World, kinds: dict[str, list[_Identity]]) -> dict[str, _Marked]:
    """``{kind: its things by their marks}``, read once per book (:class:`_Marked`)."""
    return world.per_book("marked", (), lambda: {kind: _Marked(ones) for kind, ones in kinds.items()})


def _identified(world: World) -> Callable[[str], str]:
    """A function putting a held thing's name in place of a thing told by its kind and marks (那把画着墨竹的旧伞 for the
    card's 油纸伞 told 墨竹; 那顶毛茸茸的皮帽子 for 狐皮暖帽): the description before the kind holds at least one mark of
    exactly one thing of that kind — a word of its card or a letter of its name —, more marks than any other thing of
    the kind has there, and no material or colour other than the thing's (:data:`MARK_CLASSES`). A tie says nothing;
    a description with no mark (那只旧水壶, 一只发黄的梭子: :data:`WORN`) is anyone's. The measure word stays, the name
    is padded to the phrase's length, so places in the sentence stay."""
    read = _identities(world)
    if read is None:
        return lambda sentence: sentence
    kinds, phrase = read
    marked = _marked(world, kinds)

    def put(m: re.Match[str]) -> str:
        told = m.group(1)
        # 画了一块和玄阶令牌一样的纹样: a description crossing a comparison word is another thing likened to it; the
        # comparison stays for the reader of uses (:data:`LIKE`)
        one = None if LIKENED.search(told) else marked[m.group(2)].best(told)
        if one is None:
            return m.group()
        name, head = one, m.group()[:m.start(1) - m.start()]
        return head + name + "\u3000" * max(0, len(m.group()) - len(head) - len(name))

    return lambda sentence: phrase.sub(put, sentence)


PORTION = re.compile(r"[一两二三四五六七八九十几半数]+[包瓶颗粒副盒袋罐碗壶片张捆剂帖贴支管箱][^，,。！？；;“”]{0,6}?"
                     r"(?:配|买|领|抓|讨|要|借|换|开|拿|熬|煎|称|打)(?:来|回|好|了)?的$")
"""A count of a kind and where it was got (一包丹房配的续脉散, 两瓶药房开的消炎药) before a thing no card
holds: some of it, bought or handed out, not the one thing (捏碎了一颗九转丹 is still a use)."""
_PLAIN_LOOKS = frozenset("的了着是在一上下里中大小长短")
"""Characters of a description that tell nothing of which thing it is."""
EVERYDAY = frozenset(("手机", "电话", "钥匙", "钱包", "眼镜", "雨伞", "打火机", "香烟", "杯子", "水杯", "茶杯", "背包", "书包",
                      "手帕", "毛巾", "耳机", "充电器", "笔记本", "本子", "钢笔", "铅笔", "饭盒"))
"""Things nearly everyone has one of: 那部手机 is whoever's phone is at hand, not the one known 碎屏手机
(a thing by its kind only when the kind is rare: 那台高温计)."""


def _canonical(said: str, items: Iterable[str], by_length: list[str] | None = None) -> str:
    """The held thing a form found in the prose stands for (上海牌 → 上海牌手表); ``by_length`` is
    ``items`` sorted by length, when the caller asks for many."""
    if said in items:
        return said
    ordered = sorted(items, key=len) if by_length is None else by_length
    return next((n for n in ordered if n.startswith(said) or n.endswith(said)), said)


def _short_place(names: re.Pattern[str], sentence: str, near: list[str], places: list[str]) -> list[tuple[int, str, str]]:
    """Someone placed by a place's last character (韦少卿端坐堂上 after 被叫进了正堂): the known place
    ending with it that this paragraph or the two before name — ``(position, person, place)``."""
    out = []
    for m in re.finditer(rf"({names.pattern})[^。！？“”，,\n]{{0,2}}?" + _SHORT.pattern, sentence):
        head = m.group(m.lastindex or 0)
        place = next((p for p in places if p.endswith(head) and len(p) >= 2 and any(p in t for t in near)), None)
        if place is not None:
            out.append((m.start(), m.group(1), place))
    return out


FORMERLY = re.compile(r"年轻时|年轻的时候|早年|以前|从前|过去|原先|原本|曾经|那时|废之前|受伤前|出事前|没废")
"""A sentence about someone before their state (老韩年轻时一剑能劈开山石): what they could do then."""
UNABLE_SPAN = 80
"""How far after someone's name the rest of their sentence is read for what they cannot do (its clauses)."""
_UNABLE_STATES = tuple(state for states, _does, _says in UNABLE for state in states)

SCENE_SPAN = 10
"""How many paragraphs a visit to a held one's place (到瑞金医院, 来到县牢) still holds the scene there."""
VISIT_SPAN = 30
"""Paragraphs a visit told before (探视, the held one's place named) goes on for, until the point of view leaves:
a talk through the glass runs longer than a scene's :data:`SCENE_SPAN`."""
LEAVE = re.compile(r"离开|回到|回了|走出|出了|告辞|打车回|赶回")
"""The point of view leaving a place: a visit told before it is over."""


def _released(world: World, lines: list[str]) -> set[str]:
    """The secluded or quarantined (:data:`SECLUDED`) whose release (:data:`RELEASED`) a paragraph naming
    them tells (师尊出关了): free to be anywhere after it."""
    kept = [n for n, c in world.cards.items() if str(c.get("状态") or "").startswith(SECLUDED)]
    if not kept:
        return set()
    forms = {n: [a for a in world.names_of(n) if len(a) >= 2] + [n] for n in kept}
    return {n for line in lines if RELEASED.search(line) for n in kept if any(f in line for f in forms[n])}


def _kept(state: str) -> str:
    """How a held state keeps someone in their card's 位置: 住在 a ward, 关在 a cell."""
    return "住在" if state.startswith(INPATIENT) else "闭关在" if state.startswith(SECLUSION) else \
        "隔离在" if state.startswith(QUARANTINE) else "禁足在" if state.startswith(HOUSE_ARREST) else "关在"


def _visited(lines: list[str], i: int, card: dict[str, Any], calls: list[bool] | None = None, voice: bool = True) -> bool:
    """Whether line ``i`` is where a held character is (their card's 位置 or a visit, 探视, 隔着玻璃,
    named in its paragraph or the few before, or a visit there told in the :data:`SCENE_SPAN` before and
    not left), or they are on a call going on (``calls``), or — for a ``voice`` — a call or a letter
    is named near it (a body is placed by a call going on, not by someone else's call nearby)."""
    before = _recent(lines, i)
    where = str(card.get("位置") or "")
    remote = _remote(lines, i) if voice else MEDIUM.search(lines[i]) is not None  # a body: a call going on, not one near
    if bool(calls and calls[i]) or remote \
            or any(VISIT.search(line) or (where and where in line) for line in [*before, lines[i]]):
        return True
    scene = _recent(lines, i, VISIT_SPAN)
    named = [k for k, line in enumerate(scene) if (where and where in line) or VISIT.search(line)]
    return bool(named) and not any(LEAVE.search(line) for line in scene[named[-1] + 1:])  # a visit goes on


def _acting(world: World, lines: list[str], first_line: int, revived: set[str], seen: set[tuple[str, int]],
            calls: list[bool], home: set[str], now: str = "") -> list[Finding]:
    """The dead (已死, 已故 …) and the held (在押 …) doing what a body does in the scene
    (:data:`ACTS`) by name or alias, outside a memory, a dream, a photograph, a visit; one finding
    a character a paragraph, none where their voice was already found."""
    stopped = DEAD + CONFINED + GONE + _UNABLE_STATES
    held = {n: str(c.get("状态") or "") for n, c in world.cards.items() if n not in revived
            and str(c.get("状态") or "").startswith(stopped)}
    if not held:
        return []
    forms = _forms_of(world, held)
    if not forms:
        return []
    out = _not_so(world, lines, first_line, held, forms, seen, now)
    held = {n: state for n, state in held.items() if state.startswith(DEAD + CONFINED + GONE)}
    if not held:
        return out
    forms = _forms_of(world, held)
    verbs = f"{'|'.join(ACTS)}|{BODY_ACT}|{BODY_MOVES}"
    act = re.compile(rf"({forms}){OWNS}([^。！？；;，,：:“”\n的被]{{0,8}}?)(?:{verbs})")
    lead = re.compile(forms)
    anyone = re.compile(rf"{_forms_of(world, world.cards)}|[他她我你]")
    clause_act = re.compile(rf"[^。！？；;，,：:“”\n的被]{{0,4}}?(?:{verbs})")
    one = {a[0]: n for a, n in world.aliases.items() if a in world.indirect and len(a) == 2 and a[0] == a[1]}
    name = {**one, **world.aliases}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        if scene_gone(narration):  # 明天记得去领 said in the scene is no memory
            continue
        recalled = DAY_RECALLED.search(narration)  # the scene remembered from that sentence on, not before it
        until = recalled.start() if recalled else len(narration)
        hits = [(m.start(), m.group(1)) for m in act.finditer(narration, 0, until)
                if not MADE_THING.match(narration, m.end())]
        hits += [(at, said) for at, said in _carried(narration, lead, anyone, clause_act) if at < until]
        hits += [(at, said) for at, said in _counted(narration, lead) if at < until]
        stops: list[int] | None = None  # the line's 。, its sentences and its visits: read once for all its acts
        sentences: dict[int, tuple[str, bool]] = {}
        visited: dict[str, bool] = {}
        for start, said in hits:
            who = world.aliases.get(said) or one.get(said, said)
            if (who, i) in seen or (start > 0 and narration[start - 1] in NOT_SUBJECT):
                continue
            if held[who].startswith(DEAD + GONE) and KNEW.match(narration, start) \
                    or held[who].startswith(DEAD) and LIFETIME.search(line):
                continue  # 岩哥早就知道那天会出事: what the dead had known, not an act in the scene; nor their lifetime
            if held[who].startswith(DEAD) and MADE_KNOWN.match(narration, start + len(said)) \
                    and not FRESH.search(narration[max(0, narration.rfind("。", 0, start) + 1):start + 24]):
                continue
            if held[who].startswith(GONE) and UNKNOWN_TO_THEM.search(line):
                continue  # 他不知道，韩五这时候就坐在南关街的茶棚里: the narrator shows where the missing are, not the scene
            if stops is None:
                stops = [k for k, c in enumerate(narration) if c == "。"]
            k = bisect.bisect_left(stops, start)
            begin = stops[k - 1] + 1 if k else 0
            if begin not in sentences:
                sentence = _SENTENCE.search(narration, begin)
                text = sentence.group() if sentence else line
                sentences[begin] = (text, NOT_THERE.search(text) is not None)
            text, not_there = sentences[begin]
            if not_there:
                continue
            card = world.cards[who]
            state = held[who]
            if state.startswith(CONFINED) and who not in visited:
                visited[who] = _visited(lines, i, card, calls, voice=False)
            if state.startswith(CONFINED) and (visited[who] or (_kept_here(world, card, home) and not CAME_IN.search(text))):
                continue  # found where they are kept; one who comes into the scene (从后门晃了进来) has left it
            seen.add((who, i))
            where = f"，{_kept(state)}「{card.get('位置')}」" if state.startswith(CONFINED) else ""
            out.append(Finding("连贯", ERROR, f"{who} 的状态是「{state}」（角色卡·状态）{where}，正文里却在场动作",
                               first_line + i, start + 1, text.strip()[:60], Subject("状态", who)))
    return out


DAY_RECALLED = re.compile(rf"(?<=[。！？!?])\s*{THAT_DAY}")
"""A remembered day opening a sentence inside a paragraph (他削着削着，手慢了下来。那天傍晚，老孟也是蹲在这个地方…): for the
acts of the dead and the held (:func:`_acting`), the scene is a remembered one from that sentence on, as a paragraph's is
for one opening on it (:data:`REMEMBERED_DAY`) — the day word alone (not 那天井, 那日头, 那晚饭, 那夜色: R58 at stop 58),
and not the sentences before it."""
MADE_THING = re.compile(r"了?的(?!时候|时|当口|当儿|工夫|一刻|瞬间|刹那|[那这]?一(?:瞬|刹|下|会)|那[天日晚夜刻会]|这[天日晚夜刻会])"
                        r"[\u4e00-\u9fff]")
"""After someone's doing, a 的 that makes it a description of a thing (爹点出来的数对不上; 师父扛回来的那根木头): the
doing is what the thing is, not an act in the scene — for the dead, what they made or left (T5, stop 56: 连续性-盲评三十八
泄密-2; 三十六 泄密-2's 爹写的那张字条 is the same form, read by the voices). Not a time clause (走进来的时候)."""
WROTE = re.compile(WRITING)
"""A faculty's act that is writing (:data:`lw_storyrepo.forbidden.WRITING`): the one act of a barred faculty that leaves a
trace a later day can see (亲手写下的那张字条) — walking and handling leave none (fs3, stop 60: S3-6)."""
WRITTEN_TRACE = re.compile(rf"[^，,。；;！？!?“”\n的]{{0,4}}?{MADE_THING.pattern}")
"""After a writing act, the rest of its verb phrase closed by a 的 that makes it a thing (亲手写下的那张字条, 提笔写的那几个字,
亲手写的那个字): a trace, made any day."""
OWNED_THING = re.compile(rf"的(?!{BODY})[\u4e00-\u9fff]")
"""A name opening its sentence as the owner of what follows (爹的字工工整整，哪天出了几锭墨): the subject is the thing, not
them; a part of their body (:data:`BODY`: 爹的手一挥，…) is still them (T5, stop 56: 连续性-盲评三十六 时间-1)."""


HOLDING_CLAUSE = re.compile(r"\s*[\u4e00-\u9fff]{1,2}着(?!的)")
"""A first clause opening on a verb held (捏着, 攥着, 披着, 叼着 …的N): the name before it is the clause's subject holding
a thing, not the owner inside a subject noun (阿耶留给他的路) — its later clauses are that person's acts (rk3's round,
stop 62: 指导员捏着那支…的红钢笔，坐在炉子边上…)."""
LOOK_OF = re.compile(r"的(?:样子|样儿|模样|背影|身影|影子|神气|神情|架势|声音|笑|眼神|手|脸)$")
"""A held clause closed on a look, a trace or a part of its holder (书记捧着搪瓷缸的样子, 老刘叼着烟袋的模样): the name is
inside that subject — a picture in the mind, not the person acting (r62-3 on rk3's round)."""


def _carried(narration: str, lead: re.Pattern[str], anyone: re.Pattern[str], act: re.Pattern[str]) -> list[tuple[int, str]]:
    """Who acts in the clauses after the one their sentence opens with (苗三爷把胡琴往腿上一架，…，眯着眼冲他点点头):
    ``(position, the opening form)`` for a sentence led by ``lead`` with a later clause, led by no one
    (``anyone``), that ``act`` matches at its start — once a sentence."""
    out: list[tuple[int, str]] = []
    for sentence in _SENTENCE.finditer(narration):
        text = sentence.group()
        first = lead.match(text, len(text) - len(text.lstrip()))
        if first is None or text.rstrip().endswith(("？", "?")) or not re.match(OWNS, text[first.end():]):
            continue  # 阿爸为什么要在那天…，写下…？: a question narrates no act; 老周总那间办公室…: an owner, no subject
        clauses = CLAUSE_MARKS.split(text[first.end():])
        if (re.search(r"的[\u4e00-\u9fff]{1,3}$", clauses[0].strip())
                and not (HOLDING_CLAUSE.match(clauses[0]) and not LOOK_OF.search(clauses[0].strip()))) \
                or BEFORE_NOW.search(clauses[0]) \
                or OWNED_THING.match(text, first.end()):
            continue  # 阿耶留给他的路，走到这儿…: the name is inside the clause's subject (路), not it; 爹走了以后，…:
            # what follows is after them
        for clause in clauses[1:]:
            clause = clause.lstrip()
            if anyone.match(clause):
                break  # 苗三爷…，三宝…: someone else's clauses follow
            if act.match(clause):
                out.append((sentence.start() + first.start(), first.group()))
                break
    return out


HEADCOUNT = re.compile(r"[两二三四五六七八九十几]个人")
"""A count of people closing a list of them (钱老伯、顾先生、德昌叔同承安四个人)."""
LIST_JOINS = "、和同跟与及"
"""What joins the names of a list (甲、乙同丙, 甲和乙)."""
HERE_NOW = re.compile(r"剩|只有|还有|[坐站蹲守围躺挤聚]着|在场")
"""What makes a list closed by a head count the people there now (柜上就剩…四个人, 屋里只有…两个人, 炕上坐着…三个人): a
being-there frame before the list — not an owner's list (把洛桑、次仁两个人的铺盖卷好) nor a past deed (是洛桑和次仁两个人
挖的) (fs3, stop 60: S3-2)."""
COUNTED_SPAN = 40
"""How far before a head count :func:`_counted` reads for its clause (a line of thousands of counts and no stop is not
read back to its start at each)."""


def _counted(narration: str, lead: re.Pattern[str]) -> list[tuple[int, str]]:
    """Who is counted among the people here (柜上就剩钱老伯、顾先生、德昌叔同承安四个人，各人守着各人的位子): ``(position,
    form)`` for each form of ``lead`` in a list (:data:`LIST_JOINS` beside it) closed by a head count (:data:`HEADCOUNT`), the
    list and the count in one clause that tells no time gone (:data:`BEFORE_NOW`), after a being-there frame
    (:data:`HERE_NOW`) and owning nothing (no 的 after the count) — one counted in the scene is in it as one acting is. S3's round (stop 60: 连续性-盲评四十七 状态-2, a fit: one book wrote it)."""
    out: list[tuple[int, str]] = []
    for count in HEADCOUNT.finditer(narration):
        floor = max(0, count.start() - COUNTED_SPAN)
        begin = max(floor - 1, *(narration.rfind(c, floor, count.start()) for c in "。！？；;，,：:“”\n")) + 1
        clause = narration[begin:count.start()]
        here = HERE_NOW.search(clause)
        if BEFORE_NOW.search(clause) or not any(c in clause for c in LIST_JOINS) or here is None \
                or narration.startswith("的", count.end()):
            continue  # no being-there frame, or the people owners of a thing (两个人的铺盖)
        for m in lead.finditer(clause, here.end()):
            joined = (m.start() > 0 and clause[m.start() - 1] == "、") or clause[m.end():m.end() + 1] in tuple(LIST_JOINS)
            if joined:
                out.append((begin + m.start(), m.group()))
    return out


BARRED_SPAN = 2
"""How many paragraphs after the one that sets it a barred scene still holds (the match goes on)."""
BARRED_NOT = re.compile(r"[没不未别禁停免]")
"""A negation in the few characters before a scene word (没再碰过正式比赛): no such scene."""


def _barred(world: World, lines: list[str], first_line: int, revived: set[str]) -> list[Finding]:
    """状态 the prose contradicts by an activity the state bars (:attr:`Bars.scene` of :attr:`World.bars`,
    the state word's scene in :data:`lw_storyrepo.forbidden.SCENES`): someone whose card
    says 禁赛 doing what a body does (:data:`ACTS`) in a paragraph within :data:`BARRED_SPAN` of
    one that sets an official match, not negated, outside a memory; one finding a person a draft."""
    bars = {n: b.scene for n, b in world.bars.items() if b.scene is not None and n not in revived and n in world.cards}
    if not bars:
        return []
    forms = _forms_of(world, bars)
    if not forms:
        return []
    act = re.compile(rf"({forms}){OWNS}([^。！？；;，,：:“”\n的被]{{0,8}}?)(?:{'|'.join(ACTS)})")
    out: list[Finding] = []
    since: dict[str, tuple[int, str]] = {}  # person -> (non-empty paragraphs since, the word) of their barred scene
    done: set[str] = set()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        since = {n: (k + 1, word) for n, (k, word) in since.items() if k + 1 <= BARRED_SPAN}
        if NOT_NOW.search(line):
            continue
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        for n, scene in bars.items():
            said = [m.group() for m in scene.finditer(narration) if not BARRED_NOT.search(narration[max(0, m.start() - 6):m.start()])]
            if said:
                since[n] = (0, said[0])
        for m in act.finditer(narration):
            who = world.aliases.get(m.group(1), m.group(1))
            if who not in since or who in done or (m.start() > 0 and narration[m.start() - 1] in NOT_SUBJECT):
                continue
            done.add(who)
            start = max(narration.rfind(c, 0, m.start()) for c in "。！？") + 1
            text = _SENTENCE.search(narration, start)
            out.append(Finding("连贯", ERROR, f"{who} 的状态是「{world.cards[who].get('状态')}」（角色卡·状态），正文里却在"
                               f"「{since[who][1]}」的场合里动作", first_line + i, m.start() + 1,
                               (text.group() if text else line).strip()[:60], Subject("状态", who)))
    return out


ENTER = r"(?:进了|走进了?|踏进了?|迈进了?|跨进了?|进到|来到|到了|回到|回了|进入|坐在|站在|进|登上了?|上了)"
"""Entering a place or being in it (一挑帘子进了锦春楼的后厨, 坐在园区食堂里, 踩着跳板上了江顺轮)."""
POSTURE = re.compile(r"[在得](?![动起住了])")
"""What follows a part's act when the part itself is what is raised or put (两只缠着白布的手举得老高, 手举在胸前, 手撑在
膝盖上): a posture, not a handling — only after one of :data:`POSTURE_VERBS` (端得稳稳的, 拿得满满的 still handle)."""
POSTURE_VERBS = ("举", "撑", "搁", "垂", "摊", "背", "揣", "抄")
"""The acts of a part that can be the part held somewhere (举在胸前, 背在身后, 揣在怀里, 抄在袖里)."""
DISPOSAL = r"把[^，,。；;！？“”\n没不别]{1,8}?一?"
"""A 把 clause between a part and its act (两只手把门口那箱轴承一抄): the part still does the act."""
NOT_DONE = re.compile(r"[没不别未想要准许能敢肯]|得|打算|准备")
"""A word in the few characters before an act that makes it no act (不许进, 想进, 没敢进)."""


_SPACES = re.compile(r"\s*")


def _subjects(world: World, narration: str, anyone: re.Pattern[str]) -> Callable[[int], str | None]:
    """The reader of who an act at a position of ``narration`` is told of: the nearest card form before it in its
    sentence (else its paragraph), not the object of a preposition (跟, 给, 把 …) nor an owner (方桂芝的话头), with no
    我 nor a 他/她 of the other gender between (林小满看了兵娃儿一眼，她…); with a 他/她 of theirs between, the one
    leading the sentence. The names, pronouns and sentence ends are found once a line and looked up for each act
    (a line of thousands of acts read the whole line before each of them)."""
    names = [m for m in anyone.finditer(narration)
             if not (m.start() > 0 and narration[m.start() - 1] in NOT_SUBJECT) and narration[m.end():m.end() + 1] != "的"]
    ends = [m.end() for m in names]
    marks = {c: [m.start() for m in re.finditer(c, narration)] for c in ("我", *HE)}
    stops = [m.start() for m in FULL_WIDTH_STOP.finditer(narration)]
    starts: dict[int, int] = {}  # a sentence's begin -> its first character that is no space
    leads: dict[int, str | None] = {}

    def between(c: str, a: int, b: int) -> bool:
        at = marks[c]
        k = bisect.bisect_left(at, a)
        return k < len(at) and at[k] < b

    def subject(at: int) -> str | None:
        k = bisect.bisect_right(ends, at) - 1
        if k < 0:
            return None
        m = names[k]
        who = world.aliases.get(m.group(), m.group())
        gender = world.pronoun_of(who)
        if between("我", m.end(), at) or (gender and any(between(p, m.end(), at) for p in HE if p != gender)):
            return None
        if gender and between(gender, m.end(), at):  # 贺青山看了石头一眼，他…: the pronoun is the sentence's own subject
            s = bisect.bisect_left(stops, at)
            begin = stops[s - 1] + 1 if s else 0
            if begin not in starts:
                spaces = _SPACES.match(narration, begin)
                starts[begin] = spaces.end() if spaces else begin
            start = min(starts[begin], at)
            if start not in leads:
                lead = anyone.match(narration, start)
                leads[start] = world.aliases.get(lead.group(), lead.group()) if lead else None
            return leads[start]
        return who
    return subject


@functools.lru_cache(maxsize=64)
def _faculty_act(doing: str) -> re.Pattern[str]:
    """A faculty's acts (:data:`lw_storyrepo.forbidden.FACULTIES`) compiled once for every draft."""
    return re.compile(doing)


LED = re.compile(r"\s*(?:[阿老小][\u4e00-\u9fff](?![着了地过])|[\u4e00-\u9fff]{2,3}(?:已经|正在|正|也|都|还|就|便|又|却|才|早|刚|"
                 r"忙|连忙|赶紧|先|忽然|突然|猛地|一把|把|将|被|在|从|往|向|朝|跟|和|对|给|一边))")
"""A clause that opens on someone no card names (阿娇已经低下头, 小军一听): what follows is theirs, not the card's."""
DONE_FOR = re.compile(r"被(?![子褥单面窝头套])|由人|让人|叫人|请人|托人")
"""What makes a person's act in its clause another's doing for them (被抬下了床, 让人扶着走到门口; not 被子, a quilt)."""
WATCHED_OR_SENT = re.compile(r"(?:看着|望着|瞧着|盯着|听着|等着|目送)[\u4e00-\u9fff]|把[^，,；;：:]{1,6}?[送推扶抬背架搀领带]")
"""Before an act in its clause, someone watched or sent (小凤仙看着师妹一个人上了台, 把师妹送上了台): the act is the other's,
not the one who watches or sends (R58 at stop 58)."""
HELPED = re.compile(r"[架扶搀背抬拖]着\s*$")
CARRIED_BY = re.compile(r"被[^，,；;：:]{0,8}?[架扶搀背抬拖]着")
"""Someone walked by others (两个后生架着刘满仓一步一步挪, 刘满仓被两个后生架着，一步一步挪): :data:`HELPED` right before
the person named in the clause, :data:`CARRIED_BY` in any clause the act follows on from — their legs do not walk it
(R58 at stop 58)."""
PERSONS = re.compile(rf"[{''.join(HE)}我你]")
"""A pronoun standing for someone (:data:`HE`, 我, 你)."""


TOLD_SPAN = 60
"""How far before an act :func:`_told_of` reads its sentence for the clause that tells who does it (a sentence of
thousands of clauses is not read whole at each act)."""


def _told_of(world: World, narration: str, at: int, who: str, anyone: re.Pattern[str],
             named: Callable[[], set[str]]) -> bool:
    """Whether the act at ``at`` of ``narration`` is told of ``who`` strictly: its clause, or the clauses it follows on
    from in its sentence with no one else opening them (:data:`LED`), has ``who``'s name or alias as its first person
    (not after :data:`NOT_SUBJECT`, not an owner before 的), or a 他/她 of their gender when the paragraph names no one
    else (``named``: the cards the paragraph names, read once a line) and not later in the act's sentence — a hand act after an unknown name (阿娇已经低下头，
    又拿起了放大镜) is not the last card's named before it."""
    begin = max(narration.rfind(c, max(0, at - TOLD_SPAN), at) for c in "。！？!?") + 1
    sentence = narration[max(begin, at - TOLD_SPAN):at]
    clauses = re.split(r"[，,；;：:]", sentence)
    if DONE_FOR.search(clauses[-1]) or WATCHED_OR_SENT.search(clauses[-1]):
        return False  # 被抬下了床, 由人扶着走到: another's doing; 看着师妹上了台: the other's act
    for clause in reversed(clauses):
        if CARRIED_BY.search(clause):
            return False
        firsts = sorted((m for m in [*anyone.finditer(clause), *PERSONS.finditer(clause)]
                         if not (m.start() > 0 and clause[m.start() - 1] in NOT_SUBJECT)
                         and clause[m.end():m.end() + 1] != "的"), key=lambda m: m.start())
        if firsts:
            said = firsts[0].group()
            if HELPED.search(clause, 0, firsts[0].start()):
                return False
            if said in HE:
                gender = world.pronoun_of(who)
                if named() != {who} or (gender is not None and gender != said):
                    return False
                # the card named later in the same sentence is another than the 他 (他…端起粥，喂小石头喝完了: T3, stop 54)
                end = min((e for c in "。！？!?" if (e := narration.find(c, at)) >= 0), default=len(narration))
                return not any(world.aliases.get(m.group(), m.group()) == who for m in anyone.finditer(narration, at, end))
            return world.aliases.get(said, said) == who
        if LED.match(clause):
            return False
    return False


def _caused_in(text: str) -> Callable[[int], bool]:
    """Whether a causative (:data:`CAUSED`: 叫沈工把…, 让人把…) stands before a position in its clause (after the last
    of ，,。；;！？ before it) — the clause ends and the causatives of ``text`` found once, each position then two bisects:
    each act read from its clause start made a line of thousands of acts quadratic (R51 at stop 51)."""
    ends = [i for i, c in enumerate(text) if c in "，,。；;！？"]
    causes = [m.start() for m in CAUSED.finditer(text)]

    def caused(at: int) -> bool:
        k = bisect.bisect_left(ends, at)
        j = bisect.bisect_left(causes, ends[k - 1] + 1 if k else 0)
        return j < len(causes) and causes[j] < at
    return caused


def _forbidden(world: World, lines: list[str], first_line: int, revived: set[str],
               seen: set[tuple[str, int]]) -> list[Finding]:
    """状态 the prose contradicts by what the book says the state forbids (:attr:`World.bars`,
    :func:`lw_storyrepo.forbidden.forbidden_of`): someone barred from a place entering it or in it (or in a
    place inside it), or a part that cannot do a thing doing it (右手一把抄起锅铲 when the right hand
    can hold nothing) — told of them (:func:`_subjects`), not negated nor caused (:data:`CAUSED`: 叫沈工把信读完),
    outside quotes and a narration telling a memory (:data:`NOT_NOW`; a faculty's act that makes a trace, 亲手写的, only
    when the trace is told new: :data:`FRESH`); one
    finding a person a draft."""
    bars = {n: b for n, b in world.bars.items() if n not in revived and n in world.cards}
    if not bars:
        return []
    anyone = re.compile(_forms_of(world, world.cards))
    # (person, what reads as the forbidden act, what it breaks, whether it is a part's: a posture is none, POSTURE;
    # None for a faculty's, told of them strictly: _told_of)
    acts: list[tuple[str, re.Pattern[str], str, bool | None]] = []
    for n, b in bars.items():
        if b.places:
            inner = {p for p, outer in world.inside.items() if outer & b.places} | set(b.places)
            spots = "|".join(map(re.escape, sorted(inner, key=len, reverse=True)))
            acts.append((n, re.compile(rf"{ENTER}了?(?:{spots})"), f"不许到「{'、'.join(sorted(b.places))}」", False))
        for part, uses in b.parts:
            acts.append((n, re.compile(rf"{re.escape(part)}(?:[^，,。；;！？“”\n没不别]{{0,3}}?|{DISPOSAL})(?:{uses})"),
                         f"{part}用不了", True))
        for words, doing in b.moves:  # 上不得楼梯: climbing told of them (跑上了绣楼的楼梯)
            acts.append((n, re.compile(doing), words, False))
        for words, doing in b.faculties:  # 站不起: walking told of them by their name or their paragraph's pronoun
            acts.append((n, _faculty_act(doing), words, None))
        for words, doing in b.acts:  # 上不得船: boarding told of them, as strictly as a faculty's act
            acts.append((n, _faculty_act(doing), words, None))
    # each person's words as the paragraph may hold them (each alias; 妈 of 妈妈): an act is told of someone strictly
    # (_told_of) only where their name, or a pronoun with their name in the paragraph, stands — a line naming none of
    # them is not read for their acts (a book of a thousand barred cards had each act read a thousand times: A19)
    spelled: dict[str, set[str]] = {n: {n} for n in bars}
    for a, n in world.aliases.items():
        if n in spelled:
            spelled[n].update((a, a[0]) if len(a) == 2 and a[0] == a[1] else (a,))
    out: list[Finding] = []
    done: set[str] = set()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        if NOT_NOW.search(narration):
            continue  # the narration's own time: a past in someone's words (“…，去年十月。”) leaves the act beside it now
        subject: Callable[[int], str | None] | None = None
        named = functools.cache(lambda text=narration: {world.aliases.get(m.group(), m.group()) for m in anyone.finditer(text)})
        caused: Callable[[int], bool] | None = None
        for n, act, why, part_act in acts:
            if n in done or (n, i) in seen or (part_act is None and not any(w in narration for w in spelled[n])):
                continue
            for m in act.finditer(narration):
                if NOT_DONE.search(narration[max(0, m.start() - 3):m.start()]) \
                        or (caused := caused or _caused_in(narration))(m.start()) \
                        or (part_act and m.group().endswith(POSTURE_VERBS) and POSTURE.match(narration, m.end())):
                    continue
                if part_act is None and WROTE.search(m.group()) and WRITTEN_TRACE.match(narration, m.end()) \
                        and not FRESH.search(
                        _sentence_at(narration[max(0, m.start() - TOLD_SPAN):m.end() + TOLD_SPAN], min(m.start(), TOLD_SPAN))):
                    continue  # 钱老伯亲手写的那个字: a trace, made any day — only one told new (墨还没干) is made now
                if part_act is None:
                    near = narration[max(0, m.start() - TOLD_SPAN):m.start()]  # all _told_of reads a name in
                    if not (any(w in near for w in spelled[n]) or named() == {n}) \
                            or not _told_of(world, narration, m.start(), n, anyone, named):
                        continue
                else:
                    subject = subject or _subjects(world, narration, anyone)
                    if subject(m.start()) != n:
                        continue
                done.add(n)
                start = max(narration.rfind(c, 0, m.start()) for c in "。！？") + 1
                start = max(start, m.start() - 30)
                out.append(Finding("连贯", ERROR, f"{n} 的状态是「{world.cards[n].get('状态')}」（角色卡·状态），按设定{why}，"
                                   f"正文里却这样做了", first_line + i, m.start() + 1, line[start:].strip()[:60], Subject("状态", n)))
                break
    return out


def _elsewhere(world: World, who: str, pov: str | None) -> str:
    """``，角色卡·位置是「首尔」`` when ``who``'s card puts them in a place unrelated to the point of
    view's card (:func:`_related`): why their voice in the scene matters; else nothing."""
    where = str(world.cards.get(who, {}).get("位置") or "")
    here = str(world.cards.get(pov or "", {}).get("位置") or "")
    state = str(world.cards.get(who, {}).get("状态") or "")
    if not where or not here or state.startswith(LOST) or _related(world, where, here):
        return ""
    return f"，角色卡·位置是「{where}」"


CAME_IN = re.compile(r"进来|走进|闯进|跑进|钻进|溜进|进了[^，,。！？]{0,6}?[门堂屋院]|赶来|跑来|找来|来到")
"""Someone coming into the scene: the held one who does so has left the place they are kept in."""


def _came_in(world: World, who: str, paragraphs: list[str]) -> bool:
    """Whether ``paragraphs`` tell ``who`` (by any name of theirs) coming into the scene (:data:`CAME_IN`)."""
    forms = sorted((a for a, c in world.aliases.items() if c == who and len(a) >= 2), key=len, reverse=True) or [who]
    came = re.compile(rf"(?:{'|'.join(map(re.escape, forms))})[^。！？\n]{{0,20}}?(?:{CAME_IN.pattern})")
    return any(came.search(p) for p in paragraphs)


def _kept_here(world: World, card: dict[str, Any], home: set[str]) -> bool:
    """Whether the point of view (``home``: its card's or moved 位置) is where a held character's card keeps them — that
    place or one inside it: 禁足 with 位置 铅山 and the scene in 铅山, their own courtyard inside the town."""
    where = str(card.get("位置") or "")
    return bool(where) and any(where == h or where in world.inside.get(h, set()) for h in home)


def _regions(world: World, place: str) -> set[str]:
    """The places ``place`` lies in: its own nesting and that of every known place its name holds (西市济春堂 in 长安 by
    西市). A region the point of view is in is no far one for a card inside it too (RP2's far region, stop 62: 大理寺
    in a far 长安 is near a point of view at 西市济春堂, 华强北 in a far 深圳 near one whose card is at 华强北)."""
    if not place:
        return set()
    return set().union(world.inside.get(place, set()),
                       *(world.inside.get(p, set()) for p in world.places if len(p) >= 2 and p != place and p in place))


def _related(world: World, a: str, b: str) -> bool:
    """Whether two places are one, one inside the other, or both in a third (the same town)."""
    outer_a, outer_b = world.inside.get(a, set()) | {a}, world.inside.get(b, set()) | {b}
    return a in b or b in a or bool(outer_a & outer_b)


HEARERS = "你们|我们|咱们|他们|你家|我家|咱家"
"""Whose the one seen is, said to the listener (正碰上你们老爷下船): the one a household calls 老爷."""
SIGHTED = "瞧见|看见|看到|碰见|碰上|碰到|遇见|遇上|遇到|撞见|撞上|撞到|见着|见到"
"""What a witness says they saw someone by (今儿一早在大栅栏口上瞧见金老板了): :func:`_present_far` reads a sighting
today near the point of view as the far one being here."""
MET_NOT = "想梦听说提讲聊写念谈问算加比配轮赶盼惦挂收寄送带捎拿买卖借还交递传打拨读记抄画查系联通"
"""The first characters of a resultative (V见, V着, V到) that reach no one's body (P3, stop 60): the mind, the ear, speech,
counting and comparing (想到, 听见, 说到, 轮到, 比着), a thing sent or handled (收到, 捎到, 拿着), writing and drawing (写到, 画着),
a list looked up or a line reached (查到, 联系到, 打通: P3-5)."""
MET = rf"{SIGHTED}|(?![{MET_NOT}])[\u4e00-\u9fff](?:见|着|到)"
"""What a witness met someone by at a place (:data:`SIGHTED_AT`): the sighting words, or any resultative of reaching a body —
a verb and 见, 着 or 到 (瞅见, 望见, 找着, 逮着, 接到, 等到; P3, stop 60: stop 59's S2 read 碰见 and its kin only), none
of :data:`MET_NOT`."""
SIGHTED_AT = rf"在(?P<at>[^。！？!?“”，,：:；;在]{{1,12}}?)(?:{MET})了?(?:{HEARERS})?(?P<who>WHO)了(?![过的])"
"""A witness's sighting at a place, done (``WHO``: the forms of the far; 俺在村口供销社门口碰见你哥了): no time said, the
perfective 了 after the one seen makes it lately — the far one was near here (S2, stop 59; the timed sightings of
连续性-盲评十四, 十七 and 十三's 刚才在一楼看见 are the same way of writing). Not 碰见过 (a visit of any time), nor a sighting
in a place that is no place (:data:`SIGHTED_NOWHERE`: 梦里, 电视上), nor one whose sentence says a time gone
(:data:`SIGHTED_LONG_AGO`) or the far place itself."""
SIGHTED_NOWHERE = re.compile(r"梦|电视|电影|照片|相片|画|报上|报纸|书上|书里|信上|信里|屏|网上|广播|心里|脑子|"
                             r"名单|榜|册|表上|表里|簿|账本|账上|单子|电话|话筒")
"""What the place of :data:`SIGHTED_AT` names that no body stands in: a dream, a screen, a picture, a paper, the mind,
a list, a roll or a phone line (光荣榜上, 花名册里, 电话里: P3-5, stop 60)."""
SIGHTED_LONG_AGO = re.compile(rf"{PAST_TIME}|去年|前年|早年|头几年|那几年|上个?月|上回|上次|那回|那次|年前|月前|年头上|"
                              r"前些年|好些年|多年|那天|那晚|那夜|那日|小的时候|年轻")
"""A time gone in the sentence of a place sighting (前年在上海碰见你哥了, 那回在码头上遇见他了): a meeting long ago."""
REPORTED_TIMES = f"{TODAY_AT}|今朝|今晨|早上|早晨|上午|中午|晌午|下午|后晌|清早|大清早"
"""Times of today a report puts someone at (老彭早上在我这里坐了一个钟头, 老细今朝十点已经到咗)."""
VISIT_FOR = "找|寻|看|瞧|问|叫"
"""What someone comes to do to the one they come to (来找你, 来看过他, 来问过一句, 来叫你回家): a visit told by its
purpose is a coming all the same (P6, stop 58: 连续性-盲评四十's 今儿一早上货栈来找你, 四十二's 今天一早到铺子里来找过你; the
same way of writing in 三十四's 胡柜头晌午来看过他, of someone near, stays silent)."""
CAME_HERE = (rf"回来|来过|过来|来了|到了|到咗|已到|赶到|来(?:{VISIT_FOR})|"
             r"在(?:我|咱|我们|咱们)?(?:这里|这儿|这边)")
"""What a report says someone did today near the speaker: came (回来, 来过, 到咗, 来找过你: :data:`VISIT_FOR`) or sat
here (在我这里) — not 在那里 or 在家里, which may be where the card puts them."""
YESTERDAY = "昨儿个|昨儿晚上|昨天|昨儿|昨日|昨晚|昨夜|昨个"
"""The day before the draft's, said right after someone (周段长昨天夜里就上来了, 都僧统昨儿后晌亲自到铺子里来了): come up
then, they are here today, not at the far place their card keeps them (P3, stop 56; 连续性-盲评二十九, 三十七, 三十九).
:data:`LATELY` is built on it: one table of 昨."""
CAME_BEFORE = rf"来过|来(?:{VISIT_FOR})"
"""A coming of :data:`CAME_HERE` that says the visit ended (雷班主昨天来过，坐了一会儿就回汉口了; 昨天来找过你, a visit
by its purpose): read of today only (R56)."""
NOT_A_VISIT = "信|电话|电报|消息|口信"
"""What 来过/来了 may come with that brings no one (昨天来过信, 今早来了电话, 来了一封信, 打了个电话): no visit, right
after the coming or after a count of it (:data:`NOT_A_VISIT_AFTER`)."""
NOT_A_VISIT_AFTER = rf"(?:[一两几]?[封个通份条则])?(?:{NOT_A_VISIT})"
"""The lookahead after a coming: a letter or a call, counted or not (来了一封信, 来了个电话)."""
SENT_SOMEONE = "托人|托了|托个|派人|派了|派个|打发|捎话|捎信|叫人|让人|请人|叫了个|让了个|请了个"
"""A sender between the person and the coming (大根晌午托人来找过你, 今天早上派人来叫你, 打发小的来问): someone else came,
sent by them; the person did not (R58 on P6, the ftp fixers' round of stop 58)."""
_NOT_SENT_GAP = rf"(?:(?!{SENT_SOMEONE})[^。！？!?，,“”]){{0,8}}?"
"""The words a report lets stand between the person's time and the coming: up to eight, no sender (:data:`SENT_SOMEONE`)."""
REPORTED_NOT_NOW = ("这会儿", "此刻", "眼下", "今儿个", "今儿", "今天", "今日")
"""Times of :data:`TODAY_AT` that say where someone is now, not what they did today: 你姐眼下在油田上班 is where the card
keeps her, told by any who knows it; a report of :data:`REPORTED_AT` never starts on them. Nor on a bare 今天/今儿/今日,
which says the day, not an act done and near (老刘今天在厂里加班 is what he does over there today: P3-1, stop 60)."""
REPORTED_GUESS = re.compile(r"不知道|不晓得|不知|也许|兴许|大概|恐怕|说不定|这会儿|八成|"
                            r"好像|好似|仿佛|似乎|恍惚|恍恍惚惚|觉着|觉得|以为|听着像|像是")
"""A guess in a report's sentence (老刘今天在厂里不知道吃上饭没有): no report of someone here (P3-1, stop 60); nor a
seeming (赵老栓刚才好像在库房里咳嗽: R61's RP1-10)."""
REPORTED_HABIT = re.compile(r"往常|往日|平时|平常|平日|向来|素来|一向|从来|天天|每天|每日|每逢|回回|总是|总在|总要|老是|"
                            r"常常|经常|时常|惯常|照例|雷打不动")
"""A habit in a report's sentence (往常晌午赵老栓都在库房里点锯条, 平时晌午…): a bare part of the day is then any day's,
no report of today (R61's RP1-8: how the bereaved speak of the dead)."""
REPORTED_PLACE = re.compile(r"^[^。！？!?“”，,：:；;\n]{1,8}?(?:门口|跟前|里|上|下|前|后|边|头|口|旁|外|内|处|底|"
                            r"场|部|棚|房|屋|院|站|所|堂|社|店|铺|库|队|厂|坊|馆|楼|室|局|仓|营|岗|坞|障)")
"""How a report's 在 names a place when it names no known place first: a locative or a kind of place within a few
words (队部门口, 衙门里, 障里, 后门口, 贮木场) — 在忙着考试, 在等你 is the progressive, no place (P3-1, stop 60)."""
REPORTED_NOW_TIMES = "|".join([*(t for t in TODAY_AT.split("|") if t not in REPORTED_NOT_NOW),
                               "今朝", "今晨", "早上", "早晨", "上午", "中午", "晌午", "头晌", "下午", "后晌", "大清早", "清早", "才刚"])
"""The times of today a report of someone at a place says (:data:`REPORTED_AT`): :data:`REPORTED_TIMES` with 头晌 and
才刚 (a while ago), less :data:`REPORTED_NOT_NOW` (P3, stop 60)."""
REPORTED_MOVES = "在|来|上|到|去|进|回"
"""How a report of someone today reaches the place it names (RP1, stop 61): at it (在), or coming, going or getting to it
(来账房, 上食堂, 到队部, 去库房, 进仓): the same report of someone here, whichever — stop 60's P3 read 在 alone."""
REPORTED_MOVE = re.compile(REPORTED_MOVES)
MOVES_AWAY = frozenset("去回进")
"""The moves of :data:`REPORTED_MOVES` that say going to a place, not being here (老刘今早去医院拍了片子, 回厂里报到了:
R61's RP1-3): read only with a place positively of here (:data:`OF_HERE`, or a known place related to here)."""
OF_HERE = re.compile(r"^(?:这|咱|俺们|我们)")
"""A place said as ours or this one (咱们库房, 这边仓房, 我们场部): of here whoever says it."""
LATER_TODAY = (r"(?:今晚|今儿晚上|今天晚上|今儿个晚上|今儿黑夜|今夜|今儿后晌|今天下午|今儿下午|今天傍晚|今儿擦黑)"
               r"(?:[一二两三四五六七八九十\d]{1,3}点(?:钟|半|整)?)?")
"""A time later today, said before the person of a report (RP2, stop 62): a notice, an order or a plan told as fact
(今晚七点X在饭堂给二连上课, 今天下午三点X到仓库验货, 今夜X在车间值班): the person is set to be here today, as a report of
:data:`REPORTED_AT` puts them here; read only in the time-first form of a schedule (the person's own evening told after
their name, 你爹今晚在厂里加班, is their day over there), and no modal between (:data:`NOT_CAME`)."""
LATER_TODAY_AT = re.compile(LATER_TODAY)
OWN_WORK = re.compile(r"^(?:厂|车间|单位|班上|公司|局里|所里|机关|队里|社里|部里|厂里)")
"""Where anyone works, said bare (在厂里开会, 在车间里交班, 在单位值班): a far person's own work unit as well as here's — a
schedule there at a clock hour is no schedule of here (R62's r62-7)."""
SCHEDULE_HOUR = re.compile(r"点(?:钟|半|整)?$")
"""A clock time closing a :data:`LATER_TODAY` (今晚七点, 今天下午三点半): the hour of a schedule."""
NOT_COMING_LATER = re.compile(r"[回来](?:不|不了)|不(?:回来|来|过来)|来不了|不可能|哪能|怎么会|[？?]\s*$")
"""A sentence of a schedule saying the person will not come, or asking (今晚老刘在厂里值夜班，回不来; 今晚老刘在食堂里唱戏？):
no schedule of here (R62's r62-2)."""
HOUSEHOLD_AFTER = (r"[他她]|们|家|的|之|那口子|屋里的|媳妇|老婆|婆娘|男人|丈夫|闺女|女儿|儿子|儿媳|小子|孩子|娃|丫头|"
                   r"[爹娘妈爸孙侄]|外甥|徒弟|兄弟|妹子")
"""What right after a person makes the noun someone or something of theirs, not them (老刘媳妇, 老刘家的, 赵老栓他闺女,
赵老栓的棺材, 老刘那口子, 老刘孙子: R61's RP1-1/RP1-5 on RP1, stop 61): the person is then no subject of the act. Address
suffixes (哥, 姐, 叔, 伯: 铁生哥 is 铁生) are not in it."""
REPORTED_AT = (rf"(?:(?<![^，,。！？!?“”「」：:；;、\s])(?P<first>{LATER_TODAY}|{REPORTED_NOW_TIMES})[，,]?\s*)?(?P<who>WHO)(?!{HOUSEHOLD_AFTER})(?(first)|(?P<when>{REPORTED_NOW_TIMES}))"
               rf"(?P<gap>(?:(?!{SENT_SOMEONE})[^。！？!?，,“”在的]){{0,4}}?)(?P<move>{REPORTED_MOVES})"
               r"(?P<at>[^。！？!?“”，,：:；;\n]{2,16})")
"""Someone reported at a place today doing something there (P3, stop 60: S2's sightings widened to any act; RP1, stop 61:
any way of reaching it, :data:`REPORTED_MOVES`, and the time before the person as well as after): the person
(``WHO``: the forms of the far or of the dead and missing, as the cards and the listener's kin call them), a time of
today (:data:`REPORTED_NOW_TIMES`, not :data:`REPORTED_NOT_NOW`; 晌午老刘在… or 老刘晌午在…), a few words of manner
(亲自, 还, 就: no sender, :data:`SENT_SOMEONE`; nothing of :data:`NOT_CAME`), 在/来/上/到… and the rest of the clause —
a place and an act, any act: seeking, waiting, calling, asking, sitting, counting, fetching (你姐晌午在队部门口找你,
侬阿姐刚刚在后门口寻侬, 王候官今早亲自在障里坐着, 宫大人今儿一早在柜房里把金账翻过一遍, 你哥刚刚来账房替你领了钱).
The place must be one of here (:func:`_reported_here`): not their own or yonder (:data:`REPORTED_AWAY`), no place a
body stands in (:data:`SIGHTED_NOWHERE`: 在电话里, 在信上), no known place that is not the point of view's, nor, in the
sentence, a journey or the far place (:data:`FAR_WORDS`) or another day (:data:`SIGHTED_LONG_AGO`, :data:`YESTERDAY`)."""
REPORTED_AWAY = re.compile(r"^(?:自己|自个儿?|[他她]们?)?(?:家|老家|娘家|婆家|那边|那里|那儿|那头|那厢|外头|外面|外地|路上|半路|"
                           r"半道|途中|梦|省城|省里|县城|县里|城里|市里|京城|京里|外省)")
"""Where a report's 在 may put someone that is no place of here: their own home, yonder, the road, a town named by its
kind (你姐今早在家腌酸菜, 你哥晌午在路上, 老刘晌午还在省城开会: P3-1): the far one stays away."""
REPORTED_PAST_DAY = re.compile(rf"{YESTERDAY}|前儿个|前天|前儿|前日|第[一二两三四五六七八九十几]+[天日]|次日|翌日|隔天|头一?天|"
                               r"前一天|那一?[天日]|初[一二三四五六七八九十]|(?<![第])[一二三四五六七八九十廿卅\d]+[号日](?![子头])"
                               r"(?![^。！？!?，,“”]{0,2}?(?:场|部|棚|房|屋|院|站|所|堂|社|店|铺|库|队|厂|坊|馆|楼|室|局|仓|营|岗|井|"
                               r"车间|工区|线|窑|坑|机|车|床|门|桥|码头|地))")
"""A day not today anywhere in a report's sentence (昨天晌午你姐在队部门口找你; …等你，那是昨天的事; 第二天一早方先生就…: a day
of a story told, RP1, stop 61; a date, 初二下午彭大个拿这个押在我这里: 连续性-盲评二十四 好-2): not a report of today.
A number with 号 before a kind of place is the place's (三号库房, 二号井, 五号车间: R61's RP1-6), no date."""
REPORTED_NEXT_DAY = re.compile(r"明天|明儿|明日|明朝|后天")
"""A day after today in a report's sentence: before the report's end it makes it none of today (明天晌午你姐在队部门口找你);
after it, it is a plan told after the fact (你哥晌午上食堂找你来着，…，说明儿再来: RP1, stop 61)."""
NOT_CAME = re.compile(r"要|(?<!开)会|没|不|别|想|该|能|打算|准备|说好|(?<!等)等(?!等)|可能|怕|万一|假如|如果|要是")
"""Words between the person and the coming that make it no fact of today (老彭今天要过来, 建军今天没来, 今天等你来) —
read as words: the 会 of 开会 (a meeting, 今早开会来了) and the 等 of 等等 (and so on) are none."""


BACK_ON = re.compile(r"^(?:才|方|再)(?:能|可|得)?[^，,。；;]{0,10}?(?:回来|回去|回到|回(?![信电话复头应答话])|返回|返|赶回|归|"
                     r"(?:上|下|过|进)来(?![信电话函])|来(?=[。，,；;！!]|$))")
"""A card's dated event that is its owner's coming back on that day (眼下在瑷珲交账，八月二十四才坐官船回胭脂沟; 九月十五才跟
都尉一起回甲渠障; 十月二十日才结业回场): until that day they are where their card says. A verb of return it must hold
(回, 返, 归): 才来信, 再上一批新蜜, 才到期 are no coming back (R54), nor 回信, 回电话, 回头; or a coming toward the scene
(才上来, 才下来, 才过来, 月底才来。: RP2, stop 62 — one whose card comes up to the scene on a day ahead is away until then),
not 才来信, 才来电话."""
CARD_YEAR = re.compile(r"([\d〇零一二三四五六七八九十]{1,5})\s*年\s*$")
"""The year a card's dated event says, just before its month (眼下在罗平，1986年九月十四才回): the year it falls in."""


def _away_until(world: World, who: str, where: str, today: tuple[str, int | None, int, int] | None) -> bool:
    """Whether ``who``'s card keeps them at ``where`` (their card's 位置) on the in-book day ``today``: a dated event of
    their card says where they are now, naming ``where`` (眼下在东川府城), and their coming back on a day still ahead
    (:data:`BACK_ON`) — in the year the card says (:data:`CARD_YEAR`), else in the year of the book's last settled
    in-book time (:attr:`World.last_time`, the card kept up to it) when of the draft's era. No year in the draft, none
    known for the card's day (a dated return of another year is no return date for this draft), or the day come: no."""
    if today is None or today[1] is None:
        return False
    era, year, month, day = today
    settled = book_time(world.last_time[1]) if world.last_time else None
    written = settled[1][0] if settled is not None and settled[0] == era else None  # the book's year the card is kept in
    for said, what, on in _events_of(world, who):
        if not (BACK_ON.match(what) and where in said):
            continue
        stated = CARD_YEAR.search(said)
        on_year = _cn_int(stated.group(1)) if stated else written
        if on_year is not None and (year, month, day) < (on_year, *on):
            return True
    return False


CARD_AWAY = re.compile(r"[\u4e00-\u9fff](?<![刚方这那])才(?:回来|回|来|返回|返|归)(?![^。；;，,]{0,2}?(?:过|了|到))|"
                       r"(?:年前|之前|以前|前)(?:都)?不(?:回|来)|回不来|来不了|(?:没能|未能|没法|无法)(?:来|回)|"
                       r"(?:从没|从未|不曾)(?:到过|来过)|走不开|脱不开身")
"""What a card's own text says of its person's absence now (PS4, stop 63): a coming back only at a later time (入冬才回,
开春才来, 腊月里才回来 — any time word before 才, not 刚才/这才), none before a time (年前不回, 十月以前不来), none
possible (回不来, 没能来, 无法回, 走不开) or never been (从没到过, 不曾来过) — not a bar from a place (不许进经藏: a room
of their own place, which :attr:`World.bars` reads).
Said by the card, the person is at its 位置 and a journey away from any place not related to it, whatever the world
says of the distance (连续性-盲评二十六's 成都 and 利州, 三十's 盛京, 四十三's 江都 had no journey word: far was read only
from the world's :data:`FAR_WORDS`). Not 没上过学 (no 上过, no bare 没: r63-14).
Not in a sentence of a time gone (:data:`NOT_NOW`: 那年他入冬才回)."""


CARD_AWAY_PAST = re.compile(r"前不久|不久前|刚|去年|前年|那年|上个?月|前些日子|前些天|前几天|上礼拜|上星期|最近|新近|早先")
"""A time just gone in a card's sentence of :data:`CARD_AWAY` (前不久才回到李家村): a coming back done, no absence (r63-14)."""


def _card_says_away(world: World, who: str) -> bool:
    """Whether ``who``'s card text tells their absence now (:data:`CARD_AWAY`), outside a sentence of a time gone
    (:data:`NOT_NOW`, :data:`CARD_AWAY_PAST`)."""
    return any(CARD_AWAY.search(s) and not NOT_NOW.search(s) and not CARD_AWAY_PAST.search(s)
               for s in _SENTENCE.findall(world.texts.get(who, "")))


def _away_from(world: World, pov: str, pov_place: str, moved: dict[str, set[str]],
               reached: dict[str, set[str]],
               today: tuple[str, int | None, int, int] | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """``(far, kept)``, each ``{person: their card's 位置}``: who is away from the point of view at ``pov_place``
    in this draft — ``far`` holds everyone whose card puts them at a place the world or a card says is a journey
    away (:attr:`World.far`), or inside one the point of view is not in (天水 of a far 甘肃: RP2, stop 62; :func:`_regions`), related in no way to the point of
    view's (:func:`_related`), and those ``kept`` by
    the book's words where their card puts them (出不了院, :attr:`Bars.kept`) anywhere but there; ``kept`` holds
    the latter alone. ``far`` also holds everyone whose card's own text tells them away (:func:`_card_says_away`) at a
place related in no way to the point of view's (PS4, stop 63; r63-19). Nobody the draft moved or brought somewhere, nor the lost, dead or
confined. One whose card
    says they are at its 位置 until a day after ``today`` (the in-book date; :func:`_away_until`: 眼下在瑷珲…八月二十四
    才坐官船回胭脂沟) is as far, whatever the world says of the distance."""
    away = {n: str(c.get("位置")) for n, c in world.cards.items() if n != pov and c.get("位置")
            and not str(c.get("状态") or "").startswith(LOST + DEAD + CONFINED) and n not in moved and n not in reached}
    # a place the prose took the point of view to that no journey is known to (同庆园) is near their card's town (北平)
    home = str(world.cards.get(pov, {}).get("位置") or "")
    near_home = pov not in moved and pov_place not in world.far and bool(home)
    ours = _regions(world, pov_place) | _regions(world, home)  # a far region the point of view is in is no distance
    far = {n: where for n, where in away.items() if not _related(world, where, pov_place)
           and not (near_home and _related(world, where, home))
           and (any(f in where or where in f or (f in world.inside.get(where, ()) and f not in ours) for f in world.far)
                or _away_until(world, n, where, today) or _card_says_away(world, n))}
    # kept by the book's words where their card puts them (出不了院): anywhere else is too far, even in the same town
    kept = {n: where for n, where in away.items() if n not in far and n in world.bars and world.bars[n].kept
            and not _nested(world, where, pov_place)}
    return far | kept, kept


GONE_TO = ("去了", "回了", "赶往", "前往", "奔赴", "动身去", "动身回", "动身往", "启程去", "启程回", "启程往", "出发去",
           "起身去", "回", "去", "往", "上", "下")
"""Going to a place, said before it (黄九回泉州老家…去了, 陈掌柜昨天就去了泉州, 他连夜赶往兴元): the one who went is there,
a journey away from the scene — the one-character verbs only with a going done ending the clause (:data:`WENT`:
回泉州老家上坟去了), not a 了 anywhere (往昆明寄了一包蜂王浆, 去昆明的车票买好了; R54)."""
AWAY_FOR = ("出远门", "出差", "出海", "出征", "远行", "走镖", "赶考", "押送", "押运", "押解", "跑船",
            "下南洋", "闯关东", "走西口")
"""Being away on a journey of days, no place named (老周出差去了, 他跟船出海了, 二哥押送一批军粮进山去了): only with a
going done ending its clause (:data:`WENT`) is the one gone not in the scene — not 押送蜂箱往前挪了两步, 出差去不去还没定
(R54); 押着, 护送 lead someone a few steps as well as a journey, and are none."""
WENT = re.compile(r"(?:^|去|走|上路|出发|动身|启程)了[。！!…]*\s*$")
"""A going done ending the clause after the place or the journey (回泉州老家上坟去了, 出差去了, 出海了)."""
TO_SOMEONE = ("喊", "喊住", "叫住", "叫了一声", "唤", "招呼", "冲着", "朝着", "拦住", "拉住", "拽住", "扶起", "推了推",
              "拍了拍", "递给", "塞给", "瞪了", "瞪着", "白了", "打量")
"""What one does to someone beside them (喊他, 拍了拍他, 递给她): the doer is where the one done to is."""
SAYS = "说道|笑道|问道|答道|喊道|骂道|说|道|问|答|喊|嚷|骂"
"""Speaking words around a quote (黄九说：“…”, “…”黄九问): said in the narration beside a quote, a voice in the scene."""
STILL_THERE = "正|还|仍|仍然|这会儿|眼下|此刻|这几天|这些天|这阵子|如今|现在|已经|早已|早就|昨天就|昨儿就|前天就|一早就"
"""When someone is at a far place now (陈掌柜正在马尼拉的码头上接船): said between the person and 在, and needed: a bare
在 is no now (老杜在昆明有个表哥, 在昆明买的草帽, 在昆明待过三年; R54)."""
_NOT_GONE_ALSO = ("会", "将", "明日", "后天", "过几天", "改天", "等", "如果", "要是", "假如", "万一", "怕", "说好", "原想",
                  "差点", "险些", "以为", "当是", "只当", "好像", "也许", "可能", "或许",
                  "一起", "一道", "一同", "陪", "跟", "和", "与", "同", "带", "领")
""":data:`NOT_GONE`'s own words beyond :data:`PLAN_WORDS` and :data:`UNDONE_WORDS`: more days ahead, a condition, a
going missed or only believed (差点, 以为), and the words that take another along (一起, 陪, 跟, 带)."""
NOT_GONE = re.compile("|".join((*PLAN_WORDS, *UNDONE_WORDS, *_NOT_GONE_ALSO)))
"""Words between the person and the going that make it no fact of now (要去泉州, 没去, 以为他去了) or that take
another along, the point of view perhaps (老葛和他去了省城, 跟着他去了), read like :data:`NOT_CAME`."""
WHILE_THERE = re.compile(r"的时候|时|那[几些]?[年天阵]|期间|[以之][后前]|后|前|回来")
"""What follows the place to make it a time, not where someone is now (在省城的时候, 到了省城以后, 去了省城回来)."""
CAME_BACK = re.compile(rf"{FAR_ARRIVAL.pattern}|回来|跳下|下了?[马车船轿]")
"""A return told (回来, 赶回, 跳下马车): one the draft sent away may come back. Walking in (推门, 进来) is no return: the
one away is acting in the scene (郑德福推门进了灯室, half a month before he is due back)."""
SPAN = re.compile(r"这几天|这两天|这些天|这些日子|这阵子|这一向|这段日子|"
                  r"(?:要|得|过|再过)?[一二两三四五六七八九十半几数\d]+(?:个)?[来多]?(?:天|日|月|礼拜|星期|年)(?:以后|之后|后)?才(?:能)?(?:回来|回|返)|"
                  r"下(?:个)?(?:月|礼拜|星期)才(?:能)?(?:回来|回|返)")
"""A span someone is away for, said with a going done (才让这几天回西宁看病去了; 去了定海开会，要半个月才回来): within it
they are away whether or not the world knows the place is far. Its 才回来 is a return still to come, no coming."""
GONE_FOR = ("去了", "回了", "走了", "动身了", "出发了", "启程了", "上路了")
"""A going done that a :data:`SPAN` in its sentence keeps the one gone away for (黄九这几天回泉州老家上坟去了); those
taking no place (走了, 动身了…) only ending their clause: 走了好几趟油菜地 is walking, no going away (R54)."""
PLACED_GOING = ("去了", "回了")
"""The :data:`GONE_FOR` that take the place gone to after them (去了县里开会)."""


@functools.lru_cache(maxsize=8)
def _going_patterns(anyone: str, places: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str] | None]:
    """``(said, spanned, where)`` of :func:`_gone_in_draft` for a book's cast (``anyone``) and far places (``places``,
    joined; empty when none): compiled once a book, not once a draft."""
    rows = [rf"(?:{STILL_THERE})在(?P<at>{places})", rf"(?P<verb>{'|'.join(GONE_TO)})(?P<to>{places})"] if places else []
    rows.append(rf"(?P<away>{'|'.join(AWAY_FOR)})")
    said = re.compile(rf"({anyone})(?P<gap>[^。！？；;，,：:“”\n的被在]{{0,8}}?)(?:{'|'.join(rows)})")
    # gone for a span (SPAN in the sentence): away wherever they went
    spanned = re.compile(rf"({anyone})(?P<gap>[^。！？；;，,：:“”\n的被]{{0,12}}?)(?P<span>{'|'.join(GONE_FOR)})")
    return said, spanned, re.compile(places) if places else None


def _gone_in_draft(world: World, lines: list[str], pov: str, pov_place: str, reached: dict[str, set[str]],
                   anyone: re.Pattern[str], name: dict[str, str]) -> dict[str, tuple[int, int, str, str]]:
    """``{person: (line, position, what, place)}``: who the draft's own narration sends away from the scene at
    ``pov_place`` — at a place the world or a card says is far (:attr:`World.far`) and related in no way to the
    scene (在 it, :data:`STILL_THERE`; gone to it, :data:`GONE_TO`), away on a journey of days (:data:`AWAY_FOR`), or
    gone for a span its sentence says, wherever the place (:data:`GONE_FOR` with :data:`SPAN` in the same clause);
    ``what`` the words that say so, ``place`` the far one named or nothing. Not a memory, a question, a going to
    come (:data:`NOT_GONE`), a time there (:data:`WHILE_THERE`), a coming back in the same sentence, nor anyone the
    draft brings to the scene's place. Read once a draft, a line at a time."""
    home = str(world.cards.get(pov, {}).get("位置") or pov_place)  # the point of view's own town is no journey away
    far = sorted((p for p in world.far if len(p) >= 2 and not _related(world, p, pov_place) and not _related(world, p, home)),
                 key=len, reverse=True)
    places = "|".join(map(re.escape, far))
    said, spanned, where = _going_patterns(anyone.pattern, places)
    out: dict[str, tuple[int, int, str, str]] = {}
    for i, line in enumerate(lines):
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        if not narration.strip() or not (where and where.search(narration) or any(w in narration for w in AWAY_FOR)
                                         or SPAN.search(narration)):
            continue
        for sentence in _SENTENCE.finditer(narration):
            text = sentence.group()
            if NOT_NOW.search(text) or text.rstrip().endswith(("？", "?")) or CAME_BACK.search(SPAN.sub("", text)):
                continue
            for m in [*said.finditer(text), *(spanned.finditer(text) if SPAN.search(text) else ())]:
                who = name.get(m.group(1))
                if who is None or who == pov or who in out or (m.start() > 0 and text[m.start() - 1] in NOT_SUBJECT) \
                        or NOT_GONE.search(m.group("gap")) or any(_related(world, r, pov_place) for r in reached.get(who, ())):
                    continue
                clause = CLAUSE_MARKS.split(text[m.end():], 1)[0]
                if WHILE_THERE.match(clause):
                    continue  # 老葛在省城的时候…: a time there, not where he is now
                if m.re is spanned and (WHILE_THERE.match(clause) or not SPAN.search(text, _clause_start(text, m.start()))):
                    continue  # the span said in another clause (这几天老葛忙，桂芬回了娘家): not theirs
                if m.re is said and m.group("verb") and len(m.group("verb")) == 1 and not WENT.search(clause):
                    continue  # 回泉州老家上坟去了: a going done; 去泉州办货, 往泉州寄了一包: an errand named
                if m.re is said and m.group("away") and not WENT.search(clause):
                    continue  # 出差去了; not 押送蜂箱往前挪了两步, 出差去不去还没定
                if m.re is spanned and m.group("span") not in PLACED_GOING and not WENT.search("了" + clause):
                    continue  # 走了好几趟油菜地: walking there and back, no going away
                told = m.group()[len(m.group(1)):] + clause
                out[who] = (i, sentence.start() + m.end(), told[:16].strip(),
                            (m.group("at") or m.group("to") or "") if m.re is said else "")
    return out


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding position ``at`` of ``text`` starts (after its last comma or semicolon before ``at``)."""
    return max(text.rfind(c, 0, at) for c in "，,；;") + 1


SAME_TIME = re.compile(r"(?P<exact>与此同时|(?:就在)?同一(?:个)?(?:时间|时刻|时候))|(?:就在)?同一(?:个)?(?:天|日)(?:的)?"
                       r"(?:晚上|夜里|夜晚|深夜|半夜|下午|上午|早上|早晨|清早|傍晚|黄昏|中午|晌午|后晌|夜)")
"""A marker that puts what follows at the time just told: the very moment (``exact``: 同一时间, 与此同时) or a part of
the same day (同一天晚上), general Chinese read before a person in their sentence. A bare 同时 (他同时也在想) and 就在这时
(someone coming in) are none."""
STRETCH = re.compile(r"一直|始终|整夜|整晚|一整天|一整夜|一整晚|整整一[天夜晚]|一步也没|一步都没|寸步不离|直到天亮|"
                     r"没有?(?:离开|挪|动)过")
"""Words that keep a person at a place over a stretch of time (一直坐在车间门口, 一步也没离开): needed for a part of the
same day; the very moment (同一时间) needs only the place last told."""
STAYED_AT = r"(?:坐在|待在|呆在|守在|留在|躲在|蹲在|站在|睡在|住在|等在|在)"
"""How a person is at a place in a stretch or a same-time sentence (坐在, 守在, a bare 在)."""
STAY_ADVERBS = ("一直|始终|仍然|仍旧|依旧|照旧|照样|还是|还|也|都|就|却|又|正|正在|已经|早已|早就|整夜|整晚|一整天|一整夜|"
                "独自|一个人|好好地|静静地|默默地|稳稳地")
"""What alone may stand between the person and :data:`STAYED_AT` (孙德海一直在厂部; 他正蹲在车间): adverbs of time and
manner. Any other word there is no saying where they are — a denial (孟班主不在火车站), another sent (孟班主让徒弟在…, 派人在…),
their kin (孟班主家老大在…, 老孟媳妇在…) — R56B on P4."""
DAY_TURN = re.compile(r"第二天|第二日|次日|翌日|隔天|隔日|第三天|过了[一两几]?[天日]|[一两几数]天[以之]?后|后来|那天之后|几天来")
"""A time of another day between two sentences: what follows is no longer the stretch's time."""
NOT_THERE_NOW = re.compile("|".join((RECALLED, PAST_TIME, RECORDED, LIFETIME_PAST, HABIT, YEARS_BACK, COUNTED_HABIT,
                                     MEDIUM.pattern, r"想象|以为|听说|据说|说是|仿佛|好像|似乎|如果|要是|假如|打算|准备|计划|"
                                                    r"想着|要去|会去|本该|本来|原本|写信|来信|信里")))
""":data:`NOT_NOW` less its remembered day (a paragraph opening on 那天晚上 is the stretch itself), with a call, a letter
(:data:`MEDIUM`), a belief, hearsay, a condition or a plan: a sentence saying none of where a person is now."""
MOVING = re.compile("|".join((*MOVE_VERBS, *GONE_FOR, r"离开|出了|出门|动身|起身|赶[去来回往到]|[骑坐开上下]车|[去回来跑走溜]")))
"""Any going or coming between the stretch and the same-time sentence: whoever it is may have moved."""
ROOMS = frozenset(("办公室", "会议室", "值班室", "传达室", "房间", "屋里", "里屋", "外屋", "堂屋", "正屋", "厢房", "厨房",
                   "灶房", "伙房", "客厅", "卧室", "书房", "院子", "院里", "前院", "后院", "天井", "门口", "楼上", "楼下",
                   "走廊", "过道", "库房", "仓库", "地下室", "阁楼", "大厅", "饭堂", "食堂"))
"""Rooms of any building: a place so named may be a room of the other place, no second place (厂部 and 办公室)."""
STAYED_PUT = re.compile(r"(?:没有?|不|未|别)[^。！？，,]{0,2}?(?:离开|挪|动|走|去|回|出)")
"""A going denied (一步也没离开, 没走): no move; blanked before :data:`MOVING` is read."""


@functools.lru_cache(maxsize=8)
def _stretch_patterns(forms: str, places: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str],
                                                                  dict[str, str]]:
    """``(at, same, named, full)`` of :func:`_two_at_once` for a book's cast (``forms``) and places (``places``),
    ``full`` each place and each tail of one that no other place ends with (车间 of 榨糖车间) to its whole name:
    compiled once a book."""
    ends: dict[str, set[str]] = {}
    for place in places:
        for k in range(2, len(place) + 1):
            ends.setdefault(place[-k:], set()).add(place)
    full = {**{e: next(iter(ps)) for e, ps in ends.items() if len(ps) == 1}, **{p: p for p in places}}
    said = "|".join(map(re.escape, sorted(full, key=len, reverse=True)))
    at = re.compile(rf"({forms})(?P<gap>(?:{STAY_ADVERBS}){{0,3}}){STAYED_AT}(?P<place>{said})")
    same = re.compile(rf"(?:{SAME_TIME.pattern})[，,]?\s*(?P<who>{forms}|[他她])"
                      rf"(?P<gap>(?:{STAY_ADVERBS}){{0,3}}){STAYED_AT}(?P<place>{said})")
    return at, same, re.compile(forms), full


def _two_at_once(world: World, lines: list[str], first_line: int) -> list[Finding]:
    """位置: one person the narration puts at place A and then, at the same time (:data:`SAME_TIME`: 同一时间, 与此同时;
    同一天晚上 only after a stretch at A, :data:`STRETCH`: 那天晚上，X一直坐在车间门口), at a place B unrelated to A
    (:func:`_related`: not one inside the other, not both in a third) — by name, alias, kinship word, or a 他/她 of the
    last one named — with no going or coming of anyone (:data:`MOVING`, not denied: :data:`STAYED_PUT`) in between,
    no other day (:data:`DAY_TURN`), and neither sentence a memory, dream, call, letter, belief or plan
    (:data:`NOT_THERE_NOW`). Places are the world's (cards, 世界观). The finding names the card field and the
    same-time sentence. One pass over the draft's narration, a sentence at a time; silent without any marker."""
    places = sorted((p for p in world.places if len(p) >= 2), key=len, reverse=True)
    if not places or not any(SAME_TIME.search(line) for line in lines):
        return []
    forms = _forms_of(world, world.cards)
    if not forms:
        return []
    at, same, named, full = _stretch_patterns(forms, tuple(places))
    kept: dict[str, tuple[str, bool]] = {}  # person -> (place A, told as a stretch) while nothing moved since
    last = ""  # the last one named in the narration: whom a 他/她 stands for
    out: list[Finding] = []
    for i, line in enumerate(lines):
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        if not narration.strip():
            continue
        for sentence in _SENTENCE.finditer(narration):
            text = sentence.group()
            if DAY_TURN.search(text):
                kept.clear()
            quiet = bool(NOT_THERE_NOW.search(text))
            m = same.search(text) if kept and not quiet else None
            if m:
                who = last if m.group("who") in "他她" and world.gender.get(last) == m.group("who") \
                    else world.aliases.get(m.group("who"), "")
                found = kept.get(who)
                if found and (found[1] or m.group("exact")) and not MOVING.search(STAYED_PUT.sub("", m.group("gap"))) \
                        and not (m.start("who") > 0 and text[m.start("who") - 1] in NOT_SUBJECT) \
                        and not _related(world, found[0], full[m.group("place")]) \
                        and not {found[0], full[m.group("place")], m.group("place")} & ROOMS:
                    out.append(Finding("连贯", WARN, f"{who} 此前在「{found[0]}」（位置），同一时间正文却又在"
                                       f"「{full[m.group('place')]}」，中间没有写{world.gender.get(who, '他')}离开",
                                       first_line + i, sentence.start() + m.start(), text.strip()[:60],
                                       Subject("位置", who, full[m.group("place")])))
                    kept.pop(who)
            stayed = [] if quiet else list(at.finditer(text))
            if not stayed and MOVING.search(STAYED_PUT.sub("", text)):
                kept.clear()  # someone going or coming (named, a 他/她, or none): whoever it is may have moved
            for s in stayed:
                w = world.aliases.get(s.group(1))
                if w and not MOVING.search(STAYED_PUT.sub("", s.group("gap"))) \
                        and not (s.start() > 0 and text[s.start() - 1] in NOT_SUBJECT):
                    kept[w] = (full[s.group("place")], bool(STRETCH.search(text)))
            names = [world.aliases.get(n.group(), "") for n in named.finditer(text)]
            last = next((n for n in reversed(names) if n), last)
    return out


@functools.lru_cache(maxsize=32)
def _gone_acts(gone_forms: str, pov_forms: str, pov_pronoun: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``(to_pov, speaks)`` of :func:`_present_far` for the forms of those a draft sends away: calling to the point of
    view (:data:`TO_SOMEONE`; by name, 我, or its 他/她) and speaking beside a quote (:data:`SAYS`). Compiled once for
    the same forms, not once a draft (R54)."""
    to_pov = re.compile(rf"({gone_forms}){OWNS}[^。！？；;，,：:“”\n的被]{{0,8}}?(?:{'|'.join(TO_SOMEONE)})"
                        rf"(?:{pov_forms}|我|{pov_pronoun})")
    speaks = re.compile(rf"(?:^|\s{{2}}|[。！？，,])\s*({gone_forms})[^。！？；;，,：:“”\n的被]{{0,4}}?(?:{SAYS})(?![过起])"
                        rf"(?:[：:，,]?\s{{2}}|[。！？，,]|$)")
    return to_pov, speaks


def _present_far(world: World, lines: list[str], first_line: int, pov: str, pov_place: str,
                 moved: dict[str, set[str]], reached: dict[str, set[str]], placed: set[tuple[str, int]],
                 calls: list[bool], entered: dict[str, set[str]] | None = None,
                 today: tuple[str, int | None, int, int] | None = None) -> list[Finding]:
    """位置: someone away from the point of view (:func:`_away_from`) doing what a body does beside it in the
    narration (:data:`ACTS`, a posture) — by name, alias, kinship word or a pronoun whose one candidate they are —,
    spoken to face to face or seen here today by a witness, with no journey told (:data:`FAR_ARRIVAL`, 从 their
    place), no call, letter or screen in the paragraph (:data:`REMOTE`) nor a call or screen in the few before
    (:data:`SCREEN`), outside a memory. The scene is where the point of view is. Those the draft itself sends away
    (:func:`_gone_in_draft`) are away from where it says so on; calling to the point of view (:data:`TO_SOMEONE`) or
    speaking beside a quote (:data:`SAYS`) puts them here too, and any coming (:data:`CAME_BACK`) brings them back."""
    far, kept = _away_from(world, pov, pov_place, moved, reached, today)
    anyone = re.compile(_forms_of(world, world.cards, loose=True))
    one = {a[0]: n for a, n in world.aliases.items() if a in world.indirect and len(a) == 2 and a[0] == a[1]}
    name = {**one, **world.aliases}
    # who the draft itself sends away (黄九这几天回泉州老家上坟去了): away from where it says so on
    returned = {w: ps - (entered or {}).get(w, set()) for w, ps in reached.items()}  # walking in is no return
    gone = {w: g for w, g in _gone_in_draft(world, lines, pov, pov_place, returned, anyone, name).items()
            if w not in far and w in world.cards}
    far = {**far, **{w: g[3] for w, g in gone.items()}}
    if not far:
        return []
    forms = _forms_of(world, far)
    if not forms:
        return []
    verbs = "|".join(sorted({*ACTS, *(v for v in STAY_VERBS if len(v) > 1)}, key=len, reverse=True)) + f"|{BODY_ACT}"
    act = re.compile(rf"({forms}|[他她]){OWNS}([^。！？；;，,：:“”\n的被]{{0,8}}?)(?:{verbs})")
    # 他看见娘站在街口: the one seen doing it, whom the seer's own match (他…站) passes over
    seen_act = re.compile(rf"(?:{SIGHTED})({_forms_of(world, far, sighted=True)})[^。！？；;，,：:“”\n的被]{{0,8}}?(?:{verbs})")
    # 黄九在码头上喊他: one the draft sent away calling to the point of view (by name, 我, or its 他/她)
    # “走吧。”黄九说 / 黄九说：“走吧。”: one the draft sent away speaking in the scene (the quote is blanked in the narration)
    to_pov, speaks = _gone_acts(_forms_of(world, gone), _forms_of(world, [pov]) or pov,
                                world.gender.get(pov) or "他|她") if gone else (None, None)
    lead = re.compile(rf"{forms}|[他她]")
    walked_in = re.compile(WALKED_IN_FROM.replace("WHO", forms))
    narrated_at = re.compile(NARRATED_AT.replace("WHO", forms))
    clause_act = re.compile(rf"[^。！？；;，,：:“”\n的被]{{0,4}}?(?:{verbs})")
    anyone_or_he = re.compile(rf"{anyone.pattern}|[他她我你]")
    far_words = re.compile(rf"{FAR_WORDS.pattern}|{'|'.join(map(re.escape, filter(None, far.values())))}")
    vocative = re.compile(rf"(?:^[“「]|[。！？!?…])\s*({forms})[，,！!]\s*(?:你|您)(?:来|去|过来|上前|站|坐|说|讲|看|把|给|先|也|就|怎么看|觉得|留下|跟我|跟上)")
    heard = {f: n for f, n in world.heard.items() if n in far and f not in name and len(f) >= 2}
    # 少爷, as the cards say people call him; 你爹, the listener's kin (RP2)
    spoken = "|".join(filter(None, [forms, _listener_kin(world, far), *map(re.escape, sorted(heard, key=len, reverse=True))]))
    sighted = re.compile(rf"(?:{TODAY_AT})[^。！？!?“”]{{0,12}}?(?:{SIGHTED})了?(?:{HEARERS})?({spoken})|"
                         rf"(?:{TODAY_AT})[，,]?\s*[^。！？!?，,“”]{{0,4}}?({spoken})(?:还|正|就)?在")
    sighted_at = re.compile(SIGHTED_AT.replace("WHO", spoken))
    # someone said by another to have come here today (老彭早上在我这里坐了一个钟头, 杜山长今早回来了)
    # compiled when a quote first needs it (a draft of no quotes compiles none)
    # or to have come up yesterday (老高昨儿后晌就搭运材车上来了: here since, the card's far place not so today)
    # (group 2 a time of today, group 3 of yesterday: 来过 with 昨天 is a visit that ended, R56)
    # or to have come back to the place of here, named (姐昨儿个回了天津: CAME_TO, RP2)
    came_to = CAME_TO.replace("HERE", ours) if (ours := _places_of_here(world, pov_place)) else "(?!)"
    reported = functools.cache(lambda: re.compile(
        rf"({spoken})(?:({REPORTED_TIMES}){_NOT_SENT_GAP}(?:{CAME_HERE})|"
        rf"({YESTERDAY}){_NOT_SENT_GAP}(?!{CAME_BEFORE})(?:{CAME_HERE})|"
        rf"({REPORTED_TIMES})(?:{CAME_TO_MANNER})?(?:{came_to})|({YESTERDAY})(?:{CAME_TO_MANNER})?(?:{came_to}))"
        rf"(?!{NOT_A_VISIT_AFTER})"))
    # someone said to have been at a place of here today doing anything (你姐晌午在队部门口找你: P3, stop 60)
    reported_at = functools.cache(lambda: re.compile(REPORTED_AT.replace("WHO", spoken)))
    said_of = {**one, **_kin_initials(world, far), **heard, **world.aliases}  # who a form said in a quote is, built once a draft
    came: set[str] = set()

    unlooked = [LOOKED_AT.sub("", x) for x in lines]  # a screen looked at is a thing in the room, not a call

    def visiting(who: str, i: int, at: int = 0) -> bool:  # the point of view at a kept one's place (a ward, 病床): a visit
        g = gone.get(who)  # or one the draft sends away, before it says so
        return who in kept and _visited(unlooked, i, world.cards[who], calls, voice=False) or \
            g is not None and (i, at) <= (g[0], g[1])

    out: list[Finding] = []
    previous = ""
    recent: list[str] = []  # the last CALL_SPAN non-empty paragraphs
    for i, line in enumerate(lines):
        narration = _QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)
        for sentence in _SENTENCE.findall(narration):
            if FAR_ARRIVAL.search(SPAN.sub("", AWAITED.sub("", sentence))) and not NOT_NOW.search(sentence) \
                    or any(f"从{p}" in sentence for p in far.values() if p):
                came |= {name[m.group()] for m in anyone.finditer(sentence) if name[m.group()] in far}
            if gone and CAME_BACK.search(SPAN.sub("", sentence)):  # 黄九推门进来: one the draft sent away comes back
                came |= {name[m.group()] for m in anyone.finditer(sentence) if name[m.group()] in gone}
        if not line.strip():
            continue
        screened = any(SCREEN.search(x) for x in recent) or calls[i]
        recent = [*recent, unlooked[i]][-CALL_SPAN:]
        # 山门外，老刘拄着锡杖站着 / 院门外一阵铃铛响…老刘跳下马车: a door of here, no voice through it — the body is read
        door = REMOTE.search(unlooked[i]) is not None and not REMOTE.search(DOOR_SIDE.sub("", unlooked[i]))
        if scene_gone(line) or (REMOTE.search(unlooked[i]) and not door) or screened:
            previous = narration
            continue
        hits = [(m.start(), m.group(1)) for m in act.finditer(narration)]
        hits += [(m.start(1), m.group(1)) for m in seen_act.finditer(narration)  # not 仿佛看见娘…, 没看见娘…
                 if not UNSEEN_BEFORE.search(_CLAUSE_START.split(narration[max(0, m.start() - UNSEEN_SPAN):m.start()])
                                             [-1])]
        hits += _carried(narration, lead, anyone_or_he, clause_act)
        hits += [(m.start(), m.group(1)) for m in walked_in.finditer(narration)  # 从车间那头踱过来: walking in from here
                 if _place_of_here(world, m.group("at"), pov_place)]
        hits += _narrated_hits(world, narration, narrated_at, [pov_place], far_words)  # 贺大娘在灶上烙好了饼: at a place of here
        hits += [(m.start(), m.group(1)) for m in to_pov.finditer(narration)] if to_pov is not None and not door else []
        hits += [(m.start(1), m.group(1)) for m in speaks.finditer(narration)] if speaks is not None and not door else []
        # 柳提领袖着手…: a far card's post after another surname is another man of the post (R: stop 55's P2, 二十六)
        hits = [(at, said) for at, said in hits if not _post_of_another(world, narration, at, said)]
        for q in _QUOTED_WORDS.finditer(line if not door else ""):  # “长风，你来说。”: spoken to face to face, here
            told = vocative.search(q.group())
            if told is not None and (addressed := world.aliases.get(told.group(1)) or one.get(told.group(1))) in far \
                    and addressed not in came and (addressed, i) not in placed and not visiting(addressed, i):
                placed.add((addressed, i))
                out.append(Finding("连贯", WARN, f"{_away(addressed, far, kept, pov, pov_place, gone)}，"
                                   f"本章没有写{addressed}来到这里，正文却当面叫{addressed}说话做事", first_line + i, q.start() + 1,
                                   line[max(0, q.start() - 20):].strip()[:60]))
        for q in _QUOTED_WORDS.finditer(line if not door else ""):  # “今儿一早在大栅栏口上瞧见金老板了”: seen near here today, by a witness
            seen = sighted.search(q.group()) or next(
                (m for m in sighted_at.finditer(q.group()) if not SIGHTED_NOWHERE.search(m.group("at"))
                 and not SIGHTED_LONG_AGO.search(_sentence_at(q.group(), m.start()))
                 and not UNSEEN_BEFORE.search(_sentence_at(q.group(), m.start())[:m.end()])), None)
            witnessed = said_of.get(seen.group(1) or seen.group(2)) if seen is not None and seen.re is sighted else \
                said_of.get(seen.group("who")) if seen is not None else None
            if seen is not None and witnessed in far and witnessed not in came and (witnessed, i) not in placed \
                    and not visiting(witnessed, i) \
                    and not far_words.search(_sentence_at(q.group(), seen.start())):
                placed.add((witnessed, i))
                out.append(Finding("连贯", WARN, f"{_away(witnessed, far, kept, pov, pov_place, gone)}，"
                                   f"本章没有写{witnessed}回来，正文却说{'今天' if seen.re is sighted else ''}在这边见到了{witnessed}", first_line + i,
                                   q.start() + seen.start() + 1, q.group().strip("“”「」")[:60]))
        for q in _QUOTED_WORDS.finditer(line if not door else ""):
            told = reported().search(q.group())
            if told is not None and told.group(1)[0] in LISTENER and not _told_to(world, line, q.start(), pov):
                told = None  # the listener's kin, and the listener another
            reporting = said_of.get(told.group(1)) if told is not None else None
            if told is not None and reporting in far and reporting not in came and (reporting, i) not in placed \
                    and not visiting(reporting, i) and not NOT_CAME.search(told.group()[len(told.group(1)):]) \
                    and not HEARSAY.search(told.group()[len(told.group(1)):]):
                placed.add((reporting, i))
                when = "昨天已经来到" if told.group(3) or told.group(5) else "今天来过"
                out.append(Finding("连贯", WARN, f"{_away(reporting, far, kept, pov, pov_place, gone)}，"
                                   f"本章没有写{reporting}回来，正文却说{reporting}{when}这边", first_line + i,
                                   q.start() + told.start() + 1, _sentence_at(q.group(), told.start()).strip("“”「」")[:60],
                                   Subject("位置", reporting, pov_place)))
        for q in _QUOTED_WORDS.finditer(line if not door else ""):  # “你姐晌午在队部门口找你”: reported here today, doing anything
            if not REPORTED_MOVE.search(q.group()):
                continue
            told = _first_reported_here(world, reported_at(), q.group(), far_words, pov_place)
            if told is not None and told.group("who")[0] in LISTENER and not _told_to(world, line, q.start(), pov):
                continue  # 冲小虎说：“你爹…”: the listener's kin, and the listener another
            reporting = said_of.get(told.group("who")) if told is not None else None
            if told is not None and reporting in far and reporting not in came and (reporting, i) not in placed \
                    and not visiting(reporting, i):
                placed.add((reporting, i))
                out.append(Finding("连贯", WARN, f"{_away(reporting, far, kept, pov, pov_place, gone)}，"
                                   f"本章没有写{reporting}回来，正文却说{reporting}今天在这边（「{told.group('at')}」）",
                                   first_line + i, q.start() + told.start() + 1,
                                   _sentence_at(q.group(), told.start()).strip("“”「」")[:60],
                                   Subject("位置", reporting, pov_place)))
        topics: dict[str, str | None] = {}  # the previous paragraph's topic, read once a pronoun
        # who is named before each hit, gathered as the hits advance: a line of thousands of pronouns is read once
        named = [(x.end(), name[x.group()]) for x in anyone.finditer(narration)] if hits else []
        named_before: dict[str, None] = {}
        k = 0
        in_previous: list[str] | None = None
        for start, said in sorted(set(hits)):
            while k < len(named) and named[k][0] <= start:
                named_before[named[k][1]] = None
                k += 1
            if start > 0 and narration[start - 1] in NOT_SUBJECT and not (
                    narration[start - 1] == "的" and not re.match(HOUSEHOLD_AFTER, narration[start + len(said):])
                    and DESCRIBED_LEAD.match(narration, max(map(lambda c: narration.rfind(c, 0, start), "，,；;。！？!?：:")) + 1, start)):
                continue  # 对钱经理点头: an object; 戴眼镜的钱经理背着手…: described, the one acting
            who: str | None = world.aliases.get(said) or one.get(said)
            if said in HE:
                here = list(named_before)
                if not here and said not in topics:
                    topics[said] = _topic(world, previous, anyone, name, pov, said, far_words)
                topic = topics.get(said) if not here else None
                if not here:
                    if in_previous is None:
                        in_previous = list(dict.fromkeys(name[x.group()] for x in anyone.finditer(previous)))
                    here = in_previous
                gender = {n: world.pronoun_of(n) for n in {*here, pov}}
                fits = list(dict.fromkeys(n for n in here if gender[n] == said))
                pov_fits = gender[pov] in (said, None, "")
                who = fits[-1] if len(fits) == 1 and not pov_fits and fits[-1] != pov else topic
            if who is None or who not in far or who in came or (who, i) in placed or visiting(who, i, start):
                continue
            shown = _SENTENCE.search(narration, max(0, narration.rfind("。", 0, start) + 1))
            if shown and NOT_THERE.search(LOOKED_AT.sub("", shown.group())):
                continue  # 照片上，石头哥站在最边上: shown, not here
            said_at = narration.find(said, start)
            if _at_own_place(narration, said_at + len(said) if said_at >= 0 else start, far[who]):
                continue  # 秀兰带着孩子留在镇江: where her card puts her, not here
            placed.add((who, i))
            clause = max(narration.rfind(c, 0, start) for c in "，,。！？；") + 1
            out.append(Finding("连贯", WARN, f"{_away(who, far, kept, pov, pov_place, gone)}，"
                               f"本章没有写{who}来到这里，正文却让{who}在场", first_line + i, start + 1,
                               narration[clause:].strip()[:60], Subject("位置", who, pov_place) if who in gone else None))
        previous = narration
    return out


WALKED_IN_FROM = (rf"(WHO){OWNS}(?!{HOUSEHOLD_AFTER})[^。！？；;，,：:“”\n的被]{{0,8}}?从(?P<at>[^。！？；;，,：:“”\n从]{{1,8}}?"
             r"(?:那头|这头|后头|前头|里头|外头|那边|这边|后面|前面|门口|跟前|里|上))"
             r"[^。！？；;，,：:“”\n]{0,8}?(?:(?:过|进)来|[走踱跑晃挪蹭奔迈]来|(?<![退采摘换拆调撤传留剩抄卸])下来(?![的以之]))")
"""Someone walking into the scene from a part of here (RP1, stop 61): the person (``WHO``), a few words of manner (背着手,
拄着拐), 从, a place closed by a locative of its parts (车间那头, 库房后头, 账房里, 院门口), a few more (一颠一颠地) and a
coming toward the speaker (过来, 进来, 踱来, 走来): present here. The place must be one of here (:func:`_place_of_here`):
从上海那边过来, 从老家过来 or 从南边过来 is a journey, read by the arrivals' words, not this. A place closed by 上 and a
coming down (从岸上下来, 从坡上下来: PS4, stop 63, 连续性-盲评四十三) is the same walk in — not a 下来 that completes
another verb (从岗位上退下来, 采下来的草药: r63-15) nor one closed by 的 or 以后."""
A_BEARING = re.compile(r"^(?:[东西南北]|东北|西北|东南|西南|关[内外]|山[里外]|城[里外]|乡下)$")
"""A place of :data:`WALKED_IN_FROM` that is only a bearing or a kind of country (南边, 关外, 乡下): no part of here."""
NARRATED_MANNER = r"(?:[\u4e00-\u9fff]着[\u4e00-\u9fff]{1,2})?(?:一早|早已|已经|早就|照旧|仍旧|独自|一个人|正|就|还|也|都|又|仍)?"
"""What may stand between the person and 在 in :data:`NARRATED_AT`: a posture (背着手, 叉着腰, 拄着拐) and a manner word
(就, 正, 一早, 独自) — no verb of its own (躺在, 埋在, 搁在, 跪在 say where a body or a thing was put, the dead's as much as
anyone's: R of PS4's own pool run, stop 63)."""
NARRATED_AT = (rf"(WHO){OWNS}(?!{HOUSEHOLD_AFTER})(?P<manner>{NARRATED_MANNER})在"
               r"(?P<at>[^。！？；;，,：:“”\n]{2,16})")
"""Someone the narration puts at a place, doing what they do there (PS4, stop 63: 贺大娘在地窨子外头的灶上烙好了饼,
都僧统就在讲堂上坐定了): the person (``WHO``), a few words of manner (就, 正, 早已), 在 and the rest of the clause — the
grammar :data:`REPORTED_AT` reads in a quote, read in the narration itself, with no time needed (the narration's is now).
The place must be one of here (:func:`_place_of_here`), its sentence no guess, habit, memory or the far place
(:func:`_narrated_hits`): 娘在利州城里给人浆布, 娘在家里纳鞋底, 他想娘这会儿怕是在灶房里 stay silent. Read for the far
(位置, :func:`_present_far`) only: read for the dead (状态) it found no planted case in the pool and six false alarms in
five books (阿爹在烟棚里烧了三十年烟, 阿翁已经躺在坞门口的草席上 — the dead are put somewhere in the narration)."""
NARRATED_NOT_NOW = re.compile(rf"{REPORTED_GUESS.pattern}|{REPORTED_HABIT.pattern}|想|盼|怕|要是|如果|假如|若是|"
                              r"该|会不会|兴许|没准|指不定|在天之灵|天上|九泉|阴间|阴曹|黄泉|吧[。！？!?]?$|[？?]\s*$|"
                              r"[一二两三四五六七八九十几数百]+(?:年|辈子)|当(?![院中时年天初场间面心口儿])|做(?![饭菜活事饼衣鞋针])|上班|工作|"
                              r"教书|念书|住|来信|信上|信里|信中|写信|念信|听说|说|讲(?!堂)|"
                              r"回不来|来不了|走不开|一时半会")
"""A sentence of :data:`NARRATED_AT` that tells no fact of the scene: a guess, a wish, a fear, a habit, a question
(他想娘这会儿在灶房里烙饼吧, 要是娘在灶房里…, 往常娘总在灶上…), a span of years (在烟棚里烧了三十年烟: a life, not
now), a standing role or home (在厂里当技术员, 在车间里上班, 住在… — not 当院, 做饭: r63-32, after the freeze), news told (信, 听说, 桂芝说), a coming
that cannot be (回不来: r63-12), or a place only the dead are in (在天上看着你, 九泉之下)."""
DESCRIBED_LEAD = re.compile(r"\s*(?:[戴穿披系挎背拄留叼夹提拎扛抱蓄趿裹](?![面后景影心部])着?|一身|满脸)[^。！？；;，,：:“”\n的]{1,10}的$")
"""A clause opening with a person's looks before their name (戴金丝边眼镜的钱经理…, 拄着拐的老苗…, 一身短打的小伍…: RP1,
stop 61): the 的 before the name ends a description of them, who then act — not the 的 of someone else's (NOT_SUBJECT),
nor a noun of 背 (背面, 背后的…)."""


HEARSAY = re.compile(r"说|讲|信|电话|电报|捎话|口信")
"""Words between a report's time and its coming that make the coming a thing told, not done (老刘昨天来信说月底回青松林场,
你姐昨儿捎话讲过两天到镇上: RP2, stop 62): the coming is the news's, not the day's."""
LISTENER = "你您侬恁"
"""Whose a one-character kin word is when a speaker says it to the point of view (你爹, 您娘, 侬姆妈): the point of
view's, so the card that gives the word as a name (RP2, stop 62: 你爹刚才在兵站门口打听你)."""
CAME_TO = r"(?:回|到|来|进|赶)(?:了|到|回|进)?(?:HERE)(?![\u4e00-\u9fff]?(?:那边|以外|外头))"
"""A coming to the place of here by its name (姐昨儿个回了天津, 老刘今早到了青松林场, 你哥昨天回到镇上: RP2, stop 62), read
as :data:`CAME_HERE` is — with a time of today or yesterday after the person — for the one away: back, no longer away.
``HERE``: the known places related to the point of view's (:func:`_places_of_here`). Right after the time, or a
manner word (:data:`CAME_TO_MANNER`): 寄回, 发到, 把闺女送回 say a thing or another sent there (R62's r62-4)."""
CAME_TO_MANNER = "就|已经|已|才|又|也|都|刚刚|刚|一早|总算|终于"
"""What may stand between a time and :data:`CAME_TO`'s coming: a manner word, no verb and no 把."""


def _listener_kin(world: World, people: Iterable[str]) -> str:
    """A pattern of the one-character kin words (:data:`lw_storyrepo.kinship.ONE_CHARACTER`) a card of ``people`` goes by
    (爹, 娘; 妈 of 妈妈), said after the listener's
    :data:`LISTENER` (你爹, 您娘): the point of view's kin, the one the card names — not a longer word (你爹爹 is read by
    the card's own form, 你娘舅 is no 娘: :data:`KIN_COMPOUND_AFTER`, :data:`KIN_COMPOUNDS`)."""
    return "|".join(rf"[{LISTENER}]{c}(?![{c}{KIN_COMPOUND_AFTER}{KIN_COMPOUNDS.get(c, '')}])"
                    for c in sorted({k[-1] for k in _kin_initials(world, people)}))


def _told_to(world: World, line: str, at: int, pov: str) -> bool:
    """Whether the quote starting at ``at`` in ``line`` may be said to the point of view ``pov``, so that its 你爹 is
    theirs (R62's r62-3): no one of the cards but ``pov`` called at its start (“小虎，…), and the narration before it in its
    sentence names at most one other than ``pov`` and none spoken to (冲小虎说：, 小虎问桂芝：, 铁生对小虎说：) — ``pov`` named
    there is the one come in or listening (长庚回到宿舍，宫大哥…就说：)."""
    before = line[max(line.rfind(c, 0, at) for c in "。！？!?\n") + 1:at]
    said = _names_said(world, before)
    others = {world.aliases[m.group()] for m in said} - {pov}
    called = re.match(r"[“「]\s*([^，,！!：:“”「」]{1,5})[，,！!]", line[at:])
    if called is not None and world.aliases.get(called.group(1), pov) != pov:
        return False
    if len(others) > 1:
        return False
    if said and world.aliases[said[-1].group()] == pov and POV_SPEAKS.match(before, said[-1].end()):
        return False  # 铁生说：“你爹…”: the point of view speaking, to someone else
    # the tag after the quote too, to its sentence's end (“你娘…”桂芝对小虎说。: R62's r62-9)
    close = min((k for k in (line.find("”", at + 1), line.find("」", at + 1)) if k >= 0), default=len(line))
    after = line[close + 1:min((k for k in map(lambda c: line.find(c, close + 1), "。！？!?\n“「") if k >= 0),
                               default=len(line))]
    told = _names_said(world, after)
    if len(others | {world.aliases[m.group()] for m in told} - {pov}) > 1:
        return False
    return not any(world.aliases[m.group()] != pov and TOLD_TO.search(words[:m.start()])
                   for words, found in ((before, said), (after, told)) for m in found)


TOLD_TO = re.compile(r"(?:对|冲|朝|跟|向|和)着?$")
"""What makes the name after it the one spoken to (冲小虎说, 对着小虎喊)."""
POV_SPEAKS = re.compile(r"[^，,。；;]{0,6}?(?:说|问|道|喊|嚷|讲)")
"""A speaking verb in the clause right after a name (铁生低声说：): that one speaks."""


def _names_said(world: World, words: str) -> list[re.Match[str]]:
    """The forms of the cards named in ``words``, in order, the longest at each place (:attr:`World.aliases`)."""
    forms = [f for f in world.aliases if len(f) >= 2 and f in words]
    if not forms:
        return []
    return list(re.finditer("|".join(map(re.escape, sorted(forms, key=len, reverse=True))), words))


def _kin_initials(world: World, people: Iterable[str]) -> dict[str, str]:
    """``{kin word: person}``: the one-character kin words a card of ``people`` goes by, alone or doubled (爹; 妈 of 妈妈),
    and each said after the listener (你爹, 您妈: :data:`LISTENER`)."""
    wanted = set(people)
    initials = {a[0]: n for a, n in world.aliases.items() if n in wanted and a[0] in KIN_ONE_CHARACTER
                and (len(a) == 1 or (len(a) == 2 and a[0] == a[1]))}
    return {**initials, **{f"{whose}{c}": n for c, n in initials.items() for whose in LISTENER}}


def _places_of_here(world: World, here: str) -> str:
    """A pattern of the known places one with ``here`` (:func:`_related`), longest first; empty when none."""
    return "|".join(map(re.escape, sorted((p for p in world.places if len(p) >= 2 and _related(world, p, here)),
                                          key=len, reverse=True))) if here else ""


def _place_of_here(world: World, at: str, here: str) -> bool:
    """Whether ``at``, a place a report or a walk names (:data:`REPORTED_AT`, :data:`WALKED_IN_FROM`), is one of here — the
    one positive test of both (RP1, stop 61): a known place it names first, or a locative or a kind of place within a
    few words (:data:`REPORTED_PLACE`), not their own home or yonder (:data:`REPORTED_AWAY`), no place a body stands in
    (:data:`SIGHTED_NOWHERE`), no bearing alone (:data:`A_BEARING`), and every known place in it ``here`` or related to it."""
    if REPORTED_AWAY.match(at) or SIGHTED_NOWHERE.search(at):
        return False
    if not REPORTED_PLACE.match(at) and not any(at.startswith(p) for p in world.places):
        return False  # 在忙着考试: the progressive, no place
    if A_BEARING.match(re.sub(r"(?:那头|这头|后头|前头|里头|外头|那边|这边|后面|前面|门口|跟前|里|边|面|头)$", "", at)):
        return False
    return all(_related(world, p, here) for p in occurring(world.places, at))


NARRATED_NEWS = re.compile(r"来信|信上|信里|信中|写信|念信|读信|拆信|封信|的信|把信|听说|捎话|捎来|口信|电报|说起|讲起|念给|念道|写道")
"""A paragraph of news (a letter read out, a word sent, someone told of): where it puts the far one is where the news
says they are, not here (r63-12: 王铁生把信念给桂芝听。刘德海在车间里管着三台机床) — 信 as a word of mail only, not
相信 (r63-32, after the freeze)."""


def _narrated_hits(world: World, narration: str, narrated_at: re.Pattern[str], homes: Iterable[str],
                   far_words: re.Pattern[str] | None = None) -> list[tuple[int, str]]:
    """``(position, form)`` of the people :data:`NARRATED_AT` (compiled as ``narrated_at``) puts at a place of here now
    in ``narration`` (PS4, stop 63): the place one of here for a place of the point of view's (``homes``; with none, no
    known place at all), its sentence no guess, wish, habit, role or news (:data:`NARRATED_NOT_NOW`) and, given
    ``far_words``, no word of the far place or a journey; none in a paragraph of news (:data:`NARRATED_NEWS`). The first of each form only; each sentence's verdict is read
    once (r63-20: a line of one sentence and thousands of matches stays linear)."""
    if NARRATED_NEWS.search(narration):
        return []  # 王铁生把信念给桂芝听。刘德海在车间里…: news of the far one, not the far one
    ends = [k + 1 for k, c in enumerate(narration) if c in "。！？!?"]
    verdicts: dict[int, bool] = {}
    places = [h for h in homes if h] or ["\0"]  # no place of here known: no known place is one
    out: list[tuple[int, str]] = []
    found: set[str] = set()
    for m in narrated_at.finditer(narration):
        if m.group(1) in found:
            continue
        k = bisect.bisect_right(ends, m.start())
        begin = ends[k - 1] if k else 0
        if begin not in verdicts:
            sentence = narration[begin:ends[k] if k < len(ends) else len(narration)]
            verdicts[begin] = not NARRATED_NOT_NOW.search(sentence) and not (far_words is not None and far_words.search(sentence))
        if verdicts[begin] and any(_place_of_here(world, m.group("at"), h) for h in places):
            found.add(m.group(1))
            out.append((m.start(), m.group(1)))
    return out


def _first_reported_here(world: World, reported_at: re.Pattern[str], quote: str, far_words: re.Pattern[str],
                         here: str, far: bool = True) -> re.Match[str] | None:
    """The first match of :data:`REPORTED_AT` in ``quote`` that puts its person at a place of here today
    (:func:`_reported_here`), its sentence found from the quote's sentence ends, gathered once, and each sentence's
    far words and first other day read once (:func:`_said_elsewhere`): a long quote of many reports is read in linear
    time (P3-9, stop 60). A day before today counts anywhere in the sentence (:data:`REPORTED_PAST_DAY`), a day after
    it up to the report's clause only (:data:`REPORTED_NEXT_DAY`: RP1, stop 61). A schedule, a time later today said first
    (:data:`LATER_TODAY`), is read only when ``far`` (the far's, not the dead's: a plan about the dead is their
    funeral's, R62's r62-1), at a clock hour (:data:`SCHEDULE_HOUR`) and a place that is no one's own work unit
    (:data:`OWN_WORK`: r62-7) or at a place positively of here, in a sentence that neither denies the coming nor asks
    (:data:`NOT_COMING_LATER`: R62's r62-2); a bare room entered (:data:`ENTERED_ROOM`) only when ``far`` too (r62-5)."""
    stops = [k for k, c in enumerate(quote) if c in "。！？!?"]
    elsewhere: dict[int, tuple[bool, int, bool]] = {}  # a sentence's start -> (said elsewhere, its next day, no coming)
    for m in reported_at.finditer(quote):
        k = bisect.bisect_left(stops, m.start())
        start = stops[k - 1] + 1 if k else 0
        if start not in elsewhere:
            sentence = quote[start:stops[k] + 1 if k < len(stops) else len(quote)]
            next_day = REPORTED_NEXT_DAY.search(sentence)
            elsewhere[start] = (_said_elsewhere(sentence, far_words) or REPORTED_PAST_DAY.search(sentence) is not None,
                                start + next_day.start() if next_day else len(quote),
                                NOT_COMING_LATER.search(sentence) is not None)
        away, other_day_at, not_coming = elsewhere[start]
        if m.group("first") and LATER_TODAY_AT.fullmatch(m.group("first")) and (
                not far or not_coming or not _positively_here(world, m.group("at"), here) and (
                    not SCHEDULE_HOUR.search(m.group("first")) or OWN_WORK.match(m.group("at")))):
            continue
        if not away and other_day_at >= m.end() and _reported_here(world, m, here, rooms=far):
            return m
    return None


def _reported_held(world: World, lines: list[str], first_line: int, revived: set[str], seen: set[tuple[str, int]],
                   here: str, now: str = "", pov: str = "") -> list[Finding]:
    """状态: the dead and the missing reported by someone in the scene as here today doing anything (三宝刚刚在煤堆边上…,
    你爹晌午来库房…): the one shape :data:`REPORTED_AT` reads for the far (位置), the card's 状态 picking the field
    (RP1, stop 61). Not in a sentence of a memory or dream (:data:`RECALLED`), nor of one :func:`_reported_here` refuses;
    for the dead, not in a quote telling the death (:data:`DEATH_TOLD`) nor of one who may have died in the last days
    (:func:`_died_lately`), as :data:`LATELY` reads them; one finding a character a paragraph, none where they were
    already found."""
    held = {n: str(c.get("状态") or "") for n, c in world.cards.items() if n not in revived
            and str(c.get("状态") or "").startswith(DEAD + GONE)}
    forms = _forms_of(world, held) if held else ""
    if not forms:
        return []
    # the card's own names only: a title the household gave the dead (师傅, 场长) is their successor's after the death
    # (R61's RP1-9); the missing keep theirs
    heard = {f: n for f, n in world.heard.items() if n in held and not held[n].startswith(DEAD)
             and f not in world.aliases and len(f) >= 2}
    reported_at = re.compile(REPORTED_AT.replace("WHO", "|".join(filter(None, [
        forms, _listener_kin(world, held), *map(re.escape, sorted(heard, key=len, reverse=True))]))))
    said_of = {**_kin_initials(world, held), **heard, **world.aliases}
    away = re.compile(rf"{FAR_WORDS.pattern}|{RECALLED}")
    out: list[Finding] = []
    for i, line in enumerate(lines):
        for q in _QUOTED_WORDS.finditer(line):
            if not REPORTED_MOVE.search(q.group()):
                continue
            told = _first_reported_here(world, reported_at, q.group(), away, here, far=False)
            if told is not None and told.group("who")[0] in LISTENER and not _told_to(world, line, q.start(), pov):
                continue  # 冲小虎说：“你娘…”: the listener's kin, and the listener another
            who = said_of.get(told.group("who")) if told is not None else None
            if told is None or who not in held or (who, i) in seen or held[who].startswith(DEAD) and (
                    DEATH_TOLD.search(q.group()) or _died_lately(world, who, now)):
                continue
            seen.add((who, i))
            out.append(Finding("连贯", ERROR, f"{who} 的状态是「{held[who]}」（角色卡·状态），正文却说{who}今天在这边做事"
                               f"（「{told.group('at')}」）", first_line + i, q.start() + told.start() + 1,
                               _sentence_at(q.group(), told.start()).strip("“”「」")[:60], Subject("状态", who)))
    return out


def _said_elsewhere(sentence: str, far_words: re.Pattern[str]) -> bool:
    """Whether a sentence of a report says a journey or far place (``far_words``), a time gone
    (:data:`SIGHTED_LONG_AGO`), a guess (:data:`REPORTED_GUESS`) or a habit (:data:`REPORTED_HABIT`): no report of here
    today."""
    return bool(far_words.search(sentence) or SIGHTED_LONG_AGO.search(sentence) or REPORTED_GUESS.search(sentence)
                or REPORTED_HABIT.search(sentence))


def _reported_here(world: World, m: re.Match[str], here: str, rooms: bool = True) -> bool:
    """Whether a match of :data:`REPORTED_AT` puts its person at a place of here today, its sentence aside
    (:func:`_said_elsewhere`): nothing between the time and the place that makes it no fact (:data:`NOT_CAME`), and a
    place of here (:func:`_place_of_here`)."""
    at = m.group("at")
    if m.group("move") in MOVES_AWAY and not _positively_here(world, at, here) and not (
            rooms and m.group("move") == "进" and ENTERED_ROOM.match(at) and MANNER_ONLY.fullmatch(m.group("gap"))):
        return False  # 去医院, 回厂里: going there, not being here (RP1-3)
    return not NOT_CAME.search(m.group("gap")) and _place_of_here(world, at, here)


ENTERED_ROOM = re.compile(r"^了?[^。！？!?“”，,：:；;\n]{0,3}?(?<![病牢监产洞号尸灵牛班禁])(?:房|屋|仓|库|棚|窖|舍)(?!子|[里内]?[^，,。！？!?]{0,4}?(?:住院|看病|躺着))")
"""A bare room a report's 进 enters (老刘才刚进仓房拿了两把斧子, 进库里取了一捆绳: R61's leftover of RP1-3): a room of a
workplace is of here as 在 one is — not a ward, a cell, a delivery room, a morgue, a detention (病房, 牢房, 监房, 产房,
停尸房, 灵棚, 牛棚, 班房: R62's r62-5, r62-6); read for the far only, the person walking in with a manner word at most
(:data:`MANNER_ONLY`: 抬进了库房 is the dead carried)."""
MANNER_ONLY = re.compile(r"(?:就|又|也|才|刚|还|都|亲自|一个人|自己)*")
"""A report's gap of manner words only, no verb (抬, 送, 押: someone else's act on the person)."""


def _positively_here(world: World, at: str, here: str) -> bool:
    """Whether a report's place ``at`` is said as ours or this one (:data:`OF_HERE`) or opens with a known place related
    to ``here``: of here whoever the person is."""
    return bool(OF_HERE.match(at)) or any(at.startswith(p) and _related(world, p, here) for p in world.places)


def _at_own_place(narration: str, after: int, place: str) -> bool:
    """Whether the clause going on at ``after``, right after a person away (or their 他/她), puts them at ``place``,
    their card's 位置: a verb of staying (:data:`STAY_VERBS`: 留在, 守在, 住在, 在) comes right after the person
    (:data:`STAYING_BEFORE` between) and the place ends there (:data:`PLACE_GOES_ON`): 秀兰带着孩子留在镇江 says she
    is away, not here; 玉兰把在汉口买的糖… and 玉兰坐在汉口路… place nobody in 汉口 (fu1b)."""
    if not place:
        return False
    verbs = "|".join(sorted((*STAY_VERBS, "待在", "呆在"), key=len, reverse=True))
    staying = re.compile(rf"{STAYING_BEFORE}(?:{verbs}){re.escape(place)}(?![{PLACE_GOES_ON}])")
    return staying.match(narration, after) is not None


STAYING_BEFORE = r"(?:带着[^，,。！？；;“”\n]{0,8}?)?(?:还|仍|仍然|一直|依旧|照旧|就|也|都)?"
"""What may stand between a person and their verb of staying (秀兰带着孩子留在镇江, 玉兰还在汉口)."""
PLACE_GOES_ON = "路街巷弄道桥站港码区县镇村城门楼饭馆店厂"
"""Characters after a place name that make it a longer place (汉口路, 汉口站): not the card's place itself."""


LOOKED_AT = re.compile(r"(?:对着|盯着|看着|望着|瞅着|守着)[^。！？；;，,“”\n]{0,6}?屏幕(?![里上中那])")
"""A screen someone looks at as a thing in the room (正对着两块屏幕看回归报告): no call, nobody carried on it."""


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` holding position ``at``: a far place said in another sentence of the same
    quote (去上海的介绍信…我今天一早在厂门口碰到龚主任了) is not where the sighting was."""
    start = max(text.rfind(c, 0, at) for c in "。！？!?") + 1
    ends = [e for c in "。！？!?" if (e := text.find(c, at)) >= 0]
    return text[start:min(ends) + 1 if ends else len(text)]


def _nested(world: World, a: str, b: str) -> bool:
    """Whether two places are one or one lies inside the other (not merely in the same town: :func:`_related`)."""
    return a in b or b in a or b in world.inside.get(a, set()) or a in world.inside.get(b, set())


def _away(who: str, far: dict[str, str], kept: dict[str, str], pov: str, pov_place: str,
          gone: dict[str, tuple[int, int, str, str]] | None = None) -> str:
    """Why ``who`` cannot be beside the point of view: far away, kept where their card puts them, or sent away by
    the draft's own words (:func:`_gone_in_draft`)."""
    if gone and who in gone:
        far_off = "很远" if gone[who][3] else "有些日子不在"  # a span with no place named: away, not known how far
        return f"本章前文写{who}「{gone[who][2]}」（位置），离{pov}所在的「{pov_place}」{far_off}"
    if who in kept:
        return f"{who} 按设定离不开「{kept[who]}」（角色卡·位置），{pov}在「{pov_place}」"
    return f"{who} 在「{far[who]}」（角色卡·位置），离{pov}所在的「{pov_place}」很远"


WRITTEN = re.compile(r"(?:写|记|刻|题|批|留)(?:的|着|下|道|了)?(?:字|话|条|是)?[：:]\s*$")
"""Words written down before a colon (是阿爸写的：收定金，八千; 是娘托人写的字：…, 写的是：…): a trace of someone, not
their voice now."""
OPENING_QUOTES = "“「『‘\"'"
"""The marks that open written words after their colon (周大炮写：“…”): read past, as blank space is."""
REPORTED = re.compile(r"[“「][^”」‘’]{0,6}?(?:说|讲|道|问)(?:过|了)?[：:，,]?\s*[‘『]")
"""A quote that opens by reporting another's words in quotes of its own (“他说：‘找一张纸。’”): the one who
reports speaks, not the one reported."""
MIMIC = re.compile(r"学着[^，,。！？“”]{1,10}的(?:样子|腔调|口气|声音|语气|模样)|学(?:着)?[^，,。！？“”]{1,8}的腔")
"""Someone mimicking another before a quote (师姐学着师父的样子，…“…”): the quote is the mimic's."""


def _not_spoken_now(line: str, at: int, words: str) -> bool:
    """Whether ``words``, a voice found at ``at`` in ``line``, are no one's voice now: written down
    (:data:`WRITTEN`) with nothing saying they were just written (:data:`FRESH`), or reported inside
    another's quote or mimicked in the paragraph (:data:`REPORTED`, :data:`MIMIC`)."""
    start = line.find(words, at) if words else -1
    end = start if start >= 0 else at
    stops, mimicked = _line_marks(line)
    colon = end
    while colon > 0 and (line[colon - 1].isspace() or line[colon - 1] in OPENING_QUOTES):
        colon -= 1  # 周大炮写：“我想了好几夜…” (a dead man's diary read now): the quote mark stands between (F9)
    if WRITTEN.search(line, max(0, colon - 4), colon):  # what ends at the colon before the words
        k = bisect.bisect_left(stops, end)
        if not FRESH.search(line, stops[k - 1] + 1 if k else 0, end):
            return True
    return REPORTED.match(line, at) is not None or mimicked


@functools.lru_cache(maxsize=4)
def _line_marks(line: str) -> tuple[list[int], bool]:
    """Where a line's sentences end, and whether someone in it mimics another (:data:`MIMIC`): read once
    however many voices the line holds (a line of thousands of quotes was read whole at each of them)."""
    return [m.start() for m in FULL_WIDTH_STOP.finditer(line)], MIMIC.search(line) is not None


def _topic(world: World, previous: str, anyone: re.Pattern[str], name: dict[str, str], pov: str, pronoun: str,
           far_words: re.Pattern[str]) -> str | None:
    """The one living character a paragraph is about, for the 他/她 that opens the next one (庆和班的琴师是苗松，
    拉了三十年胡琴…。 / 他在廊下坐定…): named there alone — kinship words and the dead aside —, the point of
    view not named, the pronoun's gender not against them, and no journey, far place or memory in it (苗三叔去了
    保定府 says where he is not)."""
    if not previous.strip() or NOT_NOW.search(previous) or far_words.search(previous):
        return None
    found = {name[x.group()] for x in anyone.finditer(previous) if x.group() not in world.indirect
             and not previous.startswith("的", x.end())}  # 纸条上是周铁牛的字: the writer, not the one the paragraph is about
    found = {n for n in found if not str(world.cards.get(n, {}).get("状态") or "").startswith(DEAD)}
    if len(found) != 1 or pov in found:
        return None
    who = next(iter(found))
    return who if world.pronoun_of(who) in (None, "", pronoun) else None


def _ranks(world: World, names: re.Pattern[str], lines: list[str], sentences: list[tuple[int, int, str]], first_line: int,
           pov: str | None, set_realm: set[str], explained: bool,
           known: dict[tuple[int, int], str | None] | None = None) -> list[Finding]:
    """境界 said lower in the prose than on the card: a stage with a level (筑基三层); a bare stage
    said of someone — 不过是个学徒, 作为一个住院医 (:data:`BEING`), before their name (五级工周大海), after
    it in a register (赵铁军，三级工), after their surname as an address (韩工段长) —; a stage someone is
    said to be below (要考四级了, 还没熬到主治: :data:`ASPIRE`), where the card holds it already."""
    out: list[Finding] = []
    aliases = world.aliases
    pattern = realm_pattern(world.stages)
    order = [SAME_STAGE.get(x, x) for x in world.stages]
    short = {x[:-1]: x for x in world.stages if len(x) >= 3 and x[-1] in "工师员"}  # 四级 for 四级工
    aim = re.compile("|".join(_stage_word(x, world.stages) for x in sorted({*world.stages, *short}, key=len, reverse=True)))
    by_surname: dict[str, list[str]] = {}
    by_title: dict[str, list[str]] = {}  # 慧 of 慧贵人: a title the card's aliases put before a stage, not the surname

    def holders() -> None:  # read from every card once, when the draft first says a rank (most drafts never do)
        longest_first = sorted(world.stages, key=len, reverse=True)
        any_stage = tuple(longest_first)
        for person, card in world.cards.items():
            if card.get("境界") and len(surname_of(person)) == 1:
                by_surname.setdefault(surname_of(person), []).append(person)
            if card.get("境界"):
                for alias in world.names_of(person):
                    stage = next((x for x in longest_first if alias.endswith(x)), None) if alias.endswith(any_stage) else None
                    stem = alias[:-len(stage)] if stage else ""
                    if 1 <= len(stem) <= 2 and stem != surname_of(person) and person not in by_title.get(stem, []):
                        by_title.setdefault(stem, []).append(person)

    @functools.cache
    def listed_pattern() -> re.Pattern[str]:  # a name listed before its stage: compiled when the draft first says a rank
        holders()
        return re.compile(rf"({names.pattern}){LISTED}")

    known = {} if known is None else known
    ranked: dict[tuple[int, int], str | None] = {}  # who 他 before 一个 and a rank is, among those with a rank: asked once

    def antecedent(line: int, column: int) -> str | None:  # the same pronoun for every rank after it: asked once
        if (line, column) not in known:
            known[line, column] = _antecedent(names, lines, line, column, world, pov)
        return known[line, column]

    for i, col, sentence in sentences:
        if not aim.search(sentence) or NOT_NOW.search(sentence):
            continue
        listed_re = listed_pattern()
        spans = [(m.start(), m.end()) for m in names.finditer(sentence)]
        ends = [b for _a, b in spans]
        starts = [a for a, _b in spans]
        # what each rank looks back or ahead for, found once per sentence: a hostile sentence of
        # thousands of ranks costs one pass per rank over a few characters, not over the sentence
        first_he = next((k for k, c in enumerate(sentence) if c in HE), None)
        self_at = sentence.find("自己")
        as_at = min((k for k in (sentence.find("身为"), sentence.find("作为")) if k >= 0), default=-1)
        for r in aim.finditer(sentence):
            stage = short.get(r.group(), r.group())
            k = bisect.bisect_right(starts, r.start())
            if _inside(spans, starts, r.start()) and sentence[slice(*spans[k - 1])] != r.group():
                continue  # 马工段长, 顾主任: an alias the card gives, its own (the rank alone names its one holder
                # only as a person: 韩工段长 still says 韩 is one)
            tail = sentence[max(0, r.start() - LOOK_BACK):r.start()]
            aspired = ASPIRE.search(tail)
            if sentence.startswith(GROUP_OF, r.end()):
                continue  # 冲脚夫们一摆手: a group of that stage, nobody's rank
            if told_back(tail) and quoted_at(lines[i], col - 1 + r.start()):
                continue  # “…的时候，他还是纤夫”, “后来他当了舵工”: a rank of a past told in speech
            if (GONE_TIME_SAID if quoted_at(lines[i], col - 1 + r.start()) else GONE_TIME).search(tail):
                continue  # 可是那天早上进马厩的鲁提领: a rank on a remembered day, held then (F2, stop 59)
            now_reached = aspired is not None and reached(tail)  # 刚当上灶丁, 才熬上水手: the stage now, not below it
            below = aspired is not None and not now_reached
            full = pattern.match(sentence, r.start()) if stage == r.group() else None
            said_text = full.group() if full else stage
            levelled = bool(full and (full.group(2) or full.group(3)))
            who: str | None = None
            listed = listed_re.search(tail)
            being = apposed = None
            after = names.match(sentence, full.end() if full else r.end())
            titled = False  # the stage said as a title or an address (陈老板): courtesy may raise it, never lower it
            entitled = False  # the stage after a title of the person's own (慧嫔 for 慧贵人): a rank given, not courtesy
            stem = next((t for t in (tail[-2:], tail[-1:]) if t and len(by_title.get(t, ())) == 1), None)
            if MONTH_BACK.search(tail):
                continue  # 四月里我还是个粗使: a rank of a month gone by
            if HELD_WHEN.match(sentence, full.end() if full else r.end()):
                continue  # 开春以前还是驾驶员的时候, 当R那会儿: the time the rank was held, not the rank now
            if listed and listed.start(1) and tail[listed.start(1) - 1] in VOCATIVE_OPENS \
                    and not ROSTER_CLOSE.match(sentence, full.end() if full else r.end()):
                listed = None  # “高副班长，班长要讲啥事？”: an address, then another's rank the next clause's subject
            if listed:
                who = listed.group(1)  # a roster's entry (X，R，…): the rank closes it
            elif after and not below:
                at = col - 1 + r.start()
                # 二号炉的五级工周大海: the stage is his title; a title is courtesy only in someone's mouth — the
                # narration's 山匠蒋烟杆 says what he is
                who, titled = after.group(), quoted_at(lines[i], at) and not roster_entry(sentence, r.start(), after.end())
            elif stem is not None and not below and not _inside(spans, starts, r.start() - len(stem)):
                who, titled, entitled = by_title[stem][0], True, True
            elif tail and not below and tail[-1] in by_surname and len(by_surname[tail[-1]]) == 1 \
                    and not (r.start() >= 2 and _inside(spans, starts, r.start() - 2)):
                who, titled = by_surname[tail[-1]][0], True  # 韩工段长: a surname and a stage, an address
            elif levelled or below or now_reached or (being := BEING.search(tail)) or (apposed := APPOSED.search(tail)):
                before = bisect.bisect_right(ends, r.start())
                if before >= 2 and spans[before - 1][0] > 0 and LIKE.search(sentence[max(0, spans[before - 1][0] - LOOK_BACK):spans[before - 1][0]]) \
                        and COMPARED.match(sentence, spans[before - 1][1]):
                    before -= 1  # 赵大个跟三宝一样，还是学徒: 赵大个 is said to be one, like 三宝
                who = aliases.get(sentence[slice(*spans[before - 1])], sentence[slice(*spans[before - 1])]) if before else None
                subject = spans[before - 1][1] if before else -1
                between = sentence[subject:r.start() - (len(being.group()) if being and not levelled and not below else 0)]
                if not levelled and not below and subject >= 0 and ("的" in between or len(between) > 12
                                                                      or (len(between) > 8 and CLAUSE_MARKS.search(between))):
                    continue  # 林晚面前的不过是个练气弟子: the rank is someone else's (在这铺子里不过是个当学徒的 is still his)
                if subject >= 0 and OTHER_SUBJECT.search(between):
                    continue  # 人家沈老九是内舍生，你是外舍生: the clause has its own subject, not the name before
                he = first_he if first_he is not None and first_he < r.start() else None
                if who is None and he is not None and apposed:  # 他一个学徒: of the one named before who has a rank
                    if (i, col + he) not in ranked:
                        ranked[i, col + he] = _antecedent(names, lines, i, col + he, world, pov,
                                                          lambda f: bool(world.cards[f].get("境界")))
                    who = ranked[i, col + he]
                elif who is None and he is not None:
                    who = antecedent(i, col + he)
                if who is None and 0 <= self_at <= r.start() - 2:
                    who = pov  # 自己眼下不过是个府史: the point of view's own thought of himself
                if who is None and BEING.search(tail) and 0 <= as_at <= r.start() - 2:
                    k = bisect.bisect_left(starts, r.end())
                    who = sentence[slice(*spans[k])] if k < len(spans) else None  # 作为一个住院医，林知夏…: the clause's subject follows
                if who is None and below and not spans:
                    who = antecedent(i, col + first_he) if first_he is not None else pov
            else:
                continue  # a bare stage name (筑基) says no one's level
            who = aliases.get(who or "", who or "")
            card = world.cards.get(who, {})
            if not who or who in set_realm or not card.get("境界") or explained:
                continue
            old, said = rank(str(card["境界"]), world.stages), rank(said_text, world.stages)
            if not old or not said:
                continue
            if not levelled:
                old, said = (old[0], 0), (said[0], 0)  # a bare stage speaks of the stage only
            if below and old >= said:
                out.append(Finding("连贯", ERROR, f"{who} 的境界已是「{card['境界']}」（角色卡·境界），正文却说{who}还在「{stage}」之下",
                                   first_line + i, col, sentence.strip()[:60]))
            elif not below and said < old:
                out.append(Finding("连贯", ERROR, f"{who} 的境界是「{card['境界']}」（角色卡·境界），正文写成「{said_text}」，"
                                   f"没有跌境的缘由", first_line + i, col, sentence.strip()[:60], Subject("境界", who, said_text)))
            elif not below and entitled and said > old:
                out.append(Finding("连贯", WARN, f"{who} 的境界是「{card['境界']}」（角色卡·境界），正文用{who}的封号叫成更高的"
                                   f"「{said_text}」；本章晋了就在设定变更写「{who}.境界={said_text}」", first_line + i, col,
                                   sentence.strip()[:60]))
            elif not below and not titled and not apposed and (listed or not BELITTLE.search(tail)) and said > old:  # a breakthrough told in prose and never recorded, or a slip: the author says
                out.append(Finding("连贯", WARN, f"{who} 的境界是「{card['境界']}」（角色卡·境界），正文写成更高的「{said_text}」；"
                                   f"本章突破了就在设定变更写「{who}.境界={said_text}」", first_line + i, col, sentence.strip()[:60]))
    return out


def _generic_ranks(world: World, names: re.Pattern[str], lines: list[str], sentences: list[tuple[int, int, str]],
                   first_line: int, pov: str | None, set_realm: set[str], text: str, found: list[Finding],
                   asked: dict[tuple[int, int], str | None],
                   spoken_to: Callable[[int, int], str | None] | None = None,
                   present: frozenset[str] = frozenset()) -> list[Finding]:
    """The generic reader's 境界 findings (:mod:`lw_storyrepo.ranks`) that the older rules have not already
    made on the same line for the same person (``spoken_to``: :func:`_other_of_two`; ``present``: the draft's 在场)."""
    reader = world.rank_reader()
    if reader.rung_re is None:
        return []
    def antecedent(line: int, column: int) -> str | None:
        if (line, column) not in asked:
            asked[line, column] = _antecedent(names, lines, line, column, world, pov)
        return asked[line, column]

    new = reader.findings(names, world.aliases, sentences, first_line, text, set_realm, antecedent, pov, lines, spoken_to,
                          present)
    if not DOWN_EVENTS.search(text):
        new += steps(reader, names, world.aliases, sentences, first_line, set_realm)
    seen = {(f.line, f.message.split(" ", 1)[0]) for f in found if "境界" in f.message}
    out: list[Finding] = []
    for f in new:
        key = (f.line, f.message.split(" ", 1)[0])
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


REACTION = re.compile(r"愣|怔|点头|点了点头|摇头|摇了摇头|脸一红|红了脸|没吭声|不吭声|没说话|不说话|低下头|低了头|一惊|没接话|没理")
"""What the one spoken to does right after words (她愣了一下, 他点点头): a pronoun doing it is the listener, no speaker
(r63-17)."""
SPEAKING = re.compile(r"说|道|问|嚷|喊|骂|吼|笑着|补了一句|压低|学着|接着|开口|嘀咕|念叨|叹")
"""A verb or manner of speaking: what a pronoun's clause by words must hold to stand for their speaker (她学着他的样子…,
她笑着说) — a face, a look, a silence or leaving says nothing of who spoke (r63-17's follow-up)."""
REACTION_REACH = 12
"""How many characters after a quote's close :func:`_other_of_two` reads for a listener's :data:`REACTION`."""


def _other_of_two(voices: list[Any], cast: set[str], lines: list[str] | None = None) -> Callable[[int, int], str | None]:
    """Who the words standing at (line, column) of the draft are spoken to in a scene of two (``cast``, the draft's 在场
    as the cards name them): the one of the two who does not say them, when ``voices`` give them a speaker of the two;
    None otherwise (a scene of three, words nobody is said to say). One talks to the other (hk1, stop 63)."""
    by_line = _by_line(voices) if len(cast) == 2 else {}

    def spoken_to(line: int, column: int) -> str | None:
        voice = next((v for v in by_line.get(line, ()) if v.column - 1 <= column < v.column - 1 + len(v.words)), None)
        if voice is not None and voice.guessed and lines is not None:
            close = voice.column + len(voice.words)  # a guessed speaker whose words a reaction follows (“…”她愣了一下):
            if REACTION.search(lines[line], close, close + REACTION_REACH):  # who reacts is unsure, so who is spoken to (r63-17)
                return None
            told = re.sub(r"“[^”]*”?", "", lines[line])  # the line's narration: a guess stands only by a pronoun's speaking
            if not SPEAKING.search(told):
                return None
        speaker = str(voice.speaker) if voice is not None else None
        return next((p for p in cast if p != speaker), None) if speaker in cast else None
    return spoken_to


def _register(world: World, names: re.Pattern[str], sentences: list[tuple[int, int, str]], first_line: int,
              set_realm: set[str]) -> list[Finding]:
    """境界 a register gives lower than the card, the stage first and its people after a colon
    (a roster, a duty board: ``主治：林知远、沈曼``), compared by stage only."""
    stages = "|".join(map(re.escape, sorted(world.stages, key=len, reverse=True)))
    source = rf"(?:^|(?<=[\s，,。；;（(]))({stages})\s*[：:]\s*((?:{names.pattern})(?:\s*[、，,/／和]\s*(?:{names.pattern}))*)"
    # what every entry holds, of the book's stages alone (the same string for every draft of a book: re's own cache
    # keeps it compiled); the pattern of this draft's names is compiled at the first sentence that has it
    stage_colon = re.compile(rf"(?:{stages})\s*[：:]")
    entry_re = functools.cache(lambda: re.compile(source))
    out: list[Finding] = []
    for i, col, sentence in sentences:
        if ":" not in sentence and "：" not in sentence or NOT_NOW.search(sentence) or not stage_colon.search(sentence):
            continue
        for m in entry_re().finditer(sentence):
            for n in names.finditer(m.group(2)):
                who = world.aliases.get(n.group(), n.group())
                card = world.cards.get(who, {})
                old, said = rank(str(card.get("境界") or ""), world.stages), rank(m.group(1), world.stages)
                if who in set_realm or not old or not said or said[0] >= old[0]:
                    continue
                out.append(Finding("连贯", ERROR, f"{who} 的境界是「{card['境界']}」（角色卡·境界），正文的名单把{who}列在「{m.group(1)}」，"
                                   f"没有跌境的缘由", first_line + i, col, sentence.strip()[:60], Subject("境界", who, m.group(1))))
    return out


ONE_CHAR_RANK_AFTER = "位娘的了呢吧啊呀么"
"""What may follow a rank of one character for it to be the rank (妃位, 慧嫔娘娘, 封了嫔的): any other character
makes another word of it (嫔妾 says "I", 嫔妃 all the consorts)."""


def _stage_word(stage: str, stages: tuple[str, ...]) -> str:
    """The pattern of a stage in prose; a one-character stage only as a word of its own (:data:`ONE_CHAR_RANK_AFTER`)."""
    if len(stage) > 1:
        return re.escape(stage)
    ones = "".join(x for x in stages if len(x) == 1)
    return rf"(?<![{ones}]){re.escape(stage)}(?=[{ONE_CHAR_RANK_AFTER}]|[^\u4e00-\u9fff]|$)"


def _inside(spans: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    """Whether position ``at`` lies in one of ``spans`` (sorted, not overlapping; ``starts`` their starts)."""
    k = bisect.bisect_right(starts, at)
    return bool(k) and spans[k - 1][0] <= at < spans[k - 1][1]

_AFTER_SIGHT = "".join(f"(?<!{w})" for w in SIGHTED.split("|"))
"""Not after a :data:`SIGHTED` word: a kin word a sighting ends on stands alone there (他看见娘站在街口, 瞧见妈蹲在…) —
what the point of view sees is the one they call so, as after the copula (是爹). Read only by the sighting reader
(``sighted`` of :func:`_forms_of`), not by every reader of names (R57's F4b: the 状态 reader)."""
KIN_COMPOUND_BEFORE = "表堂大小姑"
"""What, before a one-character kin word, makes it part of another word (大妈, 小姨, 表哥, 姑娘 — a girl, not 娘)."""
KIN_COMPOUND_AFTER = "夫们子妹弟儿媳"
"""What, after any one-character kin word, makes it part of another word (姐夫, 哥们, 妈妈 by its own character)."""
KIN_COMPOUNDS = {"娘": "舅家俩", "姑": "娘爷妈父婆家", "舅": "妈母公家", "叔": "公家", "奶": "妈娘", "爷": "俩", "哥": "俩",
                 "姐": "俩", "弟": "兄"}
"""What, after one kin word, makes another of it (娘舅 — a maternal uncle, 娘家 — a married woman's family, 娘俩, 姑娘 —
a girl, 姑爷, 姑妈, 舅妈, 叔公, 奶妈/奶娘 — a wet nurse, 爷俩, 哥俩, 弟兄; not 娘亲, which is the mother, nor 爹娘, where
the father is one of the two: R57's F4c)."""
UNSEEN_BEFORE = re.compile(r"恍惚|恍恍惚惚|仿佛|仿彿|彷彿|好像|好似|似乎|像是|依稀|盼|巴望|巴不得|指望|希望|但愿|想着|想象|想像|"
                           r"幻想|梦|要是|如果|假如|假若|若是|倘若|万一|没|不曾|未曾|哪能|怎能|能不能")
"""What, in the clause before a sighting word, makes the sighting not one of the scene (R57's F4: 恍惚看见娘…,
仿佛又看见娘坐在灯下, 盼着一抬头就看见娘, 要是能看见娘…就好了, 没看见娘站在渡口): imagined, dreamt, wished, supposed
or denied — no one is there."""
UNSEEN_SPAN = 24
"""How far back from a sighting word :data:`UNSEEN_BEFORE` is looked for (within its clause)."""
_CLAUSE_START = re.compile(r"[。！？!?；;，,：:\n]")
"""What ends a clause: the clause before a position is the text after the last of these."""


def _forms_of(world: World, people: Iterable[str], loose: bool = False, sighted: bool = False) -> str:
    """A pattern of every name, alias and kinship word of ``people``, with the one-character
    words a point of view calls its kin (妈 for 妈妈, 姐 for 姐姐) where they stand alone as a
    clause's subject (妈系着围裙…; not 大妈, 姐夫, 娘舅: :data:`KIN_COMPOUND_BEFORE`, :data:`KIN_COMPOUND_AFTER`,
    :data:`KIN_COMPOUNDS`) —
    anywhere, when ``loose``: 他想起姐上回来信; after a sighting word too, when ``sighted`` (:data:`_AFTER_SIGHT`).
    A name is not found inside a longer word (:func:`lw_storyrepo.propernouns.not_inside_longer`: 老板 in 老板娘)."""
    wanted = set(people)
    forms = sorted((a for a, n in world.aliases.items() if n in wanted and len(a) >= 2), key=len, reverse=True)
    # a form that ends another's longer name is theirs there (先生 of 二先生): the rest of that name must not lead it
    ending = Ends(forms)  # each other name cut at the forms' lengths, not tried against each form
    leads: dict[str, list[str]] = {f: [] for f in forms}
    for a, n in world.aliases.items():
        if n not in wanted:
            for f in ending.of(a, shorter=True):
                leads[f].append(f"(?<!{re.escape(a[:-len(f)])})")
    lead = {f: "".join(leads[f]) for f in forms}
    single = sorted({a[0] for a, n in world.aliases.items() if n in wanted and a in world.indirect
                     and (len(a) == 1 or (len(a) == 2 and a[0] == a[1]))})  # 爹 as well as 妈 of 妈妈
    # 抬头一看，是爹: the copula leaves the word alone; so does a sighting (他看见娘站在…: :data:`SIGHTED`)
    edge = "" if loose else rf"(?<![\u4e00-\u9fff](?<!是){_AFTER_SIGHT if sighted else ''})"
    alone = [rf"{edge}(?<![{c}{KIN_COMPOUND_BEFORE}]){c}(?![{c}{KIN_COMPOUND_AFTER}{KIN_COMPOUNDS.get(c, '')}])"
             for c in single]
    # a person's name is not found inside a longer word (老板 in 老板娘: propernouns.not_inside_longer)
    named = "|".join(lead[f] + re.escape(f) for f in forms)
    guard = not_inside_longer(forms)
    named = f"(?:{named}){guard}" if guard else named
    return "|".join([*([named] if named else []), *alone])


_DAY_WORDS = {"今天": 0, "今儿": 0, "今日": 0, "今朝": 0, "明天": 1, "明儿": 1, "明日": 1, "明朝": 1, "后天": 2, "后日": 2,
              "昨天": -1, "昨儿": -1, "昨日": -1, "前天": -2, "前日": -2}
"""Days counted from today, in the words of the north, of Wu (今朝 is today, 明朝 tomorrow) and of old prose (明日)."""
_WEEKDAY = "一二三四五六日天"
_CN_NUM = r"[\d〇零一二两三四五六七八九十廿卅]{1,3}"
STATED_WEEKDAY = re.compile(rf"(?:星期|礼拜|周)([{_WEEKDAY}])")
"""The weekday an in-book time writes (…十一月六日 星期三): :func:`_said_today` counts from it when the calendar
is not one it can count (an era's years)."""
_LUNAR_DAY = r"初[一二三四五六七八九十]|廿[一二三四五六七八九]?|三十|二十[一二三四五六七八九]?|十[一二三四五六七八九]?"
"""A day of the month written the old way, without 日 or 号 (初九, 十五, 廿三)."""
SERIAL_NOUNS = "箱井楼车房床机线窑炉仓船门舱洞缸罐锅灶池窖坑槽棚圈栏柜桌窗库栈码泊塔桥田地队"
"""Things counted by a number and 号 (三号箱, 五号井, 七号船, 二号炉, 四号地, 三号线, 十号床, 七号队): a numeral and 号
before one, standing as a word of its own in the dictionary's cut (:func:`_numbered_thing`), is a serial number, not a
day of the month (今天三号箱归你查; but 今天八号窗外…, 今天十号车站…: 窗外, 车站 are words). Never a time of day (三号晚上)."""
SERIAL_NOT = "租票费钱款诊市"
"""What, after a noun of :data:`SERIAL_NOUNS`, makes the 号 a day again: a payment, a ticket or a clinic of that day
(今天三号房租到期, 明天十号车票, 明天十号门诊休息)."""
NUMBER_SPAN = re.compile(rf"(?:到|至|和|或|、|—|－|-|~|～)(?:{_CN_NUM})号")
"""A second number and 号 joined to the first (三号到十号, 三号、五号): a run of numbered things, or of days — which today
is not, unless the run counts from it (从今天三号到十号: :data:`SPAN_FROM`)."""
SPAN_FROM = ("从", "自", "打")
"""What, right before the day word, makes a run of days start today (从今天三号到十号)."""
SPAN_OF_THINGS = re.compile(rf"[{SERIAL_NOUNS}]|(?:都|全)?(?:归|交|查|检|验|修|装|卸|搬|清点|盘点)")
"""What, right after a run (:data:`NUMBER_SPAN`), makes it a run of numbered things: the thing's noun (三号到六号窑) or a
verb of handing or checking things (三号到六号归你看火); a bare run (今天三号到十号我都守在窑厂) is days from today (fu1b)."""
SERIAL_CUT = 4
"""How many characters after 号 the dictionary cuts to see whether a noun of :data:`SERIAL_NOUNS` stands alone."""


def _numbered_thing(text: str, at: int) -> bool:
    """Whether a numeral and 号 ending at ``at`` number a thing (三号箱归你查, 五号井归你下): the next character is a
    noun of :data:`SERIAL_NOUNS`, not a payment or ticket of the day (:data:`SERIAL_NOT`), and the dictionary's cut of
    what follows keeps it a word of its own — not the start of a common word (窗外, 车站, 门口, 地里, 房租)."""
    noun = text[at:at + 1]
    if not noun or noun not in SERIAL_NOUNS or text[at + 1:at + 2] in tuple(SERIAL_NOT):
        return False
    return bool(lexicon().jieba.lcut(text[at:at + SERIAL_CUT], HMM=False)[0] == noun)
TODAY = re.compile(rf"({'|'.join(_DAY_WORDS)})(?:就|才|已经|已|可|都|都已经)?(?:是|就是|正是)?"
                   rf"(?:(?:星期|礼拜|周)([{_WEEKDAY}])|(?:({_CN_NUM})月)?"
                   rf"(?:({_CN_NUM})(?:号|日)(?![子的前后以之])|"
                   rf"({_LUNAR_DAY})(?=了?(?:[，,。！？；;]|$))))")
"""What the prose says today is (今天是星期一, 明天就是十二号了, 今天都十三号了, 今日是十五，望日): a weekday or a day
of the month, the old way's bare day only where its clause ends, a 了 before its end allowed (明日就是二十了, 今天十五个人 is a
count); not a day named by what is
on it or before it (今天都是十三号的票, 明天是十五号前最后一天), A numbered thing after 号 (今天三号箱归你查: :func:`_numbered_thing`)
and a day followed by a run (:data:`NUMBER_SPAN`) are left to :func:`_said_today`."""
FEAST_NOW = re.compile(r"(元宵|春节|清明|端午|七夕|中秋|重阳|国庆|元旦|腊八|冬至)(?:节)?(?:刚过|刚刚过|才过|刚过去|就在今天|就是今天|"
                       r"到了|来了|当天)|(?:今天|今儿|今日)(?:是|就是|正是)(元宵|春节|清明|端午|七夕|中秋|重阳|国庆|元旦|腊八|冬至)")
"""A festival the prose says is now (元宵节刚过去三天, 今天是中秋): now falls in its months."""
LUNAR_FEAST_DAYS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "春节": ((1, 1), (1, 1)), "大年初一": ((1, 1), (1, 1)), "元宵": ((1, 15), (1, 15)), "上元": ((1, 15), (1, 15)),
    "龙抬头": ((2, 2), (2, 2)), "端午": ((5, 5), (5, 5)), "端阳": ((5, 5), (5, 5)), "七夕": ((7, 7), (7, 7)),
    "中元": ((7, 15), (7, 15)), "中秋": ((8, 15), (8, 15)), "重阳": ((9, 9), (9, 9)), "下元": ((10, 15), (10, 15)),
    "腊八": ((12, 8), (12, 8)), "小年": ((12, 23), (12, 24)), "除夕": ((12, 29), (12, 30)), "大年三十": ((12, 29), (12, 30)),
    # the folk names of the same days, by their month and the full moon (T4, stop 55)
    "七月半": ((7, 15), (7, 15)), "鬼节": ((7, 15), (7, 15)), "盂兰节": ((7, 15), (7, 15)), "八月半": ((8, 15), (8, 15)),
    "八月节": ((8, 15), (8, 15)), "五月节": ((5, 5), (5, 5)), "灯节": ((1, 15), (1, 15)),
    "二月二": ((2, 2), (2, 2)), "三月三": ((3, 3), (3, 3)), "九月九": ((9, 9), (9, 9)), "大年夜": ((12, 29), (12, 30)),
    "年三十": ((12, 29), (12, 30)), "祭灶": ((12, 23), (12, 24))}
"""The lunar days a festival falls on (小年 the 23rd in the north, the 24th in the south; 除夕 the month's
last day), by its book name or its folk one (七月半, 八月节, 二月二): a lunar book's today said to be one of them must be
that day."""
_FEASTS = "|".join(sorted(LUNAR_FEAST_DAYS, key=len, reverse=True))
FEAST_TODAY = re.compile(rf"(?:今天|今儿个?|今日|这天)(?:就|可|才|正)?(?:是|就是|正是|正逢|逢着|赶上|过)了?(?:个)?({_FEASTS})(?:节)?"
                         rf"(?![的那]|[〇一二三四五六七八九十廿]|以前|之前|以后|之后|前后)|({_FEASTS})(?:节)?(?:就在今天|就是今天|当天)")
"""A festival the prose says is today (今儿是小年, 今天过中秋): not 今天是小年的前一天."""
_NOT_DAY_WORDS = frozenset({"明朝"})
"""Day words that are also names (明朝 the Ming: 明朝重阳登高 is a custom of the dynasty): no festival's day."""
_FEAST_LINK = r"是|就是|正是|正逢|逢着|赶上|逢|过"
"""The verbs that put a festival on a day (明天就是中秋, 后天过小年)."""
FEAST_ON_DAY = re.compile(
    rf"(?<![先今以之大])({'|'.join(w for w, d in _DAY_WORDS.items() if d and w not in _NOT_DAY_WORDS)})"
    rf"(?:就|才|已经|已|都)?(?:(?:{_FEAST_LINK})了?(?:个)?|(?=(?:{_FEASTS})(?:节)?了?(?:[，,。！!；;…”」\n]|$)))"
    rf"({_FEASTS})(?:节)?(?![的那吗么呢]|[〇一二三四五六七八九十廿]|以前|之前|以后|之后|前后)(?![^。！!；;\n]*[？?])")
"""A festival the prose puts on a day counted from today (前日重阳, 明天就是中秋, 后天过小年): in a lunar book that day, today
moved by the day word (:data:`_DAY_WORDS`), must be the festival's (:data:`LUNAR_FEAST_DAYS`); T2, stop 52. A linking verb
(:data:`_FEAST_LINK`) or the festival closing its clause (明天中秋，…) says so: a word after it names a thing (前天腊八粥,
明天中秋月饼) or a numeral a longer date (明天就是三月三十, not 三月三: T4, stop 55); silent on a question (明天是中秋吗？)
and for :data:`_NOT_DAY_WORDS` (R52's finding 1)."""
SOLAR_FEAST_DAYS: dict[str, tuple[int, int]] = {
    "国庆": (10, 1), "元旦": (1, 1), "五一": (5, 1), "劳动节": (5, 1), "六一": (6, 1), "儿童节": (6, 1),
    "建军节": (8, 1), "教师节": (9, 10), "妇女节": (3, 8), "青年节": (5, 4), "圣诞": (12, 25)}
"""The Gregorian days of the festivals a Gregorian book counts from (国庆节过去才三天 is the fourth of October)."""
_COUNTED_FEASTS = "|".join(sorted({*LUNAR_FEAST_DAYS, *SOLAR_FEAST_DAYS}, key=len, reverse=True))
FEAST_COUNTED = re.compile(
    rf"^(?P<feast>{_COUNTED_FEASTS})(?:节)?(?:才|刚|刚刚|已经|都)?过(?:去)?了?(?:才|刚|刚刚|已经|都|有)?"
    r"(?P<n>[一二两三四五六七八九十]{1,2})天(?:了|啦)?[，,]"
    r"(?P<rest>(?!(?:便|就|才|正|也|又)?是|(?:便|就|才)?到了?|该)(?:(?!一走|走了|回了|离了|离开|出了口|出了门|去了|动身|启程|上路|搬走|过世|去世|死了|没了|后来)[^。！？!?；;\n])*)"
    r"(?:[。！!；;…]|$)")
"""A festival counted back in days opening a paragraph that opens the chapter or a scene (:func:`_feast_counted`), the
scene's present after it (国庆节过去才三天，山上就落了头一场霜，…; 中秋过了才三天，灶屋里还剩半坛子桂花糖，…): today
is that many days after the festival's day (:data:`LUNAR_FEAST_DAYS` in a lunar book, :data:`SOLAR_FEAST_DAYS` in a
Gregorian one). Backstory told by its distance from a festival is not it (R58 on T7): a clause after the count where
someone goes away or is gone (中秋过了才三天，二叔就回了关外; 元宵过了才三天，他就跟着商队出了口，一走就是大半年) or
later things are told (后来), a question, a count not opening a scene (T8, stop 59: 连续性-盲评五, 四十二, 四十四); nor a
count that is the subject of a 是-sentence naming another day (重阳过了三天，便是娘的忌日; …，才是…娶亲的日子: fh12, R59's
T8-2)."""
SCENE_BREAK = re.compile(r"\s*(?:(?:[*＊—\-~～·]\s*){3,}|(?:[◆◇●○※]\s*)+|…{2,}|\.{6,})\s*")
"""A line that breaks a scene: three or more asterisks or dashes, spaced or not (``***``, ``* * *``), ornaments (◆, ◇ ◇ ◇),
or a bare ellipsis (……) (fh12, R59's T8-3)."""
CHAPTER_HEADING = re.compile(r"\s*(?:#{1,6}(?:\s|$)|第[一二三四五六七八九十百千零〇两\d]+[章节回卷部](?:\s|$|[：:·、]))")
"""A chapter's heading line (``# 第一章 霜``, ``第三章``): not the chapter's first paragraph (fh12, R59's T8-3)."""


def _feast_counted(now: str, lines: list[str], first_line: int) -> list[Finding]:
    """书内时间 the prose contradicts by a festival counted back in days (:data:`FEAST_COUNTED`) in the narration's
    first sentence of the chapter's first paragraph (past its heading: :data:`CHAPTER_HEADING`) or of the first after a
    scene break (:data:`SCENE_BREAK`): the
    in-book day is not that many days after the festival's (a day either way across a month's end: a lunar month's
    length is unknown, a Gregorian year's February too; a festival still to come this year is last year's). A sentence told outside
    the now (:data:`NOT_NOW`, :data:`NOT_THIS_YEAR`) is silent."""
    read = _dated_today(now)
    if read is None:
        return []
    _era, _year, month, day = read
    lunar = _lunar(now)
    days_of = LUNAR_FEAST_DAYS if lunar else {w: (d, d) for w, d in SOLAR_FEAST_DAYS.items()}
    year_days = _day_of_year(12, 30, True) if lunar else 365
    out: list[Finding] = []
    opening = True
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if SCENE_BREAK.fullmatch(line):
            opening = True
            continue
        if opening and CHAPTER_HEADING.match(line):
            continue  # # 第一章 霜: the paragraph after the heading opens the chapter
        was_opening, opening = opening, False
        m = FEAST_COUNTED.match(line.strip()) if was_opening else None
        if m is None or m.group("feast") not in days_of:
            continue
        sentence = line.strip()[:m.end()]
        if NOT_NOW.search(sentence) or NOT_THIS_YEAR.search(sentence):
            continue
        days = _cn_int(m.group("n"))
        first_day, last_day = days_of[m.group("feast")]
        since_last, since_first = ((_day_of_year(month, day, lunar) - _day_of_year(*on, lunar)) % year_days
                                   for on in (last_day, first_day))
        slack = 0 if first_day[0] == month else 1
        if days is not None and not since_last - slack <= days <= since_first + slack:
            said = m.group()[:m.start("rest") - 1]
            out.append(Finding("连贯", ERROR, f"正文说「{said}」，与本章的书内时间「{now}」对不上", first_line + i,
                               line.find(said) + 1, sentence[:60]))
    return out


SEASON_NOW: dict[str, frozenset[int]] = {
    "冬": frozenset((10, 11, 12, 1, 2, 3)), "夏": frozenset(range(4, 10)), "春": frozenset(range(1, 6)),
    "秋": frozenset(range(7, 13)), "伏": frozenset(range(6, 9)), "九": frozenset((11, 12, 1, 2, 3))}
"""The months a season can be, by its word, in either calendar (冬 runs over the new year; 伏 the
dog days, 九 the nine-nines after the solstice)."""
SEASON_CHARS = "冬夏秋春伏九"
"""The characters :data:`SAID_SEASON` reads a season by."""
SAID_SEASON = re.compile(r"入([冬夏秋春伏九])以来|(?:今天|今儿|今日|眼下|如今|正值|正是|正当|时值|已是|已经是|已经入)(?:是)?"
                         r"[^。！？，,“”在从往去]{0,3}?(?:隆|寒|深|盛|酷|初|大)?([冬夏秋春])(?:天|季|日|时节)?(?![瓜装衣被鞋令营])|"
                         r"(?:三|头|二|中|末)([伏九])天")
"""The prose saying what season it is now (今天是入冬以来最冷的一天, 正值盛夏, 三伏天): not a thing named
by a season (冬瓜, 夏令营), nor a place a preposition of place leads to (今天一早在春熙路口, 今天往冬青路去)."""
PAST_DATE = re.compile(rf"(?P<since>自打|自从|打从)?(?:(?P<month>{_CN_NUM}|正|冬|腊)月)(?P<day>初[一二三四五六七八九十]|{_CN_NUM})(?:日|号)?"
                       r"(?:(?:那天|那日|那晚|那夜|那一天|当天|那会儿)(?:就|才|刚|刚刚|已经|便)"
                       r"|(?(since)[^，,。！？]{0,8}?(?:以后|之后|以来)|(?!)))")
"""A day of a month told as past (十月初一那天刚上山的, 3月8号那天就已经…, 自打腊月初八封山以后): when the in-book date is before it
in the same year, and the sentence says no other year (去年) or future (等到, 要), time has gone backwards."""
COMING = re.compile(r"等到|等|到了|要|将|会|得|准备|打算|计划|明年|后年|下个月|再过|还有|之前|以前|前夕|快到")
"""What makes a day in the months ahead a plan, not a past (等到十月初一那天就…)."""
NOT_THIS_YEAR = re.compile(r"去年|前年|上回|上次|那年|往年|每年|明年|后年")
LUNAR_MONTHS: dict[str, tuple[int, int]] = {
    # each 中气 falls in its own month (a month without one is the leap month); the 节 before it in that
    # month or the one before
    "雨水": (1, 1), "春分": (2, 2), "谷雨": (3, 3), "小满": (4, 4), "夏至": (5, 5), "大暑": (6, 6), "处暑": (7, 7),
    "秋分": (8, 8), "霜降": (9, 9), "小雪": (10, 10), "冬至": (11, 11), "大寒": (12, 12),
    "立春": (12, 1), "惊蛰": (1, 2), "清明": (2, 3), "立夏": (3, 4), "芒种": (4, 5), "小暑": (5, 6), "立秋": (6, 7),
    "白露": (7, 8), "寒露": (8, 9), "立冬": (9, 10), "大雪": (10, 11), "小寒": (11, 12),
    "寒食": (2, 3), "元宵": (1, 1), "上元": (1, 1), "端午": (5, 5), "端阳": (5, 5), "七夕": (7, 7), "中元": (7, 7),
    "中秋": (8, 8), "重阳": (9, 9), "腊八": (12, 12)}
"""The lunar months a 节气 or a festival falls in, for an in-book time in the lunar calendar (:func:`_lunar`):
narrower than :data:`SEASONS`, which must hold for either calendar."""
_TERMS = "|".join(sorted(LUNAR_MONTHS, key=len, reverse=True))
TERM_NOW = re.compile(rf"(?:今天|今儿个?|今日|这天|眼下)[^，,。！？；]{{0,3}}?(?:才|刚|正|就|已)?(?:交|是|逢|到|打)了?({_TERMS})|"
                      rf"(?:才|刚|刚刚|正)(?:交|打|逢|过)了?({_TERMS})|({_TERMS})(?:节)?(?:刚过|才过|刚到|当天|这天|就在今天)")
"""A 节气 the prose says is now (今儿才交惊蛰, 刚过了清明): in a lunar book it falls in :data:`LUNAR_MONTHS`."""
FULL_MOON = re.compile(r"满月|圆月|(?:滚圆|溜圆|浑圆|圆圆|圆溜溜|又大又圆)的月亮?|月亮(?:正|又|已经)?(?:滚圆|溜圆|圆了|正圆)|月正圆")
CRESCENT = re.compile(r"月牙|弯月|蛾眉月|一钩(?:新)?月|细细的月亮")
IN_SKY = re.compile(r"一轮|挂|升|当空|天上|天边|照|房脊|房檐|树梢|屋顶|东边|西边|云")
LIKENESS = re.compile(r"像|如|似|好比|仿佛|圆脸|脸|满月酒|满月礼|过满月|办满月")
"""A moon in a comparison (脸像满月) or a baby's first month (满月酒): no moon in tonight's sky."""


ERA_YEARS = {"民国": 1911, "中华民国": 1911, "公元": 0, "西元": 0, "明治": 1867, "大正": 1911, "昭和": 1925, "平成": 1988,
             "令和": 2018}
"""Eras that count Gregorian years, and the Gregorian year before their first (民国二十五年 is 1936, 昭和十年 1935)."""


def _gregorian(era: str, year: int | None) -> int | None:
    """The Gregorian year of an in-book year (no era: the year itself; an era of :data:`ERA_YEARS`: counted from
    its start); None for a reign no table counts (光绪) or no year."""
    if year is None:
        return None
    start = ERA_YEARS.get(era, None) if era else 0
    return year + start if start is not None else None


def _lunar(now: str) -> bool:
    """Whether an in-book time is a lunar date (初九, 腊月, 光绪二十六年; 民国 counted the Gregorian calendar): its
    days give the moon's phase."""
    if re.search(r"初[一二三四五六七八九十]|正月|腊月|冬月|[廿卅]", now):
        return True
    era = re.match(r"\s*([\u4e00-\u9fff]{2,4}?)[一二三四五六七八九十]+年", now)
    return era is not None and era.group(1) not in ERA_YEARS \
        and not set(era.group(1)) <= set("〇零一二三四五六七八九")  # 一九九六年 is a year's digits, no reign


SOLAR_TERM_DAYS: dict[str, tuple[int, int]] = {
    "小寒": (1, 5), "大寒": (1, 20), "立春": (2, 4), "雨水": (2, 19), "惊蛰": (3, 5), "春分": (3, 20), "清明": (4, 4),
    "谷雨": (4, 20), "立夏": (5, 5), "小满": (5, 21), "芒种": (6, 5), "夏至": (6, 21), "小暑": (7, 7), "大暑": (7, 22),
    "立秋": (8, 7), "处暑": (8, 23), "白露": (9, 7), "秋分": (9, 23), "寒露": (10, 8), "霜降": (10, 23), "立冬": (11, 7),
    "小雪": (11, 22), "大雪": (12, 7), "冬至": (12, 21)}
"""The Gregorian day each 节气 falls on, give or take two (it moves by a day or two over the years)."""
TERM_SLACK = (3, 8)
"""How many days before and after its day a 节气 may be said to be now (才交, 刚过 a week on)."""
SYNODIC = 29.530588
NEW_MOON = 730125.7599  # 2000-01-06 18:14 UTC as a proleptic Gregorian ordinal (datetime.date.toordinal)


def _gregorian_sky(year: int | None, month: int, day: int, sentence: str) -> str | None:
    """What a sentence says of a 节气 now or of tonight's moon that a Gregorian date cannot be (今天是清明 on
    May 20th; a full moon a week from the full): the words, or None. The moon needs the year."""
    term = TERM_NOW.search(sentence)
    if term:
        word = next(g for g in term.groups() if g)
        if word in SOLAR_TERM_DAYS:
            at = SOLAR_TERM_DAYS[word]
            try:
                gap = (datetime.date(2001, month, day) - datetime.date(2001, *at)).days
            except ValueError:
                return None
            gap = min((gap, gap - 365, gap + 365), key=abs)
            if not -TERM_SLACK[0] <= gap <= TERM_SLACK[1]:
                return term.group()
    if year is None or not 1800 <= year <= 2200 or LIKENESS.search(sentence) or not IN_SKY.search(sentence):
        return None
    try:
        age = (datetime.date(year, month, day).toordinal() + 0.5 - NEW_MOON) % SYNODIC
    except ValueError:
        return None
    full, thin = FULL_MOON.search(sentence), CRESCENT.search(sentence)
    if full and not 11 <= age <= 19:
        return full.group()
    if thin and 12.5 <= age <= 17:
        return thin.group()
    return None


def _lunar_sky(now: str, month: int | None, day: int | None, sentence: str) -> str | None:
    """What a sentence says of tonight's moon or of the 节气 that a lunar date cannot be (a full moon on the
    ninth, 今儿才交惊蛰 in the third month): the words, or None."""
    term = TERM_NOW.search(sentence)
    if term and month is not None:
        lo, hi = LUNAR_MONTHS[next(g for g in term.groups() if g)]
        if not (lo <= month <= hi or (lo > hi and (month >= lo or month <= hi))):
            return term.group()
    if day is None or LIKENESS.search(sentence) or not IN_SKY.search(sentence):
        return None
    full = FULL_MOON.search(sentence)
    if full and (day <= 11 or day >= 20):
        return full.group()
    thin = CRESCENT.search(sentence)
    if thin and 12 <= day <= 18:
        return thin.group()
    return None


def _since_death(world: World, names: re.Pattern[str], now: str, sentences: list[tuple[int, int, str]],
                 first_line: int) -> list[Finding]:
    """书内时间: years said passed (:data:`ELAPSED`) in a sentence naming one dead character, more than the
    in-book date allows since their card's death (a year and twelve days called 两年多; a count said exactly,
    :data:`EXACTLY`, with a month's slack: 整整一年 seven months on)."""
    read = book_time(now)
    if read is None or read[1][0] is None or read[1][1] is None:
        return []
    era, (year, month, _day) = read
    out = []
    for i, col, sentence in sentences:
        m = ELAPSED.search(sentence)
        if not m or NOT_NOW.search(sentence[:m.start()]) \
                or not (re.match(DEATH_VERBS, m.group()) or OF_A_DEATH.search(sentence)
                        or not sentence[:m.start()].strip(_COUNT_LEAD)):
            continue
        dead = {world.aliases.get(n.group(), n.group()) for n in names.finditer(sentence)} & set(world.died)
        said = _cn_int(m.group("n").replace("几", "三")) if m.group("n") != "两" else 2
        if len(dead) != 1 or said is None:
            continue
        d_era, d_year, d_month = world.died[next(iter(dead))]
        if d_era != era:
            continue
        months = (year - d_year) * 12 + (month - d_month)  # type: ignore[operator]
        slack = 1 if m.group("exact") and not m.group("more") else 6  # 整整一年 is twelve months, give or take one
        if said * 12 + (6 if m.group("more") else 0) - (6 if m.group("nearly") in NEARLY else 0) > months + slack:
            out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可{next(iter(dead))}死于{d_era}{d_year}年{d_month}月"
                               f"（角色卡），到本章的书内时间「{now}」才{months}个月", first_line + i, col, sentence.strip()[:60]))
    return out


def _span_days(m: re.Match[str]) -> int | None:
    """The days a :data:`DAYS_PASSED` count says (一个礼拜 7, 俩星期 14, 一旬 10, 两个多月 60, 一年半 547, 半拉月 15), or None."""
    if m.group("months"):
        return MONTHS_AS_DAYS[m.group("months")]
    n = COUNT_WORDS.get(m.group("n")) or _cn_int(m.group("n"))
    if n is None:
        return None
    step = SPAN_UNITS[m.group("unit")]
    return n * step + (step // 2 if m.group("more3") == "半" else 0)


COMING_TO = ("来到", "开进", "住进", "搬进", "搬到", "调到", "抵达", "落脚", "到", "来", "进", "抵", "上")
"""The verbs of coming to a place (车队下午到沱沱河兵站, 11月28日随油罐车上沱沱河, 九月初三开进营地): what an arrival's place
follows, in the world's dated sentences (:func:`arrivals_of`) and in a span said since it (:data:`ARRIVED_SPAN`)."""
_COMING_TO = alternation(COMING_TO)
ARRIVAL_DATE = re.compile(rf"(?:(?P<year>[\d〇零一二三四五六七八九十]{{2,5}})年)?(?P<month>[\d〇零一二三四五六七八九十]{{1,3}}|[正冬腊])月"
                          rf"(?P<day>{_LUNAR_DAY}|[\d〇零一二三四五六七八九十廿卅]{{1,3}})(?![\d〇零一二三四五六七八九十])[日号]?")
"""A day written in a world's or a card's sentence (第1章是1982年11月20日, 九月二十, 十月初八): what an arrival there is dated by."""
COMPANY = re.compile(r"车队|船队|马队|驼队|商队|马帮|队伍|部队|全连|全排|全班|全队|大伙|大家|我们|咱们")
"""Words naming a company of people travelling together (车队, 队伍, 全连, 大伙): a dated coming whose words before the
verb hold one, and name no card, is the hero's company's (:func:`arrivals_of`); a coming of a thing or another body
(邮车, 寒潮, 慰问团, 检查组一行, 演员们) is not (R62's r62-1, r62-5: no 一行 or X们, said of any body)."""
WE_CAME = ("我们", "咱们", "俺们", "我们俩", "咱俩", "大伙儿", "大伙", "大家", "咱")
"""Who a span since an arrival is said of when it is the hero's company's (我们到沱沱河半个多月了: said by one who came
with the hero): the first person's plural."""
ARRIVED_SPAN = re.compile(rf"(?P<who>{alternation(WE_CAME)})(?:是|都|已经|也|这回|这趟)*(?:{_COMING_TO})"
                          rf"(?P<place>[\u4e00-\u9fff]{{2,8}}?)(?:这儿|这里|这边|来)?(?:以后|以来|之后)?[，,]?{SPAN_SAID}"
                          r"(?:了|啦|出头了)")
"""A span said since the hero's company came to a place, up to today (我们到沱沱河半个多月了, 咱们进山才三天了, 大伙来营地
一个多礼拜了; t11, stop 62): held by :func:`_since_arrival` to the day the world dates that coming."""
SENTENCE_ENDS = re.compile(r"[。！？；;\n]")


def arrivals_of(lore: str, texts: dict[str, str], places: Iterable[str], names: Iterable[str],
                aliases: dict[str, str]) -> tuple[tuple[frozenset[str], str, str], ...]:
    """Each coming to a known place a sentence of the world or of a card dates (第1章是1982年11月20日，车队下午到沱沱河兵站):
    ``(people named, place, the date's words)`` — the people the sentence names before the coming (a card's owner too),
    the place right after a verb of :data:`COMING_TO`, the last date (:data:`ARRIVAL_DATE`) before it in the sentence. Only a
    coming that names someone before its verb, or a company (:data:`COMPANY`) between its date and its verb (车队下午到…),
    is read: a coming of a thing or another body (邮车到沱沱河兵站, 寒潮到沱沱河) is nobody's (R62's r62-1). A coming naming
    no one or only the hero is the company's (:func:`_since_arrival` reads it so; t11, stop 62)."""
    known = sorted((p for p in places if len(p) >= 2), key=len, reverse=True)
    if not known:
        return ()
    came = re.compile(rf"(?:{_COMING_TO})(?P<place>{alternation(known)})")
    called = sorted((n for n in names if len(n) >= 2), key=len, reverse=True)
    who_re = re.compile(alternation(called)) if called else None
    out: list[tuple[frozenset[str], str, str]] = []
    for owner, text in [("", lore), *texts.items()]:
        start = 0
        for end in [*(e.start() for e in SENTENCE_ENDS.finditer(text)), len(text)]:
            sentence, start = text[start:end], end + 1
            if "月" not in sentence:
                continue
            dates = list(ARRIVAL_DATE.finditer(sentence))
            for m in came.finditer(sentence) if dates else ():
                day = next((d for d in reversed(dates) if d.end() <= m.start()), None)
                if day is None:
                    continue
                named = {aliases.get(n.group(), n.group()) for n in who_re.finditer(sentence, 0, m.start())} if who_re else set()
                if not named and not COMPANY.search(sentence, day.end(), m.start()):
                    continue
                out.append((frozenset(named | ({owner} if owner else set())), m.group("place"), day.group()))
    return tuple(out)


def _since_arrival(world: World, pov: str | None, now: str, sentences: list[tuple[int, int, str]],
                   first_line: int, lines: list[str], voices: list[Any]) -> list[Finding]:
    """书内时间: a span said since the hero's company came to a place (:data:`ARRIVED_SPAN`) that the days from the one day
    the world or a card dates that coming (:func:`arrivals_of`: a coming naming no one or only the viewpoint; the place
    the same, or one's name the other's start: 沱沱河 and 沱沱河兵站) to the in-book date do not allow (:func:`_span_fits`);
    silent when that coming is dated on two days, in another year, or told as past, and when the one saying it is
    another than the hero whose card names the place (a 兵站's cook: 沱沱河兵站的职工，在兵站干了十年 — their 我们 are the
    place's people, not the company; t11, stop 62)."""
    today = _dated_today(now)
    if today is None or not world.arrived:
        return []
    _era, year, month, day = today
    lunar = _lunar(now)
    out: list[Finding] = []
    by_line: dict[int, list[Any]] | None = None  # the voices by line, read at the first span
    for i, col, sentence in sentences:
        for m in ARRIVED_SPAN.finditer(sentence):
            if NOT_NOW.search(sentence, 0, m.start()):
                continue
            place = m.group("place")
            if by_line is None:
                by_line = _by_line(voices)
            speaker = _speaker_at(by_line.get(i, []), lines[i], col - 1 + m.start(), True) if i < len(lines) else None
            if speaker and speaker != pov and place in world.texts.get(world.aliases.get(speaker, speaker), ""):
                continue
            days = {when for named, at, when in world.arrived if named <= {pov} and (at.startswith(place) or place.startswith(at))}
            read = [book_time(w) for w in days]
            dated = {(r[1][0], r[1][1], r[1][2]) for r in read if r is not None and r[1][1] is not None and r[1][2] is not None}
            if len(dated) != 1:
                continue
            a_year, a_month, a_day = next(iter(dated))
            if a_year is not None and year is not None and a_year != year and abs(year - a_year) > 1:
                continue
            passed = ((year - a_year) * (360 if lunar else 365) if a_year is not None and year is not None else 0) \
                + _day_of_year(month, day, lunar) - _day_of_year(a_month or 1, a_day or 1, lunar)
            said = _span_days(m)
            if said is None or passed < 0 or _span_fits(m, said, passed):
                continue
            out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可到{place}是{a_month}月{a_day}日（世界观/角色卡），"
                               f"到本章的书内时间「{now}」是{passed}天", first_line + i, col, sentence.strip()[:60]))
    return out


def _trace_still(sentence: str, at: int) -> bool:
    """Whether the clause after the one running on from ``at`` (a :data:`MEASURED_TO` clause's end) tells the dead one's
    trace as still today (:data:`STILL_AS_IT_WAS`)."""
    parts = re.split(r"[，,；;]", sentence[at:], maxsplit=2)
    return len(parts) > 1 and STILL_AS_IT_WAS.match(parts[1]) is not None


def _span_fits(m: re.Match[str], said: int, passed: int) -> bool:
    """Whether ``passed`` days fit the span :data:`SPAN_SAID` said (``said`` days, :func:`_span_days`): under a bound
    (不到一个礼拜) no more than it; a loose unit (礼拜, 旬, 月, 年; T10, stop 61; t11, stop 62) within :data:`MONTH_SLACK` of
    it, or with 多 from it to half as much again and half a unit; days exactly, a day either way, 十多天 from ten to half as
    many again and five more, 快十天 from two-thirds of it up to it."""
    loose = m.group("unit") not in EXACT_UNITS
    more = bool(m.group("more") or m.group("more2") or m.group("more3") == "多")
    if m.group("under"):
        return passed <= said + (1 if loose else 0)
    if loose:
        step = SPAN_UNITS.get(m.group("unit") or "", 30)
        return (said <= passed <= said * 1.5 + step / 2) if more else \
            said * (1 - MONTH_SLACK) <= passed <= said * (1 + MONTH_SLACK)
    if more:
        return said <= passed <= said * 1.5 + 5
    if m.group("nearly"):
        return said * 2 / 3 - 1 <= passed <= said
    return abs(passed - said) <= 1


def _days_since_death(world: World, names: re.Pattern[str], now: str, sentences: list[tuple[int, int, str]],
                      first_line: int) -> list[Finding]:
    """书内时间: days said passed since a death (:data:`DAYS_PASSED`, the dead named right before its verb) that
    the in-book date does not allow since the day their card dates it (:func:`dates_of_death`): a plain count off by more
    than a day, 十来天/十多天 fewer than it says or half as many again and five more, 快十天 more than it says or
    fewer than two-thirds of it. The same era and a year read, or neither; a lunar book counts thirty-day months."""
    today = _dated_today(now)
    if today is None or not world.died_day:
        return []
    era, year, month, day = today
    lunar = _lunar(now)
    out: list[Finding] = []
    for i, col, sentence in sentences:
        ends: dict[int, str] | None = None  # where each name in the sentence ends: read once, at its first count
        for m in DAYS_PASSED.finditer(sentence):
            if NOT_NOW.search(sentence, 0, m.start()) or (
                    (to := MEASURED_TO.match(sentence, m.end())) and not _trace_still(sentence, to.end())):
                continue
            if ends is None:
                ends = {n.end(): n.group() for n in names.finditer(sentence)}
            named = ends.get(m.start()) or ends.get(m.start() - 1)  # the name right before the verb (师父走了, 老龚也走了)
            dead = world.aliases.get(named, named) if named else None
            if dead not in world.died_day or dead not in world.died:
                continue
            d_era, d_year, d_month = world.died[dead]
            if d_era != era or (year is not None and d_year != year and abs(year - d_year) > 1):
                continue
            years = (year - d_year) if year is not None else 0
            passed = years * (360 if lunar else 365) + _day_of_year(month, day, lunar) \
                - _day_of_year(d_month, world.died_day[dead], lunar)
            said = _span_days(m)
            if said is None or passed < 0:
                continue
            if m.group("unit") == "年" and any(e.start() <= m.start() < e.end() for e in ELAPSED.finditer(sentence)):
                continue  # years closed by 了 are :func:`_since_death`'s to read (one finding, not two)
            fits = _span_fits(m, said, passed)
            if not fits:
                out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可{dead}死于{d_month}月{world.died_day[dead]}日"
                                   f"（角色卡），到本章的书内时间「{now}」是{passed}天", first_line + i, col, sentence.strip()[:60]))
    return out


_DAY_OF_MONTH = r"[\d〇零一二三四五六七八九十廿卅]{1,3}"
_NO_BOUND = r"(?![前以之起]|后(?![半晌]))"
"""After a date, what makes it no bound (十一月八日前, 十二以后): 后 is one only when it is no part of the day (十二后半晌,
二十日后晌, 初三后半夜 are afternoons and the small hours of that day; T6, stop 57)."""
DATED = re.compile(rf"(?P<month>{_DAY_OF_MONTH})月(?P<day>{_DAY_OF_MONTH})[日号](?P<aside>[（(][^）)\n]{{0,12}}[）)])?"
                   rf"{_NO_BOUND}(?P<what>[^，,。；;：:、“”（(\n]{{2,12}})")
"""A day of the year with what happens on it (灵犀2.0定在11月11日（星期二）上线, 十一月十五日坐火车去天津); 11月8日前
is a bound, not an event."""
LUNAR_DATED = re.compile(rf"(?P<month>[正一二三四五六七八九十冬腊]{{1,2}})月(?P<day>{_LUNAR_DAY})(?:(?:{_FEASTS})节?)?"
                         rf"(?:(?<=初[一二三四五六七八九十])(?![日号])|(?![日号\d〇零一二三四五六七八九十月]))"
                         rf"(?P<aside>[（(][^）)\n]{{0,12}}[）)])?{_NO_BOUND}(?P<what>[^，,。；;：:、“”（(\n]{{2,12}})")
"""A day written the old way, without 日 (信里说定十月十七回府), its festival's name after it read past (七月初七七夕那夜); after 初 a day is whole, whatever follows (三月初八一早); the same day in another calendar in brackets after it read past (十二月十七（腊月十七）一早进山; T2, stop 52)."""
SAME_MONTH = re.compile(rf"[，,；;]\s*(?P<day>{_LUNAR_DAY}|[1-3]?\d)(?:日|号)?(?:是|做|那天|这天)?"
                        rf"{_NO_BOUND}(?P<what>[^，,。；;：:、“”（(\n]{{2,12}})")
"""A later day of the same month in the next clause (十月十七回府，十八是他的六十大寿)."""
DATE_SAID = re.compile(rf"^(?:(?P<month>[\d一二三四五六七八九十]{{1,3}})月)?(?P<day>{_LUNAR_DAY}|[\d〇零一二三四五六七八九十廿卅]{{1,3}})"
                       r"(?:[日号][\u4e00-\u9fff]{0,6})?$")
"""A countdown's end that is itself a date (离十五号还有二十天), or a date and what happens on it (离二十九日开船)."""
COUNTDOWN = re.compile(rf"(?:离|距|距离)(?P<what>[^，,。！？；;“”\n]{{2,8}}?)[，,]?(?:只剩下?|还剩下?|还有|就剩下?|只有|剩下?|不到)"
                       rf"(?P<n>[\d一二两三四五六七八九十几]{{1,3}})(?:来|多)?(?:个)?(?:天|日)(?!子)")
"""Days counted down to an event (离上线只剩两天, 离去天津只剩三天了, 离二十九日开船，只剩三天了)."""
AHEAD_DAYS: dict[str, int] = {**{w: d for w, d in _DAY_WORDS.items() if d > 0}, "后儿": 2, "大后天": 3, "大后日": 3,
                               "大后儿": 3}
"""The calendar's words for a day ahead, as days from today (明天 1, 后天 2, 大后天 3): a coming said on one of them
(后天宣使就到了) falls that many days after the in-book date."""
_AHEAD = "|".join(sorted(AHEAD_DAYS, key=len, reverse=True))
STILL_TO_COME = "再过|还有|还得|还剩|尚有|再有"
"""The words that count days still to come before an event (还有五天, 再过三天)."""
COME_IN = re.compile(rf"(?:(?:{STILL_TO_COME})(?P<n>[\d一二两三四五六七八九十几]{{1,3}})(?:来|多)?(?:个)?(?:天|日)(?!子)"
                     rf"|(?<![先今前大以之然])(?P<word>{_AHEAD})(?!的))[，,]?\s*"
                     rf"(?P<who>[^，,。！？；;“”\n就便]{{1,8}}?)(?:就|便)(?:要|能|该|会|得)?"
                     rf"(?:从[^，,。！？；;“”\n回来到进]{{1,6}})?(?P<verb>[^，,。！？；;“”\n了啦呢吧啊]{{1,8}})")
"""Days counted to someone's or something's coming (再过三天，监正就从南京回来了; 再过五天你就进城了), or a day ahead
named (:data:`AHEAD_DAYS`: 后天宣使就到了): what comes after 就, where from left out."""
EVENT_LEFT = re.compile(r"(?:^|(?<=[，,；;“\s]))(?P<what>[^，,。！？；;“”\n离距]{2,8}?)(?:只剩下?|还剩下?|就剩下?)"
                        r"(?P<n>[\d一二两三四五六七八九十几]{1,3})(?:来|多)?(?:个)?(?:天|日)(?!子)")
"""Days left before an event named as the clause's subject, without 离 (靖波下水只剩三天了, 婚礼就剩两天了): read only for an
event the world or a card dates (:func:`_world_event`, the longest tail of the words that is one); 还有 is left out (我们还有三天
is what we have; T2, stop 52)."""
COUNT_CUE = re.compile(rf"[离距过还尚再剩]|{_AHEAD}")
"""What a sentence counting days to an event holds (a cheap test before :data:`COUNTDOWN` and :data:`COME_IN`)."""
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _dates_in(text: str) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each sentence of ``text`` that dates an event (:data:`DATED`, then :data:`LUNAR_DATED`), with the month and
    day it names; a date no calendar has is skipped, and so is a date in the brackets after another (二月十日（星期日，
    正月十七）夜里…: the same day in the other calendar, no second event; T2, stop 52). Linear in the dates: the asides
    sorted by start, each date looks up the furthest end of those opening at or before it (R52's finding 5)."""
    found = [*DATED.finditer(text), *LUNAR_DATED.finditer(text)]
    asides = sorted(m.span("aside") for m in found if m.group("aside"))
    starts = [start for start, _end in asides]
    reach = list(itertools.accumulate((end for _start, end in asides), max))  # the furthest end of the asides so far
    for m in found:
        k = bisect.bisect_right(starts, m.start())
        if k and reach[k - 1] > m.start():  # inside an aside (one bisect, not every aside per date; A11, stop 52)
            continue
        month, day = _MONTHS.get(m.group("month") + "月") or _cn_int(m.group("month")), _cn_int(m.group("day"))
        if month is not None and day is not None and 1 <= month <= 12 and 1 <= day <= 31:
            yield m, month, day


def dated_events(texts: Iterable[str]) -> dict[str, tuple[int, int]]:
    """``{what happens: (month, day)}`` of the world's and the cards' sentences that date an event
    (:data:`DATED`); a thing dated twice otherwise is left out (which day is meant, no check can say)."""
    out: dict[str, tuple[int, int]] = {}
    doubled: set[str] = set()
    for text in texts:
        for m, month, day in _dates_in(text):
            dated = [(m.group("what").strip(), day)]
            if (later := SAME_MONTH.match(text, m.end())) is not None and (then := _cn_int(later.group("day"))):
                dated.append((later.group("what").strip(), then))  # 十八是他的六十大寿: the same month's
            for what, on in dated:
                if out.setdefault(what, (month, on)) != (month, on):
                    doubled.add(what)
    return {k: v for k, v in out.items() if k not in doubled}


_CLAUSE_ENDS = "，,。！？；;：:\n"
"""The marks that end a clause: a comma, a sentence's stop, a semicolon, a colon, a line's end."""
_CLAUSE_OR_QUOTE_END = re.compile(f"[{re.escape(_CLAUSE_ENDS + '“”「」')}]")
"""Where a clause of the prose ends (:func:`_date_restated`): at :data:`_CLAUSE_ENDS`' marks and at a quote's
opening or close too (spoken words are a clause of their own)."""
YEAR_ALONE = re.compile(r"\s*[^\W\d_]{0,4}?[\d〇零一二三四五六七八九十]{1,5}\s*年\s*$")
"""A year alone before a date, its era perhaps (光绪三年十月二十, 1986年九月十四): the date with it opens its clause."""
SAID_MAX = 120
"""The most characters of the words a dated event is said of (:func:`dated_subjects`) kept whole: of a longer clause
(no prose's: a card of dates without a comma) its start and its end, a new line between (A11, stop 52)."""


def dated_subjects(lore: str, texts: dict[str, str]) -> tuple[tuple[str, str, tuple[int, int]], ...]:
    """Each dated event of the world and the cards with what it is said of: the words of its clause before the date
    (金海号十月十二日开到渔场 → 金海号), or of the clause before that when the date opens its clause (协领德克金九月里去了
    吉林乌拉，十月初八带差官回城 → 协领德克金…), and for a card its owner too (邢文焕's card: 信里说定十月二十回京) —
    ``(of, event, (month, day))``, read by :func:`_come_in_days`."""
    out: list[tuple[str, str, tuple[int, int]]] = []
    for owner, text in [("", lore), *texts.items()]:
        ends: list[int] | None = None  # where the text's clauses end, read once (not searched back per date)
        for m, month, day in _dates_in(text):
            if ends is None:
                ends = [e.start() for e in CLAUSE_OR_COLON_END.finditer(text)]
            k = bisect.bisect_left(ends, m.start())
            start = ends[k - 1] + 1 if k else 0
            if start > 0 and text[start - 1] in "，," and (not text[start:m.start()].strip()
                                                        or YEAR_ALONE.match(text, start, m.start())):
                # the date opens its clause: it is said of the clause before, the sentence's topic (协领德克金九月里去了
                # 吉林乌拉，十月初八带差官回城; T2, stop 52), a year of its own before it too (…盘账，光绪三年十月二十才回)
                start = ends[k - 2] + 1 if k > 1 else 0
            said = text[start:m.start()] if m.start() - start <= SAID_MAX else \
                text[start:start + SAID_MAX // 2] + "\n" + text[m.start() - SAID_MAX // 2:m.start()]
            out.append((owner + said, m.group("what").strip(), (month, day)))
    return tuple(out)


def _events_of(world: World, who: str) -> list[tuple[str, str, tuple[int, int]]]:
    """The dated events (:attr:`World.dated_by`, through :meth:`World.dated_of`) said of exactly ``who``: what they are
    said of opens with ``who`` and with no longer name or alias of someone else (阿福嫂's event is not 阿福's; R52's
    finding 3). Read once a person per book (:attr:`World._by_book`), not once a draft (R54)."""
    # per book, keyed by the very tables it reads (a draft's ``replace`` with its own names builds anew)
    known: dict[str, list[tuple[str, str, tuple[int, int]]]] = \
        world.per_book("events_of", (world.dated_by, world.cards, world.aliases), dict)
    if who not in known:
        longer = [n for n in (*world.cards, *world.aliases) if len(n) > len(who) and n.startswith(who)
                  and world.aliases.get(n, n) != who]  # the others' names that open with who's (阿福嫂 for 阿福)
        known[who] = [(said, what, on) for said, what, on in world.dated_of(who) if not any(said.startswith(n) for n in longer)]
    return list(known[who])


def _others_event(world: World, words: str, event: str) -> bool:
    """Whether ``words`` name someone of the cast and none of the ones the dated ``event`` is said of or names
    (:attr:`World.dated_by`): 阿九回州 is 阿九's own going, not 韩世安's 坐船回州 (R52's finding 4); 靖波下水 is 靖波's.
    The cast and the dated events are read through per-book indexes (:meth:`World.named_in`, :meth:`World.said_of`)."""
    named = world.named_in(words)
    return bool(named) and not named & world.named_in(" ".join([event, *world.said_of(event)]))


def _world_event(world: World, said: str) -> str | None:
    """The shortest event the world or a card dates whose name holds ``said`` (two characters or more), else None
    (:meth:`World.events_holding`)."""
    return next(iter(world.events_holding(said)), None) if len(said) >= 2 else None


EVENT_NOUN_LEAST = 3
"""The fewest characters of a countdown's leading words that name a dated event by its doer alone (检尺组 of 检尺组上山):
two would name a person's every day (老爷)."""


def _dated_end(world: World, said: str, month: int, day: int) -> tuple[str, tuple[int, int], bool] | None:
    """The event or day a countdown names (:data:`COUNTDOWN`'s ``what``), its ``(month, day)`` and whether the world
    or a card dates it: an event the
    world dates whose name holds ``said`` (上线 for 灵犀2.0上线); else one by the word before 日 or 那天 after the
    owner (老爷的寿日 → 寿, 他的六十大寿), when every event holding it falls on one day; else by the longest leading
    part of it, :data:`EVENT_NOUN_LEAST` characters or more, that dated events hold, when those whose doing after it
    goes no other way than the countdown's (:func:`_ways_differ`: 靠岸 is no 离港) all fall on one day (离检尺组
    上山 for 十二月十五日陪林业局检尺组上老熊沟验收: the doer named and the doing worded otherwise; T4, stop 55); or a date itself (十五号, the
    coming one of that day)."""
    event = _world_event(world, said)
    if event is not None:
        return event, world.dated[event], True
    core = re.sub(r"(?:之日|日子|日|那天|这天)$", "", said.rsplit("的", 1)[-1])
    days = {world.dated[e] for e in world.events_holding(core)} if core else set()
    if said != core and len(days) == 1:
        return said, days.pop(), True
    date = DATE_SAID.match(said)
    if date is None:
        for k in range(len(said) - 1, EVENT_NOUN_LEAST - 1, -1):  # 检尺组上山 → 检尺组: the doer named, the doing otherwise
            held = world.events_holding(said[:k])
            if held:  # a coming is no leaving of the same doer (靠岸 is no 离港: R55)
                days = {world.dated[e] for e in held if not _ways_differ(said[k:], e[e.find(said[:k]) + k:])}
                return (said, days.pop(), True) if len(days) == 1 else None
        return None
    if (on := _cn_int(date.group("day"))) is None or not 1 <= on <= 31:
        return None
    told = _cn_int(date.group("month")) if date.group("month") else (month if on >= day else month % 12 + 1)
    return (said, (told, on), False) if told and 1 <= told <= 12 else None


ARRIVING = frozenset("到来回靠抵返进")
"""A coming, whichever verb tells it (到了 and 靠码头, 回来 and 回京)."""
COMING_WORDS = ("下来", "上来", "过来", "赶来", "赶到", "找来", "找上门", "上门", "登门", "光临", "莅临", "驾到",
                "下到", "下队", "下乡", "下厂", "下连", "下县", "下基层")
"""Comings whose first character is no coming of its own (:data:`ARRIVING`): a party coming down from above (检查组下来,
工作组下队, 下乡, 下厂), over or up (过来, 上来), hurrying (赶到) or calling (登门, 光临; T9, stop 60)."""
COMING_ACT = re.compile(rf"[{''.join(sorted(ARRIVING))}]|{alternation(COMING_WORDS)}")
"""A doing that opens on a coming (:data:`ARRIVING`, :data:`COMING_WORDS`)."""
LEAVING = re.compile(r"离|启[程航]|出[发港海航征]|动身|开拔|起[程航锚]|辞行|告别")
"""A leaving, opening a doing (离港, 启程, 出发, 开拔, 起航)."""

COME_ON_DAY = re.compile(rf"(?:^|(?<=[，,。！？；;：:“”「」\s]))(?P<who>[^，,。！？；;：:“”「」\s\d]{{1,8}}?)(?P<comma>[，,]\s*)?"
                         rf"(?<![先今前大以之然])(?P<word>{_AHEAD})(?!的)个?(?:就|便)(?:要|能|该|会|得)?"
                         rf"(?P<verb>(?:{COMING_ACT.pattern})[^，,。！？；;“”\n了啦呢吧啊]{{0,7}})")
"""A coming said on a day ahead with the comer before the day word, opening its clause (大掌柜明天就到汉口了, 验收组大后天
就到了, 我大爷后儿个就到了, 检查组大后天就下来了): :data:`COME_IN`'s day word, the comer first (T7, stop 58), a comma
between them or none (戴稽查，明天就到; t11, stop 62: the comer set off as the topic — then only a name the book knows
or a description of :func:`_described_comer`, never a clause: 验货组走了，后天就到省城 is a leaving and its journey,
R62's r62-3). Only a coming
(:data:`COMING_ACT`):
明天就走 is a leaving, another reading's."""
COMER_LEAST = 2
"""The fewest characters of a comer's leading part that may name them inside a dated event's words (御史 of 御史老爷 in
巡漕御史到临清): one would name anyone."""



def _ways_differ(doing: str, other: str) -> bool:
    """Whether one of two doings of the same doer opens on a coming (:data:`ARRIVING`) and the other on a leaving
    (:data:`LEAVING`): 靠岸 and 离港回国 are two events, whatever day the one is dated (R55 on T4)."""
    def way(d: str) -> str:
        return "leave" if LEAVING.match(d) else "come" if COMING_ACT.match(d) else ""
    ways = {way(doing), way(other)}
    return ways == {"leave", "come"}


def _comer_at(what: str, who: str) -> tuple[int, int] | None:
    """Where a dated event's words ``what`` name the comer ``who`` by a leading part of them (:data:`COMER_LEAST`
    characters or more, the longest first; of the words after its last 的, the one it is: 县里的验收组), as ``(start,
    end)``; None when they do not, or when an owner before that 的 is not named before it in the event's words that name
    one there: 县里的检查组 is not 省里检查组 (R58 on T7, the ftp fixers' round of stop 58), 场部的验收组 is
    场长带场部验收组's, and 团部的验收组 any 验收组 the event names without an owner."""
    owner, _of, noun = who.rpartition("的")
    for k in range(len(noun), COMER_LEAST - 1, -1):
        at = what.find(noun[:k])
        if at >= 0:
            return None if owner and what[:at] and owner not in what[:at] else (at, at + k)
    return None


def _comes_in(what: str, who: str) -> bool:
    """Whether a dated event's words ``what`` name the comer ``who`` (:func:`_comer_at`) right before a coming
    (:data:`ARRIVING`): 巡漕御史到临清盘粮 for 御史老爷, 场长带场部验收组到七连过磅 for 验收组."""
    at = _comer_at(what, who)
    return at is not None and COMING_ACT.match(what, at[1]) is not None  # the words' end is no coming


def _owned_by_another(what: str, who: str) -> bool:
    """Whether a dated event's words name the comer's noun with another owner before it than the comer's own
    (县里的检查组 and 省里检查组到盐场验收: two parties, whatever doing they share)."""
    owner, _of, noun = who.rpartition("的")
    return bool(owner) and noun[:COMER_LEAST] in what and _comer_at(what, who) is None


PEOPLE_SENT = ("人", "人们", "同志", "同志们", "干部", "领导", "代表", "差人", "差官", "官差", "公差", "委员", "专员", "大员",
               "干事", "工作人员")
"""Words that name whoever a body sends (矿务局的人, 县上的干部, 府里的差人, 公司来人): the comer is the body named before them
(:func:`_described_comer`; T10, stop 61)."""
PEOPLE_SENT_FROM = re.compile(r"(?:派来|派下来|下来|来|那边|那头|这边)?的?$")
"""What may stand between a body and the word of its people (局里派来的人, 公社那边的干部, 矿务局的人)."""
DESCRIBED_GAP = 8
"""The most characters a dated event's words may put before the coming of a comer it names by a body or a surname
(矿务局安全检查组下来: a party of the body; 坐船回: the way they come)."""
_GIVEN_NAME = r"[\u4e00-\u9fff]{1,2}"


def _titled_surname(world: World, who: str) -> tuple[str, str] | None:
    """``(surname, words before it)`` of a surname with an address or title of :data:`SURNAME_ADDRESS` (朱先生, 黄老板),
    nothing, a place of the book or words ending in 的 before it (上海朱先生, 丝号的朱先生): the words before are ``""``
    when none or a place, else what stands before their 的 (丝号); None when ``who`` is no such description."""
    title = next((t for t in sorted(SURNAME_ADDRESS, key=len, reverse=True) if who.endswith(t) and len(who) > len(t)), None)
    if title is None:
        return None
    head = who[:-len(title)]
    surname = next((s for s in (head[-2:], head[-1:]) if len(s) and surname_of(s + "某") == s), "")
    before = head[:-len(surname)] if surname else head
    if not surname or before and not before.endswith("的") and before not in world.places:
        return None  # 朱先生, 上海朱先生, 丝号的朱先生: the surname opens the words or follows a place or a 的
    before = PEOPLE_SENT_FROM.sub("", before)
    return surname, "" if before in world.places else before


def _described_comer(world: World, who: str) -> re.Pattern[str] | None:
    """How a dated event names a comer the draft names by description, not by a card's name or alias: the people of a
    body (:data:`PEOPLE_SENT` after the body, two characters or more: 矿务局的人 is 矿务局 — its 安全检查组 too), or a
    surname with an address or title of :data:`SURNAME_ADDRESS` (朱先生, 黄老板, 陈师傅), nothing, a place of the book or
    words ending in 的 before it (上海朱先生, 丝号的朱先生), as a name of that surname — the one person of the book (a card
    or the roster: :attr:`World.aliases`) whose name opens with it, else, when the book knows none, any name of it the
    event gives (黄守义). None when ``who`` is no such description or two people share the surname (T10, stop 61); what
    the event must say of them is :func:`_described_comes`'."""
    for word in sorted(PEOPLE_SENT, key=len, reverse=True):
        if who.endswith(word):
            body = PEOPLE_SENT_FROM.sub("", who[:-len(word)])
            return re.compile(re.escape(body)) if len(body) >= 2 and body != who[:-len(word)] else None
    titled = _titled_surname(world, who)
    if titled is None:
        return _posted_surname(who)
    surname = titled[0]
    owners = {world.aliases.get(n, n) for n in (*world.cards, *world.aliases) if n.startswith(surname) and len(n) > len(surname)}
    if len(owners) > 1:  # two people of the book share the surname: which one comes, no check can say
        return None
    return re.compile(re.escape(next(iter(owners))) if owners else re.escape(surname) + _GIVEN_NAME)


POST_LEAST = 2
"""The fewest characters of a post after a surname that :func:`_posted_surname` reads (戴稽查, 郑指导员: 稽查, 指导员)."""


NOT_IN_A_POST = re.compile(r"[了着过走去回来到说的]")
"""Characters no post holds (老王走了, 韩督察说的): a verb, an aspect or 的 — words of a clause, no surname and post."""


def _posted_surname(who: str) -> re.Pattern[str] | None:
    """How the book names one the draft calls by surname and post (戴稽查, 郑指导员, 何科长): the post before a full name of
    that surname (北京总局的稽查戴维思, 团里的指导员郑国栋) — the way a timeline or a card introduces an officer, so the
    post and the surname together name the one person of it the book dates; None when ``who`` is no surname and a post
    of :data:`POST_LEAST` to four characters, none of :data:`NOT_IN_A_POST` (t11, stop 62)."""
    for k in (1, 2):
        surname, post = who[:k], who[k:]
        if len(post) >= POST_LEAST and surname_of(surname + "某") == surname and re.fullmatch(r"[\u4e00-\u9fff]{2,4}", post) \
                and not NOT_IN_A_POST.search(post):
            return re.compile(re.escape(post) + re.escape(surname) + _GIVEN_NAME)
    return None


COMING_WITHIN = re.compile(rf"[^{_CLAUSE_ENDS}]{{0,{DESCRIBED_GAP}}}?(?:{COMING_ACT.pattern})")
"""A coming (:data:`COMING_ACT`) within :data:`DESCRIBED_GAP` characters, no clause's end between (安全检查组下来, 坐船回)."""


NO_ERRAND = frozenset("到来回靠抵返进去了的")
"""Characters of a coming's words that tell no errand (回来, 到了): what :func:`_described_comes` reads past."""


def _described_comes(world: World, comer: re.Pattern[str], who: str, verb: str, said: str, what: str) -> bool:
    """Whether a dated event tells the ``comer`` of :func:`_described_comer` (the draft's ``who``) coming: named in its
    words with a coming right after (:data:`COMING_WITHIN`: 矿务局安全检查组下来盘炸药库, 陪丝号的朱少卿回厂), or named in what
    it is said of with its words opening on one (黄守义在上海办货，十月十八日坐船回县里). A description is a guess at who
    comes, so the draft must not say them another (ft10, stop 61, R61's T10-2): what it says they come to do after the
    coming (``verb``: 来查锅炉, 来收电灯费) shares a character with the event's words (:data:`NO_ERRAND` read past; a bare
    coming, 就到, says nothing else), and what stands before a titled surname (:func:`_titled_surname`: 永丰号的, 修水管的,
    隔壁的), when no place of the book, is in the event's words or in what it is said of."""
    named = comer.search(what)
    if not (named is not None and COMING_WITHIN.match(what, named.end()) is not None or
            comer.search(said) is not None and COMING_WITHIN.match(what) is not None):
        return False
    coming = COMING_ACT.match(verb)
    doing = verb[coming.end():] if coming else verb
    for place in world.places:  # where they come is no errand (到罐头厂, 回厂里)
        doing = doing.replace(place, "") if len(place) >= 2 else doing
    errand = set(doing) - NO_ERRAND
    if errand and not errand & set(what):
        return False
    titled = _titled_surname(world, who)
    return titled is None or not titled[1] or titled[1] in said or titled[1] in what


def _come_in_days(world: World, who: str, verb: str, today: tuple[int, int] = (0, 0)) -> tuple[str, tuple[int, int]] | None:
    """The dated event a :data:`COME_IN` count names, and its day: one whose words hold the whole doing (进城 in
    搭头班车进城赶交流会), or one said of ``who`` (by the word the draft says or their card's name; a card's events are its owner's) whose
    doing shares a character with it or is a coming too (:data:`ARRIVING`: 回来 and 回京, 到了 and 靠码头); else, for a coming,
an event whose words name ``who`` coming (:func:`_comes_in`: 巡漕御史到临清 for 御史老爷; T7, stop 58), or failing that
any event said of ``who`` (宣使就到 and 朝廷的宣使九月十八过驿入蜀: the one day the book gives them), none of them before
``today`` (the in-book ``(month, day)``); ``None`` when none, or two days, fit."""
    person = world.aliases.get(who, who)
    of = {w for w in (who, person) if len(w) >= 2}
    comes = set(verb) & ARRIVING or COMING_ACT.search(verb) is not None
    found = {(what, on) for said, what, on in world.dated_by
             if (len(verb) >= 2 and verb in what and not _owned_by_another(what, who))
             or (any(w in said for w in of) and (set(verb) & set(what[:2]) or comes and (set(what[:2]) & ARRIVING or COMING_ACT.match(what))))}
    if not found and comes:  # the comer named in the event's own words, coming there (巡漕御史到临清 for 御史老爷明儿就到)
        found = {(what, on) for _said, what, on in world.dated_by if _comes_in(what, who)}
        if not found:  # a coming of someone the book dates by one day, however it words the event (过驿入蜀)
            found = {(what, on) for said, what, on in world.dated_by if any(w in said for w in of)}
        if not found and (described := _described_comer(world, who)) is not None:  # 矿务局的人, 上海朱先生 (T10)
            found = {(what, on) for said, what, on in world.dated_by if _described_comes(world, described, who, verb, said, what)}
        if any(on < today for _what, on in found):  # a day of theirs gone by this year is no coming of theirs
            return None
    return min(found) if len({on for _what, on in found}) == 1 else None  # min: the same event whatever the hash seed


GOING = "走|死|没|过世|去世|不在|出事|失踪|不见"
"""The verbs of someone's going — dying, a mishap, being lost (走了, 出事, 不见了): what the day of a dead or lost one's card
is the day of (:data:`MONTHS_SINCE`, :data:`RESTATED`)."""
GOING_RE = re.compile(GOING)
MISHAP = ("落水", "落的水", "卷走", "冲走", "淹死", "淹了", "压死", "压在", "砸死", "摔死", "摔下", "遇难", "遇害", "牺牲",
          "咽气", "咽的气", "断气", "断的气", "出的事", "卒", "殁", "亡")
"""How a book tells the very doing of someone's death or loss by its manner (叫水卷走的, 压在老巷里的, 落的水, 墓碑的卒):
beside :data:`GOING`, the words a dead or lost one's dated day is the day of (:func:`_date_restated`,
:func:`_going_on_day`; T6, stop 57)."""
WENT_RE = re.compile("|".join((GOING, *MISHAP)))
MONTHS_SINCE = re.compile(rf"(?:{GOING})了?(?:以来|之后|以后)?[，,]?(?:也|都|已经|就)?"
                          r"(?:到(?:今儿|今天|今日|如今|现在)[，,]?)?(?P<nearly>快|将近|差不多)?(?:已经|都|整整|足足|有)*"
                          r"(?P<n>[一两二三四五六七八九十]{1,3})(?P<more>多)?(?P<unit>个月|年)(?P<over>多)?(?![的前后里间])")
"""Months or years told as passed since someone went, died or was lost (大庚走了，到今儿整整五个月了; 你师父走了也快两年了):
the one named right before the verb."""
SINCE_FITS: dict[str, tuple[float, float, float]] = {"": (1, -1, 1), "more": (1, 0, 0.5), "nearly": (2 / 3, -1, 0.5)}
"""How many months a count allows, as ``(share of the count, months below, months above)``: a plain count a month
either way (整整五个月 is four to six), 多 from the count to half as much again, 快/将近 from two-thirds of it up to it."""


def _since_going(world: World, names: re.Pattern[str], now: str, sentences: list[tuple[int, int, str]],
                 first_line: int) -> list[Finding]:
    """书内时间: months or years said passed since someone dead or lost went (:data:`MONTHS_SINCE`) that the in-book date
    does not allow since the one day their card gives them (:func:`dated_subjects`, said in the in-book year: 卫长庚万历三十八年
    七月初七七夕那夜…不见了). Silent on the dead whose death :func:`dates_of_death` reads (:func:`_since_death` counts
    them), on a card that dates its owner twice otherwise or names no year, and on counts of a year or more apart
    from a whole year's months (a card's year unread)."""
    today = _dated_today(now)
    if today is None or "年" not in now:
        return []
    _era, _year, month, day = today
    year_said = now[:now.find("年") + 1].strip()
    out: list[Finding] = []
    days_of: dict[str, tuple[set[tuple[int, int]], set[tuple[int, int]]]] = {}  # who -> (days said this year, all days)
    for i, col, sentence in sentences:
        ends: dict[int, str] | None = None
        first_past: int | None = None  # where the sentence's first told-outside-now words end (None: not yet read)
        told: set[str] = set()  # one finding per person per sentence (R51, stop 51)
        for m in MONTHS_SINCE.finditer(sentence):
            if first_past is None:
                past = NOT_NOW.search(sentence)
                first_past = past.end() if past else len(sentence) + 1
            if first_past <= m.start():  # a NOT_NOW match wholly before the count: read once per sentence
                continue
            if ends is None:
                ends = {n.end(): n.group() for n in names.finditer(sentence)}
            named = ends.get(m.start())
            who = world.aliases.get(named, named) if named else None
            if who in told:
                continue
            card = world.cards.get(who or "") or {}
            if who is None or who in world.died or not str(card.get("状态") or "").startswith((*DEAD, *GONE)):
                continue
            if who not in days_of:  # each one's days read once, not once per count (A11, stop 52)
                events = _events_of(world, who)
                days_of[who] = ({on for said, _what, on in events if said.endswith(year_said)}, {on for _s, _w, on in events})
            days, others = days_of[who]
            said_n = _cn_int(m.group("n"))
            if len(days) != 1 or others != days or said_n is None:
                continue
            (on_month, on_day), = days
            passed = month - on_month + (day - on_day) / 30
            count = said_n * (12 if m.group("unit") == "年" else 1)
            more = m.group("more") or m.group("over")  # 两个多月, 两年多
            share, below, above = SINCE_FITS["more" if more else "nearly" if m.group("nearly") else ""]
            if passed < 0 or count * share + below <= passed <= count * (1.5 if more else 1) + above:
                continue
            told.add(who)
            out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可{who}是{on_month}月{on_day}日（角色卡）的事，到本章的书内时间"
                               f"「{now}」才{round(passed)}个月", first_line + i, col, sentence.strip()[:60]))
    return out


YEAR_OFF = {"今年": 0, "去年": -1, "前年": -2}
"""The years a date's own year word counts back from the in-book year (去年冬月十七)."""
_YEAR_END = re.compile(r"([\d〇零一二三四五六七八九十]{1,5})年$")
RESTATED = re.compile(rf"是(?P<year>{'|'.join(YEAR_OFF)}|[^，,。！？；;“”\n是]{{0,6}}?年)?"
                      rf"(?P<month>{_DAY_OF_MONTH}|正|冬|腊)月(?P<day>初[一二三四五六七八九十]|{_DAY_OF_MONTH})(?:[日号])?"
                      rf"(?P<then>[^，,。！？；;“”\n是]{{0,12}}?的[\u4e00-\u9fff]{{0,2}})?(?=[，,。！？；;”\n]|$)")
"""A day an event of someone's is said to have been on, the date stressed by 是 (阿爸是今年二月十二日夜里没的; 姐姐出事是
七月十二日; 她是去年冬月十七进的山): what follows the date, up to the 的 that closes 是…的 and the object after it (进的山),
is the event's other words (up to twelve characters: 爹是四月十八那天后半晌压在老巷里的; T6, stop 57); the clause ends there."""
_RESTATED_HEAD = 4
"""The most characters of an event's own words between the one named and 是 (出事 in 姐姐出事是…)."""
_RESTATED_PLAIN = _PLAIN | frozenset("夜里早晚上下午中天时日月年候分刻半后晌")
"""Characters two events share without being the same one (:data:`_PLAIN` and the times of day: 夜里回的家 is not 夜里在排字房
倒下; R52's finding 2; 后半晌 too, now a card's 四月十二后半晌 dates an event: T6, stop 57)."""


def _one_dated_day(world: World, who: str) -> tuple[str, str, tuple[int, int]] | None:
    """The one dated event of ``who`` (:func:`_events_of`, and the day :func:`dates_of_death` reads on a dead one's card)
    as ``(said of, what, (month, day))``; None when the book gives them no day or two."""
    dated = _events_of(world, who)
    if who in world.died and who in world.died_day:
        dated.append((who, "", (world.died[who][2], world.died_day[who])))
    return dated[0] if len({on for _said, _what, on in dated}) == 1 else None


def _year_fits(told: str | None, said: str, year: int | None) -> bool:
    """Whether the year the prose puts on a date (``told``: 去年, 一九七八年, none) can be the one the card's words
    ``said`` of the event end on (…一九七八年), the in-book ``year`` counting 去年 back: True when either says none."""
    card_year = _YEAR_END.search(said)
    if not told or not card_year:
        return True
    written = _YEAR_END.search(told)
    when = (year + YEAR_OFF[told] if year is not None else None) if told in YEAR_OFF else \
        _cn_int(written.group(1)) if written else None
    return when is not None and when == _cn_int(card_year.group(1))


class _DatedDays:
    """What :func:`_date_restated` and :func:`_going_on_day` read alike for one draft: the in-book year and whether the
    book counts the lunar calendar (:func:`book_time`, :func:`_lunar`), the ``(month, day)`` of a date the prose says
    (:meth:`said`), and each one's one dated day (:func:`_one_dated_day`), read once per person per draft
    (:meth:`of`; the dated events under it are read once per book, :func:`_events_of`)."""

    def __init__(self, world: World, year: int | None, lunar: bool) -> None:
        self.world, self.year, self.lunar = world, year, lunar
        self._one_day: dict[str, tuple[str, str, tuple[int, int]] | None] = {}

    @classmethod
    def reading(cls, world: World, now: str) -> _DatedDays | None:
        """The reading for a draft whose in-book time is ``now``; None when ``now`` names no date."""
        read = book_time(now)
        return None if read is None else cls(world, read[1][0], _lunar(now))

    def said(self, m: re.Match[str]) -> tuple[int, int] | None:
        """``(month, day)`` of a date :data:`RESTATED` or :data:`DAY_OF_GOING` found (its ``month`` and ``day``); None
        when either is no number, or when a Gregorian book's date is written the lunar way (正月, 冬月, 腊月, 初八)."""
        month = _MONTHS.get(m.group("month") + "月") or _cn_int(m.group("month"))
        day = _cn_int(m.group("day"))
        old_way = m.group("month") in "正冬腊" or m.group("day").startswith("初")
        return None if month is None or day is None or (old_way and not self.lunar) else (month, day)

    def of(self, who: str) -> tuple[str, str, tuple[int, int]] | None:
        """:func:`_one_dated_day` of ``who``, read once per draft."""
        if who not in self._one_day:
            self._one_day[who] = _one_dated_day(self.world, who)
        return self._one_day[who]

    def other_day(self, first: tuple[str, str, tuple[int, int]], who: str, day: tuple[int, int], year_word: str | None) -> bool:
        """Whether the ``day`` the prose says of ``who``'s event, in the year ``year_word`` tells (去年, 一九七八年, none),
        is not the one day ``first`` (:meth:`of`) dates it: another day, in a year that may be the card's
        (:func:`_year_fits`)."""
        said, _what, on = first
        return day != on and _year_fits(year_word, said[len(who):], self.year)


def _date_restated(world: World, names: re.Pattern[str], now: str, sentences: list[tuple[int, int, str]],
                   first_line: int) -> list[Finding]:
    """书内时间: a day said of someone's event (:data:`RESTATED`, the one named opening the clause) other than the one day
    the world and their card give them (:func:`dated_subjects`; :func:`dates_of_death`), for an event that is theirs:
    a going (:data:`GOING`) of the dead or lost, or one sharing a word's character with the dated event (进的山 and
    进老爷岭). Silent when the book gives them no day or two, when the year said (去年, 一九九二年) is not the card's,
    when a Gregorian book's date is written the lunar way (正月, 初八), and on a question (T2, stop 52)."""
    days = _DatedDays.reading(world, now)
    if days is None:
        return []
    out: list[Finding] = []
    for i, col, sentence in sentences:
        if "是" not in sentence or "月" not in sentence:
            continue
        told_of: set[str] = set()  # one finding per person per sentence (as _since_going)
        ends: list[int] | None = None  # where the sentence's clauses end, read once (not searched back per date)
        for m in RESTATED.finditer(sentence):
            if ends is None:
                ends = [e.start() for e in _CLAUSE_OR_QUOTE_END.finditer(sentence)]
            k = bisect.bisect_left(ends, m.start())
            start = ends[k - 1] + 1 if k else 0
            head = sentence[start:m.start()].strip()
            lead = names.match(head)
            if lead is None or len(head) - lead.end() > _RESTATED_HEAD or sentence[m.end():m.end() + 2].startswith(("吗", "？", "?")):
                continue
            who = world.aliases.get(lead.group(), lead.group())
            if who in told_of:
                continue
            day = days.said(m)
            if day is None or (first := days.of(who)) is None or not days.other_day(first, who, day, m.group("year")):
                continue
            _said, what, (on_month, on_day) = first
            event = head[lead.end():] + (m.group("then") or "")
            gone = str((world.cards.get(who) or {}).get("状态") or "").startswith((*DEAD, *GONE))
            if not ((gone and WENT_RE.search(event)) or set(event) & set(what) - _RESTATED_PLAIN):
                continue
            told_of.add(who)
            out.append(Finding("连贯", ERROR, f"正文说「{sentence[start:m.end()].strip()}」，可{who}那件事是{on_month}月{on_day}日"
                               f"（世界观/角色卡：{what}），与书内时间的记载对不上", first_line + i, col + start, sentence.strip()[:60]))
    return out


GRAVE_DATED = re.compile(
    rf"(?P<whom>[^\W\d_]{{2,12}}?)之墓[”」’』]?[，,、：:\s]*(?:生于[^。！？!?，,；;\n]{{1,16}}?[，,、\s]+)?"
    rf"(?P<died>(?:卒|殁|逝|故|终)于)?(?P<cal>农历|阴历|夏历|旧历|公历|阳历)?"
    rf"(?P<date>(?:(?:(?![生于卒殁逝故终葬到至自从在是直])[^\W\d_]){{0,4}}?[\d〇零一二三四五六七八九十]{{1,5}}年)?"
    rf"(?P<cal2>农历|阴历|夏历|旧历)?(?:{_DAY_OF_MONTH}|正|冬|腊)月"
    rf"(?:初[一二三四五六七八九十]|{_DAY_OF_MONTH})?[日号]?)(?P<after>[^。！？!?，,；;\n”」’』]*)")
"""A grave marker's words with a date after the name (韩公某某之墓，一九七八年七月; 先考某公之墓，某年腊月廿八卒;
某某之墓，生于某年某月，卒于某年某月某日: the birth passed over): the date of the death of the one buried (T8, stop 59:
the way of writing of 连续性-盲评十三, 十四, 三十五, 三十六, 四十一 — two of them dated). Read by :func:`_grave_dated` only
as the marker's own words (:data:`GRAVE_FRAME`) or with a death word at the date (``died``, :data:`GRAVE_DEATH`); an
era before the year is no verb or preposition (生于, 直到: ft8, stop 59), and the calendar may be said (``cal``: 农历…)."""
GRAVE_DEATH = re.compile(r"^(?:卒|殁|逝|故|亡|终|去世|过世|辞世|谢世|病故|病逝|仙逝|遇难|殉职|牺牲)")
"""A death word right after a grave marker's date (某年某月某日卒): the date is the death's, framed or not."""
GRAVE_NOT_DEATH = re.compile(r"立|生|建|修|敬|迁|葬|埋|刻|造|竖|树")
"""What, in a grave marker's date's clause or the clause after it, makes the date no day of the death (某年清明立,
某年某月生, 某年重修, 补立, 迁葬, 某年某月 孝男某某敬立; ft8, stop 59: anywhere in the clause, the raiser's name between)."""
GRAVE_FRAME = re.compile(r"刻着|写着|刻的是|写的是|题着|书着|上书|刻的|写的")
"""Words that set out a marker's inscription within the run before 之墓 (碑上刻着先考某公之墓): the inscription is
after them. A run opening on a quote or a colon (碑上刻着：…, “…之墓，…”) is framed the same way."""
GRAVE_KIN = re.compile(r"之?(?:妻|夫人|遗孀|继室|元配|原配)|之(?:夫|子|女|母|父|孙|媳|妾|兄|弟|姊|姐|妹|侄|婿)|暨")
"""A kin word in a marker's words (某某之妻庞氏之墓, 某某之子某某, 先考某公暨先妣某氏): the buried is the name after the
last of them — the one before only says whose (ft8, stop 59)."""
GRAVE_LUNAR = re.compile(r"初[一二三四五六七八九十]|[廿卅]|(?:正|冬|腊)月")
"""A marker's date written the lunar way (初三, 廿八, 腊月): in a book whose card dates the death in Gregorian
years it is no Gregorian month (ft8, stop 59)."""
GRAVE_DAY_SLACK = 1
"""The days a grave marker's day may be off the card's day of death (died in the night, found or buried the next day)."""
_CLAUSE_AFTER = re.compile(r"[，,、\s]*([^。！？!?，,；;\n”」’』]*)")


def _buried(dead: Iterable[str], whom: str) -> str | None:
    """The one of ``dead`` (cards of :data:`DEAD` state) a grave marker's words ``whom`` name: their whole name in them,
    or a surname and a given name of two characters or more in order with honorifics between (先考汪公守拙, 梨园孟公鹤年);
    None when none, or more than one, is named."""
    found = {d for d in dead if d in whom or (len(d) >= 3 and d[0] in whom and d[1:] in whom[whom.index(d[0]) + 1:])}
    return next(iter(found)) if len(found) == 1 else None


def _marker_words(line: str, m: re.Match[str]) -> str | None:
    """The words of a grave marker :data:`GRAVE_DATED` matched that name the buried (after :data:`GRAVE_FRAME` and the
    last :data:`GRAVE_KIN`), when the date is the death's: a death word at the date, or the marker set out as an
    inscription (a quote or colon before it, or :data:`GRAVE_FRAME` in its run), not a speaker's 是 (那就是某某之墓), with
    a year or a day, and no :data:`GRAVE_NOT_DEATH` in the date's clause (or the clause after it, when the date ends its
    own); None otherwise (坡上就是某某之墓，腊月里…: the next clause's time, ft8, stop 59)."""
    whom = m.group("whom")
    frames = [f.end() for f in GRAVE_FRAME.finditer(whom)]
    framed = bool(frames) or (m.start("whom") > 0 and line[m.start("whom") - 1] in "：:“「『‘\"")
    if frames:
        whom = whom[frames[-1]:]
    died = m.group("died") is not None or GRAVE_DEATH.match(m.group("after")) is not None
    if not died:
        read = book_time(m.group("date"))
        if not framed or "是" in whom or read is None or (read[1][0] is None and read[1][2] is None):
            return None
        rest = m.group("after")
        if not rest.strip():
            nxt = _CLAUSE_AFTER.match(line, m.end())
            rest = nxt.group(1) if nxt else ""
        if GRAVE_NOT_DEATH.search(rest):
            return None
    kin = [k.end() for k in GRAVE_KIN.finditer(whom)]
    return whom[kin[-1]:] if kin else whom


def _grave_dated(world: World, lines: list[str], first_line: int) -> list[Finding]:
    """书内时间 of a death the prose contradicts on a grave marker (:data:`GRAVE_DATED`, :func:`_marker_words`): the one
    buried (:func:`_buried`) has one dated day in the book (:func:`_one_dated_day`: their card's death, or the one event
    the world or their card dates them) or a month of death on their card, and the marker names another month, or a day
    more than :data:`GRAVE_DAY_SLACK` from it, or another year of the same era than the death their card dates
    (:func:`dates_of_death`) (T8, stop 59). A marker dated the lunar way (农历, 初三, 腊月: :data:`GRAVE_LUNAR`) of one
    whose card dates the death in Gregorian years is not read (ft8, stop 59)."""
    out: list[Finding] = []
    dead: dict[str, list[str]] = {}  # the dead by their name's first character: a marker's words read against theirs only
    for d, card in world.cards.items():
        if str(card.get("状态") or "").startswith(DEAD) and d:
            dead.setdefault(d[0], []).append(d)
    buried: dict[str, str | None] = {}  # who each marker's words name, read once a draft (a line of thousands of markers)
    for i, line in enumerate(lines):
        if "之墓" not in line or not dead:
            continue
        for m in GRAVE_DATED.finditer(line):
            whom = _marker_words(line, m)
            if whom is None:
                continue
            if whom not in buried:
                buried[whom] = _buried([d for c in dict.fromkeys(whom) for d in dead.get(c, ())], whom)
            who = buried[whom]
            first = _one_dated_day(world, who) if who else None
            on: tuple[int, int | None] | None = first[2] if first else \
                (world.died[who][2], None) if who in world.died else None  # a card's month of death, no day
            read = book_time(m.group("date")) if on else None
            if who is None or on is None or read is None:
                continue
            era, (year, month, day) = read
            d_era, d_year, _d_month = world.died.get(who) or (era, year, month)
            lunar = m.group("cal") in ("农历", "阴历", "夏历", "旧历") or m.group("cal2") is not None \
                or GRAVE_LUNAR.search(m.group("date")) is not None
            if lunar and who in world.died and _gregorian(*world.died[who][:2]) is not None \
                    and (world.died[who][0] != "" or world.died[who][1] > 1000):
                continue  # a lunar date of a death the card dates in Gregorian years (民国, 一九五六年)
            if month != on[0] or (year is not None and era == d_era and year != d_year) \
                    or (day is not None and on[1] is not None and abs(day - on[1]) > GRAVE_DAY_SLACK):
                out.append(Finding("连贯", ERROR, f"正文里{who}的墓上写着「{m.group('date')}」，可{who}那件事是{on[0]}月"
                                   f"{f'{on[1]}日' if on[1] else ''}（世界观/角色卡），与书内时间的记载对不上",
                                   first_line + i, m.start("date") + 1, line.strip()[:60]))
    return out


DAY_OF_GOING = re.compile(rf"(?P<year>{'|'.join(YEAR_OFF)}|[^\W\d_]{{0,4}}?[\d〇零一二三四五六七八九十]{{1,5}}年)?"
                          rf"(?P<month>{_DAY_OF_MONTH}|正|冬|腊)月(?P<day>初[一二三四五六七八九十]|{_DAY_OF_MONTH})(?:[日号]|(?![日号]))"
                          rf"{_NO_BOUND}(?![\d〇零一二三四五六七八九十])")
"""A day the prose opens a telling on (去年七月十九日夜里，…; 那场沙暴是去年十月十九日下午起的，…), its year word or year
perhaps before it; not a bound (七月九日以前)."""
GOING_FOCUS = re.compile(r"^(?:就|便|正|也|才)?是|的[\u4e00-\u9fff]{0,2}$")
"""The stress that makes a clause the telling of when a thing happened: 是 right after the one named (爹就是从这道闸口…)
or a 的 closing the clause (…叫水卷走的, 你爹落的水: the 是…的 of a past event's time, 是 left out)."""
GOING_TOLD = re.compile(rf"(?:(?:死|过世|去世|出事|失踪|{'|'.join(MISHAP)})[^\W\d_的]{{0,6}}的?|(?:不在|不见)了的?"
                        r"|(?:走|没)(?:了|的|了的))$")
"""A clause's going told in its sense, as its last telling (R57's F8): a death or mishap word then at most a short place
and the closing 的 (压在老巷里的, 叫水卷走的, 死在井下的, 落的水), or 走/没 closed by 了 or 的 (那天走的, 那年没了) — never
走 the walk (走着送他去的, 走了三十里山路赶回来的), 没 the "not" (没去的, 一宿没睡的), nor a mishap the clause goes past
(压在底下的那几个人里头唯一爬出来的)."""
NEVER_BACK = re.compile(r"^(?:就|便|人)?再(?:也)?没(?:有)?(?:出来|回来|上来|回家|露面|见着)")
"""The clause after a stressed going-into that tells the one gone was lost there (走进北沟，再也没出来; the cards'
再没出来 / 再也没回来 of 开发三, 三十二, 三十七, 三十九: R57's F8)."""
GOING_CLAUSES = 2
"""How many clauses after the date's own the one who went may be named in (去年八月十二那天，排过清浪滩，你爹落的水)."""
GOING_REACH = 60
"""The most characters after the day (and after the one named) :func:`_going_on_day` reads for the one who went and
their clause: a few clauses of prose, so a line of thousands of dates and no clause's end is read in linear work."""


def _going_on_day(world: World, names: re.Pattern[str], now: str, sentences: list[tuple[int, int, str]],
                  first_line: int) -> list[Finding]:
    """书内时间: a day (:data:`DAY_OF_GOING`) the prose tells a dead or lost one's going on — named in that clause or
    one of the :data:`GOING_CLAUSES` after it, their clause stressing when (:data:`GOING_FOCUS`) and telling the going
    (:data:`GOING`, :data:`MISHAP`) — other than the one day the book gives them (:func:`_one_dated_day`): 去年七月十九日夜里，
    爹就是从这道闸口叫水卷走的 for a father drowned on 七月九日. Silent when the one named comes before the day (that is
    :func:`_date_restated`'s), when the year said is not the card's, on a lunar date in a Gregorian book, inside quotes
    other than the day's own, and on a question (T6, stop 57)."""
    days = _DatedDays.reading(world, now)
    if days is None:
        return []
    out: list[Finding] = []
    for i, col, sentence in sentences:
        if "月" not in sentence or not WENT_RE.search(sentence):
            continue
        told_of: set[str] = set()
        ends: list[int] | None = None  # where the sentence's clauses end, read once (not searched on per date or name)
        for m in DAY_OF_GOING.finditer(sentence):
            day = days.said(m)
            if day is None or not 1 <= day[1] <= 31:
                continue
            if ends is None:
                ends = [e.start() for e in _CLAUSE_OR_QUOTE_END.finditer(sentence)] + [len(sentence)]
            k = bisect.bisect_left(ends, m.end())
            after = ends[k:k + GOING_CLAUSES + 1]
            stop = min(after[-1], m.end() + GOING_REACH)
            if any(sentence[e] in "“”「」" for e in after[:-1]) or "？" in sentence[m.end():stop] or "?" in sentence[m.end():stop]:
                continue  # the words after the day leave its quote (or open one), or ask
            for n in names.finditer(sentence, m.end(), stop):
                who = world.aliases.get(n.group(), n.group())
                if who in told_of or not str((world.cards.get(who) or {}).get("状态") or "").startswith((*DEAD, *GONE)):
                    continue
                close = ends[bisect.bisect_left(ends, n.end())]
                clause = sentence[n.end():min(close, n.end() + GOING_REACH)]
                if not GOING_FOCUS.search(clause):
                    continue
                then = sentence[close + 1:close + 1 + GOING_REACH] if close < len(sentence) and sentence[close] in "，,；;" else ""
                if not ((close <= n.end() + GOING_REACH and GOING_TOLD.search(clause)) or NEVER_BACK.match(then)):
                    continue
                if (first := days.of(who)) is None:
                    continue
                told_of.add(who)
                if not days.other_day(first, who, day, m.group("year")):
                    continue
                _said, what, (on_month, on_day) = first
                out.append(Finding("连贯", ERROR, f"正文说「{sentence[m.start():n.end() + len(clause)].strip()}」，"
                                   f"可{who}那件事是{on_month}月{on_day}日（世界观/角色卡：{what or who}），与书内时间的记载对不上",
                                   first_line + i, col + m.start(), sentence.strip()[:60]))
    return out


DAY_SETTING = re.compile(r"的?(?:那天|那日|那晚|那夜|当天|当晚|夜里|夜间|晚上|傍晚|黄昏|早上|清早|一早|上午|中午|下午|午后|半夜|"
                         r"凌晨){0,2}(?:[，,：:]|$)")
"""What may follow a day of the month that sets the time of the clauses after it (五月初五晚上，马把头在南市…; 八月二十号
那天，…): a part of the day, then the clause's end. A day followed by its own doing (七月二十号就要交茶了，…) is a deadline
or a plan told of it, no setting for what comes after (R58 on P6, the ftp fixers' round of stop 58)."""
CLAUSE_OR_COLON_END = re.compile(f"[{CLAUSE_STOPS}：:]")
"""Where a clause of a card's or the prose's sentence ends: at :data:`CLAUSE_STOPS` or a colon (协领德克金九月里去了吉林乌拉，十月初八…;
五月初五晚上：…) — :func:`dated_subjects`, :func:`_another_days_at`."""


def _another_days_at(sentence: str, today: tuple[str, int | None, int, int] | None) -> list[tuple[int, int]]:
    """The spans of ``sentence`` told on a day of the month (:data:`DAY_OF_GOING`: 五月初五晚上，…; 八月二十号傍晚，…) other
    than the in-book date ``today``'s: someone placed in one is placed on that day, not now — a telling of another day,
    in a quote or the narration (P6, stop 58: the dated past opening a quote, in 连续性-盲评十二, 十五, 十九, 二十四, 三十一,
    三十四, 三十七 and 四十). A day setting the time (:data:`DAY_SETTING`) spans the rest of the sentence; any other day
    only the rest of its own clause (七月二十号就要交茶了，大根还在屯溪… places 大根 now). No in-book date: no day is
    another."""
    if today is None:
        return []
    spans = []
    for m in DAY_OF_GOING.finditer(sentence):
        month = _MONTHS.get(m.group("month") + "月") or _cn_int(m.group("month"))
        day = _cn_int(m.group("day"))
        if month is not None and day is not None and (month, day) != (today[2], today[3]):
            end = CLAUSE_OR_COLON_END.search(sentence, m.end())
            spans.append((m.start(), len(sentence) if DAY_SETTING.match(sentence, m.end()) or end is None else end.start()))
    return spans


def _day_of_year(month: int, day: int, lunar: bool) -> int:
    return (month - 1) * 30 + day if lunar else sum(_MONTH_DAYS[:month - 1]) + day


def _dated_today(now: str) -> tuple[str, int | None, int, int] | None:
    """``(era, year, month, day)`` of the in-book time when it names a month and a day (what a count of days is
    read against), else None."""
    read = book_time(now)
    if read is None:
        return None
    era, (year, month, day) = read
    return (era, year, month, day) if month is not None and day is not None else None


COMINGS_READ = 300
"""The most different comings (who and what they do, :data:`COME_IN`) one draft's counts are read against the book's
dated events (:func:`_come_in_days` reads every one): a chapter counts days to a few; thousands of different ones beside
a card of thousands of dates is no chapter, and each read past these is left unread (A11, stop 52)."""


def _countdown(world: World, now: str, sentences: list[tuple[int, int, str]], first_line: int) -> list[Finding]:
    """书内时间: days counted down to an event the world or a card dates, or to a date (:data:`COUNTDOWN`,
    :func:`dated_events`, :func:`_dated_end`) more than a day off the in-book date's (离上线只剩两天 on the 4th of a launch set for the 11th); a lunar
    calendar's months are read as thirty days and allowed two days off across a month's end (within one month the count is
    exact: 大后天 on 初三 is no 初八; T2, stop 52)."""
    today = _dated_today(now)
    if today is None:
        return []
    _era, _year, month, day = today
    lunar = _lunar(now)
    out: list[Finding] = []
    came_in: dict[tuple[str, str], tuple[str, tuple[int, int]] | None] = {}  # each who and doing read once (A11, stop 52)
    others: dict[tuple[str, str], bool] = {}  # each words-and-event read once (the cast and the dated events scanned)
    for i, col, sentence in sentences:
        if not COUNT_CUE.search(sentence):
            continue
        past = NOT_NOW.search(sentence)  # the first words telling the sentence outside now (到那时候 after the count is ahead)
        counts: list[tuple[re.Match[str], tuple[str, tuple[int, int], bool] | None]] = [
            (m, _dated_end(world, m.group("what").rstrip("的还"), month, day)) for m in COUNTDOWN.finditer(sentence)]
        for m in EVENT_LEFT.finditer(sentence):
            what = m.group("what")
            event = next((e for k in range(len(what) - 1) if (e := _world_event(world, what[k:])) is not None), None)
            if event is not None and (what, event) not in others:
                others[what, event] = _others_event(world, what, event)
            counts.append((m, (event, world.dated[event], True) if event and not others[what, event] else None))
        for m in itertools.chain(COME_IN.finditer(sentence), COME_ON_DAY.finditer(sentence)):
            said = (m.group("who").strip(), m.group("verb"))
            if m.groupdict().get("comma") and said[0] not in world.aliases and said[0] not in world.cards \
                    and _described_comer(world, said[0]) is None:
                continue  # a clause set off by a comma is no comer (验货组走了，后天就到省城: R62's r62-3)
            if said not in came_in:  # a draft's first COMINGS_READ who-and-doings each read once (A11, stop 52)
                came_in[said] = _come_in_days(world, *said, (month, day)) if len(came_in) < COMINGS_READ else None
            came = came_in[said]
            counts.append((m, (*came, True) if came else None))
        for m, end in counts:
            if past is not None and past.start() < m.end():  # told as past before the count or in it (那时秋试只剩两天了)
                continue
            count = AHEAD_DAYS[m.group("word")] if m.groupdict().get("word") else _cn_int(m.group("n").replace("几", "三"))
            if end is None or count is None:
                continue
            event, (on_month, on_day), dated = end
            left = _day_of_year(on_month, on_day, lunar) - _day_of_year(month, day, lunar)
            if left < 0 and on_month < month and not m.groupdict().get("word"):  # a day of the coming year (正月初五
                left += _day_of_year(12, 31, lunar)  # said in 腊月); never for a day word (明天 is no day a year off)
            slack = 2 if lunar and on_month != month else 1  # a lunar month's length unknown only across months
            if left < 0 or (count - slack <= left <= count + slack) or (m.group().find("不到") >= 0 and left <= count):
                continue
            when = f"定在{on_month}月{on_day}日（世界观/角色卡）" if dated else f"是{on_month}月{on_day}日"
            out.append(Finding("连贯", ERROR, f"正文说「{m.group()}」，可「{event}」{when}，本章的书内时间「{now}」离那天还有{left}天",
                               first_line + i, col, sentence.strip()[:60]))
    return out


_DIGITS = "〇零一二三四五六七八九"
WRITTEN_DATE = re.compile(rf"(?:(?P<year>[{_DIGITS}]{{4}}|\d{{4}})年)?(?P<month>{_DAY_OF_MONTH})月(?P<day>{_DAY_OF_MONTH})[日号]"
                          rf"(?:[，,、\s（(]*(?:星期|礼拜|周(?=[{_WEEKDAY}](?:[）)，,。；;！？!?\s]|$)))"
                          rf"(?P<weekday>[{_WEEKDAY}])[）)]?)?")
"""A Gregorian date written in the prose, with the weekday it says it is (一九九六年十月八日，星期三: a log's head;
一九九二年十月十四日（星期四）: a notice's, the weekday in brackets). 周 with its day is a weekday only closed by a
bracket or a clause's end (（周四）, ，周一。): before more name characters it is the surname (十月八日，周一鸣骑车…)."""
SCENE_DATE = re.compile(rf"(?:^\s*|(?<=[，,。；;！？]))(?P<month>{_DAY_OF_MONTH})月(?P<day>{_LUNAR_DAY}|{_DAY_OF_MONTH})[日号]?的?"
                        r"(?=[，,]?(?:夜里|夜间|晚上|傍晚|黄昏|早上|清早|一早|上午|中午|下午|午后|半夜|凌晨|夜[，,]|太阳|日头|月亮|"
                        r"天刚?蒙蒙亮|天刚亮|天还没亮|天不亮|天亮|天擦黑|天刚黑|天黑))")
"""Narration opening a clause on a day and a part of it or its sky (十月七日夜里，风停了; 九月十二的夜里，月亮快圆了;
…，十一月十三日的太阳，沉进了河里; a comma between them, and the light of dawn or dusk: 十月初一，天刚亮，…; T2, stop 52):
the scene's day from there on."""
WRITTEN_SOURCE = "(?:报|纸|书|信|帖|榜|告示|布告|文件|册|簿|账|本子|记|志|史|电报|广播|电话|通知)"
"""Where a report was read or heard, before its 上/里说 (报上说, 信里说, 书上说, 日记里说): not 马上说 or 心里说 (R51, stop 51)."""
TOLD_BEFORE = re.compile(rf"上(?:个)?(?:礼拜|星期|周|月)|前(?:些|几|两|一)[天日]|[几两三]天前|那[天日晚夜年]|那时|去年|前年|"
                         rf"[说讲]过|早[说讲]|上回[说讲]|{WRITTEN_SOURCE}[上里][说讲]|据说|写着|写的|写道|记着|记的|记载|提到|提起|听说|报道|登着|"
                         r"想起|记得|回想|忆起")
"""Words before a date in its sentence that tell that day as gone (上礼拜，十月三日的晚上), reported (报纸上说，十月三日的
晚上; 日记里写着，…; 早说过) or remembered (想起, 那天): the date is no scene's day. Not a bare 说 or 讲 (说也奇怪，
十月三日的夜里…; 小说): a report says where it was read or that it was told before."""
_YEAR_DIGITS = str.maketrans(_DIGITS, "0012345678" + "9")


def _dates_in_prose(now: str, lines: list[str], sentences: list[tuple[int, int, str]], first_line: int) -> list[Finding]:
    """书内时间 a date written in the draft contradicts: a Gregorian date whose weekday is another (:data:`WRITTEN_DATE`;
    its year written, or the in-book day itself), and a paragraph of narration opening on a day of this
    month before the in-book date (:data:`SCENE_DATE`; 那天/那夜 after it is a day remembered, a gone time, a report or a
    memory before it in its sentence, :data:`TOLD_BEFORE`, a day told as past)."""
    today = _dated_today(now)
    if today is None:
        return []
    era, year, month, day = today
    lunar = _lunar(now)
    out: list[Finding] = []
    for i, col, sentence in sentences:
        for m in WRITTEN_DATE.finditer(sentence):
            told = m.group("year")
            on_month, on_day = _cn_int(m.group("month")), _cn_int(m.group("day"))
            # without its year, only the in-book day itself is surely this year's (十一月二十号，礼拜一 may be last year's)
            on_year = int(told.translate(_YEAR_DIGITS)) if told else \
                (_gregorian(era, year) if (on_month, on_day) == (month, day) else None)
            if m.group("weekday") is None or lunar or not on_year or not on_month or not on_day \
                    or not 1800 <= on_year <= 2200:
                continue
            try:
                real = datetime.date(on_year, on_month, on_day).weekday()
            except ValueError:
                continue
            if min(_WEEKDAY.index(m.group("weekday")), 6) != real:
                out.append(Finding("连贯", ERROR, f"正文写「{m.group()}」，可{on_year}年{on_month}月{on_day}日是星期"
                                   f"{_WEEKDAY[real]}（本章的书内时间「{now}」）", first_line + i, col + m.start(), sentence.strip()[:60]))
    for i, line in enumerate(lines):
        if "月" not in line or NOT_NOW.search(line):
            continue
        narration = _QUOTED_WORDS.sub(lambda q: " " * len(q.group()), line)  # a date someone says is no scene's day
        for m in SCENE_DATE.finditer(narration):
            on_month, on_day = _cn_int(m.group("month")), _cn_int(m.group("day"))
            if line[m.end():].startswith(("那", "这")) or on_month != month or on_day is None or on_day >= day \
                    or TOLD_BEFORE.search(narration, max(narration.rfind(c, 0, m.start()) for c in "。！？!?") + 1,
                                          m.start()):
                continue
            out.append(Finding("连贯", ERROR, f"正文写「{line[m.start():m.end() + 2].strip()}」，可本章的书内时间是「{now}」（时间倒流）；"
                               f"倒叙就在草稿写「倒叙: true」", first_line + i, m.start() + 1,
                               _sentence_at(line, m.start()).strip()[:60]))
            break
    return out


DATE_LABELS = ("日期", "填表日期", "填报日期", "填写日期", "开票日期", "开单日期", "签发日期", "制表日期", "立据日期", "记录日期",
               "报告日期", "年月日")
"""A form's or a slip's label for its own date, the day it is filled or issued (日期：; 填表日期：; 日期一栏：), as opposed to
a day it names (复查日期, 交货日期, 截止日期 are other labels: days to come). T9, stop 60."""
AHEAD_WORDS = (*(w for w, n in _DAY_WORDS.items() if n > 0), "大后天", "下周", "下礼拜", "下星期", "下个月", "下月", "安排",
               "计划", "预定", "预订", "打算", "提前", "预先", "事先")
"""Words of a day or a plan to come before a record's later date (先写明天的安排：; 把明天的出货单填好): the record is filled
ahead for its own day, not dated wrong (R60 on T9)."""
AHEAD = re.compile(alternation(AHEAD_WORDS))
_ENTRY_DATE = (rf"(?:(?P<label>{alternation(DATE_LABELS)})(?:一栏|栏)?[：:]\s*)?"
               rf"(?P<date>[^\d〇零一二三四五六七八九十，,。；;！？“”「」\n]{{0,4}}(?:[\d〇零一二三四五六七八九十]{{1,5}}|元)年"
               rf"(?:{_DAY_OF_MONTH}|正|冬|腊)月(?:初[一二三四五六七八九十]|{_DAY_OF_MONTH})[日号]?)(?=\s*[，,。、\s（(])")
ENTRY_HEAD = re.compile(rf"^\s*(?P<quote>[“「『])?\s*{_ENTRY_DATE}")
"""A paragraph that is a written entry opening on its full date, year and all (“一九五六年九月十九日，晴，西北风四级。…”;
“至元二十四年九月十一，晴，北风。…”): a log's, a ledger's or a diary's head (T3, stop 54)."""
ENTRY_INLINE = re.compile(rf"[：:]\s*(?P<quote>[“「『])?\s*{_ENTRY_DATE}")
"""An entry's full date right after a colon inside a paragraph (…翻到最新一页，端端正正写上：1988年10月12日，晴…; …先在页头写上
日子：民国二十二年三月初三。): an entry written in the scene when the clause before the colon writes it now
(:data:`ENTRY_INTRO`'s reading; T5, stop 56)."""
WRITTEN_STATE = re.compile(r"^[^在往]*(?:[上里面]|[上里前页]头|[纸碑牌])[写记刻印抄]着|[写记]的是|上面[写记]")
"""An intro clause that tells a writing already there, read not written (纸上写着：; 碑上刻着：; 上面写：): no entry written
now (T5, stop 56). 写着 is a state only right after a surface (纸上, 碑上, 上面, 页头…) with nobody writing on it (no 在 or
往 before it: 在本子上写着, 往本子上写着 are one writing now), not a writing going on (一笔一画地写着, 正写着: R56 on T5; 埋头写着,
低头写着 — a head bent, no surface: R56B)."""
ENTRY_INTRO = re.compile(r"[^，,。；;！？“”「」]*[：:]\s*$")
"""The last clause of a paragraph, ending on a colon, that brings in the paragraph after it (…舔了舔笔尖，在新的一页上写下：;
…一笔一画地写：): with a word of writing now (:data:`WRITTEN_NOW`) and none of an old one (:data:`NOT_WRITTEN_NOW`) it
tells the entry after it is written in the scene, quoted or not (T4, stop 55)."""
ENTRY_INTRO_SPAN = 40
"""The characters at a paragraph's end read for :data:`ENTRY_INTRO` (a bounded window: a paragraph of thousands of
characters without a comma is not read again from each of them)."""
ENTRY_TOLD_SPAN = 80
"""How far back before an inline entry's intro, within its sentence, a gone or remembered day is read (R56B)."""
WRITTEN_NOW = re.compile(r"写|记下|记上|记进|记在|记了|誊|填|落笔|下笔|提笔|执笔|动笔|停笔|搁笔")
"""Words of the paragraph before or after an entry that tell it is being written in the scene (他先写日子和天气：;
…把这一行写进小本子; 杜青写到这里，停下笔)."""
NOT_WRITTEN_NOW = re.compile(r"翻|读|念|旧|补写|补记|补上|昨|前天|前儿|那天|那日|当年|那年|抄|找出|找到|当初|从前|以前|原来")
"""Words beside an entry that tell it is an old one read, copied or made up for a gone day (他翻开旧账; 补记昨天的;
照着当年那本抄): the entry's date is no slip then."""
ENTRY_KIND = re.compile(r"日记|日志|簿|账|帐|本子|记录|台账|流水|册|报表|班报|日报|新的一页|最新一页|新一页|页头")
"""Words beside an entry that name what it is written in, a log's, a ledger's or a diary's kind (把这一行写进小本子;
誊到记录簿上; 摊开流水簿; a shift's or a day's report sheet, 班报, 日报, 报表, and a register, 册: T4, stop 55), or a new page
of a book begun (翻开码簿新的一页, 翻到最新一页, 在页头写上: a kept book's next page, whatever the book is called; T7, stop
58): a statement, a report or a letter opening on the day it tells of is no entry (R54 on T3)."""
ENTRY_WEATHER = re.compile(r"\s*[，,]?\s*(?:晴|阴|雨|雪|多云|小雨|大雨|中雨|阵雨|雷雨|大风|小雪|大雪|雾|霜)")
"""The weather right after an entry's date (…九月十九日，晴，西北风四级): a log's or a diary's own head."""
NOT_AN_ENTRY = re.compile(r"信[纸封笺]|[写家回来书]信|封信|的信|说明|报告|证明|检讨|检查|交代|申请|材料|证词|供词|口供|"
                          r"呈文|状子|诉状|条子|字条|便条|遗书|通知|布告|启事|请柬|请帖")
"""Words beside an entry that name another kind of writing (写情况说明；给家里写信；写检查): its date is the day it
tells of, not the day it is written (R54 on T3)."""


def _entry_dated(now: str, lines: list[str], first_line: int) -> list[Finding]:
    """书内时间 a written entry contradicts: a paragraph that is an entry opening on a date of the in-book year
    (:data:`ENTRY_HEAD`, the era and year the same as the in-book time's) before the in-book day (or after it when the
    date is surely the entry's own, :func:`_other_day_this_year`: T9, stop 60), the paragraph beside it
    telling it is written now (:data:`WRITTEN_NOW`) and neither telling it old (:data:`NOT_WRITTEN_NOW`) nor another
    kind of writing (:data:`NOT_AN_ENTRY`), the entry a log's, a ledger's or a diary's by its weather after the date
    (:data:`ENTRY_WEATHER`) or its book named beside (:data:`ENTRY_KIND`): a log, a ledger or a diary written tonight
    heads its entry with today (T3, stop 54). An entry brought in by a clause writing it now (:data:`ENTRY_INTRO`:
    …在新的一页上写下：) needs no quotes, and its paragraph's other clauses do not tell it old (T4,
    stop 55). Silent without a dated in-book time, on an entry of another year or of a
    later day (an invitation names the day to come), on a statement or a letter opening on the day it tells of."""
    today = _dated_today(now)
    if today is None or today[1] is None:
        return []
    out: list[Finding] = []
    for i, line in enumerate(lines):
        m = ENTRY_HEAD.match(line)
        if m is None:
            if "：" in line or ":" in line:
                out += _entry_inline(now, today, lines, i, first_line)
            continue
        if not _other_day_this_year(m, line, today, next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")):
            continue
        # the nearest paragraph with text on each side, walked by index (a copy of the lines before each entry was the
        # draft's lines squared: thousands of entries; A14, stop 55)
        beside = [next((lines[j] for j in range(k, stop, step) if lines[j].strip()), "")
                  for k, step, stop in ((i - 1, -1, -1), (i + 1, 1, len(lines))) if 0 <= k < len(lines)]
        intro = ENTRY_INTRO.search(beside[0], max(0, len(beside[0]) - ENTRY_INTRO_SPAN)) if i > 0 else None
        if intro is not None and _writes_now(intro.group()):
            # brought in by a clause writing it now (在新的一页上写下：): the other words of that paragraph are its
            # own doings (翻开那本工簿，…), only the paragraph after may still tell the entry old
            if any(NOT_WRITTEN_NOW.search(t) for t in beside[1:]):
                continue
        elif m.group("quote") is None or not any(WRITTEN_NOW.search(t) for t in beside) \
                or any(NOT_WRITTEN_NOW.search(t) for t in beside):
            continue
        if any(NOT_AN_ENTRY.search(t) for t in beside) \
                or not (m.group("label") or ENTRY_WEATHER.match(line, m.end()) or any(ENTRY_KIND.search(t) for t in beside)):
            continue
        out.append(_entry_finding(now, m, first_line + i, line))
    return out


def _earlier_this_year(date: str, today: tuple[str, int | None, int, int]) -> bool:
    """Whether an entry's full ``date`` is of the in-book era and year and before the in-book day (``today``,
    :func:`_dated_today`)."""
    read = book_time(date)
    return read is not None and read[0] == today[0] and read[1][0] == today[1] and None not in read[1] \
        and (read[1][1], read[1][2]) < (today[2], today[3])


def _other_day_this_year(m: re.Match[str], line: str, today: tuple[str, int | None, int, int], before: str) -> bool:
    """Whether an entry's date (:data:`ENTRY_HEAD`, :data:`ENTRY_INLINE`) is another day of the in-book era and year than
    ``today`` that the entry cannot be headed with: an earlier one (:func:`_earlier_this_year`), or a later one when it is
    surely the entry's own — after a form's own date label (:data:`DATE_LABELS`: 日期：) or with the weather after it
    (:data:`ENTRY_WEATHER`): a record filled today is not dated a day still to come (T9, stop 60). A later day bare after
    a colon may be a plan's (在本子上记下：十月二十日，检查组来), and is not read; nor is one when ``before`` (the paragraph's
    words before the date, or the paragraph before an entry opening its own) names a day or a plan to come
    (:data:`AHEAD_WORDS`: 先写明天的安排：; 把明天的出货单填好: a record filled ahead for its day; R60 on T9)."""
    if _earlier_this_year(m.group("date"), today):
        return True
    if not (m.group("label") or ENTRY_WEATHER.match(line, m.end())) or AHEAD.search(before):
        return False
    read = book_time(m.group("date"))
    return read is not None and read[0] == today[0] and read[1][0] == today[1] and None not in read[1] \
        and (read[1][1], read[1][2]) > (today[2], today[3])


def _entry_finding(now: str, m: re.Match[str], at: int, line: str) -> Finding:
    """The finding of a written entry (:func:`_entry_dated`) headed with the earlier date ``m`` names."""
    return Finding("连贯", ERROR, f"正文写下的这一条记作「{m.group('date').strip()}」，可本章的书内时间是「{now}」：当天写的记录"
                   f"该记当天的日子；补记旧事就在正文写明（补记、昨天的…），倒叙就在草稿写「倒叙: true」",
                   at, m.start("date") + 1, line.strip()[:60])


def _writes_now(intro: str) -> bool:
    """Whether a clause bringing in an entry (before its colon) writes it now (:data:`WRITTEN_NOW`), not an old one
    (:data:`NOT_WRITTEN_NOW`) nor a writing already there (:data:`WRITTEN_STATE`)."""
    return bool(WRITTEN_NOW.search(intro)) and not NOT_WRITTEN_NOW.search(intro) and not WRITTEN_STATE.search(intro)


def _entry_inline(now: str, today: tuple[str, int | None, int, int], lines: list[str], i: int,
                  first_line: int) -> list[Finding]:
    """:func:`_entry_dated`'s reading of an entry inside paragraph ``i``, its date right after a colon
    (:data:`ENTRY_INLINE`): the clause before the colon writes it now (:func:`_writes_now`) outside anyone's quoted words
    (“明天你在账上写：…” is an order or a plan: R56), no gone or remembered day is told before it in the paragraph
    (:data:`TOLD_BEFORE`: 想起那天，她在本子上写下：; R56: a doing before it, 翻到新的一页, is the writer's own), the rest of the
    paragraph after the date and the next one tell it neither old (:data:`NOT_WRITTEN_NOW`) nor another writing (:data:`NOT_AN_ENTRY`), and a log's,
    a ledger's or a diary's kind is named in the paragraph or its neighbours, or the weather follows the date (T5, stop
    56: a page headed with another day of the in-book year in 连续性-盲评三十八 and 三十九). The first such date of a
    paragraph only."""
    line = lines[i]
    # what the paragraph and its neighbours say, read once a paragraph (not from each of its dates: a line of thousands
    # of dated entries): where the last old or other writing's word starts in it, whether the next one has any
    marks: tuple[int, bool, bool] | None = None
    quoted: list[tuple[int, int]] | None = None
    for m in ENTRY_INLINE.finditer(line):
        if not _other_day_this_year(m, line, today, line[:m.start()]):
            continue
        # the clause before the colon, read back at most ENTRY_INTRO_SPAN characters
        back = max(0, m.start() - ENTRY_INTRO_SPAN)
        intro = line[max(back - 1, *(line.rfind(c, back, m.start()) for c in _CLAUSE_ENDS + "“”「」")) + 1:m.start()]
        if not _writes_now(intro) or NOT_AN_ENTRY.search(intro):
            continue
        if quoted is None:
            quoted = [q.span() for q in _QUOTED_WORDS.finditer(line)]
        # an intro inside someone's words is an order, a plan or a report (“明天你在账上写：…”), no entry written now
        at = bisect.bisect_right(quoted, (m.start(), len(line))) - 1
        if at >= 0 and quoted[at][0] <= m.start() < quoted[at][1]:
            continue
        # a gone or remembered day before the intro in its own sentence (其其格想起那天，她在本子上写下：…), read back at most
        # ENTRY_TOLD_SPAN characters; a 那天 of an earlier sentence is another thought (那天的事她不愿再想。…写下：: R56B)
        said = m.start() - len(intro)
        since = max(said - ENTRY_TOLD_SPAN, *(line.rfind(c, 0, said) + 1 for c in "。！？!?"))
        if TOLD_BEFORE.search(line, since, said) is not None:
            continue
        if marks is None:
            after = next((lines[j] for j in range(i + 1, len(lines)) if lines[j].strip()), "")
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            last = max((w.start() for w in itertools.chain(NOT_WRITTEN_NOW.finditer(line), NOT_AN_ENTRY.finditer(line))),
                       default=-1)
            marks = (last, bool(NOT_WRITTEN_NOW.search(after) or NOT_AN_ENTRY.search(after)),
                     any(ENTRY_KIND.search(t) for t in (line, before, after)))
        last, next_old, kind = marks
        # a form's own date label (日期：) names the kind itself
        if last >= m.end() or next_old or not (kind or m.group("label") or ENTRY_WEATHER.match(line, m.end())):
            continue
        return [_entry_finding(now, m, first_line + i, line)]
    return []


def _said_today(now: str, sentences: list[tuple[int, int, str]], first_line: int,
                people: Iterable[str] = ()) -> list[Finding]:
    """书内时间 the prose contradicts: a weekday that the in-book date (a Gregorian year) is not, a
    day of the month counted from today (明天就是十二号了 on the 13th), a festival said to be now
    outside the months it falls in (:data:`SEASONS`), a season said now (:data:`SAID_SEASON`) whose character does not
    open one of ``people`` (the book's names and aliases) nor a given name of theirs, the name after a one-character surname
    (今天轮到秋生 names 向秋生; T6, stop 57)."""
    named = tuple(sorted({n for p in people if len(p) >= 2 for n in (p, p[1:] if len(p) == 3 else p)
                          if n[0] in SEASON_CHARS}))
    read = book_time(now)
    if read is None:
        return []
    era, (year, month, day) = read
    lunar = _lunar(now)
    # the weekday the in-book time writes after its date (民国二十四年十一月六日 星期三): any calendar's
    stated = STATED_WEEKDAY.search(now)
    weekday = min(_WEEKDAY.index(stated.group(1)), 6) if stated else None
    greg = _gregorian(era, year)  # 民国二十五年 counts the days of 1936
    out: list[Finding] = []
    for i, col, sentence in sentences:
        if NOT_NOW.search(sentence) or NOT_THIS_YEAR.search(sentence):
            continue
        said = None
        for m in TODAY.finditer(sentence):
            if m.group().endswith("号") and _numbered_thing(sentence, m.end()):
                continue  # 今天三号箱归你查: a numbered thing, not a day
            span = NUMBER_SPAN.match(sentence, m.end())
            if span and SPAN_OF_THINGS.match(sentence, span.end()) and not sentence[:m.start()].endswith(SPAN_FROM):
                continue  # 今天三号到十号归你查: a run of numbered things; today is one day
            shift = _DAY_WORDS[m.group(1)]
            if m.group(2) and greg and month and day and not lunar and 1800 <= greg <= 2200:
                try:
                    real = (datetime.date(greg, month, day) + datetime.timedelta(days=shift)).weekday()
                except ValueError:
                    continue
                if _WEEKDAY.index(m.group(2)) != real and not (m.group(2) in "日天" and real == 6):
                    said = m.group()
            elif m.group(2) and weekday is not None:
                if min(_WEEKDAY.index(m.group(2)), 6) != (weekday + shift) % 7:
                    said = m.group()
            elif (m.group(4) or m.group(5)) and day:
                told, told_month = _cn_int(m.group(4) or m.group(5)), _cn_int(m.group(3)) if m.group(3) else None
                if told is None or (told_month is not None and month is not None and told_month != month):
                    continue
                if told - shift != day and 1 <= told - shift <= 28:
                    said = m.group()
        for m in PAST_DATE.finditer(sentence) if month is not None and day is not None else ():
            told_month = _MONTHS.get(m.group("month") + "月") or _cn_int(m.group("month"))
            told_day = _cn_int(m.group("day"))
            if told_month and told_day and month is not None and day is not None \
                    and (told_month, told_day) > (month, day) and told_month - month <= 3 \
                    and first_end(COMING, sentence) > m.start():
                said = m.group()
        season = SAID_SEASON.search(sentence)
        if season and named:  # 今天轮到秋生: the season's character opens a name
            k = next(g for g in range(1, len(season.groups()) + 1) if season.group(g))
            season = None if sentence.startswith(named, season.start(k)) else season
        if season and month is not None and month not in SEASON_NOW[next(g for g in season.groups() if g)]:
            said = season.group()
        feast = FEAST_NOW.search(sentence)
        if feast and month is not None:
            word = feast.group(1) or feast.group(2)
            lo, hi = LUNAR_MONTHS[word] if lunar and word in LUNAR_MONTHS else dict(SEASONS)[word]
            if not lo <= month <= hi:
                said = feast.group()
        today = FEAST_TODAY.search(sentence) if lunar and month is not None and day is not None else None
        if today and not said:
            first_day, last_day = LUNAR_FEAST_DAYS[today.group(1) or today.group(2)]
            if not first_day <= (month, day) <= last_day:
                said = today.group()
        for feast_on in FEAST_ON_DAY.finditer(sentence) if lunar and not said and month and day else ():
            on = (day or 0) + _DAY_WORDS[feast_on.group(1)]
            first_day, last_day = LUNAR_FEAST_DAYS[feast_on.group(2)]
            if 1 <= on <= 29 and not first_day <= (month, on) <= last_day:
                said = feast_on.group()
                break
        if lunar and not said:
            said = _lunar_sky(now, month, day, sentence)
        elif not said and (not era or greg) and month is not None and day is not None:
            said = _gregorian_sky(greg, month, day, sentence)
        if said:
            out.append(Finding("连贯", ERROR, f"正文说「{said}」，与本章的书内时间「{now}」对不上", first_line + i, col,
                               sentence.strip()[:60]))
    return out


LATELY = (f"今儿个|今儿早上|今天早上|今天|今儿|今早|早上|早晨|一早|上午|中午|晌午|下午|后晌|傍晚|{'|'.join(JUST_NOW)}|"
          f"{YESTERDAY}|前儿个|前天|前儿|前日|这两天|这几天")
"""Times of the last few days, said right after someone in a quote (你爹前儿后晌…; 许组长早上…; two may stand together):
a report of what they did lately (T3, stop 54)."""
NOT_A_DOING = "是有没不好活要得该能会被挨遭受欠差剩"
"""What after 还, 又 or a just-now word is a being, a having, a negation, a wish or a being done to, not a doing."""
FUNERAL = "下葬|入土|出殡|火化|入殓|落葬|入葬"
"""A funeral, the dead the one acted on (你阿爸刚才下葬了; 巴特尔方才入土): no doing of the dead after a just-now word,
还 or 又 (R56 on T5)."""
LATELY_ACTS = (f"(?:还|又|(?<={'|'.join(JUST_NOW)}))(?![{NOT_A_DOING}那这的]|{FUNERAL})[\u4e00-\u9fff]"
               "|(?:还|又|也|刚|才|就|都)?(?:在|来|到|去|上|跟|给|找|问|打|喝|吃|坐|送|拿|说|叫)")
"""What follows those times when the one named did something then (还在我这儿喝了…; 来伙房打开水; 又来找…): after 还 or 又
any doing (晌午还蹲在马棚门口: T4, stop 55), not a being or a having (还是, 还有, 还好好的, 还活着: how a death is told),
nor a being done to (又被…念叨, 还挨了骂: the dead as object) or an owing or lacking (还欠着, 还差, 还剩: a state) (R55);
right after a just-now word (:data:`JUST_NOW`) any doing too (向艄公刚才托人带话来; T5, stop 56), not a that or this
(刚才那话), nor a funeral (:data:`FUNERAL`: 刚才下葬了, R56)."""
DEATH_TOLD = re.compile("|".join((*DEATH_WORDS, "走的", "走了", "没的", "去的", "归西", "咽[了的]?气", "断[了的]?气",
                                  "闭[了的]?眼", "翻的船", "船翻", "落的水", "出[了的]?事", "遇险", "被害", "丧[命生]",
                                  "送[了的]?命", "没[了的]?命", "丢[了的]?(?:性)?命", "撒手")))
"""Words of a quote that make it the telling of a death (你爹昨儿在县里医院走的; 昨儿个在河心翻了船; 前天还来买豆腐，
夜里就咽了气; 前天在渡口出的事): a death reported is no act of the dead, and a card that dates no death may be telling
this one (R54 on T3). :data:`DEATH_WORDS` and the spoken words of a death (走了, 咽了气, 出了事)."""
LATELY_DAYS = 30
"""The most days between a death (its card's date, :func:`dates_of_death`) and the in-book day that still count as
"lately": the dead of the last month may have done yesterday's things (counted in days, across a month's or a year's
end: 腊月二十九 to 正月初一 is two days)."""


@functools.lru_cache(maxsize=64)
def _lately_pattern(forms: str) -> re.Pattern[str]:
    """Someone of ``forms`` said right before a time of the last days and an act (:data:`LATELY`, :data:`LATELY_ACTS`),
    compiled once per book's names."""
    return re.compile(rf"(?<![他她])(?:你|您)?({forms})(?:{LATELY}){{1,2}}(?:{LATELY_ACTS})")


def _died_lately(world: World, who: str, now: str) -> bool:
    """Whether ``who`` may have been alive in the last days (a card that dates no death is read as dead before them, a
    quote telling the death being silent by :data:`DEATH_TOLD`): the in-book time names no month, or the days from the card's death (its last day of the month when no day is said) to
    the in-book day (its first when none is said) are at most :data:`LATELY_DAYS`, counted across a month's and a year's
    end (a lunar book counts thirty-day months; a year unsaid on either side is the nearest one) (T3, stop 54)."""
    read = book_time(now)
    if who not in world.died:
        return False
    if read is None:
        return True
    era, (year, month, day) = read
    if month is None:
        return True
    d_era, d_year, d_month = world.died[who]
    lunar = _lunar(now)
    length = 360 if lunar else 365
    d_day = world.died_day.get(who) or (30 if lunar else _MONTH_DAYS[d_month - 1])
    passed = _day_of_year(month, day or 1, lunar) - _day_of_year(d_month, d_day, lunar)
    if year is not None and d_era == era:
        passed += (year - d_year) * length
    elif passed < 0:
        passed += length  # 正月 after a 腊月 of no year said: the year before's
    return passed <= LATELY_DAYS


AWAITING = r"(?<![上中下平相对初头一次高何])等(?:到|着)?(?:你们?|您|咱们?|我们?)?"
"""Waiting for someone to do a thing, said before them (等老孟下了夜班, 等秦组长把月报表送过来, 等到你爹回来): what follows is
an act of theirs still to come — not 上等, 相等, 何等 (a word of 等), nor 等等."""
TO_COME = "赶明儿|明儿个|明儿|明天|明日|明早|明晚|明朝|后天|后儿|回头|改天|改日|过两天|过几天|下回|下次"
"""Times still to come, said before someone in a quote or before the clause they lead (明儿卸船，赵把头领头一班): an act of
theirs to come."""
NOT_A_DOER = "的之、和同与跟及那这是也不没别会在等他她家屋院房田铺店坟媳婆儿闺娘爹爸妈哥姐弟妹孙"
NOT_A_DOER_WORDS = "老婆|女人|婆娘|一[句个声封份点张笔]"
"""What right after someone waited for makes them no doer (等老孟的信, 等老孟那份抚恤, 等老孟和…): an owner, a list, a
copula; nor one of a time to come told not doing, or as the dead are spoken of (过两天再去，你师父不会怪你; 往后…阿爷在地底下
也能闭眼了: 连续性-盲评二十四, 十二's good drafts). Nor their household, kin or belongings (明天老洛家里摆席, 明儿老洛媳妇过来, 等洛桑他儿子回来,
老洛屋里的东西: a possessor's head or a kin word, :data:`NOT_A_DOER_WORDS` for the two-character ones), a word waited for
(等洛桑师傅一句话), nor the reduplicated wait (等老洛等了二十年: waiting for them, not them acting) (fs3, stop 60: S3-1)."""
NOT_A_RITE_IN_A_QUOTE = ("丧",)
"""Words of :data:`MOURNING_WORDS` that :data:`RITES` leaves out: read anywhere in a quote, bare 丧 is as often a mood
(哭丧着脸, 沮丧, 垂头丧气) as a funeral (fm1, stop 61, R61's m1-3): RITES reads the funeral's words of 丧 instead
(丧事, 奔丧…)."""
RITES = alternation((*(w for w in MOURNING_WORDS if w not in NOT_A_RITE_IN_A_QUOTE),
                     "灵", "遗", "地下", "丧事", "丧礼", "丧葬", "奔丧", "治丧", "吊丧"))
"""What the dead are waited on for (等老孟的周年, 明天老孟头七, 等老孟骨灰运回来): a rite or what they left, no act of theirs —
nor is anything in a quote that names one (明天给你爹上坟，你爹…: the dead spoken of as the dead). :data:`MOURNING_WORDS`
less :data:`NOT_A_RITE_IN_A_QUOTE`, with S3's own 灵, 遗, 地下 and the funeral's words of 丧 — not :data:`OF_A_DEATH`'s
(机灵 beside a count is no mourning). Right after a name (老孟灵前, 老孟遗下的) in :func:`_to_come_pattern`; anywhere in a
quote in :func:`_not_so` (so 机灵, 遗憾 there silence too, as before m1 of stop 61)."""
_RITE = re.compile(f"{RITES}|{FUNERAL}")
IF_ALIVE = re.compile(r"要是|如果|假如|若是|倘若|万一|还在的话|还活着|活过来|还等着|一直等|天天等|总说|总念叨|老念叨|总盼|"
                      r"盼着|以为|不信")
"""A quote's words before an act to come that make it a wish (要是老孟还在，等他下了班…), or another's hope reported (阿妈天天
坐在江边，还等着老洛回来; 阿妈总说，等老洛回来…: the bereaved who will not believe it — fs3, stop 60: S3-1): no act said to
come."""


def _to_come_pattern(forms: str) -> re.Pattern[str]:
    """Someone of ``forms`` (group 1) said in a quote to do a thing still to come: waited for (:data:`AWAITING`) or after a
    time to come (:data:`TO_COME`, leading their clause) — the act itself open: any character after them but
    :data:`NOT_A_DOER` or a rite (:data:`RITES`, :data:`FUNERAL`). S3's round (stop 60: 连续性-盲评四十, 四十四, 四十六)."""
    after = rf"(?![{NOT_A_DOER}]|{NOT_A_DOER_WORDS}|{RITES}|{FUNERAL})[\u4e00-\u9fff]"
    lead = rf"(?:{AWAITING}|(?:{TO_COME})(?:[^。！？!?；;，,“”]{{0,10}}?[，,])?\s*(?:你|您)?)"
    return re.compile(rf"{lead}(?>({forms})){after}")  # atomic: 洛桑师傅的 is not 洛桑 doing 师…


class _NotSoPatterns(NamedTuple):
    """What :func:`_not_so` reads a line with (each built of the held ones' ``forms``, the book's things or everyone's
    names): see there."""

    me: re.Pattern[str]
    lately: re.Pattern[str]
    to_come: re.Pattern[str]
    trace: re.Pattern[str]
    lead: re.Pattern[str]
    bequest: re.Pattern[str]
    others: re.Pattern[str] | None
    clause_led: re.Pattern[str] | None


def _not_so_patterns(world: World, forms: str) -> _NotSoPatterns:
    """:func:`_not_so`'s patterns, compiled once while their sources (``forms``, the book's things, everyone's names)
    read the same: kept in :attr:`World._by_book` under one key, the last sources beside them — a draft's own names
    make :attr:`World.aliases` another dict of the same names, so the sources are compared by what they read, not by
    identity as :func:`per_book` compares its deps (the dicts, or the sources made anew each draft, never are). Compiled
    for each draft before, seven patterns of the book's thousands of names and things were read again each time
    ``re``'s own cache of 512 had been pushed out (a card of 4,000 things: 2 s a draft; A14, stop 55)."""
    things = "|".join(map(re.escape, sorted(world.items, key=len, reverse=True)))
    everyone = '|'.join(map(re.escape, sorted(world.aliases, key=len, reverse=True)))
    sources = (forms, things, everyone)
    kept: tuple[tuple[str, str, str], _NotSoPatterns] | None = world._by_book.get("not_so")
    if kept is None or kept[0] != sources:
        kept = world._by_book["not_so"] = (sources, _NotSoPatterns(
            me=re.compile(rf"我(?:就)?是({forms})"),
            lately=_lately_pattern(forms),
            to_come=_to_come_pattern(forms),
            trace=re.compile(rf"({forms}){TRACE}"),
            lead=re.compile(rf"(?:^|[，,；;。！？\s]|[，,]是)({forms})"),  # 抬头一看，是爹，扛着锄头…: the one seen leads
            bequest=re.compile(rf"的?(?:[那这]?一?[{ITEM_KIND}]" + (rf"|{things})" if things else ")")),
            # someone else leading a clause, or named at all, takes the rest of the sentence (老韩看着陆青崖御剑)
            others=re.compile(rf"(?!{forms})(?:{everyone})") if world.aliases else None,
            clause_led=re.compile(rf"[，,；;]\s*(?!{forms})(?:{everyone})") if world.aliases else None))  # 卧床的: led by another
    return kept[1]


def _not_so(world: World, lines: list[str], first_line: int, held: dict[str, str], forms: str,
            seen: set[tuple[str, int]], now: str = "") -> list[Finding]:
    """状态 the prose contradicts otherwise than by a body in the scene: someone dead, missing or
    held naming themselves in a quote (“我是马国庆。”); the dead said in a quote to have done a thing in the last few
    days (:data:`LATELY`: 你爹前儿后晌还在我这儿喝了…; silent on a death told, :data:`DEATH_TOLD`, and for one
    who may have died lately, :func:`_died_lately`); the dead said in a quote to do a thing still to come
    (:func:`_to_come_pattern`: 等老孟下了夜班; silent on a death told and on a wish, :data:`IF_ALIVE`); a trace
    the dead left today (今天早上赵八级亲笔写的: :data:`FRESH`, :data:`TRACE`); someone kept in bed (:data:`ABED`) on their feet (:data:`ON_FOOT`)."""
    name = {**{a[0]: n for a, n in world.aliases.items() if len(a) == 2 and a[0] == a[1]}, **world.aliases}
    me, lately, to_come, trace, lead, bequest, others, clause_led = _not_so_patterns(world, forms)
    out: list[Finding] = []
    for i, line in enumerate(lines):
        if not line.strip() or NOT_NOW.search(line):
            continue
        found: list[tuple[str, str, int, str]] = []  # (who, what, column, excerpt)
        for q in _QUOTED_WORDS.finditer(line):
            for m in me.finditer(q.group()):
                who = name.get(m.group(1), m.group(1))
                if held[who].startswith(DEAD + GONE + CONFINED) and not (held[who].startswith(CONFINED)
                                                                          and _visited(lines, i, world.cards[who])):
                    found.append((who, "却在说话", q.start() + 1, line[q.start():].strip()[:60]))
            death_told = DEATH_TOLD.search(q.group())  # the quote-wide words read once a quote, not once a match (S3-5)
            for m in lately.finditer(q.group()):
                who = name.get(m.group(1), m.group(1))
                if held[who].startswith(DEAD) and not death_told and not _died_lately(world, who, now):
                    found.append((who, "却被人说成这几天还在做事（死者只能在回忆、转述往事里出现）", q.start() + m.start() + 1,
                                  line[q.start() + m.start():].strip()[:60]))
            wished = IF_ALIVE.search(q.group())  # an act to come after its first hit is a wish
            to_do = () if death_told or _RITE.search(q.group()) \
                else to_come.finditer(q.group(), 0, wished.start() if wished else len(q.group()))
            coming: set[str] = set()  # one finding a person a quote
            for m in to_do:
                who = name.get(m.group(1), m.group(1))
                if held[who].startswith(DEAD) and who not in coming:
                    coming.add(who)
                    found.append((who, "却被人说成往后还要来做事（死者不会再做事；说的是别人就改名字）", q.start() + m.start() + 1,
                                  line[q.start() + m.start():].strip()[:60]))
        carried: str | None = None  # the held one who led the sentence before, for a 他/她 leading the next
        for sentence in _SENTENCE.finditer(line):
            text = sentence.group()
            for m in trace.finditer(text):
                who = name.get(m.group(1), m.group(1))
                if bequest.match(text, m.end()):
                    continue  # 老班主留下的那枚扳指，这会儿…: where a thing came from, not a trace left today
                if held[who].startswith(DEAD) and FRESH.search(text):
                    found.append((who, "却留下了新的字迹", sentence.start() + 1, text.strip()[:60]))
            leads = [(m.group(1), m.start(1), m.end(1)) for m in lead.finditer(text)]
            opening = len(text) - len(text.lstrip())
            if not leads and carried and text[opening:opening + 1] in HE:
                leads = [(carried, opening, opening + 1)]  # 婉姐的声音抽过来。她抬手一挥…: the sentence before's subject
            carried = leads[0][0] if leads and leads[0][1] == opening else None
            for said, begin, end in leads:
                who = name.get(said, said)
                unable = next((row for row in UNABLE if held[who].startswith(row[0])), None)
                if unable is None:
                    continue
                if any(w == who and what == unable[2] for w, what, _c, _e in found):
                    continue  # one finding a person a paragraph: a hostile line of thousands is not read again at each
                rest = text[end:end + UNABLE_SPAN]
                other = (clause_led if unable[0] == ABED else others).search(rest) \
                    if others is not None and clause_led is not None else None
                rest = rest[:other.start()] if other else rest
                if unable[0] != ABED and (FORMERLY.search(text) or (rest := _QUOTED_WORDS.sub(" ", rest)) is None):
                    continue  # 老韩年轻时驭剑如飞: before the state; “你御剑带我去”: another's doing, said
                if unable[1].search(rest) and not NOT_THERE.search(text):
                    found.append((who, unable[2], sentence.start() + begin + 1, text[begin:].strip()[:60]))
        for who, what, column, excerpt in found:
            if (who, i) in seen:
                continue
            seen.add((who, i))
            out.append(Finding("连贯", ERROR, f"{who} 的状态是「{held[who]}」（角色卡·状态），正文里{what}",
                               first_line + i, column, excerpt, Subject("状态", who)))
    return out


def _lives_here(world: World, who: str, home: set[str]) -> bool:
    """Whether ``who`` is, by their card, where the point of view is (``home``: its card's or its
    moved 位置) and free to be seen: an apprentice of the house speaking though the 在场 list
    names only the leads is no surprise; someone whose card is elsewhere is."""
    card = world.cards.get(who, {})
    where, state = str(card.get("位置") or ""), str(card.get("状态") or "")
    return bool(where) and not state.startswith(DEAD + GONE + CONFINED) and any(_related(world, where, h) for h in home)


def _calls(lines: list[str]) -> list[bool]:
    """For each paragraph, whether a phone or video call is going on in it: begun (:data:`CALL_OPEN`)
    in it or in one of the :data:`CALL_RUN` non-empty paragraphs before, and not hung up
    (:data:`HANG_UP`) in a paragraph before it (the paragraph that says 我挂了 is still the call)."""
    out: list[bool] = []
    left = 0  # how many more non-empty paragraphs the open call carries
    for line in lines:
        if not line.strip():
            out.append(left > 0)
            continue
        opened, hung = CALL_OPEN.search(line) is not None, HANG_UP.search(line) is not None
        if opened and not hung:
            left = CALL_RUN
        out.append(left > 0 or opened)
        left = 0 if hung else max(0, left - 1)
    return out


calls_going_on = _calls


def _remote(lines: list[str], i: int) -> bool:
    """Whether the voice of line ``i`` comes from elsewhere: a call or a letter named in its
    paragraph or one of the :data:`CALL_SPAN` non-empty paragraphs before it, since the last call
    hung up (:data:`HANG_UP`)."""
    before = _recent(lines, i)
    ended = [k for k, line in enumerate(before) if HANG_UP.search(line)]
    before = before[ended[-1] + 1:] if ended else before
    return any(REMOTE.search(line) for line in [*before, lines[i]])


SCENE_REMEMBERED = re.compile(rf"{LOSS_DAY}|(?:^|(?<=[。！？!?]))\s*{THAT_DAY}")
"""A remembered scene opened in a paragraph's narration: a day named by a loss (秦师傅下葬那天，…) or a remembered day opening
a sentence (…手慢了下来。那天傍晚，老孟也是蹲在这个地方…)."""
BACK_TO_NOW = re.compile(rf"(?:^|(?<=[。！？!?；;，,]))\s*(?:{NOW_WORDS.pattern})")
"""A clause opening on a word for now (如今船头只剩他一个): the paragraph is back in the scene; 长生现在蹲的地方 inside a
clause only places the memory."""


def _remembered_on(lines: list[str], i: int) -> bool:
    """Whether line ``i`` carries on a remembered scene: the non-empty paragraph just before it opens one in its narration
    (:data:`SCENE_REMEMBERED`, not back to now after it: :data:`BACK_TO_NOW`) and neither says a word for now (:data:`lw_storyrepo.ranks.NOW_WORDS`)
    — the quote that follows (“一只就一只吧。”老贺说) is said then (F2, stop 59: 连续性-盲评四十三, 四十四; the same way of
    writing in the good drafts of 三, 十五, 三十八, 四十三, 四十五). One paragraph, read back over blank lines only."""
    if NOW_WORDS.search(lines[i]):
        return False
    k = i - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0:
        return False
    narration = _QUOTED_WORDS.sub(" ", lines[k])
    opened = SCENE_REMEMBERED.search(narration)
    return opened is not None and not BACK_TO_NOW.search(narration, opened.end())


def _recent(lines: list[str], i: int, span: int = CALL_SPAN) -> list[str]:
    """The ``span`` non-empty paragraphs before line ``i`` (:data:`CALL_SPAN` unless told), in order,
    read back from it (not every line before it, at each voice of a draft of thousands of lines)."""
    out: list[str] = []
    j = i - 1
    while j >= 0 and len(out) < span:
        if lines[j].strip():
            out.append(lines[j])
        j -= 1
    return out[::-1]


recent_paragraphs = _recent


SOMETHING = re.compile(r"(?:掏|捧|摸|拿|取|抽|翻|端|抱|拎|提|递|找|抖|亮)了?出(?:来)?了?(一(?:样|个|件|只)(?:东西|物件|物事|玩意儿?))")
"""Something brought out before it is said what it is (从兜里掏出一个东西，…。是那本…)."""
REVEAL = "(?:^|——|—|…)\\s*(?:原来|竟然|竟|正|赫然)?是"
REVEAL_SPAN = 2


def _revealed(sentences: list[tuple[int, int, str]], looked: list[str], names: re.Pattern[str],
              item_re: str) -> list[tuple[tuple[int, int, str], str]]:
    """A thing brought out unnamed (掏出一个东西) and then said to be a held thing, after a dash or in a sentence of
    its own led by 是 (——是方师姐那只匣子; 是唐姐那本本子。) within :data:`REVEAL_SPAN` sentences: the bringing-out
    sentence with the thing's name in place of 一个东西 — to read who used it —, the revealing sentence as what
    a finding quotes: ``((line, column, revealing sentence), sentence to read)``."""
    reveal = re.compile(rf"{REVEAL}(?:(?:{names.pattern})的)?({item_re})")
    out = []
    for j, sentence in enumerate(looked):
        shown = reveal.search(sentence)
        if shown is None:
            continue
        for k in range(j, max(-1, j - REVEAL_SPAN - 1), -1):
            brought = looked[k][:shown.start()] if k == j else looked[k]
            found = list(SOMETHING.finditer(brought))
            if found and sentences[j][0] - sentences[k][0] <= 2 * REVEAL_SPAN:
                m = found[-1]
                i, col, _said = sentences[k]
                out.append(((i, col, sentences[j][2]), brought[:m.start(1)] + shown.group(1) + brought[m.end(1):]))
                break
    return out


NEWCOMER = re.compile(rf"^\s*(?:{SIGHTED}|只见)|(?:坐着|站着|躺着|蹲着|靠着|走来|走过来|走进来|下来|进来|出来|来了|钻出)"
                      r"一?[个位名][^，,。！？]{0,8}?(?:人|男人|女人|老头|老太|老汉|汉子|孩子|姑娘|小伙子|后生|妇人|婆子|女子|男子|娃)")
"""A clause bringing in someone else — seen (看见满妹站在…) or arriving, sitting there (下来个瘦老头, 坐着一个…男人): the
subjectless clauses after it are no longer the sentence subject's (:func:`_subjectless`)."""
SEEN_LEAD = re.compile(rf"\s*(?:{SIGHTED}|只见)")
"""The start of a clause of seeing (看见他走到…): who follows it is the one acting after."""
SEEN_IN_CLAUSE = re.compile(rf"(?:{SIGHTED}|只见|望见|瞅见|瞥见|瞄见)")
"""A verb of seeing inside the lead's own clause (他看见刘满仓还睁着眼): the one seen, told doing something there, is
who the subjectless clauses after it are about when the next clause tells a state of theirs (:data:`SEEN_STATE`; …，手里
攥着个口琴: the one seen holds it, not the seer) (:func:`_seen_takes_over`, h16, stop 62). Not 发现 (发现她不在屋里: a state
noticed, the finder acts next: r62-1)."""
SEEN_STATE = re.compile(rf"\s*(?:还|正|仍|都|也)?(?:{BODY})[^，,。！？“”]{{0,2}}?(?:里|上|下|间|前|边)?[^，,。！？“”把]{{0,3}}?着")
"""What the clause after a seen one must open on for them to lead it (:func:`_seen_takes_over`): a part of the body
holding or wearing something (手里攥着, 怀里抱着, 肩上扛着) — a state of the one seen; an act of reaching or taking
(赶紧把…塞, 一把抓起…) or a bare V着 (笑着, 忙着, 跟着: the seer's manner) is the seer's (r62-1, r62-5)."""
SEEN_AS_STATE = re.compile(r"还|仍|正|着|一动不动")
"""What the seen clause itself must tell for the one seen to lead on (看见刘满仓还睁着眼, 看见她正躺着): a state; an act
of theirs done (进了门: a 了 in it) is news the seer reacts to (:func:`_seen_takes_over`, r62-5)."""
PLACED_BY = re.compile(r"的?(?:对面|旁边|身边|跟前|面前|身后|背后|脚边|手边|床边|床头|床前|那边|这边|家里|屋里|房里)")
"""A name followed by a place word (索法成对面的空案上): a place told, not the one acting."""
_ONE_PERSON = "(?![们的])"
"""What may not follow a pronoun (:data:`HE_ONE`) standing for one person as a subject: 们 (他们), 的 (他的)."""
_PRONOUN = re.compile(rf"{HE_ONE}{_ONE_PERSON}")
"""A pronoun of one person standing as a subject (not 他们, not 他的)."""
_PRONOUN_LEAD = re.compile(rf"(?:然后|接着|随后|于是|这才|便|又|再)?({HE_ONE}){_ONE_PERSON}")
"""A pronoun leading a clause, after a word of sequence at most (然后他…): the subject of the clauses after it."""


def _said(lead: re.Match[str]) -> str:
    """The name or pronoun a clause's lead says (他 of 然后他: :data:`_PRONOUN_LEAD`)."""
    return lead.group(1) if lead.re is _PRONOUN_LEAD else lead.group()


def _plain_description(description: str, names: re.Pattern[str]) -> bool:
    """Whether a description said between a use verb and a known thing (他爹传下来的, 刻着“平安”的) leaves the act a use of
    that thing: no person's name in it (老周留下的: whose it is, another reading), no verb of giving (:data:`GIVING`) and
    no seeing, thinking or saying (:data:`NOT_USE`) outside a quoted inscription. Pure; precision first (H5)."""
    bare = re.sub(r"“[^”]*”", "", description)
    return names.search(description) is None and GIVING.search(bare) is None and NOT_USE.search(bare) is None


def _quote_left_open(clause: str) -> bool:
    """Whether ``clause`` opens a quote it does not close (“…” or 「…」: both are written for words said) (fh12, stop 59)."""
    return max(clause.rfind(mark) for mark in "“「") > max(clause.rfind(mark) for mark in "”」")


def _seen_takes_over(clause: str, after: int, names: re.Pattern[str], following: str) -> re.Match[str] | bool:
    """Who a verb of seeing after ``after`` in ``clause`` (:data:`SEEN_IN_CLAUSE`) brings in as the subject of the
    clauses after it, the next of them being ``following``: the name seen, when the clause goes on to tell them doing or
    being in a state (:data:`SEEN_AS_STATE`: 看见刘满仓还睁着眼; not 看见刘满仓, the seen one only an object, nor 看见苏禾
    进了门, an act the seer reacts to) and ``following`` opens on a state of theirs (:data:`SEEN_STATE`: 手里攥着…); True when it is a pronoun so (看见她还醒着，手里…: someone, not the seer,
    and not a name we can tell); False otherwise — the seer leads on (看见苏禾进了门，赶紧把…: r62-1) (h16, stop 62)."""
    if not SEEN_STATE.match(following):
        return False
    for seen in SEEN_IN_CLAUSE.finditer(clause, after):
        who = names.match(clause, seen.end()) or _PRONOUN.match(clause, seen.end())
        told = clause[who.end():] if who is not None else ""
        if who is not None and told.strip(" \u3000”」’\"") and told[0] not in "“「：:的们" \
                and SEEN_AS_STATE.search(told) and "了" not in told:
            return who if names.match(clause, seen.end()) else True
    return False


def _subjectless(sentence: str, names: re.Pattern[str], use: re.Pattern[str],
                 acts: re.Pattern[str], described: re.Pattern[str] | None = None) -> list[tuple[int, str, str]]:
    """Things used in a clause that names nobody, by the person the sentence starts with:
    ``(position, person, item)``. ``described`` (groups: who, description, thing) reads a use across a description
    (:func:`_plain_description`) where ``use`` read none in that clause. The clauses of a quote opened after the lead (他站起
    来，“去，把你那把…拿来”; 「…」 alike; or opened in the lead's own clause: 老周说：“苏禾，把那只…还我。”) are skipped until it
    closes: what they do is someone's words (an order, a tale), not the lead's act."""
    lead = sentence.lstrip().lstrip("”」』’\"").lstrip()  # “…。”小禾又从袋里捧出…: the quote before is another sentence's close
    first = names.match(lead) or _PRONOUN_LEAD.match(lead)  # 他把…，拉开抽屉，取出少卿印; 然后他在围裙上擦了擦手，…
    lead_at = len(sentence) - len(lead)  # where the lead's text starts in the sentence
    out: list[tuple[int, str, str]] = []
    at = 0
    quoted = False  # inside a quote opened after the lead
    parts = re.split(r"([，,；;])", sentence)
    for k, clause in enumerate(parts):
        following = parts[k + 2] if k + 2 < len(parts) else ""
        if first is None and k % 2 == 0 and k > 0:
            # 下午四点交了班，赵铁军…，推出…: the first clause led by a name, or by a pronoun (写完了，他拉开…，取出…)
            first = names.match(clause) or _PRONOUN_LEAD.match(clause)
            quoted = first is not None and _quote_left_open(clause)
            seen_here = _seen_takes_over(clause, first.end(), names, following) if first is not None and not quoted \
                else False
            if seen_here is True:
                break  # 走到帐篷，他看见她还睁着眼，手里攥着…: someone seen, not the seer, and no name to tell (h16)
            first = seen_here or first
            at += len(clause)
            continue
        if k == 0:
            quoted = first is not None and _quote_left_open(clause)  # 老周说：“苏禾，把那只…还我。”: opened in the lead's clause
        if first is not None and k == 0 and not quoted:
            # 他看见刘满仓还睁着眼，手里攥着个口琴: the one seen doing something leads the clauses after (h16)
            seen_here = _seen_takes_over(clause, lead_at + first.end(), names, following)
            if seen_here is True:
                break
            if seen_here:
                first = seen_here
                at += len(clause)
                continue
        if first is not None and k % 2 == 0 and k > 0 and (quoted or _quote_left_open(clause)):
            # 常叔站起来，…，“去，把你那块纤板拿来，…”: the clauses while a quote opened after the lead is open are its words,
            # no act of the lead; the narration after it closes is the lead's again (“走，”扛起扁担…) (H12)
            opens, closes = max(clause.rfind(mark) for mark in "“「"), max(clause.rfind(mark) for mark in "”」")
            quoted = opens > closes
            if quoted or closes < 0:
                at += len(clause)
                continue
            at, clause = at + closes + 1, clause[closes + 1:]
        if first is not None and k % 2 == 0 and k > 0 and NEWCOMER.search(clause):
            seen = SEEN_LEAD.match(clause)
            seen = seen and (names.match(clause, seen.end()) or _PRONOUN.match(clause, seen.end()))
            if not seen:
                break  # 下铺坐着一个穿旧军大衣的男人，怀里抱着…; 看见满妹站在…，拿左手捏着…: the clauses after are another's
            first = seen  # 看见他走到…，从自己腰上摸出…: the one seen acts in the clauses after
            at += len(clause)
            continue
        if first is not None and k % 2 == 0 and k > 0 and clause and (names.match(clause) or clause[0] in HE):
            lead = names.match(clause)
            if lead is None or _said(first) in HE:
                break  # 他想…, 挣的钱，攒着…: a pronoun takes over; whose clauses follow is the reader's guess, not ours
            first = lead  # 沈青站在树下，阿福蹲在台阶上，手里拿着铜锣: the clauses after a new subject are its own
            at += len(clause)
            continue
        if first is not None and k % 2 == 0 and k > 0 and clause and not names.match(clause) and clause[0] not in HE:
            virtual = _said(first) + clause
            direct = [m.group("thing") for m in use.finditer(virtual) if m.start() == 0]
            if not direct and described is not None:
                direct = [m.group("thing") for m in described.finditer(virtual)
                          if m.start() == 0 and _plain_description(m.group("description"), names)]
            out += [(at, _said(first), thing) for thing in direct]
            for m in acts.finditer(virtual):
                act = m.group(2).split("的")[0]  # 手上的血玉扳指泛着光: the thing is the clause's subject
                # 他…，右手大拇指上那只白玉扳指: worn on a part of the sentence's subject
                worn = re.fullmatch(rf"[左右两]?(?:{BODY})+上(?:[那这]一?[{ITEM_KIND}].*)?", m.group(2)) is not None  # not 手上的…
                if m.start() == 0 and (worn or SUBJECTLESS_USE.search(act)) and not NOT_USE.search(m.group(2)):
                    out.append((at, _said(first), m.group(3)))
        at += len(clause)
    if first is None:
        return []
    if _said(first) in HE:  # the pronoun's own place, for the reader's antecedent of it
        out = [(len(sentence) - len(sentence.lstrip()), who, item) for _at, who, item in out]
    return list({(who, item): (at, who, item) for at, who, item in reversed(out)}.values())[::-1]


ANTECEDENT_REACH = 1000
"""How many characters before a pronoun on its own line :func:`_antecedent` reads (from the first sentence's start
there): a paragraph's names are within it; a 50,000-character line of thousands of 他 read whole per pronoun made a
check of seconds (A11, stop 52)."""


def _reach_back(line: str, at: int) -> str:
    """``line`` up to ``at``, from at most :data:`ANTECEDENT_REACH` characters back (a sentence's start)."""
    low = at - ANTECEDENT_REACH
    if low <= 0:
        return line[:at]
    end = _SENTENCE_END_NO_ELLIPSIS.search(line, low, at)
    return line[end.end() if end else low:at]


_SENTENCE_END_NO_ELLIPSIS = re.compile(f"[{SENTENCE_STOPS}]+[{CLOSING_QUOTES}]*")
"""Where :func:`_reach_back` starts a sentence: a sentence end as a finding shows it (:data:`findings._SENTENCE_END`)
but for an ellipsis (他……, a voice trailing off inside a sentence) and closing brackets. Not that one: an ellipsis
before the first full stop of the reach would start it earlier, and its names would be read."""
CARRIED_SPAN = 4
"""How many paragraphs back a pronoun is carried through paragraphs that name nobody (:func:`_antecedent`)."""


class _Named(NamedTuple):
    """What :func:`_antecedent` reads of a text before a pronoun, outside its quotes (“阿照，你来得正好。”她…: a name said in
    a quote is the one spoken to)."""

    found: tuple[str, ...]  # the characters with a card it names (not by a relation word), each once, in order
    someone: bool  # whether it names anyone with a card (by a relation word too)
    plain: str  # the text itself, its quotes left out
    last: str | None  # its last sentence, or the one before when the last starts with a pronoun (他把…，拉开抽屉，)
    told: bool  # whether it has a sentence at all (not only quotes and spaces)
    lead: str | None  # the character (by card or alias) its very last sentence opens on, else, when that one opens on a
    # pronoun, the one before it (:func:`_reads_back`)


LEAD_IN = re.compile(r"(?:[^，,。！？；;“”]{1,6}[，,])?(?:这时|那时|此时|这会儿|此刻|随后|接着|后来|于是|然后|忽然|突然)?")
"""What may come before the name a sentence opens on, as its subject (R53): a short clause of time naming no one
(第二天一早，秦岚进了…) or a word of time (这时秦岚进了…)."""


def _read_names(names: re.Pattern[str], world: World, text: str) -> _Named:
    """:class:`_Named` of ``text``."""
    text = _QUOTED_WORDS.sub("", text)
    said = [m.group() for m in names.finditer(text)]
    said_by = [world.aliases.get(x, x) for x in said]
    said_plain = [x.strip() for x in FULL_WIDTH_STOP.split(text) if x.strip()]
    ending = said_plain[-1] if said_plain else ""
    lead = _opening_name(names, ending) if ending else None
    if said_plain and said_plain[-1][:1] in HE:
        said_plain.pop()  # the pronoun's own sentence: the one before it says who
        # 焦师傅摇摇头。他把那页撕下来…: a last sentence led on by a pronoun has the lead of the one before it (H15)
        lead = _opening_name(names, said_plain[-1]) if said_plain else None
    return _Named(tuple(dict.fromkeys(f for x, f in zip(said, said_by) if x not in world.indirect and f in world.cards)),
                  any(f in world.cards for f in said_by), text,
                  said_plain[-1] if said_plain else None, ending != "",
                  world.aliases.get(lead.group(), lead.group()) if lead else None)


def _opening_name(names: re.Pattern[str], sentence: str) -> re.Match[str] | None:
    """The name ``sentence`` opens on as its subject: at its start, else after words of time (:data:`LEAD_IN`)."""
    lead_in = LEAD_IN.match(sentence)
    return names.match(sentence) or (names.match(sentence, lead_in.end()) if lead_in and lead_in.end() else None)


PARAGRAPHS_READ = 4096
"""How many paragraphs' :class:`_Named` a world keeps (:func:`_paragraph_names`) before it starts again."""


def _paragraph_names(names: re.Pattern[str], world: World, line: str) -> _Named:
    """:func:`_read_names` of a whole line, read once per line, names and aliases: a paragraph before thousands of
    pronouns was read again for each (a 30,000-character line of names before a line of 他 took minutes; A12, stop 53)."""
    # keyed on what _read_names reads of the world (its aliases, indirect words and cards), by identity
    memo: dict[tuple[re.Pattern[str], str], _Named] = \
        world.per_book("paragraph names", (world.aliases, world.indirect, world.cards), dict)
    if len(memo) >= PARAGRAPHS_READ:
        memo.clear()  # full: started again
    read = memo.get((names, line))
    if read is None:
        read = memo[(names, line)] = _read_names(names, world, line)
    return read


def _paragraphs_before(lines: list[str], i: int, count: int) -> list[str]:
    """The nearest ``count`` paragraphs (lines not blank) before line ``i``, nearest first: walked back to, not the whole
    draft's lines copied for each question (a line of thousands of pronouns asks once each; A12, stop 53)."""
    found: list[str] = []
    for k in range(i - 1, -1, -1):
        if len(found) == count:
            break
        if lines[k].strip():
            found.append(lines[k])
    return found


def _said_together(names: re.Pattern[str], aliases: dict[str, str], lines: list[str], who: set[str | None]) -> bool:
    """Whether one narrated sentence of ``lines`` (quotes left out) names everyone of ``who``: there together."""
    for line in lines:
        for sentence in _SENTENCE.findall(_QUOTED_WORDS.sub(lambda m: " " * len(m.group()), line)):
            if who <= {aliases.get(x.group(), x.group()) for x in names.finditer(sentence)}:
                return True
    return False


def _antecedent(names: re.Pattern[str], lines: list[str], i: int, col: int, world: World,
                pov: str | None = None, fit: Callable[[str], bool] | None = None) -> str | None:
    """The character the pronoun (他/她) at column ``col`` of line ``i`` stands for: among the
    characters (with a card, and ``fit`` when given: what is said of the pronoun can be said of them) named before
    it in its paragraph, else in the paragraph before — and the point of view, who is always there unless their
    gender says otherwise —, the only one, or the only one of the pronoun's gender (:attr:`World.gender`; one named
    there other than the point of view whose gender is untold is of either, and so then is the point of view when
    theirs is untold too); None when that leaves no one or several — no guess."""
    pronoun = lines[i][col - 1:col]
    earlier = _paragraphs_before(lines, i, CARRIED_SPAN)
    before = earlier[0] if earlier else ""
    # 林晚合上电脑。⏎地库很大，她走到哪儿…⏎她从包里摸出…: paragraphs naming nobody, led on by the same pronoun,
    # carry it back to the last paragraph that names someone
    carried = []
    for k, line in enumerate(earlier[1:], 1):
        nearer = _paragraph_names(names, world, earlier[k - 1])
        if nearer.someone or pronoun not in nearer.plain:
            break
        carried.append(line)
        if _paragraph_names(names, world, line).someone:
            break
    for read in _reads_back(names, world, lines, i, col - 1, (before, *carried[-1:])):
        found = [f for f in read.found if fit(f)] if fit is not None else list(read.found)
        # 卓监工拿着扇子…。簿子摊在窗台上，他推了推眼镜: one named right there whose gender no card tells is not ruled
        # out by the pronoun — the point of view, whose gender is known, is no likelier (issue 30, H3); the point of
        # view's own untold gender rules no one out (阿福提着灯笼走在前头，顾小满跟在后面。他掏出…: 阿福)
        unsure = [f for f in found if not world.gender.get(f) and f != pov]
        if found and pov and pov not in found and world.gender.get(pov) in (None, "", pronoun) and (fit is None or fit(pov)):
            found.append(pov)
        if unsure and pov in found and not world.gender.get(pov):
            unsure.append(pov)  # 老韩提着马灯…。他掏出… with no gender told on either: two unsure — no guess (R52)
        if len(found) == 1:
            return found[0]
        fits = [f for f in found if world.gender.get(f) == pronoun]
        could = fits + [f for f in unsure if f not in fits]
        lead = names.match(read.last) if len(could) > 1 and read.last is not None else None
        if lead is not None and world.aliases.get(lead.group(), lead.group()) in fits:
            return world.aliases.get(lead.group(), lead.group())  # 沈青等不到周铁牛回来。他…: the last sentence's subject
        if found:
            return could[0] if len(could) == 1 else None
    return None


def _known_not_done(sentence: str, start: int, acted: int, thing: int) -> bool:
    """Whether the act whose doer is named at ``start`` of ``sentence`` (ending at ``acted``; the thing at ``thing``)
    stands under a verb of knowing or remembering (:data:`KNOWN_NOT_DONE`: the verb right before the doer, and a why, a
    how or a time gone between the doer and the thing where the row asks it): a fact known or remembered, not an act
    of the scene's now (H9, stop 56). Reads only the few characters before the doer and the span to the thing."""
    head = sentence[max(0, start - 12):start]
    between = sentence[acted:thing] if thing > acted else ""
    return any((verb is None or verb.search(head)) and (needed is None or needed.search(between))
               for verb, needed in KNOWN_NOT_DONE)


NAME_LENGTHS = (2, 3, 4)
"""The lengths of a cast name read right after a post (:func:`_post_of_another`): 孙志刚, 欧阳明月."""


OTHER_OF_POST = "副正代前原新"
"""Right before a card's bare post (指导员, 书记: an alias with no surname), what makes it another holder: a deputy or a
head beside him (副指导员, 正书记), an acting one, a predecessor or a successor (代站长, 前书记, 原厂长, 新指导员). Not 老:
老护士长, 老班长 is the holder himself, called with regard (an older round's test: the lead's run of the test directory
after the merges, stop 62)."""
OTHER_UNIT = re.compile(r"(?:[一二三四五六七八九十两\d]|[别外邻]|隔壁|人家)[\u4e00-\u9fff]{0,3}?[连营团排班队组厂局处科社站所部院校]的?$")
"""Before a card's bare post, another unit named as its own (二连的指导员, 隔壁厂书记, 外县的县长): that unit's holder of
the post, not the card's person (rk3's round, stop 62)."""
POST_ENDS = (*ROLE_TITLES, *PEOPLE_WORDS, "长", "员", "记")
"""How a card's bare alias ends when it is a post (指导员, 书记, 基地长, 掌柜, 先生) and not a nickname (强哥, 眼镜): only a
post has deputies, successors and other units' holders (:func:`_another_holder`)."""
HOLDER_REACH = 8
"""How many characters before a bare post :func:`_another_holder` reads."""


OWN_UNIT = re.compile(r"(?:咱们?|我们|俺们?|本)$")
"""Before a numbered unit, what makes it the speaker's own (咱们一队书记): its holder may well be the card's person."""


def _another_holder(before: str) -> bool:
    """Whether ``before`` (the words up to a card's bare post) makes the post another holder's: :data:`OTHER_OF_POST`
    glued to it or :data:`OTHER_UNIT` before it, not one's own (:data:`OWN_UNIT`, r62-2 on rk3's round)."""
    if before and before[-1] in OTHER_OF_POST:
        return True
    unit = OTHER_UNIT.search(before)
    return unit is not None and OWN_UNIT.search(before, 0, unit.start()) is None


def _post_of_another(world: World, sentence: str, start: int, said: str) -> bool:
    """Whether ``said``, a name read at ``start`` of ``sentence``, is a post one card holds (its 境界: 候长, 镶头 — prose
    calls that card's person by it) said after a surname that is not that person's (孙候长, 罗镶头: another man of
    the post, or one who held it once): no one the cards tell apart, so nobody's hands (issue 30, H4 at stop 53). Or the
    post set before another person's name (段长孙志刚, 院长李明: the post, right or wrong, is that person's — the 境界
    check's — not its card holder's: P3 at stop 56). Or any bare alias of no surname (指导员, 书记) said as another's
    post (:func:`_another_holder`: 副指导员, 新书记, 二连的指导员 — rk3's round, stop 62)."""
    who = world.aliases.get(said, said)
    card = world.cards.get(who)
    if card is not None and said != who and not surname_of(said) and said not in world.indirect \
            and (said in world.stages or said == str(card.get("境界") or "") or said.endswith(POST_ENDS)) \
            and _another_holder(sentence[max(0, start - HOLDER_REACH):start]):
        return True  # 副指导员, 新指导员, 二连的指导员: a deputy, a successor or another unit's holder of the post
    if card is None or said == who or surname_of(said) or str(card.get("境界") or "") != said:
        return False
    after = start + len(said)
    if any(world.aliases.get(sentence[after:after + n], who) != who for n in NAME_LENGTHS):
        return True
    if start == 0:
        return False
    before = sentence[start - 1]
    return before not in NOT_SURNAME_BEFORE_POST and surname_of(before + said) == before and not who.startswith(before)


def _reads_back(names: re.Pattern[str], world: World, lines: list[str], i: int, at: int,
                paragraphs: Iterable[str]) -> Iterator[_Named]:
    """The names read back from position ``at`` of line ``i`` (up to it, from its sentence's start: :func:`_reach_back`),
    then those of each of ``paragraphs`` in turn: :func:`_antecedent` looks for the one a pronoun stands for in them,
    and a pronoun using the point of view's own thing (H4) for the name the last sentence opens on
    (:attr:`_Named.lead`, read only where that sentence tells anyone: :attr:`_Named.told`)."""
    yield _read_names(names, world, _reach_back(lines[i], at))
    for paragraph in paragraphs:
        yield _paragraph_names(names, world, paragraph)


def _spoken_not_done(m: re.Match[str], line: str, at: int) -> bool:
    """Whether the 我拿/我用 X match ``m`` (of a sentence standing at ``at`` of ``line``) tells no act done with X: a plan
    or modal before the verb (我要拿…), a fetch (去拿…来), a return (拿…还给他) or a question (我拿…干什么？); a refusal, an inability or a barter after the verb (我用不着…, 我拿X换你的…)."""
    return bool(SPOKEN_NOT_DONE.search(m.group(1)) or SPOKEN_BETWEEN_NOT_DONE.search(m.string, m.start(2), m.start(3))
                or SPOKEN_AFTER_NOT_DONE.match(line, at + m.end()))


def _claims_own(m: re.Match[str], line: str, at: int, voices: tuple[list[Any], list[int]], names: re.Pattern[str],
                holder: str | None, named: set[str], holder_near: Callable[[str | None], bool]) -> str | None:
    """Who says the words where the match ``m`` (of a sentence standing at ``at`` of ``line``; ``voices`` the line's and
    where their words start: :func:`_voice_at`) has the speaker call a known thing their own (我那只…千里镜), when it says
    they have it now; None when it does not, or outside anyone's words. Not a
    claim of now: a time gone, a supposition or a comparison in the clause before 我 (:data:`MINE_BEFORE_NOT_NOW`), or
    another person taking or using it there (:data:`TAKEN_BY`), the thing given, lost or asked after in the clause after
    it (:data:`MINE_NOT_NOW`) or out of hand anywhere after it in the sentence (:data:`MINE_ELSEWHERE`), a sentence
    asking (谁瞧见我那只表了？), the thing's card ``holder`` among the names of the sentence (``named``: 苏禾，把我那只表
    还我; …在苏禾手里), a 我 inside a ‘…’ quote of the words or in a mimicry (:data:`MIMIC`: another's 我). A speaker the
    text does not name (a pronoun, turn-taking) will do only when the holder is not near (``holder_near``:
    :func:`_holder_near`): then whoever says it is not the one holding it. The clause before 我 is read :data:`LOOK_BACK`
    characters back at most (H12, stop 59; fh12's narrowing of R59's H12-1)."""
    sentence = m.string
    voice = _voice_at(*voices, line, at + m.start())
    low = max(0, m.start() - LOOK_BACK)
    clause = sentence[max(sentence.rfind(mark, low, m.start()) for mark in "，,：:；;“") + 1 or low:m.start()]
    if voice is None or MINE_BEFORE_NOT_NOW.search(clause) or MINE_NOT_NOW.match(sentence, m.end()) \
            or any(TAKEN_BY.match(clause, o.end()) for pattern in (names, OTHER_PERSON) for o in pattern.finditer(clause)):
        return None
    where = at + m.start()
    end = _WORDS_SENTENCE_END.search(line, at + m.end())
    if MINE_ELSEWHERE.search(line, at + m.end(), end.start() if end else len(line)) or (end and end.group() in "？?") \
            or holder in named or MIMIC.search(line, 0, where):
        return None
    words = line[line.rfind("“", 0, where) + 1:where]
    if words.count("‘") > words.count("’"):
        return None  # 苏禾老念叨‘我那只秒表’: the 我 of someone's words repeated
    if getattr(voice, "guessed", False) and holder_near(holder):
        return None
    return str(voice.speaker)


def _writer_of(lines: list[str], i: int, end: int, names: re.Pattern[str], aliases: dict[str, str]) -> str | None:
    """Who wrote the quoted words of line ``i`` closing at ``end`` (their closing quote, or the line's end) when they are
    a signed letter or note: the words close on a name of the book standing as a sentence of its own with a
    :data:`SIGN_OFF` or a :data:`LETTER_DATE` after it (:func:`signature`: …守仁顿首。”, …姐，七月廿八。”), or alone when the narration sets
    the words out as written (:data:`WRITTEN_FRAME`: 添了一行：“…以后就是他的。黄振江。”), or a quote of the next
    :data:`HOLDER_NEAR` paragraphs closes on a name and a letter's :data:`STRICT_SIGN_OFF` (the same letter read on:
    both paragraphs quoted words alone, :func:`_quote_alone`).
    None when nothing signs them: a vocative after a comma (…是不是，老周。”) or a bare name said aloud (谁来问过？苏禾。)
    signs nothing (H13, stop 60; fh13's narrowing of R60's H13-4)."""
    line = lines[i]
    # a signature closes the words: their last LOOK_BACK characters are read, not the whole of a long quote
    low = max(0, end - LOOK_BACK)
    words = line[max(line.rfind("“", low, end) + 1, low):end]
    m = signature(names.pattern).search(words)
    if m is not None and (m.group("off") or _set_out_written(line, end)):
        return aliases.get(m.group(1), m.group(1))
    if not _quote_alone(line):
        return None  # 老周摆摆手：“…”: words with their own speaker are no letter's read on
    letter = re.compile(rf"(?:^|[。！？!?\s])({names.pattern})(?:{STRICT_SIGN_OFF})[。.]?\s*”")
    for later in itertools.islice((lines[k] for k in range(i + 1, len(lines)) if lines[k].strip()), HOLDER_NEAR):
        m = letter.search(later)
        if m is not None:
            return aliases.get(m.group(1), m.group(1)) if _quote_alone(later) else None
    return None


def _quote_alone(paragraph: str) -> bool:
    """Whether ``paragraph`` is quoted words alone, as a letter set out paragraph by paragraph is (“周兄：…”, or its
    middle paragraphs opened and not closed): no narration before or after them names who says them (fh13, stop 60,
    R60's H13-6)."""
    text = paragraph.strip()
    return text.startswith("“") and text.find("”") in (-1, len(text) - 1)


def _set_out_written(line: str, end: int) -> bool:
    """Whether the narration of ``line`` just before the quote closing at ``end`` sets it out as written
    (:data:`WRITTEN_FRAME`), read :data:`LOOK_BACK` characters back from the quote's opening, to an earlier quote's close."""
    opening = line.rfind("“", 0, end)
    before = line[max(0, opening - LOOK_BACK):max(opening, 0)]
    return WRITTEN_FRAME.search(before, before.rfind("”") + 1) is not None


def _kept_away(m: re.Match[str], speaker: str | None, holder: str | None) -> tuple[str, str] | None:
    """What the words matched by ``m`` (a known thing, then :data:`KEPT_AT` and :data:`KEEPER_PLACE`,
    :data:`KEEPER_HOLDS` or :data:`LEFT_AWAY`) say of who has it now, against its card ``holder`` and the words'
    ``speaker`` (their writer when they are signed): ``(who, how)`` — the speaker keeping another's thing (东家那方铜印
    在我抽屉里, 爹那杆戥子我带到上海来了: how ``"kept"``, who the speaker), or its holder telling it out of their hands
    (我那架望远镜送给他了, 我那方图章留在账房抽屉里: how ``"left"``, who the holder) —; None when it says neither or
    the speaker is unknown (H13, stop 60)."""
    if speaker is None or holder is None or KEEPING_NOT_NOW.search(m.group("verb")):
        return None
    owner = m.group("owner")
    if m.group("keeper") is not None or m.group("holds") is not None:
        return (speaker, "kept") if speaker != holder and owner not in MINE_SPEAKERS else None
    # 我那架…; the holder's words naming no owner only in a handing over into another's keeping (站章自即日起交…保管)
    if (owner in MINE_SPEAKERS or (owner is None and m.group("handover") is not None)) and speaker == holder:
        return holder, "left"
    return None


def _record_findings(world: World, records: tuple[re.Pattern[str], ...], sentence: str, said_sentence: str, line: str,
                     col: int, row: int, owners: dict[str, str], by_length: list[str],
                     changed: set[tuple[str, str]]) -> list[Finding]:
    """The 持有 findings of a record's line in ``sentence`` (``records``: :data:`RECORD_TAKES` then the thing,
    :data:`RECORD_OWNER`; groups ``owner`` and ``thing``) naming whose a known thing was when the record took it (今暂收NAME
    随身…护书一只, 梅花银簪一支，…当户NAME): its card holder — out of their hands now —, or another — the card gives it to
    someone else —, with no change of the draft's (``changed``: ``(who, thing)``) saying so. ``row`` is the finding's
    line number. Not a record told of a time gone (当年…今收到…: :data:`PAST_TIME` in its clause before it), nor a list
    line with another known thing between (the gap of :data:`RECORD_OWNER` has none) (h16, stop 62)."""
    out = []
    for record in records:
        for m in record.finditer(sentence):
            item = _canonical(m.group("thing"), world.items, by_length)
            who = world.aliases.get(m.group("owner"), m.group("owner"))
            holder = owners.get(item)
            low = max(0, m.start() - KEEPING_CLAUSE_MAX)
            if holder is None or who not in world.cards or (who, item) in changed or (holder, item) in changed \
                    or re.search(PAST_TIME, sentence[low:m.start()]) or re.match(RECORD_AT, sentence[m.end("owner"):]) \
                    or re.match(RECORD_BACK, sentence[m.end("owner"):m.end("owner") + KEEPING_CLAUSE_MAX]):
                continue  # 失主苏禾刚来领走了, 现存苏禾处…: back with them, or kept at theirs (r62-2, r62-3)
            named_at = line.find(m.group("thing"), col - 1) + 1 or col
            if holder == who:
                out.append(Finding("连贯", ERROR, f"{who} 的持有里有「{item}」（角色卡·持有），正文的字据却写它已从{who}手上"
                                   f"收走{ANSWER_MARK}本章收走了就在设定变更写「{who}.持有-{item}」；都不是就改写这句",
                                   row, named_at, said_sentence.strip()[:60], Subject("持有", who, item)))
            else:
                out.append(Finding("连贯", ERROR, f"{who} 的持有里没有「{item}」（角色卡·持有：{'、'.join(world.holdings()[who]) or '无'}）"
                                   f"（它在{holder}的持有里），正文的字据却写它是{who}的{ANSWER_MARK}本章交到{who}手里就在设定变更写"
                                   f"「{who}.持有+{item}」；都不是就改写这句", row, named_at, said_sentence.strip()[:60],
                                   Subject("持有", who, item)))
    return out


def _carried_topic(m: re.Match[str], names: re.Pattern[str]) -> bool:
    """Whether a keeping match (``keeping`` of :func:`check_continuity`) with a clause between its thing and its verb
    (group ``between``) still says the thing is kept: only a keeping place of the speaker's (还在我挎包里: group ``keeper``)
    after a clause naming no one but the speaker (我借去吹了两支歌), none of :data:`CARRIED_NOT` or of
    :data:`KEEPING_NOT_NOW`'s words — the thing is the dropped subject of the keeping clause. True with no clause between
    (h16, stop 62)."""
    between = m.group("between")
    return between is None or (m.group("keeper") is not None and names.search(between) is None
                               and CARRIED_NOT.search(between) is None and KEEPING_NOT_NOW.search(between) is None)


def _kept_findings(world: World, keeping: re.Pattern[str], sentence: str, said_sentence: str, lines: list[str], i: int,
                   col: int, first_line: int, speakers: dict[int, list[Any]], names: re.Pattern[str],
                   aliases: dict[str, str], owners: dict[str, str], by_length: list[str],
                   changed: set[tuple[str, str]]) -> list[Finding]:
    """The 持有 findings of the words of ``sentence`` (line ``i``, column ``col``; ``said_sentence`` as written) that say
    where a known thing is now (``keeping``: :func:`_kept_away`), unless the draft's changes or an earlier taking
    (``changed``: ``(who, thing)``) already say so, or the clause is a time gone, a supposition, a plan, a done-before or
    a question (:data:`MINE_BEFORE_NOT_NOW`, :data:`NOT_NOW`, :data:`KEEPING_NOT_NOW`, :data:`KEEPING_AFTER_NOT_NOW`)
    (H13, stop 60)."""
    out = []
    close = -1  # the close of the quote of the last claim read: the claims after it in the same quote share it
    writers: dict[int, str | None] = {}  # a quote's writer by its close, read once
    for m in keeping.finditer(sentence):
        at = col - 1 + m.start("thing")
        low = max(0, m.start() - KEEPING_CLAUSE_MAX)
        clause_start = max(max(sentence.rfind(mark, low, m.start()) for mark in "，,：:；;“") + 1, low)
        high = min(len(sentence), m.end() + KEEPING_CLAUSE_MAX)
        clause_end = CLAUSE_END.search(sentence, m.end(), high)
        if not quoted_at(lines[i], at) or MINE_BEFORE_NOT_NOW.search(sentence, clause_start, m.start("thing")) \
                or NOT_NOW.search(sentence, clause_start, m.start("thing")) \
                or KEEPING_NOT_NOW.search(sentence, clause_start, m.start("thing")) \
                or KEEPING_AFTER_NOT_NOW.search(sentence, m.end(), high if clause_end is None else clause_end.start()) \
                or (clause_end is not None and clause_end.group() in "？?") or not _carried_topic(m, names):
            continue
        item = _canonical(m.group("thing"), world.items, by_length)
        if close < at:
            close = lines[i].find("”", at) % (len(lines[i]) + 1)  # none: the line's end
        if close not in writers:
            writers[close] = _writer_of(lines, i, close, names, aliases)
        speaker = writers[close] or _speaker_at(speakers.get(i, ()), lines[i], at, False)
        read = _kept_away(m, speaker, owners.get(item))
        if read is None or read[0] not in world.cards or (read[0], item) in changed:
            continue
        who, how = read
        held = world.holdings()[who]
        named_at = lines[i].find(m.group("thing"), col - 1) + 1 or col
        if how == "kept" and item not in held:
            out.append(Finding("连贯", ERROR, f"{who} 的持有里没有「{item}」（角色卡·持有：{'、'.join(held) or '无'}）"
                               f"（它在{owners[item]}的持有里），{who}的话却说它在自己那里{ANSWER_MARK}本章交到{who}手里就在设定变更写"
                               f"「{who}.持有+{item}」；都不是就改写这句", first_line + i, named_at,
                               said_sentence.strip()[:60], Subject("持有", who, item)))
        elif how == "left":
            out.append(Finding("连贯", ERROR, f"{who} 的持有里有「{item}」（角色卡·持有），{who}的话却说它已不在自己手上"
                               f"{ANSWER_MARK}本章交出去了就在设定变更写「{who}.持有-{item}」；都不是就改写这句",
                               first_line + i, named_at, said_sentence.strip()[:60], Subject("持有", who, item)))
    return out


def _holder_near(holder: str | None, listed: set[str], named_near: Callable[[int], frozenset[str]], i: int) -> bool:
    """Whether the card holder of a thing (None: no card holds it) may be the one speaking at line ``i``: none holds it, or
    the draft's 在场 list (``listed``) or the line and the :data:`HOLDER_NEAR` paragraphs before it (``named_near``) name
    them (H12, stop 59)."""
    return holder is None or holder in listed or holder in named_near(i)


def _voice_at(voices: list[Any], starts: list[int], line: str, at: int) -> Any | None:
    """The one of ``voices`` (a line's, in the order of their columns; ``starts`` where their words start) whose quoted
    words hold position ``at`` of ``line``, found by bisection (a line of thousands of quotes asks each once); None
    outside quotes or when none does."""
    if not quoted_at(line, at):
        return None
    k = bisect.bisect_right(starts, at) - 1
    return voices[k] if k >= 0 and at < starts[k] + len(voices[k].words) else None


def _by_line(voices: Iterable[Any]) -> dict[int, list[Any]]:
    """The ``voices`` with a speaker, by the line their words stand on (:func:`_speaker_at` reads a line's own)."""
    out: dict[int, list[Any]] = {}
    for voice in voices:
        if voice.speaker is not None:
            out.setdefault(voice.line, []).append(voice)
    return out


def _speaker_at(voices: Iterable[Any], line: str, at: int, guess: bool) -> str | None:
    """Who says the quoted words at position ``at`` of ``line`` (one of the line's ``voices``; a speaker the text does
    not name — turn-taking, a pronoun — only when ``guess``); None outside quotes or when no voice holds that place."""
    if not quoted_at(line, at):
        return None
    return next((v.speaker for v in voices if v.column - 1 <= at < v.column - 1 + len(v.words)
                 and (guess or not getattr(v, "guessed", False))), None)


_IDEOGRAPHIC_SPACES = re.compile("\u3000+")


def _past_spaces(text: str, at: int) -> int:
    """Where the full-width spaces at ``at`` of ``text`` end (``at`` for none): a use's giving to the user
    (:data:`GIVEN_TO`) is read up to there, without the rest of the sentence copied for each use."""
    spaces = _IDEOGRAPHIC_SPACES.match(text, at)
    return spaces.end() if spaces else at



class _NameSpans:
    """Where a sentence names someone (``names``: an alternation of words, no look outside a match), read once for
    every use in it asked about: whether it names anyone between two places, and where the clause at a place starts.
    A sentence of thousands of clauses with 他 (no name, or one at its end) searched itself from its start and from
    its clause's for each (60,000 characters: 19 s; A13, stop 54). Answers as ``names.search(sentence, a, b)`` and
    the last clause mark before a place, by one overlapping walk of the sentence and a lookup; each question reads
    at most a name's length past the first name after ``a``."""

    def __init__(self, names: re.Pattern[str], sentence: str) -> None:
        self.names = names
        self.sentence = sentence
        self.starts = [m.start() for m in _name_starts(names.pattern).finditer(sentence)]
        self.marks = [m.start() for m in CLAUSE_MARKS.finditer(sentence)]
        self.ends: dict[int, int] = {}  # a start -> the end of the shortest name there

    def clause_start(self, at: int) -> int:
        """Where the clause holding ``at`` starts: past the last clause mark before it (0 for none)."""
        k = bisect.bisect_left(self.marks, at)
        return self.marks[k - 1] + 1 if k else 0

    def within(self, a: int, b: int) -> bool:
        """Whether a name stands wholly in ``sentence[a:b]`` (``names.search(sentence, a, b) is not None``)."""
        first = len(self.sentence) + 1
        for s in self.starts[bisect.bisect_left(self.starts, a):]:
            if s >= first or s >= b:
                break
            first = min(first, self._shortest_end(s))
        return first <= b

    def _shortest_end(self, s: int) -> int:
        end = self.ends.get(s)
        if end is None:
            longest = self.names.match(self.sentence, s)
            end = longest.end() if longest else len(self.sentence) + 1
            while end > s + 1 and (shorter := self.names.match(self.sentence, s, end - 1)) is not None:
                end = shorter.end()
            self.ends[s] = end
        return end


@functools.lru_cache(maxsize=8)
def _name_starts(pattern: str) -> re.Pattern[str]:
    """Where any of the words of ``pattern`` starts, overlapping (one pattern a book's names, built once)."""
    return re.compile(f"(?=(?:{pattern}))")


CLAUSE_OPENS = re.compile(r"(?:[，,；;：:]|以后|之后)$")
"""What stands right before a name opening a clause of its own in a sentence (read by :func:`_each_from_its_last_name`
on the two characters before it)."""
SHE_ADDRESS = frozenset(("婶", "姨", "姑", "嫂", "姐", "婆", "大姐", "大娘", "大婶", "师姐", "师妹", "姑娘", "小姐", "夫人",
                         "太太"))
"""The words of :data:`lw_storyrepo.names.SURNAME_ADDRESS` said of a woman only (王婶, 李大姐)."""
HE_ADDRESS = frozenset(("叔", "伯", "哥", "兄", "公", "爷", "大哥", "大叔", "大爷", "师兄", "师弟", "公子", "老爷", "二哥",
                        "三哥"))
"""The words of :data:`lw_storyrepo.names.SURNAME_ADDRESS` said of a man only (任叔, 张大叔)."""
SEES_A_CLAUSE = re.compile(rf"(?:{alternation(SEEING_WORDS)})了?$")
"""A verb of seeing or knowing right before a name: what follows is that name's own clause (苏禾看见老周拿起秒表, 阿满知道
老周拿着秒表 — 老周 acts, the seer or knower does not); read by :func:`_each_from_its_last_name` on the four characters
before the name (H10, stop 57)."""

LOOSE_ADDRESS = frozenset(("老", "公", "总", "局", "队", "董"))
"""The one-character words of :data:`lw_storyrepo.names.SURNAME_ADDRESS` that also start ordinary words (老实, 公司, 总是,
队伍): after a surname only where the surname starts a word — no Chinese character before it but one of
:data:`ADDRESS_EDGE` (非常老 is no 常 + 老) (R57 F5, stop 57)."""
ADDRESS_EDGE = "的是叫和跟对给同与被把让请问向找见到着了"
"""Characters after which a surname starts a word of its own (看见周老, 叫高总, 跟王局): :data:`LOOSE_ADDRESS`'s edge."""
ELDER_ADDRESS = frozenset(("叔", "伯", "婶", "姨", "姑", "爷", "婆", "大叔", "大娘", "大婶", "大爷", "老爷"))
"""The words of :data:`lw_storyrepo.names.SURNAME_ADDRESS` said to an elder: a friend's parent is called by their
(shared) surname, so such a form told as someone's parent (小军的爹高叔) is that parent, not the card (R57 F5)."""
PARENTS = "爹|娘|爸|妈|爸爸|妈妈|父亲|母亲|爷爷|奶奶"
PARENT_OF = re.compile(rf"(?:的|他|她)(?:{PARENTS})[^。！？\n]{{0,3}}$")
"""What before a surname form says it is someone's parent or grandparent (小军的爹高叔, 小军的爹叫高叔)."""
PARENT_IS = re.compile(rf"是[^。！？，,\n]{{0,6}}?(?:的|他|她)(?:{PARENTS})")
"""What right after a surname form says the same (高叔是小军他爹)."""

HOLDER_NEAR = 3
"""How many paragraphs before a handing to 他/她 :func:`_brought_to_holder` looks for the holder's name."""


def surname_addressed(world: World, names: re.Pattern[str], text: str) -> dict[str, str]:
    """``{form: card}`` for each surname + address word (:data:`lw_storyrepo.names.SURNAME_ADDRESS`: 任叔, 程师傅, 张大叔)
    ``text`` calls someone by that no name of ``names`` reads there: the one card whose name has that surname (two cards
    of one surname: nobody; a card's gender against the word's, :data:`SHE_ADDRESS`/:data:`HE_ADDRESS`: nobody). Who holds
    or uses a thing is read through these too (H10, stop 57). One pass over ``text`` with a pattern built once a book."""
    by_surname, pattern = world.per_book("surname addressed", (), lambda: _surname_address_pattern(world))
    if pattern is None:
        return {}
    out: dict[str, str] = {}
    elders = {m.group() for m in pattern.finditer(text)
              if PARENT_OF.search(text, max(0, m.start() - 8), m.start()) or PARENT_IS.match(text, m.end())}
    for m in pattern.finditer(text):
        form, card = m.group(), by_surname[m.group(1)]
        gender = world.pronoun_of(card)
        word = m.group(2)
        if (gender == "他" and word in SHE_ADDRESS) or (gender == "她" and word in HE_ADDRESS):
            continue
        before = text[m.start() - 1:m.start()]
        if word in LOOSE_ADDRESS and "\u4e00" <= before <= "\u9fff" and before not in ADDRESS_EDGE:
            continue  # 非常老: the surname inside a word
        if word in ELDER_ADDRESS and form in elders:
            continue  # 小军的爹高叔: someone's parent, not the card
        known = names.match(text, m.start())
        if form in world.aliases or (known is not None and known.end() >= m.end()):
            continue  # a name the cards give (周叔平), or the form itself an alias: read as it is
        out[form] = card
    return out


ADDRESS_CHARACTERS = frozenset("".join((*SURNAME_ADDRESS, *(f for forms in KIN_TABLE.values() for f in forms), *KIN_WORDS)))
"""The characters of the address words (:data:`lw_storyrepo.names.SURNAME_ADDRESS`) and the kin words
(:data:`lw_storyrepo.kinship.FORMS`, :data:`lw_storyrepo.kinship.WORDS`): a form the cards quote made of these alone
(师傅, 大哥, 大师兄, 阿姨, 老板) is a title anyone calls their own master or brother by, and narration any tradesman —
no name of one card (fh14, stop 61: R61's H14-1)."""
CALLED_OWNER = re.compile(r"[的我你他她那这咱俺]$")
"""What right before a form the cards quote makes it someone's own or a pointed one (我任叔, 他程师傅, 那程师傅): no name
of the card the point of view calls so (fh14, stop 61)."""


def _called_here(sentence: str, start: int, line: str, at: int, voices: Iterable[Any], pov: str | None) -> bool:
    """Whether a form of :func:`_called_unread` at ``start`` of ``sentence`` (position ``at`` of ``line``, whose
    ``voices`` say who speaks where) is the point of view's own word for the card: not after an owner or pointing word
    (:data:`CALLED_OWNER`), and in narration or in the point of view's own quoted words — another speaker's 任叔 or a
    quote nobody is read to say is their own (fh14, stop 61: the cards quote what the point of view calls someone)."""
    if CALLED_OWNER.search(sentence, max(0, start - 1), start):
        return False
    return not quoted_at(line, at) or (pov is not None and _speaker_at(voices, line, at, True) == pov)


def _called_unread(world: World, names: re.Pattern[str], text: str) -> dict[str, str]:
    """``{form: card}`` for each form the cards quote the point of view calling someone by (周树林叫他“任叔”, 汪砚生叫他“程师傅”:
    :attr:`World.indirect` words of two characters or more that :attr:`World.aliases` gives a card) that ``text`` holds and
    ``names`` does not read: the check's names pattern is the book's, and these forms are the chapter's, so without them
    a 持有 reader saw nobody act where the point of view named the actor as the cards say it does (H14, stop 61). A form
    the names pattern reads already is left as it is; so is a bare title or kin word (:data:`ADDRESS_CHARACTERS` alone,
    no character of the card's name: 师傅, 大哥 — fh14). Where a kept form names the card is :func:`_called_here`'s to
    say, at each use. Linear in the forms (an ``in`` test of the text each)."""
    out: dict[str, str] = {}
    for form in world.indirect:
        card = world.aliases.get(form)
        if card is None or len(form) < 2 or card not in world.cards or form not in text or names.fullmatch(form):
            continue
        if set(form) <= ADDRESS_CHARACTERS and not set(form) & set(card):
            continue  # 师傅, 大哥: anyone's
        out[form] = card  # a form inside a longer one is left to the alternation (longest first)
    return out


def _surname_address_pattern(world: World) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """:func:`surname_addressed`'s table and pattern: the surnames one card alone has, then an address word."""
    count: Counter[str] = Counter()
    of: dict[str, str] = {}
    for card in world.cards:
        surname = surname_of(card)
        if surname and len(card) > len(surname):
            count[surname] += 1
            of[surname] = card
    unique = {s: of[s] for s, n in count.items() if n == 1}
    if not unique:
        return unique, None
    return unique, re.compile(f"({alternation(unique)})({alternation(SURNAME_ADDRESS)})")


def _each_from_its_last_name(pattern: re.Pattern[str], names: re.Pattern[str], sentence: str,
                             clause_led: str | None = None) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` (group 1 who acts, group 2 what stands between them and the act) in ``sentence``, a
    match naming someone in its group 2 tried again from that name: 孙德海走了以后，郭长庚从腰里拿出竹刀，递给郭秀兰 is
    郭长庚's giving, where a left-to-right reading took 孙德海 with a name between and dropped it (H8, stop 56: U12's
    giving after a clause of another). Without ``clause_led``, only a name opening a clause (:data:`CLAUSE_OPENS` before
    it) is tried again: one inside the first one's clause is no subject (苏禾趁老周打盹，拿起煤油灯，递给了阿满; 从老周那儿;
    对/跟/给老周 — R56), and the match is kept as it is (a name between: no giving of its first one, read by the
    caller). With ``clause_led`` (the group of what stands between), only a name leading the last clause of that group
    is tried again: 温驿丞点了点头，小蔡解下潜水表 is 小蔡's use, while 温驿丞从小蔡枕头底下摸出… (a name inside the clause,
    no subject) stays 温驿丞's, and so does 他点点头，拿起… (no name leads the clause) (H9, stop 56). Each try starts
    further on: linear in the sentence but for the short gap."""
    pos = 0
    while (m := pattern.search(sentence, pos)) is not None:
        if clause_led is None:
            other = next((o for o in names.finditer(sentence, m.start(2), m.end(2))
                          if CLAUSE_OPENS.search(sentence, max(0, o.start() - 2), o.start())
                          or SEES_A_CLAUSE.search(sentence, max(0, o.start() - 4), o.start())), None)
            at = other.start() if other is not None else -1
        else:
            lead = m.group(clause_led)
            cut = span_start(CLAUSE_MARKS, lead, len(lead))
            cut += len(lead[cut:]) - len(lead[cut:].lstrip())
            at = m.start(clause_led) + cut if cut > 0 and names.match(lead, cut) else -1
            if at < 0:  # 阿满知道老周拿着秒表: the name after a verb of seeing or knowing leads its own clause
                seen = [o for o in names.finditer(sentence, m.start(clause_led) + cut, m.end(clause_led))
                        if SEES_A_CLAUSE.search(sentence, max(0, o.start() - 4), o.start())]
                at = seen[-1].start() if seen else -1
        if at < 0:
            yield m
            pos = m.end()
        else:
            pos = at


def _brought_to_holder(names: re.Pattern[str], aliases: dict[str, str], after: str, holder: str,
                       whom: Callable[[int], str | None], near: Iterable[frozenset[str]]) -> bool:
    """Whether the act using a thing another holds only brings it to its holder: ``after`` (the sentence after the
    thing) hands it on at once (:data:`TO_ITS_HOLDER`) into the hands of its holder, named there (塞回小苗手里) or said
    by a pronoun (塞到他手里) standing for the holder: ``whom`` gives the one the pronoun at an offset of ``after``
    stands for (the antecedent reader, the one handing aside), or when it tells no one, among the ones of the nearest
    paragraph of ``near`` naming someone but the one handing (its own line before it first, then the
    :data:`HOLDER_NEAR` before; a line of someone's words may stand between) — a fetching for them, no use of another's thing
    (H8, stop 56: 罗建川从他枕头底下摸出那只口琴，塞到他手里). Another named there, or read as the pronoun's one
    (老周睡着了。苏禾进来了。阿满拿起驿符，塞到她手里: 她 is 苏禾; R56), keeps the reading."""
    handed = TO_ITS_HOLDER.match(after)
    if handed is None:
        return False
    to = handed.group("to") or handed.group("whose") or ""
    named = names.search(to)
    if named is not None:
        return aliases.get(named.group(), named.group()) == holder
    if not HE_ONE_OR_YOU.match(to.lstrip("了")):
        return False
    one = whom(len(to) - len(to.lstrip("了")) + (handed.start("to") if handed.group("to") else handed.start("whose")))
    if one is not None:
        return one == holder
    return holder in next((n for n in near if n), frozenset())


PAST_LOOK = 300
"""How far before a use in someone's words :func:`_told_as_past` reads its paragraph's words (bounded: a line of thousands
of uses reads a window each, not its whole start again)."""


def _words_before(line: str, at: int) -> str:
    """The :data:`PAST_LOOK` characters of ``line`` before ``at``, opened with a quote mark when the window starts inside
    quoted words (its quoted words then read as such)."""
    start = max(0, at - PAST_LOOK)
    return ("“" if start and quoted_at(line, start) else "") + line[start:at]


def _told_as_past(world: World, aliases: dict[str, str], words_before: str, who: str) -> bool:
    """Whether a use by ``who`` said in someone's words is a past they tell, not the scene's now: the user is a dead
    card, or the words of its paragraph up to it (``words_before``, the line to the use) name a time gone
    (:data:`NOT_NOW`: 去年, 那时): the cards' 持有 is now (H8, stop 56). A dead card merely named in the words tells no
    tense (“老茶师的坟让雨冲塌了一角，罗会计拿着测糖仪跑了！”: now; R56 narrowed it to the dead as the user)."""
    words = "".join(_QUOTED_WORDS.findall(words_before))
    if NOT_NOW.search(words):
        return True
    return str((world.cards.get(aliases.get(who, who)) or {}).get("状态") or "").startswith(DEAD)


def _nearest(names: re.Pattern[str], sentence: str, at: int, aliases: dict[str, str]) -> str | None:
    """The last name before position ``at`` of a sentence (the one a realm is said of)."""
    found = [m for m in names.finditer(sentence[:at])]
    return aliases.get(found[-1].group(), found[-1].group()) if found else None
