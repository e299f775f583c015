"""``lw story … --help`` in the reader's language, by the same rule as the messages.

The commands' help and their options' help are written in Chinese in :mod:`lw_storyrepo.cli`
(as the messages are) and translated by :func:`lw_storyrepo.i18n.tr` for an English reader.
click's own words -- "Usage:", the section headings, the help option, type and argument
names (``TEXT``, ``LABEL``) -- are English and are translated for a Chinese reader the same
way (``translations/zh/help.json``, see :mod:`lw_storyrepo.i18n`).

An English reader sees an option's ASCII spelling only (``--title``, not ``--书名``), and an
argument whose choices are Chinese words by its name (``FIELD``; the help names the words in
«»). The book's own words (file names, field names, values to type) stay Chinese, quoted.

The locale is found before click parses the command line (:func:`remember_locale`), so
``lw story --locale en --help`` is English although ``--help`` acts first, and kept on the
click context (``ctx.meta``), not in a global: nothing outlives the invocation. Only the help
is localized here; click's usage errors are said in the same language by :class:`UsageSaid`
(``translations/zh/click.json`` holds click's English messages as templates).
"""

from __future__ import annotations

import inspect
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import IO, Any

import click
from click.formatting import join_options

from lw_storyrepo.i18n import LOCALES, locale_from, tr

LOCALE_KEY = "lw_story.locale"
_CLICK_WORD = re.compile(r"[A-Z][A-Z_]*")


def is_cjk(char: str) -> bool:
    """Chinese script or full-width punctuation (what an English reader cannot be asked to read)."""
    code = ord(char)
    return 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF


def remember_locale(ctx: click.Context, args: Sequence[str], commands: Sequence[str]) -> None:
    """Keep the help's locale on ``ctx``: ``--locale`` among ``args`` before the subcommand,
    else the environment (:func:`lw_storyrepo.i18n.locale_from`)."""
    explicit = None
    for i, arg in enumerate(args):
        if arg == "--" or arg in commands:
            break
        value = args[i + 1] if arg == "--locale" and i + 1 < len(args) else \
            arg.partition("=")[2] if arg.startswith("--locale=") else None
        if value in LOCALES:
            explicit = value
    ctx.meta[LOCALE_KEY] = locale_from(os.environ, explicit)


def help_locale(ctx: click.Context) -> str:
    return str(ctx.meta.get(LOCALE_KEY) or locale_from(os.environ))


def words(text: str, locale: str) -> str:
    """click's English placeholders (``[OPTIONS]``, ``FILE|-``, ``TEXT``) in ``locale``."""
    return text if locale == "en" else _CLICK_WORD.sub(lambda m: tr(m.group(0), locale), text)


def _chinese_choices(param: click.Parameter) -> bool:
    return isinstance(param.type, click.Choice) and any(is_cjk(c) for choice in param.type.choices for c in str(choice))


def metavar(param: click.Parameter, ctx: click.Context, locale: str) -> str:
    """The placeholder of ``param`` in ``locale``."""
    if locale == "en" and _chinese_choices(param):
        name = (param.name or "value").upper()
        return name if param.required or not isinstance(param, click.Argument) else f"[{name}]"
    return words(param.make_metavar(ctx), locale)


def option_row(param: click.Option, ctx: click.Context, locale: str) -> tuple[str, str]:
    """``(spellings and placeholder, help)`` of an option."""

    def spell(opts: Sequence[str]) -> str:
        shown = [o for o in opts if locale == "zh" or not any(is_cjk(c) for c in o)] or list(opts)
        spec = join_options(shown)[0]
        return spec if param.is_flag or param.count else f"{spec} {metavar(param, ctx, locale)}"

    spec = " / ".join(spell(opts) for opts in (param.opts, param.secondary_opts) if opts)
    text = tr(param.help or "", locale)
    if param.required:
        text = f"{text}  {tr('[必填]', locale)}".strip()
    return spec, text


def paragraphs(text: str | None, locale: str) -> list[str]:
    """A command's help in ``locale``, paragraph by paragraph (each is catalogued whole)."""
    text = inspect.cleandoc(text or "").partition("\f")[0]
    return [tr(p, locale) for p in text.split("\n\n") if p.strip()]


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def short_help(command: click.Command, limit: int, locale: str) -> str:
    """A command's first paragraph (its summary) in ``locale`` for the list of subcommands,
    cut at a word when it does not fit in ``limit`` columns (a test keeps every one fitting)."""
    first = (paragraphs(command.short_help or command.help, locale) or [""])[0].replace("\n", " ")
    if width(first) <= limit:
        return first
    cut = ""
    for char in first:
        if width(cut + char) > limit - 3:
            break
        cut += char
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "..."


_TOKEN = re.compile(r"\s+|«[^»]*»[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]*|[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+")
_CLOSERS = set("，。、；：！？）」』》…,.;:!?)")


def wrap(text: str, limit: int) -> list[str]:
    """``text`` in lines of at most ``limit`` columns, broken at a space or between two Chinese
    characters (a closing punctuation mark stays on its line, a «quoted» name stays whole)."""
    lines: list[str] = []
    line, space = "", False
    for token in _TOKEN.findall(text.replace("\n", " ")):
        if token.isspace():
            space = True
            continue
        joined = line + (" " if space and line else "") + token
        if line and width(joined) > limit and token not in _CLOSERS:
            lines.append(line)
            line = token
        else:
            line = joined
        space = False
    return lines + [line] if line or not lines else lines


