"""One localisation mechanism for the kernel and every plugin: message catalogues as data.

A *catalogue* belongs to one package (the kernel or a plugin). Its messages live next to the
code as data, one folder per language, as the extension contract's locale packs have it::

    <package>/locales/en/*.json     {"help.head": "Room commands you can run here:", ...}
    <package>/locales/zh/*.json     {"help.head": "可用的房间命令：", ...}

Every file of a language folder is a flat JSON object of message id -> template; ids are
unique across the files of one language. Templates take *named* placeholders
(``"phase: {phase}"``; ``{{``/``}}`` for a literal brace), filled with :meth:`Catalogue.text`.

The viewer's locale chooses (a room's, a player's, ``LANG``'s: ``zh-CN``, ``zh_CN.UTF-8``,
``zh-Hans``, ``en-US``, ``en`` ...). A lookup tries the locale's own tag, then each shorter
tag down to the language (``zh-hans-cn`` -> ``zh-hans`` -> ``zh``), then the catalogue's
default language. A locale the catalogue does not ship is not a fault: it reads the default.

A *missing translation* -- an id absent from a language the catalogue ships, or a template
missing a value -- falls back to the default language in production. Under strict mode
(``LW_I18N_STRICT=1`` in the environment, which the repository's test configuration sets for
every test and every ``lw`` subprocess it starts) it raises :class:`MissingMessage` instead,
so a test that reaches it fails. An id absent from every language reads as ``[id]``, never as
an empty string. :meth:`Catalogue.problems` lists what a catalogue lacks (an id missing from
a language, placeholders that differ between languages); a test runs it over every catalogue
the kernel and the bundled plugins ship.

What several people read from one record (a reply the keeper's command tells the table, kept in
the room's history) is kept as a :class:`Said` -- the message id and its values -- so each
reader reads it in their own language. Code whose messages are written in its authors'
language and translated where they are shown uses :class:`Translations` (by source text).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeAlias

STRICT_ENV = "LW_I18N_STRICT"
"""Set (to anything but ``""`` or ``0``) to make a missing translation raise."""

DEFAULT_LANGUAGE = "en"
LOCALES_DIR = "locales"
TRANSLATIONS_DIR = "translations"
_TAG = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{1,8})*$")


class MissingMessage(LookupError):
    """A message id or one of its values is missing (raised in strict mode only)."""


def strict() -> bool:
    """Whether a missing translation raises (tests) instead of falling back (production)."""
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


def normalize(locale: str | None) -> str:
    """A locale string as a lower-case BCP 47-ish tag: ``zh_CN.UTF-8`` -> ``zh-cn``,
    ``en-US`` -> ``en-us``; ``C``, ``POSIX``, empty or malformed -> ``""``."""
    value = (locale or "").strip().split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    return value if _TAG.match(value) else ""


def candidates(locale: str | None) -> tuple[str, ...]:
    """The tags to try for ``locale``, most specific first: ``zh-Hans-CN`` ->
    ``("zh-hans-cn", "zh-hans", "zh")``; nothing for an unusable locale."""
    tag = normalize(locale)
    if not tag:
        return ()
    parts = tag.split("-")
    return tuple("-".join(parts[:n]) for n in range(len(parts), 0, -1))


def negotiate(locale: str | None, available: Iterable[str], default: str = DEFAULT_LANGUAGE) -> str:
    """The member of ``available`` that serves ``locale`` best (its own tag, then each
    shorter one down to the language), else ``default``. Tags compare case-insensitively;
    the member is returned as spelled in ``available``."""
    shipped = {normalize(a): a for a in available}
    for tag in candidates(locale):
        if tag in shipped:
            return shipped[tag]
    return default


def plain_template(template: str) -> bool:
    """Whether every field of ``template`` is a plain ``{name}`` (no format spec, conversion,
    attribute or index): what a locale pack's messages may hold."""
    import string

    try:
        return all(field is None or (field.isidentifier() and not spec and conversion is None)
                   for _, field, spec, conversion in string.Formatter().parse(template))
    except ValueError:
        return False


