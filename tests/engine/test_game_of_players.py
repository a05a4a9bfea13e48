"""A game whose players control no pieces (`game { pieces 0 }`): players seated where a setup would
place pieces, each with the stats and zones it holds, acting in turns by commands whose arguments are
drawn from their zones, with nothing of a board: no grid, no squares, no pieces, no abilities."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import write_pack

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.agents.base import make_agent
from nexus_dsl.engine.bout import play
from nexus_dsl.engine.setup import BoutSetup, PlayerSetup, standard_setup
from nexus_dsl.errors import ContentError

CARDS = [f"c{n}" for n in range(1, 9)]

TAKING = '''event turn_over "Turn over" {
    arg self: player
}

stat taken "Cards Taken" {
    owner player
    low 0
    high 99
}

zone pile "The Pile" {
    visible all
}

zone row "The Row" {
    visible all
}

zone hand "Hand" {
    owner player
    visible owner
}

game taking "Taking" {
    text "Each player in turn takes the top card of the pile, or gives a card of its hand to any place in the row; when the pile is empty, whoever holds most wins."
    pieces 0
    setup seating
    round rounds
    turn one_act
    score taken
    verdict most_taken
}

turn one_act "A Turn" {
    over turn_over
    length 1
    passing false
}

procedure seating "Seating" {
    effect {
        set_order reverse(players())
    }
}

procedure rounds "A Round" {
    effect {
        take_turns order_of_play()
    }
}

procedure most_taken "Most Taken" {
    effect {
        if count(leading_sides()) == 1 {
            win first(leading_sides())
        }
    }
}

command take "Take" {
    requires count(cards(pile)) > 0
    effect {
        move_card first(cards(pile)) from pile to hand
        add_stat self taken by 1
    }
}

command give "Give" {
    arg card: in hand
    arg place: number 1..count(cards(row)) + 1
    effect {
        move_card card from hand to row at place
        add_stat self taken by -1
    }
}

rule emptied "The Pile Emptied" {
    when turn_over if count(cards(pile)) == 0 {
        end_game "pile_empty"
    }
}
'''


@pytest.fixture(scope="module")
def taking(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_ruleset([str(write_pack(tmp_path_factory.mktemp("taking") / "taking", "taking", {"game.nexus": TAKING},
                                        builds_on="[]"))])


def new_game(ruleset: Any, **zones: Any) -> Bout:
    setup = BoutSetup(pieces=[], players=[PlayerSetup("ann", "south"), PlayerSetup("bob", "north")],
                      zones={"pile": list(CARDS), **zones})
    return Bout(ruleset, setup, seed=3)


def test_players_act_in_the_order_the_setup_sets_with_no_piece_on_a_board(taking: Any) -> None:
    bout = new_game(taking)
    assert bout.state.pieces == {} and list(bout.state.players) == ["ann", "bob"]
    assert bout.pending is not None and bout.pending.actor == "bob"  # `set_order reverse(players())`
    assert sorted(o.name or "" for o in bout.pending.options) == ["take"]  # an empty hand gives nothing
    bout.apply(Action.make("command", "bob", "take"))
    bout.apply(bout.pending.options[0]) if bout.pending.kind == "between_rounds" else None
    assert bout.pending.actor == "ann"
    snapshot = bout.snapshot()
    assert snapshot["zones"]["hand"] == {"ann": [], "bob": ["c1"]} and snapshot["zones"]["pile"] == CARDS[1:]
    assert snapshot["players"]["bob"] == {"seat": "north", "side": "bob", "stats": {"taken": 1}}


def test_a_card_of_the_own_hand_goes_to_any_place_of_the_row(taking: Any) -> None:
    bout = new_game(taking, hand={"bob": ["x1", "x2"], "ann": ["x3"]}, row=["r1", "r2"])
    gives = sorted((o.arg("card"), o.arg("place")) for o in bout.pending.options if o.name == "give")
    assert gives == [(card, place) for card in ("x1", "x2") for place in (1, 2, 3)]  # not ann's x3
    bout.apply(Action.make("command", "bob", "give", card="x2", place=2))
    assert bout.state.decks["row"] == ["r1", "x2", "r2"] and bout.state.owned["hand"]["bob"] == ["x1"]
    assert bout.state.players["bob"].stats["taken"] == 0  # kept within its bounds


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_whole_games_end_when_the_pile_is_empty_and_the_verdict_names_the_winner(taking: Any, agent: str) -> None:
    for seed in range(1, 11):
        setup = standard_setup(2)  # seats a player where it would place a piece
        setup.zones = {"pile": list(CARDS)}
        bout = play(taking, setup, {label: make_agent(agent, seed=seed + i) for i, label in enumerate(("red", "blue"))},
                    seed=seed)
        assert bout.fault is None and bout.outcome is not None
        assert bout.outcome.termination == "pile_empty", bout.outcome
        totals = bout.outcome.totals
        assert set(totals) == {"red", "blue"}
        assert sum(totals.values()) == sum(len(cards) for cards in bout.state.owned["hand"].values())
        best = max(totals.values())
        leaders = [label for label, total in totals.items() if total == best]
        assert bout.outcome.winner == (leaders[0] if len(leaders) == 1 else None)
        turns = [e.data["player"] for e in bout.log if e.type == "round_start"]
        assert all(a != b for a, b in zip(turns, turns[1:])), "turns strictly alternate"
        assert not any(e.type in ("initiative", "allocate", "roll") for e in bout.log)


def test_a_player_has_no_board_words_the_checker_says_so(tmp_path: Path) -> None:
    broken = TAKING + 'command step "Step" {\n    effect {\n        move self N\n    }\n}\n'
    pack = write_pack(tmp_path / "broken", "broken", {"game.nexus": broken}, builds_on="[]")
    with pytest.raises(ContentError) as raised:
        load_ruleset([str(pack)])
    assert any("expected a piece, got a player" in d.message or "unknown" in d.message
               for d in raised.value.diagnostics), [d.message for d in raised.value.diagnostics]
