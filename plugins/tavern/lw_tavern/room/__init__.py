"""The plugin in a room: world book entries and imports as room documents, the world book in
the turn's prompt, reply processing, the MVU tools, and the room commands."""
