"""Collect the rules scenarios (tests/scenarios/**/*.yaml) as pytest items, one per file."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl.scenario import ScenarioError, is_pack_file, load_scenario, run_scenario

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
