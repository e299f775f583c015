"""The names of the subsystem kinds shipped with the kernel (a leaf module: reading the list
imports no kind).

Each is ``KIND`` of ``lwcore.rules.kinds.<name>``; the built-in ``rules`` plugin registers them
through the ``subsystem_kinds`` hook family by reference, and a kernel-less engine loads them
with :func:`lwcore.rules.kinds.bundled_kinds`.
"""

BUNDLED_KINDS = ("advantage", "growth", "luck", "opposed", "push", "sanity", "table", "tally")
