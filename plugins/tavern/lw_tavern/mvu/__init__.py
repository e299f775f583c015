"""MVU (MagVarUpdate) variables: declarations, the tree operations, update blocks in replies."""
