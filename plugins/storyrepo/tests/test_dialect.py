"""Reading and writing the formats: round-trip preservation, the fool-proof dialect, repair cards."""

from __future__ import annotations

import pytest
from lw_storyrepo.samples import LIN

from lw_storyrepo import layout as R
from lw_storyrepo.dialect import RepairNeeded, auto_fix, fast_flat, parse_doc, risky
from lw_storyrepo.repair import apply_card, scan


def test_unknown_fields_and_comments_survive_a_write():
    doc, fixes = parse_doc(LIN, "林晚.md")
    assert fixes == []
    doc.set("位置", "北境雪原")
    doc.meta["持有"].append("玄阶令牌")
    out = doc.dump()
    assert "星座: 天蝎   # 作者自定义字段" in out
    assert "姓名: 林晚   # 主角" in out
    assert "位置: 北境雪原" in out
    assert "持有:\n  - 青霜剑\n  - 玄阶令牌\n" in out
    assert out.endswith("## 设定\n主角。\n")
    again, _ = parse_doc(out, "林晚.md")
    assert again.dump() == out


def test_nested_unknown_structures_survive():
    text = "---\n姓名: 甲\n扩展:\n  深: [1, 2]\n  # 注释\n  键: 值\n---\n正文\n"
    doc, _ = parse_doc(text)
    doc.set("状态", "在世")
    out = doc.dump()
    assert "扩展:\n  深: [1, 2]\n  # 注释\n  键: 值\n" in out


@pytest.mark.parametrize("value", ["152", "0152", "true", "No", "yes", "是", "否", "1.5", "~", "null", "- x", "a: b"])
def test_risky_scalars_are_quoted(value):
    assert risky(value)
    doc, _ = parse_doc("---\n姓名: 甲\n---\n")
    doc.set("备注", value)
    out = doc.dump()
    assert f'备注: "{value}"' in out
    again, _ = parse_doc(out)
    assert again.get("备注") == value


def test_plain_values_are_not_quoted_and_lists_are_block():
    doc, _ = parse_doc("---\n---\n")
    doc.set("位置", "北境雪原")
    doc.set("持有", ["青霜剑", "是", "12"])
    doc.set("空", [])
    out = doc.dump()
    assert "位置: 北境雪原\n" in out
    assert '持有:\n  - 青霜剑\n  - "是"\n  - "12"\n' in out
    assert "[" not in out
    assert "空:\n" in out


def test_written_files_are_utf8_without_bom(book):
    for path in book.source_files():
        data = path.read_bytes()
        assert not data.startswith(b"\xef\xbb\xbf")
        data.decode("utf-8")
        assert b"\t" not in data


def test_fast_reader_agrees_with_round_trip_reader(book):
    from lw_storyrepo.dialect import plain, split_front_matter

    for path in book.source_files():
        text = path.read_text(encoding="utf-8")
        fm, _body, _ = split_front_matter(text)
        if fm is None:
            continue
        fast = fast_flat(fm)
        doc, _ = parse_doc(text)
        assert fast == plain(doc.meta), path


# --- repair cards for each classic slip ------------------------------------------------------------


def test_fullwidth_colon_is_fixed_and_reported(book):
    path = book.p(f"{R.角色}/林晚.md")
    path.write_text(LIN.replace("状态: 在世", "状态：在世"), encoding="utf-8")
    cards, fixed = scan(book)
    assert cards == []
    assert fixed and "全角冒号" in fixed[0] and "第 5 行" in fixed[0]
    assert "状态: 在世" in path.read_text(encoding="utf-8")
    assert "星座: 天蝎   # 作者自定义字段" in path.read_text(encoding="utf-8")


def test_inline_list_with_fullwidth_comma_is_fixed(book):
    path = book.p(f"{R.角色}/林晚.md")
    path.write_text(LIN.replace("持有:\n  - 青霜剑\n", "持有: [青霜剑，玄阶令牌]\n"), encoding="utf-8")
    cards, fixed = scan(book)
    assert cards == [] and any("全角逗号" in f for f in fixed)
    assert "持有:\n  - 青霜剑\n  - 玄阶令牌\n" in path.read_text(encoding="utf-8")


def test_tab_indent_gets_a_card_with_a_fix(book):
    path = book.p(f"{R.角色}/林晚.md")
    path.write_text(LIN.replace("  - 晚晚", "\t- 晚晚"), encoding="utf-8")
    cards, _ = scan(book)
    assert len(cards) == 1
    card = cards[0]
    assert card.file == "定稿/设定/角色/林晚.md" and card.line == 4
    assert "制表符" in card.proposal and not card.auto
    assert any(c.startswith(">") and "晚晚" in c for c in card.context)
    assert apply_card(book, card)
    assert scan(book) == ([], [])
    assert "别名:\n  - 晚晚\n" in path.read_text(encoding="utf-8")


