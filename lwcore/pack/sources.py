"""Where a pack comes from: a local path, an ``https://`` link, or ``gh:owner/repo[@tag]``.

Git is the registry; there is no central index. ``gh:owner/repo[@tag]`` asks the GitHub API for
that release (``@tag`` pins one; without it, the latest) and downloads its one ``*.lwpack`` asset.

The GitHub token (``GITHUB_TOKEN``, else ``GH_TOKEN``; anonymous when neither is set) is scoped
by two rules, not by a host-name comparison alone:

- it rides only on the release-metadata request this module builds itself; every URL a person
  typed (even one on the API's host) and every download is fetched anonymously, so a keeper's
  ``.pack install https://api.github.com/...`` cannot spend the server's token;
- a redirect to another host (or port) drops it: urllib would forward it, and release assets
  are served from another host by design. A redirect away from https is refused.

Downloads stream into ``<cache>/<sha256>.lwpack`` with the pack size cap enforced while reading.
``LW_GITHUB_API`` points ``gh:`` refs at another API (GitHub Enterprise: ``https://host/api/v3``);
the system's CA store (``SSL_CERT_FILE`` too) decides which certificates are trusted.
"""

from __future__ import annotations

import hashlib
import re
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from lwcore import __version__
from lwcore.errors import LwError
from lwcore.io import load_json
from lwcore.io.atomic import staged_file
from lwcore.io.text import describe_size
from lwcore.pack.card import message
from lwcore.pack.limits import DEFAULT_LIMITS, PackLimits
from lwcore.pack.manifest import PACK_SUFFIX

if TYPE_CHECKING:
    from http.client import HTTPMessage

GH_REF = re.compile(r"^gh:([A-Za-z0-9_.-]{1,100})/([A-Za-z0-9_.-]{1,100})(?:@([^\s@/]{1,200}))?$")
TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN")
USER_AGENT = f"lwcore/{__version__} (lw pack)"
METADATA_LIMIT = 4 * 1024 * 1024


@dataclass(frozen=True)
class Transport:
    """How packs are fetched: the GitHub API base, the TLS context (``None``: the system's),
    the timeout per request and the most redirects followed."""

    api_base: str = "https://api.github.com"
    ssl_context: ssl.SSLContext | None = None
    timeout: float = 30.0
    max_redirects: int = 5


def transport_for(kernel: Any) -> Transport:
    """The kernel's transport (service ``pack.transport``; ``LW_GITHUB_API`` sets the API base).
    A host that needs another one seeds the service first."""
    def make(k: Any) -> Transport:
        base = str(k.env.get("LW_GITHUB_API") or "").strip().rstrip("/")
        return Transport(api_base=base) if base else Transport()

    return kernel.service("pack.transport", make)


def _origin(url: str) -> tuple[str, int | None]:
    parts = urllib.parse.urlsplit(url)
    return (parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80)


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to https only; drop ``Authorization`` when the host or port changes."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        # urllib reads the limit from the instance; typeshed declares it a class variable
        self.max_redirections = limit  # type: ignore[misc]

    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: HTTPMessage, newurl: str) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl).scheme != "https":
            raise LwError(f"refusing a redirect away from https: {newurl[:200]}", file=req.full_url, code="network")
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and _origin(newurl) != _origin(req.full_url):
            for name in [k for k in new.headers if k.lower() == "authorization"]:
                del new.headers[name]
        return new


def _open(url: str, transport: Transport, headers: Mapping[str, str]) -> Any:
    opener = urllib.request.build_opener(
        urllib.request.HTTPSHandler(context=transport.ssl_context or ssl.create_default_context()),
        _Redirects(transport.max_redirects),
    )
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, **headers})
    try:
        return opener.open(request, timeout=transport.timeout)
    except LwError:
        raise
    except urllib.error.HTTPError as exc:
        raise LwError(f"the server answered {exc.code} {exc.reason}", file=url, code="network") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LwError(f"cannot fetch: {reason}", file=url, code="network") from None


def _download(url: str, transport: Transport, cache_dir: Path, limits: PackLimits) -> Path:
    """Stream ``url`` (anonymously) into the cache, capped; the file is named by its sha256."""
    with _open(url, transport, {"Accept": "application/octet-stream"}) as response:
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > limits.archive_bytes:
            raise LwError(f"the download is {describe_size(int(declared))}; the limit for a pack is "
                          f"{describe_size(limits.archive_bytes)}", file=url, code="limit")
        with staged_file(cache_dir, prefix=".download-", suffix=PACK_SUFFIX) as staged:
            digest, size = hashlib.sha256(), 0
            while chunk := response.read(1024 * 1024):
                size += len(chunk)
                if size > limits.archive_bytes:
                    raise LwError(f"the download is larger than the {describe_size(limits.archive_bytes)} "
                                  "limit for a pack", file=url, code="limit")
                digest.update(chunk)
                staged.handle.write(chunk)
            if size == 0:
                raise LwError("the download is empty", file=url, code="network")
            staged.into = cache_dir / f"{digest.hexdigest()}{PACK_SUFFIX}"
        return staged.into


