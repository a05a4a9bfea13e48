"""Measure the speed figures of whichever `nexus_dsl` is importable, and print them as JSON.

    PYTHONPATH=<a tree> python benchmarks/figures.py [--quick | --smoke] [--runs N] [--only FIGURE,...]

`benchmarks/bench.py` (`make bench`) runs this script twice, each time in a fresh process: once
with PYTHONPATH set to this tree and once set to a worktree of the reference commit. So it uses
only public API that both have (`load_ruleset`, `cached_ruleset`, `parse`, `play`,
`standard_setup`, `make_agent`, `workbench.batch.compare`, `TestRunSettings`, the `nexus balance`
command) and never imports anything of the tree it is measured against by path.

Each figure is measured on the same seeded bouts on both sides, and carries evidence of that
(applied actions, bout lengths, a digest of the balance page): equal evidence means both sides
played the very same bouts. Bout rates and load times are CPU time of this process
(`time.process_time`), the median of `--runs` runs, so other work on the machine matters less;
the A/B comparison and the balance baseline span several processes, so they are wall seconds.
Measures; never asserts.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

#: A house-rule pack of the base game: the A/B comparison's B is A plus this pack, the editor's
#: typical question ("what does this house rule change?").
AB_PACK = "steady_on_three"
#: The first seed of the A/B comparison and of the balance baseline (`nexus balance --seed 1`).
FIRST_SEED = 1


@dataclass(frozen=True)
class Sizes:
    """How much each figure plays: bouts per run, runs, and the wall-clock figures' sizes."""

    heuristic_2p: int  # heuristic 2-player bouts per run
    random_2p: int  # random-agent 2-player bouts per run
    heuristic_4p: int  # heuristic 4-player bouts per run
    random_4p: int  # random-agent 4-player bouts per run
    runs: int  # runs of each CPU figure (the median is reported)
    wall_runs: int  # runs of each wall-clock figure (A/B, balance: minutes each at full size)
    ab_bouts: int  # bouts per side of the A/B comparison
    balance_bouts: int  # bouts of the balance baseline
    warm_loads: int  # warm loads per run
    parse_rounds: int  # times every script of the content is parsed per run


SIZES = {
    "full": Sizes(heuristic_2p=40, random_2p=100, heuristic_4p=16, random_4p=40, runs=5, wall_runs=1,
                  ab_bouts=1000, balance_bouts=2000, warm_loads=4, parse_rounds=2),
    "quick": Sizes(heuristic_2p=10, random_2p=25, heuristic_4p=4, random_4p=10, runs=2, wall_runs=1,
                   ab_bouts=50, balance_bouts=100, warm_loads=2, parse_rounds=1),
    # Proves the instrument works (the test suite runs it): a handful of bouts, one run.
    "smoke": Sizes(heuristic_2p=2, random_2p=2, heuristic_4p=1, random_4p=1, runs=1, wall_runs=1,
                   ab_bouts=4, balance_bouts=4, warm_loads=1, parse_rounds=1),
}


def log(message: str) -> None:
    """Progress on stderr; stdout carries only the JSON."""
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- seeded bouts
def drawn_setup(seed: int, players: int, motivations: list[str], lanistas: list[str]) -> Any:
    """The standard setup of bout `seed`: a random barge (the engine's d8, as the editor's "random"
    barge), and each player's motivation and lanista drawn from the seed. The editor cannot ask
    for a random motivation or lanista, so the draw is the bench's own, the same on both sides."""
    from nexus_dsl import standard_setup

    draw = random.Random(seed)
    return standard_setup(players, roles=[draw.choice(motivations) for _ in range(players)],
                          profiles=[draw.choice(lanistas) for _ in range(players)], layout="random")


def play_bouts(agent: str, players: int, bouts: int) -> tuple[float, int, int]:
    """CPU seconds to play bouts seeded 1..`bouts`, the actions they applied and their cycles."""
    from nexus_dsl import cached_ruleset, make_agent, play

    ruleset = cached_ruleset(("base",))
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    actions = cycles = 0
    start = time.process_time()
    for seed in range(1, bouts + 1):
        setup = drawn_setup(seed, players, motivations, lanistas)
        # Seeded per seat as a batch seeds them (`sim.batch.spec_agents`).
        agents = {spec.label: make_agent(agent, seed=seed * 31 + index) for index, spec in enumerate(setup.pieces)}
        bout = play(ruleset, setup, agents, seed=seed)
        actions += len(bout.history)
        cycles += bout.state.cycle
    return time.process_time() - start, actions, cycles


