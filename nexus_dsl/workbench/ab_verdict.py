"""An A/B comparison read in plain words: how often the new content came into play, what moved, by how
much and how sure we are, and how many bouts a clear answer would take.

A designer asks "did my card matter?", not "which of nine p-values is under 0.05". `verdict` answers in
one paragraph from a `batch.Comparison`: the uptake of the new content (the bouts of B in which a card or
ability it declares was played or drawn), the differences that reach significance (largest first, each
with its interval and the odds of chance alone), or the largest that does not, and the bouts per side
needed to detect the smallest change that matters in a win rate (a two-proportion power calculation,
statsmodels' `NormalIndPower`, at 80% power and the 5% level).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..model.ruleset import Ruleset
from .batch import ALPHA, BatchReport, Comparison, Difference

#: The chance of detecting a real change of the given size that `bouts_needed` plans for.
POWER = 0.8
#: A win rate's change that matters to a designer, unless they say otherwise: 5 points.
SMALLEST_CHANGE = 0.05


@dataclass(frozen=True)
class Uptake:
    """How often the followed new content came into play in B's bouts played to their end."""

    ids: tuple[str, ...]
    bouts_with: int  # bouts in which any of them was played or drawn
    bouts: int
    played: int
    drawn: int

    def sentence(self) -> str:
        names = _listed(self.ids)
        if not self.bouts:
            return f"No bout with {names} was played to its end."
        if not self.bouts_with:
            return (f"{names} never came into play in the {self.bouts} bouts with it, "
                    "so whatever differs below is chance alone.")
        uses = [f"played {_times(self.played)}" if self.played else "", f"drawn {_times(self.drawn)}" if self.drawn else ""]
        return (f"{names} came into play in {self.bouts_with} of the {self.bouts} bouts with it "
                f"({self.bouts_with / self.bouts:.0%}; {' and '.join(u for u in uses if u)}).")


def uptake(report: BatchReport, ids: Sequence[str]) -> Uptake:
    """The uptake of `ids` in a batch that followed them (`run_batch(..., watched=ids)`)."""
    followed = set(ids)
    finished = report.finished
    used = [result for result in finished if followed & set(result.watched)]
    played = sum(use.played for result in finished for ident, use in result.watched.items() if ident in followed)
    drawn = sum(use.drawn for result in finished for ident, use in result.watched.items() if ident in followed)
    return Uptake(tuple(ids), len(used), len(finished), played, drawn)


def followed_kinds(ruleset: Ruleset) -> set[str]:
    """The kinds of declaration whose uses a bout's log names, so a batch can follow them: every kind
    of card a zone holds (played from a hand, or drawn) and the abilities."""
    words = ruleset.words
    kinds = {zone.holds for zone in words.zones.values() if zone.holds}
    return kinds | {kind for kind in words.kinds_in_view if words.base_kind(kind) == "trait_ability"}


def new_content(ruleset_a: Ruleset, ruleset_b: Ruleset, forced: Sequence[str] = ()) -> list[str]:
    """What B adds that a batch can follow: the cards forced into B, then the cards and abilities B's
    packs declare and A's do not, in load order."""
    followed = followed_kinds(ruleset_b)
    kinds = [kind for kind in ruleset_b.words.kinds_in_view if kind in followed]
    added = [declaration.id for kind in kinds for declaration in ruleset_b.declarations(kind)
             if ruleset_a.declaration(kind, declaration.id) is None]
    return list(dict.fromkeys([*forced, *added]))


