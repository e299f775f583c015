"""The providers Loreweaver plugin: provider adapters for the turn pipeline."""
