"""A hold is the engine's, its names the game's: one piece holds another, is carried round with it
and let go as the engine rules, and is read, snapshot and logged by the names its game's hold state
gives it (the base game's `grappling` and `grappler`), or, in a game that names none, as `holding`
and `held_by`, with no state."""

from __future__ import annotations

from pathlib import Path

from support import base_word_declarations, write_pack

from nexus_dsl import Action, Bout, check_declarations, load_ruleset, parse
from nexus_dsl.check.context import context_of
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

COMMANDS = '''command seize "Seize" {
    targets opponent
    cost 0 AP
    requires self.HOLDING == none and target.HELD_BY == none else "one hold each"
    effect {
        hold target by self
    }
}

command let_go "Let Go" {
    cost 0 AP
    requires self.HOLDING != none else "it holds no one"
    effect {
        release self.HOLDING
    }
}

command step_back "Step Back" {
    cost 0 AP
    effect {
        move self backward
    }
}

command turn_right "Turn Right" {
    cost 0 AP
    effect {
        rotate self right
    }
}
'''

CARRIED = 'state carried "Carried" {\n    holding carrying\n    held_by carrier\n}\n'


def face_to_face(**red: object) -> BoutSetup:
    """Red at [4,5] facing north, blue straight ahead at [4,4]: red's turn is under way."""
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6, **red),  # type: ignore[arg-type]
                             PieceSetup("blue", "north", Square(4, 4), Direction.S)], phase="command", active="red")


def bare_bout(tmp_path: Path, words: tuple[str, str] = ("holding", "held_by"), state: str = "") -> Bout:
    """A bout of a pack that builds on nothing, its commands reading a hold by `words`."""
    script = COMMANDS.replace("HOLDING", words[0]).replace("HELD_BY", words[1])
    pack = write_pack(tmp_path / "bare", "bare", {"holds.nexus": state + script})
    return Bout(load_ruleset([str(pack)]), face_to_face(), seed=1)


def command(bout: Bout, name: str, **args: str) -> None:
    bout.apply(Action.make("command", "red", name, **args))


def broken(bout: Bout) -> dict[str, object]:
    """The last broken hold the log holds, without its place in the log."""
    event = [e for e in bout.events_json() if e["type"] == "hold_broken"][-1]
    return {k: v for k, v in event.items() if k not in ("seq", "cycle", "round")}


def test_a_game_that_names_no_hold_holds_by_the_language_s_names_and_in_no_state(tmp_path: Path) -> None:
    bout = bare_bout(tmp_path)
    command(bout, "seize", target="blue")
    red, blue = bout.snapshot()["red"], bout.snapshot()["blue"]
    assert (red["holding"], red["held_by"], blue["holding"], blue["held_by"]) == ("blue", None, None, "red")
    assert blue["states"] == [] and "grappling" not in red
    command(bout, "step_back")  # the two apart: the hold breaks once the command has resolved
    assert broken(bout) == {"type": "hold_broken", "piece": "blue", "held_by": "red", "reason": "separated"}
    assert (bout.snapshot()["red"]["holding"], bout.snapshot()["blue"]["held_by"]) == (None, None)


def test_the_one_held_is_carried_round_when_its_holder_turns(tmp_path: Path) -> None:
    bout = bare_bout(tmp_path)
    command(bout, "seize", target="blue")
    command(bout, "turn_right")
    blue = bout.snapshot()["blue"]
    assert (blue["at"], blue["facing"], blue["held_by"]) == ([5, 5], "W", "red")


def test_a_game_s_hold_state_names_the_hold_for_scripts_the_snapshot_and_the_log(tmp_path: Path) -> None:
    bout = bare_bout(tmp_path, ("carrying", "carrier"), CARRIED)
    command(bout, "seize", target="blue")
    red, blue = bout.snapshot()["red"], bout.snapshot()["blue"]
    assert (red["carrying"], blue["carrier"], blue["states"]) == ("blue", "red", ["carried"])
    assert "holding" not in red and "held_by" not in blue
    command(bout, "let_go")
    assert bout.snapshot()["blue"]["states"] == [] and bout.snapshot()["blue"]["carrier"] is None
    command(bout, "seize", target="blue")
    command(bout, "step_back")
    assert broken(bout) == {"type": "hold_broken", "piece": "blue", "carrier": "red", "reason": "separated"}
    assert bout.snapshot()["blue"]["states"] == []


