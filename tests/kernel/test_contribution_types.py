"""The contribution types behave as ``@dataclass(frozen=True)`` would (``lwcore.contributions.
contribution`` shares one repr/eq/hash instead of compiling three per class)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from lwcore import contributions
from lwcore.contributions import Computer, PromptSegment, StagedWrites, Viewer

FROZEN = [cls for _, cls in inspect.getmembers(contributions, inspect.isclass)
          if cls.__module__ == contributions.__name__ and dataclasses.is_dataclass(cls) and cls is not StagedWrites]


def reference(cls: type) -> type:
    """The same fields, made by the standard library's ``@dataclass(frozen=True)``."""
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, namespace={"__qualname__": cls.__qualname__})


def test_every_frozen_contribution_type_is_covered() -> None:
    assert len(FROZEN) >= 25 and all(cls.__dataclass_params__.frozen for cls in FROZEN)


@pytest.mark.parametrize("values", [
    (PromptSegment, ("seg", "text")),
    (Computer, ("grit", len, "about grit")),
    (Viewer, ("p1", "zh-CN", False)),
])
def test_repr_eq_hash_and_immutability_match_a_frozen_dataclass(values) -> None:
    cls, args = values
    ref = reference(cls)
    ours, theirs = cls(*args), ref(*args)
    assert repr(ours) == repr(theirs)
    assert ours == cls(*args) and hash(ours) == hash(cls(*args)) and hash(ours) == hash(theirs)
    changed = dataclasses.replace(ours, **{dataclasses.fields(cls)[0].name: "other"})
    assert changed != ours and (changed == ours) is (changed == ours) is False
    assert ours != theirs  # another class, as two dataclasses of different classes are never equal
    assert ours.__eq__(object()) is NotImplemented
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours.name = "x"  # type: ignore[misc]
    assert {ours, cls(*args)} == {ours}
