"""Random-playout invariants at scale (pg.13 ending, the coin ledger): 1,000 seeded 2-player and
200 seeded 4-player heuristic bouts (and 200 team bouts of the Team Bouts expansion, 200 of the Alternating
Commands house rule) finish without an
engine error or a script fault, each with a balanced ledger.
Every bout runs with the ledger proved after every event (`strict_ledger`)."""

from __future__ import annotations

from nexus_dsl.sim.batch import BoutSpec, run_batch, summarise


def run(specs: list[BoutSpec]) -> None:
    results = list(run_batch(specs, workers=2))
    summary = summarise(results)
    assert summary.errors == [], "\n".join(r.error or "" for r in summary.errors[:3])
    assert summary.faults == [], "\n".join(str(r.fault) for r in summary.faults[:3])  # base content never faults
    assert summary.unbalanced == []
    assert summary.bouts == len(specs)
    assert all(r.termination is not None for r in results)


def test_a_thousand_two_player_bouts():
    run([BoutSpec(seed=seed, players=2, strict_ledger=True) for seed in range(1000)])


def test_two_hundred_four_player_bouts():
    run([BoutSpec(seed=10_000 + seed, players=4, strict_ledger=True) for seed in range(200)])


def test_two_hundred_team_bouts():
    """The Team Bouts expansion: four lanistas in two sides that take turns and win together."""
    run([BoutSpec(seed=20_000 + seed, players=4, packs=("base", "team_bouts"), strict_ledger=True)
         for seed in range(200)])


def test_two_hundred_bouts_of_alternating_commands():
    """The Alternating Commands house rule: the rounds of each cycle take turns, one action each."""
    run([BoutSpec(seed=30_000 + seed, players=2, packs=("base", "alternating_commands"), strict_ledger=True)
         for seed in range(200)])
