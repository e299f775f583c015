"""Stop 58's new author (U15): a 1985 migratory beekeeping team (追花放蜂) from 罗平 to 汉中 and 门源 (a 帮工 who finds
the queen of hive 3 swapped for an old one, gives his 铜哨 away, follows the 帮工 who sold the queen to a dealer at the
东关 market, and passes his 把式 test in the rape fields of 门源), written through ``lw story`` as an author would, and
the tool's faults that hurt on the way, each with its fix:

- a retcon of one digit of a price (「二十五，一分不少」 → 「二十八，」) rewrote the chapter summary where it said the
  dealer's name: 「麻老五，还说…」 became 「麻老八，还说…」, and the price 「二十五元」 stayed. The summary follows a
  typo-sized edit by the changed characters and the fewest of their neighbours that the summary holds once; 「五，」
  (one character and a comma) was taken as such a context. A context now needs two characters that are not
  punctuation: 「十五」 → 「十八」, the price follows and the name stays (the board's ``fix`` proposal names the same
  words);
- ``lw story vol commit`` after a refused ``vol candidates`` (one anchor not found in 总纲: the whole call is refused)
  filed the volume and said nothing of the foreshadowing promises it did not file (U14 met it too). It now says that
  the review had no candidate (none given, or refused) and how to add a promise, or that none was ticked (the model's
  tool returns it as ``foreshadowing``, apart from the outline's ``hint``);
- after ``amend`` the board said 「已机检（过：A；打回：无）」 exactly as before, so the author could not tell the drafts
  had been checked against the amended contract (U14 met it too); it now adds 「，按修订后的合同」.
"""

from __future__ import annotations

from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo import tools

from story_cli import accept_chapter, hand_in, lw, new_book, subjects

WORLD = """# 世界观

## 世界规则

一九八五年，罗平的放蜂队追着油菜花北上。汉中在罗平以北一千二百多公里。

## 力量体系

徒工 < 帮工 < 把式 < 蜂把头
"""

DRAFT = """---
标题: 东关王笼
视角: 向春生
书内时间: 1985年3月9日
开启承诺:
  - P-001
一句话事件: 向春生看见葛长富把蜂王卖给麻老五
在场:
  - 向春生
  - 葛长富
  - 麻老五
---
葛长富没去修车铺。他进了城，拐过两条街，一直走到东关的农贸市场。市场最里头有个卖蜂具的摊子，摊主是个麻脸汉子，旁边的人都叫他麻老五。

向春生躲在一个卖竹筐的摊子后面，隔着七八步远，看得清清楚楚。葛长富从帆布包里摸出一个小小的竹王笼，递了过去。

"意蜂，黄腿，是好王。"麻老五说，"要是新王，我给你三十。"

"二十五，一分不少。"葛长富说。

麻老五数出一沓票子，塞进葛长富手里。向春生缩着脖子，等他走过去了才直起腰来，手心里全是汗。
"""

SUMMARY = "向春生跟到东关市场，看见葛长富把一只意蜂王以二十五元卖给蜂贩子麻老五，还说上回那只也是这个价。"

CHAPTER = "定稿/正文/0001-东关王笼.md"


def drafted(tmp_path: Path) -> Path:
    """Two cards; chapter 1 (the sale at the 东关 market) handed in as draft A under a contract of two lines."""
    root = new_book(tmp_path / "追花", WORLD,
                    (("向春生", "位置", "汉中"), ("向春生", "境界", "帮工"),
                     ("葛长富", "位置", "汉中"), ("葛长富", "境界", "帮工")),
                    contract=("向春生看见葛长富把蜂王卖给麻老五", "P-001 开启：三号箱的王卖给了谁"),
                    promise=("三号箱的王", "--类型", "悬念", "--强度", "中", "--兑付计划", "第5章揭晓"))
    hand_in(root, DRAFT)
    return root


def market(tmp_path: Path) -> Path:
    """:func:`drafted`, then checked and accepted with :data:`SUMMARY`."""
    root = drafted(tmp_path)
    assert "过：A" in lw(root), lw(root)  # the checks: A passes
    accept_chapter(root, SUMMARY)
    assert subjects(root)[0] == "ch(1): 东关王笼", subjects(root)
    return root


def summary_of(root: Path) -> str:
    return (root / L.章摘要 / "0001.md").read_text(encoding="utf-8")


def test_a_retcon_of_one_digit_rewrites_the_price_in_the_summary_not_a_name_beside_a_comma(tmp_path: Path) -> None:
    root = market(tmp_path)
    path = root / CHAPTER
    path.write_text(path.read_text(encoding="utf-8").replace("二十五，一分不少", "二十八，一分不少"), encoding="utf-8")
    board = lw(root)
    assert "fix(正文)" in board and "「十五」" in board and "「五，」" not in board, board  # the proposal names them
    said = lw(root, "retcon", "1", "--原因", "价钱改成二十八", answer="n\n", ok=False)
    assert "章摘要 0001 随正文改：十五→十八" in said and "五，→八，" not in said, said
    lw(root, "retcon", "1", "--原因", "价钱改成二十八", "-y")
    text = summary_of(root)
    assert "以二十八元卖给" in text and "蜂贩子麻老五，还说" in text and "麻老八" not in text, text


