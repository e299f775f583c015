"""Ranks, frk1 (issue 30, stop 60): the outside reader's findings on rk1's round (RK1-1, RK1-5, RK1-2, RK1-4), each
with the reader's own sentences in the boat yard of ``test_continuity_rank_ten``.

- **A span served and a rise since** (RK1-1): 当了N年R is the back-story of a rise when the rest of the sentence or the
  next tells a step or a now (如今, 早就, 升的, 熬出了头) or names another rung — silent; and a span served is weak
  evidence, so a lower rank said that way is a warning, not an error.
- **Moment nouns in narration** (RK1-5): 那当口, 那当儿 in the narration are the scene's now, the rank then is the rank
  now; only in a quote do they tell of another day.
- **Days are a stint** (RK1-2): 干了三天R is doing that work, not holding the post.
- **A rank to come before a full name** (RK1-4): 未来的R某某 is no claim.
"""

from __future__ import annotations

from lw_storyrepo.findings import ERROR, WARN
from test_continuity_rank_ten import _found, _said, _yard_findings


def _severities(body: str) -> list[str]:
    """The severities of the rank findings of ``body`` in the rank round's boat yard (its ``_yard_findings``)."""
    return [f.severity for f in _yard_findings(body)]


def test_a_span_served_then_a_rise_told_after_it_is_no_rank_now() -> None:
    for body in ("房德厚当了十年木匠，如今是领作了。",
                 "房德厚当了十年木匠，早就是领作了。",
                 "房德厚当了十年木匠，前年升的领作。",
                 "房德厚在坞里当了十年木匠。前年坞主提他做了领作。",
                 "房德厚熬了两年小工，总算熬出了头。"):
        assert not _found(body), body


def test_a_span_served_lower_than_the_card_is_a_warning_not_an_error() -> None:
    body = "房德厚在坞里做了三年木匠，刨子推得比谁都平。"
    assert _said(_found(body), "房德厚", "木匠")
    assert _severities(body) == [WARN]
    # the same rank said plainly is still an error
    assert _severities("房德厚是个木匠，刨子推得比谁都平。") == [ERROR]


def test_a_moment_noun_in_narration_is_the_scene_now() -> None:
    assert _said(_found("浪头打上来。那当口，领作严阿福一把拽住了缆绳。"), "严阿福", "领作")
    assert _said(_found("浪头打上来。那当口，房德厚这个小工还在船台上发愣。"), "房德厚", "小工")


def test_a_moment_noun_in_a_quote_is_still_a_time_gone() -> None:
    assert not _found("“我那当口还是个小工，”房德厚说，“哪里懂这些。”")


def test_days_of_work_are_a_stint_not_a_rank() -> None:
    assert not _found("坞里人手紧，房德厚干了三天小工，腰都直不起来了。")
    assert not _found("坞里人手紧，干了三天小工的房德厚累得直不起腰。")


def test_a_rank_to_come_before_a_full_name_is_no_claim() -> None:
    assert not _found("“咱们坞里未来的领作葛水生来啦！”阿福笑着说。")


def test_a_span_served_then_another_rung_merely_named_is_still_the_rank_now() -> None:
    # another rung after the span is a rise only as someone's (做了R2, 是R2, 升的R2), not a rung of another person
    assert _said(_found("房德厚上坞当了半年木匠，头一回见坞主发这么大的火。"), "房德厚", "木匠")
    assert _said(_found("房德厚当了三年小工。坞主那天骂了所有人。"), "房德厚", "小工")
