"""The built-in turn plugin (see ``lwcore.builtins``)."""
