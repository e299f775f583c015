"""Story Repo v7: one book = one git repository (spec: story-repo-v7.zh.md).

The book: ``layout`` (folder and file names), ``sources`` (every read: limits, located encoding
errors), ``dialect`` (front matter read/write in the fool-proof dialect, repair cards),
``markdown`` (sections, tables, 履历), ``repo`` (the book's readers), ``newbook`` (init, all or
nothing), ``volumes`` (which chapter is in which volume, deadlines), ``board`` (the computed board).

The chapter transaction (§8): ``workspace`` (工作区 and the state file), ``card`` (brief, the
decision card, decide), ``contextpack`` (pack), ``drafts``, ``checks`` (mechanical checks),
``review`` (checks stage, lens reviews, summary), ``acceptcard`` (the acceptance card),
``verdict`` (accept / reject / pick), ``settle`` (the settle plan and commit), ``changes``
(设定变更), ``golden`` (金句库 harvest), ``counting``/``fingerprint`` (counted text measures).

Commits: ``gitops`` (git through subprocess), ``atomic`` (journaled all-or-nothing apply +
commit), ``faults`` (fault injection for the atomicity tests).

Around the chapter (§9–§12): ``machine`` (the board state machine, §10), ``repair`` (state 0),
``handedits`` (fix and retcon), ``volume_review``, ``health``, ``whatif``, ``cache`` (the
derived SQLite index and queries), ``edits`` (structured one-sentence edits), ``migrate``
(v6 -> v7). Boundaries: ``cli`` (``lw story``), ``i18n`` and ``clihelp`` (messages and help
in the reader's language), ``plugin`` (hooks), ``toolspecs`` (the one tool
table), ``tools`` (argument models and handlers), ``prompts`` (model-step prompts), ``models``
(published schemas). ``fixtures``/``samples``: generated books and sample content for tests
and benchmarks.
"""

SPEC_VERSION = "7.0"
