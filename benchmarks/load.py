"""Time loading and fully validating the base pack. Measures; never asserts.

    .venv/bin/python benchmarks/load.py [--runs 5] [--reference PATH]

Every figure is the median of `--runs` fresh processes, each timing the CPU time of its process
(`time.process_time`: what the targets count, and what another process busy on the machine changes
least) and the wall time (`time.perf_counter`), from after the interpreter started to the end of the
load, i.e. the import of the loader and the load:

- cold, cache filled: a fresh process whose load cache (`$NEXUS_CACHE_DIR`) an earlier process filled,
- cold, cache empty: a fresh process with an empty cache folder of its own (it fills it),
- cold, no cache: `NEXUS_CACHE_DIR=off`,
- warm: the second load in one process (the first load's cost left out).

`--reference PATH` (a checkout of another commit, e.g. a `git worktree` of the commit this work
started from) runs the same measurements on that code, side by side, and prints the ratio.
Say what else the machine was doing: `uptime` is printed first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CLOCKS = "import time; cpu, wall = time.process_time(), time.perf_counter(); "
REPORT = "; print(time.process_time() - cpu, time.perf_counter() - wall)"
COLD = CLOCKS + "from nexus_dsl.content.loader import load_ruleset; load_ruleset(['base'])" + REPORT
WARM = ("from nexus_dsl.content.loader import load_ruleset; load_ruleset(['base']); " + CLOCKS
        + "load_ruleset(['base'])" + REPORT)


def timed(code: Path, snippet: str, cache: str) -> tuple[float, float]:
    """The CPU and wall seconds the snippet prints, run on the code in `code` with the load cache `cache`."""
    environment = {**os.environ, "PYTHONPATH": str(code), "NEXUS_CACHE_DIR": cache,
                   # Both names: a reference commit may know only the earlier one.
                   "NEXUS_CONTENT_ROOT": str(code / "content"), "NEXUS_CONTENT": str(code / "content")}
    out = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, cwd=code, check=True,
                         env=environment)
    cpu, wall = out.stdout.strip().splitlines()[-1].split()
    return float(cpu), float(wall)


def median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(cpu for cpu, _ in samples), statistics.median(wall for _, wall in samples)


def figures(code: Path, runs: int) -> dict[str, tuple[float, float]]:
    """The median CPU and wall seconds of each figure."""
    with tempfile.TemporaryDirectory(prefix="nexus-bench-cache-") as scratch:
        filled = str(Path(scratch) / "filled")
        timed(code, COLD, filled)  # fills the cache
        return {
            "cold, cache filled": median([timed(code, COLD, filled) for _ in range(runs)]),
            "cold, cache empty": median([timed(code, COLD, str(Path(scratch) / f"empty-{run}")) for run in range(runs)]),
            "cold, no cache": median([timed(code, COLD, "off") for _ in range(runs)]),
            "warm (second load)": median([timed(code, WARM, filled) for _ in range(runs)]),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reference", type=Path, help="a checkout of the code to compare with")
    args = parser.parse_args()
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    ours = figures(ROOT, args.runs)
    theirs = figures(args.reference.resolve(), args.runs) if args.reference else None
    print(f"base pack load + full validation, median of {args.runs} fresh processes, ms of CPU (wall)")
    for name, (cpu, wall) in ours.items():
        line = f"  {name:<20} {cpu * 1000:7.1f} ({wall * 1000:7.1f})"
        if theirs is not None:
            their_cpu, their_wall = theirs[name]
            line += f"   reference {their_cpu * 1000:7.1f} ({their_wall * 1000:7.1f})   ratio {their_cpu / cpu:5.1f}x"
        print(line)


if __name__ == "__main__":
    main()
