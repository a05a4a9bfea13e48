"""Parsed rule scripts, in canonical form, against the per-kind schemas."""

from __future__ import annotations

import copy

import pytest
from support import base_context

from nexus_dsl.check.checker import check_declarations

from nexus_dsl.schema import schema_name_for_kind, validate, validate_declaration
from nexus_dsl.syntax.canonical import to_canonical
from nexus_dsl.syntax.parser import parse

STANDARD_ATTACK = """command standard_attack "Standard Attack" {
    group melee
    cost 2 AP
    roll attack SD vs defense
    on success {
        damage target by margin at chest
    }
}
"""

VALID_SCRIPTS = {
    "command": STANDARD_ATTACK,
    "command_full": """command focused_attack "Focused Attack" {
    group melee
    tags attack, focused
    arg location: location
    arg direction: {forward, forward_left, forward_right}
    arg standard_attacks: count 1..3
    param bonus = 2
    cost 3 AP, 1 MP
    requires in_front(target) and not (self is prone) else "the target must be in front"
    roll attack -SDS vs defense
    on success {
        let dealt = margin + bonus * 2 - 1
        if dealt > 4 {
            damage target by dealt at location
        } elif dealt in [1, 2, 3] {
            damage target by 1 at location
        } else {
            pass_turn
        }
        for each helot in opponents(of: self) {
            gain_cred self by 1
        }
        repeat 2 {
            announce "Crowd roars"
        }
    }
    on failure {
        lose_cred self by -1
    }
}
""",
    "trait_ability": """trait_ability haymaker "Haymaker" {
    cost 5 PHYS
    window after_attack_succeeds by self
    effect {
        add_damage 4
    }
}
""",
    "hazard": """hazard floor_spikes "Floor Spikes" {
    param damage = 3
    when turn_ends if self.square is spiked {
        damage occupant by damage at random_location(exclude: head)
    }
    effect {
        place floor_spikes at [3, 4]
    }
}
""",
    "drawn_card": """drawn_card crowd_favor "Crowd Favor" {
    cost 1 CRED
    effect {
        gain_cred self by 2
    }
    when round_starts {
        shuffle deck
    }
}
""",
    "hand_card": """hand_card bribe_the_ref "Bribe the Ref" {
    arg target: helot
    window before_attack_roll by any
    roll check 4+
    on success {
        shift_sds target by +2SDS
    }
    when bout_ends {
        discard self
    }
}
""",
    "weapon": """weapon spear "Spear" {
    reach 2
    param durability = 3
    when weapon_drawn {
        set_state self armed
    }
    requires self is not grappled
}
""",
    "rule": """rule bleeding "Bleeding" {
    param loss = 1
    when turn_ends if self is bleeding {
        damage self overall by loss
    }
}
""",
}


def canonical(source: str) -> dict:
    (decl,) = parse(source, "test.nexus").declarations
    return to_canonical(decl)


@pytest.mark.parametrize("name", sorted(VALID_SCRIPTS))
def test_valid_scripts_validate_clean(name):
    data = canonical(VALID_SCRIPTS[name])
    assert validate(data, schema_name_for_kind(data["kind"]), file="test.nexus") == []
    assert validate(data, "script", file="test.nexus") == []


def test_command_cost_out_of_range():
    data = canonical(STANDARD_ATTACK.replace("cost 2 AP", "cost 40 AP"))
    diags = validate(data, "command", file="attack.nexus")
    assert len(diags) == 1
    (diag,) = diags
    assert diag.code == "schema/out_of_range"
    assert diag.file == "attack.nexus"
    assert diag.message == "clauses[1].items[0].amount: 40 is greater than the maximum of 12"
    assert (diag.line, diag.column) == (0, 0)


def test_cost_range_applies_only_to_literal_integers():
    data = canonical(STANDARD_ATTACK.replace("cost 2 AP", "cost base_cost + 40 AP"))
    assert validate(data, "command", file="x") == []
    data = canonical(STANDARD_ATTACK.replace("cost 2 AP", "cost 12 AP, 0 MP"))
    assert validate(data, "command", file="x") == []
    data = canonical(STANDARD_ATTACK.replace("cost 2 AP", "cost 13 AP"))
    assert [d.code for d in validate(data, "command", file="x")] == ["schema/out_of_range"]


def test_out_of_range_is_located_with_declaration_positions():
    source = STANDARD_ATTACK.replace("cost 2 AP", "cost 40 AP")
    (decl,) = parse(source, "attack.nexus").declarations
    (diag,) = validate_declaration(decl)
    assert diag.code == "schema/out_of_range"
    assert diag.file == "attack.nexus"
    assert (diag.line, diag.column) == (3, 10)  # the `40`


def test_command_without_cost_is_the_checkers_to_refuse():
    # A piece's command costs something; a player's in a game without pieces need not: the checker,
    # which knows the game, decides (tests/check/test_command_costs.py).
    data = canonical(STANDARD_ATTACK.replace("    cost 2 AP\n", ""))
    assert validate(data, "command", file="x") == []


def test_window_clause_not_allowed_in_command():
    source = STANDARD_ATTACK.replace("    cost 2 AP\n", "    cost 2 AP\n    window after_attack by self\n")
    (decl,) = parse(source, "attack.nexus").declarations
    diags = validate_declaration(decl)
    assert len(diags) == 1
    (diag,) = diags
    assert diag.code in ("schema/not_allowed", "schema/invalid")
    assert diag.message == "clauses[2]: a `window` clause is not allowed in a command"
    assert "property, arg, cost, requires, roll, on, effect, param" in diag.hint
    assert diag.line == 4


