"""Ctrl-C while a command waits: exit status 130 and one word, as ``lwcore.cli.app.run`` documents
(click turns the KeyboardInterrupt into an Abort, which used to end as "Aborted." with status 1)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

LW = str(Path(sys.executable).parent / "lw")
LINE = json.dumps({"system": "coc7", "skill": 50, "roll": 10}) + "\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_in_a_waiting_batch_exits_130_saying_interrupted(tmp_path: Path, as_json: bool) -> None:
    args = [LW, "--data-dir", str(tmp_path), "check", *(["--json"] if as_json else []), "--batch", "-"]
    process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.stdin.write(LINE)  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        answer = json.loads(process.stdout.readline())  # type: ignore[union-attr]
        assert "extreme" in json.dumps(answer)
        process.send_signal(signal.SIGINT)  # it now waits for the next line
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and "Aborted" not in err
    if as_json:
        assert json.loads(out.strip().splitlines()[-1])["error"]["code"] == "interrupted"
    else:
        assert err.strip() == "Interrupted."
