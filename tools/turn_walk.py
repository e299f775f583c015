"""Which modules one keeper turn walks through, from ``Kernel.turn`` to the saved room.

Plays the bundled example's recorded turn (``examples/fog-harbor``, the Anthropic reply, seed 5,
as ``make demo`` does) on a copy, once to warm every import, then again on a fresh copy under
``sys.setprofile``: every Python function called between entering ``Kernel.turn`` and its
return (the room is saved inside it) is attributed to its module, and the distinct modules are
counted -- the kernel's (``lwcore.turn`` apart), the bundled plugins', and the third-party
libraries' (not listed one by one). Module bodies run by an import are not counted (the warm-up
imported everything). It also counts the *crossings*: calls from a function of one kernel or
plugin module into a function of another (how often the turn's control passes a module
boundary), and among them those between two ``lwcore.turn`` modules. And it counts, in the
walked turn, the jobs a turn should do once: the ``TurnContext`` objects constructed, the calls
of the room's prompt compiler (the ``compile`` its protocol registered), and the chronicle's
fold plans (``plan_for`` or ``plan_turn``, whichever the kernel has).

    .venv/bin/python tools/turn_walk.py            # the counts
    .venv/bin/python tools/turn_walk.py --list     # and every kernel and plugin module, in first-entered order

It uses nothing but ``Kernel.turn``, so it measures any version of the kernel the Python it
runs under imports (the figures before and after a change: run it under each).
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "fog-harbor"
REPLY = EXAMPLE / "replies" / "turn1.anthropic_messages.json"
SAY = "我去码头查看那艘空船。"
LIBRARY = Path(sysconfig.get_paths()["stdlib"]).resolve()


def module_of(filename: str, names: dict[str, str]) -> str | None:
    """The dotted module of a code object's file (``None`` for the standard library and frozen
    code): ``lwcore.…`` and ``lw_<plugin>.…`` by their package path, anything else as
    ``third-party:<top package>``."""
    if filename in names:
        return names[filename]
    path = Path(filename)
    name: str | None = None
    if filename.startswith("<") or not path.is_absolute():
        name = None
    else:
        parts = path.resolve().parts
        tops = [i for i, part in enumerate(parts) if part == "lwcore" or part.startswith("lw_")]
        if tops and "site-packages" not in parts[tops[-1]:]:
            dotted = list(parts[tops[-1]:])
            dotted[-1] = Path(dotted[-1]).stem
            if dotted[-1] == "__init__":
                dotted.pop()
            name = ".".join(dotted)
        elif "site-packages" in parts:
            name = "third-party:" + parts[parts.index("site-packages") + 1].split(".")[0]
        elif LIBRARY in path.resolve().parents:
            name = None
    names[filename] = name or ""
    return name


def play(kernel: Any, folder: Path) -> None:
    kernel.turn(folder, SAY, reply=json.loads(REPLY.read_text(encoding="utf-8")), rng=random.Random(5))


PROTOCOL = "anthropic_messages"
"""The protocol of the recorded reply (the compiler whose calls are counted)."""
PLANS = ("plan_for", "plan_turn")
"""The names a fold plan has had (``lwcore.turn.chronicle.plan_for``, ``lwcore.turn.fold.plan_turn``)."""


def walk() -> tuple[list[str], int, int, dict[str, int]]:
    """The modules entered during one turn, in first-entered order; the crossings between the
    kernel's and plugins' modules, and those between two ``lwcore.turn`` modules; and how many
    times the turn built a context, compiled, planned a fold."""
    from lwcore.contributions import TurnContext, resolve
    from lwcore.kernel import Kernel

    work = Path(tempfile.mkdtemp(prefix="lw-walk-"))
    try:
        kernel = Kernel(data_dir=work / "data", env={})
        for name in ("warm", "walked"):
            shutil.copytree(EXAMPLE, work / name, ignore=shutil.ignore_patterns("replies", "README*"))
        play(kernel, work / "warm")
        seen: dict[str, None] = {}
        names: dict[str, str] = {}
        crossings = [0, 0]
        compiler = getattr(resolve(kernel.prompt_compilers[PROTOCOL].compile), "__code__", None)
        jobs = {"TurnContext constructions": 0, "prompt compiler calls": 0, "fold plans": 0}
        built = TurnContext.__init__

        def counted(self: Any, *args: Any, **kwargs: Any) -> None:
            jobs["TurnContext constructions"] += 1
            built(self, *args, **kwargs)

        def profile(frame: Any, event: str, arg: Any) -> None:
            code = frame.f_code
            if event == "call" and code.co_name != "<module>":
                if code is compiler:
                    jobs["prompt compiler calls"] += 1
                elif code.co_name in PLANS and "lwcore" in code.co_filename:
                    jobs["fold plans"] += 1
                module = module_of(code.co_filename, names)
                if module:
                    seen.setdefault(module, None)
                    caller = frame.f_back
                    source = module_of(caller.f_code.co_filename, names) if caller is not None else None
                    if source and source != module and not module.startswith("third-party:") \
                            and not source.startswith("third-party:"):
                        crossings[0] += 1
                        crossings[1] += source.startswith("lwcore.turn") and module.startswith("lwcore.turn")

        TurnContext.__init__ = counted  # type: ignore[method-assign]
        sys.setprofile(profile)
        try:
            play(kernel, work / "walked")
        finally:
            sys.setprofile(None)
            TurnContext.__init__ = built  # type: ignore[method-assign]
        return list(seen), crossings[0], crossings[1], jobs
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> None:
    modules, crossings, inside, jobs = walk()
    turn = [m for m in modules if m.startswith("lwcore.turn")]
    kernel = [m for m in modules if m.startswith("lwcore") and m not in turn]
    plugins = [m for m in modules if m.startswith("lw_")]
    libraries = [m for m in modules if m.startswith("third-party:")]
    print(f"one keeper turn (Kernel.turn -> saved room) enters {len(turn) + len(kernel) + len(plugins)} modules "
          f"of the kernel and its plugins: lwcore.turn {len(turn)}, the rest of lwcore {len(kernel)}, "
          f"bundled plugins {len(plugins)}; and {len(libraries)} third-party packages\n"
          f"calls crossing from one of those modules into another: {crossings} "
          f"({inside} of them between two lwcore.turn modules)\n"
          + "; ".join(f"{name}: {count}" for name, count in jobs.items()))
    if "--list" in argv:
        for group, members in (("lwcore.turn", turn), ("lwcore", kernel), ("plugins", plugins)):
            print(f"\n{group}:")
            for module in members:
                print(f"  {module}")


if __name__ == "__main__":
    main(sys.argv[1:])
