"""The speed figures of this tree beside the same figures of a reference commit (`make bench`).

    .venv/bin/python benchmarks/bench.py [--reference REV] [--quick | --smoke] [--runs N] [--wall-runs N] [--only FIGURE,...]

The reference is checked out as a detached git worktree under build/bench/ref-<short hash>
(created on first use, reused after). `figures.py` runs twice, each time in a fresh process with
PYTHONPATH set to one tree: the reference first, then this tree. The table gives each figure for
both, the ratio (now against the reference, greater than 1 when now is better), the target and
whether it is met, and whether both sides played the same bouts. Everything is also written to
build/bench/latest.json (and each side's figures, as soon as they are measured, to
latest-reference.json and latest-now.json). Measures; never asserts.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from targets import FIGURES, Figure

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "bench"
DRIVER = Path(__file__).resolve().parent / "figures.py"
#: The commit the speed work starts from: what "reference" means unless `--reference` says otherwise.
REFERENCE = "a108ee65b6e7d48745de1e7b11946819f746a02e"
#: Detail keys that show two sides played the same bouts, content and seeds (equal when they did).
EVIDENCE = ("actions", "cycles", "page_sha256", "declarations")


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def reference_tree(rev: str) -> tuple[str, Path]:
    """The reference commit and its worktree: build/bench/ref-<short hash>, added when missing."""
    try:
        commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"--reference {rev}: no such commit in {ROOT}") from None
    tree = BUILD / f"ref-{commit[:10]}"
    if not tree.exists():
        BUILD.mkdir(parents=True, exist_ok=True)
        print(f"checking out the reference {commit[:10]} in {tree.relative_to(ROOT)}", file=sys.stderr)
        # --force: a worktree once registered here and since deleted may be added again.
        git("worktree", "add", "--force", "--detach", str(tree), commit)
    elif git("rev-parse", "HEAD", cwd=tree) != commit:
        raise SystemExit(f"{tree} holds another commit than {commit}: remove it (git worktree remove {tree})")
    return commit, tree


def native_status() -> str:
    """Whether this tree's figures ran on the compiled engine (`nexus_dsl.native`), as a fresh process sees it."""
    done = subprocess.run([sys.executable, "-m", "nexus_dsl.native", "status"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def run_figures(tree: Path, name: str, options: list[str], keep: Path) -> dict[str, Any]:
    """The driver's JSON for the package in `tree`, measured in a fresh process, and kept in `keep`
    as soon as it is measured (a long run stopped on the second side keeps the first)."""
    print(f"{name} ({tree}):", file=sys.stderr, flush=True)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "NEXUS_CONTENT_ROOT", "NEXUS_CONTENT")}
    env["PYTHONPATH"] = str(tree)
    done = subprocess.run([sys.executable, str(DRIVER), *options], cwd=tree, env=env, stdout=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"measuring {name} failed (exit {done.returncode}); its errors are above")
    result: dict[str, Any] = json.loads(done.stdout)
    # An installed package shadowing the tree would measure the wrong code: refuse such figures.
    if Path(result["package"]) != (tree / "nexus_dsl").resolve():
        raise SystemExit(f"measuring {name} imported {result['package']}, not {tree / 'nexus_dsl'}")
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def size_note(detail: dict[str, Any]) -> str:
    """How much a figure played, as a short note beside its label."""
    if "bouts_per_side" in detail:
        return f"{detail['bouts_per_side']} bouts/side"
    if "bouts" in detail:
        return f"{detail['bouts']} bouts" + (f" x{detail['runs']}" if detail.get("runs", 1) > 1 else "")
    return f"x{detail['runs']}" if "runs" in detail else ""


def evidence(reference: dict[str, Any], now: dict[str, Any]) -> str:
    """Whether both sides played the same bouts: their evidence (actions, cycles, digests)."""
    keys = [key for key in EVIDENCE if key in reference or key in now]
    if not keys:
        return ""
    differing = [f"{key} {reference.get(key)} vs {now.get(key)}" for key in keys if reference.get(key) != now.get(key)]
    if differing:
        return "DIFFERENT: " + "; ".join(differing)
    return "same " + ", ".join(f"{key} {now[key]}" for key in keys)


