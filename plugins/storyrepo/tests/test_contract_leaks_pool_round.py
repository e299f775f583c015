"""Contract and leaks from the pool (issue 30, L2 at stop 50): classes read off every development book's misses.

- a letter read out (for the leak check only: the writer is not in the scene; its paragraphs after a colon that speaks of a letter or of reading, a quote led by 念/读, the
  paragraphs of a quote left open) is its writer's: the one its last sentence signs (娘。 振华手书。) or the one the
  prose said sent it (玉珍的第三封信); whatever it gives away is the writer's leak, not the reader's or the narration's
  (checks._letters) — four books of the pool;
- an event line of the contract the prose puts off (回头再说, 明天验了再说) or gives up for the day (今天是上不去了)
  never happens in the draft: a warning naming the line and the places it goes to (checks.CALLED_OFF) — five books;
- the reader told of a gap in the draft (S-001.读者已知=是) frees the narration only: a character outside the gap
  who says its keywords still leaks it (stop 49's new author).

Settings are not the labelled sets': a 1962 lighthouse, a Tang tea caravan, a 2031 lunar base, a Ming shipyard.
"""

from __future__ import annotations

from typing import Any

from lw_storyrepo.checks import LETTER_WORD, WARN, CheckContext, contract_findings, leak_and_waste, voices
from lw_storyrepo.continuity import DEFAULT_STAGES, World
from lw_storyrepo.drafts import Draft

PEOPLE = {"孟海生": "孟海生", "老孟": "孟海生", "陈秋云": "陈秋云", "阿秋": "陈秋云", "周振华": "周振华",
          "林玉珍": "林玉珍", "玉珍": "林玉珍", "阿木": "阿木", "胡掌柜": "胡掌柜", "沈舟": "沈舟", "徐工": "徐工"}
PLACES = {"鹰嘴崖", "灯塔", "三号舱", "龙江船厂"}
SECRET = ("S-001", {"陈秋云", "周振华", "林玉珍"}, False, ["沉船", "走私"])


def ctx_of(secrets: list[tuple[str, set[str], bool, list[str]]] | None = None) -> CheckContext:
    aliases = {**PEOPLE, **{p: p for p in PLACES}}
    cards: dict[str, dict[str, Any]] = {n: {"姓名": n} for n in set(PEOPLE.values())}
    world = World(cards, dict(aliases), set(PLACES), set(), DEFAULT_STAGES, None, {}, {})
    return CheckContext(aliases, secrets or [SECRET], [], [], 0, set(aliases), set(), world=world,
                        people=set(PEOPLE.values())).for_draft({})


def said(text: str, letters: bool = True) -> list[tuple[str | None, str]]:
    ctx = ctx_of()
    return [(v.speaker, v.words) for v in voices(ctx.reading(text), text.split("\n"), letters) if v.speaker]


def leaks(text: str, revealed: set[str] | None = None, pov: str | None = None) -> list[str]:
    ctx = ctx_of().reading(text)
    return [f.message for f in leak_and_waste(ctx, text.split("\n"), 1, {}, revealed or set(), pov)]


# --- a letter read out is its writer's -----------------------------------------------------------------------------

def test_a_signed_letter_of_many_paragraphs_is_its_signers() -> None:
    """A lighthouse, 1962: the keeper reads his sister's letter, its paragraphs left open, signed with her alias."""
    text = ("老孟从抽屉里摸出那封信，就着灯念。信是镇上的邮递员捎来的，字写得歪歪扭扭：\n"
            "“海生：家里都好。\n"
            "“码头上都在传，上个月那条船不是触礁，是沉船骗保，船上还有走私的表。\n"
            "“天冷，多穿。阿秋。”\n"
            "老孟把信折好，塞回抽屉。")
    assert ("陈秋云", "码头上都在传，上个月那条船不是触礁，是沉船骗保，船上还有走私的表。") in said(text)
    assert leaks(text, pov="孟海生") == []  # she knows: no leak of the reader's or the narration's


def test_a_letter_signed_by_a_given_name_and_read_in_two_parts() -> None:
    """A Tang tea caravan: the letter read, a beat, read on; 振华手书 signs it for 周振华 (no alias says 振华)."""
    text = ("胡掌柜拆开信，念：\n"
            "“诸事平安。那批货在峡口沉船，是有人走私，不要声张。”\n"
            "阿木倒了碗茶。\n"
            "胡掌柜往下念：\n"
            "“另：马队改走西路。振华手书。”")
    assert [w for w, _ in said(text)] == ["周振华", "周振华"]


def test_a_letter_read_out_by_the_one_who_holds_it_is_the_senders() -> None:
    """A lunar base, 2031: 沈舟 reads 玉珍's third message aloud (a clause led by 念), unsigned."""
    text = ("沈舟点开玉珍的第三封信，屏幕的光照在脸上。\n"
            "徐工凑过来：“写的啥？”\n"
            "沈舟小声念，“那艘补给船是沉船，不是事故。”")
    assert ("林玉珍", "那艘补给船是沉船，不是事故。") in said(text)
    assert leaks(text, pov="沈舟") == []
    # who is in the scene and speaks (the contract's and the continuity's reading): the reader, as before
    assert ("沈舟", "那艘补给船是沉船，不是事故。") in said(text, letters=False)


