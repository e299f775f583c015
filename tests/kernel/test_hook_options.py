"""pluggy's hook options work for plugin authors, each implementation still isolated:
``tryfirst``/``trylast`` order the calls, ``wrapper``/``hookwrapper`` wrap them, ``specname``
names the hook; ``optionalhook`` is refused with a reason. Call order never lets a plugin
jump the trust order of a registry clash."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lwcore.contributions import PromptSegment, ToolSpec
from lwcore.hookspecs import hookimpl
from lwcore.kernel import Kernel
from lwcore.plugins import InProcessPlugin


def plugin(plugin_id: str, family: str = "diagnostics", **hooks: Any) -> InProcessPlugin:
    manifest = {"id": plugin_id, "version": "1", "tier": "code", "provides": [family]}
    return InProcessPlugin(manifest, SimpleNamespace(**hooks))


def lines(plugin_id: str, *texts: str, **options: Any) -> InProcessPlugin:
    def lw_diagnostics(kernel):  # noqa: ANN001, ANN202
        return list(texts)

    return plugin(plugin_id, lw_diagnostics=hookimpl(**options)(lw_diagnostics))


def boot(tmp_path: Path, *plugins: InProcessPlugin) -> Kernel:
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=list(plugins), disabled={"rules"})
    return kernel


def test_tryfirst_and_trylast_order_the_calls(tmp_path: Path) -> None:
    kernel = boot(tmp_path, lines("a-last", "last", trylast=True), lines("b", "middle"), lines("c-first", "first", tryfirst=True))
    assert [line for _, line in kernel.diagnostics()] == ["first", "middle", "last"]


def test_new_style_wrapper_sees_and_replaces_the_results(tmp_path: Path) -> None:
    seen: list[Any] = []

    @hookimpl(wrapper=True)
    def lw_diagnostics(kernel):  # noqa: ANN001, ANN202
        results = yield
        seen.append(results)
        return [r for r in results if r != ["drop me"]] + [["added by the wrapper"]]

    kernel = boot(tmp_path, lines("a", "kept"), lines("b", "drop me"), plugin("w", lw_diagnostics=lw_diagnostics))
    assert kernel.diagnostics() == [("a", "kept"), ("w", "added by the wrapper")]
    assert seen == [[["kept"], ["drop me"]]]


def test_old_style_hookwrapper_can_force_the_result(tmp_path: Path) -> None:
    @hookimpl(hookwrapper=True)
    def lw_diagnostics(kernel):  # noqa: ANN001, ANN202
        outcome = yield
        outcome.force_result([["only this"]])

    kernel = boot(tmp_path, lines("a", "hidden"), plugin("w", lw_diagnostics=lw_diagnostics))
    assert kernel.diagnostics() == [("w", "only this")]


def test_failing_wrappers_are_isolated(tmp_path: Path) -> None:
    @hookimpl(wrapper=True)
    def before(kernel):  # noqa: ANN001, ANN202
        raise RuntimeError("before the yield")
        yield  # pragma: no cover

    @hookimpl(wrapper=True)
    def after(kernel):  # noqa: ANN001, ANN202
        yield
        raise RuntimeError("after the yield")

    @hookimpl(wrapper=True)
    def twice(kernel):  # noqa: ANN001, ANN202
        yield
        yield

    kernel = boot(
        tmp_path, lines("a", "survives"),
        plugin("w1", lw_diagnostics=before), plugin("w2", lw_diagnostics=after), plugin("w3", lw_diagnostics=twice),
    )
    assert ("a", "survives") in kernel.diagnostics()
    assert "before the yield" in kernel.plugin("w1").reason
    assert "after the yield" in kernel.plugin("w2").reason
    assert "more than once" in kernel.plugin("w3").reason
    assert kernel.plugin("a").status == "enabled"


def test_a_wrapper_that_is_not_a_generator_is_refused_at_registration(tmp_path: Path) -> None:
    @hookimpl(wrapper=True)
    def lw_diagnostics(kernel):  # noqa: ANN001, ANN202
        return ["not a generator"]

    kernel = boot(tmp_path, lines("a", "fine"), plugin("w", lw_diagnostics=lw_diagnostics))
    assert kernel.diagnostics() == [("a", "fine")]
    assert kernel.plugin("w").status == "error" and "validation failed" in kernel.plugin("w").reason


def test_specname_and_optionalhook(tmp_path: Path) -> None:
    @hookimpl(specname="lw_diagnostics")
    def report(kernel):  # noqa: ANN001, ANN202
        return ["by specname"]

    @hookimpl(optionalhook=True)
    def lw_future_hook(kernel):  # noqa: ANN001, ANN202
        return None

    kernel = boot(tmp_path, plugin("s", report=report, lw_future_hook=lw_future_hook))
    assert kernel.diagnostics() == [("s", "by specname")]
    assert any("optionalhook is not supported" in r for r in kernel.plugin("s").refused)


def test_tryfirst_cannot_jump_the_trust_order_of_a_registry(tmp_path: Path) -> None:
    def tools(plugin_id: str, **options: Any) -> InProcessPlugin:
        def lw_tools(register):  # noqa: ANN001, ANN202
            register(ToolSpec("set_variable", {"en": f"from {plugin_id}"}, "pydantic:BaseModel", print))

        return plugin(plugin_id, "tools", lw_tools=hookimpl(**options)(lw_tools))

    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[tools("aaa", tryfirst=True)])
    assert kernel.tools.origin("set_variable") == "turn"  # the built-in keeps its name


def test_a_generator_segment_hook_is_consumed_inside_the_guard(tmp_path: Path) -> None:
    def lw_prompt_segments(turn) -> Iterable[PromptSegment]:  # noqa: ANN001
        yield PromptSegment("one", "first")
        raise ValueError("after the first yield")

    good = plugin("good", "prompt_segments", lw_prompt_segments=hookimpl(lambda turn: [PromptSegment("g", "good")]))
    bad = plugin("bad", "prompt_segments", lw_prompt_segments=hookimpl(lw_prompt_segments))
    kernel = Kernel(data_dir=tmp_path, entry_points=False, env={}, plugins=[good, bad])
    segments = kernel.prompt_segments()
    assert [e.value.text for e in segments.segments] == ["good"]
    assert any("after the first yield" in d for d in segments.dropped)
