"""The list functions and the dice pool, in play: what ordered zones and success-counting games read.
(Their ranges are held by test_runtime_ranges.py, their documentation by test_language_doc.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

MANIFEST = "id: lists\nname: Lists\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n"


def marks_after(tmp_path: Path, body: str, forced: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """Red runs a free command whose effect is `body`; the marks it leaves on red, or the fault."""
    pack = tmp_path / "lists"
    pack.mkdir()
    (pack / "pack.yaml").write_text(MANIFEST)
    (pack / "probe.nexus").write_text(f'command probe "Probe" {{\n    group fame\n    cost 0 AP\n    effect {{\n'
                                      f'        {body}\n    }}\n}}\n')
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(4, 4), Direction.S)], phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1, forced_dice=forced)
    bout.apply(Action.make("command", "red", "probe"))
    if bout.fault is not None:
        return {"fault": bout.fault.code, "message": bout.fault.message}
    return dict(bout.state.pieces["red"].marks)


def test_reading_a_list_from_either_end(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'let xs = [3, 1, 2]\n        mark self "first" with first(xs)\n'
                                  '        mark self "last" with last(xs)\n        mark self "none" with first([])\n'
                                  '        mark self "take" with take(xs, 2)\n        mark self "drop" with drop(xs, 1)\n'
                                  '        mark self "all" with take(xs, 9)\n        mark self "back" with reverse(xs)')
    assert marks == {"first": 3, "last": 2, "none": None, "take": (3, 1), "drop": (1, 2), "all": (3, 1, 2),
                     "back": (2, 1, 3)}


def test_numbers_of_a_list(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'let xs = [3, 1, 2]\n        mark self "sum" with sum(xs)\n'
                                  '        mark self "hi" with highest(xs)\n        mark self "lo" with lowest(xs)\n'
                                  '        mark self "empty" with sum([])\n        mark self "nothing" with highest([])\n'
                                  '        mark self "at" with position(xs, 2)\n        mark self "absent" with position(xs, 7)')
    assert marks == {"sum": 6, "hi": 3, "lo": 1, "empty": 0, "nothing": None, "at": 3, "absent": 0}


def test_joining_a_list_into_text(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'mark self "text" with join([self, "strikes", 2], " ")')
    assert marks == {"text": "red strikes 2"}


def test_a_set_of_squares_reads_in_board_order(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'mark self "corner" with first(adjacent(self))\n'
                                  '        mark self "far" with last(adjacent(self))')
    assert marks == {"corner": Square(3, 4), "far": Square(5, 6)}


def test_the_objects_of_an_area_read_in_board_order(tmp_path: Path) -> None:
    """`objects_at` of a set of squares: the objects of each square in board order (west to east,
    north to south within a column), each square's in the order they were placed; none from beyond."""
    pack = tmp_path / "lists"
    pack.mkdir()
    (pack / "pack.yaml").write_text(MANIFEST)
    (pack / "probe.nexus").write_text('command probe "Probe" {\n    group fame\n    cost 0 AP\n    effect {\n'
                                      '        mark self "around" with objects_at(adjacent(self))\n'
                                      '        mark self "ahead" with objects_at(front_arc(self))\n    }\n}\n')
    objects = [("crate", Square(5, 6)), ("fire", Square(3, 4)), ("crate", Square(3, 4)), ("brazier", Square(4, 6)),
               ("crate", Square(3, 6)), ("crate", Square(1, 1))]
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(7, 2), Direction.N)], phase="command", active="red",
                      objects=objects)
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is None
    marks = bout.state.pieces["red"].marks
    assert marks["around"] == ("fire", "crate", "crate", "brazier", "crate")
    assert marks["ahead"] == ("fire", "crate")  # of its three squares, only the west one holds any


def test_a_list_of_other_things_is_refused_where_numbers_are_read(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'mark self "sum" with sum([1, self])')
    assert marks["fault"] == "runtime/wrong_type" and "reads a list of numbers, which holds piece red" in marks["message"]


def test_a_dice_pool_counts_the_dice_at_the_target_or_more(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'mark self "hits" with dice_pool(check, 5, 5)\n'
                                  '        mark self "none" with dice_pool(check, 0, 2)',
                        forced={"check": [6, 5, 1, 4, 2]})
    assert marks == {"hits": 2, "none": 0}


def test_a_dice_pool_larger_than_a_list_may_be_is_stopped(tmp_path: Path) -> None:
    marks = marks_after(tmp_path, 'let n = self.ap * 100\n        mark self "hits" with dice_pool(check, n, 4)')
    assert marks["fault"] == "runtime/budget_exceeded" and "a pool of 600 dice" in marks["message"]
