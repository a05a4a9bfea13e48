"""A batch's workers are handed their rulesets by the pool's initializer, so a batch plays the same
bouts whether its workers are forked, spawned or made by a fork server (as the editor's are)."""

from __future__ import annotations

import multiprocessing
import sys
import types
from pathlib import Path

import pytest

from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.sim import batch
from nexus_dsl.sim.batch import BoutSpec, play_one, run_local
from nexus_dsl.sim.shipping import PackBundle, ShippedPack

ROOT = Path(__file__).resolve().parents[2]
FAULTY = str(ROOT / "tests/fixtures/packs/fault_at_round_end")


def specs(packs: tuple[str, ...] = ("base",)) -> list[BoutSpec]:
    return [BoutSpec(seed=seed, packs=packs, agents=("random",)) for seed in range(4)]


def with_start_method(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    if method == "forkserver":  # as in a process that runs threads: the batch's own choice
        monkeypatch.setattr(batch.threading, "active_count", lambda: 2)
    else:
        monkeypatch.setattr(batch, "_process_context", lambda: multiprocessing.get_context(method))


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_every_start_method_plays_the_bouts_played_in_this_process(monkeypatch: pytest.MonkeyPatch,
                                                                   method: str) -> None:
    in_process = [play_one(spec) for spec in specs()]
    with_start_method(monkeypatch, method)
    assert list(run_local(specs(), 2, {})) == in_process
    assert all(result.finished for result in in_process)


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_workers_never_run_the_callers_main_script(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    method: str) -> None:
    """A web server's `__main__` is the page script it ran last (Streamlit installs each run so): a
    worker started by a fork server or spawned must not run it again."""
    ran = tmp_path / "ran"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(ran)!r}, 'w').close()\nraise SystemExit('the page script ran in a worker')\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    with_start_method(monkeypatch, method)
    assert list(run_local(specs(), 2, {})) == [play_one(spec) for spec in specs()]
    assert not ran.exists()
    assert sys.modules["__main__"] is page  # given back to the caller


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_play_the_caller_s_ruleset_and_name_its_files_in_a_fault(monkeypatch: pytest.MonkeyPatch,
                                                                         method: str) -> None:
    faulty = specs(("base", FAULTY))
    ruleset = load_ruleset(["base", FAULTY])
    given = {(("base", FAULTY), None): ruleset}
    in_process = [play_one(spec, given) for spec in faulty]
    with_start_method(monkeypatch, method)
    played = list(run_local(faulty, 2, given))
    assert played == in_process
    faults = [result.fault for result in played if result.fault is not None]
    assert faults and all(Path(fault.file).resolve().parent == Path(FAULTY) for fault in faults)


def test_a_worker_that_cannot_load_its_packs_reports_it_for_each_bout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "settle_heap", lambda: None)  # this is the test's process, not a worker
    broken = PackBundle((ShippedPack("p", "p", (("pack.yaml", b"id: p"), ("../out.nexus", b"x"))),))
    batch.start_worker({(("p",), None): broken})
    try:
        result = batch.play_in_worker(BoutSpec(seed=7, packs=("p",)))
        assert result.seed == 7 and not result.finished
        assert result.error == ("ValueError: the worker could not load the packs: a shipped pack file has a path "
                                "that leads outside its pack: '../out.nexus'")
    finally:
        batch.start_worker({})
