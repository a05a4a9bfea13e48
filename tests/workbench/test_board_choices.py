"""Acting on the board: the engine's legal actions arranged piece -> target -> command -> choices,
each reachable by exactly one path, nothing else offered."""

from __future__ import annotations

from collections import Counter

import pytest

from nexus_dsl.engine.actions import ABILITY, CARD, COMMAND
from nexus_dsl.workbench.board_choices import BoardChoices, board_choices, piece_target, square_target

from .people_bouts import decisions, people_bout

SEEDS = (1, 2, 5)


def reached(choices: BoardChoices) -> Counter:
    on_board = Counter(option.action for *_, option in choices.paths())
    beside = Counter(button.action for group in choices.beside for button in group.buttons)
    return on_board + beside


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_is_reached_by_exactly_one_path_and_nothing_else(seed: int) -> None:
    session = people_bout(seed)
    aimed_at_pieces = aimed_at_squares = 0
    for actor in decisions(session, seed):
        legal = [option for option in session.bout.pending.options if option.actor == actor]
        choices = board_choices(session, actor)
        assert reached(choices) == Counter(legal)  # each once: no action lost, doubled or made up
        for piece, target, _, chosen, option in choices.paths():
            assert piece == option.action.actor == actor
            assert all(option.action.arg(name) == value for name, value in chosen)
            aimed_at_pieces += target.startswith("piece:")
            aimed_at_squares += target.startswith("sq:")
    assert aimed_at_pieces and aimed_at_squares  # the bouts did reach attacks and moves


def test_an_attack_aims_at_the_piece_and_its_choices_narrow_step_by_step() -> None:
    session = people_bout(1)
    for actor in decisions(session, 1):
        choices = board_choices(session, actor)
        opponent = next((t for t in choices.targets(actor) if t.startswith("piece:")), None)
        if opponent is None or len(choices.offers(actor, opponent)) < 3:
            continue
        offers = choices.offers(actor, opponent)
        stepped = max(offers, key=lambda offer: len(offer.steps))
        assert len(stepped.steps) == 2 and stepped.aim is not None
        assert all(option.action.arg(stepped.aim) == opponent.removeprefix("piece:") for option in stepped.options)
        first, second = stepped.steps
        first_value = stepped.values(first, {})[0]
        counts = stepped.values(second, {first: first_value})
        legal = {o.arg(second) for o in session.bout.pending.options
                 if o.actor == actor and o.name == stepped.command.split(":")[1] and o.arg(first) == first_value}
        assert set(counts) == legal and len(counts) > 1
        chosen = stepped.chosen_action({first: first_value, second: counts[-1]})
        assert chosen is not None and chosen.action in session.bout.pending.options
        assert stepped.chosen_action({first: first_value}) is None  # a step still open names no action yet
        costs = {stepped.chosen_action({first: first_value, second: count}).cost for count in counts}
        assert len(costs) == len(counts)  # every further attack changes the total cost shown
        return
    pytest.fail("no decision offered several attacks on an opponent")


def test_a_move_is_offered_on_the_square_it_leads_to() -> None:
    session = people_bout(2)
    for actor in decisions(session, 2):
        choices = board_choices(session, actor)
        squares = [t for t in choices.targets(actor) if t.startswith("sq:")]
        moves = [(t, o) for t in squares for o in choices.offers(actor, t)
                 if o.options[0].action.kind == COMMAND and not o.steps and not o.options[0].cost_text.startswith("0")]
        plain = [(t, o) for t, o in moves if o.title.startswith("Move")]
        if not plain:
            continue
        target, offer = plain[0]
        session.apply(offer.options[0])
        assert square_target(session.bout.state.pieces[actor].square) == target
        return
    pytest.fail("no move was offered")


def test_a_piece_is_never_its_own_target_and_round_controls_stay_beside_the_board() -> None:
    session = people_bout(1)
    controls = 0
    for actor in decisions(session, 1, limit=120):
        choices = board_choices(session, actor)
        assert piece_target(actor) not in choices.targets(actor)
        aimed = {option.action for *_, option in choices.paths()}
        legal_controls = [o for o in session.bout.pending.options
                          if o.actor == actor and o.kind not in (COMMAND, ABILITY, CARD)]
        assert not aimed & set(legal_controls)
        controls += len(legal_controls)
    assert controls
