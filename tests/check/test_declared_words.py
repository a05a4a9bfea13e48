"""The words of a game are content: stats and their groups, piles, events and windows are declared,
and a pack knows only the words of the packs it builds on. (States: test_declared_states.py; the
engine's side, a declared location, trait, pile and event in play: tests/scenarios/words.)"""

from __future__ import annotations

from pathlib import Path

from support import BASE_LOCATIONS, BASE_TRAITS, base_word_declarations, write_pack

from nexus_dsl import cached_ruleset, check_declarations, load_ruleset_collecting, parse
from nexus_dsl.check.context import context_of
from nexus_dsl.validate_files import check_script_text

USES_BASE_WORDS = '''event round_starts "Round Starts" {
    arg self: piece
}

rule borrowed "Borrowed" {
    when round_starts {
        damage self by 1 at head
        transfer 1 from crowd to self
    }
}
'''

OWN_WORDS = '''stat vigour "Vigour" {
    group gauge
    start 3
}

pile purse "The Purse" {
    text "Where winnings go."
}

event bell_rings "The Bell Rings" {
    arg self: piece
    arg round: number
}

window after_bell "After the Bell" {
    arg self: piece
}

rule ringing "Ringing" {
    when bell_rings if round > 1 and self.vigour > 0 {
        transfer 1 from box to purse
    }
}
'''


def found(source: str, settings: dict[str, str] | None = None) -> list[tuple[str, int, int, str]]:
    """The problems of `source` checked on top of the base game's words, with the words it declares."""
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*base_word_declarations(), *declarations], settings)
    return [(d.code, d.line, d.column, d.message) for d in check_declarations(declarations, context)]


def test_the_base_game_declares_the_contract_s_traits_and_locations_in_order() -> None:
    words = cached_ruleset(("base",)).words
    assert words.group("trait") == BASE_TRAITS  # trait-die face order
    assert words.group("location") == BASE_LOCATIONS
    assert words.starts["head"] == 10 and words.starts["chest"] == 15 and words.starts["WILL"] == 0
    assert words.piles == ("crowd", "box")
    assert "attack_succeeds" in words.events and words.windows["before_damage"]["victim"] == "piece"


def test_a_pack_that_builds_on_nothing_knows_no_event_location_or_pile(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "bare", "bare", {"rules.nexus": USES_BASE_WORDS})
    ruleset, diagnostics = load_ruleset_collecting([str(pack)])
    assert ruleset is None
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("check/unknown_name", 7, 29), ("check/unknown_name", 8, 25)]
    assert diagnostics[0].message == "unknown location `head`"
    assert "no location is declared" in (diagnostics[0].hint or "")
    assert diagnostics[1].message == "unknown coin pile `crowd`" and "no pile is declared" in (diagnostics[1].hint or "")
    without_event = write_pack(tmp_path / "bare2", "bare2", {"rules.nexus": USES_BASE_WORDS.split("\n\n", 1)[1]})
    _ruleset, diagnostics = load_ruleset_collecting([str(without_event)])
    assert (diagnostics[0].code, diagnostics[0].line, diagnostics[0].column) == ("check/unknown_event", 2, 10)
    assert "no event is declared" in (diagnostics[0].hint or "")


def test_a_pack_that_builds_on_nothing_may_use_the_words_it_declares(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "own", "own", {"words.nexus": OWN_WORDS.replace("box", "purse")})
    ruleset, diagnostics = load_ruleset_collecting([str(pack)])
    assert diagnostics == [] and ruleset is not None
    assert ruleset.words.group("gauge") == ("vigour",) and ruleset.words.starts["vigour"] == 3
    assert ruleset.words.events["bell_rings"] == {"self": "piece", "round": "number"}
    assert ruleset.words.piles == ("purse",) and tuple(ruleset.words.windows) == ("after_bell",)


def test_the_base_words_are_known_on_top_of_base() -> None:
    assert check_script_text(USES_BASE_WORDS, "r.nexus", cached_ruleset(("base",))) == []


def test_a_stat_group_is_a_word_not_a_type_of_the_language() -> None:
    assert found('stat x "X" {\n    group number\n}\n') == [
        ("check/duplicate_name", 2, 11, "`number` is already a type of the language")]
    assert found('stat x "X" {\n    group "trait"\n}\n') == [
        ("check/wrong_type", 2, 11, "`group` takes a word, e.g. `group trait`")]


def test_a_stat_starts_at_a_number_written_out_or_a_rule_param() -> None:
    settings = {"tail_condition": "number"}
    assert found('stat x "X" {\n    start tail_condition\n}\n', settings) == []
    assert found('stat x "X" {\n    start 12\n}\n', settings) == []
    (unknown,) = found('stat x "X" {\n    start tail_conditon\n}\n', settings)
    assert unknown[:3] == ("check/unknown_name", 2, 11) and "not a rule param" in unknown[3]
    for value in ("2 + 3", "true"):
        problems = found(f'stat x "X" {{\n    start {value}\n}}\n', settings)
        assert ("check/not_constant", 2, 11) in [p[:3] for p in problems], value
    # Below 0 only where `low` lets it: a score with penalties.
    assert [p[:3] for p in found('stat x "X" {\n    start -1\n}\n', settings)] == [("check/out_of_range", 2, 11)]
    assert found('stat x "X" {\n    low -5\n    start -1\n}\n', settings) == []
    (group,) = found('stat x "X" {\n    group location\n    low -5\n}\n', settings)
    assert group[:3] == ("check/out_of_range", 3, 9) and "never goes below 0" in group[3]


