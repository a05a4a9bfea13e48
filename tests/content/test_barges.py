"""The base box's eight barge schematics (rulebook pg.38) and the checks every barge passes: the
box's counts (pg.2-3), empty and reachable starting squares (pg.9), 2-3 hazard types (pg.3); the d8
pick of a schematic at random (pg.38)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import Bout, cached_ruleset, load_ruleset_collecting, make_agent, play, standard_setup
from nexus_dsl.content.barge_checks import barge_problems, located_barge_problems, starting_squares
from nexus_dsl.engine.setup import RANDOM_LAYOUT, pick_random_layout
from nexus_dsl.schema import load_yaml_with_positions

ROOT = Path(__file__).resolve().parents[2]
BASE = cached_ruleset(("base",))
BASE_BARGES = list(BASE.data["barges"])
ARENA_TEST = ROOT / "tests" / "scenarios" / "packs" / "arena_test"
# What the box holds (pg.2-3): the counts objects.yaml must carry as `limit`.
BOX = {"pillar": 4, "crate": 4, "brazier": 4, "floor_saw": 4, "floor_spikes": 4, "blood": 10, "guts": 10}


def objects_of(barge_id: str) -> list[tuple[str, tuple[int, int]]]:
    return [(o["type"], tuple(o["at"])) for o in BASE.data_item("barges", barge_id)["objects"]]


def test_the_box_holds_eight_schematics_each_its_own():
    assert len(BASE_BARGES) == 8
    layouts = {frozenset(objects_of(b)) for b in BASE_BARGES}
    assert len(layouts) == 8
    names = [BASE.data_item("barges", b)["name"] for b in BASE_BARGES]
    assert len(set(names)) == 8


def test_the_box_counts_are_data():
    for object_type, count in BOX.items():
        assert BASE.object_flags(object_type)["limit"] == count, object_type


@pytest.mark.parametrize("barge_id", BASE_BARGES)
def test_barge_is_within_the_box_and_leaves_the_starting_squares_free(barge_id):
    item = BASE.data["barges"][barge_id]
    assert barge_problems(item.data, BASE, file=item.origin.file, locate=item.positions.get) == []
    objects = objects_of(barge_id)
    for object_type, count in BOX.items():
        assert sum(1 for t, _ in objects if t == object_type) <= count
    assert BASE.object_flags("pillar")["limit"] >= sum(1 for t, _ in objects if t == "pillar") >= 2
    assert len({square for _, square in objects}) == len(objects)  # one object a square
    assert not set(starting_squares()) & {square for _, square in objects}
    assert 2 <= len(set(item.data["hazards"])) <= 3
    # A barge's crates and braziers are hazards it names, so they act in its activation order.
    placed = {t for t, _ in objects}
    for hazard_piece in ("crate", "brazier"):
        assert (hazard_piece in placed) == (hazard_piece in item.data["hazards"]), hazard_piece
    assert item.data["description"] and "\n" not in item.data["description"]


@pytest.mark.parametrize("barge_id", BASE_BARGES)
def test_barge_is_fair_for_opposite_seats(barge_id):
    """Turned half round, the barge is the same: north and south (and east and west) face alike."""
    objects = set(objects_of(barge_id))
    assert {(t, (9 - c, 9 - r)) for t, (c, r) in objects} == objects


@pytest.mark.parametrize("barge_id", BASE_BARGES)
def test_opposite_seats_can_close_in_along_the_long_diagonals(barge_id):
    blocking = {square for t, square in objects_of(barge_id) if BASE.object_flags(t).get("blocks")}
    diagonals = {(i, i) for i in range(1, 9)} | {(i, 9 - i) for i in range(1, 9)}
    assert not blocking & diagonals


@pytest.mark.parametrize("barge_id", BASE_BARGES)
def test_a_seeded_heuristic_bout_plays_to_the_end_on_the_barge(barge_id):
    setup = standard_setup(players=2, layout=barge_id, profiles=["grask_hollowmouth", "tibbet_kreen"])
    start = Bout(BASE, setup, seed=7, strict_ledger=True)
    on_board = sorted((t, (sq.col, sq.row)) for sq, types in start.state.objects.items() for t in types)
    assert on_board == sorted(objects_of(barge_id))
    assert start.state.meta["hazards"] == list(BASE.data_item("barges", barge_id)["hazards"])
    assert {h.seat: (h.square.col, h.square.row) for h in start.state.pieces.values()} == {"south": (1, 8), "north": (8, 1)}
    bout = play(BASE, standard_setup(players=2, layout=barge_id, profiles=["grask_hollowmouth", "tibbet_kreen"]),
                {"red": make_agent("heuristic", seed=1), "blue": make_agent("heuristic", seed=2)}, seed=7)
    outcome = bout.outcome
    assert bout.state.ended and outcome is not None and bout.pending is None
    assert outcome.termination is not None and bout.state.cycle >= 1
    assert set(outcome.totals) == {"red", "blue"}
    # pg.13: the richest lanista wins if they beat the crowd's pile; otherwise the bout is a draw.
    best = max(outcome.totals.values())
    leaders = [label for label, cred in outcome.totals.items() if cred == best]
    if outcome.winner is None:
        assert len(leaders) > 1 or best <= outcome.piles["crowd"]
    else:
        assert leaders == [outcome.winner] and best > outcome.piles["crowd"]
    assert bout.state.coins_in_play() == bout.state.drawn  # the coin ledger balances


# ---------------------------------------------------------------- the checks, one barge at a time
def barge(*objects: tuple[str, list[int]], hazards: tuple[str, ...] = ("crate", "floor_saw")) -> dict:
    return {"id": "drawn", "name": "Drawn", "description": "A barge on the drawing board.",
            "objects": [{"type": t, "at": at} for t, at in objects], "hazards": list(hazards)}


def codes(data: dict) -> list[str]:
    return [d.code for d in barge_problems(data, BASE)]


def test_more_pieces_than_the_box_holds():
    data = barge(*[("crate", [c, 4]) for c in range(2, 7)])
    problems = barge_problems(data, BASE)
    assert [d.code for d in problems] == ["content/barge_over_supply"]
    assert "places 5 `crate` but the box holds 4" in problems[0].message
    # Walls have no limit: an arena may have as much inner wall as it likes.
    assert codes(barge(*[("wall", [c, 4]) for c in range(2, 8)])) == []


def test_an_occupied_starting_square():
    problems = barge_problems(barge(("blood", [8, 8])), BASE)
    assert [d.code for d in problems] == ["content/barge_start_occupied"]
    assert "the east seat's starting square" in problems[0].message


def test_two_objects_on_one_square():
    assert codes(barge(("pillar", [4, 4]), ("blood", [4, 4]))) == ["content/barge_square_taken"]


def test_a_boxed_in_starting_square():
    # Crates can be broken, but a helot with no open square beside it cannot even take a step.
    data = barge(("crate", [2, 1]), ("crate", [1, 2]), ("crate", [2, 2]))
    problems = barge_problems(data, BASE)
    assert [d.code for d in problems] == ["content/barge_start_boxed_in"]
    assert "west seat's starting square [1, 1]" in problems[0].message


def test_a_starting_square_cut_off_by_indestructible_objects():
    data = barge(("pillar", [1, 3]), ("pillar", [2, 3]), ("wall", [3, 3]), ("wall", [3, 2]), ("wall", [3, 1]))
    problems = barge_problems(data, BASE)
    assert [d.code for d in problems] == ["content/barge_start_cut_off"]
    assert "west seat's starting square [1, 1]" in problems[0].message
    # The same line of crates is no prison: they can be broken open.
    assert codes(barge(("crate", [1, 3]), ("crate", [2, 3]), ("crate", [3, 3]), ("crate", [3, 2]),
                       ("wall", [3, 1]))) == []


def test_hazard_types_outside_two_to_three_are_a_warning_only():
    problems = barge_problems(barge(hazards=("brazier", "crate", "floor_saw", "floor_spikes")), BASE)
    assert [(d.code, d.severity) for d in problems] == [("content/barge_hazard_types", "warning")]
    assert codes(barge(hazards=("floor_saw",))) == ["content/barge_hazard_types"]


def test_every_problem_carries_the_squares_it_concerns_as_data():
    """What the editor marks on the board: each check gives its squares beside its diagnostic (never
    read back out of the message), and the diagnostics are those `barge_problems` gives."""
    cases = {
        "content/barge_over_supply": (barge(*[("crate", [c, 4]) for c in range(2, 7)]), ((6, 4),)),
        "content/barge_square_taken": (barge(("pillar", [4, 4]), ("blood", [4, 4])), ((4, 4),)),
        "content/barge_start_occupied": (barge(("blood", [8, 8])), ((8, 8),)),
        "content/barge_start_boxed_in": (barge(("crate", [2, 1]), ("crate", [1, 2]), ("crate", [2, 2])), ((1, 1),)),
        # The seat cut off, then the first seat's square it is cut off from.
        "content/barge_start_cut_off": (barge(("pillar", [1, 3]), ("pillar", [2, 3]), ("wall", [3, 3]),
                                              ("wall", [3, 2]), ("wall", [3, 1])), ((1, 1), (1, 8))),
        "content/barge_hazard_types": (barge(hazards=("floor_saw",)), ()),
    }
    for code, (data, squares) in cases.items():
        located = located_barge_problems(data, BASE)
        assert [(p.diagnostic.code, p.squares) for p in located] == [(code, squares)], code
        assert [p.diagnostic for p in located] == barge_problems(data, BASE)
    assert located[0].where() == "the barge" and not located[0].is_error


def test_problems_point_into_the_barge_yaml():
    text = ("id: drawn\nname: Drawn\ndescription: One pillar too far.\nobjects:\n"
            "  - {type: pillar, at: [8, 1]}\nhazards: [crate, floor_saw]\n")
    data, positions = load_yaml_with_positions(text, "drawn.yaml")
    [problem] = barge_problems(data, BASE, file="drawn.yaml", locate=positions.get)
    assert (problem.file, problem.line, problem.column) == ("drawn.yaml", 5, 20)
    assert "north seat's starting square" in problem.message


def test_a_pack_with_an_overfilled_barge_does_not_load(tmp_path):
    folder = tmp_path / "overfilled"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: overfilled\nname: Overfilled\nversion: 1.0.0\nbuilds_on: [base]\n")
    lines = "".join(f"    - {{type: guts, at: [{c}, {r}]}}\n" for r in (3, 4) for c in range(2, 8))
    (folder / "barges.yaml").write_text(
        "- id: gutted\n  name: Gutted\n  description: Twelve guts tiles from a box of ten.\n"
        f"  objects:\n{lines}  hazards: [floor_saw, floor_spikes]\n")
    ruleset, diagnostics = load_ruleset_collecting([folder])
    assert ruleset is None
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("content/barge_over_supply", 15, 20)]
    assert diagnostics[0].file.endswith("barges.yaml")


def test_the_test_barges_stay_within_the_box():
    ruleset, diagnostics = load_ruleset_collecting([ARENA_TEST])
    assert ruleset is not None and diagnostics == []


# ---------------------------------------------------------------- a schematic at random (pg.38)
def test_a_d8_picks_one_of_the_eight_in_pack_order():
    for face in range(1, 9):
        bout = Bout(BASE, standard_setup(layout=RANDOM_LAYOUT), seed=0, forced_dice={"d8": [face]})
        assert bout.state.meta["layout"] == BASE_BARGES[face - 1]
        assert bout.state.meta["hazards"] == list(BASE.data_item("barges", BASE_BARGES[face - 1])["hazards"])


def test_the_random_pick_follows_the_seed():
    picks = [Bout(BASE, standard_setup(layout=RANDOM_LAYOUT), seed=seed).state.meta["layout"] for seed in range(40)]
    assert picks == [Bout(BASE, standard_setup(layout=RANDOM_LAYOUT), seed=seed).state.meta["layout"] for seed in range(40)]
    assert set(picks) == set(BASE_BARGES)  # forty seeds reach every schematic


def test_fewer_barges_reroll_the_d8_and_more_roll_one_face_each():
    rolled: list[tuple[str, int]] = []

    def roll(values):
        def next_roll(purpose: str, sides: int) -> int:
            rolled.append((purpose, sides))
            return values.pop(0)
        return next_roll

    assert pick_random_layout(["a", "b", "c"], roll([7, 4, 2])) == "b"
    assert rolled == [("d8", 8)] * 3
    rolled.clear()
    many = [f"barge_{i}" for i in range(12)]
    assert BASE.game.layouts == "barges" and BASE.game.layout_word == "barge"
    assert pick_random_layout(many, roll([11]), BASE.game.layout_word) == "barge_10"
    assert rolled == [("barge", 12)]  # the base game's word for a layout is the die's purpose
    rolled.clear()
    assert pick_random_layout(many, roll([1])) == "barge_0"
    assert rolled == [("layout", 12)]  # a game naming none: the language's word
    with pytest.raises(ValueError):
        pick_random_layout([], roll([1]))


# ---------------------------------------------------------------- the drawn schematic
def test_cards_draw_each_barge_with_the_north_end_at_the_top():
    from nexus_dsl.cards import all_faces

    faces = {f.id: f for f in all_faces(BASE, "barge")}
    assert set(faces) == set(BASE_BARGES)
    figure = faces["brimstone_pit"].figure
    assert figure[0].strip() == "North" and figure[-2].strip() == "South"
    rows = {int(line.split()[0]): line.split()[1:] for line in figure[2:10]}
    assert rows[1][0] == "w" and rows[1][7] == "n" and rows[8][0] == "s" and rows[8][7] == "e"
    assert rows[3][3:5] == ["BR", "P"]  # [4, 3] a brazier, [5, 3] a pillar
    assert rows[4][0] == "%"  # [1, 4] guts
    assert figure[-1].startswith("Key: P Pillar, BR Brazier, % Guts Tile")
    assert "```" in faces["brimstone_pit"].markdown()
