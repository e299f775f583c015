"""The built-in ``pack`` plugin: ``lw pack``, ``.pack install``, the ``prep`` kind's checks."""
