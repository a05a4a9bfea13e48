"""What the checker reads of hands and roles from the content: a game's `profiles` and `roles`
name kinds of YAML data; the name of an item of `roles` is the game's role word, a piece's
attribute and the property a trait ability or rule names its role by; a zone's `keep` names a
field of the player's profile. (In play: tests/engine/test_hands.py.)"""

from __future__ import annotations

from support import base_word_declarations

from nexus_dsl import check_declarations, parse
from nexus_dsl.check.context import context_of

TALENT = '''rule stubborn "Stubborn" {
    motivation zealot
    when round_starts if self.motivation == "zealot" {
        log "still standing"
    }
}
'''
ROUND_STARTS = 'event round_starts "Round starts" {\n    arg self: piece\n}\n'


def found(source: str, base: bool = True) -> list[tuple[str, int, int]]:
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*(base_word_declarations() if base else ()), *declarations])
    return [(d.code, d.line, d.column) for d in check_declarations(declarations, context)]


def test_the_game_names_kinds_of_data_for_its_profiles_and_roles() -> None:
    assert found('game g "G" {\n    profiles lanistas\n    roles motivations\n}\n', base=False) == []
    assert found('game g "G" {\n    profiles lanista\n}\n', base=False) == [("check/unknown_name", 2, 14)]


def test_a_rule_names_its_role_by_the_game_s_role_word() -> None:
    assert found(TALENT) == []  # the base game's roles are its motivations
    own = 'game g "G" {\n    roles motivations\n}\n'
    assert found(own + ROUND_STARTS + TALENT, base=False) == []


def test_a_game_without_roles_has_no_role_word() -> None:
    problems = found(ROUND_STARTS + TALENT, base=False)
    assert ("check/unknown_property", 5, 5) in problems  # `motivation zealot`
    assert any(code == "check/unknown_name" and line == 6 for code, line, _ in problems)  # `self.motivation`


def test_a_zone_names_the_profile_field_of_its_deal() -> None:
    zone = 'card boon "Boon" {\n    text "A boon."\n}\n\nzone boons "Boons" {\n    holds card\n    drawn kept\n    keep "boons"\n}\n'
    assert found(zone, base=False) == []