def row(name: str, figure: Figure, reference: dict[str, Any], now: dict[str, Any], full_size: bool) -> dict[str, Any]:
    met = figure.met(now["value"])
    if figure.size_dependent and not full_size:
        met = None  # a target for 1,000 or 2,000 bouts says nothing of a smaller run
    return {"figure": name, "label": figure.label, "unit": figure.unit, "size": size_note(now),
            "reference": reference["value"], "now": now["value"], "ratio": figure.ratio(reference["value"], now["value"]),
            "target": figure.target_text(), "met": met, "evidence": evidence(reference, now)}


def number(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"


def table(rows: list[dict[str, Any]]) -> list[str]:
    heads = ("figure", "reference", "now", "ratio", "target", "met", "same bouts?")
    cells = [(f"{r['label']} [{r['unit']}]" + (f" ({r['size']})" if r["size"] else ""), number(r["reference"]),
              number(r["now"]), f"{r['ratio']:.2f}", r["target"] or "-",
              {True: "yes", False: "no", None: "-"}[r["met"]], r["evidence"]) for r in rows]
    widths = [max(len(line[i]) for line in [heads, *cells]) for i in range(len(heads) - 1)]
    return [" | ".join(cell.ljust(width) for cell, width in zip(line, widths)) + " | " + line[-1]
            for line in [heads, *cells]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default=REFERENCE, help=f"the commit to compare with (default {REFERENCE[:10]})")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer bouts and runs: a run of a few minutes")
    size.add_argument("--smoke", action="store_true", help="a handful of bouts, one run: checks the instrument")
    parser.add_argument("--runs", type=int, default=None, help="runs of each CPU figure (default 5; the median)")
    parser.add_argument("--wall-runs", type=int, default=None, help="runs of the A/B and balance figures (default 1)")
    parser.add_argument("--only", default=None, help=f"comma-separated figures of: {', '.join(FIGURES)}")
    args = parser.parse_args()
    options = [*(["--quick"] if args.quick else []), *(["--smoke"] if args.smoke else []), *(["--runs", str(args.runs)] if args.runs else []),
               *(["--wall-runs", str(args.wall_runs)] if args.wall_runs else []),
               *(["--only", args.only] if args.only else [])]
    commit, tree = reference_tree(args.reference)
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    reference = run_figures(tree, f"reference {commit[:10]}", options, BUILD / "latest-reference.json")
    now = run_figures(ROOT, "now", options, BUILD / "latest-now.json")
    load_after = os.getloadavg()
    full_size = not (args.quick or args.smoke)
    rows = [row(name, figure, reference["figures"][name], now["figures"][name], full_size)
            for name, figure in FIGURES.items() if name in now["figures"]]
    engine = native_status()
    head = git("rev-parse", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    print(f"\nnow: {head[:10]}{' with uncommitted changes' if dirty else ''}; reference: {commit[:10]}; "
          f"{started:%Y-%m-%d %H:%M} UTC; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"on {os.cpu_count()} cores")
    print(f"now ran on: {engine} (`make native`, docs/native.md); the reference on its sources")
    print("ratio: now against the reference, > 1 is better (faster) whichever way the figure goes; "
          "medians of the runs\n")
    for line in table(rows):
        print(line)
    BUILD.mkdir(parents=True, exist_ok=True)
    latest = {"date": started.isoformat(timespec="seconds"), "size": "quick" if args.quick else "smoke" if args.smoke else "full",
              "load_average": {"before": load_before, "after": load_after, "cores": os.cpu_count()},
              "reference": {"commit": commit, "tree": str(tree), **reference},
              "now": {"commit": head, "uncommitted_changes": dirty, "tree": str(ROOT), "engine": engine, **now},
              "rows": rows}
    (BUILD / "latest.json").write_text(json.dumps(latest, indent=1), encoding="utf-8")
    print(f"\nwritten to {(BUILD / 'latest.json').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
