"""The A/B comparison that keeps playing until its answer is clear: an always-valid test, so looking
after every round and stopping at the first clear answer keeps its error rate at 5%."""

from __future__ import annotations

import random

from nexus_dsl.sim.batch import BoutResult
from nexus_dsl.workbench.batch import summarise
from nexus_dsl.workbench.sequential import (CHANGED, LIMIT, MIN_PAIRS, UNCHANGED, always_valid, compare_until_clear,
                                            look_at, paired_figures, stop_reason)
from nexus_dsl.workbench.testrun import TestRunSettings

SETTINGS = TestRunSettings(motivations=("hoarder", "famished"))


def _ever_rejects(draw: random.Random, shift: float, looks: int, per_look: int) -> bool:
    """Whether the always-valid test says "changed" at any of `looks` looks at paired win differences
    whose B side wins `shift` more often."""
    differences: list[float] = []
    best = 1.0
    for _ in range(looks):
        for _ in range(per_look):
            a = draw.random() < 0.5
            b = draw.random() < 0.5 + shift
            differences.append(float(b) - float(a))
        best = min(best, always_valid(differences, 0.05, 0.05)[2])
        if best < 0.05:
            return True
    return False


def test_looking_after_every_round_keeps_the_error_rate_at_five_percent() -> None:
    draw = random.Random(7)
    false_alarms = sum(_ever_rejects(draw, 0.0, looks=20, per_look=50) for _ in range(300))
    assert false_alarms / 300 <= 0.06  # no real change: at most the 5% it promises (with sampling slack)
    # The naive way, a fixed-size z-test asked at each of the 20 looks, cries wolf far more often.
    naive = 0
    for _ in range(300):
        differences: list[float] = []
        for _ in range(20):
            differences += [float(draw.random() < 0.5) - float(draw.random() < 0.5) for _ in range(50)]
            mean = sum(differences) / len(differences)
            spread = (sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)) ** 0.5
            if abs(mean) / (spread / len(differences) ** 0.5) > 1.96:
                naive += 1
                break
    assert naive / 300 > 0.15


def test_a_real_change_is_found() -> None:
    draw = random.Random(11)
    found = sum(_ever_rejects(draw, 0.15, looks=20, per_look=50) for _ in range(100))
    assert found >= 90


def test_always_valid_intervals_and_p_values() -> None:
    assert always_valid([], 0.05, 0.05) == (0.0, (float("-inf"), float("inf")), 1.0)
    assert always_valid([0.0] * 40, 0.05, 0.05) == (0.0, (0.0, 0.0), 1.0)
    assert always_valid([1.0] * 40, 0.05, 0.05) == (1.0, (1.0, 1.0), 0.0)
    balanced = [1.0, -1.0, 0.0, 0.0] * 100
    mean, (low, high), p_value = always_valid(balanced, 0.05, 0.05)
    assert mean == 0 and low == -high and 0 < high < 0.2 and p_value == 1.0
    shifted = [1.0, 0.0, 0.0, 1.0, -1.0] * 100
    mean, (low, high), p_value = always_valid(shifted, 0.05, 0.05)
    assert low > 0 and low < mean < high and p_value < 0.001
    # The interval narrows as bouts are added, and is wider than a fixed-size 95% interval.
    _, (low_more, high_more), _ = always_valid(balanced * 4, 0.05, 0.05)
    assert high_more < high and high > 1.96 * (0.5 ** 0.5) / len(balanced) ** 0.5


def _bout(seed: int, winner: str | None) -> BoutResult:
    return BoutResult(seed, winner=winner, totals={"red": 8 if winner == "red" else 4, "blue": 6}, crowd=3)


def test_paired_figures_are_b_minus_a_for_the_same_seed() -> None:
    a = summarise(SETTINGS, [_bout(0, "red"), _bout(1, "blue"), _bout(2, None)])
    b = summarise(SETTINGS, [_bout(0, "blue"), _bout(1, "blue"), _bout(2, "red"), BoutResult(3, error="x")])
    figures = paired_figures(a, b)
    assert figures["red win rate"] == ([-1.0, 0.0, 1.0], True)
    assert figures["blue win rate"] == ([1.0, 0.0, 0.0], True)
    assert figures["draws"] == ([0.0, 0.0, -1.0], True)
    assert figures["red mean final cred"] == ([-4.0, 0.0, 4.0], False)
    assert figures["crowd mean final cred"] == ([0.0, 0.0, 0.0], False)


def test_the_stop_rules() -> None:
    few = [_bout(seed, "red" if seed % 2 else "blue") for seed in range(MIN_PAIRS - 1)]
    swapped = [_bout(seed, "blue" if seed % 2 else "red") for seed in range(MIN_PAIRS - 1)]
    look = look_at(summarise(SETTINGS, few), summarise(SETTINGS, swapped), 0.05 / 6, 0.05, None)
    assert stop_reason(look, 0.05 / 6, 0.05) is None  # too few pairs to stop, whatever they say
    many = [_bout(seed, "red") for seed in range(200)]
    flipped = [_bout(seed, "blue") for seed in range(200)]
    assert stop_reason(look_at(summarise(SETTINGS, many), summarise(SETTINGS, flipped), 0.05 / 6, 0.05, None),
                       0.05 / 6, 0.05) == CHANGED
    same = look_at(summarise(SETTINGS, many), summarise(SETTINGS, many), 0.05 / 6, 0.05, None)
    assert stop_reason(same, 0.05 / 6, 0.05) == UNCHANGED  # identical bouts: no change at all


def test_a_p_value_never_rises_from_one_look_to_the_next() -> None:
    a = summarise(SETTINGS, [_bout(seed, "red") for seed in range(60)])
    b = summarise(SETTINGS, [_bout(seed, "blue" if seed < 45 else "red") for seed in range(60)])
    first = look_at(a, b, 0.01, 0.05, None)
    back = summarise(SETTINGS, [_bout(seed, "red") for seed in range(60)])
    second = look_at(a, back, 0.01, 0.05, first)
    assert all(later.p_value <= earlier.p_value for earlier, later in zip(first.figures, second.figures))


def test_compare_until_clear_plays_in_rounds_and_says_why_it_stopped(base) -> None:
    settings = TestRunSettings(motivations=("hoarder", "famished"), lanistas=("vask_the_unbought", "madame_oorl"),
                               barge="random", seed=3)
    ticks: list[tuple[int, int]] = []
    run = compare_until_clear(settings, settings, step=MIN_PAIRS, limit=3 * MIN_PAIRS, workers=1,
                              ruleset_a=base, ruleset_b=base, progress=lambda done, total: ticks.append((done, total)))
    # The same settings on both sides: the same bouts, so no change at all, clear at the first look.
    assert run.stopped == UNCHANGED and len(run.looks) == 1 and run.last.bouts == MIN_PAIRS
    assert run.comparison.b.bouts == MIN_PAIRS and ticks[-1] == (2 * MIN_PAIRS, 6 * MIN_PAIRS)
    assert run.sentence().startswith(f"Stopped after {MIN_PAIRS} bouts per side: the answer is clear, no win rate")
    limited = compare_until_clear(settings, TestRunSettings(motivations=("hoarder", "famished"), barge="random", seed=3),
                                  step=10, limit=20, workers=1, ruleset_a=base, ruleset_b=base)
    assert limited.stopped == LIMIT and [look.bouts for look in limited.looks] == [10, 20]
    assert limited.sentence().startswith("Stopped at the limit of 20 bouts per side with no clear answer yet")