def test_a_retcon_that_finds_no_context_of_two_characters_leaves_the_summary_and_says_nothing_wrong(
        tmp_path: Path) -> None:
    root = market(tmp_path)
    path = root / CHAPTER
    # 「要是新王，我给你三十。」 → 「四十。」: 十 is no word of the summary next to 三 or 。, nothing follows
    path.write_text(path.read_text(encoding="utf-8").replace("我给你三十。", "我给你四十。"), encoding="utf-8")
    lw(root, "retcon", "1", "--原因", "出价改成四十", "-y")
    assert summary_of(root).endswith(SUMMARY + "\n"), summary_of(root)


def ended_volume(tmp_path: Path) -> Path:
    root = market(tmp_path)
    lw(root, "outline", "set", "总纲", "主线", "向春生要查清三号箱的王被谁换了，并在门源考上把式。")
    assert "卷复盘" in lw(root, "vol")
    (tmp_path / "卷摘要.md").write_text("向春生在东关看见葛长富卖王。", encoding="utf-8")
    return root


def test_vol_commit_after_refused_candidates_says_no_foreshadowing_promise_was_filed(tmp_path: Path) -> None:
    root = ended_volume(tmp_path)
    refused = lw(root, "vol", "candidates",
                 "--候选", "麻老五的来路｜伏笔｜中｜第2卷｜查出麻老五把王卖给谁｜总纲：向春生要查清三号箱的王被谁换了",
                 "--候选", "葛长富的老娘｜关系线｜低｜第2卷｜葛长富回家｜总纲：葛长富的老娘病好了",
                 "--候选", "把式｜立旗｜中｜第2卷｜向春生带场子｜总纲：并在门源考上把式", ok=False)
    assert "葛长富的老娘病好了" in refused, refused
    out = lw(root, "vol", "commit", "--summary", str(tmp_path / "卷摘要.md"))
    assert "已入册 vol(01)" in out, out
    assert "卷复盘里没有伏笔候选（没交过，或交的被拒了），这次入册没有生成伏笔承诺" in out, out
    assert "lw story promise new" in out, out


def test_the_model_tool_of_vol_commit_says_it_too_apart_from_the_outline_hint(tmp_path: Path) -> None:
    root = ended_volume(tmp_path)
    result = tools.volume_commit(tools.VolumeCommitArgs(summary="向春生在东关看见葛长富卖王。", outline="回汉中追王。"),
                                 {"story_root": str(root)})
    assert result["commit"] and "hint" not in result, result  # the next outline was given
    assert "这次入册没有生成伏笔承诺" in result["foreshadowing"], result


def test_vol_commit_with_no_candidate_ticked_says_so_in_either_language(tmp_path: Path) -> None:
    root = ended_volume(tmp_path)
    lw(root, "vol", "candidates",
       "--候选", "麻老五的来路｜伏笔｜中｜第2卷｜查出麻老五把王卖给谁｜总纲：向春生要查清三号箱的王被谁换了",
       "--候选", "门源｜冲突｜低｜第2卷｜门源的场子被抢｜总纲：并在门源考上把式",
       "--候选", "把式｜立旗｜中｜第2卷｜向春生带场子｜总纲：并在门源考上把式")
    out = lw(root, "vol", "commit", "--summary", str(tmp_path / "卷摘要.md"), locale="en")
    assert "none of the 3 foreshadowing candidates was ticked" in out, out


def test_vol_commit_with_a_ticked_candidate_says_nothing_of_unfiled_promises(tmp_path: Path) -> None:
    root = ended_volume(tmp_path)
    lw(root, "vol", "candidates",
       "--候选", "麻老五的来路｜伏笔｜中｜第2卷｜查出麻老五把王卖给谁｜总纲：向春生要查清三号箱的王被谁换了",
       "--候选", "门源｜冲突｜低｜第2卷｜门源的场子被抢｜总纲：并在门源考上把式",
       "--候选", "把式｜立旗｜中｜第2卷｜向春生带场子｜总纲：并在门源考上把式")
    lw(root, "vol", "tick", "1")
    out = lw(root, "vol", "commit", "--summary", str(tmp_path / "卷摘要.md"))
    assert "伏笔候选" not in out and "承诺:" not in out, out
    assert list((root / L.承诺).glob("P-002-*.md")), "the ticked candidate is filed as P-002"


def test_the_board_says_the_checks_read_the_amended_contract(tmp_path: Path) -> None:
    root = drafted(tmp_path)
    first = lw(root)
    assert "已机检（过：A；打回：无）；下一步" in first and "修订" not in first, first  # no amend: said as before
    lw(root, "amend", "--原因", "补一条出价", "--合同", "向春生看见葛长富把蜂王卖给麻老五",
       "--合同", "P-001 开启：三号箱的王卖给了谁", "--合同", "麻老五出价三十")
    out = lw(root)
    assert "已机检（过：A；打回：无），按修订后的合同；下一步" in out, out
    lw(root, "amend", "--原因", "再改回来", "--合同", "向春生看见葛长富把蜂王卖给麻老五",
       "--合同", "P-001 开启：三号箱的王卖给了谁")
    english = lw(root, locale="en")
    assert "checked (passed: A; sent back: none), against the amended contract; next step" in english, english
