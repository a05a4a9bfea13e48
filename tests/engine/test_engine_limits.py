"""Numbers of the engine's own: a mark's nesting is bounded by `Limits.max_mark_depth`, and a
setup's hold is judged on the bout's own board."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Grid, Square
from nexus_dsl.engine.interpreter import Limits
from nexus_dsl.engine.setup import PieceSetup, SetupError, holder_of
from nexus_dsl.model.words import Hold
from test_runtime_faults import command, face_to_face, write_pack

NESTED = command('mark self "doll" with [[[1]]]\n<<mark self "doll" with [mark_value(self, "doll")]')


@pytest.mark.parametrize(("depth", "faults"), [(2, True), (3, False)])
def test_a_mark_nests_no_deeper_than_the_limit_the_bout_is_given(tmp_path: Path, depth: int, faults: bool) -> None:
    path, (line, _) = write_pack(tmp_path, NESTED)
    bout = Bout(load_ruleset(["base", str(path.parent)]), face_to_face(), seed=4, limits=Limits(max_mark_depth=depth))
    bout.apply(Action.make("command", "red", "probe"))
    if not faults:
        assert bout.fault is None
        return
    assert bout.fault is not None and bout.fault.code == "runtime/budget_exceeded" and bout.fault.line == line
    assert f"nested at most {depth} deep" in bout.fault.message


def test_the_default_mark_depth_takes_every_list_a_script_can_write() -> None:
    from nexus_dsl.limits import INPUT_LIMITS

    assert Limits().max_mark_depth == INPUT_LIMITS.max_depth


def test_a_setup_hold_is_judged_on_the_bouts_own_board() -> None:
    holder = PieceSetup("red", "south", Square(4, 4), Direction.E, holding="blue")
    held = PieceSetup("blue", "north", Square(5, 4), Direction.W)
    assert holder_of(held, [holder, held], Grid(), Hold()) == "red"
    assert holder_of(holder, [holder, held], Grid(), Hold()) is None
    with pytest.raises(SetupError, match=r"\(off the board\)"):
        holder_of(holder, [holder, held], Grid(size=4), Hold())
