"""Thirtieth continuity round (issue 30, E1 at stop 51: the ladder as facts). A ladder word attributed to a person is a
rank claim, compared with the card's 境界, whatever book it is in:

- a title on a surname or before a name (何主笔, 邵队 for a 队长, 主笔何平) said by the narrator, or in a quote whose
  one named speaker holds the title's rung or higher (a superior does not flatter upward), higher than the card's: a
  warning. Courtesy stays silent: a quote with no speaker named or a lower speaker, and 代/前/老 before the title —
  but a title that opens a quote as its vocative (“韩把头，…”) is the one spoken to called by that rank, whoever
  speaks: a warning (stop 57: eight blind writers planted exactly this as the rank error);
- the listener said to be a rank in a general attributive frame (你一个R, 你堂堂R, 你当了这么些年的R, 你都当上R了),
  the listener the quote's vocative (小邵, 老何 for the one person of the surname), and 当了N年R的X: the rank compared.

Written in books no labelled set uses (a 1930s newspaper, a 2050 police station, a Tang kitchen), other words than
the labelled drafts.
"""

from __future__ import annotations

from lw_storyrepo.checks import ERROR, WARN
from lw_storyrepo.continuity import World, told_of
from lw_storyrepo.ranks import ladders_of

import continuity_helpers

BOOKS = {
    "报馆": ("## 职级\n校对 ＜ 编辑 ＜ 主笔 ＜ 总编辑\n", {"何平": "编辑", "葛书年": "总编辑", "陶小满": "校对"}),
    "警局": ("## 职级\n警员 ＜ 队长 ＜ 分局长\n", {"邵岩": "警员", "柯文": "分局长", "蓝一舟": "警员"}),
    "后厨": ("## 职级\n杂役 ＜ 帮厨 ＜ 掌勺 ＜ 总厨\n", {"韦三": "杂役", "祁望": "总厨", "单九": "帮厨"}),
    "书局": ("## 职级\n校对 ＜ 编辑 ＜ 主笔\n", {"李小周": "编辑", "周大成": "校对", "葛书年": "主笔"}),
    "分局": ("## 职级\n警员 ＜ 副局长 ＜ 局长\n", {"王海": "副局长", "蓝一舟": "警员", "许诚": "警员"}),
}


def found(book: str, body: str) -> list[tuple[str, str]]:
    ladder, ranks = BOOKS[book]
    cards = {p: {"姓名": p, "状态": "在世", "位置": book, "境界": r, "持有": []} for p, r in ranks.items()}
    aliases = {p: p for p in cards}
    pov = next(iter(cards))
    world = World(cards, dict(aliases), {book}, set(), tuple(ladder.split("\n")[1].split(" ＜ ")), None, {},
                  {p: "他" for p in cards}, ladders=ladders_of(ladder, list(ranks.values())), told=told_of({}, cards))
    return [(f.severity, f.message)
            for f in continuity_helpers.findings(body, world, pov, "三月初三", list(cards), changes=[]) if "境界" in f.message]


def warned(book: str, body: str) -> bool:
    return any(s == WARN for s, _m in found(book, body))


def test_a_title_above_the_card_said_by_the_narrator_or_a_superior_is_a_claim() -> None:
    assert warned("报馆", "天刚亮。何主笔推门进来，把一沓稿子拍在桌上。")
    assert warned("警局", "雨下了一夜。邵队长站在巷口，半天没说话。")
    assert warned("警局", "雨下了一夜。柯文摆摆手，“邵队，你先回去。”")  # 邵队: 队长 clipped on a surname, the 分局长's word
    assert warned("后厨", "灶火正旺。祁望把勺子一放，“韦帮厨，把这锅汤端出去。”")  # the 总厨 does not flatter upward


def test_courtesy_and_other_times_are_no_claim() -> None:
    assert found("后厨", "灶火正旺。“劳您搭把手，韦帮厨。”门口的小伙计探进头来。") == []  # no speaker named
    assert found("报馆", "天刚亮。“早啊，何主笔。”陶小满哈着腰说。") == []  # a 校对 flatters upward
    assert found("报馆", "天刚亮。“老主笔何平来了。”葛书年说着，把一沓稿子拍在桌上。") == []  # 老: a veteran's name
    assert found("报馆", "天刚亮。何编辑推门进来，把一沓稿子拍在桌上。") == []  # the card's own
    assert found("后厨", "祁望摆摆手：“掌勺帮厨，都是给人做饭的。”") == []  # ranks listed, not a title on 单九
    assert found("后厨", "灶火正旺。韦掌勺帮厨两样活都得干。") == []  # R51 5: a surname before ranks listed is no title