def test_a_rule_param_a_stat_starts_at_is_read_as_a_count(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "tails", "tails", {"tail.nexus": (
        'stat tail "Tail" {\n    group location\n    start tail_condition\n}\n'
        'rule saurians "Saurians" {\n    param tail_condition = "long"\n}\n')}, builds_on="[base]")
    _ruleset, diagnostics = load_ruleset_collecting(["base", str(pack)])
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("check/wrong_type", 6, 28)]
    assert "read by the engine as a whole number" in diagnostics[0].message


def test_an_event_binds_values_of_any_type_and_only_those() -> None:
    (problem,) = found('event e "E" {\n    arg x: colour\n}\n')
    assert problem[:3] == ("check/unknown_type", 2, 12) and problem[3] == "unknown bound name type `colour`"
    assert found('event e "E" {\n    arg where: location\n    arg what: state\n    arg n: number\n}\n') == []


def test_a_when_clause_reads_exactly_what_its_declared_event_binds() -> None:
    words = 'event bell_rings "Bell" {\n    arg round: number\n}\n'
    ok = words + 'rule r "R" {\n    when bell_rings if round > 1 {\n        log "again"\n    }\n}\n'
    assert found(ok) == []
    wrong = words + 'rule r "R" {\n    when bell_rings if rounds > 1 {\n        log "again"\n    }\n}\n'
    assert [p[:3] for p in found(wrong)] == [("check/unknown_name", 5, 24)]


def test_a_trait_ability_is_paid_from_declared_traits_only() -> None:
    ability = 'trait_ability a "A" {\n    cost 2 {res}\n    window any_time\n    effect {\n        log "x"\n    }\n}\n'
    assert found(ability.replace("{res}", "PHYS")) == []
    (problem,) = found(ability.replace("{res}", "AP"))
    assert problem[:3] == ("check/wrong_type", 2, 12)
    luck = 'stat LUCK "Luck" {\n    group trait\n}\n'
    assert found(luck + ability.replace("{res}", "LUCK")) == []


def test_a_window_declaration_is_a_declaration_at_the_top_of_a_file() -> None:
    (declaration,) = parse('window after_bell "After the Bell" {\n    arg self: piece\n}\n', "w.nexus").declarations
    assert declaration.kind == "window" and declaration.id == "after_bell"
    ability = 'window after_bell "After" {\n}\ntrait_ability a "A" {\n    cost 1 PHYS\n    window after_bell by self\n}\n'
    assert found(ability) == []


def test_a_plain_stat_is_a_stat_and_the_engine_s_groups_are_not() -> None:
    nerve = 'stat nerve "Nerve" {\n    low 0\n    high 3\n    levels "calm", "tense"\n}\n'
    use = nerve + ('rule r "R" {\n    when round_starts {\n        add_stat self nerve by 1\n'
                   '        set_stat self nerve to stat_value(self, nerve) - 1\n        log stat_level(self, nerve)\n    }\n}\n')
    assert found(use) == []
    (problem,) = found('rule r "R" {\n    when round_starts {\n        add_stat self head by 1\n    }\n}\n')
    assert problem[:3] == ("check/wrong_type", 3, 23) and problem[3] == "expected a stat, got a location"


def test_a_stat_s_bounds_are_in_order_where_written() -> None:
    assert [p[:3] for p in found('stat x "X" {\n    low 5\n    high 2\n}\n')] == [("check/out_of_range", 3, 10)]
    assert [p[:3] for p in found('stat x "X" {\n    low 1\n    start 0\n}\n')] == [("check/out_of_range", 3, 11)]
    (problem,) = found('stat x "X" {\n    group location\n    levels "a"\n}\n')
    assert problem[:3] == ("check/unexpected_argument", 3, 5)


def test_a_rule_param_a_bound_names_is_read_as_a_count(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "capped", "capped", {"nerve.nexus": (
        'stat nerve "Nerve" {\n    high nerve_cap\n}\nrule caps "Caps" {\n    param nerve_cap = true\n}\n')},
        builds_on="[base]")
    _ruleset, diagnostics = load_ruleset_collecting(["base", str(pack)])
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("check/wrong_type", 5, 23)]


def test_a_zone_holds_a_declaration_kind_and_plays_or_keeps_what_is_drawn() -> None:
    assert found('zone omens "Omens" {\n    holds turning_point\n    drawn played\n}\n') == []
    problems = found('zone omens "Omens" {\n    holds spells\n    drawn burned\n}\n')
    assert [p[:3] for p in problems] == [("check/unknown_name", 2, 11), ("check/unknown_name", 3, 11)]
    (unknown,) = found('rule r "R" {\n    when round_starts {\n        draw omens for self\n    }\n}\n')
    assert unknown[:3] == ("check/unknown_name", 3, 14) and unknown[3] == "unknown zone `omens`"
