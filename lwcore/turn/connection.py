"""How a turn reaches a live model: a provider profile, or an endpoint on its own.

``lw turn`` and ``lw serve`` ask for a live connection with a :class:`LiveRequest`;
:func:`lwcore.turn.pipeline.run_turn` settles it (:func:`connect`) on the room it has just
loaded under its lock -- the room is read once -- and plays the turn on it. :func:`connect`
settles everything before anything is sent, each with a located message:

- **Which profile**: ``--profile NAME``, else the room's ``profile:``; or an ``--endpoint``
  with no profile (then retries and timeouts are a profile's defaults).
- **Which protocol** (never guessed wrong): the profile's; for a bare ``--endpoint``, an
  explicit ``--protocol``, else the one whose adapter claims the URL's path ending
  (``…/chat/completions`` is Chat Completions), else the room's ``provider:``; a
  ``--protocol`` that contradicts the path is refused, and so is an endpoint whose protocol
  cannot be told.
- **A model**: the profile's, or ``--model``; no request goes out without one.
- **The key**: from the environment variable the profile names (unset: an error); for a bare
  ``--endpoint``, ``--key-env`` or the adapter's default variable. No key for a protocol
  whose servers always want one is an error; for one self-hosted servers serve without a
  key it is a warning.

A host that streams opens its own :func:`lwcore.live.calling` block around the turn; the
turn puts the profile in it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from lwcore import profiles
from lwcore.contributions import resolve
from lwcore.errors import LwError
from lwcore.io.safe_yaml import read_yaml
from lwcore.profiles import Profile


@dataclass(frozen=True)
class LiveRequest:
    """What a host asks of a live turn: ``profile`` by name (``None``: the room's
    ``profile:``), or a bare ``endpoint`` with its ``protocol``, ``model`` and ``key_env``
    (the two first exclusive). ``warn`` is told what is worth saying but no error (a local
    server without a key)."""

    profile: str | None = None
    endpoint: str | None = None
    protocol: str | None = None
    model: str | None = None
    key_env: str | None = None
    warn: Callable[[str], None] = lambda text: None

    def connect(self, kernel: Any, room: Any) -> Connection:
        """:func:`connect` in ``room`` (loaded)."""
        return connect(kernel, room, profile_name=self.profile, endpoint=self.endpoint, protocol=self.protocol,
                       model=self.model, key_env=self.key_env, warn=self.warn)


@dataclass(frozen=True)
class Connection:
    """A settled live connection: the profile, the key read for it, whether it was named."""

    profile: Profile
    api_key: str | None
    named: bool


def room_profile(room: Path) -> str | None:
    """The ``profile:`` a room's ``room.yaml`` names (``None`` when none or unreadable: the
    room's own load reports a broken file)."""
    try:
        data = read_yaml(Path(room) / "room.yaml")
    except (LwError, OSError):
        return None
    value = data.get("profile") if isinstance(data, dict) else None
    return value if isinstance(value, str) and value else None


def adapters(kernel: Any) -> dict[str, Any]:
    """Every installed adapter by protocol (resolved)."""
    registry = kernel.provider_adapters
    return {protocol: resolve(registry[protocol].adapter) for protocol in registry}


def protocol_of_endpoint(kernel: Any, endpoint: str) -> str | None:
    """The protocol whose adapter claims ``endpoint``'s path ending, if exactly one does."""
    path = urlsplit(endpoint).path.rstrip("/")
    claims = [p for p, a in adapters(kernel).items() if any(path.endswith(e) for e in getattr(a, "endpoint_paths", ()))]
    return claims[0] if len(claims) == 1 else None


def check_protocol(kernel: Any, protocol: str, **where: Any) -> Any:
    installed = adapters(kernel)
    if protocol not in installed:
        raise LwError(f"no provider adapter for protocol {protocol!r}", expected=" | ".join(sorted(installed)),
                      code="no_protocol", **where)
    return installed[protocol]


def connect(kernel: Any, room: Any, *, profile_name: str | None, endpoint: str | None, protocol: str | None,
            model: str | None, key_env: str | None, warn: Callable[[str], None]) -> Connection:
    """The connection a live ``lw turn`` plays on (see the module doc)."""
    name = profile_name or (None if endpoint else room.file.profile)
    if name is not None:
        if endpoint:
            raise LwError("give --profile or --endpoint, not both (a profile names its endpoint)")
        profile = profiles.load(kernel.data_dir, name, profiles.presets_of(kernel))
        if protocol is not None and protocol != profile.protocol:
            raise LwError(f"profile {name!r} speaks {profile.protocol}, not {protocol}", code="protocol_mismatch",
                          expected=f"no --protocol, or lw provider add {name} --protocol {protocol} …")
        if model:
            profile = replace(profile, model=model)
        if key_env:
            profile = replace(profile, key_env=key_env)
        check_protocol(kernel, profile.protocol, file=str(profiles.path_of(kernel.data_dir, name)))
        return Connection(profile, profile.key(), named=True)
    assert endpoint is not None
    profiles.check_endpoint(endpoint)
    implied = protocol_of_endpoint(kernel, endpoint)
    if protocol is not None and implied is not None and protocol != implied:
        raise LwError(f"--protocol {protocol}, but the endpoint's path is a {implied} path", code="protocol_mismatch",
                      expected=f"--protocol {implied}, or the endpoint {protocol} serves")
    chosen = protocol or implied or room.file.provider
    if chosen is None:
        raise LwError(f"cannot tell which protocol {endpoint} speaks", code="no_protocol",
                      expected="--protocol " + " | ".join(sorted(adapters(kernel))))
    adapter = check_protocol(kernel, chosen)
    if not model:
        raise LwError("no model: a request never goes out without one", code="no_model",
                      expected="--model NAME (the name the server serves), or a profile (lw provider add)")
    variable = key_env or adapter.default_key_env
    api_key = os.environ.get(variable) or None
    if api_key is None:
        if getattr(adapter, "requires_key", False):
            raise LwError(f"no key: the environment variable {variable} is not set, and {chosen} servers want one",
                          code="no_key", expected=f"export {variable}=…, or --key-env NAME")
        warn(f"{variable} is not set: sending without a key (fine for a local server)")
    profile = Profile(name=profiles.COMMAND_LINE, protocol=chosen, endpoint=endpoint, model=model, key_env=None)
    return Connection(profile, api_key, named=False)