class WideFormatter(click.HelpFormatter):
    """click's formatter, measuring in terminal columns (a Chinese character takes two), so
    the Chinese help's columns line up and its lines fit the terminal."""

    def write_text(self, text: str) -> None:
        for line in wrap(text, max(self.width - self.current_indent, 11)):
            self.write(f"{'':>{self.current_indent}}{line}\n")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        rows = list(rows)
        first_col = min(max((width(first) for first, _ in rows), default=0), col_max) + col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if width(first) <= first_col - col_spacing:
                self.write(" " * (first_col - width(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = wrap(second, max(self.width - first_col - 2, 10))
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


class HelpContext(click.Context):
    formatter_class = WideFormatter


def _section(formatter: click.HelpFormatter, heading: str, rows: list[tuple[str, str]], locale: str) -> None:
    if rows:
        formatter.write_paragraph()
        formatter.write(tr(heading, locale) + (":" if locale == "en" else "：") + "\n")
        with formatter.indentation():
            formatter.write_dl(rows)


_OPTION_LIKE = re.compile(r"--[^\s=-][^\s=]*(=.*)?|-[A-Za-z]", re.S)


class LocalizedCommand(click.Command):
    """A ``lw story`` command whose ``--help`` speaks the reader's language.

    A command that takes free text (``ignore_unknown_options``: a value may start with "-")
    still refuses what can only be a mistyped option (``--draftt``, ``--原因x``, ``-x``): free
    text starting with a dash has a space or punctuation after it (``- 复仇``, ``-{3,}``)."""

    context_class = HelpContext

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.ignore_unknown_options:
            known = {name for p in self.get_params(ctx) if isinstance(p, click.Option)
                     for name in (*p.opts, *p.secondary_opts)}
            for arg in args:
                if arg == "--":
                    break
                if _OPTION_LIKE.fullmatch(arg) and arg.split("=", 1)[0] not in known:
                    raise click.NoSuchOption(arg.split("=", 1)[0], ctx=ctx)
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        locale = help_locale(ctx)
        pieces = [words(self.options_metavar, locale)] if self.options_metavar else []
        pieces += [metavar(p, ctx, locale) for p in self.get_params(ctx) if isinstance(p, click.Argument)]
        if isinstance(self, click.Group):
            pieces.append(words(self.subcommand_metavar or "", locale))
        formatter.write_usage(ctx.command_path, " ".join(p for p in pieces if p), tr("Usage: ", locale))

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        locale = help_locale(ctx)
        params = self.get_params(ctx)
        self.format_usage(ctx, formatter)
        for text in paragraphs(self.help, locale):
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)
        _section(formatter, "Positional arguments",
                 [(metavar(p, ctx, locale), tr(p.help, locale)) for p in params
                  if isinstance(p, click.Argument) and p.help], locale)
        _section(formatter, "Options", [option_row(p, ctx, locale) for p in params
                                        if isinstance(p, click.Option) and not p.hidden], locale)
        if isinstance(self, click.Group):
            names = [n for n in self.list_commands(ctx) if not self.commands[n].hidden]
            limit = formatter.width - 6 - max((len(n) for n in names), default=0)
            _section(formatter, "Commands", [(n, short_help(self.commands[n], limit, locale)) for n in names], locale)


class LocalizedGroup(LocalizedCommand, click.Group):
    """A ``lw story`` group: its help and its subcommands' help speak the reader's language."""

    command_class = LocalizedCommand
    group_class: type[click.Group] | type[type] | None = type


class UsageSaid(click.UsageError):
    """click's usage error ``error`` (a missing argument, an unknown option …) in ``locale``: the
    message, the usage line and the help hint translated as the help is; exit code 2 as click's."""

    def __init__(self, error: click.UsageError, locale: str) -> None:
        message = error.format_message()
        param, ctx = getattr(error, "param", None), error.ctx
        if isinstance(error, click.MissingParameter) and param is not None and ctx is not None:
            if isinstance(param, click.Argument):  # named as the usage line names it
                message = f"Missing argument '{metavar(param, ctx, locale)}'."
            else:  # every spelling, one quote: 「--书名 / --title」
                extra = param.type.get_missing_message(param=param, ctx=ctx)
                message = f"Missing option '{' / '.join(param.opts)}'." + (f" {extra}" if extra else "")
        super().__init__(tr(message, locale), error.ctx)
        self.locale = locale

    def show(self, file: IO[Any] | None = None) -> None:
        lines = []
        if self.ctx is not None:
            formatter = self.ctx.make_formatter()
            self.ctx.command.format_usage(self.ctx, formatter)
            lines += [formatter.getvalue().rstrip("\n"),
                      tr(f"Try '{self.ctx.command_path} --help' for help.", self.locale), ""]
        lines.append(tr(f"Error: {self.format_message()}", self.locale))
        click.echo("\n".join(lines), file=file or sys.stderr)


def usage_said(error: click.UsageError, ctx: click.Context) -> click.UsageError:
    """``error`` in the reader's language (:func:`help_locale`); an English reader gets click's own."""
    locale = help_locale(ctx)
    return error if locale == "en" or isinstance(error, UsageSaid) else UsageSaid(error, locale)
