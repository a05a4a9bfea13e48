"""A counter is a pile each piece holds, its coins on numbers (`pile <id> { numbered true }`): a game
that builds on nothing declares its own, names it in its scripts, its log and its snapshot, and the
engine knows it by no name of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import load_ruleset
from nexus_dsl.check.checker import check_declarations
from nexus_dsl.check.context import context_of
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import SetupError, standard_setup
from nexus_dsl.syntax.parser import parse

NOTCHES = '''pile notches "Notches" {
    numbered true
    reason "notch"
    text "Each piece's: a coin on each number notched."
}

pile pot "The Pot" {
    text "Where notched coins end up."
}

game notching "Notching" {
    round notch_round
}

procedure notch_round "A Round of Notches" {
    effect {
        for each p in pieces() {
            let next = count(p.notches) + 2
            mark_counter p notches next
            mark_counter p notches next
        }
        let first_piece = first(pieces())
        if count(first_piece.notches) >= 2 {
            collect_counter first_piece notches to pot
            end_game "notched"
        }
    }
}
'''


def _bout(tmp_path: Path, **counters: list[int]) -> Bout:
    ruleset = load_ruleset([str(write_pack(tmp_path / "notching", "notching", {"game.nexus": NOTCHES}))])
    setup = standard_setup(2)
    for spec in setup.pieces:
        spec.counters = {name: list(numbers) for name, numbers in counters.items()}
    return Bout(ruleset, setup, seed=1, strict_ledger=True)


def test_a_counter_is_marked_read_collected_and_logged_by_the_names_its_game_gives_it(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    assert bout.fault is None and bout.state.outcome is not None and bout.state.outcome.termination == "notched"
    coins = [e.data for e in bout.log if e.type == "coins"]
    # A number already marked is left alone; the coins come from the reserve (this game names no pile
    # for a mark, nor a reserve: the engine's own stands for it).
    assert coins[:2] == [{"amount": 1, "source": "reserve", "dest": "notches:red", "reason": "notch 2"},
                         {"amount": 1, "source": "reserve", "dest": "notches:blue", "reason": "notch 2"}]
    assert coins[-1] == {"amount": 2, "source": "notches:red", "dest": "pot", "reason": "notch_round"}
    snapshot = bout.snapshot()
    assert snapshot["red"]["notches"] == [] and snapshot["blue"]["notches"] == [2, 3]
    assert snapshot["piles"] == {"pot": 2}
    assert bout.state.coins_in_play() == bout.state.drawn


def test_a_setup_marks_numbers_on_a_declared_counter_only(tmp_path: Path) -> None:
    bout = _bout(tmp_path, notches=[5])
    assert [e.data["reason"] for e in bout.log if e.type == "coins"][:2] == ["notch 3", "notch 3"]
    with pytest.raises(SetupError, match="no counter `tally`"):
        _bout(tmp_path / "again", tally=[1])


def _problems(source: str) -> list[str]:
    declarations = list(parse(NOTCHES + source).declarations)
    return [d.message for d in check_declarations(declarations, context_of(declarations))]


def test_a_counter_is_no_pile_and_a_pile_is_no_counter() -> None:
    assert _problems("") == []
    problems = _problems('rule r "R" {\n    when round_over {\n        transfer 1 from notches to pot\n'
                         '        mark_counter self pot 1\n    }\n}\nevent round_over "Over" {\n    arg self: piece\n}\n')
    assert problems == ["expected a coin pile, got a counter", "expected a counter, got a coin pile"]


def test_a_counter_takes_no_name_a_piece_has_and_only_a_counter_has_a_reason() -> None:
    assert _problems('pile overall "Overall" {\n    numbered true\n}\n') == [
        "a piece already has `overall`: a counter is read on a piece by its id"]
    assert _problems('pile jar "Jar" {\n    reason "jar"\n}\n') == [
        "only a counter (`numbered true`) has a `reason`: the log's reason for a coin marked on a number"]