def test_the_listener_said_to_be_a_rank_in_a_frame() -> None:
    assert warned("警局", "柯文叹了口气：“小邵，你当了这么些年的队长，这点事还拿不准？”")
    assert warned("报馆", "葛书年把笔一扔：“何平，你一个主笔，跟校对抢什么活？”")
    assert warned("后厨", "祁望瞪着他：“韦三，你堂堂一个掌勺，连葱都切不齐？”")
    assert any(s == ERROR for s, _m in found("后厨", "单九笑了：“祁望，你一个帮厨，也配管我？”"))  # below the 总厨


def test_frames_without_a_listener_or_a_claim_stay_silent() -> None:
    assert found("报馆", "葛书年把笔一扔：“你一个主笔，跟校对抢什么活？”") == []  # no vocative: who 你 is is unknown
    assert found("警局", "柯文拍拍他：“小邵，你当了队长可别忘了我们。”") == []  # a wish, no frame
    assert warned("后厨", "门帘一掀，当了十几年掌勺的单九走了进来。")
    assert found("后厨", "门帘一掀，当了十几年帮厨的单九走了进来。") == []
    assert warned("后厨", "韦三擦了擦手。如今他这个掌勺在灶上也算说得上话了。")
    assert found("后厨", "韦三擦了擦手。如今他这个杂役在灶上也算说得上话了。") == []
    assert found("后厨", "韦三擦了擦手。如今他这个掌勺的徒弟在灶上也算说得上话了。") == []  # the 掌勺's apprentice


def test_a_familiar_form_two_cards_could_own_calls_neither() -> None:
    # R51 3: 阿周 is 阿 on 周大成's surname and on 李小周's given 周: the listener is unknown, no claim is read
    assert found("书局", "葛书年把笔一扔：“阿周，你一个主笔，跟校对抢什么活？”") == []
    # near miss: 老周 only the surname gives (李小周's given name gives 周哥, 阿周, never 老周)
    assert warned("书局", "葛书年把笔一扔：“老周，你一个主笔，跟校对抢什么活？”")


def test_a_title_opening_a_quote_as_its_vocative_is_a_claim_whoever_speaks() -> None:
    """“韦帮厨，…”: the one spoken to is called by the rank (a hint, never an error); the vocative needs the quote's
    opening, the surname and the title, then a pause; 代/前/老 and a second rung keep it silent."""
    assert warned("后厨", "灶火正旺。“韦帮厨，劳您搭把手。”门口的小伙计探进头来。")  # no speaker named
    assert warned("报馆", "天刚亮。“何主笔，早。”陶小满哈着腰说。")  # a lower speaker
    assert warned("警局", "巷子里很黑。“邵队长！”蓝一舟喊了一声。")
    assert all(s == WARN for s, _m in found("报馆", "天刚亮。“何主笔，早。”陶小满哈着腰说。"))
    assert found("报馆", "天刚亮。“何主笔来了吗？”陶小满问。") == []  # no pause: asked about, not spoken to
    assert found("后厨", "灶火正旺。“老韦帮厨，劳您搭把手。”") == []  # 老: no surname right after the quote
    assert found("后厨", "灶火正旺。“韦掌勺帮厨，都在这儿了。”") == []  # ranks listed
    assert found("报馆", "天刚亮。“何编辑，早。”陶小满哈着腰说。") == []  # the card's own rank


def test_a_deputy_spoken_to_by_the_title_without_its_deputy_word_is_courtesy() -> None:
    """R57: 王副局长 called 王局长 in the opening vocative is the everyday courtesy, no claim; a 警员 called 局长 is."""
    assert found("分局", "门开了。“王局长，您先坐。”蓝一舟说。") == []
    assert warned("分局", "门开了。“许局长，您先坐。”蓝一舟说。")
