"""A hazard's `activation` words are its game's: the base game lists the ways its rulebook sorts
hazards (`game nexus_arena { activations ... }`), so a misspelt one is refused with them; a game that
lists none lets its hazards use any word, and the vocabulary names none."""

from __future__ import annotations

from support import base_context

from nexus_dsl import vocabulary as V
from nexus_dsl.check.checker import CheckContext, check_declarations
from nexus_dsl.syntax.parser import parse


def _problems(activation: str, context: CheckContext) -> list[tuple[str, str | None]]:
    source = f'hazard h "H" {{\n    activation {activation}\n    text "x"\n}}\n'
    return [(d.message, d.hint) for d in check_declarations(parse(source).declarations, context)]


def test_the_base_game_lists_its_hazards_activations() -> None:
    assert _problems("duplicate, turning_point, always_active, player_activated", base_context()) == []
    assert _problems("turning_piont", base_context()) == [
        ("unknown activation `turning_piont`", "did you mean `turning_point`?")]


def test_a_game_that_lists_none_takes_any_word() -> None:
    assert _problems("at_dawn", CheckContext()) == []
    assert "activation" not in V.PROPERTY_VALUES