def bout_rate(agent: str, players: int, bouts: int, runs: int) -> dict[str, Any]:
    play_bouts(agent, players, 1)  # warm-up: the ruleset loaded and cached, the grammar compiled
    # As a process that plays bouts and nothing else does (`nexus sim`, a batch's workers: see
    # `sim.batch.settle_heap`), the long-lived heap is frozen while bouts are timed, on both sides
    # of the comparison; thawed after, so the figures measured next see the collector as it was.
    gc.freeze()
    try:
        measured = [play_bouts(agent, players, bouts) for _ in range(runs)]
    finally:
        gc.unfreeze()
    seconds = statistics.median(cpu for cpu, _, _ in measured)
    return {"value": bouts / seconds, "bouts": bouts, "runs": runs, "cpu_seconds": seconds,
            "actions": measured[0][1], "cycles": measured[0][2]}


# ---------------------------------------------------------------- the editor's A/B comparison
def ab_settings() -> tuple[Any, Any]:
    """A: the base game on a random barge, motivations and lanistas drawn from the first seed;
    B: the same plus a house rule."""
    from nexus_dsl import cached_ruleset
    from nexus_dsl.workbench.testrun import TestRunSettings

    ruleset = cached_ruleset(("base",))
    draw = random.Random(FIRST_SEED)
    motivations = tuple(draw.choice([item["id"] for item in ruleset.data_items("motivations")]) for _ in range(2))
    lanistas = tuple(draw.choice([item["id"] for item in ruleset.data_items("lanistas")]) for _ in range(2))
    a = TestRunSettings(packs=("base",), barge="random", motivations=motivations, lanistas=lanistas, seed=FIRST_SEED)
    return a, replace(a, packs=("base", AB_PACK))


def ab_compare(bouts: int, workers: int, runs: int) -> dict[str, Any]:
    """Wall seconds of `compare` as the editor's test-run page calls it: B's ruleset loaded by the
    page, A's by the comparison, a progress callback after every bout."""
    from nexus_dsl import cached_ruleset
    from nexus_dsl.workbench.batch import compare

    a, b = ab_settings()
    ruleset_b = cached_ruleset(b.packs)
    compare(a, b, 1, workers=1, ruleset_b=ruleset_b)  # warm-up: both rulesets loaded as the page has them
    # The comparison's tests import scipy.stats at their first use, once per process (about half a
    # second); a one-bout warm-up has nothing to test, so the first figure measured would pay it and
    # the second would not. Imported here, both time comparisons alone, as a page's second one runs.
    import scipy.stats  # noqa: F401
    ticks: list[int] = []
    times, cycles = [], 0
    for _ in range(runs):
        ticks.clear()
        start = time.perf_counter()
        comparison = compare(a, b, bouts, progress=lambda done, _total: ticks.append(done), workers=workers,
                             ruleset_b=ruleset_b)
        times.append(time.perf_counter() - start)
        cycles = sum(comparison.a.cycles) + sum(comparison.b.cycles)
    return {"value": statistics.median(times), "bouts_per_side": bouts, "workers": workers, "runs": runs,
            "cycles": cycles, "progress_calls": len(ticks)}


# ---------------------------------------------------------------- the balance baseline
def balance(bouts: int, runs: int) -> dict[str, Any]:
    """Wall seconds of `nexus balance --bouts N --seed 1 --packs base` in a fresh process, as a
    designer runs it; the page's digest shows both sides played the same bouts."""
    times, digest = [], ""
    # The page names the command that made it, `--out` included: the same relative name on both
    # sides keeps the pages comparable.
    command = [sys.executable, "-m", "nexus_dsl", "balance", "--bouts", str(bouts), "--seed", str(FIRST_SEED),
               "--packs", "base", "--quiet", "--out", "balance.md"]
    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / "balance.md"
        for _ in range(runs):
            start = time.perf_counter()
            # Exit 1 is a finding of the baseline (a dominant motivation), not a failure to run.
            done = subprocess.run(command, capture_output=True, text=True, cwd=work)
            times.append(time.perf_counter() - start)
            if done.returncode not in (0, 1) or not page.exists():
                raise RuntimeError(f"nexus balance failed (exit {done.returncode}):\n{done.stderr}")
            digest = hashlib.sha256(page.read_bytes()).hexdigest()[:12]
    return {"value": statistics.median(times), "bouts": bouts, "runs": runs, "page_sha256": digest}


