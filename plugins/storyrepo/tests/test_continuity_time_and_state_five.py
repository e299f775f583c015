"""The forty-fifth continuity round's time and state readings (issue 30, task T5 at stop 56): 书内时间 and 状态, the
newest books' misses and false alarms.

连续性-盲评三十八 and 三十九 (blind last stop, development since) missed an entry written in the scene dated inside its
paragraph, right after the colon of the clause writing it (…先在页头写上日子：民国二十二年三月初三。 / …端端正正写上：
1988年10月12日，晴…), and the dead said in a quote to have done a thing just now by a verb no table held
(向艄公刚才托人带话来); 三十八 and 三十六 alarmed on the dead named as the maker or the owner of a thing there now
(爹点出来的数对不上; 爹的字工工整整，哪天出了几锭墨). Read as facts of writing and of the card, not the books' words:

- an entry's full date right after a colon whose clause writes it now (:data:`ENTRY_INLINE`, :func:`_writes_now`) is an
  entry like one opening its paragraph; a clause telling a writing already there (写着：, 上面写：) writes nothing now;
- after 刚才, 刚刚, 方才 any doing of the dead is one of today (:data:`JUST_NOW`), not a that or this (刚才那话) nor a being;
- a doing of someone's that describes a thing (…点出来的数, :data:`MADE_THING`) and a name opening its sentence as the owner
  of what follows (…的字工工整整, :data:`OWNED_THING`; a part of the body is still them) are no act in the scene.

Written here in books none of the sets use: a 1970s weather station, a 光绪 salt-well office, a 2003 container port,
and a 万历 silk shop.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo import continuity
from lw_storyrepo.continuity import ENTRY_INLINE, MADE_THING, OWNED_THING, World, _writes_now, dates_of_death, \
    places_inside

import continuity_helpers

POST: dict[str, dict[str, Any]] = {
    "季青": {"姓名": "季青", "状态": "在世", "位置": "气象站"},
    "老蒙": {"姓名": "老蒙", "状态": "在世", "位置": "气象站"},
}


def timed(body: str, now: str) -> list[str]:
    """The 书内时间 findings of ``body`` told by 季青 at ``now``."""
    world = World(POST, {n: n for n in POST}, set(), set(), ("普通人",), None, {}, {"季青": "她", "老蒙": "他"})
    return [f.message for f in continuity_helpers.findings(body, world, "季青", now) if "书内时间" in f.message]


def test_an_entry_dated_after_a_colon_inside_its_paragraph_fires() -> None:
    # a 1970s weather station's log, its weather after the date
    assert timed("季青把观测簿摊开，翻到新的一页，一笔一画写上：一九七四年五月九日，阴，东南风三级。底下一行记气压。",
                 "一九七四年五月十一日")
    # a 光绪 salt-well office's ledger, the book named in the paragraph
    assert timed("掌柜的不在，季青拿过卤水账，先在页头写下日子：光绪十二年四月初二。底下记当天的卤水担数。",
                 "光绪十二年四月初六")
    # a 2003 container port's shift report in Arabic numerals, the kind in the paragraph before
    assert timed("交班前要填班报。\n\n季青拧开笔帽，在表头填上：2003年7月14日。下面一栏一栏填吊箱数。",
                 "二〇〇三年七月十六日")
    assert ENTRY_INLINE.search("端端正正写上：1988年10月12日，晴。") is not None


def test_an_entry_inside_its_paragraph_read_old_or_of_today_is_silent() -> None:
    # a writing already there, read
    assert not timed("季青翻到观测簿新的一页，页头上面写着：一九七四年五月九日，阴。她看了半天。", "一九七四年五月十一日")
    # today's own day
    assert not timed("季青把观测簿摊开，一笔一画写上：一九七四年五月十一日，阴，东南风三级。", "一九七四年五月十一日")
    assert not _writes_now("纸上写着") and not _writes_now("上面写") and _writes_now("一笔一画写上")


# a 万历 silk shop: the old master dead since the winter before last
SHOP: dict[str, dict[str, Any]] = {
    "沈绣": {"姓名": "沈绣", "状态": "在世", "位置": "绸缎庄"},
    "沈掌柜": {"姓名": "沈掌柜", "状态": "已死", "位置": "绸缎庄"},
    "周嫂": {"姓名": "周嫂", "状态": "在世", "位置": "绸缎庄"},
}
SHOP_TEXTS = {"沈掌柜": "万历十年腊月初八夜里在铺子里病故。", "沈绣": "掌柜的女儿。"}
SHOP_ALIASES = {**{n: n for n in SHOP}, "你爹": "沈掌柜", "爹": "沈掌柜", "老掌柜": "沈掌柜"}


def stated(body: str, now: str = "万历十二年三月初六") -> list[str]:
    """The 状态 findings of ``body`` told by 沈绣 in the silk shop at ``now``."""
    died, days = dates_of_death(SHOP, SHOP_TEXTS)
    world = World(SHOP, dict(SHOP_ALIASES), {"绸缎庄"}, set(), ("普通人",), None, places_inside("万历年间的绸缎庄。", {"绸缎庄"}),
                  {"沈绣": "她", "沈掌柜": "他", "周嫂": "她"}, died=died, died_day=days)
    return [f.message for f in continuity_helpers.findings(body, world, "沈绣", now, ["沈绣", "周嫂"]) if "状态" in f.message]


def test_the_dead_said_to_have_done_anything_just_now_fires() -> None:
    assert stated("周嫂掀帘子进来：“老掌柜刚才托人捎了句话，叫你去库房。”")
    assert stated("“你爹刚刚叮嘱过，这匹缎子不卖。”周嫂说。")
    assert stated("周嫂压低了声音：“老掌柜方才派伙计来过，你没在。”")


def test_the_dead_just_now_named_or_said_well_is_silent() -> None:
    assert not stated("周嫂叹了口气：“刚才那话，是你爹生前常说的。”")
    assert not stated("周嫂抹着眼泪：“老掌柜刚才那句，我没听清。”")


def test_the_dead_as_the_maker_or_owner_of_a_thing_there_is_no_act() -> None:
    # the dead master's handwriting and count in the books, read now
    assert not stated("沈绣翻着账。老掌柜的字工工整整，哪天进了几匹绸，一笔不落。")
    assert not stated("是不是老掌柜点出来的数对不上，才吵起来的？")
    assert MADE_THING.match("的数对不上") is not None and MADE_THING.match("的时候") is None
    assert OWNED_THING.match("的字工工整整") is not None and OWNED_THING.match("的手一挥") is None


def test_the_dead_doing_a_thing_in_the_scene_still_fires() -> None:
    # the dead master himself walking in, his hand as the doer
    assert stated("老掌柜走进来，在柜台后头坐下了。")
    assert stated("老掌柜的手往柜台上一拍，走到了门口。")


def test_a_paragraph_of_thousands_of_dated_entries_is_read_once(monkeypatch: Any) -> None:
    """_entry_inline reads the paragraph's words of an old writing once, and each date's intro at most ENTRY_INTRO_SPAN
    back (a line of 3,000 entries read from each of them was quadratic)."""
    counted = continuity_helpers.Counted(continuity.NOT_WRITTEN_NOW)
    monkeypatch.setattr(continuity, "NOT_WRITTEN_NOW", counted)
    line = "季青一笔一画写上：一九七四年五月九日，阴。" * 3000 + "旧"
    assert continuity._entry_dated("一九七四年五月十一日", ["观测簿", line], 1) == []
    assert counted.read <= 2 * len(line)


# R56 on T5: a 1957 Inner Mongolian horse ranch, the old herder 巴特尔 dead since the winter (the reviewer's sentences)
RANCH: dict[str, dict[str, Any]] = {
    "其其格": {"姓名": "其其格", "状态": "在世", "位置": "马场"},
    "巴特尔": {"姓名": "巴特尔", "状态": "已死", "位置": "马场"},
    "乌兰": {"姓名": "乌兰", "状态": "在世", "位置": "马场"},
}
RANCH_TEXTS = {"巴特尔": "1956年12月3日夜里在马场冻死。", "其其格": "巴特尔的女儿。"}


def ranch(body: str, now: str = "1957年4月6日") -> list[str]:
    """The 状态 and 书内时间 findings of ``body`` told by 其其格 on the ranch at ``now``."""
    died, days = dates_of_death(RANCH, RANCH_TEXTS)
    world = World(RANCH, {**{n: n for n in RANCH}, "阿爸": "巴特尔"}, {"马场"}, set(), ("普通人",), None,
                  places_inside("马场。", {"马场"}), {"其其格": "她", "巴特尔": "他", "乌兰": "她"}, died=died, died_day=days)
    return [f.message for f in continuity_helpers.findings(body, world, "其其格", now, ["其其格", "乌兰"])
            if "状态" in f.message or "书内时间" in f.message]


def test_a_funeral_just_now_is_no_doing_of_the_dead() -> None:
    assert not ranch("乌兰红着眼睛：“你阿爸刚才下葬了，喇嘛念完了经。”")
    assert not ranch("乌兰说：“巴特尔方才入土，大伙都散了。”")
    assert ranch("乌兰红着眼睛：“阿爸刚才托人捎话，叫我把马群赶回去。”")


def test_an_entry_after_a_gone_day_or_inside_someones_words_is_no_entry_written_now() -> None:
    assert not ranch("其其格想起那天，她在本子上写下：1957年4月2日，晴。")
    assert not ranch("乌兰说：“明天你在账上写：1957年4月2日，晴。”")
    assert not ranch("乌兰对会计说：“你在账上记下：1957年4月2日，巴图赊走两匹马。”")
    assert ranch("其其格在马群记录本上写下：1957年4月2日，晴，产驹三匹。")


def test_writing_going_on_is_writing_now_not_a_writing_there() -> None:
    assert ranch("其其格趴在炕桌上，在马群记录本上一笔一画地写着：\n\n1957年4月2日，晴，产驹三匹。")
    assert ranch("其其格趴在炕桌上，在马群记录本上一笔一画地写着：1957年4月2日，晴，产驹三匹。")
    assert _writes_now("正写着") and _writes_now("在本子上写着") and not _writes_now("碑上刻着") \
        and not _writes_now("页头上面写着")


def test_an_entry_written_by_a_bent_head_or_onto_a_page_is_written_now() -> None:
    """R56B: 头 is a surface only as 上头, 里头, 前头, 页头 (埋头写着, 低头写着 bend a head); 往…上写着 writes now as 在…上写着
    does; a gone day of an earlier sentence (那天的事她不愿再想。) is another thought, not the entry's."""
    for body in ("其其格埋头写着：1957年4月2日，晴，产驹三匹。", "其其格低头写着：1957年4月2日，晴，产驹三匹。",
                 "其其格往马群记录本上写着：1957年4月2日，晴，产驹三匹。",
                 "那天的事她不愿再想。其其格在马群记录本上写下：1957年4月2日，晴，产驹三匹。"):
        assert ranch(body), body
    for body in ("纸上写着：1957年4月2日，晴。", "页头上面写着：1957年4月2日，晴。", "本子里头写着：1957年4月2日，晴。",
                 "其其格想起那天，她在本子上写下：1957年4月2日，晴。"):
        assert not ranch(body), body
