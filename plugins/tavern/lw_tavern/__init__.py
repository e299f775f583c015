"""SillyTavern material for Loreweaver (the ``tavern`` plugin).

Pure functions over data: the world book engine (:mod:`lw_tavern.worldbook`), completion
presets (:mod:`lw_tavern.preset`), MVU variables (:mod:`lw_tavern.mvu`), the read-only EJS
subset and macros (:mod:`lw_tavern.ejs`), card splitting (:mod:`lw_tavern.card_split`) and the
native card format (:mod:`lw_tavern.lorecard`). State goes in and comes out; nothing here
touches a room.
"""

__version__ = "0.1.0"
