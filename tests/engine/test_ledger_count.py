"""The ledger keeps the coins in play as they move (`Ledger.in_play`), and the check after every
action compares the kept count with the coins drawn from the reserve: here seeded bouts of two
and four players prove the kept count equals every pile added up, after every action (a strict
ledger proves it at every line of the log too), in the bout and in its previews' copies."""

from __future__ import annotations

import random

import pytest

from nexus_dsl import Bout, cached_ruleset, make_agent, standard_setup
from nexus_dsl.engine.bout import next_action


def _setup(seed: int, players: int):
    ruleset = cached_ruleset(("base",))
    draw = random.Random(seed)
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    return standard_setup(players, roles=[draw.choice(motivations) for _ in range(players)],
                          profiles=[draw.choice(lanistas) for _ in range(players)], layout="random")


@pytest.mark.parametrize("players,agent", [(2, "heuristic"), (4, "heuristic"), (4, "random")])
def test_the_kept_count_is_the_piles_added_up(players, agent):
    ruleset = cached_ruleset(("base",))
    for seed in range(1, 4):
        setup = _setup(seed, players)
        bout = Bout(ruleset, setup, seed=seed, strict_ledger=True)
        agents = {spec.label: make_agent(agent, seed=seed * 31 + i) for i, spec in enumerate(setup.pieces)}
        assert bout.ledger.in_play == bout.state.coins_in_play() == bout.state.drawn
        while bout.pending is not None:
            bout.apply(next_action(bout, agents))
            assert bout.ledger.in_play == bout.state.coins_in_play() == bout.state.drawn
        assert bout.state.ended


def test_a_replaced_state_is_counted_afresh():
    ruleset = cached_ruleset(("base",))
    bout = Bout(ruleset, standard_setup(), seed=3)
    earlier = bout.state.clone()
    piece = next(iter(earlier.pieces.values()))
    piece.overall -= 2  # a state with fewer coins in play than the bout's (as a fault's undoing may bring)
    bout.state = earlier
    assert bout.ledger.in_play == earlier.coins_in_play()
