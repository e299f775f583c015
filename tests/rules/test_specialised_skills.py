"""CoC's specialised skills, as the rulepack names them (``specialisations:`` and aliases).

``.st 格斗(斗殴)60`` / ``Fighting (Brawl)`` are the rulepack's 斗殴 (an alias, brackets
full-width or not, spaces or not); ``Art/Craft (Photography)`` and ``Language (Latin)`` are
members of a skill family (``艺术/手艺(Photography)``, ``外语(Latin)``): stats a player may set
within the pack's bounds, checked with ``.ra`` (an unset one at its family's default), shown in
the viewer's language. A new player's first ``.st`` starts their sheet (it used to answer and
keep nothing). Through ``lw`` as a table runs it; the name reader by property and by a hostile
corpus.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from lwcore.kernel import Kernel
from lwcore.rules import engine_for
from lwcore.rules.sheet import Sheet
from lwcore.rules.system import MAX_SPECIALTY

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))


def lw(work: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([LW, "--data-dir", str(work / "data"), *args], capture_output=True, text=True, timeout=120,
                         cwd=work)
    assert "Traceback" not in run.stderr, run.stderr
    assert (run.returncode == 0) == ok, run.stderr
    return run


def say(work: Path, member: str, line: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    return lw(work, "turn", "room", "--as", member, "--say", line, "--seed", "7", ok=ok)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not {"cache", ".lw"} & set(p.relative_to(root).parts)}


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The example room with a third player, Neo (English), who has no sheet yet."""
    shutil.copytree(ROOT / "examples" / "fog-harbor", tmp_path / "room", ignore=shutil.ignore_patterns("replies"))
    room = tmp_path / "room" / "room.yaml"
    text = room.read_text(encoding="utf-8")
    anchor = "    sheet: sheets/su-wanqing.yaml\n"
    assert anchor in text
    room.write_text(text.replace(anchor, anchor + "  - id: p3\n    name: Neo\n    locale: en\n", 1), encoding="utf-8")
    (tmp_path / "data").mkdir()
    return tmp_path


def test_a_new_players_st_takes_specialised_skills_and_keeps_the_sheet(work: Path) -> None:
    done = say(work, "p3", ".st Fighting (Brawl) 55 Art/Craft (Photography) 40 Language (Latin) 30")
    assert done.stdout.splitlines() == ["Neo: Fighting (Brawl): 25 -> 55", "Art/Craft (Photography): - -> 40",
                                        "Language (Latin): - -> 30"]
    room = yaml.safe_load((work / "room" / "room.yaml").read_text(encoding="utf-8"))
    assert room["players"][2] == {"id": "p3", "name": "Neo", "locale": "en", "sheet": "sheets/p3.yaml"}
    sheet = yaml.safe_load((work / "room" / "sheets" / "p3.yaml").read_text(encoding="utf-8"))
    assert sheet == {"system": "coc7", "name": "Neo",
                     "values": {"斗殴": 55, "艺术/手艺(Photography)": 40, "外语(Latin)": 30}}
    shown = say(work, "p3", ".st show").stdout
    assert "Fighting (Brawl):55 Art/Craft (Photography):40 Language (Latin):30" in shown
    # any case, brackets full-width or not, spaces or not: the same stat
    assert say(work, "p3", ".st language(latin)35").stdout == "Neo: Language (Latin): 30 -> 35\n"
    assert say(work, "p3", ".ra Language (Latin)").stdout.startswith("Neo: Language (Latin) 35: 1d100=")
    # an unset specialty checks at its family's default (Science 1, Art/Craft 5); a named one at its own
    assert say(work, "p3", ".ra Science (Chemistry)").stdout.startswith("Neo: Science (Chemistry) 1: 1d100=")
    assert say(work, "p3", ".ra Art (Sculpture)").stdout.startswith("Neo: Art/Craft (Sculpture) 5: 1d100=")
    assert say(work, "p3", ".ra Fighting (Brawl)").stdout.startswith("Neo: Fighting (Brawl) 55: 1d100=")


def test_chinese_names_and_the_keepers_view(work: Path) -> None:
    done = say(work, "p1", ".st 格斗(斗殴)60 外语（拉丁语）31 射击(手枪)45 艺术/手艺(摄影)50")
    assert done.stdout.splitlines() == ["陈默: 斗殴: 25 -> 60", "外语(拉丁语): - -> 31", "手枪: 20 -> 45",
                                        "艺术/手艺(摄影): - -> 50"]
    values = yaml.safe_load((work / "room" / "sheets" / "chen-mo.yaml").read_text(encoding="utf-8"))["values"]
    assert (values["斗殴"], values["外语(拉丁语)"], values["手枪"], values["艺术/手艺(摄影)"]) == (60, 31, 45, 50)
    # the English player reads the same stats in English
    check = say(work, "kp", ".ra Language (拉丁语) @p1").stdout
    assert check.startswith("陈默: 外语(拉丁语) 31: 1d100=")


