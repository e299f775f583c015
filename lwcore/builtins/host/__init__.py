"""The built-in host plugin (see ``lwcore.builtins``)."""