def placeholders(template: str) -> frozenset[str]:
    """The named values a template takes (``"{who}: {n}"`` -> ``{"who", "n"}``)."""
    import string  # off the start-up path: only checks and tests need it

    return frozenset(name.split(".", 1)[0].split("[", 1)[0]
                     for _, name, _, _ in string.Formatter().parse(template) if name is not None)


def read_tables(folder: Path) -> dict[str, dict[str, str]]:
    """``{language: {key: text}}`` from ``folder/<language>/*.json``, each file a flat JSON
    object of text; a malformed file or a key twice in one language raises ``ValueError``
    naming the file (a shipped folder is the package's own, checked by its tests)."""
    import json  # read on a catalogue's first use, not at import

    tables: dict[str, dict[str, str]] = {}
    for lang_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        table: dict[str, str] = {}
        for file in sorted(lang_dir.glob("*.json")):
            data = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise ValueError(f"{file}: a catalogue file is a JSON object of id -> text")
            for key in data:
                if key in table:
                    raise ValueError(f"{file}: message id {key!r} appears twice in {lang_dir.name}")
            table.update(data)
        tables[lang_dir.name] = table
    return tables


MAX_PACK_FILE_BYTES = 1024 * 1024
"""A locale pack's file (one language of one package's messages) is read up to this size."""

LocalePacks = Mapping[str, Mapping[str, Mapping[str, str]]]
"""What locale packs add: package -> language -> message id -> template."""

_ACTIVE: ContextVar[LocalePacks] = ContextVar("lwcore_locale_packs", default={})
"""The locale packs catalogues read now. Each kernel reads its own (:func:`read_locale_packs`)
and makes them active where it loads and for each of its turns (:func:`packs_in_use`), so two
kernels in one process (in different threads or tasks) never read each other's packs."""


def active_locale_packs() -> LocalePacks:
    """The locale packs in use in this thread or task."""
    return _ACTIVE.get()


@contextmanager
def packs_in_use(packs: LocalePacks) -> Iterator[None]:
    """Read ``packs`` (and no others) inside the block, in this thread or task."""
    token = _ACTIVE.set(packs)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def use_locale_packs(folders: Iterable[Path]) -> list[tuple[Path, str]]:
    """Read the locale packs in ``folders`` (:func:`read_locale_packs`) and use them from now on
    in this thread or task, replacing those in use before; returns what was refused."""
    packs, refused = read_locale_packs(folders)
    activate(packs)
    return refused


def activate(packs: LocalePacks) -> None:
    """Use ``packs`` from now on in this thread or task (and the tasks and threads it starts
    after this with a copy of its context)."""
    _ACTIVE.set(packs)


