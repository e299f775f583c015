"""Story Repo v7: one book = one git repository (spec: story-repo-v7.zh.md).

Modules: ``dialect`` (front matter read/write, fool-proof dialect, repair cards), ``gitops``
(git through subprocess), ``repo`` (the book's layout and readers), ``board`` (the computed
board), ``txn`` (the chapter transaction), ``atomic`` (journaled all-or-nothing apply + commit),
``checks`` (mechanical checks), ``fingerprint`` (style fingerprints), ``cache`` (the derived
SQLite index and queries), ``flow`` (the state machine and the other transactions), ``edits``
(structured changes shared by the CLI and the model tools), ``tools`` (pydantic argument
models and handlers), ``prompts`` (model-step prompts), ``models`` (published schemas),
``migrate`` (v6 -> v7), ``cli`` (``lw story``), ``fixtures``/``samples`` (generated books and
sample content for tests and benchmarks).
"""

SPEC_VERSION = "7.0"
