"""Many bouts with the same settings (the editor's batch mode), and A/B comparisons between two settings.

`run_batch` plays bouts seeded `settings.seed + i` on worker processes (`sim/batch.py`) and reports
per-player win rates with 95% Wilson intervals, draws, every bout's final cred (each player's and the
crowd's), bout lengths in cycles, engine errors with their seeds, bouts stopped by a script fault
with their seeds and positioned diagnostics, and for "watched" card and ability ids how often each
was played or drawn and what followed it (damage, cred, states).

A game played without a board (NEXUS Pirates) is reported in its own terms: wins by side (the 2 vs 2
variant's teams), each side's final score (its players' together, the stat its `game` scores), bout
lengths in rounds, and no crowd, which only a game with a crowd's pile has.

`compare` plays the same seeds under two settings (typically B = A plus a pack, or A with a card
stacked or dealt) and tests each difference: win rates with a two-proportion z-test, mean final cred
with Welch's t-test, each with a 95% interval for the difference and a verdict in plain words.
The distributions come from `scipy.stats`. The tests treat A and B as independent samples, which is
sound (if cautious) although they share seeds: once content differs the dice soon go different ways.
"""

from __future__ import annotations

import math
import statistics
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import Diagnostic
from ..model.ruleset import Ruleset
from ..narrate import NEXUS_TERMS, GameTerms
from ..sim.rates import Z95, Rate
from ..sim.backends import Backend
from ..sim.batch import BoutResult, RulesetKey, WatchedUse, fault_lines
from ..sim.batch import run_batch as run_specs
from .testrun import TestRunSettings, checked_ruleset

Progress = Callable[[int, int], None]
#: The level a difference must reach to be called significant.
ALPHA = 0.05
CROWD = "crowd"


# ---------------------------------------------------------------- one batch
@dataclass
class WatchedSummary:
    """What a watched card or ability did over a batch (sums of `sim.batch.WatchedUse`)."""

    id: str
    bouts: int = 0  # bouts in which it was used or drawn
    played: int = 0
    drawn: int = 0
    user_wins: int = 0  # bouts won by a player who used or drew it
    damage: int = 0
    hits: int = 0
    cred_gained: int = 0
    cred_lost: int = 0
    crowd_change: int = 0
    states_added: dict[str, int] = field(default_factory=dict)
    states_removed: dict[str, int] = field(default_factory=dict)

    @property
    def uses(self) -> int:
        return self.played + self.drawn

    @property
    def user_win_rate(self) -> Rate:
        """How often a bout it was used in went to a player who used it."""
        return Rate(self.user_wins, self.bouts)

    def per_use(self, total: int) -> float:
        return total / self.uses if self.uses else 0.0

    def add(self, use: WatchedUse, winner: str | None) -> None:
        self.bouts += 1
        self.played += use.played
        self.drawn += use.drawn
        self.user_wins += 1 if winner is not None and winner in use.users else 0
        self.damage += use.damage
        self.hits += use.hits
        self.cred_gained += use.cred_gained
        self.cred_lost += use.cred_lost
        self.crowd_change += use.crowd_change
        for state, times in use.states_added.items():
            self.states_added[state] = self.states_added.get(state, 0) + times
        for state, times in use.states_removed.items():
            self.states_removed[state] = self.states_removed.get(state, 0) + times

    def line(self) -> str:
        states = ", ".join(f"{s} x{n}" for s, n in sorted(self.states_added.items()))
        return (f"{self.id}: played {self.played}, drawn {self.drawn} in {self.bouts} bouts; "
                f"damage {self.damage} ({self.per_use(self.damage):.1f} per use), cred +{self.cred_gained}/-{self.cred_lost} "
                f"to its user, crowd {self.crowd_change:+d}" + (f"; states added: {states}" if states else ""))


