"""One table or one pattern where the plugin said the same thing two or three times (m1, stop 61: the mends named by
the lead's read of stop 60's diff). Each merged table still serves every reader that had its own copy — a sentence
each caught before is still caught — and a row one reader brought now serves the other too."""

from __future__ import annotations

import re

from lw_storyrepo import checks, continuity, ranks

# --- 1. an act told done: checks.ACT_DONE serves the act given up, FC3's told-done-before and FC2's next time ---


def test_an_act_told_done_still_keeps_a_later_giving_up_from_the_act_given_up() -> None:
    assert checks.act_given_up("听", "他起身说：“不听了。”\n") is not None
    assert checks.act_given_up("听", "他听完了，起身说：“不听了。”\n") is None  # 听完: stopping after it


def test_a_direction_reached_is_an_act_told_done_for_fc3_alone() -> None:
    # DONE_AFTER's results and directions (抄进, 爬上) serve FC3's told-done-before, which needs the line's event word
    # beside the act; the readers of an act given up read ACT_DONE_ASPECT (fm1, stop 61, R61's M1-1: 听到这话, 看上去,
    # 开出一张收条 are no act done)
    body = "他把数抄进账本，叹了口气：“余下的明天再抄。”\n"
    assert checks._givings_up("抄", body) != ()
    assert checks._givings_up("抄", "他抄了一页，叹了口气：“余下的明天再抄。”\n") == ()
    done = "她爬上灯塔换了灯泡。胡掌柜问起工钱：“等月底再说。”"
    assert checks._told_done_before(["爬"], frozenset(["灯塔"]), done, done.index("胡"))


def test_fc3_still_reads_an_act_told_done_before_a_putting_off() -> None:
    done = "他换了灯泡。胡掌柜问起工钱：“等月底再说。”"
    assert checks._told_done_before(["换"], frozenset(["灯泡"]), done, done.index("胡"))
    undone = "他没换灯泡。胡掌柜问起工钱：“等月底再说。”"
    assert not checks._told_done_before(["换"], frozenset(["灯泡"]), undone, undone.index("胡"))


def test_fc2s_next_time_reads_the_word_alone_and_its_own_reached() -> None:
    assert checks._told_done("炒青", "炒青，一直忙到半夜。\n") == [0]  # TOLD_ALONE, _told_done's own view
    assert checks._told_done("碾", "碾槽边上。\n") == []  # a noun the act begins is no act done
    assert checks._told_done("抄", "他没抄上。\n") == []
    assert checks._told_done("抄", "他把账抄上了。\n") == []  # 抄上: ACT_DONE's direction, not this reader's (fm1, stop 61)
    assert checks._told_done("炒", "他炒到半夜。\n") == [1]  # 炒到: TOLD_ALONE's own 到


# --- 2. one signature: continuity.signature serves H13's _writer_of and the leak check's SIGNATURE ---

NAMES = re.compile("守仁|老周|苏禾|黄振江")


def _writer(line: str) -> str | None:
    return continuity._writer_of([line], 0, len(line) - 1, NAMES, {})


def test_the_leak_checks_signature_still_reads_a_name_and_now_hers_before_a_date() -> None:
    for last, name in (("娘。", "娘"), ("伯年手书。", "伯年"), ("阿妈。", "阿妈"),
                       ("守仁顿首。", "守仁"),  # H13's 顿首: the name alone, no more 守仁顿首
                       ("姐，七月廿八。", "姐")):  # H13's LETTER_DATE
        signed = checks.SIGNATURE.search(last)
        assert signed is not None and signed.group(1) == name


def test_h13s_writer_still_reads_a_sign_off_and_now_the_leak_checks() -> None:
    assert _writer("“…以后就是他的。守仁顿首。”") == "守仁"
    assert _writer("他问：“谁来问过？苏禾。”") is None  # a bare name said aloud signs nothing
    assert _writer("“明日停工。老周手字。”") == "老周"  # 手字: the leak check's sign-off


# --- 3. one table of "a written piece" frames: WRITING_FRAME_WORDS serves T9/D1 and H13 ---


def test_h13s_written_frame_still_reads_its_words_and_now_t9s() -> None:
    assert _writer("他拿钢笔添了一行：“以后就是他的。黄振江。”") == "黄振江"
    assert _writer("他贴出一张告示：“明日停工。苏禾。”") == "苏禾"  # 告示: T9/D1's word


def test_t9s_document_frames_still_read_their_words_and_now_h13s() -> None:
    assert continuity.DOCUMENT_FRAME.search("翻开值班日志：") is not None
    assert continuity.PIECE_FRAME.search("存根上印着：") is not None
    assert continuity.DOCUMENT_FRAME.search("他提笔签：") is not None  # 签: H13's word
    assert continuity.PIECE_FRAME.search("落款：") is not None  # 落款: H13's word


# --- 4. one table of mourning words: MOURNING_WORDS serves FT9's OF_A_DEATH and S3's RITES ---


def test_ft9s_death_told_still_reads_mourning_and_now_s3s_rites() -> None:
    assert continuity.OF_A_DEATH.search("他跪在温姐姐的灵前") is not None
    assert continuity.OF_A_DEATH.search("今天是老王的头七") is not None  # 头七: S3's rite
    assert continuity.OF_A_DEATH.search("那孩子机灵得很") is None  # 灵 alone stays RITES' own view


def test_s3s_rites_still_keep_the_dead_from_doing_and_now_ft9s_words() -> None:
    to_come = continuity._to_come_pattern("老孟")
    assert to_come.search("等老孟下了夜班") is not None
    assert to_come.search("等老孟骨灰运回来") is None
    assert to_come.search("等老孟墓碑立起来") is None  # 墓: FT9's word
    assert to_come.search("等老孟守孝期满") is None  # 守孝: FT9's word


# --- 5. the clause ends: one source, two views named for what differs ---


def test_the_two_clause_ends_share_their_stops_and_differ_by_what_they_say() -> None:
    for stop in continuity.CLAUSE_STOPS:
        assert continuity.CLAUSE_END.match(stop) and continuity.CLAUSE_OR_COLON_END.match(stop)
    assert continuity.CLAUSE_END.search("我收着”") is not None and continuity.CLAUSE_END.search("五月初五：") is None
    assert continuity.CLAUSE_OR_COLON_END.search("五月初五：") is not None


# --- 6. years served; the not-yet words ---


def test_one_pattern_of_years_served_serves_the_three_rank_readings() -> None:
    assert ranks.SERVED.search("某某当了五年") is not None
    assert ranks.SERVED.search("当了七八年的") is not None  # was SERVED_AS: 当了七八年R的X
    you = ranks.YOU_FRAMES[1][0]
    assert you.search("你当了这么些年的") is not None
    assert you.search("你当了三年一个") is not None  # SERVED's 一?个, new to the listener's frame


def test_the_not_yet_words_serve_fc3_and_h13_from_the_shared_tables() -> None:
    planned = "他说明天换好灯泡。胡掌柜问起工钱：“等月底再说。”"  # 明天: PLAN_WORDS, new to FC3
    assert not checks._told_done_before(["换"], frozenset(["灯泡"]), planned, planned.index("胡"))
    assert checks.NOT_YET_DONE.search("只等潮一到，就开船") is not None  # FC3's own 等, 就
    assert continuity.KEEPING_NOT_NOW.search("借给过") is not None  # H13's own 过
    assert continuity.KEEPING_NOT_NOW.search("回头") is not None  # PLAN_WORDS' 回头, new to H13