def read_locale_packs(folders: Iterable[Path]) -> tuple[LocalePacks, list[tuple[Path, str]]]:
    """The locale packs in ``folders`` (each a data plugin's ``locales/``, holding
    ``<language>/<package>.json``: that package's messages in that language), and what was
    refused, ``(file, why)``.

    A pack *adds*: a language its package does not ship, and ids a shipped language lacks; a
    package's own text in a language it ships is never replaced. Each message must be one the
    package has (in its default language) and take the same placeholders; anything else is
    refused, file by file or message by message, and the rest used. No code runs: a pack is
    JSON text."""
    import json

    packs: dict[str, dict[str, dict[str, str]]] = {}
    refused: list[tuple[Path, str]] = []
    for folder in folders:
        for file in sorted(Path(folder).glob("*/*.json")):
            lang, package = normalize(file.parent.name), file.stem
            own = package_catalogue(package)
            if not _TAG.match(lang) or own is None:
                refused.append((file, f"names no language and installed package with messages ({file.parent.name}/"
                                      f"{file.name}: locales/<language>/<package>.json)"))
                continue
            try:
                if not file.is_file() or file.is_symlink():  # a FIFO or a device would block or never end
                    raise ValueError("not a regular file")
                if file.stat().st_size > MAX_PACK_FILE_BYTES:
                    raise ValueError(f"larger than {MAX_PACK_FILE_BYTES} bytes")
                with file.open("rb") as handle:
                    raw = handle.read(MAX_PACK_FILE_BYTES + 1)
                if len(raw) > MAX_PACK_FILE_BYTES:
                    raise ValueError(f"larger than {MAX_PACK_FILE_BYTES} bytes")
                data = json.loads(raw.decode("utf-8"))
                if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                    raise ValueError("not a JSON object of message id -> text")
            except (OSError, ValueError, RecursionError) as exc:
                refused.append((file, str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__))
                continue
            base = own.messages[own.default]
            # a shipped language (or its base: en for en-us) is the package's own: a pack only fills
            # ids it lacks, so its texts -- a trust card's warnings among them -- are never replaced
            shipped = next((own.messages[c] for c in candidates(lang) if c in own.messages), {})
            table = packs.setdefault(package, {}).setdefault(lang, {})
            for msg_id, template in data.items():
                if msg_id not in base:
                    refused.append((file, f"{msg_id!r} is not a message of {package}"))
                elif not plain_template(template) or placeholders(template) != placeholders(base[msg_id]):
                    refused.append((file, f"{msg_id!r} takes {sorted(placeholders(template))} (plain {{name}} "
                                          f"fields only), not {sorted(placeholders(base[msg_id]))}"))
                elif msg_id not in shipped:
                    table.setdefault(msg_id, template)
    return packs, refused


class Catalogue:
    """The messages of one package in every language it ships (see the module docstring)."""

    def __init__(self, name: str, messages: Mapping[str, Mapping[str, str]], default: str = DEFAULT_LANGUAGE) -> None:
        if default not in messages:
            raise ValueError(f"catalogue {name}: the default language {default!r} is not shipped")
        self.name = name
        self.package = name
        """The import package whose ``locales`` folder this is (set by :func:`catalogue`)."""
        self.default = default
        self.messages = {normalize(lang) or lang: dict(table) for lang, table in messages.items()}

    @classmethod
    def from_dir(cls, folder: Path, name: str | None = None, default: str = DEFAULT_LANGUAGE) -> "Catalogue":
        """Read ``folder/<lang>/*.json`` (:func:`read_tables`)."""
        return cls(name or folder.parent.name, read_tables(folder), default)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted(self.messages))

    def ids(self) -> frozenset[str]:
        """Every id of any language (:meth:`problems` holds each language to all of them)."""
        return frozenset().union(*(set(t) for t in self.messages.values()))

    def __contains__(self, msg_id: object) -> bool:
        """Whether the catalogue has ``msg_id`` (in its default language)."""
        return msg_id in self.messages[self.default]

    def language(self, locale: str | None) -> str:
        """The language that serves ``locale``: a shipped one, or one a locale pack adds."""
        added = _ACTIVE.get().get(self.package, {})
        return negotiate(locale, {**added, **self.messages} if added else self.messages, self.default)

    def text(self, msg_id: str, locale: str | None, /, **values: Any) -> str:
        """Message ``msg_id`` in the language serving ``locale``, its placeholders filled (a
        language a locale pack adds falls back to the default for what it does not translate)."""
        lang = self.language(locale)
        added = _ACTIVE.get().get(self.package, {})
        for tried in dict.fromkeys((*candidates(lang), self.default)):  # a pack's zh-cn, then zh, then en
            template = self.messages.get(tried, {}).get(msg_id)
            if template is None:
                template = added.get(tried, {}).get(msg_id)
            if template is None:
                if strict() and tried in self.messages:
                    raise MissingMessage(f"catalogue {self.name}: no message {msg_id!r} in {tried!r}")
                continue
            try:
                return template.format_map(values)
            except (KeyError, IndexError) as exc:
                if strict():
                    raise MissingMessage(f"catalogue {self.name}: message {msg_id!r} ({tried}) needs {exc}") from None
        return f"[{msg_id}]"

    def said(self, msg_id: str, /, **values: Value) -> Said:
        """Message ``msg_id`` with its values, to be read again in each reader's language
        (:class:`Said`); the catalogue must belong to a package (:func:`package_catalogue`)."""
        return Said(self.package, msg_id, values)

    def bind(self, locale: str | None) -> "Messages":
        """This catalogue fixed to one viewer's locale: ``t = cat.bind(locale); t("id", x=1)``."""
        return Messages(self, locale)

    def problems(self) -> list[str]:
        """What the catalogue lacks: ids missing from a shipped language, placeholders that
        differ from the default language's. Empty for a complete catalogue."""
        out: list[str] = []
        base = self.messages[self.default]
        for msg_id in sorted(self.ids()):
            want = placeholders(base[msg_id]) if msg_id in base else None
            for lang in self.languages:
                template = self.messages[lang].get(msg_id)
                if template is None:
                    out.append(f"{self.name}: {msg_id!r} is missing in {lang}")
                elif want is not None and placeholders(template) != want:
                    out.append(f"{self.name}: {msg_id!r} in {lang} takes {sorted(placeholders(template))}, "
                               f"{self.default} takes {sorted(want)}")
        return out


