"""Every option of every command has help text, and that text states the option's default."""

from __future__ import annotations

import argparse

import pytest

from nexus_dsl.cli import build_parser
from nexus_dsl.commands.exits import EPILOG


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _rendered_help(command: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The option's help as `nexus COMMAND --help` prints it (its formatter's additions included)."""
    return command._get_formatter()._expand_help(action)  # noqa: SLF001 — the formatter's own rendering


def _has_a_default(action: argparse.Action) -> bool:
    return not (action.default is None or action.default is False or action.default == argparse.SUPPRESS)


def test_every_command_is_walked() -> None:
    assert {"check", "fmt", "play", "cards", "show", "simulate", "balance", "ab", "scenario"} <= set(_commands())


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_option_has_help_stating_its_default(name: str) -> None:
    command = _commands()[name]
    for action in command._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        text = _rendered_help(command, action)
        assert text.strip(), f"nexus {name}: {action.dest} has no help"
        if action.option_strings and _has_a_default(action):
            assert "default" in text, f"nexus {name} {action.option_strings[0]}: the help does not state its default"
            if "%(default)" not in (action.help or "") and "default:" not in (action.help or ""):
                assert f"(default: {action.default})" in text


def test_a_stated_default_is_the_value_the_option_takes() -> None:
    simulate = _commands()["simulate"]
    seed = next(a for a in simulate._actions if a.dest == "seed")
    assert _rendered_help(simulate, seed).endswith("(default: 0)")  # a default of 0 is a default
    bouts = next(a for a in _commands()["balance"]._actions if a.dest == "bouts")
    assert _rendered_help(_commands()["balance"], bouts).endswith("(default: 2000)")


def test_the_top_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert EPILOG in out
    for code in ("0 ", "1 ", "2 ", "3 "):
        assert f"\n  {code}" in out
