"""The turn pipeline: a room on disk, module variables, turn compilation and reply application.

Import the pieces from their modules (``lwcore.turn.pipeline``, ``lwcore.turn.room`` ...);
this package module stays empty so importing it costs nothing. See ``README.md`` here.
"""
