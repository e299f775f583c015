"""The built-in rules plugin (see ``lwcore.builtins``)."""
