"""Hook implementations of the dnd5e plugin.

Everything of the system is data (``rulepacks/dnd5e.yaml``), read by the kernel because the
manifest provides ``rulepacks``. The module exists so the entry point has something to load;
it registers nothing and imports nothing.
"""

from __future__ import annotations
