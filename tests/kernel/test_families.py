"""Each hook family is declared once (``@family`` on its hookspec in ``lwcore/hookspecs.py``);
the manifest's ``provides`` word, the hooks a plugin may implement, the registry and the
kernel attribute that returns it all follow from that one declaration."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lwcore import hookspecs
from lwcore.hookspecs import ACCESSORS, FAMILIES, HOOK_FAMILY, REGISTRIES, SPECS, Registration, family, forget_family
from lwcore.kernel import Kernel

OMEN_TYPE = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class Omen:
    name: str
    text: str
'''

OMEN_PLUGIN = '''
from lwcore.api import hookimpl
from lwtest_omens.kinds import Omen


@hookimpl
def lw_omens(register):
    register(Omen("raven", "a raven on the gate"))
    register(Omen("", "no name"))
    register("not an omen")
'''


@pytest.fixture
def omens() -> Iterator[None]:
    """A family that exists only in this test: declared here, in one place, and forgotten after."""

    @family("omens", registers=Registration("omens", "lwtest_omens.kinds:Omen", key="name", accessor="omen_registry"))
    def lw_omens(register, ctx):  # noqa: ANN001, ANN202 - a hookspec's body is never run
        """Offer omens: ``register(Omen(name, text))``."""

    try:
        yield
    finally:
        forget_family("omens")


def test_one_declaration_gives_the_hook_the_registry_the_accessor_and_the_provides_word(omens, site, kernel_factory) -> None:
    assert FAMILIES["omens"] == ("lw_omens",) and HOOK_FAMILY["lw_omens"] == "omens" and "lw_omens" in SPECS
    site.add("omens", code=OMEN_PLUGIN, provides=("omens",), files={"kinds.py": OMEN_TYPE})
    site.add("stray", code=OMEN_PLUGIN.replace("lwtest_omens.kinds", "lwtest_stray.kinds"),
             provides=("prompt_segments",), files={"kinds.py": OMEN_TYPE})
    kernel = kernel_factory(env={"LW_PLUGINS": "omens,stray"})
    record = kernel.plugin("omens")
    assert record.status == "enabled" and record.manifest.provides == ("omens",)  # the manifest word validates
    registry = kernel.omen_registry  # the kernel attribute
    assert registry is kernel.registry("omens")
    assert [(e.key, e.value.text, e.plugin_id) for e in registry.entries()] == [("raven", "a raven on the gate", "omens")]
    assert any("contribution key '' is not a name" in e for e in record.errors)
    assert any("lw_omens: register() got str, expected Omen; dropped" in e for e in record.errors)
    kernel.load_all()
    stray = kernel.plugin("stray")  # implements the hook without providing the family: refused
    assert any("family 'omens' is not in the manifest's provides" in r for r in stray.refused)


def test_without_the_declaration_the_word_is_unknown(site, kernel_factory) -> None:
    site.add("omens", code=OMEN_PLUGIN, provides=("omens",), files={"kinds.py": OMEN_TYPE})
    record = kernel_factory(env={"LW_PLUGINS": "omens"}).plugin("omens")
    assert record.status == "error" and "provides: Value error, unknown entries ['omens']" in (record.reason or "")
    with pytest.raises(AttributeError):
        Kernel(entry_points=False, env={}).omen_registry  # noqa: B018


def test_a_family_or_registry_is_declared_only_once(omens) -> None:
    with pytest.raises(ValueError, match="declared twice"):
        family("omens")(lambda register: None)  # not an lw_ name
    def lw_omens(register):  # noqa: ANN001, ANN202
        """Again."""
    with pytest.raises(ValueError, match="declared twice"):
        family("omens")(lw_omens)


def test_the_kernel_spells_out_no_registry_of_its_own() -> None:
    """No per-registry property: every registry attribute comes from a declaration."""
    assert ACCESSORS == {spec.registration.accessor: name for name, spec in REGISTRIES.items()}
    assert not [name for name in ACCESSORS if name in vars(Kernel)]
    assert set(SPECS) == set(HOOK_FAMILY) == {hook for hooks in FAMILIES.values() for hook in hooks}
    assert {spec.hook for spec in REGISTRIES.values()} <= set(SPECS)
    assert hookspecs.SPECS["lw_tools"].__doc__  # the spec function carries the hook's contract