def test_shi_as_a_boolean_gets_a_card(book):
    path = book.p(f"{R.信息差}/S-001-灭门真凶.md")
    path.write_text(path.read_text(encoding="utf-8").replace("读者已知: false", "读者已知: 是"), encoding="utf-8")
    cards, _ = scan(book)
    assert len(cards) == 1 and cards[0].line == 4
    assert cards[0].proposal == "读者已知: true"
    apply_card(book, cards[0])
    assert "读者已知: true" in path.read_text(encoding="utf-8")
    assert scan(book) == ([], [])


def test_broken_yaml_is_a_located_card_never_a_traceback():
    with pytest.raises(RepairNeeded) as info:
        parse_doc("---\n姓名: 甲\n别名:\n  - 乙\n 位置: [未闭合\n---\n", "x.md")
    card = info.value.card
    assert card.file == "x.md" and card.line and card.context
    assert "修复卡" in card.render()


def test_auto_fix_leaves_list_items_and_values_alone():
    text = "口癖:\n  - 林晚：自称本姑娘\n书内时间: 冬月：初三\n"
    assert auto_fix(text) == (text, [])


def test_book_yaml_reads_with_defaults(book):
    data = book.book()
    assert data["书名"] == "北境的雪" and data["卷规模"] == 40 and data["spec_version"] == "7.0"
    text = book.p("book.yaml").read_text(encoding="utf-8")
    assert 'spec_version: "7.0"' in text and "# 参考值，不是硬约束" in text


def test_model_proposes_an_intent_preserving_repair_the_author_confirms(book):
    from lw_storyrepo import prompts, tools
    from lw_storyrepo.machine import decide_next
    from lw_storyrepo.repair import accept_repair

    path = book.p(f"{R.角色}/林晚.md")
    broken = LIN.replace("持有:\n  - 青霜剑\n", "持有: [青霜剑\n")
    path.write_text(broken, encoding="utf-8")
    step = decide_next(book)
    assert step.state == 0 and step.cards[0].fixed_text is None  # no deterministic fix: ask the model
    prompt = prompts.build(book, "repair")
    assert "定稿/设定/角色/林晚.md" in prompt and "持有: [青霜剑" in prompt
    ctx = {"story_root": str(book.root)}
    with pytest.raises(RepairNeeded):
        tools.propose_repair(tools.ProposeRepairArgs(file="定稿/设定/角色/林晚.md", text=broken), ctx)
    tools.propose_repair(tools.ProposeRepairArgs(file="定稿/设定/角色/林晚.md", text=LIN), ctx)
    assert path.read_text(encoding="utf-8") == broken  # nothing changes until the author confirms
    accept_repair(book, "定稿/设定/角色/林晚.md")
    assert path.read_text(encoding="utf-8") == LIN
    assert decide_next(book).state == 5


from hypothesis import given, settings
from hypothesis import strategies as st

_TEXT = st.text(alphabet=st.sampled_from(list("林晚北境雪原是否真假0123456789.-+:#,，：、 []{}'\"!&*|>@`%?yesnotrulfaYESNO~年月日") + ["\n", "\t", "\u3000", "\\", "é", "\x85", "\u2028"]), min_size=0, max_size=12)
_VALUE = st.one_of(_TEXT, st.integers(-10**6, 10**6), st.booleans(), st.lists(_TEXT, min_size=1, max_size=4))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["姓名", "位置", "别名", "持有", "书内时间", "备注", "扩展"]), _VALUE, max_size=6))
def test_written_dialect_reads_back_identically_on_both_readers(fields):
    from lw_storyrepo.dialect import plain, split_front_matter
    from lw_storyrepo.repo import new_doc

    text = new_doc(fields, "正文\n").dump()
    doc, fixes = parse_doc(text)
    assert fixes == []
    expected = {k: (None if v == [] else v) for k, v in fields.items()}
    assert plain(doc.meta) == expected
    fast = fast_flat(split_front_matter(text)[0])
    if fast is not None:  # the fast reader may decline, never disagree
        assert fast == expected
    import re

    assert not [ln for ln in text.split("---")[1].splitlines() if re.match(r"^[^\s\"'-][^:]*:\s*\[", ln)]  # block lists only


def test_book_yaml_slips(book):
    path = book.p("book.yaml")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("类型: 玄幻", "类型：玄幻").replace("卷规模: 40", "卷规模: 四十章"), encoding="utf-8")
    cards, fixed = scan(book)
    assert fixed == ["book.yaml 第 3 行：键后的全角冒号「：」已改为半角「: 」"]
    assert [(c.file, c.line) for c in cards] == [("book.yaml", 5)] and "整数" in cards[0].problem
    assert "类型: 玄幻" in path.read_text(encoding="utf-8")
    assert "# 参考值，不是硬约束" in path.read_text(encoding="utf-8")


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["姓名", "位置", "别名", "持有", "书内时间", "备注", "扩展"]), _VALUE, max_size=6))
def test_fast_writer_matches_ruamel_byte_for_byte(fields):
    import io

    from lw_storyrepo import dialect
    from lw_storyrepo.repo import new_doc

    doc = new_doc(fields, "")
    fast = dialect.flat_dump(doc.meta)
    if fast is None:
        return
    buf = io.StringIO()
    dialect._yaml().dump(doc.meta, buf)
    assert fast == (buf.getvalue() if len(doc.meta) else "")
