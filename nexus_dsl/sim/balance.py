"""The balance baseline: many seeded heuristic bouts over every barge, motivation and lanista
pairing, summarised as win rates with 95% intervals, bout lengths, draws and card use.

The schedule is a seeded shuffle of every (barge, motivation pair, lanista pair) combination, so a
batch of any size spreads evenly over them and the same seed always plays the same bouts. Win
rates "against the field" leave out mirror matches (a motivation against itself always wins half),
and a draw counts as a bout not won.
"""

from __future__ import annotations

import itertools
from collections import Counter
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.dice import Dice
from ..model.ruleset import Ruleset
from .batch import BoutResult, BoutSpec, problems_json, run_batch
from .rates import Rate

if TYPE_CHECKING:
    from .backends import Backend

#: The line no motivation may cross against the field (a design goal of the base box).
DOMINANCE_LIMIT = 0.60
LABELS = ("red", "blue")


@dataclass(frozen=True)
class Matchup:
    barge: str | None
    motivations: tuple[str, str]
    lanistas: tuple[str, str]


def schedule(ruleset: Ruleset, bouts: int, seed: int) -> list[Matchup]:
    """`bouts` matchups drawn without repetition from every combination, reshuffled when used up."""
    barges: list[str | None] = [item["id"] for item in ruleset.data_items("barges")] or [None]
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    if not motivations or not lanistas:
        raise ValueError("a balance baseline needs the packs' motivations and lanistas")
    combinations = [Matchup(barge, pair_m, pair_l) for barge in barges
                    for pair_m in itertools.product(motivations, repeat=2)
                    for pair_l in itertools.product(lanistas, repeat=2)]
    dice = Dice(seed)
    chosen: list[Matchup] = []
    while len(chosen) < bouts:
        deck = list(combinations)
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates with the seeded dice
            j = dice.roll("schedule", i + 1) - 1
            deck[i], deck[j] = deck[j], deck[i]
        chosen += deck[: bouts - len(chosen)]
    return chosen


def specs_for(matchups: list[Matchup], packs: tuple[str, ...], seed: int) -> list[BoutSpec]:
    return [BoutSpec(seed=seed + i, packs=packs, barge=m.barge, motivations=m.motivations, lanistas=m.lanistas)
            for i, m in enumerate(matchups)]


# ---------------------------------------------------------------- statistics
@dataclass
class BalanceReport:
    bouts: int
    seed: int
    packs: tuple[str, ...]
    errors: list[BoutResult]
    by_motivation: dict[str, Rate]
    by_lanista: dict[str, Rate]
    by_barge: dict[str, Rate]  # the south seat's share of the decided bouts per barge: a fairness check
    median_cycles: float
    draws: int
    card_bouts: dict[str, dict[str, int]] = field(default_factory=dict)  # card -> kept/played/drawn
    uses: dict[str, int] = field(default_factory=dict)  # how often each trait ability was used
    seats: dict[str, int] = field(default_factory=dict)  # helots of each motivation, over all bouts
    faults: list[BoutResult] = field(default_factory=list)  # bouts a script fault stopped (not in the figures)

    @property
    def dominant(self) -> list[str]:
        return [m for m, rate in self.by_motivation.items() if rate.share > DOMINANCE_LIMIT]

    def to_json(self) -> dict[str, Any]:
        """The report as `nexus balance --format json` prints it: every rate with its 95% interval."""
        def rates(table: dict[str, Rate]) -> dict[str, Any]:
            return {key: rate.to_json() for key, rate in table.items()}

        return {
            "bouts": self.bouts, "seed": self.seed, "packs": list(self.packs),
            "finished": self.bouts - len(self.errors) - len(self.faults),
            "median_cycles": self.median_cycles, "draws": self.draws,
            "by_motivation": rates(self.by_motivation), "by_lanista": rates(self.by_lanista),
            "south_seat_by_barge": rates(self.by_barge),
            "dominance_limit": DOMINANCE_LIMIT, "dominant": self.dominant,
            "cards": self.card_bouts, "ability_uses": self.uses, "motivation_seats": self.seats,
            **problems_json(self.errors, self.faults),
        }


def _rates(results: list[tuple[Matchup, BoutResult]], side: Callable[[Matchup], tuple[str, str]]) -> dict[str, Rate]:
    wins: dict[str, int] = {}
    played: dict[str, int] = {}
    for matchup, result in results:
        pair = side(matchup)
        if pair[0] == pair[1]:
            continue  # a mirror match says nothing about one against the field
        for label, key in zip(LABELS, pair):
            played[key] = played.get(key, 0) + 1
            if result.winner == label:
                wins[key] = wins.get(key, 0) + 1
    return {key: Rate(wins.get(key, 0), played[key]) for key in sorted(played)}


