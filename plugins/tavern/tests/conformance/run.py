"""Conformance harness: every vector of ``vectors/*.json`` through the current tavern implementation.

    python plugins/tavern/tests/conformance/run.py                 # every suite, dev and eval counted apart
    python plugins/tavern/tests/conformance/run.py mvu_update ejs  # some suites
    python plugins/tavern/tests/conformance/run.py --split dev -v  # each failure with its diff
    python plugins/tavern/tests/conformance/run.py --json out.json # the results as data

The vectors are what the reference code did (see README.md beside this file); this script only
measures. It never fails on a mismatch (exit 0); it exits 2 when a vector file is unreadable.
Nothing here changes the implementation: each suite calls the public functions a room uses.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VECTORS = HERE / "vectors"
SUITES = ("mvu_update", "mvu_value", "mvu_path", "mvu_initvar", "mvu_parse_string", "ejs", "st_timed", "st_macros")


@dataclass
class Result:
    ok: bool
    kind: str = ""  # the failure class
    diff: str = ""
    modes: dict[str, bool] = field(default_factory=dict)


def _j(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[:limit] + "…"


def _tree_diff(want: Any, got: Any, path: str = "") -> list[str]:
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(want) | set(got), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in got:
                out.append(f"{where}: missing (want {_j(want[key], 120)})")
            elif key not in want:
                out.append(f"{where}: extra {_j(got[key], 120)}")
            else:
                out.extend(_tree_diff(want[key], got[key], where))
        return out
    if _same(want, got):
        return []
    return [f"{path or '<root>'}: want {_j(want, 160)}, got {_j(got, 160)}"]


def _same(a: Any, b: Any) -> bool:
    """JSON equality (1 == 1.0, but True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


# --- MVU ---------------------------------------------------------------------------------------


_READER: Any = None


def _reader() -> Any:
    global _READER
    import lwcore.sandbox as sandbox

    from lw_tavern.mvu.values import Reader

    if _READER is None:
        _READER = Reader(sandbox)
    return _READER


def run_mvu_update(v: Mapping[str, Any]) -> Result:
    """``update_variables``: the reply read and applied as a room does (without the room's own
    checks), with the vector's schema (what MagVarUpdate derived when it loaded the data)."""
    from lw_tavern.mvu.magvar import update_variables

    before = copy.deepcopy(v["input"]["stat_data"])
    tree, errors, update = update_variables(before, v["input"]["text"], _reader(), v["input"].get("schema"))
    want = v["expected"]
    want_error = bool(want.get("errors") or want.get("thrown"))
    got_error = bool(errors)
    lines = _tree_diff(want["stat_data"], tree)
    if lines:
        kind = "tree"
        if not update.commands:
            kind = "tree: no command read"
        elif errors and not want_error:
            kind = "tree: commands refused that MagVarUpdate applies"
        elif want_error and not got_error:
            kind = "tree: commands applied that MagVarUpdate refuses"
        detail = lines[:6] + [f"lw errors: {errors[:2]}",
                              f"MVU errors: {[e.splitlines()[-1][:160] for e in want.get('errors', [])][:2]}"]
        return Result(False, kind, "\n".join(detail))
    if want_error != got_error:
        kind = "error flag: lw reports an error MagVarUpdate does not" if got_error else \
            "error flag: MagVarUpdate reports an error lw does not"
        return Result(False, kind, f"lw errors: {errors[:2]}; "
                                   f"MVU errors: {[e.splitlines()[-1][:160] for e in want.get('errors', [])][:2]}")
    return Result(True)


def run_mvu_initvar(v: Mapping[str, Any]) -> Result:
    """``load_books``: MagVarUpdate's ``loadInitVarData`` as a world import runs it."""
    from lw_tavern.mvu.initvar import load_books

    tree, problems = load_books(v["input"]["books"], copy.deepcopy(v["input"]["stat_data"]), _reader())
    lines = _tree_diff(v["expected"]["stat_data"], tree)
    if lines:
        return Result(False, "tree", "\n".join(lines[:6] + [f"lw problems: {problems[:2]}"]))
    return Result(True)


# --- EJS ---------------------------------------------------------------------------------------


def _state_of(variables: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """A room's tree is MVU's stat_data: chat variables holding only ``stat_data`` give it."""
    if set(variables) == {"stat_data"} and isinstance(variables["stat_data"], dict):
        return copy.deepcopy(variables["stat_data"]), True
    return copy.deepcopy(dict(variables)), False


def _apply_writes(state: dict[str, Any], writes: list[Any]) -> dict[str, Any]:
    out = copy.deepcopy(state)
    for w in writes:
        node: Any = out
        keys = list(w.path)
        for key in keys[:-1]:
            if isinstance(node, list) and key.isdigit():
                node = node[int(key)]
                continue
            node = node.setdefault(key, {})
        last = keys[-1]
        if isinstance(node, list) and last.isdigit():
            index = int(last)
            if w.op == "setvar":
                node[index] = w.value
            else:
                node[index] = (node[index] if isinstance(node[index], (int, float)) else 0) + w.value
        elif w.op == "setvar":
            node[last] = w.value
        else:
            node[last] = (node.get(last) if isinstance(node.get(last), (int, float)) else 0) + w.value
    return out


def _full(template: str, state: dict[str, Any], data: Mapping[str, Any]) -> Any:
    """``render_full`` as a room calls it, with the oracle's ``userName``/``charName``; extra
    locals (the EJS library's own fixtures pass some, a card cannot) are handed in as locals."""
    import lwcore.sandbox as sandbox

    from lw_tavern.ejs import full

    return full.render_full(template, sandbox, tree=state, seed=1, clock=0, user="User", char="Alice",
                            locals=dict(data))


def _lite(template: str, state: dict[str, Any], data: Mapping[str, Any]) -> Any:
    from lw_tavern.ejs.lite import render, tree_resolver

    base = tree_resolver(state)

    def resolve(path: str) -> Any:
        head = path.split(".", 1)[0].split("[", 1)[0]
        if head in data:
            return tree_resolver(dict(data))(path)
        return base(path)

    return render(template, resolve)


def run_ejs(v: Mapping[str, Any]) -> Result:
    inp, want = v["input"], v["expected"]
    state, wrapped = _state_of(inp["variables"])
    data = inp.get("data") or {}
    want_vars = want["variables"]
    full_out = _full(inp["template"], state, data)
    lite_out = _lite(inp["template"], state, data)
    if "error" in want:
        modes = {"full": full_out is None, "lite": bool(lite_out.warnings)}
        modes["room"] = modes["full"]
        ok = modes["room"]
        return Result(ok, "" if ok else "error: EJS throws, lw renders",
                      "" if ok else f"EJS error: {want['error']}\nlw full text: {_j(full_out.text if full_out else None)}",
                      modes)
    after = None
    if full_out is not None:
        after = _apply_writes(state, full_out.writes)
        if wrapped:
            after = {"stat_data": after}
    full_ok = full_out is not None and full_out.text == want["text"] and _same(after, want_vars)
    lite_ok = lite_out.text == want["text"]
    room_text = full_out.text if full_out is not None else lite_out.text
    room_ok = full_ok if full_out is not None else (lite_ok and _same(state if not wrapped else {"stat_data": state}, want_vars))
    modes = {"full": full_ok, "room": room_ok, "lite": lite_ok}
    if room_ok:
        return Result(True, modes=modes)
    if full_out is None:
        kind = "full mode failed (falls back to the subset)"
    elif full_out.text != want["text"]:
        kind = "text differs"
    else:
        kind = "variables differ"
    diff = f"want text {_j(want['text'])}\n got text {_j(room_text)}"
    if full_out is not None and not _same(after, want_vars):
        diff += f"\nvariables: " + "; ".join(_tree_diff(want_vars, after)[:4])
    if full_out is None:
        diff += f"\nsubset warnings: {lite_out.warnings[:2]}"
    return Result(False, kind, diff, modes)


# --- SillyTavern -------------------------------------------------------------------------------


def run_st_timed(v: Mapping[str, Any]) -> Result:
    from lw_tavern.worldbook.engine import ScanInput, activate, compile_book
    from lw_tavern.worldbook.model import WorldBook, WorldEntry, WorldSettings
    from lw_tavern.worldbook.timed import TimedState

    fields = {"uid": 0, "key": ["harbor"], "content": "the harbor", **v["input"]["entry"]}
    settings = WorldSettings()
    book = compile_book(WorldBook(entries=[WorldEntry.model_validate(fields)]), settings)
    state, previous = TimedState(), TimedState()
    got: list[bool] = []
    for step in v["input"]["steps"]:
        if step.get("type") == "swipe":
            state = previous  # a re-roll: the swiped turn was never kept
        chat = ["x"] * (step["L"] - 1) + ["harbor" if step["key"] else "x"]
        out = activate(book, ScanInput(chat=chat, length=step["L"]), settings, state, rng=random.Random(0))
        previous, state = state, out.state
        got.append(bool(out.fired))
    want = [s["fired"] for s in v["expected"]]
    if got == want:
        return Result(True)
    row = " ".join(f"{s['L']}{'s' if s.get('type') == 'swipe' else ''}:{'F' if w else '.'}/{'F' if g else '.'}"
                   for s, w, g in zip(v["input"]["steps"], want, got))
    return Result(False, "timed: fired on other generations", f"L:SillyTavern/lw  {row}")


def run_st_macros(v: Mapping[str, Any]) -> Result:
    from lw_tavern.ejs.lite import tree_resolver
    from lw_tavern.ejs.macros import MacroContext, substitute

    inp = v["input"]
    ctx = MacroContext(resolve=tree_resolver(inp.get("local_variables") or {}), user=inp["user"], char=inp["char"],
                       message_variables=inp.get("message_variables"), chat_variables=inp.get("local_variables"))
    got = substitute(inp["text"], ctx)
    want = v["expected"]["text"]
    if got == want:
        return Result(True)
    kind = "macro left as written" if "{{" in got and "{{" not in want else "macro output differs"
    return Result(False, kind, f"want {_j(want)}\n got {_j(got)}")


RUNNERS: dict[str, Callable[[Mapping[str, Any]], Result]] = {
    "mvu_update": run_mvu_update, "mvu_value": run_mvu_update, "mvu_path": run_mvu_update,
    "mvu_initvar": run_mvu_initvar, "mvu_parse_string": run_mvu_initvar,
    "ejs": run_ejs, "st_timed": run_st_timed, "st_macros": run_st_macros,
}


def load(name: str) -> dict[str, Any]:
    return json.loads((VECTORS / f"{name}.json").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", nargs="*", help=f"suites to run (default: all of {', '.join(SUITES)})")
    ap.add_argument("--split", choices=("dev", "eval", "all"), default="all")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure's diff")
    ap.add_argument("--json", metavar="FILE", help="write every result as JSON")
    args = ap.parse_args(argv)
    names = args.suites or list(SUITES)
    unknown = [n for n in names if n not in RUNNERS]
    if unknown:
        ap.error(f"unknown suite(s): {', '.join(unknown)}")
    report: dict[str, Any] = {}
    print(f"{'suite':<18} {'dev':>11} {'eval':>11}   modes")
    for name in names:
        try:
            data = load(name)
        except (OSError, ValueError) as exc:
            print(f"{name}: cannot read its vectors: {exc}", file=sys.stderr)
            return 2
        counts: dict[str, list[int]] = {"dev": [0, 0], "eval": [0, 0]}
        mode_counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"dev": [0, 0], "eval": [0, 0]})
        classes: Counter[str] = Counter()
        failures = []
        for vec in data["vectors"]:
            split = vec["split"]
            if args.split != "all" and split != args.split:
                continue
            try:
                res = RUNNERS[name](vec)
            except Exception as exc:  # noqa: BLE001 - a crash is a result too
                res = Result(False, f"crash: {type(exc).__name__}", str(exc)[:300])
            counts[split][0] += res.ok
            counts[split][1] += 1
            for mode, ok in res.modes.items():
                mode_counts[mode][split][0] += ok
                mode_counts[mode][split][1] += 1
            if not res.ok:
                classes[res.kind] += 1
                failures.append({"id": vec["id"], "split": split, "kind": res.kind, "diff": res.diff})
        modes = "  ".join(f"{m} {c['dev'][0]}/{c['dev'][1]}+{c['eval'][0]}/{c['eval'][1]}" for m, c in mode_counts.items())
        print(f"{name:<18} {counts['dev'][0]:>5}/{counts['dev'][1]:<5} {counts['eval'][0]:>5}/{counts['eval'][1]:<5}   {modes}")
        for kind, n in classes.most_common():
            print(f"{'':<20}{n:>4}  {kind}")
        if args.verbose:
            for f in failures:
                print(f"  ✗ {f['id']} [{f['split']}] {f['kind']}")
                for line in f["diff"].splitlines():
                    print(f"      {line}")
        report[name] = {"dev": counts["dev"], "eval": counts["eval"], "modes": dict(mode_counts),
                        "classes": dict(classes), "failures": failures}
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
