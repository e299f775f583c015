"""Module UI panels for Loreweaver (the ``panels`` plugin).

A pack dresses the table (contract layer D, M15 and M19: docs/specs.md): tier-0 blocks (:mod:`lwcore.ui.blocks`),
declarative panels in ``ui/panels.yaml`` (:mod:`lw_panels.model`, loaded by
:mod:`lw_panels.load`), sandboxed tier-2 views, and a presentation kit
(:mod:`lw_panels.presentation`). Who sees what is decided in :mod:`lw_panels.projection`
and :mod:`lw_panels.manifest`, from the room's projections only; :mod:`lw_panels.text` and
:mod:`lw_panels.html` draw what was resolved; ``lw serve`` (:mod:`lw_panels.serve`) is a
small local web table.
"""

__version__ = "0.1.0"
