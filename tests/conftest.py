"""Collect the rules scenarios (tests/scenarios/**/*.yaml) as pytest items, one per file, and give the
run a load cache of its own."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The load cache (`nexus_dsl/cache.py`) of a test run lives in a folder of its own, empty when the
# run starts and removed when it ends: no test depends on what an earlier run, or the user's own
# tools, left in the user's cache. Set before the package is imported; subprocesses inherit it.
_RUN_CACHE = tempfile.mkdtemp(prefix="nexus-test-cache-")
os.environ["NEXUS_CACHE_DIR"] = _RUN_CACHE
# The suite runs on the engine's sources, whatever `make native` built: some tests watch its
# internals in ways compiled classes do not allow. tests/native runs the rest on the compiled engine
# (NEXUS_NATIVE=1 in the environment chooses it for a whole run).
os.environ.setdefault("NEXUS_NATIVE", "0")

from nexus_dsl.scenario import ScenarioError, is_pack_file, load_scenario, run_scenario  # noqa: E402 (after the environment above)

SCENARIO_ROOT = Path(__file__).parent / "scenarios"


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix in (".yaml", ".yml") and SCENARIO_ROOT in file_path.parents and not is_pack_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):  # type: ignore[override]
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        try:
            # The project's scenarios share their test packs across folders (tests/scenarios/packs).
            scenario = load_scenario(self.path, root=SCENARIO_ROOT)
        except ScenarioError as error:
            raise ScenarioFailed("\n".join(f"cannot load: {problem}" for problem in error.problems)) from None
        result = run_scenario(scenario)
        if result.internal_error is not None:
            raise result.internal_error
        if not result.passed:
            raise ScenarioFailed(result.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):  # type: ignore[override]
        return self.path, 0, f"scenario: {self.name}"


# The files that take longest, first: `make test` hands whole files to its workers in the order they
# are collected (`--no-loadscope-reorder`), so the long ones start at once rather than last, beside
# nothing, at the end (about 12, 6, 2 and 2 minutes of one core; the rest takes under a minute a file).
LONGEST_FIRST = ("tests/native/test_compiled_engine.py", "tests/e2e/test_editor_in_browser.py",
                 "tests/syntax/test_roundtrip.py", "tests/engine/test_many_bouts.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)  # stable: every file's tests, and the other files, keep their order


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_RUN_CACHE, ignore_errors=True)