def test_the_base_game_s_broken_grapple_is_logged_with_its_grappler(tmp_path: Path) -> None:
    step_back = COMMANDS.split('command step_back')[1].split("\n}\n")[0]
    pack = write_pack(tmp_path / "probe", "probe", {"probe.nexus": f"command step_back{step_back}\n}}\n"},
                      builds_on="[base]")
    bout = Bout(load_ruleset(["base", str(pack)]), face_to_face(holding="blue"), seed=1)
    assert "grappled" in bout.snapshot()["blue"]["states"]
    command(bout, "step_back")
    assert broken(bout) == {"type": "hold_broken", "helot": "blue", "grappler": "red", "reason": "separated"}
    assert "grappled" not in bout.snapshot()["blue"]["states"]
    assert (bout.snapshot()["red"]["grappling"], bout.snapshot()["blue"]["grappler"]) == (None, None)


# ---------------------------------------------------------------- the checker
def problems(source: str, on_base: bool = True) -> list[tuple[str, str]]:
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*(base_word_declarations() if on_base else ()), *declarations])
    return [(d.code, d.message) for d in check_declarations(declarations, context)]


def test_scripts_read_a_hold_by_the_game_s_names_only() -> None:
    reads = 'rule r "R" {\n    when round_starts if self.ATTR != none {\n        log "held"\n    }\n}\n'
    assert problems(reads.replace("ATTR", "grappling")) == []
    assert problems(reads.replace("ATTR", "grappler")) == []
    (refused,) = problems(reads.replace("ATTR", "holding"))
    assert refused == ("check/unknown_name", "a helot has no attribute `holding`")
    event = 'event round_starts "R" {\n    arg self: piece\n}\n'
    assert problems(event + reads.replace("ATTR", "holding"), on_base=False) == []
    assert problems(event + reads.replace("ATTR", "held_by"), on_base=False) == []
    assert [code for code, _ in problems(event + reads.replace("ATTR", "grappling"), on_base=False)] == \
        ["check/unknown_name"]


def test_a_game_has_one_hold_and_its_names_are_no_one_else_s() -> None:
    (second,) = problems('state pinned "Pinned" {\n    holding pinning\n    held_by pinner\n}\n')
    assert second == ("check/duplicate_name", "state `grappled` already is the state of a piece held")
    (taken,) = problems('state held "Held" {\n    holding facing\n}\n', on_base=False)
    assert taken[0] == "check/duplicate_name" and "`facing`" in taken[1]
    (log_field,) = problems('state held "Held" {\n    held_by reason\n}\n', on_base=False)
    assert log_field[0] == "check/duplicate_name"
    (same,) = problems('state held "Held" {\n    holding keeper\n    held_by keeper\n}\n', on_base=False)
    assert same == ("check/duplicate_name", "`holding` and `held_by` are both `keeper`")
    (not_a_word,) = problems('state held "Held" {\n    holding "keeper"\n}\n', on_base=False)
    assert not_a_word[0] == "check/wrong_type"


def test_a_command_s_group_is_one_the_game_lists_or_any_word_without_a_list() -> None:
    hoist = 'command hoist "Hoist" {\n    group sailing\n    cost 1 AP\n}\n'
    (unlisted,) = problems(hoist)
    assert unlisted[0] == "check/unknown_name" and "`sailing`" in unlisted[1]
    assert problems(hoist.replace("sailing", "melee")) == []
    assert problems(hoist, on_base=False) == []
    assert problems('game sea "Sea" {\n    groups sailing, rowing\n}\n' + hoist, on_base=False) == []
