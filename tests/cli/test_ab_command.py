"""`nexus ab`: the editor's A/B comparison from the terminal, its verdict in words and its table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl.cli import main
from nexus_dsl.workbench import ab_verdict, batch
from nexus_dsl.workbench.testrun import TestRunSettings

ROOT = Path(__file__).resolve().parents[2]
ZERO_DIE = ROOT / "tests/fixtures/packs/adversarial_zero_die"
QUICK = ["--bouts", "8", "--workers", "1", "--seed", "3"]


def test_a_forced_card_against_none_prints_the_verdict_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", *QUICK, "--stack", "crowd_riot"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("A: packs base; 8 of 8 bouts played to the end")
    assert lines[1].startswith("B: packs base; forced: crowd_riot; 8 of 8 bouts")
    assert "seeds 3..10 on each side" in out
    assert "The new content (`crowd_riot`) came into play in" in out
    header = next(line for line in lines if line.startswith("figure"))
    assert header.split() == ["figure", "A", "B", "B", "−", "A", "95%", "interval", "p-value", "verdict"]
    assert any(line.startswith("red win rate") for line in lines)
    assert any(line.startswith("crowd mean final cred") for line in lines)


def test_json_is_the_editors_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", *QUICK, "--deal", "red=loaded_dice", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    settings_b = TestRunSettings(seed=3, deal_influence={"red": ("loaded_dice",)})
    comparison = batch.compare(TestRunSettings(seed=3), settings_b, 8, workers=1, watched=["loaded_dice"])
    assert printed["verdict"] == ab_verdict.verdict(comparison, ["loaded_dice"])
    assert printed["new_content"] == ["loaded_dice"] and printed["seeds"] == [3, 10]
    assert printed["b"]["dealt"] == {"red": ["loaded_dice"]} and printed["a"]["dealt"] == {}
    assert [(d["figure"], d["p_value"]) for d in printed["differences"]] == [
        (d.name, d.p_value) for d in comparison.differences]
    assert printed["sequential"] is None


def test_a_pack_added_to_b(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", *QUICK, "--with", "poison_gallery", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["a"]["packs"] == ["base"] and printed["b"]["packs"] == ["base", "poison_gallery"]
    assert printed["new_content"]  # the expansion's cards and abilities, followed through B's bouts


def test_until_clear_plays_rounds_up_to_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", *QUICK, "--stack", "crowd_riot", "--until-clear", "16", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    # Too few pairs for the sequential test to stop early: two looks, then the limit.
    assert printed["sequential"]["stopped"] == "limit" and printed["sequential"]["looks"] == 2
    assert printed["b"]["bouts"] == 16


def test_bouts_stopped_by_a_script_fault_are_problems_found(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", "--bouts", "2", "--workers", "1", "--with", str(ZERO_DIE), "--format", "json"]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert [fault["seed"] for fault in printed["b"]["script_faults"]] == [0, 1]
    assert printed["verdict"] == "A or B has no bout played to its end, so there is nothing to compare."


@pytest.mark.parametrize(("argv", "message"), [
    (["--with", "poison_gallery", "--b-packs", "base"], "give it or --b-packs, not both"),
    (["--until-clear", "4"], "--until-clear 4: the limit is at least --bouts (8)"),
    (["--with", "no_such_pack"], "no_such_pack"),
    (["--stack", "no_such_card"], "--stack: no `no_such_card` in the loaded packs"),
    (["--smallest", "0"], "--smallest 0"),
])
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ab", *QUICK, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
