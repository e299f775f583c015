"""whale-persona format v1 for Loreweaver (the ``persona`` plugin).

Pure-Python API (no pydantic needed):

- :func:`lw_persona.render.render_segments` -- the three segments of one turn, from the files;
- :mod:`lw_persona.config` -- locating, reading and patching ``config.json``;
- :mod:`lw_persona.inbox` -- the append-only memory inbox (model-facing and human APIs);
- :mod:`lw_persona.presets` / :mod:`lw_persona.tavern` -- preset cards and SillyTavern cards.
"""

__version__ = "0.1.0"
