"""The classes the fifteenth round read (issue 30: 位置 and 状态), found missed on the development books and
kept because they caught (or took a false alarm away) on two of them, written here at a mountain observatory —
other words than the labelled drafts: the right sentence next to each wrong one.

- one reader of what a state forbids: the state word's scene (停职 → the duty) is data read by
  ``forbidden_of`` with the prose's bars;
- someone the book keeps where their card puts them (出不了院, 不得离开) is as far as a far place: seen
  beside the point of view anywhere else — unless the point of view is at their place (a ward, 病床);
  a screen someone looks at (盯着屏幕看数据) is a thing in the room, no call;
- a witness's quote names the far one by a form the cards say people call them (站里的人叫他“台长”);
- words written down before (是老台长写的：…) or reported or mimicked inside another's quote (“他说：‘…’”,
  学着老台长的样子) are nobody's voice in the scene: the dead do not speak by them, the absent are not there.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.forbidden import forbidden_of

import continuity_helpers

CARDS: dict[str, dict[str, Any]] = {
    "温若岚": {"姓名": "温若岚", "状态": "在世", "位置": "星岭天文台"},
    "邱野": {"姓名": "邱野", "状态": "骨折", "位置": "县医院"},
    "郑怀远": {"姓名": "郑怀远", "状态": "在世", "位置": "省城"},
    "老台长": {"姓名": "老台长", "状态": "已故", "位置": "星岭天文台"},
    "齐小满": {"姓名": "齐小满", "状态": "停职", "位置": "星岭天文台"},
}
ALIASES = {**{name: name for name in CARDS}, "野哥": "邱野"}
PLACES = {"星岭天文台", "县医院", "省城", "县城", "观测室"}
LORE = ("星岭天文台在县城西边的山顶上，观测室在星岭天文台里。省城离县城八百里，坐火车要一天一夜。"
        "邱野从梯子上摔下来，腿断了，住在县医院，下个月十号前出不了院。")
TEXTS = {"温若岚": "观测员。", "邱野": "机修工，腿断了住院。", "郑怀远": "台长，去省城开会了。站里的人叫他“台长”。",
         "老台长": "已故，天文台的第一任台长。", "齐小满": "见习观测员，停职。"}
GENDER = {"温若岚": "她", "邱野": "他", "郑怀远": "他", "老台长": "他", "齐小满": "她"}


def findings(body: str, heard: dict[str, str] | None = None) -> list[str]:
    world = continuity_helpers.world_of(CARDS, ALIASES, PLACES, TEXTS, LORE, GENDER, far=True, heard=heard or {})
    return [f.message for f in continuity_helpers.findings(body, world, "温若岚", "1988年3月2日", ["温若岚", "齐小满"])]


def test_a_state_words_scene_and_the_proses_bars_come_from_one_reader() -> None:
    bars = forbidden_of(CARDS, TEXTS, LORE, ALIASES, PLACES)
    assert bars["齐小满"].scene is not None and bars["齐小满"].scene.search("她照常去上班")
    assert bars["邱野"].scene is None and bars["邱野"].kept
    assert "温若岚" not in bars and "郑怀远" not in bars  # an ordinary state forbids nothing


def test_someone_kept_where_their_card_puts_them_is_not_beside_the_point_of_view() -> None:
    here = findings("夜里十点，温若岚上到观测室。\n\n野哥已经靠在窗边了，手里捏着半截烟，正盯着屏幕看云图。")
    assert [m for m in here if "离不开「县医院」" in m and "位置" in m]
    ward = findings("下午温若岚去县医院看邱野。\n\n野哥靠在病床上，正盯着屏幕看云图。")
    assert not [m for m in ward if "离不开" in m]
    call = findings("夜里十点，温若岚在观测室接起电话。\n\n野哥在那头笑了一声，说他躺得骨头都酥了。")
    assert not [m for m in call if "离不开" in m]


def test_a_witness_names_the_far_one_by_what_people_call_him() -> None:
    heard = {"台长": "郑怀远"}
    seen = findings("齐小满放下水壶：“今天一早，台长还在观测室里擦镜片呢，我亲眼看见的。”", heard)
    assert [m for m in seen if "郑怀远" in m and "省城" in m]
    away = findings("齐小满放下水壶：“台长在省城开会，说下礼拜才回来。”", heard)
    assert not [m for m in away if "郑怀远" in m]


def test_words_written_or_reported_are_no_voice_in_the_scene() -> None:
    def dead(body: str) -> list[str]:
        return [m for m in findings(body) if "老台长" in m]

    assert dead("温若岚翻开那本旧记录，最后一页是老台长写的：三月，云多，不宜观测。") == []
    assert dead("齐小满学着老台长的样子，背着手踱了两步，“他说：‘看星星，先得坐得住。’”温若岚笑了。") == []
    assert dead("观测室的门开了，老台长背着手走进来，说：“今晚云散了，开机吧。”")  # the dead in the scene still are
