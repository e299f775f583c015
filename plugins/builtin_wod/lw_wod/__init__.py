"""World of Darkness for Loreweaver: the ``wod`` rulepack and its pool computer."""
