"""The checker's side of the game's piles: what each kind of pile (a counter, the reserve, one each
player holds, a shared one) may say of itself, one reserve and one default pile for each purpose a
game, and the piles each player holds read on a piece or a player, paid as costs and counted as a
score. A pack that builds on nothing knows the piles it declares and none of the base game's."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import check_declarations, load_ruleset_collecting, parse
from nexus_dsl.check.context import context_of

PILES = '''pile gold "Gold" {
    owner player
    default_for damage
}

pile pot "The Pot" {
    start 3
    per player
    default_for damage, payment, mark
}

pile bank "The Bank" {
    reserve true
}
'''


def found(source: str, settings: dict[str, str] | None = None) -> list[tuple[str, int, int, str]]:
    declarations = parse(PILES + source, "t.nexus").declarations
    context = context_of(declarations, settings)
    return [(d.code, d.line, d.column, d.message) for d in check_declarations(declarations, context)]


def codes(source: str) -> list[tuple[str, int]]:
    return [(code, line) for code, line, _column, _message in found(source)]


def test_a_game_s_own_piles_are_read_paid_and_counted() -> None:
    uses = '''command raid "Raid" {
    cost 1 gold
    requires self.gold > 0 and coins(pot) >= 0 and coins(self) >= 0
    effect {
        transfer 1 from pot to self
        damage self by 1 to bank
        mark self "took" with self.gained
    }
}

game raiding "Raiding" {
    score gold
}
'''
    assert found(uses) == []


def test_a_pile_each_player_holds_is_no_pile_a_script_names_alone() -> None:
    unknown = found('command c "C" {\n    cost 0 AP\n    effect {\n        transfer 1 from gold to pot\n    }\n}\n')
    assert [p[:3] for p in unknown] == [("check/wrong_type", 18, 25)]
    assert unknown[0][3] == "each player holds a `gold`: name whose"


def test_a_cost_is_paid_in_a_declared_pile_only() -> None:
    problems = found('command c "C" {\n    cost 1 cred\n}\n')
    assert [p[0] for p in problems] == ["check/unknown_name"] and problems[0][3] == "unknown cost resource `cred`"


def test_each_kind_of_pile_says_only_what_it_can() -> None:
    counter = 'pile notches "N" {\n    numbered true\n    owner player\n    start 2\n    default_for mark\n}\n'
    assert codes(counter) == [("check/unexpected_argument", 17), ("check/unexpected_argument", 18),
                              ("check/unexpected_argument", 19)]
    reserve = 'pile vault "V" {\n    reserve true\n    start 5\n}\n'
    assert ("check/unexpected_argument", 17) in codes(reserve)
    owned = 'pile purse "P" {\n    owner player\n    start 1\n    per player\n}\n'
    assert codes(owned) == [("check/unexpected_argument", 18)]
    unshared = 'pile heap "H" {\n    per player\n}\n'
    assert codes(unshared) == [("check/missing_clause", 16)]
    below = 'pile heap "H" {\n    start -1\n}\n'
    assert ("check/out_of_range", 16) in codes(below)


def test_a_game_has_one_reserve_and_one_default_pile_for_each_purpose() -> None:
    second_reserve = found('pile vault "V" {\n    reserve true\n}\n')
    assert [p[:2] for p in second_reserve] == [("check/duplicate_name", 16)]
    assert "`bank` already is the reserve" in second_reserve[0][3]
    second_default = found('pile heap "H" {\n    default_for payment\n}\n')
    assert [p[:2] for p in second_default] == [("check/duplicate_name", 16)]
    assert "`pot` already is the default for `payment`" in second_default[0][3]
    owned_payment = found('pile purse "P" {\n    owner player\n    default_for payment\n}\n')
    assert [p[:2] for p in owned_payment] == [("check/wrong_type", 17)]
    unknown_purpose = found('pile heap "H" {\n    default_for healing\n}\n')
    assert [p[:2] for p in unknown_purpose] == [("check/unknown_name", 16)]


def test_a_pile_s_name_is_free_where_it_is_read() -> None:
    attribute = found('pile overall "O" {\n    owner player\n}\n')
    assert [p[:2] for p in attribute] == [("check/duplicate_name", 15)] and "read on them by its id" in attribute[0][3]
    log_field = found('pile winner "W" {\n}\n')
    assert [p[:2] for p in log_field] == [("check/duplicate_name", 15)] and "the log already writes" in log_field[0][3]


def test_a_pile_s_start_names_a_rule_param_read_as_a_count() -> None:
    assert codes('pile heap "H" {\n    start heap_size\n}\n') == [("check/unknown_name", 16)]
    assert found('pile heap "H" {\n    start heap_size\n}\n', {"heap_size": "number"}) == []


def test_a_pack_that_builds_on_nothing_knows_its_own_piles_only(tmp_path: Path) -> None:
    own = write_pack(tmp_path / "own", "own", {"piles.nexus": PILES + 'game g "G" {\n    score gold\n}\n'})
    ruleset, problems = load_ruleset_collecting([str(own)])
    assert problems == [] and ruleset is not None
    borrowed = write_pack(tmp_path / "borrowed", "borrowed", {"rules.nexus": 'game g "G" {\n    score cred\n}\n'
                                                              'command c "C" {\n    cost 0 AP\n    effect {\n'
                                                              '        transfer 1 from crowd to box\n    }\n}\n'})
    _ruleset, problems = load_ruleset_collecting([str(borrowed)])
    assert [p.code for p in problems] == ["check/unknown_name", "check/unknown_name", "check/unknown_name"]
