"""The engine never compares rank ids (contract M16: "agent/ 从不点名系统、也从不比较 rank id，由架构
测试钉住"): a rank id is the pack's own word; the kernel reads only the semantic flags a rank
declares (``success``, ``critical``, ``fumble``, ``tier`` …).

Two proofs:

- **structural**: no code of the kernel or of a bundled plugin that is not a rule system
  compares a rank (``x.rank``, ``rank``, ``x["rank"]``, ``x.get("rank")``, any name holding
  ``rank``) with a literal word, or matches one against literal patterns;
- **behavioural**: a pack that is the bundled percentile system with every rank id renamed
  (same order, same conditions, same flags, same labels) gives the same text and the same
  results -- checks, every difficulty, bonus dice, a luck spend, a push, a sanity roll --
  through ``lw cmd`` and ``lw check``, as an operator runs them.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
LW = str(Path(sys.executable).with_name("lw"))
SYSTEM_PLUGINS = {"builtin_coc7", "builtin_dnd5e", "builtin_wod"}
"""Rule systems as plugins: their own code may know their own ranks (a named computer)."""


# --- structural -------------------------------------------------------------------------------


def _is_rank(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return "rank" in node.attr.lower()
    if isinstance(node, ast.Name):
        return "rank" in node.id.lower()
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and isinstance(key.value, str) and "rank" in key.value.lower()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop"):
        first = node.args[0] if node.args else None
        return isinstance(first, ast.Constant) and isinstance(first.value, str) and "rank" in first.value.lower()
    return False


def _is_word(node: ast.AST) -> bool:
    """A literal text, or a tuple/list/set/dict-keys of literal texts."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_word(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys) and all(k is not None and _is_word(k) for k in node.keys)
    return False


