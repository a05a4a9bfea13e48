"""`play` and `simulate` force cards as the test run does: stacked on the Turning Point deck, dealt
into a hand. The options become the test run's settings, so the command plays the test run's bout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl.cli import main
from nexus_dsl.sim.batch import run_batch, summarise
from nexus_dsl.workbench.testrun import TestRunSettings


def _events(log: Path, kind: str) -> list[dict[str, object]]:
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [record for record in records if record["type"] == kind]


def test_a_stacked_card_is_the_first_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bout.jsonl"
    assert main(["play", "--seed", "1", "--quiet", "--log", str(log)]) == 0
    assert _events(log, "draw")[0]["card"] != "standing_ovation"
    assert main(["play", "--seed", "1", "--quiet", "--log", str(log), "--stack", "standing_ovation,trapdoor"]) == 0
    assert _events(log, "draw")[0]["card"] == "standing_ovation"


def test_a_dealt_card_is_in_the_players_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bout.jsonl"
    assert main(["play", "--seed", "1", "--quiet", "--log", str(log)]) == 0
    assert _events(log, "card") == []  # without lanistas nobody holds influence cards
    assert main(["play", "--seed", "1", "--quiet", "--log", str(log), "--deal", "red=loaded_dice",
                 "--deal-mode", "replace"]) == 0
    played = _events(log, "card")
    assert [(card["helot"], card["name"]) for card in played] == [("red", "loaded_dice")]


def test_simulate_plays_the_test_runs_bouts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bouts", "3", "--seed", "5", "--workers", "1", "--stack", "crowd_riot",
                 "--deal", "blue=loaded_dice", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    settings = TestRunSettings(seed=5, stack_turning_points=("crowd_riot",), deal_influence={"blue": ("loaded_dice",)})
    expected = summarise(list(run_batch([settings.bout_spec(seed=5 + i) for i in range(3)], workers=1)))
    assert printed == json.loads(json.dumps(expected.to_json()))


@pytest.mark.parametrize(("argv", "message"), [
    (["--stack", "standing_ovaton"], "--stack: no `standing_ovaton` in the loaded packs"),
    (["--deal", "purple=loaded_dice"], "--deal: no player `purple` (the players are red, blue)"),
    (["--deal", "red=loaded_dice", "--deal", "blue=loaded_dice"], "--deal: `loaded_dice` is named twice"),
    (["--deal", "red"], "--deal `red`: write PLAYER=CARD[,CARD...]"),
])
def test_a_card_that_cannot_be_forced_is_a_usage_error(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--quiet", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