def test_muttering_is_no_reading_and_a_letter_to_someone_is_not_theirs() -> None:
    """念叨 is the speaker's own words; 写给玉珍的信 goes to her: she does not write what is read of it."""
    assert said("老孟把信放下，嘴里念叨：“沉船的事，莫再提了。”") == [("孟海生", "沉船的事，莫再提了。")]
    text = "沈舟把写给玉珍的信又看了一遍，念：\n“我会查清沉船的事。”"
    assert all(who != "林玉珍" for who, _ in said(text))


def test_believing_is_no_letter() -> None:
    """Reviewer (f1, 2): 信 as a verb or in a compound (不信, 相信, 信任, 信号) is no letter, and the one whose words were
    heard (听了阿秋的话) does not speak the hearer's answer: 孟 does not know, his words leak."""
    leak = ["孟海生 不是 S-001 的知情人，却说出/想到了「沉船、走私」"]
    assert leaks("老孟听了阿秋的话也不信，摇着头说：“那条船…是沉船骗保…走私的表…”", pov="孟海生") == leak
    assert leaks("老孟听了阿秋的话也不信，摇着头说：\n“那条船是沉船骗保，走私的表。”", pov="孟海生") == leak
    for words in ("不信", "信不信由你", "深信", "相信上面", "他的信任", "信号", "信息", "自信"):
        assert LETTER_WORD.search(words) is None, words
    for words in ("一封信", "第二封信", "信上写着", "阿秋的信", "来信", "写信", "念信", "读信", "拆开信", "信纸", "阿妈不识字，信是老师代写的"):
        assert LETTER_WORD.search(words) is not None, words


# --- an event the prose puts off or gives up for the day ----------------------------------------------------------

def warned(line: str, body: str) -> list[str]:
    ctx = ctx_of()
    return [f.message for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx) if f.severity == WARN]


def test_an_event_put_off_is_asked() -> None:
    """A Ming shipyard: the new keel is to be laid; the master looks at the rain and puts it off."""
    body = "龙骨木抬到了坞口。徐工摸了摸木头，又看看天：“雨这么大，胶干不了，明天再说。”众人散了。"
    assert warned("徐工在龙江船厂下新船的龙骨", body) == [
        "合同里的事件「徐工在龙江船厂下新船的龙骨」正文写到它推迟或作罢了（明天再说），也就没有到「龙江船厂」：请确认这件事发生了"]
    body = "会开到一半，沈舟说氧气阀门的事回头再议，先去看三号舱的漏点。"
    assert warned("沈舟当众批准更换主氧气阀门", body)[0].startswith("合同里的事件「沈舟当众批准更换主氧气阀门」正文写到它推迟或作罢了（回头再议）")


def test_a_journey_given_up_for_the_day_names_its_place() -> None:
    """A Tang tea caravan: 阿木 sets out for the cliff; the rain turns him back (今天是上不去了)."""
    body = "阿木背上竹篓，往鹰嘴崖走。走到半山，雨越下越大，石阶上全是泥。他抹了把脸：今天是上不去了。"
    [message] = warned("阿木上鹰嘴崖采药", body)
    assert "今天是上不去了" in message and "「鹰嘴崖」" in message


def test_no_time_no_putting_off() -> None:
    """再说 as 'besides', a later visit (明天再来), a trip made today: the event stands."""
    assert warned("徐工在龙江船厂下新船的龙骨", "徐工在龙江船厂下了龙骨。再说，雨也停了。") == []
    assert warned("阿木上鹰嘴崖采药", "阿木上了鹰嘴崖，采了半篓药，说明天再来。") == []


def test_another_matter_put_off_leaves_the_line_missing() -> None:
    """Reviewer (f1, 1): a putting off is the line's only when its people, place or act are named near it; the line's
    terms the prose never writes are still errors, whatever else is put off."""
    ctx = ctx_of()

    def found(line: str, body: str) -> list[tuple[str, str]]:
        return [(f.severity, f.message) for f in contract_findings({"合同": [line]}, Draft("A", {}, body, 5), ctx)]

    missing = [("error", "合同「徐工在龙江船厂下新船的龙骨」提到「徐工」，正文里没有"),
               ("error", "合同「徐工在龙江船厂下新船的龙骨」提到「龙江船厂」，正文里没有")]
    assert found("徐工在龙江船厂下新船的龙骨", "阿木背上竹篓去采药。") == missing
    assert found("徐工在龙江船厂下新船的龙骨", "阿木背上竹篓去采药。胡掌柜说：“药钱回头再说。”") == missing
    # the keel put off, its master never named: the putting off is asked, the missing person still an error
    assert [sev for sev, _ in found("徐工在龙江船厂下新船的龙骨", "龙骨木抬到了坞口，雨太大，明天再说。")] == ["warn", "error"]


# --- the reader told frees the narration only -----------------------------------------------------------------------

def test_the_reader_told_is_not_a_character_told() -> None:
    text = "那条船是沉船骗保，船上全是走私的表。\n阿木道：“那条船是沉船，船上有走私的货。”"
    found = leaks(text, revealed={"S-001"}, pov="孟海生")
    assert found == ["阿木 不是 S-001 的知情人，却说出/想到了「沉船、走私」"]  # the narration is free, 阿木 is not
    assert leaks("阿秋道：“那条船是沉船，船上有走私的货。”", revealed={"S-001"}) == []  # she knows
