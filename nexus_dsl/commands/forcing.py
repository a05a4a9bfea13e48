"""Cards forced into a bout from the command line (`play`, `simulate`, `ab`), as the editor's test run
forces them: Turning Point cards stacked on top of their deck, influence cards dealt into a hand.

The options become a `workbench.testrun.TestRunSettings`, checked by the test run's own
`settings_problems` and turned into the batch's `BoutSpec` by its `bout_spec`; the bout's setup
takes them in `sim.batch.spec_setup`. So `nexus play --seed 3 --stack X` plays the very bout the
test run plays with seed 3 and X stacked.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from ..errors import Diagnostic
from .exits import UsageError

if TYPE_CHECKING:
    from ..model.ruleset import Ruleset
    from ..workbench.testrun import TestRunSettings

DEAL_MODES = ("add", "replace")


def add_forcing_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--stack", default="", metavar="CARDS",
                         help="Turning Point cards put on top of their deck, top card first, comma-separated "
                              "(default: none; the deck as shuffled)")
    command.add_argument("--deal", action="append", default=[], metavar="PLAYER=CARDS",
                         help="influence cards in a player's hand after the deal, e.g. red=feint,bribe; "
                              "repeat for other players (default: none; the hands as dealt)")
    command.add_argument("--deal-mode", choices=DEAL_MODES, default="add",
                         help="add: the dealt cards join the cards the player keeps; replace: they are its whole hand "
                              "(default: %(default)s)")


def _cards(text: str) -> tuple[str, ...]:
    return tuple(card.strip() for card in text.split(",") if card.strip())


def dealt_cards(deals: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """`--deal red=feint,bribe --deal blue=...` as {player: cards}; a malformed one is a usage error."""
    hands: dict[str, tuple[str, ...]] = {}
    for deal in deals:
        player, equals, cards = deal.partition("=")
        if not equals or not player.strip() or not _cards(cards):
            raise UsageError(f"--deal `{deal}`: write PLAYER=CARD[,CARD...], e.g. red=feint")
        hands[player.strip()] = hands.get(player.strip(), ()) + _cards(cards)
    return hands


def bout_settings(args: argparse.Namespace, ruleset: Ruleset, players: int, packs: Sequence[str],
                  seed: int) -> TestRunSettings:
    """The test-run settings the options describe (no motivations or lanistas, as the standard setup
    plays), checked against `ruleset`: anything it cannot play is a usage error, positioned on the
    option's field as the test run names it."""
    from ..workbench.testrun import SettingsError, TestRunSettings, checked_ruleset

    settings = TestRunSettings(packs=tuple(packs), barge=args.layout, motivations=(None,) * players,
                               agents=tuple(args.agents.split(",")), seed=seed,
                               stack_turning_points=_cards(args.stack), deal_influence=dealt_cards(args.deal),
                               deal_mode=args.deal_mode)
    try:
        checked_ruleset(settings, ruleset)
    except SettingsError as error:
        raise UsageError(diagnostics=[_on_the_command_line(d) for d in error.diagnostics]) from None
    return settings


#: The test run's names of its fields, and the options that set them here.
OPTION_OF_FIELD = {"stack_turning_points": "--stack", "deal_influence": "--deal", "deal_mode": "--deal-mode",
                   "agents": "--agents", "barge": "--layout", "players": "--players"}


def _on_the_command_line(diagnostic: Diagnostic) -> Diagnostic:
    """A test-run settings problem told as the option that caused it (`--stack: no `x` ...`)."""
    message = diagnostic.message
    for name, option in OPTION_OF_FIELD.items():
        if message.startswith(name):
            message = option + message[len(name):]
            break
    return replace(diagnostic, message=message, file="<command line>")
