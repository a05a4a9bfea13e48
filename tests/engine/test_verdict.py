"""The verdict is content: the `game` declaration names what a side's standing is counted in and the
procedure that decides who wins when the game ends with no one having won it (docs/language.md,
`game`). In play in scenarios too: tests/scenarios/ending/house_rule_verdict_toughest_side.yaml."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.model.game import Game


def ended_at_the_cycle_limit(packs: list[str], crowd: int = 5) -> Bout:
    """Four helots, north and east one side, south and west the other, that reach the cycle limit at
    once: the verdict is all that decides the bout."""
    helots = [PieceSetup("red", "south", Square(4, 8), Direction.N, piles={"cred": 12}, side="southwest"),
              PieceSetup("blue", "north", Square(5, 1), Direction.S, piles={"cred": 10}, side="northeast"),
              PieceSetup("green", "east", Square(8, 4), Direction.W, piles={"cred": 9}, side="northeast"),
              PieceSetup("yellow", "west", Square(1, 5), Direction.E, piles={"cred": 1}, side="southwest")]
    bout = Bout(load_ruleset(packs), BoutSetup(pieces=helots, piles={"crowd": crowd}, max_cycles=0), seed=1)
    assert bout.state.ended and bout.fault is None
    return bout


def verdict_pack(tmp_path: Path, game: str, procedure: str = "") -> str:
    return str(write_pack(tmp_path / "verdict", "verdict", {"game.nexus": game + procedure}, builds_on="[base]"))


def test_the_base_game_declares_its_score_its_verdict_and_its_words() -> None:
    assert load_ruleset(["base"]).game == Game("nexus_arena", setup="setting_up", round="command_cycle",
                                               turn="command_round", score="cred", verdict="most_cred",
                                               piece_word="helot", player_word="lanista",
                                               groups=("movement", "advanced_movement", "melee", "grapple", "aim",
                                                       "defense", "fame", "objects"),
                                               activations=("duplicate", "turning_point", "always_active", "player_activated"),
                                               layouts="barges", layout_word="barge", board_size=8,
                                               profiles="lanistas", roles="motivations")


def test_sides_stand_by_their_pieces_scores_together() -> None:
    # The best lanista (red, 12) is on the side that stands lower: 13 against 19.
    outcome = ended_at_the_cycle_limit(["base"]).state.outcome
    assert outcome is not None and (outcome.termination, outcome.winner) == ("cycle_limit", "northeast")


def test_the_verdict_holds_the_leaders_to_the_crowd_s_pile() -> None:
    outcome = ended_at_the_cycle_limit(["base"], crowd=19).state.outcome
    assert outcome is not None and outcome.winner is None  # 19 does not beat 19


def test_a_game_with_no_verdict_ends_in_a_draw(tmp_path: Path) -> None:
    pack = verdict_pack(tmp_path, 'game nexus_arena "Unjudged" {\n    score cred\n}\n')
    outcome = ended_at_the_cycle_limit(["base", pack]).state.outcome
    assert outcome is not None and (outcome.termination, outcome.winner) == ("cycle_limit", None)


def test_a_verdict_reads_how_the_game_ended_and_names_the_side_that_wins(tmp_path: Path) -> None:
    # `most_cred` overridden by id: at the cycle limit the side named wins, by its name.
    pack = verdict_pack(tmp_path, "", 'procedure most_cred "Underdogs" {\n    effect {\n'
                                      '        if ending() == "cycle_limit" {\n            win last(sides())\n'
                                      '        }\n    }\n}\n')
    bout = ended_at_the_cycle_limit(["base", pack])
    assert bout.state.outcome is not None and bout.state.outcome.winner == "northeast"
    assert bout.state.ending == "cycle_limit"


def test_win_refuses_what_is_no_side(tmp_path: Path) -> None:
    pack = verdict_pack(tmp_path, "", 'procedure most_cred "Nobody" {\n    effect {\n        win "nobody"\n    }\n}\n')
    helots = [PieceSetup("red", "south", Square(4, 8), Direction.N), PieceSetup("blue", "north", Square(5, 1), Direction.S)]
    bout = Bout(load_ruleset(["base", pack]), BoutSetup(pieces=helots, max_cycles=0), seed=1)
    assert bout.fault is not None and bout.fault.code == "runtime/wrong_type"
    assert "a side is needed here" in bout.fault.message and bout.fault.line == 3


def test_a_game_ended_by_a_script_is_named_as_it_says_and_ends_once(tmp_path: Path) -> None:
    # The verdict tries to end the game again, under another name: the first ending stands.
    pack = verdict_pack(tmp_path, "", 'procedure most_cred "Again" {\n    effect {\n        end_game "twice"\n'
                                      '        win first(sides())\n    }\n}\n')
    outcome = ended_at_the_cycle_limit(["base", pack]).state.outcome
    assert outcome is not None and (outcome.termination, outcome.winner) == ("cycle_limit", "southwest")


def test_end_game_takes_a_word(tmp_path: Path) -> None:
    pack = verdict_pack(tmp_path, "", 'procedure most_cred "Odd" {\n    effect {\n        end_game "Rung Out!"\n'
                                      '    }\n}\n')
    helots = [PieceSetup("red", "south", Square(4, 8), Direction.N), PieceSetup("blue", "north", Square(5, 1), Direction.S)]
    bout = Bout(load_ruleset(["base", pack]), BoutSetup(pieces=helots, max_cycles=0), seed=1)
    assert bout.fault is not None and (bout.fault.code, bout.fault.line) == ("runtime/bad_value", 3)
    assert "a word such as" in bout.fault.message
