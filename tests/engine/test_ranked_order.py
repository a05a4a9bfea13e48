"""Initiative is content: the base game's `roll_initiative` (content/base/game/nexus_arena.nexus)
rolls by purpose, sets each helot's ratio and trait, ranks with `rank` and logs with `record`; a
house rule overrides it by id; and a game that builds on nothing ranks its own pieces by its own
names with the same words (`rank`, `set`, `append`, `option_with`, `sides_alternating`)."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

HOUSE_RULE = Path(__file__).resolve().parents[2] / "content" / "house-rules" / "might_first"

RACE = '''stat speed "Speed" {
    low 0
    high 9
}

event ordered "Order decided" {
    arg order: list
    arg speeds: any
}

event turn_starts "Turn starts" {
    arg self: piece
}

game race "The Race" {
    round rounds
    turn race_turn
}

turn race_turn "A Turn" {
    starts turn_starts
    length 1
    passing true
}

procedure rounds "A Round" {
    effect {
        let entries = []
        let speeds = option("speeds")
        for each runner in in_play() {
            set entries = append(entries, [runner, stat_value(runner, speed)])
            set speeds = option_with(speeds, runner.label, stat_value(runner, speed))
        }
        let order = rank(entries, tiebreak)
        if side_by_side {
            set order = sides_alternating(order)
        }
        set_order order
        record ordered
        take_turns order_of_play()
    }
}

rule race_rules "The Race's Rules" {
    param side_by_side = false
}
'''

SEATS = (("red", "south", Square(1, 8)), ("blue", "north", Square(2, 1)), ("green", "east", Square(8, 4)),
         ("yellow", "west", Square(1, 4)))


def runners(speeds: dict[str, int], sides: dict[str, str] | None = None) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup(label, seat, at, Direction.N, stats={"speed": speeds[label]},
                                        side=(sides or {}).get(label))
                             for label, seat, at in SEATS], max_cycles=1)


def race(tmp_path: Path, text: str = RACE) -> list[str]:
    return [str(write_pack(tmp_path / "race", "race", {"race.nexus": text}))]


def first_line(bout: Bout, kind: str) -> dict:
    return next(e for e in bout.events_json() if e["type"] == kind)


def test_rank_orders_by_the_keys_then_by_pairs_of_dice_among_those_tied(tmp_path: Path) -> None:
    # red and green tie on 2: red's pair 3+3 loses to green's 6+1; the order of the others is their speed.
    bout = Bout(load_ruleset(race(tmp_path)), runners({"red": 2, "blue": 5, "green": 2, "yellow": 1}),
                seed=1, forced_dice={"tiebreak": [3, 3, 6, 1]})
    line = first_line(bout, "ordered")
    assert line["order"] == ["blue", "green", "red", "yellow"]
    assert line["speeds"] == {"red": 2, "blue": 5, "green": 2, "yellow": 1}  # an option logs as its values
    assert [(d["purpose"], d["value"]) for d in line["dice"]] == [("tiebreak", 3), ("tiebreak", 3),
                                                                  ("tiebreak", 6), ("tiebreak", 1)]
    assert bout.state.order == ["blue", "green", "red", "yellow"]


def test_those_tied_again_roll_again_and_only_they(tmp_path: Path) -> None:
    # All four tie; red and yellow roll 7 each (blue 12, green 2), and roll again: yellow 8, red 4.
    bout = Bout(load_ruleset(race(tmp_path)), runners({"red": 3, "blue": 3, "green": 3, "yellow": 3}),
                seed=1, forced_dice={"tiebreak": [3, 4, 6, 6, 1, 1, 5, 2, 2, 2, 4, 4]})
    line = first_line(bout, "ordered")
    assert line["order"] == ["blue", "yellow", "red", "green"]
    assert len(line["dice"]) == 12


def test_sides_alternating_takes_the_sides_in_turn(tmp_path: Path) -> None:
    text = RACE.replace("param side_by_side = false", "param side_by_side = true")
    sides = {"red": "reds", "blue": "reds", "green": "greens", "yellow": "greens"}
    bout = Bout(load_ruleset(race(tmp_path, text)), runners({"red": 9, "blue": 8, "green": 2, "yellow": 1}, sides),
                seed=1)
    assert first_line(bout, "ordered")["order"] == ["red", "green", "blue", "yellow"]


def test_rank_refuses_entries_it_cannot_compare(tmp_path: Path) -> None:
    text = RACE.replace("[runner, stat_value(runner, speed)]", '[runner, "fast"]')
    bout = Bout(load_ruleset(race(tmp_path, text)), runners({"red": 1, "blue": 1, "green": 1, "yellow": 1}), seed=1)
    assert bout.fault is not None and bout.fault.code == "runtime/wrong_type"
    assert "`rank` compares numbers" in bout.fault.message


def two_helots(**traits: dict[str, int]) -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 8), Direction.N, traits=traits.get("red")),
                             PieceSetup("blue", "north", Square(5, 1), Direction.S, traits=traits.get("blue"))])


def test_the_base_game_s_initiative_ranks_by_the_trait_rolled_then_the_ratio_die() -> None:
    # red rolls face 1 (WILL, unranked) and ratio 6; blue face 2 (INST, ranked first) and ratio 1.
    bout = Bout(load_ruleset(["base"]), two_helots(), seed=1,
                forced_dice={"trait_die": [1, 2], "ratio_die": [6, 1]})
    line = first_line(bout, "initiative")
    assert line["order"] == ["blue", "red"]
    assert line["rolls"] == {"blue": {"trait": "INST", "ratio": 1}, "red": {"trait": "WILL", "ratio": 6}}
    assert [d["purpose"] for d in line["dice"]] == ["trait_die", "ratio_die", "trait_die", "ratio_die"]
    red, blue = bout.state.pieces["red"], bout.state.pieces["blue"]
    assert (red.ratio, blue.ratio) == (6, 1)
    assert red.traits["WILL"] == 1 and blue.traits["INST"] == 1  # raised by one, with no line of its own
    assert not [e for e in bout.events_json() if e["type"] == "trait"]


def test_a_house_rule_overrides_the_initiative_by_id() -> None:
    # Might Before Cunning: no trait die; blue's Physicality 3 beats red's 1, whatever the ratio dice.
    ruleset = load_ruleset(["base", str(HOUSE_RULE)])
    assert ruleset.declaration("procedure", "roll_initiative").name == "Might Before Cunning"
    bout = Bout(ruleset, two_helots(red={"PHYS": 1}, blue={"PHYS": 3}), seed=1, forced_dice={"ratio_die": [6, 1]})
    line = first_line(bout, "initiative")
    assert line["order"] == ["blue", "red"]
    assert line["rolls"] == {"blue": {"PHYS": 3, "ratio": 1}, "red": {"PHYS": 1, "ratio": 6}}
    assert [d["purpose"] for d in line["dice"]] == ["ratio_die", "ratio_die"]
    assert bout.state.pieces["red"].ratio == 6 and bout.state.pieces["blue"].traits["PHYS"] == 3
    assert bout.pending is not None and bout.pending.actor == "blue"
