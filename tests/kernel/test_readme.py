"""The README's host example runs as written (with its data dir pointed at a temp folder)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_host_example_runs(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = next(b for b in blocks if "Kernel(" in b)
    example = example.replace('"/tmp/my-host-data"', repr(str(tmp_path)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "[('house', 'House rules apply (en).')]"
    assert lines[1] == "[('host', 'enabled'), ('pack', 'enabled'), ('rules', 'enabled'), ('turn', 'enabled'), ('house', 'enabled')]"
    assert lines[2] == "() ()"
