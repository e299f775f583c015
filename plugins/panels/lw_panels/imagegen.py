"""Image provider adapters for the stage director (M19): one request under a kit's discipline.

An :class:`ImageRequest` is built only for a kit subject that has a reference image
(:func:`request_for`); its reference picture, the pack's style keywords, banned list and
palette travel in every request. :data:`ADAPTERS` maps the operator's
``TRPG_DIRECTOR__IMAGE_PROVIDER`` to the wire format that sends it:

- ``openai_images``: the OpenAI Images API, ``POST {endpoint}/v1/images/edits`` as
  ``multipart/form-data`` (``image`` the reference picture, ``prompt`` the subject's prompt with
  the style, palette and banned list, ``model``, ``n=1``, ``size``), answered with
  ``{"data": [{"b64_json": …}]}``. The edits endpoint is the one of that API that takes a
  reference picture (``/v1/images/generations`` takes words only), so the reference is never
  dropped on the way. The key is read from the environment variable the operator names
  (``TRPG_DIRECTOR__IMAGE_KEY_ENV``, default ``OPENAI_API_KEY``).

Every failure -- refused, unreachable, slow, too large, not a picture -- is an :class:`LwError`
with code ``image_failed``; the caller degrades to the kit's own art or text.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lw_panels.packs import sniff_mime
from lwcore.api import DirectorSettings, LwError

MAX_ANSWER_BYTES = 24 * 1024 * 1024
"""The most an image answer may be (base64 and JSON included)."""
TIMEOUT = 90.0
"""Seconds one image request may take: its whole answer must have arrived by then (checked
between reads; each read waits at most this long, so a provider that stalls is dropped
within twice this)."""
SHOWN_MIMES = ("image/png", "image/jpeg", "image/webp")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ImageRequest:
    """One picture of one kit subject: its prompt, its reference picture and its pack's style."""

    subject: str
    prompt: str
    reference: bytes
    reference_mime: str
    keywords: str = ""
    banned: tuple[str, ...] = ()
    palette: tuple[str, ...] = ()

    def text(self) -> str:
        """The prompt as sent: the subject, then the style, the palette and what never to draw."""
        lines = [self.prompt]
        if self.keywords:
            lines.append(f"Style: {self.keywords}")
        if self.palette:
            lines.append(f"Palette: {', '.join(self.palette)}")
        if self.banned:
            lines.append(f"Never include: {', '.join(self.banned)}")
        lines.append("Keep the subject consistent with the reference image.")
        return "\n".join(lines)


def request_for(kit: Mapping[str, Any], subject_id: str, reference: bytes, mime: str) -> ImageRequest:
    """The request for ``subject_id`` of ``kit`` (a room's kit, :func:`lw_panels.presentation.room_kit`);
    :class:`LwError` when the kit does not allow that subject to be generated (no reference,
    ``pack_only`` anywhere in the room, not a subject)."""
    subject = next((s for s in kit.get("subjects") or () if s.get("id") == subject_id), None)
    if subject is None or not subject.get("generate") or not subject.get("ref") or kit.get("generation") != "allow":
        raise LwError(f"{subject_id} may not be generated in this room", code="forbidden")
    pack = subject_id.split("/", 1)[0]
    style = (kit.get("style") or {}).get(pack) or {}
    name = subject.get("name")
    prompt = subject.get("prompt") or (name if isinstance(name, str) else subject_id)
    return ImageRequest(subject_id, str(prompt), reference, mime, str(style.get("keywords") or ""),
                        tuple(style.get("banned") or ()), tuple(style.get("palette") or ()))


Adapter = Callable[[ImageRequest, DirectorSettings, Mapping[str, str], Callable[[], None]], tuple[bytes, str]]
"""``adapter(request, settings, env, sending) -> (picture bytes, mime)``; ``sending()`` is called
right before the request leaves (it is what counts against the budget)."""


