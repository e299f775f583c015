"""The HTML renderer: tier-0 blocks, panels, and a whole self-contained page per viewer.

Everything is escaped -- markup characters as entities, and every code point that is no text
(:data:`lwcore.io.speech.NOT_TEXT`: control characters, lone surrogates, noncharacters,
bidirectional overrides, which what a member says may never hold but an older room may) as
U+FFFD --; nothing is fetched from anywhere but the page's own server (no CDN,
no web fonts): styles and the small script are inline and allowed by their SHA-256 in the
page's Content-Security-Policy (:func:`page_policy`). Gauges are native ``<meter>``
elements, so the page needs no inline style attributes.

Pictures are addressed by content hash: ``asset_base + hash`` (the web table serves only the
files of panels in that viewer's manifest), or a ``data:`` URL from ``inline_assets`` for a
standalone page (``lw panels render --format html``). A tier-2 panel is an ``<iframe>``
with ``sandbox="allow-scripts"`` -- never ``allow-same-origin``, so its page has an opaque
origin and cannot read the table's page or its cookies -- whose own response carries a
policy with ``connect-src 'none'`` (:func:`frame_policy`); its text fallback sits beside it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from lw_panels.compile import Drawn, Shared, shown
from lw_panels.messages import MESSAGES
from lwcore.api import NOT_TEXT, has_not_text, is_command

FRAME_SANDBOX = "allow-scripts"
"""The sandbox of a tier-2 frame: scripts run, nothing else (no same origin, no forms, no
popups, no top navigation)."""

STYLE = """
:root{--ink:#1d2430;--paper:#f6f1e7;--line:#d8cfbd;--muted:#6b6357;--accent:#2f5d7c;--warn:#9a6a00;--danger:#a12d2d}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,"Noto Sans CJK SC","PingFang SC",sans-serif;color:var(--ink);background:var(--paper)}
header{padding:.6rem 1rem;border-bottom:1px solid var(--line);display:flex;gap:1rem;align-items:baseline}
header h1{font-size:1.15rem;margin:0}
header .who{color:var(--muted)}
header .keeper{color:var(--danger);font-weight:600}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 20rem;gap:1rem;padding:1rem}
@media (max-width:800px){.layout{grid-template-columns:1fr}}
section.box{background:#fffdf8;border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin-bottom:1rem}
h2{font-size:.95rem;margin:.2rem 0 .5rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
h3{font-size:1rem;margin:.1rem 0 .4rem}
.lw-story p{margin:.25rem 0}
.lw-story .keeper-line{font-style:italic}
.lw-story .event{color:var(--muted);font-size:.9em}
.lw-story .event.dice{color:var(--ink);font-size:1em;font-weight:600;border-left:3px solid var(--accent);padding:.1rem .5rem;background:#eef3f7;border-radius:0 4px 4px 0}
#lw-status{margin-left:auto;font-weight:600;color:var(--accent)}
.lw-story .secret,.lw-vars .secret{color:var(--danger)}
.lw-recap{border-left:3px solid var(--line);padding-left:.6rem;color:var(--muted)}
.lw-vars dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .8rem;margin:0}
.lw-vars dt{color:var(--muted)}
.lw-vars dd{margin:0}
.lw-sheet h3{margin:.1rem 0}
.lw-sheet .tagline{margin:0 0 .4rem;color:var(--muted)}
.lw-sheet .lw-bar{margin:.25rem 0}
.lw-panel{background:#fffdf8;border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin-bottom:.8rem}
.lw-block{margin:.3rem 0}
.lw-meter{display:grid;grid-template-columns:1fr auto;gap:0 .5rem;align-items:center}
.lw-meter meter{grid-column:1/3;width:100%;height:.8rem}
.lw-stat{display:flex;justify-content:space-between;gap:.5rem}
.lw-stat .label{color:var(--muted)}
.lw-badge{display:inline-block;padding:.05rem .5rem;border-radius:1rem;border:1px solid var(--line);font-size:.85em}
.lw-badge.warn{border-color:var(--warn);color:var(--warn)}
.lw-badge.danger{border-color:var(--danger);color:var(--danger)}
.lw-badge.info{border-color:var(--accent);color:var(--accent)}
.lw-text.quote{border-left:3px solid var(--line);padding-left:.6rem;font-style:italic}
.lw-text.warning{color:var(--warn)}
.lw-text{white-space:pre-wrap}
hr.lw-divider{border:0;border-top:1px solid var(--line)}
.lw-choices button{margin:.15rem .3rem .15rem 0}
figure.lw-image{margin:.3rem 0}
figure.lw-image img{max-width:100%;height:auto;border-radius:4px}
figcaption{color:var(--muted);font-size:.9em}
iframe.lw-frame{width:100%;min-height:16rem;border:1px solid var(--line);border-radius:4px;background:#fff}
.lw-slot-tray{display:flex;flex-wrap:wrap;gap:.8rem}
.lw-slot-tray .lw-panel{flex:1 1 16rem}
details.lw-modal>summary{cursor:pointer;font-weight:600}
form.lw-act{display:flex;gap:.5rem}
form.lw-act textarea{flex:1;min-height:2.6rem;font:inherit;padding:.4rem}
button{font:inherit;padding:.3rem .8rem;border:1px solid var(--accent);background:#fff;color:var(--accent);border-radius:4px;cursor:pointer}
#lw-note{min-height:1.2rem;color:var(--muted);white-space:pre-wrap}
#lw-note.bad{color:var(--danger)}
.lw-empty{color:var(--muted)}
.lw-story .edited{color:var(--muted);font-size:.85em;font-style:normal}
.lw-controls .row{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.3rem 0}
.lw-controls input{width:5rem;font:inherit;padding:.2rem}
.lw-seats input{width:16rem;max-width:100%}
.lw-controls textarea{width:100%;min-height:3rem;font:inherit;padding:.3rem}
.lw-controls ol{margin:.2rem 0;padding-left:1.4rem}
.lw-controls li.chosen{font-weight:600}
.lw-seats .state{color:var(--muted)}
.lw-pregens{padding-left:1.2rem}
.lw-pregens .blurb{color:var(--muted);font-size:.9em}
.lw-link{word-break:break-all;font-family:monospace}
.lw-link:empty{display:none}
.lw-choices code.lw-cmd{font-size:.85em;opacity:.8}
.lw-confirm{border:1px solid var(--warn);border-radius:4px;padding:.4rem .6rem;margin-top:.4rem}
.lw-confirm blockquote{margin:.3rem 0;white-space:pre-wrap}
.lw-stream{white-space:pre-wrap;font-style:italic;color:var(--muted)}
.lw-stream:empty{display:none}
.lw-stage:empty{display:none}
.lw-stage .stage{margin:.5rem 0}
.stage.title_card{text-align:center;padding:1rem .5rem;border-top:2px solid var(--ink);border-bottom:2px solid var(--ink)}
.stage.title_card .act{color:var(--muted);letter-spacing:.2em;text-transform:uppercase;font-size:.85em}
.stage.title_card .title{font-size:1.5rem;font-weight:600}
.stage.letter{background:#fbf6ea;border:1px solid var(--line);padding:.8rem 1rem;font-family:serif;white-space:pre-wrap}
.stage.clipping{background:#f1ede4;border:1px dashed var(--muted);padding:.6rem .8rem;font-family:serif}
.stage.clipping .headline{font-weight:700;font-size:1.1rem}
.stage .meta{color:var(--muted);font-size:.85em}
.stage.map_pin svg{width:100%;max-width:32rem;height:auto}
.stage.map_pin circle{fill:var(--danger);stroke:#fff;stroke-width:.6}
.stage.audio audio{width:100%}
""".strip()

SCRIPT = r"""
(() => {
  "use strict";
  const body = document.body;
  const base = body.dataset.base;
  const note = (text, bad) => {
    const el = document.getElementById("lw-note");
    el.textContent = text || "";
    el.className = bad ? "bad" : "";
  };
  const post = (path, data) => fetch(base + path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(data),
  }).then(r => r.json().then(j => { if (!r.ok) throw new Error(j.error || r.statusText); return j; }));
  const frames = () => Array.from(document.querySelectorAll("iframe.lw-frame"));
  let frameState = {};
  let pending = null;  // a scripted panel's intent the viewer has not confirmed yet
  let asking = false;  // a panel's intent is on its way (its answer not yet read)
  const sendFrame = (frame) => {
    const state = frameState[frame.dataset.panel];
    if (state && frame.contentWindow) frame.contentWindow.postMessage({type: "lw-state", ...state}, "*");
  };
  const panelIds = (root) => Array.from(root.querySelectorAll("section.lw-panel")).map(s => s.id + ":" + s.dataset.tier).join(",");
  function applyPanels(html) {
    const target = document.getElementById("lw-panels");
    const fresh = document.createElement("div");
    fresh.innerHTML = html;
    if (panelIds(fresh) !== panelIds(target)) { target.innerHTML = html; return; }
    for (const section of fresh.querySelectorAll("section.lw-panel")) {
      const old = document.getElementById(section.id);
      const body = section.querySelector(".lw-body");
      if (old && body) old.querySelector(".lw-body").replaceWith(body);
    }
  }
  function apply(update) {
    for (const key of ["story", "sheet", "vars", "ui", "stage", "controls", "status", "seats", "pregens"]) {
      const el = document.getElementById("lw-" + key);
      if (el && typeof update[key] === "string") el.innerHTML = update[key];
    }
    if (typeof update.panels === "string") applyPanels(update.panels);
    frameState = update.frames || {};
    frames().forEach(sendFrame);
    body.dataset.version = String(update.version);
  }
  window.addEventListener("message", (event) => {
    const frame = frames().find(f => f.contentWindow === event.source);
    const data = event.data;
    if (!frame || !data || typeof data !== "object") return;
    if (data.type === "lw-ready") { sendFrame(frame); return; }
    if (data.type === "panel_intent") {
      // only just after the viewer clicked or typed (in the frame: activation reaches its page too);
      // a script sending on its own acts for nobody
      if (navigator.userActivation && !navigator.userActivation.isActive) return;
      // one at a time: while one is on its way or its words wait in the box, a frame's others are
      // dropped -- the viewer's press on Send activates the page, and an answer arriving before
      // the click would otherwise put other words in the box, and in what Send sends
      if (asking || pending) return;
      asking = true;
      const intent = {panel: frame.dataset.panel, kind: String(data.kind), value: String(data.value)};
      post("intent", intent).then(r => {
        asking = false;
        if (typeof r.confirm !== "string") { note(r.text); return; }
        // a scripted panel's words: said only once the viewer has read them and clicked here, on the page
        pending = intent;
        document.getElementById("lw-confirm-text").textContent = r.confirm;
        document.getElementById("lw-confirm").hidden = false;
      }, e => { asking = false; note(e.message, true); });
    }
  });
  document.addEventListener("click", (event) => {
    const confirm = event.target.closest("[data-confirm]");
    if (confirm) {
      const intent = pending;
      pending = null;
      document.getElementById("lw-confirm").hidden = true;
      if (intent && confirm.dataset.confirm === "send") {
        note("…");
        post("intent", {...intent, confirmed: true}).then(r => note(r.text), e => note(e.message, true));
      }
      return;
    }
    const seat = event.target.closest("[data-seat]");
    if (seat) {
      // rotating or revoking ends a player's link and sessions: one mis-click must not do it
      if (seat.dataset.ask && !window.confirm(seat.dataset.ask)) return;
      // a new link is in this answer only, shown here once, to the keeper who asked
      const data = {action: seat.dataset.seat};
      if (seat.dataset.member) data.member = seat.dataset.member;
      if (data.action === "add") data.name = document.getElementById("lw-seat-name").value;
      const shown = document.getElementById("lw-seat-link");
      shown.textContent = "";
      note("…");
      post("seats", data).then(r => { note(r.text); shown.textContent = r.link || ""; }, e => note(e.message, true));
      return;
    }
    const control = event.target.closest("[data-control]");
    if (control) {
      const data = {action: control.dataset.control};
      if (control.dataset.number) data.number = Number(control.dataset.number);
      if (data.action === "rewind") data.turn = Number(document.getElementById("lw-rewind-turn").value);
      if (data.action === "edit") data.text = document.getElementById("lw-edit-text").value;
      note("…");
      post("control", data).then(r => note(r.text), e => note(e.message, true));
      return;
    }
    const button = event.target.closest("[data-intent]");
    if (!button) return;
    const panel = button.dataset.panel;
    const request = panel ? post("intent", {panel, kind: button.dataset.intent, value: button.dataset.value})
                          : post("say", {text: button.dataset.value});
    request.then(r => note(r.text), e => note(e.message, true));
  });
  const form = document.getElementById("lw-act");
  if (form) form.addEventListener("submit", (event) => {
    event.preventDefault();
    const box = form.querySelector("textarea");
    const text = box.value.trim();
    if (!text) return;
    note("…");
    post("say", {text}).then(r => { box.value = ""; note(r.in_story ? "" : r.text); }, e => note(e.message, true));
  });
  fetch(base + "state").then(r => r.json()).then(apply);
  const events = new EventSource(base + "events");
  events.addEventListener("update", (event) => {
    const live = document.getElementById("lw-stream");
    if (live) live.textContent = "";
    apply(JSON.parse(event.data));
  });
  events.addEventListener("status", (event) => {
    const said = JSON.parse(event.data);
    const el = document.getElementById("lw-status");
    if (el && typeof said.status === "string") el.innerHTML = said.status;
  });
  events.addEventListener("delta", (event) => {
    const live = document.getElementById("lw-stream");
    if (live) live.textContent += event.data;
  });
  events.addEventListener("error", () => {
    // a stream cut (a restart) is reopened by the browser; one refused (a changed or revoked
    // link ended this session) is not: say why here instead of going quiet
    if (events.readyState !== EventSource.CLOSED) return;
    fetch(base + "state").then(r => {
      if (!r.ok) r.json().then(j => note(j.error || r.statusText, true), () => note(r.statusText, true));
    }, () => {});
  });
})();
""".strip()


def digest(text: str) -> str:
    """``'sha256-…'``: a CSP source allowing exactly this inline text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page_policy(*, live: bool) -> str:
    """The Content-Security-Policy of a table page (``live``: served by ``lw serve``)."""
    if not live:
        return f"default-src 'none'; style-src {digest(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'"
    return (f"default-src 'none'; script-src {digest(SCRIPT)}; style-src {digest(STYLE)}; img-src 'self' data:; "
            "media-src 'self'; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def frame_policy(asset_base: str) -> str:
    """The policy a tier-2 panel's page is served with: its own declared files (under
    ``asset_base``, by path) and nothing else -- no fetch, no sockets, no forms, no plugins --
    and sandboxed to scripts only, even when opened on its own."""
    return (f"default-src 'none'; script-src {asset_base}; style-src {asset_base}; img-src {asset_base} data:; "
            f"font-src {asset_base}; media-src {asset_base}; connect-src 'none'; form-action 'none'; "
            f"base-uri 'none'; frame-ancestors 'self'; sandbox {FRAME_SANDBOX}")


def _e(value: Any) -> str:
    kind = value.__class__
    if kind is int:
        return str(value)
    text = escape(value if kind is str else shown(value), quote=True)
    return NOT_TEXT.sub("\ufffd", text) if has_not_text(text) else text


def _asset(panel: Mapping[str, Any], sha: str | None) -> str | None:
    if not sha:
        return None
    inline = panel.get("inline_assets")
    if inline is not None:
        return inline.get(sha)
    base = panel.get("asset_base")
    return f"{base}{sha}" if base is not None else None


def _meter(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    value, top = _e(block["value"]), _e(block["max"])
    return (f'<div class="lw-block lw-meter"><span class="label">{_e(block["label"])}</span>'
            f'<span class="value">{value}/{top}</span>'
            f'<meter min="{_e(block["min"])}" max="{top}" value="{value}">{value}</meter></div>')


def _stat(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    return (f'<div class="lw-block lw-stat"><span class="label">{_e(block["label"])}</span>'
            f'<span class="value">{_e(block["value"])}</span></div>')


def _badge(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    tone = f' {block["tone"]}' if block.get("tone") in ("info", "warn", "danger") else ""
    return f'<div class="lw-block"><span class="lw-badge{tone}">{_e(block["label"])}</span></div>'


def _text(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    style = f' {block["style"]}' if block.get("style") in ("quote", "warning") else ""
    return f'<div class="lw-block lw-text{style}">{_e(block["text"])}</div>'


def _divider(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    return '<hr class="lw-block lw-divider">'


def _choices(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    target = _e(panel.get("id") or "") if panel.get("kind") == "panel" else ""
    prompt = f'<div class="prompt">{_e(block["prompt"])}</div>' if block.get("prompt") else ""
    # a choice that sends a room command shows it (a label is the author's word for it: "Roll 1d6"
    # could send ".var expose *", and on the keeper's page it would run as the keeper's)
    buttons = "".join(
        f'<button type="button" data-intent="choice" data-panel="{target}" data-value="{_e(o["input"])}">'
        f'{_e(o["label"])}'
        + (f' <code class="lw-cmd">{_e(o["input"].strip())}</code>' if is_command(o["input"].strip()) else "")
        + '</button>' for o in block["options"])
    return f'<div class="lw-block lw-choices">{prompt}{buttons}</div>'


def _image(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    src = _asset(panel, block.get("hash"))
    caption = block.get("caption")
    alt = block.get("alt") or caption or ""
    img = f'<img src="{_e(src)}" alt="{_e(alt)}">' if src else ""
    cap = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
    return f'<figure class="lw-block lw-image">{img}{cap}</figure>' if img or cap else ""


_KINDS = {"meter": _meter, "stat": _stat, "badge": _badge, "text": _text, "divider": _divider,
          "choices": _choices, "image": _image}
_DRAWN = Drawn()


def _draw(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    draw = _KINDS.get(block.get("kind"))  # type: ignore[arg-type]  # a validated block's kind is a str; a missing one finds no drawer
    return draw(block, panel) if draw is not None else ""


def block_html(block: Mapping[str, Any], panel: Mapping[str, Any]) -> str:
    """One resolved block (``panel`` gives the intent target and where pictures are)."""
    if block.__class__ is not Shared or "inline_assets" in panel:
        return _draw(block, panel)
    return _DRAWN.get(block, (panel.get("id"), panel.get("asset_base")), lambda: _draw(block, panel))


def blocks_html(blocks: Iterable[Mapping[str, Any]], panel: Mapping[str, Any]) -> str:
    return "".join(block_html(block, panel) for block in blocks)


def panel_html(panel: Mapping[str, Any], locale: str = "en") -> str:
    """A resolved panel as a ``<section>``; a tier-2 one with its frame when the panel says
    where its page is (``frame_base``), else its fallback alone."""
    blocks = panel.get("blocks")
    if "inline_assets" in panel or "payload" in panel:
        return _panel_html(panel, locale)
    key = (locale, panel.get("id"), panel.get("title"), panel.get("asset_base"), panel.get("frame_base"),
           panel.get("scripts_off"))
    return _DRAWN.get(blocks, key, lambda: _panel_html(panel, locale))


def _panel_html(panel: Mapping[str, Any], locale: str) -> str:
    t = MESSAGES.bind(locale)
    panel_id = str(panel.get("id", ""))
    dom_id = "panel-" + "".join(c if c.isalnum() else "-" for c in panel_id)
    body = blocks_html(panel.get("blocks") or (), panel)
    frame = ""
    if panel.get("tier") == 2:
        if panel.get("frame_base") is not None:
            src = f'{panel["frame_base"]}{panel_id}/{panel.get("entry", "")}'
            frame = (f'<iframe class="lw-frame" data-panel="{_e(panel_id)}" sandbox="{FRAME_SANDBOX}" '
                     f'referrerpolicy="no-referrer" loading="lazy" title="{_e(panel.get("title", ""))}" '
                     f'src="{_e(src)}"></iframe>')
            if body:
                body = (f'<details class="lw-fallback"><summary>{_e(t("html.text_version"))}</summary>'
                        f'{body}</details>')
        elif panel.get("fallback_null") and panel.get("scripts_off"):
            body = f'<p class="lw-empty">{_e(t("html.scripts_off"))}</p>'
        elif panel.get("fallback_null"):
            body = f'<p class="lw-empty">{_e(t("html.needs_table"))}</p>'
    if not body and not frame:
        body = f'<p class="lw-empty">{_e(t("html.nothing"))}</p>'
    return (f'<section class="lw-panel" id="{_e(dom_id)}" data-panel="{_e(panel_id)}" data-tier="{_e(panel.get("tier", 1))}">'
            f'<h3>{_e(panel.get("title", ""))}</h3>{frame}<div class="lw-body">{body}</div></section>')


def panels_html(panels: Iterable[Mapping[str, Any]], locale: str = "en") -> str:
    """Panels grouped by slot: sidebar, tray, then modal ones as openable sections."""
    slots: dict[str, list[str]] = {"sidebar": [], "tray": [], "modal": []}
    for panel in panels:
        html = panel_html(panel, locale)
        if panel.get("slot") == "modal":
            html = f'<details class="lw-modal"><summary>{_e(panel.get("title", ""))}</summary>{html}</details>'
        slots.get(str(panel.get("slot")), slots["sidebar"]).append(html)
    return "".join(f'<div class="lw-slot-{name}">{"".join(items)}</div>' for name, items in slots.items() if items)


# --- the table page ----------------------------------------------------------------------------


def story_html(view: Mapping[str, Any]) -> str:
    t = MESSAGES.bind(view["locale"])
    parts = []
    if view.get("recap"):
        parts.append(f'<p class="lw-recap">{_e(t("html.recap"))}{_e(view["recap"])}</p>')
    numbered = bool(view.get("keeper"))  # the keeper rewinds and edits by turn number: each turn's first line says it
    last = None
    for line in view.get("history", ()):
        secret = f' <span class="secret">{_e(t("html.line_keeper"))}</span>' if line.get("keeper_only") else ""
        if numbered and line.get("turn") != last:
            last = line.get("turn")
            parts.append(f'<p class="lw-turn" data-turn="{_e(last)}"><small>{_e(t("html.turn_number", turn=last))}</small></p>')
        if line["role"] == "player":
            who = f"<b>{_e(line.get('actor') or '')}</b>: " if line.get("actor") else ""
            parts.append(f'<p class="player-line">{who}{_e(line["text"])}{secret}</p>')
        elif line["role"] == "keeper":
            edited = f' <span class="edited">{_e(t("html.line_edited"))}</span>' if line.get("edited") else ""
            parts.append(f'<p class="keeper-line">{_e(line["text"])}{edited}{secret}</p>')
        elif line.get("dice"):
            parts.append(f'<p class="event dice">🎲 {_e(line["text"])}{secret}</p>')
        else:
            parts.append(f'<p class="event">· {_e(line["text"])}{secret}</p>')
    if not parts:
        parts.append(f'<p class="lw-empty">{_e(t("html.not_begun"))}</p>')
    return "".join(parts)


def sheet_html(view: Mapping[str, Any]) -> str:
    """The viewer's own character: name, tagline and the rulepack's bars (``sheet`` of the
    view, labelled in the viewer's locale; a bar without a maximum is a plain value). Empty
    for a viewer without a sheet (the keeper)."""
    sheet = view.get("sheet")
    if not sheet:
        return ""
    rows = [f'<h3>{_e(sheet["name"])}</h3>']
    if sheet.get("tagline"):
        rows.append(f'<p class="tagline">{_e(sheet["tagline"])}</p>')
    for bar in sheet.get("resources", ()):
        label, value, top = _e(bar["label"]), bar["value"], bar.get("max")
        if _number(value) and _number(top):
            rows.append(f'<div class="lw-meter lw-bar" data-bar="{_e(bar["id"])}"><span class="label">{label}</span>'
                        f'<span class="value">{_e(value)}/{_e(top)}</span>'
                        f'<meter min="0" max="{_e(top)}" value="{_e(value)}"></meter></div>')
        else:
            rows.append(f'<div class="lw-stat lw-bar" data-bar="{_e(bar["id"])}"><span class="label">{label}</span>'
                        f'<span class="value">{_e(value)}</span></div>')
    return "".join(rows)


def pregens_html(view: Mapping[str, Any]) -> str:
    """The free pregenerated characters a player without a character may claim (``pregens`` of
    the web table's view): each a button sending the room's own ``.pc claim`` with the pregen's
    id (an id names that one pregen, never a number of the list, even when it is all digits;
    the command's rules decide: one who clicks second is told it is taken)."""
    pregens = view.get("pregens")
    if not pregens:
        return ""
    t = MESSAGES.bind(view["locale"])
    rows = "".join(
        f'<li data-pregen="{_e(p["id"])}"><strong>{_e(p["name"])}</strong>'
        + (f' <span class="blurb">{_e(p["blurb"])}</span>' if p.get("blurb") else "")
        + f' <button type="button" data-intent="say" data-value="{_e(".pc claim " + str(p["id"]))}">'
        f'{_e(t("html.pregen_claim"))}</button></li>'
        for p in pregens)
    return f'<p>{_e(t("html.pregens"))}</p><ul class="lw-pregens">{rows}</ul>'


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def vars_html(view: Mapping[str, Any]) -> str:
    t = MESSAGES.bind(view["locale"])
    rows = []
    for var in view.get("variables", ()):
        bound = f" / {_e(var['maximum'])}" if var.get("maximum") is not None else ""
        secret = f' <span class="secret">{_e(t("html.var_keeper"))}</span>' if var.get("keeper_only") else ""
        rows.append(f'<dt>{_e(var["label"])}</dt><dd>{_e(var["text"])}{bound}{secret}</dd>')
    if not rows:
        return f'<p class="lw-empty">{_e(t("html.no_vars"))}</p>'
    return "<dl>" + "".join(rows) + "</dl>"


def ui_html(view: Mapping[str, Any]) -> str:
    """The hooks' blocks of the last turn (``emitUI``)."""
    out = []
    for emission in view.get("ui", ()):
        out.append(f'<div class="lw-ui">{blocks_html(emission["blocks"], emission)}</div>')
    return "".join(out)


def _stage_item(item: Mapping[str, Any], t: Any) -> str:
    form = item.get("form")
    meta = " · ".join(str(item[k]) for k in ("from", "to", "source", "date") if item.get(k))
    meta_html = f'<div class="meta">{_e(meta)}</div>' if meta else ""
    if form == "title_card":
        act = f'<div class="act">{_e(item["act"])}</div>' if item.get("act") else ""
        sub = f'<div class="subtitle">{_e(item["subtitle"])}</div>' if item.get("subtitle") else ""
        return f'<div class="stage title_card">{act}<div class="title">{_e(item.get("title", ""))}</div>{sub}</div>'
    if form == "letter":
        return f'<div class="stage letter">{meta_html}<div class="body">{_e(item.get("body", ""))}</div></div>'
    if form == "clipping":
        return (f'<div class="stage clipping"><div class="headline">{_e(item.get("headline", ""))}</div>{meta_html}'
                f'<div class="body lw-text">{_e(item.get("body", ""))}</div></div>')
    if form == "image":
        src, caption = item.get("src"), item.get("caption")
        img = f'<img src="{_e(src)}" alt="{_e(caption or "")}">' if src else ""
        cap = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
        return f'<figure class="stage image lw-image">{img}{cap}</figure>' if img or cap else ""
    if form == "map_pin":
        label = _e(item.get("label", ""))
        note = f'<div class="meta">{_e(item["note"])}</div>' if item.get("note") else ""
        board = ""
        if item.get("map"):
            pin = (f'<circle cx="{_e(round(float(item["x"]), 2))}" cy="{_e(round(float(item["y"]), 2))}" r="1.8">'
                   f'<title>{label}</title></circle>') if item.get("x") is not None else ""
            board = (f'<svg viewBox="0 0 100 100" preserveAspectRatio="none" role="img" aria-label="{label}">'
                     f'<image href="{_e(item["map"])}" x="0" y="0" width="100" height="100" '
                     f'preserveAspectRatio="none"></image>{pin}</svg>')
        return (f'<div class="stage map_pin">{board}<div><span class="lw-badge info">📍 {_e(t("stage.map_pin"))}: '
                f'{label}</span></div>{note}</div>')
    if form == "audio":
        title = f'<span class="lw-badge info">♪ {_e(item.get("title") or "")}</span> <span class="meta">{_e(item.get("layer") or "")}</span>'
        player = (f'<audio controls preload="none" src="{_e(item["src"])}" data-layer="{_e(item.get("layer") or "")}" '
                  f'data-cue="{_e(item.get("cue") or "")}"></audio>') if item.get("src") else ""
        return f'<div class="stage audio">{title}{player}</div>'
    if form == "text":
        return f'<div class="stage text lw-text">{_e(item.get("text", ""))}</div>'
    return ""


def stage_html(view: Mapping[str, Any]) -> str:
    """What the stage director staged on the last turn, in this viewer's language."""
    items = view.get("stage") or ()
    if not items:
        return ""
    t = MESSAGES.bind(view["locale"])
    body = "".join(_stage_item(item, t) for item in items)
    return f'<section class="box"><h2>{_e(t("html.stage"))}</h2>{body}</section>'


def controls_html(view: Mapping[str, Any]) -> str:
    """The keeper's message controls (only a keeper's view has ``controls``): regenerate and
    stop the last turn, choose among its kept replies, edit its narration, rewind."""
    controls = view.get("controls")
    if not controls:
        return ""
    t = MESSAGES.bind(view["locale"])
    turn = int(controls.get("turn") or 0)
    kept = "".join(
        f'<li class="{"chosen" if a["chosen"] else ""}">{_e(a["narration"][:200])} '
        + ("" if a["chosen"] else f'<button type="button" data-control="choose" data-number="{_e(a["number"])}">'
                                  f'{_e(t("html.control_choose"))}</button>') + "</li>"
        for a in controls.get("alternatives", ()))
    kept = f'<ol>{kept}</ol>' if kept else ""
    return (
        f'<div class="row"><button type="button" data-control="regenerate">{_e(t("html.control_regenerate"))}</button>'
        f'<button type="button" data-control="stop">{_e(t("html.control_stop"))}</button></div>{kept}'
        f'<div class="row"><label for="lw-rewind-turn">{_e(t("html.control_rewind_to"))}</label>'
        f'<input id="lw-rewind-turn" type="number" min="1" max="{turn}" value="{turn}">'
        f'<button type="button" data-control="rewind">{_e(t("html.control_rewind"))}</button></div>'
        f'<textarea id="lw-edit-text" placeholder="{_e(t("html.control_edit_placeholder"))}"></textarea>'
        f'<div class="row"><button type="button" data-control="edit">{_e(t("html.control_edit"))}</button></div>'
    )


def seats_html(view: Mapping[str, Any]) -> str:
    """The keeper's seats (only a keeper's view has ``seats``): each member, the state of their
    link, a button for a new link and one to revoke it (not on the keeper's own seat; each asks
    the keeper first, since it ends that player's link and sessions), and a box to add a player. Links themselves are never in a view."""
    seats = view.get("seats")
    if not seats:
        return ""
    t = MESSAGES.bind(view["locale"])
    rows = []
    for seat in seats:
        state = t({"made": "html.seat_link_made", "revoked": "html.seat_revoked"}.get(seat["link"], "html.seat_no_link"))
        buttons = "" if seat.get("self") else (
            f'<button type="button" data-seat="rotate" data-member="{_e(seat["member"])}" '
            f'data-ask="{_e(t("html.seat_rotate_ask", name=seat["name"]))}">{_e(t("html.seat_rotate"))}</button>'
            f'<button type="button" data-seat="revoke" data-member="{_e(seat["member"])}" '
            f'data-ask="{_e(t("html.seat_revoke_ask", name=seat["name"]))}">{_e(t("html.seat_revoke"))}</button>')
        rows.append(f'<li data-member="{_e(seat["member"])}">{_e(seat["name"])} <small>({_e(seat["member"])})</small> '
                    f'<span class="state">{_e(state)}</span> {buttons}</li>')
    return (f'<ul>{"".join(rows)}</ul><div class="row"><input id="lw-seat-name" maxlength="80" '
            f'placeholder="{_e(t("html.seat_name_placeholder"))}"><button type="button" data-seat="add">'
            f'{_e(t("html.seat_add"))}</button></div>')


def status_html(view: Mapping[str, Any]) -> str:
    """Whose turn it is: the member whose line the keeper is answering now, else the players'
    (``status`` of the web table's view: ``{"turn", "acting"}``; none on a static page)."""
    status = view.get("status")
    if not status:
        return ""
    t = MESSAGES.bind(view["locale"])
    acting = status.get("acting")
    if acting:
        return _e(t("html.status_acting", acting=acting))
    turn = int(status.get("turn") or 0)
    if view.get("keeper"):
        said = t("html.status_players", turn=turn)
    else:
        said = t("html.status_yours", turn=turn)
    return _e(said)


def fragments(view: Mapping[str, Any]) -> dict[str, str]:
    """The parts of a table page a live update replaces."""
    return {"story": story_html(view), "sheet": sheet_html(view), "vars": vars_html(view), "ui": ui_html(view),
            "stage": stage_html(view),
            "panels": panels_html(view.get("panels", ()), view["locale"]), "controls": controls_html(view),
            "status": status_html(view), "seats": seats_html(view), "pregens": pregens_html(view)}


def page_html(view: Mapping[str, Any], *, live: bool, base: str = "") -> str:
    """A whole page for one viewer. ``live``: the web table's page (the script, the box to
    act, updates by server-sent events from ``base``); else a static snapshot."""
    t = MESSAGES.bind(view["locale"])
    parts = fragments(view)
    who = f'<span class="who">{_e(view["name"])}</span>'
    if view.get("keeper"):
        who += f' <span class="keeper">{_e(t("html.keeper_view"))}</span>'
    act = ""
    if live:
        act = (f'<section class="box"><form class="lw-act" id="lw-act"><textarea name="text" '
               f'placeholder="{_e(t("html.act_placeholder"))}">'
               f'</textarea><button type="submit">{_e(t("html.act"))}</button></form><div id="lw-note"></div>'
               f'<div id="lw-confirm" class="lw-confirm" hidden><p>{_e(t("html.confirm_panel"))}</p>'
               f'<blockquote id="lw-confirm-text"></blockquote><button type="button" data-confirm="send">'
               f'{_e(t("html.confirm_send"))}</button> <button type="button" data-confirm="cancel">'
               f'{_e(t("html.confirm_cancel"))}</button></div></section>')
        if view.get("controls"):
            act += (f'<section class="box lw-controls"><h2>{_e(t("html.keeper_controls"))}</h2>'
                    f'<div id="lw-stream" class="lw-stream"></div>'
                    f'<div id="lw-controls">{parts["controls"]}</div></section>')
        if view.get("seats"):
            act += (f'<section class="box lw-controls lw-seats"><h2>{_e(t("html.seats"))}</h2>'
                    f'<div id="lw-seats">{parts["seats"]}</div><p id="lw-seat-link" class="lw-link"></p></section>')
    script = f"<script>{SCRIPT}</script>" if live else ""
    meta = "" if live else f'<meta http-equiv="Content-Security-Policy" content="{_e(page_policy(live=False))}">'
    return (
        f'<!doctype html><html lang="{_e(view["locale"])}"><head><meta charset="utf-8">{meta}'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
        f'<title>{_e(view["title"])} — {_e(view["name"])}</title><style>{STYLE}</style></head>'
        f'<body data-base="{_e(base)}" data-viewer="{_e(view["viewer"])}" data-version="{_e(view.get("version", 0))}">'
        f'<header><h1>{_e(view["title"])}</h1>{who}<span id="lw-status">{parts["status"]}</span></header>'
        f'<div class="layout"><main>'
        f'<section class="box"><h2>{_e(t("html.story"))}</h2><div class="lw-story" id="lw-story">{parts["story"]}</div></section>'
        f'<div id="lw-stage" class="lw-stage">{parts["stage"]}</div>'
        f'<div id="lw-ui">{parts["ui"]}</div>{act}</main><aside>'
        + (f'<section class="box lw-sheet"><h2>{_e(t("html.character"))}</h2><div id="lw-sheet">{parts["sheet"]}</div>'
           + (f'<div id="lw-pregens">{parts["pregens"]}</div>' if live else "") + '</section>'
           if not view.get("keeper") else "") +
        f'<section class="box lw-vars"><h2>{_e(t("html.variables"))}</h2><div id="lw-vars">{parts["vars"]}</div></section>'
        f'<div id="lw-panels">{parts["panels"]}</div></aside></div>{script}</body></html>'
    )


def update_json(view: Mapping[str, Any]) -> str:
    """A live update for one viewer (what the web table sends after a turn)."""
    return json.dumps({**fragments(view), "frames": view.get("frames", {}), "version": view.get("version", 0)},
                      ensure_ascii=False)
