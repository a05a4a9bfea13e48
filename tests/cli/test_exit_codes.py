"""Exit codes: 0 success, 1 the command ran and found problems, 2 usage or bad input, 3 internal error.

Each code is reached the way a user reaches it, and never with a traceback except for code 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import cli
from nexus_dsl.cli import main
from nexus_dsl.commands.exits import ExitCode

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests/fixtures/broken"


def test_the_codes() -> None:
    assert [int(code) for code in (ExitCode.OK, ExitCode.PROBLEMS, ExitCode.USAGE, ExitCode.INTERNAL)] == [0, 1, 2, 3]


def test_0_a_command_that_ran_and_found_nothing_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "haymaker"]) == 0
    assert main(["play", "--seed", "1", "--quiet"]) == 0


def test_1_check_findings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BROKEN / "unknown_name.nexus")]) == 1


def test_1_a_failed_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text("name: wrong\npacks: [base]\nexpect: {}\nsteps: nonsense\n", encoding="utf-8")
    assert main(["scenario", "run", str(scenario)]) == 1
    assert "FAIL" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["show", "hay_maker"],  # an unknown id
    ["cards", "--type", "comand"],  # an unknown option value
    ["play", "--agents", "genius", "--quiet"],
    ["play", "--stack", "no_such_card", "--quiet"],  # a forced card the packs do not hold
    ["play", "--deal", "red", "--quiet"],  # a malformed --deal
    ["play", "--packs", "no_such_pack", "--quiet"],  # packs that do not load
    ["simulate", "--address", "10.0.0.5:6379", "--bouts", "2", "--quiet"],  # options that do not fit together
    ["check", "no/such/file.nexus"],  # a file that is not there
    ["scenario", "snapshot", "a.yaml", "b.yaml"],
])
def test_2_usage_or_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.strip() and "Traceback" not in out + err


@pytest.mark.parametrize("argv", [["simulate", "--bouts", "0"], ["play", "--players", "7"], ["nonsense"]])
def test_2_argparse_refuses_a_bad_value(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2


def test_3_an_internal_error_is_reported_as_a_bug(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    def broken(_args: object) -> int:
        raise ValueError("a bug, not the user's input")

    monkeypatch.setattr(cli, "cmd_show", broken)
    assert main(["show", "haymaker"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("nexus: internal error (a bug; please report it")
    assert "ValueError: a bug, not the user's input" in err  # the traceback, to report


def test_a_value_error_is_no_longer_a_usage_error_by_its_class(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A ValueError from deep inside is a bug (3); the user's mistakes say so themselves (2)."""
    def broken(_args: object) -> int:
        raise ValueError("unexpected")

    monkeypatch.setattr(cli, "cmd_cards", broken)
    assert main(["cards"]) == 3
