"""Call of Cthulhu 7th edition for Loreweaver: the ``coc7`` rulepack and its computers."""