# ---------------------------------------------------------------- loading and parsing
COLD_LOAD = (
    "import time; start = time.process_time(); "
    "from nexus_dsl import load_ruleset; load_ruleset(['base']); "
    "print(time.process_time() - start)"
)


def load_cold(runs: int) -> dict[str, Any]:
    """CPU ms of importing the package and loading + validating the base pack in a fresh process."""
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", COLD_LOAD], capture_output=True, text=True, check=True)
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return {"value": 1000 * statistics.median(times), "runs": runs}


def load_warm(loads: int, runs: int) -> dict[str, Any]:
    """CPU ms of loading + validating the base pack again in a process that has loaded it before."""
    from nexus_dsl import load_ruleset

    load_ruleset(["base"])
    times = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(loads):
            load_ruleset(["base"])
        times.append((time.process_time() - start) / loads)
    return {"value": 1000 * statistics.median(times), "runs": runs, "loads_per_run": loads}


def parse_per_declaration(rounds: int, runs: int) -> dict[str, Any]:
    """CPU µs per declaration to parse every script of the tree's content (grammar compiled)."""
    import nexus_dsl
    from nexus_dsl import parse

    content = Path(nexus_dsl.__file__).resolve().parents[1] / "content"
    sources = [path.read_text(encoding="utf-8") for path in sorted(content.rglob("*.nexus"))]
    declarations = sum(len(parse(source).declarations) for source in sources)
    times = []
    for _ in range(runs):
        start = time.process_time()
        for _ in range(rounds):
            for source in sources:
                parse(source)
        times.append((time.process_time() - start) / (rounds * declarations))
    return {"value": 1e6 * statistics.median(times), "runs": runs, "declarations": declarations}


# ---------------------------------------------------------------- the command line's start
#: `nexus --help` is timed this many times per run: one start is ~0.1 s, and its spread is wide.
HELP_STARTS = 10


def cli_help(runs: int) -> dict[str, Any]:
    """Wall ms from starting `python -m nexus_dsl --help` to its exit, as a person at a terminal
    waits for it (the interpreter's own start included); the median of the starts, with their CPU
    time (user + system) beside it."""
    command = [sys.executable, "-m", "nexus_dsl", "--help"]
    walls, cpus = [], []
    for _ in range(runs * HELP_STARTS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"value": 1000 * statistics.median(walls), "cpu_ms": 1000 * statistics.median(cpus),
            "starts": len(walls)}


# ---------------------------------------------------------------- the figures
Measure = Callable[[Sizes], dict[str, Any]]

#: Every measured figure, in the order they are measured and printed.
MEASURES: dict[str, Measure] = {
    "heuristic_2p": lambda s: bout_rate("heuristic", 2, s.heuristic_2p, s.runs),
    "random_2p": lambda s: bout_rate("random", 2, s.random_2p, s.runs),
    "heuristic_4p": lambda s: bout_rate("heuristic", 4, s.heuristic_4p, s.runs),
    "random_4p": lambda s: bout_rate("random", 4, s.random_4p, s.runs),
    "ab_2_workers": lambda s: ab_compare(s.ab_bouts, 2, s.wall_runs),
    "ab_1_worker": lambda s: ab_compare(s.ab_bouts, 1, s.wall_runs),
    "balance": lambda s: balance(s.balance_bouts, s.wall_runs),
    "load_warm": lambda s: load_warm(s.warm_loads, s.runs),
    "load_cold": lambda s: load_cold(s.runs),
    "parse_per_declaration": lambda s: parse_per_declaration(s.parse_rounds, s.runs),
    "cli_help": lambda s: cli_help(s.runs),
}

