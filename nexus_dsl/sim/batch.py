"""Run many seeded bouts (on several cores) and collect what each one did.

Every bout is reproducible from its seed, its settings and the loaded packs; a worker loads the
Ruleset once and plays its share. A bout that raises is reported as an error with its seed, never
hidden, so a batch doubles as a random-playout invariant test (the engine checks the coin ledger
after every action).
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import traceback
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..agents import make_agent
from ..content.loader import cached_ruleset
from ..engine.bout import Bout, next_action
from ..engine.setup import standard_setup


@dataclass(frozen=True)
class BoutSpec:
    seed: int
    players: int = 2
    packs: tuple[str, ...] = ("base",)
    agents: tuple[str, ...] = ("heuristic",)
    barge: str | None = None
    motivations: tuple[str | None, ...] = ()
    lanistas: tuple[str | None, ...] = ()
    strict_ledger: bool = False  # prove the coin ledger after every event (slower; for tests)


@dataclass
class BoutResult:
    seed: int
    winner: str | None = None
    termination: str | None = None
    cycles: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    crowd: int = 0
    ledger_balanced: bool = True
    commands: dict[str, int] = field(default_factory=dict)
    cards_played: dict[str, int] = field(default_factory=dict)  # influence cards played
    cards_drawn: dict[str, int] = field(default_factory=dict)  # cards drawn from a deck (Turning Points)
    cards_kept: dict[str, int] = field(default_factory=dict)  # influence cards kept at the deal
    abilities: dict[str, int] = field(default_factory=dict)  # trait abilities used
    error: str | None = None


def play_one(spec: BoutSpec) -> BoutResult:
    result = BoutResult(spec.seed)
    try:
        ruleset = cached_ruleset(spec.packs)
        setup = standard_setup(players=spec.players, barge=spec.barge,
                               motivations=list(spec.motivations) or None, lanistas=list(spec.lanistas) or None)
        labels = [h.label for h in setup.helots]
        agents = {label: make_agent(spec.agents[i % len(spec.agents)], seed=spec.seed * 31 + i)
                  for i, label in enumerate(labels)}
        bout = Bout(ruleset, setup, seed=spec.seed, strict_ledger=spec.strict_ledger)
        while bout.pending is not None:
            bout.apply(next_action(bout, agents))
        outcome = bout.outcome
        assert outcome is not None
        result.winner = outcome.winner
        result.termination = outcome.termination.value
        result.cycles = bout.state.cycle
        result.totals = dict(outcome.totals)
        result.crowd = outcome.crowd
        result.ledger_balanced = bout.state.coins_in_play() == bout.state.box_drawn
        for event in bout.log:
            if event.type in ("command", "ability", "card"):
                key = event.data.get("command") or event.data.get("name")
                result.commands[key] = result.commands.get(key, 0) + 1
            if event.type == "card":
                _count(result.cards_played, event.data["name"])
            elif event.type == "ability":
                _count(result.abilities, event.data["name"])
            elif event.type == "draw" and event.data.get("card"):
                _count(result.cards_drawn, event.data["card"])
        # What a lanista kept at the deal is what it played plus what is still in its hand.
        for card, times in result.cards_played.items():
            _count(result.cards_kept, card, times)
        for helot in bout.state.helots.values():
            for card in helot.influence:
                _count(result.cards_kept, card)
    except Exception as error:  # noqa: BLE001 — a batch reports every engine failure with its seed
        result.error = f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=6)}"
    return result


def _count(counter: dict[str, int], key: str, times: int = 1) -> None:
    counter[key] = counter.get(key, 0) + times


def run_batch(specs: Iterable[BoutSpec], workers: int | None = None) -> Iterator[BoutResult]:
    """Yield results as bouts finish (in seed order per chunk), using up to `workers` processes."""
    specs = list(specs)
    workers = workers or min(len(specs), os.cpu_count() or 1)
    if workers <= 1 or len(specs) < 4:
        for spec in specs:
            yield play_one(spec)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play_one, specs, chunksize=max(1, len(specs) // (workers * 8)))


@dataclass
class BatchSummary:
    bouts: int
    errors: list[BoutResult]
    unbalanced: list[int]
    wins: dict[str, int]
    draws: int
    median_cycles: float

    def lines(self) -> list[str]:
        out = [f"{self.bouts} bouts: {len(self.errors)} engine errors, {len(self.unbalanced)} unbalanced ledgers, "
               f"{self.draws} draws, median {self.median_cycles:g} cycles"]
        out += [f"  {label}: {count} wins" for label, count in sorted(self.wins.items())]
        out += [f"  error (seed {r.seed}): {r.error.splitlines()[0] if r.error else ''}" for r in self.errors[:10]]
        return out


def summarise(results: list[BoutResult]) -> BatchSummary:
    finished = [r for r in results if r.error is None]
    wins: dict[str, int] = {}
    for result in finished:
        if result.winner:
            wins[result.winner] = wins.get(result.winner, 0) + 1
    return BatchSummary(
        bouts=len(results),
        errors=[r for r in results if r.error is not None],
        unbalanced=[r.seed for r in finished if not r.ledger_balanced],
        wins=wins,
        draws=sum(1 for r in finished if r.winner is None),
        median_cycles=statistics.median([r.cycles for r in finished]) if finished else 0.0,
    )
