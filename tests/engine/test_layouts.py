"""The words of the board and the body are the game's: the data kind its board layouts are (`game {
layouts <kind>; layout_word <word> }`), the end state that brings a state (`state <id> { implied_by
incapacitated }`) and the table a random body location is rolled on (the rule param
`random_location_table`, else a face per declared location) and the size of the board (`game {
board_size 5 }`). A pack that builds on nothing names its own, and the engine speaks of none of the
base game's."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import Bout, check_declarations, load_ruleset, parse
from nexus_dsl.check.checker import CheckContext, setting_example
from nexus_dsl.check.context import context_of
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.primitives.chance import random_location, random_square
from nexus_dsl.engine.scope import Env
from nexus_dsl.engine.setup import RANDOM_LAYOUT, BoutSetup, PieceSetup
from nexus_dsl.engine.state import Status
from nexus_dsl.errors import NexusError, ScriptRuntimeError

DUEL = '''game duel "Duel" {
    layouts barges
    layout_word pit
}
'''

BODY = '''stat top "Top" {
    group location
    start 5
}

stat bottom "Bottom" {
    group location
    start 5
}

state down "Down" {
    implied_by incapacitated
}

state upright "Upright" {
}
'''

# Nine pits: a pick among them is one die with a face per pit, rolled for the game's word.
PITS = "".join(f'- {{id: pit_{n}, name: "Pit {n}", description: "Pit number {n}.", objects: [], hazards: []}}\n'
               for n in range(1, 10))


def duel(tmp_path: Path, game: str = DUEL, rule: str = "") -> object:
    folder = write_pack(tmp_path / "duel", "duel", {"game.nexus": game, "body.nexus": BODY + rule, "barges.yaml": PITS})
    return load_ruleset([str(folder)])


def two(layout: str | None = None) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(1, 8), Direction.N),
                             PieceSetup("blue", "north", Square(8, 1), Direction.S)], layout=layout)


def test_a_game_names_its_layouts_and_a_setup_lays_one_out(tmp_path: Path) -> None:
    ruleset = duel(tmp_path)
    assert (ruleset.game.layouts, ruleset.game.layout_word) == ("barges", "pit")  # type: ignore[attr-defined]
    bout = Bout(ruleset, two("pit_3"), seed=1)  # type: ignore[arg-type]
    assert bout.state.meta["layout"] == "pit_3" and bout.state.meta["hazards"] == []


def test_more_than_eight_layouts_are_picked_with_a_die_rolled_for_the_games_word(tmp_path: Path) -> None:
    ruleset = duel(tmp_path)
    bout = Bout(ruleset, two(RANDOM_LAYOUT), seed=1, forced_dice={"pit": [9]})  # type: ignore[arg-type]
    assert bout.state.meta["layout"] == "pit_9"


def test_an_unknown_layout_is_refused_in_the_games_word(tmp_path: Path) -> None:
    ruleset = duel(tmp_path)
    with pytest.raises(NexusError) as raised:
        Bout(ruleset, two("pit_10"), seed=1)  # type: ignore[arg-type]
    diagnostic = raised.value.diagnostics[0]
    assert diagnostic.code == "setup/unknown_layout" and "no pit `pit_10`" in diagnostic.message
    assert "pit_1" in (diagnostic.hint or "")


def test_a_game_naming_no_layouts_has_none_to_lay_out(tmp_path: Path) -> None:
    ruleset = duel(tmp_path, game='game duel "Duel" {\n    players 2\n}\n')
    with pytest.raises(NexusError) as raised:
        Bout(ruleset, two("pit_1"), seed=1)  # type: ignore[arg-type]
    assert raised.value.diagnostics[0].code == "setup/unknown_layout"
    assert "no layout `pit_1`" in raised.value.diagnostics[0].message and "layouts" in (raised.value.diagnostics[0].hint or "")
    assert Bout(ruleset, two(), seed=1).state.meta.get("layout") is None  # type: ignore[arg-type]


def test_the_base_game_names_its_barges() -> None:
    base = load_ruleset(["base"])
    assert (base.game.layouts, base.game.layout_word) == ("barges", "barge")
    assert base.words.implied_by == {"prone": ("incapacitated",)}


def test_an_end_state_brings_the_states_that_say_so(tmp_path: Path) -> None:
    ruleset = duel(tmp_path)
    bout = Bout(ruleset, two(), seed=1)  # type: ignore[arg-type]
    red = bout.state.pieces["red"]
    assert not bout.conditions.has_state(red, "down")
    red.status = Status.INCAPACITATED
    assert bout.conditions.has_state(red, "down") and not bout.conditions.has_state(red, "upright")
    red.status = Status.DEAD
    assert not bout.conditions.has_state(red, "down")  # implied by `incapacitated` alone


class _Host:
    def __init__(self, ruleset: object, faces: list[int]):
        self.ruleset, self.state, self.faces, self.rolled = ruleset, None, faces, []

    def roll(self, purpose: str, sides: int = 6) -> int:
        self.rolled.append((purpose, sides))
        return self.faces.pop(0)


def test_a_random_location_is_rolled_on_the_games_table(tmp_path: Path) -> None:
    plain = _Host(duel(tmp_path / "plain"), [2])
    assert random_location(plain, Env({})) == "bottom" and plain.rolled == [("location", 2)]  # type: ignore[arg-type]
    table = 'rule body_table "Body Table" {\n    param random_location_table = [bottom, bottom, top]\n}\n'
    tabled = _Host(duel(tmp_path / "tabled", rule=table), [3])
    assert random_location(tabled, Env({})) == "top" and tabled.rolled == [("location", 3)]  # type: ignore[arg-type]
    folder = write_pack(tmp_path / "bodiless", "bodiless", {"game.nexus": DUEL})
    with pytest.raises(ScriptRuntimeError):
        random_location(_Host(load_ruleset([str(folder)]), [1]), Env({}))  # type: ignore[arg-type]


def test_the_base_game_declares_its_d6_of_body_locations() -> None:
    assert list(load_ruleset(["base"]).settings["random_location_table"]) == [
        "left_upper", "chest", "right_upper", "left_lower", "midsection", "right_lower"]


def _problems(source: str, context: CheckContext | None = None) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in check_declarations(parse(source, "t.nexus").declarations, context)]


def test_the_checker_holds_the_new_properties_to_their_values() -> None:
    assert _problems('game g "G" {\n    layouts spaceships\n}\n') == [("check/unknown_name", "unknown layouts `spaceships`")]
    assert _problems('state s "S" {\n    implied_by fighting\n}\n') == [("check/unknown_name", "unknown implied_by `fighting`")]
    assert _problems('game g "G" {\n    layouts barges\n    layout_word pit\n}\n') == []
    assert _problems('state s "S" {\n    implied_by incapacitated, dead\n}\n') == []


def test_the_checkers_examples_name_the_games_own_words(tmp_path: Path) -> None:
    bare = context_of(parse(BODY, "body.nexus").declarations)
    assert setting_example("locations", bare) == "[top, bottom]"
    assert setting_example("locations", context_of(())) == "[<location>, ...]"  # a game declaring none
    source = 'rule r "R" {\n    param fatal_locations = 3\n}\n'
    declarations = parse(BODY + source, "t.nexus").declarations
    (problem,) = check_declarations(declarations, context_of(declarations))
    assert "e.g. `param fatal_locations = [top, bottom]`" in (problem.hint or "")


def test_a_game_declares_the_size_of_its_board(tmp_path: Path) -> None:
    small = duel(tmp_path / "small", game=DUEL.replace("layout_word pit", "layout_word pit\n    board_size 5"))
    bout = Bout(small, BoutSetup(pieces=[PieceSetup("red", "south", Square(1, 5), Direction.N),  # type: ignore[arg-type]
                                         PieceSetup("blue", "north", Square(5, 1), Direction.S)]), seed=1)
    assert bout.state.grid.size == 5 and len(list(bout.state.grid.squares())) == 25
    host = _Host(small, [5, 4])
    host.state = bout.state
    assert random_square(host, Env({})) == Square(5, 4)  # type: ignore[arg-type]
    assert host.rolled == [("grid_col", 5), ("grid_row", 5)]
    assert Bout(duel(tmp_path / "plain"), two(), seed=1).state.grid.size == 8  # type: ignore[arg-type]
    assert load_ruleset(["base"]).game.board_size == 8


def test_a_board_size_outside_its_range_is_refused() -> None:
    (problem,) = _problems('game g "G" {\n    board_size 0\n}\n')
    assert problem[0] == "check/out_of_range" and "the squares along each side of a game's board" in problem[1]
