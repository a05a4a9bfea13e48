"""States are content: a pack declares each one (`state <id> "<Name>" { ... }`), and only declared
states are words of the `state` type. The base game declares its seven; a pack that builds on
nothing knows none of them; a pack's own states work in every place a state stands; a state's
board badge and colour are checked where they are written."""

from __future__ import annotations

from pathlib import Path

from support import BASE_STATES, write_pack

from nexus_dsl import cached_ruleset, check_script_text
from nexus_dsl.content.loader import load_ruleset_collecting

DAZED = '''state dazed "Dazed" {
    badge "Dz"
    colour "#00695c"
    text "A dazed helot shakes it off at the end of its command round."
    when round_ends {
        remove_state self dazed
    }
}

rule dazing_blows "Dazing Blows" {
    text "A helot knocked prone is dazed as well, unless it already is."
    when state_added if state == prone and self is not dazed {
        add_state self dazed
    }
}
'''


def test_the_base_game_declares_its_seven_states_in_the_contract_s_order() -> None:
    assert tuple(cached_ruleset(("base",)).scripts["state"]) == BASE_STATES


def test_a_pack_that_builds_on_nothing_knows_no_state(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "bare", "bare", {"rules.nexus": (
        'event round_starts "Round Starts" { arg self: piece }\n'
        'rule lie_down "Lie Down" {\n    when round_starts {\n        add_state self prone\n    }\n}\n')})
    ruleset, diagnostics = load_ruleset_collecting([str(pack)])
    assert ruleset is None
    (problem,) = diagnostics
    assert (problem.code, problem.line, problem.column) == ("check/unknown_name", 4, 24)
    assert problem.message == "unknown state `prone`" and "no state is declared" in (problem.hint or "")


def test_a_pack_s_own_state_works_wherever_a_state_stands(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "dazing", "dazing", {"rules.nexus": DAZED}, builds_on="[base]")
    ruleset, diagnostics = load_ruleset_collecting(["base", str(pack)])
    assert diagnostics == [] and ruleset is not None
    assert tuple(ruleset.scripts["state"]) == BASE_STATES + ("dazed",)


def test_an_unknown_state_names_the_declared_ones() -> None:
    text = 'rule r "R" {\n    when round_starts if self is poisoned {\n        remove_state self bleeding\n    }\n}\n'
    with_base = check_script_text(text, "r.nexus", cached_ruleset(("base",)))
    assert [(d.code, d.line, d.column) for d in with_base] == [("check/unknown_name", 2, 34)]
    assert "prone" in (with_base[0].hint or "") and "poisoned" not in (with_base[0].hint or "")
    assert check_script_text(text, "r.nexus", cached_ruleset(("base", "poison_gallery"))) == []


def test_a_lone_file_may_use_the_states_it_declares() -> None:
    assert check_script_text(DAZED, "dazed.nexus", cached_ruleset(("base",))) == []


def test_a_badge_and_a_colour_are_checked_where_written() -> None:
    text = 'state odd "Odd" {\n    badge "Odd"\n    colour "green"\n}\n'
    problems = check_script_text(text, "odd.nexus", cached_ruleset(("base",)))
    assert [(d.code, d.line, d.column) for d in problems] == [("check/out_of_range", 2, 11),
                                                              ("check/out_of_range", 3, 12)]
    assert "one or two visible characters" in problems[0].message and "#rrggbb" in problems[1].message
