"""The ``lw`` command line (the console script's entry point is :func:`main`).

``lw --version`` is answered here without importing click or any other part of the kernel,
``lw plugins list [--json] [--all]`` without click (:mod:`lwcore.cli.listing`; both start-up
goals in ``bench/boot.py``); every other command line goes to
:mod:`lwcore.cli.app`, the click group plugins extend through the ``lw_cli`` hook. The group
and its helpers are importable from here too (``from lwcore.cli import lw``), on first use.
"""

from __future__ import annotations

import sys

from lwcore import __version__, lazy_exports


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run ``lw`` and turn every failure into an exit code.

    Exit codes: 0 done, 1 bad input or a refused action (a located message), 2 a usage
    error or an internal error (a bug: one line, a traceback only with ``LW_DEBUG=1``),
    130 interrupted. With ``--json``, errors are JSON on stdout too:
    ``{"error": {"message", "location", "code", …}}`` -- ``location`` is the file (and line,
    column) of an input error, the option or argument of a usage error (code ``usage``), ``""``
    when there is none.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        sys.stdout.write(f"lw {__version__}\n")
        sys.exit(0)
    if args[:2] == ["plugins", "list"]:
        from lwcore.cli.listing import fast_list  # without click: a start-up goal too

        if fast_list(args):
            sys.exit(0)
    from lwcore.cli.app import run  # click and the group: every command but --version

    run(args)


__getattr__ = lazy_exports(__name__, {name: "lwcore.cli.app" for name in (
    "LwGroup", "lw", "wants_json", "fail", "usage_location", "run")})
