"""Hostile input, a sixth look: the readers of the continuity rounds thirteen to seventeen.

Each class here once made the checks of one draft, or the load of a book, grow with the square of a
line: a 世界观 line of thousands of 五里…远 tried each journey word against every walk it holds (82 s at
the draft cap). The figures are in bench/story_hostile.py (the ``six_`` cases); these tests pin what
the faster readers must still find."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lw_storyrepo import continuity
from lw_storyrepo.continuity import FAR_SPAN, far_places, journeys


@settings(max_examples=300, deadline=None)
@given(cuts=st.lists(st.integers(0, 60), max_size=12, unique=True), at=st.integers(-5, 70))
def test_a_position_is_looked_up_among_spans_and_neighbours_as_tried_against_each(cuts: list[int], at: int) -> None:
    cuts.sort()
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2])]
    assert continuity._within(spans, [a for a, _ in spans], at) == any(a <= at < b for a, b in spans)
    assert list(continuity._near(cuts, at)) == [k for k, j in enumerate(cuts) if abs(j - at) <= FAR_SPAN]


def test_a_world_line_of_thousands_of_walks_still_reads_the_far_place_near_its_journey() -> None:
    places = ["日内瓦", "青石镇", "陈家村"]
    line = "五里远" * 3000 + "。日内瓦离这里坐飞机要一天，" + "和" * 50 + "，青石镇离陈家村五里"
    assert far_places([line], places) == frozenset({"日内瓦"})
    assert far_places(["青石镇离陈家村五里，" + "五里" * 2000], places) == frozenset()


def test_a_world_line_of_thousands_of_places_each_a_journey_away_keeps_each_its_days() -> None:
    places = [f"{chr(0x4E00 + i)}{chr(0x5E00 + i)}城" for i in range(1500)]
    line = "，".join("和" * 30 + p + "三天" * (i % 2) for i, p in enumerate(places))
    days = journeys([line], places)
    assert {p for i, p in enumerate(places) if i % 2} == set(days) and set(days.values()) == {3.0}
    assert far_places([line], places) == frozenset(p for i, p in enumerate(places) if i % 2)
