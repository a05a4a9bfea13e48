"""Every example the language's help shows is script text that parses and checks, in a small pack
of its own (the vocabulary names no word of a game, so neither do its examples): an example that
names a word the language lacks, or passes a value of the wrong type, fails here."""

from __future__ import annotations

import pytest

from nexus_dsl import assist
from nexus_dsl import vocabulary as V
from nexus_dsl.check.checker import Checker
from nexus_dsl.check.context import context_of
from nexus_dsl.syntax.parser import parse

# The words the examples may name besides the language's own.
WORDS = '''
state stunned "Stunned" { text "Cannot act." }
pile pot "Pot" { default_for damage }
pile box "Box" { reserve true }
pile purse "Purse" { owner player }
pile tally "Tally" { numbered true }
stat MIGHT "Might" { group trait }
stat arm "Arm" { group location
    start 3 }
stat morale "Morale" { low 0
    high 5 }
zone deck "Deck" { holds card
    drawn kept }
event round_starts "Round starts" { arg self: piece }
event round_ends "Round ends" { arg self: piece }
event round_over "Round over" { arg self: piece }
window any_time "Any time" { text "Whenever." }
procedure points_never_carry_over "Points never carry over" { arg who: piece
    effect { forfeit AP from who } }
procedure setting_up "Setting up" { effect { log "set" } }
procedure play_round "Play a round" { effect { take_turns in_play() } }
procedure most_points "Most points" { effect { declare_draw } }
turn command_round "Command round" { starts round_starts }
'''
OBJECTS = ("rock",)
SETTINGS = {"ratio_die": "number"}

# Where an example may stand, each with the line the example goes on ({example} alone on it).
PLACES = (
    'command example "Example" {{\n    targets opponent\n    cost 1 AP\n    roll attack SD vs defense\n'
    '    on success {{\n        {example}\n    }}\n}}',
    'command example "Example" {{\n    targets opponent\n    cost 1 AP\n    roll attack SD vs defense\n'
    '    on success {{\n        let value = {example}\n    }}\n}}',
    'command example "Example" {{\n    targets opponent\n    cost 1 AP\n    roll attack SD vs defense\n'
    '    {example}\n}}',
    'rule example "Example" {{\n    when command_used {{\n        {example}\n    }}\n}}',
    'rule example "Example" {{\n    when command_used {{\n        let value = {example}\n    }}\n}}',
    'procedure example "Example" {{\n    effect {{\n        {example}\n    }}\n}}',
    *(f'{kind} example "Example" {{{{\n    {{example}}\n}}}}' for kind in V.CLAUSES),
)


@pytest.fixture(scope="module")
def checker() -> Checker:
    words = parse(WORDS + 'event command_used "Command used" { arg self: piece\n    arg command: command }\n',
                  "words.nexus").declarations
    return Checker(context_of(words, {**SETTINGS, "ratio_die": "number"}, OBJECTS))


def problems_in_place(checker: Checker, place: str, example: str) -> list[str] | None:
    """The problems found on the example's own line, or None where the place does not parse."""
    text = place.format(example=example)
    line = next(n for n, content in enumerate(text.split("\n"), start=1) if example in content)
    try:
        declaration = parse(text, "example.nexus").declarations[0]
    except Exception:  # noqa: BLE001 - a place the example cannot stand in
        return None
    found = checker.check(declaration)
    return [f"{d.message} ({d.hint})" for d in found if d.line == line and d.severity == "error"]


def fits_somewhere(checker: Checker, example: str) -> list[str]:
    """[] where the example parses and checks in one of the places; else what went wrong in each."""
    tried: list[str] = []
    for place in PLACES:
        problems = problems_in_place(checker, place, example)
        if problems == []:
            return []
        tried.extend(problems or [])
    return tried or ["it parses nowhere"]


EXAMPLES = [(entry.group, entry.word, entry.example) for entry in assist.language_entries() if entry.example]


@pytest.mark.parametrize(("group", "word", "example"), EXAMPLES, ids=[f"{g}:{w}" for g, w, _ in EXAMPLES])
def test_every_example_parses_and_checks(checker: Checker, group: str, word: str, example: str) -> None:
    assert word in example
    assert fits_somewhere(checker, example) == []


def test_the_places_refuse_a_wrong_example(checker: Checker) -> None:
    """An unknown word, a value of the wrong type and broken syntax are each found."""
    assert fits_somewhere(checker, "damage target by 2 at elbow")
    assert fits_somewhere(checker, 'add_state target "stunned" by')
    assert fits_somewhere(checker, "heal self by true from pot")
    assert fits_somewhere(checker, "damage target by 2 at arm") == []


def test_every_effect_function_property_and_attribute_has_an_example() -> None:
    missing = [f"effect {verb}" for verb, s in V.PRIMITIVES.items() if not s.example]
    missing += [f"function {name}" for name, s in V.FUNCTIONS.items() if not s.example and s.doc]
    missing += [f"property {name}" for props in V.PROPERTIES.values() for name in props
                if not V.PROPERTY_NOTES.get(name, V.Note()).example]
    tables = (V.PIECE_ATTRIBUTES, V.PLAYER_ATTRIBUTES, V.HOLD_ATTRIBUTES, V.COMMAND_ATTRIBUTES, V.ROLL_NAMES)
    missing += [f"attribute {name}" for table in tables for name in table
                if not V.ATTRIBUTE_NOTES.get(name, V.Note()).example]
    missing += [f"keyword {word}" for word in assist.grammar_keywords().values() if word not in assist.KEYWORDS]
    assert not missing
