"""The layout of a book (spec §2) and the names of its files.

Folder and file names are Chinese (the authors' language); ASCII is kept for machine protocol
only: item ids (P-031, S-021), ``book.yaml``, ``.gitignore``, ``.cache/``. Every name built from
text someone typed (a title, a character's name) goes through :func:`safe_title`, which keeps it
a single, portable file name on Linux, macOS and Windows.
"""

from __future__ import annotations

import re

from lw_storyrepo import SPEC_VERSION

定稿 = "定稿"
正文 = "定稿/正文"
设定 = "定稿/设定"
角色 = "定稿/设定/角色"
信息差 = "定稿/设定/信息差"
世界观 = "定稿/设定/世界观.md"
时间线 = "定稿/设定/时间线.md"
名册 = "定稿/设定/名册.md"
记忆 = "定稿/记忆"
章摘要 = "定稿/记忆/章摘要"
卷摘要 = "定稿/记忆/卷摘要"
大纲 = "大纲"
总纲 = "大纲/总纲.md"
卷纲 = "大纲/卷纲"
承诺 = "大纲/承诺"
文风 = "文风"
风格宪法 = "文风/风格宪法.md"
金句库 = "文风/金句库"
工作区 = "工作区"
决策卡 = "工作区/决策卡.md"
上下文包 = "工作区/上下文包.md"
验收卡 = "工作区/验收卡.md"
事务 = "工作区/事务.yaml"
章摘要稿 = "工作区/章摘要.md"
评审报告 = "工作区/评审报告"
打回记录 = "工作区/评审报告/打回.md"
打回稿 = "工作区/打回稿"
原稿 = "工作区/原稿"
新承诺 = "工作区/新承诺"
新信息差 = "工作区/新信息差"
卷复盘 = "工作区/卷复盘.md"
CACHE = ".cache"
BOOK_FILE = "book.yaml"
SOURCE_ROOTS = (定稿, 大纲, 文风)

TIMELINE_HEADER = "| 章 | 书内时间 | 一句话事件 | 在场 |\n|----|----------|------------|------|\n"
IGNORE_SECTION = "非专名（机检不再提示）"
ROSTER_HEADER = "| 正名 | 别名 | 类型 | 首现章 |\n|------|------|------|--------|\n"

BOOK_DEFAULTS: dict[str, object] = {
    "spec_version": SPEC_VERSION,
    "书名": "",
    "类型": "",
    "每章目标字数": 3000,
    "卷规模": 40,
    "文体基线起": 1,
    "文体基线止": 30,
    "高承诺最大搁置章数": 10,
    "连续弱钩上限": 3,
    "关键章稿数": 3,
}
BOOK_INT_FIELDS = tuple(k for k, v in BOOK_DEFAULTS.items() if isinstance(v, int))
BOOK_COMMENTS = {
    "卷规模": "参考值，不是硬约束",
    "文体基线起": "文体指纹基线章区间，作者可改",
    "高承诺最大搁置章数": "超过亮\"节奏债\"",
    "关键章稿数": "卷首/转折/高潮章 best-of-N",
}

PROMISE_TYPES = ("伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫")
STRENGTHS = ("高", "中", "低")
PROMISE_STATES = ("进行", "已兑付", "已弃置")
ENTITY_KINDS = ("人物", "地点", "组织", "物品", "功法", "其他")
CHAPTER_FILE = re.compile(r"^(\d{4,})-(.+)\.md$")
ITEM_FILE = re.compile(r"^([PS]-\d{3,})-(.+)\.md$")
ITEM_ID = re.compile(r"^[PS]-\d{3,}$")
LIST_SPLIT = re.compile(r"\s*[,，、/]\s*")

_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')
_WINDOWS_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
TITLE_MAX = 40


def safe_title(title: str) -> str:
    """``title`` as one portable file-name part: no separators, no characters Windows forbids,
    no leading/trailing dots or spaces, not a Windows device name, at most 40 characters."""
    cleaned = _UNSAFE.sub("", title).strip().strip(".").strip()[:TITLE_MAX].rstrip(". ") or "无题"
    if cleaned.split(".")[0].upper() in _WINDOWS_DEVICES:
        cleaned = "_" + cleaned
    return cleaned


def chapter_filename(number: int, title: str) -> str:
    return f"{number:04d}-{safe_title(title)}.md"


def volume_name(volume: int) -> str:
    return f"第{volume:02d}卷"


def lens_file(lens: str) -> str:
    return f"{评审报告}/{lens}镜头.md"


def check_report(label: str) -> str:
    return f"{评审报告}/机检-{label}.md"


def draft_file(label: str, *, original: bool = False) -> str:
    return f"{原稿 if original else 工作区}/草稿-{label}.md"
