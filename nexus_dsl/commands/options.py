"""Options several commands share, and the checks of what they name: the help formatter that states
every default, the content an option names (agents, a board layout), the number of players, where a
batch is played.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import did_you_mean
from .exits import UsageError

if TYPE_CHECKING:
    from ..sim.backends import Backend

# `--layout` names one of the game's board layouts; `--barge` is the base game's name for the same.
LAYOUT_HELP = "a board layout's id (the base game's barges), or `random`: a d8 picks one (pg.38) (default: no layout)"
PLAYERS_HELP = "how many play (default: the fewest the game is played by, else 2)"
FORMATS_HELP = "text for people, json for programs: one JSON document on stdout and nothing else there"


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default, unless the help already says what it is (as for
    defaults computed when the command runs, such as one worker per core)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        unstated = action.default is None or action.default is False or action.default == argparse.SUPPRESS
        if "default" in text or unstated or not action.option_strings:  # `is`: a default of 0 is stated
            return text
        return f"{text} (default: %(default)s)"


class NexusParser(argparse.ArgumentParser):
    """The `nexus` parser and every subcommand's (`add_subparsers` makes its parsers of this class):
    each states its options' defaults."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsHelpFormatter)
        super().__init__(*args, **kwargs)


def positive(text: str) -> int:
    """A count of at least one (bouts, workers)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def known(what: str, value: str, names: Sequence[str]) -> None:
    """Stop with a usage error unless `value` is one of `names` (with a suggestion when one is close)."""
    if value in names:
        return
    hint = did_you_mean(value, names)
    raise UsageError(f"unknown {what} `{value}`" + (f" ({hint})" if hint else "") + f"; choose from {', '.join(names)}")


def check_options(ruleset: Any, layout: str | None = None, agents: Sequence[str] = ()) -> None:
    """The content and agents the options name must exist in the loaded packs (a board layout named
    by the game's word for one, among the items of its layouts data kind)."""
    from ..agents.base import AGENT_NAMES
    from ..engine.setup import RANDOM_LAYOUT

    for agent in agents:
        known("agent", agent, AGENT_NAMES)
    if layout is not None and layout != RANDOM_LAYOUT:
        game = ruleset.game
        known(game.layout_word, layout, sorted(ruleset.data.get(game.layouts, {}) if game.layouts else ()))


def players(ruleset: Any, asked: int | None) -> int:
    """The number of players asked for; else the fewest the game is played by; else 2."""
    if asked is not None:
        return asked
    return min(ruleset.game.players) if ruleset.game.players else 2


def packs_of(text: str) -> tuple[str, ...]:
    return tuple(pack.strip() for pack in text.split(",") if pack.strip())


def add_backend_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--workers", type=positive, default=None,
                         help="workers: processes, or Ray workers (default: one per core of the machine or cluster)")
    command.add_argument("--backend", choices=("local", "ray"), default="local",
                         help="where the bouts are played: processes of this machine, or a Ray cluster "
                              "(needs `pip install 'nexus_dsl[cluster]'`; see docs/cluster.md)")
    command.add_argument("--address", default=None, metavar="ADDR",
                         help="the Ray cluster to play on, e.g. 10.0.0.5:6379 (default: a local Ray instance)")


def backend(args: argparse.Namespace) -> Backend:
    """The backend `--backend` and `--address` name (`sim/backends.py`); Ray is imported only for `ray`."""
    from ..sim.backends import backend_named

    try:
        return backend_named(args.backend, args.address)
    except ValueError as error:  # an option that does not fit the others: the user's to change
        raise UsageError(str(error)) from None