class Messages:
    """A catalogue bound to one locale (see :meth:`Catalogue.bind`)."""

    def __init__(self, catalogue: Catalogue, locale: str | None) -> None:
        self.catalogue = catalogue
        self.locale = locale
        self.language = catalogue.language(locale)

    def __call__(self, msg_id: str, /, **values: Any) -> str:
        return self.catalogue.text(msg_id, self.locale, **values)

    def said(self, msg_id: str, /, **values: Value) -> Said:
        """See :meth:`Catalogue.said`."""
        return self.catalogue.said(msg_id, **values)


Value: TypeAlias = "str | int | float | Said | Mapping[str, str]"
"""A value a message may carry (a :class:`Said` is read in the reader's locale)."""
_PACKAGE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
SAID_DEPTH = 3
"""How deep a stored message's values may nest messages (deeper: the stored text is shown)."""


@dataclass(frozen=True)
class Said:
    """A catalogued message and its values, kept as data (a history entry's ``said``) so each
    reader reads it in their own language: what the keeper's ``.phase prep`` told the table
    reads "phase set to: prep" to an English player and "阶段已设为：prep" to a Chinese one.

    ``package`` is the import package whose ``locales`` folder holds ``id`` (``lwcore``,
    ``lw_panels``); a value is text, a number, another :class:`Said` (read in the same
    language) or a locale map of text (``{"en": …, "zh": …}``: data such as a rulepack's
    label, read by :func:`negotiate`). Stored data is read back with :meth:`from_json`, which never raises: data
    that does not fit reads as ``None`` and the stored text is shown instead."""

    package: str
    id: str
    values: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"package": self.package, "id": self.id, "values": {k: _value_json(v) for k, v in self.values.items()}}

    @classmethod
    def from_json(cls, data: Any, _depth: int = 0) -> "Said | None":
        if _depth > SAID_DEPTH or not isinstance(data, Mapping):
            return None
        package, msg_id, values = data.get("package"), data.get("id"), data.get("values", {})
        if not (isinstance(package, str) and _PACKAGE.match(package) and isinstance(msg_id, str)
                and isinstance(values, Mapping)):
            return None
        read: dict[str, Any] = {}
        for key, value in values.items():
            if isinstance(value, Mapping) and "texts" in value:
                texts = value["texts"]
                ok = isinstance(texts, Mapping) and texts and all(
                    isinstance(k, str) and isinstance(v, str) for k, v in texts.items())
                value = dict(texts) if ok else None
            elif isinstance(value, Mapping):
                value = cls.from_json(value, _depth + 1)
            if not isinstance(key, str) or not isinstance(value, (str, int, float, Said, dict)) or isinstance(value, bool):
                return None
            read[key] = value
        return cls(package, msg_id, read)

    def render(self, locale: str | None) -> str:
        """The message in the language serving ``locale`` (as :meth:`Catalogue.text`)."""
        cat = package_catalogue(self.package)
        if cat is None:
            raise MissingMessage(f"no catalogue for package {self.package!r}")
        return cat.text(self.id, locale, **{k: v.render(locale) if isinstance(v, Said) else _read_value(v, locale)
                                              for k, v in self.values.items()})

    def reread(self, locale: str | None) -> str | None:
        """:meth:`render` for stored data: ``None`` (not an error) when the message or one of
        its values is gone (a plugin removed, a message changed since it was said)."""
        try:
            cat = package_catalogue(self.package)
            if cat is None or self.id not in cat:
                return None
            values = {}
            for key, value in self.values.items():
                values[key] = value.reread(locale) if isinstance(value, Said) else _read_value(value, locale)
                if values[key] is None:
                    return None
            wanted = placeholders(cat.messages[cat.language(locale)].get(self.id, cat.messages[cat.default][self.id]))
            if not wanted <= set(values):
                return None
            return cat.text(self.id, locale, **values)
        except (MissingMessage, ValueError, OSError):
            return None


