"""The `game` declaration: its `score` names a number every piece has, its `verdict` a procedure of
no args; a Ruleset plays one game, overridden by id. (In play: tests/engine/test_verdict.py.)"""

from __future__ import annotations

from pathlib import Path

from support import base_word_declarations, write_pack

from nexus_dsl import check_declarations, parse
from nexus_dsl.check.context import context_of
from nexus_dsl.content.loader import load_ruleset_collecting

VERDICT = 'procedure judge "Judge" {\n    effect {\n        win first(leading_sides())\n    }\n}\n'


def found(source: str) -> list[tuple[str, int, int, str]]:
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*base_word_declarations(), *declarations])
    return [(d.code, d.line, d.column, d.message) for d in check_declarations(declarations, context)]


def test_a_game_names_its_score_and_its_verdict() -> None:
    assert found(VERDICT + 'game g "G" {\n    score cred\n    verdict judge\n}\n') == []
    plain_stat = 'stat points "Points" {\n    start 0\n}\n'
    assert found(plain_stat + VERDICT + 'game g "G" {\n    score points\n    verdict judge\n}\n') == []


def test_the_verdict_is_a_procedure_the_engine_can_run_with_no_args() -> None:
    unknown = found(VERDICT + 'game g "G" {\n    verdict judg\n}\n')
    assert [p[:3] for p in unknown] == [("check/unknown_name", 7, 13)]
    assert unknown[0][3] == "`judg` is not a procedure"
    with_args = 'procedure judge "Judge" {\n    arg h: piece\n    effect {\n        win h\n    }\n}\n'
    refused = found(with_args + 'game g "G" {\n    verdict judge\n}\n')
    assert [p[:3] for p in refused] == [("check/wrong_type", 8, 13)]
    assert "takes arguments" in refused[0][3]


def test_the_score_is_a_number_every_piece_has() -> None:
    problems = found('game g "G" {\n    score facing\n}\n')
    assert [p[:4] for p in problems] == [("check/unknown_name", 2, 11, "`facing` is not a number every piece has")]
    assert [p[0] for p in found('game g "G" {\n    score "cred"\n}\n')] == ["check/wrong_type"]


def test_win_takes_a_side_by_its_name_or_by_a_piece_on_it() -> None:
    rule = 'rule r "R" {\n    when bout_ends {\n        win %s\n    }\n}\n'
    assert found(rule % "survivor") == [] and found(rule % '"north_south"') == []
    assert [p[:3] for p in found(rule % "3")] == [("check/wrong_type", 3, 13)]


def test_a_ruleset_plays_one_game(tmp_path: Path) -> None:
    write_pack(tmp_path / "one", "one", {"game.nexus": VERDICT + 'game one "One" {\n    verdict judge\n}\n'})
    write_pack(tmp_path / "two", "two", {"game.nexus": 'game two "Two" {\n    score overall\n}\n'},
                        builds_on="[one]")
    _ruleset, problems = load_ruleset_collecting(["one", "two"], root=tmp_path)
    assert [(p.code, p.line, p.column) for p in problems] == [("content/second_game", 1, 6)]
    assert "already play `one`" in problems[0].message and "override the game by its id" in (problems[0].hint or "")
    write_pack(tmp_path / "three", "three", {"game.nexus": 'game one "One, Again" {\n    score overall\n}\n'},
                            builds_on="[one]")
    ruleset, problems = load_ruleset_collecting(["one", "three"], root=tmp_path)
    assert problems == [] and ruleset is not None and ruleset.game.verdict is None


def test_a_pack_that_builds_on_nothing_knows_no_verdict_of_the_base_game(tmp_path: Path) -> None:
    bare = write_pack(tmp_path / "bare", "bare", {"game.nexus": 'game bare "Bare" {\n    verdict most_cred\n}\n'})
    _ruleset, problems = load_ruleset_collecting(["base", str(bare)])
    assert [(p.code, p.line) for p in problems if p.code != "content/second_game"] == [("check/unknown_name", 2)]


def test_a_signal_binds_the_names_of_the_script_the_event_declares() -> None:
    rule = 'rule r "R" {\n    when round_over {\n        let victim = %s\n        signal piece_killed\n    }\n}\n'
    assert found(rule % "first(in_play())") == [] and found(rule % "self") == []
    (problem,) = found(rule % "3")
    assert problem[:3] == ("check/wrong_type", 4, 9)
    assert problem[3] == "`signal piece_killed` binds `victim` to the `victim` here, which is a number, not a helot"


def test_a_turn_names_declared_events_and_says_its_length_and_passing() -> None:
    ok = 'turn t "T" {\n    starts round_starts\n    ends round_ends\n    length 2\n    passing false\n    effect {\n        allocate_points self\n    }\n}\n'
    assert found(ok) == []
    wrong = 'turn t "T" {\n    starts round_start\n    length 0\n    passing "no"\n}\n'
    assert [p[:3] for p in found(wrong)] == [("check/unknown_name", 2, 12), ("check/out_of_range", 3, 12),
                                             ("check/wrong_type", 4, 13)]
    assert [p[:3] for p in found(VERDICT + 'game g "G" {\n    turn nothing\n}\n')] == [("check/unknown_name", 7, 10)]


def test_a_script_opens_a_declared_window_binding_its_names() -> None:
    command = ('command c "C" {\n    group fame\n    cost 0 AP\n    effect {\n        let deceiver = %s\n'
               '        open_window %s into stopped\n        mark self "stopped" with stopped\n    }\n}\n')
    assert found(command % ("self", "deception")) == []
    assert [p[:3] for p in found(command % ("self", "decepton"))] == [("check/unknown_name", 6, 21)]
    assert [p[:3] for p in found(command % ("3", "deception"))] == [("check/wrong_type", 6, 9)]