@pytest.mark.parametrize(
    "kind, clause",
    [
        ("weapon", "cost 1 AP"),
        ("rule", "effect {\n        pass_turn\n    }"),
        ("hazard", "window w by self"),
        ("hazard", "roll check 4+"),
        ("drawn_card", "arg x: helot"),
    ],
)
def test_clause_types_outside_their_kind_are_rejected(kind, clause):
    source = f'{kind} thing "Thing" {{\n    param x = 1\n    {clause}\n}}\n'
    diags = validate(canonical(source), kind, file="x")
    assert [d.code for d in diags] == ["schema/not_allowed"]
    assert f"is not allowed in a {kind}" in diags[0].message


def test_trait_ability_needs_trait_cost_and_window():
    source = VALID_SCRIPTS["trait_ability"]
    no_window = canonical(source.replace("    window after_attack_succeeds by self\n", ""))
    (diag,) = validate(no_window, "trait_ability", file="x")
    assert diag.code == "schema/too_few"
    assert "window clause" in diag.message

    no_cost = canonical(source.replace("    cost 5 PHYS\n", ""))
    (diag,) = validate(no_cost, "trait_ability", file="x")
    assert diag.code == "schema/too_few"
    assert "trait points" in diag.message
    # Which resources are traits is content (stats of the `trait` group): the checker's to refuse.
    ap_cost = source.replace("cost 5 PHYS", "cost 5 AP")
    assert validate(canonical(ap_cost), "trait_ability", file="x") == []
    (refused,) = check_declarations(parse(ap_cost, "x").declarations, base_context())
    assert refused.code == "check/wrong_type" and "paid from trait reserves" in refused.message

    both = canonical(source.replace("cost 5 PHYS", "cost 2 WILL, 1 CUNN"))
    assert validate(both, "trait_ability", file="x") == []


def test_every_error_is_reported():
    data = canonical(STANDARD_ATTACK.replace("cost 2 AP", "cost 40 AP, 13 MP"))
    data["name"] = ""
    data["colour"] = "red"
    diags = validate(data, "command", file="x")
    codes = sorted(d.code for d in diags)
    assert codes == ["schema/invalid", "schema/out_of_range", "schema/out_of_range", "schema/unknown_key"]
    unknown = next(d for d in diags if d.code == "schema/unknown_key")
    assert unknown.message == "unknown key `colour`"


def test_bad_id_and_sds_and_operators():
    data = canonical(STANDARD_ATTACK)
    data["id"] = "Standard-Attack"
    data["clauses"][2]["opposed"]["level"] = {"sds": 4}
    data["clauses"][0]["values"][0] = {"op": "%", "left": 1, "right": 2}
    diags = {d.message.split(":")[0]: d for d in validate(data, "command", file="x")}
    assert diags["id"].code == "schema/not_allowed"
    assert "snake_case" in diags["id"].hint
    assert diags["clauses[2].opposed.level.sds"].code == "schema/out_of_range"
    assert diags["clauses[0].values[0].op"].code == "schema/not_allowed"
    assert "one of: +, -, *, /, and, or" in diags["clauses[0].values[0].op"].hint


def test_unknown_expression_tag_and_statement_shape():
    data = canonical(STANDARD_ATTACK)
    data["clauses"][0]["values"][0] = {"lsit": [1]}
    data["clauses"][3]["body"][0]["preps"].append({"prep": "bye", "value": 1})
    data["clauses"][3]["body"].append({"let": "x"})
    diags = validate(data, "command", file="x")
    by_message = {d.message: d for d in diags}
    assert by_message["clauses[0].values[0]: unknown key `lsit`"].code == "schema/unknown_key"
    assert "`list`" in by_message["clauses[0].values[0]: unknown key `lsit`"].hint
    (bad_prep,) = [d for m, d in by_message.items() if m.startswith("clauses[3].body[0].preps[2].prep")]
    assert bad_prep.code == "schema/not_allowed"
    assert by_message["clauses[3].body[1]: missing required key `value`"].code == "schema/required"


def test_roll_needs_exactly_one_spec():
    data = canonical(STANDARD_ATTACK)
    del data["clauses"][2]["opposed"]
    (diag,) = validate(data, "command", file="x")
    assert diag.message.startswith("clauses[2]")
    assert diag.code in ("schema/required", "schema/invalid")


def test_wrong_type_message():
    data = canonical(STANDARD_ATTACK)
    data["clauses"] = {"not": "a list"}
    (diag,) = validate(data, "command", file="x")
    assert diag.code == "schema/wrong_type"
    assert diag.message.startswith("clauses: expected array, got object")


def test_missing_top_level_keys():
    diags = validate({"kind": "command", "id": "x"}, "command", file="x")
    assert sorted(d.message for d in diags) == ["missing required key `clauses`", "missing required key `name`"]
    assert {d.code for d in diags} == {"schema/required"}


def test_validate_does_not_mutate_input():
    data = canonical(VALID_SCRIPTS["command_full"])
    before = copy.deepcopy(data)
    validate(data, "command", file="x")
    assert data == before


def test_roll_with_two_specs_is_invalid():
    data = canonical(STANDARD_ATTACK)
    data["clauses"][2]["threshold"] = 4
    (diag,) = validate(data, "command", file="x")
    assert diag.code == "schema/invalid"
    assert diag.message == "clauses[2]: matches more than one alternative; exactly one is expected"
    assert "threshold roll" in diag.hint
