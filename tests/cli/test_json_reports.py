"""`--format json` on every report: one JSON document on stdout and nothing else there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
ZERO_DIE = ROOT / "tests/fixtures/packs/adversarial_zero_die"
ARENA_TEST = ROOT / "tests/scenarios/packs/arena_test"
SCENARIOS = ROOT / "tests/scenarios/commands"


def _json_out(capsys: pytest.CaptureFixture[str]) -> object:
    out = capsys.readouterr().out
    return json.loads(out)  # the whole of stdout is one document


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bouts", "4", "--workers", "1", "--format", "json"]) == 0
    report = _json_out(capsys)
    assert isinstance(report, dict)
    assert report["bouts"] == 4 and report["finished"] == 4
    wins = report["wins"]
    assert set(wins) == {"red", "blue"}
    assert sum(rate["count"] for rate in wins.values()) + report["draws"]["count"] == 4
    for rate in [*wins.values(), report["draws"]]:
        low, high = rate["interval_95"]
        assert rate["of"] == 4 and 0 <= low <= rate["share"] <= high <= 1
    assert report["engine_errors"] == [] and report["script_faults"] == [] and report["unbalanced_ledgers"] == []


def test_simulate_lists_script_faults_positioned(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bouts", "2", "--workers", "1", "--format", "json", "--packs", f"base,{ZERO_DIE}"]) == 1
    report = _json_out(capsys)
    assert isinstance(report, dict)
    assert [fault["seed"] for fault in report["script_faults"]] == [0, 1]
    assert report["script_faults"][0]["line"] == 7 and report["finished"] == 0


def test_balance(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["balance", "--bouts", "6", "--workers", "1", "--format", "json", "--packs", f"base,{ARENA_TEST}"])
    report = _json_out(capsys)
    assert isinstance(report, dict)
    assert report["bouts"] == 6 and report["seed"] == 1 and report["by_motivation"]
    assert all(len(rate["interval_95"]) == 2 for rate in report["by_motivation"].values())
    assert code == (1 if report["dominant"] else 0)
    page = tmp_path / "balance.json"
    main(["balance", "--bouts", "6", "--workers", "1", "--format", "json", "--packs", f"base,{ARENA_TEST}",
          "--out", str(page)])
    out, err = capsys.readouterr()
    assert out == "" and f"wrote {page}" in err
    assert json.loads(page.read_text(encoding="utf-8")) == report


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "haymaker", "--format", "json"]) == 0
    found = _json_out(capsys)
    assert isinstance(found, list) and len(found) == 1
    assert found[0]["id"] == "haymaker" and found[0]["origin"].startswith("content/base/abilities/physicality.nexus:")
    assert found[0]["script"].startswith('trait_ability haymaker "Haymaker" {')


def test_scenario_run(capsys: pytest.CaptureFixture[str]) -> None:
    first = sorted(SCENARIOS.rglob("*.yaml"))[0]
    assert main(["scenario", "run", str(first), "--format", "json"]) == 0
    report = _json_out(capsys)
    assert isinstance(report, dict)
    assert report["passed"] == 1 and report["failed"] == 0
    assert report["results"][0]["file"].endswith(first.name) and report["results"][0]["passed"] is True
