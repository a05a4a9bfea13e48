"""Choosing a backend: by name, with Ray optional and never imported unless asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nexus_dsl.cli import main
from nexus_dsl.sim.backends import BackendError, LocalBackend, RayBackend, backend_named
from nexus_dsl.sim.batch import BoutSpec, run_batch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as it is where Ray is not installed: importing it fails."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    monkeypatch.delitem(sys.modules, "nexus_dsl.sim.ray_backend", raising=False)


def test_backends_by_name() -> None:
    assert backend_named("local") == LocalBackend()
    assert backend_named("ray") == RayBackend(None)
    assert backend_named("ray", "10.0.0.5:6379") == RayBackend("10.0.0.5:6379")
    with pytest.raises(ValueError, match="unknown backend `dask`; choose from local, ray"):
        backend_named("dask")
    with pytest.raises(ValueError, match="use it with --backend ray"):
        backend_named("local", "10.0.0.5:6379")


def test_the_local_backend_plays_what_a_batch_without_one_plays() -> None:
    specs = [BoutSpec(seed=seed, agents=("random",)) for seed in range(3)]
    assert list(run_batch(specs, workers=1, backend=LocalBackend())) == list(run_batch(specs, workers=1))


def test_without_ray_the_ray_backend_says_how_to_install_it(without_ray: None) -> None:
    with pytest.raises(BackendError, match=r"needs Ray, which is not installed: pip install 'nexus_dsl\[cluster\]'"):
        backend_named("ray")
    with pytest.raises(BackendError, match="not installed"):
        list(run_batch([BoutSpec(seed=1)], backend=RayBackend()))


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_without_ray_the_commands_print_the_install_line_not_a_traceback(
        without_ray: None, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--backend", "ray", "--bouts", "2", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "nexus: the ray backend needs Ray, which is not installed: pip install 'nexus_dsl[cluster]'"


def test_an_address_without_the_ray_backend_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--address", "10.0.0.5:6379", "--bouts", "2", "--quiet"]) == 2
    assert "--address is the address of a Ray cluster: use it with --backend ray" in capsys.readouterr().err


def test_importing_the_package_and_its_batch_code_never_imports_ray() -> None:
    code = ("import sys, nexus_dsl, nexus_dsl.cli, nexus_dsl.sim, nexus_dsl.sim.backends, nexus_dsl.workbench; "
            "assert nexus_dsl.cli.main(['simulate', '--bouts', '2', '--workers', '1', '--quiet']) == 0; "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_an_address_where_nothing_answers_is_a_message_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--backend", "ray", "--address", "127.0.0.1:1", "--bouts", "2", "--quiet"]) == 1
    assert capsys.readouterr().err.startswith("nexus: cannot reach the Ray cluster at 127.0.0.1:1: nothing answers there")
