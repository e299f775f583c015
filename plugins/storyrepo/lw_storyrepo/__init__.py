"""Story Repo v7: one book = one git repository (spec: story-repo-v7.zh.md).

Modules: ``dialect`` (front matter read/write, fool-proof dialect, repair cards), ``gitops``
(git through subprocess), ``repo`` (the book's files), ``txn`` (the chapter transaction and
its atomic settle), ``checks`` (mechanical checks), ``cache`` (the derived SQLite index),
``flow`` (the state machine and the other transactions), ``edits`` (structured changes shared
by the CLI and the model tools), ``migrate`` (v6 -> v7).
"""

SPEC_VERSION = "7.0"