def test_what_a_player_may_not_write(work: Path) -> None:
    say(work, "p3", ".st Language (Latin) 30")
    before = files(work / "room")
    refused = say(work, "p3", ".st Fighting (Sword) 120", ok=False)
    assert refused.stderr.startswith("error: Fighting (Sword) 120 is outside 0..99")
    refused = say(work, "p3", ".st Basketweaving (Reed) 5", ok=False)  # no such family: the keeper's to add
    assert "'Basketweaving(Reed)' is not a stat of coc7" in refused.stderr
    hostile = [".st Language (" + "x" * 5000 + ") 3", ".st Language ((Latin)) 3", ".st Language (Lat)in) 3",
               ".st Language (L4tin) 3", ".st Language () 3", ".st Language (Latin 3", ".st (Latin) 3",
               ".st Language (" + "拉" * (MAX_SPECIALTY + 1) + ") 3", ".st " + "Language " * 4000 + "(Latin) 3",
               ".st Language (Lat+in) 3", ".st Language (a\u200bb\u202e) 3", ".st Language (La\u200btin) 3"]
    started = time.monotonic()
    for line in hostile:
        assert len(say(work, "p3", line, ok=False).stderr) < 2000, line[:40]
    assert files(work / "room") == before
    # a long check line is read word by word, each specialised name looked at in a bounded window
    assert say(work, "p3", ".ra Language (Latin) " + "Language (Latin) " * 3000).stdout.startswith(
        "Neo: Language (Latin) 30: 1d100=")
    assert time.monotonic() - started < 120  # a hang check, not a speed claim
    # the keeper adds what the pack does not name
    assert say(work, "kp", ".st Basketweaving (Reed) 5 @p3").stdout == "Neo: Basketweaving(Reed): - -> 5\n"


@pytest.fixture(scope="module")
def coc7():  # noqa: ANN201
    return engine_for(Kernel(env={})).rule_system("coc7")


FAMILY_WORDS = ["Art/Craft", "art", "craft", "艺术", "手艺", "Language", "language (other)"[:8], "外语", "语言",
                "Science", "科学", "Pilot", "驾驶", "Survival", "生存", "Fighting", "格斗", "Firearms", "射击"]
SPECIALTY = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn", "Nd", "Zs", "Zl", "Zp"),
                                  blacklist_characters="()（）+-&=:;,|，；：、。"), min_size=1, max_size=MAX_SPECIALTY)


@settings(max_examples=300, deadline=None)
@given(word=st.sampled_from(FAMILY_WORDS), spec=SPECIALTY, space=st.sampled_from(["", " ", "  "]),
       wide=st.booleans())
def test_a_family_member_is_one_stat_however_written(coc7, word: str, spec: str, space: str, wide: bool) -> None:  # noqa: ANN001
    import unicodedata

    spec = unicodedata.normalize("NFKC", spec).strip()
    if not spec or any(c in "()+-&=:;,|，；：、。" or c.isdigit() or c.isspace() for c in spec) \
            or len(spec) > MAX_SPECIALTY:
        return
    written = f"{word}{space}（{spec}）" if wide else f"{word}{space}({spec})"
    canonical = coc7.canonical(written)
    assert canonical is not None, written
    family = coc7.family(canonical)
    if family is None:  # an alias the pack names (格斗(斗殴), Fighting (Brawl) …)
        assert canonical in coc7.model.defaults
        return
    assert canonical == f"{family[0]}({spec})"
    for locale in ("en", "zh"):  # what the table reads names the same stat
        assert coc7.canonical(coc7.display_name(canonical, locale)) == canonical
    sheet = Sheet(coc7)
    sheet.apply_st(f".st {written} 42")
    assert sheet.stored() == {canonical: 42}


@settings(max_examples=500, deadline=None)
@given(text=st.text(max_size=200))
def test_any_name_is_read_or_refused_never_raises(coc7, text: str) -> None:  # noqa: ANN001
    canonical = coc7.canonical(text)
    assert canonical is None or isinstance(canonical, str)
    if canonical is not None and coc7.family(canonical) is not None:
        assert len(coc7.family(canonical)[1]) <= MAX_SPECIALTY
