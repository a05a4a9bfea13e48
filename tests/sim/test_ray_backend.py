"""The ray backend on a small local Ray instance: the same results as the local backend, bout for bout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from nexus_dsl.cli import main
from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.sim import ray_backend
from nexus_dsl.sim.backends import LocalBackend, RayBackend
from nexus_dsl.sim.balance import run_balance
from nexus_dsl.sim.batch import BoutSpec, run_batch
from nexus_dsl.workbench.batch import compare
from nexus_dsl.workbench.testrun import TestRunSettings

ROOT = Path(__file__).resolve().parents[2]
ARENA_TEST = str(ROOT / "tests/scenarios/packs/arena_test")
FAULTY = str(ROOT / "tests/fixtures/packs/fault_at_round_end")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """Two CPUs and a small object store; stopped, workers and all, after the module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
             log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray_backend.shutdown()


def test_a_batch_on_ray_is_the_local_batch_bout_for_bout() -> None:
    specs = [BoutSpec(seed=seed, players=2 + seed % 3, agents=("heuristic", "random"), watched=("haymaker",))
             for seed in range(12)]
    local = list(run_batch(specs, workers=2, backend=LocalBackend()))
    on_ray = list(run_batch(specs, backend=RayBackend()))
    assert [r.seed for r in on_ray] == list(range(12))
    assert on_ray == local  # every field of every BoutResult
    assert all(r.finished for r in on_ray)


def test_script_faults_on_ray_name_the_caller_s_files() -> None:
    specs = [BoutSpec(seed=seed, packs=("base", FAULTY), agents=("random",)) for seed in range(4)]
    on_ray = list(run_batch(specs, backend=RayBackend()))
    assert on_ray == list(run_batch(specs, workers=1))
    faults = [r.fault for r in on_ray if r.fault is not None]
    assert faults and all(Path(f.file).resolve().parent == Path(FAULTY) for f in faults)


def test_the_balance_baseline_on_ray_is_the_local_one() -> None:
    packs = ("base", ARENA_TEST)
    ruleset = load_ruleset(list(packs))
    local = run_balance(ruleset, packs, 8, seed=5, workers=1)
    on_ray = run_balance(ruleset, packs, 8, seed=5, backend=RayBackend())
    assert on_ray == local


def test_an_editor_comparison_on_ray_is_the_local_one() -> None:
    settings_b = TestRunSettings(packs=("base",), seed=3, stack_turning_points=("crowd_riot",))
    settings_a = TestRunSettings(packs=("base",), seed=3)
    local = compare(settings_a, settings_b, 4, workers=1)
    on_ray = compare(settings_a, settings_b, 4, backend=RayBackend())
    assert on_ray.a.results == local.a.results and on_ray.b.results == local.b.results
    assert on_ray.lines() == local.lines()


def test_nexus_simulate_on_ray_prints_the_local_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bouts", "6", "--quiet", "--workers", "1"]) == 0
    local = capsys.readouterr().out
    assert main(["simulate", "--backend", "ray", "--bouts", "6", "--quiet"]) == 0
    assert capsys.readouterr().out == local
    assert local.startswith("6 bouts: 0 engine errors")
