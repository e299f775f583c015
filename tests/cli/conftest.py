"""Tests of the ``lw`` command tree as a whole: every command, built-in or a bundled plugin's
(``cli_tree`` walks it)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
