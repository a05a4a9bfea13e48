"""Progress bars: bouts done, rate and time left on a terminal; nothing at all in a redirected log."""

from __future__ import annotations

import io

import pytest

from nexus_dsl.cli import main
from nexus_dsl.commands.progress import progress_bar


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, as a user's is."""

    def isatty(self) -> bool:
        return True


def test_a_redirected_stderr_gets_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bouts", "4", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no bar, and no carriage returns, in a log
    assert "\r" not in out and out.startswith("4 bouts:")


def test_a_terminal_gets_a_bar_with_rate_and_time_left(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["simulate", "--bouts", "4", "--workers", "1"]) == 0
    drawn = terminal.getvalue()
    assert "4/4" in drawn and "bouts/s" in drawn and "<" in drawn  # done/total, the rate, elapsed<left
    assert capsys.readouterr().out.startswith("4 bouts:")  # the report itself stays on stdout


def test_quiet_draws_nothing_even_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_bar(10, quiet=True) as progress:
        progress(10, 10)
    assert terminal.getvalue() == ""


def test_a_run_that_learns_its_size_moves_the_total(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_bar(10) as progress:
        progress(3, 10)
        progress(6, 20)
    assert "6/20" in terminal.getvalue()
