"""The web table's origins: the public address, the ``Host`` a request names, the ``Origin``
a browser sends -- each written one way (lower case, a default port left out: a browser's
``Origin`` never carries ``:443``), so that comparing them is comparing strings.

A request is answered only when its ``Host`` is a loopback name or the public address (name
*and* port): :func:`own_origin` says which origin's pages may then write to it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from lwcore.api import LwError

LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")
"""The loopback names (and how ``--host`` may spell them)."""


def public_origin(url: str) -> str:
    """The origin (``scheme://host[:port]``, lower case, a default port left out) of the public
    address ``url``; a located refusal for anything but an http(s) URL with a host and nothing
    after its path."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password \
            or parts.query or parts.fragment or parts.path not in ("", "/") or port == -1:
        raise LwError("--public-url is not the address of a site (its value is not shown: it may hold credentials)",
                      expected="https://HOST[:PORT] (no path: the table is served at the root)")
    return _origin(parts.scheme, parts.hostname, port)


_DEFAULT_PORT = {"http": 80, "https": 443}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def _origin(scheme: str, name: str, port: int | None) -> str:
    """``scheme://name[:port]``, the port left out when it is the scheme's default (browsers
    send an ``Origin`` without it)."""
    host = f"[{name}]" if ":" in name else name
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != _DEFAULT_PORT[scheme] else "")


def _host_port(host: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (name lower case), ``None`` when it is not one."""
    parts = urlsplit("//" + host)
    try:
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.netloc != host or parts.username is not None or parts.path:
        return None
    return parts.hostname.lower(), port


def normal_origin(value: str) -> str | None:
    """An ``Origin`` header as :func:`_origin` writes it (``None``: not an http(s) origin)."""
    scheme, sep, host = value.partition("://")
    found = _host_port(host) if sep and scheme.lower() in _DEFAULT_PORT else None
    return _origin(scheme.lower(), *found) if found is not None else None


def own_origin(host: str, scheme: str, public: str | None) -> str | None:
    """The origin whose pages may write to a request with this ``Host``: the public origin when
    it names the public address (its port too, a default port written or not), the request's own
    for a loopback name; ``None`` for any other name (or the public name with another port)."""
    found = _host_port(host)
    if found is None:
        return None
    name, port = found
    if public is not None:
        pub_scheme, _, pub_host = public.partition("://")
        pub = _host_port(pub_host)
        default = _DEFAULT_PORT[pub_scheme]
        if pub is not None and name == pub[0] and (port or default) == (pub[1] or default):
            return public
    if name in _LOOPBACK_NAMES:
        return _origin(scheme if scheme in _DEFAULT_PORT else "http", name, port)
    return None