def summarise(matchups: list[Matchup], results: list[BoutResult], packs: tuple[str, ...], seed: int) -> BalanceReport:
    paired = list(zip(matchups, results))
    finished = [(m, r) for m, r in paired if r.finished]
    cards: dict[str, dict[str, int]] = {}
    for _, result in finished:
        for column, counter in (("kept", result.cards_kept), ("played", result.cards_played), ("drawn", result.cards_drawn)):
            for card, times in counter.items():
                row = cards.setdefault(card, {"kept": 0, "played": 0, "drawn": 0})
                row[column] += times
    by_barge: dict[str, Rate] = {}
    for barge in sorted({m.barge or "(empty arena)" for m, _ in finished}):
        decided = [r for m, r in finished if (m.barge or "(empty arena)") == barge and r.winner is not None]
        by_barge[barge] = Rate(sum(1 for r in decided if r.winner == LABELS[0]), len(decided))
    uses: dict[str, int] = {}
    for _, result in finished:
        for name, times in result.abilities.items():
            uses[name] = uses.get(name, 0) + times
    return BalanceReport(
        bouts=len(results), seed=seed, packs=packs,
        errors=[r for r in results if r.error is not None],
        faults=[r for r in results if r.fault is not None],
        by_motivation=_rates(finished, lambda m: m.motivations),
        by_lanista=_rates(finished, lambda m: m.lanistas),
        by_barge=by_barge,
        median_cycles=statistics.median([r.cycles for _, r in finished]) if finished else 0.0,
        draws=sum(1 for _, r in finished if r.winner is None),
        card_bouts=cards,
        uses=uses,
        seats=dict(Counter(m for matchup, _ in finished for m in matchup.motivations)),
    )


def run_balance(ruleset: Ruleset, packs: tuple[str, ...], bouts: int, seed: int, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None, backend: Backend | None = None) -> BalanceReport:
    """Play the baseline's bouts on `backend` (default: processes of this machine) and summarise them."""
    matchups = schedule(ruleset, bouts, seed)
    results: list[BoutResult] = []
    specs = specs_for(matchups, packs, seed)
    for done, result in enumerate(run_batch(specs, workers=workers, backend=backend), start=1):
        results.append(result)
        if progress:
            progress(done, bouts)
    return summarise(matchups, results, packs, seed)


# ---------------------------------------------------------------- the markdown table
def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate_rows(rates: dict[str, Rate], names: dict[str, str]) -> Iterable[str]:
    yield "| | bouts | wins | win rate | 95% interval |"
    yield "|---|---:|---:|---:|---|"
    for key, rate in sorted(rates.items(), key=lambda kv: -kv[1].share):
        low, high = rate.interval()
        yield f"| {names.get(key, key)} | {rate.bouts} | {rate.wins} | {_percent(rate.share)} | {_percent(low)} – {_percent(high)} |"


def markdown(report: BalanceReport, ruleset: Ruleset, command: str) -> str:
    names = {item["id"]: item.get("name", item["id"])
             for kind in ("motivations", "lanistas", "barges") for item in ruleset.data_items(kind)}
    for kind in ("influence", "turning_point", "trait_ability"):
        for declaration in ruleset.declarations(kind):
            names[declaration.id] = declaration.name or declaration.id
    finished = report.bouts - len(report.errors) - len(report.faults)
    lines = [
        "# Balance baseline",
        "",
        f"Generated by `{command}` — rerun it to refresh this page. Packs: {', '.join(report.packs)}; "
        f"first seed {report.seed}.",
        "",
        f"{report.bouts} seeded two-player bouts between heuristic players, spread evenly over every barge, "
        "every ordered pair of motivations and every ordered pair of lanistas. Win rates are against the "
        "field: mirror matches are left out, and a draw counts as a bout not won. Intervals are 95% Wilson "
        "score intervals.",
        "",
        "## Summary",
        "",
        f"- Bouts finished: {finished} of {report.bouts} (engine errors: {len(report.errors)}"
        + (f", script faults: {len(report.faults)})" if report.faults else ")"),
        f"- Median bout length: {report.median_cycles:g} Command Cycles",
        f"- Draws: {report.draws} ({_percent(report.draws / finished if finished else 0.0)})",
        "- Most winning motivation: "
        + (max(((names.get(k, k), r.share) for k, r in report.by_motivation.items()), key=lambda x: x[1], default=("-", 0.0))[0])
        + f" — no motivation may win more than {_percent(DOMINANCE_LIMIT)} against the field: "
        + ("**exceeded by " + ", ".join(report.dominant) + "**" if report.dominant else "holds"),
        "",
        "## Win rate by motivation",
        "",
        *_rate_rows(report.by_motivation, names),
        "",
        "## Win rate by lanista",
        "",
        *_rate_rows(report.by_lanista, names),
        "",
        "## South seat's share of the decided bouts, by barge",
        "",
        "Every matchup is played from both seats equally often, so a barge far from 50% favours a seat.",
        "",
        *_rate_rows(report.by_barge, names),
        "",
        "## Cards",
        "",
        "Influence cards: how often a lanista kept the card at the deal and how often it was played. "
        "Turning Point cards: how often the card was drawn (a drawn card is played at once).",
        "",
        "| card | kept | played | drawn |",
        "|---|---:|---:|---:|",
    ]
    for card, row in sorted(report.card_bouts.items(), key=lambda kv: names.get(kv[0], kv[0])):
        lines.append(f"| {names.get(card, card)} | {row['kept']} | {row['played']} | {row['drawn']} |")
    lines += ["", "## Motivation abilities", "",
              "How often each motivation's unique trait abilities were used, per bout its helot fought.", "",
              "| motivation | ability | uses | per bout |", "|---|---|---:|---:|"]
    for motivation in ruleset.data_items("motivations"):
        seats = report.seats.get(motivation["id"], 0)
        for ability in motivation.get("abilities", ()):
            times = report.uses.get(ability, 0)
            per_bout = times / seats if seats else 0.0
            lines.append(f"| {motivation.get('name', motivation['id'])} | {names.get(ability, ability)} | {times} | {per_bout:.2f} |")
    never = sorted(d.id for kind in ("influence", "turning_point") for d in ruleset.declarations(kind)
                   if d.id not in report.card_bouts)
    if never:
        lines += ["", "Never kept, played or drawn: " + ", ".join(names.get(c, c) for c in never) + "."]
    return "\n".join(lines) + "\n"
