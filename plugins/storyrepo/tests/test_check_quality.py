"""The checks that help instead of noise, measured on labelled text written for these tests.

- New proper nouns (``corpus/专名`` tuning chapters, ``专名-留出`` held out during the first
  round, ``专名-验证`` written after the tuning and never tuned on): precision ≥ 0.9 on each.
- Info-gap leaks (``corpus/泄密.md``: 30 labelled paragraphs): every leak found, nothing else.
The figures are printed (``pytest -s``); ``bench/story.py`` prints the proper-noun ones too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lw_storyrepo import drafts, review, verdict
from lw_storyrepo import layout as L
from lw_storyrepo.checks import CheckContext, check_draft, leak_and_waste
from lw_storyrepo.dialect import quick_meta
from lw_storyrepo.drafts import Draft
from lw_storyrepo.fixtures import prose
from lw_storyrepo.propernouns import find_new_nouns, score
from lw_storyrepo.samples import DRAFT, to_reviewed
from lwcore.errors import LwError

CORPUS = Path(__file__).parent / "corpus"
# floors pin today's figures, so a change that loses names shows up here: (precision, recall).
# BLIND are the evaluation sets: only their figures are printed, never their answers; their floors
# pin the measured figures, which are below issue 30's goal (precision 0.9, recall 0.8) — see their
# READMEs. 专名-他人-新评估 (public-domain fiction by five other authors) and 专名-网文-评估 (web-novel
# chapters) were never tuned on; 专名-他人-评估 (鲁迅《彷徨》) was partly seen once and tuned on in
# the third round, and is kept apart since. 专名-网文-盲评 and 专名-他人-盲评 had their one blind run
# (0.78 / 0.78 and 0.42 / 0.53, in their READMEs) and are development sets since the fifth round.
# 专名-网文-盲评二 and 专名-他人-盲评二 (stop 37) had their blind runs after the fifth round (0.75 / 0.46
# and 0.55 / 0.60) and are development sets since task N7 (precision on others' text): 0.95 / 0.73 and
# 0.83 / 0.71 after it. N7's round moved the evaluation sets (measured by the lead, aggregates only):
# 专名-网文-评估 0.91 / 0.79 -> 0.89 / 0.79, 专名-他人-新评估 0.68 -> 0.70 precision, 专名-他人-评估 unchanged.
# 专名-网文-盲评三 (stop 40: espionage, farming, cooking; written blind) had its first blind run at stop 40
# before N7's round (0.74 / 0.63) and after it (0.80 / 0.69); it is a development set since task N8
# (tuned on: 0.97 / 0.78 after that round). 专名-网文-盲评四 (stop 41: maritime trade, an idol show, a dig; written
# blind) had its first blind run at stop 41 (0.79 / 0.63 on stop 40's detector, 0.80 / 0.64 after N8's round) and is a
# development set since task N9 (tuned on since: 0.92 / 0.92 after that round; the same round moved 专名-网文-盲评二
# 0.95 / 0.73 -> 0.95 / 0.75 and 专名-网文-盲评三 0.97 / 0.78 -> 0.97 / 0.81, both held higher since).
# 专名-网文-盲评五 (stop 41: a football club, an infinite-flow story, a tea-horse caravan; written blind): 0.79 / 0.56
# on stop 41's detector, its first run; a development set since task N10 (stop 43; tuned on since: 0.91 / 0.85 after
# that round, which also moved 专名-网文-盲评二 0.95 / 0.75 -> 0.96 / 0.76 and 盲评四 0.92 / 0.92 -> 0.92 / 0.93). 专名-网文-盲评六 (stop 42: a 1930s Shanghai detective agency, a planet colony,
# a porcelain-making family; written blind): 0.84 / 0.58 on stop 41's detector, its first run. After N9's round
# (tuned on neither): 盲评五 0.79 / 0.59, 盲评六 0.84 / 0.60; after N10's round (not tuned on it): 盲评六 0.84 / 0.58,
# the three 评估 sets unchanged. 盲评六 is a development set since task N11 (stop 44; tuned on since: 0.86 / 0.64 after
# that round, which also moved 盲评三 0.97 / 0.81 -> 0.97 / 0.82 and 盲评五 0.91 / 0.85 -> 0.91 / 0.86; the four evaluation
# sets unchanged).
# 专名-网文-盲评七 (stop 43: mountain rescue, a 1983 opera troupe, a 1976 forest railway; written blind) had its first
# run on stop 42's detector: 0.79 / 0.59; after N10's round (not tuned on it): 0.78 / 0.57, after N11's: 0.78 / 0.57. It is
# a development set since task N12 (stop 45; tuned on since: 0.80 / 0.64 after that round, which also moved 盲评三
# 0.97 / 0.82 -> 0.97 / 0.84 and 盲评六 0.86 / 0.64 -> 0.87 / 0.66, and the blind 盲评八 0.85 / 0.62 -> 0.85 / 0.64).
# Task N13 (stop 46's thirteenth round, precision) kept two false-name classes that carried (a dictionary word for a
# kind of institution; a surname's character glued to a phrase): development 盲评七 0.80 -> 0.82, 盲评六 0.87 -> 0.88,
# 盲评三 0.97 -> 0.99, 盲评四 0.92 -> 0.93, 他人-盲评 0.85 -> 0.88, 他人-盲评二 0.83 -> 0.85 precision, no name lost; the
# blind sets (aggregates only) unchanged but 专名-他人-新评估 0.70 -> 0.72 precision (盲评九 0.85 / 0.76 after N12's).
# 专名-网文-盲评八 (stop 44: a wind farm, a 1924 Zigong brine well, the 1998 Yangtze flood; written blind) had its first
# run on stop 43's detector: 0.84 / 0.61; after N11's round (not tuned on it): 0.85 / 0.62; after N12's: 0.85 / 0.64. It is
# a development set since task N14 (stop 46; tuned on since: 0.85 / 0.66 after that round, which also moved 盲评七
# 0.82 / 0.64 -> 0.82 / 0.65 and 盲评六 0.88 / 0.66 -> 0.90 / 0.67, and the blind 盲评九 0.85 / 0.76 -> 0.85 / 0.78 and
# 盲评十一 0.73 / 0.69 -> 0.73 / 0.70; the gate 盲评十 unchanged, 0.82 / 0.70).
# 专名-网文-盲评九 (stop 45: a 1997 Hong Kong night desk, a 1932 Harbin fur house, a 1984 desert mural institute;
# written blind) had its first run on stop 44's detector: 0.85 / 0.75.
# 专名-网文-盲评十 (stop 46: a Song 市舶司, a county hospital ER, a 1958 reservoir; written blind) was stop 46's gate: its
# builders saw its counts, never its names; first run on stop 45's detector 0.81 / 0.70, 0.82 / 0.70 after stop 46's
# rounds. A development set since task N15 (stop 47; opened and tuned on since).
# 专名-网文-盲评十一 (stop 46: a 1961 oilfield crew, a 731 Sogdian caravan, a 2004 Wenzhou shoe factory; written blind)
# had its first run on stop 45's detector: 0.73 / 0.69, 0.73 / 0.70 after stop 46's rounds. A development set since
# task N15 (stop 47; opened and tuned on since). Task N15's fifteenth round (沟, 井, 洼, 乡 as place heads) moved
# 盲评八 0.85 / 0.66 -> 0.86 / 0.70, 盲评十 0.82 / 0.70 -> 0.82 / 0.71, 盲评十一 0.73 / 0.70 -> 0.74 / 0.73; the blind
# sets (aggregates only) unchanged. Task N16's sixteenth round (a work's title given by 题目/标题叫《X》; a paper or a
# work unit named by its place) moved 盲评七 0.82 / 0.65 -> 0.83 / 0.69, 盲评八 0.86 / 0.70 -> 0.87 / 0.72,
# 盲评十一 0.74 / 0.73 -> 0.75 / 0.78; 盲评十 and every other development set unchanged.
# Task N17's seventeenth round (false names by form: a serial word, 人 glued to the clause's word, a noun glued to
# the adverb after it, a verb or a measure glued before a word said on its own) moved precision on 盲评十
# 0.82 -> 0.87, 盲评十一 0.75 -> 0.78, 盲评八 0.87 -> 0.89, 盲评七 0.83 -> 0.86, 盲评六 0.90 -> 0.92 (recall 0.67 -> 0.69),
# 盲评五 0.91 -> 0.92, 他人-盲评二 0.85 -> 0.87; no name lost on any development set.
# 专名-网文-盲评十二 (stop 47: a 1926 天津 相声 troupe, a 1552 两淮 salt field, a 1993 深圳 electronics plant) and
# 专名-网文-盲评十三 (stop 47: a 1283 大都 杂剧 theatre, the 1954 康藏 highway crew, a container port), written blind,
# had their first runs on stop 46's detector: 0.76 / 0.67 and 0.76 / 0.64; 0.79 / 0.67 and 0.78 / 0.64 after stop 47's
# rounds. Development sets since stop 48 (opened and tuned on since). Task N18's eighteenth round (a title only said in
# 《》 and unknown to the dictionary; 叫《X》 and a naming frame holding a known name; “X是谁？”; X是…的一+measure; an
# organisation said in full and short) moved 盲评十二 0.79 / 0.67 -> 0.81 / 0.77, 盲评十三 0.78 / 0.64 -> 0.81 / 0.75, 盲评十 0.87 / 0.71 -> 0.88 / 0.75, 盲评十一
# 0.78 / 0.78 -> 0.79 / 0.84, 盲评七 0.86 / 0.69 -> 0.86 / 0.73, 盲评八 0.89 / 0.72 -> 0.89 / 0.74, 盲评六
# 0.92 / 0.69 -> 0.93 / 0.70, 盲评五 0.92 / 0.86 -> 0.92 / 0.87; no name lost, no false name, on any development set.
# Task N19's nineteenth round (false names by form: a dictionary name said alone and with 城/县 after it, a surname and
# 家, a colour and a noun with no context) moved precision on 盲评十二 0.79 -> 0.85, 盲评十三 0.78 -> 0.83 (recall
# 0.64 -> 0.66), 盲评十一 0.78 -> 0.81, 盲评十 0.87 -> 0.89, 盲评五 0.92 -> 0.94, 盲评六 0.92 -> 0.94; no name lost.
# Task N20's twentieth round (老/小/大 before a dictionary word for a relative or an address; a frequent word tagged
# as a person's name with no context) moved precision on 盲评十三 0.86 -> 0.89, 盲评七 0.86 -> 0.88, 盲评八 0.89 -> 0.91,
# 盲评十一 0.82 -> 0.84, 盲评四 0.93 -> 0.94; no name lost, every other development set unchanged.
# 专名-网文-盲评十四 (stop 48: a 796 长安 西市 medicine shop, a 1983 小兴安岭 logging camp, a 1936 重庆 porters' guild) and
# 专名-网文-盲评十五 (stop 48: a 1121 汴京 string-puppet troupe, a 1962 旅大 shipyard, a 2017 杭州 livestream agency),
# written blind, had their first runs on stop 47's detector: 0.61 / 0.68 and 0.79 / 0.71; 0.64 / 0.73 and 0.80 / 0.76 with
# stop 48's eighteenth and nineteenth rounds (not tuned on them); development sets since stop 49.
# 专名-网文-盲评十六 (stop 49: a 475 北魏 武州山 cave-carving workshop, a 1972 新疆 兵团 cotton company, a 2022 东莞 drone
# light-show firm) and 专名-网文-盲评十七 (stop 49: a 1194 临安 printing house, a 1957 兰州 sheepskin-raft crew, a 1995 延边
# ginseng farm), written blind, had their first runs on stop 48's detector: 0.73 / 0.77 and 0.81 / 0.66; 0.75 / 0.78
# and 0.83 / 0.67 with stop 49's twenty-first (precision) and twenty-second (recall) rounds, not tuned on them;
# development sets since stop 50.
# 专名-网文-盲评十八 (stop 50: a 1368 南京 city-wall brick kiln, a 1980 海南 state rubber farm, a 2019 成都 hotpot chain) and
# 专名-网文-盲评十九 (stop 50: an 1884 苏州 embroidery house, a 1948 上海 dance-hall band, a 2010 义乌 exporter), written
# blind, had their first runs on stop 49's detector: 0.80 / 0.75 and 0.77 / 0.70, unchanged by stop 50's round (not
# tuned on them); development sets since stop 51.
# 专名-网文-盲评二十 (stop 51: an 1805 广州 export-painting studio, 1978 漓江 cormorant fishers, a 2023 嵊泗 mussel farm) and
# 专名-网文-盲评二十一 (stop 51: an 1871 宁波 钱庄, the 1956 鞍山 steel works, a 2015 北京 courier station), written blind and
# named before they landed, had their first runs on stop 50's detector: 0.80 / 0.69 and 0.66 / 0.74; 0.80 / 0.69 and
# 0.67 / 0.76 with stop 51's rounds (not tuned on them); development sets since stop 52.
# 专名-网文-盲评二十二 (stop 52: a 1592 歙县 ink workshop, a 1986 锡林郭勒 veterinary station, a 2021 长沙 murder-mystery
# shop) and 专名-网文-盲评二十三 (stop 52: 1825 清江浦 grain barges, a 1988 大同 township coal mine, a 2024 斗南 flower
# buyer), written blind and named before they landed, had their first runs on stop 51's detector: 0.73 / 0.80 and
# 0.86 / 0.85, unchanged by stop 52's rounds (not tuned on them); development sets since stop 53.
# 专名-网文-盲评二十四 (stop 53: 60 BC 合浦 pearl divers, a 1935 汕头 侨批局, a 2023 黔东南 village basketball league) and
# 专名-网文-盲评二十五 (stop 53: the 1450 丽江 木 土司 court, a 1975 沈阳 tractor factory's troupe, a 2020 拉萨 hostel),
# written blind and named before they landed, had their first runs on stop 52's detector: 0.74 / 0.72 and 0.83 / 0.74,
# unchanged by stop 53's rounds (not tuned on them); development sets since stop 54.
# 专名-网文-盲评二十六 (stop 54: 1663 宁古塔 exiles, a 1979 湘西 film-projection team, a 2021 鹤岗 livestreamer) and
# 专名-网文-盲评二十七 (stop 54: a 1790 鹿港 sugar house, a 1992 惠州 sales office, a 2019 曹县 汉服 village), written
# blind and named before they landed, had their first runs on stop 53's detector: 0.77 / 0.75 and 0.89 / 0.78;
# 0.79 / 0.76 and unchanged with stop 54's rounds (not tuned on them); development sets since stop 55.
# 专名-网文-盲评二十八 (stop 55: a 1601 佛山 iron-pan foundry, a 1956 西双版纳 malaria-control team, a 2023 淄博 barbecue
# stall) and 专名-网文-盲评二十九 (stop 55: a 1405 刘家港 caulking yard of the treasure fleet, a 1972 黑河 知青 village, a 2020
# 武汉 delivery rider), written blind and named before they landed, had their first runs on stop 54's detector: 0.75 / 0.75
# and 0.76 / 0.77, unchanged by stop 55's rounds (not tuned on them); development sets since stop 56.
# 专名-网文-盲评三十 (stop 56: a 1120 北苑 tribute-tea baking house, a 1963 霞浦 lighthouse, a 2016 石家庄 driving school) and
# 专名-网文-盲评三十一 (stop 56: a 1760 恰克图 晋商 tea house, a 1985 青海湖 state fishery, a 2019 南京 esports club),
# written blind and named before they landed, had their first runs on stop 55's detector: 0.96 / 0.75 and 0.80 / 0.70,
# unchanged by stop 56's rounds (not tuned on them); development sets since stop 57.
# 专名-网文-盲评三十二 (stop 57: a 1682 北京 cloisonné workshop, a 1957 吐鲁番 grape-drying co-op, a 2022 贵阳 call centre)
# and 专名-网文-盲评三十三 (stop 57: 1745 扬州 rockery builders, a 1968 长白山 summit weather station, a 2018 厦门 bubble-tea
# franchise), written blind and named before they landed, had their first runs on stop 56's detector: 0.92 / 0.81 and
# 0.78 / 0.80; 0.94 / 0.81 and 0.78 / 0.80 with stop 57's rounds (not tuned on them); development sets since stop 58.
# 专名-网文-盲评三十四 (stop 58: a 1910 哈尔滨 plague-fighting station, a 1975 昔阳 terrace brigade, a 2021 郑州 phone-repair
# stall) and 专名-网文-盲评三十五 (stop 58: a 1699 江宁织造 云锦 loom workshop, a 1964 兰考 sand-fixing brigade, a 2019 洱海
# shore-cleaning crew), written blind and named before they landed, had their first runs on stop 57's detector:
# 0.93 / 0.71 and 0.84 / 0.89; 0.93 / 0.73 and 0.84 / 0.89 with stop 58's rounds (not tuned on them); development sets
# since stop 59.
# 专名-网文-盲评三十六 (stop 59: a 1925 长沙 seal-carving shop, a 1958 三门峡 photo studio, a 2020 深圳 白石洲 barbershop)
# and 专名-网文-盲评三十七 (stop 59: an 1835 平遥 票号 and its 汉口 branch, a 1969 铁道兵 tunnel company on the 成昆 line,
# a 2022 青岛 craft brewery), written blind and named before they landed, had their first runs on stop 58's detector:
# 0.86 / 0.79 and 0.90 / 0.67; 0.86 / 0.79 and 0.91 / 0.68 with stop 59's rounds (not tuned on them); development sets
# since stop 60.
# 专名-网文-盲评三十八 (stop 60: a 1930 闸北 老虎灶 hot-water shop, the 1965 渡口 site's canteen, 2021 西湖 tourist boats)
# and 专名-网文-盲评三十九 (stop 60: an 1870 马尾 naval school, a 1976 唐山 rescue squad, a 2023 榕江 侗 carpenters' team),
# written blind and named before they landed, had their first runs on stop 59's detector: 0.76 / 0.66 and 0.80 / 0.80;
# 0.76 / 0.68 and 0.80 / 0.80 with stop 60's rounds (not tuned on them); development sets since stop 61.
# 专名-网文-盲评四十 (stop 61: a 1912 新会 palm-leaf fan workshop, a 1960 柴达木 lead-zinc survey team, a 2019 哈尔滨
# ice-sculpture studio) and 专名-网文-盲评四十一 (stop 61: a 1920 营口 bean-oil mill, a 1983 景宁 mountain postman's route,
# a 2024 阿勒泰 ski school), written blind and named before they landed, had their first runs on stop 60's detector:
# 0.82 / 0.80 and 0.83 / 0.73, unchanged by stop 61's rounds (not tuned on them); development sets since stop 62.
# 专名-网文-盲评四十二 (stop 62: a 1906 芜湖 rice market, the 1974 葛洲坝 helmet-diving squad, a 2021 潮汕 英歌舞
# troupe) and 专名-网文-盲评四十三 (stop 62: a 1925 鼓浪屿 piano-repair workshop, a 1958 焉支山 army horse stud, a 2021
# 云南 wild-elephant tracking crew), written blind and named before they landed, had their first runs on stop 61's
# detector: 0.70 / 0.68 and 0.75 / 0.68; 0.72 / 0.73 and 0.75 / 0.68 with stop 62's rounds (not tuned on them);
# development sets since stop 63.
# 专名-网文-盲评四十四 (stop 63: a 1929 华县 famine porridge kitchen, a 1965 横断山 telephone line-patrol station, a 2020
# 三亚 rice seed-breeding base) and 专名-网文-盲评四十五 (stop 63: an 1898 佛山 lion-dance hall, the 1958 洛阳 tractor
# plant, a 2022 喀什 carpet-weaving co-operative), written blind and named before they landed, had their first runs on
# stop 62's detector: 0.73 / 0.70 and 0.82 / 0.73; 0.74 / 0.70 and 0.82 / 0.73 with stop 63's rounds, 0.77 / 0.70 and
# 0.82 / 0.73 with stop 64's (not tuned on them); development sets since stop 64.
# 专名-网文-盲评四十六 and 专名-网文-盲评四十七 (stop 64) are evaluation sets, written blind and named before they land.
BLIND = frozenset({"专名-他人-新评估", "专名-网文-评估", "专名-他人-评估", "专名-网文-盲评九",
                   "专名-网文-盲评四十六", "专名-网文-盲评四十七"})
NOUN_SETS = {"专名": (0.95, 0.95), "专名-留出": (0.95, 0.95), "专名-验证": (0.95, 0.85), "专名-他人-开发": (0.95, 0.75),
             "专名-他人-开发二": (0.95, 0.8), "专名-网文-开发": (0.95, 0.95), "专名-他人-开发三": (0.9, 0.75),
             "专名-网文-开发二": (0.95, 0.95), "专名-网文-开发三": (0.95, 0.9),
             "专名-他人-开发四": (0.95, 0.9), "专名-他人-开发五": (0.85, 0.75), "专名-他人-开发六": (0.95, 0.7),
             "专名-网文-开发四": (0.95, 0.85), "专名-网文-开发五": (0.9, 0.8), "专名-网文-开发六": (0.9, 0.85),
             "专名-网文-开发七": (0.9, 0.85), "专名-网文-开发八": (0.9, 0.9), "专名-他人-开发七": (0.95, 0.6),
             "专名-他人-评估": (0.95, 0.64), "专名-他人-新评估": (0.76, 0.79), "专名-网文-评估": (0.93, 0.79),
             "专名-网文-盲评": (0.95, 0.9), "专名-他人-盲评": (0.85, 0.75),
             "专名-网文-盲评二": (0.98, 0.8), "专名-他人-盲评二": (0.87, 0.7),  # 0.97 before the twenty-sixth round; 专名-网文-盲评二 0.98 / 0.79 before the thirty-eighth round (N38, stop 63)
             "专名-网文-盲评三": (0.98, 0.86), "专名-网文-盲评四": (0.94, 0.94),  # 0.94 / 0.9 before the thirty-first round (N31, stop 57); 专名-网文-盲评三 0.98 / 0.85 before the thirty-eighth round (N38, stop 63)
             "专名-网文-盲评五": (0.96, 0.89),  # 0.94 before the twenty-seventh round; 0.95 / 0.89 before the thirty-third round (N33, stop 58)
             "专名-网文-盲评六": (0.94, 0.73),  # 0.7 before the twenty-third round; recall 0.71 before the twenty-fifth round
             "专名-网文-盲评七": (0.92, 0.81),  # 0.77 before the twenty-fourth round; 0.9 before the twenty-fifth round, 0.91 before the twenty-sixth; 0.92 / 0.79 before the thirty-first round (N31, stop 57); 0.92 / 0.8 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评八": (0.94, 0.81),  # 0.77 before the twenty-third round; 0.91 / 0.78 before the thirty-first round (N31, stop 57); 0.92 / 0.78 before the thirty-second round (N32, stop 58); 0.92 / 0.8 before the thirty-fourth round (N34, stop 59); 0.92 / 0.81 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评九": (0.9, 0.82),  # precision 0.889 -> 0.903 with stop 57's thirty-first round (not tuned on it); recall 0.809 -> 0.824 with stop 55's twenty-eighth round (not tuned on it); recall 0.79 -> 0.81 with stop 50's twenty-third round, precision 0.873 -> 0.887 with stop 53's twenty-sixth (not tuned on it)
             "专名-网文-盲评十": (0.93, 0.8),  # 0.93 / 0.79 before the thirty-eighth round (N38, stop 63); 0.91 before the twenty-fifth round, 0.92 before the twenty-sixth; 0.78 recall before the twenty-seventh
             "专名-网文-盲评十一": (0.89, 0.89),  # 0.85 before the twenty-third round, 0.86 before the twenty-fourth; 0.85 before the twenty-sixth; 0.86 before the twenty-seventh; 0.88 / 0.89 before the thirty-second round (N32, stop 58)
             "专名-网文-盲评十二": (0.96, 0.86),  # 0.94 / 0.85 before a title before a full name was read apart (r64-n39, stop 64); 0.87 / 0.83 before the twenty-fourth round; 0.88 before the twenty-fifth round; 0.89 before the twenty-seventh; 0.91 / 0.85 before the thirty-second round (N32, stop 58); 0.92 / 0.85 before the thirty-third round (N33, stop 58)
             "专名-网文-盲评十三": (0.91, 0.85),  # 0.89 / 0.85 before a field's institution was read as a kind (r64-n39, stop 64); 0.89 / 0.83 before the thirty-first round (N31, stop 57)
             "专名-网文-盲评十四": (0.83, 0.8),  # 0.77 before the twenty-fifth round, 0.8 before the twenty-sixth, 0.81 before the twenty-seventh
             "专名-网文-盲评十五": (0.94, 0.84),  # 0.82 before the twenty-fourth round; 0.92 before the twenty-fifth round
             "专名-网文-盲评十六": (0.85, 0.85),  # 0.74 before the twenty-fifth round; 0.77 / 0.78 before the twenty-sixth; 0.8 / 0.8 before the thirty-first round (N31, stop 57); 0.83 / 0.81 before the thirty-sixth round (N36, stop 61)
             "专名-网文-盲评十七": (0.92, 0.79),  # 0.82 / 0.67 before the twenty-third round, 0.84 / 0.7 before the twenty-fourth; 0.85 before the twenty-sixth; 0.86 / 0.71 before the twenty-seventh; 0.88 / 0.73 before the thirtieth; 0.88 / 0.75 before the thirty-first round (N31, stop 57); 0.9 / 0.76 before the thirty-third round (N33, stop 58); 0.92 / 0.76 before the thirty-fourth round (N34, stop 59); 0.92 / 0.78 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评十八": (0.89, 0.86),  # 0.88 / 0.86 before a title before a full name was read apart (r64-n39, stop 64); 0.87 / 0.85 before the thirty-eighth round (N38, stop 63); 0.8 / 0.75 before the twenty-fourth round; 0.82 before the twenty-fifth round, 0.84 before the twenty-sixth; 0.85 / 0.8 before the thirty-first round (N31, stop 57); 0.87 / 0.81 before the thirty-fourth round (N34, stop 59); 0.87 / 0.83 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评十九": (0.85, 0.76),  # 0.71 recall before the twenty-eighth round; 0.77 before the twenty-fifth round; 0.78 / 0.69 before the twenty-sixth; 0.8 / 0.73 before the thirty-first round (N31, stop 57); 0.83 / 0.74 before the thirty-third round (N33, stop 58); 0.85 / 0.74 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评二十": (0.83, 0.8),  # 0.79 / 0.69 before the twenty-seventh round; 0.81 / 0.7 before the thirtieth; 0.81 / 0.72 before the thirty-first round (N31, stop 57); 0.82 / 0.75 before the thirty-fourth round (N34, stop 59); 0.82 / 0.77 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评二十一": (0.77, 0.87),  # 0.76 / 0.84 before the thirty-eighth round (N38, stop 63); 0.71 / 0.79 before the twenty-eighth round; 0.662 / 0.741 before stop 51's rounds, 0.666 / 0.758 after (not tuned on it); 0.676 with the twenty-fifth round; 0.703 / 0.775 with the twenty-sixth; 0.718 / 0.793 with the twenty-seventh; 0.72 / 0.81 before the thirty-first round (N31, stop 57); 0.73 / 0.82 before the thirty-second round (N32, stop 58); 0.74 / 0.84 before the thirty-third round (N33, stop 58); 0.75 / 0.84 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评二十二": (0.75, 0.83),  # 0.73 / 0.83 before a field's institution was read as a kind (r64-n39, stop 64); 0.72 / 0.8 before the twenty-seventh round; 0.73 / 0.81 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评二十三": (0.93, 0.9),  # 0.92 / 0.88 before the thirty-eighth round (N38, stop 63); 0.86 before the twenty-sixth round, 0.87 before the twenty-seventh; 0.91 / 0.85 before the thirty-first round (N31, stop 57); 0.92 / 0.85 before the thirty-second round (N32, stop 58)
             "专名-网文-盲评二十四": (0.85, 0.8),  # 0.83 / 0.78 before the thirty-eighth round (N38, stop 63); 0.74 / 0.71 before the twenty-seventh round; 0.77 / 0.73 before the thirtieth; 0.78 / 0.73 before the thirty-first round (N31, stop 57); 0.78 / 0.75 before the thirty-third round (N33, stop 58); 0.81 / 0.75 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评二十五": (0.85, 0.81),  # 0.82 / 0.74 before the twenty-seventh round, recall 0.75 before the twenty-eighth; 0.83 / 0.79 before the thirty-first round (N31, stop 57); 0.85 / 0.79 before the thirty-sixth round (N36, stop 61)
             "专名-网文-盲评二十六": (0.85, 0.91),  # 0.84 / 0.91 before a field's institution was read as a kind (r64-n39, stop 64); 0.83 / 0.88 before the thirty-seventh round (N37, stop 62); evaluation until stop 54: first run 0.772 / 0.746; 0.789 / 0.762 with the twenty-seventh round (not tuned on it); development since stop 55: 0.78 / 0.76 before the twenty-eighth round; 0.81 / 0.83 before the thirty-fourth round (N34, stop 59); 0.81 / 0.84 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评二十七": (0.91, 0.85),  # evaluation until stop 54: its first run (0.887 / 0.783; unchanged by the twenty-seventh round); development since stop 55: 0.88 / 0.78 before the twenty-eighth round; 0.89 / 0.81 before the thirtieth; 0.9 / 0.81 before the thirty-second round (N32, stop 58); 0.9 / 0.83 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评二十八": (0.82, 0.84),  # 0.82 / 0.82 before the thirty-eighth round (N38, stop 63); 0.8 / 0.78 before the thirty-seventh round (N37, stop 62); first run 0.754 / 0.754, unchanged by stop 55's rounds (not tuned on it); 0.786 / 0.772 after the thirtieth (N30, stop 56); 0.78 / 0.77 before the thirty-first round (N31, stop 57); 0.8 / 0.77 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评二十九": (0.83, 0.91),  # 0.83 / 0.85 before the thirty-seventh round (N37, stop 62); 0.81 / 0.85 before the thirty-sixth round (N36, stop 61); first run 0.759 / 0.772, unchanged by stop 55's rounds (not tuned on it); 0.780 / 0.807 after the thirtieth (N30, stop 56); 0.77 / 0.8 before the thirty-first round (N31, stop 57); 0.79 / 0.8 before the thirty-third round (N33, stop 58); 0.8 / 0.8 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评三十": (0.95, 0.82),  # first run 0.956 / 0.754, unchanged by stop 56's rounds (not tuned on it); 0.95 / 0.75 before the thirty-first round (N31, stop 57); 0.95 / 0.78 before the thirty-second round (N32, stop 58); 0.95 / 0.8 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评三十一": (0.86, 0.75),  # 0.84 / 0.75 before the thirty-eighth round (N38, stop 63); first run 0.800 / 0.702, unchanged by stop 56's rounds (not tuned on it); 0.8 / 0.7 before the thirty-first round (N31, stop 57); 0.83 / 0.71 before the thirty-fourth round (N34, stop 59); 0.84 / 0.73 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评三十二": (0.94, 0.81),  # first run 0.923 / 0.814; 0.941 / 0.814 with stop 57's rounds (not tuned on it)
             "专名-网文-盲评三十三": (0.87, 0.87),  # 0.84 / 0.87 before the thirty-eighth round (N38, stop 63); 0.84 / 0.85 before the thirty-sixth round (N36, stop 61); first run 0.776 / 0.804, unchanged by stop 57's rounds (not tuned on it); 0.77 / 0.8 before the thirty-second round (N32, stop 58); 0.81 / 0.83 before the thirty-third round (N33, stop 58); 0.83 / 0.83 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评三十四": (0.94, 0.83),  # 0.93 / 0.82 before the thirty-eighth round (N38, stop 63); first run 0.930 / 0.714; 0.932 / 0.732 with stop 58's rounds (not tuned on it); 0.93 / 0.73 before the thirty-fourth round (N34, stop 59)
             "专名-网文-盲评三十五": (0.86, 0.92),  # 0.85 / 0.92 before the thirty-sixth round (N36, stop 61); first run 0.836 / 0.895, unchanged by stop 58's rounds (not tuned on it); 0.83 / 0.89 before the thirty-fourth round (N34, stop 59); 0.85 / 0.91 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评三十六": (0.87, 0.89),  # first run 0.863 / 0.786, unchanged by stop 59's rounds (not tuned on it); 0.86 / 0.78 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评三十七": (0.91, 0.78),  # 0.91 / 0.77 before the thirty-sixth round (N36, stop 61); first run 0.905 / 0.667; 0.907 / 0.684 with stop 59's rounds (not tuned on it); 0.9 / 0.68 before the thirty-fifth round (N35, stop 60)
             "专名-网文-盲评三十八": (0.8, 0.75),  # 0.78 / 0.73 before the thirty-eighth round (N38, stop 63); 0.78 / 0.69 before the thirty-seventh round (N37, stop 62); first run 0.755 / 0.661; 0.760 / 0.679 with stop 60's rounds (not tuned on it); 0.780 / 0.696 with the thirty-sixth round (N36, stop 61)
             "专名-网文-盲评三十九": (0.81, 0.8),  # 0.8 / 0.8 before the thirty-seventh round (N37, stop 62); first run 0.804 / 0.804, unchanged by stop 60's rounds (not tuned on it)
             "专名-网文-盲评四十": (0.89, 0.89),  # 0.81 / 0.8 before the thirty-seventh round (N37, stop 62); first run 0.818 / 0.804, unchanged by stop 61's rounds (not tuned on it)
             "专名-网文-盲评四十一": (0.86, 0.83),  # 0.85 / 0.81 before the thirty-eighth round (N38, stop 63); 0.83 / 0.73 before the thirty-seventh round (N37, stop 62); first run 0.830 / 0.733, unchanged by stop 61's rounds (not tuned on it)
             "专名-网文-盲评四十二": (0.71, 0.73),  # first run 0.704 / 0.679; 0.719 / 0.732 with stop 62's rounds (not tuned on it)
             "专名-网文-盲评四十三": (0.76, 0.68),  # first run 0.750 / 0.684, unchanged by stop 62's rounds (not tuned on it); 0.765 / 0.684 with stop 64's r64-n39 (held out from it, only its figures printed)
             "专名-网文-盲评四十四": (0.76, 0.7),  # first run 0.727 / 0.702; 0.741 / 0.702 with stop 63's rounds, 0.769 / 0.702 with stop 64's (not tuned on it)
             "专名-网文-盲评四十五": (0.82, 0.73),  # first run 0.820 / 0.732, unchanged by stop 63's and stop 64's rounds (not tuned on it)
             "专名-网文-盲评四十六": (0.86, 0.78),  # evaluation: its first run (0.860 / 0.782), unchanged by stop 64's rounds (not tuned on it)
             "专名-网文-盲评四十七": (0.84, 0.77)}  # evaluation: its first run (0.840 / 0.778), unchanged by stop 64's rounds (not tuned on it)


@pytest.mark.parametrize("folder, floors", NOUN_SETS.items())
def test_new_proper_nouns_precision_and_recall_on_labelled_chapters(folder: str, floors: tuple[float, float]) -> None:
    result = score(CORPUS / folder)
    blind = folder in BLIND  # an evaluation set's answers are never shown: nobody tunes on them
    detail = "" if blind else f"; false {result.false_positives}, missed {result.missed}"
    print(f"\n{folder}: {result.chapters} chapters, precision {result.precision:.2f}, recall {result.recall:.2f}, "
          f"kind right {result.kinds_right}/{result.true_positives}{detail}")
    precision, recall = result.precision, result.recall
    # kinds are held only on the sets written for the project: 宫 is a palace or a sect, 院 a court
    # or a school, and the other sets' labellers chose one
    kinds_ok = "他人" in folder or "网文" in folder or result.kinds_right >= 0.9 * result.true_positives
    if blind:
        del result  # nothing of the blind set's answers reaches a failure report
        assert precision >= floors[0] and recall >= floors[1], f"below the floors: {precision:.2f} / {recall:.2f}"
        assert kinds_ok, "kinds below 0.9"
    else:
        assert precision >= floors[0], result.false_positives
        assert recall >= floors[1], result.missed
        assert kinds_ok, result


def test_score_takes_an_answer_in_several_forms(tmp_path: Path) -> None:
    (tmp_path / "01.md").write_text("---\n已知:\n新专名:\n  - 胡老爹|胡屠户（人物）\n不计:\n---\n"
                                    "胡屠户道：“好。”胡屠户又道：“走。”\n", encoding="utf-8")
    result = score(tmp_path)
    assert (result.true_positives, result.false_positives, result.missed) == (1, [], [])


def test_web_novel_names_said_once_or_split_by_the_segmenter() -> None:
    """A role after a surname names someone on its own (苏长老, 孟掌柜); a coined stem makes a name
    with a suffix however the segmenter splits it (点苍派, 九转炼体诀), and a modern one with a
    two-character suffix (星河资本); a name introduced 姓王名仁 is one."""
    text = ("万剑宗的苏长老亲自来了。\n掌柜的老孟叹气，孟掌柜又道：“走。”\n“点苍派，罗小川。”年轻人说。\n"
            "玄老道：“《九转炼体诀》就是你的了。”\n星河资本的尽调就要开始了。\n这举人姓王名仁。王仁见馆地蝉联，心中欢喜。")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"万剑宗", "苏长老", "孟掌柜", "点苍派", "九转炼体诀", "星河资本", "王仁"} <= found
    assert not {"炼体诀", "叫方", "王仁见"} & found


def test_what_reads_like_a_name_but_is_none() -> None:
    """A verb or a preposition glued before a place (找九龙鼎, 来云城), a question (大不大), a quantity
    (四贯), a word said twice (改削改削), a word that ends where a longer one goes on (蓝布大 of 蓝布大衫),
    an address form of a name found whole in the same chapter (秦公子 beside 秦无衣)."""
    text = ("他要去找九龙鼎。九龙鼎在云城。他来云城三天了，云城的人都认得他。\n这庄叫小不小，叫大不大。送先生四贯铜钱，四贯不少。\n"
            "何不改削改削。他又改削改削。\n李顺的那件蓝布大衫，李顺的蓝布大衫。\n“谁是秦无衣？”秦无衣笑了。“请秦公子随我们走一趟。”")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"九龙鼎", "云城", "秦无衣", "李顺"} <= found
    assert not {"找九龙鼎", "来云城", "大不大", "小不小", "四贯", "改削", "蓝布大", "秦公子"} & found


def test_places_firms_shops_and_renamed_people() -> None:
    """A material makes a kind of thing, not a place (青木院); a firm or a shop with a two-character
    suffix (盛唐传媒, 蓝鲸咖啡), never a verb's (环绕学堂); a preposition the segmenter glued to a
    place (从北|冥海底); a name given with an object pronoun (以后叫你素心吧)."""
    text = ("秦墨看了看帖子：“青木院。”青木院那可是最差的院。\n我听说她在盛唐传媒干过。中午他在蓝鲸咖啡排队。\n"
            "那是从北冥海底捞上来的宝贝。\n环绕学堂半里全是臭水沟。\n“以后叫你素心吧。”素心低头应了。")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"青木院", "盛唐传媒", "蓝鲸咖啡", "北冥海", "素心"} <= found
    assert not {"环绕学堂", "从北冥海"} & found


def test_people_of_older_prose() -> None:
    """A name ending in a character that mostly ends a word, said again (柴进) or speaking (马梦太);
    an office before a surname-led name (知县寇若准 — 寇 is too common to be taken for a surname, so
    here 知县王若准); a role after a surname (凌副院长, 周经理)."""
    text = ("柴进赶将出来。柴进指着道：“这人是清河县人氏。”\n见马梦太在那里站着。马梦太说：“你说了实话。”\n"
            "那做现任孝感县知县王若准当场察破。\n“那是凌副院长，”胖虎说。他们市场部的周经理来了。")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"柴进", "马梦太", "王若准", "凌副院长", "周经理"} <= found


def test_famous_people_of_the_dictionary_are_new_names_when_they_act() -> None:
    """jieba's dictionary knows 宋江 and 林黛玉 as people (tag nr): still new to a book's roster. Its
    nr tag is loose (明白, 和平), so the word must act: said again, once before speech or a
    gesture — jieba glues 宋江道 into one token, and 黛玉 alone is the given name of 林黛玉."""
    text = ("话说宋江因躲一杯酒，去净手了。那大汉听得是宋江，跪在地下。宋江道：“江湖上多闻你的大名。”\n"
            "却是林黛玉，满面含笑。黛玉笑道：“咱们走罢。”\n他明白了。他终于明白道理，和平也来了，和平道路漫长。")
    found = {n.name: n.kind for n in find_new_nouns(text, [])}
    assert found.get("宋江") == "人物" and found.get("林黛玉") == "人物"
    assert not {"明白", "和平"} & set(found)
    assert "宋江" not in {n.name for n in find_new_nouns(text, ["宋江"])}  # a known one is never new


def test_a_word_that_keeps_starting_sentences_and_acting_is_someone() -> None:
    """眉间尺 is no dictionary word and reads as no name (眉间 is a word, 尺 a measure): the story
    keeps it as the subject of its clauses (又觉得, 忽然, 心跳着, 赶紧问), so it is someone. Said
    twice that way it is not enough."""
    text = ("眉间尺又觉得很可怜。眉间尺忽然全身都如烧着猛火。\n眉间尺心跳着，掘下去。“那天呢？”眉间尺赶紧问。")
    assert [n.name for n in find_new_nouns(text, [])] == ["眉间尺"]
    assert find_new_nouns("眉间尺又觉得很可怜。眉间尺忽然站起。", []) == []


def test_web_novel_items_techniques_regions_and_people_said_once() -> None:
    """Suffixes for shields and steps (玄龟盾, 七星步), a chasm whose first character is a verb
    (葬+龙渊, said again), a quarter of a world (北荒), 阿 before a given name (阿杰), 老 before a
    surname jieba tags as a time word (老周), a profession before a full name (法医许薇), a stem
    the dictionary tags as a place (望江+路)."""
    text = ("北荒的风从来不停。林凡站在葬龙渊边缘。\n“少废话。”他反手举起玄龟盾。苏婉儿脚下一错，正是七星步。\n"
            "葬龙渊里雾气翻滚。\n是刚调进刑警队的阿杰，他身后是法医许薇。\n老周撑着伞。老周吐了口烟。望江路这一段没有人。")
    found = {n.name: n.kind for n in find_new_nouns(text, ["林凡", "苏婉儿"])}
    assert {"北荒": "地点", "葬龙渊": "地点", "玄龟盾": "物品", "七星步": "功法", "阿杰": "人物", "许薇": "人物",
            "老周": "人物", "望江路": "地点"}.items() <= found.items()
    assert "龙渊" not in found


def test_people_and_places_of_older_prose_said_once_or_introduced() -> None:
    """An introduced name with 得 inside (我叫汪得贵); a surname with a rank by birth (贺老六); given
    names with a kinship word (祥林嫂) said once; a gentleman named by one character and 老爷, said
    again (慰老爷); a shop whose stem the dictionary tags as a place (福兴楼); a name called in an
    inner quote (‘阿发，’)."""
    text = ("“我叫汪得贵。”胖子连忙说。\n是给了贺家墺的贺老六的。想到昨天遇见祥林嫂的事。\n"
            "“这回还是到慰老爷家里去？”他不能像慰老爷似的不通。\n明天进城去。福兴楼的清燉鱼翅，一元一大盘。\n"
            "他说：“人家说：‘阿发，你不要看得不相干。’”")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"汪得贵", "贺老六", "祥林嫂", "慰老爷", "福兴楼", "阿发"} <= found


def test_more_of_what_reads_like_a_name_but_is_none() -> None:
    """An adverb glued before a word that ends in a suffix (早+入门), a name and the word after it
    (金鼎大厦+楼下), a kind of wood (杉树林), a verb and the town it goes to (径奔+城中), a thing of
    gold (金鼎), a cry (阿阿), a state (我是赌气), an adverb before a verb (便迎), a family and an
    adverb (施家+再)."""
    text = ("这位师兄比他早入门十年。\n沈默把车停在金鼎大厦楼下。金鼎大厦的灯还亮着。\n走到杉树林边。杉树林里很黑。\n"
            "径奔城中的时候，天还没亮。\n一个大金鼎便摆在殿外。金鼎里注满了水。\n“阿阿，木叔！”“阿阿，木公公！”\n"
            "“我是赌气。”他说。\n远远地望见，便迎出来。便迎上去接在手里。\n叫施家再添十块钱。施家再也不来了。")
    found = {n.name for n in find_new_nouns(text, ["沈默", "木叔"])}
    assert not {"早入门", "金鼎大厦楼", "杉树林", "径奔城", "金鼎", "阿阿", "赌气", "便迎", "施家再"} & found
    assert "金鼎大厦" in found


def test_kin_before_a_surname_led_name_is_context_but_not_before_any_word() -> None:
    text = "那是她父亲沈国栋生前谈下来的。\n他教他儿子攻书。"
    assert [n.name for n in find_new_nouns(text, [])] == ["沈国栋"]


def test_the_false_names_of_the_issue_book_are_not_reported() -> None:
    """Issue 30's book by another author: 爷爷, 好声, 石桌, 惊醒, 全宗门, 宗门令牌, 青钢剑 and 陈叔 (an
    address form of a known 陈) were reported as new names; none of them is one."""
    text = ("陈叔端来一壶茶。爷爷坐在石桌旁，好声好气地说：“全宗门的人都来了。”\n林晚惊醒过来。全宗门上下都在找她。\n"
            "她拿出宗门令牌，又拔出青钢剑。宗门令牌在灯下发亮，青钢剑也出了鞘。\n陈叔叹道：“石桌上有血。”爷爷点了点头。")
    assert find_new_nouns(text, ["林晚", "陈伯远"]) == []
    assert [n.name for n in find_new_nouns(text, ["林晚"])] == ["陈叔"]  # no known 陈: a minor character


def test_minor_characters_places_and_items_are_caught() -> None:
    text = ("杨二嫂端着豆腐进来，柳妈跟在后面。\n“阿毛呢？”杨二嫂问。柳妈说阿毛去了咸亨酒店。\n"
            "他从咸亨酒店出来，手里握着赤霄剑。赤霄剑寒光一闪。")
    found = {(n.name, n.kind) for n in find_new_nouns(text, [])}
    assert found == {("杨二嫂", "人物"), ("柳妈", "人物"), ("阿毛", "人物"), ("咸亨酒店", "地点"), ("赤霄剑", "物品")}


def test_the_first_chapter_of_the_issue_reports_names_not_noise() -> None:
    meta, body = quick_meta((CORPUS / "专名" / "01.md").read_text(encoding="utf-8"))
    found = {(n.name, n.kind) for n in find_new_nouns(body, meta["已知"])}
    assert found == {("沈砚", "人物"), ("听雨轩", "地点"), ("落雁峰", "地点")}
    assert not {"雪下", "那支", "抱得"} & {name for name, _kind in found}


def test_generated_prose_with_known_names_has_no_new_names() -> None:
    import random

    people = ["林晚", "萧无涯", "苏青岚", "顾寒舟", "沈若雪", "陆长风"]
    for seed in range(5):
        body = prose(random.Random(seed), people, 3000)
        known = people + ["北境雪原", "青云宗", "天机阁", "落霞谷", "镇妖塔", "玄武城", "断魂崖", "望月楼"]
        assert find_new_nouns(body, known) == []


def _leak_cases() -> tuple[CheckContext, list[tuple[set[tuple[str, str]], str, str]]]:
    meta, body = quick_meta((CORPUS / "泄密.md").read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}
    for entry in meta["角色"]:
        names = entry.split("｜")
        for name in names:
            aliases.setdefault(name, names[0])
    secrets = []
    for entry in meta["信息差"]:
        sid, knowers, reader, keywords = entry.split("｜")
        secrets.append((sid, set(knowers.split("：")[1].split("、")), reader.endswith("是"), keywords.split("：")[1].split("、")))
    public = str(meta.get("公开") or "")  # what the book's public text says (a known massacre)
    ctx = CheckContext(aliases, secrets, [], [], 0, set(aliases),
                       public_words=frozenset(k for _s, _k, _r, kws in secrets for k in kws if k in public))
    cases = []
    for m in re.finditer(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", body, re.M | re.S):
        head = m.group(1).split()
        pov = next((h.split("=")[1] for h in head if h.startswith("视角=")), meta["视角"])
        gold = {(head[1], head[2])} if head[0] == "泄密" else set()
        cases.append((gold, m.group(2).strip("\n"), pov))
    return ctx, cases


def _leaks(ctx: CheckContext, text: str, pov: str) -> set[tuple[str, str]]:
    out = set()
    for f in leak_and_waste(ctx, text.split("\n"), 1, {}, set(), pov):
        if f.kind == "泄密":
            sid = re.search(r"S-\d+", f.message).group()  # type: ignore[union-attr]
            out.add((sid, "叙述" if f.message.startswith("叙述") else f.message.split(" ")[0]))
    return out


def test_info_gap_leaks_on_the_labelled_corpus() -> None:
    ctx, cases = _leak_cases()
    results = [(gold, _leaks(ctx, text, pov), text) for gold, text, pov in cases]
    leaks = [r for r in results if r[0]]
    found = [r for r in leaks if r[0] == r[1]]
    false = [r for r in results if not r[0] and r[1]]
    print(f"\ninfo-gap leaks: {len(cases)} labelled paragraphs, {len(leaks)} leaks; recall {len(found) / len(leaks):.2f}, "
          f"false alarms {len(false)}")
    assert [r for r in results if r[0] != r[1]] == []


def test_a_quote_in_its_own_paragraph_belongs_to_the_person_before(book) -> None:
    ctx = CheckContext.load(book)
    body = "林晚抬起头，直直地看着大长老。\n“灭门那夜的血书，在我手里。”"
    [finding] = [f for f in check_draft(book, Draft("A", {"推进承诺": ["P-001"]}, body, 5, body), None, ctx)
                 if f.kind == "泄密"]
    assert finding.line == 6 and finding.message.startswith("林晚 不是 S-001 的知情人")


def test_a_reveal_the_draft_declares_is_no_leak(book) -> None:
    ctx = CheckContext.load(book)
    body = "那封血书上写得清清楚楚：灭门的主使另有其人。"
    meta = {"视角": "林晚", "推进承诺": ["P-001"]}
    assert [f.kind for f in check_draft(book, Draft("A", meta, body, 1, body), None, ctx) if f.kind == "泄密"] == ["泄密"]
    meta["设定变更"] = ["S-001.读者已知=是"]
    assert not [f for f in check_draft(book, Draft("A", meta, body, 1, body), None, ctx) if f.kind == "泄密"]


# --- the ignore list, the acceptance card's marks, names added after the card ------------------------


def test_one_command_grows_the_books_ignore_list(book) -> None:
    from lw_storyrepo import edits

    body = "雪下得很大。宋青书拄杖而立。宋青书道：“走吧。”"
    draft = Draft("A", {}, body, 1, body)
    assert [f.message for f in check_draft(book, draft) if f.kind == "新专名"] == [
        "新专名「宋青书」（人物）不在名册：验收时确认是新实体还是笔误"]
    edits.ignore_names(book, ["宋青书"])
    assert not [f for f in check_draft(book, draft) if f.kind == "新专名"]
    assert "## 非专名（机检不再提示）\n- 宋青书\n" in book.text(L.名册)
    assert book.git.out("log", "-1", "--format=%s") == "fix(设定): 非专名+宋青书\n"
    with pytest.raises(LwError, match="已在非专名"):
        edits.ignore_names(book, ["宋青书"])
    with pytest.raises(LwError, match="是专名"):
        edits.ignore_names(book, ["林晚"])


def test_the_acceptance_card_registers_ignores_or_leaves_each_new_name(book) -> None:
    draft = DRAFT.replace("她握紧了玄阶令牌。", "她握紧了玄阶令牌。\n远处，宋青书拄杖而立。宋青书道：“走吧。”")
    to_reviewed(book, draft=draft)
    card = book.text(L.验收卡)
    assert "- [ ] 萧无涯（人物）" in card and "- [ ] 宋青书（人物）" in card
    card = card.replace("- [ ] 萧无涯（人物）", "- [x] 萧无涯（人物）").replace("- [ ] 宋青书（人物）", "- [-] 宋青书（人物）")
    book.p(L.验收卡).write_text(card, encoding="utf-8")
    verdict.accept(book)
    roster = book.text(L.名册)
    assert "| 萧无涯 |  | 人物 | 1 |" in roster and "- 宋青书" in roster.split("## 非专名")[1]
    assert roster.index("| 萧无涯 |") < roster.index("## 非专名")  # the table stays one table
    assert "名册+萧无涯; 非专名+宋青书" in book.git.out("log", "-1", "--format=%B")


def test_a_name_written_in_after_the_card_is_asked_about_before_acceptance(book) -> None:
    to_reviewed(book)
    path = book.p(L.draft_file("A"))
    path.write_text(path.read_text(encoding="utf-8") + "宋青书从雪里走来。宋青书道：“久等了。”\n", encoding="utf-8")
    head = book.git.head()
    with pytest.raises(LwError, match="宋青书"):
        verdict.accept(book)
    assert book.git.head() == head and "- [ ] 宋青书（人物）" in book.text(L.验收卡)
    card = book.text(L.验收卡).replace("- [ ] 宋青书（人物）", "- [x] 宋青书（人物）")
    book.p(L.验收卡).write_text(card, encoding="utf-8")
    verdict.accept(book)
    assert "| 宋青书 |  | 人物 | 1 |" in book.text(L.名册)


def test_checks_stage_reports_name_and_kind(book) -> None:
    to_reviewed(book)
    drafts.submit_draft(book, "B", DRAFT.replace("风雪扑面。", "风雪扑面，听雨轩的灯还亮着。她想起听雨轩的旧主人。"))
    results = review.run_checks(book)
    assert "新专名「听雨轩」（地点）不在名册：验收时确认是新实体还是笔误" in [f.message for f in results["B"]]


def test_names_found_in_the_session_that_measured_unseen_excerpts() -> None:
    """阿 with a Latin letter (阿Q); a surname, a rank and 奶奶 (夏四奶奶), a numeral name and 公公
    (六一公公); a place before a place word (咸亨酒店里, 静修庵里); a person listed beside a found one
    (赵白眼，赵司晨); a family's second person by a title (赵大爷 beside 赵太爷 and 赵司晨); a wife by
    her husband's surname (方太太 beside 方玄绰); 老 and a surname the segmenter glued to the next word
    (老+郑端); a profession after a surname (陈律师); a coined fruit (血灵果); someone named by 的是
    (领头的是赵无极); a place named after a place (长春宫); a surname and two characters the
    segmenter's HMM made one unknown word of, said once (王二狗 — not 姓王名仁); 老K as 阿Q; a base
    (曙光基地, not 刘+跟+基地). A cry or an insult said alone is none
    (“忘八蛋！”), nor a surname before a character no given name has (舂米场), nor the palace's
    address 小主."""
    text = ("阿Q近来得意。阿Q说：“走。”\n不就是夏四奶奶的儿子么？夏三爷赏了银子，夏三爷独自落腰包。\n"
            "于是各人便到六一公公的田里。是六一公公棹着小船。六一公公笑道：“好。”\n"
            "便在镇口的咸亨酒店里当伙计。对面走来了静修庵里的小尼姑。\n"
            "赵太爷来了，赵太爷道：“哼。”间壁的邹七嫂，本家的赵白眼，赵司晨。赵司晨说：“好。”赵大爷奔来。赵大爷说：“打。”\n"
            "“忘八蛋！”秀才骂。“忘八蛋！”\n他奔入舂米场，逃回舂米场。\n"
            "方玄绰回来了。方太太说：“发了么？”方太太又说。\n老板老郑端来两杯咖啡，老郑凑过来。“哪个律师？陈律师？”\n"
            "你也是冲着血灵果来的？一株血灵果树。领头的是赵无极，筑基后期。\n长春宫的灯亮着。“小主，歇了吧。”跑到你长春宫去的。\n"
            "帐外的亲兵王二狗看得眼都直了。这人姓王名仁。\n老K蹲在车后，老K说：“走。”刀疤刘跟基地那帮人做买卖，往北边的曙光基地去了。")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"阿Q", "夏四奶奶", "六一公公", "咸亨酒店", "静修庵", "赵白眼", "赵司晨", "赵大爷", "方太太", "老郑", "陈律师",
            "血灵果", "赵无极", "长春宫", "王二狗", "老K", "曙光基地"} <= found
    assert not {"忘八蛋", "米场", "夏四", "小主", "王名仁", "刘跟基地"} & found
    assert "方太太" in {n.name for n in find_new_nouns(text, ["方玄绰"])}


def test_web_novel_names_of_the_last_unseen_round() -> None:
    """A surname before a rare dictionary word and a given-name character (陆景+琛); a rare place
    name the segmenter split (青+阳城); formations, cities, studios (聚灵阵, 临江市, 星耀娱乐); a known
    name's 儿 form (墨儿 of 林墨); a found name's given name and title (嘉禾, 许老师 of 许嘉禾); a
    kinship word before a name is no place (大伯+林震天)."""
    text = ("陆景琛是什么人？跟陆景琛有对手戏。\n林墨回到青阳城的时候，大伯林震天亲自迎了出来。“墨儿，你回来了。”\n"
            "家里的聚灵阵坏了半年。凌晨四点，临江市刑警队的电话响了。温暖签进星耀娱乐的第三个月。\n"
            "是许嘉禾。“许老师好。”“叫我嘉禾就行。”许嘉禾笑了。")
    found = {n.name for n in find_new_nouns(text, ["林墨", "温暖"])}
    assert {"陆景琛", "青阳城", "聚灵阵", "临江市", "星耀娱乐", "许嘉禾"} <= found
    assert not {"墨儿", "嘉禾", "许老师", "大伯林", "嘉禾就行"} & found


def test_signals_of_the_fifth_round_that_other_books_share() -> None:
    """Names the draft keeps saying whole (铁手老八 three times, never 老九 alone), a place said again
    after different words (听涛馆 is no dictionary word), a surname and given-name characters said
    once with a body that moves (韩青岳转过身来); and words that are none: a would-be person
    counted with a measure word (三根艾草), a sect's rank (师叔), a double hour (午时), a word of
    characters no given name is made of (修为: the given-name table), the literary "I" (余曰), a
    poem's line (一夜春风吹柳岸)."""
    text = ("铁手老八带人堵住了巷口。铁手老八是镇上的一霸。他瞪着铁手老八，没有说话。\n"
            "她把三根艾草插在门上。去听涛馆的路上，师叔说修为要紧；听涛馆的掌柜姓周。\n"
            "午时刚过，韩青岳转过身来。\n")
    found = {n.name for n in find_new_nouns(text, [])}
    assert {"铁手老八", "听涛馆", "韩青岳"} <= found
    assert not {"老八", "艾草", "师叔", "午时", "修为"} & found
    literary = "余曰：“可。”余忽见一舟。客曰：“然。”\n一夜春风吹柳岸，十年旧梦落江城。\n"
    assert not {n.name for n in find_new_nouns(literary, [])} & {"余曰", "余忽见", "春风吹", "柳岸", "江城"}
