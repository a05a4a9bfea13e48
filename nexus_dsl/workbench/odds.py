"""Exact odds of an opposed roll on the Sliding Dice Scale, computed (never sampled) with icepool.

An opposed roll (pg.27-29, `engine/rolls.py: resolve_roll`): each side rolls 2d6 plus one d6 per
level of advantage or penalty and keeps the highest two (a positive level) or the lowest two (a
negative one); levels stop at +/-3SDS. The attack succeeds when its kept total is strictly greater
than the defense's (ties go to the defender); the margin, attack minus defense, is the damage before
bonuses. A side whose two kept dice match is a Crowd Pleaser (1 cred from the crowd to its lanista,
hit or miss: `content/base/rules/situational.nexus`).

Probabilities are exact `Fraction`s; `float()` them for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

from ..engine.dice import SCALE_CAP
from ..syntax.printer import sds_text

#: Every level of the Sliding Dice Scale, -3SDS to +3SDS.
LEVELS: tuple[int, ...] = tuple(range(-SCALE_CAP, SCALE_CAP + 1))


@dataclass(frozen=True)
class SideOdds:
    """One side's kept dice at one SDS level: the total's distribution and the chance of matching dice."""

    level: int
    totals: dict[int, Fraction]  # kept total (2..12) -> probability
    double: Fraction  # both kept dice match (Crowd Pleaser)

    @property
    def mean(self) -> Fraction:
        return sum((total * p for total, p in self.totals.items()), Fraction(0))


@dataclass(frozen=True)
class MatchupOdds:
    """An attack at one SDS level against a defense at another."""

    attack_level: int
    defense_level: int
    success: Fraction  # attack total strictly greater than the defense's
    margins: dict[int, Fraction]  # margin (damage before bonuses) -> probability; 0 = no hit (a tie or a defended attack)
    attack_crowd_pleaser: Fraction  # the attacker's kept dice match
    defense_crowd_pleaser: Fraction  # the defender's kept dice match

    @property
    def expected_margin(self) -> Fraction:
        """The mean damage before bonuses, counting a defended attack as 0."""
        return sum((margin * p for margin, p in self.margins.items()), Fraction(0))

    def hit_margins(self) -> dict[int, Fraction]:
        """The margin's distribution given that the attack succeeds."""
        if not self.success:
            return {}
        return {m: p / self.success for m, p in self.margins.items() if m > 0}


def _check_level(level: int) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or not -SCALE_CAP <= level <= SCALE_CAP:
        raise ValueError(f"an SDS level is a whole number from {-SCALE_CAP} to +{SCALE_CAP}, got {level!r}")
    return level


def _exact(die: icepool.Die) -> dict:
    """A die's outcomes as exact probabilities."""
    denominator = die.denominator()
    return {outcome: Fraction(quantity, denominator) for outcome, quantity in die.items()}


@lru_cache(maxsize=None)
def _kept_pairs(level: int) -> dict[tuple[int, int], Fraction]:
    """The two kept dice (sorted) of an SDS roll at `level`, with their probabilities."""
    pool = icepool.d6.pool(2 + abs(level))
    kept = pool.highest(2) if level >= 0 else pool.lowest(2)
    expanded = kept.expand()
    # `expand` gives a raw result only inside a `@multiset_function`; on a pool it is a die.
    assert isinstance(expanded, icepool.Die)
    return _exact(expanded)


def side_odds(level: int) -> SideOdds:
    """The kept total's distribution and the chance of a Crowd Pleaser at one SDS level."""
    return _side_odds(_check_level(level))


@lru_cache(maxsize=None)
def _side_odds(level: int) -> SideOdds:
    totals: dict[int, Fraction] = {}
    double = Fraction(0)
    for (low, high), p in _kept_pairs(level).items():
        totals[low + high] = totals.get(low + high, Fraction(0)) + p
        if low == high:
            double += p
    return SideOdds(level, dict(sorted(totals.items())), double)


def matchup_odds(attack_level: int, defense_level: int) -> MatchupOdds:
    """Exact odds of an attack at `attack_level` against a defense at `defense_level`."""
    return _matchup_odds(_check_level(attack_level), _check_level(defense_level))


@lru_cache(maxsize=None)
def _matchup_odds(attack_level: int, defense_level: int) -> MatchupOdds:
    attack, defense = _side_odds(attack_level), _side_odds(defense_level)
    margins: dict[int, Fraction] = {}
    for a_total, pa in attack.totals.items():
        for d_total, pd in defense.totals.items():
            margin = max(0, a_total - d_total)  # ties and defended attacks do no damage
            margins[margin] = margins.get(margin, Fraction(0)) + pa * pd
    success = sum((p for m, p in margins.items() if m > 0), Fraction(0))
    return MatchupOdds(attack_level, defense_level, success, dict(sorted(margins.items())),
                       attack.double, defense.double)


def pool_text(level: int) -> str:
    """The dice a side rolls at one SDS level: `2d6`, `3d6 keeping the highest two`, `4d6 keeping
    the lowest two`."""
    _check_level(level)
    if level == 0:
        return "2d6"
    return f"{2 + abs(level)}d6 keeping the {'highest' if level > 0 else 'lowest'} two"


def odds_table() -> list[list[MatchupOdds]]:
    """All 7x7 pairs: rows are attack levels -3..+3, columns defense levels -3..+3."""
    return [[matchup_odds(a, d) for d in LEVELS] for a in LEVELS]


def table_markdown(digits: int = 1) -> str:
    """The success chance of every pair as a markdown table (attack levels down, defense across)."""
    header = "| attack \\ defense | " + " | ".join(sds_text(d) for d in LEVELS) + " |"
    rule = "|---|" + "---:|" * len(LEVELS)
    rows = [f"| {sds_text(row[0].attack_level)} | " + " | ".join(f"{float(cell.success) * 100:.{digits}f}%" for cell in row)
            + " |" for row in odds_table()]
    return "\n".join([header, rule, *rows])


__all__ = ["LEVELS", "MatchupOdds", "SideOdds", "matchup_odds", "odds_table", "pool_text", "sds_text", "side_odds",
           "table_markdown"]
