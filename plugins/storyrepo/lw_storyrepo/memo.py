"""A memo of what is read from a book once: a value kept while the objects it was built from are the same."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

_Built = TypeVar("_Built")


def per_book(memo: dict[str, Any], key: str, deps: tuple[object, ...], build: Callable[[], _Built]) -> _Built:
    """What ``build()`` returned, kept in ``memo`` (a world's or a check context's ``_by_book``) under ``key`` while
    ``deps`` are the very objects (compared by identity, one by one) it was built with; built again, and kept, once one
    of them is another object (a draft's ``replace`` with its own names). ``()`` keeps it for the book. ``build`` runs
    only then; a value of None is kept like any other. A key is always given deps of the same length (its one caller's:
    a ValueError otherwise)."""
    kept = memo.get(key)
    if kept is not None:
        for was, now in zip(kept[0], deps, strict=True):  # a loop, not any(…): once per paragraph read (A12's pronouns)
            if was is not now:
                break
        else:
            value: _Built = kept[1]
            return value
    value = build()
    memo[key] = (deps, value)
    return value
