"""An A/B comparison that keeps playing until its answer is clear, and may be stopped at any look.

Looking at a fixed-size test again and again, and stopping once it says "significant", makes it say so
far more often than its 5%. This test stays valid however often it is looked at: the mixture sequential
probability ratio test (mSPRT; Johari, Pekelis and Walsh, "Always Valid Inference", 2017) on the
differences B − A of the bouts played on the same seed. For each figure (each win rate, the draws, each
final score) it keeps an always-valid p-value and a confidence sequence, an interval that holds at every
look at once.

`compare_until_clear` plays A and B in rounds of `step` bouts per side and stops at the first look where
- a figure's always-valid p-value falls under the level shared among the figures (Bonferroni): that
  figure changed;
- every win rate's confidence sequence lies within ± the smallest change that matters: no change that
  matters in who wins;
- or the limit of bouts per side is reached: no clear answer yet.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..model.ruleset import Ruleset
from ..narrate import GameTerms
from ..sim.backends import Backend
from ..sim.batch import BoutResult
from .ab_verdict import SMALLEST_CHANGE
from .batch import ALPHA, CROWD, BatchReport, Comparison, compare_reports, run_batch, score_of, summarise
from .testrun import TestRunSettings, checked_ruleset

Progress = Callable[[int, int], None]
#: A look before this many pairs of bouts stops nothing: the plug-in variance is too rough before.
MIN_PAIRS = 30
#: The mixing spread of a mean's figure, in its differences' own standard deviations: a small effect
#: (Cohen's 0.2) is what the test is most ready to find. A win rate's is the smallest change that matters.
MEAN_EFFECT = 0.2

CHANGED = "changed"  # a figure's always-valid p-value fell under its level
UNCHANGED = "unchanged"  # every win rate is within ± the smallest change that matters
LIMIT = "limit"  # the limit of bouts per side came first


@dataclass(frozen=True)
class FigureLook:
    """One figure at one look: the mean of the paired differences B − A, its confidence sequence and
    its always-valid p-value (the smallest over this look and the ones before)."""

    name: str
    pairs: int
    mean: float
    interval: tuple[float, float]
    p_value: float
    proportion: bool


@dataclass(frozen=True)
class Look:
    bouts: int  # bouts per side played by this look
    figures: tuple[FigureLook, ...]


@dataclass
class SequentialComparison:
    """The comparison as it stood when the test stopped, every look on the way, and why it stopped."""

    comparison: Comparison
    looks: list[Look] = field(default_factory=list)
    stopped: str = LIMIT
    level: float = ALPHA  # the level each figure was held to (ALPHA shared among the figures)
    smallest: float = SMALLEST_CHANGE

    @property
    def last(self) -> Look:
        return self.looks[-1]

    def sentence(self) -> str:
        """Why it stopped, in words."""
        bouts = self.last.bouts
        if self.stopped == CHANGED:
            moved = [f for f in self.last.figures if f.p_value < self.level]
            names = ", ".join(f.name for f in moved)
            return (f"Stopped after {bouts} bouts per side: the answer is clear, {names} changed "
                    f"(an always-valid test, so stopping early keeps its error rate at {ALPHA:.0%}).")
        if self.stopped == UNCHANGED:
            return (f"Stopped after {bouts} bouts per side: the answer is clear, no win rate moved by "
                    f"{self.smallest * 100:g} points or more (every always-valid interval lies within that).")
        return (f"Stopped at the limit of {bouts} bouts per side with no clear answer yet: neither a change nor "
                f"its absence is shown at the {ALPHA:.0%} level.")


def paired_figures(a: BatchReport, b: BatchReport) -> dict[str, tuple[list[float], bool]]:
    """Each figure's differences B − A over the seeds both sides played to their end, with whether the
    figure is a rate: each contender's win (1 or 0), the draws, each contender's final score, the crowd's."""
    by_seed = {result.seed: result for result in a.finished}
    pairs = [(by_seed[result.seed], result) for result in b.finished if result.seed in by_seed]
    figures: dict[str, tuple[list[float], bool]] = {}
    for label in (label for label in a.contenders if label in b.contenders):
        figures[f"{label} win rate"] = ([float(y.winner == label) - float(x.winner == label) for x, y in pairs], True)
    figures["draws"] = ([float(y.winner is None) - float(x.winner is None) for x, y in pairs], True)
    for label in (label for label in a.contenders if label in b.contenders):
        figures[f"{label} mean final {b.score}"] = ([float(score_of(y, label) - score_of(x, label)) for x, y in pairs],
                                                    False)
    if a.with_crowd and b.with_crowd:
        figures[f"{CROWD} mean final {b.score}"] = ([float(y.crowd - x.crowd) for x, y in pairs], False)
    return figures