def _value_json(value: Any) -> Any:
    if isinstance(value, Said):
        return value.to_json()
    if isinstance(value, Mapping):
        return {"texts": dict(value)}
    return value


def _read_value(value: Any, locale: str | None) -> Any:
    if isinstance(value, Mapping):
        key = negotiate(locale, value, DEFAULT_LANGUAGE)
        return value[key] if key in value else next(iter(value.values()))
    return value


@lru_cache(maxsize=64)
def package_catalogue(package: str) -> Catalogue | None:
    """The catalogue of the installed top-level package ``package`` (``None``: no such
    package, or it has no ``locales``). The package is found, never imported: no code runs."""
    if not _PACKAGE.match(package):
        return None
    if package == "lwcore":
        return kernel_catalogue()
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    for place in places:
        if (Path(place) / LOCALES_DIR).is_dir():
            return catalogue(Path(place))
    return None


@lru_cache(maxsize=None)
def _load(folder: str, name: str, default: str, package: str) -> Catalogue:
    cat = Catalogue.from_dir(Path(folder), name, default)
    cat.package = package
    return cat


def catalogue(anchor: str | Path, name: str | None = None, default: str = DEFAULT_LANGUAGE) -> Catalogue:
    """The catalogue of the package ``anchor`` is in: pass the package's ``__file__`` (or any
    module's in it, or the package folder). The nearest ``locales`` folder at or above the
    anchor, up to the package root, is read once per process."""
    path = Path(anchor).resolve()
    folder = path if path.is_dir() else path.parent
    for here in (folder, *folder.parents):
        if (here / LOCALES_DIR).is_dir():
            return _load(str(here / LOCALES_DIR), name or here.name, default, here.name)
        if not (here / "__init__.py").exists():
            break
    raise FileNotFoundError(f"no {LOCALES_DIR}/ folder for {anchor}")


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""A list item of no language: a draft's label, an id, a number."""


