"""Time the engine's hot path: a fixed set of seeded bouts per CPU-second. Measures; never asserts.

    .venv/bin/python benchmarks/engine_hot_path.py [--bouts 50] [--runs 3]

Each run plays the same bouts on one core and reads `time.process_time` (CPU time of this
process, so other work on the machine matters less than with a wall clock); the median of the
runs is printed for each agent pairing, with the applied actions, so two versions of the engine
compare by actions per CPU-second on the very same bouts:

- random agents (seeds 1..N, two players): many cheap decisions, most of them movement;
- heuristic agents (seeds 1..N, two players): fewer decisions, each weighing previews;
- heuristic agents with four players (seeds 1..N/5): the longer clockwise orders.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAIRINGS = (("random", 2, 1), ("heuristic", 2, 1), ("heuristic", 4, 5))


def one_run(agent: str, players: int, bouts: int) -> tuple[float, int]:
    """CPU seconds to play `bouts` seeded bouts, and the actions they applied."""
    from nexus_dsl import cached_ruleset, make_agent, play, standard_setup

    ruleset = cached_ruleset(("base",))
    actions = 0
    start = time.process_time()
    for seed in range(1, bouts + 1):
        setup = standard_setup(players)
        agents = {spec.label: make_agent(agent, seed + index) for index, spec in enumerate(setup.pieces)}
        bout = play(ruleset, setup, agents, seed=seed)
        actions += len(bout.history)
    return time.process_time() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bouts", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    one_run("random", 2, 1)  # warm-up: the ruleset loaded and cached, the grammar compiled
    for agent, players, share in PAIRINGS:
        bouts = max(1, args.bouts // share)
        runs = [one_run(agent, players, bouts) for _ in range(args.runs)]
        seconds = statistics.median(cpu for cpu, _ in runs)
        actions = runs[0][1]
        print(f"{agent:9} x{players}: {bouts:3} bouts, {actions:6} actions, median {seconds:7.2f} CPU s "
              f"({bouts / seconds:6.2f} bouts/s, {1000 * seconds / actions:6.3f} ms per action)")


if __name__ == "__main__":
    main()
