"""The game loop runs the procedure the `game` declaration names as its `round`: NEXUS's Command
Cycle is content (`command_cycle` in content/base/game/nexus_arena.nexus), so a house rule can
change the order of play or the whole round by overriding it by id."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import Bout, load_ruleset
from nexus_dsl.agents.base import make_agent
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.bout import play
from nexus_dsl.engine.setup import BoutSetup, PieceSetup, standard_setup


def house_rule(tmp_path: Path, text: str) -> str:
    return str(write_pack(tmp_path / "round", "round", {"round.nexus": text}, builds_on="[base]"))


def two_helots(max_cycles: int = 200) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 8), Direction.N),
                             PieceSetup("blue", "north", Square(5, 1), Direction.S)], max_cycles=max_cycles)


def test_the_base_game_names_its_command_cycle_as_the_round() -> None:
    assert load_ruleset(["base"]).game.round == "command_cycle"


def test_a_house_rule_plays_the_helots_in_seat_order_without_initiative(tmp_path: Path) -> None:
    pack = house_rule(tmp_path, 'procedure command_cycle "Seat Order" {\n    effect {\n'
                                '        signal cycle_starts\n        take_turns reverse(in_play())\n    }\n}\n')
    ruleset = load_ruleset(["base", pack])
    agents = {label: make_agent("heuristic", seed=7) for label in ("red", "blue")}
    bout = play(ruleset, standard_setup(2), agents, seed=7)
    events = bout.events_json()
    assert not [e for e in events if e["type"] == "initiative"]
    assert not [d for e in events for d in e.get("dice", ()) if d["purpose"] in ("trait_die", "ratio_die")]
    rounds = [(e["cycle"], e["helot"]) for e in events if e["type"] == "round_start"]
    assert rounds[:4] == [(1, "blue"), (1, "red"), (2, "blue"), (2, "red")]
    assert bout.state.ended and bout.fault is None


def test_a_game_without_a_round_plays_nothing_until_its_round_limit(tmp_path: Path) -> None:
    pack = house_rule(tmp_path, 'game nexus_arena "Nothing Happens" {\n    score cred\n    verdict most_cred\n}\n')
    bout = Bout(load_ruleset(["base", pack]), two_helots(max_cycles=3), seed=1)
    assert bout.state.ended and bout.state.cycle == 3 and bout.pending is None
    assert bout.state.outcome is not None and (bout.state.outcome.termination, bout.state.outcome.winner) == ("cycle_limit", None)
    assert [e["type"] for e in bout.events_json()] == ["bout_end"]


def test_only_the_game_s_round_runs_turns(tmp_path: Path) -> None:
    pack = house_rule(tmp_path, 'procedure command_cycle "Turns in Turns" {\n    effect {\n'
                                '        take_turns in_play()\n    }\n}\n'
                                'rule nested "Nested" {\n    when round_starts {\n        take_turns in_play()\n    }\n}\n')
    bout = Bout(load_ruleset(["base", pack]), two_helots(), seed=1)
    assert bout.fault is not None and bout.fault.code == "runtime/not_allowed"
    assert "a turn under way cannot start others" in bout.fault.message and bout.fault.line == 8


def test_take_turns_takes_pieces(tmp_path: Path) -> None:
    pack = house_rule(tmp_path, 'procedure command_cycle "Numbers" {\n    effect {\n        let numbers = [1, 2]\n'
                                '        take_turns numbers\n    }\n}\n')
    bout = Bout(load_ruleset(["base", pack]), two_helots(), seed=1)
    assert bout.fault is not None and (bout.fault.code, bout.fault.line) == ("runtime/wrong_type", 4)


def test_the_game_s_setup_runs_once_before_the_first_round(tmp_path: Path) -> None:
    # No influence deal: the bout starts at once, with empty hands and no decision to keep a card.
    pack = house_rule(tmp_path, 'procedure setting_up "No Deal" {\n    effect {\n        signal bout_starts\n'
                                '        log "no deal"\n    }\n}\n')
    setup = standard_setup(2, profiles=["madame_oorl", "vask_the_unbought"])
    dealt = Bout(load_ruleset(["base"]), setup, seed=3)
    assert dealt.pending is not None and dealt.pending.kind == "keep_influence"
    bout = Bout(load_ruleset(["base", pack]), setup, seed=3)
    assert bout.pending is not None and bout.pending.kind in ("deception", "allocate") and bout.state.cycle == 1
    assert all(not h.hand for h in bout.state.pieces.values())
    notes = [e for e in bout.events_json() if e["type"] == "note"]
    assert [(n["cycle"], n["text"]) for n in notes] == [(0, "no deal")]


ONE_COMMAND_ROUNDS = '''turn command_round "Snap Rounds" {
    text "House rule: a Command Round is a single command, which the helot must give if it can."
    starts round_starts
    ends round_ends
    over round_over
    length 1
    passing false
    effect {
        allocate_points self
    }
}
'''


def test_a_turn_of_one_action_the_player_may_not_pass(tmp_path: Path) -> None:
    ruleset = load_ruleset(["base", house_rule(tmp_path, ONE_COMMAND_ROUNDS)])
    assert (ruleset.turn.length, ruleset.turn.passing, ruleset.turn.starts) == (1, False, "round_starts")
    agents = {label: make_agent("heuristic", seed=5) for label in ("red", "blue")}
    bout = play(ruleset, standard_setup(2), agents, seed=5)
    assert bout.state.ended and bout.fault is None
    commands_per_round: list[int] = []
    for event in bout.events_json():
        if event["type"] == "round_start":
            commands_per_round.append(0)
        elif event["type"] == "command":
            commands_per_round[-1] += 1
    assert commands_per_round and set(commands_per_round) == {1}


def test_a_turn_without_a_declaration_raises_no_event_and_opens_with_nothing(tmp_path: Path) -> None:
    pack = house_rule(tmp_path, 'game nexus_arena "Plain Turns" {\n    setup setting_up\n    round command_cycle\n'
                                '    score cred\n    verdict most_cred\n}\n')
    bout = Bout(load_ruleset(["base", pack]), standard_setup(2, profiles=[None, None]), seed=2)
    assert bout.pending is not None and bout.pending.kind == "command"  # no allocation: straight to commands
    helot = bout.state.pieces[bout.pending.actor]
    assert (helot.ap, helot.mp) == (0, 0) and not [o for o in bout.pending.options if o.kind == "command"]


def test_a_turn_offers_only_the_kinds_of_action_its_acts_lists(tmp_path: Path) -> None:
    """`acts command`: the Command Round offers commands (and ending it), no Command token, no
    ability and no card, though the helot has tokens and a card usable at any time (a tonic)."""
    def kinds(packs: list[str]) -> set[str]:
        setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6,
                                             stats={"command_tokens": 2}, hand=["meat_garden_tonic"]),
                                  PieceSetup("blue", "north", Square(4, 2), Direction.S)],
                          phase="command", active="red")
        bout = Bout(load_ruleset(packs), setup, seed=1)
        assert bout.pending is not None and bout.pending.kind == "command"
        return {o.kind for o in bout.pending.options}

    assert {"command", "control", "card", "end_round"} <= kinds(["base"])
    only_commands = ONE_COMMAND_ROUNDS.replace("    length 1\n    passing false\n", "    acts command\n")
    assert kinds(["base", house_rule(tmp_path, only_commands)]) == {"command", "end_round"}
