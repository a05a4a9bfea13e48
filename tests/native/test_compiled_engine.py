"""The compiled engine (`nexus_dsl.native`, `make native`) plays the same bouts as its sources.

The build is made here when there is none of these sources (a few minutes of one core, once). The
engine's and the agents' own tests, the golden logs among them, and every rules scenario then run on
it, each run in a process of its own with NEXUS_NATIVE=1, which fails at import unless the compiled
modules are used. Tests marked `sources_only` watch the engine's internals in ways compiled classes
do not allow (replacing a method, reading a function's annotations): the main run has them.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nexus_dsl import native

ROOT = Path(__file__).resolve().parents[2]

# The build (several minutes of one core) is made in the first test's fixture, and one test runs the
# engine's whole suite in a process of its own, bounded at 30 minutes by `_run`.
pytestmark = pytest.mark.timeout(2400)


def _run(*command: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, native.ENV_VAR: "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def compiled() -> Path:
    return native.build()


def test_the_compiled_modules_are_the_ones_imported(compiled: Path) -> None:
    done = _run("-c", "import nexus_dsl.engine.legality as l, nexus_dsl.agents.heuristic as h, nexus_dsl.native as n;"
                      "print(l.__file__); print(h.__file__); print(n.use_native_build())", timeout=120)
    assert done.returncode == 0, done.stderr
    legality, heuristic, status = done.stdout.splitlines()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert legality.endswith(suffixes) and Path(legality).is_relative_to(compiled)
    assert heuristic.endswith(suffixes) and Path(heuristic).is_relative_to(compiled)
    assert status.startswith("compiled")


def test_the_engine_tests_pass_on_the_compiled_engine(compiled: Path) -> None:
    # Spread over the cores as the suite is (a test file to a worker): this run is the last of the
    # suite's longest chain (the build, then these), when the other workers are mostly done.
    done = _run("-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto", "--maxprocesses=4", "--dist", "loadfile",
                "-m", "not sources_only", "tests/engine", "tests/agents", timeout=1800)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_every_scenario_passes_on_the_compiled_engine(compiled: Path) -> None:
    done = _run("-m", "nexus_dsl", "scenario", "run", "tests/scenarios", timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) > 800, last


def test_the_training_bouts_of_a_profile_guided_build_play_on_the_compiled_engine(compiled: Path) -> None:
    # What `make native` plays on its instrumented build (`native.TRAINING`), here on this build.
    done = _run("-m", "nexus_dsl.native", "train", str(compiled), timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.strip() == f"played {sum(bouts for _, _, _, bouts, _ in native.TRAINING)} training bouts"


def _package_copy(tmp_path: Path) -> Path:
    """A tree with the package's sources and no build (the key reads the sources only)."""
    shutil.copytree(ROOT / "nexus_dsl", tmp_path / "nexus_dsl", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return tmp_path


def _fake_build(root: Path) -> Path:
    build = root / "build" / "native" / native.build_key(root)
    build.mkdir(parents=True)
    (build / "COMPLETE").write_text("done\n")
    return build


def test_a_build_is_used_only_for_the_sources_it_was_built_from(tmp_path: Path) -> None:
    root = _package_copy(tmp_path)
    assert native.fresh_build(root) is None
    build = _fake_build(root)
    assert native.fresh_build(root) == build
    assert (build / "SEEN").is_file()  # the next process knows it from the files' sizes and times
    assert native.fresh_build(root) == build
    edited = root / "nexus_dsl" / "workbench" / "batch.py"  # any source of the package, compiled or not
    original = edited.read_text()
    edited.write_text(original + "\n# edited\n")
    assert native.fresh_build(root) is None
    edited.write_text(original)  # the same sources again, though every time is new: the digest says so
    assert native.fresh_build(root) == build


def test_a_half_made_build_is_never_used(tmp_path: Path) -> None:
    root = _package_copy(tmp_path)
    build = _fake_build(root)
    (build / "COMPLETE").unlink()
    assert native.fresh_build(root) is None


def test_the_environment_chooses_sources_or_a_required_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _package_copy(tmp_path)
    monkeypatch.setenv(native.ENV_VAR, "1")
    with pytest.raises(native.NativeBuildMissing, match="make native"):
        native._install(root)
    monkeypatch.setenv(native.ENV_VAR, "0")
    _fake_build(root)
    status = native._install(root)
    assert not status.in_use and "NEXUS_NATIVE=0" in str(status)
    monkeypatch.delenv(native.ENV_VAR)
    (root / "build" / "native" / native.build_key(root) / "COMPLETE").unlink()
    status = native._install(root)
    assert not status.in_use and "make native" in str(status)  # unset: the sources, and how to build