Derive = Callable[[dict[str, dict[str, Any]]], float]


def _value_ratio(top: str, bottom: str) -> Derive:
    """The ratio of two measured figures' values."""
    return lambda figures: figures[top]["value"] / figures[bottom]["value"]


def _ratio(top: str, bottom: str) -> tuple[tuple[str, str], Derive]:
    """A derived figure that is the ratio of two measured ones: the two it needs, and the ratio."""
    return (top, bottom), _value_ratio(top, bottom)


def _actions_per_bout(figure: dict[str, Any]) -> float:
    return figure["actions"] / figure["bouts"]


def _length_ratio(figures: dict[str, dict[str, Any]]) -> float:
    """How many times the actions of a heuristic 2-player bout a 4-player bout applies: the game's
    own length, the same on any engine that plays the same bouts."""
    return _actions_per_bout(figures["heuristic_4p"]) / _actions_per_bout(figures["heuristic_2p"])


_heuristic_cost_ratio = _value_ratio("heuristic_2p", "heuristic_4p")

#: Figures computed from measured ones: the measured figures each needs, and how.
DERIVED: dict[str, tuple[tuple[str, str], Derive]] = {
    # a 4-player bout's cost in 2-player bouts
    "cost_4p_vs_2p": _ratio("heuristic_2p", "heuristic_4p"),
    # the same with random agents
    "random_cost_4p_vs_2p": _ratio("random_2p", "random_4p"),
    # that cost split into the bouts' length and the engine's cost of each action applied
    "length_4p_vs_2p": (("heuristic_2p", "heuristic_4p"), _length_ratio),
    "action_cost_4p_vs_2p": (("heuristic_2p", "heuristic_4p"),
                             lambda figures: _heuristic_cost_ratio(figures) / _length_ratio(figures)),
    # how much faster 2 workers are than one
    "ab_speedup": _ratio("ab_1_worker", "ab_2_workers"),
}

FIGURES = [*MEASURES, *DERIVED]


def needed(only: list[str]) -> list[str]:
    """The measured figures the chosen ones need, in measuring order."""
    wanted = set(only)
    for name in only:
        wanted.update(DERIVED[name][0] if name in DERIVED else ())
    return [name for name in MEASURES if name in wanted]


def measure(only: list[str], sizes: Sizes) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    for name in needed(only):
        start = time.perf_counter()
        figures[name] = MEASURES[name](sizes)
        log(f"  {name}: {figures[name]['value']:.4g} ({time.perf_counter() - start:.0f} s wall)")
    for name, (_, derive) in DERIVED.items():
        if name in only:
            figures[name] = {"value": derive(figures)}
    return figures


def parse_only(text: str | None) -> list[str]:
    if not text:
        return list(FIGURES)
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in FIGURES]
    if unknown:
        raise SystemExit(f"unknown figure(s) {', '.join(unknown)}: choose from {', '.join(FIGURES)}")
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_const", const="quick", dest="size", help="fewer bouts and runs")
    size.add_argument("--smoke", action="store_const", const="smoke", dest="size",
                      help="a handful of bouts, one run: proves the instrument works")
    parser.add_argument("--runs", type=int, default=None, help="runs of each CPU figure (median reported)")
    parser.add_argument("--wall-runs", type=int, default=None, help="runs of the A/B and balance figures")
    parser.add_argument("--only", default=None, help=f"comma-separated figures of: {', '.join(FIGURES)}")
    args = parser.parse_args()
    sizes = SIZES[args.size or "full"]
    if args.runs:
        sizes = replace(sizes, runs=args.runs)
    if args.wall_runs:
        sizes = replace(sizes, wall_runs=args.wall_runs)
    only = parse_only(args.only)
    # Every file the packs read comes from the measured tree's content, never from elsewhere.
    os.environ.pop("NEXUS_CONTENT_ROOT", None)
    os.environ.pop("NEXUS_CONTENT", None)  # the earlier name, all a reference commit may read
    import nexus_dsl

    figures = measure(only, sizes)
    print(json.dumps({"package": str(Path(nexus_dsl.__file__).resolve().parent), "sizes": sizes.__dict__,
                      "figures": figures}, indent=1))


if __name__ == "__main__":
    main()
