"""Board geometry: directions, relative directions, arcs, distances, cones and lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nexus_dsl.engine.board import (
    Direction,
    Grid,
    RelDir,
    Rotation,
    Square,
    parse_direction,
    parse_rel_dir,
    parse_square,
    relative_of,
    rotate,
)

GRID = Grid()
D = Direction
S = Square


# -- directions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "direction, delta",
    [
        (D.N, (0, -1)),
        (D.NE, (1, -1)),
        (D.E, (1, 0)),
        (D.SE, (1, 1)),
        (D.S, (0, 1)),
        (D.SW, (-1, 1)),
        (D.W, (-1, 0)),
        (D.NW, (-1, -1)),
    ],
)
def test_direction_deltas(direction: Direction, delta: tuple[int, int]) -> None:
    assert direction.delta == delta
    assert Direction.from_delta(*delta) is direction
    assert direction.is_diagonal == (delta[0] != 0 and delta[1] != 0)


def test_direction_order_and_compass_faces() -> None:
    assert [d.name for d in Direction] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert [Direction.from_compass_face(f) for f in range(1, 9)] == list(Direction)
    assert all(d.compass_face == i + 1 for i, d in enumerate(Direction))
    for bad in (0, 9, -1):
        with pytest.raises(ValueError):
            Direction.from_compass_face(bad)


def test_rotation_by_eighths() -> None:
    assert D.N.rotated(1) is D.NE
    assert D.N.rotated(2) is D.E
    assert D.N.rotated(-2) is D.W
    assert D.NW.rotated(1) is D.N
    assert D.SE.rotated(4) is D.NW
    assert D.E.rotated(16) is D.E
    for d in Direction:
        assert d.rotated(8) is d
        assert d.opposite.opposite is d
        assert d.opposite.delta == (-d.delta[0], -d.delta[1])


def test_rotate_left_and_right_is_ninety_degrees() -> None:
    assert rotate(D.N, "right") is D.E
    assert rotate(D.N, "left") is D.W
    assert rotate(D.NE, Rotation.right) is D.SE
    assert Rotation.rotate(D.S, "left") is D.E
    assert Rotation.left.apply(D.W) is D.S
    with pytest.raises(ValueError, match="left.*right"):
        rotate(D.N, "up")


# -- relative directions ------------------------------------------------------------------------


def test_relative_directions_facing_north() -> None:
    expected = {
        RelDir.forward: D.N,
        RelDir.forward_right: D.NE,
        RelDir.right: D.E,
        RelDir.backward_right: D.SE,
        RelDir.backward: D.S,
        RelDir.backward_left: D.SW,
        RelDir.left: D.W,
        RelDir.forward_left: D.NW,
    }
    assert {rel: rel.absolute(D.N) for rel in RelDir} == expected


def test_relative_directions_facing_south_are_mirrored() -> None:
    assert RelDir.forward.absolute(D.S) is D.S
    assert RelDir.left.absolute(D.S) is D.E
    assert RelDir.right.absolute(D.S) is D.W
    assert RelDir.forward_left.absolute(D.S) is D.SE
    assert RelDir.backward_right.absolute(D.S) is D.NW


@pytest.mark.parametrize("facing", list(Direction))
def test_relative_and_absolute_are_inverse_for_every_facing(facing: Direction) -> None:
    absolutes = [rel.absolute(facing) for rel in RelDir]
    assert sorted(absolutes, key=lambda d: d.value) == list(Direction)  # a bijection
    for rel in RelDir:
        assert relative_of(facing, rel.absolute(facing)) is rel
    for absolute in Direction:
        assert relative_of(facing, absolute).absolute(facing) is absolute
    assert relative_of(facing, facing) is RelDir.forward
    assert relative_of(facing, facing.opposite) is RelDir.backward


# -- the grid -----------------------------------------------------------------------------------


def test_squares_are_row_major_from_north_west() -> None:
    squares = list(GRID.squares())
    assert len(squares) == 64
    assert squares[:3] == [S(1, 1), S(2, 1), S(3, 1)]
    assert squares[8] == S(1, 2)
    assert squares[-1] == S(8, 8)
    assert list(Grid(3).squares())[-1] == S(3, 3)


def test_grid_size_is_a_parameter() -> None:
    big = Grid(10)
    assert big.contains(S(10, 10))
    assert not GRID.contains(S(10, 10))
    assert big.step(S(8, 8), D.SE) == S(9, 9)
    assert GRID.step(S(8, 8), D.SE) is None
    with pytest.raises(ValueError):
        Grid(0)


def test_step_and_the_wall() -> None:
    assert GRID.step(S(4, 4), D.N) == S(4, 3)
    assert GRID.step(S(4, 4), D.SW, 3) == S(1, 7)
    assert GRID.step(S(4, 4), D.SW, 4) is None
    assert GRID.step(S(1, 1), D.N) is None
    assert GRID.step(S(1, 1), D.W) is None
    assert GRID.step(S(8, 5), D.E) is None
    assert GRID.hits_wall(S(1, 1), D.NW)
    assert GRID.hits_wall(S(4, 8), D.SE)
    assert not GRID.hits_wall(S(4, 4), D.SE)


def test_neighbours() -> None:
    assert len(GRID.neighbours(S(4, 4))) == 8
    assert GRID.neighbours(S(1, 1)) == [S(2, 1), S(2, 2), S(1, 2)]  # E, SE, S
    assert len(GRID.neighbours(S(1, 4))) == 5


def test_front_arc_in_the_open() -> None:
    assert GRID.front_arc(S(4, 5), D.N) == [S(3, 4), S(4, 4), S(5, 4)]
    assert GRID.front_arc(S(4, 5), D.S) == [S(5, 6), S(4, 6), S(3, 6)]
    assert GRID.front_arc(S(4, 5), D.NE) == [S(4, 4), S(5, 4), S(5, 5)]


def test_front_arc_at_edges_and_corners_loses_squares() -> None:
    assert GRID.front_arc(S(1, 5), D.N) == [S(1, 4), S(2, 4)]
    assert GRID.front_arc(S(1, 1), D.NE) == [S(2, 1)]  # forward_right is E
    assert GRID.front_arc(S(1, 1), D.N) == []
    assert GRID.front_arc(S(8, 8), D.SE) == []


def test_front_center_and_behind() -> None:
    assert GRID.front_center(S(4, 5), D.N) == S(4, 4)
    assert GRID.behind(S(4, 5), D.N) == S(4, 6)
    assert GRID.behind(S(4, 5), D.NE) == S(3, 6)
    assert GRID.front_center(S(4, 1), D.N) is None
    assert GRID.behind(S(4, 8), D.N) is None


def test_chebyshev_and_area() -> None:
    assert Grid.chebyshev(S(1, 1), S(4, 3)) == 3
    assert Grid.chebyshev(S(4, 4), S(4, 4)) == 0
    assert len(GRID.area(S(4, 4))) == 9
    assert GRID.area(S(1, 1)) == [S(1, 1), S(2, 1), S(1, 2), S(2, 2)]
    assert len(GRID.area(S(4, 4), 2)) == 25
    assert GRID.area(S(4, 4), 0) == [S(4, 4)]


def test_forward_distance_orthogonal_ignores_left_and_right() -> None:
    a = S(4, 8)
    assert Grid.forward_distance(a, D.N, S(4, 5)) == 3
    assert Grid.forward_distance(a, D.N, S(7, 5)) == 3
    assert Grid.forward_distance(a, D.N, S(1, 6)) == 2
    assert Grid.forward_distance(a, D.N, S(8, 8)) == 0
    assert Grid.forward_distance(S(2, 2), D.E, S(6, 5)) == 4
    assert Grid.forward_distance(S(4, 4), D.S, S(4, 2)) == -2  # behind


def test_forward_distance_diagonal_is_the_larger_axis() -> None:
    a = S(2, 7)
    assert Grid.forward_distance(a, D.NE, S(5, 4)) == 3  # straight down the diagonal
    assert Grid.forward_distance(a, D.NE, S(4, 4)) == 3
    assert Grid.forward_distance(a, D.NE, S(6, 7)) == 4  # due east, edge of the cone
    assert Grid.forward_distance(a, D.NE, S(1, 8)) == -1


def test_line_of_sight_cone_includes_45_degrees_excludes_90() -> None:
    a = S(4, 5)
    assert Grid.in_line_of_sight_cone(a, D.N, S(4, 1))
    assert Grid.in_line_of_sight_cone(a, D.N, S(2, 3))  # 45 degrees left
    assert Grid.in_line_of_sight_cone(a, D.N, S(7, 2))  # 45 degrees right
    assert Grid.in_line_of_sight_cone(a, D.N, S(5, 3))
    assert not Grid.in_line_of_sight_cone(a, D.N, S(6, 4))  # just outside 45 degrees
    assert not Grid.in_line_of_sight_cone(a, D.N, S(8, 5))  # 90 degrees right
    assert not Grid.in_line_of_sight_cone(a, D.N, S(1, 5))  # 90 degrees left
    assert not Grid.in_line_of_sight_cone(a, D.N, S(4, 7))  # behind
    assert not Grid.in_line_of_sight_cone(a, D.N, a)


def test_line_of_sight_cone_for_a_diagonal_facing_is_a_quadrant() -> None:
    a = S(4, 5)
    assert Grid.in_line_of_sight_cone(a, D.NE, S(6, 3))  # along the facing
    assert Grid.in_line_of_sight_cone(a, D.NE, S(4, 1))  # due N: 45 degrees left
    assert Grid.in_line_of_sight_cone(a, D.NE, S(8, 5))  # due E: 45 degrees right
    assert Grid.in_line_of_sight_cone(a, D.NE, S(7, 4))
    assert not Grid.in_line_of_sight_cone(a, D.NE, S(3, 1))  # just west of north
    assert not Grid.in_line_of_sight_cone(a, D.NE, S(8, 6))  # just south of east
    assert not Grid.in_line_of_sight_cone(a, D.NE, S(2, 3))  # NW: 90 degrees left


def test_line_squares_straight_and_diagonal() -> None:
    assert Grid.line_squares(S(1, 1), S(1, 5)) == [S(1, 2), S(1, 3), S(1, 4)]
    assert Grid.line_squares(S(1, 1), S(4, 4)) == [S(2, 2), S(3, 3)]  # corners don't count
    assert Grid.line_squares(S(3, 3), S(4, 4)) == []
    assert Grid.line_squares(S(3, 3), S(4, 3)) == []
    assert Grid.line_squares(S(3, 3), S(3, 3)) == []


def test_line_squares_off_axis() -> None:
    # Centre line from (1,1) to (3,2) passes through the edge midpoint between [2,1] and [2,2].
    assert Grid.line_squares(S(1, 1), S(3, 2)) == [S(2, 1), S(2, 2)]
    assert Grid.line_squares(S(1, 1), S(5, 2)) == [S(2, 1), S(3, 1), S(3, 2), S(4, 2)]
    assert Grid.line_squares(S(1, 1), S(4, 2)) == [S(2, 1), S(3, 2)]


@given(
    st.builds(S, st.integers(1, 8), st.integers(1, 8)),
    st.builds(S, st.integers(1, 8), st.integers(1, 8)),
)
def test_line_squares_is_symmetric_and_stays_between(a: Square, b: Square) -> None:
    forward = Grid.line_squares(a, b)
    assert Grid.line_squares(b, a) == list(reversed(forward))
    assert a not in forward and b not in forward
    assert len(set(forward)) == len(forward)
    assert all(GRID.contains(sq) for sq in forward)
    # Consecutive squares along the line (with both ends) always adjoin.
    path = [a, *forward, b] if a != b else [a]
    assert all(Grid.chebyshev(p, q) == 1 for p, q in zip(path, path[1:]))


def test_between_and_against_the_wall() -> None:
    # Attacker south of the defender: the square beyond is north of the defender.
    assert GRID.is_between(S(4, 3), S(4, 4), S(4, 5))
    assert not GRID.is_between(S(4, 5), S(4, 4), S(4, 5))
    assert not GRID.is_between(S(3, 3), S(4, 4), S(4, 5))
    # Diagonal adjacency.
    assert GRID.is_between(S(2, 2), S(3, 3), S(4, 4))
    assert GRID.beyond(S(4, 4), S(3, 3)) == S(2, 2)
    # Against the edge of the board.
    assert GRID.against_wall(S(4, 1), S(4, 2))
    assert GRID.against_wall(S(1, 1), S(2, 2))
    assert not GRID.against_wall(S(4, 4), S(4, 5))
    assert GRID.beyond(S(4, 2), S(4, 1)) is None
    # Not on a common line: nothing is "directly" behind.
    assert GRID.beyond(S(1, 1), S(3, 2)) is None
    assert not GRID.against_wall(S(8, 2), S(6, 1))


def test_direction_towards() -> None:
    assert Grid.direction_towards(S(4, 4), S(4, 1)) is D.N
    assert Grid.direction_towards(S(4, 4), S(6, 6)) is D.SE
    assert Grid.direction_towards(S(4, 4), S(6, 5)) is None
    assert Grid.direction_towards(S(4, 4), S(4, 4)) is None


# -- parsing ------------------------------------------------------------------------------------


def test_parse_square_accepts_lists_tuples_and_strings() -> None:
    assert parse_square([4, 3]) == S(4, 3)
    assert parse_square((1, 8)) == S(1, 8)
    assert parse_square("4,3") == S(4, 3)
    assert parse_square(S(2, 2)) == S(2, 2)
    assert GRID.parse_square([8, 8]) == S(8, 8)
    assert Grid(10).parse_square([10, 9]) == S(10, 9)


def test_parse_square_off_board_error_is_friendly() -> None:
    with pytest.raises(ValueError) as error:
        parse_square([9, 2])
    assert str(error.value) == "square [9, 2] is off the 8x8 board: col and row are 1..8"
    with pytest.raises(ValueError, match=r"\[0, 1\] is off the 8x8 board"):
        parse_square([0, 1])


@pytest.mark.parametrize("bad", [[1], [1, 2, 3], "a,b", None, 7, [1.5, 2], [True, 2], {"col": 1}])
def test_parse_square_malformed(bad: object) -> None:
    with pytest.raises(ValueError, match=r"\[col, row\]"):
        parse_square(bad)


def test_parse_direction() -> None:
    assert parse_direction("NE") is D.NE
    assert parse_direction(" sw ") is D.SW
    assert parse_direction(D.W) is D.W
    with pytest.raises(ValueError, match="N NE E SE S SW W NW"):
        parse_direction("NNE")
    with pytest.raises(ValueError):
        parse_direction(3)


def test_parse_rel_dir() -> None:
    assert parse_rel_dir("forward_left") is RelDir.forward_left
    with pytest.raises(ValueError, match="forward_left"):
        parse_rel_dir("ahead")


def test_square_forms() -> None:
    assert S(4, 3).as_list() == [4, 3]
    assert S(4, 3).key() == "4,3"
    assert str(S(4, 3)) == "[4, 3]"
    assert sorted([S(2, 1), S(1, 2)]) == [S(1, 2), S(2, 1)]