def always_valid(differences: Sequence[float], tau: float, alpha: float) -> tuple[float, tuple[float, float], float]:
    """The mean of `differences`, its (1 − alpha) confidence sequence and its always-valid p-value at
    this look, by the normal mixture with mixing spread `tau` and the differences' own variance."""
    n = len(differences)
    mean = statistics.fmean(differences) if differences else 0.0
    if n < 2:
        return mean, (-math.inf, math.inf), 1.0
    variance = statistics.variance(differences)
    if variance == 0:  # every pair differs alike: no change at all, or the same change every bout
        return mean, (mean, mean), 1.0 if mean == 0 else 0.0
    spread = variance + n * tau * tau
    # The mixture likelihood ratio of "B − A has mean 0" against means spread as N(0, tau²).
    log_ratio = 0.5 * math.log(variance / spread) + (n * n * tau * tau * mean * mean) / (2 * variance * spread)
    p_value = min(1.0, math.exp(-log_ratio))
    half = math.sqrt(variance * spread / (n * n * tau * tau) * (2 * math.log(1 / alpha) + math.log(spread / variance)))
    return mean, (mean - half, mean + half), p_value


def look_at(a: BatchReport, b: BatchReport, level: float, smallest: float, before: Look | None) -> Look:
    """Every figure at this look; each p-value no larger than it was at the look before (always valid)."""
    earlier = {figure.name: figure.p_value for figure in before.figures} if before else {}
    figures = []
    for name, (differences, proportion) in paired_figures(a, b).items():
        tau = smallest if proportion else MEAN_EFFECT * (statistics.stdev(differences) if len(differences) > 1 else 1.0)
        mean, interval, p_value = always_valid(differences, tau or 1.0, level)
        figures.append(FigureLook(name, len(differences), mean, interval, min(p_value, earlier.get(name, 1.0)),
                                  proportion))
    return Look(b.bouts, tuple(figures))


def stop_reason(look: Look, level: float, smallest: float) -> str | None:
    """Why the test stops at this look, or None to play on."""
    if not look.figures or min(figure.pairs for figure in look.figures) < MIN_PAIRS:
        return None
    if any(figure.p_value < level for figure in look.figures):
        return CHANGED
    rates = [figure for figure in look.figures if figure.proportion and figure.name.endswith("win rate")]
    if rates and all(-smallest < f.interval[0] and f.interval[1] < smallest for f in rates):
        return UNCHANGED
    return None


def compare_until_clear(settings_a: TestRunSettings, settings_b: TestRunSettings, step: int, limit: int,
                        smallest: float = SMALLEST_CHANGE, progress: Progress | None = None,
                        workers: int | None = None, watched: Sequence[str] = (), ruleset_a: Ruleset | None = None,
                        ruleset_b: Ruleset | None = None, backend: Backend | None = None) -> SequentialComparison:
    """Play the seeds from A's seed under A and B, `step` more per side at each look, until the answer
    is clear or `limit` bouts per side are played (see the module's docstring). `progress(done,
    total)` counts the bouts of both sides against twice the limit."""
    if step < 1 or limit < step:
        raise ValueError("play at least one bout per look, and no more per look than the limit")
    ruleset_a = checked_ruleset(settings_a, ruleset_a)
    ruleset_b = checked_ruleset(settings_b, ruleset_b)
    start = settings_a.seed
    results_a: list[BoutResult] = []
    results_b: list[BoutResult] = []
    looks: list[Look] = []
    stopped = LIMIT
    figures = 0
    while len(results_b) < limit:
        count = min(step, limit - len(results_b))
        first = start + len(results_b)
        done = 2 * len(results_b)
        for results, settings, ruleset, offset in ((results_a, settings_a, ruleset_a, 0),
                                                   (results_b, settings_b, ruleset_b, count)):
            tick = None if progress is None else (lambda n, _total, base=done + offset: progress(base + n, 2 * limit))
            results += run_batch(settings, count, tick, workers, watched, ruleset, first_seed=first,
                                 backend=backend).results
        report_a = summarise(settings_a.with_seed(start), results_a, watched, GameTerms.of(ruleset_a))
        report_b = summarise(settings_b.with_seed(start), results_b, watched, GameTerms.of(ruleset_b))
        figures = figures or len(paired_figures(report_a, report_b))
        level = ALPHA / max(1, figures)
        looks.append(look_at(report_a, report_b, level, smallest, looks[-1] if looks else None))
        reason = stop_reason(looks[-1], level, smallest)
        if reason is not None:
            stopped = reason
            break
    return SequentialComparison(compare_reports(report_a, report_b), looks, stopped, ALPHA / max(1, figures), smallest)


__all__ = ["CHANGED", "LIMIT", "MIN_PAIRS", "UNCHANGED", "FigureLook", "Look", "SequentialComparison",
           "always_valid", "compare_until_clear", "look_at", "paired_figures", "stop_reason"]
