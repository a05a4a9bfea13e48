"""The speed instrument works (`benchmarks/`, `make bench`): the driver measures every figure on this
tree, and the comparison reads ratios and targets the right way round. No speed is asserted here:
figures are measured by `make bench`, never held to a number by a test."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_the_driver_measures_every_figure_on_this_tree() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "figures.py"), "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert Path(result["package"]) == ROOT / "nexus_dsl"
    figures = result["figures"]
    # Every figure the bench prints, and nothing it would not know how to print.
    assert set(figures) == set(load("targets").FIGURES) == set(load("figures").FIGURES)
    for name, figure in figures.items():
        assert isinstance(figure["value"], float) and figure["value"] > 0, name
    # The evidence that two sides played the same bouts is there to compare.
    assert figures["heuristic_2p"]["actions"] > 0 and figures["heuristic_4p"]["cycles"] > 0
    assert figures["ab_2_workers"]["cycles"] == figures["ab_1_worker"]["cycles"] > 0
    assert figures["ab_2_workers"]["progress_calls"] == 2 * figures["ab_2_workers"]["bouts_per_side"]
    assert len(figures["balance"]["page_sha256"]) == 12


def test_ratios_are_better_above_one_and_targets_read_their_way() -> None:
    figures = load("targets").FIGURES
    rate, seconds = figures["heuristic_2p"], figures["balance"]
    assert rate.ratio(reference=10.0, now=20.0) == 2.0  # twice the bouts per second
    assert seconds.ratio(reference=60.0, now=30.0) == 2.0  # half the seconds
    assert rate.met(200.0) and not rate.met(199.9)
    assert not seconds.met(30.0) and seconds.met(29.9)  # the balance baseline must beat 30 s
    assert figures["heuristic_4p"].met(1.0) is None  # no target of its own