@dataclass
class BatchReport:
    """What a batch of bouts with one settings did. Bouts that raised are in `errors`, bouts a script
    fault stopped in `faults`; neither is in the figures."""

    settings: TestRunSettings
    results: list[BoutResult]
    labels: tuple[str, ...]
    watched: dict[str, WatchedSummary] = field(default_factory=dict)
    # Who wins and scores: the players (a game with pieces: NEXUS), or the sides (a game without).
    contenders: tuple[str, ...] = ()
    score: str = "cred"  # what a final standing is counted in, in the game's words
    with_crowd: bool = True  # whether the game has the crowd's pile (a game with pieces)
    length: str = "cycles"  # what a bout's length is counted in

    def __post_init__(self) -> None:
        if not self.contenders:
            self.contenders = self.labels

    @property
    def bouts(self) -> int:
        return len(self.results)

    @property
    def finished(self) -> list[BoutResult]:
        return [r for r in self.results if r.finished]

    @property
    def faults(self) -> list[tuple[int, Diagnostic]]:
        """(seed, the positioned diagnostic) of every bout a script fault stopped."""
        return [(r.seed, r.fault) for r in self.results if r.fault is not None]

    @property
    def errors(self) -> list[tuple[int, str]]:
        """(seed, the error's first line) of every bout the engine failed on."""
        return [(r.seed, (r.error or "").splitlines()[0]) for r in self.results if r.error is not None]

    @property
    def wins(self) -> dict[str, Rate]:
        """Each contender's win rate over the finished bouts (a draw is a bout not won)."""
        finished = self.finished
        return {label: Rate(sum(1 for r in finished if r.winner == label), len(finished)) for label in self.contenders}

    @property
    def draws(self) -> Rate:
        finished = self.finished
        return Rate(sum(1 for r in finished if r.winner is None), len(finished))

    @property
    def cred(self) -> dict[str, list[int]]:
        """Final score per bout (finished bouts, in seed order): each contender's (a side's is its
        players' together), and the crowd's cred in a game with a crowd."""
        finished = self.finished
        piles = {label: [score_of(r, label) for r in finished] for label in self.contenders}
        if self.with_crowd:
            piles[CROWD] = [r.crowd for r in finished]
        return piles

    @property
    def cycles(self) -> list[int]:
        """Each finished bout's length in Command Cycles."""
        return [r.cycles for r in self.finished]

    def mean_cred(self) -> dict[str, float]:
        return {pile: statistics.fmean(values) if values else 0.0 for pile, values in self.cred.items()}

    def lines(self) -> list[str]:
        """A plain-text summary (the CLI's)."""
        cycles = self.cycles
        out = [f"{self.bouts} bouts (seeds {self.settings.seed}..{self.settings.seed + self.bouts - 1}): "
               f"{len(self.errors)} engine errors, {len(self.faults)} script faults, {self.draws.wins} draws, "
               f"median {statistics.median(cycles) if cycles else 0:g} {self.length}"]
        means = self.mean_cred()
        for label, rate in self.wins.items():
            low, high = rate.interval()
            out.append(f"  {label}: wins {rate.share:.1%} (95% {low:.1%}-{high:.1%}), mean {self.score} {means[label]:.1f}")
        if self.with_crowd:
            out.append(f"  crowd: mean cred {means[CROWD]:.1f}")
        out += [f"  {summary.line()}" for summary in self.watched.values()]
        out += [f"  error (seed {seed}): {message}" for seed, message in self.errors[:10]]
        out += fault_lines([r for r in self.results if r.fault is not None])
        return out


def run_batch(settings: TestRunSettings, bouts: int, progress: Progress | None = None,
              workers: int | None = None, watched: Sequence[str] = (), ruleset: Ruleset | None = None,
              first_seed: int | None = None, backend: Backend | None = None) -> BatchReport:
    """Play `bouts` bouts seeded `first_seed + i` (default: the settings' seed) on `backend`'s
    workers (`sim/backends.py`; default: processes of this machine).

    `progress(done, total)` is called after every bout. `watched` card or ability ids are followed
    through every bout (`BatchReport.watched`). The settings are checked first (`SettingsError`)."""
    return _run_batches([(settings, ruleset)], bouts, progress, workers, watched, first_seed, backend)[0]


def _run_batches(batches: Sequence[tuple[TestRunSettings, Ruleset | None]], bouts: int, progress: Progress | None,
                 workers: int | None, watched: Sequence[str], first_seed: int | None,
                 backend: Backend | None) -> list[BatchReport]:
    """`run_batch` of each settings (with its ruleset, if loaded), one after the other on the same
    workers: their bouts are handed to the backend as one run, so that the workers start once and
    go from one batch's bouts to the next's without waiting. `progress(done, total)` counts the
    bouts of all."""
    if bouts < 1:
        raise ValueError("a batch plays at least one bout")
    checked = [(settings, checked_ruleset(settings, ruleset)) for settings, ruleset in batches]
    total = bouts * len(checked)
    if len(_by_packs(checked)) < len({id(ruleset) for _, ruleset in checked}):
        # The same packs loaded twice (a page's load and another): a run's workers play one ruleset
        # per packs, so each batch is a run of its own, played with its own.
        return [_play_run([batch], bouts, _offset(progress, at * bouts, total), workers, watched, first_seed,
                          backend)[0] for at, batch in enumerate(checked)]
    return _play_run(checked, bouts, progress, workers, watched, first_seed, backend)


