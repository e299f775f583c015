"""Provider profiles: named ways to reach a model, kept in the data dir.

A profile is one YAML file, ``<data dir>/providers/<name>.yaml``::

    protocol: chat_completions          # a provider adapter's protocol (lw plugins list --all)
    endpoint: http://localhost:8080/v1/chat/completions
    model: local
    key_env: MY_MODEL_KEY               # the environment variable holding the key; null: none
    connect_timeout: 10                 # seconds to connect
    read_timeout: 120                   # seconds to wait for each read (a slow first token too)
    retries: 2                          # retries of a 408/429/5xx/overloaded answer
    max_tokens: 1024                    # optional: the reply's token limit
    sampling: {temperature: 0.8}        # optional: sampling options sent as given

A room names its profile in ``room.yaml`` (``profile: NAME``); ``lw turn ROOM --say TEXT``
then plays on it. Contracts:

- **Never a key in a file.** A profile holding a literal key (a field named like one --
  ``key``, ``api_key``, ``token``, ``secret``, ``password``, ``authorization`` -- a value that
  looks like one, or an endpoint carrying credentials) is refused with the file, line and
  column of the offending value, and the value is never quoted. :meth:`Profile.key` reads the
  key from the environment when a call is made.
- Every other problem is a located :class:`LwError` too; a profile is read whole and checked
  (strict types, known fields only) before anything is sent.
- This module knows no protocol: ``protocol`` is checked against the installed adapters by
  the commands that use it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml

from lwcore.errors import LwError
from lwcore.io.atomic import atomic_write_text
from lwcore.io.limits import Limits
from lwcore.io.safe_yaml import Positions, load_yaml
from lwcore.io.text import read_bytes

PROFILE_LIMITS = Limits(max_bytes=64 * 1024, max_depth=8, max_nodes=1_000)
"""A profile file: size, nesting and values."""
MAX_RETRIES = 10
"""Retries a profile may ask for."""
MAX_TIMEOUT = 3600.0
"""The longest connect or read timeout a profile may ask for, in seconds."""
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
KEY_FIELDS = re.compile(r"^(?:x[-_])?(?:api[-_]?)?(?:key|token|secret|password|passwd|authorization|bearer)s?$",
                        re.IGNORECASE)
"""Field names a key would be kept under."""
KEY_VALUES = re.compile(r"^(?:sk-|sk_|sk-ant-|sk-or-|sk-proj-|AIza|gsk_|xai-|hf_|pplx-|Bearer\s)", re.IGNORECASE)
"""Values that are keys (the prefixes providers give them)."""
SECRET_QUERY = re.compile(r"key|token|secret|sig|password", re.IGNORECASE)
SAMPLING_VALUES = (int, float, str, list)
COMMAND_LINE = "command-line"
"""The name of the unsaved profile a bare ``--endpoint`` plays on (never saved)."""
FIELDS = ("protocol", "endpoint", "model", "key_env", "connect_timeout", "read_timeout", "retries", "max_tokens",
          "sampling")


@dataclass(frozen=True)
class Profile:
    """One provider profile (see the module doc). ``name`` is the file's stem."""

    name: str
    protocol: str
    endpoint: str
    model: str
    key_env: str | None = None
    connect_timeout: float = 10.0
    read_timeout: float = 120.0
    retries: int = 2
    max_tokens: int | None = None
    sampling: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check(self.to_json(), name=self.name)

    def key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The key from the environment variable the profile names (``None`` when it names
        none); a located error when it names one that is not set."""
        if self.key_env is None:
            return None
        value = (os.environ if env is None else env).get(self.key_env, "")
        if not value:
            raise LwError(f"profile {self.name!r}: the environment variable {self.key_env} holding its key is not set",
                          code="no_key", expected=f"export {self.key_env}=…, or a profile with --no-key for a "
                                                  "server that needs none")
        return value

    def to_json(self) -> dict[str, Any]:
        """The file's fields (``name`` left out: it is the file name)."""
        data = asdict(self)
        data.pop("name")
        data["sampling"] = dict(self.sampling)
        return data

    def label(self) -> str:
        """How error messages name it: ``profile 'NAME' (ENDPOINT)``, or ``--endpoint
        ENDPOINT`` for the unnamed profile of a command line."""
        if self.name == COMMAND_LINE:
            return f"--endpoint {self.endpoint}"
        return f"profile {self.name!r} ({self.endpoint})"


def folder(data_dir: Path) -> Path:
    """Where profiles are kept."""
    return Path(data_dir) / "providers"


def path_of(data_dir: Path, name: str) -> Path:
    check_name(name)
    return folder(data_dir) / f"{name}.yaml"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise LwError(f"not a profile name: {str(name)[:40]!r}",
                      expected="lower-case letters, digits, '.', '_' or '-', at most 64, starting with a letter or digit")
    return name