def rank_comparisons(path: Path) -> list[str]:
    """Every place in ``path`` that compares a rank with a literal word: ``==``/``!=``/``in``
    against text, ``.startswith``/``.endswith`` on a rank, a ``match`` over a rank with literal
    patterns, and a literal table looked up by a rank (``{"crit": …}[rank]``)."""
    hits = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{path.relative_to(ROOT).as_posix()}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_rank(s) for s in sides) and any(_is_word(s) for s in sides):
                hits.append(f"{where}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and _is_rank(node.func.value):
            hits.append(f"{where}: {ast.unparse(node)}")
        elif isinstance(node, ast.Match) and _is_rank(node.subject):
            if any(isinstance(p, ast.MatchValue) or isinstance(p, ast.MatchOr) for c in node.cases
                   for p in [c.pattern]):
                hits.append(f"{where}: match {ast.unparse(node.subject)}")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict) and _is_word(node.value) \
                and _is_rank(node.slice):
            hits.append(f"{where}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and isinstance(node.func.value, ast.Dict) and _is_word(node.func.value) and node.args \
                and _is_rank(node.args[0]):
            hits.append(f"{where}: {ast.unparse(node)}")
    return hits


def engine_sources(root: Path = ROOT) -> list[Path]:
    """The kernel and every bundled plugin that is not a rule system (their tests left out)."""
    plugins = root / "plugins"
    files = [*(root / "lwcore").rglob("*.py")]
    for path in plugins.rglob("*.py"):
        parts = path.relative_to(plugins).parts
        if parts[0] not in SYSTEM_PLUGINS and "tests" not in parts:
            files.append(path)
    return sorted(files)


def test_the_engine_never_compares_rank_ids() -> None:
    sources = engine_sources()
    assert len(sources) > 200 and any(p.name == "system.py" for p in sources)
    assert [hit for path in sources for hit in rank_comparisons(path)] == []


@pytest.mark.parametrize("code", [
    'if result.rank == "crit":\n    pass\n',
    'ok = check["rank"] in ("extreme", "hard")\n',
    'x = data.get("rank") != "fumble"\n',
    'if rank not in {"fail"}:\n    pass\n',
    'x = outcome.rank_id.startswith("crit")\n',
    'match result.rank:\n    case "crit":\n        pass\n',
    'bonus = {"crit": 2, "extreme": 1}[check.rank]\n',
    'bonus = {"crit": 2}.get(last_rank, 0)\n',
])
def test_the_check_would_catch_a_comparison(tmp_path: Path, code: str) -> None:
    probe = ROOT / "lwcore" / "_rank_probe.py"
    probe.write_text(code, encoding="utf-8")
    try:
        assert rank_comparisons(probe), code
    finally:
        probe.unlink()


def test_flags_and_other_words_are_not_rank_comparisons(tmp_path: Path) -> None:
    probe = ROOT / "lwcore" / "_rank_probe.py"
    probe.write_text('if result.success and flags.get("pushed"):\n    kind = "check"\n'
                     'same = result.rank == previous.rank\nif tier == 3:\n    pass\n', encoding="utf-8")
    try:
        assert rank_comparisons(probe) == []
    finally:
        probe.unlink()


# --- behavioural ------------------------------------------------------------------------------

BASE = ROOT / "plugins" / "builtin_coc7" / "lw_coc7" / "rulepacks" / "coc7.yaml"


def renamed_pack() -> tuple[str, dict[str, str]]:
    """A patch of the bundled percentile system whose ladder has every rank id renamed (same
    order, conditions, flags and labels), its variants and tests left out (they name the old
    ids); ``(yaml text, old id -> new id)``."""
    base = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    ranks = base["resolution"]["ranks"]
    mapping = {rank["id"]: f"r{n}x" for n, rank in enumerate(ranks)}
    patch: dict[str, Any] = {
        "extends": "coc7", "names": ["renamed"], "tests": None,
        "resolution": {"ranks": [{**rank, "id": mapping[rank["id"]]} for rank in ranks], "variants": None},
        "labels": {locale: {mapping.get(k, k): v for k, v in words.items()} for locale, words in base["labels"].items()},
    }
    return yaml.safe_dump(patch, allow_unicode=True, sort_keys=False), mapping


def run(home: Path, *args: str) -> Any:
    done = subprocess.run([LW, "--data-dir", str(home), *args, "--json"], capture_output=True, text=True, timeout=120,
                          cwd=home.parent)
    assert done.returncode == 0, (args, done.stderr)
    return json.loads(done.stdout)


SESSION: list[tuple[str, list[int]]] = [
    (".st 侦查50 幸运60 图书馆使用49", []),
    *[(".ra 侦查", [face]) for face in (1, 10, 25, 26, 51, 100)],
    (".ra 图书馆使用", [96]), (".ra 困难侦查", [26]), (".ra 极难侦查", [10]),
    (".ra b1 侦查", [37, 0]), (".ra p1 侦查", [37, 8]),
    (".ra 侦查", [60]), (".luck", []),
    (".ra 侦查", [70]), (".luck 困难成功", []),
    (".ra 侦查", [70]), (".push", [20]),
    (".ra 侦查", [80]), (".push", [100]),
    (".sc 1/1d6", [80, 4]), (".sc 0/1d3", [3]), (".sc 1d10/1d100", [100, 7, 60]),
]


def _same_but_ids(a: Any, b: Any, mapping: dict[str, str]) -> Any:
    """``b`` with every new rank id read back as the old one and the system's id as the base's."""
    back = {new: old for old, new in mapping.items()} | {"renamed": "coc7"}
    if isinstance(b, dict):
        return {k: _same_but_ids(a.get(k) if isinstance(a, dict) else None, v, mapping) for k, v in b.items()}
    if isinstance(b, list):
        return [_same_but_ids(None, v, mapping) for v in b]
    return back.get(b, b) if isinstance(b, str) else b


def test_renamed_rank_ids_change_nothing_through_lw(tmp_path: Path) -> None:
    home = tmp_path / "data"
    (home / "rulepacks").mkdir(parents=True)
    text, mapping = renamed_pack()
    (home / "rulepacks" / "renamed.yaml").write_text(text, encoding="utf-8")
    assert not set(mapping.values()) & set(mapping)
    outputs: dict[str, list[Any]] = {}
    for system in ("coc7", "renamed"):
        sheet = tmp_path / f"{system}.yaml"
        outputs[system] = []
        for number, (line, dice) in enumerate(SESSION):
            locale = ("en", "zh")[number % 2]  # the labels of both locales are read
            outputs[system].append(run(home, "cmd", system, line, "--sheet", str(sheet), "--locale", locale,
                                       *(("--dice", ",".join(map(str, dice))) if dice else ())))
    assert len(outputs["coc7"]) == len(outputs["renamed"]) == len(SESSION)
    seen_ranks = set()
    for old, new in zip(outputs["coc7"], outputs["renamed"], strict=True):
        assert new["text"] == old["text"]  # rendered through the labels: word for word
        assert _same_but_ids(old, new, mapping) == old
        seen_ranks |= {v for v in json.dumps(new).split('"') if v in mapping.values()}
    assert seen_ranks == set(mapping.values())  # every renamed rank was graded at least once
    commands = [o["command"] for o in outputs["renamed"]]
    assert {"ra", "luck", "push", "sc"} <= set(commands)  # every flow ran, none refused
    assert any('"pushed": true' in json.dumps(o) for o in outputs["renamed"])


def test_renamed_rank_ids_grade_every_face_alike(tmp_path: Path) -> None:
    """``lw check --batch``: every face of the d100 at three skills and three difficulties."""
    home = tmp_path / "data"
    (home / "rulepacks").mkdir(parents=True)
    text, mapping = renamed_pack()
    (home / "rulepacks" / "renamed.yaml").write_text(text, encoding="utf-8")
    requests = [{"skill": skill, "roll": face, "difficulty": difficulty}
                for skill in (5, 49, 50, 90) for face in range(1, 101) for difficulty in (None, "hard", "extreme")]
    requests += [{"skill": 60, "dice": [37, tens], kind: 1} for tens in range(10) for kind in ("bonus", "penalty")]
    answers = {}
    for system in ("coc7", "renamed"):
        lines = "\n".join(json.dumps({**r, "system": system}) for r in requests) + "\n"
        done = subprocess.run([LW, "--data-dir", str(home), "check", "--batch", "-"], input=lines, capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        answers[system] = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers["coc7"]) == len(requests)
    for old, new in zip(answers["coc7"], answers["renamed"], strict=True):
        assert new["rank"] == mapping[old["rank"]]
        assert {k: v for k, v in new.items() if k not in ("rank", "system")} == \
            {k: v for k, v in old.items() if k not in ("rank", "system")}
