"""Read-only registries of contributions, each entry knowing which plugin made it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One contribution: its key, the value, and the id of the plugin that made it."""

    key: str
    value: T
    plugin_id: str


@dataclass(frozen=True)
class Conflict:
    """Two plugins contributed the same key; ``winner`` kept it, ``loser`` was not used."""

    registry: str
    key: str
    winner: str
    loser: str

    def __str__(self) -> str:
        return f"{self.registry} {self.key!r}: {self.winner} wins over {self.loser}"


class Registry(Mapping[str, T]):
    """A read-only mapping ``key -> contribution``.

    Built from entries already in priority order (kernel, bundled plugins, then plugin id);
    the first entry for a key wins and every later one is kept in :attr:`conflicts`.
    """

    def __init__(self, name: str, entries: Iterable[Entry[T]]) -> None:
        self.name = name
        winners: dict[str, Entry[T]] = {}
        conflicts: list[Conflict] = []
        for entry in entries:
            if entry.key in winners:
                conflicts.append(Conflict(name, entry.key, winners[entry.key].plugin_id, entry.plugin_id))
            else:
                winners[entry.key] = entry
        self._winners = winners
        self.conflicts: tuple[Conflict, ...] = tuple(conflicts)

    def __getitem__(self, key: str) -> T:
        return self._winners[key].value

    def __iter__(self) -> Iterator[str]:
        return iter(self._winners)

    def __len__(self) -> int:
        return len(self._winners)

    def origin(self, key: str) -> str:
        """The id of the plugin whose contribution is used for ``key``."""
        return self._winners[key].plugin_id

    def entries(self) -> tuple[Entry[T], ...]:
        """The winning entries, in priority order."""
        return tuple(self._winners.values())

    def by_plugin(self, plugin_id: str) -> tuple[str, ...]:
        """Keys whose winning contribution came from ``plugin_id``."""
        return tuple(k for k, e in self._winners.items() if e.plugin_id == plugin_id)

    def __repr__(self) -> str:
        return f"Registry({self.name!r}, {sorted(self._winners)!r})"
