"""The safe readers and writers every part of the project uses for outside input.

- :func:`read_bytes`, :func:`read_text`, :func:`decode_text`, :func:`read_stream`: size
  limits, and encoding errors located by line, column and byte offset; :func:`open_file` for a
  reader that streams (a regular file, or a named pipe on request; never a device).
- :func:`load_yaml`, :func:`read_yaml`: YAML with limits on size, depth and alias expansion,
  duplicate keys and unknown tags refused, positions on request.
- :func:`load_json`, :func:`read_json`, :func:`iter_json_lines`: JSON with limits, no
  ``NaN``/``Infinity``/overflowing numbers, duplicate keys refused; JSON Lines one outcome a line.
- :func:`confine`: a path a file names, kept inside its folder.
- :func:`atomic_write_bytes`, :func:`atomic_write_text`: all-or-nothing writes that keep the
  file's mode and write through symbolic links.

Every problem is a :class:`lwcore.errors.LwError` with a location; nothing here prints.
Importing this package is cheap: the names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lwcore import lazy_exports

_LAZY = {
    "Limits": "lwcore.io.limits",
    "YAML_LIMITS": "lwcore.io.limits",
    "JSON_LIMITS": "lwcore.io.limits",
    "LINE_LIMITS": "lwcore.io.limits",
    "LOG_LINE_LIMITS": "lwcore.io.limits",
    "read_bytes": "lwcore.io.text",
    "open_file": "lwcore.io.text",
    "read_text": "lwcore.io.text",
    "read_stream": "lwcore.io.text",
    "decode_text": "lwcore.io.text",
    "load_yaml": "lwcore.io.safe_yaml",
    "read_yaml": "lwcore.io.safe_yaml",
    "Position": "lwcore.io.safe_yaml",
    "Positions": "lwcore.io.safe_yaml",
    "load_json": "lwcore.io.safe_json",
    "read_json": "lwcore.io.safe_json",
    "iter_json_lines": "lwcore.io.safe_json",
    "confine": "lwcore.io.paths",
    "atomic_write_bytes": "lwcore.io.atomic",
    "atomic_write_text": "lwcore.io.atomic",
    "encode_utf8": "lwcore.io.atomic",
}

__all__ = list(_LAZY)

if TYPE_CHECKING:
    from lwcore.io.atomic import atomic_write_bytes, atomic_write_text, encode_utf8
    from lwcore.io.limits import JSON_LIMITS, LINE_LIMITS, LOG_LINE_LIMITS, YAML_LIMITS, Limits
    from lwcore.io.paths import confine
    from lwcore.io.safe_json import iter_json_lines, load_json, read_json
    from lwcore.io.safe_yaml import Position, Positions, load_yaml, read_yaml
    from lwcore.io.text import decode_text, open_file, read_bytes, read_stream, read_text

__getattr__ = lazy_exports(__name__, _LAZY)
