"""``lw provider``: named provider profiles (add, list, show, adopt, remove, test).

Profiles live in the data dir (:mod:`lwcore.profiles`); a key never does: a profile names
the environment variable that holds it. ``lw provider test NAME`` sends one short streamed
request and reports what came back (exit 1 with a located message when anything fails).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

import click

from lwcore.api import (
    CallOptions,
    Delta,
    LwError,
    Profile,
    TextDelta,
    calling,
    cli_state as state,
    confirm,
    echo_json,
    profiles,
    resolve,
)


def _adapters(kernel: Any) -> dict[str, Any]:
    registry = kernel.provider_adapters
    return {protocol: resolve(registry[protocol].adapter) for protocol in registry}


def _implied(adapters: dict[str, Any], endpoint: str) -> str | None:
    path = urlsplit(endpoint).path.rstrip("/")
    claims = [p for p, a in adapters.items() if any(path.endswith(e) for e in getattr(a, "endpoint_paths", ()))]
    return claims[0] if len(claims) == 1 else None


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


@click.group()
def provider() -> None:
    """Provider profiles: how a room reaches its model (the key stays in the environment).

    A room plays on the profile its room.yaml names (profile: NAME), with no further options
    to lw turn; docs/providers.md has a recipe for each common server (Anthropic, OpenAI,
    llama.cpp, vLLM, Ollama, LM Studio, OpenRouter, DeepSeek, Gemini).

    \b
    Examples:
      lw provider add local --endpoint http://localhost:8080/v1/chat/completions --model local --no-key   # online: names a server (lw provider test local sends to it)
      lw provider list
      lw provider list --json
      lw provider adopt ollama --as my-ollama --yes   # keep a copy of a preset (a plugin's must be adopted)
    """


@provider.command("add")
@click.argument("name")
@click.option("--endpoint", required=True, help="The URL requests are POSTed to.")
@click.option("--model", required=True, help="The model name the endpoint serves.")
@click.option("--protocol", default=None,
              help="Wire format (default: the one the endpoint's path implies: …/chat/completions, …/v1/messages, …/responses).")
@click.option("--key-env", default=None, help="Environment variable holding the key (default: the protocol's usual one).")
@click.option("--no-key", is_flag=True, help="The server needs no key (a local server).")
@click.option("--connect-timeout", type=float, default=10.0, show_default=True, help="Seconds to connect.")
@click.option("--read-timeout", type=float, default=60.0, show_default=True,
              help="Seconds to wait for each read (a slow first token included).")
@click.option("--retries", type=int, default=2, show_default=True, help="Retries of a 408/429/5xx/overloaded answer.")
@click.option("--max-tokens", type=int, default=None, help="The reply's token limit (default: the turn's).")
@click.option("--set", "sampling", multiple=True, metavar="OPTION=VALUE",
              help="A sampling option sent with every request (temperature=0.8); repeatable.")
@click.option("--force", is_flag=True, help="Replace a profile of the same name.")
@click.pass_context
def add(ctx: click.Context, name: str, endpoint: str, model: str, protocol: str | None, key_env: str | None,
        no_key: bool, connect_timeout: float, read_timeout: float, retries: int, max_tokens: int | None,
        sampling: tuple[str, ...], force: bool) -> None:
    """Add (or with --force replace) the profile NAME."""
    kernel = state(ctx).kernel
    profiles.check_name(name)
    adapters = _adapters(kernel)
    profiles.check_endpoint(endpoint)
    implied = _implied(adapters, endpoint)
    if protocol is not None and implied is not None and protocol != implied:
        raise LwError(f"--protocol {protocol}, but the endpoint's path is a {implied} path",
                      code="protocol_mismatch", expected=f"--protocol {implied}, or the endpoint {protocol} serves")
    chosen = protocol or implied
    if chosen is None:
        raise LwError(f"cannot tell which protocol {endpoint} speaks", code="no_protocol",
                      expected="--protocol " + " | ".join(sorted(adapters)))
    if chosen not in adapters:
        raise LwError(f"no provider adapter for protocol {chosen!r}", code="no_protocol",
                      expected=" | ".join(sorted(adapters)))
    adapter = adapters[chosen]
    if no_key and key_env:
        raise LwError("give --key-env or --no-key, not both")
    options: dict[str, Any] = {}
    for item in sampling:
        key, eq, raw = item.partition("=")
        if not eq or key not in adapter.sampling_keys:
            raise LwError(f"--set {item.split('=')[0][:40]}: not a sampling option of {chosen}",
                          expected=", ".join(sorted(adapter.sampling_keys)) + " (as OPTION=VALUE)")
        options[key] = _value(raw)
    path = profiles.path_of(kernel.data_dir, name)
    if path.exists() and not force:
        raise LwError(f"a profile named {name!r} exists", expected="--force to replace it, or another name")
    profile = Profile(name=name, protocol=chosen, endpoint=endpoint, model=model,
                      key_env=None if no_key else (key_env or adapter.default_key_env),
                      connect_timeout=connect_timeout, read_timeout=read_timeout, retries=retries,
                      max_tokens=max_tokens, sampling=options)
    profiles.save(kernel.data_dir, profile)
    key = "no key" if profile.key_env is None else f"key from ${profile.key_env}" + (
        "" if os.environ.get(profile.key_env) else f" (not set now: export {profile.key_env}=… before playing)")
    click.echo(f"profile {name}: {chosen} at {endpoint}, model {model}, {key}")


def _origin(preset: Any) -> str:
    """How a listing names where a preset comes from."""
    return f"bundled preset of {preset.plugin}" if preset.bundled else f"preset of plugin {preset.plugin}"


@provider.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """Every profile: protocol, model, endpoint, whether its key is set, and where it comes from
    (the data dir, a bundled preset, or a plugin's preset: adopted or not)."""
    kernel = state(ctx).kernel
    data_dir = kernel.data_dir
    presets = profiles.presets_of(kernel)
    own = profiles.names(data_dir)
    adopted: dict[str, str] = {}  # a data dir profile -> the plugin preset it is a copy of
    rows: list[dict[str, Any]] = []
    for name, preset in sorted(presets.items()):
        if preset.bundled:
            continue
        try:
            copies = profiles.adopted_as(data_dir, profiles.read(preset.path, name))
        except LwError:
            copies = []
        adopted.update({copy: f"{name} of plugin {preset.plugin}" for copy in copies})
    for name in [*own, *sorted(n for n in presets if n not in own)]:
        preset = presets.get(name) if name not in own else None
        if preset is None:
            source: dict[str, Any] = {"source": "data dir"} | (
                {"adopted_from": adopted[name]} if name in adopted else {})
        else:
            source = {"source": _origin(preset), "plugin": preset.plugin, "bundled": preset.bundled}
            if not preset.bundled:
                source["adopted"] = any(v.startswith(f"{name} of ") for v in adopted.values())
        try:
            p = profiles.load(data_dir, name, presets, to_send=False)
        except LwError as exc:
            rows.append({"name": name, **source, "error": str(exc)})
            continue
        rows.append({"name": name, **source, **p.to_json(),
                     "key_set": None if p.key_env is None else bool(os.environ.get(p.key_env))})
    if as_json:
        echo_json(rows)
        return
    if not own:
        click.echo("no provider profiles in the data dir (lw provider add NAME --endpoint URL --model MODEL)"
                   + ("; presets a room can name:" if rows else ""))
    for row in rows:
        if "error" in row:
            click.echo(f"{row['name']}: unreadable: {row['error']}")
            continue
        key = "no key" if row["key_env"] is None else f"${row['key_env']}" + ("" if row["key_set"] else " (not set)")
        if row["source"] == "data dir":
            mark = f" [adopted from {row['adopted_from']}]" if "adopted_from" in row else ""
        elif row["bundled"]:
            mark = f" [{row['source']}]"
        else:
            mark = f" [{row['source']}, " + ("adopted]" if row["adopted"] else
                                              f"not adopted: lw provider adopt {row['name']}]")
        click.echo(f"{row['name']}: {row['protocol']} {row['model']} at {row['endpoint']}, {key}{mark}")


@provider.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show(ctx: click.Context, name: str, as_json: bool) -> None:
    """One profile's fields (never a key: only the variable's name)."""
    kernel = state(ctx).kernel
    profile = profiles.load(kernel.data_dir, name, profiles.presets_of(kernel), to_send=False)
    data = {"name": name, **profile.to_json()}
    if as_json:
        echo_json(data)
        return
    for key, value in data.items():
        click.echo(f"{key}: {json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value}")


@provider.command("adopt")
@click.argument("preset")
@click.option("--as", "as_name", default=None, metavar="NAME", help="Save it under another name (default: the preset's).")
@click.option("--yes", is_flag=True, help="Do not ask (a script that has read what it adopts); needed without a terminal.")
@click.pass_context
def adopt(ctx: click.Context, preset: str, as_name: str | None, yes: bool) -> None:
    """Adopt a plugin's provider preset: show which plugin offers it, the host requests go to and
    the environment variable whose value is sent there, ask, then save it as a profile of the data
    dir. A preset of a plugin not bundled with Loreweaver is played on only once adopted."""
    kernel = state(ctx).kernel
    presets = profiles.presets_of(kernel)
    if preset not in presets:
        raise LwError(f"no provider preset named {preset[:64]!r}", code="no_profile",
                      expected="one of: " + (", ".join(sorted(presets)) or "(none offered)") + " (lw provider list)")
    offered = presets[preset]
    profile = profiles.read(offered.path, preset)
    name = profiles.check_name(as_name or preset)
    if profiles.path_of(kernel.data_dir, name).exists():
        raise LwError(f"a profile named {name!r} exists in the data dir", code="exists",
                      expected=f"--as ANOTHER-NAME, or lw provider remove {name} first")
    key = f"the value of ${profile.key_env}" if profile.key_env else "no key"
    click.echo(f"preset {preset}: offered by plugin {offered.plugin}"
               + (" (bundled with Loreweaver)" if offered.bundled else " (not bundled with Loreweaver)"))
    click.echo(f"  endpoint host: {profiles.host_of(profile)}  ({profile.endpoint})")
    click.echo(f"  sends:         {key}")
    click.echo(f"  protocol {profile.protocol}, model {profile.model}")
    confirm(f"Save it as profile {name!r}, sending {key} to {profiles.host_of(profile)}?", yes=yes, pipe=False)
    profiles.save(kernel.data_dir, replace(profile, name=name))
    click.echo(f"adopted preset {preset} of plugin {offered.plugin} as profile {name}")


@provider.command("remove")
@click.argument("name")
@click.pass_context
def remove(ctx: click.Context, name: str) -> None:
    """Delete the profile NAME (rooms naming it then refuse to play until it is back)."""
    profiles.remove(state(ctx).kernel.data_dir, name)
    click.echo(f"removed profile {name}")


@provider.command("test")
@click.argument("name")
@click.option("--say", default="Reply with one short sentence.", show_default=True, help="What to send.")
@click.option("--stream/--no-stream", default=True, show_default=True, help="Ask for a streamed reply.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def test(ctx: click.Context, name: str, say: str, stream: bool, as_json: bool) -> None:
    """Send one short request on the profile NAME and show the reply and its timing."""
    kernel = state(ctx).kernel
    profile = profiles.load(kernel.data_dir, name, profiles.presets_of(kernel))
    adapters = _adapters(kernel)
    if profile.protocol not in adapters:
        raise LwError(f"no provider adapter for protocol {profile.protocol!r}", code="no_protocol",
                      file=str(profiles.path_of(kernel.data_dir, name)), expected=" | ".join(sorted(adapters)))
    adapter = adapters[profile.protocol]
    request = adapter.request({"messages": [{"role": "user", "content": say}]}, [], model=profile.model,
                              max_tokens=profile.max_tokens or 64)
    first: list[float] = []
    start = time.perf_counter()

    def on_delta(delta: Delta) -> None:
        if isinstance(delta, TextDelta):
            if not first:
                first.append(time.perf_counter() - start)
            if not as_json:
                click.echo(delta.text, nl=False)

    with calling(CallOptions(profile=profile, stream=stream, on_delta=on_delta)):
        reply = adapter.send(request, endpoint=profile.endpoint, api_key=profile.key(), timeout=profile.read_timeout)
    total = time.perf_counter() - start
    parsed = adapter.parse_reply(reply)
    if as_json:
        echo_json({"profile": name, "text": parsed.text, "stop_reason": parsed.stop_reason, "streamed": stream,
                   "first_token_ms": round(first[0] * 1000, 1) if first else None, "total_ms": round(total * 1000, 1)})
        return
    if not first:
        click.echo(parsed.text, nl=False)
    timing = f"first token {first[0] * 1000:.0f} ms, " if first else ""
    click.echo(f"\n{name}: ok ({timing}{total * 1000:.0f} ms in all, stop: {parsed.stop_reason})")
