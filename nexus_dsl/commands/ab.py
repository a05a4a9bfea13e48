"""`nexus ab`: the editor's A/B comparison from the terminal.

A plays the packs without the change, B with it: more packs (`--with`, or `--a-packs`/`--b-packs`)
and/or cards forced into B's bouts (`--stack`, `--deal`). Both play the same seeds. The answer is
the editor's: the verdict in words (`workbench/ab_verdict.py`), then every difference with its 95%
interval and p-value (`workbench/batch.py` `compare`); `--until-clear LIMIT` keeps playing rounds of
`--bouts` per side until the answer is clear (`workbench/sequential.py`).
"""

from __future__ import annotations

import argparse
import textwrap
from typing import TYPE_CHECKING, Any, Sequence

from .exits import ExitCode, UsageError
from .forcing import add_forcing_options, bout_settings
from .reports import finite
from .options import (LAYOUT_HELP, PLAYERS_HELP, add_backend_options, backend, check_options, packs_of, players,
                      positive)

if TYPE_CHECKING:
    from ..model.ruleset import Ruleset
    from ..workbench.batch import BatchReport, Comparison, Difference
    from ..workbench.sequential import SequentialComparison
    from ..workbench.testrun import TestRunSettings

HEADERS = ("figure", "A", "B", "B − A", "95% interval", "p-value", "verdict")


def add_ab_command(sub: Any) -> None:
    ab = sub.add_parser("ab", help="A/B comparison: the same seeded bouts without and with a change, "
                                   "the verdict in words and every difference with its interval",
                        description="Play the same seeds with packs A and packs B (B = A plus --with, or "
                                    "--a-packs and --b-packs), cards forced into B's bouts, and say what changed.")
    ab.add_argument("--packs", default="base", help="the packs both sides load (A's, when --a-packs is not given)")
    ab.add_argument("--with", dest="with_packs", default="", metavar="PACKS",
                    help="packs B loads besides A's, comma-separated (default: none)")
    ab.add_argument("--a-packs", default=None, metavar="PACKS", help="A's packs (default: --packs)")
    ab.add_argument("--b-packs", default=None, metavar="PACKS", help="B's packs (default: A's packs and --with)")
    ab.add_argument("--bouts", type=positive, default=200,
                    help="bouts per side; with --until-clear, bouts per side at each look")
    ab.add_argument("--seed", type=int, default=0, help="the first seed; bout i of each side uses seed + i")
    ab.add_argument("--players", type=int, default=None, choices=(2, 3, 4), help=PLAYERS_HELP)
    ab.add_argument("--agents", default="heuristic", help="comma-separated agents, cycled over the players")
    ab.add_argument("--layout", "--barge", dest="layout", default=None, help=LAYOUT_HELP)
    add_forcing_options(ab)
    ab.add_argument("--until-clear", type=positive, default=None, metavar="LIMIT",
                    help="keep playing --bouts more per side until a change, or its absence, is clear, or LIMIT "
                         "bouts per side are played (an always-valid sequential test; default: play --bouts once)")
    ab.add_argument("--smallest", type=float, default=5.0, metavar="POINTS",
                    help="the smallest change of a win rate that matters, in percentage points")
    add_backend_options(ab)
    ab.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for programs")
    ab.add_argument("--quiet", action="store_true", help="no progress bar")
    ab.set_defaults(run=cmd_ab)


