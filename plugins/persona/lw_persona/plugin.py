"""Hook implementations of the persona plugin. Light: nothing heavy is imported here."""

from __future__ import annotations

from typing import Any

from lwcore.api import CommandRef, Importer, PromptSegment, SchemaRef, TurnContext, hookimpl

SLOTS = {
    "persona-prefix": ("system", -1000),
    "thinking-language": ("system", 900),
    "persona-reflex": ("system", 950),
    "persona-suffix": ("suffix", 1000),
}


@hookimpl
def lw_prompt_segments(turn: TurnContext, ctx: Any) -> list[PromptSegment]:
    """The three whale-persona segments (empty ones are dropped by the kernel).

    Reads ``turn.model``/``turn.tier``/``turn.cwd``, ``turn.config["persona"]`` (a config
    path: a room's ``config: {persona: …}``), ``turn.actor_name`` (the member acting this turn:
    fills ``{{user}}``) and ``turn.player_input`` (what they say, for the optional reflex
    rules); ``turn.extra`` may carry ``persona_inbox`` (an inbox path) and ``persona_capture``
    (the session's capture switch). Files are found through :class:`lw_persona.places.Places`
    (``$DSH_HOME``, else the kernel's data dir).
    """
    from lw_persona.places import Places
    from lw_persona.render import render_segments, tier_of

    extra = turn.extra or {}
    places = Places.for_context(ctx)
    capture = extra.get("persona_capture")
    actor = turn.actor_name
    out = render_segments(
        turn.config.get("persona"),
        extra.get("persona_inbox"),
        model=turn.model,
        tier=turn.tier,
        cwd=str(turn.cwd) if turn.cwd is not None else None,
        capture=None if capture is None else bool(capture),
        places=places,
        user=actor if isinstance(actor, str) and actor else None,
    )
    texts = {name: out[name] for name in ("persona-prefix", "thinking-language", "persona-suffix")}
    if turn.player_input:
        from lw_persona.reflex import reflex_segment

        texts["persona-reflex"] = reflex_segment(turn.player_input, tier_of(turn.model, turn.tier), places)
    return [PromptSegment(name=n, text=t, slot=SLOTS[n][0], order=SLOTS[n][1]) for n, t in texts.items() if t]


@hookimpl
def lw_diagnostics(kernel: Any, ctx: Any) -> list[str]:
    """For ``lw doctor``: where the config is and, when it cannot be used, why (located) --
    the segments then render empty (§2.6), so a persona that vanished is explained here; the
    same for the reflex rules."""
    from lw_persona import config as cfgmod
    from lw_persona.places import Places
    from lw_persona.reflex import load_rules

    places = Places.for_context(ctx)
    problem = cfgmod.problem(places.config)
    if problem is not None:
        lines = [f"config cannot be used, so the persona segments render empty: {problem}"]
    elif places.config.exists():
        lines = [f"config: {places.config}"]
    else:
        lines = [f"not configured (no {places.config}): no persona segments"]
    rules = load_rules(places)
    if rules.error:
        lines.append(f"reflex rules cannot be used, so none fire: {rules.error}")
    return lines


@hookimpl
def lw_importers(register: Any) -> None:
    register(Importer(
        id="persona-preset",
        sniff="lw_persona.importers:sniff_preset",
        load="lw_persona.importers:load_preset",
        description={"en": "whale-persona preset card (whale-persona-preset/1)", "zh": "whale-persona 预设卡"},
        extensions=(".json",),
    ))
    register(Importer(
        id="persona-sillytavern",
        sniff="lw_persona.importers:sniff_card",
        load="lw_persona.importers:load_card",
        description={"en": "SillyTavern character card (V1/V2/V3 JSON, PNG, CHARX; read only) as a persona preset",
                     "zh": "酒馆角色卡（V1/V2/V3 JSON、PNG、CHARX，只读）转人设预设"},
        extensions=(".json", ".png", ".charx"),
    ))


@hookimpl
def lw_schemas(register: Any) -> None:
    register(SchemaRef("persona-config", "lw_persona.models:PersonaConfig", "whale-persona config.json"))
    register(SchemaRef("persona-preset", "lw_persona.models:PresetCard", "whale-persona-preset/1 card"))


@hookimpl
def lw_cli(register: Any) -> None:
    register(CommandRef("persona", "lw_persona.cli:persona",
                        "whale-persona v1: persona segments, presets, SillyTavern cards, memory inbox."))
