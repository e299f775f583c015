"""The read-only EJS subset, its closed expression language, and SillyTavern's macros."""
