"""The kernel's own features, as plugins with manifests (datasette's default plugins are
the model).

Each folder here is one built-in plugin: an ``lw-plugin.toml`` read like any other manifest
and a ``plugin`` module whose ``@hookimpl`` functions contribute through the ordinary hooks.

- ``host``: ``lw plugins``, ``lw doctor``, ``lw schema``; the plugin-manifest schema.
- ``rules``: ``lw roll``, ``lw check``, ``lw rulepack``, ``lw cmd``; the rulepack and sheet
  schemas; rulepack problems in ``lw doctor``.
- ``turn``: ``lw turn``; the variable and check tools; the room schema.
- ``pack``: ``lw pack build|verify|install|list|remove``, the room's ``.pack install``, the
  ``prep`` content kind's checks, the pack manifest schemas (``lwcore.pack`` does the work).

Built-ins rank before every other plugin (their contributions win a name clash), show in
``lw plugins list`` with source ``builtin``, and can be disabled like any plugin: a host
passing ``disabled={"turn"}`` brings its own turn loop. The list of built-ins is
``lwcore.plugins.BUILTIN_IDS`` (the host layer knows them by name, never by import).
"""

from __future__ import annotations
