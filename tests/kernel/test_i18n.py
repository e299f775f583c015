"""The one localisation mechanism (lwcore.i18n): catalogues as data, negotiation, visible fallback,
and every shipped catalogue complete in every language it ships."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lwcore import i18n
from lwcore.i18n import Catalogue, MissingMessage, Translations, candidates, negotiate, normalize, placeholders

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([ROOT / "lwcore" / "locales", *ROOT.glob("plugins/*/lw_*/locales")])
SHIPPED_TRANSLATIONS = sorted(ROOT.glob("plugins/*/lw_*/translations"))
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")


# -- negotiation --------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "tag"), [
    ("zh-CN", "zh-cn"), ("zh_CN.UTF-8", "zh-cn"), ("zh-Hans", "zh-hans"), ("zh-Hans-CN", "zh-hans-cn"),
    ("zh", "zh"), ("en-US", "en-us"), ("en_GB.utf8@euro", "en-gb"), ("EN", "en"), ("fr", "fr"),
    ("C", ""), ("POSIX", ""), ("", ""), (None, ""), ("C.UTF-8", ""), ("../../etc", ""), ("zh CN", ""),
    ("x" * 200, ""),
])
def test_normalize_every_shape(raw, tag) -> None:
    assert normalize(raw) == tag


@pytest.mark.parametrize(("locale", "chosen"), [
    ("zh-CN", "zh"), ("zh_CN.UTF-8", "zh"), ("zh-Hans", "zh"), ("zh-Hant-TW", "zh"), ("zh", "zh"),
    ("en-US", "en"), ("en", "en"), ("fr-FR", "en"), ("C", "en"), ("", "en"), (None, "en"),
])
def test_negotiate_falls_from_tag_to_language_to_default(locale, chosen) -> None:
    assert negotiate(locale, ("en", "zh"), "en") == chosen


def test_negotiate_prefers_the_most_specific_shipped_tag() -> None:
    shipped = ("en", "zh", "zh-Hant")
    assert negotiate("zh-Hant-TW", shipped) == "zh-Hant"  # returned as spelled
    assert negotiate("zh-Hans-CN", shipped) == "zh"
    assert candidates("zh-Hans-CN") == ("zh-hans-cn", "zh-hans", "zh")
    assert negotiate("de", shipped, default="zh") == "zh"


@given(st.text(max_size=40))
def test_negotiate_always_answers_a_shipped_language(raw: str) -> None:
    assert negotiate(raw, ("en", "zh")) in ("en", "zh")
    tag = normalize(raw)
    assert tag == "" or re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]{1,8})*", tag)


# -- lookups, fallback and strict mode ----------------------------------------------------

def _cat() -> Catalogue:
    return Catalogue("demo", {
        "en": {"hello": "Hello, {who}.", "only_en": "English only", "bad": "needs {x}"},
        "zh": {"hello": "你好，{who}。", "bad": "要 {x}"},
    })


def test_the_viewers_locale_chooses_and_placeholders_are_named() -> None:
    cat = _cat()
    assert cat.text("hello", "zh-CN", who="守秘人") == "你好，守秘人。"
    assert cat.text("hello", "en-GB", who="keeper") == "Hello, keeper."
    assert cat.text("hello", "fr", who="keeper") == "Hello, keeper."  # a language not shipped reads the default
    assert cat.bind("zh")("hello", who="甲") == "你好，甲。"
    assert placeholders("{a} and {b!r:>3} {{literal}}") == {"a", "b"}


def test_a_missing_translation_raises_in_strict_mode(monkeypatch) -> None:
    monkeypatch.setenv(i18n.STRICT_ENV, "1")
    cat = _cat()
    with pytest.raises(MissingMessage, match="only_en.*'zh'"):
        cat.text("only_en", "zh-CN")
    with pytest.raises(MissingMessage, match="no message 'nope'"):
        cat.text("nope", "en")
    with pytest.raises(MissingMessage, match="needs 'x'"):
        cat.text("bad", "en")
    assert cat.text("only_en", "en") == "English only"  # what is there is read as usual


def test_production_falls_back_to_the_default_then_shows_the_id(monkeypatch) -> None:
    monkeypatch.delenv(i18n.STRICT_ENV, raising=False)
    cat = _cat()
    assert cat.text("only_en", "zh-CN") == "English only"
    assert cat.text("nope", "zh") == "[nope]"  # visible, never empty
    assert cat.text("bad", "zh") == "[bad]"     # a value missing everywhere


def test_problems_name_missing_ids_and_placeholder_mismatches() -> None:
    cat = Catalogue("demo", {"en": {"a": "{x} {y}", "b": "b"}, "zh": {"a": "{x}", "c": "c"}})
    assert cat.problems() == [
        "demo: 'a' in zh takes ['x'], en takes ['x', 'y']",
        "demo: 'b' is missing in zh",
        "demo: 'c' is missing in en",
    ]


def test_a_catalogue_folder_is_read_and_its_faults_located(tmp_path: Path) -> None:
    for lang, text in (("en", "Hi"), ("zh", "嗨")):
        (tmp_path / "locales" / lang).mkdir(parents=True)
        (tmp_path / "locales" / lang / "a.json").write_text(json.dumps({"hi": text}), encoding="utf-8")
    (tmp_path / "__init__.py").write_text("")
    cat = i18n.catalogue(tmp_path / "__init__.py", name="probe")
    assert (cat.languages, cat.text("hi", "zh-TW")) == (("en", "zh"), "嗨")
    (tmp_path / "locales" / "en" / "b.json").write_text('{"hi": "again"}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"b\.json: message id 'hi' appears twice in en"):
        Catalogue.from_dir(tmp_path / "locales")
    (tmp_path / "locales" / "en" / "b.json").write_text('["not", "an", "object"]', encoding="utf-8")
    with pytest.raises(ValueError, match=r"b\.json: a catalogue file is a JSON object"):
        Catalogue.from_dir(tmp_path / "locales")
    with pytest.raises(ValueError, match="default language 'de'"):
        Catalogue("x", {"en": {}}, default="de")
    with pytest.raises(FileNotFoundError):
        i18n.catalogue(tmp_path / "locales" / "en")  # not a package: the search stops at once


# -- every shipped catalogue --------------------------------------------------------------

def test_the_kernel_and_the_bundled_plugins_ship_catalogues() -> None:
    names = {p.parent.name for p in SHIPPED}
    assert names == {"lwcore", "lw_panels", "lw_skills", "lw_tavern"}, names
    assert [p.parent.name for p in SHIPPED_TRANSLATIONS] == ["lw_storyrepo"]


@pytest.mark.parametrize("folder", SHIPPED, ids=lambda p: p.parent.name)
def test_every_message_is_in_every_shipped_language_with_the_same_placeholders(folder: Path) -> None:
    cat = Catalogue.from_dir(folder)
    assert set(cat.languages) >= {"en", "zh"}
    assert cat.problems() == []


@pytest.mark.parametrize("folder", SHIPPED, ids=lambda p: p.parent.name)
def test_english_messages_hold_no_chinese_text(folder: Path) -> None:
    """An English reader is never shown Chinese by a message (a value may still be Chinese)."""
    cat = Catalogue.from_dir(folder)
    assert [(k, v) for k, v in cat.messages["en"].items() if CJK.search(v)] == []


@pytest.mark.parametrize("folder", SHIPPED_TRANSLATIONS, ids=lambda p: p.parent.name)
def test_every_translation_uses_each_value_of_its_source(folder: Path) -> None:
    assert Translations.from_dir(folder).problems() == []


# -- translation by source text (messages authored in the book's language) ---------------

def test_translation_by_source_text() -> None:
    tables = Translations("demo", {
        "en": {"找不到{} {}": "no {0} {1}", "找不到草稿 {}": "no draft {0}", "承诺": "promise", "合同已修订：\n{}": "amended:\n{0}"},
        "zh": {"file not found": "文件不存在"},
    }, lists={"en": ("、", ", ")})
    assert tables.translate("找不到草稿 第3章", "en-US") == "no draft 第3章"  # the most specific template wins
    assert tables.translate("找不到承诺 P-001", "en") == "no promise P-001"  # a value that is a message is translated
    assert tables.translate("承诺、承诺", "en") == "promise, promise"
    assert tables.translate("找不到草稿 A、B", "en") == "no draft A, B"  # labels and ids: no language of their own
    assert tables.translate("找不到草稿 林晚、沈舟", "en") == "no draft 林晚、沈舟"  # names are left as written
    assert tables.translate("合同已修订：\n承诺", "en") == "amended:\npromise"
    assert tables.translate("file not found\nfile not found", "zh-CN") == "文件不存在\n文件不存在"
    assert tables.translate("未收录", "en") == "未收录" and tables.translate("file not found", "fr") == "file not found"
    assert tables.translate(None, "en") == ""
    bad = Translations("demo", {"en": {"第 {} 章到第 {} 章": "chapters {0} to {0}"}})
    assert bad.problems() == ["demo: '第 {} 章到第 {} 章' (en) uses ['0'], the source has 2 value(s)"]


# -- a message kept as data, read in each reader's language -------------------------------

def test_a_said_message_is_read_in_each_language_and_round_trips() -> None:
    t = i18n.kernel_catalogue().bind("zh-CN")
    said = t.said("rule.set", variant={"en": "rule1 — crit 01", "zh": "rule1 — 大成功"}, was=t.said("none.word"))
    assert said.render("zh") == "守秘人把房规改为 rule1 — 大成功（原为 无）。"
    assert said.render("en-US") == "The keeper set the house rule to rule1 — crit 01 (was none)."
    assert i18n.Said.from_json(said.to_json()) == said
    assert i18n.Said.from_json(said.to_json()).reread("en") == said.render("en")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)


@given(st.one_of(JSON, st.fixed_dictionaries({"package": st.sampled_from(["lwcore", "lw_panels", "os", "x.y", ""]),
                                               "id": st.sampled_from(["phase.set", "panels.on", "none.word", "x"]),
                                               "values": st.dictionaries(st.sampled_from(["phase", "pack", "x"]), JSON,
                                                                         max_size=3)})))
def test_stored_said_data_never_raises(data) -> None:
    """A history file is data: whatever its ``said`` holds reads as a message or as nothing."""
    said = i18n.Said.from_json(data)
    if said is not None:
        text = said.reread("en")
        assert text is None or isinstance(text, str)
