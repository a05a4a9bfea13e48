"""The NEXUS Pirates rulebook's Notes (pg.25) and its card life cycle (pg.9), as properties of whole
games played at random and by the heuristic agent: the base game and its two variants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nexus_dsl import Bout
from nexus_dsl.agents.base import make_agent
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.setup import standard_setup

CARDS = 54
# Where a card may go (pg.9): Deck to Hand to Nexus to Parade to Score Zone; the Deck also deals the
# Nexus (setup and refills) and the first Parade (setup).
MOVES = {("deck", "hand"), ("hand", "nexus"), ("nexus", "parade"), ("parade", "score_zone"),
         ("deck", "nexus"), ("deck", "parade")}
GAMES = {"base": (("nexus_pirates",), 2), "double_ended": (("nexus_pirates", "pirates_double_ended"), 2),
         "two_vs_two": (("nexus_pirates", "pirates_two_vs_two"), 4)}


def zone_kind(logged: str) -> str:
    return logged.split(" of ")[0]  # "hand of ahab" -> "hand"


def counts(bout: Bout) -> dict[str, int]:
    state = bout.state
    shared = {name: len(cards) for name, cards in state.decks.items()}
    for name, held in state.owned.items():
        shared[name] = sum(len(cards) for cards in held.values())
    return shared


def play_checking(game: str, seed: int, agent: str) -> list[str]:
    """Plays a whole game, checking the Notes before every turn; returns what broke."""
    packs, players = GAMES[game]
    bout = Bout(cached_ruleset(packs), standard_setup(players), seed=seed)
    agents = {label: make_agent(agent, seed=seed + i) for i, label in enumerate(bout.state.players)}
    broken: list[str] = []
    seen = 0
    refills = 0
    setup_over = False
    while bout.pending is not None:
        for event in bout.log[seen:]:
            if event.type == "card_moved":
                move = (zone_kind(event.data["origin"]), zone_kind(event.data["destination"]))
                if move not in MOVES:
                    broken.append(f"seed {seed}: {event.data['card']} moved {move[0]} -> {move[1]}")
                if setup_over and move == ("deck", "nexus"):
                    refills += 1
        seen = len(bout.log)
        decision = bout.pending
        if decision.kind == "command":
            setup_over = True
            state = bout.state
            total = counts(bout)
            if sum(total.values()) != CARDS:
                broken.append(f"seed {seed}: {sum(total.values())} cards in the zones, not {CARDS}")
            active = [side for side, cards in state.owned["parade"].items() if cards]
            if len(active) != 1:
                broken.append(f"seed {seed}: {len(active)} Active Parades")
            if players == 2:
                # "Odd count of cards -> It's player 1's turn; even count -> player 2's" (pg.25)
                first, second = state.order
                whose = first if total["nexus"] % 2 == 1 else second
                if decision.actor != whose:
                    broken.append(f"seed {seed}: {total['nexus']} cards in the Nexus, but {decision.actor}'s turn")
            # "Nexus plus both Hands ... 13, increased by 2 each time the Nexus is refilled" (pg.25),
            # counted here by the cards refills dealt; the 2 vs 2 deals 6 more to its 2 more Hands.
            expected = 7 + 3 * players + refills
            if total["nexus"] + total["hand"] != expected:
                broken.append(f"seed {seed}: Nexus and Hands hold {total['nexus'] + total['hand']}, not {expected}")
        bout.apply(next_action(bout, agents))
    outcome = bout.outcome
    if bout.fault is not None or outcome is None or outcome.termination != "deck_exhausted":
        broken.append(f"seed {seed}: ended {outcome} ({bout.fault})")
        return broken
    if bout.state.decks["deck"]:
        broken.append(f"seed {seed}: ended with {len(bout.state.decks['deck'])} cards in the Deck")
    # Each side's score is the points of the Parades it scored, as the log recorded them.
    scored: dict[str, int] = {}
    for event in bout.log:
        if event.type == "parade_scored":
            scored[event.data["side"]] = scored.get(event.data["side"], 0) + event.data["points"]
    for side in {player.side for player in bout.state.players.values()}:
        booty = sum(p.stats["booty"] for p in bout.state.players.values() if p.side == side)
        if booty != scored.get(side, 0):
            broken.append(f"seed {seed}: {side} has {booty}, its Parades scored {scored.get(side, 0)}")
    return broken


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("agent", ["random", "heuristic"])
@settings(max_examples=8, derandomize=True, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_rulebooks_notes_hold_over_whole_games(game: str, agent: str, seed: int) -> None:
    assert play_checking(game, seed, agent) == []


def test_turns_strictly_alternate_and_a_winner_is_named_by_score() -> None:
    for seed in range(1, 6):
        bout = Bout(cached_ruleset(("nexus_pirates",)), standard_setup(2), seed=seed)
        agents: dict[str, Any] = {label: make_agent("heuristic", seed=seed) for label in bout.state.players}
        while bout.pending is not None:
            bout.apply(next_action(bout, agents))
        turns = [e.data["player"] for e in bout.log if e.type == "round_start"]
        assert all(a != b for a, b in zip(turns, turns[1:]))
        assert bout.outcome is not None
        totals = {label: p.stats["booty"] for label, p in bout.state.players.items()}
        best = max(totals.values())
        leaders = [label for label, total in totals.items() if total == best]
        assert bout.outcome.winner == (leaders[0] if len(leaders) == 1 else None)
