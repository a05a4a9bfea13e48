"""A rate's 95% interval is Wilson's score interval, as scipy computes it: pinned to published values."""

from __future__ import annotations

import pytest

from nexus_dsl.sim.rates import Rate


@pytest.mark.parametrize(("wins", "bouts", "expected"), [
    (5, 10, (0.2366, 0.7634)),  # the textbook example: symmetric about one half
    (0, 10, (0.0, 0.2775)),  # none won: the interval still reaches above zero
    (10, 10, (0.7225, 1.0)),  # all won
    (45, 100, (0.3561, 0.5476)),
])
def test_the_interval_is_wilsons_score_interval(wins: int, bouts: int, expected: tuple[float, float]) -> None:
    low, high = Rate(wins, bouts).interval()
    assert (round(low, 4), round(high, 4)) == expected


def test_nothing_counted_says_nothing() -> None:
    assert Rate(0, 0).interval() == (0.0, 1.0)
    assert Rate(0, 0).share == 0.0


def test_a_rate_in_words_and_as_json() -> None:
    assert Rate(5, 10).shown() == "50.0% (95% interval 23.7%-76.3%)"
    data = Rate(45, 100).to_json()
    assert data["count"] == 45 and data["of"] == 100 and data["share"] == 0.45
    assert [round(end, 4) for end in data["interval_95"]] == [0.3561, 0.5476]  # type: ignore[attr-defined]