def _where(positions: Positions | None, path: tuple[Any, ...], *, key: bool = False) -> dict[str, Any]:
    if positions is None:
        return {}
    position = (positions.keys if key else positions.values).get(path) or positions.values.get(path)
    return {"line": position.line, "column": position.column} if position is not None and position.line else {}


def _refuse_keys(value: Any, path: tuple[Any, ...], file: str | None, positions: Positions | None) -> None:
    """Refuse anything that is, or is kept like, a literal key (the value is never quoted)."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            if isinstance(k, str) and KEY_FIELDS.match(k):
                raise LwError(f"a profile never holds a key: {k!r} must not be here", file=file, code="key_in_file",
                              expected="key_env: the name of the environment variable that holds the key",
                              **_where(positions, (*path, k), key=True))
            _refuse_keys(v, (*path, k), file, positions)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _refuse_keys(v, (*path, i), file, positions)
    elif isinstance(value, str) and KEY_VALUES.match(value.strip()):
        where = ".".join(str(p) for p in path) or "the profile"
        raise LwError(f"a profile never holds a key: {where} looks like one (not shown)", file=file,
                      code="key_in_file", expected="key_env: the name of the environment variable that holds the key",
                      **_where(positions, path))


def _number(data: Mapping[str, Any], name: str, low: float, high: float, *, integer: bool = False, **where: Any) -> None:
    value = data.get(name)
    if value is None:
        return
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or (isinstance(value, float) and not math.isfinite(value)) \
            or not low <= value <= high:
        kind = "a whole number" if integer else "a number of seconds"
        raise LwError(f"{name} must be {kind} from {low:g} to {high:g}", code="invalid", **where)


def check(data: Any, *, name: str, file: str | None = None, positions: Positions | None = None) -> dict[str, Any]:
    """``data`` checked as a profile's fields (see the module doc); located errors."""
    check_name(name)
    if not isinstance(data, Mapping):
        raise LwError("a profile is a mapping of fields", file=file, expected=", ".join(FIELDS))
    _refuse_keys(data, (), file, positions)

    def at(key: str, *, of_key: bool = False) -> dict[str, Any]:
        return {"file": file, **_where(positions, (key,), key=of_key)}

    for key in data:
        if key not in FIELDS:
            raise LwError(f"unknown profile field {str(key)[:40]!r}", expected=", ".join(FIELDS), **at(key, of_key=True))
    for key in ("protocol", "endpoint", "model"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            what = {"model": "the model name the endpoint serves (a request never goes out without one)",
                    "protocol": "a provider protocol (lw plugins list --all)",
                    "endpoint": "an http(s) URL"}[key]
            raise LwError(f"a profile needs {key}", expected=what, code=f"no_{key}", **at(key))
    check_endpoint(data["endpoint"], **at("endpoint"))
    key_env = data.get("key_env")
    if key_env is not None and (not isinstance(key_env, str) or not ENV_NAME.match(key_env)):
        raise LwError("key_env must name an environment variable (the key itself is never written down)",
                      expected="a name such as MY_MODEL_KEY", code="invalid", **at("key_env"))
    _number(data, "connect_timeout", 0.01, MAX_TIMEOUT, **at("connect_timeout"))
    _number(data, "read_timeout", 0.01, MAX_TIMEOUT, **at("read_timeout"))
    _number(data, "retries", 0, MAX_RETRIES, integer=True, **at("retries"))
    _number(data, "max_tokens", 1, 10_000_000, integer=True, **at("max_tokens"))
    sampling = data.get("sampling") or {}
    if not isinstance(sampling, Mapping):
        raise LwError("sampling is a mapping of option names to values", **at("sampling"))
    for k, v in sampling.items():
        if not isinstance(k, str) or not isinstance(v, SAMPLING_VALUES) or (isinstance(v, float) and not math.isfinite(v)):
            raise LwError(f"sampling option {str(k)[:40]!r} must be a number, text or a list",
                          file=file, **_where(positions, ("sampling", k)))
    return dict(data)


def check_endpoint(endpoint: str, **where: Any) -> str:
    """An http(s) URL with a host and no credentials in it (user:password@ or ?key=…)."""
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise LwError("the endpoint must be an http(s) URL with a host", expected="e.g. http://localhost:8080/v1/chat/completions",
                      code="invalid", **where)
    if parts.username or parts.password or any(SECRET_QUERY.search(k) for k, _ in parse_qsl(parts.query)):
        raise LwError("a profile never holds a key: the endpoint carries credentials (not shown)", code="key_in_file",
                      expected="key_env: the name of the environment variable that holds the key", **where)
    return endpoint


@dataclass(frozen=True)
class Preset:
    """A provider preset a plugin offers (:func:`presets_of`): its profile file, the offering
    plugin's id, and whether that plugin is bundled with the kernel. Only a bundled plugin's
    preset is played on as it is; any other one sends a key only once the operator has
    adopted it (``lw provider adopt``: a copy saved in the data dir)."""

    path: Path
    plugin: str
    bundled: bool


def load(data_dir: Path, name: str, presets: Mapping[str, Preset] | None = None, *, to_send: bool = True) -> Profile:
    """The profile ``name``: the data dir's, else the preset of that name (``presets``: what
    plugins offer, :func:`presets_of`). A preset is read and checked exactly as a profile file is.
    A located error when there is neither or the file is not a valid profile.

    With ``to_send`` (the profile is about to be used for a request), a preset of a plugin that
    is not bundled is refused, naming the adopt command, where its key would go and to which
    host: a plugin never decides where the operator's key is sent. ``to_send=False`` reads it
    for showing only."""
    path = path_of(data_dir, name)
    preset = presets.get(name) if presets and not path.is_file() else None
    if preset is not None:
        profile = read(preset.path, name)
        if to_send and not preset.bundled:
            raise LwError(f"profile {name!r} is a preset of plugin {preset.plugin!r}, which is not bundled: "
                          f"{sends(profile)}, so it is used only once you adopt it", file=str(preset.path),
                          code="preset_not_adopted",
                          expected=f"lw provider adopt {name} (shows where your key would go and asks first)")
        return profile
    if not path.is_file():
        raise LwError(f"no provider profile named {name!r}", code="no_profile",
                      expected=f"lw provider add {name} --protocol … --endpoint … --model … (lw provider list shows them)")
    return read(path, name)


def read(path: Path, name: str) -> Profile:
    """The profile file at ``path`` read (bounded) and checked as the profile ``name``."""
    data, positions = load_yaml(read_bytes(path, max_bytes=PROFILE_LIMITS.max_bytes), path, limits=PROFILE_LIMITS,
                                positions=True)
    checked = check(data if data is not None else {}, name=name, file=str(path), positions=positions)
    return _profile(name, checked)


def host_of(profile: Profile) -> str:
    """The host (and port, when one is given) requests on ``profile`` go to."""
    parts = urlsplit(profile.endpoint)
    return parts.netloc.rpartition("@")[2] or str(parts.hostname)


def sends(profile: Profile) -> str:
    """What using ``profile`` discloses, in words: ``sends your key in $VAR to host H`` (or
    ``sends no key, to host H``)."""
    if profile.key_env is None:
        return f"it sends no key, to host {host_of(profile)}"
    return f"it sends your key in ${profile.key_env} to host {host_of(profile)}"


def adopted_as(data_dir: Path, profile: Profile) -> list[str]:
    """The data dir's profiles that are exact copies of ``profile`` (its fields, whatever the
    name): where an adopted preset lives. Unreadable profiles are skipped."""
    out = []
    for own in names(data_dir):
        try:
            if read(path_of(data_dir, own), own).to_json() == profile.to_json():
                out.append(own)
        except LwError:
            continue
    return out


def _profile(name: str, data: Mapping[str, Any]) -> Profile:
    fields = {k: v for k, v in data.items() if v is not None}
    for key in ("connect_timeout", "read_timeout"):
        if key in fields:
            fields[key] = float(fields[key])
    return Profile(name=name, **fields)


def save(data_dir: Path, profile: Profile) -> Path:
    """Write ``profile`` (checked again first), replacing one of the same name."""
    if profile.name == COMMAND_LINE:
        raise LwError(f"{COMMAND_LINE!r} is the name of a command line's endpoint; choose another name")
    path = path_of(data_dir, profile.name)
    data = {k: v for k, v in profile.to_json().items() if v not in (None, {})}
    if profile.key_env is None:
        data["key_env"] = None
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return path


def remove(data_dir: Path, name: str) -> None:
    path = path_of(data_dir, name)
    if not path.is_file():
        raise LwError(f"no provider profile named {name!r}", code="no_profile", expected="lw provider list")
    path.unlink()


def names(data_dir: Path) -> list[str]:
    """Every profile's name, sorted (files whose name is not a profile name are skipped)."""
    base = folder(data_dir)
    if not base.is_dir():
        return []
    return sorted(p.stem for p in base.glob("*.yaml") if NAME.match(p.stem))


def presets_of(kernel: Any) -> dict[str, Preset]:
    """The provider presets the kernel's enabled plugins offer: name -> :class:`Preset` (the
    first by trust order for a name offered twice). A preset whose name cannot name a profile is
    left out. ``bundled`` is the kernel's word on the offering plugin (never the plugin's)."""
    out: dict[str, Preset] = {}
    for entry in kernel.provider_presets.entries():
        if NAME.match(entry.key):
            try:
                bundled = bool(kernel.plugin(entry.plugin_id).bundled)
            except KeyError:
                bundled = False
            out[entry.key] = Preset(path=Path(entry.value.path), plugin=entry.plugin_id, bundled=bundled)
    return out
