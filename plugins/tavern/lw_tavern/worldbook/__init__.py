"""World books with SillyTavern's activation semantics (model, loader, engine, timed effects)."""
