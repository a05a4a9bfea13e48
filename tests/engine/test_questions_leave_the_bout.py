"""Asking what a command costs or requires leaves the bout exactly as it was, dice included.

The checker refuses a function that rolls in a `cost` or a `requires` (tests/check/
test_questions_do_not_roll.py). These tests give the engine such a declaration anyway, put into
a loaded Ruleset past the checker, to hold the engine's own promise: every place that asks a
question (listing the legal commands, explaining a refusal, paying) asks it in the interpreter's
asking mode, where a roll stops the script instead of moving the dice.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from nexus_dsl import Action, Bout, RulesError, cached_ruleset, parse
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.fingerprint import differences, whole_state
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.model.ruleset import Origin, Ruleset, ScriptItem

GAMBLES = '''
command gamble "Gamble" {
    group fame
    text "A cost that rolls, never allowed."
    cost die(check) AP
    requires self.ap > 100 else "never"
    effect {
        log "won"
    }
}

command wager "Wager" {
    group fame
    text "A cost that rolls, offered."
    cost die(check) - die(check) + 6 AP
    effect {
        log "won"
    }
}
'''

HUNCH = '''
command hunch "Hunch" {
    group fame
    text "A requirement that rolls."
    cost 1 AP
    requires check(7 - self.ap)
    effect {
        log "won"
    }
}
'''


def unchecked(ruleset: Ruleset, source: str) -> Ruleset:
    """`ruleset` with the commands of `source` added as they are, without checking them."""
    commands = dict(ruleset.scripts["command"])
    for declaration in parse(source, "gambles.nexus").declarations:
        commands[declaration.id] = ScriptItem(declaration, Origin("gambles", "gambles.nexus", declaration.pos.line))
    return replace(ruleset, scripts={**ruleset.scripts, "command": commands})


def face_to_face() -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                             PieceSetup("blue", "north", Square(4, 4), Direction.S)], phase="command", active="red")


@pytest.fixture
def bout() -> Bout:
    return Bout(unchecked(cached_ruleset(("base",)), GAMBLES), face_to_face(), seed=11)


def test_listing_the_commands_rolls_nothing(bout: Bout) -> None:
    before = whole_state(bout)
    listed = {action.name for action in bout.legality.legal_commands(bout.state.pieces["red"])}
    assert "gamble" not in listed and "wager" in listed  # a cost that cannot be asked is met when paid
    assert differences(before, whole_state(bout)) == []


def test_a_refused_action_leaves_the_whole_state_and_the_dice_untouched(bout: Bout) -> None:
    gamble = Action.make("command", "red", "gamble")
    assert gamble not in bout.pending.options
    before = whole_state(bout)
    with pytest.raises(RulesError, match="cannot roll dice"):
        bout.apply(gamble)
    assert differences(before, whole_state(bout)) == []


def test_a_requirement_that_rolls_stops_the_bout_before_any_die_moves() -> None:
    fresh = Bout(cached_ruleset(("base",)), face_to_face(), seed=11)
    bout = Bout(unchecked(cached_ruleset(("base",)), HUNCH), face_to_face(), seed=11)
    assert bout.fault is not None and bout.fault.code == "runtime/impure"
    assert (bout.fault.line, bout.fault.column) == (6, 14)
    assert bout.dice.state() == fresh.dice.state()


def test_paying_a_cost_that_rolls_stops_the_bout_at_the_cost(bout: Bout) -> None:
    wager = Action.make("command", "red", "wager")
    assert wager in bout.pending.options  # asking it faulted, so it was not refused for its cost
    dice = bout.dice.state()
    bout.apply(wager)
    assert bout.fault is not None and bout.fault.code == "runtime/impure"
    assert (bout.fault.file, bout.fault.line, bout.fault.column) == ("gambles.nexus", 15, 10)
    assert bout.fault.message == "in command `wager`: a cost or a requirement is a question: it cannot roll dice"
    assert bout.dice.state() == dice
