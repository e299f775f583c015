"""The HTTP transport: one JSON POST with the standard library (``urllib``), nothing else."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from lwcore.errors import LwError

MAX_REPLY_BYTES = 16 * 1024 * 1024


def _scrub(text: str, secret: str | None) -> str:
    return text.replace(secret, "***") if secret else text


def post_json(
    endpoint: str,
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str],
    timeout: float,
    secret: str | None = None,
) -> dict[str, Any]:
    """POST ``body`` as JSON to ``endpoint``; the decoded JSON object of the answer.

    Only ``http``/``https`` URLs. Every failure (refused, timeout, HTTP error, not JSON) is
    an ``LwError`` whose message never contains ``secret``.
    """
    scheme = urllib.parse.urlsplit(endpoint).scheme
    if scheme not in ("http", "https"):
        raise LwError(f"endpoint must be an http(s) URL, not {endpoint!r}")
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(endpoint, data=data, method="POST")
    request.add_header("content-type", "application/json")
    for name, value in headers.items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - scheme checked
            raw = response.read(MAX_REPLY_BYTES + 1)
    except urllib.error.HTTPError as exc:
        detail = exc.read(2000).decode("utf-8", "replace") if exc.fp else ""
        raise LwError(_scrub(f"{endpoint}: HTTP {exc.code} {exc.reason}: {detail}".strip(), secret)) from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LwError(_scrub(f"{endpoint}: request failed: {reason}", secret)) from None
    if len(raw) > MAX_REPLY_BYTES:
        raise LwError(f"{endpoint}: reply larger than {MAX_REPLY_BYTES} bytes")
    try:
        reply = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise LwError(f"{endpoint}: reply is not JSON") from None
    if not isinstance(reply, dict):
        raise LwError(f"{endpoint}: reply is not a JSON object")
    return reply