def bouts_needed(rate: float, change: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """Bouts per side for a two-sided test at `alpha` to detect a win rate moving from `rate` by
    `change` (a signed share) with chance `power`; None when the moved rate would leave 0..1 or
    nothing moves."""
    other = rate + change
    if change == 0 or not 0 <= other <= 1:
        return None
    # Imported here: statsmodels takes a second or two to import, and only this answer needs it.
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    effect = abs(float(proportion_effectsize(other, rate)))
    if effect == 0:
        return None
    needed = NormalIndPower().solve_power(effect_size=effect, alpha=alpha, power=power, ratio=1.0,
                                          alternative="two-sided")
    return math.ceil(float(needed))


def how_sure(p_value: float) -> str:
    """The odds of chance alone giving a difference at least this large, in words."""
    if p_value <= 0:
        return "chance alone would practically never give it"
    odds = 1 / p_value
    if odds >= 1000:
        return "chance alone would give it less than once in a thousand comparisons"
    return f"chance alone would give it about once in {_round_odds(odds)} comparisons (p = {p_value:.2g})"


def _round_odds(odds: float) -> str:
    if odds < 10:
        return f"{odds:.0f}" if odds >= 2 else "2"
    magnitude = 10 ** (len(str(int(odds))) - 2)
    return f"{int(round(odds / magnitude) * magnitude):,}"


def _moved(difference: Difference) -> str:
    """`red win rate rose from 48.0% to 55.0% (+7.0 points, 95% interval +2.1 to +11.9 points)`."""
    low, high = (difference.shown(end, signed=True) for end in difference.interval)
    way = "rose" if difference.difference > 0 else "fell" if difference.difference < 0 else "stayed"
    return (f"{difference.name} {way} from {difference.shown(difference.a)} to {difference.shown(difference.b)} "
            f"({difference.shown(difference.difference, signed=True)}, 95% interval {low} to {high})")


def verdict(comparison: Comparison, changed: Sequence[str] = (), smallest: float = SMALLEST_CHANGE) -> str:
    """The comparison in one paragraph of plain words (see the module's docstring). `changed`: the
    followed ids of the new content (its cards and abilities); `smallest`: the change of a win rate
    that matters, as a share (0.05: 5 points)."""
    a, b = comparison.a, comparison.b
    if not a.finished or not b.finished:
        return "A or B has no bout played to its end, so there is nothing to compare."
    parts: list[str] = []
    if changed:
        parts.append(uptake(b, changed).sentence())
    differences = comparison.differences
    significant = sorted((d for d in differences if d.significant), key=lambda d: d.p_value)
    if significant:
        first = significant[0]
        parts.append(f"What moved: {_moved(first)}; {how_sure(first.p_value)}.")
        if len(significant) > 1:
            parts.append("Also " + "; ".join(_moved(d) for d in significant[1:3]) + ".")
        if len(significant) == 1 and first.p_value > ALPHA / len(differences):
            parts.append(f"With {len(differences)} figures compared, one in twenty of them looks like this by chance: "
                         "play more bouts to be sure.")
    else:
        closest = min(differences, key=lambda d: d.p_value)
        parts.append(f"Nothing moved clearly: the change closest to it, {_moved(closest)}, is within what chance "
                     f"gives (p = {closest.p_value:.2g}).")
    rates = list(comparison.wins.values())
    if rates and all(-smallest < d.interval[0] and d.interval[1] < smallest for d in rates):
        parts.append(f"Every win rate moved by less than {smallest * 100:g} points (each 95% interval lies "
                     "within that), so the change matters little to who wins.")
    elif rates:
        parts.append(_needed_sentence(rates, b.bouts, smallest))
    return " ".join(parts)


def _needed_sentence(rates: Sequence[Difference], played: int, smallest: float) -> str:
    """How many bouts per side would detect the smallest change that matters in the win rate that
    moved most, from where A's stands."""
    moved = max(rates, key=lambda d: abs(d.difference))
    change = smallest if moved.a + smallest <= 1 else -smallest
    needed = bouts_needed(moved.a, change)
    if needed is None:
        return ""
    enough = "this comparison played enough" if played >= needed else f"this comparison played {played}"
    return (f"To detect a change of {smallest * 100:g} points in {moved.name} (now {moved.shown(moved.a)}) "
            f"{POWER:.0%} of the time takes about {needed:,} bouts per side; {enough}.")


def _listed(ids: Sequence[str]) -> str:
    shown = [f"`{ident}`" for ident in ids[:4]]
    if len(ids) > 4:
        shown.append(f"{len(ids) - 4} more")
    if len(shown) == 1:
        return f"The new content ({shown[0]})"
    return f"The new content ({', '.join(shown[:-1])} and {shown[-1]})"


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


__all__ = ["POWER", "SMALLEST_CHANGE", "Uptake", "bouts_needed", "followed_kinds", "how_sure", "new_content", "uptake",
           "verdict"]