def openai_images(request: ImageRequest, settings: DirectorSettings, env: Mapping[str, str],
                  sending: Callable[[], None]) -> tuple[bytes, str]:
    """Send ``request`` to the OpenAI Images edits endpoint; ``(picture bytes, mime)``."""
    endpoint = (settings.image_endpoint or "https://api.openai.com").rstrip("/")
    parsed = urllib.parse.urlsplit(endpoint)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise LwError(f"TRPG_DIRECTOR__IMAGE_ENDPOINT is not an http(s) address: {endpoint!r}", code="image_failed")
    key_env = settings.image_key_env or "OPENAI_API_KEY"
    key = str(env.get(key_env) or "").strip()
    if not key:
        raise LwError(f"no key for the image provider: set {key_env}", code="image_failed")
    model = settings.image_model or "gpt-image-1"
    fields = {"model": model, "prompt": request.text(), "n": "1", "size": "1024x1024"}
    if not model.startswith("gpt-image"):
        fields["response_format"] = "b64_json"  # the dall-e models answer with a URL unless asked
    suffix = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}.get(request.reference_mime, "png")
    body, content_type = _multipart(fields, ("image", f"reference.{suffix}", request.reference_mime, request.reference))
    http = urllib.request.Request(f"{endpoint}/v1/images/edits", data=body, method="POST", headers={
        "Content-Type": content_type, "Authorization": f"Bearer {key}", "Accept": "application/json"})
    handlers: list[Any] = [_NoRedirects()]  # the key goes to the endpoint the operator named, nowhere else
    if parsed.hostname in LOOPBACK:
        handlers.append(urllib.request.ProxyHandler({}))
    sending()
    try:
        with urllib.request.build_opener(*handlers).open(http, timeout=TIMEOUT) as answer:
            raw = _bounded_answer(answer, MAX_ANSWER_BYTES + 1, time.monotonic() + TIMEOUT)
    except urllib.error.HTTPError as exc:
        raise LwError(f"the image provider refused the request (HTTP {exc.code})", code="image_failed") from None
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LwError(f"the image provider could not be reached ({reason})", code="image_failed") from None
    if len(raw) > MAX_ANSWER_BYTES:
        raise LwError("the image provider's answer is too large", code="image_failed")
    try:
        data = json.loads(raw)
        picture = base64.b64decode(data["data"][0]["b64_json"], validate=True)
    except (ValueError, KeyError, IndexError, TypeError, binascii.Error):
        raise LwError("the image provider's answer holds no picture (expected data[0].b64_json)",
                      code="image_failed") from None
    mime = sniff_mime(picture, "")
    if mime not in SHOWN_MIMES:
        raise LwError("the image provider's answer is not a PNG, JPEG or WebP picture", code="image_failed")
    return picture, mime


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """No redirect is followed: urllib would send the request again -- its ``Authorization``
    (the operator's key) included -- to whatever host the answer names. A redirect is a
    refusal (``HTTP 30x``)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _bounded_answer(answer: Any, limit: int, deadline: float) -> bytes:
    """At most ``limit`` bytes of ``answer``, read a piece at a time; refused (``image_failed``)
    when all of it has not arrived by ``deadline`` (``time.monotonic``): a provider sending a
    byte now and then cannot hold the turn queue for ever."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        if time.monotonic() > deadline:
            raise LwError(f"the image provider's answer did not arrive within {TIMEOUT:g} s", code="image_failed")
        chunk = answer.read1(min(65536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _multipart(fields: Mapping[str, str], file: tuple[str, str, str, bytes]) -> tuple[bytes, str]:
    boundary = "lw-" + secrets.token_hex(12)
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    name, filename, mime, data = file
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                 f"Content-Type: {mime}\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


ADAPTERS: dict[str, Adapter] = {"openai_images": openai_images}
"""Image provider adapters by the name ``TRPG_DIRECTOR__IMAGE_PROVIDER`` gives."""