def _play_run(checked: Sequence[tuple[TestRunSettings, Ruleset]], bouts: int, progress: Progress | None,
              workers: int | None, watched: Sequence[str], first_seed: int | None,
              backend: Backend | None) -> list[BatchReport]:
    """The bouts of batches whose settings were checked against their rulesets (one per packs),
    as one run of the backend, and a report of each."""
    starts = [settings.seed if first_seed is None else first_seed for settings, _ in checked]
    specs = [settings.bout_spec(seed=start + i, watched=watched)
             for (settings, _), start in zip(checked, starts) for i in range(bouts)]
    results: list[BoutResult] = []
    for result in run_specs(specs, workers=workers, rulesets=_by_packs(checked), backend=backend):
        results.append(result)
        if progress is not None:
            progress(len(results), len(specs))
    reports = []
    for at, ((settings, ruleset), start) in enumerate(zip(checked, starts)):
        own = sorted(results[at * bouts:(at + 1) * bouts], key=lambda r: r.seed)  # the results come in the specs' order
        reports.append(summarise(settings.with_seed(start), own, watched, GameTerms.of(ruleset)))
    return reports


def _by_packs(checked: Sequence[tuple[TestRunSettings, Ruleset]]) -> dict[RulesetKey, Ruleset]:
    """The batches' rulesets by what a run's workers play them by: the packs and their content root."""
    return {(tuple(settings.packs), settings.content_root): ruleset for settings, ruleset in checked}


def _offset(progress: Progress | None, before: int, total: int) -> Progress | None:
    """`progress` of a part of a run: `before` bouts already done, of `total`."""
    if progress is None:
        return None
    return lambda done, _total: progress(before + done, total)


def summarise(settings: TestRunSettings, results: list[BoutResult], watched: Sequence[str] = (),
              terms: GameTerms = NEXUS_TERMS) -> BatchReport:
    summaries = {ident: WatchedSummary(ident) for ident in watched}
    for result in results:
        for ident, use in result.watched.items():
            summaries.setdefault(ident, WatchedSummary(ident)).add(use, result.winner)
    if terms.pieces:
        return BatchReport(settings, results, settings.labels, summaries)
    return BatchReport(settings, results, settings.labels, summaries, contenders=_sides(settings.labels, results),
                       score=terms.score, with_crowd=False, length="rounds")


def _sides(labels: Sequence[str], results: Sequence[BoutResult]) -> tuple[str, ...]:
    """The sides of the players, in seat order (each player's own label where no bout says)."""
    sides = next((r.sides for r in results if r.sides), {})
    return tuple(dict.fromkeys(sides.get(label, label) for label in labels))


def score_of(result: BoutResult, contender: str) -> int:
    """A contender's final score in one bout: a player's total, or a side's players' together."""
    if contender in result.totals and result.sides.get(contender, contender) == contender:
        return result.totals[contender]
    return sum(total for label, total in result.totals.items() if result.sides.get(label) == contender)


# ---------------------------------------------------------------- statistics
@dataclass(frozen=True)
class Difference:
    """B minus A for one figure, with a 95% interval and a p-value."""

    name: str  # e.g. "red win rate", "blue mean cred"
    a: float
    b: float
    interval: tuple[float, float]
    p_value: float
    test: str  # "two-proportion z-test" or "Welch's t-test"
    proportion: bool  # a rate (shown as percentages) or a mean

    @property
    def difference(self) -> float:
        return self.b - self.a

    @property
    def significant(self) -> bool:
        return self.p_value < ALPHA

    @property
    def verdict(self) -> str:
        return "significant at 5%" if self.significant else "not significant"

    def shown(self, value: float, signed: bool = False) -> str:
        """One of this figure's values in words: a rate as a percentage, a change of rate in
        points (signed), a mean as a number."""
        if self.proportion:
            return f"{value * 100:+.1f} points" if signed else f"{value:.1%}"
        return f"{value:+.2f}" if signed else f"{value:.2f}"

    def sentence(self) -> str:
        low, high = (self.shown(end, signed=True) for end in self.interval)
        return (f"{self.name}: {self.shown(self.a)} → {self.shown(self.b)} "
                f"({self.shown(self.difference, signed=True)}, 95% CI {low} to {high}), "
                f"p = {self.p_value:.3g}: {self.verdict} ({self.test})")


