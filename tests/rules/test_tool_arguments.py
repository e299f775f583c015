"""What a tool call may give a subsystem kind is the kind's declaration (``tool_arguments``):
the registry merges every kind's into one field list, refuses kinds that disagree on a
field's shape, and :func:`lwcore.rules.tool_calls.run_tool_call` checks a call against the
kind before it rolls. The turn's ``subsystem_check`` model is built from that list alone."""

from __future__ import annotations

import pytest

import lwcore.rules.kinds as kinds
from lwcore.rules.kinds import SubsystemError, ToolArgument
from lwcore.turn import tools


@pytest.fixture
def extra_kind():
    """A set of the bundled kinds plus one more, declared with the given tool arguments."""

    def add(name: str, declaration: str) -> kinds.KindSet:
        namespace: dict[str, object] = {}
        exec(  # noqa: S102 - the test's own source
            "from lwcore.rules.kinds.base import SubsystemKind, ToolArgument\n\n\n"
            f"class Extra(SubsystemKind):\n    name = {name!r}\n    tool_arguments = {declaration}\n\n\n"
            "KIND = Extra()\n", namespace)
        return kinds.KindSet([*kinds.bundled_kinds(), namespace["KIND"]])

    yield add
    tools.subsystem_check_args()  # back to the bundled kinds' model


def test_every_kinds_arguments_are_merged_with_each_use_described() -> None:
    kinds.reset()
    merged = kinds.tool_arguments()
    for kind in kinds.all_kinds():
        for name, argument in kind.tool_arguments.items():
            assert f"for {kind.name}: {argument.description}" in merged[name].description
            assert merged[name].same_shape(argument)
    assert set(merged) == {n for k in kinds.all_kinds() for n in k.tool_arguments}
    assert kinds.tool_arguments() is merged  # one mapping until the registry is reset


def test_the_subsystem_check_model_has_exactly_the_declared_fields_with_their_bounds() -> None:
    kinds.reset()
    model = tools.subsystem_check_args()
    declared = kinds.tool_arguments()
    assert list(model.model_fields) == ["character", "subsystem", *declared, "args", "reason"]
    for name, argument in declared.items():
        field = model.model_fields[name]
        assert field.description == argument.description and field.default == argument.default
        low, high = argument.low, argument.high
        too_low = low - 1 if argument.type is int else "x" * (low - 1)
        too_high = high + 1 if argument.type is int else "x" * (high + 1)
        for value in (too_low, too_high):
            if argument.type is str and low == 0 and value == "":
                continue
            with pytest.raises(ValueError):
                model(character="p1", subsystem="s", **{name: value})
        fits = low if argument.type is int else "x" * low
        assert getattr(model(character="p1", subsystem="s", **{name: fits}), name) == fits
    assert tools.subsystem_check_args() is model  # built once per registry
    assert tools.SubsystemCheckArgs is model  # the name the tool spec resolves


def test_a_new_kinds_argument_becomes_a_field(extra_kind) -> None:
    model = tools.subsystem_check_args(extra_kind("zzextra", '{"heat": ToolArgument(int, "degrees added", 0, 5)}'))
    assert list(model.model_fields)[-3:] == ["heat", "args", "reason"]
    assert model.model_fields["heat"].description == "for zzextra: degrees added"
    assert model(character="p1", subsystem="zzextra", heat=5).heat == 5
    with pytest.raises(ValueError):
        model(character="p1", subsystem="zzextra", heat=6)


def test_kinds_that_disagree_on_an_arguments_shape_are_refused(extra_kind) -> None:
    clash = extra_kind("zzclash", '{"bonus": ToolArgument(str, "a bonus word")}')
    with pytest.raises(TypeError, match="disagree on the tool argument 'bonus'"):
        clash.tool_arguments()


def test_a_kind_argument_cannot_shadow_the_tools_own_fields(extra_kind) -> None:
    shadow = extra_kind("zzshadow", '{"reason": ToolArgument(str, "why")}')
    with pytest.raises(TypeError, match="'reason' is one of subsystem_check's own fields"):
        tools.subsystem_check_args(shadow)


def test_an_argument_is_text_or_a_whole_number() -> None:
    with pytest.raises(TypeError, match="not <class 'float'>"):
        ToolArgument(float, "a fraction")


@pytest.mark.parametrize(("argument", "value", "fits"), [
    (ToolArgument(int, "n", 0, 10), 0, True),
    (ToolArgument(int, "n", 0, 10), 10, True),
    (ToolArgument(int, "n", 0, 10), 11, False),
    (ToolArgument(int, "n", 0, 10), -1, False),
    (ToolArgument(int, "n", 0, 10), True, False),
    (ToolArgument(int, "n", 0, 10), "3", False),
    (ToolArgument(int, "n", 0, 10), 3.0, False),
    (ToolArgument(int, "n", -100, 100), -100, True),
    (ToolArgument(str, "t", 3, 5), "abc", True),
    (ToolArgument(str, "t", 3, 5), "abcde", True),
    (ToolArgument(str, "t", 3, 5), "ab", False),
    (ToolArgument(str, "t", 3, 5), "abcdef", False),
    (ToolArgument(str, "t", 3, 5), 123, False),
    (ToolArgument(str, "t", 3, 5), None, False),
])
def test_an_argument_checks_its_value(argument: ToolArgument, value: object, fits: bool) -> None:
    if fits:
        assert argument.check("x", value) == value
    else:
        with pytest.raises(SubsystemError, match="x is") as info:
            argument.check("x", value)
        assert str(argument.low) in info.value.expected and str(argument.high) in info.value.expected
