"""Dungeons & Dragons 5th edition for Loreweaver: the ``dnd5e`` rulepack (pure data)."""
