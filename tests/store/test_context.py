"""The date words an episode's context starts with (``xdb.store.context``)."""

from __future__ import annotations

import random

from xdb.store.context import DAY_US, date_words
from xdb.timeutil import from_us


def test_date_words_name_the_utc_day_of_any_instant() -> None:
    # Made once per day (cached): the first and last microsecond of a day, before the
    # epoch too, name the same day as the instant itself does.
    rng = random.Random(7)
    instants = [0, -1, 1, DAY_US - 1, DAY_US, -DAY_US, -DAY_US - 1, 1_683_504_000_000_000]
    instants += [rng.randrange(-(2**50), 2**51) for _ in range(2000)]
    for us in instants:
        day = from_us(us)
        assert date_words(us) == f"{day.day} {day:%B} {day.year}", us
    assert date_words(1_683_504_000_000_000) == "8 May 2023"