def side_packs(args: argparse.Namespace) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A's packs and B's, from --packs, --with, --a-packs and --b-packs."""
    packs_a = packs_of(args.a_packs if args.a_packs is not None else args.packs)
    added = packs_of(args.with_packs)
    if args.b_packs is not None and added:
        raise UsageError("--with adds packs to A's to make B's: give it or --b-packs, not both")
    packs_b = packs_of(args.b_packs) if args.b_packs is not None else packs_a + tuple(p for p in added if p not in packs_a)
    if not packs_a or not packs_b:
        raise UsageError("A and B each load at least one pack")
    return packs_a, packs_b


def _load(packs: tuple[str, ...]) -> Ruleset:
    """The packs as every command loads them: by name under the content root, or by path (a pack that
    does not load is a NexusError, the input's)."""
    from ..content.loader import cached_ruleset

    return cached_ruleset(packs)


def _sides(args: argparse.Namespace) -> tuple[TestRunSettings, Ruleset, TestRunSettings, Ruleset]:
    """A's settings and ruleset, B's: B's forced cards checked against B's packs, A's options against A's."""
    if not 0 < args.smallest < 100:
        raise UsageError(f"--smallest {args.smallest:g}: a change of a win rate is between 0 and 100 points")
    if args.until_clear is not None and args.until_clear < args.bouts:
        raise UsageError(f"--until-clear {args.until_clear}: the limit is at least --bouts ({args.bouts})")
    packs_a, packs_b = side_packs(args)
    ruleset_a, ruleset_b = _load(packs_a), _load(packs_b)
    count = players(ruleset_b, args.players)
    for ruleset in (ruleset_a, ruleset_b):
        check_options(ruleset, args.layout, args.agents.split(","))
    settings_b = bout_settings(args, ruleset_b, count, packs_b, args.seed)
    plain = argparse.Namespace(**{**vars(args), "stack": "", "deal": []})  # A: nothing forced
    settings_a = bout_settings(plain, ruleset_a, count, packs_a, args.seed)
    return settings_a, ruleset_a, settings_b, ruleset_b


def cmd_ab(args: argparse.Namespace) -> int:
    from ..sim.batch import settle_heap
    from ..workbench import ab_verdict, batch, sequential
    from .progress import progress_bar

    settings_a, ruleset_a, settings_b, ruleset_b = _sides(args)
    where = backend(args)
    settle_heap()  # this process now plays bouts and nothing else
    changed = ab_verdict.new_content(ruleset_a, ruleset_b, settings_b.forced_cards)
    smallest = args.smallest / 100
    run: SequentialComparison | None = None
    total = 2 * (args.until_clear or args.bouts)
    with progress_bar(total, quiet=args.quiet) as progress:
        if args.until_clear is None:
            comparison = batch.compare(settings_a, settings_b, args.bouts, progress, args.workers, changed,
                                       ruleset_a, ruleset_b, backend=where)
        else:
            run = sequential.compare_until_clear(settings_a, settings_b, args.bouts, args.until_clear, smallest,
                                                 progress, args.workers, changed, ruleset_a, ruleset_b, backend=where)
            comparison = run.comparison
    paragraph = ab_verdict.verdict(comparison, changed, smallest)
    if args.format == "json":
        from .reports import print_json

        print_json(comparison_json(comparison, changed, paragraph, run))
    else:
        for line in comparison_lines(comparison, paragraph, run):
            print(line)
    unfinished = any(side.errors or side.faults for side in (comparison.a, comparison.b))
    return ExitCode.PROBLEMS if unfinished else ExitCode.OK


def _row(difference: Difference) -> tuple[str, ...]:
    low, high = (difference.shown(end, signed=True) for end in difference.interval)
    return (difference.name, difference.shown(difference.a), difference.shown(difference.b),
            difference.shown(difference.difference, signed=True), f"{low} to {high}", f"{difference.p_value:.3g}",
            difference.verdict)


def table(rows: Sequence[Sequence[str]], headers: Sequence[str] = HEADERS) -> list[str]:
    """Rows under their headers in columns as wide as their widest cell, text left and figures right."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) if index in (0, len(widths) - 1) else cell.rjust(width)
                         for index, (cell, width) in enumerate(zip(cells, widths))).rstrip()

    return [line(headers), line(["-" * width for width in widths]), *(line(row) for row in rows)]


def _side_line(name: str, report: BatchReport) -> str:
    packs = ", ".join(report.settings.packs)
    forced = report.settings.forced_cards
    return (f"{name}: packs {packs}" + (f"; forced: {', '.join(forced)}" if forced else "")
            + f"; {len(report.finished)} of {report.bouts} bouts played to the end, {len(report.errors)} engine errors, "
            f"{len(report.faults)} script faults")


def comparison_lines(comparison: Comparison, paragraph: str, run: SequentialComparison | None) -> list[str]:
    from ..sim.batch import fault_lines

    first = comparison.b.settings.seed
    lines = [_side_line("A", comparison.a), _side_line("B", comparison.b),
             f"seeds {first}..{first + comparison.b.bouts - 1} on each side", ""]
    lines += textwrap.wrap(paragraph, width=100)
    if run is not None:
        lines += textwrap.wrap(run.sentence(), width=100)
    if comparison.a.finished and comparison.b.finished:
        lines += ["", *table([_row(d) for d in comparison.differences])]
    for name, report in (("A", comparison.a), ("B", comparison.b)):
        lines += [f"{name} {line.strip()}" for line in
                  [f"error (seed {seed}): {message}" for seed, message in report.errors[:10]]
                  + fault_lines([r for r in report.results if r.fault is not None])]
    return lines


def _side_json(report: BatchReport) -> dict[str, Any]:
    from ..sim.batch import problems_json

    settings = report.settings
    return {"packs": list(settings.packs), "stacked": list(settings.stack_turning_points),
            "dealt": {player: list(cards) for player, cards in settings.deal_influence.items()},
            "deal_mode": settings.deal_mode, "bouts": report.bouts, "finished": len(report.finished),
            **problems_json([r for r in report.results if r.error is not None],
                            [r for r in report.results if r.fault is not None])}


def comparison_json(comparison: Comparison, changed: Sequence[str], paragraph: str,
                    run: SequentialComparison | None) -> dict[str, Any]:
    first = comparison.b.settings.seed
    return {
        "a": _side_json(comparison.a), "b": _side_json(comparison.b),
        "seeds": [first, first + comparison.b.bouts - 1],
        "new_content": list(changed),
        "verdict": paragraph,
        "sequential": None if run is None else {"stopped": run.stopped, "sentence": run.sentence(),
                                                "looks": len(run.looks), "level": run.level},
        "differences": [{"figure": d.name, "a": d.a, "b": d.b, "difference": d.difference,
                         "interval_95": [finite(end) for end in d.interval], "p_value": d.p_value, "significant": d.significant,
                         "test": d.test, "rate": d.proportion} for d in comparison.differences],
    }
