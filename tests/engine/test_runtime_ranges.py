"""One mechanism for number ranges: the interpreter holds every value worked out in play to the
ranges of the vocabulary (`Signature.ranges`), the very ranges the checker holds constants to.

For each ranged argument of each function and effect, a value worked out in play (`self.cred + N`,
so the checker cannot know it) at the low end is accepted; one below it stops the bout with
`runtime/bad_value`, the checker's own words and the position of the call or effect, unless the
range clamps (`NumberRange.clamp`: an amount moved "up to" a number), where it moves nothing, as
the checker accepts the same constant. `check(7)` and `roll_check ... by 7` once passed silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import Action, Bout, check_declarations, load_ruleset, parse
from nexus_dsl import vocabulary as V
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.limits import MAX_NUMBER
from nexus_dsl.model.ruleset import Ruleset

MANIFEST = "id: range_pack\nname: Ranges\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n"
SAMPLES = {
    "piece": "self", "purpose": "d8", "square": "self", "object_type": "pillar", "direction": "N",
    "location": "head", "resource": "AP", "pile": "crowd", "any": "self", "name": "bound",
    "list": "[1, 2]", "number": "1", "zone": "influence", "text": '"loaded_dice"',  # a card of the influence deck
}
RANGED = [(kind, name, key, number_range)
          for kind, table in (("function", V.FUNCTIONS), ("effect", V.PRIMITIVES))
          for name, signature in table.items() for key, number_range in signature.ranges.items()]
# (case id, kind, name, key, value): below the low end, at it, and above a high end other than the number limit.
CASES = [(f"{name}-{key}-{label}", kind, name, key, value)
         for kind, name, key, number_range in RANGED
         for label, value in (("below", number_range.low - 1), ("low", number_range.low))
         + ((("above", number_range.high + 1),) if number_range.high < MAX_NUMBER else ())]


def statement(kind: str, name: str, key: int | str, value: int) -> str:
    """`name` called with `given` (worked out in play: red's cred is 0) where `key` stands."""
    signature = (V.FUNCTIONS if kind == "function" else V.PRIMITIVES)[name]
    args = ["given" if position == key else SAMPLES[type_name] for position, type_name in enumerate(signature.positional)]
    given = f"let given = self.cred + {value}" if value >= 0 else f"let given = self.cred - {-value}"
    if kind == "function":
        return f"{given}\n        let v = {name}({', '.join(args)})"
    preps = [f"{prep} {'given' if prep == key else SAMPLES[type_name]}" for prep, type_name in signature.preps.items()
             if prep in signature.required_preps or prep == key]
    return f"{given}\n        " + " ".join([name] + args + preps)


def probe(case: str, body: str) -> str:
    return (f'command {case} "Probe" {{\n    group fame\n    text "A probe."\n    cost 0 AP\n'
            f'    effect {{\n        {body}\n    }}\n}}\n')


def command_id(case: str) -> str:
    return "probe_" + case.replace("-", "_")


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ruleset, Path]:
    pack = tmp_path_factory.mktemp("ranges") / "range_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(MANIFEST)
    script = "".join(probe(command_id(case), statement(kind, name, key, value)) for case, kind, name, key, value in CASES)
    (pack / "probes.nexus").write_text(script)
    return load_ruleset(["base", str(pack)]), pack / "probes.nexus"


def face_to_face() -> BoutSetup:
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                             PieceSetup("blue", "north", Square(4, 4), Direction.S)], phase="command", active="red")


def test_the_checker_cannot_know_the_probes_values(ruleset) -> None:
    """The probes load: each value is worked out in play, so only the engine can hold it to its range."""
    loaded, _ = ruleset
    assert all(loaded.declaration("command", command_id(case)) is not None for case, *_ in CASES)


@pytest.mark.parametrize(("case", "kind", "name", "key", "value"), CASES, ids=[c[0] for c in CASES])
def test_every_range_of_the_vocabulary_is_held_in_play(ruleset, case, kind, name, key, value) -> None:
    loaded, path = ruleset
    number_range = ((V.FUNCTIONS if kind == "function" else V.PRIMITIVES)[name]).ranges[key]
    bout = Bout(loaded, face_to_face(), seed=2)
    bout.apply(Action.make("command", "red", command_id(case)))
    fault = bout.fault
    if number_range.accepts(value):
        assert fault is None or fault.code != "runtime/bad_value", fault.format()
        return
    assert fault is not None and fault.code == "runtime/bad_value", f"{case}: {fault}"
    assert fault.message == f"in command `{command_id(case)}`: {number_range.refusal(value)}"
    declaration = loaded.declaration("command", command_id(case))
    assert (fault.file, fault.line) == (str(path), declaration.pos.line + 6)  # the statement or call
    constant = check_declarations(parse(probe("c", statement(kind, name, key, value).replace(
        f"self.cred + {value}" if value >= 0 else f"self.cred - {-value}", str(value))), "c.nexus").declarations)
    assert [d.message for d in constant if d.code == "check/out_of_range"] == [number_range.refusal(value)]


def test_the_ranges_that_clamp_are_the_amounts_moved_up_to_a_number() -> None:
    clamped = sorted(f"{name}.{key}" for _, name, key, number_range in RANGED if number_range.clamp)
    assert clamped == ["damage.by", "heal.by", "move_condition.by", "reduce_damage.by", "squares_toward.2",
                       "transfer.0"]


def run(tmp_path: Path, body: str, extra: str = "") -> Bout:
    pack = tmp_path / "range_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(MANIFEST)
    (pack / "probe.nexus").write_text(probe("probe", body) + extra)
    bout = Bout(load_ruleset(["base", str(pack)]), face_to_face(), seed=2, strict_ledger=True)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is None, bout.fault.format()
    return bout


def test_a_negative_amount_worked_out_in_play_moves_nothing(tmp_path: Path) -> None:
    bout = run(tmp_path, "let n = self.cred - 3\n        damage target by n\n        transfer n from crowd to self\n"
                         "        heal self by n from crowd\n        move_condition self by n to head".replace(
                             "target", "piece_on(front_center(self))"))
    red, blue = bout.state.pieces["red"], bout.state.pieces["blue"]
    assert (bout.state.players["red"].piles["cred"], red.overall, blue.overall) == (0, 50, 50)
    assert [e.type for e in bout.log if e.type in ("damage", "coins")] == []


def test_a_reduction_below_0_takes_nothing_off_a_hit(tmp_path: Path) -> None:
    rule = ('rule dampened "Dampened" {\n    text "x"\n    when damage_incoming {\n'
            '        reduce_damage by amount - amount - 3\n    }\n}\n')
    bout = run(tmp_path, "damage piece_on(front_center(self)) by 4 to crowd", rule)
    assert bout.state.pieces["blue"].overall == 46