class Translations:
    """Messages *authored* in one language and translated by their own text, gettext's way:
    for code whose messages are written in its authors' language (a plugin writing Chinese)
    and translated at the boundary where they are shown.

    Data: ``<package>/translations/<target language>/*.json``, each an object of source
    text -> translation. A source marks each value with ``{}``; its translation names them
    ``{0}``, ``{1}`` ... in the source's order. :meth:`translate` tries the exact text, then
    the templates, most fixed text first (so ``找不到草稿 {}`` wins over ``找不到{} {}``); the
    values caught are translated in turn (a value may be a catalogued word). A text with
    several lines is translated line by line; ``lists`` joins a list written with the source's
    separator (``{"en": ("、", ", ")}``) with the target's, when an item is translated or every item
    is a token of no language (a label ``A``, an id ``P-001``; quoted prose is left as written). A text with no entry is returned
    as it is (a name, a path): :meth:`problems` and the package's tests hold the code and the
    tables in step."""

    def __init__(self, name: str, tables: Mapping[str, Mapping[str, str]],
                 lists: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.name = name
        self.tables = {lang: dict(table) for lang, table in tables.items()}
        self.lists = dict(lists or {})
        self._compiled: dict[str, tuple[dict[str, str], list[tuple[re.Pattern[str], str]]]] = {}

    @classmethod
    def from_dir(cls, folder: Path, name: str | None = None,
                 lists: Mapping[str, tuple[str, str]] | None = None) -> "Translations":
        return cls(name or folder.parent.name, read_tables(folder), lists)

    def language(self, locale: str | None) -> str | None:
        """The target language serving ``locale`` (``None``: none, the text stays as written)."""
        lang = negotiate(locale, self.tables, "")
        return lang or None

    def _table(self, lang: str) -> tuple[dict[str, str], list[tuple[re.Pattern[str], str]]]:
        if lang not in self._compiled:
            pairs = self.tables[lang]
            exact = {src: dst for src, dst in pairs.items() if "{}" not in src}
            templates = sorted((src for src in pairs if "{}" in src), key=lambda src: -len(src.replace("{}", "")))
            patterns = [(re.compile("^" + "(.+?)".join(re.escape(p) for p in src.split("{}")) + "$", re.S), pairs[src])
                        for src in templates]
            self._compiled[lang] = (exact, patterns)
        return self._compiled[lang]

    def translate(self, text: str | None, locale: str | None) -> str:
        """``text`` in the language serving ``locale`` (unchanged when it has no entry)."""
        if not text:
            return text or ""
        lang = self.language(locale)
        return text if lang is None else self._translate(text, lang)

    def _translate(self, text: str, lang: str) -> str:
        exact, patterns = self._table(lang)
        if text in exact:
            return exact[text]
        for pattern, target in patterns:
            m = pattern.match(text)
            if m:
                return target.format(*(self._translate(g, lang) for g in m.groups()))
        if "\n" in text:
            return "\n".join(self._translate(line, lang) for line in text.split("\n"))
        source_sep, target_sep = self.lists.get(lang, ("", ""))
        if source_sep and source_sep in text:
            parts = text.split(source_sep)
            translated = [self._translate(p, lang) for p in parts]
            if translated != parts or all(_TOKEN.fullmatch(p) for p in parts):
                return target_sep.join(translated)
        return text

    def problems(self) -> list[str]:
        """Entries whose translation does not use each value of the source exactly by index."""
        out = []
        for lang, table in sorted(self.tables.items()):
            for src, dst in table.items():
                want = {str(i) for i in range(src.count("{}"))}
                if placeholders(dst) != want:
                    out.append(f"{self.name}: {src!r} ({lang}) uses {sorted(placeholders(dst))}, the source has "
                               f"{len(want)} value(s)")
        return out


def translations(anchor: str | Path, name: str | None = None,
                 lists: Mapping[str, tuple[str, str]] | None = None) -> Translations:
    """The :class:`Translations` of the package ``anchor`` is in (its ``translations`` folder)."""
    path = Path(anchor).resolve()
    folder = path if path.is_dir() else path.parent
    return Translations.from_dir(folder / TRANSLATIONS_DIR, name or folder.name, lists)


def kernel_catalogue() -> Catalogue:
    """The kernel's own messages (``lwcore/locales``)."""
    return catalogue(__file__, "lwcore")


def kernel_text(msg_id: str, locale: str | None, /, **values: Any) -> str:
    """A kernel message in the language serving ``locale``."""
    return kernel_catalogue().text(msg_id, locale, **values)
