"""The outside reader's counter-examples to T8's grave marker (R59's T8-1, fixer ft8 at stop 59).

:data:`lw_storyrepo.continuity.GRAVE_DATED` read dates that are no day of the death: a birth (生于…) taken into the year's
era, a stone's repair or raising with the raiser named between the date and 立 (重修, 孝孙某某立), the next clause's
month in narration after 之墓 (坡上就是某某之墓，腊月里…), the husband named on his wife's marker (某某之妻庞氏之墓),
and a lunar date said as such in a book whose card dates the death in Gregorian years. The sentences are the reviewer's
own; T8's own catches (``test_continuity_time_eight``) are kept.
"""

from __future__ import annotations

import pytest

from test_continuity_time_eight import graves


@pytest.mark.parametrize("body", [
    # a birth before the death: the death's date is on the card's day
    "碑上刻着：先考姚公怀德之墓，生于道光三十年五月，卒于同治九年三月十二。",
    # the stone repaired or raised later, the raiser named between the date and 立
    "碑上刻着：先祖姚公怀德之墓，同治九年四月重修。",
    "碑上刻着：先祖姚公怀德之墓，同治九年四月补立。",
    "碑上刻着：先祖姚公怀德之墓，同治十一年五月迁葬于此。",
    "碑上刻着：先祖姚公怀德之墓，同治十年二月 孝孙青禾立。",
    "碑上刻着：先祖姚公怀德之墓，同治十年二月孙青禾立。",
    "碑上刻着：先祖姚公怀德之墓，同治十年二月，孝孙青禾敬立。",
    # narration after 之墓: the month is the next clause's time
    "坡上那座就是姚怀德之墓，正月里没人来上过坟。",
    "坡上就是姚怀德之墓，腊月里雪把碑埋了半截。",
    "坡上就是姚怀德之墓，同治九年五月青禾头一回来。",
    "青禾指着坡上说：“那就是姚怀德之墓，正月里没人来上过坟。”",
    # the wife's marker names her husband: the buried is the last name
    "碑上刻着：姚怀德之妻庞氏之墓，同治九年十月。",
])
def test_a_date_that_is_no_day_of_the_death_is_silent(body: str) -> None:
    assert graves(body) == []


@pytest.mark.parametrize("body", [
    "碑上刻着：先妣庞母秋菊之墓，农历一九五六年九月初三卒。",
    "碑上刻着：先妣庞母秋菊之墓，阴历一九五六年九月初三。",
    "碑上刻着：先妣庞母秋菊之墓，一九五六年农历九月初三。",
    "木牌上写着：庞秋菊同志之墓，一九五六年十月。",
])
def test_a_lunar_date_of_a_death_the_card_dates_in_gregorian_years_is_silent(body: str) -> None:
    assert graves(body, "一九六三年清明") == []


@pytest.mark.parametrize("body", [
    # the birth passed over, the death read
    "碑上刻着：先考姚公怀德之墓，生于道光三十年五月，卒于同治九年四月十二。",
    # a death word at the date reads it without a frame
    "坡上就是先祖姚公怀德之墓，同治九年四月十二卒。",
    # the frame words within the run
    "碑上刻着先祖姚公怀德之墓，同治九年四月十二卒。",
    # a death word right after the date wins over a raiser after it
    "碑上刻着：先祖姚公怀德之墓，同治九年四月十二卒 孝孙青禾立。",
    # the husband's own marker is still his
    "碑上刻着：庞秋菊之夫姚怀德之墓，同治九年四月十二卒。",
])
def test_the_death_on_a_marker_is_still_read(body: str) -> None:
    found = graves(body)
    assert len(found) == 1 and "姚怀德" in found[0], found


def test_a_gregorian_marker_off_a_gregorian_death_is_still_read() -> None:
    found = graves("木牌上写着：庞秋菊同志之墓，一九五六年七月。", "一九六三年清明")
    assert len(found) == 1 and "庞秋菊" in found[0], found
