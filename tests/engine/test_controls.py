"""A control is a command content offers as one (`offered control`): offered among a turn's
controls (`acts control`) at any time in the turn, never among its commands, and no command given
(no `command` line, no `command_used`, no rule's requirement on commands). The base game's
Command token is one (content/base/game/nexus_arena.nexus), and a game that builds on nothing
declares its own under its own names."""

from __future__ import annotations

from pathlib import Path

from support import base_context, write_pack

from nexus_dsl import Bout, check_declarations, load_ruleset, parse
from nexus_dsl.engine.actions import CONTROL, Action
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup


def mid_round(tokens: int) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=2, mp=1,
                                        stats={"command_tokens": tokens}),
                             PieceSetup("blue", "north", Square(4, 2), Direction.S)],
                     phase="command", active="red")


def test_the_command_token_is_offered_as_a_control_after_the_commands() -> None:
    bout = Bout(load_ruleset(["base"]), mid_round(2), seed=1)
    assert bout.pending is not None
    kinds = [o.kind for o in bout.pending.options]
    controls = [o for o in bout.pending.options if o.kind == CONTROL]
    assert controls == [Action.make(CONTROL, "red", "spend_command_token", to="ap"),
                        Action.make(CONTROL, "red", "spend_command_token", to="mp")]
    first = kinds.index(CONTROL)
    assert set(kinds[:first]) == {"command"} and "command" not in kinds[first:]
    assert not [o for o in bout.pending.options if o.name == "spend_command_token" and o.kind != CONTROL]


def test_spending_a_token_adds_the_point_and_writes_its_own_line_alone() -> None:
    bout = Bout(load_ruleset(["base"]), mid_round(2), seed=1)
    events = bout.apply(Action.make(CONTROL, "red", "spend_command_token", to="mp"))
    red = bout.state.pieces["red"]
    assert (red.ap, red.mp, bout.state.player_of(red).stats["command_tokens"]) == (2, 2, 1)
    lines = bout.events_json()[-len(events):]
    assert [(e["type"], e.get("helot"), e.get("to")) for e in lines] == [("command_token", "red", "mp")]


def test_no_token_no_control() -> None:
    bout = Bout(load_ruleset(["base"]), mid_round(0), seed=1)
    assert bout.pending is not None and not [o for o in bout.pending.options if o.kind == CONTROL]


RESTS = '''event turn_starts "Turn starts" {
    arg self: piece
}

event rested "Rested" {
    arg self: piece
}

stat breath "Breath" {
    low 0
    high 9
    start 1
}

stat pace "Pace" {
    low 0
    high 9
}

game jog "Jogging" {
    round rounds
    turn jog_turn
    score pace
}

turn jog_turn "A Turn" {
    acts command, control
    starts turn_starts
}

procedure rounds "A Round" {
    effect {
        take_turns in_play()
    }
}

command stride "Stride" {
    cost 0 AP
    effect {
        add_stat self pace by 1
    }
}

command catch_breath "Catch Your Breath" {
    offered control
    arg how_: {deeply, lightly}
    requires self.breath > 0
    effect {
        add_stat self breath by -1
        add_stat self pace by pick(how_ == "deeply", 2, 1)
        record rested with option("rested", "how", how_)
    }
}

rule no_commands_once_paced "Out of Steam" {
    requires self.pace < 1 else "out of steam"
}
'''


def test_a_game_that_builds_on_nothing_declares_its_own_control(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "jog", "jog", {"jog.nexus": RESTS})
    setup = BoutSetup(pieces=[PieceSetup("a", "south", Square(1, 8), Direction.N),
                              PieceSetup("b", "north", Square(2, 1), Direction.S)], max_cycles=1)
    bout = Bout(load_ruleset([str(pack)]), setup, seed=1)
    assert bout.pending is not None and bout.pending.actor == "a"
    assert [(o.kind, o.name, dict(o.args)) for o in bout.pending.options if o.kind != "end_round"] == [
        ("command", "stride", {}), (CONTROL, "catch_breath", {"how": "deeply"}),
        (CONTROL, "catch_breath", {"how": "lightly"})]
    events = bout.apply(Action.make(CONTROL, "a", "catch_breath", how="deeply"))
    lines = bout.events_json()[-len(events):]
    assert [(e["type"], e.get("piece"), e.get("stat"), e.get("how")) for e in lines] == [
        ("stat", "a", "breath", None), ("stat", "a", "pace", None), ("rested", "a", None, "deeply")]  # no `command` line
    a = bout.state.pieces["a"]
    assert (a.stats["breath"], a.stats["pace"]) == (0, 2)
    # Paced, no command may be given (the rule's requirement); the control is spent: nothing but ending.
    assert [o.kind for o in bout.pending.options] == ["end_round"]


def problems(source: str) -> list[tuple[str, int, str]]:
    return [(d.code, d.line, d.message) for d in check_declarations(parse(source, "t.nexus").declarations,
                                                                    base_context())]


def test_a_choice_of_words_of_its_own_is_text_and_a_control_needs_no_cost() -> None:
    assert problems('command c "C" {\n    offered control\n    arg how_: {deeply, lightly}\n'
                    '    effect {\n        let loud = how_ == "deeply"\n    }\n}\n') == []


def test_a_choice_mixing_a_known_name_and_a_stray_word_is_still_refused() -> None:
    found = problems('command c "C" {\n    cost 1 MP\n    arg direction: {forward, forwrd}\n}\n')
    assert [(code, line) for code, line, _ in found] == [("check/unknown_name", 3)]
    assert "unknown choice `forwrd`" in found[0][2]


def test_offered_is_a_command_or_a_control_and_a_command_still_costs() -> None:
    found = problems('command c "C" {\n    offered sometimes\n}\n')
    assert sorted(code for code, _, _ in found) == ["check/missing_clause", "check/unknown_name"]
