"""The rule params the engine reads are typed in the vocabulary and refused where they are declared.

A house rule overriding `crowd_coin_pile` with `param crowd_coins_per_player = "many"` once passed
`nexus check` and crashed `Bout()` with a TypeError. Now the checker refuses every engine-read param
(`vocabulary.ENGINE_SETTINGS`) that does not hold a value of its kind written out, at the value's
line and column, so a Ruleset that loads holds only settings a bout can start from: for every value
of a grid of hostile ones, either the checker refuses it or a bout starts and plays with it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support import base_context

from nexus_dsl import Bout, ContentError, cached_ruleset, check_declarations, load_ruleset, parse, standard_setup
from nexus_dsl import vocabulary as V
from nexus_dsl.agents.random_agent import RandomAgent
from nexus_dsl.engine.bout import next_action
from nexus_dsl.model.values import constant_value
from nexus_dsl.validate_files import check_script_text

# Values of every shape a param can be written with (the loader evaluates each as a constant).
HOSTILE_VALUES = ("0", "1", "5", "999999999", "-1", "-0", '"many"', '""', "true", "none", "[]", "[head]",
                  "[INST]", "[head, chest]", "[INST, DEFT, CUNN]", "[head, INST]", "[1, 2]", "crowd", "SD",
                  "+SDS", "-2SDS", "[[head]]", "[[north, south], [east, west]]", "[[north], [north]]", "[[north, head]]",
                  "north", "one_action", "whole_round")
WELL_TYPED = {
    "count": ("0", "1", "5", "999999999", "-0"),
    "flag": ("true",),
    "locations": ("[]", "[head]", "[head, chest]"),
    "location_table": ("[head]", "[head, chest]"),
    "seat_groups": ("[]", "[[north, south], [east, west]]"),
    "turn_length": ("whole_round", "one_action"),
}


def rule_with(name: str, value: str) -> str:
    return f'rule house "House" {{\n    text "A house rule."\n    param {name} = {value}\n}}\n'


def problems(name: str, value: str) -> list[tuple[str, int, int, str]]:
    declarations = parse(rule_with(name, value), "house.nexus").declarations
    return [(d.code, d.line, d.column, d.message) for d in check_declarations(declarations, BASE)]


# The base game's words: its traits and locations fill the lists, and each rule param a body
# location's `start` names (`head_condition`...) is read by the engine as a count too.
BASE = base_context()
ENGINE_READ = sorted(set(V.ENGINE_SETTINGS) | set(BASE.setting_kinds))


def test_the_params_a_stat_or_a_pile_starts_at_are_engine_settings() -> None:
    assert BASE.setting_kinds == {**{f"{location}_condition": "count" for location in BASE.members["location"]},
                                  "crowd_coins_per_player": "count"}  # `pile crowd { start crowd_coins_per_player }`


@pytest.mark.parametrize("name", ENGINE_READ)
def test_each_engine_setting_accepts_exactly_the_values_of_its_kind(name: str) -> None:
    kind = BASE.setting_kind(name)
    assert kind is not None
    for value in HOSTILE_VALUES:
        found = problems(name, value)
        if value in WELL_TYPED[kind]:
            assert found == [], f"{name} = {value}"
        else:
            assert len(found) == 1, f"{name} = {value}: {found}"
            code, line, column, message = found[0]
            assert code in ("check/wrong_type", "check/out_of_range")
            assert (line, column) == (3, 14 + len(name))  # at the value
            assert message.startswith(f"the rule param `{name}` is read by the engine as {V.SETTING_KINDS[kind]}")


def test_a_negative_count_is_out_of_range_and_a_word_is_the_wrong_type() -> None:
    assert problems("trait_cap", "-1")[0][0] == "check/out_of_range"
    assert problems("random_location_table", "[]")[0][0] == "check/out_of_range"
    assert problems("trait_cap", '"many"')[0][0] == "check/wrong_type"


def test_a_param_of_the_same_name_outside_a_rule_is_no_setting() -> None:
    source = 'command c "C" {\n    cost 1 AP\n    param trait_cap = "plenty"\n}\n'
    assert check_declarations(parse(source, "c.nexus").declarations) == []


def test_nexus_check_refuses_the_house_rule_that_crashed_the_bout() -> None:
    source = rule_with("crowd_coins_per_player", '"many"').replace("house", "crowd_coin_pile", 1)
    # On top of the base game, whose crowd starts at the param (`pile crowd { start crowd_coins_per_player }`).
    (diagnostic,) = check_script_text(source, "rules.nexus", cached_ruleset(("base",)))
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("check/wrong_type", 3, 36)
    assert diagnostic.hint == "e.g. `param crowd_coins_per_player = 5`"


def test_a_pack_overriding_a_setting_with_the_wrong_kind_does_not_load(tmp_path: Path) -> None:
    pack = tmp_path / "many"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: many\nname: Many\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n")
    core = (Path(__file__).resolve().parents[2] / "content/base/rules/core.nexus").read_text()
    rule = core[core.index("rule crowd_coin_pile"):core.index("rule bout_setup")]
    (pack / "rules.nexus").write_text(rule.replace("param crowd_coins_per_player = 5",
                                                   'param crowd_coins_per_player = "many"'))
    with pytest.raises(ContentError) as raised:
        load_ruleset(["base", str(pack)])
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.code == "check/wrong_type" and Path(diagnostic.file).name == "rules.nexus"
    assert (diagnostic.line, diagnostic.column) == (4, 36)


@pytest.mark.parametrize("name", ENGINE_READ)
def test_every_value_the_checker_accepts_starts_and_plays_a_bout(name: str) -> None:
    """No value of any engine setting gives a traceback: the checker refuses it, or a bout starts
    with it and plays (a script fault would be a diagnostic, not a traceback)."""
    base = cached_ruleset(("base",))
    for value in HOSTILE_VALUES:
        if problems(name, value):
            continue
        expr = parse(rule_with(name, value), "house.nexus").declarations[0].clauses[-1].value
        ruleset = replace(base, settings={**base.settings, name: constant_value(expr)})
        bout = Bout(ruleset, standard_setup(), seed=3)
        agents = {label: RandomAgent(seed=i) for i, label in enumerate(bout.state.pieces)}
        for _ in range(40):
            if bout.pending is None:
                break
            bout.apply(next_action(bout, agents))
        assert bout.state.coins_in_play() == bout.state.drawn