def proportion_difference(name: str, a: Rate, b: Rate) -> Difference:
    """B's rate minus A's: a Wald interval for the difference and a pooled two-proportion z-test."""
    pa, pb = a.share, b.share
    spread = Z95 * math.sqrt((pa * (1 - pa) / a.bouts if a.bouts else 0) + (pb * (1 - pb) / b.bouts if b.bouts else 0))
    pooled = (a.wins + b.wins) / (a.bouts + b.bouts) if a.bouts + b.bouts else 0.0
    se = math.sqrt(pooled * (1 - pooled) * ((1 / a.bouts if a.bouts else 0) + (1 / b.bouts if b.bouts else 0)))
    if se == 0:
        p_value = 1.0 if pa == pb else 0.0
    else:
        from scipy import stats  # here: scipy.stats takes most of a second to import, only a comparison needs it

        p_value = float(2 * stats.norm.sf(abs(pb - pa) / se))
    return Difference(name, pa, pb, (pb - pa - spread, pb - pa + spread), min(1.0, p_value),
                      "two-proportion z-test", True)


def mean_difference(name: str, a: Sequence[float], b: Sequence[float]) -> Difference:
    """B's mean minus A's with Welch's t-test (unequal variances) and its 95% interval."""
    mean_a = statistics.fmean(a) if a else 0.0
    mean_b = statistics.fmean(b) if b else 0.0
    if len(a) < 2 or len(b) < 2:
        return Difference(name, mean_a, mean_b, (-math.inf, math.inf), 1.0, "Welch's t-test", False)
    diff = mean_b - mean_a
    if statistics.variance(a) == 0 and statistics.variance(b) == 0:  # no spread: nothing to test
        return Difference(name, mean_a, mean_b, (diff, diff), 1.0 if diff == 0 else 0.0, "Welch's t-test", False)
    from scipy import stats  # here: see proportion_difference

    # B against A, so the interval is for B's mean minus A's.
    with warnings.catch_warnings():
        # A side without spread (every bout ended on the same cred) is normal here; scipy would warn
        # of "catastrophic cancellation" while still computing the right test from the other side.
        warnings.simplefilter("ignore", RuntimeWarning)
        result = stats.ttest_ind(b, a, equal_var=False)
    interval = result.confidence_interval(1 - ALPHA)
    return Difference(name, mean_a, mean_b, (float(interval.low), float(interval.high)),
                      min(1.0, max(0.0, float(result.pvalue))), "Welch's t-test", False)


# ---------------------------------------------------------------- A/B
@dataclass
class Comparison:
    """The same seeds played under settings A and B, and what changed."""

    a: BatchReport
    b: BatchReport
    wins: dict[str, Difference]  # per player
    draws: Difference
    cred: dict[str, Difference]  # per player, and the crowd's

    @property
    def differences(self) -> list[Difference]:
        return [*self.wins.values(), self.draws, *self.cred.values()]

    def lines(self) -> list[str]:
        return [difference.sentence() for difference in self.differences]


def compare(settings_a: TestRunSettings, settings_b: TestRunSettings, bouts: int, progress: Progress | None = None,
            workers: int | None = None, watched: Sequence[str] = (), ruleset_a: Ruleset | None = None,
            ruleset_b: Ruleset | None = None, backend: Backend | None = None) -> Comparison:
    """Play the same `bouts` seeds (from A's seed) under A, then B, in one run on the same workers,
    and test every difference. `progress(done, total)` counts both halves (total = 2 x bouts)."""
    report_a, report_b = _run_batches([(settings_a, ruleset_a), (settings_b, ruleset_b)], bouts, progress, workers,
                                      watched, settings_a.seed, backend)
    return compare_reports(report_a, report_b)


def compare_reports(report_a: BatchReport, report_b: BatchReport) -> Comparison:
    """Every difference of B from A, for two batches already played (over the same seeds)."""
    labels = [label for label in report_a.contenders if label in report_b.contenders]
    wins_a, wins_b = report_a.wins, report_b.wins
    cred_a, cred_b = report_a.cred, report_b.cred
    piles = [*labels, CROWD] if report_a.with_crowd and report_b.with_crowd else labels
    return Comparison(
        a=report_a, b=report_b,
        wins={label: proportion_difference(f"{label} win rate", wins_a[label], wins_b[label]) for label in labels},
        draws=proportion_difference("draws", report_a.draws, report_b.draws),
        cred={pile: mean_difference(f"{pile} mean final {report_b.score}", cred_a[pile], cred_b[pile]) for pile in piles},
    )


__all__ = ["ALPHA", "BatchReport", "Comparison", "Difference", "WatchedSummary", "compare", "compare_reports",
           "mean_difference", "proportion_difference", "run_batch", "summarise"]
