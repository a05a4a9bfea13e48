"""A turn's `closing` names a procedure of one arg the engine runs when the turn has ended (after
its `ends` event has been heard), given who took it, before its `over` event. The base game's
clears the helot's unspent points (`points_never_carry_over`); a house rule may keep them, and a
game that builds on nothing closes its turns with its own procedure."""

from __future__ import annotations

from pathlib import Path

from support import base_context, write_pack

from nexus_dsl import Bout, check_declarations, load_ruleset, parse
from nexus_dsl.engine.actions import END_ROUND, Action
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup


def mid_round(ap: int, mp: int) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=ap, mp=mp, piles={"cred": 10}),
                             PieceSetup("blue", "north", Square(4, 2), Direction.S)],
                     phase="command", active="red")


def test_the_base_game_s_points_never_carry_over_after_the_unspent_points_are_paid() -> None:
    ruleset = load_ruleset(["base"])
    assert ruleset.turn.closing == "points_never_carry_over"
    bout = Bout(ruleset, mid_round(2, 1), seed=1)
    events = bout.apply(Action.make(END_ROUND, "red"))
    red = bout.state.pieces["red"]
    assert (red.ap, red.mp) == (0, 0)
    # The penalty (pg.16) hears `round_ends` with the points still there: 3 cred paid.
    assert events[0].type == "round_end" and bout.state.player_of(red).piles["cred"] == 7


def test_a_house_rule_that_closes_with_nothing_keeps_the_points(tmp_path: Path) -> None:
    text = ('turn command_round "Saved Points" {\n    starts round_starts\n    ends round_ends\n'
            '    over round_over\n    effect {\n        allocate_points self\n    }\n}\n')
    pack = write_pack(tmp_path / "keep", "keep", {"keep.nexus": text}, builds_on="[base]")
    bout = Bout(load_ruleset(["base", str(pack)]), mid_round(2, 1), seed=1)
    bout.apply(Action.make(END_ROUND, "red"))
    red = bout.state.pieces["red"]
    assert (red.ap, red.mp) == (2, 1) and bout.state.player_of(red).piles["cred"] == 7  # paid for, and kept


TALLY = '''event turn_starts "Turn starts" {
    arg self: piece
}

event turn_over "Turn over" {
    arg self: piece
}

event closed "Turn closed" {
    arg self: piece
    arg total: number
}

stat tally "Tally" {
    low 0
    high 99
}

game tallying "Tallying" {
    round rounds
    turn tally_turn
    score tally
}

turn tally_turn "A Turn" {
    starts turn_starts
    closing close_the_turn
    over turn_over
    length 1
    passing false
}

procedure close_the_turn "Close the Turn" {
    arg runner: piece
    effect {
        add_stat runner tally by 10
        let total = stat_value(runner, tally)
        record closed for runner
    }
}

procedure rounds "A Round" {
    effect {
        take_turns in_play()
    }
}

command tick "Tick" {
    cost 0 AP
    effect {
        add_stat self tally by 1
    }
}
'''


def test_a_game_that_builds_on_nothing_closes_its_turns_with_its_own_procedure(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "tally", "tally", {"tally.nexus": TALLY})
    setup = BoutSetup(pieces=[PieceSetup("a", "south", Square(1, 8), Direction.N),
                              PieceSetup("b", "north", Square(2, 1), Direction.S)], max_cycles=1)
    bout = Bout(load_ruleset([str(pack)]), setup, seed=1)
    bout.apply(Action.make("command", "a", "tick"))
    lines = [e for e in bout.events_json() if e["type"] in ("round_end", "closed", "stat")]
    assert [(e["type"], e.get("piece"), e.get("total")) for e in lines] == [
        ("stat", "a", None), ("round_end", "a", None), ("stat", "a", None), ("closed", "a", 11)]


def problems(source: str) -> list[tuple[str, int, str]]:
    return [(d.code, d.line, d.message) for d in check_declarations(parse(source, "t.nexus").declarations,
                                                                    base_context())]


def test_closing_names_a_procedure_of_one_arg() -> None:
    found = problems('turn t "T" {\n    closing most_cred\n}\n')
    assert [(code, line) for code, line, _ in found] == [("check/wrong_type", 2)]
    assert "the engine runs `closing` with one, who took the turn" in found[0][2]
    found = problems('turn t "T" {\n    closing no_such_procedure\n}\n')
    assert [(code, line) for code, line, _ in found] == [("check/unknown_name", 2)]
    assert problems('turn t "T" {\n    closing points_never_carry_over\n}\n') == []
