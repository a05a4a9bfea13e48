"""Every line of a bout's log is told in words (`narrate.describe`): nothing the bout did is left
out of what `nexus play`, the test run and the playtest show, in every game of the content."""

from __future__ import annotations

import re

import pytest

from nexus_dsl.agents import make_agent
from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.engine.bout import Bout, Event, next_action
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.narrate import GameTerms, describe

GAMES = [(("base",), 2, "heuristic"), (("base",), 4, "random"), (("base", "poison_gallery"), 2, "heuristic"),
         (("base", "team_bouts"), 4, "heuristic"), (("nexus_pirates",), 2, "heuristic"),
         (("pirates_two_vs_two",), 4, "random")]


def log_of(packs: tuple[str, ...], players: int, agent: str, seed: int) -> tuple[list[Event], GameTerms]:
    ruleset = load_ruleset(list(packs))
    setup = standard_setup(players=players)
    agents = {piece.label: make_agent(agent, seed=seed + i) for i, piece in enumerate(setup.pieces)}
    bout = Bout(ruleset, setup, seed=seed)
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    return bout.log, GameTerms.of(ruleset)


@pytest.mark.parametrize("packs, players, agent", GAMES)
def test_every_line_of_a_bout_is_told(packs: tuple[str, ...], players: int, agent: str) -> None:
    for seed in (1, 2):
        log, terms = log_of(packs, players, agent, seed)
        for event in log:
            line = describe(event, terms)
            assert line, f"{packs} seed {seed}: nothing tells {event.type} {event.data}"
            # In words: no value left unsaid, no pile by its ledger id (`cred:blue`).
            assert "None" not in line and not re.search(r"\b[a-z_]+:[a-z_]+:?", line), line


def test_coins_are_told_with_their_piles_and_reason() -> None:
    terms = GameTerms(names=(("crowd", "The Crowd Coin Pile"), ("cred", "Cred"), ("left_lower", "Left Lower"),
                             ("crowd_pleaser", "Crowd Pleaser")))
    moved = Event(0, 1, "red", "coins", {"amount": 2, "source": "location:red:left_lower", "dest": "cred:blue",
                                         "reason": "crowd_pleaser"})
    assert describe(moved, terms) == "      2 cred: red's Left Lower → blue's Cred (Crowd Pleaser)"
    paid = Event(1, 1, "red", "coins", {"amount": 1, "source": "cred:red", "dest": "crowd", "reason": "a cost"})
    assert describe(paid, terms) == "      1 cred: red's Cred → the Crowd Coin Pile (a cost)"


def test_a_line_no_one_tells_is_told_by_its_name_and_values() -> None:
    line = describe(Event(0, 1, None, "strange_thing", {"how_many": 3, "done": True}), GameTerms())
    assert line == "      Strange thing: how many 3, done yes"


def test_damage_reduced_to_nothing_is_told_with_no_pile() -> None:
    """A hit whose damage was reduced to nothing moves no coins: its line (`to` is None) names no
    pile, rather than stopping the page that tells it."""
    terms = GameTerms(names=(("crowd", "The Crowd Coin Pile"),))
    none = Event(0, 3, "blue", "damage", {"victim": "red", "amount": 0, "location": "head", "location_taken": 0,
                                          "overall_taken": 0, "to": None})
    assert describe(none, terms) == "      red: head -0, overall -0 (no coins move)"
    some = Event(1, 3, "blue", "damage", {"victim": "red", "amount": 2, "location": None, "location_taken": 0,
                                          "overall_taken": 2, "to": "crowd"})
    assert describe(some, terms) == "      red: overall -2 (coins to the Crowd Coin Pile)"