def _release_asset(match: re.Match[str], env: Mapping[str, str], transport: Transport) -> str:
    """The download URL of the release's one ``*.lwpack`` asset (the token, if any, rides on
    this request only)."""
    owner, repo, tag = match.groups()
    base = transport.api_base.rstrip("/")
    url = (f"{base}/repos/{owner}/{repo}/releases/tags/{urllib.parse.quote(tag, safe='')}" if tag
           else f"{base}/repos/{owner}/{repo}/releases/latest")
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    token = next((env[v].strip() for v in TOKEN_VARIABLES if (env.get(v) or "").strip()), "")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    ref = match.group(0)
    try:
        with _open(url, transport, headers) as response:
            body = response.read(METADATA_LIMIT + 1)
    except LwError as exc:
        if " 403 " in f" {exc.message} " and not token:
            exc.message += " (GitHub limits anonymous requests per address; set GITHUB_TOKEN or GH_TOKEN)"
        if " 404 " in f" {exc.message} ":
            exc.message += f" ({ref}: no such repository or release)"
        raise
    if len(body) > METADATA_LIMIT:
        raise LwError("the release description is too large", file=url, code="limit")
    release = load_json(body, url)
    assets = release.get("assets") if isinstance(release, dict) else None
    if not isinstance(assets, list):
        raise LwError(f"{ref}: the release has no assets list", file=url, code="network")
    found = sorted(
        (str(a.get("name")), str(a.get("browser_download_url")))
        for a in assets
        if isinstance(a, dict) and str(a.get("name", "")).endswith(PACK_SUFFIX)
    )
    if not found:
        raise LwError(f"{ref}: the release has no {PACK_SUFFIX} asset", file=url, code="not_found")
    if len(found) > 1:
        raise LwError(f"{ref}: the release has several {PACK_SUFFIX} assets ({', '.join(n for n, _ in found)}); "
                      "install one by its https:// link", file=url, code="ambiguous")
    link = found[0][1]
    if urllib.parse.urlsplit(link).scheme != "https":
        raise LwError(f"{ref}: the asset's link is not https: {link[:200]}", file=url, code="network")
    return link


def fetch_pack(ref: str, *, cache_dir: Path, env: Mapping[str, str], limits: PackLimits = DEFAULT_LIMITS,
               transport: Transport | None = None, allow_local: bool = True, locale: str = "en") -> Path:
    """A local ``.lwpack`` file for ``ref`` (see the module docstring). ``allow_local=False``
    refuses paths (a room's keeper names files on the server otherwise)."""
    ref = ref.strip()
    transport = transport or Transport()
    if not ref:
        raise LwError("no pack named", expected="a path, an https:// link, or gh:owner/repo[@tag]")
    if ref.startswith("gh:"):
        match = GH_REF.match(ref)
        if match is None:
            raise LwError(f"{ref!r} is not a GitHub ref", expected="gh:owner/repo or gh:owner/repo@tag")
        return _download(_release_asset(match, env, transport), transport, cache_dir, limits)
    scheme = urllib.parse.urlsplit(ref).scheme.lower()
    if scheme == "https":
        return _download(ref, transport, cache_dir, limits)
    if re.match(r"^[a-z][a-z0-9+.-]*://", ref, re.IGNORECASE):
        raise LwError(f"{scheme}:// is not fetched; packs come over https", file=ref, expected="https://… or gh:owner/repo")
    if not allow_local:
        raise LwError(message("room_local", locale), file=ref, code="refused")
    expected = "a .lwpack file, an https:// link, or gh:owner/repo[@tag]"
    try:
        path = Path(ref).expanduser()
        is_file = path.is_file()
        exists = is_file or path.exists()
    except (OSError, RuntimeError, ValueError) as exc:  # a name too long, a home that cannot be found …
        shown = ref if len(ref) <= 200 else ref[:200] + "…"
        raise LwError(f"cannot read this path: {getattr(exc, 'strerror', None) or exc}", file=shown,
                      code="not_found", expected=expected) from None
    if not is_file:
        raise LwError("not a pack file (a folder, a device or a pipe)" if exists else "no such pack file",
                      file=path, code="not_found", expected=expected)
    return path
