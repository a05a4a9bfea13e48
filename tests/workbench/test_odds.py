"""Exact Sliding Dice Scale odds: against hand-computed values and against the engine's own dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from nexus_dsl.engine.dice import Dice
from nexus_dsl.workbench.odds import LEVELS, matchup_odds, odds_table, pool_text, side_odds, table_markdown


def test_sd_against_sd_is_2d6_strictly_greater_than_2d6():
    odds = matchup_odds(0, 0)
    assert odds.success == Fraction(575, 1296)
    assert odds.margins[0] == 1 - Fraction(575, 1296)  # ties go to the defender: no damage
    assert odds.margins[10] == Fraction(1, 1296)  # 12 against 2
    assert sum(odds.margins.values()) == 1
    assert odds.attack_crowd_pleaser == odds.defense_crowd_pleaser == Fraction(1, 6)


def test_one_side_by_hand():
    assert side_odds(0).mean == 7
    assert side_odds(0).totals[7] == Fraction(6, 36)
    # +SDS keeps the two highest of 3d6: they match in 51 of 216 rolls (1+4+7+10+13+16 per face).
    assert side_odds(1).double == Fraction(51, 216)
    assert side_odds(-1).double == Fraction(51, 216)  # the lowest two, by symmetry
    # +3SDS shows 12 when at least two of 5d6 are sixes.
    assert side_odds(3).totals[12] == 1 - Fraction(5, 6) ** 5 - 5 * Fraction(1, 6) * Fraction(5, 6) ** 4
    # -3SDS shows 2 when at least two of 5d6 are ones: the mirror image.
    assert side_odds(-3).totals[2] == side_odds(3).totals[12]
    assert sum(side_odds(2).totals.values()) == 1


def test_hit_margins_are_the_damage_given_a_hit():
    odds = matchup_odds(1, -1)
    hits = odds.hit_margins()
    assert sum(hits.values()) == 1 and min(hits) == 1
    assert odds.expected_margin == sum(m * p for m, p in odds.margins.items())


def test_the_table_covers_every_pair_and_moves_the_right_way():
    table = odds_table()
    assert len(table) == 7 and all(len(row) == 7 for row in table)
    for a, row in enumerate(table):
        for d, cell in enumerate(row):
            assert (cell.attack_level, cell.defense_level) == (LEVELS[a], LEVELS[d])
            if a:
                assert cell.success > table[a - 1][d].success  # a better attack hits more often
            if d:
                assert cell.success < row[d - 1].success  # a better defense lets fewer through
    text = table_markdown()
    assert text.count("\n") == 8 and "| SD | " in text and "44.4%" in text


@pytest.mark.parametrize("attack, defense", [(0, 0), (2, -1), (-3, 3), (1, 1)])
def test_the_engine_dice_agree_within_tolerance(attack: int, defense: int):
    """20,000 seeded opposed rolls with the engine's `Dice.scale_roll` and its tie rule (margin > 0)."""
    dice = Dice(20261121)
    rolls = 20_000
    hits = attack_doubles = defense_doubles = 0
    margin_sum = 0
    for _ in range(rolls):
        a, d = dice.scale_roll("attack", attack), dice.scale_roll("defense", defense)
        margin = a.total - d.total
        hits += margin > 0
        margin_sum += max(0, margin)
        attack_doubles += a.is_double
        defense_doubles += d.is_double
    odds = matchup_odds(attack, defense)
    assert abs(hits / rolls - float(odds.success)) < 0.015
    assert abs(attack_doubles / rolls - float(odds.attack_crowd_pleaser)) < 0.015
    assert abs(defense_doubles / rolls - float(odds.defense_crowd_pleaser)) < 0.015
    assert abs(margin_sum / rolls - float(odds.expected_margin)) < 0.08


@pytest.mark.parametrize("level", [4, -4, 1.5, True])
def test_levels_outside_the_scale_are_refused(level):
    with pytest.raises(ValueError, match="SDS level"):
        matchup_odds(level, 0)


def test_a_level_is_worded_as_the_dice_the_engine_rolls_and_keeps():
    assert [pool_text(level) for level in (-2, 0, 1)] == ["4d6 keeping the lowest two", "2d6",
                                                          "3d6 keeping the highest two"]
    for level in (-2, 0, 1):
        roll = Dice(7).scale_roll("attack", level)
        assert pool_text(level).startswith(f"{len(roll.dice)}d6")
    with pytest.raises(ValueError):
        pool_text(4)
